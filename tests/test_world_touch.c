// What gameplay code asks between events, by hand: cw_body_touching() and cw_pair_touching() on a
// small scene (order, sizing, manifolds seen from the asking body, destroyed bodies left out, from
// inside callbacks), the event arrays against the callbacks, every case of Box2D's group rule,
// bodies switched off (out of the grid, of queries and of contacts; back without a sweep), and
// every kind of misuse. The random worlds (test_world_random.c) check the same calls against the
// brute-force reference after every step.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_log.h"
#include "expect_error.h"
#include "gen.h"
#include "suites.h"

// --- recording events (event_log.h) ---

static int count_phase(const event_log *log, int phase)
{
    int n = 0;
    for (int k = 0; k < log->n; k++)
        n += log->e[k].phase == phase;
    return n;
}

static cw_transform at(float x, float y)
{
    cw_transform t = cw_default_transform();
    t.position = (cw_vec2){x, y};
    return t;
}

static cw_body_id add_box_def(cw_world *world, float size, float x, float y, int32_t group, bool swept)
{
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box(size, size);
    def.transform = at(x, y);
    def.group = group;
    def.swept = swept;
    cw_body_id id = cw_body_create(world, &def);
    assert_false(cw_body_id_is_null(id));
    return id;
}

static cw_body_id add_box(cw_world *world, float size, float x, float y)
{
    return add_box_def(world, size, x, y, 0, false);
}

static bool same_id(cw_body_id a, cw_body_id b) { return a.index == b.index && a.generation == b.generation; }

// --- who touches whom ---

// A row of boxes: a touches b (to its right) and c (to its left), d is alone; b and c do not touch.
static void test_touching_by_hand(void **state)
{
    (void)state;
    cw_world_def def = cw_default_world_def();
    def.report_stays = true; // keeps the manifolds of stays, for cw_body_touching
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    cw_body_id a = add_box(world, 10, 0, 0), b = add_box(world, 10, 6, 0), c = add_box(world, 10, -7, 0);
    cw_body_id d = add_box(world, 10, 100, 0);
    cw_touch out[4];
    cw_clear_error();
    assert_int_equal(cw_body_touching(world, a, out, 4), 0); // before the first step: nothing yet
    cw_world_step(world);
    assert_int_equal(cw_body_touching(world, a, NULL, 0), 2);
    memset(out, 0x5a, sizeof out);
    assert_int_equal(cw_body_touching(world, a, out, 4), 2);
    assert_true(same_id(out[0].body, b) && same_id(out[1].body, c)); // ascending index
    // Normals point from the asking body toward the other; depths are the overlaps along x.
    assert_true(out[0].manifold.normal.x == 1 && out[0].manifold.normal.y == 0 && out[0].manifold.depth == 4);
    assert_true(out[1].manifold.normal.x == -1 && out[1].manifold.normal.y == 0 && out[1].manifold.depth == 3);
    assert_int_equal(cw_body_touching(world, b, out, 4), 1);
    assert_true(same_id(out[0].body, a) && out[0].manifold.normal.x == -1);
    assert_int_equal(cw_body_touching(world, c, out, 4), 1);
    assert_true(same_id(out[0].body, a) && out[0].manifold.normal.x == 1);
    assert_int_equal(cw_body_touching(world, d, out, 4), 0);
    // Too small a buffer gets the first ones, and the count of all.
    memset(out, 0, sizeof out);
    assert_int_equal(cw_body_touching(world, a, out, 1), 2);
    assert_true(same_id(out[0].body, b) && out[1].body.index == 0);
    assert_true(cw_pair_touching(world, a, b) && cw_pair_touching(world, b, a) && cw_pair_touching(world, c, a));
    assert_false(cw_pair_touching(world, b, c) || cw_pair_touching(world, a, d) || cw_pair_touching(world, a, a));
    assert_string_equal(cw_last_error(), "");
    // It answers for the last step: a move shows at the next one; a destroyed body is gone at once.
    assert_true(cw_body_set_transform(world, d, &(cw_transform){{5, 5}, 0, {1, 1}, {0, 0}}));
    assert_int_equal(cw_body_touching(world, d, out, 4), 0);
    cw_body_destroy(world, b);
    assert_int_equal(cw_body_touching(world, a, out, 4), 1);
    assert_true(same_id(out[0].body, c));
    cw_world_step(world);
    assert_int_equal(cw_body_touching(world, a, out, 4), 2);
    assert_true(same_id(out[0].body, c) && same_id(out[1].body, d));
    cw_world_destroy(world);
}

// Without stays kept (the default world), the list is the same with zeroed manifolds.
static void test_touching_without_manifolds(void **state)
{
    (void)state;
    cw_world *world = cw_world_create(&(cw_world_def){.manifolds = true, .worker_count = 1});
    assert_non_null(world);
    cw_body_id a = add_box(world, 10, 0, 0), b = add_box(world, 10, 6, 0);
    cw_world_step(world);
    cw_touch out[2];
    memset(out, 0x5a, sizeof out);
    assert_int_equal(cw_body_touching(world, a, out, 2), 1);
    assert_true(same_id(out[0].body, b));
    cw_manifold zero;
    memset(&zero, 0, sizeof zero);
    assert_memory_equal(&out[0].manifold, &zero, sizeof zero);
    cw_world_destroy(world);
}

// Inside a callback the calls answer for the step being reported.
static cw_world *callback_world;
static int callback_partners = -1;
static bool callback_pair;

static void ask_in_begin(const cw_contact *c, void *context)
{
    (void)context;
    cw_touch out[8];
    callback_partners = cw_body_touching(callback_world, c->a, out, 8);
    callback_pair = cw_pair_touching(callback_world, c->a, c->b);
}

static void test_touching_from_callbacks(void **state)
{
    (void)state;
    cw_world_def def = cw_default_world_def();
    def.on_begin = ask_in_begin;
    callback_world = cw_world_create(&def);
    assert_non_null(callback_world);
    add_box(callback_world, 10, 0, 0);
    add_box(callback_world, 10, 5, 0);
    add_box(callback_world, 10, 0, 5);
    cw_world_step(callback_world);
    assert_int_equal(callback_partners, 2);
    assert_true(callback_pair);
    cw_world_destroy(callback_world);
}

// --- event arrays ---

static void test_event_arrays_by_hand(void **state)
{
    (void)state;
    // No callbacks at all: the arrays still hold every begin and end; stays only when asked for.
    for (int stays = 0; stays < 2; stays++) {
        cw_world_def def = cw_default_world_def();
        def.report_stays = stays;
        cw_world *world = cw_world_create(&def);
        assert_non_null(world);
        cw_events ev = cw_world_events(world);
        assert_int_equal(ev.begin_count + ev.stay_count + ev.end_count, 0); // before the first step
        cw_body_id a = add_box(world, 10, 0, 0), b = add_box(world, 10, 6, 0);
        cw_world_step(world);
        ev = cw_world_events(world);
        assert_int_equal(ev.begin_count, 1);
        assert_int_equal(ev.stay_count + ev.end_count, 0);
        assert_true(same_id(ev.begins[0].a, a) && same_id(ev.begins[0].b, b));
        assert_true(ev.begins[0].fraction == 1 && ev.begins[0].manifold.depth == 4);
        cw_world_step(world);
        ev = cw_world_events(world);
        assert_int_equal(ev.begin_count + ev.end_count, 0);
        assert_int_equal(ev.stay_count, stays);
        if (stays)
            assert_true(same_id(ev.stays[0].a, a) && ev.stays[0].manifold.depth == 4);
        assert_true(cw_body_set_transform(world, b, &(cw_transform){{50, 0}, 0, {1, 1}, {0, 0}}));
        ev = cw_world_events(world); // body changes leave the arrays as they are until the next step
        assert_int_equal(ev.stay_count, stays);
        cw_world_step(world);
        ev = cw_world_events(world);
        assert_int_equal(ev.end_count, 1);
        assert_true(same_id(ev.ends[0].a, a) && same_id(ev.ends[0].b, b));
        assert_int_equal(cw_world_get_stats(world).end_events, 1);
        cw_world_destroy(world);
    }
    // Switched off: callbacks only.
    event_log log;
    cw_world_def def = cw_default_world_def();
    def.on_begin = on_begin, def.context = &log, def.event_arrays = false;
    memset(&log, 0, sizeof log);
    cw_world *world = cw_world_create(&def);
    add_box(world, 10, 0, 0), add_box(world, 10, 6, 0);
    cw_world_step(world);
    cw_events ev = cw_world_events(world);
    assert_int_equal(log.n, 1);
    assert_int_equal(ev.begin_count + ev.stay_count + ev.end_count, 0);
    assert_true(log.e[0].c.manifold.depth == 4);
    cw_world_destroy(world);
}

// The arrays hold what the callbacks got, in order, including a swept pair that began and ended
// within the step.
static void test_event_arrays_equal_callbacks(void **state)
{
    (void)state;
    event_log log;
    cw_world *world = logging_world(&log);
    cw_body_id wall = add_box(world, 10, 0, 0), bullet = add_box_def(world, 4, -30, 3, 0, true);
    add_box(world, 10, 5, 8); // stays with the wall, out of the bullet's way
    cw_world_step(world);
    for (int step = 0; step < 3; step++) {
        cw_transform t = cw_body_transform(world, bullet);
        t.position.x += 40;
        assert_true(cw_body_set_transform(world, bullet, &t));
        log.n = 0;
        cw_world_step(world);
        cw_events ev = cw_world_events(world);
        int seen[3] = {0, 0, 0};
        const cw_contact *arrays[3] = {ev.ends, ev.begins, ev.stays};
        for (int k = 0; k < log.n; k++) {
            int phase = log.e[k].phase;
            assert_memory_equal(&arrays[phase][seen[phase]++], &log.e[k].c, sizeof(cw_contact));
        }
        assert_int_equal(seen[0], ev.end_count);
        assert_int_equal(seen[1], ev.begin_count);
        assert_int_equal(seen[2], ev.stay_count);
        if (step == 0) // through the wall in one step
            assert_true(ev.begin_count == 1 && ev.end_count == 1 && same_id(ev.begins[0].a, wall) &&
                        ev.begins[0].fraction > 0 && ev.begins[0].fraction < 1);
    }
    cw_world_destroy(world);
}

// --- groups ---

// Every case of the rule, for a pair of overlapping boxes: the same nonzero group decides (never if
// negative, always if positive), else the categories do.
static void test_group_rule(void **state)
{
    (void)state;
    int cases = 0;
    for (int ga = -2; ga <= 2; ga++)
        for (int gb = -2; gb <= 2; gb++)
            for (int categories_pass = 0; categories_pass < 2; categories_pass++) {
                cw_world *world = cw_world_create(&(cw_world_def){.manifolds = false, .event_arrays = true, .worker_count = 1});
                cw_body_def def = cw_default_body_def();
                def.shape = cw_shape_box(10, 10);
                def.group = ga;
                def.category = 1, def.collides_with = categories_pass ? 2 : 4;
                cw_body_id a = cw_body_create(world, &def);
                def.group = gb;
                def.category = 2, def.collides_with = 1;
                def.transform.position.x = 5;
                cw_body_id b = cw_body_create(world, &def);
                cw_world_step(world);
                bool want = ga == gb && ga != 0 ? ga > 0 : categories_pass;
                assert_int_equal(cw_pair_touching(world, a, b), want);
                assert_int_equal(cw_world_events(world).begin_count, want);
                assert_int_equal(cw_body_group(world, a), ga);
                assert_int_equal(cw_body_group(world, b), gb);
                cw_world_destroy(world);
                cases++;
            }
    assert_int_equal(cases, 50);
}

// A ship and its bullets: a negative group keeps them apart while they hit everything else; a
// change of group ends or begins contacts at the next step, as a filter change.
static void test_group_changes(void **state)
{
    (void)state;
    event_log log;
    cw_world *world = logging_world(&log);
    cw_body_id ship = add_box_def(world, 10, 0, 0, -1, false), bullet = add_box_def(world, 2, 8.5f, 4, -1, true);
    cw_body_id rock = add_box_def(world, 10, 8, 0, 0, false);
    cw_world_step(world);
    assert_false(cw_pair_touching(world, ship, bullet));
    assert_true(cw_pair_touching(world, ship, rock) && cw_pair_touching(world, bullet, rock));
    assert_true(cw_body_set_group(world, bullet, 0));
    assert_false(cw_pair_touching(world, ship, bullet)); // until the next step
    log.n = 0;
    cw_world_step(world);
    assert_true(cw_pair_touching(world, ship, bullet));
    assert_int_equal(count_phase(&log, 1), 1);
    assert_true(same_id(log.e[0].c.a, ship) && same_id(log.e[0].c.b, bullet));
    assert_true(cw_body_set_group(world, ship, 3) && cw_body_set_group(world, bullet, 3) &&
                cw_body_set_filter(world, bullet, 1, 0)); // a positive group passes even a closed filter
    log.n = 0;
    cw_world_step(world);
    assert_true(cw_pair_touching(world, ship, bullet));
    assert_false(cw_pair_touching(world, bullet, rock));
    assert_int_equal(count_phase(&log, 0), 1); // bullet - rock ended; ship - bullet stays
    assert_true(cw_body_set_group(world, bullet, -3));
    log.n = 0;
    cw_world_step(world);
    assert_false(cw_pair_touching(world, ship, bullet));
    assert_int_equal(count_phase(&log, 0), 1);
    cw_world_destroy(world);
}

// --- switched off ---

static bool count_hit(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold;
    ++*(int *)context;
    return true;
}

static float count_ray(const cw_ray_hit *hit, void *context)
{
    (void)hit;
    ++*(int *)context;
    return 1;
}

// How many bodies each kind of query finds around (5, 5).
static int query_all(cw_world *world)
{
    int found = 0;
    cw_query_filter all = cw_default_query_filter();
    cw_shape probe = cw_shape_box(2, 2);
    cw_transform t = at(4, 4);
    assert_true(cw_world_query_point(world, (cw_vec2){5, 5}, all, count_hit, &found));
    assert_true(cw_world_query_aabb(world, (cw_aabb){{4, 4}, {6, 6}}, all, count_hit, &found));
    assert_true(cw_world_query_shape(world, &probe, &t, all, true, count_hit, &found));
    assert_true(cw_world_raycast(world, (cw_vec2){-20, 5}, (cw_vec2){40, 0}, all, count_ray, &found));
    t = at(-20, 4);
    assert_true(cw_world_cast_shape(world, &probe, &t, (cw_vec2){40, 0}, all, count_ray, &found));
    return found;
}

static void test_disabled_bodies(void **state)
{
    (void)state;
    event_log log;
    cw_world *world = logging_world(&log);
    cw_body_id a = add_box(world, 10, 0, 0), b = add_box(world, 10, 3, 3);
    cw_world_step(world);
    assert_int_equal(query_all(world), 10); // both, by five queries
    assert_true(cw_body_set_enabled(world, b, false));
    assert_true(cw_body_set_enabled(world, b, false)); // again: no change
    assert_false(cw_body_is_enabled(world, b));
    assert_true(cw_body_is_enabled(world, a));
    assert_int_equal(cw_world_get_stats(world).disabled_bodies, 1);
    assert_int_equal(query_all(world), 5); // out of every query at once
    assert_false(cw_pair_touching(world, a, b)); // left out of what touches at once...
    assert_int_equal(cw_body_touching(world, a, NULL, 0), 0);
    assert_int_equal(cw_body_touching(world, b, NULL, 0), 0);
    log.n = 0;
    cw_world_step(world); // ...and its contacts end at the next step
    assert_int_equal(log.n, 1);
    assert_true(log.e[0].phase == 0 && same_id(log.e[0].c.b, b));
    assert_false(cw_pair_touching(world, a, b));
    assert_int_equal(cw_world_get_stats(world).disabled_bodies, 1);
    // It keeps its id, transform and shape, and may be changed; it costs nothing per step.
    assert_true(cw_body_set_transform(world, b, &(cw_transform){{1, 1}, 0.5f, {1, 1}, {0, 0}}));
    cw_shape small = cw_shape_box(4, 4);
    assert_true(cw_body_set_shape(world, b, &small));
    log.n = 0;
    cw_world_step(world);
    assert_int_equal(log.n, 0);
    assert_int_equal(cw_world_get_stats(world).moved_bodies, 0);
    assert_int_equal(query_all(world), 5);
    // Back on: filed again, its contacts begin at the next step.
    assert_true(cw_body_set_enabled(world, b, true));
    assert_int_equal(cw_world_get_stats(world).disabled_bodies, 0);
    log.n = 0;
    cw_world_step(world);
    assert_int_equal(log.n, 1);
    assert_true(log.e[0].phase == 1 && cw_pair_touching(world, a, b));
    // Destroyed while off: no end is owed twice.
    assert_true(cw_body_set_enabled(world, b, false));
    cw_world_step(world);
    cw_body_destroy(world, b);
    log.n = 0;
    cw_world_step(world);
    assert_int_equal(log.n, 0);
    assert_int_equal(cw_world_get_stats(world).disabled_bodies, 0);
    cw_world_destroy(world);
}

// A swept bullet switched off on one side of a wall and on again on the other does not sweep
// through the wall: enabling starts it without a motion.
static void test_enable_does_not_sweep(void **state)
{
    (void)state;
    event_log log;
    cw_world *world = logging_world(&log);
    add_box(world, 10, 0, 0);
    cw_body_id bullet = add_box_def(world, 2, -20, 4, 0, true);
    cw_world_step(world);
    assert_true(cw_body_set_enabled(world, bullet, false));
    cw_world_step(world);
    assert_true(cw_body_set_transform(world, bullet, &(cw_transform){{30, 4}, 0, {1, 1}, {0, 0}}));
    cw_world_step(world);
    assert_true(cw_body_set_enabled(world, bullet, true));
    log.n = 0;
    cw_world_step(world);
    assert_int_equal(log.n, 0);
    // Switched off and on between two steps while moving: no sweep either.
    assert_true(cw_body_set_enabled(world, bullet, false));
    assert_true(cw_body_set_transform(world, bullet, &(cw_transform){{-20, 4}, 0, {1, 1}, {0, 0}}));
    assert_true(cw_body_set_enabled(world, bullet, true));
    cw_world_step(world);
    assert_int_equal(log.n, 0);
    // Then moved through the wall while on: it sweeps as ever.
    assert_true(cw_body_set_transform(world, bullet, &(cw_transform){{30, 4}, 0, {1, 1}, {0, 0}}));
    cw_world_step(world);
    assert_int_equal(count_phase(&log, 1), 1);
    assert_int_equal(count_phase(&log, 0), 1);
    cw_world_destroy(world);
}

// Against brute force: random boxes, a third switched off, random point and box queries.
static void test_disabled_out_of_queries(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0xd15ab1e);
    enum { N = 300 };
    cw_world *world = cw_world_create(&(cw_world_def){.manifolds = false, .worker_count = 1});
    cw_body_id ids[N];
    cw_aabb boxes[N];
    bool on[N];
    for (int k = 0; k < N; k++) {
        float x = (float)gen_range(&r, 0, 400), y = (float)gen_range(&r, 0, 400), s = (float)gen_range(&r, 2, 30);
        ids[k] = add_box(world, s, x, y);
        boxes[k] = (cw_aabb){{x, y}, {x + s, y + s}};
        on[k] = !gen_chance(&r, 0.33);
        assert_true(cw_body_set_enabled(world, ids[k], on[k]));
    }
    int checked = 0;
    for (int round = 0; round < 2; round++) { // before the first step, and after it
        for (int q = 0; q < 100 + gen_scaled(300); q++) {
            cw_vec2 p = {(float)gen_range(&r, 0, 420), (float)gen_range(&r, 0, 420)};
            cw_aabb box = {p, {p.x + (float)gen_range(&r, 0.5, 40), p.y + (float)gen_range(&r, 0.5, 40)}};
            int want_point = 0, want_box = 0, got_point = 0, got_box = 0;
            for (int k = 0; k < N; k++) {
                want_point += on[k] && p.x >= boxes[k].min.x && p.x < boxes[k].max.x && p.y >= boxes[k].min.y &&
                              p.y < boxes[k].max.y;
                want_box += on[k] && box.min.x < boxes[k].max.x && boxes[k].min.x < box.max.x &&
                            box.min.y < boxes[k].max.y && boxes[k].min.y < box.max.y;
            }
            assert_true(cw_world_query_point(world, p, cw_default_query_filter(), count_hit, &got_point));
            assert_true(cw_world_query_aabb(world, box, cw_default_query_filter(), count_hit, &got_box));
            assert_int_equal(got_point, want_point);
            assert_int_equal(got_box, want_box);
            checked += want_point + want_box;
        }
        cw_world_step(world);
    }
    assert_true(checked > 50);
    cw_world_destroy(world);
}

// --- misuse ---

static bool change_from_query(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)user_data, (void)manifold;
    cw_world *world = context;
    cw_touch out[4];
    cw_clear_error();
    bool refused = !cw_body_set_group(world, body, 1) && gen_contains_nocase(cw_last_error(), "query callback");
    cw_clear_error();
    refused = refused && !cw_body_set_enabled(world, body, false) &&
              gen_contains_nocase(cw_last_error(), "query callback");
    // Reading is fine from a query.
    return refused && cw_body_touching(world, body, out, 4) == 0 && cw_body_is_enabled(world, body);
}

static void test_touch_misuse(void **state)
{
    (void)state;
    cw_world *world = cw_world_create(&(cw_world_def){.manifolds = true, .event_arrays = true, .worker_count = 1});
    assert_non_null(world);
    cw_body_id body = add_box(world, 1, 0, 0), stale = add_box(world, 1, 5, 0), null_id = {0, 0};
    cw_body_destroy(world, stale);
    cw_touch out[2];
    cw_clear_error();
    assert_int_equal(cw_body_touching(NULL, body, out, 2), -1), expect_and_clear_error("world is NULL");
    assert_int_equal(cw_body_touching(world, stale, out, 2), -1), expect_and_clear_error("stale");
    assert_int_equal(cw_body_touching(world, null_id, out, 2), -1), expect_and_clear_error("stale or null");
    assert_int_equal(cw_body_touching(world, body, out, -1), -1), expect_and_clear_error("capacity is negative");
    assert_int_equal(cw_body_touching(world, body, NULL, 2), -1), expect_and_clear_error("output array is NULL");
    assert_false(cw_pair_touching(NULL, body, body)), expect_and_clear_error("world is NULL");
    assert_false(cw_pair_touching(world, body, stale)), expect_and_clear_error("stale");
    assert_false(cw_pair_touching(world, stale, body)), expect_and_clear_error("stale");
    assert_false(cw_body_set_group(NULL, body, 1)), expect_and_clear_error("world is NULL");
    assert_false(cw_body_set_group(world, stale, 1)), expect_and_clear_error("stale");
    assert_int_equal(cw_body_group(world, stale), 0), expect_and_clear_error("stale");
    assert_int_equal(cw_body_group(NULL, body), 0), expect_and_clear_error("world is NULL");
    assert_false(cw_body_set_enabled(NULL, body, false)), expect_and_clear_error("world is NULL");
    assert_false(cw_body_set_enabled(world, stale, false)), expect_and_clear_error("stale");
    assert_false(cw_body_is_enabled(world, stale)), expect_and_clear_error("stale");
    assert_false(cw_body_is_enabled(NULL, body)), expect_and_clear_error("world is NULL");
    cw_events ev = cw_world_events(NULL);
    expect_and_clear_error("world is NULL");
    assert_true(ev.begins == NULL && ev.begin_count + ev.stay_count + ev.end_count == 0);
    // Valid calls leave no error; the body was not changed by the failed ones.
    assert_int_equal(cw_body_touching(world, body, NULL, 0), 0);
    assert_int_equal(cw_body_group(world, body), 0);
    assert_true(cw_body_is_enabled(world, body));
    assert_string_equal(cw_last_error(), "");
    // From a query callback, changes are refused and reading works.
    cw_world_step(world);
    assert_true(cw_world_query_point(world, (cw_vec2){0.5f, 0.5f}, cw_default_query_filter(), change_from_query, world));
    assert_int_equal(cw_body_group(world, body), 0);
    assert_true(cw_body_is_enabled(world, body));
    cw_world_destroy(world);
}

// Switching off and regrouping from contact callbacks works as every body change does there.
static void switch_off_in_begin(const cw_contact *c, void *context)
{
    (void)context;
    cw_world *world = callback_world;
    assert_true(cw_body_set_enabled(world, c->b, false));
    assert_true(cw_body_set_group(world, c->a, -7));
}

static void test_changes_from_callbacks(void **state)
{
    (void)state;
    cw_world_def def = cw_default_world_def();
    def.on_begin = switch_off_in_begin;
    cw_world *world = callback_world = cw_world_create(&def);
    assert_non_null(world);
    cw_body_id a = add_box(world, 10, 0, 0), b = add_box(world, 10, 5, 0);
    cw_world_step(world);
    assert_false(cw_pair_touching(world, a, b)); // switched off: left out at once
    assert_false(cw_body_is_enabled(world, b));
    assert_int_equal(cw_body_group(world, a), -7);
    cw_world_step(world);
    assert_false(cw_pair_touching(world, a, b));
    assert_int_equal(cw_world_events(world).end_count, 1);
    cw_world_destroy(world);
}

const struct CMUnitTest world_touch_tests[] = {
    cmocka_unit_test(test_touching_by_hand),        cmocka_unit_test(test_touching_without_manifolds),
    cmocka_unit_test(test_touching_from_callbacks), cmocka_unit_test(test_event_arrays_by_hand),
    cmocka_unit_test(test_event_arrays_equal_callbacks), cmocka_unit_test(test_group_rule),
    cmocka_unit_test(test_group_changes),           cmocka_unit_test(test_disabled_bodies),
    cmocka_unit_test(test_enable_does_not_sweep),   cmocka_unit_test(test_disabled_out_of_queries),
    cmocka_unit_test(test_touch_misuse),            cmocka_unit_test(test_changes_from_callbacks),
};
