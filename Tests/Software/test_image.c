/*
 * Software backend: IMAGE ops. Source rects mapped with scale (nearest and
 * bilinear, edges clamped to the source rect), opacity over translucent
 * pixels, integer and fractional placement, rotation, perspective, and the
 * image cache (generation changes, image_released, many ids).
 * Tolerances are per channel, out of 255.
 */
#include "lktest.h"

#define W 300
#define H 300

static const lk_backend *b;
static lk_backend_instance *inst;
static lkt_frame frame;

static int draw(const lk_dl_op *ops, uint32_t count, lk_dl_color clear)
{
    lk_display_list list = lkt_list(ops, count, W, H, clear);
    return lkt_render(b, inst, &list, &frame);
}

static const lk_dl_color clear_none = { 0, 0, 0, 0 };

static lk_dl_op image_op(const lkt_image *img, double x, double y, double w, double h)
{
    lk_dl_op op = lkt_op(LK_DL_OP_IMAGE, x, y, w, h);
    op.image = &img->image;
    op.source = lkt_rect(0, 0, img->image.width, img->image.height);
    return op;
}

static lkt_rgba rgba_of_pixel(uint32_t p)
{
    lkt_rgba v;
    v.a = p >> 24; v.r = (p >> 16) & 255; v.g = (p >> 8) & 255; v.b = p & 255;
    return v;
}

/* A 4x4 image of distinct opaque colours. */
static lkt_image checker(uint64_t id)
{
    lkt_image img = lkt_image_new(id, 4, 4);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            img.pixels[j * 4 + i] = lkt_argb(255, 30 + 60 * i, 30 + 60 * j, 200 - 40 * i);
    return img;
}

static lkt_image uniform(uint64_t id, uint32_t w, uint32_t h, uint32_t argb)
{
    lkt_image img = lkt_image_new(id, w, h);
    for (uint32_t k = 0; k < w * h; k++) img.pixels[k] = argb;
    return img;
}

/* Bilinear sample at image coordinate (u, v), pixel centres at +0.5, with
   indices clamped to [x0, x1] x [y0, y1] (the source rect's pixels). */
static lkt_rgba bilinear(const lkt_image *img, double u, double v, int x0, int y0, int x1, int y1)
{
    double fu = u - 0.5, fv = v - 0.5;
    int i0 = (int)floor(fu), j0 = (int)floor(fv);
    double tu = fu - i0, tv = fv - j0;
    lkt_rgba out = { 0, 0, 0, 0 };
    for (int dj = 0; dj < 2; dj++)
        for (int di = 0; di < 2; di++) {
            int i = i0 + di, j = j0 + dj;
            i = i < x0 ? x0 : (i > x1 ? x1 : i);
            j = j < y0 ? y0 : (j > y1 ? y1 : j);
            double wgt = (di ? tu : 1 - tu) * (dj ? tv : 1 - tv);
            lkt_rgba p = rgba_of_pixel(img->pixels[j * (int)img->image.width + i]);
            out.a += p.a * wgt; out.r += p.r * wgt; out.g += p.g * wgt; out.b += p.b * wgt;
        }
    return out;
}

static void test_scaled_source_rect(void)
{
    lkt_image img = checker(1);
    /* Source pixels [1, 3) x [1, 3) stretched 10x over (10, 10, 20, 20). */
    lk_dl_op op = image_op(&img, 10, 10, 20, 20);
    op.source = lkt_rect(1, 1, 2, 2);

    lkt_begin("image_nearest_scaled_source_rect");
    op.flags = LK_DL_FLAG_ANTIALIAS | LK_DL_FLAG_FILTER_NEAREST;
    if (draw(&op, 1, clear_none)) {
        for (int y = 10; y < 30; y++)
            for (int x = 10; x < 30; x++) {
                int i = (int)floor(1 + (x + 0.5 - 10) / 10), j = (int)floor(1 + (y + 0.5 - 10) / 10);
                lkt_expect(&frame, x, y, rgba_of_pixel(img.pixels[j * 4 + i]), 0, "nearest");
            }
        lkt_expect(&frame, 9, 15, lkt_rgba_of(clear_none), 0, "left of the rect");
        lkt_expect(&frame, 30, 15, lkt_rgba_of(clear_none), 0, "right of the rect");
    }
    lkt_end();

    lkt_begin("image_bilinear_scaled_source_rect");
    op.flags = LK_DL_FLAG_ANTIALIAS;
    if (draw(&op, 1, clear_none)) {
        /* Bilinear inside the source rect; at its edges the edge pixel
           repeats (no bleeding from the neighbouring pixels 0 and 3). */
        for (int y = 10; y < 30; y++)
            for (int x = 10; x < 30; x++) {
                double u = 1 + (x + 0.5 - 10) / 10, v = 1 + (y + 0.5 - 10) / 10;
                lkt_expect(&frame, x, y, bilinear(&img, u, v, 1, 1, 2, 2), 2, "bilinear");
            }
    }
    lkt_end();

    lkt_begin("image_bilinear_downscaled");
    /* The whole 4x4 image into 2x2: each output pixel samples at the corner
       of four image pixels, i.e. their average. */
    op = image_op(&img, 50, 50, 2, 2);
    if (draw(&op, 1, clear_none))
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++)
                lkt_expect(&frame, 50 + x, 50 + y, bilinear(&img, 2 * x + 1, 2 * y + 1, 0, 0, 3, 3), 2,
                           "2:1 average");
    lkt_end();
    free(img.pixels);
}

static void test_opacity_and_placement(void)
{
    /* Translucent premultiplied pixels: alpha varies across the image. */
    lkt_image img = lkt_image_new(2, 8, 8);
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 8; i++) {
            unsigned a = 32 * i + 31;
            img.pixels[j * 8 + i] = lkt_argb(a, a * (j + 1) / 8, a / 2, a * (8 - j) / 8);
        }
    lk_dl_color grey = lkt_color(0.25f, 0.25f, 0.25f, 1);

    lkt_begin("image_integer_translation_is_a_copy");
    lk_dl_op op = image_op(&img, 100, 50, 8, 8);
    if (draw(&op, 1, clear_none))
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 8; i++)
                lkt_expect(&frame, 100 + i, 50 + j, rgba_of_pixel(img.pixels[j * 8 + i]), 0, "copied pixel");
    lkt_end();

    lkt_begin("image_opacity_over_background");
    op.opacity = 0.5f;
    if (draw(&op, 1, grey))
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 8; i++) {
                lkt_rgba want = lkt_over(lkt_scale(rgba_of_pixel(img.pixels[j * 8 + i]), 0.5), lkt_rgba_of(grey));
                lkt_expect(&frame, 100 + i, 50 + j, want, 1, "half opacity over grey");
            }
    lkt_end();

    lkt_begin("image_translation_via_transform");
    /* The same placement through the transform instead of the rect. */
    op = image_op(&img, 0, 0, 8, 8);
    op.transform[12] = 20;
    op.transform[13] = 30;
    if (draw(&op, 1, clear_none))
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 8; i++)
                lkt_expect(&frame, 20 + i, 30 + j, rgba_of_pixel(img.pixels[j * 8 + i]), 0, "copied pixel");
    lkt_end();
    free(img.pixels);

    lkt_begin("image_fractional_position_antialiased_edge");
    lkt_image solid = uniform(3, 16, 16, lkt_argb(255, 255, 0, 0));
    op = image_op(&solid, 10.5, 20, 16, 16);
    if (draw(&op, 1, clear_none)) {
        lkt_rgba red = { 255, 255, 0, 0 };
        lkt_expect(&frame, 10, 25, lkt_scale(red, 0.5), 1, "half-covered left column");
        lkt_expect(&frame, 11, 25, red, 0, "inside");
        lkt_expect(&frame, 26, 25, lkt_scale(red, 0.5), 1, "half-covered right column");
        lkt_expect(&frame, 27, 25, lkt_scale(red, 0.0), 0, "outside");
    }
    lkt_end();
    free(solid.pixels);
}

static void test_transformed(void)
{
    lkt_begin("image_rotated");
    lkt_image solid = uniform(4, 40, 40, lkt_argb(255, 0, 200, 100));
    lkt_mat m = lkt_mat_mul(lkt_mat_mul(lkt_translate(-20, -20, 0), lkt_rotate_z(LKT_PI / 6)),
                            lkt_translate(150, 150, 0));
    lk_dl_op op = image_op(&solid, 0, 0, 40, 40);
    lkt_set_transform(&op, m);
    lkt_rgba c = { 255, 0, 200, 100 };
    if (draw(&op, 1, clear_none)) {
        double xs[4], ys[4];
        lkt_project(m, 0, 0, &xs[0], &ys[0]);
        lkt_project(m, 40, 0, &xs[1], &ys[1]);
        lkt_project(m, 40, 40, &xs[2], &ys[2]);
        lkt_project(m, 0, 40, &xs[3], &ys[3]);
        lkt_expect(&frame, 150, 150, c, 0, "centre");
        int partial = 0;
        for (int y = 120; y < 180; y++)
            for (int x = 120; x < 180; x++) {
                double cov = lkt_polygon_coverage(xs, ys, 4, x, y);
                lkt_expect(&frame, x, y, lkt_scale(c, cov), 0.04 * 255, "coverage of the rotated image");
                if (cov > 0.1 && cov < 0.9) partial++;
            }
        if (partial < 40) lkt_fail("only %d partial edge pixels", partial);
    }
    lkt_end();
    free(solid.pixels);

    lkt_begin("image_perspective");
    /* Left half red, right half blue, 100x100, rotated 40 degrees about y
       under m34 = -1/500: the point at local (x, y) shows the colour of
       image pixel (x, y). */
    lkt_image halves = lkt_image_new(5, 100, 100);
    for (int j = 0; j < 100; j++)
        for (int i = 0; i < 100; i++)
            halves.pixels[j * 100 + i] = i < 50 ? lkt_argb(255, 255, 0, 0) : lkt_argb(255, 0, 0, 255);
    m = lkt_mat_mul(lkt_translate(-50, -50, 0), lkt_rotate_y(40 * LKT_PI / 180));
    m = lkt_mat_mul(m, lkt_perspective(500));
    m = lkt_mat_mul(m, lkt_translate(150, 150, 0));
    op = image_op(&halves, 0, 0, 100, 100);
    lkt_set_transform(&op, m);
    if (draw(&op, 1, clear_none)) {
        lkt_rgba red = { 255, 255, 0, 0 }, blue = { 255, 0, 0, 255 };
        const double probes[6][2] = { { 10, 10 }, { 30, 50 }, { 45, 90 }, { 55, 10 }, { 70, 50 }, { 90, 90 } };
        for (int k = 0; k < 6; k++) {
            double x, y;
            lkt_project(m, probes[k][0], probes[k][1], &x, &y);
            lkt_expect(&frame, (int)floor(x), (int)floor(y), probes[k][0] < 50 ? red : blue, 2,
                       probes[k][0] < 50 ? "left half" : "right half");
        }
        double x0, y0, x1, y1;
        lkt_project(m, 0, 50, &x0, &y0);
        lkt_project(m, 100, 50, &x1, &y1);
        lkt_expect(&frame, (int)floor(x0) - 3, (int)floor(y0), lkt_rgba_of(clear_none), 0, "left of the image");
        lkt_expect(&frame, (int)floor(x1) + 3, (int)floor(y1), lkt_rgba_of(clear_none), 0, "right of the image");
        /* Where the halves meet, local x = 50. */
        double xm, ym;
        lkt_project(m, 50, 50, &xm, &ym);
        lkt_expect(&frame, (int)floor(xm) - 2, (int)floor(ym), red, 2, "just left of the seam");
        lkt_expect(&frame, (int)floor(xm) + 2, (int)floor(ym), blue, 2, "just right of the seam");
    }
    lkt_end();
    free(halves.pixels);
}

/* The local point of layer space that m maps onto output point (ox, oy):
   solves [x y 0 1] * m = w [ox oy . 1] for x, y. */
static void unproject(lkt_mat m, double ox, double oy, double *x, double *y)
{
    const double *t = m.m;
    double a = t[0] - ox * t[3], bb = t[4] - ox * t[7], c = ox * t[15] - t[12];
    double d = t[1] - oy * t[3], e = t[5] - oy * t[7], f = oy * t[15] - t[13];
    double det = a * e - bb * d;
    *x = (c * e - bb * f) / det;
    *y = (a * f - c * d) / det;
}

static void test_perspective_precision(void)
{
    lkt_begin("image_perspective_large_image_precise");
    /* A 1920x1080 image whose pixels encode their own coordinates, drawn
       full size into a 960x540 output rotated 40 degrees about y under
       m34 = -1/1000, nearest filtering. The pixel under each output pixel
       centre must be the one the exact mapping names, to within rounding
       (0.5 px plus 0.1 px of slack): pixman's fixed-point transform stays
       precise across a large perspective image. */
    enum { OW = 960, OH = 540 };
    lk_backend_instance *big = lkt_open(b, NULL, OW, OH);
    lkt_frame out = lkt_frame_new(OW, OH);
    lkt_image img = lkt_image_new(7, 1920, 1080);
    for (int j = 0; j < 1080; j++)
        for (int i = 0; i < 1920; i++)
            img.pixels[j * 1920 + i] = lkt_argb(255, i & 255, (i >> 8) | ((j >> 8) << 4), j & 255);
    lkt_mat m = lkt_mat_mul(lkt_translate(-960, -540, 0), lkt_rotate_y(40 * LKT_PI / 180));
    m = lkt_mat_mul(m, lkt_perspective(1000));
    m = lkt_mat_mul(m, lkt_scale_mat(0.5, 0.5));
    m = lkt_mat_mul(m, lkt_translate(OW / 2, OH / 2, 0));
    lk_dl_op op = image_op(&img, 0, 0, 1920, 1080);
    op.flags |= LK_DL_FLAG_FILTER_NEAREST;
    lkt_set_transform(&op, m);
    lk_display_list list = lkt_list(&op, 1, OW, OH, clear_none);
    if (big && lkt_render(b, big, &list, &out)) {
        double worst = 0;
        int checked = 0;
        for (int y = 0; y < OH; y += 3)
            for (int x = 0; x < OW; x += 3) {
                double u, v;
                unproject(m, x + 0.5, y + 0.5, &u, &v);
                if (u < 2 || u > 1918 || v < 2 || v > 1078) continue;
                uint32_t p = lkt_pixel(&out, x, y);
                double gu = (double)(((p >> 16) & 255) | (((p >> 8) & 15) << 8)) + 0.5;
                double gv = (double)((p & 255) | (((p >> 12) & 15) << 8)) + 0.5;
                worst = fmax(worst, fmax(fabs(gu - u), fabs(gv - v)));
                checked++;
            }
        if (worst > 0.6) lkt_fail("sampled image pixels are up to %.2f px from the exact mapping", worst);
        if (checked < 10000) lkt_fail("only %d pixels checked", checked);
    }
    if (big) b->close(big);
    free(out.pixels);
    free(img.pixels);
    lkt_end();
}

static void test_cache(void)
{
    lkt_begin("image_generation_change_and_release");
    lkt_image red = uniform(77, 4, 4, lkt_argb(255, 255, 0, 0));
    lkt_image green = uniform(77, 4, 4, lkt_argb(255, 0, 255, 0));
    lkt_image blue = uniform(77, 4, 4, lkt_argb(255, 0, 0, 255));
    lk_dl_op op = image_op(&red, 0, 0, 4, 4);
    if (draw(&op, 1, clear_none)) lkt_expect(&frame, 1, 1, rgba_of_pixel(red.pixels[0]), 0, "generation 1");
    green.image.generation = 2;
    op.image = &green.image;
    if (draw(&op, 1, clear_none)) lkt_expect(&frame, 1, 1, rgba_of_pixel(green.pixels[0]), 0, "generation 2");
    b->image_released(inst, 77);
    blue.image.generation = 3;
    op.image = &blue.image;
    if (draw(&op, 1, clear_none)) lkt_expect(&frame, 1, 1, rgba_of_pixel(blue.pixels[0]), 0, "after release");
    /* Same buffer, new content and generation. */
    for (int k = 0; k < 16; k++) blue.pixels[k] = lkt_argb(255, 9, 99, 199);
    blue.image.generation = 4;
    if (draw(&op, 1, clear_none)) lkt_expect(&frame, 1, 1, rgba_of_pixel(blue.pixels[0]), 0, "rewritten in place");
    free(red.pixels); free(green.pixels); free(blue.pixels);
    lkt_end();

    lkt_begin("image_cache_many_ids");
    /* 300 images, one pixel each column; release every other, redraw. */
    enum { N = 300 };
    lkt_image *imgs = (lkt_image *)calloc(N, sizeof *imgs);
    lk_dl_op *ops = (lk_dl_op *)calloc(N, sizeof *ops);
    for (int k = 0; k < N; k++) {
        imgs[k] = uniform(1000 + (uint64_t)k * 7919, 1, 1, lkt_argb(255, k % 256, k / 256, 7));
        ops[k] = image_op(&imgs[k], k % W, k / W, 1, 1);
    }
    for (int round = 0; round < 3; round++) {
        if (!draw(ops, N, clear_none)) break;
        for (int k = 0; k < N; k++)
            lkt_expect(&frame, k % W, k / W, rgba_of_pixel(imgs[k].pixels[0]), 0, "cached image");
        for (int k = round % 2; k < N; k += 2) {
            b->image_released(inst, imgs[k].image.id);
            imgs[k].pixels[0] = lkt_argb(255, 255 - k % 256, 3, round * 50);
            imgs[k].image.generation++;
        }
    }
    for (int k = 0; k < N; k++) free(imgs[k].pixels);
    free(imgs);
    free(ops);
    lkt_end();

    lkt_begin("image_source_outside_the_image");
    lkt_image img = checker(90);
    lk_dl_op edge[3];
    edge[0] = image_op(&img, 0, 0, 20, 20);
    edge[0].source = lkt_rect(-2, -2, 4, 4);      /* hangs off the top left */
    edge[1] = image_op(&img, 30, 0, 20, 20);
    edge[1].source = lkt_rect(10, 10, 4, 4);      /* entirely outside: skipped */
    edge[2] = image_op(&img, 60, 0, 20, 20);
    edge[2].source = lkt_rect(0, 0, 0, 4);        /* empty: skipped */
    if (draw(edge, 3, clear_none)) {
        /* Source x in [-2, 2) over 20 px: output x samples u = -2 + (x + 0.5) / 5,
           with the part off the image repeating its edge. */
        lkt_expect(&frame, 15, 15, bilinear(&img, -2 + 15.5 / 5, -2 + 15.5 / 5, 0, 0, 1, 1), 2,
                   "inside the image part");
        lkt_expect(&frame, 3, 3, rgba_of_pixel(img.pixels[0]), 2, "off the image: the edge repeats");
        lkt_expect(&frame, 40, 10, lkt_rgba_of(clear_none), 0, "source outside the image");
        lkt_expect(&frame, 70, 10, lkt_rgba_of(clear_none), 0, "empty source");
    }
    free(img.pixels);
    lkt_end();

    lkt_begin("image_zero_size_and_padded_stride");
    {
        lk_dl_image empty;
        memset(&empty, 0, sizeof empty);
        empty.id = 91;
        empty.format = LK_DL_FORMAT_ARGB32_PREMULTIPLIED;
        lkt_image padded = lkt_image_new(92, 3, 2);
        free(padded.pixels);
        padded.pixels = (uint32_t *)calloc(2 * 8, 4);    /* stride of 8 pixels */
        padded.image.pixels = padded.pixels;
        padded.image.stride = 32;
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 8; i++) padded.pixels[j * 8 + i] = i < 3 ? lkt_argb(255, 10 * i, 20 * j, 0) : 0xFFFFFFFFu;
        lk_dl_op two[2];
        two[0] = lkt_op(LK_DL_OP_IMAGE, 0, 0, 10, 10);
        two[0].image = &empty;
        two[1] = image_op(&padded, 5, 5, 3, 2);
        if (draw(two, 2, clear_none))
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < 3; i++)
                    lkt_expect(&frame, 5 + i, 5 + j, rgba_of_pixel(padded.pixels[j * 8 + i]), 0, "padded rows");
        free(padded.pixels);
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

    test_scaled_source_rect();
    test_opacity_and_placement();
    test_transformed();
    test_perspective_precision();
    test_cache();

    b->close(inst);
    free(frame.pixels);
    return lkt_exit_code();
}
