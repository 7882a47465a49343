/*
 * The gradient cache. pixman evaluates a gradient at every pixel it draws,
 * in floats: a full-screen axial gradient took about 10 ms a frame, a
 * radial one 20 and a conic one 46 (1920x1080). A gradient behind a
 * scene is the same frame after frame, so sw_paint_source evaluates a
 * GRADIENT op's source once over the op's box of the output into an
 * image of its own, keyed by what the source's pixels depend on (the
 * kind, the stops, the start and end points, the transform and the box),
 * and draws from that image by the same rect and mask paths as before:
 * a plain copy where the op covers whole pixels.
 *
 * The source is always evaluated over the whole box, whatever the clip
 * or the damage, so a pixel's value does not depend on the damage box
 * that redraws it (S6.4); the box is the op's device bounding box within
 * the output, and ops whose clip reaches beyond the output (content an
 * offscreen group keeps for its shadow) are drawn straight from the
 * gradient as before. A gradient that changes every frame is evaluated
 * over its whole box every frame, as a changing gradient's damage is.
 *
 * At most SW_GRADIENT_CACHE entries, SW_GRADIENT_CACHE_OUTPUTS times the
 * output's pixels in all; the least recently drawn go first.
 */
#include "software_private.h"

#include <stdlib.h>
#include <string.h>

static bool same_key(const sw_gradient_entry *e, const lk_dl_op *op, sw_box box)
{
    return e->image && e->kind == op->gradient_kind && e->stop_count == op->gradient_stop_count &&
           e->box.x0 == box.x0 && e->box.y0 == box.y0 && e->box.x1 == box.x1 && e->box.y1 == box.y1 &&
           e->start_x == op->gradient_start_x && e->start_y == op->gradient_start_y &&
           e->end_x == op->gradient_end_x && e->end_y == op->gradient_end_y &&
           memcmp(e->transform, op->transform, sizeof e->transform) == 0 &&
           memcmp(e->stops, op->gradient_stops, op->gradient_stop_count * sizeof *e->stops) == 0;
}

sw_gradient_entry *sw_gradient_cache_find(lk_backend_instance *inst, const lk_dl_op *op, sw_box box)
{
    for (int i = 0; i < SW_GRADIENT_CACHE; i++) {
        sw_gradient_entry *e = &inst->gradients[i];
        if (same_key(e, op, box)) {
            e->last_used = inst->stats.frames;
            return e;
        }
    }
    return NULL;
}

void sw_gradient_cache_drop(sw_gradient_entry *e)
{
    if (e->image) pixman_image_unref(e->image);
    free(e->stops);
    memset(e, 0, sizeof *e);
}

static size_t pixels(sw_box b) { return (size_t)(b.x1 - b.x0) * (size_t)(b.y1 - b.y0); }

/* Gives e op's key and box (its image already the box's size). */
static bool set_key(sw_gradient_entry *e, const lk_backend_instance *inst, const lk_dl_op *op, sw_box box)
{
    size_t bytes = op->gradient_stop_count * sizeof *e->stops;
    free(e->stops);
    e->stops = (lk_dl_gradient_stop *)malloc(bytes ? bytes : 1);
    if (!e->stops) return false;
    memcpy(e->stops, op->gradient_stops, bytes);
    e->box = box;
    e->last_used = inst->stats.frames;
    e->kind = op->gradient_kind;
    e->stop_count = op->gradient_stop_count;
    e->start_x = op->gradient_start_x;
    e->start_y = op->gradient_start_y;
    e->end_x = op->gradient_end_x;
    e->end_y = op->gradient_end_y;
    memcpy(e->transform, op->transform, sizeof e->transform);
    return true;
}

sw_gradient_entry *sw_gradient_cache_slot(lk_backend_instance *inst, const lk_dl_op *op, sw_box box)
{
    size_t budget = (size_t)SW_GRADIENT_CACHE_OUTPUTS * inst->width * inst->height;
    if (pixels(box) > budget) return NULL;
    /* the least recently drawn go until the new one fits and a slot is free */
    for (;;) {
        size_t held = 0;
        int free_slot = -1, oldest = -1;
        for (int i = 0; i < SW_GRADIENT_CACHE; i++) {
            const sw_gradient_entry *e = &inst->gradients[i];
            if (!e->image) {
                if (free_slot < 0) free_slot = i;
                continue;
            }
            held += pixels(e->box);
            if (oldest < 0 || e->last_used < inst->gradients[oldest].last_used) oldest = i;
        }
        if (free_slot >= 0 && held + pixels(box) <= budget) {
            sw_gradient_entry *e = &inst->gradients[free_slot];
            e->image = pixman_image_create_bits(PIXMAN_a8r8g8b8, box.x1 - box.x0, box.y1 - box.y0, NULL, 0);
            if (!e->image || !set_key(e, inst, op, box)) {
                sw_gradient_cache_drop(e);
                return NULL;
            }
            return e;
        }
        if (oldest < 0) return NULL;   /* (not reached: an empty cache has room for the box) */
        /* An entry of the box's size keeps its image for the new key: a
           gradient that changes every frame evicts its own entry of the
           frame before, and a new allocation of a large box is fresh pages
           to fault in each frame. */
        sw_gradient_entry *e = &inst->gradients[oldest];
        if (e->box.x1 - e->box.x0 == box.x1 - box.x0 && e->box.y1 - e->box.y0 == box.y1 - box.y0) {
            if (set_key(e, inst, op, box)) return e;
            sw_gradient_cache_drop(e);
            return NULL;
        }
        sw_gradient_cache_drop(e);
    }
}

void sw_gradient_cache_free(lk_backend_instance *inst)
{
    for (int i = 0; i < SW_GRADIENT_CACHE; i++) sw_gradient_cache_drop(&inst->gradients[i]);
}
