// Contacts over a motion: the swept test (does A, moving in a straight line, overlap B at some
// time in [0, 1]?), the time of first touch, and cw_shape_cast().
//
// "Touched somewhere in [0, t]" is monotone in t, and decided exactly by the swept test (box-box:
// the separating-axis test with time; anything with a mask: the texel walk over hexagons), so the
// first touch is bisected with it. The pair is first put in canonical order, so that A moving by d
// against B runs the very computation of B moving by -d against A.
#include "internal.h"

#include <math.h>
#include <string.h>

// Bisection ends when the first touch is known to within this fraction of the motion.
#define FIRST_TOUCH_RESOLUTION 0x1p-20

// The times t for which box a, moved by t * (dx, dy), overlaps box b by more than `tolerance` on
// each of the four edge normals: the intersection of four open intervals, as [*t_lo, *t_hi].
// False if it is empty.
static bool boxes_interval(const cw__obb *a, const cw__obb *b, double dx, double dy, double tolerance,
                           double *t_lo, double *t_hi)
{
    const double axes[4][2] = {{a->c, a->s}, {-a->s, a->c}, {b->c, b->s}, {-b->s, b->c}};
    double lo = -INFINITY, hi = INFINITY;
    for (int k = 0; k < 4; k++) {
        double nx = axes[k][0], ny = axes[k][1];
        double gap = nx * (b->cx - a->cx) + ny * (b->cy - a->cy); // at t: gap - t * rate
        double rate = nx * dx + ny * dy;
        double reach = cw__obb_radius(a, nx, ny) + cw__obb_radius(b, nx, ny) - tolerance;
        if (!(reach > 0))
            return false;
        if (rate == 0) {
            if (!(fabs(gap) < reach))
                return false;
            continue;
        }
        double t0 = (gap - reach) / rate, t1 = (gap + reach) / rate;
        lo = cw__max(lo, cw__min(t0, t1));
        hi = cw__min(hi, cw__max(t0, t1));
    }
    *t_lo = lo, *t_hi = hi;
    return lo < hi;
}

static double box_tolerance(const cw__obb *a, const cw__obb *b) { return cw__min(a->tolerance, b->tolerance); }

// The swept test for a pair already in canonical order.
static bool ordered_touch_moving(const cw__body *a, const cw__body *b, double dx, double dy)
{
    if (!(a->is_box && b->is_box))
        return cw__masks_overlap_moving(a, b, dx, dy);
    double lo, hi;
    const cw__obb oa = cw__body_obb(a), ob = cw__body_obb(b);
    return boxes_interval(&oa, &ob, dx, dy, box_tolerance(&oa, &ob), &lo, &hi) && lo < 1 && hi > 0;
}

// The box around a mask's opaque texels as an oriented box (no tolerance): where it does not
// overlap the other's, the masks cannot.
static cw__obb opaque_obb(const cw__body *body)
{
    if (body->is_box)
        return cw__body_obb(body);
    const cw_mask *m = body->mask;
    const cw__xf *xf = &body->xf;
    cw__obb o;
    double w = m->x1 - m->x0, h = m->y1 - m->y0;
    cw__to_world(xf, 0.5 * (m->x0 + m->x1), 0.5 * (m->y0 + m->y1), 0, 0, &o.cx, &o.cy);
    o.ux = 0.5 * w * xf->c * xf->sx, o.uy = 0.5 * w * xf->s * xf->sx;
    o.vx = -0.5 * h * xf->s * xf->sy, o.vy = 0.5 * h * xf->c * xf->sy;
    o.c = xf->c, o.s = xf->s, o.tolerance = 0;
    return o;
}

// One bisection step of a first touch known to lie in (lo, hi] (a pair in canonical order): the
// half of the interval that holds it.
static void halve_touch(const cw__body *a, const cw__body *b, double dx, double dy, double *lo, double *hi)
{
    double mid = 0.5 * (*lo + *hi);
    cw__body from = cw__body_moved(a, *lo * dx, *lo * dy);
    if (ordered_touch_moving(&from, b, (mid - *lo) * dx, (mid - *lo) * dy))
        *hi = mid;
    else
        *lo = mid;
}

// The first pair of runs to meet while a moves from time `from` to `to` of (dx, dy): its overlap
// [*start, *until), in times of the whole motion (*start infinite if none meets). Over a short
// stretch only the runs near where the pair meets are paired, so that a comb's many runs still
// fit and a sprite's runs far from the first touch cost nothing. False if the runs are too many.
static bool first_pair_between(const cw__body *a, const cw__body *b, double dx, double dy, double from, double to,
                               double *start, double *until)
{
    cw__body moved = cw__body_moved(a, from * dx, from * dy);
    double span = to - from;
    if (!cw__first_touch_pairs(&moved, b, span * dx, span * dy, start, until))
        return false;
    *start = from + *start * span, *until = from + *until * span;
    return true;
}

// The first pair of runs to meet in [from, to], looked for in windows that double from an eighth
// of it: a first touch mostly comes soon after the opaque boxes meet, and a bullet's path across a
// whole sprite would pair every run it crosses. *t infinite if none meets; false if the runs of a
// window are too many.
static bool first_pair_after(const cw__body *a, const cw__body *b, double dx, double dy, double from, double to,
                             double *t)
{
    double width = (to - from) / 8, until;
    for (double start = from;; start += width, width *= 2) {
        double end = start + width < to ? start + width : to;
        if (!first_pair_between(a, b, dx, dy, start, end, t, &until))
            return false;
        if (*t < INFINITY || end == to)
            return true;
    }
}

// The first touch of a pair in canonical order that touches somewhere in [0, 1] but not at 0: the
// bisection of the swept test over the times its opaque boxes allow, to FIRST_TOUCH_RESOLUTION.
static double ordered_first_touch(const cw__body *a, const cw__body *b, double dx, double dy)
{
    cw__obb oa = opaque_obb(a), ob = opaque_obb(b);
    double lo = 0, hi = 1, box_lo, box_hi;
    if (boxes_interval(&oa, &ob, dx, dy, a->is_box && b->is_box ? box_tolerance(&oa, &ob) : 0, &box_lo, &box_hi)) {
        if (a->is_box && b->is_box) // then the interval is the answer itself
            return cw__min(cw__max(box_lo, 0), 1);
        lo = cw__min(cw__max(lo, box_lo), 1), hi = cw__max(cw__min(hi, box_hi), lo);
    }
    // Most often the pairs of runs give the time outright; it must agree with the swept test (no
    // touch from lo to half a resolution before it, a touch by half a resolution after: then it
    // needs no bisection), else, or where the runs are too many, bisect.
    double t;
    if (lo < hi && first_pair_after(a, b, dx, dy, lo, hi, &t) && t <= hi) {
        const double half = 0.5 * FIRST_TOUCH_RESOLUTION;
        double before = cw__max(lo, t - half), after = cw__min(hi, t + half);
        cw__body start = cw__body_moved(a, lo * dx, lo * dy), from = cw__body_moved(a, before * dx, before * dy);
        if (!ordered_touch_moving(&start, b, (before - lo) * dx, (before - lo) * dy) &&
            ordered_touch_moving(&from, b, (after - before) * dx, (after - before) * dy))
            lo = before, hi = after;
    }
    // Invariant: no touch in [0, lo]; a touch in [0, hi] (else the answer is 1: the pair touches
    // only where the swept test and the plain test at t = 1 disagree by rounding).
    while (hi - lo > FIRST_TOUCH_RESOLUTION)
        halve_touch(a, b, dx, dy, &lo, &hi);
    return hi;
}

// The smallest float not below x in [0, 1].
static float fraction_up(double x)
{
    float f = (float)x;
    if ((double)f < x)
        f = nextafterf(f, 2.0f);
    return f > 1.0f ? 1.0f : f;
}

// The point of the pair's overlap with a moved by time * (dx, dy), if they overlap then.
static bool overlap_point_at(const cw__body *a, const cw__body *b, double dx, double dy, double time, cw_vec2 *point)
{
    cw__body moved = cw__body_moved(a, time * dx, time * dy);
    cw_manifold overlap;
    if (!cw__overlap_bodies(&moved, b, &overlap))
        return false;
    *point = overlap.point;
    return true;
}

// A point where a pair in canonical order overlaps at a time in (lo, hi], if the swept test finds a
// touch there: a grazing pair may overlap for far less than the first touch's resolution, so the
// touch is narrowed down (halve_touch keeps it in (lo, hi]; once hi - lo is shorter than the overlap
// lasts, the plain test sees it at hi). False if even that does not find it (a touch that only
// rounding makes).
static bool overlap_point_in(const cw__body *a, const cw__body *b, double dx, double dy, double lo, double hi,
                             cw_vec2 *point)
{
    for (int k = 0; k < 48 && lo < hi; k++) {
        if (overlap_point_at(a, b, dx, dy, hi, point))
            return true;
        halve_touch(a, b, dx, dy, &lo, &hi);
    }
    return false;
}

// Where a pair that first touches at t (found to within FIRST_TOUCH_RESOLUTION either way) grazes:
// around t; failing that (a touch that only rounding makes at t, which the bisection keeps
// choosing, and a real one just after), halfway through the first pair of runs' overlap if that
// begins within the steps contact_at() tried after t; or over those steps.
static bool grazing_point(const cw__body *a, const cw__body *b, double dx, double dy, double t, cw_vec2 *point)
{
    const double r = FIRST_TOUCH_RESOLUTION, first = cw__max(0.0, t - r), last = cw__min(1.0, t + 9 * r);
    if (overlap_point_in(a, b, dx, dy, first, cw__min(1.0, t + r), point))
        return true;
    double start, end;
    if (first < last && first_pair_between(a, b, dx, dy, first, last, &start, &end) && start < last &&
        overlap_point_at(a, b, dx, dy, 0.5 * (start + end), point))
        return true;
    return overlap_point_in(a, b, dx, dy, t, last, point);
}

// The contact at time t: the manifold of the overlap a step of the resolution later (at the first
// touch itself the overlap is thinner than the tolerance). Where the pair only grazes there, the
// next few steps are tried, and failing those the normal is the motion's direction, the depth 0 and
// the point where they graze (or, failing that, the middle of where their boxes meet).
static void contact_at(const cw__body *a, const cw__body *b, double dx, double dy, double t, cw_manifold *manifold)
{
    for (int k = t > 0; k < 9; k++) {
        double at = cw__min(1.0, t + k * FIRST_TOUCH_RESOLUTION);
        cw__body moved = cw__body_moved(a, at * dx, at * dy);
        if (cw__overlap_bodies(&moved, b, manifold))
            return;
    }
    double length = cw__length(dx, dy);
    if (!grazing_point(a, b, dx, dy, t, &manifold->point)) {
        cw__body moved = cw__body_moved(a, t * dx, t * dy);
        cw_aabb box = cw__body_aabb(&moved), other = cw__body_aabb(b);
        box.min.x = fmaxf(box.min.x, other.min.x), box.min.y = fmaxf(box.min.y, other.min.y);
        box.max.x = fminf(box.max.x, other.max.x), box.max.y = fminf(box.max.y, other.max.y);
        manifold->point = (cw_vec2){0.5f * (box.min.x + box.max.x), 0.5f * (box.min.y + box.max.y)};
    }
    manifold->normal = length > 0 ? (cw_vec2){(float)(dx / length), (float)(dy / length)} : (cw_vec2){1, 0};
    manifold->depth = 0;
}

bool cw__motion_may_meet(const cw__body *a, const cw__body *b, double dx, double dy)
{
    if (!cw__bodies_rounding_matters(a, b))
        return true;
    bool swapped = cw__compare_bodies(a, b) > 0; // the pair's canonical first moves: symmetric
    const cw__body *mover = swapped ? b : a, *still = swapped ? a : b;
    double sign = swapped ? -1 : 1;
    cw__body end = cw__body_moved(mover, sign * dx, sign * dy);
    cw_aabb p = cw__body_aabb(mover), q = cw__body_aabb(&end), r = cw__body_aabb(still);
    return fminf(p.min.x, q.min.x) <= r.max.x && r.min.x <= fmaxf(p.max.x, q.max.x) &&
           fminf(p.min.y, q.min.y) <= r.max.y && r.min.y <= fmaxf(p.max.y, q.max.y);
}

// Overlap at one moment as cw_overlap() says it: gated by the AABBs where rounding matters (far
// placements), so that a cast does not start or end in an overlap that cw_overlap() and the
// world's touching set do not see.
static bool overlap_as_cw_overlap(const cw__body *a, const cw__body *b)
{
    return cw__bodies_may_meet(a, b) && cw__overlap_bodies(a, b, NULL);
}

// Whether `first` moving by (mx, my) against `second` (canonical order) touches at some time:
// the swept test, and where rounding matters (far placements) also an overlap at either end as
// cw_overlap() sees it, which the swept test, computed otherwise, may miss there. Elsewhere it may
// miss only a sliver at the end that cw_overlap() counts (see cast()); the world, its caller,
// takes that plain test first.
static bool ordered_hits(const cw__body *first, const cw__body *second, double mx, double my)
{
    if (ordered_touch_moving(first, second, mx, my))
        return true;
    cw__body end = cw__body_moved(first, mx, my);
    if (!cw__bodies_rounding_matters(first, second) && !cw__bodies_rounding_matters(&end, second))
        return false;
    return overlap_as_cw_overlap(first, second) || overlap_as_cw_overlap(&end, second);
}

bool cw__cast_hits(const cw__body *a, const cw__body *b, double dx, double dy)
{
    bool swapped = cw__compare_bodies(a, b) > 0;
    return swapped ? ordered_hits(b, a, -dx, -dy) : ordered_hits(a, b, dx, dy);
}

// Whether `first` moved by (mx, my) overlaps `second` as cw_overlap() sees it.
static bool overlaps_at_end(const cw__body *first, const cw__body *second, double mx, double my)
{
    cw__body end = cw__body_moved(first, mx, my);
    return overlap_as_cw_overlap(&end, second);
}

// cw__cast_bodies(), the swept test skipped where `touches` says it holds.
static bool cast(const cw__body *a, const cw__body *b, double dx, double dy, bool touches, float *fraction,
                 cw_manifold *manifold)
{
    bool swapped = cw__compare_bodies(a, b) > 0;
    const cw__body *first = swapped ? b : a, *second = swapped ? a : b;
    double mx = swapped ? -dx : dx, my = swapped ? -dy : dy;
    double t;
    if (overlap_as_cw_overlap(first, second)) {
        t = 0;
    } else {
        // A sliver within one shape's touching tolerance and past the other's can be an overlap at
        // the end for cw_overlap() and none for the swept test (each walk counts the tolerance in
        // its own texel units): a cast that ends where cw_overlap() sees an overlap hits (at 1, if
        // the swept test never sees it).
        if (!touches && !ordered_touch_moving(first, second, mx, my) && !overlaps_at_end(first, second, mx, my))
            return false;
        t = ordered_first_touch(first, second, mx, my);
    }
    *fraction = fraction_up(t);
    if (manifold != NULL) {
        contact_at(first, second, mx, my, t, manifold);
        if (swapped) { // found with b moving and a still: where a moves, the contact is t * d further
            manifold->normal = (cw_vec2){-manifold->normal.x, -manifold->normal.y};
            manifold->point = (cw_vec2){(float)(manifold->point.x + t * dx), (float)(manifold->point.y + t * dy)};
        }
    }
    return true;
}

bool cw__cast_bodies(const cw__body *a, const cw__body *b, double dx, double dy, float *fraction,
                     cw_manifold *manifold)
{
    return cast(a, b, dx, dy, false, fraction, manifold);
}

bool cw__cast_touching(const cw__body *a, const cw__body *b, double dx, double dy, float *fraction,
                       cw_manifold *manifold)
{
    return cast(a, b, dx, dy, true, fraction, manifold);
}

bool cw_shape_cast(const cw_shape *a, const cw_transform *ta, cw_vec2 translation, const cw_shape *b,
                   const cw_transform *tb, float *fraction, cw_manifold *manifold)
{
    cw__body body_a, body_b;
    if (fraction == NULL) {
        cw__fail("The fraction output pointer is NULL.");
        return false;
    }
    if (!cw__prepare(a, ta, &body_a) || !cw__prepare(b, tb, &body_b))
        return false;
    if (!isfinite(translation.x) || !isfinite(translation.y)) {
        cw__fail("The translation is not finite.");
        return false;
    }
    if (!cw__motion_may_meet(&body_a, &body_b, translation.x, translation.y))
        return false;
    float t;
    cw_manifold found;
    if (!cw__cast_bodies(&body_a, &body_b, translation.x, translation.y, &t, manifold ? &found : NULL))
        return false;
    *fraction = t;
    if (manifold != NULL)
        *manifold = found;
    return true;
}
