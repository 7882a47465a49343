/*
 * Textures of the core's images, cached by image id: an image is uploaded
 * when first drawn and again only when its generation changes, and deleted
 * when the core releases it. A new generation of the same size uploads, with
 * glTexSubImage2D, only the box of the 64x64 tiles whose pixels changed (a
 * hash per tile of what was uploaded tells), nothing when none did. Pixels are ARGB32 words, uploaded as RGBA bytes
 * (BGRA in memory on little-endian machines) and swizzled in the shader, so
 * no extension is needed; rows are read with GL_UNPACK_ROW_LENGTH where the
 * context has it (ES 3, EXT_unpack_subimage), else through a packed copy.
 */
#include "gles_private.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t id, size_t capacity)
{
    uint64_t h = id * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 17) & (capacity - 1);
}

static lkgl_texture *find(lkgl_renderer *r, uint64_t id)
{
    if (r->texture_capacity == 0) return NULL;
    for (size_t i = slot_of(id, r->texture_capacity);; i = (i + 1) & (r->texture_capacity - 1)) {
        if (r->textures[i].id == id) return &r->textures[i];
        if (r->textures[i].id == 0) return NULL;
    }
}

static bool grow(lkgl_renderer *r)
{
    size_t capacity = r->texture_capacity ? r->texture_capacity * 2 : 64;
    lkgl_texture *slots = calloc(capacity, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < r->texture_capacity; i++) {
        if (!r->textures[i].id) continue;
        size_t j = slot_of(r->textures[i].id, capacity);
        while (slots[j].id) j = (j + 1) & (capacity - 1);
        slots[j] = r->textures[i];
    }
    free(r->textures);
    r->textures = slots;
    r->texture_capacity = capacity;
    return true;
}

static lkgl_texture *insert(lkgl_renderer *r, uint64_t id)
{
    if ((r->texture_count + 1) * 4 > r->texture_capacity * 3 && !grow(r)) return NULL;
    size_t i = slot_of(id, r->texture_capacity);
    while (r->textures[i].id) i = (i + 1) & (r->texture_capacity - 1);
    memset(&r->textures[i], 0, sizeof r->textures[i]);
    r->textures[i].id = id;
    r->texture_count++;
    return &r->textures[i];
}

/* Removes slot e, moving later entries of its probe run back into the hole. */
static void remove_slot(lkgl_renderer *r, lkgl_texture *e)
{
    size_t mask = r->texture_capacity - 1;
    size_t hole = (size_t)(e - r->textures);
    r->textures[hole].id = 0;
    r->texture_count--;
    for (size_t i = (hole + 1) & mask; r->textures[i].id; i = (i + 1) & mask) {
        size_t home = slot_of(r->textures[i].id, r->texture_capacity);
        /* i's entry may move into the hole when its home is not in (hole, i]. */
        bool stays = hole < i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (stays) continue;
        r->textures[hole] = r->textures[i];
        r->textures[i].id = 0;
        hole = i;
    }
}

static uint32_t tiles_across(uint32_t n) { return (n + LKGL_TILE - 1) / LKGL_TILE; }

/* FNV-1a over each tile's rows. */
static void hash_tiles(const lk_dl_image *img, uint64_t *hashes)
{
    uint32_t tx = tiles_across(img->width), ty = tiles_across(img->height);
    for (uint32_t i = 0; i < tx * ty; i++) hashes[i] = 0xcbf29ce484222325ull;
    for (uint32_t y = 0; y < img->height; y++) {
        const uint32_t *row = (const uint32_t *)((const uint8_t *)img->pixels + (size_t)y * img->stride);
        uint64_t *line = hashes + (size_t)(y / LKGL_TILE) * tx;
        for (uint32_t x = 0; x < img->width; x++) {
            uint64_t *h = &line[x / LKGL_TILE];
            *h = (*h ^ row[x]) * 0x100000001b3ull;
        }
    }
}

/* Uploads the box [x0, x1) x [y0, y1) of img (the whole image with a new
   texture size when whole). */
static bool upload_box(lkgl_renderer *r, lkgl_texture *t, const lk_dl_image *img, bool whole, uint32_t x0,
                       uint32_t y0, uint32_t x1, uint32_t y1, char *error, size_t error_size)
{
    uint32_t w = x1 - x0, h = y1 - y0;
    size_t row = (size_t)w * 4;
    const uint8_t *pixels = (const uint8_t *)img->pixels + (size_t)y0 * img->stride + (size_t)x0 * 4;
    bool packed = img->stride == row;
    if (!packed && r->unpack_row_length) {
        glPixelStorei(GL_UNPACK_ROW_LENGTH_EXT, (GLint)(img->stride / 4));
    } else if (!packed) {
        size_t size = row * h;
        if (size > r->upload_scratch_size) {
            uint8_t *scratch = realloc(r->upload_scratch, size);
            if (!scratch) {
                lkgl_set_error(error, error_size, "%s: out of memory copying image %llu (%ux%u)",
                               r->label, (unsigned long long)img->id, img->width, img->height);
                return false;
            }
            r->upload_scratch = scratch;
            r->upload_scratch_size = size;
        }
        for (uint32_t y = 0; y < h; y++)
            memcpy(r->upload_scratch + y * row, pixels + (size_t)y * img->stride, row);
        pixels = r->upload_scratch;
    }
    lkgl_flush(r);   /* a pending batch may still sample the old pixels */
    lkgl_bind_texture(r, 0, t->texture);
    while (glGetError() != GL_NO_ERROR) {}
    if (whole)
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, (GLsizei)w, (GLsizei)h, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    else
        glTexSubImage2D(GL_TEXTURE_2D, 0, (GLint)x0, (GLint)y0, (GLsizei)w, (GLsizei)h, GL_RGBA,
                        GL_UNSIGNED_BYTE, pixels);
    if (!packed && r->unpack_row_length) glPixelStorei(GL_UNPACK_ROW_LENGTH_EXT, 0);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        lkgl_set_error(error, error_size, "%s: uploading image %llu (%ux%u) failed: %s", r->label,
                       (unsigned long long)img->id, img->width, img->height, lkgl_gl_error_name(e));
        return false;
    }
    r->frame.texture_uploads++;
    r->frame.upload_bytes += row * h;
    return true;
}

/* An image larger than GL_MAX_TEXTURE_SIZE (16384 on llvmpipe, 4096 or 8192
   on many embedded GPUs) is drawn from a copy reduced by the whole factor k:
   each texel the mean of a k x k block of its pixels (premultiplied, so the
   mean is the colour that block shows), the last row and column of blocks
   what is left of the image. Texture coordinates stay the image's
   normalised ones, so the copy stands for the whole image (its last texel
   within a texel of where it should be). Refusing it made every frame of
   the display fail while the image was in the tree. Uploaded whole at each
   new generation. */
static bool upload_reduced(lkgl_renderer *r, lkgl_texture *t, const lk_dl_image *img, uint32_t k, char *error,
                           size_t error_size)
{
    uint32_t rw = (img->width + k - 1) / k, rh = (img->height + k - 1) / k;
    uint8_t *out = malloc((size_t)rw * rh * 4);
    if (!out) {
        lkgl_set_error(error, error_size, "%s: out of memory reducing image %llu (%ux%u)", r->label,
                       (unsigned long long)img->id, img->width, img->height);
        return false;
    }
    for (uint32_t y = 0; y < rh; y++) {
        uint32_t j1 = (y + 1) * k < img->height ? (y + 1) * k : img->height;
        for (uint32_t x = 0; x < rw; x++) {
            uint32_t i1 = (x + 1) * k < img->width ? (x + 1) * k : img->width;
            uint64_t sum[4] = { 0, 0, 0, 0 }, n = (uint64_t)(j1 - y * k) * (i1 - x * k);
            for (uint32_t j = y * k; j < j1; j++) {
                const uint8_t *row = (const uint8_t *)img->pixels + (size_t)j * img->stride;
                for (uint32_t i = x * k; i < i1; i++)
                    for (int c = 0; c < 4; c++) sum[c] += row[(size_t)i * 4 + (size_t)c];
            }
            for (int c = 0; c < 4; c++) out[((size_t)y * rw + x) * 4 + (size_t)c] = (uint8_t)((sum[c] + n / 2) / n);
        }
    }
    /* uploaded whole as an image of its own size (the image's id in errors) */
    lk_dl_image reduced = *img;
    reduced.width = rw;
    reduced.height = rh;
    reduced.stride = rw * 4;
    reduced.pixels = out;
    bool ok = upload_box(r, t, &reduced, true, 0, 0, rw, rh, error, error_size);
    free(out);
    return ok;
}

/* A new texture size uploads everything; a new generation of the same size
   only the box of the tiles whose pixels changed (nothing when none did). */
static bool upload(lkgl_renderer *r, lkgl_texture *t, const lk_dl_image *img, bool same_size,
                   char *error, size_t error_size)
{
    if (t->reduction > 1) return upload_reduced(r, t, img, t->reduction, error, error_size);
    size_t tiles = (size_t)tiles_across(img->width) * tiles_across(img->height);
    uint64_t *hashes = malloc(tiles * sizeof *hashes);
    if (!hashes) {
        lkgl_set_error(error, error_size, "%s: out of memory caching image %llu", r->label,
                       (unsigned long long)img->id);
        return false;
    }
    hash_tiles(img, hashes);
    bool ok;
    if (!same_size || !t->tile_hashes) {
        ok = upload_box(r, t, img, !same_size, 0, 0, img->width, img->height, error, error_size);
    } else {
        uint32_t tx = tiles_across(img->width), ty = tiles_across(img->height);
        uint32_t bx0 = tx, by0 = ty, bx1 = 0, by1 = 0;
        for (uint32_t j = 0; j < ty; j++)
            for (uint32_t i = 0; i < tx; i++)
                if (hashes[(size_t)j * tx + i] != t->tile_hashes[(size_t)j * tx + i]) {
                    if (i < bx0) bx0 = i;
                    if (j < by0) by0 = j;
                    if (i + 1 > bx1) bx1 = i + 1;
                    if (j + 1 > by1) by1 = j + 1;
                }
        ok = bx1 == 0 ||
             upload_box(r, t, img, false, bx0 * LKGL_TILE, by0 * LKGL_TILE,
                        bx1 * LKGL_TILE < img->width ? bx1 * LKGL_TILE : img->width,
                        by1 * LKGL_TILE < img->height ? by1 * LKGL_TILE : img->height, error, error_size);
    }
    free(t->tile_hashes);
    t->tile_hashes = ok ? hashes : NULL;
    if (!ok) free(hashes);
    return ok;
}

lkgl_texture *lkgl_texture_for(lkgl_renderer *r, const lk_dl_image *img, char *error,
                               size_t error_size)
{
    uint32_t largest = img->width > img->height ? img->width : img->height, max = (uint32_t)r->max_texture_size;
    uint32_t reduction = max > 0 && largest > max ? (largest + max - 1) / max : 1;
    lkgl_texture *t = find(r, img->id);
    if (t && t->generation == img->generation && t->width == img->width && t->height == img->height)
        return t;
    bool fresh = !t;
    if (fresh) {
        if (!(t = insert(r, img->id))) {
            lkgl_set_error(error, error_size, "%s: out of memory caching image %llu", r->label,
                           (unsigned long long)img->id);
            return NULL;
        }
        glGenTextures(1, &t->texture);
        lkgl_bind_texture(r, 0, t->texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    bool same_size = !fresh && t->width == img->width && t->height == img->height;
    t->reduction = reduction;
    if (!upload(r, t, img, same_size, error, error_size)) {
        glDeleteTextures(1, &t->texture);
        free(t->tile_hashes);
        t->tile_hashes = NULL;
        if (r->state.texture[0] == t->texture) r->state.texture[0] = 0;
        remove_slot(r, t);
        return NULL;
    }
    t->generation = img->generation;
    t->width = img->width;
    t->height = img->height;
    return t;
}

void lkgl_texture_set_filter(lkgl_renderer *r, lkgl_texture *t, bool nearest)
{
    if (t->nearest == nearest) return;
    lkgl_flush(r);
    lkgl_bind_texture(r, 0, t->texture);
    GLint f = nearest ? GL_NEAREST : GL_LINEAR;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, f);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, f);
    t->nearest = nearest;
    r->frame.state_changes++;
}

void lkgl_textures_forget(lkgl_renderer *r, uint64_t id)
{
    lkgl_texture *t = find(r, id);
    if (!t) return;
    lkgl_flush(r);
    for (int u = 0; u < 2; u++)
        if (r->state.texture[u] == t->texture) r->state.texture[u] = 0;
    glDeleteTextures(1, &t->texture);
    free(t->tile_hashes);
    t->tile_hashes = NULL;
    remove_slot(r, t);
}

void lkgl_textures_free(lkgl_renderer *r)
{
    for (size_t i = 0; i < r->texture_capacity; i++)
        if (r->textures[i].id) {
            glDeleteTextures(1, &r->textures[i].texture);
            free(r->textures[i].tile_hashes);
        }
    free(r->textures);
    r->textures = NULL;
    r->texture_capacity = r->texture_count = 0;
    free(r->upload_scratch);
    r->upload_scratch = NULL;
    r->upload_scratch_size = 0;
}
