// A moved body is the body created there, and a list of moves is those moves made one at a time.
// cw_body_set_transform() takes a short path (no shape
// checks; a box keeps only its SAT form and AABB; the rotation's cosine and sine are kept when the
// rotation is the same float; the rounding check is skipped for moderate placements), so every
// move is compared with a fresh computation from the shape and transform: the AABB byte for byte
// (cw_shape_aabb) and the contact with a probe after a step (cw_overlap). The transforms straddle
// the bounds of the moderate placement (positions near 2^16, pivots and box sides near 2^14,
// scales near 2^-4 and 2^4) and go far beyond them. cw_world_set_transforms() is compared with the
// same moves made one call at a time, in random worlds, byte for byte (every AABB, transform and
// event), on one worker and several; and each kind of misuse leaves the world as it was.
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "counting.h"
#include "expect_error.h"
#include "gen.h"
#include "hooks.h"
#include "suites.h"

// A value near a bound of the moderate placement, or far beyond, or ordinary; random sign.
static float edge_value(gen_rng *r, float ordinary)
{
    static const float edges[] = {65535.99f, 65536.0f, 65536.01f, 16383.999f, 16384.0f, 16384.002f, 1e7f, 3e30f};
    float v = gen_chance(r, 0.6) ? ordinary : edges[gen_int(r, 0, (int)(sizeof edges / sizeof edges[0]) - 1)];
    return gen_chance(r, 0.5) ? v : -v;
}

static float edge_scale(gen_rng *r, float ordinary)
{
    static const float edges[] = {0.0624999f, 0.0625f, 0.0625001f, 15.999999f, 16.0f, 16.000002f, 1e-3f, 300.0f};
    float v = gen_chance(r, 0.7) ? ordinary : edges[gen_int(r, 0, (int)(sizeof edges / sizeof edges[0]) - 1)];
    return gen_chance(r, 0.1) ? -v : v;
}

// The next transform of a moving body: a random one with edge values mixed in; the rotation kept
// half the time (the path that reuses its cosine and sine).
static cw_transform next_transform(gen_rng *r, const gen_shape *s, const cw_transform *previous, double extent)
{
    cw_transform t;
    gen_random_transform(r, s, &t);
    t.position = (cw_vec2){(float)gen_range(r, -extent, extent), (float)gen_range(r, -extent, extent)};
    if (gen_chance(r, 0.3))
        t.position = (cw_vec2){edge_value(r, t.position.x), edge_value(r, t.position.y)};
    if (gen_chance(r, 0.2))
        t.origin = (cw_vec2){edge_value(r, t.origin.x), edge_value(r, t.origin.y)};
    if (gen_chance(r, 0.2))
        t.scale = (cw_vec2){edge_scale(r, t.scale.x), edge_scale(r, t.scale.y)};
    if (gen_chance(r, 0.5))
        t.rotation = previous->rotation;
    return t;
}

static void expect_same_aabb(cw_world *w, cw_body_id id, const cw_shape *s, const cw_transform *t, uint64_t seed)
{
    cw_aabb got, want;
    assert_true(cw_body_aabb(w, id, &got));
    assert_true(cw_shape_aabb(s, t, &want));
    if (memcmp(&got, &want, sizeof got) != 0) {
        printf("  seed %#llx: moved body's AABB (%a, %a)-(%a, %a), created there (%a, %a)-(%a, %a)\n",
               (unsigned long long)seed, (double)got.min.x, (double)got.min.y, (double)got.max.x, (double)got.max.y,
               (double)want.min.x, (double)want.min.y, (double)want.max.x, (double)want.max.y);
        fail_msg("a moved body's AABB differs from the same body created there");
    }
}

static void random_shape(gen_rng *r, gen_shape *s)
{
    bool box = !gen_chance(r, 0.5);
    assert_true(gen_random_shape(r, s, box));
    if (box && gen_chance(r, 0.15)) { // sides at the moderate bound
        float side = gen_chance(r, 0.5) ? 16383.999f : 16384.0f;
        gen_box_shape(s, gen_chance(r, 0.5) ? side : s->box_w, side);
    }
}

// One case: a body and a probe; the body moves several times; after each move its AABB is compared
// and, after a step, its contact with the probe.
static void run_case(uint64_t seed)
{
    gen_rng r = gen_seed(seed);
    gen_shape body_shape, probe_shape;
    random_shape(&r, &body_shape);
    random_shape(&r, &probe_shape);
    cw_transform tb, tp;
    gen_random_transform(&r, &body_shape, &tb);
    gen_random_transform(&r, &probe_shape, &tp);
    cw_world_def wd = cw_default_world_def();
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_body_def def = cw_default_body_def();
    def.shape = body_shape.shape;
    def.transform = tb;
    cw_body_id body = cw_body_create(w, &def);
    def.shape = probe_shape.shape;
    def.transform = tp;
    cw_body_id probe = cw_body_create(w, &def);
    assert_false(cw_body_id_is_null(body) || cw_body_id_is_null(probe));
    for (int move = 0; move < 6; move++) {
        tb = next_transform(&r, &body_shape, &tb, 40);
        assert_true(cw_body_set_transform(w, body, &tb));
        expect_same_aabb(w, body, &body_shape.shape, &tb, seed);
        cw_world_step(w);
        bool want = cw_overlap(&body_shape.shape, &tb, &probe_shape.shape, &tp, NULL);
        if (cw_pair_touching(w, body, probe) != want) {
            printf("  seed %#llx, move %d: the world says %s, cw_overlap says %s\n", (unsigned long long)seed, move,
                   want ? "apart" : "touching", want ? "touching" : "apart");
            fail_msg("a moved body's contact differs from the same body created there");
        }
    }
    cw_world_destroy(w);
    gen_shape_free(&body_shape);
    gen_shape_free(&probe_shape);
}

static void test_moved_is_created(void **state)
{
    (void)state;
    int cases = gen_scaled(1500);
    for (int k = 0; k < cases; k++)
        run_case(0x6d6f7665ull << 32 | (uint64_t)k);
}

// A bad transform on the short path fails with the error and leaves the body as it was, box or mask.
static void test_bad_moves_change_nothing(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0x6261646dull);
    gen_shape shapes[2];
    gen_random_box(&r, &shapes[0]);
    assert_true(gen_random_mask(&r, &shapes[1]));
    const float inf = INFINITY, nan = NAN;
    for (int k = 0; k < 2; k++) {
        cw_world_def wd = cw_default_world_def();
        cw_world *w = cw_world_create(&wd);
        assert_non_null(w);
        cw_body_def def = cw_default_body_def();
        def.shape = shapes[k].shape;
        def.transform.rotation = 0.5f;
        cw_body_id id = cw_body_create(w, &def);
        assert_false(cw_body_id_is_null(id));
        cw_aabb before;
        assert_true(cw_body_aabb(w, id, &before));
        struct {
            float *field;
            float value;
            const char *message;
        } bad[] = {
            {&def.transform.rotation, nan, "The transform has a non-finite position, rotation, scale or origin."},
            {&def.transform.rotation, inf, "The transform has a non-finite position, rotation, scale or origin."},
            {&def.transform.position.x, nan, "The transform has a non-finite position, rotation, scale or origin."},
            {&def.transform.origin.y, -inf, "The transform has a non-finite position, rotation, scale or origin."},
            {&def.transform.scale.x, inf, "The transform has a non-finite position, rotation, scale or origin."},
            {&def.transform.scale.y, 0.0f, "The transform has a zero scale."},
            {&def.transform.scale.x, -0.0f, "The transform has a zero scale."},
        };
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            cw_transform good = def.transform;
            *bad[b].field = bad[b].value;
            cw_clear_error();
            assert_false(cw_body_set_transform(w, id, &def.transform));
            assert_string_equal(cw_last_error(), bad[b].message);
            def.transform = good;
            cw_transform now = cw_body_transform(w, id);
            assert_memory_equal(&now, &good, sizeof now);
            cw_aabb after;
            assert_true(cw_body_aabb(w, id, &after));
            assert_memory_equal(&after, &before, sizeof after);
        }
        cw_world_destroy(w);
    }
    gen_shape_free(&shapes[0]);
    gen_shape_free(&shapes[1]);
}

// --- Lists of moves ---

// Every event a world delivered, in order, with its phase (0 end, 1 begin, 2 stay).
typedef struct event_record {
    int count, capacity;
    cw_world *world; // for callbacks that change it
    struct recorded {
        int phase;
        cw_contact contact;
    } *items;
} event_record;

static void record(event_record *log, int phase, const cw_contact *c)
{
    if (log->count == log->capacity) {
        log->capacity = log->capacity ? 2 * log->capacity : 256;
        log->items = realloc(log->items, (size_t)log->capacity * sizeof *log->items);
        assert_non_null(log->items);
    }
    log->items[log->count].phase = phase;
    memcpy(&log->items[log->count++].contact, c, sizeof *c);
}

static void record_begin(const cw_contact *c, void *log) { record(log, 1, c); }
static void record_stay(const cw_contact *c, void *log) { record(log, 2, c); }
static void record_end(const cw_contact *c, void *log) { record(log, 0, c); }

// A world recording every event (stays only if `stays`) into `log`; manifolds only in small worlds.
static cw_world *recording_world(event_record *log, int workers, bool stays, int bodies)
{
    cw_world_def def = cw_default_world_def();
    def.manifolds = bodies < 1000; // a mask pair's costs tens of tests: small worlds check them
    def.on_begin = record_begin, def.on_stay = stays ? record_stay : NULL, def.on_end = record_end, def.context = log;
    def.worker_count = workers;
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    return w;
}

// Two worlds made alike: `one` moved one call at a time, `listed` by lists.
typedef struct list_case {
    uint64_t seed;
    int n;
    gen_shape *shapes;
    cw_transform *now;
    cw_body_id *ids; // the same in both worlds
    event_record one_log, listed_log;
    cw_world *one, *listed;
} list_case;

static void make_list_case(list_case *c, gen_rng *r, int n, int workers)
{
    c->n = n;
    c->shapes = calloc((size_t)n, sizeof *c->shapes);
    c->now = calloc((size_t)n, sizeof *c->now);
    c->ids = calloc((size_t)n, sizeof *c->ids);
    assert_true(c->shapes && c->now && c->ids);
    c->one = recording_world(&c->one_log, 1, true, n);
    c->listed = recording_world(&c->listed_log, workers, true, n);
    cw__test_share_moves_from(c->listed, 300); // lists of 150 masks or more on the workers
    const double extent = 6 * sqrt((double)n);
    for (int i = 0; i < n; i++) {
        random_shape(r, &c->shapes[i]);
        gen_random_transform(r, &c->shapes[i], &c->now[i]);
        c->now[i] = next_transform(r, &c->shapes[i], &c->now[i], extent);
        cw_body_def def = cw_default_body_def();
        def.shape = c->shapes[i].shape;
        def.transform = c->now[i];
        def.swept = n < 100 && gen_chance(r, 0.15); // begins along the motion: fractions compared
        def.is_static = gen_chance(r, 0.1); // moved all the same
        c->ids[i] = cw_body_create(c->one, &def);
        cw_body_id same = cw_body_create(c->listed, &def);
        assert_memory_equal(&same, &c->ids[i], sizeof same);
    }
}

static void free_list_case(list_case *c)
{
    cw_world_destroy(c->one);
    cw_world_destroy(c->listed);
    for (int i = 0; i < c->n; i++)
        gen_shape_free(&c->shapes[i]);
    free(c->shapes), free(c->now), free(c->ids);
    free(c->one_log.items), free(c->listed_log.items);
}

static void expect_same_worlds(const list_case *c, int frame)
{
    for (int i = 0; i < c->n; i++) {
        cw_aabb a, b;
        assert_true(cw_body_aabb(c->one, c->ids[i], &a));
        assert_true(cw_body_aabb(c->listed, c->ids[i], &b));
        cw_transform ta = cw_body_transform(c->one, c->ids[i]), tb = cw_body_transform(c->listed, c->ids[i]);
        if (memcmp(&a, &b, sizeof a) != 0 || memcmp(&ta, &tb, sizeof ta) != 0) {
            printf("  seed %#llx, frame %d, body %d: listed moves differ from single moves\n",
                   (unsigned long long)c->seed, frame, i);
            fail_msg("a body moved by a list differs from the same body moved by cw_body_set_transform");
        }
    }
    bool same = c->one_log.count == c->listed_log.count;
    for (int k = 0; same && k < c->one_log.count; k++) // each field: a record's padding is not compared
        same = c->one_log.items[k].phase == c->listed_log.items[k].phase &&
               memcmp(&c->one_log.items[k].contact, &c->listed_log.items[k].contact, sizeof(cw_contact)) == 0;
    if (!same) {
        printf("  seed %#llx, frame %d: %d events one at a time, %d by lists (or different bytes)\n",
               (unsigned long long)c->seed, frame, c->one_log.count, c->listed_log.count);
        for (int k = 0; k < c->one_log.count && k < c->listed_log.count; k++) {
            const cw_contact *x = &c->one_log.items[k].contact, *y = &c->listed_log.items[k].contact;
            printf("  %d: phase %d/%d, %u-%u / %u-%u, point (%a, %a) / (%a, %a), depth %a / %a\n", k,
                   c->one_log.items[k].phase, c->listed_log.items[k].phase, x->a.index, x->b.index, y->a.index,
                   y->b.index, (double)x->manifold.point.x, (double)x->manifold.point.y, (double)y->manifold.point.x,
                   (double)y->manifold.point.y, (double)x->manifold.depth, (double)y->manifold.depth);
        }
        fail_msg("a list of moves gave different events from the same moves one at a time");
    }
}

// One frame: a random part of the bodies, in random order, each with its next transform; some
// moved one at a time first in both worlds (already dirty when the list comes).
static void move_frame(list_case *c, gen_rng *r, int *order, cw_transform *list)
{
    const double extent = 6 * sqrt((double)c->n);
    for (int i = 0; i < c->n; i++)
        order[i] = i;
    for (int i = c->n - 1; i > 0; i--) {
        int j = gen_int(r, 0, i), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    int count = gen_chance(r, 0.3) ? c->n : gen_int(r, 0, c->n);
    cw_body_id *ids = malloc(((size_t)count + 1) * sizeof *ids);
    assert_non_null(ids);
    for (int k = 0; k < count; k++) {
        const int i = order[k];
        if (gen_chance(r, 0.1)) {
            c->now[i] = next_transform(r, &c->shapes[i], &c->now[i], extent);
            assert_true(cw_body_set_transform(c->one, c->ids[i], &c->now[i]));
            assert_true(cw_body_set_transform(c->listed, c->ids[i], &c->now[i]));
        }
        c->now[i] = next_transform(r, &c->shapes[i], &c->now[i], extent);
        list[k] = c->now[i], ids[k] = c->ids[i];
        assert_true(cw_body_set_transform(c->one, c->ids[i], &list[k]));
    }
    cw_clear_error();
    assert_true(cw_world_set_transforms(c->listed, ids, list, count));
    expect_no_error();
    free(ids);
}

static void run_list_case(uint64_t seed, int n, int workers, int frames)
{
    gen_rng r = gen_seed(seed);
    list_case c = {.seed = seed};
    make_list_case(&c, &r, n, workers);
    int *order = malloc((size_t)n * sizeof *order);
    cw_transform *list = malloc((size_t)n * sizeof *list);
    assert_true(order && list);
    for (int frame = 0; frame < frames; frame++) {
        c.one_log.count = c.listed_log.count = 0;
        move_frame(&c, &r, order, list);
        expect_same_worlds(&c, frame); // before the step: the AABBs as moved
        cw_world_step(c.one);
        cw_world_step(c.listed);
        expect_same_worlds(&c, frame);
    }
    free(order), free(list);
    free_list_case(&c);
}

// Worlds on one worker and several, their lists short (placed on the calling thread) and long
// enough for the workers (see cw__test_share_moves_from): the same bytes as one call at a time,
// whatever the workers.
static void test_list_is_single_moves(void **state)
{
    (void)state;
    const int small = gen_scaled(120);
    for (int k = 0; k < small; k++)
        run_list_case(0x6c697374ull << 32 | (uint64_t)k, 2 + k % 60, 1 + k % 3, 6);
    const int large = gen_scaled(12);
    for (int k = 0; k < large; k++)
        run_list_case(0x6c697374ull << 32 | (uint64_t)(1000 + k), 200 + 150 * k, 1 + k % 3, 4);
}

// Every body's transform and AABB, to check that a failed call changed nothing.
static void snapshot(cw_world *w, const cw_body_id *ids, int n, cw_transform *t, cw_aabb *aabb)
{
    for (int i = 0; i < n; i++) {
        t[i] = cw_body_transform(w, ids[i]);
        assert_true(cw_body_aabb(w, ids[i], &aabb[i]));
    }
}

static void expect_snapshot(cw_world *w, const cw_body_id *ids, int n, const cw_transform *t, const cw_aabb *aabb)
{
    for (int i = 0; i < n; i++) {
        cw_transform now = cw_body_transform(w, ids[i]);
        cw_aabb box;
        assert_true(cw_body_aabb(w, ids[i], &box));
        assert_memory_equal(&now, &t[i], sizeof now);
        assert_memory_equal(&box, &aabb[i], sizeof box);
    }
}

enum { MISUSE_BODIES = 6 };

// Body i's place far from the others and from the row (no pair touches there).
static cw_transform far_away(int i)
{
    cw_transform t = cw_default_transform();
    t.position = (cw_vec2){1000.0f + 10.0f * (float)i, 1000.0f};
    t.rotation = 0.25f;
    return t;
}

typedef struct misuse_world {
    event_record log;
    cw_world *w;
    cw_body_id ids[MISUSE_BODIES];
    cw_transform t[MISUSE_BODIES];
    cw_aabb aabb[MISUSE_BODIES];
} misuse_world;

// Six unit boxes in a row, each overlapping the next, stepped once (their begins delivered).
static void make_misuse_world(misuse_world *m)
{
    memset(m, 0, sizeof *m);
    m->w = recording_world(&m->log, 1, false, MISUSE_BODIES);
    for (int i = 0; i < MISUSE_BODIES; i++) {
        cw_body_def def = cw_default_body_def();
        def.shape = cw_shape_box(1, 1);
        def.transform.position = (cw_vec2){0.75f * (float)i, 0};
        m->ids[i] = cw_body_create(m->w, &def);
    }
    cw_world_step(m->w);
    assert_int_equal(m->log.count, MISUSE_BODIES - 1);
    m->log.count = 0;
    snapshot(m->w, m->ids, MISUSE_BODIES, m->t, m->aabb);
}

// The failed call left the world as it was: the same transforms and AABBs, no body listed (the
// same bodies can be listed again) and none marked moved (the next step moves none and has no events).
static void expect_unchanged(misuse_world *m)
{
    expect_snapshot(m->w, m->ids, MISUSE_BODIES, m->t, m->aabb);
    cw_world_step(m->w);
    assert_int_equal(m->log.count, 0);
    assert_int_equal(cw_world_get_stats(m->w).moved_bodies, 0);
    assert_true(cw_world_set_transforms(m->w, m->ids, m->t, MISUSE_BODIES));
    cw_world_step(m->w);
    assert_int_equal(m->log.count, 0);
}

static void test_list_misuse(void **state)
{
    (void)state;
    misuse_world m;
    make_misuse_world(&m);
    cw_transform moved[MISUSE_BODIES];
    for (int i = 0; i < MISUSE_BODIES; i++)
        moved[i] = far_away(i);

    assert_false(cw_world_set_transforms(NULL, m.ids, moved, MISUSE_BODIES));
    assert_string_equal(cw_last_error(), "The world is NULL.");
    assert_false(cw_world_set_transforms(m.w, m.ids, moved, -1));
    assert_string_equal(cw_last_error(), "The count must be 0 or more.");
    assert_false(cw_world_set_transforms(m.w, NULL, moved, 1));
    assert_string_equal(cw_last_error(), "The body list is NULL.");
    assert_false(cw_world_set_transforms(m.w, m.ids, NULL, 1));
    assert_string_equal(cw_last_error(), "The transform list is NULL.");
    expect_unchanged(&m);

    cw_clear_error();
    assert_true(cw_world_set_transforms(m.w, NULL, NULL, 0));
    expect_no_error();
    expect_unchanged(&m);

    cw_body_id ids[MISUSE_BODIES];
    memcpy(ids, m.ids, sizeof ids);
    ids[3] = (cw_body_id){0, 0};
    assert_false(cw_world_set_transforms(m.w, ids, moved, MISUSE_BODIES));
    assert_string_equal(cw_last_error(),
                        "Entry 3 of the list names no live body (its id is stale or null); nothing was moved.");
    expect_unchanged(&m);

    memcpy(ids, m.ids, sizeof ids);
    ids[4].generation++; // stale
    assert_false(cw_world_set_transforms(m.w, ids, moved, MISUSE_BODIES));
    assert_string_equal(cw_last_error(),
                        "Entry 4 of the list names no live body (its id is stale or null); nothing was moved.");
    expect_unchanged(&m);

    memcpy(ids, m.ids, sizeof ids);
    ids[5] = ids[1];
    assert_false(cw_world_set_transforms(m.w, ids, moved, MISUSE_BODIES));
    assert_string_equal(cw_last_error(), "Entry 5 of the list names a body an earlier entry names (list each body "
                                         "once); nothing was moved.");
    expect_unchanged(&m);

    cw_transform bad[MISUSE_BODIES];
    memcpy(bad, moved, sizeof bad);
    bad[2].rotation = NAN;
    assert_false(cw_world_set_transforms(m.w, m.ids, bad, MISUSE_BODIES));
    assert_string_equal(cw_last_error(),
                        "Entry 2 of the list has a non-finite position, rotation, scale or origin; nothing was moved.");
    expect_unchanged(&m);

    memcpy(bad, moved, sizeof bad);
    bad[1].position.y = INFINITY;
    assert_false(cw_world_set_transforms(m.w, m.ids, bad, MISUSE_BODIES));
    assert_string_equal(cw_last_error(),
                        "Entry 1 of the list has a non-finite position, rotation, scale or origin; nothing was moved.");
    expect_unchanged(&m);

    memcpy(bad, moved, sizeof bad);
    bad[5].scale.x = -0.0f;
    assert_false(cw_world_set_transforms(m.w, m.ids, bad, MISUSE_BODIES));
    assert_string_equal(cw_last_error(), "Entry 5 of the list has a zero scale; nothing was moved.");
    expect_unchanged(&m);

    cw_world_destroy(m.w);
    free(m.log.items);
}

// A body moved one at a time before a list that fails keeps that move: only the list is undone.
static void test_failed_list_keeps_earlier_moves(void **state)
{
    (void)state;
    misuse_world m;
    make_misuse_world(&m);
    cw_transform away = far_away(0);
    assert_true(cw_body_set_transform(m.w, m.ids[0], &away)); // ends its pair with body 1
    cw_transform list[2] = {far_away(1), m.t[2]};
    list[1].scale.y = 0;
    assert_false(cw_world_set_transforms(m.w, &m.ids[1], list, 2)); // would end two more
    cw_world_step(m.w);
    assert_int_equal(m.log.count, 1);
    assert_int_equal(m.log.items[0].phase, 0);
    assert_int_equal(m.log.items[0].contact.a.index, m.ids[0].index);
    assert_int_equal(m.log.items[0].contact.b.index, m.ids[1].index);
    cw_world_destroy(m.w);
    free(m.log.items);
}

static bool move_from_query(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)user_data, (void)manifold;
    misuse_world *m = context;
    cw_transform t = far_away(0);
    assert_false(cw_world_set_transforms(m->w, &body, &t, 1));
    expect_error("query callback");
    return false;
}

// As every change: refused from a query callback, allowed from a step's callback (for the next
// step), and never allocating.
static void test_list_in_callbacks(void **state)
{
    (void)state;
    misuse_world m;
    make_misuse_world(&m);
    assert_true(cw_world_query_point(m.w, (cw_vec2){0.5f, 0.5f}, cw_default_query_filter(), move_from_query, &m));
    expect_unchanged(&m);
    cw_world_destroy(m.w);
    free(m.log.items);

    counter c;
    counter_install(&c);
    make_misuse_world(&m);
    const long allocs = c.allocs;
    cw_transform far[MISUSE_BODIES];
    for (int i = 0; i < MISUSE_BODIES; i++)
        far[i] = far_away(i);
    assert_true(cw_world_set_transforms(m.w, m.ids, far, MISUSE_BODIES));
    assert_int_equal(c.allocs, allocs);
    cw_world_step(m.w);
    assert_int_equal(m.log.count, MISUSE_BODIES - 1); // every pair ends
    cw_world_destroy(m.w);
    free(m.log.items);
    counter_expect_no_leak(&c);
}

// A begin moves both bodies of the pair apart by a list: allowed from the step's callback, the
// pair ends in the next step.
static void part_on_begin(const cw_contact *c, void *context)
{
    event_record *log = context;
    record(log, 1, c);
    const cw_body_id ids[2] = {c->a, c->b};
    const cw_transform apart[2] = {far_away(0), far_away(1)};
    assert_true(cw_world_set_transforms(log->world, ids, apart, 2));
}

static void test_list_from_step_callback(void **state)
{
    (void)state;
    event_record log = {0};
    cw_world_def def = cw_default_world_def();
    def.on_begin = part_on_begin, def.on_end = record_end, def.context = &log;
    cw_world *w = cw_world_create(&def);
    assert_non_null(w);
    log.world = w;
    cw_body_def body = cw_default_body_def();
    body.shape = cw_shape_box(1, 1);
    cw_body_id a = cw_body_create(w, &body);
    body.transform.position.x = 0.5f;
    cw_body_id b = cw_body_create(w, &body);
    cw_world_step(w);
    assert_int_equal(log.count, 1);
    cw_transform ta = cw_body_transform(w, a), tb = cw_body_transform(w, b), want_a = far_away(0), want_b = far_away(1);
    assert_memory_equal(&ta, &want_a, sizeof ta);
    assert_memory_equal(&tb, &want_b, sizeof tb);
    cw_world_step(w);
    assert_int_equal(log.count, 2);
    assert_int_equal(log.items[1].phase, 0);
    cw_world_destroy(w);
    free(log.items);
}

const struct CMUnitTest move_tests[MOVE_TEST_COUNT] = {
    cmocka_unit_test(test_moved_is_created),
    cmocka_unit_test(test_bad_moves_change_nothing),
    cmocka_unit_test(test_list_is_single_moves),
    cmocka_unit_test(test_list_misuse),
    cmocka_unit_test(test_failed_list_keeps_earlier_moves),
    cmocka_unit_test_teardown(test_list_in_callbacks, counter_restore_default),
    cmocka_unit_test(test_list_from_step_callback),
};
