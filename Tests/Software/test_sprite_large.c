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
 * The checks are test_sprite.c's (check_band_scene): against the
 * independent reference (tolerance 4 of 255), against pixman's path
 * (LAYERKIT_SOFTWARE_SPRITES=0, tolerance 3), the portable loop, SSE2
 * alone, bands of 16 rows and three threads against the default (equal),
 * and a damage box through the sprites (the same pixels inside it); then
 * the closing log must show the sprite path drew them (and none with it
 * off).
 */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "lktest.h"

#include <stdint.h>

#define W 1100
#define H 1000
#define MAX_OPS 8

#include "lkt_band_scenes.h"

/* A 40x30 image of hard-edged cells of distinct colours, translucent ones
   among them, and a smooth gradient in the bottom third. */
static lkt_image photo(uint64_t id)
{
    lkt_image img = lkt_image_new(id, 40, 30);
    for (int j = 0; j < 30; j++)
        for (int i = 0; i < 40; i++) {
            unsigned a = j >= 20 ? 255 : (((i / 4 + j / 4) % 5 == 0) ? 140 : 255);
            unsigned r = j >= 20 ? (unsigned)(i * 6) : (unsigned)((i * 37 + j * 11) % 256);
            unsigned g = j >= 20 ? (unsigned)(255 - i * 6) : (unsigned)((i * 13 + j * 53) % 256);
            unsigned bl = j >= 20 ? (unsigned)(j * 8) : (unsigned)(((i ^ j) * 29) % 256);
            img.pixels[j * 40 + i] = lkt_argb(a, r * a / 255, g * a / 255, bl * a / 255);
        }
    return img;
}

static lkt_image img_photo;

static void build_scenes(scene *scenes, int *count)
{
    img_photo = photo(601);
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
    b = lkt_load();
    if (!b) return 1;
    img_particle = particle(501);
    img_tile = tile(502);
    static scene scenes[2];
    int count = 0;
    build_scenes(scenes, &count);
    int software = strcmp(lkt_backend_name(), "software") == 0;

    way on, off, scalar, sse2, bands16, threads, damaged;
    if (!open_way(&on, NULL, NULL)) return 1;
    if (software && (!open_way(&off, "LAYERKIT_SOFTWARE_SPRITES", "0") ||
                     !open_way(&scalar, "LAYERKIT_SOFTWARE_SPRITES", "scalar") ||
                     !open_way(&sse2, "LAYERKIT_SOFTWARE_SPRITES", "sse2") ||
                     !open_way(&bands16, "LAYERKIT_SOFTWARE_BAND_ROWS", "16") ||
                     !open_way2(&threads, "LAYERKIT_SOFTWARE_THREADS", "3", "LAYERKIT_SOFTWARE_BAND_ROWS", "16") ||
                     !open_way(&damaged, NULL, NULL)))
        return 1;
    lkt_frame f_on = lkt_frame_new(W, H), f_off = lkt_frame_new(W, H), f_scalar = lkt_frame_new(W, H);
    rgba *ref = (rgba *)malloc(sizeof(rgba) * W * H);
    for (int i = 0; i < count; i++)
        check_band_scene(&scenes[i], software, &on, &off, &scalar, &sse2, &bands16, &threads, &damaged, ref, &f_on,
                         &f_off, &f_scalar, 4, "_sprite_path_matches_pixman", "by the sprite path", 3);
    b->close(on.inst);
    if (software) {
        b->close(off.inst);
        b->close(scalar.inst);
        b->close(sse2.inst);
        b->close(bands16.inst);
        b->close(threads.inst);
        b->close(damaged.inst);
        /* every op of both scenes, each drawn by the three instances above
           that keep the path on and the default's frames */
        lkt_begin("large_sprites_drawn_by_the_sprite_path");
        long n_on = logged_count(on.record.last_log, " sprites,"), n_off = logged_count(off.record.last_log, " sprites,");
        printf("# sprites drawn by the sprite path: %ld (on), %ld (off)\n", n_on, n_off);
        if (n_on < 6) lkt_fail("the sprite path drew %ld sprites, expected 6: %s", n_on, on.record.last_log);
        if (n_off != 0) lkt_fail("with LAYERKIT_SOFTWARE_SPRITES=0 the sprite path drew %ld sprites", n_off);
        lkt_end();
    }
    free(ref);
    free(f_on.pixels);
    free(f_off.pixels);
    free(f_scalar.pixels);
    free(img_particle.pixels);
    free(img_tile.pixels);
    free(img_photo.pixels);
    return lkt_exit_code();
}
