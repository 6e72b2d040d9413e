// What a world gives back: the defaults of its defs (and an empty world's steps), and every body
// getter reading back what was set, on creation and after changes, with cw_body_aabb equal to
// cw_shape_aabb.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "expect_error.h"
#include "gen.h"
#include "suites.h"
#include "world_helpers.h"

// --- defaults ---

static void test_defaults(void **state)
{
    (void)state;
    cw_world_def wd = cw_default_world_def();
    assert_true(wd.cell_size == 0.0f);
    assert_null(wd.on_begin);
    assert_null(wd.on_stay);
    assert_null(wd.on_end);
    assert_null(wd.context);
    cw_body_def bd = cw_default_body_def();
    assert_int_equal(bd.shape.type, CW_SHAPE_BOX);
    assert_true(bd.shape.size.x == 1.0f && bd.shape.size.y == 1.0f);
    assert_null(bd.shape.mask);
    cw_transform id = cw_default_transform();
    assert_memory_equal(&bd.transform, &id, sizeof id);
    assert_int_equal(bd.category, 1);
    assert_int_equal(bd.collides_with, UINT32_MAX);
    assert_false(bd.is_static);
    assert_null(bd.user_data);
    assert_true(cw_body_id_is_null((cw_body_id){0, 0}));
    assert_false(cw_body_id_is_null((cw_body_id){1, 0}));
    assert_false(cw_body_id_is_null((cw_body_id){0, 1}));
    assert_false(cw_body_id_is_null((cw_body_id){1, 1}));
    // An empty world steps and reports nothing.
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_clear_error();
    for (int k = 0; k < 3; k++)
        cw_world_step(w);
    expect_no_error();
    cw_world_stats st = cw_world_get_stats(w);
    assert_int_equal(st.bodies, 0);
    assert_int_equal(st.touching_pairs, 0);
    assert_int_equal(st.begin_events + st.stay_events + st.end_events, 0);
    assert_true(st.cell_size > 0 && isfinite(st.cell_size));
    // Two default bodies (both 1 x 1 boxes at the origin) touch; without callbacks nothing is called.
    cw_body_id a = cw_body_create(w, &bd), b = cw_body_create(w, &bd);
    assert_false(cw_body_id_is_null(a));
    assert_false(cw_body_id_is_null(b));
    assert_true(a.index >= 1 && a.generation >= 1 && b.index >= 1 && b.generation >= 1);
    assert_true(a.index != b.index);
    cw_world_step(w);
    st = cw_world_get_stats(w);
    assert_int_equal(st.bodies, 2);
    assert_int_equal(st.static_bodies, 0);
    assert_int_equal(st.touching_pairs, 1);
    cw_world_destroy(w);
    expect_no_error();
}

// --- getters ---

static void expect_aabb_matches(cw_world *w, cw_body_id id, const cw_shape *s, const cw_transform *t)
{
    cw_aabb got, want;
    assert_true(cw_body_aabb(w, id, &got));
    assert_true(cw_shape_aabb(s, t, &want));
    if (!(got.min.x == want.min.x && got.min.y == want.min.y && got.max.x == want.max.x && got.max.y == want.max.y)) {
        printf("  cw_body_aabb (%a, %a)-(%a, %a) != cw_shape_aabb (%a, %a)-(%a, %a)\n", (double)got.min.x,
               (double)got.min.y, (double)got.max.x, (double)got.max.y, (double)want.min.x, (double)want.min.y,
               (double)want.max.x, (double)want.max.y);
        fail_msg("cw_body_aabb differs from cw_shape_aabb");
    }
}

static void test_getters(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0x6e77);
    cw_world_def wd = cw_default_world_def();
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    enum { N = 60 };
    gen_shape shapes[N];
    cw_body_id ids[N];
    cw_transform ts[N];
    uint32_t cats[N], cols[N];
    bool statics[N];
    int n_static = 0;
    for (int k = 0; k < N; k++) {
        if (k % 3 == 0)
            assert_true(gen_random_mask(&r, &shapes[k]));
        else
            gen_random_box(&r, &shapes[k]);
        gen_random_transform(&r, &shapes[k], &ts[k]);
        ts[k].position = (cw_vec2){(float)gen_range(&r, -500, 500), (float)gen_range(&r, -500, 500)};
        if (k % 10 == 9)
            ts[k].position.x += 50000.0f;
        cats[k] = (uint32_t)gen_next(&r);
        cols[k] = (uint32_t)gen_next(&r);
        statics[k] = gen_chance(&r, 0.3);
        n_static += statics[k];
        cw_body_def def = cw_default_body_def();
        def.shape = shapes[k].shape;
        def.transform = ts[k];
        def.category = cats[k];
        def.collides_with = cols[k];
        def.is_static = statics[k];
        def.user_data = &wh_users[k % 64];
        cw_clear_error();
        ids[k] = cw_body_create(w, &def);
        assert_false(cw_body_id_is_null(ids[k]));
        expect_no_error();
    }
    for (int pass = 0; pass < 3; pass++) {
        for (int k = 0; k < N; k++) {
            cw_clear_error();
            cw_transform t = cw_body_transform(w, ids[k]);
            assert_memory_equal(&t, &ts[k], sizeof t);
            cw_shape s = cw_body_shape(w, ids[k]);
            assert_int_equal(s.type, shapes[k].shape.type);
            assert_true(s.size.x == shapes[k].shape.size.x && s.size.y == shapes[k].shape.size.y);
            assert_ptr_equal(s.mask, shapes[k].shape.mask);
            uint32_t cat = 0, col = 0;
            assert_true(cw_body_filter(w, ids[k], &cat, &col));
            assert_int_equal(cat, cats[k]);
            assert_int_equal(col, cols[k]);
            assert_int_equal(cw_body_is_static(w, ids[k]), statics[k]);
            assert_ptr_equal(cw_body_user_data(w, ids[k]), &wh_users[(k + pass) % 64]);
            expect_aabb_matches(w, ids[k], &shapes[k].shape, &ts[k]);
            expect_no_error();
        }
        cw_world_step(w);
        cw_world_stats st = cw_world_get_stats(w);
        assert_int_equal(st.bodies, N);
        assert_int_equal(st.static_bodies, n_static);
        // Change everything and read it back (after a step, and before the next).
        for (int k = 0; k < N; k++) {
            int j = (k + 7) % N;
            gen_random_transform(&r, &shapes[j], &ts[k]);
            ts[k].position = (cw_vec2){(float)gen_range(&r, -500, 500), (float)gen_range(&r, -500, 500)};
            assert_true(cw_body_set_transform(w, ids[k], &ts[k]));
            if (pass == 1) { // a shape swap: boxes and masks trade places
                gen_shape tmp = shapes[k];
                shapes[k] = shapes[j];
                shapes[j] = tmp;
            }
            cats[k] = (uint32_t)gen_next(&r);
            cols[k] = (uint32_t)gen_next(&r);
            assert_true(cw_body_set_filter(w, ids[k], cats[k], cols[k]));
            assert_true(cw_body_set_user_data(w, ids[k], &wh_users[(k + pass + 1) % 64]));
        }
        if (pass == 1)
            for (int k = 0; k < N; k++)
                assert_true(cw_body_set_shape(w, ids[k], &shapes[k].shape));
    }
    // An empty mask: its AABB is the empty box at the position; it never touches.
    unsigned char *empty = calloc(16, 1);
    assert_non_null(empty);
    gen_shape e;
    assert_true(gen_mask_shape(&e, empty, 4, 4, GEN_EMPTY, 0, 1));
    cw_body_def def = cw_default_body_def();
    def.shape = e.shape;
    def.transform = wh_at(7, 9);
    def.transform.rotation = 0.7f;
    def.transform.scale = (cw_vec2){3, -2};
    cw_body_id eid = cw_body_create(w, &def);
    assert_false(cw_body_id_is_null(eid));
    expect_aabb_matches(w, eid, &e.shape, &def.transform);
    cw_aabb box;
    assert_true(cw_body_aabb(w, eid, &box));
    assert_true(box.min.x == box.max.x && box.min.y == box.max.y);
    assert_true(box.min.x == 7.0f && box.min.y == 9.0f); // at the transform's position
    def.shape = cw_shape_box(100, 100);
    def.transform = wh_at(0, 0);
    cw_body_id cover = cw_body_create(w, &def);
    cw_world_step(w);
    assert_int_equal(cw_world_get_stats(w).bodies, N + 2);
    (void)cover;
    cw_world_destroy(w);
    gen_shape_free(&e);
    for (int k = 0; k < N; k++)
        gen_shape_free(&shapes[k]);
}

const struct CMUnitTest world_getter_tests[] = {
    cmocka_unit_test(test_defaults),
    cmocka_unit_test(test_getters),
};
