// A slow, obviously-correct reference for the world queries (tests only). It reads shapes through the
// public API only (cw_mask_get, cw_mask_width, cw_mask_height) and does its own geometry in double
// with the header's formula (reference.h: ref_cos_sin, ref_to_world, ref_to_local).
//
// Points: the world point is mapped to local (u, v); the half-open rule decides: mask texel
// (floor u, floor v), box 0 <= u < w and 0 <= v < h.
//
// Rays: every opaque texel (or the box) is a convex quad of four world corners. The segment is
// clipped against the quad's open interior (Liang-Barsky on its 4 edge lines); the entry is the
// smallest entry fraction over all texels, its normal the entry edge's outward unit normal (which
// faces the ray); a start strictly inside is fraction 0 with normal minus the ray direction.
//
// Tolerance. The answer of double arithmetic is trusted only where it cannot flip within QR_EPS
// local units (for rays: QR_EPS times the larger |scale| in world units). That is the precision
// the library documents for cw_overlap() ("within about 1e-6 local units of merely touching count
// as touching"); asking more of the queries would fail implementations that are right in spirit.
//   - A point whose local coordinates are within that of a texel or box edge, where moving it
//     across the edge changes the answer, is QR_UNSURE.
//   - A ray is clipped three times: against the open quads, the quads grown by the tolerance and
//     shrunk by it. It is QR_NO only if it misses the grown quads, and QR_YES only if it hits the
//     shrunk ones at the same fraction to within QR_SURE (a fifth of the tests' tolerance on the
//     entry point) and its start is clearly inside or clearly outside;
//     grazes, entries along an edge and starts on an edge are QR_UNSURE. An entry within the
//     tolerance of a texel corner is QR_YES with two acceptable normals (`corner`).
// Exact cases. When the rotation is a multiple of pi/2 and the float inputs land exactly on a texel
// or box edge line (checked with exact error-free transformations: fma and TwoSum), the reference
// does not guess:
//   - such a point is decided by the half-open rule exactly;
//   - a segment lying exactly on such a line is walked along it: it is inside the covered region's
//     interior only where the texels on both sides are opaque (a run along the boundary between an
//     opaque and a transparent texel only grazes; a run between two opaque texels is interior).
// The callers count QR_UNSURE answers and require them to be rare.
#ifndef CW_TEST_QUERY_REF_H
#define CW_TEST_QUERY_REF_H

#include <stdbool.h>

#include <collworld.h>

/// Local units within which double arithmetic is not trusted to decide (see above).
#define QR_EPS 1e-6
/// A ray's entry is QR_YES only if it is known to within QR_SURE * max(|translation|, 1) world units.
#define QR_SURE 2e-5

typedef enum qr_answer { QR_NO = 0, QR_YES = 1, QR_UNSURE = 2 } qr_answer;

/// Whether `point` lies in the region `shape` covers under `transform`, with the half-open rule.
qr_answer qr_contains_point(const cw_shape *shape, const cw_transform *transform, cw_vec2 point);

/// The reference answer for a segment against one shape.
typedef struct qr_ray {
    qr_answer status;
    double fraction;      ///< QR_YES: entry fraction in [0, 1]
    double point[2];      ///< QR_YES: origin + fraction * translation
    double normal[2];     ///< QR_YES: unit normal facing the ray (minus the direction when inside)
    bool inside;          ///< QR_YES: starts inside (fraction 0)
    bool corner;          ///< QR_YES: entered within the tolerance of a corner: normal_alt is right too
    double normal_alt[2];
    bool exact;           ///< answered by the exact along-a-line walk
    double lower;         ///< QR_UNSURE: no entry can come before this fraction (2 if nothing can hit)
} qr_ray;

/// Casts the segment from `origin` to `origin + translation` against `shape` under `transform`.
void qr_raycast(const cw_shape *shape, const cw_transform *transform, cw_vec2 origin, cw_vec2 translation,
                qr_ray *out);

/// Whether the rotation counts as an exact multiple of pi/2 (the header's rule).
bool qr_quarter_turn(const cw_transform *transform);

/// Maps local (lx, ly) to the world exactly: true (and *out) only for a quarter turn where every
/// step of the header's formula is exact and the result is exactly a pair of floats.
bool qr_exact_world(const cw_transform *transform, double lx, double ly, cw_vec2 *out);

/// Width and height of the shape in local units (mask: texels; box: its size).
void qr_shape_size(const cw_shape *shape, double *w, double *h);

#endif
