/* S5.2: the render side animates on its own thread. The seed's experiment:
   the program's thread sleeps for 2 s while a rotation runs on a display
   with a real clock; frames keep coming and the last one shows the angle of
   its own time. Also: an idle display draws nothing (no busy frames); a
   tree of the full depth (256 layers) is drawn by the render thread where
   new threads get a 1 MB stack (S8.1). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* pthread_setattr_default_np */
#endif
#include "support/lktest.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void sleep_seconds(double s)
{
    struct timespec t;
    t.tv_sec = (time_t)s;
    t.tv_nsec = (long)((s - (double)t.tv_sec) * 1e9);
    while (nanosleep(&t, &t) != 0) {}
}

/* is the pixel at (x, y) the bar's white? */
static int white_at(const uint8_t *rgba, int w, double x, double y)
{
    const uint8_t *p = rgba + ((int)y * w + (int)x) * 4;
    return p[0] > 200 && p[1] > 200 && p[2] > 200;
}

/* A software display of w x h with a real clock. */
static lk_display *open_real_clock(uint32_t w, uint32_t h)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = "software";
    o.width = w;
    o.height = h;
    o.manual_clock = false;
    return lk_display_open(&o);
}

/* S8.1: drawing recurses once a level of the tree, about 10 KB a level:
   with new threads given 1 MB stacks (a small `ulimit -s`, or a program's
   own default), the render thread crashed drawing a chain 256 layers deep.
   It now has a stack of its own size. */
static void check_deep_tree_on_small_default_stacks(void)
{
    pthread_attr_t small, saved;
    if (pthread_getattr_default_np(&saved) != 0) return;
    pthread_attr_init(&small);
    pthread_attr_setstacksize(&small, 1 << 20);
    pthread_setattr_default_np(&small);

    lk_display *d = open_real_clock(32, 24);
    LKT_CHECK(d != NULL, "S8.1 open a display with 1 MB default thread stacks", "%s", lk_last_error());
    if (d) {
        lk_layer *root = lkt_layer_new(NULL, 0, 0, 32, 24, lk_color_make(0, 0, 0, 1)), *p = root;
        for (int i = 1; i < 256; i++) {
            lk_layer *c = lkt_layer_new(p, 0.25, 0, 8, 8, lk_color_make(1, 0, 0, 0.02));
            lk_release(c);
            p = c;
        }
        lk_display_set_root_layer(d, root);
        lk_display_stats before = lkt_stats(d);
        lk_transaction_flush();
        lk_layer_set_opacity(p, 0.5);   /* and an implicit animation at the bottom */
        lk_transaction_flush();
        lk_display_stats now = before;
        for (int waited = 0; waited < 300 && now.frames_presented < before.frames_presented + 2; waited++) {
            sleep_seconds(0.01);
            now = lkt_stats(d);
        }
        LKT_CHECK(now.frames_presented >= before.frames_presented + 2,
                  "S8.1 the render thread draws a tree 256 layers deep with 1 MB default stacks",
                  "%llu frames", (unsigned long long)(now.frames_presented - before.frames_presented));
        lk_display_close(d);
        lk_release(root);
    }
    pthread_setattr_default_np(&saved);
    pthread_attr_destroy(&small);
    pthread_attr_destroy(&saved);
}

int main(void)
{
    lk_display *d = open_real_clock(200, 200);
    LKT_CHECK(d != NULL, "S5.2 open a display with a real clock", "%s", lk_last_error());
    if (!d) return lkt_finish();
    LKT_CHECK_NEAR("S5.2 the software backend paces at 60 Hz", lk_display_get_refresh_rate(d), 60.0, 1e-9);

    lk_layer *root = lkt_layer_new(NULL, 0, 0, 200, 200, lk_color_make(0, 0, 0, 1));
    lk_layer *bar = lkt_layer_new(root, 20, 95, 160, 10, lk_color_make(1, 1, 1, 1));
    lk_display_set_root_layer(d, root);
    lk_transaction_flush();
    sleep_seconds(0.2);

    /* idle: nothing animates, nothing committed: no frames */
    lk_display_stats before = lkt_stats(d);
    sleep_seconds(0.3);
    lk_display_stats idle = lkt_stats(d);
    LKT_CHECK(idle.frames_presented == before.frames_presented, "S5.2 an idle display draws no frames",
              "%llu frames while idle", (unsigned long long)(idle.frames_presented - before.frames_presented));
    LKT_CHECK(idle.frames_presented >= 1, "S2.2 the commit was drawn", "%llu frames", (unsigned long long)idle.frames_presented);

    lk_animation *spin = lk_basic_animation_create("transform.rotation.z");
    lk_animation_set_by_value(spin, lk_value_number(2 * LKT_PI));
    lk_animation_set_duration(spin, 2.0);
    lk_animation_set_repeat_count(spin, 10);
    lk_layer_add_animation(bar, spin, "spin");
    lk_release(spin);
    lk_transaction_flush();
    double begin = lk_animation_get_begin_time(lk_layer_get_animation(bar, "spin"));

    lk_display_stats start = lkt_stats(d);
    sleep_seconds(2.0); /* the program's thread is busy */
    lk_display_stats after = lkt_stats(d);
    unsigned long long frames = (unsigned long long)(after.frames_presented - start.frames_presented);
    LKT_CHECK(frames >= 90, "S5.2 frames keep coming while the program's thread sleeps (60 Hz: about 120)",
              "%llu frames in 2 s", frames);
    LKT_CHECK(after.last_frame_time > start.last_frame_time + 1.5, "S5.2 frame times advance through the sleep",
              "from %f to %f", start.last_frame_time, after.last_frame_time);

    /* the frame on screen shows the angle of its own time (read right after
       a frame: the next one may land between the two reads, so try twice) */
    uint8_t *rgba = (uint8_t *)malloc(200 * 200 * 4);
    int matched = 0;
    double angle = 0;
    for (int attempt = 0; attempt < 5 && !matched; attempt++) {
        lk_display_stats s1 = lkt_stats(d);
        lk_display_read_pixels(d, rgba, 200 * 4);
        lk_display_stats s2 = lkt_stats(d);
        if (s1.frames_presented != s2.frames_presented) continue;
        angle = 2 * LKT_PI * (s2.last_frame_time - begin) / 2.0;
        matched = white_at(rgba, 200, 100 + 60 * cos(angle), 100 + 60 * sin(angle)) &&
                  !white_at(rgba, 200, 100 + 60 * cos(angle + LKT_PI / 2), 100 + 60 * sin(angle + LKT_PI / 2));
    }
    LKT_CHECK(matched, "S5.2 the last frame shows the rotation at its frame time", "angle %f not on screen", angle);
    free(rgba);

    lk_display_close(d);
    lk_release(root);
    lk_release(bar);
    check_deep_tree_on_small_default_stacks();
    return lkt_finish();
}
