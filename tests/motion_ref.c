// References for contacts over motion (see motion_ref.h): per pair of solid cells, the interval of
// translations along a direction for which the two convex cells overlap.
#include "motion_ref.h"

#include <math.h>
#include <stdlib.h>

// Every row's run of solid cells as a world quad, and the shape's two edge normals.
typedef struct cells {
    int count;
    ref_quad *quads;
    double axis_x[2], axis_y[2];
} cells;

static cells cells_of(const ref_shape *s, const cw_transform *t)
{
    cells c = {0, NULL, {0, 0}, {0, 0}};
    c.quads = malloc(sizeof *c.quads * (size_t)(s->nx * s->ny + 1));
    if (c.quads == NULL)
        abort();
    // A row's run of solid cells is one rectangle: the union of its cells.
    for (int j = 0; j < s->ny; j++)
        for (int i = 0; i < s->nx; i++) {
            if (!s->solid[(size_t)j * (size_t)s->nx + (size_t)i])
                continue;
            int end = i;
            while (end < s->nx && s->solid[(size_t)j * (size_t)s->nx + (size_t)end])
                end++;
            ref_quad q;
            static const int di[4] = {0, 1, 1, 0}, dj[4] = {0, 0, 1, 1};
            for (int k = 0; k < 4; k++)
                ref_to_world(t, (di[k] ? end : i) * s->cell_w, (j + dj[k]) * s->cell_h, &q.x[k], &q.y[k]);
            c.quads[c.count++] = q;
            i = end;
        }
    double cs, sn;
    ref_cos_sin(t->rotation, &cs, &sn);
    c.axis_x[0] = cs, c.axis_y[0] = sn, c.axis_x[1] = -sn, c.axis_y[1] = cs;
    return c;
}

static void project(const ref_quad *q, double ax, double ay, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int k = 0; k < 4; k++) {
        double p = q->x[k] * ax + q->y[k] * ay;
        *lo = fmin(*lo, p), *hi = fmax(*hi, p);
    }
}

// The open interval of s for which p and q + s * (nx, ny) overlap by more than `threshold` on all
// four axes; false if it is empty.
static bool pair_interval(const ref_quad *p, const ref_quad *q, const double ax[4], const double ay[4], double nx,
                          double ny, double threshold, double *s_lo, double *s_hi)
{
    double lo = -INFINITY, hi = INFINITY;
    for (int k = 0; k < 4; k++) {
        double p_lo, p_hi, q_lo, q_hi;
        project(p, ax[k], ay[k], &p_lo, &p_hi);
        project(q, ax[k], ay[k], &q_lo, &q_hi);
        if (!(p_hi - p_lo > threshold && q_hi - q_lo > threshold))
            return false;
        // Overlap by more than the threshold: q_lo + s c < p_hi - threshold and q_hi + s c > p_lo + threshold.
        double c = nx * ax[k] + ny * ay[k];
        double below = p_hi - threshold - q_lo, above = p_lo + threshold - q_hi; // s c in (above, below)
        if (c == 0) {
            if (!(above < 0 && 0 < below))
                return false;
            continue;
        }
        double t0 = above / c, t1 = below / c;
        lo = fmax(lo, fmin(t0, t1));
        hi = fmin(hi, fmax(t0, t1));
    }
    *s_lo = lo, *s_hi = hi;
    return lo < hi;
}

static void axes_of(const cells *a, const cells *b, double ax[4], double ay[4])
{
    ax[0] = a->axis_x[0], ax[1] = a->axis_x[1], ax[2] = b->axis_x[0], ax[3] = b->axis_x[1];
    ay[0] = a->axis_y[0], ay[1] = a->axis_y[1], ay[2] = b->axis_y[0], ay[3] = b->axis_y[1];
}

double mref_first_touch(const ref_shape *a, const cw_transform *ta, double dx, double dy, const ref_shape *b,
                        const cw_transform *tb, double threshold)
{
    cells ca = cells_of(a, ta), cb = cells_of(b, tb);
    double ax[4], ay[4], first = INFINITY;
    axes_of(&ca, &cb, ax, ay);
    for (int i = 0; i < ca.count; i++)
        for (int k = 0; k < cb.count; k++) {
            double lo, hi;
            if (pair_interval(&cb.quads[k], &ca.quads[i], ax, ay, dx, dy, threshold, &lo, &hi) && lo < 1 && hi > 0)
                first = fmin(first, fmax(lo, 0));
        }
    free(ca.quads);
    free(cb.quads);
    return first;
}

typedef struct interval {
    double lo, hi;
} interval;

static int by_start(const void *x, const void *y)
{
    const interval *p = x, *q = y;
    return (p->lo > q->lo) - (p->lo < q->lo);
}

// First gap from 0 in the union of `n` open intervals, ignoring gaps narrower than `min_gap`.
static double first_gap(interval *list, int n, double min_gap)
{
    qsort(list, (size_t)n, sizeof *list, by_start);
    double reach = 0;
    for (int i = 0; i < n; i++) {
        if (list[i].lo >= reach + min_gap)
            break;
        reach = fmax(reach, list[i].hi);
    }
    return reach;
}

static double gap_between(const cells *ca, const cells *cb, double nx, double ny, double threshold, double min_gap,
                          interval *scratch)
{
    double ax[4], ay[4];
    axes_of(ca, cb, ax, ay);
    int n = 0;
    for (int i = 0; i < ca->count; i++)
        for (int k = 0; k < cb->count; k++) {
            double lo, hi;
            if (pair_interval(&ca->quads[i], &cb->quads[k], ax, ay, nx, ny, threshold, &lo, &hi) && hi > 0)
                scratch[n++] = (interval){lo, hi};
        }
    return first_gap(scratch, n, min_gap);
}

double mref_first_gap(const ref_shape *a, const cw_transform *ta, const ref_shape *b, const cw_transform *tb,
                      double nx, double ny, double threshold, double min_gap)
{
    cells ca = cells_of(a, ta), cb = cells_of(b, tb);
    interval *scratch = malloc(sizeof *scratch * ((size_t)ca.count * (size_t)cb.count + 1));
    if (scratch == NULL)
        abort();
    double gap = gap_between(&ca, &cb, nx, ny, threshold, min_gap, scratch);
    free(scratch);
    free(ca.quads);
    free(cb.quads);
    return gap;
}

double mref_gaps(const ref_shape *a, const cw_transform *ta, const ref_shape *b, const cw_transform *tb,
                 int directions, double threshold, double min_gap, double *gaps)
{
    cells ca = cells_of(a, ta), cb = cells_of(b, tb);
    interval *scratch = malloc(sizeof *scratch * ((size_t)ca.count * (size_t)cb.count + 1));
    if (scratch == NULL)
        abort();
    double best = INFINITY;
    for (int k = 0; k < directions; k++) {
        double angle = 2 * 3.14159265358979323846 * k / directions;
        gaps[k] = gap_between(&ca, &cb, cos(angle), sin(angle), threshold, min_gap, scratch);
        best = fmin(best, gaps[k]);
    }
    free(scratch);
    free(ca.quads);
    free(cb.quads);
    return best;
}
