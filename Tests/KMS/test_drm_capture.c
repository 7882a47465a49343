/*
 * What the drm backend puts on screen, captured by vkms's writeback
 * connector (the CRTC composes the planes and writes the result into a
 * buffer; read_pixels of a display on "Writeback-1" returns it), compared
 * with the software backend's rendering of the same scene, frame after
 * frame: with two and three buffers (damage redrawn by buffer age), and
 * turned by 90, 180 and 270 degrees in the renderer. Run once per render
 * path (LAYERKIT_DRM_PATH=gles, dumb: Tests/KMS/in-vm.sh).
 */
#define _POSIX_C_SOURCE 200809L
#include "kms_support.h"

#include <sys/mman.h>

/* Is the scanned-out buffer's pixel (u, v) the marker's red? Read from the
   CRTC's framebuffer through another file descriptor (root may map it). */
static int scanout_red_at(uint32_t u, uint32_t v, char *why, size_t why_size)
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
   reused buffer is then a few frames old. */
static void check_capture(const char *what, uint32_t rotation, int tolerance, long max_bad, int frames,
                          int read_every)
{
    char name[160];
    printf("-- %s\n", what);
    lk_display *drm = kms_open("drm", "Writeback-1", 0, 0, rotation);
    snprintf(name, sizeof name, "%s: opens on the writeback connector", what);
    if (!LKT_CHECK(drm != NULL, name, "NULL: %s", lk_last_error())) return;
    lk_size size = lk_display_get_size(drm);
    int sideways = rotation == 90 || rotation == 270;
    snprintf(name, sizeof name, "%s: lk_display_get_size is the mode %s", what, sideways ? "turned" : "as it is");
    LKT_CHECK(size.width == (sideways ? 768 : 1024) && size.height == (sideways ? 1024 : 768), name, "%s",
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
    if (rotation == 90) u = 1024 - 8;
    if (rotation == 180) { u = 1024 - 8; v = 768 - 8; }
    if (rotation == 270) v = 768 - 8;
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

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* The dumb path draws with the software renderer itself: equal frames.
       The GLES path (LAYERKIT_DRM_PATH=gles) is held to the cross-backend
       tolerance of the gles backend (Tests/GLES): channels within 8/255, at
       most 1 pixel in 2,000 beyond (all-or-nothing choices on edges). */
    const char *path = getenv("LAYERKIT_DRM_PATH");
    int gles = path && strcmp(path, "gles") == 0;
    int same = gles ? 8 : 0, turned = gles ? 8 : 1;
    long beyond = gles ? 1024L * 768 / 2000 : 0;
    if (getenv("KMS_CAPTURE_QUICK")) {
        /* a short run (llvmpipe on the emulated CPU takes seconds a frame):
           both buffers, then turned */
        check_capture("double buffered", 0, same, beyond, 3, 1);
        check_capture("rotation 90", 90, turned, beyond, 2, 1);
        return lkt_finish();
    }
    check_capture("double buffered", 0, same, beyond, 6, 1);
    check_capture("double buffered, frames back to back", 0, same, beyond, 9, 3);
    setenv("LAYERKIT_DRM_BUFFERS", "3", 1);
    check_capture("triple buffered, frames back to back", 0, same, beyond, 12, 4);
    unsetenv("LAYERKIT_DRM_BUFFERS");
    /* turned: the same shapes rasterized in another orientation (pixel
       centres map onto pixel centres, so only rounding may differ) */
    check_capture("rotation 90", 90, turned, beyond, 6, 2);
    check_capture("rotation 180", 180, turned, beyond, 6, 2);
    check_capture("rotation 270", 270, turned, beyond, 6, 2);
    return lkt_finish();
}
