/*
 * Choosing the output: device, connector and mode through the display
 * options and LAYERKIT_DRM_DEVICE / _CONNECTOR / _MODE (`list` prints the
 * choices), clear errors for what is not there; describe() for lk-info;
 * a connector unplugged and plugged again while frames go on.
 */
#define _POSIX_C_SOURCE 200809L
#include "kms_lifecycle.h"

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

    setenv("LAYERKIT_DRM_ROTATION", "hardware", 1);
    lkt_error_mark();
    check_fails(kms_open("drm", NULL, 0, 0, 90), "LAYERKIT_DRM_ROTATION other than auto or renderer is an error naming it",
                "LAYERKIT_DRM_ROTATION=hardware: expected auto or renderer");
    /* forced to the renderer: said so (vkms has no property to say otherwise) */
    setenv("LAYERKIT_DRM_ROTATION", "renderer", 1);
    static char open_log[16384];
    kms_capture log_capture = kms_capture_begin();
    lk_display *turned = kms_open("drm", NULL, 0, 0, 270);
    kms_capture_end(&log_capture, open_log, sizeof open_log);
    LKT_CHECK(turned && strstr(open_log, "rotation 270 by the renderer (LAYERKIT_DRM_ROTATION=renderer)"),
              "LAYERKIT_DRM_ROTATION=renderer: the open message says the renderer turns, and why", "%s: %.600s",
              turned ? "opened" : lk_last_error(), open_log);
    if (turned) lk_display_close(turned);
    unsetenv("LAYERKIT_DRM_ROTATION");

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
    /* vkms in Linux 6.1 has no rotation property on its planes */
    LKT_CHECK(strstr(text, ": primary, CRTC mask 0x1, no rotation property: the renderer turns, formats") != NULL,
              "describe says which planes have a rotation property, with its values, or that the renderer turns",
              "%.600s", text);
    char small[16];
    LKT_CHECK(table->describe(NULL, small, sizeof small) && strlen(small) < sizeof small,
              "describe stays within a small buffer", "%zu", strlen(small));
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    check_choices();
    check_describe();
    kms_check_hotplug("", NULL, NULL, 0, 0, 0);
    kms_check_master_lost("", NULL, NULL, 0, 0, 0, 3);
    return lkt_finish();
}
