#include "lkt_cairo.h"

#include <stdlib.h>
#include <string.h>

#include "lktest.h"

cairo_t *lkt_cairo_begin(int width, int height)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(s);
    cairo_surface_destroy(s);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_paint(cr);
    return cr;
}

uint8_t *lkt_cairo_end(cairo_t *cr)
{
    cairo_surface_t *s = cairo_get_target(cr);
    int w, h, stride, x, y;
    const unsigned char *data;
    uint8_t *out;
    cairo_surface_flush(s);
    w = cairo_image_surface_get_width(s);
    h = cairo_image_surface_get_height(s);
    stride = cairo_image_surface_get_stride(s);
    data = cairo_image_surface_get_data(s);
    out = (uint8_t *)malloc((size_t)w * (size_t)h * 4 + 4);
    for (y = 0; y < h && out; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        for (x = 0; x < w; x++) {
            uint32_t p = row[x], a = p >> 24;
            uint8_t *o = out + ((size_t)y * (size_t)w + (size_t)x) * 4;
            uint32_t r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255;
            if (a > 0 && a < 255) {
                r = (r * 255 + a / 2) / a;
                g = (g * 255 + a / 2) / a;
                b = (b * 255 + a / 2) / a;
            }
            o[0] = (uint8_t)r;
            o[1] = (uint8_t)g;
            o[2] = (uint8_t)b;
            o[3] = (uint8_t)a;
        }
    }
    cairo_destroy(cr);
    return out;
}

int lkt_check_against_cairo(const char *name, lk_display *display, cairo_t *reference, lkt_tolerance tolerance)
{
    lk_size size = lk_display_get_size(display);
    uint32_t w = (uint32_t)size.width, h = (uint32_t)size.height;
    uint8_t *expected = lkt_cairo_end(reference);
    uint8_t *actual = (uint8_t *)malloc((size_t)w * h * 4 + 4);
    lkt_compare_result result;
    int ok = 0;
    if (!expected || !actual) {
        LKT_CHECK(0, name, "out of memory");
    } else if (lk_display_read_pixels(display, actual, (size_t)w * 4) != LK_OK) {
        LKT_CHECK(0, name, "lk_display_read_pixels failed: %s", lk_last_error());
    } else {
        char file[256];
        size_t i;
        /* the check's name as a file name */
        strncpy(file, name, sizeof file - 1);
        file[sizeof file - 1] = 0;
        for (i = 0; file[i]; i++)
            if (!((file[i] >= 'a' && file[i] <= 'z') || (file[i] >= 'A' && file[i] <= 'Z') ||
                  (file[i] >= '0' && file[i] <= '9')))
                file[i] = '_';
        ok = lkt_compare_to_image_ex(actual, w, h, (size_t)w * 4, expected, file, tolerance, &result);
        LKT_CHECK(ok, name, "%s", result.message);
    }
    free(expected);
    free(actual);
    return ok;
}
