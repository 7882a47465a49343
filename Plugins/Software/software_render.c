/*
 * One frame: check the display list, clear the damaged part of the
 * framebuffer, walk the ops in order under the clip stack (groups draw into
 * offscreen targets, software_group.c), report the frame.
 *
 * The whole list is validated before the first pixel changes, so a rejected
 * list leaves the last presented frame intact for read_pixels.
 */
#include "software_private.h"
#include "../display_list_ops.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Op index's kind alone (a sprite run's look ahead). */
static uint32_t load_kind(const lk_display_list *list, uint32_t index)
{
    uint32_t kind;
    memcpy(&kind, (const char *)list->ops + (size_t)index * list->op_size + offsetof(lk_dl_op, kind), sizeof kind);
    return kind;
}

static bool validate_image(const lk_dl_op *op, uint32_t index, char *error, size_t error_size)
{
    const lk_dl_image *img = op->image;
    if (!img) {
        sw_set_error(error, error_size, "software backend: op %u: IMAGE without an image", index);
        return false;
    }
    unsigned long long id = (unsigned long long)img->id;
    if (img->id == 0) {
        sw_set_error(error, error_size, "software backend: op %u: image id is 0", index);
        return false;
    }
    if (img->format != LK_DL_FORMAT_ARGB32_PREMULTIPLIED) {
        sw_set_error(error, error_size,
                     "software backend: op %u: image %llu has unsupported pixel format %u "
                     "(expected %u, ARGB32 premultiplied)",
                     index, id, img->format, (unsigned)LK_DL_FORMAT_ARGB32_PREMULTIPLIED);
        return false;
    }
    if (img->width == 0 || img->height == 0) return true;   /* draws nothing */
    if (!img->pixels) {
        sw_set_error(error, error_size, "software backend: op %u: image %llu has no pixels", index, id);
        return false;
    }
    /* pixman addresses images with int strides and sizes. */
    uint64_t row = (uint64_t)img->width * 4;
    if (img->stride % 4 != 0 || img->stride < row) {
        sw_set_error(error, error_size,
                     "software backend: op %u: image %llu stride %u is invalid for width %u "
                     "(a multiple of 4, at least %llu)",
                     index, id, img->stride, img->width, (unsigned long long)row);
        return false;
    }
    if ((uint64_t)img->stride * img->height > INT32_MAX) {
        sw_set_error(error, error_size, "software backend: op %u: image %llu (%ux%u) is too large",
                     index, id, img->width, img->height);
        return false;
    }
    if ((uintptr_t)img->pixels % 4 != 0) {
        sw_set_error(error, error_size,
                     "software backend: op %u: image %llu pixels are not 4-byte aligned", index, id);
        return false;
    }
    return true;
}

/* What validate() keeps on its nesting stack. */
enum { NEST_CLIP = 1, NEST_GROUP = 2, NEST_MASK_GROUP = 3 /* before its GROUP_CONTENT */ };

static bool validate(lk_backend_instance *inst, const lk_display_list *list, char *error,
                     size_t error_size)
{
    if (!list) {
        sw_set_error(error, error_size, "software backend: render called without a display list");
        return false;
    }
    if (list->abi_version != LK_BACKEND_ABI_VERSION) {
        sw_set_error(error, error_size,
                     "software backend: display list abi_version %u is not supported (expected %u)",
                     list->abi_version, LK_BACKEND_ABI_VERSION);
        return false;
    }
    if (list->struct_size < sizeof(lk_display_list)) {
        sw_set_error(error, error_size,
                     "software backend: display list struct_size %u is smaller than "
                     "lk_display_list (%zu bytes)",
                     list->struct_size, sizeof(lk_display_list));
        return false;
    }
    if (list->op_count > 0 && list->op_size < sizeof(lk_dl_op)) {
        sw_set_error(error, error_size,
                     "software backend: display list op_size %u is smaller than lk_dl_op (%zu bytes)",
                     list->op_size, sizeof(lk_dl_op));
        return false;
    }
    if (list->op_count > 0 && !list->ops) {
        sw_set_error(error, error_size, "software backend: display list has %u ops but ops is NULL",
                     list->op_count);
        return false;
    }
    /* Clips and groups nest: a group's ops may push and pop clips of their
       own, but a clip pushed outside a group cannot end inside it. */
    size_t depth = 0;
    for (uint32_t i = 0; i < list->op_count; i++) {
        lk_dl_op scratch;
        const lk_dl_op *op = dl_op_at(list, i, &scratch);
        uint8_t top = depth ? inst->nesting[depth - 1] : 0;
        switch (op->kind) {
        case LK_DL_OP_FILL:
        case LK_DL_OP_BORDER:
            break;
        case LK_DL_OP_IMAGE:
            if (!validate_image(op, i, error, error_size)) return false;
            break;
        case LK_DL_OP_GRADIENT:
            if (!sw_gradient_validate(op, i, error, error_size)) return false;
            break;
        case LK_DL_OP_PUSH_CLIP:
        case LK_DL_OP_PUSH_GROUP:
            if (depth == inst->nesting_capacity) {
                size_t capacity = inst->nesting_capacity ? inst->nesting_capacity * 2 : 64;
                uint8_t *nesting = realloc(inst->nesting, capacity);
                if (!nesting) {
                    sw_set_error(error, error_size, "software backend: out of memory checking op %u", i);
                    return false;
                }
                inst->nesting = nesting;
                inst->nesting_capacity = capacity;
            }
            inst->nesting[depth++] = op->kind == LK_DL_OP_PUSH_CLIP ? NEST_CLIP
                                   : (op->flags & LK_DL_FLAG_GROUP_MASK) ? NEST_MASK_GROUP : NEST_GROUP;
            break;
        case LK_DL_OP_POP_CLIP:
            if (top != NEST_CLIP) {
                sw_set_error(error, error_size,
                             "software backend: op %u: POP_CLIP without a matching PUSH_CLIP%s", i,
                             top ? " in the same group" : "");
                return false;
            }
            depth--;
            break;
        case LK_DL_OP_GROUP_CONTENT:
            if (top != NEST_MASK_GROUP) {
                sw_set_error(error, error_size,
                             "software backend: op %u: GROUP_CONTENT outside a PUSH_GROUP flagged "
                             "GROUP_MASK (or a second one, or with a clip still open)", i);
                return false;
            }
            inst->nesting[depth - 1] = NEST_GROUP;
            break;
        case LK_DL_OP_POP_GROUP:
            if (top != NEST_GROUP && top != NEST_MASK_GROUP) {
                sw_set_error(error, error_size,
                             "software backend: op %u: POP_GROUP without a matching PUSH_GROUP%s", i,
                             top == NEST_CLIP ? " (a clip pushed inside the group is still open)" : "");
                return false;
            }
            depth--;
            break;
        default:
            sw_set_error(error, error_size, "software backend: op %u: unknown op kind %u", i, op->kind);
            return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Clip stack                                                                */

static bool push_clip(lk_backend_instance *inst, const lk_dl_op *op)
{
    if (inst->clip_count == inst->clip_capacity) {
        size_t capacity = inst->clip_capacity * 2;
        sw_clip *clips = realloc(inst->clips, capacity * sizeof *clips);
        if (!clips) return false;
        inst->clips = clips;
        inst->clip_capacity = capacity;
    }
    sw_clip next;
    if (!sw_paint_clip(inst, op, &inst->clips[inst->clip_count - 1], &next)) return false;
    inst->clips[inst->clip_count++] = next;
    return true;
}

static void pop_clip(lk_backend_instance *inst)
{
    sw_clip *c = &inst->clips[--inst->clip_count];
    if (c->owns_mask) pixman_image_unref(c->mask);
}

void sw_clip_stack_free(lk_backend_instance *inst)
{
    while (inst->clip_count > 0) pop_clip(inst);
}

/* ------------------------------------------------------------------------ */
/* The frame                                                                 */

/* The damage box within the output; everything drawn this frame stays in it. */
static sw_box damage_box(const lk_backend_instance *inst, lk_dl_box d)
{
    int64_t x1 = (int64_t)d.x + d.width, y1 = (int64_t)d.y + d.height;
    sw_box b;
    b.x0 = d.x < 0 ? 0 : d.x;
    b.y0 = d.y < 0 ? 0 : d.y;
    b.x1 = (int32_t)(x1 > (int64_t)inst->width ? (int64_t)inst->width : x1);
    b.y1 = (int32_t)(y1 > (int64_t)inst->height ? (int64_t)inst->height : y1);
    sw_box output = { 0, 0, (int32_t)inst->width, (int32_t)inst->height };
    return sw_box_intersect(b, output);
}

/* ------------------------------------------------------------------------ */
/* The pending fill                                                          */

void sw_pending_fill(lk_backend_instance *inst, sw_box area)
{
    if (!inst->pending.active) return;
    area = sw_box_intersect(area, inst->pending.box);
    if (sw_box_empty(area)) return;
    /* pixman's fill: SIMD stores (a plain loop here was 4 instructions a pixel) */
    pixman_fill(pixman_image_get_data(inst->framebuffer), pixman_image_get_stride(inst->framebuffer) / 4, 32,
                area.x0, area.y0, area.x1 - area.x0, area.y1 - area.y0, inst->pending.argb);
}

void sw_pending_flush(lk_backend_instance *inst)
{
    if (!inst->pending.active) return;
    sw_box b = inst->pending.box;
    uint32_t argb = inst->pending.argb;
    pixman_color_t c = { (uint16_t)(((argb >> 16) & 255) * 257), (uint16_t)(((argb >> 8) & 255) * 257),
                         (uint16_t)((argb & 255) * 257), (uint16_t)((argb >> 24) * 257) };
    pixman_box32_t box = { b.x0, b.y0, b.x1, b.y1 };
    pixman_image_fill_boxes(PIXMAN_OP_SRC, inst->framebuffer, &c, 1, &box);
    inst->pending.active = false;
}

/* An opaque FILL over all of the pending fill's box, drawn on the
   framebuffer with no clip but the damage: OVER an opaque colour is that
   colour, so it only changes the pending fill's colour. */
static bool replaces_pending(const lk_backend_instance *inst, const lk_dl_op *op, uint32_t *argb)
{
    if (!inst->pending.active || op->kind != LK_DL_OP_FILL || (op->flags & LK_DL_FLAG_BLEND_ADD) ||
        inst->clip_count != 1 || inst->group_count != 0 || inst->target != inst->framebuffer ||
        op->corner_radius > 0.0)
        return false;
    sw_homography h;
    double sx, sy, tx, ty;
    if (!sw_homography_from_transform(op->transform, &h) || !sw_homography_axis_aligned(&h, &sx, &sy, &tx, &ty))
        return false;
    double ax = sx * op->rect.x + tx, bx = sx * (op->rect.x + op->rect.width) + tx;
    double ay = sy * op->rect.y + ty, by = sy * (op->rect.y + op->rect.height) + ty;
    sw_box b = inst->pending.box;
    if (!(fmin(ax, bx) <= b.x0 && fmax(ax, bx) >= b.x1 && fmin(ay, by) <= b.y0 && fmax(ay, by) >= b.y1))
        return false;
    float opacity = sw_unit(op->opacity);
    lk_dl_color c = { op->color.r * opacity, op->color.g * opacity, op->color.b * opacity, op->color.a * opacity };
    pixman_color_t quantised = sw_pixman_color(c);
    if (quantised.alpha != 0xffff) return false;
    *argb = sw_argb(quantised);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Sprite runs                                                               */

/* Op i of a sprite run prepared into *s with thread's cache of image cuts:
   what sw_fill_prepare or sw_sprite_prepare says; SKIP for an image that
   shows nothing. Reads the instance and the list, writes *s and *lines
   (and the thread's cache of image cuts). */
static sw_sprite_result prepare_op(const lk_backend_instance *inst, const lk_display_list *list, uint32_t i,
                                   const sw_clip *clip, sw_image_cuts *cuts, sw_sprite *s,
                                   sw_sprite_cut_lines *lines)
{
    lk_dl_op scratch;
    const lk_dl_op *op = dl_op_at(list, i, &scratch);
    if (op->kind == LK_DL_OP_FILL) return sw_fill_prepare(inst, op, clip, s);
    sw_shape shape;
    sw_box texels;
    sw_homography image_to_output;
    if (sw_box_empty(clip->box) || !sw_image_geometry(op, &shape, &texels, &image_to_output))
        return SW_SPRITE_SKIP;
    return sw_sprite_prepare(inst, op, clip, &shape, &image_to_output, texels, cuts, s, lines);
}

/* Thread k's part of a prepare job (sw_prepare_job): blocks of
   SW_PREPARE_BLOCK ops, taken as sw_task_take deals them. */
static void prepare_blocks(sw_task *task, size_t k)
{
    sw_prepare_job *job = (sw_prepare_job *)task;
    sw_image_cuts *cuts = sw_thread_cuts(job->inst, k);
    uint32_t n = job->end - job->first;
    size_t blocks = ((size_t)n + SW_PREPARE_BLOCK - 1) / SW_PREPARE_BLOCK, turn = 0;
    for (size_t block; (block = sw_task_take(task, k, &turn)) < blocks;) {
        uint32_t from = (uint32_t)block * SW_PREPARE_BLOCK;
        uint32_t to = n - from < SW_PREPARE_BLOCK ? n : from + SW_PREPARE_BLOCK;
        for (uint32_t i = from; i < to; i++) {
            sw_sprite_result r = prepare_op(job->inst, job->list, job->first + i, job->clip, cuts,
                                            &job->sprites[i], &job->cut_lines[i]);
            job->results[i] = (uint8_t)r;
            /* (while the sprite is in this thread's cache) */
            if (r == SW_SPRITE_READY)
                job->boxes[i] = (sw_sprite_box){ job->sprites[i].box, (job->sprites[i].flags & SW_SPRITE_SOLID) != 0 };
            else
                job->boxes[i] = (sw_sprite_box){ { 0, 0, 0, 0 }, 0 };
        }
        if (k > 0) atomic_fetch_add_explicit(&job->worker_ops, to - from, memory_order_relaxed);
    }
}

/* Ops [first, end) prepared into sprites[0..) and results[0..), on the band
   workers too when there are enough of them to pay for the wake-up (with
   LAYERKIT_SOFTWARE_THREADS, two). */
static void prepare_ops(lk_backend_instance *inst, const lk_display_list *list, const sw_clip *clip,
                        uint32_t first, uint32_t end, sw_sprite *sprites, sw_sprite_cut_lines *cut_lines,
                        sw_sprite_box *boxes, uint8_t *results)
{
    sw_prepare_job job = { .inst = inst, .list = list, .clip = clip, .first = first, .end = end,
                           .sprites = sprites, .cut_lines = cut_lines, .boxes = boxes, .results = results };
    job.task.run = prepare_blocks;
    atomic_init(&job.worker_ops, 0);
    inst->stats.prepared += end - first;
    uint32_t worth = inst->threads_set ? 2 : SW_PREPARE_SHARED_MIN;
    if (sw_workers_share(inst, &job.task, inst->threads > 1 && end - first >= worth) == 1) return;
    inst->stats.shared_prepared += end - first;
    inst->stats.worker_prepared += atomic_load_explicit(&job.worker_ops, memory_order_relaxed);
}

static bool reserve_sprites(lk_backend_instance *inst, size_t count)
{
    if (count <= inst->sprites_capacity) return true;
    size_t capacity = inst->sprites_capacity ? inst->sprites_capacity : 256;
    while (capacity < count) capacity *= 2;
    sw_sprite *grown = realloc(inst->sprites_run, capacity * sizeof *grown);
    if (!grown) return false;
    inst->sprites_run = grown;
    sw_sprite_cut_lines *lines = realloc(inst->cut_lines_run, capacity * sizeof *lines);
    if (!lines) return false;
    inst->cut_lines_run = lines;
    sw_sprite_box *boxes = realloc(inst->boxes_run, capacity * sizeof *boxes);
    if (!boxes) return false;
    inst->boxes_run = boxes;
    uint8_t *results = realloc(inst->prepare_results, capacity);
    if (!results) return false;
    inst->prepare_results = results;
    inst->sprites_capacity = capacity;
    return true;
}

/* From op first on, the IMAGE and FILL ops the sprite path takes (and
   those that show nothing), drawn as one run in list order; returns how
   many ops it consumed (0: op first is not for the sprite path). ok false
   when memory runs out.
   The ops are prepared in chunks, the first op alone, then each chunk up
   to SW_PREPARE_GROWTH times the ops the run has so far: a long run's
   chunks are prepared on the band workers too, and an op the sprite path
   declines, which ends the run, leaves fewer than that many prepared for
   nothing (the ops after it are prepared again by the runs that follow).
   (A first chunk of 256 prepared 256 ops for each op of a list that
   declines them all: test_emitter_layer, whose frames hold 400,000
   particles neither turned nor tinted, which pixman draws, took 6 minutes
   under valgrind instead of 19 s.)
   When it returns 0 having found only ops that show nothing,
   *no_run_until is where they end: a run looked for from any of them
   would find the same nothing, so the caller does not look again (it did:
   a list of 200,000 ops clipped out went over the rest of the list from
   each one, minutes for a frame). */
static uint32_t sprite_run(lk_backend_instance *inst, const lk_display_list *list, uint32_t first,
                           const sw_clip *clip, bool *ok, uint32_t *no_run_until)
{
    if (inst->sprites == SW_SPRITES_OFF) return 0;
    uint32_t next = first;   /* the first op not yet prepared */
    size_t count = 0, skipped = 0;
    uint32_t chunk = 1;
    bool more = true;
    while (more) {
        /* the chunk: ops [next, end) that may join the run */
        uint32_t end = next;
        while (end < list->op_count && end - next < chunk) {
            uint32_t kind = load_kind(list, end);
            if (kind != LK_DL_OP_IMAGE && kind != LK_DL_OP_FILL) { more = false; break; }
            /* An opaque fill of the whole damage box ends the run (drawn
               first, the run would leave it nothing to replace). */
            if (kind == LK_DL_OP_FILL && end > first) {
                lk_dl_op scratch;
                uint32_t unused;
                if (replaces_pending(inst, dl_op_at(list, end, &scratch), &unused)) { more = false; break; }
            }
            end++;
        }
        if (end == list->op_count) more = false;
        if (end == next) break;
        if (!reserve_sprites(inst, count + (end - next))) {
            *ok = false;
            return next > first ? next - first : 1;
        }
        /* prepared at count + i; an op that shows nothing keeps its place
           with an empty box, which the batch passes over (moving every
           later sprite down instead copied most of a frame's sprites, 576
           bytes each, when its first particles were off screen) */
        prepare_ops(inst, list, clip, next, end, &inst->sprites_run[count], &inst->cut_lines_run[count],
                    &inst->boxes_run[count], inst->prepare_results);
        for (uint32_t i = 0; i < end - next; i++) {
            sw_sprite_result r = (sw_sprite_result)inst->prepare_results[i];
            if (r == SW_SPRITE_DECLINE) {
                end = next + i;
                more = false;
                break;
            }
            if (r != SW_SPRITE_READY) {
                inst->sprites_run[count].box = (sw_box){ 0, 0, 0, 0 };
                skipped++;
            }
            count++;
        }
        next = end;
        uint64_t grown = (uint64_t)(next - first) * SW_PREPARE_GROWTH;
        chunk = grown > SW_PREPARE_CHUNK_MAX ? SW_PREPARE_CHUNK_MAX : (uint32_t)grown;
    }
    uint32_t consumed = next - first;
    /* Ops that show nothing, alone, go the usual way. */
    if (count == skipped) {
        *no_run_until = first + consumed;
        return 0;
    }
    inst->stats.skipped_ops += skipped;
    inst->stats.ops += consumed - 1;
    *ok = sw_sprite_draw_batch(inst, inst->sprites_run, inst->cut_lines_run, inst->boxes_run, count, clip);
    return consumed;
}

/* ------------------------------------------------------------------------ */
/* The frame                                                                 */

bool sw_render(lk_backend_instance *inst, const lk_display_list *list,
               char *error, size_t error_size)
{
    if (!validate(inst, list, error, error_size)) return false;

    /* The clear is written when something draws (see sw_pending). */
    sw_box damage = damage_box(inst, list->damage);
    inst->pending.active = !sw_box_empty(damage);
    inst->pending.box = damage;
    inst->pending.argb = sw_argb(sw_pixman_color(list->clear_color));

    sw_clip_stack_free(inst);
    sw_group_stack_free(inst);   /* also points the target at the framebuffer */
    memset(&inst->clips[0], 0, sizeof inst->clips[0]);
    inst->clips[0].box = damage;
    inst->clip_count = 1;

    uint32_t no_run_until = 0;
    for (uint32_t i = 0; i < list->op_count; i++) {
        lk_dl_op scratch;
        const lk_dl_op *op = dl_op_at(list, i, &scratch);
        const sw_clip *clip = &inst->clips[inst->clip_count - 1];
        bool ok = true;
        inst->stats.ops++;
        if (op->kind == LK_DL_OP_FILL && replaces_pending(inst, op, &inst->pending.argb)) continue;
        if ((op->kind == LK_DL_OP_IMAGE || op->kind == LK_DL_OP_FILL) && i >= no_run_until) {
            uint32_t run = sprite_run(inst, list, i, clip, &ok, &no_run_until);
            if (run > 0) {
                i += run - 1;
                if (ok) continue;
            }
        }
        if (ok && op->kind != LK_DL_OP_PUSH_CLIP && op->kind != LK_DL_OP_POP_CLIP) sw_pending_flush(inst);
        if (ok) switch (op->kind) {
        case LK_DL_OP_FILL: ok = sw_paint_fill(inst, op, clip); break;
        case LK_DL_OP_BORDER: ok = sw_paint_border(inst, op, clip); break;
        case LK_DL_OP_IMAGE: ok = sw_paint_image(inst, op, clip); break;
        case LK_DL_OP_GRADIENT: ok = sw_paint_gradient(inst, op, clip); break;
        case LK_DL_OP_PUSH_CLIP: ok = push_clip(inst, op); break;
        case LK_DL_OP_POP_CLIP: pop_clip(inst); break;
        case LK_DL_OP_PUSH_GROUP: ok = sw_group_push(inst, op); break;
        case LK_DL_OP_GROUP_CONTENT: ok = sw_group_content(inst); break;
        case LK_DL_OP_POP_GROUP: ok = sw_group_pop(inst); break;
        default: break;   /* rejected by validate() */
        }
        if (!ok) {
            sw_group_stack_free(inst);
            sw_clip_stack_free(inst);
            sw_set_error(error, error_size, "software backend: out of memory drawing op %u", i);
            return false;
        }
    }
    sw_pending_flush(inst);
    /* Groups left open at the end are composited as if closed there; clips
       left open simply end with the frame. */
    bool ok = true;
    while (ok && inst->group_count > 0) ok = sw_group_pop(inst);
    sw_group_stack_free(inst);
    sw_clip_stack_free(inst);
    if (!ok) {
        sw_set_error(error, error_size, "software backend: out of memory closing the open groups");
        return false;
    }

    inst->has_frame = true;
    inst->stats.frames++;
    if (inst->host.frame_done)
        inst->host.frame_done(inst->host.host_data, list->frame_number, list->target_time);
    return true;
}
