// The query reference (see query_ref.h): half-open points and rays against every opaque texel's
// world quad, in double, with the near-degenerate cases flagged instead of guessed.
#include "query_ref.h"

#include <math.h>
#include <string.h>

#include "reference.h"

// The header's formula with cos and sin computed once.
typedef struct frame {
    double c, s, px, py, sx, sy, ox, oy;
    bool quarter;
} frame;

static frame make_frame(const cw_transform *t)
{
    frame f;
    ref_cos_sin(t->rotation, &f.c, &f.s);
    f.px = t->position.x, f.py = t->position.y;
    f.sx = t->scale.x, f.sy = t->scale.y;
    f.ox = t->origin.x, f.oy = t->origin.y;
    f.quarter = f.c == 0 || f.s == 0;
    return f;
}

static void to_world(const frame *f, double lx, double ly, double *wx, double *wy)
{
    double qx = (lx - f->ox) * f->sx, qy = (ly - f->oy) * f->sy;
    *wx = f->px + (f->c * qx - f->s * qy);
    *wy = f->py + (f->s * qx + f->c * qy);
}

static void to_local(const frame *f, double wx, double wy, double *lx, double *ly)
{
    double dx = wx - f->px, dy = wy - f->py;
    *lx = (f->c * dx + f->s * dy) / f->sx + f->ox;
    *ly = (-f->s * dx + f->c * dy) / f->sy + f->oy;
}

bool qr_quarter_turn(const cw_transform *transform)
{
    frame f = make_frame(transform);
    return f.quarter;
}

void qr_shape_size(const cw_shape *shape, double *w, double *h)
{
    if (shape->type == CW_SHAPE_BOX) {
        *w = shape->size.x, *h = shape->size.y;
    } else {
        *w = cw_mask_width(shape->mask), *h = cw_mask_height(shape->mask);
    }
}

// ---------------------------------------------------------------------------------------------------
// Exact arithmetic checks (error-free transformations).

// s = a + b; true iff the sum is exact (Knuth's TwoSum error term is zero).
static bool sum_exact(double a, double b, double *s)
{
    *s = a + b;
    double bb = *s - a;
    return (a - (*s - bb)) + (b - bb) == 0;
}

static bool product_exact(double a, double b, double *p)
{
    *p = a * b;
    return fma(a, b, -*p) == 0;
}

// Under a quarter turn, local axis `axis` (0: u, 1: v) moves one world axis only, by `coef` = +-1.
static void axis_map(const frame *f, int axis, int *world_axis, double *coef)
{
    if (axis == 0) {
        *world_axis = f->c != 0 ? 0 : 1;
        *coef = f->c != 0 ? f->c : f->s;
    } else {
        *world_axis = f->c != 0 ? 1 : 0;
        *coef = f->c != 0 ? f->c : -f->s;
    }
}

// The exact world coordinate of local value `k` on `axis` (quarter turns only); false if inexact.
static bool exact_axis_world(const frame *f, int axis, double k, double *out)
{
    int wa;
    double coef, d, m;
    axis_map(f, axis, &wa, &coef);
    double o = axis ? f->oy : f->ox, sc = axis ? f->sy : f->sx, pos = wa ? f->py : f->px;
    if (!sum_exact(k, -o, &d) || !product_exact(d, sc, &m))
        return false;
    return sum_exact(pos, coef * m, out);
}

// Whether the world point (wx, wy) has local coordinate exactly `k` on `axis`.
static bool on_line(const frame *f, int axis, double k, double wx, double wy)
{
    if (!f->quarter)
        return false;
    int wa;
    double coef, w;
    axis_map(f, axis, &wa, &coef);
    return exact_axis_world(f, axis, k, &w) && w == (wa ? wy : wx);
}

bool qr_exact_world(const cw_transform *transform, double lx, double ly, cw_vec2 *out)
{
    frame f = make_frame(transform);
    if (!f.quarter)
        return false;
    double w[2], wu, wv, cu, cv;
    int au, av;
    axis_map(&f, 0, &au, &cu);
    axis_map(&f, 1, &av, &cv);
    if (!exact_axis_world(&f, 0, lx, &wu) || !exact_axis_world(&f, 1, ly, &wv))
        return false;
    w[au] = wu, w[av] = wv;
    if ((double)(float)w[0] != w[0] || (double)(float)w[1] != w[1])
        return false;
    *out = (cw_vec2){(float)w[0], (float)w[1]};
    return true;
}

// The edge line nearest to `value` on `axis`: an integer for masks, 0 or the size for boxes.
static double nearest_line(const cw_shape *shape, double w, double h, int axis, double value)
{
    if (shape->type == CW_SHAPE_MASK)
        return nearbyint(value);
    double size = axis ? h : w;
    return fabs(value) <= fabs(value - size) ? 0.0 : size;
}

// ---------------------------------------------------------------------------------------------------
// Points.

// The half-open rule at exact local coordinates.
static bool covers(const cw_shape *shape, double w, double h, double u, double v)
{
    if (!(u >= 0 && v >= 0 && u < w && v < h))
        return false;
    if (shape->type == CW_SHAPE_BOX)
        return true;
    return cw_mask_get(shape->mask, (int)floor(u), (int)floor(v));
}

qr_answer qr_contains_point(const cw_shape *shape, const cw_transform *transform, cw_vec2 point)
{
    frame f = make_frame(transform);
    double w, h, l[2];
    qr_shape_size(shape, &w, &h);
    to_local(&f, point.x, point.y, &l[0], &l[1]);
    bool near[2];
    for (int a = 0; a < 2; a++) {
        double k = nearest_line(shape, w, h, a, l[a]);
        near[a] = false;
        if (fabs(l[a] - k) < QR_EPS) {
            if (on_line(&f, a, k, point.x, point.y))
                l[a] = k; // exactly on the line: the half-open rule decides
            else
                near[a] = true;
        }
    }
    bool first = covers(shape, w, h, l[0], l[1]);
    for (int du = -1; du <= 1; du++)
        for (int dv = -1; dv <= 1; dv++) {
            if ((du && !near[0]) || (dv && !near[1]))
                continue;
            if (covers(shape, w, h, l[0] + du * QR_EPS, l[1] + dv * QR_EPS) != first)
                return QR_UNSURE;
        }
    return first ? QR_YES : QR_NO;
}

// ---------------------------------------------------------------------------------------------------
// Rays: the exact walk along an edge line.

static bool mask_opaque(const cw_shape *shape, int axis, int k, int j)
{
    return axis == 0 ? cw_mask_get(shape->mask, k, j) : cw_mask_get(shape->mask, j, k);
}

// Whether row j along line `axis` = k lies in the interior: opaque texels on both sides.
static bool interior_row(const cw_shape *shape, int axis, int k, int j)
{
    return shape->type == CW_SHAPE_MASK && mask_opaque(shape, axis, k - 1, j) && mask_opaque(shape, axis, k, j);
}

// Whether b is within the tolerance of the start or end of a run of interior rows.
static bool near_run_edge(const cw_shape *shape, int axis, int k, int rows, double b)
{
    double j = nearbyint(b);
    if (!(j >= 0 && j <= rows && fabs(b - j) < QR_EPS))
        return false;
    bool before = j >= 1 && interior_row(shape, axis, k, (int)j - 1);
    bool after = j < rows && interior_row(shape, axis, k, (int)j);
    return before != after;
}

static void set_hit(qr_ray *out, const double o[2], const double d[2], double t, const double n[2])
{
    out->status = QR_YES;
    out->fraction = t;
    out->point[0] = o[0] + t * d[0], out->point[1] = o[1] + t * d[1];
    out->normal[0] = n[0], out->normal[1] = n[1];
}

static void minus_direction(const double d[2], double n[2])
{
    double len = hypot(d[0], d[1]);
    n[0] = -d[0] / len, n[1] = -d[1] / len;
}


// The segment lies exactly on line `axis` = k; b0 -> b1 is its other local coordinate.
static void walk_line(const cw_shape *shape, int rows, int axis, int k, double b0, double b1, const double o[2],
                      const double d[2], qr_ray *out)
{
    out->exact = true;
    out->status = QR_NO;
    if (shape->type != CW_SHAPE_MASK)
        return; // a box edge has the outside on one side: only a graze
    if (near_run_edge(shape, axis, k, rows, b0) || near_run_edge(shape, axis, k, rows, b1)) {
        out->status = QR_UNSURE; // starts or ends where a run of interior edges starts or ends
        out->lower = 0;
        return;
    }
    double n[2];
    minus_direction(d, n);
    int j0 = (int)floor(b0);
    if (j0 >= 0 && j0 < rows && interior_row(shape, axis, k, j0)) {
        out->inside = true;
        set_hit(out, o, d, 0, n);
        return;
    }
    if (b1 > b0) {
        for (int j = j0 + 1 < 0 ? 0 : j0 + 1; j < rows && j < b1; j++)
            if (interior_row(shape, axis, k, j)) {
                set_hit(out, o, d, (j - b0) / (b1 - b0), n);
                return;
            }
    } else {
        for (int j = j0 - 1 >= rows ? rows - 1 : j0 - 1; j >= 0 && j + 1 > b1; j--)
            if (interior_row(shape, axis, k, j)) {
                set_hit(out, o, d, (b0 - (j + 1)) / (b0 - b1), n);
                return;
            }
    }
}

// If the segment lies exactly on an edge line of the shape (quarter turns only), walks it.
static bool exact_line_ray(const frame *f, const cw_shape *shape, double w, double h, const double o[2],
                           const double d[2], const double l0[2], const double l1[2], qr_ray *out)
{
    double e[2];
    if (!f->quarter || !sum_exact(o[0], d[0], &e[0]) || !sum_exact(o[1], d[1], &e[1]))
        return false;
    for (int a = 0; a < 2; a++) {
        double k = nearest_line(shape, w, h, a, l0[a]);
        if (fabs(l0[a] - k) > 0.25 || fabs(l1[a] - k) > 0.25)
            continue;
        if (!on_line(f, a, k, o[0], o[1]) || !on_line(f, a, k, e[0], e[1]))
            continue;
        int rows = (int)(a == 0 ? h : w);
        walk_line(shape, shape->type == CW_SHAPE_MASK ? rows : 1, a, (int)k, l0[1 - a], l1[1 - a], o, d, out);
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------------
// Rays: clipping against every opaque texel's quad.

typedef struct quad {
    double x[4], y[4];   // world corners in order around the cell
    double nx[4], ny[4]; // outward unit normal of edge k (corner k to corner k + 1)
} quad;

static void quad_make(const frame *f, double x0, double y0, double x1, double y1, quad *q)
{
    const double lx[4] = {x0, x1, x1, x0}, ly[4] = {y0, y0, y1, y1};
    double cx = 0, cy = 0;
    for (int k = 0; k < 4; k++) {
        to_world(f, lx[k], ly[k], &q->x[k], &q->y[k]);
        cx += q->x[k] / 4, cy += q->y[k] / 4;
    }
    for (int k = 0; k < 4; k++) {
        int k1 = (k + 1) % 4;
        double ex = q->x[k1] - q->x[k], ey = q->y[k1] - q->y[k], len = hypot(ex, ey);
        double nx = ey / len, ny = -ex / len;
        if (nx * (cx - q->x[k]) + ny * (cy - q->y[k]) > 0) // point it away from the centre
            nx = -nx, ny = -ny;
        q->nx[k] = nx, q->ny[k] = ny;
    }
}

typedef struct clip {
    bool hit, inside;
    double entry;
    int edge;
} clip;

// The segment against the open quad grown by `grow` world units (shrunk if negative).
static clip clip_quad(const quad *q, const double o[2], const double d[2], double grow)
{
    clip r = {false, false, 0, -1};
    double lo = -INFINITY, hi = INFINITY;
    for (int k = 0; k < 4; k++) {
        double c = q->nx[k] * (o[0] - q->x[k]) + q->ny[k] * (o[1] - q->y[k]);
        double a = q->nx[k] * d[0] + q->ny[k] * d[1], b = grow - c; // need c + t a < grow
        if (a == 0) {
            if (!(0 < b))
                return r;
        } else if (a < 0) {
            if (b / a > lo)
                lo = b / a, r.edge = k;
        } else if (b / a < hi) {
            hi = b / a;
        }
    }
    if (!(lo < hi && lo < 1 && hi > 0))
        return r;
    r.hit = true;
    r.inside = lo < 0;
    r.entry = lo < 0 ? 0 : lo;
    return r;
}

typedef struct sweep {
    double grow;               // world tolerance
    bool any_grown, any_shrunk, inside_grown, inside_shrunk;
    double t_grown, t_shrunk;  // smallest entries
    bool any;                  // nominal
    clip best;
    quad best_quad;
} sweep;

static void sweep_quad(sweep *s, const quad *q, const double o[2], const double d[2])
{
    clip g = clip_quad(q, o, d, s->grow);
    if (!g.hit)
        return;
    if (!s->any_grown || g.entry < s->t_grown)
        s->t_grown = g.entry;
    s->any_grown = true;
    s->inside_grown |= g.inside;
    clip c = clip_quad(q, o, d, -s->grow);
    if (c.hit) {
        if (!s->any_shrunk || c.entry < s->t_shrunk)
            s->t_shrunk = c.entry;
        s->any_shrunk = true;
        s->inside_shrunk |= c.inside;
    }
    clip n = clip_quad(q, o, d, 0);
    if (n.hit && (!s->any || n.entry < s->best.entry)) {
        s->any = true;
        s->best = n;
        s->best_quad = *q;
    }
}

// Every opaque texel whose centre is within one texel of the local line, in the segment's box.
static void sweep_mask(sweep *s, const frame *f, const cw_shape *shape, const double o[2], const double d[2],
                       const double l0[2], const double l1[2])
{
    int w = cw_mask_width(shape->mask), h = cw_mask_height(shape->mask);
    double dx = l1[0] - l0[0], dy = l1[1] - l0[1], len = hypot(dx, dy);
    int i0 = (int)fmax(0, floor(fmin(l0[0], l1[0])) - 1), i1 = (int)fmin(w - 1, floor(fmax(l0[0], l1[0])) + 1);
    int j0 = (int)fmax(0, floor(fmin(l0[1], l1[1])) - 1), j1 = (int)fmin(h - 1, floor(fmax(l0[1], l1[1])) + 1);
    for (int j = j0; j <= j1; j++)
        for (int i = i0; i <= i1; i++) {
            double cross = dx * (j + 0.5 - l0[1]) - dy * (i + 0.5 - l0[0]);
            if (fabs(cross) > len || !cw_mask_get(shape->mask, i, j))
                continue;
            quad q;
            quad_make(f, i, j, i + 1, j + 1, &q);
            sweep_quad(s, &q, o, d);
        }
}

// An entry within the tolerance of another entering edge of the same quad: a corner.
static void corner_check(const sweep *s, const double o[2], const double d[2], qr_ray *out)
{
    const quad *q = &s->best_quad;
    double px = o[0] + s->best.entry * d[0], py = o[1] + s->best.entry * d[1];
    for (int k = 0; k < 4; k++) {
        double a = q->nx[k] * d[0] + q->ny[k] * d[1];
        double c = q->nx[k] * (px - q->x[k]) + q->ny[k] * (py - q->y[k]);
        if (k != s->best.edge && a < 0 && c > -s->grow) {
            out->corner = true;
            out->normal_alt[0] = q->nx[k], out->normal_alt[1] = q->ny[k];
        }
    }
}

static void sweep_decide(const sweep *s, const double o[2], const double d[2], qr_ray *out)
{
    double len = hypot(d[0], d[1]);
    out->lower = s->any_grown ? s->t_grown : 2;
    if (!s->any_grown) {
        out->status = QR_NO;
        return;
    }
    out->status = QR_UNSURE;
    if (!s->any_shrunk || !s->any || (s->t_shrunk - s->t_grown) * len > QR_SURE * fmax(len, 1))
        return; // a graze, or an entry that moves with the tolerance
    if (s->inside_grown != s->inside_shrunk || s->best.inside != s->inside_shrunk)
        return; // starts on an edge
    double n[2];
    if (s->best.inside) {
        minus_direction(d, n);
        out->inside = true;
    } else {
        n[0] = s->best_quad.nx[s->best.edge], n[1] = s->best_quad.ny[s->best.edge];
        corner_check(s, o, d, out);
    }
    set_hit(out, o, d, s->best.entry, n);
}

void qr_raycast(const cw_shape *shape, const cw_transform *transform, cw_vec2 origin, cw_vec2 translation,
                qr_ray *out)
{
    memset(out, 0, sizeof *out);
    frame f = make_frame(transform);
    double w, h, l0[2], l1[2];
    qr_shape_size(shape, &w, &h);
    const double o[2] = {origin.x, origin.y}, d[2] = {translation.x, translation.y};
    to_local(&f, o[0], o[1], &l0[0], &l0[1]);
    to_local(&f, o[0] + d[0], o[1] + d[1], &l1[0], &l1[1]);
    if (exact_line_ray(&f, shape, w, h, o, d, l0, l1, out))
        return;
    sweep s;
    memset(&s, 0, sizeof s);
    double magnitude = fabs(o[0]) + fabs(o[1]) + fabs(d[0]) + fabs(d[1]) + fabs(f.px) + fabs(f.py);
    s.grow = QR_EPS * fmax(fabs(f.sx), fabs(f.sy)) + 1e-13 * magnitude;
    if (shape->type == CW_SHAPE_BOX) {
        quad q;
        quad_make(&f, 0, 0, w, h, &q);
        sweep_quad(&s, &q, o, d);
    } else {
        sweep_mask(&s, &f, shape, o, d, l0, l1);
    }
    sweep_decide(&s, o, d, out);
}
