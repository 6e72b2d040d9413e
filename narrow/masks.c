// Exact mask-mask overlap.
//
// One mask (the "iterated" one, A) is walked row by row; each maximal run of opaque texels in a row
// is a rectangle whose image in the other mask's (B's) texel space is a parallelogram. Its slice
// through B's row band r is convex, so B texel k in that row overlaps it with positive area iff
// (k, k+1) meets the open x-range of the slice: one bit-range test on B's row. The union of A's
// runs is A's covered region and the union of B's texels is B's, so this is exact.
//
// What keeps it fast: rows and runs are first clipped against B's 8-direction bounding polygon,
// the direction (which mask is walked) is chosen by an estimate of the work, and the pure
// translation case (same rotation and scale, the common unrotated sprite, mirrored or not) is a
// word-wise shift-and-AND.
//
// The walk's state is in sweep.h; measuring an overlap for manifolds (the same walk, accumulating
// pieces instead of stopping at the first) is in mask_pieces.c.
#include "sweep.h"

// Same rotation and scale (up to the rounding of the map's products, far below the tolerance).
static bool is_translation(const cw__map *m)
{
    return fabs(m->ux - 1) < 1e-12 && fabs(m->uy) < 1e-12 && fabs(m->vx) < 1e-12 && fabs(m->vy - 1) < 1e-12;
}

// A quarter turn apart at one scale (up to the rounding of the map's products, as is_translation):
// A's x lands along B's y and its y along B's x, so A's transposed grid lands on B's translated,
// or mirrored on an axis where the map turns it round.
static bool is_quarter_turn(const cw__map *m)
{
    return fabs(m->ux) < 1e-12 && fabs(m->vy) < 1e-12 && fabs(fabs(m->uy) - 1) < 1e-12 && fabs(fabs(m->vx) - 1) < 1e-12;
}

// Same rotation and scale but for a sign: one sprite mirrored against the other (cw__map_between()
// makes such maps exactly).
static bool is_mirroring(const cw__map *m)
{
    return m->uy == 0 && m->vx == 0 && fabs(m->ux) == 1 && fabs(m->vy) == 1;
}

// --- the general case: runs of A against row bands of B ---

static void setup_slabs(cw__sweep *sw)
{
    const cw__dop8 *d = &sw->b->dop;
    const double dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    const double lo[4] = {d->x0, d->y0, d->sum0, d->diff0}, hi[4] = {d->x1, d->y1, d->sum1, d->diff1};
    const cw__map *m = &sw->m;
    for (int k = 0; k < 4; k++) {
        sw->clip_lo[k] = -INFINITY, sw->clip_hi[k] = INFINITY, sw->clip_slope[k] = 0;
    }
    sw->clips = 0;
    for (int k = 0; k < 4; k++) {
        double nx = dirs[k][0], ny = dirs[k][1];
        // Less the tolerance on both sides, but at most a quarter of the width (a box under 2e-6
        // units would lose it all, though its runs' test finds what lies inside): clips less only.
        double eps = cw__min(cw__min(sw->eps_x, sw->eps_y), 0.25 * (hi[k] - lo[k]));
        cw__slab sl = {lo[k] + eps, hi[k] - eps, nx * m->ox + ny * m->oy, nx * m->ux + ny * m->uy,
                   nx * m->vx + ny * m->vy, 0};
        if (sw->moving)
            sl.per_d = nx * sw->move_x + ny * sw->move_y;
        sw->slabs[k] = sl;
        // Row j spans t in [j, j + 1]: its texel s can reach the slab iff
        // at0 + s * per_s + [min(0, per_t), max(0, per_t)] + j * per_t (+ the motion's spread) meets
        // (lo, hi). A slab that hardly depends on s is left to the row range (dropping a clip only
        // widens it).
        if (fabs(sl.per_s) < 1e-9)
            continue;
        double inv = 1.0 / sl.per_s;
        double above = (sl.lo - sl.at0 - cw__max(0, sl.per_t)) * inv;
        double below = (sl.hi - sl.at0 - cw__min(0, sl.per_t)) * inv;
        if (sw->moving)
            above -= cw__max(0, sl.per_d) * inv, below -= cw__min(0, sl.per_d) * inv;
        sw->clip_lo[sw->clips] = sl.per_s > 0 ? above : below;
        sw->clip_hi[sw->clips] = sl.per_s > 0 ? below : above;
        sw->clip_slope[sw->clips] = -sl.per_t * inv;
        sw->clips++;
    }
}

// The interval of parameter p for which a point with projection `base + p * per_p + spread` (spread
// ranging over [spread_lo, spread_hi]) can fall inside every slab. Returns false if it is empty.
static bool clip_param(const cw__slab *slabs, const double base[4], const double per_p[4], const double spread_lo[4],
                       const double spread_hi[4], double *p_lo, double *p_hi)
{
    double lo = *p_lo, hi = *p_hi;
    for (int k = 0; k < 4; k++) {
        double need_above = slabs[k].lo - base[k] - spread_hi[k]; // p * per_p > need_above
        double need_below = slabs[k].hi - base[k] - spread_lo[k]; // p * per_p < need_below
        if (per_p[k] > 0) {
            lo = cw__max(lo, need_above / per_p[k]);
            hi = cw__min(hi, need_below / per_p[k]);
        } else if (per_p[k] < 0) {
            lo = cw__max(lo, need_below / per_p[k]);
            hi = cw__min(hi, need_above / per_p[k]);
        } else if (!(need_above < 0 && need_below > 0)) {
            return false;
        }
    }
    *p_lo = lo;
    *p_hi = hi;
    return lo < hi;
}

// A's rows whose strip can reach B's polygon, as [j0, j1).
static bool clip_rows(cw__sweep *sw)
{
    const cw_mask *a = sw->a;
    double base[4], per_p[4], spread_lo[4], spread_hi[4];
    for (int k = 0; k < 4; k++) {
        const cw__slab *sl = &sw->slabs[k];
        base[k] = sl->at0;
        per_p[k] = sl->per_t;
        spread_lo[k] = cw__min(a->x0 * sl->per_s, a->x1 * sl->per_s);
        spread_hi[k] = cw__max(a->x0 * sl->per_s, a->x1 * sl->per_s);
        if (sw->moving)
            spread_lo[k] += cw__min(0, sl->per_d), spread_hi[k] += cw__max(0, sl->per_d);
    }
    double lo = a->y0, hi = a->y1;
    if (!clip_param(sw->slabs, base, per_p, spread_lo, spread_hi, &lo, &hi))
        return false;
    sw->j0 = clamp_floor(lo, a->y0, a->y1);
    sw->j1 = clamp_ceil(hi, a->y0, a->y1);
    return sw->j0 < sw->j1;
}

// The texels of A's row j that can reach B's polygon, as [*i0, *i1).
static bool clip_columns(const cw__sweep *sw, int j, int *i0, int *i1)
{
    int first = sw->a->spans[2 * j], end = sw->a->spans[2 * j + 1];
    if (first >= end)
        return false;
    double lo = first, hi = end;
#if defined(__SSE2__)
    // The four clips two at a time: the same sums, and a max or min picks one of its operands, so
    // the order they are taken in cannot change the bounds (only the sign of a zero, which the
    // comparison and the rounding below ignore).
    const __m128d jj = _mm_set1_pd(j);
    const __m128d slope01 = _mm_loadu_pd(sw->clip_slope), slope23 = _mm_loadu_pd(sw->clip_slope + 2);
    __m128d lo2 = _mm_max_pd(_mm_add_pd(_mm_loadu_pd(sw->clip_lo), _mm_mul_pd(jj, slope01)),
                             _mm_add_pd(_mm_loadu_pd(sw->clip_lo + 2), _mm_mul_pd(jj, slope23)));
    __m128d hi2 = _mm_min_pd(_mm_add_pd(_mm_loadu_pd(sw->clip_hi), _mm_mul_pd(jj, slope01)),
                             _mm_add_pd(_mm_loadu_pd(sw->clip_hi + 2), _mm_mul_pd(jj, slope23)));
    lo2 = _mm_max_sd(lo2, _mm_unpackhi_pd(lo2, lo2));
    hi2 = _mm_min_sd(hi2, _mm_unpackhi_pd(hi2, hi2));
    lo = cw__max(lo, _mm_cvtsd_f64(lo2));
    hi = cw__min(hi, _mm_cvtsd_f64(hi2));
#else
    for (int k = 0; k < 4; k++) { // unused clips are open: -inf, +inf
        lo = cw__max(lo, sw->clip_lo[k] + j * sw->clip_slope[k]);
        hi = cw__min(hi, sw->clip_hi[k] + j * sw->clip_slope[k]);
    }
#endif
    if (!(lo < hi))
        return false;
    *i0 = clamp_floor(lo, first, end);
    *i1 = clamp_ceil(hi, first, end);
    return true;
}

// Prepares a walk of `a` against `b`, `a` moving by (move_x, move_y) in `b`'s texel space (zero for
// the plain test); false if no row of `a` can reach `b` at all.
static bool setup_sweep(cw__sweep *sw, const cw__body *walked, const cw__body *other, const cw__map *m, double move_x,
                        double move_y, cw__pieces *pieces)
{
    const cw_mask *a = walked->mask, *b = other->mask;
    sw->a = a;
    sw->b = b;
    sw->move_x = move_x;
    sw->move_y = move_y;
    sw->moving = move_x != 0 || move_y != 0;
    sw->eps_x = other->eps_x;
    sw->eps_y = other->eps_y;
    sw->m = *m;
    sw->pieces = pieces;
    sw->work = 0;
    setup_slabs(sw);
    sw->u_down = m->uy < 0;
    sw->v_down = m->vy < 0;
    // Edge directions pointing up (toward larger y in B): f along the run, g along A's column.
    double fx = sw->u_down ? -m->ux : m->ux, fy = sw->u_down ? -m->uy : m->uy;
    double gx = sw->v_down ? -m->vx : m->vx, gy = sw->v_down ? -m->vy : m->vy;
    sw->left_is_u = fx * gy - fy * gx < 0;
    sw->slope_u = fy > 0 ? fx / fy : 0;
    sw->slope_v = gy > 0 ? gx / gy : 0;
    if (!clip_rows(sw))
        return false;
    sw->up = sw->j0 + (sw->j1 - sw->j0) / 2;
    sw->down = sw->up - 1;
    sw->take_up = true;
    return true;
}

// The next row to walk, alternating around the middle (overlaps are found sooner there).
static bool next_row(cw__sweep *sw, int *j)
{
    bool up = sw->up < sw->j1, down = sw->down >= sw->j0;
    if (!up && !down)
        return false;
    *j = up && (sw->take_up || !down) ? sw->up++ : sw->down--;
    sw->take_up = !sw->take_up;
    return true;
}

// An edge vector pointing up (toward larger y in B; horizontal ones toward +x), and whether it had
// to be turned round.
typedef struct up_edge {
    double x, y, slope, key; // key: dx/dy, +inf when horizontal (the order of the pieces)
    bool flipped;
} up_edge;

static up_edge make_up(double x, double y)
{
    bool flip = y < 0 || (y == 0 && x < 0);
    up_edge e = {flip ? -x : x, flip ? -y : y, 0, 0, flip};
    e.slope = e.y > 0 ? e.x / e.y : 0;
    e.key = e.y > 0 ? e.slope : INFINITY;
    return e;
}

// A chain from (x, y) through the three edges in the given order.
static cw__chain make_chain(double x, double y, const up_edge *e0, const up_edge *e1, const up_edge *e2)
{
    cw__chain c;
    c.x[0] = x, c.y[0] = y, c.slope[0] = e0->slope;
    c.x[1] = x + e0->x, c.y[1] = y + e0->y, c.slope[1] = e1->slope;
    c.x[2] = c.x[1] + e1->x, c.y[2] = c.y[1] + e1->y, c.slope[2] = e2->slope;
    return c;
}

// The hexagon corner + [0, 1] run + [0, 1] column + [0, 1] motion: its bottom vertex adds each edge
// that points down, and each chain takes the three edges in order of slope (the left one rising,
// the right one falling), since a convex polygon's sides turn monotonically.
static void shape_swept(cw__run_shape *r, double px, double py, up_edge e[3])
{
    double bx = px, by = py, rise = 0;
    for (int k = 0; k < 3; k++) {
        bx += e[k].flipped ? -e[k].x : 0, by += e[k].flipped ? -e[k].y : 0;
        rise += e[k].y;
    }
    for (int pass = 0; pass < 2; pass++) // sort three by key
        for (int k = 0; k < 2; k++)
            if (e[k].key > e[k + 1].key) {
                up_edge t = e[k];
                e[k] = e[k + 1], e[k + 1] = t;
            }
    r->bottom_y = by, r->top_y = by + rise;
    r->left = make_chain(bx, by, &e[0], &e[1], &e[2]);
    r->right = make_chain(bx, by, &e[2], &e[1], &e[0]);
}

static cw__run_shape shape_run(const cw__sweep *sw, int i0, int i1, int j)
{
    const cw__map *m = &sw->m;
    double len = i1 - i0;
    double px = m->ox + i0 * m->ux + j * m->vx, py = m->oy + i0 * m->uy + j * m->vy;
    double ex = len * m->ux, ey = len * m->uy; // the run edge
    cw__run_shape r;
    r.corner_x = px, r.corner_y = py, r.run_x = ex, r.run_y = ey, r.col_x = m->vx, r.col_y = m->vy;
    if (sw->moving) {
        up_edge e[3] = {make_up(ex, ey), make_up(m->vx, m->vy), make_up(sw->move_x, sw->move_y)};
        shape_swept(&r, px, py, e);
        return r;
    }
    // The plain parallelogram: the edge order is the same for every run of the walk.
    double fx = sw->u_down ? -ex : ex, fy = sw->u_down ? -ey : ey;
    double gx = sw->v_down ? -m->vx : m->vx, gy = sw->v_down ? -m->vy : m->vy;
    double bx = px + (sw->u_down ? ex : 0) + (sw->v_down ? m->vx : 0);
    r.bottom_y = py + (sw->u_down ? ey : 0) + (sw->v_down ? m->vy : 0);
    r.top_y = r.bottom_y + fy + gy;
    up_edge f = {fx, fy, sw->slope_u, 0, false}, g = {gx, gy, sw->slope_v, 0, false}, none = {0, 0, 0, 0, false};
    const up_edge *first = sw->left_is_u ? &f : &g, *second = sw->left_is_u ? &g : &f;
    r.left = make_chain(bx, r.bottom_y, first, second, &none);
    r.right = make_chain(bx, r.bottom_y, second, first, &none);
    r.left.y[2] = r.right.y[2] = INFINITY; // two pieces: the second reaches the top
    return r;
}

// Tests (or, with pieces, measures) one run against every B band it crosses.
static bool sweep_run(cw__sweep *sw, int i0, int i1, int j)
{
    const cw_mask *b = sw->b;
    cw__run_shape rs = shape_run(sw, i0, i1, j);
    int r0 = clamp_floor(rs.bottom_y + sw->eps_y, b->y0, b->y1);
    int r1 = clamp_ceil(rs.top_y - sw->eps_y, b->y0, b->y1);
    sw->work += 3 * (r1 - r0);
    double y_prev = cw__max(r0, rs.bottom_y);
    double lx_prev = left_x(&rs, y_prev), rx_prev = right_x(&rs, y_prev);
    for (int r = r0; r < r1; r++) {
        double y0 = y_prev, y1 = cw__min(r + 1, rs.top_y);
        double lx = left_x(&rs, y1), rx = right_x(&rs, y1);
        double x_lo = cw__min(lx_prev, lx), x_hi = cw__max(rx_prev, rx);
        for (int k = 1; k < 3; k++) {
            if (rs.left.y[k] > y0 && rs.left.y[k] < y1)
                x_lo = cw__min(x_lo, rs.left.x[k]);
            if (rs.right.y[k] > y0 && rs.right.y[k] < y1)
                x_hi = cw__max(x_hi, rs.right.x[k]);
        }
        y_prev = y1, lx_prev = lx, rx_prev = rx;
        int span0 = b->spans[2 * r], span1 = b->spans[2 * r + 1];
        int k0 = clamp_floor(x_lo + sw->eps_x, span0, span1), k1 = clamp_ceil(x_hi - sw->eps_x, span0, span1);
        if (k0 >= k1 || !any_in_range(cw__row(b, r), k0, k1))
            continue;
        if (sw->pieces == NULL)
            return true;
        cw__sweep_add_pieces(sw, &rs, r, y0, y1, x_lo, x_hi, k0, k1, i0, i1, j);
    }
    return false;
}

// Tests the runs of A's row j within its clipped texels [i0, i1).
static bool sweep_runs(cw__sweep *sw, int j, int i0, int i1)
{
    const uint64_t *row = cw__row(sw->a, j);
    for (int start = next_set(row, i0, i1); start < i1;) {
        int end = next_clear(row, start, i1);
        if (sweep_run(sw, start, end, j))
            return true;
        start = end < i1 ? next_set(row, end, i1) : i1;
    }
    return false;
}

static bool sweep_row(cw__sweep *sw, int j)
{
    int i0, i1;
    sw->work++;
    return clip_columns(sw, j, &i0, &i1) && sweep_runs(sw, j, i0, i1);
}

// Opaque texels of a row in [i0, i1).
static int count_in_range(const uint64_t *row, int i0, int i1)
{
    int n = 0;
    for (int w = i0 >> 6; w <= (i1 - 1) >> 6; w++) {
        uint64_t bits = row[w];
        if (w == i0 >> 6)
            bits &= ~0ull << (i0 & 63);
        if (w == (i1 - 1) >> 6)
            bits &= ~0ull >> (63 - ((i1 - 1) & 63));
        n += cw__popcount(bits);
    }
    return n;
}

// Finds the walk's next row with texels left after clipping and estimates what testing it costs
// (a row, plus three per slice: each opaque texel crosses |u.y| of B's bands). False when the walk
// has no rows left.
static bool peek_row(cw__sweep *sw)
{
    int j, i0, i1;
    while (next_row(sw, &j)) {
        sw->work++;
        if (!clip_columns(sw, j, &i0, &i1))
            continue;
        int count = count_in_range(cw__row(sw->a, j), i0, i1);
        if (count == 0)
            continue;
        sw->next_j = j, sw->next_i0 = i0, sw->next_i1 = i1;
        // A rough row count for the walk's cost; clamped, as extreme scale ratios overflow a long.
        double rows = count * fabs(sw->m.uy) + fabs(sw->m.vy) + fabs(sw->move_y) + 1;
        sw->next_cost = 1 + 3 * (long)(rows < 1e15 ? rows : 1e15);
        return true;
    }
    return false;
}

// --- the fast paths in front of the walk ---

typedef enum probe_result { PROBE_UNKNOWN, PROBE_HIT, PROBE_APART } probe_result;

// The box in `to`'s texel space where `from`'s opaque texels may meet `to`'s, as [lo, hi] on x and
// y, and in oct how far the mapped outline reaches along x + y and x - y (lo, hi, lo, hi); false if
// there is none (apart). `from`'s outline (its opaque hull, or its 8-direction polygon
// where that has fewer corners), mapped by m, is measured along `to`'s eight directions and
// compared with `to`'s 8-direction polygon: apart along x or y if the overlap is within the
// tolerance, as the opaque boxes always were; along a diagonal only if the outline does not reach
// the polygon at all, which no walk could call an overlap either. Most pairs whose boxes meet but
// whose sprites do not (two discs side by side, corner to corner) end here.
static bool outline_meets_dop(const cw__body *from, const cw__body *to, const cw__map *m, double box[4], double oct[4])
{
    const cw_mask *f = from->mask;
    const cw__dop8 *d = &to->mask->dop;
    double lo_x, lo_y, hi_x, hi_y, lo_sum, hi_sum, lo_diff, hi_diff;
#if defined(__SSE2__)
    // Both coordinates of a corner at once, the same operations in the same order (so the same
    // bits): minpd and maxpd keep the first operand unless the second is strictly beyond it, as
    // cw__min() and cw__max() do.
    const __m128d o = _mm_setr_pd(m->ox, m->oy), u = _mm_setr_pd(m->ux, m->uy), v = _mm_setr_pd(m->vx, m->vy);
    const __m128d negate_second = _mm_setr_pd(0.0, -0.0);
    __m128d lo = _mm_set1_pd(INFINITY), hi = _mm_set1_pd(-INFINITY), lo_sd = lo, hi_sd = hi;
    for (int k = 0; k < f->outline_count; k++) {
        __m128d x = _mm_set1_pd(f->outline[2 * k]), y = _mm_set1_pd(f->outline[2 * k + 1]);
        __m128d b = _mm_add_pd(_mm_add_pd(o, _mm_mul_pd(x, u)), _mm_mul_pd(y, v)); // bx, by
        // bx + by, bx - by
        __m128d sd = _mm_add_pd(_mm_unpacklo_pd(b, b), _mm_xor_pd(_mm_unpackhi_pd(b, b), negate_second));
        lo = _mm_min_pd(lo, b), hi = _mm_max_pd(hi, b), lo_sd = _mm_min_pd(lo_sd, sd), hi_sd = _mm_max_pd(hi_sd, sd);
    }
    lo_x = _mm_cvtsd_f64(lo), lo_y = _mm_cvtsd_f64(_mm_unpackhi_pd(lo, lo));
    hi_x = _mm_cvtsd_f64(hi), hi_y = _mm_cvtsd_f64(_mm_unpackhi_pd(hi, hi));
    lo_sum = _mm_cvtsd_f64(lo_sd), lo_diff = _mm_cvtsd_f64(_mm_unpackhi_pd(lo_sd, lo_sd));
    hi_sum = _mm_cvtsd_f64(hi_sd), hi_diff = _mm_cvtsd_f64(_mm_unpackhi_pd(hi_sd, hi_sd));
#else
    lo_x = lo_y = lo_sum = lo_diff = INFINITY, hi_x = hi_y = hi_sum = hi_diff = -INFINITY;
    for (int k = 0; k < f->outline_count; k++) {
        double x = f->outline[2 * k], y = f->outline[2 * k + 1];
        double bx = m->ox + x * m->ux + y * m->vx, by = m->oy + x * m->uy + y * m->vy;
        lo_x = cw__min(lo_x, bx), hi_x = cw__max(hi_x, bx), lo_y = cw__min(lo_y, by), hi_y = cw__max(hi_y, by);
        lo_sum = cw__min(lo_sum, bx + by), hi_sum = cw__max(hi_sum, bx + by);
        lo_diff = cw__min(lo_diff, bx - by), hi_diff = cw__max(hi_diff, bx - by);
    }
#endif
    box[0] = cw__max(lo_x, d->x0), box[2] = cw__min(hi_x, d->x1);
    box[1] = cw__max(lo_y, d->y0), box[3] = cw__min(hi_y, d->y1);
    oct[0] = lo_sum, oct[1] = hi_sum, oct[2] = lo_diff, oct[3] = hi_diff;
    return box[2] - box[0] > to->eps_x && box[3] - box[1] > to->eps_y && hi_sum > d->sum0 && lo_sum < d->sum1 &&
           hi_diff > d->diff0 && lo_diff < d->diff1;
}

// Cheap answers first: either outline misses the other's 8-direction polygon (apart), or a sample
// point lies strictly inside an opaque texel of both (hit: a small disc around it is in both
// regions).
static probe_result probe(const cw__body *body_a, const cw__body *body_b, const cw__map *ab, const cw__map *ba)
{
    const cw_mask *b = body_b->mask;
    double shared[4], oct[4]; // where A may meet B, in B's texel space
    if (!outline_meets_dop(body_a, body_b, ab, shared, oct))
        return PROBE_APART;
    double lo_x = shared[0], lo_y = shared[1], hi_x = shared[2], hi_y = shared[3];
    // A 4 x 4 pattern over the shared box, odd fractions to avoid texel edges; across each row the
    // pattern spreads over B's opaque span there within A's octagon (x + y and x - y), so most
    // samples land on B and many on A. Each sample is moved to the centre of its texel of B, which
    // is inside it by half a texel, beyond the tolerance (a box under 2e-6 units, whose tolerance
    // is half its texel or more, leaves the pair to the walks).
    static const double at[4] = {0.382, 0.618, 0.127, 0.873};
    int samples = body_b->eps_x < 0.5 && body_b->eps_y < 0.5 ? 16 : 0;
    for (int k = 0; k < samples; k++) {
        double y = lo_y + at[k >> 2] * (hi_y - lo_y);
        int row = (int)y; // y >= b->y0 >= 0
        double span_lo = cw__max(cw__max(lo_x, b->spans[2 * row]), cw__max(oct[0] - y, oct[2] + y));
        double span_hi = cw__min(cw__min(hi_x, b->spans[2 * row + 1]), cw__min(oct[1] - y, oct[3] + y));
        if (span_lo >= span_hi)
            continue;
        // Within the row's span: where the span left is a sliver, the sum may round up to its end.
        int col = cw__int_min((int)(span_lo + at[k & 3] * (span_hi - span_lo)), b->spans[2 * row + 1] - 1);
        if (!cw__texel_at(b, col, row))
            continue;
        double x = col + 0.5, yc = row + 0.5;
        if (opaque_inside(body_a, ba->ox + x * ba->ux + yc * ba->vx, ba->oy + x * ba->uy + yc * ba->vy))
            return PROBE_HIT;
    }
    double unused[4], unused_oct[4];
    return outline_meets_dop(body_b, body_a, ba, unused, unused_oct) ? PROBE_UNKNOWN : PROBE_APART;
}

// Whether m maps every point of mask a's texel rectangle within 2^20 of the origin of the other
// mask's texel space.
static bool lands_near(const cw__map *m, const cw_mask *a)
{
    return fabs(m->ox) + fabs(m->oy) + (fabs(m->ux) + fabs(m->uy)) * a->width + (fabs(m->vx) + fabs(m->vy)) * a->height <
           0x1p20;
}

// Walk both ways at once: either walk alone is exact at moderate scales and placements (at extreme
// ones the cheaper is the one that keeps its digits), and one is often far cheaper (a small sprite
// clipped away inside a ring's hole) with no cheap way to tell which in advance. Each walk looks
// ahead to its next row that has texels left; the row goes to the walk that will then have done
// less work, and the first walk to run out of rows proves there is no overlap. `a` moves by
// (dx, dy) world units over the test (zero for the plain test), so `b` moves by minus that.
static inline bool race(const cw__body *a, const cw__body *b, const cw__map *ab, const cw__map *ba, double dx, double dy)
{
    double ax = 0, ay = 0, bx = 0, by = 0;
    if (dx != 0 || dy != 0) {
        cw__local_vector(&b->xf, dx, dy, &ax, &ay);
        cw__local_vector(&a->xf, -dx, -dy, &bx, &by);
    }
    cw__sweep walks[2];
    if (!setup_sweep(&walks[0], a, b, ab, ax, ay, NULL) || !peek_row(&walks[0]))
        return false;
    // Where a's texels land within 2^20 of b's (each point b's texels off by a billionth at most,
    // far inside the tolerance), a's walk alone is exact, and its first row goes before b's walk is
    // set up: many pairs that get here touch there. Elsewhere the cheaper walk must go first: a row of
    // a huge box, mapped into a small sprite's texels, loses the digits the other walk keeps.
    if (dx == 0 && dy == 0 && lands_near(ab, a->mask)) {
        if (sweep_runs(&walks[0], walks[0].next_j, walks[0].next_i0, walks[0].next_i1))
            return true;
        if (!peek_row(&walks[0]))
            return false;
    }
    if (!setup_sweep(&walks[1], b, a, ba, bx, by, NULL) || !peek_row(&walks[1]))
        return false;
    for (;;) {
        cw__sweep *sw = walks[0].work + walks[0].next_cost <= walks[1].work + walks[1].next_cost ? &walks[0] : &walks[1];
        if (sweep_runs(sw, sw->next_j, sw->next_i0, sw->next_i1))
            return true;
        if (!peek_row(sw))
            return false;
    }
}

bool cw__masks_overlap(const cw__body *a, const cw__body *b)
{
    const cw_mask *ma = a->mask, *mb = b->mask;
    if (ma->count == 0 || mb->count == 0)
        return false;
    cw__map ab, ba;
    bool both = cw__maps_between(a, b, &ab, &ba);
    if (is_translation(&ab))
        return cw__translated_overlap(ma, mb, ab.ox, ab.oy, false, false, b->eps_x, b->eps_y);
    if (is_mirroring(&ab) && cw__can_mirror(ma, mb))
        return cw__translated_overlap(ma, mb, ab.ox, ab.oy, ab.ux < 0, ab.vy < 0, b->eps_x, b->eps_y);
    if (is_quarter_turn(&ab) && ma->transposed != NULL && cw__can_mirror(ma->transposed, mb))
        return cw__translated_overlap(ma->transposed, mb, ab.ox, ab.oy, ab.vx < 0, ab.uy < 0, b->eps_x, b->eps_y);
    if (!both) // mirrored, but too wide to be tested so
        ba = cw__map_between(b, a);
    probe_result quick = probe(a, b, &ab, &ba);
    if (quick != PROBE_UNKNOWN)
        return quick == PROBE_HIT;
    return race(a, b, &ab, &ba, 0, 0);
}

bool cw__masks_overlap_moving(const cw__body *a, const cw__body *b, double dx, double dy)
{
    if (a->mask->count == 0 || b->mask->count == 0)
        return false;
    if (dx == 0 && dy == 0)
        return cw__masks_overlap(a, b);
    cw__map ab, ba;
    if (!cw__maps_between(a, b, &ab, &ba))
        ba = cw__map_between(b, a);
    return race(a, b, &ab, &ba, dx, dy);
}

bool cw__sweep_setup(cw__sweep *sw, const cw__body *walked, const cw__body *other, const cw__map *m,
                     cw__pieces *pieces)
{
    return setup_sweep(sw, walked, other, m, 0, 0, pieces);
}

bool cw__sweep_next_row(cw__sweep *sw, int *j) { return next_row(sw, j); }

bool cw__sweep_row(cw__sweep *sw, int j) { return sweep_row(sw, j); }

bool cw__sweep_clip_columns(const cw__sweep *sw, int j, int *i0, int *i1) { return clip_columns(sw, j, i0, i1); }
