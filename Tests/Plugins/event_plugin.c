/* A working plugin ("events") whose output events are fired on demand, so
   that the core's side of lk_backend_host.output_changed is tested without
   a DRM device (the drm backend's own events are tested in the VM,
   Tests/KMS). It draws nothing; it records every render() call.

   The test finds lkevent_fire, lkevent_fire_in_render and
   lkevent_stats_get (event_plugin.h) with dlopen(RTLD_NOLOAD) + dlsym. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "event_plugin.h"


struct lk_backend_instance {
    lk_backend_host host;
    uint32_t        width, height;
    double          refresh;
    /* an event for the next render() */
    uint32_t        queued_event, queued_width, queued_height;
    char            queued_detail[64];
    int             failing;   /* render() calls still to fail */
    lkevent_stats   stats;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static lk_backend_instance *current;   /* the one open instance */

static lk_backend_instance *open_output(const lk_backend_host *host, const lk_backend_open_options *options,
                                        char *error, size_t error_size)
{
    if (!host || host->struct_size < offsetof(lk_backend_host, output_changed) + sizeof host->output_changed ||
        !host->output_changed) {
        snprintf(error, error_size, "events plugin: the host has no output_changed");
        return NULL;
    }
    lk_backend_instance *i = calloc(1, sizeof *i);
    if (!i) return NULL;
    i->host = *host;
    i->width = options && options->width ? options->width : 64;
    i->height = options && options->height ? options->height : 48;
    i->refresh = 60;
    pthread_mutex_lock(&lock);
    current = i;
    pthread_mutex_unlock(&lock);
    return i;
}

static void close_output(lk_backend_instance *i)
{
    pthread_mutex_lock(&lock);
    if (current == i) current = NULL;
    pthread_mutex_unlock(&lock);
    free(i);
}

static bool get_output(lk_backend_instance *i, lk_backend_output_info *o)
{
    pthread_mutex_lock(&lock);
    o->width = i->width;
    o->height = i->height;
    o->refresh_rate = i->refresh;
    o->name = "events";
    pthread_mutex_unlock(&lock);
    return true;
}

static void fire(lk_backend_instance *i, uint32_t event, const char *detail, uint32_t w, uint32_t h)
{
    if (event == LK_BACKEND_OUTPUT_RESIZED) {
        pthread_mutex_lock(&lock);
        i->width = w;
        i->height = h;
        i->refresh = 30;
        pthread_mutex_unlock(&lock);
    }
    i->host.output_changed(i->host.host_data, event, detail);
}

static bool render(lk_backend_instance *i, const lk_display_list *l, char *e, size_t n)
{
    pthread_mutex_lock(&lock);
    i->stats.renders++;
    if (i->failing > 0) {
        i->failing--;
        pthread_mutex_unlock(&lock);
        snprintf(e, n, "events plugin: render failed on purpose");
        return false;
    }
    i->stats.last_damage = l->damage;
    i->stats.last_frame = l->frame_number;
    i->stats.render_thread = pthread_self();
    uint32_t event = i->queued_event, w = i->queued_width, h = i->queued_height;
    char detail[64];
    memcpy(detail, i->queued_detail, sizeof detail);
    i->queued_event = 0;
    pthread_mutex_unlock(&lock);
    if (event) fire(i, event, detail, w, h);
    if (i->host.frame_done) i->host.frame_done(i->host.host_data, l->frame_number, l->target_time);
    return true;
}

static bool read_pixels(lk_backend_instance *i, void *p, size_t s, char *e, size_t n)
{
    for (uint32_t y = 0; y < i->height; y++) memset((char *)p + y * s, 0, (size_t)i->width * 4);
    (void)e; (void)n;
    return true;
}

static void image_released(lk_backend_instance *i, uint64_t id) { (void)i; (void)id; }

static const lk_backend table = {
    LK_BACKEND_ABI_VERSION, sizeof(lk_backend), "events", "fires output events on demand (tests)",
    open_output, close_output, get_output, render, read_pixels, image_released, NULL
};

const lk_backend *lk_backend_entry(uint32_t host_abi_version)
{
    return host_abi_version == LK_BACKEND_ABI_VERSION ? &table : NULL;
}

/* ------------------------------------------------------------------------ */
/* For the test                                                              */

int lkevent_fire(uint32_t event, const char *detail, uint32_t width, uint32_t height);
int lkevent_fire_in_render(uint32_t event, const char *detail, uint32_t width, uint32_t height);
int lkevent_stats_get(lkevent_stats *out);
int lkevent_fail_renders(int n);

int lkevent_fail_renders(int n)
{
    pthread_mutex_lock(&lock);
    lk_backend_instance *i = current;
    if (i) i->failing = n;
    pthread_mutex_unlock(&lock);
    return i != NULL;
}

int lkevent_fire(uint32_t event, const char *detail, uint32_t width, uint32_t height)
{
    pthread_mutex_lock(&lock);
    lk_backend_instance *i = current;
    pthread_mutex_unlock(&lock);
    if (!i) return 0;
    fire(i, event, detail, width, height);
    return 1;
}

int lkevent_fire_in_render(uint32_t event, const char *detail, uint32_t width, uint32_t height)
{
    pthread_mutex_lock(&lock);
    lk_backend_instance *i = current;
    if (i) {
        i->queued_event = event;
        i->queued_width = width;
        i->queued_height = height;
        snprintf(i->queued_detail, sizeof i->queued_detail, "%s", detail ? detail : "");
    }
    pthread_mutex_unlock(&lock);
    return i != NULL;
}

int lkevent_stats_get(lkevent_stats *out)
{
    pthread_mutex_lock(&lock);
    lk_backend_instance *i = current;
    if (i) {
        *out = i->stats;
        out->width = i->width;
        out->height = i->height;
    }
    pthread_mutex_unlock(&lock);
    return i != NULL;
}
