/*
 * S6.1, S6.3 3D rendering of the software backend, checked analytically:
 * cairo has no projective transform, so instead of a reference image this
 * test projects each layer's corners with its own 4x4 row-vector arithmetic
 * (support/lktest.c) and checks every pixel whose centre is at least 1.5 px
 * inside or outside the projected quads: inside, the layer's flat colour;
 * outside, what is under it. Tolerance: every channel within 3 (colour
 * rounding); pixels within 1.5 px of a projected edge are not checked.
 *
 * A layer L in superlayer S maps its point p as
 *   [p - bounds.origin - anchorPoint * size, -anchorPointZ, 1] * L.transform
 *   + position, then S's sublayerTransform about S's anchor point, then
 *   divided by w (perspective), flattened into S's plane (S6.3).
 */
#include "lktest.h"
#include "lkt_quads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lk_layer *layer(lk_layer *parent, lk_rect bounds, lk_point position, lk_transform3d t,
                       lk_color bg)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_bounds(l, bounds);
    lk_layer_set_position(l, position);
    lk_layer_set_transform(l, t);
    lk_layer_set_background_color(l, bg);
    if (parent) {
        lk_layer_add_sublayer(parent, l);
        lk_release(l);
    }
    return l;
}

/* The root fills the display (W x H) with an identity transform: its
   bounds coordinates are display pixels. */
static lk_transform3d root_matrix(uint32_t w, uint32_t h)
{
    return lkt_quads_layer_matrix(lk_rect_make(0, 0, w, h), lk_point_make(0.5, 0.5),
                        lk_point_make(w / 2.0, h / 2.0), lkt_t_identity());
}

static lk_layer *root_layer(uint32_t w, uint32_t h, lk_color bg, lk_transform3d sub)
{
    lk_layer *root = layer(NULL, lk_rect_make(0, 0, w, h), lk_point_make(w / 2.0, h / 2.0),
                           lkt_t_identity(), bg);
    lk_layer_set_sublayer_transform(root, sub);
    return root;
}

/* S6.3: perspective from the root's sublayerTransform, a card turned 60
   degrees about y: its right edge recedes (shorter), its left edge comes
   closer (taller than the unprojected 160). */
static void check_perspective(void)
{
    const uint32_t W = 300, H = 240;
    lk_color grey = lk_color_make(0.1, 0.1, 0.1, 1), red = lk_color_make(0.9, 0.1, 0.1, 1);
    lk_rect cb = lk_rect_make(0, 0, 160, 160);
    lk_point center = lk_point_make(0.5, 0.5), cp = lk_point_make(150, 120);
    lk_transform3d ct = lkt_t_rotation_y(LKT_PI / 3), sub = lkt_t_perspective(500), m;
    const char *name = "S6.3 perspective (m34 = -1/500), rotation 60 about y, matches the projection";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root;
    uint8_t *px;
    lkt_expectation e;

    if (!d) return;
    root = root_layer(W, H, grey, sub);
    layer(root, cb, cp, ct, red);
    lk_display_set_root_layer(d, root);

    memset(&e, 0, sizeof e);
    e.background[0] = e.background[1] = e.background[2] = lkt_quads_to8(0.1);
    m = lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, ct),
                  lkt_quads_sublayer_matrix(lk_rect_make(0, 0, W, H), center, sub));
    m = lkt_t_mul(m, root_matrix(W, H));
    lkt_quads_add_quad(&e, m, cb, red);
    {
        const lkt_quad *q = &e.quads[0];
        double left = q->y[3] - q->y[0], right = q->y[2] - q->y[1];
        LKT_CHECK(left > 170 && right < 150, "S6.3 (the test's own projection) near edge taller",
                  "left edge %.2f, right edge %.2f", left, right);
    }
    px = lkt_render_and_read(d, name);
    if (px) {
        lkt_check_quads(name, "s6_3_perspective", px, W, H, &e);
        free(px);
    }
    lk_release(root);
    lk_display_close(d);
}

/* Distance from (px, py) to the segment a-b of the quad, and where along it
   (0 at a, 1 at b) the nearest point lies. */
static double edge_distance(const lkt_quad *q, int a, int b, double px, double py, double *along)
{
    double dx = q->x[b] - q->x[a], dy = q->y[b] - q->y[a], len2 = dx * dx + dy * dy;
    double t = ((px - q->x[a]) * dx + (py - q->y[a]) * dy) / len2;
    double cx = q->x[a] + t * dx - px, cy = q->y[a] + t * dy - py;
    *along = t;
    return sqrt(cx * cx + cy * cy);
}

/* S6.1, S6.3: an image under perspective, its edge pixels included. The
   image's first half (left, or top with vertical) is red, its second half
   blue, over black; the card is turned about y (or x) in perspective. The
   pixels within 1.5 px of the projected first edge (away from the
   corners) show the first half's red with coverage and no blue; those of
   the far edge blue and no red: an edge pixel whose centre maps just
   outside the image samples the edge texels repeated (the contents'
   PIXMAN_REPEAT_PAD; gles clamps to the edge), never the opposite edge.
   Tolerance: 8 of 255 of the colour that must not show. (pixman's
   projective fetcher once put such samples at the opposite edge.) */
static void check_perspective_image_edges(double degrees, int vertical)
{
    const uint32_t W = 240, H = 240, S = 32;
    lk_rect cb = lk_rect_make(0, 0, 150.3, 140.6);
    lk_point center = lk_point_make(0.5, 0.5), cp = lk_point_make(120.4, 119.7);
    double angle = degrees * LKT_PI / 180;
    lk_transform3d ct = vertical ? lkt_t_rotation_x(angle) : lkt_t_rotation_y(angle), sub = lkt_t_perspective(300), m;
    char name[160];
    lk_display *d;
    lk_layer *root, *card;
    lk_image *image;
    uint8_t texels[32 * 32 * 4], *px;
    lkt_expectation e;
    uint32_t i;
    int checked = 0, wrong = 0, worst = 0, wx = 0, wy = 0;

    snprintf(name, sizeof name, "S6.3 image in perspective, turned %.0f degrees about %s: edge pixels show their own edge",
             degrees, vertical ? "x" : "y");
    d = lkt_open_display(W, H, name);
    if (!d) return;
    for (i = 0; i < S * S; i++) {
        uint32_t along = vertical ? i / S : i % S;
        int first = along < S / 2;
        texels[i * 4 + 0] = first ? 255 : 0;
        texels[i * 4 + 1] = 0;
        texels[i * 4 + 2] = first ? 0 : 255;
        texels[i * 4 + 3] = 255;
    }
    image = lk_image_create_from_pixels(S, S, S * 4, LK_PIXEL_FORMAT_RGBA8, texels);
    root = root_layer(W, H, lk_color_make(0, 0, 0, 1), sub);
    card = layer(root, cb, cp, ct, lk_color_make(0, 0, 0, 0));
    lk_layer_set_contents(card, image);
    lk_display_set_root_layer(d, root);

    memset(&e, 0, sizeof e);
    m = lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, ct),
                  lkt_quads_sublayer_matrix(lk_rect_make(0, 0, W, H), center, sub));
    m = lkt_t_mul(m, root_matrix(W, H));
    lkt_quads_add_quad(&e, m, cb, lk_color_make(0, 0, 0, 1));
    px = lkt_render_and_read(d, name);
    if (px) {
        const lkt_quad *q = &e.quads[0];
        /* corners 0 1 2 3: top left, top right, bottom right, bottom left */
        int first_a = vertical ? 0 : 3, first_b = vertical ? 1 : 0, far_a = vertical ? 3 : 1, far_b = vertical ? 2 : 2;
        uint32_t x, y;
        for (y = 0; y < H; y++) {
            for (x = 0; x < W; x++) {
                const uint8_t *c = px + ((size_t)y * W + x) * 4;
                double t1, t2, d1 = edge_distance(q, first_a, first_b, x + 0.5, y + 0.5, &t1),
                       d2 = edge_distance(q, far_a, far_b, x + 0.5, y + 0.5, &t2);
                int bad = -1;
                if (d1 < 1.5 && t1 > 0.1 && t1 < 0.9) bad = c[2];        /* no blue at the red edge */
                else if (d2 < 1.5 && t2 > 0.1 && t2 < 0.9) bad = c[0];   /* no red at the blue edge */
                if (bad < 0) continue;
                checked++;
                if (bad > 8) {
                    wrong++;
                    if (bad > worst) { worst = bad; wx = (int)x; wy = (int)y; }
                }
            }
        }
        LKT_CHECK(checked > 200 && wrong == 0, name,
                  "%d of %d edge pixels show the opposite edge's colour (worst %d at %d,%d)", wrong, checked, worst,
                  wx, wy);
        free(px);
    }
    lk_release(image);
    lk_release(root);
    lk_display_close(d);
}

/* S6.3: a card flipped by exactly pi about y (or x) under perspective, the
   resting state of a card flip: its image and its gradient show mirrored.
   The rotation leaves sin(pi) ~ 1e-16 in the matrix, times m34 a
   perspective term of ~1e-19, which the software backend took as
   projective for the image set-up and as axis-aligned for the rect path:
   the whole layer came out one texel's colour. Quadrants of a 2x2 image
   (red, green / blue, white) and a red-to-blue gradient, read at the
   quadrants' centres. */
static void check_flip_by_pi(int about_x)
{
    const uint32_t W = 200, H = 200;
    char name[160];
    static const uint8_t quad[16] = { 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255 };
    snprintf(name, sizeof name, "S6.3 a card flipped by exactly pi about %s under perspective shows mirrored",
             about_x ? "x" : "y");
    lk_display *d = lkt_open_display(W, H, name);
    if (!d) return;
    lk_layer *root = root_layer(W, H, lk_color_make(0, 0, 0, 1), lkt_t_perspective(500));
    lk_transform3d flip = about_x ? lk_transform3d_make_rotation(LKT_PI, 1, 0, 0)
                                  : lk_transform3d_make_rotation(LKT_PI, 0, 1, 0);
    lk_layer *card = layer(root, lk_rect_make(0, 0, 80, 80), lk_point_make(50, 100), flip, lk_color_make(0, 0, 0, 0));
    lk_image *image = lk_image_create_from_pixels(2, 2, 8, LK_PIXEL_FORMAT_RGBA8, quad);
    lk_layer_set_contents(card, image);
    lk_layer_set_magnification_filter(card, LK_CONTENTS_FILTER_NEAREST);
    lk_layer *g = lk_gradient_layer_create();
    lk_layer_set_bounds(g, lk_rect_make(0, 0, 80, 80));
    lk_layer_set_position(g, lk_point_make(150, 100));
    lk_layer_set_transform(g, flip);
    lk_color ends[2] = { lk_color_make(1, 0, 0, 1), lk_color_make(0, 0, 1, 1) };
    lk_gradient_layer_set_colors(g, ends, 2);
    lk_gradient_layer_set_start_point(g, about_x ? lk_point_make(0.5, 0) : lk_point_make(0, 0.5));
    lk_gradient_layer_set_end_point(g, about_x ? lk_point_make(0.5, 1) : lk_point_make(1, 0.5));
    lk_layer_add_sublayer(root, g);
    lk_release(g);
    lk_display_set_root_layer(d, root);
    uint8_t *px = lkt_render_and_read(d, name);
    if (px) {
        /* image quadrant centres, on screen: (30, 80) (70, 80) / (30, 120) (70, 120);
           flipped about y the columns swap, about x the rows */
        static const int at[4][2] = { { 30, 80 }, { 70, 80 }, { 30, 120 }, { 70, 120 } };
        int wrong = 0, worst = 0;
        for (int k = 0; k < 4; k++) {
            int src = about_x ? (k + 2) % 4 : (k ^ 1);
            const uint8_t *c = px + ((size_t)at[k][1] * W + (size_t)at[k][0]) * 4;
            for (int ch = 0; ch < 3; ch++) {
                int diff = abs((int)c[ch] - (int)quad[src * 4 + ch]);
                if (diff > 3) wrong++;
                if (diff > worst) worst = diff;
            }
        }
        /* the gradient: blue where it began (mirrored), red where it ended */
        const uint8_t *lo = about_x ? px + ((size_t)64 * W + 150) * 4 : px + ((size_t)100 * W + 114) * 4;
        const uint8_t *hi = about_x ? px + ((size_t)136 * W + 150) * 4 : px + ((size_t)100 * W + 186) * 4;
        bool mirrored = lo[2] > 200 && lo[0] < 55 && hi[0] > 200 && hi[2] < 55;
        LKT_CHECK(wrong == 0 && mirrored, name, "%d image channels off (worst %d); gradient near its start %d,%d,%d, near its end %d,%d,%d",
                  wrong, worst, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
        free(px);
    }
    lk_release(image);
    lk_release(root);
    lk_display_close(d);
}

/* S6.3: without perspective a 3D rotation flattens: 100 wide turned 60
   degrees about y is 50 wide. */
static void check_flattening(void)
{
    const uint32_t W = 200, H = 140;
    lk_color grey = lk_color_make(0.1, 0.1, 0.1, 1), green = lk_color_make(0.2, 0.8, 0.3, 1);
    lk_rect cb = lk_rect_make(0, 0, 100, 80);
    lk_point center = lk_point_make(0.5, 0.5), cp = lk_point_make(100, 70);
    lk_transform3d ct = lkt_t_rotation_y(LKT_PI / 3);
    const char *name = "S6.3 rotation 60 about y without perspective flattens to half width";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root;
    uint8_t *px;
    lkt_expectation e;

    if (!d) return;
    root = root_layer(W, H, grey, lkt_t_identity());
    layer(root, cb, cp, ct, green);
    lk_display_set_root_layer(d, root);
    memset(&e, 0, sizeof e);
    e.background[0] = e.background[1] = e.background[2] = lkt_quads_to8(0.1);
    lkt_quads_add_quad(&e, lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, ct), root_matrix(W, H)), cb, green);
    px = lkt_render_and_read(d, name);
    if (px) {
        lkt_check_quads(name, "s6_3_flattening", px, W, H, &e);
        free(px);
    }
    lk_release(root);
    lk_display_close(d);
}

/* S6.1: back faces of doubleSided = false layers are culled. Under
   perspective: a layer turned 180 degrees about y with doubleSided false
   draws nothing; with doubleSided true it shows, mirrored (its sublayer on
   its left half appears on the right); a doubleSided = false layer turned
   60 degrees still faces the viewer and draws. */
static void check_double_sided(void)
{
    const uint32_t W = 300, H = 140;
    lk_color grey = lk_color_make(0.1, 0.1, 0.1, 1), red = lk_color_make(0.9, 0.1, 0.1, 1);
    lk_color green = lk_color_make(0.2, 0.8, 0.3, 1), blue = lk_color_make(0.2, 0.3, 0.9, 1);
    lk_color yellow = lk_color_make(0.95, 0.85, 0.2, 1);
    lk_rect b80 = lk_rect_make(0, 0, 80, 80), b60 = lk_rect_make(0, 0, 60, 60);
    lk_rect half = lk_rect_make(0, 0, 40, 80);
    lk_point center = lk_point_make(0.5, 0.5);
    lk_point p1 = lk_point_make(60, 70), p2 = lk_point_make(160, 70), p3 = lk_point_make(255, 70);
    lk_point ph = lk_point_make(20, 40);
    lk_transform3d flip = lkt_t_rotation_y(LKT_PI), turn = lkt_t_rotation_y(LKT_PI / 3);
    lk_transform3d sub = lkt_t_perspective(500), to_root, m2;
    const char *name = "S6.1 doubleSided false culls back faces, true shows them mirrored";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *l1, *l2, *l3;
    uint8_t *px;
    lkt_expectation e;

    if (!d) return;
    root = root_layer(W, H, grey, sub);
    l1 = layer(root, b80, p1, flip, red);
    lk_layer_set_double_sided(l1, false);
    l2 = layer(root, b80, p2, flip, green);
    lk_layer_set_double_sided(l2, true);
    layer(l2, half, ph, lkt_t_identity(), blue);
    l3 = layer(root, b60, p3, turn, yellow);
    lk_layer_set_double_sided(l3, false);
    lk_display_set_root_layer(d, root);

    memset(&e, 0, sizeof e);
    e.background[0] = e.background[1] = e.background[2] = lkt_quads_to8(0.1);
    to_root = lkt_t_mul(lkt_quads_sublayer_matrix(lk_rect_make(0, 0, W, H), center, sub), root_matrix(W, H));
    /* l1: culled, not drawn */
    m2 = lkt_t_mul(lkt_quads_layer_matrix(b80, center, p2, flip), to_root);
    lkt_quads_add_quad(&e, m2, b80, green);
    lkt_quads_add_quad(&e, lkt_t_mul(lkt_quads_layer_matrix(half, center, ph, lkt_t_identity()), m2), half, blue);
    lkt_quads_add_quad(&e, lkt_t_mul(lkt_quads_layer_matrix(b60, center, p3, turn), to_root), b60, yellow);
    {
        const lkt_quad *q = &e.quads[1];
        LKT_CHECK(q->x[0] > 190 && q->x[1] < 170,
                  "S6.1 (the test's own projection) the flipped layer's left half lands on the right",
                  "sublayer corners at x %.2f and %.2f", q->x[0], q->x[1]);
    }
    px = lkt_render_and_read(d, name);
    if (px) {
        lkt_check_quads(name, "s6_1_double_sided", px, W, H, &e);
        free(px);
    }
    lk_release(root);
    lk_display_close(d);
}

/* S6.3: siblings do not share a depth buffer: two cards crossing in depth
   (turned +45 and -45 degrees about y) are drawn in order, the later one
   covering the earlier one everywhere, also where the earlier is nearer. */
static void check_no_shared_depth(void)
{
    const uint32_t W = 300, H = 200;
    lk_color grey = lk_color_make(0.1, 0.1, 0.1, 1), red = lk_color_make(0.9, 0.1, 0.1, 1);
    lk_color blue = lk_color_make(0.2, 0.3, 0.9, 1);
    lk_rect cb = lk_rect_make(0, 0, 160, 100);
    lk_point center = lk_point_make(0.5, 0.5), cp = lk_point_make(150, 100);
    lk_transform3d ta = lkt_t_rotation_y(LKT_PI / 4), tb = lkt_t_rotation_y(-LKT_PI / 4);
    lk_transform3d sub = lkt_t_perspective(500), to_root;
    const char *name = "S6.3 siblings crossing in depth draw in order (no shared depth buffer)";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root;
    uint8_t *px;
    lkt_expectation e;

    if (!d) return;
    root = root_layer(W, H, grey, sub);
    layer(root, cb, cp, ta, red);
    layer(root, cb, cp, tb, blue);
    lk_display_set_root_layer(d, root);
    memset(&e, 0, sizeof e);
    e.background[0] = e.background[1] = e.background[2] = lkt_quads_to8(0.1);
    to_root = lkt_t_mul(lkt_quads_sublayer_matrix(lk_rect_make(0, 0, W, H), center, sub), root_matrix(W, H));
    lkt_quads_add_quad(&e, lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, ta), to_root), cb, red);
    lkt_quads_add_quad(&e, lkt_t_mul(lkt_quads_layer_matrix(cb, center, cp, tb), to_root), cb, blue);
    px = lkt_render_and_read(d, name);
    if (px) {
        lkt_check_quads(name, "s6_3_no_shared_depth", px, W, H, &e);
        free(px);
    }
    lk_release(root);
    lk_display_close(d);
}

/* S1.3, S6.3: zPosition is a translation in z: under perspective
   (m34 = -1/500) a layer at zPosition 100 is nearer, so 1.25 times larger
   (w = 1 - 100/500); and it draws over a sibling added after it. */
static void check_z_position(void)
{
    const uint32_t W = 300, H = 240;
    lk_color grey = lk_color_make(0.1, 0.1, 0.1, 1), red = lk_color_make(0.9, 0.1, 0.1, 1);
    lk_color blue = lk_color_make(0.2, 0.3, 0.9, 1);
    lk_rect b1 = lk_rect_make(0, 0, 80, 80), b2 = lk_rect_make(0, 0, 160, 40);
    lk_point center = lk_point_make(0.5, 0.5), cp = lk_point_make(150, 120);
    lk_transform3d sub = lkt_t_perspective(500), to_root;
    const char *name = "S6.3 zPosition under perspective is nearer, larger, drawn on top";
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *near_layer;
    uint8_t *px;
    lkt_expectation e;

    if (!d) return;
    root = root_layer(W, H, grey, sub);
    near_layer = layer(root, b1, cp, lkt_t_identity(), red);
    lk_layer_set_z_position(near_layer, 100);
    layer(root, b2, cp, lkt_t_identity(), blue);
    lk_display_set_root_layer(d, root);
    memset(&e, 0, sizeof e);
    e.background[0] = e.background[1] = e.background[2] = lkt_quads_to8(0.1);
    to_root = lkt_t_mul(lkt_quads_sublayer_matrix(lk_rect_make(0, 0, W, H), center, sub), root_matrix(W, H));
    lkt_quads_add_quad(&e, lkt_t_mul(lkt_quads_layer_matrix(b2, center, cp, lkt_t_identity()), to_root), b2, blue);
    lkt_quads_add_quad(&e, lkt_t_mul(lkt_t_mul(lkt_quads_layer_matrix(b1, center, cp, lkt_t_identity()),
                                     lkt_t_translation(0, 0, 100)),
                           to_root),
             b1, red);
    {
        const lkt_quad *q = &e.quads[1];
        LKT_CHECK(fabs(q->x[1] - q->x[0] - 100) < 1e-6,
                  "S6.3 (the test's own projection) zPosition 100 at d = 500 scales 1.25",
                  "projected width %.4f", q->x[1] - q->x[0]);
    }
    px = lkt_render_and_read(d, name);
    if (px) {
        lkt_check_quads(name, "s6_3_z_position", px, W, H, &e);
        free(px);
    }
    lk_release(root);
    lk_display_close(d);
}

int main(void)
{
    check_perspective();
    check_flattening();
    check_double_sided();
    check_no_shared_depth();
    check_z_position();
    check_flip_by_pi(0);
    check_flip_by_pi(1);
    {
        static const double angles[] = { 40, -40, 70, -70 };
        size_t i;
        for (i = 0; i < sizeof angles / sizeof angles[0]; i++) {
            check_perspective_image_edges(angles[i], 0);
            check_perspective_image_edges(angles[i], 1);
        }
    }
    return lkt_finish();
}
