/* Custom drawing and snapshots: the delegate's draw into an lk_canvas when
   a layer is marked for display (cached until marked again, or on a bounds
   change with needsDisplayOnBoundsChange), the canvas helpers against
   cairo references, lk_layer_render_to_image with sublayer transforms, and
   a custom transition built on a snapshot (the old look fading out over
   the new). Tolerance: channels within 3, edge pixels within 48. */
#include "support/lktest.h"
#include "support/lkt_cairo.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 120
#define H 100

static lk_display *display;
static lk_layer *root;
static int draws;
static lk_canvas *kept; /* a canvas pointer kept past its callback */
static const lkt_tolerance tolerance = {3, 48, 300, 0};

/* A delegate that draws with `draw` and does nothing else. */
static lk_layer_delegate drawing_delegate(void (*fn)(lk_layer *layer, lk_canvas *canvas, void *user_data))
{
    lk_layer_delegate d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.draw = fn;
    return d;
}

static void draw(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    (void)layer;
    (void)user_data;
    draws++;
    kept = canvas;
    lk_path *p = lk_path_create();
    lk_path_add_ellipse(p, lk_rect_make(10, 10, 60, 40));
    lk_canvas_clear(canvas, lk_color_make(0, 0, 0.5, 1));
    lk_canvas_fill_path(canvas, p, lk_color_make(1, 0.5, 0, 1), LK_FILL_RULE_NON_ZERO);
    lk_stroke_style st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    st.line_width = 4;
    st.line_join = LK_LINE_JOIN_ROUND;
    st.miter_limit = 10;
    lk_canvas_stroke_path(canvas, p, lk_color_make(1, 1, 1, 1), &st);
    lk_release(p);
    /* a pixel written directly: the canvas is premultiplied ARGB32 */
    uint32_t *row = (uint32_t *)((uint8_t *)lk_canvas_get_pixels(canvas) + 5 * lk_canvas_get_stride(canvas));
    row[5] = 0xff00ff00u;
}

static void reference_drawing(cairo_t *cr, double ox, double oy)
{
    cairo_save(cr);
    cairo_translate(cr, ox, oy);
    cairo_rectangle(cr, 0, 0, 80, 60);
    cairo_set_source_rgb(cr, 0, 0, 0.5);
    cairo_fill(cr);
    cairo_save(cr);
    cairo_translate(cr, 40, 30);
    cairo_scale(cr, 30, 20);
    cairo_arc(cr, 0, 0, 1, 0, 2 * LKT_PI);
    cairo_restore(cr);
    cairo_set_source_rgb(cr, 1, 0.5, 0);
    cairo_fill_preserve(cr);
    cairo_set_line_width(cr, 4);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_stroke(cr);
    cairo_rectangle(cr, 5, 5, 1, 1);
    cairo_set_source_rgb(cr, 0, 1, 0);
    cairo_fill(cr);
    cairo_restore(cr);
}

static void test_draw(void)
{
    lk_layer *l = lk_layer_create();
    lk_layer_delegate d = drawing_delegate(draw);
    lk_layer_set_delegate(l, &d, NULL, NULL);
    lk_layer_set_frame(l, lk_rect_make(20, 20, 80, 60));
    /* shown at once: without this the root's sublayers action fades it in (S3.3) */
    lk_transaction_set_disable_actions(true);
    lk_layer_add_sublayer(root, l);
    lk_transaction_flush();
    LKT_CHECK(draws == 0, "S6.1 a layer not marked for display is not drawn", "%d draws", draws);
    lk_layer_set_needs_display(l);
    LKT_CHECK(lk_layer_get_needs_display(l), "S6.1 needs display is set", "not set");
    lk_transaction_flush();
    LKT_CHECK(draws == 1 && !lk_layer_get_needs_display(l), "S6.1 a marked layer draws once at the commit",
              "%d draws", draws);
    lk_display_render_frame_at(display, lk_media_time());
    cairo_t *cr = lkt_cairo_begin(W, H);
    reference_drawing(cr, 20, 20);
    lkt_check_against_cairo("S6.1 the delegate's drawing (fill, stroke, a pixel) becomes the contents", display, cr, tolerance);
    /* no implicit animations here: this is about drawing */
    lk_transaction_set_disable_actions(true);
    lk_layer_set_position(l, lk_point_make(61, 51));
    lk_transaction_flush();
    lk_display_render_frame_at(display, lk_media_time());
    LKT_CHECK(draws == 1, "S6.1 the drawing is cached: moving the layer does not draw again", "%d draws", draws);
    lk_transaction_set_disable_actions(true);
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 80, 50));
    lk_transaction_flush();
    LKT_CHECK(draws == 1, "S6.1 a bounds change does not draw without needsDisplayOnBoundsChange", "%d draws", draws);
    lk_layer_set_needs_display_on_bounds_change(l, true);
    lk_transaction_set_disable_actions(true);
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 80, 60));
    lk_transaction_flush();
    LKT_CHECK(draws == 2, "S6.1 with needsDisplayOnBoundsChange a size change draws again", "%d draws", draws);
    /* S1.6: it has a key path too (it was unknown), both ways */
    lk_value v = lk_value_none();
    lk_status got = lk_layer_get_value(l, "needsDisplayOnBoundsChange", &v);
    lk_status set = lk_layer_set_value(l, "needsDisplayOnBoundsChange", lk_value_bool(false));
    LKT_CHECK(got == LK_OK && v.type == LK_VALUE_BOOL && v.as.boolean && set == LK_OK &&
                  !lk_layer_get_needs_display_on_bounds_change(l),
              "S1.6 needsDisplayOnBoundsChange by key path reads and sets the typed value", "%s, %s",
              lkt_status_name(got), lkt_status_name(set));
    lk_layer_set_needs_display_on_bounds_change(l, true);
    lk_transaction_flush();   /* (the key path's change opened an implicit transaction) */
    /* S2.1: drawing during a commit leaves no transaction open: the next
       explicit transaction is the outermost and commits at once (the draw
       opened an implicit one, which the next ones nested in) */
    lk_transaction_begin();
    lk_layer_set_needs_display(l);
    lk_transaction_commit();
    LKT_CHECK(draws == 3, "S6.1 an explicit commit draws the marked layer", "%d draws", draws);
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_background_color(l, lk_color_make(0, 0, 1, 1));
    lk_transaction_commit();
    lk_layer *shown = lk_layer_copy_presentation(l);
    lk_color bg = shown ? lk_layer_get_background_color(shown) : lk_color_make(0, 0, 0, 0);
    lk_release(shown);
    LKT_CHECK(lkt_color_near(bg, lk_color_make(0, 0, 1, 1), 0),
              "S2.1 S6.1 after a commit that drew, the next explicit commit reaches the render side at once",
              "presented background %s", lkt_fmt_color(bg));
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_transaction_flush();
}

static void test_snapshot(void)
{
    lk_layer *l = lk_layer_create(), *child = lk_layer_create();
    lk_layer_set_frame(l, lk_rect_make(500, 500, 80, 60)); /* its own place is left out */
    lk_layer_set_background_color(l, lk_color_make(0, 0.5, 0, 1));
    lk_layer_set_frame(child, lk_rect_make(20, 10, 40, 20));
    lk_layer_set_background_color(child, lk_color_make(1, 1, 0, 1));
    lk_layer_set_transform(child, lk_transform3d_make_rotation(LKT_PI / 2, 0, 0, 1));
    lk_layer_add_sublayer(l, child);
    lk_image *image = lk_layer_render_to_image(l, 0);
    LKT_CHECK(image != NULL, "renderInContext: a snapshot is made", "%s", lk_last_error());
    if (!image) return;
    /* the snapshot as another layer's contents, shown at (0, 0) */
    lk_layer *shown = lk_layer_create();
    lk_layer_set_frame(shown, lk_rect_make(0, 0, 80, 60));
    lk_layer_set_contents(shown, image);
    lk_layer_add_sublayer(root, shown);
    lk_display_render_frame_at(display, lk_media_time());
    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_rectangle(cr, 0, 0, 80, 60);
    cairo_set_source_rgb(cr, 0, 0.5, 0);
    cairo_fill(cr);
    cairo_rectangle(cr, 30, 0, 20, 40); /* 40x20 turned a quarter about its centre (40, 20) */
    cairo_set_source_rgb(cr, 1, 1, 0);
    cairo_fill(cr);
    lkt_check_against_cairo("renderInContext: the subtree with its sublayer's transform", display, cr, tolerance);
    lk_image *twice = lk_layer_render_to_image(l, 2);
    LKT_CHECK(twice != NULL, "renderInContext at scale 2", "%s", lk_last_error());
    lk_release(twice);
    LKT_CHECK_ERROR("renderInContext of a layer without pixels is refused",
                    (lk_layer_render_to_image(child, -1) ? LK_OK : LK_ERROR_INVALID_ARGUMENT), LK_ERROR_INVALID_ARGUMENT, "scale");

    /* a custom transition: snapshot the old look, change the layer, fade
       the snapshot out over the new look */
    lk_layer *overlay = lk_layer_create();
    lk_layer_set_frame(overlay, lk_rect_make(0, 0, 80, 60));
    lk_layer_set_contents(overlay, image);
    lk_layer_add_sublayer(root, overlay);
    lk_transaction_set_disable_actions(true);
    lk_layer_set_contents(shown, NULL);
    lk_layer_set_background_color(shown, lk_color_make(1, 0, 0, 1));
    lk_transaction_flush();
    lk_animation *fade = lk_basic_animation_create("opacity");
    lk_animation_set_from_value(fade, lk_value_number(1));
    lk_animation_set_to_value(fade, lk_value_number(0));
    lk_animation_set_duration(fade, 1);
    lk_animation_set_fill_mode(fade, LK_FILL_FORWARDS);
    lk_animation_set_removed_on_completion(fade, false);
    lk_layer_add_animation(overlay, fade, "fade");
    lk_release(fade);
    lk_transaction_flush();
    double b = lk_animation_get_begin_time(lk_layer_get_animation(overlay, "fade"));
    lk_display_render_frame_at(display, b + 0.5);
    cr = lkt_cairo_begin(W, H);
    cairo_rectangle(cr, 0, 0, 80, 60);
    cairo_set_source_rgb(cr, 1, 0, 0);
    cairo_fill(cr);
    cairo_push_group(cr); /* the snapshot is one image, faded as a whole */
    cairo_rectangle(cr, 0, 0, 80, 60);
    cairo_set_source_rgb(cr, 0, 0.5, 0);
    cairo_fill(cr);
    cairo_rectangle(cr, 30, 0, 20, 40);
    cairo_set_source_rgb(cr, 1, 1, 0);
    cairo_fill(cr);
    cairo_pop_group_to_source(cr);
    cairo_paint_with_alpha(cr, 0.5);
    lkt_check_against_cairo("renderInContext: a snapshot transition half-way is half old, half new", display, cr, tolerance);
    lk_display_render_frame_at(display, b + 2);
    cr = lkt_cairo_begin(W, H);
    cairo_rectangle(cr, 0, 0, 80, 60);
    cairo_set_source_rgb(cr, 1, 0, 0);
    cairo_fill(cr);
    lkt_check_against_cairo("renderInContext: the snapshot transition ends on the new look", display, cr, tolerance);
    lk_layer_remove_from_superlayer(overlay);
    lk_layer_remove_from_superlayer(shown);
    lk_release(overlay);
    lk_release(shown);
    lk_release(image);
    lk_release(child);
    lk_release(l);
}

static void test_canvas_errors(void)
{
    LKT_CHECK(kept != NULL && lk_canvas_get_width(kept) == 0, "lk_canvas: a canvas kept past its callback is refused",
              "width %u", kept ? lk_canvas_get_width(kept) : 0);
    LKT_CHECK_ERROR("lk_canvas: drawing on a canvas after its callback fails",
                    lk_canvas_clear(kept, lk_color_make(0, 0, 0, 1)), LK_ERROR_INVALID_ARGUMENT, "canvas");
    LKT_CHECK_ERROR("lk_canvas: a NULL canvas is refused", lk_canvas_clear(NULL, lk_color_make(0, 0, 0, 1)),
                    LK_ERROR_INVALID_ARGUMENT, "canvas");
    LKT_CHECK(lk_canvas_get_width(NULL) == 0, "lk_canvas: getters on NULL return 0", "nonzero");
}

/* A layer marked for display while it draws (its own draw asking for
   another pass, as progressive drawing does) is drawn again at the next
   commit, as Core Animation redraws it; the mark was kept as a flag and
   never acted on. The same for a layer marked by another's draw after it
   was drawn in the same commit. */
static int redraws, marks_left;
static void draw_again(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    redraws++;
    lk_canvas_clear(canvas, lk_color_make(0, 1, 0, 1));
    /* user_data: the layer to mark (NULL: this one), once */
    if (marks_left > 0) {
        marks_left--;
        lk_layer_set_needs_display(user_data ? (lk_layer *)user_data : layer);
    }
}

static lk_layer *drawn_layer(double x, lk_layer *to_mark)
{
    lk_layer_delegate d = drawing_delegate(draw_again);
    lk_layer *l = lk_layer_create();
    lk_layer_set_frame(l, lk_rect_make(x, 0, 20, 20));
    lk_layer_add_sublayer(root, l);
    lk_layer_set_delegate(l, &d, to_mark, NULL);
    return l;
}

static void test_marked_while_drawing(void)
{
    /* its own draw marks it */
    lk_layer *l = drawn_layer(0, NULL);
    lk_transaction_flush();
    redraws = 0;
    marks_left = 1;
    lk_layer_set_needs_display(l);
    lk_transaction_flush();
    int after_first = redraws;
    lk_display_render_frame_at(display, lk_media_time());   /* a run loop turn commits the mark */
    lk_transaction_flush();
    LKT_CHECK(after_first == 1 && redraws == 2 && !lk_layer_get_needs_display(l),
              "S2 a layer marked for display by its own draw is drawn again at the next commit",
              "draws %d then %d, needs display %d", after_first, redraws, lk_layer_get_needs_display(l));
    lk_layer_remove_from_superlayer(l);
    lk_release(l);

    /* a layer drawn first in a commit, marked by the one drawn after it */
    lk_layer *first = drawn_layer(30, NULL);
    l = drawn_layer(0, first);
    lk_transaction_flush();
    redraws = 0;
    marks_left = 0;
    lk_layer_set_needs_display(first);
    lk_transaction_flush();   /* first drawn, marking nothing */
    marks_left = 1;
    lk_layer_set_needs_display(first);
    lk_layer_set_needs_display(l);
    lk_transaction_flush();   /* first, then l, whose draw marks first */
    after_first = redraws;
    lk_display_render_frame_at(display, lk_media_time());
    lk_transaction_flush();
    LKT_CHECK(after_first == 3 && redraws == 4 && !lk_layer_get_needs_display(first),
              "S2 a layer marked by another's draw after it was drawn is drawn at the next commit",
              "draws %d then %d, needs display %d", after_first, redraws, lk_layer_get_needs_display(first));
    lk_layer_remove_from_superlayer(l);
    lk_layer_remove_from_superlayer(first);
    lk_release(l);
    lk_release(first);
}

/* S2.1, S2.3: a change a delegate's draw makes during a commit's display
   pass joins that commit and leaves no transaction open, also when the
   change runs an action: the other layer's implicit animation opened an
   implicit transaction (the draw runs after the commit closed its frames),
   in which the program's next explicit transaction nested, uncommitted; and
   the change did not take the committing transaction's disableActions.
   test_draw's check drew without changing a layer that animates. */
static lk_layer *changed_by_draw;
static int completions;
static void count_completion(void *user_data)
{
    (void)user_data;
    completions++;
}
static void draw_and_fade(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    (void)layer;
    (void)user_data;
    lk_canvas_clear(canvas, lk_color_make(0, 1, 0, 1));
    lk_layer_set_opacity(changed_by_draw, 0.25);
}

static double presented_opacity(lk_layer *l)
{
    lk_layer *shown = lk_layer_copy_presentation(l);
    double v = shown ? lk_layer_get_opacity(shown) : -1;
    lk_release(shown);
    return v;
}

static void test_drawing_joins_the_commit(void)
{
    for (int by_flush = 0; by_flush < 2; by_flush++) {
        lk_layer_delegate d = drawing_delegate(draw_and_fade);
        lk_layer *drawn = lk_layer_create(), *other = lk_layer_create();
        lk_layer_set_frame(drawn, lk_rect_make(0, 0, 10, 10));
        lk_layer_set_frame(other, lk_rect_make(20, 0, 10, 10));
        lk_transaction_set_disable_actions(true);
        lk_layer_add_sublayer(root, drawn);
        lk_layer_add_sublayer(root, other);
        lk_transaction_flush();
        lk_layer_set_delegate(drawn, &d, NULL, NULL);
        changed_by_draw = other;
        const char *how = by_flush ? "(committed by flush)" : "(committed by lk_transaction_commit)";
        char name[200];

        /* actions on: the draw's change animates; the next explicit
           transaction is the outermost and reaches the render side at once */
        if (by_flush) {
            lk_layer_set_needs_display(drawn);
            lk_transaction_flush();
        } else {
            lk_transaction_begin();
            lk_layer_set_needs_display(drawn);
            lk_transaction_commit();
        }
        snprintf(name, sizeof name, "S2.1 a draw's change that animates leaves no transaction open %s", how);
        lk_transaction_begin();
        lk_transaction_set_disable_actions(true);
        lk_layer_set_opacity(drawn, 0.5);
        lk_transaction_commit();
        double shown = presented_opacity(drawn);
        LKT_CHECK(shown == 0.5, name, "next explicit transaction presented opacity %g, not 0.5", shown);

        /* the committing transaction disables actions: so does the draw's change */
        lk_transaction_begin();
        lk_transaction_set_disable_actions(true);
        lk_layer_remove_all_animations(other);   /* the fade above, which no frame ended */
        lk_layer_set_opacity(other, 1);
        lk_transaction_commit();
        if (by_flush) {
            lk_transaction_set_disable_actions(true);
            lk_layer_set_needs_display(drawn);
            lk_transaction_flush();
        } else {
            lk_transaction_begin();
            lk_transaction_set_disable_actions(true);
            lk_layer_set_needs_display(drawn);
            lk_transaction_commit();
        }
        const char *keys[4];
        size_t n = lk_layer_get_animation_keys(other, keys, 4);
        shown = presented_opacity(other);
        snprintf(name, sizeof name, "S2.3 a draw's change takes the committing transaction's disableActions %s", how);
        LKT_CHECK(n == 0 && shown == 0.25, name, "%zu animations, presented opacity %g (want none, 0.25)", n, shown);

        /* S2.4: the committing transaction's completion waits for the
           animation its draw added */
        if (!by_flush) {
            lk_transaction_begin();
            lk_transaction_set_disable_actions(true);
            lk_layer_set_opacity(other, 1);
            lk_transaction_commit();
            completions = 0;
            lk_transaction_begin();
            lk_transaction_set_completion(count_completion, NULL);
            lk_layer_set_needs_display(drawn);
            lk_transaction_commit();
            lk_animation *fade = lk_layer_get_animation(other, "opacity");
            double b = fade ? lk_animation_get_begin_time(fade) : lk_media_time();
            lk_display_render_frame_at(display, b + 0.1);
            lk_display_dispatch(display, 0);
            int during = completions;
            lk_display_render_frame_at(display, b + 0.5);
            lk_display_dispatch(display, 0);
            lk_display_dispatch(display, 0);
            LKT_CHECK(fade && during == 0 && completions == 1,
                      "S2.4 the committing transaction's completion waits for the animation its draw added",
                      "animation %s, completions %d while it runs, %d after", fade ? "added" : "none", during,
                      completions);
        }

        lk_layer_remove_from_superlayer(drawn);
        lk_layer_remove_from_superlayer(other);
        lk_transaction_flush();
        lk_release(drawn);
        lk_release(other);
    }
}

/* A draw that marks its own layer and displays it at once
   (lk_layer_display_if_needed) recursed until the stack overflowed: past
   16 nested displays the layer stays marked, with a warning, and is drawn
   at the next commit. */
static int nested_draws;
static void draw_and_display_again(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    (void)canvas;
    (void)user_data;
    nested_draws++;
    lk_layer_set_needs_display(layer);
    lk_layer_display_if_needed(layer);
}

static void test_display_nesting_is_bounded(void)
{
    lk_layer_delegate d = drawing_delegate(draw_and_display_again);
    lk_layer *l = lk_layer_create();
    lk_layer_set_frame(l, lk_rect_make(0, 0, 10, 10));
    lk_transaction_set_disable_actions(true);
    lk_layer_add_sublayer(root, l);
    lk_transaction_flush();
    lk_layer_set_delegate(l, &d, NULL, NULL);
    nested_draws = 0;
    lk_layer_set_needs_display(l);
    lk_transaction_flush();
    LKT_CHECK(nested_draws == 16 && lk_layer_get_needs_display(l),
              "S6.1 a draw that displays its layer again stops after 16 nested displays, the layer still marked",
              "%d draws, needs display %d", nested_draws, (int)lk_layer_get_needs_display(l));
    lk_layer_set_delegate(l, NULL, NULL, NULL);
    lk_layer_remove_from_superlayer(l);
    lk_transaction_flush();
    lk_release(l);
}

/* Canvas text is laid out as a text layer would lay it out: an empty font
   name is refused as lk_text_layer_set_font refuses it (it drew in the
   default font and returned LK_OK); NULL is the default font. */
static lk_status empty_font_status, null_font_status;
static char empty_font_message[200];
static void draw_text_fonts(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    (void)layer;
    (void)user_data;
    lk_rect r = lk_rect_make(0, 0, 40, 20);
    empty_font_status = lk_canvas_draw_text(canvas, "Hi", "", 12, lk_color_make(1, 1, 1, 1), LK_TEXT_ALIGNMENT_LEFT, r);
    snprintf(empty_font_message, sizeof empty_font_message, "%s", lk_last_error());
    null_font_status = lk_canvas_draw_text(canvas, "Hi", NULL, 12, lk_color_make(1, 1, 1, 1), LK_TEXT_ALIGNMENT_LEFT, r);
}

static void test_canvas_text_font(void)
{
    lk_layer_delegate d = drawing_delegate(draw_text_fonts);
    lk_layer *l = lk_layer_create();
    lk_layer_set_frame(l, lk_rect_make(0, 0, 40, 20));
    lk_layer_set_delegate(l, &d, NULL, NULL);
    empty_font_status = null_font_status = LK_OK;
    lk_layer_set_needs_display(l);
    lk_layer_display_if_needed(l);
    LKT_CHECK(empty_font_status == LK_ERROR_INVALID_ARGUMENT && strncmp(empty_font_message, "font_name:", 10) == 0,
              "lk_canvas_draw_text: an empty font name is refused, naming font_name (as a text layer refuses it)",
              "%s \"%s\"", lkt_status_name(empty_font_status), empty_font_message);
    LKT_CHECK_STATUS("lk_canvas_draw_text: a NULL font name is the default font", null_font_status, LK_OK);
    lk_release(l);
    lk_transaction_flush();
}

/* A contentsScale so small its square underflows (1e-200) still draws:
   the canvas is one pixel and clearing it fills it (cairo refused the
   scale, and every canvas call returned LK_OK drawing nothing). */
static lk_status tiny_clear;
static void clear_red(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    (void)layer;
    (void)user_data;
    tiny_clear = lk_canvas_clear(canvas, lk_color_make(1, 0, 0, 1));
}

static void test_tiny_contents_scale(void)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 20, 20));
    LKT_CHECK_STATUS("S7 a contentsScale of 1e-200 is taken", lk_layer_set_contents_scale(l, 1e-200), LK_OK);
    lk_layer_delegate d = drawing_delegate(clear_red);
    lk_layer_set_delegate(l, &d, NULL, NULL);
    lk_layer_set_needs_display(l);
    lk_layer_display_if_needed(l);
    lk_image *contents = lk_layer_get_contents(l);
    uint8_t px[4] = { 0, 0, 0, 0 };
    if (contents) lk_image_read_pixels(contents, px, 4);
    LKT_CHECK(tiny_clear == LK_OK && contents && px[0] == 255 && px[3] == 255,
              "S7 at contentsScale 1e-200 the canvas still draws (one red pixel)", "status %d, pixel %d,%d,%d,%d",
              (int)tiny_clear, px[0], px[1], px[2], px[3]);
    lk_release(l);
}

/* renderInContext draws every layer of the subtree that is marked for
   display first, as a commit would: a sublayer drawn by its delegate and
   marked was blank in a snapshot of its superlayer (only the layer itself
   was drawn), and marked again, showed its old drawing. */
static lk_color snapshot_fill;
static void fill_with(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    (void)layer;
    (void)user_data;
    lk_canvas_clear(canvas, snapshot_fill);
}

static void snapshot_pixel(lk_layer *l, uint8_t px[4])
{
    memset(px, 0, 4);
    lk_image *image = lk_layer_render_to_image(l, 1);
    if (!image) return;
    uint8_t *all = (uint8_t *)malloc((size_t)lk_image_get_width(image) * lk_image_get_height(image) * 4);
    if (all && lk_image_read_pixels(image, all, (size_t)lk_image_get_width(image) * 4) == LK_OK) memcpy(px, all, 4);
    free(all);
    lk_release(image);
}

static void test_snapshot_of_marked_sublayers(void)
{
    lk_layer *parent = lk_layer_create(), *child = lk_layer_create(), *grandchild = lk_layer_create();
    lk_layer_set_frame(parent, lk_rect_make(0, 0, 20, 20));
    lk_layer_set_frame(child, lk_rect_make(0, 0, 20, 20));
    lk_layer_set_frame(grandchild, lk_rect_make(0, 0, 10, 10));
    lk_layer_add_sublayer(parent, child);
    lk_layer_add_sublayer(child, grandchild);
    lk_layer_delegate d = drawing_delegate(fill_with);
    lk_layer_set_delegate(grandchild, &d, NULL, NULL);
    snapshot_fill = lk_color_make(1, 0, 0, 1);
    lk_layer_set_needs_display(grandchild);
    uint8_t px[4];
    snapshot_pixel(parent, px);
    LKT_CHECK(px[0] == 255 && px[1] == 0 && px[2] == 0 && px[3] == 255,
              "renderInContext draws a sublayer's sublayer marked for display first", "pixel %d,%d,%d,%d", px[0], px[1],
              px[2], px[3]);
    snapshot_fill = lk_color_make(0, 0, 1, 1);
    lk_layer_set_needs_display(grandchild);
    snapshot_pixel(parent, px);
    LKT_CHECK(px[0] == 0 && px[2] == 255 && px[3] == 255,
              "renderInContext: a sublayer marked again shows its new drawing, not its old", "pixel %d,%d,%d,%d", px[0],
              px[1], px[2], px[3]);
    LKT_CHECK(!lk_layer_get_needs_display(grandchild), "renderInContext leaves the drawn sublayer unmarked", "%s",
              "still marked");
    lk_release(grandchild);
    lk_release(child);
    lk_release(parent);
}

int main(void)
{
    display = lkt_open_display(W, H, "open a software display");
    if (!display) return lkt_finish();
    root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_display_set_root_layer(display, root);
    lk_transaction_set_disable_actions(true);
    lk_transaction_flush();
    test_draw();
    test_snapshot();
    test_snapshot_of_marked_sublayers();
    test_canvas_errors();
    test_marked_while_drawing();
    test_tiny_contents_scale();
    test_drawing_joins_the_commit();
    test_canvas_text_font();
    test_display_nesting_is_bounded();   /* (last: without the bound it crashed) */
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
