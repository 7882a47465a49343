/* Default actions per kind of layer (S3.1 step 4): Core Animation's
   defaultActionForKey:, registered for a kind and an event, found after the
   delegate, the layer's actions and its style, before the built-in action. */
#include "support/lktest.h"
#include <stdio.h>
#include <string.h>

static lk_display *display;
static lk_layer *root;

/* a committed layer of the kind made by create, under the root */
static lk_layer *committed(lk_layer *(*create)(void))
{
    lk_layer *l = create();
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 20, 20));
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_add_sublayer(root, l);
    lk_transaction_commit();
    lk_release(l);
    lk_display_render_frame_at(display, lk_media_time());
    return l;
}

/* the duration of the animation that setting opacity added, 0 when none */
static double opacity_animation_duration(lk_layer *l, double opacity)
{
    lk_layer_set_opacity(l, opacity);
    lk_transaction_flush();
    lk_animation *a = lk_layer_get_animation(l, "opacity");
    double d = a ? lk_animation_get_duration(a) : 0;
    lk_layer_remove_all_animations(l);
    return d;
}

static int custom_runs;
static char custom_event[32];
static lk_layer *custom_layer;

static void custom_run(const char *event, lk_layer *layer, void *user_data)
{
    (void)user_data;
    custom_runs++;
    strncpy(custom_event, event, sizeof custom_event - 1);
    custom_layer = layer;
}

static lk_action *delegate_action;
static lk_action *answer_from_delegate(lk_layer *layer, const char *event, void *user_data)
{
    (void)layer; (void)event; (void)user_data;
    return delegate_action;
}

static void kinds(void)
{
    lk_layer *plain = lk_layer_create(), *shape = lk_shape_layer_create(), *text = lk_text_layer_create(),
             *gradient = lk_gradient_layer_create();
    LKT_CHECK(lk_layer_get_kind(plain) == LK_LAYER_KIND_LAYER, "S3.1 a plain layer's kind", "%d", (int)lk_layer_get_kind(plain));
    LKT_CHECK(lk_layer_get_kind(shape) == LK_LAYER_KIND_SHAPE, "S3.1 a shape layer's kind", "%d", (int)lk_layer_get_kind(shape));
    LKT_CHECK(lk_layer_get_kind(text) == LK_LAYER_KIND_TEXT, "S3.1 a text layer's kind", "%d", (int)lk_layer_get_kind(text));
    LKT_CHECK(lk_layer_get_kind(gradient) == LK_LAYER_KIND_GRADIENT, "S3.1 a gradient layer's kind", "%d",
              (int)lk_layer_get_kind(gradient));
    lk_release(plain);
    lk_release(shape);
    lk_release(text);
    lk_release(gradient);
    struct { lk_layer *(*create)(void); lk_layer_kind kind; const char *name; } special[] = {
        { lk_emitter_layer_create, LK_LAYER_KIND_EMITTER, "S3.1 an emitter layer's kind" },
        { lk_replicator_layer_create, LK_LAYER_KIND_REPLICATOR, "S3.1 a replicator layer's kind" },
        { lk_transform_layer_create, LK_LAYER_KIND_TRANSFORM, "S3.1 a transform layer's kind" },
        { lk_scroll_layer_create, LK_LAYER_KIND_SCROLL, "S3.1 a scroll layer's kind" },
        { lk_tiled_layer_create, LK_LAYER_KIND_TILED, "S3.1 a tiled layer's kind" },
    };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        lk_layer *l = special[i].create();
        LKT_CHECK(lk_layer_get_kind(l) == special[i].kind, special[i].name, "%d", (int)lk_layer_get_kind(l));
        lk_release(l);
    }
}

static void search_order(void)
{
    lk_layer *plain = committed(lk_layer_create), *shape = committed(lk_shape_layer_create);
    LKT_CHECK_NEAR("S3.3 before any registration: the built-in 0.25 s", opacity_animation_duration(plain, 0.5), 0.25, 1e-12);

    /* an animation registered for plain layers and opacity: a 2 s fade */
    lk_animation *slow = lk_basic_animation_create(NULL);
    lk_animation_set_duration(slow, 2.0);
    LKT_CHECK_STATUS("S3.1 registering a default action", lk_layer_kind_set_default_action(LK_LAYER_KIND_LAYER, "opacity",
                     lk_animation_as_action(slow)), LK_OK);
    lk_animation_set_duration(slow, 7.0); /* kept as a copy: no effect */
    lk_release(slow);
    LKT_CHECK_NEAR("S3.1 step 4: a plain layer runs its kind's default action", opacity_animation_duration(plain, 0.25), 2.0,
                   1e-12);
    lk_animation *added = NULL;
    lk_layer_set_opacity(plain, 0.75);
    lk_transaction_flush();
    added = lk_layer_get_animation(plain, "opacity");
    const char *path = added ? lk_animation_get_key_path(added) : NULL;
    LKT_CHECK(path && strcmp(path, "opacity") == 0, "S3.5 the default animation runs under the event's key path", "%s",
              path ? path : "(none)");
    lk_layer_remove_all_animations(plain);
    LKT_CHECK_NEAR("S3.1 another kind keeps the built-in action", opacity_animation_duration(shape, 0.5), 0.25, 1e-12);
    lk_action *found = lk_layer_copy_action_for_key(plain, "opacity");
    LKT_CHECK(found != NULL, "S3.2 asking a layer for its action finds the kind's default", "NULL");
    lk_release(found);

    /* steps 1-3 come first */
    lk_animation *quick = lk_basic_animation_create(NULL);
    lk_animation_set_duration(quick, 0.5);
    lk_layer_set_style_action(plain, "opacity", lk_animation_as_action(quick));
    LKT_CHECK_NEAR("S3.1 step 3: the style's action comes before the kind's", opacity_animation_duration(plain, 0.5), 0.5, 1e-12);
    lk_animation_set_duration(quick, 0.75);
    lk_layer_set_action(plain, "opacity", lk_animation_as_action(quick));
    LKT_CHECK_NEAR("S3.1 step 2: the layer's actions come before the style's", opacity_animation_duration(plain, 0.25), 0.75,
                   1e-12);
    lk_animation_set_duration(quick, 1.5);
    delegate_action = lk_animation_as_action(quick);
    lk_layer_delegate d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.action_for_key = answer_from_delegate;
    lk_layer_set_delegate(plain, &d, NULL, NULL);
    LKT_CHECK_NEAR("S3.1 step 1: the delegate comes first", opacity_animation_duration(plain, 0.5), 1.5, 1e-12);
    lk_release(quick);
    lk_layer_set_delegate(plain, NULL, NULL, NULL);
    lk_layer_set_action(plain, "opacity", NULL);
    lk_layer_set_style_action(plain, "opacity", NULL);
    LKT_CHECK_NEAR("S3.1 with steps 1-3 empty the kind's default answers again", opacity_animation_duration(plain, 0.25), 2.0,
                   1e-12);

    /* the null action turns the built-in animation off for the kind */
    LKT_CHECK_STATUS("S3.1 registering the null action", lk_layer_kind_set_default_action(LK_LAYER_KIND_SHAPE, "opacity",
                     lk_action_null()), LK_OK);
    LKT_CHECK_NEAR("S3.1 a null default action: a shape layer's opacity jumps", opacity_animation_duration(shape, 0.25), 0,
                   1e-12);
    lk_layer *p = lk_layer_copy_presentation(shape);
    LKT_CHECK_NEAR("S3.1 the jump shows at once", p ? lk_layer_get_opacity(p) : -1, 0.25, 1e-12);
    lk_release(p);
    LKT_CHECK_NEAR("S3.1 other properties of the kind still animate", (lk_layer_set_position(shape, lk_point_make(5, 5)),
                   lk_transaction_flush(), lk_layer_get_animation(shape, "position") ? 1.0 : 0.0), 1.0, 0);
    lk_layer_remove_all_animations(shape);

    /* a custom action gets the event and the layer */
    lk_action *custom = lk_action_create(custom_run, NULL, NULL);
    lk_layer_kind_set_default_action(LK_LAYER_KIND_SHAPE, "cornerRadius", custom);
    lk_release(custom);
    lk_layer_set_corner_radius(shape, 4);
    lk_transaction_flush();
    LKT_CHECK(custom_runs == 1 && strcmp(custom_event, "cornerRadius") == 0 && custom_layer == shape,
              "S3.5 a custom default action runs with the event and the layer", "%d runs, event %s", custom_runs, custom_event);
    LKT_CHECK(lk_layer_get_animation(shape, "cornerRadius") == NULL, "S3.5 a custom action adds no animation", "one was added");

    /* removing the registrations restores the built-in actions */
    lk_layer_kind_set_default_action(LK_LAYER_KIND_LAYER, "opacity", NULL);
    lk_layer_kind_set_default_action(LK_LAYER_KIND_SHAPE, "opacity", NULL);
    lk_layer_kind_set_default_action(LK_LAYER_KIND_SHAPE, "cornerRadius", NULL);
    LKT_CHECK_NEAR("S3.1 NULL removes the registration: built-in again", opacity_animation_duration(plain, 0.5), 0.25, 1e-12);
    LKT_CHECK_NEAR("S3.1 NULL removes the null action too", opacity_animation_duration(shape, 0.5), 0.25, 1e-12);
}

static void errors(void)
{
    lk_animation *a = lk_basic_animation_create(NULL);
    lk_action *action = lk_animation_as_action(a);
    lk_status s = lk_layer_kind_set_default_action((lk_layer_kind)99, "opacity", action);
    LKT_CHECK(s == LK_ERROR_INVALID_ARGUMENT && strstr(lk_last_error(), "kind") != NULL,
              "S8.1 an unknown kind is refused, naming the argument", "%s: %s", lkt_status_name(s), lk_last_error());
    s = lk_layer_kind_set_default_action(LK_LAYER_KIND_LAYER, NULL, action);
    LKT_CHECK(s == LK_ERROR_INVALID_ARGUMENT && strstr(lk_last_error(), "event") != NULL,
              "S8.1 a NULL event is refused, naming the argument", "%s: %s", lkt_status_name(s), lk_last_error());
    s = lk_layer_kind_set_default_action(LK_LAYER_KIND_LAYER, "opacity", (lk_action *)a);
    LKT_CHECK(s == LK_ERROR_INVALID_ARGUMENT && strstr(lk_last_error(), "action") != NULL,
              "S8.1 an animation passed as an action is refused", "%s: %s", lkt_status_name(s), lk_last_error());
    lk_layer *l = committed(lk_layer_create);
    LKT_CHECK_NEAR("S8.1 a refused registration changes nothing", opacity_animation_duration(l, 0.5), 0.25, 1e-12);
    LKT_CHECK(lk_layer_get_kind(NULL) == LK_LAYER_KIND_LAYER && strstr(lk_last_error(), "layer") != NULL,
              "S8.1 the kind of NULL is an error naming the layer", "%s", lk_last_error());

    /* An animation the layer would refuse for the event is refused as its
       action when set, saying why; it was taken, and then each change of
       the property ran nothing, with no word anywhere. */
    lk_animation *wrong = lk_basic_animation_create(NULL);
    lk_animation_set_from_value(wrong, lk_value_string("half"));
    lk_action *wrong_action = lk_animation_as_action(wrong);
    LKT_CHECK_ERROR("S8.1 an animation action of the wrong value type for its event is refused when set",
                    lk_layer_set_action(l, "opacity", wrong_action), LK_ERROR_TYPE_MISMATCH, "action");
    LKT_CHECK_ERROR("S8.1 ... as a style action too", lk_layer_set_style_action(l, "opacity", wrong_action),
                    LK_ERROR_TYPE_MISMATCH, "opacity");
    LKT_CHECK_NEAR("S8.1 a refused action changes nothing: the built-in one runs", opacity_animation_duration(l, 0.3), 0.25,
                   1e-12);
    lk_animation *keys = lk_keyframe_animation_create(NULL);
    lk_value values[3] = { lk_value_number(0), lk_value_number(1), lk_value_number(0.5) };
    double times[3] = { 0, 0.8, 0.4 };
    lk_animation_set_values(keys, values, 3);
    lk_animation_set_key_times(keys, times, 3);
    lk_action *keys_action = lk_animation_as_action(keys);
    LKT_CHECK_ERROR("S8.1 a keyframe action with decreasing keyTimes is refused when set",
                    lk_layer_set_action(l, "opacity", keys_action), LK_ERROR_INVALID_ARGUMENT, "keyTimes");
    lk_animation *fine = lk_basic_animation_create(NULL);
    lk_action *fine_action = lk_animation_as_action(fine);
    LKT_CHECK_ERROR("S8.1 an animation action with no key path for an event that is no property is refused",
                    lk_layer_set_action(l, "onOrderIn", fine_action), LK_ERROR_UNKNOWN_KEY_PATH, "onOrderIn");
    lk_animation_set_key_path(fine, "opacity");
    lk_release(fine_action);
    fine_action = lk_animation_as_action(fine);
    LKT_CHECK_STATUS("S3.4 one with a key path is taken for such an event", lk_layer_set_action(l, "onOrderIn", fine_action),
                     LK_OK);
    lk_layer_set_action(l, "onOrderIn", NULL);
    lk_release(fine_action);
    lk_release(fine);
    lk_release(keys_action);
    lk_release(keys);
    lk_release(wrong_action);
    lk_release(wrong);
    lk_release(a);
}

/* S3.4: onOrderIn on a layer added to a tree a display shows (a new layer
   too: the usual fade-in on insert never ran for one never committed),
   onOrderOut on one removed from it, neither for trees no display shows; a
   layer moved to another superlayer leaves the first one as a removal does
   (its "sublayers" event and layout; only the new one heard of the move). */
static int order_ins, order_outs, sublayer_events;
static lk_layer *sublayers_of;
static void count_order(const char *event, lk_layer *layer, void *user_data)
{
    (void)layer;
    (void)user_data;
    if (strcmp(event, "onOrderIn") == 0) order_ins++;
    if (strcmp(event, "onOrderOut") == 0) order_outs++;
}
static lk_action *answer_sublayers(lk_layer *layer, const char *event, void *user_data)
{
    (void)user_data;
    if (strcmp(event, "sublayers") == 0 && layer == sublayers_of) sublayer_events++;
    return NULL;
}

/* the former superlayer's "sublayers" action empties the new superlayer */
static lk_layer *emptied;
static void empty_the_other(const char *event, lk_layer *layer, void *user_data)
{
    (void)event;
    (void)layer;
    (void)user_data;
    while (lk_layer_get_sublayer_count(emptied) > 0) lk_layer_remove_from_superlayer(lk_layer_get_sublayer(emptied, 0));
}

static void hierarchy_events(void)
{
    lk_action *counter = lk_action_create(count_order, NULL, NULL);
    /* a new layer, never committed, added to the shown tree */
    lk_layer *fresh = lk_layer_create();
    lk_layer_set_action(fresh, "onOrderIn", counter);
    lk_layer_set_action(fresh, "onOrderOut", counter);
    lk_layer_add_sublayer(root, fresh);
    lk_transaction_flush();
    LKT_CHECK(order_ins == 1, "S3.4 onOrderIn runs for a new layer added to a shown tree", "%d runs", order_ins);
    lk_layer_remove_from_superlayer(fresh);
    lk_transaction_flush();
    LKT_CHECK(order_outs == 1, "S3.4 onOrderOut runs for a layer removed from a shown tree", "%d runs", order_outs);

    /* a tree no display shows, committed: neither */
    lk_layer *offscreen = lkt_layer_new(NULL, 0, 0, 50, 50, lk_color_make(1, 0, 0, 1));
    lk_transaction_flush();
    lk_layer_add_sublayer(offscreen, fresh);
    lk_transaction_flush();
    lk_layer_remove_from_superlayer(fresh);
    lk_transaction_flush();
    LKT_CHECK(order_ins == 1 && order_outs == 1, "S3.4 neither runs in a tree no display shows",
              "%d in, %d out", order_ins, order_outs);

    /* moved from one shown superlayer to another */
    lk_layer *x = lkt_layer_new(root, 0, 0, 40, 40, lk_color_make(1, 0, 0, 1));
    lk_layer *z = lkt_layer_new(root, 50, 0, 40, 40, lk_color_make(0, 1, 0, 1));
    lk_layer_add_sublayer(x, fresh);
    lk_transaction_flush();
    LKT_CHECK(order_ins == 2, "S3.4 onOrderIn when added under a shown layer", "%d runs", order_ins);
    lk_layer_delegate d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.action_for_key = answer_sublayers;
    lk_layer_set_delegate(x, &d, NULL, NULL);
    sublayers_of = x;
    lk_layer_add_sublayer(z, fresh);
    LKT_CHECK(sublayer_events == 1, "S3.4 a move asks the former superlayer for its sublayers action",
              "%d times", sublayer_events);
    LKT_CHECK(lk_layer_get_needs_layout(x), "S1.3 a move marks the former superlayer for layout", "not marked");
    LKT_CHECK(order_outs == 2 && order_ins == 3, "S3.4 a move between shown superlayers: out of one, into the other",
              "%d in, %d out", order_ins, order_outs);
    lk_transaction_flush();

    /* hidden, then shown again: onOrderOut, then onOrderIn, as Core
       Animation documents them ("... or the layer is no longer set as
       hidden"); in a tree no display shows, neither */
    /* moved among its siblings, or added where it already is: it never
       leaves the tree, so no order event (an onOrderIn with no onOrderOut
       ran for each, and a no-op add ran the sublayers action, S3.6) */
    lk_layer *sibling = lkt_layer_new(z, 0, 0, 10, 10, lk_color_make(0, 0, 1, 1));
    lk_transaction_flush();
    sublayers_of = z;
    lk_layer_set_delegate(z, &d, NULL, NULL);
    sublayer_events = 0;
    int ins = order_ins, outs = order_outs;
    lk_layer_add_sublayer(z, sibling);   /* already last */
    LKT_CHECK(order_ins == ins && order_outs == outs && sublayer_events == 0,
              "S3.6 adding a sublayer where it already is changes nothing and runs no action",
              "%d in, %d out, %d sublayers events", order_ins - ins, order_outs - outs, sublayer_events);
    lk_layer_insert_sublayer_above(z, fresh, sibling);   /* to the top */
    LKT_CHECK(order_ins == ins && order_outs == outs && sublayer_events == 1,
              "S3.4 moving a sublayer among its siblings runs the superlayer's sublayers action, no order event",
              "%d in, %d out, %d sublayers events", order_ins - ins, order_outs - outs, sublayer_events);
    lk_layer_insert_sublayer_above(z, fresh, sibling);   /* where it is */
    lk_layer_insert_sublayer(z, fresh, 1);                /* where it is */
    LKT_CHECK(sublayer_events == 1, "S3.6 inserting a sublayer where it already is runs no action", "%d sublayers events",
              sublayer_events);
    lk_layer_set_delegate(z, NULL, NULL, NULL);
    lk_layer_remove_from_superlayer(sibling);
    lk_release(sibling);
    lk_transaction_flush();

    lk_layer_set_hidden(fresh, true);
    LKT_CHECK(order_outs == 3, "S3.4 onOrderOut runs when a shown layer is hidden", "%d runs", order_outs);
    lk_layer_set_hidden(fresh, false);
    LKT_CHECK(order_ins == 4, "S3.4 onOrderIn runs when it is no longer hidden", "%d runs", order_ins);
    lk_transaction_flush();

    /* the display's tree no longer shown (another root): neither */
    lk_layer *other_root = lkt_layer_new(NULL, 0, 0, 100, 100, lk_color_make(0, 0, 0, 1));
    lk_display_set_root_layer(display, other_root);
    lk_layer_set_hidden(fresh, true);
    lk_layer_set_hidden(fresh, false);
    lk_layer_remove_from_superlayer(fresh);
    lk_transaction_flush();
    LKT_CHECK(order_outs == 3 && order_ins == 4,
              "S3.4 neither for hiding, showing or removing in a tree the display stopped showing", "%d in, %d out",
              order_ins, order_outs);
    lk_display_set_root_layer(display, root);
    lk_transaction_flush();

    /* S8.1: an action run by a move may change the tree: the move is done
       before any action runs (the former superlayer's ran between the
       removal and the insertion, and its change made the index stale: a
       trap, found by the random call sequences) */
    lk_layer *y = lkt_layer_new(x, 0, 0, 5, 5, lk_color_make(1, 1, 1, 1));
    lk_layer *z1 = lkt_layer_new(z, 0, 0, 5, 5, lk_color_make(1, 1, 1, 1));
    lk_layer *z2 = lkt_layer_new(z, 0, 0, 5, 5, lk_color_make(1, 1, 1, 1));
    lk_transaction_flush();
    lk_layer_set_delegate(x, NULL, NULL, NULL);
    lk_action *emptier = lk_action_create(empty_the_other, NULL, NULL);
    lk_layer_set_action(x, "sublayers", emptier);
    lk_release(emptier);
    emptied = z;
    LKT_CHECK_STATUS("S8.1 a move whose actions change the tree", lk_layer_insert_sublayer(z, y, 2), LK_OK);
    LKT_CHECK(lk_layer_get_superlayer(y) == z || lk_layer_get_superlayer(y) == NULL,
              "S1.3 ... leaves a consistent tree", "superlayer %p", (void *)lk_layer_get_superlayer(y));
    lk_layer_set_action(x, "sublayers", NULL);
    lk_transaction_flush();
    lk_release(y);
    lk_release(z1);
    lk_release(z2);

    lk_layer_remove_from_superlayer(x);
    lk_layer_remove_from_superlayer(z);
    lk_release(x);
    lk_release(z);
    lk_release(fresh);
    lk_release(offscreen);
    lk_release(other_root);
    lk_release(counter);
    lk_transaction_flush();
}

/* S3.4 as Core Animation words it: onOrderIn when the layer is made
   visible ("inserted into a visible layer hierarchy or ... no longer set
   as hidden"), onOrderOut when it stops being ("removed from a visible
   layer hierarchy or is hidden"). A hidden layer added hears nothing until
   it is unhidden (it heard onOrderIn when added, and again when unhidden);
   a hidden layer removed hears nothing (it heard onOrderOut when hidden,
   and again when removed); a sibling replacing another never left the tree
   (it heard onOrderIn). Only a layer's own hidden counts, not an
   ancestor's (docs/time.md). */
static char order_log[256];
static void log_order(const char *event, lk_layer *layer, void *user_data)
{
    (void)user_data;
    const char *name = lk_layer_get_name(layer);
    size_t n = strlen(order_log);
    snprintf(order_log + n, sizeof order_log - n, "%s %s;", strcmp(event, "onOrderIn") == 0 ? "in" : "out",
             name ? name : "?");
}

/* a new layer named `name` whose order events are logged */
static lk_layer *logged_layer(const char *name, lk_action *logger)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_name(l, name);
    lk_layer_set_action(l, "onOrderIn", logger);
    lk_layer_set_action(l, "onOrderOut", logger);
    return l;
}

/* the events logged since the last call, then a fresh log */
static int logged(const char *want)
{
    int same = strcmp(order_log, want) == 0;
    order_log[0] = 0;
    return same;
}

static void order_events_of_visibility(void)
{
    lk_action *logger = lk_action_create(log_order, NULL, NULL);
    lk_layer *parent = logged_layer("P", logger), *a = logged_layer("A", logger), *b = logged_layer("B", logger);
    lk_layer *h = logged_layer("H", logger), *c = logged_layer("C", logger);
    lk_layer_add_sublayer(root, parent);
    lk_layer_add_sublayer(parent, a);
    lk_layer_add_sublayer(parent, b);
    lk_transaction_flush();
    LKT_CHECK(logged("in P;in A;in B;"), "S3.4 onOrderIn for each layer added to a shown tree", "%s", order_log);

    /* a. a sibling replacing another only moves among the sublayers */
    char got[256];
    lk_layer_replace_sublayer(parent, a, b);
    snprintf(got, sizeof got, "%s", order_log);
    LKT_CHECK(logged("out A;") && lk_layer_get_sublayer_count(parent) == 1 && lk_layer_get_sublayer(parent, 0) == b,
              "S3.4 replacing a layer by its sibling: onOrderOut for the one replaced, nothing for the sibling",
              "%s (%zu sublayers)", got, lk_layer_get_sublayer_count(parent));

    /* b. added hidden: nothing; unhidden: onOrderIn */
    lk_layer_set_hidden(h, true);
    lk_layer_add_sublayer(parent, h);
    snprintf(got, sizeof got, "%s", order_log);
    LKT_CHECK(logged(""), "S3.4 a hidden layer added to a shown tree hears no onOrderIn", "%s", got);
    lk_layer_set_hidden(h, false);
    snprintf(got, sizeof got, "%s", order_log);
    LKT_CHECK(logged("in H;"), "S3.4 ... and hears it once unhidden", "%s", got);
    lk_layer_set_hidden(h, true);
    lk_layer_replace_sublayer(parent, b, a);
    lk_layer_insert_sublayer(a, b, 0);
    lk_layer_insert_sublayer_below(a, h, b);   /* from parent to a, hidden */
    snprintf(got, sizeof got, "%s", order_log);
    LKT_CHECK(logged("out H;out B;in A;in B;"), "S3.4 a hidden layer moved between shown superlayers hears nothing",
              "%s", got);

    /* c. hidden, then removed: one onOrderOut, when hidden */
    lk_layer_remove_from_superlayer(h);
    snprintf(got, sizeof got, "%s", order_log);
    LKT_CHECK(logged(""), "S3.4 removing a hidden layer runs no onOrderOut (it ran when the layer was hidden)", "%s",
              got);
    lk_layer_set_hidden(h, false);
    lk_layer_set_hidden(b, true);
    lk_layer_replace_sublayer(a, b, h);
    snprintf(got, sizeof got, "%s", order_log);
    LKT_CHECK(logged("out B;in H;"), "S3.4 a hidden layer replaced runs no onOrderOut; its replacement onOrderIn",
              "%s", got);

    /* an ancestor's hidden does not count: a layer added under a hidden
       one hears onOrderIn, and unhiding the ancestor tells only it */
    lk_layer_set_hidden(a, true);
    lk_layer_add_sublayer(a, c);
    lk_layer_set_hidden(a, false);
    snprintf(got, sizeof got, "%s", order_log);
    LKT_CHECK(logged("out A;in C;in A;"),
              "S3.4 only a layer's own hidden counts: added under a hidden layer, it hears onOrderIn", "%s", got);

    lk_layer_remove_from_superlayer(parent);
    lk_transaction_flush();
    logged("");
    lk_release(c);
    lk_release(h);
    lk_release(b);
    lk_release(a);
    lk_release(parent);
    lk_release(logger);
}

/* S3.4, Core Animation's action triggers: a layer replacing another in a
   visible tree (replace_sublayer) takes the "transition" action, searched
   on the new layer; not in a tree no display shows. It was never searched. */
static int transitions;
static void count_transition(const char *event, lk_layer *layer, void *user_data)
{
    (void)layer;
    (void)user_data;
    if (strcmp(event, "transition") == 0) transitions++;
}

static void replace_transition(void)
{
    lk_action *counter = lk_action_create(count_transition, NULL, NULL);
    lk_layer *parent = lkt_layer_new(root, 0, 0, 40, 40, lk_color_make(1, 0, 0, 1));
    lk_layer *old = lkt_layer_new(parent, 0, 0, 10, 10, lk_color_make(0, 1, 0, 1));
    lk_layer *replacement = lk_layer_create();
    lk_layer_set_action(replacement, "transition", counter);
    lk_transaction_flush();
    lk_layer_replace_sublayer(parent, old, replacement);
    lk_transaction_flush();
    LKT_CHECK(transitions == 1, "S3.4 replacing a layer in a shown tree runs the new layer's transition action",
              "%d runs", transitions);
    lk_layer *offscreen = lkt_layer_new(NULL, 0, 0, 40, 40, lk_color_make(0, 0, 0, 1));
    lk_layer_add_sublayer(offscreen, old);
    lk_transaction_flush();
    lk_layer_replace_sublayer(offscreen, old, replacement);
    lk_transaction_flush();
    LKT_CHECK(transitions == 1, "S3.4 ... not in a tree no display shows", "%d runs", transitions);
    lk_layer_remove_from_superlayer(parent);
    lk_transaction_flush();
    lk_release(parent);
    lk_release(old);
    lk_release(replacement);
    lk_release(offscreen);
    lk_release(counter);
}

/* S3.6, the header: a background colour with alpha 0 is none, so setting
   one on a layer with none is no change (it ran the action and stored a
   colour), and it reads back by key path as none. */
static void clear_background_is_none(void)
{
    lk_layer *l = committed(lk_layer_create);
    lk_layer_set_background_color(l, lk_color_make(0, 0, 0, 0));
    lk_transaction_flush();
    LKT_CHECK(lk_layer_get_animation(l, "backgroundColor") == NULL,
              "S3.6 a clear background on a layer with none is no change: no animation", "animated");
    lk_layer_set_background_color(l, lk_color_make(1, 0, 0, 1));
    lk_layer_set_background_color(l, lk_color_make(1, 1, 1, 0));
    lk_value v = lk_value_none();
    lk_layer_get_value(l, "backgroundColor", &v);
    LKT_CHECK(v.type == LK_VALUE_NONE, "S1.1 a background colour with alpha 0 reads back as none", "type %s",
              lkt_value_type_name(v.type));
    lk_transaction_flush();
    lk_layer_remove_from_superlayer(l);
    lk_transaction_flush();
}

/* S3.3, S5.1: a root shown as created (no property of its own changed) is
   committed with the display's next frame: it has a presentation and its
   first change animates (it was never committed: no presentation, no
   animation, until some change of its own). */
static void fresh_root(void)
{
    lk_layer *fresh = lk_layer_create();
    lk_display_set_root_layer(display, fresh);
    lk_display_render_frame_at(display, lk_media_time());
    lk_layer *p = lk_layer_copy_presentation(fresh);
    LKT_CHECK(p != NULL, "S5.1 a root shown as created has a presentation after a frame", "%s", lk_last_error());
    lk_release(p);
    LKT_CHECK(opacity_animation_duration(fresh, 0.5) == 0.25,
              "S3.3 the first change of a root shown as created animates (0.25 s)", "no animation of 0.25 s");
    lk_display_set_root_layer(display, root);
    lk_display_render_frame_at(display, lk_media_time());
    lk_release(fresh);
}

int main(void)
{
    display = lkt_open_display(100, 100, "open");
    if (!display) return lkt_finish();
    root = lkt_layer_new(NULL, 0, 0, 100, 100, lk_color_make(0, 0, 0, 1));
    lk_display_set_root_layer(display, root);
    lk_display_render_frame_at(display, lk_media_time());
    kinds();
    search_order();
    hierarchy_events();
    order_events_of_visibility();
    replace_transition();
    clear_background_is_none();
    fresh_root();
    errors();
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
