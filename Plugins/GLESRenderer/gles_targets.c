/*
 * Offscreen targets: RGBA textures with a framebuffer each, as big as the
 * output, kept in a pool across frames. They hold clip masks (coverage in
 * every channel), the content and mask of groups, and the two passes of a
 * shadow's blur. Working in output coordinates everywhere keeps one pixel of
 * a target over the same pixel of the output, so compositing is a 1:1 copy.
 */
#include "gles_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void free_target(lkgl_target *t)
{
    if (t->fbo) glDeleteFramebuffers(1, &t->fbo);
    if (t->texture) glDeleteTextures(1, &t->texture);
    t->fbo = t->texture = 0;
}

void lkgl_targets_free(lkgl_renderer *r)
{
    for (size_t i = 0; i < r->target_count; i++) free_target(&r->targets[i]);
    free(r->targets);
    r->targets = NULL;
    r->target_count = 0;
}

int lkgl_target_acquire(lkgl_renderer *r, char *error, size_t error_size)
{
    if (r->target_width != r->width || r->target_height != r->height) {
        /* The output changed size: targets of the old size are of no use. */
        for (size_t i = 0; i < r->target_count; i++)
            if (!r->targets[i].in_use) free_target(&r->targets[i]);
        r->target_width = r->width;
        r->target_height = r->height;
    }
    size_t index = r->target_count;
    for (size_t i = 0; i < r->target_count; i++)
        if (!r->targets[i].in_use) {
            index = i;
            break;
        }
    if (index == r->target_count) {
        lkgl_target *t = realloc(r->targets, (r->target_count + 1) * sizeof *t);
        if (!t) {
            lkgl_set_error(error, error_size, "%s: out of memory for an offscreen target", r->label);
            return -1;
        }
        r->targets = t;
        memset(&r->targets[index], 0, sizeof r->targets[index]);
        r->target_count++;
    }
    lkgl_target *t = &r->targets[index];
    if (!t->texture) {
        lkgl_flush(r);
        while (glGetError() != GL_NO_ERROR) {}
        glGenTextures(1, &t->texture);
        lkgl_bind_texture(r, 0, t->texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, (GLsizei)r->width, (GLsizei)r->height, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, NULL);
        glGenFramebuffers(1, &t->fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->texture, 0);
        GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
        GLenum e = glGetError();
        /* the framebuffer binding is no longer what the state says */
        r->state.valid = false;
        lkgl_bind_target(r, r->current_target);
        if (status != GL_FRAMEBUFFER_COMPLETE || e != GL_NO_ERROR) {
            lkgl_set_error(error, error_size,
                           "%s: cannot make a %ux%u offscreen target: %s (framebuffer status 0x%x)",
                           r->label, r->width, r->height,
                           e != GL_NO_ERROR ? lkgl_gl_error_name(e) : "incomplete framebuffer", status);
            free_target(t);
            return -1;
        }
    }
    t->in_use = true;
    return (int)index;
}

void lkgl_target_release(lkgl_renderer *r, int target)
{
    if (target >= 0 && (size_t)target < r->target_count) r->targets[target].in_use = false;
}

void lkgl_clear_box(lkgl_renderer *r, lkgl_box box)
{
    if (lkgl_box_empty(box)) return;
    lkgl_set_scissor(r, box);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

/* ------------------------------------------------------------------------ */
/* Compositing                                                               */

static void set_composite(lkgl_renderer *r, int mode, GLuint source, GLuint mask, const lkgl_clip *clip)
{
    lkgl_flush(r);
    lkgl_program *p = &r->programs[LKGL_PROG_COMPOSITE];
    lkgl_use_program(r, LKGL_PROG_COMPOSITE);
    lkgl_bind_texture(r, 0, source);
    glUniform1f(p->u_mode, (float)mode);
    glUniform1f(p->u_has_mask, mask ? 1.0f : 0.0f);
    if (mask) lkgl_bind_texture(r, 2, mask);
    bool clipped = clip && clip->mask >= 0;
    glUniform1f(p->u_has_clip, clipped ? 1.0f : 0.0f);
    if (clipped) lkgl_bind_texture(r, 1, r->targets[clip->mask].texture);
}

/* Gaussian weights for standard deviation sigma (pixels) sampled every step
   pixels, normalised to sum 1 over the taps on both sides. */
static int gaussian(double sigma, double *step, float weights[LKGL_MAX_TAPS + 1])
{
    double reach = ceil(3.0 * sigma);
    int taps = (int)reach;
    *step = 1.0;
    if (taps > LKGL_MAX_TAPS) {
        *step = reach / LKGL_MAX_TAPS;
        taps = LKGL_MAX_TAPS;
    }
    double sum = 0.0, w[LKGL_MAX_TAPS + 1];
    for (int i = 0; i <= taps; i++) {
        double x = i * *step;
        w[i] = exp(-x * x / (2.0 * sigma * sigma));
        sum += i == 0 ? w[i] : 2.0 * w[i];
    }
    for (int i = 0; i <= taps; i++) weights[i] = (float)(w[i] / sum);
    return taps;
}

static lkgl_box widen(lkgl_box b, int32_t by, lkgl_box limit)
{
    lkgl_box w = { b.x0 - by, b.y0 - by, b.x1 + by, b.y1 + by };
    return lkgl_box_intersect(w, limit);
}

static lkgl_box shift(lkgl_box b, double dx, double dy)
{
    lkgl_box s = { (int32_t)floor(b.x0 + dx), (int32_t)floor(b.y0 + dy),
                   (int32_t)ceil(b.x1 + dx), (int32_t)ceil(b.y1 + dy) };
    return s;
}

/* Blurs the alpha of source over box into a new target (two passes through a
   second one); returns it, or -1 with error. */
static int blur(lkgl_renderer *r, GLuint source, lkgl_box box, double sigma, char *error,
                size_t error_size)
{
    lkgl_box output = { 0, 0, (int32_t)r->width, (int32_t)r->height };
    double step;
    float weights[LKGL_MAX_TAPS + 1];
    int taps = gaussian(sigma, &step, weights);
    int32_t reach = (int32_t)ceil(taps * step) + 1;
    int pass1 = lkgl_target_acquire(r, error, error_size);
    if (pass1 < 0) return -1;
    int pass2 = lkgl_target_acquire(r, error, error_size);
    if (pass2 < 0) {
        lkgl_target_release(r, pass1);
        return -1;
    }
    lkgl_program *p = &r->programs[LKGL_PROG_BLUR];
    int saved = r->current_target;
    lkgl_box horizontal = lkgl_box_intersect((lkgl_box){ box.x0 - reach, box.y0, box.x1 + reach, box.y1 }, output);
    lkgl_box both = widen(box, reach, output);

    lkgl_bind_target(r, pass1);
    lkgl_clear_box(r, both);
    lkgl_use_program(r, LKGL_PROG_BLUR);
    lkgl_set_blend(r, LKGL_BLEND_REPLACE);
    glUniform1fv(p->u_weights, taps + 1, weights);
    glUniform1i(p->u_count, taps);
    glUniform2f(p->u_direction, (float)step, 0.0f);
    lkgl_bind_texture(r, 0, source);
    lkgl_draw_box(r, horizontal);
    r->frame.offscreen_passes++;

    lkgl_bind_target(r, pass2);
    lkgl_clear_box(r, both);
    glUniform2f(p->u_direction, 0.0f, (float)step);
    lkgl_bind_texture(r, 0, r->targets[pass1].texture);
    lkgl_draw_box(r, both);
    r->frame.offscreen_passes++;

    lkgl_target_release(r, pass1);
    lkgl_bind_target(r, saved);
    return pass2;
}

bool lkgl_group_composite(lkgl_renderer *r, const lkgl_group *g, const lkgl_clip *clip,
                          char *error, size_t error_size)
{
    const lk_dl_op *op = &g->op;
    lkgl_box output = { 0, 0, (int32_t)r->width, (int32_t)r->height };
    GLuint content = r->targets[g->target].texture;
    GLuint mask = g->mask >= 0 ? r->targets[g->mask].texture : 0;
    int blend = (op->flags & LK_DL_FLAG_BLEND_ADD) ? LKGL_BLEND_ADD : LKGL_BLEND_OVER;
    lkgl_box limit = clip->box;

    if (op->shadow_color.a > 0.0f) {
        /* The shadow's source is the group as composited (its mask applied),
           without the group opacity: drawn into a target when masked. */
        GLuint source = content;
        int masked = -1;
        if (mask) {
            if ((masked = lkgl_target_acquire(r, error, error_size)) < 0) return false;
            lkgl_bind_target(r, masked);
            lkgl_clear_box(r, g->box);
            set_composite(r, 0, content, mask, NULL);
            lkgl_set_blend(r, LKGL_BLEND_REPLACE);
            glUniform1f(r->programs[LKGL_PROG_COMPOSITE].u_opacity, 1.0f);
            lkgl_draw_box(r, g->box);
            r->frame.offscreen_passes++;
            source = r->targets[masked].texture;
        }
        double sigma = isfinite(op->shadow_sigma) && op->shadow_sigma > 0.0 ? op->shadow_sigma : 0.0;
        double dx = isfinite(op->shadow_offset_x) ? op->shadow_offset_x : 0.0;
        double dy = isfinite(op->shadow_offset_y) ? op->shadow_offset_y : 0.0;
        int blurred = -1;
        lkgl_box reach = g->box;
        if (sigma > 0.0) {
            blurred = blur(r, source, g->box, sigma, error, error_size);
            if (blurred < 0) {
                lkgl_target_release(r, masked);
                return false;
            }
            source = r->targets[blurred].texture;
            reach = widen(g->box, (int32_t)ceil(3.0 * sigma) + 1, output);
        }
        lkgl_box where = lkgl_box_intersect(shift(reach, dx, dy), limit);
        lkgl_bind_target(r, g->below);
        lkgl_set_scissor(r, limit);
        set_composite(r, 1, source, 0, clip);
        lkgl_set_blend(r, blend);
        lkgl_program *p = &r->programs[LKGL_PROG_COMPOSITE];
        float tint[4] = { op->shadow_color.r, op->shadow_color.g, op->shadow_color.b, op->shadow_color.a };
        for (int i = 0; i < 4; i++) tint[i] = tint[i] > 0.0f ? (tint[i] < 1.0f ? tint[i] : 1.0f) : 0.0f;
        glUniform4fv(p->u_tint, 1, tint);
        glUniform2f(p->u_offset, (float)dx, (float)dy);
        lkgl_draw_box(r, where);
        lkgl_target_release(r, masked);
        lkgl_target_release(r, blurred);
    }
    if (op->flags & LK_DL_FLAG_SHADOW_ONLY) return true;
    float opacity = op->opacity > 0.0f ? (op->opacity < 1.0f ? op->opacity : 1.0f) : 0.0f;
    if (opacity <= 0.0f) return true;
    lkgl_bind_target(r, g->below);
    lkgl_set_scissor(r, limit);
    /* A group draws unclipped; the clip around it applies to the composite. */
    set_composite(r, 0, content, mask, clip);
    lkgl_set_blend(r, blend);
    glUniform1f(r->programs[LKGL_PROG_COMPOSITE].u_opacity, opacity);
    lkgl_draw_box(r, lkgl_box_intersect(g->box, limit));
    return true;
}
