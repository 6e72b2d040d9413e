// Masks: the alpha threshold rule, pitch and sprite-sheet frames, copy semantics, the accessors,
// and cw_shape_aabb against a brute-force box around the opaque texels.
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "reference.h"
#include "suites.h"

// Checks every texel of `m` (and a ring of texels around it) against alpha[j * stride + i * step]
// >= threshold, plus the size and the count.
static void expect_texels(const cw_mask *m, const uint8_t *alpha, int w, int h, size_t stride, size_t step,
                          uint8_t threshold)
{
    assert_non_null(m);
    assert_int_equal(cw_mask_width(m), w);
    assert_int_equal(cw_mask_height(m), h);
    int count = 0, wrong = 0;
    for (int j = -1; j <= h; j++)
        for (int i = -1; i <= w; i++) {
            bool inside = i >= 0 && j >= 0 && i < w && j < h;
            bool expected = inside && alpha[(size_t)j * stride + (size_t)i * step] >= threshold;
            count += expected;
            if (cw_mask_get(m, i, j) != expected && wrong++ < 5)
                printf("  texel (%d, %d) of a %dx%d mask: expected %d (threshold %d)\n", i, j, w, h, expected, threshold);
        }
    assert_int_equal(wrong, 0);
    assert_int_equal(cw_mask_count(m), count);
}

static uint8_t *random_bytes(gen_rng *r, size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    assert_non_null(p);
    for (size_t k = 0; k < n; k++)
        p[k] = (uint8_t)gen_next(r);
    return p;
}

static void test_constructors(void **state)
{
    (void)state;
    cw_transform t = cw_default_transform();
    assert_true(t.position.x == 0 && t.position.y == 0 && t.rotation == 0 && t.scale.x == 1 && t.scale.y == 1 &&
                t.origin.x == 0 && t.origin.y == 0);
    cw_shape b = cw_shape_box(2.5f, 7);
    assert_int_equal(b.type, CW_SHAPE_BOX);
    assert_true(b.size.x == 2.5f && b.size.y == 7.0f);
    assert_null(b.mask);
    uint8_t alpha[6] = {255, 0, 255, 0, 255, 0};
    cw_mask *m = cw_mask_from_alpha(alpha, 3, 2, 3, 1);
    assert_non_null(m);
    cw_shape s = cw_shape_mask(m);
    assert_int_equal(s.type, CW_SHAPE_MASK);
    assert_ptr_equal(s.mask, m);
    assert_true(s.size.x == 3.0f && s.size.y == 2.0f);
    cw_shape n = cw_shape_mask(NULL);
    assert_int_equal(n.type, CW_SHAPE_MASK);
    assert_null(n.mask);
    cw_mask_destroy(m);
    cw_mask_destroy(NULL); // ignored
}

static void test_rgba_threshold_rule(void **state)
{
    (void)state;
    gen_rng r = gen_seed(1);
    static const int widths[] = {1, 2, 7, 31, 63, 64, 65, 127, 128, 129, 200};
    for (size_t k = 0; k < sizeof widths / sizeof widths[0] * 4; k++) {
        int w = widths[k % (sizeof widths / sizeof widths[0])], h = gen_int(&r, 1, 70);
        uint8_t threshold = (uint8_t)gen_int(&r, 0, 255);
        if (k % 5 == 0)
            threshold = 128;
        uint8_t *px = random_bytes(&r, (size_t)w * (size_t)h * 4);
        cw_mask *m = cw_mask_from_rgba(px, w, h, 4 * w, threshold);
        expect_texels(m, px + 3, w, h, (size_t)w * 4, 4, threshold);
        cw_mask_destroy(m);
        free(px);
    }
}

static void test_alpha_threshold_rule(void **state)
{
    (void)state;
    gen_rng r = gen_seed(2);
    static const int widths[] = {1, 3, 8, 33, 63, 64, 65, 127, 128, 129, 190};
    for (size_t k = 0; k < sizeof widths / sizeof widths[0] * 4; k++) {
        int w = widths[k % (sizeof widths / sizeof widths[0])], h = gen_int(&r, 1, 70);
        uint8_t threshold = (uint8_t)gen_int(&r, 0, 255);
        uint8_t *px = random_bytes(&r, (size_t)w * (size_t)h);
        cw_mask *m = cw_mask_from_alpha(px, w, h, w, threshold);
        expect_texels(m, px, w, h, (size_t)w, 1, threshold);
        cw_mask_destroy(m);
        free(px);
    }
}

static void test_threshold_edges(void **state)
{
    (void)state;
    // Alpha 127 and 128 side by side, and every other value, against thresholds 128, 0, 1, 255.
    uint8_t alpha[256], rgba[256 * 4];
    for (int i = 0; i < 256; i++) {
        alpha[i] = (uint8_t)(i < 2 ? 127 + i : i);
        rgba[4 * i + 0] = rgba[4 * i + 1] = rgba[4 * i + 2] = 255; // colour never matters
        rgba[4 * i + 3] = alpha[i];
    }
    cw_mask *m = cw_mask_from_alpha(alpha, 256, 1, 256, 128);
    assert_false(cw_mask_get(m, 0, 0)); // 127
    assert_true(cw_mask_get(m, 1, 0));  // 128
    expect_texels(m, alpha, 256, 1, 256, 1, 128);
    cw_mask_destroy(m);
    m = cw_mask_from_rgba(rgba, 256, 1, 256 * 4, 128);
    assert_false(cw_mask_get(m, 0, 0));
    assert_true(cw_mask_get(m, 1, 0));
    expect_texels(m, alpha, 256, 1, 256, 1, 128);
    cw_mask_destroy(m);
    static const uint8_t thresholds[] = {0, 1, 254, 255};
    for (size_t k = 0; k < sizeof thresholds; k++) {
        m = cw_mask_from_alpha(alpha, 256, 1, 256, thresholds[k]);
        expect_texels(m, alpha, 256, 1, 256, 1, thresholds[k]);
        cw_mask_destroy(m);
        m = cw_mask_from_rgba(rgba, 256, 1, 256 * 4, thresholds[k]);
        expect_texels(m, alpha, 256, 1, 256, 1, thresholds[k]);
        cw_mask_destroy(m);
    }
    // Threshold 0: everything opaque, even alpha 0. Threshold 255: only 255.
    uint8_t zeros[3 * 5] = {0};
    m = cw_mask_from_alpha(zeros, 3, 5, 3, 0);
    assert_int_equal(cw_mask_count(m), 15);
    cw_mask_destroy(m);
    uint8_t nearly[4] = {254, 255, 0, 255};
    m = cw_mask_from_alpha(nearly, 2, 2, 2, 255);
    assert_int_equal(cw_mask_count(m), 2);
    assert_false(cw_mask_get(m, 0, 0));
    assert_true(cw_mask_get(m, 1, 0));
    assert_true(cw_mask_get(m, 1, 1));
    cw_mask_destroy(m);
}

static void test_pitch_padding_ignored(void **state)
{
    (void)state;
    gen_rng r = gen_seed(3);
    for (int k = 0; k < 40; k++) {
        int w = gen_int(&r, 1, 140), h = gen_int(&r, 1, 40), extra = gen_int(&r, 1, 13); // odd pitches too
        uint8_t threshold = (uint8_t)gen_int(&r, 1, 255);
        // RGBA: padding bytes all 255 (opaque if they were read as alpha).
        int pitch = 4 * w + extra;
        uint8_t *px = malloc((size_t)pitch * (size_t)h);
        assert_non_null(px);
        memset(px, 255, (size_t)pitch * (size_t)h);
        for (int j = 0; j < h; j++)
            for (int i = 0; i < 4 * w; i++)
                px[(size_t)j * (size_t)pitch + (size_t)i] = (uint8_t)gen_next(&r);
        cw_mask *m = cw_mask_from_rgba(px, w, h, pitch, threshold);
        expect_texels(m, px + 3, w, h, (size_t)pitch, 4, threshold);
        cw_mask_destroy(m);
        free(px);
        // Alpha.
        pitch = w + extra;
        px = malloc((size_t)pitch * (size_t)h);
        assert_non_null(px);
        memset(px, 255, (size_t)pitch * (size_t)h);
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++)
                px[(size_t)j * (size_t)pitch + (size_t)i] = (uint8_t)gen_next(&r);
        m = cw_mask_from_alpha(px, w, h, pitch, threshold);
        expect_texels(m, px, w, h, (size_t)pitch, 1, threshold);
        cw_mask_destroy(m);
        free(px);
    }
}

// Frames of a sprite sheet: a pointer to the first pixel and the sheet's pitch. The sheet buffer
// ends exactly after the last pixel of its last row, so reading past a frame would be caught by
// the sanitizers.
static void test_sprite_sheet_frames(void **state)
{
    (void)state;
    gen_rng r = gen_seed(4);
    const int sw = 50, sh = 40;
    for (int bpp = 1; bpp <= 4; bpp += 3) {
        int pitch = sw * bpp + (bpp == 4 ? 8 : 3);
        size_t size = (size_t)(sh - 1) * (size_t)pitch + (size_t)sw * (size_t)bpp;
        uint8_t *sheet = random_bytes(&r, size);
        for (int k = 0; k < 60; k++) {
            int w = gen_int(&r, 1, 20), h = gen_int(&r, 1, 15);
            int x = gen_int(&r, 0, sw - w), y = gen_int(&r, 0, sh - h);
            if (k == 0) // the bottom-right frame
                x = sw - w, y = sh - h;
            uint8_t threshold = (uint8_t)gen_int(&r, 0, 255);
            const uint8_t *first = sheet + (size_t)y * (size_t)pitch + (size_t)x * (size_t)bpp;
            cw_mask *m = bpp == 4 ? cw_mask_from_rgba(first, w, h, pitch, threshold)
                                  : cw_mask_from_alpha(first, w, h, pitch, threshold);
            expect_texels(m, first + (bpp - 1), w, h, (size_t)pitch, (size_t)bpp, threshold);
            cw_mask_destroy(m);
        }
        free(sheet);
    }
}

static void test_rgba_and_alpha_agree(void **state)
{
    (void)state;
    gen_rng r = gen_seed(5);
    for (int k = 0; k < 50; k++) {
        int w = gen_int(&r, 1, 100), h = gen_int(&r, 1, 50);
        uint8_t threshold = (uint8_t)gen_int(&r, 0, 255);
        uint8_t *rgba = random_bytes(&r, (size_t)w * (size_t)h * 4), *alpha = malloc((size_t)w * (size_t)h);
        assert_non_null(alpha);
        for (int i = 0; i < w * h; i++)
            alpha[i] = rgba[4 * i + 3];
        cw_mask *a = cw_mask_from_rgba(rgba, w, h, 4 * w, threshold), *b = cw_mask_from_alpha(alpha, w, h, w, threshold);
        assert_non_null(a);
        assert_non_null(b);
        assert_int_equal(cw_mask_count(a), cw_mask_count(b));
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++)
                assert_int_equal(cw_mask_get(a, i, j), cw_mask_get(b, i, j));
        cw_mask_destroy(a);
        cw_mask_destroy(b);
        free(rgba);
        free(alpha);
    }
}

static void test_get_outside_is_false_without_error(void **state)
{
    (void)state;
    uint8_t alpha[4 * 3];
    memset(alpha, 255, sizeof alpha);
    cw_mask *m = cw_mask_from_alpha(alpha, 4, 3, 4, 1);
    assert_non_null(m);
    cw_clear_error();
    static const int xs[] = {-1, 4, 0, 3, INT_MIN, INT_MAX, 5, -100};
    static const int ys[] = {0, 0, -1, 3, 0, 1, INT_MAX, INT_MIN};
    for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++)
        assert_false(cw_mask_get(m, xs[k], ys[k]));
    assert_string_equal(cw_last_error(), "");
    assert_true(cw_mask_get(m, 0, 0));
    assert_true(cw_mask_get(m, 3, 2));
    assert_int_equal(cw_mask_width(m), 4);
    assert_int_equal(cw_mask_height(m), 3);
    assert_int_equal(cw_mask_count(m), 12);
    assert_string_equal(cw_last_error(), "");
    cw_mask_destroy(m);
}

static void test_pixels_are_copied(void **state)
{
    (void)state;
    gen_rng r = gen_seed(6);
    for (int k = 0; k < 10; k++) {
        int w = gen_int(&r, 1, 90), h = gen_int(&r, 1, 40);
        size_t n = (size_t)w * (size_t)h * 4;
        uint8_t *px = random_bytes(&r, n), *copy = malloc(n);
        assert_non_null(copy);
        memcpy(copy, px, n);
        cw_mask *m = cw_mask_from_rgba(px, w, h, 4 * w, 128);
        uint8_t *alpha = random_bytes(&r, (size_t)w * (size_t)h), *alpha_copy = malloc((size_t)w * (size_t)h);
        assert_non_null(alpha_copy);
        memcpy(alpha_copy, alpha, (size_t)w * (size_t)h);
        cw_mask *ma = cw_mask_from_alpha(alpha, w, h, w, 128);
        // Scribble over the sources (inverting every alpha), then free them.
        for (size_t i = 0; i < n; i++)
            px[i] = (uint8_t)~px[i];
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
            alpha[i] = (uint8_t)~alpha[i];
        expect_texels(m, copy + 3, w, h, (size_t)w * 4, 4, 128);
        expect_texels(ma, alpha_copy, w, h, (size_t)w, 1, 128);
        free(px);
        free(alpha);
        expect_texels(m, copy + 3, w, h, (size_t)w * 4, 4, 128);
        expect_texels(ma, alpha_copy, w, h, (size_t)w, 1, 128);
        cw_mask_destroy(m);
        cw_mask_destroy(ma);
        free(copy);
        free(alpha_copy);
    }
}

// cw_shape_aabb against the brute-force box around all opaque texel corners (and the box's corners).
// Returns 0 if it matches (within 1e-3 plus float rounding), 1 if it contains the brute-force box
// but is larger, 2 if it misses part of it.
static int check_aabb(const gen_shape *s, const cw_transform *t, bool print)
{
    cw_aabb box;
    memset(&box, 0x5a, sizeof box);
    cw_clear_error();
    assert_true(cw_shape_aabb(&s->shape, t, &box));
    assert_string_equal(cw_last_error(), "");
    assert_true(isfinite(box.min.x) && isfinite(box.min.y) && isfinite(box.max.x) && isfinite(box.max.y));
    double lo[2], hi[2];
    if (!ref_aabb(&s->ref, t, false, lo, hi)) {
        // Empty: a point box.
        assert_true(box.min.x == box.max.x && box.min.y == box.max.y);
        return 0;
    }
    double got[4] = {box.min.x, box.min.y, box.max.x, box.max.y}, want[4] = {lo[0], lo[1], hi[0], hi[1]};
    int result = 0;
    double worst = 0;
    for (int k = 0; k < 4; k++) {
        double tol = 1e-3 + 1.2e-7 * fabs(want[k]);
        double outward = k < 2 ? want[k] - got[k] : got[k] - want[k]; // > 0: larger than needed
        if (outward < -tol)
            result = 2;
        else if (outward > tol && result == 0)
            result = 1;
        if (fabs(outward) > fabs(worst))
            worst = outward;
    }
    if (result && print) {
        printf("  cw_shape_aabb gives [%.9g, %.9g] x [%.9g, %.9g], brute force says [%.9g, %.9g] x [%.9g, %.9g] (%s by "
               "up to %.3g)\n",
               got[0], got[2], got[1], got[3], want[0], want[2], want[1], want[3],
               result == 2 ? "MISSING opaque texels" : "larger", fabs(worst));
        gen_print_shape(stdout, "shape", s);
        gen_print_transform(stdout, "transform", t);
    }
    return result;
}

static void test_aabb_random(void **state)
{
    (void)state;
    int n = gen_scaled(2000), larger = 0, missing = 0, larger_aligned = 0;
    for (int k = 0; k < n; k++) {
        gen_rng r = gen_seed(0xaabb0000ull + (uint64_t)k);
        gen_shape s;
        assert_true(gen_random_shape(&r, &s, k % 4 == 0));
        cw_transform t;
        gen_random_transform(&r, &s, &t);
        t.position = gen_chance(&r, 0.2) ? (cw_vec2){50000.5f, -30000.25f}
                                         : (cw_vec2){(float)gen_range(&r, -300, 300), (float)gen_range(&r, -300, 300)};
        int result = check_aabb(&s, &t, larger + missing < 5);
        double quarter = fmod(fabs((double)t.rotation), GEN_PI / 2);
        bool aligned = fmin(quarter, GEN_PI / 2 - quarter) < 1e-6;
        larger += result == 1;
        missing += result == 2;
        larger_aligned += result == 1 && aligned;
        gen_shape_free(&s);
    }
    printf("  cw_shape_aabb on %d random shapes: %d larger than the opaque texels' box (%d of them at a multiple of "
           "90 degrees), %d missing opaque texels\n",
           n, larger, larger_aligned, missing);
    assert_int_equal(missing, 0);
    assert_int_equal(larger, 0);
}

// The spacing of floats at |x| (x finite).
static double float_spacing(double x)
{
    float f = (float)fabs(x);
    return (double)nextafterf(f, INFINITY) - (double)f;
}

// Counts the sides of the shape's AABB under `t` that are rounded inward from the opaque texels'
// box (the reference's, in double: within 1e-12 of exact here) or more than a float step out;
// prints the first few (case k).
static void count_loose_sides(const gen_shape *s, const cw_transform *t, int k, int *inward, int *loose)
{
    cw_aabb box;
    double lo[2], hi[2];
    assert_true(cw_shape_aabb(&s->shape, t, &box));
    if (!ref_aabb(&s->ref, t, false, lo, hi))
        return;
    double got[4] = {box.min.x, box.min.y, box.max.x, box.max.y}, want[4] = {lo[0], lo[1], hi[0], hi[1]};
    for (int c = 0; c < 4; c++) {
        double outward = c < 2 ? want[c] - got[c] : got[c] - want[c], noise = 1e-12 * (1 + fabs(want[c]));
        *inward += outward < -noise;
        *loose += outward > float_spacing(want[c]) + noise;
        if ((outward < -noise || outward > float_spacing(want[c]) + noise) && *inward + *loose <= 3)
            printf("  case %d side %d: the AABB is %a, the opaque texels reach %a (rotation %a)\n", k, c, got[c], want[c],
                   (double)t->rotation);
    }
}

// To the last bit: the AABB holds the opaque texels' box (rounded outward, never inward, so a body
// touching another by a sliver is still a candidate) and is at most one float step larger on each
// side.
static void test_aabb_rounds_outward(void **state)
{
    (void)state;
    int n = gen_scaled(3000), inward = 0, loose = 0;
    for (int k = 0; k < n; k++) {
        gen_rng r = gen_seed(0xaabb1000ull + (uint64_t)k);
        gen_shape s;
        assert_true(gen_random_shape(&r, &s, k % 3 == 0));
        cw_transform t;
        gen_random_transform(&r, &s, &t);
        t.position = (cw_vec2){(float)gen_range(&r, -3000, 3000), (float)gen_range(&r, -3000, 3000)};
        count_loose_sides(&s, &t, k, &inward, &loose);
        gen_shape_free(&s);
    }
    printf("  %d random AABBs: %d sides rounded inward, %d more than a float step out\n", n, inward, loose);
    assert_int_equal(inward, 0);
    assert_int_equal(loose, 0);
}

// Sprites with long hulls (discs, rings, noise up to 300 texels: dozens to hundreds of hull
// corners), turned at random, so that a hull edge lies along an axis (the two corners at its ends
// tie), or a hair either side of that (down to a float step from a quarter turn, which is not that
// quarter turn), mirrored and stretched; the same last-bit check.
static void test_aabb_long_hulls(void **state)
{
    (void)state;
    const gen_pattern patterns[] = {GEN_DISC, GEN_RING, GEN_NOISE, GEN_DIAGONAL};
    int n = gen_scaled(300), turns = 24, inward = 0, loose = 0;
    for (int k = 0; k < n; k++) {
        gen_rng r = gen_seed(0xaabb2000ull + (uint64_t)k);
        int w = gen_int(&r, 20, k % 8 == 0 ? 300 : 80), h = gen_int(&r, 20, k % 8 == 0 ? 300 : 80);
        gen_shape s;
        unsigned char *solid = malloc((size_t)w * (size_t)h);
        assert_non_null(solid);
        gen_pattern p = patterns[k % 4];
        gen_pattern_fill(solid, w, h, p, gen_range(&r, 0.002, 0.05), gen_next(&r));
        assert_true(gen_mask_shape(&s, solid, w, h, p, 0, 0));
        for (int j = 0; j < turns; j++) {
            cw_transform t = cw_default_transform();
            // An edge between corners a texel step (dx, dy) apart lies along an axis at -atan2(dy, dx).
            double edge = -atan2(gen_int(&r, -6, 6), gen_int(&r, 1, 6)) + gen_int(&r, 0, 3) * (GEN_PI / 2);
            double hair = ldexp(gen_chance(&r, 0.5) ? 1 : -1, gen_int(&r, -40, -10));
            t.rotation = (float)(j % 3 == 0 ? gen_range(&r, -7, 7) : j % 3 == 1 ? edge : edge + hair);
            double sx = exp(gen_range(&r, -2, 2)), sy = gen_chance(&r, 0.5) ? sx : exp(gen_range(&r, -2, 2));
            t.scale = (cw_vec2){(float)(gen_chance(&r, 0.3) ? -sx : sx), (float)(gen_chance(&r, 0.3) ? -sy : sy)};
            t.origin = (cw_vec2){(float)gen_range(&r, -0.2 * w, 1.2 * w), (float)gen_range(&r, -0.2 * h, 1.2 * h)};
            t.position = (cw_vec2){(float)gen_range(&r, -3000, 3000), (float)gen_range(&r, -3000, 3000)};
            count_loose_sides(&s, &t, k, &inward, &loose);
        }
        gen_shape_free(&s);
    }
    printf("  %d AABBs of sprites with long hulls: %d sides rounded inward, %d more than a float step out\n",
           n * turns, inward, loose);
    assert_int_equal(inward, 0);
    assert_int_equal(loose, 0);
}

static void test_aabb_opaque_texels_only(void **state)
{
    (void)state;
    // An 8x6 sprite whose only opaque texels are (2, 1) and (5, 3): the box is [2, 6] x [1, 4].
    uint8_t alpha[8 * 6] = {0};
    alpha[1 * 8 + 2] = 255;
    alpha[3 * 8 + 5] = 200;
    cw_mask *m = cw_mask_from_alpha(alpha, 8, 6, 8, 128);
    cw_shape s = cw_shape_mask(m);
    cw_transform t = cw_default_transform();
    cw_aabb box;
    assert_true(cw_shape_aabb(&s, &t, &box));
    assert_float_equal(box.min.x, 2, 1e-4);
    assert_float_equal(box.min.y, 1, 1e-4);
    assert_float_equal(box.max.x, 6, 1e-4);
    assert_float_equal(box.max.y, 4, 1e-4);
    // Scaled by (2, -3) about origin (4, 3), moved to (100, 10): x in [96, 104], y in [7, 16].
    t = (cw_transform){{100, 10}, 0, {2, -3}, {4, 3}};
    assert_true(cw_shape_aabb(&s, &t, &box));
    assert_float_equal(box.min.x, 96, 1e-4);
    assert_float_equal(box.max.x, 104, 1e-4);
    assert_float_equal(box.min.y, 7, 1e-4);
    assert_float_equal(box.max.y, 16, 1e-4);
    cw_mask_destroy(m);
}

static void test_aabb_empty_mask(void **state)
{
    (void)state;
    uint8_t alpha[5 * 4] = {0};
    cw_mask *m = cw_mask_from_alpha(alpha, 5, 4, 5, 1);
    assert_non_null(m);
    assert_int_equal(cw_mask_count(m), 0);
    cw_shape s = cw_shape_mask(m);
    gen_rng r = gen_seed(9);
    for (int k = 0; k < 20; k++) {
        cw_transform t = {{(float)gen_range(&r, -1e4, 1e4), (float)gen_range(&r, -1e4, 1e4)},
                          (float)gen_range(&r, -7, 7),
                          {(float)gen_range(&r, 0.3, 3), (float)gen_range(&r, -3, -0.3)},
                          {(float)gen_range(&r, -5, 10), (float)gen_range(&r, -5, 10)}};
        cw_aabb box;
        assert_true(cw_shape_aabb(&s, &t, &box));
        assert_true(isfinite(box.min.x) && isfinite(box.min.y));
        assert_true(box.min.x == box.max.x && box.min.y == box.max.y);
    }
    cw_mask_destroy(m);
}

// Many sizes, including every width around the 64-bit word boundaries.
static void test_many_sizes(void **state)
{
    (void)state;
    gen_rng r = gen_seed(10);
    for (int w = 1; w <= 260; w += (w < 140 ? 1 : 29)) {
        int h = gen_int(&r, 1, 9);
        for (int p = 0; p < 3; p++) {
            unsigned char *solid = malloc((size_t)w * (size_t)h);
            uint8_t *alpha = malloc((size_t)w * (size_t)h);
            assert_non_null(solid);
            assert_non_null(alpha);
            gen_pattern_fill(solid, w, h, p == 0 ? GEN_NOISE : p == 1 ? GEN_FRAME : GEN_CHECKER, 0.5, gen_next(&r));
            for (int i = 0; i < w * h; i++)
                alpha[i] = solid[i] ? 255 : 0;
            cw_mask *m = cw_mask_from_alpha(alpha, w, h, w, 255);
            expect_texels(m, alpha, w, h, (size_t)w, 1, 255);
            cw_mask_destroy(m);
            free(solid);
            free(alpha);
        }
    }
    // The largest sizes are accepted.
    uint8_t *row = calloc(CW_MASK_MAX_SIZE, 1);
    assert_non_null(row);
    row[CW_MASK_MAX_SIZE - 1] = 255;
    row[4000] = 255;
    cw_mask *m = cw_mask_from_alpha(row, CW_MASK_MAX_SIZE, 1, CW_MASK_MAX_SIZE, 255);
    expect_texels(m, row, CW_MASK_MAX_SIZE, 1, CW_MASK_MAX_SIZE, 1, 255);
    cw_mask_destroy(m);
    m = cw_mask_from_alpha(row, 1, CW_MASK_MAX_SIZE, 1, 255);
    expect_texels(m, row, 1, CW_MASK_MAX_SIZE, 1, 1, 255);
    cw_mask_destroy(m);
    free(row);
}

// One mask shared by many shapes: shapes are values and borrow it.
static void test_one_mask_many_shapes(void **state)
{
    (void)state;
    uint8_t alpha[4] = {255, 255, 255, 255};
    cw_mask *m = cw_mask_from_alpha(alpha, 2, 2, 2, 1);
    cw_shape shapes[3] = {cw_shape_mask(m), cw_shape_mask(m), cw_shape_mask(m)};
    cw_shape copy = shapes[1];
    cw_transform t0 = cw_default_transform(), t1 = {{1.5f, 0}, 0, {1, 1}, {0, 0}}, t2 = {{2, 0}, 0, {1, 1}, {0, 0}};
    assert_true(cw_overlap(&shapes[0], &t0, &copy, &t1, NULL));
    assert_false(cw_overlap(&shapes[0], &t0, &shapes[2], &t2, NULL));
    assert_true(cw_overlap(&shapes[2], &t2, &copy, &t1, NULL));
    cw_mask_destroy(m);
}

const struct CMUnitTest mask_tests[] = {
    cmocka_unit_test(test_constructors),
    cmocka_unit_test(test_rgba_threshold_rule),
    cmocka_unit_test(test_alpha_threshold_rule),
    cmocka_unit_test(test_threshold_edges),
    cmocka_unit_test(test_pitch_padding_ignored),
    cmocka_unit_test(test_sprite_sheet_frames),
    cmocka_unit_test(test_rgba_and_alpha_agree),
    cmocka_unit_test(test_get_outside_is_false_without_error),
    cmocka_unit_test(test_pixels_are_copied),
    cmocka_unit_test(test_aabb_random),
    cmocka_unit_test(test_aabb_rounds_outward),
    cmocka_unit_test(test_aabb_long_hulls),
    cmocka_unit_test(test_aabb_opaque_texels_only),
    cmocka_unit_test(test_aabb_empty_mask),
    cmocka_unit_test(test_many_sizes),
    cmocka_unit_test(test_one_mask_many_shapes),
};
