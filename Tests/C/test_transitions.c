/* Transitions (S4.13): the model side (kind, parameters, validation, the
   key "transition", one per layer, delegate start/stop) and the rendering
   of fade, moveIn, push and reveal against references computed here. */
#include "support/lktest.h"
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static lk_display *display;
static lk_layer *root;

static void parameters(void)
{
    lk_animation *t = lk_transition_create();
    LKT_CHECK(t != NULL && lk_animation_get_kind(t) == LK_ANIMATION_TRANSITION, "S4.13 lk_transition_create",
              "%s", lk_last_error());
    LKT_CHECK(lk_animation_get_transition_type(t) == LK_TRANSITION_FADE &&
                  lk_animation_get_transition_subtype(t) == LK_TRANSITION_FROM_LEFT,
              "S4.13 defaults: fade, from the left", "type %d subtype %d", (int)lk_animation_get_transition_type(t),
              (int)lk_animation_get_transition_subtype(t));
    LKT_CHECK_NEAR("S4.13 startProgress defaults to 0", lk_animation_get_start_progress(t), 0, 0);
    LKT_CHECK_NEAR("S4.13 endProgress defaults to 1", lk_animation_get_end_progress(t), 1, 0);

    LKT_CHECK_STATUS("S4.13 set type push", lk_animation_set_transition_type(t, LK_TRANSITION_PUSH), LK_OK);
    LKT_CHECK_STATUS("S4.13 set subtype from top", lk_animation_set_transition_subtype(t, LK_TRANSITION_FROM_TOP), LK_OK);
    LKT_CHECK(lk_animation_get_transition_type(t) == LK_TRANSITION_PUSH &&
                  lk_animation_get_transition_subtype(t) == LK_TRANSITION_FROM_TOP,
              "S4.13 type and subtype read back", "type %d subtype %d", (int)lk_animation_get_transition_type(t),
              (int)lk_animation_get_transition_subtype(t));
    LKT_CHECK_STATUS("S4.13 an unknown type is refused", lk_animation_set_transition_type(t, (lk_transition_type)9),
                     LK_ERROR_INVALID_ARGUMENT);
    LKT_CHECK(strstr(lk_last_error(), "t:") != NULL && lk_animation_get_transition_type(t) == LK_TRANSITION_PUSH,
              "S8 the error names the argument and nothing changed", "%s", lk_last_error());
    LKT_CHECK_STATUS("S4.13 progress outside 0...1 is refused", lk_animation_set_start_progress(t, 1.5),
                     LK_ERROR_INVALID_ARGUMENT);
    LKT_CHECK_STATUS("S4.13 progress NaN is refused", lk_animation_set_end_progress(t, NAN), LK_ERROR_INVALID_ARGUMENT);

    lk_animation *basic = lk_basic_animation_create("opacity");
    LKT_CHECK_STATUS("S4.13 transition setters refuse other kinds",
                     lk_animation_set_transition_type(basic, LK_TRANSITION_FADE), LK_ERROR_INVALID_ARGUMENT);

    lk_animation *copy = lk_animation_copy(t);
    LKT_CHECK(copy && lk_animation_get_transition_type(copy) == LK_TRANSITION_PUSH &&
                  lk_animation_get_kind(copy) == LK_ANIMATION_TRANSITION,
              "S4.13 a copy keeps the kind and the parameters", "copy %p", (void *)copy);

    /* start after end: refused when added, naming both */
    lk_layer *l = lkt_layer_new(root, 0, 0, 10, 10, lk_color_make(1, 0, 0, 1));
    lk_animation_set_start_progress(copy, 0.8);
    lk_animation_set_end_progress(copy, 0.2);
    LKT_CHECK_STATUS("S4.13 startProgress after endProgress is refused when added",
                     lk_layer_add_animation(l, copy, "x"), LK_ERROR_INVALID_ARGUMENT);
    LKT_CHECK(strstr(lk_last_error(), "startProgress") != NULL && lk_layer_get_animation(l, "transition") == NULL,
              "S4.13 the error says why and nothing was added", "%s", lk_last_error());

    /* a transition cannot be a group's child: refused by the call that
       takes it (it was taken, and refused only when the group was added) */
    lk_animation *group = lk_animation_group_create();
    lk_animation *children[1] = { t };
    LKT_CHECK_ERROR("S4.12 a transition given as a group's child is refused, naming it",
                    lk_animation_set_animations(group, children, 1), LK_ERROR_INVALID_ARGUMENT, "children[0]");
    size_t held = lk_animation_get_animations(group, NULL, 0);
    LKT_CHECK(held == 0, "S8.1 the refused call changed nothing: the group holds no child", "%zu", held);

    lk_release(group);
    lk_release(copy);
    lk_release(basic);
    lk_release(t);
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_transaction_flush();
}

static int stops, finished_stops;
static void did_stop(lk_animation *a, bool finished, void *user_data)
{
    (void)a; (void)user_data;
    stops++;
    if (finished) finished_stops++;
}

static void under_key_transition(void)
{
    lk_layer *l = lkt_layer_new(root, 0, 0, 10, 10, lk_color_make(1, 0, 0, 1));
    lk_display_render_frame_at(display, lk_media_time());
    lk_animation *t = lk_transition_create();
    lk_animation_delegate d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.did_stop = did_stop;
    lk_animation_set_delegate(t, &d, NULL, NULL);
    lk_animation_set_duration(t, 1.0);
    LKT_CHECK_STATUS("S4.13 adding a transition", lk_layer_add_animation(l, t, "whatever"), LK_OK);
    LKT_CHECK(lk_layer_get_animation(l, "transition") != NULL && lk_layer_get_animation(l, "whatever") == NULL,
              "S4.13 a transition is stored under \"transition\" whatever the key given", "by key: %p / %p",
              (void *)lk_layer_get_animation(l, "transition"), (void *)lk_layer_get_animation(l, "whatever"));
    lk_layer_add_animation(l, t, NULL);
    size_t n = lk_layer_get_animation_keys(l, NULL, 0);
    LKT_CHECK(n == 1, "S4.13 one transition per layer: a second replaces the first", "%zu keys", n);
    lk_transaction_flush();
    lk_display_dispatch(display, 0);
    LKT_CHECK(stops == 0, "S4.6 the transition replaced before it started reports no stop (one stop per start)",
              "%d stops", stops);
    lk_animation *added = lk_layer_get_animation(l, "transition");
    double b = added ? lk_animation_get_begin_time(added) : 0;
    lk_display_render_frame_at(display, b + 0.5);
    lk_display_dispatch(display, 0);
    lk_display_render_frame_at(display, b + 2.0);
    lk_display_dispatch(display, 0);
    lk_display_dispatch(display, 0);
    LKT_CHECK(stops == 1 && finished_stops == 1 && lk_layer_get_animation(l, "transition") == NULL,
              "S4.6 the transition ends with finished = true and is removed", "%d stops, %d finished", stops,
              finished_stops);
    lk_release(t);
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_transaction_flush();
}

/* S3.3: contents and the sublayers event fade */
static void builtin_fades(void)
{
    lk_layer *parent = lkt_layer_new(root, 0, 0, 10, 10, lk_color_make(1, 0, 0, 1));
    lk_display_render_frame_at(display, lk_media_time());
    LKT_CHECK(lk_layer_get_animation(parent, "transition") == NULL, "S3.3 a committed layer has no transition yet",
              "it has one");
    lk_layer *child = lkt_layer_new(parent, 0, 0, 5, 5, lk_color_make(0, 0, 1, 1));
    lk_animation *fade = lk_layer_get_animation(parent, "transition");
    LKT_CHECK(fade != NULL && lk_animation_get_kind(fade) == LK_ANIMATION_TRANSITION &&
                  lk_animation_get_transition_type(fade) == LK_TRANSITION_FADE,
              "S3.3 adding a sublayer runs the built-in sublayers action: a fade transition", "animation %p",
              (void *)fade);
    if (fade)
        LKT_CHECK_NEAR("S3.3 it lasts the transaction's duration", lk_animation_get_duration(fade), 0.25, 1e-12);
    lk_transaction_flush();

    uint32_t px = 0xff00ff00u;
    lk_image *img = lk_image_create_from_pixels(1, 1, 4, LK_PIXEL_FORMAT_ARGB32_PREMULTIPLIED, &px);
    lk_layer_set_contents(child, img);
    lk_animation *cfade = lk_layer_get_animation(child, "transition");
    LKT_CHECK(cfade != NULL && lk_animation_get_transition_type(cfade) == LK_TRANSITION_FADE &&
                  lk_layer_get_animation(child, "contents") == NULL,
              "S3.3 changing contents fades (a transition under \"transition\")", "transition %p", (void *)cfade);
    lk_release(img);

    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_remove_from_superlayer(child);
    lk_transaction_commit();
    LKT_CHECK(lk_layer_get_animation(parent, "transition") == NULL || lk_layer_get_animation(parent, "transition") == fade,
              "S3.2 with actions disabled a sublayer change adds no transition", "a new one was added");
    lk_layer_remove_from_superlayer(parent);
    lk_release(parent);
    lk_transaction_flush();
}

/* ---- rendering: the frozen "before" against the live "after" ----------- */

static uint8_t frame[64 * 32 * 4];

static void render_at(double t)
{
    lk_display_render_frame_at(display, t);
    lk_display_read_pixels(display, frame, 64 * 4);
}

/* 'r', 'b', 'k' (black) or '?' for the pixel at (x, y) */
static char colour_at(int x, int y)
{
    const uint8_t *p = frame + ((size_t)y * 64 + (size_t)x) * 4;
    if (p[0] > 240 && p[1] < 15 && p[2] < 15) return 'r';
    if (p[0] < 15 && p[1] < 15 && p[2] > 240) return 'b';
    if (p[0] < 15 && p[1] < 15 && p[2] < 15) return 'k';
    return '?';
}

/* colours at the given points, as a string */
static const char *sample(const int (*points)[2], int n)
{
    static char out[16];
    int i;
    for (i = 0; i < n && i < 15; i++) out[i] = colour_at(points[i][0], points[i][1]);
    out[i] = '\0';
    return out;
}

/* A 40x20 red layer at the top left turns blue under a transition; returns
   the transition's begin time. */
static double start(lk_layer *l, lk_transition_type type, lk_transition_subtype subtype)
{
    lk_layer_set_background_color(l, lk_color_make(1, 0, 0, 1));
    lk_layer_remove_all_animations(l);
    lk_display_render_frame_at(display, lk_media_time());
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true); /* the colour change itself must not animate */
    lk_layer_set_background_color(l, lk_color_make(0, 0, 1, 1));
    lk_animation *t = lk_transition_create();
    lk_animation_set_transition_type(t, type);
    lk_animation_set_transition_subtype(t, subtype);
    lk_animation_set_duration(t, 1.0); /* no timing function: linear (S4.7) */
    lk_layer_add_animation(l, t, NULL);
    lk_release(t);
    lk_transaction_commit();
    lk_animation *added = lk_layer_get_animation(l, "transition");
    return added ? lk_animation_get_begin_time(added) : NAN;
}

static void moving_transitions(void)
{
    /* added without the superlayer's built-in fade (S3.3), checked below */
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer *l = lkt_layer_new(root, 0, 0, 40, 20, lk_color_make(1, 0, 0, 1));
    lk_transaction_commit();

    /* push from the right, half-way: the old red is 20 px to the left (x 0..20
       shows), the new blue enters 20 px right of its place (x 20..60) */
    double b = start(l, LK_TRANSITION_PUSH, LK_TRANSITION_FROM_RIGHT);
    render_at(b + 0.5);
    static const int push_points[][2] = { { 10, 10 }, { 30, 10 }, { 50, 10 }, { 62, 10 }, { 30, 25 } };
    const char *got = sample(push_points, 5);
    LKT_CHECK(strcmp(got, "rbbkk") == 0, "S4.13 push from the right at 0.5: old out to the left, new in from the right",
              "samples %s, expected rbbkk", got);
    render_at(b + 2.0);
    got = sample(push_points, 5);
    LKT_CHECK(strcmp(got, "bbkkk") == 0, "S4.13 after the push only the new appearance shows", "samples %s", got);

    /* moveIn from the left at 0.25: the new blue covers x -30..10 over the old red */
    b = start(l, LK_TRANSITION_MOVE_IN, LK_TRANSITION_FROM_LEFT);
    render_at(b + 0.25);
    static const int move_points[][2] = { { 5, 10 }, { 20, 10 }, { 38, 10 }, { 45, 10 } };
    got = sample(move_points, 4);
    LKT_CHECK(strcmp(got, "brrk") == 0, "S4.13 moveIn from the left at 0.25: the new slides in over the old",
              "samples %s, expected brrk", got);

    /* reveal from the top at 0.5: the old red has moved 10 px down (y 10..30)
       on top of the new blue, which shows where the old has left */
    b = start(l, LK_TRANSITION_REVEAL, LK_TRANSITION_FROM_TOP);
    render_at(b + 0.5);
    static const int reveal_points[][2] = { { 20, 5 }, { 20, 15 }, { 20, 25 }, { 20, 31 } };
    got = sample(reveal_points, 4);
    LKT_CHECK(strcmp(got, "brrk") == 0, "S4.13 reveal from the top at 0.5: the old slides down uncovering the new",
              "samples %s, expected brrk", got);

    /* fade at 0.25: an exact dissolve, 0.75 red + 0.25 blue, opaque */
    b = start(l, LK_TRANSITION_FADE, LK_TRANSITION_FROM_LEFT);
    render_at(b + 0.25);
    {
        const uint8_t *p = frame + ((size_t)10 * 64 + 20) * 4;
        LKT_CHECK(abs(p[0] - 191) <= 2 && p[1] <= 2 && abs(p[2] - 64) <= 2 && p[3] == 255,
                  "S4.13 fade at 0.25: 0.75 of the old and 0.25 of the new (tolerance 2/255)",
                  "pixel %u,%u,%u,%u, expected 191,0,64,255", p[0], p[1], p[2], p[3]);
        const uint8_t *q = frame + ((size_t)10 * 64 + 50) * 4;
        LKT_CHECK(q[0] <= 2 && q[1] <= 2 && q[2] <= 2, "S4.13 the fade leaves what is around the layer alone",
                  "pixel %u,%u,%u", q[0], q[1], q[2]);
    }

    /* startProgress/endProgress: a push shown from 0.5 to 1 starts half-way */
    lk_layer_set_background_color(l, lk_color_make(1, 0, 0, 1));
    lk_layer_remove_all_animations(l);
    lk_display_render_frame_at(display, lk_media_time());
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true); /* the colour change itself must not animate */
    lk_layer_set_background_color(l, lk_color_make(0, 0, 1, 1));
    lk_animation *t = lk_transition_create();
    lk_animation_set_transition_type(t, LK_TRANSITION_PUSH);
    lk_animation_set_transition_subtype(t, LK_TRANSITION_FROM_RIGHT);
    lk_animation_set_start_progress(t, 0.5);
    lk_animation_set_duration(t, 1.0);
    lk_layer_add_animation(l, t, NULL);
    lk_release(t);
    lk_transaction_commit();
    lk_animation *added = lk_layer_get_animation(l, "transition");
    b = added ? lk_animation_get_begin_time(added) : NAN;
    render_at(b);
    got = sample(push_points, 5);
    LKT_CHECK(strcmp(got, "rbbkk") == 0, "S4.13 startProgress 0.5: at its begin the push is half-way",
              "samples %s, expected rbbkk", got);

    /* a sublayer added under a transition on the superlayer comes in with it */
    lk_layer_set_background_color(l, lk_color_make(0, 0, 0, 0));
    lk_layer_remove_all_animations(l);
    lk_display_render_frame_at(display, lk_media_time());
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer *child = lkt_layer_new(l, 0, 0, 40, 20, lk_color_make(0, 0, 1, 1));
    t = lk_transition_create();
    lk_animation_set_transition_type(t, LK_TRANSITION_MOVE_IN);
    lk_animation_set_transition_subtype(t, LK_TRANSITION_FROM_BOTTOM);
    lk_animation_set_duration(t, 1.0);
    lk_layer_add_animation(l, t, NULL);
    lk_release(t);
    lk_transaction_commit();
    added = lk_layer_get_animation(l, "transition");
    b = added ? lk_animation_get_begin_time(added) : NAN;
    render_at(b + 0.5);
    static const int child_points[][2] = { { 20, 5 }, { 20, 15 }, { 20, 25 } };
    got = sample(child_points, 3);
    LKT_CHECK(strcmp(got, "kbb") == 0, "S4.13 a sublayer added under the superlayer's transition moves in with it",
              "samples %s, expected kbb", got);
    (void)child;
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_transaction_flush();
}

/* The seed's image switching: setting contents fades from the old image to
   the new (the built-in contents action, S3.3), and a tab switch: one
   sublayer replaced by another under a fade added to the superlayer. */
static uint32_t solid[4];
static lk_image *solid_image(uint32_t argb)
{
    for (int i = 0; i < 4; i++) solid[i] = argb;
    return lk_image_create_from_pixels(2, 2, 8, LK_PIXEL_FORMAT_ARGB32_PREMULTIPLIED, solid);
}

static void image_switch_and_tabs(void)
{
    lk_image *red = solid_image(0xffff0000u), *blue = solid_image(0xff0000ffu);
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer *view = lkt_layer_new(root, 0, 0, 40, 20, lk_color_make(0, 0, 0, 0));
    lk_layer_set_contents(view, red);
    lk_transaction_commit();
    lk_display_render_frame_at(display, lk_media_time());

    /* the program just sets the new image; the fade takes the transaction's
       0.25 s on the default curve */
    lk_transaction_begin();
    lk_transaction_set_animation_timing_function(lk_timing_function_named(LK_TIMING_LINEAR));
    lk_layer_set_contents(view, blue);
    lk_transaction_commit();
    lk_animation *fade = lk_layer_get_animation(view, "transition");
    double b = fade ? lk_animation_get_begin_time(fade) : NAN;
    render_at(b + 0.125);
    const uint8_t *p = frame + ((size_t)10 * 64 + 20) * 4;
    LKT_CHECK(abs(p[0] - 128) <= 3 && abs(p[2] - 128) <= 3 && p[3] == 255,
              "S3.3 switching images: half-way through the built-in fade both show half (tolerance 3/255)",
              "pixel %u,%u,%u,%u, expected 128,0,128,255", p[0], p[1], p[2], p[3]);
    render_at(b + 1);
    LKT_CHECK(colour_at(20, 10) == 'b', "S3.3 after the fade only the new image shows", "pixel is %c", colour_at(20, 10));

    /* a tab switch: the red tab is replaced by the blue one under a fade
       transition on the superlayer */
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer *tabs = lkt_layer_new(root, 0, 0, 40, 20, lk_color_make(0, 0, 0, 0));
    lk_layer *first = lkt_layer_new(tabs, 0, 0, 40, 20, lk_color_make(1, 0, 0, 1));
    lk_transaction_commit();
    lk_display_render_frame_at(display, lk_media_time());
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer *second = lk_layer_create();
    lkt_layer_place(second, 0, 0, 40, 20);
    lk_layer_set_background_color(second, lk_color_make(0, 0, 1, 1));
    lk_layer_replace_sublayer(tabs, first, second);
    lk_release(second);
    lk_animation *t = lk_transition_create();
    lk_animation_set_duration(t, 1.0);
    lk_layer_add_animation(tabs, t, NULL);
    lk_release(t);
    lk_transaction_commit();
    fade = lk_layer_get_animation(tabs, "transition");
    b = fade ? lk_animation_get_begin_time(fade) : NAN;
    render_at(b + 0.5);
    p = frame + ((size_t)10 * 64 + 20) * 4;
    LKT_CHECK(abs(p[0] - 128) <= 3 && abs(p[2] - 128) <= 3 && p[3] == 255,
              "S4.13 a tab switch under the superlayer's fade: half-way both tabs show half",
              "pixel %u,%u,%u,%u, expected 128,0,128,255", p[0], p[1], p[2], p[3]);
    render_at(b + 2);
    LKT_CHECK(colour_at(20, 10) == 'b', "S4.13 after the fade only the new tab shows", "pixel is %c", colour_at(20, 10));

    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_remove_from_superlayer(view);
    lk_layer_remove_from_superlayer(tabs);
    lk_transaction_commit();
    lk_release(red);
    lk_release(blue);
}

int main(void)
{
    display = lkt_open_display(64, 32, "transitions");
    if (!display) return lkt_finish();
    root = lkt_layer_new(NULL, 0, 0, 64, 32, lk_color_make(0, 0, 0, 1));
    lk_display_set_root_layer(display, root);
    /* the root's own built-in fade on sublayer changes (S3.3) would overlap
       the checks below: it is checked on its own in builtin_fades() */
    lk_layer_set_action(root, "sublayers", lk_action_null());
    builtin_fades();
    parameters();
    under_key_transition();
    moving_transitions();
    image_switch_and_tabs();
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
