// What a step's callbacks must report, checked after every step of the reference world (see
// world_ref.h): the events' order, ids, user data, fractions and manifolds, begins and ends balanced
// per pair, the touching set they build equal to the expected one, and the step's stats.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "world_ref_internal.h"

static void fail_pair(wr_world *w, const wr_event *e, const char *why)
{
    static const char *const phases[] = {"end", "begin", "stay"};
    const cw_contact *c = &e->contact;
    wr_fail(w, "%s event for {%u, %u} - {%u, %u} (user %p, %p): %s", phases[e->phase], c->a.index, c->a.generation,
            c->b.index, c->b.generation, c->user_a, c->user_b, why);
    if (w->printed <= WR_MAX_PRINTED) {
        const int *ha = map_find(&w->ids, id_key(c->a)), *hb = map_find(&w->ids, id_key(c->b));
        if (ha)
            wr_print_body(w, *ha);
        if (hb)
            wr_print_body(w, *hb);
    }
}

static bool destroyed_before(const wr_world *w, const wr_rec *r, int k)
{
    return r->destroy_step == w->steps && r->destroy_seq >= 0 && k >= r->destroy_seq;
}

static bool destroyed_in_step(const wr_world *w, const wr_rec *r) { return r->destroy_step == w->steps; }

static void check_user(wr_world *w, const wr_event *e, const wr_rec *r, void *got, int k, const char *side)
{
    char why[200];
    if (r->live_at_step) {
        if (destroyed_before(w, r, k)) {
            if (got != r->user_step && got != r->user_destroy) {
                snprintf(why, sizeof why, "%s is %p, expected %p (user data when the step began) or %p (when destroyed)",
                         side, got, r->user_step, r->user_destroy);
                fail_pair(w, e, why);
            }
        } else if (got != r->user_step) {
            snprintf(why, sizeof why, "%s is %p, expected %p (the user data when the step began)", side, got,
                     r->user_step);
            fail_pair(w, e, why);
        }
    } else if (!r->live && !(r->created_in_step && r->created_step == w->steps)) {
        if (got != r->user_destroy) {
            snprintf(why, sizeof why, "%s is %p, expected %p (the user data when the body was destroyed)", side, got,
                     r->user_destroy);
            fail_pair(w, e, why);
        }
    }
}

static bool manifold_is_zero(const cw_manifold *m)
{
    return m->point.x == 0 && m->point.y == 0 && m->normal.x == 0 && m->normal.y == 0 && m->depth == 0;
}

static bool same_float(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static void check_manifold(wr_world *w, const wr_event *e, const wr_rec *a, const wr_rec *b)
{
    const cw_manifold *m = &e->contact.manifold;
    char why[300];
    if (w->opt.no_manifolds) {
        if (!manifold_is_zero(m))
            fail_pair(w, e, "a manifold was filled although the world was made with manifolds off");
        return;
    }
    double len = hypot(m->normal.x, m->normal.y);
    if (!(fabs(len - 1) < 1e-3) || !isfinite(m->point.x) || !isfinite(m->point.y) || !(m->depth >= 0) ||
        !isfinite(m->depth)) {
        snprintf(why, sizeof why, "bad manifold: point (%.9g, %.9g), normal (%.9g, %.9g) of length %.9g, depth %.9g",
                 (double)m->point.x, (double)m->point.y, (double)m->normal.x, (double)m->normal.y, len,
                 (double)m->depth);
        fail_pair(w, e, why);
        return;
    }
    if (w->opt.skip_manifold_equal)
        return;
    cw_manifold want;
    memset(&want, 0, sizeof want);
    w->totals.manifold_checked++;
    if (!cw_overlap(&a->shape_step, &a->transform_step, &b->shape_step, &b->transform_step, &want)) {
        fail_pair(w, e, "reported as touching but cw_overlap (as the step began) says the shapes do not overlap");
        return;
    }
    if (!same_float(m->point.x, want.point.x) || !same_float(m->point.y, want.point.y) ||
        !same_float(m->normal.x, want.normal.x) || !same_float(m->normal.y, want.normal.y) ||
        !same_float(m->depth, want.depth)) {
        snprintf(why, sizeof why,
                 "manifold point (%a, %a) normal (%a, %a) depth %a differs from cw_overlap(a, b)'s point (%a, %a) "
                 "normal (%a, %a) depth %a",
                 (double)m->point.x, (double)m->point.y, (double)m->normal.x, (double)m->normal.y, (double)m->depth,
                 (double)want.point.x, (double)want.point.y, (double)want.normal.x, (double)want.normal.y,
                 (double)want.depth);
        fail_pair(w, e, why);
    }
}

static void print_pair(const wr_world *w, uint64_t key)
{
    if (w->printed > WR_MAX_PRINTED)
        return;
    wr_print_body(w, key_a(key));
    wr_print_body(w, key_b(key));
}

// Delivery groups, in order: ends, begins, ends of pairs that began in this step (swept pairs
// that touched only during it), stays.
static int group_of(const wr_world *w, const wr_event *e, uint64_t key)
{
    if (e->phase == WR_END)
        return map_find(&w->begun, key) != NULL ? 2 : 0;
    return e->phase == WR_BEGIN ? 1 : 3;
}

// A begin's fraction and, for pairs with a swept body and a relative motion, its first touch.
static void check_begin(wr_world *w, const wr_event *e, const wr_rec *a, const wr_rec *b, uint64_t key)
{
    const wr_motion *m = wr_motion_of(w, key);
    if (m != NULL) {
        const char *why = wr_check_motion_begin(w, m, &e->contact);
        if (why != NULL)
            fail_pair(w, e, why);
        return;
    }
    float want = a->swept || b->swept ? 0.0f : 1.0f; // a swept pair without relative motion: from the start
    if (e->contact.fraction != want) {
        char why[120];
        snprintf(why, sizeof why, "fraction %.9g, expected %.9g", (double)e->contact.fraction, (double)want);
        fail_pair(w, e, why);
    }
}

void wr_check_events(wr_world *w)
{
    int prev_phase = -1;
    uint32_t prev_a = 0, prev_b = 0;
    int delivered[3] = {0, 0, 0};
    map_clear(&w->begun);
    map_clear(&w->stayed);
    for (int k = 0; k < w->log_count; k++) {
        const wr_event *e = &w->log[k];
        const cw_contact *c = &e->contact;
        delivered[e->phase]++;
        if (!(c->a.index < c->b.index))
            fail_pair(w, e, "a.index is not below b.index");
        const int *pha = map_find(&w->ids, id_key(c->a)), *phb = map_find(&w->ids, id_key(c->b));
        if (pha == NULL || phb == NULL) {
            fail_pair(w, e, "names an id the world never returned");
            continue;
        }
        int ha = *pha, hb = *phb;
        const wr_rec *a = &w->recs[ha], *b = &w->recs[hb];
        uint64_t key = pair_key(ha, hb);
        int group = group_of(w, e, key);
        if (group < prev_phase)
            fail_pair(w, e, "out of order (ends, begins, ends of pairs begun in the step, stays)");
        else if (group == prev_phase && !(c->a.index > prev_a || (c->a.index == prev_a && c->b.index > prev_b)))
            fail_pair(w, e, "not in ascending (a.index, b.index) order within its group");
        prev_phase = group;
        prev_a = c->a.index;
        prev_b = c->b.index;
        if (e->phase != WR_BEGIN && c->fraction != 1)
            fail_pair(w, e, "an end or stay whose fraction is not 1");
        check_user(w, e, a, c->user_a, k, "user_a");
        check_user(w, e, b, c->user_b, k, "user_b");
        bool in_t = map_find(&w->expect, key) != NULL;
        bool both_at_start = a->live_at_step && b->live_at_step;
        switch (e->phase) {
        case WR_END:
            if (!map_del(&w->open, key))
                fail_pair(w, e, "end of a pair that had not begun (or had already ended)");
            if (!manifold_is_zero(&c->manifold))
                fail_pair(w, e, "end event with a manifold that is not all zero");
            if (both_at_start && in_t)
                fail_pair(w, e, "end of a pair that still touches (both bodies live, shapes overlapping)");
            w->totals.ends++;
            break;
        case WR_BEGIN:
        case WR_STAY: {
            bool begin = e->phase == WR_BEGIN;
            if (destroyed_before(w, a, k) || destroyed_before(w, b, k))
                fail_pair(w, e, "names a body a callback destroyed earlier in this step");
            if (!both_at_start)
                fail_pair(w, e, "names a body that did not exist when the step began");
            const wr_motion *moving = wr_motion_of(w, key);
            if (!in_t && !(begin && moving != NULL && (moving->hit || wr_motion_grazing(w, moving))))
                fail_pair(w, e, begin ? "begin of a pair that does not touch (nor touched during the step)"
                                      : "stay of a pair that does not touch");
            if (begin)
                check_begin(w, e, a, b, key);
            if (begin) {
                if (map_find(&w->open, key) != NULL)
                    fail_pair(w, e, "begin of a pair that had already begun (no end in between)");
                else
                    map_put(&w->open, key, 1);
                map_put(&w->begun, key, 1);
                w->totals.begins++;
            } else {
                if (map_find(&w->open, key) == NULL)
                    fail_pair(w, e, "stay of a pair that had not begun");
                else if (map_find(&w->begun, key) != NULL)
                    fail_pair(w, e, "stay of a pair that began in this same step");
                if (map_find(&w->stayed, key) != NULL)
                    fail_pair(w, e, "second stay of the same pair in one step");
                map_put(&w->stayed, key, 1);
                w->totals.stays++;
            }
            if (in_t && both_at_start && !(begin && moving != NULL))
                check_manifold(w, e, a, b);
            break;
        }
        default:
            fail_pair(w, e, "unknown phase");
        }
    }
    wr_check_passed(w);
    // The touching set derived from the events equals the expected one, for bodies no callback of
    // this step destroyed; pairs of those stay open until the next step's ends.
    for (int i = 0; i < w->tcount; i++) {
        uint64_t key = w->tpairs[i].key;
        const wr_rec *a = &w->recs[key_a(key)], *b = &w->recs[key_b(key)];
        if (destroyed_in_step(w, a) || destroyed_in_step(w, b))
            continue;
        if (map_find(&w->open, key) == NULL) {
            wr_fail(w, "pair {%u, %u} - {%u, %u} touches but %s", a->id.index, a->id.generation, b->id.index,
                    b->id.generation, w->tpairs[i].was_open ? "was ended" : "no begin was reported");
            print_pair(w, key);
        } else if (w->tpairs[i].was_open && !w->opt.no_stay && map_find(&w->stayed, key) == NULL) {
            wr_fail(w, "pair {%u, %u} - {%u, %u} stays touching but no stay was reported", a->id.index,
                    a->id.generation, b->id.index, b->id.generation);
            print_pair(w, key);
        }
    }
    for (size_t i = 0; i < w->open.cap; i++) {
        uint64_t key = w->open.keys[i];
        if (key >= MAP_TOMB)
            continue;
        const wr_rec *a = &w->recs[key_a(key)], *b = &w->recs[key_b(key)];
        if (!a->live_at_step || !b->live_at_step) {
            wr_fail(w, "pair {%u, %u} - {%u, %u} of a body destroyed before this step was not ended in its ends",
                    a->id.index, a->id.generation, b->id.index, b->id.generation);
            print_pair(w, key);
        } else if (destroyed_in_step(w, a) || destroyed_in_step(w, b)) {
            continue; // ended in the next step
        } else if (map_find(&w->expect, key) == NULL) {
            wr_fail(w, "pair {%u, %u} - {%u, %u} no longer touches but no end was reported", a->id.index,
                    a->id.generation, b->id.index, b->id.generation);
            print_pair(w, key);
        }
    }
    // Stats of this step.
    cw_world_stats st = cw_world_get_stats(w->world);
    if (st.touching_pairs != w->tcount)
        wr_fail(w, "stats: touching_pairs %d, expected %d", st.touching_pairs, w->tcount);
    if (w->step_destroys == 0 && w->step_creates == 0) {
        int statics = 0;
        for (int k = 0; k < w->live_count; k++)
            statics += w->recs[w->live[k]].is_static;
        if (st.bodies != w->live_count || st.static_bodies != statics)
            wr_fail(w, "stats: %d bodies, %d static; expected %d, %d", st.bodies, st.static_bodies, w->live_count,
                    statics);
    }
    if (w->step_destroys == 0 &&
        (st.end_events != delivered[WR_END] || st.begin_events != delivered[WR_BEGIN] ||
         st.stay_events != delivered[WR_STAY]))
        wr_fail(w, "stats: %d ends, %d begins, %d stays; delivered %d, %d, %d", st.end_events, st.begin_events,
                st.stay_events, delivered[WR_END], delivered[WR_BEGIN], delivered[WR_STAY]);
    if (w->opt.cell_size > 0 ? st.cell_size != w->opt.cell_size : !(st.cell_size > 0 && isfinite(st.cell_size)))
        wr_fail(w, "stats: cell_size %.9g (world made with %.9g)", (double)st.cell_size, (double)w->opt.cell_size);
    if (st.bodies < 0 || st.moved_bodies < 0 || st.large_bodies < 0 || st.candidate_pairs < 0 ||
        st.narrow_tests < 0 || st.narrow_tests > st.candidate_pairs ||
        !(st.broad_ms >= 0) || !(st.narrow_ms >= 0) || !(st.events_ms >= 0))
        wr_fail(w, "stats look wrong: moved %d large %d candidates %d narrow %d, times %g %g %g", st.moved_bodies,
                st.large_bodies, st.candidate_pairs, st.narrow_tests, st.broad_ms, st.narrow_ms, st.events_ms);
}
