/*
 * The software backend's share of a frame, against the same work written
 * by hand with pixman, at 1920x1080:
 *   (a) 10 full-screen image layers at 50% opacity
 *   (b) 100 image layers of 256x256 with varying alpha at scattered positions
 * Raw pixman: clear + one pixman_image_composite32 per layer into an
 * a8r8g8b8 buffer (a solid mask for the opacity). Plugin: render() of the
 * equivalent display list. Both outputs are compared pixel for pixel. The
 * goal is a plugin within 1.25x of raw pixman. Two more scenes time the
 * mask path (rotated images, rounded translucent fills), which has no
 * one-call pixman equivalent, and (e) 1000 small rotated translucent fills
 * measures its fixed cost per op. (f) and (g) time offscreen groups (ABI 2):
 * 20 rounded cards each casting a blurred shadow (sigma 8), and 20 cards
 * each fading two overlapping fills as one group. (h) and (i) time a
 * full-screen axial gradient unchanged from frame to frame (the gradient
 * cache) and changing every frame; (j) 100 borders of 2 pixels with
 * rounded corners; (k) a 600x600 image turned 40 degrees in perspective;
 * (l) and (m) shadows wider than 48 pixels a side, whose blur groups pixels
 * to a tap: 20 cards of sigma 40 and an 800x600 dialog of sigma 100.
 *
 * usage: bench_composite [--smoke] [--frames N] [--plugin PATH]
 * The plugin is --plugin, else $LKTEST_PLUGIN, else liblayerkit-software.so
 * in $LAYERKIT_PLUGIN_PATH, else in <dir>/../layerkit/backends for each dir
 * of $PKG_CONFIG_PATH (an installed prefix's lib/pkgconfig).
 * Exits non-zero when rendering fails or the outputs differ; timings only
 * inform.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <math.h>
#include <pixman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "layerkit/layerkit_backend.h"
#include "bench_host.h"

#define W 1920
#define H 1080
#define GOAL 1.25

static uint32_t rng = 12345;
static uint64_t next_image_id;

static uint32_t next_random(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

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

static double median(double *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/* ------------------------------------------------------------------------ */
/* Plugin                                                                    */

static char plugin_log[1024];

static void host_log(void *data, uint32_t level, const char *message)
{
    (void)data;
    (void)level;
    snprintf(plugin_log, sizeof plugin_log, "%s", message);
}

static int readable(const char *path)
{
    return access(path, R_OK) == 0;
}

/* Looks for liblayerkit-software.so in each directory of a ':' list, with
   suffix appended to the directory. */
static int find_in_list(const char *list, const char *suffix, char *out, size_t size)
{
    if (!list) return 0;
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > 0) {
            snprintf(out, size, "%.*s%s/liblayerkit-software.so", (int)n, p, suffix);
            if (readable(out)) return 1;
        }
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

static const lk_backend *load_plugin(const char *explicit_path, char *path, size_t size)
{
    if (explicit_path) snprintf(path, size, "%s", explicit_path);
    else if (getenv("LKTEST_PLUGIN")) snprintf(path, size, "%s", getenv("LKTEST_PLUGIN"));
    else if (!find_in_list(getenv("LAYERKIT_PLUGIN_PATH"), "", path, size) &&
             !find_in_list(getenv("PKG_CONFIG_PATH"), "/../layerkit/backends", path, size)) {
        fprintf(stderr, "bench_composite: no software plugin found; pass --plugin PATH\n");
        return NULL;
    }
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        fprintf(stderr, "bench_composite: dlopen %s: %s\n", path, dlerror());
        return NULL;
    }
    void *symbol = dlsym(handle, LK_BACKEND_ENTRY_SYMBOL);
    lk_backend_entry_fn entry;
    if (!symbol) {
        fprintf(stderr, "bench_composite: %s has no %s\n", path, LK_BACKEND_ENTRY_SYMBOL);
        return NULL;
    }
    memcpy(&entry, &symbol, sizeof entry);
    return entry(LK_BACKEND_ABI_VERSION);
}

/* ------------------------------------------------------------------------ */
/* Scenes                                                                    */

typedef struct scene {
    const char     *name;
    int             count;
    int             has_raw;        /* a one-call-per-layer pixman equivalent exists */
    uint32_t      **pixels;
    lk_dl_image    *images;
    pixman_image_t **raw_images;
    int32_t        *x, *y;
    lk_dl_op       *ops;
    float           opacity;
    const char     *note;           /* printed instead of the raw column when has_raw is 0 */
    lk_dl_gradient_stop *changing;  /* a stop whose colour changes every frame, or NULL */
} scene;

static uint32_t premultiply(uint32_t a, uint32_t r, uint32_t g, uint32_t b)
{
    return a << 24 | (r * a / 255) << 16 | (g * a / 255) << 8 | (b * a / 255);
}

static void identity(double m[16])
{
    memset(m, 0, 16 * sizeof m[0]);
    m[0] = m[5] = m[10] = m[15] = 1.0;
}

/* A scene of count ops without images, zeroed, for the caller to fill. */
static void scene_of_ops(scene *s, const char *name, const char *note, int count)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->note = note;
    s->count = count;
    s->ops = calloc((size_t)count, sizeof *s->ops);
}

/* An op of kind over the rect (x, y, w, h): anti-aliased, untransformed,
   opaque; the caller sets the rest. */
static void op_begin(lk_dl_op *op, uint32_t kind, double x, double y, double w, double h)
{
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->flags = LK_DL_FLAG_ANTIALIAS;
    identity(op->transform);
    op->rect.x = x;
    op->rect.y = y;
    op->rect.width = w;
    op->rect.height = h;
    op->opacity = 1.0f;
}

/* Allocates count images of w x h, filled by fill(i, x, y). */
static void make_images(scene *s, int count, int w, int h, uint32_t (*fill)(int, int, int))
{
    s->count = count;
    s->pixels = calloc((size_t)count, sizeof *s->pixels);
    s->images = calloc((size_t)count, sizeof *s->images);
    s->raw_images = calloc((size_t)count, sizeof *s->raw_images);
    s->x = calloc((size_t)count, sizeof *s->x);
    s->y = calloc((size_t)count, sizeof *s->y);
    s->ops = calloc((size_t)count, sizeof *s->ops);
    for (int i = 0; i < count; i++) {
        s->pixels[i] = malloc((size_t)w * h * 4);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) s->pixels[i][y * w + x] = fill(i, x, y);
        lk_dl_image *img = &s->images[i];
        img->id = ++next_image_id;
        img->generation = 1;
        img->width = (uint32_t)w;
        img->height = (uint32_t)h;
        img->stride = (uint32_t)w * 4;
        img->format = LK_DL_FORMAT_ARGB32_PREMULTIPLIED;
        img->pixels = s->pixels[i];
        s->raw_images[i] = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h, s->pixels[i], w * 4);
    }
}

static void image_ops(scene *s, float opacity)
{
    s->opacity = opacity;
    for (int i = 0; i < s->count; i++) {
        lk_dl_op *op = &s->ops[i];
        memset(op, 0, sizeof *op);
        op->kind = LK_DL_OP_IMAGE;
        op->flags = LK_DL_FLAG_ANTIALIAS;
        identity(op->transform);
        op->rect.x = s->x[i];
        op->rect.y = s->y[i];
        op->rect.width = s->images[i].width;
        op->rect.height = s->images[i].height;
        op->opacity = opacity;
        op->image = &s->images[i];
        op->source.width = s->images[i].width;
        op->source.height = s->images[i].height;
    }
}

static uint32_t fill_fullscreen(int i, int x, int y)
{
    return premultiply(255, (uint32_t)(x / 8 + 37 * i) & 255, (uint32_t)(y / 4 + 11 * i) & 255,
                       (uint32_t)((x ^ y) + i) & 255);
}

/* A soft round blob: alpha falls off from the centre, plus a ring. */
static uint32_t fill_blob(int i, int x, int y)
{
    double dx = x - 127.5, dy = y - 127.5, r = sqrt(dx * dx + dy * dy) / 128.0;
    double a = r >= 1.0 ? 0.0 : (1.0 - r * r) * (0.75 + 0.25 * cos(r * 12.0));
    uint32_t alpha = (uint32_t)lrint(fmin(fmax(a, 0.0), 1.0) * 255.0);
    return premultiply(alpha, (uint32_t)(40 + 2 * i) & 255, (uint32_t)(x + i), (uint32_t)(255 - y));
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */

static void raw_frame(const scene *s, pixman_image_t *fb, pixman_image_t *opacity_mask)
{
    pixman_color_t black = { 0, 0, 0, 0xffff };
    pixman_box32_t all = { 0, 0, W, H };
    pixman_image_fill_boxes(PIXMAN_OP_SRC, fb, &black, 1, &all);
    for (int i = 0; i < s->count; i++)
        pixman_image_composite32(PIXMAN_OP_OVER, s->raw_images[i], opacity_mask, fb, 0, 0, 0, 0,
                                 s->x[i], s->y[i], (int)s->images[i].width, (int)s->images[i].height);
}

static int plugin_frame(const lk_backend *b, lk_backend_instance *inst, const scene *s, uint64_t number)
{
    lk_display_list list;
    memset(&list, 0, sizeof list);
    list.abi_version = LK_BACKEND_ABI_VERSION;
    list.struct_size = sizeof list;
    list.op_size = sizeof(lk_dl_op);
    list.op_count = (uint32_t)s->count;
    list.ops = s->ops;
    list.clear_color.a = 1.0f;
    list.damage.width = W;
    list.damage.height = H;
    list.frame_number = number;
    if (s->changing) s->changing->color.g = (float)(number % 7) / 7.0f;
    char error[256];
    if (!b->render(inst, &list, error, sizeof error)) {
        fprintf(stderr, "bench_composite: %s: render failed: %s\n", s->name, error);
        return 0;
    }
    return 1;
}

/* Times raw pixman and the plugin frame by frame, alternating which goes
   first, so that load from elsewhere on the machine hits both alike.
   Returns 0 when the plugin failed or its pixels differ from raw pixman's. */
static int run_scene(const lk_backend *b, lk_backend_instance *inst, scene *s, int frames, int warmup,
                     uint32_t *readback)
{
    double *raw_times = calloc((size_t)frames, sizeof *raw_times);
    double *plugin_times = calloc((size_t)frames, sizeof *plugin_times);
    double raw_ms = 0.0, plugin_ms;
    int ok = 1;
    pixman_image_t *fb = NULL, *mask = NULL;

    if (s->has_raw) {
        fb = pixman_image_create_bits(PIXMAN_a8r8g8b8, W, H, NULL, W * 4);
        pixman_color_t alpha = { 0, 0, 0, (uint16_t)(lrintf(s->opacity * 255.0f) * 257) };
        if (s->opacity < 1.0f) mask = pixman_image_create_solid_fill(&alpha);
    }
    for (int i = -warmup; i < frames && ok; i++) {
        for (int turn = 0; turn < 2 && ok; turn++) {
            int raw_turn = (turn == 0) == (i % 2 == 0);
            double t0 = now_ms();
            if (raw_turn) {
                if (!s->has_raw) continue;
                raw_frame(s, fb, mask);
            } else {
                ok = plugin_frame(b, inst, s, (uint64_t)(i + warmup));
            }
            double t = now_ms() - t0;
            if (i >= 0) *(raw_turn ? &raw_times[i] : &plugin_times[i]) = t;
        }
    }
    if (mask) pixman_image_unref(mask);
    if (ok && s->has_raw) raw_ms = median(raw_times, frames);
    plugin_ms = ok ? median(plugin_times, frames) : 0.0;
    free(raw_times);
    free(plugin_times);
    if (!ok) {
        if (fb) pixman_image_unref(fb);
        return 0;
    }

    char verdict[160] = "";
    if (s->has_raw) {
        char error[256];
        if (!b->read_pixels(inst, readback, W * 4, error, sizeof error)) {
            fprintf(stderr, "bench_composite: read_pixels: %s\n", error);
            ok = 0;
        } else {
            const uint32_t *raw = pixman_image_get_data(fb);
            long differ = 0;
            int worst = 0;
            for (long k = 0; k < (long)W * H; k++) {
                if (raw[k] == readback[k]) continue;
                differ++;
                for (int c = 0; c < 32; c += 8) {
                    int d = abs((int)((raw[k] >> c) & 255) - (int)((readback[k] >> c) & 255));
                    if (d > worst) worst = d;
                }
            }
            if (differ) {
                snprintf(verdict, sizeof verdict, "OUTPUT DIFFERS: %ld pixels, up to %d", differ, worst);
                ok = 0;
            } else {
                snprintf(verdict, sizeof verdict, "output identical");
            }
        }
        double ratio = plugin_ms / raw_ms;
        printf("%-46s %8.3f ms %8.3f ms %6.2fx  %s, %s\n", s->name, raw_ms, plugin_ms, ratio,
               ratio <= GOAL ? "within goal" : "ABOVE GOAL", verdict);
        pixman_image_unref(fb);
    } else {
        printf("%-46s %11s %8.3f ms %7s  (%s)\n", s->name, "-", plugin_ms, "-",
               s->note ? s->note : "mask path; no one-call pixman equivalent");
    }
    fflush(stdout);
    return ok;
}

static void free_scene(const lk_backend *b, lk_backend_instance *inst, scene *s)
{
    for (int i = 0; i < s->count; i++) {
        b->image_released(inst, s->images[i].id);
        if (s->raw_images) pixman_image_unref(s->raw_images[i]);
        free(s->pixels[i]);
    }
    free(s->pixels);
    free(s->images);
    free(s->raw_images);
    free(s->x);
    free(s->y);
    free(s->ops);
}

int main(int argc, char **argv)
{
    int smoke = 0, frames = 60;
    const char *explicit_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--smoke") == 0) smoke = 1;
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--plugin") == 0 && i + 1 < argc) explicit_path = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--smoke] [--frames N] [--plugin PATH]\n", argv[0]);
            return 2;
        }
    }
    if (smoke) frames = 2;
    if (frames < 1) frames = 1;
    int warmup = smoke ? 0 : 3;

    char path[4096];
    const lk_backend *b = load_plugin(explicit_path, path, sizeof path);
    if (!b) return 2;
    char error[256];
    lk_backend_instance *inst = bench_open_instance(b, W, H, host_log, error, sizeof error);
    if (!inst) {
        fprintf(stderr, "bench_composite: open: %s\n", error);
        return 2;
    }
    uint32_t *readback = malloc((size_t)W * H * 4);

    printf("software backend vs raw pixman %s, %dx%d, median of %d frames%s\n", pixman_version_string(),
           W, H, frames, smoke ? " (smoke run: timings mean nothing)" : "");
    printf("plugin: %s\n", path);
    printf("%-46s %11s %11s %7s\n", "scene", "raw pixman", "plugin", "ratio");

    int ok = 1;
    scene a;
    memset(&a, 0, sizeof a);
    a.name = "(a) 10 full-screen images at 50% opacity";
    a.has_raw = 1;
    make_images(&a, 10, W, H, fill_fullscreen);
    image_ops(&a, 0.5f);
    ok &= run_scene(b, inst, &a, frames, warmup, readback);
    free_scene(b, inst, &a);

    scene s;
    memset(&s, 0, sizeof s);
    s.name = "(b) 100 256x256 alpha images, scattered";
    s.has_raw = 1;
    make_images(&s, 100, 256, 256, fill_blob);
    for (int i = 0; i < s.count; i++) {
        s.x[i] = (int32_t)(next_random() % (W + 128)) - 128;
        s.y[i] = (int32_t)(next_random() % (H + 128)) - 128;
    }
    image_ops(&s, 1.0f);
    ok &= run_scene(b, inst, &s, frames, warmup, readback);

    /* The same layers rotated by 15 degrees about their centres. */
    s.name = "(c) the same 100 images rotated 15 degrees";
    s.has_raw = 0;
    for (int i = 0; i < s.count; i++) {
        lk_dl_op *op = &s.ops[i];
        double c = cos(15 * 3.14159265358979 / 180), sn = sin(15 * 3.14159265358979 / 180);
        double cx = s.x[i] + 128.0, cy = s.y[i] + 128.0;
        op->rect.x = -128;
        op->rect.y = -128;
        op->transform[0] = c; op->transform[1] = sn;
        op->transform[4] = -sn; op->transform[5] = c;
        op->transform[12] = cx; op->transform[13] = cy;
    }
    ok &= run_scene(b, inst, &s, frames, warmup, readback);

    /* Rounded translucent fills: coverage masks, no image. */
    s.name = "(d) 100 256x256 fills, radius 24, 50% opacity";
    for (int i = 0; i < s.count; i++) {
        lk_dl_op *op = &s.ops[i];
        op->kind = LK_DL_OP_FILL;
        identity(op->transform);
        op->rect.x = s.x[i];
        op->rect.y = s.y[i];
        op->corner_radius = 24;
        op->color.r = 0.2f; op->color.g = 0.4f; op->color.b = 0.6f; op->color.a = 1.0f;
        op->opacity = 0.5f;
        op->image = NULL;
    }
    ok &= run_scene(b, inst, &s, frames, warmup, readback);
    free_scene(b, inst, &s);

    /* Many small rotated solid layers: the mask path's fixed cost per op. */
    scene e;
    memset(&e, 0, sizeof e);
    e.name = "(e) 1000 32x32 fills rotated, 50% opacity";
    e.count = 1000;
    e.ops = calloc((size_t)e.count, sizeof *e.ops);
    for (int i = 0; i < e.count; i++) {
        lk_dl_op *op = &e.ops[i];
        double angle = (double)(next_random() % 3600) / 10.0 * 3.14159265358979 / 180;
        double c = cos(angle), sn = sin(angle);
        op->kind = LK_DL_OP_FILL;
        op->flags = LK_DL_FLAG_ANTIALIAS;
        identity(op->transform);
        op->transform[0] = c; op->transform[1] = sn;
        op->transform[4] = -sn; op->transform[5] = c;
        op->transform[12] = (double)(next_random() % (W + 32)) - 16 + (next_random() % 100) / 100.0;
        op->transform[13] = (double)(next_random() % (H + 32)) - 16 + (next_random() % 100) / 100.0;
        op->rect.x = -16;
        op->rect.y = -16;
        op->rect.width = 32;
        op->rect.height = 32;
        op->color.r = (float)(next_random() % 256) / 255.0f;
        op->color.g = (float)(next_random() % 256) / 255.0f;
        op->color.b = (float)(next_random() % 256) / 255.0f;
        op->color.a = 1.0f;
        op->opacity = 0.5f;
    }
    ok &= run_scene(b, inst, &e, frames, warmup, readback);
    free(e.ops);

    /* Offscreen groups: cards with shadows, then cards faded as groups,
       then wide shadows: cards and a dialog whose blur groups pixels. */
    for (int variant = 0; variant < 4; variant++) {
        static const char *const names[4] = {
            "(f) 20 200x120 cards with shadows, sigma 8", "(g) 20 cards of 2 fills at 50% group opacity",
            "(l) 20 200x120 cards with shadows, sigma 40", "(m) an 800x600 dialog with a shadow, sigma 100",
        };
        static const double sigmas[4] = { 8, 0, 40, 100 };
        int cards = variant == 3 ? 1 : 20;
        scene g;
        scene_of_ops(&g, names[variant], "offscreen groups; no one-call pixman equivalent", (size_t)cards * 4);
        for (int i = 0; i < cards; i++) {
            double x = 40 + (i % 5) * 370, y = 40 + (i / 5) * 260;
            lk_dl_op *push = &g.ops[i * 4], *a = push + 1, *c = push + 2, *pop = push + 3;
            for (lk_dl_op *op = push; op <= pop; op++) {
                identity(op->transform);
                op->flags = LK_DL_FLAG_ANTIALIAS;
                op->opacity = 1.0f;
            }
            push->kind = LK_DL_OP_PUSH_GROUP;
            push->rect.x = x;
            push->rect.y = y;
            push->rect.width = 240;
            push->rect.height = 140;
            if (variant == 3) {
                push->rect.x = 560;
                push->rect.y = 240;
                push->rect.width = 840;
                push->rect.height = 620;
            }
            if (variant != 1) {
                push->shadow_color.a = 0.5f;
                push->shadow_offset_y = 6;
                push->shadow_sigma = sigmas[variant];
            } else {
                push->opacity = 0.5f;
            }
            a->kind = LK_DL_OP_FILL;
            a->rect = push->rect;
            a->rect.width = push->rect.width - 40;
            a->rect.height = push->rect.height - 20;
            a->corner_radius = 16;
            a->color.r = 0.9f; a->color.g = 0.9f; a->color.b = 0.95f; a->color.a = 1.0f;
            c->kind = LK_DL_OP_FILL;
            c->rect.x = push->rect.x + 40;
            c->rect.y = push->rect.y + 20;
            c->rect.width = push->rect.width - 40;
            c->rect.height = push->rect.height - 20;
            c->color.r = 0.2f; c->color.g = 0.5f; c->color.b = 0.9f; c->color.a = 1.0f;
            pop->kind = LK_DL_OP_POP_GROUP;
        }
        ok &= run_scene(b, inst, &g, frames, warmup, readback);
        free(g.ops);
    }

    /* A full-screen gradient, unchanged, then changing every frame. */
    lk_dl_gradient_stop stops[3] = {
        { 0.0, { 0.1f, 0.2f, 0.4f, 1.0f } }, { 0.6, { 0.3f, 0.1f, 0.5f, 1.0f } }, { 1.0, { 0.9f, 0.6f, 0.2f, 1.0f } },
    };
    for (int variant = 0; variant < 2; variant++) {
        scene gr;
        scene_of_ops(&gr, variant == 0 ? "(h) full-screen gradient, unchanged" : "(i) full-screen gradient, changing",
                     variant == 0 ? "drawn from the gradient cache" : "evaluated every frame", 1);
        lk_dl_op *op = &gr.ops[0];
        op_begin(op, LK_DL_OP_GRADIENT, 0, 0, W, H);
        op->gradient_kind = LK_DL_GRADIENT_AXIAL;
        op->gradient_stops = stops;
        op->gradient_stop_count = 3;
        op->gradient_end_x = W * 0.3;
        op->gradient_end_y = H;
        if (variant == 1) gr.changing = &stops[1];
        ok &= run_scene(b, inst, &gr, frames, warmup, readback);
        free(gr.ops);
    }

    /* Borders with rounded corners: two rows of pixels drawn per side. */
    scene bd;
    scene_of_ops(&bd, "(j) 100 256x256 borders, 2 px, radius 24", "corner rows masked, sides as rects", 100);
    for (int i = 0; i < 100; i++) {
        double x = (double)(next_random() % (W - 256)) + 0.25 * (i % 4);
        double y = (double)(next_random() % (H - 256)) + 0.5 * (i % 2);
        lk_dl_op *op = &bd.ops[i];
        op_begin(op, LK_DL_OP_BORDER, x, y, 256, 256);
        op->corner_radius = 24;
        op->border_width = 2;
        op->color.r = 0.2f; op->color.g = 0.4f; op->color.b = 0.6f; op->color.a = 1.0f;
    }
    ok &= run_scene(b, inst, &bd, frames, warmup, readback);
    free(bd.ops);

    /* An image turned in perspective: a card flipping. */
    scene pe;
    memset(&pe, 0, sizeof pe);
    pe.name = "(k) a 600x600 image turned 40 deg, perspective";
    pe.note = "per-pixel divide, pixman's bilinear";
    make_images(&pe, 1, 600, 600, fill_fullscreen);
    pe.has_raw = 0;
    {
        lk_dl_op *op = &pe.ops[0];
        op_begin(op, LK_DL_OP_IMAGE, -300, -300, 600, 600);
        op->image = &pe.images[0];
        op->source.width = 600;
        op->source.height = 600;
        /* rotation about y, then m34 = -1/1000, then to the centre: the
           product of the three (row vectors) */
        double c = cos(40 * 3.14159265358979 / 180), sn = sin(40 * 3.14159265358979 / 180), d = -1.0 / 1000;
        double tx = W / 2.0, ty = H / 2.0;
        const double m[16] = {
            c - sn * d * tx, -sn * d * ty, -sn, -sn * d,
            0, 1, 0, 0,
            sn + c * d * tx, c * d * ty, c, c * d,
            tx, ty, 0, 1,
        };
        memcpy(op->transform, m, sizeof m);
    }
    ok &= run_scene(b, inst, &pe, frames, warmup, readback);
    free_scene(b, inst, &pe);

    b->close(inst);
    if (plugin_log[0]) printf("plugin stats: %s\n", plugin_log);
    free(readback);
    printf("%s\n", ok ? "bench_composite: ok" : "bench_composite: FAILED");
    return ok ? 0 : 1;
}
