/*
 * Band workers: threads that draw a sprite run's bands beside the thread
 * that renders the frame. A run's bands cover disjoint rows of the target
 * and each band's sprites are drawn in list order by one thread, so the
 * pixels are the same whichever thread draws a band and however many there
 * are (S6.4); only the frame's wall time changes. A long run's sprites are
 * prepared on them too (software_render.c): each op's sprite depends on
 * that op alone. The workers start with the first run worth sharing and
 * end with the instance.
 */
#include "software_private.h"
#include "software_sprite.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* By default each thread takes the next item no thread has taken: items of
   uneven cost even out, and a worker the system runs late (the program's
   threads busy on the other cores) leaves its items to the others instead
   of making the frame wait. With LAYERKIT_SOFTWARE_THREADS set (the task
   interleaved) thread k takes items k, k + n, k + 2n...: which thread
   takes an item then does not depend on timing, and a check can count the
   workers' items. */
size_t sw_task_take(sw_task *task, size_t k, size_t *turn)
{
    if (task->interleaved) return k + (*turn)++ * task->threads;
    return atomic_fetch_add_explicit(&task->next, 1, memory_order_relaxed);
}

/* Thread k's bands. */
static void run_bands(sw_task *task, size_t k)
{
    sw_band_job *job = (sw_band_job *)task;
    size_t turn = 0;
    for (size_t b; (b = sw_task_take(task, k, &turn)) < job->bands;) {
        sw_sprite_draw_one_band(job, b);
        if (k > 0) atomic_fetch_add_explicit(&job->worker_bands, 1, memory_order_relaxed);
    }
}

static void *worker_main(void *argument)
{
    sw_worker_slot *slot = argument;
    sw_workers *w = slot->workers;
    uint64_t seen = 0;
    pthread_mutex_lock(&w->mutex);
    for (;;) {
        while (!w->quit && w->generation == seen) pthread_cond_wait(&w->wake, &w->mutex);
        if (w->quit) break;
        seen = w->generation;
        sw_task *task = w->task;
        pthread_mutex_unlock(&w->mutex);
        task->run(task, slot->k);
        pthread_mutex_lock(&w->mutex);
        if (--w->busy == 0) pthread_cond_signal(&w->done);
    }
    pthread_mutex_unlock(&w->mutex);
    return NULL;
}

/* The workers for `threads` threads in all (the caller is one), started
   on first use; false when none could be (the caller draws alone). */
static bool start_workers(lk_backend_instance *inst)
{
    sw_workers *w = inst->workers;
    if (w) return w->count > 0;
    w = calloc(1, sizeof *w);
    if (!w) return false;
    pthread_mutex_init(&w->mutex, NULL);
    pthread_cond_init(&w->wake, NULL);
    pthread_cond_init(&w->done, NULL);
    inst->workers = w;
    int wanted = inst->threads - 1;
    if (wanted > SW_MAX_WORKERS) wanted = SW_MAX_WORKERS;
    for (int i = 0; i < wanted; i++) {
        w->slots[i].workers = w;
        w->slots[i].k = (size_t)i + 1;
        if (pthread_create(&w->threads[w->count], NULL, worker_main, &w->slots[i]) != 0) break;
        w->count++;
    }
    return w->count > 0;
}

size_t sw_workers_share(lk_backend_instance *inst, sw_task *task, bool shared)
{
    task->interleaved = inst->threads_set;
    atomic_init(&task->next, 0);
    task->threads = shared && start_workers(inst) ? (size_t)inst->workers->count + 1 : 1;
    if (task->threads == 1) {
        task->run(task, 0);
        return 1;
    }
    sw_workers *w = inst->workers;
    pthread_mutex_lock(&w->mutex);
    w->task = task;
    w->busy = w->count;
    w->generation++;
    pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->mutex);
    task->run(task, 0);
    /* The workers read the task until they are done with it. */
    pthread_mutex_lock(&w->mutex);
    while (w->busy > 0) pthread_cond_wait(&w->done, &w->mutex);
    w->task = NULL;
    pthread_mutex_unlock(&w->mutex);
    return task->threads;
}

sw_image_cuts *sw_thread_cuts(lk_backend_instance *inst, size_t k)
{
    return k == 0 ? inst->sprite_cuts : inst->workers->slots[k - 1].cuts;
}

void sw_draw_bands(lk_backend_instance *inst, sw_band_job *job)
{
    job->task.run = run_bands;
    atomic_init(&job->worker_bands, 0);
    if (sw_workers_share(inst, &job->task, job->shared && job->bands >= 2) == 1) return;
    inst->stats.shared_runs++;
    inst->stats.worker_bands += atomic_load_explicit(&job->worker_bands, memory_order_relaxed);
}

void sw_workers_stop(lk_backend_instance *inst)
{
    sw_workers *w = inst->workers;
    if (!w) return;
    pthread_mutex_lock(&w->mutex);
    w->quit = true;
    pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->mutex);
    for (int i = 0; i < w->count; i++) pthread_join(w->threads[i], NULL);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->mutex);
    free(w);
    inst->workers = NULL;
}

int sw_threads_default(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1) cpus = 1;
    return cpus > SW_DEFAULT_THREADS ? SW_DEFAULT_THREADS : (int)cpus;
}
