/*
 * The software plugin's share of issue 3's peer scene, standalone: the
 * display list that scene hands the backend (N 32x32 squares at 1920x1080,
 * each turned, at an opacity of 0.3 to 1, all moving, so the damage is the
 * whole output) rendered by one or more software plugins loaded side by
 * side, their frames alternating (the same list for each), so that the load
 * of a shared machine falls on all of them alike. Prints process CPU ms per
 * render() (min, first quartile, median) for each plugin; with PF_SUM=1 also
 * a checksum of every frame's pixels (equal sums: identical output).
 *
 * usage: bench_peer_fills [--smoke] N FRAMES PLUGIN.so [PLUGIN.so ...]
 *   e.g. compare main's plugin with a new one:
 *   bench_peer_fills 1000 300 old/liblayerkit-software.so new/liblayerkit-software.so
 * build: cc -std=c99 -O2 -Iinclude Benchmarks/software/bench_peer_fills.c -ldl -lm
 * The figure the issue names is layerkit-bench-animation's (core and
 * plugin); this one isolates the plugin, for profiling and A/B runs.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "layerkit/layerkit_backend.h"
#include "bench_host.h"

#define W 1920
#define H 1080
#define MAX_PLUGINS 4

static uint32_t rng = 12345;

static double rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) / 16777216.0;
}

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void host_log(void *data, uint32_t level, const char *message)
{
    (void)data;
    (void)level;
    if (getenv("PF_LOG")) fprintf(stderr, "%s\n", message);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static const lk_backend *load(const char *path)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        fprintf(stderr, "bench_peer_fills: %s\n", dlerror());
        return NULL;
    }
    void *symbol = dlsym(handle, LK_BACKEND_ENTRY_SYMBOL);
    if (!symbol) {
        fprintf(stderr, "bench_peer_fills: %s has no %s\n", path, LK_BACKEND_ENTRY_SYMBOL);
        return NULL;
    }
    lk_backend_entry_fn entry;
    memcpy(&entry, &symbol, sizeof entry);
    return entry(LK_BACKEND_ABI_VERSION);
}

int main(int argc, char **argv)
{
    int arg = 1, smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    arg += smoke;
    int plugins = argc - arg - 2;
    if (plugins < 1 || plugins > MAX_PLUGINS) {
        fprintf(stderr, "usage: %s [--smoke] N FRAMES PLUGIN.so [PLUGIN.so ...] (up to %d plugins)\n", argv[0],
                MAX_PLUGINS);
        return 2;
    }
    int n = atoi(argv[arg]), frames = smoke ? 2 : atoi(argv[arg + 1]);
    if (n < 1 || frames < 1) {
        fprintf(stderr, "bench_peer_fills: N and FRAMES must be positive\n");
        return 2;
    }
    const lk_backend *backend[MAX_PLUGINS];
    lk_backend_instance *instance[MAX_PLUGINS];
    char error[256];
    for (int k = 0; k < plugins; k++) {
        backend[k] = load(argv[arg + 2 + k]);
        if (!backend[k]) return 2;
        instance[k] = bench_open_instance(backend[k], W, H, host_log, error, sizeof error);
        if (!instance[k]) {
            fprintf(stderr, "bench_peer_fills: open: %s\n", error);
            return 2;
        }
    }

    /* each square: a start, a velocity, a turn per frame, a colour */
    double *px = malloc((size_t)n * 6 * sizeof *px), *py = px + n, *angle = py + n;
    double *vx = angle + n, *vy = vx + n, *turn = vy + n;
    float *colour = malloc((size_t)n * 4 * sizeof *colour);
    lk_dl_op *ops = calloc((size_t)n, sizeof *ops);
    uint32_t *pixels = malloc((size_t)W * H * 4);
    double *times = malloc((size_t)plugins * frames * sizeof *times);
    if (!px || !colour || !ops || !pixels || !times) return 2;
    for (int i = 0; i < n; i++) {
        px[i] = 16 + rnd() * 1888;
        py[i] = 16 + rnd() * 1048;
        angle[i] = rnd() * 6.283;
        vx[i] = rnd() * 20 - 10;
        vy[i] = rnd() * 20 - 10;
        turn[i] = rnd() * 0.2 - 0.1;
        colour[4 * i] = (float)rnd();
        colour[4 * i + 1] = (float)rnd();
        colour[4 * i + 2] = 1;
        colour[4 * i + 3] = (float)(0.3 + rnd() * 0.7);
    }
    uint64_t sum[MAX_PLUGINS] = { 0 };
    int warmup = smoke ? 0 : 3, status = 0;
    for (int f = -warmup; f < frames; f++) {
        int step = f + warmup;
        for (int i = 0; i < n; i++) {
            lk_dl_op *op = &ops[i];
            double a = angle[i] + turn[i] * step, c = cos(a), s = sin(a);
            memset(op, 0, sizeof *op);
            op->kind = LK_DL_OP_FILL;
            op->flags = LK_DL_FLAG_ANTIALIAS;
            for (int k = 0; k < 16; k++) op->transform[k] = k % 5 == 0;
            op->transform[0] = c; op->transform[1] = s;
            op->transform[4] = -s; op->transform[5] = c;
            op->transform[12] = fmod(fabs(px[i] + vx[i] * step), 1900.0);
            op->transform[13] = fmod(fabs(py[i] + vy[i] * step), 1060.0);
            op->rect.x = -16; op->rect.y = -16; op->rect.width = 32; op->rect.height = 32;
            op->color.r = colour[4 * i]; op->color.g = colour[4 * i + 1]; op->color.b = colour[4 * i + 2];
            op->color.a = 1;
            op->opacity = colour[4 * i + 3];
        }
        lk_display_list list;
        memset(&list, 0, sizeof list);
        list.abi_version = LK_BACKEND_ABI_VERSION;
        list.struct_size = sizeof list;
        list.op_size = sizeof(lk_dl_op);
        list.op_count = (uint32_t)n;
        list.ops = ops;
        list.clear_color.a = 1;
        list.damage.width = W;
        list.damage.height = H;
        list.frame_number = (uint64_t)step + 1;
        for (int k = 0; k < plugins; k++) {
            double t0 = cpu_ms();
            if (!backend[k]->render(instance[k], &list, error, sizeof error)) {
                fprintf(stderr, "bench_peer_fills: render: %s\n", error);
                return 1;
            }
            double t1 = cpu_ms();
            if (f >= 0) times[k * frames + f] = t1 - t0;
            if (getenv("PF_SUM")) {
                if (!backend[k]->read_pixels(instance[k], pixels, W * 4, error, sizeof error)) {
                    fprintf(stderr, "bench_peer_fills: read_pixels: %s\n", error);
                    return 1;
                }
                for (size_t q = 0; q < (size_t)W * H; q++) sum[k] = sum[k] * 31 + pixels[q];
            }
        }
    }
    for (int k = 0; k < plugins; k++) {
        double *t = times + k * frames;
        qsort(t, (size_t)frames, sizeof *t, compare_doubles);
        printf("%s: %d squares, CPU ms per frame: min %.3f q1 %.3f median %.3f", argv[arg + 2 + k], n, t[0],
               t[frames / 4], t[frames / 2]);
        if (getenv("PF_SUM")) printf(", pixel sum %016llx", (unsigned long long)sum[k]);
        printf("\n");
        if (k > 0 && getenv("PF_SUM") && sum[k] != sum[0]) status = 1;
        backend[k]->close(instance[k]);
    }
    free(px); free(colour); free(ops); free(pixels); free(times);
    return status;
}
