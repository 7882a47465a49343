/*
 * GRADIENT ops (ABI 3): pixman's linear, radial and conical gradients as the
 * source of the op's (rounded) rect, drawn by the same rect and mask paths as
 * an image (sw_paint_source), so coverage, clips and opacity match.
 *
 * Each kind gets a gradient space of its own, mapped to the op's local space
 * by an affine map (source_to_local); pixman evaluates the gradient at every
 * pixel centre mapped back through the op's transform and that map:
 *  - axial: local space moved so the start is the origin; pixman's linear
 *    gradient from (0, 0) to end - start.
 *  - radial: the same, with y scaled by rx / ry so the ellipse becomes a
 *    circle of radius rx; pixman's radial gradient from radius 0 to rx.
 *  - conic: pixman's conical gradient grows counter-clockwise (y down) from
 *    the +x axis; the ABI's grows clockwise from the direction of the end
 *    point. Gradient space is local space moved to the start, turned so the
 *    end direction is +x, and mirrored in y, which turns pixman's
 *    counter-clockwise into the op's clockwise.
 * pixman interpolates the straight colour and the alpha, then premultiplies:
 * the ABI's rule (layerkit_backend.h). Stops are converted into a buffer the
 * instance keeps, grown and reused op after op.
 */
#include "software_private.h"

#include <math.h>
#include <stdlib.h>

bool sw_gradient_validate(const lk_dl_op *op, uint32_t index, char *error, size_t error_size)
{
    if (op->gradient_kind < LK_DL_GRADIENT_AXIAL || op->gradient_kind > LK_DL_GRADIENT_CONIC) {
        sw_set_error(error, error_size, "software backend: op %u: unknown gradient_kind %u", index,
                     op->gradient_kind);
        return false;
    }
    if (op->gradient_stop_count == 0 || !op->gradient_stops) {
        sw_set_error(error, error_size, "software backend: op %u: GRADIENT without stops (gradient_stop_count %u%s)",
                     index, op->gradient_stop_count, op->gradient_stops ? "" : ", gradient_stops NULL");
        return false;
    }
    double last = 0.0;
    for (uint32_t k = 0; k < op->gradient_stop_count; k++) {
        double l = op->gradient_stops[k].location;
        if (!(l >= 0.0 && l <= 1.0) || l < last) {
            sw_set_error(error, error_size,
                         "software backend: op %u: gradient stop %u location %g is %s", index, k, l,
                         (l >= 0.0 && l <= 1.0) ? "less than the one before it" : "outside 0...1");
            return false;
        }
        last = l;
    }
    return true;
}

static uint16_t channel(float v)
{
    return (uint16_t)lrintf(sw_unit(v) * 65535.0f);
}

/* The op's stops as pixman's, in the instance's buffer; NULL when memory runs out. */
static pixman_gradient_stop_t *pixman_stops(lk_backend_instance *inst, const lk_dl_op *op)
{
    uint32_t n = op->gradient_stop_count;
    if (n > inst->gradient_capacity) {
        pixman_gradient_stop_t *grown = realloc(inst->gradient_stops, n * sizeof *grown);
        if (!grown) return NULL;
        inst->gradient_stops = grown;
        inst->gradient_capacity = n;
    }
    for (uint32_t k = 0; k < n; k++) {
        const lk_dl_gradient_stop *s = &op->gradient_stops[k];
        pixman_gradient_stop_t *p = &inst->gradient_stops[k];
        p->x = pixman_double_to_fixed(s->location);
        p->color.red = channel(s->color.r);
        p->color.green = channel(s->color.g);
        p->color.blue = channel(s->color.b);
        p->color.alpha = channel(s->color.a);
    }
    return inst->gradient_stops;
}

/* The last stop's colour, premultiplied, for gradients with no extent. */
static lk_dl_color last_color(const lk_dl_op *op)
{
    lk_dl_color c = op->gradient_stops[op->gradient_stop_count - 1].color;
    float a = sw_unit(c.a);
    lk_dl_color r = { sw_unit(c.r) * a, sw_unit(c.g) * a, sw_unit(c.b) * a, a };
    return r;
}

/* Gradient coordinates beyond this are out of pixman's 16.16 range. */
#define SW_GRADIENT_LIMIT 30000.0

/* The scale of gradient space that keeps every coordinate pixman meets
   within its 16.16 range: 1 unless a coordinate of the op's rect, grown by
   its own size on every side (the pixels composited around a turned rect
   map back outside it), or of the gradient's end (extent) is beyond the
   limit in gradient space at scale 1 (local space moved to the start, y
   times ky), with room for a turn (sqrt 2). A start point tens of
   thousands of points off the layer, or an end that far, drew nothing
   (skipped, or coordinates wrapped in 16.16) where gles and the canvas
   draw the colours over the bounds. */
static double gradient_scale(const lk_dl_op *op, double sx, double sy, double ky, double ex, double ey)
{
    double w = fabs(op->rect.width), h = fabs(op->rect.height);
    double x0 = op->rect.x - w - sx, x1 = op->rect.x + 2 * w - sx;
    double y0 = (op->rect.y - h - sy) * ky, y1 = (op->rect.y + 2 * h - sy) * ky;
    double reach = fmax(fmax(fmax(fabs(x0), fabs(x1)), fmax(fabs(y0), fabs(y1))), fmax(fabs(ex), fabs(ey))) * 1.5;
    return reach > SW_GRADIENT_LIMIT ? SW_GRADIENT_LIMIT / reach : 1.0;
}
/* Axial vectors shorter than this (in points) are drawn in a gradient space
   turned to them (their 16.16 parts keep the direction to about 1e-6 from
   here on up; longer ones as they are). */
#define SW_GRADIENT_TURNED_BELOW 16.0

bool sw_paint_gradient(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *clip)
{
    double sx = op->gradient_start_x, sy = op->gradient_start_y;
    double dx = op->gradient_end_x - sx, dy = op->gradient_end_y - sy;
    if (sw_box_empty(clip->box) || sw_to_byte(sw_unit(op->opacity)) == 0 || !isfinite(sx) || !isfinite(sy) ||
        !isfinite(dx) || !isfinite(dy)) {
        inst->stats.skipped_ops++;
        return true;
    }
    pixman_gradient_stop_t *stops = pixman_stops(inst, op);
    if (!stops) return false;
    int n = (int)op->gradient_stop_count;
    pixman_image_t *gradient = NULL;
    /* gradient space -> local space */
    sw_homography map = { { { 1, 0, sx }, { 0, 1, sy }, { 0, 0, 1 } } };
    pixman_point_fixed_t origin = { 0, 0 };
    switch (op->gradient_kind) {
    case LK_DL_GRADIENT_AXIAL: {
        if (dx == 0.0 && dy == 0.0) return sw_paint_source(inst, op, clip, NULL, NULL, last_color(op));
        /* gradient space scaled by f (gradient_scale), its end f (dx, dy) */
        double f = gradient_scale(op, sx, sy, 1.0, dx, dy), inv = 1.0 / f;
        map.m[0][0] = inv; map.m[1][1] = inv;
        pixman_point_fixed_t end = { pixman_double_to_fixed(dx * f), pixman_double_to_fixed(dy * f) };
        double length = hypot(dx, dy);
        if (length * f < SW_GRADIENT_TURNED_BELOW) {
            /* A short vector in 16.16 loses its direction (each part
               rounded to 1/65536: the line of the step turned by pixels
               across the rect) or all of it: gradient space turned so the
               vector is +x, its length at least one 16.16 unit. */
            double ux = dx / length, uy = dy / length;
            map.m[0][0] = ux * inv; map.m[0][1] = -uy * inv;
            map.m[1][0] = uy * inv; map.m[1][1] = ux * inv;
            end.x = pixman_double_to_fixed(length * f);
            end.y = 0;
            if (end.x < 1) end.x = 1;
        }
        gradient = pixman_image_create_linear_gradient(&origin, &end, stops, n);
        break;
    }
    case LK_DL_GRADIENT_RADIAL: {
        double rx = fabs(dx), ry = fabs(dy);
        /* a radius below a 16.16 unit is none (pixman's is 0: nothing was drawn) */
        if (rx < 1.0 / 65536 || ry < 1.0 / 65536) return sw_paint_source(inst, op, clip, NULL, NULL, last_color(op));
        /* gradient space scaled by f (gradient_scale), the circle's radius f rx */
        double f = gradient_scale(op, sx, sy, rx / ry, rx, 0.0);
        if (rx * f < 1.0 / 65536) return sw_paint_source(inst, op, clip, NULL, NULL, last_color(op));
        map.m[0][0] = 1.0 / f;
        map.m[1][1] = ry / rx / f;
        gradient = pixman_image_create_radial_gradient(&origin, &origin, 0, pixman_double_to_fixed(rx * f),
                                                       stops, n);
        break;
    }
    default: {
        double length = hypot(dx, dy);
        double ux = length > 0.0 ? dx / length : 1.0, uy = length > 0.0 ? dy / length : 0.0;
        /* local = start + gx u - gy v, v = u turned a quarter clockwise (-uy, ux) */
        map.m[0][0] = ux; map.m[0][1] = uy;
        map.m[1][0] = uy; map.m[1][1] = -ux;
        gradient = pixman_image_create_conical_gradient(&origin, 0, stops, n);
        break;
    }
    }
    if (!gradient) return false;
    pixman_image_set_repeat(gradient, PIXMAN_REPEAT_PAD);
    bool ok = sw_paint_source(inst, op, clip, gradient, &map, op->color);
    pixman_image_unref(gradient);
    return ok;
}

void sw_gradient_scratch_free(lk_backend_instance *inst)
{
    free(inst->gradient_stops);
    inst->gradient_stops = NULL;
    inst->gradient_capacity = 0;
}
