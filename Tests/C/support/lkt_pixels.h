/*
 * Pixels for LayerKit's C tests: PNG files through libpng's simplified API
 * (png_image_*), output paths, and comparison against reference images.
 * Independent of LayerKit (the reference generator uses it too).
 */
#ifndef LKT_PIXELS_H
#define LKT_PIXELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a PNG of any kind into a new RGBA8 (straight alpha) buffer with
   stride width * 4 (free with free()). 0 on success, -1 on failure (and
   *error, if given, points to a static description). */
int lkt_png_read(const char *file_name, uint8_t **rgba, uint32_t *width,
                 uint32_t *height, const char **error);
/* Writes RGBA8 straight alpha. 0 on success. */
int lkt_png_write(const char *file_name, const uint8_t *rgba, uint32_t width,
                  uint32_t height, size_t stride);

/* $LKTEST_OUTPUT_DIR (default out/test-results), created if missing. */
const char *lkt_output_dir(void);
/* $LKTEST_REFERENCE_DIR (default Tests/C/reference). */
const char *lkt_reference_dir(void);
/* "<output dir>/<file>" into buf. */
const char *lkt_output_path(char *buf, size_t size, const char *file);

/* How far an image may stray from its reference.
   - every channel of a pixel (R, G, B, A) within `flat` of the reference:
     the pixel matches;
   - else, if the reference is not flat around the pixel (its 3x3
     neighbourhood varies by more than `flat` in some channel: an
     anti-aliased edge or a filtered transition) and every channel is
     within `edge`: an edge pixel; at most max_edge_pixels of them;
   - anything else is a bad pixel; at most max_bad_pixels of them. */
typedef struct lkt_tolerance {
    int flat;
    int edge;
    int max_edge_pixels;
    int max_bad_pixels;
} lkt_tolerance;

typedef struct lkt_compare_result {
    int ok;
    int edge_pixels, bad_pixels;
    int worst;            /* largest channel difference */
    int worst_x, worst_y; /* where it is */
    uint8_t worst_actual[4], worst_reference[4];
    char message[4096];   /* one line: what failed and where the images are */
} lkt_compare_result;

/* Compares rgba (width x height, stride bytes) with
   $LKTEST_REFERENCE_DIR/<reference_name>.png. On failure writes
   <name>.actual.png and <name>.diff.png (differences amplified 8x in grey,
   edge pixels yellow, bad pixels red) into $LKTEST_OUTPUT_DIR and describes
   the worst difference in result->message. With LKTEST_UPDATE_REFERENCES=1
   the actual image is always written, never the reference: references come
   from the independent generator (Tests/C/refgen). */
int lkt_compare_to_reference_ex(const uint8_t *rgba, uint32_t width, uint32_t height,
                                size_t stride, const char *reference_name,
                                lkt_tolerance tolerance, lkt_compare_result *result);

/* The same against a reference the test drew itself (width x height,
   packed RGBA8 straight alpha), e.g. with cairo; on failure it is written
   as <name>.reference.png beside the actual and difference images. */
int lkt_compare_to_image_ex(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                            const uint8_t *reference, const char *name, lkt_tolerance tolerance,
                            lkt_compare_result *result);

#ifdef __cplusplus
}
#endif

#endif
