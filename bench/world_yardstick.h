/// @file world_yardstick.h
/// The yardstick of the world benchmark: what a game programmer would write without collworld.
/// Each frame: every body's oriented box (OBB) and its AABB from the transform (in double), a qsort
/// of the AABBs by min x, a sweep along x (sort-and-sweep) with a y test, then
/// - boxes: the exact separating-axis test on the two rotated boxes (4 axes, in double); positive
///   overlap on all four axes = touching, so it agrees with collworld's definition;
/// - masks: the same OBB test on the two sprites' full 32x32 rectangles as a cheap prefilter, then
///   the textbook per-texel test (bench/textbook.c) both ways round, touching if either says so.
///   This is approximate (one sample per texel of the sampling sprite).
#ifndef BENCH_WORLD_YARDSTICK_H
#define BENCH_WORLD_YARDSTICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "world_scene.h"

/// One body's oriented box: centre, unit axis u (v is u turned by +90 degrees), half extents along
/// u and v. Double precision.
typedef struct ys_obb {
    double cx, cy;
    double ux, uy;
    double hu, hv;
} ys_obb;

/// One body's AABB, as sorted by the sweep. In double: at 40 bytes glibc's qsort sorts it through
/// pointers, which measured faster here than a packed 20- or 24-byte float item.
typedef struct ys_item {
    double minx, maxx, miny, maxy;
    int body;
} ys_item;

/// A growable list of pair keys lo << 32 | hi (lo < hi body indices).
typedef struct ys_keys {
    uint64_t *items;
    size_t count, capacity;
    bool out_of_memory; ///< Set (and the key dropped) when growing failed.
} ys_keys;

/// Appends a key (growing with realloc).
void ys_keys_push(ys_keys *k, uint64_t key);

/// Frees the list.
void ys_keys_free(ys_keys *k);

/// The key of the pair (i, j), either order.
uint64_t ys_key(int i, int j);

/// Counts of one frame.
typedef struct ys_counts {
    long candidates; ///< Pairs whose AABBs overlap (with positive area).
    long tests;      ///< Pairs given to the narrowphase (boxes: = candidates; masks: past the OBB prefilter).
    long touching;   ///< Pairs found touching.
} ys_counts;

typedef struct ys_state {
    int n;
    ys_obb *obb;
    ys_item *items;
    bool fixed_point;   ///< Masks: the textbook loop in 32.32 fixed point instead of float.
    // The timed runs use only the fields above; the untimed set check also these:
    bool skip_narrow;   ///< Do not run the yardstick's narrowphase (counts then stop at candidates).
    bool record;        ///< Append every pair the yardstick finds touching to `pairs`.
    bool direct;        ///< Also run cw_overlap() on every candidate pair: candidates go to
                        ///< `candidates`, those it says touch to `direct_pairs`.
    ys_keys pairs, direct_pairs, candidates; ///< Unsorted; emptied by each ys_frame().
    double prep_ms, sort_ms, sweep_ms; ///< Phases of the last ys_frame(): OBBs + AABBs, qsort, sweep + tests.
} ys_state;

/// Allocates the yardstick's arrays for `n` bodies. False if memory runs out.
bool ys_init(ys_state *y, int n);

/// Frees them.
void ys_free(ys_state *y);

/// Finds the touching pairs of the scene as it is now.
ys_counts ys_frame(ys_state *y, const ws_scene *s);

/// cos and sin of a transform's rotation as collworld reads it: the float nearest to a multiple of
/// pi/2 (below 100,000 rad) is that exact multiple.
void ys_sincos(float rotation, double *c, double *s);

/// The OBB of body `i` (box: its size; mask: the full sprite rectangle).
ys_obb ys_body_obb(const ws_scene *s, int i);

/// The exact separating-axis test on two OBBs; `margin` (may be NULL) receives the smallest of the
/// four projected overlaps (radius sum minus centre distance): > 0 on all four axes = touching.
bool ys_obb_overlap(const ys_obb *a, const ys_obb *b, double *margin);

/// Supersampled reference for masks (as bench_narrow's --check): `samples` x `samples` points
/// strictly inside every opaque texel of each sprite, mapped in double into the other sprite; true
/// if one lands inside an opaque texel there (so a real overlap was found).
bool ys_mask_reference(const tb_mask *a, const cw_transform *ta, const tb_mask *b, const cw_transform *tb,
                       int samples);

#endif
