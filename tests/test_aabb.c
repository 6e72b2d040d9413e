// cw_shape_aabb() of a box is its exact bounds rounded outward to floats: the box holds them and
// is the tightest float box that does (one float step in from any side would cut into them). The
// reference bounds are the four corners, mapped in long double by the transform's formula with
// libm's cosine and sine; the check allows their rounding (far below a float step) and nothing
// more. Placements are moderate (beyond them the box is widened on purpose), ordinary or tiny
// (sides in the subnormal floats, near the origin: the rounding steps across zero), and the world's
// copy of each box, moved there (cw_body_aabb: cw_body_set_transform's short path), is the same bytes.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "suites.h"

typedef struct bounds {
    long double lo_x, lo_y, hi_x, hi_y, reach; // reach: how far the corners lie, for the tolerance
} bounds;

static bounds reference_bounds(float w, float h, const cw_transform *t)
{
    long double c = cosl(t->rotation), s = sinl(t->rotation);
    bounds b = {INFINITY, INFINITY, -INFINITY, -INFINITY, 0};
    for (int k = 0; k < 4; k++) {
        long double lx = ((k & 1) ? w : 0) - (long double)t->origin.x, ly = ((k & 2) ? h : 0) - (long double)t->origin.y;
        lx *= t->scale.x, ly *= t->scale.y;
        long double x = t->position.x + c * lx - s * ly, y = t->position.y + s * lx + c * ly;
        b.lo_x = fminl(b.lo_x, x), b.hi_x = fmaxl(b.hi_x, x);
        b.lo_y = fminl(b.lo_y, y), b.hi_y = fmaxl(b.hi_y, y);
        b.reach = fmaxl(b.reach, fabsl(t->position.x) + fabsl(t->position.y) + fabsl(lx) + fabsl(ly));
    }
    return b;
}

// Whether `got` is `exact` rounded toward -inf (down) or +inf, up to `slack` (the reference's own
// rounding): on the right side of it, and its neighbour inward on the wrong side.
static bool rounds_outward(float got, long double exact, long double slack, bool up)
{
    float inward = nextafterf(got, up ? -INFINITY : INFINITY);
    return up ? got >= exact - slack && inward < exact + slack : got <= exact + slack && inward > exact - slack;
}

// A random placement of a box: ordinary (sides 0.01-1000, positions within 2^15) or tiny (sides
// and positions among the subnormal floats and just above, so sides of the box lie near zero).
static void random_box(gen_rng *r, float *w, float *h, cw_transform *t)
{
    bool tiny = gen_chance(r, 0.3);
    double unit = tiny ? 1e-42 : 1.0;
    *w = (float)(unit * exp(gen_range(r, log(0.01), log(1000.0))));
    *h = (float)(unit * exp(gen_range(r, log(0.01), log(1000.0))));
    if (!(*w > 0))
        *w = FLT_TRUE_MIN;
    if (!(*h > 0))
        *h = FLT_TRUE_MIN;
    double reach = tiny ? 1e-40 : 32000.0;
    t->position = (cw_vec2){(float)gen_range(r, -reach, reach), (float)gen_range(r, -reach, reach)};
    t->rotation = gen_chance(r, 0.2) ? 0.0f : (float)gen_range(r, -7, 7);
    t->scale.x = (float)(gen_chance(r, 0.5) ? 1.0 : gen_range(r, 0.1, 8)) * (gen_chance(r, 0.2) ? -1 : 1);
    t->scale.y = (float)(gen_chance(r, 0.5) ? 1.0 : gen_range(r, 0.1, 8)) * (gen_chance(r, 0.2) ? -1 : 1);
    t->origin = (cw_vec2){(float)(*w * gen_range(r, -0.5, 1.5)), (float)(*h * gen_range(r, -0.5, 1.5))};
}

static void test_box_aabb_rounds_outward(void **state)
{
    (void)state;
    cw_world_def def = cw_default_world_def();
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    int cases = gen_scaled(20000), checked_tiny = 0;
    gen_rng r = gen_seed(0xAABB);
    for (int i = 0; i < cases; i++) {
        float w, h;
        cw_transform t;
        random_box(&r, &w, &h, &t);
        cw_shape shape = cw_shape_box(w, h);
        cw_aabb got, in_world;
        assert_true(cw_shape_aabb(&shape, &t, &got));
        bounds want = reference_bounds(w, h, &t);
        // The library maps in double from a double cosine and sine: its corners are within a few
        // units of the last place of double of the reach, a 2^-29 float step.
        long double slack = want.reach * 1e-15L;
        bool ok = rounds_outward(got.min.x, want.lo_x, slack, false) && rounds_outward(got.min.y, want.lo_y, slack, false) &&
                  rounds_outward(got.max.x, want.hi_x, slack, true) && rounds_outward(got.max.y, want.hi_y, slack, true);
        if (!ok) {
            printf("  case %d: box %a x %a at (%a, %a) turned %a, scale (%a, %a), origin (%a, %a)\n", i, (double)w,
                   (double)h, (double)t.position.x, (double)t.position.y, (double)t.rotation, (double)t.scale.x,
                   (double)t.scale.y, (double)t.origin.x, (double)t.origin.y);
            printf("  got (%a, %a)-(%a, %a), exact (%La, %La)-(%La, %La)\n", (double)got.min.x, (double)got.min.y,
                   (double)got.max.x, (double)got.max.y, want.lo_x, want.lo_y, want.hi_x, want.hi_y);
            fail_msg("cw_shape_aabb is not the exact bounds rounded outward to floats");
        }
        checked_tiny += fabsl(want.lo_x) < 1e-38L;
        cw_body_def body = cw_default_body_def(); // created unmoved, then moved: the short path
        body.shape = shape;
        cw_body_id id = cw_body_create(world, &body);
        assert_true(cw_body_set_transform(world, id, &t));
        assert_true(cw_body_aabb(world, id, &in_world));
        assert_memory_equal(&in_world, &got, sizeof got);
        cw_body_destroy(world, id);
    }
    assert_true(checked_tiny > cases / 10); // the subnormal sides were reached
    cw_world_destroy(world);
}

const struct CMUnitTest aabb_tests[] = {
    cmocka_unit_test(test_box_aabb_rounds_outward),
};
