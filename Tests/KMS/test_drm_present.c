/*
 * The drm backend on vkms: modeset and page flips (atomic and legacy),
 * frames at the mode's refresh rate, the time from lk_display_open to the
 * first flip, the previous mode put back on close. On the path that
 * LAYERKIT_DRM_PATH names (Tests/KMS/in-vm.sh): dumb buffers, or GBM + EGL
 * + GLES, whose llvmpipe on the emulated CPU draws a frame in seconds:
 * there fewer frames, and only "never faster than the mode" is checked.
 */
#define _POSIX_C_SOURCE 200809L
#include "kms_support.h"

static int on_gles(void)
{
    const char *path = getenv("LAYERKIT_DRM_PATH");
    return path && strcmp(path, "gles") == 0;
}

static void check_default_output(void)
{
    int observer = kms_open_observer();
    drmModeCrtc *was = kms_crtc(observer);
    double t0 = kms_now();
    lk_display *d = kms_open("drm", NULL, 0, 0, 0);
    if (!LKT_CHECK(d != NULL, "drm display opens on vkms by default", "NULL: %s", lk_last_error())) return;
    kms_scene scene = kms_scene_make(1024, 768);
    lk_display_set_root_layer(d, scene.root);
    lk_status s = lk_display_render_frame_at(d, 0.0);
    int shown = kms_wait_presented(d, 1);
    double t1 = kms_now();
    LKT_CHECK(s == LK_OK && shown, "first frame flips", "status %s, presented %llu: %s", lkt_status_name(s),
              (unsigned long long)kms_presented(d), lk_last_error());
    printf("figure: lk_display_open to the first frame's flip: %.1f ms (the mode's frame is %.1f ms)\n",
           (t1 - t0) * 1e3, 1e3 / lk_display_get_refresh_rate(d));

    lk_size size = lk_display_get_size(d);
    LKT_CHECK(size.width == 1024 && size.height == 768, "default: the connector's preferred mode",
              "size %s", lkt_fmt_size(size));
    LKT_CHECK(strcmp(lk_display_get_backend_name(d), "drm") == 0, "backend name is drm", "%s",
              lk_display_get_backend_name(d));
    double rate = lk_display_get_refresh_rate(d);
    LKT_CHECK(rate > 59 && rate < 61, "refresh rate is the mode's", "%.3f Hz", rate);

    drmModeCrtc *crtc = kms_crtc(observer);
    LKT_CHECK(crtc && crtc->mode_valid && crtc->mode.hdisplay == 1024 && crtc->buffer_id != 0,
              "the CRTC scans out 1024x768 from our buffer", "crtc %p mode_valid %d fb %u", (void *)crtc,
              crtc ? crtc->mode_valid : -1, crtc ? crtc->buffer_id : 0);
    uint32_t first_fb = crtc ? crtc->buffer_id : 0;
    drmModeFreeCrtc(crtc);

    /* frames: the mover moves each frame, so each one is drawn and flipped;
       two frames first, so that both buffers have been drawn whole */
    const int frames = on_gles() ? 12 : 60;
    for (int i = 1; i <= 2; i++) {
        kms_scene_move(&scene, 20 + i * 3, 700);
        lk_display_render_frame_at(d, i / 60.0);
    }
    uint64_t before = kms_presented(d);
    double start = kms_now();
    int failures = 0;
    for (int i = 1; i <= frames; i++) {
        kms_scene_move(&scene, 26 + i * 3, 700);
        if (lk_display_render_frame_at(d, (i + 2) / 60.0) != LK_OK) failures++;
    }
    int all = kms_wait_presented(d, before + frames);
    double elapsed = kms_now() - start;
    double hz = frames / elapsed;
    LKT_CHECK(failures == 0 && all, "every frame is flipped", "%d failed renders, %llu of %d presented: %s",
              failures, (unsigned long long)(kms_presented(d) - before), frames, lk_last_error());
    /* paced by the flips: never faster than the mode (one frame in flight);
       slower when the emulated CPU misses a vblank */
    LKT_CHECK((on_gles() || hz > 15) && hz < 61,
              "one frame in flight: frames flip no faster than the mode's refresh rate",
              "%d frames in %.3f s = %.1f Hz", frames, elapsed, hz);
    printf("figure: %d flips in %.3f s = %.1f Hz (mode %.1f Hz)\n", frames, elapsed, hz, rate);

    kms_scene_move(&scene, 10, 700);   /* an odd number of flips in all */
    lk_display_render_frame_at(d, 1.0);
    kms_wait_presented(d, before + frames + 1);
    crtc = kms_crtc(observer);
    LKT_CHECK(crtc && crtc->buffer_id != 0 && crtc->buffer_id != first_fb,
              "page flips change the scanned-out buffer", "fb %u, first %u", crtc ? crtc->buffer_id : 0,
              first_fb);
    drmModeFreeCrtc(crtc);

    lk_display_close(d);
    crtc = kms_crtc(observer);
    LKT_CHECK(crtc && was && crtc->mode_valid == was->mode_valid && crtc->buffer_id == was->buffer_id &&
                  (!was->mode_valid || crtc->mode.hdisplay == was->mode.hdisplay),
              "close puts the CRTC back as it was (fbcon's mode, or off)",
              "mode_valid %d fb %u %ux%u, before %d fb %u %ux%u", crtc ? crtc->mode_valid : -1,
              crtc ? crtc->buffer_id : 0, crtc ? crtc->mode.hdisplay : 0, crtc ? crtc->mode.vdisplay : 0,
              was ? was->mode_valid : -1, was ? was->buffer_id : 0, was ? was->mode.hdisplay : 0,
              was ? was->mode.vdisplay : 0);
    drmModeFreeCrtc(crtc);
    drmModeFreeCrtc(was);
    close(observer);
    lk_release(scene.root);
}

static void check_legacy(void)
{
    setenv("LAYERKIT_DRM_ATOMIC", "0", 1);
    lk_display *d = kms_open("drm", "Virtual-1", 0, 0, 0);
    unsetenv("LAYERKIT_DRM_ATOMIC");
    if (!LKT_CHECK(d != NULL, "legacy modesetting opens (LAYERKIT_DRM_ATOMIC=0)", "NULL: %s", lk_last_error()))
        return;
    kms_scene scene = kms_scene_make(1024, 768);
    lk_display_set_root_layer(d, scene.root);
    int failures = 0;
    for (int i = 0; i < 10; i++) {
        kms_scene_move(&scene, 20 + i * 5, 600);
        if (lk_display_render_frame_at(d, i / 60.0) != LK_OK) failures++;
    }
    LKT_CHECK(failures == 0 && kms_wait_presented(d, 10), "legacy page flips with events",
              "%d failed, %llu presented: %s", failures, (unsigned long long)kms_presented(d), lk_last_error());
    lk_display_close(d);
    lk_release(scene.root);
}

/* Another program's mode is on screen before we open; it is back after. */
static void check_restore(void)
{
    int fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
    drmModeRes *res = drmModeGetResources(fd);
    drmModeConnector *conn = NULL;
    for (int i = 0; res && i < res->count_connectors && !conn; i++) {
        conn = drmModeGetConnector(fd, res->connectors[i]);
        if (conn && conn->connection != DRM_MODE_CONNECTED) { drmModeFreeConnector(conn); conn = NULL; }
    }
    drmModeModeInfo *mode = NULL;
    for (int m = 0; conn && m < conn->count_modes && !mode; m++)
        if (conn->modes[m].hdisplay == 800 && conn->modes[m].vdisplay == 600) mode = &conn->modes[m];
    struct drm_mode_create_dumb create;
    memset(&create, 0, sizeof create);
    create.width = 800;
    create.height = 600;
    create.bpp = 32;
    uint32_t fb = 0;
    int ok = res && conn && mode && drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) == 0 &&
             drmModeAddFB(fd, 800, 600, 24, 32, create.pitch, create.handle, &fb) == 0 &&
             drmModeSetCrtc(fd, res->crtcs[0], fb, 0, 0, &conn->connector_id, 1, mode) == 0;
    if (LKT_CHECK(ok, "another program sets 800x600", "setup failed") && drmDropMaster(fd) == 0) {
        lk_display *d = kms_open("drm", NULL, 0, 0, 0);
        LKT_CHECK(d != NULL, "open takes over from the other program", "NULL: %s", lk_last_error());
        if (d) {
            kms_scene scene = kms_scene_make(1024, 768);
            lk_display_set_root_layer(d, scene.root);
            lk_display_render_frame_at(d, 0);
            kms_wait_presented(d, 1);
            lk_display_close(d);
            lk_release(scene.root);
        }
        drmModeCrtc *crtc = kms_crtc(fd);
        LKT_CHECK(crtc && crtc->mode_valid && crtc->mode.hdisplay == 800 && crtc->buffer_id == fb,
                  "close puts the previous mode and framebuffer back", "mode %ux%u fb %u (want 800x600 fb %u)",
                  crtc ? crtc->mode.hdisplay : 0, crtc ? crtc->mode.vdisplay : 0, crtc ? crtc->buffer_id : 0, fb);
        drmModeFreeCrtc(crtc);
        drmSetMaster(fd);
        drmModeSetCrtc(fd, res->crtcs[0], 0, 0, 0, NULL, 0, NULL);
    }
    if (fb) drmModeRmFB(fd, fb);
    drmModeFreeConnector(conn);
    drmModeFreeResources(res);
    close(fd);
}

/* A display with a real clock: its render thread draws an animation, paced
   by the flips, while this thread only waits. */
static void check_render_thread(void)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = "drm";
    lk_display *d = lk_display_open(&o);
    if (!LKT_CHECK(d != NULL, "render thread: open with a real clock", "NULL: %s", lk_last_error())) return;
    kms_scene scene = kms_scene_make(1024, 768);
    lk_display_set_root_layer(d, scene.root);
    lk_transaction_flush();
    kms_sleep(0.2);   /* the first frame is shown */
    uint64_t before = kms_presented(d);
    lk_transaction_begin();
    lk_transaction_set_animation_duration(1.0);
    lk_layer_set_position(scene.mover, lk_point_make(900, 700));
    lk_transaction_commit();
    lk_transaction_flush();
    double start = kms_now();
    kms_sleep(0.5);
    uint64_t frames = kms_presented(d) - before;
    double elapsed = kms_now() - start;
    LKT_CHECK(frames >= (on_gles() ? 1u : 8u) && frames <= (uint64_t)(elapsed * 60.5) + 1,
              "render thread: an animation is drawn at most at the refresh rate, woken by flips",
              "%llu frames in %.3f s", (unsigned long long)frames, elapsed);
    printf("figure: render thread: %llu frames in %.3f s of a 1 s animation\n", (unsigned long long)frames, elapsed);
    lk_display_close(d);
    lk_release(scene.root);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    check_default_output();
    check_legacy();
    check_restore();
    check_render_thread();
    return lkt_finish();
}
