/*
 * The GBM + EGL render path: the shared GLES renderer (Plugins/GLESRenderer)
 * draws into a gbm_surface of the mode's size through EGL on the GBM
 * platform (EGL_PLATFORM_GBM_KHR) on the DRM file descriptor itself; each
 * frame's buffer is locked after eglSwapBuffers, given a framebuffer
 * (drmModeAddFB2, kept with the buffer) and page-flipped by drm_kms.c like
 * the dumb path's buffers. A buffer goes back to the surface once the next
 * one is on screen.
 *
 * Damage: EGL_EXT_buffer_age says how many frames ago the back buffer was
 * drawn; the damage of the frames since then is redrawn (the rest of the
 * buffer keeps what it had). Without the extension, or with age 0, frames
 * are drawn whole.
 *
 * Rows: an EGL window surface has GL window y = 0 at the buffer's bottom
 * row, while the renderer draws output row 0 at window y = 0, so the list
 * is turned (drm_turn.c) with the rows flipped, after the rotation.
 *
 * The EGL context is made current on the calling thread for each call and
 * released before returning: the core may call from different threads (one
 * at a time).
 */
#include "drm_private.h"
#include "lk_gles_renderer.h"
#include "../GLES/gles_egl_names.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <errno.h>
#include <gbm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GBM_LABEL "drm backend (gles)"
#define HISTORY 8

typedef struct gbm_state {
    struct gbm_device  *device;
    struct gbm_surface *surface;
    uint32_t            format;        /* GBM_FORMAT_XRGB8888 or ARGB8888 */
    EGLDisplay          display;
    EGLConfig           config;
    EGLContext          context;
    EGLSurface          window;
    bool                es3, buffer_age, redraw_whole;
    lkgl_renderer      *renderer;
    struct gbm_bo      *front;         /* on screen */
    struct gbm_bo      *queued;        /* presented, its flip not done yet */
    uint64_t            sequence;      /* frames drawn */
    lk_dl_box           history[HISTORY];
    uint64_t            ages[8];       /* frames drawn at buffer age 0 (whole), 1, 2, 3, more */
    unsigned char      *ops;
    size_t              ops_capacity;
    drm_dumb_buffer     writeback;
} gbm_state;

/* A buffer's framebuffer, removed with the buffer. */
typedef struct bo_fb { int fd; uint32_t fb_id; } bo_fb;


static bool make_current(gbm_state *s, char *error, size_t error_size)
{
    if (eglGetCurrentContext() == s->context && eglGetCurrentSurface(EGL_DRAW) == s->window) return true;
    if (!eglMakeCurrent(s->display, s->window, s->window, s->context)) {
        drm_set_error(error, error_size, GBM_LABEL ": eglMakeCurrent failed: %s", egl_error_name(eglGetError()));
        return false;
    }
    return true;
}

static void release_current(gbm_state *s)
{
    if (eglGetCurrentContext() == s->context)
        eglMakeCurrent(s->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

static void destroy_bo_fb(struct gbm_bo *bo, void *data)
{
    (void)bo;
    bo_fb *f = data;
    if (f->fb_id) drmModeRmFB(f->fd, f->fb_id);
    free(f);
}

/* The framebuffer of a locked buffer: made the first time it is seen. */
static uint32_t fb_of(drm_output *out, gbm_state *s, struct gbm_bo *bo, char *error, size_t error_size)
{
    bo_fb *f = gbm_bo_get_user_data(bo);
    if (f) return f->fb_id;
    f = calloc(1, sizeof *f);
    if (!f) {
        drm_set_error(error, error_size, GBM_LABEL ": out of memory");
        return 0;
    }
    f->fd = out->fd;
    uint32_t handles[4] = { gbm_bo_get_handle(bo).u32 }, pitches[4] = { gbm_bo_get_stride(bo) }, offsets[4] = { 0 };
    if (drmModeAddFB2(out->fd, gbm_bo_get_width(bo), gbm_bo_get_height(bo), s->format, handles, pitches, offsets,
                      &f->fb_id, 0) != 0) {
        drm_set_error(error, error_size, GBM_LABEL ": drmModeAddFB2 of a %ux%u GBM buffer failed: %s",
                      gbm_bo_get_width(bo), gbm_bo_get_height(bo), strerror(errno));
        free(f);
        return 0;
    }
    gbm_bo_set_user_data(bo, f, destroy_bo_fb);
    return f->fb_id;
}

static void gbm_path_stop(drm_output *out);

/* The EGL display on the GBM device, initialised. */
static bool open_display(gbm_state *s, char *error, size_t error_size)
{
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!client || !*client) {
        drm_set_error(error, error_size,
                      GBM_LABEL ": EGL is unavailable (%s; is Mesa's libEGL_mesa installed and listed in the "
                      "EGL vendor files?)", client ? "no client extensions" : egl_error_name(eglGetError()));
        return false;
    }
    PFNEGLGETPLATFORMDISPLAYEXTPROC get =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get || !has_extension(client, "EGL_EXT_platform_base") ||
        !(has_extension(client, "EGL_KHR_platform_gbm") || has_extension(client, "EGL_MESA_platform_gbm"))) {
        drm_set_error(error, error_size, GBM_LABEL ": EGL has no GBM platform (client extensions: %.300s)", client);
        return false;
    }
    s->display = get(EGL_PLATFORM_GBM_KHR, s->device, NULL);
    if (s->display == EGL_NO_DISPLAY) {
        drm_set_error(error, error_size, GBM_LABEL ": eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR) failed: %s",
                      egl_error_name(eglGetError()));
        return false;
    }
    EGLint major = 0, minor = 0;
    if (!eglInitialize(s->display, &major, &minor)) {
        drm_set_error(error, error_size,
                      GBM_LABEL ": eglInitialize on the GBM device failed: %s (no Mesa DRI driver for it: "
                      "kms_swrast_dri.so, or the GPU's own, in LIBGL_DRIVERS_PATH or Mesa's dri folder?)",
                      egl_error_name(eglGetError()));
        s->display = EGL_NO_DISPLAY;
        return false;
    }
    return true;
}

/* A window config whose native visual is the buffer format (XRGB8888 the
   primary plane takes everywhere, else ARGB8888). */
static bool choose_config(gbm_state *s, char *error, size_t error_size)
{
    static const uint32_t formats[] = { GBM_FORMAT_XRGB8888, GBM_FORMAT_ARGB8888 };
    const EGLint attributes[] = { EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                  EGL_BLUE_SIZE, 8, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE };
    EGLConfig configs[64];
    EGLint count = 0;
    if (!eglChooseConfig(s->display, attributes, configs, 64, &count) || count == 0) {
        drm_set_error(error, error_size, GBM_LABEL ": no EGL window config with 8-bit RGB and OpenGL ES 2 (%s)",
                      egl_error_name(eglGetError()));
        return false;
    }
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++)
        for (EGLint i = 0; i < count; i++) {
            EGLint visual = 0;
            if (eglGetConfigAttrib(s->display, configs[i], EGL_NATIVE_VISUAL_ID, &visual) &&
                (uint32_t)visual == formats[f]) {
                s->config = configs[i];
                s->format = formats[f];
                return true;
            }
        }
    drm_set_error(error, error_size, GBM_LABEL ": none of %d EGL configs has the XRGB8888 or ARGB8888 visual", count);
    return false;
}

static bool create_context(drm_output *out, gbm_state *s, char *error, size_t error_size)
{
    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        drm_set_error(error, error_size, GBM_LABEL ": eglBindAPI(EGL_OPENGL_ES_API) failed: %s",
                      egl_error_name(eglGetError()));
        return false;
    }
    char warning[256];
    bool allow_es3 = lkgl_es3_allowed_by_env(GBM_LABEL, warning, sizeof warning);
    if (*warning) drm_log(out, LK_BACKEND_LOG_WARNING, "%s", warning);
    EGLint e3 = EGL_SUCCESS;
    if (allow_es3) {
        const EGLint es3[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE };
        s->context = eglCreateContext(s->display, s->config, EGL_NO_CONTEXT, es3);
        if (s->context != EGL_NO_CONTEXT) {
            s->es3 = true;
            return true;
        }
        e3 = eglGetError();
    }
    const EGLint es2[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    s->context = eglCreateContext(s->display, s->config, EGL_NO_CONTEXT, es2);
    if (s->context == EGL_NO_CONTEXT) {
        drm_set_error(error, error_size, GBM_LABEL ": eglCreateContext failed for ES 3 (%s) and ES 2 (%s)",
                      egl_error_name(e3), egl_error_name(eglGetError()));
        return false;
    }
    return true;
}

static bool gbm_path_start(drm_output *out, char *error, size_t error_size)
{
    gbm_state *s = calloc(1, sizeof *s);
    if (!s) {
        drm_set_error(error, error_size, GBM_LABEL ": out of memory");
        return false;
    }
    out->path_state = s;
    s->display = EGL_NO_DISPLAY;
    s->context = EGL_NO_CONTEXT;
    s->window = EGL_NO_SURFACE;
    s->device = gbm_create_device(out->fd);
    if (!s->device) {
        drm_set_error(error, error_size, GBM_LABEL ": gbm_create_device on %s failed: %s", out->device,
                      strerror(errno));
        goto fail;
    }
    if (!open_display(s, error, error_size) || !choose_config(s, error, error_size) ||
        !create_context(out, s, error, error_size))
        goto fail;
    s->surface = gbm_surface_create(s->device, out->buffer_width, out->buffer_height, s->format,
                                    GBM_BO_USE_SCANOUT | GBM_BO_USE_RENDERING);
    if (!s->surface) {
        drm_set_error(error, error_size, GBM_LABEL ": gbm_surface_create %ux%u %s for scanout failed: %s",
                      out->buffer_width, out->buffer_height,
                      s->format == GBM_FORMAT_XRGB8888 ? "XRGB8888" : "ARGB8888", strerror(errno));
        goto fail;
    }
    s->window = eglCreateWindowSurface(s->display, s->config, (EGLNativeWindowType)s->surface, NULL);
    if (s->window == EGL_NO_SURFACE) {
        drm_set_error(error, error_size, GBM_LABEL ": eglCreateWindowSurface on the gbm_surface failed: %s",
                      egl_error_name(eglGetError()));
        goto fail;
    }
    if (!make_current(s, error, error_size)) goto fail;
    s->buffer_age = has_extension(eglQueryString(s->display, EGL_EXTENSIONS), "EGL_EXT_buffer_age");
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
    if ((GLint)out->buffer_width > max_size || (GLint)out->buffer_height > max_size) {
        drm_set_error(error, error_size, GBM_LABEL ": mode %ux%u is larger than GL_MAX_RENDERBUFFER_SIZE %d",
                      out->buffer_width, out->buffer_height, max_size);
        goto fail;
    }
    if (!(s->renderer = lkgl_renderer_create(GBM_LABEL, error, error_size))) goto fail;
    if (out->writeback) {
        /* the CRTC's composition: the mode's size */
        if (!drm_dumb_create(out->fd, out->mode.hdisplay, out->mode.vdisplay, &s->writeback, error, error_size))
            goto fail;
        out->writeback_fb = s->writeback.fb_id;
    }
    drm_log(out, LK_BACKEND_LOG_INFO, GBM_LABEL ": GBM %s, EGL %s %s, %s, %s, OpenGL ES %s, buffer age %s",
            gbm_device_get_backend_name(s->device), eglQueryString(s->display, EGL_VENDOR),
            eglQueryString(s->display, EGL_VERSION), (const char *)glGetString(GL_RENDERER),
            s->format == GBM_FORMAT_XRGB8888 ? "XRGB8888" : "ARGB8888", s->es3 ? "3" : "2",
            s->buffer_age ? "yes" : "no (whole frames)");
    release_current(s);
    return true;
fail:
    gbm_path_stop(out);
    return false;
}

static void gbm_path_stop(drm_output *out)
{
    gbm_state *s = out->path_state;
    if (!s) return;
    if (s->display != EGL_NO_DISPLAY) {
        char ignored[128];
        if (s->context != EGL_NO_CONTEXT && s->window != EGL_NO_SURFACE && make_current(s, ignored, sizeof ignored)) {
            lkgl_renderer_destroy(s->renderer);
            s->renderer = NULL;
        }
        eglMakeCurrent(s->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (s->window != EGL_NO_SURFACE) eglDestroySurface(s->display, s->window);
        if (s->context != EGL_NO_CONTEXT) eglDestroyContext(s->display, s->context);
    }
    if (s->surface) {
        if (s->queued) gbm_surface_release_buffer(s->surface, s->queued);
        if (s->front) gbm_surface_release_buffer(s->surface, s->front);
    }
    if (s->display != EGL_NO_DISPLAY) {
        eglTerminate(s->display);
        eglReleaseThread();
    }
    if (s->surface) gbm_surface_destroy(s->surface);
    if (s->device) gbm_device_destroy(s->device);
    drm_dumb_destroy(out->fd, &s->writeback);
    out->writeback_fb = 0;
    free(s->ops);
    free(s);
    out->path_state = NULL;
}

/* Swaps and locks the buffer just drawn; its framebuffer goes to *fb_id. */
static bool swap_and_lock(drm_output *out, gbm_state *s, uint32_t *fb_id, char *error, size_t error_size)
{
    if (!eglSwapBuffers(s->display, s->window)) {
        drm_set_error(error, error_size, GBM_LABEL ": eglSwapBuffers failed: %s", egl_error_name(eglGetError()));
        return false;
    }
    struct gbm_bo *bo = gbm_surface_lock_front_buffer(s->surface);
    if (!bo) {
        drm_set_error(error, error_size, GBM_LABEL ": gbm_surface_lock_front_buffer failed");
        return false;
    }
    uint32_t fb = fb_of(out, s, bo, error, error_size);
    if (!fb) {
        gbm_surface_release_buffer(s->surface, bo);
        return false;
    }
    if (s->queued) gbm_surface_release_buffer(s->surface, s->queued);   /* never shown */
    s->queued = bo;
    *fb_id = fb;
    return true;
}

static bool gbm_path_first_buffer(drm_output *out, uint32_t *fb_id, char *error, size_t error_size)
{
    gbm_state *s = out->path_state;
    if (!make_current(s, error, error_size)) return false;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    bool ok = swap_and_lock(out, s, fb_id, error, error_size);
    release_current(s);
    s->redraw_whole = true;
    return ok;
}

/* The union of the damage of the frames since the back buffer was drawn
   (`age` frames ago), in buffer space; the whole buffer when unknown. */
static lk_dl_box redraw_box(const drm_output *out, const gbm_state *s, EGLint age, uint64_t sequence)
{
    lk_dl_box all = { 0, 0, (int32_t)out->buffer_width, (int32_t)out->buffer_height };
    if (age <= 0 || (uint64_t)age > HISTORY || (uint64_t)age > sequence - 1 || s->redraw_whole) return all;
    int32_t x0 = INT32_MAX, y0 = INT32_MAX, x1 = INT32_MIN, y1 = INT32_MIN;
    for (uint64_t f = sequence - (uint64_t)age + 1; f <= sequence; f++) {
        lk_dl_box d = s->history[f % HISTORY];
        if (d.width <= 0 || d.height <= 0) continue;
        if (d.x < x0) x0 = d.x;
        if (d.y < y0) y0 = d.y;
        if (d.x + d.width > x1) x1 = d.x + d.width;
        if (d.y + d.height > y1) y1 = d.y + d.height;
    }
    lk_dl_box none = { 0, 0, 0, 0 };
    if (x1 <= x0) return none;
    lk_dl_box u = { x0, y0, x1 - x0, y1 - y0 };
    return u;
}

static bool gbm_path_draw(drm_output *out, const lk_display_list *list, uint32_t *fb_id,
                          char *error, size_t error_size)
{
    gbm_state *s = out->path_state;
    if (!gbm_surface_has_free_buffers(s->surface)) {
        drm_set_error(error, error_size, GBM_LABEL ": every buffer of the gbm_surface is on screen or queued");
        return false;
    }
    if (!make_current(s, error, error_size)) return false;
    bool ok;
    if (!list || list->struct_size < sizeof *list || (list->op_count && list->op_size < sizeof(lk_dl_op))) {
        /* the renderer explains what is wrong */
        ok = lkgl_renderer_render(s->renderer, list, 0, out->buffer_width, out->buffer_height, error, error_size);
        release_current(s);
        return ok;
    }
    EGLint age = 0;
    if (s->buffer_age && !eglQuerySurface(s->display, s->window, EGL_BUFFER_AGE_EXT, &age)) age = 0;
    uint64_t sequence = s->sequence + 1;
    s->history[sequence % HISTORY] = drm_turn_damage(out, true, list->damage);
    lk_dl_box box = redraw_box(out, s, age, sequence);
    /* drawn whole after frames were dropped: the other buffers need all of it too */
    if (s->redraw_whole) s->history[sequence % HISTORY] = box;

    lk_display_list turned = *list;
    turned.damage = box;
    if (list->op_count) {
        turned.ops = drm_turn_ops(out, true, list, &s->ops, &s->ops_capacity);
        if (!turned.ops) {
            release_current(s);
            drm_set_error(error, error_size, GBM_LABEL ": out of memory turning %u ops", list->op_count);
            return false;
        }
    }
    ok = lkgl_renderer_render(s->renderer, &turned, 0, out->buffer_width, out->buffer_height, error, error_size);
    if (ok) ok = swap_and_lock(out, s, fb_id, error, error_size);
    release_current(s);
    if (!ok) return false;
    s->sequence = sequence;
    s->redraw_whole = false;
    s->ages[age < 0 ? 0 : age > 4 ? 4 : age]++;
    out->frames_drawn++;
    out->pixels_drawn += (uint64_t)box.width * (uint64_t)box.height;
    return true;
}

static void gbm_path_presented(drm_output *out, uint32_t fb_id)
{
    gbm_state *s = out->path_state;
    if (!s->queued) return;
    bo_fb *f = gbm_bo_get_user_data(s->queued);
    if (!f || f->fb_id != fb_id) return;
    /* the queued buffer is on screen: the one before goes back to the surface */
    if (s->front) gbm_surface_release_buffer(s->surface, s->front);
    s->front = s->queued;
    s->queued = NULL;
}

static void gbm_path_forget(drm_output *out)
{
    gbm_state *s = out->path_state;
    /* a frame that was not shown gives its buffer back; the next is drawn whole */
    if (s->queued) gbm_surface_release_buffer(s->surface, s->queued);
    s->queued = NULL;
    s->redraw_whole = true;
}

static bool gbm_path_read(drm_output *out, void *argb32, size_t stride, char *error, size_t error_size)
{
    gbm_state *s = out->path_state;
    if (out->writeback) {
        if (!drm_kms_capture(out, error, error_size)) return false;
        /* composed by the CRTC: turned by the plane or the renderer */
        drm_unrotate_copy(out, out->rotation, s->writeback.width, s->writeback.height, s->writeback.map,
                          s->writeback.pitch, argb32, stride);
        return true;
    }
    if (!s->front) {
        drm_set_error(error, error_size, GBM_LABEL ": no frame is on screen");
        return false;
    }
    uint32_t map_stride = 0;
    void *map_data = NULL;
    void *map = gbm_bo_map(s->front, 0, 0, out->buffer_width, out->buffer_height, GBM_BO_TRANSFER_READ,
                           &map_stride, &map_data);
    if (!map) {
        drm_set_error(error, error_size, GBM_LABEL ": gbm_bo_map of the buffer on screen failed: %s",
                      strerror(errno));
        return false;
    }
    drm_unrotate_copy(out, out->turn, out->buffer_width, out->buffer_height, map, map_stride, argb32, stride);
    gbm_bo_unmap(s->front, map_data);
    return true;
}

static void gbm_path_image_released(drm_output *out, uint64_t id)
{
    gbm_state *s = out->path_state;
    char ignored[128];
    if (!s || !s->renderer || !make_current(s, ignored, sizeof ignored)) return;
    lkgl_renderer_image_released(s->renderer, id);
    release_current(s);
}

void drm_gbm_describe(const drm_output *out, char *text, size_t text_size)
{
    gbm_state *s = out->path_state;
    if (!s) return;
    size_t n = strlen(text);
    if (n >= text_size) return;
    snprintf(text + n, text_size - n,
             "gles path: GBM backend %s, EGL %s %s (EGL_PLATFORM_GBM_KHR), %s buffers, OpenGL ES %s, "
             "EGL_EXT_buffer_age %s\n"
             "gles path: frames drawn at buffer age 0 (whole) %llu, 1 %llu, 2 %llu, 3 %llu, more %llu\n",
             gbm_device_get_backend_name(s->device), eglQueryString(s->display, EGL_VENDOR),
             eglQueryString(s->display, EGL_VERSION), s->format == GBM_FORMAT_XRGB8888 ? "XRGB8888" : "ARGB8888",
             s->es3 ? "3" : "2", s->buffer_age ? "yes" : "no", (unsigned long long)s->ages[0],
             (unsigned long long)s->ages[1], (unsigned long long)s->ages[2], (unsigned long long)s->ages[3],
             (unsigned long long)s->ages[4]);
    char ignored[128];
    if (s->renderer && make_current((gbm_state *)s, ignored, sizeof ignored)) {
        lkgl_renderer_describe(s->renderer, text, text_size);
        release_current((gbm_state *)s);
    }
}

const drm_render_path drm_gbm_path = {
    .name = "GBM + EGL + GLES",
    .start = gbm_path_start,
    .draw = gbm_path_draw,
    .first_buffer = gbm_path_first_buffer,
    .presented = gbm_path_presented,
    .forget = gbm_path_forget,
    .read = gbm_path_read,
    .image_released = gbm_path_image_released,
    .stop = gbm_path_stop,
};
