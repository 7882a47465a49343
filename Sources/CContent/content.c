/*
 * The core's rasterizer (layerkit_content.h) on cairo and Pango. Every call
 * wraps the caller's pixels in a cairo image surface for its duration:
 * cairo's ARGB32 is the core's premultiplied ARGB32, so nothing is copied.
 */
#include "layerkit_content.h"

#include <cairo.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static cairo_t *open_target(const lkc_target *t, cairo_surface_t **surface)
{
    *surface = cairo_image_surface_create_for_data((unsigned char *)t->pixels, CAIRO_FORMAT_ARGB32,
                                                   t->width, t->height, t->stride);
    cairo_t *cr = cairo_create(*surface);
    /* A scale so small that its square underflows (contentsScale 1e-200)
       is no matrix cairo takes: the context fell into an error and every
       call on it drew nothing. Below 1e-100 the whole layer is within a
       pixel's billionth either way. */
    double scale = t->scale < 1e-100 ? 1e-100 : t->scale;
    cairo_scale(cr, scale, scale);
    cairo_translate(cr, -t->origin_x, -t->origin_y);
    return cr;
}

static void close_target(cairo_t *cr, cairo_surface_t *surface)
{
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    cairo_surface_destroy(surface);
}

static void set_color(cairo_t *cr, lkc_color c)
{
    cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
}

/* Quadratics become cubics (cairo has none). */
static void append_path(cairo_t *cr, const lkc_path *p)
{
    const double *pt = p->points;
    double cx = 0, cy = 0;
    cairo_new_path(cr);
    for (size_t i = 0; i < p->op_count; i++) {
        switch (p->ops[i]) {
        case LKC_MOVE:
            cairo_move_to(cr, pt[0], pt[1]);
            cx = pt[0], cy = pt[1];
            pt += 2;
            break;
        case LKC_LINE:
            cairo_line_to(cr, pt[0], pt[1]);
            cx = pt[0], cy = pt[1];
            pt += 2;
            break;
        case LKC_QUAD: {
            double qx = pt[0], qy = pt[1], x = pt[2], y = pt[3];
            cairo_curve_to(cr, cx + 2.0 / 3.0 * (qx - cx), cy + 2.0 / 3.0 * (qy - cy),
                           x + 2.0 / 3.0 * (qx - x), y + 2.0 / 3.0 * (qy - y), x, y);
            cx = x, cy = y;
            pt += 4;
            break;
        }
        case LKC_CURVE:
            cairo_curve_to(cr, pt[0], pt[1], pt[2], pt[3], pt[4], pt[5]);
            cx = pt[4], cy = pt[5];
            pt += 6;
            break;
        case LKC_CLOSE:
            cairo_close_path(cr);
            cairo_get_current_point(cr, &cx, &cy);
            break;
        }
    }
}

void lkc_fill_path(const lkc_target *t, const lkc_path *p, lkc_color color, int even_odd)
{
    cairo_surface_t *surface;
    cairo_t *cr = open_target(t, &surface);
    append_path(cr, p);
    cairo_set_fill_rule(cr, even_odd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
    set_color(cr, color);
    cairo_fill(cr);
    close_target(cr, surface);
}

/* The flattened path's length, closing segments included. */
static double flat_length(const cairo_path_t *flat)
{
    double length = 0, x = 0, y = 0, sx = 0, sy = 0;
    for (int i = 0; i < flat->num_data; i += flat->data[i].header.length) {
        const cairo_path_data_t *d = &flat->data[i];
        switch (d->header.type) {
        case CAIRO_PATH_MOVE_TO:
            x = sx = d[1].point.x, y = sy = d[1].point.y;
            break;
        case CAIRO_PATH_LINE_TO:
            length += hypot(d[1].point.x - x, d[1].point.y - y);
            x = d[1].point.x, y = d[1].point.y;
            break;
        case CAIRO_PATH_CLOSE_PATH:
            length += hypot(sx - x, sy - y);
            x = sx, y = sy;
            break;
        default:
            break;
        }
    }
    return length;
}

/* Replaces the current path by its part between lengths a and b along it
 * (strokeStart, strokeEnd). A closed subpath cut open stays open; one kept
 * whole stays closed, so its joins stay joins. */
static double trim_path(cairo_t *cr, double a, double b)
{
    cairo_path_t *flat = cairo_copy_path_flat(cr);
    double pos = 0, x = 0, y = 0, sx = 0, sy = 0;
    int drawing = 0, whole_subpath = 0, kept_any = 0;
    double subpath_start_pos = 0, first_offset = 0;
    cairo_new_path(cr);
    for (int i = 0; i < flat->num_data; i += flat->data[i].header.length) {
        const cairo_path_data_t *d = &flat->data[i];
        double nx, ny;
        int closing = 0;
        switch (d->header.type) {
        case CAIRO_PATH_MOVE_TO:
            x = sx = d[1].point.x, y = sy = d[1].point.y;
            drawing = 0;
            subpath_start_pos = pos;
            whole_subpath = pos >= a;
            continue;
        case CAIRO_PATH_LINE_TO:
            nx = d[1].point.x, ny = d[1].point.y;
            break;
        case CAIRO_PATH_CLOSE_PATH:
            nx = sx, ny = sy;
            closing = 1;
            break;
        default:
            continue;
        }
        double len = hypot(nx - x, ny - y);
        double s0 = pos, s1 = pos + len;
        if (s1 > a && s0 < b && len > 0) {
            double t0 = s0 < a ? (a - s0) / len : 0, t1 = s1 > b ? (b - s0) / len : 1;
            if (!drawing) {
                cairo_move_to(cr, x + (nx - x) * t0, y + (ny - y) * t0);
                drawing = 1;
                /* where the first kept part starts along its own subpath */
                if (!kept_any) first_offset = a > subpath_start_pos ? a - subpath_start_pos : 0;
                kept_any = 1;
            }
            if (closing && whole_subpath && s1 <= b && subpath_start_pos >= a)
                cairo_close_path(cr);
            else
                cairo_line_to(cr, x + (nx - x) * t1, y + (ny - y) * t1);
        } else if (s0 >= a && s0 < b && len == 0 && !drawing) {
            cairo_move_to(cr, x, y);
            drawing = 1;
            if (!kept_any) first_offset = a > subpath_start_pos ? a - subpath_start_pos : 0;
            kept_any = 1;
        }
        pos = s1;
        x = nx, y = ny;
        if (closing) drawing = 0;
    }
    cairo_path_destroy(flat);
    return first_offset;
}

/* The index of the current path's second subpath in `path` (its second
   MOVE_TO), or -1 when it has one subpath. */
static int second_subpath(const cairo_path_t *path)
{
    int moves = 0;
    for (int i = 0; i < path->num_data; i += path->data[i].header.length)
        if (path->data[i].header.type == CAIRO_PATH_MOVE_TO && ++moves == 2) return i;
    return -1;
}

/* The width to stroke the current path with in place of `width`. A stroke
   covers the points within half its width of the path, its caps and joins
   cut beyond that: once half the width is far past the farthest point of
   the target from the path, a wider stroke covers no more of it, and
   cairo's stroker took from seconds to minutes over widths of 1e11 to
   1e14 (an animated lineWidth on its way to 1e12: 35 s for one frame).
   Such widths are drawn at 100 times that distance (a bevel at a join
   comes within (width / 2) cos(a) of the path, a the half-angle between
   its sides' normals: only hairpins under 2.3 degrees could still differ),
   but within 2e6 where that is more than twice the distance: past a few
   million units cairo's fixed-point coordinates overflow, and an
   ellipse's stroke then left the pixels around it uncovered. The path's
   and the target's extents give the distance. */
static double stroke_width_within_reach(cairo_t *cr, double width)
{
    double x0, y0, x1, y1, cx0, cy0, cx1, cy1;
    cairo_path_extents(cr, &x0, &y0, &x1, &y1);
    cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1);   /* the target, in user space */
    double far = hypot(fmax(x1, cx1) - fmin(x0, cx0), fmax(y1, cy1) - fmin(y0, cy0)) + 1;
    double reach = fmax(2 * far, fmin(100 * far, 2e6));
    return width < reach ? width : reach;
}

/* Strokes the current path (consuming it) with style s. */
static void stroke_current(cairo_t *cr, lkc_color color, const lkc_stroke *s)
{
    double phase = s->dash_phase, first_phase = phase;
    if (s->start > 0 || s->end < 1) {
        cairo_path_t *flat = cairo_copy_path_flat(cr);
        double length = flat_length(flat);
        cairo_path_destroy(flat);
        double a = (s->start > 0 ? s->start : 0) * length, b = (s->end < 1 ? s->end : 1) * length;
        /* Dashes stay where they are on the whole path. Cairo starts the
           pattern again at each subpath: only the first kept subpath, cut
           by strokeStart, starts part way into its pattern (moving every
           later subpath's dashes too made them crawl as strokeStart
           animated). */
        first_phase = phase + trim_path(cr, a, b);
    }
    cairo_set_line_width(cr, stroke_width_within_reach(cr, s->width));
    cairo_set_miter_limit(cr, s->miter_limit);
    cairo_set_line_cap(cr, s->cap == LKC_CAP_ROUND ? CAIRO_LINE_CAP_ROUND
                       : s->cap == LKC_CAP_SQUARE ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, s->join == LKC_JOIN_ROUND ? CAIRO_LINE_JOIN_ROUND
                        : s->join == LKC_JOIN_BEVEL ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER);
    int dashed = s->dash_count > 0 && s->dashes;
    /* Lengths beyond 1e15 (longer than any path cairo can draw) are drawn
       at 1e15: a pattern of 1e308 has a period that overflows, and cairo's
       offset for a negative phase became infinite (the stroke never
       returned). */
    const double *dashes = s->dashes;
    double *capped = NULL;
    if (dashed) {
        for (size_t i = 0; i < s->dash_count; i++)
            if (!(s->dashes[i] <= 1e15)) {
                capped = malloc(s->dash_count * sizeof *capped);
                if (!capped) dashed = 0;   /* (no memory: solid rather than a stroke that never ends) */
                break;
            }
        if (capped) {
            for (size_t i = 0; i < s->dash_count; i++) capped[i] = s->dashes[i] <= 1e15 ? s->dashes[i] : 1e15;
            dashes = capped;
        }
    }
    if (dashed && s->cap == LKC_CAP_BUTT) {
        /* A pattern whose period is under a tenth of a pixel (cairo's
         * tolerance) is one cairo only approximates, and some such came out
         * solid ({0.0015, 0.0015}, {0.003, 0.001}); with butt caps what shows
         * is the line at the share of it the dashes cover (an odd-length
         * pattern repeats with on and off swapped: half). */
        double period = 0, on = 0;
        for (size_t i = 0; i < s->dash_count; i++) {
            period += dashes[i];
            if (i % 2 == 0) on += dashes[i];
        }
        if (s->dash_count % 2) { on = period; period *= 2; }
        double px = period, py = 0, qx = 0, qy = period;
        cairo_user_to_device_distance(cr, &px, &py);
        cairo_user_to_device_distance(cr, &qx, &qy);
        if (period > 0 && fmax(hypot(px, py), hypot(qx, qy)) < 0.1) {
            dashed = 0;
            color.a *= on / period;
        }
    }
    if (dashed && first_phase != phase) {
        cairo_path_t *kept = cairo_copy_path(cr);
        int split = kept->status == CAIRO_STATUS_SUCCESS ? second_subpath(kept) : -1;
        if (split > 0) {
            /* The first subpath at its phase, the rest at the pattern's own;
               in one group, so that where they overlap a translucent stroke
               is not laid twice. */
            cairo_path_t first = { CAIRO_STATUS_SUCCESS, kept->data, split };
            cairo_path_t rest = { CAIRO_STATUS_SUCCESS, kept->data + split, kept->num_data - split };
            int translucent = color.a < 1;
            if (translucent) cairo_push_group(cr);
            cairo_set_source_rgba(cr, color.r, color.g, color.b, translucent ? 1.0 : color.a);
            cairo_new_path(cr);
            cairo_append_path(cr, &first);
            cairo_set_dash(cr, dashes, (int)s->dash_count, first_phase);
            cairo_stroke(cr);
            cairo_append_path(cr, &rest);
            cairo_set_dash(cr, dashes, (int)s->dash_count, phase);
            cairo_stroke(cr);
            if (translucent) {
                cairo_pop_group_to_source(cr);
                cairo_paint_with_alpha(cr, color.a);
            }
            cairo_path_destroy(kept);
            free(capped);
            return;
        }
        cairo_path_destroy(kept);
    }
    if (dashed) cairo_set_dash(cr, dashes, (int)s->dash_count, first_phase);
    set_color(cr, color);
    cairo_stroke(cr);
    free(capped);
}

void lkc_stroke_path(const lkc_target *t, const lkc_path *p, lkc_color color, const lkc_stroke *s)
{
    if (s->width <= 0 || s->end <= s->start) return;
    cairo_surface_t *surface;
    cairo_t *cr = open_target(t, &surface);
    append_path(cr, p);
    stroke_current(cr, color, s);
    close_target(cr, surface);
}

void lkc_shape(const lkc_target *t, const lkc_path *p, const lkc_color *fill, int even_odd,
               const lkc_color *stroke, const lkc_stroke *s)
{
    cairo_surface_t *surface;
    cairo_t *cr = open_target(t, &surface);
    append_path(cr, p);
    if (fill) {
        cairo_set_fill_rule(cr, even_odd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
        set_color(cr, *fill);
        cairo_fill_preserve(cr);
    }
    if (stroke && s->width > 0 && s->end > s->start) stroke_current(cr, *stroke, s);
    close_target(cr, surface);
}

/* Stop i's offset: the given location, or an even spread. */
static double stop_offset(const double *locations, size_t count, size_t i)
{
    if (locations) return locations[i];
    return count > 1 ? (double)i / (double)(count - 1) : 0;
}

static void add_stops(cairo_pattern_t *pattern, const lkc_color *colors, const double *locations, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        lkc_color c = colors[i];
        cairo_pattern_add_color_stop_rgba(pattern, stop_offset(locations, count, i), c.r, c.g, c.b, c.a);
    }
}

/* The colour at u in 0..1 along the stops, premultiplied, as a pixel. */
static uint32_t conic_color(const lkc_color *colors, const double *locations, size_t count, double u)
{
    lkc_color c = colors[0];
    if (u >= stop_offset(locations, count, count - 1)) {
        c = colors[count - 1];
    } else if (u > stop_offset(locations, count, 0)) {
        for (size_t i = 1; i < count; i++) {
            double o0 = stop_offset(locations, count, i - 1), o1 = stop_offset(locations, count, i);
            if (u <= o1) {
                double f = o1 > o0 ? (u - o0) / (o1 - o0) : 1;
                lkc_color a = colors[i - 1], b = colors[i];
                /* the straight colour and the alpha interpolated, then
                   premultiplied below, as cairo and pixman do */
                c.a = a.a + (b.a - a.a) * f;
                c.r = a.r + (b.r - a.r) * f;
                c.g = a.g + (b.g - a.g) * f;
                c.b = a.b + (b.b - a.b) * f;
                break;
            }
        }
    }
    uint32_t pa = (uint32_t)lround(c.a * 255);
    return pa << 24 | (uint32_t)lround(c.r * c.a * 255) << 16 | (uint32_t)lround(c.g * c.a * 255) << 8 |
           (uint32_t)lround(c.b * c.a * 255);
}

/* The conic gradient's colour at a point (dx, dy) from its centre. */
static uint32_t conic_sample(const uint32_t *table, int n, double dx, double dy, double base)
{
    double u = (atan2(dy, dx) - base) / (2 * PI);
    u -= floor(u);
    return table[(int)lround(u * n)];
}

/* Cairo has no conic gradient: a 1024-entry colour table by angle, then
 * each pixel of the rect looks up the angle of its centre. Where location 0
 * meets 1 (the seam, a ray from the centre) the colour jumps: pixels the
 * seam crosses are supersampled 8x8 (premultiplied mean), so the seam is
 * anti-aliased like an edge. */
static void conic(const lkc_target *t, const lkc_color *colors, const double *locations, size_t count,
                  double cx, double cy, double ex, double ey, double x, double y, double w, double h)
{
    enum { N = 1024 };
    uint32_t table[N + 1];
    for (int i = 0; i <= N; i++) table[i] = conic_color(colors, locations, count, (double)i / N);
    double base = atan2(ey - cy, ex - cx);
    int px0 = (int)floor((x - t->origin_x) * t->scale), py0 = (int)floor((y - t->origin_y) * t->scale);
    int px1 = (int)ceil((x + w - t->origin_x) * t->scale), py1 = (int)ceil((y + h - t->origin_y) * t->scale);
    if (px0 < 0) px0 = 0;
    if (py0 < 0) py0 = 0;
    if (px1 > t->width) px1 = t->width;
    if (py1 > t->height) py1 = t->height;
    double pcx = (cx - t->origin_x) * t->scale, pcy = (cy - t->origin_y) * t->scale;
    double ux = cos(base), uy = sin(base);
    /* a pixel square reaches at most sqrt(1/2) from its centre */
    const double reach = 0.7072;
    enum { S = 8 };
    for (int py = py0; py < py1; py++) {
        uint32_t *row = (uint32_t *)((uint8_t *)t->pixels + (size_t)py * (size_t)t->stride);
        for (int px = px0; px < px1; px++) {
            double dx = px + 0.5 - pcx, dy = py + 0.5 - pcy;
            double along = dx * ux + dy * uy, across = dy * ux - dx * uy;
            if (fabs(across) > reach || along < -reach) {
                row[px] = conic_sample(table, N, dx, dy, base);
                continue;
            }
            uint32_t sum[4] = { 0, 0, 0, 0 };
            for (int j = 0; j < S; j++)
                for (int i = 0; i < S; i++) {
                    uint32_t c = conic_sample(table, N, dx + (i + 0.5) / S - 0.5, dy + (j + 0.5) / S - 0.5, base);
                    for (int k = 0; k < 4; k++) sum[k] += c >> (8 * k) & 0xff;
                }
            uint32_t c = 0;
            for (int k = 0; k < 4; k++) c |= (sum[k] + S * S / 2) / (S * S) << (8 * k);
            row[px] = c;
        }
    }
}

void lkc_gradient(const lkc_target *t, int type, const lkc_color *colors, const double *locations, size_t count,
                  double start_x, double start_y, double end_x, double end_y,
                  double x, double y, double w, double h)
{
    if (count == 0 || w <= 0 || h <= 0) return;
    double sx = x + start_x * w, sy = y + start_y * h, ex = x + end_x * w, ey = y + end_y * h;
    if (type == LKC_GRADIENT_CONIC) {
        conic(t, colors, locations, count, sx, sy, ex, ey, x, y, w, h);
        return;
    }
    cairo_surface_t *surface;
    cairo_t *cr = open_target(t, &surface);
    cairo_pattern_t *pattern;
    if (type == LKC_GRADIENT_RADIAL) {
        double rx = fabs(ex - sx), ry = fabs(ey - sy);
        if (rx <= 0 || ry <= 0) {
            /* a flat ellipse: nothing inside it, the last colour beyond */
            set_color(cr, colors[count - 1]);
            cairo_rectangle(cr, x, y, w, h);
            cairo_fill(cr);
            close_target(cr, surface);
            return;
        }
        /* a circle of radius rx, stretched to the ellipse */
        pattern = cairo_pattern_create_radial(0, 0, 0, 0, 0, rx);
        cairo_matrix_t m;
        cairo_matrix_init_scale(&m, 1, rx / ry);
        cairo_matrix_translate(&m, -sx, -sy);
        cairo_pattern_set_matrix(pattern, &m);
    } else {
        pattern = cairo_pattern_create_linear(sx, sy, ex, ey);
    }
    add_stops(pattern, colors, locations, count);
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD);
    cairo_set_source(cr, pattern);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
    cairo_pattern_destroy(pattern);
    close_target(cr, surface);
}

/* Wrapped text (not truncated, or truncated at its end) shows only its first
 * lines: what fits `most_lines` lines of width w, each character at least
 * 1/50 of the font size wide, or zero-width marks up to three to a
 * character, is kept, cut at a character boundary. And Pango measures a
 * paragraph's width in 32-bit integers of 1/1024 point: a paragraph of
 * about 190,000 characters at 20 points overflowed it and was drawn as one
 * line past the bounds (at 1 MB its glyphs piled up). So a paragraph gets
 * a line break, at its last space (between two characters where it has
 * none), every as many characters as keep its width below 2^30 units at
 * two ems a character, in a copy (*chunked, to free): only a layer showing
 * that many characters of one paragraph sees a line end early there.
 * Returns the length kept. */
static size_t wrapped_text_that_shows(const char *utf8, size_t length, double most_lines, double w, double size,
                                      char **chunked)
{
    *chunked = NULL;
    double budget = most_lines * (fmax(w, 0) / (0.02 * size) + 16) * 4;
    size_t kept = 0;
    double chars = 0;
    for (; kept < length; kept++) {
        if (((unsigned char)utf8[kept] & 0xC0) == 0x80) continue;   /* inside a character */
        if (++chars > budget) break;
    }
    length = kept;
    double most_in_paragraph = floor((double)(1 << 30) / (2.0 * size * PANGO_SCALE));
    if (most_in_paragraph < 64) most_in_paragraph = 64;
    /* paragraphs longer than that? */
    size_t run = 0, i;
    bool long_paragraph = false;
    for (i = 0; i < length && !long_paragraph; i++) {
        if (utf8[i] == '\n' || utf8[i] == '\r') run = 0;
        else if (((unsigned char)utf8[i] & 0xC0) != 0x80 && (double)++run > most_in_paragraph) long_paragraph = true;
    }
    if (!long_paragraph) return length;
    char *copy = malloc(length + 1);
    if (!copy) return length;
    memcpy(copy, utf8, length);
    copy[length] = 0;
    size_t start = 0;   /* where the current paragraph starts */
    run = 0;
    size_t last_space = SIZE_MAX;
    for (i = 0; i < length; i++) {
        char c = copy[i];
        if (c == '\n' || c == '\r') { run = 0; start = i + 1; last_space = SIZE_MAX; continue; }
        if (((unsigned char)c & 0xC0) == 0x80) continue;
        if (c == ' ') last_space = i;
        if ((double)++run <= most_in_paragraph) continue;
        /* break at the paragraph's last space, else before this character */
        size_t at = last_space != SIZE_MAX && last_space > start ? last_space : i;
        if (at == i) {
            /* no space: a break takes no byte of the text, so insert one */
            char *grown = realloc(copy, length + 2);
            if (!grown) break;
            copy = grown;
            memmove(copy + i + 1, copy + i, length - i + 1);
            copy[i] = '\n';
            length++;
        } else {
            copy[at] = '\n';
        }
        start = at + 1;
        last_space = SIZE_MAX;
        run = 0;
        i = at;   /* count the new paragraph from its start */
    }
    *chunked = copy;
    return length;
}

int lkc_text(const lkc_target *t, const char *utf8, size_t length, const lkc_text_style *style,
             double x, double y, double w, double h)
{
    if (!utf8 || length == 0 || style->size <= 0) return 0;
    cairo_surface_t *surface;
    cairo_t *cr = open_target(t, &surface);
    PangoLayout *layout = pango_cairo_create_layout(cr);
    /* Glyph positions and hinting must not depend on the layer's place. */
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(pango_layout_get_context(layout), options);
    cairo_font_options_destroy(options);
    /* Fractional advances, as Core Text lays text out: Pango rounds each
       glyph position to a whole point by default, which made 50 "i"s at
       13 pt 200 points wide where the font gives 180.6 (wrapping and
       truncating where Apple does not), whatever the contentsScale. */
    pango_context_set_round_glyph_positions(pango_layout_get_context(layout), FALSE);
    pango_layout_context_changed(layout);

    PangoFontDescription *font = pango_font_description_from_string(style->font ? style->font : "DejaVu Sans");
    pango_font_description_set_absolute_size(font, style->size * PANGO_SCALE);
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);
    /* Only the paragraphs that can show: each takes a line at least, no
     * line is under half the font size tall, and Pango lays paragraphs out
     * in time growing with the square of their number (a label of 12,500
     * lines took 16 s, all but a few below its box). */
    double most_lines = ceil(h / (0.5 * style->size)) + 2;
    if (most_lines < (double)length) {
        size_t kept = 0, lines = 1;
        for (; kept < length; kept++) {
            char c = utf8[kept];
            if (c != '\n' && c != '\r') continue;
            if (c == '\r' && kept + 1 < length && utf8[kept + 1] == '\n') kept++;
            if ((double)++lines > most_lines) break;
        }
        length = kept;
    }
    char *chunked = NULL;
    if (style->wrapped && (style->truncation == LKC_TRUNCATE_NONE || style->truncation == LKC_TRUNCATE_END))
        length = wrapped_text_that_shows(utf8, length, most_lines, w, style->size, &chunked);
    pango_layout_set_text(layout, chunked ? chunked : utf8, (int)length);
    free(chunked);
    /* A word too long for its line breaks between characters with nothing
     * added, as Core Text's default (no hyphenation) does; Pango would put
     * a hyphen at the end of each piece. */
    PangoAttrList *attributes = pango_attr_list_new();
    pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(FALSE));
    pango_layout_set_attributes(layout, attributes);
    pango_attr_list_unref(attributes);

    int width = (int)lround(w * PANGO_SCALE);
    if (style->wrapped) {
        pango_layout_set_width(layout, width > 0 ? width : 1);
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    }
    if (style->truncation != LKC_TRUNCATE_NONE) {
        pango_layout_set_width(layout, width > 0 ? width : 1);
        pango_layout_set_ellipsize(layout, style->truncation == LKC_TRUNCATE_START ? PANGO_ELLIPSIZE_START
                                   : style->truncation == LKC_TRUNCATE_MIDDLE ? PANGO_ELLIPSIZE_MIDDLE
                                   : PANGO_ELLIPSIZE_END);
        /* wrapped text is cut at the last line that fits the height */
        if (style->wrapped) pango_layout_set_height(layout, (int)lround(h * PANGO_SCALE));
    }
    /* natural: each paragraph aligns to its own start (auto direction);
     * left and right are absolute, whatever the text's direction */
    switch (style->alignment) {
    case LKC_ALIGN_LEFT:
    case LKC_ALIGN_RIGHT:
    case LKC_ALIGN_CENTER:
        pango_layout_set_auto_dir(layout, FALSE);
        pango_layout_set_alignment(layout, style->alignment == LKC_ALIGN_LEFT ? PANGO_ALIGN_LEFT
                                   : style->alignment == LKC_ALIGN_RIGHT ? PANGO_ALIGN_RIGHT
                                   : PANGO_ALIGN_CENTER);
        break;
    case LKC_ALIGN_JUSTIFIED:
        pango_layout_set_justify(layout, TRUE);
        break;
    default:
        break;
    }
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    set_color(cr, style->color);
    if (pango_layout_get_width(layout) >= 0) {
        cairo_move_to(cr, x, y);
        pango_cairo_show_layout(cr, layout);
    } else {
        /* Lines that do not wrap have no width for Pango to align in: each
         * is placed in the box here (natural: by its own direction), from
         * its extents in its own coordinates (the layout's include Pango's
         * own alignment within the widest line: a centred line shorter
         * than another was drawn that much left of the centre), the lines
         * stacked as Pango stacks them. */
        int top = 0;
        for (GSList *l = pango_layout_get_lines_readonly(layout); l; l = l->next) {
            PangoLayoutLine *line = l->data;
            PangoRectangle logical;
            pango_layout_line_get_extents(line, NULL, &logical);
            double lw = (double)logical.width / PANGO_SCALE, lx = (double)logical.x / PANGO_SCALE;
            int align = style->alignment;
            if (align == LKC_ALIGN_NATURAL || align == LKC_ALIGN_JUSTIFIED)
                align = line->resolved_dir == PANGO_DIRECTION_RTL ? LKC_ALIGN_RIGHT : LKC_ALIGN_LEFT;
            double dx = align == LKC_ALIGN_RIGHT ? w - lw : align == LKC_ALIGN_CENTER ? (w - lw) / 2 : 0;
            cairo_move_to(cr, x + dx - lx, y + (double)(top - logical.y) / PANGO_SCALE);
            pango_cairo_show_layout_line(cr, line);
            top += logical.height + pango_layout_get_spacing(layout);
        }
    }
    int glyphs = 0;
    for (GSList *l = pango_layout_get_lines_readonly(layout); l; l = l->next)
        for (GSList *r = ((PangoLayoutLine *)l->data)->runs; r; r = r->next)
            glyphs += ((PangoLayoutRun *)r->data)->glyphs->num_glyphs;
    g_object_unref(layout);
    close_target(cr, surface);
    return glyphs;
}

void lkc_image(const lkc_target *t, const uint32_t *pixels, int width, int height, int stride,
               double x, double y, double w, double h, double opacity)
{
    if (width <= 0 || height <= 0 || w <= 0 || h <= 0) return;
    cairo_surface_t *surface;
    cairo_t *cr = open_target(t, &surface);
    cairo_surface_t *source = cairo_image_surface_create_for_data((unsigned char *)pixels, CAIRO_FORMAT_ARGB32,
                                                                  width, height, stride);
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    cairo_translate(cr, x, y);
    cairo_scale(cr, w / width, h / height);
    cairo_set_source_surface(cr, source, 0, 0);
    cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR);
    cairo_paint_with_alpha(cr, opacity);
    cairo_surface_destroy(source);
    close_target(cr, surface);
}

void lkc_clear(const lkc_target *t, lkc_color color)
{
    cairo_surface_t *surface;
    cairo_t *cr = open_target(t, &surface);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    set_color(cr, color);
    cairo_paint(cr);
    close_target(cr, surface);
}
