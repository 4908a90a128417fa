// libpng through pkg-config (libpng-dev). Only CPNG.c includes it: Swift never calls libpng.
#include <png.h>
