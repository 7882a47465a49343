/*
 * Solid FILL sprites of the sprite path (software_sprite_batch.c has the
 * rule and the bands): the whole pixels of a fill's rows (sw_solid_span, also
 * the axis-aligned pieces') and rotated or skewed fills row by row
 * (sw_fill_rotated), pixel for pixel what pixman's mask path draws
 * (docs/rendering.md, "fill runs").
 *
 * This file is compiled twice: as itself (SSE2, or portable), and by
 * software_fill_rotated_avx2.c with every function for AVX2
 * (SW_FILL_AVX2_VARIANT: the same code in VEX encoding, whole spans eight
 * pixels a step), which sw_fill_rotated calls where the CPU has AVX2. Both
 * compute the same integers.
 */
#include "software_sprite.h"

#include <math.h>

#ifndef SW_FILL_AVX2_VARIANT
#define SW_FILL_AVX2_VARIANT 0
#endif

/* ------------------------------------------------------------------------ */
/* Solid fills (FILL ops): pixman's mask path, pixel for pixel               */

/* (mul_un8x4 and add_un8x4: software_private.h) */

/* s (premultiplied) OVER or ADD onto d, as pixman's over_n_8_8888 and
   add_n_8_8888 round it. */
static inline uint32_t solid_blend(uint32_t d, uint32_t s, bool add)
{
    return add ? add_un8x4(d, s) : add_un8x4(s, mul_un8x4(d, 255u - (s >> 24)));
}

/* Pixels [x0, x1) of row dst fully covered by colour argb (premultiplied,
   not 0), no clip mask. Pixels up to limit_x1 (inside the target) may be
   read and written back as they are: the SSE2 loop ends with a group of
   four whose pixels past x1 keep their value, instead of a portable tail. */
static inline __attribute__((always_inline)) void solid_span_unclipped(uint32_t *dst, int32_t x0, int32_t x1,
                                                                       uint32_t argb, bool add, int32_t limit_x1,
                                                                       bool scalar)
{
    if (!add && (argb >> 24) == 255u) {
        for (int32_t x = x0; x < x1; x++) dst[x] = argb;
        return;
    }
    int32_t x = x0;
#if SW_FILL_AVX2_VARIANT
    /* the SSE2 loop's steps on eight pixels (each within a 128-bit lane) */
    if (!scalar) {
        const __m256i zero = _mm256_setzero_si256(), src = _mm256_set1_epi32((int)argb);
        const __m256i ia = _mm256_set1_epi16((short)(255u - (argb >> 24))), half = _mm256_set1_epi16(0x80);
        const __m256i k257 = _mm256_set1_epi16(257), lane = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0);
        for (; x < x1 && x + 8 <= limit_x1; x += 8) {
            __m256i old = _mm256_loadu_si256((const __m256i *)&dst[x]), d;
            if (add) {
                d = _mm256_adds_epu8(old, src);
            } else {
                __m256i lo = _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(old, zero), ia),
                                                                 half), k257);
                __m256i hi = _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(old, zero), ia),
                                                                 half), k257);
                d = _mm256_adds_epu8(_mm256_packus_epi16(lo, hi), src);
            }
            if (x + 8 > x1)   /* the last group: pixels from x1 on as they were */
                d = _mm256_blendv_epi8(old, d, _mm256_cmpgt_epi32(_mm256_set1_epi32(x1 - x), lane));
            _mm256_storeu_si256((__m256i *)&dst[x], d);
        }
    }
#endif
#if SW_SPRITE_SSE2
    if (!scalar) {
        const __m128i zero = _mm_setzero_si128(), src = _mm_set1_epi32((int)argb);
        const __m128i ia = _mm_set1_epi16((short)(255u - (argb >> 24))), half = _mm_set1_epi16(0x80);
        const __m128i k257 = _mm_set1_epi16(257), lane = _mm_set_epi32(3, 2, 1, 0);
        for (; x < x1 && x + 4 <= limit_x1; x += 4) {
            __m128i old = _mm_loadu_si128((const __m128i *)&dst[x]), d;
            if (add) {
                d = _mm_adds_epu8(old, src);
            } else {
                /* MUL_UN8's (t + (t >> 8)) >> 8 is (t * 257) >> 16 for t < 2^16 */
                __m128i lo = _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(old, zero), ia), half), k257);
                __m128i hi = _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(old, zero), ia), half), k257);
                d = _mm_adds_epu8(_mm_packus_epi16(lo, hi), src);
            }
            if (x + 4 > x1) {   /* the last group: pixels from x1 on as they were */
                __m128i in = _mm_cmpgt_epi32(_mm_set1_epi32(x1 - x), lane);
                d = _mm_or_si128(_mm_and_si128(in, d), _mm_andnot_si128(in, old));
            }
            _mm_storeu_si128((__m128i *)&dst[x], d);
        }
    }
#else
    (void)limit_x1;
    (void)scalar;
#endif
    for (; x < x1; x++) dst[x] = solid_blend(dst[x], argb, add);
}

/* Pixels [x0, x1) of row y fully covered by colour argb (x the clip mask);
   pixels up to limit_x1 may be read and written back as they are
   (solid_span_unclipped). */
static void solid_span(const sw_sprite_target *t, int32_t x0, int32_t x1, int32_t y, uint32_t argb, bool add,
                       int32_t limit_x1)
{
    if (x1 <= x0 || argb == 0) return;
    uint32_t *dst = t->target + (size_t)(y - t->ty) * t->tstride - t->tx;
    if (t->mask) {
        for (int32_t x = x0; x < x1; x++) {
            uint32_t m = clip_value(t, x, y);
            if (m) dst[x] = solid_blend(dst[x], mul_un8x4(argb, m), add);
        }
        return;
    }
    solid_span_unclipped(dst, x0, x1, argb, add, limit_x1, t->scalar);
}

/* pixel_coverage's general case for fills (edges of both directions cross
   the pixel: a corner): the unit square clipped by each crossing line in
   turn (Sutherland-Hodgman; it stays convex, one vertex more a line), its
   area by the shoelace formula. The same exact area as exact_area's, with
   a division only where a line cuts a side. */
static double corner_coverage(const sw_sprite *e, const double d[4])
{
    double x[2][8] = { { -0.5, 0.5, 0.5, -0.5 } }, y[2][8] = { { -0.5, -0.5, 0.5, 0.5 } };
    int n = 4, from = 0;
    for (int i = 0; i < 4; i++) {
        if (d[i] >= e->reach[i / 2]) continue;
        if (d[i] <= -e->reach[i / 2]) return 0.0;
        const double *ax = x[from], *ay = y[from];
        double *bx = x[1 - from], *by = y[1 - from];
        int m = 0;
        for (int k = 0; k < n; k++) {
            int k1 = k + 1 == n ? 0 : k + 1;
            double fa = e->nx[i] * ax[k] + e->ny[i] * ay[k] + d[i];
            double fb = e->nx[i] * ax[k1] + e->ny[i] * ay[k1] + d[i];
            if (fa >= 0.0) { bx[m] = ax[k]; by[m] = ay[k]; m++; }
            if ((fa >= 0.0) != (fb >= 0.0)) {
                double r = fa / (fa - fb);
                bx[m] = ax[k] + r * (ax[k1] - ax[k]);
                by[m] = ay[k] + r * (ay[k1] - ay[k]);
                m++;
            }
        }
        n = m;
        from = 1 - from;
        if (n < 3) return 0.0;
    }
    double twice = 0.0;
    for (int k = 0; k < n; k++) {
        int k1 = k + 1 == n ? 0 : k + 1;
        twice += x[from][k] * y[from][k1] - x[from][k1] * y[from][k];
    }
    double area = 0.5 * twice;
    return area < 0.0 ? 0.0 : (area > 1.0 ? 1.0 : area);
}

/* Edges this close to an axis, or pairs this close to parallel, keep
   corner_coverage (corner_two_edges divides by those components). */
#define SW_FILL_CORNER_MIN 1e-3

/* The part of a side of the pixel square inside two edges: the side runs
   along u in [-1/2, 1/2], and each edge keeps u >= its crossing when its
   coefficient along the side is positive, u <= it when negative. */
static inline double side_inside(double ca, double ua, double cb, double ub)
{
    double lo = max_d(ca > 0.0 ? ua : -0.5, cb > 0.0 ? ub : -0.5);
    double hi = min_d(ca > 0.0 ? 0.5 : ua, cb > 0.0 ? 0.5 : ub);
    return max_d(min_d(hi, 0.5) - max_d(lo, -0.5), 0.0);
}

/* corner_coverage when one edge of each pair crosses the pixel (edge i at
   distance di, edge j at dj; the other two cover it whole), without
   clipping: by the divergence theorem with the field (p - V) / 2, V where
   the two edge lines meet, whose flux through those lines is 0, the area
   is half the sum over the square's four sides of V's distance from the
   side times the length of the side inside both edges (side_inside). The
   same area as the clipped polygon's up to rounding (a few 1e-16). Only
   for edges at least SW_FILL_CORNER_MIN from the axes and pairs as far
   from parallel (the divisions stay small). */
static inline double corner_two_edges(const sw_sprite *e, int i, int j, double di, double dj)
{
    double ax = e->nx[i], ay = e->ny[i], bx = e->nx[j], by = e->ny[j];
    double inv = 1.0 / (ax * by - ay * bx), iay = 1.0 / ay, iby = 1.0 / by;
    double iax = e->inv_nx[i], ibx = e->inv_nx[j];
    double vx = (dj * ay - di * by) * inv, vy = (di * bx - dj * ax) * inv;
    /* edge k keeps n.p + d >= 0: on x = +-1/2 it crosses at y = -(d +- nx/2) / ny */
    double right = side_inside(ay, -(di + 0.5 * ax) * iay, by, -(dj + 0.5 * bx) * iby);
    double left = side_inside(ay, -(di - 0.5 * ax) * iay, by, -(dj - 0.5 * bx) * iby);
    double bottom = side_inside(ax, -(di + 0.5 * ay) * iax, bx, -(dj + 0.5 * by) * ibx);
    double top = side_inside(ax, -(di - 0.5 * ay) * iax, bx, -(dj - 0.5 * by) * ibx);
    double area = 0.5 * ((0.5 - vx) * right + (0.5 + vx) * left + (0.5 - vy) * bottom + (0.5 + vy) * top);
    return area < 0.0 ? 0.0 : (area > 1.0 ? 1.0 : area);
}

/* The edge pixels of a solid fill: each pixel's exact coverage as the
   mask path's byte (rounded from a float, as software_raster.c does),
   times the clip mask (MUL_UN8), then the colour times that. */
static void solid_edge_pixels(const sw_sprite *s, const sw_sprite_target *t, int32_t x0, int32_t x1, int32_t y,
                              const double d0[4])
{
    bool add = (s->flags & SW_SPRITE_ADD) != 0;
    uint32_t *dst = t->target + (size_t)(y - t->ty) * t->tstride - t->tx;
    double d[4] = { d0[0], d0[1], d0[2], d0[3] };
    double r0 = s->reach[0], r1 = s->reach[1];
    bool two_edges = fabs(s->nx[0]) > SW_FILL_CORNER_MIN && fabs(s->ny[0]) > SW_FILL_CORNER_MIN &&
                     fabs(s->nx[2]) > SW_FILL_CORNER_MIN && fabs(s->ny[2]) > SW_FILL_CORNER_MIN &&
                     fabs(s->nx[0] * s->ny[2] - s->ny[0] * s->nx[2]) > SW_FILL_CORNER_MIN;
    for (int32_t x = x0; x < x1; x++, d[0] += s->nx[0], d[1] += s->nx[1], d[2] += s->nx[2], d[3] += s->nx[3]) {
        /* pixel_coverage's cases inline: outside, inside, one edge (most
           edge pixels), one edge of each pair (a corner), else the general
           one (a fill thinner than a pixel's reach) */
        double m0 = min_d(d[0], d[1]), m1 = min_d(d[2], d[3]);
        if (m0 <= -r0 || m1 <= -r1) continue;
        double M0 = max_d(d[0], d[1]), M1 = max_d(d[2], d[3]);
        float c;
        if (m1 >= r1 && M0 >= r0) c = (float)edge_coverage(s, 0, m0);
        else if (m0 >= r0 && M1 >= r1) c = (float)edge_coverage(s, 1, m1);
        else if (two_edges && M0 >= r0 && M1 >= r1)
            c = (float)corner_two_edges(s, d[0] < d[1] ? 0 : 1, d[2] < d[3] ? 2 : 3, m0, m1);
        else c = (float)corner_coverage(s, d);
        uint32_t m = (uint32_t)((c < 1.0f ? c : 1.0f) * 255.0f + 0.5f);
        if (m && t->mask) {
            uint32_t k = m * clip_value(t, x, y) + 0x80u;
            m = (k + (k >> 8)) >> 8;
        }
        if (m) dst[x] = solid_blend(dst[x], mul_un8x4(s->argb, m), add);
    }
}

/* The edge distances of pixel (x, y). */
static inline void edge_distances(const sw_sprite *s, int32_t x, int32_t y, double d[4])
{
    for (int i = 0; i < 4; i++) d[i] = s->base[i] + (x + 0.5) * s->nx[i] + (y + 0.5) * s->ny[i];
}

/* ------------------------------------------------------------------------ */
/* Rotated fills                                                             */

/* floor and ceil of v, |v| < 2^31 (no libm call; the AVX2 build rounds
   with SSE4.1's roundsd, as software_sprite.c's floor_in: one instruction
   instead of a conversion there and back and a compare, the same
   integers) */
#if SW_FILL_AVX2_VARIANT
static inline int32_t floor_i(double v) { return (int32_t)__builtin_floor(v); }
static inline int32_t ceil_i(double v) { return (int32_t)__builtin_ceil(v); }
#else
static inline int32_t floor_i(double v) { int32_t i = (int32_t)v; return i - (v < (double)i); }
static inline int32_t ceil_i(double v) { int32_t i = (int32_t)v; return i + (v > (double)i); }
#endif

/* edge_coverage without branches: with x = min(|d|, h) the area is
   1/2 +- (x / a - max(x - l, 0)^2 / 2ab), + on the inside (d > 0): linear
   up to l, the corner's square beyond (the two agree at l and reach 1/2 at
   h). Every term is at most 1/2, so its rounding error stays near the
   double's. inv_2ab overflows for a b near the smallest doubles: edges
   within SW_FILL_MIN_SKEW of an axis keep edge_coverage. */
#define SW_FILL_MIN_SKEW 1e-6
static inline double edge_coverage_smooth(double d, double h, double l, double inv_a, double inv_2ab)
{
    double x = min_d(fabs(d), h), c = max_d(x - l, 0.0);
    double half = x * inv_a - c * c * inv_2ab;
    return d > 0.0 ? 0.5 + half : 0.5 - half;
}

/* The coverage byte as pixman's rasterizer stores it (rounded from a float),
   times the clip mask at (x, y) (MUL_UN8). */
static inline uint32_t coverage_byte(const sw_sprite_target *t, double coverage, int32_t x, int32_t y)
{
    float c = (float)coverage;
    uint32_t m = (uint32_t)((c < 1.0f ? c : 1.0f) * 255.0f + 0.5f);
    if (t->mask) {
        uint32_t k = m * clip_value(t, x, y) + 0x80u;
        m = (k + (k >> 8)) >> 8;
    }
    return m;
}

/* Edge i's distance at pixel (x, y) (edge_distances' for one edge). */
static inline double edge_distance(const sw_sprite *s, int i, int32_t x, int32_t y)
{
    return s->base[i] + (x + 0.5) * s->nx[i] + (y + 0.5) * s->ny[i];
}

#if SW_SPRITE_SSE2
/* edge_coverage_smooth of two distances d, the edge's h, l, 1/a, 1/2ab in
   the lanes beside them: the same doubles as the portable function. */
static inline __m128d edge_coverage_sse2(__m128d d, __m128d h, __m128d l, __m128d inv_a, __m128d inv_2ab)
{
    const __m128d zero = _mm_setzero_pd(), sign = _mm_set1_pd(-0.0);
    __m128d x = _mm_min_pd(_mm_andnot_pd(sign, d), h), k = _mm_max_pd(_mm_sub_pd(x, l), zero);
    __m128d half = _mm_sub_pd(_mm_mul_pd(x, inv_a), _mm_mul_pd(_mm_mul_pd(k, k), inv_2ab));
    /* + half where d > 0, - half elsewhere (d = 0 gives x = 0, half = 0) */
    half = _mm_xor_pd(half, _mm_andnot_pd(_mm_cmpgt_pd(d, zero), sign));
    return _mm_add_pd(_mm_set1_pd(0.5), half);
}

/* coverage_byte (unclipped) of four coverages, two in each of c01 and c23. */
static inline __m128i coverage_bytes_sse2(__m128d c01, __m128d c23)
{
    __m128 cf = _mm_movelh_ps(_mm_cvtpd_ps(c01), _mm_cvtpd_ps(c23));
    cf = _mm_add_ps(_mm_mul_ps(_mm_min_ps(cf, _mm_set1_ps(1.0f)), _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f));
    return _mm_cvttps_epi32(cf);
}

/* Four pixels dv, each the colour argb times its coverage byte in m (32-bit
   lanes), OVER or ADD: the portable loop's integers (coverage 0 gives the
   pixel back). */
static inline __m128i coverage_blend_sse2(__m128i dv, __m128i m, uint32_t argb, bool add)
{
    /* coverage per channel: m0 x4, m1 x4 | m2 x4, m3 x4 (16-bit lanes) */
    __m128i m16 = _mm_packs_epi32(m, m);
    m16 = _mm_unpacklo_epi16(m16, m16);
    __m128i m_lo = _mm_unpacklo_epi32(m16, m16), m_hi = _mm_unpackhi_epi32(m16, m16);
    const __m128i zero = _mm_setzero_si128(), half_v = _mm_set1_epi16(0x80), k257 = _mm_set1_epi16(257);
    __m128i colour = _mm_unpacklo_epi8(_mm_set1_epi32((int)argb), zero);
    /* (t + (t >> 8)) >> 8 for t < 2^16 is (t * 257) >> 16 */
    __m128i s_lo = _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(colour, m_lo), half_v), k257);
    __m128i s_hi = _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(colour, m_hi), half_v), k257);
    if (add) return _mm_adds_epu8(dv, _mm_packus_epi16(s_lo, s_hi));
    const __m128i v255 = _mm_set1_epi16(255);
    __m128i ia_lo = _mm_sub_epi16(v255, _mm_shufflehi_epi16(_mm_shufflelo_epi16(s_lo, 0xff), 0xff));
    __m128i ia_hi = _mm_sub_epi16(v255, _mm_shufflehi_epi16(_mm_shufflelo_epi16(s_hi, 0xff), 0xff));
    __m128i d_lo = _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(dv, zero), ia_lo), half_v), k257);
    __m128i d_hi = _mm_mulhi_epu16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(dv, zero), ia_hi), half_v), k257);
    return _mm_adds_epu8(_mm_packus_epi16(s_lo, s_hi), _mm_packus_epi16(d_lo, d_hi));
}

/* fill_one_edge's pixels [x, x + 4) of dst, lane k at distance e0 + (j + k) step,
   lanes outside [first, last) left as they are (coverage 0 blends to the
   pixel itself): the same integers as the portable loop. */
static inline void fill_one_edge_sse2(uint32_t *dst, double e0, int32_t j, double step, int first, int last,
                                      double h, double l, double inv_a, double inv_2ab, uint32_t argb, bool add)
{
    __m128d hv = _mm_set1_pd(h), lv = _mm_set1_pd(l), ia = _mm_set1_pd(inv_a), inv = _mm_set1_pd(inv_2ab);
    __m128d ev = _mm_set1_pd(e0), sv = _mm_set1_pd(step);
    __m128d k01 = _mm_set_pd(j + 1.0, (double)j), k23 = _mm_set_pd(j + 3.0, j + 2.0);
    __m128d c01 = edge_coverage_sse2(_mm_add_pd(ev, _mm_mul_pd(k01, sv)), hv, lv, ia, inv);
    __m128d c23 = edge_coverage_sse2(_mm_add_pd(ev, _mm_mul_pd(k23, sv)), hv, lv, ia, inv);
    __m128i m = coverage_bytes_sse2(c01, c23);
    /* lanes outside the run get coverage 0 */
    const __m128i lane = _mm_set_epi32(3, 2, 1, 0);
    m = _mm_and_si128(m, _mm_and_si128(_mm_cmpgt_epi32(_mm_set1_epi32(last), lane),
                                       _mm_cmpgt_epi32(lane, _mm_set1_epi32(first - 1))));
    __m128i dv = _mm_loadu_si128((const __m128i *)dst);
    _mm_storeu_si128((__m128i *)dst, coverage_blend_sse2(dv, m, argb, add));
}

/* A row's two one-edge runs at once when each is one or two pixels (most
   rows): lanes 0-1 the left run's pixels from xl (edge il, distance el at
   xl), lanes 2-3 the right run's from xr; the other lanes of each pair are
   written back as they are, the left pair first (it may reach the right
   run's first pixel). The portable loop's integers. */
static inline void fill_two_edges_sse2(const sw_sprite *s, uint32_t *dst, int32_t xl, int nl, int il, double el,
                                       int32_t xr, int nr, int ir, double er, uint32_t argb, bool add)
{
    int pl = il / 2, pr = ir / 2;
    __m128d one0 = _mm_set_pd(1.0, 0.0);
    __m128d dl = _mm_add_pd(_mm_set1_pd(el), _mm_mul_pd(one0, _mm_set1_pd(s->nx[il])));
    __m128d dr = _mm_add_pd(_mm_set1_pd(er), _mm_mul_pd(one0, _mm_set1_pd(s->nx[ir])));
    __m128d cl = edge_coverage_sse2(dl, _mm_set1_pd(s->reach[pl]), _mm_set1_pd(s->linear[pl]),
                                    _mm_set1_pd(s->inv_a[pl]), _mm_set1_pd(s->inv_2ab[pl]));
    __m128d cr = edge_coverage_sse2(dr, _mm_set1_pd(s->reach[pr]), _mm_set1_pd(s->linear[pr]),
                                    _mm_set1_pd(s->inv_a[pr]), _mm_set1_pd(s->inv_2ab[pr]));
    __m128i m = coverage_bytes_sse2(cl, cr);
    m = _mm_and_si128(m, _mm_cmpgt_epi32(_mm_set_epi32(nr, nr, nl, nl), _mm_set_epi32(1, 0, 1, 0)));
    __m128i dv = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)&dst[xl]),
                                    _mm_loadl_epi64((const __m128i *)&dst[xr]));
    __m128i out = coverage_blend_sse2(dv, m, argb, add);
    _mm_storel_epi64((__m128i *)&dst[xl], out);
    _mm_storel_epi64((__m128i *)&dst[xr], _mm_unpackhi_epi64(out, out));
}

/* A row's two one-edge runs at once when each is at most four pixels:
   fill_one_edge_sse2 for the left run's group from xl, then for the right
   run's from xr (xr >= the left run's end, so the left group's store,
   first, only gives back pixels the right one draws). */
static inline void fill_two_runs_sse2(const sw_sprite *s, uint32_t *dst, int32_t xl, int nl, int il, double el,
                                      int32_t xr, int nr, int ir, double er, uint32_t argb, bool add)
{
    int pl = il / 2, pr = ir / 2;
    __m128d one0 = _mm_set_pd(1.0, 0.0), three2 = _mm_set_pd(3.0, 2.0);
    __m128d sl = _mm_set1_pd(s->nx[il]), sr = _mm_set1_pd(s->nx[ir]), elv = _mm_set1_pd(el), erv = _mm_set1_pd(er);
    __m128d hl = _mm_set1_pd(s->reach[pl]), ll = _mm_set1_pd(s->linear[pl]), al = _mm_set1_pd(s->inv_a[pl]);
    __m128d bl = _mm_set1_pd(s->inv_2ab[pl]);
    __m128d hr = _mm_set1_pd(s->reach[pr]), lr = _mm_set1_pd(s->linear[pr]), ar = _mm_set1_pd(s->inv_a[pr]);
    __m128d br = _mm_set1_pd(s->inv_2ab[pr]);
    __m128i ml = coverage_bytes_sse2(edge_coverage_sse2(_mm_add_pd(elv, _mm_mul_pd(one0, sl)), hl, ll, al, bl),
                                     edge_coverage_sse2(_mm_add_pd(elv, _mm_mul_pd(three2, sl)), hl, ll, al, bl));
    __m128i mr = coverage_bytes_sse2(edge_coverage_sse2(_mm_add_pd(erv, _mm_mul_pd(one0, sr)), hr, lr, ar, br),
                                     edge_coverage_sse2(_mm_add_pd(erv, _mm_mul_pd(three2, sr)), hr, lr, ar, br));
    const __m128i lane = _mm_set_epi32(3, 2, 1, 0);
    ml = _mm_and_si128(ml, _mm_cmpgt_epi32(_mm_set1_epi32(nl), lane));
    mr = _mm_and_si128(mr, _mm_cmpgt_epi32(_mm_set1_epi32(nr), lane));
    __m128i dl = _mm_loadu_si128((const __m128i *)&dst[xl]), dr = _mm_loadu_si128((const __m128i *)&dst[xr]);
    _mm_storeu_si128((__m128i *)&dst[xl], coverage_blend_sse2(dl, ml, argb, add));
    _mm_storeu_si128((__m128i *)&dst[xr], coverage_blend_sse2(dr, mr, argb, add));
}
#endif

/* Pixels [x0, x1) of row y crossed by edge i alone (every other edge at
   least its reach away: whole on that side): the coverage is edge i's, at
   its distance e0 + k step from the run's first pixel. Coverage 0 blends to
   the pixel itself, so every pixel is written (no branch to mispredict);
   with SSE2 four at a time within the fill's box (inside the target): a
   run's last pixels that would reach past the box end a group that starts
   before them instead (no portable tail at a fill's right end). The byte
   and the blend are solid_edge_pixels' own. */
static inline __attribute__((always_inline)) void fill_one_edge(const sw_sprite *s, const sw_sprite_target *t,
                                                                int32_t x0, int32_t x1, int32_t y, int i, sw_box box)
{
    int pair = i / 2;
    double e0 = edge_distance(s, i, x0, y), step = s->nx[i];
    bool add = (s->flags & SW_SPRITE_ADD) != 0;
    uint32_t argb = s->argb;
    uint32_t *dst = t->target + (size_t)(y - t->ty) * t->tstride - t->tx;
    if (!(s->b[pair] > SW_FILL_MIN_SKEW)) {
        for (int32_t x = x0; x < x1; x++)
            dst[x] = solid_blend(dst[x], mul_un8x4(argb, coverage_byte(t, edge_coverage(s, pair, e0 + (x - x0) * step),
                                                                       x, y)), add);
        return;
    }
    double h = s->reach[pair], l = s->linear[pair], inv_a = s->inv_a[pair], inv_2ab = s->inv_2ab[pair];
    int32_t x = x0;
#if SW_SPRITE_SSE2
    if (!t->scalar && !t->mask) {
        for (; x < x1 && x + 4 <= box.x1; x += 4)
            fill_one_edge_sse2(&dst[x], e0, x - x0, step, 0, x1 - x, h, l, inv_a, inv_2ab, argb, add);
        if (x < x1 && x1 - 4 >= box.x0) {
            int32_t start = x1 - 4;
            fill_one_edge_sse2(&dst[start], e0, start - x0, step, x - start, 4, h, l, inv_a, inv_2ab, argb, add);
            return;
        }
    }
#else
    (void)box;
#endif
    for (; x < x1; x++)
        dst[x] = solid_blend(dst[x], mul_un8x4(argb, coverage_byte(t, edge_coverage_smooth(e0 + (x - x0) * step, h, l,
                                                                                        inv_a, inv_2ab), x, y)), add);
}

/* A fill's row bounds, set up once per call: edge i with nx != 0 is at
   distance d in row y at x = at + y * per_row[i] + d / nx[i]: a lower bound
   of the row (it crosses the row's left end) when nx > 0 (side 1), an
   upper one when nx < 0 (side -1); with nx ~ 0 (side 0) its distance is
   the same all along a row. touched_at: where the row's touched pixels end
   (distance -reach); crossed_at: where its crossed ones do (+reach, with a
   margin that absorbs rounding). */
typedef struct sw_fill_rows {
    double touched_at[4], crossed_at[4], per_row[4];
    int    side[4];
    double left, right;   /* bounds kept within the box's columns and a pixel beyond, so they convert to int */
    bool   add;
#if SW_SPRITE_SSE2
    bool   pairs;         /* both one-edge runs of a row in one SSE2 pass (fill_two_edges_sse2) */
    bool   smooth[2];
#endif
} sw_fill_rows;

/* Row y of a fill once its touched pixels [t0, t1) are known and at most one
   edge crosses each end: lower (0 or 1) edge left_edge crosses [t0, cut_l),
   upper edge right_edge [cut_r, t1), whole pixels between (cut_l <= cut_r). */
static inline __attribute__((always_inline)) void fill_row_runs(const sw_sprite *s, const sw_sprite_target *t,
                                                                const sw_fill_rows *f, sw_box box, int32_t y,
                                                                int32_t t0, int32_t t1, int lower, int left_edge,
                                                                int32_t cut_l, int upper, int right_edge,
                                                                int32_t cut_r)
{
#if SW_SPRITE_SSE2
    /* both one-edge runs in one SSE2 call: up to two pixels each in one
       pass, else up to four each */
    int32_t nl = cut_l - t0, nr = t1 - cut_r;
    int both = nl <= 2 && nr <= 2 && cut_r + 2 <= box.x1 ? 2 : nl <= 4 && nr <= 4 && cut_r + 4 <= box.x1 ? 4 : 0;
    if (f->pairs && lower && upper && both && f->smooth[left_edge / 2] && f->smooth[right_edge / 2]) {
        uint32_t *dst = t->target + (size_t)(y - t->ty) * t->tstride - t->tx;
        double dl = edge_distance(s, left_edge, t0, y), dr = edge_distance(s, right_edge, cut_r, y);
        if (both == 2)
            fill_two_edges_sse2(s, dst, t0, nl, left_edge, dl, cut_r, nr, right_edge, dr, s->argb, f->add);
        else
            fill_two_runs_sse2(s, dst, t0, nl, left_edge, dl, cut_r, nr, right_edge, dr, s->argb, f->add);
        solid_span(t, cut_l, cut_r, y, s->argb, f->add, box.x1);
        return;
    }
#endif
    if (lower) fill_one_edge(s, t, t0, cut_l, y, left_edge, box);
    solid_span(t, cut_l, cut_r, y, s->argb, f->add, box.x1);
    if (upper) fill_one_edge(s, t, cut_r, t1, y, right_edge, box);
}

/* The pixels [t0, t1) of a row touched where x is in (lo, hi) (bounds
   kept within [left, right], so they convert to int), within the box's
   columns; false when there are none. */
static inline bool touched_span(double lo, double hi, double left, double right, sw_box box, int32_t *t0,
                                int32_t *t1)
{
    *t0 = floor_i(min_d(max_d(lo, left), right)) + 1;
    *t1 = ceil_i(min_d(max_d(hi, left), right));
    if (*t0 < box.x0) *t0 = box.x0;
    if (*t1 > box.x1) *t1 = box.x1;
    return *t1 > *t0;
}

/* The cuts used[i] within (t0, t1), in order, between t0 and t1 (at most
   four: insertion sort) into at_x; returns how many points. */
static inline int sorted_cuts(const int32_t cut[4], const bool used[4], int32_t t0, int32_t t1, int32_t at_x[6])
{
    int n = 0;
    at_x[n++] = t0;
    for (int i = 0; i < 4; i++) {
        if (!used[i] || cut[i] <= t0 || cut[i] >= t1) continue;
        int j = n++;
        while (j > 1 && at_x[j - 1] > cut[i]) { at_x[j] = at_x[j - 1]; j--; }
        at_x[j] = cut[i];
    }
    at_x[n++] = t1;
    return n;
}

/* Pixels [x0, x1) of row y between two cuts, crossed by `count` edges
   (`edge` the one, when one): whole pixels, one edge's run, or corner pixels. */
static inline void fill_segment(const sw_sprite *s, const sw_sprite_target *t, sw_box box, int32_t y, int32_t x0,
                                int32_t x1, int count, int edge, bool add)
{
    if (count == 0) {
        solid_span(t, x0, x1, y, s->argb, add, box.x1);
    } else if (count == 1) {
        fill_one_edge(s, t, x0, x1, y, edge, box);
    } else {
        double d[4];
        edge_distances(s, x0, y, d);
        solid_edge_pixels(s, t, x0, x1, y, d);
    }
}

/* Row y of a fill, any row: its bounds and cuts from every edge. Each row
   is cut where an edge stops crossing its pixels; between the cuts the
   same edges cross every pixel: none (whole pixels: sw_solid_span), one
   (fill_one_edge), or more, near a corner (solid_edge_pixels). */
static void fill_row(const sw_sprite *s, const sw_sprite_target *t, const sw_fill_rows *f, sw_box box, int32_t y)
{
    /* touched: x in (lo, hi); edge i crosses pixels x < cut[i] (lower
       bound) or x >= cut[i] (upper): those not surely at least its reach
       inside (the margin absorbs rounding) */
    double lo = -HUGE_VAL, hi = HUGE_VAL, left = f->left, right = f->right;
    int32_t cut[4];
    bool crossing_row = false, outside = false;
    for (int i = 0; i < 4; i++) {
        double h = s->reach[i / 2];
        if (f->side[i] == 0) {
            double d = s->base[i] + 0.5 * s->nx[i] + (y + 0.5) * s->ny[i];
            if (d < -h) outside = true;
            if (d < h) crossing_row = true;
            continue;
        }
        double x = f->touched_at[i] + y * f->per_row[i];
        double c = min_d(max_d(f->crossed_at[i] + y * f->per_row[i], left), right);
        if (f->side[i] > 0) {
            lo = max_d(lo, x);
            cut[i] = ceil_i(c);
        } else {
            hi = min_d(hi, x);
            cut[i] = floor_i(c) + 1;
        }
    }
    if (outside || !(hi >= lo)) return;
    int32_t t0, t1;
    if (!touched_span(lo, hi, left, right, box, &t0, &t1)) return;
    if (crossing_row) {
        double d[4];
        edge_distances(s, t0, y, d);
        solid_edge_pixels(s, t, t0, t1, y, d);
        return;
    }
    /* Most rows: one edge crosses the left end, one the right end, and
       whole pixels lie between. */
    int32_t cut_l = t0, cut_r = t1;
    int left_edge = -1, right_edge = -1, lower = 0, upper = 0;
    for (int i = 0; i < 4; i++) {
        if (f->side[i] > 0 && cut[i] > t0) { left_edge = i; cut_l = cut[i] < t1 ? cut[i] : t1; lower++; }
        if (f->side[i] < 0 && cut[i] < t1) { right_edge = i; cut_r = cut[i] > t0 ? cut[i] : t0; upper++; }
    }
    if (lower <= 1 && upper <= 1 && cut_l <= cut_r) {
        fill_row_runs(s, t, f, box, y, t0, t1, lower, left_edge, cut_l, upper, right_edge, cut_r);
        return;
    }
    int32_t at_x[6];
    bool used[4] = { f->side[0] != 0, f->side[1] != 0, f->side[2] != 0, f->side[3] != 0 };
    int n = sorted_cuts(cut, used, t0, t1, at_x);
    for (int k = 0; k + 1 < n; k++) {
        int32_t x0 = at_x[k], x1 = at_x[k + 1];
        if (x1 <= x0) continue;
        int edge = -1, count = 0;
        for (int i = 0; i < 4; i++) {
            if (f->side[i] > 0 ? x0 < cut[i] : x0 >= cut[i]) { edge = i; count++; }
        }
        fill_segment(s, t, box, y, x0, x1, count, edge, f->add);
    }
}

/* fill_row for a fill with two lower edges (lower[]) and two upper ones
   (upper[]), none near the horizontal: the same bounds, cuts and calls,
   without going through the edges' sides (which differ from fill to fill,
   so their branches mispredict). */
static void fill_row_sided(const sw_sprite *s, const sw_sprite_target *t, const sw_fill_rows *f, sw_box box,
                           int32_t y, const int lower[2], const int upper[2])
{
    int l0 = lower[0], l1 = lower[1], u0 = upper[0], u1 = upper[1];
    double left = f->left, right = f->right;
    double xl0 = f->touched_at[l0] + y * f->per_row[l0], xl1 = f->touched_at[l1] + y * f->per_row[l1];
    double xu0 = f->touched_at[u0] + y * f->per_row[u0], xu1 = f->touched_at[u1] + y * f->per_row[u1];
    double lo = max_d(xl0, xl1), hi = min_d(xu0, xu1);
    if (!(hi >= lo)) return;
    int32_t t0, t1;
    if (!touched_span(lo, hi, left, right, box, &t0, &t1)) return;
    int32_t cl0 = ceil_i(min_d(max_d(f->crossed_at[l0] + y * f->per_row[l0], left), right));
    int32_t cl1 = ceil_i(min_d(max_d(f->crossed_at[l1] + y * f->per_row[l1], left), right));
    int32_t cu0 = floor_i(min_d(max_d(f->crossed_at[u0] + y * f->per_row[u0], left), right)) + 1;
    int32_t cu1 = floor_i(min_d(max_d(f->crossed_at[u1] + y * f->per_row[u1], left), right)) + 1;
    int n_lower = (cl0 > t0) + (cl1 > t0), n_upper = (cu0 < t1) + (cu1 < t1);
    if (n_lower <= 1 && n_upper <= 1) {
        int left_edge = cl1 > t0 ? l1 : l0, right_edge = cu1 < t1 ? u1 : u0;
        int32_t cut_l = t0, cut_r = t1;
        if (n_lower) {
            int32_t c = cl1 > t0 ? cl1 : cl0;
            cut_l = c < t1 ? c : t1;
        }
        if (n_upper) {
            int32_t c = cu1 < t1 ? cu1 : cu0;
            cut_r = c > t0 ? c : t0;
        }
        if (cut_l <= cut_r) {
            fill_row_runs(s, t, f, box, y, t0, t1, n_lower, left_edge, cut_l, n_upper, right_edge, cut_r);
            return;
        }
    }
    /* the cuts within (t0, t1), in order; between two, the edges crossing */
    int32_t at_x[6], cut[4];
    cut[l0] = cl0;
    cut[l1] = cl1;
    cut[u0] = cu0;
    cut[u1] = cu1;
    static const bool all[4] = { true, true, true, true };
    int n = sorted_cuts(cut, all, t0, t1, at_x);
    for (int k = 0; k + 1 < n; k++) {
        int32_t x0 = at_x[k], x1 = at_x[k + 1];
        if (x1 <= x0) continue;
        int count = (x0 < cl0) + (x0 < cl1) + (x0 >= cu0) + (x0 >= cu1);
        int edge = x0 < cl0 ? l0 : x0 < cl1 ? l1 : x0 >= cu0 ? u0 : u1;
        fill_segment(s, t, box, y, x0, x1, count, edge, f->add);
    }
}

/* A zone row's runs from its lower edge's cut (cut_a) and its upper
   edge's (cut_b) within [t0, t1): whether each edge crosses any pixel,
   and the whole pixels' bounds [cut_l, cut_r); false when the runs meet
   (zone_row_meeting draws such a row). */
static inline bool zone_runs(int32_t t0, int32_t t1, int32_t cut_a, int32_t cut_b, int *lower_n, int *upper_n,
                             int32_t *cut_l, int32_t *cut_r)
{
    *lower_n = cut_a > t0;
    *upper_n = cut_b < t1;
    *cut_l = *lower_n ? (cut_a < t1 ? cut_a : t1) : t0;
    *cut_r = *upper_n ? (cut_b > t0 ? cut_b : t0) : t1;
    return *cut_l <= *cut_r;
}

/* A zone row whose two runs meet (near the fill's top or bottom corner):
   lower edge a crosses [t0, cut_a), upper edge b [cut_b, t1), cut_b <
   cut_a, so both cross the pixels between: fill_row's cut path for those
   two edges alone (the zone's other edges cut outside [t0, t1)). */
static void zone_row_meeting(const sw_sprite *s, const sw_sprite_target *t, sw_box box, int32_t y, int32_t t0,
                             int32_t t1, int a, int32_t cut_a, int b, int32_t cut_b)
{
    int32_t both = cut_b > t0 ? cut_b : t0, only_b = cut_a < t1 ? cut_a : t1;
    if (both > t0) fill_one_edge(s, t, t0, both, y, a, box);
    if (only_b > both) {
        double d[4];
        edge_distances(s, both, y, d);
        solid_edge_pixels(s, t, both, only_b, y, d);
    }
    if (t1 > only_b) fill_one_edge(s, t, only_b, t1, y, b, box);
}

#if SW_FILL_AVX2_VARIANT
/* edge_coverage_sse2 and coverage_bytes_sse2 of four distances at once:
   the same operations lane by lane, so the same bytes. */
static inline __m128i coverage_bytes_avx2(__m256d d, __m256d h, __m256d l, __m256d inv_a, __m256d inv_2ab)
{
    const __m256d zero = _mm256_setzero_pd(), sign = _mm256_set1_pd(-0.0);
    __m256d x = _mm256_min_pd(_mm256_andnot_pd(sign, d), h), k = _mm256_max_pd(_mm256_sub_pd(x, l), zero);
    __m256d half = _mm256_sub_pd(_mm256_mul_pd(x, inv_a), _mm256_mul_pd(_mm256_mul_pd(k, k), inv_2ab));
    half = _mm256_xor_pd(half, _mm256_andnot_pd(_mm256_cmp_pd(d, zero, _CMP_GT_OQ), sign));
    __m128 cf = _mm256_cvtpd_ps(_mm256_add_pd(_mm256_set1_pd(0.5), half));
    cf = _mm_add_ps(_mm_mul_ps(_mm_min_ps(cf, _mm_set1_ps(1.0f)), _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f));
    return _mm_cvttps_epi32(cf);
}
#endif

#if SW_SPRITE_SSE2
/* floor(v) + 1 and ceil(v) of two doubles within int32 (floor_i, ceil_i),
   as 32-bit lanes 0 and 1. */
static inline __m128i floor_plus_one_sse2(__m128d v)
{
#if SW_FILL_AVX2_VARIANT
    return _mm_add_epi32(_mm_cvttpd_epi32(_mm_floor_pd(v)), _mm_set1_epi32(1));   /* (roundpd, as floor_i) */
#else
    __m128i i = _mm_cvttpd_epi32(v);
    __m128i below = _mm_shuffle_epi32(_mm_castpd_si128(_mm_cmplt_pd(v, _mm_cvtepi32_pd(i))), _MM_SHUFFLE(3, 3, 2, 0));
    return _mm_sub_epi32(_mm_add_epi32(i, below), _mm_set1_epi32(-1));
#endif
}

static inline __m128i ceil_sse2(__m128d v)
{
#if SW_FILL_AVX2_VARIANT
    return _mm_cvttpd_epi32(_mm_ceil_pd(v));
#else
    __m128i i = _mm_cvttpd_epi32(v);
    __m128i above = _mm_shuffle_epi32(_mm_castpd_si128(_mm_cmpgt_pd(v, _mm_cvtepi32_pd(i))), _MM_SHUFFLE(3, 3, 2, 0));
    return _mm_sub_epi32(i, above);
#endif
}

/* The zone rows [y, end) of a fill bounded by lower edge a and upper edge
   b, both with the branch-free coverage, no clip mask: fill_row's bounds,
   cuts and runs for those two edges, two lanes at a time, with the edges'
   constants set up once: the same doubles and integers. */
static void zone_rows_sse2(const sw_sprite *s, const sw_sprite_target *t, const sw_fill_rows *f, sw_box box,
                           int32_t y, int32_t end, int a, int b)
{
    const __m128d lim_lo = _mm_set1_pd(f->left), lim_hi = _mm_set1_pd(f->right);
    /* lanes (t0, cut_b): floor + 1; (t1, cut_a): ceil */
    const __m128d f_at = _mm_set_pd(f->crossed_at[b], f->touched_at[a]), f_step = _mm_set_pd(f->per_row[b], f->per_row[a]);
    const __m128d c_at = _mm_set_pd(f->crossed_at[a], f->touched_at[b]), c_step = _mm_set_pd(f->per_row[a], f->per_row[b]);
    /* edge distances of (pixel of a, pixel of b) */
    const __m128d base = _mm_set_pd(s->base[b], s->base[a]), nx = _mm_set_pd(s->nx[b], s->nx[a]);
    const __m128d ny = _mm_set_pd(s->ny[b], s->ny[a]);
    /* each run's steps from its first pixel: lanes k (0, 1) and (2, 3) times nx */
    const __m128d one0 = _mm_set_pd(1.0, 0.0), three2 = _mm_set_pd(3.0, 2.0);
    const __m128d na = _mm_set1_pd(s->nx[a]), nb = _mm_set1_pd(s->nx[b]);
    const __m128d ka01 = _mm_mul_pd(one0, na), ka23 = _mm_mul_pd(three2, na);
    const __m128d kb01 = _mm_mul_pd(one0, nb), kb23 = _mm_mul_pd(three2, nb);
    int pa = a / 2, pb = b / 2;
    const __m128d ha = _mm_set1_pd(s->reach[pa]), la = _mm_set1_pd(s->linear[pa]), ia = _mm_set1_pd(s->inv_a[pa]);
    const __m128d qa = _mm_set1_pd(s->inv_2ab[pa]);
    const __m128d hb = _mm_set1_pd(s->reach[pb]), lb = _mm_set1_pd(s->linear[pb]), ib = _mm_set1_pd(s->inv_a[pb]);
    const __m128d qb = _mm_set1_pd(s->inv_2ab[pb]);
    const __m128i lane = _mm_set_epi32(3, 2, 1, 0), pair_lane = _mm_set_epi32(1, 0, 1, 0);
#if SW_FILL_AVX2_VARIANT
    /* the same constants four lanes wide: (a, a, b, b) for a pair of runs,
       (a, a, a, a) or (b, b, b, b) for a run of four */
    const __m256d k01 = _mm256_set_m128d(kb01, ka01), ka = _mm256_set_m128d(ka23, ka01);
    const __m256d kb = _mm256_set_m128d(kb23, kb01);
    const __m256d hab = _mm256_set_m128d(hb, ha), lab = _mm256_set_m128d(lb, la), iab = _mm256_set_m128d(ib, ia);
    const __m256d qab = _mm256_set_m128d(qb, qa);
    const __m256d ha4 = _mm256_set_m128d(ha, ha), la4 = _mm256_set_m128d(la, la), ia4 = _mm256_set_m128d(ia, ia);
    const __m256d qa4 = _mm256_set_m128d(qa, qa);
    const __m256d hb4 = _mm256_set_m128d(hb, hb), lb4 = _mm256_set_m128d(lb, lb), ib4 = _mm256_set_m128d(ib, ib);
    const __m256d qb4 = _mm256_set_m128d(qb, qb);
#endif
    uint32_t argb = s->argb;
    bool add = f->add;
    for (; y < end; y++) {
        __m128d yv = _mm_set1_pd((double)y);
        __m128d fv = _mm_add_pd(f_at, _mm_mul_pd(yv, f_step)), cv = _mm_add_pd(c_at, _mm_mul_pd(yv, c_step));
        if (!(_mm_cvtsd_f64(cv) >= _mm_cvtsd_f64(fv))) continue;   /* hi >= lo */
        __m128i fi = floor_plus_one_sse2(_mm_min_pd(_mm_max_pd(fv, lim_lo), lim_hi));
        __m128i ci = ceil_sse2(_mm_min_pd(_mm_max_pd(cv, lim_lo), lim_hi));
        int32_t t0 = _mm_cvtsi128_si32(fi), cut_b = _mm_cvtsi128_si32(_mm_shuffle_epi32(fi, 1));
        int32_t t1 = _mm_cvtsi128_si32(ci), cut_a = _mm_cvtsi128_si32(_mm_shuffle_epi32(ci, 1));
        if (t0 < box.x0) t0 = box.x0;
        if (t1 > box.x1) t1 = box.x1;
        if (t1 <= t0) continue;
        int lower_n, upper_n;
        int32_t cut_l, cut_r;
        if (!zone_runs(t0, t1, cut_a, cut_b, &lower_n, &upper_n, &cut_l, &cut_r)) {
            zone_row_meeting(s, t, box, y, t0, t1, a, cut_a, b, cut_b);
            continue;
        }
        int32_t nl = cut_l - t0, nr = t1 - cut_r;
        uint32_t *dst = t->target + (size_t)(y - t->ty) * t->tstride - t->tx;
        if (lower_n && upper_n && nl <= 4 && nr <= 4 && cut_r + 4 <= box.x1) {
            /* (dl, dr): edge a's distance at t0, b's at cut_r */
            __m128d xv = _mm_add_pd(_mm_cvtepi32_pd(_mm_unpacklo_epi32(_mm_cvtsi32_si128(t0), _mm_cvtsi32_si128(cut_r))),
                                    _mm_set1_pd(0.5));
            __m128d d = _mm_add_pd(_mm_add_pd(base, _mm_mul_pd(xv, nx)), _mm_mul_pd(_mm_add_pd(yv, _mm_set1_pd(0.5)), ny));
            __m128d dl = _mm_unpacklo_pd(d, d), dr = _mm_unpackhi_pd(d, d);
            if (nl <= 2 && nr <= 2 && cut_r + 2 <= box.x1) {
                /* fill_two_edges_sse2 */
#if SW_FILL_AVX2_VARIANT
                __m128i m = coverage_bytes_avx2(_mm256_add_pd(_mm256_set_m128d(dr, dl), k01), hab, lab, iab, qab);
#else
                __m128i m = coverage_bytes_sse2(edge_coverage_sse2(_mm_add_pd(dl, ka01), ha, la, ia, qa),
                                                edge_coverage_sse2(_mm_add_pd(dr, kb01), hb, lb, ib, qb));
#endif
                m = _mm_and_si128(m, _mm_cmpgt_epi32(_mm_set_epi32(nr, nr, nl, nl), pair_lane));
                __m128i dv = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)&dst[t0]),
                                                _mm_loadl_epi64((const __m128i *)&dst[cut_r]));
                __m128i out = coverage_blend_sse2(dv, m, argb, add);
                _mm_storel_epi64((__m128i *)&dst[t0], out);
                _mm_storel_epi64((__m128i *)&dst[cut_r], _mm_unpackhi_epi64(out, out));
            } else {
                /* fill_two_runs_sse2 */
#if SW_FILL_AVX2_VARIANT
                __m128i ml = coverage_bytes_avx2(_mm256_add_pd(_mm256_set_m128d(dl, dl), ka), ha4, la4, ia4, qa4);
                __m128i mr = coverage_bytes_avx2(_mm256_add_pd(_mm256_set_m128d(dr, dr), kb), hb4, lb4, ib4, qb4);
#else
                __m128i ml = coverage_bytes_sse2(edge_coverage_sse2(_mm_add_pd(dl, ka01), ha, la, ia, qa),
                                                 edge_coverage_sse2(_mm_add_pd(dl, ka23), ha, la, ia, qa));
                __m128i mr = coverage_bytes_sse2(edge_coverage_sse2(_mm_add_pd(dr, kb01), hb, lb, ib, qb),
                                                 edge_coverage_sse2(_mm_add_pd(dr, kb23), hb, lb, ib, qb));
#endif
                ml = _mm_and_si128(ml, _mm_cmpgt_epi32(_mm_set1_epi32(nl), lane));
                mr = _mm_and_si128(mr, _mm_cmpgt_epi32(_mm_set1_epi32(nr), lane));
                __m128i vl = _mm_loadu_si128((const __m128i *)&dst[t0]), vr = _mm_loadu_si128((const __m128i *)&dst[cut_r]);
                _mm_storeu_si128((__m128i *)&dst[t0], coverage_blend_sse2(vl, ml, argb, add));
                _mm_storeu_si128((__m128i *)&dst[cut_r], coverage_blend_sse2(vr, mr, argb, add));
            }
            if (cut_r > cut_l && argb) solid_span_unclipped(dst, cut_l, cut_r, argb, add, box.x1, false);
            continue;
        }
        fill_row_runs(s, t, f, box, y, t0, t1, lower_n, a, cut_l, upper_n, b, cut_r);
    }
}
#endif

/* Zones: rows of box in which one edge bounds the row on each side and the
   other edge of that side is not even touched there, so that fill_row's
   answer comes from two edges alone. Only where every edge turns by more
   than SW_FILL_ZONE_MIN_NX from the horizontal (their per-row steps, and
   so the rounding of the bounds, stay small), with a margin in x
   (SW_FILL_ZONE_MARGIN) far above that rounding. */
#define SW_FILL_ZONE_MIN_NX 1e-3
#define SW_FILL_ZONE_MARGIN 1e-4

/* The rows [*from, *to) of box in which edge a, not edge b, bounds the rows
   on their side: for lower edges (side 1) b's crossed pixels end at least
   the margin left of a's touched ones start, for upper ones right of where
   they end. Then b is neither a bound of the row (its touched end lies
   beyond a's) nor a cut within it (its cut is at most t0, or at least t1). */
static void zone_rows(const sw_fill_rows *f, int a, int b, sw_box box, int32_t *from, int32_t *to)
{
    /* margin <= k + y * slope */
    double k, slope;
    if (f->side[a] > 0) {
        k = f->touched_at[a] - f->crossed_at[b];
        slope = f->per_row[a] - f->per_row[b];
    } else {
        k = f->crossed_at[b] - f->touched_at[a];
        slope = f->per_row[b] - f->per_row[a];
    }
    *from = box.y0;
    *to = box.y1;
    double lo = box.y0 - 1.0, hi = box.y1 + 1.0;
    if (slope > 0.0) {
        *from = ceil_i(min_d(max_d((SW_FILL_ZONE_MARGIN - k) / slope, lo), hi));
    } else if (slope < 0.0) {
        *to = floor_i(min_d(max_d((SW_FILL_ZONE_MARGIN - k) / slope, lo), hi)) + 1;
    } else if (!(k >= SW_FILL_ZONE_MARGIN)) {
        *to = *from;
    }
    if (*from < box.y0) *from = box.y0;
    if (*to > box.y1) *to = box.y1;
    if (*to < *from) *to = *from;
}

/* Which edge of a side bounds row y: a in rows [from[0], to[0]), b in
   [from[1], to[1]) (disjoint), else none (-1); *end: the row where that
   answer may change. */
static inline int zone_at(int32_t y, const int edge[2], const int32_t from[2], const int32_t to[2], int32_t *end)
{
    for (int k = 0; k < 2; k++)
        if (y >= from[k] && y < to[k]) {
            if (to[k] < *end) *end = to[k];
            return edge[k];
        }
    for (int k = 0; k < 2; k++)
        if (y < from[k] && from[k] < *end && from[k] < to[k]) *end = from[k];
    return -1;
}

/* A rotated or skewed FILL within box, row by row. The row's bounds are
   linear in the row, so they are solved once for the fill (sw_fill_rows).
   Rows in a zone (zone_rows: one edge bounds each end) take the bounds and
   cuts of those two edges alone, the same doubles fill_row computes for
   them; the others (a corner's rows, near-axis edges, runs that meet) go
   through fill_row. */
static void fill_rotated(const sw_sprite *s, const sw_sprite_target *t, sw_box box)
{
    sw_fill_rows f;
    for (int i = 0; i < 4; i++) {
        double nx = s->nx[i];
        int side = (nx > 1e-12) - (nx < -1e-12);
        f.side[i] = side;
        double k = side ? s->inv_nx[i] : 0.0;
        double at = -(s->base[i] + 0.5 * nx + 0.5 * s->ny[i]) * k, w = s->reach[i / 2] * k;
        f.touched_at[i] = at - w;
        f.crossed_at[i] = at + w + (side > 0 ? 1e-7 : -1e-7);
        f.per_row[i] = -s->ny[i] * k;
    }
    /* Edges 1 and 3 face edges 0 and 2 (edge_lines: nx[1] = -nx[0]), so one
       edge of each pair bounds the rows from below, in index order. */
    bool zones = fabs(s->nx[0]) > SW_FILL_ZONE_MIN_NX && fabs(s->nx[2]) > SW_FILL_ZONE_MIN_NX &&
                 s->nx[1] == -s->nx[0] && s->nx[3] == -s->nx[2];
    int lower[2] = { s->nx[0] > 0.0 ? 0 : 1, s->nx[2] > 0.0 ? 2 : 3 };
    int upper[2] = { 1 - lower[0], 5 - lower[1] };
    f.add = (s->flags & SW_SPRITE_ADD) != 0;
    f.left = box.x0 - 1.0;
    f.right = box.x1 + 1.0;
#if SW_SPRITE_SSE2
    f.pairs = !t->scalar && !t->mask;
    f.smooth[0] = s->b[0] > SW_FILL_MIN_SKEW;
    f.smooth[1] = s->b[1] > SW_FILL_MIN_SKEW;
#endif
    if (!zones) {
        for (int32_t y = box.y0; y < box.y1; y++) fill_row(s, t, &f, box, y);
        return;
    }
    int32_t lfrom[2], lto[2], ufrom[2], uto[2];
    zone_rows(&f, lower[0], lower[1], box, &lfrom[0], &lto[0]);
    zone_rows(&f, lower[1], lower[0], box, &lfrom[1], &lto[1]);
    zone_rows(&f, upper[0], upper[1], box, &ufrom[0], &uto[0]);
    zone_rows(&f, upper[1], upper[0], box, &ufrom[1], &uto[1]);
    for (int32_t y = box.y0; y < box.y1;) {
        int32_t end = box.y1;
        int a = zone_at(y, lower, lfrom, lto, &end), b = zone_at(y, upper, ufrom, uto, &end);
        if (a < 0 || b < 0) {
            for (; y < end; y++) fill_row_sided(s, t, &f, box, y, lower, upper);
            continue;
        }
#if SW_SPRITE_SSE2
        if (f.pairs && f.smooth[a / 2] && f.smooth[b / 2]) {
            zone_rows_sse2(s, t, &f, box, y, end, a, b);
            y = end;
            continue;
        }
#endif
        /* fill_row's arithmetic for edges a (lower) and b (upper) only */
        double touched_a = f.touched_at[a], touched_b = f.touched_at[b], crossed_a = f.crossed_at[a];
        double crossed_b = f.crossed_at[b], step_a = f.per_row[a], step_b = f.per_row[b];
        double left = f.left, right = f.right;
        for (; y < end; y++) {
            double lo = touched_a + y * step_a, hi = touched_b + y * step_b;
            if (!(hi >= lo)) continue;
            int32_t t0, t1;
            if (!touched_span(lo, hi, left, right, box, &t0, &t1)) continue;
            int32_t cut_a = ceil_i(min_d(max_d(crossed_a + y * step_a, left), right));
            int32_t cut_b = floor_i(min_d(max_d(crossed_b + y * step_b, left), right)) + 1;
            int lower_n, upper_n;
            int32_t cut_l, cut_r;
            if (!zone_runs(t0, t1, cut_a, cut_b, &lower_n, &upper_n, &cut_l, &cut_r)) {
                zone_row_meeting(s, t, box, y, t0, t1, a, cut_a, b, cut_b);
                continue;
            }
            fill_row_runs(s, t, &f, box, y, t0, t1, lower_n, a, cut_l, upper_n, b, cut_r);
        }
    }
}

#if SW_FILL_AVX2_VARIANT
void sw_fill_rotated_avx2(const sw_sprite *s, const sw_sprite_target *t, sw_box box)
{
    fill_rotated(s, t, box);
}
#else
void sw_fill_rotated(const sw_sprite *s, const sw_sprite_target *t, sw_box box)
{
#if SW_FILL_HAS_AVX2
    if (t->avx2) {
        sw_fill_rotated_avx2(s, t, box);
        return;
    }
#endif
    fill_rotated(s, t, box);
}

void sw_solid_span(const sw_sprite_target *t, int32_t x0, int32_t x1, int32_t y, uint32_t argb, bool add,
                   int32_t limit_x1)
{
    solid_span(t, x0, x1, y, argb, add, limit_x1);
}

bool sw_fill_avx2_supported(void)
{
#if SW_FILL_HAS_AVX2
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}
#endif
