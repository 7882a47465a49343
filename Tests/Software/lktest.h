/*
 * Helpers for the software backend's plugin tests: load the plugin named by
 * $LKTEST_PLUGIN with dlopen, build display lists by hand, read pixels back
 * and compare them with values computed independently here (4x4 matrices,
 * exact or supersampled coverage, the OVER formula).
 *
 * Each check prints "PASS <name>" or "FAIL <name>: <reason>"; the program
 * exits non-zero when any check failed. Written in the common subset of C99
 * and C++17 (no designated initializers, casts on malloc).
 */
#ifndef LKTEST_H
#define LKTEST_H

/* setenv and unsetenv (lkt_open_way): include this header first */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layerkit/layerkit_backend.h"

#define LKT_PI 3.14159265358979323846

/* ------------------------------------------------------------------------ */
/* Check bookkeeping                                                         */

typedef struct lkt_state {
    int passed, failed;
    const char *name;
    char reason[1024];
} lkt_state;

static inline lkt_state *lkt(void)
{
    static lkt_state state;
    return &state;
}

static inline void lkt_begin(const char *name)
{
    lkt()->name = name;
    lkt()->reason[0] = '\0';
}

/* Records the first failure of the current check. */
static inline void lkt_fail(const char *format, ...)
{
    lkt_state *s = lkt();
    if (s->reason[0]) return;
    va_list args;
    va_start(args, format);
    vsnprintf(s->reason, sizeof s->reason, format, args);
    va_end(args);
    if (!s->reason[0]) snprintf(s->reason, sizeof s->reason, "failed");
}

static inline int lkt_end(void)
{
    lkt_state *s = lkt();
    if (s->reason[0]) {
        printf("FAIL %s: %s\n", s->name, s->reason);
        s->failed++;
    } else {
        printf("PASS %s\n", s->name);
        s->passed++;
    }
    fflush(stdout);
    return s->reason[0] ? 0 : 1;
}

static inline int lkt_exit_code(void)
{
    fprintf(stderr, "%d passed, %d failed\n", lkt()->passed, lkt()->failed);
    return lkt()->failed ? 1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Loading the plugin                                                        */

typedef struct lkt_host_record {
    int frames_done;
    uint64_t last_frame;
    double last_time;
    char last_log[512];
} lkt_host_record;

static inline void lkt_host_log(void *data, uint32_t level, const char *message)
{
    lkt_host_record *r = (lkt_host_record *)data;
    (void)level;
    snprintf(r->last_log, sizeof r->last_log, "%s", message);
}

/* The number before `label` (" sprites,", " bands drawn by band workers")
   in a log line, such as a software instance's closing log; -1 when it is
   not there. */
static inline long logged_count(const char *log, const char *label)
{
    const char *p = strstr(log, label);
    if (!p) return -1;
    while (p > log && p[-1] >= '0' && p[-1] <= '9') p--;
    return strtol(p, NULL, 10);
}

static inline void lkt_host_frame_done(void *data, uint64_t frame, double time)
{
    lkt_host_record *r = (lkt_host_record *)data;
    r->frames_done++;
    r->last_frame = frame;
    r->last_time = time;
}

static inline lk_backend_host lkt_host(lkt_host_record *record)
{
    lk_backend_host h;
    memset(&h, 0, sizeof h);
    h.abi_version = LK_BACKEND_ABI_VERSION;
    h.struct_size = sizeof h;
    h.host_data = record;
    h.log = lkt_host_log;
    h.frame_done = lkt_host_frame_done;
    return h;
}

/* The backend under test: $LKTEST_BACKEND, "software" when unset. The same
   tests run on every backend that draws into memory-readable frames; only
   its name, its output's name and the prefix of its messages differ. */
static inline const char *lkt_backend_name(void)
{
    const char *name = getenv("LKTEST_BACKEND");
    return name && *name ? name : "software";
}

static inline const char *lkt_output_name(void)
{
    return strcmp(lkt_backend_name(), "gles") == 0 ? "offscreen" : "memory";
}

/* The plugin's entry point, or NULL after printing why. */
static inline lk_backend_entry_fn lkt_load_entry(void)
{
    const char *path = getenv("LKTEST_PLUGIN");
    if (!path || !*path) {
        fprintf(stderr, "LKTEST_PLUGIN is not set (path to liblayerkit-%s.so)\n", lkt_backend_name());
        return NULL;
    }
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
        return NULL;
    }
    void *symbol = dlsym(handle, LK_BACKEND_ENTRY_SYMBOL);
    if (!symbol) {
        fprintf(stderr, "%s has no %s\n", path, LK_BACKEND_ENTRY_SYMBOL);
        return NULL;
    }
    /* Object pointer to function pointer: memcpy is valid in both C and C++. */
    lk_backend_entry_fn entry;
    memcpy(&entry, &symbol, sizeof entry);
    return entry;
}

static inline const lk_backend *lkt_load(void)
{
    lk_backend_entry_fn entry = lkt_load_entry();
    return entry ? entry(LK_BACKEND_ABI_VERSION) : NULL;
}

static inline lk_backend_instance *lkt_open(const lk_backend *b, const lk_backend_host *host,
                                            uint32_t width, uint32_t height)
{
    lk_backend_open_options o;
    char error[256] = "";
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.width = width;
    o.height = height;
    lk_backend_instance *inst = b->open(host, &o, error, sizeof error);
    if (!inst) fprintf(stderr, "open %ux%u failed: %s\n", width, height, error);
    return inst;
}

/* An instance opened with one environment variable set (value NULL: unset)
   while it opens, its host's log recorded. Keep it where it is once
   opened: its host points at its record. */
typedef struct lkt_way {
    lk_backend_instance *inst;
    lkt_host_record record;
    lk_backend_host host;
} lkt_way;

static inline int lkt_open_way(const lk_backend *b, lkt_way *w, uint32_t width, uint32_t height,
                               const char *variable, const char *value)
{
    memset(w, 0, sizeof *w);
    w->host = lkt_host(&w->record);
    if (variable && value) setenv(variable, value, 1);
    else if (variable) unsetenv(variable);
    w->inst = lkt_open(b, &w->host, width, height);
    if (variable) unsetenv(variable);
    return w->inst != NULL;
}

/* ------------------------------------------------------------------------ */
/* Building display lists                                                    */

static inline lk_dl_color lkt_color(float r, float g, float b, float a)
{
    lk_dl_color c;
    c.r = r; c.g = g; c.b = b; c.a = a;
    return c;
}

static inline lk_dl_rect lkt_rect(double x, double y, double w, double h)
{
    lk_dl_rect r;
    r.x = x; r.y = y; r.width = w; r.height = h;
    return r;
}

static inline void lkt_identity(double m[16])
{
    memset(m, 0, 16 * sizeof m[0]);
    m[0] = m[5] = m[10] = m[15] = 1.0;
}

static inline lk_dl_op lkt_op(uint32_t kind, double x, double y, double w, double h)
{
    lk_dl_op op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.flags = LK_DL_FLAG_ANTIALIAS;
    lkt_identity(op.transform);
    op.rect = lkt_rect(x, y, w, h);
    op.opacity = 1.0f;
    return op;
}

static inline lk_dl_op lkt_fill(double x, double y, double w, double h, lk_dl_color c)
{
    lk_dl_op op = lkt_op(LK_DL_OP_FILL, x, y, w, h);
    op.color = c;
    return op;
}

static inline lk_display_list lkt_list(const lk_dl_op *ops, uint32_t count, uint32_t width,
                                       uint32_t height, lk_dl_color clear)
{
    lk_display_list l;
    memset(&l, 0, sizeof l);
    l.abi_version = LK_BACKEND_ABI_VERSION;
    l.struct_size = sizeof l;
    l.op_size = sizeof(lk_dl_op);
    l.op_count = count;
    l.ops = ops;
    l.clear_color = clear;
    l.damage.width = (int32_t)width;
    l.damage.height = (int32_t)height;
    return l;
}

/* An image whose pixels the caller fills (ARGB32 premultiplied). */
typedef struct lkt_image {
    lk_dl_image image;
    uint32_t *pixels;
} lkt_image;

/* An image over `pixels` (premultiplied ARGB32, width x height, packed). */
static inline lkt_image lkt_image_wrap(uint64_t id, uint32_t *pixels, uint32_t width, uint32_t height)
{
    lkt_image i;
    memset(&i, 0, sizeof i);
    i.pixels = pixels;
    i.image.id = id;
    i.image.generation = 1;
    i.image.width = width;
    i.image.height = height;
    i.image.stride = width * 4;
    i.image.format = LK_DL_FORMAT_ARGB32_PREMULTIPLIED;
    i.image.pixels = pixels;
    return i;
}

static inline lkt_image lkt_image_new(uint64_t id, uint32_t width, uint32_t height)
{
    return lkt_image_wrap(id, (uint32_t *)calloc((size_t)width * height, 4), width, height);
}

static inline uint32_t lkt_argb(unsigned a, unsigned r, unsigned g, unsigned b)
{
    return (uint32_t)a << 24 | (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
}

/* ------------------------------------------------------------------------ */
/* Rendering and reading back                                                */

typedef struct lkt_frame {
    uint32_t width, height;
    uint32_t *pixels;
} lkt_frame;

/* Renders list and reads the frame back; on failure records the error. */
static inline int lkt_render(const lk_backend *b, lk_backend_instance *inst,
                             const lk_display_list *list, lkt_frame *frame)
{
    char error[512] = "";
    if (!b->render(inst, list, error, sizeof error)) {
        lkt_fail("render failed: %s", error);
        return 0;
    }
    if (!b->read_pixels(inst, frame->pixels, frame->width * 4, error, sizeof error)) {
        lkt_fail("read_pixels failed: %s", error);
        return 0;
    }
    return 1;
}

static inline lkt_frame lkt_frame_new(uint32_t width, uint32_t height)
{
    lkt_frame f;
    f.width = width;
    f.height = height;
    f.pixels = (uint32_t *)calloc((size_t)width * height, 4);
    return f;
}

static inline uint32_t lkt_pixel(const lkt_frame *f, int x, int y)
{
    return f->pixels[(size_t)y * f->width + (size_t)x];
}

/* Whether got has want's pixels, exactly, inside box (x, y, width,
   height); on the first that differs records the failure, `what` saying
   how got was drawn. */
static inline int lkt_same_pixels(const lkt_frame *got, const lkt_frame *want, lk_dl_box box, const char *what)
{
    for (int y = box.y; y < box.y + box.height; y++)
        for (int x = box.x; x < box.x + box.width; x++)
            if (lkt_pixel(got, x, y) != lkt_pixel(want, x, y)) {
                lkt_fail("pixel (%d, %d) is %08x %s, %08x expected", x, y, (unsigned)lkt_pixel(got, x, y), what,
                         (unsigned)lkt_pixel(want, x, y));
                return 0;
            }
    return 1;
}

/* The same over the whole frame. */
static inline int lkt_same_frame(const lkt_frame *got, const lkt_frame *want, const char *what)
{
    lk_dl_box all = { 0, 0, (int32_t)want->width, (int32_t)want->height };
    return lkt_same_pixels(got, want, all, what);
}

/* S6.4: list drawn again under damage box (after a blank frame, so that
   nothing of an earlier frame stays) gives whole's pixels inside it: the
   same pixel whatever damage box draws it. 0, the failure recorded, when
   it does not or a render fails. */
static inline int lkt_redrawn_as_whole(const lk_backend *b, lk_backend_instance *inst, lk_display_list list,
                                       lk_dl_box box, const lkt_frame *whole, lkt_frame *frame)
{
    lk_display_list blank = lkt_list(list.ops, 0, whole->width, whole->height, lkt_color(0, 0, 0, 1));
    list.damage = box;
    if (!lkt_render(b, inst, &blank, frame) || !lkt_render(b, inst, &list, frame)) return 0;
    char what[96];
    snprintf(what, sizeof what, "redrawn under damage (%d,%d %dx%d), as in the whole frame", box.x, box.y,
             box.width, box.height);
    return lkt_same_pixels(frame, whole, box, what);
}

/* Expected premultiplied channels, 0..255 as doubles. */
typedef struct lkt_rgba { double a, r, g, b; } lkt_rgba;

static inline lkt_rgba lkt_rgba_of(lk_dl_color c)
{
    lkt_rgba v;
    v.a = c.a * 255.0; v.r = c.r * 255.0; v.g = c.g * 255.0; v.b = c.b * 255.0;
    return v;
}

/* Premultiplied OVER: src + dst * (1 - src.a). */
static inline lkt_rgba lkt_over(lkt_rgba src, lkt_rgba dst)
{
    double k = 1.0 - src.a / 255.0;
    lkt_rgba v;
    v.a = src.a + dst.a * k; v.r = src.r + dst.r * k;
    v.g = src.g + dst.g * k; v.b = src.b + dst.b * k;
    return v;
}

static inline lkt_rgba lkt_scale(lkt_rgba c, double f)
{
    lkt_rgba v;
    v.a = c.a * f; v.r = c.r * f; v.g = c.g * f; v.b = c.b * f;
    return v;
}

/* Fails the current check when any channel of pixel (x, y) is more than
   tolerance away from expected, beyond the unavoidable rounding to 8 bits
   (0.5): tolerance 0 means "exactly the rounded value". */
static inline int lkt_expect(const lkt_frame *f, int x, int y, lkt_rgba expected, double tolerance,
                             const char *what)
{
    uint32_t p = lkt_pixel(f, x, y);
    double got[4] = { (double)(p >> 24), (double)((p >> 16) & 255), (double)((p >> 8) & 255),
                      (double)(p & 255) };
    double want[4] = { expected.a, expected.r, expected.g, expected.b };
    for (int i = 0; i < 4; i++) {
        if (fabs(got[i] - want[i]) > tolerance + 0.5) {
            lkt_fail("%s: pixel (%d,%d) is argb(%g,%g,%g,%g), expected argb(%.1f,%.1f,%.1f,%.1f) "
                     "within %.1f", what, x, y, got[0], got[1], got[2], got[3],
                     want[0], want[1], want[2], want[3], tolerance);
            return 0;
        }
    }
    return 1;
}

static inline double lkt_alpha(const lkt_frame *f, int x, int y)
{
    return (double)(lkt_pixel(f, x, y) >> 24);
}

/* ------------------------------------------------------------------------ */
/* Independent geometry: 4x4 row-vector matrices (Core Animation layout)     */

typedef struct lkt_mat { double m[16]; } lkt_mat;

static inline lkt_mat lkt_mat_identity(void)
{
    lkt_mat r;
    lkt_identity(r.m);
    return r;
}

/* a then b: p * a * b */
static inline lkt_mat lkt_mat_mul(lkt_mat a, lkt_mat b)
{
    lkt_mat r;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++) s += a.m[i * 4 + k] * b.m[k * 4 + j];
            r.m[i * 4 + j] = s;
        }
    return r;
}

static inline lkt_mat lkt_translate(double x, double y, double z)
{
    lkt_mat r = lkt_mat_identity();
    r.m[12] = x; r.m[13] = y; r.m[14] = z;
    return r;
}

static inline lkt_mat lkt_scale_mat(double sx, double sy)
{
    lkt_mat r = lkt_mat_identity();
    r.m[0] = sx; r.m[5] = sy;
    return r;
}

/* CATransform3DMakeRotation(angle, 0, 0, 1) */
static inline lkt_mat lkt_rotate_z(double angle)
{
    lkt_mat r = lkt_mat_identity();
    r.m[0] = cos(angle); r.m[1] = sin(angle);
    r.m[4] = -sin(angle); r.m[5] = cos(angle);
    return r;
}

/* CATransform3DMakeRotation(angle, 1, 0, 0) */
static inline lkt_mat lkt_rotate_x(double angle)
{
    lkt_mat r = lkt_mat_identity();
    r.m[5] = cos(angle); r.m[6] = sin(angle);
    r.m[9] = -sin(angle); r.m[10] = cos(angle);
    return r;
}

/* CATransform3DMakeRotation(angle, 0, 1, 0) */
static inline lkt_mat lkt_rotate_y(double angle)
{
    lkt_mat r = lkt_mat_identity();
    r.m[0] = cos(angle); r.m[2] = -sin(angle);
    r.m[8] = sin(angle); r.m[10] = cos(angle);
    return r;
}

/* identity with m34 = -1 / distance */
static inline lkt_mat lkt_perspective(double distance)
{
    lkt_mat r = lkt_mat_identity();
    r.m[11] = -1.0 / distance;
    return r;
}

/* [x y 0 1] * m, divided by w; returns w. */
static inline double lkt_project(lkt_mat m, double x, double y, double *ox, double *oy)
{
    double v[4];
    for (int j = 0; j < 4; j++) v[j] = x * m.m[j] + y * m.m[4 + j] + m.m[12 + j];
    *ox = v[0] / v[3];
    *oy = v[1] / v[3];
    return v[3];
}

static inline void lkt_set_transform(lk_dl_op *op, lkt_mat m)
{
    memcpy(op->transform, m.m, sizeof m.m);
}

/* Exact fraction of pixel (px, py) inside a convex polygon of at most 16
   points (either winding): clip it to the pixel square, take the area. */
static inline double lkt_polygon_coverage(const double *xs, const double *ys, int n, int px, int py)
{
    double ax[24], ay[24], bx[24], by[24];
    int count = n;
    for (int i = 0; i < n; i++) { ax[i] = xs[i]; ay[i] = ys[i]; }
    for (int side = 0; side < 4; side++) {
        int m = 0;
        for (int i = 0; i < count; i++) {
            int j = (i + 1) % count;
            /* inside: x >= px, x <= px + 1, y >= py, y <= py + 1 */
            double fi, fj;
            switch (side) {
            case 0: fi = ax[i] - px; fj = ax[j] - px; break;
            case 1: fi = px + 1 - ax[i]; fj = px + 1 - ax[j]; break;
            case 2: fi = ay[i] - py; fj = ay[j] - py; break;
            default: fi = py + 1 - ay[i]; fj = py + 1 - ay[j]; break;
            }
            if (fi >= 0) { bx[m] = ax[i]; by[m] = ay[i]; m++; }
            if ((fi >= 0) != (fj >= 0)) {
                double t = fi / (fi - fj);
                bx[m] = ax[i] + (ax[j] - ax[i]) * t;
                by[m] = ay[i] + (ay[j] - ay[i]) * t;
                m++;
            }
        }
        count = m;
        for (int i = 0; i < count; i++) { ax[i] = bx[i]; ay[i] = by[i]; }
    }
    double area = 0;
    for (int i = 0; i < count; i++) {
        int j = (i + 1) % count;
        area += ax[i] * ay[j] - ax[j] * ay[i];
    }
    return fabs(area) / 2;
}

static inline int lkt_in_rounded_rect(double x, double y, double x0, double y0, double x1,
                                      double y1, double r)
{
    if (x < x0 || x >= x1 || y < y0 || y >= y1) return 0;
    double cx = x < x0 + r ? x0 + r : (x > x1 - r ? x1 - r : x);
    double cy = y < y0 + r ? y0 + r : (y > y1 - r ? y1 - r : y);
    return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r;
}

/* Fraction of pixel (px, py) inside the outer rounded rect and outside the
   inner one (pass inner_r < 0 for no inner shape), by 64x64 supersampling
   (within about 0.01 of the exact area). */
static inline double lkt_rounded_coverage(int px, int py, double x0, double y0, double x1, double y1,
                                          double r, double inset, double inner_r)
{
    int inside = 0;
    for (int j = 0; j < 64; j++) {
        for (int i = 0; i < 64; i++) {
            double x = px + (i + 0.5) / 64.0, y = py + (j + 0.5) / 64.0;
            if (!lkt_in_rounded_rect(x, y, x0, y0, x1, y1, r)) continue;
            if (inner_r >= 0 &&
                lkt_in_rounded_rect(x, y, x0 + inset, y0 + inset, x1 - inset, y1 - inset, inner_r))
                continue;
            inside++;
        }
    }
    return inside / 4096.0;
}

#endif /* LKTEST_H */
