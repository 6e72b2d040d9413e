/// @file bitmask_peer.h
/// The unrotated peer of the narrowphase benchmark: a word-wise bitmask test in the manner of
/// pygame's mask module (src_c/bitmask.c), written here from its description: the bits are kept in
/// vertical strips 64 columns wide, one 64-bit word per row of a strip; two masks at an integer
/// offset are tested strip by strip and row by row, each word of one shifted into the other's
/// columns and ANDed, with an exit at the first word that meets. What a pygame user gets from
/// `mask.overlap(other, offset)`; no rotation or scale (pygame rebuilds a mask for those).
#ifndef BENCH_BITMASK_PEER_H
#define BENCH_BITMASK_PEER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct bp_mask {
    int w, h;
    int strips;      ///< (w + 63) / 64
    uint64_t *bits;  ///< strips * h words: bit x % 64 of word (x / 64) * h + y is texel (x, y)
} bp_mask;

/// Builds the mask from 8-bit RGBA pixels (opaque iff alpha >= threshold, as collworld), mirrored in
/// x if `flip_x` (what a pygame user gets from a flipped surface). False if memory runs out.
bool bp_mask_from_rgba(bp_mask *out, const uint8_t *pixels, int width, int height, int pitch, uint8_t threshold,
                       bool flip_x);

void bp_mask_free(bp_mask *m);

/// Whether some texel (x, y) of `a` and texel (x - dx, y - dy) of `b` are both set: `b` placed with
/// its top-left corner at (dx, dy) in a's texels.
bool bp_overlap(const bp_mask *a, const bp_mask *b, int dx, int dy);

#endif
