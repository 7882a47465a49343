/*
 * Software backend: the band workers by default (S6.4: the threads drawing
 * a frame change no pixel). A sprite run big enough to share (6,000 turned
 * fills and images, 12 and 8 pixels a side, estimated at over a third of a
 * 60 Hz frame) is drawn by the default instance, whose workers take bands
 * and blocks of ops to prepare as they come, by one with
 * LAYERKIT_SOFTWARE_THREADS=1 and by one with LAYERKIT_SOFTWARE_THREADS=3
 * (bands and blocks dealt in turn, the run prepared in other chunks): the
 * same pixels, frame after frame, and the default shared its runs' bands
 * and their preparation (on a machine of two CPUs or more). Some ops show
 * nothing and some the sprite path declines (turned images without
 * antialiasing, which pixman draws), each ending a run, at places that fall
 * inside the chunks a run is prepared in. The band scenes
 * (lkt_band_scenes.h) check LAYERKIT_SOFTWARE_THREADS=3 on their small
 * scenes against an independent reference and count the workers' bands.
 */
#define _POSIX_C_SOURCE 200809L
#include "lktest.h"

#include <stdlib.h>
#include <unistd.h>

#define W 320
#define H 240
#define SPRITES 6000
#define FRAMES 3

static const lk_backend *b;

/* An instance with LAYERKIT_SOFTWARE_THREADS set to threads (NULL: unset). */
static int open_with_threads(lkt_way *w, const char *threads)
{
    return lkt_open_way(b, w, W, H, "LAYERKIT_SOFTWARE_THREADS", threads);
}

/* Frame `frame` of the scene: turned translucent fills and tinted turned
   images all over the target, moving from frame to frame. */
static void build(lk_dl_op *ops, const lkt_image *img, int frame)
{
    uint64_t rng = 0x9e3779b97f4a7c15ull + (uint64_t)frame;
    for (int i = 0; i < SPRITES; i++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        double x = (double)((rng >> 20) % (W * 100)) / 100.0, y = (double)((rng >> 40) % (H * 100)) / 100.0;
        double angle = (double)((rng >> 8) % 628) / 100.0;
        lkt_mat m = lkt_mat_mul(lkt_rotate_z(angle), lkt_translate(x, y, 0));   /* turned, then placed */
        if (i % 3 == 0) {
            ops[i] = lkt_op(LK_DL_OP_IMAGE, -4, -4, 8, 8);
            ops[i].image = &img->image;
            ops[i].source = lkt_rect(0, 0, 8, 8);
            ops[i].flags |= LK_DL_FLAG_TINT;
            ops[i].tint = lkt_color(0.5f, 1, 0.25f, 1);
            ops[i].opacity = 0.8f;
        } else {
            ops[i] = lkt_fill(-6, -6, 12, 12, lkt_color(0.2f * (i % 5), 0.5f, 1 - 0.1f * (i % 7), 0.6f + 0.1f * (i % 4)));
            if (i % 11 == 0) ops[i].flags |= LK_DL_FLAG_BLEND_ADD;
        }
        /* nothing to show: skipped inside a run */
        if (i % 97 == 41) ops[i].opacity = 0;
        /* declined by the sprite path, ending a run: one in a run's first
           ops, one inside a chunk prepared on the workers (ops 1,280 to
           6,400 of a run), at other places from frame to frame */
        if (i == 200 + frame || i == 5000 + 111 * frame) {
            ops[i] = lkt_op(LK_DL_OP_IMAGE, -4, -4, 8, 8);
            ops[i].image = &img->image;
            ops[i].source = lkt_rect(0, 0, 8, 8);
            ops[i].flags &= ~(uint32_t)LK_DL_FLAG_ANTIALIAS;
        }
        lkt_set_transform(&ops[i], m);
    }
}

int main(void)
{
    if (strcmp(lkt_backend_name(), "software") != 0) {
        printf("# the band workers are the software backend's: nothing to check on %s\n", lkt_backend_name());
        return lkt_exit_code();
    }
    b = lkt_load();
    if (!b) return 1;
    lkt_way shared_way, alone_way, three_way;
    if (!open_with_threads(&shared_way, NULL) || !open_with_threads(&alone_way, "1") ||
        !open_with_threads(&three_way, "3"))
        return 1;
    lk_backend_instance *shared = shared_way.inst, *alone = alone_way.inst, *three = three_way.inst;
    lkt_image img = lkt_image_new(91, 8, 8);
    for (int i = 0; i < 64; i++) {
        int dx = i % 8 - 4, dy = i / 8 - 4;
        unsigned a = dx * dx + dy * dy <= 12 ? 255 : dx * dx + dy * dy <= 16 ? 128 : 0;
        img.pixels[i] = lkt_argb(a, a, a * 3 / 4, a / 2);
    }
    lk_dl_op *ops = (lk_dl_op *)calloc(SPRITES, sizeof *ops);
    lkt_frame f_shared = lkt_frame_new(W, H), f_alone = lkt_frame_new(W, H), f_three = lkt_frame_new(W, H);

    lkt_begin("band_workers_by_default_draw_the_same_pixels");
    for (int frame = 0; frame < FRAMES; frame++) {
        build(ops, &img, frame);
        lk_display_list list = lkt_list(ops, SPRITES, W, H, lkt_color(0.1f, 0.1f, 0.15f, 1));
        if (!lkt_render(b, shared, &list, &f_shared) || !lkt_render(b, alone, &list, &f_alone) ||
            !lkt_render(b, three, &list, &f_three))
            break;
        int differ = 0;
        for (int p = 0; p < W * H && !differ; p++) {
            if (f_shared.pixels[p] != f_alone.pixels[p] || f_three.pixels[p] != f_alone.pixels[p]) {
                lkt_fail("frame %d, pixel (%d,%d): %08x shared, %08x by three threads, %08x on one thread", frame,
                         p % W, p / W, f_shared.pixels[p], f_three.pixels[p], f_alone.pixels[p]);
                differ = 1;
            }
        }
    }
    lkt_end();

    b->close(shared);
    b->close(alone);
    b->close(three);
    lkt_begin("a_run_over_a_third_of_a_frame_is_shared_by_default");
    long runs_shared = logged_count(shared_way.record.last_log, " runs shared by");
    long runs_alone = logged_count(alone_way.record.last_log, " runs shared by");
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    printf("# runs shared: %ld by default (%ld CPUs), %ld on one thread; bands drawn by band workers: %ld\n",
           runs_shared, cpus, runs_alone, logged_count(shared_way.record.last_log, " bands drawn by band workers"));
    /* each frame's list is three runs between its two declined ops, the
       middle one long enough to share */
    if (cpus >= 2 && runs_shared != FRAMES)
        lkt_fail("the default shared %ld of %d runs: \"%s\"", runs_shared, FRAMES, shared_way.record.last_log);
    if (runs_alone != 0) lkt_fail("with one thread %ld runs were shared: \"%s\"", runs_alone, alone_way.record.last_log);
    lkt_end();

    /* How many ops the workers themselves prepare depends on timing; how
       many a run shares does not (with the variable, blocks are dealt in
       turn, so the workers' count does not either). */
    lkt_begin("a_long_run_is_prepared_on_the_band_workers_too");
    long shared_ops = logged_count(shared_way.record.last_log, " of them shared");
    long alone_ops = logged_count(alone_way.record.last_log, " of them shared");
    long three_by_workers = logged_count(three_way.record.last_log, " prepared by band workers)");
    printf("# ops prepared on the band workers too: %ld by default (%ld by the workers), %ld on one thread; "
           "%ld by three threads' workers\n", shared_ops, logged_count(shared_way.record.last_log, " prepared by band workers)"),
           alone_ops, three_by_workers);
    if (cpus >= 2 && shared_ops <= 0)
        lkt_fail("the default shared the preparing of no op: \"%s\"", shared_way.record.last_log);
    if (three_by_workers <= 0) lkt_fail("three threads' workers prepared no op: \"%s\"", three_way.record.last_log);
    if (alone_ops != 0) lkt_fail("with one thread %ld ops were prepared shared: \"%s\"", alone_ops, alone_way.record.last_log);
    lkt_end();

    /* S8.1 (no input makes a frame's work grow out of bounds): an op the
       sprite path declines ends a run; the ops prepared after it
       are prepared again by the runs that follow, and that waste stays a
       small multiple of the ops (a first chunk of 256 prepared 256 ops
       for each op of a list it declines throughout: minutes for a frame
       of 400,000 under valgrind). Untinted images that are not turned are
       declined (pixman draws them); turned tinted ones are not. */
    lkt_begin("ops_the_sprite_path_declines_are_prepared_a_bounded_number_of_times");
    {
        lkt_way way;
        lk_backend_instance *inst = open_with_threads(&way, NULL) ? way.inst : NULL;
        lkt_frame f = lkt_frame_new(W, H);
        const int n = 2000;
        for (int i = 0; i < n; i++) {
            ops[i] = lkt_op(LK_DL_OP_IMAGE, (i * 7) % (W - 8), (i * 13) % (H - 8), 8, 8);
            ops[i].image = &img.image;
            ops[i].source = lkt_rect(0, 0, 8, 8);
        }
        lk_display_list declined = lkt_list(ops, (uint32_t)n, W, H, lkt_color(0, 0, 0, 1));
        int drawn = inst && lkt_render(b, inst, &declined, &f);
        /* then every other op turned and tinted: runs of one between them */
        for (int i = 0; i < n; i += 2) {
            ops[i].flags |= LK_DL_FLAG_TINT;
            ops[i].tint = lkt_color(1, 0.5f, 0.5f, 1);
            lkt_set_transform(&ops[i], lkt_mat_mul(lkt_rotate_z(0.3), lkt_translate(20 + i % 200, 20 + i % 150, 0)));
        }
        lk_display_list alternating = lkt_list(ops, (uint32_t)n, W, H, lkt_color(0, 0, 0, 1));
        drawn = drawn && lkt_render(b, inst, &alternating, &f);
        if (inst) b->close(inst);
        long prepared = logged_count(way.record.last_log, " ops prepared,");
        printf("# ops prepared for %d declined ops, then %d alternating: %ld\n", n, n, prepared);
        if (!drawn) lkt_fail("a frame was not drawn");
        /* each declined op once; then per pair 1 + 4 (the turned op's run,
           its second chunk) + 1 (the declined op's own look) */
        else if (prepared < 0 || prepared > n + 3 * n + 16)
            lkt_fail("%ld ops prepared for %d ops and %d: \"%s\"", prepared, n, n, way.record.last_log);
        free(f.pixels);
    }
    lkt_end();

    free(ops);
    free(img.pixels);
    free(f_shared.pixels);
    free(f_alone.pixels);
    free(f_three.pixels);
    return lkt_exit_code();
}
