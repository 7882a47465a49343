/*
 * The dumb-buffer render path: two or three CPU-mapped scanout buffers
 * (XRGB8888) drawn by the software backend's renderer, which is compiled
 * into this plugin (drm_software_*.c) and draws straight into the mapping.
 *
 * Damage: the core's damage box says what changed since the previous list.
 * A reused buffer was last drawn some frames ago, so it is redrawn over the
 * union of the damage of every list since then (its buffer age); a buffer
 * never drawn, or one older than the history, is redrawn whole.
 *
 * Rotation (a panel mounted sideways) happens here: every op's transform is
 * followed by the turn from the program's space into the buffer's, and the
 * damage box is turned the same way (drm_turn.c).
 */
#include "drm_private.h"
#include "../Software/software_private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The software backend's own table (drm_software_backend.c). */
const lk_backend *drm_software_entry(uint32_t host_abi_version);

#define HISTORY 8

typedef enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_FRONT } slot_state;

typedef struct dumb_slot {
    drm_dumb_buffer buffer;
    pixman_image_t *image;     /* wraps the mapping */
    uint64_t        drawn;     /* sequence number of the frame drawn last (0: never) */
    slot_state      state;
} dumb_slot;

typedef struct dumb_state {
    const lk_backend    *renderer;
    lk_backend_instance *sw;
    lk_backend_host      sw_host;
    dumb_slot            slots[DRM_MAX_BUFFERS];
    uint64_t             sequence;            /* frames drawn so far */
    sw_box               history[HISTORY];    /* damage of frame s at s % HISTORY */
    unsigned char       *ops;                 /* turned copy of the ops (drm_turn.c) */
    size_t               ops_capacity;
    drm_dumb_buffer      writeback;
} dumb_state;

/* ------------------------------------------------------------------------ */
/* Buffers                                                                   */

bool drm_dumb_create(int fd, uint32_t width, uint32_t height, drm_dumb_buffer *b,
                     char *error, size_t error_size)
{
    memset(b, 0, sizeof *b);
    struct drm_mode_create_dumb create = { .width = width, .height = height, .bpp = 32 };
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) != 0) {
        drm_set_error(error, error_size, "drm backend: cannot create a %ux%u dumb buffer: %s",
                      width, height, strerror(errno));
        return false;
    }
    b->handle = create.handle;
    b->pitch = create.pitch;
    b->size = create.size;
    b->width = width;
    b->height = height;
    uint32_t handles[4] = { create.handle }, pitches[4] = { create.pitch }, offsets[4] = { 0 };
    if (drmModeAddFB2(fd, width, height, DRM_FORMAT_XRGB8888, handles, pitches, offsets, &b->fb_id, 0)) {
        drm_set_error(error, error_size, "drm backend: cannot add a %ux%u XRGB8888 framebuffer: %s",
                      width, height, strerror(errno));
        drm_dumb_destroy(fd, b);
        return false;
    }
    struct drm_mode_map_dumb map = { .handle = create.handle };
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map) != 0 ||
        (b->map = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)map.offset)) ==
            MAP_FAILED) {
        b->map = NULL;
        drm_set_error(error, error_size, "drm backend: cannot map a dumb buffer: %s", strerror(errno));
        drm_dumb_destroy(fd, b);
        return false;
    }
    return true;
}

void drm_dumb_destroy(int fd, drm_dumb_buffer *b)
{
    if (b->map) munmap(b->map, b->size);
    if (b->fb_id) drmModeRmFB(fd, b->fb_id);
    if (b->handle) {
        struct drm_mode_destroy_dumb destroy = { .handle = b->handle };
        drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
    }
    memset(b, 0, sizeof *b);
}

/* ------------------------------------------------------------------------ */
/* Rotation                                                                  */

void drm_unrotate_copy(const drm_output *out, uint32_t rotation, uint32_t sw, uint32_t sh, const void *src,
                       size_t src_stride, void *dst, size_t dst_stride)
{
    uint32_t bw = sw, bh = sh;
    for (uint32_t y = 0; y < out->height; y++) {
        uint32_t *row = (uint32_t *)((unsigned char *)dst + (size_t)y * dst_stride);
        for (uint32_t x = 0; x < out->width; x++) {
            uint32_t u, v;
            switch (rotation) {
            case 90: u = bw - 1 - y; v = x; break;
            case 180: u = bw - 1 - x; v = bh - 1 - y; break;
            case 270: u = y; v = bh - 1 - x; break;
            default: u = x; v = y; break;
            }
            const uint32_t *p = (const uint32_t *)((const unsigned char *)src + (size_t)v * src_stride) + u;
            row[x] = *p | 0xff000000u;   /* XRGB: the X byte means nothing */
        }
    }
}

/* ------------------------------------------------------------------------ */
/* The path                                                                  */

static void forward_log(void *data, uint32_t level, const char *message)
{
    const drm_output *out = data;
    if (out->host.log) out->host.log(out->host.host_data, level, message);
}

static void dumb_stop(drm_output *out);

static bool dumb_start(drm_output *out, char *error, size_t error_size)
{
    uint64_t has_dumb = 0;
    if (drmGetCap(out->fd, DRM_CAP_DUMB_BUFFER, &has_dumb) != 0 || !has_dumb) {
        drm_set_error(error, error_size, "drm backend: %s has no dumb buffers", out->device);
        return false;
    }
    dumb_state *s = calloc(1, sizeof *s);
    if (!s) {
        drm_set_error(error, error_size, "drm backend: out of memory");
        return false;
    }
    out->path_state = s;
    s->renderer = drm_software_entry(LK_BACKEND_ABI_VERSION);
    /* the renderer reports nothing itself: frames are done when they flip */
    s->sw_host.abi_version = LK_BACKEND_ABI_VERSION;
    s->sw_host.struct_size = sizeof s->sw_host;
    s->sw_host.host_data = out;
    s->sw_host.log = forward_log;
    lk_backend_open_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.width = out->buffer_width;
    o.height = out->buffer_height;
    s->sw = s->renderer ? s->renderer->open(&s->sw_host, &o, error, error_size) : NULL;
    if (!s->sw) {
        dumb_stop(out);
        return false;
    }
    /* it draws into our buffers, not its own */
    pixman_image_unref(s->sw->framebuffer);
    s->sw->framebuffer = NULL;
    for (unsigned i = 0; i < out->buffer_count; i++) {
        dumb_slot *slot = &s->slots[i];
        if (!drm_dumb_create(out->fd, out->buffer_width, out->buffer_height, &slot->buffer, error,
                             error_size)) {
            dumb_stop(out);
            return false;
        }
        slot->image = pixman_image_create_bits(PIXMAN_a8r8g8b8, (int)out->buffer_width,
                                               (int)out->buffer_height, slot->buffer.map,
                                               (int)slot->buffer.pitch);
        if (!slot->image) {
            drm_set_error(error, error_size, "drm backend: out of memory");
            dumb_stop(out);
            return false;
        }
    }
    if (out->writeback) {
        /* the CRTC's composition: the mode's size */
        if (!drm_dumb_create(out->fd, out->mode.hdisplay, out->mode.vdisplay, &s->writeback, error,
                             error_size)) {
            dumb_stop(out);
            return false;
        }
        out->writeback_fb = s->writeback.fb_id;
    }
    return true;
}

static void dumb_stop(drm_output *out)
{
    dumb_state *s = out->path_state;
    if (!s) return;
    if (s->sw) {
        s->sw->framebuffer = NULL;
        s->renderer->close(s->sw);
    }
    for (unsigned i = 0; i < DRM_MAX_BUFFERS; i++) {
        if (s->slots[i].image) pixman_image_unref(s->slots[i].image);
        drm_dumb_destroy(out->fd, &s->slots[i].buffer);
    }
    drm_dumb_destroy(out->fd, &s->writeback);
    out->writeback_fb = 0;
    free(s->ops);
    free(s);
    out->path_state = NULL;
}

static dumb_slot *free_slot(drm_output *out)
{
    dumb_state *s = out->path_state;
    dumb_slot *best = NULL;
    /* the free buffer drawn longest ago would need the most redrawn; take
       the most recent one */
    for (unsigned i = 0; i < out->buffer_count; i++)
        if (s->slots[i].state == SLOT_FREE && (!best || s->slots[i].drawn > best->drawn)) best = &s->slots[i];
    return best;
}

static bool dumb_first_buffer(drm_output *out, uint32_t *fb_id, char *error, size_t error_size)
{
    dumb_slot *slot = free_slot(out);
    if (!slot) {
        drm_set_error(error, error_size, "drm backend: no free buffer");
        return false;
    }
    memset(slot->buffer.map, 0, slot->buffer.size);   /* black */
    slot->state = SLOT_QUEUED;
    *fb_id = slot->buffer.fb_id;
    return true;
}

/* The union of the damage since slot was drawn, for frame `sequence`. */
static sw_box redraw_box(const drm_output *out, const dumb_state *s, const dumb_slot *slot,
                         uint64_t sequence)
{
    sw_box all = { 0, 0, (int32_t)out->buffer_width, (int32_t)out->buffer_height };
    if (slot->drawn == 0 || sequence - slot->drawn > HISTORY) return all;
    sw_box u = s->history[sequence % HISTORY];
    for (uint64_t f = slot->drawn + 1; f < sequence; f++) {
        sw_box d = s->history[f % HISTORY];
        if (sw_box_empty(d)) continue;
        if (sw_box_empty(u)) { u = d; continue; }
        if (d.x0 < u.x0) u.x0 = d.x0;
        if (d.y0 < u.y0) u.y0 = d.y0;
        if (d.x1 > u.x1) u.x1 = d.x1;
        if (d.y1 > u.y1) u.y1 = d.y1;
    }
    return u;
}

static bool dumb_draw(drm_output *out, const lk_display_list *list, uint32_t *fb_id,
                      char *error, size_t error_size)
{
    dumb_state *s = out->path_state;
    dumb_slot *slot = free_slot(out);
    if (!slot) {
        drm_set_error(error, error_size, "drm backend: every buffer is on screen or queued");
        return false;
    }
    if (!list || list->struct_size < sizeof *list || (list->op_count && list->op_size < sizeof(lk_dl_op))) {
        /* the renderer explains what is wrong */
        return s->renderer->render(s->sw, list, error, error_size);
    }
    uint64_t sequence = s->sequence + 1;
    lk_dl_box d = drm_turn_damage(out, false, list->damage);
    s->history[sequence % HISTORY] = (sw_box){ d.x, d.y, d.x + d.width, d.y + d.height };
    sw_box box = redraw_box(out, s, slot, sequence);

    lk_display_list turned = *list;
    turned.damage.x = box.x0;
    turned.damage.y = box.y0;
    turned.damage.width = box.x1 - box.x0;
    turned.damage.height = box.y1 - box.y0;
    if (out->turn && list->op_count) {
        turned.ops = drm_turn_ops(out, false, list, &s->ops, &s->ops_capacity);
        if (!turned.ops) {
            drm_set_error(error, error_size, "drm backend: out of memory turning %u ops", list->op_count);
            return false;
        }
    }
    s->sw->framebuffer = slot->image;
    bool ok = s->renderer->render(s->sw, &turned, error, error_size);
    s->sw->framebuffer = NULL;
    if (!ok) {
        /* the renderer checks the whole list before drawing: nothing changed */
        return false;
    }
    s->sequence = sequence;
    slot->drawn = sequence;
    slot->state = SLOT_QUEUED;
    out->frames_drawn++;
    if (!sw_box_empty(box)) out->pixels_drawn += (uint64_t)(box.x1 - box.x0) * (uint64_t)(box.y1 - box.y0);
    *fb_id = slot->buffer.fb_id;
    return true;
}

static void dumb_presented(drm_output *out, uint32_t fb_id)
{
    dumb_state *s = out->path_state;
    for (unsigned i = 0; i < out->buffer_count; i++) {
        dumb_slot *slot = &s->slots[i];
        if (slot->buffer.fb_id == fb_id) slot->state = SLOT_FRONT;
        else if (slot->state == SLOT_FRONT) slot->state = SLOT_FREE;
    }
}

static void dumb_forget(drm_output *out)
{
    /* frames were not drawn: no buffer's age can be trusted */
    dumb_state *s = out->path_state;
    for (unsigned i = 0; i < out->buffer_count; i++) {
        s->slots[i].drawn = 0;
        if (s->slots[i].state == SLOT_QUEUED) s->slots[i].state = SLOT_FREE;
    }
}

static bool dumb_read(drm_output *out, void *argb32, size_t stride, char *error, size_t error_size)
{
    dumb_state *s = out->path_state;
    const drm_dumb_buffer *b = NULL;
    if (out->writeback) {
        if (!drm_kms_capture(out, error, error_size)) return false;
        /* composed by the CRTC: turned by the plane or the renderer */
        drm_unrotate_copy(out, out->rotation, s->writeback.width, s->writeback.height, s->writeback.map,
                          s->writeback.pitch, argb32, stride);
        return true;
    } else {
        for (unsigned i = 0; i < out->buffer_count; i++)
            if (s->slots[i].state == SLOT_FRONT) b = &s->slots[i].buffer;
    }
    if (!b || !b->map) {
        drm_set_error(error, error_size, "drm backend: no frame is on screen");
        return false;
    }
    drm_unrotate_copy(out, out->turn, out->buffer_width, out->buffer_height, b->map, b->pitch, argb32, stride);
    return true;
}

static void dumb_image_released(drm_output *out, uint64_t id)
{
    dumb_state *s = out->path_state;
    if (s && s->sw) s->renderer->image_released(s->sw, id);
}

const drm_render_path drm_dumb_path = {
    .name = "dumb buffers",
    .start = dumb_start,
    .draw = dumb_draw,
    .first_buffer = dumb_first_buffer,
    .presented = dumb_presented,
    .forget = dumb_forget,
    .read = dumb_read,
    .image_released = dumb_image_released,
    .stop = dumb_stop,
};
