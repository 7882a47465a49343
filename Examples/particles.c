/*
 * LayerKit's special layers in motion (S7.4, S7.5), rendered headless on the
 * software backend with a manual clock: every frame a PNG, each scene one
 * animated PNG (APNG).
 *
 *   snow       an emitter layer: flakes born along a line above the top
 *              edge, falling with spin and a range of sizes; after 6 s the
 *              snow stops (emitterCells.snow.birthRate = 0 by key path) and
 *              the flakes alive then fall on until their lifetime ends
 *   fireworks  rockets that burst into sparks (rocket -> burst -> spark
 *              cells), additive, the sparks changing colour as they fade
 *   spinner    a replicator layer: 12 instances of one bar turned 30
 *              degrees apart, instanceDelay 1/12 of the one opacity
 *              animation's duration
 *
 * Writes OUTDIR/particles/<scene>/frame-NNN.png and OUTDIR/<scene>.apng.
 * usage: particles [OUTDIR]   (default: out; the folder must exist)
 * build (from Examples/; support/apng.c writes the animated PNG, with zlib):
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L particles.c support/apng.c \
 *       $(pkg-config --cflags --libs layerkit) -lz -lm -o particles
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
#define PI 3.14159265358979323846

static lk_display *display;

static void fail(const char *call, int line)
{
    fprintf(stderr, "particles.c:%d: %s failed: %s\n", line, call, lk_last_error());
    lk_display_close(display);
    exit(1);
}

#define CHECK(call) do { if ((call) != LK_OK) fail(#call, __LINE__); } while (0)
#define MADE(x, call) do { if (((x) = (call)) == NULL) fail(#call, __LINE__); } while (0)

static void make_dir(const char *path)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        perror(path);
        exit(1);
    }
}

/* A fresh root for a scene: a night sky. */
static lk_layer *new_scene(void)
{
    lk_layer *root;
    MADE(root, lk_layer_create());
    CHECK(lk_layer_set_frame(root, lk_rect_make(0, 0, WIDTH, HEIGHT)));
    CHECK(lk_layer_set_background_color(root, lk_color_make(0.05, 0.06, 0.12, 1)));
    CHECK(lk_display_set_root_layer(display, root));
    lk_release(root);
    return root;
}

/* A soft white disk of `size` pixels: the particles' picture. */
static lk_image *disk(int size)
{
    uint8_t *px = (uint8_t *)malloc((size_t)size * (size_t)size * 4);
    lk_image *image;
    int x, y;
    if (!px) exit(1);
    for (y = 0; y < size; y++)
        for (x = 0; x < size; x++) {
            double dx = (x + 0.5) / size * 2 - 1, dy = (y + 0.5) / size * 2 - 1;
            double d = sqrt(dx * dx + dy * dy), a = d >= 1 ? 0 : (1 - d) * (1 - d) * 1.4;
            uint8_t *p = px + ((size_t)y * (size_t)size + (size_t)x) * 4;
            p[0] = p[1] = p[2] = 255;
            p[3] = (uint8_t)lrint((a > 1 ? 1 : a) * 255);
        }
    MADE(image, lk_image_create_from_pixels((uint32_t)size, (uint32_t)size, (size_t)size * 4, LK_PIXEL_FORMAT_RGBA8, px));
    free(px);
    return image;
}

/* Renders frames [first, last) of a scene starting at media time `start`. */
typedef struct recording {
    apng_writer *apng;
    char dir[1024];
    uint8_t *pixels;
} recording;

static void record_begin(recording *r, const char *outdir, const char *scene, uint32_t frames)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/particles", outdir);
    make_dir(path);
    snprintf(r->dir, sizeof r->dir, "%s/particles/%s", outdir, scene);
    make_dir(r->dir);
    snprintf(path, sizeof path, "%s/%s.apng", outdir, scene);
    r->apng = apng_open(path, WIDTH, HEIGHT, frames, FPS);
    r->pixels = (uint8_t *)malloc((size_t)WIDTH * HEIGHT * 4);
    if (!r->apng || !r->pixels) exit(1);
    printf("  %-10s %3u frames in %s/, preview %s\n", scene, frames, r->dir, path);
}

static void record_frames(recording *r, double start, uint32_t first, uint32_t last)
{
    uint32_t i;
    for (i = first; i < last; i++) {
        char frame_path[1100];
        lk_transaction_flush();
        CHECK(lk_display_render_frame_at(display, start + (double)i / FPS));
        CHECK(lk_display_read_pixels(display, r->pixels, (size_t)WIDTH * 4));
        if (apng_add_frame(r->apng, r->pixels, (size_t)WIDTH * 4) != 0) exit(1);
        snprintf(frame_path, sizeof frame_path, "%s/frame-%03u.png", r->dir, i);
        CHECK(lk_display_write_png(display, frame_path));
    }
}

static void record_end(recording *r)
{
    free(r->pixels);
    if (apng_close(r->apng) != 0) exit(1);
}

/* An emitter layer over the scene whose simulation starts at *start. */
static lk_layer *emitter(lk_layer *root, double *start)
{
    lk_layer *e;
    MADE(e, lk_emitter_layer_create());
    CHECK(lk_layer_set_frame(e, lk_rect_make(0, 0, WIDTH, HEIGHT)));
    *start = lk_media_time() + 1;
    CHECK(lk_layer_set_begin_time(e, *start));
    CHECK(lk_layer_add_sublayer(root, e));
    lk_release(e);
    return e;
}

static void snow(const char *outdir, lk_image *flake)
{
    lk_layer *root = new_scene();
    double start;
    lk_layer *e = emitter(root, &start);
    lk_emitter_cell *c;
    recording r;
    MADE(c, lk_emitter_cell_create());
    CHECK(lk_emitter_cell_set_name(c, "snow"));
    CHECK(lk_emitter_cell_set_birth_rate(c, 40));
    CHECK(lk_emitter_cell_set_lifetime(c, 9));
    CHECK(lk_emitter_cell_set_velocity(c, 30));
    CHECK(lk_emitter_cell_set_velocity_range(c, 15));
    CHECK(lk_emitter_cell_set_y_acceleration(c, 6));
    CHECK(lk_emitter_cell_set_x_acceleration(c, 3));
    CHECK(lk_emitter_cell_set_emission_longitude(c, PI / 2));
    CHECK(lk_emitter_cell_set_emission_range(c, PI / 4));
    CHECK(lk_emitter_cell_set_spin(c, 0.5));
    CHECK(lk_emitter_cell_set_spin_range(c, 1.5));
    CHECK(lk_emitter_cell_set_scale(c, 0.5));
    CHECK(lk_emitter_cell_set_scale_range(c, 0.4));
    CHECK(lk_emitter_cell_set_color(c, lk_color_make(0.9, 0.95, 1, 0.9)));
    CHECK(lk_emitter_cell_set_contents(c, flake));
    CHECK(lk_emitter_layer_set_cells(e, &c, 1));
    lk_release(c);
    CHECK(lk_emitter_layer_set_emitter_shape(e, LK_EMITTER_SHAPE_LINE));
    CHECK(lk_emitter_layer_set_emitter_position(e, lk_point_make(WIDTH / 2.0, -10)));
    CHECK(lk_emitter_layer_set_emitter_size(e, lk_size_make(WIDTH * 1.2, 0)));
    CHECK(lk_emitter_layer_set_seed(e, 2024));
    record_begin(&r, outdir, "snow", 16 * FPS);
    record_frames(&r, start, 0, 6 * FPS);
    /* the snow stops: live flakes finish their lifetime */
    CHECK(lk_layer_set_value(e, "emitterCells.snow.birthRate", lk_value_number(0)));
    record_frames(&r, start, 6 * FPS, 16 * FPS);
    record_end(&r);
}

static void fireworks(const char *outdir, lk_image *dot)
{
    lk_layer *root = new_scene();
    double start;
    lk_layer *e = emitter(root, &start);
    lk_emitter_cell *rocket, *burst, *spark;
    recording r;
    MADE(rocket, lk_emitter_cell_create());
    MADE(burst, lk_emitter_cell_create());
    MADE(spark, lk_emitter_cell_create());
    CHECK(lk_emitter_cell_set_name(rocket, "rocket"));
    CHECK(lk_emitter_cell_set_birth_rate(rocket, 1.2));
    CHECK(lk_emitter_cell_set_lifetime(rocket, 1.02));
    CHECK(lk_emitter_cell_set_velocity(rocket, 230));
    CHECK(lk_emitter_cell_set_velocity_range(rocket, 50));
    CHECK(lk_emitter_cell_set_y_acceleration(rocket, 90));
    CHECK(lk_emitter_cell_set_emission_longitude(rocket, -PI / 2));
    CHECK(lk_emitter_cell_set_emission_range(rocket, PI / 5));
    CHECK(lk_emitter_cell_set_color(rocket, lk_color_make(0.6, 0.6, 0.6, 1)));
    CHECK(lk_emitter_cell_set_red_range(rocket, 0.8));
    CHECK(lk_emitter_cell_set_green_range(rocket, 0.8));
    CHECK(lk_emitter_cell_set_blue_range(rocket, 0.8));
    CHECK(lk_emitter_cell_set_scale(rocket, 0.25));
    CHECK(lk_emitter_cell_set_contents(rocket, dot));
    CHECK(lk_emitter_cell_set_name(burst, "burst"));
    CHECK(lk_emitter_cell_set_birth_rate(burst, 1));
    CHECK(lk_emitter_cell_set_lifetime(burst, 0.35));
    /* sparks inherit the burst's scale, and it the rocket's (Apple's
       sample's 2.5: 0.25 x 2.5 x 0.3, sparks of 4.5 points) */
    CHECK(lk_emitter_cell_set_scale(burst, 2.5));
    CHECK(lk_emitter_cell_set_name(spark, "spark"));
    CHECK(lk_emitter_cell_set_birth_rate(spark, 700));
    CHECK(lk_emitter_cell_set_lifetime(spark, 2));
    CHECK(lk_emitter_cell_set_velocity(spark, 80));
    CHECK(lk_emitter_cell_set_velocity_range(spark, 20));
    CHECK(lk_emitter_cell_set_emission_range(spark, 2 * PI));
    CHECK(lk_emitter_cell_set_y_acceleration(spark, 60));
    CHECK(lk_emitter_cell_set_scale(spark, 0.3));
    CHECK(lk_emitter_cell_set_spin(spark, 2));
    CHECK(lk_emitter_cell_set_green_speed(spark, -0.3));
    CHECK(lk_emitter_cell_set_blue_speed(spark, -0.5));
    CHECK(lk_emitter_cell_set_alpha_speed(spark, -0.5));
    CHECK(lk_emitter_cell_set_contents(spark, dot));
    CHECK(lk_emitter_cell_set_cells(burst, &spark, 1));
    CHECK(lk_emitter_cell_set_cells(rocket, &burst, 1));
    CHECK(lk_emitter_layer_set_cells(e, &rocket, 1));
    lk_release(rocket);
    lk_release(burst);
    lk_release(spark);
    CHECK(lk_emitter_layer_set_emitter_position(e, lk_point_make(WIDTH / 2.0, HEIGHT + 5)));
    CHECK(lk_emitter_layer_set_emitter_size(e, lk_size_make(WIDTH / 2.0, 0)));
    CHECK(lk_emitter_layer_set_emitter_shape(e, LK_EMITTER_SHAPE_LINE));
    CHECK(lk_emitter_layer_set_render_mode(e, LK_EMITTER_RENDER_ADDITIVE));
    CHECK(lk_emitter_layer_set_seed(e, 5));
    record_begin(&r, outdir, "fireworks", 8 * FPS);
    record_frames(&r, start, 0, 8 * FPS);
    record_end(&r);
}

static void spinner(const char *outdir)
{
    lk_layer *root = new_scene();
    lk_layer *rep, *bar;
    lk_animation *a;
    recording r;
    double begin;
    MADE(rep, lk_replicator_layer_create());
    CHECK(lk_layer_set_frame(rep, lk_rect_make(WIDTH / 2.0 - 80, HEIGHT / 2.0 - 80, 160, 160)));
    CHECK(lk_layer_add_sublayer(root, rep));
    lk_release(rep);
    MADE(bar, lk_layer_create());
    CHECK(lk_layer_set_frame(bar, lk_rect_make(73, 8, 14, 44)));
    CHECK(lk_layer_set_corner_radius(bar, 7));
    CHECK(lk_layer_set_background_color(bar, lk_color_make(0.4, 0.8, 1, 1)));
    CHECK(lk_layer_add_sublayer(rep, bar));
    lk_release(bar);
    CHECK(lk_replicator_layer_set_instance_count(rep, 12));
    CHECK(lk_replicator_layer_set_instance_transform(rep, lk_transform3d_make_rotation(2 * PI / 12, 0, 0, 1)));
    CHECK(lk_replicator_layer_set_instance_delay(rep, 1.2 / 12));
    CHECK(lk_replicator_layer_set_instance_green_offset(rep, -0.05));
    MADE(a, lk_basic_animation_create("opacity"));
    CHECK(lk_animation_set_from_value(a, lk_value_number(1)));
    CHECK(lk_animation_set_to_value(a, lk_value_number(0.1)));
    CHECK(lk_animation_set_duration(a, 1.2));
    CHECK(lk_animation_set_repeat_count(a, INFINITY));
    begin = lk_media_time() + 1;
    CHECK(lk_animation_set_begin_time(a, begin));
    CHECK(lk_layer_add_animation(bar, a, "fade"));
    lk_release(a);
    record_begin(&r, outdir, "spinner", (uint32_t)(2.4 * FPS));
    record_frames(&r, begin + 1.2, 0, (uint32_t)(2.4 * FPS));
    record_end(&r);
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : "out";
    lk_display_options options;
    lk_image *dot;
    memset(&options, 0, sizeof options);
    options.struct_size = (uint32_t)sizeof options;
    options.backend = "software";
    options.width = WIDTH;
    options.height = HEIGHT;
    options.manual_clock = true;
    MADE(display, lk_display_open(&options));
    lk_transaction_set_disable_actions(true);
    dot = disk(24);
    printf("particles: snow, fireworks and a spinner at %d fps\n", FPS);
    snow(outdir, dot);
    fireworks(outdir, dot);
    spinner(outdir);
    lk_release(dot);
    lk_display_close(display);
    return 0;
}
