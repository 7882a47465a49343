/*
 * What layers draw, against cairo and Pango doing the same work in the same
 * run (LayerKit rasterizes with them too, then composites the result as an
 * image: the figures show what the layer machinery adds):
 *   - a 300x300 rounded rect with a Bezier wave, filled and stroked with
 *     width 3 (the goal, within 1.5x of cairo, is for the rasterization
 *     alone, measured by Benchmarks/Rasterize; here whole frames);
 *   - a 1920x1080 three-stop linear gradient (drawn by the software backend
 *     from a GRADIENT op with pixman: nothing rasterized in the core), its
 *     colours new every frame; then unchanged but redrawn every frame (its
 *     opacity changes), which the software backend draws from its gradient
 *     cache;
 *   - a 1000-glyph paragraph laid out and rasterized;
 *   - frames whose text and shapes did not change: layers rasterized (goal 0).
 * LayerKit's side is whole frames (lk_display_render_frame_at) with the
 * layer's colour flipped each frame, so every frame rasterizes it again.
 * --smoke: a few iterations, proves it works.
 */
#include <cairo.h>
#include <layerkit/layerkit.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int iterations = 200;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static lk_display *open_display(uint32_t w, uint32_t h)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = "software";
    o.width = w;
    o.height = h;
    o.manual_clock = true;
    lk_display *d = lk_display_open(&o);
    if (!d) {
        fprintf(stderr, "bench_content: %s\n", lk_last_error());
        exit(1);
    }
    return d;
}

static void wave(cairo_t *cr)
{
    cairo_new_sub_path(cr);
    cairo_move_to(cr, 40, 20);
    cairo_curve_to(cr, 100, -10, 200, 50, 260, 20);
    cairo_arc(cr, 260, 40, 20, -1.5707963, 0);
    cairo_line_to(cr, 280, 260);
    cairo_arc(cr, 260, 260, 20, 0, 1.5707963);
    cairo_line_to(cr, 40, 280);
    cairo_arc(cr, 40, 260, 20, 1.5707963, 3.1415926);
    cairo_line_to(cr, 20, 40);
    cairo_arc(cr, 40, 40, 20, 3.1415926, 4.712389);
    cairo_close_path(cr);
}

static lk_path *wave_path(void)
{
    lk_path *p = lk_path_create();
    lk_path_move_to(p, 40, 20);
    lk_path_curve_to(p, 100, -10, 200, 50, 260, 20);
    lk_path_add_arc(p, 260, 40, 20, -1.5707963, 0, true);
    lk_path_line_to(p, 280, 260);
    lk_path_add_arc(p, 260, 260, 20, 0, 1.5707963, true);
    lk_path_line_to(p, 40, 280);
    lk_path_add_arc(p, 40, 260, 20, 1.5707963, 3.1415926, true);
    lk_path_line_to(p, 20, 40);
    lk_path_add_arc(p, 40, 40, 20, 3.1415926, 4.712389, true);
    lk_path_close(p);
    return p;
}

static double per_frame(lk_display *d, lk_layer *l, void (*flip)(lk_layer *, int))
{
    double t = lk_media_time(), start;
    int i;
    lk_transaction_set_disable_actions(true);
    flip(l, 1);
    lk_display_render_frame_at(d, t);
    start = now();
    for (i = 0; i < iterations; i++) {
        lk_transaction_set_disable_actions(true);
        flip(l, i & 1);
        lk_display_render_frame_at(d, t + i * 0.016);
    }
    return (now() - start) / iterations;
}

static void flip_shape(lk_layer *l, int odd) { lk_shape_layer_set_fill_color(l, lk_color_make(0.2, odd ? 0.6 : 0.61, 1, 1)); }
/* A new colour every frame: the software backend keeps the gradients it
   drew last (its gradient cache), so flipping between two would draw them
   from there instead of evaluating the gradient as cairo does. */
static void flip_gradient(lk_layer *l, int odd)
{
    static int frame;
    (void)odd;
    lk_color c[3] = {{1, 0, 0, 1}, {0, 0.5 + (frame++ % 500) / 1000.0, 0, 1}, {0, 0, 1, 1}};
    lk_gradient_layer_set_colors(l, c, 3);
}
/* The gradient unchanged, the whole layer redrawn (its opacity changes):
   drawn from the gradient cache. */
static void flip_gradient_opacity(lk_layer *l, int odd) { lk_layer_set_opacity(l, odd ? 1 : 0.999); }
static void flip_text(lk_layer *l, int odd) { lk_text_layer_set_foreground_color(l, lk_color_make(1, 1, odd ? 1 : 0.99, 1)); }

static void report(const char *what, double ours, double theirs, double limit)
{
    printf("%-52s layerkit %8.3f ms   cairo %8.3f ms   ratio %.2f", what, ours * 1e3, theirs * 1e3, ours / theirs);
    if (limit > 0) printf("   (goal: <= %.1f)", limit);
    printf("\n");
}

static char paragraph[8192];

int main(int argc, char **argv)
{
    int i;
    if (argc > 1 && strcmp(argv[1], "--smoke") == 0) iterations = 3;
    /* ---- shape ---- */
    {
        lk_display *d = open_display(300, 300);
        lk_layer *root = lk_layer_create(), *s = lk_shape_layer_create();
        lk_path *p = wave_path();
        lk_layer_set_frame(root, lk_rect_make(0, 0, 300, 300));
        lk_layer_set_frame(s, lk_rect_make(0, 0, 300, 300));
        lk_shape_layer_set_path(s, p);
        lk_shape_layer_set_stroke_color(s, lk_color_make(1, 1, 1, 1));
        lk_shape_layer_set_line_width(s, 3);
        lk_layer_add_sublayer(root, s);
        lk_display_set_root_layer(d, root);
        double ours = per_frame(d, s, flip_shape);
        cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 300, 300);
        double start = now();
        for (i = 0; i < iterations; i++) {
            cairo_t *cr = cairo_create(surface);
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
            cairo_paint(cr);
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
            wave(cr);
            cairo_set_source_rgb(cr, 0.2, (i & 1) ? 0.6 : 0.61, 1);
            cairo_fill_preserve(cr);
            cairo_set_line_width(cr, 3);
            cairo_set_source_rgb(cr, 1, 1, 1);
            cairo_stroke(cr);
            cairo_destroy(cr);
        }
        double theirs = (now() - start) / iterations;
        cairo_surface_destroy(surface);
        /* the 1.5x goal is for the rasterization alone: layerkit-bench-rasterize */
        report("shape 300x300 wave, fill + stroke 3 (frame)", ours, theirs, 0);
        lk_release(p);
        lk_release(s);
        lk_display_close(d);
        lk_release(root);
    }
    /* ---- gradient ---- */
    {
        lk_display *d = open_display(1920, 1080);
        lk_layer *root = lk_layer_create(), *g = lk_gradient_layer_create();
        lk_layer_set_frame(root, lk_rect_make(0, 0, 1920, 1080));
        lk_layer_set_frame(g, lk_rect_make(0, 0, 1920, 1080));
        lk_gradient_layer_set_start_point(g, lk_point_make(0, 0));
        lk_gradient_layer_set_end_point(g, lk_point_make(1, 1));
        lk_layer_add_sublayer(root, g);
        lk_display_set_root_layer(d, root);
        double ours = per_frame(d, g, flip_gradient);
        double cached = per_frame(d, g, flip_gradient_opacity);
        cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1920, 1080);
        double start = now();
        for (i = 0; i < iterations; i++) {
            cairo_t *cr = cairo_create(surface);
            cairo_pattern_t *pat = cairo_pattern_create_linear(0, 0, 1920, 1080);
            cairo_pattern_add_color_stop_rgb(pat, 0, 1, 0, 0);
            cairo_pattern_add_color_stop_rgb(pat, 0.5, 0, (i & 1) ? 1 : 0.99, 0);
            cairo_pattern_add_color_stop_rgb(pat, 1, 0, 0, 1);
            cairo_set_source(cr, pat);
            cairo_paint(cr);
            cairo_pattern_destroy(pat);
            cairo_destroy(cr);
        }
        double theirs = (now() - start) / iterations;
        cairo_surface_destroy(surface);
        report("gradient 1920x1080, three stops (frame, GRADIENT op)", ours, theirs, 0);
        report("the same, unchanged, redrawn (the gradient cache)", cached, theirs, 0);
        lk_release(g);
        lk_display_close(d);
        lk_release(root);
    }
    /* ---- text ---- */
    {
        const char *words = "Layers draw text shaped by HarfBuzz and laid out by Pango. ";
        size_t n = 0;
        while (n + strlen(words) < 1000) {
            memcpy(paragraph + n, words, strlen(words));
            n += strlen(words);
        }
        paragraph[n] = 0;
        lk_display *d = open_display(800, 600);
        lk_layer *root = lk_layer_create(), *t = lk_text_layer_create();
        lk_layer_set_frame(root, lk_rect_make(0, 0, 800, 600));
        lk_layer_set_frame(t, lk_rect_make(0, 0, 800, 600));
        lk_text_layer_set_string(t, paragraph);
        lk_text_layer_set_font_size(t, 16);
        lk_text_layer_set_wrapped(t, true);
        lk_layer_add_sublayer(root, t);
        lk_display_set_root_layer(d, root);
        double ours = per_frame(d, t, flip_text);
        cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 800, 600);
        int glyphs = 0;
        double start = now();
        for (i = 0; i < iterations; i++) {
            cairo_t *cr = cairo_create(surface);
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
            cairo_paint(cr);
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
            PangoLayout *layout = pango_cairo_create_layout(cr);
            PangoFontDescription *font = pango_font_description_from_string("DejaVu Sans");
            pango_font_description_set_absolute_size(font, 16 * PANGO_SCALE);
            pango_layout_set_font_description(layout, font);
            pango_font_description_free(font);
            pango_layout_set_width(layout, 800 * PANGO_SCALE);
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
            pango_layout_set_text(layout, paragraph, -1);
            cairo_set_source_rgb(cr, 1, 1, (i & 1) ? 1 : 0.99);
            pango_cairo_show_layout(cr, layout);
            if (i == 0) {
                PangoLayoutIter *it = pango_layout_get_iter(layout);
                do {
                    PangoLayoutRun *run = pango_layout_iter_get_run_readonly(it);
                    if (run) glyphs += run->glyphs->num_glyphs;
                } while (pango_layout_iter_next_run(it));
                pango_layout_iter_free(it);
            }
            g_object_unref(layout);
            cairo_destroy(cr);
        }
        double theirs = (now() - start) / iterations;
        cairo_surface_destroy(surface);
        char what[96];
        snprintf(what, sizeof what, "text paragraph, %d glyphs, wrapped (frame)", glyphs);
        report(what, ours, theirs, 0);

        /* ---- unchanged frames ---- */
        lk_layer *s = lk_shape_layer_create();
        lk_path *p = wave_path();
        lk_layer_set_frame(s, lk_rect_make(0, 0, 300, 300));
        lk_shape_layer_set_path(s, p);
        lk_layer_add_sublayer(root, s);
        lk_layer_set_opacity(t, 0.9);
        double t0 = lk_media_time();
        lk_display_render_frame_at(d, t0);
        lk_display_stats before, after;
        memset(&before, 0, sizeof before);
        before.struct_size = sizeof before;
        after = before;
        lk_display_get_stats(d, &before);
        for (i = 0; i < 100; i++) {
            lk_layer_set_position(s, lk_point_make(150 + i % 7, 150)); /* moves, does not change */
            lk_display_render_frame_at(d, t0 + 1 + i * 0.016);
        }
        lk_display_get_stats(d, &after);
        printf("%-52s %llu rasterizations in 100 frames   (goal: 0)\n", "unchanged text and shapes, layer moving",
               (unsigned long long)(after.content_rasterizations - before.content_rasterizations));
        lk_release(p);
        lk_release(s);
        lk_release(t);
        lk_display_close(d);
        lk_release(root);
        if (after.content_rasterizations != before.content_rasterizations) return 1;
    }
    return 0;
}
