// Manifolds as minimum translations: against the brute-force minimum translation distance of
// motion_ref.h (the first gap of every pair of runs' intervals, over 720 directions), on seeded
// families of overlapping pairs, rotated, scaled and mirrored: convex blobs, rings, F-shaped
// letters, and boxes against letters. Moving B by the normal times the depth must separate the pair,
// always; the depth must be near the true MTD (see test_families for how near) and the normal near
// its direction (or one nearly as short). The bounds hold with room to spare on the salts tried when
// they were set.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "hooks.h"
#include "motion_ref.h"
#include "suites.h"

#define DIRECTIONS 720
#define NEAR_MINIMUM 0.01 // a way out this much longer than the shortest counts as one for the angle
#define MAX_PRINTED 6

typedef enum family { BLOBS, RINGS, LETTERS, BOX_LETTER, FAMILY_COUNT } family;
static const char *const family_names[FAMILY_COUNT] = {"convex blobs", "rings", "F-shaped letters", "box vs letter"};

// An ellipse, a ring, or a letter F, in a w x h mask.
static void make_shape(gen_rng *r, family f, bool first, gen_shape *s)
{
    if (f == BOX_LETTER && first) {
        gen_box_shape(s, (float)gen_range(r, 3, 20), (float)gen_range(r, 3, 20));
        return;
    }
    int w = gen_int(r, 10, 20), h = gen_int(r, 10, 20);
    unsigned char *solid = calloc((size_t)w * (size_t)h, 1);
    if (solid == NULL)
        abort();
    double rx = w / 2.0 * gen_range(r, 0.6, 1.0), ry = h / 2.0 * gen_range(r, 0.6, 1.0);
    double thickness = gen_range(r, 0.25, 0.5);
    int stroke = gen_int(r, 2, 4);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            double u = (i + 0.5 - w / 2.0) / rx, v = (j + 0.5 - h / 2.0) / ry, d = sqrt(u * u + v * v);
            bool on;
            if (f == BLOBS)
                on = d <= 1;
            else if (f == RINGS)
                on = d <= 1 && d >= 1 - thickness;
            else // F: a stem, a top bar and a shorter middle bar
                on = i < stroke || j < stroke || (j >= h / 2 - stroke / 2 && j < h / 2 - stroke / 2 + stroke && i < 2 * w / 3);
            solid[(size_t)j * (size_t)w + (size_t)i] = on;
        }
    if (!gen_mask_shape(s, solid, w, h, GEN_FILLED, 1, 0))
        abort();
}

typedef struct result {
    double ratio, angle; // depth over the MTD; angle to its direction, degrees
    double parting;      // the library's lower bound on parting moves (cw__test_parting_bound) over the MTD
} result;

static int by_ratio(const void *x, const void *y)
{
    const result *p = x, *q = y;
    return (p->ratio > q->ratio) - (p->ratio < q->ratio);
}

static int by_angle(const void *x, const void *y)
{
    const result *p = x, *q = y;
    return (p->angle > q->angle) - (p->angle < q->angle);
}

static void print_pair(const gen_shape *a, const cw_transform *ta, const gen_shape *b, const cw_transform *tb,
                       const cw_manifold *m, double mtd, double nx, double ny)
{
    gen_print_shape(stdout, "a", a);
    gen_print_transform(stdout, "ta", ta);
    gen_print_shape(stdout, "b", b);
    gen_print_transform(stdout, "tb", tb);
    printf("  manifold normal (%.6g, %.6g) depth %.6g; MTD %.6g; a way out within 1%% of it nearest along (%.6g, "
           "%.6g)\n", (double)m->normal.x, (double)m->normal.y, (double)m->depth, mtd, nx, ny);
}

// Degrees from `normal` to the nearest of the brute force's directions whose way out is within
// NEAR_MINIMUM of the shortest (that direction in *nx, *ny). Not to the shortest alone: where two
// ways out are nearly as short (up or right out of a letter's corner, anywhere round a blob), the
// least of 720 lands on either, and a normal along the other is as good.
static double angle_to_near_minimum(cw_vec2 normal, const double *gaps, double mtd, double *nx, double *ny)
{
    double best = 180;
    for (int k = 0; k < DIRECTIONS; k++) {
        double angle = 2 * GEN_PI * k / DIRECTIONS, ux = cos(angle), uy = sin(angle);
        double between = acos(fmax(-1, fmin(1, normal.x * ux + normal.y * uy))) * 180 / GEN_PI;
        if (gaps[k] <= mtd * (1 + NEAR_MINIMUM) && between < best)
            best = between, *nx = ux, *ny = uy;
    }
    return best;
}

// The brute force's texel scale for a pair: the least texel side, or a box's side where that is less.
static double pair_texel(const gen_shape *a, const cw_transform *ta, const cw_transform *tb)
{
    double b_texel = fmin(fabs(tb->scale.x), fabs(tb->scale.y));
    if (a->is_box)
        return fmin(b_texel, fmin(a->box_w * fabs(ta->scale.x), a->box_h * fabs(ta->scale.y)));
    return fmin(fmin(fabs(ta->scale.x), fabs(ta->scale.y)), b_texel);
}

// Whether B moved by the manifold's normal times (depth + 1e-4) still overlaps A.
static bool still_overlaps(const gen_shape *a, const cw_transform *ta, const gen_shape *b, const cw_transform *tb,
                           const cw_manifold *m)
{
    cw_transform out = *tb;
    out.position.x = (float)(tb->position.x + m->normal.x * (m->depth + 1e-4));
    out.position.y = (float)(tb->position.y + m->normal.y * (m->depth + 1e-4));
    return cw_overlap(&a->shape, ta, &b->shape, &out, NULL);
}

// A pair of the family, B placed with its box's centre somewhere over A's box; true (and the
// manifold in *m) if they overlap by more than 0.01 units, else false with the shapes freed.
static bool overlapping_pair(gen_rng *r, family f, gen_shape *a, gen_shape *b, cw_transform *ta, cw_transform *tb,
                             cw_manifold *m)
{
    make_shape(r, f, true, a);
    make_shape(r, f, false, b);
    gen_random_transform(r, a, ta);
    gen_random_transform(r, b, tb);
    ta->position = (cw_vec2){(float)gen_range(r, -40, 40), (float)gen_range(r, -40, 40)};
    double lo[2], hi[2], blo[2], bhi[2];
    ref_aabb(&a->ref, ta, true, lo, hi);
    tb->position = (cw_vec2){0, 0};
    ref_aabb(&b->ref, tb, true, blo, bhi);
    double px = gen_range(r, lo[0], hi[0]), py = gen_range(r, lo[1], hi[1]);
    tb->position = (cw_vec2){(float)(px - 0.5 * (blo[0] + bhi[0])), (float)(py - 0.5 * (blo[1] + bhi[1]))};
    if (ref_margin_capped(&a->ref, ta, &b->ref, tb, 0.01) > 0.01 && cw_overlap(&a->shape, ta, &b->shape, tb, m))
        return true;
    gen_shape_free(a);
    gen_shape_free(b);
    return false;
}

// Runs `count` overlapping pairs of a family; fills results; returns the number of failures (a
// move by the manifold that does not separate, or a bound on parting moves past the MTD).
static int run_family(family f, int count, uint64_t seed_mix, result *results)
{
    int done = 0, failures = 0;
    gen_rng r = gen_seed((0x3170000000000000ull + (uint64_t)f) ^ seed_mix);
    while (done < count) {
        gen_shape a, b;
        cw_transform ta, tb;
        cw_manifold m;
        if (!overlapping_pair(&r, f, &a, &b, &ta, &tb, &m))
            continue;
        double gaps[DIRECTIONS], nx = 1, ny = 0;
        double mtd = mref_gaps(&a.ref, &ta, &b.ref, &tb, DIRECTIONS, 0, pair_texel(&a, &ta, &tb) / 1024, gaps);
        results[done].ratio = m.depth / mtd;
        results[done].angle = angle_to_near_minimum(m.normal, gaps, mtd, &nx, &ny);
        results[done].parting = cw__test_parting_bound(&a.shape, &ta, &b.shape, &tb, m.point) / mtd;
        if (still_overlaps(&a, &ta, &b, &tb, &m) && failures++ < MAX_PRINTED) {
            printf("FAIL mtd (%s): moving B by normal * (depth + 1e-4) still overlaps\n", family_names[f]);
            print_pair(&a, &ta, &b, &tb, &m, mtd, nx, ny);
        }
        if (!(results[done].parting <= 1) && failures++ < MAX_PRINTED) { // NaN fails too
            printf("FAIL mtd (%s): the bound on parting moves is %.6g times the shortest move\n", family_names[f],
                   results[done].parting);
            print_pair(&a, &ta, &b, &tb, &m, mtd, nx, ny);
        }
        if (getenv("MTD_DEBUG") && results[done].angle > 15)
            print_pair(&a, &ta, &b, &tb, &m, mtd, nx, ny);
        done++;
        gen_shape_free(&a);
        gen_shape_free(&b);
    }
    return failures;
}

typedef struct summary {
    double median, p90, p99, worst, angle90;
    int deep_bounds; // pairs whose bound on parting moves is at least half the MTD
} summary;

// Runs a family and prints its line of the table.
static summary run_summary(family f, int n, uint64_t seed_mix, result *results, int *failures)
{
    *failures += run_family(f, n, seed_mix, results);
    qsort(results, (size_t)n, sizeof *results, by_ratio);
    summary s = {results[n / 2].ratio, results[n * 9 / 10].ratio, results[n * 99 / 100].ratio, results[n - 1].ratio, 0, 0};
    qsort(results, (size_t)n, sizeof *results, by_angle);
    s.angle90 = results[n * 9 / 10].angle;
    for (int k = 0; k < n; k++)
        s.deep_bounds += results[k].parting >= 0.5;
    printf("  | %s | %.3f | %.3f | %.3f | %.3f | %.1f deg | %d of %d |\n", family_names[f], s.median, s.p90, s.p99,
           s.worst, s.angle90, s.deep_bounds, n);
    return s;
}

static void test_families(void **state)
{
    (void)state;
    int n = gen_scaled(120), failures = 0;
    bool met = true;
    result *results = malloc(sizeof *results * (size_t)n);
    if (results == NULL)
        abort();
    printf("  | family | depth / MTD median | p90 | p99 | max | normal vs a way out within 1%% of the MTD, p90 | "
           "bound on parting moves at least half the MTD |\n");
    for (int f = 0; f < FAMILY_COUNT; f++) {
        summary s = run_summary((family)f, n, 0, results, &failures);
        // Over 32 seeds of 120 pairs (README, "Manifolds"), since the rows are searched in cones
        // until no way out can be shorter by more than a 64th: p90 at most 1.008 (rings 1.035, and
        // 1.047 on salt 56 of salts 33-80, which all pass); p99 at most 1.016
        // (rings 1.15: a deep overlap whose rows do not fit keeps its cover's answer); the worst
        // pair 1.30x (rings 7.4x); the angle to a way out within 1% of the shortest, at p90, at
        // most 0.5 degrees (rings 2.6 on salt 78). Sampling every 22.5 degrees broke these:
        // p99 up to 1.18 (rings 2.0), angles at p90 up to 21 degrees, and on salt 277 letters
        // pushed 1.73x where a pocket between the directions held the short way out.
        // The bound on parting moves (no move shorter parts the pair, so rows are not searched below
        // it) must never pass the MTD (run_family() counts that as a failure), and must not be
        // idle: for blobs, deep in each other at their centres, it is at least half the MTD for
        // most pairs.
        bool rings = f == RINGS;
        met = met && s.p90 <= (rings ? 1.1 : 1.05) && s.p99 <= (rings ? 1.5 : 1.1) && s.worst <= (rings ? 20 : 2) &&
              s.angle90 <= 5 &&
              (f != BLOBS || s.deep_bounds >= n / 4);
    }
    free(results);
    assert_int_equal(failures, 0);
    assert_true(met || gen_test_scale() > 1); // a scaled-down run (valgrind) has too few pairs for percentiles
}

// Rings crossed by rings, on a seed where a search over merged rows alone (the cover of a deep
// overlap) pushed B 377 times too far: a shallow gap between the rings' rows was gone from the
// cover. Rows are searched again within the cover's answer.
static void test_crossed_rings(void **state)
{
    (void)state;
    int n = gen_scaled(120), failures = 0;
    result *results = malloc(sizeof *results * (size_t)n);
    if (results == NULL)
        abort();
    summary s = run_summary(RINGS, n, 3 * 0x9e3779b97f4a7c15ull, results, &failures); // CW_TEST_SALT=3's
    free(results);
    assert_int_equal(failures, 0);
    assert_true(gen_test_scale() > 1 || (s.p99 <= 1.5 && s.worst <= 5)); // 32 seeds: at most 1.23 and 1.9x
}

#define POINT_DIRECTIONS 180 // the brute force's MTD over fewer directions: still no shorter than the true one
#define POINTS_PER_PAIR 24

// The bound on parting moves from points all over the overlap, not only the manifold's: inside a
// box near its corners and edges, in a letter's bars, in a ring. Wherever the point lies, the bound
// must not pass the brute-force MTD; and it must not be idle (for a good share of the points it is
// at least half the MTD).
static void test_parting_bound_points(void **state)
{
    (void)state;
    int pairs = gen_scaled(30), failures = 0, points = 0, deep = 0;
    for (int f = 0; f < FAMILY_COUNT; f++) {
        gen_rng r = gen_seed(0x5a7e000000000000ull + (uint64_t)f);
        for (int done = 0; done < pairs;) {
            gen_shape a, b;
            cw_transform ta, tb;
            cw_manifold m;
            if (!overlapping_pair(&r, (family)f, &a, &b, &ta, &tb, &m))
                continue;
            double gaps[POINT_DIRECTIONS];
            double mtd = mref_gaps(&a.ref, &ta, &b.ref, &tb, POINT_DIRECTIONS, 0, pair_texel(&a, &ta, &tb) / 1024, gaps);
            double lo[2], hi[2], blo[2], bhi[2];
            ref_aabb(&a.ref, &ta, false, lo, hi);
            ref_aabb(&b.ref, &tb, false, blo, bhi);
            for (int k = 0; k < POINTS_PER_PAIR; k++) {
                cw_vec2 at = {(float)gen_range(&r, fmax(lo[0], blo[0]), fmin(hi[0], bhi[0])),
                              (float)gen_range(&r, fmax(lo[1], blo[1]), fmin(hi[1], bhi[1]))};
                if (!cw_shape_contains_point(&a.shape, &ta, at) || !cw_shape_contains_point(&b.shape, &tb, at))
                    continue;
                double bound = cw__test_parting_bound(&a.shape, &ta, &b.shape, &tb, at);
                points++, deep += bound >= 0.5 * mtd;
                if (!(bound <= mtd) && failures++ < MAX_PRINTED) {
                    printf("FAIL mtd (%s): from (%.9g, %.9g) the bound on parting moves is %.6g, the MTD %.6g\n",
                           family_names[f], (double)at.x, (double)at.y, bound, mtd);
                    print_pair(&a, &ta, &b, &tb, &m, mtd, NAN, NAN); // no way out measured here
                }
            }
            done++;
            gen_shape_free(&a);
            gen_shape_free(&b);
        }
    }
    printf("  bound on parting moves from %d points inside both: at least half the MTD at %d\n", points, deep);
    assert_int_equal(failures, 0);
    assert_true(deep >= points / 8);
}

// A mask from rows of '#' (opaque) and '.' for a fixed case.
static void shape_from_rows(gen_shape *s, const char *const *rows, int h)
{
    int w = (int)strlen(rows[0]);
    unsigned char *solid = malloc((size_t)w * (size_t)h);
    assert_non_null(solid);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
            solid[(size_t)j * (size_t)w + (size_t)i] = rows[j][i] == '#';
    assert_true(gen_mask_shape(s, solid, w, h, GEN_FILLED, 1, 0));
}

// The manifold of a fixed pair against the brute force: its depth within `within` of the shortest
// move, and B moved by it apart.
static void check_pair_within(const gen_shape *a, const cw_transform *ta, const gen_shape *b, const cw_transform *tb,
                              double within)
{
    cw_manifold m;
    assert_true(cw_overlap(&a->shape, ta, &b->shape, tb, &m));
    double gaps[DIRECTIONS];
    double mtd = mref_gaps(&a->ref, ta, &b->ref, tb, DIRECTIONS, 0, pair_texel(a, ta, tb) / 1024, gaps);
    printf("  depth %.6g, shortest move %.6g (%.3fx)\n", (double)m.depth, mtd, m.depth / mtd);
    assert_true(m.depth <= within * mtd);
    assert_false(still_overlaps(a, ta, b, tb, &m));
}

// check_pair_within() at 1%.
static void check_fixed_pair(const gen_shape *a, const cw_transform *ta, const gen_shape *b, const cw_transform *tb)
{
    check_pair_within(a, ta, b, tb, 1.01);
}

// Two pairs of rings from CW_TEST_SALT=206's run of test_crossed_rings. In the first the search's
// depth left the rings a hair short of apart (the exact test rounds the tolerance its own way), and
// bisecting from there toward the far side, as if the pair stayed apart once apart, went through the
// ring and out (12x the shortest move); the depth is now carried on within the gap found. In the
// second the rows did not fit within the cover's answer or half of it, and the cover's way out was
// 61x the shortest; an eighth of it fits.
static void test_crossed_rings_fixed(void **state)
{
    (void)state;
    static const char *const wide[] = {"....................", "....................", "......########......",
                                       "....############....", "..####........####..", "..###..........###..",
                                       "..###..........###..", "..####........####..", "....############....",
                                       "......########......", "....................", "...................."};
    static const char *const round[] = {"..............", "..............", "......##......", "....######....",
                                        "...###..###...", "..###....###..", "..##......##..", "..##......##..",
                                        "..##......##..", "..###....###..", "...###..###...", "....######....",
                                        "......##......", "..............", ".............."};
    static const char *const tall[] = {"...............", ".......#.......", ".....#####.....", "....#######....",
                                       "...###...###...", "...##.....##...", "..##.......##..", "..##.......##..",
                                       "..##.......##..", "..##.......##..", "..##.......##..", "..##.......##..",
                                       "..##.......##..", "..##.......##..", "...##.....##...", "...###...###...",
                                       "....#######....", ".....#####.....", ".......#.......", "..............."};
    static const char *const oval[] = {"..............", ".....####.....", "....######....", "...########...",
                                       "...##....##...", "...##....##...", "...#......#...", "..##......##..",
                                       "..##......##..", "..##......##..", "..##......##..", "..##......##..",
                                       "...#......#...", "...##....##...", "...##....##...", "...########...",
                                       "....######....", ".....####.....", ".............."};
    gen_shape a, b;
    shape_from_rows(&a, wide, 12);
    shape_from_rows(&b, round, 15);
    cw_transform ta = {{0x1.4d6a66p+3f, -0x1.f3529cp+2f}, 0, {-0x1.cddc44p-2f, 0x1.cddc44p-2f}, {0, 0}};
    cw_transform tb = {{0x1.0ddddp+2f, -0x1.5e006ep+2f}, 0x1.2c99f6p+2f, {0x1.e0a5d4p-1f, 0x1.73ff58p+0f},
                       {0x1.cp+2f, 0x1.ep+2f}};
    check_fixed_pair(&a, &ta, &b, &tb);
    gen_shape_free(&a);
    gen_shape_free(&b);
    shape_from_rows(&a, tall, 20);
    shape_from_rows(&b, oval, 19);
    ta = (cw_transform){{0x1.9bdbdcp+3f, -0x1.74d1bep+4f}, -0x1.734502p+1f, {0x1.8f827ep+0f, 0x1.cdbb1ap-1f},
                        {0x1.6e43c2p+2f, 0x1.03f478p+1f}};
    tb = (cw_transform){{0x1.7a122p+4f, -0x1.68cbb6p+4f}, 0x1.2d97c8p+2f, {0x1.52823cp-1f, 0x1.3dd422p-1f},
                        {-0x1.af2a7ap+2f, 0x1.bfa986p+4f}};
    check_fixed_pair(&a, &ta, &b, &tb);
    gen_shape_free(&a);
    gen_shape_free(&b);
}

// Two letters F from CW_TEST_SALT=363's run of test_families. Their short way out (4.05 units) lies
// between two directions 35 degrees apart that the search tried when it went every 45 degrees: it
// pushed B 14.7 units along A's axis (3.6x). Every 22.5 degrees, a direction falls in that way out.
static void test_letters_between_directions(void **state)
{
    (void)state;
    static const char *const big[] = {"##################", "##################", "##################",
                                      "##################", "####..............", "####..............",
                                      "####..............", "####..............", "############......",
                                      "############......", "############......", "############......",
                                      "####..............", "####..............", "####..............",
                                      "####..............", "####..............", "####..............",
                                      "####..............", "####.............."};
    static const char *const small[] = {"##########", "##########", "##########", "##########", "####......",
                                        "####......", "######....", "######....", "######....", "######....",
                                        "####......", "####......", "####......", "####......", "####......",
                                        "####......", "####......"};
    gen_shape a, b;
    shape_from_rows(&a, big, 20);
    shape_from_rows(&b, small, 17);
    const cw_transform ta = {{0x1.3a8876p+4f, -0x1.f3bd62p+3f}, 0x1.921fb6p+0f, {0x1.2e0d74p+1f, -0x1.080b16p+1f},
                             {0x1.571504p+3f, 0x1.2f19fep+4f}};
    const cw_transform tb = {{-0x1.c44f22p+3f, -0x1.d290a8p+4f}, -0x1.1792dp+1f, {0x1.3dc0eap-1f, -0x1.b4afdp-2f},
                             {0x1.ca01b4p+2f, 0x1.38ee9ap+4f}};
    check_fixed_pair(&a, &ta, &b, &tb);
    gen_shape_free(&a);
    gen_shape_free(&b);
}

// Three pairs from CW_TEST_SALT=277's run of test_families whose short way out is a pocket a few
// degrees wide: B between the bars of an F (twice) and a ring over another's rim. Sampling every
// 22.5 degrees with steps around the best pushed them 1.73x, 1.56x and 7.4x the shortest move; the
// cones' bound leaves no way out shorter than the answer by more than a 64th (1.02: the brute force
// samples 720 directions, and the answer carries the touching tolerance).
static void test_pockets(void **state)
{
    (void)state;
    static const char *const f_thin[] = {"###################", "###################", "##.................",
                                         "##.................", "##.................", "##.................",
                                         "##.................", "##.................", "##.................",
                                         "############.......", "############.......", "##.................",
                                         "##.................", "##.................", "##.................",
                                         "##.................", "##.................", "##.................",
                                         "##.................", "##................."};
    static const char *const f_bold[] = {"###################", "###################", "###################",
                                         "###................", "###................", "###................",
                                         "###................", "############.......", "############.......",
                                         "############.......", "###................", "###................",
                                         "###................", "###................", "###................",
                                         "###................", "###................"};
    static const char *const f_small[] = {"#############", "#############", "##...........", "##...........",
                                          "##...........", "##...........", "##...........", "########.....",
                                          "########.....", "##...........", "##...........", "##...........",
                                          "##...........", "##...........", "##...........", "##..........."};
    static const char *const f_narrow[] = {"###########", "###########", "###########", "###........", "###........",
                                           "###........", "###........", "#######....", "#######....", "#######....",
                                           "###........", "###........", "###........", "###........", "###........",
                                           "###........", "###........"};
    static const char *const ring[] = {".............", ".............", ".............", "....#####....",
                                       "...##...##...", "...#.....#...", "..##.....##..", "..#.......#..",
                                       "..#.......#..", "..##.....##..", "...#.....#...", "...##...##...",
                                       "....#####....", ".............", ".............", "............."};
    static const char *const ring_wide[] = {"...................", "...................", ".......#####.......",
                                            "......#######......", ".....##.....##.....", "....##.......##....",
                                            "....##.......##....", "....#.........#....", "....#.........#....",
                                            "....##.......##....", "....##.......##....", ".....##.....##.....",
                                            "......#######......", ".......#####.......", "...................",
                                            "..................."};
    gen_shape a, b;
    shape_from_rows(&a, f_thin, 20);
    shape_from_rows(&b, f_bold, 17);
    cw_transform ta = {{0x1.e15dccp+4f, 0x1.42a85cp+4f}, -0x1.6c391ap+2f, {0x1.5c8852p-1f, 0x1.259584p-1f},
                       {0x1.0e320ap+4f, 0x1.ffb166p+3f}};
    cw_transform tb = {{0x1.6ccffap+5f, 0x1.55e5f6p+4f}, -0x1.5acd24p+2f, {-0x1.a52536p+0f, 0x1.4ca8cap-1f}, {0, 0}};
    check_pair_within(&a, &ta, &b, &tb, 1.02);
    gen_shape_free(&a);
    gen_shape_free(&b);
    shape_from_rows(&a, f_small, 16);
    shape_from_rows(&b, f_narrow, 17);
    ta = (cw_transform){{-0x1.357a18p+5f, -0x1.616ad2p+3f}, -0x1.caf556p+1f, {-0x1.439a94p-1f, 0x1.42415ep+0f}, {0, 0}};
    tb = (cw_transform){{-0x1.401784p+5f, -0x1.9e4c06p+3f}, 0x1.f72498p+1f, {0x1.17e776p-1f, 0x1.838dc8p-2f}, {0, 0}};
    check_pair_within(&a, &ta, &b, &tb, 1.02);
    gen_shape_free(&a);
    gen_shape_free(&b);
    shape_from_rows(&a, ring, 16);
    shape_from_rows(&b, ring_wide, 16);
    ta = (cw_transform){{0x1.e594d8p+3f, 0x1.ff24e6p+1f}, -0x1.85a9a8p+2f, {-0x1.9f43fp+0f, 0x1.67d1acp-1f}, {0, 0}};
    tb = (cw_transform){{0x1.2cc3bcp+3f, -0x1.41ff3ap+4f}, 0x1.494724p+0f, {0x1.e00268p+0f, 0x1.e00268p+0f},
                        {-0x1.18b426p+2f, -0x1.46eb4ap-3f}};
    check_pair_within(&a, &ta, &b, &tb, 1.02);
    gen_shape_free(&a);
    gen_shape_free(&b);
}

const struct CMUnitTest mtd_tests[] = {
    cmocka_unit_test(test_families),
    cmocka_unit_test(test_crossed_rings),
    cmocka_unit_test(test_crossed_rings_fixed),
    cmocka_unit_test(test_letters_between_directions),
    cmocka_unit_test(test_pockets),
    cmocka_unit_test(test_parting_bound_points),
};
