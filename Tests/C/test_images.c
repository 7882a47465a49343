/*
 * Images: created from RGBA8 (straight alpha) and ARGB32 premultiplied
 * pixels, read back as RGBA8 (straight alpha); loaded from PNG files this
 * test writes itself with libpng (RGBA, grey, palette); written as PNG; and
 * the errors: missing and corrupt files, bad arguments (S8.1).
 *
 * Straight -> premultiplied -> straight loses precision where alpha is low:
 * opaque pixels must come back exactly, half transparent ones within 2.
 */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "lktest.h"

#include <png.h>
#include <setjmp.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* every channel of every pixel within tol (colour ignored where alpha is 0) */
static int same_pixels(const uint8_t *got, const uint8_t *want, size_t n, int tol, char *why,
                       size_t why_size)
{
    size_t i;
    for (i = 0; i < n; i++) {
        const uint8_t *g = got + i * 4, *w = want + i * 4;
        int c, channels = w[3] == 0 ? 1 : 4;
        for (c = 0; c < channels; c++) {
            int ch = channels == 1 ? 3 : c;
            int d = (int)g[ch] - (int)w[ch];
            if (d < -tol || d > tol) {
                snprintf(why, why_size, "pixel %zu: got %u,%u,%u,%u, expected %u,%u,%u,%u", i,
                         g[0], g[1], g[2], g[3], w[0], w[1], w[2], w[3]);
                return 0;
            }
        }
    }
    return 1;
}

static void check_rgba8(void)
{
    /* 3 x 2: opaque red, green, blue; half transparent white and orange; clear */
    static const uint8_t src[24] = {255, 0,   0,  255, 0,  255, 0,  255, 0,  0, 255, 255,
                                    255, 255, 255, 128, 200, 100, 50, 128, 10, 20, 30, 0};
    uint8_t copy[24], out[24];
    char why[256] = "";
    lk_image *img;
    lk_status s;

    memcpy(copy, src, sizeof copy);
    img = lk_image_create_from_pixels(3, 2, 12, LK_PIXEL_FORMAT_RGBA8, copy);
    if (!LKT_CHECK(img != NULL, "image from RGBA8 pixels", "NULL: %s", lk_last_error())) return;
    memset(copy, 0, sizeof copy); /* the image has its own copy */
    LKT_CHECK(lk_image_get_width(img) == 3 && lk_image_get_height(img) == 2,
              "image from RGBA8 has the given size", "%ux%u", (unsigned)lk_image_get_width(img),
              (unsigned)lk_image_get_height(img));
    memset(out, 0xab, sizeof out);
    s = lk_image_read_pixels(img, out, 12);
    LKT_CHECK(s == LK_OK && same_pixels(out, src, 2, 0, why, sizeof why) &&
                  same_pixels(out + 8, src + 8, 1, 0, why, sizeof why),
              "RGBA8 round trip, opaque pixels exact, pixels copied at creation", "%s %s",
              lkt_status_name(s), why);
    LKT_CHECK(s == LK_OK && same_pixels(out + 12, src + 12, 3, 2, why, sizeof why),
              "RGBA8 round trip, translucent pixels within 2, alpha 0 stays 0", "%s %s",
              lkt_status_name(s), why);
    lk_release(img);
}

static void check_argb32(void)
{
    /* native 0xAARRGGBB, premultiplied */
    uint32_t src[4] = {0xFFFF0000u, 0xFF123456u, 0x80400000u, 0x00000000u};
    static const uint8_t want[16] = {255, 0, 0, 255, 0x12, 0x34, 0x56, 255, 128, 0, 0, 128,
                                     0, 0, 0, 0};
    uint8_t out[16];
    char why[256] = "";
    lk_image *img = lk_image_create_from_pixels(2, 2, 8, LK_PIXEL_FORMAT_ARGB32_PREMULTIPLIED, src);
    lk_status s;
    if (!LKT_CHECK(img != NULL, "image from ARGB32 premultiplied pixels", "NULL: %s",
                   lk_last_error()))
        return;
    memset(out, 0xab, sizeof out);
    s = lk_image_read_pixels(img, out, 8);
    LKT_CHECK(s == LK_OK && same_pixels(out, want, 2, 0, why, sizeof why),
              "ARGB32 premultiplied reads back as RGBA8 (opaque exact)", "%s %s",
              lkt_status_name(s), why);
    LKT_CHECK(s == LK_OK && same_pixels(out + 8, want + 8, 2, 1, why, sizeof why),
              "ARGB32 premultiplied is un-premultiplied (0x80400000 -> 128,0,0,128)", "%s %s",
              lkt_status_name(s), why);
    lk_release(img);
}

static void check_strides(void)
{
    /* 2 x 2 with 4 bytes of junk after every row */
    uint8_t src[24], out[40], want[16];
    char why[256] = "";
    lk_image *img;
    lk_status s;
    int i, pad_ok = 1;
    memset(src, 0xee, sizeof src);
    for (i = 0; i < 4; i++) {
        uint8_t *p = src + (i / 2) * 12 + (i % 2) * 4;
        p[0] = (uint8_t)(10 * i);
        p[1] = (uint8_t)(20 + i);
        p[2] = (uint8_t)(200 - i);
        p[3] = 255;
        memcpy(want + i * 4, p, 4);
    }
    img = lk_image_create_from_pixels(2, 2, 12, LK_PIXEL_FORMAT_RGBA8, src);
    if (!LKT_CHECK(img != NULL, "image from pixels with a padded stride", "NULL: %s",
                   lk_last_error()))
        return;
    memset(out, 0x5a, sizeof out);
    s = lk_image_read_pixels(img, out, 20); /* 12 bytes of padding per row */
    for (i = 8; i < 20; i++)
        if (out[i] != 0x5a) pad_ok = 0;
    LKT_CHECK(s == LK_OK && same_pixels(out, want, 2, 0, why, sizeof why) &&
                  same_pixels(out + 20, want + 8, 2, 0, why, sizeof why),
              "stride, padding ignored on the way in, rows placed by stride on the way out",
              "%s %s", lkt_status_name(s), why);
    LKT_CHECK(pad_ok, "read_pixels leaves the padding of a row alone", "padding overwritten");

    lkt_error_mark();
    s = lk_image_read_pixels(img, out, 4);
    LKT_CHECK_ERROR("S8.1 read_pixels with stride < width * 4 is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "stride");
    lkt_error_mark();
    s = lk_image_read_pixels(img, NULL, 8);
    LKT_CHECK_ERROR("S8.1 read_pixels into NULL is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "rgba8|pixels|buffer");
    lkt_error_mark();
    s = lk_image_read_pixels(NULL, out, 8);
    LKT_CHECK_ERROR("S8.1 read_pixels of a NULL image is an invalid argument", s,
                    LK_ERROR_INVALID_ARGUMENT, "image");
    lk_release(img);
}

static void check_create_errors(void)
{
    uint8_t px[64];
    lk_image *img;
    memset(px, 1, sizeof px);

    lkt_error_mark();
    img = lk_image_create_from_pixels(4, 4, 8, LK_PIXEL_FORMAT_RGBA8, px);
    LKT_CHECK(img == NULL, "S8.1 create with stride < width * 4 fails", "got an image");
    LKT_CHECK_ERROR_MESSAGE("S8.1 create with a short stride names the stride", "stride");
    lk_release(img);
    lkt_error_mark();
    img = lk_image_create_from_pixels(2, 2, 8, LK_PIXEL_FORMAT_RGBA8, NULL);
    LKT_CHECK(img == NULL, "S8.1 create from NULL pixels fails", "got an image");
    LKT_CHECK_ERROR_MESSAGE("S8.1 create from NULL pixels names them", "pixels");
    lk_release(img);
    lkt_error_mark();
    img = lk_image_create_from_pixels(0, 2, 8, LK_PIXEL_FORMAT_RGBA8, px);
    LKT_CHECK(img == NULL, "S8.1 create with width 0 fails", "got an image");
    LKT_CHECK_ERROR_MESSAGE("S8.1 create with width 0 names it", "width");
    lk_release(img);
    lkt_error_mark();
    img = lk_image_create_from_pixels(2, 2, 8, (lk_pixel_format)7, px);
    LKT_CHECK(img == NULL, "S8.1 create with an unknown pixel format fails", "got an image");
    LKT_CHECK_ERROR_MESSAGE("S8.1 create with an unknown pixel format names it", "format");
    lk_release(img);

    lkt_error_mark();
    LKT_CHECK(lk_image_get_width(NULL) == 0 && lk_image_get_height(NULL) == 0,
              "S8.1 width and height of NULL are 0", "nonzero");
    LKT_CHECK_ERROR_MESSAGE("S8.1 width of NULL sets the message", "image");
}

static int write_test_png(const char *path, png_uint_32 format, const void *buffer, uint32_t w,
                          uint32_t h, const void *colormap, uint32_t colormap_entries)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = w;
    image.height = h;
    image.format = format;
    image.colormap_entries = colormap_entries;
    return png_image_write_to_file(&image, path, 0, buffer, 0, colormap) ? 0 : -1;
}

static void check_png_files(void)
{
    char path[1024], why[256] = "";
    uint8_t rgba[5 * 4 * 4], out[5 * 4 * 4], grey[4 * 3], want_grey[4 * 3 * 4];
    uint8_t indices[3 * 2], colormap[3 * 3], want_pal[3 * 2 * 4];
    lk_image *img;
    lk_status s;
    int i;

    /* RGBA, with two translucent pixels */
    for (i = 0; i < 20; i++) {
        rgba[i * 4 + 0] = (uint8_t)(i * 12);
        rgba[i * 4 + 1] = (uint8_t)(255 - i * 10);
        rgba[i * 4 + 2] = (uint8_t)(i * 7 + 3);
        rgba[i * 4 + 3] = (uint8_t)(i == 5 ? 128 : i == 6 ? 200 : 255);
    }
    lkt_output_path(path, sizeof path, "lktest-rgba.png");
    if (!LKT_CHECK(write_test_png(path, PNG_FORMAT_RGBA, rgba, 5, 4, NULL, 0) == 0,
                   "write an RGBA PNG for the image tests", "cannot write %s", path))
        return;
    img = lk_image_create_from_png_file(path);
    if (LKT_CHECK(img != NULL, "image from an RGBA PNG file", "NULL: %s", lk_last_error())) {
        LKT_CHECK(lk_image_get_width(img) == 5 && lk_image_get_height(img) == 4,
                  "PNG image has the file's size", "%ux%u", (unsigned)lk_image_get_width(img),
                  (unsigned)lk_image_get_height(img));
        memset(out, 0, sizeof out);
        s = lk_image_read_pixels(img, out, 20);
        LKT_CHECK(s == LK_OK && same_pixels(out, rgba, 20, 2, why, sizeof why),
                  "PNG image has the file's pixels (straight alpha)", "%s %s",
                  lkt_status_name(s), why);

        /* write it back and read the file with libpng */
        lkt_output_path(path, sizeof path, "lktest-rgba-written.png");
        s = lk_image_write_png(img, path);
        if (LKT_CHECK_STATUS("lk_image_write_png", s, LK_OK)) {
            uint8_t *back = NULL;
            uint32_t bw = 0, bh = 0;
            const char *err = NULL;
            int r = lkt_png_read(path, &back, &bw, &bh, &err);
            LKT_CHECK(r == 0 && bw == 5 && bh == 4 && same_pixels(back, rgba, 20, 2, why, sizeof why),
                      "lk_image_write_png writes a PNG libpng reads back",
                      "read %d (%s), %ux%u, %s", r, err ? err : "", (unsigned)bw, (unsigned)bh, why);
            free(back);
        }
        lk_release(img);
    }

    /* 8-bit grey */
    for (i = 0; i < 12; i++) {
        grey[i] = (uint8_t)(i * 20);
        want_grey[i * 4 + 0] = want_grey[i * 4 + 1] = want_grey[i * 4 + 2] = grey[i];
        want_grey[i * 4 + 3] = 255;
    }
    lkt_output_path(path, sizeof path, "lktest-grey.png");
    if (write_test_png(path, PNG_FORMAT_GRAY, grey, 4, 3, NULL, 0) == 0) {
        img = lk_image_create_from_png_file(path);
        memset(out, 0, sizeof out);
        s = img ? lk_image_read_pixels(img, out, 16) : LK_ERROR_IO;
        LKT_CHECK(img && s == LK_OK && same_pixels(out, want_grey, 12, 1, why, sizeof why),
                  "image from a greyscale PNG file", "%s %s (%s)", img ? "" : "NULL",
                  why, lk_last_error());
        lk_release(img);
    }

    /* palette: 3 colours */
    colormap[0] = 255; colormap[1] = 0;   colormap[2] = 0;
    colormap[3] = 0;   colormap[4] = 128; colormap[5] = 255;
    colormap[6] = 20;  colormap[7] = 30;  colormap[8] = 40;
    for (i = 0; i < 6; i++) {
        indices[i] = (uint8_t)(i % 3);
        memcpy(want_pal + i * 4, colormap + (i % 3) * 3, 3);
        want_pal[i * 4 + 3] = 255;
    }
    lkt_output_path(path, sizeof path, "lktest-palette.png");
    if (write_test_png(path, PNG_FORMAT_RGB_COLORMAP, indices, 3, 2, colormap, 3) == 0) {
        img = lk_image_create_from_png_file(path);
        memset(out, 0, sizeof out);
        s = img ? lk_image_read_pixels(img, out, 12) : LK_ERROR_IO;
        LKT_CHECK(img && s == LK_OK && same_pixels(out, want_pal, 6, 0, why, sizeof why),
                  "image from a palette PNG file", "%s %s (%s)", img ? "" : "NULL", why,
                  lk_last_error());
        lk_release(img);
    }
}

static void check_png_errors(void)
{
    char path[1024];
    lk_image *img;
    lk_status s;
    FILE *f;
    uint8_t px[4] = {1, 2, 3, 4};

    lkt_output_path(path, sizeof path, "lktest-no-such-file.png");
    remove(path);
    lkt_error_mark();
    img = lk_image_create_from_png_file(path);
    LKT_CHECK(img == NULL, "S8.1 a missing PNG file gives NULL", "got an image");
    LKT_CHECK_ERROR_MESSAGE("S8.1 a missing PNG file is reported by name",
                            "lktest-no-such-file.png");
    lk_release(img);

    lkt_output_path(path, sizeof path, "lktest-corrupt.png");
    f = fopen(path, "wb");
    if (f) {
        fputs("this is not a PNG file, only text pretending to be one", f);
        fclose(f);
    }
    lkt_error_mark();
    img = lk_image_create_from_png_file(path);
    LKT_CHECK(img == NULL, "S8.1 a corrupt PNG file gives NULL", "got an image");
    LKT_CHECK_ERROR_MESSAGE("S8.1 a corrupt PNG file is reported by name", "lktest-corrupt.png");
    lk_release(img);

    /* a real PNG cut in half */
    {
        uint8_t big[64 * 64 * 4];
        char whole[1024];
        FILE *in;
        long size;
        char *data;
        size_t i;
        for (i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 2654435761u >> 24);
        lkt_output_path(whole, sizeof whole, "lktest-whole.png");
        lkt_output_path(path, sizeof path, "lktest-truncated.png");
        if (write_test_png(whole, PNG_FORMAT_RGBA, big, 64, 64, NULL, 0) == 0 &&
            (in = fopen(whole, "rb")) != NULL) {
            fseek(in, 0, SEEK_END);
            size = ftell(in);
            fseek(in, 0, SEEK_SET);
            data = (char *)malloc((size_t)size);
            if (data && fread(data, 1, (size_t)size, in) == (size_t)size &&
                (f = fopen(path, "wb")) != NULL) {
                fwrite(data, 1, (size_t)size / 2, f);
                fclose(f);
            }
            free(data);
            fclose(in);
            lkt_error_mark();
            img = lk_image_create_from_png_file(path);
            LKT_CHECK(img == NULL, "S8.1 a truncated PNG file gives NULL", "got an image");
            LKT_CHECK_ERROR_MESSAGE("S8.1 a truncated PNG file is reported by name",
                                    "lktest-truncated.png");
            lk_release(img);
        }
    }

    lkt_error_mark();
    img = lk_image_create_from_png_file(NULL);
    LKT_CHECK(img == NULL, "S8.1 a NULL file name gives NULL", "got an image");
    LKT_CHECK_ERROR_MESSAGE("S8.1 a NULL file name is reported", "file");

    img = lk_image_create_from_pixels(1, 1, 4, LK_PIXEL_FORMAT_RGBA8, px);
    lkt_error_mark();
    s = lk_image_write_png(img, "/nonexistent-lktest-dir/out.png");
    LKT_CHECK_ERROR("S8.1 writing a PNG where it cannot be written is an I/O error", s,
                    LK_ERROR_IO, "/nonexistent-lktest-dir/out.png");
    lk_release(img);
}

/* Files of the test's own bytes (written with zlib by hand, 2026-12-01). */
static void write_bytes(const char *path, const unsigned char *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(bytes, 1, n, f);
    fclose(f);
}

/* A 16-bit PNG with no gAMA or sRGB chunk is sRGB, as the PNG specification
   and ImageIO take it: grey 0x8080 and 0x4040 load as 128 and 64 (they
   loaded as 186 and 136, libpng taking 16-bit samples as linear). A PNG
   whose header says 32768 x 32768 RGBA (4 GiB) is refused before anything
   is allocated, saying why (libpng's own "image too large", after 4 GiB). */
static void check_png_decoding(void)
{
    static const unsigned char gray16[] = {
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x10, 0x00, 0x00, 0x00, 0x00, 0x81, 0xd9, 0xfc, 0x15, 0x00, 0x00, 0x00,
        0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x68, 0x68, 0x70, 0x70, 0x00, 0x00, 0x04, 0x45, 0x01, 0x81,
        0x1d, 0xc7, 0xa2, 0xbf, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82 };
    static const unsigned char huge[] = {
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x80, 0x00, 0x00, 0x00, 0x80, 0x00, 0x08, 0x06, 0x00, 0x00, 0x00, 0xc4, 0x7c, 0xa3, 0x7f, 0x00, 0x00, 0x00,
        0x09, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x5e, 0xff, 0x7d, 0xf9,
        0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82 };
    char path[1024];
    lkt_output_path(path, sizeof path, "lktest-gray16.png");
    write_bytes(path, gray16, sizeof gray16);
    lk_image *img = lk_image_create_from_png_file(path);
    uint8_t px[2 * 4] = { 0 };
    LKT_CHECK(img && lk_image_read_pixels(img, px, 8) == LK_OK && abs(px[0] - 128) <= 1 && abs(px[4] - 64) <= 1 &&
                  px[3] == 255,
              "S6.1 a 16-bit PNG with no colour chunk is sRGB: 0x8080 and 0x4040 load as 128 and 64", "%s: %d and %d",
              img ? "loaded" : lk_last_error(), px[0], px[4]);
    lk_release(img);
    lkt_output_path(path, sizeof path, "lktest-huge-header.png");
    write_bytes(path, huge, sizeof huge);
    lkt_error_mark();
    img = lk_image_create_from_png_file(path);
    LKT_CHECK(img == NULL && strstr(lk_last_error(), "32768x32768") != NULL && strstr(lk_last_error(), "4 GiB") != NULL,
              "S8.1 a PNG of 32768 x 32768 (4 GiB of RGBA) is refused, saying why", "%s",
              img ? "got an image" : lk_last_error());
    lk_release(img);

    /* strides past any buffer are refused (2^62 for 3 rows crashed), and a
       size_t stride is printed as given */
    uint8_t one[4] = { 1, 2, 3, 4 };
    lkt_error_mark();
    img = lk_image_create_from_pixels(1, 3, (size_t)1 << 62, LK_PIXEL_FORMAT_RGBA8, one);
    LKT_CHECK(img == NULL && strstr(lk_last_error(), "stride") != NULL, "S8.1 a stride of 2^62 bytes is refused",
              "%s", img ? "got an image" : lk_last_error());
    lk_release(img);
    lkt_error_mark();
    img = lk_image_create_from_pixels(1, 1, (size_t)-1, LK_PIXEL_FORMAT_RGBA8, one);
    LKT_CHECK(img == NULL && strstr(lk_last_error(), "18446744073709551615") != NULL &&
                  strstr(lk_last_error(), "less than") == NULL,
              "S8.1 a stride of (size_t)-1 is refused, named as given (as too large, not less than width * 4)", "%s",
              img ? "got an image" : lk_last_error());
    lk_release(img);
}

/* An 11x9 16-bit Adam7-interlaced PNG written with libpng's ordinary writer:
   colour type `type` (RGB or grey + alpha), sample (x, y, c) below. */
static unsigned sample16(int x, int y, int c) { return c == 0 ? x * 5000u : c == 1 ? y * 7000u : 65535u - (unsigned)(x + y) * 3000u; }
static int write_interlaced16(const char *path, int type)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = p ? png_create_info_struct(p) : NULL;
    static png_byte data[9][11 * 6];
    png_bytep rows[9];
    if (!p || !info || setjmp(png_jmpbuf(p))) {
        png_destroy_write_struct(&p, &info);
        fclose(f);
        return -1;
    }
    png_init_io(p, f);
    png_set_IHDR(p, info, 11, 9, 16, type, PNG_INTERLACE_ADAM7, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(p, info);
    int channels = type == PNG_COLOR_TYPE_RGB ? 3 : 2;
    for (int y = 0; y < 9; y++) {
        rows[y] = data[y];
        for (int x = 0; x < 11; x++)
            for (int c = 0; c < channels; c++) {
                /* grey + alpha: the grey is sample 0, the alpha sample 2 */
                unsigned v = sample16(x, y, channels == 2 && c == 1 ? 2 : c);
                data[y][(x * channels + c) * 2] = (png_byte)(v >> 8);
                data[y][(x * channels + c) * 2 + 1] = (png_byte)v;
            }
    }
    png_write_image(p, rows);
    png_write_end(p, NULL);
    png_destroy_write_struct(&p, &info);
    fclose(f);
    return 0;
}

/* 16-bit interlaced PNGs load with their own samples: libpng's simplified
   reader returns wrong ones for them at 8 bits (55 of 99 pixels off;
   pnggroup/libpng#853), so LayerKit reads those files another way. */
static void check_png_interlaced16(void)
{
    char path[1024];
    uint8_t px[11 * 9 * 4];
    lkt_output_path(path, sizeof path, "lktest-interlaced16-rgb.png");
    if (!LKT_CHECK(write_interlaced16(path, PNG_COLOR_TYPE_RGB) == 0, "write a 16-bit interlaced RGB PNG", "%s", path)) return;
    lk_image *img = lk_image_create_from_png_file(path);
    int wrong = -1;
    if (img && lk_image_read_pixels(img, px, 11 * 4) == LK_OK) {
        wrong = 0;
        for (int y = 0; y < 9; y++)
            for (int x = 0; x < 11; x++) {
                const uint8_t *q = px + (y * 11 + x) * 4;
                if (abs(q[0] - (int)((sample16(x, y, 0) + 128) / 257)) > 1 ||
                    abs(q[1] - (int)((sample16(x, y, 1) + 128) / 257)) > 1 ||
                    abs(q[2] - (int)((sample16(x, y, 2) + 128) / 257)) > 1 || q[3] != 255)
                    wrong++;
            }
    }
    LKT_CHECK(wrong == 0, "S6.1 a 16-bit interlaced RGB PNG loads with its own samples", "%s: %d of 99 pixels wrong",
              img ? "loaded" : lk_last_error(), wrong);
    lk_release(img);
    lkt_output_path(path, sizeof path, "lktest-interlaced16-grey-alpha.png");
    if (!LKT_CHECK(write_interlaced16(path, PNG_COLOR_TYPE_GRAY_ALPHA) == 0, "write a 16-bit interlaced grey+alpha PNG",
                   "%s", path)) return;
    img = lk_image_create_from_png_file(path);
    wrong = -1;
    if (img && lk_image_read_pixels(img, px, 11 * 4) == LK_OK) {
        wrong = 0;
        for (int y = 0; y < 9; y++)
            for (int x = 0; x < 11; x++)
                if (abs(px[(y * 11 + x) * 4 + 3] - (int)((sample16(x, y, 2) + 128) / 257)) > 1) wrong++;
    }
    LKT_CHECK(wrong == 0, "S6.1 a 16-bit interlaced grey+alpha PNG loads with its own alpha", "%s: %d of 99 pixels wrong",
              img ? "loaded" : lk_last_error(), wrong);
    lk_release(img);
}

/* S8.1: pixels the system cannot give are LK_ERROR_OUT_OF_MEMORY, the call
   changing nothing (Swift's allocation aborted the process: a 20000 x
   20000 image under a memory limit). The address space is limited to 64 MB
   beyond what the process holds, around 256 MB images from pixels and from
   a PNG (its header only: decoding allocates first). Not under valgrind,
   which needs room of its own. */
static void check_out_of_memory(void)
{
    const char *preload = getenv("LD_PRELOAD");
    if (preload && strstr(preload, "vgpreload")) return;
    static const unsigned char big[] = {   /* 8192 x 8192 RGBA, one row of data */
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x20, 0x00, 0x00, 0x00, 0x20, 0x00, 0x08, 0x06, 0x00, 0x00, 0x00, 0x72, 0xaa, 0xca, 0x59, 0x00, 0x00, 0x00,
        0x09, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x5e, 0xff, 0x7d, 0xf9,
        0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82 };
    char path[1024];
    lkt_output_path(path, sizeof path, "lktest-big-header.png");
    write_bytes(path, big, sizeof big);
    size_t side = 8192, bytes = side * side * 4;
    void *source = malloc(bytes);   /* never touched: the call fails before it reads */
    struct rlimit saved, limit;
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!source || !f || getrlimit(RLIMIT_AS, &saved) != 0 || fscanf(f, "%ld", &pages) != 1 || pages <= 0) {
        if (f) fclose(f);
        free(source);
        return;
    }
    fclose(f);
    limit = saved;
    limit.rlim_cur = (rlim_t)pages * 4096 + (64 << 20);
    if (setrlimit(RLIMIT_AS, &limit) != 0) {
        free(source);
        return;
    }
    lkt_error_mark();
    lk_image *img = lk_image_create_from_pixels((uint32_t)side, (uint32_t)side, side * 4, LK_PIXEL_FORMAT_RGBA8, source);
    char first[512];
    snprintf(first, sizeof first, "%s", lk_last_error());
    lkt_error_mark();
    lk_image *png = lk_image_create_from_png_file(path);
    char second[512];
    snprintf(second, sizeof second, "%s", lk_last_error());
    setrlimit(RLIMIT_AS, &saved);
    LKT_CHECK(img == NULL && strstr(first, "out of memory") != NULL,
              "S8.1 an image whose pixels cannot be allocated is an error saying so", "%s",
              img ? "got an image" : first);
    LKT_CHECK(png == NULL && strstr(second, "out of memory") != NULL && strstr(second, "lktest-big-header") != NULL,
              "S8.1 a PNG whose pixels cannot be allocated is an error naming the file", "%s",
              png ? "got an image" : second);
    lk_release(img);
    lk_release(png);
    free(source);
}

static void check_retain(void)
{
    uint8_t px[4] = {9, 8, 7, 255};
    lk_image *img = lk_image_create_from_pixels(1, 1, 4, LK_PIXEL_FORMAT_RGBA8, px);
    lk_image *again = (lk_image *)lk_retain(img);
    LKT_CHECK(again == img, "C-API lk_retain on an image returns it", "got %p", (void *)again);
    lk_release(img);
    LKT_CHECK(lk_image_get_width(again) == 1, "C-API an image lives while retained", "width %u",
              (unsigned)lk_image_get_width(again));
    lk_release(again);
}

int main(void)
{
    check_rgba8();
    check_argb32();
    check_strides();
    check_create_errors();
    check_png_files();
    check_png_errors();
    check_png_decoding();
    check_png_interlaced16();
    check_out_of_memory();
    check_retain();
    return lkt_finish();
}
