/*
 * Helpers of the KMS tests, which run inside the test VM on vkms (see
 * Tests/KMS/run.sh): opening displays, a test scene, waiting for flips,
 * comparing frames, and looking at the device from a second file
 * descriptor, as another program would.
 */
#ifndef KMS_SUPPORT_H
#define KMS_SUPPORT_H

#include "lktest.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static inline double kms_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static inline void kms_sleep(double seconds)
{
    struct timespec t;
    t.tv_sec = (time_t)seconds;
    t.tv_nsec = (long)((seconds - (double)t.tv_sec) * 1e9);
    while (nanosleep(&t, &t) != 0) {}
}

static inline lk_display *kms_open(const char *backend, const char *connector, uint32_t w, uint32_t h,
                            uint32_t rotation)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = backend;
    o.connector = connector;
    o.width = w;
    o.height = h;
    o.rotation = rotation;
    o.manual_clock = true;
    return lk_display_open(&o);
}

static inline uint64_t kms_presented(lk_display *d)
{
    lk_display_stats st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    lk_display_get_stats(d, &st);
    return st.frames_presented;
}

/* Waits (up to a second) until the display has presented `count` frames. */
static inline int kms_wait_presented(lk_display *d, uint64_t count)
{
    double end = kms_now() + 1.0;
    while (kms_presented(d) < count && kms_now() < end) kms_sleep(0.0005);
    return kms_presented(d) >= count;
}

/* The test scene on a w x h root: a backdrop, a rounded bordered card, a
   turned square (anti-aliased edges), a small marker in the top left corner
   and a mover whose x follows *mover. */
typedef struct kms_scene { lk_layer *root, *mover, *marker; } kms_scene;

static inline kms_scene kms_scene_make(double w, double h)
{
    kms_scene s;
    lk_layer *card, *turned;
    s.root = lkt_layer_new(NULL, 0, 0, w, h, lk_color_make(0.10, 0.12, 0.20, 1));
    card = lkt_layer_new(s.root, w * 0.1, h * 0.15, w * 0.5, h * 0.45, lk_color_make(1.0, 0.55, 0.10, 1));
    lk_layer_set_corner_radius(card, 24);
    lk_layer_set_border_width(card, 5);
    lk_layer_set_border_color(card, lk_color_make(1, 1, 1, 1));
    turned = lkt_layer_new(s.root, w * 0.65, h * 0.55, 120, 90, lk_color_make(0.2, 0.8, 0.4, 0.8));
    lk_layer_set_transform(turned, lk_transform3d_make_rotation(0.4, 0, 0, 1));
    s.marker = lkt_layer_new(s.root, 0, 0, 16, 16, lk_color_make(1, 0, 0, 1));
    s.mover = lkt_layer_new(s.root, 20, h - 60, 40, 40, lk_color_make(0.3, 0.6, 1.0, 1));
    return s;
}

/* Moves the mover without an animation. */
static inline void kms_scene_move(kms_scene *s, double x, double y)
{
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_position(s->mover, lk_point_make(x + 20, y + 20));
    lk_transaction_commit();
}

/* RGBA8 of the display's last frame (free with free()), or NULL. */
static inline uint8_t *kms_read(lk_display *d)
{
    lk_size size = lk_display_get_size(d);
    size_t bytes = (size_t)size.width * (size_t)size.height * 4;
    uint8_t *px = (uint8_t *)malloc(bytes);
    if (px && lk_display_read_pixels(d, px, (size_t)size.width * 4) != LK_OK) {
        free(px);
        return NULL;
    }
    return px;
}

/* How many pixels of a and b (w x h RGBA8) differ by more than tolerance in
   some channel; the largest difference in *worst. */
static inline long kms_differences(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, int tolerance,
                            int *worst, char *where, size_t where_size)
{
    long bad = 0;
    *worst = 0;
    where[0] = 0;
    for (size_t i = 0; i < (size_t)w * h; i++)
        for (int c = 0; c < 4; c++) {
            int d = abs((int)a[i * 4 + c] - (int)b[i * 4 + c]);
            if (d > *worst) {
                *worst = d;
                snprintf(where, where_size, "(%u,%u) %u,%u,%u,%u vs %u,%u,%u,%u", (unsigned)(i % w),
                         (unsigned)(i / w), a[i * 4], a[i * 4 + 1], a[i * 4 + 2], a[i * 4 + 3], b[i * 4],
                         b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]);
            }
            if (d > tolerance) { bad++; break; }
        }
    return bad;
}

/* A second, unprivileged look at the device, as another program has it. */
static inline int kms_open_observer(void)
{
    int fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
    if (fd >= 0) {
        drmDropMaster(fd);   /* the first opener of a device becomes its master */
        drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
        drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
        drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
    }
    return fd;
}

/* The first CRTC's state as the observer sees it. */
static inline drmModeCrtc *kms_crtc(int fd)
{
    drmModeRes *res = drmModeGetResources(fd);
    drmModeCrtc *c = res && res->count_crtcs ? drmModeGetCrtc(fd, res->crtcs[0]) : NULL;
    drmModeFreeResources(res);
    return c;
}

/* What the library writes on stderr while a test looks: logs, say which
   render path was taken and why the others were not. */
typedef struct kms_capture { int saved, file; } kms_capture;
static inline kms_capture kms_capture_begin(void)
{
    kms_capture c;
    char path[] = "/tmp/kmscaptureXXXXXX";
    fflush(NULL);
    c.file = mkstemp(path);
    unlink(path);
    c.saved = dup(2);
    dup2(c.file, 2);
    return c;
}
/* Stops capturing; the text captured in buf (NUL-terminated). */
static inline void kms_capture_end(kms_capture *c, char *buf, size_t size)
{
    fflush(NULL);
    ssize_t n = pread(c->file, buf, size - 1, 0);
    buf[n > 0 ? n : 0] = 0;
    dup2(c->saved, 2);
    close(c->saved);
    close(c->file);
}

#endif
