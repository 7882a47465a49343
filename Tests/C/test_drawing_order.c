/* S1.3 drawing order follows zPosition, and an animation of zPosition
   changes it while it runs (the render side sorts by presented values). */
#include "support/lktest.h"
#include <string.h>

static uint8_t frame[32 * 16 * 4];

/* 'r', 'b' or '?' at (x, y) after rendering at t */
static char colour_at(lk_display *d, double t, int x, int y)
{
    lk_display_render_frame_at(d, t);
    lk_display_read_pixels(d, frame, 32 * 4);
    const uint8_t *p = frame + ((size_t)y * 32 + (size_t)x) * 4;
    if (p[0] > 240 && p[2] < 15) return 'r';
    if (p[2] > 240 && p[0] < 15) return 'b';
    return '?';
}

int main(void)
{
    lk_display *d = lkt_open_display(32, 16, "drawing order");
    if (!d) return lkt_finish();
    lk_layer *root = lkt_layer_new(NULL, 0, 0, 32, 16, lk_color_make(0, 0, 0, 1));
    lk_display_set_root_layer(d, root);
    lk_layer *a = lkt_layer_new(root, 0, 0, 32, 16, lk_color_make(1, 0, 0, 1));
    lk_layer *b = lkt_layer_new(root, 0, 0, 32, 16, lk_color_make(0, 0, 1, 1));
    double t0 = lk_media_time();
    LKT_CHECK(colour_at(d, t0, 16, 8) == 'b', "S1.3 equal zPosition: the later sublayer is on top", "not blue");

    lk_layer_set_z_position(a, 1);
    lk_transaction_flush();
    LKT_CHECK(colour_at(d, t0 + 5, 16, 8) == 'r', "S1.3 a higher zPosition draws on top", "not red");
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_z_position(a, 0);
    lk_transaction_commit();

    /* an explicit animation of zPosition 0 -> 2 over 1 s; the model stays 0 */
    lk_animation *anim = lk_basic_animation_create("zPosition");
    lk_animation_set_from_value(anim, lk_value_number(-1));
    lk_animation_set_to_value(anim, lk_value_number(1));
    lk_animation_set_duration(anim, 1.0);
    lk_layer_add_animation(a, anim, "z");
    lk_release(anim);
    lk_transaction_flush();
    lk_animation *added = lk_layer_get_animation(a, "z");
    double begin = added ? lk_animation_get_begin_time(added) : t0;
    LKT_CHECK(colour_at(d, begin + 0.25, 16, 8) == 'b', "S1.3 while the animated zPosition is below the sibling's, under it",
              "not blue at z -0.5");
    LKT_CHECK(colour_at(d, begin + 0.75, 16, 8) == 'r', "S1.3 once the animated zPosition passes the sibling's, on top",
              "not red at z 0.5");
    LKT_CHECK(colour_at(d, begin + 2, 16, 8) == 'b', "S4.5 when the animation ends the model order returns",
              "not blue after the end");
    lk_display_close(d);
    (void)b;
    lk_release(root);
    return lkt_finish();
}
