/*
 * The sprite path for small affine IMAGE ops (software_sprite.c; particles,
 * replicator instances): rotations, scales, subpixel positions, tints,
 * opacity, additive blending, nearest filtering, clips (box and mask),
 * groups, sprites cut by the output's edges and by the damage box; sprites
 * 3 to 120 pixels across.
 *
 * Every scene is checked these ways:
 *  - against a reference computed here, independently of any backend: the
 *    exact area of each pixel inside the op's quad, the image sampled
 *    bilinearly (texel centres at +0.5, the source rect's edge repeated) in
 *    double precision, times the premultiplied tint and the opacity,
 *    premultiplied OVER (or ADD, saturating). Tolerance 4 of 255 per
 *    channel: pixman and the sprite path both use 7-bit bilinear weights
 *    and 8-bit intermediate values (a few levels each); every pixel of the
 *    output is compared.
 *  - on the software backend only: against the same backend with the
 *    sprite path off (LAYERKIT_SOFTWARE_SPRITES=0: pixman draws every op),
 *    tolerance 3 of 255 (the two round the tint and the coverage x opacity
 *    factor at different steps), and its portable loop
 *    (LAYERKIT_SOFTWARE_SPRITES=scalar) against its SIMD one, which must
 *    agree exactly, and its SSE2 loops alone (LAYERKIT_SOFTWARE_SPRITES=sse2)
 *    against the default, which on a CPU with AVX2 draws whole pixels of
 *    rotated images eight a step (software_sprite_avx2.c): equal too, and
 *    in bands of 16 rows (LAYERKIT_SOFTWARE_BAND_ROWS=16) against the
 *    default's bands, sized by the output's width (64 rows here): equal,
 *    and a scene damaged whole (with no image left to pixman), drawn again
 *    under a damage box that cuts through its sprites: the same pixels
 *    inside the box. The
 *    backend's statistics (logged when an instance
 *    closes) must show the sprites drawn by the sprite path, and none with
 *    it off.
 */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "lktest.h"

#include <stdint.h>

#define W 160
#define H 120
#define MAX_OPS 96

#include "lkt_band_scenes.h"

/* Random sprites: every angle, scales 0.4 to 3, subpixel positions, some
   reaching over the output's edges, tints, opacities. */
static void scene_random(scene *s, const char *name, uint32_t flags, int tinted, int translucent_opacity)
{
    begin_scene(s, name);
    add(s, lkt_fill(0, 0, W, H, lkt_color(0.2f, 0.25f, 0.3f, 1)));
    for (int i = 0; i < 60; i++) {
        const lkt_image *img = (i % 3 == 2) ? &img_tile : &img_particle;
        double x = -10 + rnd() * (W + 20), y = -10 + rnd() * (H + 20);
        double scale = 0.4 + rnd() * (i % 7 == 0 ? 2.6 : 1.2);
        if (i == 29) scale = 7.5;   /* one large: 90 x 75 pixels before turning */
        lk_dl_op op = sprite(img, whole(img), x, y, scale, rnd() * 2 * LKT_PI);
        op.flags |= flags;
        if (tinted && i % 4 != 3) {
            float a = (float)(0.3 + 0.7 * rnd());
            op.flags |= LK_DL_FLAG_TINT;
            op.tint = lkt_color((float)rnd() * a, (float)rnd() * a, (float)rnd() * a, a);
        }
        if (translucent_opacity) op.opacity = (float)(0.2 + 0.8 * rnd());
        add(s, op);
    }
}

/* Images with transparent parts, their texels all different where not
   transparent (static pixels: nothing to free). */
static uint32_t margin_pixels[20 * 16], disc_pixels[16 * 16], corner_pixels[9 * 7], empty_pixels[8 * 8],
    edge_pixels[9 * 7];
static lkt_image img_margin, img_disc, img_corner, img_empty, img_edge;


static void make_cut_images(void)
{
    /* an opaque diamond (and a translucent ring on it) inside transparent margins */
    for (int j = 0; j < 16; j++)
        for (int i = 0; i < 20; i++) {
            int d = abs(i - 10) + abs(j - 8);
            unsigned a = d <= 5 ? 255 : (d == 6 ? 120 : 0);
            margin_pixels[j * 20 + i] = a ? lkt_argb(a, a * (i * 12 + 15) / 255, a * (j * 15 + 10) / 255,
                                                     a * (250 - i * 6 - j * 5) / 255) : 0;
        }
    /* a hard-edged disc touching the image's edges, as the particle benchmark's */
    for (int j = 0; j < 16; j++)
        for (int i = 0; i < 16; i++) {
            int dx = i - 8, dy = j - 8;
            disc_pixels[j * 16 + i] = dx * dx + dy * dy <= 64 ? lkt_argb(255, i * 16 + 10, j * 16 + 5, 200 - i * 5) : 0;
        }
    /* opaque texels only at a corner and on the right edge */
    corner_pixels[0] = lkt_argb(255, 250, 40, 30);
    corner_pixels[3 * 9 + 8] = lkt_argb(255, 30, 240, 60);
    corner_pixels[6 * 9 + 8] = lkt_argb(200, 20, 60, 190);
    /* opaque texels only inside the left and bottom edges */
    for (int j = 2; j <= 4; j++) edge_pixels[j * 9] = lkt_argb(255, 200, 30 * j, 90);
    edge_pixels[6 * 9 + 3] = lkt_argb(255, 250, 250, 250);
    edge_pixels[6 * 9 + 4] = lkt_argb(255, 10, 90, 240);
    img_margin = lkt_image_wrap(503, margin_pixels, 20, 16);
    img_edge = lkt_image_wrap(507, edge_pixels, 9, 7);
    img_disc = lkt_image_wrap(504, disc_pixels, 16, 16);
    img_corner = lkt_image_wrap(505, corner_pixels, 9, 7);
    img_empty = lkt_image_wrap(506, empty_pixels, 8, 8);
}

static void build_scenes(scene *scenes, int *count)
{
    make_cut_images();
    int n = 0;
    scene_random(&scenes[n++], "sprites_rotated_scaled_subpixel", LK_DL_FLAG_ANTIALIAS, 0, 0);
    scene_random(&scenes[n++], "sprites_tinted_with_opacity", LK_DL_FLAG_ANTIALIAS, 1, 1);
    scene_random(&scenes[n++], "sprites_additive_tinted", LK_DL_FLAG_ANTIALIAS | LK_DL_FLAG_BLEND_ADD, 1, 1);
    scene_random(&scenes[n++], "sprites_nearest_filter", LK_DL_FLAG_ANTIALIAS | LK_DL_FLAG_FILTER_NEAREST, 1, 0);

    /* Exact angles and placements: axis-aligned (the rect pieces), 90 and
       180 degrees, a quarter pixel off, half-pixel centres, upscaled 3x. */
    scene *s = &scenes[n++];
    begin_scene(s, "sprites_exact_angles_and_placements");
    s->clear = lkt_color(0.1f, 0.1f, 0.1f, 1);
    s->pixman_images = 1;   /* the untinted ones at 0 and 180 degrees */
    const double angles[8] = { 0, LKT_PI / 2, LKT_PI, 3 * LKT_PI / 2, LKT_PI / 4, LKT_PI / 6, -LKT_PI / 3, 0.01 };
    for (int i = 0; i < 8; i++) {
        add(s, sprite(&img_tile, whole(&img_tile), 14 + 18 * i + 0.25 * (i % 4), 14.5, 1.0, angles[i]));
        add(s, sprite(&img_particle, whole(&img_particle), 14 + 18 * i + 0.5, 40 + 0.125 * i, 1.0 + 0.25 * i, angles[i]));
        lk_dl_op op = sprite(&img_particle, lkt_rect(3.5, 2, 9, 11), 14 + 18 * i, 80, 1.5, angles[i]);
        op.flags |= LK_DL_FLAG_TINT;
        op.tint = lkt_color(0.9f, 0.5f, 0.1f, 0.9f);
        add(s, op);
    }
    /* aliased and axis-aligned (nine-slice pieces): pixel-centre coverage */
    lk_dl_op aliased = sprite(&img_tile, whole(&img_tile), 30.3, 105.6, 1.3, 0);
    aliased.flags = 0;
    add(s, aliased);
    aliased = sprite(&img_tile, lkt_rect(2, 2, 6, 5), 60, 105, 2.0, 0);
    aliased.flags = LK_DL_FLAG_TINT;
    aliased.tint = lkt_color(0.5f, 0.6f, 0.7f, 0.8f);
    add(s, aliased);
    /* tinted, axis-aligned, a fraction off the pixel grid */
    lk_dl_op tinted = sprite(&img_tile, whole(&img_tile), 125.3, 100.7, 1.5, 0);
    tinted.flags |= LK_DL_FLAG_TINT;
    tinted.tint = lkt_color(0.1f, 0.7f, 0.4f, 0.75f);
    add(s, tinted);
    /* flipped by a negative scale */
    lk_dl_op flipped = sprite(&img_tile, whole(&img_tile), 100.5, 105.25, 1.0, 0.3);
    lkt_set_transform(&flipped, lkt_mat_mul(lkt_mat_mul(lkt_scale_mat(-1, 1), lkt_rotate_z(0.3)),
                                            lkt_translate(100.5, 105.25, 0)));
    add(s, flipped);

    /* Clips: a damage box, a pixel-aligned clip, a rotated clip (a mask),
       a group drawn offscreen with opacity, sprites cut by every edge. */
    s = &scenes[n++];
    begin_scene(s, "sprites_clipped_damage_masks_groups");
    s->damage.x = 7;
    s->damage.y = 5;
    s->damage.width = W - 20;
    s->damage.height = H - 12;
    add(s, lkt_fill(0, 0, W, H, lkt_color(0.3f, 0.2f, 0.1f, 1)));
    add(s, sprite(&img_particle, whole(&img_particle), 2, 3, 1.3, 0.7));
    add(s, sprite(&img_particle, whole(&img_particle), W - 3, 60, 1.7, 2.1));
    add(s, sprite(&img_tile, whole(&img_tile), 80, H - 1, 1.2, 0.4));
    add(s, sprite(&img_tile, whole(&img_tile), 80, -2, 1.2, 5.0));
    add(s, lkt_op(LK_DL_OP_PUSH_CLIP, 20, 20, 40, 30));
    for (int i = 0; i < 6; i++)
        add(s, sprite(&img_particle, whole(&img_particle), 18 + 9 * i, 22 + 5 * i, 1.1, 0.5 * i));
    add(s, lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0));
    lk_dl_op clip = lkt_op(LK_DL_OP_PUSH_CLIP, -20, -15, 40, 30);
    lkt_set_transform(&clip, lkt_mat_mul(lkt_rotate_z(0.35), lkt_translate(110, 40, 0)));
    add(s, clip);
    for (int i = 0; i < 6; i++) {
        lk_dl_op op = sprite(&img_tile, whole(&img_tile), 92 + 7 * i, 28 + 5 * i, 1.4, 0.9 * i);
        op.flags |= LK_DL_FLAG_BLEND_ADD * (uint32_t)(i & 1);
        add(s, op);
    }
    add(s, lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0));
    lk_dl_op group = lkt_op(LK_DL_OP_PUSH_GROUP, 15, 50, 90, 65);
    group.opacity = 0.7f;
    add(s, group);
    for (int i = 0; i < 5; i++) {
        lk_dl_op op = sprite(&img_particle, whole(&img_particle), 35 + 11 * i, 70 + 7 * i, 1.6, 0.8 * i);
        op.flags |= LK_DL_FLAG_TINT;
        op.tint = lkt_color(0.2f, 0.8f, 0.6f, 0.8f);
        add(s, op);
    }
    add(s, lkt_op(LK_DL_OP_POP_GROUP, 0, 0, 0, 0));
    /* Every length of whole-pixel run (1 to about 16) starting at every
       offset from the row's first pixel: the SIMD loop draws whole pixels
       four at a time, the last step moved back to end with the run (or
       the row) and its extra pixels left alone, so a wrong lane shows.
       Opaque texels all different; half of them tinted. */
    s = &scenes[n++];
    begin_scene(s, "sprites_every_span_length");
    s->clear = lkt_color(0.15f, 0.1f, 0.2f, 1);
    for (int i = 0; i < 40; i++) {
        int c = i % 8, r = i / 8;
        lk_dl_op op = sprite(&img_tile, whole(&img_tile), 10 + 19.5 * c + 0.25 * (r % 4), 12 + 23.3 * r,
                             0.45 + 0.03 * i, 0.15 + 0.37 * i);
        if (i & 1) {
            op.flags |= LK_DL_FLAG_TINT;
            op.tint = lkt_color(0.6f, 0.3f, 0.5f, 0.7f);
        }
        add(s, op);
    }
    /* Whole pixels eight at a time (the AVX2 build, where the CPU has it;
       `sse2_equals_default_simd` compares it with SSE2 alone): larger
       sprites whose rows have runs of whole pixels of every length up to
       about 50, so tails of 1 to 7 pixels at every offset, the last step
       moved back to end with the run or placed at the row's first touched
       pixel; rows crossing the 16-row bands' edges, cut by the output's
       left and right edges; tinted, translucent, additive. */
    s = &scenes[n++];
    begin_scene(s, "sprites_wide_steps_tails_and_band_edges");
    s->clear = lkt_color(0.05f, 0.2f, 0.25f, 1);
    for (int i = 0; i < 30; i++) {
        const lkt_image *img = i % 5 == 4 ? &img_particle : &img_tile;
        double x = 12 + 27.5 * (i % 6) + 0.37 * (i % 7), y = 16 * (i / 6) + 8 + 0.29 * (i % 5);
        if (i % 6 == 0) x = -2.5 - 0.3 * (i / 6);    /* cut by the left edge */
        if (i % 6 == 5) x = W + 1.5 + 0.4 * (i / 6); /* and by the right */
        lk_dl_op op = sprite(img, whole(img), x, y, (img == &img_tile ? 1.1 : 0.9) + 0.13 * i, 0.05 + 0.23 * i);
        if (i % 2) {
            float a = (float)(0.5 + 0.017 * i);
            op.flags |= LK_DL_FLAG_TINT;
            op.tint = lkt_color(0.9f * a, 0.4f * a, 0.7f * a, a);
        }
        if (i % 3 == 1) op.flags |= LK_DL_FLAG_BLEND_ADD;
        if (i % 4 == 2) op.opacity = 0.6f;
        add(s, op);
    }
    /* Transparent cuts: images with transparent margins and corners, whose
       sprites skip the pixels whose samples read only transparent texels.
       Every cut direction, opaque texels on the source box's edges (read
       beyond them as far as the sprite reaches), source rects that cut
       into the opaque part, scales from 0.3 (a texel reaches far past the
       edge) to 3, flipped, nearest, additive, tinted, under a clip mask,
       and an image with nothing to show. */
    s = &scenes[n++];
    begin_scene(s, "sprites_transparent_cuts");
    s->clear = lkt_color(0.1f, 0.3f, 0.2f, 1);
    for (int i = 0; i < 24; i++) {
        double scale = 0.3 + 0.12 * i;
        lk_dl_op op = sprite(&img_margin, whole(&img_margin), 12 + 27 * (i % 6) + 0.3 * (i % 5), 12 + 24 * (i / 6) + 0.2 * (i % 3),
                             i < 12 ? scale : scale * 0.5, 0.4 + 0.71 * i);
        if (i % 3 == 1) {
            op.flags |= LK_DL_FLAG_TINT;
            op.tint = lkt_color(0.7f, 0.4f, 0.2f, 0.8f);
        }
        add(s, op);
    }
    for (int i = 0; i < 12; i++)
        add(s, sprite(&img_disc, whole(&img_disc), 8 + 14 * i + 0.37 * (i % 3), 104 + 0.25 * (i % 4), 0.35 + 0.2 * i,
                      0.2 + 0.53 * i));
    /* source rects: opaque texels on their edges, fractional */
    add(s, sprite(&img_margin, lkt_rect(5, 4, 9, 8), 20, 90, 1.6, 0.5));
    add(s, sprite(&img_margin, lkt_rect(5.5, 2.25, 8, 10), 50, 90, 1.3, 2.2));
    add(s, sprite(&img_margin, lkt_rect(0, 0, 11, 8), 80, 90, 0.6, 4.0));
    add(s, sprite(&img_margin, lkt_rect(9, 7, 11, 9), 110, 90, 0.9, 1.1));
    /* opaque corner and edge texels, far reach: tiny and large */
    add(s, sprite(&img_corner, whole(&img_corner), 140, 88, 0.3, 0.8));
    add(s, sprite(&img_corner, whole(&img_corner), 150, 20, 3.0, 2.6));
    add(s, sprite(&img_corner, whole(&img_corner), 140, 60, 1.2, 5.5));
    add(s, sprite(&img_corner, lkt_rect(0, 0, 1, 1), 30, 70, 9.0, 0.3));
    add(s, sprite(&img_empty, whole(&img_empty), 60, 60, 2.0, 0.7));
    /* source rects reaching past the image: the edge texels repeat out to
       the rect, and small scales read them far past it (edge pixels) */
    for (int i = 0; i < 8; i++)
        add(s, sprite(&img_edge, i & 1 ? lkt_rect(-3, -2, 15, 11) : lkt_rect(-1.5, 0.5, 11, 8), 16 + 18 * i, 66 + 1.3 * i,
                      0.3 + 0.06 * i + (i == 7 ? 1.5 : 0), 0.35 + 0.8 * i));
    lk_dl_op mirrored = sprite(&img_margin, whole(&img_margin), 100, 60, 1.0, 0.3);
    lkt_set_transform(&mirrored, lkt_mat_mul(lkt_mat_mul(lkt_scale_mat(-1.3, 0.9), lkt_rotate_z(1.3)),
                                            lkt_translate(100, 62, 0)));
    add(s, mirrored);

    s = &scenes[n++];
    begin_scene(s, "sprites_transparent_cuts_nearest_add_masked");
    s->clear = lkt_color(0.2f, 0.1f, 0.3f, 1);
    for (int i = 0; i < 10; i++) {
        lk_dl_op op = sprite(i & 1 ? &img_disc : &img_margin, whole(i & 1 ? &img_disc : &img_margin),
                             14 + 15 * i, 20 + 0.3 * i, 0.6 + 0.25 * i, 0.3 + 0.6 * i);
        op.flags |= i % 3 == 0 ? LK_DL_FLAG_FILTER_NEAREST : LK_DL_FLAG_BLEND_ADD;
        add(s, op);
    }
    lk_dl_op cut_clip = lkt_op(LK_DL_OP_PUSH_CLIP, -50, -25, 100, 50);
    lkt_set_transform(&cut_clip, lkt_mat_mul(lkt_rotate_z(0.3), lkt_translate(80, 75, 0)));
    add(s, cut_clip);
    for (int i = 0; i < 14; i++)
        add(s, sprite(i % 3 ? &img_margin : &img_corner, whole(i % 3 ? &img_margin : &img_corner),
                      30 + 8 * i, 55 + 3.1 * i, 0.5 + 0.15 * i, 0.9 * i));
    add(s, lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0));

    /* Edge runs cut by a damage box's left side: opaque tiles turned a
       little from the axes or from 90 degrees (long runs along their
       near-horizontal edges). A run's edge distances are stepped a pixel
       at a time from where it starts without the cut; stepped from the
       cut instead, pixel (61,55) of this scene under a damage box from
       column 55 comes out a level apart (found by a search over random
       scenes: such a rounding shows in about one frame in 20,000). */
    s = &scenes[n++];
    begin_scene(s, "sprites_edge_runs_across_a_damage_edge");
    s->clear = lkt_color(0.1f, 0.2f, 0.1f, 1);
    s->damage_sweep = 20;
    static const double tiles[8][5] = {   /* centre x, y, scale, angle, opacity */
        { 51.572754383087158, 41.019015312194824, 3.6278682947158813, 1.4493150512364248, 0.57535845 },
        { 33.123874664306641, 76.689033508300781, 1.9772581458091736, -0.14643769264221193, 0.420013845 },
        { 48.593618869781494, 25.845890045166016, 1.9786639809608459, 0.15598876476287843, 0.404916704 },
        { 43.772573471069336, 52.288336753845215, 3.3854498863220215, -0.11847546100616456, 0.690459192 },
        { 39.16733980178833, 37.343378067016602, 2.4531546235084534, 1.5729959527638298, 0.518784881 },
        { 55.211315155029297, 34.175176620483398, 4.3438047766685486, -0.083589053153991705, 0.779653788 },
        { 22.473676204681396, 76.421408653259277, 4.1476453542709351, -0.18662836551666262, 0.57690227 },
        { 39.342095851898193, 50.52220344543457, 2.7753392457962036, -0.19790723323822024, 0.790932655 },
    };
    for (int i = 0; i < 8; i++) {
        lk_dl_op op = sprite(&img_tile, whole(&img_tile), tiles[i][0], tiles[i][1], tiles[i][2], tiles[i][3]);
        op.opacity = (float)tiles[i][4];
        add(s, op);
    }
    *count = n;
}

int main(void)
{
    static const band_test sprites = {
        "LAYERKIT_SOFTWARE_SPRITES", 4, 4, "_sprite_path_matches_pixman", "by the sprite path", 3,
        "sprite_path_drew_the_sprites", " sprites,", "sprite path", "sprites", 200, "band_workers_shared_sprite_runs",
    };
    return run_band_test(&sprites, build_scenes);
}
