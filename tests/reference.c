// The slow exact reference (see reference.h). Written to be obviously right, not fast: every cell
// is turned into its four world corners with the header's formula, and every pair of cells that
// could be close is run through the separating-axis test on the 4 edge normals.
#include "reference.h"

#include <math.h>
#include <stdlib.h>

static const unsigned char one_solid_cell = 1;

ref_shape ref_box(double width, double height)
{
    return (ref_shape){.nx = 1, .ny = 1, .cell_w = width, .cell_h = height, .solid = &one_solid_cell};
}

ref_shape ref_mask(const unsigned char *solid, int width, int height)
{
    return (ref_shape){.nx = width, .ny = height, .cell_w = 1.0, .cell_h = 1.0, .solid = solid};
}

int ref_solid_count(const ref_shape *s)
{
    int n = 0;
    for (int k = 0; k < s->nx * s->ny; k++)
        n += s->solid[k] != 0;
    return n;
}

static bool is_solid(const ref_shape *s, int i, int j) { return s->solid[(size_t)j * (size_t)s->nx + (size_t)i] != 0; }

// The header's rotation rule: the float nearest to a multiple k of pi/2 (and below 100,000 rad)
// counts as exactly k * pi/2; every other value is used as given.
void ref_cos_sin(float rotation, double *c, double *s)
{
    const double half_pi = 1.57079632679489661923;
    double k = nearbyint((double)rotation / half_pi);
    if (fabs((double)rotation) < 100000.0 && (float)(k * half_pi) == rotation) {
        static const double cs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
        int q = (int)fmod(fmod(k, 4.0) + 4.0, 4.0);
        *c = cs[q][0];
        *s = cs[q][1];
        return;
    }
    *c = cos((double)rotation);
    *s = sin((double)rotation);
}

void ref_to_world(const cw_transform *t, double lx, double ly, double *wx, double *wy)
{
    double c, s;
    ref_cos_sin(t->rotation, &c, &s);
    double qx = (lx - (double)t->origin.x) * (double)t->scale.x;
    double qy = (ly - (double)t->origin.y) * (double)t->scale.y;
    *wx = (double)t->position.x + (c * qx - s * qy);
    *wy = (double)t->position.y + (s * qx + c * qy);
}

void ref_to_local(const cw_transform *t, double wx, double wy, double *lx, double *ly)
{
    double c, s;
    ref_cos_sin(t->rotation, &c, &s);
    double dx = wx - (double)t->position.x, dy = wy - (double)t->position.y;
    // R^-1 = R^T
    double qx = c * dx + s * dy;
    double qy = -s * dx + c * dy;
    *lx = qx / (double)t->scale.x + (double)t->origin.x;
    *ly = qy / (double)t->scale.y + (double)t->origin.y;
}

// World corners of every cell corner (nx + 1) x (ny + 1), and the shape's two unit edge normals.
typedef struct grid {
    const ref_shape *shape;
    const cw_transform *t;
    int nx, ny;
    double *x, *y;
    double axis_x[2], axis_y[2];
} grid;

static bool grid_build(grid *g, const ref_shape *s, const cw_transform *t)
{
    g->shape = s;
    g->t = t;
    g->nx = s->nx;
    g->ny = s->ny;
    size_t n = (size_t)(s->nx + 1) * (size_t)(s->ny + 1);
    g->x = malloc(n * sizeof *g->x);
    g->y = malloc(n * sizeof *g->y);
    if (g->x == NULL || g->y == NULL) {
        free(g->x);
        free(g->y);
        return false;
    }
    for (int j = 0; j <= s->ny; j++)
        for (int i = 0; i <= s->nx; i++) {
            size_t k = (size_t)j * (size_t)(s->nx + 1) + (size_t)i;
            ref_to_world(t, i * s->cell_w, j * s->cell_h, &g->x[k], &g->y[k]);
        }
    // The images of the local x and y directions: unit vectors (c, s) and (-s, c). The cells are
    // rectangles (rotation after per-axis scale), so these are the normals of their edges.
    double c, sn;
    ref_cos_sin(t->rotation, &c, &sn);
    g->axis_x[0] = c;
    g->axis_y[0] = sn;
    g->axis_x[1] = -sn;
    g->axis_y[1] = c;
    return true;
}

static void grid_free(grid *g)
{
    free(g->x);
    free(g->y);
}

static void grid_cell(const grid *g, int i, int j, double cx[4], double cy[4])
{
    size_t row = (size_t)(g->nx + 1);
    size_t k00 = (size_t)j * row + (size_t)i;
    size_t k10 = k00 + 1, k11 = k00 + row + 1, k01 = k00 + row;
    cx[0] = g->x[k00], cy[0] = g->y[k00];
    cx[1] = g->x[k10], cy[1] = g->y[k10];
    cx[2] = g->x[k11], cy[2] = g->y[k11];
    cx[3] = g->x[k01], cy[3] = g->y[k01];
}

static void quad_bounds(const double cx[4], const double cy[4], double min[2], double max[2])
{
    min[0] = max[0] = cx[0];
    min[1] = max[1] = cy[0];
    for (int k = 1; k < 4; k++) {
        min[0] = fmin(min[0], cx[k]);
        max[0] = fmax(max[0], cx[k]);
        min[1] = fmin(min[1], cy[k]);
        max[1] = fmax(max[1], cy[k]);
    }
}

// Signed SAT margin of two convex quads on the given unit axes.
static double pair_margin(const double ax[4], const double ay[4], const double px[4], const double py[4],
                          const double qx[4], const double qy[4])
{
    double margin = INFINITY;
    for (int k = 0; k < 4; k++) {
        double p_lo = INFINITY, p_hi = -INFINITY, q_lo = INFINITY, q_hi = -INFINITY;
        for (int c = 0; c < 4; c++) {
            double p = px[c] * ax[k] + py[c] * ay[k];
            double q = qx[c] * ax[k] + qy[c] * ay[k];
            p_lo = fmin(p_lo, p);
            p_hi = fmax(p_hi, p);
            q_lo = fmin(q_lo, q);
            q_hi = fmax(q_hi, q);
        }
        margin = fmin(margin, fmin(p_hi, q_hi) - fmax(p_lo, q_lo));
    }
    return margin;
}

// Rough work estimate of walking `outer`'s solid cells against the cells of `inner` around them.
static double walk_cost(const ref_shape *outer, const cw_transform *to, const ref_shape *inner, const cw_transform *ti)
{
    double outer_extent = hypot(fabs((double)to->scale.x) * outer->cell_w, fabs((double)to->scale.y) * outer->cell_h);
    double inner_w = fabs((double)ti->scale.x) * inner->cell_w, inner_h = fabs((double)ti->scale.y) * inner->cell_h;
    double per_cell = (outer_extent / inner_w + 5.0) * (outer_extent / inner_h + 5.0);
    return (double)ref_solid_count(outer) * fmin(per_cell, (double)inner->nx * inner->ny);
}

static int clamp_index(double v, int n)
{
    if (!(v > -1.0)) // also catches NaN
        return -1;
    if (v > (double)n)
        return n;
    return (int)floor(v);
}

#define REF_NEAR 1e-2

double ref_margin_capped(const ref_shape *a, const cw_transform *ta, const ref_shape *b, const cw_transform *tb,
                         double stop_above)
{
    if (ref_solid_count(a) == 0 || ref_solid_count(b) == 0)
        return REF_FAR;
    // The result does not depend on which shape is walked: the same set of pairs is considered
    // (up to pairs more than REF_NEAR apart, which cannot raise the maximum above REF_FAR).
    bool swap = walk_cost(b, tb, a, ta) < walk_cost(a, ta, b, tb);
    const ref_shape *os = swap ? b : a, *is = swap ? a : b;
    const cw_transform *ot = swap ? tb : ta, *it = swap ? ta : tb;
    grid go, gi;
    if (!grid_build(&go, os, ot))
        abort();
    if (!grid_build(&gi, is, it))
        abort();
    double ax[4] = {go.axis_x[0], go.axis_x[1], gi.axis_x[0], gi.axis_x[1]};
    double ay[4] = {go.axis_y[0], go.axis_y[1], gi.axis_y[0], gi.axis_y[1]};
    double inner_min[2], inner_max[2];
    ref_aabb(is, it, false, inner_min, inner_max);

    double best = REF_FAR;
    for (int oj = 0; oj < os->ny; oj++) {
        for (int oi = 0; oi < os->nx; oi++) {
            if (!is_solid(os, oi, oj))
                continue;
            double px[4], py[4], pmin[2], pmax[2];
            grid_cell(&go, oi, oj, px, py);
            quad_bounds(px, py, pmin, pmax);
            if (pmin[0] > inner_max[0] + REF_NEAR || inner_min[0] > pmax[0] + REF_NEAR ||
                pmin[1] > inner_max[1] + REF_NEAR || inner_min[1] > pmax[1] + REF_NEAR)
                continue;
            // The cell's corners in the inner shape's local space: the inner cells that can touch it
            // lie in their bounding box, widened by 2 cells.
            double lmin[2] = {INFINITY, INFINITY}, lmax[2] = {-INFINITY, -INFINITY};
            for (int c = 0; c < 4; c++) {
                double lx, ly;
                ref_to_local(it, px[c], py[c], &lx, &ly);
                lmin[0] = fmin(lmin[0], lx / is->cell_w);
                lmax[0] = fmax(lmax[0], lx / is->cell_w);
                lmin[1] = fmin(lmin[1], ly / is->cell_h);
                lmax[1] = fmax(lmax[1], ly / is->cell_h);
            }
            int i_lo = clamp_index(lmin[0] - 2.0, is->nx), i_hi = clamp_index(lmax[0] + 2.0, is->nx);
            int j_lo = clamp_index(lmin[1] - 2.0, is->ny), j_hi = clamp_index(lmax[1] + 2.0, is->ny);
            if (i_lo < 0)
                i_lo = 0;
            if (j_lo < 0)
                j_lo = 0;
            if (i_hi > is->nx - 1)
                i_hi = is->nx - 1;
            if (j_hi > is->ny - 1)
                j_hi = is->ny - 1;
            for (int ij = j_lo; ij <= j_hi; ij++) {
                for (int ii = i_lo; ii <= i_hi; ii++) {
                    if (!is_solid(is, ii, ij))
                        continue;
                    double qx[4], qy[4], qmin[2], qmax[2];
                    grid_cell(&gi, ii, ij, qx, qy);
                    quad_bounds(qx, qy, qmin, qmax);
                    if (pmin[0] > qmax[0] + REF_NEAR || qmin[0] > pmax[0] + REF_NEAR ||
                        pmin[1] > qmax[1] + REF_NEAR || qmin[1] > pmax[1] + REF_NEAR)
                        continue;
                    double m = pair_margin(ax, ay, px, py, qx, qy);
                    if (m > best) {
                        best = m;
                        if (best >= stop_above)
                            goto done;
                    }
                }
            }
        }
    }
done:
    grid_free(&go);
    grid_free(&gi);
    return best;
}

double ref_margin(const ref_shape *a, const cw_transform *ta, const ref_shape *b, const cw_transform *tb)
{
    return ref_margin_capped(a, ta, b, tb, INFINITY);
}

bool ref_aabb(const ref_shape *s, const cw_transform *t, bool all_cells, double min[2], double max[2])
{
    bool any = false;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int j = 0; j < s->ny; j++)
        for (int i = 0; i < s->nx; i++) {
            if (!all_cells && !is_solid(s, i, j))
                continue;
            any = true;
            for (int c = 0; c < 4; c++) {
                double wx, wy;
                ref_to_world(t, (i + (c & 1)) * s->cell_w, (j + (c >> 1)) * s->cell_h, &wx, &wy);
                lo[0] = fmin(lo[0], wx);
                hi[0] = fmax(hi[0], wx);
                lo[1] = fmin(lo[1], wy);
                hi[1] = fmax(hi[1], wy);
            }
        }
    if (!any)
        return false;
    min[0] = lo[0], min[1] = lo[1], max[0] = hi[0], max[1] = hi[1];
    return true;
}

double ref_point_distance(const ref_shape *s, const cw_transform *t, double wx, double wy, double search)
{
    double lx, ly;
    ref_to_local(t, wx, wy, &lx, &ly);
    double ux = fabs((double)t->scale.x) * s->cell_w, uy = fabs((double)t->scale.y) * s->cell_h; // world size of a cell
    double ci = lx / s->cell_w, cj = ly / s->cell_h;
    int i_lo = clamp_index(ci - search / ux - 1.0, s->nx), i_hi = clamp_index(ci + search / ux + 1.0, s->nx);
    int j_lo = clamp_index(cj - search / uy - 1.0, s->ny), j_hi = clamp_index(cj + search / uy + 1.0, s->ny);
    if (i_lo < 0)
        i_lo = 0;
    if (j_lo < 0)
        j_lo = 0;
    if (i_hi > s->nx - 1)
        i_hi = s->nx - 1;
    if (j_hi > s->ny - 1)
        j_hi = s->ny - 1;
    double best = INFINITY;
    for (int j = j_lo; j <= j_hi; j++)
        for (int i = i_lo; i <= i_hi; i++) {
            if (!is_solid(s, i, j))
                continue;
            // Distance in the local frame, scaled per axis: the map is a rotation after a per-axis
            // scale, so this is the world distance to the cell's rectangle.
            double dx = fmax(0.0, fmax(i - ci, ci - (i + 1))) * ux;
            double dy = fmax(0.0, fmax(j - cj, cj - (j + 1))) * uy;
            best = fmin(best, hypot(dx, dy));
        }
    return best;
}

bool ref_point_inside(const ref_shape *s, const cw_transform *t, double wx, double wy, double inset)
{
    double lx, ly;
    ref_to_local(t, wx, wy, &lx, &ly);
    double ci = lx / s->cell_w, cj = ly / s->cell_h;
    if (!(ci > 0.0 && cj > 0.0 && ci < s->nx && cj < s->ny))
        return false;
    int i = (int)floor(ci), j = (int)floor(cj);
    if (i >= s->nx || j >= s->ny || !is_solid(s, i, j))
        return false;
    return lx - i * s->cell_w > inset && (i + 1) * s->cell_w - lx > inset && ly - j * s->cell_h > inset &&
           (j + 1) * s->cell_h - ly > inset;
}

ref_quad ref_cell_quad(const ref_shape *s, const cw_transform *t, int i, int j)
{
    ref_quad q;
    static const int di[4] = {0, 1, 1, 0}, dj[4] = {0, 0, 1, 1};
    for (int c = 0; c < 4; c++)
        ref_to_world(t, (i + di[c]) * s->cell_w, (j + dj[c]) * s->cell_h, &q.x[c], &q.y[c]);
    return q;
}

static double signed_area(const double *x, const double *y, int n)
{
    double a = 0;
    for (int k = 0; k < n; k++) {
        int m = (k + 1) % n;
        a += x[k] * y[m] - x[m] * y[k];
    }
    return a / 2;
}

double ref_quad_intersection(const ref_quad *p, const ref_quad *q, double *cx, double *cy)
{
    // Sutherland-Hodgman: clip p by each edge of q (q made counter-clockwise first). Work relative
    // to p's first corner for precision far from the origin.
    double ox = p->x[0], oy = p->y[0];
    double px[16], py[16], qx[4], qy[4];
    int n = 4;
    for (int k = 0; k < 4; k++) {
        px[k] = p->x[k] - ox, py[k] = p->y[k] - oy;
        qx[k] = q->x[k] - ox, qy[k] = q->y[k] - oy;
    }
    if (signed_area(qx, qy, 4) < 0)
        for (int k = 0; k < 2; k++) {
            double tx = qx[k], ty = qy[k];
            qx[k] = qx[3 - k], qy[k] = qy[3 - k];
            qx[3 - k] = tx, qy[3 - k] = ty;
        }
    for (int e = 0; e < 4 && n > 0; e++) {
        double ex0 = qx[e], ey0 = qy[e], ex1 = qx[(e + 1) % 4], ey1 = qy[(e + 1) % 4];
        double rx[16], ry[16];
        int m = 0;
        for (int k = 0; k < n; k++) {
            int l = (k + 1) % n;
            double sk = (ex1 - ex0) * (py[k] - ey0) - (ey1 - ey0) * (px[k] - ex0); // >= 0: inside
            double sl = (ex1 - ex0) * (py[l] - ey0) - (ey1 - ey0) * (px[l] - ex0);
            if (sk >= 0) {
                rx[m] = px[k], ry[m] = py[k], m++;
            }
            if ((sk >= 0) != (sl >= 0)) {
                double f = sk / (sk - sl);
                rx[m] = px[k] + f * (px[l] - px[k]);
                ry[m] = py[k] + f * (py[l] - py[k]);
                m++;
            }
        }
        n = m;
        for (int k = 0; k < n; k++)
            px[k] = rx[k], py[k] = ry[k];
    }
    if (n < 3)
        return 0.0;
    double area = fabs(signed_area(px, py, n));
    if (area > 0 && cx != NULL && cy != NULL) {
        double a = 0, sx = 0, sy = 0;
        for (int k = 0; k < n; k++) {
            int l = (k + 1) % n;
            double cross = px[k] * py[l] - px[l] * py[k];
            a += cross;
            sx += (px[k] + px[l]) * cross;
            sy += (py[k] + py[l]) * cross;
        }
        *cx = ox + sx / (3 * a);
        *cy = oy + sy / (3 * a);
    }
    return area;
}

double ref_box_sat(const ref_shape *a, const cw_transform *ta, const ref_shape *b, const cw_transform *tb,
                   double axis_x[4], double axis_y[4], double overlap[4])
{
    ref_quad p = ref_cell_quad(a, ta, 0, 0), q = ref_cell_quad(b, tb, 0, 0);
    double ca, sa, cb, sb;
    ref_cos_sin(ta->rotation, &ca, &sa);
    ref_cos_sin(tb->rotation, &cb, &sb);
    double ax[4] = {ca, -sa, cb, -sb}, ay[4] = {sa, ca, sb, cb};
    double least = INFINITY;
    for (int k = 0; k < 4; k++) {
        double p_lo = INFINITY, p_hi = -INFINITY, q_lo = INFINITY, q_hi = -INFINITY;
        for (int c = 0; c < 4; c++) {
            double pp = p.x[c] * ax[k] + p.y[c] * ay[k];
            double qq = q.x[c] * ax[k] + q.y[c] * ay[k];
            p_lo = fmin(p_lo, pp);
            p_hi = fmax(p_hi, pp);
            q_lo = fmin(q_lo, qq);
            q_hi = fmax(q_hi, qq);
        }
        axis_x[k] = ax[k];
        axis_y[k] = ay[k];
        // The distance B must move along +axis (p_hi - q_lo) or -axis (q_hi - p_lo) to separate.
        overlap[k] = fmin(p_hi - q_lo, q_hi - p_lo);
        least = fmin(least, overlap[k]);
    }
    return least;
}
