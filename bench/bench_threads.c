// The step on several workers: the sprites scene (bench/world_scene.c), boxes and masks, at 10k,
// 50k and 100k bodies, stepped by worlds with 1 worker, 2 workers of the world's own threads, and
// 2 workers through an engine-style task system (a small pthread pool below, driven through
// cw_world_def::enqueue_task / finish_task). Every side gets the same frames; each frame's
// touching count is checked equal across sides. Interleaved repeats, medians.
//
// usage: bench_threads [--n N,N,...] [--frames F] [--repeats R] [--workers W]
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collworld.h"
#include "measure.h"
#include "world_scene.h"

// --- an engine-style task system: a fixed pool of threads, one job at a time ---

typedef struct task_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    pthread_t threads[CW_MAX_WORKERS];
    int thread_count, busy;
    unsigned job;
    bool quit;
    cw_task_fn *task;
    void *task_context;
    int item_count, range;
    atomic_int next;
} task_pool;

typedef struct pool_thread {
    task_pool *pool;
    int worker;
} pool_thread;

static void run_ranges(task_pool *pool, int worker)
{
    for (int start; (start = atomic_fetch_add(&pool->next, pool->range)) < pool->item_count;)
        pool->task(start, start + pool->range < pool->item_count ? start + pool->range : pool->item_count, worker,
                   pool->task_context);
}

static void *pool_main(void *argument)
{
    pool_thread *self = argument;
    task_pool *pool = self->pool;
    unsigned seen = 0;
    pthread_mutex_lock(&pool->lock);
    while (!pool->quit) {
        if (pool->job == seen) {
            pthread_cond_wait(&pool->wake, &pool->lock);
            continue;
        }
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

static pool_thread pool_threads[CW_MAX_WORKERS];

static void pool_start(task_pool *pool, int threads)
{
    memset(pool, 0, sizeof *pool);
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    pool->thread_count = threads;
    for (int t = 0; t < threads; t++) {
        pool_threads[t] = (pool_thread){pool, t + 1};
        pthread_create(&pool->threads[t], NULL, pool_main, &pool_threads[t]);
    }
}

static void pool_stop(task_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->quit = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int t = 0; t < pool->thread_count; t++)
        pthread_join(pool->threads[t], NULL);
}

// cw_enqueue_task_fn: the caller's thread works as worker 0, then waits; returns NULL (all done).
static void *pool_enqueue(cw_task_fn *task, int item_count, int min_range, void *task_context, void *user_context)
{
    task_pool *pool = user_context;
    pthread_mutex_lock(&pool->lock);
    pool->task = task, pool->task_context = task_context;
    pool->item_count = item_count, pool->range = min_range;
    atomic_store(&pool->next, 0);
    pool->busy = pool->thread_count;
    pool->job++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    run_ranges(pool, 0);
    pthread_mutex_lock(&pool->lock);
    while (pool->busy > 0)
        pthread_cond_wait(&pool->done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static void pool_finish(void *user_task, void *user_context) { (void)user_task, (void)user_context; }

// --- the sides ---

enum { ONE, OWN, POOL, SIDES };
static const char *side_names[SIDES] = {"1 worker", "own threads", "task system"};

typedef struct side {
    cw_world *world;
    cw_body_id *ids;
} side;

static bool side_init(side *s, const ws_scene *scene, int workers, task_pool *pool)
{
    cw_world_def def = cw_default_world_def();
    def.manifolds = false;
    def.worker_count = workers;
    if (pool != NULL)
        def.enqueue_task = pool_enqueue, def.finish_task = pool_finish, def.user_task_context = pool;
    s->world = cw_world_create(&def);
    s->ids = malloc(sizeof *s->ids * (size_t)scene->n);
    if (s->world == NULL || s->ids == NULL)
        return false;
    for (int i = 0; i < scene->n; i++) {
        cw_body_def d = cw_default_body_def();
        d.shape = scene->shape[i];
        d.transform = scene->xf[i];
        s->ids[i] = cw_body_create(s->world, &d);
    }
    cw_world_step(s->world);
    return true;
}

static void side_free(side *s)
{
    cw_world_destroy(s->world);
    free(s->ids);
}

// Moves every body to the scene's frame and steps; the step's milliseconds.
static double side_frame(side *s, const ws_scene *scene, int *touching)
{
    for (int i = 0; i < scene->n; i++)
        cw_body_set_transform(s->world, s->ids[i], &scene->xf[i]);
    double t0 = bm_now_ms();
    cw_world_step(s->world);
    double t = bm_now_ms() - t0;
    *touching = cw_world_get_stats(s->world).touching_pairs;
    return t;
}

typedef struct options {
    int sizes[8], size_count, frames, repeats, workers;
} options;

static bool run_case(ws_kind kind, int n, const options *o, const ws_sprite *sprites, task_pool *pool)
{
    ws_scene scene;
    if (!ws_scene_init(&scene, kind, n, 1, sprites))
        return false;
    side sides[SIDES];
    memset(sides, 0, sizeof sides);
    bool ok = side_init(&sides[ONE], &scene, 1, NULL) && side_init(&sides[OWN], &scene, o->workers, NULL) &&
              side_init(&sides[POOL], &scene, o->workers, pool);
    double *times[SIDES];
    for (int k = 0; k < SIDES; k++)
        times[k] = malloc(sizeof(double) * (size_t)(o->frames * o->repeats));
    int samples = 0, touching = 0;
    for (int r = 0; ok && r < o->repeats; r++) {
        for (int f = 0; f < o->frames; f++) {
            ws_scene_advance(&scene);
            int counts[SIDES];
            for (int k = 0; k < SIDES; k++) { // interleaved, starting with a different side each frame
                int side_index = (k + f) % SIDES;
                times[side_index][samples] = side_frame(&sides[side_index], &scene, &counts[side_index]);
            }
            if (counts[OWN] != counts[ONE] || counts[POOL] != counts[ONE]) {
                fprintf(stderr, "touching pairs differ: %d, %d, %d\n", counts[ONE], counts[OWN], counts[POOL]);
                ok = false;
            }
            touching = counts[ONE];
            samples++;
        }
    }
    if (ok) {
        double one = bm_median(times[ONE], samples), own = bm_median(times[OWN], samples),
               via_pool = bm_median(times[POOL], samples);
        printf("| %s | %dk | %d | %d | %.2f ms | %.2f ms (%.2fx) | %.2f ms (%.2fx) |\n",
               kind == WS_BOXES ? "boxes" : "masks", n / 1000, touching,
               cw_world_get_stats(sides[ONE].world).candidate_pairs, one, own, one / own, via_pool, one / via_pool);
    }
    for (int k = 0; k < SIDES; k++) {
        side_free(&sides[k]);
        free(times[k]);
    }
    ws_scene_free(&scene);
    return ok;
}

static bool parse(int argc, char **argv, options *o)
{
    *o = (options){.sizes = {10000, 50000, 100000}, .size_count = 3, .frames = 10, .repeats = 3, .workers = 2};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--n") == 0) {
            o->size_count = 0;
            for (char *p = argv[i + 1]; *p && o->size_count < 8;) {
                o->sizes[o->size_count++] = (int)strtol(p, &p, 10);
                p += *p == ',';
            }
        } else if (strcmp(argv[i], "--frames") == 0) {
            o->frames = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--repeats") == 0) {
            o->repeats = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--workers") == 0) {
            o->workers = atoi(argv[i + 1]);
        } else {
            return false;
        }
    }
    return o->frames > 0 && o->repeats > 0 && o->workers >= 2 && o->workers <= CW_MAX_WORKERS;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse(argc, argv, &o)) {
        fprintf(stderr, "usage: bench_threads [--n N,N,...] [--frames F] [--repeats R] [--workers W]\n");
        return 2;
    }
    ws_sprite sprites[WS_SPRITE_COUNT];
    if (!ws_sprites_build(sprites))
        return 1;
    task_pool pool;
    pool_start(&pool, o.workers - 1);
    printf("Step time, %s vs %d workers (the world's own threads, and a pthread pool through enqueue_task); "
           "median of %d frames x %d interleaved repeats\n\n",
           side_names[ONE], o.workers, o.frames, o.repeats);
    printf("| bodies | n | touching | candidates | %s | own threads | task system |\n|---|---:|---:|---:|---:|---:|---:|\n",
           side_names[ONE]);
    bool ok = true;
    for (int kind = 0; kind < 2; kind++)
        for (int s = 0; s < o.size_count; s++)
            ok = run_case(kind == 0 ? WS_BOXES : WS_MASKS, o.sizes[s], &o, sprites, &pool) && ok;
    pool_stop(&pool);
    ws_sprites_free(sprites);
    return ok ? 0 : 1;
}
