// World rays on random scenes (query_scene.h), compared with the slow reference (query_ref.h) over
// every live body: random rays, axis-aligned ones (half of them along integer lines, texel edges of
// many bodies), rays aimed at bodies, starting inside them and running exactly along texel edges.
// Each is cast for the closest hit and through the callback, whose answers are checked too: all hits,
// stop at the first, ignore every hit, the closest, the closest ignoring some bodies. Near-degenerate
// cases the reference cannot decide are skipped, counted, and required to be rare.
// CW_TEST_SCALE divides the case counts; CW_TEST_ONLY=<seed> runs only the scene with that seed.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "query_found.h"
#include "query_ref.h"
#include "query_scene.h"
#include "suites.h"

// ---------------------------------------------------------------------------------------------------
// One ray's checks against the reference.

// The reference for every body (bodies the filter excludes count as misses).
static void ray_refs(qs_scene *sc, cw_vec2 o, cw_vec2 d, cw_query_filter filter)
{
    for (int k = 0; k < sc->n; k++) {
        const qs_body *b = &sc->b[k];
        if (qf_filter_ok(b->category, b->collides_with, filter))
            qr_raycast(qs_body_shape(sc, b), &b->t, o, d, &sc->refs[k]);
        else
            sc->refs[k] = (qr_ray){.status = QR_NO, .lower = 2};
    }
}

// The closest sure hit among the bodies `odd_ignored` leaves (-1 if none); false if a body the
// reference cannot decide might come first.
static bool ray_closest_ref(const qs_scene *sc, cw_vec2 d, bool odd_ignored, int *closest)
{
    double best = 2, lower = INFINITY;
    *closest = -1;
    for (int k = 0; k < sc->n; k++) {
        const qr_ray *r = &sc->refs[k];
        if (odd_ignored && (qf_user_index(sc->b[k].user) & 1))
            continue;
        if (r->status == QR_YES && r->fraction < best)
            best = r->fraction, *closest = k;
        if (r->status == QR_UNSURE)
            lower = fmin(lower, r->lower);
    }
    return lower > best + qf_ray_tolerance(d) / hypot(d.x, d.y);
}

static void ray_fail(qs_scene *sc, cw_vec2 o, cw_vec2 d, cw_query_filter f, const char *what, const cw_ray_hit *h,
                     const qr_ray *ref)
{
    qs_fail(sc, "%s", what);
    if (sc->failures > QS_MAX_PRINT)
        return;
    qf_print_ray(o, d, f);
    if (h)
        qf_print_hit("library", h);
    if (ref)
        qf_print_ref(ref);
}

// The closest hit (cw_world_raycast_closest) against the reference's.
static void check_closest(qs_scene *sc, cw_vec2 o, cw_vec2 d, cw_query_filter filter, bool *skipped)
{
    int c;
    if (!ray_closest_ref(sc, d, false, &c)) {
        *skipped = true;
        return;
    }
    cw_ray_hit hit;
    memset(&hit, 0x5a, sizeof hit);
    cw_clear_error();
    bool got = cw_world_raycast_closest(sc->w, o, d, filter, &hit);
    if (c < 0) {
        if (got)
            ray_fail(sc, o, d, filter, "raycast_closest hit something the reference says the ray misses", &hit, NULL);
        else if (cw_last_error()[0] != '\0')
            ray_fail(sc, o, d, filter, "raycast_closest failed with an error on valid input", NULL, NULL);
        return;
    }
    if (!got) {
        qs_fail(sc, "raycast_closest missed (error \"%s\")", cw_last_error());
        ray_fail(sc, o, d, filter, "  the reference's closest hit:", NULL, &sc->refs[c]);
        return;
    }
    int k = qs_body_index(sc, hit.body);
    double ftol = qf_ray_tolerance(d) / hypot(d.x, d.y);
    if (k < 0 || sc->refs[k].status != QR_YES || sc->refs[k].fraction > sc->refs[c].fraction + ftol ||
        !qf_hit_matches(&hit, &sc->refs[k], o, d) || hit.user_data != sc->b[k].user || !qf_hit_sane(&hit, o, d))
        ray_fail(sc, o, d, filter, "raycast_closest differs from the reference's closest hit", &hit, &sc->refs[c]);
}

// Every report of a cast: a live body passing the filter, once, sane, with its user data, and where
// the reference is sure, its entry. Returns false if something was wrong.
// What is wrong with report h of a cast (naming body k of the mirror, or -1), or NULL.
static const char *ray_report_problem(const qs_scene *sc, const qf_rays_found *f, int h, int k, cw_vec2 o, cw_vec2 d,
                                      cw_query_filter filter)
{
    const cw_ray_hit *hit = &f->hits[h];
    if (k < 0)
        return "a ray reported a body that is not live";
    for (int g = 0; g < h; g++)
        if (qf_same_id(f->hits[g].body, hit->body))
            return "a ray reported the same body twice";
    const qs_body *b = &sc->b[k];
    const qr_ray *ref = &sc->refs[k];
    if (!qf_filter_ok(b->category, b->collides_with, filter))
        return "a ray reported a body its filter excludes";
    if (hit->user_data != b->user)
        return "a ray hit carries the wrong user data";
    if (!qf_hit_sane(hit, o, d))
        return "a ray hit is not on the ray, or its normal is not a unit vector facing the ray";
    if (ref->status == QR_NO)
        return "a ray reported a body the reference says it misses";
    if (ref->status == QR_YES && !qf_hit_matches(hit, ref, o, d))
        return "a ray hit differs from the reference";
    return NULL;
}

static bool check_ray_reports(qs_scene *sc, const qf_rays_found *f, cw_vec2 o, cw_vec2 d, cw_query_filter filter)
{
    bool ok = true;
    for (int h = 0; h < f->n; h++) {
        const cw_ray_hit *hit = &f->hits[h];
        int k = qs_body_index(sc, hit->body);
        const qr_ray *ref = k >= 0 ? &sc->refs[k] : NULL;
        const char *bad = ray_report_problem(sc, f, h, k, o, d, filter);
        if (bad) {
            ray_fail(sc, o, d, filter, bad, hit, ref);
            ok = false;
        }
    }
    return ok;
}

// A cast whose callback returns 1 (or -1, ignoring every body) reports every body hit.
static void check_all_hits(qs_scene *sc, cw_vec2 o, cw_vec2 d, cw_query_filter filter, int mode)
{
    qf_rays_found *f = sc->rays_found;
    qf_rays_reset(f, mode);
    cw_clear_error();
    if (!cw_world_raycast(sc->w, o, d, filter, qf_ray_collect, f)) {
        qs_fail(sc, "cw_world_raycast failed: %s", cw_last_error());
        return;
    }
    if (!check_ray_reports(sc, f, o, d, filter))
        return;
    for (int k = 0; k < sc->n; k++) {
        bool reported = false;
        for (int h = 0; h < f->n; h++)
            reported |= qf_same_id(f->hits[h].body, sc->b[k].id);
        if (sc->refs[k].status == QR_YES && !reported) {
            ray_fail(sc, o, d, filter, mode == QF_RAY_ALL ? "a cast for all hits (returning 1) missed a body"
                                                       : "a cast ignoring every hit (returning -1) missed a body",
                     NULL, &sc->refs[k]);
            if (sc->failures <= QS_MAX_PRINT)
                qs_print_body(sc, &sc->b[k]);
        }
    }
}

// Closest through the callback (returning the fraction, or -1 for bodies with odd user data): no
// call beyond the current limit, and the smallest non-ignored report is the reference's closest.
static void check_closest_callback(qs_scene *sc, cw_vec2 o, cw_vec2 d, cw_query_filter filter, bool odd_ignored)
{
    int c;
    if (!ray_closest_ref(sc, d, odd_ignored, &c))
        return;
    qf_rays_found *f = sc->rays_found;
    qf_rays_reset(f, odd_ignored ? QF_RAY_IGNORE_ODD : QF_RAY_CLOSEST);
    if (!cw_world_raycast(sc->w, o, d, filter, qf_ray_collect, f)) {
        qs_fail(sc, "cw_world_raycast failed: %s", cw_last_error());
        return;
    }
    if (!check_ray_reports(sc, f, o, d, filter))
        return;
    if (f->beyond_limit)
        ray_fail(sc, o, d, filter, "a ray callback was called for a hit beyond the limit it returned", NULL, NULL);
    const cw_ray_hit *best = NULL;
    for (int h = 0; h < f->n; h++)
        if (!(odd_ignored && (qf_user_index(f->hits[h].user_data) & 1)) && (!best || f->hits[h].fraction < best->fraction))
            best = &f->hits[h];
    double ftol = qf_ray_tolerance(d) / hypot(d.x, d.y);
    if ((c < 0) != (best == NULL) ||
        (best && sc->refs[qs_body_index(sc, best->body)].fraction > sc->refs[c].fraction + ftol))
        ray_fail(sc, o, d, filter, odd_ignored ? "closest by callback, ignoring odd bodies, differs from the reference"
                                               : "closest by callback differs from the reference",
                 best, c >= 0 ? &sc->refs[c] : NULL);
}

// A callback returning 0 stops the cast at its first call.
static void check_stop(qs_scene *sc, cw_vec2 o, cw_vec2 d, cw_query_filter filter)
{
    int c;
    bool sure = ray_closest_ref(sc, d, false, &c);
    qf_rays_found *f = sc->rays_found;
    qf_rays_reset(f, QF_RAY_STOP);
    if (!cw_world_raycast(sc->w, o, d, filter, qf_ray_collect, f)) {
        qs_fail(sc, "cw_world_raycast failed: %s", cw_last_error());
        return;
    }
    check_ray_reports(sc, f, o, d, filter);
    bool any_sure = false;
    for (int k = 0; k < sc->n; k++)
        any_sure |= sc->refs[k].status == QR_YES;
    if (f->calls > 1 || (any_sure && f->calls == 0) || (sure && c < 0 && f->calls != 0))
        ray_fail(sc, o, d, filter, "a callback returning 0 did not stop the cast after exactly one hit", NULL, NULL);
}

static void check_ray(qs_scene *sc, cw_vec2 o, cw_vec2 d, cw_query_filter filter, int variant)
{
    ray_refs(sc, o, d, filter);
    bool skipped = false;
    check_closest(sc, o, d, filter, &skipped);
    check_all_hits(sc, o, d, filter, QF_RAY_ALL);
    for (int k = 0; k < sc->n; k++)
        skipped |= sc->refs[k].status == QR_UNSURE;
    switch (variant % 4) {
    case 0:
        check_stop(sc, o, d, filter);
        break;
    case 1:
        check_all_hits(sc, o, d, filter, QF_RAY_IGNORE_ALL);
        break;
    case 2:
        check_closest_callback(sc, o, d, filter, false);
        break;
    default:
        check_closest_callback(sc, o, d, filter, true);
    }
    sc->rays.cases++;
    sc->rays.skipped += skipped;
}

static double random_length(qs_scene *sc)
{
    return exp(gen_range(&sc->r, log(0.05), log(3 * sc->p->spread)));
}

// A segment exactly along an edge line of a body on the texel grid, or false if none maps exactly.
static bool ray_along_grid(qs_scene *sc, const qs_body *b, cw_vec2 *o, cw_vec2 *d)
{
    double w, h;
    qr_shape_size(qs_body_shape(sc, b), &w, &h);
    bool box = qs_body_shape(sc, b)->type == CW_SHAPE_BOX;
    int axis = gen_int(&sc->r, 0, 1);
    double size = axis ? h : w, other = axis ? w : h;
    double k = box ? (gen_chance(&sc->r, 0.5) ? 0 : size) : gen_int(&sc->r, 0, (int)size);
    double b0 = gen_int(&sc->r, -3, (int)other + 3) + 0.25 * gen_int(&sc->r, 1, 3);
    double b1 = gen_int(&sc->r, -3, (int)other + 3) + 0.25 * gen_int(&sc->r, 1, 3);
    if (b0 == b1)
        return false;
    cw_vec2 p0, p1;
    if (!qr_exact_world(&b->t, axis ? b0 : k, axis ? k : b0, &p0) || !qr_exact_world(&b->t, axis ? b1 : k, axis ? k : b1, &p1))
        return false;
    *o = p0;
    *d = (cw_vec2){p1.x - p0.x, p1.y - p0.y};
    return true;
}

// Random rays, axis-aligned rays, rays aimed at bodies, starting inside them, and along texel edges.
static void random_ray(qs_scene *sc, cw_vec2 *o, cw_vec2 *d)
{
    const qs_body *b = sc->n ? &sc->b[gen_int(&sc->r, 0, sc->n - 1)] : NULL;
    int kind = b ? gen_int(&sc->r, 0, 5) : 0;
    if (kind == 5 && ray_along_grid(sc, b, o, d))
        return;
    *o = kind == 2 ? qs_point_in_body(sc, b) : qs_random_spot(sc, 1.2);
    double len = random_length(sc);
    *d = qs_random_direction(&sc->r, len);
    if (kind == 1) {
        float s = gen_chance(&sc->r, 0.5) ? 1.0f : -1.0f;
        bool along_x = gen_chance(&sc->r, 0.5);
        *d = along_x ? (cw_vec2){s * (float)len, 0} : (cw_vec2){0, s * (float)len};
        // Half of them along integer lines, which are texel edges of many bodies on the texel grid
        // (whose edges all lie on multiples of 1/4), starting between edges.
        if (gen_chance(&sc->r, 0.5))
            *o = along_x ? (cw_vec2){floorf(o->x) + 0.125f, floorf(o->y)} : (cw_vec2){floorf(o->x), floorf(o->y) + 0.125f};
    } else if (kind == 3) {
        cw_vec2 target = qs_point_in_body(sc, b);
        double stretch = gen_range(&sc->r, 0.5, 2);
        *d = (cw_vec2){(float)((target.x - o->x) * stretch), (float)((target.y - o->y) * stretch)};
    }
    if (d->x == 0 && d->y == 0)
        d->x = 1;
}

static void random_rays(qs_scene *sc, int count)
{
    for (int q = 0; q < count && !qs_stopped(sc); q++) {
        cw_vec2 o, d;
        random_ray(sc, &o, &d);
        check_ray(sc, o, d, qs_random_query_filter(&sc->r), q);
    }
}

// ---------------------------------------------------------------------------------------------------
// Random worlds.

enum { CHECK_RAYS = 1 };

static void check_round(qs_scene *sc, int checks)
{
    if (checks & CHECK_RAYS)
        random_rays(sc, gen_scaled(250));
}

static void run_scenes(int checks)
{
    qs_totals tot;
    qs_run_scenes(checks, check_round, &tot);
    if (checks & CHECK_RAYS)
        qs_expect_rare("rays", &tot.rays);
}

static void test_world_rays(void **state)
{
    (void)state;
    run_scenes(CHECK_RAYS);
}

const struct CMUnitTest query_ray_tests[] = {
    cmocka_unit_test(test_world_rays),
};
