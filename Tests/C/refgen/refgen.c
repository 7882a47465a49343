/*
 * refgen: draws the pixel tests' 2D scenes (Tests/C/support/lkt_scenes.c)
 * with cairo, independently of LayerKit, and writes the reference images
 * <out-dir>/<scene>.png. See README.md.
 *
 * The layer model is Core Animation's, restated here for cairo:
 *   - a layer maps its bounds coordinates to its superlayer's by
 *       p -> (p - bounds.origin - anchorPoint * bounds.size) * transform + position
 *     (the root's superlayer space is the display's pixels, cleared to
 *     opaque black: S1.0);
 *   - its sublayers are further transformed by sublayerTransform about the
 *     layer's anchor point, which in its own coordinates is
 *     bounds.origin + anchorPoint * bounds.size (S1.4);
 *   - back to front: background colour (rounded by cornerRadius), contents
 *     (placed by contentsGravity, part chosen by contentsRect, natural size
 *     divided by contentsScale, filtered bilinearly with clamped edges),
 *     sublayers (stable-sorted by zPosition; clipped to the rounded bounds if
 *     masksToBounds, as are the contents), then the border inside the bounds
 *     (outer radius cornerRadius, inner radius cornerRadius - borderWidth)
 *     (S6.1);
 *   - opacity multiplies down the tree; a layer with opacity below 1 whose
 *     parts overlap (sublayers, or two of background, contents, border) is
 *     drawn as one group faded as a whole unless allowsGroupOpacity is off,
 *     in which case every drawing operation is blended on its own with the
 *     accumulated opacity (also under a mask or a shadow, which then only
 *     mask or cast); hidden layers draw nothing with their subtrees;
 *   - the shadow goes first: the alpha of what the layer draws (or of its
 *     shadowPath) blurred by a Gaussian of sigma = shadowRadius (sampled at
 *     pixel centres, cut at 4 sigma, normalised: a plain implementation,
 *     not LayerKit's pixel-integrated kernel), offset by shadowOffset in the
 *     superlayer's space, tinted by shadowColor x shadowOpacity x opacity,
 *     clipped by the layer's own masksToBounds;
 *   - a mask layer is drawn in the masked layer's bounds space and its
 *     alpha multiplies everything the layer draws, shadow included;
 *   - contentsCenter splits the contents (the part contentsRect selects)
 *     into nine slices: corners at natural size (shrunk in proportion when
 *     the layer is too small), edges and centre stretched, each slice
 *     filtered only from its own pixels.
 */
#include "lkt_scenes.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static void rounded_rect(cairo_t *cr, double x, double y, double w, double h, double r)
{
    double limit = (w < h ? w : h) / 2;
    if (r > limit) r = limit;
    if (r <= 0) {
        cairo_rectangle(cr, x, y, w, h);
        return;
    }
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, PI / 2, PI);
    cairo_arc(cr, x + r, y + r, r, PI, 3 * PI / 2);
    cairo_close_path(cr);
}

static void apply_affine(cairo_t *cr, lkt_affine2 t)
{
    cairo_matrix_t m;
    cairo_matrix_init(&m, t.a, t.b, t.c, t.d, t.tx, t.ty);
    cairo_transform(cr, &m);
}

static cairo_surface_t *image_surface(const lkt_scene_image *im)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)im->width,
                                                    (int)im->height);
    unsigned char *data;
    int stride;
    uint32_t x, y;
    cairo_surface_flush(s);
    data = cairo_image_surface_get_data(s);
    stride = cairo_image_surface_get_stride(s);
    for (y = 0; y < im->height; y++) {
        uint32_t *row = (uint32_t *)(data + (size_t)y * (size_t)stride);
        for (x = 0; x < im->width; x++) {
            const uint8_t *p = im->rgba + ((size_t)y * im->width + x) * 4;
            uint32_t a = p[3];
            uint32_t r = (p[0] * a + 127) / 255, g = (p[1] * a + 127) / 255,
                     b = (p[2] * a + 127) / 255;
            row[x] = (a << 24) | (r << 16) | (g << 8) | b;
        }
    }
    cairo_surface_mark_dirty(s);
    return s;
}

/* Where contents go in the layer's bounds (relative to the bounds' top left). */
static void gravity_rect(const lkt_scene_layer *l, const lkt_scene_image *im, double out[4])
{
    double W = l->bounds[2], H = l->bounds[3];
    double w = im->width * l->contents_rect[2] / l->contents_scale;
    double h = im->height * l->contents_rect[3] / l->contents_scale;
    double s;
    switch (l->gravity) {
    case LKT_GRAVITY_RESIZE:
        w = W;
        h = H;
        out[0] = 0;
        out[1] = 0;
        break;
    case LKT_GRAVITY_RESIZE_ASPECT:
    case LKT_GRAVITY_RESIZE_ASPECT_FILL:
        s = W / w;
        if ((l->gravity == LKT_GRAVITY_RESIZE_ASPECT) == (H / h < s)) s = H / h;
        w *= s;
        h *= s;
        out[0] = (W - w) / 2;
        out[1] = (H - h) / 2;
        break;
    case LKT_GRAVITY_CENTER: out[0] = (W - w) / 2; out[1] = (H - h) / 2; break;
    case LKT_GRAVITY_TOP: out[0] = (W - w) / 2; out[1] = 0; break;
    case LKT_GRAVITY_BOTTOM: out[0] = (W - w) / 2; out[1] = H - h; break;
    case LKT_GRAVITY_LEFT: out[0] = 0; out[1] = (H - h) / 2; break;
    case LKT_GRAVITY_RIGHT: out[0] = W - w; out[1] = (H - h) / 2; break;
    case LKT_GRAVITY_TOP_LEFT: out[0] = 0; out[1] = 0; break;
    case LKT_GRAVITY_TOP_RIGHT: out[0] = W - w; out[1] = 0; break;
    case LKT_GRAVITY_BOTTOM_LEFT: out[0] = 0; out[1] = H - h; break;
    default: out[0] = W - w; out[1] = H - h; break; /* bottom right */
    }
    out[2] = w;
    out[3] = h;
}

/* A copy of the w x h pixels at (x, y) of an image surface, so that
   filtering at its edges pads with its own pixels. */
static cairo_surface_t *slice_surface(cairo_surface_t *image, int x, int y, int w, int h)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    unsigned char *src = cairo_image_surface_get_data(image), *dst;
    int sstride = cairo_image_surface_get_stride(image), dstride, j;
    cairo_surface_flush(s);
    dst = cairo_image_surface_get_data(s);
    dstride = cairo_image_surface_get_stride(s);
    for (j = 0; j < h; j++)
        memcpy(dst + (size_t)j * (size_t)dstride, src + (size_t)(y + j) * (size_t)sstride + (size_t)x * 4,
               (size_t)w * 4);
    cairo_surface_mark_dirty(s);
    return s;
}

/* Paints source rect (sx, sy, sw, sh) of surface over (dx, dy, dw, dh). */
static void paint_part(cairo_t *cr, cairo_surface_t *surface, double sx, double sy, double sw,
                       double sh, double dx, double dy, double dw, double dh, double opacity)
{
    cairo_pattern_t *pattern = cairo_pattern_create_for_surface(surface);
    cairo_matrix_t m;
    cairo_matrix_init(&m, sw / dw, 0, 0, sh / dh, sx - dx * sw / dw, sy - dy * sh / dh);
    cairo_pattern_set_matrix(pattern, &m);
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD);
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR);
    cairo_save(cr);
    cairo_rectangle(cr, dx, dy, dw, dh);
    cairo_clip(cr);
    cairo_set_source(cr, pattern);
    cairo_paint_with_alpha(cr, opacity);
    cairo_restore(cr);
    cairo_pattern_destroy(pattern);
}

/* Three source and destination edges per axis of a nine-slice (4 values). */
static void nine_axis(double origin, double length, double d_origin, double d_length, double c0,
                      double c1, double scale, double src[4], double dst[4])
{
    double before = c0 * length, after = (1 - c1) * length;
    double b = before / scale, a = after / scale;
    if (b + a > d_length && b + a > 0) {
        double k = d_length / (b + a);
        b *= k;
        a *= k;
    }
    src[0] = origin; src[1] = origin + before; src[2] = origin + length - after; src[3] = origin + length;
    dst[0] = d_origin; dst[1] = d_origin + b; dst[2] = d_origin + d_length - a; dst[3] = d_origin + d_length;
}

static void draw_contents(cairo_t *cr, const lkt_scene *scene, const lkt_scene_layer *l,
                          double opacity)
{
    const lkt_scene_image *im = &scene->images[l->contents];
    cairo_surface_t *surface = image_surface(im);
    double g[4], sub_x, sub_y, sub_w, sub_h;
    const double *c = l->contents_center;

    gravity_rect(l, im, g);
    g[0] += l->bounds[0];
    g[1] += l->bounds[1];
    sub_x = l->contents_rect[0] * im->width;
    sub_y = l->contents_rect[1] * im->height;
    sub_w = l->contents_rect[2] * im->width;
    sub_h = l->contents_rect[3] * im->height;

    cairo_save(cr);
    if (l->masks_to_bounds) {
        rounded_rect(cr, l->bounds[0], l->bounds[1], l->bounds[2], l->bounds[3],
                     l->corner_radius);
        cairo_clip(cr);
    }
    if (c[0] == 0 && c[1] == 0 && c[2] == 1 && c[3] == 1) {
        paint_part(cr, surface, sub_x, sub_y, sub_w, sub_h, g[0], g[1], g[2], g[3], opacity);
    } else {
        double sx[4], dx[4], sy[4], dy[4];
        int i, j;
        nine_axis(sub_x, sub_w, g[0], g[2], c[0], c[0] + c[2], l->contents_scale, sx, dx);
        nine_axis(sub_y, sub_h, g[1], g[3], c[1], c[1] + c[3], l->contents_scale, sy, dy);
        for (j = 0; j < 3; j++)
            for (i = 0; i < 3; i++) {
                int x0 = (int)floor(sx[i] + 1e-6), x1 = (int)ceil(sx[i + 1] - 1e-6);
                int y0 = (int)floor(sy[j] + 1e-6), y1 = (int)ceil(sy[j + 1] - 1e-6);
                cairo_surface_t *part;
                if (dx[i + 1] <= dx[i] || dy[j + 1] <= dy[j] || x1 <= x0 || y1 <= y0) continue;
                part = slice_surface(surface, x0, y0, x1 - x0, y1 - y0);
                paint_part(cr, part, sx[i] - x0, sy[j] - y0, sx[i + 1] - sx[i], sy[j + 1] - sy[j],
                           dx[i], dy[j], dx[i + 1] - dx[i], dy[j + 1] - dy[j], opacity);
                cairo_surface_destroy(part);
            }
    }
    cairo_restore(cr);
    cairo_surface_destroy(surface);
}

static void draw_layer(cairo_t *cr, const lkt_scene *scene, int index, double parent_opacity);

/* Background, contents, sublayers (clipped by masksToBounds), border, in
   the layer's bounds space, each blended with opacity. */
static void draw_parts(cairo_t *cr, const lkt_scene *scene, int index, double opacity)
{
    const lkt_scene_layer *l = &scene->layers[index];
    double bx = l->bounds[0], by = l->bounds[1], bw = l->bounds[2], bh = l->bounds[3];
    int children[LKT_SCENE_MAX_LAYERS], n = 0, i, j;

    if (l->background[3] > 0) {
        rounded_rect(cr, bx, by, bw, bh, l->corner_radius);
        cairo_set_source_rgba(cr, l->background[0], l->background[1], l->background[2],
                              l->background[3] * opacity);
        cairo_fill(cr);
    }
    if (l->contents >= 0) draw_contents(cr, scene, l, opacity);

    /* sublayers, stable-sorted by zPosition */
    for (i = 0; i < scene->layer_count; i++)
        if (scene->layers[i].parent == index) children[n++] = i;
    for (i = 1; i < n; i++) {
        int c = children[i];
        for (j = i; j > 0 && scene->layers[children[j - 1]].z_position >
                                 scene->layers[c].z_position; j--)
            children[j] = children[j - 1];
        children[j] = c;
    }
    if (n > 0) {
        double ax = bx + l->anchor[0] * bw, ay = by + l->anchor[1] * bh;
        cairo_save(cr);
        if (l->masks_to_bounds) {
            rounded_rect(cr, bx, by, bw, bh, l->corner_radius);
            cairo_clip(cr);
        }
        cairo_translate(cr, ax, ay);
        apply_affine(cr, l->sublayer_transform);
        cairo_translate(cr, -ax, -ay);
        for (i = 0; i < n; i++) draw_layer(cr, scene, children[i], opacity);
        cairo_restore(cr);
    }

    if (l->border_width > 0 && l->border_color[3] > 0) {
        double w = l->border_width, r = l->corner_radius;
        double limit = (bw < bh ? bw : bh) / 2;
        if (r > limit) r = limit;
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
        rounded_rect(cr, bx, by, bw, bh, r);
        if (bw > 2 * w && bh > 2 * w)
            rounded_rect(cr, bx + w, by + w, bw - 2 * w, bh - 2 * w, r - w > 0 ? r - w : 0);
        cairo_set_source_rgba(cr, l->border_color[0], l->border_color[1], l->border_color[2],
                              l->border_color[3] * opacity);
        cairo_fill(cr);
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    }
}

/* Whether a fading layer has parts that overlap: sublayers, or two of
   background, contents and border. */
static int overlapping_parts(const lkt_scene *scene, int index)
{
    const lkt_scene_layer *l = &scene->layers[index];
    int i, parts = 0;
    for (i = 0; i < scene->layer_count; i++)
        if (scene->layers[i].parent == index) return 1;
    parts += l->background[3] > 0;
    parts += l->contents >= 0;
    parts += l->border_width > 0 && l->border_color[3] > 0;
    return parts > 1;
}

/* One pass of a Gaussian (sampled at pixel centres, cut at 4 sigma, the
   weights summing to 1) along rows of in (n lines of len values, stride
   apart by step), output moved by shift pixels. */
static void blur_pass(const double *in, double *out, int lines, int len, int line_step,
                      int step, double sigma, double shift)
{
    int reach = (int)ceil(4 * sigma + fabs(shift)) + 1, line, x, k;
    for (line = 0; line < lines; line++) {
        const double *src = in + (size_t)line * (size_t)line_step;
        double *dst = out + (size_t)line * (size_t)line_step;
        for (x = 0; x < len; x++) {
            double sum = 0, weights = 0;
            int centre = (int)floor(x - shift + 0.5);
            for (k = centre - reach; k <= centre + reach; k++) {
                double t = x - shift - k, w = exp(-t * t / (2 * sigma * sigma));
                weights += w;
                if (k >= 0 && k < len) sum += w * src[(size_t)k * (size_t)step];
            }
            dst[(size_t)x * (size_t)step] = sum / weights;
        }
    }
}

/* S6.1: the layer's shadow, painted onto cr (in the layer's bounds space). */
static void draw_shadow(cairo_t *cr, const lkt_scene *scene, int index, double opacity, double dx,
                        double dy, double sigma)
{
    const lkt_scene_layer *l = &scene->layers[index];
    int w = (int)scene->width, h = (int)scene->height, x, y;
    cairo_surface_t *caster = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_surface_t *shadow = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_t *c2 = cairo_create(caster);
    cairo_matrix_t m;
    double *a = (double *)calloc((size_t)w * h, sizeof *a), *b = (double *)calloc((size_t)w * h, sizeof *b);
    unsigned char *data;
    int stride;
    double alpha = l->shadow_color[3] * l->shadow_opacity * opacity;

    /* what casts the shadow, in device pixels */
    cairo_get_matrix(cr, &m);
    cairo_set_matrix(c2, &m);
    if (l->shadow_path != LKT_SHADOW_PATH_NONE) {
        const double *r = l->shadow_path_rect;
        if (l->shadow_path == LKT_SHADOW_PATH_ELLIPSE) {
            cairo_save(c2);
            cairo_translate(c2, r[0] + r[2] / 2, r[1] + r[3] / 2);
            cairo_scale(c2, r[2] / 2, r[3] / 2);
            cairo_arc(c2, 0, 0, 1, 0, 2 * PI);
            cairo_restore(c2);
        } else {
            rounded_rect(c2, r[0], r[1], r[2], r[3],
                         l->shadow_path == LKT_SHADOW_PATH_ROUNDED_RECT ? l->shadow_path_radius : 0);
        }
        cairo_set_source_rgba(c2, 0, 0, 0, 1);
        cairo_fill(c2);
    } else {
        draw_parts(c2, scene, index, 1.0);
    }
    cairo_destroy(c2);
    cairo_surface_flush(caster);
    data = cairo_image_surface_get_data(caster);
    stride = cairo_image_surface_get_stride(caster);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            a[(size_t)y * w + x] = (((uint32_t *)(data + (size_t)y * stride))[x] >> 24) / 255.0;

    /* blurred and moved: rows, then columns */
    if (sigma > 0.05) {
        blur_pass(a, b, h, w, w, 1, sigma, dx);
        blur_pass(b, a, w, h, 1, w, sigma, dy);
    } else {
        int ix = (int)floor(dx + 0.5), iy = (int)floor(dy + 0.5);
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                int sx = x - ix, sy = y - iy;
                b[(size_t)y * w + x] = sx >= 0 && sx < w && sy >= 0 && sy < h ? a[(size_t)sy * w + sx] : 0;
            }
        memcpy(a, b, (size_t)w * h * sizeof *a);
    }

    cairo_surface_flush(shadow);
    data = cairo_image_surface_get_data(shadow);
    stride = cairo_image_surface_get_stride(shadow);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            double v = a[(size_t)y * w + x] * alpha;
            uint32_t A = (uint32_t)lround(v * 255), R = (uint32_t)lround(v * l->shadow_color[0] * 255),
                     G = (uint32_t)lround(v * l->shadow_color[1] * 255),
                     B = (uint32_t)lround(v * l->shadow_color[2] * 255);
            ((uint32_t *)(data + (size_t)y * stride))[x] = A << 24 | R << 16 | G << 8 | B;
        }
    cairo_surface_mark_dirty(shadow);

    cairo_save(cr);
    if (l->masks_to_bounds) {
        rounded_rect(cr, l->bounds[0], l->bounds[1], l->bounds[2], l->bounds[3], l->corner_radius);
        cairo_clip(cr);
    }
    cairo_identity_matrix(cr);
    cairo_set_source_surface(cr, shadow, 0, 0);
    cairo_paint(cr);
    cairo_restore(cr);

    free(a);
    free(b);
    cairo_surface_destroy(caster);
    cairo_surface_destroy(shadow);
}

static void draw_layer(cairo_t *cr, const lkt_scene *scene, int index, double parent_opacity)
{
    const lkt_scene_layer *l = &scene->layers[index];
    double opacity = parent_opacity * l->opacity, inner = opacity;
    double bx = l->bounds[0], by = l->bounds[1], bw = l->bounds[2], bh = l->bounds[3];
    double sdx = l->shadow_offset[0], sdy = l->shadow_offset[1], ux = 1, uy = 0, vx = 0, vy = 1;
    int masked = l->mask >= 0;

    if (l->hidden || opacity <= 0) return;
    cairo_save(cr);
    /* the superlayer's space: shadowOffset and shadowRadius are measured there */
    cairo_user_to_device_distance(cr, &sdx, &sdy);
    cairo_user_to_device_distance(cr, &ux, &uy);
    cairo_user_to_device_distance(cr, &vx, &vy);
    /* superlayer space -> this layer's bounds coordinates */
    cairo_translate(cr, l->position[0], l->position[1]);
    apply_affine(cr, l->transform);
    cairo_translate(cr, -bx - l->anchor[0] * bw, -by - l->anchor[1] * bh);

    if (masked) {
        /* the masked group carries the opacity, unless allowsGroupOpacity is
           off: then every part inside is blended with it on its own */
        cairo_push_group(cr);
        if (l->allows_group_opacity) inner = 1;
    }
    if (l->shadow_opacity > 0 && l->shadow_color[3] > 0)
        draw_shadow(cr, scene, index, inner, sdx, sdy, l->shadow_radius * sqrt(fabs(ux * vy - uy * vx)));
    if (inner < 1 && l->opacity < 1 && l->allows_group_opacity && overlapping_parts(scene, index)) {
        cairo_push_group(cr);
        draw_parts(cr, scene, index, 1.0);
        cairo_pop_group_to_source(cr);
        cairo_paint_with_alpha(cr, inner);
    } else {
        draw_parts(cr, scene, index, inner);
    }
    if (masked) {
        cairo_pattern_t *content = cairo_pop_group(cr), *mask;
        cairo_push_group(cr);
        draw_layer(cr, scene, l->mask, 1.0);
        mask = cairo_pop_group(cr);
        cairo_push_group(cr);
        cairo_set_source(cr, content);
        cairo_mask(cr, mask);
        cairo_pop_group_to_source(cr);
        cairo_paint_with_alpha(cr, l->allows_group_opacity ? opacity : 1.0);
        cairo_pattern_destroy(content);
        cairo_pattern_destroy(mask);
    }
    cairo_restore(cr);
}

/* Pixels whose 3x3 neighbourhood is not flat (as lkt_pixels.c counts them). */
static int count_edge_pixels(cairo_surface_t *s, int flat)
{
    unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int x, y, count = 0;
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            int c, edge = 0;
            for (c = 0; c < 4 && !edge; c++) {
                int lo = 255, hi = 0, dx, dy;
                for (dy = -1; dy <= 1; dy++)
                    for (dx = -1; dx <= 1; dx++) {
                        uint32_t px;
                        int v;
                        if (x + dx < 0 || y + dy < 0 || x + dx >= w || y + dy >= h) continue;
                        px = ((uint32_t *)(data + (size_t)(y + dy) * (size_t)stride))[x + dx];
                        v = (int)((px >> (8 * c)) & 0xff);
                        if (v < lo) lo = v;
                        if (v > hi) hi = v;
                    }
                if (hi - lo > flat) edge = 1;
            }
            count += edge;
        }
    }
    return count;
}

int main(int argc, char **argv)
{
    const char *out_dir = argc > 1 ? argv[1] : "Tests/C/reference";
    int i, status = 0;
    for (i = 0; i < lkt_scene_count(); i++) {
        lkt_scene scene;
        cairo_surface_t *surface;
        cairo_t *cr;
        char path[1024];
        if (lkt_scene_build(i, &scene) != 0) return 1;
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)scene.width,
                                             (int)scene.height);
        cr = cairo_create(surface);
        cairo_set_source_rgba(cr, 0, 0, 0, 1); /* S1.0: opaque black */
        cairo_paint(cr);
        if (scene.layer_count > 0) draw_layer(cr, &scene, 0, 1.0);
        cairo_destroy(cr);
        cairo_surface_flush(surface);
        snprintf(path, sizeof path, "%s/%s.png", out_dir, scene.name);
        if (cairo_surface_write_to_png(surface, path) != CAIRO_STATUS_SUCCESS) {
            fprintf(stderr, "refgen: cannot write %s\n", path);
            status = 1;
        } else {
            printf("%s (%ux%u, %d pixels near an edge)\n", path, (unsigned)scene.width,
                   (unsigned)scene.height, count_edge_pixels(surface, scene.flat_tolerance));
        }
        cairo_surface_destroy(surface);
        lkt_scene_free(&scene);
    }
    return status;
}
