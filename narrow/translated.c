// Exact overlap of two masks with the same rotation and scale (the common unrotated sprite): mask
// A's texel grid lands on B's shifted by a fixed offset, so the test is a word-wise shift-and-AND of
// rows, as pygame's bitmask does, with a second pass per axis where the offset has a fraction.
#include "bits.h"

// Splits an offset into its whole part and whether it has a fraction (beyond the tolerance): with
// a fraction, A's texel i straddles B's texels i + whole and i + whole + 1.
static int split_offset(double offset, double eps, bool *fractional)
{
    int whole = clamp_floor(offset + eps, -1000000000, 1000000000); // far apart: no overlap anyway
    *fractional = offset - whole > eps;
    return whole;
}

// A's row, shifted into B's texel columns starting at `start` and widened by one texel if the
// offset has a fraction.
static uint64_t shifted_row(const cw_mask *a, int j, int start, int dx, bool wide)
{
    const uint64_t *row = cw__row(a, j);
    uint64_t bits = bits_at(row, a->words, start - dx);
    return wide ? bits | bits_at(row, a->words, start - dx - 1) : bits;
}


// Whether (a[i] << shift) & b[i] is non-zero for some i < n (shift right for negative shifts).
// The inner loop has no branch, so it vectorises; an early-exit test every 32 rows (smaller or
// growing chunks measured slower on the benchmark).
static bool any_shifted_and(const uint64_t *a, const uint64_t *b, int n, int shift)
{
    int left = shift > 0 ? shift : 0, right = shift < 0 ? -shift : 0;
    for (int i = 0, chunk = 32; i < n; i += chunk) {
        int m = cw__int_min(chunk, n - i);
        uint64_t hits = 0;
        for (int k = 0; k < m; k++)
            hits |= ((a[i + k] << left) >> right) & b[i + k];
        if (hits)
            return true;
    }
    return false;
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
static bool translated_narrow(const cw_mask *a, const cw_mask *b, int dx, bool fx, bool fy, int j0, int j1,
                              int dy)
{
    for (int sy = 0; sy <= (fy ? 1 : 0); sy++)
        for (int sx = 0; sx <= (fx ? 1 : 0); sx++)
            if (and_rows(a, b, j0, j1, dy + sy, dx + sx))
                return true;
    return false;
}

bool cw__translated_overlap(const cw_mask *a, const cw_mask *b, double ox, double oy, double eps_x, double eps_y)
{
    if (a->count == 0 || b->count == 0)
        return false;
    bool fx, fy;
    int dx = split_offset(ox, eps_x, &fx), dy = split_offset(oy, eps_y, &fy);
    // A's rows that land on B's opaque rows (row j covers B rows j + dy, and j + dy + 1 if fy),
    // and B's columns that A's texels reach.
    int j0 = cw__int_max(a->y0, b->y0 - dy - fy), j1 = cw__int_min(a->y1, b->y1 - dy);
    int k0 = cw__int_max(a->x0 + dx, b->x0), k1 = cw__int_min(a->x1 + dx + fx, b->x1);
    if (j0 >= j1 || k0 >= k1)
        return false;
    if (a->words == 1 && b->words == 1 && dx > -64 && dx < 63)
        return translated_narrow(a, b, dx, fx, fy, j0, j1, dy);
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
