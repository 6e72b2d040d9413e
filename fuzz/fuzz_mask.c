// libFuzzer target: cw_mask_from_alpha / cw_mask_from_rgba with arbitrary sizes, pitches and
// thresholds. Valid arguments must give the mask the pixels describe (every texel, the count, the
// AABB of the opaque texels); invalid ones NULL and an error, without reading the pixels.
#include "fuzz_common.h"

#include <limits.h>

// Arguments are read from the first 14 bytes; the rest are the pixels.
enum { HEADER = 14, MAX_ALLOC = 1 << 22 };

static int pick_int(fz_reader *r)
{
    uint8_t mode = fz_u8(r);
    uint32_t raw = fz_u32(r);
    switch (mode % 8) {
    case 0: return (int)raw; // anything, negative and huge included
    case 1: return (int)(raw % 70000) - 2; // around CW_MASK_MAX_SIZE
    case 2: return CW_MASK_MAX_SIZE + (int)(raw % 3) - 1;
    default: return (int)(raw % 67); // small: what the bytes can fill
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = {data, size < HEADER ? size : HEADER, 0};
    bool rgba = fz_u8(&r) & 1;
    int bpp = rgba ? 4 : 1;
    int width = pick_int(&r), height = pick_int(&r);
    int pitch_mode = fz_u8(&r);
    int pitch = (pitch_mode < 128 && width > 0 && width < INT_MAX / 4) ? width * bpp + pitch_mode % 9
                : pitch_mode < 160 ? (int)fz_u32(&r)
                                   : (int)(fz_u16(&r) % 300) - 8;
    uint8_t threshold = fz_u8(&r);
    const uint8_t *pixels = size > HEADER ? data + HEADER : data;
    size_t available = size > HEADER ? size - HEADER : 0;
    bool null_pixels = (pitch_mode & 7) == 7 && threshold == 0x5a;

    bool valid = !null_pixels && width >= 1 && height >= 1 && width <= CW_MASK_MAX_SIZE &&
                 height <= CW_MASK_MAX_SIZE && pitch >= width * bpp &&
                 (int64_t)(height - 1) * pitch + (int64_t)width * bpp <= INT_MAX;
    size_t needed = valid ? (size_t)(height - 1) * (size_t)pitch + (size_t)width * (size_t)bpp : 0;
    uint8_t *copy = NULL;
    if (valid && needed > available) {
        // Valid but more pixels than the input holds: repeat the input in a buffer of the exact size
        // (ASan catches any read past it), unless that is too big to be worth it.
        if (needed > MAX_ALLOC)
            return 0;
        copy = malloc(needed);
        if (copy == NULL)
            return 0;
        for (size_t i = 0; i < needed; i++)
            copy[i] = available ? pixels[i % available] : (uint8_t)(i * 37);
        pixels = copy;
    } else if (valid) {
        // Exactly the bytes the call may read, so any read past them is an ASan report.
        copy = malloc(needed);
        memcpy(copy, pixels, needed);
        pixels = copy;
    }

    cw_clear_error();
    const void *arg = null_pixels ? NULL : (const void *)pixels;
    cw_mask *mask = rgba ? cw_mask_from_rgba(arg, width, height, pitch, threshold)
                         : cw_mask_from_alpha(arg, width, height, pitch, threshold);
    if (!valid) {
        FZ_CHECK(mask == NULL, "invalid arguments accepted: %dx%d pitch %d bpp %d", width, height, pitch, bpp);
        FZ_CHECK(cw_last_error()[0] != '\0', "a rejected mask left no error");
        free(copy);
        return 0;
    }
    FZ_CHECK(mask != NULL, "valid %dx%d pitch %d rejected: %s", width, height, pitch, cw_last_error());
    FZ_CHECK(cw_mask_width(mask) == width && cw_mask_height(mask) == height, "size");

    // Every texel for small masks; a sample of rows for large ones.
    int count = 0, x0 = INT_MAX, y0 = INT_MAX, x1 = INT_MIN, y1 = INT_MIN;
    bool full = (int64_t)width * height <= 1 << 16;
    for (int y = 0; y < height; y++) {
        if (!full && y % 97 != 0 && y != height - 1)
            continue;
        const uint8_t *row = pixels + (size_t)y * (size_t)pitch;
        for (int x = 0; x < width; x++) {
            bool opaque = row[(size_t)x * (size_t)bpp + (size_t)(bpp - 1)] >= threshold;
            FZ_CHECK(cw_mask_get(mask, x, y) == opaque, "texel (%d, %d) of %dx%d", x, y, width, height);
            if (opaque) {
                count++;
                x0 = x < x0 ? x : x0;
                y0 = y < y0 ? y : y0;
                x1 = x + 1 > x1 ? x + 1 : x1;
                y1 = y + 1 > y1 ? y + 1 : y1;
            }
        }
    }
    FZ_CHECK(!cw_mask_get(mask, -1, 0) && !cw_mask_get(mask, width, 0) && !cw_mask_get(mask, 0, height) &&
                 !cw_mask_get(mask, 0, -1) && !cw_mask_get(mask, INT_MIN, INT_MAX),
             "texels outside the mask are transparent");
    if (full) {
        FZ_CHECK(cw_mask_count(mask) == count, "count %d, expected %d", cw_mask_count(mask), count);
        cw_shape shape = cw_shape_mask(mask);
        cw_transform t = cw_default_transform();
        cw_aabb box;
        FZ_CHECK(cw_shape_aabb(&shape, &t, &box), "aabb failed: %s", cw_last_error());
        if (count > 0)
            FZ_CHECK(box.min.x == (float)x0 && box.min.y == (float)y0 && box.max.x == (float)x1 &&
                         box.max.y == (float)y1,
                     "aabb (%g %g %g %g), opaque texels span (%d %d %d %d)", box.min.x, box.min.y, box.max.x,
                     box.max.y, x0, y0, x1, y1);
        else
            FZ_CHECK(box.min.x == box.max.x && box.min.y == box.max.y, "empty mask, non-empty aabb");
        // The mask overlaps itself iff it has an opaque texel.
        FZ_CHECK(cw_overlap(&shape, &t, &shape, &t, NULL) == (count > 0), "self-overlap with %d texels", count);
    }
    cw_mask_destroy(mask);
    free(copy);
    return 0;
}
