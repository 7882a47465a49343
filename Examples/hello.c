#include <stdio.h>
#include <layerkit/layerkit.h>

int main(void)
{
    lk_layer *root = lk_layer_create(), *card = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, 320, 240));
    lk_layer_set_background_color(root, lk_color_make(0.10, 0.12, 0.20, 1));
    lk_layer_set_frame(card, lk_rect_make(60, 50, 200, 140));
    lk_layer_set_background_color(card, lk_color_make(1.00, 0.55, 0.10, 1));
    lk_layer_set_corner_radius(card, 24);
    lk_layer_set_border_width(card, 4);
    lk_layer_set_border_color(card, lk_color_make(1, 1, 1, 1));
    lk_layer_add_sublayer(root, card);

    lk_display_options options = { sizeof options, "software", NULL, NULL, 320, 240, 0, true };
    lk_display *display = lk_display_open(&options);
    if (!display) {
        fprintf(stderr, "hello: %s\n", lk_last_error());
        lk_release(card);
        lk_release(root);
        return 1;
    }
    lk_display_set_root_layer(display, root);
    lk_display_render_frame_at(display, 0.0);
    lk_status status = lk_display_write_png(display, "hello.png");
    if (status != LK_OK) fprintf(stderr, "hello: %s\n", lk_last_error());
    else printf("wrote hello.png\n");
    lk_display_close(display);
    lk_release(card);
    lk_release(root);
    return status == LK_OK ? 0 : 1;
}
