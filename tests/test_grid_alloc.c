// The grid's rarer growth with a failing allocation at every point in turn (found by coverage: the
// main sweep in test_world_alloc.c never reaches them): a crowd of more bodies in one cell than the
// scan's room on the stack, a cell size the automatic choice picks anew for smaller bodies, and a
// moved body that makes the cell table grow in the middle of a step (it keeps its old place, and
// the step is redone). Each failing call says so, a step that passes leaves no error (one whose
// new cell size found no memory went on with the old size, and left "Out of memory" behind), and
// once memory is back the next steps find exactly the pairs cw_overlap() finds.
#include <stdio.h>
#include <string.h>

#include "counting.h"
#include "gen.h"
#include "suites.h"

// A crowd of more members in one cell than the scan keeps on the stack (128), and a few bodies far
// away, so that the cells are too sparse for the sorting scan and the cell table is walked.
enum { CROWD = 140, FAR = 4, BODIES = CROWD + FAR };

typedef struct grid_run {
    counter *c;
    cw_world *world;
    cw_body_id ids[BODIES];
    cw_shape shapes[BODIES];
    cw_transform transforms[BODIES];
    int count; // bodies made
    int problems;
} grid_run;

static void problem(grid_run *r, long fail_at, const char *what, const char *detail)
{
    if (r->problems++ < 5)
        printf("  FAIL [out of memory at allocation %ld] %s: %s\n", fail_at, what, detail);
}

// A call that failed ran out of memory just now and says so; one that passed left no error.
static bool judge(grid_run *r, long fail_at, bool ok, long failed_before, const char *what)
{
    if (!ok && r->c->failed == failed_before)
        problem(r, fail_at, what, "failed although no allocation failed");
    if (!ok && cw_last_error()[0] == '\0')
        problem(r, fail_at, what, "failed without an error");
    if (ok && cw_last_error()[0] != '\0')
        problem(r, fail_at, what, "passed but left an error");
    return ok;
}

static void create_world(grid_run *r, long fail_at, float cell_size)
{
    cw_world_def def = cw_default_world_def();
    def.cell_size = cell_size;
    long failed = r->c->failed;
    cw_clear_error();
    r->world = cw_world_create(&def);
    if (!judge(r, fail_at, r->world != NULL, failed, "cw_world_create"))
        r->world = cw_world_create(&def); // only one allocation fails
    assert_non_null(r->world);
}

static void add_box(grid_run *r, long fail_at, float size, cw_vec2 at)
{
    cw_body_def bd = cw_default_body_def();
    bd.shape = cw_shape_box(size, size);
    bd.transform.position = at;
    long failed = r->c->failed;
    cw_clear_error();
    cw_body_id id = cw_body_create(r->world, &bd);
    if (!judge(r, fail_at, !cw_body_id_is_null(id), failed, "cw_body_create"))
        id = cw_body_create(r->world, &bd);
    assert_false(cw_body_id_is_null(id));
    r->ids[r->count] = id, r->shapes[r->count] = bd.shape, r->transforms[r->count] = bd.transform;
    r->count++;
}

// failed_steps counts the failed steps in a row: 0 after one that passed.
static void step(grid_run *r, long fail_at)
{
    long failed = r->c->failed;
    cw_clear_error();
    cw_world_step(r->world);
    judge(r, fail_at, cw_world_get_stats(r->world).failed_steps == 0, failed, "cw_world_step");
}

static void set_transform(grid_run *r, long fail_at, int k, cw_transform t)
{
    long failed = r->c->failed;
    cw_clear_error();
    if (judge(r, fail_at, cw_body_set_transform(r->world, r->ids[k], &t), failed, "cw_body_set_transform"))
        r->transforms[k] = t;
}

static void set_shape(grid_run *r, long fail_at, int k, cw_shape s)
{
    long failed = r->c->failed;
    cw_clear_error();
    if (judge(r, fail_at, cw_body_set_shape(r->world, r->ids[k], &s), failed, "cw_body_set_shape"))
        r->shapes[k] = s;
}

// The scenario: a crowd on one point and a few bodies far away (a first step that walks the cell
// table, the crowd's cell among them), one of the crowd moved, then every body made small and
// spread out on a lattice (a new automatic cell size, new cells).
static void script(grid_run *r, long fail_at)
{
    create_world(r, fail_at, 0);
    for (int k = 0; k < BODIES; k++)
        add_box(r, fail_at, 4, k < CROWD ? (cw_vec2){100 + (float)(k % 5) * 0.1f, 100}
                                         : (cw_vec2){k % 2 ? 2e4f : -2e4f, k % 3 ? 2e4f : -2e4f});
    step(r, fail_at);
    cw_transform t = r->transforms[7];
    t.position.x += 0.5f;
    set_transform(r, fail_at, 7, t);
    step(r, fail_at);
    for (int k = 0; k < r->count; k++) {
        set_shape(r, fail_at, k, cw_shape_box(0.3f, 0.3f));
        t = r->transforms[k];
        t.position = (cw_vec2){(float)(k % 14) * 0.25f, (float)(k / 14) * 0.25f};
        set_transform(r, fail_at, k, t);
    }
    step(r, fail_at);
    step(r, fail_at);
}

// A world whose cell table is at half load (the most it holds before growing: 126 cells of 256, the
// first size): one body moved (too few to scan the grid) onto the corner of four cells the table
// has never held makes it grow, in the middle of a step.
static void script_small_table(grid_run *r, long fail_at)
{
    create_world(r, fail_at, 8);
    for (int k = 0; k < 126; k++) // each in a cell of its own: 126 of the table's first 256 slots
        add_box(r, fail_at, 4, (cw_vec2){16 * (float)(k % 14) + 2, 16 * (float)(k / 14) + 2});
    step(r, fail_at); // every body new: the grid is scanned by sorting, its cell table left stale
    cw_transform t = r->transforms[5];
    t.position.x += 1;
    set_transform(r, fail_at, 5, t);
    step(r, fail_at); // one moved: the table is built again, to fit
    t = r->transforms[3];
    t.position = (cw_vec2){798, 798}; // over the corner of cells (99, 99) to (100, 100)
    set_transform(r, fail_at, 3, t);
    step(r, fail_at);
    step(r, fail_at);
}

// With memory back: two steps, then the world's pairs are cw_overlap()'s.
static void expect_recovered(grid_run *r, long fail_at)
{
    cw_world_step(r->world);
    cw_world_step(r->world);
    int touching = 0;
    for (int i = 0; i < r->count; i++)
        for (int j = i + 1; j < r->count; j++) {
            bool want = cw_overlap(&r->shapes[i], &r->transforms[i], &r->shapes[j], &r->transforms[j], NULL);
            touching += want;
            if (cw_pair_touching(r->world, r->ids[i], r->ids[j]) != want)
                problem(r, fail_at, "memory back", "a pair differs from cw_overlap");
        }
    if (cw_world_get_stats(r->world).touching_pairs != touching)
        problem(r, fail_at, "memory back", "the touching count differs from cw_overlap");
}

// Runs `script` with each of its allocations failing in turn; returns how many it made.
// Runs `script` with each of its allocations failing in turn (every fifth in scaled runs: the
// sanitizers and valgrind, where a crowd's steps are slow); returns how many allocations it makes.
static long sweep(void (*script_fn)(grid_run *, long), int *problems)
{
    counter c;
    counter_install(&c);
    static grid_run r;
    const long stride = gen_test_scale() > 1 ? 5 : 1;
    long made = 0;
    for (long k = 1;; k += stride) {
        memset(&r, 0, sizeof r);
        r.c = &c;
        counter_arm(&c, k);
        script_fn(&r, k);
        bool reached = c.armed_calls >= k;
        made = c.armed_calls;
        counter_arm(&c, 0);
        expect_recovered(&r, k);
        cw_world_destroy(r.world);
        *problems += r.problems;
        if (!reached)
            break;
    }
    counter_expect_no_leak(&c);
    return made;
}

static void test_grid_growth_out_of_memory(void **state)
{
    (void)state;
    int problems = 0;
    long crowd = sweep(script, &problems), small = sweep(script_small_table, &problems);
    printf("  crowds and new cell sizes: %ld allocations failing in turn; a small table grown in a step: %ld; "
           "%d problems\n", crowd, small, problems);
    assert_true(crowd > 10 && small > 5);
    assert_int_equal(problems, 0);
}

const struct CMUnitTest grid_alloc_tests[GRID_ALLOC_TEST_COUNT] = {
    cmocka_unit_test_teardown(test_grid_growth_out_of_memory, counter_restore_default),
};
