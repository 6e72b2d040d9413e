// A world's body ids and its misuse: stale, null and never-issued ids are refused with an error and
// change nothing, ids are never handed out twice (and the same calls give the same ids); NULL
// arguments, invalid shapes and transforms, bad cell sizes, and a step or destroy from inside a
// callback fail with the exact error and leave the world as it was.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "expect_error.h"
#include "gen.h"
#include "suites.h"
#include "world_helpers.h"
#include "world_ref.h"

// --- stale and null ids ---

static void expect_rejected(cw_world *w, cw_body_id id, const char *word)
{
    cw_transform good = wh_at(1, 2);
    cw_shape shape = cw_shape_box(2, 2);
    cw_clear_error();
    assert_false(cw_body_is_valid(w, id));
    expect_no_error(); // no error is recorded either way
    cw_clear_error();
    assert_false(cw_body_set_transform(w, id, &good));
    expect_error(word);
    cw_clear_error();
    assert_false(cw_body_set_shape(w, id, &shape));
    expect_error(word);
    cw_clear_error();
    assert_false(cw_body_set_filter(w, id, 1, 1));
    expect_error(word);
    cw_clear_error();
    assert_false(cw_body_set_user_data(w, id, &wh_users[5]));
    expect_error(word);
    cw_clear_error();
    cw_transform t = cw_body_transform(w, id);
    cw_transform identity = cw_default_transform();
    assert_memory_equal(&t, &identity, sizeof t);
    expect_error(word);
    cw_clear_error();
    cw_shape s = cw_body_shape(w, id);
    assert_int_equal(s.type, 0);
    assert_true(s.size.x == 0 && s.size.y == 0);
    assert_null(s.mask);
    expect_error(word);
    cw_clear_error();
    assert_null(cw_body_user_data(w, id));
    expect_error(word);
    cw_clear_error();
    uint32_t cat = 77, col = 77;
    assert_false(cw_body_filter(w, id, &cat, &col));
    expect_error(word);
    cw_clear_error();
    assert_false(cw_body_is_static(w, id));
    expect_error(word);
    cw_clear_error();
    cw_aabb box;
    assert_false(cw_body_aabb(w, id, &box));
    expect_error(word);
    cw_clear_error();
    cw_body_destroy(w, id);
    expect_error(word);
}

static void test_stale_ids(void **state)
{
    (void)state;
    wr_world *w = wh_make_world("stale ids", NULL, NULL);
    cw_world *cw = wr_cw(w);
    int a = wh_add_box(w, 0, 0, 10, 10, false, &wh_users[0], 0);
    int b = wh_add_box(w, 5, 5, 10, 10, true, &wh_users[1], 0);
    STEP(w);
    cw_body_id old_a = wr_id(w, a);
    wr_body_destroy(w, a);
    int c = wh_add_box(w, 1, 1, 10, 10, false, &wh_users[2], 0); // likely in A's slot
    cw_body_id id_c = wr_id(w, c);
    if (id_c.index == old_a.index)
        assert_true(id_c.generation != old_a.generation);
    else
        printf("  note: the new body did not reuse the freed slot (%u vs %u)\n", id_c.index, old_a.index);
    expect_rejected(cw, old_a, "stale");
    // None of that touched C.
    cw_transform tc = cw_body_transform(cw, id_c);
    assert_true(tc.position.x == 1.0f && tc.position.y == 1.0f);
    assert_ptr_equal(cw_body_user_data(cw, id_c), &wh_users[2]);
    assert_true(cw_body_is_valid(cw, id_c));
    STEP(w); // end (A, B) with A's old id, begin (B, C); the stale calls changed nothing
    assert_int_equal(wr_count_events(w, WR_END, a, b), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, b, c), 1);
    expect_rejected(cw, old_a, "stale");
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_STAY, b, c), 1);
    assert_int_equal(wh_count_phase(w, WR_END), 0);
    // Null id and ids that never existed.
    expect_rejected(cw, (cw_body_id){0, 0}, "null");
    expect_rejected(cw, (cw_body_id){id_c.index, 0}, "stale");
    expect_rejected(cw, (cw_body_id){id_c.index, id_c.generation + 1}, "stale");
    expect_rejected(cw, (cw_body_id){id_c.index + 1000, 1}, "stale");
    expect_rejected(cw, (cw_body_id){UINT32_MAX, UINT32_MAX}, "stale");
    expect_rejected(cw, (cw_body_id){0, 1}, "stale");
    STEP(w);
    assert_int_equal(wh_count_phase(w, WR_END) + wh_count_phase(w, WR_BEGIN), 0);
    // A body destroyed twice: the second destroy is a no-op with an error.
    wr_body_destroy(w, c);
    cw_clear_error();
    cw_body_destroy(cw, id_c);
    expect_error("stale");
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, b, c), 1);
    wh_finish(w);
}

// Many destroy/create cycles: every id is new, old ones stay invalid; a new world given the same
// calls hands out the same ids.
static void test_id_reuse(void **state)
{
    (void)state;
    enum { N = 40, CYCLES = 600 };
    cw_body_id first[N], again[N];
    for (int round = 0; round < 2; round++) {
        cw_body_id ids[N];
        cw_world_def wd = cw_default_world_def();
        cw_world *w = cw_world_create(&wd);
        assert_non_null(w);
        cw_body_def def = cw_default_body_def();
        for (int k = 0; k < N; k++) {
            def.transform = wh_at((float)(3 * k), 0);
            ids[k] = cw_body_create(w, &def);
            assert_false(cw_body_id_is_null(ids[k]));
        }
        memcpy(round ? again : first, ids, sizeof ids);
        if (round == 1)
            assert_memory_equal(first, again, sizeof first);
        cw_world_step(w);
        // Cycle one slot (and sometimes several) many times.
        static cw_body_id seen[CYCLES + N];
        int n_seen = 0;
        for (int k = 0; k < N; k++)
            seen[n_seen++] = ids[k];
        gen_rng r = gen_seed(77);
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            int k = gen_int(&r, 0, N - 1);
            cw_body_id old = ids[k];
            cw_body_destroy(w, old);
            assert_false(cw_body_is_valid(w, old));
            def.transform = wh_at((float)(3 * k), 0);
            ids[k] = cw_body_create(w, &def);
            assert_false(cw_body_id_is_null(ids[k]));
            assert_true(ids[k].index >= 1 && ids[k].generation >= 1);
            for (int j = 0; j < n_seen; j++)
                assert_false(seen[j].index == ids[k].index && seen[j].generation == ids[k].generation);
            seen[n_seen++] = ids[k];
            if (cycle % 50 == 0)
                cw_world_step(w);
        }
        int valid = 0;
        for (int j = 0; j < n_seen; j++)
            valid += cw_body_is_valid(w, seen[j]);
        assert_int_equal(valid, N);
        cw_world_step(w);
        assert_int_equal(cw_world_get_stats(w).bodies, N);
        cw_world_destroy(w);
    }
}

// --- misuse ---

static void test_null_arguments(void **state)
{
    (void)state;
    cw_body_def def = cw_default_body_def();
    cw_body_id some = {1, 1};
    cw_transform t = cw_default_transform();
    cw_shape s = cw_shape_box(1, 1);
    cw_clear_error();
    assert_null(cw_world_create(NULL));
    expect_error("NULL");
    cw_clear_error();
    cw_world_destroy(NULL); // ignored
    cw_clear_error();
    cw_world_step(NULL);
    expect_error("NULL");
    cw_world_stats st = cw_world_get_stats(NULL);
    assert_int_equal(st.bodies + st.static_bodies + st.touching_pairs + st.begin_events + st.end_events, 0);
    assert_true(st.cell_size == 0 && st.broad_ms == 0);
    cw_clear_error();
    assert_true(cw_body_id_is_null(cw_body_create(NULL, &def)));
    expect_error("NULL");
    cw_clear_error();
    cw_body_destroy(NULL, some);
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_is_valid(NULL, some));
    expect_no_error();
    cw_clear_error();
    assert_false(cw_body_set_transform(NULL, some, &t));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_set_shape(NULL, some, &s));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_set_filter(NULL, some, 1, 1));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_set_user_data(NULL, some, NULL));
    expect_error("NULL");
    cw_clear_error();
    cw_transform got = cw_body_transform(NULL, some);
    assert_memory_equal(&got, &t, sizeof t);
    expect_error("NULL");
    cw_clear_error();
    assert_int_equal(cw_body_shape(NULL, some).type, 0);
    expect_error("NULL");
    cw_clear_error();
    assert_null(cw_body_user_data(NULL, some));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_filter(NULL, some, NULL, NULL));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_is_static(NULL, some));
    expect_error("NULL");
    cw_aabb box;
    cw_clear_error();
    assert_false(cw_body_aabb(NULL, some, &box));
    expect_error("NULL");

    // NULL def, transform, shape with a real world and body.
    cw_world_def wd = cw_default_world_def();
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_clear_error();
    assert_true(cw_body_id_is_null(cw_body_create(w, NULL)));
    expect_error("NULL");
    def.transform = wh_at(3, 4);
    cw_body_id id = cw_body_create(w, &def);
    assert_false(cw_body_id_is_null(id));
    cw_clear_error();
    assert_false(cw_body_set_transform(w, id, NULL));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_set_shape(w, id, NULL));
    expect_error("NULL");
    uint32_t cat = 0, col = 0;
    assert_true(cw_body_filter(w, id, NULL, NULL));
    assert_true(cw_body_filter(w, id, &cat, NULL));
    assert_int_equal(cat, 1);
    assert_true(cw_body_filter(w, id, NULL, &col));
    assert_int_equal(col, UINT32_MAX);
    cw_clear_error();
    assert_false(cw_body_aabb(w, id, NULL));
    expect_error("NULL");
    got = cw_body_transform(w, id);
    assert_true(got.position.x == 3.0f && got.position.y == 4.0f);
    cw_clear_error();
    cw_world_step(w);
    expect_no_error();
    assert_int_equal(cw_world_get_stats(w).bodies, 1);
    cw_world_destroy(w);
}

static void test_invalid_shapes_and_transforms(void **state)
{
    (void)state;
    wr_world *w = wh_make_world("invalid input", NULL, NULL);
    cw_world *cw = wr_cw(w);
    int a = wh_add_box(w, 0, 0, 10, 10, false, &wh_users[0], 0);
    int b = wh_add_box(w, 5, 5, 4, 4, false, &wh_users[1], 0);
    STEP(w);
    cw_transform ta = wr_transform(w, a);
    cw_shape sa = cw_body_shape(cw, wr_id(w, a));
    uint8_t opaque = 255;
    cw_mask *mask = cw_mask_from_alpha(&opaque, 1, 1, 1, 128);
    assert_non_null(mask);

    struct bad_shape {
        cw_shape shape;
        const char *word;
    } shapes[] = {
        {cw_shape_box(0, 1), "box"},         {cw_shape_box(1, -0.0f), "box"},   {cw_shape_box(-3, 2), "box"},
        {cw_shape_box(NAN, 1), "box"},       {cw_shape_box(1, INFINITY), "box"}, {cw_shape_box(-INFINITY, 1), "box"},
        {cw_shape_mask(NULL), "mask"},       {cw_shape_box(1, 1), "type"},      {cw_shape_box(1, 1), "type"},
    };
    shapes[7].shape.type = (cw_shape_type)7;
    shapes[8].shape.type = (cw_shape_type)0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        cw_body_def def = cw_default_body_def();
        def.shape = shapes[k].shape;
        cw_clear_error();
        assert_true(cw_body_id_is_null(cw_body_create(cw, &def)));
        expect_error(shapes[k].word);
        cw_clear_error();
        assert_false(cw_body_set_shape(cw, wr_id(w, a), &shapes[k].shape));
        expect_error(shapes[k].word);
        cw_shape now = cw_body_shape(cw, wr_id(w, a)); // unchanged
        assert_true(now.type == sa.type && now.size.x == sa.size.x && now.size.y == sa.size.y && now.mask == sa.mask);
    }
    static const float bad_values[] = {NAN, INFINITY, -INFINITY};
    for (int field = 0; field < 7; field++)
        for (size_t v = 0; v < 3; v++) {
            cw_transform bad = cw_default_transform();
            float *f[7] = {&bad.position.x, &bad.position.y, &bad.rotation, &bad.scale.x,
                           &bad.scale.y,    &bad.origin.x,   &bad.origin.y};
            *f[field] = bad_values[v];
            cw_body_def def = cw_default_body_def();
            def.transform = bad;
            cw_clear_error();
            assert_true(cw_body_id_is_null(cw_body_create(cw, &def)));
            expect_error("finite");
            def.shape = cw_shape_mask(mask);
            cw_clear_error();
            assert_true(cw_body_id_is_null(cw_body_create(cw, &def)));
            expect_error("finite");
            cw_clear_error();
            assert_false(cw_body_set_transform(cw, wr_id(w, a), &bad));
            expect_error("finite");
            cw_transform now = cw_body_transform(cw, wr_id(w, a));
            assert_memory_equal(&now, &ta, sizeof now);
        }
    static const float zeros[] = {0.0f, -0.0f};
    for (int axis = 0; axis < 2; axis++)
        for (int z = 0; z < 2; z++) {
            cw_transform bad = cw_default_transform();
            if (axis)
                bad.scale.y = zeros[z];
            else
                bad.scale.x = zeros[z];
            cw_body_def def = cw_default_body_def();
            def.transform = bad;
            cw_clear_error();
            assert_true(cw_body_id_is_null(cw_body_create(cw, &def)));
            expect_error("scale");
            cw_clear_error();
            assert_false(cw_body_set_transform(cw, wr_id(w, b), &bad));
            expect_error("scale");
        }
    // The failed calls changed nothing: the pair stays, nothing begins or ends, no body was added.
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_STAY, a, b), 1);
    assert_int_equal(wh_count_phase(w, WR_BEGIN) + wh_count_phase(w, WR_END), 0);
    assert_int_equal(cw_world_get_stats(cw).bodies, 2);
    wh_finish(w);
    cw_mask_destroy(mask);
}

static void test_cell_size_errors(void **state)
{
    (void)state;
    // Below CW_MIN_CELL_SIZE the grid's reciprocal would overflow (the smallest denormal did).
    static const float bad[] = {-1.0f, -1e-30f, -INFINITY, INFINITY, NAN, -NAN, 1e-45f, 1e-30f, 9.9e-4f};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        cw_world_def def = cw_default_world_def();
        def.cell_size = bad[k];
        cw_clear_error();
        assert_null(cw_world_create(&def));
        expect_error("cell");
    }
    static const float good[] = {0.0f, -0.0f, 1e-3f, 1.0f, 64.0f, 1e6f};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        cw_world_def def = cw_default_world_def();
        def.cell_size = good[k];
        cw_clear_error();
        cw_world *w = cw_world_create(&def);
        assert_non_null(w);
        expect_no_error();
        cw_body_def bd = cw_default_body_def();
        bd.shape = cw_shape_box(3, 3);
        assert_false(cw_body_id_is_null(cw_body_create(w, &bd)));
        bd.transform = wh_at(2, 2);
        assert_false(cw_body_id_is_null(cw_body_create(w, &bd)));
        cw_world_step(w);
        expect_no_error();
        cw_world_stats st = cw_world_get_stats(w);
        assert_int_equal(st.touching_pairs, 1);
        if (good[k] > 0)
            assert_true(st.cell_size == good[k]);
        else
            assert_true(st.cell_size > 0);
        cw_world_destroy(w);
    }
}

// cw_world_step and cw_world_destroy from inside callbacks fail, and the outer step completes.
typedef struct nested {
    int tries, step_ok, destroy_ok;
} nested;

static void nested_hook(wr_world *w, int phase, const cw_contact *c, void *context)
{
    (void)c;
    (void)phase;
    nested *n = context;
    n->tries++;
    cw_clear_error();
    cw_world_step(wr_cw(w));
    n->step_ok += gen_contains_nocase(cw_last_error(), "callback");
    cw_clear_error();
    cw_world_destroy(wr_cw(w));
    n->destroy_ok += gen_contains_nocase(cw_last_error(), "callback");
    cw_clear_error();
}

static void test_step_and_destroy_in_callback(void **state)
{
    (void)state;
    nested n = {0, 0, 0};
    wr_world *w = wh_make_world("nested step", nested_hook, &n);
    int a = wh_add_box(w, 0, 0, 10, 10, false, NULL, 0);
    int b = wh_add_box(w, 5, 5, 10, 10, false, NULL, 0);
    int c = wh_add_box(w, 8, 8, 10, 10, false, NULL, 0);
    STEP(w); // three begins, each trying a nested step and a destroy
    assert_int_equal(n.tries, 3);
    assert_int_equal(n.step_ok, 3);
    assert_int_equal(n.destroy_ok, 3);
    assert_int_equal(wh_count_phase(w, WR_BEGIN), 3);
    STEP(w); // stays
    assert_int_equal(wh_count_phase(w, WR_STAY), 3);
    cw_transform t = wh_at(100, 100);
    wr_set_transform(w, c, &t);
    STEP(w); // two ends, and a and b stay
    assert_int_equal(wh_count_phase(w, WR_END), 2);
    assert_int_equal(wh_count_phase(w, WR_STAY), 1);
    assert_int_equal(n.tries, 9);
    assert_int_equal(n.step_ok, 9);
    assert_int_equal(n.destroy_ok, 9);
    // The world is still fine.
    for (int k = 0; k < 5; k++) {
        t = wh_at((float)k, 0);
        wr_set_transform(w, a, &t);
        STEP(w);
    }
    (void)b;
    wh_finish(w);
}

const struct CMUnitTest world_misuse_tests[] = {
    cmocka_unit_test(test_stale_ids),
    cmocka_unit_test(test_id_reuse),
    cmocka_unit_test(test_null_arguments),
    cmocka_unit_test(test_invalid_shapes_and_transforms),
    cmocka_unit_test(test_cell_size_errors),
    cmocka_unit_test(test_step_and_destroy_in_callback),
};
