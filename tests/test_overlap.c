// cw_overlap on seeded random cases against the exact reference, for every combination of box and
// mask, plus symmetry on every case and masks shared between threads.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

#include "gen.h"
#include "reference.h"
#include "suites.h"

// Cases closer than this (world units) to merely touching are skipped: the library may call them
// either way (it treats anything within about 1e-6 local units of touching as touching).
#define NEAR_TOUCH 1e-3
#define MAX_PRINTED 12

typedef struct tally {
    int cases, overlapping, apart, skipped, failures, printed;
} tally;

static void fail_case(tally *t, const gen_case *c, const char *why, bool ab, bool ba, double margin)
{
    t->failures++;
    if (t->printed++ >= MAX_PRINTED)
        return;
    fprintf(stdout,
            "FAIL %s: cw_overlap(a, b) = %s, cw_overlap(b, a) = %s, reference margin %.9g (%s), last error \"%s\"\n",
            why, ab ? "true" : "false", ba ? "true" : "false", margin,
            margin > 0 ? "overlap" : "no overlap", cw_last_error());
    gen_case_print(stdout, c);
}

static void run_one(tally *t, uint64_t seed, bool verbose)
{
    gen_case c;
    bool built = gen_case_make(&c, seed);
    t->cases++;
    if (!built) {
        fail_case(t, &c, "mask creation", false, false, NAN);
        gen_case_free(&c);
        return;
    }
    cw_clear_error();
    bool ab = cw_overlap(&c.a.shape, &c.ta, &c.b.shape, &c.tb, NULL);
    bool ba = cw_overlap(&c.b.shape, &c.tb, &c.a.shape, &c.ta, NULL);
    bool error_set = cw_last_error()[0] != '\0';
    double m = ref_margin_capped(&c.a.ref, &c.ta, &c.b.ref, &c.tb, 0.01);
    if (verbose) {
        gen_case_print(stdout, &c);
        fprintf(stdout, "  cw_overlap(a, b) = %d, cw_overlap(b, a) = %d, reference margin %.17g (exact: %.17g)\n", ab,
                ba, m, ref_margin(&c.a.ref, &c.ta, &c.b.ref, &c.tb));
    }
    if (error_set)
        fail_case(t, &c, "valid input set an error", ab, ba, m);
    else if (ab != ba)
        fail_case(t, &c, "asymmetric answer", ab, ba, m);
    else if (fabs(m) < NEAR_TOUCH)
        t->skipped++;
    else if (ab != (m > 0))
        fail_case(t, &c, "disagrees with the reference", ab, ba, m < 0.01 ? m : ref_margin(&c.a.ref, &c.ta, &c.b.ref, &c.tb));
    if (fabs(m) >= NEAR_TOUCH) {
        if (m > 0)
            t->overlapping++;
        else
            t->apart++;
    }
    gen_case_free(&c);
}

static void run_random(unsigned stream, gen_kind kind, int count, const char *name)
{
    tally t = {0};
    uint64_t only;
    if (gen_only_seed(&only)) {
        if ((only >> 40) == stream && (gen_kind)((only >> 32) & 0xff) == kind) {
            run_one(&t, only, true);
            assert_int_equal(t.failures, 0);
        }
        return;
    }
    int n = gen_scaled(count);
    for (int k = 0; k < n; k++)
        run_one(&t, gen_case_seed(stream, kind, (uint32_t)k), false);
    fprintf(stdout, "  %s: %d random cases: %d overlap, %d apart, %d skipped as near-touching (%.2f%%), %d failed\n",
            name, t.cases, t.overlapping, t.apart, t.skipped, 100.0 * t.skipped / t.cases, t.failures);
    assert_int_equal(t.failures, 0);
    // The skip must stay rare (< 5%), or the comparison would prove nothing. (Tiny runs, as under
    // valgrind with CW_TEST_SCALE=20, may have a couple.)
    assert_true(t.skipped * 20 < t.cases || (t.cases < 200 && t.skipped <= 2));
    // Both answers must be well represented.
    if (t.cases >= 100)
        assert_true(t.overlapping * 10 > t.cases && t.apart * 10 > t.cases);
}

static void test_random_box_box(void **state)
{
    (void)state;
    run_random(GEN_STREAM_OVERLAP, GEN_BOX_BOX, 5000, "box-box");
}

static void test_random_box_mask(void **state)
{
    (void)state;
    run_random(GEN_STREAM_OVERLAP, GEN_BOX_MASK, 5000, "box-mask");
}

static void test_random_mask_box(void **state)
{
    (void)state;
    run_random(GEN_STREAM_OVERLAP, GEN_MASK_BOX, 5000, "mask-box");
}

static void test_random_mask_mask(void **state)
{
    (void)state;
    run_random(GEN_STREAM_OVERLAP, GEN_MASK_MASK, 10000, "mask-mask");
}

// Cases moved to within 0.003-0.03 world units of first contact, in or out.
static void test_random_near_contact(void **state)
{
    (void)state;
    run_random(GEN_STREAM_CONTACT, GEN_BOX_BOX, 800, "near-contact box-box");
    run_random(GEN_STREAM_CONTACT, GEN_BOX_MASK, 800, "near-contact box-mask");
    run_random(GEN_STREAM_CONTACT, GEN_MASK_BOX, 800, "near-contact mask-box");
    run_random(GEN_STREAM_CONTACT, GEN_MASK_MASK, 1200, "near-contact mask-mask");
}

// --- masks shared by threads: cw_overlap is pure and masks are immutable ---

#define THREAD_CASES 64
#define THREADS 4

typedef struct shared_cases {
    gen_case cases[THREAD_CASES];
    bool expected[THREAD_CASES];
    int mismatches[THREADS];
} shared_cases;

typedef struct worker {
    shared_cases *shared;
    int id;
} worker;

static int worker_main(void *arg)
{
    worker *w = arg;
    for (int round = 0; round < 20; round++)
        for (int k = 0; k < THREAD_CASES; k++) {
            int i = (k * 7 + w->id * 13 + round) % THREAD_CASES;
            gen_case *c = &w->shared->cases[i];
            cw_manifold m;
            bool hit = round & 1 ? cw_overlap(&c->b.shape, &c->tb, &c->a.shape, &c->ta, &m)
                                 : cw_overlap(&c->a.shape, &c->ta, &c->b.shape, &c->tb, NULL);
            if (hit != w->shared->expected[i])
                w->shared->mismatches[w->id]++;
        }
    return 0;
}

static void test_threads_share_masks(void **state)
{
    (void)state;
    shared_cases *s = calloc(1, sizeof *s);
    assert_non_null(s);
    for (int k = 0; k < THREAD_CASES; k++) {
        assert_true(gen_case_make(&s->cases[k], gen_case_seed(9, (gen_kind)(k & 3), (uint32_t)k)));
        s->expected[k] = cw_overlap(&s->cases[k].a.shape, &s->cases[k].ta, &s->cases[k].b.shape, &s->cases[k].tb, NULL);
    }
    thrd_t threads[THREADS];
    worker workers[THREADS];
    for (int t = 0; t < THREADS; t++) {
        workers[t] = (worker){s, t};
        assert_int_equal(thrd_create(&threads[t], worker_main, &workers[t]), thrd_success);
    }
    for (int t = 0; t < THREADS; t++)
        assert_int_equal(thrd_join(threads[t], NULL), thrd_success);
    int mismatches = 0;
    for (int t = 0; t < THREADS; t++)
        mismatches += s->mismatches[t];
    for (int k = 0; k < THREAD_CASES; k++)
        gen_case_free(&s->cases[k]);
    free(s);
    assert_int_equal(mismatches, 0);
}

// A random placement far beyond moderate ones: scale 2^-40 to 2^90 per axis (either sign), a pivot
// up to 2^120 away, half the time cancelled by the position (exactly when unrotated).
static void extreme_transform(gen_rng *r, const gen_shape *s, cw_transform *t)
{
    gen_random_transform(r, s, t);
    t->scale.x = ldexpf(t->scale.x, gen_int(r, -40, 90));
    t->scale.y = gen_chance(r, 0.5) ? t->scale.x : ldexpf(t->scale.y, gen_int(r, -40, 90));
    if (gen_chance(r, 0.3))
        t->rotation = 0;
    t->origin = (cw_vec2){ldexpf((float)gen_range(r, -1, 1), gen_int(r, 0, 120)),
                          ldexpf((float)gen_range(r, -1, 1), gen_int(r, 0, 120))};
    t->position = (cw_vec2){ldexpf((float)gen_range(r, -1, 1), gen_int(r, 0, 100)),
                            ldexpf((float)gen_range(r, -1, 1), gen_int(r, 0, 100))};
    cw_vec2 cancel = {t->scale.x * t->origin.x, t->scale.y * t->origin.y};
    if (gen_chance(r, 0.5) && isfinite(cancel.x) && isfinite(cancel.y))
        t->position = cancel;
}

static bool boxes_meet(const cw_aabb *a, const cw_aabb *b)
{
    return a->min.x <= b->max.x && b->min.x <= a->max.x && a->min.y <= b->max.y && b->min.y <= a->max.y;
}

// Far beyond moderate placements rounding may exceed the touching tolerance, and the answer is no
// longer exact; it must still be symmetric, never true for shapes whose AABBs are apart (the world's
// candidates are the pairs whose AABBs meet: the world and cw_overlap() must agree), and true for a
// non-empty shape against itself in the same placement. B goes near A's pivot (where a huge shape's
// bounds are exact and its separating-axis test is not), a corner of A's AABB, or its centre.
static void test_random_extreme_placements(void **state)
{
    (void)state;
    int n = gen_scaled(4000) < 1000 ? 1000 : gen_scaled(4000), hits = 0, apart = 0; // enough for the floors on any salt
    for (int k = 0; k < n; k++) {
        gen_rng r = gen_seed(0xe7e3e000ull + (uint64_t)k);
        gen_shape sa, sb;
        if (gen_chance(&r, 0.5))
            gen_random_box(&r, &sa);
        else
            assert_true(gen_random_mask(&r, &sa));
        if (gen_chance(&r, 0.5))
            gen_random_box(&r, &sb);
        else
            assert_true(gen_random_mask(&r, &sb));
        cw_transform ta, tb;
        extreme_transform(&r, &sa, &ta);
        gen_random_transform(&r, &sb, &tb); // B: a moderate pivot, sometimes an extreme scale
        if (gen_chance(&r, 0.5))
            tb.scale = (cw_vec2){ldexpf(tb.scale.x, gen_int(&r, -40, 90)), ldexpf(tb.scale.y, gen_int(&r, -40, 90))};
        cw_aabb box_a, box_b;
        assert_true(cw_shape_aabb(&sa.shape, &ta, &box_a));
        double near_x = ta.position.x, near_y = ta.position.y; // near A's pivot, a corner or the centre
        bool finite = isfinite(box_a.min.x) && isfinite(box_a.max.x) && isfinite(box_a.min.y) && isfinite(box_a.max.y);
        int where = finite ? gen_int(&r, 0, 2) : 0;
        if (where > 0) {
            near_x = where == 1 ? box_a.min.x : 0.5 * ((double)box_a.min.x + box_a.max.x);
            near_y = where == 1 ? box_a.max.y : 0.5 * ((double)box_a.min.y + box_a.max.y);
        }
        double reach = ldexp(1, gen_int(&r, -20, 30)), angle = gen_range(&r, 0, 6.3);
        if (where == 2) // well inside A's AABB
            reach = ldexp((double)box_a.max.x - box_a.min.x, gen_int(&r, -30, -2));
        // Moves B so that its AABB's centre lands there (B's own pivot may be far from its sprite).
        double to_x = near_x + reach * cos(angle), to_y = near_y + reach * sin(angle);
        assert_true(cw_shape_aabb(&sb.shape, &tb, &box_b));
        if (isfinite(box_b.min.x) && isfinite(box_b.max.x) && isfinite(box_b.min.y) && isfinite(box_b.max.y)) {
            to_x += (double)tb.position.x - 0.5 * ((double)box_b.min.x + box_b.max.x);
            to_y += (double)tb.position.y - 0.5 * ((double)box_b.min.y + box_b.max.y);
        }
        tb.position = (cw_vec2){(float)to_x, (float)to_y};
        assert_true(cw_shape_aabb(&sb.shape, &tb, &box_b));
        bool ab = cw_overlap(&sa.shape, &ta, &sb.shape, &tb, NULL), ba = cw_overlap(&sb.shape, &tb, &sa.shape, &ta, NULL);
        bool self = cw_overlap(&sa.shape, &ta, &sa.shape, &ta, NULL);
        bool empty = !sa.is_box && cw_mask_count(sa.mask) == 0;
        if (ab != ba || (ab && !boxes_meet(&box_a, &box_b)) || (finite && !empty && !self)) {
            printf("  case %d: ab %d ba %d self %d, AABBs (%a %a %a %a) and (%a %a %a %a)\n", k, ab, ba, self,
                   (double)box_a.min.x, (double)box_a.min.y, (double)box_a.max.x, (double)box_a.max.y,
                   (double)box_b.min.x, (double)box_b.min.y, (double)box_b.max.x, (double)box_b.max.y);
            gen_print_shape(stdout, "a", &sa);
            gen_print_transform(stdout, "ta", &ta);
            gen_print_shape(stdout, "b", &sb);
            gen_print_transform(stdout, "tb", &tb);
            fail_msg("extreme placement case %d", k);
        }
        hits += ab;
        apart += !boxes_meet(&box_a, &box_b);
        gen_shape_free(&sa);
        gen_shape_free(&sb);
    }
    printf("  %d extreme placements: %d overlap, %d with AABBs apart\n", n, hits, apart);
    assert_true(hits > n / 200 && apart > n / 20); // some overlap (about 2.5%), many are gated
}

const struct CMUnitTest overlap_tests[] = {
    cmocka_unit_test(test_random_box_box),   cmocka_unit_test(test_random_box_mask),
    cmocka_unit_test(test_random_mask_box),  cmocka_unit_test(test_random_mask_mask),
    cmocka_unit_test(test_random_near_contact), cmocka_unit_test(test_threads_share_masks),
    cmocka_unit_test(test_random_extreme_placements),
};
