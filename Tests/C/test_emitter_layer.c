/* Emitter layers (S7.4): particles drawn as their cell's contents, moved,
   turned and tinted, against references drawn here with cairo (scenes
   without randomness: ranges 0, so every particle's place is known);
   render modes (additive, oldestFirst/oldestLast); the seed's snow and
   fireworks at fixed times with a fixed seed: the same pixels at 30 fps,
   60 fps and in one jump, and against stored references (regression
   images of this renderer, looked at by eye: snow flakes falling from a
   line, fireworks bursting in additive colours); birthRate 0 stops births
   while live particles finish; cell key paths set and animated on the
   layer; errors naming the argument.
   Tolerance: exact scenes channels within 3, antialiased edges within 64
   on at most 40 pixels; stored references channels within 40 on at most
   2% of the pixels (the gles run samples rotated images differently). */
#include "support/lktest.h"
#include "support/lkt_cairo.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define W 160
#define H 120

static lk_display *display;
static lk_layer *root;

/* A w x h image of one straight colour, or a disk when disk is set. */
static lk_image *solid_image(int w, int h, uint8_t r, uint8_t g, uint8_t b, int disk)
{
    uint8_t *px = (uint8_t *)calloc((size_t)w * (size_t)h, 4);
    int x, y;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            double dx = x + 0.5 - w / 2.0, dy = y + 0.5 - h / 2.0;
            double a = 1.0;
            if (disk) {
                double d = sqrt(dx * dx + dy * dy);
                a = d < w / 2.0 - 1 ? 1.0 : d < w / 2.0 ? w / 2.0 - d : 0.0;
            }
            uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * 4;
            p[0] = r; p[1] = g; p[2] = b; p[3] = (uint8_t)lrint(a * 255);
        }
    lk_image *image = lk_image_create_from_pixels((uint32_t)w, (uint32_t)h, (size_t)w * 4, LK_PIXEL_FORMAT_RGBA8, px);
    free(px);
    return image;
}

/* An emitter layer over the whole display whose simulation starts at
   media time *start (its beginTime, after the commit: S7.4, the simulation
   starts at the layer's beginTime). Every layer of the run starts at the
   same media time: the scenes compared at 30 fps, 60 fps and in one jump
   are then drawn at bit-identical local times. With a start taken from the
   clock for each, (start + t) - start rounded differently in the last bit
   from one to the next, and a particle born exactly at a frame's time could
   be in one run's frame and not in another's (a rare failure). */
static lk_layer *emitter_layer(double *start)
{
    static double shared_start;
    lk_layer *e = lk_emitter_layer_create();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_frame(e, lk_rect_make(0, 0, W, H));
    if (shared_start == 0) shared_start = lk_media_time() + 1000;
    *start = shared_start;
    lk_layer_set_begin_time(e, *start);
    lk_layer_add_sublayer(root, e);
    return e;
}

static void drop(lk_layer *e)
{
    lk_layer_remove_from_superlayer(e);
    lk_release(e);
    lk_transaction_flush();
}

static uint8_t *frame_at(double t)
{
    lk_transaction_flush();
    lk_display_render_frame_at(display, t);
    uint8_t *px = (uint8_t *)malloc(W * H * 4);
    lk_display_read_pixels(display, px, W * 4);
    return px;
}

static const uint8_t *pixel(const uint8_t *px, int x, int y) { return px + ((size_t)y * W + (size_t)x) * 4; }

static int lit_pixels(const uint8_t *px)
{
    int n = 0, i;
    for (i = 0; i < W * H; i++)
        if (px[i * 4] > 8 || px[i * 4 + 1] > 8 || px[i * 4 + 2] > 8) n++;
    return n;
}

/* A cell with no randomness: born at the emitter, moving along +x. */
static lk_emitter_cell *straight_cell(lk_image *contents, double velocity)
{
    lk_emitter_cell *c = lk_emitter_cell_create();
    lk_emitter_cell_set_birth_rate(c, 1);
    lk_emitter_cell_set_lifetime(c, 100);
    lk_emitter_cell_set_velocity(c, velocity);
    lk_emitter_cell_set_contents(c, contents);
    return c;
}

static const lkt_tolerance exact = {3, 64, 40, 0};

static void test_drawing(void)
{
    double start;
    /* two particles (born at 1 s and 2 s: the first one period after the
       start), 20 pt/s along +x from (20, 60): at 2.5 s at x 50 and 30 */
    lk_image *white = solid_image(8, 8, 255, 255, 255, 0);
    lk_layer *e = emitter_layer(&start);
    lk_emitter_cell *c = straight_cell(white, 20);
    lk_emitter_cell_set_color(c, lk_color_make(1, 0.5, 0, 1));
    lk_emitter_layer_set_cells(e, &c, 1);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(20, 60));
    uint8_t *px = frame_at(start + 2.5);
    free(px);
    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_set_source_rgb(cr, 1, 0.5, 0);
    cairo_rectangle(cr, 46, 56, 8, 8);
    cairo_rectangle(cr, 26, 56, 8, 8);
    cairo_fill(cr);
    lkt_check_against_cairo("S7.4 particles at their places, contents tinted by the cell colour", display, cr, exact);
    drop(e);
    lk_release(c);

    /* contentsRect picks the left (red) half of a red|blue image; spin pi
       rad/s turns the 8x4 particle upright at ages 1.5 s and 0.5 s; scale 2
       doubles it */
    uint8_t two[16 * 4 * 4];
    int i;
    for (i = 0; i < 64; i++) {
        int x = i % 16;
        two[i * 4] = x < 8 ? 255 : 0; two[i * 4 + 1] = 0; two[i * 4 + 2] = x < 8 ? 0 : 255; two[i * 4 + 3] = 255;
    }
    lk_image *halves = lk_image_create_from_pixels(16, 4, 64, LK_PIXEL_FORMAT_RGBA8, two);
    e = emitter_layer(&start);
    c = straight_cell(halves, 30);
    lk_emitter_cell_set_spin(c, LKT_PI);
    lk_emitter_cell_set_scale(c, 2);
    lk_emitter_cell_set_contents_rect(c, lk_rect_make(0, 0, 0.5, 1));
    lk_emitter_layer_set_cells(e, &c, 1);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(30, 60));
    px = frame_at(start + 2.5);
    free(px);
    cr = lkt_cairo_begin(W, H);
    cairo_set_source_rgb(cr, 1, 0, 0);
    cairo_rectangle(cr, 75 - 4, 60 - 8, 8, 16);
    cairo_rectangle(cr, 45 - 4, 60 - 8, 8, 16);
    cairo_fill(cr);
    lkt_check_against_cairo("S7.4 contentsRect, spin and scale of particles", display, cr, exact);
    drop(e);
    lk_release(c);
    lk_release(halves);

    /* a cell without contents draws nothing (as Core Animation) */
    e = emitter_layer(&start);
    c = straight_cell(NULL, 20);
    lk_emitter_layer_set_cells(e, &c, 1);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(20, 60));
    px = frame_at(start + 2.5);
    LKT_CHECK(lit_pixels(px) == 0, "S7.4 a cell without contents draws nothing", "%d lit pixels", lit_pixels(px));
    free(px);
    drop(e);
    lk_release(c);
    lk_release(white);
}

/* Two particles on one spot (velocity 0), the older one redder (colour
   speeds): the render mode decides how they combine. */
static void test_render_modes(void)
{
    lk_image *white = solid_image(8, 8, 255, 255, 255, 0);
    static const struct { lk_emitter_render_mode mode; uint8_t r, b; const char *name; } cases[] = {
        { LK_EMITTER_RENDER_OLDEST_FIRST, 64, 191, "S7.4 renderMode oldestFirst: the newest particle on top" },
        { LK_EMITTER_RENDER_OLDEST_LAST, 191, 64, "S7.4 renderMode oldestLast: the oldest particle on top" },
        { LK_EMITTER_RENDER_ADDITIVE, 255, 255, "S7.4 renderMode additive: particles add" },
    };
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double start;
        lk_layer *e = emitter_layer(&start);
        lk_emitter_cell *c = straight_cell(white, 0);
        lk_emitter_cell_set_color(c, lk_color_make(0, 0, 1, 1));
        lk_emitter_cell_set_red_speed(c, 0.5);
        lk_emitter_cell_set_blue_speed(c, -0.5);
        lk_emitter_layer_set_cells(e, &c, 1);
        lk_emitter_layer_set_emitter_position(e, lk_point_make(80, 60));
        lk_emitter_layer_set_render_mode(e, cases[k].mode);
        uint8_t *px = frame_at(start + 2.5);
        const uint8_t *p = pixel(px, 80, 60);
        LKT_CHECK(abs(p[0] - cases[k].r) <= 3 && abs(p[2] - cases[k].b) <= 3 && p[1] == 0, cases[k].name,
                  "pixel (%d, %d, %d), expected (%d, 0, %d)", p[0], p[1], p[2], cases[k].r, cases[k].b);
        free(px);
        drop(e);
        lk_release(c);
    }
    lk_release(white);
}

/* The seed document's snow: a line emitter above the top edge, flakes
   falling with spin and a scale range. */
static lk_emitter_cell *snow_cell(lk_image *flake)
{
    lk_emitter_cell *c = lk_emitter_cell_create();
    lk_emitter_cell_set_name(c, "snow");
    lk_emitter_cell_set_birth_rate(c, 30);
    lk_emitter_cell_set_lifetime(c, 7);
    lk_emitter_cell_set_velocity(c, 18);
    lk_emitter_cell_set_velocity_range(c, 10);
    lk_emitter_cell_set_y_acceleration(c, 4);
    lk_emitter_cell_set_emission_longitude(c, LKT_PI / 2);
    lk_emitter_cell_set_emission_range(c, LKT_PI / 4);
    lk_emitter_cell_set_spin(c, 0.5);
    lk_emitter_cell_set_spin_range(c, 1.0);
    lk_emitter_cell_set_scale(c, 0.6);
    lk_emitter_cell_set_scale_range(c, 0.5);
    lk_emitter_cell_set_color(c, lk_color_make(0.9, 0.95, 1, 0.9));
    lk_emitter_cell_set_contents(c, flake);
    return c;
}

static lk_layer *snow_layer(double *start, lk_image *flake, lk_emitter_cell **cell)
{
    lk_layer *e = emitter_layer(start);
    *cell = snow_cell(flake);
    lk_emitter_layer_set_cells(e, cell, 1);
    lk_emitter_layer_set_emitter_shape(e, LK_EMITTER_SHAPE_LINE);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(W / 2.0, -6));
    lk_emitter_layer_set_emitter_size(e, lk_size_make(W, 0));
    lk_emitter_layer_set_seed(e, 7);
    return e;
}

/* The seed's fireworks: rockets that die after 1.02 s, each leaving one
   burst, which sprays sparks; additive, colours changing over time. */
static lk_layer *fireworks_layer(double *start, lk_image *dot, lk_emitter_cell **rocket)
{
    lk_layer *e = emitter_layer(start);
    lk_emitter_cell *r = lk_emitter_cell_create(), *burst = lk_emitter_cell_create(),
                    *spark = lk_emitter_cell_create();
    lk_emitter_cell_set_name(r, "rocket");
    lk_emitter_cell_set_birth_rate(r, 1.5);
    lk_emitter_cell_set_lifetime(r, 1.02);
    lk_emitter_cell_set_velocity(r, 90);
    lk_emitter_cell_set_velocity_range(r, 20);
    lk_emitter_cell_set_y_acceleration(r, 40);
    lk_emitter_cell_set_emission_longitude(r, -LKT_PI / 2);
    lk_emitter_cell_set_emission_range(r, LKT_PI / 5);
    lk_emitter_cell_set_color(r, lk_color_make(0.5, 0.5, 0.5, 1));
    lk_emitter_cell_set_red_range(r, 0.9);
    lk_emitter_cell_set_green_range(r, 0.9);
    lk_emitter_cell_set_blue_range(r, 0.9);
    lk_emitter_cell_set_scale(r, 0.3);
    lk_emitter_cell_set_contents(r, dot);
    lk_emitter_cell_set_name(burst, "burst");
    lk_emitter_cell_set_birth_rate(burst, 1);
    lk_emitter_cell_set_lifetime(burst, 0.35);
    /* Apple's sample's burst scale: sparks inherit the burst's scale, which
       inherits the rocket's (0.3 x 2.5 x 0.25: sparks 1.9 points) */
    lk_emitter_cell_set_scale(burst, 2.5);
    lk_emitter_cell_set_name(spark, "spark");
    lk_emitter_cell_set_birth_rate(spark, 300);
    lk_emitter_cell_set_lifetime(spark, 1.6);
    lk_emitter_cell_set_velocity(spark, 45);
    lk_emitter_cell_set_emission_range(spark, 2 * LKT_PI);
    lk_emitter_cell_set_y_acceleration(spark, 30);
    lk_emitter_cell_set_scale(spark, 0.25);
    lk_emitter_cell_set_green_speed(spark, -0.3);
    lk_emitter_cell_set_alpha_speed(spark, -0.6);
    lk_emitter_cell_set_contents(spark, dot);
    lk_emitter_cell_set_cells(burst, &spark, 1);
    lk_emitter_cell_set_cells(r, &burst, 1);
    lk_emitter_layer_set_cells(e, &r, 1);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(W / 2.0, H + 4));
    lk_emitter_layer_set_render_mode(e, LK_EMITTER_RENDER_ADDITIVE);
    lk_emitter_layer_set_seed(e, 3);
    lk_release(burst);
    lk_release(spark);
    *rocket = r;
    return e;
}

static int same_pixels(const uint8_t *a, const uint8_t *b, int *first)
{
    int i;
    for (i = 0; i < W * H * 4; i++)
        if (a[i] != b[i]) { *first = i / 4; return 0; }
    return 1;
}

/* Frames at fps from 0 to the last of `times` (seconds after the start);
   the pixels at each of `times` into out[i]. */
static void run_at_fps(lk_layer *(*make)(double *, lk_image *, lk_emitter_cell **), lk_image *image, int fps,
                       const double *times, int count, uint8_t **out)
{
    double start;
    lk_emitter_cell *cell;
    lk_layer *e = make(&start, image, &cell);
    int frame = 0, i = 0;
    if (fps == 0) {
        for (i = 0; i < count; i++) out[i] = frame_at(start + times[i]);
    } else {
        for (;; frame++) {
            double t = (double)frame / fps;
            if (fabs(t - times[i]) < 1e-9) {
                out[i] = frame_at(start + times[i]);
                if (++i == count) break;
            } else {
                free(frame_at(start + t));
            }
        }
    }
    drop(e);
    lk_release(cell);
}

static const lkt_tolerance stored = {40, 40, 0, W * H / 50};

static void check_scene(const char *name, lk_layer *(*make)(double *, lk_image *, lk_emitter_cell **),
                        lk_image *image, const double *times, int count, const char *const *references)
{
    uint8_t *at60[4], *at30[4], *jump[4];
    int i, first = 0;
    char check[160];
    run_at_fps(make, image, 60, times, count, at60);
    run_at_fps(make, image, 30, times, count, at30);
    run_at_fps(make, image, 0, times, count, jump);
    for (i = 0; i < count; i++) {
        snprintf(check, sizeof check, "S7.4 %s at %.1f s: 30 fps, 60 fps and one jump give the same pixels", name,
                 times[i]);
        int same = same_pixels(at60[i], at30[i], &first);
        if (same) same = same_pixels(at60[i], jump[i], &first);
        LKT_CHECK(same, check, "they differ first at pixel (%d, %d)", first % W, first / W);
        snprintf(check, sizeof check, "S7.4 %s at %.1f s draws particles", name, times[i]);
        LKT_CHECK(lit_pixels(at60[i]) > 40, check, "only %d lit pixels", lit_pixels(at60[i]));
        if (references[i]) {
            snprintf(check, sizeof check, "S7.4 %s at %.1f s against its stored reference", name, times[i]);
            LKT_CHECK_REFERENCE(check, at60[i], W, H, W * 4, references[i], stored);
        }
        free(at60[i]);
        free(at30[i]);
        free(jump[i]);
    }
}

static void test_scenes(void)
{
    lk_image *flake = solid_image(10, 10, 255, 255, 255, 1);
    static const double snow_times[3] = {1.0, 2.5, 4.0};
    static const char *const snow_refs[3] = {NULL, NULL, "s7_4_snow_4s"};
    check_scene("snow", snow_layer, flake, snow_times, 3, snow_refs);
    static const double fireworks_times[3] = {1.8, 2.4, 3.0};
    static const char *const fireworks_refs[3] = {NULL, "s7_4_fireworks_2_4s", "s7_4_fireworks_3s"};
    check_scene("fireworks", fireworks_layer, flake, fireworks_times, 3, fireworks_refs);

    /* another seed, other particles */
    double start;
    lk_emitter_cell *cell;
    lk_layer *e = snow_layer(&start, flake, &cell);
    uint8_t *a = frame_at(start + 4);
    lk_emitter_layer_set_seed(e, 8);
    drop(e);
    lk_release(cell);
    e = snow_layer(&start, flake, &cell);
    lk_emitter_layer_set_seed(e, 8);
    uint8_t *b = frame_at(start + 4);
    int first;
    LKT_CHECK(!same_pixels(a, b, &first), "S7.4 another seed gives other particles", "the frames are identical");
    free(a);
    free(b);
    drop(e);
    lk_release(cell);

    /* a frame long after the last one (10,000 s: 300,000 births between
       them) shows what a first frame at that time shows; stepped, the
       births ran into the per-step cap before those still alive, and the
       frame was empty */
    e = snow_layer(&start, flake, &cell);
    free(frame_at(start + 4));
    a = frame_at(start + 10004);
    drop(e);
    lk_release(cell);
    e = snow_layer(&start, flake, &cell);
    b = frame_at(start + 10004);
    LKT_CHECK(same_pixels(a, b, &first) && lit_pixels(a) > 40,
              "S7.4 a frame 10,000 s after the last shows what a first frame then shows",
              "%d lit pixels against %d", lit_pixels(a), lit_pixels(b));
    free(a);
    free(b);
    drop(e);
    lk_release(cell);
    lk_release(flake);
}

/* The snow stops: birthRate 0 by key path at 4 s; the flakes alive then
   fall on and are gone one lifetime (7 s) later. Slow snow (velocity
   multiplier 0.3, no acceleration), so that flakes stay on screen for
   their whole life. */
static void test_birth_rate_zero(void)
{
    lk_image *flake = solid_image(10, 10, 255, 255, 255, 1);
    double start;
    lk_emitter_cell *cell;
    lk_layer *e = snow_layer(&start, flake, &cell);
    lk_emitter_layer_set_velocity(e, 0.3);
    lk_layer_set_value(e, "emitterCells.snow.yAcceleration", lk_value_number(0));
    int frame;
    for (frame = 0; frame <= 120; frame++) free(frame_at(start + frame / 30.0));
    LKT_CHECK_STATUS("S7.4 emitterCells.snow.birthRate set on the layer",
                     lk_layer_set_value(e, "emitterCells.snow.birthRate", lk_value_number(0)), LK_OK);
    LKT_CHECK_NEAR("S7.4 the key path changed the cell", lk_emitter_cell_get_birth_rate(cell), 0, 0);
    uint8_t *px = frame_at(start + 4.5);
    int at45 = lit_pixels(px);
    free(px);
    for (frame = 136; frame < 330; frame++) free(frame_at(start + frame / 30.0));
    px = frame_at(start + 10.5);
    int at105 = lit_pixels(px);
    free(px);
    px = frame_at(start + 11.2);
    int at112 = lit_pixels(px);
    free(px);
    LKT_CHECK(at45 > 100 && at105 > 0 && at105 < at45, "S7.4 after birthRate 0 the live flakes finish their lifetime",
              "lit pixels %d at 4.5 s, %d at 10.5 s", at45, at105);
    LKT_CHECK(at112 == 0, "S7.4 after birthRate 0 no flake is born: none left one lifetime later",
              "%d lit pixels at 11.2 s", at112);
    drop(e);
    lk_release(cell);
    lk_release(flake);
}

/* A basic animation of the snow cell's birthRate, from -> to (+1). */
static lk_animation *birth_rate_animation(double from, double to)
{
    lk_animation *a = lk_basic_animation_create("emitterCells.snow.birthRate");
    lk_animation_set_from_value(a, lk_value_number(from));
    lk_animation_set_to_value(a, lk_value_number(to));
    return a;
}

/* An explicit animation of emitterCells.snow.birthRate (to 0 for its whole
   duration) changes the simulation; the model keeps its value. */
static void test_key_path_animation(void)
{
    lk_image *flake = solid_image(10, 10, 255, 255, 255, 1);
    double start;
    lk_emitter_cell *cell;
    lk_layer *e = snow_layer(&start, flake, &cell);
    lk_animation *a = birth_rate_animation(0, 0);
    /* in the layer's time: from before the simulation's start to 2 s */
    lk_animation_set_begin_time(a, -1);
    lk_animation_set_duration(a, 3);
    LKT_CHECK_STATUS("S7.4 an animation on a cell key path is added", lk_layer_add_animation(e, a, "stop"), LK_OK);
    lk_release(a);
    uint8_t *px = frame_at(start + 1.5);
    int during = lit_pixels(px);
    free(px);
    free(frame_at(start + 3.5));
    px = frame_at(start + 4.5);
    int after = lit_pixels(px);
    free(px);
    LKT_CHECK(during == 0 && after > 0, "S7.4 an animated cell birthRate of 0 stops births while it runs",
              "lit pixels %d during, %d after", during, after);
    LKT_CHECK_NEAR("S7.4 the cell's model birthRate is unchanged by the animation", lk_emitter_cell_get_birth_rate(cell),
                   30, 0);
    drop(e);
    lk_release(cell);
    lk_release(flake);
}

/* Circle and sphere shapes have radius emitterSize.width (Apple's
   kCAEmitterLayerCircle: "a circle centered at (emitterPosition.x,
   emitterPosition.y, emitterZPosition) of radius emitterSize.width";
   kCAEmitterLayerSphere the same). 400 still particles on a circle's
   outline all lie 30 from the centre; a sphere's surface, flattened into
   the layer, reaches 30 and no further. Half the width, as LayerKit read
   it before, put them all within 15. */
static void test_shape_radius(void)
{
    static const struct { lk_emitter_shape shape; lk_emitter_mode mode; const char *name; } cases[] = {
        { LK_EMITTER_SHAPE_CIRCLE, LK_EMITTER_MODE_OUTLINE,
          "S7.4 a circle emitter's radius is emitterSize.width (kCAEmitterLayerCircle)" },
        { LK_EMITTER_SHAPE_SPHERE, LK_EMITTER_MODE_SURFACE,
          "S7.4 a sphere emitter's radius is emitterSize.width (kCAEmitterLayerSphere)" },
    };
    lk_image *dot = solid_image(2, 2, 255, 255, 255, 0);
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double start, nearest = 1e9, farthest = 0;
        lk_layer *e = emitter_layer(&start);
        lk_emitter_cell *c = straight_cell(dot, 0);
        int x, y;
        lk_emitter_cell_set_birth_rate(c, 200);
        lk_emitter_layer_set_cells(e, &c, 1);
        lk_emitter_layer_set_emitter_position(e, lk_point_make(80, 60));
        lk_emitter_layer_set_emitter_size(e, lk_size_make(30, 10));
        lk_emitter_layer_set_emitter_shape(e, cases[k].shape);
        lk_emitter_layer_set_emitter_mode(e, cases[k].mode);
        uint8_t *px = frame_at(start + 2);
        for (y = 0; y < H; y++)
            for (x = 0; x < W; x++) {
                if (pixel(px, x, y)[0] <= 8) continue;
                double d = hypot(x + 0.5 - 80, y + 0.5 - 60);
                if (d < nearest) nearest = d;
                if (d > farthest) farthest = d;
            }
        /* particles 2 points wide: lit pixels up to 2 from their centres */
        int ok = farthest > 28 && farthest < 32.5 && (k == 1 || nearest > 27.5);
        LKT_CHECK(ok, cases[k].name, "lit pixels from %.1f to %.1f from the centre, expected %s30", nearest, farthest,
                  k == 1 ? "up to " : "");
        free(px);
        drop(e);
        lk_release(c);
    }
    lk_release(dot);
}

/* Where along row 60 the particles are: the centres of runs of lit pixels. */
static int centres_on_row(const uint8_t *px, int *centres, int most)
{
    int n = 0, x, from = -1;
    for (x = 0; x <= W; x++) {
        int on = x < W && pixel(px, x, 60)[0] > 100;
        if (on && from < 0) from = x;
        if (!on && from >= 0) {
            if (n < most) centres[n] = (int)lrint((from + x) / 2.0);
            n++;
            from = -1;
        }
    }
    return n;
}

/* A layer-level emitter change made with actions disabled applies from
   its commit, or the last frame drawn if later, as a cell's does
   (docs/emitter.md): the particles then depend on the frame times asked
   for, not on the frames drawn in between (S7.4: deterministic for a seed
   and the times). One particle a second at 10 pt/s along +x; after the
   frame at 1.5 s either the velocity multiplier goes to 3 or the
   emitterPosition moves; the frame at 4.5 s is the same whether or not one
   at 1.6 s was drawn between. Applied from the next frame drawn, the
   births at 2 s and 3 s were at the old values when that frame was the
   one at 4.5 s. */
static void test_layer_change_applies_from_commit(void)
{
    /* velocity: born at 1 s (10 pt/s) x 45; at 2, 3, 4 s (30 pt/s) x 85, 55, 25.
       position: born at 1 s from 20: x 55; at 2, 3, 4 s from 100: x 125, 115, 105. */
    static const int expected[2][4] = { { 25, 45, 55, 85 }, { 55, 105, 115, 125 } };
    static const char *const names[2] = {
        "S7.4 a velocity multiplier set without actions applies from its commit, whatever frames were drawn",
        "S7.4 an emitterPosition set without actions applies from its commit, whatever frames were drawn",
    };
    lk_image *dot = solid_image(4, 4, 255, 255, 255, 0);
    int change, between;
    for (change = 0; change < 2; change++) {
        uint8_t *frames[2];
        for (between = 0; between < 2; between++) {
            double start;
            lk_layer *e = emitter_layer(&start);
            lk_emitter_cell *c = straight_cell(dot, 10);
            lk_emitter_layer_set_cells(e, &c, 1);
            lk_emitter_layer_set_emitter_position(e, lk_point_make(change ? 20 : 10, 60));
            free(frame_at(start + 1.5));
            lk_transaction_set_disable_actions(true);
            if (change) lk_emitter_layer_set_emitter_position(e, lk_point_make(100, 60));
            else lk_emitter_layer_set_velocity(e, 3);
            lk_transaction_flush();
            if (between) free(frame_at(start + 1.6));
            frames[between] = frame_at(start + 4.5);
            drop(e);
            lk_release(c);
        }
        int centres[8], n = centres_on_row(frames[0], centres, 8), i, ok = n == 4, first = 0;
        for (i = 0; ok && i < 4; i++) ok = abs(centres[i] - expected[change][i]) <= 1;
        ok = ok && same_pixels(frames[0], frames[1], &first);
        LKT_CHECK(ok, names[change], "%d particles at x %d %d %d %d (expected %d %d %d %d); without the frame at 1.6 s "
                  "%s", n, n > 0 ? centres[0] : -1, n > 1 ? centres[1] : -1, n > 2 ? centres[2] : -1,
                  n > 3 ? centres[3] : -1, expected[change][0], expected[change][1], expected[change][2],
                  expected[change][3], same_pixels(frames[0], frames[1], &first) ? "the same" : "different");
        free(frames[0]);
        free(frames[1]);
    }

    /* The particle born exactly at a drawn frame's time (2 s) keeps its
       values when a change follows that frame: velocity x 3 after the frame
       at 2 s leaves it at 10 pt/s. At 4.5 s: born at 1 and 2 s (10 pt/s)
       x 45, 35; at 3 and 4 s (30 pt/s) x 55, 25. It was changed after it
       was drawn (x 85, the change applied from 2 s inclusive). */
    double start;
    lk_layer *e = emitter_layer(&start);
    lk_emitter_cell *c = straight_cell(dot, 10);
    lk_emitter_layer_set_cells(e, &c, 1);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(10, 60));
    free(frame_at(start + 1.5));
    free(frame_at(start + 2));
    lk_transaction_set_disable_actions(true);
    lk_emitter_layer_set_velocity(e, 3);
    lk_transaction_flush();
    uint8_t *px = frame_at(start + 4.5);
    int centres[8], n = centres_on_row(px, centres, 8), ok = n == 4;
    static const int born_at_a_frame[4] = { 25, 35, 45, 55 };
    for (int i = 0; ok && i < 4; i++) ok = abs(centres[i] - born_at_a_frame[i]) <= 1;
    LKT_CHECK(ok, "S7.4 a particle born at a drawn frame's time keeps its values when a change follows that frame",
              "%d particles at x %d %d %d %d (expected 25 35 45 55)", n, n > 0 ? centres[0] : -1,
              n > 1 ? centres[1] : -1, n > 2 ? centres[2] : -1, n > 3 ? centres[3] : -1);
    free(px);
    drop(e);
    lk_release(c);
    lk_release(dot);
}

/* S7.4: while an animation moves emitterPosition (or changes a rate or
   a multiplier), each particle is born with the values of its own moment,
   whatever frames are drawn: births at 0.5, 1 and 1.5 s under
   emitterPosition.x 0 -> 100 over 2 s stay at x 25, 50 and 75 after one
   jump to 1.9 s, at 60 fps, and with frames at 0.6, 1.1, 1.6 s. The
   animated values were read at the frames only: after the jump all three
   were born at 95 (one particle seen), with those frames at 30 and 55. */
static void test_animated_values_between_frames(void)
{
    static const char *const patterns[3] = { "one jump", "60 fps", "frames at 0.6, 1.1, 1.6 s" };
    lk_image *dot = solid_image(4, 4, 255, 255, 255, 0);
    for (int pattern = 0; pattern < 3; pattern++) {
        double start;
        lk_layer *e = emitter_layer(&start);
        lk_emitter_cell *c = straight_cell(dot, 0);
        lk_emitter_cell_set_birth_rate(c, 2);
        lk_emitter_layer_set_cells(e, &c, 1);
        lk_emitter_layer_set_emitter_position(e, lk_point_make(100, 60));
        lk_transaction_flush();
        lk_animation *a = lk_basic_animation_create("emitterPosition.x");
        lk_animation_set_from_value(a, lk_value_number(0));
        lk_animation_set_to_value(a, lk_value_number(100));
        lk_animation_set_duration(a, 2);
        lk_animation_set_timing_function(a, lk_timing_function_named(LK_TIMING_LINEAR));
        lk_animation_set_begin_time(a, 1e-9);
        lk_layer_add_animation(e, a, "move");
        lk_release(a);
        lk_transaction_flush();
        if (pattern == 1)
            for (int i = 1; i < 114; i++) free(frame_at(start + i / 60.0));
        if (pattern == 2) {
            free(frame_at(start + 0.6));
            free(frame_at(start + 1.1));
            free(frame_at(start + 1.6));
        }
        uint8_t *px = frame_at(start + 1.9);
        int centres[8], n = centres_on_row(px, centres, 8), ok = n == 3;
        for (int i = 0; ok && i < 3; i++) ok = abs(centres[i] - 25 * (i + 1)) <= 1;
        char name[160];
        snprintf(name, sizeof name, "S7.4 births under an animated emitterPosition keep their own moment's position (%s)",
                 patterns[pattern]);
        LKT_CHECK(ok, name, "%d particles at x %d %d %d (expected 25 50 75)", n, n > 0 ? centres[0] : -1,
                  n > 1 ? centres[1] : -1, n > 2 ? centres[2] : -1);
        free(px);
        drop(e);
        lk_release(c);
    }
    lk_release(dot);
}

/* Width of the lit run through (x, y) along the row. */
static int run_width(const uint8_t *px, int x, int y)
{
    int a = x, b = x;
    if (pixel(px, x, y)[0] <= 128) return 0;
    while (a > 0 && pixel(px, a - 1, y)[0] > 128) a--;
    while (b < W - 1 && pixel(px, b + 1, y)[0] > 128) b++;
    return b - a + 1;
}

/* A sub-cell's particles inherit their parent particle's scale
   (CAEmitterCell.emitterCells: "the scale and color of fireworkCell are
   inherited by trailCell"): it multiplies their own. A 16-point image; the
   parent (scale 0.5, born at 1 s from (20, 40), 40 pt/s along +x) emits one
   child at 2 s, scale 1.5, going down at 30 pt/s; at 3.5 s the parent is 8
   points wide at x 120, the child 12 at (60, 85). The layer's scale
   multiplier (2) reaches the child once, through its parent: 16 and 24. */
static void test_scale_inherited(void)
{
    lk_image *square = solid_image(16, 16, 255, 255, 255, 0);
    int k;
    for (k = 0; k < 2; k++) {
        double start;
        lk_layer *e = emitter_layer(&start);
        lk_emitter_cell *parent = straight_cell(square, 40), *child = straight_cell(square, 30);
        lk_emitter_cell_set_duration(parent, 1.5);
        lk_emitter_cell_set_scale(parent, 0.5);
        lk_emitter_cell_set_duration(child, 1.5);
        lk_emitter_cell_set_scale(child, 1.5);
        lk_emitter_cell_set_emission_longitude(child, LKT_PI / 2);
        lk_emitter_cell_set_cells(parent, &child, 1);
        lk_emitter_layer_set_cells(e, &parent, 1);
        lk_emitter_layer_set_emitter_position(e, lk_point_make(20, 40));
        if (k) lk_emitter_layer_set_scale(e, 2);
        uint8_t *px = frame_at(start + 3.5);
        int pw = run_width(px, 120, 40), cw = run_width(px, 60, 85);
        LKT_CHECK(pw == 8 * (k + 1) && cw == 12 * (k + 1),
                  k ? "S7.4 the layer's scale multiplier reaches a sub-cell's particles once, through the inherited scale"
                    : "S7.4 a sub-cell's particles inherit their parent particle's scale (CAEmitterCell.emitterCells)",
                  "parent %d points wide, child %d (expected %d and %d)", pw, cw, 8 * (k + 1), 12 * (k + 1));
        free(px);
        drop(e);
        lk_release(parent);
        lk_release(child);
    }
    lk_release(square);
}

/* CAEmitterCell.contentsScale: the contents' pixels per point. A 16-pixel
   image at contentsScale 2 makes 8-point particles (2x artwork drawn at its
   point size); the getter reads it back, and 0 or a negative scale is
   refused, naming the argument. */
static void test_contents_scale(void)
{
    lk_image *square = solid_image(16, 16, 255, 255, 255, 0);
    double start;
    lk_layer *e = emitter_layer(&start);
    lk_emitter_cell *c = straight_cell(square, 0);
    LKT_CHECK_NEAR("S7.4 a cell's contentsScale is 1 by default", lk_emitter_cell_get_contents_scale(c), 1, 0);
    LKT_CHECK_STATUS("S7.4 contentsScale 2", lk_emitter_cell_set_contents_scale(c, 2), LK_OK);
    LKT_CHECK_ERROR("S7.4 contentsScale 0 is refused", lk_emitter_cell_set_contents_scale(c, 0), LK_ERROR_INVALID_ARGUMENT,
                    "contentsScale");
    LKT_CHECK_NEAR("S8 ... and changes nothing", lk_emitter_cell_get_contents_scale(c), 2, 0);
    lk_emitter_layer_set_cells(e, &c, 1);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(60, 40));
    uint8_t *px = frame_at(start + 1.5);
    int width = run_width(px, 60, 40);
    LKT_CHECK(width == 8, "S7.4 a 16-pixel image at contentsScale 2 draws 8-point particles", "%d points wide", width);
    free(px);
    drop(e);
    lk_release(c);
    lk_release(square);
}

/* CAEmitterLayer: the particles "are drawn above the layer's background
   color and border"; a sublayer is drawn above them (docs/emitter.md). A
   10-point red particle at (5, 60) on a 10-point blue border over a green
   background, a yellow sublayer over its top half; with and without
   masksToBounds. */
static void test_particles_above_border(void)
{
    lk_image *red = solid_image(10, 10, 255, 0, 0, 0);
    int masks;
    for (masks = 0; masks < 2; masks++) {
        double start;
        lk_layer *e = emitter_layer(&start), *cover = lk_layer_create();
        lk_emitter_cell *c = straight_cell(red, 0);
        lk_emitter_layer_set_cells(e, &c, 1);
        lk_emitter_layer_set_emitter_position(e, lk_point_make(5, 60));
        lk_layer_set_border_width(e, 10);
        lk_layer_set_border_color(e, lk_color_make(0, 0, 1, 1));
        lk_layer_set_background_color(e, lk_color_make(0, 1, 0, 1));
        lk_layer_set_masks_to_bounds(e, masks != 0);
        lk_layer_set_frame(cover, lk_rect_make(0, 55, 10, 5));
        lk_layer_set_background_color(cover, lk_color_make(1, 1, 0, 1));
        lk_layer_add_sublayer(e, cover);
        uint8_t *px = frame_at(start + 1.5);
        const uint8_t *particle = pixel(px, 5, 62), *covered = pixel(px, 5, 57), *border = pixel(px, 5, 80);
        char name[160];
        snprintf(name, sizeof name, "S7.4 particles above the emitter layer's border, below its sublayers%s",
                 masks ? " (masksToBounds)" : "");
        LKT_CHECK(particle[0] == 255 && particle[1] == 0 && particle[2] == 0 && covered[0] == 255 && covered[1] == 255 &&
                  covered[2] == 0 && border[2] == 255 && border[0] == 0,
                  name, "particle over the border (%d, %d, %d), expected red; sublayer over the particle (%d, %d, %d), "
                  "expected yellow; border (%d, %d, %d)", particle[0], particle[1], particle[2], covered[0], covered[1],
                  covered[2], border[0], border[1], border[2]);
        free(px);
        drop(e);
        lk_release(cover);
        lk_release(c);
    }
    lk_release(red);
}

static void test_properties_and_errors(void)
{
    lk_layer *e = lk_emitter_layer_create();
    lk_emitter_cell *rocket = lk_emitter_cell_create(), *spark = lk_emitter_cell_create();
    lk_emitter_cell_set_name(rocket, "rocket");
    lk_emitter_cell_set_name(spark, "spark");
    lk_emitter_cell_set_cells(rocket, &spark, 1);
    lk_emitter_layer_set_cells(e, &rocket, 1);
    LKT_CHECK(lk_emitter_layer_get_cell_count(e) == 1 && lk_emitter_layer_get_cell(e, 0) == rocket,
              "S7.4 the layer's cells", "count %zu", lk_emitter_layer_get_cell_count(e));
    LKT_CHECK_STATUS("S7.4 a nested cell key path is settable on the layer",
                     lk_layer_set_value(e, "emitterCells.rocket.emitterCells.spark.birthRate", lk_value_number(7)), LK_OK);
    LKT_CHECK_NEAR("S7.4 ... and reaches the nested cell", lk_emitter_cell_get_birth_rate(spark), 7, 0);
    lk_value v;
    LKT_CHECK(lk_layer_get_value(e, "emitterCells.rocket.emitterCells.spark.birthRate", &v) == LK_OK &&
              v.type == LK_VALUE_NUMBER && v.as.number == 7, "S7.4 a nested cell key path reads back", "read failed");
    lk_layer_set_value(e, "emitterCells.rocket.contentsRect.size.width", lk_value_number(0.5));
    LKT_CHECK_NEAR("S7.4 parts of a cell's contentsRect by key path", lk_emitter_cell_get_contents_rect(rocket).size.width, 0.5, 0);
    lk_layer_set_value(e, "emitterPosition", lk_value_point(lk_point_make(3, 4)));
    LKT_CHECK_POINT("S7.4 emitterPosition by key path", lk_emitter_layer_get_emitter_position(e), lk_point_make(3, 4), 0);
    lk_layer_set_value(e, "renderMode", lk_value_string("additive"));
    LKT_CHECK(lk_emitter_layer_get_render_mode(e) == LK_EMITTER_RENDER_ADDITIVE, "S7.4 renderMode by key path as a string", "got %d",
              (int)lk_emitter_layer_get_render_mode(e));
    LKT_CHECK(lk_emitter_layer_get_emitter_mode(e) == LK_EMITTER_MODE_VOLUME && lk_emitter_layer_get_birth_rate(e) == 1 &&
              lk_emitter_layer_get_seed(e) == 0 && lk_emitter_layer_get_emitter_shape(e) == LK_EMITTER_SHAPE_POINT,
              "S7.4 the emitter layer's defaults (CAEmitterLayer.h)", "mode %d", (int)lk_emitter_layer_get_emitter_mode(e));
    lk_emitter_layer_set_seed(e, 4000000000u);
    LKT_CHECK(lk_emitter_layer_get_seed(e) == 4000000000u, "S7.4 seed takes any unsigned 32-bit value", "got %u",
              lk_emitter_layer_get_seed(e));

    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a cell name that is not there is named", lk_layer_set_value(e, "emitterCells.nope.birthRate", lk_value_number(1)),
                    LK_ERROR_UNKNOWN_KEY_PATH, "nope");
    /* Adding an animation of a cell that is not there is refused as setting
       it is, and nothing is added (it was taken and animated nothing): key
       paths are resolved when the animation is added (docs/emitter.md). */
    lk_animation *absent = lk_basic_animation_create("emitterCells.nope.birthRate");
    lk_animation_set_to_value(absent, lk_value_number(5));
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 an animation of a cell that is not there is refused, naming the cell",
                    lk_layer_add_animation(e, absent, "absent"), LK_ERROR_UNKNOWN_KEY_PATH, "no cell at \"nope\"");
    LKT_CHECK(strstr(lk_last_error(), "emitterCells.nope.birthRate") != NULL, "S8.1 ... and the key path", "%s",
              lk_last_error());
    lk_animation *absent_part = lk_basic_animation_create("emitterCells.rocket.emitterCells.nope.contentsRect.size.width");
    lk_animation_set_to_value(absent_part, lk_value_number(0.5));
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 ... a nested one with a part of a property too",
                    lk_layer_add_animation(e, absent_part, "absent"), LK_ERROR_UNKNOWN_KEY_PATH, "rocket.nope");
    lk_animation *group = lk_animation_group_create();
    lk_animation *children[2] = {lk_basic_animation_create("emitterCells.rocket.birthRate"), absent};
    lk_animation_set_to_value(children[0], lk_value_number(2));
    lk_animation_set_animations(group, children, 2);
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 ... in a group, naming the child", lk_layer_add_animation(e, group, "absent"),
                    LK_ERROR_UNKNOWN_KEY_PATH, "a.animations[1]");
    LKT_CHECK(lk_layer_get_animation_keys(e, NULL, 0) == 0, "S8.1 the refused animations added nothing", "%zu keys",
              lk_layer_get_animation_keys(e, NULL, 0));
    LKT_CHECK_STATUS("S7.4 the same animation on a cell that is there is added",
                     lk_layer_add_animation(e, children[0], "present"), LK_OK);
    lk_layer_remove_all_animations(e);
    lk_release(children[0]);
    lk_release(group);
    lk_release(absent_part);
    lk_release(absent);
    lkt_error_mark();
    LKT_CHECK_ERROR("S1.6 a cell path that does not parse says how cells are named",
                    lk_layer_set_value(e, "emitterCells.a.b.birthRate", lk_value_number(1)), LK_ERROR_UNKNOWN_KEY_PATH,
                    "emitterCells.NAME.PROPERTY");
    LKT_CHECK(strstr(lk_last_error(), "an emitter layer") != NULL, "S1.6 ... in English (\"an emitter layer\")", "%s",
              lk_last_error());
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a negative cell birthRate by key path names it",
                    lk_layer_set_value(e, "emitterCells.rocket.birthRate", lk_value_number(-1)), LK_ERROR_INVALID_ARGUMENT,
                    "birthRate");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a negative emitterSize names it", lk_emitter_layer_set_emitter_size(e, lk_size_make(-1, 2)),
                    LK_ERROR_INVALID_ARGUMENT, "emitterSize");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a NaN birthRate multiplier names it", lk_emitter_layer_set_birth_rate(e, NAN),
                    LK_ERROR_INVALID_ARGUMENT, "birthRate");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 an unknown emitter shape names the argument", lk_emitter_layer_set_emitter_shape(e, (lk_emitter_shape)99),
                    LK_ERROR_INVALID_ARGUMENT, "shape");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 NULL cells with a count", lk_emitter_layer_set_cells(e, NULL, 2), LK_ERROR_INVALID_ARGUMENT, "cells");
    lk_emitter_cell *bad[2] = {rocket, (lk_emitter_cell *)(void *)root};
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a layer among the cells names its index", lk_emitter_layer_set_cells(e, bad, 2),
                    LK_ERROR_INVALID_ARGUMENT, "cells[1]");
    LKT_CHECK(lk_emitter_layer_get_cell_count(e) == 1, "S8.1 a failed set_cells changes nothing", "count %zu",
              lk_emitter_layer_get_cell_count(e));
    lk_layer *plain = lk_layer_create();
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 an emitter call on a plain layer", lk_emitter_layer_set_emitter_position(plain, lk_point_make(1, 1)),
                    LK_ERROR_INVALID_ARGUMENT, "emitter layer");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 cells on a plain layer", lk_emitter_layer_set_cells(plain, &rocket, 1), LK_ERROR_INVALID_ARGUMENT,
                    "emitter layer");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a cell key path on a plain layer", lk_layer_set_value(plain, "emitterCells.rocket.birthRate", lk_value_number(1)),
                    LK_ERROR_UNKNOWN_KEY_PATH, "emitterCells");
    lk_release(plain);
    lk_release(e);
    lk_release(rocket);
    lk_release(spark);
}

/* S7.4 with a birth rate no scene needs (1e12 and 1e300 a second, in both
   the cell and the layer's multiplier): frames come back, at 1e12 with
   particles (the births a frame adds are capped); at 1e300 every birth
   number is past 2^53, where they stop (docs/emitter.md). Such a rate
   once made the simulation loop without end (at 1e300 the birth number
   stopped changing). */
static void test_huge_birth_rate(void)
{
    static const double rates[] = { 1e12, 1e300 };
    lk_image *dot = solid_image(4, 4, 255, 255, 255, 0);
    size_t i;
    for (i = 0; i < 2; i++) {
        double start;
        lk_emitter_cell *cell = straight_cell(dot, 30);
        lk_layer *e = emitter_layer(&start);
        char name[128];
        lk_status s1, s2;
        uint8_t *px;
        int lit;
        lk_emitter_cell_set_birth_rate(cell, rates[i]);
        lk_emitter_cell_set_lifetime(cell, 2);
        lk_emitter_layer_set_emitter_position(e, lk_point_make(W / 2.0, H / 2.0));
        lk_emitter_layer_set_cells(e, &cell, 1);
        lk_emitter_layer_set_birth_rate(e, rates[i]);
        lk_transaction_flush();
        s1 = lk_display_render_frame_at(display, start + 0.5);
        s2 = lk_display_render_frame_at(display, start + 0.55);
        px = (uint8_t *)malloc(W * H * 4);
        lk_display_read_pixels(display, px, W * 4);
        lit = lit_pixels(px);
        free(px);
        snprintf(name, sizeof name, "S7.4 birth rate %g: frames are drawn%s", rates[i], i == 0 ? ", with particles" : "");
        LKT_CHECK(s1 == LK_OK && s2 == LK_OK && (i == 1 || lit > 0), name, "%s %s, %d lit pixels", lkt_status_name(s1),
                  lkt_status_name(s2), lit);
        drop(e);
        lk_release(cell);
    }
    /* A frame exactly when a cell begins to emit (its beginTime, 0.5 s),
       then the next: the first birth after that frame was sought one
       birth number at a time, and at 1e300 a second every birth time
       rounds to the start, so the search never ended (the render thread
       hung; found by test_call_sequences). */
    {
        double start;
        lk_emitter_cell *cell = straight_cell(dot, 30);
        lk_layer *e = emitter_layer(&start);
        lk_status s1, s2;
        lk_emitter_cell_set_birth_rate(cell, 1e300);
        lk_emitter_cell_set_lifetime(cell, 2);
        lk_emitter_cell_set_begin_time(cell, 0.5);
        lk_emitter_layer_set_cells(e, &cell, 1);
        lk_transaction_flush();
        s1 = lk_display_render_frame_at(display, start + 0.5);
        s2 = lk_display_render_frame_at(display, start + 0.5 + 1.0 / 60);
        LKT_CHECK(s1 == LK_OK && s2 == LK_OK, "S7.4 birth rate 1e300 from a frame at the cell's begin time: frames are drawn",
                  "%s %s", lkt_status_name(s1), lkt_status_name(s2));
        drop(e);
        lk_release(cell);
    }
    lk_release(dot);
}

/* S7.4, S4.2: a negative timeOffset puts the cell's local time below 0 at
   the start of its interval: the first birth comes when the local time
   reaches 1 / birthRate (-1 at 10 a second: 1.1 s in). It was accepted
   and the next frame trapped (births numbered below 1 converted to a
   key); on a sub-cell, -1e20 hung the first frame. */
static void test_negative_time_offset(void)
{
    lk_image *dot = solid_image(4, 4, 255, 255, 255, 0);
    double start;
    lk_emitter_cell *cell = straight_cell(dot, 0);
    lk_emitter_cell_set_birth_rate(cell, 10);
    lk_status set = lk_emitter_cell_set_time_offset(cell, -1);
    lk_layer *e = emitter_layer(&start);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(W / 2.0, H / 2.0));
    lk_emitter_layer_set_cells(e, &cell, 1);
    uint8_t *before = frame_at(start + 1.05), *after = frame_at(start + 1.15);
    LKT_CHECK(set == LK_OK && lit_pixels(before) == 0 && lit_pixels(after) > 0,
              "S7.4 a cell's timeOffset of -1 (10 a second) bears its first particle 1.1 s in",
              "%s, %d lit pixels at 1.05 s, %d at 1.15 s", lkt_status_name(set), lit_pixels(before), lit_pixels(after));
    free(before);
    free(after);
    drop(e);
    lk_release(cell);

    lk_emitter_cell *parent = straight_cell(dot, 0), *child = straight_cell(dot, 40);
    lk_emitter_cell_set_birth_rate(child, 10);
    lk_emitter_cell_set_time_offset(child, -1e20);
    lk_emitter_cell_set_cells(parent, &child, 1);
    e = emitter_layer(&start);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(W / 2.0, H / 2.0));
    lk_emitter_layer_set_cells(e, &parent, 1);
    lk_transaction_flush();
    lk_status s1 = lk_display_render_frame_at(display, start + 1.5);
    lk_status s2 = lk_display_render_frame_at(display, start + 3);
    uint8_t *px = frame_at(start + 3);
    /* the parents (born at 1 and 2 s) sit at the emitter; no child moved away from them */
    int far = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (pixel(px, x, y)[0] > 8 && (abs(x - W / 2) > 4 || abs(y - H / 2) > 4)) far++;
    LKT_CHECK(s1 == LK_OK && s2 == LK_OK && lit_pixels(px) > 0 && far == 0,
              "S7.4 a sub-cell's timeOffset of -1e20: frames are drawn, and it bears nothing",
              "%s %s, %d lit pixels, %d away from the emitter", lkt_status_name(s1), lkt_status_name(s2),
              lit_pixels(px), far);
    free(px);
    drop(e);
    lk_release(child);
    lk_release(parent);
    lk_release(dot);
}

/* S7.4, S4.2: a negative beginTime puts a cell's local time |beginTime| in
   at its start, so a top-level cell has the particles it would have born
   since then (docs/emitter.md, Cell timing), the same whether it was there
   when the emitter started or was added later (after frames had run). One
   particle a second at 20 pt/s along +x from x 10, beginTime -2.5: 1.25 s
   after its start the particles born 2.75, 1.75 and 0.75 s before are at
   x 65, 45, 25 (tolerance: 1 pixel on each centre; the frames are at the
   same times relative to each start). Added after frames at 1, 2 and 3 s
   (alone, or beside a cell already there), the cell had one particle,
   born a second after it was added (x 15): the births before the change
   fell in segments and rate runs without the cell. */
static void test_negative_begin_time(void)
{
    static const int expected[3] = { 25, 45, 65 };
    static const char *const names[3] = {
        "S7.4 a cell with beginTime -2.5 present from the start has the particles born since -2.5 s",
        "S7.4 the same cell added at 3 s (no cells before) has the same particles relative to its start",
        "S7.4 the same cell added at 3 s beside another cell has the same particles relative to its start",
    };
    lk_image *dot = solid_image(4, 4, 255, 255, 255, 0);
    for (int mode = 0; mode < 3; mode++) {
        double start, added = mode == 0 ? 0 : 3;
        lk_layer *e = emitter_layer(&start);
        lk_emitter_cell *cell = straight_cell(dot, 20), *other = straight_cell(dot, 0);
        lk_emitter_cell_set_begin_time(cell, -2.5);
        lk_emitter_cell_set_birth_rate(other, 0);
        lk_emitter_layer_set_emitter_position(e, lk_point_make(10, 60));
        if (mode == 0) {
            lk_emitter_layer_set_cells(e, &cell, 1);
        } else {
            if (mode == 2) lk_emitter_layer_set_cells(e, &other, 1);
            free(frame_at(start + 1));
            free(frame_at(start + 2));
            free(frame_at(start + 3));
            lk_emitter_cell *both[2] = { other, cell };
            lk_transaction_set_disable_actions(true);
            if (mode == 1) lk_emitter_layer_set_cells(e, &cell, 1);
            else lk_emitter_layer_set_cells(e, both, 2);
        }
        uint8_t *px = frame_at(start + added + 1.25);
        int centres[8], n = centres_on_row(px, centres, 8), ok = n == 3;
        for (int i = 0; ok && i < 3; i++) ok = abs(centres[i] - expected[i]) <= 1;
        LKT_CHECK(ok, names[mode], "%d particles at x %d %d %d (expected 25 45 65)", n, n > 0 ? centres[0] : -1,
                  n > 1 ? centres[1] : -1, n > 2 ? centres[2] : -1);
        free(px);
        drop(e);
        lk_release(cell);
        lk_release(other);
    }
    lk_release(dot);
}

/* An emitter with an animated cell value, drawn far out in time (local
   time 1e17): the animation is sampled on a grid of 1/120 s, and there a
   step of the grid no longer changed the sample's index (k + 1 == k past
   2^53): the frame never returned. */
static void test_animated_far_out(void)
{
    lk_image *flake = solid_image(10, 10, 255, 255, 255, 1);
    double start;
    lk_emitter_cell *cell;
    lk_layer *e = snow_layer(&start, flake, &cell);
    lk_animation *a = birth_rate_animation(10, 40);
    lk_animation_set_duration(a, 1);
    lk_animation_set_repeat_count(a, INFINITY);
    lk_layer_add_animation(e, a, "rate");
    lk_release(a);
    lk_transaction_flush();
    free(frame_at(start + 1));
    time_t began = time(NULL);
    lk_status s = lk_display_render_frame_at(display, start + 1e17);
    LKT_CHECK(s == LK_OK && time(NULL) - began < 20, "S8.1 an emitter with an animated cell value draws at local time 1e17",
              "%s after %ld s", lkt_status_name(s), (long)(time(NULL) - began));
    drop(e);
    lk_release(cell);
    lk_release(flake);
}

/* S6.1, allowsGroupOpacity: an emitter layer at opacity 0.5 fades its
   particles as one picture: an opaque red particle over an opaque blue one
   shows red at half, (128, 0, 0), not red at half over blue at half
   (128, 0, 64), which it showed unless a background colour made the layer
   a group. With allowsGroupOpacity off each particle takes the opacity. */
static void test_group_opacity(void)
{
    lk_image *white = solid_image(8, 8, 255, 255, 255, 0);
    for (int grouped = 1; grouped >= 0; grouped--) {
        double start;
        lk_emitter_cell *cell = straight_cell(white, 0);
        lk_emitter_cell_set_duration(cell, 2.5);   /* births at 1 and 2 s */
        lk_emitter_cell_set_color(cell, lk_color_make(1, 0, 0, 1));
        lk_emitter_cell_set_red_speed(cell, -1);   /* a second old: blue */
        lk_emitter_cell_set_blue_speed(cell, 1);
        lk_layer *e = emitter_layer(&start);
        lk_emitter_layer_set_cells(e, &cell, 1);
        lk_emitter_layer_set_render_mode(e, LK_EMITTER_RENDER_OLDEST_FIRST);
        lk_emitter_layer_set_emitter_position(e, lk_point_make(W / 2.0, H / 2.0));
        lk_layer_set_opacity(e, 0.5);
        lk_layer_set_allows_group_opacity(e, grouped);
        uint8_t *px = frame_at(start + 2.0);
        const uint8_t *p = pixel(px, W / 2, H / 2);
        int want_blue = grouped ? 0 : 64;
        LKT_CHECK(abs(p[0] - 128) <= 2 && p[1] <= 2 && abs(p[2] - want_blue) <= 2,
                  grouped ? "S6.1 allowsGroupOpacity: overlapping particles at opacity 0.5 fade as one picture"
                          : "S6.1 allowsGroupOpacity off: each particle takes the opacity on its own",
                  "(%d, %d, %d), expected (128, 0, %d)", p[0], p[1], p[2], want_blue);
        free(px);
        drop(e);
        lk_release(cell);
    }
    lk_release(white);
}

int main(void)
{
    display = lkt_open_display(W, H, "open a display");
    if (!display) return lkt_finish();
    root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(root, lk_color_make(0, 0, 0, 1));
    lk_display_set_root_layer(display, root);
    test_drawing();
    test_render_modes();
    test_scenes();
    test_birth_rate_zero();
    test_key_path_animation();
    test_shape_radius();
    test_layer_change_applies_from_commit();
    test_animated_values_between_frames();
    test_scale_inherited();
    test_contents_scale();
    test_particles_above_border();
    test_properties_and_errors();
    test_huge_birth_rate();
    test_negative_time_offset();
    test_negative_begin_time();
    test_group_opacity();
    test_animated_far_out();
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
