/*
 * The GLES renderer's private declarations.
 *
 * gles_renderer.c  create/destroy, validation, the op walk, clip and group stacks
 * gles_programs.c  shader sources (coverage, sampling, compositing, blur), compiling
 * gles_batch.c     quads of ops into vertex batches, GL state tracking and counting
 * gles_textures.c  the texture cache of lk_dl_image by id and generation
 * gles_targets.c   offscreen targets: clip masks, groups, masks, shadow blur
 * gles_gradient.c  GRADIENT ops: the gradient's colour in the quad program, stops, ramps
 */
#ifndef LK_GLES_PRIVATE_H
#define LK_GLES_PRIVATE_H

#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lk_gles_renderer.h"

#define LKGL_MAX_SIZE 16384
/* Quads per draw call: 4 vertices each, indexed by 16-bit indices. */
#define LKGL_MAX_QUADS 16384
/* Gaussian taps on each side of the centre in one blur pass. */
#define LKGL_MAX_TAPS 48
/* Pixels one tap stands for at most: sigma is capped at 1024, whose reach
   (3073 pixels) takes 65 per tap. */
#define LKGL_MAX_STEP 72

/* Integer pixel box, half open: [x0, x1) x [y0, y1). */
typedef struct lkgl_box { int32_t x0, y0, x1, y1; } lkgl_box;

static inline bool lkgl_box_empty(lkgl_box b) { return b.x1 <= b.x0 || b.y1 <= b.y0; }
static inline lkgl_box lkgl_box_intersect(lkgl_box a, lkgl_box b)
{
    lkgl_box r = { a.x0 > b.x0 ? a.x0 : b.x0, a.y0 > b.y0 ? a.y0 : b.y0,
                   a.x1 < b.x1 ? a.x1 : b.x1, a.y1 < b.y1 ? a.y1 : b.y1 };
    if (lkgl_box_empty(r)) r.x1 = r.x0, r.y1 = r.y0;
    return r;
}

/* One vertex of an op's quad; every op parameter rides along so that ops of
   the same state draw in one call. */
typedef struct lkgl_vertex {
    float pos[2];        /* output pixels */
    float h0[3], h1[3], h2[3];  /* output -> local homography, rows */
    float shape[4];      /* corner radius, border width (0: fill), antialias, 0 */
    float rect[4];       /* local x0 y0 x1 y1 */
    float color[4];      /* premultiplied colour x opacity; images: opacity in all four */
    float uv[4];         /* u = uv.x * x + uv.y, v = uv.z * y + uv.w (normalised) */
    float uv_clamp[4];   /* u0 v0 u1 v1 */
} lkgl_vertex;

enum { LKGL_ATTR_POS, LKGL_ATTR_H0, LKGL_ATTR_H1, LKGL_ATTR_H2, LKGL_ATTR_SHAPE,
       LKGL_ATTR_RECT, LKGL_ATTR_COLOR, LKGL_ATTR_UV, LKGL_ATTR_UV_CLAMP, LKGL_ATTR_COUNT };

typedef enum lkgl_blend { LKGL_BLEND_OVER, LKGL_BLEND_ADD, LKGL_BLEND_REPLACE } lkgl_blend;

/* Programs: the quad program in eight variants (textured, clip mask, and
   general coverage for shapes that are not axis-aligned rects in output
   space), the compositor of offscreen targets, the blur, and the quad
   program with a gradient's colour in eight more. */
enum { LKGL_PROG_QUAD = 0, /* + 1 textured, + 2 clip mask, + 4 general shapes */
       LKGL_PROG_COMPOSITE = 8, LKGL_PROG_BLUR = 9,
       LKGL_PROG_GRADIENT = 10, /* + 1 stops in a ramp texture, + 2 clip mask, + 4 general */
       LKGL_PROG_COUNT = 18 };

/* A gradient's stops as uniforms up to this many; more go in a ramp texture
   of LKGL_RAMP_SIZE texels, LKGL_RAMPS of them cached. */
#define LKGL_MAX_UNIFORM_STOPS 16
/* The ramp's width: LKGL_RAMP_SIZE, or what GL_MAX_TEXTURE_SIZE allows down
   to LKGL_RAMP_MIN_SIZE (lkgl_ramp_size). */
#define LKGL_RAMP_SIZE 4096
#define LKGL_RAMP_MIN_SIZE 1024
#define LKGL_RAMPS 8

typedef struct lkgl_program {
    GLuint id;                /* 0: not built yet (built when first used) */
    bool   failed;            /* it did not build: r->program_error says why */
    GLint u_origin, u_target, u_offscreen;          /* every program: see gles_programs.c */
    float space[5];           /* the values they were last set to: origin x, target w h, margin, kind */
    GLint u_image, u_clip;                           /* quad */
    GLint u_source, u_mask, u_opacity, u_tint, u_mode, u_has_mask, u_has_clip; /* composite */
    GLint u_weights, u_count, u_step, u_stride, u_half, u_direction, u_shift, u_bounds, u_decode;   /* blur */
    GLint u_stop_colors, u_stop_locations, u_stop_count;                      /* gradient */
} lkgl_program;

typedef struct lkgl_texture {
    uint64_t id;              /* 0: empty slot */
    uint64_t generation;
    uint32_t width, height;
    GLuint   texture;
    bool     nearest;         /* the filter set on it now */
    /* 1, or the whole factor an image larger than GL_MAX_TEXTURE_SIZE is
       reduced by (each texel the mean of a block of its pixels) */
    uint32_t reduction;
    /* a hash of each LKGL_TILE x LKGL_TILE tile of the pixels last
       uploaded: a new generation uploads only the box of changed tiles */
    uint64_t *tile_hashes;
} lkgl_texture;

#define LKGL_TILE 64

/* Offscreen targets cover the output grown by a margin on every side, so
   that content off the output still casts its shadow onto it: the margin a
   frame's shadows need (offset and blur reach), rounded up to
   LKGL_MARGIN_STEP, at most LKGL_MAX_MARGIN (and what GL_MAX_TEXTURE_SIZE
   allows). Frames without shadows have none. */
#define LKGL_MAX_MARGIN 256
#define LKGL_MARGIN_STEP 32

/* An offscreen target as big as the output: texture + framebuffer. */
typedef struct lkgl_target {
    GLuint texture, fbo;
    bool   in_use;
} lkgl_target;

/* A clip level: everything drawn is scissored to box and, with mask >= 0,
   multiplied by that target's alpha. */
typedef struct lkgl_clip {
    lkgl_box box;
    int      mask;
    bool     owns_mask;       /* the mask target is released when the level pops */
} lkgl_clip;

typedef struct lkgl_group {
    lk_dl_op op;              /* the PUSH_GROUP */
    int      target;          /* what the group draws (the content, after GROUP_CONTENT) */
    int      mask;            /* the mask target, or -1 */
    int      below;           /* the target the group composites onto (-1: the output) */
    lkgl_box box;             /* where the group's pixels may be */
    size_t   clip_depth;      /* clips open when it was pushed */
} lkgl_group;

/* The current GL state as the renderer set it, so unchanged state is not set
   again and every change is counted. */
typedef struct lkgl_state {
    GLuint   fbo;
    int      program;
    GLuint   texture[2];      /* units 0 (image/source) and 1 (clip mask) */
    int      active_unit;     /* glActiveTexture's unit + 1; 0: unknown */
    int      blend;
    lkgl_box scissor;         /* in the bound target's pixels */
    int32_t  viewport_w, viewport_h;
    bool     valid;
} lkgl_state;

/* What the pending batch draws with. */
typedef struct lkgl_batch_key {
    int    program;
    GLuint image;             /* texture unit 0, 0 for solid */
    GLuint clip;              /* texture unit 1, 0 for none */
    int    blend;
    /* a gradient's stops, set as uniforms when the batch is drawn */
    const lk_dl_gradient_stop *stops;
    uint32_t stop_count;
} lkgl_batch_key;

struct lkgl_renderer {
    char           label[64];
    lkgl_program   programs[LKGL_PROG_COUNT];
    char           program_error[512];   /* why a program did not build */
    bool           program_failed;       /* this frame needed a program that did not build */
    GLuint         vertex_buffer, index_buffer;
    bool           es3, unpack_row_length;
    GLint          max_texture_size;

    /* the frame being drawn */
    GLuint         output_fbo;
    uint32_t       width, height;
    lkgl_state     state;

    lkgl_vertex   *vertices;       /* pending quads, 4 vertices each */
    size_t         quad_count, quad_capacity;
    lkgl_batch_key batch;

    lkgl_texture  *textures;       /* open addressing by id */
    size_t         texture_capacity, texture_count;
    uint8_t       *upload_scratch;
    size_t         upload_scratch_size;

    lkgl_target   *targets;
    size_t         target_count;
    uint32_t       target_width, target_height;   /* of the pooled targets, margins included */
    int32_t        margin;         /* this frame's */

    lkgl_clip     *clips;
    size_t         clip_count, clip_capacity;
    lkgl_group    *groups;
    size_t         group_count, group_capacity;
    int            current_target; /* -1: the output */

    lkgl_stats     frame, total;

    lkgl_texture   ramps[LKGL_RAMPS];   /* gradient ramps, id = hash of the stops */
    int            next_ramp;
};

/* gles_renderer.c */
void lkgl_set_error(char *error, size_t error_size, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* gles_programs.c */
bool lkgl_programs_create(lkgl_renderer *r, char *error, size_t error_size);
/* Builds program `index` if it is not built yet; false (with the compiler's
   reason) when it does not build. */
bool lkgl_program_ready(lkgl_renderer *r, int index, char *error, size_t error_size);
void lkgl_programs_destroy(lkgl_renderer *r);

/* Where anything can be drawn this frame: the output grown by the margin. */
static inline lkgl_box lkgl_space(const lkgl_renderer *r)
{
    lkgl_box b = { -r->margin, -r->margin, (int32_t)r->width + r->margin, (int32_t)r->height + r->margin };
    return b;
}

/* gles_batch.c */
void lkgl_state_reset(lkgl_renderer *r);
bool lkgl_use_program(lkgl_renderer *r, int program);
void lkgl_bind_texture(lkgl_renderer *r, int unit, GLuint texture);
void lkgl_set_blend(lkgl_renderer *r, int blend);
void lkgl_set_scissor(lkgl_renderer *r, lkgl_box box);
void lkgl_bind_target(lkgl_renderer *r, int target);
/* Queues op's quad (FILL, BORDER, IMAGE with its texture, or a clip shape
   drawn in white with REPLACE) under clip; flushes first when the state
   differs from the pending batch's. false only when memory runs out. */
bool lkgl_queue_op(lkgl_renderer *r, const lk_dl_op *op, const lkgl_texture *texture,
                   const lkgl_clip *clip, int blend, bool as_clip_mask);
void lkgl_flush(lkgl_renderer *r);
/* Flushes, then draws one quad over box with the program, textures and
   uniforms the caller set (compositing and blur passes). */
void lkgl_draw_box(lkgl_renderer *r, lkgl_box box);
/* The pixel box op's shape may touch (widened by a pixel for antialiasing),
   within limit; empty when nothing is visible. */
lkgl_box lkgl_op_bounds(const lk_dl_op *op, lkgl_box limit);
/* Output -> op local homography; false when singular or not finite. */
bool lkgl_op_inverse(const lk_dl_op *op, double inv[3][3]);
/* The op's rect, normalised, when it is an axis-aligned rect in output
   space (no rotation, perspective, radius) */
bool lkgl_op_device_rect(const lk_dl_op *op, double *x0, double *y0, double *x1, double *y1);

/* gles_textures.c */
/* The texture for img, uploaded when new or its generation changed. */
lkgl_texture *lkgl_texture_for(lkgl_renderer *r, const lk_dl_image *img, char *error,
                               size_t error_size);
void lkgl_texture_set_filter(lkgl_renderer *r, lkgl_texture *t, bool nearest);
void lkgl_textures_forget(lkgl_renderer *r, uint64_t id);
void lkgl_textures_free(lkgl_renderer *r);

/* gles_gradient.c */
extern const char lkgl_gradient_source[];
/* room for it and the variant's defines */
#define LKGL_GRADIENT_SOURCE_MAX 4096
bool lkgl_gradient_validate(const lkgl_renderer *r, const lk_dl_op *op, uint32_t index, char *error,
                            size_t error_size);
/* Sets the stops as program p's uniforms (p in use). */
void lkgl_gradient_set_stops(lkgl_renderer *r, const lkgl_program *p, const lk_dl_gradient_stop *stops,
                             uint32_t count);
/* The ramp texture of op's stops (more than LKGL_MAX_UNIFORM_STOPS),
   uploaded unless cached; NULL with error set. */
const lkgl_texture *lkgl_gradient_ramp(lkgl_renderer *r, const lk_dl_op *op, char *error, size_t error_size);
/* The width of the gradient ramps on this GL. */
int32_t lkgl_ramp_size(const lkgl_renderer *r);
void lkgl_gradient_free(lkgl_renderer *r);

/* gles_targets.c */
/* A free offscreen target as big as the output, or -1 with error set. */
int lkgl_target_acquire(lkgl_renderer *r, char *error, size_t error_size);
void lkgl_target_release(lkgl_renderer *r, int target);
void lkgl_targets_free(lkgl_renderer *r);
/* Clears box of the bound target to transparent. */
void lkgl_clear_box(lkgl_renderer *r, lkgl_box box);
/* Composites group g (its content and, when it has one, its shadow) onto the
   target below it, under clip. */
/* A group's shadow as the software backend draws it (software_group.c): the
   offset split into whole pixels (ox, oy) and fractions in [-0.5, 0.5)
   folded into the kernel, sigma capped, the kernel's reach in pixels. */
typedef struct lkgl_shadow {
    double  sigma, fx, fy;
    int32_t ox, oy, reach;
} lkgl_shadow;
/* false when the op casts no shadow (alpha rounds to 0, offsets not finite,
   sigma NaN) */
bool lkgl_shadow_of(const lk_dl_op *op, lkgl_shadow *s);
bool lkgl_group_composite(lkgl_renderer *r, const lkgl_group *g, const lkgl_clip *clip,
                          char *error, size_t error_size);

#endif /* LK_GLES_PRIVATE_H */
