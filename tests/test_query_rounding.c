// Point and ray queries within rounding of a body's edge. A shape's corner at its pivot lands exactly
// on its AABB, and the exact tests work in the shape's own frame, where a point a hair outside that
// AABB can round onto the closed side of an edge texel: the world must still report what the
// single-shape test reports (the fuzzer found the world skipping such a body on its AABB alone).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "suites.h"

static bool count_hit(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold;
    ++*(int *)context;
    return true;
}

// The pivot: a box's corner, or a mask's opaque texel's lower corner (the texel the local point
// (i, j) belongs to, half-open), so that rounding onto the pivot lands inside.
static cw_vec2 pivot_on_a_corner(gen_rng *r, const gen_shape *s)
{
    if (s->is_box)
        return (cw_vec2){s->box_w * (float)gen_int(r, 0, 1), s->box_h * (float)gen_int(r, 0, 1)};
    for (int tries = 0; tries < 100; tries++) {
        int i = gen_int(r, 0, s->w - 1), j = gen_int(r, 0, s->h - 1);
        if (s->solid[j * s->w + i])
            return (cw_vec2){(float)i, (float)j};
    }
    return (cw_vec2){0, 0};
}

// A shape pivoted on a texel corner, turned at random (huge angles too), queried at points a tiny
// distance from the pivot in random directions: the world's answer is cw_shape_contains_point's.
static void test_points_next_to_the_pivot(void **state)
{
    (void)state;
    int cases = gen_scaled(600), disagreements = 0, inside = 0;
    for (int k = 0; k < cases; k++) {
        gen_rng r = gen_seed(0x70697600ull + (uint64_t)k);
        gen_shape s;
        assert_true(gen_random_shape(&r, &s, k % 4 == 0));
        cw_transform t;
        gen_random_transform(&r, &s, &t);
        t.origin = pivot_on_a_corner(&r, &s);
        if (gen_chance(&r, 0.3))
            t.rotation = (float)gen_range(&r, -1e30, 1e30);
        t.position = (cw_vec2){0, 0}; // so that points a hair away from it are floats a hair away
        cw_world_def wd = cw_default_world_def();
        cw_world *world = cw_world_create(&wd);
        assert_non_null(world);
        cw_body_def def = cw_default_body_def();
        def.shape = s.shape;
        def.transform = t;
        assert_false(cw_body_id_is_null(cw_body_create(world, &def)));
        cw_world_step(world);
        for (int q = 0; q < 16; q++) {
            double angle = gen_range(&r, 0, 2 * GEN_PI), distance = pow(10.0, gen_range(&r, -35, -10));
            cw_vec2 p = {(float)(t.position.x + distance * cos(angle)), (float)(t.position.y + distance * sin(angle))};
            bool want = cw_shape_contains_point(&s.shape, &t, p);
            int got = 0;
            assert_true(cw_world_query_point(world, p, cw_default_query_filter(), count_hit, &got));
            inside += want;
            if (got != (int)want && ++disagreements <= 3)
                printf("  case %d: point (%a, %a): the world reports %d bodies, the shape test says %d\n", k,
                       (double)p.x, (double)p.y, got, want);
        }
        cw_world_destroy(world);
        gen_shape_free(&s);
    }
    printf("  %d shapes pivoted on a texel corner, 16 points next to the pivot each: %d inside, %d disagreements\n",
           cases, inside, disagreements);
    assert_true(inside > 0);
    assert_int_equal(disagreements, 0);
}

const struct CMUnitTest query_rounding_tests[QUERY_ROUNDING_TEST_COUNT] = {
    cmocka_unit_test(test_points_next_to_the_pivot),
};
