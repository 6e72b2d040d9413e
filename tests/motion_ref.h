// Slow, obviously-correct references for contacts over motion (tests only, no library calls).
//
// Both shapes are lists of convex cells (reference.h), a row's run of solid cells taken as one
// rectangle (the union of its cells). Two such rectangles, one of them translated
// by s * (nx, ny), overlap by more than a threshold on all four edge normals of the pair exactly
// for s in one open interval (each axis gives one, the separating-axis theorem makes their
// intersection exact). Every question here is answered from those intervals over all pairs of
// solid cells:
//   - the first touch of a motion: the smallest entry time over all pairs, clipped to [0, 1];
//   - the minimum translation distance: along each of many directions, the first gap in the union
//     of all pairs' intervals (the shortest move of B along it that leaves no pair overlapping),
//     and the least of those over the directions.
#ifndef CW_TEST_MOTION_REF_H
#define CW_TEST_MOTION_REF_H

#include <stdbool.h>

#include <collworld.h>

#include "reference.h"

/// The earliest t in [0, 1] at which A, moved by t * (dx, dy) from ta, and B at tb overlap with a
/// SAT margin above `threshold` (world units; the margin as ref_margin() measures it), or INFINITY
/// if they never do. 0 if they do at the start.
double mref_first_touch(const ref_shape *a, const cw_transform *ta, double dx, double dy, const ref_shape *b,
                        const cw_transform *tb, double threshold);

/// The first gap along unit direction (nx, ny): the smallest s >= 0 such that B moved by s * (nx, ny)
/// has no pair of cells overlapping A's by more than `threshold`, ignoring gaps narrower than
/// `min_gap` (world units). 0 if they do not overlap as they are.
double mref_first_gap(const ref_shape *a, const cw_transform *ta, const ref_shape *b, const cw_transform *tb,
                      double nx, double ny, double threshold, double min_gap);

/// The first gap along each of `directions` evenly spaced directions (direction k at angle
/// 2 pi k / directions) into gaps[k]; returns the least of them: the minimum translation distance.
double mref_gaps(const ref_shape *a, const cw_transform *ta, const ref_shape *b, const cw_transform *tb,
                 int directions, double threshold, double min_gap, double *gaps);

#endif
