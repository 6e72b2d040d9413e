// cw_world_def::body_capacity: the room it makes up front is exact (creating that many box bodies
// allocates nothing, and costs less than growing to it), the world it makes behaves byte for byte
// as one without it (past the capacity too), and each kind of misuse and running out of memory
// fails cw_world_create with its sentence and nothing left allocated.
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "counting.h"
#include "gen.h"
#include "suites.h"

static const char *const CAPACITY_RANGE_ERROR = "body_capacity must be from 0 (no room made ahead) to 2147483646.";

static void test_body_capacity_misuse(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    assert_int_equal(cw_default_world_def().body_capacity, 0);
    const int bad[] = {-1, -1000, INT_MIN, INT_MAX};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        cw_world_def def = cw_default_world_def();
        def.body_capacity = bad[k];
        cw_clear_error();
        assert_null(cw_world_create(&def));
        assert_string_equal(cw_last_error(), CAPACITY_RANGE_ERROR);
        assert_int_equal(cnt.allocs, 0); // refused before anything was made
    }
    counter_expect_no_leak(&cnt);
}

// Every allocation cw_world_create makes for a capacity fails in turn: NULL each time, with the
// capacity's sentence once the world itself was made, and nothing left behind.
static void test_body_capacity_out_of_memory(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    cw_world_def def = cw_default_world_def();
    def.body_capacity = 700;
    long k = 1;
    for (;; k++) {
        counter_arm(&cnt, k);
        cw_clear_error();
        cw_world *w = cw_world_create(&def);
        counter_arm(&cnt, 0);
        if (w != NULL) {
            cw_world_destroy(w);
            break;
        }
        const char *expected = k == 1 ? "Out of memory: the allocator returned NULL."
                                      : "Out of memory: no room for body_capacity (700) bodies.";
        assert_string_equal(cw_last_error(), expected);
        assert_int_equal(cnt.live_bytes, 0);
    }
    printf("  body_capacity out of memory: %ld allocations failed in turn\n", k - 1);
    assert_true(k - 1 >= 8); // the world, two lists, four slot arrays and the proxies (lanes come with queries)
    counter_expect_no_leak(&cnt);
}

// The same bodies, moves and destructions in a world without a capacity and in one with a random
// one: the same ids and the same events, byte for byte, every step.
enum { SEEDS = 24, MAX_BODIES = 400, STEPS = 8, ADDED_A_STEP = 3 };

typedef struct twin {
    cw_world *world;
    cw_body_id ids[MAX_BODIES + STEPS * ADDED_A_STEP];
    int count;
} twin;

static cw_transform random_place(gen_rng *r)
{
    cw_transform t = cw_default_body_def().transform;
    t.position = (cw_vec2){(float)gen_range(r, 0, 300), (float)gen_range(r, 0, 300)};
    t.rotation = (float)gen_range(r, 0, 6.28);
    return t;
}

// Adds the same random box to both worlds.
static void add_box(twin t[2], gen_rng *r)
{
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box((float)gen_range(r, 4, 40), (float)gen_range(r, 4, 40));
    def.transform = random_place(r);
    for (int w = 0; w < 2; w++) {
        t[w].ids[t[w].count++] = cw_body_create(t[w].world, &def);
        assert_false(cw_body_id_is_null(t[w].ids[t[w].count - 1]));
    }
}

static void expect_same_contacts(const cw_contact *a, const cw_contact *b, int count)
{
    if (count > 0)
        assert_memory_equal(a, b, (size_t)count * sizeof *a);
}

static void expect_same_events(const cw_world *a, const cw_world *b)
{
    cw_events ea = cw_world_events(a), eb = cw_world_events(b);
    assert_int_equal(ea.begin_count, eb.begin_count);
    assert_int_equal(ea.stay_count, eb.stay_count);
    assert_int_equal(ea.end_count, eb.end_count);
    expect_same_contacts(ea.begins, eb.begins, ea.begin_count);
    expect_same_contacts(ea.stays, eb.stays, ea.stay_count);
    expect_same_contacts(ea.ends, eb.ends, ea.end_count);
}

// One step's changes, the same in both: a third of the bodies moved, one destroyed, a few added.
static void change_both(twin t[2], gen_rng *r)
{
    for (int i = 0; i < t[0].count; i++) {
        if (!gen_chance(r, 0.33))
            continue;
        cw_transform to = random_place(r);
        for (int w = 0; w < 2; w++)
            cw_body_set_transform(t[w].world, t[w].ids[i], &to); // a destroyed body's fails in both
    }
    int victim = gen_int(r, 0, t[0].count - 1);
    for (int w = 0; w < 2; w++)
        cw_body_destroy(t[w].world, t[w].ids[victim]);
    for (int k = 0; k < ADDED_A_STEP; k++)
        add_box(t, r);
}

static void run_twins(uint64_t seed)
{
    gen_rng r = gen_seed(seed);
    int bodies = gen_int(&r, 50, MAX_BODIES);
    int capacity = gen_int(&r, 1, 2 * MAX_BODIES); // often fewer than the bodies: growing past it
    twin t[2];
    memset(t, 0, sizeof t);
    for (int w = 0; w < 2; w++) {
        cw_world_def def = cw_default_world_def();
        def.body_capacity = w == 0 ? 0 : capacity;
        def.report_stays = true;
        t[w].world = cw_world_create(&def);
        assert_non_null(t[w].world);
    }
    for (int i = 0; i < bodies; i++)
        add_box(t, &r);
    for (int step = 0; step < STEPS; step++) {
        for (int w = 0; w < 2; w++)
            cw_world_step(t[w].world);
        expect_same_events(t[0].world, t[1].world);
        assert_memory_equal(t[0].ids, t[1].ids, (size_t)t[0].count * sizeof t[0].ids[0]);
        change_both(t, &r);
    }
    for (int w = 0; w < 2; w++)
        cw_world_destroy(t[w].world);
}

// Creating up to the capacity allocates nothing in the world with room made.
static void expect_no_allocation_within(counter *cnt, int capacity)
{
    cw_world_def def = cw_default_world_def();
    def.body_capacity = capacity;
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    long before = cnt->allocs;
    gen_rng r = gen_seed((uint64_t)capacity);
    gen_add_boxes(w, &r, capacity, 4, 40, 2000, 6.28);
    assert_int_equal(cnt->allocs, before);
    gen_add_boxes(w, &r, 1, 4, 40, 2000, 6.28); // one past: the arrays grow
    assert_true(cnt->allocs > before);
    cw_world_step(w);
    cw_world_destroy(w);
}

static void test_body_capacity_same_world(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    for (uint64_t seed = 1; seed <= (uint64_t)gen_scaled(SEEDS); seed++)
        run_twins(0x63617061ull + seed);
    const int capacities[] = {1, 63, 64, 65, 1000, 4097};
    for (size_t k = 0; k < sizeof capacities / sizeof capacities[0]; k++)
        expect_no_allocation_within(&cnt, capacities[k]);
    counter_expect_no_leak(&cnt);
}

// The room is exact: 10k boxes made in a world with room for them take their bytes a body and no
// more, and less than the same bodies grown one by one.
enum { ROOM_BODIES = 10000, ROOM_BYTES_A_BODY = 216 }; // 64-bit: slot 88, hot 72, proxy 40, lists 16

static long creation_peak(counter *cnt, int capacity)
{
    cnt->peak_bytes = cnt->live_bytes;
    long before = cnt->live_bytes;
    cw_world_def def = cw_default_world_def();
    def.body_capacity = capacity;
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    gen_rng r = gen_seed(0x726f6f6dull);
    gen_add_boxes(w, &r, ROOM_BODIES, 8, 64, 8192, 6.28);
    long peak = cnt->peak_bytes - before;
    cw_world_step(w);
    assert_true(cw_world_get_stats(w).touching_pairs > 1000);
    cw_world_destroy(w);
    return peak;
}

static void test_body_capacity_room_is_exact(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    long grown = creation_peak(&cnt, 0), exact = creation_peak(&cnt, ROOM_BODIES);
    printf("  creating %d boxes: %.0f bytes a body at the peak grown one by one, %.0f with body_capacity\n",
           ROOM_BODIES, (double)grown / ROOM_BODIES, (double)exact / ROOM_BODIES);
    if (sizeof(void *) == 8)
        assert_true(exact <= (long)(ROOM_BODIES + 1) * ROOM_BYTES_A_BODY + 4096); // + the world itself
    assert_true(exact * 5 < grown * 4); // 216 against 300 now
    counter_expect_no_leak(&cnt);
}

const struct CMUnitTest body_capacity_tests[] = {
    cmocka_unit_test_teardown(test_body_capacity_misuse, counter_restore_default),
    cmocka_unit_test_teardown(test_body_capacity_out_of_memory, counter_restore_default),
    cmocka_unit_test_teardown(test_body_capacity_same_world, counter_restore_default),
    cmocka_unit_test_teardown(test_body_capacity_room_is_exact, counter_restore_default),
};
