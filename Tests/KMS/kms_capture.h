/*
 * The KMS tests' capture check, for either render path: what the drm
 * backend puts on screen, captured by vkms's writeback connector (the CRTC
 * composes the planes and writes the result into a buffer; read_pixels of a
 * display on "Writeback-1" returns it), compared with the software
 * backend's rendering of the same scene, frame after frame. Used by
 * test_drm_capture.c and test_drm_gles.c.
 */
#ifndef KMS_CAPTURE_H
#define KMS_CAPTURE_H

#include "kms_support.h"

#include <sys/mman.h>

/* Is the scanned-out buffer's pixel (u, v) the marker's red? Read from the
   CRTC's framebuffer through another file descriptor (root may map it). */
static inline int scanout_red_at(uint32_t u, uint32_t v, char *why, size_t why_size)
{
    int fd = kms_open_observer(), red = 0;
    drmModeCrtc *crtc = kms_crtc(fd);
    drmModeFBPtr fb = crtc ? drmModeGetFB(fd, crtc->buffer_id) : NULL;
    struct drm_mode_map_dumb map;
    memset(&map, 0, sizeof map);
    map.handle = fb ? fb->handle : 0;
    if (!fb || !fb->handle || drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map) != 0) {
        snprintf(why, why_size, "cannot map the scanned-out framebuffer");
    } else {
        size_t size = (size_t)fb->pitch * fb->height;
        void *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, (off_t)map.offset);
        if (p != MAP_FAILED) {
            uint32_t px = ((const uint32_t *)((const uint8_t *)p + (size_t)v * fb->pitch))[u];
            red = (px & 0xffffff) == 0xff0000;
            snprintf(why, why_size, "pixel (%u,%u) of the %ux%u scanout buffer is %06x", u, v, fb->width,
                     fb->height, px & 0xffffff);
            munmap(p, size);
        }
        drmCloseBufferHandle(fd, fb->handle);
    }
    drmModeFreeFB(fb);
    drmModeFreeCrtc(crtc);
    close(fd);
    return red;
}

/* Renders `frames` frames of the scene on both backends, comparing every
   `read_every`-th: frames drawn back to back go into buffers in turn, so a
   reused buffer is then a few frames old. The output is Writeback-1 in mode
   mw x mh (0 x 0: its preferred one, 1024x768), turned by rotation. */
static inline void kms_check_capture(const char *what, uint32_t mw, uint32_t mh, uint32_t rotation, int tolerance,
                                     long max_bad, int frames, int read_every)
{
    char name[200];
    printf("-- %s\n", what);
    int sideways = rotation == 90 || rotation == 270;
    uint32_t ew = mw ? mw : 1024, eh = mh ? mh : 768;   /* the mode */
    static char log[8192];
    kms_capture c = kms_capture_begin();
    lk_display *drm = kms_open("drm", "Writeback-1", sideways ? mh : mw, sideways ? mw : mh, rotation);
    kms_capture_end(&c, log, sizeof log);
    snprintf(name, sizeof name, "%s: opens on the writeback connector", what);
    if (!LKT_CHECK(drm != NULL, name, "NULL: %s", lk_last_error())) return;
    if (rotation) {
        /* vkms (Linux 6.1) has no rotation property on its planes */
        snprintf(name, sizeof name, "%s: turned by the renderer, the plane having no rotation property", what);
        char expected[96];
        snprintf(expected, sizeof expected, "rotation %u by the renderer (the plane has no rotation property)",
                 rotation);
        LKT_CHECK(strstr(log, expected) != NULL, name, "log: %.600s", log);
    }
    lk_size size = lk_display_get_size(drm);
    snprintf(name, sizeof name, "%s: lk_display_get_size is the mode %s", what, sideways ? "turned" : "as it is");
    LKT_CHECK(size.width == (sideways ? eh : ew) && size.height == (sideways ? ew : eh), name, "%s",
              lkt_fmt_size(size));
    lk_display *sw = kms_open("software", NULL, (uint32_t)size.width, (uint32_t)size.height, 0);
    if (!sw) {
        LKT_CHECK(0, "software display of the same size", "%s", lk_last_error());
        lk_display_close(drm);
        return;
    }
    kms_scene a = kms_scene_make(size.width, size.height), b = kms_scene_make(size.width, size.height);
    lk_display_set_root_layer(drm, a.root);
    lk_display_set_root_layer(sw, b.root);

    long worst_bad = 0;
    int worst = 0, frames_ok = 0, compared = 0;
    char where[256] = "", frame_where[160];
    for (int i = 0; i < frames; i++) {
        /* the mover jumps about, so the damage of reused buffers matters */
        double x = 30 + (i * 97) % 300, y = size.height - 120 + (i % 3) * 20;
        kms_scene_move(&a, x, y);
        kms_scene_move(&b, x, y);
        lk_status s1 = lk_display_render_frame_at(drm, i / 60.0);
        lk_status s2 = lk_display_render_frame_at(sw, i / 60.0);
        if ((i + 1) % read_every != 0 && s1 == LK_OK && s2 == LK_OK) continue;
        compared++;
        uint8_t *pa = s1 == LK_OK ? kms_read(drm) : NULL, *pb = s2 == LK_OK ? kms_read(sw) : NULL;
        if (pa && pb) {
            int w = 0;
            long bad = kms_differences(pa, pb, (uint32_t)size.width, (uint32_t)size.height, tolerance, &w,
                                       frame_where, sizeof frame_where);
            if (bad > worst_bad || w > worst) snprintf(where, sizeof where, "frame %d: %s", i, frame_where);
            if (bad > worst_bad) worst_bad = bad;
            if (w > worst) worst = w;
            if (bad <= max_bad) frames_ok++;
        } else {
            snprintf(where, sizeof where, "frame %d: render or read failed: %s", i, lk_last_error());
        }
        free(pa);
        free(pb);
    }
    snprintf(name, sizeof name,
             "%s: writeback capture equals the software backend's frame, %d of %d frames compared "
             "(channels within %d, at most %ld pixels beyond)", what, compared, frames, tolerance, max_bad);
    LKT_CHECK(frames_ok == compared, name, "%d of %d frames matched; worst: %ld pixels, largest difference %d at %s",
              frames_ok, compared, worst_bad, worst, where);
    printf("figure: %s: largest channel difference %d, at most %ld pixels beyond %d\n", what, worst, worst_bad,
           tolerance);

    /* the marker (the program's top left corner) in the scanout buffer */
    uint32_t u = 8, v = 8;
    if (rotation == 90) u = ew - 8;
    if (rotation == 180) { u = ew - 8; v = eh - 8; }
    if (rotation == 270) v = eh - 8;
    char why[160];
    snprintf(name, sizeof name, "%s: the top left corner is at scanout (%u,%u)", what, u, v);
    LKT_CHECK(scanout_red_at(u, v, why, sizeof why), name, "%s", why);

    /* hit testing is in the program's (turned) space too */
    snprintf(name, sizeof name, "%s: hit testing at the top left corner finds the marker", what);
    LKT_CHECK(lk_layer_hit_test(a.root, lk_point_make(8, 8)) == a.marker &&
                  lk_layer_hit_test(a.root, lk_point_make(size.width - 8, 8)) != a.marker,
              name, "hit test did not find the marker at (8,8) only");

    lk_display_close(drm);
    lk_display_close(sw);
    lk_release(a.root);
    lk_release(b.root);
}

#endif
