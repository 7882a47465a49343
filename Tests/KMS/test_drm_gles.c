/*
 * The drm backend's GBM + EGL + GLES path on vkms, in one program (Mesa's
 * llvmpipe through kms_swrast; on the VM's emulated CPU a new shader
 * variant or a whole frame costs seconds, so the checks share a display and
 * use a 640x480 mode). On Writeback-1: taken first, the time from
 * lk_display_open to the first flip, modeset and page flips by flip events
 * at no more than the mode's rate, the scanned-out frame captured by the
 * writeback connector against the software backend's (channels within
 * 8/255, at most 1 pixel in 2,000 beyond), DRM master lost and regained,
 * the previous state put back on close. On Virtual-1: a connector
 * unplugged and plugged back. Rotation on this path runs with
 * KMS_GLES_FULL=1 (test_drm_capture, Tests/KMS/run.sh). Runs where the VM
 * has Mesa (Tests/KMS/in-vm.sh).
 */
#define _POSIX_C_SOURCE 200809L
#include "kms_lifecycle.h"

#define W 640
#define H 480

/* Compares the writeback capture of d with the software display's frame. */
static void compare_capture(const char *name, lk_display *d, lk_display *sw)
{
    uint8_t *pa = kms_read(d), *pb = kms_read(sw);
    int worst = 0;
    long bad = -1;
    char where[160] = "";
    if (pa && pb) bad = kms_differences(pa, pb, W, H, 8, &worst, where, sizeof where);
    LKT_CHECK(pa && pb && bad <= W * H / 2000, name, "%ld pixels beyond 8, largest difference %d at %s: %s", bad,
              worst, where, pa && pb ? "" : lk_last_error());
    printf("figure: %s: largest channel difference %d, %ld pixels beyond 8\n", name, worst, bad);
    free(pa);
    free(pb);
}

static void check_output(void)
{
    static char log[16384];
    int observer = kms_open_observer();
    drmModeCrtc *was = kms_crtc(observer);
    unsetenv("LAYERKIT_DRM_PATH");   /* the backend's own choice */
    double t0 = kms_now();
    kms_capture c = kms_capture_begin();
    lk_display *d = kms_open("drm", "Writeback-1", W, H, 0);
    kms_capture_end(&c, log, sizeof log);
    double opened = kms_now();
    if (!LKT_CHECK(d != NULL, "gles: opens on Writeback-1 at 640x480", "NULL: %s", lk_last_error())) return;
    LKT_CHECK(strstr(log, "GBM + EGL + GLES (2)") != NULL, "gles: GBM + EGL + GLES is taken first on vkms",
              "log: %.600s", log);
    LKT_CHECK(strstr(log, "EGL") && strstr(log, "llvmpipe"), "gles: it renders with Mesa (llvmpipe through kms_swrast)",
              "log: %.600s", log);
    kms_scene scene = kms_scene_make(W, H);
    lk_display_set_root_layer(d, scene.root);
    lk_status s = lk_display_render_frame_at(d, 0.0);
    int shown = kms_wait_presented(d, 1);
    double t1 = kms_now();
    LKT_CHECK(s == LK_OK && shown, "gles: the first frame flips", "status %s, presented %llu: %s", lkt_status_name(s),
              (unsigned long long)kms_presented(d), lk_last_error());
    printf("figure: GBM + EGL + GLES: lk_display_open to the first flip %.1f s (open %.1f s, first frame %.1f s)\n",
           t1 - t0, opened - t0, t1 - opened);

    drmModeCrtc *crtc = kms_crtc(observer);
    LKT_CHECK(crtc && crtc->mode_valid && crtc->mode.hdisplay == W && crtc->mode.vdisplay == H && crtc->buffer_id,
              "gles: the CRTC scans out 640x480 from our GBM buffer", "mode_valid %d %ux%u fb %u",
              crtc ? crtc->mode_valid : -1, crtc ? crtc->mode.hdisplay : 0, crtc ? crtc->mode.vdisplay : 0,
              crtc ? crtc->buffer_id : 0);
    uint32_t first_fb = crtc ? crtc->buffer_id : 0;
    drmModeFreeCrtc(crtc);

    /* the software backend draws the same frames, for the captures */
    lk_display *sw = kms_open("software", NULL, W, H, 0);
    kms_scene b = kms_scene_make(W, H);
    if (sw) {
        lk_display_set_root_layer(sw, b.root);
        lk_display_render_frame_at(sw, 0.0);
    }

    /* a second frame so that both buffers have been drawn whole, then
       frames back to back, each flipped */
    double t = 1 / 60.0;
    kms_scene_move(&scene, 23, H - 100);
    kms_scene_move(&b, 23, H - 100);
    lk_display_render_frame_at(d, t);
    if (sw) lk_display_render_frame_at(sw, t);
    const int frames = 20;   /* with the two before, an even number: the other buffer ends on screen */
    uint64_t before = kms_presented(d);
    double start = kms_now();
    int failures = 0;
    for (int i = 1; i <= frames; i++) {
        kms_scene_move(&scene, 26 + i * 3, H - 100);
        if (lk_display_render_frame_at(d, t = (i + 1) / 60.0) != LK_OK) failures++;
    }
    int all = kms_wait_presented(d, before + frames);
    double elapsed = kms_now() - start, hz = frames / elapsed, rate = lk_display_get_refresh_rate(d);
    LKT_CHECK(failures == 0 && all, "gles: every frame is flipped (flip events)", "%d failed, %llu of %d presented: %s",
              failures, (unsigned long long)(kms_presented(d) - before), frames, lk_last_error());
    LKT_CHECK(hz < rate + 1, "gles: one frame in flight: no faster than the mode's refresh rate",
              "%d frames in %.3f s = %.1f Hz (mode %.1f Hz)", frames, elapsed, hz, rate);
    printf("figure: GBM + EGL + GLES: %d flips in %.3f s = %.1f Hz (mode %.1f Hz; llvmpipe on the emulated CPU sets it)\n",
           frames, elapsed, hz, rate);
    crtc = kms_crtc(observer);
    LKT_CHECK(crtc && crtc->buffer_id && crtc->buffer_id != first_fb, "gles: page flips change the scanned-out buffer",
              "fb %u, first %u", crtc ? crtc->buffer_id : 0, first_fb);
    drmModeFreeCrtc(crtc);

    /* the scanned-out frame, captured by the writeback connector, against
       the software backend's: after frames into reused buffers (only their
       damage redrawn), and once more after a jump */
    if (LKT_CHECK(sw != NULL, "gles: a software display of the same size", "%s", lk_last_error())) {
        kms_scene_move(&b, 26 + frames * 3, H - 100);
        lk_display_render_frame_at(sw, t);
        compare_capture("gles: the writeback capture equals the software backend's frame (channels within 8, "
                        "at most 1 pixel in 2,000 beyond)", d, sw);
        kms_scene_move(&scene, 300, 40);
        kms_scene_move(&b, 300, 40);
        lk_display_render_frame_at(d, t += 1 / 60.0);
        lk_display_render_frame_at(sw, t);
        compare_capture("gles: after a jump of the mover too", d, sw);
        lk_display_close(sw);
    }
    lk_release(b.root);
    printf("figure: gles: open, first flip, %d frames and the captures took %.1f s\n", frames + 3, kms_now() - t0);

    /* master lost and regained on this display: its buffers are GBM's */
    double t2 = kms_now();
    /* one frame once it is back: it and the next are drawn whole, seconds each here */
    kms_check_master_lost("gles: ", d, &scene, t, W, H, 1);
    printf("figure: gles: master loss took %.1f s\n", kms_now() - t2);

    lk_display_close(d);
    crtc = kms_crtc(observer);
    LKT_CHECK(crtc && was && crtc->mode_valid == was->mode_valid && crtc->buffer_id == was->buffer_id,
              "gles: close puts the CRTC back as it was", "mode_valid %d fb %u, before %d fb %u",
              crtc ? crtc->mode_valid : -1, crtc ? crtc->buffer_id : 0, was ? was->mode_valid : -1,
              was ? was->buffer_id : 0);
    drmModeFreeCrtc(crtc);
    drmModeFreeCrtc(was);
    close(observer);
    lk_release(scene.root);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    check_output();
    /* a connector unplugged and plugged back (Virtual-1: the writeback
       connector is never unplugged) on a GLES display of its own */
    double t = kms_now();
    kms_check_hotplug("gles: ", NULL, NULL, 0, W, H);
    printf("figure: gles: hotplug (its own display) took %.1f s\n", kms_now() - t);
    return lkt_finish();
}
