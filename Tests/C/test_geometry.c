/*
 * S1.2 frame and S1.4 coordinate conversion.
 *
 * A point p of layer L maps into its superlayer S as
 *     p -> (p - L.bounds.origin - L.anchorPoint * L.bounds.size) * L.transform + L.position
 * and then through S's sublayerTransform about S's anchor point, which in
 * S's own coordinates is S.bounds.origin + S.anchorPoint * S.bounds.size;
 * a projective result is divided by w (perspective, S6.3). Expected values
 * are worked out by hand in the comments (or with the test's own row-vector
 * arithmetic for the 3D case).
 */
#include "lktest.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define EPS 1e-9

/* ---- S1.2 frame ----------------------------------------------------------- */

static void check_frame(void)
{
    lk_layer *l = lk_layer_create();
    lk_status s;

    s = lk_layer_set_frame(l, lk_rect_make(10, 20, 100, 50));
    LKT_CHECK_STATUS("S1.2 set frame", s, LK_OK);
    LKT_CHECK_RECT("S1.2 identity transform, frame reads back as set", lk_layer_get_frame(l),
                   lk_rect_make(10, 20, 100, 50), EPS);
    LKT_CHECK_POINT("S1.2 set frame, position = origin + anchorPoint * size",
                    lk_layer_get_position(l), lk_point_make(60, 45), EPS);
    LKT_CHECK_RECT("S1.2 set frame, bounds.size = frame size", lk_layer_get_bounds(l),
                   lk_rect_make(0, 0, 100, 50), EPS);
    lk_release(l);

    l = lk_layer_create();
    lk_layer_set_bounds(l, lk_rect_make(5, 7, 1, 1));
    lk_layer_set_frame(l, lk_rect_make(10, 20, 100, 50));
    LKT_CHECK_RECT("S1.2 set frame keeps bounds.origin", lk_layer_get_bounds(l),
                   lk_rect_make(5, 7, 100, 50), EPS);
    LKT_CHECK_RECT("S1.2 bounds.origin does not move the frame", lk_layer_get_frame(l),
                   lk_rect_make(10, 20, 100, 50), EPS);
    lk_release(l);

    l = lk_layer_create();
    lk_layer_set_anchor_point(l, lk_point_make(0, 0));
    lk_layer_set_frame(l, lk_rect_make(10, 20, 100, 50));
    LKT_CHECK_POINT("S1.2 anchorPoint (0,0), position is the frame's origin",
                    lk_layer_get_position(l), lk_point_make(10, 20), EPS);
    lk_layer_set_anchor_point(l, lk_point_make(1, 1));
    LKT_CHECK_RECT("S1.2 changing anchorPoint keeps position, moves the frame",
                   lk_layer_get_frame(l), lk_rect_make(-90, -30, 100, 50), EPS);
    lk_layer_set_frame(l, lk_rect_make(10, 20, 100, 50));
    LKT_CHECK_POINT("S1.2 anchorPoint (1,1), position is the frame's far corner",
                    lk_layer_get_position(l), lk_point_make(110, 70), EPS);
    lk_layer_set_anchor_point(l, lk_point_make(0.25, 0.75));
    lk_layer_set_frame(l, lk_rect_make(10, 20, 100, 50));
    LKT_CHECK_POINT("S1.2 anchorPoint (0.25,0.75), position (35, 57.5)",
                    lk_layer_get_position(l), lk_point_make(35, 57.5), EPS);
    LKT_CHECK_RECT("S1.2 anchorPoint (0.25,0.75), frame reads back", lk_layer_get_frame(l),
                   lk_rect_make(10, 20, 100, 50), EPS);
    lk_release(l);

    /* derived from bounds, anchor and position */
    l = lk_layer_create();
    lk_layer_set_bounds(l, lk_rect_make(50, 50, 100, 100));
    lk_layer_set_position(l, lk_point_make(100, 100));
    LKT_CHECK_RECT("S1.2 frame from bounds and position", lk_layer_get_frame(l),
                   lk_rect_make(50, 50, 100, 100), EPS);
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 0, 0));
    LKT_CHECK_RECT("S1.2 frame of an empty layer is its position", lk_layer_get_frame(l),
                   lk_rect_make(100, 100, 0, 0), EPS);
    lk_release(l);

    /* with a transform: the bounding box in the superlayer */
    l = lk_layer_create();
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 100, 50));
    lk_layer_set_position(l, lk_point_make(200, 100));
    lk_layer_set_transform(l, lkt_t_rotation_z(LKT_PI / 2));
    /* 100 x 50 turned a quarter about its centre: 50 x 100 about (200, 100) */
    LKT_CHECK_RECT("S1.2 frame with rotation 90 is the bounding box", lk_layer_get_frame(l),
                   lk_rect_make(175, 50, 50, 100), EPS);
    lk_layer_set_anchor_point(l, lk_point_make(0, 0));
    /* corners (0,0) (100,0) (0,50) (100,50) -> (0,0) (0,100) (-50,0) (-50,100), + (200,100) */
    LKT_CHECK_RECT("S1.2 frame with rotation 90 about anchorPoint (0,0)", lk_layer_get_frame(l),
                   lk_rect_make(150, 100, 50, 100), EPS);
    lk_layer_set_anchor_point(l, lk_point_make(0.5, 0.5));
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 100, 100));
    lk_layer_set_transform(l, lkt_t_rotation_z(LKT_PI / 4));
    LKT_CHECK_RECT("S1.2 frame with rotation 45 is the bounding box", lk_layer_get_frame(l),
                   lk_rect_make(200 - 50 * sqrt(2.0), 100 - 50 * sqrt(2.0), 100 * sqrt(2.0),
                                100 * sqrt(2.0)),
                   1e-9);
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 100, 50));
    lk_layer_set_transform(l, lkt_t_scale(2, 0.5, 1));
    LKT_CHECK_RECT("S1.2 frame with scale (2, 0.5)", lk_layer_get_frame(l),
                   lk_rect_make(100, 87.5, 200, 25), EPS);
    lk_layer_set_transform(l, lkt_t_translation(10, -5, 0));
    LKT_CHECK_RECT("S1.2 frame with a translation", lk_layer_get_frame(l),
                   lk_rect_make(160, 70, 100, 50), EPS);
    lk_layer_set_transform(l, lkt_t_rotation_y(LKT_PI / 3));
    /* flattened: x shrinks by cos 60 = 0.5 */
    LKT_CHECK_RECT("S1.2 frame with rotation 60 about y (no perspective)", lk_layer_get_frame(l),
                   lk_rect_make(175, 75, 50, 50), EPS);

    /* Setting the frame under a transform, as Core Animation does: the
       position and bounds that give that frame back (it set bounds.size to
       the frame's size whatever the transform). Anchor points other than
       the centre and a translation too. */
    const lk_rect want = lk_rect_make(10, 20, 100, 50);
    struct { const char *name; lk_transform3d t; lk_point anchor; lk_size size; } turned[] = {
        { "a turn of 90 degrees", lkt_t_rotation_z(LKT_PI / 2), { 0.5, 0.5 }, { 50, 100 } },
        { "a turn of 90 degrees about anchor (0, 1)", lkt_t_rotation_z(LKT_PI / 2), { 0, 1 }, { 50, 100 } },
        { "a turn of 180 degrees", lkt_t_rotation_z(LKT_PI), { 0.5, 0.5 }, { 100, 50 } },
        { "a scale of 2", lkt_t_scale(2, 2, 1), { 0.25, 0.75 }, { 50, 25 } },
        { "a scale of (2, 0.5) turned 270 degrees", lkt_t_mul(lkt_t_scale(2, 0.5, 1), lkt_t_rotation_z(1.5 * LKT_PI)),
          { 0.5, 0.5 }, { 25, 200 } },
        { "a translation", lkt_t_translation(5, -7, 0), { 0.5, 0.5 }, { 100, 50 } },
        { "a rotation of 60 degrees about y (flattened)", lkt_t_rotation_y(LKT_PI / 3), { 0.5, 0.5 }, { 200, 50 } },
    };
    for (size_t i = 0; i < sizeof turned / sizeof turned[0]; i++) {
        lk_layer *t = lk_layer_create();
        lk_layer_set_anchor_point(t, turned[i].anchor);
        lk_layer_set_transform(t, turned[i].t);
        lk_layer_set_frame(t, want);
        char name[160];
        snprintf(name, sizeof name, "S1.2 a frame set under %s reads back as set", turned[i].name);
        LKT_CHECK_RECT(name, lk_layer_get_frame(t), want, 1e-9);
        snprintf(name, sizeof name, "S1.2 ... its bounds are the size turned back (%s)", turned[i].name);
        LKT_CHECK_SIZE(name, lk_layer_get_bounds(t).size, turned[i].size, 1e-9);
        lk_release(t);
    }
    lk_release(l);
}

/* ---- S1.4 conversion ------------------------------------------------------- */

static void check_convert(void)
{
    lk_layer *r = lk_layer_create(), *a = lk_layer_create(), *b = lk_layer_create();
    lk_layer *c = lk_layer_create(), *d = lk_layer_create(), *other = lk_layer_create();
    lk_point p;
    lk_rect rr;

    /* R: frame (0, 0, 200, 200) in display pixels */
    lk_layer_set_bounds(r, lk_rect_make(0, 0, 200, 200));
    lk_layer_set_position(r, lk_point_make(100, 100));
    /* A: bounds origin (10, 20), anchorPoint (0, 0) at (30, 40): p -> p + (20, 20) in R */
    lk_layer_set_bounds(a, lk_rect_make(10, 20, 100, 50));
    lk_layer_set_anchor_point(a, lk_point_make(0, 0));
    lk_layer_set_position(a, lk_point_make(30, 40));
    lk_layer_add_sublayer(r, a);
    /* B in A: 40 x 40 turned +90 about its centre at (60, 45):
       q -> rotate(q - (20, 20)) + (60, 45), rotate(x, y) = (-y, x) */
    lk_layer_set_bounds(b, lk_rect_make(0, 0, 40, 40));
    lk_layer_set_position(b, lk_point_make(60, 45));
    lk_layer_set_transform(b, lkt_t_rotation_z(LKT_PI / 2));
    lk_layer_add_sublayer(a, b);
    /* C in R: 50 x 50 scaled 2 about its centre at (150, 150): c -> (c - 25) * 2 + 150 */
    lk_layer_set_bounds(c, lk_rect_make(0, 0, 50, 50));
    lk_layer_set_position(c, lk_point_make(150, 150));
    lk_layer_set_transform(c, lkt_t_scale(2, 2, 1));
    lk_layer_add_sublayer(r, c);
    /* D in R: 40 x 40 turned 45 degrees at (50, 150) */
    lk_layer_set_bounds(d, lk_rect_make(0, 0, 40, 40));
    lk_layer_set_position(d, lk_point_make(50, 150));
    lk_layer_set_transform(d, lkt_t_rotation_z(LKT_PI / 4));
    lk_layer_add_sublayer(r, d);

    p = lk_layer_convert_point(a, lk_point_make(10, 20), r);
    LKT_CHECK_POINT("S1.4 child to parent applies bounds origin, anchorPoint, position", p,
                    lk_point_make(30, 40), EPS);
    p = lk_layer_convert_point(a, lk_point_make(60, 45), r);
    LKT_CHECK_POINT("S1.4 child to parent, another point", p, lk_point_make(80, 65), EPS);
    p = lk_layer_convert_point(r, lk_point_make(30, 40), a);
    LKT_CHECK_POINT("S1.4 parent to child", p, lk_point_make(10, 20), EPS);
    p = lk_layer_convert_point(b, lk_point_make(40, 20), r);
    /* (40,20) - (20,20) = (20,0) -> (0,20) -> A (60,65) -> R (80,85) */
    LKT_CHECK_POINT("S1.4 grandchild with rotation to root", p, lk_point_make(80, 85), EPS);
    p = lk_layer_convert_point(b, lk_point_make(0, 0), r);
    /* (-20,-20) -> (20,-20) -> A (80,25) -> R (100,45) */
    LKT_CHECK_POINT("S1.4 grandchild origin to root", p, lk_point_make(100, 45), EPS);
    p = lk_layer_convert_point(r, lk_point_make(80, 85), b);
    LKT_CHECK_POINT("S1.4 root to rotated grandchild", p, lk_point_make(40, 20), EPS);
    p = lk_layer_convert_point(b, lk_point_make(40, 20), c);
    /* R (80,85) -> C: (p - 150) / 2 + 25 */
    LKT_CHECK_POINT("S1.4 between cousins (rotated to scaled)", p, lk_point_make(-10, -7.5), EPS);
    p = lk_layer_convert_point(c, lk_point_make(-10, -7.5), b);
    LKT_CHECK_POINT("S1.4 between cousins (scaled to rotated)", p, lk_point_make(40, 20), EPS);
    p = lk_layer_convert_point(c, lk_point_make(10, 20), r);
    LKT_CHECK_POINT("S1.4 scaled child to parent", p, lk_point_make(120, 140), EPS);
    p = lk_layer_convert_point(b, lk_point_make(3, 4), b);
    LKT_CHECK_POINT("S1.4 a layer to itself is the identity", p, lk_point_make(3, 4), EPS);
    /* a point whose coordinates overflow on the way (scaled 2) is said to
       (it was called "behind the viewer after perspective") */
    lkt_error_mark();
    p = lk_layer_convert_point(c, lk_point_make(1.7e308, 0), r);
    LKT_CHECK_ERROR_MESSAGE("S8.1 a point that overflows converting it says so", "overflows");
    /* NaN or infinite input is refused as such, naming the argument: a NaN
       width gave the rect of the origin with no error, and a NaN or
       infinite point was called behind the viewer */
    lkt_error_mark();
    rr = lk_layer_convert_rect(c, lk_rect_make(0, 0, NAN, 1), r);
    LKT_CHECK_ERROR_MESSAGE("S8.1 converting a rect with a NaN width is refused, naming r", "r: the rect (0, 0, nan, 1) is not finite");
    LKT_CHECK(rr.origin.x == 0 && rr.origin.y == 0 && rr.size.width == 0 && rr.size.height == 0,
              "S8.1 a refused rect conversion returns the zero rect", "(%g, %g, %g, %g)", rr.origin.x, rr.origin.y,
              rr.size.width, rr.size.height);
    lkt_error_mark();
    rr = lk_layer_convert_rect(c, lk_rect_make(0, 0, NAN, 1), c);
    LKT_CHECK_ERROR_MESSAGE("S8.1 converting a NaN rect to its own layer is refused too", "r: the rect (0, 0, nan, 1) is not finite");
    lkt_error_mark();
    p = lk_layer_convert_point(c, lk_point_make(NAN, 1), r);
    LKT_CHECK_ERROR_MESSAGE("S8.1 converting a NaN point is refused as not finite", "p: the point (nan, 1) is not finite");
    lkt_error_mark();
    p = lk_layer_convert_point(c, lk_point_make(INFINITY, 1), r);
    LKT_CHECK_ERROR_MESSAGE("S8.1 converting an infinite point is refused as not finite", "p: the point (inf, 1) is not finite");
    lkt_error_mark();
    rr = lk_layer_convert_rect(c, lk_rect_make(1e308, 0, 1e308, 1), r);
    LKT_CHECK_ERROR_MESSAGE("S8.1 a rect whose far corner overflows says so, naming r", "r: the rect");

    rr = lk_layer_convert_rect(b, lk_rect_make(0, 0, 40, 40), r);
    LKT_CHECK_RECT("S1.4 convert rect, bounding box of the rotated rect", rr,
                   lk_rect_make(60, 45, 40, 40), EPS);
    rr = lk_layer_convert_rect(d, lk_rect_make(0, 0, 40, 40), r);
    LKT_CHECK_RECT("S1.4 convert rect turned 45 degrees, bounding box", rr,
                   lk_rect_make(50 - 20 * sqrt(2.0), 150 - 20 * sqrt(2.0), 40 * sqrt(2.0),
                                40 * sqrt(2.0)),
                   1e-9);
    rr = lk_layer_convert_rect(r, lk_rect_make(30, 40, 10, 5), a);
    LKT_CHECK_RECT("S1.4 convert rect parent to child", rr, lk_rect_make(10, 20, 10, 5), EPS);

    /* NULL: the space the root is placed in (display pixels) */
    p = lk_layer_convert_point(b, lk_point_make(40, 20), NULL);
    LKT_CHECK_POINT("S1.4 to NULL is the root's superlayer space", p, lk_point_make(80, 85), EPS);
    p = lk_layer_convert_point(NULL, lk_point_make(100, 45), b);
    LKT_CHECK_POINT("S1.4 from NULL is the root's superlayer space", p, lk_point_make(0, 0), EPS);

    /* across trees: an error and the zero value */
    lkt_error_mark();
    p = lk_layer_convert_point(a, lk_point_make(1, 1), other);
    LKT_CHECK_POINT("S1.4 converting across trees returns zero", p, lk_point_make(0, 0), 0);
    LKT_CHECK_ERROR_MESSAGE("S1.4 converting across trees is an error", NULL);
    lkt_error_mark();
    rr = lk_layer_convert_rect(other, lk_rect_make(1, 1, 2, 2), b);
    LKT_CHECK_RECT("S1.4 converting a rect across trees returns zero", rr,
                   lk_rect_make(0, 0, 0, 0), 0);
    LKT_CHECK_ERROR_MESSAGE("S1.4 converting a rect across trees is an error", NULL);

    lk_release(a);
    lk_release(b);
    lk_release(c);
    lk_release(d);
    lk_release(other);
    lk_release(r);
}

static void check_convert_root_placement(void)
{
    lk_layer *root = lk_layer_create(), *e = lk_layer_create();
    lk_point p;
    /* root (0,0,100,100) at (300, 200) scaled 0.5: p -> (p - 50) * 0.5 + (300, 200) */
    lk_layer_set_bounds(root, lk_rect_make(0, 0, 100, 100));
    lk_layer_set_position(root, lk_point_make(300, 200));
    lk_layer_set_transform(root, lkt_t_scale(0.5, 0.5, 1));
    lkt_layer_place(e, 0, 0, 10, 10);
    lk_layer_add_sublayer(root, e);
    p = lk_layer_convert_point(e, lk_point_make(0, 0), NULL);
    LKT_CHECK_POINT("S1.4 to NULL applies the root's own transform and position", p,
                    lk_point_make(275, 175), EPS);
    p = lk_layer_convert_point(root, lk_point_make(100, 100), NULL);
    LKT_CHECK_POINT("S1.4 root to NULL", p, lk_point_make(325, 225), EPS);
    p = lk_layer_convert_point(NULL, lk_point_make(275, 175), e);
    LKT_CHECK_POINT("S1.4 NULL to a sublayer of a transformed root", p, lk_point_make(0, 0), EPS);
    lk_release(e);
    lk_release(root);
}

static void check_convert_sublayer_transform(void)
{
    lk_layer *r = lk_layer_create(), *f = lk_layer_create();
    lk_point p;

    /* R (0,0,200,200), anchor at (100,100); F (0,0,20,20) anchorPoint (0,0) at (110,120) */
    lk_layer_set_bounds(r, lk_rect_make(0, 0, 200, 200));
    lk_layer_set_position(r, lk_point_make(100, 100));
    lk_layer_set_bounds(f, lk_rect_make(0, 0, 20, 20));
    lk_layer_set_anchor_point(f, lk_point_make(0, 0));
    lk_layer_set_position(f, lk_point_make(110, 120));
    lk_layer_add_sublayer(r, f);

    lk_layer_set_sublayer_transform(r, lkt_t_scale(2, 2, 1));
    p = lk_layer_convert_point(f, lk_point_make(0, 0), r);
    /* (110,120) -> ((110,120) - (100,100)) * 2 + (100,100) */
    LKT_CHECK_POINT("S1.4 sublayerTransform scale about the superlayer's anchor point", p,
                    lk_point_make(120, 140), EPS);
    p = lk_layer_convert_point(r, lk_point_make(140, 160), f);
    LKT_CHECK_POINT("S1.4 sublayerTransform scale, parent to child", p, lk_point_make(10, 10),
                    EPS);
    lk_layer_set_sublayer_transform(r, lkt_t_rotation_z(LKT_PI / 2));
    p = lk_layer_convert_point(f, lk_point_make(0, 0), r);
    /* rel (10, 20) -> (-20, 10) -> (80, 110) */
    LKT_CHECK_POINT("S1.4 sublayerTransform rotation about the superlayer's anchor point", p,
                    lk_point_make(80, 110), EPS);
    lk_layer_set_sublayer_transform(r, lkt_t_translation(5, 7, 0));
    p = lk_layer_convert_point(f, lk_point_make(0, 0), r);
    LKT_CHECK_POINT("S1.4 sublayerTransform translation", p, lk_point_make(115, 127), EPS);

    /* anchorPoint (0,0): the pivot is the top left corner */
    lk_layer_set_anchor_point(r, lk_point_make(0, 0));
    lk_layer_set_position(r, lk_point_make(0, 0));
    lk_layer_set_sublayer_transform(r, lkt_t_scale(2, 2, 1));
    p = lk_layer_convert_point(f, lk_point_make(0, 0), r);
    LKT_CHECK_POINT("S1.4 sublayerTransform about anchorPoint (0,0)", p, lk_point_make(220, 240),
                    EPS);

    /* bounds origin and sublayerTransform: R bounds (20,10,100,100) at (70,70),
       pivot (20,10) + (50,50) = (70,60); F at (20,10): (20-70, 10-60) * 0.5 + (70,60)
       = (45,35); to display: p - (20,10) - (50,50) + (70,70) = (45,45) */
    lk_layer_set_anchor_point(r, lk_point_make(0.5, 0.5));
    lk_layer_set_bounds(r, lk_rect_make(20, 10, 100, 100));
    lk_layer_set_position(r, lk_point_make(70, 70));
    lk_layer_set_sublayer_transform(r, lkt_t_scale(0.5, 0.5, 1));
    lk_layer_set_position(f, lk_point_make(20, 10));
    p = lk_layer_convert_point(f, lk_point_make(0, 0), r);
    LKT_CHECK_POINT("S1.4 sublayerTransform pivot includes the bounds origin", p,
                    lk_point_make(45, 35), EPS);
    p = lk_layer_convert_point(f, lk_point_make(0, 0), NULL);
    LKT_CHECK_POINT("S1.4 bounds origin, sublayerTransform, then the root's placement", p,
                    lk_point_make(45, 45), EPS);
    lk_release(f);
    lk_release(r);
}

/* S1.4 with S6.3: perspective in the superlayer's sublayerTransform. */
static void check_convert_perspective(void)
{
    lk_layer *r = lk_layer_create(), *h = lk_layer_create();
    lk_transform3d m;
    lk_point p;
    double x, y;

    lk_layer_set_bounds(r, lk_rect_make(0, 0, 300, 300));
    lk_layer_set_position(r, lk_point_make(150, 150));
    lk_layer_set_sublayer_transform(r, lkt_t_perspective(500));
    lk_layer_set_bounds(h, lk_rect_make(0, 0, 100, 100));
    lk_layer_set_position(h, lk_point_make(150, 150));
    lk_layer_set_transform(h, lkt_t_rotation_y(LKT_PI / 3));
    lk_layer_add_sublayer(r, h);

    /* H -> R: -(50,50), rotate about y, +(150,150), then -(150,150),
       perspective, /w, +(150,150) */
    m = lkt_t_mul(lkt_t_translation(-50, -50, 0), lkt_t_rotation_y(LKT_PI / 3));
    m = lkt_t_mul(m, lkt_t_perspective(500));
    m = lkt_t_mul(m, lkt_t_translation(150, 150, 0));
    lkt_t_apply(m, 100, 50, 0, &x, &y, NULL); /* (173.007, 150) */
    p = lk_layer_convert_point(h, lk_point_make(100, 50), r);
    LKT_CHECK_POINT("S1.4 perspective, point projected into the superlayer", p,
                    lk_point_make(x, y), 1e-6);
    lkt_t_apply(m, 0, 0, 0, &x, &y, NULL); /* (122.63, 95.26) */
    p = lk_layer_convert_point(h, lk_point_make(0, 0), r);
    LKT_CHECK_POINT("S1.4 perspective, near corner projected larger", p, lk_point_make(x, y),
                    1e-6);
    p = lk_layer_convert_point(r, lk_point_make(x, y), h);
    LKT_CHECK_POINT("S1.4 perspective, superlayer point back onto the layer's plane", p,
                    lk_point_make(0, 0), 1e-6);
    lk_release(h);
    lk_release(r);
}

/* S1.4: only the transforms on the way between the two layers count: an
   ancestor above both scaled to nothing (a shrink animation's end) leaves
   them convertible. (Converted through the root's space, the singular
   root made every conversion fail, blaming `to`.) */
static void check_convert_under_singular_ancestor(void)
{
    lk_layer *root = lk_layer_create(), *a = lk_layer_create(), *b = lk_layer_create();
    lk_point p;
    lk_rect r;
    lk_layer_set_frame(root, lk_rect_make(0, 0, 200, 200));
    lk_layer_set_frame(a, lk_rect_make(0, 0, 100, 100));
    lk_layer_set_frame(b, lk_rect_make(50, 50, 10, 10));
    lk_layer_add_sublayer(root, a);
    lk_layer_add_sublayer(a, b);
    lk_layer_set_transform(root, lk_transform3d_make_scale(0, 0, 1));
    lkt_error_mark();
    p = lk_layer_convert_point(b, lk_point_make(1, 1), a);
    LKT_CHECK_POINT("S1.4 a sublayer's point into its superlayer under a root scaled to 0", p,
                    lk_point_make(51, 51), EPS);
    LKT_CHECK(lkt_error_since_mark() == NULL, "S1.4 that conversion sets no error", "%s", lk_last_error());
    p = lk_layer_convert_point(a, lk_point_make(51, 51), b);
    LKT_CHECK_POINT("S1.4 and back, under the same root", p, lk_point_make(1, 1), EPS);
    r = lk_layer_convert_rect(b, lk_rect_make(0, 0, 10, 10), a);
    LKT_CHECK_RECT("S1.4 a rect into the superlayer under a root scaled to 0", r, lk_rect_make(50, 50, 10, 10), EPS);
    p = lk_layer_convert_point(b, lk_point_make(1, 1), root);
    LKT_CHECK_POINT("S1.4 into the singular root itself: its own transform is not on the way", p,
                    lk_point_make(51, 51), EPS);
    /* what is on the way still counts: a scaled to 0 has no area in root */
    lk_layer_set_transform(root, lk_transform3d_identity());
    lk_layer_set_transform(a, lk_transform3d_make_scale(0, 0, 1));
    lkt_error_mark();
    p = lk_layer_convert_point(root, lk_point_make(10, 10), b);
    LKT_CHECK(lkt_error_since_mark() && lkt_mentions(lkt_error_since_mark(), "to") &&
                  strstr(lkt_error_since_mark(), "singular"),
              "S1.4 S8.1 into a layer below a singular ancestor on the way: an error naming to", "%s",
              lk_last_error());
    lk_release(b);
    lk_release(a);
    lk_release(root);
}

/* S8.1: a frame whose position overflows (an origin near the largest
   double plus half its width) is refused naming frame, and changes
   nothing (the new bounds stayed, and position was blamed). */
static void check_frame_overflow(void)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 10, 10));
    lk_layer_set_position(l, lk_point_make(5, 5));
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a frame whose position overflows is refused, naming frame",
                    lk_layer_set_frame(l, lk_rect_make(1.5e308, 0, 1e308, 10)), LK_ERROR_INVALID_ARGUMENT, "frame");
    LKT_CHECK_RECT("S8.1 ... and the bounds are unchanged", lk_layer_get_bounds(l), lk_rect_make(0, 0, 10, 10), 0);
    LKT_CHECK_POINT("S8.1 ... and the position", lk_layer_get_position(l), lk_point_make(5, 5), 0);
    lk_release(l);
}

/* ---- extreme transforms, drawn ------------------------------------------- */

#define XW 160
#define XH 120

/* Output pixels that are not `want` (channels within 1); a layer's side of
   the line through (px, py) along angle + 90 degrees only when `side` is set:
   pixels whose centres are more than 1.5 from it, on the layer's side the
   colour, on the other the black root (antialiased edge pixels skipped). */
static int wrong_pixels(const uint8_t *rgba, const uint8_t want[3], int side, double px, double py, double angle)
{
    int wrong = 0;
    for (int y = 0; y < XH; y++)
        for (int x = 0; x < XW; x++) {
            const uint8_t *p = rgba + ((size_t)y * XW + (size_t)x) * 4;
            const uint8_t black[3] = { 0, 0, 0 };
            const uint8_t *expect = want;
            if (side) {
                double d = (x + 0.5 - px) * cos(angle) + (y + 0.5 - py) * sin(angle);
                if (fabs(d) <= 1.5) continue;
                if (d < 0) expect = black;
            }
            if (abs(p[0] - expect[0]) > 1 || abs(p[1] - expect[1]) > 1 || abs(p[2] - expect[2]) > 1) wrong++;
        }
    return wrong;
}

/* S6.1, S8.1: a layer turned by 30 degrees and scaled by s covers the whole
   output with its background colour for any s whose transform is finite.
   At 1e18 and beyond the software backend left about a fifth of the frame
   unpainted (its clipping of the quad to the output rounded at coordinates
   near 1e22, where a double's step is millions of pixels); the core now
   cuts such fills to a band around the output (docs/rendering.md, Extreme
   transforms). A scale of 1e300 draws the same; one whose world transform
   overflows (1e308) draws nothing, and no frame fails or hangs. A layer
   whose edge crosses the output at scale 1e9 keeps that edge where it is.
   Tolerance: 1 per channel; pixels within 1.5 of the crossing edge are not
   checked. On the backend the run uses ($LKTEST_BACKEND). */
static void check_extreme_transforms_drawn(void)
{
    static const double scales[] = { 1e6, 1e12, 1e21, 1e30, 1e300 };
    const double angle = 30 * LKT_PI / 180;
    const uint8_t orange[3] = { 255, 128, 0 };
    lk_display *display = lkt_open_display(XW, XH, "a display for extreme transforms");
    if (!display) return;
    lk_layer *root = lk_layer_create(), *l = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, XW, XH));
    lk_layer_set_background_color(root, lk_color_make(0, 0, 0, 1));
    lk_layer_set_frame(l, lk_rect_make(40, 30, 80, 60));
    lk_layer_set_background_color(l, lk_color_make(1, 0.5, 0, 1));
    lk_layer_add_sublayer(root, l);
    lk_display_set_root_layer(display, root);
    lk_transaction_set_disable_actions(true);
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
        lk_layer_set_transform(l, lk_transform3d_scale(lk_transform3d_make_rotation(angle, 0, 0, 1), scales[i], scales[i], 1));
        uint8_t *px = lkt_render_and_read(display, "an extreme transform's frame");
        if (!px) continue;
        int wrong = wrong_pixels(px, orange, 0, 0, 0, 0);
        char name[96];
        snprintf(name, sizeof name, "S6.1 a layer turned 30 degrees and scaled by %g covers the whole output", scales[i]);
        LKT_CHECK(wrong == 0, name,
                  "%d of %d pixels are not (255, 128, 0)", wrong, XW * XH);
        free(px);
    }
    lk_layer_set_transform(l, lk_transform3d_scale(lk_transform3d_make_rotation(angle, 0, 0, 1), 1e308, 1e308, 1));
    lk_status s = lk_display_render_frame_at(display, 1e4);
    uint8_t *px = lkt_render_and_read(display, "an overflowing transform's frame");
    if (px) {
        const uint8_t black[3] = { 0, 0, 0 };
        int wrong = wrong_pixels(px, black, 0, 0, 0, 0);
        LKT_CHECK(s == LK_OK && wrong == 0, "S8.1 a scale of 1e308 (the world transform overflows) draws nothing",
                  "%s, %d pixels not black", lkt_status_name(s), wrong);
        free(px);
    }
    /* the left edge through the position, turned 30 degrees */
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 80, 60));
    lk_layer_set_anchor_point(l, lk_point_make(0, 0.5));
    lk_layer_set_position(l, lk_point_make(80.3, 60.2));
    lk_layer_set_transform(l, lk_transform3d_scale(lk_transform3d_make_rotation(angle, 0, 0, 1), 1e9, 1e9, 1));
    px = lkt_render_and_read(display, "a huge layer's edge");
    if (px) {
        int wrong = wrong_pixels(px, orange, 1, 80.3, 60.2, angle);
        LKT_CHECK(wrong == 0, "S6.1 a layer scaled by 1e9 whose edge crosses the output keeps the edge in place",
                  "%d pixels on the wrong side", wrong);
        free(px);
    }
    lk_display_close(display);
    lk_release(l);
    lk_release(root);
}

int main(void)
{
    check_frame();
    check_convert();
    check_convert_root_placement();
    check_convert_sublayer_transform();
    check_convert_perspective();
    check_convert_under_singular_ancestor();
    check_frame_overflow();
    check_extreme_transforms_drawn();
    return lkt_finish();
}
