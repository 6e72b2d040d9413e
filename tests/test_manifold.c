// cw_manifold: filled only on overlap, finite, unit normal, non-negative depth, a point inside both
// shapes, symmetric under swapping the arguments; box-box is the separating-axis answer; moving B by
// normal * depth separates the shapes.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "reference.h"
#include "suites.h"

#define MAX_PRINTED 10

typedef struct stats {
    int checked, failures, printed, apart, box_box, moved_touching, moved_extra;
} stats;

static cw_transform xf(float px, float py, float rot, float sx, float sy, float ox, float oy)
{
    return (cw_transform){.position = {px, py}, .rotation = rot, .scale = {sx, sy}, .origin = {ox, oy}};
}

// Float rounding of a world coordinate: a point stored as float is off by up to half a float step.
static double float_slack(double x, double y) { return 1.2e-7 * (fabs(x) + fabs(y)); }

static bool finite_manifold(const cw_manifold *m)
{
    return isfinite(m->point.x) && isfinite(m->point.y) && isfinite(m->normal.x) && isfinite(m->normal.y) &&
           isfinite(m->depth);
}

static void print_manifold(const char *name, const cw_manifold *m)
{
    printf("  %s: point (%.9g, %.9g) normal (%.9g, %.9g) depth %.9g\n", name, (double)m->point.x, (double)m->point.y,
           (double)m->normal.x, (double)m->normal.y, (double)m->depth);
}

static void record_failure(stats *s, const gen_case *c, const cw_manifold *ab, const cw_manifold *ba, const char *why, double value)
{
    s->failures++;
    if (s->printed++ >= MAX_PRINTED)
        return;
    printf("FAIL manifold: %s (%.9g)\n", why, value);
    gen_case_print(stdout, c);
    if (ab)
        print_manifold("manifold(a, b)", ab);
    if (ba)
        print_manifold("manifold(b, a)", ba);
}

static cw_transform moved(const cw_transform *t, const cw_manifold *m, double distance)
{
    cw_transform r = *t;
    r.position.x = (float)(t->position.x + m->normal.x * distance);
    r.position.y = (float)(t->position.y + m->normal.y * distance);
    return r;
}

// The gap between neighbouring floats at the larger of a position's coordinates.
static double float_spacing(cw_vec2 p)
{
    float x = fmaxf(fabsf(p.x), fabsf(p.y));
    return (double)nextafterf(x, INFINITY) - x;
}

static double box_world_size(const gen_case *c)
{
    double a = fmax(c->a.box_w * fabs((double)c->ta.scale.x), c->a.box_h * fabs((double)c->ta.scale.y));
    double b = fmax(c->b.box_w * fabs((double)c->tb.scale.x), c->b.box_h * fabs((double)c->tb.scale.y));
    return fmax(1.0, fmax(a, b));
}

// The box-box contract: depth and normal of the least-penetration box axis, pointing from A's side
// toward B's; point at the centroid of the overlap polygon.
static void check_box_box(stats *s, const gen_case *c, const cw_manifold *m)
{
    double ax[4], ay[4], overlap[4];
    double least = ref_box_sat(&c->a.ref, &c->ta, &c->b.ref, &c->tb, ax, ay, overlap);
    double tol = 1e-3 * box_world_size(c);
    s->box_box++;
    if (fabs(m->depth - least) > tol) {
        record_failure(s, c, m, NULL, "box-box depth is not the least SAT penetration, which is", least);
        return;
    }
    int axis = -1;
    for (int k = 0; k < 4; k++)
        if (fabs(fabs(m->normal.x * ax[k] + m->normal.y * ay[k]) - 1) < 1e-4 && overlap[k] <= least + tol)
            axis = k;
    if (axis < 0) {
        record_failure(s, c, m, NULL, "box-box normal is not a box edge normal of least penetration", least);
        return;
    }
    double ca[2], cb[2];
    ref_to_world(&c->ta, c->a.box_w / 2.0, c->a.box_h / 2.0, &ca[0], &ca[1]);
    ref_to_world(&c->tb, c->b.box_w / 2.0, c->b.box_h / 2.0, &cb[0], &cb[1]);
    double toward = (cb[0] - ca[0]) * m->normal.x + (cb[1] - ca[1]) * m->normal.y;
    if (toward < -tol) {
        record_failure(s, c, m, NULL, "box-box normal points from B toward A: (centre B - centre A) . normal =", toward);
        return;
    }
    ref_quad p = ref_cell_quad(&c->a.ref, &c->ta, 0, 0), q = ref_cell_quad(&c->b.ref, &c->tb, 0, 0);
    double cx = 0, cy = 0;
    double area = ref_quad_intersection(&p, &q, &cx, &cy);
    double off = hypot(m->point.x - cx, m->point.y - cy);
    if (!(area > 0) || off > tol + float_slack(cx, cy))
        record_failure(s, c, m, NULL, "box-box point is not the overlap polygon's centroid; distance", off);
}

// Checks one case (which the caller knows to overlap clearly); failures go into `s`.
static void check_case(stats *s, const gen_case *c)
{
    cw_manifold sentinel, ab, ba;
    memset(&sentinel, 0x5a, sizeof sentinel);
    ab = ba = sentinel;
    s->checked++;
    cw_clear_error();
    bool hit_ab = cw_overlap(&c->a.shape, &c->ta, &c->b.shape, &c->tb, &ab);
    bool hit_ba = cw_overlap(&c->b.shape, &c->tb, &c->a.shape, &c->ta, &ba);
    if (cw_last_error()[0] != '\0') {
        record_failure(s, c, NULL, NULL, "valid input set an error", 0);
        return;
    }
    if (!hit_ab || !hit_ba) {
        record_failure(s, c, NULL, NULL, "with a manifold, cw_overlap says no overlap where the plain test and the reference say overlap", 0);
        return;
    }
    if (!finite_manifold(&ab) || !finite_manifold(&ba)) {
        record_failure(s, c, &ab, &ba, "manifold not finite (or not filled)", 0);
        return;
    }
    double len = hypot(ab.normal.x, ab.normal.y);
    if (fabs(len - 1) > 1e-4) {
        record_failure(s, c, &ab, &ba, "normal is not unit length", len);
        return;
    }
    if (ab.depth < 0) {
        record_failure(s, c, &ab, &ba, "negative depth", ab.depth);
        return;
    }
    // Inside both shapes (within 1e-3 of an opaque texel / the box).
    double slack = 1e-3 + float_slack(ab.point.x, ab.point.y);
    double da = ref_point_distance(&c->a.ref, &c->ta, ab.point.x, ab.point.y, 1.0);
    double db = ref_point_distance(&c->b.ref, &c->tb, ab.point.x, ab.point.y, 1.0);
    if (da > slack || db > slack) {
        record_failure(s, c, &ab, &ba, "point is not inside both shapes; distance to A, then B, is", da > slack ? da : db);
        printf("  (distance to A %.9g, to B %.9g)\n", da, db);
        return;
    }
    // Swapping the arguments negates the normal and keeps the point and the depth.
    double dn = hypot(ab.normal.x + ba.normal.x, ab.normal.y + ba.normal.y);
    double dp = hypot(ab.point.x - ba.point.x, ab.point.y - ba.point.y);
    double dd = fabs(ab.depth - ba.depth);
    if (dn > 1e-3 || dp > 1e-3 + float_slack(ab.point.x, ab.point.y) || dd > 1e-3 * fmax(ab.depth, ba.depth) + 1e-3) {
        record_failure(s, c, &ab, &ba, "not symmetric under swapping a and b; normal, point, depth differences", fmax(dn, fmax(dp, dd)));
        return;
    }
    if (c->a.is_box && c->b.is_box) {
        int before = s->failures;
        check_box_box(s, c, &ab);
        if (s->failures != before)
            return;
    }
    // Moving B by normal * depth separates them (or leaves them within 1e-3 of touching, or within
    // the spacing of B's float position there, which the move is rounded to); failing that, depth +
    // 1/32 must.
    cw_transform t1 = moved(&c->tb, &ab, ab.depth);
    if (cw_overlap(&c->a.shape, &c->ta, &c->b.shape, &t1, NULL)) {
        double m1 = ref_margin_capped(&c->a.ref, &c->ta, &c->b.ref, &t1, 0.01);
        if (fabs(m1) < fmax(1e-3, float_spacing(t1.position))) {
            s->moved_touching++;
        } else {
            cw_transform t2 = moved(&c->tb, &ab, ab.depth + 1.0 / 32);
            if (cw_overlap(&c->a.shape, &c->ta, &c->b.shape, &t2, NULL)) {
                record_failure(s, c, &ab, &ba, "moving B by normal * (depth + 1/32) still overlaps; reference margin after depth", m1);
                return;
            }
            // Seen only far from the origin, where B's float position moves in steps of 1/256 or more.
            s->moved_extra++;
        }
    }
}

// Runs `target` clearly overlapping cases of a kind from `stream` (looking at up to 6x as many).
static void run_kind(stats *s, unsigned stream, gen_kind kind, int target)
{
    uint64_t only;
    bool have_only = gen_only_seed(&only);
    int found = 0, n = gen_scaled(target);
    for (uint32_t k = 0; found < n && k < (uint32_t)n * 6; k++) {
        uint64_t seed = gen_case_seed(stream, kind, k);
        if (have_only && seed != only)
            continue;
        gen_case c;
        if (!gen_case_make(&c, seed)) {
            record_failure(s, &c, NULL, NULL, "mask creation failed", 0);
            gen_case_free(&c);
            continue;
        }
        bool plain = cw_overlap(&c.a.shape, &c.ta, &c.b.shape, &c.tb, NULL);
        double margin = ref_margin_capped(&c.a.ref, &c.ta, &c.b.ref, &c.tb, 0.01);
        if (plain && margin > 1e-3) {
            found++;
            check_case(s, &c);
        } else if (!plain) {
            // Not overlapping: the manifold must be left untouched.
            cw_manifold sentinel, m;
            memset(&sentinel, 0x5a, sizeof sentinel);
            m = sentinel;
            s->apart++;
            if (cw_overlap(&c.a.shape, &c.ta, &c.b.shape, &c.tb, &m))
                record_failure(s, &c, &m, NULL, "with a manifold, cw_overlap says overlap where the plain test does not", margin);
            else if (memcmp(&m, &sentinel, sizeof m) != 0)
                record_failure(s, &c, &m, NULL, "no overlap, but the manifold was written", margin);
        }
        gen_case_free(&c);
    }
    if (!have_only && found < n)
        printf("  only %d overlapping cases found for kind %d (wanted %d)\n", found, kind, n);
    assert_true(have_only || found == n);
}

static void report(const char *name, const stats *s)
{
    printf("  %s: %d overlapping cases checked (%d box-box), %d apart cases checked untouched; after moving by depth "
           "%d were within 1e-3 (or B's float spacing) of touching and %d needed the extra 1/32; %d failed\n",
           name, s->checked, s->box_box, s->apart, s->moved_touching, s->moved_extra, s->failures);
}

static void test_random_box_box(void **state)
{
    (void)state;
    stats s = {0};
    run_kind(&s, GEN_STREAM_MANIFOLD, GEN_BOX_BOX, 800);
    report("box-box manifolds", &s);
    assert_int_equal(s.failures, 0);
}

static void test_random_with_masks(void **state)
{
    (void)state;
    stats s = {0};
    run_kind(&s, GEN_STREAM_MANIFOLD, GEN_BOX_MASK, 600);
    run_kind(&s, GEN_STREAM_MANIFOLD, GEN_MASK_BOX, 600);
    run_kind(&s, GEN_STREAM_MANIFOLD, GEN_MASK_MASK, 1000);
    report("manifolds with masks", &s);
    assert_int_equal(s.failures, 0);
}

static void test_random_near_contact(void **state)
{
    (void)state;
    stats s = {0};
    for (int k = 0; k < 4; k++)
        run_kind(&s, GEN_STREAM_CONTACT, (gen_kind)k, 150);
    report("near-contact manifolds", &s);
    assert_int_equal(s.failures, 0);
}

static void test_box_box_explicit(void **state)
{
    (void)state;
    // A = [0, 4] x [0, 2], B = [3.75, 5.75] x [0.5, 2.5]: overlap [3.75, 4] x [0.5, 2].
    cw_shape a = cw_shape_box(4, 2), b = cw_shape_box(2, 2);
    cw_transform ta = cw_default_transform(), tb = xf(3.75f, 0.5f, 0, 1, 1, 0, 0);
    cw_manifold m;
    assert_true(cw_overlap(&a, &ta, &b, &tb, &m));
    assert_float_equal(m.normal.x, 1, 1e-5);
    assert_float_equal(m.normal.y, 0, 1e-5);
    assert_float_equal(m.depth, 0.25, 1e-5);
    assert_float_equal(m.point.x, 3.875, 1e-4);
    assert_float_equal(m.point.y, 1.25, 1e-4);
    assert_true(cw_overlap(&b, &tb, &a, &ta, &m));
    assert_float_equal(m.normal.x, -1, 1e-5);
    assert_float_equal(m.depth, 0.25, 1e-5);
    // B above A's top edge (y grows downward): the normal points up, toward B.
    tb = xf(1, -1.5f, 0, 1, 1, 0, 0);
    assert_true(cw_overlap(&a, &ta, &b, &tb, &m));
    assert_float_equal(m.normal.x, 0, 1e-5);
    assert_float_equal(m.normal.y, -1, 1e-5);
    assert_float_equal(m.depth, 0.5, 1e-5);
    assert_float_equal(m.point.x, 2, 1e-4);
    assert_float_equal(m.point.y, 0.25, 1e-4);
    // Turned together by 0.6 rad about the same pivot, B a quarter unit into A's right side.
    float rot = 0.6f;
    ta = xf(10, 20, rot, 1, 1, 0, 0);
    tb = xf(10, 20, rot, 1, 1, -3.75f, 0); // B's local (x, y) is A's (x + 3.75, y)
    assert_true(cw_overlap(&a, &ta, &b, &tb, &m));
    assert_float_equal(m.normal.x, cos(rot), 1e-4);
    assert_float_equal(m.normal.y, sin(rot), 1e-4);
    assert_float_equal(m.depth, 0.25, 1e-4);
}

static void test_box_mask_explicit(void **state)
{
    (void)state;
    // A 10x10 box and a filled 4x4 mask at (8, 3): overlap [8, 10] x [3, 7]. Moving B along +x
    // shrinks the area fastest (along y it does not change), and B must move 2 to get out.
    uint8_t alpha[16];
    memset(alpha, 255, sizeof alpha);
    cw_mask *mask = cw_mask_from_alpha(alpha, 4, 4, 4, 128);
    assert_non_null(mask);
    cw_shape a = cw_shape_box(10, 10), b = cw_shape_mask(mask);
    cw_transform ta = cw_default_transform(), tb = xf(8, 3, 0, 1, 1, 0, 0);
    cw_manifold m;
    assert_true(cw_overlap(&a, &ta, &b, &tb, &m));
    assert_float_equal(m.normal.x, 1, 1e-4);
    assert_float_equal(m.normal.y, 0, 1e-4);
    assert_true(m.depth >= 2 - 1e-4 && m.depth <= 2 + 1.0 / 64 + 1e-4);
    assert_true(m.point.x > 8 && m.point.x < 10 && m.point.y > 3 && m.point.y < 7);
    cw_transform out = moved(&tb, &m, m.depth);
    assert_false(cw_overlap(&a, &ta, &b, &out, NULL));
    // Swapped: the normal flips, the rest stays.
    cw_manifold r;
    assert_true(cw_overlap(&b, &tb, &a, &ta, &r));
    assert_float_equal(r.normal.x, -1, 1e-4);
    assert_float_equal(r.depth, m.depth, 1e-4);
    assert_float_equal(r.point.x, m.point.x, 1e-4);
    assert_float_equal(r.point.y, m.point.y, 1e-4);
    cw_mask_destroy(mask);
}

static void test_untouched_on_bad_input(void **state)
{
    (void)state;
    cw_shape box = cw_shape_box(1, 1), bad = cw_shape_box(-1, 1);
    cw_transform t = cw_default_transform();
    cw_manifold sentinel, m;
    memset(&sentinel, 0x5a, sizeof sentinel);
    m = sentinel;
    assert_false(cw_overlap(&bad, &t, &box, &t, &m));
    assert_memory_equal(&m, &sentinel, sizeof m);
    assert_false(cw_overlap(&box, &t, NULL, &t, &m));
    assert_memory_equal(&m, &sentinel, sizeof m);
    cw_transform far = xf(5, 0, 0, 1, 1, 0, 0);
    assert_false(cw_overlap(&box, &t, &box, &far, &m));
    assert_memory_equal(&m, &sentinel, sizeof m);
    far.position.x = 1; // touching
    assert_false(cw_overlap(&box, &t, &box, &far, &m));
    assert_memory_equal(&m, &sentinel, sizeof m);
}

// A bump allocator over a fixed buffer that hands out blocks downward: masks built through it in
// the order a, b get addresses in the order b < a, whatever the system allocator does.
static unsigned char arena[1 << 21];
static size_t arena_top;

static void *arena_alloc(size_t size, void *context)
{
    (void)context;
    size = (size + 15) & ~(size_t)15;
    if (size > arena_top)
        return NULL;
    arena_top -= size;
    return arena + arena_top;
}

static void arena_free(void *memory, size_t size, void *context) { (void)memory, (void)size, (void)context; }

static cw_mask *copy_mask(const gen_shape *g)
{
    return gen_make_mask(g->solid, g->w, g->h, g->pattern_seed + 1);
}

// The same pair built from copies of its masks, once with a's copy at the lower address and once
// at the higher, gives the very same bytes: canonical order is by content, never by address
// (lockstep games and replays rebuild their masks in every process).
static void test_same_bytes_whatever_the_addresses(void **state)
{
    (void)state;
    int compared = 0, failures = 0;
    for (uint32_t k = 0; k < (uint32_t)gen_scaled(600); k++) {
        gen_case c;
        if (!gen_case_make(&c, gen_case_seed(GEN_STREAM_MANIFOLD, GEN_MASK_MASK, k))) {
            gen_case_free(&c);
            continue;
        }
        cw_manifold m1;
        memset(&m1, 0, sizeof m1);
        if (cw_overlap(&c.a.shape, &c.ta, &c.b.shape, &c.tb, &m1)) {
            for (int order = 0; order < 2; order++) {
                arena_top = sizeof arena;
                assert_true(cw_set_allocator(arena_alloc, arena_free, NULL));
                cw_mask *first = copy_mask(order ? &c.b : &c.a), *second = copy_mask(order ? &c.a : &c.b);
                assert_true(cw_set_allocator(NULL, NULL, NULL));
                assert_non_null(first), assert_non_null(second);
                cw_mask *a = order ? second : first, *b = order ? first : second;
                // Downward: the copy made first is higher (never freed: the arena is simply reused).
                assert_true(order ? (uintptr_t)a < (uintptr_t)b : (uintptr_t)a > (uintptr_t)b);
                cw_shape sa = cw_shape_mask(a), sb = cw_shape_mask(b);
                cw_manifold m2;
                memset(&m2, 0, sizeof m2);
                assert_true(cw_overlap(&sa, &c.ta, &sb, &c.tb, &m2));
                compared++;
                if (memcmp(&m1, &m2, sizeof m1) != 0 && failures++ < MAX_PRINTED) {
                    printf("FAIL: the same pair with copied masks (a's copy %s b's) gives other bytes\n",
                           (uintptr_t)a < (uintptr_t)b ? "below" : "above");
                    gen_case_print(stdout, &c);
                    print_manifold("originals", &m1);
                    print_manifold("copies", &m2);
                }
            }
        }
        gen_case_free(&c);
    }
    printf("  %d overlapping pairs rebuilt from copies at both address orders, %d differ\n", compared, failures);
    assert_true(compared > 0);
    assert_int_equal(failures, 0);
}

// Whether the point lies in the shape or within `slack` of it (a manifold point may sit on an edge).
static bool near_shape(const cw_shape *shape, const cw_transform *t, cw_vec2 p, float slack)
{
    for (int k = 0; k < 9; k++) {
        cw_vec2 q = {p.x + (float)(k % 3 - 1) * slack, p.y + (float)(k / 3 - 1) * slack};
        if (cw_shape_contains_point(shape, t, q))
            return true;
    }
    return false;
}

// Giant, finely broken masks (checkerboards and thin stripes, the 16384 x 16384 case at a
// small scale): the manifold's sweep stops at its work budget, and what it gives must still be a
// manifold: a unit normal, a point in both shapes, a depth that separates them.
static void test_giant_masks_bounded_manifold(void **state)
{
    (void)state;
    int n = gen_test_scale() > 1 ? 512 : 1024;
    unsigned char *alpha = malloc((size_t)n * (size_t)n);
    assert_non_null(alpha);
    for (int pattern = 0; pattern < 2; pattern++) {
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                alpha[(size_t)y * (size_t)n + (size_t)x] = (pattern == 0 ? (x + y) % 2 : x % 3 == 0) ? 255 : 0;
        cw_mask *mask = cw_mask_from_alpha(alpha, n, n, n, 128);
        assert_non_null(mask);
        cw_shape shape = cw_shape_mask(mask);
        const float offsets[][3] = {{0.5f, 0.25f, 0}, {3.3f, -7.1f, 0.3f}, {(float)(n / 6 * 3) + 0.5f, 1.5f, 0}, {-0.7f, 2.2f, 1.2f}};
        for (int k = 0; k < 4; k++) {
            cw_transform ta = cw_default_transform(), tb = cw_default_transform();
            tb.position = (cw_vec2){offsets[k][0], offsets[k][1]};
            tb.rotation = offsets[k][2];
            cw_manifold m;
            assert_true(cw_overlap(&shape, &ta, &shape, &tb, &m));
            assert_true(finite_manifold(&m));
            assert_true(fabs(hypot(m.normal.x, m.normal.y) - 1) < 1e-4);
            assert_true(m.depth >= 0);
            assert_true(near_shape(&shape, &ta, m.point, 1e-3f) && near_shape(&shape, &tb, m.point, 1e-3f));
            cw_manifold step = m;
            cw_transform apart = moved(&tb, &step, m.depth + 1.0 / 32);
            assert_false(cw_overlap(&shape, &ta, &shape, &apart, NULL));
        }
        cw_mask_destroy(mask);
    }
    printf("  %d x %d checkerboards and stripes: manifolds valid at 4 placements each\n", n, n);
    free(alpha);
}

const struct CMUnitTest manifold_tests[] = {
    cmocka_unit_test(test_giant_masks_bounded_manifold),
    cmocka_unit_test(test_same_bytes_whatever_the_addresses),
    cmocka_unit_test(test_box_box_explicit),   cmocka_unit_test(test_box_mask_explicit),
    cmocka_unit_test(test_untouched_on_bad_input), cmocka_unit_test(test_random_box_box),
    cmocka_unit_test(test_random_with_masks),  cmocka_unit_test(test_random_near_contact),
};
