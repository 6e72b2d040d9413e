// cw_overlap's translated path: two masks unrotated at one scale (both mirrored alike or not, or
// one mirrored against the other), whose texel grids land on each other shifted (or mirrored).
// On seeded random pairs, narrow and wide, at whole, half, random and within-rounding-of-the-
// tolerance offsets, a quarter of them moved to whole positions and pivots (pixel art's, at any
// scale): the exact reference's answer where it is clear-cut, the same answer both ways
// round and the same answer as a world holding the two bodies (whose step prepares them and takes
// the general path to the same test) every time. Pixel art's placements (whole positions and
// pivots at scale 1, either sign) against integer arithmetic in test_translated_rows.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen.h"
#include "reference.h"
#include "suites.h"

#define MAX_PRINTED 10

// A random mask: narrow (at most 64 texels, one word a row) three times in four, else wide; short
// enough for the reference to stay quick.
static void random_mask(gen_rng *r, gen_shape *s)
{
    bool wide = gen_chance(r, 0.25);
    int w = wide ? gen_int(r, 65, 150) : gen_int(r, 1, 64), h = gen_int(r, 1, wide ? 6 : 100);
    unsigned char *solid = malloc((size_t)w * (size_t)h);
    assert_non_null(solid);
    gen_pattern p = (gen_pattern)gen_int(r, 1, GEN_PATTERN_COUNT - 1);
    double density = gen_chance(r, 0.3) ? gen_range(r, 0.002, 0.03) : gen_range(r, 0.2, 0.9); // sparse: one texel decides
    uint64_t seed = gen_next(r);
    gen_pattern_fill(solid, w, h, p, density, seed);
    assert_true(gen_mask_shape(s, solid, w, h, p, density, seed));
}

// Places B against A along one axis, where A's scale is B's times `turn` (1, or -1: A mirrored
// against B), setting B's position and both origins so that A's texel grid lands at local offset
// ox = (pa - pb) / sb + (origin_b - turn * origin_a) in B's (A's texel i covers [ox + i, ox + i + 1]
// of B's local space, or mirrored [ox - i - 1, ox - i]): by kind, a whole number of texels, a half,
// any fraction, or within a few floats of the touching tolerance (1e-6 texels) either side of a
// whole number, where rounding decides. Returns whether the offset is of that last kind.
static bool place_axis(gen_rng *r, float sb, float turn, float *pa, float *pb, float *oa, float *ob, int a_size,
                       int b_size)
{
    int kind = gen_int(r, 0, 3);
    // Where A's texels may reach B's [0, b_size): A covers [ox, ox + a_size], or [ox - a_size, ox].
    float whole = (float)(turn > 0 ? gen_int(r, -a_size, b_size) : gen_int(r, 0, a_size + b_size));
    if (kind == 3) {
        // The fraction in A's pivot (B's at 0), so that no float rounds it away: (pa - pb) / sb is
        // whole and exact for these scales and positions.
        float near = 1e-6f;
        for (int steps = gen_int(r, -4, 4); steps != 0; steps += steps < 0 ? 1 : -1)
            near = nextafterf(near, steps < 0 ? 0.0f : 1.0f);
        float fraction = gen_chance(r, 0.5) ? near : 1 - near;
        fraction = gen_chance(r, 0.5) ? fraction : -fraction;
        *oa = -turn * fraction, *ob = 0;
        *pb = *pa - whole * sb;
        return true;
    }
    *oa = (float)(gen_int(r, 0, 4 * a_size) / 4.0), *ob = (float)(gen_int(r, 0, 4 * b_size) / 4.0);
    double offset = whole + (kind == 0 ? 0 : kind == 1 ? 0.5 : gen_unit(r));
    *pb = (float)(*pa - (offset - ((double)*ob - turn * *oa)) * sb);
    return false;
}

// Whether the world finds the two bodies touching after a step.
static bool world_says(cw_world *world, const gen_shape *a, const cw_transform *ta, const gen_shape *b,
                       const cw_transform *tb)
{
    cw_body_def def = cw_default_body_def();
    def.shape = a->shape, def.transform = *ta;
    cw_body_id ida = cw_body_create(world, &def);
    def.shape = b->shape, def.transform = *tb;
    cw_body_id idb = cw_body_create(world, &def);
    assert_false(cw_body_id_is_null(ida) || cw_body_id_is_null(idb));
    cw_world_step(world);
    bool touching = cw_pair_touching(world, ida, idb);
    cw_body_destroy(world, ida);
    cw_body_destroy(world, idb);
    cw_world_step(world);
    return touching;
}

static void test_translated_pairs(void **state)
{
    (void)state;
    cw_world_def wd = cw_default_world_def();
    wd.manifolds = false;
    cw_world *world = cw_world_create(&wd);
    assert_non_null(world);
    int n = gen_scaled(8000), judged = 0, overlapping = 0, mirrored = 0, against = 0, near_tolerance = 0,
        whole = 0, failures = 0;
    uint64_t only;
    bool have_only = gen_only_seed(&only);
    for (int k = 0; k < n; k++) {
        uint64_t seed = 0x7a4e0000ull + (uint64_t)k;
        if (have_only && seed != only)
            continue;
        gen_rng r = gen_seed(seed);
        gen_shape a, b;
        random_mask(&r, &a);
        random_mask(&r, &b);
        static const float scales[] = {1, 1, 2, 0.5f, 3, 0.75f, 1.25f};
        float sx = scales[gen_int(&r, 0, 6)], sy = gen_chance(&r, 0.7) ? sx : scales[gen_int(&r, 0, 6)];
        sx = gen_chance(&r, 0.3) ? -sx : sx, sy = gen_chance(&r, 0.2) ? -sy : sy;
        // A mirrored against B (one facing left, one right) on an axis, or both alike.
        float turn_x = gen_chance(&r, 0.35) ? -1.0f : 1.0f, turn_y = gen_chance(&r, 0.2) ? -1.0f : 1.0f;
        mirrored += sx < 0 || sy < 0;
        against += turn_x < 0 || turn_y < 0;
        cw_transform ta = cw_default_transform(), tb = cw_default_transform();
        tb.scale = (cw_vec2){sx, sy};
        ta.scale = (cw_vec2){turn_x * sx, turn_y * sy};
        ta.rotation = gen_chance(&r, 0.5) ? 0.0f : -0.0f;
        tb.rotation = gen_chance(&r, 0.5) ? 0.0f : -0.0f;
        ta.position = (cw_vec2){(float)(gen_int(&r, -8000, 8000) / 8.0), (float)(gen_int(&r, -8000, 8000) / 8.0)};
        bool fine_x = place_axis(&r, sx, turn_x, &ta.position.x, &tb.position.x, &ta.origin.x, &tb.origin.x, a.w, b.w);
        bool fine_y = place_axis(&r, sy, turn_y, &ta.position.y, &tb.position.y, &ta.origin.y, &tb.origin.y, a.h, b.h);
        near_tolerance += fine_x || fine_y;
        if (gen_chance(&r, 0.25)) { // pixel art's whole positions and pivots, at any of the scales
            whole += 1;
            ta.position = (cw_vec2){roundf(ta.position.x), roundf(ta.position.y)};
            tb.position = (cw_vec2){roundf(tb.position.x), roundf(tb.position.y)};
            ta.origin = (cw_vec2){roundf(ta.origin.x), roundf(ta.origin.y)};
            tb.origin = (cw_vec2){roundf(tb.origin.x), roundf(tb.origin.y)};
        }
        cw_clear_error();
        bool ab = cw_overlap(&a.shape, &ta, &b.shape, &tb, NULL), ba = cw_overlap(&b.shape, &tb, &a.shape, &ta, NULL);
        assert_string_equal(cw_last_error(), "");
        bool in_world = world_says(world, &a, &ta, &b, &tb);
        // The same placement of A as half a turn with both scales turned round (the float nearest pi
        // counts as pi): the general path, whose map finds the mirrored grid.
        cw_transform turned = ta;
        turned.rotation = (float)GEN_PI;
        turned.scale = (cw_vec2){-ta.scale.x, -ta.scale.y};
        bool half_turn = cw_overlap(&a.shape, &turned, &b.shape, &tb, NULL);
        double m = ref_margin_capped(&a.ref, &ta, &b.ref, &tb, 0.01);
        bool clear = fabs(m) >= 1e-3;
        judged += clear;
        overlapping += clear && m > 0;
        if (ab != ba || ab != in_world || (clear && ab != (m > 0)) || half_turn != ab) {
            if (++failures <= MAX_PRINTED) {
                printf("  case %#llx: cw_overlap(a, b) %d, (b, a) %d, world %d, a half-turned %d, reference margin "
                       "%.9g\n",
                       (unsigned long long)seed, ab, ba, in_world, half_turn, m);
                gen_print_shape(stdout, "a", &a);
                gen_print_transform(stdout, "ta", &ta);
                gen_print_shape(stdout, "b", &b);
                gen_print_transform(stdout, "tb", &tb);
            }
        }
        gen_shape_free(&a);
        gen_shape_free(&b);
    }
    cw_world_destroy(world);
    printf("  translated pairs: %d cases (%d with a negative scale, %d one mirrored against the other, %d within "
           "rounding of the tolerance, %d at whole positions and pivots), %d judged by the reference (%d "
           "overlapping), %d failed\n",
           n, mirrored, against, near_tolerance, whole, judged, overlapping, failures);
    assert_int_equal(failures, 0);
    if (!have_only && n >= 100) { // both answers well represented among the clear-cut cases
        assert_true(overlapping * 5 > judged && (judged - overlapping) * 5 > judged);
        assert_true(judged * 2 > n);
    }
}

// A sparse random mask (a few opaque texels) of the given size; one of its opaque texels in *x, *y.
static unsigned char *sparse_solid(gen_rng *r, int w, int h, int *x, int *y)
{
    unsigned char *solid = calloc((size_t)w * (size_t)h, 1);
    assert_non_null(solid);
    if (gen_chance(r, 0.5)) // opaque rows from top to bottom: the loops run whole 32-row chunks
        solid[0] = solid[(size_t)(h - 1) * (size_t)w] = 1;
    for (int n = gen_int(r, 1, 3); n > 0; n--) {
        *x = gen_int(r, 0, w - 1), *y = gen_int(r, 0, h - 1);
        solid[(size_t)*y * (size_t)w + (size_t)*x] = 1;
    }
    return solid;
}

// Where A's texel (i, j) lands, relative to A's position, under scale (fx, fy) (each 1 or -1) and
// `quarters` quarter turns: the least corner of its image, a whole number each way.
static void texel_image(int i, int j, int fx, int fy, int quarters, int *x, int *y)
{
    int cx[2], cy[2];
    for (int c = 0; c < 2; c++) {
        int u = fx * (i + c), v = fy * (j + c); // scaled corner, then turned
        cx[c] = quarters == 0 ? u : quarters == 1 ? -v : quarters == 2 ? -u : v;
        cy[c] = quarters == 0 ? v : quarters == 1 ? u : quarters == 2 ? -v : -u;
    }
    *x = cx[0] < cx[1] ? cx[0] : cx[1];
    *y = cy[0] < cy[1] ? cy[0] : cy[1];
}

// B's texel column (row) under world column `w` (the least corner of a texel's image), for B at
// position p with pivot o and scale g (1 or -1).
static int texel_under(int w, int p, int o, int g) { return g > 0 ? w - p + o : p - w - 1 + o; }

// Pixel art's placements: whole positions and whole pivots at scale 1 or -1 on each axis for both
// (mirrored alike, or one against the other), A turned by 0 to 3 quarter turns (the floats nearest
// the multiples of pi/2, which count as exact), masks with a few opaque texels each and up to 100
// rows: every row of the word-wise loops (the 32-row groups, the mirrored rows) decides some case,
// and the quarter turns take the general walk. The reference is integer arithmetic: which texel of
// B each of A's lands on.
static void test_translated_rows(void **state)
{
    (void)state;
    int n = gen_scaled(20000), hits = 0, turned = 0, failures = 0;
    for (int k = 0; k < n; k++) {
        gen_rng r = gen_seed(0x7a4f0000ull + (uint64_t)k);
        int wa = gen_int(&r, 1, 64), ha = gen_int(&r, 1, 100), wb = gen_int(&r, 1, 64), hb = gen_int(&r, 1, 100);
        int xa = 0, ya = 0, xb = 0, yb = 0;
        unsigned char *sa = sparse_solid(&r, wa, ha, &xa, &ya), *sb = sparse_solid(&r, wb, hb, &xb, &yb);
        cw_mask *ma = gen_make_mask(sa, wa, ha, gen_next(&r)), *mb = gen_make_mask(sb, wb, hb, gen_next(&r));
        assert_non_null(ma);
        assert_non_null(mb);
        int fx = gen_chance(&r, 0.3) ? -1 : 1, fy = gen_chance(&r, 0.2) ? -1 : 1;
        int gx = gen_chance(&r, 0.3) ? -1 : 1, gy = gen_chance(&r, 0.2) ? -1 : 1;
        int quarters = gen_chance(&r, 0.5) ? 0 : gen_int(&r, 1, 3);
        turned += quarters == 1 || quarters == 3;
        static const double turns[4] = {0, GEN_PI / 2, GEN_PI, -GEN_PI / 2};
        cw_transform ta = cw_default_transform(), tb = cw_default_transform();
        ta.scale = (cw_vec2){(float)fx, (float)fy};
        tb.scale = (cw_vec2){(float)gx, (float)gy};
        ta.rotation = (float)turns[quarters];
        int pax = gen_int(&r, -100, 100), pay = gen_int(&r, -100, 100);
        int oax = gen_chance(&r, 0.3) ? 0 : gen_int(&r, -8, wa + 8), oay = gen_chance(&r, 0.3) ? 0 : gen_int(&r, -8, ha + 8);
        int obx = gen_chance(&r, 0.3) ? 0 : gen_int(&r, -8, wb + 8), oby = gen_chance(&r, 0.3) ? 0 : gen_int(&r, -8, hb + 8);
        ta.position = (cw_vec2){(float)pax, (float)pay};
        ta.origin = (cw_vec2){(float)oax, (float)oay};
        tb.origin = (cw_vec2){(float)obx, (float)oby};
        // B placed so that one opaque texel of A lands on one of B, or a few texels beside it.
        int ix, iy;
        texel_image(xa - oax, ya - oay, fx, fy, quarters, &ix, &iy);
        int tx = xb + (gen_chance(&r, 0.5) ? 0 : gen_int(&r, -3, 3)), ty = yb + (gen_chance(&r, 0.5) ? 0 : gen_int(&r, -3, 3));
        int pbx = gx > 0 ? pax + ix + obx - tx : tx + pax + ix + 1 - obx;
        int pby = gy > 0 ? pay + iy + oby - ty : ty + pay + iy + 1 - oby;
        tb.position = (cw_vec2){(float)pbx, (float)pby};
        assert_int_equal(texel_under(pax + ix, pbx, obx, gx), tx);
        bool expected = false;
        for (int j = 0; j < ha && !expected; j++)
            for (int i = 0; i < wa && !expected; i++) {
                int x, y;
                texel_image(i - oax, j - oay, fx, fy, quarters, &x, &y);
                x = texel_under(pax + x, pbx, obx, gx), y = texel_under(pay + y, pby, oby, gy);
                expected = sa[j * wa + i] && x >= 0 && x < wb && y >= 0 && y < hb && sb[y * wb + x];
            }
        cw_shape a = cw_shape_mask(ma), b = cw_shape_mask(mb);
        bool ab = cw_overlap(&a, &ta, &b, &tb, NULL), ba = cw_overlap(&b, &tb, &a, &ta, NULL);
        hits += expected;
        if ((ab != expected || ba != expected) && ++failures <= MAX_PRINTED)
            printf("  rows case %d: %dx%d at (%d, %d) pivot (%d, %d) scale (%d, %d), %d quarter turns, against %dx%d "
                   "at (%d, %d) pivot (%d, %d) scale (%d, %d): cw_overlap %d / %d, expected %d\n",
                   k, wa, ha, pax, pay, oax, oay, fx, fy, quarters, wb, hb, pbx, pby, obx, oby, gx, gy, ab, ba, expected);
        cw_mask_destroy(ma);
        cw_mask_destroy(mb);
        free(sa);
        free(sb);
    }
    printf("  translated rows: %d sparse pairs at whole offsets (%d a quarter turn apart), %d overlapping, %d "
           "failed\n",
           n, turned, hits, failures);
    assert_int_equal(failures, 0);
    if (n >= 1000)
        assert_true(hits * 4 > n && (n - hits) * 4 > n && turned * 5 > n);
}

const struct CMUnitTest translated_tests[TRANSLATED_TEST_COUNT] = {
    cmocka_unit_test(test_translated_pairs),
    cmocka_unit_test(test_translated_rows),
};
