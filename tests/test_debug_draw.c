// cw_world_debug_draw: mask outlines against the mask texel by texel (every boundary edge once,
// joined into maximal segments, transformed as the body is), AABBs and boxes against the bodies,
// culling, grid cells (all, and within bounds), contacts against the touching pairs (also after
// bodies moved or died since the step, with and without kept manifolds), and every misuse with
// its message.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "suites.h"

#define MAX_CALLS 20000

typedef struct recorded {
    int polygons, segments, points, texts;
    cw_vec2 poly[MAX_CALLS][4];
    cw_debug_item poly_item[MAX_CALLS];
    cw_vec2 seg[MAX_CALLS][2];
    cw_debug_item seg_item[MAX_CALLS];
} recorded;

static void on_polygon(const cw_vec2 *v, int count, const cw_debug_item *item, void *context)
{
    recorded *r = context;
    assert_int_equal(count, 4);
    if (r->polygons < MAX_CALLS) {
        memcpy(r->poly[r->polygons], v, sizeof r->poly[0]);
        r->poly_item[r->polygons] = *item;
    }
    r->polygons++;
}

static void on_segment(cw_vec2 a, cw_vec2 b, const cw_debug_item *item, void *context)
{
    recorded *r = context;
    if (r->segments < MAX_CALLS) {
        r->seg[r->segments][0] = a, r->seg[r->segments][1] = b;
        r->seg_item[r->segments] = *item;
    }
    r->segments++;
}

static void on_point(cw_vec2 p, float size, const cw_debug_item *item, void *context)
{
    (void)p, (void)size, (void)item;
    ((recorded *)context)->points++;
}

static void on_text(cw_vec2 p, const char *text, const cw_debug_item *item, void *context)
{
    (void)p;
    assert_int_equal(strtoul(text, NULL, 10), item->body.index);
    ((recorded *)context)->texts++;
}

static cw_debug_draw drawer(recorded *r, uint32_t flags)
{
    memset(r, 0, sizeof *r);
    cw_debug_draw d = cw_default_debug_draw();
    d.draw_polygon = on_polygon, d.draw_segment = on_segment, d.draw_point = on_point, d.draw_text = on_text;
    d.flags = flags;
    d.context = r;
    return d;
}

static bool opaque(const unsigned char *alpha, int w, int h, int x, int y)
{
    return x >= 0 && y >= 0 && x < w && y < h && alpha[y * w + x] >= 128;
}

// Checks one mask's outline drawn at the identity transform against its texels.
static void check_outline(const unsigned char *alpha, int w, int h, const recorded *r)
{
    // covered[line][k]: horizontal unit edges (line y, texel column k), then vertical ones.
    int *hcov = calloc((size_t)(w) * (size_t)(h + 1), sizeof(int)), *vcov = calloc((size_t)(w + 1) * (size_t)h, sizeof(int));
    assert_true(hcov && vcov);
    assert_true(r->segments <= MAX_CALLS);
    for (int s = 0; s < r->segments; s++) {
        cw_vec2 a = r->seg[s][0], b = r->seg[s][1];
        assert_true(a.x == floorf(a.x) && a.y == floorf(a.y) && b.x == floorf(b.x) && b.y == floorf(b.y));
        assert_true(a.x == b.x || a.y == b.y);
        if (a.y == b.y) {
            for (int x = (int)fminf(a.x, b.x); x < (int)fmaxf(a.x, b.x); x++)
                hcov[(int)a.y * w + x]++;
        } else {
            for (int y = (int)fminf(a.y, b.y); y < (int)fmaxf(a.y, b.y); y++)
                vcov[y * (w + 1) + (int)a.x]++;
        }
    }
    for (int y = 0; y <= h; y++)
        for (int x = 0; x < w; x++) {
            bool edge = opaque(alpha, w, h, x, y - 1) != opaque(alpha, w, h, x, y);
            if (hcov[y * w + x] != (edge ? 1 : 0))
                fail_msg("horizontal edge (%d, %d): boundary %d, covered %d times", x, y, edge, hcov[y * w + x]);
        }
    for (int x = 0; x <= w; x++)
        for (int y = 0; y < h; y++) {
            bool edge = opaque(alpha, w, h, x - 1, y) != opaque(alpha, w, h, x, y);
            if (vcov[y * (w + 1) + x] != (edge ? 1 : 0))
                fail_msg("vertical edge (%d, %d): boundary %d, covered %d times", x, y, edge, vcov[y * (w + 1) + x]);
        }
    // Maximal: no two segments on one line meet end to end (they would be one).
    for (int s = 0; s < r->segments; s++)
        for (int t = 0; t < r->segments; t++) {
            const cw_vec2 *p = r->seg[s], *q = r->seg[t];
            bool same_line = (p[0].y == p[1].y && q[0].y == q[1].y && p[0].y == q[0].y) ||
                             (p[0].x == p[1].x && q[0].x == q[1].x && p[0].x == q[0].x);
            if (s != t && same_line && p[1].x == q[0].x && p[1].y == q[0].y)
                fail_msg("segments %d and %d on one line meet end to end", s, t);
        }
    free(hcov);
    free(vcov);
}

static cw_world *world_with_mask(const cw_mask *mask, cw_transform t, cw_body_id *id)
{
    cw_world *world = cw_world_create(&(cw_world_def){.worker_count = 1});
    assert_non_null(world);
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_mask(mask);
    def.transform = t;
    *id = cw_body_create(world, &def);
    assert_false(cw_body_id_is_null(*id));
    return world;
}

static void test_outlines_against_the_mask(void **state)
{
    (void)state;
    gen_rng rng = gen_seed(0xd7a3);
    int cases = gen_scaled(60) < 5 ? 5 : gen_scaled(60), total_segments = 0;
    for (int c = 0; c < cases; c++) {
        int w = gen_int(&rng, 1, 40), h = gen_int(&rng, 1, 40);
        double fill = gen_range(&rng, 0.05, 0.95);
        unsigned char *alpha = malloc((size_t)(w * h));
        assert_non_null(alpha);
        for (int k = 0; k < w * h; k++)
            alpha[k] = gen_chance(&rng, fill) ? 255 : 0;
        cw_mask *mask = cw_mask_from_alpha(alpha, w, h, w, 128);
        assert_non_null(mask);
        // At the identity: the outline in texel units.
        cw_body_id id;
        cw_world *world = world_with_mask(mask, cw_default_transform(), &id);
        static recorded plain, turned;
        cw_debug_draw d = drawer(&plain, CW_DRAW_MASK_OUTLINES);
        assert_true(cw_world_debug_draw(world, &d));
        check_outline(alpha, w, h, &plain);
        total_segments += plain.segments;
        for (int s = 0; s < plain.segments; s++)
            assert_true(plain.seg_item[s].what == CW_DRAW_MASK_OUTLINES && plain.seg_item[s].body.index == id.index);
        // Turned, scaled, mirrored and pivoted: the same segments, transformed as the body is.
        cw_transform t = {{(float)gen_range(&rng, -500, 500), (float)gen_range(&rng, -500, 500)},
                          (float)gen_range(&rng, -3.2, 3.2),
                          {(float)gen_range(&rng, 0.3, 3) * (gen_chance(&rng, 0.3) ? -1 : 1), (float)gen_range(&rng, 0.3, 3)},
                          {(float)gen_range(&rng, 0, w), (float)gen_range(&rng, 0, h)}};
        assert_true(cw_body_set_transform(world, id, &t));
        d = drawer(&turned, CW_DRAW_MASK_OUTLINES);
        assert_true(cw_world_debug_draw(world, &d));
        assert_int_equal(turned.segments, plain.segments);
        double c0 = cos(t.rotation), s0 = sin(t.rotation);
        for (int s = 0; s < plain.segments; s++)
            for (int e = 0; e < 2; e++) {
                double lx = (plain.seg[s][e].x - t.origin.x) * t.scale.x, ly = (plain.seg[s][e].y - t.origin.y) * t.scale.y;
                double wx = t.position.x + c0 * lx - s0 * ly, wy = t.position.y + s0 * lx + c0 * ly;
                if (fabs(wx - turned.seg[s][e].x) > 1e-3 * (1 + fabs(wx)) || fabs(wy - turned.seg[s][e].y) > 1e-3 * (1 + fabs(wy)))
                    fail_msg("segment %d end %d: (%g, %g), expected (%g, %g)", s, e, turned.seg[s][e].x,
                             turned.seg[s][e].y, wx, wy);
            }
        cw_world_destroy(world);
        cw_mask_destroy(mask);
        free(alpha);
    }
    printf("  %d random masks: %d outline segments, every boundary edge once, maximal, transformed\n", cases,
           total_segments);
}

// A world of boxes and masks, some switched off: AABBs, boxes, ids, culling, grid cells, contacts.
static void test_world_layers(void **state)
{
    (void)state;
    unsigned char alpha[16 * 16];
    for (int k = 0; k < 256; k++)
        alpha[k] = (k % 16 - 8) * (k % 16 - 8) + (k / 16 - 8) * (k / 16 - 8) < 40 ? 255 : 0;
    cw_mask *disc = cw_mask_from_alpha(alpha, 16, 16, 16, 128);
    assert_non_null(disc);
    cw_world *world = cw_world_create(&(cw_world_def){.worker_count = 1, .manifolds = true});
    assert_non_null(world);
    gen_rng rng = gen_seed(0xd7a4);
    enum { N = 120 };
    cw_body_id ids[N];
    int boxes = 0, enabled = 0;
    for (int k = 0; k < N; k++) {
        cw_body_def def = cw_default_body_def();
        bool box = k % 2 == 0;
        def.shape = box ? cw_shape_box((float)gen_range(&rng, 4, 30), (float)gen_range(&rng, 4, 30)) : cw_shape_mask(disc);
        def.transform.position = (cw_vec2){(float)gen_range(&rng, 0, 400), (float)gen_range(&rng, 0, 400)};
        def.transform.rotation = (float)gen_range(&rng, 0, 6.3);
        ids[k] = cw_body_create(world, &def);
        if (k % 10 == 9)
            cw_body_set_enabled(world, ids[k], false);
        else
            enabled++, boxes += box;
    }
    cw_world_step(world);
    static recorded r;
    cw_debug_draw d = drawer(&r, CW_DRAW_AABBS | CW_DRAW_BOXES | CW_DRAW_IDS);
    assert_true(cw_world_debug_draw(world, &d));
    assert_int_equal(r.polygons, enabled + boxes);
    assert_int_equal(r.texts, enabled);
    for (int p = 0; p < r.polygons; p++) {
        const cw_debug_item *item = &r.poly_item[p];
        assert_true(cw_body_is_enabled(world, item->body));
        if (item->what == CW_DRAW_AABBS) {
            cw_aabb box;
            assert_true(cw_body_aabb(world, item->body, &box));
            assert_true(r.poly[p][0].x == box.min.x && r.poly[p][0].y == box.min.y && r.poly[p][2].x == box.max.x &&
                        r.poly[p][2].y == box.max.y);
        } else { // a box: its sides, and its centre where the transform puts the local centre
            cw_transform t = cw_body_transform(world, item->body);
            cw_shape s = cw_body_shape(world, item->body);
            double c = cos(t.rotation), sn = sin(t.rotation);
            double lx = (s.size.x / 2 - t.origin.x) * t.scale.x, ly = (s.size.y / 2 - t.origin.y) * t.scale.y;
            double cx = t.position.x + c * lx - sn * ly, cy = t.position.y + sn * lx + c * ly;
            const cw_vec2 *v = r.poly[p];
            assert_true(fabs(hypot(v[1].x - v[0].x, v[1].y - v[0].y) - s.size.x) < 1e-3 * s.size.x);
            assert_true(fabs(hypot(v[2].x - v[1].x, v[2].y - v[1].y) - s.size.y) < 1e-3 * s.size.y);
            assert_true(fabs((v[0].x + v[2].x) / 2 - cx) < 1e-3 && fabs((v[0].y + v[2].y) / 2 - cy) < 1e-3);
        }
    }
    // Culling: only the bodies whose AABB meets the view.
    cw_aabb view = {{100, 100}, {220, 180}};
    d = drawer(&r, CW_DRAW_AABBS);
    d.use_bounds = true, d.bounds = view;
    assert_true(cw_world_debug_draw(world, &d));
    int expected = 0;
    for (int k = 0; k < N; k++) {
        cw_aabb b;
        if (cw_body_is_enabled(world, ids[k]) && cw_body_aabb(world, ids[k], &b) && b.min.x <= view.max.x &&
            view.min.x <= b.max.x && b.min.y <= view.max.y && view.min.y <= b.max.y)
            expected++;
    }
    assert_int_equal(r.polygons, expected);
    // Grid cells: each drawn cell meets some body's AABB; contacts: one per touching pair.
    d = drawer(&r, CW_DRAW_GRID | CW_DRAW_CONTACTS);
    assert_true(cw_world_debug_draw(world, &d));
    assert_true(r.polygons > 0);
    for (int p = 0; p < r.polygons && p < MAX_CALLS; p++) {
        bool meets = false;
        for (int k = 0; k < N && !meets; k++) {
            cw_aabb b;
            meets = cw_body_aabb(world, ids[k], &b) && b.min.x <= r.poly[p][2].x && r.poly[p][0].x <= b.max.x &&
                    b.min.y <= r.poly[p][2].y && r.poly[p][0].y <= b.max.y;
        }
        assert_true(meets);
    }
    int touching = cw_world_get_stats(world).touching_pairs;
    assert_true(touching > 0);
    assert_int_equal(r.points, touching);
    assert_int_equal(r.segments, touching);
    for (int s = 0; s < r.segments; s++)
        assert_true(cw_pair_touching(world, r.seg_item[s].body, r.seg_item[s].other));
    cw_world_destroy(world);
    cw_mask_destroy(disc);
}

static void expect_misuse(const cw_world *world, const cw_debug_draw *draw, const char *message)
{
    cw_clear_error();
    assert_false(cw_world_debug_draw(world, draw));
    assert_string_equal(cw_last_error(), message);
}

static void test_debug_draw_misuse(void **state)
{
    (void)state;
    cw_world *world = cw_world_create(&(cw_world_def){.worker_count = 1});
    static recorded r;
    cw_debug_draw d = drawer(&r, CW_DRAW_AABBS);
    expect_misuse(NULL, &d, "The world is NULL.");
    expect_misuse(world, NULL, "The debug draw is NULL.");
    d.flags = 1u << 12;
    expect_misuse(world, &d, "The debug draw flags hold unknown bits: use the CW_DRAW_ flags.");
    d = drawer(&r, CW_DRAW_GRID);
    d.draw_polygon = NULL;
    expect_misuse(world, &d, "The debug draw asks for AABBs, boxes or grid cells without a draw_polygon function.");
    d = drawer(&r, CW_DRAW_MASK_OUTLINES);
    d.draw_segment = NULL;
    expect_misuse(world, &d, "The debug draw asks for mask outlines or contacts without a draw_segment function.");
    d = drawer(&r, CW_DRAW_CONTACTS);
    d.draw_point = NULL;
    expect_misuse(world, &d, "The debug draw asks for contacts without a draw_point function.");
    d = drawer(&r, CW_DRAW_AABBS);
    d.use_bounds = true;
    d.bounds = (cw_aabb){{10, 0}, {0, 10}};
    expect_misuse(world, &d, "The debug draw bounds are inverted or not finite.");
    d.bounds = (cw_aabb){{0, 0}, {NAN, 10}};
    expect_misuse(world, &d, "The debug draw bounds are inverted or not finite.");
    // Nothing asked, nothing needed: no functions at all is fine; CW_DRAW_IDS without draw_text too.
    cw_debug_draw none = cw_default_debug_draw();
    none.flags = CW_DRAW_IDS;
    assert_true(cw_world_debug_draw(world, &none));
    cw_world_destroy(world);
}


// The contacts of a default world (manifolds for begins, none kept for stays): every drawn contact
// is the pair's manifold as cw_overlap() finds it, also for pairs that stay touching without being
// tested again (their manifolds were once read from memory the step had never written).
static void test_contacts_of_a_default_world(void **state)
{
    (void)state;
    cw_world_def def = cw_default_world_def();
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    gen_rng rng = gen_seed(0xc0de);
    gen_add_boxes(world, &rng, 80, 6, 30, 200, 6.3);
    static recorded r;
    for (int step = 0; step < 3; step++) { // nothing moves: from the second step on every pair stays
        cw_world_step(world);
        cw_debug_draw d = drawer(&r, CW_DRAW_CONTACTS);
        assert_true(cw_world_debug_draw(world, &d));
        assert_true(r.segments > 0 && r.segments < MAX_CALLS);
        for (int s = 0; s < r.segments; s++) {
            cw_body_id a = r.seg_item[s].body, b = r.seg_item[s].other;
            cw_shape sa = cw_body_shape(world, a), sb = cw_body_shape(world, b);
            cw_transform ta = cw_body_transform(world, a), tb = cw_body_transform(world, b);
            cw_manifold m;
            assert_true(cw_overlap(&sa, &ta, &sb, &tb, &m));
            if (memcmp(&r.seg[s][0], &m.point, sizeof m.point) != 0)
                fail_msg("step %d: contact of %u and %u drawn at (%g, %g), its manifold's point is (%g, %g)", step,
                         a.index, b.index, r.seg[s][0].x, r.seg[s][0].y, m.point.x, m.point.y);
        }
    }
    cw_world_destroy(world);
}

// --- between steps ---

typedef struct begun {
    int count;
    cw_body_id a[400], b[400];
    cw_manifold m[400];
} begun;

static void on_begin_record(const cw_contact *c, void *context)
{
    begun *g = context;
    assert_true(g->count < 400);
    g->a[g->count] = c->a, g->b[g->count] = c->b, g->m[g->count] = c->manifold;
    g->count++;
}

// The contact drawn for pair (a, b), or -1.
static int drawn_contact(const recorded *r, cw_body_id a, cw_body_id b)
{
    int found = -1;
    for (int s = 0; s < r->segments; s++)
        if (r->seg_item[s].body.index == a.index && r->seg_item[s].other.index == b.index) {
            assert_int_equal(found, -1); // drawn once
            found = s;
        }
    return found;
}

// After bodies moved and one died since the step: a world that keeps stays' manifolds draws every
// pair of live bodies with the manifold the step found; one that does not draws the pairs that
// still overlap, with the manifold of the bodies as they are now.
static void check_contacts_now(const cw_world *world, const begun *g, bool keeps)
{
    static recorded r;
    cw_debug_draw d = drawer(&r, CW_DRAW_CONTACTS);
    assert_true(cw_world_debug_draw(world, &d));
    int expected = 0;
    for (int p = 0; p < g->count; p++) {
        cw_manifold m = g->m[p];
        bool drawn = cw_body_is_valid(world, g->a[p]) && cw_body_is_valid(world, g->b[p]);
        if (drawn && !keeps) {
            cw_shape sa = cw_body_shape(world, g->a[p]), sb = cw_body_shape(world, g->b[p]);
            cw_transform ta = cw_body_transform(world, g->a[p]), tb = cw_body_transform(world, g->b[p]);
            drawn = cw_overlap(&sa, &ta, &sb, &tb, &m);
        }
        int s = drawn_contact(&r, g->a[p], g->b[p]);
        if (drawn != (s >= 0))
            fail_msg("pair (%u, %u): drawn %d, expected %d (manifolds kept: %d)", g->a[p].index, g->b[p].index, s >= 0,
                     drawn, keeps);
        if (drawn)
            assert_memory_equal(&r.seg[s][0], &m.point, sizeof m.point);
        expected += drawn;
    }
    assert_int_equal(r.segments, expected);
}

// The cells drawn within `view` are exactly the cells drawn without bounds that meet it: some of
// them, or (`whole`: a view of far more cells than the grid holds) all of them.
static void check_cells_in_view(const cw_world *world, cw_aabb view, bool whole)
{
    static recorded all, in_view;
    cw_debug_draw d = drawer(&all, CW_DRAW_GRID);
    assert_true(cw_world_debug_draw(world, &d));
    d = drawer(&in_view, CW_DRAW_GRID);
    d.use_bounds = true, d.bounds = view;
    assert_true(cw_world_debug_draw(world, &d));
    int meeting = 0;
    for (int p = 0; p < all.polygons; p++) {
        const cw_vec2 *c = all.poly[p];
        if (!(c[0].x <= view.max.x && view.min.x < c[2].x && c[0].y <= view.max.y && view.min.y < c[2].y))
            continue;
        meeting++;
        bool found = false;
        for (int q = 0; q < in_view.polygons && !found; q++)
            found = memcmp(in_view.poly[q], c, sizeof all.poly[0]) == 0;
        assert_true(found);
    }
    assert_true(meeting > 0 && (whole ? meeting == all.polygons : meeting < all.polygons));
    assert_int_equal(in_view.polygons, meeting);
}

// The grid drawn in a small view and in one of some 10^9 cells (drawn from the grid's occupied
// cells rather than cell by cell).
static void check_grid_views(const cw_world *world)
{
    check_cells_in_view(world, (cw_aabb){{50, 40}, {120, 150}}, false);
    check_cells_in_view(world, (cw_aabb){{-1e6f, -1e6f}, {1e6f, 1e6f}}, true);
}

// Found by coverage: no test drew a world that keeps stays' manifolds, a pair one of whose bodies
// died or moved apart since the step, or the grid within bounds. (A view of more than 2^20 cells
// drew no grid at all; it now draws the occupied cells.)
static void test_contacts_and_cells_between_steps(void **state)
{
    (void)state;
    for (int keeps = 0; keeps < 2; keeps++) {
        static begun g;
        g.count = 0;
        cw_world_def def = cw_default_world_def();
        def.report_stays = keeps; // with manifolds and stay_manifolds (both default on): kept
        def.on_begin = on_begin_record, def.context = &g;
        cw_world *world = cw_world_create(&def);
        assert_non_null(world);
        gen_rng rng = gen_seed(0xd12a);
        gen_add_boxes(world, &rng, 80, 6, 30, 200, 6.3);
        cw_world_step(world);
        assert_true(g.count > 10);
        check_contacts_now(world, &g, keeps);
        check_grid_views(world); // every body new: the grid was scanned by sorting (its table stale)
        for (int p = 0; p < g.count; p += 4) { // some bodies moved apart, one destroyed
            cw_transform t = cw_body_transform(world, g.b[p]);
            t.position.x += 1000;
            assert_true(cw_body_set_transform(world, g.b[p], &t));
        }
        cw_body_id dead = g.a[1];
        cw_body_destroy(world, dead);
        check_contacts_now(world, &g, keeps);
        cw_world_step(world);
        int mover = 0; // a body that begun a pair and still lives (a[0] may be the one destroyed)
        while (g.a[mover].index == dead.index)
            mover++;
        cw_transform t = cw_body_transform(world, g.a[mover]);
        t.position.y += 0.5f;
        assert_true(cw_body_set_transform(world, g.a[mover], &t));
        cw_world_step(world);
        check_grid_views(world); // one body moved: the grid's cell table built again
        cw_world_destroy(world);
    }
}

const struct CMUnitTest debug_draw_tests[DEBUG_DRAW_TEST_COUNT] = {
    cmocka_unit_test(test_outlines_against_the_mask),
    cmocka_unit_test(test_world_layers),
    cmocka_unit_test(test_debug_draw_misuse),
    cmocka_unit_test(test_contacts_and_cells_between_steps),
    cmocka_unit_test(test_contacts_of_a_default_world),
};
