/*
 * software_fill_rotated.c again, every function of it compiled for AVX2
 * (VEX encoding, and its whole spans eight pixels a step): the same code,
 * so the same integers; sw_fill_rotated calls it on CPUs that have AVX2
 * unless LAYERKIT_SOFTWARE_SPRITES is sse2 or scalar. Measured 4-8% off
 * the peer scene's fills (docs/rendering.md).
 */
#include "software_sprite.h"

#include <math.h>

#if SW_FILL_HAS_AVX2
#define SW_FILL_AVX2_VARIANT 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#include "software_fill_rotated.c"
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
typedef int sw_fill_rotated_avx2_unused;   /* (a translation unit may not be empty) */
#endif
