/*
 * References drawn with cairo in the test itself, a renderer independent of
 * LayerKit's pipeline (which rasterizes with cairo too, but then places,
 * composites and animates by its own code: these references check that).
 */
#ifndef LKT_CAIRO_H
#define LKT_CAIRO_H

#include <cairo.h>
#include <layerkit/layerkit.h>
#include <stdint.h>

#include "lkt_pixels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A w x h surface cleared to opaque black, as a display is (S1.0). */
cairo_t *lkt_cairo_begin(int width, int height);
/* The surface as RGBA8 straight alpha (free with free()); destroys cr. */
uint8_t *lkt_cairo_end(cairo_t *cr);
/* One check `name`: the display's frame against the cairo reference. */
int lkt_check_against_cairo(const char *name, lk_display *display, cairo_t *reference, lkt_tolerance tolerance);

#ifdef __cplusplus
}
#endif
#endif
