// When a world's contact events come and what they carry, on small hand-made scenes: a change made
// between steps (move, shape, filter, user data, create, destroy) shows in the very next step, one
// made inside a callback from the step after; filters both ways; static bodies; a world with on_stay
// but no on_begin. Every scene runs through the brute-force reference (world_ref.h), which checks the
// whole event stream after every step; the tests add the exact events they expect on top.
#include <string.h>

#include "suites.h"
#include "world_helpers.h"
#include "world_ref.h"

// The first event of `phase` naming ha and hb (either order), or NULL.
static const cw_contact *find_event(wr_world *w, int phase, int ha, int hb)
{
    int n;
    const wr_event *e = wr_events(w, &n);
    cw_body_id a = wr_id(w, ha), b = wr_id(w, hb);
    for (int k = 0; k < n; k++) {
        const cw_contact *c = &e[k].contact;
        if (e[k].phase != phase)
            continue;
        if ((c->a.index == a.index && c->a.generation == a.generation && c->b.index == b.index &&
             c->b.generation == b.generation) ||
            (c->a.index == b.index && c->a.generation == b.generation && c->b.index == a.index &&
             c->b.generation == a.generation))
            return c;
    }
    return NULL;
}

// --- events in the very step of a change ---

static void test_begins_in_same_step(void **state)
{
    (void)state;
    wr_world *w = wh_make_world("same step", NULL, NULL);
    int a = wh_add_box(w, 0, 0, 10, 10, false, &wh_users[0], 0);
    int b = wh_add_box(w, 5, 5, 10, 10, false, &wh_users[1], 0);
    STEP(w); // created before the step: the begin is in this step
    assert_int_equal(wr_count_events(w, WR_BEGIN, a, b), 1);
    const cw_contact *c = find_event(w, WR_BEGIN, a, b);
    assert_non_null(c);
    assert_ptr_equal(c->user_a, &wh_users[0]);
    assert_ptr_equal(c->user_b, &wh_users[1]);
    // Box-box manifold: the overlap is [5, 10] x [5, 10], centroid (7.5, 7.5), depth 5.
    assert_float_equal(c->manifold.point.x, 7.5, 1e-4);
    assert_float_equal(c->manifold.point.y, 7.5, 1e-4);
    assert_float_equal(c->manifold.depth, 5, 1e-4);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_STAY, a, b), 1);
    assert_int_equal(wh_count_phase(w, WR_BEGIN) + wh_count_phase(w, WR_END), 0);

    // Edges that only touch do not touch: moving B so its left edge is A's right edge ends the pair.
    cw_transform t = wh_at(10, 0);
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, a, b), 1);
    t = wh_at(10, 10); // corners only
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(wh_count_phase(w, WR_BEGIN) + wh_count_phase(w, WR_END) + wh_count_phase(w, WR_STAY), 0);
    // Moved back into overlap (by a hundredth): the begin is in this very step.
    t = wh_at(9.99f, 0);
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, a, b), 1);
    // A teleport far away ends it in the next step; a teleport back begins it again at once.
    t = wh_at(50000, 50000);
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, a, b), 1);
    STEP(w);
    assert_int_equal(wh_count_phase(w, WR_END) + wh_count_phase(w, WR_BEGIN) + wh_count_phase(w, WR_STAY), 0);
    t = wh_at(3, -4);
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, a, b), 1);

    // A body created touching two others begins with both in the step it was created for.
    int c3 = wh_add_box(w, 8, 0, 4, 4, false, &wh_users[2], 0);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, a, c3), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, b, c3), 1);
    assert_int_equal(wr_count_events(w, WR_STAY, a, b), 1);

    // New user data shows in the next step's events.
    wr_set_user(w, b, &wh_users[9]);
    STEP(w);
    c = find_event(w, WR_STAY, a, b);
    assert_non_null(c);
    assert_ptr_equal(wr_id(w, a).index < wr_id(w, b).index ? c->user_b : c->user_a, &wh_users[9]);

    // Destroying A ends its two pairs in the next step, with A's old id and user data.
    cw_body_id old_a = wr_id(w, a);
    wr_body_destroy(w, a);
    STEP(w);
    assert_int_equal(wh_count_phase(w, WR_END), 2);
    int n;
    const wr_event *e = wr_events(w, &n);
    for (int k = 0; k < n; k++)
        if (e[k].phase == WR_END) {
            const cw_contact *ec = &e[k].contact;
            bool a_first = ec->a.index == old_a.index;
            cw_body_id got = a_first ? ec->a : ec->b;
            assert_int_equal(got.generation, old_a.generation);
            assert_int_equal(got.index, old_a.index);
            assert_ptr_equal(a_first ? ec->user_a : ec->user_b, &wh_users[0]);
            cw_manifold zero;
            memset(&zero, 0, sizeof zero);
            assert_memory_equal(&ec->manifold, &zero, sizeof zero);
        }
    // A shape change that leaves the pair apart ends it; one that brings it back begins it.
    cw_shape tiny = cw_shape_box(0.5f, 0.5f);
    ref_shape tiny_ref = ref_box(0.5, 0.5);
    wr_set_shape(w, c3, &tiny, &tiny_ref); // [8, 8.5] x [0, 0.5]: b is [3, 13] x [-4, 6] -> still touching
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_STAY, b, c3), 1);
    t = wh_at(20, 20);
    wr_set_transform(w, c3, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, b, c3), 1);
    cw_shape big = cw_shape_box(30, 30);
    ref_shape big_ref = ref_box(30, 30);
    wr_set_shape(w, b, &big, &big_ref);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, b, c3), 1);
    // Setting the same transform again changes nothing.
    t = wr_transform(w, b);
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(wh_count_phase(w, WR_BEGIN) + wh_count_phase(w, WR_END), 0);
    assert_int_equal(wr_count_events(w, WR_STAY, b, c3), 1);
    wh_finish(w);
}

// Filters (both ways) and static bodies.
static void test_filters_and_statics(void **state)
{
    (void)state;
    wr_world *w = wh_make_world("filters", NULL, NULL);
    int a = wh_add_box(w, 0, 0, 10, 10, false, NULL, 0);
    int b = wh_add_box(w, 2, 2, 3, 3, false, NULL, 0);
    wr_set_filter(w, a, 1u << 1, 1u << 2); // A is 2, wants 4; B is 1, wants all: no
    STEP(w);
    assert_int_equal(wr_expected_count(w), 0);
    wr_set_filter(w, b, 1u << 2, UINT32_MAX); // B is 4 now: both ways
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, a, b), 1);
    wr_set_filter(w, b, 1u << 2, 1u << 0); // B wants 1 only, A is 2: ends
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, a, b), 1);
    wr_set_filter(w, b, 1u << 2, 0); // collides with nothing
    STEP(w);
    wr_set_filter(w, a, 0, UINT32_MAX); // no category
    wr_set_filter(w, b, UINT32_MAX, UINT32_MAX);
    STEP(w);
    assert_int_equal(wr_expected_count(w), 0);
    wr_set_filter(w, a, 0x80000000u, 0x80000000u);
    wr_set_filter(w, b, 0x80000001u, 0x80000000u);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, a, b), 1);
    // A filter change that keeps the pair matching is no event but a stay.
    wr_set_filter(w, b, 0x80000000u, 0xffffffffu);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_STAY, a, b), 1);
    assert_int_equal(wh_count_phase(w, WR_BEGIN) + wh_count_phase(w, WR_END), 0);

    // Static bodies: two statics never touch (even overlapping), a static and a dynamic do.
    int s1 = wh_add_box(w, 100, 100, 10, 10, true, NULL, 0);
    int s2 = wh_add_box(w, 105, 105, 10, 10, true, NULL, 0);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s1, s2), 0);
    int d = wh_add_box(w, 108, 108, 1, 1, false, NULL, 0);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s1, d), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s2, d), 1);
    // Statics may be moved.
    cw_transform t = wh_at(300, 300);
    wr_set_transform(w, s1, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, s1, d), 1);
    t = wh_at(101, 101);
    wr_set_transform(w, s1, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s1, d), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s1, s2), 0);
    cw_world_stats st = cw_world_get_stats(wr_cw(w));
    assert_int_equal(st.bodies, 5);
    assert_int_equal(st.static_bodies, 2);
    wh_finish(w);
}

// --- callbacks that change the world ---

enum { TAG_PLAIN = 0, TAG_BULLET = 1, TAG_KILL_ON_STAY = 2, TAG_KILL_ON_END = 3 };

// Destroys bullets on their first begin, kill-on-stay bodies on their first stay, kill-on-end
// bodies on their first end.
static void killer_hook(wr_world *w, int phase, const cw_contact *c, void *context)
{
    (void)context;
    int hs[2] = {wr_handle_of(w, c->a), wr_handle_of(w, c->b)};
    for (int k = 0; k < 2; k++) {
        int h = hs[k];
        if (h < 0 || !wr_is_live(w, h))
            continue;
        int tag = wr_tag(w, h);
        if ((phase == WR_BEGIN && tag == TAG_BULLET) || (phase == WR_STAY && tag == TAG_KILL_ON_STAY) ||
            (phase == WR_END && tag == TAG_KILL_ON_END))
            wr_body_destroy(w, h);
    }
}

static void test_callback_destroys(void **state)
{
    (void)state;
    wr_world *w = wh_make_world("callback destroys", killer_hook, NULL);
    // A bullet with the lowest index hits two targets: (X, Y1) begins and destroys X, so the begin
    // of (X, Y2) is dropped and no end is owed for it.
    int x = wh_add_box(w, -1, 4, 32, 2, false, &wh_users[10], TAG_BULLET);
    int y1 = wh_add_box(w, 0, 0, 10, 10, false, &wh_users[11], TAG_PLAIN);
    int y2 = wh_add_box(w, 20, 0, 10, 10, false, &wh_users[12], TAG_PLAIN);
    cw_body_id old_x = wr_id(w, x);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, x, y1), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, x, y2), 0);
    assert_false(cw_body_is_valid(wr_cw(w), old_x));
    STEP(w); // the end of (X, Y1) with X's old id and user data; none for (X, Y2)
    assert_int_equal(wr_count_events(w, WR_END, x, y1), 1);
    assert_int_equal(wr_count_events(w, WR_END, x, y2), 0);
    const cw_contact *c = find_event(w, WR_END, x, y1);
    assert_non_null(c);
    assert_int_equal(c->a.index, old_x.index);
    assert_int_equal(c->a.generation, old_x.generation);
    assert_ptr_equal(c->user_a, &wh_users[10]);
    assert_ptr_equal(c->user_b, &wh_users[11]);
    STEP(w);
    int n;
    (void)wr_events(w, &n);
    assert_int_equal(n, 0);

    // A bullet with the highest index (the slot X left is reused first, so make two bodies).
    int filler = wh_add_box(w, 500, 500, 1, 1, false, NULL, TAG_PLAIN);
    int x2 = wh_add_box(w, -1, 4, 32, 2, false, &wh_users[13], TAG_BULLET);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, y1, x2), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, y2, x2), 0);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, y1, x2), 1);
    (void)filler;

    // Two bullets hitting each other: both destroyed by the one begin; one end next step.
    int b1 = wh_add_box(w, 1000, 0, 5, 5, false, &wh_users[14], TAG_BULLET);
    int b2 = wh_add_box(w, 1002, 2, 5, 5, false, &wh_users[15], TAG_BULLET);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, b1, b2), 1);
    assert_false(wr_is_live(w, b1) || wr_is_live(w, b2));
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, b1, b2), 1);

    // A body destroyed by its first stay: its later stays in that step are dropped, and all its
    // pairs end in the next step.
    int p = wh_add_box(w, 2000, 0, 10, 10, false, &wh_users[16], TAG_PLAIN);
    int q = wh_add_box(w, 2020, 0, 10, 10, false, &wh_users[17], TAG_PLAIN);
    int z = wh_add_box(w, 2005, 2, 20, 2, false, &wh_users[18], TAG_KILL_ON_STAY);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, p, z), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, q, z), 1);
    STEP(w);
    assert_int_equal(wh_count_phase(w, WR_STAY), 1); // the first of the two
    assert_false(wr_is_live(w, z));
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, p, z), 1);
    assert_int_equal(wr_count_events(w, WR_END, q, z), 1);

    // A body destroyed by its first end, with a second end in the same step: the harness accepts
    // the second end now or in the next step, but exactly once.
    int r = wh_add_box(w, 3000, 0, 30, 2, false, &wh_users[19], TAG_KILL_ON_END);
    int s = wh_add_box(w, 3000, 0, 5, 5, false, &wh_users[20], TAG_PLAIN);
    int u = wh_add_box(w, 3020, 0, 5, 5, false, &wh_users[21], TAG_PLAIN);
    STEP(w);
    assert_int_equal(wh_count_phase(w, WR_BEGIN), 2);
    cw_transform t = wh_at(4000, 0);
    wr_set_transform(w, r, &t);
    STEP(w);
    assert_false(wr_is_live(w, r));
    STEP(w);
    STEP(w);
    (void)s;
    (void)u;
    wh_finish(w);
}

// Moves, shape and filter changes, user data and creations made inside callbacks count from the
// next step; a body created in a callback has its begins in the next step.
typedef struct change_script {
    int a, b;      // the pair the script reacts to
    int made;      // body created from a callback, or -1
    int action;    // what to do on the next begin of (a, b)
} change_script;

static void change_hook(wr_world *w, int phase, const cw_contact *c, void *context)
{
    change_script *s = context;
    if (phase != WR_BEGIN)
        return;
    int ha = wr_handle_of(w, c->a), hb = wr_handle_of(w, c->b);
    if (!((ha == s->a && hb == s->b) || (ha == s->b && hb == s->a)))
        return;
    cw_transform t;
    switch (s->action) {
    case 0: // move B away
        t = wh_at(900, 900);
        wr_set_transform(w, s->b, &t);
        break;
    case 1: { // create a body touching A
        cw_body_def def = cw_default_body_def();
        def.shape = cw_shape_box(2, 2);
        def.transform = wh_at(1, 1);
        def.user_data = &wh_users[30];
        ref_shape ref = ref_box(2, 2);
        s->made = wr_body_create(w, &def, &ref, TAG_PLAIN);
        break;
    }
    case 2: { // shrink A out of reach
        cw_shape tiny = cw_shape_box(0.25f, 0.25f);
        ref_shape ref = ref_box(0.25, 0.25);
        wr_set_shape(w, s->a, &tiny, &ref);
        break;
    }
    case 3: // filter B out
        wr_set_filter(w, s->b, 2, 2);
        break;
    case 4: // new user data: this step's events keep the old, the next step's have the new
        wr_set_user(w, s->a, &wh_users[31]);
        wr_set_user(w, s->b, &wh_users[32]);
        break;
    case 5: // destroy B and create another body in (probably) its slot, touching A
        wr_body_destroy(w, s->b);
        {
            cw_body_def def = cw_default_body_def();
            def.shape = cw_shape_box(3, 3);
            def.transform = wh_at(2, 2);
            def.user_data = &wh_users[33];
            ref_shape ref = ref_box(3, 3);
            s->made = wr_body_create(w, &def, &ref, TAG_PLAIN);
        }
        break;
    }
    s->action = -1;
}

static void test_callback_changes(void **state)
{
    (void)state;
    change_script s = {-1, -1, -1, -1};
    wr_world *w = wh_make_world("callback changes", change_hook, &s);
    s.a = wh_add_box(w, 0, 0, 10, 10, false, &wh_users[0], 0);
    s.b = wh_add_box(w, 5, 5, 10, 10, false, &wh_users[1], 0);
    int other = wh_add_box(w, 9, 9, 3, 3, false, &wh_users[2], 0); // touches both
    s.action = 0;
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.b), 1);
    STEP(w); // moved in the callback: ends now
    assert_int_equal(wr_count_events(w, WR_END, s.a, s.b), 1);
    assert_int_equal(wr_count_events(w, WR_END, s.b, other), 1);

    cw_transform t = wh_at(5, 5);
    wr_set_transform(w, s.b, &t);
    s.action = 1;
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.b), 1);
    assert_true(s.made >= 0);
    assert_int_equal(wh_count_phase(w, WR_BEGIN), 2); // (a, b), (b, other): the new body is not in this step
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.made), 1);

    t = wh_at(900, 900);
    wr_set_transform(w, s.b, &t);
    STEP(w);
    t = wh_at(5, 5);
    wr_set_transform(w, s.b, &t);
    s.action = 2;
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.b), 1);
    STEP(w); // A is a 0.25 box at the origin now: it no longer touches B or other
    assert_int_equal(wr_count_events(w, WR_END, s.a, s.b), 1);
    assert_int_equal(wr_count_events(w, WR_END, s.a, other), 1);

    cw_shape box = cw_shape_box(10, 10);
    ref_shape box_ref = ref_box(10, 10);
    wr_set_shape(w, s.a, &box, &box_ref);
    wr_set_filter(w, s.b, 1, UINT32_MAX);
    t = wh_at(900, 900);
    wr_set_transform(w, s.b, &t);
    STEP(w);
    t = wh_at(5, 5);
    wr_set_transform(w, s.b, &t);
    s.action = 3;
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.b), 1);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, s.a, s.b), 1);

    wr_set_filter(w, s.b, 1, UINT32_MAX);
    t = wh_at(900, 900);
    wr_set_transform(w, s.b, &t);
    STEP(w);
    t = wh_at(5, 5);
    wr_set_transform(w, s.b, &t);
    s.action = 4;
    STEP(w); // the reference checks that the begins of this step carry the old user data
    STEP(w);
    const cw_contact *c = find_event(w, WR_STAY, s.a, s.b);
    assert_non_null(c);
    assert_ptr_equal(c->user_a, wr_id(w, s.a).index < wr_id(w, s.b).index ? &wh_users[31] : &wh_users[32]);

    // Destroy and re-create from a callback: the old pair ends and the new one begins in the next step.
    t = wh_at(900, 900);
    wr_set_transform(w, s.b, &t);
    STEP(w);
    t = wh_at(5, 5);
    wr_set_transform(w, s.b, &t);
    int old_b = s.b;
    s.action = 5;
    STEP(w);
    assert_false(wr_is_live(w, old_b));
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, s.a, old_b), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.made), 1);
    wh_finish(w);
}

// --- stays without begins ---

// A world with on_stay but no on_begin: the first stay's manifold must be the pair's, although no
// begin asked for one.
typedef struct stay_log {
    int stays;
    cw_manifold last;
} stay_log;

static void log_stay(const cw_contact *c, void *context)
{
    stay_log *log = context;
    log->stays++;
    log->last = c->manifold;
}

static void test_stays_without_begins(void **state)
{
    (void)state;
    stay_log log = {0, {{0, 0}, {0, 0}, 0}};
    cw_world_def wd = cw_default_world_def();
    wd.on_stay = log_stay;
    wd.context = &log;
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_body_def a = cw_default_body_def(), b = cw_default_body_def();
    a.shape = cw_shape_box(10, 10);
    b.shape = cw_shape_box(10, 10);
    b.transform = wh_at(5, 0);
    assert_false(cw_body_id_is_null(cw_body_create(w, &a)));
    assert_false(cw_body_id_is_null(cw_body_create(w, &b)));
    cw_world_step(w); // begins (not reported)
    cw_world_step(w); // nothing changed: the stay carries the manifold kept from the begin
    assert_int_equal(log.stays, 1);
    cw_manifold want;
    assert_true(cw_overlap(&a.shape, &a.transform, &b.shape, &b.transform, &want));
    assert_memory_equal(&log.last, &want, sizeof want);
    cw_world_destroy(w);
}

const struct CMUnitTest world_change_tests[] = {
    cmocka_unit_test(test_begins_in_same_step),
    cmocka_unit_test(test_filters_and_statics),
    cmocka_unit_test(test_callback_destroys),
    cmocka_unit_test(test_callback_changes),
    cmocka_unit_test(test_stays_without_begins),
};
