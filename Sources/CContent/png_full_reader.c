/*
 * The PNG files libpng's simplified API decodes wrongly: 16-bit interlaced
 * ones come out with wrong samples at 8 bits (png_image_read_direct_scaled;
 * pnggroup/libpng#853, open in 1.6.39, Debian's). Read here with the
 * ordinary reader and the same conversions (Content/PNG.swift uses this for
 * those files only; every other PNG keeps the simplified reader).
 */
#include "layerkit_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lkc_png_is_16bit_interlaced(const char *file_name)
{
    unsigned char head[29];
    FILE *f = fopen(file_name, "rb");
    if (!f) return 0;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    /* signature, IHDR length and type, width, height, then bit depth (24),
       colour type, compression, filter and interlace method (28) */
    if (n < sizeof head || png_sig_cmp(head, 0, 8) != 0 || memcmp(head + 12, "IHDR", 4) != 0) return 0;
    return head[24] == 16 && head[28] == 1;
}

typedef struct reader_error {
    char message[200];
} reader_error;

static void on_error(png_structp png, png_const_charp message)
{
    reader_error *e = (reader_error *)png_get_error_ptr(png);
    snprintf(e->message, sizeof e->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;   /* the simplified reader ignores warnings too */
}

int lkc_png_read_rgba8(const char *file_name, uint32_t *pixels, uint32_t width, uint32_t height, char *error,
                       size_t error_size)
{
    reader_error e = { "" };
    FILE *f = fopen(file_name, "rb");
    if (!f) {
        snprintf(error, error_size, "cannot open the file");
        return 0;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &e, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *volatile rows = NULL;
    if (!png || !info) {
        png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
        fclose(f);
        snprintf(error, error_size, "out of memory");
        return 0;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        fclose(f);
        snprintf(error, error_size, "%s", e.message[0] ? e.message : "libpng failed");
        return 0;
    }
    png_init_io(png, f);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        snprintf(e.message, sizeof e.message, "the file changed while it was read");
        png_longjmp(png, 1);
    }
    int type = png_get_color_type(png, info);
    png_set_expand(png);                     /* palette, grey below 8 bits, tRNS to alpha */
    if (!(type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    int intent;
    double gamma;
    /* as the simplified reader with PNG_IMAGE_FLAG_16BIT_sRGB: no chunk (or
       sRGB) is sRGB as it is, another gAMA is converted to sRGB */
    if (!png_get_sRGB(png, info, &intent) && png_get_gAMA(png, info, &gamma) && gamma > 0)
        png_set_gamma(png, PNG_DEFAULT_sRGB, gamma);
    png_set_scale_16(png);                   /* rounded, v * 255 / 65535 */
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);   /* (only where there is none) */
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        snprintf(e.message, sizeof e.message, "unexpected row size after conversion");
        png_longjmp(png, 1);
    }
    rows = (png_bytep *)malloc(sizeof *rows * height);
    if (!rows) {
        snprintf(e.message, sizeof e.message, "out of memory");
        png_longjmp(png, 1);
    }
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * width);
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    fclose(f);
    return 1;
}
