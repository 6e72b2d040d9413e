// Sprite sheets: random sheets with repeated frames checked texel by texel against the pixels
// (alpha >= threshold), mask sharing against a brute-force comparison of the frames' texels, the
// names in order, every misuse with its message (the sheet unchanged), and out of memory at every
// allocation of a scripted build (the call fails cleanly, the sheet is as it was, nothing leaks).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counting.h"
#include "expect_error.h"
#include "gen.h"
#include "suites.h"

// --- a random sheet image and the reference's view of it ---

typedef struct image {
    uint8_t *rgba;
    int width, height, pitch; // pitch: bytes per row, at least 4 * width
} image;

// A sheet of `columns` x `rows` frames of fw x fh pixels, plus `extra` pixels of slack on the right
// and bottom (partial frames) and padding bytes at the end of each row. Frames are drawn from a few
// random patterns, so many repeat; a few patterns differ from another by one texel.
static image random_sheet(gen_rng *r, int columns, int rows, int fw, int fh, int extra)
{
    image im;
    im.width = columns * fw + extra, im.height = rows * fh + extra;
    im.pitch = 4 * im.width + 4 * gen_int(r, 0, 3);
    im.rgba = calloc((size_t)im.pitch * (size_t)im.height, 1);
    enum { PATTERNS = 4 };
    uint8_t *patterns = malloc((size_t)PATTERNS * fw * fh);
    for (int k = 0; k < PATTERNS * fw * fh; k++)
        patterns[k] = (uint8_t)(gen_chance(r, 0.5) ? gen_int(r, 0, 255) : 0);
    memcpy(patterns + 3 * fw * fh, patterns, (size_t)fw * fh); // pattern 3: pattern 0 but one texel
    patterns[3 * fw * fh + gen_int(r, 0, fw * fh - 1)] ^= 0x80;
    for (int row = 0; row < rows; row++)
        for (int col = 0; col < columns; col++) {
            const uint8_t *alpha = patterns + (size_t)gen_int(r, 0, PATTERNS - 1) * fw * fh;
            for (int y = 0; y < fh; y++)
                for (int x = 0; x < fw; x++) {
                    uint8_t *px = im.rgba + (size_t)(row * fh + y) * im.pitch + (size_t)(col * fw + x) * 4;
                    px[0] = (uint8_t)gen_int(r, 0, 255), px[1] = (uint8_t)x, px[2] = (uint8_t)y;
                    px[3] = alpha[y * fw + x];
                }
        }
    for (int y = 0; y < im.height; y++) // the slack: random alpha too
        for (int x = 0; x < im.width; x++)
            if (x >= columns * fw || y >= rows * fh)
                im.rgba[(size_t)y * im.pitch + (size_t)x * 4 + 3] = (uint8_t)gen_int(r, 0, 255);
    free(patterns);
    return im;
}

static bool opaque(const image *im, int x, int y, uint8_t threshold)
{
    return im->rgba[(size_t)y * im->pitch + (size_t)x * 4 + 3] >= threshold;
}

// Whether two frames of the image hold the same texels (the reference for sharing).
static bool same_texels(const image *im, int a, int b, int columns, int fw, int fh, uint8_t threshold)
{
    for (int y = 0; y < fh; y++)
        for (int x = 0; x < fw; x++)
            if (opaque(im, (a % columns) * fw + x, (a / columns) * fh + y, threshold) !=
                opaque(im, (b % columns) * fw + x, (b / columns) * fh + y, threshold))
                return false;
    return true;
}

// --- random sheets against the pixels ---

static void test_random_grids(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0x5ee7);
    int sheets = 0, frames_checked = 0, shared = 0;
    for (int round = 0; round < 20 + gen_scaled(180); round++) {
        int columns = gen_int(&r, 1, 6), rows = gen_int(&r, 1, 4), fw = gen_int(&r, 1, 70), fh = gen_int(&r, 1, 40);
        uint8_t threshold = (uint8_t)gen_int(&r, 0, 255);
        image im = random_sheet(&r, columns, rows, fw, fh, gen_int(&r, 0, fw - 1 < fh - 1 ? fw - 1 : fh - 1));
        cw_sheet *sheet = cw_sheet_create();
        assert_non_null(sheet);
        int n = cw_sheet_add_grid(sheet, "walk", im.rgba, im.width, im.height, im.pitch, fw, fh, threshold);
        assert_int_equal(n, columns * rows);
        char name[32];
        const cw_mask **masks = calloc((size_t)n, sizeof *masks);
        for (int k = 0; k < n; k++) {
            snprintf(name, sizeof name, "walk/%d", k);
            masks[k] = cw_sheet_find(sheet, name);
            assert_non_null(masks[k]);
            assert_string_equal(cw_sheet_frame_name(sheet, k), name);
            assert_int_equal(cw_mask_width(masks[k]), fw);
            assert_int_equal(cw_mask_height(masks[k]), fh);
            for (int y = 0; y < fh; y++)
                for (int x = 0; x < fw; x++)
                    assert_int_equal(cw_mask_get(masks[k], x, y),
                                     opaque(&im, (k % columns) * fw + x, (k / columns) * fh + y, threshold));
            frames_checked++;
        }
        int distinct = 0;
        for (int a = 0; a < n; a++) {
            bool first = true;
            for (int b = 0; b < a; b++) {
                bool same = same_texels(&im, a, b, columns, fw, fh, threshold);
                assert_int_equal(masks[a] == masks[b], same); // shared iff the same texels
                first &= !same;
            }
            distinct += first;
            shared += !first;
        }
        cw_sheet_stats st = cw_sheet_get_stats(sheet);
        assert_int_equal(st.frames, n);
        assert_int_equal(st.masks, distinct);
        assert_true(st.bytes > 0);
        assert_null(cw_sheet_find(sheet, "walk/-1"));
        snprintf(name, sizeof name, "walk/%d", n);
        assert_null(cw_sheet_find(sheet, name));
        assert_string_equal(cw_last_error(), ""); // absent names are no error
        free(masks);
        cw_sheet_destroy(sheet);
        free(im.rgba);
        sheets++;
    }
    printf("  sheets: %d random grids, %d frames checked texel by texel, %d sharing an earlier frame's mask\n",
           sheets, frames_checked, shared);
    assert_true(shared > 0 && shared < frames_checked);
}

// Single frames, grids and names mixed; a frame equal to one of another grid shares its mask.
static void test_frames_and_names(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0xf4a3e);
    image im = random_sheet(&r, 3, 2, 8, 8, 0);
    cw_sheet *sheet = cw_sheet_create();
    assert_int_equal(cw_sheet_add_grid(sheet, "run", im.rgba, im.width, im.height, im.pitch, 8, 8, 128), 6);
    const cw_mask *single = cw_sheet_add(sheet, "idle", im.rgba + 8 * 4, 8, 8, im.pitch, 128); // run/1's pixels
    assert_true(single == cw_sheet_find(sheet, "run/1"));
    const cw_mask *other = cw_sheet_add(sheet, "half", im.rgba, 4, 8, im.pitch, 128); // a different size
    assert_non_null(other);
    assert_true(other != cw_sheet_find(sheet, "run/0"));
    assert_int_equal(cw_sheet_get_stats(sheet).frames, 8);
    assert_string_equal(cw_sheet_frame_name(sheet, 6), "idle");
    assert_string_equal(cw_sheet_frame_name(sheet, 7), "half");
    // Names are whole strings: a prefix of a name is not a name.
    assert_null(cw_sheet_find(sheet, "run"));
    assert_null(cw_sheet_find(sheet, "run/"));
    assert_non_null(cw_sheet_find(sheet, "run/5"));
    // A grid whose frames all repeat earlier ones adds names, not masks.
    int masks = cw_sheet_get_stats(sheet).masks;
    assert_int_equal(cw_sheet_add_grid(sheet, "again", im.rgba, im.width, im.height, im.pitch, 8, 8, 128), 6);
    assert_int_equal(cw_sheet_get_stats(sheet).masks, masks);
    cw_sheet_destroy(sheet);
    free(im.rgba);
}

// --- misuse: each kind fails with its message and leaves the sheet as it was ---

static void expect_unchanged(const cw_sheet *sheet, const cw_sheet_stats *before)
{
    cw_sheet_stats now = cw_sheet_get_stats(sheet);
    assert_int_equal(now.frames, before->frames);
    assert_int_equal(now.masks, before->masks);
    assert_int_equal(now.bytes, before->bytes);
    assert_non_null(cw_sheet_find(sheet, "a"));
}

// cw_sheet_add_grid() with these arguments (threshold 1) fails with an error that names `error`.
static void grid_refused(cw_sheet *sheet, const char *prefix, const void *rgba, int width, int height, int pitch,
                         int frame_width, int frame_height, const char *error)
{
    assert_int_equal(cw_sheet_add_grid(sheet, prefix, rgba, width, height, pitch, frame_width, frame_height, 1), -1);
    expect_and_clear_error(error);
}

static void test_sheet_misuse(void **state)
{
    (void)state;
    uint8_t px[4 * 4 * 4];
    memset(px, 255, sizeof px);
    cw_sheet *sheet = cw_sheet_create();
    assert_non_null(cw_sheet_add(sheet, "a", px, 4, 4, 16, 1));
    cw_sheet_stats before = cw_sheet_get_stats(sheet);
    cw_clear_error();
    assert_null(cw_sheet_add(NULL, "b", px, 4, 4, 16, 1)), expect_and_clear_error("sheet is NULL");
    assert_null(cw_sheet_add(sheet, NULL, px, 4, 4, 16, 1)), expect_and_clear_error("name is NULL");
    assert_null(cw_sheet_add(sheet, "", px, 4, 4, 16, 1)), expect_and_clear_error("name is empty");
    assert_null(cw_sheet_add(sheet, "a", px, 4, 4, 16, 1)), expect_and_clear_error("already has a frame");
    assert_null(cw_sheet_add(sheet, "b", NULL, 4, 4, 16, 1)), expect_and_clear_error("NULL");
    assert_null(cw_sheet_add(sheet, "b", px, 0, 4, 16, 1)), expect_and_clear_error("width");
    assert_null(cw_sheet_add(sheet, "b", px, 4, 4, 8, 1)), expect_and_clear_error("pitch");
    expect_unchanged(sheet, &before);
    // Grids.
    grid_refused(NULL, "g", px, 4, 4, 16, 2, 2, "sheet is NULL");
    grid_refused(sheet, NULL, px, 4, 4, 16, 2, 2, "prefix is NULL");
    grid_refused(sheet, "", px, 4, 4, 16, 2, 2, "prefix is empty");
    grid_refused(sheet, "g", NULL, 4, 4, 16, 2, 2, "pixel pointer is NULL");
    grid_refused(sheet, "g", px, 0, 4, 16, 2, 2, "must be positive");
    grid_refused(sheet, "g", px, 4, 4, 16, 0, 2, "must be positive");
    grid_refused(sheet, "g", px, 4, 4, 16, 5, 2, "larger than the sheet");
    grid_refused(sheet, "g", px, 4, 4, 16, 2, 5, "larger than the sheet");
    grid_refused(sheet, "g", px, 4, 4, 12, 2, 2, "pitch");
    grid_refused(sheet, "g", px, 4, 4, -16, 2, 2, "pitch");
    grid_refused(sheet, "g", px, 4, 2000000, 1 << 20, 2, 2, "INT_MAX");
    assert_non_null(cw_sheet_add(sheet, "g/3", px, 2, 2, 16, 1));
    before = cw_sheet_get_stats(sheet);
    assert_int_equal(cw_sheet_add_grid(sheet, "g", px, 4, 4, 16, 2, 2, 1), -1);
    expect_and_clear_error("already has a frame");
    assert_null(cw_sheet_find(sheet, "g/0")); // nothing of the grid was added
    expect_unchanged(sheet, &before);
    // Lookups and stats.
    assert_null(cw_sheet_find(NULL, "a")), expect_and_clear_error("sheet is NULL");
    assert_null(cw_sheet_find(sheet, NULL)), expect_and_clear_error("name is NULL");
    assert_null(cw_sheet_frame_name(NULL, 0)), expect_and_clear_error("sheet is NULL");
    assert_null(cw_sheet_frame_name(sheet, -1)), expect_and_clear_error("out of range");
    assert_null(cw_sheet_frame_name(sheet, before.frames)), expect_and_clear_error("out of range");
    cw_sheet_stats none = cw_sheet_get_stats(NULL);
    expect_and_clear_error("sheet is NULL");
    assert_true(none.frames == 0 && none.masks == 0 && none.bytes == 0);
    cw_sheet_destroy(NULL); // ignored
    cw_sheet_destroy(sheet);
}

// --- out of memory at every allocation ---

// The script: a grid with repeats, single frames, a second grid, and misuse in between. Each call
// either succeeds or fails with an error and the sheet exactly as before it.
static int oom_script(counter *c, long fail_at, const image *im, bool *reached)
{
    int problems = 0;
    counter_arm(c, fail_at);
    cw_clear_error();
    cw_sheet *sheet = cw_sheet_create();
    if (sheet == NULL) {
        *reached = true;
        counter_arm(c, 0);
        return cw_last_error()[0] == '\0';
    }
    const char *names[6] = {"idle", "jump", "fall", "hit", "-", "dead"}; // step 5 is a grid
    for (int step = 0; step < 7; step++) {
        cw_sheet_stats before = cw_sheet_get_stats(sheet);
        long failed = c->failed;
        cw_clear_error();
        bool ok;
        if (step == 0 || step == 5)
            ok = cw_sheet_add_grid(sheet, step ? "b" : "a", im->rgba, im->width, im->height, im->pitch, 8, 8, 100) > 0;
        else
            ok = cw_sheet_add(sheet, names[step - 1], im->rgba + (size_t)step * 32, 8, 8, im->pitch, 100) != NULL;
        cw_sheet_stats after = cw_sheet_get_stats(sheet);
        if (!ok && (c->failed == failed || cw_last_error()[0] == '\0'))
            problems++, printf("  oom %ld: step %d failed without running out of memory, or silently\n", fail_at, step);
        // Room reserved on the way (the frame order, the tables' buckets) may stay: bytes never shrink.
        if (!ok && (after.frames != before.frames || after.masks != before.masks || after.bytes < before.bytes))
            problems++, printf("  oom %ld: step %d failed and changed the sheet\n", fail_at, step);
    }
    *reached = c->armed_calls >= fail_at;
    counter_arm(c, 0);
    for (int k = 0; k < cw_sheet_get_stats(sheet).frames; k++) // every frame there is whole
        if (cw_sheet_find(sheet, cw_sheet_frame_name(sheet, k)) == NULL)
            problems++, printf("  oom %ld: frame %d cannot be found\n", fail_at, k);
    cw_sheet_destroy(sheet);
    return problems;
}

static void test_sheet_out_of_memory(void **state)
{
    (void)state;
    gen_rng r = gen_seed(0x00d5ee7);
    image im = random_sheet(&r, 4, 3, 8, 8, 3);
    counter c;
    counter_install(&c);
    long k = 1;
    int problems = 0;
    for (;; k++) {
        bool reached = false;
        problems += oom_script(&c, k, &im, &reached);
        if (!reached) // the script made fewer allocations than k: every one has failed once
            break;
    }
    printf("  sheet out of memory: %ld allocations failed in turn, %d problems\n", k - 1, problems);
    counter_expect_no_leak(&c);
    free(im.rgba);
    assert_true(k > 30);
    assert_int_equal(problems, 0);
}

const struct CMUnitTest sheet_tests[] = {
    cmocka_unit_test(test_random_grids),
    cmocka_unit_test(test_frames_and_names),
    cmocka_unit_test(test_sheet_misuse),
    cmocka_unit_test_teardown(test_sheet_out_of_memory, counter_restore_default),
};
