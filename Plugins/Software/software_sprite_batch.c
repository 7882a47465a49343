/*
 * The sprite path's rule and runs (software_sprite.c draws the pixels, in
 * two builds): which ops take the path and their records
 * (sw_sprite_prepare, sw_fill_prepare), a rotated image's transparent cuts,
 * and a run's records binned into bands of rows and drawn, on the band
 * workers too (sw_sprite_draw_batch). Compiled once: this is per op and per
 * run, not per pixel.
 */
#include "software_sprite.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Image coordinates at any pixel the sprite touches stay below this, so
   they fit 16.16 fixed point with room for the per-pixel steps. */
#define SW_SPRITE_MAX_COORD 30000.0
/* Sprite runs are drawn in bands of output rows, each small enough to stay
   in the L2 cache while every sprite of the run that reaches it draws
   there: as many rows as fit SW_SPRITE_BAND_BYTES of the target's width,
   between SW_SPRITE_BAND_MIN and SW_SPRITE_BAND_MAX (64 rows of a
   1920-pixel output, 480 KB; a sprite crossing fewer bands sets up its
   rows fewer times). */
#define SW_SPRITE_BAND_BYTES (512 * 1024)
#define SW_SPRITE_BAND_MIN 16
#define SW_SPRITE_BAND_MAX 64

/* Transparent cuts */

/* A sample whose four texels are all transparent (0) draws nothing: OVER
   or ADD of 0 leaves the pixel as it was. So a rotated image sprite's rows
   need only the pixels whose sample may read a non-transparent texel; a
   round particle's transparent corners, which the rect's edges cross, are
   then skipped without a fetch each. The non-transparent texels (i, j) are
   bounded along eight directions a of sample space (su, sv) (the 16.16
   positions, texel centres at whole numbers): a bilinear sample at p reads
   texels floor(p) and floor(p) + 1 a side, nearest the one within 1/2, so
   texel (i, j) is read only from [i - 1, i + 1] x [j - 1, j + 1], and
   every sample that can draw has a . p >= C, C the least a . p over those
   squares. The source's edge texels repeat (the fetch clamps): texel
   x_min is read from every su below it too, as far as the sprite's
   samples reach, which depends on the sprite. So the image keeps, per
   direction, the least a . p of four groups of texels (bit 0: on the edge
   column a's u part points past, bit 1: on the edge row its v part points
   past) without the part along the edge, and each sprite adds that part
   from its own reach (sprite_cuts). */
static const int cut_dir[SW_SPRITE_CUTS][2] = {
    { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, -1 }, { 1, -1 }, { -1, 1 },
};

/* Beyond this many texels in the source box a sprite takes no cuts (the
   scan on a cache miss would cost more than it saves). */
#define SW_CUTS_MAX_TEXELS 65536
/* Texels of slack on every cut: positions are stepped in 16.16 fixed
   point along a sprite's box (at most about 2^-8 texel off). */
#define SW_CUTS_MARGIN (1.0 / 32.0)

static void image_cuts_compute(sw_image_cuts *c, const uint32_t *pixels, uint32_t stride, sw_box texels)
{
    for (int k = 0; k < SW_SPRITE_CUTS; k++)
        for (int g = 0; g < 4; g++) c->least[k][g] = HUGE_VAL;
    for (int32_t j = texels.y0; j < texels.y1; j++) {
        const uint32_t *row = pixels + (size_t)j * stride;
        /* the row's first and last non-transparent texels decide every
           direction (a texel on the edge column counts as the least) */
        int32_t first = texels.x0, last = texels.x1 - 1;
        while (first <= last && row[first] == 0) first++;
        if (first > last) continue;
        while (row[last] == 0) last--;
        for (int k = 0; k < SW_SPRITE_CUTS; k++) {
            int au = cut_dir[k][0], av = cut_dir[k][1];
            int32_t i = au < 0 ? last : first;
            int g = 0;
            double v = 0.0;
            if (au != 0) {
                if (au > 0 ? i == texels.x0 : i == texels.x1 - 1) g |= 1;
                else v += au * (double)(i - au);
            }
            if (av != 0) {
                if (av > 0 ? j == texels.y0 : j == texels.y1 - 1) g |= 2;
                else v += av * (double)(j - av);
            }
            if (v < c->least[k][g]) c->least[k][g] = v;
        }
    }
    /* Worth it when the cuts (without the edge texels' reach) drop at least
       a quarter of the texel centres: a row's cuts cost about what
       fetching a few transparent texels does (measured: a round particle,
       whose cuts drop about a tenth, drew slower with them). */
    double least[SW_SPRITE_CUTS];
    for (int k = 0; k < SW_SPRITE_CUTS; k++) {
        int au = cut_dir[k][0], av = cut_dir[k][1];
        double eu = au > 0 ? au * (texels.x0 - 1.0) : au * (texels.x1 - 1 + 1.0);
        double ev = av > 0 ? av * (texels.y0 - 1.0) : av * (texels.y1 - 1 + 1.0);
        least[k] = min_d(min_d(c->least[k][0], c->least[k][1] + eu), min_d(c->least[k][2] + ev, c->least[k][3] + eu + ev));
    }
    int64_t dropped = 0, all = (int64_t)(texels.x1 - texels.x0) * (texels.y1 - texels.y0);
    for (int32_t j = texels.y0; j < texels.y1; j++)
        for (int32_t i = texels.x0; i < texels.x1; i++)
            for (int k = 0; k < SW_SPRITE_CUTS; k++)
                if (cut_dir[k][0] * (double)i + cut_dir[k][1] * (double)j < least[k]) { dropped++; break; }
    c->worth = dropped * 4 >= all;
}

/* The cuts of img's texel box, from the thread's cache or computed into
   it; NULL when the box is too large to scan or the cuts not worth it. */
static const sw_image_cuts *image_cuts(sw_image_cuts *cache, const lk_dl_image *img, sw_box texels)
{
    if ((int64_t)(texels.x1 - texels.x0) * (texels.y1 - texels.y0) > SW_CUTS_MAX_TEXELS) return NULL;
    sw_image_cuts *c = &cache[(size_t)((img->id * 0x9E3779B97F4A7C15ull) >> 32) % SW_IMAGE_CUTS_CACHE];
    if (c->id == img->id && c->generation == img->generation && c->pixels == img->pixels &&
        c->stride == img->stride && c->texels.x0 == texels.x0 && c->texels.y0 == texels.y0 &&
        c->texels.x1 == texels.x1 && c->texels.y1 == texels.y1)
        return c->worth ? c : NULL;
    c->id = img->id;
    c->generation = img->generation;
    c->pixels = img->pixels;
    c->stride = img->stride;
    c->texels = texels;
    image_cuts_compute(c, (const uint32_t *)img->pixels, img->stride / 4, texels);
    return c->worth ? c : NULL;
}

/* The sprite's cut lines in output space from the image's cuts: corner_u
   and corner_v are the sample positions of its rect's corners. Touched
   pixels have centres within 0.75 pixel of the rect (rows_at's reach),
   their samples within that times the position's gradient of the rect's
   samples: how far an edge texel is read. Cuts that keep every touched
   pixel are left out. */
static void sprite_cuts(sw_sprite *s, sw_sprite_cut_lines *lines, const sw_image_cuts *c, const double corner_u[4],
                        const double corner_v[4])
{
    double lu = HUGE_VAL, hu = -HUGE_VAL, lv = HUGE_VAL, hv = -HUGE_VAL;
    for (int i = 0; i < 4; i++) {
        lu = min_d(lu, corner_u[i]); hu = max_d(hu, corner_u[i]);
        lv = min_d(lv, corner_v[i]); hv = max_d(hv, corner_v[i]);
    }
    double reach_u = 0.75 * sqrt(s->ux * s->ux + s->uy * s->uy), reach_v = 0.75 * sqrt(s->vx * s->vx + s->vy * s->vy);
    lu -= reach_u; hu += reach_u; lv -= reach_v; hv += reach_v;
    /* the sample position of pixel (0, 0)'s centre */
    double su0 = 0.5 * s->ux + 0.5 * s->uy + s->u0 - 0.5, sv0 = 0.5 * s->vx + 0.5 * s->vy + s->v0 - 0.5;
    s->cut_count = 0;
    for (int k = 0; k < SW_SPRITE_CUTS; k++) {
        int au = cut_dir[k][0], av = cut_dir[k][1];
        /* the edge parts: as far as the samples reach past the edge texel */
        double eu = au > 0 ? au * min_d(s->x_min - 1.0, lu) : au * max_d(s->x_max + 1.0, hu);
        double ev = av > 0 ? av * min_d(s->y_min - 1.0, lv) : av * max_d(s->y_max + 1.0, hv);
        double least = min_d(min_d(c->least[k][0], c->least[k][1] + eu), min_d(c->least[k][2] + ev, c->least[k][3] + eu + ev));
        double *cut = lines->line[s->cut_count];
        if (!(least < HUGE_VAL)) {
            /* no texel shows: a cut that keeps nothing */
            cut[0] = 0.0; cut[1] = 0.0; cut[2] = -1.0;
            s->cut_count = 1;
            return;
        }
        least -= SW_CUTS_MARGIN;
        /* the least a . p over the touched samples' box: kept if below */
        double reached = (au > 0 ? lu : au < 0 ? -hu : 0.0) + (av > 0 ? lv : av < 0 ? -hv : 0.0);
        if (reached >= least) continue;
        cut[0] = au * s->ux + av * s->vx;
        cut[1] = au * s->uy + av * s->vy;
        cut[2] = au * su0 + av * sv0 - least;
        s->cut_count++;
    }
}

/* ------------------------------------------------------------------------ */
/* The rule, and runs                                                        */

/* v limited to just beyond the largest target (the output and the group
   margin around it), so that it converts to int. Limited to 2 pixels
   beyond the output (before 2026-11-27), a group's content farther off it
   was cut there and cast no shadow onto it. */
static double clamp_coord(double v) { return fmin(fmax(v, -SW_GROUP_MARGIN - 2.0), SW_MAX_SIZE + SW_GROUP_MARGIN + 2.0); }

/* The pixels a sprite with bounds b may touch: its bounds, the clip, the
   target, the clip mask. */
static sw_box unclipped_box(const double b[4])
{
    sw_box box = { (int32_t)floor(clamp_coord(b[0])), (int32_t)floor(clamp_coord(b[1])),
                   (int32_t)ceil(clamp_coord(b[2])), (int32_t)ceil(clamp_coord(b[3])) };
    return box;
}

static sw_box touched_box(const lk_backend_instance *inst, const sw_clip *clip, const double b[4])
{
    sw_box box = unclipped_box(b);
    box = sw_box_intersect(box, clip->box);
    sw_box target = { inst->target_x, inst->target_y,
                      inst->target_x + pixman_image_get_width(inst->target),
                      inst->target_y + pixman_image_get_height(inst->target) };
    box = sw_box_intersect(box, target);
    if (clip->mask) {
        sw_box mask = { clip->mask_x, clip->mask_y, clip->mask_x + pixman_image_get_width(clip->mask),
                        clip->mask_y + pixman_image_get_height(clip->mask) };
        box = sw_box_intersect(box, mask);
    }
    return box;
}

/* hypot(a, b) without its cost where the squares cannot overflow or lose
   precision (hypot was 2% of the particle frame, a sprite's slowest part). */
static inline double length2(double a, double b)
{
    double q = a * a + b * b;
    return q > 1e-290 && q < 1e290 ? sqrt(q) : hypot(a, b);
}

/* A rotated or skewed sprite's edges as lines of output space. */
static sw_sprite_result edge_lines(const sw_shape *shape, sw_sprite *s)
{
    const sw_rect *r = &shape->rect;
    /* local x = a X + b Y + c, local y = d X + e Y + f */
    sw_homography local;
    if (!sw_homography_invert(&shape->h, &local)) return SW_SPRITE_SKIP;
    double lw = local.m[2][2];
    double a = local.m[0][0] / lw, b = local.m[0][1] / lw, c = local.m[0][2] / lw;
    double d = local.m[1][0] / lw, e = local.m[1][1] / lw, f = local.m[1][2] / lw;
    double gx = length2(a, b), gy = length2(d, e);
    if (!(gx > 0.0) || !(gy > 0.0) || !isfinite(gx) || !isfinite(gy)) return SW_SPRITE_SKIP;
    s->nx[0] = a / gx; s->ny[0] = b / gx; s->base[0] = (c - r->x0) / gx;
    s->nx[1] = -s->nx[0]; s->ny[1] = -s->ny[0]; s->base[1] = (r->x1 - c) / gx;
    s->nx[2] = d / gy; s->ny[2] = e / gy; s->base[2] = (f - r->y0) / gy;
    s->nx[3] = -s->nx[2]; s->ny[3] = -s->ny[2]; s->base[3] = (r->y1 - f) / gy;
    for (int i = 0; i < 4; i++) s->inv_nx[i] = s->nx[i] != 0.0 ? 1.0 / s->nx[i] : 0.0;
    for (int pair = 0; pair < 2; pair++) {
        double nx = fabs(s->nx[2 * pair]), ny = fabs(s->ny[2 * pair]);
        double big = fmax(nx, ny), small = fmin(nx, ny);
        s->reach[pair] = 0.5 * (big + small);
        s->linear[pair] = 0.5 * (big - small);
        s->b[pair] = small;
        s->inv_a[pair] = 1.0 / big;   /* big >= 1 / sqrt(2) for a unit normal */
        s->inv_2ab[pair] = small > 0.0 ? 1.0 / (2.0 * big * small) : 0.0;
    }
    return SW_SPRITE_READY;
}

static bool target_is_32bit(const lk_backend_instance *inst)
{
    pixman_format_code_t format = pixman_image_get_format(inst->target);
    return format == PIXMAN_a8r8g8b8 || format == PIXMAN_x8r8g8b8;
}

sw_sprite_result sw_sprite_prepare(const lk_backend_instance *inst, const lk_dl_op *op,
                                   const sw_clip *clip, const sw_shape *shape,
                                   const sw_homography *image_to_output, sw_box texels,
                                   sw_image_cuts *cuts_cache, sw_sprite *s, sw_sprite_cut_lines *lines)
{
    if (inst->sprites == SW_SPRITES_OFF) return SW_SPRITE_DECLINE;
    if (!sw_homography_is_affine(&shape->h) || !(shape->h.m[2][2] > 0.0)) return SW_SPRITE_DECLINE;
    if (!target_is_32bit(inst)) return SW_SPRITE_DECLINE;

    double bounds[4];
    bool finite = sw_device_bounds(shape, bounds);
    double bx0 = bounds[0], by0 = bounds[1], bx1 = bounds[2], by1 = bounds[3];
    /* (NaN fails these too) */
    if (!finite || !(bx1 - bx0 <= SW_SPRITE_MAX_SIDE) || !(by1 - by0 <= SW_SPRITE_MAX_SIDE))
        return SW_SPRITE_DECLINE;
    bool antialias = (op->flags & LK_DL_FLAG_ANTIALIAS) != 0;
    double sx, sy, tx, ty;
    bool axis_aligned = sw_homography_axis_aligned(&shape->h, &sx, &sy, &tx, &ty);
    if (!antialias && !axis_aligned) return SW_SPRITE_DECLINE;
    if (axis_aligned && (!(op->flags & LK_DL_FLAG_TINT) || bx1 - bx0 > SW_SPRITE_AXIS_MAX_SIDE ||
                         by1 - by0 > SW_SPRITE_AXIS_MAX_SIDE))
        return SW_SPRITE_DECLINE;

    /* output -> image coordinates, within fixed point near the sprite */
    sw_homography inverse;
    if (!sw_homography_invert(image_to_output, &inverse) || !sw_homography_is_affine(&inverse))
        return SW_SPRITE_SKIP;   /* degenerate: shows nothing, as in pixman's path */
    memset(s, 0, sizeof *s);
    double iw = inverse.m[2][2];
    s->ux = inverse.m[0][0] / iw; s->uy = inverse.m[0][1] / iw; s->u0 = inverse.m[0][2] / iw;
    s->vx = inverse.m[1][0] / iw; s->vy = inverse.m[1][1] / iw; s->v0 = inverse.m[1][2] / iw;
    double around[4][2] = { { bx0 - 1, by0 - 1 }, { bx1 + 1, by0 - 1 }, { bx0 - 1, by1 + 1 }, { bx1 + 1, by1 + 1 } };
    for (int i = 0; i < 4; i++) {
        double u = s->ux * around[i][0] + s->uy * around[i][1] + s->u0;
        double v = s->vx * around[i][0] + s->vy * around[i][1] + s->v0;
        if (!(fabs(u) < SW_SPRITE_MAX_COORD) || !(fabs(v) < SW_SPRITE_MAX_COORD)) return SW_SPRITE_DECLINE;
    }

    s->box = touched_box(inst, clip, bounds);
    if (sw_box_empty(s->box)) return SW_SPRITE_SKIP;
    sw_box whole = unclipped_box(bounds);
    s->ox = (int16_t)whole.x0;
    s->oy = (int16_t)whole.y0;

    const lk_dl_image *img = op->image;
    s->pixels = (const uint32_t *)img->pixels;
    s->stride = img->stride / 4;
    s->x_min = texels.x0; s->x_max = texels.x1 - 1;
    s->y_min = texels.y0; s->y_max = texels.y1 - 1;
    s->flags = ((op->flags & LK_DL_FLAG_FILTER_NEAREST) ? SW_SPRITE_NEAREST : 0) |
               ((op->flags & LK_DL_FLAG_BLEND_ADD) ? SW_SPRITE_ADD : 0) |
               (axis_aligned ? SW_SPRITE_AXIS : 0) | (antialias ? SW_SPRITE_ANTIALIAS : 0);
    /* The tint quantised as pixman's path quantises it (8 bits a channel,
       colour clamped to alpha), times the opacity, 256 = 1. */
    float opacity = sw_unit(op->opacity);
    uint32_t tint = 0xffffffffu;
    if (op->flags & LK_DL_FLAG_TINT) tint = sw_argb(sw_pixman_color(op->tint));
    for (int c = 0; c < 4; c++)
        s->factor[c] = (float)((tint >> (24 - 8 * c)) & 255) / 255.0f * 256.0f * opacity;
    if (s->factor[0] == 0.0f && s->factor[1] == 0.0f && s->factor[2] == 0.0f && s->factor[3] == 0.0f)
        return SW_SPRITE_SKIP;

    if (axis_aligned) {
        s->rect.x0 = bx0; s->rect.y0 = by0; s->rect.x1 = bx1; s->rect.y1 = by1;
        return SW_SPRITE_READY;
    }
    sw_sprite_result result = edge_lines(shape, s);
    const sw_image_cuts *cuts = result == SW_SPRITE_READY ? image_cuts(cuts_cache, img, texels) : NULL;
    if (cuts) {
        /* the sample positions of the rect's corners */
        const double (*h)[3] = shape->h.m;
        const sw_rect *rect = &shape->rect;
        double cx[4] = { rect->x0, rect->x1, rect->x1, rect->x0 }, cy[4] = { rect->y0, rect->y0, rect->y1, rect->y1 };
        double cu[4], cv[4];
        for (int i = 0; i < 4; i++) {
            double X = (h[0][0] * cx[i] + h[0][1] * cy[i] + h[0][2]) / h[2][2];
            double Y = (h[1][0] * cx[i] + h[1][1] * cy[i] + h[1][2]) / h[2][2];
            cu[i] = s->ux * X + s->uy * Y + s->u0 - 0.5;
            cv[i] = s->vx * X + s->vy * Y + s->v0 - 0.5;
        }
        sprite_cuts(s, lines, cuts, cu, cv);
    }
    return result;
}

sw_sprite_result sw_fill_prepare(const lk_backend_instance *inst, const lk_dl_op *op,
                                 const sw_clip *clip, sw_sprite *s)
{
    if (inst->sprites == SW_SPRITES_OFF || !inst->fill_runs) return SW_SPRITE_DECLINE;
    sw_shape shape;
    float opacity = sw_unit(op->opacity);
    /* what sw_paint_fill skips */
    if (sw_box_empty(clip->box) || !sw_op_shape(op, &shape) || sw_to_byte(opacity * op->color.a) == 0)
        return SW_SPRITE_SKIP;
    if (shape.radius > 0.0 || !sw_homography_is_affine(&shape.h) || !(shape.h.m[2][2] > 0.0) ||
        !target_is_32bit(inst))
        return SW_SPRITE_DECLINE;
    double bounds[4];
    if (!sw_device_bounds(&shape, bounds) || !(bounds[2] - bounds[0] <= SW_FILL_MAX_SIDE) ||
        !(bounds[3] - bounds[1] <= SW_FILL_MAX_SIDE))
        return SW_SPRITE_DECLINE;
    bool antialias = (op->flags & LK_DL_FLAG_ANTIALIAS) != 0;
    double sx, sy, tx, ty;
    bool axis_aligned = sw_homography_axis_aligned(&shape.h, &sx, &sy, &tx, &ty);
    /* Aliased turned fills sample pixel centres (the mask path's own); below
       SW_FILL_MIN_SIDE turned ones are almost all edge pixels, which
       pixman's rasterizer does as fast. */
    if (!axis_aligned && (!antialias || (bounds[2] - bounds[0] < SW_FILL_MIN_SIDE &&
                                         bounds[3] - bounds[1] < SW_FILL_MIN_SIDE)))
        return SW_SPRITE_DECLINE;
    /* Axis-aligned: pixman draws a pixel-aligned (or aliased) rect as one
       solid composite, faster than our loop at every size measured; with
       fractional edges it takes up to 9 composites, slower than ours up to
       SW_FILL_AXIS_MAX_SIDE. */
    if (axis_aligned &&
        (!antialias || !(bounds[2] - bounds[0] <= SW_FILL_AXIS_MAX_SIDE) ||
         !(bounds[3] - bounds[1] <= SW_FILL_AXIS_MAX_SIDE) ||
         (bounds[0] == floor(bounds[0]) && bounds[1] == floor(bounds[1]) && bounds[2] == floor(bounds[2]) &&
          bounds[3] == floor(bounds[3]))))
        return SW_SPRITE_DECLINE;

    memset(s, 0, sizeof *s);
    s->box = touched_box(inst, clip, bounds);
    if (sw_box_empty(s->box)) return SW_SPRITE_SKIP;
    s->flags = SW_SPRITE_SOLID | ((op->flags & LK_DL_FLAG_BLEND_ADD) ? SW_SPRITE_ADD : 0) |
               (axis_aligned ? SW_SPRITE_AXIS : 0) | (antialias ? SW_SPRITE_ANTIALIAS : 0);
    /* the colour sw_paint_fill paints with, and its 8-bit form */
    s->color.r = (float)(op->color.r * (double)opacity);
    s->color.g = (float)(op->color.g * (double)opacity);
    s->color.b = (float)(op->color.b * (double)opacity);
    s->color.a = (float)(op->color.a * (double)opacity);
    s->argb = sw_argb(sw_pixman_color(s->color));
    if (axis_aligned) {
        s->rect.x0 = bounds[0]; s->rect.y0 = bounds[1]; s->rect.x1 = bounds[2]; s->rect.y1 = bounds[3];
        return SW_SPRITE_READY;
    }
    return edge_lines(&shape, s);
}

static bool reserve_u32(uint32_t **array, size_t *capacity, size_t count)
{
    if (count <= *capacity) return true;
    size_t n = *capacity ? *capacity : 1024;
    while (n < count) n *= 2;
    uint32_t *grown = realloc(*array, n * sizeof **array);
    if (!grown) return false;
    *array = grown;
    *capacity = n;
    return true;
}

bool sw_sprite_draw_batch(lk_backend_instance *inst, const sw_sprite *sprites,
                          const sw_sprite_cut_lines *cut_lines, const sw_sprite_box *boxes, size_t count,
                          const sw_clip *clip)
{
    sw_sprite_target t;
    memset(&t, 0, sizeof t);
    t.target = (uint32_t *)pixman_image_get_data(inst->target);
    t.tstride = (size_t)pixman_image_get_stride(inst->target) / 4;
    t.tx = inst->target_x;
    t.ty = inst->target_y;
    t.scalar = inst->sprites == SW_SPRITES_SCALAR;
    t.avx2 = sw_avx2_builds(inst);
    if (clip->mask) {
        t.mask = (const uint8_t *)pixman_image_get_data(clip->mask);
        t.mstride = (size_t)pixman_image_get_stride(clip->mask);
        t.mx = clip->mask_x;
        t.my = clip->mask_y;
    }
    bool fill = inst->pending.active && inst->target == inst->framebuffer;
    if (!fill) sw_pending_flush(inst);

    /* The rows to go through: every sprite's, and the pending fill's
       (a sprite with an empty box is an op that shows nothing, left in
       its place: it goes in no band). */
    int32_t y0 = INT32_MAX, y1 = INT32_MIN;
    for (size_t i = 0; i < count; i++) {
        if (sw_box_empty(boxes[i].box)) continue;
        if (boxes[i].box.y0 < y0) y0 = boxes[i].box.y0;
        if (boxes[i].box.y1 > y1) y1 = boxes[i].box.y1;
    }
    if (fill) {
        if (inst->pending.box.y0 < y0) y0 = inst->pending.box.y0;
        if (inst->pending.box.y1 > y1) y1 = inst->pending.box.y1;
    }
    if (y1 <= y0) {
        if (fill) inst->pending.active = false;
        return true;
    }

    /* Bin the sprites by band, each band's in list order (a counting sort). */
    int32_t rows = inst->band_rows;
    if (rows <= 0) {
        int64_t fit = SW_SPRITE_BAND_BYTES / (4 * (int64_t)pixman_image_get_width(inst->target) + 4);
        rows = fit < SW_SPRITE_BAND_MIN ? SW_SPRITE_BAND_MIN : fit > SW_SPRITE_BAND_MAX ? SW_SPRITE_BAND_MAX : (int32_t)fit;
    }
    size_t bands = (size_t)((int64_t)y1 - y0 + rows - 1) / (size_t)rows;
    size_t entries = 0, shown = 0, solid = 0;
    int64_t box_pixels = 0;
    for (size_t i = 0; i < count; i++) {
        if (sw_box_empty(boxes[i].box)) continue;
        shown++;
        solid += boxes[i].solid;
        entries += (size_t)((boxes[i].box.y1 - 1 - y0) / rows - (boxes[i].box.y0 - y0) / rows + 1);
        box_pixels += (int64_t)(boxes[i].box.x1 - boxes[i].box.x0) * (boxes[i].box.y1 - boxes[i].box.y0);
    }
    if (entries > UINT32_MAX || count > UINT32_MAX ||
        !reserve_u32(&inst->band_start, &inst->band_start_capacity, bands + 1) ||
        !reserve_u32(&inst->band_index, &inst->band_index_capacity, entries)) {
        if (fill) sw_pending_flush(inst);
        return false;
    }
    uint32_t *start = inst->band_start, *index = inst->band_index;
    memset(start, 0, (bands + 1) * sizeof *start);
    for (size_t i = 0; i < count; i++) {
        if (sw_box_empty(boxes[i].box)) continue;
        for (int32_t b = (boxes[i].box.y0 - y0) / rows; b <= (boxes[i].box.y1 - 1 - y0) / rows; b++)
            start[b + 1]++;
    }
    for (size_t b = 0; b < bands; b++) start[b + 1] += start[b];
    for (size_t i = 0; i < count; i++) {
        if (sw_box_empty(boxes[i].box)) continue;
        for (int32_t b = (boxes[i].box.y0 - y0) / rows; b <= (boxes[i].box.y1 - 1 - y0) / rows; b++)
            index[start[b]++] = (uint32_t)i;
    }
    /* start[b] is now the end of band b, the start of band b + 1 */

    /* The bands, on the band workers too when the run is worth sharing
       (software_workers.c): each band is drawn whole by one thread, in list
       order, so the pixels are the same. */
    bool worth_sharing = inst->threads_set ||
                         (int64_t)shown * SW_SPRITE_COST_NS + box_pixels * SW_PIXEL_COST_NS >= SW_SHARED_MIN_NS;
    sw_band_job job = { .sprites = sprites, .cut_lines = cut_lines, .index = index, .band_end = start, .bands = bands,
                        .y0 = y0, .y1 = y1, .rows = rows, .t = &t, .inst = inst, .fill = fill,
                        .shared = inst->threads > 1 && worth_sharing };
    sw_draw_bands(inst, &job);
    if (fill) inst->pending.active = false;
    inst->stats.fill_run_ops += solid;
    inst->stats.sprite_ops += shown - solid;
    return true;
}

void sw_sprite_draw_one_band(const sw_band_job *job, size_t b)
{
    sw_box band = { INT32_MIN, job->y0 + (int32_t)b * job->rows, INT32_MAX, job->y0 + (int32_t)(b + 1) * job->rows };
    if (band.y1 > job->y1) band.y1 = job->y1;
    if (job->fill) sw_pending_fill(job->inst, band);
    uint32_t from = b ? job->band_end[b - 1] : 0;
#if SW_FILL_HAS_AVX2
    if (job->t->avx2) {
        sw_sprite_draw_band_avx2(job->sprites, job->cut_lines, job->index, from, job->band_end[b], job->t, band);
        return;
    }
#endif
    sw_sprite_draw_band(job->sprites, job->cut_lines, job->index, from, job->band_end[b], job->t, band);
}

void sw_sprite_scratch_free(lk_backend_instance *inst)
{
    free(inst->sprites_run);
    free(inst->cut_lines_run);
    inst->cut_lines_run = NULL;
    free(inst->boxes_run);
    inst->boxes_run = NULL;
    free(inst->prepare_results);
    inst->prepare_results = NULL;
    free(inst->band_index);
    free(inst->band_start);
    inst->sprites_run = NULL;
    inst->band_index = inst->band_start = NULL;
    inst->sprites_capacity = inst->band_index_capacity = inst->band_start_capacity = 0;
}
