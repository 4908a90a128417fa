// libhyphen (Debian: libhyphen-dev), which ships no pkg-config file: the module map links
// `hyphen` directly. <stdio.h> for fmemopen: patterns are read by FileBytes, then handed
// to hnj_hyphen_load_file as a memory stream.
#include <stdio.h>
#include <hyphen.h>
