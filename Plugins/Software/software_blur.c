/*
 * The shadow blur's two inner loops (software_group.c, draw_shadow), apart
 * so that the compiler vectorises them and so that they can be built a
 * second time for AVX2 (software_blur_avx2.c), chosen at run time as the
 * sprite path's builds are.
 *
 * Each output value is summed in the order of the loops they replace (a
 * row zeroed, then one weighted row added after another): no pair of
 * builds, and no block size, changes a float. Blocks of SW_BLUR_BLOCK
 * outputs keep their sums in registers across all the weighted rows
 * instead of loading and storing each output once per row; that, and the
 * pointers being restrict (the loop they replace was left scalar for fear
 * of aliasing), is the whole gain.
 */
#include "software_sprite.h"

#ifndef SW_BLUR_AVX2_VARIANT
#define SW_BLUR_WEIGHTED_ROWS sw_blur_weighted_rows
#define SW_BLUR_TO_BYTES sw_blur_to_bytes
#else
#define SW_BLUR_WEIGHTED_ROWS sw_blur_weighted_rows_avx2
#define SW_BLUR_TO_BYTES sw_blur_to_bytes_avx2
#endif

/* Outputs summed at once, in as many registers as the build has to spare
   (eight AVX2 ones, eight SSE2 ones): each sum is a chain of dependent
   additions, so the more chains at once the less each waits on the one
   before. Rows end in smaller blocks, then one output at a time. */
#ifdef SW_BLUR_AVX2_VARIANT
#define SW_BLUR_BLOCK 64
#else
#define SW_BLUR_BLOCK 32
#endif

/* Outputs [x0, x0 + size): size is a constant where this is inlined, so
   the sums stay in registers. */
static inline __attribute__((always_inline)) void weighted_block(float *restrict out, const float *restrict first,
                                                                 ptrdiff_t step, const float *restrict weights,
                                                                 int32_t count, int32_t x0, int size)
{
    float acc[SW_BLUR_BLOCK];
    for (int j = 0; j < size; j++) acc[j] = 0.0f;
    const float *restrict p = first + x0;
    for (int32_t i = 0; i < count; i++, p += step) {
        const float w = weights[i];
        for (int j = 0; j < size; j++) acc[j] += w * p[j];
    }
    for (int j = 0; j < size; j++) out[x0 + j] = acc[j];
}

void SW_BLUR_WEIGHTED_ROWS(float *restrict out, const float *restrict first, ptrdiff_t step,
                           const float *restrict weights, int32_t count, int32_t n)
{
    int32_t x0 = 0;
    for (; x0 + SW_BLUR_BLOCK <= n; x0 += SW_BLUR_BLOCK) weighted_block(out, first, step, weights, count, x0, SW_BLUR_BLOCK);
    for (int size = SW_BLUR_BLOCK / 2; size >= 8; size /= 2)
        if (x0 + size <= n) {
            weighted_block(out, first, step, weights, count, x0, size);
            x0 += size;
        }
    for (; x0 < n; x0++) weighted_block(out, first, step, weights, count, x0, 1);
}

void SW_BLUR_TO_BYTES(uint8_t *restrict out, const float *restrict in, int32_t n)
{
    int32_t x = 0;
#if SW_SPRITE_SSE2
    /* cvtps2dq rounds to nearest, ties to even, as lrintf does in the
       default rounding mode; clamped first, so no value is out of range */
    const __m128 lo = _mm_setzero_ps(), hi = _mm_set1_ps(255.0f);
    for (; x + 8 <= n; x += 8) {
        __m128i a = _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(_mm_loadu_ps(in + x), lo), hi));
        __m128i b = _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(_mm_loadu_ps(in + x + 4), lo), hi));
        __m128i words = _mm_packs_epi32(a, b);
        _mm_storel_epi64((__m128i *)(void *)(out + x), _mm_packus_epi16(words, words));
    }
#endif
    for (; x < n; x++) {
        float a = in[x];
        out[x] = a <= 0.0f ? 0 : a >= 255.0f ? 255 : (uint8_t)lrintf(a);
    }
}
