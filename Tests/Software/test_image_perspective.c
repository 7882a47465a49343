/*
 * Software backend, S6.3 (perspective by m34) and S6.4: an image under
 * perspective (software_paint.c, composite_projective) samples as pixman's
 * bilinear and nearest filters do, integer for integer (docs/rendering.md, "Images under perspective").
 * The reference here follows pixman's arithmetic: the pixel centre mapped
 * by the inverse homography and divided by w, rounded to 16.16 fixed
 * point, 7-bit weights (bilinear) or the texel holding the point
 * (nearest), the source rect's edge texels repeated; then premultiplied
 * OVER (or saturating ADD) with pixman's rounding.
 *
 * Checked: the pixels the card covers whole (every corner of the pixel
 * inside it), over a grey background. This test's inverse homography is
 * its own, so a position can round the other way where it falls within
 * about 1e-9 of a fixed-point step: at most 1 pixel in 1,000 may differ,
 * by at most 2 of 255; every other pixel must be equal. Software only
 * (gles samples with the GPU's own filtering).
 */
#include "lktest.h"

#define W 320
#define H 240
#define IW 37
#define IH 23

static const lk_backend *b;

static uint32_t texels[IW * IH];

static uint32_t texel(int x, int y)
{
    x = x < 0 ? 0 : (x >= IW ? IW - 1 : x);
    y = y < 0 ? 0 : (y >= IH ? IH - 1 : y);
    return texels[y * IW + x];
}

static uint32_t mul_un8(uint32_t x, uint32_t a)
{
    uint32_t t = x * a + 0x80;
    return (t + (t >> 8)) >> 8;
}

/* 3x3 homography, column vectors: output = h * (image x, image y, 1) */
typedef struct hom { double m[3][3]; } hom;

static hom inverse(hom a)
{
    double (*m)[3] = a.m;
    double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1], c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
    hom r;
    r.m[0][0] = c00 / det;
    r.m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det;
    r.m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det;
    r.m[1][0] = c01 / det;
    r.m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det;
    r.m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det;
    r.m[2][0] = c02 / det;
    r.m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det;
    r.m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det;
    return r;
}

static void apply(const hom *h, double x, double y, double *u, double *v)
{
    double w = h->m[2][0] * x + h->m[2][1] * y + h->m[2][2];
    *u = (h->m[0][0] * x + h->m[0][1] * y + h->m[0][2]) / w;
    *v = (h->m[1][0] * x + h->m[1][1] * y + h->m[1][2]) / w;
}

/* pixman's sample of the image at image point (u, v) */
static uint32_t sample(double u, double v, int nearest)
{
    int32_t fu = (int32_t)floor(u * 65536.0 + 0.5), fv = (int32_t)floor(v * 65536.0 + 0.5);
    if (nearest) return texel((fu - 1) >> 16, (fv - 1) >> 16);
    int32_t x1 = fu - 0x8000, y1 = fv - 0x8000;
    uint32_t wx = ((uint32_t)(x1 >> 9) & 0x7f) << 1, wy = ((uint32_t)(y1 >> 9) & 0x7f) << 1;
    int32_t tx = x1 >> 16, ty = y1 >> 16;
    uint32_t tl = texel(tx, ty), tr = texel(tx + 1, ty), bl = texel(tx, ty + 1), br = texel(tx + 1, ty + 1);
    uint32_t wxy = wx * wy, wxiy = (wx << 8) - wxy, wixy = (wy << 8) - wxy;
    uint32_t wixiy = 256 * 256 - (wy << 8) - (wx << 8) + wxy, out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t f = ((tl >> shift) & 255) * wixiy + ((tr >> shift) & 255) * wxiy + ((bl >> shift) & 255) * wixy +
                     ((br >> shift) & 255) * wxy;
        out |= (f >> 16) << shift;
    }
    return out;
}

static uint32_t composite(uint32_t s, uint32_t d, int add)
{
    uint32_t out = 0, sa = s >> 24;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t sc = (s >> shift) & 255, dc = (d >> shift) & 255;
        uint32_t r = sc + (add ? dc : mul_un8(dc, 255 - sa));
        out |= (r > 255 ? 255 : r) << shift;
    }
    return out;
}

/* The card drawn by inst into frame, compared with the reference. */
static void draw_and_compare(lk_backend_instance *inst, lkt_frame *frame, const char *name, double degrees,
                             int about_x, double distance, int nearest, int add)
{
    lkt_image img = lkt_image_wrap(71, texels, IW, IH);
    lk_dl_op ops[2];
    lk_dl_color grey = lkt_color(0.4f, 0.45f, 0.5f, 1);
    ops[0] = lkt_fill(0, 0, W, H, grey);
    double rw = 200, rh = 140;
    lk_dl_op op = lkt_op(LK_DL_OP_IMAGE, -rw / 2, -rh / 2, rw, rh);
    op.image = &img.image;
    op.source = lkt_rect(0, 0, IW, IH);
    op.flags |= LK_DL_FLAG_ANTIALIAS | (nearest ? LK_DL_FLAG_FILTER_NEAREST : 0) | (add ? LK_DL_FLAG_BLEND_ADD : 0);
    double a = degrees * LKT_PI / 180;
    lkt_mat m = about_x ? lkt_mat_identity() : lkt_rotate_y(a);
    if (about_x) {
        m.m[5] = cos(a); m.m[6] = sin(a);
        m.m[9] = -sin(a); m.m[10] = cos(a);
    }
    m = lkt_mat_mul(lkt_mat_mul(lkt_mat_mul(m, lkt_perspective(distance)), lkt_rotate_z(0.2)),
                    lkt_translate(W / 2 + 0.3, H / 2 + 0.7, 0));
    lkt_set_transform(&op, m);
    ops[1] = op;
    lk_display_list list = lkt_list(ops, 2, W, H, lkt_color(0, 0, 0, 1));
    if (!lkt_render(b, inst, &list, frame)) return;
    /* image point (i, j) -> local (-rw/2 + i rw / IW, ...) -> output through
       the row-vector 4x4 at z = 0 */
    hom h;
    double sx = rw / IW, sy = rh / IH, ox = -rw / 2, oy = -rh / 2;
    const double *t = op.transform;
    for (int r = 0; r < 3; r++) {
        int col = r == 2 ? 3 : r;   /* x, y, w columns of the 4x4 */
        h.m[r][0] = sx * t[0 * 4 + col];
        h.m[r][1] = sy * t[1 * 4 + col];
        h.m[r][2] = ox * t[0 * 4 + col] + oy * t[1 * 4 + col] + t[3 * 4 + col];
    }
    hom inv = inverse(h);
    uint32_t bg = lkt_pixel(frame, 0, 0);
    long compared = 0, off = 0;
    int worst = 0, wx = 0, wy = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int inside = 1;
            for (int c = 0; c < 4 && inside; c++) {
                double u, v;
                apply(&inv, x + (c & 1), y + (c >> 1), &u, &v);
                inside = u > 0.01 && u < IW - 0.01 && v > 0.01 && v < IH - 0.01;
            }
            if (!inside) continue;
            double u, v;
            apply(&inv, x + 0.5, y + 0.5, &u, &v);
            uint32_t want = composite(sample(u, v, nearest), bg, add), got = lkt_pixel(frame, x, y);
            compared++;
            if (got == want) continue;
            off++;
            int d = 0;
            for (int shift = 0; shift < 32; shift += 8) {
                int e = abs((int)((got >> shift) & 255) - (int)((want >> shift) & 255));
                if (e > d) d = e;
            }
            if (d > worst) {
                worst = d;
                wx = x;
                wy = y;
            }
        }
    printf("# %s: %ld pixels compared, %ld differ, worst %d at (%d,%d)\n", name, compared, off, worst, wx, wy);
    if (compared < 5000) lkt_fail("only %ld pixels covered whole: the card checks too little", compared);
    if (off * 1000 > compared || worst > 2)
        lkt_fail("%ld of %ld pixels differ from pixman's arithmetic, worst by %d at (%d,%d)", off, compared, worst, wx,
                 wy);
}

static void check(const char *name, double degrees, int about_x, double distance, int nearest, int add)
{
    lkt_begin(name);
    lk_backend_instance *inst = lkt_open(b, NULL, W, H);
    lkt_frame frame = lkt_frame_new(W, H);
    if (inst) {
        draw_and_compare(inst, &frame, name, degrees, about_x, distance, nearest, add);
        b->close(inst);
    } else {
        lkt_fail("could not open an instance");
    }
    free(frame.pixels);
    lkt_end();
}

int main(void)
{
    if (strcmp(lkt_backend_name(), "software") != 0) return 0;   /* gles filters with the GPU's own sampling */
    b = lkt_load();
    if (!b) return 1;
    /* premultiplied texels of every kind: opaque, translucent, transparent */
    uint32_t seed = 99;
    for (int i = 0; i < IW * IH; i++) {
        seed = seed * 1664525u + 1013904223u;
        uint32_t a = (i % 5 == 0) ? 0 : (i % 3 == 0 ? (seed >> 24) : 255);
        texels[i] = lkt_argb(a, ((seed >> 4) & 255) * a / 255, ((seed >> 12) & 255) * a / 255,
                             ((seed >> 20) & 255) * a / 255);
    }
    check("image_in_perspective_samples_as_pixman_bilinear", 35, 0, 400, 0, 0);
    check("image_in_perspective_about_x_far_side", -50, 1, 300, 0, 0);
    check("image_in_perspective_nearest", 28, 0, 500, 1, 0);
    check("image_in_perspective_added", 40, 1, 350, 0, 1);
    return lkt_exit_code();
}
