/*
 * software_blur.c again, every function of it compiled for AVX2 (eight
 * floats a step, no FMA): the same floats as its SSE2 build. draw_shadow
 * calls it on CPUs that have AVX2 unless LAYERKIT_SOFTWARE_SPRITES is sse2
 * or scalar.
 */
#include "software_sprite.h"

#if SW_FILL_HAS_AVX2
#define SW_BLUR_AVX2_VARIANT 1
SW_AVX2_BEGIN
#include "software_blur.c"
SW_AVX2_END
#else
typedef int sw_blur_avx2_unused;   /* (a translation unit may not be empty) */
#endif
