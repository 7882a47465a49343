/*
 * EGL without a window system: a display on the surfaceless or the device
 * platform, an OpenGL ES context (3 when the driver has it, else 2) made
 * current with no surface.
 */
#ifndef LK_GLES_EGL_H
#define LK_GLES_EGL_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <stdbool.h>
#include <stddef.h>

#include "lk_gles_renderer.h"

typedef struct gles_egl {
    EGLDisplay  display;
    EGLContext  context;
    bool        es3;
    const char *platform;    /* the EGL extension the display came from */
} gles_egl;

/* Opens the display and creates the context (ES 3 when allow_es3 and the
   driver has it, else ES 2: lkgl_es3_allowed_by_env); the reason names the
   EGL call and its error on failure. */
bool gles_egl_open(gles_egl *egl, const char *label, bool allow_es3, char *error, size_t error_size);
void gles_egl_close(gles_egl *egl);
bool gles_egl_make_current(gles_egl *egl, char *error, size_t error_size);
void gles_egl_release(gles_egl *egl);
/* EGL facts, one a line, appended to text. */
void gles_egl_describe(const gles_egl *egl, char *text, size_t text_size);

#endif /* LK_GLES_EGL_H */
