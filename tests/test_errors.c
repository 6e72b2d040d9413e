// Errors: bad input fails (false / NULL / 0) with a one-sentence message in cw_last_error(), never
// crashes, and leaves outputs alone; the message is per thread and cleared only by cw_clear_error().
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <threads.h>
#include <unistd.h>

#include "expect_error.h"
#include "gen.h"
#include "suites.h"

static void test_clear_error(void **state)
{
    (void)state;
    assert_non_null(cw_last_error());
    cw_clear_error();
    expect_no_error();
    assert_null(cw_mask_from_alpha(NULL, 1, 1, 1, 1));
    expect_error("NULL");
    const char *first = cw_last_error();
    // A successful call does not clear it.
    uint8_t a = 255;
    cw_mask *m = cw_mask_from_alpha(&a, 1, 1, 1, 1);
    assert_non_null(m);
    assert_string_equal(cw_last_error(), first);
    cw_clear_error();
    expect_no_error();
    cw_clear_error();
    expect_no_error();
    cw_mask_destroy(m);
}

static void test_mask_creation_errors(void **state)
{
    (void)state;
    uint8_t buf[64 * 4] = {0};
    for (int rgba = 0; rgba < 2; rgba++) {
        int bpp = rgba ? 4 : 1;
#define MAKE(px, w, h, pitch)                                                                                          \
    (rgba ? cw_mask_from_rgba((px), (w), (h), (pitch), 128) : cw_mask_from_alpha((const uint8_t *)(px), (w), (h), (pitch), 128))
        cw_clear_error();
        assert_null(MAKE(NULL, 4, 4, 4 * bpp));
        expect_error("NULL");
        static const int bad_sizes[] = {0, -1, -100, INT_MIN, CW_MASK_MAX_SIZE + 1, INT_MAX};
        for (size_t k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; k++) {
            int s = bad_sizes[k];
            if (rgba && s > INT_MAX / 4) // no pitch could hold such a row: skip the ambiguous case
                continue;
            int pitch = s > 0 ? s * bpp : 64; // a pitch that is not the problem
            cw_clear_error();
            assert_null(MAKE(buf, s, 1, pitch));
            expect_error("width");
            cw_clear_error();
            assert_null(MAKE(buf, 1, s, 4));
            expect_error("height");
        }
        // Pitch smaller than one row.
        static const int widths[] = {1, 3, 16};
        for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
            int w = widths[k];
            static const int minus[] = {1, 2};
            for (size_t d = 0; d < 2; d++) {
                int pitch = w * bpp - minus[d];
                cw_clear_error();
                assert_null(MAKE(buf, w, 2, pitch));
                expect_error("pitch");
            }
            cw_clear_error();
            assert_null(MAKE(buf, w, 2, -w * bpp));
            expect_error("pitch");
            cw_clear_error();
            assert_null(MAKE(buf, w, 2, INT_MIN));
            expect_error("pitch");
        }
        // RGBA needs 4 bytes per pixel: a pitch of `width` bytes is too small.
        if (rgba) {
            cw_clear_error();
            assert_null(MAKE(buf, 8, 2, 8));
            expect_error("pitch");
        }
#undef MAKE
    }
}

// The byte count (height - 1) * pitch + row overflowing: must fail without reading the pixels. Run
// in a child process so that a library that does read them crashes only the child.
static int overflow_child(int rgba, int w, int h, int pitch)
{
    // cmocka catches these signals and would carry on running the rest of the suite in this child.
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
        signal(sigs[k], SIG_DFL);
    uint8_t tiny[16] = {0};
    cw_clear_error();
    cw_mask *m = rgba ? cw_mask_from_rgba(tiny, w, h, pitch, 1) : cw_mask_from_alpha(tiny, w, h, pitch, 1);
    if (m != NULL) {
        cw_mask_destroy(m);
        return 2;
    }
    return gen_contains_nocase(cw_last_error(), "overflow") ? 0 : 3;
}

static void test_pitch_overflow(void **state)
{
    (void)state;
    // {width, height, pitch}; the last one makes (height - 1) * pitch + row bytes exactly INT_MAX + 1.
    static const int cases[][3] = {
        {CW_MASK_MAX_SIZE, CW_MASK_MAX_SIZE, INT_MAX},
        {1, CW_MASK_MAX_SIZE, INT_MAX},
        {CW_MASK_MAX_SIZE, CW_MASK_MAX_SIZE, INT_MAX / 2 + 1},
        {1, 2, 0},
    };
    int failures = 0;
    for (int rgba = 0; rgba < 2; rgba++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            int w = cases[k][0], h = cases[k][1], pitch = cases[k][2];
            if (pitch == 0)
                pitch = INT_MAX - (rgba ? 4 * w : w) + 1;
            fflush(stdout);
            pid_t pid = fork();
            assert_true(pid >= 0);
            if (pid == 0)
                _exit(overflow_child(rgba, w, h, pitch));
            int status = 0;
            assert_int_equal(waitpid(pid, &status, 0), pid);
            const char *what = NULL;
            if (WIFSIGNALED(status))
                what = "crashed (it read the pixels)";
            else if (WEXITSTATUS(status) == 2)
                what = "returned a mask";
            else if (WEXITSTATUS(status) == 3)
                what = "failed without an error mentioning \"overflow\"";
            else if (WEXITSTATUS(status) != 0)
                what = "child failed (a sanitizer or valgrind report?)";
            if (what != NULL) {
                failures++;
                printf("  cw_mask_from_%s(16-byte buffer, width %d, height %d, pitch %d): %s (status 0x%x)\n",
                       rgba ? "rgba" : "alpha", w, h, pitch, what, (unsigned)status);
            }
        }
    assert_int_equal(failures, 0);
}

static void test_overlap_null_arguments(void **state)
{
    (void)state;
    cw_shape s = cw_shape_box(1, 1);
    cw_transform t = cw_default_transform();
    cw_manifold sentinel, m;
    memset(&sentinel, 0x5a, sizeof sentinel);
    m = sentinel;
    const cw_shape *shapes[4][2] = {{NULL, &s}, {&s, &s}, {&s, NULL}, {&s, &s}};
    const cw_transform *xfs[4][2] = {{&t, &t}, {NULL, &t}, {&t, &t}, {&t, NULL}};
    for (int k = 0; k < 4; k++) {
        cw_clear_error();
        assert_false(cw_overlap(shapes[k][0], xfs[k][0], shapes[k][1], xfs[k][1], &m));
        expect_error("NULL");
        assert_memory_equal(&m, &sentinel, sizeof m);
        cw_clear_error();
        assert_false(cw_overlap(shapes[k][0], xfs[k][0], shapes[k][1], xfs[k][1], NULL));
        expect_error("NULL");
    }
}

static void test_overlap_bad_shapes(void **state)
{
    (void)state;
    cw_shape good = cw_shape_box(1, 1);
    cw_transform t = cw_default_transform();
    cw_manifold sentinel, m;
    memset(&sentinel, 0x5a, sizeof sentinel);
    m = sentinel;
    // Unknown types.
    static const int types[] = {7, 0, 3, -1};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        cw_shape bad = good;
        bad.type = (cw_shape_type)types[k];
        cw_clear_error();
        assert_false(cw_overlap(&bad, &t, &good, &t, &m));
        expect_error("type");
        cw_clear_error();
        assert_false(cw_overlap(&good, &t, &bad, &t, &m));
        expect_error("type");
    }
    // Boxes with a size that is not finite and positive, with and without a manifold (two boxes
    // take a short path without one).
    static const float sizes[] = {0.0f, -0.0f, -1.0f, NAN, INFINITY, -INFINITY};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int axis = 0; axis < 4; axis++) {
            cw_shape bad = axis & 1 ? cw_shape_box(1, sizes[k]) : cw_shape_box(sizes[k], 1);
            cw_manifold *out = axis < 2 ? &m : NULL;
            cw_clear_error();
            assert_false(cw_overlap(&bad, &t, &good, &t, out));
            expect_error("box");
            cw_clear_error();
            assert_false(cw_overlap(&good, &t, &bad, &t, out));
            expect_error("box");
        }
    // A mask shape without a mask.
    cw_shape nomask = cw_shape_mask(NULL);
    cw_clear_error();
    assert_false(cw_overlap(&nomask, &t, &good, &t, &m));
    expect_error("mask");
    cw_clear_error();
    assert_false(cw_overlap(&good, &t, &nomask, &t, &m));
    expect_error("mask");
    assert_memory_equal(&m, &sentinel, sizeof m);
}

// cw_overlap of shape s under `bad` against s under `good`, both ways round, fails with an error
// mentioning `word`.
#define expect_bad_transform(s, bad, good, out, word) \
    expect_bad_transform_at((s), (bad), (good), (out), (word), __FILE__, __LINE__)
static void expect_bad_transform_at(const cw_shape *s, const cw_transform *bad, const cw_transform *good,
                                    cw_manifold *out, const char *word, const char *file, int line)
{
    cw_clear_error();
    assert_false(cw_overlap(s, bad, s, good, out));
    expect_error_at(word, file, line);
    cw_clear_error();
    assert_false(cw_overlap(s, good, s, bad, out));
    expect_error_at(word, file, line);
}

// Every bad transform field fails with its error, for boxes and masks, with and without a manifold
// (the common pairs take short paths without one, which must refuse bad input as the full one does).
static void test_overlap_bad_transforms(void **state)
{
    (void)state;
    static const uint8_t opaque[4] = {255, 255, 255, 255};
    cw_mask *mask = cw_mask_from_alpha(opaque, 2, 2, 2, 128);
    assert_non_null(mask);
    const cw_shape shapes[2] = {cw_shape_box(1, 1), cw_shape_mask(mask)};
    cw_transform good = cw_default_transform();
    cw_manifold sentinel, m;
    memset(&sentinel, 0x5a, sizeof sentinel);
    m = sentinel;
    static const float bad_values[] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 4; k++) {
        const cw_shape *s = &shapes[k & 1];
        cw_manifold *out = k < 2 ? &m : NULL;
        for (int field = 0; field < 7; field++)
            for (size_t v = 0; v < 3; v++) {
                cw_transform bad = good;
                float *f[7] = {&bad.position.x, &bad.position.y, &bad.rotation, &bad.scale.x,
                               &bad.scale.y,    &bad.origin.x,   &bad.origin.y};
                *f[field] = bad_values[v];
                expect_bad_transform(s, &bad, &good, out, "finite");
            }
        static const float zeros[] = {0.0f, -0.0f};
        for (int axis = 0; axis < 2; axis++)
            for (int z = 0; z < 2; z++) {
                cw_transform bad = good;
                if (axis)
                    bad.scale.y = zeros[z];
                else
                    bad.scale.x = zeros[z];
                expect_bad_transform(s, &bad, &good, out, "scale");
            }
    }
    assert_memory_equal(&m, &sentinel, sizeof m);
    cw_mask_destroy(mask);
}

static void test_aabb_errors(void **state)
{
    (void)state;
    cw_shape s = cw_shape_box(1, 1), bad_box = cw_shape_box(0, 1), nomask = cw_shape_mask(NULL);
    cw_transform t = cw_default_transform(), bad_t = t;
    bad_t.rotation = NAN;
    cw_aabb sentinel, box;
    memset(&sentinel, 0x5a, sizeof sentinel);
    box = sentinel;
    cw_clear_error();
    assert_false(cw_shape_aabb(NULL, &t, &box));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_shape_aabb(&s, NULL, &box));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_shape_aabb(&s, &t, NULL));
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_shape_aabb(&bad_box, &t, &box));
    expect_error("box");
    cw_clear_error();
    assert_false(cw_shape_aabb(&nomask, &t, &box));
    expect_error("mask");
    cw_clear_error();
    assert_false(cw_shape_aabb(&s, &bad_t, &box));
    expect_error("finite");
    bad_t = t;
    bad_t.scale.y = 0;
    cw_clear_error();
    assert_false(cw_shape_aabb(&s, &bad_t, &box));
    expect_error("scale");
    cw_shape bad_type = s;
    bad_type.type = (cw_shape_type)7;
    cw_clear_error();
    assert_false(cw_shape_aabb(&bad_type, &t, &box));
    expect_error("type");
    assert_memory_equal(&box, &sentinel, sizeof box);
}

static void test_mask_accessors_null(void **state)
{
    (void)state;
    cw_clear_error();
    assert_int_equal(cw_mask_width(NULL), 0);
    expect_error("NULL");
    cw_clear_error();
    assert_int_equal(cw_mask_height(NULL), 0);
    expect_error("NULL");
    cw_clear_error();
    assert_int_equal(cw_mask_count(NULL), 0);
    expect_error("NULL");
    cw_clear_error();
    assert_false(cw_mask_get(NULL, 0, 0));
    expect_error("NULL");
}

static void *dummy_alloc(size_t size, void *context)
{
    (void)size;
    (void)context;
    return NULL;
}

static void dummy_free(void *memory, size_t size, void *context)
{
    (void)memory;
    (void)size;
    (void)context;
}

static void test_set_allocator_half_null(void **state)
{
    (void)state;
    cw_clear_error();
    assert_false(cw_set_allocator(dummy_alloc, NULL, NULL));
    expect_error("alloc");
    cw_clear_error();
    assert_false(cw_set_allocator(NULL, dummy_free, NULL));
    expect_error("alloc");
    // The allocator is unchanged (still the default): masks can be made.
    uint8_t a = 255;
    cw_mask *m = cw_mask_from_alpha(&a, 1, 1, 1, 1);
    assert_non_null(m);
    cw_mask_destroy(m);
    cw_clear_error();
    assert_true(cw_set_allocator(NULL, NULL, NULL));
    expect_no_error();
}

static void test_valid_calls_work_after_errors(void **state)
{
    (void)state;
    cw_shape box = cw_shape_box(2, 2), bad = cw_shape_box(-2, 2);
    cw_transform t = cw_default_transform(), t2 = {{1, 1}, 0, {1, 1}, {0, 0}};
    cw_clear_error();
    assert_false(cw_overlap(&bad, &t, &box, &t2, NULL));
    expect_error("box");
    const char *msg = cw_last_error();
    cw_manifold m;
    assert_true(cw_overlap(&box, &t, &box, &t2, &m)); // works, and the error stays
    assert_string_equal(cw_last_error(), msg);
    assert_null(cw_mask_from_rgba(NULL, 1, 1, 4, 1));
    uint8_t px[4] = {0, 0, 0, 255};
    cw_mask *mask = cw_mask_from_rgba(px, 1, 1, 4, 1);
    assert_non_null(mask);
    cw_shape ms = cw_shape_mask(mask);
    assert_true(cw_overlap(&ms, &t, &box, &t, NULL));
    cw_aabb aabb;
    assert_true(cw_shape_aabb(&ms, &t2, &aabb));
    assert_float_equal(aabb.max.x, 2, 1e-5);
    cw_clear_error();
    expect_no_error();
    cw_mask_destroy(mask);
}

typedef struct thread_report {
    char initial[64];
    char after[256];
} thread_report;

static int error_thread(void *arg)
{
    thread_report *r = arg;
    const char *e = cw_last_error();
    snprintf(r->initial, sizeof r->initial, "%s", e ? e : "(NULL)");
    (void)cw_mask_width(NULL);
    snprintf(r->after, sizeof r->after, "%s", cw_last_error());
    return 0;
}

static void test_errors_are_per_thread(void **state)
{
    (void)state;
    cw_clear_error();
    cw_shape bad = cw_shape_box(NAN, 1);
    cw_transform t = cw_default_transform();
    assert_false(cw_overlap(&bad, &t, &bad, &t, NULL));
    char mine[256];
    snprintf(mine, sizeof mine, "%s", cw_last_error());
    thread_report r = {{0}, {0}};
    thrd_t th;
    assert_int_equal(thrd_create(&th, error_thread, &r), thrd_success);
    assert_int_equal(thrd_join(th, NULL), thrd_success);
    assert_string_equal(r.initial, ""); // a new thread starts with no error
    assert_true(gen_contains_nocase(r.after, "NULL"));
    assert_string_equal(cw_last_error(), mine); // not changed by the other thread
    cw_clear_error();
}

const struct CMUnitTest error_tests[] = {
    cmocka_unit_test(test_clear_error),
    cmocka_unit_test(test_mask_creation_errors),
    cmocka_unit_test(test_pitch_overflow),
    cmocka_unit_test(test_overlap_null_arguments),
    cmocka_unit_test(test_overlap_bad_shapes),
    cmocka_unit_test(test_overlap_bad_transforms),
    cmocka_unit_test(test_aabb_errors),
    cmocka_unit_test(test_mask_accessors_null),
    cmocka_unit_test(test_set_allocator_half_null),
    cmocka_unit_test(test_valid_calls_work_after_errors),
    cmocka_unit_test(test_errors_are_per_thread),
};
