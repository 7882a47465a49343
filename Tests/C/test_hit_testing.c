/*
 * S1.5 hit testing: the deepest, front-most layer containing the point
 * (given in the root's superlayer space), skipping hidden layers and
 * honouring masksToBounds (a sublayer outside its superlayer's bounds is hit
 * unless the superlayer masks to its bounds); and contains_point in the
 * layer's own coordinates.
 */
#include "lktest.h"

#include <math.h>
#include <string.h>

static const char *who(const lk_layer *l)
{
    const char *n;
    if (!l) return "NULL";
    n = lk_layer_get_name(l);
    return n ? n : "(unnamed)";
}

static void expect_hit(lk_layer *root, double x, double y, const lk_layer *want, const char *check)
{
    lk_layer *got = lk_layer_hit_test(root, lk_point_make(x, y));
    LKT_CHECK(got == want, check, "hit test at (%g, %g) gave %s, expected %s", x, y, who(got),
              who(want));
}

static lk_layer *box(lk_layer *parent, const char *name, double x, double y, double w, double h)
{
    lk_layer *l = lkt_layer_new(parent, x, y, w, h, lk_color_make(1, 1, 1, 1));
    lk_layer_set_name(l, name);
    return l;
}

static void check_hit_test(void)
{
    lk_layer *root = lk_layer_create(), *a, *a1, *b, *c, *d, *d1, *e, *f;

    lk_layer_set_name(root, "root");
    lkt_layer_place(root, 0, 0, 200, 200);
    a = box(root, "A", 10, 10, 80, 80);
    a1 = box(a, "A1", 10, 10, 30, 30); /* root (20..50, 20..50) */
    b = box(root, "B", 50, 50, 80, 80); /* over A in (50..90, 50..90) */
    c = box(root, "C", 150, 150, 40, 40);
    lk_layer_set_hidden(c, true);
    d = box(root, "D", 140, 10, 40, 40);
    d1 = box(d, "D1", 20, 20, 40, 40); /* root (160..200, 30..70): partly outside D */
    e = box(root, "E", 80, 150, 40, 40); /* turned 45 degrees: a diamond about (100, 170) */
    lk_layer_set_transform(e, lkt_t_rotation_z(LKT_PI / 4));
    f = box(root, "F", 210, 0, 20, 20); /* outside the root's bounds */

    expect_hit(root, 30, 30, a1, "S1.5 the deepest layer is hit");
    expect_hit(root, 15, 15, a, "S1.5 a superlayer where no sublayer is");
    expect_hit(root, 60, 60, b, "S1.5 the front-most of overlapping siblings is hit");
    expect_hit(root, 100, 100, b, "S1.5 a later sibling");
    expect_hit(root, 5, 195, root, "S1.5 the root itself where nothing else is");
    expect_hit(root, 170, 170, root, "S1.5 hidden layers are skipped");
    expect_hit(root, 170, 40, d1, "S1.5 the deeper of two nested layers");
    expect_hit(root, 195, 60, d1, "S1.5 a sublayer outside its superlayer's bounds is hit");
    expect_hit(root, 220, 10, f, "S1.5 a sublayer outside the root's bounds is hit");
    expect_hit(root, 300, 300, NULL, "S1.5 a point outside everything hits nothing");
    expect_hit(root, 100, 145, e, "S1.5 a rotated layer is hit inside its turned shape");
    expect_hit(root, 83, 153, root, "S1.5 a rotated layer is not hit in its unturned corner");

    lk_layer_set_masks_to_bounds(d, true);
    expect_hit(root, 195, 60, root, "S1.5 masksToBounds, no hit outside the superlayer's bounds");
    expect_hit(root, 170, 40, d1, "S1.5 masksToBounds, inside still hits the sublayer");

    lk_layer_add_sublayer(root, a); /* A to the front */
    expect_hit(root, 60, 60, a, "S1.3 S1.5 after moving A to the front, A is hit");

    lk_layer_set_hidden(a, true);
    expect_hit(root, 30, 30, root, "S1.5 a hidden superlayer hides its sublayers from hits");
    lk_layer_set_hidden(a, false);
    lk_layer_set_hidden(a1, true);
    expect_hit(root, 30, 30, a, "S1.5 a hidden sublayer is skipped, its superlayer hit");

    lk_layer_set_hidden(root, true);
    expect_hit(root, 15, 15, NULL, "S1.5 a hidden root hits nothing");
    lk_layer_set_hidden(root, false);

    /* the point is in the root's superlayer space: move the root */
    lk_layer_set_position(root, lk_point_make(1100, 1100)); /* frame (1000, 1000, 200, 200) */
    expect_hit(root, 1030, 1030, a, "S1.5 the point is in the root's superlayer space");
    expect_hit(root, 30, 30, NULL, "S1.5 root-space coordinates miss a moved root");

    lk_layer_set_hidden(a1, false);
    lk_release(root);
}

static void check_sublayer_transform_hit(void)
{
    lk_layer *r = lk_layer_create(), *c;
    lk_layer_set_name(r, "R");
    lkt_layer_place(r, 0, 0, 100, 100);
    lk_layer_set_sublayer_transform(r, lkt_t_scale(0.5, 0.5, 1));
    c = box(r, "child", 0, 0, 50, 50); /* scaled about (50,50): (25..50, 25..50) */
    expect_hit(r, 30, 30, c, "S1.4 S1.5 hit testing applies the sublayerTransform");
    expect_hit(r, 10, 10, r, "S1.4 S1.5 sublayerTransform moved the child away from (10,10)");
    lk_release(r);
}

/* S1.5 with S6.3: a card turned 60 degrees about y under perspective
   (m34 = -1/500) is hit where it appears: its near (left) edge projects to
   x = -46.4 from the centre, its far (right) edge to +35.1 (without
   perspective both would be at 40). */
static void check_perspective_hit(void)
{
    lk_layer *r = lk_layer_create(), *c;
    lk_layer_set_name(r, "R");
    lkt_layer_place(r, 0, 0, 300, 240);
    lk_layer_set_sublayer_transform(r, lkt_t_perspective(500));
    c = box(r, "card", 70, 40, 160, 160); /* centred on R's anchor (150, 120) */
    lk_layer_set_transform(c, lkt_t_rotation_y(LKT_PI / 3));
    expect_hit(r, 150 - 43, 120, c, "S1.5 S6.3 perspective, hit on the enlarged near side");
    expect_hit(r, 150 + 38, 120, r, "S1.5 S6.3 perspective, miss beyond the shrunk far side");
    expect_hit(r, 150, 120, c, "S1.5 S6.3 perspective, hit in the middle");
    lk_release(r);
}

/* S1.5 as Core Animation: -hitTest: asks -containsPoint: of each layer,
   which tests the bounds rectangle (Apple's CALayer documentation), so a
   mask changes what is drawn, not what is hit: the masked-off part of a
   layer is still hit, and the mask layer (no superlayer, S6.1) is never hit
   itself. masksToBounds cuts off the sublayers outside the bounds
   rectangle, not the rounded corners. See docs/rendering.md. */
static void check_mask_hit(void)
{
    lk_layer *root = lk_layer_create(), *l, *m, *c, *r, *rc;
    lk_layer_set_name(root, "root");
    lkt_layer_place(root, 0, 0, 200, 200);
    l = box(root, "masked", 20, 20, 100, 100);
    c = box(l, "masked child", 60, 60, 60, 60); /* root (80..140, 80..140) */
    m = lk_layer_create();
    lk_layer_set_name(m, "mask");
    lkt_layer_place(m, 0, 0, 40, 40);             /* shows only (20..60, 20..60) */
    lk_layer_set_background_color(m, lk_color_make(1, 1, 1, 1));
    lk_layer_set_mask(l, m);
    expect_hit(root, 30, 30, l, "S1.5 S6.1 a masked layer is hit where its mask shows it");
    expect_hit(root, 100, 40, l, "S1.5 S6.1 a masked layer is still hit where its mask hides it (bounds, as CA)");
    expect_hit(root, 130, 130, c, "S1.5 S6.1 a sublayer hidden by the mask outside the bounds is still hit");
    lk_layer_set_position(m, lk_point_make(170, 170)); /* the mask reaches outside the layer */
    expect_hit(root, 185, 185, root, "S1.5 S6.1 the mask layer itself is never hit");
    expect_hit(l, 185, 185, NULL, "S1.5 S6.1 hit testing the masked layer does not reach its mask");

    r = box(root, "rounded", 150, 10, 40, 40);
    lk_layer_set_corner_radius(r, 20);
    lk_layer_set_masks_to_bounds(r, true);
    rc = box(r, "rounded child", 0, 0, 50, 50);   /* root (150..200, 10..60) */
    expect_hit(root, 151, 11, rc, "S1.5 masksToBounds clips hits to the bounds rectangle, not the rounded corner");
    expect_hit(root, 195, 55, root, "S1.5 masksToBounds, a rounded superlayer still cuts off hits outside it");
    lk_release(m);
    lk_release(root);
}

static void check_contains(void)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_bounds(l, lk_rect_make(10, 10, 100, 50));
    LKT_CHECK(lk_layer_contains_point(l, lk_point_make(10.5, 10.5)),
              "S1.5 contains_point, inside near the bounds origin", "false");
    LKT_CHECK(lk_layer_contains_point(l, lk_point_make(109, 59)),
              "S1.5 contains_point, inside near the far corner", "false");
    LKT_CHECK(!lk_layer_contains_point(l, lk_point_make(5, 20)),
              "S1.5 contains_point, left of the bounds", "true");
    LKT_CHECK(!lk_layer_contains_point(l, lk_point_make(111, 30)),
              "S1.5 contains_point, right of the bounds", "true");
    LKT_CHECK(!lk_layer_contains_point(l, lk_point_make(50, 5)),
              "S1.5 contains_point is in the layer's own (bounds) coordinates", "true");
    lkt_error_mark();
    LKT_CHECK(!lk_layer_contains_point(NULL, lk_point_make(0, 0)),
              "S8.1 contains_point of NULL is false", "true");
    LKT_CHECK_ERROR_MESSAGE("S8.1 contains_point of NULL sets the message", "layer");
    lkt_error_mark();
    LKT_CHECK(lk_layer_hit_test(NULL, lk_point_make(0, 0)) == NULL,
              "S8.1 hit test of NULL is NULL", "got a layer");
    LKT_CHECK_ERROR_MESSAGE("S8.1 hit test of NULL sets the message", "root|layer");
    lk_release(l);
}

int main(void)
{
    check_hit_test();
    check_sublayer_transform_hit();
    check_perspective_hit();
    check_mask_hit();
    check_contains();
    return lkt_finish();
}
