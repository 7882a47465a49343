/* Projected quads for the 3D rendering tests: see lkt_quads.h. */
#include "lkt_quads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int lkt_quads_to8(double c) { return (int)floor(c * 255 + 0.5); }

/* The matrix taking a layer's bounds coordinates into its superlayer's,
   before the superlayer's sublayerTransform. */
lk_transform3d lkt_quads_layer_matrix(lk_rect bounds, lk_point anchor, lk_point position,
                                   lk_transform3d transform)
{
    lk_transform3d m = lkt_t_translation(-bounds.origin.x - anchor.x * bounds.size.width,
                                         -bounds.origin.y - anchor.y * bounds.size.height, 0);
    m = lkt_t_mul(m, transform);
    return lkt_t_mul(m, lkt_t_translation(position.x, position.y, 0));
}

/* A superlayer's sublayerTransform about its anchor point. */
lk_transform3d lkt_quads_sublayer_matrix(lk_rect bounds, lk_point anchor, lk_transform3d sub)
{
    double ax = bounds.origin.x + anchor.x * bounds.size.width;
    double ay = bounds.origin.y + anchor.y * bounds.size.height;
    lk_transform3d m = lkt_t_mul(lkt_t_translation(-ax, -ay, 0), sub);
    return lkt_t_mul(m, lkt_t_translation(ax, ay, 0));
}

void lkt_quads_add_quad(lkt_expectation *e, lk_transform3d m, lk_rect b, lk_color c)
{
    lkt_quad *q = &e->quads[e->count++];
    double xs[4] = {b.origin.x, b.origin.x + b.size.width, b.origin.x + b.size.width, b.origin.x};
    double ys[4] = {b.origin.y, b.origin.y, b.origin.y + b.size.height, b.origin.y + b.size.height};
    int i;
    for (i = 0; i < 4; i++) lkt_t_apply(m, xs[i], ys[i], 0, &q->x[i], &q->y[i], NULL);
    q->rgb[0] = lkt_quads_to8(c.r);
    q->rgb[1] = lkt_quads_to8(c.g);
    q->rgb[2] = lkt_quads_to8(c.b);
}

/* Signed distance of (px, py) inside the convex lkt_quad (negative outside). */
double lkt_quads_inside_margin(const lkt_quad *q, double px, double py)
{
    double area = 0, margin = 1e300;
    int i;
    for (i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        area += q->x[i] * q->y[j] - q->x[j] * q->y[i];
    }
    for (i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        double ex = q->x[j] - q->x[i], ey = q->y[j] - q->y[i];
        double len = sqrt(ex * ex + ey * ey);
        double d = (ex * (py - q->y[i]) - ey * (px - q->x[i])) / len;
        if (area < 0) d = -d;
        if (d < margin) margin = d;
    }
    return margin;
}

/* Checks every pixel that is clearly inside or outside; one check. */
void lkt_check_quads(const char *name, const char *file_stem, const uint8_t *px, uint32_t w,
                         uint32_t h, const lkt_expectation *e)
{
    uint32_t x, y;
    long checked = 0, wrong = 0;
    char first[256] = "";
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            const int *want = e->background;
            int ambiguous = 0, i, c, bad = 0;
            const uint8_t *p = px + ((size_t)y * w + x) * 4;
            for (i = 0; i < e->count; i++) {
                double m = lkt_quads_inside_margin(&e->quads[i], x + 0.5, y + 0.5);
                if (m > 1.5) want = e->quads[i].rgb;
                else if (m > -1.5) ambiguous = 1;
            }
            if (ambiguous) continue;
            checked++;
            for (c = 0; c < 3; c++)
                if (abs((int)p[c] - want[c]) > 3) bad = 1;
            if (p[3] != 255) bad = 1;
            if (bad) {
                if (!wrong)
                    snprintf(first, sizeof first, "first at (%u,%u): %u,%u,%u,%u, expected %d,%d,%d,255",
                             (unsigned)x, (unsigned)y, p[0], p[1], p[2], p[3], want[0], want[1],
                             want[2]);
                wrong++;
            }
        }
    }
    if (wrong) {
        char path[1024], file[256];
        snprintf(file, sizeof file, "%s.actual.png", file_stem);
        lkt_output_path(path, sizeof path, file);
        lkt_png_write(path, px, w, h, (size_t)w * 4);
        LKT_CHECK(0, name, "%ld of %ld checked pixels wrong; %s; actual image in %s", wrong,
                  checked, first, path);
    } else {
        LKT_CHECK(checked > (long)(w * h) / 2, name, "only %ld pixels could be checked", checked);
    }
}
