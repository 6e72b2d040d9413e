// The test groups. Each tests/test_*.c file defines one array of CMUnitTest; tests/main.c runs them
// all. The counts are checked at compile time: a definition whose initializer has a different
// number of entries conflicts with these declarations.
#ifndef CW_TEST_SUITES_H
#define CW_TEST_SUITES_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#define REFERENCE_TEST_COUNT 7
extern const struct CMUnitTest reference_tests[REFERENCE_TEST_COUNT];

#define MASK_TEST_COUNT 16
extern const struct CMUnitTest mask_tests[MASK_TEST_COUNT];

#define ERROR_TEST_COUNT 11
extern const struct CMUnitTest error_tests[ERROR_TEST_COUNT];

#define ALLOC_TEST_COUNT 6
extern const struct CMUnitTest alloc_tests[ALLOC_TEST_COUNT];

#define EXACT_TEST_COUNT 13
extern const struct CMUnitTest exact_tests[EXACT_TEST_COUNT];

#define OVERLAP_TEST_COUNT 11
extern const struct CMUnitTest overlap_tests[OVERLAP_TEST_COUNT];

// cw_overlap's translated path (unrotated masks at one scale) against the reference, both ways
// round and against the world.
#define TRANSLATED_TEST_COUNT 2
extern const struct CMUnitTest translated_tests[TRANSLATED_TEST_COUNT];

// cw_place and cw_placed_overlap: cw_overlap's answers to the bit, and their misuse.
#define PLACED_TEST_COUNT 2
extern const struct CMUnitTest placed_tests[PLACED_TEST_COUNT];

#define MANIFOLD_TEST_COUNT 8
extern const struct CMUnitTest manifold_tests[MANIFOLD_TEST_COUNT];

// A world's defaults, and its body getters reading back what was set.
#define WORLD_GETTER_TEST_COUNT 2
extern const struct CMUnitTest world_getter_tests[WORLD_GETTER_TEST_COUNT];

// When contact events come after changes between steps and inside callbacks, and what they carry.
#define WORLD_CHANGE_TEST_COUNT 5
extern const struct CMUnitTest world_change_tests[WORLD_CHANGE_TEST_COUNT];

// Stale, null and reused body ids, and the world's misuse failing with the exact error.
#define WORLD_MISUSE_TEST_COUNT 6
extern const struct CMUnitTest world_misuse_tests[WORLD_MISUSE_TEST_COUNT];

// Placements at the float range's edges and a mask scene, stepped through the reference.
#define WORLD_EXTREME_TEST_COUNT 5
extern const struct CMUnitTest world_extreme_tests[WORLD_EXTREME_TEST_COUNT];

// Point queries within rounding of a body's edge agree with the single-shape test.
#define QUERY_ROUNDING_TEST_COUNT 1
extern const struct CMUnitTest query_rounding_tests[QUERY_ROUNDING_TEST_COUNT];

// cw_shape_aabb of a box is its exact bounds rounded outward to floats, and the world's the same.
#define AABB_TEST_COUNT 1
extern const struct CMUnitTest aabb_tests[AABB_TEST_COUNT];

// A moved body is the body created there (cw_body_set_transform's short path); a list of moves is
// those moves one at a time (cw_world_set_transforms).
#define MOVE_TEST_COUNT 7
extern const struct CMUnitTest move_tests[MOVE_TEST_COUNT];

#define DEBUG_DRAW_TEST_COUNT 5
extern const struct CMUnitTest debug_draw_tests[DEBUG_DRAW_TEST_COUNT];

#define LIMIT_TEST_COUNT 9
extern const struct CMUnitTest limit_tests[LIMIT_TEST_COUNT];

#define THREAD_TEST_COUNT 8
extern const struct CMUnitTest thread_tests[THREAD_TEST_COUNT];

#define WORLD_RANDOM_TEST_COUNT 17
extern const struct CMUnitTest world_random_tests[WORLD_RANDOM_TEST_COUNT];

#define WORLD_ALLOC_TEST_COUNT 6
extern const struct CMUnitTest world_alloc_tests[WORLD_ALLOC_TEST_COUNT];

// The grid's rarer growth (crowds, new cell sizes, new cells) with a failing allocation in turn.
#define GRID_ALLOC_TEST_COUNT 1
extern const struct CMUnitTest grid_alloc_tests[GRID_ALLOC_TEST_COUNT];

// What a world makes on first use (swept list, body index, query lanes) and its out-of-memory.
#define FIRST_USE_TEST_COUNT 3
extern const struct CMUnitTest first_use_tests[FIRST_USE_TEST_COUNT];

// The event arrays against the callbacks on random worlds changed between the step and the asking;
// gathering out of memory.
#define WORLD_EVENTS_TEST_COUNT 3
extern const struct CMUnitTest world_events_tests[WORLD_EVENTS_TEST_COUNT];

// cw_world_stats::bytes against a counting allocator, to the byte, on random worlds.
#define WORLD_BYTES_TEST_COUNT 2
extern const struct CMUnitTest world_bytes_tests[WORLD_BYTES_TEST_COUNT];

// cw_world_def::body_capacity: exact room, the same world with and without it, its misuse.
#define BODY_CAPACITY_TEST_COUNT 4
extern const struct CMUnitTest body_capacity_tests[BODY_CAPACITY_TEST_COUNT];

// cw_world_reserve: room made in a living world, the same world with and without it, its misuse.
#define WORLD_RESERVE_TEST_COUNT 4
extern const struct CMUnitTest world_reserve_tests[WORLD_RESERVE_TEST_COUNT];

// Queries where shapes, texels and cells meet, by hand: grazes, corners, the half-open rule, the
// reference itself, and the cases found in review and by the fuzzer.
#define QUERY_EDGE_TEST_COUNT 9
extern const struct CMUnitTest query_edge_tests[QUERY_EDGE_TEST_COUNT];

// The world queries' contract by hand: now-ness, callbacks (query, ray, contact), filters, misuse.
#define QUERY_CALLBACK_TEST_COUNT 8
extern const struct CMUnitTest query_callback_tests[QUERY_CALLBACK_TEST_COUNT];

// cw_shape_contains_point and cw_shape_raycast on random shapes against the slow reference.
#define QUERY_SHAPE_TEST_COUNT 1
extern const struct CMUnitTest query_shape_tests[QUERY_SHAPE_TEST_COUNT];

// World point, AABB and shape queries on random scenes against brute force over every body.
#define QUERY_RANDOM_TEST_COUNT 2
extern const struct CMUnitTest query_random_tests[QUERY_RANDOM_TEST_COUNT];

// World rays on random scenes against the slow reference, through every callback answer.
#define QUERY_RAY_TEST_COUNT 1
extern const struct CMUnitTest query_ray_tests[QUERY_RAY_TEST_COUNT];

#define CAST_TEST_COUNT 5
extern const struct CMUnitTest cast_tests[CAST_TEST_COUNT];

#define MTD_TEST_COUNT 6
extern const struct CMUnitTest mtd_tests[MTD_TEST_COUNT];

#define WORLD_SWEPT_TEST_COUNT 8
extern const struct CMUnitTest world_swept_tests[WORLD_SWEPT_TEST_COUNT];

#define WORLD_TOUCH_TEST_COUNT 12
extern const struct CMUnitTest world_touch_tests[WORLD_TOUCH_TEST_COUNT];

#define SHEET_TEST_COUNT 4
extern const struct CMUnitTest sheet_tests[SHEET_TEST_COUNT];

#define MASK_RELEASE_TEST_COUNT 1
extern const struct CMUnitTest mask_release_tests[MASK_RELEASE_TEST_COUNT];

// Whole cases scaled by powers of two: the same answers (test_scaling.c).
#define SCALING_TEST_COUNT 1
extern const struct CMUnitTest scaling_tests[SCALING_TEST_COUNT];

#endif
