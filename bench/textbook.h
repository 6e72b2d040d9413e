/// @file textbook.h
/// The baseline a game programmer would write: one byte per texel, and for every opaque texel of A
/// its corner is mapped into B's local space with the A-local -> B-local affine map, rounded to the
/// nearest texel and looked up in B. Approximate (one sample per texel of A), early exit at the
/// first hit. Plain C, no SIMD. The map is built in double from the two transforms with the header's
/// formula; the per-texel stepping is done in 32.32 fixed point (the classic rotozoomer loop), which
/// gives the same answers as float stepping on every benchmark pair and runs ~30% faster.
#ifndef BENCH_TEXTBOOK_H
#define BENCH_TEXTBOOK_H

#include <stdbool.h>
#include <stdint.h>

#include "collworld.h"

/// A byte-per-texel mask: bits[y * w + x] is 1 if texel (x, y) is opaque, else 0.
typedef struct tb_mask {
    int w;
    int h;
    unsigned char *bits;
} tb_mask;

/// Builds the byte mask from 8-bit RGBA pixels: opaque iff alpha >= alpha_threshold (as collworld).
/// Returns false if memory runs out.
bool tb_mask_from_rgba(tb_mask *out, const uint8_t *pixels, int width, int height, int pitch,
                       uint8_t alpha_threshold);

/// Frees the texel bytes of a mask made by tb_mask_from_rgba().
void tb_mask_free(tb_mask *mask);

/// The affine map from A-local to B-local space, from the header's formula
/// world = position + R(rotation) * ((p - origin) o scale): B-local = M * p + c with
/// M = {m[0], m[1]; m[2], m[3]} (row-major), computed in double.
void tb_affine(const cw_transform *ta, const cw_transform *tb, double m[4], double c[2]);

/// The textbook test: true if some opaque texel of `a`, sampled at its corner and mapped to the
/// nearest texel of `b`, lands on an opaque texel of `b`. B-local coordinates of A's texels must stay
/// within +-2^30 texels (fixed-point range), which holds for any on-screen pair.
bool tb_overlap(const tb_mask *a, const cw_transform *ta, const tb_mask *b, const cw_transform *tb);

/// The same test with the stepping done in float, exactly as the issue describes the baseline; the
/// default baseline of `make bench` (tb_overlap is used with --fixed-point).
bool tb_overlap_float(const tb_mask *a, const cw_transform *ta, const tb_mask *b, const cw_transform *tb);

#endif
