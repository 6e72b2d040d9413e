// Tests of the reference itself (they do not call the library): hand-computed transforms and
// margins, agreement with brute-force polygon clipping and point sampling, symmetry.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "reference.h"
#include "suites.h"

static cw_transform xf(float px, float py, float rot, float sx, float sy, float ox, float oy)
{
    return (cw_transform){.position = {px, py}, .rotation = rot, .scale = {sx, sy}, .origin = {ox, oy}};
}

static void test_transform_formula(void **state)
{
    (void)state;
    double wx, wy;
    cw_transform t = xf(10, 20, 0, 2, -1, 1, 1);
    ref_to_world(&t, 3, 4, &wx, &wy);
    assert_true(fabs(wx - 14.0) < 1e-12 && fabs(wy - 17.0) < 1e-12);
    // rotation 0.5: q = ((3-1)*2, (4-1)*-1) = (4, -3); R q = (4c + 3s, 4s - 3c)
    t.rotation = 0.5f;
    double c = cos((double)0.5f), s = sin((double)0.5f);
    ref_to_world(&t, 3, 4, &wx, &wy);
    assert_true(fabs(wx - (10 + 4 * c + 3 * s)) < 1e-12 && fabs(wy - (20 + 4 * s - 3 * c)) < 1e-12);
    // +x turns toward +y
    t = xf(0, 0, (float)(GEN_PI / 2), 1, 1, 0, 0);
    ref_to_world(&t, 1, 0, &wx, &wy);
    assert_true(fabs(wx) < 1e-6 && fabs(wy - 1) < 1e-6);
    // Round trips on random transforms.
    gen_rng r = gen_seed(11);
    for (int k = 0; k < 1000; k++) {
        t = xf((float)gen_range(&r, -1e4, 1e4), (float)gen_range(&r, -1e4, 1e4), (float)gen_range(&r, -7, 7),
               (float)gen_range(&r, 0.3, 3) * (gen_chance(&r, 0.5) ? -1.0f : 1.0f), (float)gen_range(&r, 0.3, 3),
               (float)gen_range(&r, -50, 50), (float)gen_range(&r, -50, 50));
        double lx = gen_range(&r, -100, 100), ly = gen_range(&r, -100, 100), bx, by;
        ref_to_world(&t, lx, ly, &wx, &wy);
        ref_to_local(&t, wx, wy, &bx, &by);
        assert_true(fabs(bx - lx) < 1e-9 && fabs(by - ly) < 1e-9);
    }
}

static void test_quarter_turn_rule(void **state)
{
    (void)state;
    double c, s;
    static const int turns[] = {0, 1, 2, 3, 4, -1, -2, -3, 5, 1000, -1001, 12345};
    static const double expect[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    for (size_t k = 0; k < sizeof turns / sizeof turns[0]; k++) {
        float r = (float)(turns[k] * (GEN_PI / 2));
        int q = ((turns[k] % 4) + 4) % 4;
        ref_cos_sin(r, &c, &s);
        assert_true(c == expect[q][0] && s == expect[q][1]);
        // The neighbouring floats are used as given.
        float next = nextafterf(r, 1e9f);
        ref_cos_sin(next, &c, &s);
        assert_true(c == cos((double)next) && s == sin((double)next));
        assert_true(c != expect[q][0] || s != expect[q][1]);
    }
    ref_cos_sin(0.5f, &c, &s);
    assert_true(c == cos((double)0.5f) && s == sin((double)0.5f));
    // Beyond 100,000 rad the rule no longer applies.
    float big = (float)(70000 * (GEN_PI / 2));
    ref_cos_sin(big, &c, &s);
    assert_true(c == cos((double)big) && s == sin((double)big));
}

static void test_hand_margins(void **state)
{
    (void)state;
    ref_shape unit = ref_box(1, 1);
    cw_transform a = xf(0, 0, 0, 1, 1, 0, 0);
    cw_transform b = xf(1, 0, 0, 1, 1, 0, 0);
    assert_true(fabs(ref_margin(&unit, &a, &unit, &b)) < 1e-12); // sharing an edge
    b = xf(1, 1, 0, 1, 1, 0, 0);
    assert_true(fabs(ref_margin(&unit, &a, &unit, &b)) < 1e-12); // corners
    b = xf(0.75f, 0.5f, 0, 1, 1, 0, 0);
    assert_true(fabs(ref_margin(&unit, &a, &unit, &b) - 0.25) < 1e-12);
    b = xf(1.005f, 0, 0, 1, 1, 0, 0);
    assert_true(fabs(ref_margin(&unit, &a, &unit, &b) + 0.005) < 1e-7);
    b = xf(3, 0, 0, 1, 1, 0, 0);
    assert_true(ref_margin(&unit, &a, &unit, &b) == REF_FAR);
    // A 3x1 mask with a hole in the middle around a 0.5 box in the hole: separated by 0.25.
    static const unsigned char holed[3] = {1, 0, 1};
    ref_shape m = ref_mask(holed, 3, 1);
    ref_shape small = ref_box(0.5, 0.5);
    b = xf(1.25f, 0.25f, 0, 1, 1, 0, 0);
    assert_true(ref_margin(&m, &a, &small, &b) == REF_FAR);
    cw_transform grow = xf(1.5f, 0.5f, 0, 1.98f, 1.98f, 0.25f, 0.25f); // 0.99 wide, centred: 0.005 gaps
    assert_true(fabs(ref_margin(&m, &a, &small, &grow) + 0.005) < 1e-6);
    // Rotated 45 degrees: a unit diamond's corner poking 0.1 into a box's side.
    cw_transform d = xf(0, 0, (float)(GEN_PI / 4), 1, 1, 0.5f, 0.5f);
    double half_diag = sqrt(0.5);
    d.position = (cw_vec2){(float)(1.0 + half_diag - 0.1), 0.5f};
    double mg = ref_margin(&unit, &a, &unit, &d);
    assert_true(mg > 0.0 && mg <= 0.1 + 1e-6);
}

// A small random shape for the reference's own tests, built without the library.
static void make_small(gen_rng *r, gen_shape *s)
{
    memset(s, 0, sizeof *s);
    if (gen_chance(r, 0.3)) {
        s->is_box = true;
        s->box_w = (float)gen_range(r, 0.3, 6);
        s->box_h = (float)gen_range(r, 0.3, 6);
        s->ref = ref_box(s->box_w, s->box_h);
        return;
    }
    s->w = gen_int(r, 1, 9);
    s->h = gen_int(r, 1, 9);
    s->solid = malloc((size_t)(s->w * s->h));
    assert_non_null(s->solid);
    gen_pattern_fill(s->solid, s->w, s->h, (gen_pattern)gen_int(r, 1, GEN_PATTERN_COUNT - 1), gen_range(r, 0.2, 0.7),
                     gen_next(r));
    s->ref = ref_mask(s->solid, s->w, s->h);
}

static void free_small(gen_shape *s) { free(s->solid); }

// Two small shapes with random transforms, placed so their boxes meet; with probability far_chance
// (drawn last, as the placement's own choice) far from the origin.
static void make_small_pair(gen_rng *r, gen_shape *a, cw_transform *ta, gen_shape *b, cw_transform *tb,
                            double far_chance)
{
    make_small(r, a);
    make_small(r, b);
    gen_random_transform(r, a, ta);
    gen_random_transform(r, b, tb);
    gen_place_pair(r, a, ta, b, tb, far_chance > 0 && gen_chance(r, far_chance));
}

// Max over all cell pairs of the exact intersection area (clipping), with no pruning at all.
static double brute_area(const gen_shape *a, const cw_transform *ta, const gen_shape *b, const cw_transform *tb)
{
    double best = 0;
    for (int j = 0; j < a->ref.ny; j++)
        for (int i = 0; i < a->ref.nx; i++) {
            if (!a->ref.solid[j * a->ref.nx + i])
                continue;
            ref_quad p = ref_cell_quad(&a->ref, ta, i, j);
            for (int l = 0; l < b->ref.ny; l++)
                for (int k = 0; k < b->ref.nx; k++) {
                    if (!b->ref.solid[l * b->ref.nx + k])
                        continue;
                    ref_quad q = ref_cell_quad(&b->ref, tb, k, l);
                    best = fmax(best, ref_quad_intersection(&p, &q, NULL, NULL));
                }
        }
    return best;
}

static void test_matches_clipping(void **state)
{
    (void)state;
    int n = gen_scaled(3000), over = 0, apart = 0;
    for (int k = 0; k < n; k++) {
        gen_rng r = gen_seed(0x7e57000ull + (uint64_t)k);
        gen_shape a, b;
        cw_transform ta, tb;
        make_small_pair(&r, &a, &ta, &b, &tb, 0.1);
        double m = ref_margin(&a.ref, &ta, &b.ref, &tb);
        double area = brute_area(&a, &ta, &b, &tb);
        bool bad = (m > 1e-4 && !(area > 0)) || (m < -1e-6 && area > 1e-9);
        if (bad) {
            fprintf(stdout, "reference margin %.17g but brute-force clipped area %.17g (case %d)\n", m, area, k);
            gen_print_shape(stdout, "a", &a);
            gen_print_transform(stdout, "ta", &ta);
            gen_print_shape(stdout, "b", &b);
            gen_print_transform(stdout, "tb", &tb);
        }
        over += m > 1e-4;
        apart += m < -1e-6;
        free_small(&a);
        free_small(&b);
        assert_false(bad);
    }
    fprintf(stdout, "  reference vs clipping: %d cases, %d overlapping, %d apart\n", n, over, apart);
    if (n >= 100)
        assert_true(over > n / 10 && apart > n / 10);
}

// Point sampling on a grid over the intersection of the two world AABBs.
static bool sample_common_point(const gen_shape *a, const cw_transform *ta, const gen_shape *b, const cw_transform *tb,
                                double step)
{
    double amin[2], amax[2], bmin[2], bmax[2];
    if (!ref_aabb(&a->ref, ta, false, amin, amax) || !ref_aabb(&b->ref, tb, false, bmin, bmax))
        return false;
    double lo[2] = {fmax(amin[0], bmin[0]), fmax(amin[1], bmin[1])};
    double hi[2] = {fmin(amax[0], bmax[0]), fmin(amax[1], bmax[1])};
    for (double y = lo[1] + step / 2; y < hi[1]; y += step)
        for (double x = lo[0] + step / 2; x < hi[0]; x += step)
            if (ref_point_inside(&a->ref, ta, x, y, 1e-9) && ref_point_inside(&b->ref, tb, x, y, 1e-9))
                return true;
    return false;
}

static void test_matches_sampling(void **state)
{
    (void)state;
    int n = gen_scaled(1500), deep = 0, found = 0;
    for (int k = 0; k < n; k++) {
        gen_rng r = gen_seed(0x5a3b1e00ull + (uint64_t)k);
        gen_shape a, b;
        cw_transform ta, tb;
        make_small_pair(&r, &a, &ta, &b, &tb, 0);
        double m = ref_margin(&a.ref, &ta, &b.ref, &tb);
        bool hit = sample_common_point(&a, &ta, &b, &tb, 0.02);
        if (hit && !(m > 0)) {
            fprintf(stdout, "sampling found a common point but the reference margin is %.17g (case %d)\n", m, k);
            gen_print_shape(stdout, "a", &a);
            gen_print_transform(stdout, "ta", &ta);
            gen_print_shape(stdout, "b", &b);
            gen_print_transform(stdout, "tb", &tb);
        }
        if (m > 0.1) {
            deep++;
            found += hit;
            if (!hit)
                fprintf(stdout, "reference margin %.17g but sampling found no common point (case %d)\n", m, k);
        }
        free_small(&a);
        free_small(&b);
        assert_false(hit && !(m > 0));
    }
    fprintf(stdout, "  reference vs sampling: %d cases, %d with margin > 0.1, sampled %d of them\n", n, deep, found);
    if (n >= 100)
        assert_true(deep > n / 10);
    assert_int_equal(found, deep);
}

static void test_symmetric_and_capped(void **state)
{
    (void)state;
    int n = gen_scaled(600);
    for (int k = 0; k < n; k++) {
        gen_case c;
        // The library builds the masks here, but the reference only reads c.a.ref / c.b.ref.
        if (!gen_case_make(&c, gen_case_seed(0x7, (gen_kind)(k & 3), (uint32_t)k))) {
            gen_case_free(&c);
            continue;
        }
        double ab = ref_margin(&c.a.ref, &c.ta, &c.b.ref, &c.tb);
        double ba = ref_margin(&c.b.ref, &c.tb, &c.a.ref, &c.ta);
        double capped = ref_margin_capped(&c.a.ref, &c.ta, &c.b.ref, &c.tb, 0.01);
        bool bad = fabs(ab - ba) > 1e-12 || (ab < 0.01 ? capped != ab : capped < 0.01);
        if (bad) {
            fprintf(stdout, "reference: margin(a,b) %.17g margin(b,a) %.17g capped %.17g\n", ab, ba, capped);
            gen_case_print(stdout, &c);
        }
        gen_case_free(&c);
        assert_false(bad);
    }
}

static void test_point_helpers(void **state)
{
    (void)state;
    static const unsigned char l_shape[4] = {1, 0, 1, 1};
    ref_shape m = ref_mask(l_shape, 2, 2);
    cw_transform t = xf(100, 50, 0, 2, 3, 0, 0); // texel (i, j) -> [100+2i, 102+2i] x [50+3j, 53+3j]
    assert_true(ref_point_distance(&m, &t, 101, 51, 1) == 0.0);
    assert_true(ref_point_inside(&m, &t, 101, 51, 1e-9));
    assert_false(ref_point_inside(&m, &t, 103, 51, 1e-9));                // texel (1, 0) is transparent
    assert_true(fabs(ref_point_distance(&m, &t, 103.8, 51.5, 5) - 1.5) < 1e-12); // 1.5 above texel (1, 1)
    assert_true(fabs(ref_point_distance(&m, &t, 99, 49, 5) - sqrt(2.0)) < 1e-12);
    assert_true(isinf(ref_point_distance(&m, &t, 200, 200, 1)));
    double lo[2], hi[2];
    assert_true(ref_aabb(&m, &t, false, lo, hi));
    assert_true(lo[0] == 100 && lo[1] == 50 && hi[0] == 104 && hi[1] == 56);
    static const unsigned char none[4] = {0, 0, 0, 0};
    ref_shape e = ref_mask(none, 2, 2);
    assert_false(ref_aabb(&e, &t, false, lo, hi));
    assert_true(ref_margin(&e, &t, &m, &t) == REF_FAR);
}

const struct CMUnitTest reference_tests[] = {
    cmocka_unit_test(test_quarter_turn_rule),
    cmocka_unit_test(test_transform_formula),    cmocka_unit_test(test_hand_margins),
    cmocka_unit_test(test_matches_clipping),     cmocka_unit_test(test_matches_sampling),
    cmocka_unit_test(test_symmetric_and_capped), cmocka_unit_test(test_point_helpers),
};
