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

const struct CMUnitTest overlap_tests[] = {
    cmocka_unit_test(test_random_box_box),   cmocka_unit_test(test_random_box_mask),
    cmocka_unit_test(test_random_mask_box),  cmocka_unit_test(test_random_mask_mask),
    cmocka_unit_test(test_random_near_contact), cmocka_unit_test(test_threads_share_masks),
};
