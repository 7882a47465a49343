#define _GNU_SOURCE 1   /* pipe2 */
/*
 * Modesetting and frame pacing.
 *
 * The mode is set once at open (atomic commit with ALLOW_MODESET, or
 * drmModeSetCrtc where the driver has no atomic); every later frame is a
 * page flip (a non-blocking atomic commit, or drmModePageFlip) that asks for
 * a flip event. At most one flip is in flight: render() sleeps on a
 * condition variable until the event thread has read the previous flip's
 * event from the DRM file descriptor (poll, never a busy wait), and the
 * event's kernel timestamp (CLOCK_MONOTONIC) is the frame's presentation
 * time handed to the host's frame_done.
 *
 * The event thread also reads hotplug uevents (netlink): when the connector
 * goes away frames are dropped until it comes back, then the mode is set
 * again. When another program takes DRM master (a VT switch), commits fail
 * with EACCES: frames are dropped until master can be taken back.
 */
#include "drm_private.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------------ */
/* Events                                                                    */

static void flip_done(drm_output *out, double time)
{
    pthread_mutex_lock(&out->lock);
    bool reported = out->flip_pending;
    uint64_t frame = out->pending_frame;
    if (out->flip_pending) {
        out->front_fb = out->pending_fb;
        out->flip_pending = false;
        out->flips++;
        out->last_flip_time = time;
    }
    pthread_cond_broadcast(&out->flipped);
    pthread_mutex_unlock(&out->lock);
    if (reported && frame && out->host.frame_done)
        out->host.frame_done(out->host.host_data, frame, time);
}

static void page_flip_handler(int fd, unsigned sequence, unsigned sec, unsigned usec,
                              unsigned crtc, void *data)
{
    (void)fd; (void)sequence; (void)crtc;
    flip_done(data, (double)sec + usec * 1e-6);
}

/* Re-reads the connector's state after a hotplug uevent: unplugged is
   PAUSED; plugged back is RESUMED, after RESIZED when our mode is gone and
   the connector's preferred one (else its first) is taken instead. */
static void check_connector(drm_output *out)
{
    drmModeConnector *c = drmModeGetConnector(out->fd, out->connector_id);
    bool connected = out->writeback || (c && c->connection == DRM_MODE_CONNECTED);
    bool has_mode = false;
    int other = -1;
    for (int i = 0; c && i < c->count_modes; i++) {
        if (c->modes[i].hdisplay == out->mode.hdisplay && c->modes[i].vdisplay == out->mode.vdisplay)
            has_mode = true;
        if (other < 0 || (c->modes[i].type & DRM_MODE_TYPE_PREFERRED)) other = i;
    }
    drmModeModeInfo replacement;
    if (other >= 0) replacement = c->modes[other];
    drmModeFreeConnector(c);
    if (connected && !has_mode && other < 0) connected = false;   /* no mode at all: still gone */
    pthread_mutex_lock(&out->lock);
    bool was_lost = out->connector_lost;
    bool resized = false;
    if (!connected && !was_lost) {
        out->connector_lost = true;
    } else if (connected && was_lost) {
        out->connector_lost = false;
        out->needs_modeset = true;
        if (!has_mode) {
            resized = true;
            out->mode_change_pending = true;
            out->pending_mode = replacement;
            bool sideways = out->rotation == 90 || out->rotation == 270;
            out->width = sideways ? replacement.vdisplay : replacement.hdisplay;
            out->height = sideways ? replacement.hdisplay : replacement.vdisplay;
            out->refresh_rate = replacement.vrefresh;
            if (replacement.htotal && replacement.vtotal)
                out->refresh_rate = replacement.clock * 1000.0 / ((double)replacement.htotal * replacement.vtotal);
        }
    }
    bool lost = out->connector_lost;
    pthread_mutex_unlock(&out->lock);
    char detail[160];
    if (lost && !was_lost) {
        snprintf(detail, sizeof detail, "connector %s was unplugged: frames are dropped until it returns",
                 out->connector_name);
        drm_output_event(out, LK_BACKEND_OUTPUT_PAUSED, detail);
    } else if (!lost && was_lost) {
        if (resized) {
            snprintf(detail, sizeof detail, "connector %s is back without mode %ux%u: switching to %ux%u",
                     out->connector_name, out->mode.hdisplay, out->mode.vdisplay, replacement.hdisplay,
                     replacement.vdisplay);
            drm_output_event(out, LK_BACKEND_OUTPUT_RESIZED, detail);
        }
        snprintf(detail, sizeof detail, "connector %s is back: setting the mode again", out->connector_name);
        drm_output_event(out, LK_BACKEND_OUTPUT_RESUMED, detail);
    }
}

bool drm_kms_regain_master(drm_output *out)
{
    pthread_mutex_lock(&out->lock);
    bool back = out->master_lost && drmSetMaster(out->fd) == 0;
    if (back) {
        out->master_lost = false;
        out->needs_modeset = true;
    }
    pthread_mutex_unlock(&out->lock);
    if (back) {
        char detail[160];
        snprintf(detail, sizeof detail, "DRM master of %s is back: setting the mode again", out->device);
        drm_output_event(out, LK_BACKEND_OUTPUT_RESUMED, detail);
    }
    return back;
}

/* A kernel uevent is NUL-separated "KEY=value" strings. A connector change
   is a "change" of the drm subsystem (with HOTPLUG=1 from the kernel's own
   detection); any change there makes us look at our connector again. */
static bool is_drm_change(const char *msg, size_t length)
{
    bool drm = false, change = false;
    for (size_t i = 0; i < length; i += strlen(msg + i) + 1) {
        if (strcmp(msg + i, "SUBSYSTEM=drm") == 0) drm = true;
        if (strcmp(msg + i, "ACTION=change") == 0 || strcmp(msg + i, "HOTPLUG=1") == 0) change = true;
    }
    return drm && change;
}

static void *event_thread(void *data)
{
    drm_output *out = data;
    drmEventContext context;
    memset(&context, 0, sizeof context);
    context.version = 3;
    context.page_flip_handler2 = page_flip_handler;
    for (;;) {
        struct pollfd fds[3] = {
            { .fd = out->fd, .events = POLLIN },
            { .fd = out->wake_fd[0], .events = POLLIN },
            { .fd = out->uevent_fd, .events = POLLIN },
        };
        /* while master is lost, look every 100 ms whether it can be taken
           back (no VT-switch signal reaches a program without logind) */
        pthread_mutex_lock(&out->lock);
        bool waiting_for_master = out->master_lost;
        pthread_mutex_unlock(&out->lock);
        int n = poll(fds, out->uevent_fd >= 0 ? 3 : 2, waiting_for_master ? DRM_MASTER_RETRY_MS : -1);
        if (waiting_for_master) drm_kms_regain_master(out);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 || (fds[1].revents & POLLHUP)) break;
        if (fds[1].revents & POLLIN) {
            /* 'm': master was lost, look for it from now on; else: exit */
            char why = 0;
            if (read(out->wake_fd[0], &why, 1) != 1 || why != 'm') break;
        }
        if (fds[0].revents & POLLIN) drmHandleEvent(out->fd, &context);
        if (out->uevent_fd >= 0 && (fds[2].revents & POLLIN)) {
            char msg[4096];
            ssize_t length = recv(out->uevent_fd, msg, sizeof msg - 1, 0);
            if (length > 0) {
                msg[length] = 0;
                if (is_drm_change(msg, (size_t)length)) check_connector(out);
            }
        }
    }
    return NULL;
}

static int open_uevent_socket(void)
{
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -1;
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = 1;   /* the kernel's own uevents */
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* ------------------------------------------------------------------------ */
/* Commits                                                                   */

static void add(drmModeAtomicReq *req, uint32_t object, uint32_t property, uint64_t value)
{
    if (property) drmModeAtomicAddProperty(req, object, property, value);
}

static int atomic_commit(drm_output *out, uint32_t fb, bool modeset, bool capture)
{
    const drm_props *p = &out->props;
    drmModeAtomicReq *req = drmModeAtomicAlloc();
    if (!req) return -ENOMEM;
    if (modeset) {
        /* the CRTC is ours alone: other connectors on it (fbcon's) let go */
        for (int i = 0; i < out->saved.connector_count; i++)
            if (out->saved.connectors[i] != out->connector_id)
                add(req, out->saved.connectors[i],
                    drm_property(out->fd, out->saved.connectors[i], DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", NULL), 0);
        add(req, out->crtc_id, p->crtc_active, 1);
        add(req, out->crtc_id, p->crtc_mode_id, out->mode_blob);
        add(req, out->connector_id, p->connector_crtc_id, out->crtc_id);
    }
    add(req, out->plane_id, p->plane_fb_id, fb);
    add(req, out->plane_id, p->plane_crtc_id, out->crtc_id);
    add(req, out->plane_id, p->plane_src_x, 0);
    add(req, out->plane_id, p->plane_src_y, 0);
    add(req, out->plane_id, p->plane_src_w, (uint64_t)out->buffer_width << 16);
    add(req, out->plane_id, p->plane_src_h, (uint64_t)out->buffer_height << 16);
    add(req, out->plane_id, p->plane_crtc_x, 0);
    add(req, out->plane_id, p->plane_crtc_y, 0);
    add(req, out->plane_id, p->plane_crtc_w, out->mode.hdisplay);
    add(req, out->plane_id, p->plane_crtc_h, out->mode.vdisplay);
    /* turned by the plane, or explicitly not (another program may have left it turned) */
    add(req, out->plane_id, out->plane_rotation_prop, out->plane_rotation);
    if (capture) {
        /* the writeback connector writes this composed frame into its buffer */
        if (out->writeback_fence >= 0) close(out->writeback_fence);
        out->writeback_fence = -1;
        add(req, out->connector_id, p->writeback_fb_id, out->writeback_fb);
        add(req, out->connector_id, p->writeback_out_fence_ptr,
            (uint64_t)(uintptr_t)&out->writeback_fence);
    }
    uint32_t flags = DRM_MODE_PAGE_FLIP_EVENT | (modeset ? DRM_MODE_ATOMIC_ALLOW_MODESET
                                                         : DRM_MODE_ATOMIC_NONBLOCK);
    int r = drmModeAtomicCommit(out->fd, req, flags, out);
    drmModeAtomicFree(req);
    return r == 0 ? 0 : -errno;
}

/* Sets the mode with fb on screen; the flip event (or, for legacy, an
   immediate completion) follows. */
static int modeset(drm_output *out, uint32_t fb)
{
    if (out->atomic) return atomic_commit(out, fb, true, false);
    if (drmModeSetCrtc(out->fd, out->crtc_id, fb, 0, 0, &out->connector_id, 1, &out->mode) != 0)
        return -errno;
    return 1;   /* done, no event */
}

static int flip(drm_output *out, uint32_t fb)
{
    if (out->atomic) return atomic_commit(out, fb, false, false);
    return drmModePageFlip(out->fd, out->crtc_id, fb, DRM_MODE_PAGE_FLIP_EVENT, out) == 0 ? 0 : -errno;
}

static void save_crtc(drm_output *out)
{
    out->saved.crtc = drmModeGetCrtc(out->fd, out->crtc_id);
    drmModeRes *res = drmModeGetResources(out->fd);
    for (int i = 0; res && i < res->count_connectors && out->saved.connector_count < 8; i++) {
        drmModeConnector *c = drmModeGetConnector(out->fd, res->connectors[i]);
        drmModeEncoder *e = c && c->encoder_id ? drmModeGetEncoder(out->fd, c->encoder_id) : NULL;
        if (e && e->crtc_id == out->crtc_id)
            out->saved.connectors[out->saved.connector_count++] = c->connector_id;
        drmModeFreeEncoder(e);
        drmModeFreeConnector(c);
    }
    drmModeFreeResources(res);
    out->saved.valid = out->saved.crtc != NULL;
}

bool drm_kms_start(drm_output *out, char *error, size_t error_size)
{
    out->writeback_fence = -1;
    out->uevent_fd = -1;
    out->wake_fd[0] = out->wake_fd[1] = -1;
    if (out->atomic &&
        drmModeCreatePropertyBlob(out->fd, &out->mode, sizeof out->mode, &out->mode_blob) != 0) {
        drm_set_error(error, error_size, "drm backend: cannot create the mode blob on %s: %s",
                      out->device, strerror(errno));
        return false;
    }
    save_crtc(out);

    uint32_t fb = 0;
    if (!out->path->first_buffer(out, &fb, error, error_size)) return false;
    int r = modeset(out, fb);
    if (r < 0) {
        drm_set_error(error, error_size, "drm backend: setting mode %ux%u@%u on %s (%s) failed: %s",
                      out->mode.hdisplay, out->mode.vdisplay, out->mode.vrefresh, out->connector_name,
                      out->device, strerror(-r));
        return false;
    }
    if (r == 0) {
        /* an atomic modeset is blocking: its event is already waiting */
        drmEventContext context;
        memset(&context, 0, sizeof context);
        context.version = 3;
        context.page_flip_handler2 = page_flip_handler;
        out->flip_pending = true;
        out->pending_fb = fb;
        out->pending_frame = 0;
        struct pollfd pfd = { .fd = out->fd, .events = POLLIN };
        if (poll(&pfd, 1, DRM_FLIP_TIMEOUT_MS) == 1) drmHandleEvent(out->fd, &context);
        if (out->flip_pending) {
            drm_set_error(error, error_size, "drm backend: the modeset on %s sent no completion event",
                          out->device);
            return false;
        }
    } else {
        out->front_fb = fb;
    }
    out->path->presented(out, fb);

    if (pipe2(out->wake_fd, O_CLOEXEC) != 0) {
        drm_set_error(error, error_size, "drm backend: pipe: %s", strerror(errno));
        return false;
    }
    out->uevent_fd = open_uevent_socket();
    if (out->uevent_fd < 0)
        drm_log(out, LK_BACKEND_LOG_INFO,
                "drm backend: no uevent socket (%s): connector hotplug is not followed", strerror(errno));
    if (pthread_create(&out->event_thread, NULL, event_thread, out) != 0) {
        drm_set_error(error, error_size, "drm backend: cannot start the event thread");
        return false;
    }
    out->event_thread_running = true;
    return true;
}

bool drm_kms_wait_idle(drm_output *out, char *error, size_t error_size)
{
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += DRM_FLIP_TIMEOUT_MS / 1000;
    pthread_mutex_lock(&out->lock);
    int r = 0;
    while (out->flip_pending && r == 0) r = pthread_cond_timedwait(&out->flipped, &out->lock, &deadline);
    bool stuck = out->flip_pending;
    uint64_t frame = out->pending_frame;
    if (stuck) out->flip_pending = false;   /* forget it: the next frame may try again */
    pthread_mutex_unlock(&out->lock);
    if (stuck)
        drm_set_error(error, error_size, "drm backend: the flip of frame %llu on %s got no event within %d ms",
                      (unsigned long long)frame, out->connector_name, DRM_FLIP_TIMEOUT_MS);
    return !stuck;
}

/* Frames are not shown (unplugged, or master lost): report them done so the
   program's pacing goes on. */
static void drop_frame(drm_output *out, uint64_t frame)
{
    if (frame && out->host.frame_done) out->host.frame_done(out->host.host_data, frame, now_seconds());
}

bool drm_kms_paused(drm_output *out, uint64_t frame)
{
    /* master comes back once the other program has let go */
    drm_kms_regain_master(out);
    pthread_mutex_lock(&out->lock);
    bool lost = out->connector_lost, no_master = out->master_lost;
    pthread_mutex_unlock(&out->lock);
    if (!lost && !no_master) return false;
    out->path->forget(out);
    drop_frame(out, frame);
    return true;
}

bool drm_kms_present(drm_output *out, uint32_t fb, uint64_t frame, char *error, size_t error_size)
{
    pthread_mutex_lock(&out->lock);
    bool again = out->needs_modeset;
    out->needs_modeset = false;
    out->flip_pending = true;
    out->pending_fb = fb;
    out->pending_frame = frame;
    pthread_mutex_unlock(&out->lock);
    int r = again ? modeset(out, fb) : flip(out, fb);
    if (r == -EACCES || r == -EPERM) {
        pthread_mutex_lock(&out->lock);
        out->flip_pending = false;
        out->needs_modeset = true;
        bool was_lost = out->master_lost;
        out->master_lost = true;
        pthread_mutex_unlock(&out->lock);
        out->path->forget(out);
        if (!was_lost) {
            char detail[160];
            snprintf(detail, sizeof detail,
                     "lost DRM master of %s (a VT switch?): frames are dropped until it returns", out->device);
            drm_output_event(out, LK_BACKEND_OUTPUT_PAUSED, detail);
            /* the event thread looks for master from now on */
            if (write(out->wake_fd[1], "m", 1) != 1) { /* it looks at its next wake-up */ }
        }
        drop_frame(out, frame);
        return true;
    }
    if (r < 0) {
        pthread_mutex_lock(&out->lock);
        out->flip_pending = false;
        pthread_mutex_unlock(&out->lock);
        drm_set_error(error, error_size, "drm backend: presenting frame %llu on %s failed: %s",
                      (unsigned long long)frame, out->connector_name, strerror(-r));
        return false;
    }
    if (r == 1) flip_done(out, now_seconds());   /* legacy modeset: no event */
    return true;
}

/* Waits until either fence signals. */
static bool wait_fences(int a, int b, int timeout_ms)
{
    struct pollfd p[2] = { { .fd = a, .events = POLLIN }, { .fd = b, .events = POLLIN } };
    return (a >= 0 || b >= 0) && poll(p, 2, timeout_ms) > 0;
}

bool drm_kms_capture(drm_output *out, char *error, size_t error_size)
{
    /* Only these commits carry a writeback job, one at a time: vkms (6.1)
       switches its composer off when a job is cleaned up, which races with
       the next job when every flip carries one (that job then never
       completes). A job caught by that race completes at the composition
       after the next commit, which writes the same frame: so a capture that
       does not complete is asked for again and either job's end will do. */
    int stuck = -1;
    bool done = false;
    for (int attempt = 0; attempt < 3 && !done; attempt++) {
        if (!drm_kms_wait_idle(out, error, error_size)) break;
        pthread_mutex_lock(&out->lock);
        uint32_t fb = out->front_fb;
        out->flip_pending = true;
        out->pending_fb = fb;
        out->pending_frame = 0;
        pthread_mutex_unlock(&out->lock);
        int r = atomic_commit(out, fb, false, true);
        if (r < 0) {
            pthread_mutex_lock(&out->lock);
            out->flip_pending = false;
            pthread_mutex_unlock(&out->lock);
            drm_set_error(error, error_size, "drm backend: capturing through %s failed: %s", out->connector_name,
                          strerror(-r));
            break;
        }
        done = wait_fences(out->writeback_fence, stuck, DRM_WRITEBACK_TIMEOUT_MS);
        if (!drm_kms_wait_idle(out, error, error_size)) { done = false; break; }
        if (!done && stuck < 0) {
            stuck = out->writeback_fence;   /* keep it: its end is as good */
            out->writeback_fence = -1;
        }
        if (!done)
            drm_set_error(error, error_size, "drm backend: the writeback of %s did not complete",
                          out->connector_name);
    }
    if (stuck >= 0) close(stuck);
    return done;
}

static void restore(drm_output *out)
{
    drmModeCrtc *c = out->saved.crtc;
    if (out->atomic && out->plane_rotation_prop && out->plane_rotation != out->saved_plane_rotation) {
        /* the plane's rotation as it was (a console does not expect it
           turned): set while the plane is off, which no size check refuses;
           what was shown comes back below */
        drmModeAtomicReq *req = drmModeAtomicAlloc();
        add(req, out->plane_id, out->props.plane_fb_id, 0);
        add(req, out->plane_id, out->props.plane_crtc_id, 0);
        add(req, out->plane_id, out->plane_rotation_prop, out->saved_plane_rotation);
        if (!req || drmModeAtomicCommit(out->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL) != 0)
            drm_log(out, LK_BACKEND_LOG_WARNING, "drm backend: putting back the rotation of plane %u failed: %s",
                    out->plane_id, strerror(errno));
        drmModeAtomicFree(req);
    }
    if (c && c->mode_valid && c->buffer_id && out->saved.connector_count > 0) {
        if (drmModeSetCrtc(out->fd, out->crtc_id, c->buffer_id, c->x, c->y, out->saved.connectors,
                           out->saved.connector_count, &c->mode) != 0)
            drm_log(out, LK_BACKEND_LOG_WARNING, "drm backend: restoring the previous mode of %s failed: %s",
                    out->device, strerror(errno));
        return;
    }
    /* the CRTC was off: switch it off again */
    if (out->atomic) {
        drmModeAtomicReq *req = drmModeAtomicAlloc();
        add(req, out->plane_id, out->props.plane_fb_id, 0);
        add(req, out->plane_id, out->props.plane_crtc_id, 0);
        add(req, out->connector_id, out->props.connector_crtc_id, 0);
        add(req, out->crtc_id, out->props.crtc_active, 0);
        add(req, out->crtc_id, out->props.crtc_mode_id, 0);
        if (drmModeAtomicCommit(out->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL) != 0)
            drm_log(out, LK_BACKEND_LOG_WARNING, "drm backend: switching %s off again failed: %s",
                    out->connector_name, strerror(errno));
        drmModeAtomicFree(req);
    } else if (drmModeSetCrtc(out->fd, out->crtc_id, 0, 0, 0, NULL, 0, NULL) != 0) {
        drm_log(out, LK_BACKEND_LOG_WARNING, "drm backend: switching %s off again failed: %s",
                out->connector_name, strerror(errno));
    }
}

void drm_kms_stop(drm_output *out)
{
    if (out->event_thread_running) {
        char error[128];
        drm_kms_wait_idle(out, error, sizeof error);
        if (write(out->wake_fd[1], "x", 1) != 1) { /* the thread also ends on the close below */ }
        pthread_join(out->event_thread, NULL);
        out->event_thread_running = false;
    }
    if (out->wake_fd[0] >= 0) close(out->wake_fd[0]);
    if (out->wake_fd[1] >= 0) close(out->wake_fd[1]);
    if (out->uevent_fd >= 0) close(out->uevent_fd);
    out->wake_fd[0] = out->wake_fd[1] = out->uevent_fd = -1;
    if (out->fd >= 0 && out->saved.valid) restore(out);
    if (out->writeback_fence >= 0) close(out->writeback_fence);
    out->writeback_fence = -1;
    if (out->mode_blob) drmModeDestroyPropertyBlob(out->fd, out->mode_blob);
    out->mode_blob = 0;
    drmModeFreeCrtc(out->saved.crtc);
    out->saved.crtc = NULL;
}
