/*
 * The turn from the program's space into a scanout buffer's, for both
 * render paths: the rotation (a panel mounted sideways: 0/90/180/270
 * clockwise), then, for the GLES path drawing into an EGL window surface,
 * the flip of rows (GL window y = 0 is the buffer's bottom row, the GLES
 * renderer draws row 0 at window y = 0).
 *
 * Every op's transform is followed by the turn; group rectangles and
 * shadow offsets, which are in output pixels, are turned too, and so is the
 * damage box. Multiples of 90 degrees and the flip map pixel centres onto
 * pixel centres, so the result equals drawing the unturned list exactly.
 */
#include "drm_private.h"

#include <stdlib.h>
#include <string.h>

/* The program's point (x, y) in the buffer, for a buffer of bw x bh. */
static void turn_point(uint32_t rotation, bool flip, double bw, double bh, double x, double y,
                       double *u, double *v)
{
    switch (rotation) {
    case 90: *u = bw - y; *v = x; break;
    case 180: *u = bw - x; *v = bh - y; break;
    case 270: *u = y; *v = bh - x; break;
    default: *u = x; *v = y; break;
    }
    if (flip) *v = bh - *v;
}

/* The same turn as a row-vector matrix: [x y 0 1] * turn = [u v 0 1]. */
static void turn_matrix(uint32_t rotation, bool flip, double bw, double bh, double m[16])
{
    memset(m, 0, 16 * sizeof m[0]);
    m[10] = m[15] = 1;
    double ox, oy;
    turn_point(rotation, flip, bw, bh, 0, 0, &ox, &oy);
    double xx, xy, yx, yy;   /* images of the unit vectors */
    turn_point(rotation, flip, bw, bh, 1, 0, &xx, &xy);
    turn_point(rotation, flip, bw, bh, 0, 1, &yx, &yy);
    m[0] = xx - ox; m[1] = xy - oy;
    m[4] = yx - ox; m[5] = yy - oy;
    m[12] = ox; m[13] = oy;
}

static void multiply(const double a[16], const double b[16], double out[16])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a[i * 4 + k] * b[k * 4 + j];
            out[i * 4 + j] = s;
        }
}

static lk_dl_rect turn_rect(uint32_t rotation, bool flip, double bw, double bh, lk_dl_rect r)
{
    double u0, v0, u1, v1;
    turn_point(rotation, flip, bw, bh, r.x, r.y, &u0, &v0);
    turn_point(rotation, flip, bw, bh, r.x + r.width, r.y + r.height, &u1, &v1);
    lk_dl_rect t = { u0 < u1 ? u0 : u1, v0 < v1 ? v0 : v1, u0 < u1 ? u1 - u0 : u0 - u1,
                     v0 < v1 ? v1 - v0 : v0 - v1 };
    return t;
}

const void *drm_turn_ops(const drm_output *out, bool flip, const lk_display_list *list,
                         unsigned char **buffer, size_t *capacity)
{
    size_t bytes = (size_t)list->op_count * list->op_size;
    if (bytes > *capacity) {
        unsigned char *ops = realloc(*buffer, bytes);
        if (!ops) return NULL;
        *buffer = ops;
        *capacity = bytes;
    }
    double bw = out->buffer_width, bh = out->buffer_height, turn[16];
    turn_matrix(out->turn, flip, bw, bh, turn);
    for (uint32_t i = 0; i < list->op_count; i++) {
        unsigned char *dst = *buffer + (size_t)i * list->op_size;
        memcpy(dst, (const unsigned char *)list->ops + (size_t)i * list->op_size, list->op_size);
        lk_dl_op op;
        memcpy(&op, dst, sizeof op);
        double t[16];
        multiply(op.transform, turn, t);
        memcpy(op.transform, t, sizeof t);
        if (op.kind == LK_DL_OP_PUSH_GROUP) {
            op.rect = turn_rect(out->turn, flip, bw, bh, op.rect);
            double dx = op.shadow_offset_x, dy = op.shadow_offset_y;
            op.shadow_offset_x = turn[0] * dx + turn[4] * dy;
            op.shadow_offset_y = turn[1] * dx + turn[5] * dy;
        }
        memcpy(dst, &op, sizeof op);
    }
    return *buffer;
}

lk_dl_box drm_turn_damage(const drm_output *out, bool flip, lk_dl_box d)
{
    lk_dl_rect r = { d.x, d.y, d.width, d.height };
    r = turn_rect(out->turn, flip, out->buffer_width, out->buffer_height, r);
    int32_t x0 = (int32_t)r.x, y0 = (int32_t)r.y, x1 = (int32_t)(r.x + r.width), y1 = (int32_t)(r.y + r.height);
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > (int32_t)out->buffer_width) x1 = (int32_t)out->buffer_width;
    if (y1 > (int32_t)out->buffer_height) y1 = (int32_t)out->buffer_height;
    lk_dl_box b = { x0, y0, x1 > x0 ? x1 - x0 : 0, y1 > y0 ? y1 - y0 : 0 };
    return b;
}
