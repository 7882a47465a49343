/*
 * The drm backend's choice of render path on vkms: when GBM + EGL + GLES
 * cannot start (Mesa finds no DRI driver: LIBGL_DRIVERS_PATH points
 * nowhere) the failure is reported and dumb buffers take over;
 * LAYERKIT_DRM_PATH=gles then fails saying why, =dumb is reported as
 * such, another value is refused. Prints the time from lk_display_open to
 * the first flip on dumb buffers. The GLES path itself, taken first where
 * Mesa is, is test_drm_gles.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include "kms_support.h"

/* Opens Virtual-1 with the environment as it is; the stderr of the open
   (the backend's log) into log. */
static lk_display *open_logged(char *log, size_t size)
{
    kms_capture c = kms_capture_begin();
    lk_display *d = kms_open("drm", "Virtual-1", 0, 0, 0);
    kms_capture_end(&c, log, size);
    return d;
}

/* Opens, draws and waits for the first flip: the time it took, or -1. */
static double first_flip(const char *label, char *log, size_t size)
{
    double t0 = kms_now();
    lk_display *d = open_logged(log, size);
    char name[160];
    snprintf(name, sizeof name, "%s: opens on Virtual-1", label);
    if (!LKT_CHECK(d != NULL, name, "%s", lk_last_error())) return -1;
    kms_scene scene = kms_scene_make(1024, 768);
    lk_display_set_root_layer(d, scene.root);
    lk_status s = lk_display_render_frame_at(d, 0);
    int shown = kms_wait_presented(d, 1);
    double t = kms_now() - t0;
    snprintf(name, sizeof name, "%s: the first frame flips", label);
    LKT_CHECK(s == LK_OK && shown, name, "status %s: %s", lkt_status_name(s), lk_last_error());
    /* a few more frames: flips go on */
    int failures = 0;
    for (int i = 1; i <= 10; i++) {
        kms_scene_move(&scene, 20 + i * 7, 600);
        if (lk_display_render_frame_at(d, i / 60.0) != LK_OK) failures++;
    }
    snprintf(name, sizeof name, "%s: ten more frames flip", label);
    LKT_CHECK(failures == 0 && kms_wait_presented(d, 11), name, "%d failed: %s", failures, lk_last_error());
    lk_display_close(d);
    lk_release(scene.root);
    return shown ? t : -1;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    static char log[16384];
    /* Mesa finds no DRI driver here: GBM cannot start (the GLES path
       itself is test_drm_gles.c's) */
    setenv("LIBGL_DRIVERS_PATH", "/nonexistent", 1);
    unsetenv("LAYERKIT_DRM_PATH");

    /* without Mesa (or its driver) the GLES path cannot start: why is
       reported, and dumb buffers take over */
    double fallback = first_flip("no Mesa driver", log, sizeof log);
    LKT_CHECK(strstr(log, "dumb buffers (2)") && strstr(log, "render path GBM + EGL + GLES: "),
              "no Mesa driver: the GLES path's failure is reported and dumb buffers are used", "log: %.800s", log);
    const char *why = strstr(log, "render path GBM + EGL + GLES: ");
    if (why) {
        const char *end = strchr(why, '\n');
        printf("figure: without a DRI driver: %.*s\n", end ? (int)(end - why) : (int)strlen(why), why);
    }
    if (fallback >= 0) printf("figure: lk_display_open to the first flip, dumb buffers after the GLES path failed: %.1f ms\n",
                              fallback * 1e3);
    setenv("LAYERKIT_DRM_PATH", "gles", 1);
    lk_display *d = open_logged(log, sizeof log);
    if (d) lk_display_close(d);
    LKT_CHECK(d == NULL && strstr(lk_last_error(), "no render path works") &&
                  strstr(lk_last_error(), "GBM + EGL + GLES:"),
              "no Mesa driver and LAYERKIT_DRM_PATH=gles: open fails saying why", "%s",
              d ? "opened" : lk_last_error());

    /* forced to dumb buffers: the GLES path is reported as not tried */
    setenv("LAYERKIT_DRM_PATH", "dumb", 1);
    double dumb = first_flip("LAYERKIT_DRM_PATH=dumb", log, sizeof log);
    LKT_CHECK(strstr(log, "dumb buffers (2)") &&
                  strstr(log, "GBM + EGL + GLES: not tried (LAYERKIT_DRM_PATH=dumb)"),
              "LAYERKIT_DRM_PATH=dumb: dumb buffers, and the GLES path reported as not tried", "log: %.600s", log);
    if (dumb >= 0) printf("figure: lk_display_open to the first flip, dumb buffers: %.1f ms\n", dumb * 1e3);

    /* a value that is neither */
    setenv("LAYERKIT_DRM_PATH", "vulkan", 1);
    d = open_logged(log, sizeof log);
    if (d) lk_display_close(d);
    LKT_CHECK(d == NULL && strstr(lk_last_error(), "LAYERKIT_DRM_PATH=vulkan: expected gles or dumb"),
              "LAYERKIT_DRM_PATH=vulkan is refused by name", "%s", d ? "opened" : lk_last_error());
    unsetenv("LAYERKIT_DRM_PATH");
    return lkt_finish();
}
