/*
 * LayerKit animation scenes, rendered headless on the software backend with
 * a manual clock: every frame is a PNG, and each scene also becomes one
 * animated PNG (APNG) that a browser or image viewer plays.
 *
 *   keyframe-colours  a layer through blue -> red -> green -> blue in 2 s
 *                     (a keyframe animation of backgroundColor)
 *   ship              a "ship" along the Bezier curve (0,150) -> (300,150)
 *                     with control points (75,0) and (225,300), paced, with
 *                     rotationMode auto; dots mark the path (placed with
 *                     lk_path_get_point_at_distance)
 *   spring            three springs side by side: damping 5, 10 and 20
 *                     (under-, under- and critically damped), each lasting
 *                     its settling duration
 *   group             a group of the ship's path and a colour change over 4 s
 *   transition-push   a panel changes colour under a push from the right
 *   transition-fade   the panel's tab is replaced under a fade
 *
 * Writes OUTDIR/animations/<scene>/frame-NNN.png and OUTDIR/<scene>.apng.
 * usage: animations [OUTDIR]   (default: out; the folder must exist)
 * build (from Examples/; support/apng.c writes the animated PNG, with zlib):
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L animations.c support/apng.c \
 *       $(pkg-config --cflags --libs layerkit) -lz -lm -o animations
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <layerkit/layerkit.h>
#include "support/apng.h"

#define WIDTH 360
#define HEIGHT 300
#define FPS 25

static lk_display *display;

static void fail(const char *call, int line)
{
    fprintf(stderr, "animations.c:%d: %s failed: %s\n", line, call, lk_last_error());
    lk_display_close(display);
    exit(1);
}

#define CHECK(call) do { if ((call) != LK_OK) fail(#call, __LINE__); } while (0)
#define MADE(x, call) do { if (((x) = (call)) == NULL) fail(#call, __LINE__); } while (0)

static lk_layer *box(lk_layer *parent, double cx, double cy, double w, double h, lk_color colour, double radius)
{
    lk_layer *l;
    MADE(l, lk_layer_create());
    CHECK(lk_layer_set_bounds(l, lk_rect_make(0, 0, w, h)));
    CHECK(lk_layer_set_position(l, lk_point_make(cx, cy)));
    CHECK(lk_layer_set_background_color(l, colour));
    CHECK(lk_layer_set_corner_radius(l, radius));
    if (parent) {
        CHECK(lk_layer_add_sublayer(parent, l));
        lk_release(l);
    }
    return l;
}

/* A fresh root for a scene: a dark background. */
static lk_layer *new_scene(void)
{
    lk_layer *root = box(NULL, WIDTH / 2.0, HEIGHT / 2.0, WIDTH, HEIGHT, lk_color_make(0.1, 0.1, 0.13, 1), 0);
    CHECK(lk_display_set_root_layer(display, root));
    lk_release(root);
    return root;
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        perror(path);
        exit(1);
    }
}

/* Renders `seconds` of the scene from `start` (media time): PNG frames and an APNG. */
static void record(const char *outdir, const char *scene, double start, double seconds)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/animations", outdir);
    make_dir(path);
    snprintf(path, sizeof path, "%s/animations/%s", outdir, scene);
    make_dir(path);
    uint32_t frames = (uint32_t)(seconds * FPS + 0.5) + 1;
    char apng_path[1024];
    snprintf(apng_path, sizeof apng_path, "%s/%s.apng", outdir, scene);
    apng_writer *w = apng_open(apng_path, WIDTH, HEIGHT, frames, FPS);
    if (!w) exit(1);
    uint8_t *pixels = (uint8_t *)malloc((size_t)WIDTH * HEIGHT * 4);
    if (!pixels) exit(1);
    for (uint32_t i = 0; i < frames; i++) {
        CHECK(lk_display_render_frame_at(display, start + (double)i / FPS));
        CHECK(lk_display_read_pixels(display, pixels, (size_t)WIDTH * 4));
        if (apng_add_frame(w, pixels, (size_t)WIDTH * 4) != 0) {
            fprintf(stderr, "%s: could not add frame %u\n", apng_path, i);
            exit(1);
        }
        char frame_path[1100];
        snprintf(frame_path, sizeof frame_path, "%s/frame-%03u.png", path, i);
        CHECK(lk_display_write_png(display, frame_path));
    }
    free(pixels);
    if (apng_close(w) != 0) {
        fprintf(stderr, "%s: could not finish the file\n", apng_path);
        exit(1);
    }
    printf("  %-17s %3u frames in %s/, preview %s\n", scene, frames, path, apng_path);
}

/* Adds `a` (and releases it), commits, and returns when it begins. */
static double add(lk_layer *layer, lk_animation *a, const char *key)
{
    CHECK(lk_layer_add_animation(layer, a, key));
    lk_release(a);
    lk_transaction_flush();
    return lk_animation_get_begin_time(lk_layer_get_animation(layer, key));
}

static void keyframe_colours(const char *outdir, double now)
{
    lk_layer *root = new_scene();
    lk_layer *l = box(root, WIDTH / 2.0, HEIGHT / 2.0, 200, 200, lk_color_make(0, 0, 1, 1), 24);
    CHECK(lk_display_render_frame_at(display, now));
    lk_animation *a;
    MADE(a, lk_keyframe_animation_create("backgroundColor"));
    lk_value colours[4] = { lk_value_color(lk_color_make(0, 0, 1, 1)), lk_value_color(lk_color_make(1, 0, 0, 1)),
                            lk_value_color(lk_color_make(0, 1, 0, 1)), lk_value_color(lk_color_make(0, 0, 1, 1)) };
    CHECK(lk_animation_set_values(a, colours, 4));
    CHECK(lk_animation_set_duration(a, 2.0));
    record(outdir, "keyframe-colours", add(l, a, "colours"), 2.0);
}

static lk_path *ship_path(void)
{
    lk_path *p;
    MADE(p, lk_path_create_from_svg("M30,150 C105,0 255,300 330,150"));
    return p;
}

/* a ship: a hull with a bright nose pointing along +x, so its turning shows */
static lk_layer *ship_layer(lk_layer *root)
{
    lk_layer *hull = box(root, 30, 150, 44, 22, lk_color_make(0.85, 0.85, 0.9, 1), 11);
    box(hull, 38, 11, 12, 12, lk_color_make(1, 0.4, 0.1, 1), 6);
    return hull;
}

static void mark_path(lk_layer *root, lk_path *p)
{
    double length = lk_path_get_length(p);
    for (int i = 0; i <= 40; i++) {
        lk_point at;
        CHECK(lk_path_get_point_at_distance(p, length * i / 40, &at, NULL));
        box(root, at.x, at.y, 4, 4, lk_color_make(0.4, 0.45, 0.55, 1), 2);
    }
}

static void ship(const char *outdir, double now)
{
    lk_layer *root = new_scene();
    lk_path *p = ship_path();
    mark_path(root, p);
    lk_layer *s = ship_layer(root);
    CHECK(lk_display_render_frame_at(display, now));
    lk_animation *a;
    MADE(a, lk_keyframe_animation_create("position"));
    CHECK(lk_animation_set_path(a, p));
    CHECK(lk_animation_set_calculation_mode(a, LK_CALCULATION_PACED));
    CHECK(lk_animation_set_rotation_mode(a, LK_ROTATION_AUTO));
    CHECK(lk_animation_set_duration(a, 3.0));
    lk_release(p);
    record(outdir, "ship", add(s, a, "ship"), 3.0);
}

static void springs(const char *outdir, double now)
{
    lk_layer *root = new_scene();
    const double damping[3] = { 5, 10, 20 };
    lk_layer *balls[3];
    double longest = 0;
    for (int i = 0; i < 3; i++) {
        /* rails showing start and target */
        box(root, 80 + i * 100, 150, 2, 240, lk_color_make(0.3, 0.3, 0.35, 1), 0);
        box(root, 80 + i * 100, 220, 40, 2, lk_color_make(0.9, 0.9, 0.3, 1), 0);
        balls[i] = box(root, 80 + i * 100, 50, 36, 36, lk_color_make(0.2 + 0.3 * i, 0.6, 1 - 0.3 * i, 1), 18);
    }
    CHECK(lk_display_render_frame_at(display, now));
    double begin = 0;
    for (int i = 0; i < 3; i++) {
        lk_animation *a;
        MADE(a, lk_spring_animation_create("position.y"));
        CHECK(lk_animation_set_damping(a, damping[i]));
        CHECK(lk_animation_set_from_value(a, lk_value_number(50)));
        CHECK(lk_animation_set_to_value(a, lk_value_number(220)));
        double settle = lk_animation_get_settling_duration(a);
        if (settle > longest) longest = settle;
        CHECK(lk_layer_add_animation(balls[i], a, "spring"));
        lk_release(a);
        CHECK(lk_layer_set_position(balls[i], lk_point_make(80 + i * 100, 220)));  /* the model ends at the target */
    }
    lk_transaction_flush();
    begin = lk_animation_get_begin_time(lk_layer_get_animation(balls[0], "spring"));
    record(outdir, "spring", begin, longest + 0.2);
}

static void group(const char *outdir, double now)
{
    lk_layer *root = new_scene();
    lk_path *p = ship_path();
    mark_path(root, p);
    lk_layer *s = ship_layer(root);
    CHECK(lk_display_render_frame_at(display, now));
    lk_animation *move, *colour, *g;
    MADE(move, lk_keyframe_animation_create("position"));
    CHECK(lk_animation_set_path(move, p));
    CHECK(lk_animation_set_rotation_mode(move, LK_ROTATION_AUTO));
    MADE(colour, lk_basic_animation_create("backgroundColor"));
    CHECK(lk_animation_set_from_value(colour, lk_value_color(lk_color_make(0.85, 0.85, 0.9, 1))));
    CHECK(lk_animation_set_to_value(colour, lk_value_color(lk_color_make(0.2, 0.8, 0.3, 1))));
    MADE(g, lk_animation_group_create());
    lk_animation *children[2] = { move, colour };
    CHECK(lk_animation_set_animations(g, children, 2));
    CHECK(lk_animation_set_duration(g, 4.0));
    lk_release(move);
    lk_release(colour);
    lk_release(p);
    record(outdir, "group", add(s, g, "group"), 4.0);
}

/* A panel changes colour under a push from the right (1 s), then its tabs
   switch under a fade (0.8 s): transitions (S4.13) snapshot the appearance
   before the change and animate it against the one after. */
static double transition_on(lk_layer *layer, lk_transition_type type, lk_transition_subtype subtype, double seconds)
{
    lk_animation *t;
    MADE(t, lk_transition_create());
    CHECK(lk_animation_set_transition_type(t, type));
    CHECK(lk_animation_set_transition_subtype(t, subtype));
    CHECK(lk_animation_set_duration(t, seconds));
    CHECK(lk_animation_set_timing_function(t, lk_timing_function_named(LK_TIMING_EASE_IN_EASE_OUT)));
    CHECK(lk_layer_add_animation(layer, t, NULL));
    lk_release(t);
    CHECK(lk_transaction_commit());
    return lk_animation_get_begin_time(lk_layer_get_animation(layer, "transition"));
}

static void transitions(const char *outdir, double now)
{
    lk_layer *root = new_scene();
    /* the window the panel moves in clips it */
    lk_layer *window = box(root, WIDTH / 2.0, HEIGHT / 2.0, 220, 140, lk_color_make(0, 0, 0, 0), 12);
    CHECK(lk_layer_set_masks_to_bounds(window, true));
    lk_layer *panel = box(window, 110, 70, 220, 140, lk_color_make(0.85, 0.3, 0.25, 1), 0);
    lk_layer *tab = box(panel, 110, 70, 120, 60, lk_color_make(0.95, 0.95, 0.95, 1), 10);
    CHECK(lk_display_render_frame_at(display, now));

    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    CHECK(lk_layer_set_background_color(panel, lk_color_make(0.2, 0.45, 0.85, 1)));
    record(outdir, "transition-push", transition_on(panel, LK_TRANSITION_PUSH, LK_TRANSITION_FROM_RIGHT, 1.0), 1.2);

    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer *other = box(NULL, 110, 70, 160, 40, lk_color_make(0.98, 0.8, 0.2, 1), 20);
    CHECK(lk_layer_replace_sublayer(panel, tab, other));
    lk_release(other);
    record(outdir, "transition-fade", transition_on(panel, LK_TRANSITION_FADE, LK_TRANSITION_FROM_LEFT, 0.8), 1.0);
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : "out";
    lk_display_options options;
    memset(&options, 0, sizeof options);
    options.struct_size = (uint32_t)sizeof options;
    options.backend = "software";
    options.width = WIDTH;
    options.height = HEIGHT;
    options.manual_clock = true;
    MADE(display, lk_display_open(&options));
    printf("animation scenes (%dx%d, %d fps):\n", WIDTH, HEIGHT, FPS);
    keyframe_colours(outdir, lk_media_time());
    ship(outdir, lk_media_time());
    springs(outdir, lk_media_time());
    group(outdir, lk_media_time());
    transitions(outdir, lk_media_time());
    lk_display_close(display);
    return 0;
}
