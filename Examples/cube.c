/*
 * The rotating cube (S6.3, S7.6): six layers in a transform layer, which
 * sits in another transform layer tilting it towards the viewer, under a
 * root whose sublayerTransform gives perspective (m34 = -1/500). The inner
 * transform layer turns about y under one animation of
 * transform.rotation.y; the faces are translucent, so the faces turned
 * away show through the ones in front, in depth order. Rendered headless
 * on the software backend with a manual clock.
 *
 * Writes OUTDIR/cube/frame-NNN.png and OUTDIR/cube.apng (4 s, 25 fps),
 * and OUTDIR/cube.png (the frame at 0.5 s).
 * usage: cube [OUTDIR]   (default: out; the folder must exist)
 * build (from Examples/; support/apng.c writes the animated PNG, with zlib):
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L cube.c support/apng.c \
 *       $(pkg-config --cflags --libs layerkit) -lz -lm -o cube
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <layerkit/layerkit.h>
#include "support/apng.h"

#define WIDTH 320
#define HEIGHT 320
#define FPS 25
#define SECONDS 4
#define SIDE 140.0
#define PI 3.14159265358979323846

static lk_display *display;

static void fail(const char *call, int line)
{
    fprintf(stderr, "cube.c:%d: %s failed: %s\n", line, call, lk_last_error());
    lk_display_close(display);
    exit(1);
}

#define CHECK(call) do { if ((call) != LK_OK) fail(#call, __LINE__); } while (0)
#define MADE(x, call) do { if (((x) = (call)) == NULL) fail(#call, __LINE__); } while (0)

static lk_transform3d translation(double x, double y, double z)
{
    lk_transform3d t = lk_transform3d_identity();
    t.m41 = x;
    t.m42 = y;
    t.m43 = z;
    return t;
}

/* Face i turned to face outwards and pushed out by half the side. */
static lk_transform3d face_transform(int i)
{
    double h = SIDE / 2;
    switch (i) {
    case 0: return translation(0, 0, h);
    case 1: return lk_transform3d_concat(lk_transform3d_make_rotation(PI, 0, 1, 0), translation(0, 0, -h));
    case 2: return lk_transform3d_concat(lk_transform3d_make_rotation(PI / 2, 0, 1, 0), translation(h, 0, 0));
    case 3: return lk_transform3d_concat(lk_transform3d_make_rotation(-PI / 2, 0, 1, 0), translation(-h, 0, 0));
    case 4: return lk_transform3d_concat(lk_transform3d_make_rotation(PI / 2, 1, 0, 0), translation(0, -h, 0));
    default: return lk_transform3d_concat(lk_transform3d_make_rotation(-PI / 2, 1, 0, 0), translation(0, h, 0));
    }
}

static lk_layer *transform_layer(lk_layer *parent, lk_transform3d t)
{
    lk_layer *l;
    MADE(l, lk_transform_layer_create());
    CHECK(lk_layer_set_bounds(l, lk_rect_make(0, 0, SIDE, SIDE)));
    CHECK(lk_layer_set_position(l, lk_point_make(WIDTH / 2.0, HEIGHT / 2.0)));
    CHECK(lk_layer_set_transform(l, t));
    CHECK(lk_layer_add_sublayer(parent, l));
    lk_release(l);
    return l;
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        perror(path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    static const double colours[6][3] = {{0.92, 0.26, 0.24}, {0.22, 0.72, 0.35}, {0.23, 0.45, 0.9},
                                         {0.96, 0.78, 0.2}, {0.7, 0.3, 0.85}, {0.2, 0.8, 0.85}};
    const char *outdir = argc > 1 ? argv[1] : "out";
    lk_display_options options;
    lk_layer *root, *tilt, *cube;
    lk_transform3d perspective = lk_transform3d_identity();
    lk_animation *spin;
    uint32_t frames = SECONDS * FPS, i;
    uint8_t *pixels;
    apng_writer *w;
    char path[1024], apng_path[1024];
    double start;
    int f;

    memset(&options, 0, sizeof options);
    options.struct_size = (uint32_t)sizeof options;
    options.backend = "software";
    options.width = WIDTH;
    options.height = HEIGHT;
    options.manual_clock = true;
    MADE(display, lk_display_open(&options));

    MADE(root, lk_layer_create());
    CHECK(lk_layer_set_bounds(root, lk_rect_make(0, 0, WIDTH, HEIGHT)));
    CHECK(lk_layer_set_position(root, lk_point_make(WIDTH / 2.0, HEIGHT / 2.0)));
    CHECK(lk_layer_set_background_color(root, lk_color_make(0.1, 0.1, 0.13, 1)));
    perspective.m34 = -1.0 / 500;
    CHECK(lk_layer_set_sublayer_transform(root, perspective));
    CHECK(lk_display_set_root_layer(display, root));
    lk_release(root);

    /* a transform layer inside a transform layer: one 3D space */
    tilt = transform_layer(root, lk_transform3d_make_rotation(-0.45, 1, 0, 0));
    CHECK(lk_layer_set_position(tilt, lk_point_make(WIDTH / 2.0, HEIGHT / 2.0)));
    cube = transform_layer(tilt, lk_transform3d_identity());
    CHECK(lk_layer_set_position(cube, lk_point_make(SIDE / 2, SIDE / 2)));
    for (f = 0; f < 6; f++) {
        lk_layer *face;
        MADE(face, lk_layer_create());
        CHECK(lk_layer_set_bounds(face, lk_rect_make(0, 0, SIDE, SIDE)));
        CHECK(lk_layer_set_position(face, lk_point_make(SIDE / 2, SIDE / 2)));
        CHECK(lk_layer_set_transform(face, face_transform(f)));
        CHECK(lk_layer_set_background_color(face, lk_color_make(colours[f][0], colours[f][1], colours[f][2], 0.85)));
        CHECK(lk_layer_set_corner_radius(face, 12));
        CHECK(lk_layer_set_border_width(face, 3));
        CHECK(lk_layer_set_border_color(face, lk_color_make(1, 1, 1, 0.9)));
        CHECK(lk_layer_add_sublayer(cube, face));
        lk_release(face);
    }
    lk_transaction_flush();

    MADE(spin, lk_basic_animation_create("transform.rotation.y"));
    CHECK(lk_animation_set_from_value(spin, lk_value_number(0)));
    CHECK(lk_animation_set_to_value(spin, lk_value_number(2 * PI)));
    CHECK(lk_animation_set_duration(spin, SECONDS));
    CHECK(lk_animation_set_repeat_count(spin, INFINITY));
    CHECK(lk_animation_set_timing_function(spin, lk_timing_function_named(LK_TIMING_LINEAR)));
    CHECK(lk_layer_add_animation(cube, spin, "spin"));
    lk_release(spin);
    lk_transaction_flush();
    start = lk_animation_get_begin_time(lk_layer_get_animation(cube, "spin"));

    snprintf(path, sizeof path, "%s/cube", outdir);
    make_dir(path);
    snprintf(apng_path, sizeof apng_path, "%s/cube.apng", outdir);
    w = apng_open(apng_path, WIDTH, HEIGHT, frames, FPS);
    if (!w) exit(1);
    pixels = (uint8_t *)malloc((size_t)WIDTH * HEIGHT * 4);
    if (!pixels) exit(1);
    for (i = 0; i < frames; i++) {
        char frame_path[1100];
        CHECK(lk_display_render_frame_at(display, start + (double)i / FPS));
        CHECK(lk_display_read_pixels(display, pixels, (size_t)WIDTH * 4));
        if (apng_add_frame(w, pixels, (size_t)WIDTH * 4) != 0) {
            fprintf(stderr, "%s: could not add frame %u\n", apng_path, i);
            exit(1);
        }
        snprintf(frame_path, sizeof frame_path, "%s/frame-%03u.png", path, i);
        CHECK(lk_display_write_png(display, frame_path));
    }
    free(pixels);
    if (apng_close(w) != 0) {
        fprintf(stderr, "%s: could not finish the file\n", apng_path);
        exit(1);
    }
    CHECK(lk_display_render_frame_at(display, start + 0.5));
    snprintf(path, sizeof path, "%s/cube.png", outdir);
    CHECK(lk_display_write_png(display, path));
    printf("  cube              %3u frames in %s/cube/, preview %s\n", frames, outdir, apng_path);
    lk_display_close(display);
    return 0;
}
