/*
 * S1.1 every property of a layer: its default, a round trip through its
 * typed setter and getter, and the same property through lk_layer_set_value /
 * lk_layer_get_value under its Core Animation key path name (S1.6), with the
 * value type lk_layer_get_value_type reports. S4.1 timing properties too:
 * a layer is a timing node.
 *
 * Every property is tried on fresh layers, so one property's change cannot
 * hide or cause another's.
 */
#include "lktest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static char name_buf[256];

static const char *nm(const char *fmt, const char *key)
{
    snprintf(name_buf, sizeof name_buf, fmt, key);
    return name_buf;
}

/* A key path read: status LK_OK and the given type. */
static int get_typed(lk_layer *layer, const char *key, lk_value_type type, lk_value *out,
                     const char *check)
{
    lk_status s;
    memset(out, 0, sizeof *out);
    s = lk_layer_get_value(layer, key, out);
    if (s != LK_OK)
        return LKT_CHECK(0, check, "lk_layer_get_value(\"%s\"): %s: %s", key,
                         lkt_status_name(s), lk_last_error());
    if (out->type != type)
        return LKT_CHECK(0, check, "lk_layer_get_value(\"%s\") gave a %s value, expected %s",
                         key, lkt_value_type_name(out->type), lkt_value_type_name(type));
    return 1;
}

static void check_value_type(lk_layer *layer, const char *key, lk_value_type type)
{
    lk_value_type t = lk_layer_get_value_type(layer, key);
    LKT_CHECK(t == type, nm("S1.6 %s value type", key), "expected %s, got %s",
              lkt_value_type_name(type), lkt_value_type_name(t));
}

/* ---- numbers -------------------------------------------------------------- */

typedef lk_status (*set_number_fn)(lk_layer *, double);
typedef double (*get_number_fn)(const lk_layer *);

static void number_property(const char *key, set_number_fn set, get_number_fn get, double def,
                            double value)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create();
    lk_value v;
    lk_status s;

    LKT_CHECK_NEAR(nm("S1.1 %s default", key), get(a), def, 0);
    if (get_typed(a, key, LK_VALUE_NUMBER, &v, nm("S1.6 %s key path default", key)))
        LKT_CHECK_NEAR(nm("S1.6 %s key path default", key), v.as.number, def, 0);
    check_value_type(a, key, LK_VALUE_NUMBER);

    s = set(a, value);
    if (LKT_CHECK(s == LK_OK && get(a) == value, nm("S1.1 %s typed set/get", key),
                  "set %.9g: %s, get %.9g", value, lkt_status_name(s), get(a)))
        if (get_typed(a, key, LK_VALUE_NUMBER, &v, nm("S1.6 %s key path get after set", key)))
            LKT_CHECK_NEAR(nm("S1.6 %s key path get after set", key), v.as.number, value, 0);

    s = lk_layer_set_value(b, key, lk_value_number(value));
    LKT_CHECK(s == LK_OK && get(b) == value, nm("S1.6 %s key path set", key),
              "set_value(%.9g): %s (%s), typed get %.9g", value, lkt_status_name(s),
              s == LK_OK ? "" : lk_last_error(), get(b));
    lk_release(a);
    lk_release(b);
}

/* ---- booleans ------------------------------------------------------------- */

typedef lk_status (*set_bool_fn)(lk_layer *, bool);
typedef bool (*get_bool_fn)(const lk_layer *);

static void bool_property(const char *key, set_bool_fn set, get_bool_fn get, bool def)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create();
    lk_value v;
    lk_status s;

    LKT_CHECK(get(a) == def, nm("S1.1 %s default", key), "expected %d, got %d", (int)def,
              (int)get(a));
    if (get_typed(a, key, LK_VALUE_BOOL, &v, nm("S1.6 %s key path default", key)))
        LKT_CHECK(v.as.boolean == def, nm("S1.6 %s key path default", key),
                  "expected %d, got %d", (int)def, (int)v.as.boolean);
    check_value_type(a, key, LK_VALUE_BOOL);

    s = set(a, !def);
    if (LKT_CHECK(s == LK_OK && get(a) == !def, nm("S1.1 %s typed set/get", key),
                  "set %d: %s, get %d", (int)!def, lkt_status_name(s), (int)get(a)))
        if (get_typed(a, key, LK_VALUE_BOOL, &v, nm("S1.6 %s key path get after set", key)))
            LKT_CHECK(v.as.boolean == !def, nm("S1.6 %s key path get after set", key),
                      "expected %d, got %d", (int)!def, (int)v.as.boolean);

    s = lk_layer_set_value(b, key, lk_value_bool(!def));
    LKT_CHECK(s == LK_OK && get(b) == !def, nm("S1.6 %s key path set", key),
              "set_value(%d): %s (%s), typed get %d", (int)!def, lkt_status_name(s),
              s == LK_OK ? "" : lk_last_error(), (int)get(b));
    lk_release(a);
    lk_release(b);
}

/* ---- points, sizes, rects --------------------------------------------------- */

typedef lk_status (*set_point_fn)(lk_layer *, lk_point);
typedef lk_point (*get_point_fn)(const lk_layer *);

static void point_property(const char *key, set_point_fn set, get_point_fn get, lk_point def,
                           lk_point value)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create();
    lk_value v;
    lk_status s;

    LKT_CHECK_POINT(nm("S1.1 %s default", key), get(a), def, 0);
    if (get_typed(a, key, LK_VALUE_POINT, &v, nm("S1.6 %s key path default", key)))
        LKT_CHECK_POINT(nm("S1.6 %s key path default", key), v.as.point, def, 0);
    check_value_type(a, key, LK_VALUE_POINT);

    s = set(a, value);
    if (LKT_CHECK(s == LK_OK && lkt_point_near(get(a), value, 0), nm("S1.1 %s typed set/get", key),
                  "set %s: %s, get %s", lkt_fmt_point(value), lkt_status_name(s),
                  lkt_fmt_point(get(a))))
        if (get_typed(a, key, LK_VALUE_POINT, &v, nm("S1.6 %s key path get after set", key)))
            LKT_CHECK_POINT(nm("S1.6 %s key path get after set", key), v.as.point, value, 0);

    s = lk_layer_set_value(b, key, lk_value_point(value));
    LKT_CHECK(s == LK_OK && lkt_point_near(get(b), value, 0), nm("S1.6 %s key path set", key),
              "set_value(%s): %s (%s), typed get %s", lkt_fmt_point(value), lkt_status_name(s),
              s == LK_OK ? "" : lk_last_error(), lkt_fmt_point(get(b)));
    lk_release(a);
    lk_release(b);
}

typedef lk_status (*set_size_fn)(lk_layer *, lk_size);
typedef lk_size (*get_size_fn)(const lk_layer *);

static void size_property(const char *key, set_size_fn set, get_size_fn get, lk_size def,
                          lk_size value)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create();
    lk_value v;
    lk_status s;

    LKT_CHECK_SIZE(nm("S1.1 %s default", key), get(a), def, 0);
    if (get_typed(a, key, LK_VALUE_SIZE, &v, nm("S1.6 %s key path default", key)))
        LKT_CHECK_SIZE(nm("S1.6 %s key path default", key), v.as.size, def, 0);
    check_value_type(a, key, LK_VALUE_SIZE);

    s = set(a, value);
    if (LKT_CHECK(s == LK_OK && lkt_size_near(get(a), value, 0), nm("S1.1 %s typed set/get", key),
                  "set %s: %s, get %s", lkt_fmt_size(value), lkt_status_name(s),
                  lkt_fmt_size(get(a))))
        if (get_typed(a, key, LK_VALUE_SIZE, &v, nm("S1.6 %s key path get after set", key)))
            LKT_CHECK_SIZE(nm("S1.6 %s key path get after set", key), v.as.size, value, 0);

    s = lk_layer_set_value(b, key, lk_value_size(value));
    LKT_CHECK(s == LK_OK && lkt_size_near(get(b), value, 0), nm("S1.6 %s key path set", key),
              "set_value(%s): %s (%s), typed get %s", lkt_fmt_size(value), lkt_status_name(s),
              s == LK_OK ? "" : lk_last_error(), lkt_fmt_size(get(b)));
    lk_release(a);
    lk_release(b);
}

typedef lk_status (*set_rect_fn)(lk_layer *, lk_rect);
typedef lk_rect (*get_rect_fn)(const lk_layer *);

static void rect_property(const char *key, set_rect_fn set, get_rect_fn get, lk_rect def,
                          lk_rect value)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create();
    lk_value v;
    lk_status s;

    LKT_CHECK_RECT(nm("S1.1 %s default", key), get(a), def, 0);
    if (get_typed(a, key, LK_VALUE_RECT, &v, nm("S1.6 %s key path default", key)))
        LKT_CHECK_RECT(nm("S1.6 %s key path default", key), v.as.rect, def, 0);
    check_value_type(a, key, LK_VALUE_RECT);

    s = set(a, value);
    if (LKT_CHECK(s == LK_OK && lkt_rect_near(get(a), value, 0), nm("S1.1 %s typed set/get", key),
                  "set %s: %s, get %s", lkt_fmt_rect(value), lkt_status_name(s),
                  lkt_fmt_rect(get(a))))
        if (get_typed(a, key, LK_VALUE_RECT, &v, nm("S1.6 %s key path get after set", key)))
            LKT_CHECK_RECT(nm("S1.6 %s key path get after set", key), v.as.rect, value, 0);

    s = lk_layer_set_value(b, key, lk_value_rect(value));
    LKT_CHECK(s == LK_OK && lkt_rect_near(get(b), value, 0), nm("S1.6 %s key path set", key),
              "set_value(%s): %s (%s), typed get %s", lkt_fmt_rect(value), lkt_status_name(s),
              s == LK_OK ? "" : lk_last_error(), lkt_fmt_rect(get(b)));
    lk_release(a);
    lk_release(b);
}

/* ---- colours ---------------------------------------------------------------- */

typedef lk_status (*set_color_fn)(lk_layer *, lk_color);
typedef lk_color (*get_color_fn)(const lk_layer *);

/* def_is_none: the default is "none" (a colour with alpha 0; through a key
   path either no value or such a colour). */
static void color_property(const char *key, set_color_fn set, get_color_fn get, lk_color def,
                           int def_is_none, lk_color value)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create();
    lk_value v;
    lk_status s;
    const double eps = 1e-9;

    if (def_is_none) {
        lk_color c = get(a);
        LKT_CHECK(c.a == 0, nm("S1.1 %s default none (alpha 0)", key), "got %s",
                  lkt_fmt_color(c));
        memset(&v, 0, sizeof v);
        s = lk_layer_get_value(a, key, &v);
        LKT_CHECK(s == LK_OK && (v.type == LK_VALUE_NONE ||
                                 (v.type == LK_VALUE_COLOR && v.as.color.a == 0)),
                  nm("S1.6 %s key path default none", key),
                  "status %s, value type %s (alpha %.9g)", lkt_status_name(s),
                  lkt_value_type_name(v.type), v.type == LK_VALUE_COLOR ? v.as.color.a : -1.0);
    } else {
        LKT_CHECK_COLOR(nm("S1.1 %s default", key), get(a), def, 0);
        if (get_typed(a, key, LK_VALUE_COLOR, &v, nm("S1.6 %s key path default", key)))
            LKT_CHECK_COLOR(nm("S1.6 %s key path default", key), v.as.color, def, 0);
    }
    check_value_type(a, key, LK_VALUE_COLOR);

    s = set(a, value);
    if (LKT_CHECK(s == LK_OK && lkt_color_near(get(a), value, eps),
                  nm("S1.1 %s typed set/get", key), "set %s: %s, get %s", lkt_fmt_color(value),
                  lkt_status_name(s), lkt_fmt_color(get(a))))
        if (get_typed(a, key, LK_VALUE_COLOR, &v, nm("S1.6 %s key path get after set", key)))
            LKT_CHECK_COLOR(nm("S1.6 %s key path get after set", key), v.as.color, value, eps);

    s = lk_layer_set_value(b, key, lk_value_color(value));
    LKT_CHECK(s == LK_OK && lkt_color_near(get(b), value, eps), nm("S1.6 %s key path set", key),
              "set_value(%s): %s (%s), typed get %s", lkt_fmt_color(value), lkt_status_name(s),
              s == LK_OK ? "" : lk_last_error(), lkt_fmt_color(get(b)));
    lk_release(a);
    lk_release(b);
}

/* ---- transforms ------------------------------------------------------------- */

typedef lk_status (*set_transform_fn)(lk_layer *, lk_transform3d);
typedef lk_transform3d (*get_transform_fn)(const lk_layer *);

static void transform_property(const char *key, set_transform_fn set, get_transform_fn get)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create();
    lk_value v;
    lk_status s;
    lk_transform3d value = lkt_t_mul(lkt_t_rotation_z(0.5), lkt_t_translation(3, 4, 5));
    value.m34 = -1.0 / 500;

    LKT_CHECK_TRANSFORM(nm("S1.1 %s default identity", key), get(a), lkt_t_identity(), 0);
    if (get_typed(a, key, LK_VALUE_TRANSFORM, &v, nm("S1.6 %s key path default", key)))
        LKT_CHECK_TRANSFORM(nm("S1.6 %s key path default", key), v.as.transform,
                            lkt_t_identity(), 0);
    check_value_type(a, key, LK_VALUE_TRANSFORM);

    s = set(a, value);
    if (LKT_CHECK(s == LK_OK && lkt_transform_near(get(a), value, 0),
                  nm("S1.1 %s typed set/get", key), "set %s: %s, get %s",
                  lkt_fmt_transform(value), lkt_status_name(s), lkt_fmt_transform(get(a))))
        if (get_typed(a, key, LK_VALUE_TRANSFORM, &v, nm("S1.6 %s key path get after set", key)))
            LKT_CHECK_TRANSFORM(nm("S1.6 %s key path get after set", key), v.as.transform,
                                value, 0);

    s = lk_layer_set_value(b, key, lk_value_transform(value));
    LKT_CHECK(s == LK_OK && lkt_transform_near(get(b), value, 0), nm("S1.6 %s key path set", key),
              "set_value: %s (%s), typed get %s", lkt_status_name(s),
              s == LK_OK ? "" : lk_last_error(), lkt_fmt_transform(get(b)));
    lk_release(a);
    lk_release(b);
}

static void check_affine_transform(void)
{
    lk_layer *a = lk_layer_create();
    lk_affine m, got;
    lk_transform3d want;
    lk_status s;
    m.a = 2; m.b = 0.5; m.c = -0.25; m.d = 3; m.tx = 10; m.ty = -20;
    s = lk_layer_set_affine_transform(a, m);
    want = lkt_t_identity();
    want.m11 = 2; want.m12 = 0.5; want.m21 = -0.25; want.m22 = 3; want.m41 = 10; want.m42 = -20;
    LKT_CHECK(s == LK_OK && lkt_transform_near(lk_layer_get_transform(a), want, 0),
              "S1.1 setAffineTransform sets the transform", "status %s, transform %s",
              lkt_status_name(s), lkt_fmt_transform(lk_layer_get_transform(a)));
    got = lk_layer_get_affine_transform(a);
    LKT_CHECK(lkt_affine_near(got, m, 0), "S1.1 affineTransform round trip", "got %s",
              lkt_fmt_affine(got));
    lk_release(a);
}

/* ---- enums as strings ------------------------------------------------------- */

static void check_contents_gravity(void)
{
    static const char *names[] = {"resize", "resizeAspect", "resizeAspectFill", "center",
                                  "top", "bottom", "left", "right", "topLeft", "topRight",
                                  "bottomLeft", "bottomRight"};
    lk_layer *a = lk_layer_create();
    lk_value v;
    int i, typed_ok = 1, kp_set_ok = 1, kp_get_ok = 1;
    char why[512] = "";

    LKT_CHECK(lk_layer_get_contents_gravity(a) == LK_GRAVITY_RESIZE,
              "S1.1 contentsGravity default resize", "got %d", (int)lk_layer_get_contents_gravity(a));
    if (get_typed(a, "contentsGravity", LK_VALUE_STRING, &v,
                  "S1.6 contentsGravity key path default \"resize\""))
        LKT_CHECK(v.as.string && strcmp(v.as.string, "resize") == 0,
                  "S1.6 contentsGravity key path default \"resize\"", "got \"%s\"",
                  v.as.string ? v.as.string : "(null)");
    check_value_type(a, "contentsGravity", LK_VALUE_STRING);

    for (i = 0; i < 12; i++) {
        lk_layer *b = lk_layer_create();
        lk_contents_gravity g = (lk_contents_gravity)i;
        lk_status s = lk_layer_set_contents_gravity(b, g);
        if (s != LK_OK || lk_layer_get_contents_gravity(b) != g) {
            typed_ok = 0;
            snprintf(why, sizeof why, "gravity %d: %s, get %d", i, lkt_status_name(s),
                     (int)lk_layer_get_contents_gravity(b));
        }
        memset(&v, 0, sizeof v);
        s = lk_layer_get_value(b, "contentsGravity", &v);
        if (s != LK_OK || v.type != LK_VALUE_STRING || !v.as.string ||
            strcmp(v.as.string, names[i]) != 0) {
            kp_get_ok = 0;
            snprintf(why, sizeof why, "gravity %d reads as %s \"%s\", expected \"%s\"", i,
                     lkt_status_name(s), v.type == LK_VALUE_STRING && v.as.string ? v.as.string : "?",
                     names[i]);
        }
        lk_release(b);
        b = lk_layer_create();
        if (i == 0) lk_layer_set_contents_gravity(b, LK_GRAVITY_CENTER);
        s = lk_layer_set_value(b, "contentsGravity", lk_value_string(names[i]));
        if (s != LK_OK || lk_layer_get_contents_gravity(b) != g) {
            kp_set_ok = 0;
            snprintf(why, sizeof why, "set \"%s\": %s, typed get %d (expected %d)", names[i],
                     lkt_status_name(s), (int)lk_layer_get_contents_gravity(b), i);
        }
        lk_release(b);
    }
    LKT_CHECK(typed_ok, "S1.1 contentsGravity typed set/get, every value", "%s", why);
    LKT_CHECK(kp_get_ok, "S1.6 contentsGravity key path reads the Core Animation names", "%s", why);
    LKT_CHECK(kp_set_ok, "S1.6 contentsGravity key path takes the Core Animation names", "%s", why);
    lk_release(a);
}

static void check_fill_mode(void)
{
    static const char *names[] = {"removed", "forwards", "backwards", "both"};
    lk_layer *a = lk_layer_create();
    lk_value v;
    int i, typed_ok = 1, kp_set_ok = 1, kp_get_ok = 1;
    char why[512] = "";

    LKT_CHECK(lk_layer_get_fill_mode(a) == LK_FILL_REMOVED, "S4.1 fillMode default removed",
              "got %d", (int)lk_layer_get_fill_mode(a));
    if (get_typed(a, "fillMode", LK_VALUE_STRING, &v, "S1.6 fillMode key path default \"removed\""))
        LKT_CHECK(v.as.string && strcmp(v.as.string, "removed") == 0,
                  "S1.6 fillMode key path default \"removed\"", "got \"%s\"",
                  v.as.string ? v.as.string : "(null)");
    check_value_type(a, "fillMode", LK_VALUE_STRING);
    for (i = 0; i < 4; i++) {
        lk_layer *b = lk_layer_create();
        lk_fill_mode m = (lk_fill_mode)i;
        lk_status s = lk_layer_set_fill_mode(b, m);
        if (s != LK_OK || lk_layer_get_fill_mode(b) != m) {
            typed_ok = 0;
            snprintf(why, sizeof why, "mode %d: %s, get %d", i, lkt_status_name(s),
                     (int)lk_layer_get_fill_mode(b));
        }
        memset(&v, 0, sizeof v);
        s = lk_layer_get_value(b, "fillMode", &v);
        if (s != LK_OK || v.type != LK_VALUE_STRING || !v.as.string ||
            strcmp(v.as.string, names[i]) != 0) {
            kp_get_ok = 0;
            snprintf(why, sizeof why, "mode %d reads as %s \"%s\", expected \"%s\"", i,
                     lkt_status_name(s), v.type == LK_VALUE_STRING && v.as.string ? v.as.string : "?",
                     names[i]);
        }
        lk_release(b);
        b = lk_layer_create();
        if (i == 0) lk_layer_set_fill_mode(b, LK_FILL_BOTH);
        s = lk_layer_set_value(b, "fillMode", lk_value_string(names[i]));
        if (s != LK_OK || lk_layer_get_fill_mode(b) != m) {
            kp_set_ok = 0;
            snprintf(why, sizeof why, "set \"%s\": %s, typed get %d (expected %d)", names[i],
                     lkt_status_name(s), (int)lk_layer_get_fill_mode(b), i);
        }
        lk_release(b);
    }
    LKT_CHECK(typed_ok, "S4.1 fillMode typed set/get, every value", "%s", why);
    LKT_CHECK(kp_get_ok, "S1.6 fillMode key path reads removed/forwards/backwards/both", "%s", why);
    LKT_CHECK(kp_set_ok, "S1.6 fillMode key path takes removed/forwards/backwards/both", "%s", why);
    lk_release(a);
}

/* ---- objects ---------------------------------------------------------------- */

static lk_image *small_image(void)
{
    uint8_t px[16];
    memset(px, 200, sizeof px);
    return lk_image_create_from_pixels(2, 2, 8, LK_PIXEL_FORMAT_RGBA8, px);
}

/* A nil object through a key path: no value, or the property's type with NULL. */
static int is_nil(const lk_value *v, lk_value_type type)
{
    if (v->type == LK_VALUE_NONE) return 1;
    if (v->type != type) return 0;
    switch (type) {
    case LK_VALUE_IMAGE: return v->as.image == NULL;
    case LK_VALUE_PATH: return v->as.path == NULL;
    case LK_VALUE_LAYER: return v->as.layer == NULL;
    case LK_VALUE_STRING: return v->as.string == NULL || v->as.string[0] == '\0';
    default: return 0;
    }
}

static void check_contents(void)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create();
    lk_image *img = small_image();
    lk_value v;
    lk_status s;

    LKT_CHECK(lk_layer_get_contents(a) == NULL, "S1.1 contents default none", "got %p",
              (void *)lk_layer_get_contents(a));
    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(a, "contents", &v);
    LKT_CHECK(s == LK_OK && is_nil(&v, LK_VALUE_IMAGE), "S1.6 contents key path default none",
              "%s, type %s", lkt_status_name(s), lkt_value_type_name(v.type));
    check_value_type(a, "contents", LK_VALUE_IMAGE);

    s = lk_layer_set_contents(a, img);
    LKT_CHECK(s == LK_OK && lk_layer_get_contents(a) == img, "S1.1 contents typed set/get",
              "%s, get %p (set %p)", lkt_status_name(s), (void *)lk_layer_get_contents(a),
              (void *)img);
    if (get_typed(a, "contents", LK_VALUE_IMAGE, &v, "S1.6 contents key path get after set"))
        LKT_CHECK(v.as.image == img, "S1.6 contents key path get after set", "got %p, set %p",
                  (void *)v.as.image, (void *)img);
    s = lk_layer_set_contents(a, NULL);
    LKT_CHECK(s == LK_OK && lk_layer_get_contents(a) == NULL, "S1.1 contents set NULL clears",
              "%s, get %p", lkt_status_name(s), (void *)lk_layer_get_contents(a));

    s = lk_layer_set_value(b, "contents", lk_value_image(img));
    LKT_CHECK(s == LK_OK && lk_layer_get_contents(b) == img, "S1.6 contents key path set",
              "%s (%s), get %p", lkt_status_name(s), s == LK_OK ? "" : lk_last_error(),
              (void *)lk_layer_get_contents(b));
    s = lk_layer_set_value(b, "contents", lk_value_none());
    LKT_CHECK(s == LK_OK && lk_layer_get_contents(b) == NULL,
              "S1.6 contents key path set none clears", "%s (%s), get %p", lkt_status_name(s),
              s == LK_OK ? "" : lk_last_error(), (void *)lk_layer_get_contents(b));
    lk_layer_set_contents(b, img);
    s = lk_layer_set_value(b, "contents", lk_value_image(NULL));
    LKT_CHECK(s == LK_OK && lk_layer_get_contents(b) == NULL,
              "S1.6 contents key path set NULL image clears", "%s (%s), get %p",
              lkt_status_name(s), s == LK_OK ? "" : lk_last_error(),
              (void *)lk_layer_get_contents(b));

    /* retained by the layer: our reference can go */
    lk_layer_set_contents(b, img);
    lk_release(img);
    LKT_CHECK(lk_layer_get_contents(b) == img && lk_image_get_width(img) == 2,
              "S1.1 contents retained by the layer", "contents %p, width %u",
              (void *)lk_layer_get_contents(b), (unsigned)lk_image_get_width(img));
    lk_release(a);
    lk_release(b);
}

static void check_mask(void)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create(), *m = lk_layer_create();
    lk_layer *m2 = lk_layer_create();
    lk_value v;
    lk_status s;

    LKT_CHECK(lk_layer_get_mask(a) == NULL, "S1.1 mask default none", "got %p",
              (void *)lk_layer_get_mask(a));
    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(a, "mask", &v);
    LKT_CHECK(s == LK_OK && is_nil(&v, LK_VALUE_LAYER), "S1.6 mask key path default none",
              "%s, type %s", lkt_status_name(s), lkt_value_type_name(v.type));
    check_value_type(a, "mask", LK_VALUE_LAYER);

    s = lk_layer_set_mask(a, m);
    LKT_CHECK(s == LK_OK && lk_layer_get_mask(a) == m, "S1.1 mask typed set/get",
              "%s, get %p", lkt_status_name(s), (void *)lk_layer_get_mask(a));
    if (get_typed(a, "mask", LK_VALUE_LAYER, &v, "S1.6 mask key path get after set"))
        LKT_CHECK(v.as.layer == m, "S1.6 mask key path get after set", "got %p",
                  (void *)v.as.layer);
    LKT_CHECK(lk_layer_get_superlayer(m) == NULL, "S1.1 a mask has no superlayer",
              "superlayer %p", (void *)lk_layer_get_superlayer(m));

    s = lk_layer_set_value(b, "mask", lk_value_layer(m2));
    LKT_CHECK(s == LK_OK && lk_layer_get_mask(b) == m2, "S1.6 mask key path set",
              "%s (%s), get %p", lkt_status_name(s), s == LK_OK ? "" : lk_last_error(),
              (void *)lk_layer_get_mask(b));
    s = lk_layer_set_mask(b, NULL);
    LKT_CHECK(s == LK_OK && lk_layer_get_mask(b) == NULL, "S1.1 mask set NULL clears",
              "%s, get %p", lkt_status_name(s), (void *)lk_layer_get_mask(b));

    /* retained by the layer */
    lk_release(m);
    LKT_CHECK(lk_layer_get_mask(a) == m && lk_layer_get_sublayer_count(m) == 0,
              "S1.1 mask retained by the layer", "mask %p", (void *)lk_layer_get_mask(a));
    lk_release(a);
    lk_release(b);
    lk_release(m2);
}

static void check_shadow_path(void)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create();
    lk_path *p = lk_path_create(), *got;
    lk_value v;
    lk_status s;
    lk_rect want = lk_rect_make(1, 2, 30, 40);

    lk_path_add_rect(p, want);
    LKT_CHECK(lk_layer_get_shadow_path(a) == NULL, "S1.1 shadowPath default none", "got %p",
              (void *)lk_layer_get_shadow_path(a));
    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(a, "shadowPath", &v);
    LKT_CHECK(s == LK_OK && is_nil(&v, LK_VALUE_PATH), "S1.6 shadowPath key path default none",
              "%s, type %s", lkt_status_name(s), lkt_value_type_name(v.type));
    check_value_type(a, "shadowPath", LK_VALUE_PATH);

    s = lk_layer_set_shadow_path(a, p);
    got = lk_layer_get_shadow_path(a);
    LKT_CHECK(s == LK_OK && got && lkt_rect_near(lk_path_get_bounds(got), want, 1e-9),
              "S1.1 shadowPath typed set/get", "%s, path %p bounds %s", lkt_status_name(s),
              (void *)got, got ? lkt_fmt_rect(lk_path_get_bounds(got)) : "-");
    /* the layer keeps its own copy: changing ours does not change it */
    lk_path_add_rect(p, lk_rect_make(100, 100, 10, 10));
    got = lk_layer_get_shadow_path(a);
    LKT_CHECK(got && lkt_rect_near(lk_path_get_bounds(got), want, 1e-9),
              "S1.1 shadowPath is copied", "after changing the caller's path: bounds %s",
              got ? lkt_fmt_rect(lk_path_get_bounds(got)) : "(no path)");
    if (get_typed(a, "shadowPath", LK_VALUE_PATH, &v, "S1.6 shadowPath key path get after set"))
        LKT_CHECK(v.as.path && lkt_rect_near(lk_path_get_bounds(v.as.path), want, 1e-9),
                  "S1.6 shadowPath key path get after set", "path %p", (void *)v.as.path);

    s = lk_layer_set_value(b, "shadowPath", lk_value_path(p));
    got = lk_layer_get_shadow_path(b);
    LKT_CHECK(s == LK_OK && got &&
                  lkt_rect_near(lk_path_get_bounds(got), lk_rect_make(1, 2, 109, 108), 1e-9),
              "S1.6 shadowPath key path set", "%s (%s), path %p", lkt_status_name(s),
              s == LK_OK ? "" : lk_last_error(), (void *)got);
    s = lk_layer_set_shadow_path(b, NULL);
    LKT_CHECK(s == LK_OK && lk_layer_get_shadow_path(b) == NULL, "S1.1 shadowPath set NULL clears",
              "%s, path %p", lkt_status_name(s), (void *)lk_layer_get_shadow_path(b));
    lk_release(p);
    lk_release(a);
    lk_release(b);
}

static void check_name(void)
{
    lk_layer *a = lk_layer_create(), *b = lk_layer_create();
    char buf[64];
    const char *got;
    lk_value v;
    lk_status s;

    got = lk_layer_get_name(a);
    LKT_CHECK(got == NULL || got[0] == '\0', "S1.1 name default none", "got \"%s\"", got ? got : "(null)");
    memset(&v, 0, sizeof v);
    s = lk_layer_get_value(a, "name", &v);
    LKT_CHECK(s == LK_OK && is_nil(&v, LK_VALUE_STRING), "S1.6 name key path default none",
              "%s, type %s", lkt_status_name(s), lkt_value_type_name(v.type));
    check_value_type(a, "name", LK_VALUE_STRING);

    strcpy(buf, "Ebene \xc3\xbc \xe2\x9c\x93"); /* UTF-8: "Ebene ü ✓" */
    s = lk_layer_set_name(a, buf);
    buf[0] = 'X';
    got = lk_layer_get_name(a);
    LKT_CHECK(s == LK_OK && got && strcmp(got, "Ebene \xc3\xbc \xe2\x9c\x93") == 0,
              "S1.1 name typed set/get, UTF-8, copied", "%s, got \"%s\"", lkt_status_name(s),
              got ? got : "(null)");
    if (get_typed(a, "name", LK_VALUE_STRING, &v, "S1.6 name key path get after set"))
        LKT_CHECK(v.as.string && strcmp(v.as.string, "Ebene \xc3\xbc \xe2\x9c\x93") == 0,
                  "S1.6 name key path get after set", "got \"%s\"",
                  v.as.string ? v.as.string : "(null)");

    strcpy(buf, "second");
    s = lk_layer_set_value(b, "name", lk_value_string(buf));
    buf[0] = 'X';
    got = lk_layer_get_name(b);
    LKT_CHECK(s == LK_OK && got && strcmp(got, "second") == 0,
              "S1.6 name key path set, copied", "%s (%s), got \"%s\"", lkt_status_name(s),
              s == LK_OK ? "" : lk_last_error(), got ? got : "(null)");
    s = lk_layer_set_name(b, NULL);
    got = lk_layer_get_name(b);
    LKT_CHECK(s == LK_OK && (got == NULL || got[0] == '\0'), "S1.1 name set NULL clears",
              "%s, got \"%s\"", lkt_status_name(s), got ? got : "(null)");
    lk_release(a);
    lk_release(b);
}

/* opacity is clamped to 0..1 (layerkit.h), through either door */
static void check_opacity_clamp(void)
{
    lk_layer *a = lk_layer_create();
    lk_status s = lk_layer_set_opacity(a, 1.5);
    LKT_CHECK(s == LK_OK && lk_layer_get_opacity(a) == 1, "S1.1 opacity above 1 clamps to 1",
              "%s, get %.9g", lkt_status_name(s), lk_layer_get_opacity(a));
    s = lk_layer_set_opacity(a, -0.5);
    LKT_CHECK(s == LK_OK && lk_layer_get_opacity(a) == 0, "S1.1 opacity below 0 clamps to 0",
              "%s, get %.9g", lkt_status_name(s), lk_layer_get_opacity(a));
    s = lk_layer_set_value(a, "opacity", lk_value_number(7));
    LKT_CHECK(s == LK_OK && lk_layer_get_opacity(a) == 1,
              "S1.6 opacity key path clamps to 0..1", "%s, get %.9g", lkt_status_name(s),
              lk_layer_get_opacity(a));
    lk_release(a);
}

/* Core Animation takes any anchor point, outside the bounds too */
static void check_anchor_outside(void)
{
    lk_layer *a = lk_layer_create();
    lk_status s = lk_layer_set_anchor_point(a, lk_point_make(2, -1));
    LKT_CHECK(s == LK_OK && lkt_point_near(lk_layer_get_anchor_point(a), lk_point_make(2, -1), 0),
              "S1.1 anchorPoint outside 0..1 is allowed", "%s, get %s", lkt_status_name(s),
              lkt_fmt_point(lk_layer_get_anchor_point(a)));
    lk_release(a);
}

/* repeatCount may be infinite (S4.4: forever) */
static void check_repeat_forever(void)
{
    lk_layer *a = lk_layer_create();
    lk_status s = lk_layer_set_repeat_count(a, INFINITY);
    LKT_CHECK(s == LK_OK && isinf(lk_layer_get_repeat_count(a)),
              "S4.4 repeatCount infinity is allowed", "%s, get %.9g", lkt_status_name(s),
              lk_layer_get_repeat_count(a));
    lk_release(a);
}

int main(void)
{
    number_property("anchorPointZ", lk_layer_set_anchor_point_z, lk_layer_get_anchor_point_z, 0, 5);
    number_property("zPosition", lk_layer_set_z_position, lk_layer_get_z_position, 0, -3.5);
    number_property("opacity", lk_layer_set_opacity, lk_layer_get_opacity, 1, 0.25);
    number_property("borderWidth", lk_layer_set_border_width, lk_layer_get_border_width, 0, 2.5);
    number_property("cornerRadius", lk_layer_set_corner_radius, lk_layer_get_corner_radius, 0, 7);
    number_property("shadowOpacity", lk_layer_set_shadow_opacity, lk_layer_get_shadow_opacity, 0,
                    0.625);
    number_property("shadowRadius", lk_layer_set_shadow_radius, lk_layer_get_shadow_radius, 3, 6);
    number_property("contentsScale", lk_layer_set_contents_scale, lk_layer_get_contents_scale, 1, 2);
    number_property("beginTime", lk_layer_set_begin_time, lk_layer_get_begin_time, 0, 1.5);
    number_property("duration", lk_layer_set_duration, lk_layer_get_duration, 0, 2);
    number_property("speed", lk_layer_set_speed, lk_layer_get_speed, 1, 2);
    number_property("timeOffset", lk_layer_set_time_offset, lk_layer_get_time_offset, 0, 0.5);
    number_property("repeatCount", lk_layer_set_repeat_count, lk_layer_get_repeat_count, 0, 3);
    number_property("repeatDuration", lk_layer_set_repeat_duration, lk_layer_get_repeat_duration,
                    0, 4);

    bool_property("hidden", lk_layer_set_hidden, lk_layer_get_hidden, false);
    bool_property("masksToBounds", lk_layer_set_masks_to_bounds, lk_layer_get_masks_to_bounds,
                  false);
    bool_property("doubleSided", lk_layer_set_double_sided, lk_layer_get_double_sided, true);
    bool_property("autoreverses", lk_layer_set_autoreverses, lk_layer_get_autoreverses, false);

    point_property("position", lk_layer_set_position, lk_layer_get_position, lk_point_make(0, 0),
                   lk_point_make(10, -20.5));
    point_property("anchorPoint", lk_layer_set_anchor_point, lk_layer_get_anchor_point,
                   lk_point_make(0.5, 0.5), lk_point_make(0.25, 1));
    size_property("shadowOffset", lk_layer_set_shadow_offset, lk_layer_get_shadow_offset,
                  lk_size_make(0, -3), lk_size_make(4, 5));
    rect_property("bounds", lk_layer_set_bounds, lk_layer_get_bounds, lk_rect_make(0, 0, 0, 0),
                  lk_rect_make(1, 2, 30, 40));
    rect_property("contentsRect", lk_layer_set_contents_rect, lk_layer_get_contents_rect,
                  lk_rect_make(0, 0, 1, 1), lk_rect_make(0.25, 0, 0.5, 0.5));
    rect_property("contentsCenter", lk_layer_set_contents_center, lk_layer_get_contents_center,
                  lk_rect_make(0, 0, 1, 1), lk_rect_make(0.1, 0.2, 0.3, 0.4));

    color_property("backgroundColor", lk_layer_set_background_color,
                   lk_layer_get_background_color, lk_color_make(0, 0, 0, 0), 1,
                   lk_color_make(0.1, 0.2, 0.3, 0.4));
    color_property("borderColor", lk_layer_set_border_color, lk_layer_get_border_color,
                   lk_color_make(0, 0, 0, 1), 0, lk_color_make(1, 0.5, 0.25, 0.75));
    color_property("shadowColor", lk_layer_set_shadow_color, lk_layer_get_shadow_color,
                   lk_color_make(0, 0, 0, 1), 0, lk_color_make(0.2, 0.4, 0.6, 0.8));

    transform_property("transform", lk_layer_set_transform, lk_layer_get_transform);
    transform_property("sublayerTransform", lk_layer_set_sublayer_transform,
                       lk_layer_get_sublayer_transform);
    check_affine_transform();

    check_contents_gravity();
    check_fill_mode();
    check_contents();
    check_mask();
    check_shadow_path();
    check_name();
    check_opacity_clamp();
    check_repeat_forever();
    check_anchor_outside();
    return lkt_finish();
}
