// cw_place() and cw_placed_overlap(): on seeded random pairs of every kind (boxes and masks, any
// rotation, scale and mirroring, near contact, far from the origin), and on pairs bent towards the
// short paths (unrotated sprites at one scale, mirrored, at whole offsets, placed on either side of
// the moderate bounds), the answer and the manifold are cw_overlap()'s to the bit, both ways round;
// a copied placement works; and each kind of misuse fails with its message.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "suites.h"

#define MAX_PRINTED 5

// A float on either side of a bound the short paths judge by (2^16 for positions, 2^14 for pivots,
// 1/16 and 16 for scales), or a plain value.
static float near_bound(gen_rng *r, float bound, float plain)
{
    if (!gen_chance(r, 0.5))
        return plain;
    float f = gen_chance(r, 0.5) ? nextafterf(bound, 0) : bound;
    return gen_chance(r, 0.5) ? -f : f;
}

// Bends the case towards the short paths: both unrotated at one scale (B mirrored on x, y or both
// at times), at whole or quarter offsets, sometimes right at the moderate bounds.
static void bend_to_sprites(gen_rng *r, gen_case *c)
{
    c->ta.rotation = c->tb.rotation = gen_chance(r, 0.9) ? 0.0f : -0.0f;
    float s = gen_chance(r, 0.5) ? 1.0f : (float)ldexp(1, gen_int(r, -5, 5)) * (gen_chance(r, 0.5) ? 1.5f : 1);
    c->ta.scale = (cw_vec2){s, s};
    c->tb.scale = (cw_vec2){gen_chance(r, 0.3) ? -s : s, gen_chance(r, 0.15) ? -s : s};
    float step = gen_chance(r, 0.6) ? 1.0f : 0.25f;
    c->ta.position = (cw_vec2){step * (float)gen_int(r, -400, 400), step * (float)gen_int(r, -400, 400)};
    c->tb.position = (cw_vec2){c->ta.position.x + step * (float)gen_int(r, -40, 40),
                               c->ta.position.y + step * (float)gen_int(r, -40, 40)};
    if (gen_chance(r, 0.2)) { // at the bounds: one side moderate, the other not, or both either way
        c->ta.position.x = near_bound(r, 65536.0f, c->ta.position.x);
        c->tb.origin.y = near_bound(r, 16384.0f, c->tb.origin.y);
        c->ta.scale.x = c->tb.scale.x = near_bound(r, gen_chance(r, 0.5) ? 16.0f : 0.0625f, c->ta.scale.x);
    }
}

// cw_overlap and cw_placed_overlap on (a, b), without and with a manifold; prints and counts a
// difference.
static int compare(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                   const cw_placed *pa, const cw_placed *pb, uint64_t seed)
{
    int differs = 0;
    for (int with_manifold = 0; with_manifold < 2; with_manifold++) {
        cw_manifold m1, m2;
        memset(&m1, 0x5a, sizeof m1);
        memset(&m2, 0x5a, sizeof m2);
        cw_clear_error();
        bool direct = cw_overlap(a, ta, b, tb, with_manifold ? &m1 : NULL);
        bool placed = cw_placed_overlap(pa, pb, with_manifold ? &m2 : NULL);
        assert_string_equal(cw_last_error(), "");
        if (direct != placed || memcmp(&m1, &m2, sizeof m1) != 0) {
            if (differs++ == 0)
                printf("  seed %#llx%s: cw_overlap %d, cw_placed_overlap %d, manifolds %s\n", (unsigned long long)seed,
                       with_manifold ? " with a manifold" : "", direct, placed,
                       memcmp(&m1, &m2, sizeof m1) == 0 ? "equal" : "differ");
        }
    }
    return differs;
}

static void test_placed_is_cw_overlap(void **state)
{
    (void)state;
    int n = gen_scaled(2400), differences = 0, touching = 0, sprites = 0;
    for (int k = 0; k < n; k++) {
        gen_case c;
        // Near contact (placed there by the reference: slower to make) one case in four.
        unsigned stream = k % 4 == 0 ? GEN_STREAM_CONTACT : k % 4 == 1 ? GEN_STREAM_MIRROR : GEN_STREAM_OVERLAP;
        uint64_t seed = gen_case_seed(stream, (gen_kind)(k % 4), (uint32_t)k);
        assert_true(gen_case_make(&c, seed));
        gen_rng r = gen_seed(seed ^ 0x706c6163ull);
        if (gen_chance(&r, 0.4)) {
            bend_to_sprites(&r, &c);
            sprites++;
        }
        cw_placed pa, pb, copy;
        assert_true(cw_place(&c.a.shape, &c.ta, &pa));
        assert_true(cw_place(&c.b.shape, &c.tb, &pb));
        memcpy(&copy, &pa, sizeof copy); // a plain value: a copy works as the original
        int d = compare(&c.a.shape, &c.ta, &c.b.shape, &c.tb, &copy, &pb, seed) +
                compare(&c.b.shape, &c.tb, &c.a.shape, &c.ta, &pb, &pa, seed);
        if (d != 0 && differences < MAX_PRINTED)
            gen_case_print(stdout, &c);
        differences += d != 0;
        touching += cw_overlap(&c.a.shape, &c.ta, &c.b.shape, &c.tb, NULL);
        gen_case_free(&c);
    }
    printf("  %d random pairs (%d bent to unrotated sprites), %d touching: %d differ from cw_overlap\n", n, sprites,
           touching, differences);
    assert_int_equal(differences, 0);
    assert_true(touching > n / 5 && touching < n - n / 5); // both answers are exercised
}

// The misuse each entry point refuses, with its message.
static void expect_error(bool result, const char *message)
{
    assert_false(result);
    assert_string_equal(cw_last_error(), message);
    cw_clear_error();
}

static void test_placed_misuse(void **state)
{
    (void)state;
    cw_shape box = cw_shape_box(4, 2), no_mask = cw_shape_mask(NULL), zero = cw_shape_box(0, 2);
    cw_transform t = cw_default_transform(), nan = t, flat = t;
    nan.position.x = NAN;
    flat.scale.y = 0;
    cw_placed good, bad, never;
    memset(&never, 0, sizeof never);
    assert_true(cw_place(&box, &t, &good));
    expect_error(cw_place(&box, &t, NULL), "The placed-shape output pointer is NULL.");
    expect_error(cw_place(NULL, &t, &bad), "The shape is NULL.");
    expect_error(cw_place(&box, NULL, &bad), "The transform is NULL.");
    expect_error(cw_place(&no_mask, &t, &bad), "The mask shape has a NULL mask.");
    expect_error(cw_place(&zero, &t, &bad), "A box needs a finite width and height greater than zero.");
    cw_shape unknown = box;
    unknown.type = (cw_shape_type)7;
    expect_error(cw_place(&unknown, &t, &bad), "The shape type is unknown: use CW_SHAPE_BOX or CW_SHAPE_MASK.");
    expect_error(cw_place(&box, &nan, &bad), "The transform has a non-finite position, rotation, scale or origin.");
    expect_error(cw_place(&box, &flat, &bad), "The transform has a zero scale.");
    // The same words as cw_overlap's for the same bad input.
    assert_false(cw_overlap(&box, &flat, &box, &t, NULL));
    char overlap_message[256];
    snprintf(overlap_message, sizeof overlap_message, "%s", cw_last_error());
    assert_false(cw_place(&box, &flat, &bad));
    assert_string_equal(cw_last_error(), overlap_message);
    cw_clear_error();
    const char *unfilled = "The placed shape was not filled by cw_place() (or its cw_place() failed).";
    expect_error(cw_placed_overlap(NULL, &good, NULL), "The placed shape is NULL.");
    expect_error(cw_placed_overlap(&good, NULL, NULL), "The placed shape is NULL.");
    expect_error(cw_placed_overlap(&good, &never, NULL), unfilled);
    expect_error(cw_placed_overlap(&bad, &good, NULL), unfilled); // its last cw_place() failed
    memcpy(&bad, &good, sizeof bad);
    assert_false(cw_place(&box, &nan, &bad)); // a failed cw_place() spoils a placement that was good
    cw_clear_error();
    expect_error(cw_placed_overlap(&good, &bad, NULL), unfilled);
    cw_manifold m;
    expect_error(cw_placed_overlap(&never, &never, &m), unfilled);
    assert_true(cw_placed_overlap(&good, &good, &m)); // a shape overlaps itself
    assert_string_equal(cw_last_error(), "");
}

const struct CMUnitTest placed_tests[] = {
    cmocka_unit_test(test_placed_is_cw_overlap),
    cmocka_unit_test(test_placed_misuse),
};
