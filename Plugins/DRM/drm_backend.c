/*
 * The DRM/KMS backend's plugin table: straight onto the display, without a
 * window system. open() picks the device, connector and mode
 * (drm_choice.c), starts the first render path that works on the device
 * (each failure is logged), sets the mode and starts the event thread
 * (drm_kms.c). render() draws the list with the path and queues a page flip.
 */
#include "drm_private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Render paths in order of preference: GBM + EGL + GLES where Mesa (or a
   GPU's driver) can render into scanout buffers, dumb buffers on every KMS
   device. LAYERKIT_DRM_PATH=gles or dumb allows only that one. */
static const struct { const char *key; const drm_render_path *path; } render_paths[] = {
    { "gles", &drm_gbm_path },
    { "dumb", &drm_dumb_path },
};
#define PATH_COUNT (sizeof render_paths / sizeof render_paths[0])

void drm_set_error(char *error, size_t error_size, const char *format, ...)
{
    if (!error || error_size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_size, format, args);
    va_end(args);
}

void drm_log(const drm_output *out, uint32_t level, const char *format, ...)
{
    if (!out->host.log) return;
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    out->host.log(out->host.host_data, level, message);
}

void drm_output_event(drm_output *out, uint32_t event, const char *detail)
{
    drm_log(out, LK_BACKEND_LOG_WARNING, "drm backend: %s", detail);
    if (out->host.output_changed) out->host.output_changed(out->host.host_data, event, detail);
}

#define DRM_HAS_FIELD(ptr, type, field) \
    ((ptr)->struct_size >= offsetof(type, field) + sizeof((ptr)->field))
#define DRM_FIELD(ptr, type, field) (DRM_HAS_FIELD(ptr, type, field) ? (ptr)->field : 0)

static void drm_close(lk_backend_instance *instance);

/* The scanout buffers: the mode's size where the renderer turns (or nothing
   does), the program's where the plane turns. */
static void set_buffer_size(drm_output *out)
{
    bool sideways = out->turn == 0 && (out->rotation == 90 || out->rotation == 270);
    out->buffer_width = sideways ? out->mode.vdisplay : out->mode.hdisplay;
    out->buffer_height = sideways ? out->mode.hdisplay : out->mode.vdisplay;
}

static lk_backend_instance *drm_open(const lk_backend_host *host,
                                     const lk_backend_open_options *options,
                                     char *error, size_t error_size)
{
    lk_backend_open_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    if (options) {
        o.device = DRM_FIELD(options, lk_backend_open_options, device);
        o.connector = DRM_FIELD(options, lk_backend_open_options, connector);
        o.width = DRM_FIELD(options, lk_backend_open_options, width);
        o.height = DRM_FIELD(options, lk_backend_open_options, height);
        o.rotation = DRM_FIELD(options, lk_backend_open_options, rotation);
    }
    if (o.rotation != 0 && o.rotation != 90 && o.rotation != 180 && o.rotation != 270) {
        drm_set_error(error, error_size, "drm backend: rotation %u is not one of 0, 90, 180, 270", o.rotation);
        return NULL;
    }
    drm_output *out = calloc(1, sizeof *out);
    if (!out) {
        drm_set_error(error, error_size, "drm backend: out of memory");
        return NULL;
    }
    out->fd = -1;
    out->writeback_fence = out->uevent_fd = out->wake_fd[0] = out->wake_fd[1] = -1;
    pthread_mutex_init(&out->lock, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&out->flipped, &attributes);
    pthread_condattr_destroy(&attributes);
    if (host) {
        out->host.abi_version = host->abi_version;
        out->host.struct_size = host->struct_size;
        out->host.host_data = DRM_FIELD(host, lk_backend_host, host_data);
        out->host.log = DRM_FIELD(host, lk_backend_host, log);
        out->host.frame_done = DRM_FIELD(host, lk_backend_host, frame_done);
        out->host.output_changed = DRM_FIELD(host, lk_backend_host, output_changed);
    }
    out->rotation = o.rotation;
    const char *how = getenv("LAYERKIT_DRM_ROTATION");
    if (how && *how && strcmp(how, "auto") != 0 && strcmp(how, "renderer") != 0) {
        drm_set_error(error, error_size, "drm backend: LAYERKIT_DRM_ROTATION=%s: expected auto or renderer", how);
        drm_close((lk_backend_instance *)out);
        return NULL;
    }
    const char *buffers = getenv("LAYERKIT_DRM_BUFFERS");
    out->buffer_count = buffers && strcmp(buffers, "3") == 0 ? 3 : 2;
    if (buffers && *buffers && strcmp(buffers, "2") != 0 && strcmp(buffers, "3") != 0) {
        drm_set_error(error, error_size, "drm backend: LAYERKIT_DRM_BUFFERS=%s: expected 2 or 3", buffers);
        drm_close((lk_backend_instance *)out);
        return NULL;
    }

    /* before the device is opened, as the two above: where none opens, a
       wrong value was never reported (the error was only "no device") */
    const char *forced = getenv("LAYERKIT_DRM_PATH");
    if (forced && !*forced) forced = NULL;
    if (forced && strcmp(forced, "gles") != 0 && strcmp(forced, "dumb") != 0) {
        drm_set_error(error, error_size,
                      "drm backend: LAYERKIT_DRM_PATH=%s: expected gles or dumb (the render path; unset: gles, else dumb)",
                      forced);
        drm_close((lk_backend_instance *)out);
        return NULL;
    }
    /* 0 forces legacy modesetting; any other value was taken as "atomic
       where the driver has it" without a word */
    const char *atomic = getenv("LAYERKIT_DRM_ATOMIC");
    if (atomic && *atomic && strcmp(atomic, "0") != 0 && strcmp(atomic, "1") != 0) {
        drm_set_error(error, error_size,
                      "drm backend: LAYERKIT_DRM_ATOMIC=%s: expected 0 (legacy modesetting) or 1 (atomic where the "
                      "driver has it: the default)",
                      atomic);
        drm_close((lk_backend_instance *)out);
        return NULL;
    }

    if (!drm_choose(out, &o, error, error_size)) {
        drm_close((lk_backend_instance *)out);
        return NULL;
    }
    bool sideways = out->rotation == 90 || out->rotation == 270;
    out->width = sideways ? out->mode.vdisplay : out->mode.hdisplay;
    out->height = sideways ? out->mode.hdisplay : out->mode.vdisplay;
    /* the plane turns where it can (a TEST_ONLY commit says), else the renderer */
    drm_rotation_choose(out);
    set_buffer_size(out);

    char *reasons = out->path_failures;
    size_t reasons_size = sizeof out->path_failures, used = 0;
    for (size_t i = 0; i < PATH_COUNT && !out->path; i++) {
        const drm_render_path *path = render_paths[i].path;
        char reason[512] = "";
        if (forced && strcmp(forced, render_paths[i].key) != 0) {
            snprintf(reason, sizeof reason, "not tried (LAYERKIT_DRM_PATH=%s)", forced);
        } else if (path->start(out, reason, sizeof reason)) {
            out->path = path;
            continue;
        } else if (out->path_state) {
            path->stop(out);   /* what it had made before it failed */
        }
        drm_log(out, LK_BACKEND_LOG_WARNING, "drm backend: render path %s: %s", path->name, reason);
        used += (size_t)snprintf(reasons + used, reasons_size - used, "%s%s: %s", used ? "; " : "", path->name,
                                 reason);
        if (used >= reasons_size) used = reasons_size - 1;
    }
    if (!out->path) {
        drm_set_error(error, error_size, "drm backend: no render path works on %s: %s", out->device, reasons);
        drm_close((lk_backend_instance *)out);
        return NULL;
    }
    if (!drm_kms_start(out, error, error_size)) {
        drm_close((lk_backend_instance *)out);
        return NULL;
    }
    drm_log(out, LK_BACKEND_LOG_INFO,
            "drm backend: %s, connector %s, %ux%u@%.2f Hz, %s modesetting, %s (%u), rotation %u %s",
            out->device, out->connector_name, out->mode.hdisplay, out->mode.vdisplay, out->refresh_rate,
            out->atomic ? "atomic" : "legacy", out->path->name, out->buffer_count, out->rotation,
            out->rotation_how);
    return (lk_backend_instance *)out;
}

static void drm_close(lk_backend_instance *instance)
{
    drm_output *out = (drm_output *)instance;
    if (!out) return;
    if (out->path) {
        drm_kms_stop(out);
        if (out->frames_drawn)
            drm_log(out, LK_BACKEND_LOG_INFO,
                    "drm backend: %llu frames drawn, %llu pixels redrawn (%.0f per frame; a whole frame is %u)",
                    (unsigned long long)out->frames_drawn, (unsigned long long)out->pixels_drawn,
                    (double)out->pixels_drawn / (double)out->frames_drawn,
                    out->buffer_width * out->buffer_height);
    }
    if (out->path_state && out->path) out->path->stop(out);
    if (out->fd >= 0) close(out->fd);
    pthread_cond_destroy(&out->flipped);
    pthread_mutex_destroy(&out->lock);
    free(out);
}

static bool drm_get_output(lk_backend_instance *instance, lk_backend_output_info *info)
{
    drm_output *out = (drm_output *)instance;
    if (!out || !info || info->struct_size < sizeof(uint32_t)) return false;
    lk_backend_output_info o;
    memset(&o, 0, sizeof o);
    o.struct_size = info->struct_size;
    pthread_mutex_lock(&out->lock);   /* the event thread changes them (RESIZED) */
    o.width = out->width;
    o.height = out->height;
    o.refresh_rate = out->refresh_rate;
    pthread_mutex_unlock(&out->lock);
    o.name = out->connector_name;
    memcpy(info, &o, info->struct_size < sizeof o ? info->struct_size : sizeof o);
    return true;
}

/* Plugged back without our mode (check_connector in drm_kms.c): the
   buffers are made again at the new mode's size, which the next frame sets. */
static bool apply_pending_mode(drm_output *out, char *error, size_t error_size)
{
    pthread_mutex_lock(&out->lock);
    bool pending = out->mode_change_pending;
    drmModeModeInfo mode = out->pending_mode;
    out->mode_change_pending = false;
    pthread_mutex_unlock(&out->lock);
    if (!pending) return true;
    char ignored[128];
    drm_kms_wait_idle(out, ignored, sizeof ignored);
    out->path->stop(out);
    out->mode = mode;
    set_buffer_size(out);
    if (out->atomic) {
        if (out->mode_blob) drmModeDestroyPropertyBlob(out->fd, out->mode_blob);
        out->mode_blob = 0;
        if (drmModeCreatePropertyBlob(out->fd, &out->mode, sizeof out->mode, &out->mode_blob) != 0) {
            drm_set_error(error, error_size, "drm backend: cannot create the blob of mode %ux%u: %s",
                          mode.hdisplay, mode.vdisplay, strerror(errno));
            return false;
        }
    }
    if (!out->path->start(out, error, error_size)) return false;
    pthread_mutex_lock(&out->lock);
    out->front_fb = 0;
    out->needs_modeset = true;
    pthread_mutex_unlock(&out->lock);
    drm_log(out, LK_BACKEND_LOG_INFO, "drm backend: %s now %ux%u (%s)", out->connector_name, mode.hdisplay,
            mode.vdisplay, out->path->name);
    return true;
}

static bool drm_render(lk_backend_instance *instance, const lk_display_list *list,
                       char *error, size_t error_size)
{
    drm_output *out = (drm_output *)instance;
    if (!out) {
        drm_set_error(error, error_size, "drm backend: render called without an instance");
        return false;
    }
    if (list && list->struct_size >= sizeof *list && drm_kms_paused(out, list->frame_number)) return true;
    if (!out->path_state || !apply_pending_mode(out, error, error_size)) {
        if (!out->path_state && error && !*error)
            drm_set_error(error, error_size, "drm backend: no buffers since the mode changed");
        return false;
    }
    /* with two buffers one is on screen and one queued until the flip */
    if (out->buffer_count < 3 && !drm_kms_wait_idle(out, error, error_size)) return false;
    pthread_mutex_lock(&out->lock);
    uint32_t front = out->front_fb;
    pthread_mutex_unlock(&out->lock);
    out->path->presented(out, front);

    uint32_t fb = 0;
    if (!out->path->draw(out, list, &fb, error, error_size)) return false;
    if (!drm_kms_wait_idle(out, error, error_size)) return false;
    pthread_mutex_lock(&out->lock);
    front = out->front_fb;
    pthread_mutex_unlock(&out->lock);
    out->path->presented(out, front);
    return drm_kms_present(out, fb, list->frame_number, error, error_size);
}

static bool drm_read_pixels(lk_backend_instance *instance, void *argb32, size_t stride,
                            char *error, size_t error_size)
{
    drm_output *out = (drm_output *)instance;
    if (!out || !argb32) {
        drm_set_error(error, error_size, "drm backend: read_pixels needs an instance and a buffer");
        return false;
    }
    if (stride < (size_t)out->width * 4) {
        drm_set_error(error, error_size, "drm backend: read_pixels stride %zu is smaller than a row (%u bytes)",
                      stride, out->width * 4);
        return false;
    }
    if (!out->path_state || !apply_pending_mode(out, error, error_size)) {
        if (error && !*error) drm_set_error(error, error_size, "drm backend: no buffers since the mode changed");
        return false;
    }
    /* the frame rendered last, once it is on screen */
    if (!drm_kms_wait_idle(out, error, error_size)) return false;
    pthread_mutex_lock(&out->lock);
    uint32_t front = out->front_fb;
    pthread_mutex_unlock(&out->lock);
    out->path->presented(out, front);
    return out->path->read(out, argb32, stride, error, error_size);
}

static void drm_image_released(lk_backend_instance *instance, uint64_t id)
{
    drm_output *out = (drm_output *)instance;
    if (out && out->path) out->path->image_released(out, id);
}

static bool drm_describe_entry(lk_backend_instance *instance, char *text, size_t text_size)
{
    return drm_describe((const drm_output *)instance, text, text_size);
}

static const lk_backend drm_backend = {
    .abi_version = LK_BACKEND_ABI_VERSION,
    .struct_size = sizeof(lk_backend),
    .name = "drm",
    .description = "DRM/KMS: straight onto a display, GBM buffers drawn by the GLES renderer through EGL, "
                   "else dumb buffers drawn by the software renderer",
    .open = drm_open,
    .close = drm_close,
    .get_output = drm_get_output,
    .render = drm_render,
    .read_pixels = drm_read_pixels,
    .image_released = drm_image_released,
    .describe = drm_describe_entry,
};

/* The one exported symbol (Plugins/plugin.map), of type lk_backend_entry_fn. */
__attribute__((visibility("default")))
const lk_backend *lk_backend_entry(uint32_t host_abi_version);

const lk_backend *lk_backend_entry(uint32_t host_abi_version)
{
    return host_abi_version == LK_BACKEND_ABI_VERSION ? &drm_backend : NULL;
}
