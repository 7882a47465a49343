/*
 * Fill runs: small solid FILL ops (rotated, scaled, translated rects without
 * a corner radius) drawn by the sprite path's band loop
 * (software_sprite.c) instead of an A8 mask and a pixman composite each:
 * rotations, scales, subpixel positions, opacity, additive blending,
 * overlapping fills (painter's order), fills mixed with IMAGE sprites in
 * one run, axis-aligned and aliased fills, fills the rule leaves to pixman
 * (small, pixel-aligned, aliased) among them, clips (box and mask), groups,
 * fills cut by the output's edges and by the damage box.
 *
 * Every scene is checked three ways:
 *  - against a reference computed here, independently of any backend: the
 *    exact area of each pixel inside the op's quad times the premultiplied
 *    colour and the opacity (and the clip's coverage), OVER or saturating
 *    ADD, in double precision. Tolerance 3 of 255 per channel (8-bit
 *    colour, coverage and intermediate values: a level or so each; the
 *    sprites mixed in use the sprite test's 4); every pixel is compared.
 *  - on the software backend only: against the same backend with fill runs
 *    off (LAYERKIT_SOFTWARE_FILL_RUNS=0: pixman's rect and mask paths draw
 *    every FILL), tolerance 1 of 255 (the two compute the same integers
 *    from coverage bytes; the band path's coverage is exact in double, the
 *    mask rasterizer's summed in float, which can round a byte apart);
 *  - its portable loop (LAYERKIT_SOFTWARE_SPRITES=scalar) against its SIMD
 *    one, which must agree exactly.
 * The backend's statistics (logged when an instance closes) must show the
 * fills drawn in bands, the same number both loops, and none with fill runs
 * off.
 */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "lktest.h"

#include <stdint.h>

#define W 160
#define H 120
#define MAX_OPS 96

static const lk_backend *b;

/* ------------------------------------------------------------------------ */
/* Scenes                                                                    */

static uint32_t seed = 12345u;
static double rnd(void)
{
    seed = seed * 1664525u + 1013904223u;
    return (double)(seed >> 8) / 16777216.0;
}

/* A 16x16 particle: a translucent disc with a coloured gradient, texels all
   different, so that sampling errors show. */
static lkt_image particle(uint64_t id)
{
    lkt_image img = lkt_image_new(id, 16, 16);
    for (int j = 0; j < 16; j++)
        for (int i = 0; i < 16; i++) {
            double dx = i + 0.5 - 8, dy = j + 0.5 - 8, r = sqrt(dx * dx + dy * dy);
            unsigned a = r < 6.5 ? 255 : (r < 8 ? (unsigned)(255 * (8 - r) / 1.5) : 0);
            img.pixels[j * 16 + i] = lkt_argb(a, a * (i * 16 + 15) / 255, a * (j * 16 + 15) / 255,
                                              a * (255 - i * 8 - j * 7) / 255);
        }
    return img;
}

/* A 12x10 opaque checker of distinct colours (its edges are the op's). */
static lkt_image tile(uint64_t id)
{
    lkt_image img = lkt_image_new(id, 12, 10);
    for (int j = 0; j < 10; j++)
        for (int i = 0; i < 12; i++)
            img.pixels[j * 12 + i] = lkt_argb(255, 20 * i + 10, 25 * j + 5, ((i + j) & 1) ? 230 : 40);
    return img;
}

typedef struct scene {
    const char *name;
    lk_dl_op ops[MAX_OPS];
    uint32_t count;
    lk_dl_box damage;
    lk_dl_color clear;
} scene;

/* An IMAGE op of img's source rect, its centre at (x, y), scaled and
   turned by angle (radians) about the centre. */
static lk_dl_op sprite(const lkt_image *img, lk_dl_rect source, double x, double y, double scale,
                       double angle)
{
    double w = source.width * scale, h = source.height * scale;
    lk_dl_op op = lkt_op(LK_DL_OP_IMAGE, -w / 2, -h / 2, w, h);
    op.image = &img->image;
    op.source = source;
    lkt_set_transform(&op, lkt_mat_mul(lkt_rotate_z(angle), lkt_translate(x, y, 0)));
    return op;
}

static lk_dl_rect whole(const lkt_image *img)
{
    return lkt_rect(0, 0, img->image.width, img->image.height);
}

static void begin_scene(scene *s, const char *name)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->damage.width = W;
    s->damage.height = H;
    s->clear = lkt_color(0, 0, 0, 0);
}

static void add(scene *s, lk_dl_op op)
{
    if (s->count < MAX_OPS) s->ops[s->count++] = op;
}

static lkt_image img_particle, img_tile;

static lk_dl_color random_color(int translucent)
{
    float a = translucent ? (float)(0.15 + 0.85 * rnd()) : 1.0f;
    return lkt_color((float)rnd() * a, (float)rnd() * a, (float)rnd() * a, a);
}

/* A FILL of w x h centred at (x, y), turned by angle about its centre. */
static lk_dl_op square(double x, double y, double w, double h, double angle, lk_dl_color c)
{
    lk_dl_op op = lkt_fill(-w / 2, -h / 2, w, h, c);
    lkt_set_transform(&op, lkt_mat_mul(lkt_rotate_z(angle), lkt_translate(x, y, 0)));
    return op;
}

/* Random fills: every angle, sides 2 to 68 pixels, subpixel positions, some
   reaching over the output's edges, overlapping. */
static void scene_random(scene *s, const char *name, uint32_t flags, int translucent, int opacity)
{
    begin_scene(s, name);
    add(s, lkt_fill(0, 0, W, H, lkt_color(0.2f, 0.25f, 0.3f, 1)));
    for (int i = 0; i < 80; i++) {
        double x = -10 + rnd() * (W + 20), y = -10 + rnd() * (H + 20);
        double side = (i % 6 == 5 ? 2 : 10) + rnd() * (i % 9 == 0 ? 58 : 30);   /* some too small for bands */
        lk_dl_op op = square(x, y, side, side * (0.5 + rnd()), rnd() * 2 * LKT_PI, random_color(translucent));
        op.flags |= flags;
        if (opacity) op.opacity = (float)(0.1 + 0.9 * rnd());
        add(s, op);
    }
}

static void build_scenes(scene *scenes, int *count)
{
    int n = 0;
    scene_random(&scenes[n++], "fills_rotated_scaled_subpixel", LK_DL_FLAG_ANTIALIAS, 0, 0);
    scene_random(&scenes[n++], "fills_translucent_with_opacity", LK_DL_FLAG_ANTIALIAS, 1, 1);
    scene_random(&scenes[n++], "fills_additive", LK_DL_FLAG_ANTIALIAS | LK_DL_FLAG_BLEND_ADD, 1, 1);

    /* Painter's order: a stack of overlapping fills and sprites at the
       same few places, each partly covering the one before, so that any
       reordering within a band changes pixels. */
    scene *s = &scenes[n++];
    begin_scene(s, "fills_and_sprites_overlapping_in_order");
    s->clear = lkt_color(0.05f, 0.05f, 0.08f, 1);
    for (int i = 0; i < 72; i++) {
        double x = 30 + 50 * (i % 3) + 3 * sin(i), y = 25 + 35 * ((i / 3) % 3) + 2 * cos(i);
        if (i % 4 == 3) {
            lk_dl_op op = sprite(&img_particle, whole(&img_particle), x, y, 1.0 + 0.1 * (i % 5), 0.37 * i);
            op.opacity = 0.9f;
            add(s, op);
        } else {
            lk_dl_op op = square(x, y, 14 + (i % 7) * 3, 10 + (i % 5) * 4, 0.23 * i, random_color(i % 2));
            if (i % 5 == 0) op.opacity = 0.6f;
            add(s, op);
        }
    }

    /* Exact angles and placements: axis-aligned (the rect pieces, at
       integer and fractional edges), 90 and 180 degrees, 45, tiny turns,
       aliased axis-aligned, flipped, one pixel and smaller. */
    s = &scenes[n++];
    begin_scene(s, "fills_exact_angles_and_placements");
    s->clear = lkt_color(0.1f, 0.1f, 0.1f, 1);
    const double angles[8] = { 0, LKT_PI / 2, LKT_PI, 3 * LKT_PI / 2, LKT_PI / 4, LKT_PI / 6, -LKT_PI / 3, 0.01 };
    for (int i = 0; i < 8; i++) {
        add(s, square(14 + 18 * i + 0.25 * (i % 4), 14.5, 16, 12, angles[i], lkt_color(0.8f, 0.3f, 0.2f, 1)));
        add(s, square(14 + 18 * i + 0.5, 40 + 0.125 * i, 14 + i, 10 + i, angles[i], lkt_color(0.1f, 0.4f, 0.5f, 0.6f)));
        add(s, square(14 + 18 * i, 62, 18, 18, angles[i], lkt_color(0.5f, 0.5f, 0.1f, 0.7f)));
        add(s, square(10 + 18 * i + 0.3, 80.6, 0.7, 1.3, angles[i], lkt_color(1, 1, 1, 1)));
    }
    for (int i = 0; i < 6; i++) {
        lk_dl_op aliased = square(15 + 25 * i + 0.3 * i, 100.6, 10.4 + i, 12.2, 0, lkt_color(0.2f, 0.6f, 0.3f, 0.9f));
        aliased.flags = 0;
        add(s, aliased);
    }
    lk_dl_op flipped = lkt_fill(-9, -6, 18, 12, lkt_color(0.7f, 0.2f, 0.6f, 0.8f));
    lkt_set_transform(&flipped, lkt_mat_mul(lkt_mat_mul(lkt_scale_mat(-1, 1.5), lkt_rotate_z(0.3)),
                                            lkt_translate(150.5, 110.25, 0)));
    add(s, flipped);

    /* Clips: a damage box, a pixel-aligned clip, a rotated clip (a mask),
       a group drawn offscreen with opacity, fills cut by every edge. */
    s = &scenes[n++];
    begin_scene(s, "fills_clipped_damage_masks_groups");
    s->damage.x = 7;
    s->damage.y = 5;
    s->damage.width = W - 20;
    s->damage.height = H - 12;
    add(s, lkt_fill(0, 0, W, H, lkt_color(0.3f, 0.2f, 0.1f, 1)));
    add(s, square(2, 3, 20, 14, 0.7, lkt_color(0.9f, 0.9f, 0.2f, 1)));
    add(s, square(W - 3, 60, 25, 17, 2.1, lkt_color(0.2f, 0.9f, 0.2f, 0.9f)));
    add(s, square(80, H - 1, 30, 12, 0.4, lkt_color(0.2f, 0.2f, 0.9f, 1)));
    add(s, square(80, -2, 30, 12, 5.0, lkt_color(0.6f, 0.2f, 0.5f, 0.7f)));
    add(s, square(W - 1, H - 1.5, 9, 9, 0, lkt_color(0.9f, 0.5f, 0.5f, 1)));
    add(s, lkt_op(LK_DL_OP_PUSH_CLIP, 20, 20, 40, 30));
    for (int i = 0; i < 6; i++)
        add(s, square(18 + 9 * i, 22 + 5 * i, 18, 14, 0.5 * i, random_color(i & 1)));
    add(s, lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0));
    lk_dl_op clip = lkt_op(LK_DL_OP_PUSH_CLIP, -20, -15, 40, 30);
    lkt_set_transform(&clip, lkt_mat_mul(lkt_rotate_z(0.35), lkt_translate(110, 40, 0)));
    add(s, clip);
    for (int i = 0; i < 8; i++) {
        lk_dl_op op = square(92 + 6 * i, 28 + 4 * i, 18, 13, 0.9 * i * (i % 4 != 0), random_color(i % 3 == 0));
        op.flags |= LK_DL_FLAG_BLEND_ADD * (uint32_t)(i & 1);
        add(s, op);
    }
    add(s, lkt_op(LK_DL_OP_POP_CLIP, 0, 0, 0, 0));
    lk_dl_op group = lkt_op(LK_DL_OP_PUSH_GROUP, 15, 50, 90, 65);
    group.opacity = 0.7f;
    add(s, group);
    for (int i = 0; i < 5; i++) {
        lk_dl_op op = square(35 + 11 * i, 70 + 7 * i, 20, 15, 0.8 * i, lkt_color(0.2f, 0.7f, 0.5f, 0.8f));
        op.opacity = 0.8f;
        add(s, op);
    }
    add(s, lkt_op(LK_DL_OP_POP_GROUP, 0, 0, 0, 0));
    *count = n;
}

/* ------------------------------------------------------------------------ */
/* The independent reference                                                 */

typedef struct rgba { double a, r, g, b; } rgba;

/* Pixels whose nearest-filter sample point lies within 0.01 texel of a
   texel boundary: which texel they show depends on rounding, so they are
   not compared (the checks print how many there are and fail if too many). */
static unsigned char ambiguous[W * H];

static rgba texel(const lk_dl_image *img, int i, int j)
{
    uint32_t p = ((const uint32_t *)img->pixels)[(size_t)j * (img->stride / 4) + (size_t)i];
    rgba v = { (double)(p >> 24), (double)((p >> 16) & 255), (double)((p >> 8) & 255), (double)(p & 255) };
    return v;
}

/* The image at (u, v) (image pixels), the texels [x0, x1) x [y0, y1) with their edge repeated. */
static rgba sample(const lk_dl_image *img, double u, double v, int x0, int y0, int x1, int y1, int nearest)
{
    if (nearest) {
        int i = (int)floor(u), j = (int)floor(v);
        i = i < x0 ? x0 : (i > x1 - 1 ? x1 - 1 : i);
        j = j < y0 ? y0 : (j > y1 - 1 ? y1 - 1 : j);
        return texel(img, i, j);
    }
    double fu = u - 0.5, fv = v - 0.5;
    int i0 = (int)floor(fu), j0 = (int)floor(fv);
    double tu = fu - i0, tv = fv - j0;
    rgba out = { 0, 0, 0, 0 };
    for (int dj = 0; dj < 2; dj++)
        for (int di = 0; di < 2; di++) {
            int i = i0 + di, j = j0 + dj;
            i = i < x0 ? x0 : (i > x1 - 1 ? x1 - 1 : i);
            j = j < y0 ? y0 : (j > y1 - 1 ? y1 - 1 : j);
            double w = (di ? tu : 1 - tu) * (dj ? tv : 1 - tv);
            rgba t = texel(img, i, j);
            out.a += t.a * w; out.r += t.r * w; out.g += t.g * w; out.b += t.b * w;
        }
    return out;
}

/* 2D affine part of an op's transform: output = local * m */
static void device_point(const lk_dl_op *op, double x, double y, double *ox, double *oy)
{
    const double *t = op->transform;
    *ox = x * t[0] + y * t[4] + t[12];
    *oy = x * t[1] + y * t[5] + t[13];
}

static void local_point(const lk_dl_op *op, double ox, double oy, double *x, double *y)
{
    const double *t = op->transform;
    double det = t[0] * t[5] - t[1] * t[4];
    double dx = ox - t[12], dy = oy - t[13];
    *x = (dx * t[5] - dy * t[4]) / det;
    *y = (dy * t[0] - dx * t[1]) / det;
}

/* Draws the op into buf (w x h, pixel (0,0) at output (ox, oy)) within the
   output box [bx0, bx1) x [by0, by1), times extra (a clip's coverage). */
static void reference_op(const lk_dl_op *op, rgba *buf, int w, int ox, int oy, int bx0, int by0, int bx1,
                         int by1, const double *clip_cov)
{
    const lk_dl_image *img = op->image;
    int solid = op->kind == LK_DL_OP_FILL;
    lk_dl_rect r = op->rect, src = op->source;
    double xs[4], ys[4];
    device_point(op, r.x, r.y, &xs[0], &ys[0]);
    device_point(op, r.x + r.width, r.y, &xs[1], &ys[1]);
    device_point(op, r.x + r.width, r.y + r.height, &xs[2], &ys[2]);
    device_point(op, r.x, r.y + r.height, &xs[3], &ys[3]);
    double minx = fmin(fmin(xs[0], xs[1]), fmin(xs[2], xs[3])), maxx = fmax(fmax(xs[0], xs[1]), fmax(xs[2], xs[3]));
    double miny = fmin(fmin(ys[0], ys[1]), fmin(ys[2], ys[3])), maxy = fmax(fmax(ys[0], ys[1]), fmax(ys[2], ys[3]));
    int x0 = (int)floor(minx), x1 = (int)ceil(maxx), y0 = (int)floor(miny), y1 = (int)ceil(maxy);
    if (x0 < bx0) x0 = bx0;
    if (y0 < by0) y0 = by0;
    if (x1 > bx1) x1 = bx1;
    if (y1 > by1) y1 = by1;
    int tx0 = (int)floor(src.x), ty0 = (int)floor(src.y);
    int tx1 = (int)ceil(src.x + src.width), ty1 = (int)ceil(src.y + src.height);
    double tint[4] = { 1, 1, 1, 1 };
    if (op->flags & LK_DL_FLAG_TINT) {
        tint[0] = op->tint.a; tint[1] = op->tint.r; tint[2] = op->tint.g; tint[3] = op->tint.b;
    }
    int add = (op->flags & LK_DL_FLAG_BLEND_ADD) != 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            double cov;
            if (op->flags & LK_DL_FLAG_ANTIALIAS) {
                cov = lkt_polygon_coverage(xs, ys, 4, x, y);
            } else {
                double lx, ly;
                local_point(op, x + 0.5, y + 0.5, &lx, &ly);
                cov = (lx >= r.x && lx < r.x + r.width && ly >= r.y && ly < r.y + r.height) ? 1.0 : 0.0;
            }
            if (clip_cov) cov *= clip_cov[(y - oy) * w + (x - ox)];
            cov *= op->opacity;
            if (cov <= 0) continue;
            if (solid) {
                rgba c = { op->color.a * 255.0 * cov, op->color.r * 255.0 * cov, op->color.g * 255.0 * cov,
                           op->color.b * 255.0 * cov };
                rgba *d = &buf[(y - oy) * w + (x - ox)];
                if (add) {
                    d->a = fmin(255, d->a + c.a); d->r = fmin(255, d->r + c.r);
                    d->g = fmin(255, d->g + c.g); d->b = fmin(255, d->b + c.b);
                } else {
                    double k = 1 - c.a / 255;
                    d->a = c.a + d->a * k; d->r = c.r + d->r * k; d->g = c.g + d->g * k; d->b = c.b + d->b * k;
                }
                continue;
            }
            double lx, ly;
            local_point(op, x + 0.5, y + 0.5, &lx, &ly);
            double u = src.x + (lx - r.x) * src.width / r.width, v = src.y + (ly - r.y) * src.height / r.height;
            if (op->flags & LK_DL_FLAG_FILTER_NEAREST) {
                double fu = u - floor(u), fv = v - floor(v);
                if (fmin(fu, 1 - fu) < 0.01 || fmin(fv, 1 - fv) < 0.01) ambiguous[(y - oy) * w + (x - ox)] = 1;
            }
            rgba t = sample(img, u, v, tx0, ty0, tx1, ty1, (op->flags & LK_DL_FLAG_FILTER_NEAREST) != 0);
            rgba s = { t.a * tint[0] * cov, t.r * tint[1] * cov, t.g * tint[2] * cov, t.b * tint[3] * cov };
            rgba *d = &buf[(y - oy) * w + (x - ox)];
            if (add) {
                d->a = fmin(255, d->a + s.a); d->r = fmin(255, d->r + s.r);
                d->g = fmin(255, d->g + s.g); d->b = fmin(255, d->b + s.b);
            } else {
                double k = 1 - s.a / 255;
                d->a = s.a + d->a * k; d->r = s.r + d->r * k; d->g = s.g + d->g * k; d->b = s.b + d->b * k;
            }
        }
}

/* The whole scene; only the ops the scenes use (FILL, IMAGE, PUSH_CLIP of
   a rect under a transform, a group). */
static void reference_scene(const scene *s, rgba *out)
{
    rgba clear = { s->clear.a * 255.0, s->clear.r * 255.0, s->clear.g * 255.0, s->clear.b * 255.0 };
    int bx0 = s->damage.x, by0 = s->damage.y, bx1 = s->damage.x + s->damage.width, by1 = s->damage.y + s->damage.height;
    for (int i = 0; i < W * H; i++) out[i] = clear;
    memset(ambiguous, 0, sizeof ambiguous);
    double *clip = (double *)malloc(sizeof(double) * W * H);
    rgba *group = (rgba *)malloc(sizeof(rgba) * W * H);
    int clipping = 0, grouping = 0;
    float group_opacity = 1;
    for (uint32_t k = 0; k < s->count; k++) {
        const lk_dl_op *op = &s->ops[k];
        rgba *target = grouping ? group : out;
        switch (op->kind) {
        case LK_DL_OP_FILL:
        case LK_DL_OP_IMAGE:
            reference_op(op, target, W, 0, 0, bx0, by0, bx1, by1, clipping ? clip : NULL);
            break;
        case LK_DL_OP_PUSH_CLIP: {
            double xs[4], ys[4];
            lk_dl_rect r = op->rect;
            device_point(op, r.x, r.y, &xs[0], &ys[0]);
            device_point(op, r.x + r.width, r.y, &xs[1], &ys[1]);
            device_point(op, r.x + r.width, r.y + r.height, &xs[2], &ys[2]);
            device_point(op, r.x, r.y + r.height, &xs[3], &ys[3]);
            for (int i = 0; i < W * H; i++) clip[i] = lkt_polygon_coverage(xs, ys, 4, i % W, i / W);
            clipping = 1;
            break;
        }
        case LK_DL_OP_POP_CLIP: clipping = 0; break;
        case LK_DL_OP_PUSH_GROUP:
            for (int i = 0; i < W * H; i++) { group[i].a = group[i].r = group[i].g = group[i].b = 0; }
            grouping = 1;
            group_opacity = op->opacity;
            break;
        case LK_DL_OP_POP_GROUP:
            for (int i = 0; i < W * H; i++) {
                rgba g = group[i];
                double kk = 1 - g.a * group_opacity / 255;
                rgba *d = &out[i];
                d->a = g.a * group_opacity + d->a * kk; d->r = g.r * group_opacity + d->r * kk;
                d->g = g.g * group_opacity + d->g * kk; d->b = g.b * group_opacity + d->b * kk;
            }
            grouping = 0;
            break;
        default: break;
        }
    }
    free(clip);
    free(group);
}

/* ------------------------------------------------------------------------ */
/* Comparisons                                                               */

/* The largest channel difference between two frames, and where. */
static int frame_difference(const lkt_frame *a, const lkt_frame *c, int *at_x, int *at_y)
{
    int worst = 0;
    for (int i = 0; i < W * H; i++)
        for (int shift = 0; shift < 32; shift += 8) {
            if (ambiguous[i]) continue;
            int d = abs((int)((a->pixels[i] >> shift) & 255) - (int)((c->pixels[i] >> shift) & 255));
            if (d > worst) { worst = d; *at_x = i % W; *at_y = i / W; }
        }
    return worst;
}

static double reference_difference(const lkt_frame *f, const rgba *ref, int *at_x, int *at_y)
{
    double worst = 0;
    for (int i = 0; i < W * H; i++) {
        if (ambiguous[i]) continue;
        uint32_t p = f->pixels[i];
        double got[4] = { (double)(p >> 24), (double)((p >> 16) & 255), (double)((p >> 8) & 255), (double)(p & 255) };
        double want[4] = { ref[i].a, ref[i].r, ref[i].g, ref[i].b };
        for (int c = 0; c < 4; c++) {
            double d = fabs(got[c] - fmin(255.0, want[c]));
            if (d > worst) { worst = d; *at_x = i % W; *at_y = i / W; }
        }
    }
    return worst;
}

typedef struct way {
    lk_backend_instance *inst;
    lkt_host_record record;
    lk_backend_host host;
} way;

/* An instance opened with variable=value in its environment (NULL: none). */
static int open_way(way *w, const char *variable, const char *value)
{
    memset(w, 0, sizeof *w);
    w->host = lkt_host(&w->record);
    if (variable) setenv(variable, value, 1);
    w->inst = lkt_open(b, &w->host, W, H);
    if (variable) unsetenv(variable);
    return w->inst != NULL;
}

static int render_scene(way *w, const scene *s, lkt_frame *f)
{
    /* A frame of the previous content first, so that a damage box keeps it. */
    lk_display_list list = lkt_list(s->ops, s->count, W, H, s->clear);
    list.damage = s->damage;
    char error[512] = "";
    lk_display_list full = lkt_list(s->ops, 0, W, H, lkt_color(0.5f, 0, 0.5f, 1));
    if (!b->render(w->inst, &full, error, sizeof error) || !b->render(w->inst, &list, error, sizeof error) ||
        !b->read_pixels(w->inst, f->pixels, W * 4, error, sizeof error)) {
        lkt_fail("%s: render failed: %s", s->name, error);
        return 0;
    }
    return 1;
}

/* The number in "... N band fills ..." of a software instance's closing log. */
static long logged_fills(const char *log)
{
    const char *p = strstr(log, " band fills,");
    if (!p) return -1;
    while (p > log && p[-1] >= '0' && p[-1] <= '9') p--;
    return strtol(p, NULL, 10);
}

int main(void)
{
    b = lkt_load();
    if (!b) return 1;
    img_particle = particle(501);
    img_tile = tile(502);
    static scene scenes[8];
    int count = 0;
    build_scenes(scenes, &count);
    int software = strcmp(lkt_backend_name(), "software") == 0;

    way on, off, scalar;
    unsetenv("LAYERKIT_SOFTWARE_SPRITES");
    unsetenv("LAYERKIT_SOFTWARE_FILL_RUNS");
    if (!open_way(&on, NULL, NULL)) return 1;
    if (software && (!open_way(&off, "LAYERKIT_SOFTWARE_FILL_RUNS", "0") ||
                     !open_way(&scalar, "LAYERKIT_SOFTWARE_SPRITES", "scalar")))
        return 1;
    lkt_frame f_on = lkt_frame_new(W, H), f_off = lkt_frame_new(W, H), f_scalar = lkt_frame_new(W, H);
    rgba *ref = (rgba *)malloc(sizeof(rgba) * W * H);

    for (int i = 0; i < count; i++) {
        const scene *s = &scenes[i];
        char name[160];
        snprintf(name, sizeof name, "%s_against_reference", s->name);
        lkt_begin(name);
        if (render_scene(&on, s, &f_on)) {
            reference_scene(s, ref);
            /* outside the damage box the previous frame stays */
            for (int p = 0; p < W * H; p++) {
                int x = p % W, y = p / W;
                if (x < s->damage.x || x >= s->damage.x + s->damage.width || y < s->damage.y ||
                    y >= s->damage.y + s->damage.height) {
                    ref[p].a = 255; ref[p].r = 0.5 * 255; ref[p].g = 0; ref[p].b = 0.5 * 255;
                }
            }
            int x = 0, y = 0, skipped = 0;
            double worst = reference_difference(&f_on, ref, &x, &y);
            for (int p = 0; p < W * H; p++) skipped += ambiguous[p];
            printf("# %s: worst difference %.1f at (%d,%d)%s", name, worst, x, y, skipped ? "" : "\n");
            if (skipped) printf(", %d pixels at nearest-filter texel boundaries not compared\n", skipped);
            if (skipped > W * H / 20) lkt_fail("%d pixels sample at texel boundaries: the scene checks too little", skipped);
            int tolerance = strstr(s->name, "sprites") ? 4 : 3;
            if (worst > tolerance + 0.5)
                lkt_fail("pixel (%d,%d) is %08x, the reference argb(%.1f,%.1f,%.1f,%.1f): %.1f apart (tolerance %d)",
                         x, y, lkt_pixel(&f_on, x, y), ref[y * W + x].a, ref[y * W + x].r, ref[y * W + x].g,
                         ref[y * W + x].b, worst, tolerance);
        }
        lkt_end();
        if (!software) continue;

        snprintf(name, sizeof name, "%s_band_fills_match_pixman", s->name);
        lkt_begin(name);
        if (render_scene(&off, s, &f_off)) {
            int x = 0, y = 0, worst = frame_difference(&f_on, &f_off, &x, &y);
            printf("# %s: worst difference %d at (%d,%d)\n", name, worst, x, y);
            if (worst > 1)
                lkt_fail("pixel (%d,%d) is %08x in bands, %08x by pixman (tolerance 1)", x, y,
                         lkt_pixel(&f_on, x, y), lkt_pixel(&f_off, x, y));
        }
        lkt_end();

        snprintf(name, sizeof name, "%s_portable_loop_equals_simd", s->name);
        lkt_begin(name);
        if (render_scene(&scalar, s, &f_scalar)) {
            int x = 0, y = 0, worst = frame_difference(&f_on, &f_scalar, &x, &y);
            if (worst > 0)
                lkt_fail("pixel (%d,%d) is %08x by the SIMD loop, %08x by the portable one", x, y,
                         lkt_pixel(&f_on, x, y), lkt_pixel(&f_scalar, x, y));
        }
        lkt_end();
    }

    b->close(on.inst);
    if (software) {
        b->close(off.inst);
        b->close(scalar.inst);
        lkt_begin("fill_runs_drew_the_fills");
        long n_on = logged_fills(on.record.last_log), n_off = logged_fills(off.record.last_log);
        long n_scalar = logged_fills(scalar.record.last_log);
        printf("# fills drawn in bands: %ld (on), %ld (scalar), %ld (off)\n", n_on, n_scalar, n_off);
        if (n_on < 250 || n_scalar != n_on)
            lkt_fail("the band path drew %ld fills (portable loop: %ld); expected at least 250, the same both ways: %s",
                     n_on, n_scalar, on.record.last_log);
        if (n_off != 0) lkt_fail("with LAYERKIT_SOFTWARE_FILL_RUNS=0 the band path drew %ld fills", n_off);
        lkt_end();
    }
    free(ref);
    free(f_on.pixels);
    free(f_off.pixels);
    free(f_scalar.pixels);
    free(img_particle.pixels);
    free(img_tile.pixels);
    return lkt_exit_code();
}
