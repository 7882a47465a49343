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
SW_AVX2_BEGIN
#include "software_fill_rotated.c"
SW_AVX2_END
#else
typedef int sw_fill_rotated_avx2_unused;   /* (a translation unit may not be empty) */
#endif
