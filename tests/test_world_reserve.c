// cw_world_reserve(): room made for a count of bodies in a living world. Creating up to that count
// allocates nothing (destroyed bodies still waiting for their ends included), the world behaves
// byte for byte as one that never reserved, the room equals body_capacity's, and each misuse and
// running out of memory fails with its sentence, the world still working (room already made stays).
#include <limits.h>
#include <stdio.h>

#include "counting.h"
#include "gen.h"
#include "suites.h"

static const char *const RANGE_ERROR = "The body count to make room for must be from 0 to 2147483646.";

static cw_world *world_with_boxes(int count, uint64_t seed)
{
    cw_world_def def = cw_default_world_def();
    def.report_stays = true;
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    gen_rng r = gen_seed(seed);
    gen_add_boxes(w, &r, count, 4, 40, 600, 6.28);
    return w;
}

typedef struct reserve_in_query {
    cw_world *world;
    bool result;
    const char *error;
} reserve_in_query;

static bool go_on(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold, (void)context;
    return true;
}

static bool reserve_from_query(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold;
    reserve_in_query *q = context;
    cw_clear_error();
    q->result = cw_world_reserve(q->world, 5000);
    q->error = cw_last_error();
    return false;
}

static void test_reserve_misuse(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    cw_clear_error();
    assert_false(cw_world_reserve(NULL, 10));
    assert_string_equal(cw_last_error(), "The world is NULL.");
    cw_world *w = world_with_boxes(50, 11);
    cw_world_step(w);
    cw_aabb everywhere = {{-1e6f, -1e6f}, {1e6f, 1e6f}};
    // A lane's first query makes its marks: before the counts.
    assert_true(cw_world_query_aabb(w, everywhere, cw_default_query_filter(), go_on, NULL));
    const size_t bytes = cw_world_get_stats(w).bytes;
    const long allocs = cnt.allocs;
    const int bad[] = {-1, -1000, INT_MIN, INT_MAX};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        cw_clear_error();
        assert_false(cw_world_reserve(w, bad[k]));
        assert_string_equal(cw_last_error(), RANGE_ERROR);
    }
    reserve_in_query q = {w, true, NULL};
    cw_world_query_aabb(w, everywhere, cw_default_query_filter(), reserve_from_query, &q);
    assert_false(q.result);
    assert_string_equal(q.error, "Bodies cannot be created, destroyed or changed from inside a query callback.");
    assert_int_equal(cnt.allocs, allocs); // refused before anything was made
    assert_int_equal(cw_world_get_stats(w).bytes, bytes);
    assert_true(cw_world_reserve(w, 0)); // at or below the room there is: nothing to do
    assert_true(cw_world_reserve(w, 50));
    assert_int_equal(cnt.allocs, allocs);
    cw_world_destroy(w);
    counter_expect_no_leak(&cnt);
}

// Every allocation the reserve makes fails in turn: false with its sentence each time, and the world
// steps on with the same touching pairs as one that was never asked.
static void test_reserve_out_of_memory(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    cw_world *w = world_with_boxes(300, 12), *twin = world_with_boxes(300, 12);
    cw_world_step(w);
    cw_world_step(twin);
    long k = 1;
    for (;; k++) {
        counter_arm(&cnt, k);
        cw_clear_error();
        bool made = cw_world_reserve(w, 5000);
        counter_arm(&cnt, 0);
        if (made)
            break;
        assert_string_equal(cw_last_error(), "Out of memory: no room for 5000 bodies.");
        gen_rng r = gen_seed((uint64_t)k);
        gen_add_boxes(w, &r, 2, 4, 40, 600, 6.28);
        r = gen_seed((uint64_t)k);
        gen_add_boxes(twin, &r, 2, 4, 40, 600, 6.28);
        cw_world_step(w);
        cw_world_step(twin);
        assert_int_equal(cw_world_get_stats(w).touching_pairs, cw_world_get_stats(twin).touching_pairs);
        assert_int_equal(cw_world_get_stats(w).begin_events, cw_world_get_stats(twin).begin_events);
    }
    printf("  cw_world_reserve out of memory: %ld allocations failed in turn\n", k - 1);
    assert_true(k >= 3); // an attempt keeps the arrays it grew, so each later one fails further on
    cw_world_destroy(w);
    cw_world_destroy(twin);
    counter_expect_no_leak(&cnt);
}

// The same bodies created and destroyed in two worlds, one of them reserving at random moments
// for random counts (below what it holds, too); whenever it reserves for the bodies it is about to
// add, adding them allocates nothing. Ids and events equal byte for byte every step.
enum { SEEDS = 24, STEPS = 10, MAX_ADDED = 200 };

// The bodies made so far (the same ids in both worlds); destroyed ones become null ids.
typedef struct made {
    cw_body_id ids[STEPS * MAX_ADDED];
    int count;
} made;

// Adds the same random box to both worlds; returns what world 1's creation allocated.
static long add_same_box(cw_world *w[2], made *m, gen_rng *r, counter *cnt)
{
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box((float)gen_range(r, 4, 40), (float)gen_range(r, 4, 40));
    def.transform.position = (cw_vec2){(float)gen_range(r, 0, 400), (float)gen_range(r, 0, 400)};
    def.transform.rotation = (float)gen_range(r, 0, 6.28);
    cw_body_id first = cw_body_create(w[0], &def);
    long before = cnt->allocs;
    cw_body_id second = cw_body_create(w[1], &def);
    long allocated = cnt->allocs - before;
    assert_false(cw_body_id_is_null(first));
    assert_memory_equal(&first, &second, sizeof first);
    m->ids[m->count++] = first;
    return allocated;
}

static void expect_same_events(const cw_world *a, const cw_world *b)
{
    cw_events ea = cw_world_events(a), eb = cw_world_events(b);
    assert_int_equal(ea.begin_count, eb.begin_count);
    assert_int_equal(ea.stay_count, eb.stay_count);
    assert_int_equal(ea.end_count, eb.end_count);
    if (ea.begin_count > 0)
        assert_memory_equal(ea.begins, eb.begins, (size_t)ea.begin_count * sizeof *ea.begins);
    if (ea.stay_count > 0)
        assert_memory_equal(ea.stays, eb.stays, (size_t)ea.stay_count * sizeof *ea.stays);
    if (ea.end_count > 0)
        assert_memory_equal(ea.ends, eb.ends, (size_t)ea.end_count * sizeof *ea.ends);
}

// Destroys a random run of bodies in both (their slots wait for the next step's ends).
static void destroy_some(cw_world *w[2], made *m, gen_rng *r)
{
    if (m->count == 0)
        return;
    int first = gen_int(r, 0, m->count - 1), n = gen_int(r, 0, m->count / 3);
    for (int i = first; i < m->count && i < first + n; i++) {
        if (cw_body_id_is_null(m->ids[i]))
            continue;
        for (int k = 0; k < 2; k++)
            cw_body_destroy(w[k], m->ids[i]);
        m->ids[i] = (cw_body_id){0};
    }
}

static void run_reserving_twin(counter *cnt, uint64_t seed)
{
    gen_rng r = gen_seed(seed);
    made *m = test_calloc(1, sizeof *m);
    cw_world *w[2];
    for (int k = 0; k < 2; k++) {
        cw_world_def def = cw_default_world_def();
        def.report_stays = true;
        w[k] = cw_world_create(&def);
        assert_non_null(w[k]);
    }
    for (int step = 0; step < STEPS; step++) {
        destroy_some(w, m, &r);
        int adding = gen_int(&r, 0, MAX_ADDED), live = cw_world_get_stats(w[1]).bodies;
        bool reserve_first = gen_chance(&r, 0.5);
        if (reserve_first)
            assert_true(cw_world_reserve(w[1], live + adding + gen_int(&r, 0, 20)));
        else if (gen_chance(&r, 0.5))
            assert_true(cw_world_reserve(w[1], gen_int(&r, 0, live))); // below what it holds: nothing
        long allocated = 0;
        for (int i = 0; i < adding; i++)
            allocated += add_same_box(w, m, &r, cnt);
        if (reserve_first)
            assert_int_equal(allocated, 0);
        for (int k = 0; k < 2; k++)
            cw_world_step(w[k]);
        expect_same_events(w[0], w[1]);
        assert_int_equal(cw_world_get_stats(w[0]).touching_pairs, cw_world_get_stats(w[1]).touching_pairs);
    }
    for (int k = 0; k < 2; k++)
        cw_world_destroy(w[k]);
    test_free(m);
}

static void test_reserve_same_world(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    for (uint64_t seed = 1; seed <= (uint64_t)gen_scaled(SEEDS); seed++)
        run_reserving_twin(&cnt, 0x72657365ull + seed);
    counter_expect_no_leak(&cnt);
}

static void test_reserve_room(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    const int counts[] = {1, 63, 64, 65, 1000, 4097};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        cw_world_def def = cw_default_world_def();
        cw_world *reserved = cw_world_create(&def);
        def.body_capacity = counts[k];
        cw_world *with_capacity = cw_world_create(&def);
        assert_true(cw_world_reserve(reserved, counts[k]));
        assert_int_equal(cw_world_get_stats(reserved).bytes, cw_world_get_stats(with_capacity).bytes);
        long before = cnt.allocs;
        gen_rng r = gen_seed((uint64_t)counts[k]);
        gen_add_boxes(reserved, &r, counts[k], 4, 40, 2000, 6.28);
        assert_int_equal(cnt.allocs, before);
        gen_add_boxes(reserved, &r, 1, 4, 40, 2000, 6.28); // one past: the arrays grow
        assert_true(cnt.allocs > before);
        cw_world_destroy(reserved);
        cw_world_destroy(with_capacity);
    }
    counter_expect_no_leak(&cnt);
}

const struct CMUnitTest world_reserve_tests[] = {
    cmocka_unit_test_teardown(test_reserve_misuse, counter_restore_default),
    cmocka_unit_test_teardown(test_reserve_out_of_memory, counter_restore_default),
    cmocka_unit_test_teardown(test_reserve_same_world, counter_restore_default),
    cmocka_unit_test_teardown(test_reserve_room, counter_restore_default),
};
