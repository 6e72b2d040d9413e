// Limits that fail cleanly (issue 16): a pile-up beyond cw_world_def::max_pairs fails the step at
// once, changes nothing and says so; growth is geometric; every wrapping counter is crossed with
// brute-force checks; ids of other worlds are rejected by tag.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counting.h"
#include "gen.h"
#include "hooks.h"
#include "suites.h"
#include "world_ref.h"

static const char *stale_message = "The body id is stale or null: that body was destroyed or never existed.";

// --- pile-ups ---

static cw_world *world_with(int max_pairs, int workers)
{
    cw_world_def def = cw_default_world_def();
    def.max_pairs = max_pairs;
    def.worker_count = workers;
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    return world;
}

static cw_body_id box_at(cw_world *world, float x, float y, float size, bool is_static)
{
    cw_body_def def = cw_default_body_def();
    def.shape = cw_shape_box(size, size);
    def.transform.position = (cw_vec2){x, y};
    def.is_static = is_static;
    cw_body_id id = cw_body_create(world, &def);
    assert_false(cw_body_id_is_null(id));
    return id;
}

// Pairs of the world's bodies that overlap now, by brute force over cw_overlap.
static int brute_touching(const cw_world *world, const cw_body_id *ids, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        cw_shape si = cw_body_shape(world, ids[i]);
        cw_transform ti = cw_body_transform(world, ids[i]);
        for (int j = i + 1; j < n; j++) {
            if (cw_body_is_static(world, ids[i]) && cw_body_is_static(world, ids[j]))
                continue;
            cw_shape sj = cw_body_shape(world, ids[j]);
            cw_transform tj = cw_body_transform(world, ids[j]);
            count += cw_overlap(&si, &ti, &sj, &tj, NULL);
        }
    }
    return count;
}

// The pairs of pile_up's spread-out grid (100 columns, 3.5 apart, 4-unit boxes: each overlaps its
// 8 neighbours; every tenth body static, and two static ones never pair), counted from the layout.
static int spread_touching(int n)
{
    int count = 0;
    const int right = 1, below = 100, below_right = 101, below_left = 99;
    for (int k = 0; k < n; k++) {
        int col = k % 100;
        const int others[4] = {col < 99 ? k + right : n, k + below, col < 99 ? k + below_right : n,
                               col > 0 ? k + below_left : n};
        for (int m = 0; m < 4; m++)
            count += others[m] < n && !(k % 10 == 0 && others[m] % 10 == 0);
    }
    return count;
}

static void expect_failed_step(cw_world *world, int max_pairs, int failed_steps)
{
    char message[256];
    snprintf(message, sizeof message,
             "The step needs more than %d candidate pairs (cw_world_def::max_pairs): bodies are piled up; nothing "
             "changed, and the next step tries again.",
             max_pairs);
    cw_clear_error();
    cw_world_step(world);
    assert_string_equal(cw_last_error(), message);
    cw_world_stats st = cw_world_get_stats(world);
    assert_int_equal(st.failed_steps, failed_steps);
    assert_int_equal(st.begin_events + st.end_events + st.stay_events, 0);
    assert_int_equal(cw_world_events(world).begin_count, 0);
}

// `n` bodies piled on one point (some static), `moving` of them moved each step: every step fails
// at once; spread out, the next step gives the brute-force pairs and every begin.
static void pile_up(int n, int moving, int max_pairs, int workers, float cell)
{
    cw_world_def def = cw_default_world_def();
    def.max_pairs = max_pairs, def.worker_count = workers, def.cell_size = cell;
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    cw_body_id *ids = malloc(sizeof *ids * (size_t)n);
    assert_non_null(ids);
    for (int k = 0; k < n; k++)
        ids[k] = box_at(world, 100 + (float)(k % 7) * 0.01f, 100, 4, k % 10 == 0);
    expect_failed_step(world, max_pairs, 1);
    for (int k = 0; k < moving; k++) {
        cw_transform t = cw_body_transform(world, ids[k]);
        t.position.x += 0.001f;
        assert_true(cw_body_set_transform(world, ids[k], &t));
    }
    expect_failed_step(world, max_pairs, 2);
    for (int k = 0; k < n; k++) { // spread out on a grid, neighbours overlapping
        cw_transform t = cw_body_transform(world, ids[k]);
        t.position = (cw_vec2){(float)(k % 100) * 3.5f, (float)(k / 100) * 3.5f};
        assert_true(cw_body_set_transform(world, ids[k], &t));
    }
    cw_clear_error();
    cw_world_step(world);
    assert_string_equal(cw_last_error(), "");
    cw_world_stats st = cw_world_get_stats(world);
    assert_int_equal(st.failed_steps, 0);
    int expected = n <= 5000 ? brute_touching(world, ids, n) : spread_touching(n);
    assert_true(expected > 0);
    assert_int_equal(st.touching_pairs, expected);
    assert_int_equal(st.begin_events, expected);
    cw_world_destroy(world);
    free(ids);
}

static void test_pile_up_fails_at_once(void **state)
{
    (void)state;
    pile_up(600, 600, 50000, 1, 0);    // the sorting scan, one cell with every body
    pile_up(600, 100, 20000, 1, 0);    // few moved: each moved body's cells
    pile_up(600, 600, 50000, 1, 0.5f); // tiny cells: each body in many
    pile_up(3000, 3000, 100000, 2, 0); // two workers (the scan on one thread: too few entries)
    int big = gen_test_scale() > 1 ? 20000 : 70000;
    pile_up(big, big, 1000000, 2, 0);  // two workers sharing the scan
    printf("  pile-ups of 600 to %d bodies over max_pairs: every step failed at once, then the brute-force pairs\n",
           big);
}

// A spread-out lattice whose pairs are all within limits part by part but not in all: `max_pairs`
// one short of its pairs fails the step, exactly its pairs passes, on one worker and on two (whose
// scan shares the cells out and joins the parts' lists; each part holds a fraction of the pairs).
static void lattice_at_limit(int n, int max_pairs, int workers, bool passes)
{
    cw_world_def def = cw_default_world_def();
    def.max_pairs = max_pairs, def.worker_count = workers;
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    for (int k = 0; k < n; k++)
        box_at(world, (float)(k % 100) * 3.5f, (float)(k / 100) * 3.5f, 4, k % 10 == 0);
    if (!passes) {
        expect_failed_step(world, max_pairs, 1);
    } else {
        cw_clear_error();
        cw_world_step(world);
        assert_string_equal(cw_last_error(), "");
        cw_world_stats st = cw_world_get_stats(world);
        assert_int_equal(st.failed_steps, 0);
        assert_int_equal(st.touching_pairs, spread_touching(n));
    }
    cw_world_destroy(world);
}

static void test_spread_pairs_at_the_limit(void **state)
{
    (void)state;
    // At full scale enough bodies for the workers' scan (65,536 grid entries); scaled runs (the
    // sanitizers, valgrind) check the limit on one thread's scan.
    int n = gen_test_scale() > 1 ? 3000 : 70000, pairs = spread_touching(n);
    for (int workers = 1; workers <= 2; workers++) {
        lattice_at_limit(n, pairs - 1, workers, false);
        lattice_at_limit(n, pairs, workers, true);
    }
    printf("  %d bodies, %d pairs: max_pairs %d fails the step, %d passes, on one worker and on two\n", n, pairs,
           pairs - 1, pairs);
}

static void test_max_pairs_misuse(void **state)
{
    (void)state;
    cw_world_def def = cw_default_world_def();
    assert_int_equal(def.max_pairs, CW_DEFAULT_MAX_PAIRS);
    const int bad[] = {-1, -2147483647 - 1};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        def.max_pairs = bad[k];
        cw_clear_error();
        assert_null(cw_world_create(&def));
        assert_string_equal(cw_last_error(), "max_pairs must be 0 (the default, CW_DEFAULT_MAX_PAIRS) or more.");
    }
    def.max_pairs = 0; // the default
    cw_world *zero = cw_world_create(&def);
    assert_non_null(zero);
    cw_world_destroy(zero);
    // Exactly at the limit is fine: two bodies, one pair.
    cw_world *world = world_with(1, 1);
    box_at(world, 0, 0, 4, false);
    box_at(world, 1, 0, 4, false);
    cw_clear_error();
    cw_world_step(world);
    assert_string_equal(cw_last_error(), "");
    assert_int_equal(cw_world_get_stats(world).touching_pairs, 1);
    box_at(world, 2, 0, 4, false); // three pairs now
    expect_failed_step(world, 1, 1);
    cw_world_destroy(world);
}

// The limit bounds the touching set whatever moved: 1.5-unit boxes on integer points (two touch iff
// both coordinates differ by at most 1; apart, a gap of at least 0.5, so their AABBs meet exactly
// when they touch and a step lists no more candidates than touching pairs), a few added, moved or
// destroyed a step. A step fails iff the pairs touching after it would be more than max_pairs,
// however few of them are new; each step that passes gives the lattice's pairs and its events.
#define LATTICE_BODIES 48
typedef struct lattice {
    cw_body_id id[LATTICE_BODIES];
    int x[LATTICE_BODIES], y[LATTICE_BODIES];
    bool live[LATTICE_BODIES];
    bool gone[LATTICE_BODIES]; // destroyed since the last step that passed: its end still owed
    bool touching[LATTICE_BODIES][LATTICE_BODIES]; // after the last step that passed, [low][high] slot
} lattice;

static bool lattice_touch(const lattice *l, int i, int j)
{
    return l->live[i] && l->live[j] && abs(l->x[i] - l->x[j]) <= 1 && abs(l->y[i] - l->y[j]) <= 1;
}

static int lattice_pairs(const lattice *l)
{
    int count = 0;
    for (int i = 0; i < LATTICE_BODIES; i++)
        for (int j = i + 1; j < LATTICE_BODIES; j++)
            count += lattice_touch(l, i, j);
    return count;
}

// One random change: a body added, moved to another point, or destroyed (its slot not reused
// until a step has delivered its ends, which name its id).
static void lattice_change(lattice *l, cw_world *world, gen_rng *rng)
{
    int k = gen_int(rng, 0, LATTICE_BODIES - 1);
    if (l->gone[k])
        return;
    if (l->live[k] && gen_chance(rng, 0.2)) {
        cw_body_destroy(world, l->id[k]);
        l->live[k] = false, l->gone[k] = true;
        return;
    }
    l->x[k] = gen_int(rng, 0, 14), l->y[k] = gen_int(rng, 0, 14);
    cw_transform t = cw_default_body_def().transform;
    t.position = (cw_vec2){(float)l->x[k], (float)l->y[k]};
    if (l->live[k]) {
        assert_true(cw_body_set_transform(world, l->id[k], &t));
        return;
    }
    l->id[k] = box_at(world, (float)l->x[k], (float)l->y[k], 1.5f, false);
    l->live[k] = true;
}

static int lattice_slot(const lattice *l, cw_body_id id)
{
    for (int k = 0; k < LATTICE_BODIES; k++)
        if (l->id[k].index == id.index && l->id[k].generation == id.generation)
            return k;
    fail_msg("an event names body %u, which the test never made", id.index);
    return -1;
}

// The step passed: its begins and ends are the lattice's pairs against the last ones, one each.
static void lattice_check_events(lattice *l, const cw_world *world)
{
    bool now[LATTICE_BODIES][LATTICE_BODIES] = {{false}};
    int begins = 0, ends = 0;
    for (int i = 0; i < LATTICE_BODIES; i++)
        for (int j = i + 1; j < LATTICE_BODIES; j++) {
            now[i][j] = lattice_touch(l, i, j);
            begins += now[i][j] && !l->touching[i][j];
            ends += !now[i][j] && l->touching[i][j];
        }
    cw_events ev = cw_world_events(world);
    assert_int_equal(ev.begin_count, begins);
    assert_int_equal(ev.end_count, ends);
    for (int e = 0; e < ev.begin_count + ev.end_count; e++) {
        const cw_contact *c = e < ev.begin_count ? &ev.begins[e] : &ev.ends[e - ev.begin_count];
        int a = lattice_slot(l, c->a), b = lattice_slot(l, c->b), i = a < b ? a : b, j = a < b ? b : a;
        assert_true(e < ev.begin_count ? now[i][j] && !l->touching[i][j] : !now[i][j] && l->touching[i][j]);
    }
    memcpy(l->touching, now, sizeof now);
    memset(l->gone, 0, sizeof l->gone);
}

static void test_touching_over_max_pairs(void **state)
{
    (void)state;
    int failed = 0, passed = 0, kept_over = 0;
    for (int run = 0; run < 40; run++) {
        gen_rng rng = gen_seed(0x70c4 + (uint64_t)run);
        int max_pairs = gen_int(&rng, 1, 50);
        cw_world *world = world_with(max_pairs, gen_int(&rng, 1, 2));
        lattice l;
        memset(&l, 0, sizeof l);
        int failed_in_a_row = 0, touching = 0;
        for (int step = 0; step < 60; step++) {
            int changes = gen_int(&rng, 1, 3);
            for (int c = 0; c < changes; c++)
                lattice_change(&l, world, &rng);
            int expected = lattice_pairs(&l);
            if (expected > max_pairs) {
                expect_failed_step(world, max_pairs, ++failed_in_a_row);
                assert_int_equal(cw_world_get_stats(world).touching_pairs, touching); // nothing changed
                int listed = cw_world_get_stats(world).candidate_pairs; // 0 if the scan itself failed
                kept_over += listed > 0 && listed <= max_pairs;
                failed++;
                continue;
            }
            cw_clear_error();
            cw_world_step(world);
            assert_string_equal(cw_last_error(), "");
            assert_int_equal(cw_world_get_stats(world).failed_steps, 0);
            assert_int_equal(cw_world_get_stats(world).touching_pairs, expected);
            lattice_check_events(&l, world);
            failed_in_a_row = 0, touching = expected, passed++;
        }
        cw_world_destroy(world);
    }
    printf("  40 lattices: %d steps passed, %d failed over max_pairs (%d listing no more candidates than the "
           "limit, over it by pairs kept from earlier steps)\n",
           passed, failed, kept_over);
    assert_true(kept_over > 0 && passed > failed / 4);
}

// Growth is geometric: 100k bodies, then their pairs, in a few hundred allocations, not one a body.
static void test_growth_is_geometric(void **state)
{
    (void)state;
    counter c;
    counter_install(&c);
    cw_world *world = world_with(CW_DEFAULT_MAX_PAIRS, 1);
    int n = gen_test_scale() > 1 ? 20000 : 100000;
    for (int k = 0; k < n; k++)
        box_at(world, (float)(k % 300) * 3, (float)(k / 300) * 3, 4, false);
    long after_bodies = c.allocs;
    cw_world_step(world);
    long after_step = c.allocs - after_bodies;
    printf("  %d bodies: %ld allocations to create them, %ld for the first step's %d pairs\n", n, after_bodies,
           after_step, cw_world_get_stats(world).touching_pairs);
    assert_true(after_bodies < 500); // a few per growth of ~20 arrays by half again; one a body would be 100k
    assert_true(after_step < 500);
    cw_world_destroy(world);
    counter_expect_no_leak(&c);
}

// --- counters that wrap ---

// A random world crossing the wrap of the grid's stamp, the step count and the query marks, every
// step checked against brute force by the world reference; queries before and after the wrap.
static void test_counters_across_their_wrap(void **state)
{
    (void)state;
    wr_options o;
    memset(&o, 0, sizeof o);
    o.name = "wraps";
    o.seed = 0x3a9;
    o.skip_manifold_equal = true;
    wr_world *w = wr_create(&o);
    assert_non_null(w);
    gen_rng rng = gen_seed(o.seed);
    int handles[200];
    for (int k = 0; k < 200; k++) {
        cw_body_def def = cw_default_body_def();
        float sx = (float)gen_range(&rng, 4, 30), sy = (float)gen_range(&rng, 4, 30);
        def.shape = cw_shape_box(sx, sy);
        def.transform.position = (cw_vec2){(float)gen_range(&rng, 0, 300), (float)gen_range(&rng, 0, 300)};
        def.transform.rotation = (float)gen_range(&rng, 0, 6.3);
        def.is_static = k % 8 == 0;
        ref_shape ref = ref_box(sx, sy);
        handles[k] = wr_body_create(w, &def, &ref, k);
    }
    // A few steps first, so that proxies carry marks the wrap would bring back.
    for (int s = 0; s < 4; s++) {
        for (int k = s; k < 200; k += 4) {
            cw_transform t = wr_transform(w, handles[k]);
            t.position.x += (float)gen_range(&rng, -4, 4);
            wr_set_transform(w, handles[k], &t);
        }
        wr_step(w);
    }
    cw__test_near_wrap(wr_cw(w), 1); // the stamp passes 0 and 1 (the marks before) in the 3rd step
    for (int s = 0; s < 12; s++) {
        for (int k = 0; k < 200; k++)
            if (k % 5 == s % 5) { // a fifth jump (new pairs each step), the rest rest across the wrap
                cw_transform t = wr_transform(w, handles[k]);
                t.position = (cw_vec2){(float)gen_range(&rng, 0, 300), (float)gen_range(&rng, 0, 300)};
                wr_set_transform(w, handles[k], &t);
            }
        wr_step(w);
    }
    printf("  grid stamp, step count and query marks crossed their wrap: %d failures\n", wr_failures(w));
    assert_int_equal(wr_failures(w), 0);
    wr_destroy(w);
}

static bool count_hit(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold;
    ++*(int *)context;
    return true;
}

// Query marks alone: 70,000 queries (the lanes' 16-bit marks wrap) each find every body once.
static void test_query_marks_wrap(void **state)
{
    (void)state;
    cw_world *world = world_with(CW_DEFAULT_MAX_PAIRS, 1);
    for (int k = 0; k < 30; k++)
        box_at(world, (float)(k % 6) * 40, (float)(k / 6) * 40, 100, false); // each over many cells
    cw_world_step(world);
    cw__test_near_wrap(world, 5);
    cw_aabb everything = {{-500, -500}, {700, 700}};
    for (int q = 0; q < 20; q++) {
        int hits = 0;
        assert_true(cw_world_query_aabb(world, everything, cw_default_query_filter(), count_hit, &hits));
        assert_int_equal(hits, 30);
    }
    cw_world_destroy(world);
}

// --- ids of other worlds ---

static void expect_stale(cw_world *world, cw_body_id id)
{
    cw_clear_error();
    assert_false(cw_body_is_valid(world, id));
    assert_false(cw_body_set_transform(world, id, &(cw_transform){{1, 1}, 0, {1, 1}, {0, 0}}));
    assert_string_equal(cw_last_error(), stale_message);
    cw_clear_error();
    cw_body_destroy(world, id);
    assert_string_equal(cw_last_error(), stale_message);
}

static cw_world *tagged_world(uint8_t tag)
{
    cw_world_def def = cw_default_world_def();
    def.id_tag = tag;
    cw_world *world = cw_world_create(&def);
    assert_non_null(world);
    return world;
}

static void test_ids_of_other_worlds(void **state)
{
    (void)state;
    // Another live world: same slots, same reuse counts, another tag.
    cw_world *a = tagged_world(1), *b = tagged_world(2);
    cw_body_id in_a = box_at(a, 0, 0, 4, false);
    cw_body_id in_b = box_at(b, 0, 0, 4, false);
    assert_int_equal(in_a.index, in_b.index);
    assert_int_equal(in_a.generation >> 24, 1);
    expect_stale(b, in_a);
    expect_stale(a, in_b);
    assert_true(cw_body_is_valid(a, in_a) && cw_body_is_valid(b, in_b)); // untouched by the misuse
    // A destroyed world's ids, given to the world made after it with another tag.
    cw_world_destroy(a);
    cw_world *c = tagged_world(3);
    cw_body_id in_c = box_at(c, 0, 0, 4, false);
    assert_int_equal(in_c.index, in_a.index);
    expect_stale(c, in_a);
    assert_true(cw_body_is_valid(c, in_c));
    cw_world_destroy(b);
    cw_world_destroy(c);
    // Same tag (the default): the same calls give the same ids in both worlds.
    cw_world *d = tagged_world(0), *e = tagged_world(0);
    cw_body_id in_d = box_at(d, 0, 0, 4, false), in_e = box_at(e, 0, 0, 4, false);
    assert_memory_equal(&in_d, &in_e, sizeof in_d);
    assert_int_equal(in_d.generation, 1);
    cw_world_destroy(d);
    cw_world_destroy(e);
}

// A slot reused 2^24 times wraps its count back to 1 and keeps the tag; the null id never appears;
// an id from before the wrap stays stale.
static void test_generation_wrap(void **state)
{
    (void)state;
    cw_world *world = tagged_world(7);
    cw_body_id first = box_at(world, 0, 0, 4, false), id = first;
    cw_body_destroy(world, id);
    cw_world_step(world);
    cw__test_near_wrap(world, 3); // the free slot's count 3 reuses short of 2^24
    for (int k = 0; k < 8; k++) {
        cw_body_destroy(world, id);
        cw_world_step(world); // frees the slot for reuse
        id = box_at(world, 0, 0, 4, false);
        assert_int_equal(id.index, first.index);
        if ((id.generation & 0xffffffu) == 0 || id.generation >> 24 != 7)
            fail_msg("generation 0x%x after %d reuses", id.generation, k + 1);
    }
    assert_true(cw_body_is_valid(world, id));
    assert_int_equal(id.generation, 7u << 24 | 5);
    expect_stale(world, first);
    cw_world_destroy(world);
}

const struct CMUnitTest limit_tests[LIMIT_TEST_COUNT] = {
    cmocka_unit_test(test_pile_up_fails_at_once),
    cmocka_unit_test(test_spread_pairs_at_the_limit),
    cmocka_unit_test(test_max_pairs_misuse),
    cmocka_unit_test(test_touching_over_max_pairs),
    cmocka_unit_test_teardown(test_growth_is_geometric, counter_restore_default),
    cmocka_unit_test(test_counters_across_their_wrap),
    cmocka_unit_test(test_query_marks_wrap),
    cmocka_unit_test(test_ids_of_other_worlds),
    cmocka_unit_test(test_generation_wrap),
};
