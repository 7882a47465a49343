/*
 * The OpenGL ES renderer shared by the GPU backends (gles, drm): draws a
 * LayerKit display list into a framebuffer object, the same way the software
 * backend draws it into memory.
 *
 * It knows nothing of EGL, GBM or windows: the caller makes an OpenGL ES 2.0
 * or 3.x context current on the calling thread, hands over the target FBO,
 * and keeps the same context current for every call on one renderer. Row 0
 * of the target (GL window y = 0) is the output's top row, so glReadPixels
 * returns rows top first; a scanout buffer is rendered through an FBO bound
 * to it (an EGLImage of a GBM buffer), not through a window surface.
 *
 * Every call that can fail writes a NUL-terminated reason naming the GL
 * cause into error (error_size bytes) and returns false or NULL.
 */
#ifndef LK_GLES_RENDERER_H
#define LK_GLES_RENDERER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layerkit/layerkit_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lkgl_renderer lkgl_renderer;

/* What one frame (or, summed, every frame) cost in GL work. */
typedef struct lkgl_stats {
    uint64_t frames;
    uint64_t ops;              /* display list ops walked */
    uint64_t draw_calls;       /* glDrawElements / glDrawArrays */
    uint64_t state_changes;    /* program, texture, blend, framebuffer, scissor, sampler changes */
    uint64_t texture_uploads;  /* glTexImage2D / glTexSubImage2D of image pixels */
    uint64_t upload_bytes;
    uint64_t offscreen_passes; /* clip masks, groups, masks and blur passes drawn off screen */
    uint64_t programs_built;   /* programs compiled and linked (each when a frame first needs it) */
} lkgl_stats;

/* Sets the renderer up in the current context and compiles its plain solid
   program (so that a GL that cannot compile is found here); every other
   program is compiled when a frame first draws with it (the renderer has
   18, and a slow compiler, llvmpipe on a small CPU, makes building them all
   the larger part of starting). label names the backend in messages
   ("gles backend"). */
lkgl_renderer *lkgl_renderer_create(const char *label, char *error, size_t error_size);
/* Frees every GL object; the renderer's context must be current. NULL is fine. */
void lkgl_renderer_destroy(lkgl_renderer *r);
/* Builds every program not built yet (counted in the total's
   programs_built); false with the first one's reason when one does not
   build. For a program that would rather pay at start than on a first
   frame, and for the test that every variant compiles. */
bool lkgl_renderer_build_programs(lkgl_renderer *r, char *error, size_t error_size);

/* Draws list into framebuffer fbo of width x height pixels. Only the list's
   damage box is redrawn: the rest of the target keeps what the previous
   render left there. The list is validated before anything is drawn. */
bool lkgl_renderer_render(lkgl_renderer *r, const lk_display_list *list, uint32_t fbo,
                          uint32_t width, uint32_t height, char *error, size_t error_size);

/* The core dropped image id: delete its texture. */
void lkgl_renderer_image_released(lkgl_renderer *r, uint64_t id);

/* Counters of the last frame, and of every frame since create. */
void lkgl_renderer_stats(const lkgl_renderer *r, lkgl_stats *last_frame, lkgl_stats *total);

/* GL vendor, renderer, version, shading language version, limits and the
   extensions the renderer uses, one fact a line, appended to text. */
void lkgl_renderer_describe(const lkgl_renderer *r, char *text, size_t text_size);

/* Compiles and links one program from its sources (used by the renderer for
   all of its programs). Returns the program or 0 with the GL info log in
   error. Exposed so that the failure path can be tested on its own. */
uint32_t lkgl_compile_program(const char *label, const char *name, const char *vertex_source,
                              const char *fragment_source, char *error, size_t error_size);

/* $LAYERKIT_GLES_VERSION, for the backends creating their contexts: false
   for 2 (an OpenGL ES 2 context only); true for 3, empty or unset (ES 3
   where the driver has it, else ES 2). Another value is taken as the
   default and warning (warning_size bytes; "" otherwise) says so, naming
   the variable, the value and what it takes, for the host's log. */
bool lkgl_es3_allowed_by_env(const char *label, char *warning, size_t warning_size);

/* "GL_OUT_OF_MEMORY" for GL_OUT_OF_MEMORY, and so on. */
const char *lkgl_gl_error_name(uint32_t error);

#ifdef __cplusplus
}
#endif

#endif /* LK_GLES_RENDERER_H */
