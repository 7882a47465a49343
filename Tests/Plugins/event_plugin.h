/* What the "events" test plugin (event_plugin.c) offers its test
   (test_output_events.c), which finds the functions with dlsym. */
#ifndef LK_EVENT_PLUGIN_H
#define LK_EVENT_PLUGIN_H

#include <pthread.h>
#include <stdint.h>
#include "layerkit/layerkit_backend.h"

typedef struct lkevent_stats {
    uint64_t   renders;
    lk_dl_box  last_damage;
    uint64_t   last_frame;
    pthread_t  render_thread;   /* the thread of the last render() */
    uint32_t   width, height;   /* what get_output says now */
} lkevent_stats;

/* fires an event now, on the calling thread (RESIZED: get_output says
   width x height and 30 Hz first) */
typedef int (*lkevent_fire_fn)(uint32_t event, const char *detail, uint32_t width, uint32_t height);
/* the same, inside the next render() call, on the thread that renders */
typedef int (*lkevent_fire_in_render_fn)(uint32_t event, const char *detail, uint32_t width, uint32_t height);
typedef int (*lkevent_stats_fn)(lkevent_stats *out);
/* the next n render() calls fail (each counted in renders), with the reason
   "events plugin: render failed on purpose" */
typedef int (*lkevent_fail_renders_fn)(int n);

#endif
