/*
 * S6.1 layer decorations through the C API: shadows (blurred, with a
 * shadowPath), masks, masksToBounds with rounded corners under rotation,
 * contentsCenter nine-slice and group opacity, each scene compared with a
 * reference cairo draws (Tests/C/refgen; tolerances where the scenes are
 * described in support/lkt_scenes.c). Then allowsGroupOpacity as a
 * property, and the shadow properties half-way through an animation
 * (S3.3, S4.8): the presentation value, and the frame drawn then equal to
 * the frame of a layer set to that value.
 */
#include "lktest.h"
#include "lkt_scene_render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 120
#define H 100

static void test_allows_group_opacity_property(void)
{
    lk_layer *l = lk_layer_create();
    lk_value v;
    LKT_CHECK(lk_layer_get_allows_group_opacity(l), "allowsGroupOpacity is true by default (as on iOS)",
              "got false");
    LKT_CHECK_STATUS("allowsGroupOpacity can be turned off", lk_layer_set_allows_group_opacity(l, false), LK_OK);
    LKT_CHECK(!lk_layer_get_allows_group_opacity(l), "allowsGroupOpacity reads back false", "got true");
    LKT_CHECK_STATUS("S1.6 allowsGroupOpacity by key path",
                     lk_layer_set_value(l, "allowsGroupOpacity", lk_value_bool(true)), LK_OK);
    LKT_CHECK(lk_layer_get_value(l, "allowsGroupOpacity", &v) == LK_OK && v.type == LK_VALUE_BOOL && v.as.boolean,
              "S1.6 allowsGroupOpacity reads back by key path", "type %d", (int)v.type);
    LKT_CHECK_ERROR("S1.6 allowsGroupOpacity takes a bool",
                    lk_layer_set_value(l, "allowsGroupOpacity", lk_value_color(lk_color_make(1, 1, 1, 1))), LK_ERROR_TYPE_MISMATCH,
                    "allowsGroupOpacity");
    LKT_CHECK_ERROR("S8.1 allowsGroupOpacity on a NULL layer", lk_layer_set_allows_group_opacity(NULL, true),
                    LK_ERROR_INVALID_ARGUMENT, "layer");
    lk_release(l);
}

/* ---- contentsCenter of zero size ------------------------------------------ */

/* S6.1 with Core Animation's rule for contentsCenter: a zero width (height)
   is one source pixel wide, centred there, and that column (row) stretches.
   A 9x9 image, contentsCenter (0.5, 0.5, 0, 0): pixel 4 is the centre. Its
   corners (grey), column 4 (red above and below the centre), row 4 (blue
   left and right) and the centre pixel (green) are distinct, so a 60x40
   layer at (10, 10) must show 4x4 grey corners, red edges top and bottom,
   blue edges left and right and a green 52x32 centre. Slices are drawn
   pixel-aligned and each from its own pixels: every pixel within 2. */
static void test_zero_size_contents_center(void)
{
    uint8_t image[9 * 9 * 4];
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            uint8_t *p = image + (y * 9 + x) * 4;
            uint8_t r = 128, g = 128, b = 128;
            if (x == 4 && y == 4) { r = 0; g = 200; b = 0; }
            else if (x == 4) { r = 220; g = 0; b = 0; }
            else if (y == 4) { r = 0; g = 0; b = 220; }
            p[0] = r; p[1] = g; p[2] = b; p[3] = 255;
        }
    lk_image *img = lk_image_create_from_pixels(9, 9, 9 * 4, LK_PIXEL_FORMAT_RGBA8, image);
    lk_layer *root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(root, lk_color_make(1, 1, 1, 1));
    lk_layer *l = lkt_layer_new(root, 10, 10, 60, 40, lk_color_make(0, 0, 0, 0));
    lk_layer_set_contents(l, img);
    LKT_CHECK_STATUS("S6.1 a zero-size contentsCenter is accepted",
                     lk_layer_set_contents_center(l, lk_rect_make(0.5, 0.5, 0, 0)), LK_OK);
    lk_display *d = lkt_open_display(W, H, "zero-size contentsCenter");
    if (d) {
        lk_display_set_root_layer(d, root);
        lk_transaction_flush();
        uint8_t *f = lkt_render_and_read(d, "zero-size contentsCenter");
        int worst = f ? 0 : 999, wx = -1, wy = -1;
        for (int y = 0; f && y < H; y++)
            for (int x = 0; x < W; x++) {
                int want[3] = { 255, 255, 255 };
                int inside = x >= 10 && x < 70 && y >= 10 && y < 50;
                int cx = x >= 14 && x < 66, cy = y >= 14 && y < 46;
                if (inside) {
                    if (cx && cy) { want[0] = 0; want[1] = 200; want[2] = 0; }
                    else if (cx) { want[0] = 220; want[1] = 0; want[2] = 0; }
                    else if (cy) { want[0] = 0; want[1] = 0; want[2] = 220; }
                    else { want[0] = 128; want[1] = 128; want[2] = 128; }
                }
                for (int c = 0; c < 3; c++) {
                    int diff = abs((int)f[(y * W + x) * 4 + c] - want[c]);
                    if (diff > worst) { worst = diff; wx = x; wy = y; }
                }
            }
        LKT_CHECK(worst <= 2, "S6.1 a zero-size contentsCenter stretches the image's centre pixel, row and column",
                  "pixel (%d, %d) off by %d", wx, wy, worst);
        free(f);
        lk_display_close(d);
    }
    lk_release(root);
    lk_release(img);
}

/* ---- shadow properties half-way through an animation --------------------- */

typedef struct shadow_case {
    const char *key_path;
    lk_value from, to, mid;   /* mid: what the layer shows at half time (linear) */
} shadow_case;

/* A scene with one shadowed layer, its shadow set from `set`. */
static lk_layer *shadow_scene(lk_layer **layer)
{
    lk_layer *root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(root, lk_color_make(1, 1, 1, 1));
    *layer = lkt_layer_new(root, 30, 25, 50, 40, lk_color_make(0.9, 0.5, 0.1, 1));
    lk_layer_set_shadow_opacity(*layer, 0.8);
    lk_layer_set_shadow_radius(*layer, 4);
    lk_layer_set_shadow_offset(*layer, lk_size_make(6, 8));
    lk_layer_set_shadow_color(*layer, lk_color_make(0, 0, 0.5, 1));
    return root;
}

static uint8_t *frame_at(lk_display *display, double t)
{
    uint8_t *pixels = (uint8_t *)malloc((size_t)W * H * 4);
    if (lk_display_render_frame_at(display, t) != LK_OK ||
        lk_display_read_pixels(display, pixels, (size_t)W * 4) != LK_OK) {
        free(pixels);
        return NULL;
    }
    return pixels;
}

static int max_difference(const uint8_t *a, const uint8_t *b)
{
    int worst = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i++) {
        int d = abs((int)a[i] - (int)b[i]);
        if (d > worst) worst = d;
    }
    return worst;
}

static int value_near(lk_value a, lk_value b)
{
    if (a.type != b.type) return 0;
    switch (a.type) {
    case LK_VALUE_NUMBER: return fabs(a.as.number - b.as.number) < 1e-9;
    case LK_VALUE_SIZE:
        return fabs(a.as.size.width - b.as.size.width) < 1e-9 && fabs(a.as.size.height - b.as.size.height) < 1e-9;
    case LK_VALUE_COLOR:
        return fabs(a.as.color.r - b.as.color.r) < 1e-6 && fabs(a.as.color.g - b.as.color.g) < 1e-6 &&
               fabs(a.as.color.b - b.as.color.b) < 1e-6 && fabs(a.as.color.a - b.as.color.a) < 1e-6;
    default: return 0;
    }
}

static void check_mid_animation(const shadow_case *c, lk_layer *animated, lk_layer *still, lk_layer *root_a,
                                lk_layer *root_b, lk_display *da, lk_display *db);

static void test_shadow_mid_animation(const shadow_case *c)
{
    lk_layer *animated, *still;
    lk_layer *root_a = shadow_scene(&animated), *root_b = shadow_scene(&still);
    lk_display *da = lkt_open_display(W, H, c->key_path), *db = lkt_open_display(W, H, c->key_path);
    if (da && db) check_mid_animation(c, animated, still, root_a, root_b, da, db);
    if (da) lk_display_close(da);
    if (db) lk_display_close(db);
    lk_release(root_a);
    lk_release(root_b);
}

static void check_mid_animation(const shadow_case *c, lk_layer *animated, lk_layer *still, lk_layer *root_a,
                                lk_layer *root_b, lk_display *da, lk_display *db)
{
    char name[160];
    lk_display_set_root_layer(da, root_a);
    lk_display_set_root_layer(db, root_b);
    lk_transaction_flush();

    lk_animation *a = lk_basic_animation_create(c->key_path);
    lk_animation_set_from_value(a, c->from);
    lk_animation_set_to_value(a, c->to);
    lk_animation_set_duration(a, 1.0);
    lk_animation_set_timing_function(a, lk_timing_function_named(LK_TIMING_LINEAR));
    lk_layer_add_animation(animated, a, "shadow");
    lk_release(a);
    lk_layer_set_value(still, c->key_path, c->mid);
    lk_transaction_flush();

    double begin = lk_animation_get_begin_time(lk_layer_get_animation(animated, "shadow"));
    lk_layer *p = lk_layer_copy_presentation_at(animated, begin + 0.5);
    lk_value got;
    memset(&got, 0, sizeof got);
    snprintf(name, sizeof name, "S4.8 %s half-way through a linear animation", c->key_path);
    LKT_CHECK(p && lk_layer_get_value(p, c->key_path, &got) == LK_OK && value_near(got, c->mid), name,
              "presentation value differs (type %d)", (int)got.type);
    lk_release(p);

    uint8_t *fa = frame_at(da, begin + 0.5), *fb = frame_at(db, begin + 0.5), *f0 = frame_at(da, begin + 0.0);
    snprintf(name, sizeof name, "S6.1 the frame half-way through a %s animation shows the half-way shadow",
             c->key_path);
    LKT_CHECK(fa && fb && max_difference(fa, fb) <= 1, name, "frames differ by %d", fa && fb ? max_difference(fa, fb) : -1);
    snprintf(name, sizeof name, "S6.1 %s changes the frame (the test can tell)", c->key_path);
    LKT_CHECK(fa && f0 && max_difference(fa, f0) > 8, name, "start and middle differ by only %d",
              fa && f0 ? max_difference(fa, f0) : -1);
    free(fa);
    free(fb);
    free(f0);
}

/* S6.1 S6.4: a border thinner than a pixel gets its own area in every
   pixel: the outline's coverage less the inside's, also where both of its
   edges cross one pixel. A 0.1-point black border on white at x = 10.45
   covers a tenth of each edge pixel: 229.5 (the product outer x (1 -
   inner) drew 178 on top and bottom, and on gles every side). Turned, its
   ink over the frame is its area, 4 x 30 x 0.1 = 12 pixels' worth (both
   backends put in about twice that). Within 3 levels a pixel, 10% of the
   ink. */
static double ink_of(const uint8_t *px, int w, int h)
{
    double ink = 0;
    for (int i = 0; i < w * h; i++) ink += (255.0 - px[i * 4]) / 255.0;
    return ink;
}

static void test_hairline_border(void)
{
    lk_display *d = lkt_open_display(W, H, "open a display for hairline borders");
    if (!d) return;
    lk_layer *root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(root, lk_color_make(1, 1, 1, 1));
    lk_layer *l = lk_layer_create();
    lk_layer_set_frame(l, lk_rect_make(10.45, 10.45, 30, 30));
    lk_layer_set_border_width(l, 0.1);
    lk_layer_set_border_color(l, lk_color_make(0, 0, 0, 1));
    lk_layer_add_sublayer(root, l);
    lk_display_set_root_layer(d, root);
    lk_transaction_flush();
    uint8_t px[W * H * 4];
    lk_display_render_frame_at(d, lk_media_time() + 10);
    lk_display_read_pixels(d, px, W * 4);
    const int at[4][2] = { { 10, 25 }, { 25, 10 }, { 40, 25 }, { 25, 40 } };
    const char *side[4] = { "left", "top", "right", "bottom" };
    for (int k = 0; k < 4; k++) {
        int v = px[(at[k][1] * W + at[k][0]) * 4];
        LKT_CHECK(abs(v - 229) <= 3, "S6.1 S6.4 a 0.1-point border covers a tenth of its edge pixels, on every side",
                  "%s side (%d,%d): %d, want 229.5", side[k], at[k][0], at[k][1], v);
    }
    double ink = ink_of(px, W, H);
    LKT_CHECK(fabs(ink - 12.0) <= 1.2, "S6.1 a 0.1-point border's ink is its area", "%.2f pixels, want 12", ink);
    lk_transaction_set_disable_actions(true);
    lk_layer_set_transform(l, lk_transform3d_make_rotation(0.3, 0, 0, 1));
    lk_transaction_flush();
    lk_display_render_frame_at(d, lk_media_time() + 20);
    lk_display_read_pixels(d, px, W * 4);
    ink = ink_of(px, W, H);
    LKT_CHECK(fabs(ink - 12.0) <= 1.2, "S6.1 turned, a 0.1-point border's ink is still its area", "%.2f pixels, want 12",
              ink);
    lk_release(l);
    lk_release(root);
    lk_display_close(d);
}

int main(void)
{
    lkt_run_scene_suite(LKT_SUITE_DECORATIONS);
    test_allows_group_opacity_property();
    test_zero_size_contents_center();
    test_hairline_border();

    shadow_case cases[4];
    cases[0].key_path = "shadowOpacity";
    cases[0].from = lk_value_number(0.0);
    cases[0].to = lk_value_number(1.0);
    cases[0].mid = lk_value_number(0.5);
    cases[1].key_path = "shadowRadius";
    cases[1].from = lk_value_number(0.0);
    cases[1].to = lk_value_number(12.0);
    cases[1].mid = lk_value_number(6.0);
    cases[2].key_path = "shadowOffset";
    cases[2].from = lk_value_size(lk_size_make(-10, -10));
    cases[2].to = lk_value_size(lk_size_make(20, 10));
    cases[2].mid = lk_value_size(lk_size_make(5, 0));
    cases[3].key_path = "shadowColor";
    cases[3].from = lk_value_color(lk_color_make(1, 0, 0, 1));
    cases[3].to = lk_value_color(lk_color_make(0, 0, 1, 1));
    cases[3].mid = lk_value_color(lk_color_make(0.5, 0, 0.5, 1));
    for (int i = 0; i < 4; i++) test_shadow_mid_animation(&cases[i]);
    return lkt_finish();
}
