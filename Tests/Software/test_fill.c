/*
 * Software backend: FILL and BORDER geometry and colour (S6.1, S6.2):
 * integer and fractional edges, opacity, premultiplied OVER, rounded corners,
 * border bands, a 45-degree rotation and a 3D perspective, each checked
 * against values computed here. Tolerances are per channel, out of 255.
 */
#include "lktest.h"

#define W 400
#define H 400

static const lk_backend *b;
static lk_backend_instance *inst;
static lkt_frame frame;

/* Renders ops over a clear colour; 0 (and a recorded failure) on error. */
static int draw(const lk_dl_op *ops, uint32_t count, lk_dl_color clear)
{
    lk_display_list list = lkt_list(ops, count, W, H, clear);
    return lkt_render(b, inst, &list, &frame);
}

static const lk_dl_color clear_none = { 0, 0, 0, 0 };

/* Checks that pixel (x, y) is colour c at coverage cov over a transparent clear. */
static void expect_coverage(int x, int y, lk_dl_color c, double cov, double tolerance, const char *what)
{
    lkt_expect(&frame, x, y, lkt_scale(lkt_rgba_of(c), cov), tolerance, what);
}

static void test_integer_fill(void)
{
    lkt_begin("fill_integer_rect");
    lk_dl_color red = lkt_color(1, 0, 0, 1);
    lk_dl_op op = lkt_fill(10, 20, 30, 40, red);
    if (draw(&op, 1, lkt_color(0, 0, 0, 1))) {
        lkt_rgba black = { 255, 0, 0, 0 };
        lkt_expect(&frame, 10, 20, lkt_rgba_of(red), 0, "top left inside");
        lkt_expect(&frame, 39, 59, lkt_rgba_of(red), 0, "bottom right inside");
        lkt_expect(&frame, 9, 20, black, 0, "left of");
        lkt_expect(&frame, 40, 20, black, 0, "right of");
        lkt_expect(&frame, 10, 19, black, 0, "above");
        lkt_expect(&frame, 10, 60, black, 0, "below");
    }
    lkt_end();
}

static void test_fractional_fill(void)
{
    lk_dl_color blue = lkt_color(0, 0, 1, 1);
    lkt_begin("fill_fractional_edges_antialiased");
    /* x in [10.25, 30.25), y in [20.5, 30.5): edge pixels covered 3/4, 1/4, 1/2. */
    lk_dl_op op = lkt_fill(10.25, 20.5, 20, 10, blue);
    if (draw(&op, 1, clear_none)) {
        expect_coverage(10, 25, blue, 0.75, 1, "left edge");
        expect_coverage(30, 25, blue, 0.25, 1, "right edge");
        expect_coverage(15, 20, blue, 0.5, 1, "top edge");
        expect_coverage(15, 30, blue, 0.5, 1, "bottom edge");
        expect_coverage(10, 20, blue, 0.375, 1, "top left corner");
        expect_coverage(30, 30, blue, 0.125, 1, "bottom right corner");
        expect_coverage(20, 25, blue, 1.0, 0, "inside");
        expect_coverage(9, 25, blue, 0.0, 0, "outside");
        expect_coverage(31, 25, blue, 0.0, 0, "outside");
    }
    lkt_end();

    lkt_begin("fill_fractional_edges_without_antialiasing");
    /* Pixel-centre sampling: pixel i is in when i + 0.5 is in [x0, x1). */
    op.flags = 0;
    if (draw(&op, 1, clear_none)) {
        expect_coverage(10, 25, blue, 1.0, 0, "left edge (centre 10.5 inside)");
        expect_coverage(29, 25, blue, 1.0, 0, "right edge (centre 29.5 inside)");
        expect_coverage(30, 25, blue, 0.0, 0, "right edge (centre 30.5 outside)");
        expect_coverage(15, 20, blue, 1.0, 0, "top row (centre 20.5 on the edge)");
        expect_coverage(15, 30, blue, 0.0, 0, "bottom row (centre 30.5 outside)");
    }
    lkt_end();

    lkt_begin("fill_subpixel_rect");
    /* A rect inside one pixel covers its area. */
    op = lkt_fill(50.2, 50.1, 0.5, 0.6, blue);
    if (draw(&op, 1, clear_none)) expect_coverage(50, 50, blue, 0.3, 1, "0.5 x 0.6 inside a pixel");
    lkt_end();
}

static void test_opacity_and_over(void)
{
    lkt_begin("fill_opacity");
    lk_dl_op op = lkt_fill(0, 0, 20, 20, lkt_color(1, 0.5f, 0, 1));
    op.opacity = 0.5f;
    if (draw(&op, 1, clear_none)) {
        lkt_rgba want = { 127.5, 127.5, 63.75, 0 };
        lkt_expect(&frame, 5, 5, want, 1, "half opacity");
    }
    lkt_end();

    lkt_begin("fill_translucent_over_translucent");
    /* Premultiplied: a = (0.6 red at 60%), b = (0.1, 0.25, 0.3) at 50%, over grey. */
    lk_dl_color grey = lkt_color(0.2f, 0.2f, 0.2f, 1);
    lk_dl_color ca = lkt_color(0.6f, 0, 0, 0.6f), cb = lkt_color(0.1f, 0.25f, 0.3f, 0.5f);
    lk_dl_op ops[2];
    ops[0] = lkt_fill(10, 10, 40, 40, ca);
    ops[1] = lkt_fill(30, 30, 40, 40, cb);
    ops[1].opacity = 0.8f;
    if (draw(ops, 2, grey)) {
        lkt_rgba bg = lkt_rgba_of(grey), a = lkt_rgba_of(ca), bb = lkt_scale(lkt_rgba_of(cb), 0.8);
        lkt_expect(&frame, 15, 15, lkt_over(a, bg), 2, "a only");
        lkt_expect(&frame, 60, 60, lkt_over(bb, bg), 2, "b only");
        lkt_expect(&frame, 40, 40, lkt_over(bb, lkt_over(a, bg)), 2, "b over a over grey");
        lkt_expect(&frame, 5, 5, bg, 0, "background");
    }
    lkt_end();
}

static void test_rounded_fill(void)
{
    lkt_begin("fill_rounded_corners");
    lk_dl_color green = lkt_color(0, 1, 0, 1);
    lk_dl_op op = lkt_fill(20, 20, 100, 80, green);
    op.corner_radius = 30;
    if (draw(&op, 1, clear_none)) {
        expect_coverage(20, 20, green, 0, 0, "corner pixel");
        expect_coverage(22, 22, green, 0, 0, "near the corner, outside the arc");
        expect_coverage(119, 99, green, 0, 0, "opposite corner pixel");
        expect_coverage(70, 60, green, 1, 0, "centre");
        expect_coverage(20, 60, green, 1, 0, "middle of the left edge");
        expect_coverage(70, 20, green, 1, 0, "middle of the top edge");
        /* Along the top-left arc (centre (50, 50), radius 30), every pixel
           the arc crosses matches the supersampled area within 0.04. */
        int checked = 0;
        for (int deg = 5; deg <= 85; deg += 8) {
            double a = deg * LKT_PI / 180.0;
            int x = (int)floor(50 - 30 * cos(a)), y = (int)floor(50 - 30 * sin(a));
            double cov = lkt_rounded_coverage(x, y, 20, 20, 120, 100, 30, 0, -1);
            expect_coverage(x, y, green, cov, 0.04 * 255, "arc pixel");
            if (cov > 0.05 && cov < 0.95) checked++;
        }
        if (checked < 4) lkt_fail("only %d arc pixels were partial: the edge is not anti-aliased", checked);
    }
    lkt_end();

    lkt_begin("fill_radius_clamped_to_half_side");
    op = lkt_fill(200, 200, 60, 40, green);
    op.corner_radius = 1000;   /* clamps to 20: a capsule */
    if (draw(&op, 1, clear_none)) {
        expect_coverage(230, 220, green, 1, 0, "centre");
        expect_coverage(200, 200, green, 0, 0, "corner");
        double cov = lkt_rounded_coverage(203, 210, 200, 200, 260, 240, 20, 0, -1);
        expect_coverage(203, 210, green, cov, 0.04 * 255, "left cap");
    }
    lkt_end();
}

/* S6.1, S6.2: large axis-aligned shapes that the software backend draws in
   bands of rows (rounded fills, borders rounded or not): translucent, at
   fractional places, scaled unevenly and flipped, some hanging off the
   output, a border thinner than a pixel. */
typedef struct card {
    double x0, y0, x1, y1, rx, ry;   /* device rect and corner radii */
    double bx, by;                   /* border width across and down (0: a fill) */
} card;

static card make_card(double x0, double y0, double x1, double y1, double rx, double ry, double bx, double by)
{
    card c;
    c.x0 = x0; c.y0 = y0; c.x1 = x1; c.y1 = y1;
    c.rx = rx; c.ry = ry; c.bx = bx; c.by = by;
    return c;
}

static int rounded_cards(lk_dl_op *ops, card *cards)
{
    int n = 0;
    lkt_mat flip = lkt_mat_mul(lkt_scale_mat(1.3, -1.1), lkt_translate(180.4, 390.7, 0));
    lkt_mat wide = lkt_mat_mul(lkt_scale_mat(1.5, 0.8), lkt_translate(25.5, 300.25, 0));
    ops[n] = lkt_fill(20.3, 15.6, 210.5, 170.25, lkt_color(0.1f, 0.3f, 0.5f, 0.7f));
    ops[n].corner_radius = 26.5;
    cards[n++] = make_card(20.3, 15.6, 230.8, 185.85, 26.5, 26.5, 0, 0);
    ops[n] = lkt_fill(150.75, 120.2, 230, 260.4, lkt_color(0.5f, 0.2f, 0.1f, 0.55f));
    ops[n].corner_radius = 9.3;
    cards[n++] = make_card(150.75, 120.2, 380.75, 380.6, 9.3, 9.3, 0, 0);
    ops[n] = lkt_fill(-40.4, 230.9, 200, 190, lkt_color(0.2f, 0.6f, 0.2f, 0.8f));   /* off the left and bottom */
    ops[n].corner_radius = 40;
    cards[n++] = make_card(-40.4, 230.9, 159.6, 420.9, 40, 40, 0, 0);
    ops[n] = lkt_fill(0, 0, 160, 120, lkt_color(0.35f, 0.1f, 0.4f, 0.6f));   /* 1.3 x -1.1 */
    ops[n].corner_radius = 20;
    lkt_set_transform(&ops[n], flip);
    cards[n++] = make_card(180.4, 390.7 - 132, 180.4 + 208, 390.7, 26, 22, 0, 0);
    /* borders: a plain one off the pixel grid, rounded ones, one scaled,
       one 0.6 pixels wide */
    const double borders[4][6] = {
        { 60.4, 90.7, 300.3, 200.6, 0, 2.5 }, { 120.25, 200.5, 250, 180, 30, 3.2 },
        { 0, 0, 200, 150, 12, 4 },            { 30.35, 40.8, 220, 160, 20, 0.6 },
    };
    for (int i = 0; i < 4; i++) {
        const double *d = borders[i];
        ops[n] = lkt_op(LK_DL_OP_BORDER, d[0], d[1], d[2], d[3]);
        ops[n].color = lkt_color(0.6f * (0.5f + 0.15f * (float)i), 0.1f, 0.3f, 0.5f + 0.15f * (float)i);
        ops[n].corner_radius = d[4];
        ops[n].border_width = d[5];
        double sx = 1, sy = 1, tx = 0, ty = 0;
        if (i == 2) {
            lkt_set_transform(&ops[n], wide);
            sx = 1.5; sy = 0.8; tx = 25.5; ty = 300.25;
        }
        cards[n++] = make_card(sx * d[0] + tx, sy * d[1] + ty, sx * (d[0] + d[2]) + tx, sy * (d[1] + d[3]) + ty,
                             d[4] * sx, d[4] * sy, d[5] * sx, d[5] * sy);
    }
    for (int i = 0; i < n; i++) ops[i].flags |= LK_DL_FLAG_ANTIALIAS;
    return n;
}

/* Whether (x, y) is inside a rect with elliptical corners of radii rx, ry. */
static int in_card_shape(double x, double y, double x0, double y0, double x1, double y1, double rx, double ry)
{
    if (rx <= 0 || ry <= 0) return x >= x0 && x < x1 && y >= y0 && y < y1;
    return lkt_in_rounded_rect((x - x0) / rx, (y - y0) / ry, 0, 0, (x1 - x0) / rx, (y1 - y0) / ry, 1.0);
}

static int in_card(const card *c, double x, double y)
{
    if (!in_card_shape(x, y, c->x0, c->y0, c->x1, c->y1, c->rx, c->ry)) return 0;
    if (c->bx <= 0) return 1;
    /* the inside a border leaves: inset by its width, its radius less it */
    return !in_card_shape(x, y, c->x0 + c->bx, c->y0 + c->by, c->x1 - c->bx, c->y1 - c->by, c->rx - c->bx,
                          c->ry - c->by);
}

static void test_large_rounded_fills(void)
{
    lkt_begin("fill_and_border_large_shapes_match_their_area");
    /* each alone over a transparent clear: colour x area, the area exact
       where a pixel is wholly in or out, supersampled where it is not */
    lk_dl_op ops[8];
    card cards[8];
    int n = rounded_cards(ops, cards);
    for (int k = 0; k < n && !lkt()->reason[0]; k++) {
        if (!draw(&ops[k], 1, clear_none)) break;
        const card *d = &cards[k];
        for (int y = (int)floor(d->y0) - 1; y <= (int)ceil(d->y1) && y < H; y++) {
            if (y < 0) continue;
            for (int x = (int)floor(d->x0) - 1; x <= (int)ceil(d->x1) && x < W; x++) {
                if (x < 0) continue;
                int corners = 0;
                for (int c = 0; c < 4; c++) corners += in_card(d, x + (c & 1), y + (c >> 1));
                double cov = corners == 4 ? 1.0 : 0.0;
                /* a thin border can cross a pixel none of whose corners it holds */
                int partial = (corners != 0 && corners != 4) ||
                              (d->bx > 0 && (d->bx < 1.5 || d->by < 1.5) && corners == 0 &&
                               x + 1 > d->x0 && x < d->x1 && y + 1 > d->y0 && y < d->y1);
                if (partial) {
                    int inside = 0;
                    for (int j = 0; j < 32; j++)
                        for (int i = 0; i < 32; i++) inside += in_card(d, x + (i + 0.5) / 32, y + (j + 0.5) / 32);
                    cov = inside / 1024.0;
                }
                if (!lkt_expect(&frame, x, y, lkt_scale(lkt_rgba_of(ops[k].color), cov), 0.04 * 255, "shape pixel")) {
                    printf("# shape %d\n", k);
                    goto done;
                }
            }
        }
    }
done:
    lkt_end();

    /* S6.4: a frame partly redrawn has, inside the damage box, the pixels
       of the whole redraw: boxes on the shapes' straight sides (a few rows
       of their middles), across the rows where their corners end, and on
       a corner; a box must not change how a shape is drawn. */
    lkt_begin("fill_and_border_large_shapes_partly_redrawn_equal_a_whole_redraw");
    lk_dl_color grey = lkt_color(0.8f, 0.8f, 0.75f, 1);
    lkt_frame whole = lkt_frame_new(W, H);
    const lk_dl_box boxes[] = {
        { 10, 80, 30, 20 },  { 222, 60, 16, 40 }, { 140, 200, 20, 30 }, { 375, 250, 12, 60 },
        { 0, 300, 12, 50 },  { 15, 35, 40, 12 },  { 176, 300, 14, 40 }, { 380, 290, 8, 8 },
        { 18, 10, 30, 30 },  { 148, 118, 250, 4 },
        /* the borders' sides, and where a rounded one's corners end */
        { 55, 150, 12, 30 }, { 355, 200, 10, 30 }, { 115, 280, 12, 20 }, { 115, 225, 20, 12 },
        { 20, 350, 12, 20 }, { 320, 340, 10, 30 }, { 26, 100, 10, 30 },  { 100, 38, 30, 6 },
    };
    if (draw(ops, (uint32_t)n, grey)) {
        memcpy(whole.pixels, frame.pixels, (size_t)W * H * 4);
        for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; i++)
            if (!lkt_redrawn_as_whole(b, inst, lkt_list(ops, (uint32_t)n, W, H, grey), boxes[i], &whole, &frame))
                break;
    }
    free(whole.pixels);
    lkt_end();
}

/* S6.4: the edge pixels of a polygon mask (a rounded border; a fill
   turned) do not depend on the damage box. Found by differential fuzzing:
   the outline was cut to the damage box before its coverage was summed
   along each row, so the sum met other edges in another order, and a
   pixel exactly half covered (the border's inside ends at y = 124.5) came
   out 127 under some boxes and 128 in the whole frame: a seam of one level
   along the damage box's edge. */
static void test_polygon_edges_under_damage(void)
{
    lkt_begin("polygon_edge_pixels_do_not_depend_on_the_damage_box");
    lk_dl_op ops[3];
    ops[0] = lkt_op(LK_DL_OP_BORDER, 124.5, -9.5, 137, 137.5);
    ops[0].color = lkt_color(0.65f, 0.125f * 0.65f, 0.875f * 0.65f, 0.65f);
    ops[0].border_width = 3.5;
    ops[0].corner_radius = 30.5;
    /* a rounded fill turned by 30 degrees about its centre (200.5, 250.5) */
    ops[1] = lkt_op(LK_DL_OP_FILL, -60.5, -40.25, 121, 80.5);
    ops[1].color = lkt_color(0.4f, 0.2f, 0.1f, 0.5f);
    ops[1].corner_radius = 12.5;
    double c = cos(3.14159265358979 / 6), sn = sin(3.14159265358979 / 6);
    ops[1].transform[0] = c; ops[1].transform[1] = sn; ops[1].transform[4] = -sn; ops[1].transform[5] = c;
    ops[1].transform[12] = 200.5; ops[1].transform[13] = 250.5;
    /* a square border under perspective */
    ops[2] = lkt_op(LK_DL_OP_BORDER, 40.5, 200.5, 90, 90);
    ops[2].color = lkt_color(0.2f, 0.5f, 0.1f, 0.7f);
    ops[2].border_width = 6;
    ops[2].transform[3] = 0.0011;
    ops[2].transform[7] = 0.0007;
    lk_dl_color grey = lkt_color(0.8f, 0.8f, 0.75f, 1);
    lkt_frame whole = lkt_frame_new(W, H);
    if (draw(ops, 3, grey)) {
        memcpy(whole.pixels, frame.pixels, (size_t)W * H * 4);
        int ok = 1;
        /* the damage boxes of a small square moving over the border's
           lower edge, then boxes across the turned fill and the border
           under perspective */
        for (int x = 126; ok && x < 262; x += 3) {
            lk_dl_box box = { x, 119, 7 + x % 5, 8 };
            ok = lkt_redrawn_as_whole(b, inst, lkt_list(ops, 3, W, H, grey), box, &whole, &frame);
        }
        for (int y = 180; ok && y < 330; y += 7) {
            lk_dl_box box = { 100 + y % 40, y, 90, 11 };
            ok = lkt_redrawn_as_whole(b, inst, lkt_list(ops, 3, W, H, grey), box, &whole, &frame);
        }
    }
    free(whole.pixels);
    lkt_end();
}

static void test_border(void)
{
    lk_dl_color c = lkt_color(0.5f, 0, 0.5f, 1);
    lkt_begin("border_pixel_aligned");
    lk_dl_op op = lkt_op(LK_DL_OP_BORDER, 10, 10, 50, 20);
    op.color = c;
    op.border_width = 3;
    if (draw(&op, 1, clear_none)) {
        expect_coverage(10, 10, c, 1, 0, "outer corner");
        expect_coverage(12, 20, c, 1, 0, "left band");
        expect_coverage(13, 20, c, 0, 0, "just inside the left band");
        expect_coverage(59, 20, c, 1, 0, "right band");
        expect_coverage(56, 20, c, 0, 0, "just inside the right band");
        expect_coverage(30, 12, c, 1, 0, "top band");
        expect_coverage(30, 13, c, 0, 0, "below the top band");
        expect_coverage(30, 27, c, 1, 0, "bottom band");
        expect_coverage(30, 26, c, 0, 0, "above the bottom band");
        expect_coverage(60, 20, c, 0, 0, "outside");
    }
    lkt_end();

    lkt_begin("border_fractional_band");
    /* Outer x0 = 10.5, band 2 wide: pixel 10 half, 11 full, 12 half. */
    op = lkt_op(LK_DL_OP_BORDER, 10.5, 10.5, 40, 40);
    op.color = c;
    op.border_width = 2;
    if (draw(&op, 1, clear_none)) {
        expect_coverage(10, 30, c, 0.5, 2, "outer half pixel");
        expect_coverage(11, 30, c, 1, 1, "full band pixel");
        expect_coverage(12, 30, c, 0.5, 2, "inner half pixel");
        expect_coverage(13, 30, c, 0, 0, "inside");
    }
    lkt_end();

    lkt_begin("border_rounded_band_and_inner_radius");
    /* Outer radius 30, band 10: the inside is rounded by 20. */
    op = lkt_op(LK_DL_OP_BORDER, 20, 20, 100, 100);
    op.color = c;
    op.border_width = 10;
    op.corner_radius = 30;
    if (draw(&op, 1, clear_none)) {
        expect_coverage(25, 70, c, 1, 0, "left band");
        expect_coverage(35, 70, c, 0, 0, "inside the left band");
        expect_coverage(70, 25, c, 1, 0, "top band");
        expect_coverage(70, 35, c, 0, 0, "inside the top band");
        expect_coverage(21, 21, c, 0, 0, "outside the outer arc");
        /* (33, 33) is 24 from the corner centre (50, 50): inside the outer
           radius 30, outside the inner radius 20, so it is band. */
        expect_coverage(33, 33, c, 1, 0, "band at the inner corner");
        expect_coverage(37, 37, c, 0, 0, "inside the inner arc");
        int partial = 0;
        for (int deg = 10; deg <= 80; deg += 10) {
            double a = deg * LKT_PI / 180.0;
            for (int k = 0; k < 2; k++) {
                double r = k == 0 ? 30 : 20;
                int x = (int)floor(50 - r * cos(a)), y = (int)floor(50 - r * sin(a));
                double cov = lkt_rounded_coverage(x, y, 20, 20, 120, 120, 30, 10, 20);
                expect_coverage(x, y, c, cov, 0.04 * 255, k == 0 ? "outer arc pixel" : "inner arc pixel");
                if (cov > 0.05 && cov < 0.95) partial++;
            }
        }
        if (partial < 6) lkt_fail("only %d arc pixels were partial", partial);
    }
    lkt_end();

    lkt_begin("border_wider_than_half_fills");
    op = lkt_op(LK_DL_OP_BORDER, 100, 100, 20, 10);
    op.color = c;
    op.border_width = 8;
    if (draw(&op, 1, clear_none)) expect_coverage(110, 105, c, 1, 0, "centre");
    lkt_end();
}

static void test_rotated_square(void)
{
    lkt_begin("fill_rotated_45_degrees");
    /* A 100x100 square rotated about its centre, placed at (200, 200). */
    lkt_mat m = lkt_mat_mul(lkt_mat_mul(lkt_translate(-50, -50, 0), lkt_rotate_z(LKT_PI / 4)),
                            lkt_translate(200, 200, 0));
    lk_dl_color c = lkt_color(1, 1, 1, 1);
    lk_dl_op op = lkt_fill(0, 0, 100, 100, c);
    lkt_set_transform(&op, m);
    if (draw(&op, 1, clear_none)) {
        double xs[4], ys[4];
        lkt_project(m, 0, 0, &xs[0], &ys[0]);
        lkt_project(m, 100, 0, &xs[1], &ys[1]);
        lkt_project(m, 100, 100, &xs[2], &ys[2]);
        lkt_project(m, 0, 100, &xs[3], &ys[3]);
        expect_coverage(200, 200, c, 1, 0, "centre");
        /* The bounding box reaches 200 +- 70.7; its corners are empty. */
        expect_coverage(131, 131, c, 0, 0, "bounding box corner");
        expect_coverage(268, 131, c, 0, 0, "bounding box corner");
        expect_coverage(131, 268, c, 0, 0, "bounding box corner");
        expect_coverage(268, 268, c, 0, 0, "bounding box corner");
        /* Every pixel the edge from the top vertex to the right one crosses is
           partial and within 0.04 of the exact area. */
        int partial = 0;
        double worst = 0;
        for (int x = 205; x < 265; x++) {
            double t = (x + 0.5 - xs[0]) / (xs[1] - xs[0]);
            int y = (int)floor(ys[0] + t * (ys[1] - ys[0]));
            for (int dy = -1; dy <= 1; dy++) {
                double cov = lkt_polygon_coverage(xs, ys, 4, x, y + dy);
                double got = lkt_alpha(&frame, x, y + dy) / 255.0;
                if (fabs(got - cov) > worst) worst = fabs(got - cov);
                if (cov > 0.1 && cov < 0.9) {
                    partial++;
                    if (got < 0.02 || got > 0.98) lkt_fail("edge pixel (%d,%d) is not partial (%g)", x, y + dy, got);
                }
            }
        }
        if (worst > 0.04) lkt_fail("edge coverage differs from the area by up to %.3f", worst);
        if (partial < 30) lkt_fail("only %d partial edge pixels", partial);
    }
    lkt_end();

    lkt_begin("fill_rotated_without_antialiasing");
    op.flags = 0;
    if (draw(&op, 1, clear_none)) {
        int partial = 0;
        for (int y = 120; y < 280; y++)
            for (int x = 120; x < 280; x++) {
                double a = lkt_alpha(&frame, x, y);
                if (a != 0 && a != 255) partial++;
            }
        if (partial) lkt_fail("%d partial pixels without LK_DL_FLAG_ANTIALIAS", partial);
        expect_coverage(200, 200, c, 1, 0, "centre");
        /* Pixel centres inside the diamond |dx| + |dy| < 70.7 are in. */
        expect_coverage(200 + 69, 200, c, 1, 0, "inside near the right vertex");
        expect_coverage(200 + 71, 200, c, 0, 0, "outside the right vertex");
    }
    lkt_end();
}

static void test_perspective(void)
{
    lkt_begin("fill_perspective_rotation_about_y");
    /* 200x200 layer rotated 40 degrees about its vertical axis under
       m34 = -1/500, centred at (200, 200): the near edge grows, the far one
       shrinks. */
    lkt_mat m = lkt_mat_mul(lkt_translate(-100, -100, 0), lkt_rotate_y(40 * LKT_PI / 180));
    m = lkt_mat_mul(m, lkt_perspective(500));
    m = lkt_mat_mul(m, lkt_translate(200, 200, 0));
    lk_dl_color c = lkt_color(1, 0.5f, 0, 1);
    lk_dl_op op = lkt_fill(0, 0, 200, 200, c);
    lkt_set_transform(&op, m);
    if (draw(&op, 1, clear_none)) {
        double xs[4], ys[4];
        lkt_project(m, 0, 0, &xs[0], &ys[0]);
        lkt_project(m, 200, 0, &xs[1], &ys[1]);
        lkt_project(m, 200, 200, &xs[2], &ys[2]);
        lkt_project(m, 0, 200, &xs[3], &ys[3]);
        double left_h = ys[3] - ys[0], right_h = ys[2] - ys[1];
        if (fabs(left_h - right_h) < 20)
            lkt_fail("test setup: the projected edges should differ (%g vs %g)", left_h, right_h);
        double cx = 0, cy = 0;
        for (int i = 0; i < 4; i++) { cx += xs[i] / 4; cy += ys[i] / 4; }
        expect_coverage((int)cx, (int)cy, c, 1, 0, "centre of the quad");
        for (int i = 0; i < 4; i++) {
            /* 4 px inside each corner, towards the centre, is filled. */
            double dx = cx - xs[i], dy = cy - ys[i], len = sqrt(dx * dx + dy * dy);
            int x = (int)floor(xs[i] + 4 * dx / len), y = (int)floor(ys[i] + 4 * dy / len);
            expect_coverage(x, y, c, 1, 0, "inside a corner");
            /* 3 px outside the middle of each edge is empty. */
            int j = (i + 1) % 4;
            double mx = (xs[i] + xs[j]) / 2, my = (ys[i] + ys[j]) / 2;
            double ox = mx - cx, oy = my - cy, ol = sqrt(ox * ox + oy * oy);
            expect_coverage((int)floor(mx + 3 * ox / ol), (int)floor(my + 3 * oy / ol), c, 0, 0,
                            "outside an edge");
        }
        /* Pixels along the slanted top edge match the exact area. */
        double worst = 0;
        for (int x = (int)xs[0] + 2; x < (int)xs[1] - 2; x += 3) {
            double t = (x + 0.5 - xs[0]) / (xs[1] - xs[0]);
            int y = (int)floor(ys[0] + t * (ys[1] - ys[0]));
            double cov = lkt_polygon_coverage(xs, ys, 4, x, y);
            double got = lkt_alpha(&frame, x, y) / 255.0;
            if (fabs(got - cov) > worst) worst = fabs(got - cov);
        }
        if (worst > 0.04) lkt_fail("top edge coverage differs from the area by up to %.3f", worst);
        /* The filled height of a column near each side matches the projection. */
        for (int side = 0; side < 2; side++) {
            int x = side == 0 ? (int)ceil(xs[0]) + 2 : (int)floor(xs[1]) - 3;
            double t = (x + 0.5 - (side == 0 ? xs[0] : xs[1])) / ((side == 0 ? xs[1] : xs[0]) - (side == 0 ? xs[0] : xs[1]));
            double top = side == 0 ? ys[0] + t * (ys[1] - ys[0]) : ys[1] + t * (ys[0] - ys[1]);
            double bottom = side == 0 ? ys[3] + t * (ys[2] - ys[3]) : ys[2] + t * (ys[3] - ys[2]);
            double filled = 0;
            for (int y = 0; y < H; y++) filled += lkt_alpha(&frame, x, y) / 255.0;
            if (fabs(filled - (bottom - top)) > 1.5)
                lkt_fail("column %d: %.2f px filled, expected %.2f", x, filled, bottom - top);
        }
    }
    lkt_end();

    lkt_begin("fill_partly_behind_the_eye");
    /* 2000 px wide, rotated 80 degrees under m34 = -1/500: w = 1 + x sin(80)/500
       for local x in [-1000, 1000] goes negative; that part must vanish, not
       fold over the screen. */
    m = lkt_mat_mul(lkt_translate(-1000, -100, 0), lkt_rotate_y(80 * LKT_PI / 180));
    m = lkt_mat_mul(m, lkt_perspective(500));
    m = lkt_mat_mul(m, lkt_translate(200, 200, 0));
    op = lkt_fill(0, 0, 2000, 200, c);
    lkt_set_transform(&op, m);
    if (draw(&op, 1, clear_none)) {
        double x, y;
        /* A visible point (w > 0) lands on a filled pixel. */
        double w = lkt_project(m, 1100, 100, &x, &y);
        if (w <= 0) lkt_fail("test setup: local x 1100 should be in front");
        else if (x >= 0 && x < W && y >= 0 && y < H) expect_coverage((int)x, (int)y, c, 1, 0, "visible point");
        /* Dividing a point behind the eye by its negative w would land it
           here; nothing visible projects near it. */
        w = lkt_project(m, 100, 100, &x, &y);
        if (w >= 0) lkt_fail("test setup: local x 100 should be behind the eye");
        int near_visible = 0;
        for (double lx = 0; lx <= 2000; lx += 2) {
            double px, py;
            if (lkt_project(m, lx, 100, &px, &py) > 0 && fabs(px - x) < 4) near_visible = 1;
        }
        if (!near_visible && x >= 0 && x < W && y >= 0 && y < H)
            expect_coverage((int)x, (int)y, c, 0, 0, "where a point behind the eye would fold to");
        else if (near_visible)
            lkt_fail("test setup: the fold point is near the visible part");
    }
    lkt_end();
}

static void test_degenerate_input(void)
{
    lk_dl_color c = lkt_color(1, 0, 0, 1);

    lkt_begin("zero_size_rects_draw_nothing");
    {
        lk_dl_op ops[3];
        ops[0] = lkt_fill(10, 10, 0, 50, c);
        ops[1] = lkt_fill(10, 10, 50, 0, c);
        ops[2] = lkt_op(LK_DL_OP_BORDER, 10, 10, 0, 0);
        ops[2].color = c;
        ops[2].border_width = 5;
        if (draw(ops, 3, clear_none))
            for (int y = 5; y < 65; y += 3)
                for (int x = 5; x < 65; x += 3) expect_coverage(x, y, c, 0, 0, "zero size");
    }
    lkt_end();

    lkt_begin("negative_size_rect_is_normalised");
    {
        lk_dl_op op = lkt_fill(30, 30, -20, -20, c);
        if (draw(&op, 1, clear_none)) {
            expect_coverage(10, 10, c, 1, 0, "inside");
            expect_coverage(30, 30, c, 0, 0, "outside");
        }
    }
    lkt_end();

    lkt_begin("huge_rects_are_clipped");
    {
        lk_dl_op ops[2];
        ops[0] = lkt_fill(-1e9, -1e9, 2e9, 2e9, c);
        ops[1] = lkt_fill(-1e300, 50, 1e300, 10, lkt_color(0, 1, 0, 1));
        ops[1].transform[0] = 0.7;   /* scaled: the rect path */
        lkt_mat m = lkt_mat_mul(lkt_rotate_z(0.3), lkt_translate(100, 100, 0));
        lk_dl_op rotated = lkt_fill(-1e7, -1e7, 2e7, 2e7, lkt_color(0, 0, 1, 1));
        lkt_set_transform(&rotated, m);
        lk_dl_op all[3];
        all[0] = ops[0]; all[1] = ops[1]; all[2] = rotated;
        if (draw(all, 3, clear_none)) {
            expect_coverage(0, 0, lkt_color(0, 0, 1, 1), 1, 0, "rotated huge");
            expect_coverage(W - 1, H - 1, lkt_color(0, 0, 1, 1), 1, 0, "rotated huge");
        }
    }
    lkt_end();

    lkt_begin("huge_rounded_rects_are_clipped");
    {
        /* the middle rows of the first cover the output; the second's width
           overflows to infinity once scaled; the third's corners are far
           outside the output, its straight sides across it */
        lk_dl_op ops[3];
        ops[0] = lkt_fill(-1e9, -1e9, 2e9, 2e9, c);
        ops[0].corner_radius = 50;
        ops[1] = lkt_fill(-1e300, 50, 1.5e300, 10, lkt_color(0, 1, 0, 1));
        ops[1].corner_radius = 3;
        ops[1].transform[0] = 1e10;
        ops[2] = lkt_fill(100.5, -5e5, 50, 1e6, lkt_color(0, 0, 1, 1));
        ops[2].corner_radius = 20;
        if (draw(ops, 3, clear_none)) {
            expect_coverage(0, 0, c, 1, 0, "a corner of the output");
            expect_coverage(W - 1, H - 1, c, 1, 0, "the opposite corner");
            expect_coverage(120, 200, lkt_color(0, 0, 1, 1), 1, 0, "inside the tall one");
            lkt_rgba half = lkt_over(lkt_scale(lkt_rgba_of(lkt_color(0, 0, 1, 1)), 0.5), lkt_rgba_of(c));
            lkt_expect(&frame, 100, 200, half, 1, "its left edge, half covered");
        }
    }
    lkt_end();

    lkt_begin("non_finite_values_skip_the_op");
    {
        lk_dl_op ops[6];
        for (int i = 0; i < 6; i++) ops[i] = lkt_fill(0, 0, 50, 50, c);
        ops[0].transform[5] = NAN;
        ops[1].transform[7] = INFINITY;
        ops[2].rect.x = NAN;
        ops[3].rect.width = INFINITY;
        ops[4].transform[3] = NAN;
        ops[5] = lkt_fill(100, 100, 10, 10, lkt_color(0, 1, 0, 1));
        ops[5].corner_radius = NAN;   /* a NaN radius is treated as 0 */
        if (draw(ops, 6, clear_none)) {
            expect_coverage(10, 10, c, 0, 0, "NaN/inf ops drew nothing");
            expect_coverage(105, 105, lkt_color(0, 1, 0, 1), 1, 0, "the op after them drew");
        }
        lk_dl_op weird = lkt_fill(0, 0, 20, 20, lkt_color(NAN, 0.5f, INFINITY, NAN));
        weird.opacity = NAN;
        lk_dl_op border = lkt_op(LK_DL_OP_BORDER, 0, 0, 20, 20);
        border.border_width = NAN;
        border.color = c;
        lk_dl_op two[2];
        two[0] = weird; two[1] = border;
        draw(two, 2, clear_none);
    }
    lkt_end();

    lkt_begin("singular_transforms_draw_nothing");
    {
        lk_dl_op ops[3];
        for (int i = 0; i < 3; i++) ops[i] = lkt_fill(0, 0, 50, 50, c);
        ops[0].transform[0] = 0;               /* zero x scale */
        ops[1].transform[15] = 0;              /* w = 0 everywhere */
        ops[2].transform[0] = 1; ops[2].transform[1] = 1;
        ops[2].transform[4] = 1; ops[2].transform[5] = 1; /* collapses to a line */
        if (draw(ops, 3, clear_none))
            for (int y = 0; y < 60; y += 4)
                for (int x = 0; x < 60; x += 4) expect_coverage(x, y, c, 0, 0, "degenerate");
    }
    lkt_end();
}

int main(void)
{
    b = lkt_load();
    if (!b) return 1;
    lkt_host_record record;
    memset(&record, 0, sizeof record);
    lk_backend_host host = lkt_host(&record);
    inst = lkt_open(b, &host, W, H);
    if (!inst) return 1;
    frame = lkt_frame_new(W, H);

    test_integer_fill();
    test_fractional_fill();
    test_opacity_and_over();
    test_rounded_fill();
    test_large_rounded_fills();
    test_border();
    test_polygon_edges_under_damage();
    test_rotated_square();
    test_perspective();
    test_degenerate_input();

    b->close(inst);
    free(frame.pixels);
    return lkt_exit_code();
}
