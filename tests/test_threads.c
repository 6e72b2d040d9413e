// Threads: the step on several workers (the world's own threads and task systems of our own that
// run ranges in random or reverse order) gives the same event stream byte for byte as one worker,
// and the brute-force reference's; queries from several threads at once give brute-force answers;
// every misuse fails with its message. `make tsan` runs this group under ThreadSanitizer.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "scene.h"
#include "suites.h"

// --- task systems for the tests ---

// Runs each enqueued task on `threads` fresh threads that take its ranges in a shuffled order.
typedef struct random_tasks {
    int threads;
    uint64_t seed;
    atomic_int enqueues; // tasks handed to this system (proves the world used it)
} random_tasks;

typedef struct random_job {
    cw_task_fn *task;
    void *task_context;
    int *starts; // range starts, shuffled
    int range_count, item_count, range;
    atomic_int next;
    pthread_t handles[CW_MAX_WORKERS];
    int thread_count;
    struct job_thread {
        struct random_job *job;
        int worker;
    } threads[CW_MAX_WORKERS];
} random_job;

static void *random_job_thread(void *argument)
{
    struct job_thread *self = argument;
    random_job *job = self->job;
    for (int k; (k = atomic_fetch_add(&job->next, 1)) < job->range_count;) {
        int start = job->starts[k], end = start + job->range < job->item_count ? start + job->range : job->item_count;
        job->task(start, end, self->worker, job->task_context);
    }
    return NULL;
}

static void *random_enqueue(cw_task_fn *task, int item_count, int min_range, void *task_context, void *user_context)
{
    random_tasks *system = user_context;
    atomic_fetch_add(&system->enqueues, 1);
    random_job *job = calloc(1, sizeof *job);
    assert_non_null(job);
    job->task = task, job->task_context = task_context;
    job->item_count = item_count, job->range = min_range;
    job->range_count = (item_count + min_range - 1) / min_range;
    job->starts = malloc(sizeof *job->starts * (size_t)job->range_count);
    assert_non_null(job->starts);
    for (int k = 0; k < job->range_count; k++)
        job->starts[k] = k * min_range;
    gen_rng rng = gen_seed(system->seed++);
    for (int k = job->range_count - 1; k > 0; k--) {
        int j = gen_int(&rng, 0, k), t = job->starts[k];
        job->starts[k] = job->starts[j], job->starts[j] = t;
    }
    atomic_init(&job->next, 0);
    job->thread_count = system->threads;
    for (int t = 0; t < job->thread_count; t++) {
        job->threads[t] = (struct job_thread){job, t};
        assert_int_equal(pthread_create(&job->handles[t], NULL, random_job_thread, &job->threads[t]), 0);
    }
    return job;
}

static void random_finish(void *user_task, void *user_context)
{
    (void)user_context;
    random_job *job = user_task;
    for (int t = 0; t < job->thread_count; t++)
        pthread_join(job->handles[t], NULL);
    free(job->starts);
    free(job);
}

// Runs every range at once, last range first, on the calling thread, as worker 0 (returns NULL:
// nothing left to finish).
static void *reverse_enqueue(cw_task_fn *task, int item_count, int min_range, void *task_context, void *user_context)
{
    atomic_fetch_add(&((random_tasks *)user_context)->enqueues, 1);
    for (int start = (item_count - 1) / min_range * min_range; start >= 0; start -= min_range)
        task(start, start + min_range < item_count ? start + min_range : item_count, 0, task_context);
    return NULL;
}

static void never_finish(void *user_task, void *user_context)
{
    (void)user_task, (void)user_context;
    fail_msg("finish_task called for a task that ran inline");
}

// --- the same events whatever the threading ---

static void test_streams_equal_across_workers(void **state)
{
    (void)state;
    random_tasks random3 = {.threads = 3, .seed = 1}, random8 = {.threads = 8, .seed = 2}, reverse = {0};
    atomic_init(&random3.enqueues, 0), atomic_init(&random8.enqueues, 0), atomic_init(&reverse.enqueues, 0);
    const struct {
        const char *name;
        scene_threading threading;
    } ways[] = {
        {"2 workers (own threads)", {2, NULL, NULL, NULL}},
        {"3 workers (own threads)", {3, NULL, NULL, NULL}},
        {"8 workers (own threads)", {8, NULL, NULL, NULL}},
        {"3 workers, random-order task system", {3, random_enqueue, random_finish, &random3}},
        {"8 workers, random-order task system", {8, random_enqueue, random_finish, &random8}},
        {"4 workers, inline reverse-order task system", {4, reverse_enqueue, never_finish, &reverse}},
    };
    const uint64_t seeds[] = {0x7e5d1, 0x7e5d2, 0x7e5d3};
    int scenes = gen_test_scale() > 1 ? 1 : 3;
    for (int s = 0; s < scenes; s++) {
        int failures = 0;
        size_t base_length;
        scene_threading one = {1, NULL, NULL, NULL};
        unsigned char *base = scene_stream(seeds[s], &one, &base_length, &failures);
        assert_int_equal(failures, 0);
        assert_true(base_length > 0);
        for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
            size_t length;
            unsigned char *stream = scene_stream(seeds[s], &ways[w].threading, &length, &failures);
            size_t first = 0;
            while (first < length && first < base_length && stream[first] == base[first])
                first++;
            if (length != base_length || first != length)
                printf("  seed 0x%llx, %s: %zu bytes against %zu, first difference at %zu\n",
                       (unsigned long long)seeds[s], ways[w].name, length, base_length, first);
            assert_int_equal(failures, 0);
            assert_int_equal(length, base_length);
            assert_memory_equal(stream, base, length);
            free(stream);
        }
        printf("  seed 0x%llx: %zu event bytes, the same for 1 worker and the %zu other ways\n",
               (unsigned long long)seeds[s], base_length, sizeof ways / sizeof ways[0]);
        free(base);
    }
    // The task systems really ran the step's work (the full-size scenes are crowded enough to share
    // it; valgrind's scaled-down ones may not be).
    if (gen_test_scale() <= 2) {
        assert_true(atomic_load(&random3.enqueues) > 0);
        assert_true(atomic_load(&random8.enqueues) > 0);
        assert_true(atomic_load(&reverse.enqueues) > 0);
    }
}

// A large crowded world, where the grid's scan and its counting sort are shared among the workers
// too (the random scenes above are too small for that): the events of every step, then what AABB
// queries find in the order they find it, byte for byte, for 1, 2 and 3 workers.
typedef struct recorder {
    unsigned char *bytes;
    size_t length, capacity;
} recorder;

static void record_contact(recorder *r, int phase, const cw_contact *c)
{
    if (r->length + 1 + sizeof *c > r->capacity) {
        r->capacity = r->capacity * 2 + 4096;
        r->bytes = realloc(r->bytes, r->capacity);
        assert_non_null(r->bytes);
    }
    r->bytes[r->length++] = (unsigned char)phase;
    cw_contact copy;
    memset(&copy, 0, sizeof copy); // no padding bytes of the stack in the stream
    copy.a = c->a, copy.b = c->b, copy.user_a = c->user_a, copy.user_b = c->user_b;
    copy.manifold = c->manifold, copy.fraction = c->fraction;
    memcpy(r->bytes + r->length, &copy, sizeof copy);
    r->length += sizeof copy;
}

static void record_begin(const cw_contact *c, void *context) { record_contact(context, 1, c); }
static void record_end(const cw_contact *c, void *context) { record_contact(context, 0, c); }

// A body a query found, in the order found: after a step that sorted the grid's cells, queries
// read that sort's array, so its order within each cell shows here.
static bool record_found(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)user_data, (void)manifold;
    cw_contact found = {0};
    found.a = body;
    record_contact(context, 2, &found);
    return true;
}

static recorder crowd_stream(int workers, cw_enqueue_task_fn *enqueue, cw_finish_task_fn *finish, void *tasks,
                             int bodies, int steps, int *candidates)
{
    recorder r = {0};
    cw_world_def def = cw_default_world_def();
    def.worker_count = workers, def.enqueue_task = enqueue, def.finish_task = finish, def.user_task_context = tasks;
    def.on_begin = record_begin, def.on_end = record_end, def.context = &r;
    def.cell_size = 8; // small cells: each body in several, so the scan has many entries
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    gen_rng rng = gen_seed(0xc20d);
    cw_body_id *ids = malloc(sizeof *ids * (size_t)bodies);
    assert_non_null(ids);
    for (int k = 0; k < bodies; k++) {
        cw_body_def body = cw_default_body_def();
        body.shape = cw_shape_box((float)gen_range(&rng, 3, 14), (float)gen_range(&rng, 3, 14));
        body.transform.position = (cw_vec2){(float)gen_range(&rng, 0, 800), (float)gen_range(&rng, 0, 800)}; // over 65,536 pairs: the sort is shared too
        body.transform.rotation = (float)gen_range(&rng, 0, 6.3);
        body.is_static = gen_chance(&rng, 0.1);
        ids[k] = cw_body_create(world, &body);
    }
    *candidates = 0;
    for (int s = 0; s < steps; s++) {
        for (int k = 0; k < bodies; k++)
            if (gen_chance(&rng, 0.9)) {
                cw_transform t = cw_body_transform(world, ids[k]);
                t.position.x += (float)gen_range(&rng, -3, 3), t.position.y += (float)gen_range(&rng, -3, 3);
                t.rotation += (float)gen_range(&rng, -0.2, 0.2);
                cw_body_set_transform(world, ids[k], &t);
            }
        cw_world_step(world);
        *candidates += cw_world_get_stats(world).candidate_pairs;
    }
    for (int q = 0; q < 8; q++) {
        float x = (float)gen_range(&rng, 0, 700), y = (float)gen_range(&rng, 0, 700);
        cw_aabb box = {{x, y}, {x + 100, y + 100}};
        assert_true(cw_world_query_aabb(world, box, cw_default_query_filter(), record_found, &r));
    }
    cw_world_destroy(world);
    free(ids);
    return r;
}

static void test_crowd_streams_equal_across_workers(void **state)
{
    (void)state;
    int bodies = 20000, steps = gen_test_scale() > 1 ? 3 : 12, c1, c2, c3;
    random_tasks random3 = {.threads = 3, .seed = 9};
    atomic_init(&random3.enqueues, 0);
    recorder one = crowd_stream(1, NULL, NULL, NULL, bodies, steps, &c1);
    recorder two = crowd_stream(2, NULL, NULL, NULL, bodies, steps, &c2);
    recorder three = crowd_stream(3, random_enqueue, random_finish, &random3, bodies, steps, &c3);
    printf("  %d boxes, %d steps: %d candidate pairs, %zu event and query bytes, the same for 1, 2 and 3 workers\n",
           bodies, steps, c1, one.length);
    assert_true(one.length > 0 && c1 > 0);
    assert_int_equal(c1, c2);
    assert_int_equal(c1, c3);
    assert_int_equal(one.length, two.length);
    assert_int_equal(one.length, three.length);
    assert_memory_equal(one.bytes, two.bytes, one.length);
    assert_memory_equal(one.bytes, three.bytes, one.length);
    free(one.bytes), free(two.bytes), free(three.bytes);
}

static void test_worker_stats(void **state)
{
    (void)state;
    for (int workers = 1; workers <= 8; workers *= 2) {
        cw_world_def def = cw_default_world_def();
        def.worker_count = workers;
        cw_world *world = cw_world_create(&def);
        assert_non_null(world);
        assert_int_equal(cw_world_get_stats(world).workers, workers);
        cw_world_step(world);
        assert_int_equal(cw_world_get_stats(world).workers, workers);
        cw_world_destroy(world);
    }
}

// --- queries from several threads at once ---

#define QUERY_BODIES 400
#define QUERY_THREADS 6 // more than CW_QUERY_LANES: some wait for a lane

typedef struct query_world {
    cw_world *world;
    cw_body_id ids[QUERY_BODIES];
    cw_shape shapes[QUERY_BODIES];
    cw_transform transforms[QUERY_BODIES];
    cw_mask *mask;
} query_world;

typedef struct query_thread {
    query_world *qw;
    uint64_t seed;
    int queries, mismatches;
} query_thread;

typedef struct hit_list {
    int count;
    uint32_t index[QUERY_BODIES];
} hit_list;

static bool collect(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)user_data, (void)manifold;
    hit_list *hits = context;
    if (hits->count < QUERY_BODIES)
        hits->index[hits->count++] = body.index;
    return true;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

// Whether the world's answer is the brute-force one (both as sorted body indices).
static bool same_hits(hit_list *world_hits, hit_list *brute)
{
    qsort(world_hits->index, (size_t)world_hits->count, sizeof(uint32_t), compare_u32);
    qsort(brute->index, (size_t)brute->count, sizeof(uint32_t), compare_u32);
    return world_hits->count == brute->count &&
           memcmp(world_hits->index, brute->index, sizeof(uint32_t) * (size_t)brute->count) == 0;
}

static void *query_thread_main(void *argument)
{
    query_thread *t = argument;
    const query_world *qw = t->qw;
    gen_rng rng = gen_seed(t->seed);
    for (int q = 0; q < t->queries; q++) {
        hit_list got = {0}, want = {0};
        if (q % 2 == 0) {
            cw_vec2 point = {(float)gen_range(&rng, -20, 620), (float)gen_range(&rng, -20, 620)};
            cw_world_query_point(qw->world, point, cw_default_query_filter(), collect, &got);
            for (int k = 0; k < QUERY_BODIES; k++)
                if (cw_shape_contains_point(&qw->shapes[k], &qw->transforms[k], point))
                    want.index[want.count++] = qw->ids[k].index;
        } else {
            cw_shape box = cw_shape_box((float)gen_range(&rng, 5, 150), (float)gen_range(&rng, 5, 150));
            cw_transform at = cw_default_transform();
            at.position = (cw_vec2){(float)gen_range(&rng, 0, 600), (float)gen_range(&rng, 0, 600)};
            at.rotation = (float)gen_range(&rng, 0, 6.3);
            cw_world_query_shape(qw->world, &box, &at, cw_default_query_filter(), false, collect, &got);
            for (int k = 0; k < QUERY_BODIES; k++)
                if (cw_overlap(&box, &at, &qw->shapes[k], &qw->transforms[k], NULL))
                    want.index[want.count++] = qw->ids[k].index;
        }
        t->mismatches += !same_hits(&got, &want);
    }
    return NULL;
}

static void build_query_world(query_world *qw, uint64_t seed)
{
    uint8_t alpha[24 * 24];
    for (int y = 0; y < 24; y++)
        for (int x = 0; x < 24; x++)
            alpha[y * 24 + x] = (uint8_t)(((x - 12) * (x - 12) + (y - 12) * (y - 12) < 120 && (x + y) % 5) ? 255 : 0);
    qw->mask = cw_mask_from_alpha(alpha, 24, 24, 24, 128);
    assert_non_null(qw->mask);
    qw->world = cw_world_create(&(cw_world_def){.worker_count = 2, .manifolds = false});
    assert_non_null(qw->world);
    gen_rng rng = gen_seed(seed);
    for (int k = 0; k < QUERY_BODIES; k++) {
        cw_body_def def = cw_default_body_def();
        bool big = gen_chance(&rng, 0.05); // over many cells: found through several
        def.shape = gen_chance(&rng, 0.5) ? cw_shape_mask(qw->mask)
                                          : cw_shape_box((float)gen_range(&rng, 4, big ? 200 : 40),
                                                         (float)gen_range(&rng, 4, big ? 200 : 40));
        def.transform = cw_default_transform();
        def.transform.position = (cw_vec2){(float)gen_range(&rng, 0, 600), (float)gen_range(&rng, 0, 600)};
        def.transform.rotation = (float)gen_range(&rng, 0, 6.3);
        def.transform.scale = (cw_vec2){(float)gen_range(&rng, 0.5, big ? 6 : 2), (float)gen_range(&rng, 0.5, 2)};
        qw->shapes[k] = def.shape, qw->transforms[k] = def.transform;
        qw->ids[k] = cw_body_create(qw->world, &def);
        assert_false(cw_body_id_is_null(qw->ids[k]));
    }
    cw_world_step(qw->world);
}

static void test_concurrent_queries(void **state)
{
    (void)state;
    query_world *qw = calloc(1, sizeof *qw);
    assert_non_null(qw);
    build_query_world(qw, 0x9e7);
    query_thread threads[QUERY_THREADS];
    pthread_t handles[QUERY_THREADS];
    int queries = gen_scaled(400) < 20 ? 20 : gen_scaled(400);
    for (int t = 0; t < QUERY_THREADS; t++) {
        threads[t] = (query_thread){qw, 0x9e70 + (uint64_t)t, queries, 0};
        assert_int_equal(pthread_create(&handles[t], NULL, query_thread_main, &threads[t]), 0);
    }
    int mismatches = 0;
    for (int t = 0; t < QUERY_THREADS; t++) {
        pthread_join(handles[t], NULL);
        mismatches += threads[t].mismatches;
    }
    printf("  %d threads x %d point and shape queries against brute force: %d differ\n", QUERY_THREADS, queries,
           mismatches);
    assert_int_equal(mismatches, 0);
    cw_world_destroy(qw->world);
    cw_mask_destroy(qw->mask);
    free(qw);
}

// --- misuse ---

static void expect_create_fails(const cw_world_def *def, const char *message)
{
    cw_clear_error();
    assert_null(cw_world_create(def));
    assert_string_equal(cw_last_error(), message);
}

static void *enqueue_stub(cw_task_fn *task, int item_count, int min_range, void *task_context, void *user_context)
{
    (void)min_range, (void)user_context;
    task(0, item_count, 0, task_context);
    return NULL;
}

static void test_bad_threading_defs(void **state)
{
    (void)state;
    const char *count_message = "The worker count must be from 1 to CW_MAX_WORKERS (64).";
    const int bad_counts[] = {0, -1, CW_MAX_WORKERS + 1, 1 << 30};
    for (size_t k = 0; k < sizeof bad_counts / sizeof bad_counts[0]; k++) {
        cw_world_def def = cw_default_world_def();
        def.worker_count = bad_counts[k];
        expect_create_fails(&def, count_message);
    }
    cw_world_def def = cw_default_world_def();
    def.worker_count = 2;
    def.enqueue_task = enqueue_stub;
    expect_create_fails(&def, "Set both enqueue_task and finish_task, or neither.");
    def.enqueue_task = NULL;
    def.finish_task = never_finish;
    expect_create_fails(&def, "Set both enqueue_task and finish_task, or neither.");
    def.worker_count = CW_MAX_WORKERS;
    def.finish_task = NULL;
    cw_world *world = cw_world_create(&def); // the largest count is fine
    assert_non_null(world);
    cw_world_destroy(world);
}

// What another thread saw when it tried to step, change and destroy a busy world.
typedef struct intruder {
    cw_world *world;
    cw_body_id body;
    const char *step_error, *change_error, *list_error, *reserve_error, *destroy_error, *events_error;
    bool changed, listed, reserved;
    int events_seen; // begins in the arrays it was given
} intruder;

static void *intrude(void *argument)
{
    intruder *in = argument;
    cw_clear_error();
    in->events_seen = cw_world_events(in->world).begin_count;
    in->events_error = cw_last_error();
    cw_clear_error();
    cw_world_step(in->world);
    in->step_error = cw_last_error();
    cw_clear_error();
    in->changed = cw_body_set_transform(in->world, in->body, &(cw_transform){{0, 0}, 0, {1, 1}, {0, 0}});
    in->change_error = cw_last_error();
    cw_clear_error();
    in->listed = cw_world_set_transforms(in->world, &in->body, &(cw_transform){{0, 0}, 0, {1, 1}, {0, 0}}, 1);
    in->list_error = cw_last_error();
    cw_clear_error();
    in->reserved = cw_world_reserve(in->world, 1000);
    in->reserve_error = cw_last_error();
    cw_clear_error();
    cw_world_destroy(in->world);
    in->destroy_error = cw_last_error();
    return NULL;
}

static void intrude_from_another_thread(intruder *in)
{
    pthread_t handle;
    assert_int_equal(pthread_create(&handle, NULL, intrude, in), 0);
    pthread_join(handle, NULL);
}

static void intrude_on_begin(const cw_contact *contact, void *context)
{
    intruder *in = context;
    in->body = contact->a;
    intrude_from_another_thread(in);
}

static bool intrude_on_query(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)user_data, (void)manifold;
    intruder *in = context;
    in->body = body;
    intrude_from_another_thread(in);
    return false;
}

static cw_world *two_touching_boxes(cw_world_def *def)
{
    cw_world *world = cw_world_create(def);
    assert_non_null(world);
    for (int k = 0; k < 2; k++) {
        cw_body_def body = cw_default_body_def();
        body.shape = cw_shape_box(10, 10);
        body.transform.position = (cw_vec2){(float)k * 5, 0};
        assert_false(cw_body_id_is_null(cw_body_create(world, &body)));
    }
    return world;
}

static void test_busy_world_from_another_thread(void **state)
{
    (void)state;
    intruder in = {0};
    cw_world_def def = cw_default_world_def();
    def.worker_count = 2;
    def.on_begin = intrude_on_begin;
    def.context = &in;
    in.world = two_touching_boxes(&def);
    cw_world_step(in.world); // the begin's callback sends in the intruder
    assert_string_equal(in.step_error, "cw_world_step cannot run while another thread is stepping the world.");
    assert_false(in.changed);
    assert_string_equal(in.change_error, "Bodies cannot be changed while another thread is stepping the world.");
    assert_false(in.listed);
    assert_string_equal(in.list_error, "Bodies cannot be changed while another thread is stepping the world.");
    assert_false(in.reserved);
    assert_string_equal(in.reserve_error, "Bodies cannot be changed while another thread is stepping the world.");
    assert_string_equal(in.destroy_error, "cw_world_destroy cannot run while another thread is stepping the world.");
    assert_string_equal(in.events_error, "cw_world_events cannot run while another thread is stepping the world.");
    assert_int_equal(in.events_seen, 0);
    assert_int_equal(cw_world_get_stats(in.world).begin_events, 1);
    cw_world_destroy(in.world);

    memset(&in, 0, sizeof in);
    def.on_begin = NULL;
    in.world = two_touching_boxes(&def);
    cw_world_step(in.world);
    assert_true(cw_world_query_point(in.world, (cw_vec2){2, 0}, cw_default_query_filter(), intrude_on_query, &in));
    assert_string_equal(in.step_error, "cw_world_step cannot run while another thread is querying the world.");
    assert_false(in.changed);
    assert_string_equal(in.change_error, "Bodies cannot be changed while another thread is querying the world.");
    assert_false(in.listed);
    assert_string_equal(in.list_error, "Bodies cannot be changed while another thread is querying the world.");
    assert_false(in.reserved);
    assert_string_equal(in.reserve_error, "Bodies cannot be changed while another thread is querying the world.");
    assert_string_equal(in.destroy_error, "cw_world_destroy cannot run while another thread is querying the world.");
    assert_string_equal(in.events_error, ""); // reading the last step's events is fine during a query
    assert_int_equal(in.events_seen, 1);
    // Once the query is over, the world is everybody's again.
    cw_clear_error();
    cw_world_step(in.world);
    assert_string_equal(cw_last_error(), "");
    cw_world_destroy(in.world);
}


// Threads asking for the events of a step at once: one gathers them, the others wait, and all get
// the same arrays, equal to those of a world given the same calls and asked on its own thread.
// Half of them read the world's byte count while others gather (the arrays grow meanwhile).
enum { ASKERS = 4 };

typedef struct asker {
    const cw_world *world;
    atomic_int *go;
    cw_events events;
    const char *error;
    bool reads_bytes;
    size_t bytes; // the most cw_world_stats::bytes said while asking
} asker;

static void *ask_for_events(void *argument)
{
    asker *a = argument;
    while (!atomic_load(a->go))
        ;
    for (int k = 0; a->reads_bytes && k < 100; k++) {
        size_t bytes = cw_world_get_stats(a->world).bytes;
        a->bytes = bytes > a->bytes ? bytes : a->bytes;
    }
    cw_clear_error();
    a->events = cw_world_events(a->world);
    a->error = cw_last_error();
    return NULL;
}

static cw_world *crowd_of_boxes(uint64_t seed)
{
    cw_world_def def = cw_default_world_def();
    def.report_stays = true;
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    gen_rng r = gen_seed(seed);
    gen_add_boxes(world, &r, 3000, 5, 30, 1500, 6);
    return world;
}

static void test_events_gathered_once_across_threads(void **state)
{
    (void)state;
    cw_world *world = crowd_of_boxes(0xa5ce), *alone = crowd_of_boxes(0xa5ce);
    for (int step = 0; step < gen_scaled(6) + 2; step++) {
        cw_world_step(world);
        cw_world_step(alone);
        cw_events want = cw_world_events(alone);
        assert_true(want.begin_count + want.stay_count > 0);
        atomic_int go = 0;
        asker askers[ASKERS];
        pthread_t handles[ASKERS];
        for (int t = 0; t < ASKERS; t++) {
            askers[t] = (asker){.world = world, .go = &go, .reads_bytes = t % 2 == 1};
            assert_int_equal(pthread_create(&handles[t], NULL, ask_for_events, &askers[t]), 0);
        }
        atomic_store(&go, 1);
        for (int t = 0; t < ASKERS; t++)
            pthread_join(handles[t], NULL);
        for (int t = 0; t < ASKERS; t++) {
            const cw_events *got = &askers[t].events;
            assert_string_equal(askers[t].error, "");
            assert_true(got->begins == askers[0].events.begins && got->stays == askers[0].events.stays);
            assert_int_equal(got->begin_count, want.begin_count);
            assert_int_equal(got->stay_count, want.stay_count);
            assert_int_equal(got->end_count, want.end_count);
            assert_memory_equal(got->begins, want.begins, (size_t)want.begin_count * sizeof(cw_contact));
            if (want.stay_count > 0)
                assert_memory_equal(got->stays, want.stays, (size_t)want.stay_count * sizeof(cw_contact));
            assert_true(askers[t].bytes <= cw_world_get_stats(world).bytes);
        }
        assert_int_equal(cw_world_get_stats(world).bytes, cw_world_get_stats(alone).bytes);
    }
    cw_world_destroy(world);
    cw_world_destroy(alone);
}

// Threads asking what bodies touch at once, each the world's first cw_body_touching(): one builds the
// body index, the others wait for it, and every answer is what a world given the same calls gives
// on its own thread. Half of them read the world's byte count meanwhile.
enum { INDEX_BODIES = 3000, INDEX_OUT = 64 };

typedef struct toucher {
    const cw_world *world;
    atomic_int *go;
    int first, mismatches, errors;
    cw_touch (*want)[INDEX_OUT];
    const int *want_count;
    bool reads_bytes;
} toucher;

static void *ask_touching(void *argument)
{
    toucher *t = argument;
    while (!atomic_load(t->go))
        ;
    for (int k = 0; k < INDEX_BODIES; k++) {
        if (t->reads_bytes)
            (void)cw_world_get_stats(t->world);
        int b = (t->first + k) % INDEX_BODIES;
        cw_touch got[INDEX_OUT];
        int n = cw_body_touching(t->world, (cw_body_id){(uint32_t)b + 1, 1}, got, INDEX_OUT);
        t->errors += n < 0;
        t->mismatches += n != t->want_count[b];
        for (int j = 0; j < n && j < INDEX_OUT && n == t->want_count[b]; j++)
            t->mismatches += got[j].body.index != t->want[b][j].body.index;
    }
    return NULL;
}

static void test_body_index_built_once_across_threads(void **state)
{
    (void)state;
    cw_world *world = crowd_of_boxes(0x1d3), *alone = crowd_of_boxes(0x1d3);
    for (int step = 0; step < 3; step++) {
        cw_world_step(world);
        cw_world_step(alone);
    }
    static cw_touch want[INDEX_BODIES][INDEX_OUT];
    static int want_count[INDEX_BODIES];
    int pairs = 0;
    for (int b = 0; b < INDEX_BODIES; b++) { // bodies are slots 1 to 3000, generation 1
        want_count[b] = cw_body_touching(alone, (cw_body_id){(uint32_t)b + 1, 1}, want[b], INDEX_OUT);
        assert_true(want_count[b] >= 0 && want_count[b] <= INDEX_OUT);
        pairs += want_count[b];
    }
    assert_true(pairs > INDEX_BODIES);
    atomic_int go = 0;
    toucher touchers[ASKERS];
    pthread_t handles[ASKERS];
    for (int t = 0; t < ASKERS; t++) {
        touchers[t] = (toucher){.world = world, .go = &go, .first = t * INDEX_BODIES / ASKERS, .want = want,
                                .want_count = want_count, .reads_bytes = t % 2 == 1};
        assert_int_equal(pthread_create(&handles[t], NULL, ask_touching, &touchers[t]), 0);
    }
    atomic_store(&go, 1);
    for (int t = 0; t < ASKERS; t++)
        pthread_join(handles[t], NULL);
    for (int t = 0; t < ASKERS; t++) {
        assert_int_equal(touchers[t].errors, 0);
        assert_int_equal(touchers[t].mismatches, 0);
    }
    assert_int_equal(cw_world_get_stats(world).bytes, cw_world_get_stats(alone).bytes);
    cw_world_step(world); // kept by the steps after
    cw_world_step(alone);
    for (int b = 0; b < INDEX_BODIES; b++) {
        cw_touch got[INDEX_OUT];
        int n = cw_body_touching(world, (cw_body_id){(uint32_t)b + 1, 1}, got, INDEX_OUT);
        assert_int_equal(n, cw_body_touching(alone, (cw_body_id){(uint32_t)b + 1, 1}, want[b], INDEX_OUT));
        for (int j = 0; j < n; j++)
            assert_int_equal(got[j].body.index, want[b][j].body.index);
    }
    cw_world_destroy(world);
    cw_world_destroy(alone);
}

const struct CMUnitTest thread_tests[THREAD_TEST_COUNT] = {
    cmocka_unit_test(test_body_index_built_once_across_threads),
    cmocka_unit_test(test_streams_equal_across_workers), cmocka_unit_test(test_crowd_streams_equal_across_workers),
    cmocka_unit_test(test_worker_stats),
    cmocka_unit_test(test_concurrent_queries),           cmocka_unit_test(test_bad_threading_defs),
    cmocka_unit_test(test_busy_world_from_another_thread), cmocka_unit_test(test_events_gathered_once_across_threads),
};
