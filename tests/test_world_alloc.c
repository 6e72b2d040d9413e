// The world and the allocator hook: a warmed-up world steps without allocating or freeing, and a
// failing allocation anywhere in a scripted scenario (world create, body creates, steps that grow
// the world, shape changes, destroys) is reported, crashes nothing, leaks nothing, and leaves a world
// that steps on with the correct touching set once memory is back. Public API only.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counting.h"
#include "gen.h"
#include "suites.h"

// The counting allocator is tests/counting.c.

// --- events, counted or logged ---

typedef struct event_log {
    int begins, stays, ends;
    int count, cap;
    struct logged {
        int phase; // 0 end, 1 begin, 2 stay
        uint32_t a, b;
    } *items; // malloc'd by the test, never through the library's allocator
} event_log;

static void log_event(event_log *l, int phase, const cw_contact *c)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->items = realloc(l->items, (size_t)l->cap * sizeof *l->items);
        if (l->items == NULL)
            abort();
    }
    l->items[l->count++] = (struct logged){phase, c->a.index, c->b.index};
}

static void on_end(const cw_contact *c, void *context)
{
    ((event_log *)context)->ends++;
    log_event(context, 0, c);
}

static void on_begin(const cw_contact *c, void *context)
{
    ((event_log *)context)->begins++;
    log_event(context, 1, c);
}

static void on_stay(const cw_contact *c, void *context)
{
    ((event_log *)context)->stays++;
    log_event(context, 2, c);
}

static cw_world_def logging_def(event_log *log)
{
    cw_world_def def = cw_default_world_def();
    def.on_begin = on_begin;
    def.on_stay = on_stay;
    def.on_end = on_end;
    def.context = log;
    return def;
}

// --- (a) a warmed-up world allocates nothing ---

#define PERIOD 25 // steps; every body's motion repeats exactly with this period

// A triangle wave in [-1, 1] of the step number: bodies bounce between two points.
static float bounce(int step, int phase)
{
    int t = (step + phase) % PERIOD;
    return (float)(fabs(4.0 * t / PERIOD - 2.0) - 1.0);
}

typedef struct bouncer {
    cw_body_id id;
    cw_transform base;
    cw_vec2 swing;
    int phase;
} bouncer;

static void place(cw_world *w, const bouncer *b, int step)
{
    cw_transform t = b->base;
    float s = bounce(step, b->phase);
    t.position.x += s * b->swing.x;
    t.position.y += s * b->swing.y;
    t.rotation += 0.5f * s;
    assert_true(cw_body_set_transform(w, b->id, &t));
}

static void add_bouncers(cw_world *w, gen_rng *r, const gen_shape *shapes, int nshapes, bouncer *out, int n)
{
    for (int k = 0; k < n; k++) {
        const gen_shape *s = &shapes[k % nshapes];
        cw_body_def def = cw_default_body_def();
        def.shape = s->shape;
        gen_random_transform(r, s, &def.transform);
        def.transform.position = (cw_vec2){(float)gen_range(r, 0, 900), (float)gen_range(r, 0, 900)};
        def.is_static = k % 10 == 0;
        def.group = k % 5 == 1 ? -1 : k % 5 == 2 ? 1 : 0; // both rules of the groups at work
        out[k].base = def.transform;
        out[k].swing = (cw_vec2){(float)gen_range(r, -60, 60), (float)gen_range(r, -60, 60)};
        out[k].phase = gen_int(r, 0, PERIOD - 1);
        out[k].id = cw_body_create(w, &def);
        assert_false(cw_body_id_is_null(out[k].id));
    }
}

// One body in seven is switched off for a fifth of each period (a pooled sprite), in step with the
// motion so that the warm-up sees every configuration.
static bool switched_off(const bouncer *b, int k, int step) { return k % 7 == 3 && (step + b->phase) % PERIOD < 5; }

static void step_bouncers(cw_world *w, const bouncer *b, int n, int step)
{
    for (int k = 0; k < n; k++) {
        if (k % 10 != 0) // statics stay put
            place(w, &b[k], step);
        assert_true(cw_body_set_enabled(w, b[k].id, !switched_off(&b[k], k, step)));
    }
    cw_world_step(w);
}

// What gameplay code asks between steps; returns how many touches it was told of.
static int ask_between_steps(const cw_world *w, const bouncer *b, int n)
{
    cw_touch touches[16];
    int told = 0;
    for (int k = 0; k < n; k++) {
        int count = cw_body_touching(w, b[k].id, touches, 16);
        assert_true(count >= 0);
        told += count;
        told += cw_pair_touching(w, b[k].id, b[(k + 1) % n].id);
    }
    cw_events ev = cw_world_events(w);
    return told + ev.begin_count + ev.stay_count + ev.end_count;
}

// Hundreds of bodies bouncing in a bounded region with all three callbacks set: after two periods of
// warm-up every configuration has been seen, so the world has nothing left to grow into.
static void test_warm_world_allocates_nothing(void **state)
{
    (void)state;
    counter c;
    counter_install(&c);
    enum { NS = 8, NB = 300 };
    gen_rng r = gen_seed(0xa110c);
    gen_shape shapes[NS];
    for (int k = 0; k < NS; k++)
        if (k % 2)
            assert_true(gen_random_mask(&r, &shapes[k]));
        else
            gen_random_box(&r, &shapes[k]);
    event_log log;
    memset(&log, 0, sizeof log);
    cw_world_def def = logging_def(&log);
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    static bouncer b[NB];
    add_bouncers(w, &r, shapes, NS, b, NB);
    int step = 0;
    for (; step < 2 * PERIOD; step++) { // asking as it will be asked: the event arrays grow on demand
        step_bouncers(w, b, NB, step);
        ask_between_steps(w, b, NB);
    }
    long allocs = c.allocs, frees = c.frees;
    event_log warm = log;
    long told = 0;
    for (; step < 2 * PERIOD + gen_scaled(200); step++) {
        log.count = 0; // the log's own memory is the test's, not the library's
        step_bouncers(w, b, NB, step);
        told += ask_between_steps(w, b, NB);
    }
    printf("  warm world: %ld allocations and %ld frees in %d steps (%d begins, %d stays, %d ends; groups, "
           "switches, %ld touches and events asked for)\n",
           c.allocs - allocs, c.frees - frees, step - 2 * PERIOD, log.begins - warm.begins, log.stays - warm.stays,
           log.ends - warm.ends, told);
    assert_true(told > 0);
    assert_int_equal(c.allocs - allocs, 0);
    assert_int_equal(c.frees - frees, 0);
    assert_true(log.begins > warm.begins && log.stays > warm.stays && log.ends > warm.ends);
    cw_world_destroy(w);
    for (int k = 0; k < NS; k++)
        gen_shape_free(&shapes[k]);
    free(log.items);
    counter_expect_no_leak(&c);
}

// The same promise when the touching set empties and refills: two boxes meeting every other step.
// (A hash-table pair set freed its buckets with its last pair and allocated them on the next begin.)
static void test_warm_world_blinking_pair(void **state)
{
    (void)state;
    counter c;
    counter_install(&c);
    event_log log;
    memset(&log, 0, sizeof log);
    cw_world_def def = logging_def(&log);
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    cw_body_def bd = cw_default_body_def();
    bd.shape = cw_shape_box(10, 10);
    cw_body_id a = cw_body_create(w, &bd), b = cw_body_create(w, &bd);
    assert_false(cw_body_id_is_null(a) || cw_body_id_is_null(b));
    cw_transform near = cw_default_transform(), far = near;
    near.position.x = 5;
    far.position.x = 50;
    for (int k = 0; k < 20; k++) {
        assert_true(cw_body_set_transform(w, b, k % 2 ? &far : &near));
        cw_world_step(w);
    }
    long allocs = c.allocs, frees = c.frees;
    for (int k = 0; k < 20; k++) {
        log.count = 0;
        assert_true(cw_body_set_transform(w, b, k % 2 ? &far : &near));
        cw_world_step(w);
    }
    printf("  blinking pair: %ld allocations and %ld frees in 20 warm steps (%d begins, %d ends in all)\n",
           c.allocs - allocs, c.frees - frees, log.begins, log.ends);
    long grew = c.allocs - allocs, shrank = c.frees - frees;
    cw_world_destroy(w);
    free(log.items);
    counter_expect_no_leak(&c);
    assert_int_equal(log.begins, 20);
    assert_int_equal(grew, 0);
    assert_int_equal(shrank, 0);
}


// --- (b) out of memory at every allocation of a scripted scenario ---

enum { OOM_MAX_BODIES = 96, OOM_SHAPES = 6 };

typedef struct oom_body {
    cw_body_id id;
    cw_shape shape;
    cw_transform transform;
    uint32_t category, collides_with;
    int32_t group;
    bool is_static, live, enabled;
} oom_body;

// One run of the scenario with allocation number `fail_at` failing, and what it observed.
typedef struct oom_run {
    counter *c;
    long fail_at;
    int workers;       // the world's worker_count
    const gen_shape *shapes;
    gen_rng rng;
    cw_world *world;
    event_log log;
    oom_body bodies[OOM_MAX_BODIES];
    int count;
    bool step_hit;     // the failing allocation was made by cw_world_step
    bool reached;      // the script made allocation number fail_at
    int problems;      // broken promises, printed as found
} oom_run;

static void problem(oom_run *r, const char *what, const char *detail)
{
    r->problems++;
    if (r->problems <= 5)
        printf("  FAIL [out of memory at allocation %ld] %s: %s\n", r->fail_at, what, detail);
}

// A call that failed must have run out of memory just now and must say so; one that succeeded
// must not have lost an allocation, nor left an error behind (the caller cleared it).
static bool judge(oom_run *r, bool ok, long failed_before, const char *what)
{
    bool ran_out = r->c->failed > failed_before;
    if (!ok && !ran_out)
        problem(r, what, "failed although no allocation failed");
    if (!ok && cw_last_error()[0] == '\0')
        problem(r, what, "failed without an error message");
    if (ok && cw_last_error()[0] != '\0')
        problem(r, what, "succeeded but left an error");
    return ok;
}

static cw_body_def random_def(oom_run *r)
{
    const gen_shape *s = &r->shapes[gen_int(&r->rng, 0, OOM_SHAPES - 1)];
    cw_body_def def = cw_default_body_def();
    def.shape = s->shape;
    gen_random_transform(&r->rng, s, &def.transform);
    def.transform.position = (cw_vec2){(float)gen_range(&r->rng, 0, 160), (float)gen_range(&r->rng, 0, 160)};
    def.is_static = gen_chance(&r->rng, 0.15);
    def.category = 1u << gen_int(&r->rng, 0, 1);
    def.collides_with = gen_chance(&r->rng, 0.7) ? UINT32_MAX : 1;
    def.group = gen_chance(&r->rng, 0.3) ? gen_int(&r->rng, -1, 1) : 0;
    def.swept = gen_chance(&r->rng, 0.25); // their boxes refiled over the motion, their pass-throughs kept
    return def;
}

static void oom_create(oom_run *r)
{
    cw_body_def def = random_def(r);
    long failed = r->c->failed;
    cw_clear_error();
    cw_body_id id = cw_body_create(r->world, &def);
    if (!judge(r, !cw_body_id_is_null(id), failed, "cw_body_create") || r->count == OOM_MAX_BODIES)
        return;
    r->bodies[r->count++] = (oom_body){id,        def.shape,     def.transform, def.category, def.collides_with,
                                       def.group, def.is_static, true,          true};
}

// After a failed setter the body is as it was: the getters agree with the mirror.
static void expect_unchanged(oom_run *r, const oom_body *b, const char *what)
{
    cw_transform t = cw_body_transform(r->world, b->id);
    cw_shape s = cw_body_shape(r->world, b->id);
    uint32_t category = 0, collides_with = 0;
    cw_body_filter(r->world, b->id, &category, &collides_with);
    if (memcmp(&t, &b->transform, sizeof t) != 0 || s.type != b->shape.type || s.mask != b->shape.mask ||
        category != b->category || collides_with != b->collides_with)
        problem(r, what, "the failed call changed the body");
}

static oom_body *random_live(oom_run *r)
{
    for (int tries = 0; tries < 100; tries++) {
        oom_body *b = &r->bodies[gen_int(&r->rng, 0, r->count - 1)];
        if (b->live)
            return b;
    }
    return NULL;
}

static void oom_move(oom_run *r, oom_body *b, double reach)
{
    cw_transform t = b->transform;
    t.position.x += (float)gen_range(&r->rng, -reach, reach);
    t.position.y += (float)gen_range(&r->rng, -reach, reach);
    t.rotation += (float)gen_range(&r->rng, -0.5, 0.5);
    long failed = r->c->failed;
    cw_clear_error();
    if (judge(r, cw_body_set_transform(r->world, b->id, &t), failed, "cw_body_set_transform"))
        b->transform = t;
    else
        expect_unchanged(r, b, "cw_body_set_transform");
}

static void oom_reshape(oom_run *r, oom_body *b)
{
    cw_shape s = r->shapes[gen_int(&r->rng, 0, OOM_SHAPES - 1)].shape;
    long failed = r->c->failed;
    cw_clear_error();
    if (judge(r, cw_body_set_shape(r->world, b->id, &s), failed, "cw_body_set_shape"))
        b->shape = s;
    else
        expect_unchanged(r, b, "cw_body_set_shape");
}

static void oom_refilter(oom_run *r, oom_body *b)
{
    uint32_t category = 1u << gen_int(&r->rng, 0, 1), collides_with = (uint32_t)gen_int(&r->rng, 1, 3);
    long failed = r->c->failed;
    cw_clear_error();
    if (judge(r, cw_body_set_filter(r->world, b->id, category, collides_with), failed, "cw_body_set_filter")) {
        b->category = category;
        b->collides_with = collides_with;
    } else {
        expect_unchanged(r, b, "cw_body_set_filter");
    }
}

// Groups and switches never allocate; they are here for what the steps after them do.
static void oom_regroup(oom_run *r, oom_body *b)
{
    int32_t group = gen_int(&r->rng, -1, 1);
    cw_clear_error();
    if (!cw_body_set_group(r->world, b->id, group))
        problem(r, "cw_body_set_group", "failed although it never allocates");
    b->group = group;
}

static void oom_switch(oom_run *r, oom_body *b)
{
    cw_clear_error();
    if (!cw_body_set_enabled(r->world, b->id, !b->enabled))
        problem(r, "cw_body_set_enabled", "failed although it never allocates");
    b->enabled = !b->enabled;
}

static void oom_destroy(oom_run *r, oom_body *b)
{
    cw_body_destroy(r->world, b->id);
    if (cw_body_is_valid(r->world, b->id))
        problem(r, "cw_body_destroy", "the body is still valid");
    b->live = false;
}

// A step that ran out of memory reports nothing, to the callbacks or the event arrays.
static void oom_step(oom_run *r)
{
    long failed = r->c->failed;
    r->log.count = 0;
    cw_clear_error();
    cw_world_step(r->world);
    bool said_failed = strcmp(cw_last_error(), "Out of memory: the step could not finish; the next step redoes it.") == 0;
    if (said_failed != (cw_world_get_stats(r->world).failed_steps > 0))
        problem(r, "cw_world_step", said_failed ? "a step that failed is not in failed_steps" : "failed_steps after a step that passed");
    if (!said_failed && cw_last_error()[0] != '\0')
        problem(r, "cw_world_step", "a step that passed left an error"); // what a caller checks after a step
    if (r->c->failed > failed) {
        r->step_hit = true;
        cw_events ev = cw_world_events(r->world);
        if (r->log.count != 0 || ev.begin_count + ev.stay_count + ev.end_count != 0)
            problem(r, "cw_world_step", "a step that ran out of memory reported events");
    }
}

static void oom_create_world(oom_run *r)
{
    cw_world_def def = logging_def(&r->log);
    def.worker_count = r->workers;
    long failed = r->c->failed;
    cw_clear_error();
    r->world = cw_world_create(&def);
    if (!judge(r, r->world != NULL, failed, "cw_world_create"))
        r->world = cw_world_create(&def); // only one allocation fails: this one works
    assert_non_null(r->world);
}

// The scenario: every call that can allocate, with growth (slots, cells, pairs, events) on the way.
static void oom_script(oom_run *r)
{
    oom_create_world(r);
    for (int k = 0; k < 40; k++)
        oom_create(r);
    oom_step(r);
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < r->count; k++)
            if (r->bodies[k].live && !r->bodies[k].is_static)
                oom_move(r, &r->bodies[k], 12);
        oom_step(r);
    }
    for (int k = 0; k < 6; k++)
        oom_reshape(r, random_live(r));
    for (int k = 0; k < 4; k++)
        oom_refilter(r, random_live(r));
    for (int k = 0; k < 6; k++)
        oom_regroup(r, random_live(r));
    for (int k = 0; k < 8; k++)
        oom_switch(r, random_live(r));
    oom_step(r);
    for (int k = 0; k < 8; k++) {
        oom_body *b = random_live(r);
        if (b)
            oom_destroy(r, b);
    }
    for (int k = 0; k < 30; k++)
        oom_create(r);
    for (int k = 0; k < 5; k++)
        oom_move(r, random_live(r), 1e4); // into cells the grid has not seen
    for (int k = 0; k < 6; k++)
        oom_switch(r, random_live(r)); // some back on, refiled
    oom_step(r);
    oom_step(r);
}

static bool filters_match(const oom_body *a, const oom_body *b)
{
    if (!a->enabled || !b->enabled)
        return false;
    if (a->group == b->group && a->group != 0)
        return a->group > 0;
    return (a->category & b->collides_with) && (b->category & a->collides_with);
}

static int compare_keys(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static uint64_t key_of(uint32_t a, uint32_t b) { return a < b ? ((uint64_t)a << 32) | b : ((uint64_t)b << 32) | a; }

// The touching pairs by brute force over every pair of live bodies; returns how many (sorted keys).
static int brute_force(const oom_run *r, uint64_t *keys)
{
    int n = 0;
    for (int i = 0; i < r->count; i++)
        for (int j = i + 1; j < r->count; j++) {
            const oom_body *a = &r->bodies[i], *b = &r->bodies[j];
            if (a->live && b->live && !(a->is_static && b->is_static) && filters_match(a, b) &&
                cw_overlap(&a->shape, &a->transform, &b->shape, &b->transform, NULL))
                keys[n++] = key_of(a->id.index, b->id.index);
        }
    qsort(keys, (size_t)n, sizeof *keys, compare_keys);
    return n;
}

// The world's touching set after a step with no changes: the pairs with a begin or a stay in it.
static int world_set(const oom_run *r, uint64_t *keys)
{
    int n = 0;
    for (int k = 0; k < r->log.count; k++)
        if (r->log.items[k].phase != 0)
            keys[n++] = key_of(r->log.items[k].a, r->log.items[k].b);
    qsort(keys, (size_t)n, sizeof *keys, compare_keys);
    return n;
}

// The same set as cw_body_touching() answers it, body by body (each pair seen from its lower body).
static int touching_set(const oom_run *r, uint64_t *keys)
{
    static cw_touch out[OOM_MAX_BODIES];
    int n = 0;
    for (int i = 0; i < r->count; i++) {
        const oom_body *b = &r->bodies[i];
        int got = b->live ? cw_body_touching(r->world, b->id, out, OOM_MAX_BODIES) : 0;
        for (int k = 0; k < got && k < OOM_MAX_BODIES; k++)
            if (out[k].body.index > b->id.index)
                keys[n++] = key_of(b->id.index, out[k].body.index);
    }
    qsort(keys, (size_t)n, sizeof *keys, compare_keys);
    return n;
}

#define OOM_MAX_PAIRS (OOM_MAX_BODIES * OOM_MAX_BODIES / 2)

// Memory is back: each further step must find exactly the brute-force touching set.
static void oom_recover(oom_run *r)
{
    static uint64_t want[OOM_MAX_PAIRS], got[OOM_MAX_PAIRS], asked[OOM_MAX_PAIRS];
    for (int k = 0; k < 2; k++) {
        oom_step(r);
        int nw = brute_force(r, want), ng = world_set(r, got), na = touching_set(r, asked);
        cw_world_stats st = cw_world_get_stats(r->world);
        char detail[200];
        if (nw != ng || memcmp(want, got, (size_t)nw * sizeof *want) != 0 || st.touching_pairs != nw || na != nw ||
            memcmp(want, asked, (size_t)nw * sizeof *want) != 0) {
            snprintf(detail, sizeof detail, "%d pairs touch, the world reports %d (stats: %d, cw_body_touching: %d)%s",
                     nw, ng, st.touching_pairs, na, r->step_hit ? " after a step ran out of memory" : "");
            problem(r, k == 0 ? "first step with memory back" : "second step with memory back", detail);
        }
    }
}

static void oom_run_one(counter *c, const gen_shape *shapes, int workers, long fail_at, oom_run *r)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->fail_at = fail_at;
    r->workers = workers;
    r->shapes = shapes;
    r->rng = gen_seed(0x00f00d);
    counter_arm(c, fail_at);
    oom_script(r);
    r->reached = c->armed_calls >= fail_at;
    counter_arm(c, 0);
    oom_recover(r);
    cw_world_destroy(r->world);
    free(r->log.items);
}

static void make_oom_shapes(gen_shape *shapes)
{
    gen_rng g = gen_seed(0x0face);
    for (int k = 0; k < OOM_SHAPES; k++)
        if (k % 2)
            assert_true(gen_random_mask(&g, &shapes[k]));
        else
            gen_random_box(&g, &shapes[k]);
}

// Every allocation of the scenario fails in turn (until a run has none left to fail), in a world
// stepped on this thread alone and in one with a worker: its pool and the workers' scratch are
// allocated at creation, and going without them (fewer workers, or the stepping thread scanning
// alone) is no failure.
// Regressions it caught: bodies that never reached the grid again after a failed step, and pairs
// dropped by a failed step that were not found again until a body changed.
static long sweep_out_of_memory(counter *c, const gen_shape *shapes, int workers)
{
    static oom_run r;
    long k = 1, bad_runs = 0, step_runs = 0;
    for (;; k++) {
        oom_run_one(c, shapes, workers, k, &r);
        bad_runs += r.problems > 0;
        step_runs += r.step_hit;
        if (!r.reached) // every allocation the scenario makes has failed once
            break;
    }
    printf("  out of memory, %d worker%s: %ld allocations failed in turn (%ld inside a step); %ld runs broke a "
           "promise\n", workers, workers > 1 ? "s" : "", k - 1, step_runs, bad_runs);
    assert_int_equal(bad_runs, 0);
    return k - 1;
}

static void test_out_of_memory_everywhere(void **state)
{
    (void)state;
    counter c;
    counter_install(&c);
    gen_shape shapes[OOM_SHAPES];
    make_oom_shapes(shapes);
    long alone = sweep_out_of_memory(&c, shapes, 1);
    long with_worker = sweep_out_of_memory(&c, shapes, 2);
    for (int s = 0; s < OOM_SHAPES; s++)
        gen_shape_free(&shapes[s]);
    counter_expect_no_leak(&c);
    assert_true(alone > 20); // the scenario does allocate, and grows
    assert_true(with_worker > alone); // and a worker's world allocates its pool and scratch too
}

// --- (c) the grid's cell table comes and goes ---

// While every body moves the grid scans by sorting and lets its cell table go; when few move it
// builds the table again. Through every switch the touching pairs are cw_overlap's and an AABB query
// finds what brute force finds; a world that alternates between the two kinds of step allocates
// nothing once warm (the table is kept, not freed and rebuilt every other step).

enum { SWITCH_BODIES = 250 };

typedef struct crowd {
    cw_body_id id[SWITCH_BODIES];
    cw_shape shape[SWITCH_BODIES];
    cw_transform t[SWITCH_BODIES];
} crowd;

static bool count_found(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)user_data, (void)manifold;
    ((unsigned char *)context)[body.index] = 1;
    return true;
}

static void expect_query_right(cw_world *w, const crowd *c, gen_rng *r)
{
    float x = (float)gen_range(r, 0, 500), y = (float)gen_range(r, 0, 500);
    cw_aabb box = {{x, y}, {x + (float)gen_range(r, 10, 200), y + (float)gen_range(r, 10, 200)}};
    static unsigned char found[SWITCH_BODIES + 1];
    memset(found, 0, sizeof found);
    assert_true(cw_world_query_aabb(w, box, cw_default_query_filter(), count_found, found));
    for (int i = 0; i < SWITCH_BODIES; i++) {
        cw_aabb b;
        assert_true(cw_body_aabb(w, c->id[i], &b));
        bool meets = b.min.x < box.max.x && box.min.x < b.max.x && b.min.y < box.max.y && box.min.y < b.max.y;
        if (found[c->id[i].index] != meets)
            fail_msg("body %d: the AABB query says %d, brute force %d", i, found[c->id[i].index], meets);
    }
}

static void expect_crowd_right(cw_world *w, const crowd *c, gen_rng *r)
{
    for (int i = 0; i < SWITCH_BODIES; i++)
        for (int j = i + 1; j < SWITCH_BODIES; j++)
            if (cw_pair_touching(w, c->id[i], c->id[j]) !=
                cw_overlap(&c->shape[i], &c->t[i], &c->shape[j], &c->t[j], NULL))
                fail_msg("bodies %d and %d: the world's touching set differs from cw_overlap", i, j);
    expect_query_right(w, c, r);
}

// Moves every body (all) or every 50th (few), as a function of the step so that it repeats.
static void move_crowd(cw_world *w, crowd *c, int step, bool all)
{
    for (int i = 0; i < SWITCH_BODIES; i += all ? 1 : 50) {
        c->t[i].position.x = 250 + 200 * sinf(0.05f * (float)((step + 7 * i) % 126));
        c->t[i].position.y = 250 + 200 * cosf(0.03f * (float)((step + 11 * i) % 210));
        c->t[i].rotation = 0.01f * (float)((step + i) % 628);
        assert_true(cw_body_set_transform(w, c->id[i], &c->t[i]));
    }
}

static void test_cell_table_comes_and_goes(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    gen_rng r = gen_seed(0x63656c6cull);
    cw_world_def def = cw_default_world_def();
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    static crowd c;
    for (int i = 0; i < SWITCH_BODIES; i++) {
        c.shape[i] = cw_shape_box((float)gen_range(&r, 8, 40), (float)gen_range(&r, 8, 40));
        c.t[i] = cw_default_transform();
        c.t[i].position = (cw_vec2){(float)gen_range(&r, 0, 500), (float)gen_range(&r, 0, 500)};
        cw_body_def bd = cw_default_body_def();
        bd.shape = c.shape[i];
        bd.transform = c.t[i];
        c.id[i] = cw_body_create(w, &bd);
        assert_false(cw_body_id_is_null(c.id[i]));
    }
    expect_query_right(w, &c, &r); // before any step: the table, built by the creates
    int step = 0;
    for (; step < 80; step++) { // every body moves: the table goes at the first scan
        move_crowd(w, &c, step, true);
        cw_world_step(w);
        if (step % 8 == 0)
            expect_crowd_right(w, &c, &r);
    }
    for (; step < 100; step++) { // few move: the table is built again
        move_crowd(w, &c, step, false);
        cw_world_step(w);
        expect_crowd_right(w, &c, &r);
    }
    for (; step < 100 + 2 * 1260; step++) // warm-up of the alternation (the motion repeats every 1260 steps)
        move_crowd(w, &c, step, step % 2 == 0), cw_world_step(w);
    long allocs = cnt.allocs, frees = cnt.frees;
    for (int k = 0; k < gen_scaled(200); k++, step++) {
        move_crowd(w, &c, step, step % 2 == 0);
        cw_world_step(w);
        if (k % 10 < 2)
            expect_crowd_right(w, &c, &r);
    }
    printf("  alternating world: %ld allocations and %ld frees once warm\n", cnt.allocs - allocs, cnt.frees - frees);
    assert_int_equal(cnt.allocs - allocs, 0);
    assert_int_equal(cnt.frees - frees, 0);
    cw_world_destroy(w);
    counter_expect_no_leak(&cnt);
}


// What the first step of a crowded world holds at most beyond the bodies themselves, a body: its
// scratch (candidates, the sorting scan's members, the moved list), the touching sets and the
// events; no body index (nothing asked for it) and no cell table (every body is new, so the step
// scans by sorting, and a table built while choosing the cell size would be dropped unused).
// 81 now; 163 while the grid's proxies waited for the step, the index was kept unasked and the
// members kept half again spare; 200 while begins were copied for cw_world_events() unasked; 283
// while the step built two cell tables.
enum { FIRST_STEP_BYTES_A_BODY = 100 };
// And what creating the bodies peaks at, a body: the slot arrays (and the grid's proxies) grown by
// a quarter, one array at a time (not all the new arrays beside all the old ones). 322 now; 580
// with all the arrays grown at once.
enum { CREATION_BYTES_A_BODY = 360 };

static void test_creation_and_first_step_peaks(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    gen_rng r = gen_seed(0x66697273ull);
    cw_world_def def = cw_default_world_def();
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    enum { BODIES = 4000 };
    gen_add_boxes(w, &r, BODIES, 8, 64, 5200, 6.28); // about as dense as the benchmark's sprites scene
    double creation = (double)cnt.peak_bytes / BODIES;
    printf("  creating %d bodies: %.0f bytes a body at the peak\n", BODIES, creation);
    assert_true(creation <= CREATION_BYTES_A_BODY);
    long before = cnt.live_bytes;
    cnt.peak_bytes = before;
    cw_world_step(w);
    assert_true(cw_world_get_stats(w).touching_pairs > BODIES / 10);
    double per_body = (double)(cnt.peak_bytes - before) / BODIES;
    printf("  first step of %d bodies: %.0f bytes a body at its peak beyond the bodies\n", BODIES, per_body);
    assert_true(per_body <= FIRST_STEP_BYTES_A_BODY);
    cw_world_destroy(w);
    counter_expect_no_leak(&cnt);
}

// What manifolds cost a world that wants them for begins only (the default: no stays): the
// begins' contacts, not a manifold for every touching pair in both of the step's sets.
static long world_bytes_after_steps(counter *cnt, bool manifolds, int *touching)
{
    cw_world_def def = cw_default_world_def();
    def.manifolds = manifolds;
    long before = cnt->live_bytes;
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    gen_rng r = gen_seed(0x6d616e69ull);
    gen_add_boxes(w, &r, 3000, 8, 64, 2500, 6.28);
    for (int step = 0; step < 3; step++)
        cw_world_step(w);
    *touching = cw_world_get_stats(w).touching_pairs;
    long bytes = cnt->live_bytes - before;
    cw_world_destroy(w);
    return bytes;
}

static void test_begin_manifolds_cost_begins_only(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    int touching = 0, touching_without = 0;
    long with = world_bytes_after_steps(&cnt, true, &touching);
    long without = world_bytes_after_steps(&cnt, false, &touching_without);
    assert_int_equal(touching, touching_without);
    assert_true(touching > 1000);
    double per_pair = (double)(with - without) / touching;
    printf("  manifolds for begins: %.1f bytes a touching pair (every pair began in the first step)\n", per_pair);
    assert_true(per_pair <= 28); // 24 now (one begin's contact a pair); 60 with a manifold in both sets
    counter_expect_no_leak(&cnt);
}

const struct CMUnitTest world_alloc_tests[] = {
    cmocka_unit_test_teardown(test_out_of_memory_everywhere, counter_restore_default),
    cmocka_unit_test_teardown(test_warm_world_allocates_nothing, counter_restore_default),
    cmocka_unit_test_teardown(test_warm_world_blinking_pair, counter_restore_default),
    cmocka_unit_test_teardown(test_cell_table_comes_and_goes, counter_restore_default),
    cmocka_unit_test_teardown(test_creation_and_first_step_peaks, counter_restore_default),
    cmocka_unit_test_teardown(test_begin_manifolds_cost_begins_only, counter_restore_default),
};
