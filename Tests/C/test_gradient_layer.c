/* Gradient layers (S7.3): axial, radial and conic gradients with colours,
   locations and start/end points against references drawn in this test
   (cairo for axial and radial; the conic one computed pixel by pixel
   here), and every property half-way through an animation. Tolerance:
   channels within 3 (the conic: 6, its colour table has 1024 steps), edge
   pixels within 48. */
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

static lk_layer *gradient_layer(void)
{
    lk_layer *g = lk_gradient_layer_create();
    lk_layer_set_frame(g, lk_rect_make(0, 0, W, H));
    lk_layer_add_sublayer(root, g);
    return g;
}

static void render(void)
{
    lk_transaction_flush();
    lk_display_render_frame_at(display, lk_media_time() + 60);
}

static const lk_color three[3] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
static const double locations[3] = {0, 0.3, 1};
static const lkt_tolerance smooth = {3, 48, 0, 0};
static const lkt_tolerance conic_tolerance = {6, 48, 40, 0};

static void test_axial_and_radial(void)
{
    lk_layer *g = gradient_layer();
    lk_gradient_layer_set_colors(g, three, 3);
    lk_gradient_layer_set_locations(g, locations, 3);
    lk_gradient_layer_set_start_point(g, lk_point_make(0, 0.5));
    lk_gradient_layer_set_end_point(g, lk_point_make(1, 0.5));
    render();
    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_pattern_t *p = cairo_pattern_create_linear(0, 60, W, 60);
    int i;
    for (i = 0; i < 3; i++) cairo_pattern_add_color_stop_rgba(p, locations[i], three[i].r, three[i].g, three[i].b, 1);
    cairo_set_source(cr, p);
    cairo_paint(cr);
    cairo_pattern_destroy(p);
    lkt_check_against_cairo("S7.3 an axial three-stop gradient with locations", display, cr, smooth);

    /* radial: centred at start, radius the offset to end (here a circle of 50) */
    lk_gradient_layer_set_type(g, LK_GRADIENT_RADIAL);
    lk_gradient_layer_set_start_point(g, lk_point_make(0.5, 0.5));
    lk_gradient_layer_set_end_point(g, lk_point_make(0.5 + 50.0 / W, 0.5 + 50.0 / H));
    lk_gradient_layer_set_locations(g, NULL, 0);
    lk_transaction_set_disable_actions(true);
    render();
    cr = lkt_cairo_begin(W, H);
    p = cairo_pattern_create_radial(80, 60, 0, 80, 60, 50);
    for (i = 0; i < 3; i++) cairo_pattern_add_color_stop_rgba(p, i / 2.0, three[i].r, three[i].g, three[i].b, 1);
    cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD);
    cairo_set_source(cr, p);
    cairo_paint(cr);
    cairo_pattern_destroy(p);
    lkt_check_against_cairo("S7.3 a radial gradient, colours evenly spread", display, cr, smooth);
    lk_layer_remove_from_superlayer(g);
    lk_release(g);
}

/* S7.3: Core Animation lays an axial gradient out in the unit square and
   stretches it over the bounds: (0, 0) -> (1, 1) on a 160 x 120 layer has
   its middle colour on the other diagonal, corner (1, 0) to corner (0, 1),
   where laid out in points it crossed at right angles to the diagonal. The
   reference: t = (x / W + y / H) / 2, in cairo as a linear pattern whose
   gradient is (1 / W, 1 / H) / 2, from (0, 0) to that over its length squared. */
static void test_axial_stretched(void)
{
    lk_layer *g = gradient_layer();
    lk_gradient_layer_set_colors(g, three, 3);
    lk_gradient_layer_set_start_point(g, lk_point_make(0, 0));
    lk_gradient_layer_set_end_point(g, lk_point_make(1, 1));
    render();
    double gx = 0.5 / W, gy = 0.5 / H, len2 = gx * gx + gy * gy;
    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_pattern_t *p = cairo_pattern_create_linear(0, 0, gx / len2, gy / len2);
    for (int i = 0; i < 3; i++) cairo_pattern_add_color_stop_rgba(p, i / 2.0, three[i].r, three[i].g, three[i].b, 1);
    cairo_set_source(cr, p);
    cairo_paint(cr);
    cairo_pattern_destroy(p);
    lkt_check_against_cairo("S7.3 an axial gradient is laid out in the unit square and stretched (diagonal, 160x120)",
                            display, cr, smooth);
    uint8_t px[W * H * 4];
    if (lk_display_read_pixels(display, px, W * 4) == LK_OK) {
        const uint8_t *tr = px + (W - 1) * 4, *bl = px + (size_t)(H - 1) * W * 4;
        LKT_CHECK(abs((int)tr[1] - (int)bl[1]) <= 8 && tr[1] > 230 && bl[1] > 230,
                  "S7.3 ... its middle colour runs corner (1, 0) to corner (0, 1)", "top right %d,%d,%d, bottom left %d,%d,%d",
                  tr[0], tr[1], tr[2], bl[0], bl[1], bl[2]);
    }
    lk_layer_remove_from_superlayer(g);
    lk_release(g);
}

static void test_conic(void)
{
    static const lk_color colors[4] = {{1, 1, 0, 1}, {1, 0, 1, 1}, {0, 1, 1, 1}, {1, 1, 0, 1}};
    lk_layer *g = gradient_layer();
    lk_gradient_layer_set_type(g, LK_GRADIENT_CONIC);
    lk_gradient_layer_set_colors(g, colors, 4);
    lk_gradient_layer_set_start_point(g, lk_point_make(0.5, 0.5));
    lk_gradient_layer_set_end_point(g, lk_point_make(1, 0.5)); /* angle 0 to the right */
    render();
    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_surface_t *s = cairo_get_target(cr);
    unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s), x, y;
    cairo_surface_flush(s);
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            double a = atan2(y + 0.5 - 60, x + 0.5 - 80);
            double u = a / (2 * LKT_PI), f, seg;
            u -= floor(u);
            seg = u * 3;
            int k = (int)seg;
            if (k > 2) k = 2;
            f = seg - k;
            double r = colors[k].r + (colors[k + 1].r - colors[k].r) * f;
            double gg = colors[k].g + (colors[k + 1].g - colors[k].g) * f;
            double b = colors[k].b + (colors[k + 1].b - colors[k].b) * f;
            ((uint32_t *)(void *)(data + y * stride))[x] = 0xff000000u | (uint32_t)lround(r * 255) << 16 |
                                                           (uint32_t)lround(gg * 255) << 8 | (uint32_t)lround(b * 255);
        }
    }
    cairo_surface_mark_dirty(s);
    lkt_check_against_cairo("S7.3 a conic gradient around the centre, clockwise from the right", display, cr,
                            conic_tolerance);
    lk_layer_remove_from_superlayer(g);
    lk_release(g);
}

/* S7.3, S6.2: the conic gradient's seam, where location 0 (red) meets 1
   (blue), is anti-aliased like an edge. The centre is at (80, 60.5), so the
   seam runs to the right through the middle of row 60: those pixels are
   half red, half blue. The reference is the exact gradient (no colour
   table) averaged over 16x16 samples per pixel. Within 6 where flat; the
   pixels around the centre, where the colour turns within a pixel, within
   48 (at most 40); a hard seam puts 79 pixels 127 off and fails. */
static void test_conic_seam(void)
{
    static const lk_color colors[2] = {{1, 0, 0, 1}, {0, 0, 1, 1}};
    lk_layer *g = gradient_layer();
    lk_gradient_layer_set_type(g, LK_GRADIENT_CONIC);
    lk_gradient_layer_set_colors(g, colors, 2);
    lk_gradient_layer_set_start_point(g, lk_point_make(0.5, 60.5 / H));
    lk_gradient_layer_set_end_point(g, lk_point_make(1, 60.5 / H));
    render();
    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_surface_t *s = cairo_get_target(cr);
    unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s), x, y, i, j;
    cairo_surface_flush(s);
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            double r = 0, b = 0;
            for (j = 0; j < 16; j++)
                for (i = 0; i < 16; i++) {
                    double u = atan2(y + (j + 0.5) / 16 - 60.5, x + (i + 0.5) / 16 - 80) / (2 * LKT_PI);
                    u -= floor(u);
                    r += (1 - u) / 256;
                    b += u / 256;
                }
            ((uint32_t *)(void *)(data + y * stride))[x] = 0xff000000u | (uint32_t)lround(r * 255) << 16 |
                                                           (uint32_t)lround(b * 255);
        }
    }
    cairo_surface_mark_dirty(s);
    lkt_check_against_cairo("S7.3 S6.2 the conic gradient's seam (location 0 against 1) is anti-aliased", display, cr,
                            conic_tolerance);
    lk_layer_remove_from_superlayer(g);
    lk_release(g);
}

static double begin_of(lk_layer *l, const char *key)
{
    lk_animation *a = lk_layer_get_animation(l, key);
    return a ? lk_animation_get_begin_time(a) : NAN;
}

static void test_animations(void)
{
    lk_layer *g = gradient_layer();
    lk_gradient_layer_set_colors(g, three, 3);
    render();
    /* colours: a whole-list change animates element by element (implicit) */
    {
        static const lk_color to[3] = {{0, 0, 1, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}};
        lk_color mid[3];
        lk_transaction_begin();
        lk_transaction_set_animation_duration(1);
        lk_transaction_set_animation_timing_function(lk_timing_function_named(LK_TIMING_LINEAR));
        lk_gradient_layer_set_colors(g, to, 3);
        lk_transaction_commit();
        lk_layer *p = lk_layer_copy_presentation_at(g, begin_of(g, "colors") + 0.5);
        size_t n = p ? lk_gradient_layer_get_colors(p, mid, 3) : 0;
        LKT_CHECK(n == 3 && lkt_color_near(mid[0], lk_color_make(0.5, 0, 0.5, 1), 1e-9) &&
                      lkt_color_near(mid[1], lk_color_make(0.5, 0.5, 0, 1), 1e-9),
                  "S7.3 colors half-way through an implicit animation", "n %zu, first (%g,%g,%g)", n, mid[0].r, mid[0].g, mid[0].b);
        lk_release(p);
    }
    /* one colour by key path (explicit) */
    {
        lk_animation *a = lk_basic_animation_create("colors.1");
        lk_value v;
        lk_animation_set_from_value(a, lk_value_color(lk_color_make(1, 1, 1, 1)));
        lk_animation_set_to_value(a, lk_value_color(lk_color_make(0, 0, 0, 1)));
        lk_animation_set_duration(a, 1);
        LKT_CHECK_STATUS("S7.3 an animation of colors.1 is accepted", lk_layer_add_animation(g, a, "c1"), LK_OK);
        lk_release(a);
        lk_transaction_flush();
        lk_layer *p = lk_layer_copy_presentation_at(g, begin_of(g, "c1") + 0.5);
        LKT_CHECK(p && lk_layer_get_value(p, "colors.1", &v) == LK_OK && v.type == LK_VALUE_COLOR &&
                      lkt_color_near(v.as.color, lk_color_make(0.5, 0.5, 0.5, 1), 1e-9),
                  "S7.3 colors.1 half-way through its animation", "%s", lk_last_error());
        lk_release(p);
    }
    /* locations, startPoint, endPoint, type */
    {
        static const double from[3] = {0, 0.5, 1}, to[3] = {0, 0.1, 0.5};
        double mid[3] = {0, 0, 0};
        lk_transaction_set_disable_actions(true);
        lk_gradient_layer_set_locations(g, from, 3);
        lk_transaction_flush();
        lk_transaction_begin();
        lk_transaction_set_animation_duration(1);
        lk_transaction_set_animation_timing_function(lk_timing_function_named(LK_TIMING_LINEAR));
        lk_gradient_layer_set_locations(g, to, 3);
        lk_gradient_layer_set_start_point(g, lk_point_make(0, 0));
        lk_gradient_layer_set_end_point(g, lk_point_make(1, 0));
        lk_gradient_layer_set_type(g, LK_GRADIENT_RADIAL);
        lk_transaction_commit();
        double b = begin_of(g, "locations");
        lk_layer *p = lk_layer_copy_presentation_at(g, b + 0.5);
        lk_gradient_layer_get_locations(p, mid, 3);
        LKT_CHECK(fabs(mid[1] - 0.3) < 1e-9 && fabs(mid[2] - 0.75) < 1e-9, "S7.3 locations half-way",
                  "got %g %g %g", mid[0], mid[1], mid[2]);
        LKT_CHECK_POINT("S7.3 startPoint half-way", lk_gradient_layer_get_start_point(p), lk_point_make(0.25, 0), 1e-9);
        LKT_CHECK_POINT("S7.3 endPoint half-way", lk_gradient_layer_get_end_point(p), lk_point_make(0.75, 0.5), 1e-9);
        LKT_CHECK(lk_gradient_layer_get_type(p) == LK_GRADIENT_RADIAL, "S7.3 type switches half-way (a discrete value)",
                  "got %d", (int)lk_gradient_layer_get_type(p));
        lk_release(p);
        p = lk_layer_copy_presentation_at(g, b + 0.25);
        LKT_CHECK(lk_gradient_layer_get_type(p) == LK_GRADIENT_AXIAL, "S7.3 type is the old one a quarter of the way",
                  "got %d", (int)lk_gradient_layer_get_type(p));
        lk_release(p);
    }
    lk_layer_remove_from_superlayer(g);
    lk_release(g);
    render();
}

/* The frame at media time t (later than the last one drawn), read back;
   the render's status. */
static lk_status frame_at(double t, uint8_t *px)
{
    lk_transaction_flush();
    lk_status status = lk_display_render_frame_at(display, t);
    lk_display_read_pixels(display, px, W * 4);
    return status;
}

static int largest_difference(const uint8_t *a, const uint8_t *b)
{
    int worst = 0;
    for (int i = 0; i < W * H * 4; i++) {
        int d = abs((int)a[i] - (int)b[i]);
        if (d > worst) worst = d;
    }
    return worst;
}

/* An animation of locations.i from `from` to `to`, linear, 1 s. */
static void animate_location(lk_layer *g, int i, double from, double to, lk_timing_function *curve)
{
    char key[16];
    snprintf(key, sizeof key, "locations.%d", i);
    lk_animation *a = lk_basic_animation_create(key);
    lk_animation_set_from_value(a, lk_value_number(from));
    lk_animation_set_to_value(a, lk_value_number(to));
    lk_animation_set_duration(a, 1);
    lk_animation_set_timing_function(a, curve ? curve : lk_timing_function_named(LK_TIMING_LINEAR));
    lk_layer_add_animation(g, a, key);
    lk_release(a);
}

/* Sets the model's stops at once (no animation). */
static void set_stops(lk_layer *g, const lk_color *colors, const double *at, size_t n)
{
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_remove_all_animations(g);
    lk_gradient_layer_set_colors(g, colors, n);
    lk_gradient_layer_set_locations(g, at, n);
    lk_transaction_commit();
}

/* S7.3, S8.1, S4.7: locations animated out of 0...1 or past each other
   draw the gradient those stops make over 0...1 (taken in order of
   location; beyond the ends the end colours extend). The shimmer recipe
   slides three stops from -1...0 to 1...2; an overshooting curve takes a
   location past 1; one location animated past its neighbour reorders
   them. Each frame is compared with the same gradient set in the model
   with in-range locations (within 1: the two stop lists differ). The
   backends refused such a frame whole: nothing of it was drawn, and the
   render failed (found by an acceptance probe porting the shimmer). */
static void test_locations_animated_out_of_range(void)
{
    static const lk_color R = {1, 0, 0, 1}, G = {0, 1, 0, 1}, B = {0, 0, 1, 1};
    static const double spread[3] = {0, 0.5, 1};
    static const lk_gradient_type types[3] = {LK_GRADIENT_AXIAL, LK_GRADIENT_RADIAL, LK_GRADIENT_CONIC};
    static const char *type_names[3] = {"axial", "radial", "conic"};
    uint8_t *animated = (uint8_t *)malloc(W * H * 4), *model = (uint8_t *)malloc(W * H * 4);
    uint8_t *before = (uint8_t *)malloc(W * H * 4);
    lk_layer *g = gradient_layer();
    render();   /* (after the root's sublayers fade, S3.3) */
    char name[200];
    for (int k = 0; k < 3; k++) {
        lk_gradient_layer_set_type(g, types[k]);
        lk_gradient_layer_set_start_point(g, lk_point_make(0.2, 0.4));
        lk_gradient_layer_set_end_point(g, lk_point_make(0.8, 0.9));
        static const struct { double t; lk_color colors[3]; const char *what; } shimmer[] = {
            {0.25, {{0, 1, 0, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}}, "stops at -0.5, 0, 0.5"},
            {0.75, {{1, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}}, "stops at 0.5, 1, 1.5"},
        };
        for (size_t c = 0; c < 2; c++) {
            lk_color three_stops[3] = {R, G, B};
            set_stops(g, three_stops, spread, 3);
            frame_at(lk_media_time() + 60, before);
            lk_transaction_begin();
            animate_location(g, 0, -1, 1, NULL);
            animate_location(g, 1, -0.5, 1.5, NULL);
            animate_location(g, 2, 0, 2, NULL);
            lk_transaction_commit();
            lk_transaction_flush();
            double b = begin_of(g, "locations.0");
            snprintf(name, sizeof name, "S8.1 a %s gradient with %s (shimmer) renders", type_names[k], shimmer[c].what);
            LKT_CHECK_STATUS(name, frame_at(b + shimmer[c].t, animated), LK_OK);
            set_stops(g, shimmer[c].colors, spread, 3);
            frame_at(b + 2, model);
            int d = largest_difference(animated, model), moved = largest_difference(animated, before);
            snprintf(name, sizeof name, "S7.3 a %s gradient with %s draws its 0...1 part", type_names[k], shimmer[c].what);
            LKT_CHECK(d <= 1 && moved > 128, name,
                      "largest difference %d from the same gradient in range, %d from the frame before", d, moved);
        }
    }
    lk_gradient_layer_set_type(g, LK_GRADIENT_AXIAL);
    /* locations.0 from 0 to 0.9 past 0.5: at 0.8 the stops are G 0.5, R 0.8, B 1 */
    {
        lk_color three_stops[3] = {R, G, B};
        set_stops(g, three_stops, spread, 3);
        animate_location(g, 0, 0, 0.9, NULL);
        lk_transaction_flush();
        double b = begin_of(g, "locations.0");
        LKT_CHECK_STATUS("S8.1 a location animated past its neighbour renders", frame_at(b + 0.8 / 0.9, animated), LK_OK);
        static const lk_color sorted[3] = {{0, 1, 0, 1}, {1, 0, 0, 1}, {0, 0, 1, 1}};
        static const double at[3] = {0.5, 0.8, 1};
        set_stops(g, sorted, at, 3);
        frame_at(b + 2, model);
        int d = largest_difference(animated, model);
        LKT_CHECK(d <= 1, "S7.3 a location past its neighbour: the stops drawn in order of location",
                  "largest difference %d", d);
    }
    /* S4.7: an overshooting curve takes locations.1 (0.2 to 1) past 1 */
    {
        lk_color three_stops[3] = {R, G, B};
        static const double start[3] = {0, 0.2, 1};
        set_stops(g, three_stops, start, 3);
        lk_timing_function *back = lk_timing_function_create(0.68, -0.55, 0.265, 1.55);
        animate_location(g, 1, 0.2, 1, back);
        lk_release(back);
        lk_transaction_flush();
        double b = begin_of(g, "locations.1"), got[3] = {0, 0, 0};
        lk_layer *p = lk_layer_copy_presentation_at(g, b + 0.8);
        if (p) lk_gradient_layer_get_locations(p, got, 3);
        lk_release(p);
        LKT_CHECK(got[1] > 1, "S4.7 the overshooting curve takes locations.1 past 1", "locations.1 %g", got[1]);
        LKT_CHECK_STATUS("S8.1 a location overshooting 1 renders", frame_at(b + 0.8, animated), LK_OK);
        /* R 0, B 1, G beyond: over 0...1 the gradient is R to B */
        static const lk_color two[2] = {{1, 0, 0, 1}, {0, 0, 1, 1}};
        static const double ends[2] = {0, 1};
        set_stops(g, two, ends, 2);
        frame_at(b + 2, model);
        int d = largest_difference(animated, model);
        LKT_CHECK(d <= 1, "S7.3 a location overshooting 1 is drawn beyond the end", "largest difference %d", d);
    }
    free(animated);
    free(model);
    free(before);
    lk_layer_remove_from_superlayer(g);
    lk_release(g);
    render();
}

static void test_errors(void)
{
    lk_layer *g = lk_gradient_layer_create();
    static const double bad[2] = {0.6, 0.2};
    lk_value v;
    LKT_CHECK_ERROR("S7.3 locations out of order are refused", lk_gradient_layer_set_locations(g, bad, 2),
                    LK_ERROR_INVALID_ARGUMENT, "less than");
    LKT_CHECK_ERROR("S7.3 colors NULL with a count is refused", lk_gradient_layer_set_colors(g, NULL, 2),
                    LK_ERROR_INVALID_ARGUMENT, "colors");
    LKT_CHECK_ERROR("S1.6 a list has no lk_value: the message says how to read it", lk_layer_get_value(g, "colors", &v),
                    LK_ERROR_TYPE_MISMATCH, "lk_gradient_layer_get_colors");
    LKT_CHECK_ERROR("S1.6 colors.5 beyond the list", lk_layer_get_value(g, "colors.5", &v), LK_ERROR_UNKNOWN_KEY_PATH, "beyond");
    LKT_CHECK_POINT("S7.3 default startPoint (0.5, 0)", lk_gradient_layer_get_start_point(g), lk_point_make(0.5, 0), 0);
    LKT_CHECK_POINT("S7.3 default endPoint (0.5, 1)", lk_gradient_layer_get_end_point(g), lk_point_make(0.5, 1), 0);
    LKT_CHECK_STATUS("S1.6 type by key path", lk_layer_set_value(g, "type", lk_value_string("conic")), LK_OK);
    LKT_CHECK(lk_gradient_layer_get_type(g) == LK_GRADIENT_CONIC, "S1.6 type read back", "got %d", (int)lk_gradient_layer_get_type(g));
    lk_release(g);
}

/* S7.3: a conic gradient layer over 8192 pixels a side is drawn (at fewer
   pixels, stretched), as axial and radial ones are; it drew nothing. Two
   colours a quarter turn apart: the frame shows both. */
static void test_wide_conic(void)
{
    lk_layer *g = lk_gradient_layer_create();
    lk_color two[2] = {{1, 0, 0, 1}, {0, 0, 1, 1}};
    lk_gradient_layer_set_colors(g, two, 2);
    lk_gradient_layer_set_type(g, LK_GRADIENT_CONIC);
    lk_gradient_layer_set_start_point(g, lk_point_make(0.01, 0.5));
    lk_layer_add_sublayer(root, g);
    static const struct { double width, scale; } cases[] = {{9000, 1}, {3000, 3}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lk_transaction_begin();
        lk_transaction_set_disable_actions(true);
        lk_layer_set_frame(g, lk_rect_make(0, 0, cases[i].width, H));
        lk_layer_set_contents_scale(g, cases[i].scale);
        lk_transaction_commit();
        render();
        uint8_t *px = (uint8_t *)malloc(W * H * 4);
        lk_display_read_pixels(display, px, W * 4);
        int drawn = 0;
        for (int k = 0; k < W * H; k++)
            if (px[k * 4] > 32 || px[k * 4 + 2] > 32) drawn++;
        free(px);
        char name[160];
        snprintf(name, sizeof name, "S7.3 a conic gradient %g points wide at scale %g is drawn", cases[i].width,
                 cases[i].scale);
        LKT_CHECK(drawn == W * H, name, "%d of %d pixels drawn", drawn, W * H);
    }
    lk_layer_remove_from_superlayer(g);
    lk_release(g);
    lk_transaction_flush();
}

/* Start and end points brought almost together (an animation of them
   passes there): an axial gradient is still a hard step at the start, the
   first colour behind it and the last beyond; a radial one that small
   covers no pixel centre, the last colour everywhere as for equal points.
   Software took axial vectors under its 16.16 resolution for none (red all
   over) and drew no radial one; gles, from floats of both points, drew
   the last colour. */
static void test_points_almost_equal(void)
{
    lk_layer *g = gradient_layer();
    lk_color two[2] = {{1, 0, 0, 1}, {0, 0, 1, 1}};
    lk_gradient_layer_set_colors(g, two, 2);
    static const double offsets[] = {1e-7, 1e-9, 1e-12, 1e-15};
    uint8_t *px = (uint8_t *)malloc(W * H * 4);
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
        lk_gradient_layer_set_type(g, LK_GRADIENT_AXIAL);
        lk_gradient_layer_set_start_point(g, lk_point_make(0.5, 0.5));
        lk_gradient_layer_set_end_point(g, lk_point_make(0.5, 0.5 + offsets[i]));
        render();
        lk_display_read_pixels(display, px, W * 4);
        const uint8_t *above = px + (20 * W + 30) * 4, *below = px + (100 * W + 130) * 4;
        char name[160];
        snprintf(name, sizeof name, "S7.3 axial gradient, end %g below the start: first colour above, last below", offsets[i]);
        LKT_CHECK(above[0] == 255 && above[2] == 0 && below[0] == 0 && below[2] == 255, name,
                  "above (%d, %d, %d), below (%d, %d, %d)", above[0], above[1], above[2], below[0], below[1], below[2]);
        lk_gradient_layer_set_type(g, LK_GRADIENT_RADIAL);
        lk_gradient_layer_set_end_point(g, lk_point_make(0.5 + offsets[i], 0.5 + offsets[i]));
        render();
        lk_display_read_pixels(display, px, W * 4);
        int blue = 0;
        for (int k = 0; k < W * H; k++) blue += px[k * 4] == 0 && px[k * 4 + 2] == 255 && px[k * 4 + 3] == 255;
        snprintf(name, sizeof name, "S7.3 radial gradient, radii %g: the last colour everywhere", offsets[i]);
        LKT_CHECK(blue == W * H, name, "%d of %d pixels blue", blue, W * H);
    }
    free(px);
    lk_layer_remove_from_superlayer(g);
    lk_release(g);
    lk_transaction_flush();
}

/* S7.3: start and end points anywhere, mapped to the bounds: a start point
   or an extent tens of thousands of points off the layer still draws the
   gradient's colours over the bounds (the layer sees only the end of it,
   so the stops are bunched there). Software drew nothing past 16.16's
   range (~32,768 points), skipping the op or wrapping its coordinates; gles
   and the canvas drew it. References from cairo, in doubles. Tolerance:
   channels within 3 on software; within 8 on gles, whose fragment
   locations are floats (6 levels off where the layer is the last 0.1% of
   a gradient 160,000 points long). */
static void test_far_points(void)
{
    static const lkt_tolerance gles_far = {8, 48, 0, 0};
    const lkt_tolerance tolerance = strcmp(lkt_backend(), "gles") == 0 ? gles_far : smooth;
    lk_layer *g = gradient_layer();
    const double bunched[3] = {0, 0.999, 1};
    lk_gradient_layer_set_colors(g, three, 3);
    lk_gradient_layer_set_locations(g, bunched, 3);
    static const struct { lk_gradient_type type; double sx, sy, ex, ey; const char *name; } cases[] = {
        /* the start 160,000 points to the left: the layer is t in [0.999, 1] */
        { LK_GRADIENT_AXIAL, -1000, 0.5, 1, 0.5, "S7.3 an axial gradient from 160,000 points off the layer" },
        /* the start within the layer, the end 64,000 points below it */
        { LK_GRADIENT_AXIAL, 0.5, 0, 0.5, 534, "S7.3 an axial gradient whose end is 64,000 points off the layer" },
        /* a circle of radius 40,000 centred on the layer */
        { LK_GRADIENT_RADIAL, 0.5, 0.5, 0.5 + 40000.0 / W, 0.5 + 40000.0 / H,
          "S7.3 a radial gradient of radius 40,000 points" },
        /* a circle of radius 40,100 centred 40,000 points to the left */
        { LK_GRADIENT_RADIAL, -250, 0.5, -250 + 40100.0 / W, 0.5 + 40100.0 / H,
          "S7.3 a radial gradient centred 40,000 points off the layer" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lk_transaction_begin();
        lk_transaction_set_disable_actions(true);
        lk_gradient_layer_set_type(g, cases[i].type);
        lk_gradient_layer_set_start_point(g, lk_point_make(cases[i].sx, cases[i].sy));
        lk_gradient_layer_set_end_point(g, lk_point_make(cases[i].ex, cases[i].ey));
        lk_transaction_commit();
        render();
        double x0 = cases[i].sx * W, y0 = cases[i].sy * H, x1 = cases[i].ex * W, y1 = cases[i].ey * H;
        cairo_t *cr = lkt_cairo_begin(W, H);
        cairo_pattern_t *p = cases[i].type == LK_GRADIENT_AXIAL
                                 ? cairo_pattern_create_linear(x0, y0, x1, y1)
                                 : cairo_pattern_create_radial(x0, y0, 0, x0, y0, fabs(x1 - x0));
        for (int k = 0; k < 3; k++)
            cairo_pattern_add_color_stop_rgba(p, bunched[k], three[k].r, three[k].g, three[k].b, 1);
        cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD);
        cairo_set_source(cr, p);
        cairo_paint(cr);
        cairo_pattern_destroy(p);
        lkt_check_against_cairo(cases[i].name, display, cr, tolerance);
    }
    lk_layer_remove_from_superlayer(g);
    lk_release(g);
    lk_transaction_flush();
}

int main(void)
{
    display = lkt_open_display(W, H, "open a software display");
    if (!display) return lkt_finish();
    root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_display_set_root_layer(display, root);
    test_axial_and_radial();
    test_axial_stretched();
    test_conic();
    test_conic_seam();
    test_wide_conic();
    test_points_almost_equal();
    test_far_points();
    test_animations();
    test_locations_animated_out_of_range();
    test_errors();
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
