/*
 * What the sprite path's files share (software_sprite_batch.c: the rule,
 * runs and bands; software_sprite.c: image sprites' pixels;
 * software_fill_rotated.c: solid fills): where a run
 * draws, and the pieces of coverage both compute.
 */
#ifndef LAYERKIT_SOFTWARE_SPRITE_H
#define LAYERKIT_SOFTWARE_SPRITE_H

#include "software_private.h"

#include <math.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define SW_SPRITE_SSE2 1
#else
#define SW_SPRITE_SSE2 0
#endif

/* Rotated fills have an AVX2 build too (software_fill_rotated_avx2.c),
   chosen at run time, where the compiler can target it per function. */
#if SW_SPRITE_SSE2 && (defined(__x86_64__) || defined(__i386__)) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define SW_FILL_HAS_AVX2 1
#else
#define SW_FILL_HAS_AVX2 0
#endif

/* Around the #include of a whole source file, in the files that build it
   a second time for AVX2: every function between them targets AVX2. */
#if defined(__clang__)
#define SW_AVX2_BEGIN _Pragma("clang attribute push(__attribute__((target(\"avx2\"))), apply_to = function)")
#define SW_AVX2_END _Pragma("clang attribute pop")
#else
#define SW_AVX2_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"avx2\")")
#define SW_AVX2_END _Pragma("GCC pop_options")
#endif

/* Where a run draws: output pixel (x, y) is target[(y - ty) * tstride + x - tx],
   its clip mask value mask[(y - my) * mstride + x - mx]. */
typedef struct sw_sprite_target {
    uint32_t      *target;
    size_t         tstride;
    int32_t        tx, ty;
    const uint8_t *mask;
    size_t         mstride;
    int32_t        mx, my;
    bool           scalar;
    bool           avx2;     /* rotated fills and image sprites may use their AVX2 builds (not scalar, the CPU has it) */
} sw_sprite_target;

/* fmin and fmax for values that are not NaN (no libm call per pixel) */
static inline double min_d(double a, double b) { return a < b ? a : b; }
static inline double max_d(double a, double b) { return a > b ? a : b; }

/* The clip mask's value at output pixel (x, y). */
static inline uint32_t clip_value(const sw_sprite_target *t, int32_t x, int32_t y)
{
    return t->mask[(size_t)(y - t->my) * t->mstride + (size_t)(x - t->mx)];
}

/* The area of the unit pixel square inside one line of the pair edge
   (the pixel centre at distance d): linear while the line crosses two
   opposite sides of the pixel, quadratic where it cuts a corner. With unit
   normal n, a = max(|n.x|, |n.y|), b = min: the pixel spans h = (a + b) / 2
   either side along n, the linear part (a - b) / 2. */
static inline double edge_coverage(const sw_sprite *s, int pair, double d)
{
    double h = s->reach[pair];
    if (d >= h) return 1.0;
    if (d <= -h) return 0.0;
    double ad = fabs(d);
    if (ad <= s->linear[pair]) return 0.5 + d * s->inv_a[pair];
    double e = min_d(h - ad, s->b[pair]);
    double corner = e * e * s->inv_2ab[pair];
    return d > 0.0 ? 1.0 - corner : corner;
}

/* Pixels [x0, x1) of row y fully covered by colour argb (x the clip mask);
   pixels up to limit_x1 (inside the target) may be read and written back
   as they are (software_fill_rotated.c). */
void sw_solid_span(const sw_sprite_target *t, int32_t x0, int32_t x1, int32_t y, uint32_t argb, bool add,
                   int32_t limit_x1);

/* A rotated or skewed FILL sprite within box (software_fill_rotated.c); its
   AVX2 build, which it calls when t->avx2 (software_fill_rotated_avx2.c). */
void sw_fill_rotated(const sw_sprite *s, const sw_sprite_target *t, sw_box box);
void sw_fill_rotated_avx2(const sw_sprite *s, const sw_sprite_target *t, sw_box box);

/* Whether this CPU runs the AVX2 build. */
bool sw_fill_avx2_supported(void);

/* Whether the AVX2 builds (rotated fills, image sprites, the shadow blur)
   draw for inst: the CPU has AVX2 and LAYERKIT_SOFTWARE_SPRITES leaves
   them on (not sse2 or scalar). */
static inline bool sw_avx2_builds(const lk_backend_instance *inst)
{
    return inst->sprites == SW_SPRITES_ON && sw_fill_avx2_supported();
}

/* A band's sprites sprites[index[from..end)] within band
   (software_sprite.c); its AVX2 build (software_sprite_avx2.c: image
   sprites' whole pixels eight a step), which a run calls when t->avx2. */
void sw_sprite_draw_band(const sw_sprite *sprites, const sw_sprite_cut_lines *cut_lines, const uint32_t *index,
                         uint32_t from, uint32_t end, const sw_sprite_target *t, sw_box band);
void sw_sprite_draw_band_avx2(const sw_sprite *sprites, const sw_sprite_cut_lines *cut_lines,
                              const uint32_t *index, uint32_t from, uint32_t end, const sw_sprite_target *t,
                              sw_box band);

#endif
