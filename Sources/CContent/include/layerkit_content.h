/*
 * The core's CPU rasterizer for what layers draw: shape paths (fill, stroke,
 * dashes, trimming), gradients (axial, radial, conic), text (Pango: fontconfig,
 * FreeType, HarfBuzz, fribidi) and images, into premultiplied ARGB32 pixels.
 * Private to the core: no cairo or Pango type crosses this header.
 */
#ifndef LAYERKIT_CONTENT_H
#define LAYERKIT_CONTENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Pixels to draw into; layer point p lands at pixel (p - origin) * scale. */
typedef struct lkc_target {
    uint32_t *pixels;          /* ARGB32 premultiplied, native words */
    int width, height;         /* pixels */
    int stride;                /* bytes per row, a multiple of 4 */
    double scale;              /* contentsScale */
    double origin_x, origin_y; /* the layer point at pixel (0, 0) */
} lkc_target;

enum { LKC_MOVE = 0, LKC_LINE = 1, LKC_QUAD = 2, LKC_CURVE = 3, LKC_CLOSE = 4 };

/* A path as element codes and their points (x, y pairs): move and line take
 * one point, quad two, curve three, close none. */
typedef struct lkc_path {
    const uint8_t *ops;
    size_t op_count;
    const double *points;
} lkc_path;

/* Colours are straight-alpha sRGB, r g b a in 0..1. */
typedef struct lkc_color { double r, g, b, a; } lkc_color;

enum { LKC_CAP_BUTT = 0, LKC_CAP_ROUND = 1, LKC_CAP_SQUARE = 2 };
enum { LKC_JOIN_MITER = 0, LKC_JOIN_ROUND = 1, LKC_JOIN_BEVEL = 2 };

typedef struct lkc_stroke {
    double width;
    double miter_limit;
    int cap, join;
    const double *dashes;      /* lengths, alternately on and off; NULL or 0 count: solid */
    size_t dash_count;
    double dash_phase;
    double start, end;         /* strokeStart, strokeEnd: fractions of the path's length */
} lkc_stroke;

/* Fills the path (even_odd: the even-odd rule, else non-zero). */
void lkc_fill_path(const lkc_target *t, const lkc_path *p, lkc_color color, int even_odd);
/* Strokes the path, or the part of it between start and end. */
void lkc_stroke_path(const lkc_target *t, const lkc_path *p, lkc_color color, const lkc_stroke *s);
/* A shape layer's drawing in one pass: fill (if fill), then stroke (if stroke). */
void lkc_shape(const lkc_target *t, const lkc_path *p, const lkc_color *fill, int even_odd,
               const lkc_color *stroke, const lkc_stroke *s);

enum { LKC_GRADIENT_AXIAL = 0, LKC_GRADIENT_RADIAL = 1, LKC_GRADIENT_CONIC = 2 };

/* Fills rect (x, y, w, h) with a gradient whose start and end points are
 * in unit coordinates of that rect (CAGradientLayer): axial from start to
 * end; radial centred at start, reaching end's offset in each axis; conic
 * about start, angle 0 towards end, clockwise on screen. locations NULL
 * spreads the colours evenly. */
void lkc_gradient(const lkc_target *t, int type, const lkc_color *colors, const double *locations, size_t count,
                  double start_x, double start_y, double end_x, double end_y,
                  double x, double y, double w, double h);

enum { LKC_ALIGN_NATURAL = 0, LKC_ALIGN_LEFT, LKC_ALIGN_RIGHT, LKC_ALIGN_CENTER, LKC_ALIGN_JUSTIFIED };
enum { LKC_TRUNCATE_NONE = 0, LKC_TRUNCATE_START, LKC_TRUNCATE_MIDDLE, LKC_TRUNCATE_END };

typedef struct lkc_text_style {
    const char *font;          /* a fontconfig family name, may name a style: "DejaVu Sans Bold" */
    double size;               /* points (= pixels at scale 1) */
    lkc_color color;
    int alignment, truncation;
    int wrapped;
} lkc_text_style;

/* Lays out UTF-8 text in the box (x, y, w, h) from its top: lines are
 * wrapped at w when wrapped, cut with an ellipsis by truncation, aligned
 * per alignment (natural: by each paragraph's direction). Returns the
 * number of glyphs laid out. */
int lkc_text(const lkc_target *t, const char *utf8, size_t length, const lkc_text_style *style,
             double x, double y, double w, double h);

/* Draws pixels (ARGB32 premultiplied) scaled into rect, filtered bilinearly. */
void lkc_image(const lkc_target *t, const uint32_t *pixels, int width, int height, int stride,
               double x, double y, double w, double h, double opacity);

/* Clears the target to a colour (transparent: all zero). */
void lkc_clear(const lkc_target *t, lkc_color color);

#ifdef __cplusplus
}
#endif
#endif
