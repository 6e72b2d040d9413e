// Point and ray tests against one shape: the texel under a point (half-open texels), and the first
// opaque texel a segment enters, walked texel by texel in the shape's local space.
#include "internal.h"

#include <math.h>

// Local coordinates of a world point in shape units (texels, or the box's own units): divided by
// the scale as given, not multiplied by a reciprocal, so that points on texel or box edges land on
// them exactly whenever the arithmetic allows (a third is not a double).
void cw__to_local(const cw__body *body, double wx, double wy, double *lx, double *ly)
{
    const cw__xf *xf = &body->xf;
    double dx = wx - xf->px, dy = wy - xf->py;
    *lx = (xf->c * dx + xf->s * dy) / body->scale_x + body->origin_x;
    *ly = (xf->c * dy - xf->s * dx) / body->scale_y + body->origin_y;
}

bool cw__body_contains(const cw__body *body, double wx, double wy)
{
    double lx, ly;
    cw__to_local(body, wx, wy, &lx, &ly);
    if (body->is_box)
        return lx >= 0 && lx < cw__body_width(body) && ly >= 0 && ly < cw__body_height(body);
    double i = floor(lx), j = floor(ly);
    if (!(i >= 0 && j >= 0 && i < body->mask->width && j < body->mask->height))
        return false; // also NaN
    return cw__texel(body->mask, (int)i, (int)j);
}

// A segment in a shape's local (texel) space: the point at fraction t is (x + t dx, y + t dy).
typedef struct local_ray {
    double x, y, dx, dy;
} local_ray;

// The fractions for which the segment's line is strictly between lo and hi on one axis.
static bool clip_to_slab(double start, double direction, double lo, double hi, double *t0, double *t1)
{
    if (direction == 0) {
        *t0 = -INFINITY, *t1 = INFINITY;
        return start > lo && start < hi;
    }
    double a = (lo - start) / direction, b = (hi - start) / direction;
    *t0 = a < b ? a : b, *t1 = a < b ? b : a;
    return true;
}

// Where the segment's line is inside the open rectangle: (t_in, t_out), and which axis it enters
// across (0: x, 1: y). False if it never is.
static bool rect_interval(const local_ray *r, double x0, double y0, double x1, double y1, double *t_in,
                          double *t_out, int *axis)
{
    double ax, bx, ay, by;
    if (!clip_to_slab(r->x, r->dx, x0, x1, &ax, &bx) || !clip_to_slab(r->y, r->dy, y0, y1, &ay, &by))
        return false;
    *axis = ax >= ay ? 0 : 1;
    *t_in = ax >= ay ? ax : ay;
    *t_out = bx <= by ? bx : by;
    return *t_in < *t_out;
}

// The earliest entry into an opaque texel's interior within fractions [t_lo, t_hi), walking the
// texels the segment passes from t_lo on. Cells are visited in order of entry; near a corner the
// two side cells are tried too, so rounding cannot make the walk skip a texel the segment crosses.
typedef struct walk_hit {
    double t;
    int axis; // entered across an x edge (0), a y edge (1), or started inside (-1)
} walk_hit;

// For a segment that starts on texel (i, j)'s edge and goes in: whether the texel behind that edge
// is opaque too, so that the start is inside the covered region rather than on its outline.
static bool opaque_behind(const cw_mask *m, const local_ray *r, int i, int j, int axis)
{
    return axis == 0 ? cw__texel(m, r->dx > 0 ? i - 1 : i + 1, j) : cw__texel(m, i, r->dy > 0 ? j - 1 : j + 1);
}

static void try_texel(const cw_mask *m, const local_ray *r, int i, int j, double t_lo, double t_hi, walk_hit *best)
{
    double t_in, t_out;
    int axis;
    if (!cw__texel(m, i, j) || !rect_interval(r, i, j, i + 1.0, j + 1.0, &t_in, &t_out, &axis))
        return;
    double from = t_in > t_lo ? t_in : t_lo, to = t_out < t_hi ? t_out : t_hi;
    if (from < to && from < best->t) {
        best->t = from;
        best->axis = t_in < t_lo || (t_in == t_lo && opaque_behind(m, r, i, j, axis)) ? -1 : axis;
    }
}

static int start_cell(double p, double direction)
{
    double f = floor(p);
    return (int)(p == f && direction < 0 ? f - 1 : f); // on an edge: the cell the segment goes into
}

// Whether the two texels on either side of a grid line are opaque: texels (k - 1, j) and (k, j)
// for the vertical line x = k, or (j, k - 1) and (j, k) for the horizontal line y = k.
static bool both_sides(const cw_mask *m, bool vertical, int k, int j)
{
    return vertical ? cw__texel(m, k - 1, j) && cw__texel(m, k, j) : cw__texel(m, j, k - 1) && cw__texel(m, j, k);
}

// A segment lying exactly on a grid line is in the covered region's interior where the texels on
// both sides are opaque (a shared edge of two opaque texels is inside their union); it enters that
// interior across the edge between two such rows (or columns), or starts inside.
static bool walk_line(const cw_mask *m, bool vertical, int k, double start, double direction, double t_lo,
                      double t_hi, walk_hit *hit)
{
    int first = vertical ? m->y0 : m->x0, last = vertical ? m->y1 : m->x1; // rows [first, last)
    hit->t = INFINITY;
    for (int j = first; j < last; j++) {
        if (!both_sides(m, vertical, k, j))
            continue;
        double t0, t1;
        clip_to_slab(start, direction, j, j + 1.0, &t0, &t1);
        double from = t0 > t_lo ? t0 : t_lo, to = t1 < t_hi ? t1 : t_hi;
        if (from < to && from < hit->t) {
            hit->t = from;
            hit->axis = t0 > t_lo ? (vertical ? 1 : 0) : -1;
        }
    }
    return hit->t < INFINITY;
}

static bool walk_texels(const cw_mask *m, const local_ray *r, double t_lo, double t_hi, walk_hit *hit)
{
    if (r->dx == 0 && r->x == floor(r->x) && fabs(r->x) < INT32_MAX)
        return walk_line(m, true, (int)r->x, r->y, r->dy, t_lo, t_hi, hit);
    if (r->dy == 0 && r->y == floor(r->y) && fabs(r->y) < INT32_MAX)
        return walk_line(m, false, (int)r->y, r->x, r->dx, t_lo, t_hi, hit);
    double enter, leave;
    int axis;
    if (m->count == 0 || !rect_interval(r, m->x0, m->y0, m->x1, m->y1, &enter, &leave, &axis))
        return false;
    double t = enter > t_lo ? enter : t_lo, end = leave < t_hi ? leave : t_hi;
    if (!(t < end))
        return false;
    int i = start_cell(r->x + t * r->dx, r->dx), j = start_cell(r->y + t * r->dy, r->dy);
    i = i < m->x0 ? m->x0 : i >= m->x1 ? m->x1 - 1 : i; // rounding at the bounds' edge
    j = j < m->y0 ? m->y0 : j >= m->y1 ? m->y1 - 1 : j;
    int step_i = r->dx > 0 ? 1 : -1, step_j = r->dy > 0 ? 1 : -1;
    double next_x = r->dx != 0 ? ((r->dx > 0 ? i + 1.0 : (double)i) - r->x) / r->dx : INFINITY;
    double next_y = r->dy != 0 ? ((r->dy > 0 ? j + 1.0 : (double)j) - r->y) / r->dy : INFINITY;
    double delta_x = r->dx != 0 ? 1.0 / fabs(r->dx) : INFINITY, delta_y = r->dy != 0 ? 1.0 / fabs(r->dy) : INFINITY;
    hit->t = INFINITY;
    for (;;) {
        try_texel(m, r, i, j, t_lo, t_hi, hit);
        double next = next_x < next_y ? next_x : next_y;
        if (!(next < end) || next > hit->t) // later cells are entered after the best hit
            break;
        if (fabs(next_x - next_y) <= 1e-9 * (fabs(next) + 1)) { // through a corner, up to rounding
            try_texel(m, r, i + step_i, j, t_lo, t_hi, hit);
            try_texel(m, r, i, j + step_j, t_lo, t_hi, hit);
        }
        if (next_x <= next_y)
            i += step_i, next_x += delta_x;
        else
            j += step_j, next_y += delta_y;
        if (i < m->x0 - 1 || i > m->x1 || j < m->y0 - 1 || j > m->y1)
            break;
    }
    return hit->t < INFINITY;
}

// A box is one rectangle in its own units: where the segment enters its open interior.
static bool enter_box(const cw__body *box, const local_ray *r, double limit, walk_hit *hit)
{
    double t_in, t_out;
    int axis;
    if (!rect_interval(r, 0, 0, cw__body_width(box), cw__body_height(box), &t_in, &t_out, &axis))
        return false;
    double from = t_in > 0 ? t_in : 0, to = t_out < limit ? t_out : limit;
    if (!(from < to))
        return false;
    hit->t = from;
    hit->axis = t_in >= 0 ? axis : -1; // starting on the outline enters through it
    return true;
}

bool cw__body_raycast(const cw__body *body, double ox, double oy, double dx, double dy, double limit,
                      cw__ray_result *out)
{
    const cw__xf *xf = &body->xf;
    local_ray r;
    cw__to_local(body, ox, oy, &r.x, &r.y);
    r.dx = (xf->c * dx + xf->s * dy) / body->scale_x;
    r.dy = (xf->c * dy - xf->s * dx) / body->scale_y;
    walk_hit hit;
    if (!(body->is_box ? enter_box(body, &r, limit, &hit) : walk_texels(body->mask, &r, 0.0, limit, &hit)))
        return false;
    out->fraction = hit.t;
    double length = sqrt(dx * dx + dy * dy);
    if (hit.axis < 0) { // started inside
        out->nx = -dx / length, out->ny = -dy / length;
        return true;
    }
    // The edge's normal in local space, facing the ray, taken to the world (normals transform with
    // the inverse transpose: divide by the scale, then rotate).
    double lx = hit.axis == 0 ? (r.dx > 0 ? -1.0 : 1.0) / body->scale_x : 0.0;
    double ly = hit.axis == 1 ? (r.dy > 0 ? -1.0 : 1.0) / body->scale_y : 0.0;
    double nx = xf->c * lx - xf->s * ly, ny = xf->s * lx + xf->c * ly, n = sqrt(nx * nx + ny * ny);
    out->nx = nx / n, out->ny = ny / n;
    return true;
}

static bool point_is_finite(cw_vec2 p, const char *what)
{
    if (isfinite(p.x) && isfinite(p.y))
        return true;
    cw__fail(what);
    return false;
}

bool cw_shape_contains_point(const cw_shape *shape, const cw_transform *transform, cw_vec2 point)
{
    cw__body body;
    if (!cw__prepare(shape, transform, &body) || !point_is_finite(point, "The point is not finite."))
        return false;
    return cw__body_contains(&body, point.x, point.y);
}

bool cw__ray_is_valid(cw_vec2 origin, cw_vec2 translation)
{
    if (!point_is_finite(origin, "The ray origin is not finite.") ||
        !point_is_finite(translation, "The ray translation is not finite."))
        return false;
    if (translation.x == 0 && translation.y == 0) {
        cw__fail("The ray has zero length.");
        return false;
    }
    return true;
}

bool cw_shape_raycast(const cw_shape *shape, const cw_transform *transform, cw_vec2 origin, cw_vec2 translation,
                      cw_ray_hit *hit)
{
    cw__body body;
    if (hit == NULL) {
        cw__fail("The hit output pointer is NULL.");
        return false;
    }
    if (!cw__prepare(shape, transform, &body) || !cw__ray_is_valid(origin, translation))
        return false;
    cw__ray_result result;
    if (!cw__body_raycast(&body, origin.x, origin.y, translation.x, translation.y, 1.0, &result))
        return false;
    *hit = cw__ray_hit_of(origin, translation, &result);
    return true;
}

cw_ray_hit cw__ray_hit_of(cw_vec2 origin, cw_vec2 translation, const cw__ray_result *result)
{
    cw_ray_hit hit;
    memset(&hit, 0, sizeof hit);
    hit.fraction = (float)result->fraction;
    hit.point = (cw_vec2){(float)(origin.x + result->fraction * translation.x),
                          (float)(origin.y + result->fraction * translation.y)};
    hit.normal = (cw_vec2){(float)result->nx, (float)result->ny};
    return hit;
}
