// HarfBuzz for the raw-shaping floor benchmark (the library's CHarfBuzz stays internal).
#include <hb.h>
#include <hb-ot.h>
