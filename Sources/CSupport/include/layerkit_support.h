/* Small C helpers for the core that Swift cannot express directly.
   Not part of the public API (the library exports only lk_*). */
#ifndef LAYERKIT_SUPPORT_H
#define LAYERKIT_SUPPORT_H

/* The file name of the shared object containing address, or NULL. */
const char *layerkit_support_image_path(const void *address);

#include <stddef.h>

/* Bytes of heap in use (mallinfo2), for the benchmarks' memory figures. */
size_t layerkit_support_heap_bytes_in_use(void);

/* A non-blocking, close-on-exec eventfd (Swift does not import eventfd.h), or -1. */
int layerkit_support_eventfd(void);

/* Asks for the cache lines of [address, address + bytes) ahead of their
   use (no fault if not mapped; no effect on what is read). */
static inline void layerkit_support_prefetch(const void *address, size_t bytes)
{
    const char *p = (const char *)address;
    for (size_t i = 0; i < bytes; i += 64) __builtin_prefetch(p + i, 0, 3);
}

#endif
