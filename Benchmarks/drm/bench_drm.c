/*
 * The drm backend's figures, on a real KMS device (the KMS test VM runs it
 * on vkms: make test-kms):
 *   - the time from lk_display_open to the first frame's page flip;
 *   - on the dumb-buffer path, for a small layer moving over a static
 *     full-screen scene, the pixels redrawn per frame against the whole
 *     frame (the backend counts what it redraws, damage of the reused
 *     buffer's age included, and logs it on close);
 *   - the same with LAYERKIT_FULL_DAMAGE=1 (every frame redrawn whole), the
 *     peer that damage is measured against.
 * The per-frame figure is the difference of a long and a short run, so the
 * first frames (every buffer drawn whole once) do not count.
 * Without a DRM device it says so and exits 0: there is nothing to measure.
 */
#define _POSIX_C_SOURCE 200809L   /* popen, mkstemp, nanosleep */
#include <layerkit/layerkit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static lk_layer *layer(lk_layer *parent, double x, double y, double w, double h, lk_color c)
{
    lk_layer *l = lk_layer_create();
    lk_layer_set_bounds(l, lk_rect_make(0, 0, w, h));
    lk_layer_set_position(l, lk_point_make(x + w / 2, y + h / 2));
    lk_layer_set_background_color(l, c);
    if (parent) {
        lk_layer_add_sublayer(parent, l);
        lk_release(l);
    }
    return l;
}

static uint64_t presented(lk_display *d)
{
    lk_display_stats st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    lk_display_get_stats(d, &st);
    return st.frames_presented;
}

static void pause_briefly(void)
{
    struct timespec t = { 0, 200000 };
    nanosleep(&t, NULL);
}

typedef struct run_result { int ok; double open_to_flip, seconds; unsigned long long frames, pixels, whole; } run_result;

/* Opens, draws `frames` frames with the mover moving, closes; the backend's
   closing log line gives what it redrew. */
static run_result run(int frames)
{
    run_result r;
    memset(&r, 0, sizeof r);
    char path[] = "/tmp/bench_drmXXXXXX";
    int log = mkstemp(path), saved = dup(2);
    unlink(path);
    fflush(stderr);
    dup2(log, 2);

    double t0 = now();
    lk_display_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.backend = "drm";
    o.manual_clock = true;
    lk_display *d = lk_display_open(&o);
    if (d) {
        lk_size size = lk_display_get_size(d);
        lk_layer *root = layer(NULL, 0, 0, size.width, size.height, lk_color_make(0.1, 0.1, 0.2, 1));
        for (int i = 0; i < 12; i++)
            layer(root, 40 + (i % 4) * (size.width - 80) / 4, 40 + (i / 4) * (size.height - 80) / 3,
                  (size.width - 160) / 4, (size.height - 160) / 3,
                  lk_color_make(0.2 + 0.05 * i, 0.5, 0.8 - 0.05 * i, 1));
        lk_layer *mover = layer(root, 0, size.height / 2, 48, 48, lk_color_make(1, 1, 1, 1));
        lk_display_set_root_layer(d, root);
        lk_display_render_frame_at(d, 0);
        while (presented(d) < 1 && now() - t0 < 5) pause_briefly();
        r.open_to_flip = now() - t0;
        double start = now();
        for (int i = 1; i <= frames; i++) {
            lk_transaction_begin();
            lk_transaction_set_disable_actions(true);
            lk_layer_set_position(mover, lk_point_make(24 + (i * 4) % ((int)size.width - 48), size.height / 2));
            lk_transaction_commit();
            lk_display_render_frame_at(d, i / 60.0);
        }
        while (presented(d) < (uint64_t)frames + 1 && now() - start < 10) pause_briefly();
        r.seconds = now() - start;
        lk_display_close(d);
        lk_release(root);
    }

    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[8192];
    ssize_t n = pread(log, text, sizeof text - 1, 0);
    close(log);
    text[n > 0 ? n : 0] = 0;
    const char *line = strstr(text, "frames drawn, ");
    if (!d) {
        fprintf(stderr, "bench_drm: %s\n", lk_last_error());
    } else if (line) {
        line--;   /* back over " <count>" */
        while (line > text && line[-1] >= '0' && line[-1] <= '9') line--;
        double per = 0;
        r.ok = sscanf(line, "%llu frames drawn, %llu pixels redrawn (%lf per frame; a whole frame is %llu)",
                      &r.frames, &r.pixels, &per, &r.whole) == 4;
    }
    if (d && !r.ok) fprintf(stderr, "bench_drm: the backend logged no figures (is LAYERKIT_DEBUG=1 set?)\n%s", text);
    return r;
}

/* Pixels redrawn per frame, from a short and a long run. */
static int per_frame(int longrun, run_result *first, double *per, double *seconds)
{
    run_result a = run(10);
    if (!a.ok) return 0;
    run_result b = run(longrun);
    if (!b.ok) return -1;
    *first = a;
    *per = (double)(b.pixels - a.pixels) / (double)(b.frames - a.frames);
    *seconds = b.seconds;
    return 1;
}

int main(int argc, char **argv)
{
    int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    int peer = argc > 1 && strcmp(argv[1], "--peer") == 0;
    int longrun = smoke ? 40 : 130;
    setenv("LAYERKIT_DEBUG", "1", 1);   /* the backend's figures are info lines */
    run_result first;
    double per = 0, seconds = 0;
    int found = per_frame(longrun, &first, &per, &seconds);
    if (peer) {
        /* the core reads LAYERKIT_FULL_DAMAGE once per process: the peer
           runs in a process of its own */
        if (found > 0) printf("peer %f %f\n", per, seconds);
        return found > 0 ? 0 : 1;
    }
    if (found == 0) {
        printf("bench_drm: no DRM display here, nothing measured (the KMS test VM runs this: make test-kms)\n");
        return getenv("LKTEST_REQUIRE_DRM") ? 1 : 0;
    }
    if (found < 0) return 1;
    char command[4200];
    snprintf(command, sizeof command, "LAYERKIT_FULL_DAMAGE=1 '%s' --peer%s", argv[0], smoke ? " --smoke" : "");
    FILE *p = popen(command, "r");
    double full = 0, full_seconds = 0;
    int got = p && fscanf(p, "peer %lf %lf", &full, &full_seconds) == 2;
    if (p) pclose(p);
    printf("figure: lk_display_open to the first flip: %.1f ms\n", first.open_to_flip * 1e3);
    printf("figure: dumb buffers, 48x48 layer moving over a static %llu-pixel scene: %.0f pixels redrawn per "
           "frame = %.2f%% of the frame", first.whole, per, 100.0 * per / (double)first.whole);
    if (got)
        printf(" (every frame whole, LAYERKIT_FULL_DAMAGE=1: %.0f = %.0f%%)\n", full,
               100.0 * full / (double)first.whole);
    else
        printf(" (the whole-frame peer did not run)\n");
    printf("figure: %d frames in %.3f s with damage, %.3f s whole (emulated CPU: only the ratio means much)\n",
           longrun, seconds, full_seconds);
    return got ? 0 : 1;
}
