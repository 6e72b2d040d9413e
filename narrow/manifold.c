// Contact manifold for pairs with a mask: point, normal and depth as documented in collworld.h.
#include "internal.h"

#include <math.h>

static cw__body moved(const cw__body *b, double dx, double dy)
{
    cw__body copy = *b;
    copy.xf.px += dx;
    copy.xf.py += dy;
    return copy;
}

// Overlap area (in a's local units) with b moved; a is walked, so the unit is the same for every move.
static double moved_area(const cw__body *a, const cw__body *b, double dx, double dy)
{
    cw__body b2 = moved(b, dx, dy);
    cw__pieces pieces = {0};
    cw__masks_pieces(&b2, a, &pieces);
    return pieces.area;
}

static bool moved_overlaps(const cw__body *a, const cw__body *b, double dx, double dy)
{
    cw__body b2 = moved(b, dx, dy);
    return cw__masks_overlap(a, &b2);
}

static void centre(const cw__body *body, double *x, double *y)
{
    const cw_mask *m = body->mask;
    cw__to_world(&body->xf, 0.5 * (m->x0 + m->x1), 0.5 * (m->y0 + m->y1), 0, 0, x, y);
}

static double radius(const cw__body *body)
{
    const cw_mask *m = body->mask;
    return 0.5 * hypot((m->x1 - m->x0) * body->xf.sx, (m->y1 - m->y0) * body->xf.sy);
}

static double texel_size(const cw__body *body) { return cw__min(fabs(body->xf.sx), fabs(body->xf.sy)); }

// The overlapping piece nearest the area-weighted centroid, as a world point inside the overlap.
// b's texels are walked against a's rows, so pieces are measured in a's local space.
static void contact_point(const cw__body *a, const cw__body *b, cw_vec2 *point)
{
    cw__pieces pieces = {0};
    cw__masks_pieces(b, a, &pieces);
    cw__pieces nearest = {.find_nearest = true, .best_d2 = INFINITY, .metric_x = fabs(a->xf.sx),
                          .metric_y = fabs(a->xf.sy)};
    nearest.target_x = pieces.area > 0 ? pieces.sum_x / pieces.area : 0;
    nearest.target_y = pieces.area > 0 ? pieces.sum_y / pieces.area : 0;
    cw__masks_pieces(b, a, &nearest);
    double lx = nearest.target_x, ly = nearest.target_y, wx, wy;
    if (nearest.best_d2 < INFINITY)
        cw__piece_centroid(b, a, &nearest.best, &lx, &ly);
    cw__to_world(&a->xf, lx, ly, 0, 0, &wx, &wy);
    *point = (cw_vec2){(float)wx, (float)wy};
}

// Minus the gradient of the overlap area as b moves (pygame's overlap_area trick), or the
// direction between the centres when the area does not change.
static void contact_normal(const cw__body *a, const cw__body *b, double *nx, double *ny)
{
    double h = 0.5 * cw__min(texel_size(a), texel_size(b));
    double gx = moved_area(a, b, h, 0) - moved_area(a, b, -h, 0);
    double gy = moved_area(a, b, 0, h) - moved_area(a, b, 0, -h);
    double length = hypot(gx, gy);
    if (length > 1e-9) {
        *nx = -gx / length;
        *ny = -gy / length;
        return;
    }
    double ax, ay, bx, by;
    centre(a, &ax, &ay);
    centre(b, &bx, &by);
    length = hypot(bx - ax, by - ay);
    *nx = length > 0 ? (bx - ax) / length : 1;
    *ny = length > 0 ? (by - ay) / length : 0;
}

// How far b must move along the normal to stop overlapping, by bisection with the exact test.
static double contact_depth(const cw__body *a, const cw__body *b, double nx, double ny)
{
    double ax, ay, bx, by;
    centre(a, &ax, &ay);
    centre(b, &bx, &by);
    double hi = hypot(bx - ax, by - ay) + radius(a) + radius(b) + 1, lo = 0;
    double tolerance = cw__min(1.0, cw__min(texel_size(a), texel_size(b))) / 64;
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
    double nx, ny;
    contact_point(a, b, &manifold->point);
    contact_normal(a, b, &nx, &ny);
    manifold->normal = (cw_vec2){(float)nx, (float)ny};
    manifold->depth = (float)contact_depth(a, b, nx, ny);
}
