/* cairo and pangocairo for the content rasterizer (Sources/CContent); its
 * pkg-config flags reach the targets that depend on this one. */
#include <cairo.h>
#include <pango/pangocairo.h>
