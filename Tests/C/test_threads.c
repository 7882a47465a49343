/*
 * Threads (issue 3 part 8, S2, S5.2, S8.1): layers changed from several
 * threads at once while a display with a real clock draws on its render
 * thread. Each worker thread runs a seeded random sequence of calls on its
 * own layers (created and released, moved between its own layers and a
 * root shared by every thread, animated implicitly and explicitly, in
 * nested transactions, with completions, presentation copies and hit
 * tests, running its own run loop), while the main thread reads pixels,
 * presentation copies and the shared root's sublayers.
 *
 * Checked after the threads end: no crash or hang; the shared root lists
 * each of its sublayers once and each names it as its superlayer; every
 * completion ran exactly once, on the thread whose transaction set it
 * (S2.4); every layer a thread made is freed by its last release.
 *
 * Then, deterministically: a thread that adds an animation and ends
 * without running its run loop. The animation's events, which go to that
 * thread's run loop, are dropped: the animation (and its delegate's
 * user data) is freed with its layer. (Kept, they held the run loop in a
 * cycle, and it leaked with all it held.)
 *
 * LKTEST_THREAD_CALLS=N runs longer (default 1,500 calls a thread).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* nanosleep */
#endif
#include "lktest.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <unistd.h>

#define THREADS 3
#define LAYERS 8
#define MAX_MADE 4096

static lk_layer *root;
static lk_display *display;

typedef struct worker {
    int index;
    int calls;
    unsigned long long state;
    lk_layer *layers[LAYERS];
    lk_animation *animation;
    int open;                  /* explicit transactions open on this thread */
    int completions_set;       /* completions given to committed transactions */
    int completions_ran;       /* ... that ran */
    int completions_elsewhere; /* ... that ran on another thread */
    lk_layer *made[MAX_MADE];  /* every layer made, to check they are freed */
    int made_count;
} worker;

static pthread_key_t current_worker;

static unsigned rnd(worker *w)
{
    w->state = w->state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(w->state >> 33);
}
static double between(worker *w, double lo, double hi) { return lo + (hi - lo) * (rnd(w) % 100000) / 100000.0; }

static lk_layer *make_layer(worker *w)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_bounds(l, lk_rect_make(0, 0, between(w, 4, 40), between(w, 4, 40)));
    lk_layer_set_background_color(l, lk_color_make(between(w, 0, 1), between(w, 0, 1), 1, 1));
    if (w->made_count < MAX_MADE) w->made[w->made_count++] = l;
    return l;
}

static void completion(void *user_data)
{
    worker *w = (worker *)user_data;
    w->completions_ran++;
    if (pthread_getspecific(current_worker) != w) w->completions_elsewhere++;
}

static void call(worker *w)
{
    unsigned i = rnd(w) % LAYERS, j = rnd(w) % LAYERS;
    lk_layer *a = w->layers[i], *b = w->layers[j];
    switch (rnd(w) % 20) {
    case 0:
        /* let go of, perhaps while it is still in a tree: its animations
           go first (a layer out of every display's tree is not animated,
           so its transactions' completions would wait for them) */
        lk_layer_remove_all_animations(a);
        lk_release(a);
        w->layers[i] = make_layer(w);
        break;
    case 1: case 2: lk_layer_add_sublayer(root, a); break;
    case 3: lk_layer_add_sublayer(a, b); break;
    case 4: lk_layer_remove_from_superlayer(a); break;
    case 5: case 6: lk_layer_set_position(a, lk_point_make(between(w, 0, 160), between(w, 0, 120))); break;
    case 7: lk_layer_set_opacity(a, between(w, 0, 1)); break;
    case 8: lk_layer_set_transform(a, lk_transform3d_make_rotation(between(w, 0, 6.3), 0, 0, 1)); break;
    case 9:
        if (w->open < 4) {
            lk_transaction_begin();
            w->open++;
            lk_transaction_set_animation_duration(between(w, 0, 0.2));
            if (rnd(w) % 2) { lk_transaction_set_completion(completion, w); w->completions_set++; }
        }
        break;
    case 10: if (w->open > 0 && lk_transaction_commit() == LK_OK) w->open--; break;
    case 11: if (w->open == 0) lk_transaction_flush(); break;
    case 12: lk_layer_add_animation(a, w->animation, rnd(w) % 2 ? "spin" : NULL); break;
    case 13: lk_layer_remove_all_animations(a); break;
    case 14: { lk_layer *p = lk_layer_copy_presentation(a); if (p) lk_release(p); break; }
    case 15: lk_layer_hit_test(root, lk_point_make(between(w, 0, 160), between(w, 0, 120))); break;
    case 16: lk_display_dispatch(display, 0); break;
    case 17: lk_layer_set_mask(a, rnd(w) % 3 ? NULL : b); break;
    case 18: lk_layer_insert_sublayer(root, a, rnd(w) % 3); break;
    default: lk_layer_set_hidden(a, rnd(w) % 4 == 0); break;
    }
}

static void *run_worker(void *context)
{
    worker *w = (worker *)context;
    int n, k;
    pthread_setspecific(current_worker, w);
    for (k = 0; k < LAYERS; k++) w->layers[k] = make_layer(w);
    w->animation = lk_basic_animation_create("transform.rotation.z");
    lk_animation_set_by_value(w->animation, lk_value_number(6.28));
    lk_animation_set_duration(w->animation, between(w, 0.05, 0.3));
    for (n = 0; n < w->calls; n++) call(w);
    while (w->open > 0 && lk_transaction_commit() == LK_OK) w->open--;
    lk_transaction_flush();
    for (k = 0; k < LAYERS; k++) {
        lk_layer_remove_all_animations(w->layers[k]);
        lk_layer_set_mask(w->layers[k], NULL);
        lk_layer_remove_from_superlayer(w->layers[k]);
    }
    lk_transaction_flush();
    /* the animations end and the completions run (the render thread finds
       the ends; this thread's run loop delivers them) */
    for (n = 0; n < 200 && w->completions_ran < w->completions_set; n++) lk_display_dispatch(display, 5);
    for (k = 0; k < LAYERS; k++) { lk_release(w->layers[k]); w->layers[k] = NULL; }
    lk_release(w->animation);
    lk_transaction_flush();
    return NULL;
}

/* ---- a thread that ends with callbacks on their way ------------------- */

static lk_layer *ended_layer;
static int ended_destroyed;
static void note_destroyed(void *user_data) { (void)user_data; ended_destroyed++; }
static void ignore_stop(lk_animation *a, bool finished, void *user_data) { (void)a; (void)finished; (void)user_data; }

static void *add_and_end(void *context)
{
    lk_animation *a = lk_basic_animation_create("opacity");
    lk_animation_delegate d;
    (void)context;
    memset(&d, 0, sizeof d);
    d.struct_size = (uint32_t)sizeof d;
    d.did_stop = ignore_stop;
    lk_animation_set_from_value(a, lk_value_number(0));
    lk_animation_set_duration(a, 0.5);
    lk_animation_set_delegate(a, &d, NULL, note_destroyed);
    lk_layer_add_animation(ended_layer, a, "fade");
    lk_release(a);              /* the layer holds the added copy */
    lk_transaction_flush();
    return NULL;                /* ends without running its run loop */
}

static void check_ended_thread(void)
{
    const char *name = "S4.6 S8.1 a thread that ends before its animation's events: they are dropped, nothing leaks";
    lk_display *d = lkt_open_display(64, 48, name);
    lk_layer *top;
    pthread_t thread;
    double b;
    if (!d) return;
    top = lkt_layer_new(NULL, 0, 0, 64, 48, lk_color_make(0, 0, 0, 1));
    ended_layer = lkt_layer_new(top, 8, 8, 16, 16, lk_color_make(1, 0, 0, 1));
    lk_display_set_root_layer(d, top);
    lk_display_render_frame_at(d, lk_media_time());
    ended_destroyed = 0;
    if (pthread_create(&thread, NULL, add_and_end, NULL) != 0) {
        LKT_CHECK(0, name, "%s", "pthread_create failed");
        return;
    }
    pthread_join(thread, NULL);
    b = lk_animation_get_begin_time(lk_layer_get_animation(ended_layer, "fade"));
    /* its start and its end, posted to the ended thread's run loop */
    lk_display_render_frame_at(d, b + 0.25);
    lk_display_render_frame_at(d, b + 1);
    lk_layer_remove_from_superlayer(ended_layer);
    lk_release(ended_layer);
    lk_transaction_flush();
    LKT_CHECK(ended_destroyed == 1, name, "the delegate's user data destroyed %d times (the animation %s)",
              ended_destroyed, ended_destroyed ? "freed" : "kept alive by the ended thread's queue");
    lk_display_close(d);
    lk_release(top);
}

/* ---- lk_display_run on several threads; closing under a run ---------- */

/* a thread's lk_display_run, or lk_display_dispatch with timeout */
typedef struct runner { lk_display *display; volatile int returned; lk_status status; int timeout; } runner;

static void *run_display(void *context)
{
    runner *r = (runner *)context;
    r->status = lk_display_run(r->display);
    r->returned = 1;
    return NULL;
}

/* Waits up to 5 s for every runner to return; how many did. */
static int wait_returned(runner *r, int n)
{
    int done = 0;
    for (int waited = 0; waited < 500; waited++) {
        done = 0;
        for (int i = 0; i < n; i++) done += r[i].returned;
        if (done == n) break;
        struct timespec t = { 0, 10000000 };
        nanosleep(&t, NULL);
    }
    return done;
}

/* A 16 x 16 display with a manual clock, for runs and dispatches on threads. */
static lk_display *open_for_threads(const char *check)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = (uint32_t)sizeof o;
    o.backend = lkt_backend();
    o.width = 16;
    o.height = 16;
    o.manual_clock = true;
    lk_display *d = lk_display_open(&o);
    LKT_CHECK(d != NULL, check, "%s", lk_last_error());
    return d;
}

/* One lk_display_stop ends the run on each thread running the display (the
   second thread's run never returned: the display woke one thread); closing
   the display ends runs on other threads too (they waited for something
   else to be posted to them). */
static void check_runs_on_threads(void)
{
    lk_display *d = open_for_threads("S5.3 open a display for runs on threads");
    if (!d) return;
    runner r[2] = { { d, 0, LK_OK, 0 }, { d, 0, LK_OK, 0 } };
    pthread_t threads[2];
    int started = 0;
    for (int i = 0; i < 2; i++) started += pthread_create(&threads[i], NULL, run_display, &r[i]) == 0;
    struct timespec settle = { 0, 200000000 };
    nanosleep(&settle, NULL);   /* both inside lk_display_run */
    lk_display_stop(d);
    int returned = wait_returned(r, 2);
    LKT_CHECK(started == 2 && returned == 2 && r[0].status == LK_OK && r[1].status == LK_OK,
              "S5.3 one lk_display_stop ends the run on each thread running the display",
              "%d of %d returned", returned, started);
    if (returned == 2) for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);

    runner c = { d, 0, LK_OK, 0 };
    pthread_t closer;
    if (pthread_create(&closer, NULL, run_display, &c) == 0) {
        nanosleep(&settle, NULL);
        lk_display_close(d);
        int done = wait_returned(&c, 1);
        LKT_CHECK(done == 1 && c.status == LK_ERROR_STATE,
                  "S5.3 closing the display ends a run on another thread, with LK_ERROR_STATE",
                  "returned %d, %s", done, lkt_status_name(c.status));
        if (done) pthread_join(closer, NULL);
    }
    lk_release(d);
}

/* Closing the display ends an lk_display_dispatch under way on another
   thread, with LK_ERROR_STATE, as it ends a run: the dispatch with no
   limit never returned, one of 60 s waited out its limit. A timeout below
   -1 waits for nothing: it is refused (it waited forever). */
static void *dispatch_display(void *context)
{
    runner *r = (runner *)context;
    r->status = lk_display_dispatch(r->display, r->timeout);
    r->returned = 1;
    return NULL;
}

static void check_dispatch_closed(void)
{
    lk_display *d = open_for_threads("S5.3 open a display for dispatches on threads");
    if (!d) return;
    lkt_error_mark();
    LKT_CHECK_ERROR("S8.1 lk_display_dispatch with a timeout of -2 ms is refused", lk_display_dispatch(d, -2),
                    LK_ERROR_INVALID_ARGUMENT, "timeout_ms");
    runner r[2] = { { d, 0, LK_OK, -1 }, { d, 0, LK_OK, 60000 } };
    pthread_t threads[2];
    int started = 0;
    for (int i = 0; i < 2; i++) started += pthread_create(&threads[i], NULL, dispatch_display, &r[i]) == 0;
    struct timespec settle = { 0, 200000000 };
    nanosleep(&settle, NULL);   /* both inside lk_display_dispatch */
    lk_display_close(d);
    int done = wait_returned(r, started);
    LKT_CHECK(started == 2 && done == 2 && r[0].status == LK_ERROR_STATE && r[1].status == LK_ERROR_STATE,
              "S5.3 closing the display ends a dispatch on another thread (no limit, 60 s), with LK_ERROR_STATE",
              "%d of %d returned within 5 s, %s and %s", done, started, lkt_status_name(r[0].status),
              lkt_status_name(r[1].status));
    if (done == started) for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
    lk_release(d);
}

/* ---- S2.1 across threads, S8.1: no loop on the render side ------------ */

/* A commit publishes the layers its thread changed as the model has them,
   moves another thread made in a transaction still open included. With
   root -> [X, Y] committed: thread A (open) puts Y under X; the main
   thread commits a change to X (so X -> Y reaches the render side); A
   (still open) puts Y under the root and X under Y; the main thread commits
   a change to Y, whose sublayers are now [X]. Published as is, X -> Y ->
   X was a loop: the next frame or presentation copy recursed until the
   stack overflowed. Now the link that would close a loop waits for A's
   commit, which publishes its moves; then the tree is root -> Y -> X. */
typedef struct stepper {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int step;
} stepper;
static stepper steps = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
static lk_layer *loop_x, *loop_y, *loop_root;

static void step_to(int n)
{
    pthread_mutex_lock(&steps.lock);
    steps.step = n;
    pthread_cond_broadcast(&steps.changed);
    pthread_mutex_unlock(&steps.lock);
}

static void wait_for(int n)
{
    pthread_mutex_lock(&steps.lock);
    while (steps.step < n) pthread_cond_wait(&steps.changed, &steps.lock);
    pthread_mutex_unlock(&steps.lock);
}

static void *open_moves(void *context)
{
    (void)context;
    lk_transaction_begin();
    lk_layer_add_sublayer(loop_x, loop_y);
    step_to(1);
    wait_for(2);
    lk_layer_add_sublayer(loop_root, loop_y);
    lk_layer_add_sublayer(loop_y, loop_x);
    step_to(3);
    wait_for(4);
    lk_transaction_commit();
    step_to(5);
    return NULL;
}

static void check_no_render_loop(void)
{
    lk_display *d = lkt_open_display(64, 48, "S8.1 a display with a manual clock");
    if (!d) return;
    loop_root = lkt_layer_new(NULL, 0, 0, 64, 48, lk_color_make(0, 0, 0, 1));
    loop_x = lkt_layer_new(loop_root, 0, 0, 20, 20, lk_color_make(1, 0, 0, 1));
    loop_y = lkt_layer_new(loop_root, 5, 5, 10, 10, lk_color_make(0, 0, 1, 1));
    lk_display_set_root_layer(d, loop_root);
    lk_transaction_flush();
    lk_display_render_frame_at(d, lk_media_time());
    pthread_t other;
    if (pthread_create(&other, NULL, open_moves, NULL) != 0) {
        LKT_CHECK(0, "S8.1 start a thread", "pthread_create failed");
        return;
    }
    wait_for(1);
    lk_transaction_begin();
    lk_layer_set_opacity(loop_x, 0.9);
    lk_transaction_commit();
    step_to(2);
    wait_for(3);
    lk_transaction_begin();
    lk_layer_set_opacity(loop_y, 0.9);
    lk_transaction_commit();
    lk_status drawn = lk_display_render_frame_at(d, lk_media_time() + 1);
    lk_layer *p = lk_layer_copy_presentation(loop_root);
    LKT_CHECK(drawn == LK_OK && p != NULL,
              "S8.1 moves of a transaction still open on another thread make no loop on the render side",
              "render %s", lkt_status_name(drawn));
    lk_release(p);
    step_to(4);
    wait_for(5);
    pthread_join(other, NULL);
    lk_transaction_flush();
    lk_display_render_frame_at(d, lk_media_time() + 2);
    p = lk_layer_copy_presentation(loop_root);
    lk_layer *py = p && lk_layer_get_sublayer_count(p) == 1 ? lk_layer_get_sublayer(p, 0) : NULL;
    lk_layer *px = py && lk_layer_get_sublayer_count(py) == 1 ? lk_layer_get_sublayer(py, 0) : NULL;
    LKT_CHECK(py && px && lk_layer_get_model_layer(py) == loop_y && lk_layer_get_model_layer(px) == loop_x &&
                  lk_layer_get_sublayer_count(px) == 0,
              "S2.1 once that thread commits, the render side has its tree: root -> Y -> X", "root has %zu sublayers",
              p ? lk_layer_get_sublayer_count(p) : 0);
    lk_release(p);
    lk_display_close(d);
    lk_release(loop_x);
    lk_release(loop_y);
    lk_release(loop_root);
}

/* ---- S8.1: closing the display from a callback while tiles are wanted -- */

/* A delegate's callback runs under the library's lock; closing the display
   there waits for the render thread to end, and a render thread waiting for
   that lock to draw a tiled layer's tiles never did: a deadlock (an alarm
   turns a hang into a failure). */
static lk_display *closing;
static int tile_draws;
static lk_layer *painted_by_tiles;
static void draw_tile(lk_layer *layer, lk_canvas *canvas, void *user_data)
{
    (void)layer;
    (void)user_data;
    tile_draws++;
    /* S2.2: a change made here, on the render thread, is committed (it
       opened an implicit transaction there, which nothing ever committed) */
    lk_transaction_set_disable_actions(true);   /* (the implicit transaction's) */
    lk_layer_set_background_color(painted_by_tiles, lk_color_make(0, 1, 0, 1));
    lk_canvas_clear(canvas, lk_color_make(0, 0, 1, 1));
}
static lk_action *close_on_opacity(lk_layer *layer, const char *event, void *user_data)
{
    (void)layer;
    (void)user_data;
    if (strcmp(event, "opacity") == 0 && closing) {
        /* the render thread wants tiles at its next frame: let it wait for this lock */
        struct timespec ts = {0, 60 * 1000 * 1000};
        nanosleep(&ts, NULL);
        lk_display_close(closing);
        closing = NULL;
    }
    return NULL;
}

static void fail_on_alarm(int signal)
{
    (void)signal;
    static const char message[] = "FAIL S8.1 closing the display from a callback while tiles are wanted: deadlock\n";
    if (write(2, message, sizeof message - 1) < 0) _exit(3);
    _exit(3);
}

static void check_close_from_callback(void)
{
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = (uint32_t)sizeof o;
    o.backend = lkt_backend();
    o.width = 160;
    o.height = 120;
    lk_display *d = lk_display_open(&o);   /* a real clock: the render thread draws tiles */
    if (!LKT_CHECK(d != NULL, "S8.1 open a display with a real clock", "%s", lk_last_error())) return;
    lk_layer *r = lkt_layer_new(NULL, 0, 0, 160, 120, lk_color_make(0, 0, 0, 1));
    /* 100,000 points wide, sliding past: new tiles are wanted every frame */
    lk_layer *t = lk_tiled_layer_create();
    lk_layer_set_frame(t, lk_rect_make(0, 0, 100000, 120));
    lk_tiled_layer_set_tile_size(t, lk_size_make(16, 16));
    lk_animation *slide = lk_basic_animation_create("position.x");
    lk_animation_set_from_value(slide, lk_value_number(50000));
    lk_animation_set_to_value(slide, lk_value_number(-50000));
    lk_animation_set_duration(slide, 20);
    lk_layer_add_animation(t, slide, "slide");
    lk_release(slide);
    lk_layer_delegate td;
    memset(&td, 0, sizeof td);
    td.struct_size = sizeof td;
    td.draw = draw_tile;
    lk_layer_set_delegate(t, &td, NULL, NULL);
    lk_layer *x = lkt_layer_new(r, 0, 0, 20, 20, lk_color_make(1, 0, 0, 1));
    lk_layer_delegate xd;
    memset(&xd, 0, sizeof xd);
    xd.struct_size = sizeof xd;
    xd.action_for_key = close_on_opacity;
    lk_layer_set_delegate(x, &xd, NULL, NULL);
    lk_layer_add_sublayer(r, t);
    lk_display_set_root_layer(d, r);
    lk_transaction_flush();
    painted_by_tiles = x;
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    lk_layer *shown = lk_layer_copy_presentation(x);
    lk_color c = shown ? lk_layer_get_background_color(shown) : lk_color_make(0, 0, 0, 0);
    lk_release(shown);
    LKT_CHECK(tile_draws > 0 && lkt_color_near(c, lk_color_make(0, 1, 0, 1), 0),
              "S2.2 a change a tile's draw makes on the render thread is committed", "%d tiles, presented %s", tile_draws,
              lkt_fmt_color(c));
    signal(SIGALRM, fail_on_alarm);
    alarm(10);
    closing = d;
    lk_layer_set_opacity(x, 0.5);   /* its delegate closes the display */
    alarm(0);
    LKT_CHECK(closing == NULL && tile_draws > 0, "S8.1 a callback closes the display while the render thread wants tiles",
              "%d tiles drawn", tile_draws);
    lk_transaction_flush();
    lk_layer_set_delegate(x, NULL, NULL, NULL);
    lk_release(x);
    lk_release(t);
    lk_release(r);
}

int main(void)
{
    const char *calls_env = getenv("LKTEST_THREAD_CALLS");
    int calls = calls_env && atoi(calls_env) > 0 ? atoi(calls_env) : 1500;
    lk_display_options o;
    worker *workers = (worker *)calloc(THREADS, sizeof(worker));
    pthread_t threads[THREADS];
    int t, k, started = 0, reads = 0, listed_once = 1, consistent_root = 1, alive = 0;
    int set = 0, ran = 0, elsewhere = 0;
    size_t n, s;
    uint8_t *pixels = (uint8_t *)malloc(160 * 120 * 4);
    pthread_key_create(&current_worker, NULL);
    memset(&o, 0, sizeof o);
    o.struct_size = (uint32_t)sizeof o;
    o.backend = lkt_backend();
    o.width = 160;
    o.height = 120;
    display = lk_display_open(&o);   /* a real clock: the render thread draws */
    if (!display || !workers || !pixels) {
        LKT_CHECK(0, "threads: open a display with a real clock", "%s", lk_last_error());
        return lkt_finish();
    }
    root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, 160, 120));
    lk_layer_set_background_color(root, lk_color_make(0.1, 0.1, 0.1, 1));
    lk_display_set_root_layer(display, root);
    lk_transaction_flush();

    for (t = 0; t < THREADS; t++) {
        workers[t].index = t;
        workers[t].calls = calls;
        workers[t].state = 977ULL * (unsigned long long)(t + 1);
        if (pthread_create(&threads[t], NULL, run_worker, &workers[t]) == 0) started++;
        else break;
    }
    /* Meanwhile: pixels, the root's presentation, its sublayers. */
    for (k = 0; k < 200; k++) {
        lk_layer *p;
        if (lk_display_read_pixels(display, pixels, 160 * 4) == LK_OK) reads++;
        p = lk_layer_copy_presentation(root);
        if (p) lk_release(p);
        lk_layer_get_sublayer_count(root);
        lk_display_dispatch(display, 1);
    }
    for (t = 0; t < started; t++) pthread_join(threads[t], NULL);
    lk_transaction_flush();
    n = lk_layer_get_sublayer_count(root);
    for (s = 0; s < n; s++) {
        const lk_layer *l = lk_layer_get_sublayer(root, s);
        size_t q, seen = 0;
        for (q = 0; q < n; q++) if (lk_layer_get_sublayer(root, q) == l) seen++;
        if (seen != 1 || lk_layer_get_superlayer(l) != root) consistent_root = 0;
    }
    /* what the threads let go of while it was in the shared root */
    while (lk_layer_get_sublayer_count(root) > 0) {
        lk_layer *l = lk_layer_get_sublayer(root, 0);
        if (lk_layer_remove_from_superlayer(l) != LK_OK) break;
        /* a layer whose last reference the root held is gone now, and
           the next one is at 0 */
    }
    lk_transaction_flush();

    LKT_CHECK(started == THREADS && reads > 0, "threads: three threads ran while the render thread drew",
              "%d threads, %d frames read", started, reads);
    n = lk_layer_get_sublayer_count(root);
    listed_once = consistent_root;
    for (s = 0; s < n; s++) {
        const lk_layer *l = lk_layer_get_sublayer(root, s);
        size_t q, seen = 0;
        for (q = 0; q < n; q++) if (lk_layer_get_sublayer(root, q) == l) seen++;
        if (seen != 1 || lk_layer_get_superlayer(l) != root) listed_once = 0;
    }
    LKT_CHECK(listed_once && n == 0, "S1.3 the shared root listed each sublayer once, each naming it; all could leave it",
              "%zu sublayers left, consistent %d", n, listed_once);
    for (t = 0; t < started; t++) {
        set += workers[t].completions_set;
        ran += workers[t].completions_ran;
        elsewhere += workers[t].completions_elsewhere;
    }
    LKT_CHECK(set > 0 && ran == set && elsewhere == 0,
              "S2.4 every completion ran once, on the thread whose transaction set it",
              "%d set, %d ran, %d on another thread", set, ran, elsewhere);
    for (t = 0; t < started; t++)
        for (k = 0; k < workers[t].made_count; k++) {
            void *again = lk_retain(workers[t].made[k]);
            if (again) { alive++; lk_release(again); }
        }
    LKT_CHECK(alive == 0, "S8.1 every layer the threads made is freed by its last release", "%d still alive", alive);

    lk_display_close(display);
    lk_release(root);
    check_ended_thread();
    check_runs_on_threads();
    check_dispatch_closed();
    check_no_render_loop();
    check_close_from_callback();
    free(pixels);
    free(workers);
    pthread_key_delete(current_worker);
    return lkt_finish();
}
