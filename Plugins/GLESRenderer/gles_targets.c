/*
 * Offscreen targets: RGBA textures with a framebuffer each, as big as the
 * output grown by the frame's margin on every side (lkgl_space), kept in a
 * pool across frames. They hold clip masks (coverage in every channel), the
 * content and mask of groups, and the two passes of a shadow's blur. Every
 * target has the same geometry and everything works in output coordinates,
 * so one pixel of a target lies over the same output pixel (or the same
 * place beyond the output's edge, in the margin) and compositing is a 1:1
 * copy. The margin holds group content off the output whose shadow reaches
 * onto it.
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
    uint32_t width = r->width + 2 * (uint32_t)r->margin, height = r->height + 2 * (uint32_t)r->margin;
    if (r->target_width != width || r->target_height != height) {
        /* The output or the margin changed size: targets of the old size
           are of no use (all are released between frames). */
        for (size_t i = 0; i < r->target_count; i++)
            if (!r->targets[i].in_use) free_target(&r->targets[i]);
        r->target_width = width;
        r->target_height = height;
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
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, (GLsizei)width, (GLsizei)height, 0, GL_RGBA,
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
                           r->label, width, height,
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

/* Blurs wider than this are drawn with this sigma (as the software backend
   does): the reach, and so the work and the group's margin, stay bounded. */
#define LKGL_MAX_SIGMA 1024.0
/* Offsets beyond this put the shadow off any output. */
#define LKGL_MAX_OFFSET (4.0 * LKGL_MAX_SIZE)

/* The offset split into a whole part and a fraction in [-0.5, 0.5). */
static int32_t split_offset(double offset, double *fraction)
{
    if (offset > LKGL_MAX_OFFSET) offset = LKGL_MAX_OFFSET;
    if (offset < -LKGL_MAX_OFFSET) offset = -LKGL_MAX_OFFSET;
    double whole = floor(offset + 0.5);
    *fraction = offset - whole;
    return (int32_t)whole;
}

bool lkgl_shadow_of(const lk_dl_op *op, lkgl_shadow *s)
{
    float a = op->shadow_color.a > 0.0f ? (op->shadow_color.a < 1.0f ? op->shadow_color.a : 1.0f) : 0.0f;
    if (lrintf(a * 255.0f) <= 0 || !isfinite(op->shadow_offset_x) || !isfinite(op->shadow_offset_y) ||
        isnan(op->shadow_sigma))
        return false;
    double sigma = op->shadow_sigma;
    s->sigma = sigma > 0.0 ? (sigma < LKGL_MAX_SIGMA ? sigma : LKGL_MAX_SIGMA) : 0.0;
    s->reach = s->sigma < 1e-3 ? 0 : (int32_t)ceil(3.0 * s->sigma) + 1;
    s->ox = split_offset(op->shadow_offset_x, &s->fx);
    s->oy = split_offset(op->shadow_offset_y, &s->fy);
    return true;
}

/* Standard normal cumulative distribution. */
static double phi(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* The kernel of one direction, weights[k + *count] for k in -count..count:
   each content pixel is a unit square of constant alpha, so a pixel weighs
   the Gaussian's integral over it, centred on the fraction of the offset,
   renormalised after the cut at reach. Up to LKGL_MAX_TAPS taps a side a
   tap is one pixel and the kernel is the software backend's exactly; a
   wider one groups step pixels to a tap (those at k step - step / 2 ..
   + step - 1), each weighing an equal share of the group's integral, as
   many whole groups as lie within reach (software_group.c's kernel). */
static void integrated_kernel(double sigma, int32_t reach, double fraction, int *count, int *step,
                              float weights[2 * LKGL_MAX_TAPS + 1])
{
    if (reach == 0) {
        *count = 0;
        *step = 1;
        weights[0] = 1.0f;
        return;
    }
    int s = (reach + LKGL_MAX_TAPS - 1) / LKGL_MAX_TAPS;
    if (s > LKGL_MAX_STEP) s = LKGL_MAX_STEP;   /* not reached: sigma is capped */
    /* whole groups within the cut: no pixel read from beyond reach, the
       shadow's box (and the core's damage, 3 sigma + 2) */
    int half = s / 2, n = (reach - half) / s;
    double sum = 0.0, w[2 * LKGL_MAX_TAPS + 1];
    for (int k = -n; k <= n; k++) {
        double first = (double)k * s - half;   /* the tap's first pixel */
        w[k + n] = phi((first + s - 0.5 - fraction) / sigma) - phi((first - 0.5 - fraction) / sigma);
        sum += w[k + n];
    }
    for (int i = 0; i <= 2 * n; i++) weights[i] = (float)(w[i] / sum / s);
    *count = n;
    *step = s;
}

/* One pass of taps: output pixel p (in box, into target `into`) takes
   sum_k weights[k + count] x (the `reads` source pixels from
   p - shift - (k stride - half) on, backwards), k in -count..count; only
   the source's pixels in bounds count. */
static void blur_taps(lkgl_renderer *r, int into, GLuint source, bool encoded, lkgl_box bounds, lkgl_box box,
                      const float *weights, int count, int reads, int stride, int half, int32_t shift, bool vertical)
{
    lkgl_program *p = &r->programs[LKGL_PROG_BLUR];
    lkgl_bind_target(r, into);
    lkgl_set_scissor(r, box);
    lkgl_use_program(r, LKGL_PROG_BLUR);
    lkgl_set_blend(r, LKGL_BLEND_REPLACE);
    glUniform1fv(p->u_weights, 2 * count + 1, weights);
    glUniform1i(p->u_count, count);
    glUniform1i(p->u_step, reads);
    glUniform1f(p->u_stride, (float)stride);
    glUniform1f(p->u_half, (float)half);
    glUniform1f(p->u_decode, encoded ? 1.0f : 0.0f);
    glUniform2f(p->u_direction, vertical ? 0.0f : 1.0f, vertical ? 1.0f : 0.0f);
    glUniform2f(p->u_shift, vertical ? 0.0f : (float)shift, vertical ? (float)shift : 0.0f);
    glUniform4f(p->u_bounds, (float)bounds.x0, (float)bounds.y0, (float)bounds.x1, (float)bounds.y1);
    lkgl_bind_texture(r, 0, source);
    lkgl_draw_box(r, box);
    r->frame.offscreen_passes++;
}

/* Whether a blur of this reach groups pixels into taps (integrated_kernel:
   more than LKGL_MAX_TAPS pixels a side): its directions then take two
   passes each, through a scratch target. */
static bool blur_groups_pixels(const lkgl_shadow *s) { return s->reach > LKGL_MAX_TAPS; }

/* One direction of the blur from source (only its pixels in bounds count)
   into the target `into` over box. A tap of one pixel reads it; a tap of
   a group of step pixels reads them all: 2 x 3 sigma reads a pixel (6,146
   at the capped sigma, seconds a small frame on llvmpipe). So a grouping
   kernel runs in two passes: the averages of step pixels into `scratch`,
   where the taps will read them (p - shift - k step, k within the kernel),
   then one read a tap from those, its weight times step: the same sums,
   about step + 2 count + 1 reads a pixel. */
static void blur_direction(lkgl_renderer *r, int into, int scratch, GLuint source, bool encoded, lkgl_box bounds,
                           lkgl_box box, double sigma, int32_t reach, double fraction, int32_t shift, bool vertical)
{
    float weights[2 * LKGL_MAX_TAPS + 1];
    int count, step;
    integrated_kernel(sigma, reach, fraction, &count, &step, weights);
    if (step == 1 || scratch < 0) {
        blur_taps(r, into, source, encoded, bounds, box, weights, count, step, step, step / 2, shift, vertical);
        return;
    }
    int32_t spread = count * step;
    lkgl_box sums = box;
    if (vertical) {
        sums.y0 = box.y0 - shift - spread;
        sums.y1 = box.y1 - shift + spread;
    } else {
        sums.x0 = box.x0 - shift - spread;
        sums.x1 = box.x1 - shift + spread;
    }
    sums = lkgl_box_intersect(sums, lkgl_space(r));
    float average = 1.0f / (float)step;
    blur_taps(r, scratch, source, encoded, bounds, sums, &average, 0, step, 0, step / 2, 0, vertical);
    for (int i = 0; i <= 2 * count; i++) weights[i] *= (float)step;
    blur_taps(r, into, r->targets[scratch].texture, true, sums, box, weights, count, 1, step, 0, shift, vertical);
}

/* The shadow's alpha over out, from the alpha of source over box (the
   group's pixels), into a new target (two passes through a second one,
   each through a third for a wide blur), held as two bytes a pixel (see
   blur_fragment); returns it, or -1 with error. Output pixel X reads
   content X - ox - d, as software_group.c. */
static int blur(lkgl_renderer *r, GLuint source, lkgl_box box, lkgl_box out, const lkgl_shadow *s,
                char *error, size_t error_size)
{
    int pass1 = lkgl_target_acquire(r, error, error_size);
    if (pass1 < 0) return -1;
    int pass2 = lkgl_target_acquire(r, error, error_size);
    if (pass2 < 0) {
        lkgl_target_release(r, pass1);
        return -1;
    }
    int scratch = -1;
    if (blur_groups_pixels(s) && (scratch = lkgl_target_acquire(r, error, error_size)) < 0) {
        lkgl_target_release(r, pass1);
        lkgl_target_release(r, pass2);
        return -1;
    }
    int saved = r->current_target;
    /* horizontal: the content's rows, the shadow's columns */
    lkgl_box rows = { out.x0, box.y0, out.x1, box.y1 };
    blur_direction(r, pass1, scratch, source, false, box, rows, s->sigma, s->reach, s->fx, s->ox, false);
    blur_direction(r, pass2, scratch, r->targets[pass1].texture, true, rows, out, s->sigma, s->reach, s->fy, s->oy,
                   true);
    lkgl_target_release(r, scratch);
    lkgl_target_release(r, pass1);
    lkgl_bind_target(r, saved);
    return pass2;
}

bool lkgl_group_composite(lkgl_renderer *r, const lkgl_group *g, const lkgl_clip *clip,
                          char *error, size_t error_size)
{
    const lk_dl_op *op = &g->op;
    GLuint content = r->targets[g->target].texture;
    GLuint mask = g->mask >= 0 ? r->targets[g->mask].texture : 0;
    int blend = (op->flags & LK_DL_FLAG_BLEND_ADD) ? LKGL_BLEND_ADD : LKGL_BLEND_OVER;
    lkgl_box limit = clip->box;

    lkgl_shadow shadow;
    if (lkgl_shadow_of(op, &shadow)) {
        lkgl_box b = g->box, grown = { b.x0 + shadow.ox - shadow.reach, b.y0 + shadow.oy - shadow.reach,
                                       b.x1 + shadow.ox + shadow.reach, b.y1 + shadow.oy + shadow.reach };
        lkgl_box out = lkgl_box_intersect(grown, limit);
        if (!lkgl_box_empty(out) && !lkgl_box_empty(b)) {
            /* The shadow's source is the group as composited (its mask
               applied), without the group opacity: drawn into a target when
               masked. */
            GLuint source = content;
            int masked = -1;
            if (mask) {
                if ((masked = lkgl_target_acquire(r, error, error_size)) < 0) return false;
                lkgl_bind_target(r, masked);
                lkgl_clear_box(r, b);
                set_composite(r, 0, content, mask, NULL);
                lkgl_set_blend(r, LKGL_BLEND_REPLACE);
                glUniform1f(r->programs[LKGL_PROG_COMPOSITE].u_opacity, 1.0f);
                lkgl_draw_box(r, b);
                r->frame.offscreen_passes++;
                source = r->targets[masked].texture;
            }
            int blurred = blur(r, source, b, out, &shadow, error, error_size);
            lkgl_target_release(r, masked);
            if (blurred < 0) return false;
            lkgl_bind_target(r, g->below);
            lkgl_set_scissor(r, limit);
            set_composite(r, 1, r->targets[blurred].texture, 0, clip);
            lkgl_set_blend(r, blend);
            lkgl_program *p = &r->programs[LKGL_PROG_COMPOSITE];
            float tint[4] = { op->shadow_color.r, op->shadow_color.g, op->shadow_color.b, op->shadow_color.a };
            for (int i = 0; i < 4; i++) tint[i] = tint[i] > 0.0f ? (tint[i] < 1.0f ? tint[i] : 1.0f) : 0.0f;
            glUniform4fv(p->u_tint, 1, tint);
            lkgl_draw_box(r, out);
            lkgl_target_release(r, blurred);
        }
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
