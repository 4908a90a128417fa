// libFuzzer's driver, declared for Swift. SwiftPM renames a Swift executable's entry
// point (so tests can link executables) and points `main` at it, which keeps libFuzzer's
// own `main` out; the fuzzer's `@main` calls this driver instead.
#ifndef TKL_CLIBFUZZER_H
#define TKL_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the process's arguments over `callback` (libFuzzer ≥ 11).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
