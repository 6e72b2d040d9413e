// The collworld test runner: every group, in order. Environment:
//   CW_TEST_SCALE=n   divide the random case counts by n (valgrind runs use 20)
//   CW_TEST_ONLY=seed run only the random case with that seed (as printed by a failure), verbosely
#include <stdio.h>

#include "gen.h"
#include "suites.h"

int main(void)
{
    // cmocka and these tests both print to stdout: unbuffered keeps details next to their test.
    setvbuf(stdout, NULL, _IONBF, 0);
    fprintf(stdout, "collworld tests (CW_TEST_SCALE=%d)\n", gen_test_scale());
    int failed = 0;
    failed += cmocka_run_group_tests_name("reference", reference_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("mask", mask_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("sprite sheets", sheet_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("errors", error_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("allocator", alloc_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("exact", exact_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("overlap", overlap_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("manifold", manifold_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("minimum translation", mtd_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("cast", cast_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("world", world_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("world random", world_random_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("world allocator", world_alloc_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("swept bodies and world casts", world_swept_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("touching, event arrays, groups, switches", world_touch_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("queries", query_tests, NULL, NULL);
    if (failed)
        fprintf(stdout, "collworld tests: %d test(s) FAILED\n", failed);
    return failed ? 1 : 0;
}
