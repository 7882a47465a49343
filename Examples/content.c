/*
 * What layers draw: a shape layer stroked progressively (strokeEnd
 * animating), dashed and even-odd shapes, text in three scripts, axial,
 * radial and conic gradients, a layer its delegate draws, and a snapshot
 * of the whole scene. Writes content.png (the scene half-way through the
 * stroke animation) and content-snapshot.png into the folder given
 * (default: the current one).
 *
 *   cc -std=c99 content.c $(pkg-config --cflags --libs layerkit) -o content
 */
#include <layerkit/layerkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 640
#define H 400

static void check(lk_status s, const char *what)
{
    if (s != LK_OK) {
        fprintf(stderr, "content: %s: %s\n", what, lk_last_error());
        exit(1);
    }
}

static lk_layer *add(lk_layer *parent, lk_layer *layer, double x, double y, double w, double h)
{
    if (!layer) {
        fprintf(stderr, "content: cannot create a layer: %s\n", lk_last_error());
        exit(1);
    }
    check(lk_layer_set_frame(layer, lk_rect_make(x, y, w, h)), "set_frame");
    check(lk_layer_add_sublayer(parent, layer), "add_sublayer");
    lk_release(layer); /* the superlayer keeps it */
    return layer;
}

/* the delegate draws a target with the canvas helpers */
static void draw_target(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    lk_rect b = lk_canvas_get_bounds(canvas);
    int i;
    (void)layer;
    (void)user_data;
    for (i = 4; i >= 1; i--) {
        lk_path *ring = lk_path_create();
        double r = i * b.size.width / 9;
        lk_path_add_ellipse(ring, lk_rect_make(b.size.width / 2 - r, b.size.height / 2 - r, 2 * r, 2 * r));
        lk_canvas_fill_path(canvas, ring, i % 2 ? lk_color_make(0.9, 0.2, 0.2, 1) : lk_color_make(1, 1, 1, 1),
                            LK_FILL_RULE_NON_ZERO);
        lk_release(ring);
    }
    lk_canvas_draw_text(canvas, "drawn", "DejaVu Sans Bold", 14, lk_color_make(0, 0, 0, 1), LK_TEXT_ALIGNMENT_CENTER,
                        lk_rect_make(0, b.size.height / 2 - 9, b.size.width, 20));
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char file[1024];
    lk_display_options options;
    memset(&options, 0, sizeof options);
    options.struct_size = sizeof options;
    options.backend = "software";
    options.width = W;
    options.height = H;
    options.manual_clock = true;
    lk_display *display = lk_display_open(&options);
    if (!display) {
        fprintf(stderr, "content: %s\n", lk_last_error());
        return 1;
    }
    lk_layer *root = lk_gradient_layer_create();
    lk_color sky[2] = {{0.10, 0.12, 0.25, 1}, {0.02, 0.02, 0.05, 1}};
    check(lk_layer_set_frame(root, lk_rect_make(0, 0, W, H)), "root frame");
    check(lk_gradient_layer_set_colors(root, sky, 2), "root colours");

    /* a wave stroked progressively */
    lk_layer *wave = add(root, lk_shape_layer_create(), 20, 20, 280, 120);
    lk_path *p = lk_path_create();
    lk_path_move_to(p, 10, 60);
    lk_path_curve_to(p, 70, -20, 130, 140, 190, 60);
    lk_path_curve_to(p, 220, 20, 250, 30, 270, 60);
    lk_shape_layer_set_path(wave, p);
    lk_release(p);
    lk_shape_layer_set_fill_color(wave, lk_color_make(0, 0, 0, 0));
    lk_shape_layer_set_stroke_color(wave, lk_color_make(0.3, 0.9, 1, 1));
    lk_shape_layer_set_line_width(wave, 8);
    lk_shape_layer_set_line_cap(wave, LK_LINE_CAP_ROUND);

    /* a dashed star, filled even-odd */
    lk_layer *star = add(root, lk_shape_layer_create(), 320, 20, 120, 120);
    p = lk_path_create();
    {
        static const double pts[5][2] = {{60, 5}, {95, 110}, {5, 45}, {115, 45}, {25, 110}};
        int i;
        lk_path_move_to(p, pts[0][0], pts[0][1]);
        for (i = 1; i < 5; i++) lk_path_line_to(p, pts[i][0], pts[i][1]);
        lk_path_close(p);
    }
    lk_shape_layer_set_path(star, p);
    lk_release(p);
    lk_shape_layer_set_fill_color(star, lk_color_make(1, 0.75, 0.1, 1));
    lk_shape_layer_set_fill_rule(star, LK_FILL_RULE_EVEN_ODD);
    lk_shape_layer_set_stroke_color(star, lk_color_make(1, 1, 1, 1));
    lk_shape_layer_set_line_width(star, 3);
    {
        static const double dashes[2] = {10, 5};
        lk_shape_layer_set_line_dash_pattern(star, dashes, 2);
    }

    /* a layer its delegate draws */
    lk_layer *target = add(root, lk_layer_create(), 470, 20, 140, 140);
    lk_layer_delegate delegate;
    memset(&delegate, 0, sizeof delegate);
    delegate.struct_size = sizeof delegate;
    delegate.draw = draw_target;
    check(lk_layer_set_delegate(target, &delegate, NULL, NULL), "delegate");
    check(lk_layer_set_needs_display(target), "needs display");

    /* text in three scripts */
    static const struct { const char *text, *font; } lines[3] = {
        {"Core Animation for embedded Linux", "DejaVu Sans"},
        {"\xd8\xb7\xd8\xa8\xd9\x82\xd8\xa7\xd8\xaa \xd9\x85\xd8\xaa\xd8\xad\xd8\xb1\xd9\x83\xd8\xa9", "DejaVu Sans"},
        {"\xe0\xa4\x9a\xe0\xa4\xb2\xe0\xa4\xa4\xe0\xa5\x80 \xe0\xa4\xaa\xe0\xa4\xb0\xe0\xa4\xa4\xe0\xa5\x87\xe0\xa4\x82", "Lohit Devanagari"},
    };
    int i;
    for (i = 0; i < 3; i++) {
        lk_layer *t = add(root, lk_text_layer_create(), 20, 170 + i * 40, 400, 40);
        lk_text_layer_set_string(t, lines[i].text);
        lk_text_layer_set_font(t, lines[i].font);
        lk_text_layer_set_font_size(t, 24);
        lk_text_layer_set_truncation_mode(t, LK_TRUNCATION_END); /* too long: ends in an ellipsis */
    }

    /* gradients: axial, radial, conic */
    static const lk_color rainbow[4] = {{1, 0.2, 0.2, 1}, {1, 0.9, 0.2, 1}, {0.2, 0.6, 1, 1}, {1, 0.2, 0.2, 1}};
    for (i = 0; i < 3; i++) {
        lk_layer *g = add(root, lk_gradient_layer_create(), 440 + (i % 2) * 100, 190 + (i / 2) * 100, 90, 90);
        lk_gradient_layer_set_colors(g, rainbow, i == 2 ? 4 : 3);
        lk_gradient_layer_set_type(g, (lk_gradient_type)i);
        lk_gradient_layer_set_start_point(g, i == 0 ? lk_point_make(0, 0) : lk_point_make(0.5, 0.5));
        lk_gradient_layer_set_end_point(g, i == 0 ? lk_point_make(1, 1) : lk_point_make(1, 1));
        lk_layer_set_corner_radius(g, 12);
        lk_layer_set_masks_to_bounds(g, true);
    }

    check(lk_display_set_root_layer(display, root), "set_root_layer");
    double t = lk_media_time();
    check(lk_display_render_frame_at(display, t), "first frame");

    /* strokeEnd 0 to 1 over two seconds; the picture is taken half-way */
    lk_animation *draw_on = lk_basic_animation_create("strokeEnd");
    lk_animation_set_from_value(draw_on, lk_value_number(0));
    lk_animation_set_to_value(draw_on, lk_value_number(1));
    lk_animation_set_duration(draw_on, 2);
    check(lk_layer_add_animation(wave, draw_on, "drawOn"), "add_animation");
    lk_release(draw_on);
    lk_transaction_flush();
    double begin = lk_animation_get_begin_time(lk_layer_get_animation(wave, "drawOn"));
    check(lk_display_render_frame_at(display, begin + 1), "half-way frame");
    snprintf(file, sizeof file, "%s/content.png", dir);
    check(lk_display_write_png(display, file), "write content.png");
    printf("wrote %s\n", file);

    lk_image *snapshot = lk_layer_render_to_image(root, 0.5);
    if (!snapshot) {
        fprintf(stderr, "content: snapshot: %s\n", lk_last_error());
        return 1;
    }
    lk_layer *shown = lk_layer_create();
    lk_layer_set_frame(shown, lk_rect_make(0, 0, W / 2, H / 2));
    lk_layer_set_contents(shown, snapshot);
    lk_release(snapshot);
    lk_display *small = NULL;
    options.width = W / 2;
    options.height = H / 2;
    small = lk_display_open(&options);
    if (!small) {
        fprintf(stderr, "content: %s\n", lk_last_error());
        return 1;
    }
    check(lk_display_set_root_layer(small, shown), "snapshot root");
    check(lk_display_render_frame_at(small, begin + 1), "snapshot frame");
    snprintf(file, sizeof file, "%s/content-snapshot.png", dir);
    check(lk_display_write_png(small, file), "write content-snapshot.png");
    printf("wrote %s\n", file);
    lk_display_close(small);
    lk_display_close(display);
    lk_release(shown);
    lk_release(root);
    return 0;
}
