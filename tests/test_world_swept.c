// Swept bodies and shape casts through the world, by hand and against brute force: a bullet through
// a wall begins and ends in one step, at the right fraction and in the right order; teleports and
// new bodies do not sweep; toggling swept; world casts equal cw_shape_cast() over every body; and
// every kind of misuse of the new calls.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_log.h"
#include "expect_error.h"
#include "gen.h"
#include "suites.h"

// --- recording events (event_log.h) ---

static cw_transform at(float x, float y)
{
    cw_transform t = cw_default_transform();
    t.position = (cw_vec2){x, y};
    return t;
}

static cw_body_id add_box(cw_world *world, float w, float h, float x, float y, bool swept)
{
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box(w, h);
    def.transform = at(x, y);
    def.swept = swept;
    cw_body_id id = cw_body_create(world, &def);
    assert_false(cw_body_id_is_null(id));
    return id;
}

// A 4x4 bullet through a 10-wide wall at 40 a step: an unswept one is never seen, a swept one
// begins at the time it first touched and ends in the same step, after the step's begins and
// before its stays.
static void test_bullet_through_wall(void **state)
{
    (void)state;
    for (int swept = 0; swept <= 1; swept++) {
        event_log log;
        cw_world *world = logging_world(&log);
        cw_body_id wall = add_box(world, 10, 100, 100, 0, false);
        cw_body_id bullet = add_box(world, 4, 4, 72, 48, swept);
        cw_body_id other = add_box(world, 10, 10, 300, 300, false), partner = add_box(world, 10, 10, 305, 300, false);
        cw_world_step(world); // everything created: no motion yet; other and partner begin
        assert_int_equal(log.n, 1);
        log.n = 0;
        cw_transform t = at(112, 48); // from x in [72, 76] to [112, 116]: passes [100, 110]
        assert_true(cw_body_set_transform(world, bullet, &t));
        cw_world_step(world);
        if (!swept) {
            assert_int_equal(log.n, 1); // the stay of other and partner only
            assert_int_equal(log.e[0].phase, 2);
        } else {
            assert_int_equal(log.n, 3); // begin, then its end, then the stay
            assert_int_equal(log.e[0].phase, 1);
            assert_int_equal(log.e[1].phase, 0);
            assert_int_equal(log.e[2].phase, 2);
            assert_true(log.e[0].c.a.index == wall.index && log.e[0].c.b.index == bullet.index);
            assert_float_equal(log.e[0].c.fraction, 24.0 / 40, 2e-6); // the bullet's right edge 76 -> 100
            assert_float_equal(log.e[0].c.manifold.normal.x, -1, 1e-3); // from the wall toward the bullet
            assert_float_equal(log.e[0].c.manifold.point.x, 100, 1e-3); // on the wall's face, at that time
            assert_true(log.e[0].c.manifold.point.y >= 48 && log.e[0].c.manifold.point.y <= 52);
            assert_true(log.e[1].c.a.index == wall.index && log.e[1].c.b.index == bullet.index);
            assert_float_equal(log.e[1].c.fraction, 1, 0);
            cw_world_stats st = cw_world_get_stats(world);
            assert_int_equal(st.begin_events, 1);
            assert_int_equal(st.end_events, 1);
            assert_int_equal(st.touching_pairs, 1); // other and partner only
        }
        log.n = 0;
        cw_world_step(world); // nothing moved: nothing new
        assert_int_equal(log.n, 1);
        (void)other, (void)partner;
        cw_world_destroy(world);
    }
}

// A swept bullet that ends inside the wall begins with its fraction and stays; teleporting it
// through the wall sweeps nothing; a new body never sweeps in its first step (teleported or
// switched off and on first, or not).
static void test_teleport_and_new_bodies(void **state)
{
    (void)state;
    event_log log;
    cw_world *world = logging_world(&log);
    cw_body_id wall = add_box(world, 10, 100, 100, 0, false);
    cw_body_id bullet = add_box(world, 4, 4, 72, 48, true);
    cw_world_step(world);
    cw_transform t = at(104, 48);
    assert_true(cw_body_set_transform(world, bullet, &t));
    cw_world_step(world);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.e[0].phase, 1);
    assert_float_equal(log.e[0].c.fraction, 24.0 / 32, 2e-6);
    // Teleported far through it and back out on the other side: the stay ends, nothing else.
    log.n = 0;
    t = at(200, 48);
    assert_true(cw_body_teleport(world, bullet, &t));
    cw_world_step(world);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.e[0].phase, 0);
    log.n = 0;
    t = at(20, 48);
    assert_true(cw_body_teleport(world, bullet, &t)); // back through the wall, without motion
    cw_world_step(world);
    assert_int_equal(log.n, 0);
    // A new swept body placed beyond the wall and then moved before its first step: no sweep.
    cw_body_id late = add_box(world, 4, 4, 20, 10, true);
    t = at(200, 10);
    assert_true(cw_body_set_transform(world, late, &t));
    cw_world_step(world);
    assert_int_equal(log.n, 0);
    // Nor when it was teleported, or switched off and on, before being moved: it is still new.
    for (int how = 0; how < 2; how++) {
        cw_body_id fresh = add_box(world, 4, 4, 20, 30, true);
        t = at(30, 30);
        if (how == 0) {
            assert_true(cw_body_teleport(world, fresh, &t));
        } else {
            assert_true(cw_body_set_enabled(world, fresh, false));
            assert_true(cw_body_set_enabled(world, fresh, true));
        }
        t = at(200, 30);
        assert_true(cw_body_set_transform(world, fresh, &t));
        cw_world_step(world);
        assert_int_equal(log.n, 0);
        cw_body_destroy(world, fresh);
    }
    // Swept off: the same motion through the wall is not seen; on again: it is, from where the
    // body was at the last step.
    assert_true(cw_body_set_swept(world, late, false));
    assert_false(cw_body_is_swept(world, late));
    t = at(20, 10);
    assert_true(cw_body_set_transform(world, late, &t));
    cw_world_step(world);
    assert_int_equal(log.n, 0);
    assert_true(cw_body_set_swept(world, late, true));
    assert_true(cw_body_is_swept(world, late));
    t = at(200, 10);
    assert_true(cw_body_set_transform(world, late, &t));
    cw_world_step(world);
    assert_int_equal(log.n, 2);
    assert_true(log.e[0].phase == 1 && log.e[1].phase == 0);
    (void)wall;
    cw_world_destroy(world);
}

// Two unswept bodies crossing never touch; a swept body meets an unswept one moving across its
// path (the unswept body's motion counts), and two swept ones moving toward each other meet
// halfway.
static void test_relative_motion(void **state)
{
    (void)state;
    event_log log;
    cw_world *world = logging_world(&log);
    cw_body_id a = add_box(world, 2, 2, 0, 0, true), b = add_box(world, 2, 2, 50, -50, false);
    cw_world_step(world);
    cw_transform ta = at(100, 0), tb = at(50, 50); // a along y = 0, b down x = 50: they cross at t = 1/2
    assert_true(cw_body_set_transform(world, a, &ta));
    assert_true(cw_body_set_transform(world, b, &tb));
    cw_world_step(world);
    assert_int_equal(log.n, 2);
    assert_true(log.e[0].phase == 1 && log.e[1].phase == 0);
    assert_true(log.e[0].c.fraction > 0.45f && log.e[0].c.fraction < 0.5f);
    // b parked beside a's path: a passing it from the side does not touch.
    log.n = 0;
    tb = at(150, 3);
    assert_true(cw_body_teleport(world, b, &tb));
    ta = at(200, 0);
    assert_true(cw_body_set_transform(world, a, &ta));
    cw_world_step(world);
    assert_int_equal(log.n, 0);
    // Both swept, head-on: 0..2 and 98..100 closing at 48 each: first touch at 96 / 96 = 1.
    cw_body_id c = add_box(world, 2, 2, 0, 500, true), d = add_box(world, 2, 2, 98, 500, true);
    cw_world_step(world);
    log.n = 0;
    cw_transform tc = at(48, 500), td = at(50, 500);
    assert_true(cw_body_set_transform(world, c, &tc));
    assert_true(cw_body_set_transform(world, d, &td));
    cw_world_step(world);
    assert_int_equal(log.n, 0); // they end edge to edge: touching only
    tc = at(60, 500), td = at(40, 500); // from edge to edge, through each other and apart again
    assert_true(cw_body_set_transform(world, c, &tc));
    assert_true(cw_body_set_transform(world, d, &td));
    cw_world_step(world);
    assert_int_equal(log.n, 2);
    assert_true(log.e[0].phase == 1 && log.e[1].phase == 0);
    assert_true(log.e[0].c.fraction > 0 && log.e[0].c.fraction < 1e-5f);
    cw_world_destroy(world);
}

// Far beyond moderate placements (boxes up to 2^95 long, sprites 1e7 to 1e9 from the origin) the
// world still gives cw_overlap()'s answer, where rounding lets the exact test see a touch that the
// AABBs rule out (cw_overlap() is gated by them, and so is every candidate): swept bodies' candidate
// boxes span their motion and, widened by other bodies' moves, even a still swept body's, so their
// end positions are gated as well, and a pass through a wall is one iff cw_shape_cast() says so
// (gated by the motion's AABB). Seeded: every pair after every step against cw_overlap(), every
// sprite that moved past a wall (by a translation exact in floats) against cw_shape_cast().
#define FAR_BODIES 8
#define FAR_WALLS 2
static float far_value(gen_rng *rng)
{
    float magnitude = gen_chance(rng, 0.5) ? (float)gen_range(rng, 0, 40) : ldexpf(1, gen_int(rng, 20, 30));
    return gen_chance(rng, 0.5) ? magnitude : -magnitude;
}

static cw_transform far_transform(gen_rng *rng, bool huge)
{
    cw_transform t = cw_default_transform();
    t.position = (cw_vec2){far_value(rng), far_value(rng)};
    t.rotation = (float)gen_range(rng, -4, 4);
    float scale = huge ? ldexpf(1, gen_int(rng, 60, 95)) : (float)gen_range(rng, 0.25, 3);
    t.scale = (cw_vec2){scale, gen_chance(rng, 0.2) ? -scale : scale};
    return t;
}

static bool has_event(const cw_contact *events, int count, cw_body_id a, cw_body_id b)
{
    for (int e = 0; e < count; e++)
        if ((events[e].a.index == a.index && events[e].b.index == b.index) ||
            (events[e].a.index == b.index && events[e].b.index == a.index))
            return true;
    return false;
}

typedef struct far_counts {
    int pairs, touching, gated, passes_checked, passed;
} far_counts;

// After a step: every pair against cw_overlap(); a wall and a swept sprite that moved (from `from`)
// and touch neither before nor after: passed through iff cw_shape_cast() says so (of the sprite as
// it is now, from where it was: the world's motion is a translation).
static void check_far_step(cw_world *world, const cw_body_id *ids, const cw_shape *shapes, const cw_transform *from,
                           bool (*before)[FAR_BODIES], bool (*now)[FAR_BODIES], far_counts *n)
{
    cw_events ev = cw_world_events(world);
    for (int i = 0; i < FAR_BODIES; i++)
        for (int j = i + 1; j < FAR_BODIES; j++) {
            if (i < FAR_WALLS && j < FAR_WALLS)
                continue;
            cw_transform ti = cw_body_transform(world, ids[i]), tj = cw_body_transform(world, ids[j]);
            now[i][j] = cw_overlap(&shapes[i], &ti, &shapes[j], &tj, NULL);
            if (cw_pair_touching(world, ids[i], ids[j]) != now[i][j])
                fail_msg("bodies %d and %d touch by the world %d, by cw_overlap %d", i, j, !now[i][j], now[i][j]);
            n->pairs++, n->touching += now[i][j];
            cw_aabb bi, bj;
            assert_true(cw_shape_aabb(&shapes[i], &ti, &bi) && cw_shape_aabb(&shapes[j], &tj, &bj));
            bool apart = bi.min.y > bj.max.y || bj.min.y > bi.max.y || bi.min.x > bj.max.x || bj.min.x > bi.max.x;
            n->gated += !now[i][j] && apart && i < FAR_WALLS;
            double dx = (double)tj.position.x - from[j].position.x, dy = (double)tj.position.y - from[j].position.y;
            cw_vec2 d = {(float)dx, (float)dy};
            if (i >= FAR_WALLS || !cw_body_is_swept(world, ids[j]) || before[i][j] || now[i][j] ||
                (dx == 0 && dy == 0) || d.x != dx || d.y != dy)
                continue;
            cw_transform start = tj; // the motion is a translation: the end's turn and scale throughout
            start.position = from[j].position;
            float fraction;
            bool cast = cw_shape_cast(&shapes[j], &start, d, &shapes[i], &ti, &fraction, NULL);
            bool passed = has_event(ev.begins, ev.begin_count, ids[i], ids[j]);
            if (passed != cast || passed != has_event(ev.ends, ev.end_count, ids[i], ids[j]))
                fail_msg("sprite %d moved by (%a, %a) past wall %d: the world says it %s, cw_shape_cast() %s", j, d.x,
                         d.y, i, passed ? "passed" : "did not pass", cast ? "hits" : "misses");
            n->passes_checked++, n->passed += passed;
        }
}

static void test_far_placements_agree_with_overlap(void **state)
{
    (void)state;
    far_counts n = {0, 0, 0, 0, 0};
    // 300 runs: a world that judged a pass with the wall moved back (a translated copy of the
    // cast's numbers) disagreed with the cast in three of four batches of 60.
    int runs = gen_scaled(300) < 60 ? 60 : gen_scaled(300);
    for (int run = 0; run < runs; run++) {
        gen_rng rng = gen_seed(0xfa5e + (uint64_t)run);
        cw_world_def wd = cw_default_world_def();
        cw_world *world = cw_world_create(&wd);
        assert_non_null(world);
        cw_body_id ids[FAR_BODIES];
        cw_shape shapes[FAR_BODIES];
        cw_transform from[FAR_BODIES];
        bool touching[2][FAR_BODIES][FAR_BODIES];
        memset(touching, 0, sizeof touching);
        for (int k = 0; k < FAR_BODIES; k++) {
            cw_body_def def = cw_default_body_def();
            bool wall = k < FAR_WALLS; // static boxes up to 2^95 long
            def.shape = shapes[k] = cw_shape_box((float)gen_range(&rng, 0.5, 12), (float)gen_range(&rng, 0.5, 12));
            def.transform = from[k] = far_transform(&rng, wall);
            def.is_static = wall;
            def.swept = !wall && gen_chance(&rng, 0.7);
            ids[k] = cw_body_create(world, &def);
            assert_false(cw_body_id_is_null(ids[k]));
        }
        for (int step = 0; step < 12; step++) {
            cw_clear_error();
            cw_world_step(world);
            assert_string_equal(cw_last_error(), "");
            check_far_step(world, ids, shapes, from, touching[step % 2], touching[(step + 1) % 2], &n);
            for (int k = 0; k < FAR_BODIES; k++)
                from[k] = cw_body_transform(world, ids[k]);
            int movers = gen_int(&rng, 0, 3); // none: the swept bodies stay put (their boxes may not)
            for (int m = 0; m < movers; m++) {
                int k = gen_int(&rng, FAR_WALLS, FAR_BODIES - 1);
                cw_transform t = far_transform(&rng, false);
                if (gen_chance(&rng, 0.5)) // along one axis: a translation floats hold more often
                    t.position.y = from[k].position.y;
                assert_true(cw_body_set_transform(world, ids[k], &t));
            }
        }
        cw_world_destroy(world);
    }
    printf("  far placements: %d pairs after %d steps (%d touching, %d apart beside a wall), %d moves past a wall "
           "(%d passed through)\n",
           n.pairs, runs * 12, n.touching, n.gated, n.passes_checked, n.passed);
    assert_true(n.touching > 100 && n.gated > 100 && n.passes_checked > 100 && n.passed > 10);
}

// --- world casts against cw_shape_cast() over every body ---

typedef struct cast_hits {
    cw_ray_hit hit[512];
    int n;
    float limit_mode; // the callback returns this (or, if negative, each hit's fraction)
} cast_hits;

static float collect_hit(const cw_ray_hit *hit, void *context)
{
    cast_hits *h = context;
    if (h->n < 512)
        h->hit[h->n++] = *hit;
    return h->limit_mode >= 0 ? h->limit_mode : hit->fraction;
}

static void test_world_casts_against_brute_force(void **state)
{
    (void)state;
    // At least 20 casts a round, valgrind's fortieth included: enough hits for the floor below on any salt.
    int failures = 0, hits_total = 0, casts = gen_scaled(300) < 20 ? 20 : gen_scaled(300);
    for (int round = 0; round < 3 && failures == 0; round++) {
        gen_rng r = gen_seed(0xCA5700AA00ull + (uint64_t)round);
        cw_world_def def = cw_default_world_def();
        def.cell_size = round == 1 ? 4.0f : 0;
        cw_world *world = cw_world_create(&def);
        gen_shape shapes[6];
        for (int k = 0; k < 6; k++)
            if (k < 2)
                gen_random_box(&r, &shapes[k]);
            else
                assert_true(gen_random_mask(&r, &shapes[k]));
        enum { BODIES = 150 };
        cw_body_id ids[BODIES];
        for (int k = 0; k < BODIES; k++) {
            cw_body_def bd = cw_default_body_def();
            bd.shape = shapes[gen_int(&r, 0, 5)].shape;
            gen_random_transform(&r, &shapes[0], &bd.transform);
            bd.transform.origin = (cw_vec2){0, 0};
            bd.transform.position = (cw_vec2){(float)gen_range(&r, -400, 400), (float)gen_range(&r, -400, 400)};
            bd.category = 1u << gen_int(&r, 0, 2);
            ids[k] = cw_body_create(world, &bd);
            assert_false(cw_body_id_is_null(ids[k]));
        }
        cw_world_step(world);
        for (int k = 0; k < 20; k++) { // a few bodies changed since the step: found all the same
            cw_transform t = cw_body_transform(world, ids[k]);
            t.position.x += 7;
            cw_body_set_transform(world, ids[k], &t);
        }
        for (int c = 0; c < casts && failures < 8; c++) {
            const gen_shape *qs = &shapes[gen_int(&r, 0, 5)];
            cw_transform qt;
            gen_random_transform(&r, qs, &qt);
            qt.position = (cw_vec2){(float)gen_range(&r, -450, 450), (float)gen_range(&r, -450, 450)};
            double length = gen_chance(&r, 0.1) ? 0 : gen_range(&r, 1, 500), angle = gen_range(&r, 0, 2 * GEN_PI);
            cw_vec2 d = {(float)(length * cos(angle)), (float)(length * sin(angle))};
            cw_query_filter filter = {UINT32_MAX, gen_chance(&r, 0.3) ? 1u : UINT32_MAX};
            cast_hits got;
            memset(&got, 0, sizeof got);
            got.limit_mode = 1;
            assert_true(cw_world_cast_shape(world, &qs->shape, &qt, d, filter, collect_hit, &got));
            // Brute force: every body, cw_shape_cast.
            int expected = 0, best = -1;
            float best_fraction = 2;
            for (int k = 0; k < BODIES; k++) {
                uint32_t category = 0;
                cw_body_filter(world, ids[k], &category, NULL);
                if (!(category & filter.collides_with))
                    continue;
                cw_shape bs = cw_body_shape(world, ids[k]);
                cw_transform bt = cw_body_transform(world, ids[k]);
                float f;
                cw_manifold m;
                if (!cw_shape_cast(&qs->shape, &qt, d, &bs, &bt, &f, &m))
                    continue;
                expected++;
                if (f < best_fraction)
                    best_fraction = f, best = k;
                int found = -1;
                for (int i = 0; i < got.n; i++)
                    if (got.hit[i].body.index == ids[k].index)
                        found = i;
                if (found < 0 || got.hit[found].fraction != f || got.hit[found].normal.x != -m.normal.x ||
                    got.hit[found].normal.y != -m.normal.y) {
                    if (failures++ < 8)
                        printf("FAIL cast %d (round %d): body %d %s (fraction %.9g)\n", c, round, k,
                               found < 0 ? "missed" : "reported differently", (double)f);
                }
            }
            if (got.n != expected && failures++ < 8)
                printf("FAIL cast %d (round %d): %d reports, brute force %d\n", c, round, got.n, expected);
            hits_total += expected;
            cw_ray_hit closest;
            bool any = cw_world_cast_shape_closest(world, &qs->shape, &qt, d, filter, &closest);
            if (any != (best >= 0) || (any && closest.fraction != best_fraction)) {
                if (failures++ < 8)
                    printf("FAIL cast %d (round %d): closest %d at %.9g, brute force %d at %.9g\n", c, round, any,
                           any ? (double)closest.fraction : -1.0, best >= 0, (double)best_fraction);
            }
        }
        cw_world_destroy(world);
        for (int k = 0; k < 6; k++)
            gen_shape_free(&shapes[k]);
    }
    printf("  world casts: %d hits compared with cw_shape_cast over every body, %d failures\n", hits_total, failures);
    assert_true(hits_total > 50);
    assert_int_equal(failures, 0);
}

// --- misuse ---

static float ignore_hit(const cw_ray_hit *hit, void *context)
{
    (void)hit, (void)context;
    return 1;
}

static bool cast_from_query(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold;
    cw_world *world = context;
    cw_shape s = cw_shape_box(1, 1);
    cw_transform t = cw_default_transform();
    cw_ray_hit hit;
    cw_clear_error();
    if (cw_world_cast_shape(world, &s, &t, (cw_vec2){1, 0}, cw_default_query_filter(), ignore_hit, NULL) ||
        cw_world_cast_shape_closest(world, &s, &t, (cw_vec2){1, 0}, cw_default_query_filter(), &hit))
        return false;
    return gen_contains_nocase(cw_last_error(), "nested");
}

static void test_swept_misuse(void **state)
{
    (void)state;
    cw_world *world = cw_world_create(&(cw_world_def){.cell_size = 0, .manifolds = true, .worker_count = 1});
    assert_non_null(world);
    cw_body_id body = add_box(world, 1, 1, 0, 0, false), stale = add_box(world, 1, 1, 5, 0, false);
    cw_body_destroy(world, stale);
    cw_transform t = cw_default_transform(), bad = t;
    bad.scale.x = 0;
    cw_clear_error();
    // Stale ids, NULL worlds, NULL and invalid transforms.
    assert_false(cw_body_set_swept(world, stale, true)), expect_and_clear_error("stale");
    assert_false(cw_body_set_swept(NULL, body, true)), expect_and_clear_error("world is NULL");
    assert_false(cw_body_is_swept(world, stale)), expect_and_clear_error("stale");
    assert_false(cw_body_teleport(world, stale, &t)), expect_and_clear_error("stale");
    assert_false(cw_body_teleport(world, body, NULL)), expect_and_clear_error("transform is NULL");
    assert_false(cw_body_teleport(world, body, &bad)), expect_and_clear_error("zero scale");
    assert_false(cw_body_teleport(NULL, body, &t)), expect_and_clear_error("world is NULL");
    // World casts: every bad input of a shape query, a non-finite translation, nested queries.
    cw_shape box = cw_shape_box(1, 1), no_box = cw_shape_box(-1, 1);
    cw_query_filter all = cw_default_query_filter();
    cw_ray_hit hit;
    memset(&hit, 0x5a, sizeof hit);
    cw_ray_hit sentinel = hit;
    assert_false(cw_world_cast_shape(NULL, &box, &t, (cw_vec2){1, 0}, all, ignore_hit, NULL));
    expect_and_clear_error("world is NULL");
    assert_false(cw_world_cast_shape(world, NULL, &t, (cw_vec2){1, 0}, all, ignore_hit, NULL));
    expect_and_clear_error("shape is NULL");
    assert_false(cw_world_cast_shape(world, &box, NULL, (cw_vec2){1, 0}, all, ignore_hit, NULL));
    expect_and_clear_error("transform is NULL");
    assert_false(cw_world_cast_shape(world, &no_box, &t, (cw_vec2){1, 0}, all, ignore_hit, NULL));
    expect_and_clear_error("width and height");
    assert_false(cw_world_cast_shape(world, &box, &bad, (cw_vec2){1, 0}, all, ignore_hit, NULL));
    expect_and_clear_error("zero scale");
    assert_false(cw_world_cast_shape(world, &box, &t, (cw_vec2){1, 0}, all, NULL, NULL));
    expect_and_clear_error("callback is NULL");
    assert_false(cw_world_cast_shape(world, &box, &t, (cw_vec2){NAN, 0}, all, ignore_hit, NULL));
    expect_and_clear_error("not finite");
    assert_false(cw_world_cast_shape(world, &box, &t, (cw_vec2){0, INFINITY}, all, ignore_hit, NULL));
    expect_and_clear_error("not finite");
    assert_false(cw_world_cast_shape_closest(world, &box, &t, (cw_vec2){1, 0}, all, NULL));
    expect_and_clear_error("hit output pointer");
    assert_false(cw_world_cast_shape_closest(world, &box, &t, (cw_vec2){NAN, 0}, all, &hit));
    expect_and_clear_error("not finite");
    assert_memory_equal(&hit, &sentinel, sizeof hit);
    // A miss is no error; a zero translation is a shape query at fraction 0.
    cw_transform far = at(100, 100);
    assert_false(cw_world_cast_shape_closest(world, &box, &far, (cw_vec2){1, 0}, all, &hit));
    assert_string_equal(cw_last_error(), "");
    assert_true(cw_world_cast_shape_closest(world, &box, &t, (cw_vec2){0, 0}, all, &hit));
    assert_true(hit.fraction == 0 && hit.body.index == body.index);
    // From inside a query callback: refused as nested.
    cw_world_step(world);
    assert_true(cw_world_query_point(world, (cw_vec2){0.5f, 0.5f}, all, cast_from_query, world));
    cw_world_destroy(world);
}

// Casting from inside contact callbacks is allowed (as every query is) and sees the world now.
static cw_world *callback_world;
static int callback_casts;

static void cast_in_begin(const cw_contact *c, void *context)
{
    (void)c, (void)context;
    cw_shape s = cw_shape_box(1, 1);
    cw_transform t = at(-10, 0.5f);
    cw_ray_hit hit;
    if (cw_world_cast_shape_closest(callback_world, &s, &t, (cw_vec2){30, 0}, cw_default_query_filter(), &hit))
        callback_casts++;
}

static void test_cast_from_contact_callback(void **state)
{
    (void)state;
    cw_world_def def = cw_default_world_def();
    def.on_begin = cast_in_begin;
    callback_world = cw_world_create(&def);
    add_box(callback_world, 2, 2, 0, 0, false);
    add_box(callback_world, 2, 2, 1, 0, false);
    callback_casts = 0;
    cw_world_step(callback_world);
    assert_int_equal(callback_casts, 1);
    cw_world_destroy(callback_world);
}

// --- a swept body's begin against a body that stayed put is the cast's ---

// Seeded walls (static boxes and masks, turned, scaled, mirrored) and swept bullets moved by
// translations exact in floats, made in a random order: each begin of a bullet and a wall is
// cw_shape_cast() of the bullet from where it was against the wall, bit for bit (fraction, point,
// depth; the normal from the pair's a toward its b), whichever of the two has the lower index.
// (The world once moved the wall back instead when it had: a translated copy of the cast.)
enum { CAST_WALLS = 3, CAST_BULLETS = 3, CAST_BODIES = CAST_WALLS + CAST_BULLETS };

static float eighths(gen_rng *rng, double lo, double hi) { return (float)(gen_int(rng, (int)(8 * lo), (int)(8 * hi)) / 8.0); }

static void check_cast_begins(const event_log *log, const cw_body_id *ids, const gen_shape *shapes,
                              const cw_transform *from, const cw_transform *to, int *checked, int *wall_first)
{
    for (int e = 0; e < log->n; e++) {
        const cw_contact *c = &log->e[e].c;
        if (log->e[e].phase != 1)
            continue;
        int a = -1, b = -1;
        for (int k = 0; k < CAST_BODIES; k++)
            a = ids[k].index == c->a.index ? k : a, b = ids[k].index == c->b.index ? k : b;
        if ((a < CAST_WALLS) == (b < CAST_WALLS))
            continue; // two walls never pair; two bullets both moved
        int wall = a < CAST_WALLS ? a : b, bullet = a < CAST_WALLS ? b : a;
        cw_vec2 d = {to[bullet].position.x - from[bullet].position.x, to[bullet].position.y - from[bullet].position.y};
        float fraction;
        cw_manifold m;
        assert_true(cw_shape_cast(&shapes[bullet].shape, &from[bullet], d, &shapes[wall].shape, &to[wall], &fraction, &m));
        if (wall == a)
            m.normal = (cw_vec2){-m.normal.x, -m.normal.y};
        if (memcmp(&fraction, &c->fraction, sizeof fraction) != 0 || memcmp(&m, &c->manifold, sizeof m) != 0)
            fail_msg("bullet %d past wall %d (wall %s): the begin has fraction %a, point (%a, %a), normal (%a, %a), "
                     "depth %a; the cast %a, (%a, %a), (%a, %a), %a",
                     bullet, wall, wall == a ? "first" : "second", c->fraction, c->manifold.point.x,
                     c->manifold.point.y, c->manifold.normal.x, c->manifold.normal.y, c->manifold.depth, fraction,
                     m.point.x, m.point.y, m.normal.x, m.normal.y, m.depth);
        ++*checked, *wall_first += wall == a;
    }
}

static void test_swept_begins_are_casts(void **state)
{
    (void)state;
    int worlds = gen_scaled(120) < 40 ? 40 : gen_scaled(120), checked = 0, wall_first = 0;
    for (int w = 0; w < worlds; w++) {
        gen_rng rng = gen_seed(0xca57 + (uint64_t)w);
        static event_log log;
        cw_world *world = logging_world(&log);
        gen_shape shapes[CAST_BODIES];
        cw_body_id ids[CAST_BODIES];
        cw_transform from[CAST_BODIES], to[CAST_BODIES];
        int order[CAST_BODIES];
        for (int k = 0; k < CAST_BODIES; k++) {
            assert_true(gen_random_shape(&rng, &shapes[k], gen_chance(&rng, 0.4)));
            gen_random_transform(&rng, &shapes[k], &to[k]);
            to[k].position = (cw_vec2){eighths(&rng, 0, 120), eighths(&rng, 0, 120)};
            order[k] = k;
        }
        for (int k = CAST_BODIES - 1; k > 0; k--) { // made in a random order: either may be a
            int j = gen_int(&rng, 0, k), swap = order[k];
            order[k] = order[j], order[j] = swap;
        }
        for (int k = 0; k < CAST_BODIES; k++) {
            int i = order[k];
            cw_body_def def = cw_default_body_def();
            def.shape = shapes[i].shape, def.transform = to[i];
            def.is_static = i < CAST_WALLS, def.swept = i >= CAST_WALLS;
            ids[i] = cw_body_create(world, &def);
            assert_false(cw_body_id_is_null(ids[i]));
        }
        cw_world_step(world);
        for (int step = 0; step < 6; step++) {
            memcpy(from, to, sizeof from);
            for (int k = CAST_WALLS; k < CAST_BODIES; k++) {
                to[k].position.x += eighths(&rng, -90, 90), to[k].position.y += eighths(&rng, -90, 90);
                assert_true(cw_body_set_transform(world, ids[k], &to[k]));
            }
            log.n = 0;
            cw_world_step(world);
            check_cast_begins(&log, ids, shapes, from, to, &checked, &wall_first);
        }
        cw_world_destroy(world);
        for (int k = 0; k < CAST_BODIES; k++)
            gen_shape_free(&shapes[k]);
    }
    printf("  %d begins of a bullet and a wall, each the cast's bit for bit (%d with the wall as a)\n", checked, wall_first);
    assert_true(checked > 50 && wall_first > 20);
}

const struct CMUnitTest world_swept_tests[] = {
    cmocka_unit_test(test_bullet_through_wall),
    cmocka_unit_test(test_teleport_and_new_bodies),
    cmocka_unit_test(test_relative_motion),
    cmocka_unit_test(test_far_placements_agree_with_overlap),
    cmocka_unit_test(test_world_casts_against_brute_force),
    cmocka_unit_test(test_swept_misuse),
    cmocka_unit_test(test_cast_from_contact_callback),
    cmocka_unit_test(test_swept_begins_are_casts),
};
