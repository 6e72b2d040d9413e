// How deep a point lies in a shape: the distance to the nearest texel that is not opaque, or to a
// box's edge. Two shapes whose opaque discs around one point have radii ra and rb cannot be parted
// by a move shorter than ra + rb (the discs would still overlap), which lets the minimum
// translation skip searches that could only find longer moves (mtd.c).
#include "bits.h"

#include <math.h>

// Texels looked at each way from the point: a deeper point counts as this deep (still a lower
// bound), so that a giant opaque mask costs a few hundred rows, not thousands.
#define REACH 64

// The squared distance from local point (x, y) to the nearest texel of row r that is not opaque (x
// lies in column i), vy being the distance from y to the row; texels more than REACH columns away
// count as clear.
static double row_reach2(const cw_mask *m, int r, int i, double x, double vy)
{
    const uint64_t *row = cw__row(m, r);
    const int right = next_clear(row, i, cw__int_min(m->x1, i + REACH));
    const int left = prev_clear(row, i, cw__int_max(m->x0, i - REACH));
    const double hx = right == i || left == i ? 0 : cw__min(right - x, x - (left + 1));
    return hx * hx + vy * vy;
}

double cw__clearance(const cw__body *body, double wx, double wy)
{
    double x, y;
    cw__to_local(body, wx, wy, &x, &y); // texels, or a box's own units
    const double unit = cw__min(fabs(body->scale_x), fabs(body->scale_y)); // world units a local unit, at least
    if (body->is_box) {
        const double w = cw__body_width(body), h = cw__body_height(body);
        if (!(x > 0 && x < w && y > 0 && y < h)) // NaN too
            return 0;
        return cw__min(cw__min(x, w - x), cw__min(y, h - y)) * unit;
    }
    const cw_mask *m = body->mask;
    if (!(x > m->x0 && x < m->x1 && y > m->y0 && y < m->y1))
        return 0;
    const int i = (int)x, j = (int)y;
    if (!cw__texel_at(m, i, j))
        return 0;
    // Outside the opaque box every texel is transparent; within it, row by row outward from the
    // point's own, until the rows lie farther than the nearest found (at most REACH away).
    double edge = cw__min(cw__min(cw__min(x - m->x0, m->x1 - x), cw__min(y - m->y0, m->y1 - y)), REACH);
    double best = edge * edge;
    for (int r = j; r >= m->y0; r--) {
        const double vy = r == j ? 0 : y - (r + 1);
        if (vy * vy >= best)
            break;
        best = cw__min(best, row_reach2(m, r, i, x, vy));
    }
    for (int r = j + 1; r < m->y1; r++) {
        const double vy = r - y;
        if (vy * vy >= best)
            break;
        best = cw__min(best, row_reach2(m, r, i, x, vy));
    }
    return sqrt(best) * unit;
}
