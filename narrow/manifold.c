// Contact manifold for pairs with a mask: point, normal and depth as documented in collworld.h.
//
// One sweep of b's runs against a's rows measures the overlap (area, centroid, and the area
// gradient from a's boundary texels); the depth is then found by bisection with the exact test.
#include "internal.h"

#include <math.h>

static bool moved_overlaps(const cw__body *a, const cw__body *b, double dx, double dy)
{
    cw__body moved = *b;
    moved.xf.px += dx;
    moved.xf.py += dy;
    return cw__masks_overlap(a, &moved);
}

static void centre(const cw__body *body, double *x, double *y)
{
    const cw_mask *m = body->mask;
    cw__to_world(&body->xf, 0.5 * (m->x0 + m->x1), 0.5 * (m->y0 + m->y1), 0, 0, x, y);
}

static double texel_size(const cw__body *body) { return cw__min(fabs(body->xf.sx), fabs(body->xf.sy)); }

// Whether local point (x, y) lies strictly inside an opaque texel.
static bool inside_opaque(const cw_mask *m, double x, double y)
{
    double fx = floor(x), fy = floor(y);
    if (x - fx <= CW__EPS || x - fx >= 1 - CW__EPS || y - fy <= CW__EPS || y - fy >= 1 - CW__EPS)
        return false;
    if (!(fx >= 0 && fy >= 0 && fx < m->width && fy < m->height))
        return false;
    return cw__texel(m, (int)fx, (int)fy);
}

// The centroid of the overlap if it lies inside the overlap, else the centre of the overlapping
// piece nearest to it (found by a second sweep), in a's local space.
static void contact_point(const cw__body *a, const cw__body *b, const cw__pieces *pieces, double *lx, double *ly)
{
    *lx = pieces->sum_x / pieces->area;
    *ly = pieces->sum_y / pieces->area;
    cw__map ab = cw__map_between(a, b);
    double bx = ab.ox + *lx * ab.ux + *ly * ab.vx, by = ab.oy + *lx * ab.uy + *ly * ab.vy;
    if (inside_opaque(a->mask, *lx, *ly) && inside_opaque(b->mask, bx, by))
        return;
    cw__pieces nearest = cw__pieces_empty();
    nearest.find_nearest = true;
    nearest.target_x = *lx, nearest.target_y = *ly;
    nearest.metric_x = fabs(a->xf.sx), nearest.metric_y = fabs(a->xf.sy);
    cw__masks_pieces(b, a, &nearest);
    if (nearest.best_d2 < INFINITY)
        cw__piece_centroid(b, a, &nearest.best, lx, ly);
}

// Moving a along +x (local) grows the overlap at rate grad_x; moving b along n therefore changes
// it at rate -(world gradient) . n, which falls fastest along the world gradient itself. Where the
// gradient vanishes (one shape deep inside the other), fall back to the centres' direction.
static void contact_normal(const cw__body *a, const cw__body *b, const cw__pieces *pieces, double *nx, double *ny)
{
    double gx = pieces->grad_x * a->xf.inv_sx, gy = pieces->grad_y * a->xf.inv_sy;
    double wx = a->xf.c * gx - a->xf.s * gy, wy = a->xf.s * gx + a->xf.c * gy;
    double length = hypot(wx, wy);
    if (length > 1e-9 * pieces->area * cw__max(fabs(a->xf.inv_sx), fabs(a->xf.inv_sy))) {
        *nx = wx / length;
        *ny = wy / length;
        return;
    }
    double ax, ay, bx, by;
    centre(a, &ax, &ay);
    centre(b, &bx, &by);
    length = hypot(bx - ax, by - ay);
    *nx = length > 0 ? (bx - ax) / length : 1;
    *ny = length > 0 ? (by - ay) / length : 0;
}

// Extent along (nx, ny) of the world box of some local box of `body`.
static void project_box(const cw__body *body, double x0, double y0, double x1, double y1, double nx, double ny,
                        double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int c = 0; c < 4; c++) {
        double wx, wy;
        cw__to_world(&body->xf, c & 1 ? x1 : x0, c & 2 ? y1 : y0, 0, 0, &wx, &wy);
        double d = wx * nx + wy * ny;
        *lo = cw__min(*lo, d), *hi = cw__max(*hi, d);
    }
}

// How far b must move along the normal to stop overlapping, by bisection with the exact test. The
// first guess is the pieces' extent along the normal, which usually brackets the answer tightly.
static double contact_depth(const cw__body *a, const cw__body *b, const cw__pieces *pieces, double nx, double ny)
{
    double tolerance = cw__min(1.0, cw__min(texel_size(a), texel_size(b))) / 64;
    double lo_p, hi_p, lo_a, hi_a, lo_b, hi_b;
    project_box(a, pieces->lo_x, pieces->lo_y, pieces->hi_x, pieces->hi_y, nx, ny, &lo_p, &hi_p);
    project_box(a, a->mask->x0, a->mask->y0, a->mask->x1, a->mask->y1, nx, ny, &lo_a, &hi_a);
    project_box(b, b->mask->x0, b->mask->y0, b->mask->x1, b->mask->y1, nx, ny, &lo_b, &hi_b);
    double lo = 0, hi = hi_a - lo_b + tolerance; // b's box wholly past a's box: surely apart
    double guess = hi_p - lo_p + tolerance;
    if (guess < hi) {
        if (moved_overlaps(a, b, nx * guess, ny * guess))
            lo = guess;
        else
            hi = guess;
    }
    while (hi - lo > tolerance) {
        double mid = 0.5 * (lo + hi);
        if (moved_overlaps(a, b, nx * mid, ny * mid))
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

void cw__mask_manifold(const cw__body *a, const cw__body *b, cw_manifold *manifold)
{
    cw__pieces pieces = cw__pieces_empty();
    cw__masks_pieces(b, a, &pieces);
    if (!(pieces.area > 0)) { // only slivers within the tolerance: use the centre of a's box
        pieces.area = 1;
        pieces.sum_x = 0.5 * (a->mask->x0 + a->mask->x1);
        pieces.sum_y = 0.5 * (a->mask->y0 + a->mask->y1);
    }
    double lx, ly, wx, wy, nx, ny;
    contact_point(a, b, &pieces, &lx, &ly);
    cw__to_world(&a->xf, lx, ly, 0, 0, &wx, &wy);
    contact_normal(a, b, &pieces, &nx, &ny);
    manifold->point = (cw_vec2){(float)wx, (float)wy};
    manifold->normal = (cw_vec2){(float)nx, (float)ny};
    manifold->depth = (float)contact_depth(a, b, &pieces, nx, ny);
}
