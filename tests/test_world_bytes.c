// cw_world_stats::bytes against a counting allocator: on random worlds (boxes and masks, swept and
// static bodies, one to three workers, manifolds, stays, event arrays asked for or not, room made
// ahead or not) changed and stepped at random, the stat equals what the world holds, to the byte,
// after every step and every cw_world_events() call; and masks that move to slots that held boxes
// take no more memory.
#include <stdio.h>
#include <string.h>

#include "counting.h"
#include "gen.h"
#include "suites.h"

enum { SEEDS = 30, SHAPES = 6, MAX_BODIES = 300, STEPS = 10 };

typedef struct bytes_run {
    counter *cnt;
    long baseline; // what the counter held before the world: the shapes' masks
    cw_world *world;
    gen_shape shapes[SHAPES];
    cw_body_id ids[MAX_BODIES];
    int count;
} bytes_run;

static void expect_bytes_exact(const bytes_run *run, const char *when)
{
    long held = run->cnt->live_bytes - run->baseline;
    size_t reported = cw_world_get_stats(run->world).bytes;
    if ((long)reported != held)
        printf("  %s: the stat says %zu bytes, the allocator %ld\n", when, reported, held);
    assert_int_equal((long)reported, held);
}

static cw_world_def random_def(gen_rng *r)
{
    cw_world_def def = cw_default_world_def();
    def.worker_count = gen_int(r, 1, 3);
    def.manifolds = gen_chance(r, 0.5);
    def.report_stays = gen_chance(r, 0.5);
    def.event_arrays = gen_chance(r, 0.7);
    def.body_capacity = gen_chance(r, 0.4) ? gen_int(r, 1, MAX_BODIES) : 0;
    def.cell_size = gen_chance(r, 0.3) ? (float)gen_range(r, 4, 40) : 0;
    return def;
}

static bool count_hit(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)body, (void)user_data, (void)manifold, (void)context;
    return true;
}

static void add_body(bytes_run *run, gen_rng *r)
{
    if (run->count == MAX_BODIES)
        return;
    const gen_shape *s = &run->shapes[gen_int(r, 0, SHAPES - 1)];
    cw_body_def def = cw_default_body_def();
    def.shape = s->shape;
    gen_random_transform(r, s, &def.transform);
    def.transform.position = (cw_vec2){(float)gen_range(r, 0, 300), (float)gen_range(r, 0, 300)};
    def.swept = gen_chance(r, 0.1);
    def.is_static = !def.swept && gen_chance(r, 0.1);
    cw_body_id id = cw_body_create(run->world, &def);
    assert_false(cw_body_id_is_null(id));
    run->ids[run->count++] = id;
}

// One step's changes: some bodies moved, one destroyed, one switched off or on, a few added.
static void change(bytes_run *run, gen_rng *r)
{
    for (int i = 0; i < run->count; i++) {
        if (!gen_chance(r, 0.3) || !cw_body_is_valid(run->world, run->ids[i]))
            continue;
        cw_transform t = cw_body_transform(run->world, run->ids[i]);
        t.position.x += (float)gen_range(r, -40, 40), t.position.y += (float)gen_range(r, -40, 40);
        cw_body_set_transform(run->world, run->ids[i], &t);
    }
    cw_body_destroy(run->world, run->ids[gen_int(r, 0, run->count - 1)]); // a destroyed one's fails
    cw_body_set_enabled(run->world, run->ids[gen_int(r, 0, run->count - 1)], gen_chance(r, 0.5));
    for (int k = gen_int(r, 0, 12); k > 0; k--)
        add_body(run, r);
}

static void run_seed(counter *cnt, uint64_t seed)
{
    gen_rng r = gen_seed(seed);
    bytes_run run = {.cnt = cnt};
    for (int s = 0; s < SHAPES; s++)
        assert_true(gen_random_shape(&r, &run.shapes[s], s < 2));
    run.baseline = cnt->live_bytes;
    cw_world_def def = random_def(&r);
    run.world = cw_world_create(&def);
    assert_non_null(run.world);
    expect_bytes_exact(&run, "created");
    for (int k = gen_int(&r, 20, 200); k > 0; k--)
        add_body(&run, &r);
    expect_bytes_exact(&run, "bodies made");
    for (int step = 0; step < STEPS; step++) {
        cw_world_step(run.world);
        expect_bytes_exact(&run, "stepped");
        if (gen_chance(&r, 0.5)) {
            cw_world_events(run.world); // gathers, growing its arrays
            expect_bytes_exact(&run, "events asked");
        }
        if (gen_chance(&r, 0.3)) { // a lane's first query makes its marks
            cw_world_query_aabb(run.world, (cw_aabb){{0, 0}, {150, 150}}, cw_default_query_filter(), count_hit, NULL);
            expect_bytes_exact(&run, "queried");
        }
        if (gen_chance(&r, 0.2) && run.count > 0) { // the first ask builds the body index, then steps keep it
            cw_body_touching(run.world, run.ids[gen_int(&r, 0, run.count - 1)], NULL, 0);
            expect_bytes_exact(&run, "touching asked");
        }
        change(&run, &r);
        expect_bytes_exact(&run, "changed");
    }
    cw_world_destroy(run.world);
    assert_int_equal(cnt->live_bytes, run.baseline);
    for (int s = 0; s < SHAPES; s++)
        gen_shape_free(&run.shapes[s]);
}

static void test_world_bytes_exact(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    assert_int_equal(cw_world_get_stats(NULL).bytes, 0);
    for (uint64_t seed = 1; seed <= (uint64_t)gen_scaled(SEEDS); seed++)
        run_seed(&cnt, 0x62797465ull * seed);
    counter_expect_no_leak(&cnt);
}

enum { FLIP_MASKS = 64, FLIP_BODIES = 4 * FLIP_MASKS, FLIP_ROUNDS = 3, FLIP_CELL = 200 };

// Makes body i of the kind test: a mask or a box (shapes[0] or [1]) at its own place, far from
// the others, in the middle of a cell when the world's cells are FLIP_CELL wide.
static cw_body_id kind_body(cw_world *world, const gen_shape shapes[2], int i, bool mask)
{
    cw_body_def body = cw_default_body_def();
    body.shape = shapes[mask ? 0 : 1].shape;
    body.transform.position = (cw_vec2){(float)(i % 16) * FLIP_CELL + 100, (float)(i / 16) * FLIP_CELL + 100};
    cw_body_id id = cw_body_create(world, &body);
    assert_false(cw_body_id_is_null(id));
    return id;
}

// Destroys the bodies [first, first + FLIP_MASKS) and, once the step has freed their slots, makes
// them again (in those slots) as masks or boxes.
static void remake(cw_world *world, const gen_shape shapes[2], cw_body_id ids[], int first, bool mask)
{
    for (int i = first; i < first + FLIP_MASKS; i++)
        cw_body_destroy(world, ids[i]);
    cw_world_step(world); // their slots are free after the step that reports their ends
    for (int i = first + FLIP_MASKS - 1; i >= first; i--) // the free slots are taken last freed first
        ids[i] = kind_body(world, shapes, i, mask);
}

// Masks that move to other slots, never touching: each round destroys the masks and makes boxes
// in their slots, then makes the masks again in slots that have only held boxes. The world then
// holds what it did before: a mask's kept form is given back when its slot takes a box and taken
// by the next mask. Kept by the slot, as it once was, every slot that ever held a mask would keep
// one (a page of 64 more a round here). Kinds changed by cw_body_set_shape give back and take the
// same way.
static void test_world_bytes_masks_change_slots(void **state)
{
    (void)state;
    counter cnt;
    counter_install(&cnt);
    gen_rng r = gen_seed(0x666c6970);
    gen_shape shapes[2];
    assert_true(gen_random_shape(&r, &shapes[0], false));
    gen_box_shape(&shapes[1], (float)shapes[0].shape.size.x, (float)shapes[0].shape.size.y);
    // Each body in one cell of its own, mask or box: the grid's room is then the same in every
    // round (with cells of the automatic size a mask and a box, whose AABBs differ, straddle
    // different cell edges, and how many cells the bodies span changes with which slots hold
    // masks: one round grew the grid's nodes by 1.8 KB on CW_TEST_SALT=30).
    cw_world_def def = cw_default_world_def();
    def.cell_size = FLIP_CELL;
    cw_world *world = cw_world_create(&def);
    cw_body_id ids[FLIP_BODIES];
    for (int i = 0; i < FLIP_BODIES; i++)
        ids[i] = kind_body(world, shapes, i, i < FLIP_MASKS);
    cw_world_step(world);
    for (int k = 1; k < 4; k++) // the ends' arrays grow to what the rounds need
        remake(world, shapes, ids, k * FLIP_MASKS, false);
    cw_world_step(world);
    size_t before = cw_world_get_stats(world).bytes;
    int masks = 0; // the masks are bodies [masks, masks + FLIP_MASKS)
    for (int round = 1; round <= FLIP_ROUNDS; round++) {
        remake(world, shapes, ids, masks, false);
        masks += FLIP_MASKS;
        remake(world, shapes, ids, masks, true);
        cw_world_step(world);
        for (int i = 0; i < FLIP_BODIES; i++)
            assert_int_equal(cw_body_shape(world, ids[i]).type,
                             i >= masks && i < masks + FLIP_MASKS ? CW_SHAPE_MASK : CW_SHAPE_BOX);
        size_t bytes = cw_world_get_stats(world).bytes;
        if (bytes != before)
            printf("  round %d: %zu bytes, %zu before the rounds\n", round, bytes, before);
        assert_int_equal(bytes, before);
    }
    for (int i = FLIP_BODIES - 1; i >= 0; i--) // the masks become boxes, then the first bodies masks
        assert_true(cw_body_set_shape(world, ids[i], &shapes[i < FLIP_MASKS ? 0 : 1].shape));
    cw_world_step(world);
    assert_int_equal(cw_world_get_stats(world).bytes, before);
    cw_world_destroy(world);
    gen_shape_free(&shapes[0]);
    gen_shape_free(&shapes[1]);
    counter_expect_no_leak(&cnt);
}

const struct CMUnitTest world_bytes_tests[] = {
    cmocka_unit_test_teardown(test_world_bytes_exact, counter_restore_default),
    cmocka_unit_test_teardown(test_world_bytes_masks_change_slots, counter_restore_default),
};
