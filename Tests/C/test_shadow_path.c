/*
 * S6.1 shadowPath of any shape casts its shadow: a self-intersecting
 * five-pointed star (filled by the non-zero rule, its centre included) on a
 * plain layer, on a layer turned 30 degrees and scaled 1.5 (the shadow turns
 * with the layer, its offset stays in the superlayer's space), clipped by
 * masksToBounds; an empty shadowPath casts nothing. References are drawn
 * here with cairo: the star's coverage blurred by a Gaussian of sigma =
 * shadowRadius sampled at pixel centres (not LayerKit's pixel-integrated
 * kernel), offset, tinted, then the layer. Tolerance: channels within 3;
 * pixels where the reference varies within 16, at most 200 of them (the
 * turned layer's anti-aliased box edges: 96, worst 12); no other pixel off
 * (the unturned scenes match within 3 everywhere). Then the cache (an unchanged or
 * moved layer re-rasterizes nothing, a new path once) and shadowPath
 * half-way through an animation.
 */
#include "support/lktest.h"
#include "support/lkt_cairo.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 200
#define H 170

static lk_display *display;
static lk_layer *root;
static const lkt_tolerance tolerance = {3, 16, 200, 0};

/* The scene's layer: frame (60, 50, 60, 50), orange; the star is centred
   at (30, 25) in its bounds with radius 45, so its points stick out. */
#define LX 60.0
#define LY 50.0
#define LW 60.0
#define LH 50.0
#define SIGMA 3.0
#define DX 8.0
#define DY 10.0

static void render(void)
{
    lk_transaction_flush();
    lk_display_render_frame_at(display, lk_media_time() + 60);
}

static void star_point(int i, double cx, double cy, double r, double *x, double *y)
{
    double a = -LKT_PI / 2 + i * 4 * LKT_PI / 5;
    *x = cx + r * cos(a);
    *y = cy + r * sin(a);
}

static lk_path *star_path(double cx, double cy, double r)
{
    lk_path *p = lk_path_create();
    int i;
    for (i = 0; i < 5; i++) {
        double x, y;
        star_point(i, cx, cy, r, &x, &y);
        if (i == 0) lk_path_move_to(p, x, y);
        else lk_path_line_to(p, x, y);
    }
    lk_path_close(p);
    return p;
}

static void cairo_star(cairo_t *cr, double cx, double cy, double r)
{
    int i;
    for (i = 0; i < 5; i++) {
        double x, y;
        star_point(i, cx, cy, r, &x, &y);
        if (i == 0) cairo_move_to(cr, x, y);
        else cairo_line_to(cr, x, y);
    }
    cairo_close_path(cr);
}

/* A Gaussian pass (sampled at pixel centres, cut at 4 sigma, weights summing
   to 1) along lines of in, the output moved by shift pixels. */
static void blur_pass(const double *in, double *out, int lines, int len, int line_step, int step, double sigma,
                      double shift)
{
    int reach = (int)ceil(4 * sigma + fabs(shift)) + 1, line, x, k;
    for (line = 0; line < lines; line++) {
        const double *src = in + (size_t)line * (size_t)line_step;
        double *dst = out + (size_t)line * (size_t)line_step;
        for (x = 0; x < len; x++) {
            double sum = 0, weights = 0;
            int centre = (int)floor(x - shift + 0.5);
            for (k = centre - reach; k <= centre + reach; k++) {
                double t = x - shift - k, w = exp(-t * t / (2 * sigma * sigma));
                weights += w;
                if (k >= 0 && k < len) sum += w * src[(size_t)k * (size_t)step];
            }
            dst[(size_t)x * (size_t)step] = sum / weights;
        }
    }
}

typedef struct scene {
    double angle, scale;   /* the layer's transform about its centre */
    int masks;             /* masksToBounds */
    int background;        /* the layer is orange (else clear) */
    double cx, cy, r;      /* the star */
} scene;

/* The layer's map in cairo: bounds space to device pixels. */
static void layer_matrix(cairo_t *cr, const scene *s)
{
    cairo_translate(cr, LX + LW / 2, LY + LH / 2);
    cairo_rotate(cr, s->angle);
    cairo_scale(cr, s->scale, s->scale);
    cairo_translate(cr, -LW / 2, -LH / 2);
}

/* White ground, the star's shadow (blue 0.5 at opacity 0.8), the layer. */
static cairo_t *reference(const scene *s)
{
    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_surface_t *caster = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_surface_t *shadow = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *c2 = cairo_create(caster);
    double *a = (double *)calloc((size_t)W * H, sizeof *a), *b = (double *)calloc((size_t)W * H, sizeof *b);
    unsigned char *data;
    int stride, x, y;

    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);

    layer_matrix(c2, s);
    cairo_star(c2, s->cx, s->cy, s->r);
    cairo_set_fill_rule(c2, CAIRO_FILL_RULE_WINDING);
    cairo_set_source_rgba(c2, 1, 1, 1, 1);
    cairo_fill(c2);
    cairo_destroy(c2);
    cairo_surface_flush(caster);
    data = cairo_image_surface_get_data(caster);
    stride = cairo_image_surface_get_stride(caster);
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            a[(size_t)y * W + x] = (((uint32_t *)(void *)(data + (size_t)y * stride))[x] >> 24) / 255.0;
    blur_pass(a, b, H, W, W, 1, SIGMA, DX);
    blur_pass(b, a, W, H, 1, W, SIGMA, DY);
    data = cairo_image_surface_get_data(shadow);
    stride = cairo_image_surface_get_stride(shadow);
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            double v = a[(size_t)y * W + x] * 0.8;
            uint32_t A = (uint32_t)lround(v * 255), B = (uint32_t)lround(v * 0.5 * 255);
            ((uint32_t *)(void *)(data + (size_t)y * stride))[x] = A << 24 | B;
        }
    cairo_surface_mark_dirty(shadow);
    free(a);
    free(b);

    cairo_save(cr);
    if (s->masks) {
        layer_matrix(cr, s);
        cairo_rectangle(cr, 0, 0, LW, LH);
        cairo_identity_matrix(cr);
        cairo_clip(cr);
    }
    cairo_set_source_surface(cr, shadow, 0, 0);
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_surface_destroy(caster);
    cairo_surface_destroy(shadow);

    if (s->background) {
        cairo_save(cr);
        layer_matrix(cr, s);
        cairo_rectangle(cr, 0, 0, LW, LH);
        cairo_restore(cr);
        cairo_set_source_rgb(cr, 0.9, 0.5, 0.1);
        cairo_fill(cr);
    }
    return cr;
}

static lk_layer *shadowed_layer(const scene *s)
{
    lk_layer *l = lkt_layer_new(root, LX, LY, LW, LH,
                                s->background ? lk_color_make(0.9, 0.5, 0.1, 1) : lk_color_make(0, 0, 0, 0));
    lk_path *p = star_path(s->cx, s->cy, s->r);
    lk_retain(l);
    lk_layer_set_transform(l, lkt_t_mul(lkt_t_scale(s->scale, s->scale, 1), lkt_t_rotation_z(s->angle)));
    lk_layer_set_masks_to_bounds(l, s->masks);
    lk_layer_set_shadow_opacity(l, 0.8);
    lk_layer_set_shadow_radius(l, SIGMA);
    lk_layer_set_shadow_offset(l, lk_size_make(DX, DY));
    lk_layer_set_shadow_color(l, lk_color_make(0, 0, 0.5, 1));
    lk_layer_set_shadow_path(l, p);
    lk_release(p);
    return l;
}

static void remove_layer(lk_layer *l)
{
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    render();
}

/* The frame's pixel at (x, y): its blue minus its red, large where the
   blue shadow darkens the white ground. */
static int shade(const uint8_t *px, int x, int y)
{
    const uint8_t *c = px + ((size_t)y * W + (size_t)x) * 4;
    return (int)c[2] - (int)c[0];
}

static void test_star(const char *name, const scene *s)
{
    lk_layer *l = shadowed_layer(s);
    render();
    lkt_check_against_cairo(name, display, reference(s), tolerance);
    remove_layer(l);
}

static void test_star_plain(void)
{
    scene s = {0, 1, 0, 1, 30, 25, 45};
    lk_layer *l = shadowed_layer(&s);
    uint8_t *px;
    double x, y;
    render();
    lkt_check_against_cairo("S6.1 a star shadowPath (self-intersecting, non-zero) casts a blurred, offset shadow",
                            display, reference(&s), tolerance);
    px = lkt_render_and_read(display, "read the star's shadow");
    if (px) {
        /* the star's top point lies above the layer: its shadow is the
           star's, not the layer's box (nor nothing, as before) */
        star_point(0, s.cx, s.cy, s.r, &x, &y);
        LKT_CHECK(shade(px, (int)(LX + x + DX), (int)(LY + y + DY + 8)) > 60,
                  "S6.1 the shadow of the star's point outside the layer is drawn",
                  "shade %d", shade(px, (int)(LX + x + DX), (int)(LY + y + DY + 8)));
        /* between two points, outside the star and the layer: no shadow */
        LKT_CHECK(shade(px, (int)(LX + 30 + 38 + DX), (int)(LY - 10 + DY)) < 20,
                  "S6.1 no shadow between the star's points (not the layer's box, not the star's hull)",
                  "shade %d", shade(px, (int)(LX + 30 + 38 + DX), (int)(LY - 10 + DY)));
        free(px);
    }
    remove_layer(l);
}

static void test_empty_path(void)
{
    scene s = {0, 1, 0, 1, 30, 25, 45};
    lk_layer *l = shadowed_layer(&s);
    lk_path *empty = lk_path_create();
    uint8_t *with_empty, *without;
    lk_layer_set_shadow_path(l, empty);
    lk_release(empty);
    with_empty = lkt_render_and_read(display, "empty shadowPath");
    lk_layer_set_shadow_opacity(l, 0);
    without = lkt_render_and_read(display, "no shadow");
    LKT_CHECK(with_empty && without && memcmp(with_empty, without, (size_t)W * H * 4) == 0,
              "S6.1 an empty shadowPath casts no shadow (not the layer's alpha)", "frames differ");
    free(with_empty);
    free(without);
    remove_layer(l);
}

static uint64_t rasterizations(void)
{
    return lkt_stats(display).content_rasterizations;
}

static void test_cache(void)
{
    scene s = {0, 1, 0, 1, 30, 25, 45};
    lk_layer *l = shadowed_layer(&s);
    lk_path *other = star_path(30, 25, 35);
    uint64_t r0, r1, r2, r3;
    render();
    r0 = rasterizations();
    render();
    render();
    r1 = rasterizations();
    LKT_CHECK(r1 == r0, "S6.1 an unchanged frame does not re-rasterize the shadowPath",
              "%llu rasterizations", (unsigned long long)(r1 - r0));
    lk_transaction_set_disable_actions(true);
    lk_layer_set_position(l, lk_point_make(100, 80));
    lk_layer_set_opacity(l, 0.7);
    render();
    r2 = rasterizations();
    LKT_CHECK(r2 == r1, "S6.1 moving and fading the layer does not re-rasterize its shadowPath",
              "%llu rasterizations", (unsigned long long)(r2 - r1));
    lk_layer_set_shadow_path(l, other);
    render();
    render();
    r3 = rasterizations();
    LKT_CHECK(r3 == r2 + 1, "S6.1 a new shadowPath is rasterized once", "%llu rasterizations",
              (unsigned long long)(r3 - r2));
    lk_transaction_set_disable_actions(false);
    lk_release(other);
    remove_layer(l);
}

static int max_difference(const uint8_t *a, const uint8_t *b)
{
    int worst = 0;
    size_t i;
    for (i = 0; i < (size_t)W * H * 4; i++) {
        int d = abs((int)a[i] - (int)b[i]);
        if (d > worst) worst = d;
    }
    return worst;
}

static uint8_t *frame_at(lk_display *d, double t)
{
    uint8_t *pixels = (uint8_t *)malloc((size_t)W * H * 4);
    if (lk_display_render_frame_at(d, t) != LK_OK || lk_display_read_pixels(d, pixels, (size_t)W * 4) != LK_OK) {
        free(pixels);
        return NULL;
    }
    return pixels;
}

/* S4.8: shadowPath morphs point by point; half-way the frame shows the
   mean star, as a layer set to it does. */
static void test_mid_animation(void)
{
    scene s = {0, 1, 0, 1, 30, 25, 45};
    scene mid = {0, 1, 0, 1, 25, 20, 35};
    lk_layer *animated = shadowed_layer(&s);
    lk_path *from = star_path(30, 25, 45), *to = star_path(20, 15, 25);
    lk_animation *a = lk_basic_animation_create("shadowPath");
    lk_display *still_display = lkt_open_display(W, H, "shadowPath half-way");
    lk_layer *still_root = NULL, *saved_root = root, *still;
    double begin;
    uint8_t *fa, *fb, *f0;
    if (!still_display) goto done;
    still_root = lk_layer_create();
    lk_layer_set_frame(still_root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(still_root, lk_color_make(1, 1, 1, 1));
    root = still_root;
    still = shadowed_layer(&mid);
    root = saved_root;
    lk_display_set_root_layer(still_display, still_root);

    lk_animation_set_from_value(a, lk_value_path(from));
    lk_animation_set_to_value(a, lk_value_path(to));
    lk_animation_set_duration(a, 1.0);
    lk_animation_set_timing_function(a, lk_timing_function_named(LK_TIMING_LINEAR));
    lk_layer_add_animation(animated, a, "morph");
    lk_transaction_flush();
    begin = lk_animation_get_begin_time(lk_layer_get_animation(animated, "morph"));
    fa = frame_at(display, begin + 0.5);
    fb = frame_at(still_display, begin + 0.5);
    f0 = frame_at(display, begin);
    LKT_CHECK(fa && fb && max_difference(fa, fb) <= 1,
              "S6.1 the frame half-way through a shadowPath animation shows the mean star's shadow",
              "frames differ by %d", fa && fb ? max_difference(fa, fb) : -1);
    LKT_CHECK(fa && f0 && max_difference(fa, f0) > 8, "S6.1 shadowPath changes the frame (the test can tell)",
              "start and middle differ by only %d", fa && f0 ? max_difference(fa, f0) : -1);
    free(fa);
    free(fb);
    free(f0);
    lk_release(still);
    lk_display_close(still_display);
    lk_release(still_root);
done:
    lk_release(a);
    lk_release(from);
    lk_release(to);
    remove_layer(animated);
}

int main(void)
{
    scene turned = {LKT_PI / 6, 1.5, 0, 1, 30, 25, 45};
    scene clipped = {0, 1, 1, 0, 30, 25, 45};
    display = lkt_open_display(W, H, "shadowPath");
    if (!display) return lkt_finish();
    root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(root, lk_color_make(1, 1, 1, 1));
    lk_display_set_root_layer(display, root);

    test_star_plain();
    test_star("S6.1 a star shadowPath on a layer turned 30 degrees and scaled 1.5 turns with it, offset unturned",
              &turned);
    test_star("S6.1 masksToBounds clips a star shadowPath's shadow", &clipped);
    test_empty_path();
    test_cache();
    test_mid_animation();

    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
