/*
 * Textures of the core's images, cached by image id: an image is uploaded
 * when first drawn and again only when its generation changes (into the same
 * texture with glTexSubImage2D when the size is unchanged), and deleted when
 * the core releases it. Pixels are ARGB32 words, uploaded as RGBA bytes
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

static bool upload(lkgl_renderer *r, lkgl_texture *t, const lk_dl_image *img, bool same_size,
                   char *error, size_t error_size)
{
    const uint8_t *pixels = img->pixels;
    size_t row = (size_t)img->width * 4;
    bool packed = img->stride == row;
    if (!packed && r->unpack_row_length) {
        glPixelStorei(GL_UNPACK_ROW_LENGTH_EXT, (GLint)(img->stride / 4));
    } else if (!packed) {
        size_t size = row * img->height;
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
        for (uint32_t y = 0; y < img->height; y++)
            memcpy(r->upload_scratch + y * row, pixels + (size_t)y * img->stride, row);
        pixels = r->upload_scratch;
    }
    lkgl_flush(r);   /* a pending batch may still sample the old pixels */
    lkgl_bind_texture(r, 0, t->texture);
    while (glGetError() != GL_NO_ERROR) {}
    if (same_size)
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, (GLsizei)img->width, (GLsizei)img->height, GL_RGBA,
                        GL_UNSIGNED_BYTE, pixels);
    else
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, (GLsizei)img->width, (GLsizei)img->height, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, pixels);
    if (!packed && r->unpack_row_length) glPixelStorei(GL_UNPACK_ROW_LENGTH_EXT, 0);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        lkgl_set_error(error, error_size, "%s: uploading image %llu (%ux%u) failed: %s", r->label,
                       (unsigned long long)img->id, img->width, img->height, lkgl_gl_error_name(e));
        return false;
    }
    r->frame.texture_uploads++;
    r->frame.upload_bytes += row * img->height;
    return true;
}

lkgl_texture *lkgl_texture_for(lkgl_renderer *r, const lk_dl_image *img, char *error,
                               size_t error_size)
{
    if ((GLint)img->width > r->max_texture_size || (GLint)img->height > r->max_texture_size) {
        lkgl_set_error(error, error_size,
                       "%s: image %llu is %ux%u, larger than GL_MAX_TEXTURE_SIZE (%d)", r->label,
                       (unsigned long long)img->id, img->width, img->height, r->max_texture_size);
        return NULL;
    }
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
    if (!upload(r, t, img, same_size, error, error_size)) {
        glDeleteTextures(1, &t->texture);
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
    remove_slot(r, t);
}

void lkgl_textures_free(lkgl_renderer *r)
{
    for (size_t i = 0; i < r->texture_capacity; i++)
        if (r->textures[i].id) glDeleteTextures(1, &r->textures[i].texture);
    free(r->textures);
    r->textures = NULL;
    r->texture_capacity = r->texture_count = 0;
    free(r->upload_scratch);
    r->upload_scratch = NULL;
    r->upload_scratch_size = 0;
}
