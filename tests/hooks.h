// Test-only hooks into the library (defined in world/ and narrow/, declared in their internal.h, not
// part of the public API or the shared library's exports: the tests link the static library).
#ifndef CW_TEST_HOOKS_H
#define CW_TEST_HOOKS_H

#include <stdint.h>

#include <collworld.h>

// Brings the world's wrapping counters (the grid's step stamp, the step count, the query lanes'
// marks, free slots' reuse counts) `left` steps, queries or reuses short of their wrap.
void cw__test_near_wrap(cw_world *world, uint32_t left);

// Lists of moves with at least `work` box moves' worth (a mask counts two) go to the workers, where
// the world has them, and their bodies' records are asked for ahead as in a large world (0: the
// library's own thresholds), so that tests reach those paths with short lists in small worlds.
void cw__test_share_moves_from(cw_world *world, int work);

// The lower bound the minimum translation puts on every move of B that parts A and B (narrow/mtd.c),
// from points deep in both, `inside` (a world point inside their overlap) among them: rows are not
// searched where the bound says no shorter move exists. NaN for shapes that cannot be prepared.
double cw__test_parting_bound(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                              cw_vec2 inside);

#endif
