/*
 * The software backend's private declarations, shared by its source files.
 *
 * software_backend.c  the plugin table, open/close, output, read_pixels
 * software_images.c   the per-instance cache of pixman images for lk_dl_image
 * software_render.c   display list validation, the op walk, the clip stack
 * software_paint.c    drawing one op: the rect fast paths and the mask path
 * software_group.c    offscreen groups: group opacity, alpha masks, shadows
 * software_gradient.c GRADIENT ops: pixman's gradients as the op's source
 * software_raster.c   geometry: homographies, homogeneous clipping, outlines,
 *                     rasterizing convex polygons into A8 masks
 * software_sprite.c   small affine IMAGE ops (particles) and solid FILL ops
 *                     drawn without pixman, in bands (software_sprite.h:
 *                     what it shares with software_fill_rotated.c, the
 *                     solid fills' spans and rotated fills)
 */
#ifndef LAYERKIT_SOFTWARE_PRIVATE_H
#define LAYERKIT_SOFTWARE_PRIVATE_H

#include <pixman.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layerkit/layerkit_backend.h"

/* The largest output side; keeps every coordinate we hand pixman well inside
   its 16.16 fixed-point range. */
#define SW_MAX_SIZE 16384
/* Group content is kept at most this far beyond the output's edges (see
   software_group.c). */
#define SW_GROUP_MARGIN 1024
/* (sw_sprite keeps a box corner, within -SW_GROUP_MARGIN - 2 and SW_MAX_SIZE
   + SW_GROUP_MARGIN + 2, in 16 bits: a group's target reaches that far) */
_Static_assert(SW_MAX_SIZE + SW_GROUP_MARGIN + 2 <= 32767, "sw_sprite.ox, oy are 16-bit");

/* Quarter-circle flattening: at most this many segments per corner. */
#define SW_MAX_ARC_SEGMENTS 128
/* Points of a flattened rounded rect, and of it after clipping to 5 planes. */
#define SW_MAX_OUTLINE (4 * (SW_MAX_ARC_SEGMENTS + 1))
#define SW_MAX_POLYGON (SW_MAX_OUTLINE + 8)
/* Anti-aliased masks up to this many pixels get exact area coverage computed
   in software_raster.c; larger ones go to pixman's trapezoid rasterizer,
   which measured faster there (the analytic cells, 4 bytes a pixel, stop
   fitting in cache). */
#ifndef SW_ANALYTIC_MAX_AREA
#define SW_ANALYTIC_MAX_AREA (512 * 512)
#endif

/* ------------------------------------------------------------------------ */
/* Geometry (software_raster.c)                                             */

/* Integer pixel box, half open: [x0, x1) x [y0, y1). */
typedef struct sw_box { int32_t x0, y0, x1, y1; } sw_box;

typedef struct sw_point { double x, y; } sw_point;
typedef struct sw_hpoint { double x, y, w; } sw_hpoint;

/* A rect with x0 <= x1 and y0 <= y1. */
typedef struct sw_rect { double x0, y0, x1, y1; } sw_rect;

/* The op's transform restricted to the z = 0 plane, as a 3x3 matrix acting on
   column vectors: [X Y W]^T = m [x y 1]^T, device point (X/W, Y/W). */
typedef struct sw_homography { double m[3][3]; } sw_homography;

/* A shape in an op's local space: rect rounded by radius, mapped by h. */
typedef struct sw_shape {
    sw_homography h;
    sw_rect       rect;
    double        radius;
} sw_shape;

/* Buffers for flattening, clipping and rasterizing one polygon; they live in
   the instance so render() does not put tens of kilobytes on the stack. */
typedef struct sw_raster_scratch {
    sw_point           outline[SW_MAX_OUTLINE];
    sw_hpoint          clip_a[SW_MAX_POLYGON], clip_b[SW_MAX_POLYGON];
    sw_point           polygon[SW_MAX_POLYGON];
    pixman_trapezoid_t traps[SW_MAX_POLYGON];
    /* The corners' unit arcs of the last segment count outlined (0: none):
       cos and sin of each point's angle, as outline() computes them, kept
       because a frame's rounded rects mostly share a radius. */
    int                arc_segments;
    double             arc_cos[SW_MAX_OUTLINE], arc_sin[SW_MAX_OUTLINE];
    /* Signed area accumulation cells for the analytic rasterizer: (width + 2)
       x height, kept all zero between uses (the sweep clears what it reads),
       grown on demand, freed by sw_raster_scratch_free. */
    float             *cells;
    size_t             cell_capacity;
} sw_raster_scratch;

static inline bool sw_box_empty(sw_box b) { return b.x1 <= b.x0 || b.y1 <= b.y0; }
sw_box sw_box_intersect(sw_box a, sw_box b);

/* false when the transform has a non-finite entry */
bool sw_homography_from_transform(const double t[16], sw_homography *out);
/* a * b */
sw_homography sw_homography_multiply(const sw_homography *a, const sw_homography *b);
/* false when singular or not finite */
bool sw_homography_invert(const sw_homography *h, sw_homography *out);
/* true when h is x' = sx x + tx, y' = sy y + ty (no rotation, skew or
   perspective); the factors are returned normalised by W */
bool sw_homography_axis_aligned(const sw_homography *h, double *sx, double *sy,
                                double *tx, double *ty);
/* true when h has no perspective part */
bool sw_homography_is_affine(const sw_homography *h);
/* The device bounding box (x0, y0, x1, y1) of shape's rect under its
   affine h (w divided out); false when it is not finite. */
bool sw_device_bounds(const sw_shape *shape, double b[4]);
/* pixman's 16.16 matrix for h, used for source points in [0, width] x
   [0, height]; false when it cannot be represented */
bool sw_homography_to_pixman(const sw_homography *h, double width, double height,
                             pixman_transform_t *out);

/* The output grown by SW_GROUP_MARGIN on every side: where device
   polygons are cut. */
sw_box sw_space_box(const lk_backend_instance *inst);
/* Maps shape into output space, clipped to limit (homogeneously, so points
   behind the eye never divide); writes the convex device polygon into
   scratch->polygon and returns its point count (0: nothing visible). */
int sw_shape_polygon(sw_raster_scratch *scratch, const sw_shape *shape, sw_box limit);
/* Pixel bounds of a polygon, intersected with limit. */
sw_box sw_polygon_bounds(const sw_point *points, int count, sw_box limit);
/* Adds the polygon's coverage to the A8 mask (subtract: takes it away, as
   mask = max(mask - coverage, 0): a border's inside, which lies within the
   outline, leaving the band's own area). The mask's pixel (0,0) is output pixel
   (mask_box.x0, mask_box.y0); bounds are the polygon's pixel bounds
   (sw_polygon_bounds), which the coverage is worked out from, so that a
   pixel's value does not depend on mask_box (only the part of the mask
   inside bounds is written). Without antialias, pixels are sampled at
   their centres; with it, coverage is the exact area of polygon and pixel
   square (analytic, for bounds up to SW_ANALYTIC_MAX_AREA pixels; pixman's
   sample grid beyond). */
void sw_rasterize_polygon(sw_raster_scratch *scratch, pixman_image_t *mask, sw_box mask_box,
                          sw_box bounds, const sw_point *points, int count, bool antialias,
                          bool subtract, pixman_image_t *white);

/* Releases the buffers scratch owns (not scratch itself). */
void sw_raster_scratch_free(sw_raster_scratch *scratch);

/* A span of pixels [start, end) with the fraction of each pixel covered. */
typedef struct sw_span { int32_t start, end; double coverage; } sw_span;
/* An output box with constant coverage. */
typedef struct sw_piece { sw_box box; double coverage; } sw_piece;
/* Splits the device rect r into at most 9 boxes of constant coverage inside
   limit: exact area coverage when antialias, pixel-centre sampling (coverage 1)
   otherwise. Returns the number of pieces. */
int sw_rect_pieces(sw_rect r, bool antialias, sw_box limit, sw_piece out[9]);

/* One IMAGE op ready for the sprite loop: where it samples, how output
   maps to image coordinates, its coverage geometry and colour factors. */
/* Transparent cuts per sprite: the image's non-transparent texels bounded
   along the axes and the diagonals. */
#define SW_SPRITE_CUTS 8
enum { SW_SPRITE_NEAREST = 1, SW_SPRITE_ADD = 2, SW_SPRITE_AXIS = 4, SW_SPRITE_ANTIALIAS = 8,
       SW_SPRITE_SOLID = 16 /* a FILL op: a constant colour, no texture */ };
typedef struct sw_sprite {
    const uint32_t *pixels;
    uint32_t        stride;               /* in pixels */
    uint32_t        flags;                /* SW_SPRITE_* */
    int32_t         x_min, y_min, x_max, y_max;   /* texels sampled; the edge repeats */
    double          ux, uy, u0, vx, vy, v0;       /* image coordinate at output point (X, Y) */
    sw_box          box;                  /* the output pixels it may touch, clipped */
    float           factor[4];            /* tint x opacity per channel (a, r, g, b), 256 = 1 */
    /* SOLID: the premultiplied colour x opacity, and as the 8-bit argb that
       pixman's mask path draws (rotated; axis-aligned pieces quantise
       colour x coverage, as the rect path does) */
    lk_dl_color     color;
    uint32_t        argb;
    /* the first pixel of the box before any clip (within -2 and
       SW_MAX_SIZE + 2): rotated images step their texel positions from
       there, so that a pixel's sample does not depend on the clip, the
       damage or the band drawing it */
    int16_t         ox, oy;
    /* axis-aligned: the device rect; rotated: the rect's edges as lines of
       output space, distance = base + X nx + Y ny, with half a pixel's
       extent along each pair's normal */
    sw_rect         rect;
    double          nx[4], ny[4], inv_nx[4], base[4], reach[2];
    /* per pair of edges, for their coverage (software_sprite.c, edge_coverage) */
    double          linear[2], b[2], inv_a[2], inv_2ab[2];
    /* rotated images: how many lines its sw_sprite_cut_lines holds */
    uint32_t        cut_count;
} sw_sprite;

/* A rotated image sprite's lines of output space outside which every
   sample is transparent (the image's transparent margins and corners):
   pixel (x, y) kept while line[i][0] x + line[i][1] y + line[i][2] >= 0
   (software_sprite_batch.c, "Transparent cuts"). Kept beside the sprites, at
   the same index, not in them: most sprites have none, and the band loop
   then reads two thirds of the bytes (384 a sprite, not 576). */
typedef struct sw_sprite_cut_lines {
    double          line[SW_SPRITE_CUTS][3];
} sw_sprite_cut_lines;

/* A prepared sprite's box and whether it is a solid fill, packed beside
   the sprites (lk_backend_instance.boxes_run). */
typedef struct sw_sprite_box {
    sw_box          box;
    uint32_t        solid;
} sw_sprite_box;

/* What an image's non-transparent texels allow of the sample positions,
   per source texel box: cached per image (software_sprite.c). */
typedef struct sw_image_cuts {
    uint64_t        id, generation;   /* id 0: empty */
    const void     *pixels;
    uint32_t        stride;
    sw_box          texels;
    double          least[SW_SPRITE_CUTS][4];
    bool            worth;            /* the cuts drop enough to pay */
} sw_image_cuts;
#define SW_IMAGE_CUTS_CACHE 8

/* ------------------------------------------------------------------------ */
/* Band workers (software_workers.c)                                         */

/* Threads in all, the renderer's included: at most SW_MAX_WORKERS + 1;
   without LAYERKIT_SOFTWARE_THREADS, the online CPUs up to SW_DEFAULT_THREADS. */
#define SW_MAX_WORKERS 15
#define SW_DEFAULT_THREADS 4
/* Without LAYERKIT_SOFTWARE_THREADS a run shares its bands when drawing it
   alone would take more than about a third of a 60 Hz frame, estimated as
   SW_SPRITE_COST_NS a sprite and SW_PIXEL_COST_NS a pixel of its box (fit
   to a frame of 10,000 particles, 1.56 us each at about 190 pixels, and one
   of 1,000 turned 32x32 squares, 2.4 us each at about 1,000): then the
   frame's latency matters more than the little CPU sharing costs (waking
   the workers, bands drawn on another core's cache). A quicker run is
   drawn by the renderer alone: sharing it would only add CPU. */
#define SW_SPRITE_COST_NS 1300
#define SW_PIXEL_COST_NS 1
#define SW_SHARED_MIN_NS 6000000

/* Work the renderer (thread 0) shares with the band workers: each of the
   threads calls run(task, k), k its number, which takes the task's items
   (bands, blocks of ops) with sw_task_take; the renderer returns when all
   are done (sw_workers_share). */
typedef struct sw_task {
    void (*run)(struct sw_task *task, size_t k);
    size_t threads;           /* n: the renderer and the workers running it */
    bool interleaved;         /* thread k of n takes items k, k + n... (else the next one free) */
    atomic_size_t next;       /* the next item no thread has taken */
} sw_task;

/* A sprite run's bands to draw: band b is rows [y0 + b rows, y0 + (b + 1)
   rows) (up to y1), its sprites sprites[index[band_end[b - 1] (0 for b = 0)
   .. band_end[b])]; with fill, the instance's pending fill is written to
   each band first. */
typedef struct sw_band_job {
    sw_task task;
    const struct sw_sprite *sprites;
    const struct sw_sprite_cut_lines *cut_lines;   /* at the sprites' indices */
    const uint32_t *index, *band_end;
    size_t bands;
    int32_t y0, y1, rows;
    const struct sw_sprite_target *t;
    lk_backend_instance *inst;
    bool fill;
    bool shared;              /* drawn on the band workers too */
    atomic_size_t worker_bands;   /* drawn by the workers (stats) */
} sw_band_job;

/* A sprite run's ops [first, end) of list to prepare under clip: op i's
   sprite into sprites[i - first], its sw_sprite_result into
   results[i - first]; threads take SW_PREPARE_BLOCK ops at a time. */
typedef struct sw_prepare_job {
    sw_task task;
    lk_backend_instance *inst;
    const lk_display_list *list;
    const struct sw_clip *clip;
    uint32_t first, end;
    struct sw_sprite *sprites;
    struct sw_sprite_cut_lines *cut_lines;
    struct sw_sprite_box *boxes;
    uint8_t *results;
    atomic_uint worker_ops;   /* prepared by the workers (stats) */
} sw_prepare_job;
#define SW_PREPARE_BLOCK 32
/* A sprite run prepares its first op, then chunks of up to
   SW_PREPARE_GROWTH times the ops it has so far (at most
   SW_PREPARE_CHUNK_MAX): an op the sprite path declines, which ends the
   run, leaves fewer than that many prepared for nothing, and none when it
   is the run's first (a list whose ops all decline, such as images
   neither turned nor tinted, prepares each op once). A chunk of
   SW_PREPARE_SHARED_MIN ops or more is prepared on the band workers too
   (about 0.2 ms of work at 0.2 us an op, far above a wake-up). */
#define SW_PREPARE_GROWTH 4
#define SW_PREPARE_CHUNK_MAX 65536
#define SW_PREPARE_SHARED_MIN 1024

struct sw_workers;
/* Worker k's place (the renderer is thread 0) and what only it touches:
   its cache of image cuts (the renderer's is the instance's). */
typedef struct sw_worker_slot {
    struct sw_workers *workers;
    size_t k;
    sw_image_cuts cuts[SW_IMAGE_CUTS_CACHE];
} sw_worker_slot;

typedef struct sw_workers {
    pthread_mutex_t mutex;
    pthread_cond_t  wake, done;
    pthread_t       threads[SW_MAX_WORKERS];
    sw_worker_slot  slots[SW_MAX_WORKERS];
    int             count;          /* started */
    sw_task        *task;           /* the work being shared */
    uint64_t        generation;     /* one more for each task handed out */
    int             busy;           /* workers not yet done with it */
    bool            quit;
} sw_workers;

/* ------------------------------------------------------------------------ */
/* Instance                                                                  */

/* One level of the clip stack: everything drawn is limited to box, and, when
   mask is set, multiplied by the A8 mask whose pixel (0,0) is output pixel
   (mask_x, mask_y). Rect clips only shrink box, so the common case stays
   mask-free. */
typedef struct sw_clip {
    sw_box          box;
    pixman_image_t *mask;
    int32_t         mask_x, mask_y;
    bool            owns_mask;
} sw_clip;

typedef struct sw_image_entry {
    uint64_t        id;          /* 0 = empty slot */
    uint64_t        generation;
    const void     *pixels;
    uint32_t        width, height, stride;
    pixman_image_t *image;
} sw_image_entry;

typedef struct sw_image_cache {
    sw_image_entry *slots;       /* open addressing, linear probing */
    size_t          capacity;    /* power of two, or 0 */
    size_t          count;
} sw_image_cache;

/* Solid colours are created per distinct value; a few are kept because the
   same opacities and colours recur op after op. */
#define SW_SOLID_CACHE 8
typedef struct sw_solid_entry { uint32_t argb; pixman_image_t *image; } sw_solid_entry;

/* A GRADIENT op's source evaluated over its box of the output, kept for the
   frames after while the op's gradient does not change
   (software_gradient_cache.c). At most SW_GRADIENT_CACHE of them, holding
   at most SW_GRADIENT_CACHE_OUTPUTS times the output's pixels in all. */
#define SW_GRADIENT_CACHE 4
#define SW_GRADIENT_CACHE_OUTPUTS 2
typedef struct sw_gradient_entry {
    pixman_image_t      *image;       /* a8r8g8b8, the box's size; NULL: a free slot */
    sw_box               box;         /* the output pixels it holds */
    uint64_t             last_used;   /* the frame that last drew it */
    /* what its pixels depend on (not the rect, the opacity or the colour:
       the rect only decides the box and the coverage, applied after) */
    uint32_t             kind, stop_count;
    double               start_x, start_y, end_x, end_y;
    double               transform[16];
    lk_dl_gradient_stop *stops;       /* a copy */
} sw_gradient_entry;

typedef struct sw_stats {
    uint64_t frames;
    uint64_t ops;
    uint64_t rect_ops;      /* drawn by one composite per constant-coverage box */
    uint64_t mask_ops;      /* drawn through an A8 coverage mask */
    uint64_t skipped_ops;   /* invisible, clipped out or not finite */
    uint64_t sprite_ops;    /* IMAGE ops drawn by the sprite path */
    uint64_t fill_run_ops;  /* FILL ops drawn by the sprite path (in bands) */
    uint64_t rect_clips;
    uint64_t mask_clips;
    uint64_t groups;        /* offscreen groups composited */
    uint64_t shadows;       /* of them, with a blurred shadow */
    uint64_t shared_runs;   /* sprite runs whose bands the band workers shared */
    uint64_t worker_bands;  /* bands of those the workers drew */
    uint64_t prepared;          /* sprite run ops prepared (an op a run declined after is prepared again) */
    uint64_t shared_prepared;   /* of those, in chunks shared with the workers */
    uint64_t worker_prepared;   /* of those, the ops the workers prepared */
    uint64_t gradients_cached;  /* GRADIENT ops drawn from the gradient cache */
    uint64_t gradients_rendered;/* of those, the ones evaluated into it first */
} sw_stats;

/* One open PUSH_GROUP: ops draw into target (and first into mask_target
   when the group is masked), whose pixel (0,0) is output pixel (box.x0,
   box.y0). The clip stack level the group opened is clip_base: clips pushed
   inside a group end with it, and the parent's clip applies when the group
   is composited. */
typedef struct sw_group {
    lk_dl_op        op;              /* the PUSH_GROUP: opacity, flags, shadow */
    sw_box          box;
    pixman_image_t *target;          /* content (NULL when the box is empty) */
    pixman_image_t *mask_target;     /* GROUP_MASK: what the mask ops drew */
    bool            drawing_mask;    /* before GROUP_CONTENT */
    size_t          clip_base;
    pixman_image_t *parent_target;
    int32_t         parent_x, parent_y;
} sw_group;

/* The sprite path (software_sprite.c): on (SIMD where the compiler offers
   SSE2, rotated fills in AVX2 where the CPU has it), on without AVX2, on
   with the portable per-pixel code, or off (pixman draws every op);
   LAYERKIT_SOFTWARE_SPRITES=1|sse2|scalar|0, read when an instance opens. */
typedef enum sw_sprite_mode { SW_SPRITES_ON, SW_SPRITES_SSE2, SW_SPRITES_SCALAR, SW_SPRITES_OFF } sw_sprite_mode;

/* The sprite path's size limits, per side of the device bounding box (see
   software_sprite_batch.c for the rule): rotated or skewed images up to
   SW_SPRITE_MAX_SIDE; axis-aligned ones only when tinted, up to
   SW_SPRITE_AXIS_MAX_SIDE (beyond, and untinted, pixman's blits and scaled
   fast paths are faster: measured, docs/rendering.md). The rotated limit
   bounds how far texel positions step in 16.16 from the box's first pixel:
   2,048 steps add up to under 1/64 of a texel (test_sprite_large.c). */
#ifndef SW_SPRITE_MAX_SIDE
#define SW_SPRITE_MAX_SIDE 1024
#endif
#ifndef SW_SPRITE_AXIS_MAX_SIDE
#define SW_SPRITE_AXIS_MAX_SIDE 24
#endif
/* Solid FILL ops (no corner radius) join the band path by the size of
   their device bounding box: turned or skewed ones when its longer side is
   at least SW_FILL_MIN_SIDE and both at most SW_FILL_MAX_SIDE, axis-aligned
   ones with a fractional edge up to SW_FILL_AXIS_MAX_SIDE a side
   (measured, docs/rendering.md "fill runs"). */
#ifndef SW_FILL_MIN_SIDE
#define SW_FILL_MIN_SIDE 8
#endif
#ifndef SW_FILL_MAX_SIDE
#define SW_FILL_MAX_SIDE 128
#endif
#ifndef SW_FILL_AXIS_MAX_SIDE
#define SW_FILL_AXIS_MAX_SIDE 32
#endif

struct lk_backend_instance {
    lk_backend_host    host;          /* zeroed fields the host did not provide */
    sw_sprite_mode     sprites;
    bool               fill_runs;     /* LAYERKIT_SOFTWARE_FILL_RUNS != 0 (and sprites on) */
    int32_t            band_rows;     /* LAYERKIT_SOFTWARE_BAND_ROWS; 0: by the target's width (sw_sprite_draw_batch) */
    int                threads;       /* drawing a sprite run's bands, the renderer's included (software_workers.c) */
    bool               threads_set;   /* by LAYERKIT_SOFTWARE_THREADS: every run of two bands or more shares them, interleaved */
    sw_workers        *workers;       /* started with the first run shared */
    uint32_t           width, height;
    pixman_image_t    *framebuffer;   /* a8r8g8b8, premultiplied */
    bool               has_frame;

    sw_clip           *clips;         /* clips[0] is the damage box */
    size_t             clip_count, clip_capacity;

    uint8_t           *mask_bits;     /* scratch A8 storage for one op's mask */
    size_t             mask_capacity;

    sw_image_cache     images;
    sw_solid_entry     solids[SW_SOLID_CACHE];
    unsigned           next_solid;
    pixman_image_t    *white;

    sw_raster_scratch *raster;
    sw_stats           stats;

    /* Where ops draw: the framebuffer, or the innermost group's target, whose
       pixel (0,0) is output pixel (target_x, target_y). */
    pixman_image_t    *target;
    int32_t            target_x, target_y;
    sw_group          *groups;
    size_t             group_count, group_capacity;
    /* validate()'s nesting stack: one byte per open clip or group */
    uint8_t           *nesting;
    size_t             nesting_capacity;
    sw_gradient_entry  gradients[SW_GRADIENT_CACHE];
    /* the shadow blur's rows (floats), grown on demand */
    float             *blur;
    size_t             blur_capacity;
    /* The frame's clear, or the opaque fill of the whole damage box that
       replaced it, not yet written: sprite runs write it band by band just
       before they draw there (the band is then in cache); anything else
       that draws writes it all first (software_render.c). */
    struct { bool active; uint32_t argb; sw_box box; } pending;
    /* a run of sprites and their binning into bands, grown on demand */
    sw_sprite         *sprites_run;
    sw_sprite_cut_lines *cut_lines_run;  /* at the same indices, sprites_capacity of them */
    /* each sprite's box again, packed (an empty one for an op that shows
       nothing), for the binning's passes: they read 20 bytes a sprite
       instead of a line of its 576 */
    sw_sprite_box     *boxes_run;
    size_t             sprites_capacity;
    uint8_t           *prepare_results;   /* sw_sprite_result per op prepared, sprites_capacity of them */
    uint32_t          *band_index, *band_start;
    size_t             band_index_capacity, band_start_capacity;
    /* the transparent cuts of the last images drawn as rotated sprites */
    sw_image_cuts      sprite_cuts[SW_IMAGE_CUTS_CACHE];
    /* one GRADIENT op's stops as pixman's, grown on demand */
    pixman_gradient_stop_t *gradient_stops;
    uint32_t           gradient_capacity;
};

/* software_backend.c */
void sw_set_error(char *error, size_t error_size, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* software_images.c */
/* The pixman image wrapping img's pixels (no copy), re-created when the
   generation or the pixel pointer changes. NULL on allocation failure. */
pixman_image_t *sw_image_lookup(lk_backend_instance *inst, const lk_dl_image *img);
void sw_image_forget(lk_backend_instance *inst, uint64_t id);
void sw_image_cache_free(lk_backend_instance *inst);

/* software_render.c */
/* Writes the pending fill (see sw_pending) into area of the framebuffer. */
void sw_pending_fill(lk_backend_instance *inst, sw_box area);
/* Writes all of the pending fill now, and ends it. */
void sw_pending_flush(lk_backend_instance *inst);
bool sw_render(lk_backend_instance *inst, const lk_display_list *list,
               char *error, size_t error_size);
void sw_clip_stack_free(lk_backend_instance *inst);

/* software_paint.c */
/* Draw one op under clip; false only when memory runs out. */
bool sw_paint_fill(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *clip);
/* op's rect (normalised) and clamped corner radius under its transform;
   false when it cannot be drawn (non-finite, degenerate, empty). */
bool sw_op_shape(const lk_dl_op *op, sw_shape *s);
bool sw_paint_border(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *clip);
bool sw_paint_image(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *clip);
/* An IMAGE op's shape, the texels it samples (its source rect rounded out)
   and the map from image pixel coordinates to output; false when it shows
   nothing or cannot be drawn. */
bool sw_image_geometry(const lk_dl_op *op, sw_shape *shape, sw_box *texels, sw_homography *image_to_output);
/* The clip level op pushes on top of parent; false only when memory runs out. */
bool sw_paint_clip(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *parent,
                   sw_clip *out);
/* A premultiplied colour as pixman wants it, rounded to 8 bits per channel. */
pixman_color_t sw_pixman_color(lk_dl_color premultiplied);
/* That colour as an 8-bit a8r8g8b8 value. */
static inline uint32_t sw_argb(pixman_color_t c)
{
    return (uint32_t)(c.alpha >> 8) << 24 | (uint32_t)(c.red >> 8) << 16 |
           (uint32_t)(c.green >> 8) << 8 | (uint32_t)(c.blue >> 8);
}
/* The cached solid image of a premultiplied colour (8 bits a channel); NULL
   when memory runs out. */
pixman_image_t *sw_solid(lk_backend_instance *inst, lk_dl_color premultiplied);
/* x * a / 255 per channel, rounded as pixman's MUL_UN8 (two channels per
   16-bit half of a 32-bit word, as its UN8x4_MUL_UN8: a channel's product
   stays below 2^16, so none carries into the next). */
static inline uint32_t mul_un8x4(uint32_t x, uint32_t a)
{
    uint32_t rb = (x & 0x00ff00ffu) * a + 0x00800080u;
    rb = ((rb + ((rb >> 8) & 0x00ff00ffu)) >> 8) & 0x00ff00ffu;
    uint32_t ag = ((x >> 8) & 0x00ff00ffu) * a + 0x00800080u;
    ag = (ag + ((ag >> 8) & 0x00ff00ffu)) & 0xff00ff00u;
    return rb | ag;
}

/* x + y per channel, saturating at 255 (pixman's UN8x4_ADD_UN8x4). */
static inline uint32_t add_un8x4(uint32_t x, uint32_t y)
{
    uint32_t rb = (x & 0x00ff00ffu) + (y & 0x00ff00ffu);
    rb |= 0x01000100u - ((rb >> 8) & 0x00010001u);
    uint32_t ag = ((x >> 8) & 0x00ff00ffu) + ((y >> 8) & 0x00ff00ffu);
    ag |= 0x01000100u - ((ag >> 8) & 0x00010001u);
    return (rb & 0x00ff00ffu) | ((ag & 0x00ff00ffu) << 8);
}

/* op's opacity as a 0..1 float, NaN as 0, and as the 8-bit value drawn. */
float sw_unit(float v);
uint32_t sw_to_byte(float v);
void sw_solid_cache_free(lk_backend_instance *inst);

/* Draws op's rect (rounded by its corner radius) with source, an image whose
   coordinates map to op's local space by source_to_local, times op's
   opacity; with source NULL, with the premultiplied color times opacity.
   false only when memory runs out. */
bool sw_paint_source(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *clip,
                     pixman_image_t *source, const sw_homography *source_to_local, lk_dl_color color);

/* software_gradient_cache.c */
/* The cached source of GRADIENT op over box, or NULL. */
sw_gradient_entry *sw_gradient_cache_find(lk_backend_instance *inst, const lk_dl_op *op, sw_box box);
/* A slot for op's source over box (its image box-sized, its key op's,
   older entries evicted to stay within the budget); NULL when the box is
   larger than the budget or memory runs out. */
sw_gradient_entry *sw_gradient_cache_slot(lk_backend_instance *inst, const lk_dl_op *op, sw_box box);
/* Empties a slot (its image not rendered after all). */
void sw_gradient_cache_drop(sw_gradient_entry *e);
void sw_gradient_cache_free(lk_backend_instance *inst);

/* software_sprite.c */
typedef enum sw_sprite_result { SW_SPRITE_DECLINE, SW_SPRITE_SKIP, SW_SPRITE_READY } sw_sprite_result;

/* Whether op (geometry from sw_image_geometry) takes the sprite path under
   clip: READY (out filled), SKIP (nothing of it is visible) or DECLINE
   (pixman draws it). cuts: the calling thread's cache of image cuts
   (sw_thread_cuts); nothing else is written but out (and out_lines, when
   it has cuts: out->cut_count). */
sw_sprite_result sw_sprite_prepare(const lk_backend_instance *inst, const lk_dl_op *op,
                                   const sw_clip *clip, const sw_shape *shape,
                                   const sw_homography *image_to_output, sw_box texels,
                                   sw_image_cuts *cuts, sw_sprite *out, sw_sprite_cut_lines *out_lines);
/* The same for a FILL op: a constant colour instead of an image. */
sw_sprite_result sw_fill_prepare(const lk_backend_instance *inst, const lk_dl_op *op,
                                 const sw_clip *clip, sw_sprite *out);
/* Draws prepared sprites, in order, into the current target under clip,
   band by band (writing the pending fill into each band first when the
   target is the framebuffer); false only when memory runs out. */
bool sw_sprite_draw_batch(lk_backend_instance *inst, const sw_sprite *sprites,
                          const sw_sprite_cut_lines *cut_lines, const sw_sprite_box *boxes, size_t count,
                          const sw_clip *clip);
void sw_sprite_scratch_free(lk_backend_instance *inst);
/* Band b of a run's job (sw_band_job), on whichever thread takes it. */
void sw_sprite_draw_one_band(const sw_band_job *job, size_t b);

/* software_workers.c */
/* Draws the job's bands: on the band workers too when job->shared. */
void sw_draw_bands(lk_backend_instance *inst, sw_band_job *job);
/* Runs task: with shared, on the renderer (k = 0) and every worker (k =
   1..), started on first use, returning when all are done; else, or when
   no worker starts, on the renderer alone. Its items are dealt in turn
   with LAYERKIT_SOFTWARE_THREADS. Returns the threads that ran it. */
size_t sw_workers_share(lk_backend_instance *inst, sw_task *task, bool shared);
/* Thread k's next item of task, *turn counting its takes (0 at first): by
   default the next item no thread has taken; with the task interleaved,
   item k + turn n. */
size_t sw_task_take(sw_task *task, size_t k, size_t *turn);
/* Thread k's cache of image cuts (k = 0: the renderer's). */
sw_image_cuts *sw_thread_cuts(lk_backend_instance *inst, size_t k);
/* Ends the workers (the instance's close). */
void sw_workers_stop(lk_backend_instance *inst);
/* The threads without the variable: the online CPUs, at most SW_DEFAULT_THREADS. */
int sw_threads_default(void);

/* software_gradient.c */
/* false, with error naming the op and why, for a GRADIENT op that cannot be drawn */
bool sw_gradient_validate(const lk_dl_op *op, uint32_t index, char *error, size_t error_size);
/* false only when memory runs out */
bool sw_paint_gradient(lk_backend_instance *inst, const lk_dl_op *op, const sw_clip *clip);
void sw_gradient_scratch_free(lk_backend_instance *inst);

/* software_group.c */
/* PUSH_GROUP, GROUP_CONTENT, POP_GROUP; false only when memory runs out. */
bool sw_group_push(lk_backend_instance *inst, const lk_dl_op *op);
bool sw_group_content(lk_backend_instance *inst);
bool sw_group_pop(lk_backend_instance *inst);
/* Drops every open group without compositing (after a failure). */
void sw_group_stack_free(lk_backend_instance *inst);

/* software_blur.c (and its AVX2 build, software_blur_avx2.c) */
/* out[x] = sum over i < count of weights[i] * first[i * step + x], for x < n,
   summed in order of i from 0. */
void sw_blur_weighted_rows(float *restrict out, const float *restrict first, ptrdiff_t step,
                           const float *restrict weights, int32_t count, int32_t n);
void sw_blur_weighted_rows_avx2(float *restrict out, const float *restrict first, ptrdiff_t step,
                                const float *restrict weights, int32_t count, int32_t n);
/* out[x] = in[x] clamped to 0..255 and rounded to nearest (ties to even), for x < n */
void sw_blur_to_bytes(uint8_t *restrict out, const float *restrict in, int32_t n);
void sw_blur_to_bytes_avx2(uint8_t *restrict out, const float *restrict in, int32_t n);

#endif /* LAYERKIT_SOFTWARE_PRIVATE_H */
