// The world's API on small hand-made scenes: defaults, events in the very step of a change, callbacks
// that destroy, move, create and change bodies, stale and null ids, misuse with exact errors, and the
// getters. Every scene runs through the brute-force reference (world_ref.h), which checks the whole
// event stream after every step; the tests add the exact events they expect on top.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "suites.h"
#include "world_ref.h"

#define expect_error(word) expect_error_at((word), __FILE__, __LINE__)

static void expect_error_at(const char *word, const char *file, int line)
{
    const char *e = cw_last_error();
    if (e == NULL || e[0] == '\0' || !gen_contains_nocase(e, word) || strchr(e, '\n') != NULL) {
        printf("  %s:%d: expected an error message mentioning \"%s\", got \"%s\"\n", file, line, word, e ? e : "(NULL)");
        fail_msg("missing or unexpected error message");
    }
}

static void expect_no_error_at(const char *file, int line)
{
    const char *e = cw_last_error();
    if (e == NULL || e[0] != '\0') {
        printf("  %s:%d: expected no error, got \"%s\"\n", file, line, e ? e : "(NULL)");
        fail_msg("unexpected error");
    }
}
#define expect_no_error() expect_no_error_at(__FILE__, __LINE__)

// Runs one checked step and fails the test at once if the reference found anything.
#define STEP(w) step_at((w), __FILE__, __LINE__)
static void step_at(wr_world *w, const char *file, int line)
{
    if (!wr_step(w)) {
        printf("  %s:%d: the step above failed the reference checks\n", file, line);
        fail_msg("world step disagrees with the reference");
    }
}

static char users[64]; // user data pointers: &users[k]

static cw_transform at(float x, float y)
{
    cw_transform t = cw_default_transform();
    t.position = (cw_vec2){x, y};
    return t;
}

// Adds a w x h box with its corner at (x, y).
static int add_box(wr_world *w, float x, float y, float bw, float bh, bool is_static, void *user, int tag)
{
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box(bw, bh);
    def.transform = at(x, y);
    def.is_static = is_static;
    def.user_data = user;
    ref_shape ref = ref_box(bw, bh);
    int h = wr_body_create(w, &def, &ref, tag);
    assert_true(h >= 0);
    return h;
}

static wr_world *make_world(const char *name, wr_hook_fn *hook, void *context)
{
    wr_options o;
    memset(&o, 0, sizeof o);
    o.name = name;
    o.hook = hook;
    o.hook_context = context;
    wr_world *w = wr_create(&o);
    assert_non_null(w);
    return w;
}

static void finish(wr_world *w)
{
    int failures = wr_failures(w);
    wr_destroy(w);
    assert_int_equal(failures, 0);
}

static int count_phase(wr_world *w, int phase)
{
    int n, c = 0;
    const wr_event *e = wr_events(w, &n);
    for (int k = 0; k < n; k++)
        c += e[k].phase == phase;
    return c;
}

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

// --- defaults ---

static void test_defaults(void **state)
{
    (void)state;
    cw_world_def wd = cw_default_world_def();
    assert_true(wd.cell_size == 0.0f);
    assert_null(wd.on_begin);
    assert_null(wd.on_stay);
    assert_null(wd.on_end);
    assert_null(wd.context);
    cw_body_def bd = cw_default_body_def();
    assert_int_equal(bd.shape.type, CW_SHAPE_BOX);
    assert_true(bd.shape.size.x == 1.0f && bd.shape.size.y == 1.0f);
    assert_null(bd.shape.mask);
    cw_transform id = cw_default_transform();
    assert_memory_equal(&bd.transform, &id, sizeof id);
    assert_int_equal(bd.category, 1);
    assert_int_equal(bd.collides_with, UINT32_MAX);
    assert_false(bd.is_static);
    assert_null(bd.user_data);
    assert_true(cw_body_id_is_null((cw_body_id){0, 0}));
    assert_false(cw_body_id_is_null((cw_body_id){1, 0}));
    assert_false(cw_body_id_is_null((cw_body_id){0, 1}));
    assert_false(cw_body_id_is_null((cw_body_id){1, 1}));
    // An empty world steps and reports nothing.
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_clear_error();
    for (int k = 0; k < 3; k++)
        cw_world_step(w);
    expect_no_error();
    cw_world_stats st = cw_world_get_stats(w);
    assert_int_equal(st.bodies, 0);
    assert_int_equal(st.touching_pairs, 0);
    assert_int_equal(st.begin_events + st.stay_events + st.end_events, 0);
    assert_true(st.cell_size > 0 && isfinite(st.cell_size));
    // Two default bodies (both 1 x 1 boxes at the origin) touch; without callbacks nothing is called.
    cw_body_id a = cw_body_create(w, &bd), b = cw_body_create(w, &bd);
    assert_false(cw_body_id_is_null(a));
    assert_false(cw_body_id_is_null(b));
    assert_true(a.index >= 1 && a.generation >= 1 && b.index >= 1 && b.generation >= 1);
    assert_true(a.index != b.index);
    cw_world_step(w);
    st = cw_world_get_stats(w);
    assert_int_equal(st.bodies, 2);
    assert_int_equal(st.static_bodies, 0);
    assert_int_equal(st.touching_pairs, 1);
    cw_world_destroy(w);
    expect_no_error();
}

// --- events in the very step of a change ---

static void test_begins_in_same_step(void **state)
{
    (void)state;
    wr_world *w = make_world("same step", NULL, NULL);
    int a = add_box(w, 0, 0, 10, 10, false, &users[0], 0);
    int b = add_box(w, 5, 5, 10, 10, false, &users[1], 0);
    STEP(w); // created before the step: the begin is in this step
    assert_int_equal(wr_count_events(w, WR_BEGIN, a, b), 1);
    const cw_contact *c = find_event(w, WR_BEGIN, a, b);
    assert_non_null(c);
    assert_ptr_equal(c->user_a, &users[0]);
    assert_ptr_equal(c->user_b, &users[1]);
    // Box-box manifold: the overlap is [5, 10] x [5, 10], centroid (7.5, 7.5), depth 5.
    assert_float_equal(c->manifold.point.x, 7.5, 1e-4);
    assert_float_equal(c->manifold.point.y, 7.5, 1e-4);
    assert_float_equal(c->manifold.depth, 5, 1e-4);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_STAY, a, b), 1);
    assert_int_equal(count_phase(w, WR_BEGIN) + count_phase(w, WR_END), 0);

    // Edges that only touch do not touch: moving B so its left edge is A's right edge ends the pair.
    cw_transform t = at(10, 0);
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, a, b), 1);
    t = at(10, 10); // corners only
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(count_phase(w, WR_BEGIN) + count_phase(w, WR_END) + count_phase(w, WR_STAY), 0);
    // Moved back into overlap (by a hundredth): the begin is in this very step.
    t = at(9.99f, 0);
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, a, b), 1);
    // A teleport far away ends it in the next step; a teleport back begins it again at once.
    t = at(50000, 50000);
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, a, b), 1);
    STEP(w);
    assert_int_equal(count_phase(w, WR_END) + count_phase(w, WR_BEGIN) + count_phase(w, WR_STAY), 0);
    t = at(3, -4);
    wr_set_transform(w, b, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, a, b), 1);

    // A body created touching two others begins with both in the step it was created for.
    int c3 = add_box(w, 8, 0, 4, 4, false, &users[2], 0);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, a, c3), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, b, c3), 1);
    assert_int_equal(wr_count_events(w, WR_STAY, a, b), 1);

    // New user data shows in the next step's events.
    wr_set_user(w, b, &users[9]);
    STEP(w);
    c = find_event(w, WR_STAY, a, b);
    assert_non_null(c);
    assert_ptr_equal(wr_id(w, a).index < wr_id(w, b).index ? c->user_b : c->user_a, &users[9]);

    // Destroying A ends its two pairs in the next step, with A's old id and user data.
    cw_body_id old_a = wr_id(w, a);
    wr_body_destroy(w, a);
    STEP(w);
    assert_int_equal(count_phase(w, WR_END), 2);
    int n;
    const wr_event *e = wr_events(w, &n);
    for (int k = 0; k < n; k++)
        if (e[k].phase == WR_END) {
            const cw_contact *ec = &e[k].contact;
            bool a_first = ec->a.index == old_a.index;
            cw_body_id got = a_first ? ec->a : ec->b;
            assert_int_equal(got.generation, old_a.generation);
            assert_int_equal(got.index, old_a.index);
            assert_ptr_equal(a_first ? ec->user_a : ec->user_b, &users[0]);
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
    t = at(20, 20);
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
    assert_int_equal(count_phase(w, WR_BEGIN) + count_phase(w, WR_END), 0);
    assert_int_equal(wr_count_events(w, WR_STAY, b, c3), 1);
    finish(w);
}

// Filters (both ways) and static bodies.
static void test_filters_and_statics(void **state)
{
    (void)state;
    wr_world *w = make_world("filters", NULL, NULL);
    int a = add_box(w, 0, 0, 10, 10, false, NULL, 0);
    int b = add_box(w, 2, 2, 3, 3, false, NULL, 0);
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
    assert_int_equal(count_phase(w, WR_BEGIN) + count_phase(w, WR_END), 0);

    // Static bodies: two statics never touch (even overlapping), a static and a dynamic do.
    int s1 = add_box(w, 100, 100, 10, 10, true, NULL, 0);
    int s2 = add_box(w, 105, 105, 10, 10, true, NULL, 0);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s1, s2), 0);
    int d = add_box(w, 108, 108, 1, 1, false, NULL, 0);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s1, d), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s2, d), 1);
    // Statics may be moved.
    cw_transform t = at(300, 300);
    wr_set_transform(w, s1, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, s1, d), 1);
    t = at(101, 101);
    wr_set_transform(w, s1, &t);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s1, d), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s1, s2), 0);
    cw_world_stats st = cw_world_get_stats(wr_cw(w));
    assert_int_equal(st.bodies, 5);
    assert_int_equal(st.static_bodies, 2);
    finish(w);
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
    wr_world *w = make_world("callback destroys", killer_hook, NULL);
    // A bullet with the lowest index hits two targets: (X, Y1) begins and destroys X, so the begin
    // of (X, Y2) is dropped and no end is owed for it.
    int x = add_box(w, -1, 4, 32, 2, false, &users[10], TAG_BULLET);
    int y1 = add_box(w, 0, 0, 10, 10, false, &users[11], TAG_PLAIN);
    int y2 = add_box(w, 20, 0, 10, 10, false, &users[12], TAG_PLAIN);
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
    assert_ptr_equal(c->user_a, &users[10]);
    assert_ptr_equal(c->user_b, &users[11]);
    STEP(w);
    int n;
    (void)wr_events(w, &n);
    assert_int_equal(n, 0);

    // A bullet with the highest index (the slot X left is reused first, so make two bodies).
    int filler = add_box(w, 500, 500, 1, 1, false, NULL, TAG_PLAIN);
    int x2 = add_box(w, -1, 4, 32, 2, false, &users[13], TAG_BULLET);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, y1, x2), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, y2, x2), 0);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, y1, x2), 1);
    (void)filler;

    // Two bullets hitting each other: both destroyed by the one begin; one end next step.
    int b1 = add_box(w, 1000, 0, 5, 5, false, &users[14], TAG_BULLET);
    int b2 = add_box(w, 1002, 2, 5, 5, false, &users[15], TAG_BULLET);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, b1, b2), 1);
    assert_false(wr_is_live(w, b1) || wr_is_live(w, b2));
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, b1, b2), 1);

    // A body destroyed by its first stay: its later stays in that step are dropped, and all its
    // pairs end in the next step.
    int p = add_box(w, 2000, 0, 10, 10, false, &users[16], TAG_PLAIN);
    int q = add_box(w, 2020, 0, 10, 10, false, &users[17], TAG_PLAIN);
    int z = add_box(w, 2005, 2, 20, 2, false, &users[18], TAG_KILL_ON_STAY);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, p, z), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, q, z), 1);
    STEP(w);
    assert_int_equal(count_phase(w, WR_STAY), 1); // the first of the two
    assert_false(wr_is_live(w, z));
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, p, z), 1);
    assert_int_equal(wr_count_events(w, WR_END, q, z), 1);

    // A body destroyed by its first end, with a second end in the same step: the harness accepts
    // the second end now or in the next step, but exactly once.
    int r = add_box(w, 3000, 0, 30, 2, false, &users[19], TAG_KILL_ON_END);
    int s = add_box(w, 3000, 0, 5, 5, false, &users[20], TAG_PLAIN);
    int u = add_box(w, 3020, 0, 5, 5, false, &users[21], TAG_PLAIN);
    STEP(w);
    assert_int_equal(count_phase(w, WR_BEGIN), 2);
    cw_transform t = at(4000, 0);
    wr_set_transform(w, r, &t);
    STEP(w);
    assert_false(wr_is_live(w, r));
    STEP(w);
    STEP(w);
    (void)s;
    (void)u;
    finish(w);
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
        t = at(900, 900);
        wr_set_transform(w, s->b, &t);
        break;
    case 1: { // create a body touching A
        cw_body_def def = cw_default_body_def();
        def.shape = cw_shape_box(2, 2);
        def.transform = at(1, 1);
        def.user_data = &users[30];
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
        wr_set_user(w, s->a, &users[31]);
        wr_set_user(w, s->b, &users[32]);
        break;
    case 5: // destroy B and create another body in (probably) its slot, touching A
        wr_body_destroy(w, s->b);
        {
            cw_body_def def = cw_default_body_def();
            def.shape = cw_shape_box(3, 3);
            def.transform = at(2, 2);
            def.user_data = &users[33];
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
    wr_world *w = make_world("callback changes", change_hook, &s);
    s.a = add_box(w, 0, 0, 10, 10, false, &users[0], 0);
    s.b = add_box(w, 5, 5, 10, 10, false, &users[1], 0);
    int other = add_box(w, 9, 9, 3, 3, false, &users[2], 0); // touches both
    s.action = 0;
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.b), 1);
    STEP(w); // moved in the callback: ends now
    assert_int_equal(wr_count_events(w, WR_END, s.a, s.b), 1);
    assert_int_equal(wr_count_events(w, WR_END, s.b, other), 1);

    cw_transform t = at(5, 5);
    wr_set_transform(w, s.b, &t);
    s.action = 1;
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.b), 1);
    assert_true(s.made >= 0);
    assert_int_equal(count_phase(w, WR_BEGIN), 2); // (a, b), (b, other): the new body is not in this step
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.made), 1);

    t = at(900, 900);
    wr_set_transform(w, s.b, &t);
    STEP(w);
    t = at(5, 5);
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
    t = at(900, 900);
    wr_set_transform(w, s.b, &t);
    STEP(w);
    t = at(5, 5);
    wr_set_transform(w, s.b, &t);
    s.action = 3;
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.b), 1);
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, s.a, s.b), 1);

    wr_set_filter(w, s.b, 1, UINT32_MAX);
    t = at(900, 900);
    wr_set_transform(w, s.b, &t);
    STEP(w);
    t = at(5, 5);
    wr_set_transform(w, s.b, &t);
    s.action = 4;
    STEP(w); // the reference checks that the begins of this step carry the old user data
    STEP(w);
    const cw_contact *c = find_event(w, WR_STAY, s.a, s.b);
    assert_non_null(c);
    assert_ptr_equal(c->user_a, wr_id(w, s.a).index < wr_id(w, s.b).index ? &users[31] : &users[32]);

    // Destroy and re-create from a callback: the old pair ends and the new one begins in the next step.
    t = at(900, 900);
    wr_set_transform(w, s.b, &t);
    STEP(w);
    t = at(5, 5);
    wr_set_transform(w, s.b, &t);
    int old_b = s.b;
    s.action = 5;
    STEP(w);
    assert_false(wr_is_live(w, old_b));
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, s.a, old_b), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, s.a, s.made), 1);
    finish(w);
}

// --- stale and null ids ---

static void expect_rejected(cw_world *w, cw_body_id id, const char *word)
{
    cw_transform good = at(1, 2);
    cw_shape shape = cw_shape_box(2, 2);
    cw_clear_error();
    assert_false(cw_body_is_valid(w, id));
    expect_no_error(); // no error is recorded either way
    cw_clear_error();
    assert_false(cw_body_set_transform(w, id, &good));
    expect_error(word);
    cw_clear_error();
    assert_false(cw_body_set_shape(w, id, &shape));
    expect_error(word);
    cw_clear_error();
    assert_false(cw_body_set_filter(w, id, 1, 1));
    expect_error(word);
    cw_clear_error();
    assert_false(cw_body_set_user_data(w, id, &users[5]));
    expect_error(word);
    cw_clear_error();
    cw_transform t = cw_body_transform(w, id);
    cw_transform identity = cw_default_transform();
    assert_memory_equal(&t, &identity, sizeof t);
    expect_error(word);
    cw_clear_error();
    cw_shape s = cw_body_shape(w, id);
    assert_int_equal(s.type, 0);
    assert_true(s.size.x == 0 && s.size.y == 0);
    assert_null(s.mask);
    expect_error(word);
    cw_clear_error();
    assert_null(cw_body_user_data(w, id));
    expect_error(word);
    cw_clear_error();
    uint32_t cat = 77, col = 77;
    assert_false(cw_body_filter(w, id, &cat, &col));
    expect_error(word);
    cw_clear_error();
    assert_false(cw_body_is_static(w, id));
    expect_error(word);
    cw_clear_error();
    cw_aabb box;
    assert_false(cw_body_aabb(w, id, &box));
    expect_error(word);
    cw_clear_error();
    cw_body_destroy(w, id);
    expect_error(word);
}

static void test_stale_ids(void **state)
{
    (void)state;
    wr_world *w = make_world("stale ids", NULL, NULL);
    cw_world *cw = wr_cw(w);
    int a = add_box(w, 0, 0, 10, 10, false, &users[0], 0);
    int b = add_box(w, 5, 5, 10, 10, true, &users[1], 0);
    STEP(w);
    cw_body_id old_a = wr_id(w, a);
    wr_body_destroy(w, a);
    int c = add_box(w, 1, 1, 10, 10, false, &users[2], 0); // likely in A's slot
    cw_body_id id_c = wr_id(w, c);
    if (id_c.index == old_a.index)
        assert_true(id_c.generation != old_a.generation);
    else
        printf("  note: the new body did not reuse the freed slot (%u vs %u)\n", id_c.index, old_a.index);
    expect_rejected(cw, old_a, "stale");
    // None of that touched C.
    cw_transform tc = cw_body_transform(cw, id_c);
    assert_true(tc.position.x == 1.0f && tc.position.y == 1.0f);
    assert_ptr_equal(cw_body_user_data(cw, id_c), &users[2]);
    assert_true(cw_body_is_valid(cw, id_c));
    STEP(w); // end (A, B) with A's old id, begin (B, C); the stale calls changed nothing
    assert_int_equal(wr_count_events(w, WR_END, a, b), 1);
    assert_int_equal(wr_count_events(w, WR_BEGIN, b, c), 1);
    expect_rejected(cw, old_a, "stale");
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_STAY, b, c), 1);
    assert_int_equal(count_phase(w, WR_END), 0);
    // Null id and ids that never existed.
    expect_rejected(cw, (cw_body_id){0, 0}, "null");
    expect_rejected(cw, (cw_body_id){id_c.index, 0}, "stale");
    expect_rejected(cw, (cw_body_id){id_c.index, id_c.generation + 1}, "stale");
    expect_rejected(cw, (cw_body_id){id_c.index + 1000, 1}, "stale");
    expect_rejected(cw, (cw_body_id){UINT32_MAX, UINT32_MAX}, "stale");
    expect_rejected(cw, (cw_body_id){0, 1}, "stale");
    STEP(w);
    assert_int_equal(count_phase(w, WR_END) + count_phase(w, WR_BEGIN), 0);
    // A body destroyed twice: the second destroy is a no-op with an error.
    wr_body_destroy(w, c);
    cw_clear_error();
    cw_body_destroy(cw, id_c);
    expect_error("stale");
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_END, b, c), 1);
    finish(w);
}

// Many destroy/create cycles: every id is new, old ones stay invalid; a new world given the same
// calls hands out the same ids.
static void test_id_reuse(void **state)
{
    (void)state;
    enum { N = 40, CYCLES = 600 };
    cw_body_id first[N], again[N];
    for (int round = 0; round < 2; round++) {
        cw_body_id ids[N];
        cw_world_def wd = cw_default_world_def();
        cw_world *w = cw_world_create(&wd);
        assert_non_null(w);
        cw_body_def def = cw_default_body_def();
        for (int k = 0; k < N; k++) {
            def.transform = at((float)(3 * k), 0);
            ids[k] = cw_body_create(w, &def);
            assert_false(cw_body_id_is_null(ids[k]));
        }
        memcpy(round ? again : first, ids, sizeof ids);
        if (round == 1)
            assert_memory_equal(first, again, sizeof first);
        cw_world_step(w);
        // Cycle one slot (and sometimes several) many times.
        static cw_body_id seen[CYCLES + N];
        int n_seen = 0;
        for (int k = 0; k < N; k++)
            seen[n_seen++] = ids[k];
        gen_rng r = gen_seed(77);
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            int k = gen_int(&r, 0, N - 1);
            cw_body_id old = ids[k];
            cw_body_destroy(w, old);
            assert_false(cw_body_is_valid(w, old));
            def.transform = at((float)(3 * k), 0);
            ids[k] = cw_body_create(w, &def);
            assert_false(cw_body_id_is_null(ids[k]));
            assert_true(ids[k].index >= 1 && ids[k].generation >= 1);
            for (int j = 0; j < n_seen; j++)
                assert_false(seen[j].index == ids[k].index && seen[j].generation == ids[k].generation);
            seen[n_seen++] = ids[k];
            if (cycle % 50 == 0)
                cw_world_step(w);
        }
        int valid = 0;
        for (int j = 0; j < n_seen; j++)
            valid += cw_body_is_valid(w, seen[j]);
        assert_int_equal(valid, N);
        cw_world_step(w);
        assert_int_equal(cw_world_get_stats(w).bodies, N);
        cw_world_destroy(w);
    }
}

// --- misuse ---

static void test_null_arguments(void **state)
{
    (void)state;
    cw_body_def def = cw_default_body_def();
    cw_body_id some = {1, 1};
    cw_transform t = cw_default_transform();
    cw_shape s = cw_shape_box(1, 1);
    cw_clear_error();
    assert_null(cw_world_create(NULL));
    expect_error("NULL");
    cw_clear_error();
    cw_world_destroy(NULL); // ignored
    cw_clear_error();
    cw_world_step(NULL);
    expect_error("NULL");
    cw_world_stats st = cw_world_get_stats(NULL);
    assert_int_equal(st.bodies + st.static_bodies + st.touching_pairs + st.begin_events + st.end_events, 0);
    assert_true(st.cell_size == 0 && st.broad_ms == 0);
    cw_clear_error();
    assert_true(cw_body_id_is_null(cw_body_create(NULL, &def)));
    expect_error("NULL");
    cw_clear_error();
    cw_body_destroy(NULL, some);
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_is_valid(NULL, some));
    expect_no_error();
    cw_clear_error();
    assert_false(cw_body_set_transform(NULL, some, &t));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_set_shape(NULL, some, &s));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_set_filter(NULL, some, 1, 1));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_set_user_data(NULL, some, NULL));
    expect_error("NULL");
    cw_clear_error();
    cw_transform got = cw_body_transform(NULL, some);
    assert_memory_equal(&got, &t, sizeof t);
    expect_error("NULL");
    cw_clear_error();
    assert_int_equal(cw_body_shape(NULL, some).type, 0);
    expect_error("NULL");
    cw_clear_error();
    assert_null(cw_body_user_data(NULL, some));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_filter(NULL, some, NULL, NULL));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_is_static(NULL, some));
    expect_error("NULL");
    cw_aabb box;
    cw_clear_error();
    assert_false(cw_body_aabb(NULL, some, &box));
    expect_error("NULL");

    // NULL def, transform, shape with a real world and body.
    cw_world_def wd = cw_default_world_def();
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    cw_clear_error();
    assert_true(cw_body_id_is_null(cw_body_create(w, NULL)));
    expect_error("NULL");
    def.transform = at(3, 4);
    cw_body_id id = cw_body_create(w, &def);
    assert_false(cw_body_id_is_null(id));
    cw_clear_error();
    assert_false(cw_body_set_transform(w, id, NULL));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_body_set_shape(w, id, NULL));
    expect_error("NULL");
    uint32_t cat = 0, col = 0;
    assert_true(cw_body_filter(w, id, NULL, NULL));
    assert_true(cw_body_filter(w, id, &cat, NULL));
    assert_int_equal(cat, 1);
    assert_true(cw_body_filter(w, id, NULL, &col));
    assert_int_equal(col, UINT32_MAX);
    cw_clear_error();
    assert_false(cw_body_aabb(w, id, NULL));
    expect_error("NULL");
    got = cw_body_transform(w, id);
    assert_true(got.position.x == 3.0f && got.position.y == 4.0f);
    cw_clear_error();
    cw_world_step(w);
    expect_no_error();
    assert_int_equal(cw_world_get_stats(w).bodies, 1);
    cw_world_destroy(w);
}

static void test_invalid_shapes_and_transforms(void **state)
{
    (void)state;
    wr_world *w = make_world("invalid input", NULL, NULL);
    cw_world *cw = wr_cw(w);
    int a = add_box(w, 0, 0, 10, 10, false, &users[0], 0);
    int b = add_box(w, 5, 5, 4, 4, false, &users[1], 0);
    STEP(w);
    cw_transform ta = wr_transform(w, a);
    cw_shape sa = cw_body_shape(cw, wr_id(w, a));
    uint8_t opaque = 255;
    cw_mask *mask = cw_mask_from_alpha(&opaque, 1, 1, 1, 128);
    assert_non_null(mask);

    struct bad_shape {
        cw_shape shape;
        const char *word;
    } shapes[] = {
        {cw_shape_box(0, 1), "box"},         {cw_shape_box(1, -0.0f), "box"},   {cw_shape_box(-3, 2), "box"},
        {cw_shape_box(NAN, 1), "box"},       {cw_shape_box(1, INFINITY), "box"}, {cw_shape_box(-INFINITY, 1), "box"},
        {cw_shape_mask(NULL), "mask"},       {cw_shape_box(1, 1), "type"},      {cw_shape_box(1, 1), "type"},
    };
    shapes[7].shape.type = (cw_shape_type)7;
    shapes[8].shape.type = (cw_shape_type)0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        cw_body_def def = cw_default_body_def();
        def.shape = shapes[k].shape;
        cw_clear_error();
        assert_true(cw_body_id_is_null(cw_body_create(cw, &def)));
        expect_error(shapes[k].word);
        cw_clear_error();
        assert_false(cw_body_set_shape(cw, wr_id(w, a), &shapes[k].shape));
        expect_error(shapes[k].word);
        cw_shape now = cw_body_shape(cw, wr_id(w, a)); // unchanged
        assert_true(now.type == sa.type && now.size.x == sa.size.x && now.size.y == sa.size.y && now.mask == sa.mask);
    }
    static const float bad_values[] = {NAN, INFINITY, -INFINITY};
    for (int field = 0; field < 7; field++)
        for (size_t v = 0; v < 3; v++) {
            cw_transform bad = cw_default_transform();
            float *f[7] = {&bad.position.x, &bad.position.y, &bad.rotation, &bad.scale.x,
                           &bad.scale.y,    &bad.origin.x,   &bad.origin.y};
            *f[field] = bad_values[v];
            cw_body_def def = cw_default_body_def();
            def.transform = bad;
            cw_clear_error();
            assert_true(cw_body_id_is_null(cw_body_create(cw, &def)));
            expect_error("finite");
            def.shape = cw_shape_mask(mask);
            cw_clear_error();
            assert_true(cw_body_id_is_null(cw_body_create(cw, &def)));
            expect_error("finite");
            cw_clear_error();
            assert_false(cw_body_set_transform(cw, wr_id(w, a), &bad));
            expect_error("finite");
            cw_transform now = cw_body_transform(cw, wr_id(w, a));
            assert_memory_equal(&now, &ta, sizeof now);
        }
    static const float zeros[] = {0.0f, -0.0f};
    for (int axis = 0; axis < 2; axis++)
        for (int z = 0; z < 2; z++) {
            cw_transform bad = cw_default_transform();
            if (axis)
                bad.scale.y = zeros[z];
            else
                bad.scale.x = zeros[z];
            cw_body_def def = cw_default_body_def();
            def.transform = bad;
            cw_clear_error();
            assert_true(cw_body_id_is_null(cw_body_create(cw, &def)));
            expect_error("scale");
            cw_clear_error();
            assert_false(cw_body_set_transform(cw, wr_id(w, b), &bad));
            expect_error("scale");
        }
    // The failed calls changed nothing: the pair stays, nothing begins or ends, no body was added.
    STEP(w);
    assert_int_equal(wr_count_events(w, WR_STAY, a, b), 1);
    assert_int_equal(count_phase(w, WR_BEGIN) + count_phase(w, WR_END), 0);
    assert_int_equal(cw_world_get_stats(cw).bodies, 2);
    finish(w);
    cw_mask_destroy(mask);
}

static void test_cell_size_errors(void **state)
{
    (void)state;
    // Below CW_MIN_CELL_SIZE the grid's reciprocal would overflow (the smallest denormal did).
    static const float bad[] = {-1.0f, -1e-30f, -INFINITY, INFINITY, NAN, -NAN, 1e-45f, 1e-30f, 9.9e-4f};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        cw_world_def def = cw_default_world_def();
        def.cell_size = bad[k];
        cw_clear_error();
        assert_null(cw_world_create(&def));
        expect_error("cell");
    }
    static const float good[] = {0.0f, -0.0f, 1e-3f, 1.0f, 64.0f, 1e6f};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        cw_world_def def = cw_default_world_def();
        def.cell_size = good[k];
        cw_clear_error();
        cw_world *w = cw_world_create(&def);
        assert_non_null(w);
        expect_no_error();
        cw_body_def bd = cw_default_body_def();
        bd.shape = cw_shape_box(3, 3);
        assert_false(cw_body_id_is_null(cw_body_create(w, &bd)));
        bd.transform = at(2, 2);
        assert_false(cw_body_id_is_null(cw_body_create(w, &bd)));
        cw_world_step(w);
        expect_no_error();
        cw_world_stats st = cw_world_get_stats(w);
        assert_int_equal(st.touching_pairs, 1);
        if (good[k] > 0)
            assert_true(st.cell_size == good[k]);
        else
            assert_true(st.cell_size > 0);
        cw_world_destroy(w);
    }
}

// cw_world_step and cw_world_destroy from inside callbacks fail, and the outer step completes.
typedef struct nested {
    int tries, step_ok, destroy_ok;
} nested;

static void nested_hook(wr_world *w, int phase, const cw_contact *c, void *context)
{
    (void)c;
    (void)phase;
    nested *n = context;
    n->tries++;
    cw_clear_error();
    cw_world_step(wr_cw(w));
    n->step_ok += gen_contains_nocase(cw_last_error(), "callback");
    cw_clear_error();
    cw_world_destroy(wr_cw(w));
    n->destroy_ok += gen_contains_nocase(cw_last_error(), "callback");
    cw_clear_error();
}

static void test_step_and_destroy_in_callback(void **state)
{
    (void)state;
    nested n = {0, 0, 0};
    wr_world *w = make_world("nested step", nested_hook, &n);
    int a = add_box(w, 0, 0, 10, 10, false, NULL, 0);
    int b = add_box(w, 5, 5, 10, 10, false, NULL, 0);
    int c = add_box(w, 8, 8, 10, 10, false, NULL, 0);
    STEP(w); // three begins, each trying a nested step and a destroy
    assert_int_equal(n.tries, 3);
    assert_int_equal(n.step_ok, 3);
    assert_int_equal(n.destroy_ok, 3);
    assert_int_equal(count_phase(w, WR_BEGIN), 3);
    STEP(w); // stays
    assert_int_equal(count_phase(w, WR_STAY), 3);
    cw_transform t = at(100, 100);
    wr_set_transform(w, c, &t);
    STEP(w); // two ends, and a and b stay
    assert_int_equal(count_phase(w, WR_END), 2);
    assert_int_equal(count_phase(w, WR_STAY), 1);
    assert_int_equal(n.tries, 9);
    assert_int_equal(n.step_ok, 9);
    assert_int_equal(n.destroy_ok, 9);
    // The world is still fine.
    for (int k = 0; k < 5; k++) {
        t = at((float)k, 0);
        wr_set_transform(w, a, &t);
        STEP(w);
    }
    (void)b;
    finish(w);
}

// --- getters ---

static void expect_aabb_matches(cw_world *w, cw_body_id id, const cw_shape *s, const cw_transform *t)
{
    cw_aabb got, want;
    assert_true(cw_body_aabb(w, id, &got));
    assert_true(cw_shape_aabb(s, t, &want));
    if (!(got.min.x == want.min.x && got.min.y == want.min.y && got.max.x == want.max.x && got.max.y == want.max.y)) {
        printf("  cw_body_aabb (%a, %a)-(%a, %a) != cw_shape_aabb (%a, %a)-(%a, %a)\n", (double)got.min.x,
               (double)got.min.y, (double)got.max.x, (double)got.max.y, (double)want.min.x, (double)want.min.y,
               (double)want.max.x, (double)want.max.y);
        fail_msg("cw_body_aabb differs from cw_shape_aabb");
    }
}

static void test_getters(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0x6e77);
    cw_world_def wd = cw_default_world_def();
    cw_world *w = cw_world_create(&wd);
    assert_non_null(w);
    enum { N = 60 };
    gen_shape shapes[N];
    cw_body_id ids[N];
    cw_transform ts[N];
    uint32_t cats[N], cols[N];
    bool statics[N];
    int n_static = 0;
    for (int k = 0; k < N; k++) {
        if (k % 3 == 0)
            assert_true(gen_random_mask(&r, &shapes[k]));
        else
            gen_random_box(&r, &shapes[k]);
        gen_random_transform(&r, &shapes[k], &ts[k]);
        ts[k].position = (cw_vec2){(float)gen_range(&r, -500, 500), (float)gen_range(&r, -500, 500)};
        if (k % 10 == 9)
            ts[k].position.x += 50000.0f;
        cats[k] = (uint32_t)gen_next(&r);
        cols[k] = (uint32_t)gen_next(&r);
        statics[k] = gen_chance(&r, 0.3);
        n_static += statics[k];
        cw_body_def def = cw_default_body_def();
        def.shape = shapes[k].shape;
        def.transform = ts[k];
        def.category = cats[k];
        def.collides_with = cols[k];
        def.is_static = statics[k];
        def.user_data = &users[k % 64];
        cw_clear_error();
        ids[k] = cw_body_create(w, &def);
        assert_false(cw_body_id_is_null(ids[k]));
        expect_no_error();
    }
    for (int pass = 0; pass < 3; pass++) {
        for (int k = 0; k < N; k++) {
            cw_clear_error();
            cw_transform t = cw_body_transform(w, ids[k]);
            assert_memory_equal(&t, &ts[k], sizeof t);
            cw_shape s = cw_body_shape(w, ids[k]);
            assert_int_equal(s.type, shapes[k].shape.type);
            assert_true(s.size.x == shapes[k].shape.size.x && s.size.y == shapes[k].shape.size.y);
            assert_ptr_equal(s.mask, shapes[k].shape.mask);
            uint32_t cat = 0, col = 0;
            assert_true(cw_body_filter(w, ids[k], &cat, &col));
            assert_int_equal(cat, cats[k]);
            assert_int_equal(col, cols[k]);
            assert_int_equal(cw_body_is_static(w, ids[k]), statics[k]);
            assert_ptr_equal(cw_body_user_data(w, ids[k]), &users[(k + pass) % 64]);
            expect_aabb_matches(w, ids[k], &shapes[k].shape, &ts[k]);
            expect_no_error();
        }
        cw_world_step(w);
        cw_world_stats st = cw_world_get_stats(w);
        assert_int_equal(st.bodies, N);
        assert_int_equal(st.static_bodies, n_static);
        // Change everything and read it back (after a step, and before the next).
        for (int k = 0; k < N; k++) {
            int j = (k + 7) % N;
            gen_random_transform(&r, &shapes[j], &ts[k]);
            ts[k].position = (cw_vec2){(float)gen_range(&r, -500, 500), (float)gen_range(&r, -500, 500)};
            assert_true(cw_body_set_transform(w, ids[k], &ts[k]));
            if (pass == 1) { // a shape swap: boxes and masks trade places
                gen_shape tmp = shapes[k];
                shapes[k] = shapes[j];
                shapes[j] = tmp;
            }
            cats[k] = (uint32_t)gen_next(&r);
            cols[k] = (uint32_t)gen_next(&r);
            assert_true(cw_body_set_filter(w, ids[k], cats[k], cols[k]));
            assert_true(cw_body_set_user_data(w, ids[k], &users[(k + pass + 1) % 64]));
        }
        if (pass == 1)
            for (int k = 0; k < N; k++)
                assert_true(cw_body_set_shape(w, ids[k], &shapes[k].shape));
    }
    // An empty mask: its AABB is the empty box at the position; it never touches.
    unsigned char *empty = calloc(16, 1);
    assert_non_null(empty);
    gen_shape e;
    assert_true(gen_mask_shape(&e, empty, 4, 4, GEN_EMPTY, 0, 1));
    cw_body_def def = cw_default_body_def();
    def.shape = e.shape;
    def.transform = at(7, 9);
    def.transform.rotation = 0.7f;
    def.transform.scale = (cw_vec2){3, -2};
    cw_body_id eid = cw_body_create(w, &def);
    assert_false(cw_body_id_is_null(eid));
    expect_aabb_matches(w, eid, &e.shape, &def.transform);
    cw_aabb box;
    assert_true(cw_body_aabb(w, eid, &box));
    assert_true(box.min.x == box.max.x && box.min.y == box.max.y);
    assert_true(box.min.x == 7.0f && box.min.y == 9.0f); // at the transform's position
    def.shape = cw_shape_box(100, 100);
    def.transform = at(0, 0);
    cw_body_id cover = cw_body_create(w, &def);
    cw_world_step(w);
    assert_int_equal(cw_world_get_stats(w).bodies, N + 2);
    (void)cover;
    cw_world_destroy(w);
    gen_shape_free(&e);
    for (int k = 0; k < N; k++)
        gen_shape_free(&shapes[k]);
}

// Where float AABBs lose their extent (x = -1e30, or an origin that overflows the float range) the
// world must still report what cw_overlap() says, and extreme scales must not reach UB.
static void test_extreme_placements(void **state)
{
    (void)state;
    unsigned char *solid = calloc(16, 1);
    assert_non_null(solid);
    memset(solid, 1, 16);
    gen_shape m;
    assert_true(gen_mask_shape(&m, solid, 4, 4, GEN_FILLED, 0, 1));
    struct {
        const char *name;
        cw_shape shape;
        cw_transform t;
    } cases[3];
    cases[0].name = "masks at x = -1e30", cases[0].shape = m.shape, cases[0].t = at(-1.0e30f, 0);
    cases[1].name = "boxes whose origin is FLT_MAX", cases[1].shape = cw_shape_box(2, 2), cases[1].t = at(0, 0);
    cases[1].t.origin = (cw_vec2){3.4028235e38f, 0};
    cases[2].name = "a mask at scale 1e-30 beside a huge box", cases[2].shape = m.shape, cases[2].t = at(1, 0);
    cases[2].t.scale = (cw_vec2){-2.5f, 7.8e-31f};
    for (int k = 0; k < 3; k++) {
        wr_world *w = make_world(cases[k].name, NULL, NULL);
        cw_body_def def = cw_default_body_def();
        def.shape = cases[k].shape;
        def.transform = cases[k].t;
        ref_shape ref = k == 1 ? ref_box(2, 2) : m.ref;
        assert_true(wr_body_create(w, &def, &ref, 0) >= 0);
        if (k == 2) { // a box of size FLT_MAX: extreme size ratios in the mask walk's cost estimate
            def.shape = cw_shape_box(3.4028235e38f, 0.875f);
            def.transform = at(1, 0);
            def.transform.rotation = -4;
            def.transform.scale = (cw_vec2){0.25f, 0.25f};
            ref = ref_box(3.4028235e38f, 0.875f);
        } else {
            def.is_static = true;
        }
        assert_true(wr_body_create(w, &def, &ref, 0) >= 0);
        STEP(w);
        if (k < 2)
            assert_int_equal(count_phase(w, WR_BEGIN), 1);
        finish(w);
    }
    gen_shape_free(&m);
}

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
    b.transform = at(5, 0);
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

// Found by the world fuzzer: a box 3e22 units long, turned, overlaps a small sprite at its pivot
// corner; its AABB (centre plus or minus half extents) lost every digit below 1e6 there.
static void test_huge_box_at_its_pivot(void **state)
{
    (void)state;
    wr_world *w = make_world("huge box", NULL, NULL);
    cw_body_def big = cw_default_body_def();
    big.shape = cw_shape_box(0x1.f7fff8p+2f, 0x1p+73f);
    big.transform = at(1, 1);
    big.transform.rotation = 1;
    big.transform.scale = (cw_vec2){-0x1.ce147ap+1f, -0x1.ce147ap+1f};
    ref_shape big_ref = ref_box(0x1.f7fff8p+2f, 0x1p+73f);
    assert_true(wr_body_create(w, &big, &big_ref, 0) >= 0);
    // A small striped sprite at the big box's pivot corner (the fuzzer's case).
    unsigned char *solid = calloc(16, 1);
    assert_non_null(solid);
    for (int j = 0; j < 4; j++)
        solid[4 * j] = solid[4 * j + 2] = 1;
    gen_shape stripes;
    assert_true(gen_mask_shape(&stripes, solid, 4, 4, GEN_VLINES, 0, 1));
    cw_body_def small = cw_default_body_def();
    small.shape = stripes.shape;
    small.transform = at(1, 0x1p-148f);
    small.transform.scale = (cw_vec2){0.25f, 0.25f};
    small.is_static = true;
    assert_true(cw_overlap(&big.shape, &big.transform, &small.shape, &small.transform, NULL));
    assert_true(wr_body_create(w, &small, &stripes.ref, 0) >= 0);
    STEP(w);
    assert_int_equal(count_phase(w, WR_BEGIN), 1);
    finish(w);
    gen_shape_free(&stripes);
}

// Found by the world fuzzer: a pivot 1e34 units outside a sprite, cancelled exactly by its position,
// puts the sprite near the world origin; its AABB, the hull's corners summed with that pivot in
// double, came out as the point (0, 0) and missed every contact. Random sprites placed that way
// (unrotated, power-of-two scales, pivots beyond 2^77, so the cancellation is exact) among ordinary
// sprites at position (0, 0) with their pivot there too, whose first row is transparent: cw_overlap()
// is exact between the two kinds, and no ordinary sprite's AABB holds the point (0, 0).
static void test_far_pivot_cancelled_by_position(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0xfa4b17);
    enum { NS = 6, NB = 40 };
    gen_shape shapes[NS]; // even: for the far sprites; odd: ordinary, without opaque texels in row 0
    for (int k = 0; k < NS; k++) {
        if (k % 2 == 0) {
            assert_true(gen_random_mask(&r, &shapes[k]));
            continue;
        }
        int mw = gen_int(&r, 2, 40), mh = gen_int(&r, 2, 40);
        unsigned char *solid = malloc((size_t)(mw * mh));
        assert_non_null(solid);
        gen_pattern_fill(solid, mw, mh, GEN_NOISE, 0.6, (uint64_t)k);
        memset(solid, 0, (size_t)mw); // row 0
        solid[mw + gen_int(&r, 0, mw - 1)] = 1; // not empty
        assert_true(gen_mask_shape(&shapes[k], solid, mw, mh, GEN_NOISE, 0.6, (uint64_t)k));
    }
    wr_world *w = make_world("far pivots", NULL, NULL);
    static const float scales[] = {0.25f, 0.5f, 1, 2};
    for (int k = 0; k < NB; k++) {
        gen_shape *s = &shapes[k % NS];
        cw_body_def def = cw_default_body_def();
        def.shape = s->shape;
        def.transform.scale = (cw_vec2){scales[gen_int(&r, 0, 3)], scales[gen_int(&r, 0, 3)]};
        if (k % 2 == 0) { // far: position = scale * origin, exactly
            def.transform.origin = (cw_vec2){ldexpf((float)gen_range(&r, -1, 1), gen_int(&r, 78, 115)),
                                             ldexpf((float)gen_range(&r, -1, 1), gen_int(&r, 78, 115))};
            def.transform.position = (cw_vec2){def.transform.scale.x * def.transform.origin.x,
                                               def.transform.scale.y * def.transform.origin.y};
        }
        assert_true(wr_body_create(w, &def, &s->ref, k % 2 == 0) >= 0);
    }
    STEP(w);
    int n, far_begins = 0;
    const wr_event *e = wr_events(w, &n);
    for (int k = 0; k < n; k++)
        far_begins += e[k].phase == WR_BEGIN && wr_tag(w, wr_handle_of(w, e[k].contact.a)) +
                                                        wr_tag(w, wr_handle_of(w, e[k].contact.b)) == 1;
    printf("  far pivots: %d begins pair a far-pivot sprite with an ordinary one\n", far_begins);
    assert_true(far_begins > 0);
    finish(w);
    for (int k = 0; k < NS; k++)
        gen_shape_free(&shapes[k]);
}

// Found by the world fuzzer: a body 1e38 units tall made the automatic cell size (twice the mean
// extent) overflow the float range; the grid then took an infinite cell and grew its cell table
// until memory ran out. The cell size must stay finite, and the world must keep working.
static void test_auto_cell_with_giant_bodies(void **state)
{
    (void)state;
    unsigned char *solid = calloc(6, 1);
    assert_non_null(solid);
    memset(solid, 1, 6);
    gen_shape m;
    assert_true(gen_mask_shape(&m, solid, 3, 2, GEN_FILLED, 0, 1));
    wr_world *w = make_world("giant bodies", NULL, NULL);
    cw_body_def giant = cw_default_body_def();
    giant.shape = m.shape;
    giant.transform = (cw_transform){{-1, 40}, 4, {4, -0x1.2p+127f}, {0, 0}};
    giant.is_static = true;
    assert_true(wr_body_create(w, &giant, &m.ref, 0) >= 0);
    STEP(w);
    cw_body_def small = cw_default_body_def();
    small.shape = m.shape;
    for (int k = 0; k < 8; k++) {
        small.transform = at((float)(-4 + 2 * (k % 4)), (float)(38 + 2 * (k / 4))); // around the giant's pivot
        assert_true(wr_body_create(w, &small, &m.ref, 0) >= 0);
        STEP(w);
        cw_world_stats st = cw_world_get_stats(wr_cw(w));
        assert_true(isfinite(st.cell_size) && st.cell_size >= CW_MIN_CELL_SIZE);
    }
    assert_true(wr_get_totals(w).begins > 0); // the small ones inside the giant
    finish(w);
    gen_shape_free(&m);
}

// Masks under rotation and mirroring, one stepping reference scene (few bodies, every pair checked).
static void test_mask_scene(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0x5ce7e);
    enum { NS = 12, NB = 40 };
    gen_shape shapes[NS];
    for (int k = 0; k < NS; k++) {
        if (k % 2)
            assert_true(gen_random_mask(&r, &shapes[k]));
        else
            gen_random_box(&r, &shapes[k]);
    }
    wr_world *w = make_world("mask scene", NULL, NULL);
    for (int k = 0; k < NB; k++) {
        const gen_shape *s = &shapes[k % NS];
        cw_body_def def = cw_default_body_def();
        def.shape = s->shape;
        gen_random_transform(&r, s, &def.transform);
        def.transform.position = (cw_vec2){(float)gen_range(&r, -60, 60), (float)gen_range(&r, -60, 60)};
        def.is_static = k % 5 == 0;
        def.user_data = &users[k];
        assert_true(wr_body_create(w, &def, &s->ref, 0) >= 0);
    }
    for (int step = 0; step < 40; step++) {
        for (int k = 0; k < wr_live_count(w); k++) {
            int h = wr_live_at(w, k);
            if (!gen_chance(&r, 0.4))
                continue;
            cw_transform t = wr_transform(w, h);
            t.position.x += (float)gen_range(&r, -4, 4);
            t.position.y += (float)gen_range(&r, -4, 4);
            t.rotation += (float)gen_range(&r, -0.2, 0.2);
            wr_set_transform(w, h, &t);
        }
        STEP(w);
    }
    printf("  mask scene: %ld begins, %ld stays, %ld ends over %d steps\n", wr_get_totals(w).begins,
           wr_get_totals(w).stays, wr_get_totals(w).ends, wr_steps(w));
    finish(w);
    for (int k = 0; k < NS; k++)
        gen_shape_free(&shapes[k]);
}

const struct CMUnitTest world_tests[] = {
    cmocka_unit_test(test_defaults),
    cmocka_unit_test(test_begins_in_same_step),
    cmocka_unit_test(test_filters_and_statics),
    cmocka_unit_test(test_callback_destroys),
    cmocka_unit_test(test_callback_changes),
    cmocka_unit_test(test_stale_ids),
    cmocka_unit_test(test_id_reuse),
    cmocka_unit_test(test_null_arguments),
    cmocka_unit_test(test_invalid_shapes_and_transforms),
    cmocka_unit_test(test_cell_size_errors),
    cmocka_unit_test(test_step_and_destroy_in_callback),
    cmocka_unit_test(test_getters),
    cmocka_unit_test(test_mask_scene),
    cmocka_unit_test(test_extreme_placements),
    cmocka_unit_test(test_stays_without_begins),
    cmocka_unit_test(test_huge_box_at_its_pivot),
    cmocka_unit_test(test_far_pivot_cancelled_by_position),
    cmocka_unit_test(test_auto_cell_with_giant_bodies),
};
