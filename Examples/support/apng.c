/* APNG writer: PNG signature, IHDR, acTL, then per frame an fcTL and the
   image data (IDAT for the first frame, so viewers without APNG support show
   it; fdAT after), IEND. Every frame covers the whole canvas and replaces it
   (dispose none, blend source). */
#include "apng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct apng_writer {
    FILE *file;
    uint32_t width, height, frame_count, fps, frames_written, sequence;
    int failed;
};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static void chunk(apng_writer *w, const char *type, const uint8_t *data, size_t length)
{
    uint8_t head[8];
    put32(head, (uint32_t)length);
    memcpy(head + 4, type, 4);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (length) crc = crc32(crc, data, (uInt)length);
    uint8_t tail[4];
    put32(tail, (uint32_t)crc);
    if (fwrite(head, 1, 8, w->file) != 8 || (length && fwrite(data, 1, length, w->file) != length) ||
        fwrite(tail, 1, 4, w->file) != 4)
        w->failed = 1;
}

apng_writer *apng_open(const char *file_name, uint32_t width, uint32_t height, uint32_t frame_count, uint32_t fps)
{
    apng_writer *w = (apng_writer *)calloc(1, sizeof *w);
    if (!w) return NULL;
    w->file = fopen(file_name, "wb");
    if (!w->file) {
        perror(file_name);
        free(w);
        return NULL;
    }
    w->width = width; w->height = height; w->frame_count = frame_count; w->fps = fps;
    static const uint8_t signature[8] = { 137, 80, 78, 71, 13, 10, 26, 10 };
    if (fwrite(signature, 1, 8, w->file) != 8) w->failed = 1;
    uint8_t ihdr[13];
    put32(ihdr, width);
    put32(ihdr + 4, height);
    ihdr[8] = 8;   /* bits per channel */
    ihdr[9] = 6;   /* RGBA */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    chunk(w, "IHDR", ihdr, sizeof ihdr);
    uint8_t actl[8];
    put32(actl, frame_count);
    put32(actl + 4, 0);  /* loop forever */
    chunk(w, "acTL", actl, sizeof actl);
    return w;
}

int apng_add_frame(apng_writer *w, const uint8_t *rgba, size_t stride)
{
    if (w->frames_written == w->frame_count) return -1;
    uint8_t fctl[26];
    put32(fctl, w->sequence++);
    put32(fctl + 4, w->width);
    put32(fctl + 8, w->height);
    put32(fctl + 12, 0);
    put32(fctl + 16, 0);
    fctl[20] = 0; fctl[21] = 1;                                  /* delay 1 / fps s */
    fctl[22] = (uint8_t)(w->fps >> 8); fctl[23] = (uint8_t)w->fps;
    fctl[24] = 0;  /* dispose: none */
    fctl[25] = 0;  /* blend: source */
    chunk(w, "fcTL", fctl, sizeof fctl);

    /* filter byte 0 (none) before each row */
    size_t row = (size_t)w->width * 4, raw_size = (row + 1) * w->height;
    uint8_t *raw = (uint8_t *)malloc(raw_size);
    uLongf packed_size = compressBound((uLong)raw_size);
    uint8_t *packed = (uint8_t *)malloc(packed_size + 4);
    if (!raw || !packed) {
        free(raw); free(packed);
        return -1;
    }
    for (uint32_t y = 0; y < w->height; y++) {
        raw[y * (row + 1)] = 0;
        memcpy(raw + y * (row + 1) + 1, rgba + y * stride, row);
    }
    /* fdAT carries a sequence number before the data: compress after it */
    int first = w->frames_written == 0;
    int z = compress2(packed + (first ? 0 : 4), &packed_size, raw, (uLong)raw_size, 6);
    free(raw);
    if (z != Z_OK) {
        free(packed);
        return -1;
    }
    if (first) {
        chunk(w, "IDAT", packed, packed_size);
    } else {
        put32(packed, w->sequence++);
        chunk(w, "fdAT", packed, packed_size + 4);
    }
    free(packed);
    w->frames_written++;
    return w->failed ? -1 : 0;
}

int apng_close(apng_writer *w)
{
    chunk(w, "IEND", NULL, 0);
    int ok = !w->failed && w->frames_written == w->frame_count;
    if (fclose(w->file) != 0) ok = 0;
    free(w);
    return ok ? 0 : -1;
}
