// The event arrays against the callbacks, on random worlds. cw_world_events() gathers a step's
// begins and stays from the step's sets only when it is first asked, so between the step and the
// asking the bodies may change (user data set, bodies destroyed, new bodies made in freed slots,
// moved, reshaped, switched off) and the arrays must still hold, byte for byte and in order, what
// the callbacks were given; asked from inside a callback, they hold the events delivered so far
// (callbacks here also destroy bodies and set user data). Then gathering out of memory, and
// asking from another thread during a step (test_threads.c has the threads that ask at once).
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

const struct CMUnitTest world_events_tests[WORLD_EVENTS_TEST_COUNT] = {
    cmocka_unit_test(test_event_arrays_against_callbacks),
    cmocka_unit_test_teardown(test_event_gathering_out_of_memory, counter_restore_default),
};
