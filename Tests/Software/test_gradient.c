/*
 * GRADIENT ops (ABI 3): axial, radial (an ellipse) and conic gradients of
 * several stops, in rotated and rounded rects, against colours computed here
 * from the ABI's text (layerkit_backend.h): the location by projection,
 * normalised elliptical distance or clockwise angle from the end point's
 * direction, padded; the straight colour and alpha interpolated, then
 * premultiplied (a transparent red stop keeps its red). Also: more stops
 * than a GPU keeps in uniforms, gradients with no extent (the last stop's
 * colour), opacity, and lists refused for bad stops. Then gradients drawn
 * again, changed, partly redrawn and more than the software backend's
 * gradient cache keeps, against the same drawn whole or by a fresh
 * instance (pixel for pixel).
 *
 * Every pixel of the frame is checked. Tolerance: pixels entirely inside
 * the shape within 3 of 255 of the gradient's colour at their centre; edge
 * pixels (the coverage by 16x16 supersampling here) within 12 (the colour
 * varies across the pixel); at most 0.2% of the pixels beyond, for centres
 * that sit on a hard stop or the conic's seam. The worst difference is
 * printed.
 */
#include "lktest.h"

#define W 200
#define H 200

static const lk_backend *b;
static lk_backend_instance *inst;
static lkt_frame frame;

static lk_dl_gradient_stop stop(double location, float r, float g, float bl, float a)
{
    lk_dl_gradient_stop s;
    s.location = location;
    s.color = lkt_color(r, g, bl, a);
    return s;
}

/* The op's local point for output point (x, y): its transform is affine here. */
static void to_local(const lk_dl_op *op, double x, double y, double *lx, double *ly)
{
    const double *m = op->transform;
    double a = m[0], bb = m[1], c = m[4], d = m[5], det = a * d - bb * c;
    x -= m[12];
    y -= m[13];
    *lx = (x * d - y * c) / det;
    *ly = (y * a - x * bb) / det;
}

/* The ABI's colour of op's gradient at local (x, y), premultiplied, 0..255. */
static lkt_rgba gradient_at(const lk_dl_op *op, double x, double y)
{
    double sx = op->gradient_start_x, sy = op->gradient_start_y;
    double dx = op->gradient_end_x - sx, dy = op->gradient_end_y - sy, qx = x - sx, qy = y - sy, t;
    if (op->gradient_kind == LK_DL_GRADIENT_AXIAL) {
        double l = dx * dx + dy * dy;
        t = l > 0 ? (qx * dx + qy * dy) / l : 2;
    } else if (op->gradient_kind == LK_DL_GRADIENT_RADIAL) {
        double rx = fabs(dx), ry = fabs(dy);
        t = rx > 0 && ry > 0 ? sqrt(qx * qx / (rx * rx) + qy * qy / (ry * ry)) : 2;
    } else {
        double l = sqrt(dx * dx + dy * dy), ux = dx / l, uy = dy / l;
        t = atan2(qx * -uy + qy * ux, qx * ux + qy * uy) / (2 * LKT_PI);
        t -= floor(t);
    }
    const lk_dl_gradient_stop *s = op->gradient_stops;
    lk_dl_color c = s[0].color;
    for (uint32_t i = 1; i < op->gradient_stop_count; i++) {
        if (t >= s[i].location) {
            c = s[i].color;
        } else if (t > s[i - 1].location) {
            double f = (t - s[i - 1].location) / (s[i].location - s[i - 1].location);
            c.r = (float)(s[i - 1].color.r + (s[i].color.r - s[i - 1].color.r) * f);
            c.g = (float)(s[i - 1].color.g + (s[i].color.g - s[i - 1].color.g) * f);
            c.b = (float)(s[i - 1].color.b + (s[i].color.b - s[i - 1].color.b) * f);
            c.a = (float)(s[i - 1].color.a + (s[i].color.a - s[i - 1].color.a) * f);
        }
    }
    lkt_rgba v;
    v.a = c.a * 255.0 * op->opacity;
    v.r = c.r * c.a * 255.0 * op->opacity;
    v.g = c.g * c.a * 255.0 * op->opacity;
    v.b = c.b * c.a * 255.0 * op->opacity;
    return v;
}

static double radius_of(const lk_dl_op *op)
{
    return fmin(op->corner_radius, 0.5 * fmin(op->rect.width, op->rect.height));
}

/* Fraction of output pixel (px, py) inside op's rounded rect, 16x16 samples. */
static double coverage(const lk_dl_op *op, int px, int py)
{
    int in = 0;
    for (int j = 0; j < 16; j++)
        for (int i = 0; i < 16; i++) {
            double lx, ly;
            to_local(op, px + (i + 0.5) / 16, py + (j + 0.5) / 16, &lx, &ly);
            in += lkt_in_rounded_rect(lx, ly, op->rect.x, op->rect.y, op->rect.x + op->rect.width,
                                      op->rect.y + op->rect.height, radius_of(op));
        }
    return in / 256.0;
}

static int channel_difference(uint32_t p, lkt_rgba e)
{
    double got[4] = { (double)(p >> 24), (double)((p >> 16) & 255), (double)((p >> 8) & 255), (double)(p & 255) };
    double want[4] = { e.a, e.r, e.g, e.b };
    double worst = 0;
    for (int i = 0; i < 4; i++) worst = fmax(worst, fabs(got[i] - want[i]));
    return (int)lround(worst);
}

/* Draws op over transparent and checks every pixel (see the tolerance above). */
static void check_gradient(const char *name, const lk_dl_op *op)
{
    lkt_begin(name);
    lk_display_list list = lkt_list(op, 1, W, H, lkt_color(0, 0, 0, 0));
    if (lkt_render(b, inst, &list, &frame)) {
        int worst_inside = 0, worst_edge = 0, beyond = 0, wx = 0, wy = 0;
        uint32_t wp = 0;
        lkt_rgba we = { 0, 0, 0, 0 };
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double lx, ly, cov = coverage(op, x, y);
                to_local(op, x + 0.5, y + 0.5, &lx, &ly);
                lkt_rgba e = lkt_scale(gradient_at(op, lx, ly), cov);
                int d = channel_difference(lkt_pixel(&frame, x, y), e);
                int inside = cov == 1.0 || cov == 0.0;
                if (d > (inside ? 3 : 12)) beyond++;
                if (inside && d > worst_inside) {
                    worst_inside = d;
                    wx = x; wy = y; wp = lkt_pixel(&frame, x, y); we = e;
                }
                if (!inside && d > worst_edge) worst_edge = d;
            }
        printf("# %s: worst difference %d inside (at (%d,%d): %08x, expected argb(%.1f,%.1f,%.1f,%.1f)), "
               "%d on edges; %d pixels beyond the tolerance\n",
               name, worst_inside, wx, wy, wp, we.a, we.r, we.g, we.b, worst_edge, beyond);
        if (beyond * 500 > W * H)
            lkt_fail("%d pixels beyond the tolerance (at most %d); worst inside %d at (%d,%d): %08x, expected "
                     "argb(%.1f,%.1f,%.1f,%.1f)", beyond, W * H / 500, worst_inside, wx, wy, wp, we.a, we.r,
                     we.g, we.b);
    }
    lkt_end();
}

static lk_dl_op gradient_op(uint32_t kind, const lk_dl_gradient_stop *stops, uint32_t count, double angle,
                            double radius)
{
    lk_dl_op op = lkt_op(LK_DL_OP_GRADIENT, -70, -50, 140, 100);
    op.corner_radius = radius;
    op.gradient_kind = kind;
    op.gradient_stops = stops;
    op.gradient_stop_count = count;
    lkt_set_transform(&op, lkt_mat_mul(lkt_rotate_z(angle), lkt_translate(100.25, 100.5, 0)));
    return op;
}

static void test_kinds(void)
{
    /* a transparent red stop (its red still counts), a hard stop at 0.6 */
    static lk_dl_gradient_stop axial[5];
    axial[0] = stop(0.1, 1, 0, 0, 0);
    axial[1] = stop(0.4, 0, 0, 1, 1);
    axial[2] = stop(0.6, 0, 1, 0, 1);
    axial[3] = stop(0.6, 1, 1, 0, 0.5);
    axial[4] = stop(0.9, 0, 1, 1, 1);
    lk_dl_op op = gradient_op(LK_DL_GRADIENT_AXIAL, axial, 5, 0.5, 20);
    op.gradient_start_x = -60; op.gradient_start_y = -30;
    op.gradient_end_x = 50; op.gradient_end_y = 40;
    op.opacity = 0.8f;
    check_gradient("gradient_axial_rotated_rounded_five_stops", &op);

    static lk_dl_gradient_stop radial[3];
    radial[0] = stop(0, 1, 1, 1, 1);
    radial[1] = stop(0.5, 1, 0, 0.5, 0.7f);
    radial[2] = stop(1, 0, 0, 0.5, 1);
    op = gradient_op(LK_DL_GRADIENT_RADIAL, radial, 3, -0.35, 10);
    op.gradient_start_x = 10; op.gradient_start_y = 5;
    op.gradient_end_x = 70; op.gradient_end_y = -25;   /* radii 60 and 30 */
    check_gradient("gradient_radial_ellipse_rotated_rounded", &op);

    static lk_dl_gradient_stop conic[5];
    conic[0] = stop(0, 1, 0, 0, 1);
    conic[1] = stop(0.25, 1, 1, 0, 1);
    conic[2] = stop(0.5, 0, 1, 0, 0.5f);
    conic[3] = stop(0.75, 0, 0, 1, 1);
    conic[4] = stop(1, 1, 0, 1, 1);
    op = gradient_op(LK_DL_GRADIENT_CONIC, conic, 5, 0.9, 30);
    op.gradient_start_x = -5; op.gradient_start_y = 8;
    op.gradient_end_x = -40; op.gradient_end_y = 30;
    check_gradient("gradient_conic_clockwise_from_the_end_point_rotated_rounded", &op);

    /* more stops than gles keeps in uniforms: its ramp texture */
    static lk_dl_gradient_stop many[20];
    for (int i = 0; i < 20; i++)
        many[i] = stop(i / 19.0, (float)(i % 2), (float)((i / 2) % 2), (float)(i % 3 == 0), 1);
    op = gradient_op(LK_DL_GRADIENT_AXIAL, many, 20, 0, 0);
    op.gradient_start_x = -70; op.gradient_start_y = 0;
    op.gradient_end_x = 70; op.gradient_end_y = 0;
    check_gradient("gradient_axial_twenty_stops", &op);
}

static void test_interpolation_rule(void)
{
    /* red at alpha 0 to opaque blue: half-way is straight (0.5, 0, 0.5) at
       alpha 0.5, premultiplied argb(128, 64, 0, 64), not blue */
    static lk_dl_gradient_stop s[2];
    s[0] = stop(0, 1, 0, 0, 0);
    s[1] = stop(1, 0, 0, 1, 1);
    lk_dl_op op = lkt_op(LK_DL_OP_GRADIENT, 0, 0, 101, 10);
    op.gradient_kind = LK_DL_GRADIENT_AXIAL;
    op.gradient_stops = s;
    op.gradient_stop_count = 2;
    op.gradient_end_x = 101;
    lkt_begin("gradient_interpolates_straight_colour_then_premultiplies");
    lk_display_list list = lkt_list(&op, 1, W, H, lkt_color(0, 0, 0, 0));
    if (lkt_render(b, inst, &list, &frame)) {
        lkt_rgba half = { 127.5, 63.75, 0, 63.75 };
        lkt_expect(&frame, 50, 5, half, 2, "half-way");
    }
    lkt_end();
}

static void test_no_extent(void)
{
    static lk_dl_gradient_stop s[2];
    s[0] = stop(0, 1, 0, 0, 1);
    s[1] = stop(1, 0, 0.5f, 1, 1);
    lkt_rgba last = { 255, 0, 127.5, 255 };
    lk_dl_op op = lkt_op(LK_DL_OP_GRADIENT, 10, 10, 50, 50);
    op.gradient_kind = LK_DL_GRADIENT_AXIAL;
    op.gradient_stops = s;
    op.gradient_stop_count = 2;
    op.gradient_start_x = op.gradient_end_x = 30;
    op.gradient_start_y = op.gradient_end_y = 30;
    lkt_begin("gradient_axial_with_start_at_end_is_the_last_stop");
    lk_display_list list = lkt_list(&op, 1, W, H, lkt_color(0, 0, 0, 0));
    if (lkt_render(b, inst, &list, &frame)) {
        lkt_expect(&frame, 12, 12, last, 1, "corner");
        lkt_expect(&frame, 40, 50, last, 1, "inside");
    }
    lkt_end();
    op.gradient_kind = LK_DL_GRADIENT_RADIAL;
    op.gradient_end_x = 50;   /* radii 20 and 0 */
    lkt_begin("gradient_radial_with_a_zero_radius_is_the_last_stop");
    list = lkt_list(&op, 1, W, H, lkt_color(0, 0, 0, 0));
    if (lkt_render(b, inst, &list, &frame)) {
        lkt_expect(&frame, 30, 30, last, 1, "centre");
        lkt_expect(&frame, 58, 58, last, 1, "corner");
    }
    lkt_end();
}

static void expect_refused(const char *name, const lk_dl_op *op, const char *needle)
{
    lkt_begin(name);
    lk_dl_op ops[2];
    ops[0] = lkt_fill(0, 0, W, H, lkt_color(0, 1, 0, 1));
    lk_display_list good = lkt_list(ops, 1, W, H, lkt_color(0, 0, 0, 1));
    if (lkt_render(b, inst, &good, &frame)) {
        ops[1] = *op;
        lk_display_list bad = lkt_list(ops, 2, W, H, lkt_color(0, 0, 0, 1));
        char error[512] = "";
        if (b->render(inst, &bad, error, sizeof error)) {
            lkt_fail("a list with a bad gradient was drawn");
        } else if (!strstr(error, needle) || !strstr(error, "op 1")) {
            lkt_fail("the error does not name op 1 and \"%s\": %s", needle, error);
        } else if (b->read_pixels(inst, frame.pixels, W * 4, error, sizeof error)) {
            lkt_rgba green = { 255, 0, 255, 0 };
            lkt_expect(&frame, 100, 100, green, 0, "the frame before the refused list");
        }
    }
    lkt_end();
}

static void test_refused(void)
{
    static lk_dl_gradient_stop s[2];
    s[0] = stop(0.5, 1, 0, 0, 1);
    s[1] = stop(0.2, 0, 0, 1, 1);
    lk_dl_op op = lkt_op(LK_DL_OP_GRADIENT, 0, 0, 10, 10);
    op.gradient_kind = LK_DL_GRADIENT_AXIAL;
    op.gradient_stops = s;
    op.gradient_stop_count = 2;
    expect_refused("gradient_stops_out_of_order_are_refused", &op, "less than the one before it");
    s[1].location = 1.5;
    expect_refused("gradient_stop_beyond_1_is_refused", &op, "outside 0...1");
    op.gradient_stop_count = 0;
    expect_refused("gradient_without_stops_is_refused", &op, "without stops");
    op.gradient_stop_count = 1;
    op.gradient_kind = 7;
    expect_refused("gradient_of_an_unknown_kind_is_refused", &op, "unknown gradient_kind 7");
}

/* Three gradients (axial, radial, conic; turned, rounded, translucent)
   filling most of the output, the conic one hanging off its right side. */
static int three_gradients(lk_dl_op *ops, lk_dl_gradient_stop *stops)
{
    stops[0] = stop(0, 1, 0, 0, 1);
    stops[1] = stop(0.45, 0.2f, 0.4f, 1, 0.6f);
    stops[2] = stop(1, 0, 1, 0.3f, 1);
    ops[0] = gradient_op(LK_DL_GRADIENT_AXIAL, stops, 3, 0.3, 18);
    ops[0].gradient_start_x = -60; ops[0].gradient_start_y = -20;
    ops[0].gradient_end_x = 55; ops[0].gradient_end_y = 35;
    ops[1] = gradient_op(LK_DL_GRADIENT_RADIAL, stops, 3, -0.2, 0);
    lkt_set_transform(&ops[1], lkt_mat_mul(lkt_rotate_z(-0.2), lkt_translate(60.5, 140.25, 0)));
    ops[1].gradient_start_x = 5; ops[1].gradient_start_y = 0;
    ops[1].gradient_end_x = 65; ops[1].gradient_end_y = 40;
    ops[1].opacity = 0.7f;
    ops[2] = gradient_op(LK_DL_GRADIENT_CONIC, stops, 3, 1.1, 30);
    lkt_set_transform(&ops[2], lkt_mat_mul(lkt_rotate_z(1.1), lkt_translate(170.75, 60.5, 0)));
    ops[2].gradient_start_x = 0; ops[2].gradient_start_y = 0;
    ops[2].gradient_end_x = 30; ops[2].gradient_end_y = 10;
    for (int i = 0; i < 3; i++) ops[i].flags |= LK_DL_FLAG_ANTIALIAS;
    return 3;
}


/* The software backend keeps a gradient's source for the frames after
   (software_gradient_cache.c). Whatever a backend keeps: a gradient drawn
   again is drawn the same; one changed in any of its stops, points or
   transform is drawn changed, as a fresh instance draws it; and (S6.4) a
   damage box redraws the whole frame's pixels inside it. */
static void test_drawn_again(void)
{
    lk_dl_gradient_stop stops[3], changed_stops[3];
    lk_dl_op ops[3], changed[3];
    int n = three_gradients(ops, stops);
    lk_dl_color grey = lkt_color(0.5f, 0.5f, 0.5f, 1);
    lkt_frame first = lkt_frame_new(W, H), fresh = lkt_frame_new(W, H);
    lkt_host_record record;
    memset(&record, 0, sizeof record);
    lk_backend_host host = lkt_host(&record);
    lk_backend_instance *again = lkt_open(b, &host, W, H);
    lk_display_list list = lkt_list(ops, (uint32_t)n, W, H, grey);
    if (!again) {
        lkt_begin("gradient_drawn_again_unchanged_is_the_same");
        lkt_fail("could not open an instance");
        lkt_end();
        goto done;
    }

    lkt_begin("gradient_drawn_again_unchanged_is_the_same");
    if (lkt_render(b, again, &list, &first))
        for (int k = 0; k < 3 && lkt_render(b, again, &list, &frame); k++)
            if (!lkt_same_frame(&frame, &first, "drawn again")) break;
    lkt_end();

    lkt_begin("gradient_changed_is_drawn_as_a_fresh_instance_draws_it");
    for (int c = 0; c < 5 && !lkt()->reason[0]; c++) {
        memcpy(changed, ops, sizeof ops);
        memcpy(changed_stops, stops, sizeof stops);
        for (int i = 0; i < n; i++) changed[i].gradient_stops = changed_stops;
        const char *what = "";
        switch (c) {
        case 0: changed_stops[1].color.g = 0.9f; what = "with a stop's colour changed"; break;
        case 1: changed_stops[1].location = 0.3; what = "with a stop's location changed"; break;
        case 2: changed[0].gradient_end_x += 7; what = "with the end point changed"; break;
        case 3: changed[1].transform[12] += 3; what = "with the transform changed"; break;
        default: changed[2].gradient_kind = LK_DL_GRADIENT_AXIAL; what = "with the kind changed"; break;
        }
        lk_display_list other = lkt_list(changed, (uint32_t)n, W, H, grey);
        lk_backend_instance *clean = lkt_open(b, NULL, W, H);
        if (!clean) break;
        int ok = lkt_render(b, again, &other, &frame) && lkt_render(b, clean, &other, &fresh);
        b->close(clean);
        if (!ok || !lkt_same_frame(&frame, &fresh, what)) break;
        /* and back: the first frame again */
        if (!lkt_render(b, again, &list, &frame) || !lkt_same_frame(&frame, &first, "changed back")) break;
    }
    lkt_end();

    lkt_begin("gradient_partly_redrawn_equals_a_whole_redraw");
    {
        const lk_dl_box boxes[] = { { 40, 60, 30, 20 }, { 101, 99, 3, 3 }, { 150, 20, 50, 90 },
                                    { 0, 120, 200, 7 }, { 63, 131, 1, 40 } };
        for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; i++)
            if (!lkt_redrawn_as_whole(b, again, list, boxes[i], &first, &frame)) break;
    }
    lkt_end();

    b->close(again);
    /* On software the frames after the first came from its gradient cache:
       the three gradients are evaluated at the first frame, those a change
       touches at each change (three for a stop, one otherwise), and when
       drawn back only those the changes pushed out of the cache; never
       when partly redrawn. */
    if (strcmp(lkt_backend_name(), "software") == 0) {
        lkt_begin("gradient_unchanged_is_drawn_from_the_cache");
        long cached = logged_count(record.last_log, " gradients drawn from the gradient cache");
        long evaluated = logged_count(record.last_log, " evaluated into it)");
        printf("# gradients drawn from the cache: %ld, evaluated into it: %ld\n", cached, evaluated);
        if (cached < 40 || evaluated > 3 + 5 * 3 || evaluated < 3 + 5)
            lkt_fail("%ld gradients drawn from the cache, %ld evaluated into it: \"%s\"", cached, evaluated,
                     record.last_log);
        lkt_end();
    }
done:
    free(first.pixels);
    free(fresh.pixels);
}

/* More gradients a frame than the cache keeps, each the whole output:
   every frame is drawn right (as a fresh instance draws it), however the
   cache evicts. */
static void test_more_than_the_cache(void)
{
    lkt_begin("gradient_more_than_the_cache_keeps_are_drawn_right");
    lk_dl_gradient_stop stops[9][2];
    lk_dl_op ops[9];
    for (int i = 0; i < 9; i++) {
        stops[i][0] = stop(0, 0.1f * (float)i, 0.2f, 0.3f, 1);
        stops[i][1] = stop(1, 0.9f, 0.1f * (float)i, 0.5f, 0.5f);
        ops[i] = lkt_op(LK_DL_OP_GRADIENT, 0, 0, W, H);
        ops[i].gradient_kind = LK_DL_GRADIENT_AXIAL + (uint32_t)(i % 3);
        ops[i].gradient_stops = stops[i];
        ops[i].gradient_stop_count = 2;
        ops[i].gradient_start_x = 10.0 * i;
        ops[i].gradient_start_y = 100;
        ops[i].gradient_end_x = 150;
        ops[i].gradient_end_y = 30.0 + 5 * i;
        ops[i].opacity = 0.3f;
    }
    lkt_frame fresh = lkt_frame_new(W, H);
    lk_backend_instance *kept = lkt_open(b, NULL, W, H);
    for (int f = 0; kept && f < 3 && !lkt()->reason[0]; f++) {
        lk_display_list list = lkt_list(ops + f, 9 - (uint32_t)f, W, H, lkt_color(0, 0, 0, 1));
        lk_backend_instance *clean = lkt_open(b, NULL, W, H);
        if (!clean) break;
        int ok = lkt_render(b, kept, &list, &frame) && lkt_render(b, clean, &list, &fresh);
        b->close(clean);
        if (!ok || !lkt_same_frame(&frame, &fresh, "in a frame of many gradients")) break;
    }
    if (kept) b->close(kept);
    free(fresh.pixels);
    lkt_end();
}

int main(void)
{
    b = lkt_load();
    if (!b) return 1;
    inst = lkt_open(b, NULL, W, H);
    if (!inst) return 1;
    frame = lkt_frame_new(W, H);
    test_kinds();
    test_interpolation_rule();
    test_no_extent();
    test_refused();
    test_drawn_again();
    test_more_than_the_cache();
    b->close(inst);
    free(frame.pixels);
    return lkt_exit_code();
}
