// A moved body is the body created there. cw_body_set_transform() takes a short path (no shape
// checks; a box keeps only its SAT form and AABB; the rotation's cosine and sine are kept when the
// rotation is the same float; the rounding check is skipped for moderate placements), so every
// move is compared with a fresh computation from the shape and transform: the AABB byte for byte
// (cw_shape_aabb) and the contact with a probe after a step (cw_overlap). The transforms straddle
// the bounds of the moderate placement (positions near 2^16, pivots and box sides near 2^14,
// scales near 2^-4 and 2^4) and go far beyond them.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "suites.h"

// A value near a bound of the moderate placement, or far beyond, or ordinary; random sign.
static float edge_value(gen_rng *r, float ordinary)
{
    static const float edges[] = {65535.99f, 65536.0f, 65536.01f, 16383.999f, 16384.0f, 16384.002f, 1e7f, 3e30f};
    float v = gen_chance(r, 0.6) ? ordinary : edges[gen_int(r, 0, (int)(sizeof edges / sizeof edges[0]) - 1)];
    return gen_chance(r, 0.5) ? v : -v;
}

static float edge_scale(gen_rng *r, float ordinary)
{
    static const float edges[] = {0.0624999f, 0.0625f, 0.0625001f, 15.999999f, 16.0f, 16.000002f, 1e-3f, 300.0f};
    float v = gen_chance(r, 0.7) ? ordinary : edges[gen_int(r, 0, (int)(sizeof edges / sizeof edges[0]) - 1)];
    return gen_chance(r, 0.1) ? -v : v;
}

// The next transform of a moving body: a random one with edge values mixed in; the rotation kept
// half the time (the path that reuses its cosine and sine).
static cw_transform next_transform(gen_rng *r, const gen_shape *s, const cw_transform *previous)
{
    cw_transform t;
    gen_random_transform(r, s, &t);
    t.position = (cw_vec2){(float)gen_range(r, -40, 40), (float)gen_range(r, -40, 40)};
    if (gen_chance(r, 0.3))
        t.position = (cw_vec2){edge_value(r, t.position.x), edge_value(r, t.position.y)};
    if (gen_chance(r, 0.2))
        t.origin = (cw_vec2){edge_value(r, t.origin.x), edge_value(r, t.origin.y)};
    if (gen_chance(r, 0.2))
        t.scale = (cw_vec2){edge_scale(r, t.scale.x), edge_scale(r, t.scale.y)};
    if (gen_chance(r, 0.5))
        t.rotation = previous->rotation;
    return t;
}

static void expect_same_aabb(cw_world *w, cw_body_id id, const cw_shape *s, const cw_transform *t, uint64_t seed)
{
    cw_aabb got, want;
    assert_true(cw_body_aabb(w, id, &got));
    assert_true(cw_shape_aabb(s, t, &want));
    if (memcmp(&got, &want, sizeof got) != 0) {
        printf("  seed %#llx: moved body's AABB (%a, %a)-(%a, %a), created there (%a, %a)-(%a, %a)\n",
               (unsigned long long)seed, (double)got.min.x, (double)got.min.y, (double)got.max.x, (double)got.max.y,
               (double)want.min.x, (double)want.min.y, (double)want.max.x, (double)want.max.y);
        fail_msg("a moved body's AABB differs from the same body created there");
    }
}

static void random_shape(gen_rng *r, gen_shape *s)
{
    bool box = !gen_chance(r, 0.5);
    assert_true(gen_random_shape(r, s, box));
    if (box && gen_chance(r, 0.15)) { // sides at the moderate bound
        float side = gen_chance(r, 0.5) ? 16383.999f : 16384.0f;
        gen_box_shape(s, gen_chance(r, 0.5) ? side : s->box_w, side);
    }
}

// One case: a body and a probe; the body moves several times; after each move its AABB is compared
// and, after a step, its contact with the probe.
static void run_case(uint64_t seed)
{
    gen_rng r = gen_seed(seed);
    gen_shape body_shape, probe_shape;
    random_shape(&r, &body_shape);
    random_shape(&r, &probe_shape);
    cw_transform tb, tp;
    gen_random_transform(&r, &body_shape, &tb);
    gen_random_transform(&r, &probe_shape, &tp);
    cw_world_def wd = cw_default_world_def();
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_body_def def = cw_default_body_def();
    def.shape = body_shape.shape;
    def.transform = tb;
    cw_body_id body = cw_body_create(w, &def);
    def.shape = probe_shape.shape;
    def.transform = tp;
    cw_body_id probe = cw_body_create(w, &def);
    assert_false(cw_body_id_is_null(body) || cw_body_id_is_null(probe));
    for (int move = 0; move < 6; move++) {
        tb = next_transform(&r, &body_shape, &tb);
        assert_true(cw_body_set_transform(w, body, &tb));
        expect_same_aabb(w, body, &body_shape.shape, &tb, seed);
        cw_world_step(w);
        bool want = cw_overlap(&body_shape.shape, &tb, &probe_shape.shape, &tp, NULL);
        if (cw_pair_touching(w, body, probe) != want) {
            printf("  seed %#llx, move %d: the world says %s, cw_overlap says %s\n", (unsigned long long)seed, move,
                   want ? "apart" : "touching", want ? "touching" : "apart");
            fail_msg("a moved body's contact differs from the same body created there");
        }
    }
    cw_world_destroy(w);
    gen_shape_free(&body_shape);
    gen_shape_free(&probe_shape);
}

static void test_moved_is_created(void **state)
{
    (void)state;
    int cases = gen_scaled(1500);
    for (int k = 0; k < cases; k++)
        run_case(0x6d6f7665ull << 32 | (uint64_t)k);
}

// A bad transform on the short path fails with the error and leaves the body as it was, box or mask.
static void test_bad_moves_change_nothing(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0x6261646dull);
    gen_shape shapes[2];
    gen_random_box(&r, &shapes[0]);
    assert_true(gen_random_mask(&r, &shapes[1]));
    const float inf = INFINITY, nan = NAN;
    for (int k = 0; k < 2; k++) {
        cw_world_def wd = cw_default_world_def();
        cw_world *w = cw_world_create(&wd);
        assert_non_null(w);
        cw_body_def def = cw_default_body_def();
        def.shape = shapes[k].shape;
        def.transform.rotation = 0.5f;
        cw_body_id id = cw_body_create(w, &def);
        assert_false(cw_body_id_is_null(id));
        cw_aabb before;
        assert_true(cw_body_aabb(w, id, &before));
        struct {
            float *field;
            float value;
            const char *message;
        } bad[] = {
            {&def.transform.rotation, nan, "The transform has a non-finite position, rotation, scale or origin."},
            {&def.transform.rotation, inf, "The transform has a non-finite position, rotation, scale or origin."},
            {&def.transform.position.x, nan, "The transform has a non-finite position, rotation, scale or origin."},
            {&def.transform.origin.y, -inf, "The transform has a non-finite position, rotation, scale or origin."},
            {&def.transform.scale.x, inf, "The transform has a non-finite position, rotation, scale or origin."},
            {&def.transform.scale.y, 0.0f, "The transform has a zero scale."},
            {&def.transform.scale.x, -0.0f, "The transform has a zero scale."},
        };
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            cw_transform good = def.transform;
            *bad[b].field = bad[b].value;
            cw_clear_error();
            assert_false(cw_body_set_transform(w, id, &def.transform));
            assert_string_equal(cw_last_error(), bad[b].message);
            def.transform = good;
            cw_transform now = cw_body_transform(w, id);
            assert_memory_equal(&now, &good, sizeof now);
            cw_aabb after;
            assert_true(cw_body_aabb(w, id, &after));
            assert_memory_equal(&after, &before, sizeof after);
        }
        cw_world_destroy(w);
    }
    gen_shape_free(&shapes[0]);
    gen_shape_free(&shapes[1]);
}

const struct CMUnitTest move_tests[MOVE_TEST_COUNT] = {
    cmocka_unit_test(test_moved_is_created),
    cmocka_unit_test(test_bad_moves_change_nothing),
};
