// Exact overlap of two masks with the same rotation and scale (the common unrotated sprite): mask
// A's texel grid lands on B's shifted by a fixed offset, so the test is a word-wise shift-and-AND of
// rows, as pygame's bitmask does, with a second pass per axis where the offset has a fraction. A
// sprite mirrored against the other (one facing left, one right) lands mirrored: the same test on
// A's mirrored rows (kept with the mask), in reverse order when mirrored top to bottom.
#include "bits.h"

// The whole offsets n by which A's texel i may land on B's texel i + n with positive area beyond the
// tolerance, A's texels counted from `base` (0, or A's size where it lands mirrored: see
// cw__translated_overlap): |n + base - offset| < 1 - eps, which holds for floor(offset) - base, the
// next whole number or both. Finds the least such n (and whether n + 1 holds too: A's texel then
// straddles two of B's); false if none does. Each candidate is judged by |n + base - offset| alone:
// seen from B the pair gets exactly the negated offset (or, mirrored, the same offset with B's size
// as base), and the same texel pairs give the same whole number there, so the answer never
// depends on which mask comes first. |offset| < 1e9.
static bool split_offset(double offset, int base, double eps, int *whole, bool *fractional)
{
    double shifted = offset - base;
    int n = (int)shifted;
    if (n == shifted) { // a whole offset (pixel art's): n holds (|n + base - offset| = 0), n + 1 not (1)
        *whole = n;
        *fractional = false;
        return true;
    }
    n -= shifted < n; // the floor
    double reach = 1 - eps;
    bool low = fabs((n + base) - offset) < reach, high = fabs((n + 1 + base) - offset) < reach;
    *whole = low ? n : n + 1;
    *fractional = low & high;
    return low | high;
}

// A's row, shifted into B's texel columns starting at `start` and widened by one texel if the
// offset has a fraction.
static uint64_t shifted_row(const cw_mask *a, int j, int start, int dx, bool wide)
{
    const uint64_t *row = cw__row(a, j);
    uint64_t bits = bits_at(row, a->words, start - dx);
    return wide ? bits | bits_at(row, a->words, start - dx - 1) : bits;
}

// `rows` rows, (a[k] << shift) & b[k] ORed together: a loop without a branch that the compiler
// unrolls and vectorises (inlined, `rows` is a constant).
static CW__ALWAYS_INLINE uint64_t and_group(const uint64_t *a, const uint64_t *b, int shift, int rows)
{
    uint64_t hits = 0;
    for (int k = 0; k < rows; k++)
        hits |= (a[k] << shift) & b[k];
    return hits;
}

// Whether (a[i] << shift) & b[i] is non-zero for some i < n (shift right for negative shifts),
// 1 <= n, |shift| < 64. Shifting A right is shifting B left (the bits pushed out are texels past A's
// row), so each row costs one shift. The rows go in fixed-count groups that the compiler vectorises,
// half a group first, then whole groups of CW__ROW_GROUP: the last group reads up to CW__ROW_PAD
// rows past n, which the callers allow (n ends where one of the two masks' opaque rows end, so those
// rows AND to zero, and the masks keep that many zero rows after theirs). Nothing here branches on
// the data but the exit after each group: a sprite pair that touches mostly does so in its first
// rows (the half group first: 10% faster on the benchmark's sprite pairs, 4% slower on combs, which
// scan every row), and the answer is worked out, not jumped to (a sprite pair touches or not about
// as often, which a predictor guesses wrong half the time).
static CW__ALWAYS_INLINE bool any_shifted_and_body(const uint64_t *a, const uint64_t *b, int n, int shift)
{
    // Swapped by a mask, not by a branch: the sign is a coin toss for a predictor.
    uintptr_t swap = (uintptr_t)0 - (uintptr_t)(shift < 0), flip = ((uintptr_t)a ^ (uintptr_t)b) & swap;
    a = (const uint64_t *)((uintptr_t)a ^ flip), b = (const uint64_t *)((uintptr_t)b ^ flip);
    shift = shift < 0 ? -shift : shift;
    uint64_t hits = and_group(a, b, shift, CW__ROW_GROUP / 2);
    for (int i = CW__ROW_GROUP / 2; i < n && hits == 0; i += CW__ROW_GROUP)
        hits = and_group(a + i, b + i, shift, CW__ROW_GROUP);
    return hits != 0;
}

#if CW__HAVE_AVX2_CLONE
// The same loop compiled for AVX2 (four rows an instruction instead of two), taken where the CPU
// has it: the library itself is built for the baseline x86-64. Same answer either way.
__attribute__((target("avx2"))) static bool any_shifted_and_avx2(const uint64_t *a, const uint64_t *b, int n, int shift)
{
    return any_shifted_and_body(a, b, n, shift);
}
#endif

static bool any_shifted_and(const uint64_t *a, const uint64_t *b, int n, int shift)
{
#if CW__HAVE_AVX2_CLONE
    if (__builtin_cpu_supports("avx2"))
        return any_shifted_and_avx2(a, b, n, shift);
#endif
    return any_shifted_and_body(a, b, n, shift);
}

// Common case: both masks at most 64 texels wide, so a row is one word. Whether any of A's rows
// [j0, j1), shifted by dx texels, meets B's row j + dy.
static bool and_rows(const cw_mask *a, const cw_mask *b, int j0, int j1, int dy, int dx)
{
    j0 = cw__int_max(j0, b->y0 - dy);
    j1 = cw__int_min(j1, b->y1 - dy);
    return j0 < j1 && any_shifted_and(a->bits + j0, b->bits + j0 + dy, j1 - j0, dx);
}

// With a fractional offset A's texel i straddles B's texels i + dx and i + dx + 1 (and likewise
// rows): (A << dx | A << dx + 1) & B is (A << dx & B) | (A << dx + 1 & B), so each straddle is
// one more pass of the plain loop.
static CW__NOINLINE bool translated_narrow(const cw_mask *a, const cw_mask *b, int dx, bool fx, bool fy, int j0,
                                           int j1, int dy)
{
    for (int sy = 0; sy <= (fy ? 1 : 0); sy++)
        for (int sx = 0; sx <= (fx ? 1 : 0); sx++)
            if (and_rows(a, b, j0, j1, dy + sy, dx + sx))
                return true;
    return false;
}

// Narrow masks, A mirrored: row j of A mirrored (its row height - 1 - j if flip_y, its mirrored
// row if flip_x), shifted by dx texels, against B's row j + dy, for the rows [j0, j1) of mirrored A
// that meet B's opaque rows, with a pass per straddle as in translated_narrow. Mirrored in x only
// (sprites facing each other), the rows come in order: the plain word-wise loop.
static bool mirrored_narrow(const cw_mask *a, const cw_mask *b, int dx, bool fx, bool fy, int j0, int j1, int dy,
                            bool flip_x, bool flip_y)
{
    const uint64_t *rows = flip_x ? a->mirrored : a->bits;
    for (int sy = 0; sy <= (fy ? 1 : 0); sy++) {
        int from = cw__int_max(j0, b->y0 - dy - sy), to = cw__int_min(j1, b->y1 - dy - sy);
        for (int sx = 0; sx <= (fx ? 1 : 0); sx++) {
            int shift = dx + sx;
            if (shift <= -64 || shift >= 64) // A lands past B's 64 columns
                continue;
            if (!flip_y) {
                if (from < to && any_shifted_and(rows + from, b->bits + from + dy + sy, to - from, shift))
                    return true;
                continue;
            }
            uint64_t hits = 0;
            for (int j = from; j < to; j++) {
                uint64_t row = rows[a->height - 1 - j];
                hits |= (shift >= 0 ? row << shift : row >> -shift) & b->bits[j + dy + sy];
            }
            if (hits)
                return true;
        }
    }
    return false;
}

// Any width: A's rows shifted word by word into B's columns [k0, k1).
static CW__NOINLINE bool translated_wide(const cw_mask *a, const cw_mask *b, int dx, bool fx, bool fy, int j0,
                                         int j1, int dy, int k0, int k1)
{
    for (int j = j0; j < j1; j++) {
        for (int s = 0; s <= (fy ? 1 : 0); s++) {
            int r = j + dy + s;
            if (r < b->y0 || r >= b->y1)
                continue;
            const uint64_t *rb = cw__row(b, r);
            for (int w = k0 >> 6; w <= (k1 - 1) >> 6; w++)
                if (shifted_row(a, j, 64 * w, dx, fx) & rb[w])
                    return true;
        }
    }
    return false;
}

// Far beyond any mask's size (and NaN): nothing meets, and the offsets fit an int.
static bool far_apart(double ox, double oy) { return !(fabs(ox) < 1e9 && fabs(oy) < 1e9); }

// cw__translated_overlap() with A mirrored top to bottom (and perhaps in x): A's texel i is its
// texel size - 1 - i counted the other way, so the grid of A mirrored lands on B's at offset - size.
static CW__NOINLINE bool mirrored_overlap(const cw_mask *a, const cw_mask *b, double ox, double oy, bool flip_x,
                                          double eps_x, double eps_y)
{
    bool fx, fy;
    int dx, dy;
    if (far_apart(ox, oy) || !split_offset(ox, flip_x ? a->width : 0, eps_x, &dx, &fx) ||
        !split_offset(oy, a->height, eps_y, &dy, &fy))
        return false;
    // As in cw__translated_overlap(), with A's opaque bounds mirrored.
    int ax0 = flip_x ? a->width - a->x1 : a->x0, ax1 = flip_x ? a->width - a->x0 : a->x1;
    int ay0 = a->height - a->y1, ay1 = a->height - a->y0;
    int j0 = cw__int_max(ay0, b->y0 - dy - fy), j1 = cw__int_min(ay1, b->y1 - dy);
    int k0 = cw__int_max(ax0 + dx, b->x0), k1 = cw__int_min(ax1 + dx + fx, b->x1);
    if (j0 >= j1 || k0 >= k1)
        return false;
    return mirrored_narrow(a, b, dx, fx, fy, j0, j1, dy, flip_x, true);
}

// A's texel (i, j) (of its rows mirrored in x if flip_x) on B's texel (i + dx, j + dy), straddling
// the next one on an axis where fx (fy) says so: what cw__translated_overlap() and
// cw__translated_whole() share once the offsets are whole numbers and straddles.
static inline bool landed_overlap(const cw_mask *a, const cw_mask *b, int dx, int dy, bool fx, bool fy, bool flip_x)
{
    // A's rows that land on B's opaque rows (row j covers B rows j + dy, and j + dy + 1 if fy),
    // and B's columns that A's texels reach. An empty mask's bounds are all 0: nothing meets.
    int ax0 = flip_x ? a->width - a->x1 : a->x0, ax1 = flip_x ? a->width - a->x0 : a->x1;
    int j0 = cw__int_max(a->y0, b->y0 - dy - fy), j1 = cw__int_min(a->y1, b->y1 - dy);
    int k0 = cw__int_max(ax0 + dx, b->x0), k1 = cw__int_min(ax1 + dx + fx, b->x1);
    if (j0 >= j1 || k0 >= k1)
        return false;
    // Whole offsets, as pixel art has them: [j0, j1) are the rows that meet. Mirrored masks are
    // narrow (cw__can_mirror()), and their columns meeting puts |dx| below 64.
    if (!fx && !fy && (a->words | b->words) == 1 && dx > -64 && dx < 64)
        return any_shifted_and((flip_x ? a->mirrored : a->bits) + j0, b->bits + j0 + dy, j1 - j0, dx);
    if (flip_x)
        return mirrored_narrow(a, b, dx, fx, fy, j0, j1, dy, true, false);
    if ((a->words | b->words) != 1 || dx <= -64 || dx >= 63)
        return translated_wide(a, b, dx, fx, fy, j0, j1, dy, k0, k1);
    return translated_narrow(a, b, dx, fx, fy, j0, j1, dy);
}

bool cw__translated_overlap(const cw_mask *a, const cw_mask *b, double ox, double oy, bool flip_x, bool flip_y,
                            double eps_x, double eps_y)
{
    if (flip_y)
        return mirrored_overlap(a, b, ox, oy, flip_x, eps_x, eps_y);
    // Mirrored in x only (sprites facing each other), A's mirrored rows land on B's in order, at the
    // offset less A's width: the same test on those rows and their opaque columns.
    bool fx, fy;
    int dx, dy;
    if (far_apart(ox, oy) || !split_offset(ox, flip_x ? a->width : 0, eps_x, &dx, &fx) ||
        !split_offset(oy, 0, eps_y, &dy, &fy))
        return false;
    return landed_overlap(a, b, dx, dy, fx, fy, flip_x);
}

bool cw__translated_whole(const cw_mask *a, const cw_mask *b, int ox, int oy, bool flip_x)
{
    return landed_overlap(a, b, ox - (flip_x ? a->width : 0), oy, false, false, flip_x);
}
