/*
 * Who turns the picture for a rotated output: the plane (its "rotation"
 * property, where the driver has one and takes the value) or the renderer
 * (drm_turn.c).
 *
 * The program's rotation is clockwise (90: its top left corner at the top
 * right of the scanout); KMS's DRM_MODE_ROTATE_90 turns the buffer
 * counter-clockwise, so clockwise 90 is DRM_MODE_ROTATE_270 and 270 is
 * DRM_MODE_ROTATE_90; 180 is DRM_MODE_ROTATE_180, or both reflections where
 * the plane can only reflect. With the plane turning, the buffers are the
 * program's size (a 768x1024 buffer shown on a 1024x768 mode) and the
 * renderer draws them unturned.
 *
 * drm_rotation_plan() (drm_rotation_plan.c) decides from what the plane
 * offers; drm_rotation_choose() here reads the plane's property, asks the
 * plan, and confirms a plane rotation with an atomic TEST_ONLY commit, else
 * the renderer turns.
 */
#include "drm_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An atomic TEST_ONLY modeset with the plane turned: whether the driver
   takes it (it may refuse the value with this format, size or mode). A
   dumb buffer of the program's size stands in for the path's buffers. */
static int test_commit(drm_output *out, uint32_t property, uint64_t value)
{
    uint32_t bw = out->width, bh = out->height;   /* the program's size: the plane turns it */
    drm_dumb_buffer b;
    char ignored[160];
    if (!drm_dumb_create(out->fd, bw, bh, &b, ignored, sizeof ignored)) return -ENOMEM;
    uint32_t blob = 0;
    int r = -EINVAL;
    drmModeAtomicReq *req = drmModeAtomicAlloc();
    if (req && drmModeCreatePropertyBlob(out->fd, &out->mode, sizeof out->mode, &blob) == 0) {
        const drm_props *p = &out->props;
        drmModeAtomicAddProperty(req, out->crtc_id, p->crtc_active, 1);
        drmModeAtomicAddProperty(req, out->crtc_id, p->crtc_mode_id, blob);
        drmModeAtomicAddProperty(req, out->connector_id, p->connector_crtc_id, out->crtc_id);
        drmModeAtomicAddProperty(req, out->plane_id, p->plane_fb_id, b.fb_id);
        drmModeAtomicAddProperty(req, out->plane_id, p->plane_crtc_id, out->crtc_id);
        drmModeAtomicAddProperty(req, out->plane_id, p->plane_src_x, 0);
        drmModeAtomicAddProperty(req, out->plane_id, p->plane_src_y, 0);
        drmModeAtomicAddProperty(req, out->plane_id, p->plane_src_w, (uint64_t)bw << 16);
        drmModeAtomicAddProperty(req, out->plane_id, p->plane_src_h, (uint64_t)bh << 16);
        drmModeAtomicAddProperty(req, out->plane_id, p->plane_crtc_x, 0);
        drmModeAtomicAddProperty(req, out->plane_id, p->plane_crtc_y, 0);
        drmModeAtomicAddProperty(req, out->plane_id, p->plane_crtc_w, out->mode.hdisplay);
        drmModeAtomicAddProperty(req, out->plane_id, p->plane_crtc_h, out->mode.vdisplay);
        drmModeAtomicAddProperty(req, out->plane_id, property, value);
        r = drmModeAtomicCommit(out->fd, req, DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET, NULL) == 0
                ? 0 : -errno;
    }
    if (blob) drmModeDestroyPropertyBlob(out->fd, blob);
    drmModeAtomicFree(req);
    drm_dumb_destroy(out->fd, &b);
    return r;
}

void drm_rotation_choose(drm_output *out)
{
    out->plane_rotation_prop = 0;
    out->plane_rotation = out->saved_plane_rotation = DRM_MODE_ROTATE_0;
    out->turn = out->rotation;
    uint64_t supported = 0;
    bool has_property = false;
    if (out->atomic && out->plane_id) {
        drmModeObjectProperties *props = drmModeObjectGetProperties(out->fd, out->plane_id, DRM_MODE_OBJECT_PLANE);
        for (uint32_t i = 0; props && i < props->count_props && !has_property; i++) {
            drmModePropertyRes *p = drmModeGetProperty(out->fd, props->props[i]);
            if (p && strcmp(p->name, "rotation") == 0) {
                has_property = true;
                out->plane_rotation_prop = p->prop_id;
                out->saved_plane_rotation = props->prop_values[i];
                supported = drm_rotation_supported(p);
            }
            drmModeFreeProperty(p);
        }
        drmModeFreeObjectProperties(props);
    }
    drm_rotation_plan_t plan = drm_rotation_plan(out->rotation, out->atomic, has_property, supported,
                                                 getenv("LAYERKIT_DRM_ROTATION"));
    snprintf(out->rotation_how, sizeof out->rotation_how, "%s", plan.reason);
    if (!plan.by_plane) return;
    int r = test_commit(out, out->plane_rotation_prop, plan.plane_value);
    if (r != 0) {
        /* plan.reason is "by the plane (VALUE)" */
        snprintf(out->rotation_how, sizeof out->rotation_how,
                 "by the renderer (the driver refused the plane's %s in a test commit: %s)",
                 plan.reason + strlen("by the plane "), strerror(-r));
        return;
    }
    out->plane_rotation = plan.plane_value;
    out->turn = 0;
}
