// The rectangles of a minimum translation or first touch (mtd.h): each shape as runs of opaque
// texels near the other (in bands of rows where the bound is deep: a cover), and the pairs of them
// that can meet within the bound or over the motion, each with its windows on the four axes.
#include "mtd.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// What every rectangle of one body shares: its placement, the reference point, and how long the
// body's u and v axes (unit length) are along each of the problem's four axes and the world's.
typedef struct rect_frame {
    const cw__xf *xf;
    double rx, ry;
    double along_u[4], along_v[4];
    double abs_c, abs_s, abs_sx, abs_sy;
} rect_frame;

static rect_frame rect_frame_of(const cw__problem *p, const cw__body *body)
{
    const cw__xf *xf = &body->xf;
    rect_frame f = {xf, p->rx, p->ry, {0}, {0}, fabs(xf->c), fabs(xf->s), fabs(xf->sx), fabs(xf->sy)};
    for (int k = 0; k < 4; k++) { // the body's axes are (c, s) and (-s, c)
        f.along_u[k] = fabs(xf->c * p->ax[k] + xf->s * p->ay[k]);
        f.along_v[k] = fabs(xf->c * p->ay[k] - xf->s * p->ax[k]);
    }
    return f;
}

static bool add_rect(const rect_frame *f, double i0, double i1, double j0, double j1, cw__rect_set *set)
{
    if (set->count == RECT_CAP)
        return false;
    cw__rect *r = &set->r[set->count++];
    cw__to_world(f->xf, 0.5 * (i0 + i1), 0.5 * (j0 + j1), f->rx, f->ry, &r->cx, &r->cy);
    double hu = 0.5 * (i1 - i0) * f->abs_sx, hv = 0.5 * (j1 - j0) * f->abs_sy;
    for (int k = 0; k < 4; k++)
        r->radius[k] = hu * f->along_u[k] + hv * f->along_v[k];
    r->ex = hu * f->abs_c + hv * f->abs_s, r->ey = hu * f->abs_s + hv * f->abs_c;
    return true;
}

// The runs of the body's mask in texels [i0, i1) x [j0, j1), the rows ORed in bands of `band`
// (a cover of those texels). False if they do not fit.
static bool collect(const rect_frame *f, const cw_mask *m, int i0, int i1, int j0, int j1, int band, cw__rect_set *set)
{
    uint64_t merged[CW_MASK_MAX_SIZE / 64];
    int w0 = i0 >> 6, w1 = (i1 - 1) >> 6;
    for (int j = j0; j < j1; j += band) {
        int end = cw__int_min(j + band, j1);
        for (int w = w0; w <= w1; w++) {
            merged[w] = 0;
            for (int k = j; k < end; k++)
                merged[w] |= cw__row(m, k)[w];
        }
        for (int start = next_set(merged, i0, i1); start < i1;) {
            int stop = next_clear(merged, start, i1);
            if (!add_rect(f, start, stop, j, end, set))
                return false;
            start = stop < i1 ? next_set(merged, stop, i1) : i1;
        }
    }
    return true;
}

// The texels of `body` that can come within `reach` world units of `box`.
static void region(const cw__body *body, cw_aabb box, double reach, int *i0, int *i1, int *j0, int *j1)
{
    double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
    for (int k = 0; k < 4; k++) {
        double wx = k & 1 ? box.max.x + reach : box.min.x - reach;
        double wy = k & 2 ? box.max.y + reach : box.min.y - reach;
        double lx, ly;
        cw__to_local(body, wx, wy, &lx, &ly);
        lo_x = cw__min(lo_x, lx), hi_x = cw__max(hi_x, lx), lo_y = cw__min(lo_y, ly), hi_y = cw__max(hi_y, ly);
    }
    const cw_mask *m = body->mask;
    *i0 = clamp_floor(lo_x, m->x0, m->x1), *i1 = clamp_ceil(hi_x, m->x0, m->x1);
    *j0 = clamp_floor(lo_y, m->y0, m->y1), *j1 = clamp_ceil(hi_y, m->y0, m->y1);
}

// The other's opaque box, or for a first touch the box it covers over the motion as `body` sees
// it (`body` moves one way, so the other moves the other way).
static cw_aabb other_box(const cw__problem *p, const cw__body *body, const cw__body *other)
{
    cw_aabb box = cw__body_aabb(other);
    double mx = body == p->a ? -p->move_x : p->move_x, my = body == p->a ? -p->move_y : p->move_y;
    box.min.x = fminf(box.min.x, (float)(box.min.x + mx)), box.max.x = fmaxf(box.max.x, (float)(box.max.x + mx));
    box.min.y = fminf(box.min.y, (float)(box.min.y + my)), box.max.y = fmaxf(box.max.y, (float)(box.max.y + my));
    return box;
}

// The rectangles of one shape near the other: a box is one; a mask its runs, in bands of rows.
static bool shape_rects(const cw__problem *p, const cw__body *body, const cw__body *other, int band, cw__rect_set *set)
{
    set->count = 0;
    rect_frame f = rect_frame_of(p, body);
    if (body->is_box)
        return add_rect(&f, 0, 1, 0, 1, set);
    int i0, i1, j0, j1;
    region(body, other_box(p, body, other), p->bound, &i0, &i1, &j0, &j1);
    return i0 >= i1 || j0 >= j1 || collect(&f, body->mask, i0, i1, j0, j1, band, set);
}

// Whether two rectangles' AABBs come within the bound of each other (B not moving), both axes at
// once where SSE2 is at hand (a rect's centre and its extents are adjacent pairs of doubles).
static bool within_bound(const cw__problem *p, const cw__rect *ra, const cw__rect *rb)
{
#if defined(__SSE2__)
    __m128d gap = _mm_sub_pd(_mm_loadu_pd(&rb->cx), _mm_loadu_pd(&ra->cx));
    __m128d reach = _mm_add_pd(_mm_loadu_pd(&ra->ex), _mm_loadu_pd(&rb->ex));
    __m128d beyond = _mm_sub_pd(_mm_andnot_pd(_mm_set1_pd(-0.0), gap), reach); // |gap| - reach
    return _mm_movemask_pd(_mm_cmple_pd(beyond, _mm_set1_pd(p->bound))) == 3;
#else
    double gap_x = rb->cx - ra->cx, gap_y = rb->cy - ra->cy, reach_x = ra->ex + rb->ex, reach_y = ra->ey + rb->ey;
    return fabs(gap_x) - reach_x <= p->bound && fabs(gap_y) - reach_y <= p->bound;
#endif
}

// Whether two rectangles' AABBs can come within the bound of each other at some time of a's
// motion (on both axes at once).
static bool may_meet_moving(const cw__problem *p, const cw__rect *ra, const cw__rect *rb)
{
    double gap[2] = {rb->cx - ra->cx, rb->cy - ra->cy}, reach[2] = {ra->ex + rb->ex, ra->ey + rb->ey};
    const double move[2] = {p->move_x, p->move_y};
    double lo = 0, hi = 1; // times t with |gap - t * move| <= reach on each axis
    for (int k = 0; k < 2; k++) {
        reach[k] += p->bound;
        if (move[k] == 0) {
            if (fabs(gap[k]) > reach[k])
                return false;
            continue;
        }
        double t0 = (gap[k] - reach[k]) / move[k], t1 = (gap[k] + reach[k]) / move[k];
        lo = cw__max(lo, cw__min(t0, t1)), hi = cw__min(hi, cw__max(t0, t1));
    }
    return lo <= hi;
}

// A pair's window on each axis: the open range of s * (direction . axis) where the projections
// overlap, |gap + s c| < reach. Kept in registers until the pair is known to be kept and to fit.
#if defined(__SSE2__)
typedef struct windows {
    __m128d lo[2], hi[2]; // axes 0-1, then 2-3
} windows;
#else
typedef struct windows {
    double lo[4], hi[4];
} windows;
#endif

// A pair's windows (see windows). True if no move within the bound meets along some axis.
static CW__ALWAYS_INLINE bool pair_windows(const cw__problem *p, const cw__rect *ra, const cw__rect *rb, windows *w)
{
    double dx = rb->cx - ra->cx, dy = rb->cy - ra->cy;
#if defined(__SSE2__)
    __m128d tolerance = _mm_set1_pd(p->tolerance), bound = _mm_set1_pd(p->bound), sign = _mm_set1_pd(-0.0);
    __m128d apart = _mm_setzero_pd();
    for (int half = 0; half < 2; half++) { // two axes a step, each lane the scalar operations
        const int axis = 2 * half;
        __m128d radii = _mm_add_pd(_mm_loadu_pd(ra->radius + axis), _mm_loadu_pd(rb->radius + axis));
        __m128d reach = _mm_sub_pd(radii, tolerance);
        __m128d gap = _mm_add_pd(_mm_mul_pd(_mm_loadu_pd(p->ax + axis), _mm_set1_pd(dx)),
                                 _mm_mul_pd(_mm_loadu_pd(p->ay + axis), _mm_set1_pd(dy)));
        w->lo[half] = _mm_sub_pd(_mm_xor_pd(reach, sign), gap);
        w->hi[half] = _mm_sub_pd(reach, gap);
        apart = _mm_or_pd(apart, _mm_cmpgt_pd(_mm_sub_pd(_mm_andnot_pd(sign, gap), reach), bound));
    }
    return _mm_movemask_pd(apart) != 0;
#else
    bool apart = false;
    for (int axis = 0; axis < 4; axis++) {
        double reach = ra->radius[axis] + rb->radius[axis] - p->tolerance;
        double gap = p->ax[axis] * dx + p->ay[axis] * dy;
        w->lo[axis] = -reach - gap, w->hi[axis] = reach - gap;
        apart = apart || fabs(gap) - reach > p->bound;
    }
    return apart;
#endif
}

// Appends a pair with windows `w` (there is room).
static CW__ALWAYS_INLINE void add_pair(cw__rect_pairs *pairs, const windows *w)
{
    const int n = pairs->count++;
#if defined(__SSE2__)
    for (int half = 0; half < 2; half++) {
        _mm_storel_pd(&pairs->lo[2 * half][n], w->lo[half]), _mm_storeh_pd(&pairs->lo[2 * half + 1][n], w->lo[half]);
        _mm_storel_pd(&pairs->hi[2 * half][n], w->hi[half]), _mm_storeh_pd(&pairs->hi[2 * half + 1][n], w->hi[half]);
    }
#else
    for (int axis = 0; axis < 4; axis++)
        pairs->lo[axis][n] = w->lo[axis], pairs->hi[axis][n] = w->hi[axis];
#endif
}

// The pairs of rectangles that B moved by less than the bound can bring together, with their
// windows. False if there are too many.
static bool make_pairs(cw__problem *p)
{
    const cw__rect_set *sa = &p->sets[0], *sb = &p->sets[1];
    cw__rect_pairs *pairs = &p->pairs;
    const bool still = p->move_x == 0 && p->move_y == 0;
    pairs->count = 0;
    for (int i = 0; i < sa->count; i++)
        for (int k = 0; k < sb->count; k++) {
            const cw__rect *ra = &sa->r[i], *rb = &sb->r[k];
            if (!(still ? within_bound(p, ra, rb) : may_meet_moving(p, ra, rb)))
                continue;
            windows w;
            if (pair_windows(p, ra, rb, &w) && still)
                continue;
            if (pairs->count == PAIR_CAP)
                return false;
            add_pair(pairs, &w);
        }
    return true;
}

bool cw__rects_and_pairs(cw__problem *p, int band_a, int band_b)
{
    return shape_rects(p, p->a, p->b, band_a, &p->sets[0]) && shape_rects(p, p->b, p->a, band_b, &p->sets[1]) &&
           make_pairs(p);
}

bool cw__set_up_pairs(cw__problem *p, int *band_a, int *band_b)
{
    if (p->move_x != 0 || p->move_y != 0) // a first touch: the texels themselves, or nothing
        return cw__rects_and_pairs(p, 1, 1);
    for (;;) {
        if (cw__rects_and_pairs(p, *band_a, *band_b))
            return true;
        if (*band_a >= CW_MASK_MAX_SIZE && *band_b >= CW_MASK_MAX_SIZE)
            return false;
        *band_a = cw__int_min(2 * *band_a, CW_MASK_MAX_SIZE), *band_b = cw__int_min(2 * *band_b, CW_MASK_MAX_SIZE);
    }
}
