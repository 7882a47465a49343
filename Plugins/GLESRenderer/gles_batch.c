/*
 * Ops become quads; quads of the same state become one draw call.
 *
 * An op's quad covers the whole pixels its shape may touch (found on the CPU
 * by mapping the rect's corners, clipped to w > 0 so nothing behind the eye
 * divides), and each of its vertices carries the op's parameters, so the
 * state that splits batches is only: program, image texture, clip mask,
 * blend mode. Each GL state change goes through one function here that skips
 * what is already set and counts what is not.
 */
#include "gles_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* State                                                                     */

void lkgl_state_reset(lkgl_renderer *r)
{
    memset(&r->state, 0, sizeof r->state);
    r->state.program = -1;
    r->state.blend = -1;
    r->state.scissor.x0 = r->state.scissor.x1 = -1;
}

bool lkgl_use_program(lkgl_renderer *r, int program)
{
    if (r->state.program == program) return r->programs[program].id != 0;
    /* built the first time a frame needs it; one that does not build fails
       the frame (lkgl_renderer_render reports why) and draws nothing */
    char error[sizeof r->program_error];
    bool ready = lkgl_program_ready(r, program, error, sizeof error);
    if (!ready) r->program_failed = true;
    glUseProgram(r->programs[program].id);
    r->state.program = program;
    r->frame.state_changes++;
    return ready;
}

/* The current program's target uniforms, for the bound target. */
static void sync_target_uniforms(lkgl_renderer *r)
{
    lkgl_program *p = &r->programs[r->state.program];
    bool offscreen = r->current_target >= 0;
    float m = (float)r->margin, w = (float)r->width, h = (float)r->height;
    float space[5] = { offscreen ? -m : 0.0f, offscreen ? w + 2 * m : w, offscreen ? h + 2 * m : h, m,
                       offscreen ? 1.0f : 0.0f };
    if (memcmp(space, p->space, sizeof space) == 0) return;
    memcpy(p->space, space, sizeof space);
    if (p->u_origin >= 0) glUniform2f(p->u_origin, space[0], space[0]);
    if (p->u_target >= 0) glUniform2f(p->u_target, space[1], space[2]);
    if (p->u_offscreen >= 0) glUniform4f(p->u_offscreen, m, m, w + 2 * m, h + 2 * m);
}

void lkgl_bind_texture(lkgl_renderer *r, int unit, GLuint texture)
{
    /* uploads and sampler changes act on the active unit: keep it the one asked for */
    if (r->state.active_unit != unit + 1) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
        r->state.active_unit = unit + 1;
    }
    if (unit < 2 && r->state.texture[unit] == texture) return;
    glBindTexture(GL_TEXTURE_2D, texture);
    if (unit < 2) r->state.texture[unit] = texture;
    r->frame.state_changes++;
}

void lkgl_set_blend(lkgl_renderer *r, int blend)
{
    if (r->state.blend == blend) return;
    if (blend == LKGL_BLEND_REPLACE) {
        glDisable(GL_BLEND);
    } else {
        if (r->state.blend < 0 || r->state.blend == LKGL_BLEND_REPLACE) glEnable(GL_BLEND);
        if (blend == LKGL_BLEND_ADD)
            glBlendFunc(GL_ONE, GL_ONE);
        else
            glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    }
    r->state.blend = blend;
    r->frame.state_changes++;
}

void lkgl_set_scissor(lkgl_renderer *r, lkgl_box b)
{
    lkgl_box *s = &r->state.scissor;
    if (r->current_target >= 0) {
        /* offscreen pixel (0, 0) is output pixel (-margin, -margin) */
        b.x0 += r->margin; b.x1 += r->margin;
        b.y0 += r->margin; b.y1 += r->margin;
    }
    if (s->x0 == b.x0 && s->y0 == b.y0 && s->x1 == b.x1 && s->y1 == b.y1) return;
    lkgl_flush(r);
    glScissor(b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0);
    *s = b;
    r->frame.state_changes++;
}

void lkgl_bind_target(lkgl_renderer *r, int target)
{
    GLuint fbo = target < 0 ? r->output_fbo : r->targets[target].fbo;
    lkgl_flush(r);
    r->current_target = target;
    if (r->state.valid && r->state.fbo == fbo) return;
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    r->state.fbo = fbo;
    r->state.valid = true;
    r->frame.state_changes++;
    int32_t w = (int32_t)(target < 0 ? r->width : r->target_width);
    int32_t h = (int32_t)(target < 0 ? r->height : r->target_height);
    if (r->state.viewport_w != w || r->state.viewport_h != h) {
        glViewport(0, 0, w, h);
        r->state.viewport_w = w;
        r->state.viewport_h = h;
    }
    /* with a margin, the same output box is other target pixels now */
    if (r->margin) r->state.scissor.x0 = r->state.scissor.x1 = -1 - LKGL_MAX_MARGIN;
}

/* ------------------------------------------------------------------------ */
/* Geometry                                                                  */

/* The z = 0 plane of the row-vector transform as a column-vector 3x3:
   [X Y W]^T = h [x y 1]^T. */
static bool homography(const lk_dl_op *op, double h[3][3])
{
    const double *t = op->transform;
    double m[3][3] = { { t[0], t[4], t[12] }, { t[1], t[5], t[13] }, { t[3], t[7], t[15] } };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            if (!isfinite(m[i][j])) return false;
            h[i][j] = m[i][j];
        }
    return true;
}

/* The op's rect with x0 <= x1, y0 <= y1; false when empty or not finite. */
static bool local_rect(const lk_dl_op *op, double *x0, double *y0, double *x1, double *y1)
{
    double x = op->rect.x, y = op->rect.y, w = op->rect.width, h = op->rect.height;
    if (!isfinite(x) || !isfinite(y) || !isfinite(w) || !isfinite(h)) return false;
    if (w < 0) { x += w; w = -w; }
    if (h < 0) { y += h; h = -h; }
    *x0 = x; *y0 = y; *x1 = x + w; *y1 = y + h;
    return w > 0.0 && h > 0.0 && isfinite(*x1) && isfinite(*y1);
}

bool lkgl_op_inverse(const lk_dl_op *op, double inv[3][3])
{
    double h[3][3];
    if (!homography(op, h)) return false;
    double c00 = h[1][1] * h[2][2] - h[1][2] * h[2][1];
    double c01 = h[1][2] * h[2][0] - h[1][0] * h[2][2];
    double c02 = h[1][0] * h[2][1] - h[1][1] * h[2][0];
    double det = h[0][0] * c00 + h[0][1] * c01 + h[0][2] * c02;
    if (!isfinite(det) || fabs(det) < 1e-300) return false;
    double a[3][3] = {
        { c00, h[0][2] * h[2][1] - h[0][1] * h[2][2], h[0][1] * h[1][2] - h[0][2] * h[1][1] },
        { c01, h[0][0] * h[2][2] - h[0][2] * h[2][0], h[0][2] * h[1][0] - h[0][0] * h[1][2] },
        { c02, h[0][1] * h[2][0] - h[0][0] * h[2][1], h[0][0] * h[1][1] - h[0][1] * h[1][0] },
    };
    /* Scaled by a positive factor so the largest entry is 1: float keeps the
       precision, and the sign of the third row (in front of the eye) is kept. */
    double largest = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            a[i][j] /= det;
            if (fabs(a[i][j]) > largest) largest = fabs(a[i][j]);
        }
    if (!isfinite(largest) || largest == 0.0) return false;
    /* det may be negative (a mirrored layer): dividing by it above keeps the
       inverse exact, so w' = 1/W keeps the sign of W. */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) inv[i][j] = a[i][j] / largest;
    return true;
}

bool lkgl_op_device_rect(const lk_dl_op *op, double *x0, double *y0, double *x1, double *y1)
{
    double h[3][3], lx0, ly0, lx1, ly1;
    if (!homography(op, h) || !local_rect(op, &lx0, &ly0, &lx1, &ly1)) return false;
    if (op->corner_radius > 0.0 || h[0][1] != 0.0 || h[1][0] != 0.0 || h[2][0] != 0.0 ||
        h[2][1] != 0.0 || !(h[2][2] > 0.0))
        return false;
    double sx = h[0][0] / h[2][2], sy = h[1][1] / h[2][2];
    double tx = h[0][2] / h[2][2], ty = h[1][2] / h[2][2];
    double ax = sx * lx0 + tx, bx = sx * lx1 + tx, ay = sy * ly0 + ty, by = sy * ly1 + ty;
    *x0 = fmin(ax, bx); *x1 = fmax(ax, bx);
    *y0 = fmin(ay, by); *y1 = fmax(ay, by);
    return isfinite(*x0) && isfinite(*x1) && isfinite(*y0) && isfinite(*y1);
}

#define LKGL_NEAR_W 1e-6

lkgl_box lkgl_op_bounds(const lk_dl_op *op, lkgl_box limit)
{
    lkgl_box none = { limit.x0, limit.y0, limit.x0, limit.y0 };
    double h[3][3], x0, y0, x1, y1;
    if (!homography(op, h) || !local_rect(op, &x0, &y0, &x1, &y1)) return none;
    double corners[4][2] = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } };
    double hp[4][3];
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            hp[i][k] = h[k][0] * corners[i][0] + h[k][1] * corners[i][1] + h[k][2];
    /* The quad clipped to W >= LKGL_NEAR_W (Sutherland-Hodgman on one plane). */
    double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
    int points = 0;
    for (int i = 0; i < 4; i++) {
        const double *a = hp[i], *b = hp[(i + 1) % 4];
        bool ain = a[2] >= LKGL_NEAR_W, bin = b[2] >= LKGL_NEAR_W;
        double p[2][3];
        int n = 0;
        if (ain) { memcpy(p[n++], a, sizeof p[0]); }
        if (ain != bin) {
            double t = (LKGL_NEAR_W - a[2]) / (b[2] - a[2]);
            for (int k = 0; k < 3; k++) p[n][k] = a[k] + t * (b[k] - a[k]);
            n++;
        }
        for (int j = 0; j < n; j++) {
            double x = p[j][0] / p[j][2], y = p[j][1] / p[j][2];
            minx = fmin(minx, x); maxx = fmax(maxx, x);
            miny = fmin(miny, y); maxy = fmax(maxy, y);
            points++;
        }
    }
    if (points == 0 || !(minx <= maxx) || !(miny <= maxy)) return none;
    /* One pixel more on each side: antialiasing reaches half a pixel out. */
    lkgl_box b;
    b.x0 = minx < limit.x0 ? limit.x0 : (int32_t)floor(fmin(minx, (double)limit.x1)) - 1;
    b.y0 = miny < limit.y0 ? limit.y0 : (int32_t)floor(fmin(miny, (double)limit.y1)) - 1;
    b.x1 = maxx > limit.x1 ? limit.x1 : (int32_t)ceil(fmax(maxx, (double)limit.x0)) + 1;
    b.y1 = maxy > limit.y1 ? limit.y1 : (int32_t)ceil(fmax(maxy, (double)limit.y0)) + 1;
    return lkgl_box_intersect(b, limit);
}

/* ------------------------------------------------------------------------ */
/* Batching                                                                  */

static float unit(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }
/* 8-bit quantisation, as the software backend does before compositing. */
static float quantise(float v) { return (float)lrintf(unit(v) * 255.0f) / 255.0f; }

static bool reserve(lkgl_renderer *r, size_t quads)
{
    if (quads <= r->quad_capacity) return true;
    size_t capacity = r->quad_capacity ? r->quad_capacity : 256;
    while (capacity < quads) capacity *= 2;
    lkgl_vertex *v = realloc(r->vertices, capacity * 4 * sizeof *v);
    if (!v) return false;
    r->vertices = v;
    r->quad_capacity = capacity;
    return true;
}

static void set_attributes(void)
{
    const GLsizei stride = sizeof(lkgl_vertex);
#define ATTR(index, size, field) \
    glVertexAttribPointer(index, size, GL_FLOAT, GL_FALSE, stride, (const void *)offsetof(lkgl_vertex, field))
    ATTR(LKGL_ATTR_POS, 2, pos);
    ATTR(LKGL_ATTR_H0, 3, h0);
    ATTR(LKGL_ATTR_H1, 3, h1);
    ATTR(LKGL_ATTR_H2, 3, h2);
    ATTR(LKGL_ATTR_SHAPE, 4, shape);
    ATTR(LKGL_ATTR_RECT, 4, rect);
    ATTR(LKGL_ATTR_COLOR, 4, color);
    ATTR(LKGL_ATTR_UV, 4, uv);
    ATTR(LKGL_ATTR_UV_CLAMP, 4, uv_clamp);
#undef ATTR
}

void lkgl_flush(lkgl_renderer *r)
{
    if (r->quad_count == 0) return;
    size_t count = r->quad_count;
    r->quad_count = 0;
    if (!lkgl_use_program(r, r->batch.program)) return;
    if (r->batch.stops)
        lkgl_gradient_set_stops(r, &r->programs[r->batch.program], r->batch.stops, r->batch.stop_count);
    lkgl_set_blend(r, r->batch.blend);
    if (r->batch.image) lkgl_bind_texture(r, 0, r->batch.image);
    if (r->batch.clip) lkgl_bind_texture(r, 1, r->batch.clip);
    /* Orphaning the buffer lets the driver keep drawing the previous batch. */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(count * 4 * sizeof(lkgl_vertex)), r->vertices,
                 GL_STREAM_DRAW);
    set_attributes();
    sync_target_uniforms(r);
    glDrawElements(GL_TRIANGLES, (GLsizei)(count * 6), GL_UNSIGNED_SHORT, NULL);
    r->frame.draw_calls++;
}

static void key_for(lkgl_renderer *r, lkgl_batch_key key)
{
    if (r->quad_count > 0 &&
        (r->quad_count >= LKGL_MAX_QUADS || key.program != r->batch.program ||
         key.image != r->batch.image || key.clip != r->batch.clip || key.blend != r->batch.blend ||
         key.stops != r->batch.stops || key.stop_count != r->batch.stop_count))
        lkgl_flush(r);
    r->batch = key;
}

/* Appends one quad over box with the parameters in v (pos filled here). */
static bool append(lkgl_renderer *r, lkgl_box box, const lkgl_vertex *v)
{
    if (!reserve(r, r->quad_count + 1)) return false;
    lkgl_vertex *q = &r->vertices[r->quad_count * 4];
    const float xs[4] = { (float)box.x0, (float)box.x1, (float)box.x1, (float)box.x0 };
    const float ys[4] = { (float)box.y0, (float)box.y0, (float)box.y1, (float)box.y1 };
    for (int i = 0; i < 4; i++) {
        q[i] = *v;
        q[i].pos[0] = xs[i];
        q[i].pos[1] = ys[i];
    }
    r->quad_count++;
    return true;
}

void lkgl_draw_box(lkgl_renderer *r, lkgl_box box)
{
    lkgl_flush(r);
    lkgl_vertex v;
    memset(&v, 0, sizeof v);
    if (lkgl_box_empty(box) || !append(r, box, &v)) return;
    r->quad_count = 0;
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(4 * sizeof(lkgl_vertex)), r->vertices, GL_STREAM_DRAW);
    set_attributes();
    if (!r->programs[r->state.program].id) return;   /* it did not build: the frame fails */
    sync_target_uniforms(r);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, NULL);
    r->frame.draw_calls++;
}

bool lkgl_queue_op(lkgl_renderer *r, const lk_dl_op *op, const lkgl_texture *texture,
                   const lkgl_clip *clip, int blend, bool as_clip_mask)
{
    lkgl_box box = lkgl_op_bounds(op, clip->box);
    double inv[3][3], x0, y0, x1, y1;
    if (lkgl_box_empty(box) || !lkgl_op_inverse(op, inv) || !local_rect(op, &x0, &y0, &x1, &y1))
        return true;

    lkgl_vertex v;
    memset(&v, 0, sizeof v);
    for (int j = 0; j < 3; j++) {
        v.h0[j] = (float)inv[0][j];
        v.h1[j] = (float)inv[1][j];
        v.h2[j] = (float)inv[2][j];
    }
    v.rect[0] = (float)x0; v.rect[1] = (float)y0;
    v.rect[2] = (float)x1; v.rect[3] = (float)y1;
    double radius = op->kind == LK_DL_OP_IMAGE ? 0.0 : op->corner_radius;
    radius = (isfinite(radius) && radius > 0.0) ? fmin(radius, 0.5 * fmin(x1 - x0, y1 - y0)) : 0.0;
    v.shape[0] = (float)radius;
    v.shape[1] = op->kind == LK_DL_OP_BORDER ? (float)op->border_width : 0.0f;
    v.shape[2] = (op->flags & LK_DL_FLAG_ANTIALIAS) ? 1.0f : 0.0f;

    float opacity = quantise(op->opacity);
    bool gradient = op->kind == LK_DL_OP_GRADIENT && !as_clip_mask;
    if (as_clip_mask) {
        v.color[0] = v.color[1] = v.color[2] = v.color[3] = 1.0f;
    } else if (gradient) {
        /* opacity in all four; the start, the vector to the end and the kind for gradient_color */
        v.color[0] = v.color[1] = v.color[2] = v.color[3] = opacity;
        v.uv[0] = (float)op->gradient_start_x;
        v.uv[1] = (float)op->gradient_start_y;
        /* end - start in double: floats of both points lost a short
           vector's direction, or all of it (100 and 100 + 1e-7) */
        v.uv[2] = (float)(op->gradient_end_x - op->gradient_start_x);
        v.uv[3] = (float)(op->gradient_end_y - op->gradient_start_y);
        v.uv_clamp[0] = (float)op->gradient_kind;
    } else if (texture) {
        v.color[0] = v.color[1] = v.color[2] = v.color[3] = opacity;
        if (op->flags & LK_DL_FLAG_TINT) {
            /* ABI 3: the texel times the premultiplied tint, component-wise,
               in the same vertex colour the opacity rides on (so tinted and
               untinted images still share a batch). */
            const float t[4] = { op->tint.r, op->tint.g, op->tint.b, op->tint.a };
            float a = quantise(t[3]);
            for (int i = 0; i < 3; i++) {
                float c = quantise(t[i]);
                v.color[i] = opacity * (c > a ? a : c);
            }
            v.color[3] = opacity * a;
        }
        const lk_dl_rect src = op->source;
        const lk_dl_image *img = op->image;
        double w = img->width, h = img->height;
        double ax = src.width / op->rect.width, ay = src.height / op->rect.height;
        v.uv[0] = (float)(ax / w);
        v.uv[1] = (float)((src.x - op->rect.x * ax) / w);
        v.uv[2] = (float)(ay / h);
        v.uv[3] = (float)((src.y - op->rect.y * ay) / h);
        /* The texels under the source rect (rounded out): sampling clamps to
           their centres, so filtering repeats the edge instead of bleeding in
           the neighbouring part of the image. */
        double sx0 = fmin(src.x, src.x + src.width), sx1 = fmax(src.x, src.x + src.width);
        double sy0 = fmin(src.y, src.y + src.height), sy1 = fmax(src.y, src.y + src.height);
        double ix0 = fmax(floor(sx0), 0.0), ix1 = fmin(ceil(sx1), w);
        double iy0 = fmax(floor(sy0), 0.0), iy1 = fmin(ceil(sy1), h);
        if (ix1 <= ix0 || iy1 <= iy0) return true;
        v.uv_clamp[0] = (float)((ix0 + 0.5) / w);
        v.uv_clamp[1] = (float)((iy0 + 0.5) / h);
        v.uv_clamp[2] = (float)((ix1 - 0.5) / w);
        v.uv_clamp[3] = (float)((iy1 - 0.5) / h);
    } else {
        /* premultiplied colour x opacity, quantised, channels clamped to alpha */
        float a = quantise(op->color.a * opacity);
        float c[3] = { quantise(op->color.r * opacity), quantise(op->color.g * opacity),
                       quantise(op->color.b * opacity) };
        for (int i = 0; i < 3; i++) v.color[i] = c[i] > a ? a : c[i];
        v.color[3] = a;
    }

    lkgl_batch_key key;
    /* An axis-aligned rect in output space has exact coverage from its
       edges alone; anything else takes the general program (the split
       matters to rasterizers that run both sides of a branch, llvmpipe). */
    double dx0, dy0, dx1, dy1;
    bool simple = radius == 0.0 && lkgl_op_device_rect(op, &dx0, &dy0, &dx1, &dy1);
    key.program = (gradient ? LKGL_PROG_GRADIENT : LKGL_PROG_QUAD) + (texture ? 1 : 0) +
                  (clip->mask >= 0 ? 2 : 0) + (simple ? 0 : 4);
    key.image = texture ? texture->texture : 0;
    key.stops = gradient && !texture ? op->gradient_stops : NULL;
    key.stop_count = gradient && !texture ? op->gradient_stop_count : 0;
    key.clip = clip->mask >= 0 ? r->targets[clip->mask].texture : 0;
    key.blend = blend;
    /* quads stay inside their clip box; the scissor only has to allow it */
    lkgl_set_scissor(r, clip->box);
    key_for(r, key);
    return append(r, box, &v);
}
