/*
 * LayerKit render backend ABI: what a plugin implements.
 *
 * A plugin is a shared object loaded with dlopen(RTLD_NOW | RTLD_LOCAL |
 * RTLD_NODELETE) that exports one symbol, LK_BACKEND_ENTRY_SYMBOL, of type
 * lk_backend_entry_fn. The core calls it with the ABI version it speaks; the
 * plugin returns its function table (or NULL if it cannot serve that version).
 *
 * Backends see values, never layers: each frame the core hands over a display
 * list, an ordered array of drawing ops in output pixel space. Every struct
 * that crosses the boundary starts with abi_version/struct_size or is sized
 * by a field of its container, so that fields can be added at the end. The
 * core takes a table of its own ABI version only (a new version may add op
 * kinds and flags an older plugin would not know): a plugin is rebuilt for
 * each version, its older source compiling unchanged.
 *
 * Threading: the core calls one backend instance from one thread at a time.
 */
#ifndef LAYERKIT_BACKEND_H
#define LAYERKIT_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LK_BACKEND_ABI_VERSION 3u
#define LK_BACKEND_ENTRY_SYMBOL "lk_backend_entry"

/* Plugins are searched for as "liblayerkit-<name>.so" in each directory of
   $LAYERKIT_PLUGIN_PATH, then in <libdir>/layerkit/backends/. */
#define LK_BACKEND_FILE_PREFIX "liblayerkit-"
#define LK_BACKEND_FILE_SUFFIX ".so"

/* ------------------------------------------------------------------------ */
/* Display list                                                              */

/* A rectangle in a layer's local coordinates. */
typedef struct lk_dl_rect { double x, y, width, height; } lk_dl_rect;

/* Premultiplied RGBA, 0..1. */
typedef struct lk_dl_color { float r, g, b, a; } lk_dl_color;

typedef enum lk_dl_pixel_format {
    LK_DL_FORMAT_ARGB32_PREMULTIPLIED = 1 /* native 32-bit 0xAARRGGBB (pixman a8r8g8b8, DRM ARGB8888) */
} lk_dl_pixel_format;

/* An image the core owns. It stays valid and unchanged while a display list
   that names it is being rendered; a plugin may cache what it derives from
   it (a texture) by id, and must re-derive it when generation changes. When
   the core drops an image it calls lk_backend.image_released(id). */
typedef struct lk_dl_image {
    uint64_t    id;          /* unique for the life of the process, never 0 */
    uint64_t    generation;  /* bumped whenever pixels change */
    uint32_t    width, height;
    uint32_t    stride;      /* bytes per row */
    uint32_t    format;      /* lk_dl_pixel_format */
    const void *pixels;
} lk_dl_image;

typedef enum lk_dl_op_kind {
    /* fill rect (rounded by corner_radius) with color * opacity */
    LK_DL_OP_FILL = 1,
    /* draw image's source rect stretched over rect, times opacity */
    LK_DL_OP_IMAGE = 2,
    /* stroke the inside edge of rect (rounded by corner_radius) with a band
       border_width wide in color * opacity */
    LK_DL_OP_BORDER = 3,
    /* intersect the clip with rect (rounded by corner_radius) under transform;
       ops up to the matching POP_CLIP are clipped by it */
    LK_DL_OP_PUSH_CLIP = 4,
    LK_DL_OP_POP_CLIP = 5,
    /* ABI 2: offscreen groups (group opacity, masks, shadows, transitions).
       The ops up to the matching POP_GROUP draw into a new transparent
       target. rect (transform ignored, in output pixels) bounds all that the
       group draws, shadow excluded: a backend may size the target to it. At
       POP_GROUP the target is composited onto the one below: first its
       shadow (when shadow_color.a > 0: the target's alpha blurred with a
       Gaussian of standard deviation shadow_sigma, moved by shadow_offset,
       times shadow_color), then, unless LK_DL_FLAG_SHADOW_ONLY, the target
       itself times opacity (with LK_DL_FLAG_BLEND_ADD: added). */
    LK_DL_OP_PUSH_GROUP = 6,
    /* ABI 2: only in a group flagged LK_DL_FLAG_GROUP_MASK: the ops between
       PUSH_GROUP and this one drew the mask; the ops after it draw the
       content, and the content's pixels are multiplied by the mask's alpha
       before the group is composited. */
    LK_DL_OP_GROUP_CONTENT = 7,
    LK_DL_OP_POP_GROUP = 8,
    /* ABI 3: fill rect (rounded by corner_radius) with the gradient of
       gradient_kind through gradient_stops, times opacity (see
       lk_dl_gradient_kind for the geometry) */
    LK_DL_OP_GRADIENT = 9
} lk_dl_op_kind;

/* ABI 3. Gradient geometry, in the op's local space (the same space as
   rect). Locations outside the first or last stop take that stop's colour
   (pad). Between the two stops around a location, the straight colour and
   the alpha are each interpolated linearly and the result is then
   premultiplied, as Core Animation, cairo and pixman do (a stop of alpha 0
   keeps its colour: red at alpha 0 to opaque blue is purple half-way). */
typedef enum lk_dl_gradient_kind {
    /* colour by the projection onto the line gradient_start -> gradient_end:
       location 0 at start, 1 at end (when they coincide, the whole rect has
       the last stop's colour) */
    LK_DL_GRADIENT_AXIAL = 1,
    /* an ellipse centred at gradient_start with radii |end.x - start.x| and
       |end.y - start.y|: location 0 at the centre, 1 on the ellipse (when
       either radius is 0, the whole rect has the last stop's colour) */
    LK_DL_GRADIENT_RADIAL = 2,
    /* by angle around gradient_start: location 0 along the direction to
       gradient_end, growing clockwise on screen (y down) to 1 after a full
       turn; the seam where 1 meets 0 is not anti-aliased (the core draws
       conic gradient layers as images, with the seam anti-aliased) */
    LK_DL_GRADIENT_CONIC = 3
} lk_dl_gradient_kind;

typedef struct lk_dl_gradient_stop {
    double      location;       /* 0..1, non-decreasing along the array */
    lk_dl_color color;          /* straight (NOT premultiplied): see above */
} lk_dl_gradient_stop;

typedef enum lk_dl_op_flags {
    /* the edges of rect may be anti-aliased (false for edges that meet a
       neighbour exactly, such as the inner slices of a nine-slice image) */
    LK_DL_FLAG_ANTIALIAS = 1u << 0,
    /* image: sample with nearest-neighbour instead of bilinear filtering */
    LK_DL_FLAG_FILTER_NEAREST = 1u << 1,
    /* ABI 2. FILL, IMAGE, BORDER, PUSH_GROUP: composite by adding
       (premultiplied src + dst, saturating) instead of source-over */
    LK_DL_FLAG_BLEND_ADD = 1u << 2,
    /* ABI 2. PUSH_GROUP: the group starts with a mask (see GROUP_CONTENT) */
    LK_DL_FLAG_GROUP_MASK = 1u << 3,
    /* ABI 2. PUSH_GROUP: composite only the group's shadow, not the group */
    LK_DL_FLAG_SHADOW_ONLY = 1u << 4,
    /* ABI 3. IMAGE: multiply the image's pixels component-wise by tint
       (premultiplied, so a straight colour times a straight tint comes out
       premultiplied): particle colours, replicator instance colours */
    LK_DL_FLAG_TINT = 1u << 5
} lk_dl_op_flags;

typedef struct lk_dl_op {
    uint32_t    kind;           /* lk_dl_op_kind */
    uint32_t    flags;          /* lk_dl_op_flags */
    /* Maps a point (x, y, 0, 1) of the op's local space to output pixels as
       the row vector product [x y 0 1] * M (Core Animation's layout:
       m[0..3] is the first row, translation in m[12..14], perspective in
       m[3], m[7], m[11]); divide x and y by w. Output pixel (0,0) is the top
       left; pixel centres are at +0.5. */
    double      transform[16];
    lk_dl_rect  rect;
    double      corner_radius;  /* FILL, BORDER, PUSH_CLIP; clamped to half the smaller side */
    double      border_width;   /* BORDER */
    lk_dl_color color;          /* FILL, BORDER */
    float       opacity;        /* FILL, IMAGE, BORDER: multiplies the colour or image */
    uint32_t    reserved;
    const lk_dl_image *image;   /* IMAGE */
    lk_dl_rect  source;         /* IMAGE: the part of the image, in image pixels */
    /* ABI 2 */
    lk_dl_color shadow_color;   /* PUSH_GROUP: premultiplied, shadowOpacity and the layer's opacity
                                   applied (0.8 on a layer at 0.5: a = 0.4); a = 0: no shadow */
    double      shadow_offset_x, shadow_offset_y; /* PUSH_GROUP: in output pixels */
    double      shadow_sigma;   /* PUSH_GROUP: Gaussian standard deviation in output pixels (0: hard edge) */
    /* ABI 3 */
    lk_dl_color tint;           /* IMAGE with LK_DL_FLAG_TINT */
    uint32_t    gradient_kind;  /* GRADIENT: lk_dl_gradient_kind */
    uint32_t    gradient_stop_count; /* GRADIENT: at least 1 */
    const lk_dl_gradient_stop *gradient_stops; /* GRADIENT: valid while the list is rendered */
    double      gradient_start_x, gradient_start_y; /* GRADIENT */
    double      gradient_end_x, gradient_end_y;     /* GRADIENT */
} lk_dl_op;

typedef struct lk_dl_box { int32_t x, y, width, height; } lk_dl_box;

typedef struct lk_display_list {
    uint32_t          abi_version;
    uint32_t          struct_size;
    uint32_t          op_size;       /* stride between ops: sizeof(lk_dl_op) of the core */
    uint32_t          op_count;
    const lk_dl_op   *ops;           /* op i is at (const char *)ops + i * op_size */
    lk_dl_color       clear_color;   /* the output is cleared to this first (opaque black) */
    /* the part of the output that may differ from the previous list handed
       to this backend; ops outside it may be skipped. The whole output when
       nothing is known. A backend that renders into several buffers in turn
       unions the damage of the lists since the buffer it reuses was drawn
       (its buffer age); a frame with nothing changed is not rendered at all. */
    lk_dl_box         damage;
    double            target_time;   /* media time the frame is for */
    uint64_t          frame_number;
} lk_display_list;

/* ------------------------------------------------------------------------ */
/* Host services the core offers a backend instance                          */

typedef enum lk_backend_log_level {
    LK_BACKEND_LOG_ERROR = 0, LK_BACKEND_LOG_WARNING = 1,
    LK_BACKEND_LOG_INFO = 2, LK_BACKEND_LOG_DEBUG = 3
} lk_backend_log_level;

typedef struct lk_backend_host {
    uint32_t abi_version;
    uint32_t struct_size;
    void    *host_data;
    void   (*log)(void *host_data, uint32_t level, const char *message);
    /* a frame handed to render() reached the screen (or memory) at
       presentation_time (media time); may be called from any thread */
    void   (*frame_done)(void *host_data, uint64_t frame_number, double presentation_time);
    /* ABI 3 (present when struct_size covers it): the output changed; may be
       called from any thread. PAUSED: nothing can be shown (DRM master lost,
       connector unplugged), render() calls until RESUMED may be dropped;
       RESUMED: showing again, the next list should be drawn whole;
       RESIZED: get_output() now says another size or refresh rate.
       detail is a short human-readable reason, or NULL. */
    void   (*output_changed)(void *host_data, uint32_t event, const char *detail);
} lk_backend_host;

typedef enum lk_backend_output_event {
    LK_BACKEND_OUTPUT_PAUSED = 1,
    LK_BACKEND_OUTPUT_RESUMED = 2,
    LK_BACKEND_OUTPUT_RESIZED = 3
} lk_backend_output_event;

typedef struct lk_backend_open_options {
    uint32_t    struct_size;
    const char *device;      /* NULL = first usable */
    const char *connector;   /* NULL = first connected */
    uint32_t    width, height; /* 0 = preferred / default */
    uint32_t    rotation;    /* 0, 90, 180, 270 */
} lk_backend_open_options;

typedef struct lk_backend_output_info {
    uint32_t    struct_size;
    uint32_t    width, height;   /* in pixels, after rotation */
    double      refresh_rate;    /* Hz */
    const char *name;            /* connector or output name; owned by the backend */
} lk_backend_output_info;

/* A backend instance, opaque to the core. */
typedef struct lk_backend_instance lk_backend_instance;

/* Calls that can fail write a NUL-terminated reason into error (of
   error_size bytes) and return false or NULL. */
typedef struct lk_backend {
    uint32_t    abi_version;     /* LK_BACKEND_ABI_VERSION */
    uint32_t    struct_size;     /* sizeof(lk_backend) of the plugin */
    const char *name;            /* "software", "gles", "drm" */
    const char *description;

    lk_backend_instance *(*open)(const lk_backend_host *host,
                                 const lk_backend_open_options *options,
                                 char *error, size_t error_size);
    void (*close)(lk_backend_instance *instance);
    bool (*get_output)(lk_backend_instance *instance, lk_backend_output_info *out);
    /* draws the list into the next buffer and presents it; frame_done follows */
    bool (*render)(lk_backend_instance *instance, const lk_display_list *list,
                   char *error, size_t error_size);
    /* copies the last presented frame as ARGB32 premultiplied, stride in bytes */
    bool (*read_pixels)(lk_backend_instance *instance, void *argb32, size_t stride,
                        char *error, size_t error_size);
    /* the core dropped an image: forget anything cached for id */
    void (*image_released)(lk_backend_instance *instance, uint64_t id);
    /* ABI 2, may be NULL: writes a human-readable description of what the
       backend finds (devices, connectors, modes, planes and formats; EGL/GL
       vendor, renderer, version and the extensions that matter), one fact a
       line, NUL-terminated, into text (text_size bytes). instance is NULL to
       probe without opening an output. On failure writes the reason and
       returns false. Used by the lk-info tool. */
    bool (*describe)(lk_backend_instance *instance, char *text, size_t text_size);
} lk_backend;

typedef const lk_backend *(*lk_backend_entry_fn)(uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* LAYERKIT_BACKEND_H */
