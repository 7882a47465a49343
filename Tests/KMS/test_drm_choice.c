/*
 * Choosing the output: device, connector and mode through the display
 * options and LAYERKIT_DRM_DEVICE / _CONNECTOR / _MODE (`list` prints the
 * choices), clear errors for what is not there; describe() for lk-info;
 * a connector unplugged and plugged again while frames go on.
 */
#define _POSIX_C_SOURCE 200809L
#include "kms_support.h"

#include <dlfcn.h>
#include <layerkit/layerkit_backend.h>

static lk_display *open_device(const char *device)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = "drm";
    o.device = device;
    o.manual_clock = true;
    return lk_display_open(&o);
}

static void check_size(lk_display *d, const char *name, double w, double h)
{
    if (!LKT_CHECK(d != NULL, name, "NULL: %s", lk_last_error())) return;
    lk_size size = lk_display_get_size(d);
    LKT_CHECK(size.width == w && size.height == h, name, "size %s, expected %.0fx%.0f", lkt_fmt_size(size), w, h);
    lk_display_close(d);
}

static void check_fails(lk_display *d, const char *name, const char *mentions)
{
    if (d) lk_display_close(d);
    LKT_CHECK(d == NULL, name, "opened");
    if (!d) LKT_CHECK_ERROR_MESSAGE(name, mentions);
}

/* Reads what fd (1 or 2) gets while body runs into buf. */
typedef struct capture { int saved, file; } capture;
static capture capture_begin(int fd)
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
static void capture_read(capture *c, char *buf, size_t size)
{
    fflush(NULL);
    ssize_t n = pread(c->file, buf, size - 1, 0);
    buf[n > 0 ? n : 0] = 0;
}
static void capture_end(capture *c, int fd)
{
    fflush(NULL);
    dup2(c->saved, fd);
    close(c->saved);
    close(c->file);
}

static void check_choices(void)
{
    lkt_error_mark();
    check_fails(open_device("/dev/dri/card9"), "a missing device is a clear error naming it",
                "/dev/dri/card9");
    lkt_error_mark();
    setenv("LAYERKIT_DRM_DEVICE", "/dev/dri/card7", 1);
    check_fails(open_device(NULL), "LAYERKIT_DRM_DEVICE names the device", "/dev/dri/card7");
    unsetenv("LAYERKIT_DRM_DEVICE");
    check_size(open_device("/dev/dri/card0"), "the device by path", 1024, 768);

    check_size(kms_open("drm", "Virtual-1", 0, 0, 0), "connector Virtual-1 by name", 1024, 768);
    lkt_error_mark();
    check_fails(kms_open("drm", "HDMI-A-1", 0, 0, 0), "a missing connector: the error names it",
                "HDMI-A-1");
    lkt_error_mark();
    check_fails(kms_open("drm", "HDMI-A-1", 0, 0, 0), "a missing connector: the error lists those there are",
                "Virtual-1");
    setenv("LAYERKIT_DRM_CONNECTOR", "DP-3", 1);
    lkt_error_mark();
    check_fails(kms_open("drm", NULL, 0, 0, 0), "LAYERKIT_DRM_CONNECTOR names the connector", "DP-3");
    unsetenv("LAYERKIT_DRM_CONNECTOR");

    setenv("LAYERKIT_DRM_MODE", "800x600", 1);
    check_size(kms_open("drm", NULL, 0, 0, 0), "LAYERKIT_DRM_MODE=800x600", 800, 600);
    setenv("LAYERKIT_DRM_MODE", "1280x1024@60", 1);
    check_size(kms_open("drm", NULL, 0, 0, 0), "LAYERKIT_DRM_MODE=1280x1024@60", 1280, 1024);
    setenv("LAYERKIT_DRM_MODE", "641x480", 1);
    lkt_error_mark();
    check_fails(kms_open("drm", NULL, 0, 0, 0), "a mode the connector lacks: the error lists its modes",
                "1024x768@60");
    setenv("LAYERKIT_DRM_MODE", "big", 1);
    lkt_error_mark();
    check_fails(kms_open("drm", NULL, 0, 0, 0), "a malformed LAYERKIT_DRM_MODE: the error shows the form",
                "WIDTHxHEIGHT");
    unsetenv("LAYERKIT_DRM_MODE");
    check_size(kms_open("drm", NULL, 800, 600, 0), "options width and height choose the mode", 800, 600);
    check_size(kms_open("drm", NULL, 600, 800, 90),
               "rotation 90: width and height are the program's, the mode is 800x600 turned", 600, 800);

    setenv("LAYERKIT_DRM_BUFFERS", "4", 1);
    lkt_error_mark();
    check_fails(kms_open("drm", NULL, 0, 0, 0), "LAYERKIT_DRM_BUFFERS other than 2 or 3 is an error naming it",
                "LAYERKIT_DRM_BUFFERS=4");
    unsetenv("LAYERKIT_DRM_BUFFERS");

    setenv("LAYERKIT_DRM_CONNECTOR", "list", 1);
    capture c = capture_begin(1);
    lkt_error_mark();
    lk_display *d = kms_open("drm", NULL, 0, 0, 0);
    char text[16384];
    capture_read(&c, text, sizeof text);
    capture_end(&c, 1);
    unsetenv("LAYERKIT_DRM_CONNECTOR");
    check_fails(d, "LAYERKIT_DRM_CONNECTOR=list fails the open, saying why", "list");
    LKT_CHECK(strstr(text, "connector Virtual-1") && strstr(text, "mode 1024x768@60 (preferred)") &&
                  strstr(text, "connector Writeback-1"),
              "list prints the connectors and their modes", "printed: %.300s", text);
}

static void check_describe(void)
{
    const char *path = getenv("LKTEST_DRM_PLUGIN");
    void *plugin = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    lk_backend_entry_fn entry = NULL;
    if (plugin) *(void **)&entry = dlsym(plugin, LK_BACKEND_ENTRY_SYMBOL);
    const lk_backend *table = entry ? entry(LK_BACKEND_ABI_VERSION) : NULL;
    if (!LKT_CHECK(table && table->describe, "the drm plugin has describe()", "%s: %s", path ? path : "(unset)",
                   plugin ? "no table" : dlerror()))
        return;
    static char text[65536];
    bool ok = table->describe(NULL, text, sizeof text);
    LKT_CHECK(ok && strstr(text, "device /dev/dri/card0: driver vkms") && strstr(text, "atomic"),
              "describe(NULL) names the device, its driver and atomic modesetting", "%.200s", text);
    LKT_CHECK(strstr(text, "connector Virtual-1 (id") && strstr(text, "connected") &&
                  strstr(text, "mode 1024x768@60 (preferred)"),
              "describe lists connectors with state and modes", "%.300s", text);
    LKT_CHECK(strstr(text, "crtc ") != NULL, "describe lists CRTCs", "%.300s", text);
    LKT_CHECK(strstr(text, ": primary, CRTC mask 0x1") && strstr(text, ": overlay,") && strstr(text, ": cursor,") &&
                  strstr(text, " XR24"),
              "describe lists planes with type and formats", "%.600s", text);
    char small[16];
    LKT_CHECK(table->describe(NULL, small, sizeof small) && strlen(small) < sizeof small,
              "describe stays within a small buffer", "%zu", strlen(small));
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* Waits up to 3 s until the captured stderr mentions `what`. */
static int wait_for_log(capture *c, const char *what, char *text, size_t size)
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
static void on_event(lk_display *d, lk_display_event e, const char *detail, void *user_data)
{
    heard *h = (heard *)user_data;
    (void)d;
    if (h->count >= 16) return;
    h->event[h->count] = e;
    snprintf(h->detail[h->count], sizeof h->detail[0], "%s", detail ? detail : "");
    h->count++;
}

/* Dispatches the display's run loop until event `e` is heard (up to 3 s). */
static int wait_event(lk_display *d, heard *h, lk_display_event e, char *detail, size_t size)
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

static void check_hotplug(void)
{
    const char *status = "/sys/class/drm/card0-Virtual-1/status";
    lk_display *d = kms_open("drm", "Virtual-1", 0, 0, 0);
    if (!LKT_CHECK(d != NULL, "hotplug: open", "%s", lk_last_error())) return;
    heard h;
    memset(&h, 0, sizeof h);
    lk_display_set_event_callback(d, on_event, &h, NULL);
    kms_scene scene = kms_scene_make(1024, 768);
    lk_display_set_root_layer(d, scene.root);
    lk_display_render_frame_at(d, 0);
    kms_wait_presented(d, 1);

    char text[4096], paused[200], resumed[200];
    capture c = capture_begin(2);
    /* vkms has no hotplug of its own: force the state and send the uevent */
    int unplugged = write_file(status, "off") && write_file("/sys/class/drm/card0/uevent", "change");
    int heard_paused = unplugged && wait_event(d, &h, LK_DISPLAY_EVENT_PAUSED, paused, sizeof paused);
    int reported = unplugged && wait_for_log(&c, "was unplugged", text, sizeof text);
    uint64_t before = kms_presented(d);
    int failures = 0;
    for (int i = 1; i <= 5; i++) {
        kms_scene_move(&scene, 100 + i * 10, 500);
        if (lk_display_render_frame_at(d, i / 60.0) != LK_OK) failures++;
    }
    uint64_t while_away = kms_presented(d) - before;
    int replugged = write_file(status, "detect") && write_file("/sys/class/drm/card0/uevent", "change");
    int heard_resumed = replugged && wait_event(d, &h, LK_DISPLAY_EVENT_RESUMED, resumed, sizeof resumed);
    int back = replugged && wait_for_log(&c, "is back", text, sizeof text);
    kms_scene_move(&scene, 300, 500);
    lk_status s = lk_display_render_frame_at(d, 1.0);
    int shown = kms_wait_presented(d, before + 1);
    capture_end(&c, 2);

    LKT_CHECK(reported, "an unplugged connector is logged", "log: %.300s", text);
    LKT_CHECK(heard_paused && strstr(paused, "Virtual-1 was unplugged"),
              "an unplugged connector reaches the program: PAUSED", "detail: %s", paused);
    LKT_CHECK(failures == 0 && while_away == 0,
              "while it is unplugged frames are not drawn (render_frame_at succeeds, the tree is kept)",
              "%d failed (%s), %llu presented", failures, lk_last_error(), (unsigned long long)while_away);
    LKT_CHECK(back, "the connector coming back is logged", "log: %.300s", text);
    LKT_CHECK(heard_resumed && strstr(resumed, "Virtual-1 is back"),
              "the connector coming back reaches the program: RESUMED", "detail: %s", resumed);
    lk_size size = lk_display_get_size(d);
    int resized = 0;
    for (int i = 0; i < h.count; i++) resized |= h.event[i] == LK_DISPLAY_EVENT_RESIZED;
    LKT_CHECK(!resized && size.width == 1024 && size.height == 768,
              "back with the same mode: no RESIZED, the same size", "%gx%g", size.width, size.height);
    int observer = kms_open_observer();
    drmModeCrtc *crtc = kms_crtc(observer);
    LKT_CHECK(s == LK_OK && shown && crtc && crtc->mode_valid && crtc->mode.hdisplay == 1024,
              "after it is back the mode is set again and frames flip", "status %s, shown %d, mode_valid %d",
              lkt_status_name(s), shown, crtc ? crtc->mode_valid : -1);
    drmModeFreeCrtc(crtc);
    close(observer);
    lk_display_close(d);
    lk_release(scene.root);
}

/* The display's own file descriptor on the device: the one that is master. */
static int display_fd(void)
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
   and the display takes master back by itself (its event thread). */
static void check_master_lost(void)
{
    lk_display *d = kms_open("drm", "Virtual-1", 0, 0, 0);
    if (!LKT_CHECK(d != NULL, "master: open", "%s", lk_last_error())) return;
    heard h;
    memset(&h, 0, sizeof h);
    lk_display_set_event_callback(d, on_event, &h, NULL);
    kms_scene scene = kms_scene_make(1024, 768);
    lk_display_set_root_layer(d, scene.root);
    lk_display_render_frame_at(d, 0);
    kms_wait_presented(d, 1);

    char text[4096], paused[200], resumed[200];
    capture c = capture_begin(2);
    int fd = display_fd(), other = kms_open_observer();
    int switched = fd >= 0 && drmDropMaster(fd) == 0 && drmSetMaster(other) == 0;
    int failures = 0;
    /* the first frame finds master gone (its commit fails) */
    kms_scene_move(&scene, 110, 400);
    if (lk_display_render_frame_at(d, 1 / 60.0) != LK_OK) failures++;
    int heard_paused = wait_event(d, &h, LK_DISPLAY_EVENT_PAUSED, paused, sizeof paused);
    int reported = wait_for_log(&c, "lost DRM master", text, sizeof text);
    uint64_t before = kms_presented(d);
    for (int i = 2; i <= 4; i++) {
        kms_scene_move(&scene, 100 + i * 10, 400);
        if (lk_display_render_frame_at(d, i / 60.0) != LK_OK) failures++;
    }
    uint64_t while_away = kms_presented(d) - before;
    drmModeCrtc *crtc = kms_crtc(other);
    uint32_t shown_while_away = crtc ? crtc->buffer_id : 0;
    drmModeFreeCrtc(crtc);
    double released_at = kms_now();
    int released = drmDropMaster(other) == 0;
    int heard_resumed = wait_event(d, &h, LK_DISPLAY_EVENT_RESUMED, resumed, sizeof resumed);
    double resume_delay = kms_now() - released_at;
    int back = wait_for_log(&c, "master of /dev/dri/card0 is back", text, sizeof text);
    for (int i = 5; i <= 7; i++) {
        kms_scene_move(&scene, 100 + i * 10, 400);
        if (lk_display_render_frame_at(d, i / 60.0) != LK_OK) failures++;
    }
    int shown = kms_wait_presented(d, before + 3);
    capture_end(&c, 2);
    crtc = kms_crtc(other);

    LKT_CHECK(switched, "master: another program takes DRM master (the display's is dropped)", "fd %d", fd);
    LKT_CHECK(reported, "master: losing it is logged", "log: %.300s", text);
    LKT_CHECK(heard_paused && strstr(paused, "lost DRM master"), "master: losing it reaches the program: PAUSED",
              "detail: %s", paused);
    LKT_CHECK(failures == 0 && while_away == 0, "master: while it is away frames are not drawn (calls succeed)",
              "%d failed: %s; %llu presented", failures, lk_last_error(), (unsigned long long)while_away);
    LKT_CHECK(released && back, "master: taking it back is logged", "log: %.300s", text);
    LKT_CHECK(heard_resumed && strstr(resumed, "is back"),
              "master: taken back by the display itself once free: RESUMED", "detail: %s", resumed);
    printf("figure: master taken back %.0f ms after the other program let go\n", resume_delay * 1000);
    LKT_CHECK(shown && crtc && crtc->mode_valid && crtc->buffer_id != 0 && crtc->buffer_id != shown_while_away,
              "master: back, the mode is set again and new frames are shown", "fb %u (while away %u), shown %d",
              crtc ? crtc->buffer_id : 0, shown_while_away, shown);
    drmModeFreeCrtc(crtc);
    close(other);
    lk_display_close(d);
    lk_release(scene.root);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    check_choices();
    check_describe();
    check_hotplug();
    check_master_lost();
    return lkt_finish();
}
