/*
 * Software backend, ABI 2: offscreen groups (PUSH_GROUP / GROUP_CONTENT /
 * POP_GROUP) and additive blending. Group opacity against per-op opacity,
 * alpha masks, Gaussian shadows against independent references (the
 * closed form of a blurred rect with erf, and a direct 2D convolution of
 * exact polygon coverage), shadows reaching into damage from content
 * outside it, clips around and inside groups, and malformed nesting.
 * Tolerances are per channel, out of 255, beyond the 0.5 of rounding.
 */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "lktest.h"

#include <sys/resource.h>

#define W 160
#define H 120
/* How far beyond the output group content is kept (software_group.c) */
#define MARGIN 1024

static const lk_backend *b;
static lk_backend_instance *inst;
static lkt_frame frame;

static const lk_dl_color clear_none = { 0, 0, 0, 0 };

static int draw_damaged(const lk_dl_op *ops, uint32_t count, lk_dl_color clear, lk_dl_box damage)
{
    lk_display_list list = lkt_list(ops, count, W, H, clear);
    list.damage = damage;
    return lkt_render(b, inst, &list, &frame);
}

static int draw(const lk_dl_op *ops, uint32_t count, lk_dl_color clear)
{
    lk_dl_box all = { 0, 0, W, H };
    return draw_damaged(ops, count, clear, all);
}

static lk_dl_op group(double x, double y, double w, double h, float opacity, uint32_t flags)
{
    lk_dl_op op = lkt_op(LK_DL_OP_PUSH_GROUP, x, y, w, h);
    op.opacity = opacity;
    op.flags = flags;
    return op;
}

static lk_dl_op shadow_group(double x, double y, double w, double h, lk_dl_color color,
                             double ox, double oy, double sigma)
{
    lk_dl_op op = group(x, y, w, h, 1.0f, 0);
    op.shadow_color = color;
    op.shadow_offset_x = ox;
    op.shadow_offset_y = oy;
    op.shadow_sigma = sigma;
    return op;
}

static lk_dl_op content(void) { return lkt_op(LK_DL_OP_GROUP_CONTENT, 0, 0, 0, 0); }
static lk_dl_op pop(void) { return lkt_op(LK_DL_OP_POP_GROUP, 0, 0, 0, 0); }

/* ------------------------------------------------------------------------ */
/* Independent references                                                    */

static double phi(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* The alpha (0..1) at pixel (px, py) of the rect [x0,x1) x [y0,y1) blurred
   with a Gaussian of sigma and moved by (ox, oy): the convolution of the
   rect's indicator with the Gaussian, sampled at the pixel centre. */
static double rect_shadow(int px, int py, double x0, double y0, double x1, double y1,
                          double ox, double oy, double sigma)
{
    double cx = px + 0.5 - ox, cy = py + 0.5 - oy;
    double fx = phi((cx - x0) / sigma) - phi((cx - x1) / sigma);
    double fy = phi((cy - y0) / sigma) - phi((cy - y1) / sigma);
    return fx * fy;
}

/* Alpha drawn by a flat colour of alpha a through coverage c, as 8 bits. */
static lkt_rgba shadow_over(lk_dl_color shadow, double coverage, lkt_rgba below)
{
    return lkt_over(lkt_scale(lkt_rgba_of(shadow), coverage), below);
}

/* ------------------------------------------------------------------------ */

static void test_group_opacity(void)
{
    lk_dl_color red = lkt_color(1, 0, 0, 1), blue = lkt_color(0, 0, 1, 1);
    lk_dl_color white = lkt_color(1, 1, 1, 1);
    lk_dl_op ops[6];

    lkt_begin("group_opacity_fades_overlap_as_one");
    ops[0] = group(10, 10, 80, 60, 0.5f, LK_DL_FLAG_ANTIALIAS);
    ops[1] = lkt_fill(10, 10, 50, 40, red);
    ops[2] = lkt_fill(40, 30, 50, 40, blue);
    ops[3] = pop();
    if (draw(ops, 4, white)) {
        lkt_rgba bg = lkt_rgba_of(white);
        /* where they overlap only blue shows, at half: the group is opaque blue there */
        lkt_expect(&frame, 50, 40, lkt_over(lkt_scale(lkt_rgba_of(blue), 0.5), bg), 1, "overlap");
        lkt_expect(&frame, 20, 20, lkt_over(lkt_scale(lkt_rgba_of(red), 0.5), bg), 1, "red only");
        lkt_expect(&frame, 80, 60, lkt_over(lkt_scale(lkt_rgba_of(blue), 0.5), bg), 1, "blue only");
        lkt_expect(&frame, 5, 5, bg, 0, "outside");
    }
    lkt_end();

    lkt_begin("per_op_opacity_shows_the_overlap");
    ops[0] = lkt_fill(10, 10, 50, 40, red);
    ops[0].opacity = 0.5f;
    ops[1] = lkt_fill(40, 30, 50, 40, blue);
    ops[1].opacity = 0.5f;
    if (draw(ops, 2, white)) {
        lkt_rgba bg = lkt_rgba_of(white);
        lkt_rgba under = lkt_over(lkt_scale(lkt_rgba_of(red), 0.5), bg);
        lkt_expect(&frame, 50, 40, lkt_over(lkt_scale(lkt_rgba_of(blue), 0.5), under), 1,
                   "overlap mixes red in");
    }
    lkt_end();

    lkt_begin("group_at_full_opacity_equals_direct_drawing");
    lk_dl_color half_green = lkt_color(0, 0.5f, 0, 0.5f);
    ops[0] = group(0, 0, W, H, 1.0f, 0);
    ops[1] = lkt_fill(10.25, 10.5, 50, 40, red);
    ops[2] = lkt_fill(40, 30, 50, 40, half_green);
    ops[3] = pop();
    if (draw(ops, 4, white)) {
        lkt_frame grouped = lkt_frame_new(W, H);
        memcpy(grouped.pixels, frame.pixels, (size_t)W * H * 4);
        if (draw(ops + 1, 2, white)) {
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    uint32_t p = lkt_pixel(&frame, x, y);
                    lkt_rgba want = { (double)(p >> 24), (double)((p >> 16) & 255),
                                      (double)((p >> 8) & 255), (double)(p & 255) };
                    if (!lkt_expect(&grouped, x, y, want, 1, "grouped vs direct")) break;
                }
        }
        free(grouped.pixels);
    }
    lkt_end();

    lkt_begin("group_rect_bounds_what_is_drawn");
    ops[0] = group(20, 20, 10, 10, 1.0f, 0);
    ops[1] = lkt_fill(0, 0, W, H, red);
    ops[2] = pop();
    if (draw(ops, 3, clear_none)) {
        lkt_expect(&frame, 25, 25, lkt_rgba_of(red), 0, "inside the rect");
        lkt_expect(&frame, 35, 25, lkt_rgba_of(clear_none), 0, "outside the rect");
    }
    lkt_end();

    lkt_begin("nested_groups_multiply_opacity");
    ops[0] = group(0, 0, W, H, 0.5f, 0);
    ops[1] = group(0, 0, W, H, 0.5f, 0);
    ops[2] = lkt_fill(10, 10, 20, 20, red);
    ops[3] = pop();
    ops[4] = pop();
    if (draw(ops, 5, clear_none))
        lkt_expect(&frame, 15, 15, lkt_scale(lkt_rgba_of(red), 0.25), 1, "a quarter");
    lkt_end();

    lkt_begin("group_left_open_is_composited_at_the_end");
    ops[0] = group(0, 0, W, H, 0.5f, 0);
    ops[1] = lkt_fill(10, 10, 20, 20, red);
    if (draw(ops, 2, clear_none))
        lkt_expect(&frame, 15, 15, lkt_scale(lkt_rgba_of(red), 0.5), 1, "half");
    lkt_end();
}

static void test_blend_add(void)
{
    lk_dl_color grey = lkt_color(0.5f, 0.5f, 0.5f, 1), dim = lkt_color(0.25f, 0.125f, 0, 0.5f);
    lk_dl_op ops[4];

    lkt_begin("blend_add_fill_adds_and_saturates");
    ops[0] = lkt_fill(10, 10, 40, 40, grey);
    ops[1] = lkt_fill(30, 30, 40, 40, grey);
    ops[1].flags |= LK_DL_FLAG_BLEND_ADD;
    ops[2] = lkt_fill(30, 30, 40, 40, dim);
    ops[2].flags |= LK_DL_FLAG_BLEND_ADD;
    if (draw(ops, 3, clear_none)) {
        /* 8-bit channels: grey is 128, dim is a 128, r 64, g 32 */
        lkt_rgba sat = { 255, 255, 255, 255 };
        lkt_expect(&frame, 40, 40, sat, 0, "grey + grey + dim saturates");
        lkt_rgba added = { 255, 192, 160, 128 };
        lkt_expect(&frame, 60, 60, added, 0, "grey + dim");
        lkt_expect(&frame, 20, 20, lkt_rgba_of(grey), 0, "grey alone");
    }
    lkt_end();

    lkt_begin("blend_add_group");
    lk_dl_color red = lkt_color(0.5f, 0, 0, 0.5f), blue = lkt_color(0, 0, 0.5f, 0.5f);
    ops[0] = lkt_fill(0, 0, W, H, red);
    ops[1] = group(0, 0, W, H, 1.0f, LK_DL_FLAG_BLEND_ADD);
    ops[2] = lkt_fill(10, 10, 20, 20, blue);
    ops[3] = pop();
    if (draw(ops, 4, clear_none)) {
        lkt_rgba sum = { 255, 127.5, 0, 127.5 };
        lkt_expect(&frame, 15, 15, sum, 1, "red + blue");
        lkt_expect(&frame, 50, 50, lkt_rgba_of(red), 0, "red alone");
    }
    lkt_end();
}

static void test_masks(void)
{
    lk_dl_color red = lkt_color(1, 0, 0, 1), half = lkt_color(0, 0, 0, 0.5f);
    lk_dl_op ops[8];

    lkt_begin("mask_group_multiplies_by_mask_alpha");
    ops[0] = group(0, 0, W, H, 1.0f, LK_DL_FLAG_GROUP_MASK);
    ops[1] = lkt_fill(20, 20, 40, 40, half);                        /* mask: half */
    ops[2] = lkt_fill(60, 20, 40, 40, lkt_color(0, 1, 0, 1));       /* mask: whole (colour ignored) */
    ops[3] = content();
    ops[4] = lkt_fill(0, 0, 120, 80, red);
    ops[5] = pop();
    if (draw(ops, 6, clear_none)) {
        lkt_expect(&frame, 30, 30, lkt_scale(lkt_rgba_of(red), 0.5), 1, "under the half mask");
        lkt_expect(&frame, 70, 30, lkt_rgba_of(red), 0, "under the whole mask");
        lkt_expect(&frame, 10, 10, lkt_rgba_of(clear_none), 0, "no mask: nothing");
        lkt_expect(&frame, 110, 70, lkt_rgba_of(clear_none), 0, "no mask below right");
    }
    lkt_end();

    lkt_begin("mask_rotated_rounded_antialiased");
    /* A rounded mask rotated 30 degrees about (80, 60): every pixel equals
       the mask's coverage times the content, the coverage supersampled here. */
    lkt_mat m = lkt_mat_mul(lkt_mat_mul(lkt_translate(-30, -20, 0), lkt_rotate_z(LKT_PI / 6)),
                            lkt_translate(80, 60, 0));
    ops[0] = group(0, 0, W, H, 0.75f, LK_DL_FLAG_GROUP_MASK);
    ops[1] = lkt_fill(0, 0, 60, 40, lkt_color(1, 1, 1, 1));
    ops[1].corner_radius = 12;
    lkt_set_transform(&ops[1], m);
    ops[2] = content();
    ops[3] = lkt_fill(0, 0, W, H, red);
    ops[4] = pop();
    if (draw(ops, 5, clear_none)) {
        lkt_mat inv = lkt_mat_mul(lkt_mat_mul(lkt_translate(-80, -60, 0), lkt_rotate_z(-LKT_PI / 6)),
                                  lkt_translate(30, 20, 0));
        for (int y = 20; y < 100; y += 3)
            for (int x = 30; x < 130; x += 3) {
                /* supersample the pixel in the mask's own space */
                int inside = 0;
                for (int j = 0; j < 16; j++)
                    for (int i = 0; i < 16; i++) {
                        double lx, ly;
                        lkt_project(inv, x + (i + 0.5) / 16, y + (j + 0.5) / 16, &lx, &ly);
                        inside += lkt_in_rounded_rect(lx, ly, 0, 0, 60, 40, 12);
                    }
                double cov = inside / 256.0;
                if (!lkt_expect(&frame, x, y, lkt_scale(lkt_rgba_of(red), 0.75 * cov), 4, "masked pixel"))
                    goto done;
            }
    }
done:
    lkt_end();

    lkt_begin("mask_group_without_content_draws_nothing");
    ops[0] = group(0, 0, W, H, 1.0f, LK_DL_FLAG_GROUP_MASK);
    ops[1] = lkt_fill(0, 0, W, H, red);
    ops[2] = pop();
    if (draw(ops, 3, clear_none)) lkt_expect(&frame, 10, 10, lkt_rgba_of(clear_none), 0, "nothing");
    lkt_end();
}

static void test_shadows(void)
{
    lk_dl_color white = lkt_color(1, 1, 1, 1), red = lkt_color(1, 0, 0, 1);
    lk_dl_color shadow = lkt_color(0, 0, 0.6f, 0.6f);   /* premultiplied blue at 60% */
    lk_dl_op ops[8];
    const double sigmas[] = { 0.7, 3.0, 6.5 };
    const double offsets[][2] = { { 0, 0 }, { 7, 9 }, { -4.3, 5.6 } };

    for (int s = 0; s < 3; s++) {
        double sigma = sigmas[s], ox = offsets[s][0], oy = offsets[s][1];
        char name[96];
        snprintf(name, sizeof name, "shadow_of_rect_sigma_%g_offset_%g_%g_matches_erf", sigma, ox, oy);
        lkt_begin(name);
        ops[0] = shadow_group(40, 30, 60, 40, shadow, ox, oy, sigma);
        ops[1] = lkt_fill(40, 30, 60, 40, red);
        ops[2] = pop();
        if (draw(ops, 3, white)) {
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    double a = rect_shadow(x, y, 40, 30, 100, 70, ox, oy, sigma);
                    lkt_rgba want = shadow_over(shadow, a, lkt_rgba_of(white));
                    if (x >= 40 && x < 100 && y >= 30 && y < 70) want = lkt_rgba_of(red);
                    if (!lkt_expect(&frame, x, y, want, 1.5, "shadow pixel")) goto next;
                }
        }
    next:
        lkt_end();
    }

    /* Content left of the output casts its shadow onto it: the part of the
       shadow that reaches the screen comes from content at x < 0. */
    lkt_begin("shadow_of_content_off_the_output_reaches_onto_it");
    ops[0] = shadow_group(-60, 30, 100, 40, shadow, 50, 8, 3);
    ops[1] = lkt_fill(-60, 30, 100, 40, red);
    ops[2] = pop();
    if (draw(ops, 3, white)) {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double a = rect_shadow(x, y, -60, 30, 40, 70, 50, 8, 3);
                lkt_rgba want = shadow_over(shadow, a, lkt_rgba_of(white));
                if (x < 40 && y >= 30 && y < 70) want = lkt_rgba_of(red);
                if (!lkt_expect(&frame, x, y, want, 1.5, "shadow pixel")) goto off_output_done;
            }
    }
off_output_done:
    lkt_end();

    lkt_begin("shadow_only_draws_just_the_shadow");
    ops[0] = shadow_group(40, 30, 60, 40, shadow, 10, 10, 3);
    ops[0].flags |= LK_DL_FLAG_SHADOW_ONLY;
    ops[1] = lkt_fill(40, 30, 60, 40, red);
    ops[2] = pop();
    if (draw(ops, 3, white)) {
        double a = rect_shadow(60, 50, 40, 30, 100, 70, 10, 10, 3);
        lkt_expect(&frame, 60, 50, shadow_over(shadow, a, lkt_rgba_of(white)), 1.5, "inside: shadow, no red");
        a = rect_shadow(105, 75, 40, 30, 100, 70, 10, 10, 3);
        lkt_expect(&frame, 105, 75, shadow_over(shadow, a, lkt_rgba_of(white)), 1.5, "beyond the corner");
    }
    lkt_end();

    lkt_begin("shadow_follows_alpha_of_rotated_content");
    /* Reference: exact coverage of the rotated square per pixel, convolved
       in 2D, unseparated and untruncated, with the pixel-integrated Gaussian. */
    {
        double sigma = 2.5, ox = 3, oy = 5;
        lkt_mat m = lkt_mat_mul(lkt_mat_mul(lkt_translate(-15, -15, 0), lkt_rotate_z(0.4)),
                                lkt_translate(70, 55, 0));
        ops[0] = shadow_group(40, 25, 60, 60, lkt_color(0, 0, 0, 1), ox, oy, sigma);
        ops[1] = lkt_fill(0, 0, 30, 30, lkt_color(0, 0, 0, 1));
        lkt_set_transform(&ops[1], m);
        ops[1].flags |= 0;
        ops[2] = pop();
        ops[0].flags |= LK_DL_FLAG_SHADOW_ONLY;
        if (draw(ops, 3, clear_none)) {
            double xs[4], ys[4], corners[4][2] = { { 0, 0 }, { 30, 0 }, { 30, 30 }, { 0, 30 } };
            for (int i = 0; i < 4; i++) lkt_project(m, corners[i][0], corners[i][1], &xs[i], &ys[i]);
            static double cov[H][W];
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) cov[y][x] = lkt_polygon_coverage(xs, ys, 4, x, y);
            for (int y = 30; y < 95; y += 2)
                for (int x = 40; x < 110; x += 2) {
                    double a = 0;
                    for (int v = 30; v < 82; v++)
                        for (int u = 40; u < 100; u++) {
                            if (cov[v][u] == 0) continue;
                            double tx = x - ox - u, ty = y - oy - v;
                            a += cov[v][u] * (phi((tx + 0.5) / sigma) - phi((tx - 0.5) / sigma)) *
                                 (phi((ty + 0.5) / sigma) - phi((ty - 0.5) / sigma));
                        }
                    lkt_rgba want = { a * 255, 0, 0, 0 };
                    if (!lkt_expect(&frame, x, y, want, 1.5, "shadow of a rotated square")) goto rotated_done;
                }
        }
    }
rotated_done:
    lkt_end();

    lkt_begin("shadow_reaches_into_damage_from_content_outside_it");
    /* Only the box below the rect is damaged; the rect itself is outside it,
       yet its shadow inside the box must be drawn in full. */
    ops[0] = shadow_group(40, 10, 60, 40, shadow, 0, 20, 4);
    ops[1] = lkt_fill(40, 10, 60, 40, red);
    ops[2] = pop();
    if (draw(ops, 3, white)) {
        lk_dl_box damage = { 30, 55, 80, 30 };
        /* a different frame first, so a skipped shadow would show */
        lk_dl_op plain = lkt_fill(0, 0, 1, 1, white);
        draw(&plain, 1, white);
        if (draw_damaged(ops, 3, white, damage)) {
            for (int y = 55; y < 85; y++)
                for (int x = 30; x < 110; x++) {
                    double a = rect_shadow(x, y, 40, 10, 100, 50, 0, 20, 4);
                    if (!lkt_expect(&frame, x, y, shadow_over(shadow, a, lkt_rgba_of(white)), 1.5,
                                    "shadow in the damage"))
                        goto damage_done;
                }
        }
    }
damage_done:
    lkt_end();

    lkt_begin("shadow_is_clipped_by_the_clip_around_the_group");
    ops[0] = lkt_op(LK_DL_OP_PUSH_CLIP, 0, 0, 105, H);
    ops[1] = shadow_group(40, 30, 60, 40, shadow, 10, 0, 2);
    ops[2] = lkt_fill(40, 30, 60, 40, red);
    ops[3] = pop();
    ops[4] = lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0);
    if (draw(ops, 5, white)) {
        double a = rect_shadow(103, 50, 40, 30, 100, 70, 10, 0, 2);
        lkt_expect(&frame, 103, 50, shadow_over(shadow, a, lkt_rgba_of(white)), 1.5, "inside the clip");
        lkt_expect(&frame, 106, 50, lkt_rgba_of(white), 0, "beyond the clip");
    }
    lkt_end();

    lkt_begin("clip_inside_group_limits_content_and_its_shadow");
    ops[0] = shadow_group(0, 0, W, H, shadow, 20, 0, 0);
    ops[1] = lkt_op(LK_DL_OP_PUSH_CLIP, 40, 30, 30, 40);
    ops[2] = lkt_fill(40, 30, 60, 40, red);
    ops[3] = lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0);
    ops[4] = pop();
    if (draw(ops, 5, white)) {
        lkt_expect(&frame, 65, 50, lkt_rgba_of(red), 0, "clipped content");
        lkt_expect(&frame, 85, 50, shadow_over(shadow, 1, lkt_rgba_of(white)), 1, "sigma 0: hard shadow");
        lkt_expect(&frame, 95, 50, lkt_rgba_of(white), 0, "no shadow of clipped-away content");
    }
    lkt_end();

    lkt_begin("shadow_group_with_opacity_fades_content_not_shadow");
    ops[0] = shadow_group(40, 30, 60, 40, shadow, 30, 0, 0);
    ops[0].opacity = 0.5f;
    ops[1] = lkt_fill(40, 30, 60, 40, red);
    ops[2] = pop();
    if (draw(ops, 3, white)) {
        lkt_rgba under = shadow_over(shadow, 1, lkt_rgba_of(white));
        lkt_expect(&frame, 80, 50, lkt_over(lkt_scale(lkt_rgba_of(red), 0.5), under), 1.5,
                   "content at half over the shadow");
        lkt_expect(&frame, 110, 50, under, 1, "shadow at its own colour");
    }
    lkt_end();
}

/* S6.1: shadows wider than 48 pixels a side. The blur then groups step
   pixels to a tap, each with an equal share of the group's integral, as
   the gles backend's blur pass does, which bounds its cost whatever the
   sigma (it grew with sigma; sigma 1000 over this output took seconds).
   Against the closed form with erf, every pixel: sigma 16 (step 2, the
   first grouped), 40 (step 3, an odd group), 100 (step 7), each with
   fractional offsets and content partly off the output, and sigma 1000
   (step 63) from a rect far larger than the output, of which the part
   within 1024 pixels of the output casts the shadow (software_group.c's
   margin; on software only: gles keeps 256 pixels, docs/gles.md). */
static void test_wide_shadows(void)
{
    lk_dl_color white = lkt_color(1, 1, 1, 1), red = lkt_color(1, 0, 0, 1);
    lk_dl_color shadow = lkt_color(0, 0, 0.6f, 0.6f);
    const struct { double sigma, x0, y0, x1, y1, ox, oy; } cases[] = {
        { 16, 40, 30, 100, 70, 3.3, -2.6 },
        { 40, 20, 10, 90, 60, -7.4, 11.5 },
        { 100, -50, 30, 60, 100, 20.25, 0.5 },
        { 1000, -2000, -1500, 2200, 1400, 130.7, -40.2 },
    };
    size_t count = sizeof cases / sizeof cases[0];
    if (strcmp(lkt_backend_name(), "software") != 0) count--;
    for (size_t i = 0; i < count; i++) {
        double sigma = cases[i].sigma, x0 = cases[i].x0, y0 = cases[i].y0, x1 = cases[i].x1, y1 = cases[i].y1;
        double ox = cases[i].ox, oy = cases[i].oy;
        char name[96];
        snprintf(name, sizeof name, "wide_shadow_sigma_%g_matches_erf", sigma);
        lkt_begin(name);
        lk_dl_op ops[3] = { shadow_group(x0, y0, x1 - x0, y1 - y0, shadow, ox, oy, sigma),
                            lkt_fill(x0, y0, x1 - x0, y1 - y0, red), pop() };
        ops[0].flags |= LK_DL_FLAG_SHADOW_ONLY;
        if (draw(ops, 3, white)) {
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    double a = rect_shadow(x, y, fmax(x0, -MARGIN), fmax(y0, -MARGIN), fmin(x1, W + MARGIN),
                                           fmin(y1, H + MARGIN), ox, oy, sigma);
                    if (!lkt_expect(&frame, x, y, shadow_over(shadow, a, lkt_rgba_of(white)), 0.75, "shadow pixel"))
                        goto next;
                }
        }
    next:
        lkt_end();
    }
}

/* The peak resident memory of this process, in bytes, 0 when unknown. */
static double peak_resident(void)
{
    struct rusage usage;
    return getrusage(RUSAGE_SELF, &usage) == 0 ? (double)usage.ru_maxrss * 1024.0 : 0.0;   /* (kB on Linux) */
}

/* S8.1: a group's offscreen target reaches at most 1024 pixels beyond the
   output, whatever its rect, its shadow's offset and the groups around it.
   A random call sequence found a group of a huge rect whose shadow was
   offset by 65,536 pixels (the clamp) asking for a 65,794 x 65,670 target
   (17 GB); groups nested in groups with wide shadows grew by their reach
   at each level (four levels of sigma 400 here: 9,800 pixels a side, 385
   MB, at the innermost). Both draw here, their content shows, and the
   peak resident memory grows by less than 256 MB (a target is at most
   (160 + 2048) x (120 + 2048) pixels). */
static void test_group_targets_bounded(void)
{
    lk_dl_color white = lkt_color(1, 1, 1, 1), red = lkt_color(1, 0, 0, 1);
    double before = peak_resident();

    lkt_begin("group_of_a_huge_rect_and_a_far_offset_shadow_stays_bounded");
    {
        lk_dl_op ops[3] = { shadow_group(-1e9, -1e9, 2e9, 2e9, lkt_color(0, 0, 0, 1), 5e5, -5e5, 0),
                            lkt_fill(-1e9, -1e9, 2e9, 2e9, red), pop() };
        if (draw(ops, 3, white)) {
            lkt_expect(&frame, 0, 0, lkt_rgba_of(red), 0, "content");
            lkt_expect(&frame, W - 1, H - 1, lkt_rgba_of(red), 0, "content");
        }
    }
    lkt_end();

    lkt_begin("groups_nested_with_wide_shadows_stay_bounded");
    {
        lk_dl_op ops[9];
        uint32_t n = 0;
        for (int level = 0; level < 4; level++)
            ops[n++] = shadow_group(-1e6, -1e6, 2e6, 2e6, lkt_color(0, 0, 0, 0.5f), 0, 0, 400);
        ops[n++] = lkt_fill(40, 30, 80, 60, red);
        for (int level = 0; level < 4; level++) ops[n++] = pop();
        if (draw(ops, n, white)) {
            lkt_expect(&frame, 80, 60, lkt_rgba_of(red), 0, "the innermost content");
            uint32_t red_of_corner = (lkt_pixel(&frame, 0, 0) >> 16) & 255;
            if (!(red_of_corner < 255 && red_of_corner > 200))
                lkt_fail("pixel (0,0) has red %u: the faint shadows of sigma 400 should darken it a little",
                         (unsigned)red_of_corner);
        }
    }
    lkt_end();

    lkt_begin("group_targets_stay_within_the_margin_in_memory");
    double grown = peak_resident() - before;
    if (before > 0 && grown > 256.0 * 1024 * 1024)
        lkt_fail("the peak resident memory grew by %.0f MB drawing those groups", grown / (1024 * 1024));
    lkt_end();
}

static void test_malformed(void)
{
    lk_dl_color red = lkt_color(1, 0, 0, 1);
    lk_dl_op ops[4];
    char error[512];
    lk_display_list list;

    /* a known frame first */
    ops[0] = lkt_fill(0, 0, W, H, red);
    draw(ops, 1, clear_none);

    struct { const char *name; lk_dl_op a, b, c; uint32_t n; const char *needle; } cases[4];
    cases[0].name = "pop_group_without_push_is_rejected";
    cases[0].a = pop(); cases[0].n = 1; cases[0].needle = "POP_GROUP";
    cases[1].name = "group_content_outside_mask_group_is_rejected";
    cases[1].a = group(0, 0, W, H, 1, 0); cases[1].b = content(); cases[1].n = 2; cases[1].needle = "GROUP_CONTENT";
    cases[2].name = "clip_ending_inside_a_group_is_rejected";
    cases[2].a = lkt_op(LK_DL_OP_PUSH_CLIP, 0, 0, 10, 10); cases[2].b = group(0, 0, W, H, 1, 0);
    cases[2].c = lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0); cases[2].n = 3; cases[2].needle = "POP_CLIP";
    cases[3].name = "group_ending_with_a_clip_open_is_rejected";
    cases[3].a = group(0, 0, W, H, 1, 0); cases[3].b = lkt_op(LK_DL_OP_PUSH_CLIP, 0, 0, 10, 10);
    cases[3].c = pop(); cases[3].n = 3; cases[3].needle = "still open";
    for (int i = 0; i < 4; i++) {
        lkt_begin(cases[i].name);
        ops[0] = cases[i].a; ops[1] = cases[i].b; ops[2] = cases[i].c;
        list = lkt_list(ops, cases[i].n, W, H, clear_none);
        error[0] = '\0';
        if (b->render(inst, &list, error, sizeof error)) lkt_fail("render accepted the list");
        else if (!strstr(error, cases[i].needle)) lkt_fail("error does not name %s: %s", cases[i].needle, error);
        else if (b->read_pixels(inst, frame.pixels, W * 4, error, sizeof error))
            lkt_expect(&frame, 5, 5, lkt_rgba_of(red), 0, "the last frame stays");
        lkt_end();
    }

    lkt_begin("non_finite_group_rect_and_shadow_draw_nothing_of_them");
    ops[0] = group(NAN, 0, W, H, 1, 0);
    ops[1] = lkt_fill(0, 0, W, H, red);
    ops[2] = pop();
    ops[3] = shadow_group(0, 0, W, H, lkt_color(0, 0, 0, 1), INFINITY, 0, NAN);
    if (draw(ops, 3, clear_none)) lkt_expect(&frame, 5, 5, lkt_rgba_of(clear_none), 0, "NaN rect");
    ops[1] = lkt_fill(10, 10, 10, 10, red);
    ops[0] = ops[3];
    if (draw(ops, 3, clear_none)) {
        lkt_expect(&frame, 15, 15, lkt_rgba_of(red), 0, "content still drawn");
        lkt_expect(&frame, 25, 15, lkt_rgba_of(clear_none), 0, "no shadow");
    }
    lkt_end();
}

/* fill turned by angle about the centre of (x, y, w, h), anti-aliased */
static void turn_about_centre(lk_dl_op *fill, double angle, double x, double y, double w, double h)
{
    double c = cos(angle), sn = sin(angle), cx = x + w / 2, cy = y + h / 2;
    fill->transform[0] = c; fill->transform[1] = sn;
    fill->transform[4] = -sn; fill->transform[5] = c;
    fill->transform[12] = cx - c * cx + sn * cy;
    fill->transform[13] = cy - sn * cx - c * cy;
    fill->flags |= LK_DL_FLAG_ANTIALIAS;
}

/* S6.1 shadows, S6.4: the software backend's blur has an SSE2 build and an
   AVX2 one, chosen at open by the CPU and LAYERKIT_SOFTWARE_SPRITES: both
   must give the same bytes. Shadows of 3 to 71 taps a side over rows of 13 to 160 outputs
   (whole blocks of 32 and tails), cut by the output's edges, translucent
   and rotated content, and one of sigma 40 (pixels grouped in threes)
   cast from content off the output's right edge. */
static void test_shadow_builds_agree(void)
{
    if (strcmp(lkt_backend_name(), "software") != 0) return;   /* the builds are the software backend's */
    lkt_begin("shadow_blur_sse2_equals_default_simd");
    const double sigmas[] = { 0.7, 2.2, 5.0, 11.3, 40.0 };
    lk_dl_op ops[5 * 3];
    uint32_t n = 0;
    for (int i = 0; i < 5; i++) {
        double x = -20 + 47 * i, y = 10 + 23 * i, w = 9 + 31 * i, h = 5 + 11 * i;
        ops[n++] = shadow_group(x, y, w, h, lkt_color(0.1f, 0, 0.3f, 0.7f), 3.3 - i, 2.6 * i, sigmas[i]);
        lk_dl_op fill = lkt_fill(x, y, w, h, lkt_color(0.5f, 0.2f, 0, 0.5f + 0.15f * (float)i));
        if (i % 2) turn_about_centre(&fill, 0.4 * i, x, y, w, h);   /* alpha other than 0 and 255 along its edges */
        ops[n++] = fill;
        ops[n++] = pop();
    }
    lkt_frame simd = lkt_frame_new(W, H);
    lk_backend_instance *sse2 = NULL;
    lk_display_list list = lkt_list(ops, n, W, H, lkt_color(1, 1, 1, 1));
    if (!draw(ops, n, lkt_color(1, 1, 1, 1))) goto done;
    memcpy(simd.pixels, frame.pixels, (size_t)W * H * 4);
    setenv("LAYERKIT_SOFTWARE_SPRITES", "sse2", 1);
    sse2 = lkt_open(b, NULL, W, H);
    unsetenv("LAYERKIT_SOFTWARE_SPRITES");
    if (!sse2) {
        lkt_fail("could not open a second instance with LAYERKIT_SOFTWARE_SPRITES=sse2");
        goto done;
    }
    if (lkt_render(b, sse2, &list, &frame)) lkt_same_frame(&frame, &simd, "with SSE2 alone, as by default");
done:
    if (sse2) b->close(sse2);
    free(simd.pixels);
    lkt_end();
}

/* S6.1, S6.4: content up to SW_GROUP_MARGIN beyond the output casts its
   shadow onto it on the sprite path as on pixman's. Found by differential
   fuzzing: the sprite path clamped a sprite's box to 2 pixels beyond the
   output, so a group's content above the output's top (turned fills and
   images, which go through sprites) was cut there, and its shadow came
   out up to 8 levels lighter than pixman's (docs allow 3). */
static void test_sprite_shadow_from_beyond_the_output(void)
{
    if (strcmp(lkt_backend_name(), "software") != 0) return;   /* the sprite path is the software backend's */
    lkt_begin("sprite_path_shadow_of_content_beyond_the_output_matches_pixman");
    lk_dl_op ops[6];
    uint32_t n = 0;
    for (int i = 0; i < 2; i++) {
        /* above the top edge, shadow moved down; left of the left edge, moved right */
        double x = i ? -70 : 60, y = i ? 60 : -70, w = 60, h = 64;
        ops[n++] = shadow_group(x - 20, y - 20, w + 40, h + 40, lkt_color(0, 0, 0, 0.8f), i ? 25 : -8,
                                i ? 2 : 25, 4);
        lk_dl_op fill = lkt_fill(x, y, w, h, lkt_color(0.9f, 0.5f, 0.2f, 1));
        turn_about_centre(&fill, 1.19, x, y, w, h);
        ops[n++] = fill;
        ops[n++] = pop();
    }
    lkt_frame sprites = lkt_frame_new(W, H);
    lk_backend_instance *off = NULL;
    lk_display_list list = lkt_list(ops, n, W, H, lkt_color(1, 1, 1, 1));
    if (!draw(ops, n, lkt_color(1, 1, 1, 1))) goto done;
    memcpy(sprites.pixels, frame.pixels, (size_t)W * H * 4);
    setenv("LAYERKIT_SOFTWARE_SPRITES", "0", 1);
    off = lkt_open(b, NULL, W, H);
    unsetenv("LAYERKIT_SOFTWARE_SPRITES");
    if (!off) {
        lkt_fail("could not open a second instance with LAYERKIT_SOFTWARE_SPRITES=0");
        goto done;
    }
    if (!lkt_render(b, off, &list, &frame)) goto done;
    for (uint32_t i = 0; i < (uint32_t)W * H; i++) {
        for (int k = 0; k < 32; k += 8) {
            int got = (int)((sprites.pixels[i] >> k) & 255), want = (int)((frame.pixels[i] >> k) & 255);
            if (abs(got - want) > 3) {
                lkt_fail("pixel (%u,%u) %08x on the sprite path, %08x on pixman's: more than 3 apart",
                         i % W, i / W, sprites.pixels[i], frame.pixels[i]);
                goto done;
            }
        }
    }
done:
    if (off) b->close(off);
    free(sprites.pixels);
    lkt_end();
}

int main(void)
{
    b = lkt_load();
    if (!b) return 1;
    inst = lkt_open(b, NULL, W, H);
    if (!inst) return 1;
    frame = lkt_frame_new(W, H);

    test_group_opacity();
    test_blend_add();
    test_masks();
    test_shadows();
    test_wide_shadows();
    test_group_targets_bounded();
    test_shadow_builds_agree();
    test_sprite_shadow_from_beyond_the_output();
    test_malformed();

    b->close(inst);
    free(frame.pixels);
    return lkt_exit_code();
}
