/* The gles plugin under valgrind: a small scene that takes every path of the
   renderer once (solid and rounded fills, borders, images uploaded and
   re-uploaded after their pixels change, a rotated rounded clip, a mask
   group, a shadow group, a shadow wide enough to group pixels into taps,
   group opacity, an image released while the display lives) for a few frames, then closes. Tests/GLES/memcheck.sh runs it under
   memcheck; Mesa's own allocations are suppressed there (gles.supp), ours
   are not. Prints PASS/FAIL lines like every test. */
#include <layerkit/layerkit.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures, passes;

static void check(int ok, const char *name, const char *detail)
{
    if (ok) {
        printf("PASS %s\n", name);
        passes++;
    } else {
        printf("FAIL %s: %s\n", name, detail);
        failures++;
    }
}

static lk_layer *box(lk_layer *parent, double x, double y, double w, double h, lk_color c)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_frame(l, lk_rect_make(x, y, w, h));
    lk_layer_set_background_color(l, c);
    if (parent) lk_layer_add_sublayer(parent, l);
    return l;
}

int main(void)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = "gles";
    o.width = 96;
    o.height = 96;
    o.manual_clock = true;
    lk_display *d = lk_display_open(&o);
    check(d != NULL, "gles display opens", lk_last_error());
    if (!d) return 1;

    uint32_t pixels[16 * 16];
    for (int i = 0; i < 16 * 16; i++) pixels[i] = (i % 3) ? 0xff20c040u : 0x80400000u;
    lk_image *image = lk_image_create_from_pixels(16, 16, 16 * 4, LK_PIXEL_FORMAT_ARGB32_PREMULTIPLIED, pixels);
    check(image != NULL, "an image is made", lk_last_error());

    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer *root = box(NULL, 0, 0, 96, 96, lk_color_make(0.1, 0.1, 0.2, 1));
    lk_layer *rounded = box(root, 4, 4, 40, 30, lk_color_make(1, 0, 0, 1));
    lk_layer_set_corner_radius(rounded, 8);
    lk_layer_set_border_width(rounded, 2);
    lk_layer_set_border_color(rounded, lk_color_make(1, 1, 1, 1));
    /* a blur wide enough to group pixels into taps (two passes a direction) */
    lk_layer_set_shadow_opacity(rounded, 0.5);
    lk_layer_set_shadow_radius(rounded, 40);
    lk_layer *pic = box(root, 50, 4, 40, 40, lk_color_make(0, 0, 0, 0));
    lk_layer_set_contents(pic, image);
    lk_layer *clip = box(root, 10, 44, 40, 40, lk_color_make(0, 0, 1, 1));
    lk_layer_set_masks_to_bounds(clip, true);
    lk_layer_set_corner_radius(clip, 10);
    lk_layer_set_transform(clip, lk_transform3d_make_rotation(0.4, 0, 0, 1));
    lk_layer *inner = box(clip, -10, -10, 30, 60, lk_color_make(0, 1, 0, 1));
    lk_layer *masked = box(root, 56, 50, 36, 36, lk_color_make(1, 1, 0, 1));
    lk_layer *mask = box(NULL, 0, 0, 36, 36, lk_color_make(0, 0, 0, 1));
    lk_layer_set_corner_radius(mask, 18);
    lk_layer_set_mask(masked, mask);
    lk_layer_set_shadow_opacity(masked, 0.8);
    lk_layer_set_shadow_radius(masked, 3);
    lk_layer_set_opacity(masked, 0.6);
    lk_layer *child = box(masked, 4, 4, 20, 20, lk_color_make(1, 0, 1, 1));
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);

    lk_status s = LK_OK;
    for (int i = 0; i < 3 && s == LK_OK; i++) s = lk_display_render_frame_at(d, 1.0 + i / 60.0);
    check(s == LK_OK, "frames render", lk_last_error());

    /* new pixels: the texture is made again; then the image goes while the display lives */
    pixels[0] = 0xffffffffu;
    lk_image *changed = lk_image_create_from_pixels(16, 16, 16 * 4, LK_PIXEL_FORMAT_ARGB32_PREMULTIPLIED, pixels);
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_contents(pic, changed);
    lk_transaction_commit();
    s = lk_display_render_frame_at(d, 2.0);
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_contents(pic, NULL);
    lk_transaction_commit();
    lk_release(image);
    lk_release(changed);
    if (s == LK_OK) s = lk_display_render_frame_at(d, 3.0);
    check(s == LK_OK, "frames render after the contents change and go", lk_last_error());

    static uint8_t rgba[96 * 96 * 4];
    s = lk_display_read_pixels(d, rgba, 96 * 4);
    check(s == LK_OK, "read_pixels", lk_last_error());
    /* the rounded red layer's centre */
    const uint8_t *p = rgba + (19 * 96 + 24) * 4;
    char detail[64];
    snprintf(detail, sizeof detail, "rgba %u %u %u %u", p[0], p[1], p[2], p[3]);
    check(p[0] > 240 && p[1] < 16 && p[2] < 16, "what was drawn is there", detail);

    lk_display_close(d);
    lk_release(child);
    lk_release(mask);
    lk_release(masked);
    lk_release(inner);
    lk_release(clip);
    lk_release(pic);
    lk_release(rounded);
    lk_release(root);
    printf("memcheck scene: %d passed, %d failed\n", passes, failures);
    return failures ? 1 : 0;
}
