/* The 2D scenes of the pixel tests (see lkt_scenes.h). */
#include "lkt_scenes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

lkt_affine2 lkt_affine2_identity(void)
{
    lkt_affine2 m;
    m.a = 1; m.b = 0; m.c = 0; m.d = 1; m.tx = 0; m.ty = 0;
    return m;
}

lkt_affine2 lkt_affine2_rotation(double angle)
{
    lkt_affine2 m;
    m.a = cos(angle); m.b = sin(angle); m.c = -sin(angle); m.d = cos(angle);
    m.tx = 0; m.ty = 0;
    return m;
}

lkt_affine2 lkt_affine2_scale(double sx, double sy)
{
    lkt_affine2 m = lkt_affine2_identity();
    m.a = sx;
    m.d = sy;
    return m;
}

int lkt_affine2_is_identity(lkt_affine2 m)
{
    return m.a == 1 && m.b == 0 && m.c == 0 && m.d == 1 && m.tx == 0 && m.ty == 0;
}

void lkt_scene_rgba(double out[4], double r, double g, double b, double a)
{
    out[0] = r; out[1] = g; out[2] = b; out[3] = a;
}

int lkt_scene_add_layer(lkt_scene *s, int parent)
{
    lkt_scene_layer *l;
    if (s->layer_count >= LKT_SCENE_MAX_LAYERS) abort();
    l = &s->layers[s->layer_count];
    memset(l, 0, sizeof *l);
    l->parent = parent;
    l->anchor[0] = 0.5;
    l->anchor[1] = 0.5;
    l->transform = lkt_affine2_identity();
    l->sublayer_transform = lkt_affine2_identity();
    l->opacity = 1;
    lkt_scene_rgba(l->border_color, 0, 0, 0, 1); /* S1.1: opaque black */
    l->contents = -1;
    l->gravity = LKT_GRAVITY_RESIZE;
    l->contents_rect[2] = 1;
    l->contents_rect[3] = 1;
    l->contents_scale = 1;
    l->allows_group_opacity = 1;
    lkt_scene_rgba(l->shadow_color, 0, 0, 0, 1);
    l->shadow_offset[1] = -3;
    l->shadow_radius = 3;
    l->mask = -1;
    l->contents_center[2] = 1;
    l->contents_center[3] = 1;
    return s->layer_count++;
}

void lkt_scene_frame(lkt_scene_layer *l, double x, double y, double w, double h)
{
    l->bounds[0] = 0;
    l->bounds[1] = 0;
    l->bounds[2] = w;
    l->bounds[3] = h;
    l->position[0] = x + l->anchor[0] * w;
    l->position[1] = y + l->anchor[1] * h;
}

/* ---- images ---------------------------------------------------------------- */

static void put(uint8_t *p, int r, int g, int b, int a)
{
    p[0] = (uint8_t)r; p[1] = (uint8_t)g; p[2] = (uint8_t)b; p[3] = (uint8_t)a;
}

static int add_image(lkt_scene *s, uint32_t w, uint32_t h)
{
    lkt_scene_image *im;
    if (s->image_count >= LKT_SCENE_MAX_IMAGES) abort();
    im = &s->images[s->image_count];
    im->width = w;
    im->height = h;
    im->rgba = (uint8_t *)calloc((size_t)w * h * 4, 1);
    if (!im->rgba) abort();
    return s->image_count++;
}

/* Four flat blocks: top left red, top right green, bottom left blue, bottom
   right yellow (half transparent if translucent_corner). */
static int image_quadrants(lkt_scene *s, uint32_t size, int translucent_corner)
{
    int index = add_image(s, size, size);
    lkt_scene_image *im = &s->images[index];
    uint32_t x, y, half = size / 2;
    for (y = 0; y < size; y++) {
        for (x = 0; x < size; x++) {
            uint8_t *p = im->rgba + ((size_t)y * size + x) * 4;
            if (y < half && x < half) put(p, 230, 40, 40, 255);
            else if (y < half) put(p, 40, 200, 60, 255);
            else if (x < half) put(p, 40, 80, 230, 255);
            else put(p, 240, 220, 40, translucent_corner ? 128 : 255);
        }
    }
    return index;
}

/* 32x16: left half magenta, right half cyan. */
static int image_halves(lkt_scene *s)
{
    int index = add_image(s, 32, 16);
    lkt_scene_image *im = &s->images[index];
    uint32_t x, y;
    for (y = 0; y < 16; y++)
        for (x = 0; x < 32; x++)
            if (x < 16) put(im->rgba + ((size_t)y * 32 + x) * 4, 200, 40, 200, 255);
            else put(im->rgba + ((size_t)y * 32 + x) * 4, 40, 200, 200, 255);
    return index;
}

/* 32x32 green, with an 8x8 mark in the middle of each quadrant: red (top
   left), white (top right), blue (bottom left), yellow (bottom right). The
   green around every mark means a filter that reads past the edge of a
   contentsRect sees green too. */
static int image_marks(lkt_scene *s)
{
    int index = add_image(s, 32, 32);
    lkt_scene_image *im = &s->images[index];
    uint32_t x, y;
    for (y = 0; y < 32; y++) {
        for (x = 0; x < 32; x++) {
            uint8_t *p = im->rgba + ((size_t)y * 32 + x) * 4;
            int in_x1 = x >= 4 && x < 12, in_x2 = x >= 20 && x < 28;
            int in_y1 = y >= 4 && y < 12, in_y2 = y >= 20 && y < 28;
            if (in_y1 && in_x1) put(p, 230, 40, 40, 255);
            else if (in_y1 && in_x2) put(p, 255, 255, 255, 255);
            else if (in_y2 && in_x1) put(p, 40, 80, 230, 255);
            else if (in_y2 && in_x2) put(p, 240, 220, 40, 255);
            else put(p, 40, 200, 60, 255);
        }
    }
    return index;
}

/* ---- scenes ---------------------------------------------------------------- */

static void set_tolerance(lkt_scene *s, int flat, int edge, int max_edge, int max_bad)
{
    s->flat_tolerance = flat;
    s->edge_tolerance = edge;
    s->max_edge_pixels = max_edge;
    s->max_bad_pixels = max_bad;
}

static int root_layer(lkt_scene *s, double r, double g, double b)
{
    int root = lkt_scene_add_layer(s, -1);
    lkt_scene_frame(&s->layers[root], 0, 0, s->width, s->height);
    lkt_scene_rgba(s->layers[root].background, r, g, b, 1);
    return root;
}

static int box(lkt_scene *s, int parent, double x, double y, double w, double h, double r,
               double g, double b, double a)
{
    int i = lkt_scene_add_layer(s, parent);
    lkt_scene_frame(&s->layers[i], x, y, w, h);
    lkt_scene_rgba(s->layers[i].background, r, g, b, a);
    return i;
}

/* S1.0: the root's frame (bounds, anchor point, position) is placed in
   display pixels over opaque black; the root's own bounds origin does not
   move it, but shifts its sublayers (S1.4). Axis-aligned, whole pixels:
   every channel within 3 (colour rounding), no exceptions. */
static void scene_root_frame(lkt_scene *s)
{
    int root, c;
    s->name = "s1_0_root_frame";
    s->title = "S1.0 root frame in display pixels over opaque black, bounds origin shifts sublayers";
    s->width = 160;
    s->height = 120;
    set_tolerance(s, 3, 3, 0, 0);
    root = lkt_scene_add_layer(s, -1);
    s->layers[root].bounds[0] = 30;
    s->layers[root].bounds[1] = 30;
    s->layers[root].bounds[2] = 100;
    s->layers[root].bounds[3] = 60;
    s->layers[root].position[0] = 70; /* frame (20, 20, 100, 60) */
    s->layers[root].position[1] = 50;
    lkt_scene_rgba(s->layers[root].background, 0.2, 0.4, 0.8, 1);
    /* in root coordinates (30..50, 30..50): the root's top left corner,
       display (20..40, 20..40) */
    c = lkt_scene_add_layer(s, root);
    s->layers[c].bounds[2] = 20;
    s->layers[c].bounds[3] = 20;
    s->layers[c].position[0] = 40;
    s->layers[c].position[1] = 40;
    lkt_scene_rgba(s->layers[c].background, 1, 0.85, 0.1, 1);
    /* root coordinates (100..130, 75..85): display (90..120, 65..75) */
    box(s, root, 100, 75, 30, 10, 0.9, 0.2, 0.2, 1);
}

/* S1.0: the root's own transform (30 degrees about its centre), opacity and
   border also apply in display pixels, over opaque black. Flat areas within
   3; slanted edges within 40, at most 800 such pixels (about 720 pixels of
   slanted edges); none beyond. */
static void scene_root_transform(lkt_scene *s)
{
    int root, c;
    s->name = "s1_0_root_transform";
    s->title = "S1.0 root transform, opacity and border in display pixels";
    s->width = 160;
    s->height = 140;
    set_tolerance(s, 3, 40, 800, 0);
    root = lkt_scene_add_layer(s, -1);
    s->layers[root].bounds[2] = 100;
    s->layers[root].bounds[3] = 60;
    s->layers[root].position[0] = 80;
    s->layers[root].position[1] = 70;
    s->layers[root].transform = lkt_affine2_rotation(PI / 6);
    s->layers[root].opacity = 0.8;
    s->layers[root].border_width = 3;
    lkt_scene_rgba(s->layers[root].border_color, 1, 1, 1, 1);
    lkt_scene_rgba(s->layers[root].background, 0.2, 0.5, 0.8, 1);
    c = box(s, root, 10, 10, 30, 20, 0.9, 0.2, 0.2, 1);
    (void)c;
}

/* S6.1, S6.2: background colours, later sublayers on top, layer opacity and
   colour alpha multiplied. Whole pixels: every channel within 3. */
static void scene_background_opacity(lkt_scene *s)
{
    int root, b, c;
    s->name = "s6_1_background_opacity";
    s->title = "S6.1 background colours overlap in order, opacity times colour alpha";
    s->width = 160;
    s->height = 120;
    set_tolerance(s, 3, 3, 0, 0);
    root = root_layer(s, 0.15, 0.15, 0.15);
    box(s, root, 10, 10, 80, 60, 0.9, 0.1, 0.1, 1);
    b = box(s, root, 50, 30, 80, 60, 0.1, 0.8, 0.2, 1);
    s->layers[b].opacity = 0.5;
    c = box(s, root, 30, 50, 100, 50, 0.1, 0.3, 0.9, 0.5);
    s->layers[c].opacity = 0.6; /* 0.3 in all */
}

/* S6.1: opacity multiplies down the tree and each layer is blended on its
   own (Core Animation without group opacity): the white grandchild shows the
   red child under it. Whole pixels: every channel within 3. */
static void scene_opacity_tree(lkt_scene *s)
{
    int root, p, c, g, g2;
    s->name = "s6_1_opacity_tree";
    s->title = "S6.1 opacity multiplies down the tree, each layer blended separately (allowsGroupOpacity off)";
    s->width = 160;
    s->height = 120;
    set_tolerance(s, 3, 3, 0, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);
    p = box(s, root, 20, 20, 80, 60, 0.2, 0.4, 1.0, 1);
    s->layers[p].opacity = 0.5;
    c = box(s, p, 40, 30, 80, 60, 1.0, 0.2, 0.2, 1); /* display (60..140, 50..110) */
    s->layers[c].opacity = 0.5;                        /* 0.25 in all */
    g = box(s, c, 10, 10, 20, 20, 1, 1, 1, 1);         /* 0.25 */
    (void)g;
    g2 = box(s, c, 50, 30, 20, 20, 1, 1, 1, 0.5);      /* 0.25 * 0.8 * 0.5 = 0.1 */
    s->layers[g2].opacity = 0.8;
    s->layers[p].allows_group_opacity = 0;
    s->layers[c].allows_group_opacity = 0;
}

/* S6.1, S6.2: cornerRadius rounds the background with anti-aliased edges,
   also when rotated. Flat areas within 3; pixels on an anti-aliased edge of
   the reference within 40 (rasterisers differ in coverage); at most 600 of
   them (the curved and slanted edges are about 560 pixels long); none
   beyond. A radius off by 1 px already moves part of an edge out of that
   band and fails. */
static void scene_corner_radius(lkt_scene *s)
{
    int root, l;
    s->name = "s6_1_corner_radius";
    s->title = "S6.1 cornerRadius rounds the background, anti-aliased (S6.2)";
    s->width = 250;
    s->height = 120;
    set_tolerance(s, 3, 40, 600, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);
    l = box(s, root, 10, 10, 80, 60, 1, 1, 1, 1);
    s->layers[l].corner_radius = 10;
    l = box(s, root, 100, 10, 90, 90, 0.9, 0.6, 0.1, 1);
    s->layers[l].corner_radius = 30;
    l = box(s, root, 10, 80, 60, 30, 0.1, 0.8, 0.9, 1);
    s->layers[l].corner_radius = 15; /* a pill: half the height */
    l = lkt_scene_add_layer(s, root);
    s->layers[l].bounds[2] = 50;
    s->layers[l].bounds[3] = 30;
    s->layers[l].position[0] = 220;
    s->layers[l].position[1] = 60;
    s->layers[l].transform = lkt_affine2_rotation(PI / 6);
    s->layers[l].corner_radius = 8;
    lkt_scene_rgba(s->layers[l].background, 0.6, 0.3, 0.9, 1);
    /* Capsules one pixel thick (the radius clamped to 0.5): each end pixel
       is a half disc and half a pixel, 0.89 covered (gles drew one end, or
       both of a vertical one, square: its end pixels' centres are level
       with the arcs' centres). */
    l = box(s, root, 80, 104, 40, 1, 1, 1, 1, 1);
    s->layers[l].corner_radius = 100;
    l = box(s, root, 130, 112, 50, 1, 1, 1, 1, 1);
    s->layers[l].corner_radius = 100;
    l = box(s, root, 200, 92, 1, 26, 1, 1, 1, 1);
    s->layers[l].corner_radius = 100;
}

/* S6.1: borders are drawn inside the bounds, on top of the layer's
   sublayers, following the rounded corners (inner radius = radius - width),
   with colour alpha. Flat areas within 3; anti-aliased edges within 40, at
   most 400 such pixels (the curved edges are about 320 pixels long); none
   beyond: a missing border, one a pixel too thin or one drawn outside the
   bounds fails on whole rows of pixels. */
static void scene_border(lkt_scene *s)
{
    int root, l;
    s->name = "s6_1_border";
    s->title = "S6.1 borders inside the bounds, over sublayers, with rounded corners";
    s->width = 200;
    s->height = 140;
    set_tolerance(s, 3, 40, 400, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);
    l = box(s, root, 10, 10, 80, 60, 0.2, 0.3, 0.8, 1);
    s->layers[l].border_width = 4;
    lkt_scene_rgba(s->layers[l].border_color, 1, 0.9, 0.1, 1);
    box(s, l, 40, 30, 60, 40, 0.2, 0.8, 0.3, 1); /* under the border, beyond the bounds */

    l = box(s, root, 110, 10, 80, 80, 0.5, 0.1, 0.5, 1);
    s->layers[l].border_width = 6;
    s->layers[l].corner_radius = 20;
    lkt_scene_rgba(s->layers[l].border_color, 1, 1, 1, 1);
    box(s, l, 50, 50, 40, 40, 0.9, 0.2, 0.2, 1); /* over the rounded corner */

    l = lkt_scene_add_layer(s, root); /* a ring: no background */
    lkt_scene_frame(&s->layers[l], 10, 90, 80, 40);
    s->layers[l].border_width = 3;
    s->layers[l].corner_radius = 10;
    lkt_scene_rgba(s->layers[l].border_color, 0.1, 0.9, 0.9, 1);

    l = box(s, root, 110, 100, 80, 30, 0.8, 0.8, 0.8, 1);
    s->layers[l].border_width = 2;
    lkt_scene_rgba(s->layers[l].border_color, 0, 0, 0, 0.5);
}

/* S1.3: sublayers draw in order, then by zPosition (a stable sort: equal
   zPosition keeps the order). Drawn: C (-1), B (0), D (0), A (1). Whole
   pixels: every channel within 3. */
static void scene_order(lkt_scene *s)
{
    int root, a, c;
    s->name = "s1_3_sublayer_order_zposition";
    s->title = "S1.3 sublayers draw in order, then by zPosition";
    s->width = 160;
    s->height = 130;
    set_tolerance(s, 3, 3, 0, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);
    a = box(s, root, 10, 10, 60, 60, 0.9, 0.2, 0.2, 1);
    s->layers[a].z_position = 1;
    box(s, root, 35, 25, 60, 60, 0.2, 0.8, 0.3, 1);
    c = box(s, root, 60, 40, 60, 60, 0.2, 0.4, 0.95, 1);
    s->layers[c].z_position = -1;
    box(s, root, 85, 55, 60, 60, 0.95, 0.85, 0.2, 1);
}

/* S6.1: hidden layers and their subtrees draw nothing; opacity 0 draws
   nothing. Whole pixels: every channel within 3. */
static void scene_hidden(lkt_scene *s)
{
    int root, p1, p2, h, o;
    s->name = "s6_1_hidden";
    s->title = "S6.1 hidden layers and their subtrees draw nothing";
    s->width = 160;
    s->height = 120;
    set_tolerance(s, 3, 3, 0, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);
    p1 = box(s, root, 10, 10, 60, 60, 0.9, 0.2, 0.2, 1);
    s->layers[p1].hidden = 1;
    box(s, p1, 10, 10, 40, 40, 0.2, 0.8, 0.3, 1);
    p2 = box(s, root, 90, 10, 60, 60, 0.2, 0.3, 0.9, 1);
    h = box(s, p2, 10, 10, 20, 20, 1, 1, 1, 1);
    s->layers[h].hidden = 1;
    box(s, p2, 30, 30, 20, 20, 0.95, 0.85, 0.2, 1);
    o = box(s, root, 10, 80, 40, 30, 0.9, 0.2, 0.2, 1);
    s->layers[o].opacity = 0;
    box(s, root, 60, 80, 40, 30, 0.5, 0.5, 0.5, 1);
}

/* S1.0, S6.2: 2D rotation and scale about the anchor point. Rotations are
   clockwise on screen. Flat areas within 3; slanted edges within 40, at
   most 400 such pixels (about 380 pixels of slanted edge); none beyond: a
   wrong anchor or rotation sign moves whole layers. */
static void scene_transforms(lkt_scene *s)
{
    int root, l;
    s->name = "s6_2_transforms";
    s->title = "S6.2 rotation and scale about the anchor point, anti-aliased";
    s->width = 200;
    s->height = 160;
    set_tolerance(s, 3, 40, 400, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);

    l = lkt_scene_add_layer(s, root); /* 30 degrees about its centre */
    s->layers[l].bounds[2] = 60;
    s->layers[l].bounds[3] = 40;
    s->layers[l].position[0] = 60;
    s->layers[l].position[1] = 45;
    s->layers[l].transform = lkt_affine2_rotation(PI / 6);
    lkt_scene_rgba(s->layers[l].background, 0.9, 0.2, 0.2, 1);

    l = lkt_scene_add_layer(s, root); /* scaled about its top left: (110..185, 20..80) */
    s->layers[l].bounds[2] = 50;
    s->layers[l].bounds[3] = 30;
    s->layers[l].anchor[0] = 0;
    s->layers[l].anchor[1] = 0;
    s->layers[l].position[0] = 110;
    s->layers[l].position[1] = 20;
    s->layers[l].transform = lkt_affine2_scale(1.5, 2);
    lkt_scene_rgba(s->layers[l].background, 0.2, 0.8, 0.3, 1);

    l = lkt_scene_add_layer(s, root); /* -45 degrees about its bottom left corner (30, 140) */
    s->layers[l].bounds[2] = 60;
    s->layers[l].bounds[3] = 30;
    s->layers[l].anchor[0] = 0;
    s->layers[l].anchor[1] = 1;
    s->layers[l].position[0] = 30;
    s->layers[l].position[1] = 140;
    s->layers[l].transform = lkt_affine2_rotation(-PI / 4);
    lkt_scene_rgba(s->layers[l].background, 0.2, 0.4, 0.95, 1);

    /* +90 degrees about the middle of its right edge: (160..200, 80..120) */
    l = lkt_scene_add_layer(s, root);
    s->layers[l].bounds[2] = 40;
    s->layers[l].bounds[3] = 40;
    s->layers[l].anchor[0] = 1;
    s->layers[l].anchor[1] = 0.5;
    s->layers[l].position[0] = 180;
    s->layers[l].position[1] = 120;
    s->layers[l].transform = lkt_affine2_rotation(PI / 2);
    lkt_scene_rgba(s->layers[l].background, 0.95, 0.85, 0.2, 1);
}

/* S6.1: masksToBounds clips sublayers to the bounds, rounded by
   cornerRadius; the border stays on top. Flat areas within 3; anti-aliased
   edges within 40, at most 500 such pixels (curved and slanted edges of
   about 480 pixels); none beyond. */
static void scene_masks(lkt_scene *s)
{
    int root, p, c;
    s->name = "s6_1_masks_to_bounds";
    s->title = "S6.1 masksToBounds clips sublayers to the (rounded) bounds";
    s->width = 200;
    s->height = 100;
    set_tolerance(s, 3, 40, 500, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);

    p = box(s, root, 10, 10, 80, 80, 0.2, 0.3, 0.8, 1);
    s->layers[p].masks_to_bounds = 1;
    box(s, p, 40, 40, 80, 80, 0.9, 0.2, 0.2, 1); /* only (50..90, 50..90) shows */
    c = lkt_scene_add_layer(s, p);               /* a diamond cut in half by the left edge */
    s->layers[c].bounds[2] = 30;
    s->layers[c].bounds[3] = 30;
    s->layers[c].position[0] = 0;
    s->layers[c].position[1] = 30;
    s->layers[c].transform = lkt_affine2_rotation(PI / 4);
    lkt_scene_rgba(s->layers[c].background, 0.2, 0.8, 0.3, 1);

    p = box(s, root, 110, 10, 80, 80, 0.2, 0.3, 0.8, 1);
    s->layers[p].masks_to_bounds = 1;
    s->layers[p].corner_radius = 24;
    s->layers[p].border_width = 2;
    lkt_scene_rgba(s->layers[p].border_color, 1, 1, 1, 1);
    box(s, p, 0, 0, 80, 40, 0.9, 0.2, 0.2, 1);
    box(s, p, 40, 40, 60, 60, 0.95, 0.85, 0.2, 1);
}

/* S1.4, S6.1: sublayerTransform applies to the sublayers around the
   superlayer's anchor point: a quarter turn about the centre, and a half
   scale about the top left corner (anchor point 0,0). Whole pixels: every
   channel within 3. */
static void scene_sublayer_transform(lkt_scene *s)
{
    int root, p, q;
    s->name = "s1_4_sublayer_transform";
    s->title = "S1.4 sublayerTransform applied around the superlayer's anchor point";
    s->width = 240;
    s->height = 140;
    set_tolerance(s, 3, 3, 0, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);

    p = box(s, root, 10, 10, 120, 120, 0.2, 0.2, 0.5, 1);
    s->layers[p].sublayer_transform = lkt_affine2_rotation(PI / 2);
    box(s, p, 0, 0, 40, 40, 0.9, 0.2, 0.2, 1);   /* to (80..120, 0..40): display (90..130, 10..50) */
    box(s, p, 10, 80, 30, 20, 0.2, 0.8, 0.3, 1); /* to (20..40, 10..40): display (30..50, 20..50) */

    q = lkt_scene_add_layer(s, root);
    s->layers[q].anchor[0] = 0;
    s->layers[q].anchor[1] = 0;
    lkt_scene_frame(&s->layers[q], 140, 20, 90, 90);
    lkt_scene_rgba(s->layers[q].background, 0.3, 0.3, 0.3, 1);
    s->layers[q].sublayer_transform = lkt_affine2_scale(0.5, 0.5);
    box(s, q, 40, 40, 40, 40, 0.95, 0.85, 0.2, 1); /* to (20..40, 20..40): display (160..180, 40..60) */
}

/* S1.4: with a bounds origin, the sublayerTransform pivot is the anchor
   point of the bounds in the layer's own coordinates (origin + anchorPoint
   x size), i.e. the bounds origin is applied to sublayers before the
   sublayerTransform. S: bounds (20, 10, 100, 100), frame (20, 20, 100, 100),
   pivot (70, 60); a layer at (20..60, 10..50) scales by 0.5 to (45..65,
   35..55): display (45..65, 45..65); one at the pivot to display (70..80,
   70..80). Whole pixels: every channel within 3. */
static void scene_bounds_origin_sublayer_transform(lkt_scene *s)
{
    int root, p;
    s->name = "s1_4_bounds_origin_sublayer_transform";
    s->title = "S1.4 bounds origin and sublayerTransform together";
    s->width = 140;
    s->height = 140;
    set_tolerance(s, 3, 3, 0, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);
    p = lkt_scene_add_layer(s, root);
    s->layers[p].bounds[0] = 20;
    s->layers[p].bounds[1] = 10;
    s->layers[p].bounds[2] = 100;
    s->layers[p].bounds[3] = 100;
    s->layers[p].position[0] = 70;
    s->layers[p].position[1] = 70;
    lkt_scene_rgba(s->layers[p].background, 0.3, 0.3, 0.3, 1);
    s->layers[p].sublayer_transform = lkt_affine2_scale(0.5, 0.5);
    box(s, p, 20, 10, 40, 40, 0.9, 0.2, 0.2, 1);
    box(s, p, 70, 60, 20, 20, 0.2, 0.8, 0.3, 1);
}

static int image_layer(lkt_scene *s, int parent, double x, double y, double w, double h,
                       int image, int gravity)
{
    int l = box(s, parent, x, y, w, h, 0.3, 0.3, 0.3, 1);
    s->layers[l].contents = image;
    s->layers[l].gravity = gravity;
    return l;
}

/* S6.1: contents by contentsGravity: resize (stretched), resizeAspect
   (fitted, centred), center (natural size, 1:1), resizeAspectFill clipped
   by masksToBounds. Images are filtered bilinearly (Core Animation's
   default), edges of the image clamped. The last layer shows the order
   background, contents, sublayers, border, with contents and sublayers
   clipped to the rounded bounds, at opacity 0.7. Flat areas within 3;
   pixels in the filtered transitions and on anti-aliased edges of the
   reference within 40, at most 300 of them (about 250 pixels of such
   edges); none beyond: a wrong gravity moves whole blocks of colour. */
static void scene_contents_gravity(lkt_scene *s)
{
    int root, q16, halves, l;
    s->name = "s6_1_contents_gravity";
    s->title = "S6.1 contents with contentsGravity resize, resizeAspect, center, resizeAspectFill; drawing order";
    s->width = 240;
    s->height = 120;
    set_tolerance(s, 3, 40, 300, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);
    q16 = image_quadrants(s, 16, 1);
    halves = image_halves(s);
    image_layer(s, root, 10, 10, 64, 48, q16, LKT_GRAVITY_RESIZE);
    image_layer(s, root, 84, 10, 64, 96, halves, LKT_GRAVITY_RESIZE_ASPECT); /* y 42..74 */
    image_layer(s, root, 158, 10, 72, 56, q16, LKT_GRAVITY_CENTER);           /* (186..202, 30..46) */
    l = image_layer(s, root, 158, 74, 40, 40, halves, LKT_GRAVITY_RESIZE_ASPECT_FILL);
    s->layers[l].masks_to_bounds = 1; /* 80x40 centred: x -20..60, the halves meet at 20 */
    l = image_layer(s, root, 10, 66, 64, 48, q16, LKT_GRAVITY_RESIZE);
    s->layers[l].masks_to_bounds = 1;
    s->layers[l].corner_radius = 12;
    s->layers[l].border_width = 2;
    lkt_scene_rgba(s->layers[l].border_color, 1, 1, 1, 1);
    s->layers[l].opacity = 0.7;
    box(s, l, 40, 30, 30, 30, 0.2, 0.8, 0.9, 1); /* over the contents, under the border */
}

/* S6.1: contentsRect picks a part of the image (unit coordinates, origin at
   the top left), contentsScale 2 halves the natural size, and the
   top/bottom/left/right gravities (top is the screen's top). Flat areas
   within 3; filtered transitions within 40, at most 300 pixels (about 250
   pixels of them); none beyond. */
static void scene_contents_rect_scale(lkt_scene *s)
{
    int root, marks, q32, q16, l;
    s->name = "s6_1_contents_rect_scale";
    s->title = "S6.1 contentsRect, contentsScale 2 and edge gravities";
    s->width = 250;
    s->height = 100;
    set_tolerance(s, 3, 40, 300, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);
    marks = image_marks(s);
    q32 = image_quadrants(s, 32, 0);
    q16 = image_quadrants(s, 16, 1);

    l = image_layer(s, root, 10, 10, 64, 64, marks, LKT_GRAVITY_RESIZE);
    s->layers[l].contents_rect[0] = 0.5; /* the top right quadrant: the white mark */
    s->layers[l].contents_rect[1] = 0;
    s->layers[l].contents_rect[2] = 0.5;
    s->layers[l].contents_rect[3] = 0.5;

    l = image_layer(s, root, 90, 10, 48, 48, q32, LKT_GRAVITY_CENTER);
    s->layers[l].contents_scale = 2; /* 16x16 points at (106..122, 26..42) */

    image_layer(s, root, 150, 10, 40, 40, q16, LKT_GRAVITY_TOP_LEFT);     /* (150..166, 10..26) */
    image_layer(s, root, 200, 10, 40, 40, q16, LKT_GRAVITY_BOTTOM_RIGHT); /* (224..240, 34..50) */
    image_layer(s, root, 150, 55, 40, 40, q16, LKT_GRAVITY_TOP);          /* (162..178, 55..71) */
    image_layer(s, root, 200, 55, 40, 40, q16, LKT_GRAVITY_LEFT);         /* (200..216, 67..83) */
}

typedef void (*scene_builder)(lkt_scene *s);

/* ---- decorations: shadows, masks, group opacity, nine-slice (S6.1) ------ */

/* S6.1 group opacity: a half-transparent layer with two overlapping opaque
   sublayers fades as one picture (allowsGroupOpacity, the default: the
   overlap shows only the top sublayer); beside it the same with
   allowsGroupOpacity off, where the lower sublayer shows through the upper.
   Whole pixels: within 3. */
static void scene_group_opacity(lkt_scene *s)
{
    int root, p, i;
    s->name = "s6_1_group_opacity";
    s->title = "S6.1 group opacity: overlapping sublayers fade as one, or not without allowsGroupOpacity";
    s->suite = LKT_SUITE_DECORATIONS;
    s->width = 220;
    s->height = 110;
    set_tolerance(s, 3, 3, 0, 0);
    root = root_layer(s, 0.9, 0.9, 0.9);
    for (i = 0; i < 2; i++) {
        p = box(s, root, 10 + i * 110, 10, 90, 90, 0.2, 0.3, 0.8, 1);
        s->layers[p].opacity = 0.5;
        s->layers[p].allows_group_opacity = i == 0;
        box(s, p, 10, 10, 50, 50, 0.9, 0.1, 0.1, 1);
        box(s, p, 30, 30, 50, 50, 0.1, 0.7, 0.2, 1);
    }
}

/* S6.1 allowsGroupOpacity under a mask and under a shadow: each panel is a
   layer at opacity 0.5 with two overlapping opaque sublayers. The first two
   are masked by a rounded mask, the last two cast a shadow. With
   allowsGroupOpacity on (panels 1 and 3) the overlap shows only the top
   sublayer; off (2 and 4) the opacity goes to each sublayer on its own, so
   the lower one shows through the upper inside the mask, and the shadow is
   still cast by the whole layer (shadowColor x shadowOpacity x opacity).
   Within 3 where flat; rounded and blurred edges within 40. */
static void scene_group_opacity_mask_shadow(lkt_scene *s)
{
    int root, p, m, i;
    s->name = "s6_1_group_opacity_mask_shadow";
    s->title = "S6.1 allowsGroupOpacity off under a mask and a shadow: opacity on each sublayer";
    s->suite = LKT_SUITE_DECORATIONS;
    s->width = 440;
    s->height = 110;
    set_tolerance(s, 3, 40, 900, 0);
    root = root_layer(s, 0.9, 0.9, 0.9);
    for (i = 0; i < 4; i++) {
        p = box(s, root, 10 + i * 110, 10, 90, 90, 0, 0, 0, 0);
        s->layers[p].opacity = 0.5;
        s->layers[p].allows_group_opacity = i % 2 == 0;
        box(s, p, 5, 5, 50, 50, 0.9, 0.1, 0.1, 1);
        box(s, p, 25, 25, 50, 50, 0.1, 0.7, 0.2, 1);
        if (i < 2) {
            m = box(s, LKT_SCENE_MASK_LAYER, 0, 0, 80, 80, 1, 1, 1, 1);
            s->layers[m].corner_radius = 20;
            s->layers[p].mask = m;
        } else {
            s->layers[p].shadow_opacity = 1;
            s->layers[p].shadow_radius = 2;
            s->layers[p].shadow_offset[0] = 8;
            s->layers[p].shadow_offset[1] = 8;
            lkt_scene_rgba(s->layers[p].shadow_color, 0.1, 0.1, 0.5, 1);
        }
    }
}

/* S6.1 shadows derived from the layer's alpha, blurred with a Gaussian of
   sigma = shadowRadius: a plain box; a box rotated 30 degrees whose shadow
   still falls straight down (shadowOffset is in the superlayer's space); a
   rounded box with a sublayer sticking out, whose shadow includes the
   sublayer and is faded by the layer's opacity. Blurs are smooth: within 3
   wherever the reference is flat; the layers' own edges within 40. */
static void scene_shadow_blurred(lkt_scene *s)
{
    int root, l;
    s->name = "s6_1_shadow_blurred";
    s->title = "S6.1 shadow: Gaussian blur of the layer's alpha, offset in the superlayer's space";
    s->suite = LKT_SUITE_DECORATIONS;
    s->width = 300;
    s->height = 140;
    set_tolerance(s, 3, 40, 700, 0);
    root = root_layer(s, 0.95, 0.95, 0.9);
    l = box(s, root, 20, 20, 70, 60, 0.9, 0.5, 0.1, 1);
    s->layers[l].shadow_opacity = 0.8;
    s->layers[l].shadow_radius = 6;
    s->layers[l].shadow_offset[0] = 8;
    s->layers[l].shadow_offset[1] = 10;
    lkt_scene_rgba(s->layers[l].shadow_color, 0.1, 0.1, 0.4, 1);

    l = box(s, root, 125, 30, 60, 50, 0.2, 0.6, 0.9, 1);
    s->layers[l].transform = lkt_affine2_rotation(PI / 6);
    s->layers[l].shadow_opacity = 1;
    s->layers[l].shadow_radius = 3;
    s->layers[l].shadow_offset[0] = 0;
    s->layers[l].shadow_offset[1] = 12;

    l = box(s, root, 215, 25, 60, 60, 0.3, 0.8, 0.3, 1);
    s->layers[l].corner_radius = 14;
    s->layers[l].opacity = 0.75;
    s->layers[l].shadow_opacity = 0.6;
    s->layers[l].shadow_radius = 4;
    s->layers[l].shadow_offset[0] = -6;
    s->layers[l].shadow_offset[1] = 6;
    box(s, l, 40, 40, 30, 40, 0.9, 0.9, 0.2, 1);
}

/* S6.1 shadowPath: the shadow takes the path's shape, not the layer's: an
   ellipse under a square layer, a rounded rect wider than its layer, and a
   rect under a layer that has only a border. Within 3 where flat; edges
   within 40. */
static void scene_shadow_path(lkt_scene *s)
{
    int root, l;
    s->name = "s6_1_shadow_path";
    s->title = "S6.1 shadowPath gives the shadow its shape (ellipse, rounded rect, rect)";
    s->suite = LKT_SUITE_DECORATIONS;
    s->width = 300;
    s->height = 120;
    set_tolerance(s, 3, 40, 500, 0);
    root = root_layer(s, 0.95, 0.95, 0.95);
    l = box(s, root, 20, 20, 60, 60, 0.8, 0.2, 0.2, 1);
    s->layers[l].shadow_opacity = 0.9;
    s->layers[l].shadow_radius = 4;
    s->layers[l].shadow_offset[0] = 10;
    s->layers[l].shadow_offset[1] = 15;
    s->layers[l].shadow_path = LKT_SHADOW_PATH_ELLIPSE;
    s->layers[l].shadow_path_rect[0] = 5;
    s->layers[l].shadow_path_rect[1] = 10;
    s->layers[l].shadow_path_rect[2] = 70;
    s->layers[l].shadow_path_rect[3] = 40;

    l = box(s, root, 120, 30, 50, 50, 0.2, 0.5, 0.8, 1);
    s->layers[l].shadow_opacity = 0.7;
    s->layers[l].shadow_radius = 5;
    s->layers[l].shadow_offset[0] = 0;
    s->layers[l].shadow_offset[1] = 8;
    s->layers[l].shadow_path = LKT_SHADOW_PATH_ROUNDED_RECT;
    s->layers[l].shadow_path_rect[0] = -20;
    s->layers[l].shadow_path_rect[1] = 0;
    s->layers[l].shadow_path_rect[2] = 90;
    s->layers[l].shadow_path_rect[3] = 50;
    s->layers[l].shadow_path_radius = 16;
    lkt_scene_rgba(s->layers[l].shadow_color, 0.5, 0, 0.5, 1);

    l = lkt_scene_add_layer(s, root);
    lkt_scene_frame(&s->layers[l], 210, 20, 60, 60);
    s->layers[l].border_width = 3;
    s->layers[l].shadow_opacity = 1;
    s->layers[l].shadow_radius = 2;
    s->layers[l].shadow_offset[0] = 6;
    s->layers[l].shadow_offset[1] = 6;
    s->layers[l].shadow_path = LKT_SHADOW_PATH_RECT;
    s->layers[l].shadow_path_rect[0] = 10;
    s->layers[l].shadow_path_rect[1] = 10;
    s->layers[l].shadow_path_rect[2] = 40;
    s->layers[l].shadow_path_rect[3] = 40;
}

/* S6.1 mask: the mask layer's alpha (its background, sublayers and
   opacity) multiplies a rotated layer and its sublayers; the mask is placed
   in the masked layer's coordinates and rotates with it. A rounded mask on
   a layer rotated 20 degrees, with a half-transparent mask sublayer; and a
   mask with opacity 0.5 on a layer with opacity 0.8. Edges within 40. */
static void scene_mask_rotated(lkt_scene *s)
{
    int root, l, m;
    s->name = "s6_1_mask_rotated";
    s->title = "S6.1 mask by alpha: a rounded mask on a rotated layer, and a translucent mask";
    s->suite = LKT_SUITE_DECORATIONS;
    s->width = 260;
    s->height = 140;
    set_tolerance(s, 3, 40, 900, 0);
    root = root_layer(s, 0.1, 0.1, 0.15);
    l = box(s, root, 20, 20, 110, 100, 0.9, 0.6, 0.1, 1);
    s->layers[l].transform = lkt_affine2_rotation(PI / 9);
    box(s, l, 50, -10, 80, 50, 0.2, 0.7, 0.9, 1);   /* sticks out: masked too */
    m = box(s, LKT_SCENE_MASK_LAYER, 10, 10, 90, 80, 1, 1, 1, 1);
    s->layers[m].corner_radius = 25;
    box(s, m, 60, 40, 40, 50, 0, 0, 0, 0.5);        /* mask sublayer at half alpha */
    s->layers[l].mask = m;

    l = box(s, root, 160, 20, 80, 100, 0.3, 0.9, 0.4, 1);
    s->layers[l].opacity = 0.8;
    m = box(s, LKT_SCENE_MASK_LAYER, 0, 20, 80, 60, 0, 0, 0, 1);
    s->layers[m].opacity = 0.5;
    s->layers[l].mask = m;
}

/* S6.1 masksToBounds with rounded corners under rotation clips the
   sublayers to the rounded, rotated bounds. Edges within 40. */
static void scene_masks_rotated_rounded(lkt_scene *s)
{
    int root, l, c;
    s->name = "s6_1_masks_to_bounds_rotated";
    s->title = "S6.1 masksToBounds with cornerRadius on a rotated layer clips its sublayers";
    s->suite = LKT_SUITE_DECORATIONS;
    s->width = 200;
    s->height = 160;
    set_tolerance(s, 3, 40, 900, 0);
    root = root_layer(s, 0.1, 0.1, 0.1);
    l = box(s, root, 40, 30, 120, 100, 0.2, 0.3, 0.8, 1);
    s->layers[l].transform = lkt_affine2_rotation(-PI / 7);
    s->layers[l].corner_radius = 30;
    s->layers[l].masks_to_bounds = 1;
    box(s, l, -20, -20, 70, 70, 0.9, 0.2, 0.2, 1);
    c = box(s, l, 70, 50, 80, 80, 0.95, 0.85, 0.2, 1);
    s->layers[c].transform = lkt_affine2_rotation(PI / 5);
}

/* 30x30 nine-slice test image: 10 px corners red, green, blue, yellow; edges
   grey; the centre's left half white, right half black. */
static int image_nine(lkt_scene *s)
{
    int index = add_image(s, 30, 30);
    lkt_scene_image *im = &s->images[index];
    uint32_t x, y;
    for (y = 0; y < 30; y++) {
        for (x = 0; x < 30; x++) {
            uint8_t *p = im->rgba + ((size_t)y * 30 + x) * 4;
            int cx = x < 10 ? 0 : x < 20 ? 1 : 2, cy = y < 10 ? 0 : y < 20 ? 1 : 2;
            if (cx == 1 && cy == 1) put(p, x < 15 ? 255 : 0, x < 15 ? 255 : 0, x < 15 ? 255 : 0, 255);
            else if (cx == 0 && cy == 0) put(p, 230, 40, 40, 255);
            else if (cx == 2 && cy == 0) put(p, 40, 200, 60, 255);
            else if (cx == 0 && cy == 2) put(p, 40, 80, 230, 255);
            else if (cx == 2 && cy == 2) put(p, 240, 220, 40, 255);
            else if (cy == 1) put(p, 120, 120, 120, 255);
            else put(p, 180, 180, 180, 255);
        }
    }
    return index;
}

static int nine_layer(lkt_scene *s, int parent, int image, double x, double y, double w, double h)
{
    int l = lkt_scene_add_layer(s, parent);
    lkt_scene_frame(&s->layers[l], x, y, w, h);
    s->layers[l].contents = image;
    s->layers[l].contents_center[0] = 1.0 / 3;
    s->layers[l].contents_center[1] = 1.0 / 3;
    s->layers[l].contents_center[2] = 1.0 / 3;
    s->layers[l].contents_center[3] = 1.0 / 3;
    return l;
}

/* S6.1 contentsCenter: the corners keep their size, the edges stretch along
   one axis, the centre along both; a layer smaller than two corners shrinks
   them in proportion; contentsScale 2 halves the corners. Whole pixels; the
   centre's stretched white-black transition is filtered: within 40 there. */
static void scene_nine_slice(lkt_scene *s)
{
    int root, img, l;
    s->name = "s6_1_nine_slice";
    s->title = "S6.1 contentsCenter nine-slice stretching";
    s->suite = LKT_SUITE_DECORATIONS;
    s->width = 260;
    s->height = 120;
    set_tolerance(s, 3, 40, 400, 0);
    root = root_layer(s, 0.3, 0.1, 0.3);
    img = image_nine(s);
    nine_layer(s, root, img, 10, 10, 130, 60);
    nine_layer(s, root, img, 160, 10, 40, 100);
    nine_layer(s, root, img, 220, 10, 16, 16);   /* corners shrink to 8 px */
    l = nine_layer(s, root, img, 10, 80, 200, 30);
    s->layers[l].contents_scale = 2;              /* 5 px corners */
}

static const scene_builder builders[] = {
    scene_root_frame,
    scene_root_transform,
    scene_background_opacity,
    scene_opacity_tree,
    scene_corner_radius,
    scene_border,
    scene_order,
    scene_hidden,
    scene_transforms,
    scene_masks,
    scene_sublayer_transform,
    scene_bounds_origin_sublayer_transform,
    scene_contents_gravity,
    scene_contents_rect_scale,
    scene_group_opacity,
    scene_group_opacity_mask_shadow,
    scene_shadow_blurred,
    scene_shadow_path,
    scene_mask_rotated,
    scene_masks_rotated_rounded,
    scene_nine_slice,
};

int lkt_scene_count(void) { return (int)(sizeof builders / sizeof builders[0]); }

int lkt_scene_build(int index, lkt_scene *scene)
{
    memset(scene, 0, sizeof *scene);
    if (index < 0 || index >= lkt_scene_count()) return -1;
    builders[index](scene);
    return 0;
}

void lkt_scene_free(lkt_scene *scene)
{
    int i;
    for (i = 0; i < scene->image_count; i++) free(scene->images[i].rgba);
    memset(scene, 0, sizeof *scene);
}
