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
 *   - opacity multiplies down the tree and every drawing operation of a
 *     layer is blended on its own with the accumulated opacity (no group
 *     opacity); hidden layers draw nothing with their subtrees.
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

static void draw_contents(cairo_t *cr, const lkt_scene *scene, const lkt_scene_layer *l,
                          double opacity)
{
    const lkt_scene_image *im = &scene->images[l->contents];
    cairo_surface_t *surface = image_surface(im);
    cairo_pattern_t *pattern = cairo_pattern_create_for_surface(surface);
    cairo_matrix_t m;
    double g[4], sx, sy, sub_x, sub_y, sub_w, sub_h;

    gravity_rect(l, im, g);
    g[0] += l->bounds[0];
    g[1] += l->bounds[1];
    sub_x = l->contents_rect[0] * im->width;
    sub_y = l->contents_rect[1] * im->height;
    sub_w = l->contents_rect[2] * im->width;
    sub_h = l->contents_rect[3] * im->height;
    sx = sub_w / g[2];
    sy = sub_h / g[3];
    /* user space (the layer's bounds coordinates) -> image pixels */
    cairo_matrix_init(&m, sx, 0, 0, sy, sub_x - g[0] * sx, sub_y - g[1] * sy);
    cairo_pattern_set_matrix(pattern, &m);
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD);
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR);

    cairo_save(cr);
    if (l->masks_to_bounds) {
        rounded_rect(cr, l->bounds[0], l->bounds[1], l->bounds[2], l->bounds[3],
                     l->corner_radius);
        cairo_clip(cr);
    }
    cairo_rectangle(cr, g[0], g[1], g[2], g[3]);
    cairo_clip(cr);
    cairo_set_source(cr, pattern);
    cairo_paint_with_alpha(cr, opacity);
    cairo_restore(cr);

    cairo_pattern_destroy(pattern);
    cairo_surface_destroy(surface);
}

static void draw_layer(cairo_t *cr, const lkt_scene *scene, int index, double parent_opacity)
{
    const lkt_scene_layer *l = &scene->layers[index];
    double opacity = parent_opacity * l->opacity;
    double bx = l->bounds[0], by = l->bounds[1], bw = l->bounds[2], bh = l->bounds[3];
    int children[LKT_SCENE_MAX_LAYERS], n = 0, i, j;

    if (l->hidden) return;
    cairo_save(cr);
    /* superlayer space -> this layer's bounds coordinates */
    cairo_translate(cr, l->position[0], l->position[1]);
    apply_affine(cr, l->transform);
    cairo_translate(cr, -bx - l->anchor[0] * bw, -by - l->anchor[1] * bh);

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
