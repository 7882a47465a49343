/*
 * LayerKit: Core Animation for embedded Linux.
 *
 * The public C API. Conventions (see docs/c-api.md):
 *   - objects are opaque and reference counted: *_create* and *_copy* return a
 *     new reference (+1), getters return borrowed ones (+0); lk_release(NULL)
 *     does nothing;
 *   - fallible calls return lk_status (LK_OK = 0) or NULL, and lk_last_error()
 *     then describes what went wrong on this thread (which argument, which key
 *     path, what was expected); a failed call changes nothing;
 *   - getters of plain values never fail: on a bad handle they return the
 *     type's zero and set the message;
 *   - values are plain structs of doubles; colours are sRGB with straight alpha;
 *   - strings are UTF-8 and copied on the way in (an invalid sequence is
 *     kept as U+FFFD, the replacement character).
 */
#ifndef LAYERKIT_H
#define LAYERKIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LK_VERSION_MAJOR 0
#define LK_VERSION_MINOR 1
#define LK_VERSION_MICRO 0
#define LK_VERSION_STRING "0.1.0"
/* The version of the C ABI: the number in the SONAME (liblayerkit.so.0). */
#define LK_ABI_VERSION 0

/* ------------------------------------------------------------------------ */
/* Status and objects                                                        */

typedef enum lk_status {
    LK_OK = 0,
    LK_ERROR_INVALID_ARGUMENT = 1, /* NULL, wrong kind of object, out of range, not finite */
    LK_ERROR_UNKNOWN_KEY_PATH = 2, /* no property of that name on this kind of layer */
    LK_ERROR_TYPE_MISMATCH = 3,    /* a value of the wrong type for a key path */
    LK_ERROR_HIERARCHY = 4,        /* a cycle, a layer that is not a sublayer, a tree too deep */
    LK_ERROR_NOT_FOUND = 5,        /* a plugin, file or key that does not exist */
    LK_ERROR_IO = 6,               /* reading or writing a file failed */
    LK_ERROR_BACKEND = 7,          /* the render backend failed (its reason is in the message) */
    LK_ERROR_STATE = 8,            /* the object is not in a state that allows the call */
    LK_ERROR_OUT_OF_MEMORY = 9
} lk_status;

typedef struct lk_layer lk_layer;
typedef struct lk_image lk_image;
typedef struct lk_path lk_path;
typedef struct lk_display lk_display;
typedef struct lk_animation lk_animation;
typedef struct lk_action lk_action;
typedef struct lk_timing_function lk_timing_function;
typedef struct lk_canvas lk_canvas;
typedef struct lk_display_link lk_display_link;
typedef struct lk_emitter_cell lk_emitter_cell;

/* ------------------------------------------------------------------------ */
/* Library                                                                   */

const char *lk_version_string(void);
uint32_t    lk_abi_version(void);   /* LK_ABI_VERSION of the library loaded */
/* The message of the last failed call on this thread ("" if none). Valid until
   the next failing call on this thread. */
const char *lk_last_error(void);
/* Seconds on the monotonic clock (CACurrentMediaTime). */
double      lk_media_time(void);
/* Any LayerKit object. lk_retain returns its argument (NULL for a bad handle). */
void       *lk_retain(void *object);
void        lk_release(void *object);

/* ------------------------------------------------------------------------ */
/* Values                                                                    */

typedef struct lk_point { double x, y; } lk_point;
typedef struct lk_size { double width, height; } lk_size;
typedef struct lk_rect { lk_point origin; lk_size size; } lk_rect;
/* sRGB, straight alpha, components 0..1 */
typedef struct lk_color { double r, g, b, a; } lk_color;
/* Core Animation's layout: row vectors, translation in m41..m43, perspective in m34. */
typedef struct lk_transform3d {
    double m11, m12, m13, m14;
    double m21, m22, m23, m24;
    double m31, m32, m33, m34;
    double m41, m42, m43, m44;
} lk_transform3d;
/* CGAffineTransform: x' = a*x + c*y + tx, y' = b*x + d*y + ty */
typedef struct lk_affine { double a, b, c, d, tx, ty; } lk_affine;

lk_point lk_point_make(double x, double y);
lk_size  lk_size_make(double width, double height);
lk_rect  lk_rect_make(double x, double y, double width, double height);
lk_color lk_color_make(double r, double g, double b, double a);

/* CATransform3D helpers */
lk_transform3d lk_transform3d_identity(void);
lk_transform3d lk_transform3d_make_translation(double tx, double ty, double tz);
lk_transform3d lk_transform3d_make_scale(double sx, double sy, double sz);
/* angle in radians about the axis (x, y, z); positive is clockwise on screen
   for the z axis. A zero axis gives the identity. */
lk_transform3d lk_transform3d_make_rotation(double angle, double x, double y, double z);
/* t' = translate * t, scale * t, rotate * t (as CATransform3DTranslate, ...) */
lk_transform3d lk_transform3d_translate(lk_transform3d t, double tx, double ty, double tz);
lk_transform3d lk_transform3d_scale(lk_transform3d t, double sx, double sy, double sz);
lk_transform3d lk_transform3d_rotate(lk_transform3d t, double angle, double x, double y, double z);
/* a then b (a * b) */
lk_transform3d lk_transform3d_concat(lk_transform3d a, lk_transform3d b);
bool           lk_transform3d_invert(lk_transform3d t, lk_transform3d *out);
bool           lk_transform3d_is_identity(lk_transform3d t);
bool           lk_transform3d_equal(lk_transform3d a, lk_transform3d b);
lk_transform3d lk_transform3d_make_affine(lk_affine m);
bool           lk_transform3d_is_affine(lk_transform3d t);
/* the affine part of t (meaningful when lk_transform3d_is_affine) */
lk_affine      lk_transform3d_get_affine(lk_transform3d t);

/* Generic values for key paths. Objects inside a value are borrowed (+0);
   strings returned by getters stay valid until the property changes or the
   object is released. */
typedef enum lk_value_type {
    LK_VALUE_NONE = 0, LK_VALUE_NUMBER, LK_VALUE_BOOL,
    LK_VALUE_POINT, LK_VALUE_SIZE, LK_VALUE_RECT, LK_VALUE_COLOR, LK_VALUE_TRANSFORM,
    LK_VALUE_IMAGE, LK_VALUE_PATH, LK_VALUE_STRING, LK_VALUE_LAYER
} lk_value_type;

typedef struct lk_value {
    lk_value_type type;
    union {
        double number;
        bool boolean;
        lk_point point;
        lk_size size;
        lk_rect rect;
        lk_color color;
        lk_transform3d transform;
        lk_image *image;
        lk_path *path;
        const char *string;
        lk_layer *layer;
    } as;
} lk_value;

lk_value lk_value_none(void);
lk_value lk_value_number(double number);
lk_value lk_value_bool(bool boolean);
lk_value lk_value_point(lk_point point);
lk_value lk_value_size(lk_size size);
lk_value lk_value_rect(lk_rect rect);
lk_value lk_value_color(lk_color color);
lk_value lk_value_transform(lk_transform3d transform);
lk_value lk_value_image(lk_image *image);
lk_value lk_value_path(lk_path *path);
lk_value lk_value_string(const char *utf8);
lk_value lk_value_layer(lk_layer *layer);

/* ------------------------------------------------------------------------ */
/* Images                                                                    */

typedef enum lk_pixel_format {
    LK_PIXEL_FORMAT_RGBA8 = 0,                 /* bytes R,G,B,A; straight alpha */
    LK_PIXEL_FORMAT_ARGB32_PREMULTIPLIED = 1   /* native 32-bit 0xAARRGGBB, premultiplied */
} lk_pixel_format;

/* Copies the pixels. stride is in bytes (at least width * 4). Images are
   kept premultiplied (as they are drawn): RGBA8 read back from a pixel of
   low alpha has its colour rounded to what alpha leaves (a straight
   (200, 100, 50, 1) reads back (255, 0, 0, 1)). In ARGB32_PREMULTIPLIED a
   colour channel above alpha is not a premultiplied value: it is drawn as
   given (added light) and read back clamped. */
lk_image *lk_image_create_from_pixels(uint32_t width, uint32_t height, size_t stride,
                                      lk_pixel_format format, const void *pixels);
/* Any PNG colour type and depth; samples with no gAMA or sRGB chunk are
   sRGB (16-bit ones too). Images are at most 32768 pixels a side (here and
   in lk_image_create_from_pixels; a larger PNG is LK_ERROR_IO naming its
   size). */
lk_image *lk_image_create_from_png_file(const char *file_name);
uint32_t  lk_image_get_width(const lk_image *image);
uint32_t  lk_image_get_height(const lk_image *image);
/* Copies the image into rgba8 (RGBA8, straight alpha), stride in bytes. */
lk_status lk_image_read_pixels(const lk_image *image, void *rgba8, size_t stride);
lk_status lk_image_write_png(const lk_image *image, const char *file_name);

/* ------------------------------------------------------------------------ */
/* Paths (CGPath)                                                            */

/* A path the program creates or copies can change; a layer, an animation
   or a value keeps a frozen copy of the path it is given, as a CGPath is
   immutable, and the path its getters return (+0) is that copy: the calls
   that change a path refuse it with LK_ERROR_STATE and change nothing
   (change lk_path_copy's copy and set that). */
lk_path  *lk_path_create(void);
lk_path  *lk_path_copy(const lk_path *path);
lk_status lk_path_move_to(lk_path *p, double x, double y);
lk_status lk_path_line_to(lk_path *p, double x, double y);
lk_status lk_path_quad_to(lk_path *p, double cx, double cy, double x, double y);
lk_status lk_path_curve_to(lk_path *p, double c1x, double c1y, double c2x, double c2y,
                           double x, double y);
lk_status lk_path_close(lk_path *p);
/* rects as CGRect's functions take them: a negative width or height extends
   the rect the other way (standardized) */
lk_status lk_path_add_rect(lk_path *p, lk_rect r);
lk_status lk_path_add_rounded_rect(lk_path *p, lk_rect r, double rx, double ry);
lk_status lk_path_add_ellipse(lk_path *p, lk_rect r);
/* angles in radians, measured clockwise on screen from the +x axis; clockwise
   sweeps in increasing angle (screen clockwise, y down) */
lk_status lk_path_add_arc(lk_path *p, double cx, double cy, double radius,
                          double start_angle, double end_angle, bool clockwise);
bool      lk_path_is_empty(const lk_path *p);
/* the tight bounding box of what the path draws: of each curve, not of its
   control points (CGPathGetPathBoundingBox; CGPathGetBoundingBox would
   include the control points). A quad (0,0) -> control (50,100) -> (100,0)
   is 50 high, not 100. */
lk_rect   lk_path_get_bounds(const lk_path *p);
/* arc length of everything drawn (moves add nothing; a close draws back to
   its subpath's start), to 1e-9 relative; finite for any path: one longer
   than the largest double (points near +-1e308) measures DBL_MAX */
double    lk_path_get_length(const lk_path *p);
/* the point at `distance` along the path (clamped to 0...length) and the
   direction of travel there in radians (atan2 of the tangent: clockwise on
   screen); angle may be NULL. Fails on a path that draws nothing. */
lk_status lk_path_get_point_at_distance(const lk_path *p, double distance, lk_point *point, double *angle);
/* SVG path data (the "d" attribute): M L H V C S Q T A Z, absolute and
   relative, implicit repeats. NULL and lk_last_error() naming the offset and
   what was expected on bad data. */
lk_path  *lk_path_create_from_svg(const char *path_data);

/* ------------------------------------------------------------------------ */
/* Layers                                                                    */

typedef enum lk_contents_gravity {
    LK_GRAVITY_RESIZE = 0,            /* "resize" (default): fill the bounds, stretched */
    LK_GRAVITY_RESIZE_ASPECT,         /* "resizeAspect": fit, aspect kept, centred */
    LK_GRAVITY_RESIZE_ASPECT_FILL,    /* "resizeAspectFill": fill, aspect kept, centred */
    LK_GRAVITY_CENTER,                /* "center" */
    LK_GRAVITY_TOP,                   /* "top": centred at the top edge (screen top) */
    LK_GRAVITY_BOTTOM,                /* "bottom" */
    LK_GRAVITY_LEFT,                  /* "left" */
    LK_GRAVITY_RIGHT,                 /* "right" */
    LK_GRAVITY_TOP_LEFT,              /* "topLeft" */
    LK_GRAVITY_TOP_RIGHT,             /* "topRight" */
    LK_GRAVITY_BOTTOM_LEFT,           /* "bottomLeft" */
    LK_GRAVITY_BOTTOM_RIGHT           /* "bottomRight" */
} lk_contents_gravity;

/* magnification_filter / minification_filter (CALayerContentsFilter): how
   contents are sampled when drawn larger / smaller than their pixels (more
   than one image pixel per output pixel along either side: smaller). */
typedef enum lk_contents_filter {
    LK_CONTENTS_FILTER_LINEAR = 0,    /* "linear" (default): bilinear */
    LK_CONTENTS_FILTER_NEAREST,       /* "nearest": the nearest pixel (crisp pixel art) */
    LK_CONTENTS_FILTER_TRILINEAR      /* "trilinear": mipmaps, which Core Animation lets a
                                         renderer ignore; LayerKit samples it as linear */
} lk_contents_filter;

typedef enum lk_fill_mode {
    LK_FILL_REMOVED = 0, LK_FILL_FORWARDS, LK_FILL_BACKWARDS, LK_FILL_BOTH
} lk_fill_mode;

lk_layer *lk_layer_create(void);

/* hierarchy (S1.3). Adding a layer that has a superlayer moves it; adding a
   layer to itself or to a descendant is refused, and so is one that would
   make its tree more than 256 layers deep (sublayers and masks counted),
   and an open display's root (set another root or close the display first). */
lk_status lk_layer_add_sublayer(lk_layer *parent, lk_layer *child);
lk_status lk_layer_insert_sublayer(lk_layer *parent, lk_layer *child, size_t index);
lk_status lk_layer_insert_sublayer_below(lk_layer *parent, lk_layer *child, lk_layer *sibling);
lk_status lk_layer_insert_sublayer_above(lk_layer *parent, lk_layer *child, lk_layer *sibling);
lk_status lk_layer_replace_sublayer(lk_layer *parent, lk_layer *old_child, lk_layer *new_child);
lk_status lk_layer_remove_from_superlayer(lk_layer *layer);
lk_layer *lk_layer_get_superlayer(const lk_layer *layer);
size_t    lk_layer_get_sublayer_count(const lk_layer *layer);
lk_layer *lk_layer_get_sublayer(const lk_layer *layer, size_t index);

/* properties (S1.1): one typed pair each */
lk_status lk_layer_set_bounds(lk_layer *layer, lk_rect r);
lk_rect   lk_layer_get_bounds(const lk_layer *layer);
lk_status lk_layer_set_position(lk_layer *layer, lk_point p);
lk_point  lk_layer_get_position(const lk_layer *layer);
lk_status lk_layer_set_frame(lk_layer *layer, lk_rect r);
lk_rect   lk_layer_get_frame(const lk_layer *layer);
lk_status lk_layer_set_anchor_point(lk_layer *layer, lk_point p);
lk_point  lk_layer_get_anchor_point(const lk_layer *layer);
lk_status lk_layer_set_anchor_point_z(lk_layer *layer, double z);
double    lk_layer_get_anchor_point_z(const lk_layer *layer);
lk_status lk_layer_set_z_position(lk_layer *layer, double z);
double    lk_layer_get_z_position(const lk_layer *layer);
lk_status lk_layer_set_transform(lk_layer *layer, lk_transform3d t);
lk_transform3d lk_layer_get_transform(const lk_layer *layer);
lk_status lk_layer_set_affine_transform(lk_layer *layer, lk_affine m);
lk_affine lk_layer_get_affine_transform(const lk_layer *layer);
lk_status lk_layer_set_sublayer_transform(lk_layer *layer, lk_transform3d t);
lk_transform3d lk_layer_get_sublayer_transform(const lk_layer *layer);
/* clamped to 0..1 */
lk_status lk_layer_set_opacity(lk_layer *layer, double opacity);
double    lk_layer_get_opacity(const lk_layer *layer);
/* true (the default, as on iOS): a layer with opacity below 1 and sublayers
   (or several overlapping parts of its own) fades as one picture; false:
   the opacity multiplies each part on its own, so overlaps show through */
lk_status lk_layer_set_allows_group_opacity(lk_layer *layer, bool allows);
bool      lk_layer_get_allows_group_opacity(const lk_layer *layer);
lk_status lk_layer_set_hidden(lk_layer *layer, bool hidden);
bool      lk_layer_get_hidden(const lk_layer *layer);
/* a colour with alpha 0 is "none" */
lk_status lk_layer_set_background_color(lk_layer *layer, lk_color c);
lk_color  lk_layer_get_background_color(const lk_layer *layer);
lk_status lk_layer_set_border_color(lk_layer *layer, lk_color c);
lk_color  lk_layer_get_border_color(const lk_layer *layer);
lk_status lk_layer_set_border_width(lk_layer *layer, double width);
double    lk_layer_get_border_width(const lk_layer *layer);
lk_status lk_layer_set_corner_radius(lk_layer *layer, double radius);
double    lk_layer_get_corner_radius(const lk_layer *layer);
lk_status lk_layer_set_masks_to_bounds(lk_layer *layer, bool masks);
bool      lk_layer_get_masks_to_bounds(const lk_layer *layer);
lk_status lk_layer_set_double_sided(lk_layer *layer, bool double_sided);
bool      lk_layer_get_double_sided(const lk_layer *layer);
lk_status lk_layer_set_shadow_color(lk_layer *layer, lk_color c);
lk_color  lk_layer_get_shadow_color(const lk_layer *layer);
lk_status lk_layer_set_shadow_opacity(lk_layer *layer, double opacity);
double    lk_layer_get_shadow_opacity(const lk_layer *layer);
lk_status lk_layer_set_shadow_offset(lk_layer *layer, lk_size offset);
lk_size   lk_layer_get_shadow_offset(const lk_layer *layer);
lk_status lk_layer_set_shadow_radius(lk_layer *layer, double radius);
double    lk_layer_get_shadow_radius(const lk_layer *layer);
/* the layer keeps its own (frozen) copy of the path; NULL clears */
lk_status lk_layer_set_shadow_path(lk_layer *layer, lk_path *path);
lk_path  *lk_layer_get_shadow_path(const lk_layer *layer);
/* retained by the layer; NULL clears */
lk_status lk_layer_set_contents(lk_layer *layer, lk_image *image);
lk_image *lk_layer_get_contents(const lk_layer *layer);
lk_status lk_layer_set_contents_rect(lk_layer *layer, lk_rect r);
lk_rect   lk_layer_get_contents_rect(const lk_layer *layer);
lk_status lk_layer_set_contents_center(lk_layer *layer, lk_rect r);
lk_rect   lk_layer_get_contents_center(const lk_layer *layer);
lk_status lk_layer_set_contents_gravity(lk_layer *layer, lk_contents_gravity g);
lk_contents_gravity lk_layer_get_contents_gravity(const lk_layer *layer);
lk_status lk_layer_set_contents_scale(lk_layer *layer, double scale);
double    lk_layer_get_contents_scale(const lk_layer *layer);
lk_status lk_layer_set_magnification_filter(lk_layer *layer, lk_contents_filter filter);
lk_contents_filter lk_layer_get_magnification_filter(const lk_layer *layer);
lk_status lk_layer_set_minification_filter(lk_layer *layer, lk_contents_filter filter);
lk_contents_filter lk_layer_get_minification_filter(const lk_layer *layer);
/* the bias of a trilinear minification filter's mipmap choice (default 0);
   kept and reported: LayerKit draws trilinear as linear */
lk_status lk_layer_set_minification_filter_bias(lk_layer *layer, double bias);
double    lk_layer_get_minification_filter_bias(const lk_layer *layer);
/* retained by the layer; a mask cannot have a superlayer, be a mask twice or
   be an open display's root */
lk_status lk_layer_set_mask(lk_layer *layer, lk_layer *mask);
lk_layer *lk_layer_get_mask(const lk_layer *layer);
/* copied; NULL clears. The returned string lives until the name changes. */
lk_status lk_layer_set_name(lk_layer *layer, const char *name);
const char *lk_layer_get_name(const lk_layer *layer);

/* timing (S4.1): a layer is a timing node. Its local time is S4.2's
   (t_parent - beginTime) * speed + timeOffset alone: its duration,
   repeatCount, repeatDuration, autoreverses and fillMode are kept and read
   back but do not repeat, reverse or end its time (Core Animation's layers
   read them as an animation does; a choice, documented in docs/time.md). */
lk_status lk_layer_set_begin_time(lk_layer *layer, double t);
double    lk_layer_get_begin_time(const lk_layer *layer);
lk_status lk_layer_set_duration(lk_layer *layer, double d);
double    lk_layer_get_duration(const lk_layer *layer);
lk_status lk_layer_set_speed(lk_layer *layer, double speed);
double    lk_layer_get_speed(const lk_layer *layer);
lk_status lk_layer_set_time_offset(lk_layer *layer, double offset);
double    lk_layer_get_time_offset(const lk_layer *layer);
lk_status lk_layer_set_repeat_count(lk_layer *layer, double count);
double    lk_layer_get_repeat_count(const lk_layer *layer);
lk_status lk_layer_set_repeat_duration(lk_layer *layer, double d);
double    lk_layer_get_repeat_duration(const lk_layer *layer);
lk_status lk_layer_set_autoreverses(lk_layer *layer, bool autoreverses);
bool      lk_layer_get_autoreverses(const lk_layer *layer);
lk_status lk_layer_set_fill_mode(lk_layer *layer, lk_fill_mode mode);
lk_fill_mode lk_layer_get_fill_mode(const lk_layer *layer);

/* key paths (S1.6): every property by its Core Animation name, plus
   "frame", the parts of rects, points and sizes ("bounds.size.width",
   "position.x") and the virtual transform paths ("transform.rotation",
   "transform.rotation.x/y/z", "transform.scale", "transform.scale.x/y/z",
   "transform.translation", "transform.translation.x/y/z"). */
lk_status lk_layer_set_value(lk_layer *layer, const char *key_path, lk_value value);
lk_status lk_layer_get_value(const lk_layer *layer, const char *key_path, lk_value *out);
/* the value type a key path takes, LK_VALUE_NONE (and an error) if unknown */
lk_value_type lk_layer_get_value_type(const lk_layer *layer, const char *key_path);

/* extra values stored on a layer under keys of the program's (objects are
   retained, strings copied); lk_value_none() removes the key, and so does a
   value with no object or string (lk_value_string(NULL): Core Animation's nil) */
lk_status lk_layer_set_user_value(lk_layer *layer, const char *key, lk_value value);
lk_status lk_layer_get_user_value(const lk_layer *layer, const char *key, lk_value *out);

/* geometry (S1.4, S1.5). A NULL layer stands for the space the root of the
   other layer's tree is placed in (a display's pixels). Converting between
   layers of different trees is an error and returns the zero value. */
lk_point  lk_layer_convert_point(const lk_layer *from, lk_point p, const lk_layer *to);
lk_rect   lk_layer_convert_rect(const lk_layer *from, lk_rect r, const lk_layer *to);
bool      lk_layer_contains_point(const lk_layer *layer, lk_point p_in_layer);
/* the deepest, front-most visible layer under p (given in root's superlayer
   space), or NULL. Layers sharing 3D space (a transform layer's sublayers, a
   preserves_depth replicator's) are hit by depth at the point; a transform
   layer itself is never hit; a layer not double-sided and turned away is
   not hit (docs/layers-3d.md). */
lk_layer *lk_layer_hit_test(lk_layer *root, lk_point p_in_root_superlayer);

/* ------------------------------------------------------------------------ */
/* Emitter cells (S7.4, CAEmitterCell)                                       */

/* A kind of particle and how it is made. Defaults as Core Animation's:
   enabled, birth rate, lifetime, velocity, accelerations, angles and every
   range and speed 0, scale 1, colour opaque white, contents_rect the unit
   rect, no name, no contents, no sub-cells; timing as S4.1 except that a
   duration of 0 means the cell emits for as long as its emitter lives.
   Random attributes with mean M and range R are uniform in [M - R/2, M + R/2]. */
lk_emitter_cell *lk_emitter_cell_create(void);
/* a deep copy: sub-cells are copied too; the contents image is shared */
lk_emitter_cell *lk_emitter_cell_copy(const lk_emitter_cell *cell);

/* key paths: every property by its Core Animation name ("birthRate",
   "color", "contentsRect.size.width", "fillMode" as a string, ...) and
   sub-cells by name to any depth ("emitterCells.spark.birthRate") */
lk_status lk_emitter_cell_set_value(lk_emitter_cell *cell, const char *key_path, lk_value v);
lk_status lk_emitter_cell_get_value(const lk_emitter_cell *cell, const char *key_path, lk_value *out);
lk_value_type lk_emitter_cell_get_value_type(const lk_emitter_cell *cell, const char *key_path);

/* sub-cells: each particle of the cell emits them. The cell retains them
   (shared, not copied); a cell cannot contain itself, and a cell tree has
   at most 16 levels and 1,024 cells (a cell reached twice counts twice):
   trees past that are refused here, and a tree grown past it from below (a
   deep sub-cell given sub-cells later) is copied and drawn cut to it. */
lk_status lk_emitter_cell_set_cells(lk_emitter_cell *cell, lk_emitter_cell *const *cells, size_t count);
size_t    lk_emitter_cell_get_cell_count(const lk_emitter_cell *cell);
lk_emitter_cell *lk_emitter_cell_get_cell(const lk_emitter_cell *cell, size_t index); /* +0 */

/* copied; NULL clears. The returned string lives until the name changes. */
lk_status   lk_emitter_cell_set_name(lk_emitter_cell *cell, const char *name);
const char *lk_emitter_cell_get_name(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_enabled(lk_emitter_cell *cell, bool enabled);
bool      lk_emitter_cell_get_enabled(const lk_emitter_cell *cell);
/* components within 0..1 */
lk_status lk_emitter_cell_set_color(lk_emitter_cell *cell, lk_color c);
lk_color  lk_emitter_cell_get_color(const lk_emitter_cell *cell);
/* retained by the cell; NULL clears */
lk_status lk_emitter_cell_set_contents(lk_emitter_cell *cell, lk_image *image);
lk_image *lk_emitter_cell_get_contents(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_contents_rect(lk_emitter_cell *cell, lk_rect r);
lk_rect   lk_emitter_cell_get_contents_rect(const lk_emitter_cell *cell);
/* contents pixels per point at scale 1 (> 0, default 1): 2 draws a 2x image
   at its point size */
lk_status lk_emitter_cell_set_contents_scale(lk_emitter_cell *cell, double scale);
double    lk_emitter_cell_get_contents_scale(const lk_emitter_cell *cell);
/* as the layer's: how the particles' contents are sampled */
lk_status lk_emitter_cell_set_magnification_filter(lk_emitter_cell *cell, lk_contents_filter filter);
lk_contents_filter lk_emitter_cell_get_magnification_filter(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_minification_filter(lk_emitter_cell *cell, lk_contents_filter filter);
lk_contents_filter lk_emitter_cell_get_minification_filter(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_minification_filter_bias(lk_emitter_cell *cell, double bias);
double    lk_emitter_cell_get_minification_filter_bias(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_autoreverses(lk_emitter_cell *cell, bool autoreverses);
bool      lk_emitter_cell_get_autoreverses(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_fill_mode(lk_emitter_cell *cell, lk_fill_mode mode);
lk_fill_mode lk_emitter_cell_get_fill_mode(const lk_emitter_cell *cell);
/* numbers (finite; birth_rate, lifetime, duration, repeat_count and
   repeat_duration not negative; repeat_count and repeat_duration exclusive).
   Angles in radians: longitude in the xy plane from +x, clockwise on screen;
   latitude out of that plane toward +z; emission_range the cone's full angle.
   Speeds per second. */
lk_status lk_emitter_cell_set_birth_rate(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_birth_rate(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_lifetime(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_lifetime(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_lifetime_range(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_lifetime_range(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_emission_latitude(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_emission_latitude(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_emission_longitude(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_emission_longitude(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_emission_range(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_emission_range(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_velocity(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_velocity(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_velocity_range(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_velocity_range(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_x_acceleration(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_x_acceleration(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_y_acceleration(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_y_acceleration(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_z_acceleration(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_z_acceleration(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_scale(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_scale(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_scale_range(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_scale_range(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_scale_speed(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_scale_speed(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_spin(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_spin(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_spin_range(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_spin_range(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_red_range(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_red_range(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_green_range(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_green_range(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_blue_range(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_blue_range(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_alpha_range(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_alpha_range(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_red_speed(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_red_speed(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_green_speed(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_green_speed(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_blue_speed(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_blue_speed(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_alpha_speed(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_alpha_speed(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_begin_time(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_begin_time(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_duration(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_duration(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_speed(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_speed(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_time_offset(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_time_offset(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_repeat_count(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_repeat_count(const lk_emitter_cell *cell);
lk_status lk_emitter_cell_set_repeat_duration(lk_emitter_cell *cell, double v);
double    lk_emitter_cell_get_repeat_duration(const lk_emitter_cell *cell);

/* ------------------------------------------------------------------------ */
/* Time: transactions, actions, animations (S2-S5)                           */

/* Timing functions (S4.7). Named ones are shared (+0, never freed). */
typedef enum lk_timing_name {
    LK_TIMING_LINEAR = 0, LK_TIMING_EASE_IN, LK_TIMING_EASE_OUT, LK_TIMING_EASE_IN_EASE_OUT, LK_TIMING_DEFAULT
} lk_timing_name;
lk_timing_function *lk_timing_function_named(lk_timing_name name);
/* control points (c1x, c1y), (c2x, c2y); x within 0..1, y free (overshoot) */
lk_timing_function *lk_timing_function_create(double c1x, double c1y, double c2x, double c2y);
double              lk_timing_function_evaluate(const lk_timing_function *fn, double t);
/* index 0..3: (0,0), c1, c2, (1,1) */
lk_point            lk_timing_function_get_control_point(const lk_timing_function *fn, size_t index);

/* Transactions (S2). Changes on a thread with none open go into an implicit
   transaction, committed when the thread's run loop iterates
   (lk_display_dispatch, lk_display_run, lk_display_render_frame_at) or by
   lk_transaction_flush. A thread that does neither shows nothing new. */
void      lk_transaction_begin(void);
lk_status lk_transaction_commit(void);
void      lk_transaction_flush(void);
void      lk_transaction_set_animation_duration(double seconds);
double    lk_transaction_get_animation_duration(void);       /* 0.25 unless set */
/* NULL: each action's own curve (the default one for implicit animations) */
void      lk_transaction_set_animation_timing_function(lk_timing_function *fn);
lk_timing_function *lk_transaction_get_animation_timing_function(void);
void      lk_transaction_set_disable_actions(bool disable);
bool      lk_transaction_get_disable_actions(void);
/* runs once on this thread's run loop after every animation added in the
   transaction (and its nested ones) has finished or been removed (S2.4);
   setting another in the same transaction adds it (both run, in the order
   set; NULL adds nothing) */
void      lk_transaction_set_completion(void (*fn)(void *user_data), void *user_data);
/* values by key, inherited by nested transactions (S2.3). Core Animation's
   keys name the settings above: "animationDuration" (a number),
   "disableActions" (a bool), "animationTimingFunction" (the name of a named
   curve, "easeIn"..., or none); "completionBlock" is refused (a callback:
   lk_transaction_set_completion). Other keys hold any value. */
lk_status lk_transaction_set_value(const char *key, lk_value value);
lk_status lk_transaction_get_value(const char *key, lk_value *out);

/* Actions (S3) */
typedef struct lk_layer_delegate {
    uint32_t struct_size;  /* sizeof(lk_layer_delegate) */
    /* return NULL to continue the search, lk_action_null() to stop it,
       or an action (+0: the library retains what it keeps) */
    lk_action *(*action_for_key)(lk_layer *layer, const char *event, void *user_data);
    void (*layout_sublayers)(lk_layer *layer, void *user_data);
    void (*draw)(lk_layer *layer, lk_canvas *canvas, void *user_data);
} lk_layer_delegate;
/* the delegate struct is copied; destroy(user_data) runs when it is replaced
   or the layer goes. NULL delegate removes it. */
lk_status  lk_layer_set_delegate(lk_layer *layer, const lk_layer_delegate *delegate,
                                 void *user_data, void (*destroy)(void *user_data));
lk_action *lk_action_null(void);                                   /* +0, shared */
lk_action *lk_action_create(void (*run)(const char *event, lk_layer *layer, void *user_data),
                            void *user_data, void (*destroy)(void *user_data));
/* +0: lives until this thread's transaction commits unless retained (a
   layer retains the actions set on it) */
lk_action *lk_animation_as_action(lk_animation *animation);
/* NULL removes. An animation action is checked as adding it for the event
   would check it (its key path, or the event's when it has none; values,
   keyframes) and refused when the layer would refuse it; one a delegate or
   a kind's default gives that cannot be added is not run, with a warning
   on stderr (the property still changes). */
lk_status  lk_layer_set_action(lk_layer *layer, const char *event, lk_action *action);
lk_status  lk_layer_set_style_action(lk_layer *layer, const char *event, lk_action *action);
/* runs the search of S3.1 (also when actions are disabled); NULL when it
   finds no action or the null action */
lk_action *lk_layer_copy_action_for_key(lk_layer *layer, const char *event);

/* Kinds of layer, as created by lk_layer_create, lk_shape_layer_create ... */
typedef enum lk_layer_kind {
    LK_LAYER_KIND_LAYER = 0,
    LK_LAYER_KIND_SHAPE = 1,
    LK_LAYER_KIND_TEXT = 2,
    LK_LAYER_KIND_GRADIENT = 3,
    LK_LAYER_KIND_EMITTER = 4,
    LK_LAYER_KIND_REPLICATOR = 5,
    LK_LAYER_KIND_TRANSFORM = 6,
    LK_LAYER_KIND_SCROLL = 7,
    LK_LAYER_KIND_TILED = 8
} lk_layer_kind;
lk_layer_kind lk_layer_get_kind(const lk_layer *layer); /* LK_LAYER_KIND_LAYER on error */
/* S3.1 step 4, Core Animation's defaultActionForKey: per kind: every layer of
   the kind finds this action for the event after its delegate, its actions
   and its style, before the built-in one (S3.3). lk_action_null() turns the
   built-in animation off for the kind; NULL removes the registration. Shared
   by all threads; an animation action is kept as a copy. */
lk_status lk_layer_kind_set_default_action(lk_layer_kind kind, const char *event, lk_action *action);

/* Layout (CALayer's setNeedsLayout / layoutIfNeeded / layoutSublayers).
   A layer marked as needing layout has its delegate's layout_sublayers
   called before the outermost commit of the thread's transaction, parents
   before sublayers, then its "onLayout" action runs (S3.4): below a layer,
   the sublayers it has once its layout ran (one it removed is not laid
   out). A change of bounds size marks the layer; adding or removing
   sublayers marks the superlayer. */
lk_status lk_layer_set_needs_layout(lk_layer *layer);
bool      lk_layer_get_needs_layout(const lk_layer *layer);
/* lays out now: from the highest marked ancestor down through every marked
   layer beneath it */
lk_status lk_layer_layout_if_needed(lk_layer *layer);
/* calls the delegate's layout_sublayers now, marked or not */
lk_status lk_layer_layout_sublayers(lk_layer *layer);

/* Animations (S4) */
typedef enum lk_calculation_mode {
    LK_CALCULATION_LINEAR = 0, LK_CALCULATION_DISCRETE, LK_CALCULATION_PACED,
    LK_CALCULATION_CUBIC, LK_CALCULATION_CUBIC_PACED
} lk_calculation_mode;
typedef enum lk_rotation_mode {
    LK_ROTATION_NONE = 0, LK_ROTATION_AUTO, LK_ROTATION_AUTO_REVERSE
} lk_rotation_mode;
typedef enum lk_animation_kind {
    LK_ANIMATION_BASIC = 0, LK_ANIMATION_KEYFRAME, LK_ANIMATION_SPRING, LK_ANIMATION_GROUP,
    LK_ANIMATION_TRANSITION
} lk_animation_kind;
typedef enum lk_transition_type {
    LK_TRANSITION_FADE = 0, LK_TRANSITION_MOVE_IN, LK_TRANSITION_PUSH, LK_TRANSITION_REVEAL
} lk_transition_type;
/* the side the motion starts from */
typedef enum lk_transition_subtype {
    LK_TRANSITION_FROM_RIGHT = 0, LK_TRANSITION_FROM_LEFT, LK_TRANSITION_FROM_TOP, LK_TRANSITION_FROM_BOTTOM
} lk_transition_subtype;

lk_animation *lk_basic_animation_create(const char *key_path);
lk_animation *lk_keyframe_animation_create(const char *key_path);
/* from/to/by as for basic animations (S4.8); duration defaults to the
   settling duration */
lk_animation *lk_spring_animation_create(const char *key_path);
lk_animation *lk_animation_group_create(void);
/* a transition (S4.13): added to a layer in the transaction that changes it,
   it animates the layer's appearance before the change (with sublayers)
   against the appearance after it. Always stored under the key
   "transition" (the key given to add is ignored); cannot be in a group. */
lk_animation *lk_transition_create(void);
lk_animation_kind lk_animation_get_kind(const lk_animation *a);
lk_animation *lk_animation_copy(const lk_animation *animation);
lk_status   lk_animation_set_key_path(lk_animation *a, const char *key_path);
const char *lk_animation_get_key_path(const lk_animation *a);
lk_status lk_animation_set_begin_time(lk_animation *a, double t);
double    lk_animation_get_begin_time(const lk_animation *a);
lk_status lk_animation_set_duration(lk_animation *a, double d);
double    lk_animation_get_duration(const lk_animation *a);
lk_status lk_animation_set_speed(lk_animation *a, double speed);
double    lk_animation_get_speed(const lk_animation *a);
lk_status lk_animation_set_time_offset(lk_animation *a, double offset);
double    lk_animation_get_time_offset(const lk_animation *a);
lk_status lk_animation_set_repeat_count(lk_animation *a, double count);
double    lk_animation_get_repeat_count(const lk_animation *a);
lk_status lk_animation_set_repeat_duration(lk_animation *a, double d);
double    lk_animation_get_repeat_duration(const lk_animation *a);
lk_status lk_animation_set_autoreverses(lk_animation *a, bool autoreverses);
bool      lk_animation_get_autoreverses(const lk_animation *a);
lk_status lk_animation_set_fill_mode(lk_animation *a, lk_fill_mode mode);
lk_fill_mode lk_animation_get_fill_mode(const lk_animation *a);
/* NULL = linear for explicit animations (S4.7) */
lk_status lk_animation_set_timing_function(lk_animation *a, lk_timing_function *fn);
lk_timing_function *lk_animation_get_timing_function(const lk_animation *a);
lk_status lk_animation_set_removed_on_completion(lk_animation *a, bool removed);
bool      lk_animation_get_removed_on_completion(const lk_animation *a);
lk_status lk_animation_set_additive(lk_animation *a, bool additive);
bool      lk_animation_get_additive(const lk_animation *a);
lk_status lk_animation_set_cumulative(lk_animation *a, bool cumulative);
bool      lk_animation_get_cumulative(const lk_animation *a);
/* from / to / by (S4.8): lk_value_none() clears; at most two may be set when added */
lk_status lk_animation_set_from_value(lk_animation *a, lk_value v);
lk_status lk_animation_set_to_value(lk_animation *a, lk_value v);
lk_status lk_animation_set_by_value(lk_animation *a, lk_value v);
lk_status lk_animation_get_from_value(const lk_animation *a, lk_value *out);
lk_status lk_animation_get_to_value(const lk_animation *a, lk_value *out);
lk_status lk_animation_get_by_value(const lk_animation *a, lk_value *out);
lk_status lk_animation_set_user_value(lk_animation *a, const char *key, lk_value v);
lk_status lk_animation_get_user_value(const lk_animation *a, const char *key, lk_value *out);

/* keyframes (S4.10). Arrays are copied; count 0 clears. Checked when the
   animation is added: the error names the array and the index. */
lk_status lk_animation_set_values(lk_animation *a, const lk_value *values, size_t count);
size_t    lk_animation_get_values(const lk_animation *a, lk_value *values, size_t capacity);
lk_status lk_animation_set_key_times(lk_animation *a, const double *times, size_t count);
size_t    lk_animation_get_key_times(const lk_animation *a, double *times, size_t capacity);
/* the animation keeps its own copy of the path; NULL clears. With a path,
   values are ignored: each line or curve is one keyframe segment. */
lk_status lk_animation_set_path(lk_animation *a, lk_path *path);
/* a new copy of the animation's path (+1), NULL when it has none */
lk_path  *lk_animation_copy_path(const lk_animation *a);
/* one per segment (values - 1); NULL entries are linear */
lk_status lk_animation_set_timing_functions(lk_animation *a, lk_timing_function *const *fns, size_t count);
lk_status lk_animation_set_calculation_mode(lk_animation *a, lk_calculation_mode m);
lk_calculation_mode lk_animation_get_calculation_mode(const lk_animation *a);
lk_status lk_animation_set_rotation_mode(lk_animation *a, lk_rotation_mode m);
lk_rotation_mode lk_animation_get_rotation_mode(const lk_animation *a);
/* Kochanek-Bartels parameters for the cubic modes, one per value (0 = Catmull-Rom) */
lk_status lk_animation_set_tension_values(lk_animation *a, const double *v, size_t count);
lk_status lk_animation_set_continuity_values(lk_animation *a, const double *v, size_t count);
lk_status lk_animation_set_bias_values(lk_animation *a, const double *v, size_t count);

/* springs (S4.11): mass (1) and stiffness (100) > 0, damping (10) >= 0,
   initial_velocity (0) in distances per second */
lk_status lk_animation_set_mass(lk_animation *a, double v);
double    lk_animation_get_mass(const lk_animation *a);
lk_status lk_animation_set_stiffness(lk_animation *a, double v);
double    lk_animation_get_stiffness(const lk_animation *a);
lk_status lk_animation_set_damping(lk_animation *a, double v);
double    lk_animation_get_damping(const lk_animation *a);
lk_status lk_animation_set_initial_velocity(lk_animation *a, double v);
double    lk_animation_get_initial_velocity(const lk_animation *a);
/* the time after which the motion stays within 0.08% of the distance (Apple's figures) */
double    lk_animation_get_settling_duration(const lk_animation *a);

/* groups (S4.12): the group keeps copies of the children; children without
   a duration last as long as the group. Groups nest at most 32 deep; a
   transition cannot be a child (refused). */
lk_status lk_animation_set_animations(lk_animation *group, lk_animation *const *children, size_t count);
/* the group's children (+0), up to capacity; returns the count */
size_t    lk_animation_get_animations(const lk_animation *group, lk_animation **children, size_t capacity);

/* transitions (S4.13): type (fade), subtype (from left), and the part of
   the transition shown: start_progress (0) <= end_progress (1), in 0...1 */
lk_status lk_animation_set_transition_type(lk_animation *a, lk_transition_type t);
lk_transition_type lk_animation_get_transition_type(const lk_animation *a);
lk_status lk_animation_set_transition_subtype(lk_animation *a, lk_transition_subtype s);
lk_transition_subtype lk_animation_get_transition_subtype(const lk_animation *a);
lk_status lk_animation_set_start_progress(lk_animation *a, double p);
double    lk_animation_get_start_progress(const lk_animation *a);
lk_status lk_animation_set_end_progress(lk_animation *a, double p);
double    lk_animation_get_end_progress(const lk_animation *a);

typedef struct lk_animation_delegate {
    uint32_t struct_size;  /* sizeof(lk_animation_delegate) */
    void (*did_start)(lk_animation *animation, void *user_data);
    void (*did_stop)(lk_animation *animation, bool finished, void *user_data);
} lk_animation_delegate;
/* callbacks run on the run loop of the thread that added the animation, with
   the added copy; copies share the delegate; destroy(user_data) runs when
   the last copy goes */
lk_status lk_animation_set_delegate(lk_animation *a, const lk_animation_delegate *d,
                                    void *user_data, void (*destroy)(void *user_data));

/* adds a copy (S4.3); key may be NULL. Replacing an animation under the same
   key stops the old one with finished = false. */
lk_status     lk_layer_add_animation(lk_layer *layer, lk_animation *a, const char *key);
/* the added copy (+0), with its duration and begin time resolved once committed */
lk_animation *lk_layer_get_animation(const lk_layer *layer, const char *key);
lk_status     lk_layer_remove_animation(lk_layer *layer, const char *key);
void          lk_layer_remove_all_animations(lk_layer *layer);
/* fills keys (valid until the animations change) up to capacity; returns the count */
size_t        lk_layer_get_animation_keys(const lk_layer *layer, const char **keys, size_t capacity);

/* Presentation (S5.1): a new reference to a read-only copy of the layer's
   subtree as committed (as drawn) with every active animation applied now
   (or at media_time); masks are copies too. The copy has no superlayer but
   keeps where its ancestors placed it (hit testing, converting to NULL).
   NULL if the layer was never committed. */
lk_layer *lk_layer_copy_presentation(lk_layer *layer);
lk_layer *lk_layer_copy_presentation_at(lk_layer *layer, double media_time);
/* the model layer of a presentation copy (+0); a model layer returns itself */
lk_layer *lk_layer_get_model_layer(const lk_layer *layer);
/* S4.2: t in from's local time to to's; NULL = media time */
double    lk_layer_convert_time(const lk_layer *from, double t, const lk_layer *to);

/* ------------------------------------------------------------------------ */
/* Displays                                                                  */

typedef struct lk_display_options {
    uint32_t    struct_size;    /* sizeof(lk_display_options) */
    const char *backend;        /* "auto" (default), "drm", "software", "gles", ... */
    const char *device;         /* e.g. "/dev/dri/card0"; NULL = first usable */
    const char *connector;      /* e.g. "HDMI-A-1"; NULL = first connected */
    uint32_t    width, height;  /* 0 = preferred mode / backend default (each on its own) */
    uint32_t    rotation;       /* 0, 90, 180, 270 */
    bool        manual_clock;   /* frames only on lk_display_render_frame_at */
} lk_display_options;

/* NULL options = defaults. The backend is chosen by options->backend (NULL
   or "" = not chosen), else $LAYERKIT_BACKEND, else "auto". */
lk_display *lk_display_open(const lk_display_options *options);
const char *lk_display_get_backend_name(const lk_display *display);
lk_size     lk_display_get_size(const lk_display *display);
double      lk_display_get_refresh_rate(const lk_display *display);
/* the display retains its root; NULL detaches it */
lk_status   lk_display_set_root_layer(lk_display *display, lk_layer *root);
lk_layer   *lk_display_get_root_layer(const lk_display *display);
/* renders the layer tree as it is at media_time; for a display opened with
   manual_clock (one with a render thread refuses it: LK_ERROR_STATE) */
lk_status   lk_display_render_frame_at(lk_display *display, double media_time);
/* the last frame, RGBA8 straight alpha, stride in bytes (>= width * 4) */
lk_status   lk_display_read_pixels(lk_display *display, void *rgba8, size_t stride);
lk_status   lk_display_write_png(lk_display *display, const char *file_name);
/* closing releases the root layer; NULL is allowed */
void        lk_display_close(lk_display *display);

/* The run loop (S2.2, S5): each thread has one. It delivers that thread's
   callbacks (completions, animation delegates, display links) and commits
   its implicit transaction. lk_display_get_fd is poll()-able (POLLIN) when
   the calling thread has work waiting (an implicit transaction to commit
   counts); lk_display_dispatch runs one iteration, waiting up to timeout_ms
   (-1: forever; below -1 is refused); lk_display_run iterates until
   lk_display_stop (callable from any thread or callback), which ends the
   innermost run on each thread running the display, or, with none under
   way, the next one; closing the display ends them too, and a dispatch
   under way (LK_ERROR_STATE). */
int         lk_display_get_fd(const lk_display *display);
lk_status   lk_display_dispatch(lk_display *display, int timeout_ms);
lk_status   lk_display_run(lk_display *display);
void        lk_display_stop(lk_display *display);

/* Display links (S5.3): a callback on the creating thread's run loop once
   per displayed frame with the frame's timestamp and target time (when the
   next call is due). A preferred rate becomes the whole number of frames
   between calls whose rate is nearest it, a tie taking the faster (40 fps
   on 60 Hz: every 2nd frame, 30 fps; 45: every frame). At
   most one call waits on the run loop, with the latest frame's times: a
   thread that does not dispatch gets one call when it does, not one per
   frame missed; a paused or invalidated link gets none, and a paused one
   keeps no render thread awake. */
lk_display_link *lk_display_link_create(lk_display *display,
        void (*callback)(lk_display_link *link, double timestamp, double target_timestamp,
                         void *user_data),
        void *user_data);
lk_status lk_display_link_set_paused(lk_display_link *link, bool paused);
lk_status lk_display_link_set_preferred_fps(lk_display_link *link, double fps); /* 0 = display rate */
void      lk_display_link_invalidate(lk_display_link *link); /* then lk_release */

/* Frame statistics since open. Set struct_size to sizeof(lk_display_stats);
   a program built against an older, shorter lk_display_stats (the first
   ends with render_seconds_total: 32 bytes) gets the fields it has and
   nothing is written past them. */
typedef struct lk_display_stats {
    uint32_t struct_size;
    uint64_t frames_presented;
    uint64_t frames_missed;        /* vblanks with no new frame while one was due */
    double   render_seconds_total; /* time the render side spent building and drawing frames */
    double   last_frame_time;      /* media time of the last frame drawn (0 before the first) */
    /* layers whose shape, text or gradient was rasterized (not reused from
       the cache) in this display's frames */
    uint64_t content_rasterizations;
    /* frames whose layer tree went past the display list's limits (500,000
       drawing ops, 4,000,000 layers visited and particles listed, 100,000
       layers in one 3D space: replicators nested in replicators multiply
       their instances) and were drawn without the rest of it; the first
       such frame also writes a warning to stderr */
    uint64_t frames_truncated;
} lk_display_stats;
lk_status lk_display_get_stats(const lk_display *display, lk_display_stats *out);

/* What happened to the output (DRM master lost to a VT switch, a connector
   unplugged or plugged back with another mode). While PAUSED no frames are
   drawn (lk_display_render_frame_at succeeds without drawing, display links
   do not fire) and the layer tree is kept; after RESUMED the next frame is
   drawn whole. After RESIZED lk_display_get_size says the new size; the
   root layer is left as it is (the program lays it out again). */
typedef enum lk_display_event {
    LK_DISPLAY_EVENT_PAUSED = 1,
    LK_DISPLAY_EVENT_RESUMED = 2,
    LK_DISPLAY_EVENT_RESIZED = 3
} lk_display_event;
/* The callback runs on the run loop of the thread that set it (never on the
   render thread); detail is a short reason from the backend, valid during
   the call, or NULL. When the callback is replaced or removed (a NULL
   callback; user_data and destroy are then not kept) or the display is
   closed, destroy(user_data) is called when given. */
lk_status lk_display_set_event_callback(lk_display *display,
        void (*callback)(lk_display *display, lk_display_event event, const char *detail,
                         void *user_data),
        void *user_data, void (*destroy)(void *user_data));

/* ------------------------------------------------------------------------ */
/* What layers draw: shape, text and gradient layers (S7.1-S7.3), custom     */
/* drawing into a canvas, snapshots                                          */

/* A special layer's own properties are also reachable by key path with Core
   Animation's names ("fillColor", "strokeEnd", "fontSize", "startPoint", ...);
   enumerations go by key path as strings ("even-odd", "round", "center",
   "conic"). Lists (colors, locations, lineDashPattern) have typed calls;
   their elements are key paths of their own ("colors.1", "locations.0"),
   which explicit animations can animate. Calling a kind's function on a
   layer of another kind is an error. Everything a kind draws is drawn over
   the layer's contents, under its sublayers (S6.1). */
lk_layer *lk_shape_layer_create(void);
lk_layer *lk_text_layer_create(void);
lk_layer *lk_gradient_layer_create(void);
lk_layer *lk_emitter_layer_create(void);
lk_layer *lk_replicator_layer_create(void);

/* Shape layer (S7.1): the path in the layer's coordinates, filled, then
   stroked. path, colours, line_width, miter_limit, line_dash_phase,
   stroke_start and stroke_end animate; paths with the same elements
   interpolate point by point, others switch halfway. */
typedef enum lk_fill_rule { LK_FILL_RULE_NON_ZERO = 0, LK_FILL_RULE_EVEN_ODD } lk_fill_rule;  /* "non-zero", "even-odd" */
typedef enum lk_line_cap { LK_LINE_CAP_BUTT = 0, LK_LINE_CAP_ROUND, LK_LINE_CAP_SQUARE } lk_line_cap;
typedef enum lk_line_join { LK_LINE_JOIN_MITER = 0, LK_LINE_JOIN_ROUND, LK_LINE_JOIN_BEVEL } lk_line_join;
/* the layer keeps a (frozen) copy of path; NULL removes it. The getter's
   path is +0, and cannot be changed (Paths, above). */
lk_status lk_shape_layer_set_path(lk_layer *layer, lk_path *path);
lk_path  *lk_shape_layer_get_path(const lk_layer *layer);
/* opaque black by default; a clear colour fills nothing (as does the key
   path "fillColor" set to lk_value_none()) */
lk_status lk_shape_layer_set_fill_color(lk_layer *layer, lk_color c);
lk_color  lk_shape_layer_get_fill_color(const lk_layer *layer);   /* clear when none */
lk_status lk_shape_layer_set_fill_rule(lk_layer *layer, lk_fill_rule rule);
lk_fill_rule lk_shape_layer_get_fill_rule(const lk_layer *layer);
/* no stroke by default */
lk_status lk_shape_layer_set_stroke_color(lk_layer *layer, lk_color c);
lk_color  lk_shape_layer_get_stroke_color(const lk_layer *layer); /* clear when none */
lk_status lk_shape_layer_set_line_width(lk_layer *layer, double width);        /* 1 */
double    lk_shape_layer_get_line_width(const lk_layer *layer);
lk_status lk_shape_layer_set_line_cap(lk_layer *layer, lk_line_cap cap);
lk_line_cap lk_shape_layer_get_line_cap(const lk_layer *layer);
lk_status lk_shape_layer_set_line_join(lk_layer *layer, lk_line_join join);
lk_line_join lk_shape_layer_get_line_join(const lk_layer *layer);
lk_status lk_shape_layer_set_miter_limit(lk_layer *layer, double limit);       /* 10 */
double    lk_shape_layer_get_miter_limit(const lk_layer *layer);
/* lengths alternately painted and skipped; count 0 (lengths may be NULL) is solid */
lk_status lk_shape_layer_set_line_dash_pattern(lk_layer *layer, const double *lengths, size_t count);
/* copies at most capacity lengths into out (may be NULL); returns the count */
size_t    lk_shape_layer_get_line_dash_pattern(const lk_layer *layer, double *out, size_t capacity);
lk_status lk_shape_layer_set_line_dash_phase(lk_layer *layer, double phase);
double    lk_shape_layer_get_line_dash_phase(const lk_layer *layer);
/* the stroked part of the path, as fractions of its length, clamped to 0..1 */
lk_status lk_shape_layer_set_stroke_start(lk_layer *layer, double start);      /* 0 */
double    lk_shape_layer_get_stroke_start(const lk_layer *layer);
lk_status lk_shape_layer_set_stroke_end(lk_layer *layer, double end);          /* 1 */
double    lk_shape_layer_get_stroke_end(const lk_layer *layer);

/* Text layer (S7.2): UTF-8 laid out from the top of the bounds with
   fontconfig, FreeType, HarfBuzz and fribidi (through Pango), so complex
   scripts and right-to-left text are shaped. font_size and foreground_color
   animate. */
typedef enum lk_text_alignment {
    LK_TEXT_ALIGNMENT_NATURAL = 0,  /* "natural": each paragraph from its own start (right for RTL) */
    LK_TEXT_ALIGNMENT_LEFT,         /* "left" */
    LK_TEXT_ALIGNMENT_RIGHT,        /* "right" */
    LK_TEXT_ALIGNMENT_CENTER,       /* "center" */
    LK_TEXT_ALIGNMENT_JUSTIFIED     /* "justified" */
} lk_text_alignment;
typedef enum lk_truncation_mode {
    LK_TRUNCATION_NONE = 0, LK_TRUNCATION_START, LK_TRUNCATION_MIDDLE, LK_TRUNCATION_END
} lk_truncation_mode;
/* NULL removes the string. The getter's string stays valid until it changes. */
lk_status lk_text_layer_set_string(lk_layer *layer, const char *utf8);
const char *lk_text_layer_get_string(const lk_layer *layer);     /* NULL when none */
/* a fontconfig family, optionally with style words: "DejaVu Sans",
   "DejaVu Serif Bold". Default "DejaVu Sans" (NULL sets it back, as nil
   does in Core Animation); a missing family falls back to the closest
   installed one. */
lk_status lk_text_layer_set_font(lk_layer *layer, const char *name);
const char *lk_text_layer_get_font(const lk_layer *layer);
lk_status lk_text_layer_set_font_size(lk_layer *layer, double size);          /* 36 */
double    lk_text_layer_get_font_size(const lk_layer *layer);
lk_status lk_text_layer_set_foreground_color(lk_layer *layer, lk_color c);    /* opaque white */
lk_color  lk_text_layer_get_foreground_color(const lk_layer *layer);
lk_status lk_text_layer_set_alignment_mode(lk_layer *layer, lk_text_alignment mode);
lk_text_alignment lk_text_layer_get_alignment_mode(const lk_layer *layer);
/* wrapped: lines break at the bounds' width; otherwise one line per paragraph */
lk_status lk_text_layer_set_wrapped(lk_layer *layer, bool wrapped);
bool      lk_text_layer_get_wrapped(const lk_layer *layer);
/* text too wide for the bounds (or, wrapped, too tall) is cut with an ellipsis */
lk_status lk_text_layer_set_truncation_mode(lk_layer *layer, lk_truncation_mode mode);
lk_truncation_mode lk_text_layer_get_truncation_mode(const lk_layer *layer);

/* Gradient layer (S7.3), filling the bounds. Points are in unit
   coordinates of the bounds. Axial: from start to end. Radial: centred at
   start, reaching end's offset along each axis (an ellipse). Conic: around
   start, angle 0 towards end, growing clockwise on screen. No colours:
   nothing drawn; no locations (or as many as the colours not given): even
   spread. All properties animate; lists element by element when their
   lengths agree. */
typedef enum lk_gradient_type {
    LK_GRADIENT_AXIAL = 0, LK_GRADIENT_RADIAL, LK_GRADIENT_CONIC   /* "axial", "radial", "conic" */
} lk_gradient_type;
lk_status lk_gradient_layer_set_colors(lk_layer *layer, const lk_color *colors, size_t count);
size_t    lk_gradient_layer_get_colors(const lk_layer *layer, lk_color *out, size_t capacity);
/* within 0..1, not decreasing; count 0 removes them. Animated ones may
   leave 0..1 or cross (locations.N): drawn in order, the part over 0..1 */
lk_status lk_gradient_layer_set_locations(lk_layer *layer, const double *locations, size_t count);
size_t    lk_gradient_layer_get_locations(const lk_layer *layer, double *out, size_t capacity);
lk_status lk_gradient_layer_set_start_point(lk_layer *layer, lk_point p);     /* (0.5, 0) */
lk_point  lk_gradient_layer_get_start_point(const lk_layer *layer);
lk_status lk_gradient_layer_set_end_point(lk_layer *layer, lk_point p);       /* (0.5, 1) */
lk_point  lk_gradient_layer_get_end_point(const lk_layer *layer);
lk_status lk_gradient_layer_set_type(lk_layer *layer, lk_gradient_type type);
lk_gradient_type lk_gradient_layer_get_type(const lk_layer *layer);

/* Emitter layer (S7.4, CAEmitterLayer): particles of its cells, born on the
   emitter shape centred on emitter_position (layer coordinates), drawn
   over the layer's background and contents, under its sublayers, each as
   its cell's contents (contents_rect) scaled, turned and multiplied by its
   colour. A cell without contents draws nothing. The simulation runs on
   the render side from the layer's first commit, in the layer's local time,
   and is deterministic: the same seed and frame times give the same
   particles, at any frame rate. The multipliers (birth_rate, lifetime,
   velocity, scale, spin; 1) and cell values apply to particles born after
   a change. Cells are reached by name with key paths on the layer
   ("emitterCells.rocket.emitterCells.spark.birthRate"): setting one
   changes that cell; an explicit animation on one changes the simulation
   while it runs. A cell changed directly (lk_emitter_cell_set_*) reaches
   the layer when the layer next commits. */
typedef enum lk_emitter_shape {
    LK_EMITTER_SHAPE_POINT = 0, LK_EMITTER_SHAPE_LINE, LK_EMITTER_SHAPE_RECTANGLE,
    LK_EMITTER_SHAPE_CIRCLE, LK_EMITTER_SHAPE_CUBOID, LK_EMITTER_SHAPE_SPHERE
} lk_emitter_shape;   /* "point", "line", "rectangle", "circle", "cuboid", "sphere" */
typedef enum lk_emitter_mode {
    LK_EMITTER_MODE_POINTS = 0, LK_EMITTER_MODE_OUTLINE, LK_EMITTER_MODE_SURFACE, LK_EMITTER_MODE_VOLUME
} lk_emitter_mode;    /* "points", "outline", "surface", "volume" (the default) */
typedef enum lk_emitter_render_mode {
    LK_EMITTER_RENDER_UNORDERED = 0, LK_EMITTER_RENDER_OLDEST_FIRST, LK_EMITTER_RENDER_OLDEST_LAST,
    LK_EMITTER_RENDER_BACK_TO_FRONT, LK_EMITTER_RENDER_ADDITIVE
} lk_emitter_render_mode; /* "unordered", "oldestFirst", "oldestLast", "backToFront", "additive" */
/* the cells are retained, not copied; count 0 removes them */
lk_status lk_emitter_layer_set_cells(lk_layer *layer, lk_emitter_cell *const *cells, size_t count);
size_t    lk_emitter_layer_get_cell_count(const lk_layer *layer);
lk_emitter_cell *lk_emitter_layer_get_cell(const lk_layer *layer, size_t index); /* +0 */
lk_status lk_emitter_layer_set_emitter_position(lk_layer *layer, lk_point p);    /* (0, 0) */
lk_point  lk_emitter_layer_get_emitter_position(const lk_layer *layer);
lk_status lk_emitter_layer_set_emitter_z_position(lk_layer *layer, double z);
double    lk_emitter_layer_get_emitter_z_position(const lk_layer *layer);
lk_status lk_emitter_layer_set_emitter_size(lk_layer *layer, lk_size size);      /* not negative */
lk_size   lk_emitter_layer_get_emitter_size(const lk_layer *layer);
lk_status lk_emitter_layer_set_emitter_depth(lk_layer *layer, double depth);     /* not negative */
double    lk_emitter_layer_get_emitter_depth(const lk_layer *layer);
lk_status lk_emitter_layer_set_emitter_shape(lk_layer *layer, lk_emitter_shape shape);
lk_emitter_shape lk_emitter_layer_get_emitter_shape(const lk_layer *layer);
lk_status lk_emitter_layer_set_emitter_mode(lk_layer *layer, lk_emitter_mode mode);
lk_emitter_mode lk_emitter_layer_get_emitter_mode(const lk_layer *layer);
lk_status lk_emitter_layer_set_render_mode(lk_layer *layer, lk_emitter_render_mode mode);
lk_emitter_render_mode lk_emitter_layer_get_render_mode(const lk_layer *layer);
lk_status lk_emitter_layer_set_birth_rate(lk_layer *layer, double v);            /* not negative */
double    lk_emitter_layer_get_birth_rate(const lk_layer *layer);
lk_status lk_emitter_layer_set_lifetime(lk_layer *layer, double v);              /* not negative */
double    lk_emitter_layer_get_lifetime(const lk_layer *layer);
lk_status lk_emitter_layer_set_velocity(lk_layer *layer, double v);
double    lk_emitter_layer_get_velocity(const lk_layer *layer);
lk_status lk_emitter_layer_set_scale(lk_layer *layer, double v);
double    lk_emitter_layer_get_scale(const lk_layer *layer);
lk_status lk_emitter_layer_set_spin(lk_layer *layer, double v);
double    lk_emitter_layer_get_spin(const lk_layer *layer);
lk_status lk_emitter_layer_set_seed(lk_layer *layer, uint32_t seed);            /* 0 */
uint32_t  lk_emitter_layer_get_seed(const lk_layer *layer);
/* false: particles flattened into the layer's plane; true: each keeps its z
   in the superlayer's 3D space (perspective applies; back_to_front sorts by
   depth there) */
lk_status lk_emitter_layer_set_preserves_depth(lk_layer *layer, bool preserves);
bool      lk_emitter_layer_get_preserves_depth(const lk_layer *layer);

/* Replicator layer (S7.5, CAReplicatorLayer): its sublayers drawn
   instance_count times (1; 0 draws none; at most 10000), instance n
   through instance_transform^n about the centre of the layer's bounds
   (not its anchor point: "applied relative to the center of this layer"),
   multiplied by instance_color plus n times the offsets (each clamped to
   0..1; the colour multiplies all the instance draws, shadows too), with
   its sublayers' time n x instance_delay behind (so one animation on a
   sublayer runs staggered across the instances). No layer is copied, and
   only instance 0 is hit by hit testing. All but preserves_depth animate. */
lk_status lk_replicator_layer_set_instance_count(lk_layer *layer, size_t count);
size_t    lk_replicator_layer_get_instance_count(const lk_layer *layer);
lk_status lk_replicator_layer_set_instance_delay(lk_layer *layer, double seconds);
double    lk_replicator_layer_get_instance_delay(const lk_layer *layer);
lk_status lk_replicator_layer_set_instance_transform(lk_layer *layer, lk_transform3d t);
lk_transform3d lk_replicator_layer_get_instance_transform(const lk_layer *layer);
lk_status lk_replicator_layer_set_instance_color(lk_layer *layer, lk_color c);   /* opaque white */
lk_color  lk_replicator_layer_get_instance_color(const lk_layer *layer);
lk_status lk_replicator_layer_set_instance_red_offset(lk_layer *layer, double v);
double    lk_replicator_layer_get_instance_red_offset(const lk_layer *layer);
lk_status lk_replicator_layer_set_instance_green_offset(lk_layer *layer, double v);
double    lk_replicator_layer_get_instance_green_offset(const lk_layer *layer);
lk_status lk_replicator_layer_set_instance_blue_offset(lk_layer *layer, double v);
double    lk_replicator_layer_get_instance_blue_offset(const lk_layer *layer);
lk_status lk_replicator_layer_set_instance_alpha_offset(lk_layer *layer, double v);
double    lk_replicator_layer_get_instance_alpha_offset(const lk_layer *layer);
/* false: instances flattened into the layer's plane; true: every instance's
   sublayers share the superlayer's 3D space, drawn back to front by depth */
lk_status lk_replicator_layer_set_preserves_depth(lk_layer *layer, bool preserves);
bool      lk_replicator_layer_get_preserves_depth(const lk_layer *layer);

/* Custom drawing. A layer marked for display whose delegate has a draw
   callback is drawn when its thread's transaction commits (before the
   commit, on that thread, as Core Animation's display pass): draw gets a
   canvas of bounds x contentsScale pixels, cleared to transparent, whose
   coordinates are the layer's own (bounds.origin at its top left), and
   what it draws becomes the layer's contents. It stays until the layer is
   marked again: lk_layer_set_needs_display, or a change of bounds size when
   needs_display_on_bounds_change is set. The canvas is valid only during
   the callback. */
lk_status lk_layer_set_needs_display(lk_layer *layer);
bool      lk_layer_get_needs_display(const lk_layer *layer);
/* draws now if marked (and the delegate draws). Called from draw callbacks,
   displays nest at most 16 deep on a thread: past that the layer stays
   marked for the next commit, with a warning on stderr */
lk_status lk_layer_display_if_needed(lk_layer *layer);
lk_status lk_layer_set_needs_display_on_bounds_change(lk_layer *layer, bool value);
bool      lk_layer_get_needs_display_on_bounds_change(const lk_layer *layer);

/* The canvas: premultiplied ARGB32 pixels (LK_PIXEL_FORMAT_ARGB32_PREMULTIPLIED)
   that the callback may also write directly, and helpers that draw with
   anti-aliasing in layer coordinates. */
uint32_t  lk_canvas_get_width(const lk_canvas *canvas);       /* pixels */
uint32_t  lk_canvas_get_height(const lk_canvas *canvas);
size_t    lk_canvas_get_stride(const lk_canvas *canvas);      /* bytes per row */
void     *lk_canvas_get_pixels(lk_canvas *canvas);
double    lk_canvas_get_scale(const lk_canvas *canvas);       /* the layer's contentsScale */
lk_rect   lk_canvas_get_bounds(const lk_canvas *canvas);      /* the layer's bounds */
lk_status lk_canvas_clear(lk_canvas *canvas, lk_color color);
lk_status lk_canvas_fill_path(lk_canvas *canvas, const lk_path *path, lk_color color, lk_fill_rule rule);
typedef struct lk_stroke_style {
    uint32_t      struct_size;    /* sizeof(lk_stroke_style) */
    double        line_width;
    lk_line_cap   line_cap;
    lk_line_join  line_join;
    double        miter_limit;
    const double *dash_lengths;   /* NULL: solid */
    size_t        dash_count;
    double        dash_phase;
} lk_stroke_style;
/* style NULL: width 1, butt caps, miter joins, limit 10, solid */
lk_status lk_canvas_stroke_path(lk_canvas *canvas, const lk_path *path, lk_color color,
                                const lk_stroke_style *style);
/* the image stretched into rect, filtered bilinearly, with opacity 0..1 */
lk_status lk_canvas_draw_image(lk_canvas *canvas, const lk_image *image, lk_rect rect, double opacity);
/* text laid out in rect as a text layer with these settings would lay it
   out (wrapped at the rect's width); font_name NULL is the default font,
   "" is refused as lk_text_layer_set_font refuses it */
lk_status lk_canvas_draw_text(lk_canvas *canvas, const char *utf8, const char *font_name, double font_size,
                              lk_color color, lk_text_alignment alignment, lk_rect rect);
/* rect filled as a gradient layer with these settings fills its bounds */
lk_status lk_canvas_draw_gradient(lk_canvas *canvas, lk_gradient_type type, const lk_color *colors,
                                  const double *locations, size_t count, lk_point start_point,
                                  lk_point end_point, lk_rect rect);

/* Snapshots (renderInContext): the layer and its sublayers as they are in
   the model (no animations), drawn by the software backend into a new
   image (+1) of bounds x scale pixels, the layer's bounds at its top left;
   the layer's own position and transform are left out, its sublayers'
   are applied. scale 0 means the layer's contentsScale. */
lk_image *lk_layer_render_to_image(lk_layer *layer, double scale);

/* ------------------------------------------------------------------------ */
/* Space: transform, scroll and tiled layers (S7.6-S7.8)                     */
/* docs/layers-3d.md describes them.                                         */

/* Transform layer (S6.3, S7.6): its sublayers share its 3D space, with
   those of any transform layers among them, and are drawn back to front
   by the depth of their centres instead of being flattened into its plane.
   Each of them still flattens its own sublayers. The transform layer's own
   background, contents, border, shadow, mask and masksToBounds are not
   drawn; its opacity multiplies each sublayer. */
lk_layer *lk_transform_layer_create(void);

/* Scroll layer (S7.7): scrolling sets bounds.origin, so it animates through
   the "bounds" action unless actions are disabled. scroll_mode
   ("scrollMode": "none", "vertically", "horizontally", "both") says which
   coordinates may change. */
lk_layer *lk_scroll_layer_create(void);
typedef enum lk_scroll_mode {
    LK_SCROLL_NONE = 0, LK_SCROLL_VERTICALLY, LK_SCROLL_HORIZONTALLY, LK_SCROLL_BOTH
} lk_scroll_mode;
lk_status      lk_scroll_layer_set_scroll_mode(lk_layer *layer, lk_scroll_mode mode);   /* both */
lk_scroll_mode lk_scroll_layer_get_scroll_mode(const lk_layer *layer);
/* bounds.origin becomes p along the axes scroll_mode allows */
lk_status lk_scroll_layer_scroll_to_point(lk_layer *layer, lk_point p);
/* the least scroll along the allowed axes that makes r visible: none when
   it is visible already; a rect larger than the bounds shows its top left */
lk_status lk_scroll_layer_scroll_to_rect(lk_layer *layer, lk_rect r);
/* On any layer: the nearest scroll layer above it (not the layer itself)
   scrolls so that p (in this layer's coordinates) is at its origin, or
   so that r (converted as a bounding box) is visible. Without one, nothing
   happens and LK_OK is returned, as in Core Animation. */
lk_status lk_layer_scroll_point(lk_layer *layer, lk_point p);
lk_status lk_layer_scroll_rect_to_visible(lk_layer *layer, lk_rect r);
/* the bounds less what scroll layers above clip away, in the layer's
   coordinates (zero size when nothing shows) */
lk_rect   lk_layer_get_visible_rect(const lk_layer *layer);

/* Tiled layer (S7.8): its delegate's draw is called per tile, on demand,
   for the tiles a frame shows (the bounds less what the output and the
   ancestors' masksToBounds clip away), at the level of detail of the
   layer's scale on the output. The canvas covers one tile:
   lk_canvas_get_bounds is the tile's rect in layer coordinates and
   lk_canvas_get_scale its pixels per point, so the delegate draws in layer
   coordinates as for any layer (drawing outside the tile is clipped).
   Tiles are drawn on the thread that renders (a display's render thread,
   or the caller of lk_display_render_frame_at), under the library's model
   lock; they are kept until invalidated by lk_layer_set_needs_display(_in_rect)
   or evicted, least recently used first, beyond tile_cache_limit bytes. */
lk_layer *lk_tiled_layer_create(void);
/* pixels, whole, 16..4096 a side; "tileSize" (256 x 256) */
lk_status lk_tiled_layer_set_tile_size(lk_layer *layer, lk_size size);
lk_size   lk_tiled_layer_get_tile_size(const lk_layer *layer);
/* levels at 2^e x contentsScale pixels per point, e from bias - levels + 1
   to bias: "levelsOfDetail" (1, within 1..30) and "levelsOfDetailBias" (0,
   within 0..30) */
lk_status lk_tiled_layer_set_levels_of_detail(lk_layer *layer, size_t levels);
size_t    lk_tiled_layer_get_levels_of_detail(const lk_layer *layer);
lk_status lk_tiled_layer_set_levels_of_detail_bias(lk_layer *layer, size_t bias);
size_t    lk_tiled_layer_get_levels_of_detail_bias(const lk_layer *layer);
/* LayerKit's: bytes of tile images kept ("tileCacheLimit", 64 MiB); the
   tiles one frame shows are kept even beyond it */
lk_status lk_tiled_layer_set_tile_cache_limit(lk_layer *layer, size_t bytes);
size_t    lk_tiled_layer_get_tile_cache_limit(const lk_layer *layer);
/* setNeedsDisplayInRect: a tiled layer redraws only the tiles meeting r;
   any other layer is marked for display whole */
lk_status lk_layer_set_needs_display_in_rect(lk_layer *layer, lk_rect r);

#ifdef __cplusplus
}
#endif

#endif /* LAYERKIT_H */
