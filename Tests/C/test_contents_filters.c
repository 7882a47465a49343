/* Contents filters (CALayer.magnificationFilter, minificationFilter and
   minificationFilterBias; the same on emitter cells): "nearest" draws a
   magnified image as crisp blocks and samples a reduced one without mixing
   neighbours; "linear" (the default) and "trilinear" (drawn as linear) mix
   them; which filter applies depends on the scale the contents are drawn at.
   Set by typed call and by key path; bad values refused, naming the
   argument. Pixels read back exactly (the values compared are pure colours
   or clearly mixed ones: tolerance 8 of 255 either way). Runs on software
   and, in Tests/GLES/cross-backend.sh, on gles. */
#include "support/lktest.h"
#include <stdlib.h>
#include <string.h>

#define W 100
#define H 100

static lk_display *display;
static lk_layer *root;

/* 2x2: red, green / blue, white. */
static lk_image *quad_image(void)
{
    static const uint8_t px[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    return lk_image_create_from_pixels(2, 2, 8, LK_PIXEL_FORMAT_RGBA8, px);
}

/* 64x64 of one-pixel columns, white and black in turn (column 0 white). */
static lk_image *stripes_image(void)
{
    uint8_t *px = (uint8_t *)malloc(64 * 64 * 4);
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint8_t *p = px + (y * 64 + x) * 4;
            p[0] = p[1] = p[2] = x % 2 == 0 ? 255 : 0;
            p[3] = 255;
        }
    lk_image *img = lk_image_create_from_pixels(64, 64, 64 * 4, LK_PIXEL_FORMAT_RGBA8, px);
    free(px);
    return img;
}

static uint8_t frame[W * H * 4];

/* A frame well after the changes' implicit animations (contents fade in
   over 0.25 s) have ended. */
static void draw(void)
{
    lk_transaction_flush();
    lk_display_render_frame_at(display, lk_media_time() + 10);
    lk_display_read_pixels(display, frame, W * 4);
}

static const uint8_t *at(int x, int y) { return frame + ((size_t)y * W + (size_t)x) * 4; }

static int is(const uint8_t *p, int r, int g, int b)
{
    return abs(p[0] - r) <= 8 && abs(p[1] - g) <= 8 && abs(p[2] - b) <= 8;
}

/* A 100x100 layer showing the 2x2 image, 50 times its size. */
static void check_magnification(void)
{
    lk_image *img = quad_image();
    lk_layer *l = lkt_layer_new(root, 0, 0, W, H, lk_color_make(0, 0, 0, 1));
    lk_layer_set_contents(l, img);
    LKT_CHECK(lk_layer_get_magnification_filter(l) == LK_CONTENTS_FILTER_LINEAR &&
                  lk_layer_get_minification_filter(l) == LK_CONTENTS_FILTER_LINEAR,
              "S6.1 contents filters are linear by default", "%d %d", (int)lk_layer_get_magnification_filter(l),
              (int)lk_layer_get_minification_filter(l));
    draw();
    /* linear: between the red and green texels both show */
    LKT_CHECK(at(45, 25)[0] > 60 && at(45, 25)[1] > 60, "S6.1 linear magnification mixes neighbouring pixels",
              "(45,25) is %d,%d,%d", at(45, 25)[0], at(45, 25)[1], at(45, 25)[2]);
    lk_layer_set_magnification_filter(l, LK_CONTENTS_FILTER_NEAREST);
    draw();
    LKT_CHECK(is(at(45, 25), 255, 0, 0) && is(at(55, 25), 0, 255, 0) && is(at(45, 75), 0, 0, 255) &&
                  is(at(55, 75), 255, 255, 255) && is(at(2, 2), 255, 0, 0) && is(at(97, 97), 255, 255, 255),
              "S6.1 nearest magnification draws each pixel as a block", "(45,25) %d,%d,%d (55,25) %d,%d,%d (55,75) %d,%d,%d",
              at(45, 25)[0], at(45, 25)[1], at(45, 25)[2], at(55, 25)[0], at(55, 25)[1], at(55, 25)[2],
              at(55, 75)[0], at(55, 75)[1], at(55, 75)[2]);
    /* the minification filter is not the one for a magnified image */
    lk_layer_set_magnification_filter(l, LK_CONTENTS_FILTER_LINEAR);
    lk_layer_set_minification_filter(l, LK_CONTENTS_FILTER_NEAREST);
    draw();
    LKT_CHECK(at(45, 25)[0] > 60 && at(45, 25)[1] > 60, "S6.1 a magnified image uses the magnification filter",
              "(45,25) is %d,%d,%d", at(45, 25)[0], at(45, 25)[1], at(45, 25)[2]);
    /* by key path, as Core Animation names the filters */
    LKT_CHECK_STATUS("S1.6 magnificationFilter by key path", lk_layer_set_value(l, "magnificationFilter", lk_value_string("nearest")),
                     LK_OK);
    LKT_CHECK(lk_layer_get_magnification_filter(l) == LK_CONTENTS_FILTER_NEAREST, "S1.6 the key path sets the typed property",
              "%d", (int)lk_layer_get_magnification_filter(l));
    lk_layer_set_minification_filter(l, LK_CONTENTS_FILTER_NEAREST);
    lk_value v = lk_value_none();
    lk_layer_get_value(l, "minificationFilter", &v);
    LKT_CHECK(v.type == LK_VALUE_STRING && v.as.string && strcmp(v.as.string, "nearest") == 0,
              "S1.6 minificationFilter reads back by key path as its name", "type %d", (int)v.type);
    draw();
    LKT_CHECK(is(at(45, 25), 255, 0, 0) && is(at(55, 25), 0, 255, 0), "S1.6 S6.1 nearest set by key path draws blocks",
              "(45,25) %d,%d,%d", at(45, 25)[0], at(45, 25)[1], at(45, 25)[2]);
    /* trilinear magnifies as linear */
    lk_layer_set_magnification_filter(l, LK_CONTENTS_FILTER_TRILINEAR);
    draw();
    LKT_CHECK(at(45, 25)[0] > 60 && at(45, 25)[1] > 60, "S6.1 trilinear is drawn as linear", "(45,25) is %d,%d,%d",
              at(45, 25)[0], at(45, 25)[1], at(45, 25)[2]);
    /* a nearest image turned by 30 degrees still shows only its four colours */
    lk_layer_set_magnification_filter(l, LK_CONTENTS_FILTER_NEAREST);
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 60, 60));
    lk_layer_set_transform(l, lkt_t_rotation_z(LKT_PI / 6));
    draw();
    LKT_CHECK(is(at(40, 40), 255, 0, 0) && is(at(60, 60), 255, 255, 255), "S6.1 nearest under a rotation",
              "(40,40) %d,%d,%d (60,60) %d,%d,%d", at(40, 40)[0], at(40, 40)[1], at(40, 40)[2], at(60, 60)[0],
              at(60, 60)[1], at(60, 60)[2]);
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_release(img);
}

/* The 64-pixel stripes in a 16x16 layer: four image pixels an output pixel. */
static void check_minification(void)
{
    lk_image *img = stripes_image();
    lk_layer *l = lkt_layer_new(root, 10, 10, 16, 16, lk_color_make(1, 0, 0, 1));
    lk_layer_set_contents(l, img);
    draw();
    int grey = 1;
    for (int x = 10; x < 26; x++) grey = grey && at(x, 18)[0] > 60 && at(x, 18)[0] < 196;
    LKT_CHECK(grey, "S6.1 linear minification mixes the stripes to grey", "(12,18) is %d", at(12, 18)[0]);
    /* the magnification filter is not the one for a reduced image */
    lk_layer_set_magnification_filter(l, LK_CONTENTS_FILTER_NEAREST);
    draw();
    LKT_CHECK(at(12, 18)[0] > 60 && at(12, 18)[0] < 196, "S6.1 a reduced image uses the minification filter",
              "(12,18) is %d", at(12, 18)[0]);
    lk_layer_set_minification_filter(l, LK_CONTENTS_FILTER_NEAREST);
    draw();
    int pure = 1;
    for (int x = 10; x < 26; x++) pure = pure && (is(at(x, 18), 0, 0, 0) || is(at(x, 18), 255, 255, 255));
    LKT_CHECK(pure, "S6.1 nearest minification picks one pixel, black or white", "(12,18) is %d,%d,%d", at(12, 18)[0],
              at(12, 18)[1], at(12, 18)[2]);
    /* grown back past one pixel a pixel, the magnification filter applies */
    lk_layer_set_bounds(l, lk_rect_make(0, 0, 80, 80));
    lk_layer_set_minification_filter(l, LK_CONTENTS_FILTER_LINEAR);
    draw();
    pure = 1;
    for (int x = 20; x < 60; x++) pure = pure && (is(at(x, 40), 0, 0, 0) || is(at(x, 40), 255, 255, 255));
    LKT_CHECK(pure, "S6.1 the same image enlarged takes the (nearest) magnification filter", "(21,40) is %d",
              at(21, 40)[0]);
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_release(img);
}

static void check_bias_and_errors(void)
{
    lk_layer *l = lk_layer_create();
    LKT_CHECK_NEAR("S1.1 minificationFilterBias is 0 by default", lk_layer_get_minification_filter_bias(l), 0, 0);
    LKT_CHECK_STATUS("S1.1 set minificationFilterBias", lk_layer_set_minification_filter_bias(l, -0.5), LK_OK);
    LKT_CHECK_NEAR("S1.1 minificationFilterBias reads back", lk_layer_get_minification_filter_bias(l), -0.5, 0);
    LKT_CHECK_ERROR("S8.1 a filter out of the enumeration is refused",
                    lk_layer_set_magnification_filter(l, (lk_contents_filter)7), LK_ERROR_INVALID_ARGUMENT, "filter");
    LKT_CHECK_ERROR("S8.1 a filter name Core Animation does not have is refused",
                    lk_layer_set_value(l, "minificationFilter", lk_value_string("cubic")), LK_ERROR_TYPE_MISMATCH,
                    "trilinear");
    LKT_CHECK_ERROR("S8.1 a non-finite bias is refused", lk_layer_set_minification_filter_bias(l, 1.0 / 0.0),
                    LK_ERROR_INVALID_ARGUMENT, "minificationFilterBias");
    LKT_CHECK(lk_layer_get_magnification_filter(l) == LK_CONTENTS_FILTER_LINEAR &&
                  lk_layer_get_minification_filter(l) == LK_CONTENTS_FILTER_LINEAR &&
                  lk_layer_get_minification_filter_bias(l) == -0.5,
              "S8.1 refused values change nothing", "%d %d %g", (int)lk_layer_get_magnification_filter(l),
              (int)lk_layer_get_minification_filter(l), lk_layer_get_minification_filter_bias(l));
    LKT_CHECK_ERROR("S8.1 a NULL layer is refused", lk_layer_set_minification_filter(NULL, LK_CONTENTS_FILTER_NEAREST),
                    LK_ERROR_INVALID_ARGUMENT, "layer");
    lk_release(l);
}

/* One particle a second of a cell with the 2x2 image at scale 40, standing
   still, living 0.9 s: each frame shows one particle. A cell's changes reach
   the particles born after them. */
static void check_emitter_cell(void)
{
    lk_image *img = quad_image();
    lk_emitter_cell *cell = lk_emitter_cell_create();
    LKT_CHECK(lk_emitter_cell_get_magnification_filter(cell) == LK_CONTENTS_FILTER_LINEAR &&
                  lk_emitter_cell_get_minification_filter(cell) == LK_CONTENTS_FILTER_LINEAR &&
                  lk_emitter_cell_get_minification_filter_bias(cell) == 0,
              "S7.4 a cell's filters are linear by default", "%d", (int)lk_emitter_cell_get_magnification_filter(cell));
    lk_emitter_cell_set_contents(cell, img);
    lk_emitter_cell_set_birth_rate(cell, 1);
    lk_emitter_cell_set_lifetime(cell, 0.9);
    lk_emitter_cell_set_scale(cell, 40);
    lk_layer *e = lk_emitter_layer_create();
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_frame(e, lk_rect_make(0, 0, W, H));
    lk_emitter_layer_set_emitter_position(e, lk_point_make(50, 50));
    double start = lk_media_time() + 1000;
    lk_layer_set_begin_time(e, start);
    lk_emitter_layer_set_cells(e, &cell, 1);
    lk_layer_add_sublayer(root, e);
    lk_transaction_commit();
    lk_transaction_flush();
    lk_display_render_frame_at(display, start + 1.5);
    lk_display_read_pixels(display, frame, W * 4);
    LKT_CHECK(at(45, 35)[0] > 60 && at(45, 35)[1] > 60, "S7.4 a cell's linear magnification mixes", "(45,35) %d,%d,%d",
              at(45, 35)[0], at(45, 35)[1], at(45, 35)[2]);
    lk_emitter_cell_set_magnification_filter(cell, LK_CONTENTS_FILTER_NEAREST);
    LKT_CHECK_STATUS("S7.4 a cell's minificationFilter by key path",
                     lk_emitter_cell_set_value(cell, "minificationFilter", lk_value_string("trilinear")), LK_OK);
    LKT_CHECK(lk_emitter_cell_get_minification_filter(cell) == LK_CONTENTS_FILTER_TRILINEAR,
              "S7.4 the cell's key path sets the typed property", "%d", (int)lk_emitter_cell_get_minification_filter(cell));
    LKT_CHECK_ERROR("S7.4 S8.1 a cell's filter out of the enumeration is refused",
                    lk_emitter_cell_set_minification_filter(cell, (lk_contents_filter)-1), LK_ERROR_INVALID_ARGUMENT,
                    "filter");
    lk_emitter_layer_set_cells(e, &cell, 1);   /* cells are copied when set */
    lk_transaction_flush();
    lk_display_render_frame_at(display, start + 3.5);
    lk_display_read_pixels(display, frame, W * 4);
    LKT_CHECK(is(at(45, 35), 255, 0, 0) && is(at(55, 35), 0, 255, 0) && is(at(55, 65), 255, 255, 255),
              "S7.4 a cell's nearest magnification draws blocks", "(45,35) %d,%d,%d (55,35) %d,%d,%d", at(45, 35)[0],
              at(45, 35)[1], at(45, 35)[2], at(55, 35)[0], at(55, 35)[1], at(55, 35)[2]);
    lk_layer_remove_from_superlayer(e);
    lk_release(e);
    lk_release(cell);
    lk_release(img);
    lk_transaction_flush();
}

/* contentsRect beyond the unit rect: "the edge pixels of the contents
   image will be extended outwards" (Apple's CALayer.contentsRect), also
   for a rect wholly beside the image or touching its edge (those drew
   nothing). A 2x1 image, red then blue, resized over the layer. */
static void check_contents_rect_outside(void)
{
    static const uint8_t px[8] = {255, 0, 0, 255, 0, 0, 255, 255};
    lk_image *img = lk_image_create_from_pixels(2, 1, 8, LK_PIXEL_FORMAT_RGBA8, px);
    lk_layer *l = lkt_layer_new(root, 0, 0, W, H, lk_color_make(0, 0, 0, 1));
    lk_layer_set_contents(l, img);
    static const struct { lk_rect r; int red; const char *name; } cases[] = {
        {{{1.5, 0}, {0.5, 1}}, 0, "S6.1 a contentsRect wholly right of the image extends its right edge pixels"},
        {{{1, 0}, {0.3, 1}}, 0, "S6.1 a contentsRect starting at the image's right edge extends it"},
        {{{-0.5, 0}, {0.4, 1}}, 1, "S6.1 a contentsRect wholly left of the image extends its left edge pixels"},
        {{{0.9, 0}, {0.2, 1}}, 0, "S6.1 a contentsRect partly beyond the image extends its edge"},
        {{{0, 2}, {1, 0.5}}, -1, "S6.1 a contentsRect wholly below the image extends its bottom row"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lk_layer_set_contents_rect(l, cases[i].r);
        draw();
        const uint8_t *left = at(5, 50), *right = at(94, 50);
        int ok = cases[i].red < 0 ? is(left, 255, 0, 0) && is(right, 0, 0, 255)
                 : cases[i].red ? is(left, 255, 0, 0) && is(right, 255, 0, 0) : is(left, 0, 0, 255) && is(right, 0, 0, 255);
        LKT_CHECK(ok, cases[i].name, "left %d,%d,%d right %d,%d,%d", left[0], left[1], left[2], right[0], right[1], right[2]);
    }
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_release(img);
    draw();
}

/* S6.1 S6.4: an image magnified tens of thousands of times lands where it
   should: a 2x1 image (red | blue) over a layer up to 1,000,000 points wide
   centred on x = 50 has its red/blue edge at x = 50, within a pixel and
   2^-16 of a texel. (The software backend's 16.16 transform held its
   2 / width texels a point to a few units: the edge was 5 pixels off at
   30,000 points, 16 at 100,000, off the display at 1,000,000; gles drew it
   in place.) Linear: an even mix there. */
static void check_huge_magnification(void)
{
    static const uint8_t px[8] = {255, 0, 0, 255, 0, 0, 255, 255};
    lk_image *img = lk_image_create_from_pixels(2, 1, 8, LK_PIXEL_FORMAT_RGBA8, px);
    lk_layer *l = lk_layer_create();
    lk_layer_set_contents(l, img);
    lk_layer_set_magnification_filter(l, LK_CONTENTS_FILTER_NEAREST);
    lk_layer_add_sublayer(root, l);
    const double widths[3] = {3e4, 1e5, 1e6};
    for (int i = 0; i < 3; i++) {
        lk_layer_set_bounds(l, lk_rect_make(0, 0, widths[i], 10));
        lk_layer_set_position(l, lk_point_make(W / 2.0, 50));
        lk_layer_set_magnification_filter(l, LK_CONTENTS_FILTER_NEAREST);
        draw();
        int edge = -1;
        for (int x = 0; x < W && edge < 0; x++)
            if (at(x, 50)[2] > 128) edge = x;
        /* within a pixel and 2^-16 of a texel (pixman's 16.16 source
           coordinates: 7.6 pixels when a texel is 500,000 wide) */
        double slack = 1 + widths[i] / 2 / 65536;
        LKT_CHECK(edge >= 0 && abs(edge - W / 2) <= slack && is(at(0, 50), 255, 0, 0) && is(at(W - 1, 50), 0, 0, 255),
                  "S6.1 S6.4 a 2-pixel image 30,000 to 1,000,000 points wide, nearest: its edge where it belongs",
                  "%g points: first blue pixel at x = %d, want %d (+-%.1f)", widths[i], edge, W / 2, slack);
        lk_layer_set_magnification_filter(l, LK_CONTENTS_FILTER_LINEAR);
        draw();
        /* linear: the edge is half-way between the texels' centres, so the
           pixels on either side of it are even mixes of the two */
        const uint8_t *left = at(W / 2 - 1, 50), *right = at(W / 2, 50);
        LKT_CHECK(abs(left[0] - 128) <= 8 && abs(left[2] - 128) <= 8 && abs(right[0] - 128) <= 8 &&
                      abs(right[2] - 128) <= 8,
                  "S6.1 S6.4 the same, linear: an even mix on either side of the edge",
                  "%g points: (49) %d,%d,%d (50) %d,%d,%d", widths[i], left[0], left[1], left[2], right[0], right[1],
                  right[2]);
    }
    lk_layer_remove_from_superlayer(l);
    lk_release(l);
    lk_release(img);
}

int main(void)
{
    display = lkt_open_display(W, H, "open a display");
    if (!display) return lkt_finish();
    root = lkt_layer_new(NULL, 0, 0, W, H, lk_color_make(0, 0, 0, 1));
    lk_display_set_root_layer(display, root);
    check_magnification();
    check_minification();
    check_bias_and_errors();
    check_emitter_cell();
    check_contents_rect_outside();
    check_huge_magnification();
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
