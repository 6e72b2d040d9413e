/// @file bitmask_peer.c
/// The pygame-style word-wise bitmask test (see bitmask_peer.h).
#include "bitmask_peer.h"

#include <stdlib.h>

bool bp_mask_from_rgba(bp_mask *out, const uint8_t *pixels, int width, int height, int pitch, uint8_t threshold,
                       bool flip_x) {
    out->w = width;
    out->h = height;
    out->strips = (width + 63) / 64;
    out->bits = calloc((size_t)out->strips * (size_t)height, sizeof(uint64_t));
    if (out->bits == NULL) {
        return false;
    }
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            const int from = flip_x ? width - 1 - x : x;
            if (pixels[(size_t)y * (size_t)pitch + (size_t)from * 4 + 3] >= threshold) {
                out->bits[(size_t)(x / 64) * (size_t)height + (size_t)y] |= (uint64_t)1 << (x % 64);
            }
        }
    }
    return true;
}

void bp_mask_free(bp_mask *m) {
    free(m->bits);
    m->bits = NULL;
}

/// Word of strip s, row y of m; 0 outside the mask.
static uint64_t word_at(const bp_mask *m, int s, int y) {
    return s >= 0 && s < m->strips ? m->bits[(size_t)s * (size_t)m->h + (size_t)y] : 0;
}

/// dx >= 0: a's strips from the one b's left edge falls in; each row of a's strip meets b's columns
/// shifted into it, from b's two strips that straddle it.
static bool overlap_right(const bp_mask *a, const bp_mask *b, int dx, int dy) {
    const int y0 = dy > 0 ? dy : 0, y1 = dy + b->h < a->h ? dy + b->h : a->h;
    const int first = dx / 64, shift = dx % 64;
    const int last = (dx + b->w - 1) / 64 < a->strips - 1 ? (dx + b->w - 1) / 64 : a->strips - 1;
    for (int s = first; s <= last; s++) {
        const int k = s - first; // b's strip whose bits start `shift` columns into a's strip s
        for (int y = y0; y < y1; y++) {
            uint64_t bw = word_at(b, k, y - dy) << shift;
            if (shift != 0) {
                bw |= word_at(b, k - 1, y - dy) >> (64 - shift);
            }
            if (a->bits[(size_t)s * (size_t)a->h + (size_t)y] & bw) {
                return true;
            }
        }
    }
    return false;
}

bool bp_overlap(const bp_mask *a, const bp_mask *b, int dx, int dy) {
    if (dx >= a->w || dy >= a->h || dx + b->w <= 0 || dy + b->h <= 0) {
        return false;
    }
    return dx >= 0 ? overlap_right(a, b, dx, dy) : overlap_right(b, a, -dx, -dy);
}
