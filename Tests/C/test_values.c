/*
 * Values and transform helpers: the CATransform3D functions in Core
 * Animation's layout (row vectors, translation in m41..m43, y down,
 * positive angles clockwise on screen: S1.0), the constructors of the value
 * structs and lk_value, and the library calls.
 *
 * Expected matrices are written out by hand or built with the test's own
 * row-vector arithmetic (support/lktest.c), never with the library's.
 */
#include "lktest.h"

#include <math.h>
#include <string.h>

#define EPS 1e-12

static void check_library(void)
{
    double t1, t2;
    LKT_CHECK(lk_version_string() && strcmp(lk_version_string(), LK_VERSION_STRING) == 0,
              "library version string matches the header",
              "lk_version_string() is \"%s\", header says \"%s\"", lk_version_string(),
              LK_VERSION_STRING);
    t1 = lk_media_time();
    t2 = lk_media_time();
    LKT_CHECK(isfinite(t1) && t1 > 0 && t2 >= t1, "lk_media_time is monotonic seconds",
              "two readings %.9g then %.9g", t1, t2);
    LKT_CHECK(lk_retain(NULL) == NULL, "lk_retain(NULL) is NULL", "got a non-NULL pointer");
    lk_release(NULL);
    LKT_CHECK(1, "lk_release(NULL) does nothing", "survived");
}

static void check_constructors(void)
{
    lk_point p = lk_point_make(1.5, -2);
    lk_size s = lk_size_make(3, 4.25);
    lk_rect r = lk_rect_make(1, 2, 3, 4);
    lk_color c = lk_color_make(0.1, 0.2, 0.3, 0.4);
    lk_value v;
    lk_transform3d t;
    lk_layer *layer = lk_layer_create();

    LKT_CHECK(p.x == 1.5 && p.y == -2, "lk_point_make", "got %s", lkt_fmt_point(p));
    LKT_CHECK(s.width == 3 && s.height == 4.25, "lk_size_make", "got %s", lkt_fmt_size(s));
    LKT_CHECK(r.origin.x == 1 && r.origin.y == 2 && r.size.width == 3 && r.size.height == 4,
              "lk_rect_make", "got %s", lkt_fmt_rect(r));
    LKT_CHECK(c.r == 0.1 && c.g == 0.2 && c.b == 0.3 && c.a == 0.4, "lk_color_make", "got %s",
              lkt_fmt_color(c));

    v = lk_value_none();
    LKT_CHECK(v.type == LK_VALUE_NONE, "lk_value_none", "type %s", lkt_value_type_name(v.type));
    v = lk_value_number(2.5);
    LKT_CHECK(v.type == LK_VALUE_NUMBER && v.as.number == 2.5, "lk_value_number", "type %s",
              lkt_value_type_name(v.type));
    v = lk_value_bool(true);
    LKT_CHECK(v.type == LK_VALUE_BOOL && v.as.boolean, "lk_value_bool", "type %s",
              lkt_value_type_name(v.type));
    v = lk_value_point(p);
    LKT_CHECK(v.type == LK_VALUE_POINT && lkt_point_near(v.as.point, p, 0), "lk_value_point",
              "type %s", lkt_value_type_name(v.type));
    v = lk_value_size(s);
    LKT_CHECK(v.type == LK_VALUE_SIZE && lkt_size_near(v.as.size, s, 0), "lk_value_size",
              "type %s", lkt_value_type_name(v.type));
    v = lk_value_rect(r);
    LKT_CHECK(v.type == LK_VALUE_RECT && lkt_rect_near(v.as.rect, r, 0), "lk_value_rect",
              "type %s", lkt_value_type_name(v.type));
    v = lk_value_color(c);
    LKT_CHECK(v.type == LK_VALUE_COLOR && lkt_color_near(v.as.color, c, 0), "lk_value_color",
              "type %s", lkt_value_type_name(v.type));
    t = lkt_t_translation(1, 2, 3);
    v = lk_value_transform(t);
    LKT_CHECK(v.type == LK_VALUE_TRANSFORM && lkt_transform_near(v.as.transform, t, 0),
              "lk_value_transform", "type %s", lkt_value_type_name(v.type));
    v = lk_value_string("héllo");
    LKT_CHECK(v.type == LK_VALUE_STRING && v.as.string && strcmp(v.as.string, "héllo") == 0,
              "lk_value_string", "type %s", lkt_value_type_name(v.type));
    v = lk_value_layer(layer);
    LKT_CHECK(v.type == LK_VALUE_LAYER && v.as.layer == layer, "lk_value_layer", "type %s",
              lkt_value_type_name(v.type));
    v = lk_value_image(NULL);
    LKT_CHECK(v.type == LK_VALUE_IMAGE && v.as.image == NULL, "lk_value_image", "type %s",
              lkt_value_type_name(v.type));
    v = lk_value_path(NULL);
    LKT_CHECK(v.type == LK_VALUE_PATH && v.as.path == NULL, "lk_value_path", "type %s",
              lkt_value_type_name(v.type));
    lk_release(layer);
}

static void check_transform_basics(void)
{
    lk_transform3d id = lk_transform3d_identity(), t;
    lk_transform3d want;

    LKT_CHECK_TRANSFORM("CATransform3DIdentity", id, lkt_t_identity(), 0);
    LKT_CHECK(lk_transform3d_is_identity(id), "identity is identity", "is_identity false");

    t = lk_transform3d_make_translation(1, 2, 3);
    LKT_CHECK_TRANSFORM("make_translation puts tx, ty, tz in m41..m43", t,
                        lkt_t_translation(1, 2, 3), 0);
    LKT_CHECK(!lk_transform3d_is_identity(t), "a translation is not the identity",
              "is_identity true");

    t = lk_transform3d_make_scale(2, 3, 4);
    LKT_CHECK_TRANSFORM("make_scale puts sx, sy, sz on the diagonal", t, lkt_t_scale(2, 3, 4),
                        0);

    /* S1.0: +90 degrees about z is clockwise on screen: (1, 0) -> (0, 1) */
    t = lk_transform3d_make_rotation(LKT_PI / 2, 0, 0, 1);
    want = lkt_t_identity();
    want.m11 = 0; want.m12 = 1; want.m21 = -1; want.m22 = 0;
    LKT_CHECK_TRANSFORM("S1.0 rotation +90 about z is m11=cos m12=sin m21=-sin m22=cos", t, want,
                        EPS);
    {
        double x, y, z;
        lkt_t_apply(t, 1, 0, 0, &x, &y, &z);
        LKT_CHECK(lkt_near(x, 0, EPS) && lkt_near(y, 1, EPS),
                  "S1.0 rotation +90 about z maps (1,0) to (0,1) (clockwise, y down)",
                  "got (%.9g, %.9g)", x, y);
    }
    t = lk_transform3d_make_rotation(0.3, 0, 0, 1);
    LKT_CHECK_TRANSFORM("rotation 0.3 about z", t, lkt_t_rotation_z(0.3), EPS);
    t = lk_transform3d_make_rotation(0.7, 1, 0, 0);
    LKT_CHECK_TRANSFORM("rotation about x is m22=cos m23=sin m32=-sin m33=cos", t,
                        lkt_t_rotation_x(0.7), EPS);
    t = lk_transform3d_make_rotation(0.7, 0, 1, 0);
    LKT_CHECK_TRANSFORM("rotation about y is m11=cos m13=-sin m31=sin m33=cos", t,
                        lkt_t_rotation_y(0.7), EPS);
    t = lk_transform3d_make_rotation(0.7, 0, 0, 5);
    LKT_CHECK_TRANSFORM("rotation axis is normalised", t, lkt_t_rotation_z(0.7), EPS);
    t = lk_transform3d_make_rotation(0.7, 0, 0, 0);
    LKT_CHECK_TRANSFORM("rotation about a zero axis is the identity", t, lkt_t_identity(), 0);
    {
        /* about (1,1,1): a third of a turn permutes the axes x -> y -> z */
        double x, y, z;
        t = lk_transform3d_make_rotation(2 * LKT_PI / 3, 1, 1, 1);
        lkt_t_apply(t, 1, 0, 0, &x, &y, &z);
        LKT_CHECK(lkt_near(x, 0, 1e-9) && lkt_near(y, 1, 1e-9) && lkt_near(z, 0, 1e-9),
                  "rotation 120 degrees about (1,1,1) maps x to y", "got (%.9g, %.9g, %.9g)", x,
                  y, z);
    }
}

static void check_transform_composition(void)
{
    lk_transform3d s2 = lkt_t_scale(2, 2, 1), tr = lkt_t_translation(10, 0, 0), t, want;

    /* concat(a, b): a then b */
    t = lk_transform3d_concat(s2, tr);
    want = lkt_t_scale(2, 2, 1);
    want.m41 = 10;
    LKT_CHECK_TRANSFORM("concat(scale 2, translate 10) scales first (m41 = 10)", t, want, EPS);
    t = lk_transform3d_concat(tr, s2);
    want.m41 = 20;
    LKT_CHECK_TRANSFORM("concat(translate 10, scale 2) translates first (m41 = 20)", t, want,
                        EPS);

    /* CATransform3DTranslate(t, ...) = translate * t: the translation comes first */
    t = lk_transform3d_translate(s2, 10, 0, 0);
    LKT_CHECK_TRANSFORM("translate(t) = translation then t", t, lkt_t_mul(tr, s2), EPS);
    t = lk_transform3d_scale(tr, 2, 2, 1);
    LKT_CHECK_TRANSFORM("scale(t) = scale then t", t, lkt_t_mul(s2, tr), EPS);
    t = lk_transform3d_rotate(tr, LKT_PI / 2, 0, 0, 1);
    LKT_CHECK_TRANSFORM("rotate(t) = rotation then t", t, lkt_t_mul(lkt_t_rotation_z(LKT_PI / 2), tr),
                        EPS);
    {
        double x, y;
        lkt_t_apply(t, 1, 0, 0, &x, &y, NULL);
        LKT_CHECK(lkt_near(x, 10, EPS) && lkt_near(y, 1, EPS),
                  "rotate(translate 10, +90) maps (1,0) -> (0,1) -> (10,1)", "got (%.9g, %.9g)", x,
                  y);
    }

    LKT_CHECK(lk_transform3d_equal(lkt_t_translation(1, 2, 3), lkt_t_translation(1, 2, 3)),
              "equal transforms are equal", "equal() false");
    LKT_CHECK(!lk_transform3d_equal(lkt_t_translation(1, 2, 3), lkt_t_translation(1, 2, 4)),
              "different transforms are not equal", "equal() true");
}

static void check_invert(void)
{
    lk_transform3d t = lkt_t_mul(lkt_t_mul(lkt_t_scale(2, 4, 8), lkt_t_rotation_x(0.3)),
                                 lkt_t_mul(lkt_t_rotation_z(1.1), lkt_t_translation(5, -7, 9)));
    lk_transform3d inv, p;
    bool ok;
    t.m34 = -1.0 / 500;
    memset(&inv, 0, sizeof inv);
    ok = lk_transform3d_invert(t, &inv);
    LKT_CHECK(ok, "invert an invertible transform", "returned false");
    p = lkt_t_mul(t, inv);
    LKT_CHECK_TRANSFORM("t times its inverse is the identity", p, lkt_t_identity(), 1e-9);
    ok = lk_transform3d_invert(lkt_t_scale(1, 0, 1), &inv);
    LKT_CHECK(!ok, "invert a singular transform fails", "returned true");
}

static void check_affine(void)
{
    lk_affine m;
    lk_transform3d t, want;
    m.a = 1.5; m.b = 0.25; m.c = -0.5; m.d = 2; m.tx = 7; m.ty = -3;
    t = lk_transform3d_make_affine(m);
    want = lkt_t_identity();
    want.m11 = 1.5; want.m12 = 0.25; want.m21 = -0.5; want.m22 = 2; want.m41 = 7; want.m42 = -3;
    LKT_CHECK_TRANSFORM("make_affine puts a b in m11 m12, c d in m21 m22, tx ty in m41 m42", t,
                        want, 0);
    LKT_CHECK(lk_transform3d_is_affine(t), "an affine transform is affine", "is_affine false");
    LKT_CHECK(lkt_affine_near(lk_transform3d_get_affine(t), m, 0), "affine round trip",
              "got %s", lkt_fmt_affine(lk_transform3d_get_affine(t)));
    m = lk_transform3d_get_affine(lkt_t_rotation_z(0.4));
    LKT_CHECK(lkt_near(m.a, cos(0.4), EPS) && lkt_near(m.b, sin(0.4), EPS) &&
                  lkt_near(m.c, -sin(0.4), EPS) && lkt_near(m.d, cos(0.4), EPS) &&
                  lkt_near(m.tx, 0, EPS) && lkt_near(m.ty, 0, EPS),
              "affine part of a z rotation is CGAffineTransformMakeRotation", "got %s",
              lkt_fmt_affine(m));
    t = lkt_t_identity();
    t.m34 = -0.002;
    LKT_CHECK(!lk_transform3d_is_affine(t), "perspective is not affine", "is_affine true");
    LKT_CHECK(!lk_transform3d_is_affine(lkt_t_translation(0, 0, 5)),
              "a z translation is not affine", "is_affine true");
    LKT_CHECK(!lk_transform3d_is_affine(lkt_t_rotation_y(0.5)), "a y rotation is not affine",
              "is_affine true");
}

int main(void)
{
    check_library();
    check_constructors();
    check_transform_basics();
    check_transform_composition();
    check_invert();
    check_affine();
    return lkt_finish();
}
