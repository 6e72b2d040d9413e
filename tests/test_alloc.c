// cw_set_allocator: every allocation goes through the user's functions, frees get the size that
// was asked for, failures surface as NULL with an error, and (NULL, NULL) restores malloc/free.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "suites.h"

#define MAX_BLOCKS 256

typedef struct counter {
    int allocs, frees, failed, bad_frees, size_mismatches, wrong_context;
    size_t live_bytes, peak_bytes, total_bytes;
    int fail_from;  ///< the allocation with this 1-based number and all after it fail; 0 = never
    int fail_every; ///< fail only allocation number fail_from (not the later ones) when nonzero
    struct {
        void *p;
        size_t size;
    } blocks[MAX_BLOCKS];
} counter;

static counter *expected_context;

static void *counting_alloc(size_t size, void *context)
{
    counter *c = context;
    if (c != expected_context) {
        expected_context->wrong_context++;
        return NULL;
    }
    int number = c->allocs + c->failed + 1;
    if (c->fail_from && number >= c->fail_from && (!c->fail_every || number == c->fail_from)) {
        c->failed++;
        return NULL;
    }
    void *p = malloc(size ? size : 1);
    if (p == NULL)
        return NULL;
    for (int k = 0; k < MAX_BLOCKS; k++)
        if (c->blocks[k].p == NULL) {
            c->blocks[k].p = p;
            c->blocks[k].size = size;
            c->allocs++;
            c->live_bytes += size;
            c->total_bytes += size;
            if (c->live_bytes > c->peak_bytes)
                c->peak_bytes = c->live_bytes;
            return p;
        }
    free(p); // table full: treat as out of memory
    c->failed++;
    return NULL;
}

static void counting_free(void *memory, size_t size, void *context)
{
    counter *c = context;
    if (c != expected_context) {
        expected_context->wrong_context++;
        return;
    }
    for (int k = 0; k < MAX_BLOCKS; k++)
        if (c->blocks[k].p == memory && memory != NULL) {
            if (c->blocks[k].size != size)
                c->size_mismatches++;
            c->live_bytes -= c->blocks[k].size;
            c->blocks[k].p = NULL;
            c->frees++;
            free(memory);
            return;
        }
    c->bad_frees++; // not ours (or NULL): leak it rather than crash
}

static counter *install(void)
{
    counter *c = calloc(1, sizeof *c);
    assert_non_null(c);
    expected_context = c;
    assert_true(cw_set_allocator(counting_alloc, counting_free, c));
    return c;
}

static void uninstall(counter *c)
{
    assert_true(cw_set_allocator(NULL, NULL, NULL));
    expected_context = NULL;
    free(c);
}

// Runs after every test, even a failed one: back to malloc/free for the rest of the suite.
static int restore_default(void **state)
{
    (void)state;
    if (!cw_set_allocator(NULL, NULL, NULL))
        return -1;
    // A counter left by a failed test stays allocated: masks it made may still be freed through it.
    return 0;
}

static void expect_balanced(const counter *c)
{
    if (c->allocs != c->frees || c->live_bytes != 0 || c->bad_frees || c->size_mismatches || c->wrong_context)
        printf("  allocator: %d allocs, %d frees, %zu bytes live, %d frees of unknown blocks, %d frees with the wrong "
               "size, %d calls with the wrong context\n",
               c->allocs, c->frees, c->live_bytes, c->bad_frees, c->size_mismatches, c->wrong_context);
    assert_int_equal(c->allocs, c->frees);
    assert_int_equal(c->live_bytes, 0);
    assert_int_equal(c->bad_frees, 0);
    assert_int_equal(c->size_mismatches, 0);
    assert_int_equal(c->wrong_context, 0);
}

static cw_mask *make(gen_rng *r, int rgba, int w, int h)
{
    size_t n = (size_t)w * (size_t)h * (rgba ? 4 : 1);
    uint8_t *px = malloc(n);
    assert_non_null(px);
    for (size_t k = 0; k < n; k++)
        px[k] = (uint8_t)gen_next(r);
    cw_mask *m = rgba ? cw_mask_from_rgba(px, w, h, 4 * w, 128) : cw_mask_from_alpha(px, w, h, w, 128);
    free(px);
    return m;
}

static void test_counting_allocator(void **state)
{
    (void)state;
    counter *c = install();
    gen_rng r = gen_seed(21);
    cw_mask *masks[12];
    static const int sizes[12][2] = {{1, 1},   {2, 3},   {64, 1}, {65, 2},   {1, 200}, {200, 150},
                                     {33, 47}, {128, 9}, {7, 7},  {300, 20}, {16, 16}, {1000, 3}};
    for (int k = 0; k < 12; k++) {
        int before = c->allocs;
        masks[k] = make(&r, k & 1, sizes[k][0], sizes[k][1]);
        assert_non_null(masks[k]);
        assert_true(c->allocs > before); // the mask came from our allocator
    }
    assert_true(c->live_bytes >= (size_t)(200 * 150) / 8); // at least a bit per texel
    // Overlap tests, with and without manifolds, must not leak either.
    cw_transform t = cw_default_transform();
    for (int k = 0; k < 12; k++)
        for (int l = 0; l < 12; l++) {
            cw_shape a = cw_shape_mask(masks[k]), b = cw_shape_mask(masks[l]);
            cw_transform tb = {{(float)gen_range(&r, -5, 5), (float)gen_range(&r, -5, 5)}, (float)gen_range(&r, -3, 3),
                               {(float)gen_range(&r, 0.3, 3), (float)gen_range(&r, 0.3, 3)}, {0, 0}};
            cw_manifold m;
            (void)cw_overlap(&a, &t, &b, &tb, &m);
            (void)cw_overlap(&a, &t, &b, &tb, NULL);
            cw_aabb box;
            assert_true(cw_shape_aabb(&a, &tb, &box));
        }
    for (int k = 0; k < 12; k++)
        cw_mask_destroy(masks[k]);
    printf("  counting allocator: %d allocations, %zu bytes in all, peak %zu bytes live\n", c->allocs, c->total_bytes,
           c->peak_bytes);
    expect_balanced(c);
    uninstall(c);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    counter *c = install();
    c->fail_from = 1; // every allocation fails
    gen_rng r = gen_seed(22);
    for (int rgba = 0; rgba < 2; rgba++) {
        cw_clear_error();
        assert_null(make(&r, rgba, 10, 10));
        assert_true(gen_contains_nocase(cw_last_error(), "memory"));
    }
    assert_true(c->failed >= 2);
    expect_balanced(c);
    uninstall(c);
}

// Failing the n-th allocation (for each n the library reaches) never leaks and never crashes.
static void test_fail_nth_allocation(void **state)
{
    (void)state;
    gen_rng r = gen_seed(23);
    for (int n = 1; n <= 6; n++) {
        counter *c = install();
        c->fail_from = n;
        c->fail_every = 1;
        cw_clear_error();
        cw_mask *m = make(&r, n & 1, 70, 30);
        if (m == NULL) {
            assert_true(gen_contains_nocase(cw_last_error(), "memory"));
        } else {
            assert_int_equal(cw_mask_width(m), 70);
            cw_mask_destroy(m);
        }
        expect_balanced(c);
        uninstall(c);
    }
}

// A random placement a whole number of quarter turns from the unturned, at one of a few scales.
static cw_transform quarter_turned(gen_rng *r)
{
    static const float scales[] = {1.0f, -1.0f, 2.0f, 0.5f};
    cw_transform t = cw_default_transform();
    t.position = (cw_vec2){(float)gen_range(r, -40, 40), (float)gen_range(r, -40, 40)};
    t.rotation = (float)(gen_int(r, -2, 2) * (GEN_PI / 2));
    t.scale.x = t.scale.y = scales[gen_int(r, 0, 3)];
    t.scale.y *= gen_chance(r, 0.2) ? -1.0f : 1.0f;
    t.origin = (cw_vec2){(float)gen_range(r, 0, 32), (float)gen_range(r, 0, 20)};
    return t;
}

// Makes a w x h mask from seed `seed`, its transposed copy's allocation failing if `without_copy`.
static cw_mask *make_copy_or_not(counter *c, uint64_t seed, int rgba, int w, int h, bool without_copy)
{
    gen_rng r = gen_seed(seed);
    c->fail_from = without_copy ? c->allocs + c->failed + 2 : 0; // the mask's block, then its copy
    c->fail_every = 1;
    int allocs = c->allocs;
    cw_clear_error();
    cw_mask *m = make(&r, rgba, w, h);
    assert_non_null(m);
    assert_string_equal(cw_last_error(), "");
    assert_int_equal(c->allocs - allocs, without_copy ? 1 : 2);
    c->fail_from = 0;
    return m;
}

// A mask at most 64 texels each way keeps a transposed copy for pairs a quarter turn apart, in a
// second allocation. Where that one fails the mask is still made, with no error recorded, and every
// pair gets the same answer as with masks that have their copies (the general test decides).
static void test_transposed_copy_out_of_memory(void **state)
{
    (void)state;
    counter *c = install();
    cw_mask *masks[2][2]; // [without copy][which]
    for (int without = 0; without < 2; without++) {
        masks[without][0] = make_copy_or_not(c, 26, 0, 32, 20, without);
        masks[without][1] = make_copy_or_not(c, 27, 1, 24, 30, without);
    }
    cw_shape fast[2] = {cw_shape_mask(masks[0][0]), cw_shape_mask(masks[0][1])};
    cw_shape general[2] = {cw_shape_mask(masks[1][0]), cw_shape_mask(masks[1][1])};
    gen_rng r = gen_seed(28);
    int touching = 0;
    for (int k = 0; k < 4000; k++) {
        cw_transform ta = quarter_turned(&r), tb = quarter_turned(&r);
        bool with_copy = cw_overlap(&fast[0], &ta, &fast[1], &tb, NULL);
        bool without_copy = cw_overlap(&general[0], &ta, &general[1], &tb, NULL);
        if (with_copy != without_copy)
            printf("  case %d: the masks with their copies say %d, without them %d\n", k, with_copy, without_copy);
        assert_int_equal(with_copy, without_copy);
        assert_int_equal(cw_overlap(&fast[1], &tb, &fast[0], &ta, NULL), with_copy);
        touching += with_copy;
    }
    assert_true(touching > 400 && touching < 3600); // both answers are common
    for (int without = 0; without < 2; without++)
        for (int k = 0; k < 2; k++)
            cw_mask_destroy(masks[without][k]);
    expect_balanced(c);
    uninstall(c);
}

static void test_half_null_keeps_allocator(void **state)
{
    (void)state;
    counter *c = install();
    assert_false(cw_set_allocator(counting_alloc, NULL, c));
    assert_false(cw_set_allocator(NULL, counting_free, c));
    gen_rng r = gen_seed(24);
    cw_mask *m = make(&r, 0, 5, 5);
    assert_non_null(m);
    assert_true(c->allocs >= 1); // still ours
    cw_mask_destroy(m);
    expect_balanced(c);
    uninstall(c);
}

static void test_default_restored(void **state)
{
    (void)state;
    counter *c = install();
    assert_true(cw_set_allocator(NULL, NULL, NULL));
    gen_rng r = gen_seed(25);
    cw_mask *m = make(&r, 1, 9, 9);
    assert_non_null(m);
    cw_mask_destroy(m);
    assert_int_equal(c->allocs, 0);
    assert_int_equal(c->frees + c->bad_frees + c->wrong_context, 0);
    expected_context = NULL;
    free(c);
}

const struct CMUnitTest alloc_tests[] = {
    cmocka_unit_test_teardown(test_counting_allocator, restore_default),
    cmocka_unit_test_teardown(test_out_of_memory, restore_default),
    cmocka_unit_test_teardown(test_fail_nth_allocation, restore_default),
    cmocka_unit_test_teardown(test_transposed_copy_out_of_memory, restore_default),
    cmocka_unit_test_teardown(test_half_null_keeps_allocator, restore_default),
    cmocka_unit_test_teardown(test_default_restored, restore_default),
};
