/*
 * Offscreen groups (ABI 2): PUSH_GROUP, GROUP_CONTENT, POP_GROUP.
 *
 * A group draws into its own transparent a8r8g8b8 image, sized to the
 * group's rect intersected with what can still reach the screen: the
 * parent's clip box (which lies inside the output and the damage) and, when
 * the group casts a shadow, the content that shadow needs (the clip box
 * moved back by the offset and grown by the blur's reach), never more than
 * SW_GROUP_MARGIN pixels beyond the output's edges. A frame without
 * groups never comes here: ops then draw straight into the framebuffer.
 *
 * At POP_GROUP, in order:
 *  1. a masked group multiplies its content by the mask's alpha;
 *  2. the shadow, when shadow_color.a > 0: the content's alpha convolved
 *     with a Gaussian of standard deviation shadow_sigma, moved by the
 *     offset, tinted with shadow_color, goes OVER the target below;
 *  3. unless SHADOW_ONLY, the content times opacity goes OVER (or ADD) it.
 * The parent's clip (box and mask) limits both composites; clips pushed
 * inside the group end with it.
 *
 * The Gaussian is exact, not a box approximation: each content pixel is a
 * unit square of constant alpha, so the weight of a pixel at distance d
 * (whole pixels, after the integer part of the offset) is the integral of
 * the Gaussian over that square, Phi((d + 0.5 - f) / sigma) -
 * Phi((d - 0.5 - f) / sigma), f the fractional part of the offset. The
 * kernel is cut at ceil(3 sigma) + 1 pixels and renormalised (the cut drops
 * under 0.3% of the weight), and applied separably in floats.
 *
 * Wider than SW_BLUR_MAX_TAPS pixels a side (sigma above about 15.7), the
 * kernel groups `step` neighbouring pixels to a tap, each weighing an equal
 * share of the group's integral, exactly as the gles backend's blur pass
 * does: at most 2 SW_BLUR_MAX_TAPS + 1 taps, each the sum of a box of step
 * pixels (a running sum), so a pixel costs about 97 multiply-adds and a
 * box step a pass instead of 6 sigma + 3 (sigma 100: 6 times fewer, sigma
 * 1024: 60).
 */
#include "software_private.h"
#include "software_sprite.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Blurs wider than this are drawn with this sigma: the reach, and so the
   work and the group's margin, stay bounded. */
#define SW_MAX_SIGMA 1024.0
/* Columns of the vertical blur pass at a time (see draw_shadow). */
#define SW_BLUR_STRIP 64
/* Group content is kept at most this far beyond the output's edges (for
   the shadow it casts onto the output): a group's target is then at most
   the output grown by this on every side, whatever its rect, shadow
   offsets and nesting. Without it, content far off the output under a
   large offset, or groups nested in groups with wide shadows (each
   growing its parent's box by its reach), asked for targets of up to
   65536 pixels a side (17 GB; a random call sequence found it). 1024
   keeps every shadow of sigma up to 341 without offset whole; the gles
   backend keeps 256 (docs/gles.md). SW_GROUP_MARGIN, 1024, is in
   software_private.h: polygons are cut to the same space (sw_space_box). */
/* Offsets beyond this put the shadow off any output; clamped so that box
   arithmetic stays in int32. */
#define SW_MAX_OFFSET (4.0 * SW_MAX_SIZE)

static bool has_shadow(const lk_dl_op *op)
{
    return sw_to_byte(op->shadow_color.a) > 0 && isfinite(op->shadow_offset_x) &&
           isfinite(op->shadow_offset_y) && !isnan(op->shadow_sigma);
}

static double shadow_sigma(const lk_dl_op *op)
{
    double s = op->shadow_sigma;
    return s > 0.0 ? (s < SW_MAX_SIGMA ? s : SW_MAX_SIGMA) : 0.0;
}

/* Taps a side beyond which pixels are grouped (gles_private.h's LKGL_MAX_TAPS). */
#define SW_BLUR_MAX_TAPS 48

/* The kernel's shape along one direction: taps k = -count..count, tap k
   the pixels at distances k step - half .. k step - half + step - 1 (one
   pixel a tap, step 1, up to SW_BLUR_MAX_TAPS a side). Whole groups
   within the cut, ceil(3 sigma) + 1 pixels either way: no pixel is read
   from farther than that, which the core's damage (3 sigma + 2) and the
   group's margin count on. */
typedef struct sw_kernel_shape {
    int32_t count, step, half;
} sw_kernel_shape;

static sw_kernel_shape kernel_shape(double sigma)
{
    sw_kernel_shape k = { 0, 1, 0 };
    if (sigma < 1e-3) return k;
    int32_t cut = (int32_t)ceil(3.0 * sigma) + 1;
    k.step = (cut + SW_BLUR_MAX_TAPS - 1) / SW_BLUR_MAX_TAPS;
    k.half = k.step / 2;
    k.count = (cut - k.half) / k.step;
    return k;
}

/* How far the kernel reaches, in whole pixels: ceil(3 sigma) + 1 with one
   pixel a tap, up to a group's width less when grouped. */
static int32_t kernel_reach(double sigma)
{
    sw_kernel_shape k = kernel_shape(sigma);
    return k.count * k.step + k.half;
}

/* The offset split into a whole part and a fraction in [-0.5, 0.5). */
static int32_t split_offset(double offset, double *fraction)
{
    if (offset > SW_MAX_OFFSET) offset = SW_MAX_OFFSET;
    if (offset < -SW_MAX_OFFSET) offset = -SW_MAX_OFFSET;
    double whole = floor(offset + 0.5);
    *fraction = offset - whole;
    return (int32_t)whole;
}

static sw_box grow(sw_box b, int32_t by)
{
    sw_box r = { b.x0 - by, b.y0 - by, b.x1 + by, b.y1 + by };
    return r;
}

static sw_box shift(sw_box b, int32_t dx, int32_t dy)
{
    sw_box r = { b.x0 + dx, b.y0 + dy, b.x1 + dx, b.y1 + dy };
    return r;
}

static sw_box bounding(sw_box a, sw_box b)
{
    if (sw_box_empty(a)) return b;
    if (sw_box_empty(b)) return a;
    sw_box r = { a.x0 < b.x0 ? a.x0 : b.x0, a.y0 < b.y0 ? a.y0 : b.y0,
                 a.x1 > b.x1 ? a.x1 : b.x1, a.y1 > b.y1 ? a.y1 : b.y1 };
    return r;
}

/* The group's rect rounded out to whole pixels, or an empty box when it is
   not finite. Clamped first so the conversion to int32 is defined. */
static sw_box rect_box(lk_dl_rect r)
{
    sw_box empty = { 0, 0, 0, 0 };
    double x0 = r.x, y0 = r.y, x1 = r.x + r.width, y1 = r.y + r.height;
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) return empty;
    const double limit = 1 << 28;
    double lx = fmax(fmin(fmin(x0, x1), limit), -limit), hx = fmax(fmin(fmax(x0, x1), limit), -limit);
    double ly = fmax(fmin(fmin(y0, y1), limit), -limit), hy = fmax(fmin(fmax(y0, y1), limit), -limit);
    sw_box b = { (int32_t)floor(lx), (int32_t)floor(ly), (int32_t)ceil(hx), (int32_t)ceil(hy) };
    return b;
}

static bool push_clip_level(lk_backend_instance *inst, sw_box box)
{
    if (inst->clip_count == inst->clip_capacity) {
        size_t capacity = inst->clip_capacity * 2;
        sw_clip *clips = realloc(inst->clips, capacity * sizeof *clips);
        if (!clips) return false;
        inst->clips = clips;
        inst->clip_capacity = capacity;
    }
    sw_clip *c = &inst->clips[inst->clip_count++];
    memset(c, 0, sizeof *c);
    c->box = box;
    return true;
}

static void pop_clips_to(lk_backend_instance *inst, size_t level)
{
    while (inst->clip_count > level) {
        sw_clip *c = &inst->clips[--inst->clip_count];
        if (c->owns_mask) pixman_image_unref(c->mask);
    }
}

static pixman_image_t *new_target(sw_box box)
{
    /* pixman allocates zeroed (transparent) storage when given no bits. */
    return pixman_image_create_bits(PIXMAN_a8r8g8b8, box.x1 - box.x0, box.y1 - box.y0, NULL, 0);
}

bool sw_group_push(lk_backend_instance *inst, const lk_dl_op *op)
{
    if (inst->group_count == inst->group_capacity) {
        size_t capacity = inst->group_capacity ? inst->group_capacity * 2 : 8;
        sw_group *groups = realloc(inst->groups, capacity * sizeof *groups);
        if (!groups) return false;
        inst->groups = groups;
        inst->group_capacity = capacity;
    }
    const sw_clip *parent = &inst->clips[inst->clip_count - 1];
    sw_box need = { 0, 0, 0, 0 };
    if (!(op->flags & LK_DL_FLAG_SHADOW_ONLY)) need = parent->box;
    if (has_shadow(op) && !sw_box_empty(parent->box)) {
        double fx, fy;
        int32_t ox = split_offset(op->shadow_offset_x, &fx), oy = split_offset(op->shadow_offset_y, &fy);
        need = bounding(need, grow(shift(parent->box, -ox, -oy), kernel_reach(shadow_sigma(op))));
    }
    sw_box space = sw_space_box(inst);
    sw_box box = sw_box_intersect(sw_box_intersect(rect_box(op->rect), need), space);

    sw_group *g = &inst->groups[inst->group_count];
    memset(g, 0, sizeof *g);
    g->op = *op;
    g->box = box;
    g->drawing_mask = (op->flags & LK_DL_FLAG_GROUP_MASK) != 0;
    g->clip_base = inst->clip_count;
    g->parent_target = inst->target;
    g->parent_x = inst->target_x;
    g->parent_y = inst->target_y;
    if (sw_box_empty(box)) {
        /* Nothing of it can show: its ops draw nothing (empty clip). */
        g->box.x1 = g->box.x0;
        g->box.y1 = g->box.y0;
    } else if (!(g->target = new_target(box))) {
        return false;
    }
    if (!push_clip_level(inst, g->box)) {
        if (g->target) pixman_image_unref(g->target);
        return false;
    }
    inst->group_count++;
    if (g->target) {
        inst->target = g->target;
        inst->target_x = box.x0;
        inst->target_y = box.y0;
    }
    return true;
}

bool sw_group_content(lk_backend_instance *inst)
{
    sw_group *g = &inst->groups[inst->group_count - 1];
    /* validate() guarantees a masked group with no clips left open. */
    g->drawing_mask = false;
    if (!g->target) return true;
    g->mask_target = g->target;
    if (!(g->target = new_target(g->box))) return false;
    inst->target = g->target;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Shadow                                                                    */

/* Standard normal cumulative distribution. */
static double phi(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* kernel[0 .. 2 count] for taps -count .. count, normalised, per pixel of
   a tap (the group's share divided by step). With step 1 each float is
   the one the ungrouped kernel has always had. */
static void make_kernel(float *kernel, sw_kernel_shape k, double sigma, double fraction)
{
    if (k.count == 0) {
        kernel[0] = 1.0f;
        return;
    }
    double sum = 0.0;
    for (int32_t t = -k.count; t <= k.count; t++) {
        double first = (double)t * k.step - k.half;   /* the tap's first pixel */
        double w = phi((first + k.step - 0.5 - fraction) / sigma) - phi((first - 0.5 - fraction) / sigma);
        kernel[t + k.count] = (float)w;
        sum += w;
    }
    for (int32_t i = 0; i <= 2 * k.count; i++)
        kernel[i] = k.step == 1 ? (float)(kernel[i] / sum) : (float)(kernel[i] / sum / k.step);
}

/* a / b rounded down (b > 0). */
static int32_t floor_div(int32_t a, int32_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* box[i] = the sum of in[i .. i + step - 1], for i in [0, n - step]: a
   running sum in double (exact for the content's whole alphas, and far
   below a float's resolution for the first pass's sums). */
static void box_sums(float *box, const float *in, int32_t n, int32_t step)
{
    double sum = 0.0;
    for (int32_t i = 0; i < step - 1 && i < n; i++) sum += in[i];
    for (int32_t i = 0; i + step <= n; i++) {
        sum += in[i + step - 1];
        float first = in[i];
        box[i] = (float)sum;
        sum -= first;
    }
}

static float *blur_buffer(lk_backend_instance *inst, size_t floats)
{
    if (floats > inst->blur_capacity) {
        free(inst->blur);
        inst->blur = malloc(floats * sizeof *inst->blur);
        inst->blur_capacity = inst->blur ? floats : 0;
    }
    return inst->blur;
}

/* Draws the shadow of content (a8r8g8b8 over g->box) under clip. */
static bool draw_shadow(lk_backend_instance *inst, const sw_group *g, pixman_image_t *content,
                        const sw_clip *clip)
{
    const lk_dl_op *op = &g->op;
    double sigma = shadow_sigma(op), fx, fy;
    int32_t ox = split_offset(op->shadow_offset_x, &fx), oy = split_offset(op->shadow_offset_y, &fy);
    sw_kernel_shape k = kernel_shape(sigma);
    int32_t reach = kernel_reach(sigma), step = k.step;
    sw_box b = g->box;
    sw_box out = sw_box_intersect(grow(shift(b, ox, oy), reach), clip->box);
    if (sw_box_empty(out)) return true;

    int32_t w = b.x1 - b.x0, h = b.y1 - b.y0;
    int32_t ow = out.x1 - out.x0, oh = out.y1 - out.y0;
    int32_t taps = 2 * k.count + 1;
    size_t padded = (size_t)w + 4 * (size_t)reach;
    /* grouped: a row's box sums, and a strip's box sums down its columns */
    size_t boxes = step > 1 ? padded + ((size_t)h + (size_t)step - 1) * SW_BLUR_STRIP : 0;
    size_t floats = 2 * (size_t)taps + padded + (size_t)h * (size_t)ow + (size_t)ow + boxes;
    float *buffer = blur_buffer(inst, floats);
    if (!buffer) return false;
    float *kx = buffer, *ky = kx + taps, *row = ky + taps, *rows = row + padded;
    float *acc = rows + (size_t)h * (size_t)ow;
    float *row_boxes = step > 1 ? acc + ow : row, *strip_boxes = row_boxes + padded;
    make_kernel(kx, k, sigma, fx);
    make_kernel(ky, k, sigma, fy);
    void (*weighted_rows)(float *restrict, const float *restrict, ptrdiff_t, const float *restrict, int32_t,
                          int32_t) = sw_blur_weighted_rows;
    void (*to_bytes)(uint8_t *restrict, const float *restrict, int32_t) = sw_blur_to_bytes;
#if SW_FILL_HAS_AVX2
    if (sw_avx2_builds(inst)) {
        weighted_rows = sw_blur_weighted_rows_avx2;
        to_bytes = sw_blur_to_bytes_avx2;
    }
#endif

    /* Horizontal: content row v, output column X reads content columns
       X - ox - b.x0 - d. The row is padded with 2 reach zeros each side. */
    const uint8_t *pixels = (const uint8_t *)pixman_image_get_data(content);
    size_t stride = (size_t)pixman_image_get_stride(content);
    memset(row, 0, padded * sizeof *row);
    int32_t first = out.x0 - ox - b.x0;   /* content column of output column out.x0 */
    for (int32_t v = 0; v < h; v++) {
        const uint32_t *src = (const uint32_t *)(pixels + (size_t)v * stride);
        uint32_t any = 0;
        for (int32_t u = 0; u < w; u++) {
            row[2 * reach + u] = (float)(src[u] >> 24);
            any |= src[u];
        }
        float *dst = rows + (size_t)v * (size_t)ow;
        if (!any) {
            memset(dst, 0, (size_t)ow * sizeof *dst);
            continue;
        }
        /* Tap t of output column x sums content columns first + x - d
           for the step distances d of its group, from (t - count) step -
           half: the box starting at padded index 2 reach + first + x +
           count step + half - step + 1 - t step (one pixel a tap: 3 reach
           + first + x - t, the tap's one pixel). */
        if (step > 1) box_sums(row_boxes, row, (int32_t)padded, step);
        weighted_rows(dst, row_boxes + 2 * reach + first + k.count * step + k.half - step + 1, -step, kx, taps,
                      ow);
    }

    pixman_image_t *alpha = pixman_image_create_bits(PIXMAN_a8, ow, oh, NULL, 0);
    if (!alpha) return false;
    uint8_t *abits = (uint8_t *)pixman_image_get_data(alpha);
    size_t astride = (size_t)pixman_image_get_stride(alpha);
    /* Vertical: output row Y reads content rows Y - oy - b.y0 - d. In
       strips of SW_BLUR_STRIP columns, so that the rows an output row
       reads, most of which the next one reads again, stay in the L1 cache.
       Grouped, the strip's rows are first summed in boxes of step rows:
       box j (j from 1 - step to h - 1, rows outside the content 0) at
       strip_boxes[(j + step - 1) n]. */
    for (int32_t x0 = 0; x0 < ow; x0 += SW_BLUR_STRIP) {
        int32_t n = ow - x0 < SW_BLUR_STRIP ? ow - x0 : SW_BLUR_STRIP;
        const float *source = rows + x0;
        ptrdiff_t pitch = ow;
        if (step > 1) {
            double sums[SW_BLUR_STRIP];
            for (int32_t c = 0; c < n; c++) sums[c] = 0.0;
            for (int32_t j = 1 - step; j < h; j++) {
                float *box = strip_boxes + (size_t)(j + step - 1) * (size_t)n;
                if (j + step - 1 < h) {
                    const float *in = rows + (size_t)(j + step - 1) * (size_t)ow + x0;
                    for (int32_t c = 0; c < n; c++) sums[c] += in[c];
                }
                for (int32_t c = 0; c < n; c++) box[c] = (float)sums[c];
                if (j >= 0) {
                    const float *out_row = rows + (size_t)j * (size_t)ow + x0;
                    for (int32_t c = 0; c < n; c++) sums[c] -= out_row[c];
                }
            }
            source = strip_boxes + (size_t)(step - 1) * (size_t)n;   /* box 0 */
            pitch = n;
        }
        for (int32_t y = 0; y < oh; y++) {
            /* Tap t reads box j = j0 - t step (content row centre - d for
               one pixel a tap); the taps whose boxes meet the content,
               j in [1 - step, h - 1]. */
            int32_t centre = out.y0 + y - oy - b.y0;
            int32_t j0 = centre + k.count * step + k.half - step + 1;
            int32_t t0 = floor_div(j0 - (h - 1) + step - 1, step), t1 = floor_div(j0 + step - 1, step);
            if (t0 < 0) t0 = 0;
            if (t1 > 2 * k.count) t1 = 2 * k.count;
            if (t0 <= t1)
                weighted_rows(acc, source + (ptrdiff_t)(j0 - t0 * step) * pitch, -(ptrdiff_t)step * pitch, ky + t0,
                              t1 - t0 + 1, n);
            else
                memset(acc, 0, (size_t)n * sizeof *acc);
            to_bytes(abits + (size_t)y * astride + x0, acc, n);
        }
    }

    bool ok = true;
    if (clip->mask)
        pixman_image_composite32(PIXMAN_OP_IN, clip->mask, NULL, alpha, out.x0 - clip->mask_x,
                                 out.y0 - clip->mask_y, 0, 0, 0, 0, ow, oh);
    pixman_image_t *color = sw_solid(inst, op->shadow_color);
    if (color)
        pixman_image_composite32(PIXMAN_OP_OVER, color, alpha, inst->target, 0, 0, 0, 0,
                                 out.x0 - inst->target_x, out.y0 - inst->target_y, ow, oh);
    else
        ok = false;
    pixman_image_unref(alpha);
    inst->stats.shadows++;
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Compositing the group                                                     */

static void release(sw_group *g)
{
    if (g->target) pixman_image_unref(g->target);
    if (g->mask_target) pixman_image_unref(g->mask_target);
    g->target = g->mask_target = NULL;
}

bool sw_group_pop(lk_backend_instance *inst)
{
    sw_group *g = &inst->groups[--inst->group_count];
    pop_clips_to(inst, g->clip_base);
    inst->target = g->parent_target;
    inst->target_x = g->parent_x;
    inst->target_y = g->parent_y;
    if (!g->target) return true;
    if (g->op.flags & LK_DL_FLAG_GROUP_MASK) {
        if (g->drawing_mask || !g->mask_target) {
            /* No GROUP_CONTENT came: there is no content to show. */
            release(g);
            return true;
        }
        pixman_image_composite32(PIXMAN_OP_IN_REVERSE, g->mask_target, NULL, g->target, 0, 0, 0, 0,
                                 0, 0, g->box.x1 - g->box.x0, g->box.y1 - g->box.y0);
    }

    const sw_clip *clip = &inst->clips[inst->clip_count - 1];
    bool ok = true;
    if (has_shadow(&g->op)) ok = draw_shadow(inst, g, g->target, clip);

    sw_box area = sw_box_intersect(g->box, clip->box);
    uint32_t opacity = sw_to_byte(g->op.opacity);
    if (ok && !(g->op.flags & LK_DL_FLAG_SHADOW_ONLY) && opacity > 0 && !sw_box_empty(area)) {
        pixman_op_t pop = (g->op.flags & LK_DL_FLAG_BLEND_ADD) ? PIXMAN_OP_ADD : PIXMAN_OP_OVER;
        int32_t w = area.x1 - area.x0, h = area.y1 - area.y0;
        int32_t sx = area.x0 - g->box.x0, sy = area.y0 - g->box.y0;
        pixman_image_t *mask = NULL;
        int32_t mx = 0, my = 0;
        lk_dl_color alpha = { 0.0f, 0.0f, 0.0f, sw_unit(g->op.opacity) };
        if (clip->mask) {
            /* pixman takes one mask per call: fold the opacity into the content. */
            if (opacity < 255) {
                pixman_image_t *solid = sw_solid(inst, alpha);
                if (!solid) ok = false;
                else
                    pixman_image_composite32(PIXMAN_OP_IN_REVERSE, solid, NULL, g->target, 0, 0, 0, 0,
                                             sx, sy, w, h);
            }
            mask = clip->mask;
            mx = area.x0 - clip->mask_x;
            my = area.y0 - clip->mask_y;
        } else if (opacity < 255 && !(mask = sw_solid(inst, alpha))) {
            ok = false;
        }
        if (ok)
            pixman_image_composite32(pop, g->target, mask, inst->target, sx, sy, mx, my,
                                     area.x0 - inst->target_x, area.y0 - inst->target_y, w, h);
    }
    release(g);
    inst->stats.groups++;
    return ok;
}

void sw_group_stack_free(lk_backend_instance *inst)
{
    while (inst->group_count > 0) release(&inst->groups[--inst->group_count]);
    inst->target = inst->framebuffer;
    inst->target_x = inst->target_y = 0;
}
