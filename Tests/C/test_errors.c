/*
 * S8.1 and the header's conventions: bad input never crashes, a failed call
 * returns an error (or NULL / the type's zero), leaves a message on this
 * thread naming the argument, and changes nothing. NULL handles, NaN and
 * infinite values, negative sizes and widths, enum values out of range,
 * absurd sizes, and lk_last_error's per-thread message.
 */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "lktest.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A call on a NULL layer: LK_ERROR_INVALID_ARGUMENT naming "layer". */
#define NULL_LAYER_SET(call, what)                                                   \
    do {                                                                             \
        lk_status s_;                                                                \
        lkt_error_mark();                                                            \
        s_ = call;                                                                   \
        LKT_CHECK_ERROR("S8.1 " what " on a NULL layer", s_, LK_ERROR_INVALID_ARGUMENT, \
                        "layer");                                                    \
    } while (0)

/* A getter of a plain value on a NULL layer: the type's zero and a message. */
#define NULL_LAYER_GET(is_zero, what)                                                \
    do {                                                                             \
        int z_;                                                                      \
        lkt_error_mark();                                                            \
        z_ = (is_zero);                                                              \
        LKT_CHECK(z_, "S8.1 " what " of a NULL layer is zero", "not the type's zero"); \
        LKT_CHECK_ERROR_MESSAGE("S8.1 " what " of a NULL layer sets the message", "layer"); \
    } while (0)

static int color_zero(lk_color c) { return c.r == 0 && c.g == 0 && c.b == 0 && c.a == 0; }

static int transform_zero(lk_transform3d t)
{
    lk_transform3d z;
    memset(&z, 0, sizeof z);
    return lkt_transform_near(t, z, 0);
}

static void check_first_message(void)
{
    const char *m = lk_last_error();
    LKT_CHECK(m != NULL && m[0] == '\0', "lk_last_error is \"\" before any failure", "got \"%s\"",
              m ? m : "(null)");
}

static void check_null_layer(void)
{
    lk_rect r0 = lk_rect_make(0, 0, 0, 0);
    lk_value v;

    NULL_LAYER_SET(lk_layer_set_bounds(NULL, lk_rect_make(0, 0, 1, 1)), "set bounds");
    NULL_LAYER_SET(lk_layer_set_position(NULL, lk_point_make(1, 1)), "set position");
    NULL_LAYER_SET(lk_layer_set_frame(NULL, lk_rect_make(0, 0, 1, 1)), "set frame");
    NULL_LAYER_SET(lk_layer_set_anchor_point(NULL, lk_point_make(0, 0)), "set anchorPoint");
    NULL_LAYER_SET(lk_layer_set_anchor_point_z(NULL, 1), "set anchorPointZ");
    NULL_LAYER_SET(lk_layer_set_z_position(NULL, 1), "set zPosition");
    NULL_LAYER_SET(lk_layer_set_transform(NULL, lkt_t_identity()), "set transform");
    NULL_LAYER_SET(lk_layer_set_sublayer_transform(NULL, lkt_t_identity()), "set sublayerTransform");
    NULL_LAYER_SET(lk_layer_set_opacity(NULL, 1), "set opacity");
    NULL_LAYER_SET(lk_layer_set_hidden(NULL, true), "set hidden");
    NULL_LAYER_SET(lk_layer_set_background_color(NULL, lk_color_make(1, 1, 1, 1)), "set backgroundColor");
    NULL_LAYER_SET(lk_layer_set_border_color(NULL, lk_color_make(1, 1, 1, 1)), "set borderColor");
    NULL_LAYER_SET(lk_layer_set_border_width(NULL, 1), "set borderWidth");
    NULL_LAYER_SET(lk_layer_set_corner_radius(NULL, 1), "set cornerRadius");
    NULL_LAYER_SET(lk_layer_set_masks_to_bounds(NULL, true), "set masksToBounds");
    NULL_LAYER_SET(lk_layer_set_double_sided(NULL, false), "set doubleSided");
    NULL_LAYER_SET(lk_layer_set_shadow_opacity(NULL, 1), "set shadowOpacity");
    NULL_LAYER_SET(lk_layer_set_contents(NULL, NULL), "set contents");
    NULL_LAYER_SET(lk_layer_set_contents_gravity(NULL, LK_GRAVITY_CENTER), "set contentsGravity");
    NULL_LAYER_SET(lk_layer_set_mask(NULL, NULL), "set mask");
    NULL_LAYER_SET(lk_layer_set_name(NULL, "x"), "set name");
    NULL_LAYER_SET(lk_layer_set_speed(NULL, 2), "set speed");
    NULL_LAYER_SET(lk_layer_set_fill_mode(NULL, LK_FILL_BOTH), "set fillMode");
    NULL_LAYER_SET(lk_layer_set_value(NULL, "opacity", lk_value_number(1)), "set_value");
    NULL_LAYER_SET(lk_layer_get_value(NULL, "opacity", &v), "get_value");
    NULL_LAYER_SET(lk_layer_set_user_value(NULL, "k", lk_value_number(1)), "set_user_value");
    NULL_LAYER_SET(lk_layer_remove_from_superlayer(NULL), "remove_from_superlayer");

    NULL_LAYER_GET(lkt_rect_near(lk_layer_get_bounds(NULL), r0, 0), "bounds");
    NULL_LAYER_GET(lkt_rect_near(lk_layer_get_frame(NULL), r0, 0), "frame");
    NULL_LAYER_GET(lkt_point_near(lk_layer_get_anchor_point(NULL), lk_point_make(0, 0), 0),
                   "anchorPoint");
    NULL_LAYER_GET(lk_layer_get_opacity(NULL) == 0, "opacity");
    NULL_LAYER_GET(lk_layer_get_double_sided(NULL) == false, "doubleSided");
    NULL_LAYER_GET(color_zero(lk_layer_get_border_color(NULL)), "borderColor");
    NULL_LAYER_GET(transform_zero(lk_layer_get_transform(NULL)), "transform");
    NULL_LAYER_GET(transform_zero(lk_layer_get_sublayer_transform(NULL)), "sublayerTransform");
    {
        lk_affine m0;
        memset(&m0, 0, sizeof m0);
        NULL_LAYER_GET(lkt_affine_near(lk_layer_get_affine_transform(NULL), m0, 0),
                       "affineTransform");
    }
    NULL_LAYER_GET(lk_layer_get_contents_scale(NULL) == 0, "contentsScale");
    NULL_LAYER_GET(lk_layer_get_speed(NULL) == 0, "speed");
    NULL_LAYER_GET(lkt_size_near(lk_layer_get_shadow_offset(NULL), lk_size_make(0, 0), 0),
                   "shadowOffset");
    NULL_LAYER_GET(lk_layer_get_name(NULL) == NULL, "name");
    NULL_LAYER_GET(lk_layer_get_superlayer(NULL) == NULL, "superlayer");
    NULL_LAYER_GET(lk_layer_get_sublayer_count(NULL) == 0, "sublayer count");
    NULL_LAYER_GET(lk_layer_get_value_type(NULL, "opacity") == LK_VALUE_NONE, "value type");

    {
        lk_layer *c = lk_layer_create();
        lk_status s;
        lkt_error_mark();
        s = lk_layer_add_sublayer(NULL, c);
        LKT_CHECK_ERROR("S8.1 add_sublayer to a NULL parent names it", s,
                        LK_ERROR_INVALID_ARGUMENT, "parent");
        lkt_error_mark();
        s = lk_layer_add_sublayer(c, NULL);
        LKT_CHECK_ERROR("S8.1 add_sublayer of a NULL child names it", s,
                        LK_ERROR_INVALID_ARGUMENT, "child");
        lk_layer *k = lk_layer_create();
        lkt_error_mark();
        s = lk_layer_insert_sublayer_below(c, k, NULL);
        LKT_CHECK(s != LK_OK && lkt_error_since_mark() && lk_layer_get_superlayer(k) == NULL,
                  "S8.1 insert below a NULL sibling is an error", "%s", lkt_status_name(s));
        lk_release(k);
        lk_release(c);
    }
}

/* A setter given a bad value: an error naming it, the property unchanged. */
#define BAD_VALUE(layer, call, want_status, mentions, unchanged, what)               \
    do {                                                                             \
        lk_status s_;                                                                \
        lkt_error_mark();                                                            \
        s_ = call;                                                                   \
        LKT_CHECK_ERROR("S8.1 " what, s_, want_status, mentions);                    \
        LKT_CHECK(unchanged, "S8.1 " what ", nothing changes", "the property changed"); \
    } while (0)

static void check_bad_values(void)
{
    lk_layer *l = lk_layer_create();
    lk_rect b = lk_rect_make(1, 2, 30, 40);
    lk_point p = lk_point_make(5, 6);
    lk_transform3d t;

    lk_layer_set_bounds(l, b);
    lk_layer_set_position(l, p);
    lk_layer_set_border_width(l, 2);
    lk_layer_set_corner_radius(l, 3);
    lk_layer_set_opacity(l, 0.5);

    BAD_VALUE(l, lk_layer_set_position(l, lk_point_make(NAN, 0)), LK_ERROR_INVALID_ARGUMENT,
              "position|p", lkt_point_near(lk_layer_get_position(l), p, 0), "position NaN");
    BAD_VALUE(l, lk_layer_set_position(l, lk_point_make(0, INFINITY)), LK_ERROR_INVALID_ARGUMENT,
              "position|p", lkt_point_near(lk_layer_get_position(l), p, 0), "position infinite");
    BAD_VALUE(l, lk_layer_set_bounds(l, lk_rect_make(0, 0, NAN, 1)), LK_ERROR_INVALID_ARGUMENT,
              "bounds|r", lkt_rect_near(lk_layer_get_bounds(l), b, 0), "bounds NaN");
    BAD_VALUE(l, lk_layer_set_bounds(l, lk_rect_make(0, 0, -10, 5)), LK_ERROR_INVALID_ARGUMENT,
              "bounds|r|width|negative", lkt_rect_near(lk_layer_get_bounds(l), b, 0),
              "bounds with a negative width");
    BAD_VALUE(l, lk_layer_set_bounds(l, lk_rect_make(0, 0, 5, -1)), LK_ERROR_INVALID_ARGUMENT,
              "bounds|r|height|negative", lkt_rect_near(lk_layer_get_bounds(l), b, 0),
              "bounds with a negative height");
    BAD_VALUE(l, lk_layer_set_frame(l, lk_rect_make(0, 0, -10, 5)), LK_ERROR_INVALID_ARGUMENT,
              "frame|r|width|negative",
              lkt_rect_near(lk_layer_get_bounds(l), b, 0) &&
                  lkt_point_near(lk_layer_get_position(l), p, 0),
              "frame with a negative width");
    BAD_VALUE(l, lk_layer_set_frame(l, lk_rect_make(INFINITY, 0, 10, 5)), LK_ERROR_INVALID_ARGUMENT,
              "frame|r", lkt_point_near(lk_layer_get_position(l), p, 0), "frame infinite");
    BAD_VALUE(l, lk_layer_set_anchor_point(l, lk_point_make(NAN, 0.5)), LK_ERROR_INVALID_ARGUMENT,
              "anchor|p", lkt_point_near(lk_layer_get_anchor_point(l), lk_point_make(0.5, 0.5), 0),
              "anchorPoint NaN");
    BAD_VALUE(l, lk_layer_set_z_position(l, INFINITY), LK_ERROR_INVALID_ARGUMENT, "zposition|z",
              lk_layer_get_z_position(l) == 0, "zPosition infinite");
    BAD_VALUE(l, lk_layer_set_opacity(l, NAN), LK_ERROR_INVALID_ARGUMENT, "opacity",
              lk_layer_get_opacity(l) == 0.5, "opacity NaN");
    BAD_VALUE(l, lk_layer_set_border_width(l, -1), LK_ERROR_INVALID_ARGUMENT, "border|width",
              lk_layer_get_border_width(l) == 2, "negative borderWidth");
    BAD_VALUE(l, lk_layer_set_border_width(l, NAN), LK_ERROR_INVALID_ARGUMENT, "border|width",
              lk_layer_get_border_width(l) == 2, "borderWidth NaN");
    BAD_VALUE(l, lk_layer_set_corner_radius(l, -1), LK_ERROR_INVALID_ARGUMENT, "corner|radius",
              lk_layer_get_corner_radius(l) == 3, "negative cornerRadius");
    BAD_VALUE(l, lk_layer_set_shadow_radius(l, -2), LK_ERROR_INVALID_ARGUMENT, "shadow|radius",
              lk_layer_get_shadow_radius(l) == 3, "negative shadowRadius");
    BAD_VALUE(l, lk_layer_set_contents_scale(l, 0), LK_ERROR_INVALID_ARGUMENT,
              "contents|scale", lk_layer_get_contents_scale(l) == 1, "contentsScale 0");
    BAD_VALUE(l, lk_layer_set_contents_scale(l, -2), LK_ERROR_INVALID_ARGUMENT,
              "contents|scale", lk_layer_get_contents_scale(l) == 1, "negative contentsScale");
    BAD_VALUE(l, lk_layer_set_background_color(l, lk_color_make(NAN, 0, 0, 1)),
              LK_ERROR_INVALID_ARGUMENT, "color|colour|background|c",
              lk_layer_get_background_color(l).a == 0, "backgroundColor NaN");
    BAD_VALUE(l, lk_layer_set_shadow_offset(l, lk_size_make(INFINITY, 0)),
              LK_ERROR_INVALID_ARGUMENT, "shadow|offset",
              lkt_size_near(lk_layer_get_shadow_offset(l), lk_size_make(0, -3), 0),
              "shadowOffset infinite");
    BAD_VALUE(l, lk_layer_set_speed(l, NAN), LK_ERROR_INVALID_ARGUMENT, "speed",
              lk_layer_get_speed(l) == 1, "speed NaN");
    BAD_VALUE(l, lk_layer_set_begin_time(l, NAN), LK_ERROR_INVALID_ARGUMENT, "begin|time|t",
              lk_layer_get_begin_time(l) == 0, "beginTime NaN");
    t = lkt_t_identity();
    t.m22 = NAN;
    BAD_VALUE(l, lk_layer_set_transform(l, t), LK_ERROR_INVALID_ARGUMENT, "transform|t",
              lkt_transform_near(lk_layer_get_transform(l), lkt_t_identity(), 0),
              "transform with NaN");
    t = lkt_t_identity();
    t.m41 = INFINITY;
    BAD_VALUE(l, lk_layer_set_sublayer_transform(l, t), LK_ERROR_INVALID_ARGUMENT,
              "transform|t", lkt_transform_near(lk_layer_get_sublayer_transform(l), lkt_t_identity(), 0),
              "sublayerTransform infinite");
    BAD_VALUE(l, lk_layer_set_contents_gravity(l, (lk_contents_gravity)99),
              LK_ERROR_INVALID_ARGUMENT, "gravity|g",
              lk_layer_get_contents_gravity(l) == LK_GRAVITY_RESIZE, "contentsGravity out of range");
    BAD_VALUE(l, lk_layer_set_fill_mode(l, (lk_fill_mode)17), LK_ERROR_INVALID_ARGUMENT,
              "fill|mode", lk_layer_get_fill_mode(l) == LK_FILL_REMOVED, "fillMode out of range");
    lk_release(l);
}

/* S8.1: an animation's values with NaN or infinity are refused, naming the
   argument, and change nothing (they were accepted, then animated as NaN). */
static void check_non_finite_animation_values(void)
{
    lk_animation *a = lk_basic_animation_create("opacity");
    lk_animation_set_from_value(a, lk_value_number(0.5));
    LKT_CHECK_ERROR("S8.1 fromValue NaN is refused", lk_animation_set_from_value(a, lk_value_number(NAN)),
                    LK_ERROR_INVALID_ARGUMENT, "v|finite");
    LKT_CHECK_ERROR("S8.1 toValue infinity is refused", lk_animation_set_to_value(a, lk_value_number(INFINITY)),
                    LK_ERROR_INVALID_ARGUMENT, "v|finite");
    LKT_CHECK_ERROR("S8.1 byValue with an infinite point is refused",
                    lk_animation_set_by_value(a, lk_value_point(lk_point_make(INFINITY, 0))), LK_ERROR_INVALID_ARGUMENT,
                    "v|finite");
    lk_value from = lk_value_none(), to = lk_value_none();
    lk_animation_get_from_value(a, &from);
    lk_animation_get_to_value(a, &to);
    LKT_CHECK(from.type == LK_VALUE_NUMBER && from.as.number == 0.5 && to.type == LK_VALUE_NONE,
              "S8.1 refused values change nothing", "from type %d, to type %d", (int)from.type, (int)to.type);
    lk_release(a);
    lk_animation *k = lk_keyframe_animation_create("position");
    lk_value values[2] = {lk_value_point(lk_point_make(0, 0)), lk_value_point(lk_point_make(NAN, 1))};
    LKT_CHECK_ERROR("S8.1 a keyframe value with NaN is refused, naming it", lk_animation_set_values(k, values, 2),
                    LK_ERROR_INVALID_ARGUMENT, "values[1]");
    LKT_CHECK(lk_animation_get_values(k, NULL, 0) == 0, "S8.1 ... and no values are set", "%zu values",
              lk_animation_get_values(k, NULL, 0));
    lk_release(k);
}

static void check_absurd_sizes(void)
{
    lk_display_options o;
    lk_display *d;
    lk_layer *root = lk_layer_create(), *far_away;
    uint8_t *px;
    int ok = 1;
    size_t i;

    /* a 10^6 x 10^6 layer covering a small display */
    lk_layer_set_anchor_point(root, lk_point_make(0, 0));
    lk_layer_set_bounds(root, lk_rect_make(0, 0, 1e6, 1e6));
    lk_layer_set_position(root, lk_point_make(-1000, -1000));
    lk_layer_set_background_color(root, lk_color_make(1, 0, 0, 1));
    lk_layer_set_corner_radius(root, 50);
    far_away = lkt_layer_new(root, 1e9, 1e9, 10, 10, lk_color_make(0, 1, 0, 1));
    (void)far_away;

    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = "software";
    o.width = 32;
    o.height = 32;
    o.manual_clock = true;
    d = lk_display_open(&o);
    if (!LKT_CHECK(d != NULL, "S8.1 open a display for absurd sizes", "%s", lk_last_error())) {
        lk_release(root);
        return;
    }
    lk_display_set_root_layer(d, root);
    px = lkt_render_and_read(d, "S8.1 a 10^6 x 10^6 layer renders");
    if (px) {
        for (i = 0; i < 32 * 32; i++)
            if (px[i * 4] < 250 || px[i * 4 + 1] > 5 || px[i * 4 + 3] != 255) ok = 0;
        LKT_CHECK(ok, "S8.1 a 10^6 x 10^6 layer renders (the display shows its inside)",
                  "not every pixel is red");
        free(px);
    }
    lk_display_close(d);
    lk_release(root);
}

/* S8.1: a count passed as size_t past what any array holds ((size_t)-1
   from a bad subtraction) is refused, not read (a pointer with such a count
   trapped the process) and not taken as no array */
static void check_absurd_counts(void)
{
    lk_color colors[2] = { lk_color_make(1, 0, 0, 1), lk_color_make(0, 0, 1, 1) };
    double numbers[2] = { 0, 1 };
    lk_value values[2] = { lk_value_number(0), lk_value_number(1) };
    lk_timing_function *fns[1] = { NULL };
    lk_layer *gradient = lk_gradient_layer_create(), *shape = lk_shape_layer_create();
    lk_animation *k = lk_keyframe_animation_create("opacity"), *group = lk_animation_group_create();
    lk_animation *children[1] = { k };
    const size_t huge = (size_t)-1;
    LKT_CHECK_ERROR("S8.1 gradient colours with a count of (size_t)-1", lk_gradient_layer_set_colors(gradient, colors, huge),
                    LK_ERROR_INVALID_ARGUMENT, "count");
    LKT_CHECK_ERROR("S8.1 gradient locations with it", lk_gradient_layer_set_locations(gradient, numbers, huge),
                    LK_ERROR_INVALID_ARGUMENT, "count");
    LKT_CHECK_ERROR("S8.1 a dash pattern with it", lk_shape_layer_set_line_dash_pattern(shape, numbers, huge),
                    LK_ERROR_INVALID_ARGUMENT, "count");
    LKT_CHECK_ERROR("S8.1 keyframe values with it", lk_animation_set_values(k, values, huge), LK_ERROR_INVALID_ARGUMENT,
                    "count");
    LKT_CHECK_ERROR("S8.1 key times with it", lk_animation_set_key_times(k, numbers, huge), LK_ERROR_INVALID_ARGUMENT,
                    "count");
    LKT_CHECK_ERROR("S8.1 timing functions with it", lk_animation_set_timing_functions(k, fns, huge),
                    LK_ERROR_INVALID_ARGUMENT, "count");
    LKT_CHECK_ERROR("S8.1 a group's animations with it", lk_animation_set_animations(group, children, huge),
                    LK_ERROR_INVALID_ARGUMENT, "count");
    LKT_CHECK(lk_gradient_layer_get_colors(gradient, NULL, 0) == 0 && lk_animation_get_key_times(k, NULL, 0) == 0,
              "S8.1 the refused calls changed nothing", "%s", "they did");
    /* a count no layer takes says what the bound is (it read "is absurd") */
    lk_layer *tiled = lk_tiled_layer_create();
    LKT_CHECK_ERROR("S8.1 a tile cache limit of (size_t)-1 names the argument and the bound",
                    lk_tiled_layer_set_tile_cache_limit(tiled, huge), LK_ERROR_INVALID_ARGUMENT, "is beyond 2^52");
    lk_release(tiled);
    /* a name that names nothing is said to be one (it read "expected a
       string, one of ..., got the string ...") */
    lk_layer *emitter = lk_emitter_layer_create();
    LKT_CHECK_ERROR("S8.1 an emitterShape name that is not one", lk_layer_set_value(emitter, "emitterShape", lk_value_string("triangle")),
                    LK_ERROR_TYPE_MISMATCH, "\"triangle\" is not one of");
    LKT_CHECK_ERROR("S8.1 a fillMode name in the wrong case", lk_layer_set_value(shape, "fillMode", lk_value_string("Forwards")),
                    LK_ERROR_TYPE_MISMATCH, "case-sensitive");
    lk_emitter_cell *named_cell = lk_emitter_cell_create();
    LKT_CHECK_ERROR("S8.1 a cell's fillMode name that is not one", lk_emitter_cell_set_value(named_cell, "fillMode", lk_value_string("sideways")),
                    LK_ERROR_TYPE_MISMATCH, "\"sideways\" is not one of");
    lk_release(named_cell);
    lk_release(emitter);
    /* an index the program gave as size_t is named as it gave it (these
       printed -1) */
    lk_layer *child = lk_layer_create();
    LKT_CHECK(lk_layer_get_sublayer(shape, huge) == NULL && strstr(lk_last_error(), "18446744073709551615") != NULL,
              "S8.1 get_sublayer names a (size_t)-1 index unsigned", "%s", lk_last_error());
    LKT_CHECK_ERROR("S8.1 insert_sublayer names it unsigned", lk_layer_insert_sublayer(shape, child, huge),
                    LK_ERROR_INVALID_ARGUMENT, "18446744073709551615");
    lk_point point = lk_timing_function_get_control_point(lk_timing_function_named(LK_TIMING_LINEAR), huge);
    (void)point;
    LKT_CHECK(strstr(lk_last_error(), "18446744073709551615") != NULL,
              "S8.1 get_control_point names it unsigned", "%s", lk_last_error());
    /* a NaN time is refused, naming t (it gave 0 and left no message) */
    lkt_error_mark();
    double eased = lk_timing_function_evaluate(lk_timing_function_named(LK_TIMING_EASE_IN), NAN);
    LKT_CHECK_ERROR_MESSAGE("S8.1 evaluating a timing function at NaN is refused, naming t", "t: nan");
    LKT_CHECK(eased == 0, "S8.1 a refused evaluation returns 0", "%g", eased);
    LKT_CHECK(lk_timing_function_evaluate(lk_timing_function_named(LK_TIMING_EASE_IN), INFINITY) == 1,
              "a timing function at an infinite time is clamped to 1, as any time past 1", "%g",
              lk_timing_function_evaluate(lk_timing_function_named(LK_TIMING_EASE_IN), INFINITY));
    lk_release(child);
    lk_release(gradient);
    lk_release(shape);
    lk_release(k);
    lk_release(group);
}

static void *other_thread(void *arg)
{
    char *out = (char *)arg;
    const char *m = lk_last_error();
    snprintf(out, 256, "%s", m ? m : "(null)");
    return NULL;
}

static void check_thread_local(void)
{
    pthread_t th;
    char seen[256] = "unset";
    lkt_error_mark(); /* a failure on this thread */
    if (pthread_create(&th, NULL, other_thread, seen) == 0) {
        pthread_join(th, NULL);
        LKT_CHECK(seen[0] == '\0', "C-API lk_last_error is per thread",
                  "another thread sees \"%s\"", seen);
    }
    LKT_CHECK(lk_last_error()[0] != '\0', "C-API this thread keeps its own message", "empty");
}

/* The message of the last failed call starts with `prefix` (the argument
   as the header names it). */
static int starts_with(const char *msg, const char *prefix)
{
    return msg && strncmp(msg, prefix, strlen(prefix)) == 0;
}

/* A kind-specific getter on the wrong kind returns the type's zero and sets
   the message, as its setter refuses that kind (the header's convention;
   lk_animation_get_settling_duration did, the spring getters gave the
   spring defaults and the keyframe ones 0, with no message). */
#define WRONG_KIND_GETTER(call, zero, what)                                               \
    do {                                                                                  \
        lkt_error_mark();                                                                 \
        int zero_ = (call) == (zero);                                                     \
        const char *msg_ = lkt_error_since_mark();                                        \
        LKT_CHECK(zero_ && starts_with(msg_, "a:") && lkt_mentions(msg_, what),        \
                  "S8.1 " what " on the wrong kind: the type's zero and a message naming a", \
                  "zero %d, message \"%s\"", zero_, msg_ ? msg_ : "(none)");              \
    } while (0)

static void check_kind_specific_getters(void)
{
    lk_animation *basic = lk_basic_animation_create("opacity");
    lk_animation *keyframe = lk_keyframe_animation_create("opacity");
    lk_animation *group = lk_animation_group_create();
    lk_animation *transition = lk_transition_create();
    lk_value v;
    double times[2];
    lk_animation *children[2];
    /* springs */
    WRONG_KIND_GETTER(lk_animation_get_mass(basic), 0.0, "lk_animation_get_mass");
    WRONG_KIND_GETTER(lk_animation_get_stiffness(basic), 0.0, "lk_animation_get_stiffness");
    WRONG_KIND_GETTER(lk_animation_get_damping(keyframe), 0.0, "lk_animation_get_damping");
    WRONG_KIND_GETTER(lk_animation_get_initial_velocity(basic), 0.0, "lk_animation_get_initial_velocity");
    WRONG_KIND_GETTER(lk_animation_get_settling_duration(basic), 0.0, "lk_animation_get_settling_duration");
    /* keyframes */
    WRONG_KIND_GETTER(lk_animation_get_calculation_mode(basic), LK_CALCULATION_LINEAR, "lk_animation_get_calculation_mode");
    WRONG_KIND_GETTER(lk_animation_get_rotation_mode(basic), LK_ROTATION_NONE, "lk_animation_get_rotation_mode");
    WRONG_KIND_GETTER(lk_animation_get_values(basic, &v, 1), (size_t)0, "lk_animation_get_values");
    WRONG_KIND_GETTER(lk_animation_get_key_times(group, times, 2), (size_t)0, "lk_animation_get_key_times");
    WRONG_KIND_GETTER(lk_animation_copy_path(basic), (lk_path *)NULL, "lk_animation_copy_path");
    /* groups */
    lkt_error_mark();
    size_t n = lk_animation_get_animations(basic, children, 2);
    const char *msg = lkt_error_since_mark();
    LKT_CHECK(n == 0 && starts_with(msg, "group:"),
              "S8.1 lk_animation_get_animations on the wrong kind: 0 and a message naming group",
              "%zu, message \"%s\"", n, msg ? msg : "(none)");
    /* property animations (basic, keyframe, spring) */
    WRONG_KIND_GETTER(lk_animation_get_additive(group), false, "lk_animation_get_additive");
    WRONG_KIND_GETTER(lk_animation_get_cumulative(transition), false, "lk_animation_get_cumulative");
    WRONG_KIND_GETTER(lk_animation_get_key_path(group), (const char *)NULL, "lk_animation_get_key_path");
    /* from / to / by: basic and spring */
    WRONG_KIND_GETTER(lk_animation_get_from_value(keyframe, &v), LK_ERROR_INVALID_ARGUMENT, "lk_animation_get_from_value");
    WRONG_KIND_GETTER(lk_animation_get_to_value(group, &v), LK_ERROR_INVALID_ARGUMENT, "lk_animation_get_to_value");
    WRONG_KIND_GETTER(lk_animation_get_by_value(transition, &v), LK_ERROR_INVALID_ARGUMENT, "lk_animation_get_by_value");
    /* transitions (already so) */
    WRONG_KIND_GETTER(lk_animation_get_start_progress(basic), 0.0, "lk_animation_get_start_progress");
    /* the right kind still reads, with no message */
    lk_animation *spring = lk_spring_animation_create("opacity");
    lkt_error_mark();
    double mass = lk_animation_get_mass(spring);
    lk_calculation_mode mode = lk_animation_get_calculation_mode(keyframe);
    size_t no_children = lk_animation_get_animations(group, children, 2);
    lk_status from = lk_animation_get_from_value(spring, &v);
    LKT_CHECK(mass == 1 && mode == LK_CALCULATION_LINEAR && no_children == 0 && from == LK_OK && !lkt_error_since_mark(),
              "S8.1 kind-specific getters on their kind read with no error",
              "mass %g, mode %d, children %zu, from %s", mass, (int)mode, no_children, lkt_status_name(from));
    lk_release(spring);
    lk_release(basic);
    lk_release(keyframe);
    lk_release(group);
    lk_release(transition);
}

/* Messages name the argument as the header names it (S8.1): these named
   "a", "layer" or "animation", which the calls do not have. */
static void check_argument_names(void)
{
    lk_animation *a = lk_basic_animation_create("opacity");
    lkt_error_mark();
    lk_status s = lk_animation_set_animations(NULL, &a, 1);
    LKT_CHECK(s == LK_ERROR_INVALID_ARGUMENT && starts_with(lk_last_error(), "group:"),
              "S8.1 lk_animation_set_animations(NULL, ...) names group", "%s \"%s\"", lkt_status_name(s), lk_last_error());
    s = lk_animation_set_animations(a, NULL, 0);
    LKT_CHECK(s == LK_ERROR_INVALID_ARGUMENT && starts_with(lk_last_error(), "group:"),
              "S8.1 lk_animation_set_animations on a basic animation names group", "%s \"%s\"", lkt_status_name(s),
              lk_last_error());

    lk_display *d = lkt_open_display(16, 16, "open a display for argument names");
    lk_layer *root = lk_layer_create(), *sub = lk_layer_create(), *x = lk_layer_create();
    lk_layer_add_sublayer(root, sub);
    if (d) {
        lk_display_set_root_layer(d, root);
        lk_display_render_frame_at(d, lk_media_time());
    }
    lk_layer *shown = lk_layer_copy_presentation(root);
    lk_layer *shown_sub = shown ? lk_layer_get_sublayer(shown, 0) : NULL;
    s = lk_layer_replace_sublayer(shown, shown_sub, x);
    LKT_CHECK(s == LK_ERROR_STATE && starts_with(lk_last_error(), "parent:"),
              "S8.1 lk_layer_replace_sublayer on a presentation copy names parent", "%s \"%s\"", lkt_status_name(s),
              lk_last_error());
    s = lk_layer_replace_sublayer(root, sub, shown_sub);
    LKT_CHECK(s == LK_ERROR_STATE && starts_with(lk_last_error(), "new_child:"),
              "S8.1 lk_layer_replace_sublayer with a presentation copy as new_child names it", "%s \"%s\"",
              lkt_status_name(s), lk_last_error());
    s = lk_layer_insert_sublayer_above(shown, x, shown_sub);
    LKT_CHECK(s == LK_ERROR_STATE && starts_with(lk_last_error(), "parent:"),
              "S8.1 lk_layer_insert_sublayer_above on a presentation copy names parent", "%s \"%s\"",
              lkt_status_name(s), lk_last_error());
    s = lk_layer_insert_sublayer_below(root, shown_sub, sub);
    LKT_CHECK(s == LK_ERROR_STATE && starts_with(lk_last_error(), "child:"),
              "S8.1 lk_layer_insert_sublayer_below with a presentation copy as child names it", "%s \"%s\"",
              lkt_status_name(s), lk_last_error());
    LKT_CHECK(lk_layer_get_sublayer_count(root) == 1 && lk_layer_get_sublayer(root, 0) == sub,
              "S8.1 the refused hierarchy calls changed nothing", "%zu sublayers", lk_layer_get_sublayer_count(root));
    lkt_error_mark();
    lk_layer *hit = lk_layer_hit_test(root, lk_point_make(NAN, 0));
    const char *msg = lkt_error_since_mark();
    LKT_CHECK(!hit && starts_with(msg, "p_in_root_superlayer.x:"),
              "S8.1 lk_layer_hit_test with a NaN point names p_in_root_superlayer", "\"%s\"", msg ? msg : "(none)");
    lk_release(shown);

    lk_animation *no_path = lk_basic_animation_create("");
    lk_animation_set_to_value(no_path, lk_value_number(0));
    s = lk_layer_add_animation(x, no_path, "k");
    LKT_CHECK(s == LK_ERROR_INVALID_ARGUMENT && starts_with(lk_last_error(), "a:"),
              "S8.1 lk_layer_add_animation with an empty key path names a", "%s \"%s\"", lkt_status_name(s),
              lk_last_error());
    lk_animation *group = lk_animation_group_create();
    lk_animation_set_animations(group, &no_path, 1);
    s = lk_layer_add_animation(x, group, "k");
    LKT_CHECK(s == LK_ERROR_INVALID_ARGUMENT && starts_with(lk_last_error(), "a.animations[0]:"),
              "S8.1 lk_layer_add_animation names a group's child as a.animations[i]", "%s \"%s\"", lkt_status_name(s),
              lk_last_error());
    lk_release(group);
    lk_release(no_path);
    if (d) lk_display_close(d);
    lk_release(root);
    lk_release(sub);
    lk_release(x);
    lk_release(a);
}

int main(void)
{
    check_first_message();
    check_null_layer();
    check_bad_values();
    check_absurd_sizes();
    check_absurd_counts();
    check_non_finite_animation_values();
    check_thread_local();
    check_kind_specific_getters();
    check_argument_names();
    return lkt_finish();
}
