/*
 * Geometry for the software backend: the op transform as a homography,
 * rounded rects flattened to polygons, clipping in homogeneous space, and
 * rasterizing the resulting convex polygons into A8 masks: exact area
 * coverage computed here for masks of up to SW_ANALYTIC_MAX_AREA pixels
 * (the common small rotated or perspective layer, where pixman's trapezoid
 * rasterizer costs mostly per-call setup), pixman's trapezoids beyond that
 * and for aliased shapes.
 */
#include "software_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Points must be at least this far in front of the eye (W > epsilon) before
   they are divided by W; the homography is normalised so that its largest W
   coefficient is 1, which makes the epsilon scale-free. */
#define SW_W_EPSILON 1e-6
/* Maximum distance between a flattened arc and the true arc, in pixels. */
#define SW_FLATTEN_TOLERANCE 0.01
/* Edges this close to a pixel boundary count as on it: the coverage of the
   sliver would round to 0 or 255 anyway. */
#define SW_SNAP (1.0 / 512.0)

#define SW_PI 3.14159265358979323846

sw_box sw_box_intersect(sw_box a, sw_box b)
{
    sw_box r;
    r.x0 = a.x0 > b.x0 ? a.x0 : b.x0;
    r.y0 = a.y0 > b.y0 ? a.y0 : b.y0;
    r.x1 = a.x1 < b.x1 ? a.x1 : b.x1;
    r.y1 = a.y1 < b.y1 ? a.y1 : b.y1;
    if (r.x1 < r.x0) r.x1 = r.x0;
    if (r.y1 < r.y0) r.y1 = r.y0;
    return r;
}

/* ------------------------------------------------------------------------ */
/* Homographies                                                              */

bool sw_homography_from_transform(const double t[16], sw_homography *out)
{
    /* Row-vector layout: [x y 0 1] * M; the z column and row drop out for
       points on the z = 0 plane, and z' is not needed for a flat output. */
    for (int i = 0; i < 16; i++)
        if (!isfinite(t[i])) return false;
    out->m[0][0] = t[0];  out->m[0][1] = t[4];  out->m[0][2] = t[12];
    out->m[1][0] = t[1];  out->m[1][1] = t[5];  out->m[1][2] = t[13];
    out->m[2][0] = t[3];  out->m[2][1] = t[7];  out->m[2][2] = t[15];

    double scale = fmax(fabs(t[3]), fmax(fabs(t[7]), fabs(t[15])));
    if (!(scale > 0.0)) return false;            /* W == 0 everywhere */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            out->m[r][c] /= scale;
    /* Perspective terms this small are rounding (sin(pi) times an m34: a
       card flipped by exactly pi under perspective) and move no output
       point by 1e-4 pixel: they go, so that such a map is affine to every
       path alike. Kept, the rect path took the map as axis-aligned
       (sw_homography_axis_aligned tolerates them) while the image set-up
       took it as projective, and drew a mirrored image, text or gradient
       as one texel's colour. */
    double w = fabs(out->m[2][2]);
    if (fabs(out->m[2][0]) <= 1e-12 * w && fabs(out->m[2][1]) <= 1e-12 * w) out->m[2][0] = out->m[2][1] = 0.0;
    return true;
}

bool sw_device_bounds(const sw_shape *shape, double b[4])
{
    const double (*h)[3] = shape->h.m;
    double w = h[2][2];
    double m[6] = { h[0][0] / w, h[0][1] / w, h[0][2] / w, h[1][0] / w, h[1][1] / w, h[1][2] / w };
    const sw_rect *r = &shape->rect;
    double cx[4] = { r->x0, r->x1, r->x1, r->x0 }, cy[4] = { r->y0, r->y0, r->y1, r->y1 };
    b[0] = b[1] = HUGE_VAL;
    b[2] = b[3] = -HUGE_VAL;
    for (int i = 0; i < 4; i++) {
        double X = m[0] * cx[i] + m[1] * cy[i] + m[2], Y = m[3] * cx[i] + m[4] * cy[i] + m[5];
        b[0] = fmin(b[0], X); b[2] = fmax(b[2], X);
        b[1] = fmin(b[1], Y); b[3] = fmax(b[3], Y);
    }
    return isfinite(b[0]) && isfinite(b[1]) && isfinite(b[2]) && isfinite(b[3]);
}

sw_homography sw_homography_multiply(const sw_homography *a, const sw_homography *b)
{
    sw_homography r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
    return r;
}

bool sw_homography_invert(const sw_homography *h, sw_homography *out)
{
    const double (*m)[3] = h->m;
    double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
    if (!isfinite(det) || det == 0.0) return false;
    double inv = 1.0 / det;
    out->m[0][0] = c00 * inv;
    out->m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * inv;
    out->m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * inv;
    out->m[1][0] = c01 * inv;
    out->m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * inv;
    out->m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * inv;
    out->m[2][0] = c02 * inv;
    out->m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * inv;
    out->m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * inv;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            if (!isfinite(out->m[r][c])) return false;
    return true;
}

bool sw_homography_axis_aligned(const sw_homography *h, double *sx, double *sy,
                                double *tx, double *ty)
{
    const double (*m)[3] = h->m;
    if (!(m[2][2] > 0.0)) return false;
    /* Rounding leaves 1e-16 in the off-diagonals of a transform rotated by a
       whole turn; ignoring terms this small moves no point by 1e-4 pixel. */
    double diag = fabs(m[0][0]) + fabs(m[1][1]);
    if (fabs(m[0][1]) > 1e-12 * diag || fabs(m[1][0]) > 1e-12 * diag) return false;
    if (fabs(m[2][0]) > 1e-12 * m[2][2] || fabs(m[2][1]) > 1e-12 * m[2][2]) return false;
    *sx = m[0][0] / m[2][2];
    *sy = m[1][1] / m[2][2];
    *tx = m[0][2] / m[2][2];
    *ty = m[1][2] / m[2][2];
    return true;
}

bool sw_homography_is_affine(const sw_homography *h)
{
    return h->m[2][0] == 0.0 && h->m[2][1] == 0.0 && h->m[2][2] != 0.0;
}

/* The smallest texel step (texels per pixel along an axis) of an affine
   image transform kept in pixman's affine form: at 1/64, 1024 units of
   16.16, a pixel's texel is off by at most 1/2048 of the distance. */
#define SW_AFFINE_MIN_STEP (1.0 / 64.0)

bool sw_homography_to_pixman(const sw_homography *h, double width, double height,
                             pixman_transform_t *out)
{
    struct pixman_f_transform f;
    const double (*m)[3] = h->m;
    sw_homography normalised;
    if (sw_homography_is_affine(h)) {
        /* Affine: keep the bottom row exactly (0 0 1) so pixman takes its
           affine (and scaled) fast paths, unless a texel step is too small
           for 16.16 to hold closely: an image magnified thousands of times
           (2 texels over 30,000 points) has steps near 2^-14, a few units,
           and its texels landed pixels off (gles drew them in place). Such
           a matrix goes the projective way below, scaled up to use the
           range (pixman's general fetch, for these rare transforms only). */
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                normalised.m[r][c] = r == 2 ? (c == 2 ? 1.0 : 0.0) : m[r][c] / m[2][2];
        const double (*n)[3] = normalised.m;
        double step_x = hypot(n[0][0], n[1][0]), step_y = hypot(n[0][1], n[1][1]);
        if (!(step_x > 0.0 && step_x < SW_AFFINE_MIN_STEP) && !(step_y > 0.0 && step_y < SW_AFFINE_MIN_STEP)) {
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++)
                    f.m[r][c] = n[r][c];
            return pixman_transform_from_pixman_f_transform(out, &f) != 0;
        }
        m = normalised.m;
    }
    {
        /* Projective: pixman keeps the transformed vector (X, Y, W) in 16.16
           before dividing, and drops pixels where it overflows, while the
           matrix entries have a fixed absolute precision of 2^-16. The
           matrix is only defined up to scale, so scale it (by a positive
           factor: W keeps its sign) until the largest |X|, |Y| or |W| over
           the area, reached at a corner as they are linear, is near the
           limit. */
        double largest = 0.0;
        for (int corner = 0; corner < 4; corner++) {
            double x = (corner & 1) ? width : 0.0, y = (corner & 2) ? height : 0.0;
            for (int r = 0; r < 3; r++)
                largest = fmax(largest, fabs(m[r][0] * x + m[r][1] * y + m[r][2]));
        }
        double entries = 0.0;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                entries = fmax(entries, fabs(m[r][c]));
        if (!(largest > 0.0) || !isfinite(largest) || !(entries > 0.0)) return false;
        double k = fmin(30000.0 / largest, 30000.0 / entries);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                f.m[r][c] = m[r][c] * k;
    }
    return pixman_transform_from_pixman_f_transform(out, &f) != 0;
}

/* ------------------------------------------------------------------------ */
/* Outlines and homogeneous clipping                                         */

/* Output pixels per local unit, roughly, to choose how finely to flatten. */
static double pixel_scale(const sw_shape *s)
{
    const double (*m)[3] = s->h.m;
    double xs[2] = { s->rect.x0, s->rect.x1 }, ys[2] = { s->rect.y0, s->rect.y1 };
    sw_point p[4];
    for (int i = 0; i < 4; i++) {
        double x = xs[(i == 1 || i == 2) ? 1 : 0], y = ys[i >= 2 ? 1 : 0];
        double w = m[2][0] * x + m[2][1] * y + m[2][2];
        if (!(w > SW_W_EPSILON)) return HUGE_VAL;   /* crosses the eye: finest */
        p[i].x = (m[0][0] * x + m[0][1] * y + m[0][2]) / w;
        p[i].y = (m[1][0] * x + m[1][1] * y + m[1][2]) / w;
    }
    double width = s->rect.x1 - s->rect.x0, height = s->rect.y1 - s->rect.y0;
    double scale = 0.0;
    for (int i = 0; i < 4; i++) {
        const sw_point a = p[i], b = p[(i + 1) % 4];
        double local = (i % 2 == 0) ? width : height;
        if (local > 0.0) scale = fmax(scale, hypot(b.x - a.x, b.y - a.y) / local);
    }
    return scale;
}

static int arc_segments(double device_radius)
{
    if (!(device_radius > SW_FLATTEN_TOLERANCE)) return 1;
    if (!isfinite(device_radius)) return SW_MAX_ARC_SEGMENTS;
    /* A chord spanning angle a deviates from the arc by r (1 - cos(a / 2)). */
    double step = 2.0 * acos(1.0 - SW_FLATTEN_TOLERANCE / device_radius);
    double n = ceil((SW_PI / 2.0) / step);
    if (n < 1.0) return 1;
    return n > SW_MAX_ARC_SEGMENTS ? SW_MAX_ARC_SEGMENTS : (int)n;
}

/* The rounded rect as a convex polygon in local space, clockwise on screen.
   The unit arcs' cos and sin are worked out once per segment count. */
static int outline(sw_raster_scratch *scratch, const sw_shape *s, sw_point *out)
{
    const sw_rect r = s->rect;
    double radius = s->radius;
    if (radius <= 0.0) {
        out[0].x = r.x0; out[0].y = r.y0;
        out[1].x = r.x1; out[1].y = r.y0;
        out[2].x = r.x1; out[2].y = r.y1;
        out[3].x = r.x0; out[3].y = r.y1;
        return 4;
    }
    int n = arc_segments(radius * pixel_scale(s));
    /* Corner centres, each with the angle its quarter arc starts at. */
    const double cx[4] = { r.x0 + radius, r.x1 - radius, r.x1 - radius, r.x0 + radius };
    const double cy[4] = { r.y0 + radius, r.y0 + radius, r.y1 - radius, r.y1 - radius };
    const double start[4] = { SW_PI, 1.5 * SW_PI, 0.0, 0.5 * SW_PI };
    if (scratch->arc_segments != n) {
        int k = 0;
        for (int corner = 0; corner < 4; corner++) {
            for (int i = 0; i <= n; i++, k++) {
                double a = start[corner] + (SW_PI / 2.0) * i / n;
                scratch->arc_cos[k] = cos(a);
                scratch->arc_sin[k] = sin(a);
            }
        }
        scratch->arc_segments = n;
    }
    int count = 0;
    for (int corner = 0; corner < 4; corner++) {
        for (int i = 0; i <= n; i++) {
            out[count].x = cx[corner] + radius * scratch->arc_cos[count];
            out[count].y = cy[corner] + radius * scratch->arc_sin[count];
            count++;
        }
    }
    return count;
}

/* Sutherland-Hodgman against a*X + b*Y + c*W + d >= 0. The test is affine in
   homogeneous space, where straight edges stay straight, so the clip is exact
   even for points that project to infinity. A convex polygon gains at most
   one point; rounding can make a degenerate one zig-zag across the plane, so
   the output is bounded by the buffer (0: give up, draw nothing). */
static int clip_plane(const sw_hpoint *in, int n, sw_hpoint *out,
                      double a, double b, double c, double d)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (count > SW_MAX_POLYGON - 2) return 0;
        const sw_hpoint p = in[i], q = in[(i + 1) % n];
        double fp = a * p.x + b * p.y + c * p.w + d;
        double fq = a * q.x + b * q.y + c * q.w + d;
        if (fp >= 0.0) out[count++] = p;
        if ((fp >= 0.0) != (fq >= 0.0)) {
            double t = fp / (fp - fq);
            sw_hpoint x;
            x.x = p.x + (q.x - p.x) * t;
            x.y = p.y + (q.y - p.y) * t;
            x.w = p.w + (q.w - p.w) * t;
            out[count++] = x;
        }
    }
    return count;
}

int sw_shape_polygon(sw_raster_scratch *scratch, const sw_shape *shape, sw_box limit)
{
    if (sw_box_empty(limit)) return 0;
    int n = outline(scratch, shape, scratch->outline);
    const double (*m)[3] = shape->h.m;
    sw_hpoint *a = scratch->clip_a, *b = scratch->clip_b;
    for (int i = 0; i < n; i++) {
        double x = scratch->outline[i].x, y = scratch->outline[i].y;
        a[i].x = m[0][0] * x + m[0][1] * y + m[0][2];
        a[i].y = m[1][0] * x + m[1][1] * y + m[1][2];
        a[i].w = m[2][0] * x + m[2][1] * y + m[2][2];
        if (!isfinite(a[i].x) || !isfinite(a[i].y) || !isfinite(a[i].w)) return 0;
    }
    /* In front of the eye first, then the four sides of limit (X >= x0 W ...). */
    n = clip_plane(a, n, b, 0, 0, 1, -SW_W_EPSILON);
    n = clip_plane(b, n, a, 1, 0, -(double)limit.x0, 0);
    n = clip_plane(a, n, b, -1, 0, (double)limit.x1, 0);
    n = clip_plane(b, n, a, 0, 1, -(double)limit.y0, 0);
    n = clip_plane(a, n, b, 0, -1, (double)limit.y1, 0);
    if (n < 3) return 0;

    int count = 0;
    for (int i = 0; i < n; i++) {
        sw_point p;
        p.x = b[i].x / b[i].w;
        p.y = b[i].y / b[i].w;
        if (!isfinite(p.x) || !isfinite(p.y)) return 0;
        /* Rounding may leave a point a hair outside limit. */
        p.x = fmin(fmax(p.x, limit.x0), limit.x1);
        p.y = fmin(fmax(p.y, limit.y0), limit.y1);
        if (count > 0 && fabs(p.x - scratch->polygon[count - 1].x) < 1e-9 &&
            fabs(p.y - scratch->polygon[count - 1].y) < 1e-9)
            continue;
        scratch->polygon[count++] = p;
    }
    while (count > 1 && fabs(scratch->polygon[0].x - scratch->polygon[count - 1].x) < 1e-9 &&
           fabs(scratch->polygon[0].y - scratch->polygon[count - 1].y) < 1e-9)
        count--;
    return count >= 3 ? count : 0;
}

sw_box sw_polygon_bounds(const sw_point *p, int count, sw_box limit)
{
    sw_box empty = { limit.x0, limit.y0, limit.x0, limit.y0 };
    if (count < 3) return empty;
    double x0 = p[0].x, x1 = p[0].x, y0 = p[0].y, y1 = p[0].y;
    for (int i = 1; i < count; i++) {
        x0 = fmin(x0, p[i].x); x1 = fmax(x1, p[i].x);
        y0 = fmin(y0, p[i].y); y1 = fmax(y1, p[i].y);
    }
    /* The points are inside limit already, so the casts cannot overflow. */
    sw_box b;
    b.x0 = (int32_t)floor(x0); b.x1 = (int32_t)ceil(x1);
    b.y0 = (int32_t)floor(y0); b.y1 = (int32_t)ceil(y1);
    return sw_box_intersect(b, limit);
}

/* ------------------------------------------------------------------------ */
/* Rasterization                                                             */

static pixman_line_fixed_t fixed_line(sw_point a, sw_point b, sw_box origin)
{
    pixman_line_fixed_t l;
    l.p1.x = pixman_double_to_fixed(a.x - origin.x0);
    l.p1.y = pixman_double_to_fixed(a.y - origin.y0);
    l.p2.x = pixman_double_to_fixed(b.x - origin.x0);
    l.p2.y = pixman_double_to_fixed(b.y - origin.y0);
    return l;
}

/* Cuts a convex polygon into horizontal bands, one trapezoid each, bounded by
   the two edges that cross the band: walk the two y-monotone chains from the
   top vertex to the bottom one. */
static int trapezoids(const sw_point *p, int n, sw_box origin, pixman_trapezoid_t *traps)
{
    int top = 0, bottom = 0;
    for (int i = 1; i < n; i++) {
        if (p[i].y < p[top].y) top = i;
        if (p[i].y > p[bottom].y) bottom = i;
    }
    if (!(p[bottom].y > p[top].y)) return 0;

    int a = top, b = top, count = 0;
    double y = p[top].y;
    for (;;) {
        /* Step each chain past the edges that end at or above y. */
        while (a != bottom && p[(a + 1) % n].y <= y) a = (a + 1) % n;
        while (b != bottom && p[(b + n - 1) % n].y <= y) b = (b + n - 1) % n;
        if (a == bottom || b == bottom) break;
        int na = (a + 1) % n, nb = (b + n - 1) % n;
        double next = fmin(p[na].y, p[nb].y);

        pixman_line_fixed_t ea = fixed_line(p[a], p[na], origin);
        pixman_line_fixed_t eb = fixed_line(p[b], p[nb], origin);
        /* Which chain is on the left, judged at the middle of the band. */
        double mid = 0.5 * (y + next);
        double xa = p[a].x + (p[na].x - p[a].x) * (mid - p[a].y) / (p[na].y - p[a].y);
        double xb = p[b].x + (p[nb].x - p[b].x) * (mid - p[b].y) / (p[nb].y - p[b].y);
        pixman_trapezoid_t *t = &traps[count];
        t->top = pixman_double_to_fixed(y - origin.y0);
        t->bottom = pixman_double_to_fixed(next - origin.y0);
        t->left = xa <= xb ? ea : eb;
        t->right = xa <= xb ? eb : ea;
        if (t->bottom > t->top && count < SW_MAX_POLYGON - 1) count++;
        y = next;
    }
    return count;
}

/* Exact area coverage by signed area accumulation (as in libart, font-rs and
   stb_truetype): each edge adds, to the cells of every pixel row it crosses,
   its signed height in that row split between the cell it enters and the
   cell after by the area to its right; a row's running sum is then the
   covered fraction of each pixel. Exact for polygons, and its cost is the
   edges' length plus one pass over the mask, with no per-op setup. */

void sw_raster_scratch_free(sw_raster_scratch *scratch)
{
    free(scratch->cells);
    scratch->cells = NULL;
    scratch->cell_capacity = 0;
}

static bool reserve_cells(sw_raster_scratch *scratch, size_t count)
{
    if (count <= scratch->cell_capacity) return true;
    free(scratch->cells);
    scratch->cells = (float *)calloc(count, sizeof *scratch->cells);
    scratch->cell_capacity = scratch->cells ? count : 0;
    return scratch->cells != NULL;
}

/* Adds edge a -> b (coordinates from the polygon's bounds, inside [0, width]
   x [0, height]) to the cells of rows row_begin .. row_end - 1, stride =
   width + 2 per row, the first row row_begin. A row's cells do not depend
   on which rows are asked for: an edge's x at a row boundary is worked out
   from its start point the same way whichever row comes first. */
static inline double min_d(double a, double b) { return a < b ? a : b; }
static inline double max_d(double a, double b) { return a > b ? a : b; }

/* floor and ceil of v >= 0 (coordinates in the mask are never negative). */
static inline int ceil_int(double v) { int i = (int)v; return (double)i < v ? i + 1 : i; }

static void accumulate_edge(float *cells, int stride, int width, int row_begin, int row_end,
                            sw_point a, sw_point b)
{
    if (!(a.y != b.y)) return;
    double dir = 1.0;
    if (a.y > b.y) { sw_point t = a; a = b; b = t; dir = -1.0; }
    double y0 = max_d(a.y, (double)row_begin), y1 = min_d(b.y, (double)row_end);
    if (!(y1 > y0)) return;
    double dxdy = (b.x - a.x) / (b.y - a.y);
    int row0 = (int)y0, row1 = ceil_int(y1);
    if (row1 > row_end) row1 = row_end;
    double x_top = min_d(max_d(a.x + (y0 - a.y) * dxdy, 0.0), (double)width);
    for (int row = row0; row < row1; row++) {
        double bottom = min_d((double)(row + 1), y1);
        double top = max_d((double)row, y0);
        double x_bottom = bottom >= b.y ? b.x : a.x + (bottom - a.y) * dxdy;
        x_bottom = min_d(max_d(x_bottom, 0.0), (double)width);
        double d = dir * (bottom - top);
        float *line = cells + (size_t)(row - row_begin) * (size_t)stride;
        double x0 = min_d(x_top, x_bottom), x1 = max_d(x_top, x_bottom);
        int i0 = (int)x0, i1 = ceil_int(x1);
        double x0_floor = (double)i0;
        if (i1 <= i0 + 1) {
            /* Within one pixel: the area right of the edge is 1 - mean x. */
            double xm = 0.5 * (x_top + x_bottom) - x0_floor;
            line[i0] += (float)(d * (1.0 - xm));
            line[i0 + 1] += (float)(d * xm);
        } else {
            /* Across pixels i0 .. i1 - 1: triangles at both ends, and equal
               steps of d / (x1 - x0) in between. */
            double s = 1.0 / (x1 - x0);
            double f0 = x0 - x0_floor;
            double a0 = 0.5 * s * (1.0 - f0) * (1.0 - f0);
            double f1 = x1 - (double)i1 + 1.0;
            double am = 0.5 * s * f1 * f1;
            line[i0] += (float)(d * a0);
            if (i1 == i0 + 2) {
                line[i0 + 1] += (float)(d * (1.0 - a0 - am));
            } else {
                double a1 = s * (1.5 - f0);
                line[i0 + 1] += (float)(d * (a1 - a0));
                float step = (float)(d * s);
                for (int i = i0 + 2; i < i1 - 1; i++) line[i] += step;
                double a2 = a1 + (double)(i1 - i0 - 3) * s;
                line[i1 - 1] += (float)(d * (1.0 - a2 - am));
            }
            line[i1] += (float)(d * am);
        }
        x_top = x_bottom;
    }
}

/* Cells swept as a block when all are zero. */
#define SW_CELL_RUN 8

static bool cells_zero(const float *cells)
{
    uint32_t bits[SW_CELL_RUN], any = 0;
    memcpy(bits, cells, sizeof bits);
    for (int i = 0; i < SW_CELL_RUN; i++) any |= bits[i];
    return any == 0;
}

/* |sum| clamped to 1, in 0..255 (rounded). */
static inline uint32_t coverage_byte(float sum)
{
    float c = sum < 0.0f ? -sum : sum;
    c = c < 1.0f ? c : 1.0f;
    return (uint32_t)(c * 255.0f + 0.5f);
}

/* Adds coverage v (1..255) to n mask bytes, or with subtract takes it
   away from them (down to 0). */
static void apply_run(uint8_t *out, int n, uint32_t v, bool subtract)
{
    if (v == 255u) {
        memset(out, subtract ? 0 : 255, (size_t)n);
        return;
    }
    for (int i = 0; i < n; i++) {
        if (subtract) {
            out[i] = (uint8_t)(out[i] > v ? out[i] - v : 0u);
        } else {
            uint32_t t = out[i] + v;
            out[i] = (uint8_t)(t > 255u ? 255u : t);
        }
    }
}

/* The analytic path; false (mask untouched) when the cells cannot be had.
   Each row is summed from the polygon's left bound, whatever part of it the
   mask holds: a pixel's sum is then the same float additions in the same
   order whatever the mask box (a clip, the damage, a band), so an edge
   pixel whose coverage is exactly half cannot round to 127 in one box and
   128 in another. */
static bool rasterize_analytic(sw_raster_scratch *scratch, pixman_image_t *mask, sw_box mask_box,
                               sw_box bounds, const sw_point *points, int count, bool subtract)
{
    sw_box region = sw_box_intersect(mask_box, bounds);
    int mask_stride = pixman_image_get_stride(mask);
    uint8_t *bits = (uint8_t *)pixman_image_get_data(mask);
    if (sw_box_empty(region) || !bits) return true;
    int width = bounds.x1 - bounds.x0, height = bounds.y1 - bounds.y0;
    int row_begin = region.y0 - bounds.y0, row_end = region.y1 - bounds.y0;
    int col_begin = region.x0 - bounds.x0, col_end = region.x1 - bounds.x0;
    int stride = width + 2;
    if (!reserve_cells(scratch, (size_t)stride * (size_t)(row_end - row_begin))) return false;
    float *cells = scratch->cells;

    /* Only rows the polygon reaches hold anything. */
    double top = HUGE_VAL, bottom = -HUGE_VAL;
    for (int i = 0; i < count; i++) {
        sw_point a = points[i], b = points[(i + 1) % count];
        a.x -= bounds.x0; a.y -= bounds.y0;
        b.x -= bounds.x0; b.y -= bounds.y0;
        top = fmin(top, a.y); bottom = fmax(bottom, a.y);
        accumulate_edge(cells, stride, width, row_begin, row_end, a, b);
    }
    int row0 = top > 0.0 ? (int)fmin(top, (double)height) : 0;
    int row1 = bottom < (double)height ? (int)ceil(fmax(bottom, 0.0)) : height;
    if (row0 < row_begin) row0 = row_begin;
    if (row1 > row_end) row1 = row_end;

    for (int row = row0; row < row1; row++) {
        float *line = cells + (size_t)(row - row_begin) * (size_t)stride;
        /* out[k] is column col_begin + k */
        uint8_t *out = bits + (size_t)(row + bounds.y0 - mask_box.y0) * (size_t)mask_stride +
                       (region.x0 - mask_box.x0);
        float sum = 0.0f;
        int i = 0;
        /* Left of the mask: only the sum. */
        while (i < col_begin) {
            int j = i;
            while (j + SW_CELL_RUN <= col_begin && cells_zero(line + j)) j += SW_CELL_RUN;
            i = j;
            int end = i + SW_CELL_RUN < col_begin ? i + SW_CELL_RUN : col_begin;
            for (; i < end; i++) {
                sum += line[i];
                line[i] = 0.0f;
            }
        }
        uint32_t v = coverage_byte(sum);
        while (i < col_end) {
            /* Where no edge passes, the coverage of the pixel before carries
               on (the inside of the shape, or the outside). */
            int j = i;
            while (j + SW_CELL_RUN <= col_end && cells_zero(line + j)) j += SW_CELL_RUN;
            if (j > i) {
                if (v != 0) apply_run(out + (i - col_begin), j - i, v, subtract);
                i = j;
            }
            int end = i + SW_CELL_RUN < col_end ? i + SW_CELL_RUN : col_end;
            if (subtract) {
                for (; i < end; i++) {
                    sum += line[i];
                    line[i] = 0.0f;
                    v = coverage_byte(sum);
                    uint32_t o = out[i - col_begin];
                    out[i - col_begin] = (uint8_t)(o > v ? o - v : 0u);
                }
            } else {
                for (; i < end; i++) {
                    sum += line[i];
                    line[i] = 0.0f;
                    v = coverage_byte(sum);
                    uint32_t t = out[i - col_begin] + v;
                    out[i - col_begin] = (uint8_t)(t > 255u ? 255u : t);
                }
            }
        }
        /* Right of the mask: cleared unread. */
        memset(line + col_end, 0, (size_t)(stride - col_end) * sizeof *line);
    }
    return true;
}

void sw_rasterize_polygon(sw_raster_scratch *scratch, pixman_image_t *mask, sw_box mask_box,
                          sw_box bounds, const sw_point *points, int count, bool antialias,
                          bool subtract, pixman_image_t *white)
{
    if (sw_box_empty(sw_box_intersect(mask_box, bounds))) return;
    /* Chosen on the polygon's bounds, not on the mask: a clip or damage box
       must not change how a pixel is drawn. */
    if (antialias && count >= 3 &&
        (int64_t)(bounds.x1 - bounds.x0) * (bounds.y1 - bounds.y0) <= SW_ANALYTIC_MAX_AREA &&
        rasterize_analytic(scratch, mask, mask_box, bounds, points, count, subtract))
        return;
    /* The trapezoids from the bounds' corner, moved onto the mask by whole
       pixels: pixman steps its edges exactly, so a pixel's samples do not
       depend on the mask box either. */
    int n = trapezoids(points, count, bounds, scratch->traps);
    if (n == 0) return;
    int dx = bounds.x0 - mask_box.x0, dy = bounds.y0 - mask_box.y0;
    if (antialias && !subtract) {
        /* ADD straight into the A8 mask: pixman's 17x15 sample grid. */
        for (int i = 0; i < n; i++) pixman_rasterize_trapezoid(mask, &scratch->traps[i], dx, dy);
        return;
    }
    /* An A1 mask samples each pixel once, at its centre; the trapezoids go
       into a mask of their own, then ADD onto this one or, a hole, taken
       away from it (CONJOINT_OUT_REVERSE: max(mask - hole, 0)). */
    int w = pixman_image_get_width(mask), h = pixman_image_get_height(mask);
    pixman_image_t *tmp = pixman_image_create_bits(antialias ? PIXMAN_a8 : PIXMAN_a1, w, h, NULL, 0);
    if (!tmp) return;
    for (int i = 0; i < n; i++) pixman_rasterize_trapezoid(tmp, &scratch->traps[i], dx, dy);
    pixman_image_composite32(subtract ? PIXMAN_OP_CONJOINT_OUT_REVERSE : PIXMAN_OP_ADD, white, tmp, mask,
                             0, 0, 0, 0, 0, 0, w, h);
    pixman_image_unref(tmp);
}

/* ------------------------------------------------------------------------ */
/* Axis-aligned rects                                                        */

static double snap(double v)
{
    double r = nearbyint(v);
    return fabs(v - r) < SW_SNAP ? r : v;
}

/* The pixel spans of [a, b) in [lo, hi): up to three (partial, full, partial). */
static int spans(double a, double b, bool antialias, int32_t lo, int32_t hi, sw_span out[3])
{
    /* Clamping to one pixel beyond the limit keeps the casts in range without
       changing any coverage inside it. */
    a = fmin(fmax(a, lo - 1.0), hi + 1.0);
    b = fmin(fmax(b, lo - 1.0), hi + 1.0);
    sw_span s[3];
    int n = 0;
    if (!antialias) {
        /* Pixel i is in when its centre i + 0.5 is in [a, b). */
        s[0].start = (int32_t)ceil(a - 0.5); s[0].end = (int32_t)ceil(b - 0.5);
        s[0].coverage = 1.0;
        n = 1;
    } else {
        a = snap(a); b = snap(b);
        if (!(b > a)) return 0;
        int32_t ia = (int32_t)floor(a), ib = (int32_t)ceil(b);
        if (ib - ia == 1) {
            s[0].start = ia; s[0].end = ib; s[0].coverage = b - a;
            n = 1;
        } else {
            s[n].start = ia; s[n].end = ia + 1; s[n].coverage = ia + 1 - a; n++;
            if (ib - 1 > ia + 1) { s[n].start = ia + 1; s[n].end = ib - 1; s[n].coverage = 1.0; n++; }
            s[n].start = ib - 1; s[n].end = ib; s[n].coverage = b - (ib - 1); n++;
        }
    }
    int count = 0;
    for (int i = 0; i < n; i++) {
        sw_span t = s[i];
        if (t.start < lo) t.start = lo;
        if (t.end > hi) t.end = hi;
        if (t.end <= t.start || t.coverage < 1.0 / 512.0) continue;
        /* Merge neighbours of equal coverage: an integer-aligned rect is one span. */
        if (count > 0 && out[count - 1].end == t.start && out[count - 1].coverage == t.coverage)
            out[count - 1].end = t.end;
        else
            out[count++] = t;
    }
    return count;
}

int sw_rect_pieces(sw_rect r, bool antialias, sw_box limit, sw_piece out[9])
{
    sw_span xs[3], ys[3];
    int nx = spans(r.x0, r.x1, antialias, limit.x0, limit.x1, xs);
    int ny = spans(r.y0, r.y1, antialias, limit.y0, limit.y1, ys);
    int count = 0;
    for (int j = 0; j < ny; j++) {
        for (int i = 0; i < nx; i++) {
            sw_piece *p = &out[count++];
            p->box.x0 = xs[i].start; p->box.x1 = xs[i].end;
            p->box.y0 = ys[j].start; p->box.y1 = ys[j].end;
            p->coverage = xs[i].coverage * ys[j].coverage;
        }
    }
    return count;
}
