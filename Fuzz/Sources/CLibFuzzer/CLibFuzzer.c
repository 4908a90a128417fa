// Declarations only: LLVMFuzzerRunDriver is defined by libFuzzer (-sanitize=fuzzer).
#include "CLibFuzzer.h"
