// Pango + cairo for the benchmarks' peer (PangoPeer); never a dependency of the library.
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pango/pangofc-font.h>
#include <fontconfig/fontconfig.h>
