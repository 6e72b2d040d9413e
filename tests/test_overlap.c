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
    // Both answers must be well represented: at least 5% each (box-box pairs are apart in some 15%,
    // and a short run, as under valgrind with CW_TEST_SCALE=40, can fall under 10% on some salts).
    if (t.cases >= 100)
        assert_true(t.overlapping * 20 > t.cases && t.apart * 20 > t.cases);
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

// A's local point where a small B goes: anywhere over A's box, or half the time within `reach` of
// one of its edges (of its box, or between two of its texels).
static void target_over(gen_rng *r, const gen_shape *a, double reach, double *lx, double *ly)
{
    double w = a->is_box ? a->box_w : a->w, h = a->is_box ? a->box_h : a->h;
    *lx = gen_range(r, 0, w), *ly = gen_range(r, 0, h);
    if (gen_chance(r, 0.5))
        return;
    double offset = gen_range(r, -reach, reach);
    if (gen_chance(r, 0.5))
        *lx = (a->is_box ? w * gen_int(r, 0, 1) : gen_int(r, 0, a->w)) + offset;
    else
        *ly = (a->is_box ? h * gen_int(r, 0, 1) : gen_int(r, 0, a->h)) + offset;
}

static void print_pair(const gen_shape *a, const cw_transform *ta, const gen_shape *b, const cw_transform *tb)
{
    gen_print_shape(stdout, "a", a);
    gen_print_transform(stdout, "ta", ta);
    gen_print_shape(stdout, "b", b);
    gen_print_transform(stdout, "tb", tb);
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
            print_pair(&sa, &ta, &sb, &tb);
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

// The header promises exact answers over the moderate range (sizes and scales in [1e-6, 1e6],
// positions below 1e7), and the tolerance is in local units, so scaling a whole case changes
// nothing but the units: the random and near-contact cases, every position and scale multiplied by
// S (1e-5 to 1e5, kept so that positions stay below 1e7), must still match the reference outside
// NEAR_TOUCH * S.
static void test_random_scaled_cases(void **state)
{
    (void)state;
    int n = gen_scaled(2000) < 100 ? 100 : gen_scaled(2000), hits = 0, apart = 0, failures = 0;
    for (int k = 0; k < n; k++) {
        gen_case c;
        unsigned stream = k % 2 ? GEN_STREAM_CONTACT : GEN_STREAM_OVERLAP;
        assert_true(gen_case_make(&c, gen_case_seed(stream, (gen_kind)(k / 2 % 4), (uint32_t)(k / 8))));
        gen_rng r = gen_seed(c.seed ^ 0x5ca1edull);
        double reach = fmax(fmax(fabs(c.ta.position.x), fabs(c.ta.position.y)),
                            fmax(fabs(c.tb.position.x), fabs(c.tb.position.y)));
        double scale = fmin(exp(gen_range(&r, log(1e-5), log(1e5))), 0.99e7 / fmax(reach, 1));
        cw_transform *both[2] = {&c.ta, &c.tb};
        for (int i = 0; i < 2; i++) {
            cw_transform *t = both[i];
            t->position = (cw_vec2){(float)(t->position.x * scale), (float)(t->position.y * scale)};
            t->scale = (cw_vec2){(float)(t->scale.x * scale), (float)(t->scale.y * scale)};
        }
        bool ab = cw_overlap(&c.a.shape, &c.ta, &c.b.shape, &c.tb, NULL);
        bool ba = cw_overlap(&c.b.shape, &c.tb, &c.a.shape, &c.ta, NULL);
        double m = ref_margin_capped(&c.a.ref, &c.ta, &c.b.ref, &c.tb, 2 * NEAR_TOUCH * scale);
        bool decided = fabs(m) > NEAR_TOUCH * scale;
        if ((ab != ba || (decided && ab != (m > 0))) && failures++ < MAX_PRINTED) {
            printf("  scaled case %d (by %.9g): ab %d ba %d, reference margin %.9g\n", k, scale, ab, ba, m);
            gen_case_print(stdout, &c);
        }
        hits += decided && m > 0;
        apart += decided && m < 0;
        gen_case_free(&c);
    }
    printf("  %d scaled cases: %d overlap, %d apart, %d failed\n", n, hits, apart, failures);
    assert_int_equal(failures, 0);
    assert_true(hits * 10 > n && apart * 10 > n);
}

// A sprite or box scaled down by 1e-6 to 1e-2 (so from a texel of 1e-6 units) beside an ordinary
// shape, anywhere over it or astride one of its edges: decided outside its tolerance in world
// units, 1.5e-6 times its scale (the small one's is smaller).
static void test_random_small_beside_large(void **state)
{
    (void)state;
    int n = gen_scaled(4000) < 100 ? 100 : gen_scaled(4000), hits = 0, apart = 0, smallest = 0, failures = 0;
    for (int k = 0; k < n; k++) {
        gen_rng r = gen_seed(0x5e1a6000ull + (uint64_t)k);
        gen_shape sa, sb;
        assert_true(gen_random_shape(&r, &sa, gen_chance(&r, 0.4)));
        assert_true(gen_random_shape(&r, &sb, gen_chance(&r, 0.4)));
        cw_transform ta, tb;
        gen_random_transform(&r, &sa, &ta);
        gen_random_transform(&r, &sb, &tb);
        double f = exp(gen_range(&r, log(1e-6), log(1e-2)));
        tb.scale = (cw_vec2){(float)(tb.scale.x * f), (float)(tb.scale.y * f)};
        ta.position = (cw_vec2){(float)gen_range(&r, -100, 100), (float)gen_range(&r, -100, 100)};
        double lx, ly, wx, wy, lo[2], hi[2];
        target_over(&r, &sa, 200 * f, &lx, &ly);
        ref_to_world(&ta, lx, ly, &wx, &wy);
        if (!ref_aabb(&sb.ref, &tb, false, lo, hi)) // B's covered box centred there
            ref_aabb(&sb.ref, &tb, true, lo, hi);
        tb.position = (cw_vec2){(float)(wx - 0.5 * (lo[0] + hi[0])), (float)(wy - 0.5 * (lo[1] + hi[1]))};
        bool ab = cw_overlap(&sa.shape, &ta, &sb.shape, &tb, NULL), ba = cw_overlap(&sb.shape, &tb, &sa.shape, &ta, NULL);
        double m = ref_margin(&sa.ref, &ta, &sb.ref, &tb);
        bool decided = fabs(m) > 1.5e-6 * fmax(fabs(ta.scale.x), fabs(ta.scale.y));
        if ((ab != ba || (decided && ab != (m > 0))) && failures++ < MAX_PRINTED) {
            printf("  small case %d (scaled by %.9g): ab %d ba %d, reference margin %.9g\n", k, f, ab, ba, m);
            print_pair(&sa, &ta, &sb, &tb);
        }
        hits += decided && m > 0;
        apart += decided && m < 0;
        smallest += decided && f < 1e-4;
        gen_shape_free(&sa);
        gen_shape_free(&sb);
    }
    printf("  %d small beside large: %d overlap, %d apart (%d scaled under 1e-4), %d failed\n", n, hits, apart, smallest,
           failures);
    assert_int_equal(failures, 0);
    assert_true(hits * 5 > n && apart * 5 > n && smallest * 5 > n);
}

// Boxes of 1e-7 to 1e-5 units, where the touching tolerance (about 1e-6 local units) is a large part
// of the box or all of it, against ordinary shapes, all at unit scale so that every tolerance is
// about 1e-6 world units, measured along either shape's axes, so up to 1.42e-6 along the other's
// when they are turned: an overlap thicker than TINY_BAND counts, a gap wider than it separates, and
// the cases between are skipped. B goes anywhere over A's box, or (its box's centre) within
// 4e-6 of one of A's texel edges. A box with a side under 2e-6 units skips the sample points (within
// its tolerance), and one under 4e-6 keeps a quarter of its width in the walks' clips: both paths
// are counted.
#define TINY_BAND 1.5e-6

// A side of 1e-7 to 1e-5 units, half the time over TINY_BAND (a box that can be decided overlapping).
static float tiny_side(gen_rng *r)
{
    double lo = gen_chance(r, 0.5) ? 1.55e-6 : 1e-7;
    return (float)exp(gen_range(r, log(lo), log(1e-5)));
}

static void unit_scale_transform(gen_rng *r, const gen_shape *s, cw_transform *t)
{
    gen_random_transform(r, s, t);
    t->scale = (cw_vec2){copysignf(1.0f, t->scale.x), copysignf(1.0f, t->scale.y)};
}

static void test_random_tiny_boxes(void **state)
{
    (void)state;
    int n = gen_scaled(4000) < 600 ? 600 : gen_scaled(4000); // enough for the floors on any salt
    int hits = 0, apart = 0, skipped = 0, tiny_hits = 0, near_misses = 0, failures = 0;
    for (int k = 0; k < n; k++) {
        gen_rng r = gen_seed(0x7129b000ull + (uint64_t)k);
        gen_shape sa, sb;
        double kind = gen_unit(&r);
        if (kind < 0.2) { // one texel, as likely to walk first as the box (it once lost every overlap then)
            unsigned char *solid = malloc(1);
            assert_non_null(solid);
            solid[0] = 1;
            assert_true(gen_mask_shape(&sa, solid, 1, 1, GEN_FILLED, 1.0, 0));
        } else if (kind < 0.75) {
            assert_true(gen_random_mask(&r, &sa));
        } else {
            gen_random_box(&r, &sa);
        }
        gen_box_shape(&sb, tiny_side(&r), tiny_side(&r));
        cw_transform ta, tb;
        unit_scale_transform(&r, &sa, &ta);
        unit_scale_transform(&r, &sb, &tb);
        if (gen_chance(&r, 0.5)) // B's box where its position is
            tb.origin = (cw_vec2){0.5f * sb.box_w, 0.5f * sb.box_h};
        ta.position = (cw_vec2){(float)gen_range(&r, -100, 100), (float)gen_range(&r, -100, 100)};
        double lx, ly, wx, wy;
        target_over(&r, &sa, 4e-6, &lx, &ly);
        ref_to_world(&ta, lx, ly, &wx, &wy);
        tb.position = (cw_vec2){(float)wx, (float)wy};
        bool ab = cw_overlap(&sa.shape, &ta, &sb.shape, &tb, NULL), ba = cw_overlap(&sb.shape, &tb, &sa.shape, &ta, NULL);
        double m = ref_margin(&sa.ref, &ta, &sb.ref, &tb);
        bool decided = fabs(m) > TINY_BAND, skips_samples = sb.box_w < 2e-6f || sb.box_h < 2e-6f;
        if (ab != ba || (decided && ab != (m > 0))) {
            if (failures++ < MAX_PRINTED) {
                printf("  tiny case %d: ab %d ba %d, reference margin %.9g\n", k, ab, ba, m);
                print_pair(&sa, &ta, &sb, &tb);
            }
        }
        skipped += !decided;
        hits += decided && m > 0;
        apart += decided && m < 0;
        tiny_hits += decided && m > 0 && skips_samples;
        near_misses += decided && m < 0 && m > -1e-5 && skips_samples;
        gen_shape_free(&sa);
        gen_shape_free(&sb);
    }
    printf("  %d tiny boxes: %d overlap, %d apart, %d skipped as near-touching, %d failed; with a side under 2e-6 units, "
           "%d overlap and %d apart by under 1e-5\n", n, hits, apart, skipped, failures, tiny_hits, near_misses);
    assert_int_equal(failures, 0);
    // Both answers well represented, also for boxes that skip the samples.
    assert_true(hits * 10 > n && apart * 10 > n && tiny_hits * 200 > n && near_misses * 200 > n);
}

// A box of 1.6e-6 to 3.5e-6 units in the middle of a one-texel mask overlaps it through and through
// (thicker than the tolerance), turned or not; 2e-6 beyond the texel's edge it does not. The walk
// over the box once clipped its unit square by the tolerance from both sides, which left nothing
// of a box under 2e-6 units, and the race ended there.
static void test_tiny_box_inside_a_texel(void **state)
{
    (void)state;
    unsigned char opaque[4] = {255, 255, 255, 255};
    cw_mask *mask = cw_mask_from_rgba(opaque, 1, 1, 4, 128);
    assert_non_null(mask);
    const cw_shape texel = cw_shape_mask(mask);
    const cw_transform at = {.position = {2.0f, -3.0f}, .rotation = 0, .scale = {1, 1}, .origin = {0.5f, 0.5f}};
    static const float sides[] = {1.6e-6f, 1.9e-6f, 2.5e-6f, 3.5e-6f};
    static const float turns[] = {0.0f, 1.57079637f, 0.3f, -6.28318548f};
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++)
        for (size_t k = 0; k < sizeof turns / sizeof turns[0]; k++) {
            const cw_shape box = cw_shape_box(sides[i], 0.8f * sides[i]);
            cw_transform t = {.position = at.position, .rotation = turns[k], .scale = {1, 1},
                              .origin = {0.5f * sides[i], 0.4f * sides[i]}};
            t.position.x += 0.141f;
            assert_true(cw_overlap(&texel, &at, &box, &t, NULL) && cw_overlap(&box, &t, &texel, &at, NULL));
            t.position.x = at.position.x + 0.5f + 1.5f * sides[i] + 2e-6f; // beyond the right edge
            assert_false(cw_overlap(&texel, &at, &box, &t, NULL) || cw_overlap(&box, &t, &texel, &at, NULL));
        }
    cw_mask_destroy(mask);
}

const struct CMUnitTest overlap_tests[] = {
    cmocka_unit_test(test_random_box_box),   cmocka_unit_test(test_random_box_mask),
    cmocka_unit_test(test_random_mask_box),  cmocka_unit_test(test_random_mask_mask),
    cmocka_unit_test(test_random_near_contact), cmocka_unit_test(test_threads_share_masks),
    cmocka_unit_test(test_random_extreme_placements), cmocka_unit_test(test_random_tiny_boxes),
    cmocka_unit_test(test_tiny_box_inside_a_texel), cmocka_unit_test(test_random_scaled_cases),
    cmocka_unit_test(test_random_small_beside_large),
};
