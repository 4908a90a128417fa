// libjpeg (libjpeg-turbo) through pkg-config (libjpeg62-turbo-dev). Only CJPEG.c includes it:
// Swift never calls libjpeg. jpeglib.h needs <stdio.h> (FILE, size_t) before it.
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
