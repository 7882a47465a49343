/*
 * S1.5 hit testing in shared 3D space (S6.3, S7.6, S7.5): under a
 * transform layer (or a preservesDepth replicator) a point hits the layer
 * nearest the viewer at that point, each layer reached by unprojecting the
 * point onto its plane through its whole 3D map, perspective included; a
 * single-sided layer turned away is not hit, as it is not drawn (S6.1).
 * Expected answers come from the test's own projection (support/lkt_quads.c,
 * 4x4 row-vector arithmetic); sample points within 1.5 px of a projected
 * edge are not checked.
 */
#include "lktest.h"
#include "lkt_quads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const lk_point center = {0.5, 0.5};

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
    LKT_CHECK(got == want, check, "hit test at (%g, %g) gave %s, expected %s", x, y, who(got), who(want));
}

static lk_layer *layer_in(lk_layer *parent, lk_layer *l, const char *name, lk_rect bounds, lk_point position,
                          lk_transform3d t)
{
    lk_layer_set_name(l, name);
    lk_layer_set_bounds(l, bounds);
    lk_layer_set_position(l, position);
    lk_layer_set_transform(l, t);
    if (parent) {
        lk_layer_add_sublayer(parent, l);
        lk_release(l);
    }
    return l;
}

static lk_layer *root_with(double w, double h, lk_transform3d sub)
{
    lk_layer *root = layer_in(NULL, lk_layer_create(), "root", lk_rect_make(0, 0, w, h),
                              lk_point_make(w / 2, h / 2), lkt_t_identity());
    lk_layer_set_sublayer_transform(root, sub);
    return root;
}

static lk_transform3d into_root(double w, double h, double d)
{
    lk_rect b = lk_rect_make(0, 0, w, h);
    return lkt_t_mul(lkt_quads_sublayer_matrix(b, center, lkt_t_perspective(d)),
                     lkt_quads_layer_matrix(b, center, lk_point_make(w / 2, h / 2), lkt_t_identity()));
}

static double quad_area(const lkt_quad *q)
{
    double a = 0;
    int i;
    for (i = 0; i < 4; i++) a += q->x[i] * q->y[(i + 1) % 4] - q->x[(i + 1) % 4] * q->y[i];
    return a / 2;
}

/* ---- the cube ------------------------------------------------------------ */

#define SIDE 100.0
#define CS 240.0
#define CUBE_D 400.0

static lk_transform3d face_transform(int i)
{
    double h = SIDE / 2;
    switch (i) {
    case 0: return lkt_t_translation(0, 0, h);
    case 1: return lkt_t_mul(lkt_t_rotation_y(LKT_PI), lkt_t_translation(0, 0, -h));
    case 2: return lkt_t_mul(lkt_t_rotation_y(LKT_PI / 2), lkt_t_translation(h, 0, 0));
    case 3: return lkt_t_mul(lkt_t_rotation_y(-LKT_PI / 2), lkt_t_translation(-h, 0, 0));
    case 4: return lkt_t_mul(lkt_t_rotation_x(LKT_PI / 2), lkt_t_translation(0, -h, 0));
    default: return lkt_t_mul(lkt_t_rotation_x(-LKT_PI / 2), lkt_t_translation(0, h, 0));
    }
}

static const char *const face_names[6] = {"front", "back", "right", "left", "top", "bottom"};

/* S1.5, S6.3, S7.6: the cube of test_transform_layer.c (six faces under a
   transform layer turned by `turn`, perspective 1/400 on the root), hit
   tested every 3 px over the display: each point inside the projection of
   a face turned towards the viewer hits that face (the front faces of a
   convex solid never overlap), every point outside the cube hits the root.
   Flattened, the faces would collapse into the transform layer's plane and
   the last one added there (the back face) would be hit. Also through a
   presentation copy while an animation turns the cube. */
static void check_cube(double turn_y, double turn_x, int single_sided, int animated)
{
    char name[200];
    lk_transform3d turn = lkt_t_mul(lkt_t_rotation_y(turn_y * LKT_PI / 180), lkt_t_rotation_x(turn_x * LKT_PI / 180));
    lk_rect b = lk_rect_make(0, 0, SIDE, SIDE);
    lk_layer *root, *cube, *faces[6], *tree;
    lkt_quad quads[6];
    int visible[6], i, wrong = 0, checked = 0, hits[6] = {0};
    double x, y;
    char first[200] = "";
    lk_transform3d cube_m = lkt_t_mul(lkt_quads_layer_matrix(b, center, lk_point_make(CS / 2, CS / 2), turn),
                                      into_root(CS, CS, CUBE_D));
    snprintf(name, sizeof name, "S1.5 S6.3 S7.6 %scube turned %g about y, %g about x: each point hits the face %s",
             single_sided ? "single-sided " : "", turn_y, turn_x,
             animated ? "shown there (presentation copy, mid-animation)" : "shown there");
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with(CS, CS, lkt_t_perspective(CUBE_D));
    cube = layer_in(root, lk_transform_layer_create(), "cube", b, lk_point_make(CS / 2, CS / 2),
                    animated ? lkt_t_identity() : turn);
    for (i = 0; i < 6; i++) {
        lkt_expectation e;
        faces[i] = layer_in(cube, lk_layer_create(), face_names[i], b, lk_point_make(SIDE / 2, SIDE / 2),
                            face_transform(i));
        lk_layer_set_double_sided(faces[i], !single_sided);
        e.count = 0;
        lkt_quads_add_quad(&e, lkt_t_mul(lkt_quads_layer_matrix(b, center, lk_point_make(SIDE / 2, SIDE / 2),
                                                                face_transform(i)), cube_m),
                           b, lk_color_make(1, 1, 1, 1));
        quads[i] = e.quads[0];
        visible[i] = quad_area(&quads[i]) > 1;
    }
    lk_transaction_commit();
    tree = root;
    if (animated) {
        /* the model stays unturned; an animation holds the cube at `turn`,
           so only the presentation copy shows it turned */
        lk_animation *a = lk_basic_animation_create("transform");
        double t0 = lk_media_time();
        lk_animation_set_from_value(a, lk_value_transform(turn));
        lk_animation_set_to_value(a, lk_value_transform(turn));
        lk_animation_set_duration(a, 10);
        lk_animation_set_begin_time(a, t0);
        lk_layer_add_animation(cube, a, "turn");
        lk_release(a);
        lk_transaction_flush();
        tree = lk_layer_copy_presentation_at(root, t0 + 1);
        LKT_CHECK(tree != NULL, "S5.1 the committed tree has a presentation copy", "%s", lk_last_error());
        if (!tree) {
            lk_release(root);
            return;
        }
    }
    for (y = 1.5; y < CS; y += 3) {
        for (x = 1.5; x < CS; x += 3) {
            int want = -1, ambiguous = 0;
            lk_layer *got, *model;
            for (i = 0; i < 6; i++) {
                double m;
                if (!visible[i]) continue;
                m = lkt_quads_inside_margin(&quads[i], x, y);
                if (m > 1.5) want = i;
                else if (m > -1.5) ambiguous = 1;
            }
            if (ambiguous) continue;
            checked++;
            got = lk_layer_hit_test(tree, lk_point_make(x, y));
            model = got ? lk_layer_get_model_layer(got) : NULL;
            if (want >= 0) hits[want]++;
            if (model != (want >= 0 ? faces[want] : root)) {
                if (!wrong)
                    snprintf(first, sizeof first, "first at (%g, %g): %s, expected %s", x, y, who(model),
                             want >= 0 ? face_names[want] : "root");
                wrong++;
            }
        }
    }
    {
        int shown = 0;
        for (i = 0; i < 6; i++) shown += hits[i] > 0;
        LKT_CHECK(wrong == 0 && shown == 3, name, "%d of %d points wrong (%s); %d faces hit", wrong, checked, first,
                  shown);
    }
    if (tree != root) lk_release(tree);
    lk_release(root);
}

/* ---- single-sided layers turned away ---------------------------------- */

/* S1.5, S6.1: a layer turned half a turn about y, in front of another
   layer, is culled when single-sided: the point goes through it to the
   one behind; double-sided it is hit. Under a transform layer (3D space)
   and under a plain layer (flattened). */
static void check_back_faces(int shared, int double_sided)
{
    char name[200];
    lk_rect b = lk_rect_make(0, 0, 80, 80);
    lk_layer *root, *space, *behind, *turned;
    snprintf(name, sizeof name, "S1.5 S6.1 %s: a %s layer turned away in front is %s", shared
             ? "under a transform layer" : "under a plain layer", double_sided ? "double-sided" : "single-sided",
             double_sided ? "hit" : "not hit, the layer behind is");
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with(200, 200, lkt_t_perspective(400));
    space = layer_in(root, shared ? lk_transform_layer_create() : lk_layer_create(), "space", lk_rect_make(0, 0, 200, 200),
                     lk_point_make(100, 100), lkt_t_identity());
    behind = layer_in(space, lk_layer_create(), "behind", b, lk_point_make(100, 100), lkt_t_translation(0, 0, -50));
    turned = layer_in(space, lk_layer_create(), "turned", b, lk_point_make(100, 100),
                      lkt_t_mul(lkt_t_rotation_y(LKT_PI), lkt_t_translation(0, 0, 50)));
    lk_layer_set_double_sided(turned, double_sided);
    lk_transaction_commit();
    expect_hit(root, 100, 100, double_sided ? turned : behind, name);
    /* turned back (a whole turn) a single-sided layer is hit again */
    if (!double_sided) {
        lk_layer_set_transform(turned, lkt_t_mul(lkt_t_rotation_y(2 * LKT_PI), lkt_t_translation(0, 0, 50)));
        expect_hit(root, 100, 100, turned, "S1.5 S6.1 the same single-sided layer facing the viewer is hit");
    }
    lk_release(root);
}

/* S1.5, S6.1: a single-sided layer in a superlayer turned half a turn about
   y faces away on screen, whatever its own transform: not hit, also when
   hit testing starts at it (the point then in its superlayer's
   coordinates); turned back with its superlayer it is hit. */
static void check_back_face_through_superlayer(void)
{
    lk_layer *root, *turned, *card;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with(200, 200, lkt_t_identity());
    turned = layer_in(root, lk_layer_create(), "turned", lk_rect_make(0, 0, 100, 100), lk_point_make(100, 100),
                      lkt_t_rotation_y(LKT_PI));
    card = layer_in(turned, lk_layer_create(), "card", lk_rect_make(0, 0, 40, 40), lk_point_make(50, 50),
                    lkt_t_identity());
    lk_layer_set_double_sided(card, false);
    lk_transaction_commit();
    expect_hit(root, 100, 100, turned, "S1.5 S6.1 a single-sided layer turned away with its superlayer is not hit");
    expect_hit(card, 50, 50, NULL,
               "S1.5 S6.1 nor when hit testing starts at it: its superlayer's plane is seen from behind");
    lk_layer_set_transform(turned, lkt_t_identity());
    expect_hit(card, 50, 50, card, "S1.5 S6.1 facing the viewer again, it is hit");
    lk_release(root);
}

/* ---- depth and perspective ---------------------------------------------- */

/* S1.5, S6.3: the scene of test_transform_layer.c's shared-versus-flattened
   check. Groups A and B (B at zPosition 10) each hold a card; A's red card
   is at zPosition 100. Under transform layers the red card is 110 nearer:
   it wins where the cards overlap and is hit where perspective enlarged it
   beyond its 80 x 80. Under plain layers the cards are flat, B is over A:
   the overlap hits blue and the enlarged area misses red. */
static void check_nearer_card(int shared)
{
    lk_rect gb = lk_rect_make(0, 0, 200, 160), cb = lk_rect_make(0, 0, 80, 80);
    lk_point gp = lk_point_make(150, 100), sub = lk_point_make(100, 80);
    lk_layer *root, *c, *a, *b, *red, *blue;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with(300, 200, lkt_t_perspective(400));
    c = layer_in(root, shared ? lk_transform_layer_create() : lk_layer_create(), "C", gb, gp, lkt_t_identity());
    a = layer_in(c, shared ? lk_transform_layer_create() : lk_layer_create(), "A", gb, sub, lkt_t_identity());
    b = layer_in(c, shared ? lk_transform_layer_create() : lk_layer_create(), "B", gb, sub, lkt_t_identity());
    lk_layer_set_z_position(b, 10);
    red = layer_in(a, lk_layer_create(), "red", cb, lk_point_make(80, 70), lkt_t_identity());
    lk_layer_set_z_position(red, 100);
    blue = layer_in(b, lk_layer_create(), "blue", cb, lk_point_make(120, 90), lkt_t_identity());
    lk_transaction_commit();
    /* C's coordinates are the root's less (50, 20); the flat cards
       overlap from (130, 70) to (170, 130) on the root */
    if (shared) {
        lk_transform3d red_m = lkt_t_mul(lkt_t_mul(lkt_quads_layer_matrix(cb, center, lk_point_make(80, 70),
                                                                          lkt_t_translation(0, 0, 100)),
                                                   lkt_t_mul(lkt_quads_layer_matrix(gb, center, sub, lkt_t_identity()),
                                                             lkt_quads_layer_matrix(gb, center, gp, lkt_t_identity()))),
                                         into_root(300, 200, 400));
        double lx, ly;
        lkt_t_apply(red_m, 0, 0, 0, &lx, &ly, NULL);
        expect_hit(root, 155, 95, red, "S1.5 S6.3 under transform layers the nearer card wins the overlap");
        /* just inside the red card's projected top left corner; its flat
           square spans (90, 50) to (170, 130) on the root */
        LKT_CHECK(lx < 105 && ly < 85, "S6.3 (the test's own projection) the near card is enlarged", "corner (%g, %g)",
                  lx, ly);
        expect_hit(root, lx + 2, ly + 2, red, "S1.5 S6.3 the near card is hit where perspective enlarged it");
        expect_hit(root, lx - 2, ly - 2, root, "S1.5 S6.3 and missed just outside it");
        expect_hit(root, 80, 45, red, "S1.5 S6.3 the enlarged near card is hit outside its flat square");
    } else {
        expect_hit(root, 155, 95, blue, "S1.5 S6.3 under plain layers the later group's card wins the overlap");
        expect_hit(root, 80, 45, b, "S1.5 S6.3 flattened, the card is not enlarged (group B, on top, is hit)");
    }
    lk_release(root);
}

/* S1.5, S6.3: two layers that cut through each other (one turned 60
   degrees about y through the other's centre line): on each side of the
   line where they meet, the one nearer at that point is hit. */
static void check_crossing(void)
{
    lk_rect b = lk_rect_make(0, 0, 100, 60);
    lk_layer *root, *t, *flat, *slanted;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with(200, 200, lkt_t_perspective(500));
    t = layer_in(root, lk_transform_layer_create(), "space", lk_rect_make(0, 0, 200, 200), lk_point_make(100, 100),
                 lkt_t_identity());
    slanted = layer_in(t, lk_layer_create(), "slanted", b, lk_point_make(100, 100), lkt_t_rotation_y(LKT_PI / 3));
    flat = layer_in(t, lk_layer_create(), "flat", b, lk_point_make(100, 100), lkt_t_identity());
    lk_transaction_commit();
    /* rotation_y(60): m13 = -sin 60, so the slanted layer's left half
       (x < 0 about its centre) comes forward: z = -x sin 60 > 0 */
    expect_hit(root, 85, 100, slanted, "S1.5 S6.3 crossing layers: left of the crossing the slanted one is nearer");
    expect_hit(root, 115, 100, flat, "S1.5 S6.3 crossing layers: right of it the flat one is nearer");
    lk_release(root);
}

/* ---- replicator with preservesDepth ---------------------------------- */

/* S1.5, S7.5: a card at zPosition 100 in a preservesDepth replicator under
   perspective 1/400 is drawn enlarged (400 / 300) and is hit there; without
   preservesDepth it is flat and the same point hits the replicator.
   Instances after the first are not layers: a point only instance 1 covers
   hits the replicator itself. */
static void check_replicator(int preserves)
{
    lk_rect rb = lk_rect_make(0, 0, 300, 200), cb = lk_rect_make(0, 0, 60, 60);
    lk_layer *root, *r, *card;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with(300, 200, lkt_t_perspective(400));
    r = layer_in(root, lk_replicator_layer_create(), "replicator", rb, lk_point_make(150, 100), lkt_t_identity());
    lk_replicator_layer_set_instance_count(r, 2);
    lk_replicator_layer_set_instance_transform(r, lkt_t_translation(0, 70, 0));
    lk_replicator_layer_set_preserves_depth(r, preserves);
    card = layer_in(r, lk_layer_create(), "card", cb, lk_point_make(150, 50), lkt_t_identity());
    lk_layer_set_z_position(card, 100);
    lk_transaction_commit();
    /* the card spans (120, 20) to (180, 80) flat; enlarged about the
       centre (150, 100) by 4/3: (110, -6.7) to (190, 73.3). Instance 1 is
       70 lower: y 90...150 flat, 86.7...166.7 enlarged */
    if (preserves) {
        expect_hit(root, 115, 40, card, "S1.5 S7.5 preservesDepth: the card is hit where perspective enlarged it");
        expect_hit(root, 150, 140, r, "S1.5 S7.5 preservesDepth: instance 1 is not a layer, the replicator is hit");
    } else {
        expect_hit(root, 115, 40, r, "S1.5 S7.5 without preservesDepth the card is flat: the replicator is hit");
        expect_hit(root, 125, 25, card, "S1.5 S7.5 without preservesDepth the flat card is hit in its square");
    }
    lk_release(root);
}

int main(void)
{
    check_cube(30, 20, 0, 0);
    check_cube(-50, 35, 0, 0);
    check_cube(135, -25, 0, 0);
    check_cube(200, 60, 1, 0);
    check_cube(-160, -40, 1, 0);
    check_cube(75, 15, 0, 1);
    check_back_faces(1, 0);
    check_back_faces(1, 1);
    check_back_faces(0, 0);
    check_back_faces(0, 1);
    check_back_face_through_superlayer();
    check_nearer_card(0);
    check_nearer_card(1);
    check_crossing();
    check_replicator(0);
    check_replicator(1);
    return lkt_finish();
}
