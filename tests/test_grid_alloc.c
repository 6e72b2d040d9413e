// The grid's rarer growth with a failing allocation at every point in turn (found by coverage: the
// main sweep in test_world_alloc.c never reaches them): a crowd of more bodies in one cell than the
// scan's room on the stack, and a cell size the automatic choice picks anew for smaller bodies.
// Each failing call says so, a step that passes leaves no error (one whose new cell size found no
// memory went on with the old size, and left "Out of memory" behind), and once memory is back the
// next steps find exactly the pairs cw_overlap() finds.
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
    int problems;
} grid_run;

static void problem(grid_run *r, long fail_at, const char *what)
{
    if (r->problems++ < 5)
        printf("  FAIL [out of memory at allocation %ld] %s\n", fail_at, what);
}

// A call that failed ran out of memory just now and says so; one that passed left no error.
static bool judge(grid_run *r, long fail_at, bool ok, long failed_before, const char *what)
{
    if (!ok && (r->c->failed == failed_before || cw_last_error()[0] == '\0'))
        problem(r, fail_at, what);
    if (ok && cw_last_error()[0] != '\0')
        problem(r, fail_at, what);
    return ok;
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
    cw_world_def def = cw_default_world_def();
    long failed = r->c->failed;
    r->world = cw_world_create(&def);
    if (!judge(r, fail_at, r->world != NULL, failed, "cw_world_create"))
        r->world = cw_world_create(&def); // only one allocation fails
    assert_non_null(r->world);
    for (int k = 0; k < BODIES; k++) {
        cw_body_def bd = cw_default_body_def();
        bd.shape = cw_shape_box(4, 4);
        bd.transform.position = k < CROWD ? (cw_vec2){100 + (float)(k % 5) * 0.1f, 100}
                                          : (cw_vec2){k % 2 ? 2e4f : -2e4f, k % 3 ? 2e4f : -2e4f};
        failed = r->c->failed;
        cw_clear_error();
        r->ids[k] = cw_body_create(r->world, &bd);
        if (!judge(r, fail_at, !cw_body_id_is_null(r->ids[k]), failed, "cw_body_create"))
            r->ids[k] = cw_body_create(r->world, &bd);
        assert_false(cw_body_id_is_null(r->ids[k]));
        r->shapes[k] = bd.shape, r->transforms[k] = bd.transform;
    }
    step(r, fail_at);
    cw_transform t = r->transforms[7];
    t.position.x += 0.5f;
    set_transform(r, fail_at, 7, t);
    step(r, fail_at);
    for (int k = 0; k < BODIES; k++) {
        set_shape(r, fail_at, k, cw_shape_box(0.3f, 0.3f));
        t = r->transforms[k];
        t.position = (cw_vec2){(float)(k % 14) * 0.25f, (float)(k / 14) * 0.25f};
        set_transform(r, fail_at, k, t);
    }
    step(r, fail_at);
    step(r, fail_at);
}

// With memory back: two steps, then the world's pairs are cw_overlap()'s.
static void expect_recovered(grid_run *r, long fail_at)
{
    cw_world_step(r->world);
    cw_world_step(r->world);
    int touching = 0;
    for (int i = 0; i < BODIES; i++)
        for (int j = i + 1; j < BODIES; j++) {
            bool want = cw_overlap(&r->shapes[i], &r->transforms[i], &r->shapes[j], &r->transforms[j], NULL);
            touching += want;
            if (cw_pair_touching(r->world, r->ids[i], r->ids[j]) != want)
                problem(r, fail_at, "a pair differs from cw_overlap once memory is back");
        }
    if (cw_world_get_stats(r->world).touching_pairs != touching)
        problem(r, fail_at, "the touching count differs from cw_overlap once memory is back");
}

static void test_grid_growth_out_of_memory(void **state)
{
    (void)state;
    counter c;
    counter_install(&c);
    static grid_run r;
    long k = 1;
    int problems = 0;
    for (;; k++) {
        memset(&r, 0, sizeof r);
        r.c = &c;
        counter_arm(&c, k);
        script(&r, k);
        bool reached = c.armed_calls >= k;
        counter_arm(&c, 0);
        expect_recovered(&r, k);
        cw_world_destroy(r.world);
        problems += r.problems;
        if (!reached)
            break;
    }
    printf("  crowds and new cell sizes: %ld allocations failed in turn, %d problems\n", k - 1, problems);
    counter_expect_no_leak(&c);
    assert_true(k > 10);
    assert_int_equal(problems, 0);
}

const struct CMUnitTest grid_alloc_tests[GRID_ALLOC_TEST_COUNT] = {
    cmocka_unit_test_teardown(test_grid_growth_out_of_memory, counter_restore_default),
};
