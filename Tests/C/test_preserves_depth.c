/*
 * preservesDepth: S7.5 a replicator's instances, S7.4 an emitter's
 * particles. With it on they keep their depth and are drawn in the
 * superlayer's 3D space (its perspective applies, back to front by depth);
 * off, they flatten into the layer's plane. Checked analytically as
 * test_transform_layer.c does (support/lkt_quads.c: the test projects each
 * quad with its own 4x4 row-vector arithmetic; pixels whose centre is at
 * least 1.5 px inside or outside every quad are checked). Tolerance: every
 * channel within 3 (colour rounding); pixels within 1.5 px of a projected
 * edge are not checked.
 */
#include "lktest.h"
#include "lkt_quads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 240
#define H 160
#define BG 0.1

static const lk_point center = {0.5, 0.5};

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

/* A W x H root with a grey background and perspective m34 = -1/d about its centre. */
static lk_layer *root_with_perspective(double d)
{
    lk_layer *root = layer_in(NULL, lk_layer_create(), lk_rect_make(0, 0, W, H), lk_point_make(W / 2.0, H / 2.0),
                              lkt_t_identity());
    lk_layer_set_background_color(root, lk_color_make(BG, BG, BG, 1));
    lk_layer_set_sublayer_transform(root, lkt_t_perspective(d));
    return root;
}

/* The root's sublayers' coordinates to the output: the root's perspective
   about its centre, then the root's own placement. */
static lk_transform3d into_root(double d)
{
    lk_rect b = lk_rect_make(0, 0, W, H);
    return lkt_t_mul(lkt_quads_sublayer_matrix(b, center, lkt_t_perspective(d)),
                     lkt_quads_layer_matrix(b, center, lk_point_make(W / 2.0, H / 2.0), lkt_t_identity()));
}

static void expect_background(lkt_expectation *e)
{
    memset(e, 0, sizeof *e);
    e->background[0] = e->background[1] = e->background[2] = lkt_quads_to8(BG);
}

/* z / w of a point under m: larger is nearer. */
static double depth_of(lk_transform3d m, double x, double y, double z)
{
    double zz = x * m.m13 + y * m.m23 + z * m.m33 + m.m43;
    double w = x * m.m14 + y * m.m24 + z * m.m34 + m.m44;
    return zz / w;
}

static void render_and_check(lk_display *d, double t, const char *name, const char *stem, const lkt_expectation *e)
{
    uint8_t *px = (uint8_t *)malloc((size_t)W * H * 4);
    lk_transaction_flush();
    if (lk_display_render_frame_at(d, t) == LK_OK && lk_display_read_pixels(d, px, (size_t)W * 4) == LK_OK)
        lkt_check_quads(name, stem, px, W, H, e);
    else
        LKT_CHECK(0, name, "rendering failed: %s", lk_last_error());
    free(px);
}

/* A replicator over rb at `position` in `parent`, two instances of a white
   cb card at cp, instance 1 moved by `step`, instance 0 red and instance 1
   blue (colour offsets), preservesDepth as asked (the call checked). */
static lk_layer *red_blue_replicator(lk_layer *parent, lk_rect rb, lk_point position, lk_transform3d step,
                                     lk_rect cb, lk_point cp, int preserves)
{
    lk_layer *r = layer_in(parent, lk_replicator_layer_create(), rb, position, lkt_t_identity());
    lk_layer *card;
    lk_replicator_layer_set_instance_count(r, 2);
    lk_replicator_layer_set_instance_transform(r, step);
    lk_replicator_layer_set_instance_color(r, lk_color_make(1, 0, 0, 1));
    lk_replicator_layer_set_instance_red_offset(r, -1);
    lk_replicator_layer_set_instance_blue_offset(r, 1);
    LKT_CHECK_STATUS("S7.5 preservesDepth is set", lk_replicator_layer_set_preserves_depth(r, preserves), LK_OK);
    card = layer_in(r, lk_layer_create(), cb, cp, lkt_t_identity());
    lk_layer_set_background_color(card, lk_color_make(1, 1, 1, 1));
    return r;
}

/* ---- replicator ----------------------------------------------------------- */

#define RD 400.0

/* S7.5: two instances of a white card, the second moved 40 right and 150
   back (instanceTransform), instance 0 red and instance 1 blue (colour
   offsets), under a root with perspective. With preservesDepth the second
   lies 150 behind: drawn first, under the red card, and smaller
   (400 / 550). Without it the replicator flattens it into its plane: the
   same size as the first and drawn over it, in instance order. */
static void check_replicator_translation(int preserves)
{
    const char *name = preserves
        ? "S7.5 S6.3 preservesDepth replicator: the instance 150 behind is smaller and under instance 0"
        : "S7.5 S6.3 replicator without preservesDepth flattens: instance 1 same size, over instance 0";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root;
    lk_rect rb = lk_rect_make(0, 0, W, H), cb = lk_rect_make(0, 0, 80, 80);
    lk_point cp = lk_point_make(100, 80);
    lk_transform3d step = lkt_t_translation(40, 0, -150);
    lkt_expectation e;
    if (!d) return;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with_perspective(RD);
    red_blue_replicator(root, rb, lk_point_make(W / 2.0, H / 2.0), step, cb, cp, preserves);
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);

    expect_background(&e);
    {
        lk_transform3d rm = lkt_quads_layer_matrix(rb, center, lk_point_make(W / 2.0, H / 2.0), lkt_t_identity());
        lk_transform3d c0 = lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, lkt_t_identity()), rm);
        lk_transform3d c1 = lkt_t_mul(lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, lkt_t_identity()),
                                                preserves ? step : lkt_t_translation(40, 0, 0)), rm);
        lk_color red = lk_color_make(1, 0, 0, 1), blue = lk_color_make(0, 0, 1, 1);
        if (preserves) {
            lkt_quads_add_quad(&e, lkt_t_mul(c1, into_root(RD)), cb, blue);
            lkt_quads_add_quad(&e, lkt_t_mul(c0, into_root(RD)), cb, red);
            LKT_CHECK(e.quads[0].x[1] - e.quads[0].x[0] < 60,
                      "S6.3 (the test's own projection) the instance behind is smaller", "width %.2f",
                      e.quads[0].x[1] - e.quads[0].x[0]);
        } else {
            lkt_quads_add_quad(&e, lkt_t_mul(c0, into_root(RD)), cb, red);
            lkt_quads_add_quad(&e, lkt_t_mul(c1, into_root(RD)), cb, blue);
        }
    }
    render_and_check(d, lk_media_time() + 1, name, preserves ? "s7_5_depth_translation" : "s7_5_flat_translation",
                     &e);
    lk_release(root);
    lk_display_close(d);
}

/* S7.5: a carousel. A card 70 in front of the replicator's plane
   (zPosition), three instances each turned 120 degrees further about y
   (about the centre of the replicator's bounds), the replicator itself
   tilted 20 degrees about x, under perspective. With preservesDepth the card in front
   (instance 0) is drawn last, over the two turned behind it, and every card
   is where the 3D projection puts it; flattened, the later instances would
   be drawn over it. */
static void check_replicator_carousel(void)
{
    const char *name = "S7.5 S6.3 preservesDepth replicator turning instances about y: a carousel sorted by depth";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *r, *card;
    lk_rect rb = lk_rect_make(0, 0, 100, 100), cb = lk_rect_make(0, 0, 90, 60);
    lk_point rp = lk_point_make(W / 2.0, H / 2.0), cp = lk_point_make(50, 50);
    lk_transform3d tilt = lkt_t_rotation_x(20 * LKT_PI / 180);
    lk_transform3d turn = lkt_t_rotation_y(2 * LKT_PI / 3);
    lkt_expectation e;
    lk_transform3d maps[3];
    double depths[3];
    lk_color colors[3];
    int order[3] = {0, 1, 2}, i, j;
    if (!d) return;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with_perspective(RD);
    r = layer_in(root, lk_replicator_layer_create(), rb, rp, tilt);
    lk_replicator_layer_set_instance_count(r, 3);
    lk_replicator_layer_set_instance_transform(r, turn);
    lk_replicator_layer_set_instance_color(r, lk_color_make(1, 0.2, 0.2, 1));
    lk_replicator_layer_set_instance_red_offset(r, -0.4);
    lk_replicator_layer_set_instance_blue_offset(r, 0.4);
    lk_replicator_layer_set_preserves_depth(r, true);
    card = layer_in(r, lk_layer_create(), cb, cp, lkt_t_identity());
    lk_layer_set_z_position(card, 70);
    lk_layer_set_background_color(card, lk_color_make(1, 1, 1, 1));
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);

    expect_background(&e);
    {
        lk_transform3d rm = lkt_t_mul(lkt_quads_layer_matrix(rb, center, rp, tilt), into_root(RD));
        lk_transform3d power = lkt_t_identity();
        /* instanceTransform about the centre of the replicator's bounds (50, 50) */
        lk_transform3d step = lkt_t_mul(lkt_t_mul(lkt_t_translation(-50, -50, 0), turn), lkt_t_translation(50, 50, 0));
        for (i = 0; i < 3; i++) {
            lk_transform3d c = lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, lkt_t_identity()),
                                         lkt_t_translation(0, 0, 70));
            maps[i] = lkt_t_mul(lkt_t_mul(c, power), rm);
            depths[i] = depth_of(lkt_t_mul(lkt_t_mul(c, power), lkt_t_mul(lkt_quads_layer_matrix(rb, center, rp, tilt),
                                                                        lkt_quads_sublayer_matrix(lk_rect_make(0, 0, W, H), center,
                                                                                                  lkt_t_perspective(RD)))),
                                 45, 30, 0);
            colors[i] = lk_color_make(fmin(1, fmax(0, 1 - 0.4 * i)), 0.2, fmin(1, 0.2 + 0.4 * i), 1);
            power = lkt_t_mul(step, power);
        }
        /* back to front by the depth of each card's centre */
        for (i = 0; i < 3; i++)
            for (j = i + 1; j < 3; j++)
                if (depths[order[j]] < depths[order[i]]) { int k = order[i]; order[i] = order[j]; order[j] = k; }
        LKT_CHECK(order[2] == 0, "S7.5 (the test's own projection) instance 0 is the nearest", "nearest %d", order[2]);
        for (i = 0; i < 3; i++) lkt_quads_add_quad(&e, maps[order[i]], cb, colors[order[i]]);
    }
    render_and_check(d, lk_media_time() + 1, name, "s7_5_depth_carousel", &e);
    lk_release(root);
    lk_display_close(d);
}

/* The root (perspective RD) with a transform layer over it turned by
   `degrees` about y, holding red_blue_replicator(step) with preservesDepth:
   returned with the transaction that builds it still open (actions off),
   for the caller to add to and commit. */
static lk_layer *replicator_in_turned_space(double degrees, lk_transform3d step, lk_rect rb, lk_rect cb, lk_point cp,
                                            lk_layer **space)
{
    lk_point mid = lk_point_make(W / 2.0, H / 2.0);
    lk_layer *root;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with_perspective(RD);
    *space = layer_in(root, lk_transform_layer_create(), rb, mid, lkt_t_rotation_y(degrees * LKT_PI / 180));
    red_blue_replicator(*space, rb, mid, step, cb, cp, 1);
    return root;
}

/* S7.5, S7.6: a preservesDepth replicator inside a transform layer turned
   30 degrees about y: its instances are placed by their whole 3D map
   through the transform layer into the root's space, perspective
   included, and sorted by depth there (instance 1, 150 behind, first). */
static void check_replicator_in_transform_layer(void)
{
    const char *name = "S7.5 S7.6 preservesDepth replicator inside a turned transform layer: instances in 3D, by depth";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *t;
    lk_rect rb = lk_rect_make(0, 0, W, H), cb = lk_rect_make(0, 0, 80, 80);
    lk_point mid = lk_point_make(W / 2.0, H / 2.0), cp = lk_point_make(100, 80);
    lk_transform3d turn = lkt_t_rotation_y(30 * LKT_PI / 180), step = lkt_t_translation(40, 0, -150);
    lkt_expectation e;
    if (!d) return;
    root = replicator_in_turned_space(30, step, rb, cb, cp, &t);
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);

    expect_background(&e);
    {
        lk_transform3d above = lkt_t_mul(lkt_t_mul(lkt_quads_layer_matrix(rb, center, mid, lkt_t_identity()),
                                                   lkt_quads_layer_matrix(rb, center, mid, turn)),
                                         into_root(RD));
        lk_transform3d c0 = lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, lkt_t_identity()), above);
        lk_transform3d c1 = lkt_t_mul(lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, lkt_t_identity()), step), above);
        LKT_CHECK(depth_of(c1, 40, 40, 0) < depth_of(c0, 40, 40, 0),
                  "S7.5 (the test's own projection) instance 1 is farther", "%g vs %g", depth_of(c1, 40, 40, 0),
                  depth_of(c0, 40, 40, 0));
        lkt_quads_add_quad(&e, c1, cb, lk_color_make(0, 0, 1, 1));
        lkt_quads_add_quad(&e, c0, cb, lk_color_make(1, 0, 0, 1));
    }
    render_and_check(d, lk_media_time() + 1, name, "s7_5_depth_in_transform_layer", &e);
    lk_release(root);
    lk_display_close(d);
}

/* S7.5, S7.6: in a transform layer, a preservesDepth replicator's instances
   join the shared space one by one ("acts similarly to the
   CATransformLayer"): a green card of the transform layer, 75 behind,
   lies between instance 0 (red, in the plane) and instance 1 (blue, 150
   behind, 110 to the right), overlapping blue right of red. Drawn as one
   block at the replicator's depth, blue would cover green there. */
static void check_replicator_instances_interleaved(void)
{
    const char *name = "S7.5 S7.6 a preservesDepth replicator's instances interleave with the transform layer's other layers";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *t, *card;
    lk_rect rb = lk_rect_make(0, 0, W, H), cb = lk_rect_make(0, 0, 80, 80);
    lk_point mid = lk_point_make(W / 2.0, H / 2.0), cp = lk_point_make(100, 80), gp = lk_point_make(150, 66);
    lk_transform3d turn = lkt_t_rotation_y(20 * LKT_PI / 180), step = lkt_t_translation(110, 0, -150);
    lk_transform3d back = lkt_t_translation(0, 0, -75);
    lkt_expectation e;
    if (!d) return;
    root = replicator_in_turned_space(20, step, rb, cb, cp, &t);
    card = layer_in(t, lk_layer_create(), cb, gp, back);
    lk_layer_set_background_color(card, lk_color_make(0, 1, 0, 1));
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);

    expect_background(&e);
    {
        lk_transform3d space = lkt_t_mul(lkt_quads_layer_matrix(rb, center, mid, turn), into_root(RD));
        lk_transform3d above = lkt_t_mul(lkt_quads_layer_matrix(rb, center, mid, lkt_t_identity()), space);
        lk_transform3d c0 = lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, lkt_t_identity()), above);
        lk_transform3d c1 = lkt_t_mul(lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, lkt_t_identity()), step), above);
        lk_transform3d g = lkt_t_mul(lkt_quads_layer_matrix(cb, center, gp, back), space);
        LKT_CHECK(depth_of(c1, 40, 40, 0) < depth_of(g, 40, 40, 0) && depth_of(g, 40, 40, 0) < depth_of(c0, 40, 40, 0),
                  "S7.5 (the test's own projection) green lies between the instances", "%g, %g, %g",
                  depth_of(c1, 40, 40, 0), depth_of(g, 40, 40, 0), depth_of(c0, 40, 40, 0));
        lkt_quads_add_quad(&e, c1, cb, lk_color_make(0, 0, 1, 1));
        lkt_quads_add_quad(&e, g, cb, lk_color_make(0, 1, 0, 1));
        lkt_quads_add_quad(&e, c0, cb, lk_color_make(1, 0, 0, 1));
    }
    render_and_check(d, lk_media_time() + 1, name, "s7_5_depth_interleaved", &e);
    lk_release(root);
    lk_display_close(d);
}

/* ---- emitter -------------------------------------------------------------- */

#define ED 200.0
#define SPRITE 20

static lk_image *white_image(void)
{
    uint8_t px[SPRITE * SPRITE * 4];
    memset(px, 255, sizeof px);
    return lk_image_create_from_pixels(SPRITE, SPRITE, SPRITE * 4, LK_PIXEL_FORMAT_RGBA8, px);
}

/* A cell with no randomness: one particle a second (the first one second
   after the simulation starts), still, living long. */
static lk_emitter_cell *still_cell(lk_image *contents, lk_color color, double z_acceleration)
{
    lk_emitter_cell *c = lk_emitter_cell_create();
    lk_emitter_cell_set_birth_rate(c, 1);
    lk_emitter_cell_set_lifetime(c, 100);
    lk_emitter_cell_set_contents(c, contents);
    lk_emitter_cell_set_color(c, color);
    lk_emitter_cell_set_z_acceleration(c, z_acceleration);
    return c;
}

/* An emitter layer over the root, placed by `t` about its centre, whose
   simulation starts at *start. */
static lk_layer *emitter_in(lk_layer *root, lk_transform3d t, double *start)
{
    lk_layer *e = layer_in(root, lk_emitter_layer_create(), lk_rect_make(0, 0, W, H),
                           lk_point_make(W / 2.0, H / 2.0), t);
    *start = lk_media_time() + 1000;
    lk_layer_set_begin_time(e, *start);
    return e;
}

/* S7.4: one still particle at emitterZPosition 100 under a root with
   perspective d = 200. With preservesDepth it keeps its z: twice as large
   (200 / 100) and pushed out from the root's centre; without, it lies in the
   emitter's plane, 20 x 20 at the emitter position. */
static void check_emitter_z(int preserves)
{
    const char *name = preserves
        ? "S7.4 S6.3 preservesDepth emitter: a particle at z 100 under perspective is doubled and moved out"
        : "S7.4 emitter without preservesDepth: the particle at z 100 lies flat at its x, y";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *e;
    lk_image *img = white_image();
    lk_emitter_cell *c = still_cell(img, lk_color_make(1, 0.5, 0, 1), 0);
    lkt_expectation x;
    double start;
    if (!d) return;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with_perspective(ED);
    e = emitter_in(root, lkt_t_identity(), &start);
    lk_emitter_layer_set_cells(e, &c, 1);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(90, 60));
    lk_emitter_layer_set_emitter_z_position(e, 100);
    LKT_CHECK_STATUS("S7.4 preservesDepth is set", lk_emitter_layer_set_preserves_depth(e, preserves), LK_OK);
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);
    expect_background(&x);
    {
        lk_transform3d em = lkt_quads_layer_matrix(lk_rect_make(0, 0, W, H), center, lk_point_make(W / 2.0, H / 2.0),
                                                   lkt_t_identity());
        lk_transform3d p = lkt_t_translation(90, 60, preserves ? 100 : 0);
        lkt_quads_add_quad(&x, lkt_t_mul(lkt_t_mul(p, em), into_root(ED)),
                           lk_rect_make(-SPRITE / 2.0, -SPRITE / 2.0, SPRITE, SPRITE), lk_color_make(1, 0.5, 0, 1));
        if (preserves)
            LKT_CHECK(fabs(x.quads[0].x[1] - x.quads[0].x[0] - 2 * SPRITE) < 1e-6,
                      "S7.4 (the test's own projection) the particle is doubled", "width %.2f",
                      x.quads[0].x[1] - x.quads[0].x[0]);
    }
    render_and_check(d, start + 1.5, name, preserves ? "s7_4_depth_z" : "s7_4_flat_z", &x);
    lk_release(c);
    lk_release(img);
    lk_release(root);
    lk_display_close(d);
}

/* S7.4 renderMode backToFront with preservesDepth: the emitter layer is
   turned half a turn about y, so its +z points away from the viewer. A red
   particle moving to +z (zAcceleration 50) and a blue one to -z, born
   together at one spot: in the layer red is nearer, in the superlayer's
   space blue is. Sorted by depth where they are drawn, blue (larger) goes
   over red; sorted by the layer's own z, red would. Without preservesDepth
   both lie flat, the same size, and backToFront sorts by the layer's z:
   red on top. */
static void check_emitter_back_to_front(int preserves)
{
    const char *name = preserves
        ? "S7.4 backToFront with preservesDepth sorts by depth in the superlayer's space (turned emitter)"
        : "S7.4 backToFront without preservesDepth sorts by the particles' own z, flat";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *e;
    lk_image *img = white_image();
    lk_color red = lk_color_make(1, 0, 0, 1), blue = lk_color_make(0, 0, 1, 1);
    lk_emitter_cell *cells[2];
    lk_transform3d half = lkt_t_rotation_y(LKT_PI);
    lkt_expectation x;
    double start, age = 0.9, z = 0.5 * 50 * age * age;
    if (!d) return;
    cells[0] = still_cell(img, red, 50);
    cells[1] = still_cell(img, blue, -50);
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = root_with_perspective(ED);
    e = emitter_in(root, half, &start);
    lk_emitter_layer_set_cells(e, cells, 2);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(150, 70));
    lk_emitter_layer_set_render_mode(e, LK_EMITTER_RENDER_BACK_TO_FRONT);
    lk_emitter_layer_set_preserves_depth(e, preserves);
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);
    expect_background(&x);
    {
        lk_transform3d em = lkt_t_mul(lkt_quads_layer_matrix(lk_rect_make(0, 0, W, H), center,
                                                             lk_point_make(W / 2.0, H / 2.0), half),
                                      into_root(ED));
        lk_rect sprite = lk_rect_make(-SPRITE / 2.0, -SPRITE / 2.0, SPRITE, SPRITE);
        lk_transform3d pr = lkt_t_translation(150, 70, preserves ? z : 0);
        lk_transform3d pb = lkt_t_translation(150, 70, preserves ? -z : 0);
        if (preserves) {
            lkt_quads_add_quad(&x, lkt_t_mul(pr, em), sprite, red);
            lkt_quads_add_quad(&x, lkt_t_mul(pb, em), sprite, blue);
            LKT_CHECK(x.quads[1].x[0] - x.quads[1].x[1] > x.quads[0].x[0] - x.quads[0].x[1] + 2,
                      "S7.4 (the test's own projection) the blue particle is nearer, larger", "%.2f vs %.2f",
                      x.quads[1].x[0] - x.quads[1].x[1], x.quads[0].x[0] - x.quads[0].x[1]);
        } else {
            lkt_quads_add_quad(&x, lkt_t_mul(pb, em), sprite, blue);
            lkt_quads_add_quad(&x, lkt_t_mul(pr, em), sprite, red);
        }
    }
    render_and_check(d, start + 1 + age, name, preserves ? "s7_4_depth_back_to_front" : "s7_4_flat_back_to_front", &x);
    lk_release(cells[0]);
    lk_release(cells[1]);
    lk_release(img);
    lk_release(root);
    lk_display_close(d);
}

int main(void)
{
    check_replicator_translation(0);
    check_replicator_translation(1);
    check_replicator_carousel();
    check_replicator_in_transform_layer();
    check_replicator_instances_interleaved();
    check_emitter_z(0);
    check_emitter_z(1);
    check_emitter_back_to_front(0);
    check_emitter_back_to_front(1);
    return lkt_finish();
}
