/*
 * Fill runs: small solid FILL ops (rotated, scaled, translated rects without
 * a corner radius) drawn by the sprite path's band loop
 * (software_sprite.c) instead of an A8 mask and a pixman composite each:
 * rotations, scales, subpixel positions, opacity, additive blending,
 * overlapping fills (painter's order), fills mixed with IMAGE sprites in
 * one run, axis-aligned and aliased fills, fills the rule leaves to pixman
 * (small, pixel-aligned, aliased) among them, clips (box and mask), groups,
 * fills cut by the output's edges and by the damage box.
 *
 * Every scene is checked six ways:
 *  - against a reference computed here, independently of any backend: the
 *    exact area of each pixel inside the op's quad times the premultiplied
 *    colour and the opacity (and the clip's coverage), OVER or saturating
 *    ADD, in double precision. Tolerance 3 of 255 per channel (8-bit
 *    colour, coverage and intermediate values: a level or so each; the
 *    sprites mixed in use the sprite test's 4); every pixel is compared.
 *  - on the software backend only: against the same backend with fill runs
 *    off (LAYERKIT_SOFTWARE_FILL_RUNS=0: pixman's rect and mask paths draw
 *    every FILL), tolerance 1 of 255 (the two compute the same integers
 *    from coverage bytes; the band path's coverage is exact in double, the
 *    mask rasterizer's summed in float, which can round a byte apart);
 *  - its portable loop (LAYERKIT_SOFTWARE_SPRITES=scalar) against its SIMD
 *    one, which must agree exactly;
 *  - its SSE2 loops alone (LAYERKIT_SOFTWARE_SPRITES=sse2) against the
 *    default, which on a CPU with AVX2 draws rotated fills with their AVX2
 *    build (software_fill_rotated_avx2.c): equal too;
 *  - in bands of 16 rows (LAYERKIT_SOFTWARE_BAND_ROWS=16) against the
 *    default's bands, sized by the output's width (64 rows here): equal;
 *  - a scene damaged whole, drawn again under a damage box that cuts
 *    through its fills: the same pixels inside the box.
 * The backend's statistics (logged when an instance closes) must show the
 * fills drawn in bands, the same number both loops, and none with fill runs
 * off.
 */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "lktest.h"

#include <stdint.h>

#define W 160
#define H 120
#define MAX_OPS 96

#include "lkt_band_scenes.h"

static lk_dl_color random_color(int translucent)
{
    float a = translucent ? (float)(0.15 + 0.85 * rnd()) : 1.0f;
    return lkt_color((float)rnd() * a, (float)rnd() * a, (float)rnd() * a, a);
}

/* A FILL of w x h centred at (x, y), turned by angle about its centre. */
static lk_dl_op square(double x, double y, double w, double h, double angle, lk_dl_color c)
{
    lk_dl_op op = lkt_fill(-w / 2, -h / 2, w, h, c);
    lkt_set_transform(&op, lkt_mat_mul(lkt_rotate_z(angle), lkt_translate(x, y, 0)));
    return op;
}

/* Random fills: every angle, sides 2 to 68 pixels, subpixel positions, some
   reaching over the output's edges, overlapping. */
static void scene_random(scene *s, const char *name, uint32_t flags, int translucent, int opacity)
{
    begin_scene(s, name);
    add(s, lkt_fill(0, 0, W, H, lkt_color(0.2f, 0.25f, 0.3f, 1)));
    for (int i = 0; i < 80; i++) {
        double x = -10 + rnd() * (W + 20), y = -10 + rnd() * (H + 20);
        double side = (i % 6 == 5 ? 2 : 10) + rnd() * (i % 9 == 0 ? 58 : 30);   /* some too small for bands */
        lk_dl_op op = square(x, y, side, side * (0.5 + rnd()), rnd() * 2 * LKT_PI, random_color(translucent));
        op.flags |= flags;
        if (opacity) op.opacity = (float)(0.1 + 0.9 * rnd());
        add(s, op);
    }
}

static void build_scenes(scene *scenes, int *count)
{
    int n = 0;
    scene_random(&scenes[n++], "fills_rotated_scaled_subpixel", LK_DL_FLAG_ANTIALIAS, 0, 0);
    scene_random(&scenes[n++], "fills_translucent_with_opacity", LK_DL_FLAG_ANTIALIAS, 1, 1);
    scene_random(&scenes[n++], "fills_additive", LK_DL_FLAG_ANTIALIAS | LK_DL_FLAG_BLEND_ADD, 1, 1);

    /* Painter's order: a stack of overlapping fills and sprites at the
       same few places, each partly covering the one before, so that any
       reordering within a band changes pixels. */
    scene *s = &scenes[n++];
    begin_scene(s, "fills_and_sprites_overlapping_in_order");
    s->clear = lkt_color(0.05f, 0.05f, 0.08f, 1);
    for (int i = 0; i < 72; i++) {
        double x = 30 + 50 * (i % 3) + 3 * sin(i), y = 25 + 35 * ((i / 3) % 3) + 2 * cos(i);
        if (i % 4 == 3) {
            lk_dl_op op = sprite(&img_particle, whole(&img_particle), x, y, 1.0 + 0.1 * (i % 5), 0.37 * i);
            op.opacity = 0.9f;
            add(s, op);
        } else {
            lk_dl_op op = square(x, y, 14 + (i % 7) * 3, 10 + (i % 5) * 4, 0.23 * i, random_color(i % 2));
            if (i % 5 == 0) op.opacity = 0.6f;
            add(s, op);
        }
    }

    /* Exact angles and placements: axis-aligned (the rect pieces, at
       integer and fractional edges), 90 and 180 degrees, 45, tiny turns,
       aliased axis-aligned, flipped, one pixel and smaller. */
    s = &scenes[n++];
    begin_scene(s, "fills_exact_angles_and_placements");
    s->clear = lkt_color(0.1f, 0.1f, 0.1f, 1);
    const double angles[8] = { 0, LKT_PI / 2, LKT_PI, 3 * LKT_PI / 2, LKT_PI / 4, LKT_PI / 6, -LKT_PI / 3, 0.01 };
    for (int i = 0; i < 8; i++) {
        add(s, square(14 + 18 * i + 0.25 * (i % 4), 14.5, 16, 12, angles[i], lkt_color(0.8f, 0.3f, 0.2f, 1)));
        add(s, square(14 + 18 * i + 0.5, 40 + 0.125 * i, 14 + i, 10 + i, angles[i], lkt_color(0.1f, 0.4f, 0.5f, 0.6f)));
        add(s, square(14 + 18 * i, 62, 18, 18, angles[i], lkt_color(0.5f, 0.5f, 0.1f, 0.7f)));
        add(s, square(10 + 18 * i + 0.3, 80.6, 0.7, 1.3, angles[i], lkt_color(1, 1, 1, 1)));
    }
    /* (no aliased edge on a pixel centre: whether such a pixel is in is
       each rasterizer's own rule, and GL's differs from the reference's) */
    for (int i = 0; i < 6; i++) {
        lk_dl_op aliased = square(15 + 25 * i + 0.3 * i, 100.6, 10.4 + i, 12.0, 0, lkt_color(0.2f, 0.6f, 0.3f, 0.9f));
        aliased.flags = 0;
        add(s, aliased);
    }
    lk_dl_op flipped = lkt_fill(-9, -6, 18, 12, lkt_color(0.7f, 0.2f, 0.6f, 0.8f));
    lkt_set_transform(&flipped, lkt_mat_mul(lkt_mat_mul(lkt_scale_mat(-1, 1.5), lkt_rotate_z(0.3)),
                                            lkt_translate(150.5, 110.25, 0)));
    add(s, flipped);

    /* The rotated fills' row paths: long one-edge runs (small turns: many
       pixels of four a row, the last group ending at a fill's right end),
       turns too small for the branch-free coverage (below 1e-6) and just
       above it, skews (corners not square), slivers thinner than two pixels
       (both edges of a pair crossing the same pixels), fills ending at the
       output's right edge; opaque and translucent, OVER and ADD. */
    s = &scenes[n++];
    begin_scene(s, "fills_long_edges_skews_slivers");
    s->clear = lkt_color(0.15f, 0.1f, 0.2f, 1);
    const double turns[7] = { 0.02, -0.05, 0.1, 1e-7, -3e-7, 2e-5, LKT_PI / 2 + 0.03 };
    for (int i = 0; i < 7; i++) {
        lk_dl_op op = square(22 + 19 * i + 0.37 * i, 14 + 13 * (i % 2) + 0.21 * i, 17.3 + 2 * i, 9.6 + i, turns[i],
                             random_color(i % 2));
        op.flags |= LK_DL_FLAG_BLEND_ADD * (uint32_t)(i == 4);
        add(s, op);
    }
    add(s, square(60.3, 48.7, 110, 13.4, 0.035, lkt_color(0.2f, 0.7f, 0.4f, 0.7f)));
    add(s, square(W - 31.6, 52.2, 58, 21, -0.06, lkt_color(0.8f, 0.6f, 0.1f, 0.9f)));
    for (int i = 0; i < 5; i++) {
        lk_dl_op op = lkt_fill(-12, -8, 24, 16, random_color(1));
        lkt_mat skew = lkt_mat_identity();
        skew.m[4] = 0.3 + 0.25 * i;   /* x += k y */
        lkt_set_transform(&op, lkt_mat_mul(lkt_mat_mul(skew, lkt_rotate_z(0.4 * i)),
                                           lkt_translate(18 + 30 * i + 0.3, 78.4 + 2 * (i % 2), 0)));
        add(s, op);
    }
    for (int i = 0; i < 6; i++)
        add(s, square(12 + 25 * i + 0.6, 104.3 + 0.2 * i, 24 + 3 * i, 0.6 + 0.25 * i, 0.3 + 0.45 * i,
                      random_color(i % 2)));
    add(s, square(W - 4.3, 100.5, 26, 11, 0.08, lkt_color(0.7f, 0.2f, 0.3f, 0.8f)));

    /* Zones (rows where one edge bounds each end, drawn from those two
       edges alone, software_fill_rotated.c) and where they end: left
       corners placed from 3.2 rows above to 3 below the 16-row band edges
       (the scene's first fill starts the bands at row 0), so that zones
       start and end on a band's first and last rows and just beside them;
       fills of 9 to 20 pixels, slivers (the two runs of a row meeting),
       turns just either side of 1e-3 (SW_FILL_ZONE_MIN_NX: no zones
       below) and of 90 degrees, and strong skews (the two edges of a side
       nearly parallel: zones that end far from a corner). */
    s = &scenes[n++];
    begin_scene(s, "fills_zones_band_edges_slivers");
    add(s, lkt_fill(0, 0, W, H, lkt_color(0.1f, 0.15f, 0.2f, 1)));
    for (int i = 0; i < 28; i++) {
        /* a turned square whose left corner (where the zones of its left
           end change edge) is at a band edge + offset, -3.2 to 2.95 rows */
        double angle = 0.15 + 0.047 * i, side = 9 + (i % 4) * 3.5, off = -3.2 + 0.23 * i;
        lk_dl_op op = square(0, 0, side, side, angle, random_color(i % 3 == 0));
        double left_x = 1e9, left_y = 0;
        for (int k = 0; k < 4; k++) {
            double vx, vy;
            device_point(&op, (k & 1) ? side / 2 : -side / 2, (k & 2) ? side / 2 : -side / 2, &vx, &vy);
            if (vx < left_x) { left_x = vx; left_y = vy; }
        }
        op = square(8 + (i % 7) * 22.1 - left_x, 16 * (1 + 2 * (i / 7)) + off - left_y, side, side, angle,
                    random_color(i % 3 == 0));
        add(s, op);
    }
    const double near_axis[6] = { 0.9e-3, 1.1e-3, -1.05e-3, LKT_PI / 2 + 0.9e-3, LKT_PI / 2 - 1.1e-3, 3e-3 };
    for (int i = 0; i < 6; i++)
        add(s, square(16 + 26 * i + 0.4, 70.3 + 0.3 * i, 20 + i, 9 + i, near_axis[i], random_color(i % 2)));
    for (int i = 0; i < 6; i++)
        add(s, square(14 + 26 * i + 0.2, 112.4 - 0.1 * i, 22 + 2 * i, 0.4 + 0.3 * i, 0.12 + 0.5 * i,
                      random_color(1)));
    for (int i = 0; i < 4; i++) {
        lk_dl_op op = lkt_fill(-10, -7, 20, 14, random_color(i % 2));
        lkt_mat skew = lkt_mat_identity();
        skew.m[4] = 2.5 + 1.5 * i;   /* x += k y */
        lkt_set_transform(&op, lkt_mat_mul(lkt_mat_mul(skew, lkt_rotate_z(0.2 + 0.6 * i)),
                                           lkt_translate(25 + 38 * i + 0.35, 48.6, 0)));
        op.flags |= LK_DL_FLAG_BLEND_ADD * (uint32_t)(i == 3);
        add(s, op);
    }

    /* Clips: a damage box, a pixel-aligned clip, a rotated clip (a mask),
       a group drawn offscreen with opacity, fills cut by every edge. */
    s = &scenes[n++];
    begin_scene(s, "fills_clipped_damage_masks_groups");
    s->damage.x = 7;
    s->damage.y = 5;
    s->damage.width = W - 20;
    s->damage.height = H - 12;
    add(s, lkt_fill(0, 0, W, H, lkt_color(0.3f, 0.2f, 0.1f, 1)));
    add(s, square(2, 3, 20, 14, 0.7, lkt_color(0.9f, 0.9f, 0.2f, 1)));
    add(s, square(W - 3, 60, 25, 17, 2.1, lkt_color(0.2f, 0.9f, 0.2f, 0.9f)));
    add(s, square(80, H - 1, 30, 12, 0.4, lkt_color(0.2f, 0.2f, 0.9f, 1)));
    add(s, square(80, -2, 30, 12, 5.0, lkt_color(0.6f, 0.2f, 0.5f, 0.7f)));
    add(s, square(W - 1, H - 1.5, 9, 9, 0, lkt_color(0.9f, 0.5f, 0.5f, 1)));
    add(s, lkt_op(LK_DL_OP_PUSH_CLIP, 20, 20, 40, 30));
    for (int i = 0; i < 6; i++)
        add(s, square(18 + 9 * i, 22 + 5 * i, 18, 14, 0.5 * i, random_color(i & 1)));
    add(s, lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0));
    lk_dl_op clip = lkt_op(LK_DL_OP_PUSH_CLIP, -20, -15, 40, 30);
    lkt_set_transform(&clip, lkt_mat_mul(lkt_rotate_z(0.35), lkt_translate(110, 40, 0)));
    add(s, clip);
    for (int i = 0; i < 8; i++) {
        lk_dl_op op = square(92 + 6 * i, 28 + 4 * i, 18, 13, 0.9 * i * (i % 4 != 0), random_color(i % 3 == 0));
        op.flags |= LK_DL_FLAG_BLEND_ADD * (uint32_t)(i & 1);
        add(s, op);
    }
    add(s, lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0));
    lk_dl_op group = lkt_op(LK_DL_OP_PUSH_GROUP, 15, 50, 90, 65);
    group.opacity = 0.7f;
    add(s, group);
    for (int i = 0; i < 5; i++) {
        lk_dl_op op = square(35 + 11 * i, 70 + 7 * i, 20, 15, 0.8 * i, lkt_color(0.2f, 0.7f, 0.5f, 0.8f));
        op.opacity = 0.8f;
        add(s, op);
    }
    add(s, lkt_op(LK_DL_OP_POP_GROUP, 0, 0, 0, 0));
    *count = n;
}

int main(void)
{
    static const band_test fills = {
        "LAYERKIT_SOFTWARE_FILL_RUNS", 3, 4, "_band_fills_match_pixman", "in bands", 1,
        "fill_runs_drew_the_fills", " band fills,", "band path", "fills", 250, "band_workers_shared_fill_runs",
    };
    return run_band_test(&fills, build_scenes);
}
