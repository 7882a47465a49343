/*
 * S7.7 the scroll layer: scrollMode, scrollToPoint / scrollToRect (which
 * set bounds.origin), the scroll helpers of every layer reaching the
 * nearest scroll layer above, visibleRect, the implicit animation of the
 * scroll, and the scrolled pixels. Numbers are exact (eps 1e-9); pixels
 * are checked at the centres of flat colour areas, within 2 per channel.
 */
#include "lktest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lk_layer *child(lk_layer *parent, lk_layer *l, double x, double y, double w, double h)
{
    lkt_layer_place(l, x, y, w, h);
    lk_layer_add_sublayer(parent, l);
    lk_release(l);
    return l;
}

/* S7.7, S1.6: scrollMode defaults to both, has typed and key-path access. */
static void check_mode(void)
{
    lk_layer *s = lk_scroll_layer_create();
    lk_value v;
    LKT_CHECK(lk_scroll_layer_get_scroll_mode(s) == LK_SCROLL_BOTH, "S7.7 scrollMode defaults to both", "got %d",
              (int)lk_scroll_layer_get_scroll_mode(s));
    LKT_CHECK(lk_layer_get_value(s, "scrollMode", &v) == LK_OK && v.type == LK_VALUE_STRING &&
                  strcmp(v.as.string, "both") == 0,
              "S7.7 S1.6 scrollMode reads \"both\" by key path", "got type %d", (int)v.type);
    LKT_CHECK_STATUS("S7.7 S1.6 scrollMode is set by key path as \"vertically\"",
                     lk_layer_set_value(s, "scrollMode", lk_value_string("vertically")), LK_OK);
    LKT_CHECK(lk_scroll_layer_get_scroll_mode(s) == LK_SCROLL_VERTICALLY, "S7.7 the key path's value reads back typed",
              "got %d", (int)lk_scroll_layer_get_scroll_mode(s));
    lkt_error_mark();
    LKT_CHECK_ERROR("S7.7 S8.1 an unknown scroll mode is refused", lk_scroll_layer_set_scroll_mode(s, (lk_scroll_mode)9),
                    LK_ERROR_INVALID_ARGUMENT, "mode");
    lkt_error_mark();
    LKT_CHECK_ERROR("S7.7 S1.6 a scrollMode string that names no mode is refused, naming the choices",
                    lk_layer_set_value(s, "scrollMode", lk_value_string("diagonally")), LK_ERROR_TYPE_MISMATCH,
                    "horizontally");
    lk_release(s);
}

/* S7.7: scrollToPoint sets bounds.origin along the axes the mode allows. */
static void check_scroll_to_point(void)
{
    static const struct { lk_scroll_mode mode; double x, y; const char *name; } cases[] = {
        {LK_SCROLL_BOTH, 30, 40, "S7.7 scrollToPoint with mode both moves the origin to the point"},
        {LK_SCROLL_VERTICALLY, 5, 40, "S7.7 scrollToPoint with mode vertically keeps x"},
        {LK_SCROLL_HORIZONTALLY, 30, 6, "S7.7 scrollToPoint with mode horizontally keeps y"},
        {LK_SCROLL_NONE, 5, 6, "S7.7 scrollToPoint with mode none changes nothing"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lk_layer *s = lk_scroll_layer_create();
        lk_layer_set_bounds(s, lk_rect_make(5, 6, 100, 80));
        lk_scroll_layer_set_scroll_mode(s, cases[i].mode);
        LKT_CHECK_STATUS(cases[i].name, lk_scroll_layer_scroll_to_point(s, lk_point_make(30, 40)), LK_OK);
        LKT_CHECK_RECT(cases[i].name, lk_layer_get_bounds(s), lk_rect_make(cases[i].x, cases[i].y, 100, 80), 1e-9);
        lk_release(s);
    }
}

/* S7.7: scrollToRect scrolls the least that shows the rect. */
static void check_scroll_to_rect(void)
{
    lk_layer *s = lk_scroll_layer_create();
    lk_layer_set_bounds(s, lk_rect_make(0, 0, 100, 80));
    lk_scroll_layer_scroll_to_rect(s, lk_rect_make(150, 20, 30, 30));
    LKT_CHECK_RECT("S7.7 scrollToRect past the right edge brings the rect's right edge to the bounds' right",
                   lk_layer_get_bounds(s), lk_rect_make(80, 0, 100, 80), 1e-9);
    lk_scroll_layer_scroll_to_rect(s, lk_rect_make(100, 30, 40, 40));
    LKT_CHECK_RECT("S7.7 scrollToRect of a rect already visible changes nothing", lk_layer_get_bounds(s),
                   lk_rect_make(80, 0, 100, 80), 1e-9);
    lk_scroll_layer_scroll_to_rect(s, lk_rect_make(10, 100, 20, 20));
    LKT_CHECK_RECT("S7.7 scrollToRect left of and below the bounds moves both axes the least",
                   lk_layer_get_bounds(s), lk_rect_make(10, 40, 100, 80), 1e-9);
    lk_scroll_layer_scroll_to_rect(s, lk_rect_make(-50, 0, 300, 10));
    LKT_CHECK_RECT("S7.7 scrollToRect of a rect wider than the bounds shows its left edge",
                   lk_layer_get_bounds(s), lk_rect_make(-50, 0, 100, 80), 1e-9);
    lk_scroll_layer_set_scroll_mode(s, LK_SCROLL_HORIZONTALLY);
    lk_scroll_layer_scroll_to_rect(s, lk_rect_make(500, 500, 10, 10));
    LKT_CHECK_RECT("S7.7 scrollToRect with mode horizontally moves only x", lk_layer_get_bounds(s),
                   lk_rect_make(410, 0, 100, 80), 1e-9);
    lk_release(s);
}

/* S7.7, S1.4: a layer's scrollPoint / scrollRectToVisible reach the
   nearest scroll layer above it, through the coordinate conversion;
   visibleRect is the bounds less what that scroll layer clips. */
static void check_layer_helpers(void)
{
    lk_layer *outer = lk_scroll_layer_create(), *inner, *content, *g, *free_layer;
    lk_rect before;
    lk_layer_set_bounds(outer, lk_rect_make(0, 0, 400, 400));
    inner = child(outer, lk_scroll_layer_create(), 20, 20, 100, 80);
    content = child(inner, lk_layer_create(), 0, 0, 1000, 1000);
    g = child(content, lk_layer_create(), 200, 300, 50, 50);

    LKT_CHECK_STATUS("S7.7 scrollPoint on a layer inside scroll layers", lk_layer_scroll_point(g, lk_point_make(10, 10)),
                     LK_OK);
    LKT_CHECK_RECT("S7.7 S1.4 scrollPoint moves the nearest scroll layer's origin to the converted point",
                   lk_layer_get_bounds(inner), lk_rect_make(210, 310, 100, 80), 1e-9);
    LKT_CHECK_RECT("S7.7 scrollPoint leaves the outer scroll layer alone", lk_layer_get_bounds(outer),
                   lk_rect_make(0, 0, 400, 400), 1e-9);
    LKT_CHECK_RECT("S7.7 visibleRect of the layer scrolled to (210, 310): the part under the scroll layer",
                   lk_layer_get_visible_rect(g), lk_rect_make(10, 10, 40, 40), 1e-9);

    lk_layer_scroll_rect_to_visible(g, lk_rect_make(0, 0, 50, 50));
    LKT_CHECK_RECT("S7.7 scrollRectToVisible scrolls the least that shows the layer's rect",
                   lk_layer_get_bounds(inner), lk_rect_make(200, 300, 100, 80), 1e-9);
    LKT_CHECK_RECT("S7.7 visibleRect of a layer wholly shown is its bounds", lk_layer_get_visible_rect(g),
                   lk_rect_make(0, 0, 50, 50), 1e-9);
    lk_scroll_layer_scroll_to_point(inner, lk_point_make(600, 0));
    LKT_CHECK(lk_layer_get_visible_rect(g).size.width == 0 && lk_layer_get_visible_rect(g).size.height == 0,
              "S7.7 visibleRect of a layer scrolled out of sight is empty", "got %s",
              lkt_fmt_rect(lk_layer_get_visible_rect(g)));
    LKT_CHECK_RECT("S7.7 visibleRect of a layer under no scroll layer is its bounds",
                   lk_layer_get_visible_rect(outer), lk_rect_make(0, 0, 400, 400), 1e-9);

    /* S1.4 S7.7: a container above the scroll layers scaled to nothing (a
       shrink animation's end) is not on the way between the layer and its
       scroll layer: the helpers still scroll and visibleRect still clips
       (they failed with "to: ... singular", and visibleRect said all of g
       showed) */
    {
        lk_layer *top = lk_layer_create();
        lk_layer_set_bounds(top, lk_rect_make(0, 0, 500, 500));
        lk_layer_add_sublayer(top, outer);
        lk_layer_set_transform(top, lk_transform3d_make_scale(0, 0, 1));
        LKT_CHECK(lk_layer_get_visible_rect(g).size.width == 0 && lk_layer_get_visible_rect(g).size.height == 0,
                  "S7.7 under a container scaled to 0, visibleRect of a layer scrolled out of sight is still empty",
                  "got %s", lkt_fmt_rect(lk_layer_get_visible_rect(g)));
        LKT_CHECK_STATUS("S7.7 scrollPoint under a container scaled to 0", lk_layer_scroll_point(g, lk_point_make(10, 10)),
                         LK_OK);
        LKT_CHECK_RECT("S7.7 S1.4 scrollPoint under a container scaled to 0 scrolls as before",
                       lk_layer_get_bounds(inner), lk_rect_make(210, 310, 100, 80), 1e-9);
        LKT_CHECK_STATUS("S7.7 scrollRectToVisible under a container scaled to 0",
                         lk_layer_scroll_rect_to_visible(g, lk_rect_make(0, 0, 50, 50)), LK_OK);
        LKT_CHECK_RECT("S7.7 scrollRectToVisible under a container scaled to 0 scrolls as before",
                       lk_layer_get_bounds(inner), lk_rect_make(200, 300, 100, 80), 1e-9);
        lk_layer_remove_from_superlayer(outer);
        lk_release(top);
    }

    free_layer = lk_layer_create();
    lk_layer_set_bounds(free_layer, lk_rect_make(0, 0, 10, 10));
    before = lk_layer_get_bounds(free_layer);
    LKT_CHECK_STATUS("S7.7 scrollPoint with no scroll layer above does nothing, successfully",
                     lk_layer_scroll_point(free_layer, lk_point_make(3, 3)), LK_OK);
    LKT_CHECK_RECT("S7.7 scrollPoint with no scroll layer above changes nothing", lk_layer_get_bounds(free_layer),
                   before, 0);

    lkt_error_mark();
    LKT_CHECK_ERROR("S7.7 S8.1 scrollToPoint on a plain layer names the scroll layer",
                    lk_scroll_layer_scroll_to_point(free_layer, lk_point_make(1, 1)), LK_ERROR_INVALID_ARGUMENT,
                    "scroll layer");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 scrollToPoint with a NaN point is refused",
                    lk_scroll_layer_scroll_to_point(inner, lk_point_make(NAN, 1)),
                    LK_ERROR_INVALID_ARGUMENT, "p|finite");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 scrollRectToVisible with a NULL layer is refused",
                    lk_layer_scroll_rect_to_visible(NULL, lk_rect_make(0, 0, 1, 1)), LK_ERROR_INVALID_ARGUMENT,
                    "layer");
    lk_release(free_layer);
    lk_release(outer);
}

/* Reads pixel (x, y) of the display's last frame. */
static void pixel_at(lk_display *d, uint32_t w, uint32_t h, uint32_t x, uint32_t y, uint8_t out[4])
{
    uint8_t *px = (uint8_t *)malloc((size_t)w * h * 4);
    if (lk_display_read_pixels(d, px, (size_t)w * 4) == LK_OK) memcpy(out, px + ((size_t)y * w + x) * 4, 4);
    else memset(out, 0, 4);
    free(px);
}

static int rgb_near(const uint8_t p[4], int r, int g, int b)
{
    return abs(p[0] - r) <= 2 && abs(p[1] - g) <= 2 && abs(p[2] - b) <= 2;
}

/* S7.7, S3.3: scrolling animates through the bounds action (default 0.25 s)
   unless actions are disabled; the pixels follow. The content is two
   squares, red at (0,0) and blue at (200,0), 100 x 100, in a scroll layer
   of 100 x 100 clipping to its bounds at the display's top left. */
static void check_animated_scroll(void)
{
    const uint32_t W = 160, H = 120;
    const char *name = "S7.7 scroll pixels";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *s;
    uint8_t p[4];
    double t0;
    lk_layer *pres;
    if (!d) return;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = lk_layer_create();
    lkt_layer_place(root, 0, 0, W, H);
    lk_layer_set_background_color(root, lk_color_make(0, 0, 0, 1));
    s = child(root, lk_scroll_layer_create(), 0, 0, 100, 100);
    lk_layer_set_masks_to_bounds(s, true);
    lkt_layer_new(s, 0, 0, 100, 100, lk_color_make(1, 0, 0, 1));
    lkt_layer_new(s, 200, 0, 100, 100, lk_color_make(0, 0, 1, 1));
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);
    t0 = lk_media_time();
    lk_display_render_frame_at(d, t0);
    pixel_at(d, W, H, 50, 50, p);
    LKT_CHECK(rgb_near(p, 255, 0, 0), "S7.7 unscrolled, the scroll layer shows the red square", "got %d,%d,%d", p[0],
              p[1], p[2]);

    lk_transaction_begin();
    lk_transaction_set_animation_timing_function(lk_timing_function_named(LK_TIMING_LINEAR));
    lk_scroll_layer_scroll_to_point(s, lk_point_make(200, 0));
    lk_transaction_commit();
    LKT_CHECK(lk_layer_get_animation(s, "bounds") != NULL, "S7.7 S3.3 a scroll adds the implicit bounds animation",
              "no animation for key \"bounds\"");
    pres = lk_layer_copy_presentation_at(s, lk_media_time() + 0.125);
    LKT_CHECK(pres && lk_layer_get_bounds(pres).origin.x > 20 && lk_layer_get_bounds(pres).origin.x < 180,
              "S7.7 S3.3 half-way through, the presented origin is between the old and the new",
              "x = %g", pres ? lk_layer_get_bounds(pres).origin.x : -1);
    lk_release(pres);
    lk_display_render_frame_at(d, lk_media_time() + 1);
    pixel_at(d, W, H, 50, 50, p);
    LKT_CHECK(rgb_near(p, 0, 0, 255), "S7.7 scrolled to (200, 0), the scroll layer shows the blue square",
              "got %d,%d,%d", p[0], p[1], p[2]);
    pixel_at(d, W, H, 130, 50, p);
    LKT_CHECK(rgb_near(p, 0, 0, 0), "S7.7 S6.1 what scrolled out is clipped by masksToBounds", "got %d,%d,%d", p[0],
              p[1], p[2]);

    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_scroll_layer_scroll_to_point(s, lk_point_make(50, 0));
    lk_transaction_commit();
    pres = lk_layer_copy_presentation_at(s, lk_media_time() + 1.01);
    LKT_CHECK(pres && lk_layer_get_bounds(pres).origin.x == 50,
              "S7.7 S3.2 with actions disabled the scroll is immediate", "presented origin %g",
              pres ? lk_layer_get_bounds(pres).origin.x : -1);
    lk_release(pres);
    lk_display_render_frame_at(d, lk_media_time() + 2);
    pixel_at(d, W, H, 25, 50, p);
    LKT_CHECK(rgb_near(p, 255, 0, 0), "S7.7 scrolled to (50, 0): red on the left half", "got %d,%d,%d", p[0], p[1],
              p[2]);
    pixel_at(d, W, H, 75, 50, p);
    LKT_CHECK(rgb_near(p, 0, 0, 0), "S7.7 scrolled to (50, 0): the gap between the squares on the right half",
              "got %d,%d,%d", p[0], p[1], p[2]);
    lk_release(root);
    lk_display_close(d);
}

int main(void)
{
    check_mode();
    check_scroll_to_point();
    check_scroll_to_rect();
    check_layer_helpers();
    check_animated_scroll();
    return lkt_finish();
}
