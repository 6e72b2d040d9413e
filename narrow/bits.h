// Bit helpers on mask rows and integer rounding helpers, shared by the texel walkers. Not public.
#ifndef CW_NARROW_BITS_H
#define CW_NARROW_BITS_H

#include "internal.h"

// First set bit at or after `pos`, or `end` if none before `end`.
static inline int next_set(const uint64_t *row, int pos, int end)
{
    int w = pos >> 6;
    uint64_t bits = row[w] & (~0ull << (pos & 63));
    while (bits == 0) {
        if (64 * ++w >= end)
            return end;
        bits = row[w];
    }
    int i = 64 * w + __builtin_ctzll(bits);
    return i < end ? i : end;
}

// First clear bit at or after `pos`, or `end` if none before `end`.
static inline int next_clear(const uint64_t *row, int pos, int end)
{
    int w = pos >> 6;
    uint64_t bits = ~row[w] & (~0ull << (pos & 63));
    while (bits == 0) {
        if (64 * ++w >= end)
            return end;
        bits = ~row[w];
    }
    int i = 64 * w + __builtin_ctzll(bits);
    return i < end ? i : end;
}

// Last clear bit at or before `pos`, or `begin - 1` if none at or after `begin`.
static inline int prev_clear(const uint64_t *row, int pos, int begin)
{
    int w = pos >> 6;
    uint64_t bits = ~row[w] & (~0ull >> (63 - (pos & 63)));
    while (bits == 0) {
        if (64 * w-- <= begin)
            return begin - 1;
        bits = ~row[w];
    }
    int i = 64 * w + 63 - __builtin_clzll(bits);
    return i >= begin ? i : begin - 1;
}

// Whether any bit in [k0, k1) is set; requires 0 <= k0 < k1 <= width.
static inline bool any_in_range(const uint64_t *row, int k0, int k1)
{
    int w0 = k0 >> 6, w1 = (k1 - 1) >> 6;
    uint64_t first = ~0ull << (k0 & 63), last = ~0ull >> (63 - ((k1 - 1) & 63));
    if (w0 == w1)
        return (row[w0] & first & last) != 0;
    if (row[w0] & first)
        return true;
    for (int w = w0 + 1; w < w1; w++)
        if (row[w])
            return true;
    return (row[w1] & last) != 0;
}

// Bits [start, start + 64) of a row of `words` words, zeros outside the row.
static inline uint64_t bits_at(const uint64_t *row, int words, int start)
{
    int w = start >= 0 ? start / 64 : -((63 - start) / 64);
    int shift = start - 64 * w;
    uint64_t lo = (w >= 0 && w < words) ? row[w] : 0;
    if (shift == 0)
        return lo;
    uint64_t hi = (w + 1 >= 0 && w + 1 < words) ? row[w + 1] : 0;
    return (lo >> shift) | (hi << (64 - shift));
}

// floor and ceil of x clamped to [lo, hi], by integer conversion: without SSE4.1 the libm calls cost
// more than the rest of a slice.
static inline int clamp_floor(double x, int lo, int hi)
{
    x = cw__min(cw__max(x, lo), hi);
    int i = (int)x;
    return i - (x < i);
}

static inline int clamp_ceil(double x, int lo, int hi)
{
    x = cw__min(cw__max(x, lo), hi);
    int i = (int)x;
    return i + (x > i);
}

static inline int cw__int_max(int a, int b) { return a > b ? a : b; }
static inline int cw__int_min(int a, int b) { return a < b ? a : b; }

#endif
