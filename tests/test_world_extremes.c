// World scenes whose geometry is hard, each stepped through the brute-force reference (world_ref.h):
// placements at the edges of the float range (most found by the world fuzzer: x = -1e30, origins
// at FLT_MAX, a 3e22-unit box, pivots 1e34 units out cancelled by the position, bodies 1e38 units
// tall under the automatic cell size), and masks under rotation and mirroring.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "suites.h"
#include "world_helpers.h"
#include "world_ref.h"

// --- extreme placements ---

// Where float AABBs lose their extent (x = -1e30, or an origin that overflows the float range) the
// world must still report what cw_overlap() says, and extreme scales must not reach UB.
static void test_extreme_placements(void **state)
{
    (void)state;
    unsigned char *solid = calloc(16, 1);
    assert_non_null(solid);
    memset(solid, 1, 16);
    gen_shape m;
    assert_true(gen_mask_shape(&m, solid, 4, 4, GEN_FILLED, 0, 1));
    struct {
        const char *name;
        cw_shape shape;
        cw_transform t;
    } cases[3];
    cases[0].name = "masks at x = -1e30", cases[0].shape = m.shape, cases[0].t = wh_at(-1.0e30f, 0);
    cases[1].name = "boxes whose origin is FLT_MAX", cases[1].shape = cw_shape_box(2, 2), cases[1].t = wh_at(0, 0);
    cases[1].t.origin = (cw_vec2){3.4028235e38f, 0};
    cases[2].name = "a mask at scale 1e-30 beside a huge box", cases[2].shape = m.shape, cases[2].t = wh_at(1, 0);
    cases[2].t.scale = (cw_vec2){-2.5f, 7.8e-31f};
    for (int k = 0; k < 3; k++) {
        wr_world *w = wh_make_world(cases[k].name, NULL, NULL);
        cw_body_def def = cw_default_body_def();
        def.shape = cases[k].shape;
        def.transform = cases[k].t;
        ref_shape ref = k == 1 ? ref_box(2, 2) : m.ref;
        assert_true(wr_body_create(w, &def, &ref, 0) >= 0);
        if (k == 2) { // a box of size FLT_MAX: extreme size ratios in the mask walk's cost estimate
            def.shape = cw_shape_box(3.4028235e38f, 0.875f);
            def.transform = wh_at(1, 0);
            def.transform.rotation = -4;
            def.transform.scale = (cw_vec2){0.25f, 0.25f};
            ref = ref_box(3.4028235e38f, 0.875f);
        } else {
            def.is_static = true;
        }
        assert_true(wr_body_create(w, &def, &ref, 0) >= 0);
        STEP(w);
        if (k < 2)
            assert_int_equal(wh_count_phase(w, WR_BEGIN), 1);
        wh_finish(w);
    }
    gen_shape_free(&m);
}

// Found by the world fuzzer: a box 3e22 units long, turned, overlaps a small sprite at its pivot
// corner; its AABB (centre plus or minus half extents) lost every digit below 1e6 there.
static void test_huge_box_at_its_pivot(void **state)
{
    (void)state;
    wr_world *w = wh_make_world("huge box", NULL, NULL);
    cw_body_def big = cw_default_body_def();
    big.shape = cw_shape_box(0x1.f7fff8p+2f, 0x1p+73f);
    big.transform = wh_at(1, 1);
    big.transform.rotation = 1;
    big.transform.scale = (cw_vec2){-0x1.ce147ap+1f, -0x1.ce147ap+1f};
    ref_shape big_ref = ref_box(0x1.f7fff8p+2f, 0x1p+73f);
    assert_true(wr_body_create(w, &big, &big_ref, 0) >= 0);
    // A small striped sprite at the big box's pivot corner (the fuzzer's case).
    unsigned char *solid = calloc(16, 1);
    assert_non_null(solid);
    for (int j = 0; j < 4; j++)
        solid[4 * j] = solid[4 * j + 2] = 1;
    gen_shape stripes;
    assert_true(gen_mask_shape(&stripes, solid, 4, 4, GEN_VLINES, 0, 1));
    cw_body_def small = cw_default_body_def();
    small.shape = stripes.shape;
    small.transform = wh_at(1, 0x1p-148f);
    small.transform.scale = (cw_vec2){0.25f, 0.25f};
    small.is_static = true;
    assert_true(cw_overlap(&big.shape, &big.transform, &small.shape, &small.transform, NULL));
    assert_true(wr_body_create(w, &small, &stripes.ref, 0) >= 0);
    STEP(w);
    assert_int_equal(wh_count_phase(w, WR_BEGIN), 1);
    wh_finish(w);
    gen_shape_free(&stripes);
}

// Found by the world fuzzer: a pivot 1e34 units outside a sprite, cancelled exactly by its position,
// puts the sprite near the world origin; its AABB, the hull's corners summed with that pivot in
// double, came out as the point (0, 0) and missed every contact. Random sprites placed that way
// (unrotated, power-of-two scales, pivots beyond 2^77, so the cancellation is exact) among ordinary
// sprites at position (0, 0) with their pivot there too, whose first row is transparent: cw_overlap()
// is exact between the two kinds, and no ordinary sprite's AABB holds the point (0, 0).
static void test_far_pivot_cancelled_by_position(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0xfa4b17);
    enum { NS = 6, NB = 40 };
    gen_shape shapes[NS]; // even: for the far sprites; odd: ordinary, without opaque texels in row 0
    for (int k = 0; k < NS; k++) {
        if (k % 2 == 0) {
            assert_true(gen_random_mask(&r, &shapes[k]));
            continue;
        }
        int mw = gen_int(&r, 2, 40), mh = gen_int(&r, 2, 40);
        unsigned char *solid = malloc((size_t)(mw * mh));
        assert_non_null(solid);
        gen_pattern_fill(solid, mw, mh, GEN_NOISE, 0.6, (uint64_t)k);
        memset(solid, 0, (size_t)mw); // row 0
        solid[mw + gen_int(&r, 0, mw - 1)] = 1; // not empty
        assert_true(gen_mask_shape(&shapes[k], solid, mw, mh, GEN_NOISE, 0.6, (uint64_t)k));
    }
    wr_world *w = wh_make_world("far pivots", NULL, NULL);
    static const float scales[] = {0.25f, 0.5f, 1, 2};
    for (int k = 0; k < NB; k++) {
        gen_shape *s = &shapes[k % NS];
        cw_body_def def = cw_default_body_def();
        def.shape = s->shape;
        def.transform.scale = (cw_vec2){scales[gen_int(&r, 0, 3)], scales[gen_int(&r, 0, 3)]};
        if (k % 2 == 0) { // far: position = scale * origin, exactly
            def.transform.origin = (cw_vec2){ldexpf((float)gen_range(&r, -1, 1), gen_int(&r, 78, 115)),
                                             ldexpf((float)gen_range(&r, -1, 1), gen_int(&r, 78, 115))};
            def.transform.position = (cw_vec2){def.transform.scale.x * def.transform.origin.x,
                                               def.transform.scale.y * def.transform.origin.y};
        }
        assert_true(wr_body_create(w, &def, &s->ref, k % 2 == 0) >= 0);
    }
    STEP(w);
    int n, far_begins = 0;
    const wr_event *e = wr_events(w, &n);
    for (int k = 0; k < n; k++)
        far_begins += e[k].phase == WR_BEGIN && wr_tag(w, wr_handle_of(w, e[k].contact.a)) +
                                                        wr_tag(w, wr_handle_of(w, e[k].contact.b)) == 1;
    printf("  far pivots: %d begins pair a far-pivot sprite with an ordinary one\n", far_begins);
    assert_true(far_begins > 0);
    wh_finish(w);
    for (int k = 0; k < NS; k++)
        gen_shape_free(&shapes[k]);
}

// Found by the world fuzzer: a body 1e38 units tall made the automatic cell size (twice the mean
// extent) overflow the float range; the grid then took an infinite cell and grew its cell table
// until memory ran out. The cell size must stay finite, and the world must keep working.
static void test_auto_cell_with_giant_bodies(void **state)
{
    (void)state;
    unsigned char *solid = calloc(6, 1);
    assert_non_null(solid);
    memset(solid, 1, 6);
    gen_shape m;
    assert_true(gen_mask_shape(&m, solid, 3, 2, GEN_FILLED, 0, 1));
    wr_world *w = wh_make_world("giant bodies", NULL, NULL);
    cw_body_def giant = cw_default_body_def();
    giant.shape = m.shape;
    giant.transform = (cw_transform){{-1, 40}, 4, {4, -0x1.2p+127f}, {0, 0}};
    giant.is_static = true;
    assert_true(wr_body_create(w, &giant, &m.ref, 0) >= 0);
    STEP(w);
    cw_body_def small = cw_default_body_def();
    small.shape = m.shape;
    for (int k = 0; k < 8; k++) {
        small.transform = wh_at((float)(-4 + 2 * (k % 4)), (float)(38 + 2 * (k / 4))); // around the giant's pivot
        assert_true(wr_body_create(w, &small, &m.ref, 0) >= 0);
        STEP(w);
        cw_world_stats st = cw_world_get_stats(wr_cw(w));
        assert_true(isfinite(st.cell_size) && st.cell_size >= CW_MIN_CELL_SIZE);
    }
    assert_true(wr_get_totals(w).begins > 0); // the small ones inside the giant
    wh_finish(w);
    gen_shape_free(&m);
}

// --- a mask scene ---

// Masks under rotation and mirroring, one stepping reference scene (few bodies, every pair checked).
static void test_mask_scene(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0x5ce7e);
    enum { NS = 12, NB = 40 };
    gen_shape shapes[NS];
    for (int k = 0; k < NS; k++) {
        if (k % 2)
            assert_true(gen_random_mask(&r, &shapes[k]));
        else
            gen_random_box(&r, &shapes[k]);
    }
    wr_world *w = wh_make_world("mask scene", NULL, NULL);
    for (int k = 0; k < NB; k++) {
        const gen_shape *s = &shapes[k % NS];
        cw_body_def def = cw_default_body_def();
        def.shape = s->shape;
        gen_random_transform(&r, s, &def.transform);
        def.transform.position = (cw_vec2){(float)gen_range(&r, -60, 60), (float)gen_range(&r, -60, 60)};
        def.is_static = k % 5 == 0;
        def.user_data = &wh_users[k];
        assert_true(wr_body_create(w, &def, &s->ref, 0) >= 0);
    }
    for (int step = 0; step < 40; step++) {
        for (int k = 0; k < wr_live_count(w); k++) {
            int h = wr_live_at(w, k);
            if (!gen_chance(&r, 0.4))
                continue;
            cw_transform t = wr_transform(w, h);
            t.position.x += (float)gen_range(&r, -4, 4);
            t.position.y += (float)gen_range(&r, -4, 4);
            t.rotation += (float)gen_range(&r, -0.2, 0.2);
            wr_set_transform(w, h, &t);
        }
        STEP(w);
    }
    printf("  mask scene: %ld begins, %ld stays, %ld ends over %d steps\n", wr_get_totals(w).begins,
           wr_get_totals(w).stays, wr_get_totals(w).ends, wr_steps(w));
    wh_finish(w);
    for (int k = 0; k < NS; k++)
        gen_shape_free(&shapes[k]);
}

const struct CMUnitTest world_extreme_tests[] = {
    cmocka_unit_test(test_mask_scene),
    cmocka_unit_test(test_extreme_placements),
    cmocka_unit_test(test_huge_box_at_its_pivot),
    cmocka_unit_test(test_far_pivot_cancelled_by_position),
    cmocka_unit_test(test_auto_cell_with_giant_bodies),
};
