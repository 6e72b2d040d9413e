// What gameplay code asks between steps, checked after every step of the reference world (see
// world_ref.h): each live body's cw_body_touching() is the expected touching set's partners that
// are still alive, in ascending index order, with cw_overlap()'s manifold when stays keep one;
// cw_pair_touching() agrees on pairs of live bodies; cw_world_events() holds the very contacts the
// callbacks got, in their order.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world_ref_internal.h"

static int by_slot(const void *x, const void *y)
{
    const wr_rec *const *a = x, *const *b = y;
    return ((*a)->id.index > (*b)->id.index) - ((*a)->id.index < (*b)->id.index);
}

static bool same_manifold(const cw_manifold *a, const cw_manifold *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

// The manifold the world keeps for the pair, seen from `from` toward `to`: cw_overlap() of the lower
// slot against the higher as the step began, the normal turned round when `from` is the higher.
static cw_manifold kept_manifold(const wr_rec *from, const wr_rec *to)
{
    bool lower = from->id.index < to->id.index;
    const wr_rec *a = lower ? from : to, *b = lower ? to : from;
    cw_manifold m;
    memset(&m, 0, sizeof m);
    cw_overlap(&a->shape_step, &a->transform_step, &b->shape_step, &b->transform_step, &m);
    if (!lower)
        m.normal = (cw_vec2){-m.normal.x, -m.normal.y};
    return m;
}

static void check_body(wr_world *w, int h, const wr_rec **partners, int expected, cw_touch *got)
{
    const wr_rec *r = &w->recs[h];
    cw_clear_error();
    int n = cw_body_touching(w->world, r->id, got, expected);
    int sized = cw_body_touching(w->world, r->id, NULL, 0);
    if (n != expected || sized != expected) {
        wr_fail(w, "cw_body_touching of {%u, %u} gives %d (%d when sizing), expected %d: %s", r->id.index,
                r->id.generation, n, sized, expected, cw_last_error());
        wr_print_body(w, h);
        return;
    }
    bool manifolds = !w->opt.no_manifolds && !w->opt.no_stay && !w->opt.skip_manifold_equal;
    for (int k = 0; k < n; k++) {
        const wr_rec *p = partners[k];
        if (got[k].body.index != p->id.index || got[k].body.generation != p->id.generation || got[k].user_data != p->user) {
            wr_fail(w, "cw_body_touching of {%u, %u}: entry %d is {%u, %u} (user %p), expected {%u, %u} (user %p)",
                    r->id.index, r->id.generation, k, got[k].body.index, got[k].body.generation, got[k].user_data,
                    p->id.index, p->id.generation, p->user);
            return;
        }
        cw_manifold want = kept_manifold(r, p);
        if (manifolds && !same_manifold(&got[k].manifold, &want)) {
            wr_fail(w, "cw_body_touching of {%u, %u}: the manifold toward {%u, %u} is not cw_overlap's", r->id.index,
                    r->id.generation, p->id.index, p->id.generation);
            return;
        }
    }
    if (n > 1) { // a buffer too small takes the first ones
        cw_touch first;
        if (cw_body_touching(w->world, r->id, &first, 1) != n || first.body.index != got[0].body.index)
            wr_fail(w, "cw_body_touching of {%u, %u} with room for one does not give the first", r->id.index,
                    r->id.generation);
    }
}

void wr_check_touching(wr_world *w)
{
    // Each body's expected partners: the expected set's pairs, both bodies still alive.
    int *count = calloc((size_t)w->rec_count + 1, sizeof *count);
    const wr_rec **lists = calloc((size_t)w->tcount * 2 + 1, sizeof *lists);
    int *start = calloc((size_t)w->rec_count + 1, sizeof *start), *fill = calloc((size_t)w->rec_count + 1, sizeof *fill);
    cw_touch *got = malloc(sizeof *got * ((size_t)w->tcount + 1));
    if (!count || !lists || !start || !fill || !got)
        abort();
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < w->tcount; i++) {
            int ha = key_a(w->tpairs[i].key), hb = key_b(w->tpairs[i].key);
            if (!w->recs[ha].live || !w->recs[hb].live || w->recs[ha].disabled || w->recs[hb].disabled)
                continue; // destroyed or switched off since the step: left out at once
            if (pass == 0) {
                count[ha]++, count[hb]++;
            } else {
                lists[start[ha] + fill[ha]++] = &w->recs[hb];
                lists[start[hb] + fill[hb]++] = &w->recs[ha];
            }
        }
        for (int h = 0, sum = 0; pass == 0 && h < w->rec_count; h++)
            start[h] = sum, sum += count[h];
    }
    for (int k = 0; k < w->live_count && w->printed <= WR_MAX_PRINTED; k++) {
        int h = w->live[k];
        qsort(lists + start[h], (size_t)count[h], sizeof *lists, by_slot);
        check_body(w, h, lists + start[h], count[h], got);
    }
    // Pairs of live bodies, touching or not.
    for (int k = 0; k + 1 < w->live_count && k < 40; k++) {
        const wr_rec *a = &w->recs[w->live[k]], *b = &w->recs[w->live[(k * 7 + w->steps) % w->live_count]];
        if (a == b)
            continue;
        bool want = map_find(&w->expect, canon_key(w, w->live[k], w->live[(k * 7 + w->steps) % w->live_count])) != NULL &&
                    !a->disabled && !b->disabled;
        if (cw_pair_touching(w->world, a->id, b->id) != want || cw_pair_touching(w->world, b->id, a->id) != want)
            wr_fail(w, "cw_pair_touching({%u, %u}, {%u, %u}) is not %d", a->id.index, a->id.generation, b->id.index,
                    b->id.generation, want);
    }
    free(count), free(lists), free(start), free(fill), free(got);
}

void wr_check_event_arrays(wr_world *w)
{
    cw_events ev = cw_world_events(w->world);
    const cw_contact *arrays[3] = {ev.ends, ev.begins, ev.stays};
    const int counts[3] = {ev.end_count, ev.begin_count, ev.stay_count};
    int seen[3] = {0, 0, 0};
    for (int k = 0; k < w->log_count; k++) {
        const wr_event *e = &w->log[k];
        int kind = e->phase; // WR_END 0, WR_BEGIN 1, WR_STAY 2: the arrays' order
        int at = seen[kind]++;
        if (at >= counts[kind] || memcmp(&arrays[kind][at], &e->contact, sizeof e->contact) != 0) {
            wr_fail(w, "cw_world_events: event %d of kind %d (callback %d) differs from the callback's", at, kind, k);
            return;
        }
    }
    for (int kind = 0; kind < 3; kind++)
        if (seen[kind] != counts[kind])
            wr_fail(w, "cw_world_events: %d events of kind %d, the callbacks got %d", counts[kind], kind, seen[kind]);
}
