// What a world makes only when it is first used, and how that first use behaves when memory runs
// out: the list of swept bodies (grown with them, not with the slots), the body index behind
// cw_body_touching() (built by its first call, kept by the steps after) and each query lane's
// marks (made by the lane's first query). Each first use can fail with "Out of memory", changes
// nothing then, and works once memory is back. Public API only.
#include <stdint.h>
#include <stdio.h>

#include "counting.h"
#include "gen.h"
#include "suites.h"

// The list of swept bodies grows with them (not with the slots): making a body swept, by its def or
// later, is the one change of an existing body that can run out of memory, and then nothing changes.
static void test_swept_list_out_of_memory(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    cw_world_def def = cw_default_world_def();
    def.body_capacity = 64; // so that the swept list is the only thing a body's creation allocates
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    cw_body_def body = cw_default_body_def();
    body.shape = cw_shape_box(10, 10);
    cw_body_id plain = cw_body_create(w, &body);
    assert_false(cw_body_id_is_null(plain));
    body.swept = true;
    body.transform.position = (cw_vec2){5, 0};
    counter_arm(&cnt, 1);
    assert_true(cw_body_id_is_null(cw_body_create(w, &body)));
    assert_string_equal(cw_last_error(), "Out of memory: the allocator returned NULL.");
    assert_int_equal(cw_world_get_stats(w).bodies, 1);
    counter_arm(&cnt, 1);
    assert_false(cw_body_set_swept(w, plain, true));
    assert_string_equal(cw_last_error(), "Out of memory: the allocator returned NULL.");
    assert_false(cw_body_is_swept(w, plain));
    counter_arm(&cnt, 0);
    cw_world_step(w); // the world goes on: one body, nothing touches
    assert_int_equal(cw_world_get_stats(w).touching_pairs, 0);
    // With memory back: both ways work, and the swept body meets the plain one.
    cw_body_id fast = cw_body_create(w, &body);
    assert_false(cw_body_id_is_null(fast));
    assert_true(cw_body_set_swept(w, plain, true));
    assert_true(cw_body_is_swept(w, plain) && cw_body_is_swept(w, fast));
    cw_world_step(w);
    assert_true(cw_pair_touching(w, plain, fast));
    assert_true(cw_body_set_swept(w, plain, false));
    assert_false(cw_body_is_swept(w, plain));
    cw_world_destroy(w);
    counter_expect_no_leak(&cnt);
}

// The body index (cw_body_touching()'s lower partners) is built the first time it is asked for:
// until then a world holds nothing for it; the first ask can run out of memory at any of its
// allocations (and says so, the world unchanged and a later ask trying again); once built the steps keep it, and every answer is
// the pairs cw_pair_touching() names. (A warm world that asks allocates nothing: see above.)
static int partners_by_pairs(const cw_world *w, const cw_body_id *ids, int n, int k)
{
    int count = 0;
    for (int j = 0; j < n; j++)
        count += j != k && cw_pair_touching(w, ids[k], ids[j]);
    return count;
}

enum { INDEX_BODIES = 300 };

// 300 boxes, overlapping a few others each, stepped three times (no index asked for yet).
static cw_world *index_world(cw_body_id *ids)
{
    cw_world_def def = cw_default_world_def();
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    gen_rng r = gen_seed(0x696e6478ull);
    for (int k = 0; k < INDEX_BODIES; k++) {
        cw_body_def body = cw_default_body_def();
        body.shape = cw_shape_box((float)gen_range(&r, 10, 60), (float)gen_range(&r, 10, 60));
        body.transform.position = (cw_vec2){(float)gen_range(&r, 0, 400), (float)gen_range(&r, 0, 400)};
        body.transform.rotation = (float)gen_range(&r, 0, 6.28);
        ids[k] = cw_body_create(w, &body);
    }
    for (int step = 0; step < 3; step++)
        cw_world_step(w);
    return w;
}

static void test_body_index_on_first_ask(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    enum { N = INDEX_BODIES };
    cw_body_id ids[N];
    cw_touch out[N];
    long failing = 1; // each allocation of the first ask fails in turn, in a world of its own
    for (bool reached = true; reached; failing++) {
        cw_world *w = index_world(ids);
        size_t before = cw_world_get_stats(w).bytes;
        long live = cnt.live_bytes;
        counter_arm(&cnt, failing);
        int got = cw_body_touching(w, ids[N - 1], out, N);
        reached = cnt.armed_calls >= failing;
        counter_arm(&cnt, 0);
        if (reached) {
            assert_int_equal(got, -1);
            assert_string_equal(cw_last_error(), "Out of memory: the allocator returned NULL.");
            assert_int_equal(cnt.live_bytes, live); // nothing kept from the failed build
            assert_int_equal(cw_world_get_stats(w).bytes, before);
            for (int k = N - 1; k >= 0; k--) // a later ask builds it
                assert_int_equal(cw_body_touching(w, ids[k], out, N), partners_by_pairs(w, ids, N, k));
        }
        cw_world_destroy(w);
    }
    assert_true(failing > 4); // the index's three link arrays at least
    cw_world *w = index_world(ids);
    size_t before = cw_world_get_stats(w).bytes;
    int pairs = cw_world_get_stats(w).touching_pairs;
    assert_true(pairs > N);
    for (int k = N - 1; k >= 0; k--)
        assert_int_equal(cw_body_touching(w, ids[k], out, N), partners_by_pairs(w, ids, N, k));
    size_t index_bytes = cw_world_get_stats(w).bytes - before;
    printf("  body index: built on the first ask (each of its %ld allocations failed in turn first), %zu bytes for %d "
           "pairs and %d bodies\n", failing - 2, index_bytes, pairs, N);
    assert_true(index_bytes >= (size_t)pairs * 4 * sizeof(uint32_t)); // three links and a set's node a pair
    for (int step = 0; step < 6; step++) { // moving on: the steps keep it
        for (int k = 0; k < N; k += 2) {
            cw_transform t = cw_body_transform(w, ids[k]);
            t.position.x += step % 2 ? -7.0f : 7.0f;
            assert_true(cw_body_set_transform(w, ids[k], &t));
        }
        cw_world_step(w);
        for (int k = 0; k < N; k++)
            assert_int_equal(cw_body_touching(w, ids[k], out, N), partners_by_pairs(w, ids, N, k));
    }
    cw_world_destroy(w);
    counter_expect_no_leak(&cnt);
}

// A query lane's marks are made by its first query: until then a world holds none; if memory runs
// out then, the query returns false and reports nothing, and the next one makes them.
static bool count_hits(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold;
    ++*(int *)context;
    return true;
}

static void test_query_lane_out_of_memory(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    cw_world_def def = cw_default_world_def();
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    gen_rng r = gen_seed(0x6c616e65ull);
    gen_add_boxes(w, &r, 500, 5, 40, 600, 6.28);
    cw_world_step(w);
    size_t before = cw_world_get_stats(w).bytes;
    cw_aabb everywhere = {{-100, -100}, {800, 800}};
    int found = 0;
    counter_arm(&cnt, 1);
    assert_false(cw_world_query_aabb(w, everywhere, cw_default_query_filter(), count_hits, &found));
    assert_string_equal(cw_last_error(), "Out of memory: the allocator returned NULL.");
    counter_arm(&cnt, 0);
    assert_int_equal(found, 0);
    assert_int_equal(cw_world_get_stats(w).bytes, before);
    assert_true(cw_world_query_aabb(w, everywhere, cw_default_query_filter(), count_hits, &found));
    assert_int_equal(found, 500);
    assert_true(cw_world_get_stats(w).bytes >= before + 500 * sizeof(uint16_t)); // a mark a slot
    long allocs = cnt.allocs;
    found = 0;
    assert_true(cw_world_query_aabb(w, everywhere, cw_default_query_filter(), count_hits, &found)); // made: no allocation
    assert_int_equal(found, 500);
    assert_int_equal(cnt.allocs, allocs);
    cw_world_destroy(w);
    counter_expect_no_leak(&cnt);
}

const struct CMUnitTest first_use_tests[FIRST_USE_TEST_COUNT] = {
    cmocka_unit_test_teardown(test_swept_list_out_of_memory, counter_restore_default),
    cmocka_unit_test_teardown(test_body_index_on_first_ask, counter_restore_default),
    cmocka_unit_test_teardown(test_query_lane_out_of_memory, counter_restore_default),
};
