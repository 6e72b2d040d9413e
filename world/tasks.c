// The step's parallel work: ranges of items run on the engine's task system (cw_world_def's
// enqueue_task and finish_task) or on the world's own threads. Results never depend on which
// worker ran which range or in what order: every range writes only its own items' results.
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>

// The world's own threads. The stepping thread is worker 0 and works too; thread k is worker k.
struct cw__pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;      // a new job, or quit
    pthread_cond_t done;      // the last thread left the job
    int thread_count;
    uint64_t job;             // the current job's number: a thread works on each job once
    bool quit;
    int busy;                 // threads still in the current job
    cw_task_fn *task;
    void *task_context;
    int item_count, range;
    atomic_llong next;        // the first item nobody has taken (wide: threads overshoot the end)
    struct cw__pool_thread {
        pthread_t handle;
        struct cw__pool *pool;
        int worker;
    } threads[CW_MAX_WORKERS - 1];
};

// Takes ranges of the current job until none is left.
static void run_ranges(struct cw__pool *pool, int worker)
{
    for (;;) {
        long long start = atomic_fetch_add_explicit(&pool->next, pool->range, memory_order_relaxed);
        if (start >= pool->item_count)
            return;
        int end = pool->item_count - start > pool->range ? (int)start + pool->range : pool->item_count;
        pool->task((int)start, end, worker, pool->task_context);
    }
}

static void *thread_main(void *argument)
{
    struct cw__pool_thread *self = argument;
    struct cw__pool *pool = self->pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (pool->job == seen && !pool->quit)
            pthread_cond_wait(&pool->wake, &pool->lock); // asleep between steps: no busy CPU
        if (pool->quit)
            break;
        seen = pool->job;
        pthread_mutex_unlock(&pool->lock);
        run_ranges(pool, self->worker);
        pthread_mutex_lock(&pool->lock);
        if (--pool->busy == 0)
            pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static void stop_threads(struct cw__pool *pool, int count)
{
    pthread_mutex_lock(&pool->lock);
    pool->quit = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int k = 0; k < count; k++)
        pthread_join(pool->threads[k].handle, NULL);
}

void cw__pool_stop(cw__pool *pool)
{
    if (pool == NULL)
        return;
    stop_threads(pool, pool->thread_count);
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    cw__free(pool, sizeof *pool);
}

cw__pool *cw__pool_start(int thread_count)
{
    cw__pool *pool = cw__alloc(sizeof *pool);
    if (pool == NULL)
        return NULL;
    memset(pool, 0, sizeof *pool);
    atomic_init(&pool->next, 0);
    if (pthread_mutex_init(&pool->lock, NULL) != 0) {
        cw__free(pool, sizeof *pool);
        return NULL;
    }
    if (pthread_cond_init(&pool->wake, NULL) != 0 || pthread_cond_init(&pool->done, NULL) != 0) {
        pthread_cond_destroy(&pool->wake); // destroying a zeroed, never-initialised cond is harmless on glibc
        pthread_mutex_destroy(&pool->lock);
        cw__free(pool, sizeof *pool);
        return NULL;
    }
    for (int k = 0; k < thread_count; k++) {
        pool->threads[k] = (struct cw__pool_thread){.pool = pool, .worker = k + 1};
        if (pthread_create(&pool->threads[k].handle, NULL, thread_main, &pool->threads[k]) != 0)
            break; // fewer threads: still a working pool
        pool->thread_count = k + 1;
    }
    if (pool->thread_count == 0) {
        cw__pool_stop(pool);
        return NULL;
    }
    return pool;
}

int cw__pool_threads(const cw__pool *pool) { return pool ? pool->thread_count : 0; }

size_t cw__pool_bytes(const cw__pool *pool) { return pool ? sizeof *pool : 0; }

// Runs the job on every thread and this one; returns when all of it has run.
static void pool_run(cw__pool *pool, cw_task_fn *task, int item_count, int range, void *task_context)
{
    pthread_mutex_lock(&pool->lock);
    pool->task = task, pool->task_context = task_context;
    pool->item_count = item_count, pool->range = range;
    atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
    pool->busy = pool->thread_count;
    pool->job++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    run_ranges(pool, 0);
    pthread_mutex_lock(&pool->lock);
    while (pool->busy > 0)
        pthread_cond_wait(&pool->done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}

void cw__parallel_for(const cw_world *world, cw_task_fn *task, int item_count, int min_range, void *task_context)
{
    if (item_count <= 0)
        return;
    if (world->workers <= 1 || item_count <= min_range) {
        task(0, item_count, 0, task_context);
        return;
    }
    // About four ranges a worker evens out uneven ranges (mask pairs cost more than box pairs).
    int pieces = world->workers * 4;
    int range = (int)(((int64_t)item_count + pieces - 1) / pieces);
    range = range < min_range ? min_range : range;
    if (world->def.enqueue_task != NULL) {
        void *handle = world->def.enqueue_task(task, item_count, range, task_context, world->def.user_task_context);
        if (handle != NULL)
            world->def.finish_task(handle, world->def.user_task_context);
        return;
    }
    pool_run(world->pool, task, item_count, range, task_context);
}
