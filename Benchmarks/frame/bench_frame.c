/*
 * A whole LayerKit frame through the public API (display list building +
 * software compositing, lk_display_render_frame_at) against raw pixman doing
 * the same composite, at 1920x1080:
 *   (a) 10 full-screen layers at 50% opacity
 *   (b) 100 layers of 256x256 with alpha at scattered positions
 * Goal: LayerKit within 1.25x of raw pixman. Both frames are compared pixel
 * for pixel (they must agree within 1 per channel).
 *
 * usage: bench_frame [--smoke]      (LAYERKIT_BACKEND=software is used)
 */
#define _POSIX_C_SOURCE 200809L
#include <layerkit/layerkit.h>
#include <pixman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define W 1920
#define H 1080
#define GOAL 1.25

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return v[n / 2];
}

static uint32_t premultiplied(uint32_t a, uint32_t r, uint32_t g, uint32_t b)
{
    return a << 24 | (r * a / 255) << 16 | (g * a / 255) << 8 | (b * a / 255);
}

typedef struct scene {
    const char *name;
    int count;
    int w, h;
    double opacity;
    uint32_t **pixels;   /* premultiplied ARGB32, shared by both renderers */
    int *x, *y;
} scene;

static void make_scene(scene *s, const char *name, int count, int w, int h, double opacity, int alpha)
{
    uint32_t seed = 99;
    s->name = name; s->count = count; s->w = w; s->h = h; s->opacity = opacity;
    s->pixels = (uint32_t **)calloc((size_t)count, sizeof *s->pixels);
    s->x = (int *)calloc((size_t)count, sizeof(int));
    s->y = (int *)calloc((size_t)count, sizeof(int));
    for (int i = 0; i < count; i++) {
        s->pixels[i] = (uint32_t *)malloc((size_t)w * (size_t)h * 4);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                uint32_t a = alpha ? (uint32_t)((x + y + i * 37) % 256) : 255;
                s->pixels[i][y * w + x] = premultiplied(a, (uint32_t)(x * 7 + i) & 255, (uint32_t)(y * 3) & 255, (uint32_t)(i * 40) & 255);
            }
        seed = seed * 1103515245u + 12345u;
        s->x[i] = w == W ? 0 : (int)((seed >> 8) % (W - w));
        seed = seed * 1103515245u + 12345u;
        s->y[i] = h == H ? 0 : (int)((seed >> 8) % (H - h));
    }
}

static void raw_frame(const scene *s, pixman_image_t *fb, pixman_image_t **images, pixman_image_t *mask)
{
    pixman_color_t black = { 0, 0, 0, 0xffff };
    pixman_image_t *clear = pixman_image_create_solid_fill(&black);
    pixman_image_composite32(PIXMAN_OP_SRC, clear, NULL, fb, 0, 0, 0, 0, 0, 0, W, H);
    pixman_image_unref(clear);
    for (int i = 0; i < s->count; i++)
        pixman_image_composite32(PIXMAN_OP_OVER, images[i], mask, fb, 0, 0, 0, 0, s->x[i], s->y[i], s->w, s->h);
}

static int run(const scene *s, int frames)
{
    /* raw pixman */
    uint32_t *fb_bits = (uint32_t *)malloc((size_t)W * H * 4);
    pixman_image_t *fb = pixman_image_create_bits(PIXMAN_a8r8g8b8, W, H, fb_bits, W * 4);
    pixman_image_t **images = (pixman_image_t **)calloc((size_t)s->count, sizeof *images);
    for (int i = 0; i < s->count; i++)
        images[i] = pixman_image_create_bits(PIXMAN_a8r8g8b8, s->w, s->h, s->pixels[i], s->w * 4);
    pixman_image_t *mask = NULL;
    if (s->opacity < 1) {
        pixman_color_t c = { 0, 0, 0, (uint16_t)(s->opacity * 0xffff + 0.5) };
        mask = pixman_image_create_solid_fill(&c);
    }

    /* LayerKit */
    lk_layer *root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    for (int i = 0; i < s->count; i++) {
        lk_image *img = lk_image_create_from_pixels((uint32_t)s->w, (uint32_t)s->h, (size_t)s->w * 4,
                                                    LK_PIXEL_FORMAT_ARGB32_PREMULTIPLIED, s->pixels[i]);
        lk_layer *l = lk_layer_create();
        lk_layer_set_frame(l, lk_rect_make(s->x[i], s->y[i], s->w, s->h));
        lk_layer_set_contents(l, img);
        lk_layer_set_opacity(l, s->opacity);
        lk_layer_add_sublayer(root, l);
        lk_release(l);
        lk_release(img);
    }
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o; o.backend = "software"; o.width = W; o.height = H; o.manual_clock = true;
    lk_display *d = lk_display_open(&o);
    if (!d) { fprintf(stderr, "bench_frame: %s\n", lk_last_error()); return 0; }
    lk_display_set_root_layer(d, root);

    double *raw = (double *)malloc(sizeof(double) * (size_t)frames);
    double *lk = (double *)malloc(sizeof(double) * (size_t)frames);
    for (int f = -2; f < frames; f++) { /* two warm-up frames, then alternate */
        double t0 = now_ms();
        raw_frame(s, fb, images, mask);
        double t1 = now_ms();
        if (lk_display_render_frame_at(d, f) != LK_OK) { fprintf(stderr, "bench_frame: %s\n", lk_last_error()); return 0; }
        double t2 = now_ms();
        if (f >= 0) { raw[f] = t1 - t0; lk[f] = t2 - t1; }
    }

    /* the two frames must agree */
    uint8_t *rgba = (uint8_t *)malloc((size_t)W * H * 4);
    lk_display_read_pixels(d, rgba, W * 4);
    int worst = 0;
    for (int i = 0; i < W * H; i++) {
        uint32_t p = fb_bits[i];
        int want[4] = { (int)(p >> 16 & 255), (int)(p >> 8 & 255), (int)(p & 255), (int)(p >> 24) };
        for (int c = 0; c < 4; c++) {
            int diff = abs(want[c] - rgba[i * 4 + c]);
            if (diff > worst) worst = diff;
        }
    }
    double rm = median(raw, frames), lm = median(lk, frames);
    printf("%-48s %8.2f ms %8.2f ms %6.2fx   [goal <= %.2fx] %s (max pixel diff %d)\n", s->name, rm, lm, lm / rm, GOAL,
           lm / rm <= GOAL ? "OK" : "OVER", worst);

    lk_display_close(d);
    lk_release(root);
    for (int i = 0; i < s->count; i++) pixman_image_unref(images[i]);
    if (mask) pixman_image_unref(mask);
    pixman_image_unref(fb);
    free(images); free(fb_bits); free(raw); free(lk); free(rgba);
    return worst <= 1;
}

int main(int argc, char **argv)
{
    int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    int frames = smoke ? 3 : 60;
    /* whole frames: without this, damage tracking draws nothing for the
       unchanged frames after the first (read once, before any display) */
    setenv("LAYERKIT_FULL_DAMAGE", "1", 1);
    scene a, b;
    make_scene(&a, "(a) 10 full-screen layers at 50% opacity", 10, W, H, 0.5, 0);
    make_scene(&b, "(b) 100 layers 256x256 with alpha, scattered", 100, 256, 256, 1.0, 1);
    printf("whole frame at %dx%d, median of %d frames\n", W, H, frames);
    printf("%-48s %11s %11s %7s\n", "scene", "raw pixman", "LayerKit", "ratio");
    int ok = run(&a, frames);
    ok &= run(&b, frames);
    return ok ? 0 : 1;
}
