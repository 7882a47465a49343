/*
 * The sprite path for large turned images (software_sprite.c: rotated or
 * skewed IMAGE ops up to SW_SPRITE_MAX_SIDE, 1024 pixels a side of the
 * device bounding box): a photo turned on a kiosk's screen, a card
 * flipping. Texel positions step in 16.16 fixed point from the box's first
 * pixel, so the farther a pixel from it the more the steps' rounding adds
 * up; these scenes put sprites of 300 to 1,000 pixels on a 1100x1000
 * output, their far corners about 1,000 pixels from where the steps
 * start, with sharp texel edges that show a moved sample.
 *
 * S6.2 (turned images anti-aliased) and S6.4 (the same pixels whatever
 * the band, thread or damage box that draws them). The checks are
 * test_sprite.c's (check_band_scene): against the
 * independent reference (tolerance 4 of 255), against pixman's path
 * (LAYERKIT_SOFTWARE_SPRITES=0, tolerance 3), the portable loop, SSE2
 * alone, bands of 16 rows and three threads against the default (equal),
 * and a damage box through the sprites (the same pixels inside it); then
 * the closing log must show the sprite path drew them (and none with it
 * off): run_band_test, as test_sprite.c runs its scenes.
 */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "lktest.h"

#include <stdint.h>

#define W 1100
#define H 1000
#define MAX_OPS 8

#include "lkt_band_scenes.h"

/* A 40x30 image of hard-edged cells of distinct colours, translucent ones
   among them, and a smooth gradient in the bottom third (static pixels:
   nothing to free). */
static uint32_t photo_pixels[40 * 30];
static lkt_image img_photo;

static void make_photo(void)
{
    for (int j = 0; j < 30; j++)
        for (int i = 0; i < 40; i++) {
            unsigned a = j >= 20 ? 255 : (((i / 4 + j / 4) % 5 == 0) ? 140 : 255);
            unsigned r = j >= 20 ? (unsigned)(i * 6) : (unsigned)((i * 37 + j * 11) % 256);
            unsigned g = j >= 20 ? (unsigned)(255 - i * 6) : (unsigned)((i * 13 + j * 53) % 256);
            unsigned bl = j >= 20 ? (unsigned)(j * 8) : (unsigned)(((i ^ j) * 29) % 256);
            photo_pixels[j * 40 + i] = lkt_argb(a, r * a / 255, g * a / 255, bl * a / 255);
        }
    img_photo = lkt_image_wrap(601, photo_pixels, 40, 30);
}

static void build_scenes(scene *scenes, int *count)
{
    make_photo();
    int n = 0;
    /* Turned by small and large angles, the largest from near the output's
       top left corner to near its bottom right one. */
    scene *s = &scenes[n++];
    begin_scene(s, "large_sprites_turned");
    s->clear = lkt_color(0.15f, 0.15f, 0.2f, 1);
    lk_dl_op op = sprite(&img_photo, whole(&img_photo), 560, 520, 22.0, 0.11);   /* 880 x 660 turned a little */
    op.flags |= LK_DL_FLAG_ANTIALIAS;
    add(s, op);
    op = sprite(&img_tile, whole(&img_tile), 820, 260, 21.5, 0.9);   /* about 340 pixels a side */
    op.flags |= LK_DL_FLAG_ANTIALIAS;
    add(s, op);
    op = sprite(&img_particle, whole(&img_particle), 240, 800, 24.0, 2.3);   /* about 500 */
    op.flags |= LK_DL_FLAG_ANTIALIAS;
    add(s, op);
    /* Tinted, translucent, additive, nearest, and hanging off the output's
       edges (its steps start at the output's edge). */
    s = &scenes[n++];
    begin_scene(s, "large_sprites_tinted_additive_off_the_edges");
    s->clear = lkt_color(0.05f, 0.1f, 0.1f, 1);
    op = sprite(&img_photo, whole(&img_photo), 60, 90, 18.5, -0.7);
    op.flags |= LK_DL_FLAG_ANTIALIAS | LK_DL_FLAG_TINT;
    op.tint = lkt_color(0.8f * 0.7f, 0.5f * 0.7f, 0.9f * 0.7f, 0.7f);
    add(s, op);
    op = sprite(&img_photo, whole(&img_photo), 1040, 900, 17.0, 0.35);
    op.flags |= LK_DL_FLAG_ANTIALIAS | LK_DL_FLAG_BLEND_ADD;
    op.opacity = 0.6f;
    add(s, op);
    op = sprite(&img_tile, whole(&img_tile), 550, 480, 30.0, 1.3);
    op.flags |= LK_DL_FLAG_ANTIALIAS | LK_DL_FLAG_FILTER_NEAREST;
    op.opacity = 0.8f;
    add(s, op);
    *count = n;
}

int main(void)
{
    static const band_test large = {
        "LAYERKIT_SOFTWARE_SPRITES", 4, 4, "_sprite_path_matches_pixman", "by the sprite path", 3,
        "large_sprites_drawn_by_the_sprite_path", " sprites,", "sprite path", "sprites", 6, NULL,
    };
    return run_band_test(&large, build_scenes);
}
