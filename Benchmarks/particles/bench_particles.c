/*
 * A whole frame of 10,000 live particles on the software backend at
 * 1920x1080 (S7.4, issue 8), through the public API: an emitter layer over
 * the screen (a rectangle emitter, 5,000 particles a second living 2 s,
 * 16x16 contents, every particle tinted by its own colour), rendered with
 * lk_display_render_frame_at at 60 fps in steady state: simulation,
 * display list and compositing. Goal: under 8 ms per frame.
 *
 * The frame is drawn on the calling thread, which shares big sprite runs'
 * bands with the software backend's band workers (LAYERKIT_SOFTWARE_THREADS;
 * by default one thread per CPU, up to 4). The goal is the frame's time,
 * its wall time per frame (median of 300); beside it the CPU time of every
 * thread (CLOCK_PROCESS_CPUTIME_ID) and of the calling thread, and the same
 * frames drawn on one thread (LAYERKIT_SOFTWARE_THREADS=1) in the same run.
 * On a shared machine wall time also counts the time other processes had a
 * core, and a busy second core leaves the workers nothing to add. Memory
 * per live particle is the growth of resident memory from a frame with no
 * particles (framebuffer already touched) to the steady state, divided by
 * the live count (birth rate x lifetime = 10,000). The simulation plus
 * display list part alone is measured by Benchmarks/Emitter (goal 2 ms).
 *
 * usage: bench_particles [--smoke]      (LAYERKIT_BACKEND=software is used)
 *
 * With BENCH_PARTICLES_CHECKSUM=1 it also prints a checksum of the last
 * frame's pixels (FNV-1a over lk_display_read_pixels), so that two builds
 * of the backend can be shown to draw the same frame. BENCH_PARTICLES_FRAMES=N
 * times N frames instead of 300 (after the same warm-up); the timed frames
 * are drawn by measured_frame, for a profiler to count them alone:
 *   valgrind --tool=callgrind --collect-atstart=no --toggle-collect=measured_frame
 */
#define _POSIX_C_SOURCE 200809L
#include <layerkit/layerkit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define W 1920
#define H 1080
#define GOAL_MS 8.0

#define BIRTH_RATE 5000
#define LIFETIME 2
#define LIVE (BIRTH_RATE * LIFETIME)

static double clock_ms(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Resident bytes of this process (/proc/self/statm), 0 when unknown. */
static double resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    if (!f) return 0;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
    fclose(f);
    return (double)resident * (double)sysconf(_SC_PAGESIZE);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void fail(const char *what)
{
    fprintf(stderr, "bench_particles: %s: %s\n", what, lk_last_error());
    exit(1);
}

/* One timed frame (not inlined: a profiler can count these alone). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
void measured_frame(lk_display *display, double media_time);
void measured_frame(lk_display *display, double media_time)
{
    if (lk_display_render_frame_at(display, media_time) != LK_OK) fail("lk_display_render_frame_at");
}

/* What one run measured: per frame medians and p90s (ms), and memory. */
typedef struct run_result {
    double wall, wall_p90, cpu, cpu_p90, thread_cpu;
    double per_particle, live;
    int full;   /* the steady state was reached (not a smoke run) */
} run_result;

static double median_of(double *v, int n) { qsort(v, (size_t)n, sizeof *v, compare_doubles); return v[n / 2]; }
static double p90_of(double *v, int n) { qsort(v, (size_t)n, sizeof *v, compare_doubles); return v[n * 9 / 10]; }

/* The scene on a display of its own, opened with LAYERKIT_SOFTWARE_THREADS
   = threads (NULL: unset, the backend's own choice). */
static run_result run(int smoke, const char *threads, int checksum)
{
    if (threads) setenv("LAYERKIT_SOFTWARE_THREADS", threads, 1);
    else unsetenv("LAYERKIT_SOFTWARE_THREADS");
    lk_display_options options;
    memset(&options, 0, sizeof options);
    options.struct_size = (uint32_t)sizeof options;
    options.backend = "software";
    options.width = W;
    options.height = H;
    options.manual_clock = true;
    lk_display *display = lk_display_open(&options);
    if (!display) fail("lk_display_open");

    uint8_t px[16 * 16 * 4];
    for (int i = 0; i < 16 * 16; i++) {
        int dx = i % 16 - 8, dy = i / 16 - 8;
        px[i * 4] = px[i * 4 + 1] = px[i * 4 + 2] = 255;
        px[i * 4 + 3] = dx * dx + dy * dy <= 64 ? 255 : 0;
    }
    lk_image *dot = lk_image_create_from_pixels(16, 16, 64, LK_PIXEL_FORMAT_RGBA8, px);
    lk_emitter_cell *cell = lk_emitter_cell_create();
    lk_emitter_cell_set_birth_rate(cell, BIRTH_RATE);
    lk_emitter_cell_set_lifetime(cell, LIFETIME);
    lk_emitter_cell_set_velocity(cell, 60);
    lk_emitter_cell_set_velocity_range(cell, 40);
    lk_emitter_cell_set_emission_range(cell, 2 * 3.14159265358979);
    lk_emitter_cell_set_y_acceleration(cell, 30);
    lk_emitter_cell_set_spin(cell, 1);
    lk_emitter_cell_set_spin_range(cell, 2);
    lk_emitter_cell_set_scale(cell, 0.8);
    lk_emitter_cell_set_scale_range(cell, 0.3);
    lk_emitter_cell_set_alpha_speed(cell, -0.4);
    lk_emitter_cell_set_red_range(cell, 0.5);
    lk_emitter_cell_set_contents(cell, dot);

    lk_transaction_set_disable_actions(true);
    lk_layer *root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_layer_set_background_color(root, lk_color_make(0, 0, 0, 1));
    lk_layer *e = lk_emitter_layer_create();
    lk_layer_set_frame(e, lk_rect_make(0, 0, W, H));
    double start = lk_media_time() + 1;
    lk_layer_set_begin_time(e, start);
    lk_emitter_layer_set_emitter_position(e, lk_point_make(W / 2.0, H / 2.0));
    lk_emitter_layer_set_emitter_size(e, lk_size_make(W, H));
    lk_emitter_layer_set_emitter_shape(e, LK_EMITTER_SHAPE_RECTANGLE);
    lk_emitter_layer_set_emitter_mode(e, LK_EMITTER_MODE_SURFACE);
    lk_emitter_layer_set_seed(e, 1);
    if (lk_emitter_layer_set_cells(e, &cell, 1) != LK_OK) fail("lk_emitter_layer_set_cells");
    lk_layer_add_sublayer(root, e);
    if (lk_display_set_root_layer(display, root) != LK_OK) fail("lk_display_set_root_layer");
    lk_transaction_flush();

    /* A frame before the emitter begins: no particles, every page of the
       framebuffer written. */
    if (lk_display_render_frame_at(display, start - 0.5) != LK_OK) fail("lk_display_render_frame_at");
    double resident_before = resident_bytes();
    double t = 0;
    int warm = smoke ? 30 : 150, frames = smoke ? 10 : 300;
    const char *frames_env = getenv("BENCH_PARTICLES_FRAMES");
    if (frames_env && atoi(frames_env) > 0) frames = atoi(frames_env);
    for (int i = 0; i < warm; i++) {
        t += 1.0 / 60;
        if (lk_display_render_frame_at(display, start + t) != LK_OK) fail("lk_display_render_frame_at");
    }
    double *cpu = (double *)malloc(sizeof(double) * (size_t)frames);
    double *wall = (double *)malloc(sizeof(double) * (size_t)frames);
    double *thread_cpu = (double *)malloc(sizeof(double) * (size_t)frames);
    if (!cpu || !wall || !thread_cpu) fail("malloc");
    for (int i = 0; i < frames; i++) {
        t += 1.0 / 60;
        double c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID), k0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
        double w0 = clock_ms(CLOCK_MONOTONIC);
        measured_frame(display, start + t);
        wall[i] = clock_ms(CLOCK_MONOTONIC) - w0;
        thread_cpu[i] = clock_ms(CLOCK_THREAD_CPUTIME_ID) - k0;
        cpu[i] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    }
    /* Steady state only after 2 s (the lifetime): the smoke run stops short. */
    run_result r;
    r.full = t >= LIFETIME;
    r.live = r.full ? LIVE : BIRTH_RATE * t;
    r.per_particle = (resident_bytes() - resident_before) / r.live;
    r.wall = median_of(wall, frames);
    r.wall_p90 = p90_of(wall, frames);
    r.cpu = median_of(cpu, frames);
    r.cpu_p90 = p90_of(cpu, frames);
    r.thread_cpu = median_of(thread_cpu, frames);
    if (checksum) {
        uint8_t *rgba = (uint8_t *)malloc((size_t)W * H * 4);
        if (!rgba) fail("malloc");
        if (lk_display_read_pixels(display, rgba, (size_t)W * 4) != LK_OK) fail("lk_display_read_pixels");
        uint64_t hash = 14695981039346656037ull;
        for (size_t i = 0; i < (size_t)W * H * 4; i++) hash = (hash ^ rgba[i]) * 1099511628211ull;
        printf("checksum of the last frame's pixels (FNV-1a 64): %016llx\n", (unsigned long long)hash);
        free(rgba);
    }
    free(thread_cpu);
    free(wall);
    free(cpu);
    lk_release(e);
    lk_release(root);
    lk_release(cell);
    lk_release(dot);
    lk_display_close(display);
    return r;
}

int main(int argc, char **argv)
{
    int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    const char *checksum = getenv("BENCH_PARTICLES_CHECKSUM");
    const char *threads = getenv("LAYERKIT_SOFTWARE_THREADS");
    char *chosen = threads ? strdup(threads) : NULL;
    run_result r = run(smoke, chosen, checksum && strcmp(checksum, "1") == 0);
    printf("whole frame, %s live particles (tinted 16x16 images) on software at %dx%d: median %.2f ms, p90 %.2f ms "
           "wall per frame; CPU %.2f ms (p90 %.2f) in all threads, %.2f ms of it on the rendering thread   "
           "[goal %.0f ms] %s\n",
           r.full ? "10,000" : "fewer than 10,000 (smoke run)", W, H, r.wall, r.wall_p90, r.cpu, r.cpu_p90,
           r.thread_cpu, GOAL_MS, r.wall < GOAL_MS ? "OK" : "OVER");
    /* Beside it, the same frames drawn by the rendering thread alone. */
    if (!chosen || strcmp(chosen, "1") != 0) {
        run_result one = run(smoke, "1", 0);
        printf("the same on one thread (LAYERKIT_SOFTWARE_THREADS=1): median %.2f ms wall, %.2f ms CPU per frame\n",
               one.wall, one.cpu);
    }
    printf("memory per live particle: resident memory grew %.0f bytes per particle at %.0f live "
           "(simulation, display list, images and the backend's per-frame buffers)\n", r.per_particle, r.live);
    free(chosen);
    return 0;
}
