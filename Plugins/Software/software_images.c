/*
 * The instance's cache of pixman images for the core's lk_dl_images.
 *
 * A pixman image here only wraps the core's pixels (no copy): the core keeps
 * them valid while a display list naming them is rendered, and the entry is
 * re-made whenever the generation, the pointer or the geometry changes, so a
 * stale wrapper is never used. Entries are keyed by id in an open-addressing
 * table; image_released removes them.
 */
#include "software_private.h"

#include <stdlib.h>

static size_t slot_of(uint64_t id, size_t capacity)
{
    /* Fibonacci hashing: ids are often sequential. */
    return (size_t)((id * 0x9E3779B97F4A7C15ull) >> 32) & (capacity - 1);
}

static sw_image_entry *find(sw_image_cache *cache, uint64_t id)
{
    if (cache->capacity == 0) return NULL;
    for (size_t i = slot_of(id, cache->capacity);; i = (i + 1) & (cache->capacity - 1)) {
        if (cache->slots[i].id == id) return &cache->slots[i];
        if (cache->slots[i].id == 0) return NULL;
    }
}

static bool grow(sw_image_cache *cache)
{
    size_t capacity = cache->capacity ? cache->capacity * 2 : 64;
    sw_image_entry *slots = calloc(capacity, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < cache->capacity; i++) {
        if (cache->slots[i].id == 0) continue;
        size_t j = slot_of(cache->slots[i].id, capacity);
        while (slots[j].id != 0) j = (j + 1) & (capacity - 1);
        slots[j] = cache->slots[i];
    }
    free(cache->slots);
    cache->slots = slots;
    cache->capacity = capacity;
    return true;
}

pixman_image_t *sw_image_lookup(lk_backend_instance *inst, const lk_dl_image *img)
{
    sw_image_cache *cache = &inst->images;
    sw_image_entry *e = find(cache, img->id);
    if (e && e->generation == img->generation && e->pixels == img->pixels &&
        e->width == img->width && e->height == img->height && e->stride == img->stride)
        return e->image;

    /* The core guarantees the pixels do not change while we read them; pixman
       only reads a source image, so dropping const is safe. */
    pixman_image_t *image = pixman_image_create_bits(PIXMAN_a8r8g8b8, (int)img->width,
                                                     (int)img->height, (uint32_t *)img->pixels,
                                                     (int)img->stride);
    if (!image) return NULL;
    /* Samples outside the source repeat its edge, so bilinear filtering at the
       border of a layer does not fade into transparent black; the layer's
       outline (not the image) decides where drawing stops. */
    pixman_image_set_repeat(image, PIXMAN_REPEAT_PAD);

    if (!e) {
        if ((cache->count + 1) * 4 > cache->capacity * 3 && !grow(cache)) {
            pixman_image_unref(image);
            return NULL;
        }
        size_t i = slot_of(img->id, cache->capacity);
        while (cache->slots[i].id != 0) i = (i + 1) & (cache->capacity - 1);
        e = &cache->slots[i];
        e->id = img->id;
        cache->count++;
    } else {
        pixman_image_unref(e->image);
    }
    e->generation = img->generation;
    e->pixels = img->pixels;
    e->width = img->width;
    e->height = img->height;
    e->stride = img->stride;
    e->image = image;
    return image;
}

void sw_image_forget(lk_backend_instance *inst, uint64_t id)
{
    sw_image_cache *cache = &inst->images;
    sw_image_entry *e = id ? find(cache, id) : NULL;
    if (!e) return;
    pixman_image_unref(e->image);
    size_t mask = cache->capacity - 1;
    size_t hole = (size_t)(e - cache->slots);
    cache->slots[hole].id = 0;
    cache->count--;
    /* Backward-shift deletion: move later members of the probe run into the
       hole when their home slot does not lie between the hole and them. */
    for (size_t i = (hole + 1) & mask; cache->slots[i].id != 0; i = (i + 1) & mask) {
        size_t home = slot_of(cache->slots[i].id, cache->capacity);
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            cache->slots[hole] = cache->slots[i];
            cache->slots[i].id = 0;
            hole = i;
        }
    }
}

void sw_image_cache_free(lk_backend_instance *inst)
{
    sw_image_cache *cache = &inst->images;
    for (size_t i = 0; i < cache->capacity; i++)
        if (cache->slots[i].id != 0) pixman_image_unref(cache->slots[i].image);
    free(cache->slots);
    cache->slots = NULL;
    cache->capacity = 0;
    cache->count = 0;
}
