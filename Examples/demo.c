/*
 * LayerKit demo: the scene of Core Animation's classic first example, rendered
 * headless on the software backend with a manual clock.
 *
 * On a 1280x720 display:
 *   - a plain layer and a "view's layer" side by side, both rounded
 *     (cornerRadius) and bordered; the first has a backgroundColor, the second
 *     shows an image made in code as its contents (contentsGravity
 *     resizeAspect, so it is letterboxed inside the rounded frame);
 *   - a card rotated about the y axis, seen in perspective because its
 *     superlayer's sublayerTransform has m34 = -1/500;
 *   - a layer rotated 30 degrees about z whose masksToBounds clips two
 *     sublayers that reach past its edges.
 *
 * Writes OUTDIR/demo.png, and OUTDIR/demo-card-y<degrees>.png (demo-card-y-30.png,
 * ...) with the card at other angles. Every call's status is checked; on a
 * failure the demo prints lk_last_error() and exits non-zero.
 *
 * usage: demo [OUTDIR]   (default: out; the folder must exist)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <layerkit/layerkit.h>

#define DISPLAY_WIDTH 1280
#define DISPLAY_HEIGHT 720
#define PI 3.14159265358979323846

/* ---- error handling: every object made is tracked so a failure can release
   them all before exiting ---- */

static void *tracked[64];
static size_t tracked_count;
static lk_display *display;
static lk_image *image;

static void release_tracked(void)
{
    while (tracked_count > 0)
        lk_release(tracked[--tracked_count]);
}

static void die(const char *call, int line)
{
    fprintf(stderr, "demo.c:%d: %s failed: %s\n", line, call, lk_last_error());
    release_tracked();
    lk_release(image);
    lk_display_close(display);
    exit(1);
}

static void *track(void *object, const char *call, int line)
{
    if (object == NULL)
        die(call, line);
    if (tracked_count == sizeof tracked / sizeof tracked[0]) {
        fprintf(stderr, "demo.c: too many objects\n");
        exit(1);
    }
    tracked[tracked_count++] = object;
    return object;
}

static void check(lk_status status, const char *call, int line)
{
    if (status != LK_OK)
        die(call, line);
}

/* NEW(call): an object-returning call that must succeed; CHECK(call): a
   status-returning call that must return LK_OK. */
#define NEW(call) track((call), #call, __LINE__)
#define CHECK(call) check((call), #call, __LINE__)

/* ---- the image shown as contents: made in code, no file needed ---- */

static void hsv_to_rgb(double h, double s, double v, double *r, double *g, double *b)
{
    double i = floor(h * 6.0), f = h * 6.0 - i;
    double p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);
    switch ((int)i % 6) {
    case 0: *r = v; *g = t; *b = p; break;
    case 1: *r = q; *g = v; *b = p; break;
    case 2: *r = p; *g = v; *b = t; break;
    case 3: *r = p; *g = q; *b = v; break;
    case 4: *r = t; *g = p; *b = v; break;
    default: *r = v; *g = p; *b = q; break;
    }
}

/* 400x250 RGBA: a hue sweep from left to right, lighter at the top, a faint
   checkerboard, and a soft white sun (alpha-blended into the pixels). */
static lk_image *make_image(void)
{
    enum { W = 400, H = 250, CELL = 25 };
    static unsigned char pixels[W * H * 4];
    int x, y;

    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            unsigned char *px = pixels + (y * W + x) * 4;
            double r, g, b;
            double dx = x - 300.0, dy = y - 75.0, sun = 1.0 - (sqrt(dx * dx + dy * dy) - 38.0) / 6.0;
            hsv_to_rgb((double)x / W * 0.85, 0.75, 1.0 - 0.45 * y / H, &r, &g, &b);
            if (((x / CELL) + (y / CELL)) % 2 == 0) {
                r *= 0.88;
                g *= 0.88;
                b *= 0.88;
            }
            sun = sun < 0 ? 0 : sun > 1 ? 1 : sun;
            r += (1.0 - r) * sun;
            g += (1.0 - g) * sun;
            b += (0.85 - b) * sun;
            px[0] = (unsigned char)(r * 255.0 + 0.5);
            px[1] = (unsigned char)(g * 255.0 + 0.5);
            px[2] = (unsigned char)(b * 255.0 + 0.5);
            px[3] = 255;
        }
    }
    return lk_image_create_from_pixels(W, H, W * 4, LK_PIXEL_FORMAT_RGBA8, pixels);
}

/* ---- the scene ---- */

static lk_color rgb(double r, double g, double b)
{
    return lk_color_make(r, g, b, 1.0);
}

static lk_layer *rounded_layer(lk_rect frame, double radius, double border, lk_color border_color)
{
    lk_layer *layer = NEW(lk_layer_create());
    CHECK(lk_layer_set_frame(layer, frame));
    CHECK(lk_layer_set_corner_radius(layer, radius));
    CHECK(lk_layer_set_border_width(layer, border));
    CHECK(lk_layer_set_border_color(layer, border_color));
    return layer;
}

/* A card: a photo (the image, filling its frame) over two grey text bars. */
static lk_layer *make_card(double angle_degrees)
{
    lk_layer *card = NEW(lk_layer_create());
    lk_layer *photo, *bar;

    CHECK(lk_layer_set_name(card, "card"));
    CHECK(lk_layer_set_bounds(card, lk_rect_make(0, 0, 220, 260)));
    CHECK(lk_layer_set_position(card, lk_point_make(170, 150)));
    CHECK(lk_layer_set_background_color(card, rgb(0.98, 0.96, 0.90)));
    CHECK(lk_layer_set_corner_radius(card, 18));
    CHECK(lk_layer_set_border_width(card, 3));
    CHECK(lk_layer_set_border_color(card, rgb(0.55, 0.50, 0.45)));
    CHECK(lk_layer_set_masks_to_bounds(card, true));
    CHECK(lk_layer_set_transform(card, lk_transform3d_make_rotation(angle_degrees * PI / 180.0, 0, 1, 0)));

    photo = rounded_layer(lk_rect_make(14, 14, 192, 150), 10, 0, rgb(0, 0, 0));
    CHECK(lk_layer_set_contents(photo, image));
    CHECK(lk_layer_set_contents_gravity(photo, LK_GRAVITY_RESIZE_ASPECT_FILL));
    CHECK(lk_layer_set_masks_to_bounds(photo, true));
    CHECK(lk_layer_add_sublayer(card, photo));

    bar = NEW(lk_layer_create());
    CHECK(lk_layer_set_frame(bar, lk_rect_make(14, 182, 160, 18)));
    CHECK(lk_layer_set_background_color(bar, rgb(0.45, 0.42, 0.40)));
    CHECK(lk_layer_set_corner_radius(bar, 4));
    CHECK(lk_layer_add_sublayer(card, bar));

    bar = NEW(lk_layer_create());
    CHECK(lk_layer_set_frame(bar, lk_rect_make(14, 214, 110, 14)));
    CHECK(lk_layer_set_background_color(bar, rgb(0.70, 0.67, 0.64)));
    CHECK(lk_layer_set_corner_radius(bar, 4));
    CHECK(lk_layer_add_sublayer(card, bar));
    return card;
}

/* Builds the whole tree with the card at angle_degrees and returns its root.
   The layers are tracked: the caller hands the root to the display (which
   retains it) and then releases the tracked references. */
static lk_layer *build_scene(double angle_degrees)
{
    lk_layer *root = NEW(lk_layer_create());
    lk_layer *plain, *view_layer, *stage, *clipper, *disc, *band;
    lk_transform3d perspective = lk_transform3d_identity();

    CHECK(lk_layer_set_name(root, "root"));
    CHECK(lk_layer_set_frame(root, lk_rect_make(0, 0, DISPLAY_WIDTH, DISPLAY_HEIGHT)));
    CHECK(lk_layer_set_background_color(root, rgb(0.13, 0.14, 0.17)));

    /* a plain layer: a background colour, rounded and bordered */
    plain = rounded_layer(lk_rect_make(90, 70, 320, 240), 28, 6, rgb(0.92, 0.93, 0.96));
    CHECK(lk_layer_set_name(plain, "plain layer"));
    CHECK(lk_layer_set_background_color(plain, rgb(0.20, 0.45, 0.90)));
    CHECK(lk_layer_add_sublayer(root, plain));

    /* a view's layer: an image as contents, fitted with its aspect kept */
    view_layer = rounded_layer(lk_rect_make(480, 70, 320, 240), 28, 6, rgb(0.35, 0.36, 0.42));
    CHECK(lk_layer_set_name(view_layer, "view's layer"));
    CHECK(lk_layer_set_background_color(view_layer, rgb(0.90, 0.90, 0.93)));
    CHECK(lk_layer_set_contents(view_layer, image));
    CHECK(lk_layer_set_contents_gravity(view_layer, LK_GRAVITY_RESIZE_ASPECT));
    CHECK(lk_layer_set_masks_to_bounds(view_layer, true));
    CHECK(lk_layer_add_sublayer(root, view_layer));

    /* the card's stage gives its sublayers perspective (eye 500 points away) */
    perspective.m34 = -1.0 / 500.0;
    stage = NEW(lk_layer_create());
    CHECK(lk_layer_set_name(stage, "stage"));
    CHECK(lk_layer_set_frame(stage, lk_rect_make(860, 40, 340, 300)));
    CHECK(lk_layer_set_sublayer_transform(stage, perspective));
    CHECK(lk_layer_add_sublayer(stage, make_card(angle_degrees)));
    CHECK(lk_layer_add_sublayer(root, stage));

    /* rotated 30 degrees about z; masksToBounds clips what reaches outside */
    clipper = NEW(lk_layer_create());
    CHECK(lk_layer_set_name(clipper, "clipper"));
    CHECK(lk_layer_set_bounds(clipper, lk_rect_make(0, 0, 340, 180)));
    CHECK(lk_layer_set_position(clipper, lk_point_make(640, 520)));
    CHECK(lk_layer_set_transform(clipper, lk_transform3d_make_rotation(30.0 * PI / 180.0, 0, 0, 1)));
    CHECK(lk_layer_set_background_color(clipper, rgb(0.10, 0.55, 0.45)));
    CHECK(lk_layer_set_corner_radius(clipper, 20));
    CHECK(lk_layer_set_border_width(clipper, 4));
    CHECK(lk_layer_set_border_color(clipper, rgb(0.95, 0.95, 0.95)));
    CHECK(lk_layer_set_masks_to_bounds(clipper, true));
    CHECK(lk_layer_add_sublayer(root, clipper));

    disc = NEW(lk_layer_create());
    CHECK(lk_layer_set_frame(disc, lk_rect_make(230, -60, 200, 200)));
    CHECK(lk_layer_set_corner_radius(disc, 100));
    CHECK(lk_layer_set_background_color(disc, rgb(1.00, 0.80, 0.15)));
    CHECK(lk_layer_add_sublayer(clipper, disc));

    band = NEW(lk_layer_create());
    CHECK(lk_layer_set_frame(band, lk_rect_make(-80, 110, 500, 36)));
    CHECK(lk_layer_set_background_color(band, rgb(0.90, 0.20, 0.50)));
    CHECK(lk_layer_set_opacity(band, 0.85));
    CHECK(lk_layer_add_sublayer(clipper, band));
    return root;
}

/* Shows the scene with the card at angle_degrees and writes it to path. */
static void render(double angle_degrees, double time, const char *path)
{
    lk_layer *root = build_scene(angle_degrees);
    CHECK(lk_display_set_root_layer(display, root));
    release_tracked(); /* the display holds the tree now */
    CHECK(lk_display_render_frame_at(display, time));
    CHECK(lk_display_write_png(display, path));
    printf("  %s\n", path);
}

int main(int argc, char **argv)
{
    static const int angles[] = { -60, -30, 0, 30, 60 };
    const char *outdir = argc > 1 ? argv[1] : "out";
    lk_display_options options;
    lk_size size;
    char path[1024];
    size_t i;

    memset(&options, 0, sizeof options);
    options.struct_size = (uint32_t)sizeof options;
    options.backend = "software";
    options.width = DISPLAY_WIDTH;
    options.height = DISPLAY_HEIGHT;
    options.manual_clock = true;
    display = lk_display_open(&options);
    if (display == NULL)
        die("lk_display_open", __LINE__);
    size = lk_display_get_size(display);
    printf("LayerKit %s, backend \"%s\", %.0fx%.0f, manual clock\n", lk_version_string(),
           lk_display_get_backend_name(display), size.width, size.height);

    image = make_image();
    if (image == NULL)
        die("lk_image_create_from_pixels", __LINE__);

    printf("wrote:\n");
    snprintf(path, sizeof path, "%s/demo.png", outdir);
    render(40, 0.0, path);
    /* each variant is a new tree (so no implicit animation blends from the
       previous angle), rendered a second later on the manual clock */
    for (i = 0; i < sizeof angles / sizeof angles[0]; i++) {
        snprintf(path, sizeof path, "%s/demo-card-y%+03d.png", outdir, angles[i]);
        render(angles[i], 1.0 + (double)i, path);
    }

    lk_release(image);
    image = NULL;
    lk_display_close(display); /* releases the last root */
    return 0;
}
