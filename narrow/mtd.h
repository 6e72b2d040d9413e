// The problem a minimum translation or a first touch solves as pairs of rectangles (mtd.c), and
// how its rectangles and their pairs are made (mtd_pairs.c). Not public.
#ifndef CW_NARROW_MTD_H
#define CW_NARROW_MTD_H

#include "bits.h"

#define RECT_CAP 96   // rectangles per shape (64 bytes each, on the stack)
#define PAIR_CAP 320  // pairs of rectangles (80 bytes each, on the stack)

// A rectangle of one shape, in world units relative to a reference point: its centre, its radius
// along each of the four axes, and its half extents along the world axes.
typedef struct cw__rect {
    double cx, cy, radius[4], ex, ey;
} cw__rect;

typedef struct cw__rect_set {
    int count;
    cw__rect r[RECT_CAP];
} cw__rect_set;

// Per pair and axis, the open range of s * (direction . axis) for which the projections overlap,
// and per pair the interval of s along the direction being tried. In double: a contact just
// begun has a depth of a millionth of a texel, and directions must be told apart there.
typedef struct cw__rect_pairs {
    int count;
    double lo[4][PAIR_CAP], hi[4][PAIR_CAP];
    double start[PAIR_CAP], end[PAIR_CAP];
} cw__rect_pairs;

// One question about two bodies: where they are, the axes and tolerances, the bound within which
// moves matter, and (made by cw__rects_and_pairs()) their rectangles and pairs. About 38 KB: on the
// stack of the call that asks.
typedef struct cw__problem {
    const cw__body *a, *b;
    double rx, ry;          // the reference point (b's position)
    double ax[4], ay[4];    // the four axes: a's u, v, then b's
    double tolerance;       // touching tolerance, world units
    double min_gap;         // narrower gaps do not count (they would not survive rounding)
    double bound;           // an upper bound on the answer
    double move_x, move_y;  // first touch: a's motion (pairs are those that meet over it)
    double cx_a, cy_a, bx, by; // the centres of the opaque boxes, relative to the reference point
    double inside_x, inside_y; // a world point inside the overlap (as far as the caller knows)
    cw__rect_set sets[2];
    cw__rect_pairs pairs;
} cw__problem;

#define EXIT_EVERY 8 // pairs between the checks whether a direction has already lost

// A direction (unit) and the shortest move of B along it that parts the rectangles: the best so far.
typedef struct cw__best_direction {
    double nx, ny, gap;
} cw__best_direction;

// Both shapes' rectangles in bands of the given rows (1: the rows themselves) near the other shape
// (within p->bound of it, or over p's motion), and the pairs of them that can meet. False if they
// do not fit.
bool cw__rects_and_pairs(cw__problem *p, int band_a, int band_b);

// The rectangles and pairs, the bands doubled until they fit (a handful of rectangles at most once
// a band is the whole shape). The bands used are left in *band_a and *band_b; a first touch takes
// the rows themselves, or nothing.
bool cw__set_up_pairs(cw__problem *p, int *band_a, int *band_b);

// Along (nx, ny) (any length; none if zero), the shortest move from the pairs as they are set up;
// into *best if shorter than its gap. Gives up on a direction once it cannot beat best->gap.
void cw__try_direction(cw__problem *p, double nx, double ny, cw__best_direction *best);

// The reach from 0 of the union of the pairs' intervals (start and end, made by the caller), from
// the first pass's answer `first`; anything at or past `enough` as soon as it is known to be.
double cw__search_reach(cw__problem *p, double first, double enough);

// (x, y) turned by k sixteenths of a turn, k >= 0 (16 is a whole turn).
void cw__turn_sixteenths(double x, double y, int k, double *tx, double *ty);

// After a first answer in *found (mtd_cones.c): the cones of directions, until none can hold a move
// shorter than found->gap by more than a 64th; *found then holds the best direction tried.
void cw__search_cones(cw__problem *p, cw__best_direction *found);

#endif
