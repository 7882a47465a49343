/* The core's side of the backend's output events (lk_backend_host.
   output_changed, plugin ABI 3): the "events" test plugin (event_plugin.c,
   built by run.sh into $LKTEST_PLUGIN_DIR) fires them on demand.
   - PAUSED: no render() calls until RESUMED; the layer tree is kept;
   - RESUMED: the next frame is drawn whole;
   - RESIZED: lk_display_get_size says the new size, the root is untouched,
     the next frame is drawn whole at that size;
   - lk_display_set_event_callback: the program hears each event on the run
     loop of the thread that set the callback, never on the render thread,
     with the backend's detail; destroy(user_data) on replace and close;
   - bad input is refused by name, and an unknown event is ignored.
   Frames are driven by the manual clock, except where the render thread
   itself is what is tested. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <layerkit/layerkit.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_plugin.h"

static int failures;

static int check(int ok, const char *name, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int check(int ok, const char *name, const char *format, ...)
{
    if (ok) {
        printf("PASS %s\n", name);
    } else {
        va_list args;
        va_start(args, format);
        printf("FAIL %s: ", name);
        vprintf(format, args);
        printf("\n");
        va_end(args);
        failures++;
    }
    return ok;
}

#define MAX_HEARD 16
typedef struct heard {
    int              count;
    lk_display      *display[MAX_HEARD];
    lk_display_event event[MAX_HEARD];
    char             detail[MAX_HEARD][64];
    pthread_t        thread[MAX_HEARD];
} heard;

static void on_event(lk_display *display, lk_display_event event, const char *detail, void *user_data)
{
    heard *h = (heard *)user_data;
    if (h->count >= MAX_HEARD) return;
    h->display[h->count] = display;
    h->event[h->count] = event;
    snprintf(h->detail[h->count], sizeof h->detail[0], "%s", detail ? detail : "(null)");
    h->thread[h->count] = pthread_self();
    h->count++;
}

static int destroyed;
static void on_destroy(void *user_data)
{
    (void)user_data;
    destroyed++;
}

static lkevent_fire_fn fire;
static lkevent_fire_in_render_fn fire_in_render;
static lkevent_stats_fn stats_of;
static lkevent_fail_renders_fn fail_renders;

static lkevent_stats stats(void)
{
    lkevent_stats s;
    memset(&s, 0, sizeof s);
    stats_of(&s);
    return s;
}

static lk_display *open_events(int manual)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = "events";
    o.width = 200;
    o.height = 100;
    o.manual_clock = manual != 0;
    return lk_display_open(&o);
}

static lk_layer *scene(lk_layer **mover)
{
    lk_transaction_set_disable_actions(true);
    lk_layer *root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, 200, 100));
    lk_layer_set_background_color(root, lk_color_make(0.1, 0.2, 0.3, 1));
    *mover = lk_layer_create();
    lk_layer_set_frame(*mover, lk_rect_make(10, 10, 20, 20));
    lk_layer_set_background_color(*mover, lk_color_make(1, 0.5, 0, 1));
    lk_layer_add_sublayer(root, *mover);
    return root;
}

/* A jump, not an implicit animation: with the real clock an animation
   still running after RESUMED drew further frames with partial damage, and
   a test thread slowed by a loaded machine then read one of those instead
   of the whole frame RESUMED asks for (a rare failure). */
static void move(lk_layer *mover, double x)
{
    lk_transaction_set_disable_actions(true);
    lk_layer_set_frame(mover, lk_rect_make(x, 10, 20, 20));
}

static int whole(lk_dl_box b, uint32_t w, uint32_t h)
{
    return b.x == 0 && b.y == 0 && b.width == (int32_t)w && b.height == (int32_t)h;
}

/* Manual clock: what the core does with each event. */
static void check_manual(void)
{
    lk_display *d = open_events(1);
    if (!check(d != NULL, "events plugin opens", "%s", lk_last_error())) return;
    void *plugin = dlopen(getenv("LKTEST_EVENTS_PLUGIN"), RTLD_NOW | RTLD_NOLOAD);
    fire = plugin ? (lkevent_fire_fn)(uintptr_t)dlsym(plugin, "lkevent_fire") : NULL;
    fire_in_render = plugin ? (lkevent_fire_in_render_fn)(uintptr_t)dlsym(plugin, "lkevent_fire_in_render") : NULL;
    stats_of = plugin ? (lkevent_stats_fn)(uintptr_t)dlsym(plugin, "lkevent_stats_get") : NULL;
    fail_renders = plugin ? (lkevent_fail_renders_fn)(uintptr_t)dlsym(plugin, "lkevent_fail_renders") : NULL;
    if (!check(fire && fire_in_render && stats_of, "the test reaches the loaded plugin", "%s", dlerror())) {
        lk_display_close(d);
        return;
    }
    heard h;
    memset(&h, 0, sizeof h);
    destroyed = 0;
    check(lk_display_set_event_callback(d, on_event, &h, on_destroy) == LK_OK, "set_event_callback", "%s",
          lk_last_error());
    lk_layer *mover, *root = scene(&mover);
    lk_display_set_root_layer(d, root);
    lk_display_render_frame_at(d, 0);
    move(mover, 20);
    lk_display_render_frame_at(d, 1 / 60.0);
    lkevent_stats s = stats();
    check(s.renders == 2 && !whole(s.last_damage, 200, 100), "before any event frames render with damage",
          "%llu renders, damage %dx%d", (unsigned long long)s.renders, s.last_damage.width, s.last_damage.height);

    /* PAUSED, from another thread as the drm backend's event thread does */
    fire(LK_BACKEND_OUTPUT_PAUSED, "master lost (test)", 0, 0);
    uint64_t before = stats().renders;
    lk_status st = LK_OK;
    for (int i = 2; i < 6; i++) {
        move(mover, 20 + i * 5);
        if (lk_display_render_frame_at(d, i / 60.0) != LK_OK) st = LK_ERROR_STATE;
    }
    check(st == LK_OK, "PAUSED: render_frame_at succeeds", "%s", lk_last_error());
    check(stats().renders == before, "PAUSED: no render() calls while paused", "%llu renders, %llu before",
          (unsigned long long)stats().renders, (unsigned long long)before);
    check(lk_display_get_root_layer(d) == root, "PAUSED: the layer tree is kept", "root changed");
    check(h.count == 0, "the callback waits for the program's run loop", "heard %d before dispatch", h.count);
    lk_display_dispatch(d, 0);
    check(h.count == 1 && h.event[0] == LK_DISPLAY_EVENT_PAUSED && strcmp(h.detail[0], "master lost (test)") == 0 &&
              h.display[0] == d && pthread_equal(h.thread[0], pthread_self()),
          "PAUSED reaches the callback with its detail, on the dispatching thread", "heard %d: event %d \"%s\"",
          h.count, h.count ? (int)h.event[0] : 0, h.count ? h.detail[0] : "");

    /* RESUMED: the next frame is drawn whole */
    fire(LK_BACKEND_OUTPUT_RESUMED, NULL, 0, 0);
    move(mover, 60);
    lk_display_render_frame_at(d, 7 / 60.0);
    s = stats();
    check(s.renders == before + 1 && whole(s.last_damage, 200, 100), "RESUMED: the next frame is drawn whole",
          "%llu renders (%llu before), damage %d,%d %dx%d", (unsigned long long)s.renders,
          (unsigned long long)before, s.last_damage.x, s.last_damage.y, s.last_damage.width, s.last_damage.height);
    move(mover, 65);
    lk_display_render_frame_at(d, 8 / 60.0);
    s = stats();
    check(s.renders == before + 2 && !whole(s.last_damage, 200, 100), "RESUMED: then damage again",
          "damage %dx%d", s.last_damage.width, s.last_damage.height);
    lk_display_dispatch(d, 0);
    check(h.count == 2 && h.event[1] == LK_DISPLAY_EVENT_RESUMED && strcmp(h.detail[1], "(null)") == 0,
          "RESUMED reaches the callback (no detail: NULL)", "heard %d", h.count);

    /* RESIZED: the size is read again; the root is left alone */
    lk_size size0 = lk_display_get_size(d);
    fire(LK_BACKEND_OUTPUT_RESIZED, "another mode", 320, 240);
    lk_size size1 = lk_display_get_size(d);
    check(size0.width == 200 && size0.height == 100 && size1.width == 320 && size1.height == 240,
          "RESIZED: lk_display_get_size says the new size", "%gx%g then %gx%g", size0.width, size0.height,
          size1.width, size1.height);
    check(lk_display_get_refresh_rate(d) == 30, "RESIZED: and the new refresh rate", "%g",
          lk_display_get_refresh_rate(d));
    lk_rect frame = lk_layer_get_frame(root);
    check(lk_display_get_root_layer(d) == root && frame.size.width == 200 && frame.size.height == 100,
          "RESIZED: the root layer is untouched", "root frame %gx%g", frame.size.width, frame.size.height);
    move(mover, 70);
    lk_display_render_frame_at(d, 9 / 60.0);
    s = stats();
    check(whole(s.last_damage, 320, 240), "RESIZED: the next frame is drawn whole at the new size",
          "damage %d,%d %dx%d", s.last_damage.x, s.last_damage.y, s.last_damage.width, s.last_damage.height);
    lk_display_dispatch(d, 0);
    check(h.count == 3 && h.event[2] == LK_DISPLAY_EVENT_RESIZED && strcmp(h.detail[2], "another mode") == 0,
          "RESIZED reaches the callback", "heard %d", h.count);

    /* an event the core does not know is ignored (and logged) */
    fire(99, "from the future", 0, 0);
    lk_display_dispatch(d, 0);
    move(mover, 75);
    uint64_t r0 = stats().renders;
    lk_display_render_frame_at(d, 10 / 60.0);
    check(h.count == 3 && stats().renders == r0 + 1, "an unknown event is ignored", "heard %d", h.count);

    /* a render() that fails (a documented error) is a frame never shown:
       the next is drawn whole (320x240 since RESIZED; the failed list was taken as shown: a retry
       with nothing new drew nothing, and later damage left the change out) */
    if (check(fail_renders != NULL, "the test reaches the plugin's failing hook", "%s", dlerror())) {
        fail_renders(1);
        move(mover, 90);
        lk_status failed = lk_display_render_frame_at(d, 11 / 60.0);
        check(failed == LK_ERROR_BACKEND && strstr(lk_last_error(), "on purpose") != NULL,
              "a failed render() is LK_ERROR_BACKEND with the plugin's reason", "%d: %s", (int)failed, lk_last_error());
        uint64_t r1 = stats().renders;
        lk_display_render_frame_at(d, 12 / 60.0);
        lkevent_stats s1 = stats();
        check(s1.renders == r1 + 1 && whole(s1.last_damage, 320, 240),
              "after a failed render() the next frame is drawn, whole", "%llu renders after %llu, damage %dx%d",
              (unsigned long long)s1.renders, (unsigned long long)r1, s1.last_damage.width, s1.last_damage.height);
    }

    /* replacing the callback destroys the old user_data; NULL removes it */
    heard h2;
    memset(&h2, 0, sizeof h2);
    check(lk_display_set_event_callback(d, on_event, &h2, on_destroy) == LK_OK && destroyed == 1,
          "replacing the callback calls the old destroy", "destroyed %d", destroyed);
    fire(LK_BACKEND_OUTPUT_PAUSED, NULL, 0, 0);
    lk_display_dispatch(d, 0);
    check(h.count == 3 && h2.count == 1, "only the new callback hears", "old %d new %d", h.count, h2.count);
    check(lk_display_set_event_callback(d, NULL, NULL, NULL) == LK_OK && destroyed == 2,
          "a NULL callback removes it (destroy called)", "destroyed %d", destroyed);
    fire(LK_BACKEND_OUTPUT_RESUMED, NULL, 0, 0);
    lk_display_dispatch(d, 0);
    check(h2.count == 1, "no callback: nothing heard", "heard %d", h2.count);

    /* an event that is queued when the callback goes away is not delivered */
    check(lk_display_set_event_callback(d, on_event, &h2, on_destroy) == LK_OK, "set again", "%s", lk_last_error());
    fire(LK_BACKEND_OUTPUT_PAUSED, NULL, 0, 0);
    lk_display_set_event_callback(d, NULL, NULL, NULL);
    lk_display_dispatch(d, 0);
    check(h2.count == 1 && destroyed == 3, "an event queued for a removed callback is dropped",
          "heard %d, destroyed %d", h2.count, destroyed);

    /* bad input */
    check(lk_display_set_event_callback(NULL, on_event, NULL, NULL) != LK_OK &&
              strstr(lk_last_error(), "display"),
          "a NULL display is refused by name", "%s", lk_last_error());
    lk_display_set_event_callback(d, on_event, &h2, on_destroy);
    lk_display_close(d);
    check(destroyed == 4, "closing the display calls destroy", "destroyed %d", destroyed);
    lk_release(mover);
    lk_release(root);
}

/* Real clock: the render thread stops while paused, the events fired on it
   reach the program on the dispatching thread. */
static void check_render_thread(void)
{
    lk_display *d = open_events(0);
    if (!check(d != NULL, "render thread: open", "%s", lk_last_error())) return;
    heard h;
    memset(&h, 0, sizeof h);
    lk_display_set_event_callback(d, on_event, &h, NULL);
    lk_layer *mover, *root = scene(&mover);
    fire_in_render(LK_BACKEND_OUTPUT_PAUSED, "from render()", 0, 0);
    lk_display_set_root_layer(d, root);
    lk_display_dispatch(d, 0);   /* commits: the render thread draws */
    for (int i = 0; i < 200 && h.count == 0; i++) lk_display_dispatch(d, 20);
    lkevent_stats s = stats();
    check(h.count == 1 && h.event[0] == LK_DISPLAY_EVENT_PAUSED && pthread_equal(h.thread[0], pthread_self()) &&
              !pthread_equal(s.render_thread, pthread_self()),
          "render thread: an event fired inside render() reaches the dispatching thread, not the render thread",
          "heard %d", h.count);
    /* paused: commits wake nothing */
    uint64_t paused_at = s.renders;
    for (int i = 0; i < 5; i++) {
        move(mover, 20 + i * 10);
        lk_display_dispatch(d, 20);
    }
    check(stats().renders == paused_at, "render thread: no render() while paused, whatever is committed",
          "%llu renders, %llu when paused", (unsigned long long)stats().renders, (unsigned long long)paused_at);
    fire(LK_BACKEND_OUTPUT_RESUMED, NULL, 0, 0);
    for (int i = 0; i < 200 && stats().renders == paused_at; i++) lk_display_dispatch(d, 20);
    s = stats();
    check(s.renders > paused_at && whole(s.last_damage, 200, 100),
          "render thread: RESUMED wakes it and the frame is drawn whole", "%llu renders, damage %dx%d",
          (unsigned long long)s.renders, s.last_damage.width, s.last_damage.height);
    /* a failed render() does not stop the render thread: a running
       animation keeps being drawn (the loop took the error for "nothing
       animates" and waited for the next commit, the layer frozen) */
    if (fail_renders) {
        fail_renders(1);
        lk_transaction_begin();
        lk_transaction_set_disable_actions(false);
        lk_transaction_set_animation_duration(3);
        lk_layer_set_position(mover, lk_point_make(150, 50));
        lk_transaction_commit();
        lk_display_dispatch(d, 0);
        uint64_t f0 = stats().renders;
        for (int i = 0; i < 200 && stats().renders < f0 + 8; i++) lk_display_dispatch(d, 20);
        check(stats().renders >= f0 + 8, "render thread: after a failed render() a running animation is still drawn",
              "%llu renders after %llu", (unsigned long long)stats().renders, (unsigned long long)f0);
    }
    lk_display_close(d);
    lk_release(mover);
    lk_release(root);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!getenv("LKTEST_EVENTS_PLUGIN")) {
        printf("FAIL setup: LKTEST_EVENTS_PLUGIN is not set\n");
        return 1;
    }
    check_manual();
    if (fire) check_render_thread();
    return failures ? 1 : 0;
}
