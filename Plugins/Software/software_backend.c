/*
 * The software backend's plugin table: a CPU compositor on pixman that draws
 * into a premultiplied a8r8g8b8 framebuffer in memory, readable with
 * read_pixels. This file owns the instance's life (open, close), the output
 * description and the copy-out; drawing is in software_render.c.
 */
#include "software_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW_DEFAULT_WIDTH 1280
#define SW_DEFAULT_HEIGHT 720
#define SW_REFRESH_RATE 60.0

void sw_set_error(char *error, size_t error_size, const char *format, ...)
{
    if (!error || error_size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_size, format, args);
    va_end(args);
}

__attribute__((format(printf, 3, 4)))
static void sw_log(lk_backend_instance *inst, uint32_t level, const char *format, ...)
{
    if (!inst->host.log) return;
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    inst->host.log(inst->host.host_data, level, message);
}

/* A field of a caller's struct exists when its struct_size covers all of it;
   absent fields read as zero (the default), so older callers keep working. */
#define SW_HAS_FIELD(ptr, type, field) \
    ((ptr)->struct_size >= offsetof(type, field) + sizeof((ptr)->field))
#define SW_FIELD(ptr, type, field) (SW_HAS_FIELD(ptr, type, field) ? (ptr)->field : 0)

static void sw_close(lk_backend_instance *inst);

/* A tuning variable's count (`what`: "rows", "threads"), 1 to max; 0 when
   unset, or set to anything else, which is ignored with a warning naming
   the variable and its value (S8.1). */
static int sw_count_from_env(lk_backend_instance *inst, const char *name, const char *what, long max)
{
    const char *v = getenv(name);
    if (!v || !*v) return 0;
    char *end = NULL;
    long n = strtol(v, &end, 10);
    if (*end == '\0' && n >= 1 && n <= max) return (int)n;
    sw_log(inst, LK_BACKEND_LOG_WARNING, "software backend: %s=\"%s\" ignored: expected a number of %s from 1 to %ld",
           name, v, what, max);
    return 0;
}

/* A value of these variables they do not know is ignored with a warning
   naming the variable, its value and the values it takes (S8.1: a typo
   like "of" for "off" was taken silently for the default). */
static bool fill_runs_from_env(lk_backend_instance *inst)
{
    const char *v = getenv("LAYERKIT_SOFTWARE_FILL_RUNS");
    if (!v || !*v || strcmp(v, "1") == 0 || strcmp(v, "on") == 0) return true;
    if (strcmp(v, "0") == 0 || strcmp(v, "off") == 0) return false;
    sw_log(inst, LK_BACKEND_LOG_WARNING,
           "software backend: LAYERKIT_SOFTWARE_FILL_RUNS=\"%s\" ignored: expected 0 or off (1 or on: the default)", v);
    return true;
}

static sw_sprite_mode sprite_mode_from_env(lk_backend_instance *inst)
{
    const char *v = getenv("LAYERKIT_SOFTWARE_SPRITES");
    if (!v || !*v || strcmp(v, "1") == 0 || strcmp(v, "on") == 0) return SW_SPRITES_ON;
    if (strcmp(v, "0") == 0 || strcmp(v, "off") == 0) return SW_SPRITES_OFF;
    if (strcmp(v, "scalar") == 0) return SW_SPRITES_SCALAR;
    if (strcmp(v, "sse2") == 0) return SW_SPRITES_SSE2;
    sw_log(inst, LK_BACKEND_LOG_WARNING,
           "software backend: LAYERKIT_SOFTWARE_SPRITES=\"%s\" ignored: expected 0, off, scalar or sse2 (1 or on: the default)",
           v);
    return SW_SPRITES_ON;
}

static lk_backend_instance *sw_open(const lk_backend_host *host,
                                    const lk_backend_open_options *options,
                                    char *error, size_t error_size)
{
    /* device and connector name hardware; memory has neither, so they are ignored. */
    uint32_t width = options ? SW_FIELD(options, lk_backend_open_options, width) : 0;
    uint32_t height = options ? SW_FIELD(options, lk_backend_open_options, height) : 0;
    uint32_t rotation = options ? SW_FIELD(options, lk_backend_open_options, rotation) : 0;
    if (width == 0) width = SW_DEFAULT_WIDTH;
    if (height == 0) height = SW_DEFAULT_HEIGHT;
    if (rotation != 0) {
        sw_set_error(error, error_size,
                     "software backend: rotation %u is not supported (only 0)", rotation);
        return NULL;
    }
    if (width > SW_MAX_SIZE || height > SW_MAX_SIZE) {
        sw_set_error(error, error_size,
                     "software backend: output size %ux%u is too large (at most %ux%u)",
                     width, height, SW_MAX_SIZE, SW_MAX_SIZE);
        return NULL;
    }

    lk_backend_instance *inst = calloc(1, sizeof *inst);
    if (!inst) goto out_of_memory;
    if (host) {
        inst->host.abi_version = host->abi_version;
        inst->host.struct_size = host->struct_size;
        inst->host.host_data = SW_FIELD(host, lk_backend_host, host_data);
        inst->host.log = SW_FIELD(host, lk_backend_host, log);
        inst->host.frame_done = SW_FIELD(host, lk_backend_host, frame_done);
    }
    inst->width = width;
    inst->height = height;
    inst->sprites = sprite_mode_from_env(inst);
    inst->fill_runs = fill_runs_from_env(inst);
    inst->band_rows = sw_count_from_env(inst, "LAYERKIT_SOFTWARE_BAND_ROWS", "rows", 4096);
    int threads = sw_count_from_env(inst, "LAYERKIT_SOFTWARE_THREADS", "threads", SW_MAX_WORKERS + 1);
    inst->threads_set = threads > 0;
    inst->threads = inst->threads_set ? threads : sw_threads_default();

    /* pixman allocates zeroed storage: transparent black until the first frame. */
    inst->framebuffer = pixman_image_create_bits(PIXMAN_a8r8g8b8, (int)width, (int)height, NULL, 0);
    inst->raster = calloc(1, sizeof *inst->raster);
    inst->clip_capacity = 16;
    inst->clips = calloc(inst->clip_capacity, sizeof *inst->clips);
    inst->target = inst->framebuffer;
    pixman_color_t white = { 0xffff, 0xffff, 0xffff, 0xffff };
    inst->white = pixman_image_create_solid_fill(&white);
    if (!inst->framebuffer || !inst->raster || !inst->clips || !inst->white) {
        sw_close(inst);
        goto out_of_memory;
    }
    return inst;

out_of_memory:
    sw_set_error(error, error_size,
                 "software backend: out of memory allocating a %ux%u framebuffer", width, height);
    return NULL;
}

static void sw_close(lk_backend_instance *inst)
{
    if (!inst) return;
    const sw_stats *s = &inst->stats;
    if (s->frames > 0)
        sw_log(inst, LK_BACKEND_LOG_DEBUG,
               "software backend: %llu frames, %llu ops (%llu rect, %llu masked, %llu sprites, %llu band fills, %llu skipped), "
               "%llu rect clips, %llu mask clips, %llu groups (%llu with a shadow), "
               "%llu runs shared by %d threads (%llu bands drawn by band workers), "
               "%llu ops prepared, %llu of them shared (%llu prepared by band workers), "
               "%llu gradients drawn from the gradient cache (%llu evaluated into it)",
               (unsigned long long)s->frames, (unsigned long long)s->ops,
               (unsigned long long)s->rect_ops, (unsigned long long)s->mask_ops,
               (unsigned long long)s->sprite_ops, (unsigned long long)s->fill_run_ops,
               (unsigned long long)s->skipped_ops, (unsigned long long)s->rect_clips,
               (unsigned long long)s->mask_clips, (unsigned long long)s->groups,
               (unsigned long long)s->shadows, (unsigned long long)s->shared_runs, inst->threads,
               (unsigned long long)s->worker_bands, (unsigned long long)s->prepared,
               (unsigned long long)s->shared_prepared,
               (unsigned long long)s->worker_prepared, (unsigned long long)s->gradients_cached,
               (unsigned long long)s->gradients_rendered);
    sw_workers_stop(inst);
    sw_group_stack_free(inst);
    free(inst->groups);
    free(inst->nesting);
    free(inst->blur);
    sw_gradient_scratch_free(inst);
    sw_gradient_cache_free(inst);
    sw_sprite_scratch_free(inst);
    sw_clip_stack_free(inst);
    free(inst->clips);
    sw_image_cache_free(inst);
    sw_solid_cache_free(inst);
    if (inst->white) pixman_image_unref(inst->white);
    if (inst->framebuffer) pixman_image_unref(inst->framebuffer);
    free(inst->mask_bits);
    if (inst->raster) sw_raster_scratch_free(inst->raster);
    free(inst->raster);
    free(inst);
}

static bool sw_get_output(lk_backend_instance *inst, lk_backend_output_info *out)
{
    if (!inst || !out || out->struct_size < sizeof(uint32_t)) return false;
    lk_backend_output_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = out->struct_size;
    info.width = inst->width;
    info.height = inst->height;
    info.refresh_rate = SW_REFRESH_RATE;
    info.name = "memory";
    size_t n = out->struct_size < sizeof info ? out->struct_size : sizeof info;
    memcpy(out, &info, n);
    return true;
}

static bool sw_render_entry(lk_backend_instance *inst, const lk_display_list *list,
                            char *error, size_t error_size)
{
    if (!inst) {
        sw_set_error(error, error_size, "software backend: render called without an instance");
        return false;
    }
    return sw_render(inst, list, error, error_size);
}

static bool sw_read_pixels(lk_backend_instance *inst, void *argb32, size_t stride,
                           char *error, size_t error_size)
{
    if (!inst || !argb32) {
        sw_set_error(error, error_size, "software backend: read_pixels needs an instance and a buffer");
        return false;
    }
    if (!inst->has_frame) {
        sw_set_error(error, error_size, "software backend: no frame has been rendered yet");
        return false;
    }
    size_t row = (size_t)inst->width * 4;
    if (stride < row) {
        sw_set_error(error, error_size,
                     "software backend: read_pixels stride %zu is smaller than a row (%zu bytes)",
                     stride, row);
        return false;
    }
    const uint8_t *src = (const uint8_t *)pixman_image_get_data(inst->framebuffer);
    size_t src_stride = (size_t)pixman_image_get_stride(inst->framebuffer);
    uint8_t *dst = argb32;
    for (uint32_t y = 0; y < inst->height; y++)
        memcpy(dst + y * stride, src + y * src_stride, row);
    return true;
}

static void sw_image_released(lk_backend_instance *inst, uint64_t id)
{
    if (inst) sw_image_forget(inst, id);
}

static const lk_backend software_backend = {
    .abi_version = LK_BACKEND_ABI_VERSION,
    .struct_size = sizeof(lk_backend),
    .name = "software",
    .description = "CPU compositor (pixman) into memory",
    .open = sw_open,
    .close = sw_close,
    .get_output = sw_get_output,
    .render = sw_render_entry,
    .read_pixels = sw_read_pixels,
    .image_released = sw_image_released,
};

/* The one exported symbol (Plugins/plugin.map), of type lk_backend_entry_fn. */
__attribute__((visibility("default")))
const lk_backend *lk_backend_entry(uint32_t host_abi_version);

const lk_backend *lk_backend_entry(uint32_t host_abi_version)
{
    return host_abi_version == LK_BACKEND_ABI_VERSION ? &software_backend : NULL;
}
