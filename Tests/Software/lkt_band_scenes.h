/*
 * Scenes for the software backend's band paths (sprites and fill runs),
 * shared by test_sprite.c and test_fill_run.c: random numbers, two test
 * images, the scene type and its builders, an independent reference
 * renderer (exact coverage, double precision) and a backend instance
 * opened with one environment variable set. Include after lktest.h, with
 * W, H and MAX_OPS defined.
 */
#ifndef LKT_BAND_SCENES_H
#define LKT_BAND_SCENES_H

#include <stdint.h>

static const lk_backend *b;

/* ------------------------------------------------------------------------ */
/* Scenes                                                                    */

static uint32_t seed = 12345u;
static inline double rnd(void)
{
    seed = seed * 1664525u + 1013904223u;
    return (double)(seed >> 8) / 16777216.0;
}

/* A 16x16 particle: a translucent disc with a coloured gradient, texels all
   different, so that sampling errors show. */
static inline lkt_image particle(uint64_t id)
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
static inline lkt_image tile(uint64_t id)
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
    /* images the sprite path leaves to pixman (untinted axis-aligned
       ones): pixman steps each row's samples from the first pixel it
       draws, so a damage box that cuts one may move its samples */
    int pixman_images;
    /* the damage check also takes boxes of every row starting at each of
       this many columns after the usual box's left side (0: none) */
    int damage_sweep;
} scene;

/* An IMAGE op of img's source rect, its centre at (x, y), scaled and
   turned by angle (radians) about the centre. */
static inline lk_dl_op sprite(const lkt_image *img, lk_dl_rect source, double x, double y, double scale,
                       double angle)
{
    double w = source.width * scale, h = source.height * scale;
    lk_dl_op op = lkt_op(LK_DL_OP_IMAGE, -w / 2, -h / 2, w, h);
    op.image = &img->image;
    op.source = source;
    lkt_set_transform(&op, lkt_mat_mul(lkt_rotate_z(angle), lkt_translate(x, y, 0)));
    return op;
}

static inline lk_dl_rect whole(const lkt_image *img)
{
    return lkt_rect(0, 0, img->image.width, img->image.height);
}

static inline void begin_scene(scene *s, const char *name)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->damage.width = W;
    s->damage.height = H;
    s->clear = lkt_color(0, 0, 0, 0);
}

static inline void add(scene *s, lk_dl_op op)
{
    if (s->count < MAX_OPS) s->ops[s->count++] = op;
}

static lkt_image img_particle, img_tile;

/* ------------------------------------------------------------------------ */
/* The independent reference                                                 */

typedef struct rgba { double a, r, g, b; } rgba;

/* Pixels whose nearest-filter sample point lies within 0.01 texel of a
   texel boundary: which texel they show depends on rounding, so they are
   not compared (the checks print how many there are and fail if too many). */
static unsigned char ambiguous[W * H];

static inline rgba texel(const lk_dl_image *img, int i, int j)
{
    uint32_t p = ((const uint32_t *)img->pixels)[(size_t)j * (img->stride / 4) + (size_t)i];
    rgba v = { (double)(p >> 24), (double)((p >> 16) & 255), (double)((p >> 8) & 255), (double)(p & 255) };
    return v;
}

/* The image at (u, v) (image pixels), the texels [x0, x1) x [y0, y1) with their edge repeated. */
static inline rgba sample(const lk_dl_image *img, double u, double v, int x0, int y0, int x1, int y1, int nearest)
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
static inline void device_point(const lk_dl_op *op, double x, double y, double *ox, double *oy)
{
    const double *t = op->transform;
    *ox = x * t[0] + y * t[4] + t[12];
    *oy = x * t[1] + y * t[5] + t[13];
}

static inline void local_point(const lk_dl_op *op, double ox, double oy, double *x, double *y)
{
    const double *t = op->transform;
    double det = t[0] * t[5] - t[1] * t[4];
    double dx = ox - t[12], dy = oy - t[13];
    *x = (dx * t[5] - dy * t[4]) / det;
    *y = (dy * t[0] - dx * t[1]) / det;
}


/* Premultiplied s (0..255) onto *d: saturating ADD, or OVER. */
static inline void reference_blend(rgba *d, rgba s, int add)
{
    if (add) {
        d->a = fmin(255, d->a + s.a); d->r = fmin(255, d->r + s.r);
        d->g = fmin(255, d->g + s.g); d->b = fmin(255, d->b + s.b);
    } else {
        double k = 1 - s.a / 255;
        d->a = s.a + d->a * k; d->r = s.r + d->r * k; d->g = s.g + d->g * k; d->b = s.b + d->b * k;
    }
}

/* Draws the op into buf (w x h, pixel (0,0) at output (ox, oy)) within the
   output box [bx0, bx1) x [by0, by1), times extra (a clip's coverage). */
static inline void reference_op(const lk_dl_op *op, rgba *buf, int w, int ox, int oy, int bx0, int by0, int bx1,
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
    /* a source rect reaching past the image repeats the image's edge */
    int iw = solid ? 0 : (int)img->width, ih = solid ? 0 : (int)img->height;
    tx0 = tx0 < 0 ? 0 : (tx0 > iw ? iw : tx0);
    tx1 = tx1 < 0 ? 0 : (tx1 > iw ? iw : tx1);
    ty0 = ty0 < 0 ? 0 : (ty0 > ih ? ih : ty0);
    ty1 = ty1 < 0 ? 0 : (ty1 > ih ? ih : ty1);
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
                reference_blend(&buf[(y - oy) * w + (x - ox)], c, add);
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
            reference_blend(&buf[(y - oy) * w + (x - ox)], s, add);
        }
}

/* The whole scene; only the ops the scenes use (FILL, IMAGE, PUSH_CLIP of
   a rect under a transform, a group). */
static inline void reference_scene(const scene *s, rgba *out)
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
static inline int frame_difference(const lkt_frame *a, const lkt_frame *c, int *at_x, int *at_y)
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

static inline double reference_difference(const lkt_frame *f, const rgba *ref, int *at_x, int *at_y)
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

typedef lkt_way way;

/* An instance of the scenes' size opened with variable=value in its
   environment (NULL: none). */
static inline int open_way(way *w, const char *variable, const char *value)
{
    return lkt_open_way(b, w, W, H, variable, value);
}

/* The same with two variables. */
static inline int open_way2(way *w, const char *variable, const char *value, const char *variable2,
                            const char *value2)
{
    setenv(variable2, value2, 1);
    int opened = open_way(w, variable, value);
    unsetenv(variable2);
    return opened;
}

static inline int render_scene(way *w, const scene *s, lkt_frame *f)
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

/* The check named "<scene>_<what>": scene s drawn by `way` is the default
   SIMD frame f_on, pixel for pixel (`words` names the way in a failure). */
static inline void check_same_frame(way *w, const scene *s, const lkt_frame *f_on, lkt_frame *f, const char *what,
                                    const char *words)
{
    char name[160];
    snprintf(name, sizeof name, "%s_%s", s->name, what);
    lkt_begin(name);
    if (render_scene(w, s, f)) {
        int x = 0, y = 0, worst = frame_difference(f_on, f, &x, &y);
        if (worst > 0)
            lkt_fail("pixel (%d,%d) is %08x by the default SIMD loop, %08x by %s", x, y, lkt_pixel(f_on, x, y),
                     lkt_pixel(f, x, y), words);
    }
    lkt_end();
}

/* The checks of one scene: the path against the independent reference
   (within reference_tolerance), and on software against pixman's path
   (`off`, within pixman_tolerance; path_words says how the path drew a
   pixel in the message), its portable loop against its SIMD one, its
   SSE2 loops alone against the default (AVX2 where the CPU has it),
   bands of 16 rows against the default's (all equal), and, for a scene
   damaged whole with no image left to pixman, the same scene with a
   smaller damage box: the same pixels inside it. */
static inline void check_band_scene(const scene *s, int software, way *on, way *off, way *scalar, way *sse2,
                                    way *bands16, way *threads, way *damaged, rgba *ref,
                                    lkt_frame *f_on, lkt_frame *f_off, lkt_frame *f_scalar,
                                    int reference_tolerance, const char *pixman_suffix, const char *path_words,
                                    int pixman_tolerance)
{
    char name[160];
    snprintf(name, sizeof name, "%s_against_reference", s->name);
    lkt_begin(name);
    if (render_scene(on, s, f_on)) {
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
        double worst = reference_difference(f_on, ref, &x, &y);
        for (int p = 0; p < W * H; p++) skipped += ambiguous[p];
        printf("# %s: worst difference %.1f at (%d,%d)%s", name, worst, x, y, skipped ? "" : "\n");
        if (skipped) printf(", %d pixels at nearest-filter texel boundaries not compared\n", skipped);
        if (skipped > W * H / 20) lkt_fail("%d pixels sample at texel boundaries: the scene checks too little", skipped);
        if (worst > reference_tolerance + 0.5)
            lkt_fail("pixel (%d,%d) is %08x, the reference argb(%.1f,%.1f,%.1f,%.1f): %.1f apart (tolerance %d)",
                     x, y, lkt_pixel(f_on, x, y), ref[y * W + x].a, ref[y * W + x].r, ref[y * W + x].g,
                     ref[y * W + x].b, worst, reference_tolerance);
    }
    lkt_end();
    if (!software) return;

    snprintf(name, sizeof name, "%s%s", s->name, pixman_suffix);
    lkt_begin(name);
    if (render_scene(off, s, f_off)) {
        int x = 0, y = 0, worst = frame_difference(f_on, f_off, &x, &y);
        printf("# %s: worst difference %d at (%d,%d)\n", name, worst, x, y);
        if (worst > pixman_tolerance)
            lkt_fail("pixel (%d,%d) is %08x %s, %08x by pixman (tolerance %d)", x, y, lkt_pixel(f_on, x, y),
                     path_words, lkt_pixel(f_off, x, y), pixman_tolerance);
    }
    lkt_end();

    check_same_frame(scalar, s, f_on, f_scalar, "portable_loop_equals_simd", "the portable one");
    /* SSE2 alone (LAYERKIT_SOFTWARE_SPRITES=sse2) against the default,
       which on a CPU with AVX2 draws rotated fills with their AVX2 build */
    check_same_frame(sse2, s, f_on, f_scalar, "sse2_equals_default_simd", "SSE2 alone");
    /* S6.4: the band height changes no pixel. The default's bands are
       sized by the output's width (64 rows of these scenes), and the
       scenes place sprites and fills across 16-row band edges
       (LAYERKIT_SOFTWARE_BAND_ROWS=16). */
    check_same_frame(bands16, s, f_on, f_scalar, "bands_of_16_rows_equal_default", "bands of 16 rows");
    /* S6.4: nor the threads drawing the bands (LAYERKIT_SOFTWARE_THREADS=3,
       which shares every run of two bands or more, in bands of 16 rows: each
       scene's bands go to three threads, whichever takes each first). */
    check_same_frame(threads, s, f_on, f_scalar, "three_threads_equal_default", "three threads");

    /* S6.4, and a partly redrawn frame equals a whole redraw: nor does the
       damage box change one. The scene drawn again with a box that cuts
       through its sprites and fills (odd offsets), by an instance of the
       default way's own (the counts stay the others'), has the whole
       frame's pixels inside it. */
    if (s->damage.x != 0 || s->damage.y != 0 || s->damage.width != W || s->damage.height != H || s->pixman_images)
        return;
    static scene cut;
    cut = *s;
    snprintf(name, sizeof name, "%s_damage_box_keeps_the_pixels", s->name);
    lkt_begin(name);
    int failed = 0;
    for (int k = 0; k <= s->damage_sweep && !failed; k++) {
        /* the box of odd offsets, then (the sweep) boxes of every row from
           column W / 4 + 1 + k to the right side */
        cut.damage.x = W / 4 + 1 + k;
        cut.damage.y = k ? 0 : H / 5 + 3;
        cut.damage.width = k ? W - cut.damage.x : W / 2 + 3;
        cut.damage.height = k ? H : H / 2 + 1;
        if (!render_scene(damaged, &cut, f_scalar)) break;
        for (int y = cut.damage.y; y < cut.damage.y + cut.damage.height && !failed; y++)
            for (int x = cut.damage.x; x < cut.damage.x + cut.damage.width; x++)
                if (lkt_pixel(f_on, x, y) != lkt_pixel(f_scalar, x, y)) {
                    lkt_fail("pixel (%d,%d) is %08x with the whole output damaged, %08x with damage (%d,%d %dx%d)",
                             x, y, lkt_pixel(f_on, x, y), lkt_pixel(f_scalar, x, y), cut.damage.x, cut.damage.y,
                             cut.damage.width, cut.damage.height);
                    failed = 1;
                    break;
                }
    }
    lkt_end();
}

/* What a band test checks beyond its scenes: how its path is turned off
   (pixman's way), its tolerances, and what the software plugin's closing
   log must count with the path on (at least `minimum`, the same with the
   portable loop) and off (none). */
typedef struct band_test {
    const char *off_variable;         /* set to "0" */
    int reference_tolerance;          /* against the reference, in 1/255 */
    int sprites_reference_tolerance;  /* the same for scenes named "...sprites..." */
    const char *pixman_suffix;        /* that check's name: the scene's + this */
    const char *path_words;           /* "by the sprite path", in its messages */
    int pixman_tolerance;
    const char *count_check;          /* the count check's name */
    const char *log_label;            /* " sprites,": the count's label in the log */
    const char *path, *things;        /* "sprite path", "sprites" */
    long minimum;
    const char *count_check_threads;  /* the check that the band workers drew (NULL: none) */
} band_test;

/* S8.1: a value of `variable` out of its range is reported by name and
   value, and ignored (the instance opens); `good` is not reported. */
static inline void check_variable_reported(const char *check, const char *variable, const char *const *bad,
                                           size_t bad_count, const char *good)
{
    lkt_begin(check);
    for (size_t i = 0; i < bad_count; i++) {
        way w;
        if (!open_way(&w, variable, bad[i])) {
            lkt_fail("the instance with %s=%s did not open", variable, bad[i]);
            break;
        }
        if (!strstr(w.record.last_log, variable) || !strstr(w.record.last_log, bad[i]))
            lkt_fail("%s=%s: no warning naming it (last log: \"%s\")", variable, bad[i], w.record.last_log);
        b->close(w.inst);
    }
    way ok;
    if (open_way(&ok, variable, good)) {
        if (strstr(ok.record.last_log, variable))
            lkt_fail("%s=%s was reported: \"%s\"", variable, good, ok.record.last_log);
        b->close(ok.inst);
    } else {
        lkt_fail("the instance with %s=%s did not open", variable, good);
    }
    lkt_end();
}

/* LAYERKIT_SOFTWARE_BAND_ROWS outside 1 to 4096, or not a number. */
static inline void check_band_rows_variable(void)
{
    static const char *const bad[] = { "abc", "0", "-3", "5000", "12rows" };
    check_variable_reported("band_rows_variable_out_of_range_is_reported", "LAYERKIT_SOFTWARE_BAND_ROWS", bad,
                            sizeof bad / sizeof bad[0], "7");
}

/* LAYERKIT_SOFTWARE_THREADS outside 1 to 16, or not a number. */
static inline void check_threads_variable(void)
{
    static const char *const bad[] = { "none", "0", "-2", "17", "2x" };
    check_variable_reported("threads_variable_out_of_range_is_reported", "LAYERKIT_SOFTWARE_THREADS", bad,
                            sizeof bad / sizeof bad[0], "16");
}

/* LAYERKIT_SOFTWARE_SPRITES and LAYERKIT_SOFTWARE_FILL_RUNS with a value
   they do not take (a typo was taken silently for the default). */
static inline void check_path_variables(void)
{
    static const char *const bad[] = { "of", "yes", "avx2", "2" };
    check_variable_reported("sprites_variable_unknown_value_is_reported", "LAYERKIT_SOFTWARE_SPRITES", bad,
                            sizeof bad / sizeof bad[0], "scalar");
    check_variable_reported("sprites_variable_on_is_taken", "LAYERKIT_SOFTWARE_SPRITES", bad, 0, "on");
    check_variable_reported("fill_runs_variable_unknown_value_is_reported", "LAYERKIT_SOFTWARE_FILL_RUNS", bad,
                            sizeof bad / sizeof bad[0], "off");
    check_variable_reported("fill_runs_variable_1_is_taken", "LAYERKIT_SOFTWARE_FILL_RUNS", bad, 0, "1");
}

/* A band test's whole run: its images, its scenes (`build`), the checks
   of each (check_band_scene) and, on software, the counts. */
static inline int run_band_test(const band_test *t, void (*build)(scene *, int *))
{
    b = lkt_load();
    if (!b) return 1;
    img_particle = particle(501);
    img_tile = tile(502);
    static scene scenes[12];
    int count = 0;
    build(scenes, &count);
    int software = strcmp(lkt_backend_name(), "software") == 0;

    way on, off, scalar, sse2, bands16, threads, damaged;
    unsetenv("LAYERKIT_SOFTWARE_SPRITES");
    unsetenv("LAYERKIT_SOFTWARE_FILL_RUNS");
    unsetenv("LAYERKIT_SOFTWARE_BAND_ROWS");
    unsetenv("LAYERKIT_SOFTWARE_THREADS");
    if (!open_way(&on, NULL, NULL)) return 1;
    if (software && (!open_way(&off, t->off_variable, "0") || !open_way(&scalar, "LAYERKIT_SOFTWARE_SPRITES", "scalar") ||
                     !open_way(&sse2, "LAYERKIT_SOFTWARE_SPRITES", "sse2") ||
                     !open_way(&bands16, "LAYERKIT_SOFTWARE_BAND_ROWS", "16") ||
                     !open_way2(&threads, "LAYERKIT_SOFTWARE_THREADS", "3", "LAYERKIT_SOFTWARE_BAND_ROWS", "16") ||
                     !open_way(&damaged, NULL, NULL)))
        return 1;
    if (software) {
        check_band_rows_variable();
        check_threads_variable();
        check_path_variables();
    }
    lkt_frame f_on = lkt_frame_new(W, H), f_off = lkt_frame_new(W, H), f_scalar = lkt_frame_new(W, H);
    rgba *ref = (rgba *)malloc(sizeof(rgba) * W * H);

    for (int i = 0; i < count; i++)
        check_band_scene(&scenes[i], software, &on, &off, &scalar, &sse2, &bands16, &threads, &damaged, ref, &f_on,
                         &f_off,
                         &f_scalar,
                         strstr(scenes[i].name, "sprites") ? t->sprites_reference_tolerance : t->reference_tolerance,
                         t->pixman_suffix, t->path_words, t->pixman_tolerance);

    b->close(on.inst);
    if (software) {
        b->close(off.inst);
        b->close(scalar.inst);
        b->close(sse2.inst);
        b->close(bands16.inst);
        b->close(threads.inst);
        b->close(damaged.inst);
        lkt_begin(t->count_check);
        long n_on = logged_count(on.record.last_log, t->log_label), n_off = logged_count(off.record.last_log, t->log_label);
        long n_scalar = logged_count(scalar.record.last_log, t->log_label);
        printf("# %s drawn by the %s: %ld (on), %ld (scalar), %ld (off)\n", t->things, t->path, n_on, n_scalar, n_off);
        if (n_on < t->minimum || n_scalar != n_on)
            lkt_fail("the %s drew %ld %s (portable loop: %ld); expected at least %ld, the same both ways: %s", t->path,
                     n_on, t->things, n_scalar, t->minimum, on.record.last_log);
        if (n_off != 0) lkt_fail("with %s=0 the %s drew %ld %s", t->off_variable, t->path, n_off, t->things);
        lkt_end();

        /* The threads way's bands were drawn, and its runs' ops past the
           first prepared, by its workers too (else its check above
           compares the renderer with itself); the default's runs, far
           under a third of a frame and of 1,024 ops, were not shared.
           A test of a few large sprites names no such check: its runs
           are too short for the workers to prepare any op. */
        if (t->count_check_threads) {
            lkt_begin(t->count_check_threads);
            long by_workers = logged_count(threads.record.last_log, " bands drawn by band workers");
            long prepared = logged_count(threads.record.last_log, " prepared by band workers)");
            long shared_on = logged_count(on.record.last_log, " runs shared by");
            long prepared_on = logged_count(on.record.last_log, " of them shared");
            printf("# bands drawn by band workers: %ld, ops prepared by them: %ld (three threads); runs shared by "
                   "default: %ld, ops prepared shared: %ld\n", by_workers, prepared, shared_on, prepared_on);
            if (by_workers <= 0) lkt_fail("the band workers drew no band: \"%s\"", threads.record.last_log);
            if (prepared <= 0) lkt_fail("the band workers prepared no op: \"%s\"", threads.record.last_log);
            if (shared_on != 0 || prepared_on != 0)
                lkt_fail("the default shared %ld runs and %ld ops of these small scenes: \"%s\"", shared_on, prepared_on,
                         on.record.last_log);
            lkt_end();
        }
    }
    free(ref);
    free(f_on.pixels);
    free(f_off.pixels);
    free(f_scalar.pixels);
    free(img_particle.pixels);
    free(img_tile.pixels);
    return lkt_exit_code();
}

#endif
