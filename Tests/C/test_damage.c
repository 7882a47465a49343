/*
 * Damage (issue 3, part 7): a frame redraws only the part of the output
 * that changed since the buffer was last drawn; what it leaves must be
 * exactly what a whole redraw gives. Each case draws a scene, changes it,
 * draws again (only the damaged part is redrawn) and compares every pixel
 * with a second display that draws the changed scene once, whole.
 * Tolerance: every channel within 2 (none expected on the software
 * backend, which draws the same ops to the same pixels; GPUs may round a
 * blend differently across draws).
 *
 * The cases change clips: a masksToBounds layer resized, moved, or inside a
 * shadowed layer; crossing cards in a transform layer turned (their pieces'
 * clips move); cards that start crossing (cut into more pieces: the list
 * has more ops) and stop again. A changed clip damages what it clips,
 * before and after; a 3D space whose pieces change damages what it draws.
 */
#include "lktest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 240
#define H 160

enum scene { SQUARE_MOVED, CLIP_NARROWED, CLIP_MOVED, CLIP_IN_SHADOW, CARDS_TURNED, CARDS_CROSS, CARDS_PART, SCENES };

static const char *scene_names[SCENES] = {
    "a square moved",
    "a rounded masksToBounds layer narrowed over a wider sublayer",
    "a rounded masksToBounds layer moved",
    "a masksToBounds layer with a shadow narrowed",
    "two crossing cards in a transform layer turned further",
    "two cards in a transform layer that start crossing",
    "two crossing cards in a transform layer that stop crossing",
};

/* The rules whose drawing each scene keeps through a partial redraw (the
   render side's frames, S5.2): masksToBounds and shadows (S6.1), layers
   cut in a shared 3D space (S6.3). */
static const char *scene_rules[SCENES] = {"S5.2", "S5.2 S6.1", "S5.2 S6.1", "S5.2 S6.1", "S5.2 S6.3 S7.6",
                                          "S5.2 S6.3 S7.6", "S5.2 S6.3 S7.6"};

static lk_layer *add(lk_layer *parent, lk_rect frame, lk_color bg)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_frame(l, frame);
    if (bg.a > 0) lk_layer_set_background_color(l, bg);
    lk_layer_add_sublayer(parent, l);
    lk_release(l);
    return l;
}

/* The changing layer of each scene set to state 0 or 1. */
static void set_state(enum scene s, lk_layer *changing[2], int state)
{
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    switch (s) {
    case SQUARE_MOVED:
        lk_layer_set_frame(changing[0], lk_rect_make(state ? 120 : 30, 40, 40, 30));
        break;
    case CLIP_NARROWED:
    case CLIP_IN_SHADOW:
        lk_layer_set_frame(changing[0], lk_rect_make(40, 30, state ? 70 : 140, 90));
        break;
    case CLIP_MOVED:
        lk_layer_set_frame(changing[0], lk_rect_make(state ? 90 : 40, state ? 50 : 30, 100, 90));
        break;
    case CARDS_TURNED: {
        double angle = (state ? 50 : 30) * 3.14159265358979 / 180;
        lk_layer_set_transform(changing[0], lk_transform3d_make_rotation(angle, 0, 1, 0));
        lk_layer_set_transform(changing[1], lk_transform3d_make_rotation(-angle, 0, 1, 0));
        break;
    }
    case CARDS_CROSS:
    case CARDS_PART: {
        /* apart, the second card stands 120 points behind the first */
        int crossing = s == CARDS_CROSS ? state : !state;
        double angle = 35 * 3.14159265358979 / 180;
        lk_layer_set_transform(changing[0], lk_transform3d_make_rotation(angle, 0, 1, 0));
        lk_layer_set_transform(changing[1], lk_transform3d_concat(lk_transform3d_make_rotation(-angle, 0, 1, 0),
                                                                   lk_transform3d_make_translation(0, 0, crossing ? 0 : -120)));
        break;
    }
    default:
        break;
    }
    lk_transaction_commit();
}

static lk_layer *build(enum scene s, lk_layer *changing[2])
{
    lk_layer *root = lk_layer_create(), *l, *t;
    lk_transform3d perspective = lk_transform3d_identity();
    int i;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(root, lk_color_make(0.1, 0.1, 0.12, 1));
    /* something still under every case, partly overlapped */
    add(root, lk_rect_make(10, 10, 220, 20), lk_color_make(0.3, 0.6, 0.3, 1));
    switch (s) {
    case SQUARE_MOVED:
        changing[0] = add(root, lk_rect_make(30, 40, 40, 30), lk_color_make(0.9, 0.4, 0.1, 1));
        break;
    case CLIP_NARROWED:
    case CLIP_MOVED:
    case CLIP_IN_SHADOW:
        l = add(root, lk_rect_make(40, 30, 140, 90), lk_color_make(0, 0, 0, 0));
        lk_layer_set_masks_to_bounds(l, true);
        lk_layer_set_corner_radius(l, 18);
        if (s == CLIP_IN_SHADOW) {
            lk_layer_set_background_color(l, lk_color_make(0.2, 0.2, 0.7, 1));
            lk_layer_set_shadow_opacity(l, 0.8);
            lk_layer_set_shadow_radius(l, 6);
            lk_layer_set_shadow_offset(l, lk_size_make(5, 7));
        }
        /* wider and taller than the clip: the clip decides what shows */
        add(l, lk_rect_make(-20, 10, 200, 40), lk_color_make(0.9, 0.2, 0.2, 1));
        add(l, lk_rect_make(10, 55, 30, 60), lk_color_make(0.9, 0.9, 0.2, 0.7));
        changing[0] = l;
        break;
    case CARDS_TURNED:
    case CARDS_CROSS:
    case CARDS_PART:
        perspective.m34 = -1.0 / 400;
        lk_layer_set_sublayer_transform(root, perspective);
        t = lk_transform_layer_create();
        lk_layer_set_frame(t, lk_rect_make(40, 20, 160, 120));
        lk_layer_add_sublayer(root, t);
        lk_release(t);
        for (i = 0; i < 2; i++)
            changing[i] = add(t, lk_rect_make(20, 20, 120, 80),
                              i ? lk_color_make(0.2, 0.4, 0.9, 1) : lk_color_make(0.9, 0.2, 0.2, 1));
        break;
    default:
        break;
    }
    lk_transaction_commit();
    set_state(s, changing, 0);
    return root;
}

static void check_scene(enum scene s)
{
    char name[200];
    lk_display *partial, *whole;
    lk_layer *a, *b, *changing_a[2] = {NULL, NULL}, *changing_b[2] = {NULL, NULL};
    uint8_t *first, *after, *fresh;
    snprintf(name, sizeof name, "%s damage: %s: the partly redrawn frame equals a whole redraw", scene_rules[s],
             scene_names[s]);
    partial = lkt_open_display(W, H, name);
    whole = lkt_open_display(W, H, name);
    if (!partial || !whole) {
        if (partial) lk_display_close(partial);
        if (whole) lk_display_close(whole);
        return;
    }
    a = build(s, changing_a);
    lk_display_set_root_layer(partial, a);
    first = lkt_render_and_read(partial, name);
    set_state(s, changing_a, 1);
    after = lkt_render_and_read(partial, name);

    b = build(s, changing_b);
    set_state(s, changing_b, 1);
    lk_display_set_root_layer(whole, b);
    fresh = lkt_render_and_read(whole, name);

    if (first && after && fresh) {
        size_t i, n = (size_t)W * H * 4, bad = 0, first_bad = 0, changed = 0;
        for (i = 0; i < n; i++) {
            if (abs((int)after[i] - (int)fresh[i]) > 2) {
                if (!bad) first_bad = i;
                bad++;
            }
            if (first[i] != after[i]) changed++;
        }
        /* the change shows at all, or the comparison proves nothing */
        LKT_CHECK(changed > 0, name, "the change drew nothing new (%s)", "test scene");
        LKT_CHECK(bad == 0, name, "%zu channels differ from a whole redraw; first at pixel (%zu,%zu) channel %zu: %u, whole %u",
                  bad, (first_bad / 4) % W, (first_bad / 4) / W, first_bad % 4, after[first_bad], fresh[first_bad]);
    }
    free(first);
    free(after);
    free(fresh);
    lk_display_close(partial);
    lk_display_close(whole);
    lk_release(a);
    lk_release(b);
}

int main(void)
{
    int s;
    for (s = 0; s < SCENES; s++) check_scene((enum scene)s);
    return lkt_finish();
}
