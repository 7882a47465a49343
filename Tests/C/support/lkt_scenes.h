/*
 * The 2D scenes of the pixel tests, described once as plain data.
 *
 * test_render.c builds each scene through LayerKit's C API and compares the
 * frame with Tests/C/reference/<name>.png; Tests/C/refgen draws the same
 * description with cairo to make that reference. The description is only
 * data (Core Animation's properties, with their S1.1 defaults): how it looks
 * is decided independently by the two renderers. Neither LayerKit nor cairo
 * is needed to compile this file.
 */
#ifndef LKT_SCENES_H
#define LKT_SCENES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CGAffineTransform: x' = a*x + c*y + tx, y' = b*x + d*y + ty */
typedef struct lkt_affine2 {
    double a, b, c, d, tx, ty;
} lkt_affine2;

lkt_affine2 lkt_affine2_identity(void);
/* angle in radians, positive clockwise on screen (y down): a=cos b=sin c=-sin d=cos */
lkt_affine2 lkt_affine2_rotation(double angle);
lkt_affine2 lkt_affine2_scale(double sx, double sy);
int lkt_affine2_is_identity(lkt_affine2 m);

/* Values of lk_contents_gravity (kept in step with layerkit.h). */
enum {
    LKT_GRAVITY_RESIZE = 0,
    LKT_GRAVITY_RESIZE_ASPECT = 1,
    LKT_GRAVITY_RESIZE_ASPECT_FILL = 2,
    LKT_GRAVITY_CENTER = 3,
    LKT_GRAVITY_TOP = 4,
    LKT_GRAVITY_BOTTOM = 5,
    LKT_GRAVITY_LEFT = 6,
    LKT_GRAVITY_RIGHT = 7,
    LKT_GRAVITY_TOP_LEFT = 8,
    LKT_GRAVITY_TOP_RIGHT = 9,
    LKT_GRAVITY_BOTTOM_LEFT = 10,
    LKT_GRAVITY_BOTTOM_RIGHT = 11
};

typedef struct lkt_scene_layer {
    int parent;                 /* index of the superlayer; -1 for the root */
    double bounds[4];           /* x, y, width, height */
    double position[2];
    double anchor[2];
    lkt_affine2 transform;
    lkt_affine2 sublayer_transform;
    double opacity;
    int hidden;
    double background[4];       /* r, g, b, a (sRGB, straight); a == 0 is none */
    double border_color[4];
    double border_width;
    double corner_radius;
    int masks_to_bounds;
    double z_position;
    int contents;               /* index into the scene's images; -1: none */
    int gravity;                /* LKT_GRAVITY_* */
    double contents_rect[4];    /* unit rect of the image, origin top left */
    double contents_scale;
    /* layer decorations (S6.1) */
    int allows_group_opacity;   /* default 1, as on iOS */
    double shadow_color[4];     /* default opaque black */
    double shadow_opacity;      /* default 0: no shadow */
    double shadow_offset[2];    /* default (0, -3), in the superlayer's space */
    double shadow_radius;       /* default 3 */
    int shadow_path;            /* LKT_SHADOW_PATH_*: default none */
    double shadow_path_rect[4];
    double shadow_path_radius;  /* rounded rect: corner radius */
    int mask;                   /* index of the layer that is this layer's mask; -1: none */
    double contents_center[4];  /* unit rect; default 0, 0, 1, 1 */
} lkt_scene_layer;

/* A mask layer's parent: it belongs to no tree (S6.1). */
#define LKT_SCENE_MASK_LAYER (-2)

enum { LKT_SHADOW_PATH_NONE = 0, LKT_SHADOW_PATH_RECT, LKT_SHADOW_PATH_ROUNDED_RECT,
       LKT_SHADOW_PATH_ELLIPSE };

typedef struct lkt_scene_image {
    uint32_t width, height;
    uint8_t *rgba;              /* RGBA8, straight alpha, stride width * 4 */
} lkt_scene_image;

#define LKT_SCENE_MAX_LAYERS 40

enum { LKT_SUITE_RENDER = 0,        /* test_render.c */
       LKT_SUITE_DECORATIONS = 1 }; /* test_decorations.c: shadows, masks, groups, nine-slice */
#define LKT_SCENE_MAX_IMAGES 4

typedef struct lkt_scene {
    const char *name;           /* reference file: <name>.png */
    const char *title;          /* the check's name: the rule and what it shows */
    int suite;                  /* LKT_SUITE_*: which test program checks it */
    uint32_t width, height;     /* the display, in pixels */
    /* how far the frame may stray from the reference (see lkt_pixels.h) */
    int flat_tolerance, edge_tolerance, max_edge_pixels, max_bad_pixels;
    int layer_count;
    lkt_scene_layer layers[LKT_SCENE_MAX_LAYERS];
    int image_count;
    lkt_scene_image images[LKT_SCENE_MAX_IMAGES];
} lkt_scene;

int lkt_scene_count(void);
/* Fills *scene with scene number `index` (0 <= index < lkt_scene_count()).
   0 on success. Free with lkt_scene_free. */
int lkt_scene_build(int index, lkt_scene *scene);
void lkt_scene_free(lkt_scene *scene);

/* Builders (used by lkt_scenes.c; public for tests that want a scene of
   their own). A new layer has the defaults of S1.1. */
int lkt_scene_add_layer(lkt_scene *scene, int parent);
/* bounds (0, 0, w, h) and position such that the frame is (x, y, w, h) for
   the layer's anchor point and an identity transform */
void lkt_scene_frame(lkt_scene_layer *layer, double x, double y, double w, double h);
void lkt_scene_rgba(double out[4], double r, double g, double b, double a);

#ifdef __cplusplus
}
#endif

#endif
