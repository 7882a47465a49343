/* Layout: setNeedsLayout / layoutIfNeeded / layoutSublayers through the
   delegate's layout_sublayers, the layout pass before the outermost commit
   (parents before sublayers), the automatic marks (bounds size, sublayers)
   and the "onLayout" action (S3.4). */
#include "support/lktest.h"
#include <string.h>

/* what the layout callbacks saw, in order */
static char trace[512];
static int layouts;

static void note(const char *what)
{
    if (trace[0]) strncat(trace, ",", sizeof trace - strlen(trace) - 1);
    strncat(trace, what, sizeof trace - strlen(trace) - 1);
}

static void reset(void)
{
    trace[0] = '\0';
    layouts = 0;
}

/* a column layout: each sublayer gets the full width and an equal share of the height */
static void column_layout(lk_layer *layer, void *user_data)
{
    (void)user_data;
    const char *name = lk_layer_get_name(layer);
    note(name ? name : "?");
    layouts++;
    lk_rect b = lk_layer_get_bounds(layer);
    size_t n = lk_layer_get_sublayer_count(layer);
    for (size_t i = 0; i < n; i++) {
        lk_layer *c = lk_layer_get_sublayer(layer, i);
        double h = b.size.height / (double)n;
        lk_layer_set_frame(c, lk_rect_make(0, h * (double)i, b.size.width, h));
    }
}

/* A delegate with only layout_sublayers = layout. */
static void set_layout_delegate(lk_layer *l, void (*layout)(lk_layer *, void *))
{
    lk_layer_delegate d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.layout_sublayers = layout;
    lk_layer_set_delegate(l, &d, NULL, NULL);
}

static lk_layer *named(const char *name, double w, double h)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_name(l, name);
    lk_layer_set_bounds(l, lk_rect_make(0, 0, w, h));
    return l;
}

static void marks_and_pass(void)
{
    lk_layer *p = named("p", 100, 200);
    lk_layer *a = named("a", 1, 1), *b = named("b", 1, 1);
    set_layout_delegate(p, column_layout);
    lk_transaction_flush();
    reset();

    LKT_CHECK(!lk_layer_get_needs_layout(p), "layout: a committed layer does not need layout", "needs layout");
    lk_layer_add_sublayer(p, a);
    LKT_CHECK(lk_layer_get_needs_layout(p), "layout: adding a sublayer marks the superlayer", "not marked");
    lk_layer_add_sublayer(p, b);
    LKT_CHECK(layouts == 0, "layout: marking does not lay out at once", "%d layouts", layouts);
    lk_transaction_flush();
    LKT_CHECK(layouts == 1 && !lk_layer_get_needs_layout(p),
              "layout: the commit lays out a marked layer once", "%d layouts, still marked %d", layouts,
              (int)lk_layer_get_needs_layout(p));
    LKT_CHECK_RECT("layout: layout_sublayers placed the first sublayer", lk_layer_get_frame(a),
                   lk_rect_make(0, 0, 100, 100), 1e-9);
    LKT_CHECK_RECT("layout: and the second", lk_layer_get_frame(b), lk_rect_make(0, 100, 100, 100), 1e-9);

    reset();
    lk_layer_set_bounds(p, lk_rect_make(0, 0, 50, 40));
    LKT_CHECK(lk_layer_get_needs_layout(p), "layout: a bounds size change marks the layer", "not marked");
    lk_layer_layout_if_needed(p);
    LKT_CHECK(layouts == 1 && !lk_layer_get_needs_layout(p), "layout: layout_if_needed lays out now",
              "%d layouts", layouts);
    LKT_CHECK_RECT("layout: with the new size", lk_layer_get_frame(b), lk_rect_make(0, 20, 50, 20), 1e-9);
    lk_transaction_flush();
    LKT_CHECK(layouts == 1, "layout: what layout_if_needed did is not done again at the commit", "%d layouts",
              layouts);

    reset();
    lk_layer_set_bounds(p, lk_rect_make(10, 10, 50, 40)); /* origin only */
    LKT_CHECK(!lk_layer_get_needs_layout(p), "layout: a bounds origin change does not mark", "marked");
    lk_layer_set_position(p, lk_point_make(300, 300));
    LKT_CHECK(!lk_layer_get_needs_layout(p), "layout: a position change does not mark", "marked");
    lk_layer_layout_if_needed(p);
    LKT_CHECK(layouts == 0, "layout: layout_if_needed on an unmarked tree does nothing", "%d layouts", layouts);
    lk_layer_layout_sublayers(p);
    LKT_CHECK(layouts == 1, "layout: layout_sublayers calls the delegate, marked or not", "%d layouts", layouts);
    lk_transaction_flush();

    lk_layer_remove_from_superlayer(a);
    LKT_CHECK(lk_layer_get_needs_layout(p), "layout: removing a sublayer marks the superlayer", "not marked");
    lk_transaction_flush();
    lk_release(a);
    lk_release(b);
    lk_release(p);
}

static void parents_first(void)
{
    /* grandparent g lays out p, whose size change marks p, laid out in the same pass */
    lk_layer *g = named("g", 100, 100), *p = named("p", 10, 10), *c = named("c", 1, 1);
    set_layout_delegate(g, column_layout);
    set_layout_delegate(p, column_layout);
    lk_layer_add_sublayer(g, p);
    lk_layer_add_sublayer(p, c);
    lk_transaction_flush();
    reset();

    lk_layer_set_needs_layout(p);
    lk_layer_set_bounds(g, lk_rect_make(0, 0, 80, 60));
    lk_transaction_flush();
    LKT_CHECK(strcmp(trace, "g,p") == 0, "layout: parents are laid out before their sublayers, once each",
              "order [%s]", trace);
    LKT_CHECK_RECT("layout: the sublayer follows its parent's new layout", lk_layer_get_frame(c),
                   lk_rect_make(0, 0, 80, 60), 1e-9);

    /* layout_if_needed climbs while the ancestors are marked, then lays out
       every marked layer beneath the highest of them */
    set_layout_delegate(c, column_layout);
    reset();
    lk_layer_set_needs_layout(g);
    lk_layer_set_needs_layout(p);
    lk_layer_set_needs_layout(c);
    lk_layer_layout_if_needed(c);
    LKT_CHECK(strcmp(trace, "g,p,c") == 0 && !lk_layer_get_needs_layout(g),
              "layout: layout_if_needed starts at the highest marked ancestor and covers the marked ones below",
              "order [%s], g still marked %d", trace, (int)lk_layer_get_needs_layout(g));
    reset();
    lk_layer_set_needs_layout(g);
    lk_layer_set_needs_layout(c);
    lk_layer_layout_if_needed(c);
    LKT_CHECK(strcmp(trace, "c") == 0 && lk_layer_get_needs_layout(g),
              "layout: the climb stops at an unmarked ancestor (g stays marked for the commit)",
              "order [%s], g marked %d", trace, (int)lk_layer_get_needs_layout(g));
    reset();
    lk_transaction_flush();
    LKT_CHECK(strcmp(trace, "g") == 0, "layout: the commit lays out what is still marked", "order [%s]", trace);
    lk_release(c);
    lk_release(p);
    lk_release(g);
}

/* A sublayer its superlayer's layout_sublayers removes is not laid out in
   that pass (Core Animation's layoutIfNeeded visits the sublayers the layer
   has once its layout ran): it was, with no superlayer, after it had left
   the tree. One the layout adds, marked, is laid out after its new parent. */
static lk_layer *to_remove, *to_add;
static int removed_laid_out_detached;
static void removing_layout(lk_layer *layer, void *user_data)
{
    (void)user_data;
    const char *name = lk_layer_get_name(layer);
    note(name ? name : "?");
    if (layer == to_remove && !lk_layer_get_superlayer(layer)) removed_laid_out_detached = 1;
    if (strcmp(name, "p") == 0 && to_remove) {
        lk_layer_remove_from_superlayer(to_remove);
        lk_layer_add_sublayer(layer, to_add);
        lk_layer_set_needs_layout(to_add);
        to_remove = NULL;   /* once: the change marks p, laid out again */
    }
}

static void removed_by_layout(void)
{
    for (int by_layout_if_needed = 0; by_layout_if_needed < 2; by_layout_if_needed++) {
        lk_layer *p = named("p", 10, 10), *c = named("c", 5, 5), *gc = named("gc", 1, 1), *n = named("n", 2, 2);
        set_layout_delegate(p, removing_layout);
        set_layout_delegate(c, removing_layout);
        set_layout_delegate(gc, removing_layout);
        set_layout_delegate(n, removing_layout);
        lk_layer_add_sublayer(p, c);
        lk_layer_add_sublayer(c, gc);
        to_remove = NULL;
        to_add = NULL;
        lk_transaction_flush();
        reset();
        removed_laid_out_detached = 0;
        to_remove = c;
        to_add = n;
        lk_layer_set_needs_layout(p);
        lk_layer_set_needs_layout(c);
        lk_layer_set_needs_layout(gc);
        if (by_layout_if_needed) lk_layer_layout_if_needed(p);
        else lk_transaction_flush();
        /* (c and gc, taken out of the tree, are the names with a "c") */
        LKT_CHECK(strncmp(trace, "p,n", 3) == 0 && !strchr(trace, 'c') && !removed_laid_out_detached,
                  by_layout_if_needed
                      ? "layout: layout_if_needed does not lay out a sublayer the parent's layout removed (nor beneath it)"
                      : "layout: the pass does not lay out a sublayer the parent's layout removed (nor beneath it)",
                  "order [%s]", trace);
        to_remove = NULL;
        to_add = NULL;
        lk_transaction_flush();
        lk_release(n);
        lk_release(gc);
        lk_release(c);
        lk_release(p);
    }
}

static int on_layout_runs;
static void on_layout(const char *event, lk_layer *layer, void *user_data)
{
    (void)layer; (void)user_data;
    if (strcmp(event, "onLayout") == 0) on_layout_runs++;
}

static void on_layout_action(void)
{
    /* onLayout runs for committed layers (actions need a presentation, S5.1) */
    lk_display *d = lkt_open_display(64, 64, "layout: a display for onLayout");
    if (!d) return;
    lk_layer *root = lk_display_get_root_layer(d);
    lk_layer *p = named("p", 20, 20);
    lk_layer_add_sublayer(root, p);
    lk_display_render_frame_at(d, 1.0);
    lk_action *act = lk_action_create(on_layout, NULL, NULL);
    lk_layer_set_action(p, "onLayout", act);
    lk_release(act);
    lk_layer_set_needs_layout(p);
    lk_transaction_flush();
    LKT_CHECK(on_layout_runs == 1, "S3.4 the onLayout action runs after layout", "%d runs", on_layout_runs);
    lk_transaction_set_disable_actions(true);
    lk_layer_set_needs_layout(p);
    lk_transaction_flush();
    LKT_CHECK(on_layout_runs == 1, "S3.2 with actions disabled onLayout does not run", "%d runs", on_layout_runs);
    lk_display_close(d);
    lk_release(p);
}

/* a layout callback that marks its own layer every time must not hang */
static void restless_layout(lk_layer *layer, void *user_data)
{
    (void)user_data;
    layouts++;
    lk_layer_set_needs_layout(layer);
}

static void runaway_layout_ends(void)
{
    lk_layer *l = named("r", 10, 10);
    set_layout_delegate(l, restless_layout);
    reset();
    lk_transaction_flush();
    LKT_CHECK(layouts == 100, "layout: a layout that always re-marks gives up after 100 rounds", "%d layouts",
              layouts);
    lk_layer_set_delegate(l, NULL, NULL, NULL);
    lk_release(l);
}

/* S8.1: a layout callback that commits the transaction whose commit runs
   it (or begins one of its own and leaves it open) crashes nothing: the
   outer commit finds its transaction done and returns. (It trapped.) */
static int commits_in_layout;
static void committing_layout(lk_layer *layer, void *user_data)
{
    (void)user_data;
    layouts++;
    if (lk_transaction_commit() == LK_OK) commits_in_layout++;
    lk_layer_set_opacity(layer, 0.5);
}

static void beginning_layout(lk_layer *layer, void *user_data)
{
    (void)layer;
    (void)user_data;
    layouts++;
    lk_transaction_begin();
}

static void layout_that_commits(void)
{
    lk_layer *l = named("c", 10, 10);
    set_layout_delegate(l, committing_layout);
    lk_transaction_flush();
    reset();
    commits_in_layout = 0;
    lk_transaction_begin();
    lk_layer_set_position(l, lk_point_make(7, 8));
    lk_layer_set_needs_layout(l);
    LKT_CHECK_STATUS("S8.1 layout: a commit whose layout callback commits it returns OK", lk_transaction_commit(),
                     LK_OK);
    LKT_CHECK(layouts == 1 && commits_in_layout == 1, "S8.1 layout: the callback's own commit committed it",
              "%d layouts, %d commits in them", layouts, commits_in_layout);
    LKT_CHECK_STATUS("S8.1 layout: no transaction is left open", lk_transaction_commit(), LK_ERROR_STATE);
    lk_transaction_flush();   /* the callback's opacity, changed after its commit */
    LKT_CHECK(lk_layer_get_opacity(l) == 0.5 && lk_layer_get_position(l).x == 7,
              "S8.1 layout: the changes before and after the callback's commit stand", "opacity %g, x %g",
              lk_layer_get_opacity(l), lk_layer_get_position(l).x);

    set_layout_delegate(l, beginning_layout);
    reset();
    lk_transaction_begin();
    lk_layer_set_needs_layout(l);
    LKT_CHECK_STATUS("S8.1 layout: a commit whose layout callback begins a transaction returns OK",
                     lk_transaction_commit(), LK_OK);
    LKT_CHECK_STATUS("S8.1 layout: the callback's transaction went with it", lk_transaction_commit(),
                     LK_ERROR_STATE);
    LKT_CHECK(layouts == 1, "S8.1 layout: laid out once", "%d layouts", layouts);
    lk_layer_set_delegate(l, NULL, NULL, NULL);
    lk_release(l);
}

static void bad_input(void)
{
    LKT_CHECK_STATUS("layout: set_needs_layout(NULL) is an error", lk_layer_set_needs_layout(NULL),
                     LK_ERROR_INVALID_ARGUMENT);
    LKT_CHECK(strstr(lk_last_error(), "layer") != NULL, "layout: the error names the argument", "%s", lk_last_error());
    LKT_CHECK_STATUS("layout: layout_if_needed(NULL) is an error", lk_layer_layout_if_needed(NULL),
                     LK_ERROR_INVALID_ARGUMENT);
    LKT_CHECK(!lk_layer_get_needs_layout(NULL), "layout: get_needs_layout(NULL) is false", "true");
}

int main(void)
{
    marks_and_pass();
    parents_first();
    removed_by_layout();
    on_layout_action();
    runaway_layout_ends();
    layout_that_commits();
    bad_input();
    return lkt_finish();
}
