// Scale invariance: a whole case scaled by a power of two (positions, scales, translations, ray
// origins) is scaled exactly in float, and its local coordinates are the same numbers, so the
// answers the header defines in local units must not change: whether two shapes overlap (its
// tolerance is 1e-6 local units), whether and when a cast first touches, whether a point is inside,
// where a ray enters; and a manifold's normal, with its depth scaled. A tolerance written in world
// units somewhere would break it for small or large sprites. Random and near-contact pairs of every
// kind, far from the origin too, scaled by 2^-16 to 2^16 (far pairs to 2^6: positions stay
// moderate).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "suites.h"

#define MAX_PRINTED 8

typedef struct scaling_tally {
    int cases, overlaps, casts, rays, failures;
} scaling_tally;

static cw_transform scaled(cw_transform t, float f)
{
    t.position.x *= f, t.position.y *= f, t.scale.x *= f, t.scale.y *= f;
    return t;
}

static cw_vec2 scaled_vec(cw_vec2 v, float f) { return (cw_vec2){v.x * f, v.y * f}; }

static void scaling_failed(scaling_tally *t, const gen_case *c, int e, const char *what, double was, double now)
{
    if (t->failures++ >= MAX_PRINTED)
        return;
    printf("FAIL scaled by 2^%d: %s (%.9g at scale 1, %.9g scaled back)\n", e, what, was, now);
    gen_case_print(stdout, c);
}

// The overlap both ways round and the manifold: the same answer, the same normal, the depth scaled.
static void check_overlap(scaling_tally *t, const gen_case *c, int e, const cw_transform *sa, const cw_transform *sb)
{
    float f = ldexpf(1.0f, e);
    cw_manifold m0, m1;
    bool o0 = cw_overlap(&c->a.shape, &c->ta, &c->b.shape, &c->tb, &m0);
    bool o1 = cw_overlap(&c->a.shape, sa, &c->b.shape, sb, &m1);
    if (o1 != o0 || cw_overlap(&c->b.shape, sb, &c->a.shape, sa, NULL) != o0) {
        scaling_failed(t, c, e, "the overlap answer changed", o0, o1);
        return;
    }
    if (!o0)
        return;
    t->overlaps++;
    // The depth may end on a bisection whose step is capped at 1/64 world unit (manifold.c), so it
    // is compared to within a sixteenth of a texel of the finer body, in local units.
    double texel = fmin(fmin(fabs(c->ta.scale.x), fabs(c->ta.scale.y)), fmin(fabs(c->tb.scale.x), fabs(c->tb.scale.y)));
    if (fabs(m1.normal.x - m0.normal.x) > 1e-5 || fabs(m1.normal.y - m0.normal.y) > 1e-5)
        scaling_failed(t, c, e, "the manifold's normal changed (x)", m0.normal.x, m1.normal.x);
    else if (fabs(m1.depth / f - m0.depth) > 1e-5 * m0.depth + texel / 16)
        scaling_failed(t, c, e, "the manifold's depth did not scale", m0.depth, m1.depth / f);
}

// A moving by a random translation against B: the same hit, the same fraction.
static void check_cast(scaling_tally *t, const gen_case *c, int e, gen_rng *r, const cw_transform *sa,
                       const cw_transform *sb)
{
    float f = ldexpf(1.0f, e);
    cw_vec2 d = {(float)gen_range(r, -60, 60), (float)gen_range(r, -60, 60)};
    float f0 = -1, f1 = -1;
    bool c0 = cw_shape_cast(&c->a.shape, &c->ta, d, &c->b.shape, &c->tb, &f0, NULL);
    bool c1 = cw_shape_cast(&c->a.shape, sa, scaled_vec(d, f), &c->b.shape, sb, &f1, NULL);
    if (c1 != c0)
        scaling_failed(t, c, e, "the cast's hit changed", c0, c1);
    else if (c0 && fabs((double)f1 - f0) > 1e-6)
        scaling_failed(t, c, e, "the cast's fraction changed", f0, f1);
    t->casts += c0;
}

// A point and a ray near B: the same answers, the same entry.
static void check_queries(scaling_tally *t, const gen_case *c, int e, gen_rng *r, const cw_transform *sb)
{
    float f = ldexpf(1.0f, e);
    cw_vec2 o = {(float)(c->tb.position.x + gen_range(r, -40, 40)), (float)(c->tb.position.y + gen_range(r, -40, 40))};
    cw_vec2 d = {(float)gen_range(r, -90, 90), (float)gen_range(r, -90, 90)};
    bool p0 = cw_shape_contains_point(&c->b.shape, &c->tb, o);
    if (cw_shape_contains_point(&c->b.shape, sb, scaled_vec(o, f)) != p0)
        scaling_failed(t, c, e, "whether the point is inside changed", o.x, o.y);
    cw_ray_hit h0, h1;
    bool r0 = cw_shape_raycast(&c->b.shape, &c->tb, o, d, &h0);
    bool r1 = cw_shape_raycast(&c->b.shape, sb, scaled_vec(o, f), scaled_vec(d, f), &h1);
    if (r1 != r0)
        scaling_failed(t, c, e, "the ray's hit changed", r0, r1);
    else if (r0 && (fabs((double)h1.fraction - h0.fraction) > 1e-6 || fabs(h1.normal.x - h0.normal.x) > 1e-5 ||
                    fabs(h1.normal.y - h0.normal.y) > 1e-5))
        scaling_failed(t, c, e, "the ray's entry changed", h0.fraction, h1.fraction);
    t->rays += r0;
}

static void check_case(scaling_tally *t, uint64_t seed)
{
    gen_case c;
    bool built = gen_case_make(&c, seed);
    assert_true(built);
    gen_rng r = gen_seed(seed ^ 0x5ca1e);
    int e = gen_int(&r, -16, c.far ? 6 : 16);
    float f = ldexpf(1.0f, e);
    cw_transform sa = scaled(c.ta, f), sb = scaled(c.tb, f);
    check_overlap(t, &c, e, &sa, &sb);
    check_cast(t, &c, e, &r, &sa, &sb);
    check_queries(t, &c, e, &r, &sb);
    t->cases++;
    gen_case_free(&c);
}

static void test_power_of_two_scaling(void **state)
{
    (void)state;
    scaling_tally t = {0};
    static const unsigned streams[] = {GEN_STREAM_OVERLAP, GEN_STREAM_MIRROR, GEN_STREAM_CONTACT};
    int n = gen_scaled(800);
    // Indices of their own, past the other tests' cases of the same streams. Near-contact cases, whose
    // making (a bisection with the slow reference) is nearly all of the test's time, for every other k.
    for (int k = 0; k < n; k++)
        for (int s = 0; s < (k % 2 ? 2 : 3); s++) {
            gen_kind kind = (gen_kind)((s == 2 ? k / 2 : k) & 3); // every kind in each stream
            check_case(&t, gen_case_seed(streams[s], kind, 0x5ca1e000u + (uint32_t)k));
        }
    printf("  %d cases scaled by powers of two: %d overlapping, %d casts hit, %d rays hit; %d failed\n", t.cases,
           t.overlaps, t.casts, t.rays, t.failures);
    assert_true(t.overlaps > t.cases / 10 && t.casts > t.cases / 10 && t.rays > t.cases / 20);
    assert_int_equal(t.failures, 0);
}

const struct CMUnitTest scaling_tests[] = {
    cmocka_unit_test(test_power_of_two_scaling),
};
