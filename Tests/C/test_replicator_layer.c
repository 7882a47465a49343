/* Replicator layers (S7.5): a row of instances through a translating
   instanceTransform with colour offsets, multiplying fills and images
   alike, against a cairo reference; the classic spinner (12 instances
   turned 2 pi / 12 apart, instanceDelay = duration / 12, one opacity
   animation on the one sublayer) with each instance's opacity checked at a
   known time; instances are not hit; shadows tinted by the instance
   colour; the sublayer's animation events
   (start, stop, completion, removal) heard once with no instance 0 drawn
   and with several drawn; errors naming the argument; nested
   replicators past the display list's limits, and instanceCount animated
   far out of 0...10000 (S8.1).
   Tolerance: channels within 3, antialiased edges within 64 on at most 40
   pixels; spinner opacities within 3/255. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* alarm */
#endif
#include "support/lktest.h"
#include "support/lkt_cairo.h"
#include <math.h>
#include <signal.h>
#include <unistd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 160
#define H 120

static lk_display *display;
static lk_layer *root;

static void render_at(double t)
{
    lk_transaction_flush();
    lk_display_render_frame_at(display, t);
}

static const lkt_tolerance exact = {3, 64, 40, 0};

static void test_row_and_colours(void)
{
    lk_transaction_set_disable_actions(true);
    lk_layer *r = lk_replicator_layer_create();
    lk_layer_set_frame(r, lk_rect_make(0, 0, W, 60));
    lk_layer_add_sublayer(root, r);
    lk_layer *square = lkt_layer_new(r, 5, 5, 10, 10, lk_color_make(1, 1, 1, 1));
    uint8_t white[10 * 10 * 4];
    memset(white, 255, sizeof white);
    lk_image *image = lk_image_create_from_pixels(10, 10, 40, LK_PIXEL_FORMAT_RGBA8, white);
    lk_layer *picture = lk_layer_create();
    lkt_layer_place(picture, 5, 25, 10, 10);
    lk_layer_set_contents(picture, image);
    lk_layer_add_sublayer(r, picture);
    lk_release(picture);
    lk_release(image);
    LKT_CHECK_STATUS("S7.5 instanceCount", lk_replicator_layer_set_instance_count(r, 5), LK_OK);
    lk_replicator_layer_set_instance_transform(r, lkt_t_translation(30, 0, 0));
    lk_replicator_layer_set_instance_red_offset(r, -0.25);
    lk_replicator_layer_set_instance_blue_offset(r, -0.2);
    render_at(lk_media_time() + 10);
    cairo_t *cr = lkt_cairo_begin(W, H);
    int n;
    for (n = 0; n < 5; n++) {
        cairo_set_source_rgb(cr, 1 - 0.25 * n, 1, 1 - 0.2 * n);
        cairo_rectangle(cr, 5 + 30 * n, 5, 10, 10);
        cairo_rectangle(cr, 5 + 30 * n, 25, 10, 10);
        cairo_fill(cr);
    }
    lkt_check_against_cairo("S7.5 instances along instanceTransform, colour offsets times n on fills and images", display, cr,
                            exact);

    /* the colour multiplies: instanceColor and alpha offsets, clamped */
    lk_replicator_layer_set_instance_color(r, lk_color_make(0.5, 1, 1, 1));
    lk_replicator_layer_set_instance_alpha_offset(r, -0.25);
    lk_replicator_layer_set_instance_green_offset(r, 0.5);
    render_at(lk_media_time() + 20);
    cr = lkt_cairo_begin(W, H);
    for (n = 0; n < 5; n++) {
        double red = 0.5 - 0.25 * n, blue = 1 - 0.2 * n, alpha = 1 - 0.25 * n;
        cairo_set_source_rgba(cr, red < 0 ? 0 : red, 1, blue, alpha);
        cairo_rectangle(cr, 5 + 30 * n, 5, 10, 10);
        cairo_rectangle(cr, 5 + 30 * n, 25, 10, 10);
        cairo_fill(cr);
    }
    lkt_check_against_cairo("S7.5 instanceColor times each instance, alpha offsets, clamped components", display, cr, exact);

    /* S7.5: instances are drawn, not layers: only instance 0 is hit */
    LKT_CHECK(lk_layer_hit_test(root, lk_point_make(10, 10)) == square, "S7.5 the sublayer itself is hit", "another layer");
    LKT_CHECK(lk_layer_hit_test(root, lk_point_make(40, 10)) != square, "S7.5 an instance is not hit", "the sublayer was hit");

    lk_replicator_layer_set_instance_count(r, 0);
    render_at(lk_media_time() + 30);
    uint8_t *px = (uint8_t *)malloc(W * H * 4);
    lk_display_read_pixels(display, px, W * 4);
    LKT_CHECK(px[(10 * W + 10) * 4] == 0, "S7.5 instanceCount 0 draws no sublayer", "pixel %d", px[(10 * W + 10) * 4]);
    free(px);
    lk_layer_remove_from_superlayer(r);
    lk_release(r);
}

static void test_spinner(void)
{
    lk_transaction_set_disable_actions(true);
    lk_layer *r = lk_replicator_layer_create();
    lk_layer_set_frame(r, lk_rect_make(20, 0, 120, 120));
    lk_layer_add_sublayer(root, r);
    lk_layer *bar = lkt_layer_new(r, 58, 4, 4, 24, lk_color_make(1, 1, 1, 1));
    lk_replicator_layer_set_instance_count(r, 12);
    lk_replicator_layer_set_instance_transform(r, lkt_t_rotation_z(2 * LKT_PI / 12));
    lk_replicator_layer_set_instance_delay(r, 1.2 / 12);
    double begin = lk_media_time() + 1000;
    lk_animation *a = lk_basic_animation_create("opacity");
    lk_animation_set_from_value(a, lk_value_number(1));
    lk_animation_set_to_value(a, lk_value_number(0));
    lk_animation_set_duration(a, 1.2);
    lk_animation_set_repeat_count(a, INFINITY);
    lk_animation_set_begin_time(a, begin);
    lk_layer_add_animation(bar, a, "fade");
    lk_release(a);
    render_at(begin + 2.05);
    uint8_t *px = (uint8_t *)malloc(W * H * 4);
    lk_display_read_pixels(display, px, W * 4);
    int n, ok = 1;
    char report[1024] = "";
    for (n = 0; n < 12; n++) {
        double angle = n * 2 * LKT_PI / 12;
        /* the bar's centre (60, 16) turned about the anchor (60, 60) */
        int x = (int)floor(20 + 60 + 44 * sin(angle)), y = (int)floor(60 - 44 * cos(angle));
        double local = fmod(2.05 - n * 0.1, 1.2);
        int want = (int)lrint(255 * (1 - local / 1.2));
        int got = px[(y * W + x) * 4];
        if (abs(got - want) > 3) ok = 0;
        size_t used = strlen(report);
        snprintf(report + used, sizeof report - used, " %d:%d/%d", n, got, want);
    }
    LKT_CHECK(ok, "S7.5 the spinner: instance n's opacity animation runs n x instanceDelay behind",
              "instance:got/want%s", report);

    /* instanceTransform turns about the centre of the bounds, not the anchor
       point (CAReplicatorLayer.instanceTransform: "applied relative to the
       center of this layer"): with the anchor at the top left, instance 6
       (turned by pi) of the bar at the top lands at the bottom */
    lk_layer_remove_all_animations(bar);
    lk_replicator_layer_set_instance_count(r, 7);
    lk_layer_set_anchor_point(r, lk_point_make(0, 0));
    lk_layer_set_position(r, lk_point_make(20, 0));
    render_at(begin + 3);
    lk_display_read_pixels(display, px, W * 4);
    LKT_CHECK(px[(104 * W + 80) * 4] > 200 && px[(16 * W + 80) * 4] > 200,
              "S7.5 instanceTransform turns about the centre of the bounds, with the anchor point elsewhere",
              "bottom bar %d, top bar %d", px[(104 * W + 80) * 4], px[(16 * W + 80) * 4]);
    lk_replicator_layer_set_preserves_depth(r, true);
    render_at(begin + 4);
    lk_display_read_pixels(display, px, W * 4);
    LKT_CHECK(px[(104 * W + 80) * 4] > 200 && px[(16 * W + 80) * 4] > 200,
              "S7.5 ... and with preservesDepth", "bottom bar %d, top bar %d", px[(104 * W + 80) * 4],
              px[(16 * W + 80) * 4]);
    free(px);
    lk_layer_remove_from_superlayer(r);
    lk_release(r);
}

/* S7.5: instanceColor and the offsets multiply everything an instance
   draws, a sublayer's shadow too (CAReplicatorLayer.instanceColor:
   "Defines the color used to multiply the source object"). White 20 x 20
   layers cast white shadows 10 points down and right (radius 0), one
   from its alpha, one from a rect shadowPath, one from a triangle
   shadowPath (rasterized coverage); instance 1's colour is (1, 0, 0.5,
   0.5): its shadows, where no body covers them, read about (128, 0, 64)
   on the black root (only the alpha reached them: 128, 128, 128).
   Instance 2 (alpha 0) draws neither body nor shadow. */
static void test_shadow_tint(void)
{
    static const struct { double x, y; int path; const char *name; } casts[] = {
        {5, 5, 0, "S7.5 instanceColor and offsets tint a sublayer's shadow (cast by its alpha)"},
        {5, 45, 1, "S7.5 ... a shadow from a rect shadowPath"},
        {5, 85, 2, "S7.5 ... a shadow from a triangle shadowPath (rasterized)"},
    };
    lk_transaction_set_disable_actions(true);
    lk_layer *r = lk_replicator_layer_create();
    lk_layer_set_frame(r, lk_rect_make(0, 0, W, H));
    lk_layer_add_sublayer(root, r);
    size_t i;
    for (i = 0; i < sizeof casts / sizeof casts[0]; i++) {
        lk_layer *l = lkt_layer_new(r, casts[i].x, casts[i].y, 20, 20, lk_color_make(1, 1, 1, 1));
        lk_layer_set_shadow_color(l, lk_color_make(1, 1, 1, 1));
        lk_layer_set_shadow_opacity(l, 1);
        lk_layer_set_shadow_radius(l, 0);
        lk_layer_set_shadow_offset(l, lk_size_make(10, 10));
        if (casts[i].path) {
            lk_path *p = lk_path_create();
            if (casts[i].path == 1) {
                lk_path_add_rect(p, lk_rect_make(0, 0, 20, 20));
            } else {
                lk_path_move_to(p, 0, 0);
                lk_path_line_to(p, 20, 0);
                lk_path_line_to(p, 20, 20);
                lk_path_close(p);
            }
            lk_layer_set_shadow_path(l, p);
            lk_release(p);
        }
    }
    lk_replicator_layer_set_instance_count(r, 3);
    lk_replicator_layer_set_instance_transform(r, lkt_t_translation(50, 0, 0));
    lk_replicator_layer_set_instance_green_offset(r, -1);
    lk_replicator_layer_set_instance_blue_offset(r, -0.5);
    lk_replicator_layer_set_instance_alpha_offset(r, -0.5);
    render_at(lk_media_time() + 40);
    uint8_t *px = (uint8_t *)malloc(W * H * 4);
    lk_display_read_pixels(display, px, W * 4);
    for (i = 0; i < sizeof casts / sizeof casts[0]; i++) {
        /* in the shadow, past the body: (28, 25) from the layer's corner
           (inside the triangle's shadow too) */
        int x = (int)casts[i].x + 28, y = (int)casts[i].y + 25;
        const uint8_t *own = px + (y * W + x) * 4, *one = px + (y * W + x + 50) * 4, *two = px + (y * W + x + 100) * 4;
        LKT_CHECK(own[0] > 250 && own[1] > 250 && own[2] > 250 && abs(one[0] - 128) <= 3 && one[1] <= 3 &&
                      abs(one[2] - 64) <= 3 && two[0] == 0 && two[1] == 0 && two[2] == 0,
                  casts[i].name, "instance 0 %d,%d,%d (want 255,255,255), 1 %d,%d,%d (want 128,0,64), 2 %d,%d,%d (want 0,0,0)",
                  own[0], own[1], own[2], one[0], one[1], one[2], two[0], two[1], two[2]);
    }
    free(px);
    lk_layer_remove_from_superlayer(r);
    lk_release(r);
}

/* ---- S4.6, S2.4, S4.5: the sublayers' events without instance 0 -------- */

/* What each case heard: a late callback from an earlier case (its layer
   removed, its transaction completing) counts for that case, not this. */
static struct heard {
    int starts, stops, completions;
} heard[16];
static int cases;

static void heard_start(lk_animation *a, void *user_data)
{
    (void)a;
    ((struct heard *)user_data)->starts++;
}

static void heard_stop(lk_animation *a, bool finished, void *user_data)
{
    (void)a;
    (void)finished;
    ((struct heard *)user_data)->stops++;
}

static void completed(void *user_data)
{
    ((struct heard *)user_data)->completions++;
}

enum { NO_INSTANCES, INSTANCE_0_CLEAR, ONLY_INSTANCE_1, DRAWN, NO_INSTANCES_IN_SPACE, ONLY_INSTANCE_1_IN_SPACE };

/* A 0.5 s opacity animation, with a delegate, added to a replicator's
   sublayer in a transaction with a completion, then 20 frames 0.1 s apart:
   the sublayer's animation starts and stops once, the transaction
   completes once, and the finished animation is removed, whatever
   instances the replicator draws (the sublayer is a layer, and its time is
   instance 0's). They were lost when no instance 0 was drawn: no
   instances, instanceColor's alpha 0 (even with instance 1 drawn through
   an alpha offset), with or without preservesDepth, also inside a
   transform layer's space. */
static void check_events(const char *name, int setup, bool depth)
{
    lk_transaction_set_disable_actions(true);
    lk_layer *holder = NULL, *r = lk_replicator_layer_create();
    lk_layer_set_frame(r, lk_rect_make(0, 0, W, 60));
    if (setup == NO_INSTANCES_IN_SPACE || setup == ONLY_INSTANCE_1_IN_SPACE) {
        holder = lk_transform_layer_create();
        lk_layer_set_frame(holder, lk_rect_make(0, 0, W, H));
        lk_layer_add_sublayer(holder, r);
        lk_layer_add_sublayer(root, holder);
    } else {
        lk_layer_add_sublayer(root, r);
    }
    lk_layer *square = lkt_layer_new(r, 5, 5, 10, 10, lk_color_make(1, 1, 1, 1));
    lk_replicator_layer_set_preserves_depth(r, depth);
    lk_replicator_layer_set_instance_transform(r, lkt_t_translation(30, 0, 0));
    if (setup == NO_INSTANCES || setup == NO_INSTANCES_IN_SPACE) lk_replicator_layer_set_instance_count(r, 0);
    if (setup == INSTANCE_0_CLEAR) lk_replicator_layer_set_instance_color(r, lk_color_make(1, 1, 1, 0));
    if (setup == ONLY_INSTANCE_1 || setup == ONLY_INSTANCE_1_IN_SPACE) {
        lk_replicator_layer_set_instance_count(r, 3);
        lk_replicator_layer_set_instance_color(r, lk_color_make(1, 1, 1, 0));
        lk_replicator_layer_set_instance_alpha_offset(r, 1);
        lk_replicator_layer_set_instance_delay(r, 0.05);
    }
    if (setup == DRAWN) lk_replicator_layer_set_instance_count(r, 3);
    lk_transaction_flush();

    struct heard *h = &heard[cases++ % 16];
    lk_animation_delegate d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.did_start = heard_start;
    d.did_stop = heard_stop;
    double t0 = lk_media_time();
    lk_transaction_begin();
    lk_transaction_set_completion(completed, h);
    lk_animation *a = lk_basic_animation_create("opacity");
    lk_animation_set_from_value(a, lk_value_number(0));
    lk_animation_set_to_value(a, lk_value_number(1));
    lk_animation_set_duration(a, 0.5);
    lk_animation_set_delegate(a, &d, h, NULL);
    lk_layer_add_animation(square, a, "fade");
    lk_release(a);
    lk_transaction_commit();
    int i;
    for (i = 1; i <= 20; i++) {
        lk_display_render_frame_at(display, t0 + 0.1 * i);
        lk_display_dispatch(display, 0);
    }
    const char *keys[2];
    size_t left = lk_layer_get_animation_keys(square, keys, 2);
    LKT_CHECK(h->starts == 1 && h->stops == 1 && h->completions == 1 && left == 0, name,
              "starts %d, stops %d, completions %d, animations left %zu (want 1, 1, 1, 0)", h->starts, h->stops,
              h->completions, left);
    lk_layer_remove_from_superlayer(holder ? holder : r);
    lk_release(r);
    if (holder) lk_release(holder);
}

static void test_events_without_instance_0(void)
{
    check_events("S4.6 S2.4 S4.5 a sublayer's animation starts, stops, completes and is removed with instanceCount 0",
                 NO_INSTANCES, false);
    check_events("S4.6 S2.4 S4.5 ... with instanceColor's alpha 0", INSTANCE_0_CLEAR, false);
    check_events("S4.6 S2.4 S4.5 ... with instance 0 clear and instances 1 and 2 drawn (alpha offset, delay)",
                 ONLY_INSTANCE_1, false);
    check_events("S4.6 S2.4 S4.5 ... with instanceCount 0 and preservesDepth", NO_INSTANCES, true);
    check_events("S4.6 S2.4 S4.5 ... with instance 0 clear, instances 1 and 2 drawn, and preservesDepth",
                 ONLY_INSTANCE_1, true);
    check_events("S4.6 S2.4 S4.5 ... with instanceCount 0, preservesDepth, in a transform layer",
                 NO_INSTANCES_IN_SPACE, true);
    check_events("S4.6 S2.4 S4.5 ... with instance 0 clear, preservesDepth, in a transform layer",
                 ONLY_INSTANCE_1_IN_SPACE, true);
    check_events("S4.6 exactly one start and one stop with three instances drawn", DRAWN, false);
    check_events("S4.6 ... and with preservesDepth", DRAWN, true);
}

static void test_errors(void)
{
    lk_layer *r = lk_replicator_layer_create();
    LKT_CHECK(lk_replicator_layer_get_instance_count(r) == 1 && lk_replicator_layer_get_instance_delay(r) == 0 &&
              lkt_color_near(lk_replicator_layer_get_instance_color(r), lk_color_make(1, 1, 1, 1), 0),
              "S7.5 the replicator's defaults (CAReplicatorLayer.h)", "count %zu", lk_replicator_layer_get_instance_count(r));
    LKT_CHECK_STATUS("S7.5 instanceCount by key path", lk_layer_set_value(r, "instanceCount", lk_value_number(3)), LK_OK);
    LKT_CHECK(lk_replicator_layer_get_instance_count(r) == 3, "S7.5 instanceCount by key path reads back", "got %zu",
              lk_replicator_layer_get_instance_count(r));
    lk_layer_set_value(r, "instanceTransform.translation.x", lk_value_number(12));
    LKT_CHECK_NEAR("S7.5 instanceTransform parts by key path", lk_replicator_layer_get_instance_transform(r).m41, 12, 1e-9);
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 an absurd instanceCount names it", lk_replicator_layer_set_instance_count(r, 20000),
                    LK_ERROR_INVALID_ARGUMENT, "instanceCount");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a fractional instanceCount by key path names it",
                    lk_layer_set_value(r, "instanceCount", lk_value_number(2.5)), LK_ERROR_INVALID_ARGUMENT, "instanceCount");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 an instanceColor outside 0..1 names it",
                    lk_replicator_layer_set_instance_color(r, lk_color_make(2, 0, 0, 1)), LK_ERROR_INVALID_ARGUMENT,
                    "instanceColor");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a NaN instanceDelay names it", lk_replicator_layer_set_instance_delay(r, NAN),
                    LK_ERROR_INVALID_ARGUMENT, "instanceDelay");
    LKT_CHECK(lk_replicator_layer_get_instance_count(r) == 3, "S8.1 failed calls change nothing", "count %zu",
              lk_replicator_layer_get_instance_count(r));
    lk_layer *e = lk_emitter_layer_create();
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a replicator call on an emitter layer", lk_replicator_layer_set_instance_count(e, 2),
                    LK_ERROR_INVALID_ARGUMENT, "replicator layer");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a replicator key path on an emitter layer",
                    lk_layer_set_value(e, "instanceCount", lk_value_number(2)), LK_ERROR_UNKNOWN_KEY_PATH, "replicator layer");
    lk_release(e);
    lk_release(r);
}

/* The display's count of truncated frames (0 when stats fail). */
static unsigned long long frames_truncated(void)
{
    return (unsigned long long)lkt_stats(display).frames_truncated;
}

/* The red channel of pixel (x, y) of the last frame. */
static int red_at(int x, int y)
{
    uint8_t *px = (uint8_t *)malloc(W * H * 4);
    int red = -1;
    if (px && lk_display_read_pixels(display, px, W * 4) == LK_OK) red = px[(y * W + x) * 4];
    free(px);
    return red;
}

/* S8.1: replicators nested in replicators multiply their instance counts,
   and an emitter in a replicator lists its particles once per instance:
   two replicators of 10,000 instances made 10^8 ops (35 GB; the failed
   allocation aborted the program). A frame stops at the display list's
   limits (500,000 drawing ops, 4,000,000 layers visited and particles
   listed, 100,000 layers in one 3D space): it is drawn, in order, up to
   there (the first instance shows), lk_display_stats counts it, and a
   stats struct of the size before that field is still filled (its end
   untouched). Each case draws one frame of at most 500,000 ops. */
static void test_limits(void)
{
    double t = lk_media_time() + 2000;
    unsigned long long before = frames_truncated();

    /* 10,000 x 10,000 instances of a red 1x1 layer: columns of rows */
    lk_layer *outer = lk_replicator_layer_create(), *inner = lk_replicator_layer_create();
    lk_layer_set_frame(outer, lk_rect_make(0, 0, W, H));
    lk_layer_set_frame(inner, lk_rect_make(0, 0, W, H));
    lk_replicator_layer_set_instance_count(outer, 10000);
    lk_replicator_layer_set_instance_count(inner, 10000);
    lk_replicator_layer_set_instance_transform(outer, lk_transform3d_make_translation(1, 0, 0));
    lk_replicator_layer_set_instance_transform(inner, lk_transform3d_make_translation(0, 1, 0));
    lk_layer_add_sublayer(inner, lkt_layer_new(NULL, 0, 0, 1, 1, lk_color_make(1, 0, 0, 1)));
    lk_layer_add_sublayer(outer, inner);
    lk_layer_add_sublayer(root, outer);
    lk_transaction_flush();
    lk_status s = lk_display_render_frame_at(display, t);
    LKT_CHECK_STATUS("S8.1 nested replicators of 10,000 instances each draw a frame", s, LK_OK);
    LKT_CHECK(red_at(0, 0) > 200 && red_at(0, 50) > 200, "S8.1 the instances before the limit are drawn, in order",
              "red %d at (0, 0), %d at (0, 50)", red_at(0, 0), red_at(0, 50));
    LKT_CHECK(frames_truncated() == before + 1, "S8.1 lk_display_stats counts the frame past the limits",
              "frames_truncated %llu, %llu before", frames_truncated(), before);
    lk_display_stats old;
    memset(&old, 0xab, sizeof old);
    old.struct_size = (uint32_t)offsetof(lk_display_stats, frames_truncated);
    s = lk_display_get_stats(display, &old);
    LKT_CHECK(s == LK_OK && old.frames_presented > 0 && old.frames_truncated == 0xababababababababULL,
              "S8.1 a stats struct from before frames_truncated is filled up to it",
              "%s, frames_truncated %llx", lkt_status_name(s), (unsigned long long)old.frames_truncated);
    lk_layer_remove_from_superlayer(outer);
    lk_release(outer);
    lk_release(inner);

    /* the same keeping depth in a transform layer: one space of 10^8 layers */
    lk_layer *space = lk_transform_layer_create();
    outer = lk_replicator_layer_create();
    inner = lk_replicator_layer_create();
    lk_layer_set_frame(space, lk_rect_make(0, 0, W, H));
    lk_layer_set_frame(outer, lk_rect_make(0, 0, W, H));
    lk_layer_set_frame(inner, lk_rect_make(0, 0, W, H));
    lk_replicator_layer_set_instance_count(outer, 10000);
    lk_replicator_layer_set_instance_count(inner, 10000);
    lk_replicator_layer_set_preserves_depth(outer, true);
    lk_replicator_layer_set_preserves_depth(inner, true);
    lk_replicator_layer_set_instance_transform(outer, lk_transform3d_make_translation(1, 0, -0.001));
    lk_replicator_layer_set_instance_transform(inner, lk_transform3d_make_translation(0, 1, -0.001));
    lk_layer_add_sublayer(inner, lkt_layer_new(NULL, 0, 0, 1, 1, lk_color_make(1, 0, 0, 1)));
    lk_layer_add_sublayer(outer, inner);
    lk_layer_add_sublayer(space, outer);
    lk_layer_add_sublayer(root, space);
    lk_transaction_flush();
    s = lk_display_render_frame_at(display, t + 1);
    LKT_CHECK_STATUS("S8.1 nested preservesDepth replicators in a transform layer draw a frame", s, LK_OK);
    LKT_CHECK(red_at(0, 0) > 200, "S8.1 their first instance is drawn", "red %d at (0, 0)", red_at(0, 0));
    LKT_CHECK(frames_truncated() == before + 2, "S8.1 the space past its limit counts as a truncated frame",
              "frames_truncated %llu, %llu before", frames_truncated(), before);
    lk_layer_remove_from_superlayer(space);
    lk_release(space);
    lk_release(outer);
    lk_release(inner);

    /* an emitter of 2,000 live particles in 10,000 instances */
    uint8_t white[4 * 4 * 4];
    memset(white, 255, sizeof white);
    lk_image *dot = lk_image_create_from_pixels(4, 4, 16, LK_PIXEL_FORMAT_RGBA8, white);
    lk_emitter_cell *cell = lk_emitter_cell_create();
    lk_emitter_cell_set_birth_rate(cell, 2000);
    lk_emitter_cell_set_lifetime(cell, 1);
    lk_emitter_cell_set_contents(cell, dot);
    lk_layer *emitter = lk_emitter_layer_create(), *copies = lk_replicator_layer_create();
    lk_layer_set_frame(copies, lk_rect_make(0, 0, W, H));
    lk_layer_set_frame(emitter, lk_rect_make(0, 0, W, H));
    lk_emitter_layer_set_emitter_position(emitter, lk_point_make(W / 2.0, H / 2.0));
    lk_emitter_layer_set_cells(emitter, &cell, 1);
    lk_replicator_layer_set_instance_count(copies, 10000);
    lk_layer_add_sublayer(copies, emitter);
    lk_layer_add_sublayer(root, copies);
    lk_transaction_flush();
    lk_display_render_frame_at(display, t + 2);
    s = lk_display_render_frame_at(display, t + 4);
    LKT_CHECK_STATUS("S8.1 an emitter in 10,000 replicator instances draws a frame", s, LK_OK);
    LKT_CHECK(red_at(W / 2, H / 2) > 200, "S8.1 its particles show", "red %d at the emitter", red_at(W / 2, H / 2));
    LKT_CHECK(frames_truncated() >= before + 3, "S8.1 its frames past the limits are counted",
              "frames_truncated %llu, %llu before", frames_truncated(), before);
    lk_layer_remove_from_superlayer(copies);
    lk_release(copies);
    lk_release(emitter);
    lk_release(cell);
    lk_release(dot);
    lk_transaction_flush();
    lk_display_render_frame_at(display, t + 5);
    LKT_CHECK(frames_truncated() >= before + 3 && red_at(W / 2, H / 2) == 0,
              "S8.1 after them a frame is whole again", "red %d", red_at(W / 2, H / 2));
}

static void fail_on_alarm(int signal)
{
    (void)signal;
    static const char message[] = "FAIL S8.1 an instanceCount animated to 1e15: the frame took over 60 s\n";
    if (write(2, message, sizeof message - 1) < 0) _exit(3);
    _exit(3);
}

/* instanceCount animated from 3 to `to` over 1 s from `begin`, linear. */
static void animate_count(lk_layer *r, double to, double begin)
{
    lk_animation *a = lk_basic_animation_create("instanceCount");
    lk_animation_set_from_value(a, lk_value_number(3));
    lk_animation_set_to_value(a, lk_value_number(to));
    lk_animation_set_duration(a, 1);
    lk_animation_set_begin_time(a, begin);
    lk_animation_set_timing_function(a, lk_timing_function_named(LK_TIMING_LINEAR));
    lk_layer_remove_all_animations(r);
    lk_layer_add_animation(r, a, "count");
    lk_release(a);
    lk_transaction_flush();
}

/* S7.5, S8.1: an animated instanceCount is drawn as a whole number within
   0...10000 (as lk_replicator_layer_get_instance_count reads it on a
   presentation copy), whatever the animation takes it to: the setter
   refuses counts outside, but a spring to 0 overshoots below it and an
   animation may run to 1e20. Taken as it was, a count beyond Int's range
   trapped (the process died in the frame), a negative one trapped in a
   transform layer's 3D space, and one of 1e15 drew for minutes (the
   watchdog: 60 s). Instances are 10-point red squares 20 points apart. */
static void test_animated_counts(void)
{
    static const struct { double to; int drawn; const char *what; } cases[] = {
        {1e20, 10000, "1e20"}, {-1e300, 0, "-1e300"}, {1e15, 10000, "1e15"}, {-7, 0, "-7"},
    };
    double t = lk_media_time() + 3000;
    char name[160];
    lk_layer *r = lk_replicator_layer_create();
    lk_layer_set_frame(r, lk_rect_make(0, 0, W, H));
    lk_replicator_layer_set_instance_count(r, 3);
    lk_replicator_layer_set_instance_transform(r, lk_transform3d_make_translation(20, 0, 0));
    lk_layer_add_sublayer(r, lkt_layer_new(NULL, 0, 0, 10, 10, lk_color_make(1, 0, 0, 1)));
    lk_layer_add_sublayer(root, r);
    render_at(t);
    signal(SIGALRM, fail_on_alarm);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++, t += 10) {
        animate_count(r, cases[i].to, t);
        /* half-way the count is to / 2 (plus 1.5): far out of range either way */
        alarm(60);
        lk_status s = lk_display_render_frame_at(display, t + 0.5);
        alarm(0);
        snprintf(name, sizeof name, "S8.1 instanceCount animated to %s draws a frame", cases[i].what);
        LKT_CHECK_STATUS(name, s, LK_OK);
        int last = red_at(7 * 20 + 5, 5), first = red_at(5, 5);
        snprintf(name, sizeof name, "S7.5 instanceCount animated to %s draws %d instances", cases[i].what, cases[i].drawn);
        LKT_CHECK(cases[i].drawn ? first > 200 && last > 200 : first == 0 && last == 0, name,
                  "red %d at the first instance, %d at the eighth", first, last);
        lk_layer *p = lk_layer_copy_presentation_at(r, t + 0.5);
        size_t count = p ? lk_replicator_layer_get_instance_count(p) : 99999;
        lk_release(p);
        snprintf(name, sizeof name, "S7.5 a presentation copy's instanceCount animated to %s reads %d", cases[i].what,
                 cases[i].drawn);
        LKT_CHECK(count == (size_t)cases[i].drawn, name, "got %zu", count);
    }
    lk_layer_remove_all_animations(r);
    /* a spring from 3 to 0 (damping 2) overshoots below 0; preservesDepth in
       a transform layer draws the instances in its 3D space */
    lk_layer *space = lk_transform_layer_create();
    lk_layer_set_frame(space, lk_rect_make(0, 0, W, H));
    lk_layer_remove_from_superlayer(r);
    lk_replicator_layer_set_preserves_depth(r, true);
    lk_layer_add_sublayer(space, r);
    lk_layer_add_sublayer(root, space);
    /* the same spring on instanceDelay, a number presented as it runs,
       shows where the count's goes (the count is presented as drawn) */
    static const char *const sprung[] = {"instanceCount", "instanceDelay"};
    for (int i = 0; i < 2; i++) {
        lk_animation *spring = lk_spring_animation_create(sprung[i]);
        lk_animation_set_from_value(spring, lk_value_number(3));
        lk_animation_set_to_value(spring, lk_value_number(0));
        lk_animation_set_damping(spring, 2);
        lk_animation_set_begin_time(spring, t);
        lk_layer_add_animation(r, spring, sprung[i]);
        lk_release(spring);
    }
    lk_transaction_flush();
    int refused = 0, below = 0, unlike = 0;
    for (int k = 0; k <= 40; k++) {
        lk_layer *p = lk_layer_copy_presentation_at(r, t + k * 0.05);
        double v = NAN, count = NAN;
        lk_value value;
        if (p && lk_layer_get_value(p, "instanceDelay", &value) == LK_OK && value.type == LK_VALUE_NUMBER) v = value.as.number;
        if (p && lk_layer_get_value(p, "instanceCount", &value) == LK_OK && value.type == LK_VALUE_NUMBER)
            count = value.as.number;
        if (!p || count != (v < 1 ? 0 : floor(v))) unlike++;
        lk_release(p);
        if (v < 0) below++;
        if (lk_display_render_frame_at(display, t + k * 0.05) != LK_OK) refused++;
    }
    LKT_CHECK(below > 0, "S4.11 the spring takes instanceCount below 0", "below 0 at %d of 41 times", below);
    LKT_CHECK(unlike == 0, "S7.5 ... and it reads by key path as drawn: 0 below 1, else the whole part", "%d of 41 times not",
              unlike);
    LKT_CHECK(refused == 0, "S8.1 a spring overshooting instanceCount below 0 in a transform layer draws every frame",
              "%d frames refused", refused);
    lk_layer_remove_from_superlayer(space);
    lk_release(space);
    lk_release(r);
    render_at(t + 10);
}

/* S7.5: instanceCount is a whole number (NSInteger in CAReplicatorLayer.h);
   animated, it is drawn as the whole part of the interpolated value. On a
   presentation copy its key path reads that, as the typed getter does: at
   0.46 of an animation from 0 to 10 both read 4 (the key path read 4.6). */
static void test_presented_count_by_key_path(void)
{
    double t = lk_media_time() + 2000;
    lk_layer *r = lk_replicator_layer_create();
    lk_layer_set_frame(r, lk_rect_make(0, 0, W, H));
    lk_replicator_layer_set_instance_transform(r, lk_transform3d_make_translation(20, 0, 0));
    lk_layer_add_sublayer(r, lkt_layer_new(NULL, 0, 0, 10, 10, lk_color_make(1, 0, 0, 1)));
    lk_layer_add_sublayer(root, r);
    render_at(t);
    lk_animation *a = lk_basic_animation_create("instanceCount");
    lk_animation_set_from_value(a, lk_value_number(0));
    lk_animation_set_to_value(a, lk_value_number(10));
    lk_animation_set_duration(a, 10);
    lk_animation_set_begin_time(a, t);
    lk_animation_set_timing_function(a, lk_timing_function_named(LK_TIMING_LINEAR));
    lk_layer_add_animation(r, a, "count");
    lk_release(a);
    lk_transaction_flush();
    render_at(t + 4.6);
    lk_layer *p = lk_layer_copy_presentation_at(r, t + 4.6);
    lk_value v = lk_value_none();
    lk_status s = p ? lk_layer_get_value(p, "instanceCount", &v) : LK_ERROR_STATE;
    size_t typed = p ? lk_replicator_layer_get_instance_count(p) : 99999;
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_NUMBER && v.as.number == 4 && typed == 4,
              "S7.5 a presented instanceCount reads the same by key path and typed getter (4 at 4.6)",
              "key path %g (status %d), typed %zu", v.type == LK_VALUE_NUMBER ? v.as.number : NAN, (int)s, typed);
    LKT_CHECK(red_at(3 * 20 + 5, 5) > 200 && red_at(4 * 20 + 5, 5) == 0, "S7.5 ... and four instances are drawn",
              "red %d at the fourth, %d at the fifth", red_at(3 * 20 + 5, 5), red_at(4 * 20 + 5, 5));
    lk_release(p);
    LKT_CHECK(lk_replicator_layer_get_instance_count(r) == 1, "S5.1 the model's instanceCount stays 1", "%zu",
              lk_replicator_layer_get_instance_count(r));
    lk_layer_remove_from_superlayer(r);
    lk_release(r);
    render_at(t + 20);
}

int main(void)
{
    display = lkt_open_display(W, H, "open a display");
    if (!display) return lkt_finish();
    root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(root, lk_color_make(0, 0, 0, 1));
    lk_display_set_root_layer(display, root);
    test_row_and_colours();
    test_spinner();
    test_shadow_tint();
    test_events_without_instance_0();
    test_errors();
    test_limits();
    test_animated_counts();
    test_presented_count_by_key_path();
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
