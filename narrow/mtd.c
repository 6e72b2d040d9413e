// Translations of two shapes as rectangle pairs: the minimum translation distance of two
// overlapping shapes (the shortest move of B that leaves no overlap, and its direction), and the
// first touch of a motion (the earliest time a pair of rectangles overlaps).
//
// Both shapes are unions of rectangles (a mask's runs of opaque texels; a box is one). Two
// rectangles, B's moving by s along a direction, overlap exactly for s in one open interval (the
// separating-axis theorem on their four edge normals); along that direction the shapes overlap
// where some pair's interval does, so the shortest move is the first gap in the union of the
// intervals from 0. That is exact per direction and cheap once each pair's projections are known,
// so many directions are tried: both shapes' edge normals (where the answer lies for every edge of
// the configuration obstacle), the overlap's gradient, the centres' direction, the diagonals. The
// corners of the obstacle lie between edge normals, in pockets no sampling is sure to find, so over
// the rows themselves cones of directions are then searched with a lower bound on the gap over
// each, until no cone can hold a move shorter than the answer by more than a 64th.
//
// Only pairs that can meet within an upper bound on the answer matter. Where the bound is many
// texels (a deep overlap) the rows are merged in bands of about a twelfth of it: a cover of the
// shape, so the answer can only grow (by at most a band), and the move still separates.
#include "mtd.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if CW__HAVE_AVX2_CLONE
#include <immintrin.h>
#endif

#define BUCKETS 32    // intervals are swept bucket by bucket of start
#define BANDS 12     // rows are merged in bands of a twelfth of the bound (at least a row)
#define QUICK_PASSES 4 // widening passes over all intervals before they are sorted into buckets

// Along unit (nx, ny), each axis's factor and which of its windows' ends comes first along s.
typedef struct axis_factors {
    double inv[4];
    const double *low[4], *high[4];
} axis_factors;

static void factors_along(const cw__problem *p, double nx, double ny, axis_factors *f)
{
    for (int axis = 0; axis < 4; axis++) {
        double c = nx * p->ax[axis] + ny * p->ay[axis];
        if (fabs(c) < 1e-12) // parallel: the window must hold at every s (a huge factor says so)
            c = c < 0 ? -1e-12 : 1e-12;
        f->inv[axis] = 1 / c;
        f->low[axis] = c > 0 ? p->pairs.lo[axis] : p->pairs.hi[axis];
        f->high[axis] = c > 0 ? p->pairs.hi[axis] : p->pairs.lo[axis];
    }
}

// One pair's interval of s where all four windows hold (an empty one gets end -1, so it never
// extends a reach).
static void pair_interval(const axis_factors *f, int i, double *start, double *end)
{
    double lo = f->low[0][i] * f->inv[0], hi = f->high[0][i] * f->inv[0];
    for (int axis = 1; axis < 4; axis++) {
        double l = f->low[axis][i] * f->inv[axis], h = f->high[axis][i] * f->inv[axis];
        lo = lo > l ? lo : l;
        hi = hi < h ? hi : h;
    }
    *start = lo, *end = lo < hi ? hi : -1.0;
}

// The first pairs' intervals and the first pass's end over them (into *far), two pairs at a time
// where SSE2 is at hand, each lane the scalar operations in their order. Returns the pairs done,
// or -1 once the end has reached `enough`.
static int pairs_by_two(cw__problem *p, const axis_factors *f, double enough, double *far)
{
    int i = 0;
#if defined(__SSE2__)
    cw__rect_pairs *w = &p->pairs;
    __m128d limit = _mm_set1_pd(p->min_gap), best = _mm_setzero_pd(), none = _mm_set1_pd(-1.0);
    __m128d lost = _mm_set1_pd(enough);
    for (; i + 2 <= w->count; i += 2) {
        if ((i & (EXIT_EVERY - 1)) == 0 && _mm_movemask_pd(_mm_cmpge_pd(best, lost)) != 0)
            return -1;
        __m128d inv = _mm_set1_pd(f->inv[0]);
        __m128d lo = _mm_mul_pd(_mm_loadu_pd(f->low[0] + i), inv), hi = _mm_mul_pd(_mm_loadu_pd(f->high[0] + i), inv);
        for (int axis = 1; axis < 4; axis++) {
            inv = _mm_set1_pd(f->inv[axis]);
            lo = _mm_max_pd(lo, _mm_mul_pd(_mm_loadu_pd(f->low[axis] + i), inv)); // lo > l ? lo : l
            hi = _mm_min_pd(hi, _mm_mul_pd(_mm_loadu_pd(f->high[axis] + i), inv)); // hi < h ? hi : h
        }
        __m128d open = _mm_cmplt_pd(lo, hi), before = _mm_cmplt_pd(lo, limit);
        __m128d end = _mm_or_pd(_mm_and_pd(open, hi), _mm_andnot_pd(open, none));
        _mm_storeu_pd(w->start + i, lo);
        _mm_storeu_pd(w->end + i, end);
        best = _mm_max_pd(best, _mm_or_pd(_mm_and_pd(before, end), _mm_andnot_pd(before, none)));
    }
    double lanes[2];
    _mm_storeu_pd(lanes, best);
    *far = lanes[0] > lanes[1] ? lanes[0] : lanes[1];
#else
    (void)p, (void)f, (void)enough, (void)far;
#endif
    return i;
}

#if CW__HAVE_AVX2_CLONE
// The same four pairs at a time, taken where the CPU has AVX2 (the library is built for the
// baseline x86-64). Every interval the same bits; the end is the same maximum (its lanes grouped
// otherwise, which could only change the sign of a zero, and a zero reach is compared, never
// kept). It calls nothing: the upper halves of the registers are cleared as it returns, before
// any SSE code runs.
__attribute__((target("avx2"))) static int pairs_by_four(cw__problem *p, const axis_factors *f, double enough, double *far)
{
    cw__rect_pairs *w = &p->pairs;
    __m256d limit = _mm256_set1_pd(p->min_gap), best = _mm256_setzero_pd(), none = _mm256_set1_pd(-1.0);
    __m256d lost = _mm256_set1_pd(enough);
    int i = 0;
    for (; i + 4 <= w->count; i += 4) {
        if ((i & (EXIT_EVERY - 1)) == 0 && _mm256_movemask_pd(_mm256_cmp_pd(best, lost, _CMP_GE_OQ)) != 0)
            return -1;
        __m256d inv = _mm256_set1_pd(f->inv[0]);
        __m256d lo = _mm256_mul_pd(_mm256_loadu_pd(f->low[0] + i), inv);
        __m256d hi = _mm256_mul_pd(_mm256_loadu_pd(f->high[0] + i), inv);
        for (int axis = 1; axis < 4; axis++) {
            inv = _mm256_set1_pd(f->inv[axis]);
            lo = _mm256_max_pd(lo, _mm256_mul_pd(_mm256_loadu_pd(f->low[axis] + i), inv));
            hi = _mm256_min_pd(hi, _mm256_mul_pd(_mm256_loadu_pd(f->high[axis] + i), inv));
        }
        __m256d end = _mm256_blendv_pd(none, hi, _mm256_cmp_pd(lo, hi, _CMP_LT_OQ));
        _mm256_storeu_pd(w->start + i, lo);
        _mm256_storeu_pd(w->end + i, end);
        best = _mm256_max_pd(best, _mm256_blendv_pd(none, end, _mm256_cmp_pd(lo, limit, _CMP_LT_OQ)));
    }
    double lanes[4];
    _mm256_storeu_pd(lanes, best);
    *far = lanes[0];
    for (int k = 1; k < 4; k++)
        *far = lanes[k] > *far ? lanes[k] : *far;
    return i;
}
#endif

// Along unit (nx, ny), every pair's interval (into start and end), and the search's first pass
// over them: the largest end among the intervals that start before min_gap, or 0 (as
// farthest_end() would give). Once that end reaches `enough` the direction has lost whatever the
// rest hold: the pass stops there and gives `enough` (the intervals left unfinished).
static double intervals_and_first_reach(cw__problem *p, double nx, double ny, double enough)
{
    axis_factors f;
    factors_along(p, nx, ny, &f);
    double far = 0;
#if CW__HAVE_AVX2_CLONE
    int i = __builtin_cpu_supports("avx2") ? pairs_by_four(p, &f, enough, &far) : pairs_by_two(p, &f, enough, &far);
#else
    int i = pairs_by_two(p, &f, enough, &far);
#endif
    cw__rect_pairs *w = &p->pairs;
    for (; i >= 0 && i < w->count; i++) { // the rest one at a time
        if ((i & (EXIT_EVERY - 1)) == 0 && far >= enough)
            return enough;
        pair_interval(&f, i, &w->start[i], &w->end[i]);
        far = w->start[i] < p->min_gap && w->end[i] > far ? w->end[i] : far;
    }
    return i < 0 ? enough : far;
}

// One pair's interval along a direction whose factor on each axis is c[axis], by division (the
// search's pair_interval() multiplies by reciprocals): each window's ends over the factor; an axis
// the direction is parallel to keeps the pair only if its window holds 0, as |gap| < reach.
static void exact_interval(const cw__rect_pairs *w, const double c[4], int i, double *start, double *end)
{
    double lo = -INFINITY, hi = INFINITY;
    for (int axis = 0; axis < 4; axis++) {
        const double low = w->lo[axis][i], high = w->hi[axis][i];
        if (c[axis] == 0) {
            hi = low < 0 && high > 0 ? hi : -INFINITY;
            continue;
        }
        double t0 = low / c[axis], t1 = high / c[axis];
        lo = cw__max(lo, cw__min(t0, t1)), hi = cw__min(hi, cw__max(t0, t1));
    }
    *start = lo, *end = lo < hi ? hi : -1.0;
}

// The same in double, for the direction chosen, from the pairs' windows (pair_windows() made them
// from the rectangles: -reach - gap and reach - gap, so |gap| < reach is low < 0 < high). Two pairs
// at a time where SSE2 is at hand, each lane exact_interval()'s operations in its order.
static void exact_intervals(cw__problem *p, double nx, double ny)
{
    cw__rect_pairs *w = &p->pairs;
    double c[4];
    for (int axis = 0; axis < 4; axis++)
        c[axis] = nx * p->ax[axis] + ny * p->ay[axis];
    int i = 0;
#if defined(__SSE2__)
    const __m128d zero = _mm_setzero_pd(), none = _mm_set1_pd(-1.0), below = _mm_set1_pd(-INFINITY);
    for (; i + 2 <= w->count; i += 2) {
        __m128d lo = below, hi = _mm_set1_pd(INFINITY);
        for (int axis = 0; axis < 4; axis++) {
            const __m128d low = _mm_loadu_pd(w->lo[axis] + i), high = _mm_loadu_pd(w->hi[axis] + i);
            if (c[axis] == 0) {
                const __m128d holds = _mm_and_pd(_mm_cmplt_pd(low, zero), _mm_cmpgt_pd(high, zero));
                hi = _mm_or_pd(_mm_and_pd(holds, hi), _mm_andnot_pd(holds, below));
                continue;
            }
            const __m128d factor = _mm_set1_pd(c[axis]);
            const __m128d t0 = _mm_div_pd(low, factor), t1 = _mm_div_pd(high, factor);
            lo = _mm_max_pd(lo, _mm_min_pd(t0, t1)); // cw__max(lo, cw__min(t0, t1))
            hi = _mm_min_pd(hi, _mm_max_pd(t0, t1)); // cw__min(hi, cw__max(t0, t1))
        }
        const __m128d open = _mm_cmplt_pd(lo, hi);
        _mm_storeu_pd(w->start + i, lo);
        _mm_storeu_pd(w->end + i, _mm_or_pd(_mm_and_pd(open, hi), _mm_andnot_pd(open, none)));
    }
#endif
    for (; i < w->count; i++)
        exact_interval(w, c, i, &w->start[i], &w->end[i]);
}

// The reach from 0 of the union of the intervals, gaps narrower than min_gap not counting: the
// intervals are put in buckets by start (a counting sort over [0, bound]); the buckets are swept
// in order, and within one the intervals that start before the reach extend it until none does.
// A bucket whose first possible start is past the reach ends the sweep. Exact, in linear time.
static double reach_sorted(const cw__problem *p)
{
    const cw__rect_pairs *w = &p->pairs;
    int count[BUCKETS + 1] = {0}, order[PAIR_CAP], bucket[PAIR_CAP];
    double per = BUCKETS / p->bound;
    for (int i = 0; i < w->count; i++) {
        double at = w->start[i] * per;
        bucket[i] = !(w->end[i] > 0) || at >= BUCKETS ? BUCKETS : at > 0 ? (int)at : 0; // BUCKETS: never needed
        count[bucket[i]]++;
    }
    int first[BUCKETS + 1];
    for (int k = 0, sum = 0; k <= BUCKETS; k++)
        first[k] = sum, sum += count[k];
    for (int i = 0; i < w->count; i++)
        order[first[bucket[i]] + --count[bucket[i]]] = i;
    double reach = 0, gap = p->min_gap;
    for (int k = 0; k < BUCKETS && k / per < reach + gap; k++) {
        int from = first[k], to = first[k + 1];
        for (bool grew = true; grew;) {
            grew = false;
            for (int n = from; n < to; n++) {
                int i = order[n];
                if (w->start[i] < reach + gap && w->end[i] > reach)
                    reach = w->end[i], grew = true;
            }
        }
    }
    return reach;
}

// The largest end among the intervals that start before `threshold`, and `floor` (two pairs at a
// time where SSE2 is at hand).
static double farthest_end(const cw__rect_pairs *w, double threshold, double floor)
{
    int i = 0, n = w->count;
    double far = floor;
#if defined(__SSE2__)
    __m128d limit = _mm_set1_pd(threshold), best = _mm_set1_pd(floor), none = _mm_set1_pd(-1.0);
    for (; i + 2 <= n; i += 2) {
        __m128d starts = _mm_loadu_pd(w->start + i), ends = _mm_loadu_pd(w->end + i);
        __m128d before = _mm_cmplt_pd(starts, limit);
        best = _mm_max_pd(best, _mm_or_pd(_mm_and_pd(before, ends), _mm_andnot_pd(before, none)));
    }
    double lanes[2];
    _mm_storeu_pd(lanes, best);
    far = lanes[0] > lanes[1] ? lanes[0] : lanes[1];
#endif
    for (; i < n; i++)
        far = w->start[i] < threshold && w->end[i] > far ? w->end[i] : far;
    return far;
}

// The reach as the search measures it, from the first pass's answer `first`: most often a few
// passes over all intervals settle it (each takes every interval that starts before the reach so
// far); a long chain goes to the buckets instead. Once the reach passes `enough` (the best found so
// far) the direction has lost: that is all the search needs to know.
double cw__search_reach(cw__problem *p, double first, double enough)
{
    cw__rect_pairs *w = &p->pairs;
    double reach = 0, gap = p->min_gap, next = first;
    for (int pass = 1;; pass++) {
        if (!(next > reach) || next >= enough)
            return next;
        reach = next;
        if (pass == QUICK_PASSES)
            return reach_sorted(p);
        next = farthest_end(w, reach + gap, reach);
    }
}

void cw__try_direction(cw__problem *p, double nx, double ny, cw__best_direction *b)
{
    double length = cw__length(nx, ny);
    if (!(length > 0))
        return;
    nx /= length, ny /= length;
    double first = intervals_and_first_reach(p, nx, ny, b->gap);
    double gap = cw__search_reach(p, first, b->gap);
    if (gap < b->gap)
        *b = (cw__best_direction){nx, ny, gap};
}

// The search's turns as constants, not cosines and sines of constant angles on every call (they took
// a twentieth of a just-touching manifold). By k sixteenths of a turn, k = 0..3: cosine, sine (the
// rest of the turn by exact quarter turns).
static const double sixteenths[4][2] = {{1, 0},
                                        {0.92387953251128676, 0.38268343236508977},
                                        {0.70710678118654752, 0.70710678118654752},
                                        {0.38268343236508977, 0.92387953251128676}};

// The refinement's turns: 0.16, 0.08 and 0.04 radians (cosine, sine).
static const double refinements[3][2] = {{0.98722728337562695, 0.15931820661424596},
                                         {0.99680170630261938, 0.079914693969172687},
                                         {0.99920010666097794, 0.039989334186634159}};

// (x, y) turned by the angle whose cosine and sine are c and s.
static void turn(double x, double y, double c, double s, double *tx, double *ty)
{
    *tx = x * c - y * s, *ty = x * s + y * c;
}

// (x, y) turned by k sixteenths of a turn, k >= 0 (16 is a whole turn).
void cw__turn_sixteenths(double x, double y, int k, double *tx, double *ty)
{
    double rx, ry;
    turn(x, y, sixteenths[k & 3][0], sixteenths[k & 3][1], &rx, &ry);
    for (int quarter = 0; quarter < k >> 2; quarter++) {
        const double was = rx;
        rx = -ry, ry = was;
    }
    *tx = rx, *ty = ry;
}

#define BOUND_DIRECTIONS 10

// The extents of a body's opaque hull along each of the upper bound's unit directions, relative to
// the reference point: each vertex placed once and measured along all of them (per direction the
// same operations, in the same order, as one direction at a time).
static void hull_extents(const cw__problem *p, const cw__body *body, double dirs[BOUND_DIRECTIONS][2],
                         double lo[BOUND_DIRECTIONS], double hi[BOUND_DIRECTIONS])
{
    const cw_mask *m = body->mask;
    for (int d = 0; d < BOUND_DIRECTIONS; d++)
        lo[d] = INFINITY, hi[d] = -INFINITY;
    for (int k = 0; k < m->hull_count; k++) {
        double wx, wy;
        cw__to_world(&body->xf, m->hull[2 * k], m->hull[2 * k + 1], p->rx, p->ry, &wx, &wy);
        for (int d = 0; d < BOUND_DIRECTIONS; d++) {
            const double along = wx * dirs[d][0] + wy * dirs[d][1];
            lo[d] = cw__min(lo[d], along), hi[d] = cw__max(hi[d], along);
        }
    }
}

// An upper bound on the answer: the least of the moves that take B's hull wholly past A's, along
// the edge normals, the diagonals between them and the hint, both ways.
static double upper_bound(const cw__problem *p, double hint_x, double hint_y)
{
    double dirs[BOUND_DIRECTIONS][2];
    for (int axis = 0; axis < 4; axis++) {
        dirs[axis][0] = p->ax[axis], dirs[axis][1] = p->ay[axis];
        cw__turn_sixteenths(p->ax[axis], p->ay[axis], 2, &dirs[4 + axis][0], &dirs[4 + axis][1]); // an eighth of a turn
    }
    double length = cw__length(hint_x, hint_y);
    dirs[8][0] = length > 0 ? hint_x / length : 1, dirs[8][1] = length > 0 ? hint_y / length : 0;
    dirs[9][0] = p->bx - p->cx_a, dirs[9][1] = p->by - p->cy_a; // centre to centre
    length = cw__length(dirs[9][0], dirs[9][1]);
    dirs[9][0] = length > 0 ? dirs[9][0] / length : 1, dirs[9][1] = length > 0 ? dirs[9][1] / length : 0;
    double lo_a[BOUND_DIRECTIONS], hi_a[BOUND_DIRECTIONS], lo_b[BOUND_DIRECTIONS], hi_b[BOUND_DIRECTIONS];
    hull_extents(p, p->a, dirs, lo_a, hi_a);
    hull_extents(p, p->b, dirs, lo_b, hi_b);
    double bound = INFINITY;
    for (int d = 0; d < BOUND_DIRECTIONS; d++)
        bound = cw__min(bound, cw__min(cw__max(hi_a[d] - lo_b[d], 0), cw__max(hi_b[d] - lo_a[d], 0)));
    return bound;
}

// Rows per band for a body: the bound over `bands`, at least one row.
static int band_for(const cw__problem *p, const cw__body *body, int bands)
{
    double rows = p->bound / (bands * fabs(body->xf.sy));
    return rows < 2 ? 1 : rows > CW_MASK_MAX_SIZE ? CW_MASK_MAX_SIZE : (int)rows;
}

// What both questions share: the bodies, the reference point, the axes, the tolerances.
static void start_problem(cw__problem *p, const cw__body *a, const cw__body *b)
{
    p->a = a, p->b = b;
    p->rx = b->xf.px, p->ry = b->xf.py;
    p->ax[0] = a->xf.c, p->ay[0] = a->xf.s, p->ax[1] = -a->xf.s, p->ay[1] = a->xf.c;
    p->ax[2] = b->xf.c, p->ay[2] = b->xf.s, p->ax[3] = -b->xf.s, p->ay[3] = b->xf.c;
    p->tolerance = cw__min(cw__body_tolerance(a), cw__body_tolerance(b));
    double texel = cw__min(cw__min(fabs(a->xf.sx), fabs(a->xf.sy)), cw__min(fabs(b->xf.sx), fabs(b->xf.sy)));
    p->min_gap = texel / 1024;
    p->move_x = p->move_y = 0;
    p->bound = 0;
    p->inside_x = p->inside_y = NAN; // none known (cw__mtd() is told one)
}

bool cw__first_touch_pairs(const cw__body *a, const cw__body *b, double dx, double dy, double *t, double *until)
{
    cw__problem p;
    start_problem(&p, a, b);
    p.move_x = dx, p.move_y = dy;
    double length = cw__length(dx, dy);
    int band = 1;
    if (!(length > 0) || !cw__set_up_pairs(&p, &band, &band))
        return false; // too many rectangles: the caller bisects instead
    // a moving by t * d is b moving by s along -d / |d|, s = t * |d|.
    exact_intervals(&p, -dx / length, -dy / length);
    double first = INFINITY, end = INFINITY;
    for (int i = 0; i < p.pairs.count; i++) {
        double start = cw__max(p.pairs.start[i], 0);
        if (p.pairs.end[i] > 0 && p.pairs.start[i] < length && start < first)
            first = start, end = cw__min(p.pairs.end[i], length);
    }
    *t = first / length;
    if (until != NULL)
        *until = end / length;
    return true;
}

// The hint and the centres' direction, then every `step` sixteenths of a turn from a's u axis and
// from b's (unless they coincide): each shape's edge normals both ways and the diagonals, and with
// a step of 1 half way between as well. The upper bound's directions are among them either way
// (some direction finds a move within it).
static void search_directions(cw__problem *p, double hint_x, double hint_y, cw__best_direction *found, int step)
{
    cw__try_direction(p, hint_x, hint_y, found); // the likeliest first: the rest then stop early
    cw__try_direction(p, p->bx - p->cx_a, p->by - p->cy_a, found);
    double cross = p->ax[0] * p->ay[2] - p->ay[0] * p->ax[2], dot = p->ax[0] * p->ax[2] + p->ay[0] * p->ay[2];
    bool same = cross == 0 && fabs(dot) == 1;
    for (int set = 0; set < (same ? 1 : 2); set++)
        for (int k = 0; k < 16; k += step) {
            double dx, dy;
            cw__turn_sixteenths(p->ax[2 * set], p->ay[2 * set], k, &dx, &dy);
            cw__try_direction(p, dx, dy, found);
        }
}

// Steps either side of the best direction, halved from about 9 degrees to two.
static void refine_best(cw__problem *p, cw__best_direction *found)
{
    for (int r = 0; r < 3; r++) {
        const cw__best_direction here = *found;
        for (int side = 1; side >= -1; side -= 2) {
            double dx, dy;
            turn(here.nx, here.ny, refinements[r][0], side * refinements[r][1], &dx, &dy);
            cw__try_direction(p, dx, dy, found);
        }
    }
}

// The search over a cover (rows merged in bands), whose answer the rows refine if they can: every
// sixteenth of a turn, so no direction is more than 11.25 degrees from one tried, then steps around
// the best (unless none beat `found` as it came: then there is no best to refine). Every eighth of
// a turn missed ways out as far as 22 degrees from a direction tried.
static void search_cover(cw__problem *p, double hint_x, double hint_y, cw__best_direction *found)
{
    const double given = found->gap;
    search_directions(p, hint_x, hint_y, found, 1);
    if (found->gap < given)
        refine_best(p, found);
}

// The search over the rows themselves: every eighth of a turn for a first answer, then the cones
// for any way out shorter by more than a 64th. Sampling alone, every sixteenth of a turn with steps
// around the best, missed pockets a few degrees wide (letters pushed 1.7x the shortest move, rings
// 7x), and cost about as much for contacts just begun; deep overlaps' manifolds cost a fifth more.
static void search_rows_exactly(cw__problem *p, double hint_x, double hint_y, cw__best_direction *found)
{
    search_directions(p, hint_x, hint_y, found, 2);
    cw__search_cones(p, found);
}

// The depth along the direction found, from the pairs as they are set up.
static double depth_along(cw__problem *p, const cw__best_direction *found)
{
    exact_intervals(p, found->nx, found->ny);
    return reach_sorted(p) + 2 * p->tolerance;
}

// The bounds tried for the rows after a cover, as fractions of its answer, longest first: the first
// whose rows fit is searched. An eighth was added when two rings crossed deep, their way out a
// sixtieth of the cover's answer, had too many pairs of rows within half of it (a seeded test, 61x
// the shortest move); it costs deep overlaps' manifolds about a tenth more instructions.
static const double row_bound_fractions[] = {1, 0.5, 0.125};
#define ROW_BOUNDS (sizeof row_bound_fractions / sizeof row_bound_fractions[0])

// The rows within row_bound_fractions[k] of the cover's answer, and their pairs. False if they do
// not fit.
static bool rows_within(cw__problem *p, double cover, size_t k)
{
    p->bound = cover * row_bound_fractions[k] + p->min_gap;
    return cw__rects_and_pairs(p, 1, 1);
}

// How deep world point (wx, wy) lies in both shapes, ra + rb (see parting_lower_bound()), or 0 if
// it is not at least `least` inside either.
static double depth_in_both(const cw__problem *p, double wx, double wy, double least)
{
    const double ra = cw__clearance(p->a, wx, wy);
    const double rb = ra >= least ? cw__clearance(p->b, wx, wy) : 0;
    return rb >= least ? ra + rb : 0;
}

// A lower bound on every move of B that parts the shapes, from points deep in both: no move shorter
// than ra + rb parts two shapes with opaque discs of radii ra and rb around one point (the discs
// would still overlap). The caller's point inside the overlap is tried, and points on the segment
// between the opaque boxes' centres, where the round and convex sprites of most deep overlaps
// overlap deepest. A point counts only an eighth of a texel inside both, and half a texel is taken
// off: any shorter move leaves the two discs a lens that holds a disc an eighth of a texel across,
// so some pair of rows overlaps far beyond the touching tolerance, and no direction's gap from the
// rows can be shorter. 0 if no point counts.
static double parting_lower_bound(const cw__problem *p)
{
    const double texel = 1024 * p->min_gap; // the smallest texel of the two, in world units
    double best = depth_in_both(p, p->inside_x, p->inside_y, texel / 8);
    for (int k = 0; k <= 4; k++) {
        const double t = 0.25 * k;
        const double wx = p->rx + p->cx_a + t * (p->bx - p->cx_a), wy = p->ry + p->cy_a + t * (p->by - p->cy_a);
        best = cw__max(best, depth_in_both(p, wx, wy, texel / 8));
    }
    return best > 0 ? best - texel / 2 : 0;
}

// The first bound in row_bound_fractions whose rows fit, its rows and pairs built, if a search
// there could find a move shorter than the cover's (its bound above `lower`, a lower bound on
// every parting move); else ROW_BOUNDS. Rows that fit within a bound fit within every shorter one
// (fewer rows come near, fewer pairs), so the first that fits is found by halving the list rather
// than walking it, among the bounds above `lower` (a longer one, should it fit, is searched as it
// would be anyway; if only shorter ones fit, nothing can be found). The longest bound, where the
// rows fit least often and a try that does not fit costs most (it stops at the first pair past the
// cap), is then tried only when a shorter one fits. Deep overlaps' manifolds: 6% fewer
// instructions from the halving, and 12% fewer again from the lower bound; the same answers.
static size_t first_rows_that_fit(cw__problem *p, double cover, double lower)
{
    size_t live = 0; // the bounds above `lower`
    while (live < ROW_BOUNDS && cover * row_bound_fractions[live] + p->min_gap > lower)
        live++;
    size_t lo = 0, hi = live, built = live; // built: the bound whose rows are in p, if any
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const bool fit = rows_within(p, cover, mid);
        built = fit ? mid : live;
        if (fit)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (hi == live || (built != hi && !rows_within(p, cover, hi)))
        return ROW_BOUNDS; // none fits (the second: not reached, they fitted a moment ago)
    return hi;
}

// After a search over banded rows (a cover of the shapes) found `found`: the shapes themselves, row
// by row. A cover fills in what lies between a band's rows, so a shallow gap that only the shapes
// have (two rings just crossed) may be gone from it, and the cover's answer many times the true one
// (377x in a seeded test before this pass). Within a bound short enough for the rows to fit (see
// row_bound_fractions) every direction's gap below the bound is exact. True (and `found` and
// `depth` replaced) if the rows give a shorter move.
static bool search_rows(cw__problem *p, double hint_x, double hint_y, cw__best_direction *found, double *depth)
{
    const double cover = cw__min(found->gap, p->bound);
    if (first_rows_that_fit(p, cover, parting_lower_bound(p)) == ROW_BOUNDS)
        return false;
    cw__best_direction rows = {found->nx, found->ny, p->bound};
    search_rows_exactly(p, hint_x, hint_y, &rows);
    if (!(rows.gap < p->bound))
        return false; // the shapes' answer is at least the bound: the cover's stands
    *found = rows;
    *depth = depth_along(p, found);
    return true;
}

// What a minimum translation starts from: start_problem(), the point inside, the opaque boxes' centres.
static void start_mtd(cw__problem *p, const cw__body *a, const cw__body *b, double inside_x, double inside_y)
{
    start_problem(p, a, b);
    p->inside_x = inside_x, p->inside_y = inside_y;
    const cw_mask *ma = a->mask, *mb = b->mask;
    cw__to_world(&a->xf, 0.5 * (ma->x0 + ma->x1), 0.5 * (ma->y0 + ma->y1), p->rx, p->ry, &p->cx_a, &p->cy_a);
    cw__to_world(&b->xf, 0.5 * (mb->x0 + mb->x1), 0.5 * (mb->y0 + mb->y1), p->rx, p->ry, &p->bx, &p->by);
}

double cw__test_parting_bound(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                              cw_vec2 inside)
{
    cw__body body_a, body_b;
    if (!cw__prepare(a, ta, &body_a) || !cw__prepare(b, tb, &body_b))
        return NAN;
    cw__problem p;
    start_mtd(&p, &body_a, &body_b, inside.x, inside.y);
    return parting_lower_bound(&p);
}

bool cw__mtd(const cw__body *a, const cw__body *b, double hint_x, double hint_y, double inside_x, double inside_y,
             double *nx, double *ny, double *depth)
{
    cw__problem p;
    start_mtd(&p, a, b, inside_x, inside_y);
    p.bound = upper_bound(&p, hint_x, hint_y) + p.min_gap;
    int band_a = band_for(&p, a, BANDS), band_b = band_for(&p, b, BANDS);
    if (!(p.bound < INFINITY) || !cw__set_up_pairs(&p, &band_a, &band_b))
        return false;
    cw__best_direction found = {1, 0, INFINITY};
    if (band_a == 1 && band_b == 1)
        search_rows_exactly(&p, hint_x, hint_y, &found);
    else
        search_cover(&p, hint_x, hint_y, &found);
    if (!(found.gap < INFINITY))
        return false;
    *depth = depth_along(&p, &found);
    if (band_a > 1 || band_b > 1)
        search_rows(&p, hint_x, hint_y, &found, depth);
    *nx = found.nx, *ny = found.ny;
    return true;
}
