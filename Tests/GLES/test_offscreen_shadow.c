/*
 * S6.1 shadows through the C API on both backends: a layer partly left of
 * the output (x = -60) whose shadow is offset 50 pixels into it. The part of
 * the shadow on screen comes from content off screen; gles's offscreen
 * targets carry a margin for it (docs/gles.md). Both backends draw the frame
 * and every pixel must agree within 8 of 255 (the cross-backend tolerance:
 * the rounded corners' antialiasing differs by up to 3); the shadow must be
 * there (the pixel at x = 45, cast by content at x = -5, is dark).
 */
#include <layerkit/layerkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 200
#define H 120

static uint32_t *draw(const char *backend)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = backend;
    o.width = W;
    o.height = H;
    o.manual_clock = true;
    lk_display *d = lk_display_open(&o);
    if (!d) {
        printf("FAIL offscreen shadow: opening %s: %s\n", backend, lk_last_error());
        return NULL;
    }
    lk_layer *root = lk_layer_create(), *l = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(root, lk_color_make(1, 1, 1, 1));
    lk_layer_set_frame(l, lk_rect_make(-60, 30, 100, 40));
    lk_layer_set_background_color(l, lk_color_make(1, 0, 0, 1));
    lk_layer_set_corner_radius(l, 6);
    lk_layer_set_shadow_opacity(l, 0.8);
    lk_layer_set_shadow_offset(l, lk_size_make(50, 8));
    lk_layer_set_shadow_radius(l, 4);
    lk_layer_add_sublayer(root, l);
    lk_display_set_root_layer(d, root);
    lk_transaction_flush();
    lk_display_render_frame_at(d, lk_media_time() + 1);
    uint32_t *pixels = (uint32_t *)malloc((size_t)W * H * 4);
    if (pixels && lk_display_read_pixels(d, pixels, W * 4) != LK_OK) {
        printf("FAIL offscreen shadow: reading %s: %s\n", backend, lk_last_error());
        free(pixels);
        pixels = NULL;
    }
    lk_display_close(d);
    lk_release(l);
    lk_release(root);
    return pixels;
}

int main(void)
{
    uint32_t *s = draw("software"), *g = draw("gles");
    int failed = 1;
    if (s && g) {
        int worst = 0, wx = 0, wy = 0;
        for (int i = 0; i < W * H; i++)
            for (int c = 0; c < 32; c += 8) {
                int d = abs((int)((s[i] >> c) & 255) - (int)((g[i] >> c) & 255));
                if (d > worst) { worst = d; wx = i % W; wy = i / W; }
            }
        uint32_t shadow = s[50 * W + 45];
        printf("# worst difference %d at (%d,%d): software %08x, gles %08x; software at (45,50): %08x\n", worst,
               wx, wy, s[wy * W + wx], g[wy * W + wx], shadow);
        if (((shadow >> 16) & 255) > 120)
            printf("FAIL S6.1 the shadow of content left of the output: no shadow at (45,50) on software (%08x)\n",
                   shadow);
        else if (worst > 8)
            printf("FAIL S6.1 the shadow of content left of the output is the same on gles as on software: "
                   "worst difference %d at (%d,%d)\n", worst, wx, wy);
        else {
            printf("PASS S6.1 the shadow of content left of the output is the same on gles as on software\n");
            failed = 0;
        }
    }
    free(s);
    free(g);
    printf("%d passed, %d failed\n", !failed, failed);
    return failed;
}
