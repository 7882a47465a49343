/*
 * What a frame costs the GLES renderer in GL work, counted, for the
 * foundation issue's benchmark scenes at 1920x1080:
 *   (a) 10 full-screen image layers at 50% opacity
 *   (b) 100 image layers of 256x256 with alpha, scattered
 *   (c) 1,000 animated solid layers (moving and turning every frame)
 *   (d) 1,000 animated layers sharing 4 images, in runs of one image
 *   (e) 20 layers with blurred shadows (offscreen groups)
 *   (f) 50 gradient layers (axial, radial, conic; 3 to 5 stops) whose size
 *       and colours change every frame: GRADIENT ops (ABI 3) draw them with
 *       the gradient program and upload nothing; before, the core rasterized
 *       each into an image that was uploaded whole every frame (the bytes
 *       that would have been are printed beside)
 *   (g) one full-screen gradient of 20 stops, recoloured every frame: more
 *       stops than the program keeps in uniforms go in a 4 KB ramp texture,
 *       uploaded when the stops change
 * For each: draw calls, GL state changes, texture uploads and offscreen
 * passes in the first frame and per frame after it, each printed with its
 * limit beside it: static content uploads nothing after the first frame,
 * draw calls are at most one per run of ops of one state (program, texture,
 * blend, clip, and whether the shape is an axis-aligned rect in output
 * space or needs the general coverage program; the turning layers here
 * never sit at angle 0, so each scene keeps one kind). The limits are
 * checked; the program fails when one is not met. Timings are printed too, but on llvmpipe (a CPU rasterizer) they say
 * nothing about a GPU.
 *
 * The renderer runs in a surfaceless EGL context of the benchmark's own, as
 * the gles backend runs it.
 *
 * usage: bench_gles [--smoke] [--frames N]
 */
#define _POSIX_C_SOURCE 200809L

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lk_gles_renderer.h"

#define W 1920
#define H 1080
#define MAX_OPS 2100

static lkgl_renderer *renderer;
static GLuint fbo;
static lk_dl_op ops[MAX_OPS];
static uint32_t op_count;
static int failures;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void identity(double m[16])
{
    memset(m, 0, 16 * sizeof m[0]);
    m[0] = m[5] = m[10] = m[15] = 1.0;
}

static lk_dl_op *add(uint32_t kind, double x, double y, double w, double h)
{
    lk_dl_op *op = &ops[op_count++];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->flags = LK_DL_FLAG_ANTIALIAS;
    identity(op->transform);
    op->rect.x = x; op->rect.y = y; op->rect.width = w; op->rect.height = h;
    op->opacity = 1.0f;
    return op;
}

static lk_dl_op *add_image(const lk_dl_image *img, double x, double y, double w, double h, float opacity)
{
    lk_dl_op *op = add(LK_DL_OP_IMAGE, x, y, w, h);
    op->image = img;
    op->source.width = img->width;
    op->source.height = img->height;
    op->opacity = opacity;
    return op;
}

/* a layer of w x h turned by angle about its centre, placed at (cx, cy) */
static void place(lk_dl_op *op, double cx, double cy, double angle)
{
    double c = cos(angle), s = sin(angle), w = op->rect.width, h = op->rect.height;
    op->rect.x = -w / 2;
    op->rect.y = -h / 2;
    op->transform[0] = c; op->transform[1] = s;
    op->transform[4] = -s; op->transform[5] = c;
    op->transform[12] = cx; op->transform[13] = cy;
}

static lk_dl_image make_image(uint64_t id, uint32_t w, uint32_t h, uint32_t seed)
{
    lk_dl_image img;
    memset(&img, 0, sizeof img);
    uint32_t *pixels = malloc((size_t)w * h * 4);
    for (uint32_t i = 0; i < w * h; i++) {
        uint32_t a = (i * 7 + seed * 31) % 256, v = (i + seed) % (a + 1);
        pixels[i] = a << 24 | v << 16 | (a - v) << 8 | (v / 2);
    }
    img.id = id;
    img.generation = 1;
    img.width = w;
    img.height = h;
    img.stride = w * 4;
    img.format = LK_DL_FORMAT_ARGB32_PREMULTIPLIED;
    img.pixels = pixels;
    return img;
}

typedef void (*scene_fn)(int frame);

typedef struct limits {
    uint64_t first_draw_calls, draw_calls, first_uploads, uploads, passes;
} limits;

static void run(const char *name, scene_fn build, int frames, limits lim)
{
    lkgl_stats first, s, sum;
    memset(&sum, 0, sizeof sum);
    double ms = 0;
    for (int f = 0; f < frames; f++) {
        op_count = 0;
        build(f);
        lk_display_list list;
        memset(&list, 0, sizeof list);
        list.abi_version = LK_BACKEND_ABI_VERSION;
        list.struct_size = sizeof list;
        list.op_size = sizeof(lk_dl_op);
        list.op_count = op_count;
        list.ops = ops;
        list.clear_color.a = 1.0f;
        list.damage.width = W;
        list.damage.height = H;
        char error[512] = "";
        double t0 = now_ms();
        if (!lkgl_renderer_render(renderer, &list, fbo, W, H, error, sizeof error)) {
            printf("FAIL %s: %s\n", name, error);
            failures++;
            return;
        }
        glFinish();
        double t = now_ms() - t0;
        lkgl_renderer_stats(renderer, &s, NULL);
        if (f == 0) {
            first = s;
        } else {
            ms += t;
            sum.draw_calls += s.draw_calls;
            sum.state_changes += s.state_changes;
            sum.texture_uploads += s.texture_uploads;
            sum.offscreen_passes += s.offscreen_passes;
            if (s.draw_calls > lim.draw_calls || s.texture_uploads > lim.uploads || s.offscreen_passes > lim.passes) {
                printf("FAIL %s: frame %d: %llu draw calls (limit %llu), %llu uploads (limit %llu), "
                       "%llu offscreen passes (limit %llu)\n", name, f, (unsigned long long)s.draw_calls,
                       (unsigned long long)lim.draw_calls, (unsigned long long)s.texture_uploads,
                       (unsigned long long)lim.uploads, (unsigned long long)s.offscreen_passes,
                       (unsigned long long)lim.passes);
                failures++;
            }
        }
    }
    int n = frames - 1;
    printf("%s (%u ops)\n", name, op_count);
    printf("  first frame:  %4llu draw calls (limit %llu), %4llu state changes, %4llu texture uploads (limit %llu), %llu offscreen passes\n",
           (unsigned long long)first.draw_calls, (unsigned long long)lim.first_draw_calls,
           (unsigned long long)first.state_changes, (unsigned long long)first.texture_uploads,
           (unsigned long long)lim.first_uploads, (unsigned long long)first.offscreen_passes);
    if (first.draw_calls > lim.first_draw_calls || first.texture_uploads > lim.first_uploads) {
        printf("FAIL %s: the first frame is over its limits\n", name);
        failures++;
    }
    if (n > 0)
        printf("  per frame:    %6.1f draw calls (limit %llu), %6.1f state changes, %4.1f texture uploads (limit %llu), "
               "%.1f offscreen passes (limit %llu); %.1f ms on this machine's GL (llvmpipe: not a GPU figure)\n",
               (double)sum.draw_calls / n, (unsigned long long)lim.draw_calls, (double)sum.state_changes / n,
               (double)sum.texture_uploads / n, (unsigned long long)lim.uploads,
               (double)sum.offscreen_passes / n, (unsigned long long)lim.passes, ms / n);
}

static lk_dl_image full[10], tiles[100], shared[4];

static void scene_a(int frame)
{
    (void)frame;
    for (int i = 0; i < 10; i++) add_image(&full[i], 0, 0, W, H, 0.5f);
}

static void scene_b(int frame)
{
    (void)frame;
    for (int i = 0; i < 100; i++)
        add_image(&tiles[i], (i * 173) % (W - 256), (i * 97) % (H - 256), 256, 256, 1.0f);
}

static void scene_c(int frame)
{
    for (int i = 0; i < 1000; i++) {
        lk_dl_op *op = add(LK_DL_OP_FILL, 0, 0, 24 + i % 16, 24 + i % 12);
        op->color.r = (float)(i % 7) / 7.0f * 0.8f;
        op->color.g = (float)(i % 5) / 5.0f * 0.8f;
        op->color.b = 0.4f;
        op->color.a = 0.8f;
        op->corner_radius = i % 3 == 0 ? 6 : 0;
        double t = frame / 60.0;
        place(op, fmod(i * 37.0 + 120 * t, W), fmod(i * 53.0 + 80 * t, H), 0.005 + t + i * 0.01);
    }
}

static void scene_d(int frame)
{
    for (int i = 0; i < 1000; i++) {
        lk_dl_op *op = add_image(&shared[i / 250], 0, 0, 32, 32, 0.9f);
        double t = frame / 60.0;
        place(op, fmod(i * 41.0 + 100 * t, W), fmod(i * 59.0 + 60 * t, H), 0.01 + t * 2 + i * 0.02);
    }
}

static void scene_e(int frame)
{
    (void)frame;
    for (int i = 0; i < 20; i++) {
        double x = 60 + (i % 5) * 360, y = 60 + (i / 5) * 250;
        lk_dl_op *g = add(LK_DL_OP_PUSH_GROUP, x - 10, y - 10, 220, 170);
        g->shadow_color.a = 0.5f;
        g->shadow_sigma = 6;
        g->shadow_offset_y = 4;
        lk_dl_op *f = add(LK_DL_OP_FILL, x, y, 200, 150);
        f->color.r = f->color.g = f->color.b = f->color.a = 1.0f;
        f->corner_radius = 12;
        add(LK_DL_OP_POP_GROUP, 0, 0, 0, 0);
    }
}

static lk_dl_gradient_stop gradient_stops[50][5], many_stops[20];
static double rasterized_bytes;   /* what the image path would upload per frame */

static void scene_f(int frame)
{
    double t = frame / 60.0;
    rasterized_bytes = 0;
    for (int i = 0; i < 50; i++) {
        double w = 160 + 60 * sin(t * 3 + i), h = 120 + 40 * cos(t * 2 + i);
        lk_dl_op *op = add(LK_DL_OP_GRADIENT, 0, 0, w, h);
        uint32_t n = 3 + (uint32_t)i % 3;
        for (uint32_t k = 0; k < n; k++) {
            lk_dl_gradient_stop *s = &gradient_stops[i][k];
            s->location = (double)k / (n - 1);
            s->color.r = (float)(0.5 + 0.5 * sin(t * 4 + i + k));
            s->color.g = (float)(0.5 + 0.5 * sin(t * 5 + 2 * i + k));
            s->color.b = (float)(0.5 + 0.5 * cos(t * 6 + i - k));
            s->color.a = 1.0f;
        }
        op->gradient_kind = 1 + (uint32_t)i % 3;
        op->gradient_stops = gradient_stops[i];
        op->gradient_stop_count = n;
        op->corner_radius = i % 2 ? 16 : 0;
        place(op, 120 + (i % 10) * 180, 110 + (i / 10) * 200, 0);
        op->gradient_start_x = op->rect.x + 0.2 * w;
        op->gradient_start_y = op->rect.y + 0.3 * h;
        op->gradient_end_x = op->rect.x + 0.9 * w;
        op->gradient_end_y = op->rect.y + 0.8 * h;
        rasterized_bytes += ceil(w) * ceil(h) * 4;
    }
}

static void scene_g(int frame)
{
    for (int k = 0; k < 20; k++) {
        many_stops[k].location = k / 19.0;
        many_stops[k].color.r = (float)(0.5 + 0.5 * sin(frame * 0.3 + k));
        many_stops[k].color.g = (float)((k / 2) % 2);
        many_stops[k].color.b = 0.5f;
        many_stops[k].color.a = 1.0f;
    }
    lk_dl_op *op = add(LK_DL_OP_GRADIENT, 0, 0, W, H);
    op->gradient_kind = LK_DL_GRADIENT_AXIAL;
    op->gradient_stops = many_stops;
    op->gradient_stop_count = 20;
    op->gradient_end_x = W;
    op->gradient_end_y = H;
}

static int make_context(void)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get) return 0;
    EGLDisplay d = get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, NULL, NULL) || !eglBindAPI(EGL_OPENGL_ES_API)) return 0;
    const EGLint attributes[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
    EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
    if (c == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) return 0;
    GLuint texture;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

int main(int argc, char **argv)
{
    int frames = 30;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--smoke") == 0) frames = 3;
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--smoke] [--frames N]\n", argv[0]);
            return 2;
        }
    }
    if (frames < 2) frames = 2;
    if (!make_context()) {
        printf("FAIL bench_gles: no surfaceless EGL context\n");
        return 1;
    }
    char error[512] = "";
    if (!(renderer = lkgl_renderer_create("bench", error, sizeof error))) {
        printf("FAIL bench_gles: %s\n", error);
        return 1;
    }
    printf("GLES renderer work per frame, %dx%d, %d frames per scene, on %s\n", W, H, frames,
           (const char *)glGetString(GL_RENDERER));
    for (int i = 0; i < 10; i++) full[i] = make_image(1 + (uint64_t)i, W, H, (uint32_t)i);
    for (int i = 0; i < 100; i++) tiles[i] = make_image(100 + (uint64_t)i, 256, 256, (uint32_t)i);
    for (int i = 0; i < 4; i++) shared[i] = make_image(300 + (uint64_t)i, 32, 32, (uint32_t)i);

    /* limits: one draw call per op of its own texture; static frames upload nothing; a
       shadowed group draws its content, two blur passes, the shadow and itself */
    limits a = { 10, 10, 10, 0, 0 }, b = { 100, 100, 100, 0, 0 }, c = { 1, 1, 0, 0, 0 },
           d = { 4, 4, 4, 0, 0 }, e = { 20 * 5, 20 * 5, 0, 0, 20 * 3 };
    run("(a) 10 full-screen image layers at 50% opacity", scene_a, frames, a);
    run("(b) 100 image layers 256x256 with alpha", scene_b, frames, b);
    run("(c) 1,000 animated solid layers (moving, turning, a third rounded)", scene_c, frames, c);
    run("(d) 1,000 animated image layers, 4 images in runs of 250", scene_d, frames, d);
    run("(e) 20 layers with blurred shadows", scene_e, frames, e);
    /* a gradient's stops are its own uniforms: one draw call each; no uploads at all */
    limits f = { 50, 50, 0, 0, 0 }, g = { 1, 1, 1, 1, 0 };
    run("(f) 50 gradient layers resized and recoloured every frame", scene_f, frames, f);
    printf("  the same frames as rasterized images (before GRADIENT ops): 50 uploads, %.1f MB per frame\n",
           rasterized_bytes / 1e6);
    run("(g) a full-screen gradient of 20 stops recoloured every frame (ramp texture)", scene_g, frames, g);
    printf("  (a 1024x1 ramp: 4 KB per upload; as a rasterized image: %.1f MB)\n", W * H * 4 / 1e6);

    lkgl_renderer_destroy(renderer);
    for (int i = 0; i < 10; i++) free((void *)full[i].pixels);
    for (int i = 0; i < 100; i++) free((void *)tiles[i].pixels);
    for (int i = 0; i < 4; i++) free((void *)shared[i].pixels);
    printf("bench_gles: %s\n", failures ? "a limit was not met" : "every count within its limit");
    return failures ? 1 : 0;
}
