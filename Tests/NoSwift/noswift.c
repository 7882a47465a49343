/* Runs on a machine with no Swift toolchain (Tests/NoSwift/run.sh hides it):
   the installed liblayerkit.so carries its Swift runtime inside and finds the
   software backend beside itself. Creates a layer, sets a property, renders a
   frame with the manual clock and reads one pixel back. */
#include <stdio.h>
#include <string.h>
#include <layerkit/layerkit.h>

static int failures = 0;

static void check(int ok, const char *name, const char *detail)
{
    if (ok) {
        printf("PASS noswift %s\n", name);
    } else {
        printf("FAIL noswift %s: %s\n", name, detail);
        failures++;
    }
}

int main(void)
{
    lk_display_options options;
    lk_display *display;
    lk_layer *root;
    unsigned char pixels[64 * 64 * 4];
    const unsigned char *centre = pixels + (32 * 64 + 32) * 4;
    char detail[256];

    check(strcmp(lk_version_string(), LK_VERSION_STRING) == 0, "library loads and reports its version",
          lk_version_string());

    root = lk_layer_create();
    check(root != NULL, "lk_layer_create", lk_last_error());
    if (!root)
        return 1;
    check(lk_layer_set_frame(root, lk_rect_make(0, 0, 64, 64)) == LK_OK, "set frame", lk_last_error());
    check(lk_layer_set_background_color(root, lk_color_make(1, 0, 0, 1)) == LK_OK,
          "set backgroundColor", lk_last_error());

    memset(&options, 0, sizeof options);
    options.struct_size = (uint32_t)sizeof options;
    options.backend = "software";
    options.width = 64;
    options.height = 64;
    options.manual_clock = true;
    display = lk_display_open(&options);
    check(display != NULL, "open the software display (plugin found beside the library)", lk_last_error());
    if (!display) {
        lk_release(root);
        return 1;
    }
    check(lk_display_set_root_layer(display, root) == LK_OK, "set root layer", lk_last_error());
    check(lk_display_render_frame_at(display, 0.0) == LK_OK, "render a frame", lk_last_error());
    memset(pixels, 0, sizeof pixels);
    check(lk_display_read_pixels(display, pixels, 64 * 4) == LK_OK, "read pixels", lk_last_error());
    snprintf(detail, sizeof detail, "centre pixel is %u,%u,%u,%u, expected 255,0,0,255",
             centre[0], centre[1], centre[2], centre[3]);
    check(centre[0] == 255 && centre[1] == 0 && centre[2] == 0 && centre[3] == 255,
          "the centre pixel is the layer's red", detail);

    lk_display_close(display);
    lk_release(root);
    return failures ? 1 : 0;
}
