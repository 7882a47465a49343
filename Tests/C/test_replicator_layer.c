/* Replicator layers (S7.5): a row of instances through a translating
   instanceTransform with colour offsets, multiplying fills and images
   alike, against a cairo reference; the classic spinner (12 instances
   turned 2 pi / 12 apart, instanceDelay = duration / 12, one opacity
   animation on the one sublayer) with each instance's opacity checked at a
   known time; instances are not hit; errors naming the argument.
   Tolerance: channels within 3, antialiased edges within 64 on at most 40
   pixels; spinner opacities within 3/255. */
#include "support/lktest.h"
#include "support/lkt_cairo.h"
#include <math.h>
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
    free(px);
    lk_layer_remove_from_superlayer(r);
    lk_release(r);
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
    test_errors();
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
