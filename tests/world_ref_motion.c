// What swept bodies must report (see world_ref.h): every pair with a swept body and a relative
// motion is judged by cw_shape_cast() from where both bodies were at the last step (a cast the
// cast tests check against the motion reference); where the world and the cast disagree, the
// motion reference (motion_ref.h) decides whether the pair grazes, and then either answer passes.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "motion_ref.h"
#include "world_ref_internal.h"

// A pair touches clearly when its cells overlap by this much (world units) at some time.
#define CLEAR 1e-3

// The body's motion in the running step (callbacks may have moved it since: that is the next one).
static void motion_of(const wr_rec *r, double *dx, double *dy)
{
    *dx = (double)r->transform_step.position.x - r->from.x;
    *dy = (double)r->transform_step.position.y - r->from.y;
}

// The AABB of a body over its motion, with a margin for rounding.
static void motion_box(wr_rec *r, double min[2], double max[2])
{
    double dx, dy;
    motion_of(r, &dx, &dy);
    double big = fmax(fmax(fabs(r->min[0]), fabs(r->max[0])), fmax(fabs(r->min[1]), fabs(r->max[1])));
    double margin = 1e-3 + 1e-6 * big;
    min[0] = fmin(r->min[0], r->min[0] - dx) - margin, max[0] = fmax(r->max[0], r->max[0] - dx) + margin;
    min[1] = fmin(r->min[1], r->min[1] - dy) - margin, max[1] = fmax(r->max[1], r->max[1] - dy) + margin;
}

static bool aabb_empty(wr_rec *r)
{
    if (!r->aabb_valid) {
        r->aabb_valid = true;
        r->aabb_empty = !ref_aabb(&r->ref, &r->transform, false, r->min, r->max);
    }
    return r->aabb_empty;
}

static cw_transform at_start(const wr_rec *r)
{
    cw_transform t = r->transform_step;
    t.position = r->from;
    return t;
}

static void add_motion(wr_world *w, uint64_t key)
{
    wr_rec *a = &w->recs[key_a(key)], *b = &w->recs[key_b(key)];
    double ax, ay, bx, by;
    motion_of(a, &ax, &ay);
    motion_of(b, &bx, &by);
    wr_motion m = {key, false, 1, {{0, 0}, {0, 0}, 0}, ax - bx, ay - by, map_find(&w->open, key) != NULL};
    if (m.dx == 0 && m.dy == 0)
        return; // no relative motion: judged at the end, as any pair
    double amin[2], amax[2], bmin[2], bmax[2];
    if (aabb_empty(a) || aabb_empty(b))
        return;
    motion_box(a, amin, amax);
    motion_box(b, bmin, bmax);
    if (amin[0] > bmax[0] || bmin[0] > amax[0] || amin[1] > bmax[1] || bmin[1] > amax[1]) {
        m.hit = false; // cannot meet; listed so the checks know the pair moved
    } else {
        cw_transform ta = at_start(a), tb = at_start(b);
        m.hit = cw_shape_cast(&a->shape_step, &ta, (cw_vec2){(float)m.dx, (float)m.dy}, &b->shape_step, &tb, &m.fraction,
                              &m.manifold);
        // Found with b where it started; at that time b had moved by fraction of its motion.
        m.manifold.point.x = (float)(m.manifold.point.x + m.fraction * bx);
        m.manifold.point.y = (float)(m.manifold.point.y + m.fraction * by);
    }
    if (w->motion_count == w->motion_cap) {
        w->motion_cap = w->motion_cap ? 2 * w->motion_cap : 256;
        w->motions = xrealloc(w->motions, (size_t)w->motion_cap * sizeof *w->motions);
    }
    map_put(&w->moving, key, w->motion_count);
    w->motions[w->motion_count++] = m;
}

void wr_expect_motion(wr_world *w)
{
    map_clear(&w->moving);
    w->motion_count = 0;
    for (int i = 0; i < w->live_count; i++) {
        int hs = w->live[i];
        if (!w->recs[hs].swept)
            continue;
        for (int k = 0; k < w->live_count; k++) {
            int ho = w->live[k];
            const wr_rec *s = &w->recs[hs], *o = &w->recs[ho];
            if (ho == hs || (o->swept && ho < hs) || (s->is_static && o->is_static))
                continue; // a pair of two swept bodies once
            if (!wr_filters_match(s, o))
                continue;
            add_motion(w, canon_key(w, hs, ho));
        }
    }
}

const wr_motion *wr_motion_of(const wr_world *w, uint64_t key)
{
    const int *k = map_find(&w->moving, key);
    return k ? &w->motions[*k] : NULL;
}

// The reference's first touches over the motion at thresholds -CLEAR and +CLEAR.
static void reference_touch(const wr_world *w, const wr_motion *m, double *near, double *clear)
{
    const wr_rec *a = &w->recs[key_a(m->key)], *b = &w->recs[key_b(m->key)];
    cw_transform ta = at_start(a), tb = at_start(b);
    *near = mref_first_touch(&a->ref_step, &ta, m->dx, m->dy, &b->ref_step, &tb, -CLEAR);
    *clear = mref_first_touch(&a->ref_step, &ta, m->dx, m->dy, &b->ref_step, &tb, CLEAR);
}

bool wr_motion_grazing(const wr_world *w, const wr_motion *m)
{
    double near, clear;
    reference_touch(w, m, &near, &clear);
    return isfinite(near) && !isfinite(clear);
}

static bool close_to(float got, float want, double slack) { return fabs((double)got - want) <= slack; }

const char *wr_check_motion_begin(const wr_world *w, const wr_motion *m, const cw_contact *c)
{
    if (!m->hit)
        return wr_motion_grazing(w, m) ? NULL : "begin of a moving pair that the cast (and the reference) never sees touch";
    // The world works from where the bodies end, the cast from where they start: the same motion up
    // to rounding, so fractions agree to the bisection's step, contacts to float rounding.
    const double step = 0x1p-18;
    if (!close_to(c->fraction, m->fraction, step)) {
        double near, clear;
        reference_touch(w, m, &near, &clear);
        if (!(c->fraction >= near - step && (!isfinite(clear) || c->fraction <= clear + step)))
            return "fraction differs from the cast's and lies outside the reference's first touch";
        return NULL;
    }
    if (w->opt.no_manifolds || w->opt.skip_manifold_equal)
        return NULL;
    const cw_manifold *got = &c->manifold, *want = &m->manifold;
    // The first touch is known to 2^-20 of the motion: a fast pair's overlap there may differ by that
    // much motion between the two frames.
    double moved = 0x1p-18 * hypot(m->dx, m->dy);
    if (!close_to(got->normal.x, want->normal.x, 2e-3) || !close_to(got->normal.y, want->normal.y, 2e-3) ||
        !close_to(got->depth, want->depth, 1e-3 * (1 + want->depth) + moved)) {
        static _Thread_local char why[400];
        snprintf(why, sizeof why,
                 "the contact at the first touch (fraction %.9g) has normal (%.9g, %.9g) depth %.9g; the cast's "
                 "(fraction %.9g): normal (%.9g, %.9g) depth %.9g",
                 (double)c->fraction, (double)got->normal.x, (double)got->normal.y, (double)got->depth,
                 (double)m->fraction, (double)want->normal.x, (double)want->normal.y, (double)want->depth);
        return why;
    }
    // The point: where the two bodies touch at that time. (Not the cast's point itself: along a
    // touching edge any point of the thin overlap will do, and the world's frame and the cast's
    // round the thin overlap differently.)
    const wr_rec *a = &w->recs[key_a(m->key)], *b = &w->recs[key_b(m->key)];
    cw_transform ta = at_start(a), tb = at_start(b);
    double ax, ay, bx, by, f = c->fraction;
    motion_of(a, &ax, &ay);
    motion_of(b, &bx, &by);
    ta.position = (cw_vec2){(float)(ta.position.x + f * ax), (float)(ta.position.y + f * ay)};
    tb.position = (cw_vec2){(float)(tb.position.x + f * bx), (float)(tb.position.y + f * by)};
    double slack = 1e-3 + 1e-6 * (fabs(got->point.x) + fabs(got->point.y)) + 0x1p-15 * (hypot(ax, ay) + hypot(bx, by));
    double da = ref_point_distance(&a->ref_step, &ta, got->point.x, got->point.y, 1e9);
    double db = ref_point_distance(&b->ref_step, &tb, got->point.x, got->point.y, 1e9);
    if (da > slack || db > slack) {
        static _Thread_local char why[300];
        snprintf(why, sizeof why, "the contact point (%.9g, %.9g) at the first touch (fraction %.9g) is %.3g from a and "
                 "%.3g from b there", (double)got->point.x, (double)got->point.y, f, da, db);
        return why;
    }
    return NULL;
}

void wr_check_passed(wr_world *w)
{
    for (int k = 0; k < w->motion_count; k++) {
        const wr_motion *m = &w->motions[k];
        if (!m->hit || map_find(&w->expect, m->key) != NULL)
            continue;
        const wr_rec *a = &w->recs[key_a(m->key)], *b = &w->recs[key_b(m->key)];
        if (a->destroy_step == w->steps || b->destroy_step == w->steps)
            continue; // a callback destroyed one: its begin may have been dropped
        bool began = map_find(&w->begun, m->key) != NULL, open = map_find(&w->open, m->key) != NULL;
        if (m->was_open || (began && !open))
            continue; // touching before the step it simply ends; else it began and ended, as it should
        if (wr_motion_grazing(w, m))
            continue;
        wr_fail(w, "pair {%u, %u} - {%u, %u} touched during the step (cast at %.9g) but %s", a->id.index,
                a->id.generation, b->id.index, b->id.generation, (double)m->fraction,
                began ? "its end did not follow" : "no begin was reported");
        wr_print_body(w, key_a(m->key));
        wr_print_body(w, key_b(m->key));
        printf("    swept %d %d; from a (%.9g, %.9g) b (%.9g, %.9g); step positions a (%.9g, %.9g) b (%.9g, %.9g); relative motion (%.9g, %.9g)\n",
               a->swept, b->swept, (double)a->from.x, (double)a->from.y, (double)b->from.x, (double)b->from.y,
               (double)a->transform_step.position.x, (double)a->transform_step.position.y,
               (double)b->transform_step.position.x, (double)b->transform_step.position.y, m->dx, m->dy);
    }
}
