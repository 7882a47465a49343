/*
 * Software backend: anti-aliased coverage of the mask path on many random
 * shapes. Opaque white is drawn over transparent black, so each pixel's
 * alpha is the coverage the backend computed; every pixel of the frame is
 * compared with a reference computed here: the exact area of the polygon and
 * pixel square (lkt_polygon_coverage), or a supersampled count (64x64 per
 * pixel for straight edges, 32x32 for rounded corners, a 2-D stratified grid
 * whose error on an edge is far below the tolerance). Rotated and perspective
 * rects, a perspective floor reaching its horizon, borders (the inside taken
 * away), rotated clips, rounded rects and rounded specks under a pixel,
 * slivers and shapes hanging off the output, and one shape too large for the
 * analytic rasterizer. Tolerances are coverage fractions.
 */
#include "lktest.h"

#define W 160
#define H 160

static const lk_backend *b;
static lk_backend_instance *inst;
static lkt_frame frame;

static const lk_dl_color clear_none = { 0, 0, 0, 0 };

static unsigned long rng_state = 20261122ul;

/* Deterministic uniform value in [lo, hi). */
static double rnd(double lo, double hi)
{
    rng_state = (rng_state * 1103515245ul + 12345ul) & 0x7ffffffful;
    return lo + (hi - lo) * (double)(rng_state >> 8) / (double)(0x7ffffffful >> 8);
}

/* A reference coverage for pixel (x, y). */
typedef double (*coverage_fn)(const void *shape, int x, int y);

/* The worst difference seen by the current check, and where. */
typedef struct worst_error {
    double error;
    int x, y, shape;
    double want, got;
} worst_error;

/* Compares every pixel of f (alpha and red, which are equal for opaque white)
   with the reference; records the worst error in worst. */
static void compare_frame(const lkt_frame *f, coverage_fn fn, const void *shape, int index,
                          worst_error *worst)
{
    for (int y = 0; y < (int)f->height; y++) {
        for (int x = 0; x < (int)f->width; x++) {
            uint32_t p = lkt_pixel(f, x, y);
            double want = fn(shape, x, y);
            double got[2] = { (double)(p >> 24) / 255.0, (double)((p >> 16) & 255) / 255.0 };
            for (int c = 0; c < 2; c++) {
                double e = fabs(got[c] - want);
                if (e > worst->error) {
                    worst->error = e;
                    worst->x = x;
                    worst->y = y;
                    worst->shape = index;
                    worst->want = want;
                    worst->got = got[c];
                }
            }
        }
    }
}

static void judge(const worst_error *worst, double tolerance)
{
    if (worst->error > tolerance)
        lkt_fail("shape %d, pixel (%d,%d): coverage %.4f, expected %.4f (error %.4f > %.4f)",
                 worst->shape, worst->x, worst->y, worst->got, worst->want, worst->error, tolerance);
}

static int draw(const lk_dl_op *ops, uint32_t count)
{
    lk_display_list list = lkt_list(ops, count, frame.width, frame.height, clear_none);
    return lkt_render(b, inst, &list, &frame);
}

/* ------------------------------------------------------------------------ */
/* Quads                                                                     */

typedef struct quad {
    double xs[4], ys[4];
    double x0, y0, x1, y1;   /* bounds */
} quad;

/* The device quad of local rect (x, y, w, h) under m. */
static quad project_rect(lkt_mat m, double x, double y, double w, double h)
{
    quad q;
    lkt_project(m, x, y, &q.xs[0], &q.ys[0]);
    lkt_project(m, x + w, y, &q.xs[1], &q.ys[1]);
    lkt_project(m, x + w, y + h, &q.xs[2], &q.ys[2]);
    lkt_project(m, x, y + h, &q.xs[3], &q.ys[3]);
    q.x0 = q.x1 = q.xs[0];
    q.y0 = q.y1 = q.ys[0];
    for (int i = 1; i < 4; i++) {
        q.x0 = fmin(q.x0, q.xs[i]); q.x1 = fmax(q.x1, q.xs[i]);
        q.y0 = fmin(q.y0, q.ys[i]); q.y1 = fmax(q.y1, q.ys[i]);
    }
    return q;
}

static int outside_bounds(const quad *q, int x, int y)
{
    return x + 1 <= q->x0 || x >= q->x1 || y + 1 <= q->y0 || y >= q->y1;
}

static double quad_exact(const void *shape, int x, int y)
{
    const quad *q = (const quad *)shape;
    if (outside_bounds(q, x, y)) return 0.0;
    return lkt_polygon_coverage(q->xs, q->ys, 4, x, y);
}

/* Inside a convex quad of either winding. */
static int in_quad(const quad *q, double x, double y)
{
    int pos = 0, neg = 0;
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        double c = (q->xs[j] - q->xs[i]) * (y - q->ys[i]) - (q->ys[j] - q->ys[i]) * (x - q->xs[i]);
        if (c > 0) pos = 1;
        if (c < 0) neg = 1;
    }
    return !(pos && neg);
}

static double quad_supersampled(const void *shape, int x, int y)
{
    const quad *q = (const quad *)shape;
    if (outside_bounds(q, x, y)) return 0.0;
    if (in_quad(q, x, y) && in_quad(q, x + 1, y) && in_quad(q, x, y + 1) && in_quad(q, x + 1, y + 1))
        return 1.0;   /* convex: the pixel is inside when its corners are */
    int inside = 0;
    for (int j = 0; j < 64; j++)
        for (int i = 0; i < 64; i++)
            inside += in_quad(q, x + (i + 0.5) / 64.0, y + (j + 0.5) / 64.0);
    return inside / 4096.0;
}

/* Outer quad minus the inner one (a border with its inside taken away). */
typedef struct frame_shape { quad outer, inner; } frame_shape;

static double frame_exact(const void *shape, int x, int y)
{
    const frame_shape *f = (const frame_shape *)shape;
    return quad_exact(&f->outer, x, y) - quad_exact(&f->inner, x, y);
}

/* A random similarity: rotation by any angle, scale, fractional offset. */
static lkt_mat random_rotation(double w, double h, double *scale_out)
{
    double angle = rnd(0, 2 * LKT_PI), scale = rnd(0.5, 1.5);
    lkt_mat m = lkt_mat_mul(lkt_translate(-w / 2, -h / 2, 0), lkt_rotate_z(angle));
    m = lkt_mat_mul(m, lkt_scale_mat(scale, scale));
    m = lkt_mat_mul(m, lkt_translate(rnd(-20, W + 20), rnd(-20, H + 20), 0));
    if (scale_out) *scale_out = scale;
    return m;
}

static void random_size(int i, double *w, double *h)
{
    /* slivers and specks, small layers, and a few near the output size */
    switch (i % 4) {
    case 0: *w = rnd(0.2, 3); *h = rnd(0.2, 40); break;
    case 1: *w = rnd(4, 40); *h = rnd(4, 40); break;
    case 2: *w = rnd(20, 80); *h = rnd(2, 80); break;
    default: *w = rnd(60, 150); *h = rnd(60, 150); break;
    }
}

static void test_rotated_rects(void)
{
    lkt_begin("coverage_rotated_rects_exact_area");
    worst_error worst;
    memset(&worst, 0, sizeof worst);
    for (int i = 0; i < 48 && !lkt()->reason[0]; i++) {
        double w, h;
        random_size(i, &w, &h);
        lkt_mat m = random_rotation(w, h, NULL);
        lk_dl_op op = lkt_fill(0, 0, w, h, lkt_color(1, 1, 1, 1));
        lkt_set_transform(&op, m);
        quad q = project_rect(m, 0, 0, w, h);
        if (draw(&op, 1)) compare_frame(&frame, quad_exact, &q, i, &worst);
    }
    judge(&worst, 0.02);
    lkt_end();
}

static void test_perspective_quads(void)
{
    lkt_begin("coverage_perspective_quads_exact_area");
    worst_error worst;
    memset(&worst, 0, sizeof worst);
    for (int i = 0; i < 32 && !lkt()->reason[0]; i++) {
        double w, h;
        random_size(i, &w, &h);
        lkt_mat m = lkt_mat_mul(lkt_translate(-w / 2, -h / 2, 0), lkt_rotate_z(rnd(0, 2 * LKT_PI)));
        m = lkt_mat_mul(m, lkt_rotate_y(rnd(-1.2, 1.2)));
        m = lkt_mat_mul(m, lkt_perspective(rnd(80, 600)));
        m = lkt_mat_mul(m, lkt_translate(rnd(-10, W + 10), rnd(-10, H + 10), 0));
        quad q = project_rect(m, 0, 0, w, h);
        double ox, oy;
        int visible = lkt_project(m, 0, 0, &ox, &oy) > 0.05 && lkt_project(m, w, 0, &ox, &oy) > 0.05 &&
                      lkt_project(m, w, h, &ox, &oy) > 0.05 && lkt_project(m, 0, h, &ox, &oy) > 0.05;
        if (!visible) continue;   /* behind the eye: not a simple quad */
        lk_dl_op op = lkt_fill(0, 0, w, h, lkt_color(1, 1, 1, 1));
        lkt_set_transform(&op, m);
        if (draw(&op, 1)) compare_frame(&frame, quad_exact, &q, i, &worst);
    }
    judge(&worst, 0.02);
    lkt_end();
}

/* S6.3, S6.4: a floor 100,000 points square, turned 1.2 rad about y under
   m34 = -1/200 and tilted, recedes to within 0.17 pixel of its horizon (the
   line its points at infinity go to), which crosses the output obliquely.
   All four corners are in front of the eye, so it is a plain quad; the
   pixels along its far edge whose centres are past the horizon are still
   partly covered, and must hold that area (gles dropped them: up to 82
   levels missing). */
static void test_floor_to_the_horizon(void)
{
    lkt_begin("coverage_perspective_floor_to_the_horizon_exact_area");
    const double side = 100000;
    lkt_mat m = lkt_mat_mul(lkt_translate(0, -side / 2, 0), lkt_rotate_y(1.2));
    m = lkt_mat_mul(m, lkt_perspective(200));
    m = lkt_mat_mul(m, lkt_rotate_z(0.3));
    m = lkt_mat_mul(m, lkt_translate(40, 60, 0));
    quad q = project_rect(m, 0, 0, side, side);
    lk_dl_op op = lkt_fill(0, 0, side, side, lkt_color(1, 1, 1, 1));
    lkt_set_transform(&op, m);
    worst_error worst;
    memset(&worst, 0, sizeof worst);
    if (draw(&op, 1)) compare_frame(&frame, quad_exact, &q, 0, &worst);
    judge(&worst, 0.02);
    lkt_end();
}

static void test_supersampled(void)
{
    lkt_begin("coverage_rotated_rects_supersampled_64x64");
    worst_error worst;
    memset(&worst, 0, sizeof worst);
    for (int i = 0; i < 6 && !lkt()->reason[0]; i++) {
        double w = rnd(3, 24), h = rnd(3, 24);
        lkt_mat m = random_rotation(w, h, NULL);
        lk_dl_op op = lkt_fill(0, 0, w, h, lkt_color(1, 1, 1, 1));
        lkt_set_transform(&op, m);
        quad q = project_rect(m, 0, 0, w, h);
        if (draw(&op, 1)) compare_frame(&frame, quad_supersampled, &q, i, &worst);
    }
    judge(&worst, 0.02);
    lkt_end();
}

static void test_rotated_borders(void)
{
    lkt_begin("coverage_rotated_borders_exact_area");
    worst_error worst;
    memset(&worst, 0, sizeof worst);
    for (int i = 0; i < 16 && !lkt()->reason[0]; i++) {
        double w = rnd(12, 120), h = rnd(12, 120), width = rnd(2, 5);
        lkt_mat m = random_rotation(w, h, NULL);
        lk_dl_op op = lkt_op(LK_DL_OP_BORDER, 0, 0, w, h);
        op.color = lkt_color(1, 1, 1, 1);
        op.border_width = width;
        lkt_set_transform(&op, m);
        frame_shape f;
        f.outer = project_rect(m, 0, 0, w, h);
        f.inner = project_rect(m, width, width, w - 2 * width, h - 2 * width);
        if (draw(&op, 1)) compare_frame(&frame, frame_exact, &f, i, &worst);
    }
    judge(&worst, 0.02);
    lkt_end();
}

static void test_rotated_clips(void)
{
    lkt_begin("coverage_rotated_clips_exact_area");
    worst_error worst;
    memset(&worst, 0, sizeof worst);
    for (int i = 0; i < 16 && !lkt()->reason[0]; i++) {
        double w, h;
        random_size(i, &w, &h);
        lkt_mat m = random_rotation(w, h, NULL);
        lk_dl_op ops[3];
        ops[0] = lkt_op(LK_DL_OP_PUSH_CLIP, 0, 0, w, h);
        lkt_set_transform(&ops[0], m);
        ops[1] = lkt_fill(0, 0, W, H, lkt_color(1, 1, 1, 1));
        ops[2] = lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0);
        quad q = project_rect(m, 0, 0, w, h);
        if (draw(ops, 3)) compare_frame(&frame, quad_exact, &q, i, &worst);
    }
    judge(&worst, 0.02);
    lkt_end();
}

/* ------------------------------------------------------------------------ */
/* Rounded rects                                                             */

typedef struct rounded {
    double w, h, r;          /* local rect (0, 0, w, h) with radius r */
    double c, s, scale;      /* local = R^-1 (p - t) / scale */
    double tx, ty;           /* device position of the rect's centre */
    quad bounds;
} rounded;

/* The part of pixel (x, y) inside r, from n x n samples. */
static double rounded_area(const rounded *r, int x, int y, int n)
{
    if (outside_bounds(&r->bounds, x, y)) return 0.0;
    int inside = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
            double dx = x + (i + 0.5) / n - r->tx, dy = y + (j + 0.5) / n - r->ty;
            double lx = (r->c * dx + r->s * dy) / r->scale + r->w / 2;
            double ly = (-r->s * dx + r->c * dy) / r->scale + r->h / 2;
            inside += lkt_in_rounded_rect(lx, ly, 0, 0, r->w, r->h, r->r);
        }
    }
    return inside / ((double)n * n);
}

static double rounded_supersampled(const void *shape, int x, int y)
{
    return rounded_area((const rounded *)shape, x, y, 32);
}

static void test_rotated_rounded(void)
{
    lkt_begin("coverage_rotated_rounded_rects_supersampled");
    worst_error worst;
    memset(&worst, 0, sizeof worst);
    for (int i = 0; i < 8 && !lkt()->reason[0]; i++) {
        rounded r;
        r.w = rnd(6, 60);
        r.h = rnd(6, 60);
        r.r = rnd(1, 0.5 * fmin(r.w, r.h));
        double angle = rnd(0, 2 * LKT_PI);
        r.scale = rnd(0.6, 1.4);
        r.c = cos(angle);
        r.s = sin(angle);
        r.tx = rnd(0, W);
        r.ty = rnd(0, H);
        lkt_mat m = lkt_mat_mul(lkt_translate(-r.w / 2, -r.h / 2, 0), lkt_rotate_z(angle));
        m = lkt_mat_mul(m, lkt_scale_mat(r.scale, r.scale));
        m = lkt_mat_mul(m, lkt_translate(r.tx, r.ty, 0));
        r.bounds = project_rect(m, 0, 0, r.w, r.h);
        lk_dl_op op = lkt_fill(0, 0, r.w, r.h, lkt_color(1, 1, 1, 1));
        op.corner_radius = r.r;
        lkt_set_transform(&op, m);
        if (draw(&op, 1)) compare_frame(&frame, rounded_supersampled, &r, i, &worst);
    }
    /* flattening (0.01 px) and 32x32 sampling on top of the rasterizer */
    judge(&worst, 0.04);
    lkt_end();
}

/* S6.2, S6.4: rounded rects smaller than a pixel (0.2 to 1.2 points a
   side, any radius up to half the shorter side), on whole, half and quarter
   pixels (where their edges lie on the sides of a pixel or of its quarters)
   and anywhere, some turned: 64 to a frame, one in each 20x20 cell. Within
   8 levels (the cross-backend tolerance; measured: gles 4, software 6).
   gles drew them up to 39 levels fuller than their area here (an edge on a
   side of the pixel's square counted twice), and with that fixed, arcs
   under a pixel's radius up to 12 levels fuller (one tangent a quarter). */
typedef struct speck_frame { rounded specks[64]; int count; } speck_frame;

static double specks_supersampled(const void *shape, int x, int y)
{
    const speck_frame *f = (const speck_frame *)shape;
    double sum = 0;
    for (int i = 0; i < f->count; i++) sum += rounded_area(&f->specks[i], x, y, 64);
    return sum;
}

static void test_rounded_specks(void)
{
    lkt_begin("coverage_rounded_specks_under_a_pixel_supersampled");
    worst_error worst;
    memset(&worst, 0, sizeof worst);
    static speck_frame f;
    for (int k = 0; k < 4 && !lkt()->reason[0]; k++) {
        lk_dl_op ops[64];
        f.count = 64;
        for (int i = 0; i < 64; i++) {
            rounded *r = &f.specks[i];
            r->w = rnd(0.2, 1.2);
            r->h = i % 3 == 0 ? r->w : rnd(0.2, 1.2);
            r->r = rnd(0.01, 0.5) * fmin(r->w, r->h);
            double angle = k == 3 ? rnd(0, 2 * LKT_PI) : 0;
            r->scale = 1;
            r->c = cos(angle);
            r->s = sin(angle);
            /* the rect's corner on a whole, half or quarter pixel, or anywhere */
            double step = i % 4 == 3 ? 0 : 1.0 / (1 << (i % 4));
            double x0 = (i % 8) * 20 + 8 + (step > 0 ? step * floor(rnd(0, 4)) : rnd(0, 1));
            double y0 = (i / 8) * 20 + 8 + (step > 0 ? step * floor(rnd(0, 4)) : rnd(0, 1));
            r->tx = x0 + r->w / 2;
            r->ty = y0 + r->h / 2;
            lkt_mat m = lkt_mat_mul(lkt_translate(-r->w / 2, -r->h / 2, 0), lkt_rotate_z(angle));
            m = lkt_mat_mul(m, lkt_translate(r->tx, r->ty, 0));
            r->bounds = project_rect(m, 0, 0, r->w, r->h);
            ops[i] = lkt_fill(0, 0, r->w, r->h, lkt_color(1, 1, 1, 1));
            ops[i].corner_radius = r->r;
            lkt_set_transform(&ops[i], m);
        }
        if (draw(ops, 64)) compare_frame(&frame, specks_supersampled, &f, k, &worst);
    }
    judge(&worst, 8.0 / 255);
    lkt_end();
}

/* S6.2, S6.3, S6.4: rounded layers squashed to under a pixel and a half
   across: a circle 30 points wide scaled by 0.02 to 0.08 in y (an ellipse
   30 x 0.6 to 2.4 pixels), the same turned in the plane afterwards (squashed
   along a slant), and rounded layers turned about x or y to 1.50-1.55 rad
   (nearly edge-on), with and without perspective. Each against a 64x64
   supersampled area of the layer mapped back through its transform; within
   8 levels (the cross-backend tolerance; measured: gles 6, software 3).
   gles drew the ends of the squashed circle up to 92 levels too full: a
   pixel centre level with the arc's centre took the tangent of the point
   nearest it in local space, pixels away once squashed, and one tangent a
   quarter pixel bends too little for an arc squashed that much. */
typedef struct warped {
    double w, h, r;          /* local rect (0, 0, w, h) with radius r */
    double inverse[9];       /* [X Y 1] * inverse ~ [x y 1] (row vectors) */
    quad bounds;
} warped;

static warped warp_rounded(lkt_mat m, double w, double h, double r)
{
    /* [x y 1] * a = [X Y 1] * w, from the 4x4 row-vector matrix */
    double a[9] = { m.m[0], m.m[1], m.m[3], m.m[4], m.m[5], m.m[7], m.m[12], m.m[13], m.m[15] };
    warped s;
    s.w = w;
    s.h = h;
    s.r = r;
    double det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
                 a[2] * (a[3] * a[7] - a[4] * a[6]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            /* cofactor of a[j][i] over det */
            int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
            s.inverse[i * 3 + j] = (a[r0 * 3 + c0] * a[r1 * 3 + c1] - a[r0 * 3 + c1] * a[r1 * 3 + c0]) / det;
        }
    s.bounds = project_rect(m, 0, 0, w, h);
    return s;
}

static double warped_64x64(const void *shape, int x, int y)
{
    const warped *s = (const warped *)shape;
    if (outside_bounds(&s->bounds, x, y)) return 0.0;
    const double *v = s->inverse;
    int inside = 0;
    for (int j = 0; j < 64; j++) {
        for (int i = 0; i < 64; i++) {
            double X = x + (i + 0.5) / 64.0, Y = y + (j + 0.5) / 64.0;
            double hx = X * v[0] + Y * v[3] + v[6], hy = X * v[1] + Y * v[4] + v[7], hw = X * v[2] + Y * v[5] + v[8];
            inside += lkt_in_rounded_rect(hx / hw, hy / hw, 0, 0, s->w, s->h, s->r);
        }
    }
    return inside / 4096.0;
}

static void test_squashed_rounded(void)
{
    lkt_begin("coverage_squashed_and_edge_on_rounded_rects_supersampled");
    worst_error worst;
    memset(&worst, 0, sizeof worst);
    for (int i = 0; i < 20 && !lkt()->reason[0]; i++) {
        double w = 30, h = 30, r = 15;
        lkt_mat m;
        if (i < 8) {
            /* the circle squashed in y, then (i >= 4) turned 0.7 rad; its
               centre row on a pixel centre (i even) or anywhere */
            static const double squash[4] = { 0.02, 0.03, 0.05, 0.08 };
            m = lkt_mat_mul(lkt_translate(-w / 2, -h / 2, 0), lkt_scale_mat(1, squash[i % 4]));
            if (i >= 4) m = lkt_mat_mul(m, lkt_rotate_z(0.7));
            m = lkt_mat_mul(m, lkt_translate(80 + rnd(0, 1), i % 2 ? 60.5 : 60 + rnd(0, 1), 0));
        } else {
            /* nearly edge-on about x (i even) or y, m34 -1/300 for i >= 14 */
            w = rnd(10, 60);
            h = rnd(10, 60);
            r = rnd(0.2, 0.5) * fmin(w, h);
            double angle = (i % 4 < 2 ? 1 : -1) * rnd(1.50, 1.55);
            m = lkt_mat_mul(lkt_translate(-w / 2, -h / 2, 0), i % 2 ? lkt_rotate_y(angle) : lkt_rotate_x(angle));
            if (i >= 14) m = lkt_mat_mul(m, lkt_perspective(300));
            m = lkt_mat_mul(m, lkt_rotate_z(i % 3 == 0 ? rnd(0, 2 * LKT_PI) : 0));
            m = lkt_mat_mul(m, lkt_translate(80 + rnd(0, 1), 80 + rnd(0, 1), 0));
        }
        warped s = warp_rounded(m, w, h, r);
        lk_dl_op op = lkt_fill(0, 0, w, h, lkt_color(1, 1, 1, 1));
        op.corner_radius = r;
        lkt_set_transform(&op, m);
        if (draw(&op, 1)) compare_frame(&frame, warped_64x64, &s, i, &worst);
    }
    judge(&worst, 8.0 / 255);
    lkt_end();
}

/* ------------------------------------------------------------------------ */
/* Many shapes in one frame, and a shape too large for the analytic path     */

static void test_many_in_one_frame(void)
{
    lkt_begin("coverage_many_disjoint_shapes_in_one_frame");
    /* A 4x4 grid of cells, one rotated shape in each: the mask storage is
       reused op after op, and no coverage may leak from one op to the next. */
    lk_dl_op ops[16];
    quad quads[16];
    for (int i = 0; i < 16; i++) {
        double w = rnd(4, 24), h = rnd(4, 24);
        double cx = (i % 4) * 40 + 20 + rnd(-2, 2), cy = (i / 4) * 40 + 20 + rnd(-2, 2);
        lkt_mat m = lkt_mat_mul(lkt_translate(-w / 2, -h / 2, 0), lkt_rotate_z(rnd(0, 2 * LKT_PI)));
        m = lkt_mat_mul(m, lkt_translate(cx, cy, 0));
        ops[i] = lkt_fill(0, 0, w, h, lkt_color(1, 1, 1, 1));
        lkt_set_transform(&ops[i], m);
        quads[i] = project_rect(m, 0, 0, w, h);
    }
    if (draw(ops, 16)) {
        double worst = 0;
        int wx = 0, wy = 0;
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                double want = 0;
                for (int i = 0; i < 16; i++) want += quad_exact(&quads[i], x, y);
                double e = fabs((double)(lkt_pixel(&frame, x, y) >> 24) / 255.0 - want);
                if (e > worst) { worst = e; wx = x; wy = y; }
            }
        }
        if (worst > 0.02) lkt_fail("pixel (%d,%d) off by %.4f", wx, wy, worst);
    }
    lkt_end();
}

static void test_large_shape(void)
{
    lkt_begin("coverage_large_rotated_rect_fallback");
    /* 700x700 output, a 560x560 rect rotated 30 degrees: its mask is larger
       than the analytic rasterizer takes, so pixman's sample grid draws it. */
    lkt_frame big = lkt_frame_new(700, 700);
    lkt_frame saved = frame;
    lkt_host_record record;
    memset(&record, 0, sizeof record);
    lk_backend_host host = lkt_host(&record);
    lk_backend_instance *saved_inst = inst;
    inst = lkt_open(b, &host, 700, 700);
    if (inst) {
        frame = big;
        lkt_mat m = lkt_mat_mul(lkt_translate(-280, -280, 0), lkt_rotate_z(30 * LKT_PI / 180));
        m = lkt_mat_mul(m, lkt_translate(350.3, 349.6, 0));
        lk_dl_op op = lkt_fill(0, 0, 560, 560, lkt_color(1, 1, 1, 1));
        lkt_set_transform(&op, m);
        quad q = project_rect(m, 0, 0, 560, 560);
        worst_error worst;
        memset(&worst, 0, sizeof worst);
        if (draw(&op, 1)) compare_frame(&frame, quad_exact, &q, 0, &worst);
        judge(&worst, 0.04);   /* pixman's 17x15 grid */
        b->close(inst);
    } else {
        lkt_fail("could not open a 700x700 instance");
    }
    inst = saved_inst;
    frame = saved;
    free(big.pixels);
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

    test_rotated_rects();
    test_perspective_quads();
    test_floor_to_the_horizon();
    test_supersampled();
    test_rotated_borders();
    test_rotated_clips();
    test_rotated_rounded();
    test_rounded_specks();
    test_squashed_rounded();
    test_many_in_one_frame();
    test_large_shape();

    b->close(inst);
    free(frame.pixels);
    return lkt_exit_code();
}
