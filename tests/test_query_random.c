// World point, AABB and shape queries on random scenes (query_scene.h), compared with brute force over
// every live body: points anywhere and in bodies, and exact points on texel edges and corners (the
// half-open rule), against the slow reference (query_ref.h); boxes against the bodies' AABBs; shapes
// against cw_overlap, their manifolds to the bit. Near-degenerate points the reference cannot decide
// are skipped, counted, and required to be rare.
// CW_TEST_SCALE divides the case counts; CW_TEST_ONLY=<seed> runs only the scene with that seed.
#include <math.h>
#include <stdio.h>

#include "gen.h"
#include "query_found.h"
#include "query_ref.h"
#include "query_scene.h"
#include "suites.h"

// ---------------------------------------------------------------------------------------------------
// Checks shared by the point, box and shape queries.

// Every report names a live body that passes the filter, once, with its user data; manifolds only
// when asked for.
static void check_reports(qs_scene *sc, const qf_found *f, cw_query_filter filter, bool manifolds, const char *what)
{
    if (f->calls != f->n)
        qs_fail(sc, "%s: more reports than the test can hold", what);
    for (int k = 0; k < f->n; k++) {
        int i = qs_body_index(sc, f->ids[k]);
        if (i < 0) {
            qs_fail(sc, "%s reported {%u, %u}, which is not a live body", what, f->ids[k].index, f->ids[k].generation);
            continue;
        }
        const qs_body *b = &sc->b[i];
        if (qf_found_index(f, f->ids[k]) != k)
            qs_fail(sc, "%s reported body {%u, %u} twice", what, b->id.index, b->id.generation);
        if (f->users[k] != b->user)
            qs_fail(sc, "%s reported user data %d for a body whose user data is %d", what, qf_user_index(f->users[k]),
                  qf_user_index(b->user));
        if (!qf_filter_ok(b->category, b->collides_with, filter))
            qs_fail(sc, "%s reported a body its filter %#x/%#x excludes", what, b->category, b->collides_with);
        if (f->has_manifold[k] != manifolds)
            qs_fail(sc, "%s: manifold pointer %s", what, manifolds ? "NULL" : "not NULL");
    }
}

// Compares one body's expected answer with the reports.
static void expect_report(qs_scene *sc, const qf_found *f, const qs_body *b, bool expected, const char *what)
{
    bool reported = qf_found_index(f, b->id) >= 0;
    if (reported == expected)
        return;
    qs_fail(sc, "%s %s body {%u, %u} (%s)", what, reported ? "reported" : "missed", b->id.index, b->id.generation,
          expected ? "the reference says it is in" : "the reference says it is out");
    if (sc->failures <= QS_MAX_PRINT)
        qs_print_body(sc, b);
}

// ---------------------------------------------------------------------------------------------------
// Point queries.

static void check_point(qs_scene *sc, cw_vec2 p, cw_query_filter filter, qs_tally *t)
{
    qf_found *f = sc->found;
    qf_found_reset(f, 0);
    cw_clear_error();
    if (!cw_world_query_point(sc->w, p, filter, qf_collect, f)) {
        qs_fail(sc, "cw_world_query_point(%.9g, %.9g) failed: %s", (double)p.x, (double)p.y, cw_last_error());
        return;
    }
    check_reports(sc, f, filter, false, "point query");
    bool skipped = false;
    char what[96];
    snprintf(what, sizeof what, "point query at (%a, %a)", (double)p.x, (double)p.y);
    for (int k = 0; k < sc->n; k++) {
        const qs_body *b = &sc->b[k];
        if (!qf_filter_ok(b->category, b->collides_with, filter))
            continue;
        qr_answer a = qr_contains_point(qs_body_shape(sc, b), &b->t, p);
        if (a == QR_UNSURE)
            skipped = true;
        else
            expect_report(sc, f, b, a == QR_YES, what);
    }
    t->cases++;
    t->skipped += skipped;
}


static void random_points(qs_scene *sc, int count)
{
    for (int q = 0; q < count && !qs_stopped(sc); q++) {
        cw_vec2 p = gen_chance(&sc->r, 0.5) && sc->n ? qs_point_in_body(sc, &sc->b[gen_int(&sc->r, 0, sc->n - 1)])
                                                     : qs_random_spot(sc, 1.2);
        check_point(sc, p, qs_random_query_filter(&sc->r), &sc->points);
    }
}

// Exact texel corners and edge points of bodies on the texel grid (only those that map to the world
// exactly are compared; the others are counted and skipped).
static void edge_points(qs_scene *sc, int count)
{
    for (int q = 0; q < count && !qs_stopped(sc) && sc->n; q++) {
        const qs_body *b = &sc->b[gen_int(&sc->r, 0, sc->n - 1)];
        for (int tries = 0; tries < 20 && !qr_quarter_turn(&b->t); tries++)
            b = &sc->b[gen_int(&sc->r, 0, sc->n - 1)];
        double w, h;
        qr_shape_size(qs_body_shape(sc, b), &w, &h);
        bool box = qs_body_shape(sc, b)->type == CW_SHAPE_BOX;
        double u = box ? (gen_chance(&sc->r, 0.5) ? 0 : w) : gen_int(&sc->r, 0, (int)w);
        double v = box ? (gen_chance(&sc->r, 0.5) ? 0 : h) : gen_int(&sc->r, 0, (int)h);
        int kind = gen_int(&sc->r, 0, 2); // corner, on a u edge, on a v edge
        if (kind == 1)
            v = box ? gen_int(&sc->r, 0, (int)h) : v + 0.5 * gen_int(&sc->r, -1, 1);
        if (kind == 2)
            u = box ? gen_int(&sc->r, 0, (int)w) : u + 0.5 * gen_int(&sc->r, -1, 1);
        cw_vec2 p;
        if (!qr_exact_world(&b->t, u, v, &p)) {
            sc->edge_inexact++;
            continue;
        }
        check_point(sc, p, qs_random_query_filter(&sc->r), &sc->edges);
    }
}

// ---------------------------------------------------------------------------------------------------
// AABB and shape queries.

// Whether the intersection has positive area (a box of zero width or height overlaps nothing).
static bool aabb_overlap(cw_aabb a, cw_aabb b)
{
    return fminf(a.max.x, b.max.x) > fmaxf(a.min.x, b.min.x) && fminf(a.max.y, b.max.y) > fmaxf(a.min.y, b.min.y);
}

static void check_aabb(qs_scene *sc, cw_aabb box, cw_query_filter filter)
{
    qf_found *f = sc->found;
    qf_found_reset(f, 0);
    cw_clear_error();
    if (!cw_world_query_aabb(sc->w, box, filter, qf_collect, f)) {
        qs_fail(sc, "cw_world_query_aabb failed: %s", cw_last_error());
        return;
    }
    check_reports(sc, f, filter, false, "AABB query");
    for (int k = 0; k < sc->n; k++) {
        const qs_body *b = &sc->b[k];
        cw_aabb bb;
        assert_true(cw_body_aabb(sc->w, b->id, &bb));
        if (qf_filter_ok(b->category, b->collides_with, filter))
            expect_report(sc, f, b, aabb_overlap(bb, box), "AABB query");
    }
    sc->boxes.cases++;
}

static void random_boxes(qs_scene *sc, int count)
{
    for (int q = 0; q < count && !qs_stopped(sc); q++) {
        cw_vec2 c = qs_random_spot(sc, 1.1);
        double hw = exp(gen_range(&sc->r, log(0.2), log(sc->p->spread))), hh = hw * gen_range(&sc->r, 0.2, 2);
        cw_aabb box = {{(float)(c.x - hw), (float)(c.y - hh)}, {(float)(c.x + hw), (float)(c.y + hh)}};
        if (gen_chance(&sc->r, 0.05)) // zero area: overlaps nothing with positive area
            box.max = box.min;
        check_aabb(sc, box, qs_random_query_filter(&sc->r));
    }
}

static bool manifold_equal(const cw_manifold *a, const cw_manifold *b)
{
    return a->point.x == b->point.x && a->point.y == b->point.y && a->normal.x == b->normal.x &&
           a->normal.y == b->normal.y && a->depth == b->depth;
}

static void check_shape_manifolds(qs_scene *sc, const qf_found *f, const cw_shape *qs, const cw_transform *qt)
{
    for (int k = 0; k < f->n; k++) {
        int i = qs_body_index(sc, f->ids[k]);
        cw_manifold want;
        if (i < 0 || !f->has_manifold[k] || !cw_overlap(qs, qt, qs_body_shape(sc, &sc->b[i]), &sc->b[i].t, &want))
            continue;
        if (!manifold_equal(&f->manifolds[k], &want))
            qs_fail(sc, "shape query manifold (%.9g, %.9g) n (%.9g, %.9g) d %.9g differs from cw_overlap's (%.9g, %.9g) "
                      "n (%.9g, %.9g) d %.9g",
                  (double)f->manifolds[k].point.x, (double)f->manifolds[k].point.y, (double)f->manifolds[k].normal.x,
                  (double)f->manifolds[k].normal.y, (double)f->manifolds[k].depth, (double)want.point.x,
                  (double)want.point.y, (double)want.normal.x, (double)want.normal.y, (double)want.depth);
    }
}

static void check_shape(qs_scene *sc, const cw_shape *qs, const cw_transform *qt, cw_query_filter filter, bool manifold)
{
    qf_found *f = sc->found;
    qf_found_reset(f, 0);
    cw_clear_error();
    if (!cw_world_query_shape(sc->w, qs, qt, filter, manifold, qf_collect, f)) {
        qs_fail(sc, "cw_world_query_shape failed: %s", cw_last_error());
        return;
    }
    check_reports(sc, f, filter, manifold, "shape query");
    for (int k = 0; k < sc->n; k++) {
        const qs_body *b = &sc->b[k];
        if (qf_filter_ok(b->category, b->collides_with, filter))
            expect_report(sc, f, b, cw_overlap(qs, qt, qs_body_shape(sc, b), &b->t, NULL), "shape query");
    }
    if (manifold)
        check_shape_manifolds(sc, f, qs, qt);
    sc->shapes.cases++;
}

static void random_shapes(qs_scene *sc, int count)
{
    for (int q = 0; q < count && !qs_stopped(sc); q++) {
        int s = gen_int(&sc->r, 0, QS_PAL_EMPTY);
        cw_transform t;
        qs_random_body_transform(sc, s, &t);
        check_shape(sc, &sc->pal[s].shape, &t, qs_random_query_filter(&sc->r), gen_chance(&sc->r, 0.4));
    }
}

// ---------------------------------------------------------------------------------------------------
// Random worlds.

enum { CHECK_POINTS = 1, CHECK_BOXES = 2 };

static void check_round(qs_scene *sc, int checks)
{
    if (checks & CHECK_POINTS) {
        random_points(sc, gen_scaled(400));
        edge_points(sc, gen_scaled(200));
    }
    if (checks & CHECK_BOXES) {
        random_boxes(sc, gen_scaled(100));
        random_shapes(sc, gen_scaled(40));
    }
}

static void run_scenes(int checks)
{
    qs_totals tot;
    qs_run_scenes(checks, check_round, &tot);
    if (checks & CHECK_POINTS) {
        qs_expect_rare("points", &tot.points);
        qs_expect_rare("edge points", &tot.edges);
        assert_true(2 * tot.edges.cases >= tot.edge_inexact); // at least a third of the edge points are compared
    }
    if (checks & CHECK_BOXES)
        assert_true(tot.boxes.cases > 0 && tot.shapes.cases > 0);
}

static void test_world_points(void **state)
{
    (void)state;
    run_scenes(CHECK_POINTS);
}

static void test_world_boxes_and_shapes(void **state)
{
    (void)state;
    run_scenes(CHECK_BOXES);
}

const struct CMUnitTest query_random_tests[] = {
    cmocka_unit_test(test_world_points),
    cmocka_unit_test(test_world_boxes_and_shapes),
};
