/*
 * describe(): what the DRM backend finds, one fact a line, for lk-info and
 * for LAYERKIT_DRM_*=list: every device with its driver, connectors (state
 * and modes), CRTCs and planes (type and formats); with an instance, first
 * what that output uses.
 */
#include "drm_private.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct text_sink { char *text; size_t size, used; } text_sink;

__attribute__((format(printf, 2, 3)))
static void say(text_sink *t, const char *format, ...)
{
    if (t->used + 1 >= t->size) return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(t->text + t->used, t->size - t->used, format, args);
    va_end(args);
    if (n > 0) t->used += (size_t)n < t->size - t->used ? (size_t)n : t->size - t->used - 1;
}

static const char *connection_name(drmModeConnection c)
{
    switch (c) {
    case DRM_MODE_CONNECTED: return "connected";
    case DRM_MODE_DISCONNECTED: return "disconnected";
    default: return "unknown";
    }
}

static void describe_planes(text_sink *t, int fd)
{
    drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
    for (uint32_t i = 0; planes && i < planes->count_planes; i++) {
        drmModePlane *p = drmModeGetPlane(fd, planes->planes[i]);
        if (!p) continue;
        uint64_t type = 0;
        drm_property(fd, p->plane_id, DRM_MODE_OBJECT_PLANE, "type", &type);
        const char *type_name = type == DRM_PLANE_TYPE_PRIMARY ? "primary"
                              : type == DRM_PLANE_TYPE_CURSOR ? "cursor" : "overlay";
        /* what a rotated output on it would use (drm_rotation.c) */
        char rotation[160] = "no rotation property: the renderer turns";
        uint32_t rotation_id = drm_property(fd, p->plane_id, DRM_MODE_OBJECT_PLANE, "rotation", NULL);
        drmModePropertyRes *property = rotation_id ? drmModeGetProperty(fd, rotation_id) : NULL;
        if (property) {
            char names[120];
            drm_rotation_names(drm_rotation_supported(property), names, sizeof names);
            snprintf(rotation, sizeof rotation, "rotation property: %s", names);
            drmModeFreeProperty(property);
        }
        say(t, "    plane %u: %s, CRTC mask 0x%x, %s, formats", p->plane_id, type_name, p->possible_crtcs, rotation);
        for (uint32_t f = 0; f < p->count_formats; f++) {
            uint32_t code = p->formats[f];
            say(t, " %c%c%c%c", code & 0xff, (code >> 8) & 0xff, (code >> 16) & 0xff, (code >> 24) & 0xff);
        }
        say(t, "\n");
        drmModeFreePlane(p);
    }
    drmModeFreePlaneResources(planes);
}

static void describe_device(text_sink *t, const char *path, int fd, bool with_planes)
{
    drmVersion *v = drmGetVersion(fd);
    uint64_t dumb = 0;
    drmGetCap(fd, DRM_CAP_DUMB_BUFFER, &dumb);
    drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
    bool atomic = drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) == 0;
    if (atomic) drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
    say(t, "device %s: driver %s %d.%d.%d (%s), %s modesetting, dumb buffers %s\n", path,
        v ? v->name : "?", v ? v->version_major : 0, v ? v->version_minor : 0, v ? v->version_patchlevel : 0,
        v && v->desc ? v->desc : "?", atomic ? "atomic" : "legacy", dumb ? "yes" : "no");
    drmFreeVersion(v);
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) {
        say(t, "  no KMS resources (a render-only device)\n");
        return;
    }
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (!c) continue;
        char name[32];
        drm_connector_name(c, name, sizeof name);
        say(t, "  connector %s (id %u): %s%s, %d modes\n", name, c->connector_id, connection_name(c->connection),
            c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK ? ", writeback" : "", c->count_modes);
        for (int m = 0; m < c->count_modes; m++)
            say(t, "    mode %ux%u@%u%s\n", c->modes[m].hdisplay, c->modes[m].vdisplay, c->modes[m].vrefresh,
                c->modes[m].type & DRM_MODE_TYPE_PREFERRED ? " (preferred)" : "");
        drmModeFreeConnector(c);
    }
    for (int i = 0; i < res->count_crtcs; i++) {
        drmModeCrtc *c = drmModeGetCrtc(fd, res->crtcs[i]);
        if (!c) continue;
        if (c->mode_valid)
            say(t, "  crtc %u (index %d): on, %ux%u@%u, framebuffer %u\n", c->crtc_id, i, c->mode.hdisplay,
                c->mode.vdisplay, c->mode.vrefresh, c->buffer_id);
        else
            say(t, "  crtc %u (index %d): off\n", c->crtc_id, i);
        drmModeFreeCrtc(c);
    }
    drmModeFreeResources(res);
    if (with_planes) describe_planes(t, fd);
}

void drm_describe_devices(char *text, size_t text_size, bool with_planes)
{
    text_sink t = { text, text_size, strlen(text) };
    int found = 0;
    for (int i = 0; i < 16; i++) {
        char path[32];
        snprintf(path, sizeof path, "/dev/dri/card%d", i);
        if (access(path, F_OK) != 0) continue;
        found++;
        int fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0) fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            say(&t, "device %s: cannot open it (%m)\n", path);
            continue;
        }
        describe_device(&t, path, fd, with_planes);
        close(fd);
    }
    if (!found) say(&t, "no DRM device (no /dev/dri/card*)\n");
}

bool drm_describe(const drm_output *out, char *text, size_t text_size)
{
    if (!text || text_size == 0) return false;
    text[0] = 0;
    text_sink t = { text, text_size, 0 };
    if (out) {
        say(&t, "output: %s, connector %s, %ux%u@%.2f Hz, CRTC %u, plane %u\n", out->device, out->connector_name,
            out->mode.hdisplay, out->mode.vdisplay, out->refresh_rate, out->crtc_id, out->plane_id);
        say(&t, "output: %s modesetting, render path %s, %u buffers (%ux%u), rotation %u %s\n",
            out->atomic ? "atomic" : "legacy", out->path ? out->path->name : "none", out->buffer_count,
            out->buffer_width, out->buffer_height, out->rotation, out->rotation_how);
        say(&t, "output: %llu frames drawn, %llu pixels redrawn\n", (unsigned long long)out->frames_drawn,
            (unsigned long long)out->pixels_drawn);
        if (out->path_failures[0]) say(&t, "output: render paths not used: %s\n", out->path_failures);
        if (out->path == &drm_gbm_path) {
            drm_gbm_describe(out, text, text_size);
            t.used = strlen(text);
        }
    }
    drm_describe_devices(text, text_size, true);
    return true;
}
