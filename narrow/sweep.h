// Walking one mask's runs against another mask's rows (narrow/masks.c): the state the walk keeps,
// shared with the measuring of an overlap's pieces for manifolds (narrow/mask_pieces.c). Not public.
#ifndef CW_NARROW_SWEEP_H
#define CW_NARROW_SWEEP_H

#include "bits.h"

#include <math.h>

// One of the four slabs of B's 8-direction polygon, seen from A: a point of A at local (s, t) lands
// at projection `at0 + s * per_s + t * per_t` along the slab's direction, which must lie in (lo, hi).
// With motion, the point also moves by up to `per_d` along it over the motion.
typedef struct cw__slab {
    double lo, hi, at0, per_s, per_t, per_d;
} cw__slab;

// Everything about walking A against B that does not depend on the run: the map, B's slabs, the
// per-row column clip, the shape of a run's parallelogram, and where the walk has got to.
typedef struct cw__sweep {
    const cw_mask *a, *b;
    cw__map m;
    double move_x, move_y; // A's motion in B's texel space (swept tests; zero for the plain test)
    double eps_x, eps_y;  // touching tolerance in B's texel units
    cw__slab slabs[4];
    int clips;            // slabs that bound the columns of a row: s in (lo + j * slope, hi + j * slope)
    double clip_lo[4], clip_hi[4], clip_slope[4];
    bool u_down, v_down;  // whether A's +x / +y step goes toward smaller y in B
    bool left_is_u;       // the left boundary starts along the run (u) edge, else along v
    double slope_u, slope_v; // dx/dy of the u and v edges (0 when horizontal)
    bool moving;          // a swept test: runs are hexagons (run parallelogram + motion)
    int j0, j1;              // A's rows to walk, from the middle outward:
    int up, down;            // the next row above and below the middle
    bool take_up;            // which side is next
    int next_j, next_i0, next_i1; // the next row with texels left after clipping, and its texels
    long next_cost;               // and what testing it is expected to cost
    long work;               // rows and slices done, to share time fairly between two walks
    cw__pieces *pieces;      // NULL: stop at the first hit
} cw__sweep;

// One side of a run's region in B space, from its bottom vertex (smallest y) to its top one: three
// straight pieces (some of zero length), through bends 1 and 2. x on the left chain is convex in y
// and on the right chain concave, so a slice's extremes are at its ends or at a bend inside it.
typedef struct cw__chain {
    double x[3], y[3];  // the bottom vertex and the two bends
    double slope[3];    // dx/dy of each piece (0 for a horizontal one)
} cw__chain;

// A run's region in B space: its parallelogram, or for a swept test the hexagon the parallelogram
// sweeps along the motion; convex either way, described by its left and right chains.
typedef struct cw__run_shape {
    double bottom_y, top_y;
    cw__chain left, right;
    double corner_x, corner_y, run_x, run_y, col_x, col_y; // for exact piece polygons
} cw__run_shape;

static inline double chain_x(const cw__chain *c, double y)
{
    int k = y < c->y[1] ? 0 : y < c->y[2] ? 1 : 2;
    return c->x[k] + (y - c->y[k]) * c->slope[k];
}

static inline double left_x(const cw__run_shape *r, double y) { return chain_x(&r->left, y); }
static inline double right_x(const cw__run_shape *r, double y) { return chain_x(&r->right, y); }

// Whether local point (x, y) of `body`'s texel space lies strictly inside one of its opaque texels,
// beyond the touching tolerance from every texel edge: a point there proves coverage.
static CW__ALWAYS_INLINE bool opaque_inside(const cw__body *body, double x, double y)
{
    const cw_mask *m = body->mask;
    if (!(x >= m->box[0] && x < m->box[2] && y >= m->box[1] && y < m->box[3]))
        return false;
    int i = (int)x, j = (int)y; // non-negative here, so truncation is floor
    if (fabs(x - i - 0.5) >= 0.5 - body->eps_x || fabs(y - j - 0.5) >= 0.5 - body->eps_y)
        return false; // on (or within the tolerance of) a texel edge: proves nothing
    return cw__texel_at(m, i, j);
}

// The walk's steps for narrow/mask_pieces.c (narrow/masks.c keeps its own calls inlined): set up
// the walk of `walked` against `other` under map m (false if no row can reach `other`), take the
// next row from the middle outward, test or measure one row, and clip a row to the columns that can
// reach `other`'s polygon (false if none).
bool cw__sweep_setup(cw__sweep *sw, const cw__body *walked, const cw__body *other, const cw__map *m,
                     cw__pieces *pieces);
bool cw__sweep_next_row(cw__sweep *sw, int *j);
bool cw__sweep_row(cw__sweep *sw, int j);
bool cw__sweep_clip_columns(const cw__sweep *sw, int j, int *i0, int *i1);

// Adds one slice of a run to the walk's pieces (narrow/mask_pieces.c): the run's region `rs`
// between heights y0 < y1 of B's row `band`, spanning x in [x_lo, x_hi] over B's texels [k0, k1),
// from A's run [i0, i1) of row j.
void cw__sweep_add_pieces(cw__sweep *sw, const cw__run_shape *rs, int band, double y0, double y1, double x_lo,
                          double x_hi, int k0, int k1, int i0, int i1, int j);

#endif
