// Cones of directions for a minimum translation (mtd.h): after a first answer, a branch and bound
// over the directions. For a cone, each pair of rectangles overlaps along every direction in it for
// one interval of moves, from the least and greatest of the cone's directions along each axis; the
// first gap in the union of those intervals is a lower bound on the shortest move along any
// direction of the cone. Cones whose bound could beat the answer are halved, and the direction
// between the halves is tried, until none is left: no direction then has a move much shorter than
// the answer, wherever the short way out lies (a pocket between the directions a sampling tries).
#include "mtd.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if CW__HAVE_AVX2_CLONE
#include <immintrin.h>
#endif

// Over the directions turning counterclockwise from unit (x0, y0) to unit (x1, y1) (less than half a
// turn), the least and greatest of direction . (ax, ay) (unit).
static void cone_extremes(double ax, double ay, double x0, double y0, double x1, double y1, double *lo, double *hi)
{
    const double c0 = x0 * ax + y0 * ay, c1 = x1 * ax + y1 * ay;
    const double from_first = x0 * ay - y0 * ax, to_last = ax * y1 - ay * x1;
    *lo = cw__min(c0, c1), *hi = cw__max(c0, c1);
    if (from_first >= 0 && to_last >= 0)
        *hi = 1; // the axis lies in the cone
    if (from_first <= 0 && to_last <= 0)
        *lo = -1; // its opposite does
}

// A cone's limits on each pair's s: every window end times a factor is a lower or an upper limit.
// s * c must stay below a high end for every c up to the cone's greatest, and above a low end down
// to its least; by the sign of c that bounds s from below or above. A c of 0 is taken as a tiny one
// of the sign that makes it an upper limit, so the end must hold 0 (as factors_along() does).
typedef struct cone_limits {
    const double *lower[8], *upper[8];
    double lower_factor[8], upper_factor[8];
    int lowers, uppers;
} cone_limits;

static void add_limit(cone_limits *l, const double *ends, double c, bool high_end)
{
    if (fabs(c) < 1e-12)
        c = high_end ? 1e-12 : -1e-12;
    if ((c > 0) == high_end)
        l->upper[l->uppers] = ends, l->upper_factor[l->uppers++] = 1 / c;
    else
        l->lower[l->lowers] = ends, l->lower_factor[l->lowers++] = 1 / c;
}

// One pair's interval over the cone (scalar), end -1 if empty.
static void cone_interval(const cone_limits *l, int i, double *start, double *end)
{
    double s0 = 0, s1 = INFINITY;
    for (int k = 0; k < l->lowers; k++)
        s0 = cw__max(s0, l->lower[k][i] * l->lower_factor[k]);
    for (int k = 0; k < l->uppers; k++)
        s1 = cw__min(s1, l->upper[k][i] * l->upper_factor[k]);
    *start = s0, *end = s0 < s1 ? s1 : -1.0;
}

// The first pairs' intervals over the cone and the first pass's end over them (the largest end
// among those that start before min_gap, into *far), two pairs at a time where SSE2 is at hand,
// each lane cone_interval()'s operations. Returns the pairs done, or -1 once the end has reached
// `enough` (as pairs_by_two() does).
static int cone_by_two(cw__problem *p, const cone_limits *l, double enough, double *far)
{
    int i = 0;
#if defined(__SSE2__)
    cw__rect_pairs *w = &p->pairs;
    const __m128d limit = _mm_set1_pd(p->min_gap), none = _mm_set1_pd(-1.0), lost = _mm_set1_pd(enough);
    __m128d best = _mm_setzero_pd();
    for (; i + 2 <= w->count; i += 2) {
        if ((i & (EXIT_EVERY - 1)) == 0 && _mm_movemask_pd(_mm_cmpge_pd(best, lost)) != 0)
            return -1;
        __m128d s0 = _mm_setzero_pd(), s1 = _mm_set1_pd(INFINITY);
        for (int k = 0; k < l->lowers; k++)
            s0 = _mm_max_pd(s0, _mm_mul_pd(_mm_loadu_pd(l->lower[k] + i), _mm_set1_pd(l->lower_factor[k])));
        for (int k = 0; k < l->uppers; k++)
            s1 = _mm_min_pd(s1, _mm_mul_pd(_mm_loadu_pd(l->upper[k] + i), _mm_set1_pd(l->upper_factor[k])));
        const __m128d open = _mm_cmplt_pd(s0, s1), before = _mm_cmplt_pd(s0, limit);
        const __m128d end = _mm_or_pd(_mm_and_pd(open, s1), _mm_andnot_pd(open, none));
        _mm_storeu_pd(w->start + i, s0);
        _mm_storeu_pd(w->end + i, end);
        best = _mm_max_pd(best, _mm_or_pd(_mm_and_pd(before, end), _mm_andnot_pd(before, none)));
    }
    double lanes[2];
    _mm_storeu_pd(lanes, best);
    *far = lanes[0] > lanes[1] ? lanes[0] : lanes[1];
#else
    (void)p, (void)l, (void)enough, (void)far;
#endif
    return i;
}

#if CW__HAVE_AVX2_CLONE
// The same four pairs at a time where the CPU has AVX2: every interval the same bits, the end the
// same maximum. It calls nothing (see pairs_by_four()).
__attribute__((target("avx2"))) static int cone_by_four(cw__problem *p, const cone_limits *l, double enough,
                                                         double *far)
{
    cw__rect_pairs *w = &p->pairs;
    const __m256d limit = _mm256_set1_pd(p->min_gap), none = _mm256_set1_pd(-1.0), lost = _mm256_set1_pd(enough);
    __m256d best = _mm256_setzero_pd();
    int i = 0;
    for (; i + 4 <= w->count; i += 4) {
        if ((i & (EXIT_EVERY - 1)) == 0 && _mm256_movemask_pd(_mm256_cmp_pd(best, lost, _CMP_GE_OQ)) != 0)
            return -1;
        __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_set1_pd(INFINITY);
        for (int k = 0; k < l->lowers; k++)
            s0 = _mm256_max_pd(s0, _mm256_mul_pd(_mm256_loadu_pd(l->lower[k] + i), _mm256_set1_pd(l->lower_factor[k])));
        for (int k = 0; k < l->uppers; k++)
            s1 = _mm256_min_pd(s1, _mm256_mul_pd(_mm256_loadu_pd(l->upper[k] + i), _mm256_set1_pd(l->upper_factor[k])));
        const __m256d end = _mm256_blendv_pd(none, s1, _mm256_cmp_pd(s0, s1, _CMP_LT_OQ));
        _mm256_storeu_pd(w->start + i, s0);
        _mm256_storeu_pd(w->end + i, end);
        best = _mm256_max_pd(best, _mm256_blendv_pd(none, end, _mm256_cmp_pd(s0, limit, _CMP_LT_OQ)));
    }
    double lanes[4];
    _mm256_storeu_pd(lanes, best);
    *far = lanes[0];
    for (int k = 1; k < 4; k++)
        *far = lanes[k] > *far ? lanes[k] : *far;
    return i;
}
#endif

// Every pair's interval over the cone, and the first pass's end over them; `enough` once that end
// reaches it (the intervals left unfinished), as intervals_and_first_reach() does.
static double cone_intervals(cw__problem *p, const cone_limits *l, double enough)
{
    double far = 0;
#if CW__HAVE_AVX2_CLONE
    int i = __builtin_cpu_supports("avx2") ? cone_by_four(p, l, enough, &far) : cone_by_two(p, l, enough, &far);
#else
    int i = cone_by_two(p, l, enough, &far);
#endif
    cw__rect_pairs *w = &p->pairs;
    for (; i >= 0 && i < w->count; i++) {
        if ((i & (EXIT_EVERY - 1)) == 0 && far >= enough)
            return enough;
        cone_interval(l, i, &w->start[i], &w->end[i]);
        far = w->start[i] < p->min_gap && w->end[i] > far ? w->end[i] : far;
    }
    return i < 0 ? enough : far;
}

// A lower bound on the gap along every direction of a cone: per pair, the moves s for which the
// pair overlaps along every direction of the cone at once (each window must hold s * c for every c
// the cone's directions give its axis: the least and the greatest), and the first gap of their
// union. Along any one direction of the cone each pair covers at least that, so no gap comes
// sooner. Stops at `enough`, as the search does.
static double cone_lower_bound(cw__problem *p, const double cmin[4], const double cmax[4], double enough)
{
    cone_limits l;
    l.lowers = l.uppers = 0;
    for (int axis = 0; axis < 4; axis++) {
        add_limit(&l, p->pairs.hi[axis], cmax[axis], true);
        add_limit(&l, p->pairs.lo[axis], cmin[axis], false);
    }
    return cw__search_reach(p, cone_intervals(p, &l, enough), enough);
}

#define CONE_STACK 32     // cones waiting: the first four and one more per halving (at most 14 deep)
#define CONE_TRIES 256    // bounds and directions measured at most (166 in the tests' worst pair)
#define CONE_NARROWEST 1e-4 // radians: a cone this narrow is not halved again
#define CONE_MARGIN 64    // a way out counts if shorter than the best by more than a 64th

typedef struct cone {
    double x0, y0, x1, y1;
} cone;

// After a first answer: every cone of directions whose lower bound is below the best gap found less
// a 64th is halved and the direction between its halves tried, the quarter turns first, until
// none is left (or CONE_TRIES bounds and directions have been measured: then the best found
// stands). No direction then has a gap shorter than the answer by more than a 64th, so a way out
// that is a pocket a few degrees wide between the directions sampled is not missed: the cones
// around it keep a low bound until one is narrow enough to try a direction into it.
void cw__search_cones(cw__problem *p, cw__best_direction *found)
{
    if (!(found->gap < INFINITY))
        return; // nothing to beat: no pair of runs was in reach
    cone stack[CONE_STACK];
    int top = 0, tries = 0;
    for (int k = 12; k >= 0; k -= 4) { // the four quarter turns from a's u axis
        cone c;
        cw__turn_sixteenths(p->ax[0], p->ay[0], k, &c.x0, &c.y0);
        cw__turn_sixteenths(p->ax[0], p->ay[0], k + 4, &c.x1, &c.y1);
        stack[top++] = c;
    }
    while (top > 0 && tries < CONE_TRIES) {
        const cone c = stack[--top];
        double cmin[4], cmax[4];
        for (int axis = 0; axis < 4; axis++)
            cone_extremes(p->ax[axis], p->ay[axis], c.x0, c.y0, c.x1, c.y1, &cmin[axis], &cmax[axis]);
        const double target = found->gap * (1 - 1.0 / CONE_MARGIN);
        tries++;
        if (!(cone_lower_bound(p, cmin, cmax, target) < target))
            continue;
        double mx = c.x0 + c.x1, my = c.y0 + c.y1;
        const double length = cw__length(mx, my);
        mx /= length, my /= length;
        cw__try_direction(p, mx, my, found);
        tries++;
        if (c.x0 * c.y1 - c.y0 * c.x1 < CONE_NARROWEST || top + 2 > CONE_STACK)
            continue;
        stack[top++] = (cone){mx, my, c.x1, c.y1};
        stack[top++] = (cone){c.x0, c.y0, mx, my};
    }
}
