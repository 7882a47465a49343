/*
 * The sprite path: small IMAGE ops under an affine transform (particles,
 * replicator instances, icons) drawn by a loop of our own instead of a
 * pixman composite each. A particle is 16x16 pixels; pixman's cost for it
 * is almost all per-call setup (the image's transform and filter, an A8
 * coverage mask, a tinted copy), which a frame of 10,000 particles pays
 * 10,000 times.
 *
 * This file draws a prepared sprite's pixels (compiled a second time for
 * AVX2); software_sprite_batch.c has the rule, the sprite records, the
 * transparent cuts and the runs' bands.
 *
 * The rule (sw_sprite_prepare; docs/rendering.md): an IMAGE op takes this
 * path when its transform is affine in output space (no perspective) and
 * either turns or skews it, anti-aliased, with a device bounding box of at
 * most SW_SPRITE_MAX_SIDE pixels a side (pixman's path for these is an A8
 * mask and its general bilinear fetcher: slower at every size measured),
 * or keeps it axis-aligned, tinted, at most SW_SPRITE_AXIS_MAX_SIDE pixels
 * a side (untinted or larger, pixman's blits and scaled fast paths win);
 * its image coordinates must stay within 16.16 fixed point and the target
 * be 32 bits a pixel. Everything else, and every op when
 * LAYERKIT_SOFTWARE_SPRITES=0, goes to pixman as before.
 *
 * What it computes is what the pixman path computes:
 *  - coverage: axis-aligned sprites split into the same constant-coverage
 *    pieces as the rect path (sw_rect_pieces); rotated ones get the exact
 *    area of each edge pixel inside the rect: closed form where only one
 *    edge, or two parallel edges, cross the pixel, the area by Green's
 *    theorem where edges of both directions do (a corner);
 *  - sampling: pixman's bilinear filter bit for bit (16.16 coordinates,
 *    7-bit weights, the source rect's edge texels repeated) or its nearest;
 *  - colour: the sample times tint x opacity x coverage (x the clip mask),
 *    with 8 bits of precision for the factor, then premultiplied OVER or
 *    saturating ADD with pixman's rounding.
 * The per-pixel blend has an SSE2 version and a portable one that compute
 * the same integers; LAYERKIT_SOFTWARE_SPRITES=scalar forces the portable
 * one (the tests compare all three ways). The band loop is compiled a
 * second time for AVX2 (software_sprite_avx2.c: whole pixels eight a
 * step, the same integers), called where the CPU has it unless
 * LAYERKIT_SOFTWARE_SPRITES is sse2 or scalar. Rotated images with transparent
 * margins skip the pixels whose samples read only transparent texels
 * ("Transparent cuts", software_sprite_batch.c), which changes no pixel.
 */
#include "software_sprite.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef SW_SPRITE_AVX2_VARIANT
#define SW_SPRITE_AVX2_VARIANT 0
#endif

/* A line of output space relative to a pixel centre: n . p + d >= 0 on the
   inside, n a unit normal, so d is the centre's distance in pixels. */
typedef struct sw_line { double nx, ny, d; } sw_line;

/* ------------------------------------------------------------------------ */
/* Sampling and blending one pixel                                           */

static inline int32_t clamp_i(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* 16.16 image coordinates of a pixel, already moved by -0.5 (texel centres). */
typedef struct sw_texel_pos { int32_t u, v; } sw_texel_pos;

/* The four texels around (u, v) and pixman's 7-bit weights; false when all
   four are transparent (nothing to draw). */
typedef struct sw_quad { uint32_t tl, tr, bl, br; uint32_t wx, wy; } sw_quad;

static inline bool fetch_nearest(const sw_sprite *s, sw_texel_pos p, sw_quad *q)
{
    /* pixman: the texel holding the sample point, ties to the left/top */
    int32_t x = clamp_i((p.u + 0x8000 - 1) >> 16, s->x_min, s->x_max);
    int32_t y = clamp_i((p.v + 0x8000 - 1) >> 16, s->y_min, s->y_max);
    q->tl = q->tr = q->bl = q->br = s->pixels[(size_t)y * s->stride + (size_t)x];
    q->wx = q->wy = 0;
    return q->tl != 0;
}

static inline bool fetch_bilinear(const sw_sprite *s, sw_texel_pos p, sw_quad *q)
{
    /* Arithmetic shifts floor negative coordinates, as in pixman. */
    int32_t x = p.u >> 16, y = p.v >> 16;
    int32_t x0 = clamp_i(x, s->x_min, s->x_max), x1 = clamp_i(x + 1, s->x_min, s->x_max);
    int32_t y0 = clamp_i(y, s->y_min, s->y_max), y1 = clamp_i(y + 1, s->y_min, s->y_max);
    const uint32_t *r0 = s->pixels + (size_t)y0 * s->stride, *r1 = s->pixels + (size_t)y1 * s->stride;
    q->tl = r0[x0]; q->tr = r0[x1]; q->bl = r1[x0]; q->br = r1[x1];
    q->wx = (uint32_t)(p.u >> 9) & 0x7f;
    q->wy = (uint32_t)(p.v >> 9) & 0x7f;
    return (q->tl | q->tr | q->bl | q->br) != 0;
}

static inline bool fetch(const sw_sprite *s, sw_texel_pos p, sw_quad *q)
{
    return (s->flags & SW_SPRITE_NEAREST) ? fetch_nearest(s, p, q) : fetch_bilinear(s, p, q);
}

/* fetch() for a bilinear sample whose four texels are all inside the
   sampled texels (no clamping). */
static inline bool fetch_inside(const sw_sprite *s, sw_texel_pos p, sw_quad *q)
{
    const uint32_t *r0 = s->pixels + (size_t)(p.v >> 16) * s->stride + (p.u >> 16);
    const uint32_t *r1 = r0 + s->stride;
    q->tl = r0[0]; q->tr = r0[1]; q->bl = r1[0]; q->br = r1[1];
    q->wx = (uint32_t)(p.u >> 9) & 0x7f;
    q->wy = (uint32_t)(p.v >> 9) & 0x7f;
    return (q->tl | q->tr | q->bl | q->br) != 0;
}

/* Portable: bilinear (pixman's sum of texel x weight products over 2^14,
   truncated), times k (256 = 1, rounded), OVER or ADD onto *dst. */
static inline void blend_scalar(uint32_t *dst, const sw_quad *q, const uint32_t k[4], bool add)
{
    uint32_t out = 0, d = *dst, s[4];
    uint32_t wx = q->wx, wy = q->wy;
    for (int c = 0; c < 4; c++) {
        int shift = 24 - 8 * c;   /* a, r, g, b */
        uint32_t tl = (q->tl >> shift) & 255, tr = (q->tr >> shift) & 255;
        uint32_t bl = (q->bl >> shift) & 255, br = (q->br >> shift) & 255;
        uint32_t left = tl * (128 - wy) + bl * wy, right = tr * (128 - wy) + br * wy;
        uint32_t v = (left * (128 - wx) + right * wx) >> 14;
        s[c] = (v * k[c] + 128) >> 8;
    }
    for (int c = 0; c < 4; c++) {
        int shift = 24 - 8 * c;
        uint32_t dc = (d >> shift) & 255, r;
        if (add) {
            r = dc + s[c];
        } else {
            uint32_t t = dc * (255 - s[0]) + 128;
            r = s[c] + ((t + (t >> 8)) >> 8);
        }
        out |= (r > 255 ? 255 : r) << shift;
    }
    *dst = out;
}

#if SW_SPRITE_SSE2
/* The same integers four channels at a time. k holds the factors as 16-bit
   lanes (b, g, r, a) in its low half. */
static inline void blend_sse2(uint32_t *dst, const sw_quad *q, __m128i k, bool add)
{
    const __m128i zero = _mm_setzero_si128();
    __m128i top = _mm_unpacklo_epi8(_mm_unpacklo_epi32(_mm_cvtsi32_si128((int)q->tl),
                                                       _mm_cvtsi32_si128((int)q->tr)), zero);
    __m128i bottom = _mm_unpacklo_epi8(_mm_unpacklo_epi32(_mm_cvtsi32_si128((int)q->bl),
                                                          _mm_cvtsi32_si128((int)q->br)), zero);
    /* vertical: left texel's channels in lanes 0-3, right's in 4-7 (<= 32640) */
    __m128i vert = _mm_add_epi16(_mm_mullo_epi16(top, _mm_set1_epi16((short)(128 - q->wy))),
                                 _mm_mullo_epi16(bottom, _mm_set1_epi16((short)q->wy)));
    /* horizontal: pairs (left, right) per channel, summed by madd */
    __m128i pairs = _mm_unpacklo_epi16(vert, _mm_srli_si128(vert, 8));
    __m128i w = _mm_set1_epi32((int)((q->wx << 16) | (128 - q->wx)));
    __m128i v = _mm_srli_epi32(_mm_madd_epi16(pairs, w), 14);
    v = _mm_packs_epi32(v, v);                                   /* 16-bit b g r a */
    __m128i s = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(v, k), _mm_set1_epi16(128)), 8);
    __m128i d = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)*dst), zero);
    __m128i r;
    if (add) {
        r = _mm_adds_epu16(d, s);
    } else {
        __m128i ia = _mm_sub_epi16(_mm_set1_epi16(255), _mm_shufflelo_epi16(s, 0xff));
        __m128i t = _mm_add_epi16(_mm_mullo_epi16(d, ia), _mm_set1_epi16(128));
        t = _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
        r = _mm_add_epi16(s, t);
    }
    *dst = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(r, r));
}

static inline __m128i factors_sse2(const uint32_t k[4])
{
    return _mm_set_epi16(0, 0, 0, 0, (short)k[0], (short)k[1], (short)k[2], (short)k[3]);
}
#endif

/* v in 16.16 fixed point, rounded (|v| < 2^15: no libm call per pixel). */
static inline int32_t to_fixed(double v)
{
    return (int32_t)((int64_t)(v * 65536.0 + 4294967296.5) - 4294967296LL);
}

/* The 16.16 texel position of output pixel (x, y)'s centre. */
static inline sw_texel_pos texel_pos(const sw_sprite *s, int32_t x, int32_t y)
{
    double X = x + 0.5, Y = y + 0.5;
    sw_texel_pos p;
    p.u = to_fixed(s->ux * X + s->uy * Y + s->u0 - 0.5);
    p.v = to_fixed(s->vx * X + s->vy * Y + s->v0 - 0.5);
    return p;
}

/* Per-channel factors (256 = 1) for coverage alpha (0..1) x the clip mask at
   output pixel (x, y); false when they are all 0. */
static inline bool factors(const sw_sprite *s, const sw_sprite_target *t, double alpha, int32_t x,
                           int32_t y, uint32_t k[4])
{
    float a = (float)alpha;
    if (t->mask) a *= t->mask[(size_t)(y - t->my) * t->mstride + (size_t)(x - t->mx)] * (1.0f / 255.0f);
    for (int c = 0; c < 4; c++) k[c] = (uint32_t)(s->factor[c] * a + 0.5f);
    return (k[0] | k[1] | k[2] | k[3]) != 0;
}

/* Pixels [x0, x1) of row y, each covered by alpha (0..1); p is the texel
   position of pixel x0. */
static void draw_span(const sw_sprite *s, const sw_sprite_target *t, int32_t x0, int32_t x1, int32_t y,
                      double alpha, sw_texel_pos p)
{
    if (x1 <= x0) return;
    uint32_t *dst = t->target + (size_t)(y - t->ty) * t->tstride - t->tx;
    int32_t du = to_fixed(s->ux), dv = to_fixed(s->vx);
    bool add = (s->flags & SW_SPRITE_ADD) != 0;
    uint32_t k[4] = { 0, 0, 0, 0 };   /* set per pixel when there is a clip mask */
    bool constant = !t->mask;
    if (constant && !factors(s, t, alpha, x0, y, k)) return;
#if SW_SPRITE_SSE2
    __m128i kv = factors_sse2(k);
#endif
    /* Bilinear samples whose texels all lie inside, at both ends of the
       span, lie inside all along it (positions are linear in x). */
    int32_t n = x1 - 1 - x0;
    int32_t ue = p.u + n * du, ve = p.v + n * dv;
    bool inside = !(s->flags & SW_SPRITE_NEAREST) &&
                  (p.u >> 16) >= s->x_min && (p.u >> 16) < s->x_max && (ue >> 16) >= s->x_min && (ue >> 16) < s->x_max &&
                  (p.v >> 16) >= s->y_min && (p.v >> 16) < s->y_max && (ve >> 16) >= s->y_min && (ve >> 16) < s->y_max;
    for (int32_t x = x0; x < x1; x++, p.u += du, p.v += dv) {
        sw_quad q;
        if (!(inside ? fetch_inside(s, p, &q) : fetch(s, p, &q))) continue;
        if (!constant) {
            if (!factors(s, t, alpha, x, y, k)) continue;
#if SW_SPRITE_SSE2
            kv = factors_sse2(k);
#endif
        }
#if SW_SPRITE_SSE2
        if (!t->scalar) {
            blend_sse2(&dst[x], &q, kv, add);
            continue;
        }
#endif
        blend_scalar(&dst[x], &q, k, add);
    }
}

/* ------------------------------------------------------------------------ */
/* Coverage of rotated sprites                                               */

/* Green's theorem over the boundary of (square inside all lines): the part
   of each square side inside every line and the part of each line inside
   the square and the other lines; each clipped in closed form (an interval
   of its parameter). Lines relative to the pixel centre. */
static inline void clip_param(const sw_line *l, double ax, double ay, double dx, double dy,
                              double *t0, double *t1)
{
    double fa = l->nx * ax + l->ny * ay + l->d, fd = l->nx * dx + l->ny * dy;
    if (fabs(fd) < 1e-12) {
        if (fa < 0.0) { *t0 = 1.0; *t1 = 0.0; }
        return;
    }
    double r = -fa / fd;
    if (fd > 0.0) { if (r > *t0) *t0 = r; }
    else if (r < *t1) { *t1 = r; }
}

static inline double piece(double ax, double ay, double dx, double dy, double t0, double t1)
{
    if (t1 <= t0) return 0.0;
    double px = ax + t0 * dx, py = ay + t0 * dy, qx = ax + t1 * dx, qy = ay + t1 * dy;
    return px * qy - py * qx;
}

static double exact_area(const sw_line *lines, int n)
{
    static const double corner[5][2] = { { -0.5, -0.5 }, { 0.5, -0.5 }, { 0.5, 0.5 }, { -0.5, 0.5 }, { -0.5, -0.5 } };
    static const sw_line square[4] = { { 1, 0, 0.5 }, { -1, 0, 0.5 }, { 0, 1, 0.5 }, { 0, -1, 0.5 } };
    double sum = 0.0;
    for (int i = 0; i < 4; i++) {
        double ax = corner[i][0], ay = corner[i][1];
        double dx = corner[i + 1][0] - ax, dy = corner[i + 1][1] - ay, t0 = 0.0, t1 = 1.0;
        for (int j = 0; j < n; j++) clip_param(&lines[j], ax, ay, dx, dy, &t0, &t1);
        sum += piece(ax, ay, dx, dy, t0, t1);
    }
    for (int i = 0; i < n; i++) {
        const sw_line *l = &lines[i];
        double ax = -l->d * l->nx, ay = -l->d * l->ny, dx = l->ny, dy = -l->nx, t0 = -4.0, t1 = 4.0;
        for (int j = 0; j < 4; j++) clip_param(&square[j], ax, ay, dx, dy, &t0, &t1);
        for (int j = 0; j < n; j++)
            if (j != i) clip_param(&lines[j], ax, ay, dx, dy, &t0, &t1);
        sum += piece(ax, ay, dx, dy, t0, t1);
    }
    double area = 0.5 * sum;
    return area < 0.0 ? 0.0 : (area > 1.0 ? 1.0 : area);
}

/* The exact area of a pixel inside the sprite's rect, from its centre's
   distances d to the four edges. */
static inline double pixel_coverage(const sw_sprite *e, const double d[4])
{
    /* per pair, the nearer edge decides whether the pixel is out or cut */
    double r0 = e->reach[0], r1 = e->reach[1], m0 = min_d(d[0], d[1]), m1 = min_d(d[2], d[3]);
    if (m0 <= -r0 || m1 <= -r1) return 0.0;
    bool partial[2] = { m0 < r0, m1 < r1 };
    if (!partial[0] && !partial[1]) return 1.0;
    if (partial[0] && partial[1]) {
        /* Only the lines crossing the pixel bound it there. */
        sw_line l[4];
        int n = 0;
        for (int i = 0; i < 4; i++) {
            if (d[i] >= e->reach[i / 2]) continue;
            l[n].nx = e->nx[i];
            l[n].ny = e->ny[i];
            l[n].d = d[i];
            n++;
        }
        return exact_area(l, n);
    }
    /* Edges of one direction only: they are parallel, their outsides
       disjoint, so the areas add. */
    int i = partial[0] ? 0 : 2;
    double c = edge_coverage(e, i / 2, d[i]) + edge_coverage(e, i / 2, d[i + 1]) - 1.0;
    return c > 0.0 ? c : 0.0;
}

/* ------------------------------------------------------------------------ */
/* Rotated image sprites, row by row                                         */

/* Where a rotated sprite's rows are touched and wholly inside, set up once
   per sprite and band: per edge i, pixel x of row y lies at least t from it
   where (t - c[i] - y ny[i]) inv_nx[i] bounds x from below (nx > 0) or
   above (nx < 0); an edge with nx near 0 bounds the rows instead. lo/hi
   list the edges of each kind (two each unless an edge is flat). */
typedef struct sw_rows {
    double  c[4];                 /* distance at pixel (0, 0)'s centre */
    int     lo[4], hi[4], flat[4];
    int     nlo, nhi, nflat;
} sw_rows;

static void rows_setup(const sw_sprite *s, sw_rows *r)
{
    r->nlo = r->nhi = r->nflat = 0;
    for (int i = 0; i < 4; i++) {
        r->c[i] = s->base[i] + 0.5 * s->nx[i] + 0.5 * s->ny[i];
        if (s->nx[i] > 1e-12) r->lo[r->nlo++] = i;
        else if (s->nx[i] < -1e-12) r->hi[r->nhi++] = i;
        else r->flat[r->nflat++] = i;
    }
}

/* The pixels x of row y whose centre is at least a threshold from every
   edge, as real intervals of x, for two thresholds at once: outer
   (touched) and inner (reach[pair]: wholly inside). */
static inline void rows_at(const sw_sprite *s, const sw_rows *r, int32_t y, double *tlo, double *thi,
                           double *ilo, double *ihi)
{
    double Y = (double)y;
    double olo = -HUGE_VAL, ohi = HUGE_VAL, nlo = -HUGE_VAL, nhi = HUGE_VAL;
    for (int j = 0; j < r->nlo; j++) {
        int i = r->lo[j];
        double at = r->c[i] + Y * s->ny[i], h = s->reach[i / 2];
        olo = max_d(olo, (-h - at) * s->inv_nx[i]);
        nlo = max_d(nlo, (h - at) * s->inv_nx[i]);
    }
    for (int j = 0; j < r->nhi; j++) {
        int i = r->hi[j];
        double at = r->c[i] + Y * s->ny[i], h = s->reach[i / 2];
        ohi = min_d(ohi, (-h - at) * s->inv_nx[i]);
        nhi = min_d(nhi, (h - at) * s->inv_nx[i]);
    }
    for (int j = 0; j < r->nflat; j++) {
        int i = r->flat[j];
        double at = r->c[i] + Y * s->ny[i], h = s->reach[i / 2];
        if (at < -h) olo = HUGE_VAL;
        if (at < h) nlo = HUGE_VAL;
    }
    *tlo = olo; *thi = ohi; *ilo = nlo; *ihi = nhi;
}

/* floor and ceil of v as an int, v clamped to [lo, hi] first (no libm call
   per row). Without branches: rows' bounds are unpredictable. The AVX2
   build rounds with one instruction (SSE4.1's roundsd): the conversion
   there and back and the compare of the base build were the longest chain
   of a small sprite's row (a row's four bounds depend on one another), 8%
   of the particle frame's cycles. The same integers: v is clamped to
   integers' range and is not NaN. */
static inline int32_t floor_in(double v, int32_t lo, int32_t hi)
{
    v = v > lo ? v : (double)lo;   /* (NaN: lo) */
    v = v < hi ? v : (double)hi;
#if SW_SPRITE_AVX2_VARIANT
    return (int32_t)__builtin_floor(v);
#else
    int32_t i = (int32_t)v;
    return i - (i > v);
#endif
}

static inline int32_t ceil_in(double v, int32_t lo, int32_t hi)
{
    v = v > lo ? v : (double)lo;
    v = v < hi ? v : (double)hi;
#if SW_SPRITE_AVX2_VARIANT
    return (int32_t)__builtin_ceil(v);
#else
    int32_t i = (int32_t)v;
    return i + (i < v);
#endif
}

/* Transparent cuts (software_sprite_batch.c computes them, and says what
   they are): a sprite's cut lines as bounds on x per row. */

/* A sprite's cuts as bounds on x per row, from row y0 on: lines whose
   value grows with x bound it from below (x >= at[j] + (y - y0) step[j]),
   those that fall from above, flat ones bound rows. */
typedef struct sw_cut_rows {
    double lo_at[SW_SPRITE_CUTS], lo_step[SW_SPRITE_CUTS], hi_at[SW_SPRITE_CUTS], hi_step[SW_SPRITE_CUTS];
    int    flat[SW_SPRITE_CUTS];
    int    nlo, nhi, nflat;
    int32_t y0;
} sw_cut_rows;

static void cut_rows_setup(const sw_sprite *s, const sw_sprite_cut_lines *lines, int32_t y0, sw_cut_rows *r)
{
    r->nlo = r->nhi = r->nflat = 0;
    r->y0 = y0;
    for (int i = 0; i < (int)s->cut_count; i++) {
        const double *c = lines->line[i];
        if (c[0] > 1e-12 || c[0] < -1e-12) {
            double inv = 1.0 / c[0], at = -(c[1] * y0 + c[2]) * inv, step = -c[1] * inv;
            if (c[0] > 0.0) { r->lo_at[r->nlo] = at; r->lo_step[r->nlo++] = step; }
            else { r->hi_at[r->nhi] = at; r->hi_step[r->nhi++] = step; }
        } else {
            r->flat[r->nflat++] = i;
        }
    }
}

/* The pixels [*c0, *c1) within [t0, t1) of row y that the cuts keep
   (rounded outwards: the cuts' margin is far above the rounding). */
static inline void cut_range(const sw_sprite_cut_lines *lines, const sw_cut_rows *r, int32_t y, int32_t t0, int32_t t1,
                             int32_t *c0, int32_t *c1)
{
    double dy = (double)(y - r->y0), lo = -HUGE_VAL, hi = HUGE_VAL;
    for (int j = 0; j < r->nlo; j++) lo = max_d(lo, r->lo_at[j] + dy * r->lo_step[j]);
    for (int j = 0; j < r->nhi; j++) hi = min_d(hi, r->hi_at[j] + dy * r->hi_step[j]);
    for (int j = 0; j < r->nflat; j++) {
        const double *c = lines->line[r->flat[j]];
        if (c[0] * (c[0] > 0.0 ? t1 : t0) + c[1] * y + c[2] < 0.0) { *c0 = *c1 = t0; return; }
    }
    *c0 = floor_in(lo, t0, t1);
    *c1 = floor_in(hi, t0 - 1, t1 - 1) + 1;
}

/* d stepped n pixels along the row, one float add at a time, exactly as
   image_edge_pixels steps it (the same coverage whichever pixel a run
   starts at). */
static inline void step_distances(float d[4], const float nx[4], int32_t n)
{
    if (n <= 0) return;
#if SW_SPRITE_SSE2
    /* four lanes of the same float adds */
    __m128 v = _mm_loadu_ps(d), step = _mm_loadu_ps(nx);
    for (; n > 0; n--) v = _mm_add_ps(v, step);
    _mm_storeu_ps(d, v);
#else
    for (; n > 0; n--)
        for (int i = 0; i < 4; i++) d[i] += nx[i];
#endif
}

/* The area of the pixel inside one edge of a pair, its centre at distance
   d from it (edge_coverage in float). */
static inline float edge_coverage_f(float d, float h, float linear, float b, float inv_a, float inv_2ab)
{
    if (d >= h) return 1.0f;
    if (d <= -h) return 0.0f;
    float ad = d < 0.0f ? -d : d;
    if (ad <= linear) return 0.5f + d * inv_a;
    float e = h - ad < b ? h - ad : b;
    float corner = e * e * inv_2ab;
    return d > 0.0f ? 1.0f - corner : corner;
}

/* The per-sprite constants of the edge pixels' coverage, in float. */
typedef struct sw_edge_f {
    float nx[4], reach[2], linear[2], b[2], inv_a[2], inv_2ab[2];
#if SW_SPRITE_SSE2
    __m128 f;   /* the sprite's factors, lanes b g r a */
#endif
} sw_edge_f;

static void edge_f_setup(const sw_sprite *s, sw_edge_f *e)
{
    for (int i = 0; i < 4; i++) e->nx[i] = (float)s->nx[i];
    for (int p = 0; p < 2; p++) {
        e->reach[p] = (float)s->reach[p];
        e->linear[p] = (float)s->linear[p];
        e->b[p] = (float)s->b[p];
        e->inv_a[p] = (float)s->inv_a[p];
        e->inv_2ab[p] = (float)s->inv_2ab[p];
    }
#if SW_SPRITE_SSE2
    e->f = _mm_set_ps(s->factor[0], s->factor[1], s->factor[2], s->factor[3]);
#endif
}

/* pixel_coverage from float distances: the one-pair cases in float, a
   corner (edges of both directions) exactly, in double. */
static inline float pixel_coverage_f(const sw_sprite *s, const sw_edge_f *e, const float d[4])
{
    float m0 = d[0] < d[1] ? d[0] : d[1], m1 = d[2] < d[3] ? d[2] : d[3];
    float M0 = d[0] < d[1] ? d[1] : d[0], M1 = d[2] < d[3] ? d[3] : d[2];
    if (m0 <= -e->reach[0] || m1 <= -e->reach[1]) return 0.0f;
    bool p0 = m0 < e->reach[0], p1 = m1 < e->reach[1];
    if (!p1) {
        if (!p0) return 1.0f;
        float c = edge_coverage_f(m0, e->reach[0], e->linear[0], e->b[0], e->inv_a[0], e->inv_2ab[0]);
        if (M0 < e->reach[0])
            c += edge_coverage_f(M0, e->reach[0], e->linear[0], e->b[0], e->inv_a[0], e->inv_2ab[0]) - 1.0f;
        return c > 0.0f ? c : 0.0f;
    }
    if (!p0) {
        float c = edge_coverage_f(m1, e->reach[1], e->linear[1], e->b[1], e->inv_a[1], e->inv_2ab[1]);
        if (M1 < e->reach[1])
            c += edge_coverage_f(M1, e->reach[1], e->linear[1], e->b[1], e->inv_a[1], e->inv_2ab[1]) - 1.0f;
        return c > 0.0f ? c : 0.0f;
    }
    double dd[4] = { d[0], d[1], d[2], d[3] };
    return (float)pixel_coverage(s, dd);
}

/* Pixels [x0, x1) of row y at the edge of a rotated image sprite, the
   first at texel position p and edge distances d: each sampled first, so
   that transparent texels (the corners of a round particle) cost no
   coverage. One loop per filter (the filter's test out of the loop); the
   four distances stepped in one register where there is SSE2 (the same
   float adds). */
static inline __attribute__((always_inline)) void edge_pixels_filtered(const sw_sprite *s, const sw_edge_f *e,
                                                                      const sw_sprite_target *t, int32_t x0,
                                                                      int32_t x1, int32_t y, sw_texel_pos p,
                                                                      int32_t du, int32_t dv, const float d0[4],
                                                                      bool nearest)
{
    bool add = (s->flags & SW_SPRITE_ADD) != 0;
    uint32_t *dst = t->target + (size_t)(y - t->ty) * t->tstride - t->tx;
#if SW_SPRITE_SSE2
    __m128 dd = _mm_loadu_ps(d0);
    const __m128 step = _mm_loadu_ps(e->nx);
#define SW_EDGE_STEP dd = _mm_add_ps(dd, step)
#else
    float dd[4] = { d0[0], d0[1], d0[2], d0[3] };
#define SW_EDGE_STEP dd[0] += e->nx[0], dd[1] += e->nx[1], dd[2] += e->nx[2], dd[3] += e->nx[3]
#endif
    for (int32_t x = x0; x < x1; x++, p.u += du, p.v += dv, SW_EDGE_STEP) {
        sw_quad q;
        if (!(nearest ? fetch_nearest(s, p, &q) : fetch_bilinear(s, p, &q))) continue;
#if SW_SPRITE_SSE2
        float d[4];
        _mm_storeu_ps(d, dd);
#else
        const float *d = dd;
#endif
        float c = pixel_coverage_f(s, e, d);
        if (!(c > 0.0f)) continue;
#if SW_SPRITE_SSE2
        if (!t->scalar) {
            /* factors() four at a time: the same float products, truncated */
            if (t->mask) c *= clip_value(t, x, y) * (1.0f / 255.0f);
            __m128i k = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(e->f, _mm_set1_ps(c)), _mm_set1_ps(0.5f)));
            blend_sse2(&dst[x], &q, _mm_packs_epi32(k, _mm_setzero_si128()), add);
            continue;
        }
#endif
        uint32_t k[4];
        if (!factors(s, t, c, x, y, k)) continue;
        blend_scalar(&dst[x], &q, k, add);
    }
#undef SW_EDGE_STEP
}

static inline __attribute__((always_inline)) void image_edge_pixels(const sw_sprite *s, const sw_edge_f *e, const sw_sprite_target *t, int32_t x0,
                              int32_t x1, int32_t y, sw_texel_pos p, int32_t du, int32_t dv, const float d0[4])
{
    if (s->flags & SW_SPRITE_NEAREST) edge_pixels_filtered(s, e, t, x0, x1, y, p, du, dv, d0, true);
    else edge_pixels_filtered(s, e, t, x0, x1, y, p, du, dv, d0, false);
}

#if SW_SPRITE_SSE2
/* One bilinear sample for the four-pixel loop: texels (tl, tr) and
   (bl, br) as two 64-bit halves, the vertical step done (per channel
   tl (128 - wy) + bl wy in 32-bit lanes b g r a): left, right. */
static inline void vertical4(const sw_sprite *s, int32_t u, int32_t v, bool inside, __m128i *left, __m128i *right)
{
    __m128i top, bottom;
    if (inside) {
        const uint32_t *r0 = s->pixels + (size_t)(v >> 16) * s->stride + (u >> 16);
        top = _mm_loadl_epi64((const __m128i *)r0);
        bottom = _mm_loadl_epi64((const __m128i *)(r0 + s->stride));
    } else {
        int32_t x = u >> 16, y = v >> 16;
        int32_t x0 = clamp_i(x, s->x_min, s->x_max), x1 = clamp_i(x + 1, s->x_min, s->x_max);
        int32_t y0 = clamp_i(y, s->y_min, s->y_max), y1 = clamp_i(y + 1, s->y_min, s->y_max);
        const uint32_t *r0 = s->pixels + (size_t)y0 * s->stride, *r1 = s->pixels + (size_t)y1 * s->stride;
        top = _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)r0[x0]), _mm_cvtsi32_si128((int)r0[x1]));
        bottom = _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)r1[x0]), _mm_cvtsi32_si128((int)r1[x1]));
    }
    const __m128i zero = _mm_setzero_si128();
    uint32_t wy = (uint32_t)(v >> 9) & 0x7f;
    __m128i w = _mm_set1_epi32((int)((wy << 16) | (128 - wy)));
    __m128i z = _mm_unpacklo_epi8(top, bottom);   /* tl.b bl.b tl.g bl.g ... tr.b br.b ... */
    *left = _mm_madd_epi16(_mm_unpacklo_epi8(z, zero), w);
    *right = _mm_madd_epi16(_mm_unpackhi_epi8(z, zero), w);
}

/* Two samples' horizontal step: 16-bit b g r a of the first, then the
   second (pixman's sum over 2^14, truncated). */
static inline __m128i horizontal2(__m128i left_a, __m128i right_a, int32_t u_a, __m128i left_b, __m128i right_b,
                                  int32_t u_b)
{
    __m128i l = _mm_packs_epi32(left_a, left_b), r = _mm_packs_epi32(right_a, right_b);
    uint32_t wa = (uint32_t)(u_a >> 9) & 0x7f, wb = (uint32_t)(u_b >> 9) & 0x7f;
    __m128i va = _mm_madd_epi16(_mm_unpacklo_epi16(l, r), _mm_set1_epi32((int)((wa << 16) | (128 - wa))));
    __m128i vb = _mm_madd_epi16(_mm_unpackhi_epi16(l, r), _mm_set1_epi32((int)((wb << 16) | (128 - wb))));
    return _mm_packs_epi32(_mm_srli_epi32(va, 14), _mm_srli_epi32(vb, 14));
}

/* Two pixels (16-bit lanes, b g r a each) of sample x k OVER or ADD onto
   two destination pixels d (16-bit lanes). */
static inline __m128i blend2(__m128i v, __m128i d, __m128i k, bool add)
{
    __m128i s = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(v, k), _mm_set1_epi16(128)), 8);
    if (add) return _mm_adds_epu16(d, s);
    __m128i ia = _mm_sub_epi16(_mm_set1_epi16(255), _mm_shufflehi_epi16(_mm_shufflelo_epi16(s, 0xff), 0xff));
    __m128i t = _mm_add_epi16(_mm_mullo_epi16(d, ia), _mm_set1_epi16(128));
    t = _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
    return _mm_add_epi16(s, t);
}

/* Four pixels dst[0..3]: samples v01 (pixels 0, 1) and v23 (16-bit lanes)
   times factors k01 and k23, OVER or ADD, stored. */
static inline void blend4(uint32_t *dst, __m128i v01, __m128i v23, __m128i k01, __m128i k23, bool add)
{
    const __m128i zero = _mm_setzero_si128();
    __m128i d = _mm_loadu_si128((const __m128i *)dst);
    __m128i lo = blend2(v01, _mm_unpacklo_epi8(d, zero), k01, add);
    __m128i hi = blend2(v23, _mm_unpackhi_epi8(d, zero), k23, add);
    _mm_storeu_si128((__m128i *)dst, _mm_packus_epi16(lo, hi));
}

/* Four pixels dst[0..3], bilinear samples at (u, v) + j (du, dv), every
   one times the same factors k (16-bit lanes b g r a, twice). */
static inline void span4_sse2(const sw_sprite *s, uint32_t *dst, int32_t u, int32_t v, int32_t du, int32_t dv,
                              __m128i k, bool add, bool inside)
{
    __m128i l0, r0, l1, r1, l2, r2, l3, r3;
    vertical4(s, u, v, inside, &l0, &r0);
    vertical4(s, u + du, v + dv, inside, &l1, &r1);
    vertical4(s, u + 2 * du, v + 2 * dv, inside, &l2, &r2);
    vertical4(s, u + 3 * du, v + 3 * dv, inside, &l3, &r3);
    __m128i v01 = horizontal2(l0, r0, u, l1, r1, u + du);
    __m128i v23 = horizontal2(l2, r2, u + 2 * du, l3, r3, u + 3 * du);
    blend4(dst, v01, v23, k, k, add);
}
#endif

#if SW_SPRITE_SSE2
/* pixman's weight pairs (128 - w, w) as 16-bit halves of each 32-bit lane,
   w the 7 bits below the texel of each 16.16 position lane. */
static inline __m128i weight_pairs(__m128i pos)
{
    __m128i w = _mm_and_si128(_mm_srli_epi32(pos, 9), _mm_set1_epi32(0x7f));
    return _mm_or_si128(_mm_slli_epi32(w, 16), _mm_sub_epi32(_mm_set1_epi32(128), w));
}

/* A bilinear sample whose texels all lie inside at (u, v), the vertical
   step done with weight pair wy (broadcast): left, right. */
static inline void vertical_inside(const sw_sprite *s, int32_t u, int32_t v, __m128i wy, __m128i *left,
                                   __m128i *right)
{
    const uint32_t *r0 = s->pixels + (size_t)(v >> 16) * s->stride + (u >> 16);
    const __m128i zero = _mm_setzero_si128();
    __m128i z = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)r0),
                                  _mm_loadl_epi64((const __m128i *)(r0 + s->stride)));
    *left = _mm_madd_epi16(_mm_unpacklo_epi8(z, zero), wy);
    *right = _mm_madd_epi16(_mm_unpackhi_epi8(z, zero), wy);
}

/* Four wholly inside pixels dst[0..3], bilinear samples at (u[j], v[j])
   (also the lanes of U, V) whose texels all lie inside, times factors k01
   (pixels 0, 1) and k23 (16-bit lanes b g r a). */
static inline void inner4_inside(const sw_sprite *s, uint32_t *dst, const int32_t u[4], const int32_t v[4],
                                 __m128i U, __m128i V, __m128i k01, __m128i k23, bool add)
{
    __m128i wx = weight_pairs(U), wy = weight_pairs(V);
    __m128i l0, r0, l1, r1, l2, r2, l3, r3;
    vertical_inside(s, u[0], v[0], _mm_shuffle_epi32(wy, 0x00), &l0, &r0);
    vertical_inside(s, u[1], v[1], _mm_shuffle_epi32(wy, 0x55), &l1, &r1);
    vertical_inside(s, u[2], v[2], _mm_shuffle_epi32(wy, 0xaa), &l2, &r2);
    vertical_inside(s, u[3], v[3], _mm_shuffle_epi32(wy, 0xff), &l3, &r3);
    /* horizontal: (left, right) pairs per channel times (128 - wx, wx) */
    __m128i l = _mm_packs_epi32(l0, l1), r = _mm_packs_epi32(r0, r1);
    __m128i a = _mm_madd_epi16(_mm_unpacklo_epi16(l, r), _mm_shuffle_epi32(wx, 0x00));
    __m128i b = _mm_madd_epi16(_mm_unpackhi_epi16(l, r), _mm_shuffle_epi32(wx, 0x55));
    __m128i v01 = _mm_packs_epi32(_mm_srli_epi32(a, 14), _mm_srli_epi32(b, 14));
    l = _mm_packs_epi32(l2, l3);
    r = _mm_packs_epi32(r2, r3);
    a = _mm_madd_epi16(_mm_unpacklo_epi16(l, r), _mm_shuffle_epi32(wx, 0xaa));
    b = _mm_madd_epi16(_mm_unpackhi_epi16(l, r), _mm_shuffle_epi32(wx, 0xff));
    __m128i v23 = _mm_packs_epi32(_mm_srli_epi32(a, 14), _mm_srli_epi32(b, 14));
    blend4(dst, v01, v23, k01, k23, add);
}
#endif

#if SW_SPRITE_AVX2_VARIANT
/* The four-pixel step's integers eight pixels at a time. Pixels go in two
   groups of four, A (0, 1, 4, 5) and B (2, 3, 6, 7), so that every 128-bit
   lane of a group holds two neighbours, as an SSE2 register does, and the
   two groups pack back into the destination's order. */

/* The 64-bit texel pairs at offsets o (texels from s->pixels) of group A's
   pixels (0, 1, 4, 5) and group B's (2, 3, 6, 7), row r and the next. */
static inline void pairs8(const sw_sprite *s, __m256i o, __m256i *top_a, __m256i *top_b, __m256i *bottom_a,
                          __m256i *bottom_b)
{
    int32_t at[8];
    _mm256_storeu_si256((__m256i *)at, o);
    const uint32_t *r0 = s->pixels, *r1 = s->pixels + s->stride;
#define SW_PAIR(r, i) _mm_loadl_epi64((const __m128i *)(const void *)((r) + at[i]))
#define SW_PAIRS(r, i, j) _mm_unpacklo_epi64(SW_PAIR(r, i), SW_PAIR(r, j))
    *top_a = _mm256_inserti128_si256(_mm256_castsi128_si256(SW_PAIRS(r0, 0, 1)), SW_PAIRS(r0, 4, 5), 1);
    *top_b = _mm256_inserti128_si256(_mm256_castsi128_si256(SW_PAIRS(r0, 2, 3)), SW_PAIRS(r0, 6, 7), 1);
    *bottom_a = _mm256_inserti128_si256(_mm256_castsi128_si256(SW_PAIRS(r1, 0, 1)), SW_PAIRS(r1, 4, 5), 1);
    *bottom_b = _mm256_inserti128_si256(_mm256_castsi128_si256(SW_PAIRS(r1, 2, 3)), SW_PAIRS(r1, 6, 7), 1);
#undef SW_PAIRS
#undef SW_PAIR
}

/* pixman's weight pairs (128 - w, w) per 32-bit lane, as weight_pairs. */
static inline __m256i weight_pairs8(__m256i pos)
{
    __m256i w = _mm256_and_si256(_mm256_srli_epi32(pos, 9), _mm256_set1_epi32(0x7f));
    return _mm256_or_si256(_mm256_slli_epi32(w, 16), _mm256_sub_epi32(_mm256_set1_epi32(128), w));
}

/* One group's bilinear samples (16-bit b g r a: pixels 0 and 1 of each
   lane's pair in its low and high half), vertical_inside and the
   horizontal step of inner4_inside per lane; wy0/wx0 the weight pairs of
   each lane's first pixel broadcast, wy1/wx1 of its second. */
static inline __m256i bilinear4(__m256i top, __m256i bottom, __m256i wy0, __m256i wy1, __m256i wx0, __m256i wx1)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i z0 = _mm256_unpacklo_epi8(top, bottom), z1 = _mm256_unpackhi_epi8(top, bottom);
    __m256i l0 = _mm256_madd_epi16(_mm256_unpacklo_epi8(z0, zero), wy0);
    __m256i r0 = _mm256_madd_epi16(_mm256_unpackhi_epi8(z0, zero), wy0);
    __m256i l1 = _mm256_madd_epi16(_mm256_unpacklo_epi8(z1, zero), wy1);
    __m256i r1 = _mm256_madd_epi16(_mm256_unpackhi_epi8(z1, zero), wy1);
    __m256i l = _mm256_packs_epi32(l0, l1), r = _mm256_packs_epi32(r0, r1);
    __m256i a = _mm256_madd_epi16(_mm256_unpacklo_epi16(l, r), wx0);
    __m256i b = _mm256_madd_epi16(_mm256_unpackhi_epi16(l, r), wx1);
    return _mm256_packs_epi32(_mm256_srli_epi32(a, 14), _mm256_srli_epi32(b, 14));
}

/* blend2 on four pixels (two per lane). */
static inline __m256i blend4x(__m256i v, __m256i d, __m256i k, bool add)
{
    __m256i s = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(v, k), _mm256_set1_epi16(128)), 8);
    if (add) return _mm256_adds_epu16(d, s);
    __m256i ia = _mm256_sub_epi16(_mm256_set1_epi16(255), _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(s, 0xff), 0xff));
    __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(d, ia), _mm256_set1_epi16(128));
    t = _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
    return _mm256_add_epi16(s, t);
}

/* Eight wholly inside pixels dst[0..7], bilinear samples at the lanes of
   (U, V) whose texels all lie inside, times factors ka (group A: 16-bit
   b g r a for pixels 0, 1 | 4, 5) and kb (2, 3 | 6, 7). */
static inline void inner8_inside(const sw_sprite *s, uint32_t *dst, __m256i U, __m256i V, __m256i ka, __m256i kb,
                                 bool add)
{
    __m256i o = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(V, 16), _mm256_set1_epi32((int)s->stride)),
                                 _mm256_srai_epi32(U, 16));
    __m256i ta, tb, ba, bb;
    pairs8(s, o, &ta, &tb, &ba, &bb);
    __m256i wx = weight_pairs8(U), wy = weight_pairs8(V);
    /* lanes hold pixels (0 | 4), (1 | 5) of group A, (2 | 6), (3 | 7) of B */
    __m256i va = bilinear4(ta, ba, _mm256_shuffle_epi32(wy, 0x00), _mm256_shuffle_epi32(wy, 0x55),
                           _mm256_shuffle_epi32(wx, 0x00), _mm256_shuffle_epi32(wx, 0x55));
    __m256i vb = bilinear4(tb, bb, _mm256_shuffle_epi32(wy, 0xaa), _mm256_shuffle_epi32(wy, 0xff),
                           _mm256_shuffle_epi32(wx, 0xaa), _mm256_shuffle_epi32(wx, 0xff));
    const __m256i zero = _mm256_setzero_si256();
    __m256i d = _mm256_loadu_si256((const __m256i *)dst);
    __m256i ra = blend4x(va, _mm256_unpacklo_epi8(d, zero), ka, add);   /* 0 1 | 4 5 */
    __m256i rb = blend4x(vb, _mm256_unpackhi_epi8(d, zero), kb, add);   /* 2 3 | 6 7 */
    _mm256_storeu_si256((__m256i *)dst, _mm256_packus_epi16(ra, rb));
}

/* Whole pixels [*x, x1) of a row whose samples all lie inside, eight a
   step from *x at texel position *p; a run not a multiple of eight ends
   with a step moved back to end with it (or within the row's touched
   pixels [t0, t1)), its other lanes sampling where the run's first does
   at factor 0. False, having drawn nothing, when the row has fewer than
   eight touched pixels (the SSE2 steps then draw the run). */
static inline __attribute__((always_inline)) bool inner_span8(const sw_sprite *s, uint32_t *dst, int32_t *xp, int32_t x1, int32_t t0, int32_t t1,
                               sw_texel_pos *p, int32_t du, int32_t dv, __m128i kv, bool add)
{
    if (t1 - t0 < 8) return false;
    int32_t x = *xp;
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i k = _mm256_broadcastq_epi64(kv);
    __m256i U = _mm256_add_epi32(_mm256_set1_epi32(p->u), _mm256_mullo_epi32(lane, _mm256_set1_epi32(du)));
    __m256i V = _mm256_add_epi32(_mm256_set1_epi32(p->v), _mm256_mullo_epi32(lane, _mm256_set1_epi32(dv)));
    const __m256i du8 = _mm256_set1_epi32(8 * du), dv8 = _mm256_set1_epi32(8 * dv);
    for (; x + 8 <= x1; x += 8, U = _mm256_add_epi32(U, du8), V = _mm256_add_epi32(V, dv8))
        inner8_inside(s, &dst[x], U, V, k, k, add);
    if (x < x1) {
        int32_t gx = x1 - 8 >= t0 ? x1 - 8 : t0;
        int32_t first = x - gx, end = x1 - gx;
        /* lanes [first, end) are ours; the others sample where `first` does */
        __m256i ours = _mm256_and_si256(_mm256_cmpgt_epi32(lane, _mm256_set1_epi32(first - 1)),
                                        _mm256_cmpgt_epi32(_mm256_set1_epi32(end), lane));
        __m256i j = _mm256_sub_epi32(_mm256_and_si256(lane, ours), _mm256_and_si256(_mm256_set1_epi32(first), ours));
        /* U, V hold lane j's position x + j; step j - first from x */
        __m256i Ut = _mm256_add_epi32(_mm256_set1_epi32(_mm256_extract_epi32(U, 0)), _mm256_mullo_epi32(j, _mm256_set1_epi32(du)));
        __m256i Vt = _mm256_add_epi32(_mm256_set1_epi32(_mm256_extract_epi32(V, 0)), _mm256_mullo_epi32(j, _mm256_set1_epi32(dv)));
        __m256i g = _mm256_permute4x64_epi64(ours, 0xd8);   /* the lanes of groups A and B */
        __m256i ka = _mm256_and_si256(k, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(g)));
        __m256i kb = _mm256_and_si256(k, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(g, 1)));
        inner8_inside(s, &dst[gx], Ut, Vt, ka, kb, add);
        x = x1;
    }
    p->u += (x - *xp) * du;
    p->v += (x - *xp) * dv;
    *xp = x;
    return true;
}
#endif

/* Pixels [x0, x1) of row y wholly inside a rotated image sprite (bilinear,
   no clip mask, factors k), the first at texel position p: four pixels per
   SSE2 step, each computing what blend_scalar does. Transparent samples
   are blended too (OVER or ADD of 0 leaves the pixel as it was). The last
   one to three pixels are a step of four ending at x1, or at the row's end
   t1, its other pixels left alone (factor 0). */
static inline __attribute__((always_inline)) void image_inner_span(const sw_sprite *s, const sw_sprite_target *t,
                                                                   int32_t x0, int32_t x1, int32_t y,
                                                                   int32_t t0, int32_t t1, sw_texel_pos p, int32_t du, int32_t dv, const uint32_t k[4])
{
    if (x1 <= x0) return;
    uint32_t *dst = t->target + (size_t)(y - t->ty) * t->tstride - t->tx;
    bool add = (s->flags & SW_SPRITE_ADD) != 0;
    /* Samples whose texels all lie inside at both ends of the span lie
       inside all along it (positions are linear in x). */
    int32_t n = x1 - 1 - x0;
    int32_t ue = p.u + n * du, ve = p.v + n * dv;
    bool inside = (p.u >> 16) >= s->x_min && (p.u >> 16) < s->x_max && (ue >> 16) >= s->x_min &&
                  (ue >> 16) < s->x_max && (p.v >> 16) >= s->y_min && (p.v >> 16) < s->y_max &&
                  (ve >> 16) >= s->y_min && (ve >> 16) < s->y_max;
    int32_t x = x0;
#if SW_SPRITE_SSE2
    if (!t->scalar) {
        __m128i kv = factors_sse2(k);
        __m128i k2 = _mm_unpacklo_epi64(kv, kv);
        if (inside) {
#if SW_SPRITE_AVX2_VARIANT
            if (inner_span8(s, dst, &x, x1, t0, t1, &p, du, dv, kv, add)) return;
#endif
            __m128i U = _mm_add_epi32(_mm_set1_epi32(p.u), _mm_set_epi32(3 * du, 2 * du, du, 0));
            __m128i V = _mm_add_epi32(_mm_set1_epi32(p.v), _mm_set_epi32(3 * dv, 2 * dv, dv, 0));
            const __m128i du4 = _mm_set1_epi32(4 * du), dv4 = _mm_set1_epi32(4 * dv);
            for (; x + 4 <= x1; x += 4, p.u += 4 * du, p.v += 4 * dv, U = _mm_add_epi32(U, du4), V = _mm_add_epi32(V, dv4)) {
                int32_t u[4] = { p.u, p.u + du, p.u + 2 * du, p.u + 3 * du };
                int32_t v[4] = { p.v, p.v + dv, p.v + 2 * dv, p.v + 3 * dv };
                inner4_inside(s, &dst[x], u, v, U, V, k2, k2, add);
            }
            if (x < x1 && t1 - t0 >= 4) {
                /* lanes [first, end) of the step at gx are ours; the
                   others sample where lane `first` does */
                int32_t gx = x1 - 4 >= t0 ? x1 - 4 : t0;
                int first = x - gx, end = x1 - gx;
                int32_t u[4], v[4];
                for (int j = 0; j < 4; j++) {
                    int jj = j < first || j >= end ? first : j;
                    u[j] = p.u + (jj - first) * du;
                    v[j] = p.v + (jj - first) * dv;
                }
                __m128i m01 = _mm_set_epi32(-(first <= 1 && end > 1), -(first <= 1 && end > 1),
                                            -(first <= 0 && end > 0), -(first <= 0 && end > 0));
                __m128i m23 = _mm_set_epi32(-(first <= 3 && end > 3), -(first <= 3 && end > 3),
                                            -(first <= 2 && end > 2), -(first <= 2 && end > 2));
                inner4_inside(s, &dst[gx], u, v, _mm_set_epi32(u[3], u[2], u[1], u[0]),
                              _mm_set_epi32(v[3], v[2], v[1], v[0]), _mm_and_si128(k2, m01), _mm_and_si128(k2, m23),
                              add);
                return;
            }
        } else {
            for (; x + 4 <= x1; x += 4, p.u += 4 * du, p.v += 4 * dv) span4_sse2(s, &dst[x], p.u, p.v, du, dv, k2, add, false);
        }
        for (; x < x1; x++, p.u += du, p.v += dv) {
            sw_quad q;
            if (inside) fetch_inside(s, p, &q);
            else fetch(s, p, &q);
            blend_sse2(&dst[x], &q, kv, add);
        }
        return;
    }
#endif
    for (; x < x1; x++, p.u += du, p.v += dv) {
        sw_quad q;
        if (inside) fetch_inside(s, p, &q);
        else fetch(s, p, &q);
        blend_scalar(&dst[x], &q, k, add);
    }
}

/* What a rotated image sprite's rows share within a box: its edge lines,
   texel steps (per pixel and per row) from pixel (ox, oy), the first of
   the sprite's box before any clip (so a pixel's position, in 16.16 steps
   from there, is the same whatever clip, damage or band it is drawn in), and
   its factors at full coverage. */
typedef struct sw_image_rows {
    sw_rows r;
    sw_edge_f e;
    int32_t du, dv, duy, dvy;
    int32_t ox, oy;
    sw_texel_pos origin;
    /* the clip mask and nearest sampling take the per-pixel span */
    bool plain;
    uint32_t k[4];
} sw_image_rows;

static inline void image_rows_setup(const sw_sprite *s, const sw_sprite_target *t, sw_image_rows *ir)
{
    rows_setup(s, &ir->r);
    edge_f_setup(s, &ir->e);
    ir->du = to_fixed(s->ux);
    ir->dv = to_fixed(s->vx);
    ir->duy = to_fixed(s->uy);
    ir->dvy = to_fixed(s->vy);
    ir->ox = s->ox;
    ir->oy = s->oy;
    ir->origin = texel_pos(s, ir->ox, ir->oy);
    ir->plain = !t->mask && !(s->flags & SW_SPRITE_NEAREST);
    for (int c = 0; c < 4; c++) ir->k[c] = (uint32_t)(s->factor[c] * 1.0f + 0.5f);   /* factors() at 1 */
}

/* A row's touched pixels [t0, t1) from its bounds (tlo, thi) and its
   surely whole ones [i0, i1) from (ilo, ihi), within columns [x0, x1);
   false when none is touched. */
static inline __attribute__((always_inline)) bool row_runs(double tlo, double thi, double ilo, double ihi, int32_t x0,
                                                           int32_t x1, int32_t *t0, int32_t *t1, int32_t *i0,
                                                           int32_t *i1)
{
    /* The four bounds at once, each clamped to the columns, then narrowed
       in integers: i0 clamped to [t0, t1], i1 to [i0, t1]. The same values
       as rounding each within the bounds before it (floor and ceil commute
       with clamping to integers, and the columns hold those bounds),
       without a chain of three conversions a row. */
    int32_t t_lo = floor_in(tlo, x0 - 1, x1 - 1) + 1, t_hi = ceil_in(thi, x0, x1);
    int32_t i_lo = ceil_in(ilo + 1e-7, x0, x1), i_hi = floor_in(ihi - 1e-7, x0 - 1, x1 - 1) + 1;
    *t0 = t_lo;
    *t1 = t_hi;
    if (t_hi <= t_lo) return false;
    *i0 = t_hi;
    *i1 = t_hi;
    if (ihi >= ilo) {
        *i0 = clamp_i(i_lo, t_lo, t_hi);
        *i1 = clamp_i(i_hi, *i0, t_hi);
    }
    return true;
}

/* Row y of a rotated image sprite: the touched pixels [t0, t1) (edge
   pixels then get their exact coverage), the surely whole ones [i0, i1)
   within them, and the texel position at t0; false when none is touched.
   from0 and from1: where its left and right edge runs start when box does
   not cut the sprite on the left (edge distances are stepped from there,
   run_distances, so that a clip or a damage box changes no pixel). */
static inline __attribute__((always_inline)) bool image_row(const sw_sprite *s, const sw_image_rows *ir, sw_box box,
                                                            int32_t y, int32_t *t0, int32_t *t1, int32_t *i0,
                                                            int32_t *i1, int32_t *from0, int32_t *from1,
                                                            sw_texel_pos *p)
{
    double tlo, thi, ilo, ihi;
    rows_at(s, &ir->r, y, &tlo, &thi, &ilo, &ihi);
    if (!(thi >= tlo) || !row_runs(tlo, thi, ilo, ihi, box.x0, box.x1, t0, t1, i0, i1)) return false;
    *from0 = *t0;
    *from1 = *i1;
    int32_t t1_whole, i0_whole;
    if (box.x0 > ir->ox)   /* the same runs with the box's left side at the sprite's own */
        row_runs(tlo, thi, ilo, ihi, ir->ox, box.x1, from0, &t1_whole, &i0_whole, from1);
    p->u = ir->origin.u + (*t0 - ir->ox) * ir->du + (y - ir->oy) * ir->duy;
    p->v = ir->origin.v + (*t0 - ir->ox) * ir->dv + (y - ir->oy) * ir->dvy;
    return true;
}

/* Edge lines' distances at pixel (x, y), as floats. */
static inline void image_distances(const sw_sprite *s, const sw_image_rows *ir, int32_t x, int32_t y, float d[4])
{
    for (int i = 0; i < 4; i++) d[i] = (float)(ir->r.c[i] + x * s->nx[i] + y * s->ny[i]);
}

/* The edge distances at pixel x of row y for a run that starts at pixel
   `from` when nothing clips it: computed there and stepped to x, the same
   floats as that run has at x. */
static inline void run_distances(const sw_sprite *s, const sw_image_rows *ir, int32_t from, int32_t x, int32_t y,
                                 float d[4])
{
    image_distances(s, ir, from, y, d);
    step_distances(d, ir->e.nx, x - from);
}

/* A rotated image sprite's rows within box: per row the touched pixels
   and the wholly inside ones from the edge lines, the first at texel
   position and edge distances stepped from the row's first pixel. */
static void draw_rotated_image(const sw_sprite *s, const sw_sprite_target *t, sw_box box)
{
    sw_image_rows ir;
    image_rows_setup(s, t, &ir);
    int32_t du = ir.du, dv = ir.dv;
    for (int32_t y = box.y0; y < box.y1; y++) {
        int32_t t0, t1, i0, i1, from0, from1;
        sw_texel_pos p;
        if (!image_row(s, &ir, box, y, &t0, &t1, &i0, &i1, &from0, &from1, &p)) continue;
        float d[4];
        run_distances(s, &ir, from0, t0, y, d);
        image_edge_pixels(s, &ir.e, t, t0, i0, y, p, du, dv, d);
        if (i1 > i0) {
            sw_texel_pos pi = { p.u + (i0 - t0) * du, p.v + (i0 - t0) * dv };
            if (ir.plain) image_inner_span(s, t, i0, i1, y, t0, t1, pi, du, dv, ir.k);
            else draw_span(s, t, i0, i1, y, 1.0, pi);
        }
        if (t1 > i1) {
            sw_texel_pos pe = { p.u + (i1 - t0) * du, p.v + (i1 - t0) * dv };
            run_distances(s, &ir, from1, i1, y, d);
            image_edge_pixels(s, &ir.e, t, i1, t1, y, pe, du, dv, d);
        }
    }
}

/* draw_rotated_image for a sprite with transparent cuts: per row only
   the pixels the cuts keep, each run (edge, whole, edge) cut to them. (A
   loop of its own: the cut-free loop measured slower with the cut work
   merely skipped.) */
static __attribute__((noinline)) void draw_rotated_image_cut(const sw_sprite *s, const sw_sprite_cut_lines *lines,
                                                             const sw_sprite_target *t, sw_box box)
{
    sw_image_rows ir;
    image_rows_setup(s, t, &ir);
    int32_t du = ir.du, dv = ir.dv;
    sw_cut_rows cuts;
    cut_rows_setup(s, lines, s->oy, &cuts);
    for (int32_t y = box.y0; y < box.y1; y++) {
        int32_t t0, t1, i0, i1, from0, from1;
        sw_texel_pos p;
        if (!image_row(s, &ir, box, y, &t0, &t1, &i0, &i1, &from0, &from1, &p)) continue;
        /* where a sample may show: [c0, c1) */
        int32_t c0, c1;
        cut_range(lines, &cuts, y, t0, t1, &c0, &c1);
        if (c1 <= c0) continue;
        float d[4];
        /* the runs [t0, i0), [i0, i1), [i1, t1), each within [c0, c1);
           edge distances stepped from the runs' starts whatever is skipped */
        int32_t a = c0 > t0 ? c0 : t0, b = c1 < i0 ? c1 : i0;
        if (b > a) {
            run_distances(s, &ir, from0, a, y, d);
            sw_texel_pos pa = { p.u + (a - t0) * du, p.v + (a - t0) * dv };
            image_edge_pixels(s, &ir.e, t, a, b, y, pa, du, dv, d);
        }
        a = c0 > i0 ? c0 : i0;
        b = c1 < i1 ? c1 : i1;
        if (b > a) {
            sw_texel_pos pi = { p.u + (a - t0) * du, p.v + (a - t0) * dv };
            if (ir.plain) image_inner_span(s, t, a, b, y, t0, t1, pi, du, dv, ir.k);
            else draw_span(s, t, a, b, y, 1.0, pi);
        }
        a = c0 > i1 ? c0 : i1;
        b = c1 < t1 ? c1 : t1;
        if (b > a) {
            run_distances(s, &ir, from1, a, y, d);
            sw_texel_pos pe = { p.u + (a - t0) * du, p.v + (a - t0) * dv };
            image_edge_pixels(s, &ir.e, t, a, b, y, pe, du, dv, d);
        }
    }
}

/* Draws sprite s (its cut lines `lines`) within limit (its opacity and
   tint are in its factors). */
static void draw_sprite(const sw_sprite *s, const sw_sprite_cut_lines *lines, const sw_sprite_target *t,
                        sw_box limit)
{
    sw_box box = sw_box_intersect(s->box, limit);
    if (sw_box_empty(box)) return;
    if (!(s->flags & SW_SPRITE_AXIS)) {
        if (s->flags & SW_SPRITE_SOLID) sw_fill_rotated(s, t, box);
        else if (s->cut_count) draw_rotated_image_cut(s, lines, t, box);
        else draw_rotated_image(s, t, box);
        return;
    }
    /* the rect path's pieces of constant coverage */
    sw_piece pieces[9];
    int n = sw_rect_pieces(s->rect, (s->flags & SW_SPRITE_ANTIALIAS) != 0, box, pieces);
    if (s->flags & SW_SPRITE_SOLID) {
        /* as the rect path: one colour per piece, colour x coverage quantised */
        bool add = (s->flags & SW_SPRITE_ADD) != 0;
        for (int i = 0; i < n; i++) {
            double f = pieces[i].coverage;
            lk_dl_color c = { (float)(s->color.r * f), (float)(s->color.g * f), (float)(s->color.b * f),
                              (float)(s->color.a * f) };
            uint32_t argb = sw_argb(sw_pixman_color(c));
            for (int32_t y = pieces[i].box.y0; y < pieces[i].box.y1; y++)
                sw_solid_span(t, pieces[i].box.x0, pieces[i].box.x1, y, argb, add, box.x1);
        }
        return;
    }
    /* each row's positions stepped from the unclipped box's first pixel
       (ox), as the rotated rows' are: the same whatever clip cuts it */
    int32_t du = to_fixed(s->ux), dv = to_fixed(s->vx);
    for (int i = 0; i < n; i++)
        for (int32_t y = pieces[i].box.y0; y < pieces[i].box.y1; y++) {
            sw_texel_pos p = texel_pos(s, s->ox, y);
            p.u += (pieces[i].box.x0 - s->ox) * du;
            p.v += (pieces[i].box.x0 - s->ox) * dv;
            draw_span(s, t, pieces[i].box.x0, pieces[i].box.x1, y, pieces[i].coverage, p);
        }
}

/* A band's sprites index[from..end) (software_sprite_avx2.c has the same
   loop compiled for AVX2: sw_sprite_draw_band_avx2). */
#if SW_SPRITE_AVX2_VARIANT
void sw_sprite_draw_band_avx2(const sw_sprite *sprites, const sw_sprite_cut_lines *cut_lines,
                              const uint32_t *index, uint32_t from, uint32_t end, const sw_sprite_target *t,
                              sw_box band)
#else
void sw_sprite_draw_band(const sw_sprite *sprites, const sw_sprite_cut_lines *cut_lines, const uint32_t *index,
                         uint32_t from, uint32_t end, const sw_sprite_target *t, sw_box band)
#endif
{
    for (uint32_t k = from; k < end; k++) {
#if defined(__GNUC__)
        /* the run's sprites are visited in band order: fetch the next early */
        if (k + 2 < end) {
            /* the whole sprite: a rotated fill reads its edges' constants, lines beyond the first */
            const char *next = (const char *)&sprites[index[k + 2]];
            for (size_t i = 0; i < sizeof(sw_sprite); i += 64) __builtin_prefetch(next + i);
        }
#endif
        draw_sprite(&sprites[index[k]], &cut_lines[index[k]], t, band);
    }
}

