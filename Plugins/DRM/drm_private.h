/*
 * The DRM/KMS backend's private declarations, shared by its source files.
 *
 * drm_backend.c   the plugin table: open (choice of render path), close,
 *                 output, render, read_pixels
 * drm_choice.c    which device, connector, mode, CRTC and plane: from the
 *                 open options, the LAYERKIT_DRM_* environment, or defaults;
 *                 `list` prints the choices
 * drm_kms.c       modesetting (atomic, or legacy where the driver has no
 *                 atomic), page flips and their events on an event thread,
 *                 hotplug uevents, restoring the previous mode on close
 * drm_gbm.c       the render path of GBM buffers drawn by the shared GLES
 *                 renderer through EGL (EGL_PLATFORM_GBM_KHR), tried first
 * drm_dumb.c      the render path of dumb buffers drawn by the software
 *                 renderer, with a damage history per buffer
 * drm_turn.c      rotation (and the GL window's flipped rows) applied to the
 *                 display list, for both paths
 * drm_rotation.c  who turns a rotated output: the plane's rotation property
 *                 (checked with a TEST_ONLY commit) or the renderer
 * drm_rotation_plan.c that decision from the property's data alone
 * drm_describe.c  describe(): devices, connectors, modes, CRTCs, planes
 * drm_software_*.c the software backend's renderer, compiled in (not forked)
 *
 * A render path draws a display list into one of its scanout buffers and
 * hands back the framebuffer id to present; drm_kms.c presents it. The
 * paths are tried in order (drm_backend.c), GBM + EGL + GLES first;
 * LAYERKIT_DRM_PATH=gles or dumb allows only that one.
 */
#ifndef LAYERKIT_DRM_PRIVATE_H
#define LAYERKIT_DRM_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

#include "layerkit/layerkit_backend.h"

#define DRM_MAX_BUFFERS 3
/* How long render() waits for the previous flip before calling it lost. */
#define DRM_FLIP_TIMEOUT_MS 2000
/* How long read_pixels waits for a writeback capture before it asks again. */
#define DRM_WRITEBACK_TIMEOUT_MS 1000
/* How often the event thread tries to take DRM master back once lost. */
#define DRM_MASTER_RETRY_MS 100

typedef struct drm_output drm_output;

/* One way of drawing frames into scanout buffers. */
typedef struct drm_render_path {
    const char *name;
    /* creates the buffers for out->buffer_width x buffer_height; on failure
       writes why and returns false (the next path is tried) */
    bool (*start)(drm_output *out, char *error, size_t error_size);
    /* draws list into a buffer that is neither on screen nor queued and
       returns the framebuffer id to present */
    bool (*draw)(drm_output *out, const lk_display_list *list, uint32_t *fb_id,
                 char *error, size_t error_size);
    /* a cleared buffer for the modeset at open */
    bool (*first_buffer)(drm_output *out, uint32_t *fb_id, char *error, size_t error_size);
    /* fb_id is on screen now; buffers shown before it may be drawn again */
    void (*presented)(drm_output *out, uint32_t fb_id);
    /* frames were dropped (unplugged, master lost): redraw buffers whole */
    void (*forget)(drm_output *out);
    /* the frame on screen (or the writeback connector's capture), in the
       program's space, as opaque ARGB32 */
    bool (*read)(drm_output *out, void *argb32, size_t stride, char *error, size_t error_size);
    void (*image_released)(drm_output *out, uint64_t id);
    void (*stop)(drm_output *out);
} drm_render_path;

extern const drm_render_path drm_gbm_path;
extern const drm_render_path drm_dumb_path;

/* Property ids of the objects an atomic commit touches (0: absent). */
typedef struct drm_props {
    uint32_t plane_fb_id, plane_crtc_id, plane_src_x, plane_src_y, plane_src_w, plane_src_h,
             plane_crtc_x, plane_crtc_y, plane_crtc_w, plane_crtc_h;
    uint32_t crtc_active, crtc_mode_id;
    uint32_t connector_crtc_id;
    uint32_t writeback_fb_id, writeback_out_fence_ptr;
} drm_props;

/* What was on the CRTC before we took it, to put back on close. */
typedef struct drm_saved_crtc {
    bool            valid;
    drmModeCrtc    *crtc;            /* its fb, position and mode */
    uint32_t        connectors[8];   /* the connectors it drove */
    int             connector_count;
} drm_saved_crtc;

struct drm_output {
    lk_backend_host     host;          /* zeroed fields the host did not provide */
    int                 fd;
    char                device[64];
    char                connector_name[32];
    uint32_t            connector_id, crtc_id, crtc_index, plane_id;
    bool                writeback;     /* the connector is a writeback connector */
    bool                atomic;
    drmModeModeInfo     mode;
    uint32_t            mode_blob;
    drm_props           props;
    drm_saved_crtc      saved;

    uint32_t            rotation;      /* 0, 90, 180, 270, clockwise */
    uint32_t            turn;          /* what the renderer turns: rotation, or 0 when the plane does */
    uint32_t            plane_rotation_prop;   /* the plane's "rotation" property (0: none) */
    uint64_t            plane_rotation;        /* its value in our commits (DRM_MODE_ROTATE_*) */
    uint64_t            saved_plane_rotation;  /* its value before open, put back on close */
    char                rotation_how[160];     /* "by the plane (rotate-270)", "by the renderer (…)" */
    uint32_t            width, height; /* what the program sees: after rotation */
    uint32_t            buffer_width, buffer_height; /* the scanout buffers': the mode turned by `turn` */
    double              refresh_rate;

    const drm_render_path *path;
    void               *path_state;
    /* why the paths before the one in use did not start (for describe) */
    char                path_failures[768];
    unsigned            buffer_count;  /* 2 or 3 */

    /* writeback output: the connector's own target, read by read_pixels */
    uint32_t            writeback_fb;
    void               *writeback_state;
    int                 writeback_fence;

    /* page flips: at most one in flight; guarded by lock */
    pthread_mutex_t     lock;
    pthread_cond_t      flipped;
    bool                flip_pending;
    uint32_t            pending_fb, front_fb;
    uint64_t            pending_frame;
    uint64_t            flips;
    double              last_flip_time;
    bool                connector_lost;  /* unplugged: frames are dropped until it returns */
    bool                needs_modeset;   /* plugged again: the next frame sets the mode */
    bool                master_lost;     /* another program took DRM master (VT switch) */
    /* plugged back without our mode: the next render() switches to this one
       (width and height already say its size: get_output answers RESIZED) */
    bool                mode_change_pending;
    drmModeModeInfo     pending_mode;

    pthread_t           event_thread;
    bool                event_thread_running;
    int                 wake_fd[2];      /* a pipe: wakes the event thread to exit */
    int                 uevent_fd;       /* netlink: hotplug uevents, or -1 */

    /* figures, logged on close */
    uint64_t            frames_drawn;
    uint64_t            pixels_drawn;
};

/* drm_backend.c */
/* Tells the host (lk_backend_host.output_changed, ABI 3) and logs detail. */
void drm_output_event(drm_output *out, uint32_t event, const char *detail);
void drm_set_error(char *error, size_t error_size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
void drm_log(const drm_output *out, uint32_t level, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* drm_choice.c */
/* Opens the device, becomes master, picks connector, mode, CRTC and plane
   into out; writes why not otherwise. */
bool drm_choose(drm_output *out, const lk_backend_open_options *options,
                char *error, size_t error_size);
/* "<type>-<n>", e.g. "HDMI-A-1", "Virtual-1", "Writeback-1" */
void drm_connector_name(const drmModeConnector *c, char *name, size_t size);
/* the property named name of an object, its id (0: none) and value */
uint32_t drm_property(int fd, uint32_t object, uint32_t type, const char *name, uint64_t *value);

/* drm_kms.c */
bool drm_kms_start(drm_output *out, char *error, size_t error_size);
/* Waits until no flip is in flight (woken by the flip event). */
bool drm_kms_wait_idle(drm_output *out, char *error, size_t error_size);
/* Unplugged, or DRM master lost and not back: the frame is dropped (reported
   done, buffers to be redrawn whole) and true returned. */
bool drm_kms_paused(drm_output *out, uint64_t frame);
bool drm_kms_present(drm_output *out, uint32_t fb_id, uint64_t frame,
                     char *error, size_t error_size);
/* The event thread's part of master loss: takes DRM master back when the
   other program has let go (RESUMED follows). */
bool drm_kms_regain_master(drm_output *out);
/* Re-presents the frame on screen with a writeback job (writeback
   outputs): the connector's buffer then holds the composed frame. */
bool drm_kms_capture(drm_output *out, char *error, size_t error_size);
/* Stops the event thread and puts back what was on the CRTC before. */
void drm_kms_stop(drm_output *out);

/* drm_dumb.c: dumb buffers (also the writeback connector's target) */
typedef struct drm_dumb_buffer {
    uint32_t handle, pitch, fb_id, width, height;
    uint64_t size;
    void    *map;
} drm_dumb_buffer;
bool drm_dumb_create(int fd, uint32_t width, uint32_t height, drm_dumb_buffer *b,
                     char *error, size_t error_size);
void drm_dumb_destroy(int fd, drm_dumb_buffer *b);
/* Copies an XRGB image of sw x sh, turned clockwise by rotation from the
   program's space, into the program's space as opaque ARGB32 (a scanout
   buffer: rotation out->turn; a writeback capture, which the CRTC
   composed: out->rotation). */
void drm_unrotate_copy(const drm_output *out, uint32_t rotation, uint32_t sw, uint32_t sh, const void *src,
                       size_t src_stride, void *dst, size_t dst_stride);

/* drm_turn.c: the program's space into the buffer's (rotation, then the
   rows flipped when flip: an EGL window surface's bottom-up rows) */
const void *drm_turn_ops(const drm_output *out, bool flip, const lk_display_list *list,
                         unsigned char **buffer, size_t *capacity);
lk_dl_box drm_turn_damage(const drm_output *out, bool flip, lk_dl_box damage);

/* drm_rotation.c */
typedef struct drm_rotation_plan_t {
    bool     by_plane;        /* the plane's rotation property turns (a TEST_ONLY commit decides) */
    uint64_t plane_value;     /* DRM_MODE_ROTATE_* | DRM_MODE_REFLECT_* to set */
    char     reason[120];     /* "by the plane (rotate-270)", "by the renderer (why)", "none" */
} drm_rotation_plan_t;
/* The bits a plane's "rotation" property offers (DRM_MODE_ROTATE_*,
   DRM_MODE_REFLECT_*), from its enum of bit numbers; 0 if it is no bitmask. */
uint64_t drm_rotation_supported(const drmModePropertyRes *property);
/* "rotate-0 rotate-180 reflect-x": the bits of mask, or "none". */
void drm_rotation_names(uint64_t mask, char *text, size_t size);
/* Who turns a clockwise rotation: the plane where the driver is atomic and
   the property offers the value, else the renderer. forced: the value of
   LAYERKIT_DRM_ROTATION ("renderer" keeps the plane unturned) or NULL. */
drm_rotation_plan_t drm_rotation_plan(uint32_t rotation, bool atomic, bool has_property, uint64_t supported,
                                      const char *forced);
/* Reads the chosen plane's property, plans, tries the plane's rotation with
   a TEST_ONLY commit; sets turn, plane_rotation(_prop) and rotation_how. */
void drm_rotation_choose(drm_output *out);

/* drm_gbm.c: appended to describe's text */
void drm_gbm_describe(const drm_output *out, char *text, size_t text_size);

/* drm_describe.c */
bool drm_describe(const drm_output *out, char *text, size_t text_size);
/* Appends the choices of every device to text: devices, connectors, modes. */
void drm_describe_devices(char *text, size_t text_size, bool with_planes);

#endif /* LAYERKIT_DRM_PRIVATE_H */
