// Contact manifold for pairs with a mask: point, normal and depth as documented in collworld.h.
//
// The overlap is measured by sampling the centres of the finer sprite's texels (an exact sweep of
// texel pieces only when the overlap is too thin for any centre to land in it); the depth is then
// found by bisection with the exact test.
#include "internal.h"

#include <math.h>

// Texel centres sampled at most (the finer sprite's, thinned by a stride): enough for a point inside
// the overlap and the gradient that is one of the directions the minimum translation tries.
#define SAMPLES 128

// What the measuring step hands to the depth search: a point inside the overlap and the normal,
// both in world units, and a local box of `box_body` around the overlap.
typedef struct overlap_contact {
    double px, py, nx, ny;
    const cw__body *box_body;
    double x0, y0, x1, y1;
} overlap_contact;

static void centre(const cw__body *body, double *x, double *y)
{
    const cw_mask *m = body->mask;
    cw__to_world(&body->xf, 0.5 * (m->x0 + m->x1), 0.5 * (m->y0 + m->y1), 0, 0, x, y);
}

static double texel_size(const cw__body *body) { return cw__min(fabs(body->xf.sx), fabs(body->xf.sy)); }

// Whether local point (x, y) lies strictly inside an opaque texel.
static bool inside_opaque(const cw__body *body, double x, double y)
{
    const cw_mask *m = body->mask;
    double fx = floor(x), fy = floor(y);
    if (x - fx <= body->eps_x || x - fx >= 1 - body->eps_x || y - fy <= body->eps_y || y - fy >= 1 - body->eps_y)
        return false;
    if (!(fx >= 0 && fy >= 0 && fx < m->width && fy < m->height))
        return false;
    return cw__texel(m, (int)fx, (int)fy);
}

// Unit normal from a local area gradient of `moved` (the rate at which the overlap grows as that
// body moves along its local axes): b should move against the gradient of b, or along that of a.
// Falls back to the centres' direction where the gradient vanishes (one shape deep in the other).
static void normal_from_gradient(const cw__body *a, const cw__body *b, const cw__body *moved, double gx, double gy,
                                 double scale, overlap_contact *c)
{
    gx *= moved->xf.inv_sx, gy *= moved->xf.inv_sy;
    double sign = moved == a ? 1.0 : -1.0;
    double wx = sign * (moved->xf.c * gx - moved->xf.s * gy), wy = sign * (moved->xf.s * gx + moved->xf.c * gy);
    double length = cw__length(wx, wy);
    if (length > 1e-9 * scale * cw__max(fabs(moved->xf.inv_sx), fabs(moved->xf.inv_sy))) {
        c->nx = wx / length, c->ny = wy / length;
        return;
    }
    double ax, ay, bx, by;
    centre(a, &ax, &ay);
    centre(b, &bx, &by);
    length = cw__length(bx - ax, by - ay);
    c->nx = length > 0 ? (bx - ax) / length : 1;
    c->ny = length > 0 ? (by - ay) / length : 0;
}

static cw__samples samples_empty(void)
{
    return (cw__samples){.lo_x = INFINITY, .lo_y = INFINITY, .hi_x = -INFINITY, .hi_y = -INFINITY, .best_d2 = INFINITY};
}

// Samples the finer sprite's texel centres (thinned to about SAMPLES at most). False if none lands in
// the overlap.
static bool measure_sampled(const cw__body *a, const cw__body *b, overlap_contact *c)
{
    bool a_finer = fabs(a->xf.sx * a->xf.sy) <= fabs(b->xf.sx * b->xf.sy);
    const cw__body *fine = a_finer ? a : b, *coarse = a_finer ? b : a;
    int stride = 1;
    while (fine->mask->count / ((long)stride * stride) > SAMPLES)
        stride *= 2;
    cw__samples s = samples_empty();
    cw__masks_sample(fine, coarse, stride, &s);
    if (s.count == 0)
        return false;
    double lx = s.sum_x / s.count, ly = s.sum_y / s.count;
    cw__map m = cw__map_between(fine, coarse);
    if (!inside_opaque(fine, lx, ly) ||
        !inside_opaque(coarse, m.ox + lx * m.ux + ly * m.vx, m.oy + lx * m.uy + ly * m.vy)) {
        cw__samples nearest = samples_empty();
        nearest.find_nearest = true;
        nearest.target_x = lx, nearest.target_y = ly;
        nearest.metric_x = fabs(fine->xf.sx), nearest.metric_y = fabs(fine->xf.sy);
        cw__masks_sample(fine, coarse, stride, &nearest);
        lx = nearest.best_x, ly = nearest.best_y;
    }
    cw__to_world(&fine->xf, lx, ly, 0, 0, &c->px, &c->py);
    normal_from_gradient(a, b, fine, s.grad_x, s.grad_y, (double)s.count, c);
    double half = 0.5 * stride;
    *c = (overlap_contact){c->px, c->py, c->nx, c->ny, fine, s.lo_x - half, s.lo_y - half, s.hi_x + half, s.hi_y + half};
    return true;
}

// Pieces kept by the first sweep of measure_pieces(), so that the piece nearest their mean needs no
// second sweep (6.5% of a just-touching manifold in bench_manifold); more than that sweep again.
#define PIECE_SPOTS 256

// The exact pieces of `walked`'s runs cut by `other`'s rows (in other's texel space): the point is
// the centroid of the piece nearest their mean (other's centre if they have no area), the normal
// from their gradient. False if they have no area.
static bool measure_pieces(const cw__body *a, const cw__body *b, const cw__body *walked, const cw__body *other,
                           overlap_contact *c)
{
    cw__piece_spot spots[PIECE_SPOTS];
    cw__pieces p = cw__pieces_empty();
    p.spots = spots, p.spot_cap = PIECE_SPOTS;
    cw__masks_pieces(walked, other, &p);
    double lx = 0.5 * (other->mask->x0 + other->mask->x1), ly = 0.5 * (other->mask->y0 + other->mask->y1);
    if (p.area > 0) {
        cw__pieces nearest = cw__pieces_empty();
        nearest.find_nearest = true;
        nearest.target_x = p.sum_x / p.area, nearest.target_y = p.sum_y / p.area;
        nearest.metric_x = fabs(other->xf.sx), nearest.metric_y = fabs(other->xf.sy);
        if (p.spot_count <= p.spot_cap)
            cw__pieces_nearest_of(&nearest, spots, p.spot_count);
        else
            cw__masks_pieces(walked, other, &nearest);
        if (nearest.best_d2 < INFINITY)
            cw__piece_centroid(walked, other, &nearest.best, &lx, &ly);
    }
    cw__to_world(&other->xf, lx, ly, 0, 0, &c->px, &c->py);
    normal_from_gradient(a, b, other, p.grad_x, p.grad_y, p.area, c);
    c->box_body = other;
    c->x0 = p.lo_x, c->y0 = p.lo_y, c->x1 = p.hi_x, c->y1 = p.hi_y;
    return p.area > 0;
}

// For overlaps thinner than a texel: the exact pieces of b's runs cut by a's rows, or where those
// have no area, of a's runs cut by b's rows (the tolerance is kept in the other's texel units, so a
// sliver thinner than it may count one way round and not the other).
static void measure_exact(const cw__body *a, const cw__body *b, overlap_contact *c)
{
    overlap_contact other_way;
    if (!measure_pieces(a, b, b, a, c) && measure_pieces(a, b, a, b, &other_way))
        *c = other_way;
}

// Extent along (nx, ny) of the world image of a local box of `body`.
static void project_box(const cw__body *body, double x0, double y0, double x1, double y1, double nx, double ny,
                        double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int k = 0; k < 4; k++) {
        double wx, wy;
        cw__to_world(&body->xf, k & 1 ? x1 : x0, k & 2 ? y1 : y0, 0, 0, &wx, &wy);
        double d = wx * nx + wy * ny;
        *lo = cw__min(*lo, d), *hi = cw__max(*hi, d);
    }
}

static bool moved_overlaps(const cw__body *a, const cw__body *b, double dx, double dy)
{
    cw__body moved = *b;
    moved.xf.px += dx;
    moved.xf.py += dy;
    return cw__masks_overlap(a, &moved);
}

// How far b must move along the normal to stop overlapping, by bisection with the exact test from
// `lo` (known not to be enough). The overlap's extent along the normal is the first guess, which
// usually brackets the answer tightly. Used only where the minimum translation's own answer does
// not separate them (rounding at extreme placements).
static double contact_depth(const cw__body *a, const cw__body *b, const overlap_contact *c, double lo)
{
    double tolerance = cw__min(1.0, cw__min(texel_size(a), texel_size(b))) / 64;
    double lo_p, hi_p, lo_a, hi_a, lo_b, hi_b;
    project_box(c->box_body, c->x0, c->y0, c->x1, c->y1, c->nx, c->ny, &lo_p, &hi_p);
    project_box(a, a->mask->x0, a->mask->y0, a->mask->x1, a->mask->y1, c->nx, c->ny, &lo_a, &hi_a);
    project_box(b, b->mask->x0, b->mask->y0, b->mask->x1, b->mask->y1, c->nx, c->ny, &lo_b, &hi_b);
    // b's box wholly past a's box: surely apart. Never below the tolerance: beyond moderate placements
    // (a pivot 1e30 away) the projections may lose the boxes, and the depth must stay positive.
    double hi = cw__max(hi_a - lo_b + tolerance, cw__max(lo, tolerance));
    double guess = hi_p - lo_p + tolerance;
    if (guess > lo && guess < hi) {
        if (moved_overlaps(a, b, c->nx * guess, c->ny * guess))
            lo = guess;
        else
            hi = guess;
    }
    // Stop also when lo and hi are neighbouring doubles: extreme size ratios (a 1e38 box against a
    // 1e-31 texel) ask for a tolerance finer than the doubles there can give.
    while (hi - lo > tolerance) {
        double mid = 0.5 * (lo + hi);
        if (!(mid > lo && mid < hi))
            break;
        if (moved_overlaps(a, b, c->nx * mid, c->ny * mid))
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

// A depth from the minimum translation that leaves the pair a hair short of apart (its intervals and
// the exact test round the touching tolerance differently) is carried on within the gap it found,
// which is at least a 1024th of a texel wide (cw__mtd's narrowest): steps from a millionth of a texel,
// each four times the last, up to half that width. Bisecting from there instead assumes the pair
// stays apart once apart, which two rings crossed through each other are not: it ended beyond the
// far side (12 times the shortest move in a seeded test). False if no step separates.
static bool step_apart(const cw__body *a, const cw__body *b, double nx, double ny, double *depth)
{
    double texel = cw__min(texel_size(a), texel_size(b));
    for (double step = texel * 1e-6; step <= texel / 2048; step *= 4) {
        double d = *depth + step;
        if (!moved_overlaps(a, b, nx * d, ny * d)) {
            *depth = d;
            return true;
        }
    }
    return false;
}

void cw__mask_manifold(const cw__body *a, const cw__body *b, cw_manifold *manifold)
{
    overlap_contact c;
    if (!measure_sampled(a, b, &c))
        measure_exact(a, b, &c);
    double nx, ny, depth;
    if (cw__mtd(a, b, c.nx, c.ny, c.px, c.py, &nx, &ny, &depth)) {
        c.nx = nx, c.ny = ny;
        if (moved_overlaps(a, b, nx * depth, ny * depth) && !step_apart(a, b, nx, ny, &depth))
            depth = contact_depth(a, b, &c, depth);
    } else {
        depth = contact_depth(a, b, &c, 0);
    }
    manifold->point = (cw_vec2){(float)c.px, (float)c.py};
    manifold->normal = (cw_vec2){(float)c.nx, (float)c.ny};
    manifold->depth = (float)depth;
}
