/* PNG files, output paths and reference comparison for the C tests. */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "lkt_pixels.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

int lkt_png_read(const char *file_name, uint8_t **rgba, uint32_t *width,
                 uint32_t *height, const char **error)
{
    static char message[256];
    png_image image;
    uint8_t *buffer;

    *rgba = NULL;
    *width = 0;
    *height = 0;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, file_name)) {
        snprintf(message, sizeof message, "%s", image.message);
        if (error) *error = message;
        return -1;
    }
    image.format = PNG_FORMAT_RGBA;
    buffer = (uint8_t *)malloc(PNG_IMAGE_SIZE(image));
    if (!buffer) {
        png_image_free(&image);
        if (error) *error = "out of memory";
        return -1;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        snprintf(message, sizeof message, "%s", image.message);
        free(buffer);
        if (error) *error = message;
        return -1;
    }
    *rgba = buffer;
    *width = image.width;
    *height = image.height;
    return 0;
}

int lkt_png_write(const char *file_name, const uint8_t *rgba, uint32_t width,
                  uint32_t height, size_t stride)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    if (!png_image_write_to_file(&image, file_name, 0, rgba, (png_int_32)stride, NULL)) {
        fprintf(stderr, "lktest: cannot write %s: %s\n", file_name, image.message);
        return -1;
    }
    return 0;
}

static void make_dirs(const char *path)
{
    char buf[1024];
    size_t i, n = strlen(path);
    if (n == 0 || n >= sizeof buf) return;
    memcpy(buf, path, n + 1);
    for (i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char saved = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
                /* reported when a file cannot be written there */
            }
            buf[i] = saved;
        }
    }
}

const char *lkt_output_dir(void)
{
    static int made = 0;
    const char *dir = getenv("LKTEST_OUTPUT_DIR");
    if (!dir || !*dir) dir = "out/test-results";
    if (!made) {
        make_dirs(dir);
        made = 1;
    }
    return dir;
}

const char *lkt_reference_dir(void)
{
    const char *dir = getenv("LKTEST_REFERENCE_DIR");
    if (!dir || !*dir) dir = "Tests/C/reference";
    return dir;
}

const char *lkt_output_path(char *buf, size_t size, const char *file)
{
    snprintf(buf, size, "%s/%s", lkt_output_dir(), file);
    return buf;
}

static int channel_diff(const uint8_t *a, const uint8_t *b)
{
    int worst = 0, c;
    for (c = 0; c < 4; c++) {
        int d = (int)a[c] - (int)b[c];
        if (d < 0) d = -d;
        if (d > worst) worst = d;
    }
    return worst;
}

/* The reference varies around (x, y) by more than `flat` in some channel. */
static int reference_is_edge(const uint8_t *ref, uint32_t w, uint32_t h, uint32_t x,
                             uint32_t y, int flat)
{
    int c;
    for (c = 0; c < 4; c++) {
        int lo = 255, hi = 0;
        long dy, dx;
        for (dy = -1; dy <= 1; dy++) {
            for (dx = -1; dx <= 1; dx++) {
                long yy = (long)y + dy, xx = (long)x + dx;
                int v;
                if (yy < 0 || xx < 0 || yy >= (long)h || xx >= (long)w) continue;
                v = ref[((size_t)yy * w + (size_t)xx) * 4 + (size_t)c];
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
        }
        if (hi - lo > flat) return 1;
    }
    return 0;
}

/* The reference: a file of $LKTEST_REFERENCE_DIR, or (given_ref) an image
   the test drew itself, width x height packed RGBA8. */
static int compare(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                   const char *reference_name, const uint8_t *given_ref, lkt_tolerance tol,
                   lkt_compare_result *r);

int lkt_compare_to_reference_ex(const uint8_t *rgba, uint32_t width, uint32_t height,
                                size_t stride, const char *reference_name,
                                lkt_tolerance tol, lkt_compare_result *r)
{
    return compare(rgba, width, height, stride, reference_name, NULL, tol, r);
}

int lkt_compare_to_image_ex(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                            const uint8_t *reference, const char *name, lkt_tolerance tol,
                            lkt_compare_result *r)
{
    return compare(rgba, width, height, stride, name, reference, tol, r);
}

static int compare(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                   const char *reference_name, const uint8_t *given_ref, lkt_tolerance tol,
                   lkt_compare_result *r)
{
    char ref_path[1024], actual_path[1024], diff_path[1024], file[512];
    uint8_t *ref = NULL, *diff = NULL, *packed = NULL;
    uint32_t rw = 0, rh = 0, x, y;
    const char *err = NULL;
    const char *update = getenv("LKTEST_UPDATE_REFERENCES");
    int updating = update && strcmp(update, "1") == 0;

    memset(r, 0, sizeof *r);
    r->worst_x = r->worst_y = -1;

    /* the actual image, packed to stride width * 4 */
    packed = (uint8_t *)malloc((size_t)width * height * 4 + 4);
    if (!packed) {
        snprintf(r->message, sizeof r->message, "out of memory");
        return 0;
    }
    for (y = 0; y < height; y++)
        memcpy(packed + (size_t)y * width * 4, rgba + (size_t)y * stride, (size_t)width * 4);

    snprintf(ref_path, sizeof ref_path, "%s/%s.png", lkt_reference_dir(), reference_name);
    snprintf(file, sizeof file, "%s.actual.png", reference_name);
    lkt_output_path(actual_path, sizeof actual_path, file);
    snprintf(file, sizeof file, "%s.diff.png", reference_name);
    lkt_output_path(diff_path, sizeof diff_path, file);

    /* LKTEST_KEEP_ACTUAL=1 keeps every frame, for comparing backends with
       each other (Tests/GLES/cross-backend.sh) */
    if (updating || (getenv("LKTEST_KEEP_ACTUAL") && strcmp(getenv("LKTEST_KEEP_ACTUAL"), "1") == 0))
        lkt_png_write(actual_path, packed, width, height, (size_t)width * 4);

    if (given_ref) {
        ref = (uint8_t *)malloc((size_t)width * height * 4 + 4);
        if (ref) memcpy(ref, given_ref, (size_t)width * height * 4);
        rw = width;
        rh = height;
        snprintf(file, sizeof file, "%s.reference.png", reference_name);
        lkt_output_path(ref_path, sizeof ref_path, file);
        if (updating && ref) lkt_png_write(ref_path, ref, width, height, (size_t)width * 4);
    }
    if (!ref && lkt_png_read(ref_path, &ref, &rw, &rh, &err) != 0) {
        lkt_png_write(actual_path, packed, width, height, (size_t)width * 4);
        snprintf(r->message, sizeof r->message,
                 "reference %s unreadable (%s): generate it with Tests/C/refgen; actual image in %s",
                 ref_path, err ? err : "?", actual_path);
        free(packed);
        return 0;
    }
    if (rw != width || rh != height) {
        lkt_png_write(actual_path, packed, width, height, (size_t)width * 4);
        snprintf(r->message, sizeof r->message,
                 "size %ux%u, reference %s is %ux%u; actual image in %s",
                 (unsigned)width, (unsigned)height, ref_path, (unsigned)rw, (unsigned)rh,
                 actual_path);
        free(ref);
        free(packed);
        return 0;
    }

    diff = (uint8_t *)malloc((size_t)width * height * 4 + 4);
    if (!diff) {
        snprintf(r->message, sizeof r->message, "out of memory");
        free(ref);
        free(packed);
        return 0;
    }
    for (y = 0; y < height; y++) {
        for (x = 0; x < width; x++) {
            size_t i = ((size_t)y * width + x) * 4;
            const uint8_t *a = packed + i, *b = ref + i;
            int d = channel_diff(a, b);
            int grey = d * 8 > 255 ? 255 : d * 8;
            uint8_t *o = diff + i;
            o[0] = o[1] = o[2] = (uint8_t)grey;
            o[3] = 255;
            if (d > r->worst) {
                r->worst = d;
                r->worst_x = (int)x;
                r->worst_y = (int)y;
                memcpy(r->worst_actual, a, 4);
                memcpy(r->worst_reference, b, 4);
            }
            if (d <= tol.flat) continue;
            if (d <= tol.edge && reference_is_edge(ref, width, height, x, y, tol.flat)) {
                r->edge_pixels++;
                o[0] = 255; o[1] = 255; o[2] = 0; /* yellow: tolerated edge */
            } else {
                r->bad_pixels++;
                o[0] = 255; o[1] = 0; o[2] = 0; /* red: beyond tolerance */
            }
        }
    }
    r->ok = r->bad_pixels <= tol.max_bad_pixels && r->edge_pixels <= tol.max_edge_pixels;
    if (!r->ok) {
        lkt_png_write(actual_path, packed, width, height, (size_t)width * 4);
        lkt_png_write(diff_path, diff, width, height, (size_t)width * 4);
        if (given_ref) lkt_png_write(ref_path, ref, width, height, (size_t)width * 4);
        snprintf(r->message, sizeof r->message,
                 "%d pixels beyond tolerance (%d allowed: flat +-%d, edges +-%d), "
                 "%d edge pixels (%d allowed); worst difference %d at (%d,%d): "
                 "actual %u,%u,%u,%u reference %u,%u,%u,%u; see %s and %s",
                 r->bad_pixels, tol.max_bad_pixels, tol.flat, tol.edge, r->edge_pixels,
                 tol.max_edge_pixels, r->worst, r->worst_x, r->worst_y,
                 r->worst_actual[0], r->worst_actual[1], r->worst_actual[2], r->worst_actual[3],
                 r->worst_reference[0], r->worst_reference[1], r->worst_reference[2],
                 r->worst_reference[3], actual_path, diff_path);
    } else {
        snprintf(r->message, sizeof r->message,
                 "%d edge pixels, worst difference %d at (%d,%d)", r->edge_pixels, r->worst,
                 r->worst_x, r->worst_y);
    }
    free(diff);
    free(ref);
    free(packed);
    return r->ok;
}
