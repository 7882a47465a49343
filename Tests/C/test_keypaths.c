/*
 * S1.6 key-value access beyond plain properties: parts of points, sizes and
 * rects ("position.x", "bounds.size.width"), the virtual transform key paths
 * (set composes, get decomposes: translation, then rotation, then scale
 * taken out of the matrix as Core Animation's decomposition does, with
 * "transform.scale" reading the average of the three scale factors and
 * "transform.translation" a size, as Core Animation documents), unknown key
 * paths and wrong value types (an error naming the key path / the expected
 * type, and nothing changes), and user values.
 */
#include "lktest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define EPS 1e-9

static double get_number(lk_layer *layer, const char *key, const char *check)
{
    lk_value v;
    lk_status s;
    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(layer, key, &v);
    if (s != LK_OK || v.type != LK_VALUE_NUMBER) {
        LKT_CHECK(0, check, "get_value(\"%s\"): %s, type %s (%s)", key, lkt_status_name(s),
                  lkt_value_type_name(v.type), s == LK_OK ? "" : lk_last_error());
        return NAN;
    }
    return v.as.number;
}

/* get_number then compare; one check */
static void check_number(lk_layer *layer, const char *key, double want, const char *check)
{
    lk_value v;
    lk_status s;
    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(layer, key, &v);
    if (s != LK_OK || v.type != LK_VALUE_NUMBER) {
        LKT_CHECK(0, check, "get_value(\"%s\"): %s, type %s (%s)", key, lkt_status_name(s),
                  lkt_value_type_name(v.type), s == LK_OK ? "" : lk_last_error());
        return;
    }
    LKT_CHECK(lkt_near(v.as.number, want, EPS), check, "\"%s\" reads %.12g, expected %.12g", key,
              v.as.number, want);
}

static lk_status set_number(lk_layer *layer, const char *key, double value)
{
    return lk_layer_set_value(layer, key, lk_value_number(value));
}

/* ---- parts of points, sizes and rects ------------------------------------ */

static void check_struct_parts(void)
{
    lk_layer *l = lk_layer_create();
    lk_value v;
    lk_status s;

    lk_layer_set_position(l, lk_point_make(10, 20));
    s = set_number(l, "position.x", 15);
    LKT_CHECK(s == LK_OK && lkt_point_near(lk_layer_get_position(l), lk_point_make(15, 20), 0),
              "S1.6 set position.x keeps y", "%s, position %s", lkt_status_name(s),
              lkt_fmt_point(lk_layer_get_position(l)));
    s = set_number(l, "position.y", -4);
    LKT_CHECK(s == LK_OK && lkt_point_near(lk_layer_get_position(l), lk_point_make(15, -4), 0),
              "S1.6 set position.y keeps x", "%s, position %s", lkt_status_name(s),
              lkt_fmt_point(lk_layer_get_position(l)));
    check_number(l, "position.x", 15, "S1.6 get position.x");
    check_number(l, "position.y", -4, "S1.6 get position.y");
    LKT_CHECK(lk_layer_get_value_type(l, "position.x") == LK_VALUE_NUMBER,
              "S1.6 position.x is a number", "type %s",
              lkt_value_type_name(lk_layer_get_value_type(l, "position.x")));

    lk_layer_set_bounds(l, lk_rect_make(1, 2, 30, 40));
    s = set_number(l, "bounds.size.width", 50);
    LKT_CHECK(s == LK_OK && lkt_rect_near(lk_layer_get_bounds(l), lk_rect_make(1, 2, 50, 40), 0),
              "S1.6 set bounds.size.width keeps the rest", "%s, bounds %s", lkt_status_name(s),
              lkt_fmt_rect(lk_layer_get_bounds(l)));
    s = set_number(l, "bounds.size.height", 60);
    LKT_CHECK(s == LK_OK && lkt_rect_near(lk_layer_get_bounds(l), lk_rect_make(1, 2, 50, 60), 0),
              "S1.6 set bounds.size.height keeps the rest", "%s, bounds %s", lkt_status_name(s),
              lkt_fmt_rect(lk_layer_get_bounds(l)));
    s = set_number(l, "bounds.origin.x", 7);
    LKT_CHECK(s == LK_OK && lkt_rect_near(lk_layer_get_bounds(l), lk_rect_make(7, 2, 50, 60), 0),
              "S1.6 set bounds.origin.x keeps the rest", "%s, bounds %s", lkt_status_name(s),
              lkt_fmt_rect(lk_layer_get_bounds(l)));
    check_number(l, "bounds.size.width", 50, "S1.6 get bounds.size.width");
    check_number(l, "bounds.origin.y", 2, "S1.6 get bounds.origin.y");

    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(l, "bounds.size", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_SIZE && lkt_size_near(v.as.size, lk_size_make(50, 60), 0),
              "S1.6 get bounds.size is a size", "%s, type %s", lkt_status_name(s),
              lkt_value_type_name(v.type));
    s = lk_layer_set_value(l, "bounds.size", lk_value_size(lk_size_make(8, 9)));
    LKT_CHECK(s == LK_OK && lkt_rect_near(lk_layer_get_bounds(l), lk_rect_make(7, 2, 8, 9), 0),
              "S1.6 set bounds.size keeps the origin", "%s, bounds %s", lkt_status_name(s),
              lkt_fmt_rect(lk_layer_get_bounds(l)));
    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(l, "bounds.origin", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_POINT && lkt_point_near(v.as.point, lk_point_make(7, 2), 0),
              "S1.6 get bounds.origin is a point", "%s, type %s", lkt_status_name(s),
              lkt_value_type_name(v.type));

    /* the same rule for other point, size and rect properties */
    s = set_number(l, "anchorPoint.y", 1);
    LKT_CHECK(s == LK_OK && lkt_point_near(lk_layer_get_anchor_point(l), lk_point_make(0.5, 1), 0),
              "S1.6 set anchorPoint.y", "%s, anchorPoint %s", lkt_status_name(s),
              lkt_fmt_point(lk_layer_get_anchor_point(l)));
    s = set_number(l, "shadowOffset.height", 5);
    LKT_CHECK(s == LK_OK && lkt_size_near(lk_layer_get_shadow_offset(l), lk_size_make(0, 5), 0),
              "S1.6 set shadowOffset.height", "%s, shadowOffset %s", lkt_status_name(s),
              lkt_fmt_size(lk_layer_get_shadow_offset(l)));
    s = set_number(l, "contentsRect.origin.x", 0.25);
    LKT_CHECK(s == LK_OK &&
                  lkt_rect_near(lk_layer_get_contents_rect(l), lk_rect_make(0.25, 0, 1, 1), 0),
              "S1.6 set contentsRect.origin.x", "%s, contentsRect %s", lkt_status_name(s),
              lkt_fmt_rect(lk_layer_get_contents_rect(l)));
    lk_release(l);
}

/* ---- frame through its key path --------------------------------------------- */

static void check_frame_key_path(void)
{
    lk_layer *l = lk_layer_create();
    lk_value v;
    lk_status s;
    lk_layer_set_bounds(l, lk_rect_make(5, 6, 10, 10));
    s = lk_layer_set_value(l, "frame", lk_value_rect(lk_rect_make(10, 20, 100, 50)));
    LKT_CHECK(s == LK_OK && lkt_point_near(lk_layer_get_position(l), lk_point_make(60, 45), EPS) &&
                  lkt_rect_near(lk_layer_get_bounds(l), lk_rect_make(5, 6, 100, 50), EPS),
              "S1.2 set frame by key path sets position and bounds.size",
              "%s, position %s, bounds %s", lkt_status_name(s),
              lkt_fmt_point(lk_layer_get_position(l)), lkt_fmt_rect(lk_layer_get_bounds(l)));
    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(l, "frame", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_RECT &&
                  lkt_rect_near(v.as.rect, lk_rect_make(10, 20, 100, 50), EPS),
              "S1.2 get frame by key path", "%s, type %s, %s", lkt_status_name(s),
              lkt_value_type_name(v.type), lkt_fmt_rect(v.as.rect));
    LKT_CHECK(lk_layer_get_value_type(l, "frame") == LK_VALUE_RECT, "S1.6 frame is a rect",
              "type %s", lkt_value_type_name(lk_layer_get_value_type(l, "frame")));
    lk_release(l);
}

/* ---- the virtual transform key paths ---------------------------------------- */

static void check_transform_set(const char *key, double value, lk_transform3d want,
                                const char *check)
{
    lk_layer *l = lk_layer_create();
    lk_status s = set_number(l, key, value);
    LKT_CHECK(s == LK_OK && lkt_transform_near(lk_layer_get_transform(l), want, EPS), check,
              "set \"%s\" = %.9g: %s (%s), transform %s, expected %s", key, value,
              lkt_status_name(s), s == LK_OK ? "" : lk_last_error(),
              lkt_fmt_transform(lk_layer_get_transform(l)), lkt_fmt_transform(want));
    lk_release(l);
}

static void check_transform_get(lk_transform3d t, const char *key, double want,
                                const char *check)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_transform(l, t);
    check_number(l, key, want, check);
    lk_release(l);
}

static void check_transform_paths(void)
{
    lk_layer *l;
    lk_value v;
    lk_status s;
    lk_transform3d want;

    /* setting one on an identity transform gives the plain transform */
    check_transform_set("transform.rotation", 0.5, lkt_t_rotation_z(0.5),
                        "S1.6 set transform.rotation (alias of .z) on identity");
    check_transform_set("transform.rotation.z", 0.5, lkt_t_rotation_z(0.5),
                        "S1.6 set transform.rotation.z on identity");
    check_transform_set("transform.rotation.x", 0.4, lkt_t_rotation_x(0.4),
                        "S1.6 set transform.rotation.x on identity");
    check_transform_set("transform.rotation.y", -0.6, lkt_t_rotation_y(-0.6),
                        "S1.6 set transform.rotation.y on identity");
    check_transform_set("transform.scale", 2, lkt_t_scale(2, 2, 2),
                        "S1.6 set transform.scale scales x, y and z");
    check_transform_set("transform.scale.x", 3, lkt_t_scale(3, 1, 1),
                        "S1.6 set transform.scale.x on identity");
    check_transform_set("transform.scale.y", 0.5, lkt_t_scale(1, 0.5, 1),
                        "S1.6 set transform.scale.y on identity");
    check_transform_set("transform.scale.z", 4, lkt_t_scale(1, 1, 4),
                        "S1.6 set transform.scale.z on identity");
    check_transform_set("transform.translation.x", 10, lkt_t_translation(10, 0, 0),
                        "S1.6 set transform.translation.x on identity");
    check_transform_set("transform.translation.y", -7, lkt_t_translation(0, -7, 0),
                        "S1.6 set transform.translation.y on identity");
    check_transform_set("transform.translation.z", 3, lkt_t_translation(0, 0, 3),
                        "S1.6 set transform.translation.z on identity");

    l = lk_layer_create();
    s = lk_layer_set_value(l, "transform.translation", lk_value_size(lk_size_make(10, 20)));
    LKT_CHECK(s == LK_OK && lkt_transform_near(lk_layer_get_transform(l), lkt_t_translation(10, 20, 0), EPS),
              "S1.6 set transform.translation takes a size (x, y)", "%s (%s), transform %s",
              lkt_status_name(s), s == LK_OK ? "" : lk_last_error(),
              lkt_fmt_transform(lk_layer_get_transform(l)));
    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(l, "transform.translation", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_SIZE && lkt_size_near(v.as.size, lk_size_make(10, 20), EPS),
              "S1.6 get transform.translation is a size", "%s, type %s, %s", lkt_status_name(s),
              lkt_value_type_name(v.type), lkt_fmt_size(v.as.size));
    LKT_CHECK(lk_layer_get_value_type(l, "transform.rotation") == LK_VALUE_NUMBER &&
                  lk_layer_get_value_type(l, "transform.scale.x") == LK_VALUE_NUMBER &&
                  lk_layer_get_value_type(l, "transform.translation") == LK_VALUE_SIZE &&
                  lk_layer_get_value_type(l, "transform.translation.z") == LK_VALUE_NUMBER,
              "S1.6 transform key path value types", "rotation %s, scale.x %s, translation %s, "
              "translation.z %s",
              lkt_value_type_name(lk_layer_get_value_type(l, "transform.rotation")),
              lkt_value_type_name(lk_layer_get_value_type(l, "transform.scale.x")),
              lkt_value_type_name(lk_layer_get_value_type(l, "transform.translation")),
              lkt_value_type_name(lk_layer_get_value_type(l, "transform.translation.z")));
    lk_release(l);

    /* reading decomposes the current transform */
    check_transform_get(lkt_t_rotation_z(0.7), "transform.rotation.z", 0.7,
                        "S1.6 get transform.rotation.z of a z rotation");
    check_transform_get(lkt_t_rotation_z(0.7), "transform.rotation", 0.7,
                        "S1.6 get transform.rotation of a z rotation");
    check_transform_get(lkt_t_rotation_z(-2.5), "transform.rotation.z", -2.5,
                        "S1.6 get transform.rotation.z of -2.5 rad");
    check_transform_get(lkt_t_rotation_x(0.4), "transform.rotation.x", 0.4,
                        "S1.6 get transform.rotation.x of an x rotation");
    check_transform_get(lkt_t_rotation_x(0.4), "transform.rotation.z", 0,
                        "S1.6 get transform.rotation.z of an x rotation is 0");
    check_transform_get(lkt_t_rotation_y(0.3), "transform.rotation.y", 0.3,
                        "S1.6 get transform.rotation.y of a y rotation");
    check_transform_get(lkt_t_scale(2, 3, 4), "transform.scale.y", 3,
                        "S1.6 get transform.scale.y");
    check_transform_get(lkt_t_scale(2, 3, 4), "transform.scale", 3,
                        "S1.6 get transform.scale is the average of x, y, z");
    check_transform_get(lkt_t_translation(5, 6, 7), "transform.translation.z", 7,
                        "S1.6 get transform.translation.z");
    /* scale, then rotate, then translate (row vectors) */
    want = lkt_t_mul(lkt_t_mul(lkt_t_scale(2, 0.5, 1), lkt_t_rotation_z(0.6)),
                     lkt_t_translation(30, 40, 0));
    check_transform_get(want, "transform.rotation.z", 0.6,
                        "S1.6 get rotation.z of scale*rotate*translate");
    check_transform_get(want, "transform.scale.x", 2, "S1.6 get scale.x of scale*rotate*translate");
    check_transform_get(want, "transform.scale.y", 0.5,
                        "S1.6 get scale.y of scale*rotate*translate");
    check_transform_get(want, "transform.translation.x", 30,
                        "S1.6 get translation.x of scale*rotate*translate");

    /* setting one component keeps the others: set composes */
    l = lk_layer_create();
    s = set_number(l, "transform.scale.x", 2);
    if (s == LK_OK) s = set_number(l, "transform.scale.y", 0.5);
    if (s == LK_OK) s = set_number(l, "transform.rotation.z", 0.6);
    if (s == LK_OK) s = set_number(l, "transform.translation.x", 30);
    if (s == LK_OK) s = set_number(l, "transform.translation.y", 40);
    LKT_CHECK(s == LK_OK && lkt_transform_near(lk_layer_get_transform(l), want, EPS),
              "S1.6 scale.x, scale.y, rotation.z, translation.x/y compose to scale*rotate*translate",
              "%s, transform %s, expected %s", lkt_status_name(s),
              lkt_fmt_transform(lk_layer_get_transform(l)), lkt_fmt_transform(want));
    s = set_number(l, "transform.rotation.z", 0.6);
    LKT_CHECK(s == LK_OK && lkt_transform_near(lk_layer_get_transform(l), want, EPS),
              "S1.6 setting transform.rotation.z again to the same value changes nothing",
              "%s, transform %s", lkt_status_name(s),
              lkt_fmt_transform(lk_layer_get_transform(l)));
    check_number(l, "transform.rotation.z", 0.6, "S1.6 get after set returns what was set (rotation.z)");
    s = set_number(l, "transform.rotation", 0.2);
    LKT_CHECK(s == LK_OK && lkt_near(get_number(l, "transform.rotation.z", "S1.6 rotation replaces rotation"), 0.2, EPS) &&
                  lkt_near(get_number(l, "transform.scale.x", "S1.6 rotation replaces rotation"), 2, EPS) &&
                  lkt_near(get_number(l, "transform.translation.y", "S1.6 rotation replaces rotation"), 40, EPS),
              "S1.6 set transform.rotation replaces the rotation, keeps scale and translation",
              "%s, transform %s", lkt_status_name(s),
              lkt_fmt_transform(lk_layer_get_transform(l)));
    s = set_number(l, "transform.scale", 3);
    LKT_CHECK(s == LK_OK && lkt_near(get_number(l, "transform.scale.x", "S1.6 scale replaces scale"), 3, EPS) &&
                  lkt_near(get_number(l, "transform.scale.y", "S1.6 scale replaces scale"), 3, EPS) &&
                  lkt_near(get_number(l, "transform.rotation.z", "S1.6 scale replaces scale"), 0.2, EPS) &&
                  lkt_near(get_number(l, "transform.translation.x", "S1.6 scale replaces scale"), 30, EPS),
              "S1.6 set transform.scale replaces the scale, keeps rotation and translation",
              "%s, transform %s", lkt_status_name(s),
              lkt_fmt_transform(lk_layer_get_transform(l)));
    lk_release(l);
}

/* S1.6: a turn about y past pi/2 reads as itself and setting the key path
   again replaces it (a card turned 2 rad, then set to 2.5, is turned 2.5
   rad, not pi - 2.5 = 0.64 with its front showing; the transform read back
   as x = z = pi, y = pi - angle). About x and z alike. */
static void check_turns_past_a_right_angle(void)
{
    static const char *keys[3] = { "transform.rotation.x", "transform.rotation.y", "transform.rotation.z" };
    for (int axis = 0; axis < 3; axis++) {
        lk_layer *l = lk_layer_create();
        set_number(l, keys[axis], 2.0);
        lk_status s = set_number(l, keys[axis], 2.5);
        lk_transform3d want = axis == 0 ? lkt_t_rotation_x(2.5) : axis == 1 ? lkt_t_rotation_y(2.5) : lkt_t_rotation_z(2.5);
        char name[120];
        snprintf(name, sizeof name, "S1.6 %s set to 2 then 2.5 turns 2.5", keys[axis]);
        LKT_CHECK(s == LK_OK && lkt_transform_near(lk_layer_get_transform(l), want, 1e-6), name, "transform %s, expected %s",
                  lkt_fmt_transform(lk_layer_get_transform(l)), lkt_fmt_transform(want));
        lk_value v = lk_value_none();
        lk_layer_get_value(l, keys[axis], &v);
        snprintf(name, sizeof name, "S1.6 %s reads a turn of 2.5 as 2.5", keys[axis]);
        LKT_CHECK(v.type == LK_VALUE_NUMBER && fabs(v.as.number - 2.5) < 1e-6, name, "reads %.12g", v.as.number);
        if (axis == 1) {
            lk_layer_set_transform(l, lk_transform3d_make_rotation(LKT_PI, 0, 1, 0));
            lk_layer_get_value(l, keys[axis], &v);
            LKT_CHECK(v.type == LK_VALUE_NUMBER && fabs(fabs(v.as.number) - LKT_PI) < 1e-6,
                      "S1.6 transform.rotation.y reads a turn of pi as pi", "reads %.12g", v.as.number);
        }
        lk_release(l);
    }
}

/* ---- errors: unknown key paths, wrong types ----------------------------------- */

static void check_unknown_key_path(const char *key)
{
    lk_layer *l = lk_layer_create();
    lk_value v;
    lk_status s;
    char check[256];
    lk_layer_set_position(l, lk_point_make(1, 2));

    snprintf(check, sizeof check, "S1.6 set unknown key path \"%s\" is an error naming it", key);
    lkt_error_mark();
    s = set_number(l, key, 5);
    LKT_CHECK_ERROR(check, s, LK_ERROR_UNKNOWN_KEY_PATH, key);
    snprintf(check, sizeof check, "S1.6 set unknown key path \"%s\" changes nothing", key);
    LKT_CHECK(lkt_point_near(lk_layer_get_position(l), lk_point_make(1, 2), 0) &&
                  lkt_rect_near(lk_layer_get_bounds(l), lk_rect_make(0, 0, 0, 0), 0) &&
                  lkt_transform_near(lk_layer_get_transform(l), lkt_t_identity(), 0),
              check, "position %s, bounds %s, transform %s",
              lkt_fmt_point(lk_layer_get_position(l)), lkt_fmt_rect(lk_layer_get_bounds(l)),
              lkt_fmt_transform(lk_layer_get_transform(l)));

    snprintf(check, sizeof check, "S1.6 get unknown key path \"%s\" is an error naming it", key);
    lkt_error_mark();
    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(l, key, &v);
    LKT_CHECK_ERROR(check, s, LK_ERROR_UNKNOWN_KEY_PATH, key);

    snprintf(check, sizeof check, "S1.6 value type of unknown key path \"%s\" is NONE", key);
    lkt_error_mark();
    LKT_CHECK(lk_layer_get_value_type(l, key) == LK_VALUE_NONE, check, "got %s",
              lkt_value_type_name(lk_layer_get_value_type(l, key)));
    snprintf(check, sizeof check, "S1.6 value type of unknown key path \"%s\" is an error naming it",
             key);
    LKT_CHECK_ERROR_MESSAGE(check, key);
    lk_release(l);
}

/* A value of the wrong type: LK_ERROR_TYPE_MISMATCH, a message naming the
   key path and the expected type, nothing changed. */
static void check_mismatch(const char *key, lk_value wrong, const char *expected_type)
{
    lk_layer *a = lk_layer_create();
    lk_value before, after;
    lk_status s;
    char check[256], names[128];
    const char *msg;

    memset(&before, 0, sizeof before);
    memset(&after, 0, sizeof after);
    lk_layer_get_value(a, key, &before);
    snprintf(check, sizeof check, "S1.6 \"%s\" set with a wrong type is a type mismatch", key);
    lkt_error_mark();
    s = lk_layer_set_value(a, key, wrong);
    LKT_CHECK_ERROR(check, s, LK_ERROR_TYPE_MISMATCH, key);
    msg = lkt_error_since_mark();
    snprintf(check, sizeof check, "S1.6 \"%s\" type mismatch message names the expected type", key);
    snprintf(names, sizeof names, "%s", expected_type);
    LKT_CHECK(msg && lkt_mentions(msg, names), check, "message \"%s\" does not mention %s",
              msg ? msg : "(none)", expected_type);
    lk_layer_get_value(a, key, &after);
    snprintf(check, sizeof check, "S1.6 \"%s\" type mismatch changes nothing", key);
    LKT_CHECK(lkt_value_equal(&before, &after), check, "value changed (type %s -> %s)",
              lkt_value_type_name(before.type), lkt_value_type_name(after.type));
    lk_release(a);
}

static void check_errors(void)
{
    lk_layer *l = lk_layer_create();
    lk_image *img;
    uint8_t px[4] = {1, 2, 3, 255};
    lk_status s;

    check_unknown_key_path("positionx");
    check_unknown_key_path("position.z");
    check_unknown_key_path("bounds.size.depth");
    check_unknown_key_path("transform.rotation.w");
    check_unknown_key_path("transform.skew");
    check_unknown_key_path("strokeColor"); /* a shape layer's, not a plain layer's */

    /* S1.6, S8.1: a wrong part of a property names the property's value and
       the parts it has, on every kind of layer (it said the key path was
       "not a property of a layer", of an emitter or replicator layer too) */
    {
        static const struct { const char *kind, *key, *message; } parts[] = {
            { "plain", "position.q", "a point has no part \"q\" (it has x and y)" },
            { "emitter", "position.q", "a point has no part \"q\"" },
            { "emitter", "emitterPosition.q", "a point has no part \"q\"" },
            { "replicator", "instanceColor.q", "a color has no part \"q\"" },
            { "plain", "bounds.size.depth", "a size has no part \"depth\" (it has width and height)" },
            { "plain", "transform.rotation.w", "a transform has no part \"rotation.w\"" },
        };
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
            lk_layer *k = strcmp(parts[i].kind, "emitter") == 0      ? lk_emitter_layer_create()
                          : strcmp(parts[i].kind, "replicator") == 0 ? lk_replicator_layer_create()
                                                                     : lk_layer_create();
            char check[200];
            snprintf(check, sizeof check, "S1.6 on the %s layer, \"%s\" says which part is not there", parts[i].kind,
                     parts[i].key);
            lkt_error_mark();
            LKT_CHECK_ERROR(check, set_number(k, parts[i].key, 1), LK_ERROR_UNKNOWN_KEY_PATH, parts[i].message);
            lk_release(k);
        }
    }

    lkt_error_mark();
    s = set_number(l, "", 1);
    LKT_CHECK(s == LK_ERROR_UNKNOWN_KEY_PATH || s == LK_ERROR_INVALID_ARGUMENT,
              "S1.6 empty key path is an error", "got %s", lkt_status_name(s));
    lkt_error_mark();
    s = lk_layer_set_value(l, NULL, lk_value_number(1));
    LKT_CHECK_ERROR("S8.1 NULL key path is an invalid argument", s, LK_ERROR_INVALID_ARGUMENT,
                    "key|path");
    lkt_error_mark();
    s = lk_layer_get_value(l, "opacity", NULL);
    LKT_CHECK_ERROR("S8.1 get_value into NULL is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "out|value");

    img = lk_image_create_from_pixels(1, 1, 4, LK_PIXEL_FORMAT_RGBA8, px);
    check_mismatch("position", lk_value_number(3), "point");
    check_mismatch("opacity", lk_value_point(lk_point_make(1, 2)), "number");
    check_mismatch("bounds", lk_value_size(lk_size_make(1, 2)), "rect");
    check_mismatch("backgroundColor", lk_value_number(1), "color|colour");
    check_mismatch("transform", lk_value_number(1), "transform");
    check_mismatch("hidden", lk_value_color(lk_color_make(1, 1, 1, 1)), "bool");
    check_mismatch("contents", lk_value_string("image.png"), "image");
    check_mismatch("name", lk_value_number(4), "string");
    check_mismatch("shadowOffset", lk_value_point(lk_point_make(1, 2)), "size");
    check_mismatch("mask", lk_value_image(img), "layer");
    check_mismatch("shadowPath", lk_value_layer(l), "path");
    check_mismatch("bounds.size.width", lk_value_point(lk_point_make(1, 2)), "number");
    check_mismatch("transform.rotation", lk_value_transform(lkt_t_identity()), "number");
    check_mismatch("contentsGravity", lk_value_number(1), "string");
    lk_release(img);

    /* a string outside the property's names */
    lkt_error_mark();
    s = lk_layer_set_value(l, "contentsGravity", lk_value_string("sideways"));
    LKT_CHECK(s != LK_OK && lkt_error_since_mark() != NULL &&
                  lk_layer_get_contents_gravity(l) == LK_GRAVITY_RESIZE,
              "S1.6 contentsGravity \"sideways\" is refused, nothing changes",
              "%s, gravity %d, message \"%s\"", lkt_status_name(s),
              (int)lk_layer_get_contents_gravity(l), lk_last_error());
    lkt_error_mark();
    s = lk_layer_set_value(l, "fillMode", lk_value_string("sometimes"));
    LKT_CHECK(s != LK_OK && lkt_error_since_mark() != NULL &&
                  lk_layer_get_fill_mode(l) == LK_FILL_REMOVED,
              "S1.6 fillMode \"sometimes\" is refused, nothing changes",
              "%s, fill mode %d, message \"%s\"", lkt_status_name(s),
              (int)lk_layer_get_fill_mode(l), lk_last_error());

    /* a non-finite number through a key path */
    lk_layer_set_position(l, lk_point_make(1, 2));
    lkt_error_mark();
    s = set_number(l, "position.x", NAN);
    LKT_CHECK_ERROR("S8.1 position.x = NaN is an invalid argument", s, LK_ERROR_INVALID_ARGUMENT,
                    "position|nan|finite");
    LKT_CHECK_POINT("S8.1 position.x = NaN changes nothing", lk_layer_get_position(l),
                    lk_point_make(1, 2), 0);
    lkt_error_mark();
    s = lk_layer_set_value(l, "bounds", lk_value_rect(lk_rect_make(0, 0, INFINITY, 5)));
    LKT_CHECK_ERROR("S8.1 bounds with an infinite width is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "bounds|width|infinit|finite");
    LKT_CHECK_RECT("S8.1 infinite bounds change nothing", lk_layer_get_bounds(l),
                   lk_rect_make(0, 0, 0, 0), 0);
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 10, 20));
    lkt_error_mark();
    s = set_number(l, "bounds.size.width", -5);
    LKT_CHECK_ERROR("S8.1 bounds.size.width = -5 is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "bounds|width|negative");
    LKT_CHECK_RECT("S8.1 a negative bounds.size.width changes nothing", lk_layer_get_bounds(l),
                   lk_rect_make(0, 0, 10, 20), 0);
    lk_release(l);
}

/* ---- user values --------------------------------------------------------------- */

static void check_user_values(void)
{
    lk_layer *l = lk_layer_create(), *other = lk_layer_create();
    lk_image *img;
    uint8_t px[16];
    char buf[32];
    lk_value v;
    lk_status s;

    memset(px, 255, sizeof px);
    s = lk_layer_set_user_value(l, "tag", lk_value_number(42));
    memset(&v, 0, sizeof v);
    if (s == LK_OK) s = lk_layer_get_user_value(l, "tag", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_NUMBER && v.as.number == 42,
              "S1.6 user value number set/get", "%s, type %s", lkt_status_name(s),
              lkt_value_type_name(v.type));

    strcpy(buf, "the view");
    s = lk_layer_set_user_value(l, "owner", lk_value_string(buf));
    strcpy(buf, "XXXXXXXX");
    memset(&v, 0, sizeof v);
    if (s == LK_OK) s = lk_layer_get_user_value(l, "owner", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_STRING && v.as.string &&
                  strcmp(v.as.string, "the view") == 0,
              "S1.6 user value string is copied", "%s, type %s, \"%s\"", lkt_status_name(s),
              lkt_value_type_name(v.type),
              v.type == LK_VALUE_STRING && v.as.string ? v.as.string : "(none)");

    img = lk_image_create_from_pixels(2, 2, 8, LK_PIXEL_FORMAT_RGBA8, px);
    s = lk_layer_set_user_value(l, "picture", lk_value_image(img));
    lk_release(img); /* the layer retains it */
    memset(&v, 0, sizeof v);
    if (s == LK_OK) s = lk_layer_get_user_value(l, "picture", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_IMAGE && v.as.image == img &&
                  lk_image_get_width(v.as.image) == 2,
              "S1.6 user value image is retained", "%s, type %s", lkt_status_name(s),
              lkt_value_type_name(v.type));

    s = lk_layer_set_user_value(l, "friend", lk_value_layer(other));
    memset(&v, 0, sizeof v);
    if (s == LK_OK) s = lk_layer_get_user_value(l, "friend", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_LAYER && v.as.layer == other,
              "S1.6 user value layer set/get", "%s, type %s", lkt_status_name(s),
              lkt_value_type_name(v.type));

    s = lk_layer_set_user_value(l, "tag", lk_value_point(lk_point_make(1, 2)));
    memset(&v, 0, sizeof v);
    if (s == LK_OK) s = lk_layer_get_user_value(l, "tag", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_POINT && lkt_point_near(v.as.point, lk_point_make(1, 2), 0),
              "S1.6 user value replaced by a value of another type", "%s, type %s",
              lkt_status_name(s), lkt_value_type_name(v.type));

    s = lk_layer_set_user_value(l, "tag", lk_value_none());
    LKT_CHECK_STATUS("S1.6 user value removed with lk_value_none", s, LK_OK);
    lkt_error_mark();
    memset(&v, 0, sizeof v);
    s = lk_layer_get_user_value(l, "tag", &v);
    LKT_CHECK_ERROR("S1.6 a removed user value is not found", s, LK_ERROR_NOT_FOUND, "tag");
    lkt_error_mark();
    s = lk_layer_get_user_value(l, "never-set", &v);
    LKT_CHECK_ERROR("S1.6 a user value never set is not found", s, LK_ERROR_NOT_FOUND,
                    "never-set");
    memset(&v, 0, sizeof v);
    s = lk_layer_get_user_value(l, "owner", &v);
    LKT_CHECK(s == LK_OK && v.type == LK_VALUE_STRING, "S1.6 removing one user value keeps the others",
              "%s, type %s", lkt_status_name(s), lkt_value_type_name(v.type));

    lk_layer_set_user_value(l, "opacity", lk_value_number(0.5));
    LKT_CHECK(lk_layer_get_opacity(l) == 1, "S1.6 user values do not touch properties",
              "a user value \"opacity\" changed the opacity to %.9g", lk_layer_get_opacity(l));
    memset(&v, 0, sizeof v);
    s = lk_layer_get_user_value(other, "owner", &v);
    LKT_CHECK(s == LK_ERROR_NOT_FOUND, "S1.6 user values belong to one layer", "got %s on another layer",
              lkt_status_name(s));

    lkt_error_mark();
    s = lk_layer_set_user_value(l, NULL, lk_value_number(1));
    LKT_CHECK_ERROR("S8.1 user value with a NULL key is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "key");
    lk_release(l);
    lk_release(other);
}

int main(void)
{
    check_struct_parts();
    check_frame_key_path();
    check_transform_paths();
    check_turns_past_a_right_angle();
    check_errors();
    check_user_values();
    return lkt_finish();
}
