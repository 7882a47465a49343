/*
 * S7.8 the tiled layer: a 100,000 x 100,000 point layer inside a scroll
 * layer, panned. The delegate counts its draw calls and records each
 * canvas's rect: only the tiles meeting what the display shows are drawn,
 * each once until evicted (least recently used, under tileCacheLimit) or
 * invalidated (setNeedsDisplay, setNeedsDisplayInRect); the level of
 * detail follows the layer's scale; the delegate draws in layer
 * coordinates; in a replicator each missing tile is drawn once a frame,
 * at most 1024 a frame for the layer. Pixels of the panned view are
 * checked against the test's own description of the content (every
 * channel within 2; pixels within 1.5 px of a tile or marker edge are not
 * checked).
 */
#include "lktest.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 300
#define H 200
#define HUGE_SIDE 100000.0
#define MAX_DRAWS 256

typedef struct recorder {
    int draws;
    lk_rect rects[MAX_DRAWS];
    double scales[MAX_DRAWS];
    uint32_t max_width, max_height;
} recorder;

/* The content, in layer coordinates: each 256-point cell a colour of its
   own, and white 20 x 20 markers centred on multiples of 300. */
static void cell_color(double x, double y, int rgb[3])
{
    long cx = (long)floor(x / 256), cy = (long)floor(y / 256);
    rgb[0] = (int)((cx * 37 + 20) % 200) + 20;
    rgb[1] = (int)((cy * 59 + 40) % 200) + 20;
    rgb[2] = 128;
}

static void draw_content(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    recorder *r = (recorder *)user_data;
    lk_rect b = lk_canvas_get_bounds(canvas);
    int rgb[3];
    double mx, my;
    lk_path *markers = lk_path_create();
    (void)layer;
    if (r->draws < MAX_DRAWS) {
        r->rects[r->draws] = b;
        r->scales[r->draws] = lk_canvas_get_scale(canvas);
    }
    r->draws++;
    if (lk_canvas_get_width(canvas) > r->max_width) r->max_width = lk_canvas_get_width(canvas);
    if (lk_canvas_get_height(canvas) > r->max_height) r->max_height = lk_canvas_get_height(canvas);
    cell_color(b.origin.x + 1, b.origin.y + 1, rgb);
    lk_canvas_clear(canvas, lk_color_make(rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0, 1));
    /* markers near the tile, drawn in layer coordinates: the canvas clips */
    for (mx = floor(b.origin.x / 300) * 300; mx <= b.origin.x + b.size.width + 300; mx += 300)
        for (my = floor(b.origin.y / 300) * 300; my <= b.origin.y + b.size.height + 300; my += 300)
            lk_path_add_rect(markers, lk_rect_make(mx - 10, my - 10, 20, 20));
    lk_canvas_fill_path(canvas, markers, lk_color_make(1, 1, 1, 1), LK_FILL_RULE_NON_ZERO);
    lk_release(markers);
}

static void set_draw_delegate(lk_layer *l, recorder *r)
{
    lk_layer_delegate del;
    memset(&del, 0, sizeof del);
    del.struct_size = sizeof del;
    del.draw = draw_content;
    lk_layer_set_delegate(l, &del, r, NULL);
}

/* A scene's start: the recorder emptied, a transaction without actions
   open, and a W x H root in it. */
static lk_layer *begin_scene(recorder *r)
{
    lk_layer *root;
    memset(r, 0, sizeof *r);
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    root = lk_layer_create();
    lkt_layer_place(root, 0, 0, W, H);
    return root;
}

/* Tiled layer t, drawn by the recorder, into parent (which keeps it). */
static void attach_tiled(lk_layer *parent, lk_layer *t, recorder *r)
{
    set_draw_delegate(t, r);
    lk_layer_add_sublayer(parent, t);
    lk_release(t);
}

/* The scene committed and shown on d. */
static void show_scene(lk_display *d, lk_layer *root)
{
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);
}

/* What the content shows at layer point (x, y); -1 near an edge. */
static int expected_at(double x, double y, int rgb[3])
{
    double mx = floor(x / 300 + 0.5) * 300, my = floor(y / 300 + 0.5) * 300;
    double dx = fabs(x - mx), dy = fabs(y - my);
    double tx = fmod(x, 256), ty = fmod(y, 256);
    if (tx < 1.5 || tx > 254.5 || ty < 1.5 || ty > 254.5) return -1;
    if ((dx > 8.5 && dx < 11.5 && dy < 11.5) || (dy > 8.5 && dy < 11.5 && dx < 11.5)) return -1;
    if (dx < 10 && dy < 10) {
        rgb[0] = rgb[1] = rgb[2] = 255;
        return 1;
    }
    cell_color(x, y, rgb);
    return 1;
}

/* The whole frame against the content scrolled to (ox, oy). */
static void check_view(lk_display *d, double ox, double oy, const char *name)
{
    uint8_t *px = (uint8_t *)malloc((size_t)W * H * 4);
    long checked = 0, wrong = 0, markers = 0;
    char first[200] = "";
    int x, y;
    if (lk_display_read_pixels(d, px, (size_t)W * 4) != LK_OK) {
        LKT_CHECK(0, name, "read_pixels: %s", lk_last_error());
        free(px);
        return;
    }
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            int rgb[3], c, bad = 0;
            const uint8_t *p = px + ((size_t)y * W + x) * 4;
            if (expected_at(x + 0.5 + ox, y + 0.5 + oy, rgb) < 0) continue;
            checked++;
            if (rgb[2] == 255) markers++;
            for (c = 0; c < 3; c++)
                if (abs(p[c] - rgb[c]) > 2) bad = 1;
            if (bad && !wrong++)
                snprintf(first, sizeof first, "first at (%d,%d): %d,%d,%d, expected %d,%d,%d", x, y, p[0], p[1],
                         p[2], rgb[0], rgb[1], rgb[2]);
        }
    }
    LKT_CHECK(wrong == 0 && checked > W * H / 2 && markers > 0, name,
              "%ld of %ld pixels wrong (%ld marker pixels); %s", wrong, checked, markers, first);
    free(px);
}

static int has_rect(const recorder *r, int from, lk_rect want)
{
    int i;
    for (i = from; i < r->draws && i < MAX_DRAWS; i++)
        if (lkt_rect_near(r->rects[i], want, 1e-9)) return 1;
    return 0;
}

static lk_rect tile(int column, int row) { return lk_rect_make(column * 256.0, row * 256.0, 256, 256); }

static void scroll_now(lk_layer *s, double x, double y)
{
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_scroll_layer_scroll_to_point(s, lk_point_make(x, y));
    lk_transaction_commit();
}

/* S7.8: panning a 100,000 x 100,000 point tiled layer. */
static void check_panning(void)
{
    const char *name = "S7.8 panning a huge tiled layer";
    recorder r;
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *s, *t;
    int before;
    double now;
    if (!d) return;
    root = begin_scene(&r);
    s = lk_scroll_layer_create();
    lkt_layer_place(s, 0, 0, W, H);
    lk_layer_set_masks_to_bounds(s, true);
    lk_layer_add_sublayer(root, s);
    lk_release(s);
    t = lk_tiled_layer_create();
    lkt_layer_place(t, 0, 0, HUGE_SIDE, HUGE_SIDE);
    attach_tiled(s, t, &r);
    lk_layer_set_needs_display(t);
    show_scene(d, root);

    now = lk_media_time();
    lk_display_render_frame_at(d, now);
    LKT_CHECK(r.draws == 2 && has_rect(&r, 0, tile(0, 0)) && has_rect(&r, 0, tile(1, 0)),
              "S7.8 the first frame draws only the two tiles the 300 x 200 view meets", "%d draws, first %s", r.draws,
              lkt_fmt_rect(r.rects[0]));
    LKT_CHECK(r.max_width <= 256 && r.max_height <= 256,
              "S7.8 no canvas is larger than a tile: the huge layer has no backing store", "largest %ux%u",
              (unsigned)r.max_width, (unsigned)r.max_height);
    check_view(d, 0, 0, "S7.8 pixels of the unscrolled view: each tile's colour and the markers in place");
    lk_display_render_frame_at(d, now + 0.1);
    LKT_CHECK(r.draws == 2, "S7.8 a second frame of the same view draws no tile again", "%d draws", r.draws);

    before = r.draws;
    scroll_now(s, 1700, 800);
    lk_display_render_frame_at(d, now + 0.2);
    LKT_CHECK(r.draws - before == 2 && has_rect(&r, before, tile(6, 3)) && has_rect(&r, before, tile(7, 3)),
              "S7.8 panned to (1700, 800): only tiles (6,3) and (7,3) are drawn", "%d new draws",
              r.draws - before);
    check_view(d, 1700, 800,
               "S7.8 pixels of the view panned to (1700, 800): a marker across a tile edge drawn by both tiles");

    before = r.draws;
    scroll_now(s, 0, 0);
    lk_display_render_frame_at(d, now + 0.3);
    LKT_CHECK(r.draws == before, "S7.8 panning back draws nothing: the tiles are cached", "%d new draws",
              r.draws - before);
    check_view(d, 0, 0, "S7.8 pixels after panning back, from the cache");

    /* eviction: room for three tiles; two new ones push out the least
       recently used, (6,3) and (7,3) */
    LKT_CHECK_STATUS("S7.8 tileCacheLimit set to three tiles' bytes",
                     lk_tiled_layer_set_tile_cache_limit(t, 3 * 256 * 256 * 4), LK_OK);
    before = r.draws;
    scroll_now(s, 5000, 4900);
    lk_display_render_frame_at(d, now + 0.4);
    LKT_CHECK(r.draws - before == 2, "S7.8 panned to (5000, 4900): two tiles drawn", "%d new draws", r.draws - before);
    before = r.draws;
    scroll_now(s, 1700, 800);
    lk_display_render_frame_at(d, now + 0.5);
    LKT_CHECK(r.draws - before == 2 && has_rect(&r, before, tile(6, 3)) && has_rect(&r, before, tile(7, 3)),
              "S7.8 under a three-tile limit the least recently used tiles were evicted and are drawn again",
              "%d new draws", r.draws - before);
    check_view(d, 1700, 800, "S7.8 pixels of the redrawn tiles");

    /* invalidation: a rect inside tile (7,3) redraws only that tile */
    before = r.draws;
    lk_layer_set_needs_display_in_rect(t, lk_rect_make(1800, 850, 10, 10));
    lk_display_render_frame_at(d, now + 0.6);
    LKT_CHECK(r.draws - before == 1 && has_rect(&r, before, tile(7, 3)),
              "S7.8 setNeedsDisplayInRect redraws only the tile it meets", "%d new draws, first %s", r.draws - before,
              lkt_fmt_rect(r.rects[before < MAX_DRAWS ? before : 0]));
    before = r.draws;
    lk_layer_set_needs_display(t);
    lk_display_render_frame_at(d, now + 0.7);
    LKT_CHECK(r.draws - before == 2, "S7.8 setNeedsDisplay redraws every visible tile (and only those)",
              "%d new draws", r.draws - before);
    lk_release(root);
    lk_display_close(d);
}

/* S7.8: what is visible is the bounds less what the output and the
   ancestors' masksToBounds clip away: a huge tiled layer at the display's
   top left, first under a 100 x 100 clipping superlayer (one tile), then
   with only the 300 x 200 output clipping (two tiles), then moved so that
   the output shows the corner of four tiles at (2048, 2048). */
static void check_visible_region(void)
{
    const char *name = "S7.8 visible region";
    recorder r;
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *clip, *t;
    int before;
    double now;
    if (!d) return;
    root = begin_scene(&r);
    clip = lk_layer_create();
    lkt_layer_place(clip, 0, 0, 100, 100);
    lk_layer_set_masks_to_bounds(clip, true);
    lk_layer_add_sublayer(root, clip);
    lk_release(clip);
    t = lk_tiled_layer_create();
    lkt_layer_place(t, 0, 0, HUGE_SIDE, HUGE_SIDE);
    attach_tiled(clip, t, &r);
    show_scene(d, root);
    now = lk_media_time();
    lk_display_render_frame_at(d, now);
    LKT_CHECK(r.draws == 1 && has_rect(&r, 0, tile(0, 0)),
              "S7.8 under a 100 x 100 masksToBounds superlayer only the one tile it shows is drawn", "%d draws",
              r.draws);

    before = r.draws;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_masks_to_bounds(clip, false);
    lk_transaction_commit();
    lk_display_render_frame_at(d, now + 0.1);
    LKT_CHECK(r.draws - before == 1 && has_rect(&r, before, tile(1, 0)),
              "S7.8 with only the 300 x 200 output clipping, the one more tile it shows is drawn", "%d new draws",
              r.draws - before);

    before = r.draws;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_position(t, lk_point_make(HUGE_SIDE / 2 - 2048 + 150, HUGE_SIDE / 2 - 2048 + 100));
    lk_transaction_commit();
    lk_display_render_frame_at(d, now + 0.2);
    LKT_CHECK(r.draws - before == 4 && has_rect(&r, before, tile(7, 7)) && has_rect(&r, before, tile(8, 7)) &&
                  has_rect(&r, before, tile(7, 8)) && has_rect(&r, before, tile(8, 8)),
              "S7.8 moved to show the point (2048, 2048) at the output's centre: the four tiles around it",
              "%d new draws", r.draws - before);
    check_view(d, 2048 - 150, 2048 - 100, "S7.8 pixels around the corner of four tiles");
    lk_release(root);
    lk_display_close(d);
}

/* S7.8: a tile is drawn again when it would be shown at another
   resolution: contentsScale 1 -> 2 with tileSize 256 -> 512 keeps every
   tile's rect, yet each visible tile is redrawn at 2 pixels per point. */
static void check_resolution_change(void)
{
    const char *name = "S7.8 tiles are redrawn at a new contentsScale even where their rects stay";
    recorder r;
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *t;
    int before;
    double now;
    if (!d) return;
    root = begin_scene(&r);
    t = lk_tiled_layer_create();
    lkt_layer_place(t, 0, 0, 600, 400);
    attach_tiled(root, t, &r);
    show_scene(d, root);
    now = lk_media_time();
    lk_display_render_frame_at(d, now);
    before = r.draws;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer_set_contents_scale(t, 2);
    lk_tiled_layer_set_tile_size(t, lk_size_make(512, 512));
    lk_transaction_commit();
    lk_display_render_frame_at(d, now + 0.1);
    LKT_CHECK(before == 2 && r.draws - before == 2 && has_rect(&r, before, tile(0, 0)) &&
                  has_rect(&r, before, tile(1, 0)) && r.scales[before] == 2 && r.max_width == 512,
              name, "%d then %d draws, scale %g, widest canvas %u", before, r.draws - before,
              r.scales[before < MAX_DRAWS ? before : 0], (unsigned)r.max_width);
    check_view(d, 0, 0, "S7.8 pixels after the change of resolution");
    lk_release(root);
    lk_display_close(d);
}

/* S7.8: a snapshot (lk_layer_render_to_image) of a tiled layer draws the
   tiles its image covers: a 600 x 400 layer is six tiles, and the image
   shows each tile's colour. */
static void check_snapshot(void)
{
    recorder r;
    lk_layer *t = lk_tiled_layer_create();
    lk_image *image;
    memset(&r, 0, sizeof r);
    lk_layer_set_bounds(t, lk_rect_make(0, 0, 600, 400));
    set_draw_delegate(t, &r);
    image = lk_layer_render_to_image(t, 1);
    LKT_CHECK(image != NULL && r.draws == 6 && has_rect(&r, 0, lk_rect_make(512, 256, 88, 144)),
              "S7.8 a snapshot of a 600 x 400 tiled layer draws its six tiles, the edge ones cut to the bounds",
              "%d draws, image %p", r.draws, (void *)image);
    if (image) {
        uint8_t *px = (uint8_t *)malloc(600 * 400 * 4);
        int rgb[3];
        const uint8_t *p = px + ((size_t)300 * 600 + 550) * 4;
        cell_color(550, 300, rgb);
        LKT_CHECK(lk_image_read_pixels(image, px, 600 * 4) == LK_OK && abs(p[0] - rgb[0]) <= 2 &&
                      abs(p[1] - rgb[1]) <= 2 && abs(p[2] - rgb[2]) <= 2,
                  "S7.8 the snapshot shows the tile's colour at (550, 300)", "got %d,%d,%d, expected %d,%d,%d", p[0],
                  p[1], p[2], rgb[0], rgb[1], rgb[2]);
        free(px);
        lk_release(image);
    }
    lk_release(t);
}

/* S8.1: a delegate that snapshots its own tiled layer while drawing a tile
   (a thumbnail) asked for that tile again, recursing until the stack
   overflowed; the inner snapshot now has the tiles drawn before. */
static int thumbnail_depth, thumbnail_deepest;
static void draw_with_thumbnail(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    (void)user_data;
    thumbnail_depth++;
    if (thumbnail_depth > thumbnail_deepest) thumbnail_deepest = thumbnail_depth;
    lk_canvas_clear(canvas, lk_color_make(0, 1, 0, 1));
    if (thumbnail_depth < 50) lk_release(lk_layer_render_to_image(layer, 1));
    thumbnail_depth--;
}

static void check_snapshot_in_draw(void)
{
    lk_layer *t = lk_tiled_layer_create();
    lk_layer_set_bounds(t, lk_rect_make(0, 0, 300, 200));
    lk_layer_delegate d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.draw = draw_with_thumbnail;
    lk_layer_set_delegate(t, &d, NULL, NULL);
    thumbnail_depth = thumbnail_deepest = 0;
    lk_image *image = lk_layer_render_to_image(t, 1);
    LKT_CHECK(image != NULL && thumbnail_deepest == 1,
              "S8.1 a tiled layer's delegate may snapshot the layer while it draws a tile", "image %p, draws nested %d deep",
              (void *)image, thumbnail_deepest);
    lk_release(image);
    lk_release(t);
}

/* S7.8: the level of detail follows the scale on the output: levels 2x,
   1x, 1/2x (levelsOfDetail 3, bias 1); a frame uses the coarsest level at
   least as fine as needed, clamped to those. */
static void check_levels(void)
{
    static const struct { double scale, level, tile_points; const char *name; } cases[] = {
        {1.0, 1.0, 256, "S7.8 at scale 1 tiles are drawn at level 1x, 256 points each"},
        {0.5, 0.5, 512, "S7.8 at scale 1/2 tiles are drawn at level 1/2x, 512 points each"},
        {0.3, 0.5, 512, "S7.8 at scale 0.3 the coarsest level (1/2x) is used"},
        {1.5, 2.0, 128, "S7.8 at scale 1.5 the magnified level 2x (bias 1) is used, 128 points a tile"},
        {3.0, 2.0, 128, "S7.8 at scale 3 the finest level, 2x, is used"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        recorder r;
        lk_display *d = lkt_open_display(W, H, cases[i].name);
        lk_layer *root, *t;
        int k, ok = 1;
        if (!d) return;
        root = begin_scene(&r);
        t = lk_tiled_layer_create();
        lk_layer_set_bounds(t, lk_rect_make(0, 0, 4000, 4000));
        lk_layer_set_anchor_point(t, lk_point_make(0, 0));
        lk_layer_set_position(t, lk_point_make(0, 0));
        lk_layer_set_transform(t, lkt_t_scale(cases[i].scale, cases[i].scale, 1));
        lk_tiled_layer_set_levels_of_detail(t, 3);
        lk_tiled_layer_set_levels_of_detail_bias(t, 1);
        attach_tiled(root, t, &r);
        show_scene(d, root);
        lk_display_render_frame_at(d, lk_media_time());
        for (k = 0; k < r.draws && k < MAX_DRAWS; k++) {
            if (!lkt_near(r.scales[k], cases[i].level, 1e-12)) ok = 0;
            if (!lkt_near(fmod(r.rects[k].origin.x, cases[i].tile_points), 0, 1e-9)) ok = 0;
            if (r.rects[k].size.width > cases[i].tile_points + 1e-9) ok = 0;
        }
        {
            /* tiles needed: the view (300 x 200 pixels) is 300/s x 200/s points */
            double pts_w = W / cases[i].scale, pts_h = H / cases[i].scale;
            int want = (int)(ceil(pts_w / cases[i].tile_points) * ceil(pts_h / cases[i].tile_points));
            LKT_CHECK(ok && r.draws == want, cases[i].name, "%d draws (want %d), first scale %g, rect %s", r.draws,
                      want, r.scales[0], lkt_fmt_rect(r.rects[0]));
        }
        lk_release(root);
        lk_display_close(d);
    }
}

/* S7.8, S1.6, S8.1: properties, defaults, key paths and bad values; a
   plain layer this big is not drawn at all (no absurd backing store). */
static void check_properties(void)
{
    lk_layer *t = lk_tiled_layer_create(), *plain;
    recorder r;
    lk_value v;
    LKT_CHECK_SIZE("S7.8 tileSize defaults to 256 x 256", lk_tiled_layer_get_tile_size(t), lk_size_make(256, 256), 0);
    LKT_CHECK(lk_tiled_layer_get_levels_of_detail(t) == 1 && lk_tiled_layer_get_levels_of_detail_bias(t) == 0,
              "S7.8 levelsOfDetail defaults to 1, levelsOfDetailBias to 0", "%zu, %zu",
              lk_tiled_layer_get_levels_of_detail(t), lk_tiled_layer_get_levels_of_detail_bias(t));
    LKT_CHECK(lk_tiled_layer_get_tile_cache_limit(t) == 64u * 1024 * 1024, "S7.8 tileCacheLimit defaults to 64 MiB",
              "%zu", lk_tiled_layer_get_tile_cache_limit(t));
    LKT_CHECK_STATUS("S7.8 S1.6 tileSize set by key path",
                     lk_layer_set_value(t, "tileSize", lk_value_size(lk_size_make(128, 64))), LK_OK);
    LKT_CHECK_SIZE("S7.8 S1.6 tileSize reads back typed", lk_tiled_layer_get_tile_size(t), lk_size_make(128, 64), 0);
    LKT_CHECK(lk_layer_set_value(t, "levelsOfDetail", lk_value_number(4)) == LK_OK &&
                  lk_layer_get_value(t, "levelsOfDetail", &v) == LK_OK && v.as.number == 4,
              "S7.8 S1.6 levelsOfDetail by key path", "got %g", v.as.number);
    LKT_CHECK(lk_layer_set_value(t, "levelsOfDetailBias", lk_value_number(2)) == LK_OK &&
                  lk_tiled_layer_get_levels_of_detail_bias(t) == 2,
              "S7.8 S1.6 levelsOfDetailBias by key path", "got %zu", lk_tiled_layer_get_levels_of_detail_bias(t));
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a tileSize of zero is refused", lk_tiled_layer_set_tile_size(t, lk_size_make(0, 256)),
                    LK_ERROR_INVALID_ARGUMENT, "tileSize");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a fractional levelsOfDetail is refused",
                    lk_layer_set_value(t, "levelsOfDetail", lk_value_number(1.5)), LK_ERROR_INVALID_ARGUMENT,
                    "levelsOfDetail");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 levelsOfDetail 0 is refused", lk_tiled_layer_set_levels_of_detail(t, 0),
                    LK_ERROR_INVALID_ARGUMENT, "levelsOfDetail");
    LKT_CHECK_SIZE("S8.1 after the refusals the tileSize is unchanged", lk_tiled_layer_get_tile_size(t),
                   lk_size_make(128, 64), 0);
    /* the key path takes what the typed setter takes, up to 2^52 bytes (1e30
       was stored, and the typed getter then trapped converting it) */
    lkt_error_mark();
    LKT_CHECK_ERROR("S1.6 S8.1 a tileCacheLimit beyond 2^52 bytes by key path is refused, naming it",
                    lk_layer_set_value(t, "tileCacheLimit", lk_value_number(1e30)), LK_ERROR_INVALID_ARGUMENT,
                    "tileCacheLimit");
    LKT_CHECK(lk_tiled_layer_get_tile_cache_limit(t) == 64u * 1024 * 1024,
              "S8.1 after the refusal tileCacheLimit is unchanged and reads back typed", "%zu",
              lk_tiled_layer_get_tile_cache_limit(t));
    LKT_CHECK(lk_layer_set_value(t, "tileCacheLimit", lk_value_number(4503599627370496.0)) == LK_OK &&
                  lk_tiled_layer_get_tile_cache_limit(t) == (size_t)1 << 52,
              "S7.8 S1.6 a tileCacheLimit of 2^52 bytes by key path reads back typed", "%zu",
              lk_tiled_layer_get_tile_cache_limit(t));
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a tileCacheLimit beyond 2^52 bytes typed is refused, naming it",
                    lk_tiled_layer_set_tile_cache_limit(t, ((size_t)1 << 52) + 1), LK_ERROR_INVALID_ARGUMENT,
                    "bytes");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 a tiled layer's call with a NULL layer is refused, naming it",
                    lk_tiled_layer_set_tile_size(NULL, lk_size_make(64, 64)), LK_ERROR_INVALID_ARGUMENT, "layer");
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 setNeedsDisplayInRect with a negative size is refused",
                    lk_layer_set_needs_display_in_rect(t, lk_rect_make(0, 0, -1, 5)), LK_ERROR_INVALID_ARGUMENT, "r");

    /* S8.1: a plain layer of 100,000 x 100,000 points is never given a
       canvas (its contents would be 40 GB) */
    memset(&r, 0, sizeof r);
    plain = lk_layer_create();
    lk_layer_set_bounds(plain, lk_rect_make(0, 0, HUGE_SIDE, HUGE_SIDE));
    set_draw_delegate(plain, &r);
    lk_layer_set_needs_display(plain);
    LKT_CHECK_STATUS("S8.1 displaying a huge plain layer does not fail", lk_layer_display_if_needed(plain), LK_OK);
    LKT_CHECK(r.draws == 0, "S8.1 S7.8 a huge plain layer gets no canvas (only a tiled layer draws such content)",
              "%d draws", r.draws);
    lk_layer_set_needs_display_in_rect(plain, lk_rect_make(0, 0, 10, 10));
    LKT_CHECK(lk_layer_get_needs_display(plain), "S7.8 setNeedsDisplayInRect marks a plain layer for display",
              "not marked");
    lk_release(plain);
    lk_release(t);
}

/* S7.8 with extreme but valid settings: an unlimited tile cache (SIZE_MAX
   bytes) and bounds whose origin is near 1e300. A frame draws what it can
   and returns (the tile indices and the cache limit once trapped when
   converted to integers). */
static void check_extremes(void)
{
    const char *name = "S7.8 extreme settings";
    recorder r;
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *t, *far;
    lk_status s1, s2;
    if (!d) return;
    root = begin_scene(&r);
    t = lk_tiled_layer_create();
    lkt_layer_place(t, 0, 0, 1000, 1000);
    lk_tiled_layer_set_tile_cache_limit(t, SIZE_MAX);
    attach_tiled(root, t, &r);
    far = lk_tiled_layer_create();
    lk_layer_set_bounds(far, lk_rect_make(1e300, 1e300, 1e300, 1e300));
    lk_layer_set_position(far, lk_point_make(W / 2.0, H / 2.0));
    attach_tiled(root, far, &r);
    show_scene(d, root);
    s1 = lk_display_render_frame_at(d, lk_media_time());
    s2 = lk_display_render_frame_at(d, lk_media_time() + 0.1);
    LKT_CHECK(s1 == LK_OK && s2 == LK_OK && r.draws >= 2 && has_rect(&r, 0, tile(0, 0)),
              "S7.8 an unlimited tile cache and bounds near 1e300: frames are drawn, the near layer's tiles too",
              "%s %s, %d draws", lkt_status_name(s1), lkt_status_name(s2), r.draws);
    lk_release(root);
    lk_display_close(d);
}

/* S7.8, S8.1: a contentsScale near the largest doubles makes tiles far
   smaller than a point: a frame draws at most its share of tiles and
   returns. (With the bounds away from the origin, every column index
   rounded to the same number, and the grid's 2^52 rows were walked with
   no cell in them: the frame never ended; found by test_call_sequences.) */
static void check_tiny_tiles(void)
{
    const char *name = "S7.8 tiles far smaller than a point";
    recorder r;
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *t;
    lk_status s1;
    if (!d) return;
    root = begin_scene(&r);
    t = lk_tiled_layer_create();
    lk_layer_set_bounds(t, lk_rect_make(1000, 0, 100, 100));
    lk_layer_set_position(t, lk_point_make(W / 2.0, H / 2.0));
    lk_layer_set_contents_scale(t, 1e300);
    attach_tiled(root, t, &r);
    show_scene(d, root);
    s1 = lk_display_render_frame_at(d, lk_media_time());
    LKT_CHECK(s1 == LK_OK, "S7.8 tiles far smaller than a point: the frame is drawn", "%s, %d draws",
              lkt_status_name(s1), r.draws);
    lk_release(root);
    lk_display_close(d);
}

/* S7.8: a tiled layer in a replicator is drawn once per instance, but
   each tile it lacks is drawn once a frame: 1000 instances of a layer of
   three tiles, a tenth of a point apart, draw three tiles, not 3000. And
   at most 1024 tiles a frame are drawn for one layer, however many
   instances show it: ten instances each showing 150 other tiles of one
   3000 x 200 layer draw 1024 tiles in the first frame and the other 476
   in the next, each tile once. */
static void check_in_replicator(void)
{
    const char *name = "S7.8 a tiled layer in a replicator";
    recorder r;
    lk_display *d = lkt_open_display(W, H, name);
    lk_layer *root, *rep, *t;
    int first, second, third;
    double now;
    if (!d) return;
    root = begin_scene(&r);
    rep = lk_replicator_layer_create();
    lkt_layer_place(rep, 0, 0, W, H);
    lk_replicator_layer_set_instance_count(rep, 1000);
    lk_replicator_layer_set_instance_transform(rep, lkt_t_translation(0, 0.1, 0));
    lk_layer_add_sublayer(root, rep);
    lk_release(rep);
    t = lk_tiled_layer_create();
    lkt_layer_place(t, 0, 0, 192, 64);
    lk_tiled_layer_set_tile_size(t, lk_size_make(64, 64));
    attach_tiled(rep, t, &r);
    show_scene(d, root);
    now = lk_media_time();
    lk_display_render_frame_at(d, now);
    LKT_CHECK(r.draws == 3 && has_rect(&r, 0, lk_rect_make(0, 0, 64, 64)) &&
                  has_rect(&r, 0, lk_rect_make(64, 0, 64, 64)) && has_rect(&r, 0, lk_rect_make(128, 0, 64, 64)),
              "S7.8 in 1000 replicator instances each of a layer's three tiles is drawn once in the frame",
              "%d draws", r.draws);

    memset(&r, 0, sizeof r);
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_replicator_layer_set_instance_count(rep, 10);
    lk_replicator_layer_set_instance_transform(rep, lkt_t_translation(-W, 0, 0));
    lkt_layer_place(t, 0, 0, 10 * W, H);
    lk_tiled_layer_set_tile_size(t, lk_size_make(20, 20));
    lk_transaction_commit();
    lk_display_render_frame_at(d, now + 0.1);
    first = r.draws;
    lk_display_render_frame_at(d, now + 0.2);
    second = r.draws - first;
    lk_display_render_frame_at(d, now + 0.3);
    third = r.draws - first - second;
    LKT_CHECK(first == 1024 && second == 1500 - 1024 && third == 0,
              "S7.8 at most 1024 tiles a frame for one layer across its replicator instances, each tile drawn once",
              "%d, then %d, then %d draws (want 1024, 476, 0)", first, second, third);
    lk_release(root);
    lk_display_close(d);
}

/* S7.8, S7.5: a tiled layer drawn twice in a frame with other bounds, in
   a replicator whose instances are delayed while its bounds animate: each
   instance shows all its tiles. Keyed by grid cell alone, the two
   versions of a cell (cut to other bounds) replaced each other, and from
   the second frame on two of the three instances showed no tile at all. */
static void draw_yellow(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    (void)layer;
    (void)user_data;
    lk_canvas_clear(canvas, lk_color_make(1, 1, 0, 1));
}

static void check_delayed_instances(void)
{
    lk_display *d = lkt_open_display(W, H, "S7.8 a tiled layer in delayed replicator instances");
    if (!d) return;
    lk_transaction_begin();
    lk_transaction_set_disable_actions(true);
    lk_layer *root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(root, lk_color_make(0, 0, 0, 1));
    lk_layer *rep = lk_replicator_layer_create();
    lk_layer_set_frame(rep, lk_rect_make(0, 0, W, H));
    lk_replicator_layer_set_instance_count(rep, 3);
    lk_replicator_layer_set_instance_delay(rep, 0.1);
    lk_replicator_layer_set_instance_transform(rep, lkt_t_translation(40, 0, 0));
    lk_layer_add_sublayer(root, rep);
    lk_layer *t = lk_tiled_layer_create();
    lk_tiled_layer_set_tile_size(t, lk_size_make(16, 16));
    lk_layer_delegate delegate;
    memset(&delegate, 0, sizeof delegate);
    delegate.struct_size = sizeof delegate;
    delegate.draw = draw_yellow;
    lk_layer_set_delegate(t, &delegate, NULL, NULL);
    lk_layer_set_frame(t, lk_rect_make(2, 10, 30, 40));
    lk_layer_add_sublayer(rep, t);
    double begin = lk_media_time() + 5;
    lk_animation *a = lk_basic_animation_create("bounds");
    lk_animation_set_from_value(a, lk_value_rect(lk_rect_make(0, 0, 30, 40)));
    lk_animation_set_to_value(a, lk_value_rect(lk_rect_make(10, 0, 30, 60)));
    lk_animation_set_duration(a, 0.25);
    lk_animation_set_begin_time(a, begin);
    lk_layer_add_animation(t, a, "bounds");
    lk_release(a);
    lk_transaction_commit();
    lk_display_set_root_layer(d, root);
    int short_frames = 0, first_short = -1, counts[3] = { 0, 0, 0 };
    for (int f = 0; f <= 30; f++) {
        uint8_t *px = (uint8_t *)malloc((size_t)W * H * 4);
        if (!px || lk_display_render_frame_at(d, begin + f * 0.016) != LK_OK ||
            lk_display_read_pixels(d, px, W * 4) != LK_OK) {
            LKT_CHECK(0, "S7.8 delayed replicator instances: a frame", "%s", lk_last_error());
            free(px);
            break;
        }
        int n[3] = { 0, 0, 0 }, short_ = 0;
        for (int i = 0; i < 3; i++) {
            for (int y = 0; y < H; y++)
                for (int x = 40 * i; x < 40 * i + 40; x++) n[i] += px[(y * W + x) * 4] > 200;
            short_ |= n[i] < 29 * 39;   /* each instance: a yellow 30 x 40 rect or larger */
        }
        if (short_ && first_short < 0) {
            first_short = f;
            memcpy(counts, n, sizeof counts);
        }
        short_frames += short_;
        free(px);
    }
    LKT_CHECK(short_frames == 0, "S7.8 delayed replicator instances of a tiled layer whose bounds animate show all its tiles",
              "%d of 31 frames short, the first (%d): yellow pixels per instance %d, %d, %d (at least %d each)",
              short_frames, first_short, counts[0], counts[1], counts[2], 29 * 39);
    lk_display_set_root_layer(d, NULL);
    lk_release(t);
    lk_release(rep);
    lk_release(root);
    lk_display_close(d);
}

int main(void)
{
    check_properties();
    check_panning();
    check_visible_region();
    check_levels();
    check_snapshot();
    check_snapshot_in_draw();
    check_resolution_change();
    check_extremes();
    check_tiny_tiles();
    check_in_replicator();
    check_delayed_instances();
    return lkt_finish();
}
