/*
 * PNG files libpng's simplified reader gets wrong, decoded through libpng's
 * ordinary reader (png_full_reader.c). No libpng type crosses this header.
 */
#ifndef LAYERKIT_PNG_H
#define LAYERKIT_PNG_H

#include <stddef.h>
#include <stdint.h>

/* 1 when the file is a 16-bit Adam7-interlaced PNG: the simplified
   reader's 16-to-8-bit path returns wrong samples for those (libpng
   1.6.39 and later, pnggroup/libpng#853). 0 otherwise, or when the file
   cannot be read (the simplified reader then reports why). */
int lkc_png_is_16bit_interlaced(const char *file_name);

/* Decodes the file into width x height words of RGBA8 (bytes R, G, B, A,
   straight alpha, rows packed), as the simplified reader does: palette,
   grey and tRNS expanded, 16-bit samples scaled to 8 (sRGB when the file
   has no gAMA chunk), a gAMA other than sRGB's converted to sRGB. Returns
   1, or 0 with a message in error (the file changed size, or is corrupt). */
int lkc_png_read_rgba8(const char *file_name, uint32_t *pixels, uint32_t width, uint32_t height, char *error,
                       size_t error_size);

#endif
