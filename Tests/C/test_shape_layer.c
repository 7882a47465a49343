/* Shape layers (S7.1): fill and stroke of a path with fill rule, width,
   caps, joins, miter limit, dashes and strokeStart/End, against references
   drawn by cairo in this test; every animatable property half-way through
   an animation; path morphs; caching (nothing re-rasterized when nothing
   changed). Tolerance: channels within 3, anti-aliased edge pixels within
   48 (at most 400 per scene), no other pixel off. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* alarm */
#endif
#include "support/lktest.h"
#include "support/lkt_cairo.h"
#include <math.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 200
#define H 200

static lk_display *display;
static lk_layer *root;
static const lkt_tolerance tolerance = {3, 48, 400, 0};

static lk_layer *shape_layer(void)
{
    lk_layer *s = lk_shape_layer_create();
    lk_layer_set_frame(s, lk_rect_make(0, 0, W, H));
    lk_layer_add_sublayer(root, s);
    return s;
}

static void render(void)
{
    lk_transaction_flush();
    lk_display_render_frame_at(display, lk_media_time() + 60);
}

/* a rounded rect whose top edge is a Bézier wave */
static lk_path *wave_path(void)
{
    lk_path *p = lk_path_create();
    lk_path_move_to(p, 30, 60);
    lk_path_curve_to(p, 70, 20, 110, 100, 170, 60);
    lk_path_line_to(p, 170, 150);
    lk_path_quad_to(p, 170, 170, 150, 170);
    lk_path_line_to(p, 50, 170);
    lk_path_quad_to(p, 30, 170, 30, 150);
    lk_path_close(p);
    return p;
}

static void cairo_wave(cairo_t *cr)
{
    cairo_move_to(cr, 30, 60);
    cairo_curve_to(cr, 70, 20, 110, 100, 170, 60);
    cairo_line_to(cr, 170, 150);
    /* quadratic (170,170) to (150,170) as a cubic */
    cairo_curve_to(cr, 170, 150 + 2.0 / 3 * 20, 150 + 2.0 / 3 * 20, 170, 150, 170);
    cairo_line_to(cr, 50, 170);
    cairo_curve_to(cr, 50 - 2.0 / 3 * 20, 170, 30, 150 + 2.0 / 3 * 20, 30, 150);
    cairo_close_path(cr);
}

static void test_fill_and_stroke(void)
{
    lk_layer *s = shape_layer();
    lk_path *p = wave_path();
    lk_shape_layer_set_path(s, p);
    lk_shape_layer_set_fill_color(s, lk_color_make(0.2, 0.6, 1, 1));
    lk_shape_layer_set_stroke_color(s, lk_color_make(1, 0.8, 0.1, 1));
    lk_shape_layer_set_line_width(s, 6);
    lk_shape_layer_set_line_join(s, LK_LINE_JOIN_ROUND);
    render();
    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_wave(cr);
    cairo_set_source_rgba(cr, 0.2, 0.6, 1, 1);
    cairo_fill_preserve(cr);
    cairo_set_line_width(cr, 6);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_source_rgba(cr, 1, 0.8, 0.1, 1);
    cairo_stroke(cr);
    lkt_check_against_cairo("S7.1 fill and stroke of a Bezier wave in a rounded rect", display, cr, tolerance);

    /* the path is in the layer's coordinates: moving the layer moves it */
    lk_transaction_set_disable_actions(true);
    lk_layer_set_frame(s, lk_rect_make(10, 20, W, H));
    render();
    cr = lkt_cairo_begin(W, H);
    cairo_translate(cr, 10, 20);
    cairo_wave(cr);
    cairo_set_source_rgba(cr, 0.2, 0.6, 1, 1);
    cairo_fill_preserve(cr);
    cairo_set_line_width(cr, 6);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_source_rgba(cr, 1, 0.8, 0.1, 1);
    cairo_stroke(cr);
    lkt_check_against_cairo("S7.1 the path is in the layer's coordinates", display, cr, tolerance);
    lk_release(p);
    lk_layer_remove_from_superlayer(s);
    lk_release(s);
    render();
}

static void test_even_odd(void)
{
    int rule;
    for (rule = 0; rule < 2; rule++) {
        lk_layer *s = shape_layer();
        lk_path *p = lk_path_create();
        /* a five-pointed star: its centre is inside by non-zero, outside by even-odd */
        int i;
        for (i = 0; i < 5; i++) {
            double a = -LKT_PI / 2 + i * 4 * LKT_PI / 5;
            if (i == 0) lk_path_move_to(p, 100 + 80 * cos(a), 100 + 80 * sin(a));
            else lk_path_line_to(p, 100 + 80 * cos(a), 100 + 80 * sin(a));
        }
        lk_path_close(p);
        lk_path_add_rect(p, lk_rect_make(20, 20, 30, 30));
        lk_shape_layer_set_path(s, p);
        lk_shape_layer_set_fill_color(s, lk_color_make(0.9, 0.3, 0.3, 1));
        lk_shape_layer_set_fill_rule(s, rule ? LK_FILL_RULE_EVEN_ODD : LK_FILL_RULE_NON_ZERO);
        render();
        cairo_t *cr = lkt_cairo_begin(W, H);
        for (i = 0; i < 5; i++) {
            double a = -LKT_PI / 2 + i * 4 * LKT_PI / 5;
            if (i == 0) cairo_move_to(cr, 100 + 80 * cos(a), 100 + 80 * sin(a));
            else cairo_line_to(cr, 100 + 80 * cos(a), 100 + 80 * sin(a));
        }
        cairo_close_path(cr);
        cairo_rectangle(cr, 20, 20, 30, 30);
        cairo_set_fill_rule(cr, rule ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
        cairo_set_source_rgb(cr, 0.9, 0.3, 0.3);
        cairo_fill(cr);
        lkt_check_against_cairo(rule ? "S7.1 even-odd fill of a star" : "S7.1 non-zero fill of a star",
                                display, cr, tolerance);
        uint8_t *px = lkt_render_and_read(display, "read");
        if (px) {
            const uint8_t *c = px + (100 * W + 100) * 4;
            LKT_CHECK(rule ? c[0] == 0 : c[0] > 200, rule ? "S7.1 even-odd leaves the star's centre empty"
                                                          : "S7.1 non-zero fills the star's centre",
                      "centre pixel %u,%u,%u", c[0], c[1], c[2]);
            free(px);
        }
        lk_release(p);
        lk_layer_remove_from_superlayer(s);
        lk_release(s);
    }
}

static void test_dashes_caps_joins(void)
{
    static const double dashes[] = {14, 6, 4, 6};
    int join;
    for (join = 0; join < 3; join++) {
        lk_layer *s = shape_layer();
        lk_path *p = lk_path_create();
        lk_path_move_to(p, 30, 40);
        lk_path_line_to(p, 170, 40);
        lk_path_line_to(p, 60, 110);   /* a sharp turn: the miter is long */
        lk_path_line_to(p, 170, 170);
        lk_shape_layer_set_path(s, p);
        lk_shape_layer_set_fill_color(s, lk_color_make(0, 0, 0, 0));
        lk_shape_layer_set_stroke_color(s, lk_color_make(0.3, 1, 0.4, 1));
        lk_shape_layer_set_line_width(s, 14);
        lk_shape_layer_set_line_join(s, (lk_line_join)join);
        lk_shape_layer_set_line_cap(s, join == 0 ? LK_LINE_CAP_SQUARE : join == 1 ? LK_LINE_CAP_ROUND : LK_LINE_CAP_BUTT);
        lk_shape_layer_set_miter_limit(s, 4);
        render();
        cairo_t *cr = lkt_cairo_begin(W, H);
        cairo_move_to(cr, 30, 40);
        cairo_line_to(cr, 170, 40);
        cairo_line_to(cr, 60, 110);
        cairo_line_to(cr, 170, 170);
        cairo_set_line_width(cr, 14);
        cairo_set_line_join(cr, join == 0 ? CAIRO_LINE_JOIN_MITER : join == 1 ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_BEVEL);
        cairo_set_line_cap(cr, join == 0 ? CAIRO_LINE_CAP_SQUARE : join == 1 ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
        cairo_set_miter_limit(cr, 4);
        cairo_set_source_rgb(cr, 0.3, 1, 0.4);
        cairo_stroke(cr);
        lkt_check_against_cairo(join == 0 ? "S7.1 miter joins and square caps"
                                : join == 1 ? "S7.1 round joins and round caps" : "S7.1 bevel joins and butt caps",
                                display, cr, tolerance);
        /* the same with a dash pattern and phase */
        lk_transaction_set_disable_actions(true);
        lk_shape_layer_set_line_width(s, 5);
        lk_shape_layer_set_line_dash_pattern(s, dashes, 4);
        lk_shape_layer_set_line_dash_phase(s, 5 + join * 3);
        render();
        cr = lkt_cairo_begin(W, H);
        cairo_move_to(cr, 30, 40);
        cairo_line_to(cr, 170, 40);
        cairo_line_to(cr, 60, 110);
        cairo_line_to(cr, 170, 170);
        cairo_set_line_width(cr, 5);
        cairo_set_line_join(cr, join == 0 ? CAIRO_LINE_JOIN_MITER : join == 1 ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_BEVEL);
        cairo_set_line_cap(cr, join == 0 ? CAIRO_LINE_CAP_SQUARE : join == 1 ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
        cairo_set_miter_limit(cr, 4);
        cairo_set_dash(cr, dashes, 4, 5 + join * 3);
        cairo_set_source_rgb(cr, 0.3, 1, 0.4);
        cairo_stroke(cr);
        lkt_check_against_cairo(join == 0 ? "S7.1 dashes with phase 5" : join == 1 ? "S7.1 dashes with phase 8, round caps"
                                : "S7.1 dashes with phase 11, butt caps", display, cr, tolerance);
        lk_release(p);
        lk_layer_remove_from_superlayer(s);
        lk_release(s);
    }
}

static void test_stroke_end(void)
{
    lk_layer *s = shape_layer();
    lk_path *p = lk_path_create();
    lk_path_move_to(p, 20, 100);
    lk_path_line_to(p, 180, 100);
    lk_path_line_to(p, 180, 180);
    lk_shape_layer_set_path(s, p);
    lk_shape_layer_set_stroke_color(s, lk_color_make(1, 1, 1, 1));
    lk_shape_layer_set_line_width(s, 8);
    lk_shape_layer_set_stroke_start(s, 0.25);
    lk_shape_layer_set_stroke_end(s, 0.75);
    render();
    /* length 240: from 60 along the line to 180 along it (100 down the side) */
    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, 20, 100);
    cairo_line_to(cr, 180, 100);
    cairo_line_to(cr, 180, 180);
    cairo_close_path(cr);
    cairo_fill(cr); /* the default fill: opaque black over black */
    cairo_move_to(cr, 80, 100);
    cairo_line_to(cr, 180, 100);
    cairo_line_to(cr, 180, 120);
    cairo_set_line_width(cr, 8);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_stroke(cr);
    lkt_check_against_cairo("S7.1 strokeStart 0.25 and strokeEnd 0.75 stroke the middle half", display, cr, tolerance);
    LKT_CHECK_NEAR("S7.1 strokeEnd is clamped to 0...1",
                   (lk_shape_layer_set_stroke_end(s, 3), lk_shape_layer_get_stroke_end(s)), 1, 0);
    lk_release(p);
    lk_layer_remove_from_superlayer(s);
    lk_release(s);
    render();
}

/* S7.1: dashes stay where they are on the whole path as strokeStart trims
   it. Two 80-point lines, dashed {10, 5} (the pattern starts again at each
   subpath, as cairo and PDF dash): strokeStart 0.5 keeps exactly the
   second line, dashed as untrimmed; 0.625 starts it 20 points in, dashes
   where they were. Every later subpath's pattern moved by the trimmed
   length (a 5-point dash first), so dashes crawled as strokeStart animated. */
static void test_dashes_of_later_subpaths(void)
{
    lk_layer *s = shape_layer();
    lk_path *p = lk_path_create();
    lk_path_move_to(p, 10, 30);
    lk_path_line_to(p, 90, 30);
    lk_path_move_to(p, 10, 60);
    lk_path_line_to(p, 90, 60);
    lk_shape_layer_set_path(s, p);
    lk_shape_layer_set_fill_color(s, lk_color_make(0, 0, 0, 0));
    lk_shape_layer_set_stroke_color(s, lk_color_make(1, 1, 1, 1));
    lk_shape_layer_set_line_width(s, 2);
    double dashes[2] = { 10, 5 };
    lk_shape_layer_set_line_dash_pattern(s, dashes, 2);
    lk_transaction_set_disable_actions(true);
    static const double starts[2] = { 0.5, 0.625 };
    for (int k = 0; k < 2; k++) {
        lk_shape_layer_set_stroke_start(s, starts[k]);
        render();
        uint8_t *px = (uint8_t *)malloc(W * H * 4);
        lk_display_read_pixels(display, px, W * 4);
        int wrong = 0, first = -1;
        for (int x = 10; x < 90; x++) {
            int lit = px[(60 * W + x) * 4] > 128;
            int along = x - 10;   /* along the second line */
            int want = (k == 0 || along >= 20) && along % 15 < 10;
            if (lit != want) { wrong++; if (first < 0) first = x; }
        }
        LKT_CHECK(wrong == 0, k == 0 ? "S7.1 strokeStart 0.5: the second subpath keeps its dashes whole"
                                      : "S7.1 strokeStart 0.625: the second subpath's dashes stay where they were",
                  "%d columns wrong on row 60, the first at x %d", wrong, first);
        free(px);
    }
    lk_release(p);
    lk_layer_remove_from_superlayer(s);
    lk_release(s);
    render();
}

/* ---- animation (S7.1: path, colours, lineWidth, dash phase, strokeStart/End, miterLimit) ---- */

static lk_layer *presentation_at(lk_layer *l, double t) { return lk_layer_copy_presentation_at(l, t); }

static double begin_of(lk_layer *l, const char *key)
{
    lk_animation *a = lk_layer_get_animation(l, key);
    return a ? lk_animation_get_begin_time(a) : NAN;
}

static double animate_number(lk_layer *s, const char *key, double from, double to)
{
    lk_animation *a = lk_basic_animation_create(key);
    lk_animation_set_from_value(a, lk_value_number(from));
    lk_animation_set_to_value(a, lk_value_number(to));
    lk_animation_set_duration(a, 1.0);
    lk_layer_add_animation(s, a, key);
    lk_release(a);
    lk_transaction_flush();
    return begin_of(s, key);
}

/* A shape layer stroking the line (x0, 100) -> (x1, 100) in white at
   `width`; its path in *path (the caller releases both). */
static lk_layer *white_line(double x0, double x1, double width, lk_path **path)
{
    lk_layer *s = shape_layer();
    lk_path *p = lk_path_create();
    lk_path_move_to(p, x0, 100);
    lk_path_line_to(p, x1, 100);
    lk_shape_layer_set_path(s, p);
    lk_shape_layer_set_stroke_color(s, lk_color_make(1, 1, 1, 1));
    lk_shape_layer_set_line_width(s, width);
    *path = p;
    return s;
}

static void test_animations(void)
{
    static const char *const numbers[] = {"lineWidth", "lineDashPhase", "strokeStart", "strokeEnd", "miterLimit"};
    lk_path *p;
    lk_layer *s = white_line(20, 180, 10, &p);
    render();
    size_t i;
    for (i = 0; i < sizeof numbers / sizeof *numbers; i++) {
        double b = animate_number(s, numbers[i], 0.2, 0.6);
        lk_layer *pr = presentation_at(s, b + 0.5);
        lk_value v;
        char name[128];
        snprintf(name, sizeof name, "S7.1 %s half-way through an animation from 0.2 to 0.6", numbers[i]);
        LKT_CHECK(pr && lk_layer_get_value(pr, numbers[i], &v) == LK_OK && v.type == LK_VALUE_NUMBER &&
                      fabs(v.as.number - 0.4) < 1e-9, name, "got %g (%s)", pr ? v.as.number : -1, lk_last_error());
        lk_release(pr);
        lk_layer_remove_animation(s, numbers[i]);
    }
    /* colours */
    {
        static const char *const colors[] = {"fillColor", "strokeColor"};
        for (i = 0; i < 2; i++) {
            lk_animation *a = lk_basic_animation_create(colors[i]);
            lk_animation_set_from_value(a, lk_value_color(lk_color_make(1, 0, 0, 1)));
            lk_animation_set_to_value(a, lk_value_color(lk_color_make(0, 0, 1, 1)));
            lk_animation_set_duration(a, 1.0);
            lk_layer_add_animation(s, a, colors[i]);
            lk_release(a);
            lk_transaction_flush();
            lk_layer *pr = presentation_at(s, begin_of(s, colors[i]) + 0.5);
            lk_color c = i == 0 ? lk_shape_layer_get_fill_color(pr) : lk_shape_layer_get_stroke_color(pr);
            char name[128];
            snprintf(name, sizeof name, "S7.1 %s half-way from red to blue", colors[i]);
            LKT_CHECK_COLOR(name, c, lk_color_make(0.5, 0, 0.5, 1), 1e-9);
            lk_release(pr);
            lk_layer_remove_animation(s, colors[i]);
        }
    }
    /* strokeEnd drawing a line progressively: half-way, half the line */
    {
        double b = animate_number(s, "strokeEnd", 0, 1);
        lk_display_render_frame_at(display, b + 0.5);
        cairo_t *cr = lkt_cairo_begin(W, H);
        cairo_move_to(cr, 20, 100);
        cairo_line_to(cr, 100, 100);
        cairo_set_line_width(cr, 10);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_stroke(cr);
        lkt_check_against_cairo("S7.1 strokeEnd animated 0 to 1 draws half the line half-way", display, cr, tolerance);
        lk_display_render_frame_at(display, b + 0.75);
        cr = lkt_cairo_begin(W, H);
        cairo_move_to(cr, 20, 100);
        cairo_line_to(cr, 140, 100);
        cairo_set_line_width(cr, 10);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_stroke(cr);
        lkt_check_against_cairo("S7.1 strokeEnd animated 0 to 1 draws three quarters at 0.75", display, cr, tolerance);
        lk_layer_remove_animation(s, "strokeEnd");
    }
    /* path morph: same elements, point by point */
    {
        lk_path *from = lk_path_create(), *to = lk_path_create();
        lk_path_add_rect(from, lk_rect_make(20, 20, 40, 40));
        lk_path_add_rect(to, lk_rect_make(100, 60, 80, 120));
        lk_shape_layer_set_stroke_color(s, lk_color_make(0, 0, 0, 0));
        lk_shape_layer_set_fill_color(s, lk_color_make(1, 0.5, 0, 1));
        lk_animation *a = lk_basic_animation_create("path");
        lk_animation_set_from_value(a, lk_value_path(from));
        lk_animation_set_to_value(a, lk_value_path(to));
        lk_animation_set_duration(a, 1.0);
        lk_layer_add_animation(s, a, "morph");
        lk_release(a);
        lk_transaction_flush();
        double b = begin_of(s, "morph");
        lk_layer *pr = presentation_at(s, b + 0.5);
        lk_path *mid = pr ? lk_shape_layer_get_path(pr) : NULL;
        LKT_CHECK_RECT("S7.1 a path morph half-way is the point-by-point mean", mid ? lk_path_get_bounds(mid) : lk_rect_make(0, 0, 0, 0),
                       lk_rect_make(60, 40, 60, 80), 1e-9);
        lk_release(pr);
        lk_display_render_frame_at(display, b + 0.5);
        cairo_t *cr = lkt_cairo_begin(W, H);
        cairo_rectangle(cr, 60, 40, 60, 80);
        cairo_set_source_rgb(cr, 1, 0.5, 0);
        cairo_fill(cr);
        lkt_check_against_cairo("S7.1 a path morph draws the mean path half-way", display, cr, tolerance);
        lk_release(from);
        lk_release(to);
    }
    /* implicit: changing strokeEnd on a shown layer animates it (S3.3) */
    {
        lk_layer_remove_all_animations(s);
        lk_transaction_flush(); /* else the transaction below nests in this one */
        lk_transaction_begin();
        lk_transaction_set_animation_duration(1.0);
        lk_transaction_set_animation_timing_function(lk_timing_function_named(LK_TIMING_LINEAR));
        lk_shape_layer_set_stroke_end(s, 0.5);
        lk_transaction_commit();
        double b = begin_of(s, "strokeEnd");
        lk_layer *pr = presentation_at(s, b + 0.5);
        LKT_CHECK_NEAR("S3.3 setting strokeEnd animates it implicitly", pr ? lk_shape_layer_get_stroke_end(pr) : -1, 0.75, 1e-9);
        lk_release(pr);
    }
    lk_release(p);
    lk_layer_remove_from_superlayer(s);
    lk_release(s);
    render();
}

static void test_cache(void)
{
    lk_layer *s = shape_layer();
    lk_path *p = wave_path();
    lk_display_stats st0, st1, st2;
    lk_shape_layer_set_path(s, p);
    lk_shape_layer_set_stroke_color(s, lk_color_make(1, 1, 1, 1));
    render();
    st0 = lkt_stats(display);
    lk_transaction_set_disable_actions(true);
    lk_layer_set_position(s, lk_point_make(120, 110)); /* moves: no new rasterization */
    render();
    render();
    st1 = lkt_stats(display);
    LKT_CHECK(st1.content_rasterizations == st0.content_rasterizations,
              "S7.1 moving a shape layer and redrawing rasterizes nothing",
              "%llu rasterizations", (unsigned long long)(st1.content_rasterizations - st0.content_rasterizations));
    lk_shape_layer_set_line_width(s, 3);
    render();
    st2 = lkt_stats(display);
    LKT_CHECK(st2.content_rasterizations == st1.content_rasterizations + 1,
              "S7.1 changing the line width rasterizes the layer once",
              "%llu rasterizations", (unsigned long long)(st2.content_rasterizations - st1.content_rasterizations));
    lk_release(p);
    lk_layer_remove_from_superlayer(s);
    lk_release(s);
}

/* A shape is mapped to the screen before it is rasterized (Core
   Animation's CAShapeLayer): a layer scaled up 4 times draws a circle as
   sharp as one drawn at that size, not its 1x picture magnified (the edge
   was a ramp 5 pixels wide). Scaling down again keeps the layer's
   contentsScale; a scale held still rasterizes nothing more. */
/* The frame against a white disc of radius r at (100, 100), drawn by cairo. */
static void check_white_disc(const char *name, double r)
{
    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_arc(cr, 100, 100, r, 0, 2 * 3.14159265358979323846);
    cairo_set_source_rgba(cr, 1, 1, 1, 1);
    cairo_fill(cr);
    lkt_check_against_cairo(name, display, cr, tolerance);
}

static void test_scaled_shape(void)
{
    lk_layer *s = lk_shape_layer_create();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_bounds(s, lk_rect_make(0, 0, 40, 40));
    lk_layer_set_position(s, lk_point_make(100, 100));
    lk_path *p = lk_path_create();
    lk_path_add_ellipse(p, lk_rect_make(5, 5, 30, 30));
    lk_shape_layer_set_path(s, p);
    lk_shape_layer_set_fill_color(s, lk_color_make(1, 1, 1, 1));
    lk_layer_set_transform(s, lk_transform3d_make_scale(4, 4, 1));
    lk_layer_add_sublayer(root, s);
    render();
    check_white_disc("S7.1 a shape layer scaled up 4 times is rasterized at the screen's resolution", 60);
    lk_display_stats st0 = lkt_stats(display);
    lk_layer_set_position(s, lk_point_make(101, 99));
    render();
    lk_display_stats st1 = lkt_stats(display);
    LKT_CHECK(st1.content_rasterizations == st0.content_rasterizations,
              "S7.1 moving a scaled shape layer rasterizes nothing more",
              "%llu rasterizations", (unsigned long long)(st1.content_rasterizations - st0.content_rasterizations));
    lk_layer_set_position(s, lk_point_make(100, 100));
    lk_layer_set_transform(s, lk_transform3d_make_scale(0.5, 0.5, 1));
    render();
    check_white_disc("S7.1 a shape layer scaled down keeps its contentsScale", 7.5);
    lk_release(p);
    lk_layer_remove_from_superlayer(s);
    lk_release(s);
    render();
}

static void test_errors(void)
{
    lk_layer *plain = lk_layer_create(), *s = lk_shape_layer_create();
    lk_value v;
    LKT_CHECK_ERROR("S7 a shape call on a plain layer is refused", lk_shape_layer_set_line_width(plain, 2),
                    LK_ERROR_INVALID_ARGUMENT, "shape layer");
    LKT_CHECK_ERROR("S1.6 a shape key path on a plain layer names the kind that has it",
                    lk_layer_get_value(plain, "strokeEnd", &v), LK_ERROR_UNKNOWN_KEY_PATH, "shape layer");
    LKT_CHECK_ERROR("S7.1 a negative line width is refused", lk_shape_layer_set_line_width(s, -1),
                    LK_ERROR_INVALID_ARGUMENT, "lineWidth");
    LKT_CHECK_ERROR("S7.1 an unknown fill rule string is refused",
                    lk_layer_set_value(s, "fillRule", lk_value_string("sideways")), LK_ERROR_TYPE_MISMATCH, "even-odd");
    LKT_CHECK_STATUS("S1.6 fillRule by key path", lk_layer_set_value(s, "fillRule", lk_value_string("even-odd")), LK_OK);
    LKT_CHECK(lk_shape_layer_get_fill_rule(s) == LK_FILL_RULE_EVEN_ODD, "S1.6 fillRule read back", "got %d",
              (int)lk_shape_layer_get_fill_rule(s));
    LKT_CHECK_STATUS("S1.6 lineDashPattern.1 cannot be read when the pattern is empty",
                     lk_layer_get_value(s, "lineDashPattern.1", &v) == LK_OK ? LK_OK : LK_ERROR_UNKNOWN_KEY_PATH,
                     LK_ERROR_UNKNOWN_KEY_PATH);
    LKT_CHECK_NEAR("S7.1 defaults: lineWidth 1", lk_shape_layer_get_line_width(s), 1, 0);
    LKT_CHECK_NEAR("S7.1 defaults: miterLimit 10", lk_shape_layer_get_miter_limit(s), 10, 0);
    LKT_CHECK_COLOR("S7.1 defaults: fillColor opaque black", lk_shape_layer_get_fill_color(s), lk_color_make(0, 0, 0, 1), 0);
    LKT_CHECK_COLOR("S7.1 defaults: no strokeColor", lk_shape_layer_get_stroke_color(s), lk_color_make(0, 0, 0, 0), 0);
    lk_release(plain);
    lk_release(s);
}

/* The path a getter returns is the layer's own, frozen as a CGPath is:
   changing it is refused and the layer keeps what it has (lk_path_add_rect
   on it returned LK_OK and changed the model behind every transaction, so
   the screen never showed it); a copy of it can change. The same for the
   shadowPath, a path read as a value, a presentation copy's path and a
   path inside an animation's value. */
static void test_paths_held_are_frozen(void)
{
    lk_layer *s = lk_shape_layer_create();
    lk_path *p = lk_path_create();
    lk_path_add_rect(p, lk_rect_make(0, 0, 10, 10));
    lk_shape_layer_set_path(s, p);
    lk_layer_set_shadow_path(s, p);
    lk_path_add_rect(p, lk_rect_make(0, 0, 50, 50));   /* the program's own path: changes it alone */
    lk_path *held = lk_shape_layer_get_path(s);
    LKT_CHECK(held && lk_path_get_bounds(held).size.width == 10, "S7.1 the layer kept its own copy of the path", "%g",
              held ? lk_path_get_bounds(held).size.width : -1);
    LKT_CHECK_ERROR("S2.1 the path a shape layer holds cannot be changed in place", lk_path_add_rect(held, lk_rect_make(20, 20, 30, 30)),
                    LK_ERROR_STATE, "lk_path_copy");
    LKT_CHECK_ERROR("S2.1 nor closed", lk_path_close(held), LK_ERROR_STATE, "cannot change");
    LKT_CHECK(lk_path_get_bounds(lk_shape_layer_get_path(s)).size.width == 10, "S2.1 the refused change changed nothing",
              "%g", lk_path_get_bounds(lk_shape_layer_get_path(s)).size.width);
    LKT_CHECK_ERROR("S2.1 the shadowPath a layer holds cannot be changed in place",
                    lk_path_line_to(lk_layer_get_shadow_path(s), 5, 40), LK_ERROR_STATE, "lk_path_copy");
    lk_value v;
    LKT_CHECK_STATUS("S1.6 path read as a value", lk_layer_get_value(s, "path", &v), LK_OK);
    LKT_CHECK_ERROR("S2.1 a path read as a value cannot be changed in place", lk_path_close(v.as.path), LK_ERROR_STATE,
                    "cannot change");
    lk_layer_add_sublayer(root, s);
    lk_transaction_flush();
    lk_layer *pr = lk_layer_copy_presentation(s);
    LKT_CHECK(pr != NULL, "S5.1 a committed layer has a presentation copy", "%s", lk_last_error());
    if (pr) {
        LKT_CHECK_ERROR("S5.1 a presentation copy's path cannot be changed", lk_path_add_rect(lk_shape_layer_get_path(pr),
                        lk_rect_make(1, 1, 2, 2)), LK_ERROR_STATE, "cannot change");
        lk_release(pr);
    }
    lk_layer_remove_from_superlayer(s);
    lk_path *copy = lk_path_copy(held);
    LKT_CHECK_STATUS("a copy of a held path can change", lk_path_add_rect(copy, lk_rect_make(20, 20, 30, 30)), LK_OK);
    LKT_CHECK_STATUS("and be set", lk_shape_layer_set_path(s, copy), LK_OK);
    LKT_CHECK(lk_path_get_bounds(lk_shape_layer_get_path(s)).size.width == 50, "S7.1 the layer now has the changed copy",
              "%g", lk_path_get_bounds(lk_shape_layer_get_path(s)).size.width);
    /* a value keeps the path as it was when given */
    lk_animation *a = lk_basic_animation_create("path");
    lk_animation_set_to_value(a, lk_value_path(p));
    lk_path_move_to(p, 0, 0);   /* the program's path changes on */
    lk_value to;
    LKT_CHECK_STATUS("an animation's toValue read back", lk_animation_get_to_value(a, &to), LK_OK);
    LKT_CHECK(to.type == LK_VALUE_PATH && to.as.path != p, "S8 an animation value keeps its own copy of a path", "%p", (void *)to.as.path);
    LKT_CHECK_ERROR("S8 and that copy cannot be changed", lk_path_close(to.as.path), LK_ERROR_STATE, "cannot change");
    lk_release(a);
    lk_release(copy);
    lk_release(p);
    lk_release(s);
}

/* A dash pattern far finer than a pixel shows the line at the share of it
   the dashes cover: cairo approximates such patterns, and some came out
   solid ({0.0015, 0.0015} and {0.003, 0.001} covered the whole line). */
static void test_dashes_finer_than_a_pixel(void)
{
    lk_path *p;
    lk_layer *s = white_line(0, 200, 4, &p);
    static const struct { double dashes[3]; size_t count; double share; } cases[] = {
        {{0.0015, 0.0015, 0}, 2, 0.5}, {{0.003, 0.001, 0}, 2, 0.75}, {{0.001, 0.002, 0}, 2, 1.0 / 3},
        {{0.001, 0.002, 0.003}, 3, 0.5},
    };
    uint8_t *px = (uint8_t *)malloc(W * H * 4);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lk_transaction_set_disable_actions(true);
        lk_shape_layer_set_line_dash_pattern(s, cases[i].dashes, cases[i].count);
        render();
        lk_display_read_pixels(display, px, W * 4);
        double sum = 0;
        for (int x = 10; x < 190; x++) sum += px[(100 * W + x) * 4];
        char name[120];
        snprintf(name, sizeof name, "S7.1 a dash pattern finer than a pixel (%zu entries from %g) covers its share of the line",
                 cases[i].count, cases[i].dashes[0]);
        LKT_CHECK_NEAR(name, sum / 180, 255 * cases[i].share, 3);
    }
    free(px);
    lk_release(p);
    lk_layer_remove_from_superlayer(s);
    lk_release(s);
    render();
}

/* A dash length near the largest double with a negative phase: the
   pattern's period overflowed, cairo's offset became infinite and the
   frame never returned. Lengths past any drawable path are drawn as 1e15:
   the rect's outline shows (its first unit a gap). */
static void fail_dash_alarm(int signal)
{
    (void)signal;
    static const char message[] = "FAIL S8.1 a dash of 1e308 with phase -1: the frame took over 30 s\n";
    if (write(2, message, sizeof message - 1) < 0) _exit(3);
    _exit(3);
}

static void test_dash_near_largest_double(void)
{
    lk_path *p;
    lk_layer *s = white_line(20, 180, 4, &p);
    double dash[1] = { 1e308 };
    LKT_CHECK_STATUS("S7.1 a dash of 1e308 is taken", lk_shape_layer_set_line_dash_pattern(s, dash, 1), LK_OK);
    LKT_CHECK_STATUS("S7.1 with phase -1", lk_shape_layer_set_line_dash_phase(s, -1), LK_OK);
    signal(SIGALRM, fail_dash_alarm);
    alarm(30);
    render();
    alarm(0);
    uint8_t *px = (uint8_t *)malloc(W * H * 4);
    lk_display_read_pixels(display, px, W * 4);
    int lit = 0;
    for (int x = 0; x < W; x++) lit += px[(100 * W + x) * 4] > 128;
    free(px);
    LKT_CHECK(lit > 100, "S8.1 a dash of 1e308 with a negative phase draws (the line shows)", "%d lit pixels", lit);
    lk_release(p);
    lk_layer_remove_from_superlayer(s);
    lk_release(s);
    render();
}

/* Red pixels of the frame drawn by render() within rows y0..y1. */
static int red_pixels(int y0, int y1)
{
    uint8_t *px = (uint8_t *)malloc(W * H * 4);
    lk_display_read_pixels(display, px, W * 4);
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < W; x++)
            if (px[(y * W + x) * 4] > 128 && px[(y * W + x) * 4 + 1] < 64) n++;
    free(px);
    return n;
}

/* S7.1: a wide shape layer (under the 8192-pixel limit) whose path reaches
   far past its bounds draws its visible part: its box was cut to the bounds
   grown by 2,048 points a side, which no longer fit in 8192 pixels from a
   layer 4,096 pixels wide on, and it drew nothing. */
static void test_wide_layer_long_path(void)
{
    lk_layer *s = lk_shape_layer_create();
    lk_shape_layer_set_fill_color(s, lk_color_make(1, 0, 0, 1));
    lk_path *p = lk_path_create();
    lk_path_add_rect(p, lk_rect_make(-5000, 0, 15000, 50));
    lk_shape_layer_set_path(s, p);
    lk_release(p);
    lk_layer_add_sublayer(root, s);
    static const struct { double width, scale; } cases[] = {{300, 1}, {4100, 1}, {6000, 1}, {2100, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lk_transaction_begin();
        lk_transaction_set_disable_actions(true);
        lk_layer_set_frame(s, lk_rect_make(0, 0, cases[i].width, 100));
        lk_layer_set_contents_scale(s, cases[i].scale);
        lk_transaction_commit();
        render();
        int n = red_pixels(0, 50);
        char name[160];
        snprintf(name, sizeof name, "S7.1 a %g-point layer at scale %g with a path 15,000 points wide draws its visible part",
                 cases[i].width, cases[i].scale);
        LKT_CHECK(n == W * 50, name, "%d red pixels of %d", n, W * 50);
    }
    lk_layer_remove_from_superlayer(s);
    lk_release(s);
    lk_transaction_flush();
}

static void fail_on_alarm(int signal)
{
    (void)signal;
    static const char message[] = "FAIL S8.1 a stroke 1e13 wide: the frame took over 60 s\n";
    if (write(2, message, sizeof message - 1) < 0) _exit(3);
    _exit(3);
}

/* Whether the columns the stroke covers (50..150) are white top to bottom
   and those beyond black (the two at its edges aside). */
static int covers(char *why, size_t size)
{
    uint8_t *px = (uint8_t *)malloc(W * H * 4);
    int ok = px && lk_display_read_pixels(display, px, W * 4) == LK_OK;
    for (int y = 0; ok && y < H; y++) {
        for (int x = 0; ok && x < W; x++) {
            int inside = x >= 50 && x < 150, edge = x == 49 || x == 150;
            const uint8_t *p = px + (y * W + x) * 4;
            if (!edge && (inside ? p[0] < 250 : p[0] > 5)) {
                ok = 0;
                snprintf(why, size, "(%d, %d) is %d, not %s", x, y, p[0], inside ? "white" : "black");
            }
        }
    }
    free(px);
    return ok;
}

/* S7.1, S8.1: a stroke far wider than the layer covers what it covers at
   any width, drawn in a moment: the butt-capped line from (50, 100) to
   (150, 100) covers columns 50..150 top to bottom and nothing beside
   them. cairo's stroker took 35 s over an ellipse's stroke 5e11 wide
   (which the setter takes) and minutes over 1e13 (an animated lineWidth
   on its way to 2e13); the watchdog stops at 60 s. (The ellipse's pixels
   are not checked: cairo's stroke of a curve much wider than the curve's
   radius leaves the inside and more uncovered, at any such width.) */
static void test_huge_line_width(void)
{
    char why[120] = "", name[120];
    static const char *what[2] = {"a line", "an ellipse"};
    signal(SIGALRM, fail_on_alarm);
    for (int k = 0; k < 2; k++) {
        lk_layer *s = shape_layer();
        lk_path *p = lk_path_create();
        if (k == 0) {
            lk_path_move_to(p, 50, 100);
            lk_path_line_to(p, 150, 100);
        } else {
            lk_path_add_ellipse(p, lk_rect_make(75, 80, 50, 40));
        }
        lk_shape_layer_set_path(s, p);
        lk_release(p);
        lk_shape_layer_set_fill_color(s, lk_color_make(0, 0, 0, 0));
        lk_shape_layer_set_stroke_color(s, lk_color_make(1, 1, 1, 1));
        lk_shape_layer_set_line_cap(s, LK_LINE_CAP_BUTT);
        alarm(60);
        lk_shape_layer_set_line_width(s, 5e11);
        render();
        snprintf(name, sizeof name, "S7.1 %s's stroke 5e11 wide is drawn%s", what[k], k ? "" : " over its columns");
        LKT_CHECK(k || covers(why, sizeof why), name, "%s", why);
        lk_shape_layer_set_line_width(s, 1);
        lk_animation *a = lk_basic_animation_create("lineWidth");
        lk_animation_set_from_value(a, lk_value_number(1));
        lk_animation_set_to_value(a, lk_value_number(2e13));
        lk_animation_set_duration(a, 1);
        lk_animation_set_timing_function(a, lk_timing_function_named(LK_TIMING_LINEAR));
        double t = lk_media_time() + 100;
        lk_animation_set_begin_time(a, t);
        lk_layer_add_animation(s, a, "wide");
        lk_release(a);
        lk_transaction_flush();
        snprintf(name, sizeof name, "S8.1 %s's lineWidth animated to 2e13 draws a frame", what[k]);
        LKT_CHECK_STATUS(name, lk_display_render_frame_at(display, t + 0.5), LK_OK);
        if (k == 0) LKT_CHECK(covers(why, sizeof why), "S7.1 half-way to 2e13 a line's stroke covers its columns", "%s", why);
        alarm(0);
        lk_layer_remove_from_superlayer(s);
        lk_release(s);
        render();
    }
}

int main(void)
{
    display = lkt_open_display(W, H, "open a software display");
    if (!display) return lkt_finish();
    root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_display_set_root_layer(display, root);
    test_fill_and_stroke();
    test_even_odd();
    test_dashes_caps_joins();
    test_stroke_end();
    test_dashes_of_later_subpaths();
    test_animations();
    test_cache();
    test_scaled_shape();
    test_paths_held_are_frozen();
    test_dashes_finer_than_a_pixel();
    test_dash_near_largest_double();
    test_wide_layer_long_path();
    test_huge_line_width();
    test_errors();
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
