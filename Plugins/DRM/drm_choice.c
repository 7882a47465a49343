/*
 * Which device, connector, mode, CRTC and plane an output uses.
 *
 * Each is taken from the open options (device, connector; width and height
 * pick a mode), else from the environment (LAYERKIT_DRM_DEVICE,
 * LAYERKIT_DRM_CONNECTOR, LAYERKIT_DRM_MODE=1920x1080@60), else the default:
 * the first device with a connected connector, its first connected
 * connector, that connector's preferred mode. The value `list` in any of the
 * three variables prints the choices and fails the open.
 */
#include "drm_private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

void drm_connector_name(const drmModeConnector *c, char *name, size_t size)
{
    const char *type = drmModeGetConnectorTypeName(c->connector_type);
    snprintf(name, size, "%s-%u", type ? type : "Unknown", c->connector_type_id);
}

uint32_t drm_property(int fd, uint32_t object, uint32_t type, const char *name, uint64_t *value)
{
    drmModeObjectProperties *props = drmModeObjectGetProperties(fd, object, type);
    uint32_t id = 0;
    for (uint32_t i = 0; props && i < props->count_props && !id; i++) {
        drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
        if (p && strcmp(p->name, name) == 0) {
            id = p->prop_id;
            if (value) *value = props->prop_values[i];
        }
        drmModeFreeProperty(p);
    }
    drmModeFreeObjectProperties(props);
    return id;
}

/* "WxH" or "WxH@R"; refresh 0 when not given. */
static bool parse_mode(const char *spec, uint32_t *w, uint32_t *h, uint32_t *refresh)
{
    unsigned a = 0, b = 0, r = 0;
    char tail = 0;
    int n = sscanf(spec, "%ux%u@%u%c", &a, &b, &r, &tail);
    if (n == 3 && a && b && r) { *w = a; *h = b; *refresh = r; return true; }
    n = sscanf(spec, "%ux%u%c", &a, &b, &tail);
    if (n == 2 && a && b) { *w = a; *h = b; *refresh = 0; return true; }
    return false;
}

static void list_modes(const drmModeConnector *c, char *text, size_t size)
{
    size_t used = 0;
    text[0] = 0;
    for (int i = 0; i < c->count_modes && used + 24 < size; i++)
        used += (size_t)snprintf(text + used, size - used, "%s%ux%u@%u", i ? ", " : "",
                                 c->modes[i].hdisplay, c->modes[i].vdisplay, c->modes[i].vrefresh);
}

static bool choose_mode(drm_output *out, const drmModeConnector *c, const drmModeModeInfo *current,
                        const lk_backend_open_options *options, char *error, size_t error_size)
{
    uint32_t w = 0, h = 0, refresh = 0;
    const char *spec = env("LAYERKIT_DRM_MODE");
    const char *what = "LAYERKIT_DRM_MODE";
    char wanted[48];
    if (spec) {
        if (!parse_mode(spec, &w, &h, &refresh)) {
            drm_set_error(error, error_size,
                          "drm backend: LAYERKIT_DRM_MODE=%s: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ "
                          "(such as 1920x1080@60), or list", spec);
            return false;
        }
    } else if (options->width && options->height) {
        /* the program asks for the size it will see: the mode is that, turned back */
        bool sideways = options->rotation == 90 || options->rotation == 270;
        w = sideways ? options->height : options->width;
        h = sideways ? options->width : options->height;
        what = "options width and height";
    }
    if (c->count_modes == 0) {
        drm_set_error(error, error_size, "drm backend: connector %s has no modes", out->connector_name);
        return false;
    }
    int chosen = -1;
    if (w) {
        for (int i = 0; i < c->count_modes; i++) {
            const drmModeModeInfo *m = &c->modes[i];
            if (m->hdisplay != w || m->vdisplay != h || (refresh && m->vrefresh != refresh)) continue;
            if (chosen < 0 || (m->type & DRM_MODE_TYPE_PREFERRED)) chosen = i;
        }
        if (chosen < 0) {
            char modes[512];
            list_modes(c, modes, sizeof modes);
            if (refresh) snprintf(wanted, sizeof wanted, "%ux%u@%u", w, h, refresh);
            else snprintf(wanted, sizeof wanted, "%ux%u", w, h);
            drm_set_error(error, error_size, "drm backend: %s: connector %s has no mode %s (it has %s)",
                          what, out->connector_name, wanted, modes);
            return false;
        }
    } else {
        for (int i = 0; i < c->count_modes && chosen < 0; i++)
            if (c->modes[i].type & DRM_MODE_TYPE_PREFERRED) chosen = i;
        /* no preferred mode (a writeback connector offers a list of sizes):
           the mode the CRTC shows now, if the connector has it */
        for (int i = 0; i < c->count_modes && chosen < 0 && current; i++)
            if (c->modes[i].hdisplay == current->hdisplay && c->modes[i].vdisplay == current->vdisplay &&
                c->modes[i].vrefresh == current->vrefresh)
                chosen = i;
        if (chosen < 0) chosen = 0;
    }
    out->mode = c->modes[chosen];
    out->refresh_rate = out->mode.vrefresh;
    if (out->mode.htotal && out->mode.vtotal)
        out->refresh_rate = out->mode.clock * 1000.0 / ((double)out->mode.htotal * out->mode.vtotal);
    return true;
}

/* The mode of the first CRTC that is on (fbcon's, say), or NULL. */
static const drmModeModeInfo *current_mode(int fd, const drmModeRes *res, drmModeModeInfo *mode)
{
    bool found = false;
    for (int i = 0; i < res->count_crtcs && !found; i++) {
        drmModeCrtc *c = drmModeGetCrtc(fd, res->crtcs[i]);
        if (c && c->mode_valid) {
            *mode = c->mode;
            found = true;
        }
        drmModeFreeCrtc(c);
    }
    return found ? mode : NULL;
}

static bool choose_crtc(drm_output *out, const drmModeRes *res, const drmModeConnector *c,
                        char *error, size_t error_size)
{
    uint32_t crtc = 0;
    if (c->encoder_id) {
        drmModeEncoder *e = drmModeGetEncoder(out->fd, c->encoder_id);
        if (e) crtc = e->crtc_id;
        drmModeFreeEncoder(e);
    }
    for (int i = 0; i < c->count_encoders && !crtc; i++) {
        drmModeEncoder *e = drmModeGetEncoder(out->fd, c->encoders[i]);
        for (int k = 0; e && k < res->count_crtcs && !crtc; k++)
            if (e->possible_crtcs & (1u << k)) crtc = res->crtcs[k];
        drmModeFreeEncoder(e);
    }
    for (int k = 0; k < res->count_crtcs; k++)
        if (res->crtcs[k] == crtc) { out->crtc_id = crtc; out->crtc_index = (uint32_t)k; return true; }
    drm_set_error(error, error_size, "drm backend: no CRTC can drive connector %s on %s",
                  out->connector_name, out->device);
    return false;
}

static bool choose_plane(drm_output *out, char *error, size_t error_size)
{
    drmModePlaneRes *planes = drmModeGetPlaneResources(out->fd);
    for (uint32_t i = 0; planes && i < planes->count_planes && !out->plane_id; i++) {
        drmModePlane *p = drmModeGetPlane(out->fd, planes->planes[i]);
        uint64_t type = 0;
        if (p && (p->possible_crtcs & (1u << out->crtc_index)) &&
            drm_property(out->fd, p->plane_id, DRM_MODE_OBJECT_PLANE, "type", &type) &&
            type == DRM_PLANE_TYPE_PRIMARY)
            out->plane_id = p->plane_id;
        drmModeFreePlane(p);
    }
    drmModeFreePlaneResources(planes);
    if (out->plane_id || !out->atomic) return true;
    drm_set_error(error, error_size, "drm backend: no primary plane for CRTC %u on %s",
                  out->crtc_id, out->device);
    return false;
}

static void find_props(drm_output *out)
{
    drm_props *p = &out->props;
    int fd = out->fd;
    uint32_t plane = out->plane_id, crtc = out->crtc_id, conn = out->connector_id;
    p->plane_fb_id = drm_property(fd, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", NULL);
    p->plane_crtc_id = drm_property(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", NULL);
    p->plane_src_x = drm_property(fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_X", NULL);
    p->plane_src_y = drm_property(fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_Y", NULL);
    p->plane_src_w = drm_property(fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_W", NULL);
    p->plane_src_h = drm_property(fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_H", NULL);
    p->plane_crtc_x = drm_property(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_X", NULL);
    p->plane_crtc_y = drm_property(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_Y", NULL);
    p->plane_crtc_w = drm_property(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", NULL);
    p->plane_crtc_h = drm_property(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_H", NULL);
    p->crtc_active = drm_property(fd, crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", NULL);
    p->crtc_mode_id = drm_property(fd, crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", NULL);
    p->connector_crtc_id = drm_property(fd, conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", NULL);
    if (out->writeback) {
        p->writeback_fb_id = drm_property(fd, conn, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID", NULL);
        p->writeback_out_fence_ptr =
            drm_property(fd, conn, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_OUT_FENCE_PTR", NULL);
    }
}

/* Everything on one device; false with the reason when it does not serve. */
static bool try_device(drm_output *out, const char *path, const lk_backend_open_options *options,
                       char *error, size_t error_size)
{
    const char *wanted = options->connector ? options->connector : env("LAYERKIT_DRM_CONNECTOR");
    snprintf(out->device, sizeof out->device, "%s", path);
    out->fd = open(path, O_RDWR | O_CLOEXEC);
    if (out->fd < 0) {
        drm_set_error(error, error_size, "drm backend: cannot open %s: %s", path, strerror(errno));
        return false;
    }
    drmModeRes *res = drmModeGetResources(out->fd);
    if (!res) {
        drm_set_error(error, error_size, "drm backend: %s has no KMS (modesetting) resources", path);
        return false;
    }
    if (drmSetMaster(out->fd) != 0) {
        int e = errno;
        drmModeFreeResources(res);
        drm_set_error(error, error_size,
                      "drm backend: cannot become DRM master of %s (%s): another program, such as a "
                      "compositor or X server, drives it", path, strerror(e));
        return false;
    }
    drmSetClientCap(out->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
    const char *atomic = env("LAYERKIT_DRM_ATOMIC");
    out->atomic = !(atomic && strcmp(atomic, "0") == 0) &&
                  drmSetClientCap(out->fd, DRM_CLIENT_CAP_ATOMIC, 1) == 0;
    if (out->atomic && drmSetClientCap(out->fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1) == 0) {
        drmModeFreeResources(res);   /* the writeback connectors are listed from now on */
        res = drmModeGetResources(out->fd);
        if (!res) {
            drm_set_error(error, error_size, "drm backend: %s lost its KMS resources", path);
            return false;
        }
    }

    drmModeConnector *chosen = NULL;
    char names[512] = "", name[32];
    size_t used = 0;
    for (int i = 0; i < res->count_connectors && !chosen; i++) {
        drmModeConnector *c = drmModeGetConnector(out->fd, res->connectors[i]);
        if (!c) continue;
        drm_connector_name(c, name, sizeof name);
        if (used + sizeof name + 2 < sizeof names)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", name);
        bool is_writeback = c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
        bool match = wanted ? strcmp(wanted, name) == 0
                            : !is_writeback && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0;
        if (match) {
            chosen = c;
            out->writeback = is_writeback;
            snprintf(out->connector_name, sizeof out->connector_name, "%s", name);
        } else {
            drmModeFreeConnector(c);
        }
    }
    bool ok = false;
    drmModeModeInfo current;
    if (!chosen && wanted)
        drm_set_error(error, error_size, "drm backend: %s has no connector %s (it has %s)",
                      path, wanted, used ? names : "none");
    else if (!chosen)
        drm_set_error(error, error_size, "drm backend: no connected connector on %s (it has %s)",
                      path, used ? names : "none");
    else if (!out->writeback && chosen->connection != DRM_MODE_CONNECTED)
        drm_set_error(error, error_size, "drm backend: connector %s on %s is not connected",
                      out->connector_name, path);
    else if (out->writeback && !out->atomic)
        drm_set_error(error, error_size,
                      "drm backend: connector %s is a writeback connector, which needs atomic "
                      "modesetting (LAYERKIT_DRM_ATOMIC=0 is set or the driver has none)",
                      out->connector_name);
    else if (choose_mode(out, chosen, current_mode(out->fd, res, &current), options, error, error_size) &&
             choose_crtc(out, res, chosen, error, error_size)) {
        out->connector_id = chosen->connector_id;
        ok = choose_plane(out, error, error_size);
    }
    drmModeFreeConnector(chosen);
    drmModeFreeResources(res);
    if (ok && out->atomic) find_props(out);
    return ok;
}

static void print_choices(void)
{
    size_t size = 64 * 1024;
    char *text = malloc(size);
    if (!text) return;
    text[0] = 0;
    drm_describe_devices(text, size, false);
    fputs(text, stdout);
    fflush(stdout);
    free(text);
}

bool drm_choose(drm_output *out, const lk_backend_open_options *options,
                char *error, size_t error_size)
{
    static const char *const variables[] = { "LAYERKIT_DRM_DEVICE", "LAYERKIT_DRM_CONNECTOR",
                                             "LAYERKIT_DRM_MODE" };
    for (size_t i = 0; i < 3; i++) {
        const char *v = env(variables[i]);
        if (v && strcmp(v, "list") == 0) {
            print_choices();
            drm_set_error(error, error_size, "drm backend: %s=list: printed the choices on stdout",
                          variables[i]);
            return false;
        }
    }
    const char *device = options->device ? options->device : env("LAYERKIT_DRM_DEVICE");
    if (device) {
        if (try_device(out, device, options, error, error_size)) return true;
        if (out->fd >= 0) close(out->fd);
        out->fd = -1;
        return false;
    }
    /* the first device that serves; the reasons of the others are kept */
    char reasons[1024] = "", reason[256];
    size_t used = 0;
    for (int i = 0; i < 16; i++) {
        char path[32];
        snprintf(path, sizeof path, "/dev/dri/card%d", i);
        if (access(path, F_OK) != 0) continue;
        memset(&out->props, 0, sizeof out->props);
        out->plane_id = 0;
        if (try_device(out, path, options, reason, sizeof reason)) return true;
        if (out->fd >= 0) close(out->fd);
        out->fd = -1;
        if (used + strlen(reason) + 3 < sizeof reasons)
            used += (size_t)snprintf(reasons + used, sizeof reasons - used, "%s%s", used ? "; " : "",
                                     reason + strlen("drm backend: "));
    }
    if (used)
        drm_set_error(error, error_size, "drm backend: no usable DRM device: %s", reasons);
    else
        drm_set_error(error, error_size, "drm backend: no DRM device (no /dev/dri/card*)");
    return false;
}
