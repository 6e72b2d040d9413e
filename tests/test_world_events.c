// The event arrays against the callbacks, on random worlds. cw_world_events() gathers a step's
// begins and stays from the step's sets only when it is first asked, so between the step and the
// asking the bodies may change (user data set, bodies destroyed, new bodies made in freed slots,
// moved, reshaped, switched off) and the arrays must still hold, byte for byte and in order, what
// the callbacks were given; asked from inside a callback, they hold the events delivered so far
// (callbacks here also destroy bodies and set user data). Then gathering out of memory, and
// asking from another thread during a step (test_threads.c has the threads that ask at once); and a
// world that keeps begins' manifolds but not stays' against one that keeps both.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counting.h"
#include "gen.h"
#include "suites.h"

enum { BODIES = 48, STEPS = 30 };

// A growable log of contacts per kind (end, begin, stay), in the order the callbacks got them.
typedef struct contact_log {
    cw_contact *items[3];
    int count[3], capacity[3];
} contact_log;

typedef struct events_run {
    cw_world *world;
    gen_rng rng;
    gen_shape shapes[4];
    cw_body_id ids[4 * BODIES];
    int live;
    contact_log log;
    double meddle;     // chance that a callback destroys a body or sets user data
    double ask_inside; // chance that a callback asks for the events so far
    int asked_inside, meddled;
    char users[4 * BODIES]; // user data points into here
} events_run;

static void log_push(contact_log *log, int kind, const cw_contact *c)
{
    if (log->count[kind] == log->capacity[kind]) {
        log->capacity[kind] = log->capacity[kind] ? 2 * log->capacity[kind] : 64;
        log->items[kind] = realloc(log->items[kind], (size_t)log->capacity[kind] * sizeof(cw_contact));
        assert_non_null(log->items[kind]);
    }
    log->items[kind][log->count[kind]++] = *c;
}

// The arrays hold exactly the log: every kind, count and byte.
static void expect_arrays_equal_log(const cw_world *world, const contact_log *log, const char *when)
{
    cw_clear_error();
    cw_events ev = cw_world_events(world);
    assert_string_equal(cw_last_error(), "");
    const cw_contact *arrays[3] = {ev.ends, ev.begins, ev.stays};
    const int counts[3] = {ev.end_count, ev.begin_count, ev.stay_count};
    static const char *const kinds[3] = {"ends", "begins", "stays"};
    for (int kind = 0; kind < 3; kind++) {
        if (counts[kind] != log->count[kind])
            fail_msg("%s: %d %s in the arrays, the callbacks got %d", when, counts[kind], kinds[kind], log->count[kind]);
        for (int k = 0; k < counts[kind]; k++)
            if (memcmp(&arrays[kind][k], &log->items[kind][k], sizeof(cw_contact)) != 0)
                fail_msg("%s: %s %d differs from the callback's (bodies %u, %u)", when, kinds[kind], k,
                         log->items[kind][k].a.index, log->items[kind][k].b.index);
    }
}

static int random_live(events_run *run) { return gen_int(&run->rng, 0, run->live - 1); }

static void destroy_at(events_run *run, int k)
{
    cw_body_destroy(run->world, run->ids[k]);
    run->ids[k] = run->ids[--run->live];
}

static void set_random_user_data(events_run *run)
{
    if (run->live > 0)
        assert_true(cw_body_set_user_data(run->world, run->ids[random_live(run)], &run->users[gen_int(&run->rng, 0, 4 * BODIES - 1)]));
}

// A callback's meddling: destroy a body (its later events of the step are dropped) or change user
// data (the step's later events still show the old).
static void meddle(events_run *run)
{
    if (run->live == 0 || !gen_chance(&run->rng, run->meddle))
        return;
    run->meddled++;
    if (gen_chance(&run->rng, 0.3))
        destroy_at(run, random_live(run));
    else
        set_random_user_data(run);
}

static void on_event(events_run *run, int kind, const cw_contact *c)
{
    log_push(&run->log, kind, c);
    if (gen_chance(&run->rng, run->ask_inside)) {
        run->asked_inside++;
        expect_arrays_equal_log(run->world, &run->log, "asked from a callback");
    }
    meddle(run);
}

static void on_end_event(const cw_contact *c, void *context) { on_event(context, 0, c); }
static void on_begin_event(const cw_contact *c, void *context) { on_event(context, 1, c); }
static void on_stay_event(const cw_contact *c, void *context) { on_event(context, 2, c); }

static cw_transform random_place(events_run *run, const gen_shape *s)
{
    cw_transform t;
    gen_random_transform(&run->rng, s, &t);
    t.position = (cw_vec2){(float)gen_range(&run->rng, 0, 260), (float)gen_range(&run->rng, 0, 260)};
    return t;
}

static void create_random(events_run *run)
{
    const gen_shape *s = &run->shapes[gen_int(&run->rng, 0, 3)];
    cw_body_def def = cw_default_body_def();
    def.shape = s->shape;
    def.transform = random_place(run, s);
    def.swept = gen_chance(&run->rng, 0.15);
    def.user_data = &run->users[gen_int(&run->rng, 0, 4 * BODIES - 1)];
    cw_body_id id = cw_body_create(run->world, &def);
    assert_false(cw_body_id_is_null(id));
    run->ids[run->live++] = id;
}

// Moves some bodies (a few far, so swept ones pass through others); the motion of the next step.
static void move_some(events_run *run)
{
    for (int k = 0; k < run->live; k++) {
        if (!gen_chance(&run->rng, 0.5))
            continue;
        cw_transform t = cw_body_transform(run->world, run->ids[k]);
        float reach = gen_chance(&run->rng, 0.1) ? 120.0f : 8.0f;
        t.position.x += (float)gen_range(&run->rng, -reach, reach);
        t.position.y += (float)gen_range(&run->rng, -reach, reach);
        t.rotation += (float)gen_range(&run->rng, -0.3, 0.3);
        assert_true(cw_body_set_transform(run->world, run->ids[k], &t));
    }
}

// Changes between a step and the first asking: none of them may show in that step's arrays.
static void change_before_asking(events_run *run)
{
    int changes = gen_int(&run->rng, 0, 6);
    for (int c = 0; c < changes && run->live > 0; c++) {
        int k = random_live(run);
        switch (gen_int(&run->rng, 0, 5)) {
        case 0: set_random_user_data(run); break;
        case 1: destroy_at(run, k); break;
        case 2: create_random(run); break; // may take a slot freed by this step
        case 3: assert_true(cw_body_set_shape(run->world, run->ids[k], &run->shapes[gen_int(&run->rng, 0, 3)].shape)); break;
        case 4: assert_true(cw_body_set_enabled(run->world, run->ids[k], !cw_body_is_enabled(run->world, run->ids[k]))); break;
        default: move_some(run); break;
        }
    }
}

static void run_world(uint64_t seed, int *events_checked, int *asked_inside)
{
    static events_run run;
    memset(&run, 0, sizeof run);
    run.rng = gen_seed(seed);
    gen_random_box(&run.rng, &run.shapes[0]);
    gen_random_box(&run.rng, &run.shapes[1]);
    assert_true(gen_random_mask(&run.rng, &run.shapes[2]));
    assert_true(gen_random_mask(&run.rng, &run.shapes[3]));
    run.meddle = gen_chance(&run.rng, 0.5) ? 0.05 : 0;
    run.ask_inside = gen_chance(&run.rng, 0.5) ? 0.02 : 0;
    cw_world_def def = cw_default_world_def();
    def.manifolds = gen_chance(&run.rng, 0.5);
    def.worker_count = gen_int(&run.rng, 1, 2);
    def.on_begin = on_begin_event, def.on_end = on_end_event, def.context = &run;
    def.on_stay = gen_chance(&run.rng, 0.7) ? on_stay_event : NULL;
    run.world = cw_world_create(&def);
    assert_non_null(run.world);
    for (int k = 0; k < BODIES; k++)
        create_random(&run);
    for (int step = 0; step < STEPS; step++) {
        memset(run.log.count, 0, sizeof run.log.count);
        move_some(&run);
        cw_world_step(run.world);
        if (gen_chance(&run.rng, 0.2))
            continue; // never asked: the next step starts afresh
        if (gen_chance(&run.rng, 0.7))
            change_before_asking(&run);
        expect_arrays_equal_log(run.world, &run.log, "asked after the step");
        change_before_asking(&run);
        expect_arrays_equal_log(run.world, &run.log, "asked again"); // gathered once, kept
        *events_checked += run.log.count[0] + run.log.count[1] + run.log.count[2];
        while (run.live < BODIES / 2)
            create_random(&run);
    }
    *asked_inside += run.asked_inside;
    cw_world_destroy(run.world);
    for (int k = 0; k < 4; k++)
        gen_shape_free(&run.shapes[k]);
    for (int kind = 0; kind < 3; kind++)
        free(run.log.items[kind]);
}

static void test_event_arrays_against_callbacks(void **state)
{
    (void)state;
    int worlds = gen_scaled(60), checked = 0, asked_inside = 0;
    for (int w = 0; w < worlds; w++)
        run_world(0xe7e4700ull + (uint64_t)w, &checked, &asked_inside);
    printf("  %d random worlds: %d events compared, %d askings from callbacks\n", worlds, checked, asked_inside);
    assert_true(checked > 50 * worlds);
    assert_true(asked_inside > 0 || worlds < 10);
}

// Gathering that runs out of memory: every array empty and the reason said; a later call gathers.
static void test_event_gathering_out_of_memory(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    cw_world_def def = cw_default_world_def();
    def.report_stays = true;
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    cw_body_id ids[6];
    for (int k = 0; k < 6; k++) {
        cw_body_def bd = cw_default_body_def();
        bd.shape = cw_shape_box(10, 10);
        bd.transform.position = (cw_vec2){(float)(6 * k), 0};
        ids[k] = cw_body_create(world, &bd);
    }
    cw_world_step(world);
    cw_world_step(world); // five stays
    cw_body_destroy(world, ids[0]);
    cw_world_step(world); // one end (copied as delivered), four stays (gathered)
    counter_arm(&cnt, 1);
    cw_clear_error();
    cw_events ev = cw_world_events(world);
    assert_int_equal(ev.begin_count + ev.stay_count + ev.end_count, 0);
    assert_null(ev.ends);
    assert_string_equal(cw_last_error(),
                        "Out of memory: the step's begins and stays could not be gathered into the event arrays; "
                        "a later call tries again.");
    counter_arm(&cnt, 0);
    cw_clear_error();
    ev = cw_world_events(world);
    assert_string_equal(cw_last_error(), "");
    assert_int_equal(ev.end_count, 1);
    assert_int_equal(ev.stay_count, 4);
    assert_int_equal(ev.begin_count, 0);
    assert_int_equal(ev.ends[0].a.index, ids[0].index);
    assert_int_equal(ev.stays[0].a.index, ids[1].index);
    cw_world_destroy(world);
    counter_expect_no_leak(&cnt);
}

// --- stay_manifolds = false: begins keep their manifolds, stays carry none ---

static void log_end(const cw_contact *c, void *context) { log_push(context, 0, c); }
static void log_begin(const cw_contact *c, void *context) { log_push(context, 1, c); }
static void log_stay(const cw_contact *c, void *context) { log_push(context, 2, c); }

static bool manifold_is_zero(const cw_manifold *m)
{
    static const cw_manifold zero;
    return memcmp(m, &zero, sizeof zero) == 0;
}

// The same event with and without stays' manifolds: every byte alike but a stay's manifold, which
// the lean world leaves zero.
static void expect_same_but_stays(const contact_log *full, const contact_log *lean, int *stays_with_depth)
{
    for (int kind = 0; kind < 3; kind++) {
        assert_int_equal(full->count[kind], lean->count[kind]);
        for (int k = 0; k < full->count[kind]; k++) {
            cw_contact f = full->items[kind][k], l = lean->items[kind][k];
            if (kind == 2) {
                if (!manifold_is_zero(&l.manifold))
                    fail_msg("a stay of bodies %u, %u carries a manifold", l.a.index, l.b.index);
                *stays_with_depth += f.manifold.depth > 0;
                f.manifold = l.manifold;
            }
            if (memcmp(&f, &l, sizeof f) != 0)
                fail_msg("%s %d of bodies %u, %u differs", kind == 0 ? "end" : kind == 1 ? "begin" : "stay", k,
                         l.a.index, l.b.index);
        }
    }
}

// Every touch of a body in the lean world carries a zero manifold; the full world's the same bodies.
static void expect_touches_zero(cw_world *full, cw_world *lean, cw_body_id body)
{
    cw_touch in_full[4 * BODIES], in_lean[4 * BODIES];
    int n = cw_body_touching(lean, body, in_lean, 4 * BODIES);
    assert_int_equal(n, cw_body_touching(full, body, in_full, 4 * BODIES));
    for (int k = 0; k < n; k++) {
        assert_true(manifold_is_zero(&in_lean[k].manifold));
        assert_int_equal(in_lean[k].body.index, in_full[k].body.index);
    }
}

// Two worlds made by the same calls, one with stay_manifolds off: the same events, begins' manifolds
// (swept begins' first touches among them) the same bytes, stays' and touches' manifolds zero.
static void run_lean_world(uint64_t seed, int *stays_with_depth, int *begins)
{
    gen_rng rng = gen_seed(seed);
    gen_shape shapes[4];
    gen_random_box(&rng, &shapes[0]);
    gen_random_box(&rng, &shapes[1]);
    assert_true(gen_random_mask(&rng, &shapes[2]));
    assert_true(gen_random_mask(&rng, &shapes[3]));
    contact_log logs[2];
    memset(logs, 0, sizeof logs);
    cw_world *worlds[2];
    cw_world_def def = cw_default_world_def();
    def.worker_count = gen_int(&rng, 1, 2);
    def.on_begin = log_begin, def.on_end = log_end;
    bool by_callback = gen_chance(&rng, 0.5); // stays reported to on_stay, or only kept (report_stays)
    def.on_stay = by_callback ? log_stay : NULL, def.report_stays = !by_callback;
    for (int w = 0; w < 2; w++) {
        def.stay_manifolds = w == 0, def.context = &logs[w];
        worlds[w] = cw_world_create(&def);
        assert_non_null(worlds[w]);
    }
    cw_body_id ids[2][BODIES];
    for (int k = 0; k < BODIES; k++) {
        cw_body_def bd = cw_default_body_def();
        const gen_shape *s = &shapes[gen_int(&rng, 0, 3)];
        bd.shape = s->shape, bd.swept = gen_chance(&rng, 0.15);
        gen_random_transform(&rng, s, &bd.transform);
        bd.transform.position = (cw_vec2){(float)gen_range(&rng, 0, 200), (float)gen_range(&rng, 0, 200)};
        for (int w = 0; w < 2; w++)
            ids[w][k] = cw_body_create(worlds[w], &bd);
    }
    for (int step = 0; step < STEPS; step++) {
        for (int k = 0; k < BODIES; k++) {
            if (!gen_chance(&rng, 0.5))
                continue;
            cw_transform t = cw_body_transform(worlds[0], ids[0][k]);
            float reach = gen_chance(&rng, 0.1) ? 100.0f : 6.0f;
            t.position.x += (float)gen_range(&rng, -reach, reach), t.position.y += (float)gen_range(&rng, -reach, reach);
            t.rotation += (float)gen_range(&rng, -0.3, 0.3);
            for (int w = 0; w < 2; w++)
                assert_true(cw_body_set_transform(worlds[w], ids[w][k], &t));
        }
        memset(logs[0].count, 0, sizeof logs[0].count), memset(logs[1].count, 0, sizeof logs[1].count);
        cw_world_step(worlds[0]);
        cw_world_step(worlds[1]);
        if (!by_callback) { // the stays only in the arrays: logged from there
            for (int w = 0; w < 2; w++) {
                cw_events ev = cw_world_events(worlds[w]);
                for (int k = 0; k < ev.stay_count; k++)
                    log_push(&logs[w], 2, &ev.stays[k]);
            }
        }
        expect_same_but_stays(&logs[0], &logs[1], stays_with_depth);
        *begins += logs[1].count[1];
        expect_touches_zero(worlds[0], worlds[1], ids[1][gen_int(&rng, 0, BODIES - 1)]);
    }
    for (int w = 0; w < 2; w++) {
        cw_world_destroy(worlds[w]);
        for (int kind = 0; kind < 3; kind++)
            free(logs[w].items[kind]);
    }
    for (int k = 0; k < 4; k++)
        gen_shape_free(&shapes[k]);
}

static void test_stay_manifolds_off(void **state)
{
    (void)state;
    int worlds = gen_scaled(20), stays_with_depth = 0, begins = 0;
    for (int w = 0; w < worlds; w++)
        run_lean_world(0x57a7e000ull + (uint64_t)w, &stays_with_depth, &begins);
    printf("  %d random world pairs: %d begins alike, %d stays whose manifold only the full world kept\n", worlds,
           begins, stays_with_depth);
    assert_true(stays_with_depth > 20 * worlds && begins > 20 * worlds);
    // Without manifolds at all, stay_manifolds asks for nothing.
    cw_world_def def = cw_default_world_def();
    def.manifolds = false, def.report_stays = true;
    cw_world *world = cw_world_create(&def);
    cw_body_def bd = cw_default_body_def();
    bd.shape = cw_shape_box(10, 10);
    cw_body_create(world, &bd);
    bd.transform.position.x = 5;
    cw_body_create(world, &bd);
    cw_world_step(world);
    cw_world_step(world);
    cw_events ev = cw_world_events(world);
    assert_int_equal(ev.stay_count, 1);
    assert_true(manifold_is_zero(&ev.stays[0].manifold));
    cw_world_destroy(world);
}

const struct CMUnitTest world_events_tests[WORLD_EVENTS_TEST_COUNT] = {
    cmocka_unit_test(test_event_arrays_against_callbacks),
    cmocka_unit_test_teardown(test_event_gathering_out_of_memory, counter_restore_default),
    cmocka_unit_test(test_stay_manifolds_off),
};
