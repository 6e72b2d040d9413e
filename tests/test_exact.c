// The documented exactness semantics: touching edges and corners do not overlap, any positive-area
// overlap does, at any rotation and scale; mirroring by a negative scale is the same as mirrored data.
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

static bool overlap_checked(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb)
{
    cw_clear_error();
    bool ab = cw_overlap(a, ta, b, tb, NULL);
    assert_string_equal(cw_last_error(), "");
    bool ba = cw_overlap(b, tb, a, ta, NULL);
    assert_string_equal(cw_last_error(), "");
    if (ab != ba)
        printf("  asymmetric: cw_overlap(a, b) = %d, cw_overlap(b, a) = %d\n", ab, ba);
    assert_int_equal(ab, ba);
    return ab;
}

static cw_mask *mask_from_solid(const unsigned char *solid, int w, int h)
{
    uint8_t *alpha = malloc((size_t)w * (size_t)h);
    assert_non_null(alpha);
    for (int k = 0; k < w * h; k++)
        alpha[k] = solid[k] ? 255 : 0;
    cw_mask *m = cw_mask_from_alpha(alpha, w, h, w, 1);
    free(alpha);
    assert_non_null(m);
    return m;
}

static void test_unit_boxes(void **state)
{
    (void)state;
    cw_shape box = cw_shape_box(1, 1);
    cw_transform a = cw_default_transform();
    static const float touching[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 0.5f}, {0.25f, -1}};
    for (size_t k = 0; k < sizeof touching / sizeof touching[0]; k++) {
        cw_transform b = xf(touching[k][0], touching[k][1], 0, 1, 1, 0, 0);
        assert_false(overlap_checked(&box, &a, &box, &b));
    }
    static const float overlapping[][2] = {{0.99f, 0}, {0, 0.99f}, {-0.99f, 0}, {0.99f, 0.99f}, {-0.99f, 0.5f}, {0, 0}};
    for (size_t k = 0; k < sizeof overlapping / sizeof overlapping[0]; k++) {
        cw_transform b = xf(overlapping[k][0], overlapping[k][1], 0, 1, 1, 0, 0);
        assert_true(overlap_checked(&box, &a, &box, &b));
    }
    // A filled 1x1 mask is the same as the unit box.
    static const unsigned char one = 1;
    cw_mask *m = mask_from_solid(&one, 1, 1);
    cw_shape ms = cw_shape_mask(m);
    for (size_t k = 0; k < sizeof touching / sizeof touching[0]; k++) {
        cw_transform b = xf(touching[k][0], touching[k][1], 0, 1, 1, 0, 0);
        assert_false(overlap_checked(&ms, &a, &box, &b));
        assert_false(overlap_checked(&ms, &a, &ms, &b));
    }
    for (size_t k = 0; k < sizeof overlapping / sizeof overlapping[0]; k++) {
        cw_transform b = xf(overlapping[k][0], overlapping[k][1], 0, 1, 1, 0, 0);
        assert_true(overlap_checked(&ms, &a, &box, &b));
        assert_true(overlap_checked(&ms, &a, &ms, &b));
    }
    // Turned by a float pi/2, pi, -pi/2 together about the same pivot: still touching along y = 1
    // in the turned frame (the float angle is 4e-8 from the real one: within the tolerance).
    static const double quarter[] = {GEN_PI / 2, GEN_PI, -GEN_PI / 2, 3 * GEN_PI / 2};
    for (size_t k = 0; k < sizeof quarter / sizeof quarter[0]; k++) {
        float rot = (float)quarter[k];
        cw_transform ta = xf(3, 2, rot, 1, 1, 0, 0);
        cw_transform tb = xf(3, 2, rot, 1, 1, 0, -1); // one unit further along local y
        assert_false(overlap_checked(&box, &ta, &box, &tb));
        assert_false(overlap_checked(&ms, &ta, &box, &tb));
        tb.origin = (cw_vec2){-1, -1}; // corner to corner
        assert_false(overlap_checked(&box, &ta, &ms, &tb));
        tb.origin = (cw_vec2){0, -0.99f};
        assert_true(overlap_checked(&box, &ta, &box, &tb));
        assert_true(overlap_checked(&ms, &ta, &ms, &tb));
    }
    cw_mask_destroy(m);
}

// Boxes (and a box against a mask) turned together by random angles and scales, about the same
// pivot, side by side in their own frame: touching, so no overlap; pushed 0.01 in: overlap.
static void test_rotated_boxes_side_by_side(void **state)
{
    (void)state;
    static const unsigned char solid[6] = {1, 1, 1, 1, 1, 1};
    cw_mask *m = mask_from_solid(solid, 3, 2);
    cw_shape mask = cw_shape_mask(m);
    gen_rng r = gen_seed(77);
    int n = gen_scaled(500);
    for (int k = 0; k < n; k++) {
        float rot = (float)gen_range(&r, -7, 7);
        float sx = (float)gen_range(&r, 0.3, 3) * (gen_chance(&r, 0.3) ? -1.0f : 1.0f);
        float sy = (float)gen_range(&r, 0.3, 3) * (gen_chance(&r, 0.3) ? -1.0f : 1.0f);
        float px = (float)gen_range(&r, -5, 5), py = (float)gen_range(&r, -5, 5);
        float w = (float)gen_int(&r, 1, 8) * 0.5f, h = (float)gen_int(&r, 1, 8) * 0.5f;
        cw_shape box = cw_shape_box(w, h);
        cw_transform ta = xf(px, py, rot, sx, sy, 0, 0);
        // B's local (x, y) lands where A's local (x + w, y + dy) does.
        float dy = h * (float)gen_int(&r, -3, 3) * 0.25f; // |dy| < h: the sides share a segment
        cw_transform tb = xf(px, py, rot, sx, sy, -w, -dy);
        bool side = overlap_checked(&box, &ta, &box, &tb);
        tb.origin = (cw_vec2){-w + 0.01f, -dy};
        bool pushed = overlap_checked(&box, &ta, &box, &tb);
        // The 3x2 mask to the right of the box, then above it (y = h).
        cw_transform tm = xf(px, py, rot, sx, sy, -w, -dy);
        bool mask_side = overlap_checked(&box, &ta, &mask, &tm);
        tm.origin = (cw_vec2){0, -h};
        bool mask_above = overlap_checked(&box, &ta, &mask, &tm);
        tm.origin = (cw_vec2){0, -h + 0.01f};
        bool mask_pushed = overlap_checked(&box, &ta, &mask, &tm);
        if (side || !pushed || mask_side || mask_above || !mask_pushed)
            printf("  case %d: rot %.9g scale (%.9g, %.9g) position (%.9g, %.9g) box %gx%g dy %g: side %d pushed %d "
                   "mask side %d mask above %d mask pushed %d\n",
                   k, (double)rot, (double)sx, (double)sy, (double)px, (double)py, (double)w, (double)h, (double)dy, side,
                   pushed, mask_side, mask_above, mask_pushed);
        assert_false(side);
        assert_true(pushed);
        assert_false(mask_side);
        assert_false(mask_above);
        assert_true(mask_pushed);
    }
    cw_mask_destroy(m);
}

// 64x64 comb: a spine on row 0, 1-texel teeth on even columns over rows 1-62, row 63 empty.
static unsigned char *comb_solid(void)
{
    unsigned char *s = calloc(64 * 64, 1);
    assert_non_null(s);
    for (int i = 0; i < 64; i++)
        s[i] = 1;
    for (int j = 1; j < 63; j++)
        for (int i = 0; i < 64; i += 2)
            s[j * 64 + i] = 1;
    return s;
}

static void test_interlocking_combs(void **state)
{
    (void)state;
    unsigned char *solid = comb_solid();
    cw_mask *m = mask_from_solid(solid, 64, 64);
    cw_shape comb = cw_shape_mask(m);
    ref_shape ref = ref_mask(solid, 64, 64);
    // B is the comb flipped upside down (spine at the bottom), so the teeth interlock.
    cw_transform ta = cw_default_transform();
    cw_transform tb = xf(1, 0, 0, 1, -1, 0, 64);
    assert_true(fabs(ref_margin(&ref, &ta, &ref, &tb)) < 1e-12); // teeth touch edge to edge
    assert_false(overlap_checked(&comb, &ta, &comb, &tb));
    tb.position.x = 0.5f;
    assert_true(ref_margin(&ref, &ta, &ref, &tb) > 0.4);
    assert_true(overlap_checked(&comb, &ta, &comb, &tb));
    tb.position.x = 0;
    assert_true(overlap_checked(&comb, &ta, &comb, &tb));
    tb.position.x = 3;
    assert_false(overlap_checked(&comb, &ta, &comb, &tb));
    tb.position = (cw_vec2){1, 0.001f}; // pulled apart: the spines leave the other's teeth tips
    assert_false(overlap_checked(&comb, &ta, &comb, &tb));
    tb.position = (cw_vec2){1, -0.001f}; // pushed together: each spine cuts the other's teeth tips
    assert_true(overlap_checked(&comb, &ta, &comb, &tb));
    // The same, turned and scaled together about one pivot: B's local (x, y) is A's (x + 1, 64 - y).
    gen_rng r = gen_seed(64);
    int n = gen_scaled(200);
    for (int k = 0; k < n; k++) {
        float rot = k == 0 ? 0.0f : (float)gen_range(&r, -7, 7);
        float sx = (float)gen_range(&r, 0.3, 3) * (gen_chance(&r, 0.3) ? -1.0f : 1.0f);
        float sy = (float)gen_range(&r, 0.3, 3) * (gen_chance(&r, 0.3) ? -1.0f : 1.0f);
        float ox = (float)gen_int(&r, 0, 64), oy = (float)gen_int(&r, 0, 64);
        cw_vec2 p = {(float)gen_range(&r, -100, 100), (float)gen_range(&r, -100, 100)};
        cw_transform a = {p, rot, {sx, sy}, {ox, oy}};
        cw_transform b = {p, rot, {sx, -sy}, {ox - 1, 64 - oy}};
        bool touching = overlap_checked(&comb, &a, &comb, &b);
        b.origin.x = ox - 0.5f;
        bool half = overlap_checked(&comb, &a, &comb, &b);
        if (touching || !half)
            printf("  combs turned by %.9g, scale (%.9g, %.9g), origin (%g, %g), position (%.9g, %.9g): touching "
                   "gave %d, half a texel gave %d\n",
                   (double)rot, (double)sx, (double)sy, (double)ox, (double)oy, (double)p.x, (double)p.y, touching, half);
        assert_false(touching);
        assert_true(half);
    }
    // Plain stripes (teeth without a spine) side by side: one texel apart they touch.
    unsigned char *stripes = calloc(64 * 64, 1);
    assert_non_null(stripes);
    for (int j = 0; j < 64; j++)
        for (int i = 0; i < 64; i += 2)
            stripes[j * 64 + i] = 1;
    cw_mask *sm = mask_from_solid(stripes, 64, 64);
    cw_shape st = cw_shape_mask(sm);
    static const float offsets[] = {1, -1, 3, 61};
    for (size_t k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
        tb = xf(offsets[k], 0, 0, 1, 1, 0, 0);
        assert_false(overlap_checked(&st, &ta, &st, &tb));
        tb.position.y = 17.25f;
        assert_false(overlap_checked(&st, &ta, &st, &tb));
        tb.position.x = offsets[k] + 0.5f;
        assert_true(overlap_checked(&st, &ta, &st, &tb));
    }
    tb = xf(2, 0, 0, 1, 1, 0, 0);
    assert_true(overlap_checked(&st, &ta, &st, &tb));
    cw_mask_destroy(sm);
    free(stripes);
    cw_mask_destroy(m);
    free(solid);
}

// A one-texel diagonal staircase running exactly through the corner where two texels meet.
static void test_diagonal_line_through_corner(void **state)
{
    (void)state;
    static const unsigned char pair[4] = {0, 1, 1, 0}; // texels (1, 0) and (0, 1): they meet at (1, 1)
    unsigned char line[8 * 8] = {0};
    for (int i = 0; i < 8; i++)
        line[i * 8 + i] = 1;
    cw_mask *pm = mask_from_solid(pair, 2, 2), *lm = mask_from_solid(line, 8, 8);
    cw_shape ps = cw_shape_mask(pm), ls = cw_shape_mask(lm);
    ref_shape pr = ref_mask(pair, 2, 2), lr = ref_mask(line, 8, 8);
    gen_rng r = gen_seed(5);
    int n = gen_scaled(200);
    for (int k = 0; k < n; k++) {
        float rot = k == 0 ? 0.0f : (float)gen_range(&r, -7, 7);
        float s = k == 0 ? 1.0f : (float)gen_range(&r, 0.3, 3);
        cw_vec2 p = {(float)gen_range(&r, -50, 50), (float)gen_range(&r, -50, 50)};
        cw_transform ta = {p, rot, {s, s}, {0, 0}};
        // Line texel (i, i) is A's texel (i + 1, i + 1): it touches both pair texels at their edges.
        cw_transform tb = {p, rot, {s, s}, {-1, -1}};
        double m = ref_margin(&pr, &ta, &lr, &tb);
        bool hit = overlap_checked(&ps, &ta, &ls, &tb);
        if (hit || fabs(m) > 1e-5)
            printf("  staircase at the corner, turn %.9g scale %.9g: cw_overlap %d, reference margin %.3g\n", (double)rot,
                   (double)s, hit, m);
        assert_true(fabs(m) <= 1e-5);
        assert_false(hit);
        // Shifted a quarter texel down-right, across the corner: the reference says it overlaps.
        tb.origin = (cw_vec2){-1.25f, -0.75f};
        m = ref_margin(&pr, &ta, &lr, &tb);
        hit = overlap_checked(&ps, &ta, &ls, &tb);
        assert_true(m > 0.2 * s);
        assert_true(hit);
        // Shifted a quarter texel away along the line: a gap at the corner.
        tb.origin = (cw_vec2){-1.25f, -1.25f};
        m = ref_margin(&pr, &ta, &lr, &tb);
        hit = overlap_checked(&ps, &ta, &ls, &tb);
        assert_true(m < -1e-3);
        assert_false(hit);
        // ... and a quarter texel into the corner: overlap.
        tb.origin = (cw_vec2){-0.75f, -0.75f};
        m = ref_margin(&pr, &ta, &lr, &tb);
        hit = overlap_checked(&ps, &ta, &ls, &tb);
        assert_true(m > 0.2 * s);
        assert_true(hit);
    }
    // A thin rotated box along y = x through the corner (1, 1) of the same pair: it cuts into both
    // texels near the corner, so it overlaps, as the reference says.
    for (int k = 0; k < 3; k++) {
        float thick = k == 0 ? 0.05f : k == 1 ? 0.02f : 0.2f;
        cw_shape thin = cw_shape_box(4, thick);
        ref_shape thin_ref = ref_box(4, thick);
        cw_transform ta = cw_default_transform();
        cw_transform tb = xf(1, 1, (float)(GEN_PI / 4), 1, 1, 2, thick / 2); // centred on (1, 1)
        double m = ref_margin(&pr, &ta, &thin_ref, &tb);
        assert_true(m > 1e-3);
        assert_true(overlap_checked(&ps, &ta, &thin, &tb));
        // Moved perpendicular to itself past texel (0, 1)'s far corner (0, 2): a small gap.
        double off = 2 * sqrt(0.5) + thick / 2 + 0.02;
        tb.position = (cw_vec2){(float)(1 - off * sqrt(0.5)), (float)(1 + off * sqrt(0.5))};
        m = ref_margin(&pr, &ta, &thin_ref, &tb);
        bool hit = overlap_checked(&ps, &ta, &thin, &tb);
        assert_true(fabs(m) > 1e-3);
        assert_int_equal(hit, m > 0);
    }
    cw_mask_destroy(pm);
    cw_mask_destroy(lm);
}

static unsigned char *round_solid(int size, double cx, double cy, double r_in, double r_out)
{
    unsigned char *s = calloc((size_t)size * (size_t)size, 1);
    assert_non_null(s);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < size; i++) {
            double d = hypot(i + 0.5 - cx, j + 0.5 - cy);
            s[j * size + i] = d >= r_in && d <= r_out;
        }
    return s;
}

static void test_disc_in_ring_hole(void **state)
{
    (void)state;
    unsigned char *ring = round_solid(64, 32, 32, 20, 30), *disc = round_solid(64, 32, 32, 0, 30);
    cw_mask *rm = mask_from_solid(ring, 64, 64), *dm = mask_from_solid(disc, 64, 64);
    cw_shape rs = cw_shape_mask(rm), ds = cw_shape_mask(dm);
    ref_shape rr = ref_mask(ring, 64, 64), dr = ref_mask(disc, 64, 64);
    cw_transform tr = xf(200, -80, 0.3f, 1, 1, 32, 32);
    gen_rng r = gen_seed(3);
    for (int k = 0; k < 50; k++) {
        float rot = (float)gen_range(&r, -7, 7);
        float sx = gen_chance(&r, 0.3) ? -0.5f : 0.5f, sy = gen_chance(&r, 0.3) ? -0.5f : 0.5f;
        cw_transform td = xf(200 + (float)gen_range(&r, -2, 2), -80 + (float)gen_range(&r, -2, 2), rot, sx, sy, 32, 32);
        assert_true(ref_margin(&rr, &tr, &dr, &td) < -1e-3);
        assert_false(overlap_checked(&rs, &tr, &ds, &td));
        // Pushed 7 units off centre it reaches the ring.
        double a = gen_range(&r, 0, 2 * GEN_PI);
        td.position = (cw_vec2){200 + (float)(7 * cos(a)), -80 + (float)(7 * sin(a))};
        double m = ref_margin(&rr, &tr, &dr, &td);
        assert_true(m > 1e-3);
        assert_true(overlap_checked(&rs, &tr, &ds, &td));
        // At full scale the disc covers the ring.
        td.scale = (cw_vec2){sx * 2, sy * 2};
        assert_true(overlap_checked(&rs, &tr, &ds, &td));
    }
    cw_mask_destroy(rm);
    cw_mask_destroy(dm);
    free(ring);
    free(disc);
}

// Grid-aligned random cases, where touching is common and exact: rotations that are floats nearest
// to multiples of pi/2 (which count as exact), dyadic scales, origins and positions.
static void test_random_grid_aligned(void **state)
{
    (void)state;
    int n = gen_scaled(4000), touching = 0, overlapping = 0, failures = 0;
    for (int k = 0; k < n; k++) {
        gen_rng r = gen_seed(0x96d00000ull + (uint64_t)k);
        gen_shape s[2];
        cw_transform t[2];
        bool quarter = gen_chance(&r, 0.6);
        for (int q = 0; q < 2; q++) {
            if (gen_chance(&r, 0.3)) {
                gen_box_shape(&s[q], (float)gen_int(&r, 1, 12) * 0.5f, (float)gen_int(&r, 1, 12) * 0.5f);
            } else {
                int w = gen_int(&r, 1, 8), h = gen_int(&r, 1, 8);
                unsigned char *solid = malloc((size_t)(w * h));
                assert_non_null(solid);
                gen_pattern p = (gen_pattern)gen_int(&r, 1, GEN_PATTERN_COUNT - 1);
                double density = gen_range(&r, 0.3, 0.8);
                uint64_t seed = gen_next(&r);
                gen_pattern_fill(solid, w, h, p, density, seed);
                assert_true(gen_mask_shape(&s[q], solid, w, h, p, density, seed));
            }
            static const float scales[] = {0.5f, 1, 2};
            float sx = scales[gen_int(&r, 0, 2)], sy = scales[gen_int(&r, 0, 2)];
            t[q].scale = (cw_vec2){gen_chance(&r, 0.3) ? -sx : sx, gen_chance(&r, 0.3) ? -sy : sy};
            static const int turns[] = {-4, -3, -2, -1, 1, 2, 3, 4, 5, 7}; // large multiples: see below
            t[q].rotation = quarter ? (float)(turns[gen_int(&r, 0, 9)] * (GEN_PI / 2)) : 0.0f;
            double w = s[q].is_box ? s[q].box_w : s[q].w, h = s[q].is_box ? s[q].box_h : s[q].h;
            t[q].origin = (cw_vec2){(float)(gen_int(&r, 0, (int)(2 * w)) * 0.5), (float)(gen_int(&r, 0, (int)(2 * h)) * 0.5)};
            t[q].position = (cw_vec2){0, 0};
        }
        t[0].position = (cw_vec2){(float)(gen_int(&r, -400, 400) * 0.5), (float)(gen_int(&r, -400, 400) * 0.5)};
        double amin[2], amax[2], bmin[2], bmax[2];
        if (!ref_aabb(&s[0].ref, &t[0], false, amin, amax))
            ref_aabb(&s[0].ref, &t[0], true, amin, amax);
        if (!ref_aabb(&s[1].ref, &t[1], false, bmin, bmax))
            ref_aabb(&s[1].ref, &t[1], true, bmin, bmax);
        // B's AABB placed to overlap or touch A's, on the half-unit grid.
        t[1].position.x = (float)(round(gen_range(&r, amin[0] - bmax[0], amax[0] - bmin[0]) * 2) / 2);
        t[1].position.y = (float)(round(gen_range(&r, amin[1] - bmax[1], amax[1] - bmin[1]) * 2) / 2);
        double m = ref_margin(&s[0].ref, &t[0], &s[1].ref, &t[1]);
        bool hit = overlap_checked(&s[0].shape, &t[0], &s[1].shape, &t[1]);
        bool expected = m > 0.1, clear = m > 0.1 || m < 1e-5;
        touching += fabs(m) < 1e-5;
        overlapping += expected;
        if (!clear || hit != expected) {
            failures++;
            if (failures <= 10) {
                printf("  grid case %d: cw_overlap %d, reference margin %.17g (%s)\n", k, hit, m,
                       clear ? (m > 0 ? "overlap" : "touching or apart") : "reference not clear-cut");
                gen_print_shape(stdout, "a", &s[0]);
                gen_print_transform(stdout, "ta", &t[0]);
                gen_print_shape(stdout, "b", &s[1]);
                gen_print_transform(stdout, "tb", &t[1]);
            }
        }
        gen_shape_free(&s[0]);
        gen_shape_free(&s[1]);
    }
    printf("  grid-aligned: %d cases, %d overlapping, %d touching exactly, %d failed\n", n, overlapping, touching, failures);
    assert_int_equal(failures, 0);
    if (n >= 100) { // enough cases for the mix to be meaningful
        assert_true(touching * 10 > n);
        assert_true(overlapping * 10 > n);
    }
}

// A mirrored sprite (negative scale) is the same as its texels mirrored in the data with the origin
// moved to match: x' = w - x, so origin.x' = w - origin.x (and the same for y).
static void test_mirroring_equals_mirrored_data(void **state)
{
    (void)state;
    int n = gen_scaled(2000), skipped = 0, failures = 0;
    uint64_t only;
    bool have_only = gen_only_seed(&only);
    for (int k = 0; k < n; k++) {
        uint64_t seed = gen_case_seed(GEN_STREAM_MIRROR, (gen_kind)(2 + (k & 1)), (uint32_t)k);
        if (have_only && seed != only)
            continue;
        gen_case c;
        assert_true(gen_case_make(&c, seed));
        gen_rng r = gen_seed(seed ^ 0xabcdefull);
        int w = c.a.w, h = c.a.h;
        bool mirror_x = gen_chance(&r, 0.6), mirror_y = !mirror_x || gen_chance(&r, 0.3);
        // Origins on a 1/64 grid, so that w - origin is exact in float.
        c.ta.origin = (cw_vec2){(float)(gen_int(&r, -64 * w, 128 * w) / 64.0), (float)(gen_int(&r, -64 * h, 128 * h) / 64.0)};
        float mx = fabsf(c.ta.scale.x), my = fabsf(c.ta.scale.y);
        cw_transform mirrored = c.ta;
        mirrored.scale = (cw_vec2){mirror_x ? -mx : mx, mirror_y ? -my : my};
        gen_place_pair(&r, &c.a, &mirrored, &c.b, &c.tb, c.far);
        cw_transform plain = mirrored;
        plain.scale = (cw_vec2){mx, my};
        plain.origin = (cw_vec2){mirror_x ? (float)w - c.ta.origin.x : c.ta.origin.x,
                                 mirror_y ? (float)h - c.ta.origin.y : c.ta.origin.y};
        unsigned char *flipped = malloc((size_t)w * (size_t)h);
        assert_non_null(flipped);
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++)
                flipped[j * w + i] = c.a.solid[(mirror_y ? h - 1 - j : j) * w + (mirror_x ? w - 1 - i : i)];
        cw_mask *fm = mask_from_solid(flipped, w, h);
        cw_shape fs = cw_shape_mask(fm);
        ref_shape fr = ref_mask(flipped, w, h);
        double m = ref_margin_capped(&c.a.ref, &mirrored, &c.b.ref, &c.tb, 0.01);
        double m2 = ref_margin_capped(&fr, &plain, &c.b.ref, &c.tb, 0.01);
        bool hit_mirrored = overlap_checked(&c.a.shape, &mirrored, &c.b.shape, &c.tb);
        bool hit_data = overlap_checked(&fs, &plain, &c.b.shape, &c.tb);
        // The reference itself must see the same shape both ways.
        bool ref_same = fabs(fmin(m, 0.01) - fmin(m2, 0.01)) < 1e-6;
        if (fabs(m) < 1e-3) {
            skipped++;
        } else if (!ref_same || hit_mirrored != hit_data || hit_mirrored != (m > 0)) {
            failures++;
            if (failures <= 10) {
                printf("  mirror case: mirrored transform gives %d, mirrored data gives %d, reference %.9g / %.9g\n",
                       hit_mirrored, hit_data, m, m2);
                gen_case_print(stdout, &c);
                gen_print_transform(stdout, "ta (mirrored, as tested)", &mirrored);
                gen_print_transform(stdout, "ta (for the mirrored data)", &plain);
            }
        }
        cw_mask_destroy(fm);
        free(flipped);
        gen_case_free(&c);
    }
    printf("  mirroring: %d cases, %d skipped as near-touching, %d failed\n", n, skipped, failures);
    assert_int_equal(failures, 0);
    assert_true(have_only || skipped * 20 < n || (n < 200 && skipped <= 2));
}

// Rotations are exact, including tiny ones: a long floor (4000 units, as a box or a 4000x1 mask)
// turned by about 9e-7 rad rises about 3.6e-3 units at its far end, which is far more than the
// documented 1e-6 tolerance. Likewise for two shapes whose rotations differ by about 9e-7 rad.
static void test_tiny_rotations_are_not_rounded(void **state)
{
    (void)state;
    unsigned char *solid = malloc(4000);
    assert_non_null(solid);
    memset(solid, 1, 4000);
    cw_mask *floor_mask = mask_from_solid(solid, 4000, 1), *unit_mask = mask_from_solid(solid, 1, 1);
    cw_shape floors[2] = {cw_shape_box(4000, 1), cw_shape_mask(floor_mask)};
    cw_shape units[2] = {cw_shape_box(1, 1), cw_shape_mask(unit_mask)};
    ref_shape floor_ref = ref_box(4000, 1), unit_ref = ref_box(1, 1);
    static const char *const kind[2] = {"box", "mask"};
    static const float bases[] = {0.0f, 0.5f, 1.2f, (float)(GEN_PI / 2)};
    static const double tiny[] = {9e-7, -9e-7, 9.9e-7};
    int wrong = 0, cases = 0;
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++)
        for (size_t k = 0; k < sizeof tiny / sizeof tiny[0]; k++) {
            // The floor [0, 4000] x [0, 1] turned by `base + tiny` about its left end; a unit box at
            // local x = 3990 of the floor's frame turned by `base` only, resting 0.0015 above it
            // (or hanging 0.0015 below it): about 2e-3 inside the floor as actually turned.
            bool up = tiny[k] > 0;
            float base = bases[b], turned = (float)((double)base + tiny[k]);
            cw_transform tf = xf(0, 0, turned, 1, 1, 0, 0), frame = xf(0, 0, base, 1, 1, 0, 0);
            double wx, wy;
            ref_to_world(&frame, 3990, up ? 1.0015 : -0.0015, &wx, &wy);
            cw_transform tb = xf((float)wx, (float)wy, base, 1, 1, 0, up ? 0.0f : 1.0f);
            double m = ref_margin(&floor_ref, &tf, &unit_ref, &tb);
            assert_true(m > 1.5e-3);
            for (int f = 0; f < 2; f++)
                for (int u = 0; u < 2; u++) {
                    bool hit = overlap_checked(&floors[f], &tf, &units[u], &tb);
                    cases++;
                    if (!hit) {
                        wrong++;
                        printf("  WRONG: %s floor turned by %.9g (= %.9g %+.3g rad), %s at %.9g rad, position (%.9g, "
                               "%.9g) origin (0, %g): reference margin %.3g (overlap), cw_overlap false\n",
                               kind[f], (double)turned, (double)base, (double)turned - (double)base, kind[u],
                               (double)base, (double)tb.position.x, (double)tb.position.y, (double)tb.origin.y, m);
                    }
                }
        }
    printf("  tiny rotations: %d of %d cases wrong\n", wrong, cases);
    cw_mask_destroy(floor_mask);
    cw_mask_destroy(unit_mask);
    free(solid);
    assert_int_equal(wrong, 0);
}

// The touching tolerance is about 1e-6 local units, and a box's local unit is the caller's unit:
// a big box (a level's bounds, a floor) overlapped by 0.003 to 0.05 units at its edge does overlap,
// whether the other shape is a box or a mask, turned or not.
static void test_big_box_small_overlap(void **state)
{
    (void)state;
    uint8_t one = 255;
    cw_mask *um = cw_mask_from_alpha(&one, 1, 1, 1, 1);
    assert_non_null(um);
    cw_shape smalls[2] = {cw_shape_box(1, 1), cw_shape_mask(um)};
    static const char *const kind[2] = {"box", "1x1 mask"};
    static const float sizes[] = {100, 1000, 4000, 16000, 100000};
    static const float turns[] = {0.0f, 0.3f, (float)(GEN_PI / 2)};
    ref_shape small_ref = ref_box(1, 1);
    int wrong = 0, cases = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (size_t r = 0; r < sizeof turns / sizeof turns[0]; r++)
            for (int side = 0; side < 2; side++) {
                float size = sizes[k], d = size > 20000 ? 0.05f : size > 5000 ? 0.01f : 0.003f; // >= 8 float steps
                cw_shape big = cw_shape_box(size, size);
                ref_shape big_ref = ref_box(size, size);
                cw_transform tb = xf(0, 0, turns[r], 1, 1, 0, 0);
                // The unit shape sticking d into the big box's right (or bottom) edge, in its frame.
                cw_transform ts = side ? xf(0, 0, turns[r], 1, 1, -size / 2, -(size - d))
                                       : xf(0, 0, turns[r], 1, 1, -(size - d), -size / 2);
                double m = ref_margin(&big_ref, &tb, &small_ref, &ts);
                assert_true(m > 1e-3);
                for (int s = 0; s < 2; s++) {
                    bool hit = overlap_checked(&big, &tb, &smalls[s], &ts);
                    cases++;
                    if (!hit) {
                        wrong++;
                        printf("  WRONG: box %gx%g turned by %.9g, a unit %s overlapping its %s edge by %g "
                               "(origin (%.9g, %.9g)): reference margin %.3g, cw_overlap false\n",
                               (double)size, (double)size, (double)turns[r], kind[s], side ? "bottom" : "right",
                               (double)d, (double)ts.origin.x, (double)ts.origin.y, m);
                    }
                }
            }
    printf("  big boxes: %d of %d cases wrong\n", wrong, cases);
    cw_mask_destroy(um);
    assert_int_equal(wrong, 0);
}

// The float nearest to any multiple of pi/2 below 100,000 rad counts as that exact multiple, even
// where the float is far from it (float(1000 pi/2) is 4.6e-5 rad off): a 100x1 box turned by it,
// and a unit box or mask turned by 0 sitting exactly on its top edge near the far end, only touch;
// pushed 0.002 into it, they overlap. (Angles that keep growing, never wrapped, reach such values.)
static void test_quarter_turn_floats_are_exact(void **state)
{
    (void)state;
    uint8_t one = 255;
    cw_mask *um = cw_mask_from_alpha(&one, 1, 1, 1, 1);
    assert_non_null(um);
    cw_shape bar = cw_shape_box(100, 1), units[2] = {cw_shape_box(1, 1), cw_shape_mask(um)};
    ref_shape bar_ref = ref_box(100, 1), unit_ref = ref_box(1, 1);
    static const int turns[] = {0, 1, 2, 3, 4, -1, -2, -3, 5, 8, 100, 1000, -1001, 4097, 12345};
    static const int rot[4][2][2] = {{{1, 0}, {0, 1}}, {{0, -1}, {1, 0}}, {{-1, 0}, {0, -1}}, {{0, 1}, {-1, 0}}};
    int wrong = 0, cases = 0;
    for (size_t k = 0; k < sizeof turns / sizeof turns[0]; k++) {
        float r = (float)(turns[k] * (GEN_PI / 2));
        int q = ((turns[k] % 4) + 4) % 4;
        const int(*m)[2] = rot[q];
        cw_transform ta = xf(20, -30, r, 1, 1, 0, 0);
        // The unit square [98, 99] x [-1, 0] of the bar's frame (on its top edge y = 0; y grows
        // down), turned by the exact quarter turn, in the world.
        for (int pushed = 0; pushed < 2; pushed++) {
            double ly = pushed ? -1 + 0.002 : -1; // pushed 0.002 into the bar
            int lo_x = 0, lo_y = 0;
            double wx[4], wy[4];
            for (int c = 0; c < 4; c++) {
                double px = 98 + (c & 1), py = ly + (c >> 1);
                wx[c] = 20 + m[0][0] * px + m[0][1] * py;
                wy[c] = -30 + m[1][0] * px + m[1][1] * py;
                if (wx[c] < wx[lo_x])
                    lo_x = c;
                if (wy[c] < wy[lo_y])
                    lo_y = c;
            }
            cw_transform tb = xf((float)wx[lo_x], (float)wy[lo_y], 0, 1, 1, 0, 0);
            double margin = ref_margin(&bar_ref, &ta, &unit_ref, &tb);
            assert_true(pushed ? margin > 1e-3 : fabs(margin) < 1e-9);
            for (int u = 0; u < 2; u++) {
                bool hit = overlap_checked(&bar, &ta, &units[u], &tb);
                cases++;
                if (hit != (bool)pushed) {
                    wrong++;
                    printf("  WRONG: 100x1 box turned by float(%d pi/2) = %.9g at (20, -30), unit %s at (%.9g, %.9g) %s: "
                           "cw_overlap %d\n",
                           turns[k], (double)r, u ? "mask" : "box", (double)tb.position.x, (double)tb.position.y,
                           pushed ? "0.002 into it" : "touching its top edge", hit);
                }
            }
        }
    }
    printf("  quarter turns: %d of %d cases wrong\n", wrong, cases);
    cw_mask_destroy(um);
    assert_int_equal(wrong, 0);
}

// An empty mask never overlaps anything, wherever it is.
static void test_empty_mask_never_overlaps(void **state)
{
    (void)state;
    unsigned char none[16 * 16] = {0};
    cw_mask *m = mask_from_solid(none, 16, 16);
    cw_shape e = cw_shape_mask(m), box = cw_shape_box(100, 100);
    cw_transform t = cw_default_transform(), tb = xf(-50, -50, 0.3f, 1, 1, 0, 0);
    assert_int_equal(cw_mask_count(m), 0);
    assert_false(overlap_checked(&e, &t, &box, &tb));
    assert_false(overlap_checked(&e, &t, &e, &t));
    cw_manifold sentinel;
    memset(&sentinel, 0x5a, sizeof sentinel);
    cw_manifold out = sentinel;
    assert_false(cw_overlap(&e, &t, &box, &tb, &out));
    assert_memory_equal(&out, &sentinel, sizeof out);
    cw_mask_destroy(m);
}

// A shape overlaps itself (same transform), unless it is empty; identical boxes too.
static void test_self_overlap(void **state)
{
    (void)state;
    int n = gen_scaled(300);
    for (int k = 0; k < n; k++) {
        gen_case c;
        assert_true(gen_case_make(&c, gen_case_seed(11, (gen_kind)(k & 3), (uint32_t)k)));
        bool expected = c.a.is_box || ref_solid_count(&c.a.ref) > 0;
        bool hit = overlap_checked(&c.a.shape, &c.ta, &c.a.shape, &c.ta);
        if (hit != expected)
            gen_case_print(stdout, &c);
        assert_int_equal(hit, expected);
        gen_case_free(&c);
    }
}

// The largest masks: a 16384x1 strip against a box at its far end.
static void test_max_size_strip(void **state)
{
    (void)state;
    unsigned char *solid = calloc(CW_MASK_MAX_SIZE, 1);
    assert_non_null(solid);
    solid[CW_MASK_MAX_SIZE - 1] = 1;
    solid[0] = 1;
    cw_mask *row = mask_from_solid(solid, CW_MASK_MAX_SIZE, 1), *col = mask_from_solid(solid, 1, CW_MASK_MAX_SIZE);
    cw_shape rs = cw_shape_mask(row), cs = cw_shape_mask(col), box = cw_shape_box(1, 1);
    cw_transform t = cw_default_transform();
    cw_transform at_end = xf(CW_MASK_MAX_SIZE - 1, 0, 0, 1, 1, 0, 0);
    assert_true(overlap_checked(&rs, &t, &box, &at_end));
    at_end.position.x -= 1; // the transparent texel before it: touching only
    assert_false(overlap_checked(&rs, &t, &box, &at_end));
    cw_transform down = xf(0, CW_MASK_MAX_SIZE - 1.5f, 0, 1, 1, 0, 0);
    assert_true(overlap_checked(&cs, &t, &box, &down));
    down.position.y = 100;
    assert_false(overlap_checked(&cs, &t, &box, &down));
    // The strip against the column, crossing at (0, 0) only.
    assert_true(overlap_checked(&rs, &t, &cs, &t));
    cw_transform shifted = xf(1, 0, 0, 1, 1, 0, 0);
    assert_false(overlap_checked(&rs, &t, &cs, &shifted));
    cw_mask_destroy(row);
    cw_mask_destroy(col);
    free(solid);
}

const struct CMUnitTest exact_tests[] = {
    cmocka_unit_test(test_unit_boxes),
    cmocka_unit_test(test_rotated_boxes_side_by_side),
    cmocka_unit_test(test_interlocking_combs),
    cmocka_unit_test(test_diagonal_line_through_corner),
    cmocka_unit_test(test_disc_in_ring_hole),
    cmocka_unit_test(test_random_grid_aligned),
    cmocka_unit_test(test_mirroring_equals_mirrored_data),
    cmocka_unit_test(test_empty_mask_never_overlaps),
    cmocka_unit_test(test_self_overlap),
    cmocka_unit_test(test_max_size_strip),
    cmocka_unit_test(test_tiny_rotations_are_not_rounded),
    cmocka_unit_test(test_big_box_small_overlap),
    cmocka_unit_test(test_quarter_turn_floats_are_exact),
};
