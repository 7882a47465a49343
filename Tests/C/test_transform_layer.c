/*
 * S6.3, S7.6 the transform layer: its sublayers share one 3D space and are
 * drawn back to front by depth; a plain layer flattens instead. Checked
 * analytically, as test_render_3d.c does (cairo has no projective
 * transform): the test projects every face with its own 4x4 row-vector
 * arithmetic (support/lktest.c) and checks each pixel whose centre is at
 * least 1.5 px inside or outside the projected quads. Tolerance: every
 * channel within 3 (colour rounding); pixels within 1.5 px of a projected
 * edge are not checked.
 */
#include "lktest.h"
#include "lkt_quads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lk_layer *layer_in(lk_layer *parent, lk_layer *l, lk_rect bounds, lk_point position, lk_transform3d t)
{
    lk_layer_set_bounds(l, bounds);
    lk_layer_set_position(l, position);
    lk_layer_set_transform(l, t);
    if (parent) {
        lk_layer_add_sublayer(parent, l);
        lk_release(l);
    }
    return l;
}

static lk_layer *root_layer(uint32_t w, uint32_t h, lk_color bg, lk_transform3d sub)
{
    lk_layer *root = layer_in(NULL, lk_layer_create(), lk_rect_make(0, 0, w, h),
                              lk_point_make(w / 2.0, h / 2.0), lkt_t_identity());
    lk_layer_set_background_color(root, bg);
    lk_layer_set_sublayer_transform(root, sub);
    return root;
}

static lk_transform3d root_matrix(uint32_t w, uint32_t h)
{
    return lkt_quads_layer_matrix(lk_rect_make(0, 0, w, h), lk_point_make(0.5, 0.5),
                        lk_point_make(w / 2.0, h / 2.0), lkt_t_identity());
}

/* Signed area of a projected quad: its sign says which way it faces. */
static double quad_area(const lkt_quad *q)
{
    double a = 0;
    int i;
    for (i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        a += q->x[i] * q->y[j] - q->x[j] * q->y[i];
    }
    return a / 2;
}

/* Renders the display's root, checks the frame against `e`, then releases
   the root and closes the display. */
static void check_frame_and_close(lk_display *d, lk_layer *root, const char *name, const char *stem, uint32_t w,
                                  uint32_t h, const lkt_expectation *e)
{
    uint8_t *px = lkt_render_and_read(d, name);
    if (px) {
        lkt_check_quads(name, stem, px, w, h, e);
        free(px);
    }
    lk_release(root);
    lk_display_close(d);
}

/* ---- the cube ------------------------------------------------------------ */

#define SIDE 100.0
#define CW 240
#define CH 240
#define CUBE_D 400.0

/* Face i's transform about its centre: turned to face outwards, pushed out
   by half the side. Outward normals: +z (front), -z (back), +x, -x, -y
   (top: y grows downwards), +y. */
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

static lk_color face_color(int i)
{
    static const double c[6][3] = {{0.9, 0.2, 0.2}, {0.2, 0.8, 0.3}, {0.2, 0.3, 0.9},
                                   {0.95, 0.85, 0.2}, {0.8, 0.3, 0.8}, {0.2, 0.8, 0.85}};
    return lk_color_make(c[i][0], c[i][1], c[i][2], 1);
}

/* The cube: a transform layer in the middle of a root with perspective
   (m34 = -1/400), its six faces as sublayers; `turn` is the transform
   layer's own transform, `tilt` its sublayerTransform. The transform
   layer's own background and border must not show. */
static lk_layer *cube_scene(lk_layer **cube_out, lk_transform3d turn, lk_transform3d tilt, bool double_sided)
{
    lk_layer *root = root_layer(CW, CH, lk_color_make(0.1, 0.1, 0.1, 1), lkt_t_perspective(CUBE_D));
    lk_layer *cube = layer_in(root, lk_transform_layer_create(), lk_rect_make(0, 0, SIDE, SIDE),
                              lk_point_make(CW / 2.0, CH / 2.0), turn);
    int i;
    lk_layer_set_sublayer_transform(cube, tilt);
    lk_layer_set_background_color(cube, lk_color_make(1, 1, 1, 1));
    lk_layer_set_border_width(cube, 4);
    lk_layer_set_border_color(cube, lk_color_make(1, 1, 1, 1));
    for (i = 0; i < 6; i++) {
        lk_layer *f = layer_in(cube, lk_layer_create(), lk_rect_make(0, 0, SIDE, SIDE),
                               lk_point_make(SIDE / 2, SIDE / 2), face_transform(i));
        lk_layer_set_background_color(f, face_color(i));
        lk_layer_set_double_sided(f, double_sided);
    }
    if (cube_out) *cube_out = cube;
    return root;
}

/* What the cube must look like: the faces turned towards the viewer (a
   convex solid's front faces never overlap), each in its colour; every
   other pixel the root's. Face i maps by its own matrix, the cube's
   sublayerTransform about its centre and the cube's matrix, all in 3D,
   then the root's perspective: nothing is flattened on the way. Returns
   how many faces are visible. */
static int cube_expectation(lkt_expectation *e, lk_transform3d turn, lk_transform3d tilt)
{
    lk_rect b = lk_rect_make(0, 0, SIDE, SIDE);
    lk_point center = lk_point_make(0.5, 0.5);
    lk_transform3d to_root = lkt_t_mul(lkt_quads_sublayer_matrix(lk_rect_make(0, 0, CW, CH), center, lkt_t_perspective(CUBE_D)),
                                       root_matrix(CW, CH));
    lk_transform3d cube = lkt_t_mul(lkt_t_mul(lkt_quads_sublayer_matrix(b, center, tilt),
                                              lkt_quads_layer_matrix(b, center, lk_point_make(CW / 2.0, CH / 2.0), turn)),
                                    to_root);
    int i, visible = 0;
    memset(e, 0, sizeof *e);
    e->background[0] = e->background[1] = e->background[2] = lkt_quads_to8(0.1);
    for (i = 0; i < 6; i++) {
        lk_transform3d m = lkt_t_mul(lkt_quads_layer_matrix(b, center, lk_point_make(SIDE / 2, SIDE / 2), face_transform(i)),
                                     cube);
        lkt_quads_add_quad(e, m, b, face_color(i));
        /* an unturned layer's lkt_quad has positive area (y down); a face
           turned away has negative, and a face seen edge-on none */
        if (quad_area(&e->quads[e->count - 1]) > 1) visible++;
        else e->count--;
    }
    return visible;
}

/* S6.3, S7.6: the cube at several turns about y and x shows the faces
   that face the viewer, each where the projection puts it. The faces are
   added front, back, right, left, top, bottom: at every turn some face
   turned away comes after one facing the viewer, so drawing in sublayer
   order (or flattened) would show the wrong faces. */
static void check_cube_turns(void)
{
    static const double turns[][2] = {{30, 20}, {-50, 35}, {135, -25}, {200, 60}, {-160, -40}};
    size_t k;
    for (k = 0; k < sizeof turns / sizeof turns[0]; k++) {
        char name[160], stem[64];
        lk_transform3d turn = lkt_t_mul(lkt_t_rotation_y(turns[k][0] * LKT_PI / 180),
                                        lkt_t_rotation_x(turns[k][1] * LKT_PI / 180));
        lk_display *d;
        lk_layer *root;
        lkt_expectation e;
        int visible = cube_expectation(&e, turn, lkt_t_identity());
        snprintf(name, sizeof name, "S7.6 cube turned %g about y then %g about x shows its %d front faces in place",
                 turns[k][0], turns[k][1], visible);
        snprintf(stem, sizeof stem, "s7_6_cube_%d", (int)k);
        LKT_CHECK(visible == 3, "S7.6 (the test's own projection) three faces of the cube face the viewer",
                  "%d at turn %d", visible, (int)k);
        d = lkt_open_display(CW, CH, name);
        if (!d) return;
        root = cube_scene(NULL, turn, lkt_t_identity(), true);
        lk_display_set_root_layer(d, root);
        check_frame_and_close(d, root, name, stem, CW, CH, &e);
    }
}

/* S7.6, S6.1: with doubleSided false every face turned away is culled; the
   picture is the same (the front faces cover the back ones). And a
   transform layer's sublayerTransform tilts the whole space. */
static void check_cube_culled_and_tilted(void)
{
    const char *name = "S6.1 S7.6 cube of single-sided faces, tilted by the sublayerTransform, shows its front faces";
    lk_transform3d turn = lkt_t_rotation_y(-35 * LKT_PI / 180);
    lk_transform3d tilt = lkt_t_rotation_x(25 * LKT_PI / 180);
    lkt_expectation e;
    lk_display *d = lkt_open_display(CW, CH, name);
    lk_layer *root;
    if (!d) return;
    cube_expectation(&e, turn, tilt);
    root = cube_scene(NULL, turn, tilt, false);
    lk_display_set_root_layer(d, root);
    check_frame_and_close(d, root, name, "s7_6_cube_culled", CW, CH, &e);
}

/* S6.1, S7.6: culling in a shared space, seen through translucent faces:
   with doubleSided false and faces at half opacity, each face turned
   towards the viewer shows its colour half over the background, nothing of
   the faces behind it (they are culled, not merely covered). */
static void check_cube_translucent_culled(void)
{
    const char *name = "S6.1 S7.6 translucent single-sided cube: the faces turned away are culled";
    lk_transform3d turn = lkt_t_mul(lkt_t_rotation_y(40 * LKT_PI / 180), lkt_t_rotation_x(-30 * LKT_PI / 180));
    lk_display *d = lkt_open_display(CW, CH, name);
    lk_layer *root, *cube;
    lkt_expectation e;
    size_t i, k;
    if (!d) return;
    cube_expectation(&e, turn, lkt_t_identity());
    for (k = 0; k < (size_t)e.count; k++)
        for (i = 0; i < 3; i++) e.quads[k].rgb[i] = (int)floor((e.quads[k].rgb[i] + lkt_quads_to8(0.1)) / 2.0 + 0.5);
    root = cube_scene(&cube, turn, lkt_t_identity(), false);
    for (k = 0; k < lk_layer_get_sublayer_count(cube); k++)
        lk_layer_set_opacity(lk_layer_get_sublayer(cube, k), 0.5);
    lk_display_set_root_layer(d, root);
    check_frame_and_close(d, root, name, "s7_6_cube_translucent_culled", CW, CH, &e);
}

/* S7.6: the cube rotating under an animation of transform.rotation.y
   (linear, 0 to 2 pi in 4 s): at 0.6 s and 2.9 s it shows the faces of
   those turns. */
static void check_cube_rotating(void)
{
    static const double times[] = {0.6, 2.9};
    lk_transform3d tilt = lkt_t_rotation_x(-20 * LKT_PI / 180);
    const char *name = "S7.6 cube rotating about y (animation) shows the faces of each frame's turn";
    lk_display *d = lkt_open_display(CW, CH, name);
    lk_layer *root, *cube;
    lk_animation *spin;
    double t0;
    size_t k;
    if (!d) return;
    root = cube_scene(&cube, lkt_t_identity(), tilt, true);
    lk_display_set_root_layer(d, root);
    lk_display_render_frame_at(d, lk_media_time());
    t0 = lk_media_time();
    spin = lk_basic_animation_create("transform.rotation.y");
    lk_animation_set_from_value(spin, lk_value_number(0));
    lk_animation_set_to_value(spin, lk_value_number(2 * LKT_PI));
    lk_animation_set_duration(spin, 4);
    lk_animation_set_begin_time(spin, t0);
    lk_animation_set_timing_function(spin, lk_timing_function_named(LK_TIMING_LINEAR));
    lk_layer_add_animation(cube, spin, "spin");
    lk_release(spin);
    for (k = 0; k < sizeof times / sizeof times[0]; k++) {
        char stem[64];
        lkt_expectation e;
        uint8_t *px = (uint8_t *)malloc((size_t)CW * CH * 4);
        cube_expectation(&e, lkt_t_rotation_y(2 * LKT_PI * times[k] / 4), tilt);
        snprintf(stem, sizeof stem, "s7_6_cube_rotating_%d", (int)k);
        if (lk_display_render_frame_at(d, t0 + times[k]) == LK_OK &&
            lk_display_read_pixels(d, px, (size_t)CW * 4) == LK_OK) {
            lkt_check_quads(name, stem, px, CW, CH, &e);
        } else {
            LKT_CHECK(0, name, "rendering failed: %s", lk_last_error());
        }
        free(px);
    }
    lk_release(root);
    lk_display_close(d);
}

/* ---- shared space versus flattening ------------------------------------- */

/* S6.3: under a transform layer depth is kept through the levels; under a
   plain layer each level flattens. Two groups, A (zPosition 0) holding a
   red card at zPosition 100 and B (zPosition 10) holding a blue card at
   zPosition 0, the cards overlapping, under a root with perspective
   (m34 = -1/400). Plain: A's card is flattened into A's plane, B is above
   A, so blue covers red and both keep their size. Transform layers: the
   red card is 110 nearer than blue, drawn over it and enlarged by the
   perspective (400 / 300). */
#define SW 300
#define SH 200
static void check_shared_versus_flattened(int shared)
{
    const char *name = shared
        ? "S6.3 S7.6 under transform layers a nested card keeps its depth: nearer, larger, on top"
        : "S6.3 under plain layers each level flattens: the later group covers, sizes unchanged";
    lk_color grey = lk_color_make(0.1, 0.1, 0.1, 1);
    lk_color red = lk_color_make(0.9, 0.1, 0.1, 1), blue = lk_color_make(0.2, 0.3, 0.9, 1);
    lk_rect gb = lk_rect_make(0, 0, 200, 160), cb = lk_rect_make(0, 0, 80, 80);
    lk_point center = lk_point_make(0.5, 0.5);
    lk_point gp = lk_point_make(SW / 2.0, SH / 2.0), sub_center = lk_point_make(100, 80);
    lk_point ra = lk_point_make(80, 70), rb = lk_point_make(120, 90);
    lk_display *d = lkt_open_display(SW, SH, name);
    lk_layer *root, *c, *a, *b, *card;
    lkt_expectation e;
    if (!d) return;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_layer(SW, SH, grey, lkt_t_perspective(400));
    c = layer_in(root, shared ? lk_transform_layer_create() : lk_layer_create(), gb, gp, lkt_t_identity());
    a = layer_in(c, shared ? lk_transform_layer_create() : lk_layer_create(), gb, sub_center, lkt_t_identity());
    b = layer_in(c, shared ? lk_transform_layer_create() : lk_layer_create(), gb, sub_center, lkt_t_identity());
    lk_layer_set_z_position(b, 10);
    card = layer_in(a, lk_layer_create(), cb, ra, lkt_t_identity());
    lk_layer_set_background_color(card, red);
    lk_layer_set_z_position(card, 100);
    card = layer_in(b, lk_layer_create(), cb, rb, lkt_t_identity());
    lk_layer_set_background_color(card, blue);
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);

    memset(&e, 0, sizeof e);
    e.background[0] = e.background[1] = e.background[2] = lkt_quads_to8(0.1);
    {
        lk_transform3d to_root = lkt_t_mul(lkt_quads_sublayer_matrix(lk_rect_make(0, 0, SW, SH), center, lkt_t_perspective(400)),
                                           root_matrix(SW, SH));
        lk_transform3d group = lkt_t_mul(lkt_quads_layer_matrix(gb, center, sub_center, lkt_t_identity()),
                                         lkt_quads_layer_matrix(gb, center, gp, lkt_t_identity()));
        lk_transform3d red_m = lkt_t_mul(lkt_quads_layer_matrix(cb, center, ra, lkt_t_translation(0, 0, shared ? 100 : 0)), group);
        lk_transform3d blue_m = lkt_t_mul(lkt_t_mul(lkt_quads_layer_matrix(cb, center, rb, lkt_t_identity()),
                                                    lkt_t_translation(0, 0, shared ? 10 : 0)), group);
        if (shared) {
            lkt_quads_add_quad(&e, lkt_t_mul(blue_m, to_root), cb, blue);
            lkt_quads_add_quad(&e, lkt_t_mul(red_m, to_root), cb, red);
            LKT_CHECK(e.quads[1].x[1] - e.quads[1].x[0] > 100,
                      "S6.3 (the test's own projection) the nearer card is enlarged", "width %.2f",
                      e.quads[1].x[1] - e.quads[1].x[0]);
        } else {
            /* C flattens A and B into its plane (B's zPosition only
               orders it); C lies in the root's plane, so the perspective
               changes nothing: red, then blue over it, both 80 x 80 */
            (void)blue_m;
            lkt_quads_add_quad(&e, lkt_t_mul(lkt_t_mul(lkt_quads_layer_matrix(cb, center, ra, lkt_t_identity()), group), to_root), cb, red);
            lkt_quads_add_quad(&e, lkt_t_mul(lkt_t_mul(lkt_quads_layer_matrix(cb, center, rb, lkt_t_identity()), group), to_root), cb, blue);
        }
    }
    check_frame_and_close(d, root, name, shared ? "s6_3_shared_space" : "s6_3_flattened_space", SW, SH, &e);
}

/* S6.3, S7.6: two cards that cross in a transform layer's space are cut
   along the line where they meet: on each side of it the nearer one shows
   (Core Animation cuts layers "to match expectations for that geometry").
   The cards share bounds and position and turn about y by +angle and
   -angle, so they meet along their middle: each half of each card is its
   own expected quad, the farther half drawn first. A sort by the cards'
   centres (both at depth 0) would draw the later card whole over the
   other. `tilt` turns the transform layer itself about x. With `far` > 0
   each card has a sublayer `far` points beyond its middle (card 0 to the
   right, card 1 to the left), on a wider display: a cut card's pieces are
   clipped to their side of the cut, and such a sublayer far beyond its
   bounds is drawn whole with the piece on its side, not cut off by the
   piece's clip (which of the two cards is cut is the partition's choice). */
#define XH 200
static void check_crossing_cards(double angle, double tilt, double cw, double ch, double far)
{
    char name[240], stem[64];
    const uint32_t XW = far > 0 ? 480 : 260;
    lk_color grey = lk_color_make(0.1, 0.1, 0.1, 1), green = lk_color_make(0.1, 0.8, 0.2, 1);
    lk_rect fb = lk_rect_make(0, 0, 30, 20);
    lk_point fp[2];
    lk_color colors[2] = {lk_color_make(0.9, 0.1, 0.1, 1), lk_color_make(0.2, 0.3, 0.9, 1)};
    lk_rect tb = lk_rect_make(0, 0, 160, 120), cb = lk_rect_make(0, 0, cw, ch);
    lk_rect halves[2] = {lk_rect_make(0, 0, cw / 2, ch), lk_rect_make(cw / 2, 0, cw / 2, ch)};
    lk_point center = lk_point_make(0.5, 0.5), tp = lk_point_make(XW / 2.0, XH / 2.0), cp = lk_point_make(80, 60);
    lk_transform3d turns[2], group, to_root, m[2];
    lk_display *d;
    lk_layer *root, *t;
    lkt_expectation e;
    int i, h, first_nearer = 0;
    fp[0] = lk_point_make(cw / 2 + far, ch / 2);
    fp[1] = lk_point_make(cw / 2 - far, ch / 2);
    snprintf(name, sizeof name,
             "S6.3 S7.6 two %gx%g cards crossing at +-%g deg (space tilted %g) are cut where they meet: the nearer shows on each side%s",
             cw, ch, angle, tilt, far > 0 ? "; each one's sublayer far beyond its bounds is drawn whole" : "");
    snprintf(stem, sizeof stem, "s7_6_crossing_%d_%d_%d_%d", (int)angle, (int)tilt, (int)cw, (int)far);
    d = lkt_open_display(XW, XH, name);
    if (!d) return;
    turns[0] = lkt_t_rotation_y(angle * LKT_PI / 180);
    turns[1] = lkt_t_rotation_y(-angle * LKT_PI / 180);
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_layer(XW, XH, grey, lkt_t_perspective(500));
    t = layer_in(root, lk_transform_layer_create(), tb, tp, lkt_t_rotation_x(tilt * LKT_PI / 180));
    for (i = 0; i < 2; i++) {
        lk_layer *card = layer_in(t, lk_layer_create(), cb, cp, turns[i]);
        lk_layer_set_background_color(card, colors[i]);
        if (far > 0)
            lk_layer_set_background_color(layer_in(card, lk_layer_create(), fb, fp[i], lkt_t_identity()), green);
    }
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);

    memset(&e, 0, sizeof e);
    e.background[0] = e.background[1] = e.background[2] = lkt_quads_to8(0.1);
    to_root = lkt_t_mul(lkt_quads_sublayer_matrix(lk_rect_make(0, 0, XW, XH), center, lkt_t_perspective(500)),
                        root_matrix(XW, XH));
    group = lkt_quads_layer_matrix(tb, center, tp, lkt_t_rotation_x(tilt * LKT_PI / 180));
    for (i = 0; i < 2; i++) m[i] = lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, turns[i]), group);
    for (h = 0; h < 2; h++) {
        /* the farther card's half first: depth of each half's centre, +z nearer */
        double z[2];
        int nearer;
        for (i = 0; i < 2; i++)
            lkt_t_apply(m[i], halves[h].origin.x + halves[h].size.width / 2, ch / 2, 0, NULL, NULL, &z[i]);
        nearer = z[1] > z[0];
        LKT_CHECK(fabs(z[0] - z[1]) > 5, "S6.3 (the test's own projection) the cards' halves lie at different depths",
                  "half %d: %.2f and %.2f", h, z[0], z[1]);
        if (h == 0) first_nearer = nearer;
        else LKT_CHECK(nearer != first_nearer, "S6.3 (the test's own projection) each card is nearer on one side", "%s", "");
        lkt_quads_add_quad(&e, lkt_t_mul(m[1 - nearer], to_root), halves[h], colors[1 - nearer]);
        lkt_quads_add_quad(&e, lkt_t_mul(m[nearer], to_root), halves[h], colors[nearer]);
    }
    /* the far sublayers, flattened into their cards' planes, overlapping nothing */
    for (i = 0; far > 0 && i < 2; i++)
        lkt_quads_add_quad(&e, lkt_t_mul(lkt_t_mul(lkt_quads_layer_matrix(fb, center, fp[i], lkt_t_identity()), m[i]),
                                         to_root), fb, green);
    check_frame_and_close(d, root, name, stem, XW, XH, &e);
}

/* S7.6: a transform layer draws none of its own background, border,
   shadow or contents; its kind is named in errors and has no key of its
   own. */
static void check_draws_nothing_itself(void)
{
    const char *name = "S7.6 a transform layer's own background, border and shadow are not drawn";
    lk_display *d = lkt_open_display(120, 100, name);
    lk_layer *root, *t;
    uint8_t *px;
    lkt_expectation e;
    lk_value v;
    if (!d) return;
    root = root_layer(120, 100, lk_color_make(0.1, 0.1, 0.1, 1), lkt_t_identity());
    t = layer_in(root, lk_transform_layer_create(), lk_rect_make(0, 0, 60, 50), lk_point_make(60, 50),
                 lkt_t_identity());
    lk_layer_set_background_color(t, lk_color_make(1, 1, 1, 1));
    lk_layer_set_border_width(t, 5);
    lk_layer_set_shadow_opacity(t, 1);
    lk_display_set_root_layer(d, root);
    memset(&e, 0, sizeof e);
    e.background[0] = e.background[1] = e.background[2] = lkt_quads_to8(0.1);
    px = lkt_render_and_read(d, name);
    if (px) {
        lkt_check_quads(name, "s7_6_draws_nothing", px, 120, 100, &e);
        free(px);
    }
    lkt_error_mark();
    LKT_CHECK_ERROR("S7.6 S1.6 a transform layer has no scrollMode (it is a scroll layer's)",
                    lk_layer_get_value(t, "scrollMode", &v), LK_ERROR_UNKNOWN_KEY_PATH, "scroll layer");
    lk_release(root);
    lk_display_close(d);
}

int main(void)
{
    check_cube_turns();
    check_cube_culled_and_tilted();
    check_cube_translucent_culled();
    check_cube_rotating();
    check_shared_versus_flattened(0);
    check_shared_versus_flattened(1);
    check_crossing_cards(35, 0, 140, 100, 0);
    check_crossing_cards(50, 25, 140, 100, 0);
    check_crossing_cards(75, 0, 180, 140, 0);
    check_crossing_cards(80, 0, 240, 160, 0);
    check_crossing_cards(70, 30, 240, 160, 0);
    check_crossing_cards(35, 0, 60, 40, 260);
    check_draws_nothing_itself();
    return lkt_finish();
}
