/*
 * One frame: check the display list, clear the damaged part of the target,
 * walk the ops in order under the clip and group stacks, leave the frame in
 * the caller's framebuffer.
 *
 * The list is validated before the first GL call, so a rejected list leaves
 * the previous frame intact.
 */
#include "gles_private.h"
#include "../display_list_ops.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lkgl_set_error(char *error, size_t error_size, const char *format, ...)
{
    if (!error || error_size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_size, format, args);
    va_end(args);
}

const char *lkgl_gl_error_name(uint32_t error)
{
    switch ((GLenum)error) {
    case GL_NO_ERROR: return "GL_NO_ERROR";
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
    }
}

static bool has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

lkgl_renderer *lkgl_renderer_create(const char *label, char *error, size_t error_size)
{
    lkgl_renderer *r = calloc(1, sizeof *r);
    if (!r) {
        lkgl_set_error(error, error_size, "%s: out of memory", label ? label : "gles renderer");
        return NULL;
    }
    snprintf(r->label, sizeof r->label, "%s", label ? label : "gles renderer");
    const char *version = (const char *)glGetString(GL_VERSION);
    if (!version) {
        lkgl_set_error(error, error_size, "%s: no current OpenGL ES context (glGetString: %s)",
                       r->label, lkgl_gl_error_name(glGetError()));
        free(r);
        return NULL;
    }
    int major = 0;
    if (sscanf(version, "OpenGL ES %d", &major) != 1) {
        lkgl_set_error(error, error_size, "%s: the current context is not OpenGL ES (\"%s\")",
                       r->label, version);
        free(r);
        return NULL;
    }
    r->es3 = major >= 3;
    const char *extensions = (const char *)glGetString(GL_EXTENSIONS);
    r->unpack_row_length = r->es3 || has_extension(extensions, "GL_EXT_unpack_subimage");
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &r->max_texture_size);
    GLint attributes = 0;
    glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &attributes);
    if (attributes < LKGL_ATTR_COUNT) {
        lkgl_set_error(error, error_size, "%s: GL_MAX_VERTEX_ATTRIBS is %d, %d are needed", r->label,
                       attributes, LKGL_ATTR_COUNT);
        free(r);
        return NULL;
    }
    if (!lkgl_programs_create(r, error, error_size)) {
        lkgl_renderer_destroy(r);
        return NULL;
    }
    r->total.programs_built = r->frame.programs_built;
    r->frame.programs_built = 0;
    glGenBuffers(1, &r->vertex_buffer);
    glGenBuffers(1, &r->index_buffer);
    GLushort *indices = malloc(LKGL_MAX_QUADS * 6 * sizeof *indices);
    if (!indices) {
        lkgl_set_error(error, error_size, "%s: out of memory", r->label);
        lkgl_renderer_destroy(r);
        return NULL;
    }
    for (GLushort q = 0; q < LKGL_MAX_QUADS; q++) {
        GLushort v = (GLushort)(q * 4);
        GLushort *i = &indices[q * 6];
        i[0] = v; i[1] = (GLushort)(v + 1); i[2] = (GLushort)(v + 2);
        i[3] = v; i[4] = (GLushort)(v + 2); i[5] = (GLushort)(v + 3);
    }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->index_buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, LKGL_MAX_QUADS * 6 * sizeof *indices, indices, GL_STATIC_DRAW);
    free(indices);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        lkgl_set_error(error, error_size, "%s: setting up buffers failed: %s", r->label, lkgl_gl_error_name(e));
        lkgl_renderer_destroy(r);
        return NULL;
    }
    r->clip_capacity = 16;
    r->clips = calloc(r->clip_capacity, sizeof *r->clips);
    r->group_capacity = 8;
    r->groups = calloc(r->group_capacity, sizeof *r->groups);
    if (!r->clips || !r->groups) {
        lkgl_set_error(error, error_size, "%s: out of memory", r->label);
        lkgl_renderer_destroy(r);
        return NULL;
    }
    return r;
}

void lkgl_renderer_destroy(lkgl_renderer *r)
{
    if (!r) return;
    lkgl_programs_destroy(r);
    lkgl_textures_free(r);
    lkgl_gradient_free(r);
    lkgl_targets_free(r);
    if (r->vertex_buffer) glDeleteBuffers(1, &r->vertex_buffer);
    if (r->index_buffer) glDeleteBuffers(1, &r->index_buffer);
    free(r->vertices);
    free(r->clips);
    free(r->groups);
    free(r);
}

void lkgl_renderer_image_released(lkgl_renderer *r, uint64_t id)
{
    if (r) lkgl_textures_forget(r, id);
}

void lkgl_renderer_stats(const lkgl_renderer *r, lkgl_stats *last_frame, lkgl_stats *total)
{
    if (last_frame) *last_frame = r->frame;
    if (total) *total = r->total;
}

void lkgl_renderer_describe(const lkgl_renderer *r, char *text, size_t text_size)
{
    (void)r;
    size_t used = strlen(text);
    if (used >= text_size) return;
    GLint max_texture = 0, max_renderbuffer = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture);
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_renderbuffer);
    const char *extensions = (const char *)glGetString(GL_EXTENSIONS);
    static const char *const wanted[] = {
        "GL_EXT_texture_format_BGRA8888", "GL_EXT_unpack_subimage", "GL_OES_EGL_image",
        "GL_OES_EGL_image_external", "GL_OES_rgb8_rgba8", "GL_EXT_read_format_bgra",
        "GL_OES_texture_npot", "GL_OES_standard_derivatives",
    };
    char found[512] = "";
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        bool has = has_extension(extensions, wanted[i]);
        size_t n = strlen(found);
        snprintf(found + n, sizeof found - n, "%s%s%s", n ? " " : "", has ? "" : "!", wanted[i]);
    }
    snprintf(text + used, text_size - used,
             "GL vendor: %s\nGL renderer: %s\nGL version: %s\nGLSL version: %s\n"
             "GL max texture size: %d\nGL max renderbuffer size: %d\n"
             "GL extensions that matter (! = missing): %s\n",
             (const char *)glGetString(GL_VENDOR), (const char *)glGetString(GL_RENDERER),
             (const char *)glGetString(GL_VERSION),
             (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION), max_texture, max_renderbuffer,
             found);
}

/* ------------------------------------------------------------------------ */
/* Validation                                                                */

static bool validate_image(const lkgl_renderer *r, const lk_dl_op *op, uint32_t index, char *error,
                           size_t error_size)
{
    const lk_dl_image *img = op->image;
    if (!img) {
        lkgl_set_error(error, error_size, "%s: op %u: IMAGE without an image", r->label, index);
        return false;
    }
    unsigned long long id = (unsigned long long)img->id;
    if (img->id == 0) {
        lkgl_set_error(error, error_size, "%s: op %u: image id is 0", r->label, index);
        return false;
    }
    if (img->format != LK_DL_FORMAT_ARGB32_PREMULTIPLIED) {
        lkgl_set_error(error, error_size,
                       "%s: op %u: image %llu has unsupported pixel format %u "
                       "(expected %u, ARGB32 premultiplied)",
                       r->label, index, id, img->format, (unsigned)LK_DL_FORMAT_ARGB32_PREMULTIPLIED);
        return false;
    }
    if (img->width == 0 || img->height == 0) return true;
    if (!img->pixels) {
        lkgl_set_error(error, error_size, "%s: op %u: image %llu has no pixels", r->label, index, id);
        return false;
    }
    uint64_t row = (uint64_t)img->width * 4;
    if (img->stride % 4 != 0 || img->stride < row) {
        lkgl_set_error(error, error_size,
                       "%s: op %u: image %llu stride %u is invalid for width %u "
                       "(a multiple of 4, at least %llu)",
                       r->label, index, id, img->stride, img->width, (unsigned long long)row);
        return false;
    }
    return true;
}

/* Clips and groups must nest: each pop matches the innermost push, and
   GROUP_CONTENT appears once, directly inside a group flagged GROUP_MASK. */
static bool validate(lkgl_renderer *r, const lk_display_list *list, char *error, size_t error_size)
{
    if (!list) {
        lkgl_set_error(error, error_size, "%s: render called without a display list", r->label);
        return false;
    }
    if (list->abi_version != LK_BACKEND_ABI_VERSION) {
        lkgl_set_error(error, error_size, "%s: display list abi_version %u is not supported (expected %u)",
                       r->label, list->abi_version, LK_BACKEND_ABI_VERSION);
        return false;
    }
    if (list->struct_size < sizeof(lk_display_list)) {
        lkgl_set_error(error, error_size,
                       "%s: display list struct_size %u is smaller than lk_display_list (%zu bytes)",
                       r->label, list->struct_size, sizeof(lk_display_list));
        return false;
    }
    if (list->op_count > 0 && list->op_size < sizeof(lk_dl_op)) {
        lkgl_set_error(error, error_size, "%s: display list op_size %u is smaller than lk_dl_op (%zu bytes)",
                       r->label, list->op_size, sizeof(lk_dl_op));
        return false;
    }
    if (list->op_count > 0 && !list->ops) {
        lkgl_set_error(error, error_size, "%s: display list has %u ops but ops is NULL", r->label,
                       list->op_count);
        return false;
    }
    /* nesting: one byte per open level, 'c' clip, 'g' group, 'm' mask group
       before its GROUP_CONTENT */
    char *stack = malloc(list->op_count + 1);
    if (!stack) {
        lkgl_set_error(error, error_size, "%s: out of memory validating %u ops", r->label, list->op_count);
        return false;
    }
    size_t depth = 0;
    bool ok = true;
    for (uint32_t i = 0; i < list->op_count && ok; i++) {
        lk_dl_op scratch;
        const lk_dl_op *op = dl_op_at(list, i, &scratch);
        const char *what = NULL;
        switch (op->kind) {
        case LK_DL_OP_FILL:
        case LK_DL_OP_BORDER:
            break;
        case LK_DL_OP_IMAGE:
            ok = validate_image(r, op, i, error, error_size);
            break;
        case LK_DL_OP_GRADIENT:
            ok = lkgl_gradient_validate(r, op, i, error, error_size);
            break;
        case LK_DL_OP_PUSH_CLIP: stack[depth++] = 'c'; break;
        case LK_DL_OP_PUSH_GROUP: stack[depth++] = (op->flags & LK_DL_FLAG_GROUP_MASK) ? 'm' : 'g'; break;
        case LK_DL_OP_POP_CLIP:
            if (depth == 0 || stack[depth - 1] != 'c') what = "POP_CLIP without a matching PUSH_CLIP";
            else depth--;
            break;
        case LK_DL_OP_GROUP_CONTENT:
            if (depth == 0 || stack[depth - 1] != 'm')
                what = "GROUP_CONTENT outside a group flagged GROUP_MASK (or after its content began)";
            else stack[depth - 1] = 'g';
            break;
        case LK_DL_OP_POP_GROUP:
            /* a mask group that never reached GROUP_CONTENT has no content:
               it draws nothing (as the software backend does) */
            if (depth == 0) what = "POP_GROUP without a matching PUSH_GROUP";
            else if (stack[depth - 1] == 'c')
                what = "POP_GROUP without a matching PUSH_GROUP (a clip pushed inside the group is still open)";
            else depth--;
            break;
        default:
            lkgl_set_error(error, error_size, "%s: op %u: unknown op kind %u", r->label, i, op->kind);
            ok = false;
        }
        if (what) {
            lkgl_set_error(error, error_size, "%s: op %u: %s", r->label, i, what);
            ok = false;
        }
    }
    free(stack);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Clip and group stacks                                                     */

static bool push_level(lkgl_renderer *r, lkgl_clip level)
{
    if (r->clip_count == r->clip_capacity) {
        lkgl_clip *c = realloc(r->clips, r->clip_capacity * 2 * sizeof *c);
        if (!c) return false;
        r->clips = c;
        r->clip_capacity *= 2;
    }
    r->clips[r->clip_count++] = level;
    return true;
}

static void pop_level(lkgl_renderer *r)
{
    lkgl_clip *c = &r->clips[--r->clip_count];
    if (c->owns_mask) {
        lkgl_flush(r);   /* pending quads may still read the mask */
        lkgl_target_release(r, c->mask);
    }
}

static lkgl_box round_out(double x0, double y0, double x1, double y1)
{
    lkgl_box b;
    /* within the largest space of any frame (output and margin) and a pixel */
    const double lo = -LKGL_MAX_MARGIN - 1.0, hi = LKGL_MAX_SIZE + LKGL_MAX_MARGIN + 1.0;
    b.x0 = (int32_t)fmax(floor(x0), lo);
    b.y0 = (int32_t)fmax(floor(y0), lo);
    b.x1 = (int32_t)fmin(ceil(x1), hi);
    b.y1 = (int32_t)fmin(ceil(y1), hi);
    return b;
}

static bool push_clip(lkgl_renderer *r, const lk_dl_op *op, char *error, size_t error_size)
{
    const lkgl_clip *parent = &r->clips[r->clip_count - 1];
    lkgl_clip level = *parent;
    level.owns_mask = false;
    double x0, y0, x1, y1;
    bool aa = (op->flags & LK_DL_FLAG_ANTIALIAS) != 0;
    if (lkgl_op_device_rect(op, &x0, &y0, &x1, &y1)) {
        lkgl_box b;
        bool exact;
        if (!aa) {
            /* pixel i is in when its centre is in [x0, x1) */
            b = round_out(ceil(x0 - 0.5), ceil(y0 - 0.5), ceil(x1 - 0.5), ceil(y1 - 0.5));
            exact = true;
        } else {
            b = round_out(x0, y0, x1, y1);
            exact = x0 == b.x0 && y0 == b.y0 && x1 == b.x1 && y1 == b.y1;
        }
        if (exact) {
            /* a whole-pixel rect only narrows the box */
            level.box = lkgl_box_intersect(parent->box, b);
            return push_level(r, level);
        }
    }
    /* Anything else: its coverage times the parent's, in a mask target. */
    double inverse[3][3];
    level.box = lkgl_op_bounds(op, parent->box);
    if (lkgl_box_empty(level.box) || !lkgl_op_inverse(op, inverse)) {
        level.box.x1 = level.box.x0;
        level.box.y1 = level.box.y0;
        return push_level(r, level);
    }
    int mask = lkgl_target_acquire(r, error, error_size);
    if (mask < 0) return false;
    int saved = r->current_target;
    lkgl_bind_target(r, mask);
    lkgl_clear_box(r, level.box);
    if (!lkgl_queue_op(r, op, NULL, parent, LKGL_BLEND_REPLACE, true)) {
        lkgl_target_release(r, mask);
        lkgl_set_error(error, error_size, "%s: out of memory", r->label);
        return false;
    }
    lkgl_flush(r);
    r->frame.offscreen_passes++;
    lkgl_bind_target(r, saved);
    level.mask = mask;
    level.owns_mask = true;
    if (!push_level(r, level)) {
        lkgl_target_release(r, mask);
        lkgl_set_error(error, error_size, "%s: out of memory", r->label);
        return false;
    }
    return true;
}

static bool push_group(lkgl_renderer *r, const lk_dl_op *op, char *error, size_t error_size)
{
    if (r->group_count == r->group_capacity) {
        lkgl_group *g = realloc(r->groups, r->group_capacity * 2 * sizeof *g);
        if (!g) {
            lkgl_set_error(error, error_size, "%s: out of memory", r->label);
            return false;
        }
        r->groups = g;
        r->group_capacity *= 2;
    }
    const lkgl_clip *clip = &r->clips[r->clip_count - 1];
    /* the output and the margin around it (content there casts shadows) */
    lkgl_box output = lkgl_space(r);
    /* What can still reach the screen: the clip box, unless only the shadow
       shows, and the content the shadow needs there (the clip box moved back
       by the offset and grown by the blur's reach), as the software backend. */
    lkgl_box limit = { 0, 0, 0, 0 };
    if (!(op->flags & LK_DL_FLAG_SHADOW_ONLY)) limit = clip->box;
    lkgl_shadow shadow;
    if (lkgl_shadow_of(op, &shadow) && !lkgl_box_empty(clip->box)) {
        lkgl_box c = clip->box;
        int64_t k = shadow.reach;
        int64_t x0 = c.x0 - shadow.ox - k, y0 = c.y0 - shadow.oy - k, x1 = c.x1 - shadow.ox + k,
                y1 = c.y1 - shadow.oy + k;
        lkgl_box need = { (int32_t)(x0 > output.x0 ? x0 : output.x0), (int32_t)(y0 > output.y0 ? y0 : output.y0),
                          (int32_t)(x1 < output.x1 ? x1 : output.x1), (int32_t)(y1 < output.y1 ? y1 : output.y1) };
        if (lkgl_box_empty(limit)) {
            limit = need;
        } else if (!lkgl_box_empty(need)) {
            limit.x0 = limit.x0 < need.x0 ? limit.x0 : need.x0;
            limit.y0 = limit.y0 < need.y0 ? limit.y0 : need.y0;
            limit.x1 = limit.x1 > need.x1 ? limit.x1 : need.x1;
            limit.y1 = limit.y1 > need.y1 ? limit.y1 : need.y1;
        }
    }
    lkgl_box box = output;
    const lk_dl_rect *rc = &op->rect;
    if (isfinite(rc->x) && isfinite(rc->y) && isfinite(rc->width) && isfinite(rc->height))
        box = round_out(fmin(rc->x, rc->x + rc->width), fmin(rc->y, rc->y + rc->height),
                        fmax(rc->x, rc->x + rc->width), fmax(rc->y, rc->y + rc->height));
    else
        box.x1 = box.x0;
    lkgl_group g;
    memset(&g, 0, sizeof g);
    g.op = *op;
    g.box = lkgl_box_intersect(lkgl_box_intersect(box, output), limit);
    g.below = r->current_target;
    g.mask = -1;
    g.clip_depth = r->clip_count;
    g.target = lkgl_target_acquire(r, error, error_size);
    if (g.target < 0) return false;
    lkgl_clip level = { g.box, -1, false };
    if (!push_level(r, level)) {
        lkgl_target_release(r, g.target);
        lkgl_set_error(error, error_size, "%s: out of memory", r->label);
        return false;
    }
    lkgl_bind_target(r, g.target);
    lkgl_clear_box(r, g.box);
    r->groups[r->group_count++] = g;
    r->frame.offscreen_passes++;
    return true;
}

/* GROUP_CONTENT: what was drawn so far is the mask; the content gets a target of its own. */
static bool group_content(lkgl_renderer *r, char *error, size_t error_size)
{
    lkgl_group *g = &r->groups[r->group_count - 1];
    int content = lkgl_target_acquire(r, error, error_size);
    if (content < 0) return false;
    g->mask = g->target;
    g->target = content;
    lkgl_bind_target(r, content);
    lkgl_clear_box(r, g->box);
    r->frame.offscreen_passes++;
    return true;
}

static bool pop_group(lkgl_renderer *r, char *error, size_t error_size)
{
    lkgl_group g = r->groups[--r->group_count];
    while (r->clip_count > g.clip_depth) pop_level(r);
    lkgl_flush(r);
    /* No GROUP_CONTENT came in a mask group: there is no content to show. */
    bool empty = (g.op.flags & LK_DL_FLAG_GROUP_MASK) && g.mask < 0;
    bool ok = empty || lkgl_group_composite(r, &g, &r->clips[r->clip_count - 1], error, error_size);
    lkgl_flush(r);
    lkgl_target_release(r, g.target);
    lkgl_target_release(r, g.mask);
    lkgl_bind_target(r, g.below);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* The frame                                                                 */

static lkgl_box damage_box(const lkgl_renderer *r, lk_dl_box d)
{
    int64_t x1 = (int64_t)d.x + d.width, y1 = (int64_t)d.y + d.height;
    lkgl_box b;
    b.x0 = d.x < 0 ? 0 : d.x;
    b.y0 = d.y < 0 ? 0 : d.y;
    b.x1 = (int32_t)(x1 > (int64_t)r->width ? (int64_t)r->width : x1);
    b.y1 = (int32_t)(y1 > (int64_t)r->height ? (int64_t)r->height : y1);
    lkgl_box output = { 0, 0, (int32_t)r->width, (int32_t)r->height };
    return lkgl_box_intersect(b, output);
}

static bool draw_op(lkgl_renderer *r, const lk_dl_op *op, uint32_t index, char *error,
                    size_t error_size)
{
    const lkgl_clip *clip = &r->clips[r->clip_count - 1];
    if (lkgl_box_empty(clip->box)) return true;
    float opacity = op->opacity > 0.0f ? (op->opacity < 1.0f ? op->opacity : 1.0f) : 0.0f;
    int blend = (op->flags & LK_DL_FLAG_BLEND_ADD) ? LKGL_BLEND_ADD : LKGL_BLEND_OVER;
    lkgl_texture *texture = NULL;
    if (op->kind == LK_DL_OP_IMAGE) {
        const lk_dl_image *img = op->image;
        const lk_dl_rect s = op->source;
        if (img->width == 0 || img->height == 0 || lrintf(opacity * 255.0f) == 0 || !isfinite(s.x) ||
            !isfinite(s.y) || !isfinite(s.width) || !isfinite(s.height) || s.width == 0.0 ||
            s.height == 0.0 || !isfinite(op->rect.width) || op->rect.width == 0.0 ||
            !isfinite(op->rect.height) || op->rect.height == 0.0)
            return true;
        if (lkgl_box_empty(lkgl_op_bounds(op, clip->box))) return true;
        if (!(texture = lkgl_texture_for(r, img, error, error_size))) {
            size_t n = strlen(error);
            if (n + 1 < error_size) snprintf(error + n, error_size - n, " (op %u)", index);
            return false;
        }
        lkgl_texture_set_filter(r, texture, (op->flags & LK_DL_FLAG_FILTER_NEAREST) != 0);
    } else if (op->kind == LK_DL_OP_GRADIENT) {
        if (lrintf(opacity * 255.0f) == 0 || !isfinite(op->gradient_start_x) || !isfinite(op->gradient_start_y) ||
            !isfinite(op->gradient_end_x) || !isfinite(op->gradient_end_y))
            return true;
        if (lkgl_box_empty(lkgl_op_bounds(op, clip->box))) return true;
        if (op->gradient_stop_count > LKGL_MAX_UNIFORM_STOPS) {
            const lkgl_texture *ramp = lkgl_gradient_ramp(r, op, error, error_size);
            if (!ramp) {
                size_t n = strlen(error);
                if (n + 1 < error_size) snprintf(error + n, error_size - n, " (op %u)", index);
                return false;
            }
            texture = (lkgl_texture *)ramp;
        }
    } else {
        if (lrintf(fminf(fmaxf(op->color.a * opacity, 0.0f), 1.0f) * 255.0f) == 0) return true;
        if (op->kind == LK_DL_OP_BORDER && !(isfinite(op->border_width) && op->border_width > 0.0))
            return true;
    }
    if (!lkgl_queue_op(r, op, texture, clip, blend, false)) {
        lkgl_set_error(error, error_size, "%s: out of memory drawing op %u", r->label, index);
        return false;
    }
    return true;
}

/* The margin this frame's shadows need around the output: the farthest a
   shadow reaches from the content casting it (offset and blur), rounded up
   to LKGL_MARGIN_STEP, within LKGL_MAX_MARGIN and GL_MAX_TEXTURE_SIZE. */
static int32_t frame_margin(const lkgl_renderer *r, const lk_display_list *list)
{
    int64_t need = 0;
    for (uint32_t i = 0; i < list->op_count; i++) {
        lk_dl_op scratch;
        const lk_dl_op *op = dl_op_at(list, i, &scratch);
        lkgl_shadow s;
        if (op->kind != LK_DL_OP_PUSH_GROUP || !lkgl_shadow_of(op, &s)) continue;
        int64_t reach = (int64_t)s.reach + 1 + (llabs(s.ox) > llabs(s.oy) ? llabs(s.ox) : llabs(s.oy));
        if (reach > need) need = reach;
    }
    if (need == 0) return 0;
    need = (need + LKGL_MARGIN_STEP - 1) / LKGL_MARGIN_STEP * LKGL_MARGIN_STEP;
    if (need > LKGL_MAX_MARGIN) need = LKGL_MAX_MARGIN;
    int64_t side = r->width > r->height ? r->width : r->height;
    int64_t room = ((int64_t)r->max_texture_size - side) / 2;
    if (need > room) need = room > 0 ? room : 0;
    return (int32_t)need;
}

bool lkgl_renderer_render(lkgl_renderer *r, const lk_display_list *list, uint32_t fbo,
                          uint32_t width, uint32_t height, char *error, size_t error_size)
{
    if (!r) {
        lkgl_set_error(error, error_size, "gles renderer: render called without a renderer");
        return false;
    }
    if (width == 0 || height == 0 || width > LKGL_MAX_SIZE || height > LKGL_MAX_SIZE) {
        lkgl_set_error(error, error_size, "%s: target size %ux%u is not supported (1..%u)", r->label,
                       width, height, LKGL_MAX_SIZE);
        return false;
    }
    if (!validate(r, list, error, error_size)) return false;

    memset(&r->frame, 0, sizeof r->frame);
    r->output_fbo = fbo;
    r->width = width;
    r->height = height;
    r->current_target = -1;
    r->quad_count = 0;
    r->program_failed = false;
    lkgl_state_reset(r);
    while (glGetError() != GL_NO_ERROR) {}

    lkgl_bind_target(r, -1);
    glViewport(0, 0, (GLsizei)width, (GLsizei)height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_STENCIL_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DITHER);
    glEnable(GL_SCISSOR_TEST);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glBindBuffer(GL_ARRAY_BUFFER, r->vertex_buffer);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->index_buffer);
    for (GLuint i = 0; i < LKGL_ATTR_COUNT; i++) glEnableVertexAttribArray(i);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);

    r->margin = frame_margin(r, list);
    lkgl_box damage = damage_box(r, list->damage);
    bool ok = true;
    if (!lkgl_box_empty(damage)) {
        lkgl_set_scissor(r, damage);
        /* quantised and clamped to a valid premultiplied value, as software does */
        lk_dl_color c = list->clear_color;
        float a = fminf(fmaxf(c.a, 0.0f), 1.0f);
        float rgb[3] = { c.r, c.g, c.b };
        for (int i = 0; i < 3; i++) rgb[i] = fminf(fmaxf(rgb[i], 0.0f), a);
        glClearColor(rgb[0], rgb[1], rgb[2], a);
        glClear(GL_COLOR_BUFFER_BIT);

        r->clip_count = 0;
        r->group_count = 0;
        lkgl_clip base = { damage, -1, false };
        push_level(r, base);
        for (uint32_t i = 0; i < list->op_count && ok; i++) {
            lk_dl_op scratch;
            const lk_dl_op *op = dl_op_at(list, i, &scratch);
            r->frame.ops++;
            switch (op->kind) {
            case LK_DL_OP_FILL:
            case LK_DL_OP_BORDER:
            case LK_DL_OP_IMAGE:
            case LK_DL_OP_GRADIENT: ok = draw_op(r, op, i, error, error_size); break;
            case LK_DL_OP_PUSH_CLIP: ok = push_clip(r, op, error, error_size); break;
            case LK_DL_OP_POP_CLIP: pop_level(r); break;
            case LK_DL_OP_PUSH_GROUP: ok = push_group(r, op, error, error_size); break;
            case LK_DL_OP_GROUP_CONTENT: ok = group_content(r, error, error_size); break;
            case LK_DL_OP_POP_GROUP: ok = pop_group(r, error, error_size); break;
            default: break;   /* rejected by validate() */
            }
        }
        /* Levels left open at the end close with the frame: groups composite. */
        while (ok && r->group_count > 0) ok = pop_group(r, error, error_size);
        lkgl_flush(r);
        while (r->group_count > 0) {
            lkgl_group *g = &r->groups[--r->group_count];
            lkgl_target_release(r, g->target);
            lkgl_target_release(r, g->mask);
        }
        while (r->clip_count > 0) pop_level(r);
    }
    lkgl_bind_target(r, -1);
    GLenum e = glGetError();
    if (ok && r->program_failed) {
        lkgl_set_error(error, error_size, "%s", r->program_error);
        ok = false;
    } else if (ok && e != GL_NO_ERROR) {
        lkgl_set_error(error, error_size, "%s: drawing the frame failed: %s", r->label, lkgl_gl_error_name(e));
        ok = false;
    }
    r->frame.frames = 1;
    r->total.frames++;
    r->total.ops += r->frame.ops;
    r->total.draw_calls += r->frame.draw_calls;
    r->total.state_changes += r->frame.state_changes;
    r->total.texture_uploads += r->frame.texture_uploads;
    r->total.upload_bytes += r->frame.upload_bytes;
    r->total.offscreen_passes += r->frame.offscreen_passes;
    r->total.programs_built += r->frame.programs_built;
    return ok;
}
