// The collworld test runner: every group, in order. Environment:
//   CW_TEST_SCALE=n   divide the random case counts by n (valgrind runs use 40)
//   CW_TEST_ONLY=seed run only the random case with that seed (as printed by a failure), verbosely
//   CW_TEST_GROUP=g   run only the groups whose name contains g (make tsan runs "threads" and "moves")
//   CW_TEST_SALT=n    mix n into every seeded generator: the same checks on other random cases
//                     (make soak runs a few; 0 or unset is the cases make test runs)
//   CW_TEST_SHARD=k/n run only every n-th group from the k-th (0-based), so that n processes share
//                     the suite (CI runs valgrind's two halves on two cores)
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "suites.h"

// Whether the group is in this process's shard (CW_TEST_SHARD; every group without it). The
// groups are counted in the order main() lists them.
static bool in_shard(void)
{
    static int index = 0, k = 0, n = 0;
    if (n == 0) {
        const char *shard = getenv("CW_TEST_SHARD");
        n = 1;
        if (shard != NULL && (sscanf(shard, "%d/%d", &k, &n) != 2 || n < 1 || k < 0 || k >= n)) {
            fprintf(stdout, "CW_TEST_SHARD=%s is not k/n with 0 <= k < n: running every group\n", shard);
            k = 0, n = 1;
        }
    }
    return index++ % n == k;
}

// Groups run so far: a selection that runs none is an error (a mistyped group, or a shard that
// would pass by running nothing).
static int groups_run = 0;

// Whether the group is selected by CW_TEST_GROUP (all are without it) and CW_TEST_SHARD.
static bool selected(const char *group)
{
    const char *only = getenv("CW_TEST_GROUP");
    bool shard = in_shard();
    bool run = shard && (only == NULL || strstr(group, only) != NULL);
    groups_run += run;
    return run;
}

#define RUN_GROUP(name, tests)                                                                                      \
    (selected(name) ? cmocka_run_group_tests_name(name, tests, NULL, NULL) : 0)

int main(void)
{
    // cmocka and these tests both print to stdout: unbuffered keeps details next to their test.
    setvbuf(stdout, NULL, _IONBF, 0);
    fprintf(stdout, "collworld tests (CW_TEST_SCALE=%d)\n", gen_test_scale());
    int failed = 0;
    failed += RUN_GROUP("reference", reference_tests);
    failed += RUN_GROUP("mask", mask_tests);
    failed += RUN_GROUP("sprite sheets", sheet_tests);
    failed += RUN_GROUP("errors", error_tests);
    failed += RUN_GROUP("allocator", alloc_tests);
    failed += RUN_GROUP("exact", exact_tests);
    failed += RUN_GROUP("overlap", overlap_tests);
    failed += RUN_GROUP("translated", translated_tests);
    failed += RUN_GROUP("placed", placed_tests);
    failed += RUN_GROUP("manifold", manifold_tests);
    failed += RUN_GROUP("minimum translation", mtd_tests);
    failed += RUN_GROUP("cast", cast_tests);
    failed += RUN_GROUP("world defaults and getters", world_getter_tests);
    failed += RUN_GROUP("world changes and their events", world_change_tests);
    // (Extremes before misuse: CW_TEST_SHARD=0/2 and 1/2 then take about as long under valgrind.)
    failed += RUN_GROUP("world extremes", world_extreme_tests);
    failed += RUN_GROUP("world ids and misuse", world_misuse_tests);
    failed += RUN_GROUP("world random", world_random_tests);
    failed += RUN_GROUP("world allocator", world_alloc_tests);
    failed += RUN_GROUP("grid allocator", grid_alloc_tests);
    failed += RUN_GROUP("made on first use", first_use_tests);
    failed += RUN_GROUP("gathered events", world_events_tests);
    failed += RUN_GROUP("body capacity", body_capacity_tests);
    failed += RUN_GROUP("world reserve", world_reserve_tests);
    failed += RUN_GROUP("world bytes", world_bytes_tests);
    failed += RUN_GROUP("swept bodies and world casts", world_swept_tests);
    failed += RUN_GROUP("touching, event arrays, groups, switches", world_touch_tests);
    failed += RUN_GROUP("queries: edges and corners by hand", query_edge_tests);
    failed += RUN_GROUP("queries: callbacks, filters and misuse", query_callback_tests);
    failed += RUN_GROUP("queries: single shapes", query_shape_tests);
    failed += RUN_GROUP("queries: random points, boxes and shapes", query_random_tests);
    failed += RUN_GROUP("queries: random rays", query_ray_tests);
    failed += RUN_GROUP("query rounding", query_rounding_tests);
    failed += RUN_GROUP("threads", thread_tests);
    failed += RUN_GROUP("limits", limit_tests);
    failed += RUN_GROUP("debug draw", debug_draw_tests);
    failed += RUN_GROUP("moves", move_tests);
    failed += RUN_GROUP("aabb", aabb_tests);
    failed += RUN_GROUP("mask release", mask_release_tests);
    failed += RUN_GROUP("scaled by powers of two", scaling_tests);
    if (groups_run == 0) {
        fprintf(stdout, "collworld tests: CW_TEST_GROUP and CW_TEST_SHARD selected no group\n");
        return 1;
    }
    if (failed)
        fprintf(stdout, "collworld tests: %d test(s) FAILED\n", failed);
    return failed ? 1 : 0;
}
