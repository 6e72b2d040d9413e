// The slow, obviously-correct reference geometry the tests compare collworld against.
//
// Everything here is double precision and uses only the header's formula
//   world = position + R(rotation) * ((local - origin) ∘ scale),  R(t) = [cos t, -sin t; sin t, cos t]
// applied to the float fields of a cw_transform, with the header's rule that the float nearest to a
// multiple of pi/2 (below 100,000 rad) counts as that exact multiple. It never calls the library.
#ifndef CW_TEST_REFERENCE_H
#define CW_TEST_REFERENCE_H

#include <stdbool.h>

#include <collworld.h>

/// Margin returned when no pair of solid cells comes within REF_NEAR world units of each other
/// (world AABBs of every cell pair more than 1e-2 apart), or when a shape has no solid cell.
#define REF_FAR (-1e-2)

/// A shape as a grid of nx x ny cells of size cell_w x cell_h in local units; cell (i, j) covers
/// [i*cell_w, (i+1)*cell_w] x [j*cell_h, (j+1)*cell_h]. A mask is a grid of 1x1 texels, a box is
/// one cell of its size.
typedef struct ref_shape {
    int nx, ny;
    double cell_w, cell_h;
    const unsigned char *solid; ///< nx * ny, row-major, nonzero = opaque. Borrowed.
} ref_shape;

ref_shape ref_box(double width, double height);
ref_shape ref_mask(const unsigned char *solid, int width, int height);

/// Number of solid cells.
int ref_solid_count(const ref_shape *s);

/// cos and sin of a rotation under the header's rule: the float nearest to a multiple of pi/2 (and
/// below 100,000 rad) counts as that exact multiple; any other value is used as given.
void ref_cos_sin(float rotation, double *c, double *s);

/// The header's formula, in double.
void ref_to_world(const cw_transform *t, double lx, double ly, double *wx, double *wy);
/// Its exact inverse, in double.
void ref_to_local(const cw_transform *t, double wx, double wy, double *lx, double *ly);

/// Signed margin of two shapes: the max over all pairs of solid cells of the pair's SAT margin
/// (the smallest projection overlap over the 4 edge normals: > 0 is the penetration of an
/// overlapping pair, < 0 minus the largest gap of a separated pair). Positive = overlap with positive
/// area; negative = separated by at least that much; near 0 = merely touching. Never below REF_FAR.
/// Stops early (returning a value >= stop_above) once some pair reaches stop_above; pass INFINITY
/// for the exact maximum.
double ref_margin_capped(const ref_shape *a, const cw_transform *ta, const ref_shape *b, const cw_transform *tb,
                         double stop_above);
double ref_margin(const ref_shape *a, const cw_transform *ta, const ref_shape *b, const cw_transform *tb);

/// World AABB of the corners of all solid cells. Returns false (and leaves min/max alone) if the
/// shape has no solid cell. `all_cells` uses every cell, solid or not.
bool ref_aabb(const ref_shape *s, const cw_transform *t, bool all_cells, double min[2], double max[2]);

/// World distance from (wx, wy) to the nearest solid cell (0 inside), searching cells up to about
/// `search` world units away; returns INFINITY if none is that close.
double ref_point_distance(const ref_shape *s, const cw_transform *t, double wx, double wy, double search);

/// Whether (wx, wy) is strictly inside some solid cell, by at least `inset` local units.
bool ref_point_inside(const ref_shape *s, const cw_transform *t, double wx, double wy, double inset);

/// Two rectangles (cells) as world quads, for the brute-force checks.
typedef struct ref_quad {
    double x[4], y[4]; ///< corners in order around the cell
} ref_quad;

/// World quad of cell (i, j).
ref_quad ref_cell_quad(const ref_shape *s, const cw_transform *t, int i, int j);

/// Exact intersection of two convex quads by polygon clipping: returns the area, and the centroid in
/// (*cx, *cy) when the area is positive.
double ref_quad_intersection(const ref_quad *p, const ref_quad *q, double *cx, double *cy);

/// Separating-axis data of two box shapes (single cells): for each of the 4 unit axes (A's local x
/// and y directions in the world, then B's), the penetration: the shorter distance B must move along
/// the axis, one way or the other, to stop overlapping (negative = minus the gap). Returns the
/// minimum over the axes.
double ref_box_sat(const ref_shape *a, const cw_transform *ta, const ref_shape *b, const cw_transform *tb,
                   double axis_x[4], double axis_y[4], double overlap[4]);

#endif
