/*
 * The gles backend: the GLES renderer (Plugins/GLESRenderer) run headless
 * through EGL with no window system and no display, into a framebuffer
 * object of the requested size that read_pixels copies out.
 *
 * The EGL display comes from EGL_MESA_platform_surfaceless, else the first
 * device of EGL_EXT_platform_device; the context is OpenGL ES 3 when the
 * driver has it, else ES 2, made current without a surface
 * (EGL_KHR_surfaceless_context). Each entry point makes the context current
 * on the calling thread and releases it before returning, because the core
 * may call one instance from different threads (one at a time).
 *
 * Frames are paced by the core's timer at refresh_rate; render() finishes
 * the frame (glFinish) before reporting it done.
 */
#include "gles_egl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLES_DEFAULT_WIDTH 1280
#define GLES_DEFAULT_HEIGHT 720
#define GLES_REFRESH_RATE 60.0
#define GLES_LABEL "gles backend"

#define HAS_FIELD(ptr, type, field) ((ptr)->struct_size >= offsetof(type, field) + sizeof((ptr)->field))
#define FIELD(ptr, type, field) (HAS_FIELD(ptr, type, field) ? (ptr)->field : 0)

struct lk_backend_instance {
    lk_backend_host host;
    gles_egl        egl;
    lkgl_renderer  *renderer;
    GLuint          color, fbo;
    uint32_t        width, height;
    bool            has_frame;
    uint8_t        *readback;      /* one frame of RGBA rows */
};

static void set_error(char *error, size_t error_size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void set_error(char *error, size_t error_size, const char *format, ...)
{
    if (!error || error_size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_size, format, args);
    va_end(args);
}

__attribute__((format(printf, 3, 4)))
static void log_message(lk_backend_instance *inst, uint32_t level, const char *format, ...)
{
    if (!inst->host.log) return;
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    inst->host.log(inst->host.host_data, level, message);
}

static void gles_close(lk_backend_instance *inst);

static lk_backend_instance *gles_open(const lk_backend_host *host,
                                      const lk_backend_open_options *options,
                                      char *error, size_t error_size)
{
    uint32_t width = options ? FIELD(options, lk_backend_open_options, width) : 0;
    uint32_t height = options ? FIELD(options, lk_backend_open_options, height) : 0;
    uint32_t rotation = options ? FIELD(options, lk_backend_open_options, rotation) : 0;
    if (width == 0) width = GLES_DEFAULT_WIDTH;
    if (height == 0) height = GLES_DEFAULT_HEIGHT;
    if (rotation != 0) {
        set_error(error, error_size, GLES_LABEL ": rotation %u is not supported (only 0)", rotation);
        return NULL;
    }
    lk_backend_instance *inst = calloc(1, sizeof *inst);
    if (!inst) {
        set_error(error, error_size, GLES_LABEL ": out of memory");
        return NULL;
    }
    if (host) {
        inst->host.abi_version = host->abi_version;
        inst->host.struct_size = host->struct_size;
        inst->host.host_data = FIELD(host, lk_backend_host, host_data);
        inst->host.log = FIELD(host, lk_backend_host, log);
        inst->host.frame_done = FIELD(host, lk_backend_host, frame_done);
    }
    inst->width = width;
    inst->height = height;
    char warning[256];
    bool allow_es3 = lkgl_es3_allowed_by_env(GLES_LABEL, warning, sizeof warning);
    if (*warning) log_message(inst, LK_BACKEND_LOG_WARNING, "%s", warning);
    if (!gles_egl_open(&inst->egl, GLES_LABEL, allow_es3, error, error_size)) {
        free(inst);
        return NULL;
    }
    if (!gles_egl_make_current(&inst->egl, error, error_size)) goto fail;
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    if ((GLint)width > max_size || (GLint)height > max_size) {
        set_error(error, error_size,
                  GLES_LABEL ": output size %ux%u is too large (GL_MAX_TEXTURE_SIZE is %d)",
                  width, height, max_size);
        goto fail;
    }
    if (!(inst->renderer = lkgl_renderer_create(GLES_LABEL, error, error_size))) goto fail;
    while (glGetError() != GL_NO_ERROR) {}
    /* An RGBA texture: 8 bits a channel on ES 2 as well (a renderbuffer
       would need OES_rgb8_rgba8 there). */
    glGenTextures(1, &inst->color);
    glBindTexture(GL_TEXTURE_2D, inst->color);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, (GLsizei)width, (GLsizei)height, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &inst->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, inst->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, inst->color, 0);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER), e = glGetError();
    if (status != GL_FRAMEBUFFER_COMPLETE || e != GL_NO_ERROR) {
        set_error(error, error_size,
                  GLES_LABEL ": cannot make a %ux%u RGBA8 framebuffer: %s (status 0x%x)", width,
                  height, e == GL_OUT_OF_MEMORY ? "GL_OUT_OF_MEMORY" : e ? "GL error" : "incomplete",
                  status);
        goto fail;
    }
    inst->readback = malloc((size_t)width * height * 4);
    if (!inst->readback) {
        set_error(error, error_size, GLES_LABEL ": out of memory for a %ux%u readback buffer", width, height);
        goto fail;
    }
    log_message(inst, LK_BACKEND_LOG_DEBUG, GLES_LABEL ": %s on %s, %s", inst->egl.platform,
                (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    gles_egl_release(&inst->egl);
    return inst;
fail:
    gles_close(inst);
    return NULL;
}

static void gles_close(lk_backend_instance *inst)
{
    if (!inst) return;
    char ignored[8];
    if (inst->egl.context && gles_egl_make_current(&inst->egl, ignored, sizeof ignored)) {
        if (inst->renderer) {
            lkgl_stats total;
            lkgl_renderer_stats(inst->renderer, NULL, &total);
            if (total.frames > 0)
                log_message(inst, LK_BACKEND_LOG_DEBUG,
                            GLES_LABEL ": %llu frames, %llu draw calls, %llu state changes, "
                            "%llu texture uploads, %llu offscreen passes, %llu of 18 programs built",
                            (unsigned long long)total.frames, (unsigned long long)total.draw_calls,
                            (unsigned long long)total.state_changes,
                            (unsigned long long)total.texture_uploads,
                            (unsigned long long)total.offscreen_passes,
                            (unsigned long long)total.programs_built);
        }
        lkgl_renderer_destroy(inst->renderer);
        if (inst->fbo) glDeleteFramebuffers(1, &inst->fbo);
        if (inst->color) glDeleteTextures(1, &inst->color);
    }
    gles_egl_close(&inst->egl);
    free(inst->readback);
    free(inst);
}

static bool gles_get_output(lk_backend_instance *inst, lk_backend_output_info *out)
{
    if (!inst || !out || out->struct_size < sizeof(uint32_t)) return false;
    lk_backend_output_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = out->struct_size;
    info.width = inst->width;
    info.height = inst->height;
    info.refresh_rate = GLES_REFRESH_RATE;
    info.name = "offscreen";
    size_t n = out->struct_size < sizeof info ? out->struct_size : sizeof info;
    memcpy(out, &info, n);
    return true;
}

static bool gles_render(lk_backend_instance *inst, const lk_display_list *list, char *error,
                        size_t error_size)
{
    if (!inst) {
        set_error(error, error_size, GLES_LABEL ": render called without an instance");
        return false;
    }
    if (!gles_egl_make_current(&inst->egl, error, error_size)) return false;
    bool ok = lkgl_renderer_render(inst->renderer, list, inst->fbo, inst->width, inst->height, error,
                                   error_size);
    if (ok) {
        glFinish();
        inst->has_frame = true;
    }
    gles_egl_release(&inst->egl);
    if (ok && inst->host.frame_done)
        inst->host.frame_done(inst->host.host_data, list->frame_number, list->target_time);
    return ok;
}

static bool gles_read_pixels(lk_backend_instance *inst, void *argb32, size_t stride, char *error,
                             size_t error_size)
{
    if (!inst || !argb32) {
        set_error(error, error_size, GLES_LABEL ": read_pixels needs an instance and a buffer");
        return false;
    }
    if (!inst->has_frame) {
        set_error(error, error_size, GLES_LABEL ": no frame has been rendered yet");
        return false;
    }
    size_t row = (size_t)inst->width * 4;
    if (stride < row) {
        set_error(error, error_size,
                  GLES_LABEL ": read_pixels stride %zu is smaller than a row (%zu bytes)", stride, row);
        return false;
    }
    if (!gles_egl_make_current(&inst->egl, error, error_size)) return false;
    while (glGetError() != GL_NO_ERROR) {}
    glBindFramebuffer(GL_FRAMEBUFFER, inst->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, (GLsizei)inst->width, (GLsizei)inst->height, GL_RGBA, GL_UNSIGNED_BYTE,
                 inst->readback);
    GLenum e = glGetError();
    gles_egl_release(&inst->egl);
    if (e != GL_NO_ERROR) {
        set_error(error, error_size, GLES_LABEL ": glReadPixels failed: %s", lkgl_gl_error_name(e));
        return false;
    }
    /* GL rows are R G B A bytes, top row first (the renderer draws row 0 at
       window y 0); ARGB32 words are B G R A bytes on little-endian machines. */
    for (uint32_t y = 0; y < inst->height; y++) {
        const uint8_t *s = inst->readback + (size_t)y * row;
        uint32_t *d = (uint32_t *)((uint8_t *)argb32 + (size_t)y * stride);
        for (uint32_t x = 0; x < inst->width; x++, s += 4)
            d[x] = (uint32_t)s[3] << 24 | (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];
    }
    return true;
}

static void gles_image_released(lk_backend_instance *inst, uint64_t id)
{
    char ignored[8];
    if (!inst || !gles_egl_make_current(&inst->egl, ignored, sizeof ignored)) return;
    lkgl_renderer_image_released(inst->renderer, id);
    gles_egl_release(&inst->egl);
}

static bool gles_describe(lk_backend_instance *inst, char *text, size_t text_size)
{
    if (!text || text_size == 0) return false;
    text[0] = '\0';
    if (inst) {
        char error[256];
        gles_egl_describe(&inst->egl, text, text_size);
        if (!gles_egl_make_current(&inst->egl, error, sizeof error)) {
            set_error(text, text_size, "%s", error);
            return false;
        }
        lkgl_renderer_describe(inst->renderer, text, text_size);
        size_t n = strlen(text);
        snprintf(text + n, text_size - n, "output: offscreen %ux%u RGBA8 framebuffer, %.0f Hz timer\n",
                 inst->width, inst->height, GLES_REFRESH_RATE);
        gles_egl_release(&inst->egl);
        return true;
    }
    /* Probing: a context of our own, without an output. */
    gles_egl egl;
    if (!gles_egl_open(&egl, GLES_LABEL, lkgl_es3_allowed_by_env(GLES_LABEL, NULL, 0), text, text_size)) return false;
    char error[256];
    if (!gles_egl_make_current(&egl, error, sizeof error)) {
        gles_egl_close(&egl);
        set_error(text, text_size, "%s", error);
        return false;
    }
    gles_egl_describe(&egl, text, text_size);
    lkgl_renderer_describe(NULL, text, text_size);
    gles_egl_close(&egl);
    return true;
}

static const lk_backend gles_backend = {
    .abi_version = LK_BACKEND_ABI_VERSION,
    .struct_size = sizeof(lk_backend),
    .name = "gles",
    .description = "OpenGL ES renderer, headless through EGL (surfaceless or device platform)",
    .open = gles_open,
    .close = gles_close,
    .get_output = gles_get_output,
    .render = gles_render,
    .read_pixels = gles_read_pixels,
    .image_released = gles_image_released,
    .describe = gles_describe,
};

/* The one exported symbol (Plugins/plugin.map), of type lk_backend_entry_fn. */
__attribute__((visibility("default")))
const lk_backend *lk_backend_entry(uint32_t host_abi_version);

const lk_backend *lk_backend_entry(uint32_t host_abi_version)
{
    return host_abi_version == LK_BACKEND_ABI_VERSION ? &gles_backend : NULL;
}
