/* A small animated PNG (APNG) writer for the examples: RGBA8 frames of one
   size, each shown for the same time, looping forever. Uses zlib for the
   compression and the chunk checksums. Not part of the library. */
#ifndef LK_EXAMPLE_APNG_H
#define LK_EXAMPLE_APNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct apng_writer apng_writer;

/* Opens file_name for frame_count frames of width x height at fps frames a
   second; NULL (with errno or a message on stderr) on failure. */
apng_writer *apng_open(const char *file_name, uint32_t width, uint32_t height, uint32_t frame_count,
                       uint32_t fps);
/* Adds one frame: RGBA8, straight alpha, rows `stride` bytes apart. 0 on success. */
int apng_add_frame(apng_writer *w, const uint8_t *rgba, size_t stride);
/* Finishes the file (all frames must have been added); 0 on success. Frees w. */
int apng_close(apng_writer *w);

#ifdef __cplusplus
}
#endif

#endif
