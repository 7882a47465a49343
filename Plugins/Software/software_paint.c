/*
 * Drawing one op into the current target.
 *
 * Two ways to cover pixels:
 *  - rect path: a shape that stays an axis-aligned rect in output space (no
 *    rotation, perspective or radius) splits into at most 9 boxes of constant
 *    coverage (an integer-aligned rect is one box). Each box is one
 *    pixman_image_composite32 call, with the coverage folded into the solid
 *    colour or a solid mask: what a hand-written pixman program does, and
 *    exact area coverage at fractional edges.
 *  - mask path: everything else is rasterized into an A8 coverage mask over
 *    its bounding box, multiplied by the clip mask and the image opacity, and
 *    composited through it.
 * All compositing is premultiplied OVER (ADD with LK_DL_FLAG_BLEND_ADD), into
 * the current target: the framebuffer or the innermost group's image.
 */
#include "software_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 0..1, with NaN as 0. */
float sw_unit(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

uint32_t sw_to_byte(float v) { return (uint32_t)lrintf(sw_unit(v) * 255.0f); }

static lk_dl_color scaled(lk_dl_color c, double f)
{
    lk_dl_color r = { (float)(c.r * f), (float)(c.g * f), (float)(c.b * f), (float)(c.a * f) };
    return r;
}

/* Quantised to 8 bits first: pixman truncates 16-bit colours to 8 bits, and
   rounding here keeps 50% at 128, not 127. Colour channels are clamped to
   alpha so the value stays a valid premultiplied one. */
static uint32_t quantise(lk_dl_color c)
{
    uint32_t a = sw_to_byte(c.a), r = sw_to_byte(c.r), g = sw_to_byte(c.g), b = sw_to_byte(c.b);
    if (r > a) r = a;
    if (g > a) g = a;
    if (b > a) b = a;
    return a << 24 | r << 16 | g << 8 | b;
}

static pixman_color_t pixman_color(uint32_t argb)
{
    pixman_color_t c;
    c.alpha = (uint16_t)((argb >> 24) * 257);
    c.red = (uint16_t)(((argb >> 16) & 0xff) * 257);
    c.green = (uint16_t)(((argb >> 8) & 0xff) * 257);
    c.blue = (uint16_t)((argb & 0xff) * 257);
    return c;
}

pixman_color_t sw_pixman_color(lk_dl_color premultiplied)
{
    return pixman_color(quantise(premultiplied));
}

/* The cached solid image of a premultiplied colour, quantised to 8 bits. */
pixman_image_t *sw_solid(lk_backend_instance *inst, lk_dl_color premultiplied)
{
    uint32_t argb = quantise(premultiplied);
    for (int i = 0; i < SW_SOLID_CACHE; i++)
        if (inst->solids[i].image && inst->solids[i].argb == argb) return inst->solids[i].image;
    pixman_color_t color = pixman_color(argb);
    pixman_image_t *image = pixman_image_create_solid_fill(&color);
    if (!image) return NULL;
    /* Round robin: a composite holds no reference beyond its own call. */
    sw_solid_entry *slot = &inst->solids[inst->next_solid];
    inst->next_solid = (inst->next_solid + 1) % SW_SOLID_CACHE;
    if (slot->image) pixman_image_unref(slot->image);
    slot->argb = argb;
    slot->image = image;
    return image;
}

void sw_solid_cache_free(lk_backend_instance *inst)
{
    for (int i = 0; i < SW_SOLID_CACHE; i++) {
        if (inst->solids[i].image) pixman_image_unref(inst->solids[i].image);
        inst->solids[i].image = NULL;
    }
}

static pixman_image_t *solid_alpha(lk_backend_instance *inst, double alpha)
{
    lk_dl_color c = { 0.0f, 0.0f, 0.0f, (float)alpha };
    return sw_solid(inst, c);
}

/* A zeroed A8 image over box in the instance's scratch storage (grown, never
   shrunk: the mask path reuses it op after op). */
static pixman_image_t *scratch_mask(lk_backend_instance *inst, sw_box box)
{
    int width = box.x1 - box.x0, height = box.y1 - box.y0;
    int stride = (width + 3) & ~3;
    size_t size = (size_t)stride * (size_t)height;
    if (size > inst->mask_capacity) {
        free(inst->mask_bits);
        inst->mask_bits = malloc(size);
        inst->mask_capacity = inst->mask_bits ? size : 0;
        if (!inst->mask_bits) return NULL;
    }
    memset(inst->mask_bits, 0, size);
    return pixman_image_create_bits(PIXMAN_a8, width, height, (uint32_t *)inst->mask_bits, stride);
}

/* ------------------------------------------------------------------------ */
/* Geometry of an op                                                         */

bool sw_op_shape(const lk_dl_op *op, sw_shape *s)
{
    if (!sw_homography_from_transform(op->transform, &s->h)) return false;
    double x = op->rect.x, y = op->rect.y, w = op->rect.width, h = op->rect.height;
    if (!isfinite(x) || !isfinite(y) || !isfinite(w) || !isfinite(h)) return false;
    if (w < 0) { x += w; w = -w; }
    if (h < 0) { y += h; h = -h; }
    s->rect.x0 = x; s->rect.x1 = x + w;
    s->rect.y0 = y; s->rect.y1 = y + h;
    if (!isfinite(s->rect.x1) || !isfinite(s->rect.y1)) return false;
    double r = op->corner_radius;
    s->radius = (isfinite(r) && r > 0.0) ? fmin(r, 0.5 * fmin(w, h)) : 0.0;
    return w > 0.0 && h > 0.0;
}

/* The output rect of shape's rect when its transform is axis-aligned (not
   necessarily finite), and the transform's y scale. */
static bool axis_aligned_rect(const sw_shape *s, sw_rect *out, double *scale_y)
{
    double sx, sy, tx, ty;
    if (!sw_homography_axis_aligned(&s->h, &sx, &sy, &tx, &ty)) return false;
    double ax = sx * s->rect.x0 + tx, bx = sx * s->rect.x1 + tx;
    double ay = sy * s->rect.y0 + ty, by = sy * s->rect.y1 + ty;
    out->x0 = fmin(ax, bx); out->x1 = fmax(ax, bx);
    out->y0 = fmin(ay, by); out->y1 = fmax(ay, by);
    *scale_y = sy;
    return true;
}

/* The shape's output rect when the transform keeps it an axis-aligned rect. */
static bool device_rect(const sw_shape *s, sw_rect *out)
{
    double sy;
    if (s->radius > 0.0 || !axis_aligned_rect(s, out, &sy)) return false;
    /* Non-finite here means the op is skipped: the pieces come out empty. */
    if (!isfinite(out->x0) || !isfinite(out->x1) || !isfinite(out->y0) || !isfinite(out->y1))
        out->x0 = out->x1 = out->y0 = out->y1 = 0.0;
    return true;
}

static sw_shape inset_shape(const sw_shape *s, double inset)
{
    sw_shape r = *s;
    r.rect.x0 += inset; r.rect.x1 -= inset;
    r.rect.y0 += inset; r.rect.y1 -= inset;
    r.radius = fmax(s->radius - inset, 0.0);
    return r;
}

static sw_box pieces_bounds(const sw_piece *pieces, int n)
{
    sw_box b = pieces[0].box;
    for (int i = 1; i < n; i++) {
        if (pieces[i].box.x0 < b.x0) b.x0 = pieces[i].box.x0;
        if (pieces[i].box.y0 < b.y0) b.y0 = pieces[i].box.y0;
        if (pieces[i].box.x1 > b.x1) b.x1 = pieces[i].box.x1;
        if (pieces[i].box.y1 > b.y1) b.y1 = pieces[i].box.y1;
    }
    return b;
}

/* Writes each piece's coverage into the A8 mask whose pixel (0,0) is output
   pixel (origin.x0, origin.y0): SRC sets it, OUT_REVERSE takes it away. */
static void fill_pieces(pixman_image_t *mask, sw_box origin, const sw_piece *pieces, int n,
                        pixman_op_t op)
{
    for (int i = 0; i < n; i++) {
        lk_dl_color c = { 0.0f, 0.0f, 0.0f, (float)pieces[i].coverage };
        pixman_color_t color = sw_pixman_color(c);
        pixman_box32_t b = { pieces[i].box.x0 - origin.x0, pieces[i].box.y0 - origin.y0,
                             pieces[i].box.x1 - origin.x0, pieces[i].box.y1 - origin.y0 };
        pixman_image_fill_boxes(op, mask, &color, 1, &b);
    }
}

/* ------------------------------------------------------------------------ */
/* Sources                                                                   */

/* What an op paints with: a solid colour, or an image placed by the
   homography image (pixel coordinates) -> output. */
typedef struct sw_paint {
    bool            is_image;
    lk_dl_color     color;       /* solid: premultiplied colour x opacity */
    pixman_image_t *image;
    sw_homography   placement;   /* image -> output */
    bool            nearest;
    float           opacity;     /* image */
    pixman_op_t     op;          /* OVER, or ADD for LK_DL_FLAG_BLEND_ADD */
    /* set by prepare_source */
    bool            projective;  /* composited in tiles, see composite_mask */
    sw_homography   inverse;     /* output -> image */
    int32_t         src_dx, src_dy;  /* source coordinates = output coordinates + d */
} sw_paint;

/* Tile side for images under perspective (see composite_mask). */
#define SW_PROJECTIVE_TILE 64

/* Sets the image's transform for drawing over area. The source's coordinate
   origin is put at the area's corner, so the matrix's translation stays the
   size of an image coordinate and fits pixman's 16.16 fixed point. */
static bool set_source_transform(sw_paint *p, sw_box area)
{
    sw_homography shift = { { { 1, 0, area.x0 }, { 0, 1, area.y0 }, { 0, 0, 1 } } };
    sw_homography t = sw_homography_multiply(&p->inverse, &shift);
    pixman_transform_t fixed;
    if (!sw_homography_to_pixman(&t, area.x1 - area.x0, area.y1 - area.y0, &fixed)) return false;
    pixman_image_set_transform(p->image, &fixed);
    p->src_dx = -area.x0;
    p->src_dy = -area.y0;
    return true;
}

/* Prepares p's image for drawing over box. An integer translation needs no
   transform at all: pixman's plain blits. */
static bool prepare_source(sw_paint *p, sw_box box)
{
    if (!p->is_image) { p->src_dx = p->src_dy = 0; return true; }
    double sx, sy, tx, ty;
    if (sw_homography_axis_aligned(&p->placement, &sx, &sy, &tx, &ty) &&
        fabs(sx - 1.0) < 1e-9 && fabs(sy - 1.0) < 1e-9 &&
        fabs(tx - nearbyint(tx)) < 1e-6 && fabs(ty - nearbyint(ty)) < 1e-6 &&
        fabs(tx) < SW_MAX_SIZE * 4.0 && fabs(ty) < SW_MAX_SIZE * 4.0) {
        pixman_image_set_transform(p->image, NULL);
        pixman_image_set_filter(p->image, PIXMAN_FILTER_NEAREST, NULL, 0);
        p->src_dx = -(int32_t)nearbyint(tx);
        p->src_dy = -(int32_t)nearbyint(ty);
        return true;
    }
    if (!sw_homography_invert(&p->placement, &p->inverse)) return false;
    pixman_image_set_filter(p->image, p->nearest ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR,
                            NULL, 0);
    p->projective = !sw_homography_is_affine(&p->placement);
    return p->projective || set_source_transform(p, box);
}

/* ------------------------------------------------------------------------ */
/* Compositing                                                               */

/* The rect path can composite each box straight onto the framebuffer unless
   an image needs both a clip mask and a coverage or opacity below 1: pixman
   takes one mask per call. */
static bool can_composite_pieces(const sw_paint *p, const sw_piece *pieces, int n,
                                 const sw_clip *clip)
{
    if (!clip->mask || !p->is_image) return true;
    for (int i = 0; i < n; i++)
        if (sw_to_byte((float)(pieces[i].coverage * p->opacity)) < 255) return false;
    return true;
}

static bool composite_pieces(lk_backend_instance *inst, const sw_paint *p,
                             const sw_piece *pieces, int n, const sw_clip *clip)
{
    for (int i = 0; i < n; i++) {
        sw_box b = pieces[i].box;
        pixman_image_t *src = p->image, *mask = NULL;
        if (!p->is_image) {
            src = sw_solid(inst, scaled(p->color, pieces[i].coverage));
            if (!src) return false;
        } else if (!clip->mask) {
            double alpha = pieces[i].coverage * p->opacity;
            if (sw_to_byte((float)alpha) < 255 && !(mask = solid_alpha(inst, alpha))) return false;
        }
        int32_t mx = 0, my = 0;
        if (clip->mask) {
            mask = clip->mask;
            mx = b.x0 - clip->mask_x;
            my = b.y0 - clip->mask_y;
        }
        pixman_image_composite32(p->op, src, mask, inst->target,
                                 b.x0 + p->src_dx, b.y0 + p->src_dy, mx, my,
                                 b.x0 - inst->target_x, b.y0 - inst->target_y,
                                 b.x1 - b.x0, b.y1 - b.y0);
    }
    inst->stats.rect_ops++;
    return true;
}

/* floor(v) as an integer, for v within int32 (no libm call: the SSE2 build
   has no rounding instruction to inline) */
static inline int32_t floor_i32(double v)
{
    int32_t t = (int32_t)v;
    return t - (v < (double)t);
}

/* Texel (x, y) of an a8r8g8b8 image, the edge repeated (PIXMAN_REPEAT_PAD). */
static inline uint32_t texel_pad(const uint32_t *bits, int32_t stride, int32_t w, int32_t h, int32_t x, int32_t y)
{
    x = x < 0 ? 0 : (x >= w ? w - 1 : x);
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    return bits[(size_t)y * (size_t)stride + (size_t)x];
}

/* pixman's bilinear_interpolation of four texels, weights wx, wy in 0..256:
   each channel is sum(texel x weight product) >> 16, the products
   summing below 2^24. Two channels a 64-bit multiply, 32 bits apart. */
static inline uint32_t bilinear_un8x4(uint32_t tl, uint32_t tr, uint32_t bl, uint32_t br, uint32_t wx, uint32_t wy)
{
    uint64_t wxy = (uint64_t)(wx * wy), wxiy = (uint64_t)((wx << 8) - wx * wy), wixy = (uint64_t)((wy << 8) - wx * wy);
    uint64_t wixiy = (uint64_t)(256 * 256 - (wy << 8) - (wx << 8) + wx * wy);
#define SW_SPREAD(c) ((uint64_t)((c) & 0x00ff00ffu) | ((uint64_t)((c) & 0xff00ff00u) << 24))
    uint64_t lo = (SW_SPREAD(tl) & 0x000000ff000000ffull) * wixiy + (SW_SPREAD(tr) & 0x000000ff000000ffull) * wxiy +
                  (SW_SPREAD(bl) & 0x000000ff000000ffull) * wixy + (SW_SPREAD(br) & 0x000000ff000000ffull) * wxy;
    uint64_t hi = ((SW_SPREAD(tl) >> 16) & 0x000000ff000000ffull) * wixiy +
                  ((SW_SPREAD(tr) >> 16) & 0x000000ff000000ffull) * wxiy +
                  ((SW_SPREAD(bl) >> 16) & 0x000000ff000000ffull) * wixy +
                  ((SW_SPREAD(br) >> 16) & 0x000000ff000000ffull) * wxy;
#undef SW_SPREAD
    /* spread, a texel is alpha at bits 48, green 32, red 16, blue 0: lo sums
       blue and green, 32 bits apart, hi red and alpha; each sum's bits 16
       to 23 are the channel */
    uint32_t b = (uint32_t)(lo >> 16) & 0xff, g = (uint32_t)(lo >> 48) & 0xff;
    uint32_t r = (uint32_t)(hi >> 16) & 0xff, a = (uint32_t)(hi >> 48) & 0xff;
    return a << 24 | r << 16 | g << 8 | b;
}

/* An image under perspective composited through mask (A8 over box): what
   pixman's general fetcher computes (the sample at each pixel centre
   mapped by p->inverse, edge texels repeated, bilinear with 7-bit weights
   or nearest; OVER or ADD through the mask), computed here because that
   fetcher divides the homogeneous X by W as unsigned
   (bits_image_fetch_general: ((uint64_t)x << 16) / w): a sample left of or
   above the image, as the layer's edge pixels take, lands at a garbage
   position, which the repeated edge turns into the opposite edge's
   texels (docs/rendering.md, "Images under perspective"). */
static void composite_projective(lk_backend_instance *inst, const sw_paint *p, pixman_image_t *mask, sw_box box)
{
    const uint32_t *bits = pixman_image_get_data(p->image);
    int32_t iw = pixman_image_get_width(p->image), ih = pixman_image_get_height(p->image);
    int32_t istride = pixman_image_get_stride(p->image) / 4;
    const uint8_t *m = (const uint8_t *)pixman_image_get_data(mask);
    size_t mstride = (size_t)pixman_image_get_stride(mask);
    uint32_t *target = pixman_image_get_data(inst->target);
    size_t tstride = (size_t)pixman_image_get_stride(inst->target) / 4;
    bool add = p->op == PIXMAN_OP_ADD;
    const double (*h)[3] = p->inverse.m;
    for (int32_t y = box.y0; y < box.y1; y++) {
        const uint8_t *mrow = m + (size_t)(y - box.y0) * mstride;
        uint32_t *drow = target + (size_t)(y - inst->target_y) * tstride;
        double X = box.x0 + 0.5, Y = y + 0.5;
        /* the homogeneous point, stepped along the row */
        double nu = h[0][0] * X + h[0][1] * Y + h[0][2], nv = h[1][0] * X + h[1][1] * Y + h[1][2];
        double nw = h[2][0] * X + h[2][1] * Y + h[2][2];
        for (int32_t x = box.x0; x < box.x1; x++, nu += h[0][0], nv += h[1][0], nw += h[2][0]) {
            uint32_t a = mrow[x - box.x0];
            if (!a) continue;
            double u = nu / nw, v = nv / nw;
            /* (a pixel at the horizon maps nowhere; beyond any image, as far
               as fixed point goes, the edge repeats) */
            if (!(fabs(u) < 32767.0) || !(fabs(v) < 32767.0)) {
                if (!isfinite(u) || !isfinite(v)) continue;
                u = fmin(fmax(u, -32767.0), 32767.0);
                v = fmin(fmax(v, -32767.0), 32767.0);
            }
            int32_t fu = floor_i32(u * 65536.0 + 0.5), fv = floor_i32(v * 65536.0 + 0.5);
            uint32_t src;
            if (p->nearest) {
                /* pixman: the texel holding the point, ties to the left/top */
                src = texel_pad(bits, istride, iw, ih, (fu - 1) >> 16, (fv - 1) >> 16);
            } else {
                int32_t x1 = fu - 0x8000, y1 = fv - 0x8000;
                uint32_t dx = (uint32_t)(x1 >> 9) & 0x7f, dy = (uint32_t)(y1 >> 9) & 0x7f;
                int32_t tx = x1 >> 16, ty = y1 >> 16;
                uint32_t tl, tr, bl, br;
                if (tx >= 0 && ty >= 0 && tx + 1 < iw && ty + 1 < ih) {
                    const uint32_t *r0 = bits + (size_t)ty * (size_t)istride + (size_t)tx, *r1 = r0 + istride;
                    tl = r0[0]; tr = r0[1]; bl = r1[0]; br = r1[1];
                } else {
                    tl = texel_pad(bits, istride, iw, ih, tx, ty);
                    tr = texel_pad(bits, istride, iw, ih, tx + 1, ty);
                    bl = texel_pad(bits, istride, iw, ih, tx, ty + 1);
                    br = texel_pad(bits, istride, iw, ih, tx + 1, ty + 1);
                }
                /* pixman's bilinear_interpolation: the weights in 8 bits */
                src = bilinear_un8x4(tl, tr, bl, br, dx << 1, dy << 1);
            }
            if (!src) continue;
            uint32_t d = drow[x - inst->target_x];
            uint32_t s = a == 255 ? src : mul_un8x4(src, a);
            /* OVER: s + d x (255 - alpha of s); ADD: s + d; each channel
               at most 255 */
            drow[x - inst->target_x] = add_un8x4(s, add ? d : mul_un8x4(d, 255 - (s >> 24)));
        }
    }
}

/* Composites p through mask (A8 over box, consumed) after multiplying in the
   clip mask and the image opacity. */
static bool composite_mask(lk_backend_instance *inst, sw_paint *p, pixman_image_t *mask,
                           sw_box box, const sw_clip *clip)
{
    int w = box.x1 - box.x0, h = box.y1 - box.y0;
    bool ok = true;
    if (clip->mask)
        pixman_image_composite32(PIXMAN_OP_IN, clip->mask, NULL, mask, box.x0 - clip->mask_x,
                                 box.y0 - clip->mask_y, 0, 0, 0, 0, w, h);
    pixman_image_t *src = p->image;
    if (p->is_image) {
        if (sw_to_byte(p->opacity) < 255) {
            pixman_image_t *alpha = solid_alpha(inst, p->opacity);
            if (alpha)
                pixman_image_composite32(PIXMAN_OP_IN, alpha, NULL, mask, 0, 0, 0, 0, 0, 0, w, h);
            else
                ok = false;
        }
    } else if (!(src = sw_solid(inst, p->color))) {
        ok = false;
    }
    pixman_format_code_t format = pixman_image_get_format(inst->target);
    /* (bits images only: a gradient source has no texels and its own fetcher) */
    if (ok && p->projective && p->is_image && pixman_image_get_data(p->image) &&
        pixman_image_get_format(p->image) == PIXMAN_a8r8g8b8 &&
        (format == PIXMAN_a8r8g8b8 || format == PIXMAN_x8r8g8b8)) {
        composite_projective(inst, p, mask, box);
    } else if (ok && p->projective) {
        /* Under perspective the precision of pixman's fixed-point transform
           falls with the size of the area it spans, so each tile gets its
           own matrix (set_source_transform). */
        for (int32_t y = box.y0; y < box.y1; y += SW_PROJECTIVE_TILE) {
            for (int32_t x = box.x0; x < box.x1; x += SW_PROJECTIVE_TILE) {
                sw_box t = { x, y, x + SW_PROJECTIVE_TILE, y + SW_PROJECTIVE_TILE };
                t = sw_box_intersect(t, box);
                if (!set_source_transform(p, t)) continue;
                pixman_image_composite32(p->op, src, mask, inst->target, 0, 0,
                                         t.x0 - box.x0, t.y0 - box.y0, t.x0 - inst->target_x,
                                         t.y0 - inst->target_y, t.x1 - t.x0, t.y1 - t.y0);
            }
        }
    } else if (ok) {
        pixman_image_composite32(p->op, src, mask, inst->target, box.x0 + p->src_dx,
                                 box.y0 + p->src_dy, 0, 0, box.x0 - inst->target_x,
                                 box.y0 - inst->target_y, w, h);
    }
    pixman_image_unref(mask);
    inst->stats.mask_ops++;
    return ok;
}

/* v clamped to [0, max], as an integer. */
static int32_t clamp_int(double v, uint32_t max)
{
    return v <= 0.0 ? 0 : v >= (double)max ? (int32_t)max : (int32_t)v;
}

static bool skip(lk_backend_instance *inst)
{
    inst->stats.skipped_ops++;
    return true;
}

/* Composites pieces of a device rect (sw_rect_pieces) with p, minus holes
   (a border's inside) when nh > 0. */
static bool draw_pieces(lk_backend_instance *inst, sw_paint *p, const sw_piece *pieces, int n,
                        const sw_piece *holes, int nh, const sw_clip *clip)
{
    sw_box box = pieces_bounds(pieces, n);
    if (!prepare_source(p, box)) return skip(inst);
    if (nh == 0 && can_composite_pieces(p, pieces, n, clip))
        return composite_pieces(inst, p, pieces, n, clip);
    if (nh == 1 && n == 1 && holes[0].coverage == 1.0 && pieces[0].coverage == 1.0) {
        /* A pixel-aligned frame: four boxes around the hole. */
        sw_box o = pieces[0].box, i = holes[0].box;
        sw_piece frame[4] = {
            { { o.x0, o.y0, o.x1, i.y0 }, 1.0 }, { { o.x0, i.y1, o.x1, o.y1 }, 1.0 },
            { { o.x0, i.y0, i.x0, i.y1 }, 1.0 }, { { i.x1, i.y0, o.x1, i.y1 }, 1.0 },
        };
        int count = 0;
        for (int k = 0; k < 4; k++)
            if (!sw_box_empty(frame[k].box)) frame[count++] = frame[k];
        if (count == 0) return skip(inst);
        if (can_composite_pieces(p, frame, count, clip))
            return composite_pieces(inst, p, frame, count, clip);
    }
    pixman_image_t *mask = scratch_mask(inst, box);
    if (!mask) return false;
    fill_pieces(mask, box, pieces, n, PIXMAN_OP_SRC);
    /* the hole's area taken away, max(outer - inner, 0): the border's own
       area where both of its edges cross a pixel (OUT_REVERSE's outer x
       (1 - inner) put nearly twice the ink into a 0.1-pixel border) */
    fill_pieces(mask, box, holes, nh, PIXMAN_OP_CONJOINT_OUT_REVERSE);
    return composite_mask(inst, p, mask, box, clip);
}

/* Everything any target holds: the output grown by the group margin. */
sw_box sw_space_box(const lk_backend_instance *inst)
{
    sw_box space = { -SW_GROUP_MARGIN, -SW_GROUP_MARGIN,
                     pixman_image_get_width(inst->framebuffer) + SW_GROUP_MARGIN,
                     pixman_image_get_height(inst->framebuffer) + SW_GROUP_MARGIN };
    return space;
}

/* shape's device polygon into r->polygon, cut to sw_space_box and never to
   a clip or damage box (the coverage is worked out from the polygon's
   bounds, *bounds, so that no box changes a pixel: S6.4); *box is the part
   of the bounds inside limit. Returns the point count (0: nothing). */
static int space_polygon(lk_backend_instance *inst, const sw_shape *shape, sw_box limit,
                         sw_box *bounds, sw_box *box)
{
    sw_box space = sw_space_box(inst);
    int n = sw_shape_polygon(inst->raster, shape, space);
    *bounds = sw_polygon_bounds(inst->raster->polygon, n, space);
    *box = sw_box_intersect(*bounds, limit);
    return n;
}

/* Draws the part of shape (minus hole) inside limit through a coverage
   mask of its outline; *drawn tells whether any of it was there. */
static bool draw_polygon(lk_backend_instance *inst, sw_paint *p, const sw_shape *shape,
                         const sw_shape *hole, bool antialias, sw_box limit, const sw_clip *clip,
                         bool *drawn)
{
    *drawn = false;
    sw_raster_scratch *r = inst->raster;
    sw_box bounds, box;
    if (sw_box_empty(limit)) return true;
    int n = space_polygon(inst, shape, limit, &bounds, &box);
    if (n == 0 || sw_box_empty(box) || !prepare_source(p, box)) return true;
    *drawn = true;
    pixman_image_t *mask = scratch_mask(inst, box);
    if (!mask) return false;
    sw_rasterize_polygon(r, mask, box, bounds, r->polygon, n, antialias, false, inst->white);
    if (hole) {
        sw_box hole_bounds, hole_box;
        int nh = space_polygon(inst, hole, box, &hole_bounds, &hole_box);
        if (nh > 0 && !sw_box_empty(hole_box))
            sw_rasterize_polygon(r, mask, box, hole_bounds, r->polygon, nh, antialias, true, inst->white);
    }
    return composite_mask(inst, p, mask, box, clip);
}

/* Below this many pixels in its middle band a shape goes through one mask
   as before: the bands' more composites and outlines cost more than the
   mask they save (measured: opaque 64x64 fills with a radius of 12, 0.89
   ms for 100 through one mask, 1.05 ms in bands; 128x128 the same either
   way; 256x256, 3.1 ms against 2.1). */
#define SW_BANDS_MIN_PIXELS 8192.0

/* The device rect of a shape under an axis-aligned transform, and its
   corners' height in output rows; false when not finite. */
static bool axis_aligned_device(const sw_shape *s, sw_rect *out, double *corner_rows)
{
    double sy;
    if (!axis_aligned_rect(s, out, &sy)) return false;
    *corner_rows = s->radius * fabs(sy);
    return isfinite(out->x0) && isfinite(out->x1) && isfinite(out->y0) && isfinite(out->y1) &&
           isfinite(*corner_rows);
}

/* The part of shape (minus hole) inside limit: through rect pieces when
   neither is rounded (the rect path's own coverage), else its outline. */
static bool draw_band(lk_backend_instance *inst, sw_paint *p, const sw_shape *shape, const sw_shape *hole,
                      const sw_rect *outer, const sw_rect *inner, bool antialias, sw_box limit,
                      const sw_clip *clip, bool *drawn)
{
    if (shape->radius > 0.0 || (hole && hole->radius > 0.0))
        return draw_polygon(inst, p, shape, hole, antialias, limit, clip, drawn);
    sw_piece pieces[9], holes[9];
    int n = sw_rect_pieces(*outer, antialias, limit, pieces);
    *drawn = n > 0;
    if (n == 0) return true;
    int nh = hole ? sw_rect_pieces(*inner, antialias, pieces_bounds(pieces, n), holes) : 0;
    return draw_pieces(inst, p, pieces, n, holes, nh, clip);
}

/* An axis-aligned shape (a rounded fill, a border, rounded or not) in three
   bands of rows: the rows its top corners (or top side, for a border)
   reach and those its bottom ones reach as before, through a coverage
   mask of their own, and the whole rows between as plain rects (no mask
   to fill and read): the fill's rect, or the border's left and right
   sides. Between the bands the outline and the hole's are straight
   sides, so each pixel gets its area inside the shape as the one mask
   would give it (the rect path rounds colour x coverage where the mask
   path rounds coverage, so an edge pixel may differ by a level or two).
   A card of 256 pixels with a radius of 24 is four fifths plain rows; a
   border of 2 pixels around it, a fiftieth. Sets *handled to false,
   drawing nothing, when the shape is not axis-aligned, its middle band is
   too small, or a border's two sides would share a column. */
static bool draw_in_bands(lk_backend_instance *inst, sw_paint *p, const sw_shape *shape, const sw_shape *hole,
                          bool antialias, const sw_clip *clip, bool *handled)
{
    *handled = false;
    sw_rect device, inner = { 0, 0, 0, 0 };
    double reach, inner_reach = 0.0;
    if (!axis_aligned_device(shape, &device, &reach)) return true;
    if (hole && !axis_aligned_device(hole, &inner, &inner_reach)) return true;
    /* whole rows where the outline (and the hole's) are straight sides */
    double top = ceil(device.y0 + reach), bottom = floor(device.y1 - reach);
    if (hole) {
        top = fmax(top, ceil(inner.y0 + inner_reach));
        bottom = fmin(bottom, floor(inner.y1 - inner_reach));
        if (!(ceil(inner.x0) <= floor(inner.x1))) return true;   /* the sides would share a column */
    }
    /* Decided on the whole shape, not on the part in the clip: a damage
       box must not change how a pixel is drawn (S6.4). */
    if (!(bottom > top) || !((bottom - top) * (device.x1 - device.x0) >= SW_BANDS_MIN_PIXELS)) return true;
    *handled = true;
    const sw_box c = clip->box;
    /* the middle rows within the clip (as ints only once inside it) */
    int32_t mid0 = (int32_t)fmin(fmax(top, (double)c.y0), (double)c.y1);
    int32_t mid1 = (int32_t)fmin(fmax(bottom, (double)c.y0), (double)c.y1);
    sw_box upper = { c.x0, c.y0, c.x1, mid0 }, lower = { c.x0, mid1, c.x1, c.y1 };
    sw_box rows = { c.x0, mid0, c.x1, mid1 };
    bool ok = true, drawn_upper = false, drawn_lower = false, drawn_middle = false;
    if (!sw_box_empty(upper))
        ok &= draw_band(inst, p, shape, hole, &device, &inner, antialias, upper, clip, &drawn_upper);
    /* the middle: the fill's rect, or the border's two sides */
    sw_rect sides[2] = { { device.x0, top, device.x1, bottom }, { 0, 0, 0, 0 } };
    int count = 1;
    if (hole) {
        sides[0].x1 = inner.x0;
        sides[1] = (sw_rect){ inner.x1, top, device.x1, bottom };
        count = 2;
    }
    for (int i = 0; i < count; i++) {
        sw_piece pieces[9];
        int n = sw_rect_pieces(sides[i], antialias, rows, pieces);
        if (n > 0) {
            ok &= draw_pieces(inst, p, pieces, n, NULL, 0, clip);
            drawn_middle = true;
        }
    }
    if (!sw_box_empty(lower))
        ok &= draw_band(inst, p, shape, hole, &device, &inner, antialias, lower, clip, &drawn_lower);
    if (!drawn_upper && !drawn_middle && !drawn_lower) return skip(inst);
    return ok;
}

/* Draws shape with p, minus hole when given (a border's inside). */
static bool draw_shape(lk_backend_instance *inst, sw_paint *p, const sw_shape *shape,
                       const sw_shape *hole, bool antialias, const sw_clip *clip)
{
    sw_rect outer, inner;
    bool handled, ok;
    if (device_rect(shape, &outer) && (!hole || device_rect(hole, &inner))) {
        sw_piece pieces[9], holes[9];
        int n = sw_rect_pieces(outer, antialias, clip->box, pieces);
        if (n == 0) return skip(inst);
        int nh = hole ? sw_rect_pieces(inner, antialias, pieces_bounds(pieces, n), holes) : 0;
        bool frame = nh == 1 && n == 1 && holes[0].coverage == 1.0 && pieces[0].coverage == 1.0;
        if (nh > 0 && !frame) {
            /* a border whose inside is not pixel-aligned: in bands when large */
            ok = draw_in_bands(inst, p, shape, hole, antialias, clip, &handled);
            if (handled) return ok;
        }
        return draw_pieces(inst, p, pieces, n, holes, nh, clip);
    }
    if (shape->radius > 0.0 || hole) {
        ok = draw_in_bands(inst, p, shape, hole, antialias, clip, &handled);
        if (handled) return ok;
    }
    bool drawn;
    ok = draw_polygon(inst, p, shape, hole, antialias, clip->box, clip, &drawn);
    return drawn ? ok : skip(inst);
}

/* ------------------------------------------------------------------------ */
/* Ops                                                                       */

bool sw_paint_fill(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *clip)
{
    sw_shape shape;
    float opacity = sw_unit(op->opacity);
    if (sw_box_empty(clip->box) || !sw_op_shape(op, &shape) || sw_to_byte(opacity * op->color.a) == 0)
        return skip(inst);
    sw_paint p;
    memset(&p, 0, sizeof p);
    p.op = (op->flags & LK_DL_FLAG_BLEND_ADD) ? PIXMAN_OP_ADD : PIXMAN_OP_OVER;
    p.color = scaled(op->color, opacity);
    return draw_shape(inst, &p, &shape, NULL, (op->flags & LK_DL_FLAG_ANTIALIAS) != 0, clip);
}

bool sw_paint_border(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *clip)
{
    sw_shape shape;
    float opacity = sw_unit(op->opacity);
    double width = op->border_width;
    if (sw_box_empty(clip->box) || !sw_op_shape(op, &shape) || sw_to_byte(opacity * op->color.a) == 0 ||
        !isfinite(width) || !(width > 0.0))
        return skip(inst);
    sw_paint p;
    memset(&p, 0, sizeof p);
    p.op = (op->flags & LK_DL_FLAG_BLEND_ADD) ? PIXMAN_OP_ADD : PIXMAN_OP_OVER;
    p.color = scaled(op->color, opacity);
    /* A band as wide as half the smaller side leaves no inside. */
    double half = 0.5 * fmin(shape.rect.x1 - shape.rect.x0, shape.rect.y1 - shape.rect.y0);
    sw_shape hole = inset_shape(&shape, width);
    return draw_shape(inst, &p, &shape, width < half ? &hole : NULL,
                      (op->flags & LK_DL_FLAG_ANTIALIAS) != 0, clip);
}

bool sw_image_geometry(const lk_dl_op *op, sw_shape *shape, sw_box *texels, sw_homography *image_to_output)
{
    const lk_dl_image *img = op->image;
    const lk_dl_rect src = op->source;
    if (img->width == 0 || img->height == 0 || sw_to_byte(sw_unit(op->opacity)) == 0 ||
        !sw_op_shape(op, shape) || !isfinite(src.x) || !isfinite(src.y) ||
        !isfinite(src.width) || !isfinite(src.height) || src.width == 0.0 || src.height == 0.0)
        return false;
    shape->radius = 0.0;   /* rounded contents come as a clip */

    /* Sample only the pixels under the source rect (rounded out to whole
       pixels): with PAD repeat, bilinear filtering at its edge then repeats
       the edge instead of bleeding in the neighbouring slice of the image. */
    double sx0 = fmin(src.x, src.x + src.width), sx1 = fmax(src.x, src.x + src.width);
    double sy0 = fmin(src.y, src.y + src.height), sy1 = fmax(src.y, src.y + src.height);
    texels->x0 = clamp_int(floor(sx0), img->width);
    texels->x1 = clamp_int(ceil(sx1), img->width);
    texels->y0 = clamp_int(floor(sy0), img->height);
    texels->y1 = clamp_int(ceil(sy1), img->height);
    if (sw_box_empty(*texels)) return false;
    /* Image pixel (u, v) lies at local rect.origin + (u - source.origin) * rect.size / source.size. */
    double ax = op->rect.width / src.width, ay = op->rect.height / src.height;
    sw_homography image_to_local = { { { ax, 0, op->rect.x - src.x * ax },
                                       { 0, ay, op->rect.y - src.y * ay },
                                       { 0, 0, 1 } } };
    *image_to_output = sw_homography_multiply(&shape->h, &image_to_local);
    return true;
}

bool sw_paint_image(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *clip)
{
    const lk_dl_image *img = op->image;
    const lk_dl_rect src = op->source;
    sw_shape shape;
    sw_box texels;
    sw_homography image_to_output;
    float opacity = sw_unit(op->opacity);
    if (sw_box_empty(clip->box) || !sw_image_geometry(op, &shape, &texels, &image_to_output))
        return skip(inst);
    int32_t ix0 = texels.x0, ix1 = texels.x1, iy0 = texels.y0, iy1 = texels.y1;
    pixman_image_t *image = sw_image_lookup(inst, img), *sub = NULL;
    if (!image) return false;
    if (ix0 != 0 || iy0 != 0 || ix1 != (int32_t)img->width || iy1 != (int32_t)img->height) {
        const uint8_t *pixels = (const uint8_t *)img->pixels + (size_t)iy0 * img->stride + (size_t)ix0 * 4;
        sub = pixman_image_create_bits(PIXMAN_a8r8g8b8, ix1 - ix0, iy1 - iy0,
                                       (uint32_t *)pixels, (int)img->stride);
        if (!sub) return false;
        pixman_image_set_repeat(sub, PIXMAN_REPEAT_PAD);
        image = sub;
    }

    /* ABI 3, TINT: the sampled pixels times the premultiplied tint,
       component-wise. A solid mask with component alpha multiplies each
       channel in one SRC pass into a copy of the source pixels; the copy is
       then drawn as any image (compositing through a component-alpha mask
       would darken the destination per channel instead of by the alpha). */
    pixman_image_t *tinted = NULL;
    if (op->flags & LK_DL_FLAG_TINT) {
        tinted = pixman_image_create_bits(PIXMAN_a8r8g8b8, ix1 - ix0, iy1 - iy0, NULL, 0);
        pixman_color_t tc = sw_pixman_color(op->tint);
        pixman_image_t *tint = pixman_image_create_solid_fill(&tc);
        if (!tinted || !tint) {
            if (tinted) pixman_image_unref(tinted);
            if (tint) pixman_image_unref(tint);
            if (sub) pixman_image_unref(sub);
            return false;
        }
        pixman_image_set_component_alpha(tint, 1);
        /* A cached image keeps the transform of its last draw. */
        pixman_image_set_transform(image, NULL);
        pixman_image_set_filter(image, PIXMAN_FILTER_NEAREST, NULL, 0);
        pixman_image_composite32(PIXMAN_OP_SRC, image, tint, tinted, sub ? 0 : ix0, sub ? 0 : iy0, 0, 0,
                                 0, 0, ix1 - ix0, iy1 - iy0);
        pixman_image_unref(tint);
        pixman_image_set_repeat(tinted, PIXMAN_REPEAT_PAD);
        if (sub) pixman_image_unref(sub);
        sub = tinted;
        image = tinted;
    }

    /* Image pixel (u, v) of the sub-image lies at local
       rect.origin + (u + ix0 - source.origin) * rect.size / source.size. */
    double ax = op->rect.width / src.width, ay = op->rect.height / src.height;
    sw_homography local = { { { ax, 0, op->rect.x + (ix0 - src.x) * ax },
                              { 0, ay, op->rect.y + (iy0 - src.y) * ay },
                              { 0, 0, 1 } } };
    sw_paint p;
    memset(&p, 0, sizeof p);
    p.op = (op->flags & LK_DL_FLAG_BLEND_ADD) ? PIXMAN_OP_ADD : PIXMAN_OP_OVER;
    p.is_image = true;
    p.image = image;
    p.placement = sw_homography_multiply(&shape.h, &local);
    p.nearest = (op->flags & LK_DL_FLAG_FILTER_NEAREST) != 0;
    p.opacity = opacity;
    bool ok = draw_shape(inst, &p, &shape, NULL, (op->flags & LK_DL_FLAG_ANTIALIAS) != 0, clip);
    if (sub) pixman_image_unref(sub);
    return ok;
}

/* The op's device bounding box within the output (its h affine), or an
   empty box. */
static sw_box output_box(const lk_backend_instance *inst, const sw_shape *shape)
{
    double b[4];
    sw_box box = { 0, 0, 0, 0 };
    if (!sw_device_bounds(shape, b)) return box;
    box.x0 = clamp_int(floor(b[0]), inst->width);
    box.y0 = clamp_int(floor(b[1]), inst->height);
    box.x1 = clamp_int(ceil(b[2]), inst->width);
    box.y1 = clamp_int(ceil(b[3]), inst->height);
    return box;
}

/* Draws op with p from the gradient cache (software_gradient_cache.c): its
   source (p's image, placed by p's placement) evaluated over the op's box
   of the output once, then drawn from there. *used is false, nothing
   drawn, when the op is not for the cache: not affine (or behind the eye),
   a clip reaching beyond the output, no room. */
static bool paint_from_cache(lk_backend_instance *inst, const lk_dl_op *op, const sw_paint *p,
                             const sw_shape *shape, const sw_clip *clip, bool *used)
{
    *used = false;
    const sw_box c = clip->box;
    /* (the placement is the op's transform after an affine map: affine with
       it; w <= 0 is behind the eye, nothing to draw) */
    if (!sw_homography_is_affine(&shape->h) || !(shape->h.m[2][2] > 0.0) || c.x0 < 0 || c.y0 < 0 ||
        c.x1 > (int32_t)inst->width || c.y1 > (int32_t)inst->height)
        return true;
    sw_box box = output_box(inst, shape);
    if (sw_box_empty(box)) return true;
    sw_gradient_entry *e = sw_gradient_cache_find(inst, op, box);
    if (!e) {
        if (!(e = sw_gradient_cache_slot(inst, op, box))) return true;
        sw_paint eval = *p;
        if (!prepare_source(&eval, box)) {
            sw_gradient_cache_drop(e);
            return true;
        }
        pixman_image_composite32(PIXMAN_OP_SRC, eval.image, NULL, e->image, box.x0 + eval.src_dx,
                                 box.y0 + eval.src_dy, 0, 0, 0, 0, box.x1 - box.x0, box.y1 - box.y0);
        inst->stats.gradients_rendered++;
    }
    *used = true;
    inst->stats.gradients_cached++;
    sw_paint cached = *p;
    cached.image = e->image;
    cached.nearest = true;
    sw_homography at = { { { 1, 0, box.x0 }, { 0, 1, box.y0 }, { 0, 0, 1 } } };
    cached.placement = at;
    return draw_shape(inst, &cached, shape, NULL, (op->flags & LK_DL_FLAG_ANTIALIAS) != 0, clip);
}

bool sw_paint_source(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *clip,
                     pixman_image_t *source, const sw_homography *source_to_local, lk_dl_color color)
{
    sw_shape shape;
    float opacity = sw_unit(op->opacity);
    if (sw_box_empty(clip->box) || !sw_op_shape(op, &shape) || sw_to_byte(opacity) == 0) return skip(inst);
    sw_paint p;
    memset(&p, 0, sizeof p);
    p.op = (op->flags & LK_DL_FLAG_BLEND_ADD) ? PIXMAN_OP_ADD : PIXMAN_OP_OVER;
    if (source) {
        p.is_image = true;
        p.image = source;
        p.placement = sw_homography_multiply(&shape.h, source_to_local);
        p.opacity = opacity;
        if (op->kind == LK_DL_OP_GRADIENT) {
            bool used;
            bool ok = paint_from_cache(inst, op, &p, &shape, clip, &used);
            if (used) return ok;
        }
    } else {
        if (sw_to_byte(opacity * color.a) == 0) return skip(inst);
        p.color = scaled(color, opacity);
    }
    return draw_shape(inst, &p, &shape, NULL, (op->flags & LK_DL_FLAG_ANTIALIAS) != 0, clip);
}

bool sw_paint_clip(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *parent,
                   sw_clip *out)
{
    *out = *parent;
    out->owns_mask = false;
    /* A clip that cannot be evaluated (not finite, empty) hides what it clips. */
    out->box.x1 = out->box.x0;
    out->box.y1 = out->box.y0;

    sw_shape shape;
    if (sw_box_empty(parent->box) || !sw_op_shape(op, &shape)) return true;
    bool antialias = (op->flags & LK_DL_FLAG_ANTIALIAS) != 0;
    sw_rect rect;
    sw_piece pieces[9];
    pixman_image_t *mask;
    sw_box box;
    if (device_rect(&shape, &rect)) {
        int n = sw_rect_pieces(rect, antialias, parent->box, pieces);
        if (n == 0) return true;
        box = pieces_bounds(pieces, n);
        if (n == 1 && pieces[0].coverage == 1.0) {
            /* The common case: a pixel-aligned rect only narrows the box. */
            out->box = box;
            inst->stats.rect_clips++;
            return true;
        }
        if (!(mask = pixman_image_create_bits(PIXMAN_a8, box.x1 - box.x0, box.y1 - box.y0, NULL, 0)))
            return false;
        fill_pieces(mask, box, pieces, n, PIXMAN_OP_SRC);
    } else {
        sw_raster_scratch *r = inst->raster;
        sw_box bounds;
        int n = space_polygon(inst, &shape, parent->box, &bounds, &box);
        if (n == 0 || sw_box_empty(box)) return true;
        if (!(mask = pixman_image_create_bits(PIXMAN_a8, box.x1 - box.x0, box.y1 - box.y0, NULL, 0)))
            return false;
        sw_rasterize_polygon(r, mask, box, bounds, r->polygon, n, antialias, false, inst->white);
    }
    if (parent->mask)
        pixman_image_composite32(PIXMAN_OP_IN, parent->mask, NULL, mask, box.x0 - parent->mask_x,
                                 box.y0 - parent->mask_y, 0, 0, 0, 0, box.x1 - box.x0,
                                 box.y1 - box.y0);
    out->box = box;
    out->mask = mask;
    out->mask_x = box.x0;
    out->mask_y = box.y0;
    out->owns_mask = true;
    inst->stats.mask_clips++;
    return true;
}
