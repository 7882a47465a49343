/*
 * software_sprite.c's drawing again, every function of it compiled for
 * AVX2 (VEX encoding; a rotated image sprite's whole pixels eight a step,
 * image_inner_span's SW_SPRITE_AVX2_VARIANT part): the same integers as
 * its SSE2 build. sw_sprite_draw_batch calls its band loop on CPUs that
 * have AVX2 unless LAYERKIT_SOFTWARE_SPRITES is sse2 or scalar.
 */
#include "software_sprite.h"

#if SW_FILL_HAS_AVX2
#define SW_SPRITE_AVX2_VARIANT 1
SW_AVX2_BEGIN
#include "software_sprite.c"
SW_AVX2_END
#else
typedef int sw_sprite_avx2_unused;   /* (a translation unit may not be empty) */
#endif
