/* S5.2: the render side animates on its own thread. The seed's experiment:
   the program's thread sleeps for 2 s while a rotation runs on a display
   with a real clock; frames keep coming and the last one shows the angle of
   its own time. Also: an idle display draws nothing (no busy frames), nor
   while its animations wait to begin; a tree of the full depth (256
   layers) is drawn by the render thread where new threads get a 1 MB
   stack (S8.1). */
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

/* S4.6: a removal that lands while the render thread draws a frame in which
   the animation began: the start is posted before the frame's lock is let
   go, so the stop (posted by the removal, after it takes that lock) comes
   after it. Posted after drawing, the stop came first in 81% of 300 tries
   at 1280x720 and 42% at 480x360. A heavy scene makes frames long. */
static int order[4], heard;
static void heard_start(lk_animation *a, void *u) { (void)a; (void)u; if (heard < 4) order[heard++] = 1; }
static void heard_stop(lk_animation *a, bool finished, void *u) { (void)a; (void)u; if (heard < 4) order[heard++] = finished ? 3 : 2; }

static void check_start_before_stop(void)
{
    lk_display *d = open_real_clock(480, 360);
    if (!d) return;
    lk_layer *root = lkt_layer_new(NULL, 0, 0, 480, 360, lk_color_make(0, 0, 0, 1));
    for (int i = 0; i < 30; i++) {
        lk_layer *c = lkt_layer_new(root, (i % 6) * 80, (i / 6) * 70, 200, 200, lk_color_make(1, 1, 1, 1));
        lk_layer_set_corner_radius(c, 40);
        lk_layer_set_shadow_opacity(c, 0.8);
        lk_layer_set_shadow_radius(c, 20);
        lk_layer_set_opacity(c, 0.5);
    }
    lk_layer *l = lkt_layer_new(root, 0, 0, 480, 360, lk_color_make(1, 1, 1, 1));
    lk_layer_set_opacity(l, 0.5);
    lk_display_set_root_layer(d, root);
    lk_transaction_flush();
    sleep_seconds(0.2);
    lk_animation_delegate delegate = { sizeof delegate, heard_start, heard_stop };
    int inverted = 0, unpaired = 0, tries = 40;
    unsigned seed = 1;
    for (int i = 0; i < tries; i++) {
        heard = 0;
        lk_animation *a = lk_basic_animation_create("transform.rotation.z");
        lk_animation_set_by_value(a, lk_value_number(1));
        lk_animation_set_duration(a, 5);
        lk_animation_set_delegate(a, &delegate, NULL, NULL);
        lk_layer_add_animation(l, a, "spin");
        lk_release(a);
        lk_transaction_flush();
        seed = seed * 1103515245u + 12345u;
        sleep_seconds((double)(seed >> 16) / 65536.0 * 0.04);
        lk_layer_remove_animation(l, "spin");
        lk_transaction_flush();
        for (int k = 0; k < 6; k++) lk_display_dispatch(d, 5);
        if (heard == 2 && order[0] == 2 && order[1] == 1) inverted++;
        else if (!(heard == 0 || (heard == 2 && order[0] == 1 && order[1] == 2))) unpaired++;
    }
    LKT_CHECK(inverted == 0 && unpaired == 0,
              "S4.6 an animation removed while its first frame is drawn: did_start, then did_stop, or neither",
              "%d of %d with the stop first, %d not a start and a stop", inverted, tries, unpaired);
    lk_display_close(d);
    lk_release(l);
    lk_release(root);
}

/* S5.3: a paused display link asks for no frames (the render thread drew
   at 60 Hz for one), and a resumed one wakes the sleeping render thread. */
static int link_calls;
static void count_link(lk_display_link *link, double ts, double target, void *u)
{
    (void)link; (void)ts; (void)target; (void)u;
    link_calls++;
}

static void check_paused_link_idle(lk_display *d)
{
    lk_display_link *link = lk_display_link_create(d, count_link, NULL);
    if (!LKT_CHECK(link != NULL, "S5.3 create a display link", "%s", lk_last_error())) return;
    sleep_seconds(0.2);
    for (int k = 0; k < 3; k++) lk_display_dispatch(d, 0);
    LKT_CHECK(link_calls > 0, "S5.3 a link gets calls", "%d", link_calls);
    lk_display_link_set_paused(link, true);
    sleep_seconds(0.1);   /* the frame in flight */
    lk_display_stats before = lkt_stats(d);
    sleep_seconds(0.3);
    lk_display_stats after = lkt_stats(d);
    LKT_CHECK(after.frames_presented == before.frames_presented, "S5.3 a paused link keeps the render thread asleep",
              "%llu frames in 0.3 s", (unsigned long long)(after.frames_presented - before.frames_presented));
    lk_display_link_set_paused(link, false);
    sleep_seconds(0.2);
    lk_display_stats resumed = lkt_stats(d);
    LKT_CHECK(resumed.frames_presented > after.frames_presented, "S5.3 resumed, it wakes the render thread",
              "%llu frames", (unsigned long long)(resumed.frames_presented - after.frames_presented));
    lk_display_link_invalidate(link);
    lk_release(link);
    sleep_seconds(0.1);
}

/* S5.2, S4.4: an animation yet to begin is static until its beginTime (it
   shows nothing, or its backwards fill's start value): the render thread
   sleeps until the first frame at or after it begins, its beginTime made a
   media time through its layer's timing, then animates at 60 Hz. It drew
   at 60 Hz all the while it waited. */
static double opacity_0_to_1(lk_layer *layer, double begin, double duration, lk_fill_mode fill)
{
    lk_animation *a = lk_basic_animation_create("opacity");
    lk_animation_set_from_value(a, lk_value_number(0));
    lk_animation_set_to_value(a, lk_value_number(1));
    lk_animation_set_duration(a, duration);
    lk_animation_set_begin_time(a, begin);
    lk_animation_set_fill_mode(a, fill);
    lk_layer_add_animation(layer, a, "fade");
    lk_release(a);
    return begin;
}

static void check_waiting_animation_sleeps(void)
{
    lk_display *d = open_real_clock(120, 60);
    if (!d) return;
    lk_layer *root = lkt_layer_new(NULL, 0, 0, 120, 60, lk_color_make(0, 0, 0, 1));
    /* a: fills backwards (black until it begins), begins 0.8 s ahead */
    lk_layer *a = lkt_layer_new(root, 0, 0, 40, 60, lk_color_make(1, 1, 1, 1));
    /* b: twice as fast as media time, begins 1.0 s ahead in its own time
       (0.5 s of media time); white until then */
    lk_layer *b = lkt_layer_new(root, 40, 0, 40, 60, lk_color_make(1, 1, 1, 1));
    lk_layer_set_speed(b, 2);
    /* c: under a paused layer, its beginTime never comes */
    lk_layer *held = lkt_layer_new(root, 80, 0, 40, 60, lk_color_make(0, 0, 0, 0));
    lk_layer_set_speed(held, 0);
    lk_layer *c = lkt_layer_new(held, 0, 0, 40, 60, lk_color_make(1, 1, 1, 1));
    /* e: in a hidden layer of speed 2 (not drawn, its events still noted, S4.6) */
    lk_layer *hidden = lkt_layer_new(root, 0, 0, 10, 10, lk_color_make(0, 0, 0, 0));
    lk_layer_set_hidden(hidden, true);
    lk_layer_set_speed(hidden, 2);
    lk_layer *e = lkt_layer_new(hidden, 0, 0, 10, 10, lk_color_make(1, 1, 1, 1));
    lk_display_set_root_layer(d, root);
    lk_transaction_flush();
    sleep_seconds(0.2);

    double now = lk_media_time();
    double begin_a = opacity_0_to_1(a, now + 0.8, 4, LK_FILL_BACKWARDS);
    double begin_b_local = opacity_0_to_1(b, lk_layer_convert_time(NULL, now, b) + 1.0, 8, LK_FILL_REMOVED);
    double begin_b = lk_layer_convert_time(b, begin_b_local, NULL);
    opacity_0_to_1(c, lk_layer_convert_time(NULL, now, c) + 0.1, 4, LK_FILL_REMOVED);
    opacity_0_to_1(e, lk_layer_convert_time(NULL, now, e) + 1.3, 4, LK_FILL_REMOVED);
    lk_transaction_flush();
    sleep_seconds(0.1);   /* the commit's frame */
    lk_display_stats before = lkt_stats(d);
    sleep_seconds(0.25);
    lk_display_stats waiting = lkt_stats(d);
    LKT_CHECK(lk_media_time() < begin_b, "S5.2 (the test's thread was not held up past the begin)", "%f", begin_b - lk_media_time());
    LKT_CHECK(waiting.frames_presented == before.frames_presented,
              "S5.2 S4.4 animations waiting to begin keep the render thread asleep",
              "%llu frames in 0.25 s", (unsigned long long)(waiting.frames_presented - before.frames_presented));
    uint8_t rgba[120 * 60 * 4];
    lk_display_read_pixels(d, rgba, 120 * 4);
    LKT_CHECK(rgba[(30 * 120 + 20) * 4] < 8 && rgba[(30 * 120 + 60) * 4] > 247 && rgba[(30 * 120 + 100) * 4] > 247,
              "S4.4 before they begin: a's backwards fill (0), b's and c's model opacity (1)",
              "%d %d %d", rgba[(30 * 120 + 20) * 4], rgba[(30 * 120 + 60) * 4], rgba[(30 * 120 + 100) * 4]);

    /* b begins: the next frame is the first at or after its beginTime */
    lk_display_stats first = waiting;
    for (int waited = 0; waited < 500 && first.frames_presented == waiting.frames_presented; waited++) {
        sleep_seconds(0.002);
        first = lkt_stats(d);
    }
    LKT_CHECK(first.frames_presented > waiting.frames_presented, "S5.2 the render thread wakes when b begins",
              "no frame by %f s past its begin", lk_media_time() - begin_b);
    LKT_CHECK(first.frames_presented > waiting.frames_presented + 1 ||
              (first.last_frame_time >= begin_b && first.last_frame_time < begin_b + 1.0 / 60 + 1e-3),
              "S5.2 its first frame is the first at or after b's beginTime (in media time, through b's speed 2)",
              "frame at %f s from the begin", first.last_frame_time - begin_b);

    /* then it animates at 60 Hz, a too once it has begun */
    while (lk_media_time() < begin_a + 0.3) sleep_seconds(0.01);
    lk_display_stats going = lkt_stats(d);
    LKT_CHECK(going.frames_presented >= first.frames_presented + 30, "S5.2 begun, they are drawn at 60 Hz",
              "%llu frames in %f s", (unsigned long long)(going.frames_presented - first.frames_presented),
              going.last_frame_time - first.last_frame_time);
    int matched = 0;
    double want_a = 0, want_b = 0;
    int got_a = -1, got_b = -1;
    for (int attempt = 0; attempt < 5 && !matched; attempt++) {
        lk_display_stats s1 = lkt_stats(d);
        lk_display_read_pixels(d, rgba, 120 * 4);
        lk_display_stats s2 = lkt_stats(d);
        if (s1.frames_presented != s2.frames_presented) continue;
        want_a = 255 * (s2.last_frame_time - begin_a) / 4;
        want_b = 255 * (s2.last_frame_time - begin_b) / 4;   /* 8 s of b's time: 4 s */
        got_a = rgba[(30 * 120 + 20) * 4];
        got_b = rgba[(30 * 120 + 60) * 4];
        matched = fabs(got_a - want_a) <= 3 && fabs(got_b - want_b) <= 3;
    }
    LKT_CHECK(matched, "S5.2 the frame shows both fades at its time",
              "a %d (want %.1f), b %d (want %.1f)", got_a, want_a, got_b, want_b);

    lk_display_close(d);
    lk_release(e);
    lk_release(hidden);
    lk_release(c);
    lk_release(held);
    lk_release(b);
    lk_release(a);
    lk_release(root);
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
    check_paused_link_idle(d);
    /* a frame at a time of the program's on a display that draws at the
       real time ended its animations early: refused */
    LKT_CHECK_ERROR("S5.2 lk_display_render_frame_at on a display with a render thread is refused",
                    lk_display_render_frame_at(d, lk_media_time() + 60), LK_ERROR_STATE, "manual_clock");

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

    /* S4.2's pause recipe: the paused rotation stands still, so the render
       thread sleeps (it drew the same frame 60 times a second); resumed, it
       runs again */
    double paused = lk_layer_convert_time(NULL, lk_media_time(), bar);
    lk_layer_set_speed(bar, 0);
    lk_layer_set_time_offset(bar, paused);
    lk_transaction_flush();
    sleep_seconds(0.1);   /* the frame in flight */
    lk_display_stats held = lkt_stats(d);
    sleep_seconds(0.3);
    lk_display_stats still = lkt_stats(d);
    LKT_CHECK(still.frames_presented == held.frames_presented,
              "S4.2 S5.2 a paused layer's running animation keeps the render thread asleep", "%llu frames in 0.3 s",
              (unsigned long long)(still.frames_presented - held.frames_presented));
    lk_layer_set_speed(bar, 1);
    lk_layer_set_time_offset(bar, 0);
    lk_layer_set_begin_time(bar, 0);
    lk_layer_set_begin_time(bar, lk_layer_convert_time(NULL, lk_media_time(), bar) - paused);
    lk_transaction_flush();
    sleep_seconds(0.3);
    lk_display_stats going = lkt_stats(d);
    LKT_CHECK(going.frames_presented >= still.frames_presented + 10, "S4.2 S5.2 resumed, it is drawn at 60 Hz again",
              "%llu frames in 0.3 s", (unsigned long long)(going.frames_presented - still.frames_presented));

    lk_display_close(d);
    lk_release(root);
    lk_release(bar);
    check_deep_tree_on_small_default_stacks();
    check_start_before_stop();
    check_waiting_animation_sleeps();
    return lkt_finish();
}
