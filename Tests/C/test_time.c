/* Time: transactions (S2), actions (S3), animations and timing (S4),
   presentation (S5.1), through the C API with a manual clock. Times are
   read back from the added animation (its begin time is resolved at the
   commit), so every check is deterministic. */
#include "support/lktest.h"
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lk_display *display;
static lk_layer *root;

/* a committed plain layer under the display's root */
static lk_layer *committed_layer(void)
{
    lk_layer *l = lkt_layer_new(root, 10, 10, 40, 40, lk_color_make(0, 0, 1, 1));
    lk_display_render_frame_at(display, lk_media_time());
    return l;
}

static double opacity_at(lk_layer *l, double t)
{
    lk_layer *p = lk_layer_copy_presentation_at(l, t);
    double v = p ? lk_layer_get_opacity(p) : -1;
    lk_release(p);
    return v;
}

static lk_color background_at(lk_layer *l, double t)
{
    lk_layer *p = lk_layer_copy_presentation_at(l, t);
    lk_color c = p ? lk_layer_get_background_color(p) : lk_color_make(-1, -1, -1, -1);
    lk_release(p);
    return c;
}

static double begin_of(lk_layer *l, const char *key)
{
    lk_animation *a = lk_layer_get_animation(l, key);
    return a ? lk_animation_get_begin_time(a) : NAN;
}

/* ---- S3.3: implicit animation, view's layer, delegate ------------------- */

static bool in_animation_block;
static int null_asked;

static lk_action *views_layer_action(lk_layer *layer, const char *event, void *user_data)
{
    (void)layer; (void)event; (void)user_data;
    null_asked++;
    return in_animation_block ? NULL : lk_action_null();
}

static void implicit_animations(void)
{
    lk_layer *l = committed_layer();
    lk_layer_set_background_color(l, lk_color_make(1, 0, 0, 1));
    lk_transaction_flush();
    lk_animation *a = lk_layer_get_animation(l, "backgroundColor");
    LKT_CHECK(a != NULL, "S3.3 setting backgroundColor adds an implicit animation", "none under \"backgroundColor\"");
    if (!a) return;
    LKT_CHECK_NEAR("S3.3 implicit animation lasts the transaction's 0.25 s", lk_animation_get_duration(a), 0.25, 1e-12);
    double b = begin_of(l, "backgroundColor");
    LKT_CHECK_COLOR("S3.3 at its start the colour is the old one", background_at(l, b), lk_color_make(0, 0, 1, 1), 1e-6);
    lk_color mid = background_at(l, b + 0.125);
    /* the default curve (S4.7), premultiplied interpolation of opaque colours */
    double eased = lk_timing_function_evaluate(lk_timing_function_named(LK_TIMING_DEFAULT), 0.5);
    LKT_CHECK(eased > 0.75 && eased < 0.85, "S4.7 the default curve is ahead at half time", "%f", eased);
    LKT_CHECK_COLOR("S3.3 half-way in time the colour follows the default curve", mid,
                    lk_color_make(eased, 0, 1 - eased, 1), 1e-6);
    LKT_CHECK_COLOR("S3.3 after 0.25 s the colour is the new one", background_at(l, b + 0.3), lk_color_make(1, 0, 0, 1), 1e-6);

    /* a view's layer: the delegate answers the null action outside an animation block */
    lk_layer *v = committed_layer();
    lk_layer_delegate d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.action_for_key = views_layer_action;
    lk_layer_set_delegate(v, &d, NULL, NULL);
    lk_layer_set_opacity(v, 0.5);
    lk_transaction_flush();
    LKT_CHECK(null_asked > 0 && lk_layer_get_animation(v, "opacity") == NULL,
              "S3.2 a view's layer (null action) jumps", "asked %d times, animation %p", null_asked,
              (void *)lk_layer_get_animation(v, "opacity"));
    LKT_CHECK_NEAR("S3.2 the jump shows at once", opacity_at(v, lk_media_time()), 0.5, 1e-9);
    in_animation_block = true;
    lk_layer_set_opacity(v, 1.0);
    lk_transaction_flush();
    in_animation_block = false;
    LKT_CHECK(lk_layer_get_animation(v, "opacity") != NULL, "S3.2 inside the program's animation block it animates",
              "no animation");
    lk_layer_set_delegate(v, NULL, NULL, NULL);
    lk_layer_set_opacity(v, 0.25);
    lk_transaction_flush();
    LKT_CHECK(lk_layer_get_animation(v, "opacity") != NULL, "S3.1 with the null action gone it animates again", "no animation");

    /* S3.6: no change, no action */
    lk_layer_remove_all_animations(v);
    lk_layer_set_opacity(v, 0.25);
    LKT_CHECK(lk_layer_get_animation(v, "opacity") == NULL, "S3.6 setting the current value adds no animation", "one was added");

    /* S3.2: disableActions */
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_opacity(v, 0.75);
    LKT_CHECK_STATUS("S2.1 commit of an explicit transaction", lk_transaction_commit(), LK_OK);
    LKT_CHECK(lk_layer_get_animation(v, "opacity") == NULL, "S3.2 disableActions: no animation", "one was added");
    lk_action *found = lk_layer_copy_action_for_key(v, "opacity");
    LKT_CHECK(found != NULL, "S3.2 asking for the action directly still finds it", "NULL: %s", lk_last_error());
    lk_release(found);
    lk_transaction_begin();
    lk_transaction_set_disable_actions(false);
    lk_layer_set_opacity(v, 0.5);
    lk_transaction_commit();
    LKT_CHECK(lk_layer_get_animation(v, "opacity") != NULL, "S3.2 with disableActions off it animates", "no animation");
}

/* ---- S3.3, S4.14: the implicit animation's ends, over a running one ------- */

static double z_at(lk_layer *l, double t)
{
    lk_layer *p = lk_layer_copy_presentation_at(l, t);
    double v = p ? lk_layer_get_z_position(p) : NAN;
    lk_release(p);
    return v;
}

/* The red column of the frame's row y at time t: the first x whose pixel is red. */
static int red_edge_at(double t, int y)
{
    static uint8_t rgba[200 * 100 * 4];
    lk_display_render_frame_at(display, t);
    if (lk_display_read_pixels(display, rgba, 200 * 4) != LK_OK) return -1;
    for (int x = 0; x < 200; x++) {
        const uint8_t *px = rgba + (y * 200 + x) * 4;
        if (px[0] > 128 && px[2] < 128) return x;
    }
    return -1;
}

/* A linear explicit animation of key_path, from..to over duration, added
   under key and flushed. */
static void add_linear(lk_layer *l, const char *key_path, const char *key, double from, double to, double duration,
                       bool additive)
{
    lk_animation *a = lk_basic_animation_create(key_path);
    lk_animation_set_duration(a, duration);
    lk_animation_set_additive(a, additive);
    lk_animation_set_from_value(a, lk_value_number(from));
    lk_animation_set_to_value(a, lk_value_number(to));
    lk_animation_set_timing_function(a, lk_timing_function_named(LK_TIMING_LINEAR));
    lk_layer_add_animation(l, a, key);
    lk_release(a);
    lk_transaction_flush();
}

/* Opens a transaction whose implicit animations last 1 s, linear. */
static void begin_linear_second(void)
{
    lk_transaction_begin();
    lk_transaction_set_animation_duration(1.0);
    lk_transaction_set_animation_timing_function(lk_timing_function_named(LK_TIMING_LINEAR));
}

/* S3.3: the built-in action goes from the presentation value just before
   the change to the new model value, both set on the animation; so it is
   non-additive with both ends set, and replaces whatever animations of the
   property run beneath it (S4.14) instead of heading for their output. */
static void implicit_over_running_animations(void)
{
    lk_layer *l = committed_layer();
    add_linear(l, "zPosition", "k", 0, 1, 1.0, false);
    begin_linear_second();
    lk_layer_set_z_position(l, 10);
    lk_transaction_commit();
    lk_animation *a = lk_layer_get_animation(l, "zPosition");
    LKT_CHECK(a != NULL, "S3.3 setting zPosition over a running animation adds an implicit one", "none");
    if (!a) return;
    lk_value from, to;
    LKT_CHECK_STATUS("S3.3 the implicit animation's fromValue reads", lk_animation_get_from_value(a, &from), LK_OK);
    LKT_CHECK_STATUS("S3.3 the implicit animation's toValue reads", lk_animation_get_to_value(a, &to), LK_OK);
    LKT_CHECK(to.type == LK_VALUE_NUMBER && to.as.number == 10, "S3.3 its toValue is the new model value",
              "type %s, %f", lkt_value_type_name(to.type), to.as.number);
    LKT_CHECK(from.type == LK_VALUE_NUMBER && from.as.number >= 0 && from.as.number < 0.1,
              "S3.3 its fromValue is the presentation value just before the change (the explicit one's, near its start)",
              "type %s, %f", lkt_value_type_name(from.type), from.as.number);
    double b = begin_of(l, "zPosition"), p0 = from.as.number;
    LKT_CHECK_NEAR("S3.3 it starts at its fromValue", z_at(l, b), p0, 1e-9);
    LKT_CHECK_NEAR("S4.14 half-way it is half-way to the model value, the explicit one beneath replaced",
                   z_at(l, b + 0.5), p0 + (10 - p0) * 0.5, 1e-9);

    /* an additive animation beneath is replaced too; it shows again once the implicit one ends */
    lk_layer *m = committed_layer();
    add_linear(m, "zPosition", "wobble", 0, 100, 10.0, true);
    begin_linear_second();
    lk_layer_set_z_position(m, 10);
    lk_transaction_commit();
    a = lk_layer_get_animation(m, "zPosition");
    if (!a || lk_animation_get_from_value(a, &from) != LK_OK) {
        LKT_CHECK(0, "S3.3 the implicit animation over an additive one", "none, or no fromValue");
        return;
    }
    b = begin_of(m, "zPosition");
    double bw = begin_of(m, "wobble");
    LKT_CHECK_NEAR("S4.14 over an additive animation: half-way to the model value", z_at(m, b + 0.5),
                   from.as.number + (10 - from.as.number) * 0.5, 1e-9);
    LKT_CHECK_NEAR("S4.14 once it ends, the additive one adds to the model value again", z_at(m, b + 2),
                   10 + 10 * (b + 2 - bw), 1e-6);

    /* the same on the render side's own path, in pixels: an explicit move of
       position.x 20 -> 40 beneath an implicit move to 180 */
    lk_layer *n = lkt_layer_new(root, 10, 60, 20, 20, lk_color_make(1, 0, 0, 1));
    lk_display_render_frame_at(display, lk_media_time());
    add_linear(n, "position.x", "slide", 20, 40, 2.0, false);
    begin_linear_second();
    lk_layer_set_position(n, lk_point_make(180, 70));
    lk_transaction_commit();
    a = lk_layer_get_animation(n, "position");
    if (!a || lk_animation_get_from_value(a, &from) != LK_OK || from.type != LK_VALUE_POINT) {
        LKT_CHECK(0, "S3.3 the implicit move over an explicit one", "none, or its fromValue is not a point");
        lk_layer_remove_from_superlayer(n);
        lk_release(n);
        return;
    }
    b = begin_of(n, "position");
    double x = from.as.point.x + (180 - from.as.point.x) * 0.5 - 10;   /* the left edge half-way */
    int edge = red_edge_at(b + 0.5, 70);
    LKT_CHECK(fabs(edge - ceil(x - 0.5)) <= 1, "S4.14 drawn half-way to the new position, the explicit move replaced",
              "left edge at %d, want %.1f", edge, x);
    lk_layer_remove_from_superlayer(n);
    lk_release(n);
}

/* ---- S2: nesting, coalescing, completion -------------------------------- */

static int completions;
static void count_completion(void *user_data) { (void)user_data; completions++; }
static void count_into(void *user_data) { (*(int *)user_data)++; }

static void transactions(void)
{
    lk_layer *l = committed_layer();
    lk_transaction_begin();
    lk_transaction_begin();
    lk_layer_set_opacity(l, 0.2);
    lk_transaction_commit();
    LKT_CHECK_NEAR("S2.1 an inner commit shows nothing yet", opacity_at(l, lk_media_time() + 10), 1.0, 1e-9);
    lk_transaction_commit();
    LKT_CHECK_NEAR("S2.1 the outermost commit shows the change", opacity_at(l, lk_media_time() + 10), 0.2, 1e-9);

    /* S2.5: three sets in one transaction animate once, to the last value */
    lk_layer *c = committed_layer();
    lk_transaction_begin();
    lk_layer_set_opacity(c, 0.9);
    lk_layer_set_opacity(c, 0.6);
    lk_layer_set_opacity(c, 0.3);
    lk_transaction_commit();
    const char *keys[4];
    size_t n = lk_layer_get_animation_keys(c, keys, 4);
    LKT_CHECK(n == 1, "S2.5 one implicit animation for three changes", "%zu animations", n);
    double b = begin_of(c, "opacity");
    LKT_CHECK_NEAR("S2.5 it starts from the value before the transaction", opacity_at(c, b), 1.0, 1e-9);
    LKT_CHECK_NEAR("S2.5 and ends at the last value", opacity_at(c, b + 1), 0.3, 1e-9);

    /* S2.3: properties are inherited by nested transactions */
    lk_transaction_begin();
    lk_transaction_set_animation_duration(2.0);
    lk_transaction_begin();
    LKT_CHECK_NEAR("S2.3 a nested transaction inherits the duration", lk_transaction_get_animation_duration(), 2.0, 0);
    lk_layer_set_opacity(c, 0.5);
    lk_transaction_commit();
    lk_transaction_commit();
    LKT_CHECK_NEAR("S2.3 the implicit animation takes it", lk_animation_get_duration(lk_layer_get_animation(c, "opacity")), 2.0, 0);
    LKT_CHECK_NEAR("S2.3 default duration outside", lk_transaction_get_animation_duration(), 0.25, 0);

    /* S2.3: a property set after others were read (and animations added)
       counts from then on; the outer one's comes back when the inner
       commits; disabling actions midway stops the actions after it */
    lk_transaction_begin();
    lk_transaction_set_animation_duration(3.0);
    lk_transaction_begin();
    lk_layer_set_opacity(c, 0.6);
    lk_transaction_set_animation_duration(4.0);
    LKT_CHECK_NEAR("S2.3 a duration set inside reads back at once", lk_transaction_get_animation_duration(), 4.0, 0);
    lk_layer_set_position(c, lk_point_make(33, 44));
    lk_transaction_commit();
    LKT_CHECK_NEAR("S2.3 the outer duration comes back after the inner commit",
                   lk_transaction_get_animation_duration(), 3.0, 0);
    lk_transaction_set_disable_actions(true);
    lk_layer_set_bounds(c, lk_rect_make(0, 0, 31, 17));
    lk_transaction_commit();
    LKT_CHECK_NEAR("S2.3 the animation added before the change of duration takes the earlier one",
                   lk_animation_get_duration(lk_layer_get_animation(c, "opacity")), 3.0, 0);
    LKT_CHECK_NEAR("S2.3 the one added after takes the new one",
                   lk_animation_get_duration(lk_layer_get_animation(c, "position")), 4.0, 0);
    LKT_CHECK(lk_layer_get_animation(c, "bounds") == NULL, "S2.2 S2.3 no action once actions are disabled midway",
              "%s", "a bounds animation");
    LKT_CHECK(!lk_transaction_get_disable_actions(), "S2.3 actions enabled again outside", "%s", "disabled");

    /* S2.4: completion after the animations end, once */
    completions = 0;
    lk_transaction_begin();
    lk_transaction_set_completion(count_completion, NULL);
    lk_layer_set_opacity(c, 0.8);
    lk_transaction_commit();
    b = begin_of(c, "opacity");
    lk_display_render_frame_at(display, b + 0.1);
    lk_display_dispatch(display, 0);
    LKT_CHECK(completions == 0, "S2.4 no completion while the animation runs", "%d", completions);
    lk_display_render_frame_at(display, b + 0.5);
    lk_display_dispatch(display, 0);
    lk_display_dispatch(display, 0);
    LKT_CHECK(completions == 1, "S2.4 the completion runs once after it ends", "%d", completions);
    lk_display_render_frame_at(display, b + 1.0);
    lk_display_dispatch(display, 0);
    LKT_CHECK(completions == 1, "S2.4 and never again", "%d", completions);
    completions = 0;
    lk_transaction_begin();
    lk_transaction_set_completion(count_completion, NULL);
    lk_transaction_commit();
    lk_display_dispatch(display, 0);
    LKT_CHECK(completions == 1, "S2.4 with no animation it runs at the next run loop iteration", "%d", completions);

    /* S2.4: a completion set again adds to the first, which still runs once */
    static int first_ran, second_ran;
    first_ran = second_ran = 0;
    lk_transaction_begin();
    lk_transaction_set_completion(count_into, &first_ran);
    lk_layer_set_opacity(c, 0.4);
    lk_transaction_set_completion(count_into, &second_ran);
    lk_transaction_commit();
    b = begin_of(c, "opacity");
    lk_display_render_frame_at(display, b + 0.1);
    lk_display_dispatch(display, 0);
    LKT_CHECK(first_ran == 0 && second_ran == 0, "S2.4 neither completion runs while the animation runs",
              "first %d, second %d", first_ran, second_ran);
    lk_display_render_frame_at(display, b + 0.5);
    lk_display_dispatch(display, 0);
    lk_display_dispatch(display, 0);
    LKT_CHECK(first_ran == 1 && second_ran == 1, "S2.4 a completion set again does not drop the first: both run once",
              "first %d, second %d", first_ran, second_ran);

    LKT_CHECK_ERROR("S2.6 commit with no transaction open", lk_transaction_commit(), LK_ERROR_STATE, "no transaction");
}

/* S2.3: Core Animation's transaction keys (kCATransactionAnimationDuration
   and the others) are the typed settings, by key. */
static void transaction_keys(void)
{
    lk_value v;
    lk_transaction_begin();
    LKT_CHECK_STATUS("S2.3 \"animationDuration\" set by key", lk_transaction_set_value("animationDuration", lk_value_number(2)),
                     LK_OK);
    LKT_CHECK_NEAR("S2.3 ... is the transaction's animation duration", lk_transaction_get_animation_duration(), 2, 0);
    lk_transaction_set_animation_duration(0.7);
    lk_status got = lk_transaction_get_value("animationDuration", &v);
    LKT_CHECK(got == LK_OK && v.type == LK_VALUE_NUMBER && v.as.number == 0.7,
              "S2.3 the duration set by its call reads back by key", "type %s, %f", lkt_value_type_name(v.type), v.as.number);
    LKT_CHECK_ERROR("S2.3 \"animationDuration\" by key takes a number", lk_transaction_set_value("animationDuration",
                    lk_value_string("2")), LK_ERROR_TYPE_MISMATCH, "number");
    LKT_CHECK_ERROR("S2.3 ... a finite one, not negative", lk_transaction_set_value("animationDuration", lk_value_number(-1)),
                    LK_ERROR_INVALID_ARGUMENT, "finite");
    LKT_CHECK_NEAR("S2.3 a refused duration changes nothing", lk_transaction_get_animation_duration(), 0.7, 0);
    LKT_CHECK_STATUS("S2.3 \"disableActions\" set by key", lk_transaction_set_value("disableActions", lk_value_bool(true)),
                     LK_OK);
    LKT_CHECK(lk_transaction_get_disable_actions(), "S2.3 ... disables actions", "%s", "enabled");
    lk_layer *l = committed_layer();
    lk_layer_set_opacity(l, 0.5);
    LKT_CHECK(lk_layer_get_animation(l, "opacity") == NULL, "S3.2 no action with disableActions set by key", "%s",
              "an animation");
    lk_transaction_set_value("disableActions", lk_value_bool(false));
    LKT_CHECK_STATUS("S2.3 \"animationTimingFunction\" set by name", lk_transaction_set_value("animationTimingFunction",
                     lk_value_string("easeIn")), LK_OK);
    LKT_CHECK(lk_transaction_get_animation_timing_function() == lk_timing_function_named(LK_TIMING_EASE_IN),
              "S2.3 ... is the named curve", "%p", (void *)lk_transaction_get_animation_timing_function());
    got = lk_transaction_get_value("animationTimingFunction", &v);
    LKT_CHECK(got == LK_OK && v.type == LK_VALUE_STRING &&
              strcmp(v.as.string, "easeIn") == 0, "S2.3 ... reads back as its name", "type %s",
              lkt_value_type_name(v.type));
    LKT_CHECK_ERROR("S2.3 an unknown curve name is refused", lk_transaction_set_value("animationTimingFunction",
                    lk_value_string("bouncy")), LK_ERROR_TYPE_MISMATCH, "easeIn");
    /* none set reads back as none, as every property key reads back (it
       was NOT_FOUND, "no value") */
    LKT_CHECK_STATUS("S2.3 the curve set to none by key", lk_transaction_set_value("animationTimingFunction",
                     lk_value_none()), LK_OK);
    got = lk_transaction_get_value("animationTimingFunction", &v);
    LKT_CHECK(got == LK_OK && v.type == LK_VALUE_NONE, "S2.3 ... reads back as none", "status %d, type %s", (int)got,
              lkt_value_type_name(v.type));
    LKT_CHECK_ERROR("S2.3 \"completionBlock\" is not a value", lk_transaction_set_value("completionBlock",
                    lk_value_number(1)), LK_ERROR_TYPE_MISMATCH, "lk_transaction_set_completion");
    LKT_CHECK_STATUS("S2.3 any other key holds any value", lk_transaction_set_value("mine", lk_value_number(7)), LK_OK);
    lk_transaction_commit();
    LKT_CHECK_NEAR("S2.3 outside, the default duration again", lk_transaction_get_animation_duration(), 0.25, 0);
}

/* ---- S4: explicit animations ------------------------------------------- */

static int started, stopped_finished, stopped_early;
static void on_start(lk_animation *a, void *u) { (void)a; (void)u; started++; }
static void on_stop(lk_animation *a, bool finished, void *u)
{
    (void)a; (void)u;
    if (finished) stopped_finished++; else stopped_early++;
}

/* the counting delegate above, on a */
static void count_events(lk_animation *a)
{
    lk_animation_delegate d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.did_start = on_start;
    d.did_stop = on_stop;
    lk_animation_set_delegate(a, &d, NULL, NULL);
}

/* An opacity animation from..to over duration, its events counted. */
static lk_animation *counted_opacity(double from, double to, double duration)
{
    lk_animation *a = lk_basic_animation_create("opacity");
    lk_animation_set_from_value(a, lk_value_number(from));
    lk_animation_set_to_value(a, lk_value_number(to));
    lk_animation_set_duration(a, duration);
    count_events(a);
    return a;
}

static void explicit_animations(void)
{
    lk_layer *l = committed_layer();
    lk_animation *a = counted_opacity(1.0, 0.0, 1.0);
    LKT_CHECK_STATUS("S4.3 add an explicit animation", lk_layer_add_animation(l, a, "fade"), LK_OK);
    lk_animation_set_duration(a, 50.0); /* S4.3: the added copy is not affected */
    lk_transaction_flush();
    double b = begin_of(l, "fade");
    LKT_CHECK_NEAR("S4.3 the added copy keeps its own duration", lk_animation_get_duration(lk_layer_get_animation(l, "fade")), 1.0, 0);
    LKT_CHECK_ERROR("S4.3 the copy a layer holds cannot be changed",
                    lk_animation_set_duration(lk_layer_get_animation(l, "fade"), 3.0), LK_ERROR_STATE, "added");
    LKT_CHECK_NEAR("S4.8 from+to half-way, linear", opacity_at(l, b + 0.5), 0.5, 1e-9);
    LKT_CHECK_NEAR("S5.1 the model value is unchanged", lk_layer_get_opacity(l), 1.0, 0);
    lk_display_render_frame_at(display, b + 0.5);
    lk_display_dispatch(display, 0);
    LKT_CHECK(started == 1 && stopped_finished == 0, "S4.6 did_start once the active interval begins",
              "started %d stopped %d", started, stopped_finished);
    lk_display_render_frame_at(display, b + 1.5);
    lk_display_dispatch(display, 0);
    LKT_CHECK(started == 1 && stopped_finished == 1, "S4.6 did_stop(finished) once at the end",
              "started %d stopped %d", started, stopped_finished);
    LKT_CHECK_NEAR("S4.5 without a model change it snaps back", opacity_at(l, b + 1.5), 1.0, 1e-9);
    LKT_CHECK(lk_layer_get_animation(l, "fade") == NULL, "S4.5 a finished animation is removed", "still there");

    /* fill forwards + not removed: it holds */
    lk_animation_set_fill_mode(a, LK_FILL_FORWARDS);
    lk_animation_set_removed_on_completion(a, false);
    lk_animation_set_duration(a, 1.0);
    lk_layer_add_animation(l, a, "hold");
    lk_transaction_flush();
    b = begin_of(l, "hold");
    lk_display_render_frame_at(display, b + 2);
    lk_display_dispatch(display, 0);
    LKT_CHECK_NEAR("S4.4 fill forwards and removedOnCompletion false hold the end value", opacity_at(l, b + 5), 0.0, 1e-9);
    LKT_CHECK(lk_layer_get_animation(l, "hold") != NULL, "S4.5 an animation not removed on completion stays", "gone");
    int early_before = stopped_early;
    lk_layer_remove_animation(l, "hold");
    lk_transaction_flush();
    LKT_CHECK_NEAR("S4.5 removing it returns the model value at once", opacity_at(l, b + 5), 1.0, 1e-9);
    lk_display_dispatch(display, 0);
    LKT_CHECK(stopped_early == early_before, "S4.6 no second stop for an animation that already stopped", "%d", stopped_early);

    /* removal before the end: finished = false */
    lk_animation_set_fill_mode(a, LK_FILL_REMOVED);
    lk_animation_set_removed_on_completion(a, true);
    started = 0;
    lk_layer_add_animation(l, a, "cut");
    lk_transaction_flush();
    b = begin_of(l, "cut");
    lk_display_render_frame_at(display, b + 0.25);
    lk_layer_remove_animation(l, "cut");
    lk_display_dispatch(display, 0);
    LKT_CHECK(started == 1 && stopped_early == early_before + 1, "S4.6 removal stops it with finished = false",
              "started %d early %d", started, stopped_early);
    lk_release(a);

    /* S4.9: transform.rotation.z by 2 pi turns once */
    lk_animation *spin = lk_basic_animation_create("transform.rotation.z");
    lk_animation_set_by_value(spin, lk_value_number(2 * LKT_PI));
    lk_animation_set_duration(spin, 4.0);
    lk_layer_add_animation(l, spin, "spin");
    lk_transaction_flush();
    b = begin_of(l, "spin");
    lk_layer *p = lk_layer_copy_presentation_at(l, b + 2.0);
    lk_transform3d t = lk_layer_get_transform(p);
    LKT_CHECK(fabs(t.m11 + 1) < 1e-6 && fabs(t.m12) < 1e-6, "S4.9 by 2 pi is half a turn half-way", "got %s", lkt_fmt_transform(t));
    lk_release(p);
    p = lk_layer_copy_presentation_at(l, b + 1.0);
    t = lk_layer_get_transform(p);
    LKT_CHECK(fabs(t.m11) < 1e-6 && fabs(t.m12 - 1) < 1e-6, "S4.9 a quarter turn a quarter of the way", "got %s", lkt_fmt_transform(t));
    lk_release(p);

    /* S4.2 pause and resume */
    double t1 = b + 1.0;
    double paused = lk_layer_convert_time(NULL, t1, l);
    lk_layer_set_speed(l, 0);
    lk_layer_set_time_offset(l, paused);
    lk_transaction_flush();
    p = lk_layer_copy_presentation_at(l, t1 + 30);
    t = lk_layer_get_transform(p);
    LKT_CHECK(fabs(t.m11) < 1e-6 && fabs(t.m12 - 1) < 1e-6, "S4.2 a paused layer holds its animation", "got %s", lkt_fmt_transform(t));
    lk_release(p);
    double t2 = t1 + 30;
    lk_layer_set_speed(l, 1);
    lk_layer_set_time_offset(l, 0);
    lk_layer_set_begin_time(l, 0);
    lk_layer_set_begin_time(l, lk_layer_convert_time(NULL, t2, l) - paused);
    lk_transaction_flush();
    p = lk_layer_copy_presentation_at(l, t2);
    t = lk_layer_get_transform(p);
    LKT_CHECK(fabs(t.m11) < 1e-6 && fabs(t.m12 - 1) < 1e-6, "S4.2 resumed at the same angle", "got %s", lkt_fmt_transform(t));
    lk_release(p);
    p = lk_layer_copy_presentation_at(l, t2 + 1.0);
    t = lk_layer_get_transform(p);
    LKT_CHECK(fabs(t.m11 + 1) < 1e-6, "S4.2 and goes on from there", "got %s", lkt_fmt_transform(t));
    lk_release(p);
    lk_release(spin);

    /* S4.8 errors: all three values */
    lk_animation *bad = lk_basic_animation_create("opacity");
    lk_animation_set_from_value(bad, lk_value_number(0));
    lk_animation_set_to_value(bad, lk_value_number(1));
    lk_animation_set_by_value(bad, lk_value_number(1));
    LKT_CHECK_ERROR("S4.8 from, to and by all set is an error", lk_layer_add_animation(l, bad, "bad"), LK_ERROR_INVALID_ARGUMENT, "byValue");
    lk_animation_set_key_path(bad, "opacty");
    lk_animation_set_by_value(bad, lk_value_none());
    LKT_CHECK_ERROR("S1.6 an unknown key path is refused at add", lk_layer_add_animation(l, bad, "bad"), LK_ERROR_UNKNOWN_KEY_PATH, "opacty");
    lk_release(bad);
}

/* ---- S5.1 presentation, S1.5 hit testing it, S5.3 display link ---------- */

/* S4.2 with Core Animation's reading of timeOffset and speed: the offset
   moves where in its iterations an animation starts, not when it is active
   (it wraps past the end: "C D E A B"), and a negative speed plays the
   iterations backwards over the same interval of parent time. zPosition
   2 -> 10, linear over 1 s from B: 2 + 8 f, f the fraction played. */
/* zPosition from -> to, linear over 1 s from begin, with the offset and
   speed given, its events counted (count_events) */
static lk_animation *linear_z(double from, double to, double begin, double offset, double speed)
{
    lk_animation *a = lk_basic_animation_create("zPosition");
    lk_animation_set_from_value(a, lk_value_number(from));
    lk_animation_set_to_value(a, lk_value_number(to));
    lk_animation_set_duration(a, 1);
    lk_animation_set_timing_function(a, lk_timing_function_named(LK_TIMING_LINEAR));
    lk_animation_set_begin_time(a, begin);
    lk_animation_set_time_offset(a, offset);
    lk_animation_set_speed(a, speed);
    count_events(a);
    return a;
}

static bool offset_cumulative;   /* the next offset_layer's animation is cumulative */
static lk_layer *offset_layer(double begin, double offset, double speed, double repeat, lk_fill_mode fill)
{
    lk_layer *l = committed_layer();
    lk_animation *a = linear_z(2, 10, begin, offset, speed);
    if (repeat > 0) lk_animation_set_repeat_count(a, repeat);
    lk_animation_set_cumulative(a, offset_cumulative);
    lk_animation_set_fill_mode(a, fill);
    /* (filling forwards holds only an animation kept on completion, S4.5) */
    if (fill == LK_FILL_FORWARDS || fill == LK_FILL_BOTH) lk_animation_set_removed_on_completion(a, false);
    lk_layer_add_animation(l, a, "z");
    lk_release(a);
    lk_transaction_flush();
    return l;
}

static void animation_time_offset(void)
{
    double B = lk_media_time() + 100;
    lk_layer *l = offset_layer(B, 0.25, 1, 0, LK_FILL_REMOVED);
    LKT_CHECK_NEAR("S4.2 timeOffset 0.25: starts a quarter in", z_at(l, B), 4, 1e-9);
    LKT_CHECK_NEAR("S4.2 timeOffset 0.25: at B + 0.5", z_at(l, B + 0.5), 8, 1e-9);
    LKT_CHECK_NEAR("S4.2 timeOffset 0.25: wraps past the end (B + 0.8 plays 0.05)", z_at(l, B + 0.8), 2.4, 1e-9);
    LKT_CHECK_NEAR("S4.2 timeOffset 0.25: ... B + 0.99 plays 0.24", z_at(l, B + 0.99), 3.92, 1e-9);
    /* (a millisecond past the end: B + 1 - B need not be 1 exactly) */
    LKT_CHECK_NEAR("S4.2 timeOffset 0.25: over after a duration", z_at(l, B + 1.001), 0, 0);
    LKT_CHECK_NEAR("S4.2 timeOffset 0.25: nothing before B", z_at(l, B - 0.1), 0, 0);
    started = stopped_finished = stopped_early = 0;
    lk_display_render_frame_at(display, B + 0.9);
    lk_display_dispatch(display, 0);
    LKT_CHECK(started == 1 && stopped_finished == 0, "S4.6 with an offset it still runs at B + 0.9",
              "started %d stopped %d", started, stopped_finished);
    lk_display_render_frame_at(display, B + 1.01);
    lk_display_dispatch(display, 0);
    LKT_CHECK(stopped_finished == 1, "S4.6 ... and stops, finished, a duration after B", "stopped %d", stopped_finished);
    lk_release(l);

    l = offset_layer(B, 0.25, 1, 2, LK_FILL_REMOVED);
    LKT_CHECK_NEAR("S4.2 timeOffset 0.25, repeatCount 2: B + 1.8 plays 0.05", z_at(l, B + 1.8), 2.4, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... over after two durations", z_at(l, B + 2.001), 0, 0);
    lk_release(l);

    l = offset_layer(B, 1.5, 1, 0, LK_FILL_REMOVED);
    LKT_CHECK_NEAR("S4.2 timeOffset 1.5 (past the duration) wraps: B plays 0.5", z_at(l, B), 6, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... B + 0.25 plays 0.75", z_at(l, B + 0.25), 8, 1e-9);
    lk_release(l);

    l = offset_layer(B, 1.5, 0, 0, LK_FILL_REMOVED);
    LKT_CHECK_NEAR("S4.2 speed 0, timeOffset 1.5 holds 0.5 (scrubbing past the end)", z_at(l, B + 10), 6, 1e-9);
    lk_release(l);

    l = offset_layer(B, 0.25, 1, 0, LK_FILL_BOTH);
    LKT_CHECK_NEAR("S4.4 filling backwards with an offset shows where it starts", z_at(l, B - 5), 4, 1e-9);
    LKT_CHECK_NEAR("S4.4 filling forwards with an offset shows where it ended", z_at(l, B + 5), 4, 1e-9);
    lk_release(l);

    l = offset_layer(B, 1, -1, 0, LK_FILL_REMOVED);
    LKT_CHECK_NEAR("S4.2 speed -1, timeOffset 1 plays backwards from B: its end first", z_at(l, B), 10, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... B + 0.25", z_at(l, B + 0.25), 8, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... nothing before B", z_at(l, B - 0.25), 0, 0);
    LKT_CHECK_NEAR("S4.2 ... nor after B + 1", z_at(l, B + 1.25), 0, 0);
    lk_release(l);

    l = offset_layer(B, 0, -1, 0, LK_FILL_REMOVED);
    LKT_CHECK_NEAR("S4.2 speed -1 alone plays backwards over [B, B + 1)", z_at(l, B + 0.25), 8, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... B + 0.75", z_at(l, B + 0.75), 4, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... nothing before B", z_at(l, B - 0.75), 0, 0);
    lk_release(l);

    /* The iterations wrap within the whole active interval, not one
       iteration: played backwards, 1.5 repeats are the half one, then the
       whole one, ending at the start (they went through in forward order
       and held the middle); a cumulative animation with an offset shows no
       iteration it does not have (2 repeats with offset 0.5 rose to 3 x 8
       past the start). zPosition 2 + 8 f per iteration, cumulative adding 8. */
    l = offset_layer(B, 0, -1, 1.5, LK_FILL_BOTH);
    LKT_CHECK_NEAR("S4.2 speed -1, repeatCount 1.5: B shows the end of the half repeat", z_at(l, B), 6, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... B + 0.25 in it", z_at(l, B + 0.25), 4, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... B + 0.75 in the whole one, backwards", z_at(l, B + 0.75), 8, 1e-9);
    LKT_CHECK_NEAR("S4.4 ... filling forwards with the start", z_at(l, B + 5), 2, 1e-9);
    LKT_CHECK_NEAR("S4.4 ... filling backwards with where it starts", z_at(l, B - 5), 6, 1e-9);
    lk_release(l);
    offset_cumulative = true;
    l = offset_layer(B, 0, -1, 2, LK_FILL_BOTH);
    LKT_CHECK_NEAR("S4.2 cumulative, 2 repeats, speed -1: B shows the last repeat's end", z_at(l, B), 18, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... B + 1.5 half through the first, backwards", z_at(l, B + 1.5), 6, 1e-9);
    LKT_CHECK_NEAR("S4.4 ... filling backwards with the last repeat's end", z_at(l, B - 1), 18, 1e-9);
    lk_release(l);
    l = offset_layer(B, 0.5, 1, 2, LK_FILL_BOTH);
    LKT_CHECK_NEAR("S4.2 cumulative, 2 repeats, offset 0.5: B + 1.25 in the second repeat", z_at(l, B + 1.25), 16, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... B + 1.75 wrapped into the first", z_at(l, B + 1.75), 4, 1e-9);
    LKT_CHECK_NEAR("S4.4 ... filling forwards where it ended (0.5 into the first)", z_at(l, B + 5), 6, 1e-9);
    lk_release(l);
    offset_cumulative = false;
}

static int link_calls;
static double link_timestamp, link_target;
static void on_frame(lk_display_link *link, double ts, double target, void *u)
{
    (void)link; (void)u;
    link_calls++;
    link_timestamp = ts;
    link_target = target;
}

static void presentation_and_links(void)
{
    lk_layer *never = lk_layer_create();
    lk_layer *p = lk_layer_copy_presentation(never);
    LKT_CHECK(p == NULL, "S5.1 a layer never committed has no presentation", "got one");
    lk_release(never);

    lk_layer *l = committed_layer();
    lk_animation *move = lk_basic_animation_create("position");
    lk_animation_set_from_value(move, lk_value_point(lk_point_make(30, 30)));
    lk_animation_set_to_value(move, lk_value_point(lk_point_make(130, 30)));
    lk_animation_set_duration(move, 1.0);
    lk_layer_add_animation(l, move, "move");
    lk_release(move);
    lk_transaction_flush();
    double b = begin_of(l, "move");
    lk_layer *pr = lk_layer_copy_presentation_at(root, b + 0.5);
    lk_layer *hit = lk_layer_hit_test(pr, lk_point_make(80, 30));
    LKT_CHECK(hit != NULL && lk_layer_get_model_layer(hit) == l, "S1.5 hit testing the presentation finds the moving layer",
              "hit %p", (void *)hit);
    LKT_CHECK(lk_layer_hit_test(root, lk_point_make(80, 30)) != l, "S1.5 the model tree has it elsewhere", "found it");
    LKT_CHECK_ERROR("S5.1 a presentation layer is read-only", lk_layer_set_opacity(pr, 0.5), LK_ERROR_STATE, "read-only");
    /* nor a model layer's mask, nor given a delegate or laid out (all were
       accepted; the mask's model layer then read as the presentation copy) */
    lk_layer *other = lk_layer_create();
    LKT_CHECK_ERROR("S5.1 a presentation layer cannot be a model layer's mask", lk_layer_set_mask(other, pr),
                    LK_ERROR_STATE, "read-only");
    LKT_CHECK(lk_layer_get_mask(other) == NULL, "S5.1 ... and the refused mask changes nothing", "mask set");
    lk_release(other);
    lk_layer_delegate nothing;
    memset(&nothing, 0, sizeof nothing);
    nothing.struct_size = sizeof nothing;
    LKT_CHECK_ERROR("S5.1 a presentation layer takes no delegate", lk_layer_set_delegate(pr, &nothing, NULL, NULL),
                    LK_ERROR_STATE, "read-only");
    LKT_CHECK_ERROR("S5.1 a presentation layer is not laid out", lk_layer_layout_if_needed(pr), LK_ERROR_STATE,
                    "read-only");
    lk_release(pr);

    lk_display_link *link = lk_display_link_create(display, on_frame, NULL);
    lk_display_render_frame_at(display, 100.0);
    lk_display_dispatch(display, 0);
    LKT_CHECK(link_calls == 1 && lkt_near(link_timestamp, 100.0, 0) && lkt_near(link_target, 100.0 + 1.0 / 60, 1e-9),
              "S5.3 a display link fires once per frame with timestamp and target", "%d calls, %f %f", link_calls,
              link_timestamp, link_target);
    lk_display_link_set_paused(link, true);
    lk_display_render_frame_at(display, 100.1);
    lk_display_dispatch(display, 0);
    LKT_CHECK(link_calls == 1, "S5.3 a paused link does not fire", "%d calls", link_calls);
    /* a call waiting when the link is paused is dropped */
    lk_display_link_set_paused(link, false);
    lk_display_render_frame_at(display, 100.2);
    lk_display_link_set_paused(link, true);
    lk_display_dispatch(display, 0);
    LKT_CHECK(link_calls == 1, "S5.3 a call waiting when the link is paused is not made", "%d calls", link_calls);
    lk_display_link_set_paused(link, false);
    lk_display_link_set_preferred_fps(link, 30);
    for (int i = 1; i <= 6; i++) {
        lk_display_render_frame_at(display, 101.0 + i / 60.0);
        lk_display_dispatch(display, 0);
    }
    LKT_CHECK(link_calls == 4, "S5.3 at 30 fps it fires every other 60 Hz frame", "%d calls", link_calls);
    LKT_CHECK(lkt_near(link_target - link_timestamp, 1.0 / 30, 1e-9), "S5.3 ... and its target is the next call's frame, 1/30 s on",
              "target - timestamp = %f", link_target - link_timestamp);
    /* rates that do not divide 60 take the nearest that does */
    int every_frame_calls = link_calls;
    lk_display_link_set_preferred_fps(link, 40);
    for (int i = 1; i <= 12; i++) {
        lk_display_render_frame_at(display, 102.0 + i / 60.0);
        lk_display_dispatch(display, 0);
    }
    LKT_CHECK(link_calls - every_frame_calls == 6, "S5.3 40 fps on 60 Hz is every 2nd frame (30 fps), evenly",
              "%d calls in 12 frames", link_calls - every_frame_calls);
    /* a thread that does not dispatch gets one call, with the latest frame */
    lk_display_link_set_preferred_fps(link, 0);
    int before = link_calls;
    for (int i = 1; i <= 30; i++) lk_display_render_frame_at(display, 103.0 + i / 60.0);
    lk_display_dispatch(display, 0);
    lk_display_dispatch(display, 0);
    LKT_CHECK(link_calls - before == 1 && lkt_near(link_timestamp, 103.5, 1e-9),
              "S5.3 30 frames without a dispatch: one call, with the last frame's time (no backlog)",
              "%d calls, timestamp %f", link_calls - before, link_timestamp);
    /* 45 is as near 60 as 30: the tie takes the faster, every frame (it
       took 30 when the frames' times, doubles near 2e4 s, put 60 a hair
       further than 30) */
    lk_display_link_set_preferred_fps(link, 45);
    int at_45 = link_calls;
    for (int i = 1; i <= 12; i++) {
        lk_display_render_frame_at(display, 20000.0 + i / 60.0);
        lk_display_dispatch(display, 0);
    }
    LKT_CHECK(link_calls - at_45 == 12, "S5.3 45 fps on 60 Hz ties 30 and 60 and takes 60: every frame",
              "%d calls in 12 frames", link_calls - at_45);
    /* a manual clock set back: the link goes on at its rate from there (it
       waited until the time passed its last call again) */
    lk_display_link_set_preferred_fps(link, 30);
    int ahead = link_calls;
    for (int i = 1; i <= 12; i++) {
        lk_display_render_frame_at(display, 30000.0 + i / 60.0);
        lk_display_dispatch(display, 0);
    }
    int back = link_calls;
    for (int i = 1; i <= 12; i++) {
        lk_display_render_frame_at(display, 200.0 + i / 60.0);
        lk_display_dispatch(display, 0);
    }
    LKT_CHECK(back - ahead == 6 && link_calls - back == 6,
              "S5.3 at 30 fps after the manual clock is set back, every other frame still calls",
              "%d calls ahead, %d after going back (12 frames each)", back - ahead, link_calls - back);
    /* a tiny rate: a call every 2^31 frames at most (1e-18 fps put the count
       of frames a call past Int.max, and the next frame trapped) */
    LKT_CHECK_STATUS("S5.3 a preferred rate of 1e-18 fps is taken", lk_display_link_set_preferred_fps(link, 1e-18), LK_OK);
    int tiny = link_calls;
    lk_status tiny_frames = LK_OK;
    for (int i = 1; i <= 3; i++) {
        lk_status s = lk_display_render_frame_at(display, 201.0 + i / 60.0);
        if (s != LK_OK) tiny_frames = s;
        lk_display_dispatch(display, 0);
    }
    LKT_CHECK(tiny_frames == LK_OK && link_calls - tiny <= 1, "S5.3 S8.1 frames with a link at 1e-18 fps are drawn",
              "%s, %d calls", lkt_status_name(tiny_frames), link_calls - tiny);
    lk_display_link_invalidate(link);
    lk_release(link);
    LKT_CHECK(lk_display_get_fd(display) >= 0, "S2.2 the run loop has a pollable fd", "%d", lk_display_get_fd(display));
}

/* S5.1: the presentation is the tree as committed and drawn, animations
   applied, throughout: its mask is a read-only copy of the mask's
   presentation (it was the model mask, writable, unanimated); its layers are
   the committed ones (an uncommitted move showed in it); and the copy of a
   subtree keeps where its ancestors put it (hit testing it ignored an
   ancestor turned away; converting it to the display's space stopped at the
   copy). */
static void presentation_tree(void)
{
    lk_layer *par = lkt_layer_new(root, 0, 0, 100, 100, lk_color_make(1, 0, 0, 1));
    lk_layer *mask = lkt_layer_new(NULL, 10, 10, 20, 20, lk_color_make(1, 1, 1, 1));
    lk_layer_set_mask(par, mask);
    lk_display_render_frame_at(display, lk_media_time());
    lk_animation *move = lk_basic_animation_create("position");
    lk_animation_set_from_value(move, lk_value_point(lk_point_make(20, 20)));
    lk_animation_set_to_value(move, lk_value_point(lk_point_make(40, 40)));
    lk_animation_set_duration(move, 1.0);
    lk_layer_add_animation(mask, move, "move");
    lk_release(move);
    lk_transaction_flush();
    double b = begin_of(mask, "move");
    lk_layer *pp = lk_layer_copy_presentation_at(par, b + 0.5);
    lk_layer *pm = lk_layer_get_mask(pp);
    LKT_CHECK(pm != NULL && pm != mask && lk_layer_get_model_layer(pm) == mask,
              "S5.1 a presentation's mask is the mask's presentation, not the model mask", "%p (model %p)", (void *)pm,
              (void *)mask);
    if (pm) {
        LKT_CHECK_POINT("S5.1 ... with its animation applied", lk_layer_get_position(pm), lk_point_make(30, 30), 1e-9);
        LKT_CHECK_ERROR("S5.1 ... and read-only", lk_layer_set_opacity(pm, 0.3), LK_ERROR_STATE, "read-only");
    }
    LKT_CHECK_NEAR("S5.1 the model mask is untouched", lk_layer_get_opacity(mask), 1, 0);
    LKT_CHECK_ERROR("S5.1 a presentation copy cannot be a display's root", lk_display_set_root_layer(display, pp),
                    LK_ERROR_STATE, "presentation");
    LKT_CHECK(lk_display_get_root_layer(display) == root, "S5.1 ... and the root stays", "changed");
    lk_release(pp);

    /* committed: b under par; moved under other, not yet committed */
    lk_layer *bl = lkt_layer_new(par, 50, 50, 40, 40, lk_color_make(0, 0, 1, 1));
    lk_layer *other = lkt_layer_new(root, 100, 0, 100, 100, lk_color_make(0, 1, 0, 1));
    lk_layer_set_mask(par, NULL);
    lk_transaction_flush();
    lk_display_render_frame_at(display, lk_media_time() + 1);
    lk_transaction_begin();
    lk_layer_add_sublayer(other, bl);
    lk_layer *pr = lk_layer_copy_presentation(root);
    lk_layer *hit = lk_layer_hit_test(pr, lk_point_make(70, 70));
    LKT_CHECK(hit && lk_layer_get_model_layer(hit) == bl,
              "S5.1 S1.5 an uncommitted move: the presentation hit is where the layer is drawn", "hit %p (b %p, par %p)",
              hit ? (void *)lk_layer_get_model_layer(hit) : NULL, (void *)bl, (void *)par);
    hit = lk_layer_hit_test(pr, lk_point_make(160, 60));
    LKT_CHECK(hit && lk_layer_get_model_layer(hit) == other, "S5.1 ... and not where the model has it",
              "hit %p (other %p)", hit ? (void *)lk_layer_get_model_layer(hit) : NULL, (void *)other);
    lk_release(pr);
    lk_transaction_commit();
    lk_transaction_flush();
    pr = lk_layer_copy_presentation(other);
    LKT_CHECK(pr && lk_layer_get_sublayer_count(pr) == 1, "S5.1 committed, the move shows in the presentation",
              "%zu sublayers", pr ? lk_layer_get_sublayer_count(pr) : 0);
    lk_release(pr);

    /* a single-sided layer under an ancestor turned away: not hit, through a
       copy of its own subtree too */
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_double_sided(bl, false);
    lk_layer_set_transform(other, lk_transform3d_make_rotation(LKT_PI, 0, 1, 0));
    lk_transaction_commit();
    lk_transaction_flush();
    lk_display_render_frame_at(display, lk_media_time() + 10);
    lk_point p = lk_point_make(70, 70);
    LKT_CHECK(lk_layer_hit_test(bl, p) == NULL, "S1.5 S6.1 a back face is not hit", "hit");
    lk_layer *copy = lk_layer_copy_presentation(bl);
    LKT_CHECK(copy && lk_layer_hit_test(copy, p) == NULL, "S5.1 S6.1 ... nor is its presentation, copied alone",
              "hit");
    lk_point model_pt = lk_layer_convert_point(bl, lk_point_make(5, 5), NULL);
    lk_point copy_pt = copy ? lk_layer_convert_point(copy, lk_point_make(5, 5), NULL) : lk_point_make(-1, -1);
    LKT_CHECK_POINT("S5.1 S1.4 a subtree's copy converts to the display's space as its model does", copy_pt, model_pt,
                    1e-9);
    lk_release(copy);

    lk_layer_remove_from_superlayer(par);
    lk_layer_remove_from_superlayer(other);
    lk_release(bl);
    lk_release(other);
    lk_release(mask);
    lk_release(par);
    lk_transaction_flush();
}

/* S4.5, S5.1: an animation removed on completion shows nothing once it is
   over, fill forwards or not, whether or not a frame has noted its end: it
   held its end value in the presentation until a frame was drawn past it,
   and an implicit animation begun meanwhile started from that held value. */
static void presentation_after_the_end(void)
{
    lk_layer *l = committed_layer();
    lk_animation *a = lk_basic_animation_create("opacity");
    lk_animation_set_from_value(a, lk_value_number(0));
    lk_animation_set_to_value(a, lk_value_number(0.4));
    lk_animation_set_duration(a, 1.0);
    lk_animation_set_fill_mode(a, LK_FILL_FORWARDS);   /* removed on completion: the default */
    lk_layer_add_animation(l, a, "fade");
    lk_release(a);
    lk_transaction_flush();
    double b = begin_of(l, "fade");
    LKT_CHECK_NEAR("S5.1 the presentation during the animation", opacity_at(l, b + 0.5), 0.2, 1e-9);
    LKT_CHECK_NEAR("S4.5 S5.1 after its end, before any frame noted it: the model value", opacity_at(l, b + 5), 1.0, 1e-9);
    lk_display_render_frame_at(display, b + 0.5);
    LKT_CHECK_NEAR("S4.5 S5.1 ... and after a frame during it", opacity_at(l, b + 5), 1.0, 1e-9);
    /* one that ended 4 s before now (begun 5 s ago): an implicit animation
       begins from the model value, not the held end */
    lk_layer_remove_animation(l, "fade");
    a = lk_basic_animation_create("opacity");
    lk_animation_set_from_value(a, lk_value_number(0));
    lk_animation_set_to_value(a, lk_value_number(0.4));
    lk_animation_set_duration(a, 1.0);
    lk_animation_set_fill_mode(a, LK_FILL_FORWARDS);
    lk_animation_set_begin_time(a, lk_media_time() - 5);
    lk_layer_add_animation(l, a, "late");
    lk_release(a);
    lk_transaction_flush();
    lk_transaction_begin();
    lk_transaction_set_animation_duration(1.0);
    lk_layer_set_opacity(l, 0.9);
    lk_transaction_commit();
    lk_transaction_flush();
    lk_animation *implicit = lk_layer_get_animation(l, "opacity");
    lk_value from = lk_value_none();
    if (implicit) lk_animation_get_from_value(implicit, &from);
    LKT_CHECK(implicit && from.type == LK_VALUE_NUMBER && lkt_near(from.as.number, 1.0, 1e-9),
              "S3.3 S4.5 an implicit animation begins at the model value once the filled one is over",
              "from %s %g", implicit ? "set" : "(no animation)", from.type == LK_VALUE_NUMBER ? from.as.number : -1.0);
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_transaction_flush();
}

/* S4.2: convert_time between any two layers of a tree, through their
   nearest common ancestor: t_local = (t_parent - beginTime) * speed +
   timeOffset down each side. Under a paused ancestor of both the conversion
   is still defined (it went through media time and failed); only a speed
   of 0 between a layer and that ancestor makes it fail, naming speed 0. */
static void convert_times(void)
{
    lk_layer *par = lkt_layer_new(root, 0, 0, 10, 10, lk_color_make(0, 0, 0, 0));
    lk_layer *a = lkt_layer_new(par, 0, 0, 5, 5, lk_color_make(0, 0, 0, 0));
    lk_layer *b = lkt_layer_new(par, 0, 0, 5, 5, lk_color_make(0, 0, 0, 0));
    lk_layer *c = lkt_layer_new(b, 0, 0, 5, 5, lk_color_make(0, 0, 0, 0));
    lk_layer_set_speed(par, 2);
    lk_layer_set_begin_time(par, 3);
    lk_layer_set_time_offset(par, 1);
    lk_layer_set_speed(b, 2);
    lk_layer_set_time_offset(b, 7);
    lk_layer_set_begin_time(c, 4);
    lk_layer_set_speed(c, 0.5);
    /* media 10: par (10-3)*2+1 = 15, a 15, b 15*2+7 = 37, c (37-4)*0.5 = 16.5 */
    LKT_CHECK_NEAR("S4.2 media time to a layer", lk_layer_convert_time(NULL, 10, c), 16.5, 1e-9);
    LKT_CHECK_NEAR("S4.2 a layer to media time", lk_layer_convert_time(c, 16.5, NULL), 10, 1e-9);
    LKT_CHECK_NEAR("S4.2 a sibling's time to a nephew's", lk_layer_convert_time(a, 15, c), 16.5, 1e-9);
    LKT_CHECK_NEAR("S4.2 ... and back", lk_layer_convert_time(c, 16.5, a), 15, 1e-9);
    LKT_CHECK_NEAR("S4.2 a layer to itself", lk_layer_convert_time(b, 37, b), 37, 1e-9);
    /* S4.2, S5.1: a presentation copy converts as its model does, its top
       under its model's ancestors (a copy of b read media time as if b
       were at the root: 10 to 27, not 37) */
    lk_display_render_frame_at(display, lk_media_time());
    lk_layer *copy = lk_layer_copy_presentation(b);
    LKT_CHECK(copy != NULL, "S5.1 a presentation copy of a committed layer", "none: %s", lk_last_error());
    if (copy) {
        lkt_error_mark();
        LKT_CHECK_NEAR("S4.2 media time to a presentation copy, through its model's ancestors",
                       lk_layer_convert_time(NULL, 10, copy), 37, 1e-9);
        LKT_CHECK_NEAR("S4.2 a presentation copy's time to media time", lk_layer_convert_time(copy, 37, NULL), 10,
                       1e-9);
        lk_layer *kid = lk_layer_get_sublayer_count(copy) == 1 ? lk_layer_get_sublayer(copy, 0) : NULL;
        LKT_CHECK(kid != NULL, "S5.1 the copy of b has c's copy as its one sublayer", "%zu sublayers",
                  lk_layer_get_sublayer_count(copy));
        if (kid) {
            LKT_CHECK_NEAR("S4.2 media time to a sublayer of a presentation copy",
                           lk_layer_convert_time(NULL, 10, kid), 16.5, 1e-9);
            LKT_CHECK_NEAR("S4.2 within a presentation copy, its top to its sublayer",
                           lk_layer_convert_time(copy, 37, kid), 16.5, 1e-9);
        }
        lk_release(copy);
    }
    /* paused: par stands at 100; below it time is still well defined */
    lk_layer_set_speed(par, 0);
    lk_layer_set_time_offset(par, 100);
    LKT_CHECK_NEAR("S4.2 under a paused ancestor: sibling to sibling", lk_layer_convert_time(a, 100, b), 207, 1e-9);
    LKT_CHECK_NEAR("S4.2 under a paused ancestor: to itself", lk_layer_convert_time(a, 100, a), 100, 1e-9);
    LKT_CHECK_NEAR("S4.2 from the paused layer down", lk_layer_convert_time(par, 100, c), 101.5, 1e-9);
    LKT_CHECK_NEAR("S4.2 media time into a paused subtree", lk_layer_convert_time(NULL, 12345, b), 207, 1e-9);
    lkt_error_mark();
    double none = lk_layer_convert_time(a, 100, NULL);
    (void)none;
    LKT_CHECK_ERROR_MESSAGE("S4.2 out of a paused subtree to media time is refused, naming speed 0", "speed 0");
    lk_layer *other = lk_layer_create();
    lkt_error_mark();
    (void)lk_layer_convert_time(a, 1, other);
    LKT_CHECK_ERROR_MESSAGE("S4.2 layers of different trees are refused", "different trees");
    lk_release(other);
    lk_layer_remove_from_superlayer(par);
    lk_release(c);
    lk_release(b);
    lk_release(a);
    lk_release(par);
    lk_transaction_flush();
}

/* S4.4, c-api.md: a duration of infinity means forever (it was accepted and
   then taken for an instantaneous animation, over at once). */
static void infinite_duration(void)
{
    lk_layer *l = committed_layer();
    lk_animation *a = lk_basic_animation_create("opacity");
    lk_animation_set_from_value(a, lk_value_number(0.2));
    lk_animation_set_to_value(a, lk_value_number(0.8));
    LKT_CHECK_STATUS("S4.4 duration infinity is accepted", lk_animation_set_duration(a, 1.0 / 0.0), LK_OK);
    lk_layer_add_animation(l, a, "forever");
    lk_release(a);
    lk_transaction_flush();
    double b = begin_of(l, "forever");
    LKT_CHECK_NEAR("S4.4 an infinite duration holds its start at 1 s", opacity_at(l, b + 1), 0.2, 1e-9);
    lk_display_render_frame_at(display, b + 100);
    lk_display_dispatch(display, 0);
    LKT_CHECK(lk_layer_get_animation(l, "forever") != NULL, "S4.4 ... and is still running after 100 s", "removed");
    LKT_CHECK_NEAR("S4.4 ... at its start", opacity_at(l, b + 100), 0.2, 1e-9);
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_transaction_flush();
}

/* ---- S4.6: removed before it began; S2.4, S5.3: the run loop ---------- */

/* An animation removed in a transaction still open while a frame is drawn
   in which it would begin: the render side still has it, and it began
   there with nothing left to report its stop (did_start and never
   did_stop). Now it does not begin: neither is heard. */
static void removed_before_its_first_frame(void)
{
    lk_layer *l = committed_layer();
    lk_animation *a = counted_opacity(0, 1, 1.0);
    lk_animation_set_begin_time(a, lk_media_time() + 0.2);
    lk_layer_add_animation(l, a, "late");
    lk_release(a);
    lk_transaction_flush();
    double b = begin_of(l, "late");
    started = stopped_finished = stopped_early = 0;
    lk_transaction_begin();
    lk_layer_remove_animation(l, "late");
    lk_display_render_frame_at(display, b + 0.5);
    lk_transaction_commit();
    for (int i = 1; i <= 3; i++) {
        lk_display_render_frame_at(display, b + 0.5 + i);
        lk_display_dispatch(display, 0);
    }
    LKT_CHECK((started == 0 && stopped_early == 0 && stopped_finished == 0) ||
              (started == 1 && stopped_early == 1 && stopped_finished == 0),
              "S4.6 removed before its first frame was committed: no start, or a start and its stop",
              "started %d, stopped early %d, finished %d", started, stopped_early, stopped_finished);
}

static bool fd_readable(void)
{
    struct pollfd p = { lk_display_get_fd(display), POLLIN, 0 };
    return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static int run_calls, inner_returned, outer_ran_after;
static void stop_inner(void *u) { (void)u; run_calls++; lk_display_stop(display); }
static void after_inner(void *u) { (void)u; outer_ran_after = 1; lk_display_stop(display); }
static void run_nested(void *u)
{
    (void)u;
    lk_transaction_begin();
    lk_transaction_set_completion(stop_inner, NULL);
    lk_transaction_commit();
    lk_display_run(display);   /* returns when stop_inner stops it */
    inner_returned = 1;
    lk_transaction_begin();
    lk_transaction_set_completion(after_inner, NULL);
    lk_transaction_commit();
}

static void run_loop_rules(void)
{
    /* S2.2: an implicit transaction is work: the fd a program polls in its
       own loop becomes readable, and a dispatch commits it (it stayed
       quiet, and such a loop never committed its changes) */
    lk_layer *l = committed_layer();
    lk_display_dispatch(display, 0);
    LKT_CHECK(!fd_readable(), "S2.2 nothing waits: the fd is not readable", "%s", "readable");
    lk_layer_set_opacity(l, 0.25);   /* an implicit transaction */
    LKT_CHECK(fd_readable(), "S2.2 an implicit transaction makes the run loop's fd readable", "%s", "not readable");
    lk_display_dispatch(display, 0);
    LKT_CHECK(lk_layer_get_animation(l, "opacity") != NULL && !fd_readable(),
              "S2.2 the dispatch it calls for commits it (its animation is there), and the fd is quiet again",
              "animation %p", (void *)lk_layer_get_animation(l, "opacity"));
    /* committed by a flush instead, nothing waits: quiet as well (it stayed
       readable, and a poll() loop woke once for nothing) */
    lk_display_dispatch(display, 0);
    lk_layer_set_opacity(l, 0.5);
    LKT_CHECK(fd_readable(), "S2.2 another change makes the fd readable", "%s", "not readable");
    lk_transaction_flush();
    LKT_CHECK(!fd_readable(), "S2.2 after lk_transaction_flush committed it, the fd is quiet", "%s", "readable");

    /* S5.3: a display link's call waiting makes the fd readable; pausing or
       invalidating the link drops the call, and the fd is quiet again (it
       stayed readable, and a poll() loop woke for a dispatch that
       delivered nothing) */
    lk_display_link *link = lk_display_link_create(display, on_frame, NULL);
    double t = lk_media_time();
    for (int drop = 0; drop < 2; drop++) {
        /* a frame and its work delivered, then a frame whose call alone waits */
        lk_display_render_frame_at(display, t += 1.0 / 60);
        lk_display_dispatch(display, 0);
        LKT_CHECK(!fd_readable(), "S5.3 the frame's work delivered, the fd is quiet", "%s", "readable");
        lk_display_render_frame_at(display, t += 1.0 / 60);
        LKT_CHECK(fd_readable(), "S5.3 a display link's call waiting makes the fd readable", "%s", "not readable");
        if (drop == 0) lk_display_link_set_paused(link, true);
        else lk_display_link_invalidate(link);
        LKT_CHECK(!fd_readable(), drop == 0 ? "S5.3 pausing the link drops its call: the fd is quiet"
                                            : "S5.3 invalidating the link drops its call: the fd is quiet",
                  "%s", "readable");
        link_calls = 0;
        lk_display_dispatch(display, 0);
        LKT_CHECK(link_calls == 0, "S5.3 ... and no call comes", "%d calls", link_calls);
        lk_display_link_set_paused(link, false);
    }
    lk_release(link);

    /* lk_display_stop with no run under way ends the next one at once
       (CFRunLoopStop); a nested run's stop ends that run only */
    lk_display_stop(display);
    LKT_CHECK_STATUS("S5.3 a stop before the run ends it at once", lk_display_run(display), LK_OK);
    run_calls = inner_returned = outer_ran_after = 0;
    lk_transaction_begin();
    lk_transaction_set_completion(run_nested, NULL);
    lk_transaction_commit();
    lk_status s = lk_display_run(display);
    LKT_CHECK(s == LK_OK && run_calls == 1 && inner_returned && outer_ran_after,
              "S5.3 a stop inside a nested run ends it, and the run around it goes on",
              "%s, inner stopped %d, returned %d, outer went on %d", lkt_status_name(s), run_calls, inner_returned,
              outer_ran_after);
}

/* ---- S4.6, S2.4: animations of layers that are not drawn ---------------- */

/* Adds a slide of `duration` seconds to l with the counting delegate, in a
   transaction with the counting completion; returns its begin time. */
static double start_slide(lk_layer *l, lk_animation *a, double duration)
{
    count_events(a);
    lk_animation_set_by_value(a, lk_value_number(30));
    lk_animation_set_duration(a, duration);
    started = stopped_finished = stopped_early = 0;
    completions = 0;
    lk_transaction_begin();
    lk_transaction_set_completion(count_completion, NULL);
    lk_layer_add_animation(l, a, "slide");
    lk_transaction_commit();
    return begin_of(l, "slide");
}

/* A layer under a hidden one, under a fully transparent one, and one hidden
   in a transform layer's space: none is drawn, but their animations still
   start and end on time (the delegate hears both, the transaction that
   added them completes). Before, they waited until the layer was drawn
   again, which for a layer kept hidden was never. */
static void undrawn_layers_animations_end(void)
{
    static const char *const cases[] = {"under a hidden layer", "under a fully transparent layer",
                                        "hidden in a transform layer"};
    int c;
    for (c = 0; c < 3; c++) {
        char name[160];
        lk_layer *holder = c == 2 ? lk_transform_layer_create() : lk_layer_create();
        lk_layer *l = lk_layer_create();
        lk_animation *a = lk_basic_animation_create("position.x");
        double b;
        lk_transaction_begin();
        lk_transaction_set_disable_actions(true);
        lk_layer_set_frame(holder, lk_rect_make(0, 0, 100, 100));
        lk_layer_set_frame(l, lk_rect_make(10, 10, 20, 20));
        lk_layer_set_background_color(l, lk_color_make(1, 0, 0, 1));
        lk_layer_add_sublayer(holder, l);
        lk_layer_add_sublayer(root, holder);
        if (c == 0) lk_layer_set_hidden(holder, true);
        if (c == 1) lk_layer_set_opacity(holder, 0);
        if (c == 2) lk_layer_set_hidden(l, true);
        lk_transaction_commit();
        lk_display_render_frame_at(display, lk_media_time());
        b = start_slide(l, a, 0.5);
        lk_display_render_frame_at(display, b + 0.25);
        lk_display_dispatch(display, 0);
        snprintf(name, sizeof name, "S4.6 an animation of a layer %s starts", cases[c]);
        LKT_CHECK(started == 1 && stopped_finished == 0, name, "started %d, stopped %d", started, stopped_finished);
        lk_display_render_frame_at(display, b + 1);
        lk_display_dispatch(display, 0);
        lk_display_dispatch(display, 0);
        snprintf(name, sizeof name, "S4.6 S2.4 and ends: did_stop(finished) once, the transaction completes, it is removed (%s)",
                 cases[c]);
        LKT_CHECK(stopped_finished == 1 && stopped_early == 0 && completions == 1 &&
                  lk_layer_get_animation(l, "slide") == NULL, name, "stopped %d (early %d), %d completions, %s",
                  stopped_finished, stopped_early, completions,
                  lk_layer_get_animation(l, "slide") ? "still on the layer" : "removed");
        lk_layer_remove_from_superlayer(holder);
        lk_transaction_flush();
        lk_release(a);
        lk_release(l);
        lk_release(holder);
    }
}

/* S4.6, S2.4: a layer let go of while its animation runs: the animation
   goes with it as if removed, so its delegate hears did_stop(not finished)
   once and the transaction that added it completes. (They waited forever.) */
static void released_layers_animation_stops(void)
{
    lk_layer *l = lk_layer_create();
    lk_animation *a = lk_basic_animation_create("position.x");
    double b;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_frame(l, lk_rect_make(10, 10, 20, 20));
    lk_layer_add_sublayer(root, l);
    lk_transaction_commit();
    lk_display_render_frame_at(display, lk_media_time());
    b = start_slide(l, a, 1);
    lk_display_render_frame_at(display, b + 0.25);
    lk_display_dispatch(display, 0);
    /* taken out of the tree (its animation then runs nowhere) and let go */
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_remove_from_superlayer(l);
    lk_transaction_commit();
    lk_release(l);
    lk_transaction_flush();
    lk_display_render_frame_at(display, b + 0.5);
    lk_display_dispatch(display, 0);
    lk_display_dispatch(display, 0);
    LKT_CHECK(started == 1 && stopped_early == 1 && stopped_finished == 0 && completions == 1,
              "S4.6 S2.4 a layer let go of while animating: did_stop(not finished) once, the transaction completes",
              "started %d, stopped early %d, finished %d, %d completions", started, stopped_early, stopped_finished,
              completions);
    lk_release(a);
}

/* S4.4, S4.6: an animation of speed 0 is active from its beginTime on (its
   interval is [beginTime, forever) of its layer's time) and holds the
   place its timeOffset gives it; before its beginTime it has no effect
   (fill removed) and has not started. It applied, and its delegate heard
   did_start, 50 s before it began: with speed 0 its local time is
   timeOffset at every time, which alone read as active. */
static void speed_zero_before_begin(void)
{
    lk_layer *l = committed_layer();
    static const struct { double offset; const char *fill; } cases[] = { { 0.3, NULL }, { 0, NULL }, { 0.3, "backwards" } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double begin = lk_media_time() + 100;
        lk_animation *a = linear_z(0, 10, begin, cases[i].offset, 0);
        if (cases[i].fill) lk_animation_set_fill_mode(a, LK_FILL_BACKWARDS);
        started = stopped_finished = stopped_early = 0;
        lk_transaction_begin();
        lk_transaction_set_disable_actions(true);
        lk_layer_set_z_position(l, -7);
        lk_transaction_commit();
        lk_layer_add_animation(l, a, "still");
        lk_release(a);
        lk_transaction_flush();
        lk_display_render_frame_at(display, begin - 50);
        lk_display_dispatch(display, 0);
        lk_layer *p = lk_layer_copy_presentation_at(l, begin - 50);
        double before = p ? lk_layer_get_z_position(p) : NAN;
        lk_release(p);
        double expected = cases[i].fill ? cases[i].offset * 10 : -7;
        char name[200];
        snprintf(name, sizeof name, "S4.4 speed 0, timeOffset %g, fill %s: before its beginTime %s", cases[i].offset,
                 cases[i].fill ? cases[i].fill : "removed", cases[i].fill ? "it fills backwards" : "the model shows");
        LKT_CHECK_NEAR(name, before, expected, 1e-9);
        snprintf(name, sizeof name, "S4.6 speed 0, timeOffset %g: no did_start before its beginTime", cases[i].offset);
        LKT_CHECK(started == 0, name, "%d starts", started);
        lk_display_render_frame_at(display, begin + 50);
        lk_display_dispatch(display, 0);
        p = lk_layer_copy_presentation_at(l, begin + 50);
        double after = p ? lk_layer_get_z_position(p) : NAN;
        lk_release(p);
        snprintf(name, sizeof name, "S4.2 speed 0, timeOffset %g: from its beginTime on it holds at its offset",
                 cases[i].offset);
        LKT_CHECK_NEAR(name, after, cases[i].offset * 10, 1e-9);
        snprintf(name, sizeof name, "S4.6 speed 0, timeOffset %g: did_start once it began", cases[i].offset);
        LKT_CHECK(started == 1, name, "%d starts", started);
        lk_layer_remove_animation(l, "still");
        lk_transaction_flush();
        lk_display_dispatch(display, 0);   /* its did_stop, before the next test counts */
    }
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_transaction_flush();
}

int main(void)
{
    display = lkt_open_display(200, 100, "open");
    if (!display) return lkt_finish();
    root = lkt_layer_new(NULL, 0, 0, 200, 100, lk_color_make(0, 0, 0, 1));
    lk_display_set_root_layer(display, root);
    lk_display_render_frame_at(display, lk_media_time());
    implicit_animations();
    implicit_over_running_animations();
    transactions();
    transaction_keys();
    explicit_animations();
    animation_time_offset();
    presentation_and_links();
    presentation_tree();
    presentation_after_the_end();
    infinite_duration();
    convert_times();
    speed_zero_before_begin();
    removed_before_its_first_frame();
    run_loop_rules();
    undrawn_layers_animations_end();
    released_layers_animation_stops();
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
