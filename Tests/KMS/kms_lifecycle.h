/*
 * Lifecycle checks of the KMS tests, for either render path: a connector
 * unplugged and plugged again, and DRM master lost and regained (a VT
 * switch), while frames go on. Used by test_drm_choice.c (dumb buffers) and
 * test_drm_gles.c (GBM + EGL + GLES).
 */
#ifndef KMS_LIFECYCLE_H
#define KMS_LIFECYCLE_H

#include "kms_support.h"

/* Reads what fd (1 or 2) gets while body runs into buf. */
typedef struct capture { int saved, file; } capture;
static inline capture capture_begin(int fd)
{
    capture c;
    char path[] = "/tmp/captureXXXXXX";
    fflush(NULL);
    c.file = mkstemp(path);
    unlink(path);
    c.saved = dup(fd);
    dup2(c.file, fd);
    return c;
}
static inline void capture_read(capture *c, char *buf, size_t size)
{
    fflush(NULL);
    ssize_t n = pread(c->file, buf, size - 1, 0);
    buf[n > 0 ? n : 0] = 0;
}
static inline void capture_end(capture *c, int fd)
{
    fflush(NULL);
    dup2(c->saved, fd);
    close(c->saved);
    close(c->file);
}

static inline int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* Waits up to 3 s until the captured stderr mentions `what`. */
static inline int wait_for_log(capture *c, const char *what, char *text, size_t size)
{
    double end = kms_now() + 3;
    do {
        capture_read(c, text, size);
        if (strstr(text, what)) return 1;
        kms_sleep(0.01);
    } while (kms_now() < end);
    return 0;
}

/* The display's events (lk_display_set_event_callback), as the program hears them. */
typedef struct heard { int count; lk_display_event event[16]; char detail[16][200]; } heard;
static inline void on_event(lk_display *d, lk_display_event e, const char *detail, void *user_data)
{
    heard *h = (heard *)user_data;
    (void)d;
    if (h->count >= 16) return;
    h->event[h->count] = e;
    snprintf(h->detail[h->count], sizeof h->detail[0], "%s", detail ? detail : "");
    h->count++;
}

/* Dispatches the display's run loop until event `e` is heard (up to 3 s). */
static inline int wait_event(lk_display *d, heard *h, lk_display_event e, char *detail, size_t size)
{
    double end = kms_now() + 3;
    do {
        lk_display_dispatch(d, 20);
        for (int i = 0; i < h->count; i++)
            if (h->event[i] == e) {
                snprintf(detail, size, "%s", h->detail[i]);
                return 1;
            }
    } while (kms_now() < end);
    snprintf(detail, size, "(not heard; %d events)", h->count);
    return 0;
}

/* The display a lifecycle check works on: the caller's (`given`, already
   showing given_scene) or one of its own on Virtual-1 at w x h (0 x 0: its
   preferred mode, 1024x768), showing a new scene. Its events go to
   *events until kms_lifecycle_end. NULL (a failed check named after
   `what`) when its own does not open. */
static inline lk_display *kms_lifecycle_begin(const char *label, const char *what, lk_display *given,
                                              kms_scene *given_scene, uint32_t w, uint32_t h, heard *events,
                                              kms_scene *scene)
{
    char name[200];
    lk_display *d = given ? given : kms_open("drm", "Virtual-1", w, h, 0);
    snprintf(name, sizeof name, "%s%s: open", label, what);
    if (!given && !LKT_CHECK(d != NULL, name, "%s", lk_last_error())) return NULL;
    memset(events, 0, sizeof *events);
    lk_display_set_event_callback(d, on_event, events, NULL);
    if (given) {
        *scene = *given_scene;
        return d;
    }
    *scene = kms_scene_make(w ? w : 1024, h ? h : 768);
    lk_display_set_root_layer(d, scene->root);
    lk_display_render_frame_at(d, 0);
    kms_wait_presented(d, 1);
    return d;
}

/* Closes the display and scene kms_lifecycle_begin made, or (the caller's)
   stops its events reaching the check's `heard`, which ends with it. */
static inline void kms_lifecycle_end(lk_display *d, int given, kms_scene *scene)
{
    if (!given) {
        lk_display_close(d);
        lk_release(scene->root);
    } else {
        lk_display_set_event_callback(d, NULL, NULL, NULL);
    }
}

/* Virtual-1 at w x h (0 x 0: its preferred mode, 1024x768), opened here,
   or the caller's display `given` showing given_scene, whose last frame was
   drawn for time `at`; every check's name starts with label. */
static inline void kms_check_hotplug(const char *label, lk_display *given, kms_scene *given_scene, double at,
                                  uint32_t w, uint32_t h)
{
    const char *status = "/sys/class/drm/card0-Virtual-1/status";
    char name[200];
    uint32_t ew = w ? w : 1024, eh = h ? h : 768;
    heard heard_events;
    kms_scene scene;
    lk_display *d = kms_lifecycle_begin(label, "hotplug", given, given_scene, w, h, &heard_events, &scene);
    if (!d) return;

    char text[4096], paused[200], resumed[200];
    capture c = capture_begin(2);
    /* vkms has no hotplug of its own: force the state and send the uevent */
    int unplugged = write_file(status, "off") && write_file("/sys/class/drm/card0/uevent", "change");
    int heard_paused = unplugged && wait_event(d, &heard_events, LK_DISPLAY_EVENT_PAUSED, paused, sizeof paused);
    int reported = unplugged && wait_for_log(&c, "was unplugged", text, sizeof text);
    uint64_t before = kms_presented(d);
    int failures = 0;
    for (int i = 1; i <= 5; i++) {
        kms_scene_move(&scene, 100 + i * 10, eh * 2.0 / 3);
        if (lk_display_render_frame_at(d, at + i / 60.0) != LK_OK) failures++;
    }
    uint64_t while_away = kms_presented(d) - before;
    int replugged = write_file(status, "detect") && write_file("/sys/class/drm/card0/uevent", "change");
    int heard_resumed = replugged && wait_event(d, &heard_events, LK_DISPLAY_EVENT_RESUMED, resumed, sizeof resumed);
    int back = replugged && wait_for_log(&c, "is back", text, sizeof text);
    kms_scene_move(&scene, 300, eh * 2.0 / 3);
    lk_status s = lk_display_render_frame_at(d, at + 1.0);
    int shown = kms_wait_presented(d, before + 1);
    capture_end(&c, 2);

    snprintf(name, sizeof name, "%san unplugged connector is logged", label);
    LKT_CHECK(reported, name, "log: %.300s", text);
    snprintf(name, sizeof name, "%san unplugged connector reaches the program: PAUSED", label);
    LKT_CHECK(heard_paused && strstr(paused, "Virtual-1 was unplugged"), name, "detail: %s", paused);
    snprintf(name, sizeof name,
             "%swhile it is unplugged frames are not drawn (render_frame_at succeeds, the tree is kept)", label);
    LKT_CHECK(failures == 0 && while_away == 0, name, "%d failed (%s), %llu presented", failures, lk_last_error(),
              (unsigned long long)while_away);
    snprintf(name, sizeof name, "%sthe connector coming back is logged", label);
    LKT_CHECK(back, name, "log: %.300s", text);
    snprintf(name, sizeof name, "%sthe connector coming back reaches the program: RESUMED", label);
    LKT_CHECK(heard_resumed && strstr(resumed, "Virtual-1 is back"), name, "detail: %s", resumed);
    lk_size size = lk_display_get_size(d);
    int resized = 0;
    for (int i = 0; i < heard_events.count; i++) resized |= heard_events.event[i] == LK_DISPLAY_EVENT_RESIZED;
    snprintf(name, sizeof name, "%sback with the same mode: no RESIZED, the same size", label);
    LKT_CHECK(!resized && size.width == ew && size.height == eh, name, "%gx%g", size.width, size.height);
    int observer = kms_open_observer();
    drmModeCrtc *crtc = kms_crtc(observer);
    snprintf(name, sizeof name, "%safter it is back the mode is set again and frames flip", label);
    LKT_CHECK(s == LK_OK && shown && crtc && crtc->mode_valid && crtc->mode.hdisplay == ew, name,
              "status %s, shown %d, mode_valid %d", lkt_status_name(s), shown, crtc ? crtc->mode_valid : -1);
    drmModeFreeCrtc(crtc);
    close(observer);
    kms_lifecycle_end(d, given != NULL, &scene);
}

/* The display's own file descriptor on the device: the one that is master. */
static inline int display_fd(void)
{
    for (int fd = 3; fd < 256; fd++) {
        char link[64], target[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = 0;
        if (strcmp(target, "/dev/dri/card0") == 0 && drmIsMaster(fd)) return fd;
    }
    return -1;
}

/* A VT switch as logind does it: the session's DRM master is dropped on its
   file descriptor and another program becomes master; later it lets go,
   and the display takes master back by itself (its event thread). The
   display as kms_check_hotplug's; frames_back frames are drawn once master
   is back (the first of them whole). */
static inline void kms_check_master_lost(const char *label, lk_display *given, kms_scene *given_scene, double at,
                                         uint32_t w, uint32_t h, int frames_back)
{
    char name[200];
    uint32_t eh = h ? h : 768;
    heard heard_events;
    kms_scene scene;
    lk_display *d = kms_lifecycle_begin(label, "master", given, given_scene, w, h, &heard_events, &scene);
    if (!d) return;

    char text[4096], paused[200], resumed[200];
    capture c = capture_begin(2);
    int fd = display_fd(), other = kms_open_observer();
    int switched = fd >= 0 && drmDropMaster(fd) == 0 && drmSetMaster(other) == 0;
    int failures = 0;
    /* the first frame finds master gone (its commit fails) */
    kms_scene_move(&scene, 110, eh / 2.0);
    if (lk_display_render_frame_at(d, at + 1 / 60.0) != LK_OK) failures++;
    int heard_paused = wait_event(d, &heard_events, LK_DISPLAY_EVENT_PAUSED, paused, sizeof paused);
    int reported = wait_for_log(&c, "lost DRM master", text, sizeof text);
    uint64_t before = kms_presented(d);
    for (int i = 2; i <= 4; i++) {
        kms_scene_move(&scene, 100 + i * 10, eh / 2.0);
        if (lk_display_render_frame_at(d, at + i / 60.0) != LK_OK) failures++;
    }
    uint64_t while_away = kms_presented(d) - before;
    drmModeCrtc *crtc = kms_crtc(other);
    uint32_t shown_while_away = crtc ? crtc->buffer_id : 0;
    drmModeFreeCrtc(crtc);
    double released_at = kms_now();
    int released = drmDropMaster(other) == 0;
    int heard_resumed = wait_event(d, &heard_events, LK_DISPLAY_EVENT_RESUMED, resumed, sizeof resumed);
    double resume_delay = kms_now() - released_at;
    int back = wait_for_log(&c, "master of /dev/dri/card0 is back", text, sizeof text);
    for (int i = 5; i < 5 + frames_back; i++) {
        kms_scene_move(&scene, 100 + i * 10, eh / 2.0);
        if (lk_display_render_frame_at(d, at + i / 60.0) != LK_OK) failures++;
    }
    int shown = kms_wait_presented(d, before + (uint64_t)frames_back);
    capture_end(&c, 2);
    crtc = kms_crtc(other);

    snprintf(name, sizeof name, "%smaster: another program takes DRM master (the display's is dropped)", label);
    LKT_CHECK(switched, name, "fd %d", fd);
    snprintf(name, sizeof name, "%smaster: losing it is logged", label);
    LKT_CHECK(reported, name, "log: %.300s", text);
    snprintf(name, sizeof name, "%smaster: losing it reaches the program: PAUSED", label);
    LKT_CHECK(heard_paused && strstr(paused, "lost DRM master"), name, "detail: %s", paused);
    snprintf(name, sizeof name, "%smaster: while it is away frames are not drawn (calls succeed)", label);
    LKT_CHECK(failures == 0 && while_away == 0, name, "%d failed: %s; %llu presented", failures, lk_last_error(), (unsigned long long)while_away);
    snprintf(name, sizeof name, "%smaster: taking it back is logged", label);
    LKT_CHECK(released && back, name, "log: %.300s", text);
    snprintf(name, sizeof name, "%smaster: taken back by the display itself once free: RESUMED", label);
    LKT_CHECK(heard_resumed && strstr(resumed, "is back"), name, "detail: %s", resumed);
    printf("figure: %smaster taken back %.0f ms after the other program let go\n", label, resume_delay * 1000);
    snprintf(name, sizeof name, "%smaster: back, the mode is set again and new frames are shown", label);
    LKT_CHECK(shown && crtc && crtc->mode_valid && crtc->buffer_id != 0 && crtc->buffer_id != shown_while_away, name, "fb %u (while away %u), shown %d",
              crtc ? crtc->buffer_id : 0, shown_while_away, shown);
    drmModeFreeCrtc(crtc);
    close(other);
    kms_lifecycle_end(d, given != NULL, &scene);
}

#endif
