// Transforms and shapes: defaults, validation, and the maps between local spaces.
#include "internal.h"

#include <math.h>
#include <string.h>

cw_transform cw_default_transform(void)
{
    return (cw_transform){.position = {0, 0}, .rotation = 0, .scale = {1, 1}, .origin = {0, 0}};
}

cw_shape cw_shape_box(float width, float height)
{
    return (cw_shape){.type = CW_SHAPE_BOX, .size = {width, height}, .mask = NULL};
}

cw_shape cw_shape_mask(const cw_mask *mask)
{
    cw_shape shape = {.type = CW_SHAPE_MASK, .size = {0, 0}, .mask = mask};
    if (mask != NULL)
        shape.size = (cw_vec2){(float)mask->width, (float)mask->height};
    return shape;
}

// A relative rotation that is zero or a quarter turn up to rounding (two equal float rotations
// give sin exactly 0 but cos 1 - 1e-16) becomes exact, so the map is a pure translation or swap.
static void snap(double *c, double *s)
{
    if (fabs(*s) < 1e-12) {
        *s = 0.0;
        *c = *c < 0 ? -1.0 : 1.0;
    } else if (fabs(*c) < 1e-12) {
        *c = 0.0;
        *s = *s < 0 ? -1.0 : 1.0;
    }
}

// The spacing of floats at x's magnitude (its unit in the last place), from the exponent bits.
static double float_ulp(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    int exponent = (int)((bits >> 23) & 0xff);
    uint64_t as_double = (uint64_t)(exponent > 0 ? exponent - 150 + 1023 : 1023 - 149) << 52;
    double ulp;
    memcpy(&ulp, &as_double, sizeof ulp);
    return ulp;
}

// Cosine and sine of a float rotation to double precision, about five times faster than two libm
// calls: reduce by multiples of pi/2 (pi/2 split in two parts so k * part1 is exact), then Taylor
// series on [-pi/4, pi/4], where the next terms are below 1e-18. A rotation that is the float
// nearest a multiple of 90 degrees (float pi/2 is 4e-8 rad short of the real one) is taken as that
// exact multiple, so a sprite turned by a float pi/2 stays on the texel grid; anything further
// away, however little, is kept as given. Beyond 1e5 rad: libm, as given.
static void float_cos_sin(float angle, double *c, double *s)
{
    double x = angle;
    if (angle == 0.0f || !(fabs(x) < 1e5)) { // the common unrotated sprite needs no trigonometry
        *c = angle == 0.0f ? 1.0 : cos(x);
        *s = angle == 0.0f ? 0.0 : sin(x);
        return;
    }
    const double pio2_hi = 1.5707963267341256e+00, pio2_lo = 6.0771005065061922e-11;
    int k = (int)(x * 0.63661977236758134 + (x < 0 ? -0.5 : 0.5));
    double r = (x - k * pio2_hi) - k * pio2_lo;
    if (fabs(r) <= float_ulp(angle))
        r = 0;
    double r2 = r * r;
    double sr = r * (1 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 * (1.0 / 362880 +
                r2 * (-1.0 / 39916800 + r2 * (1.0 / 6227020800 + r2 * (-1.0 / 1307674368000.0))))))));
    double cr = 1 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40320 + r2 * (-1.0 / 3628800 +
                r2 * (1.0 / 479001600 + r2 * (-1.0 / 87178291200.0 + r2 * (1.0 / 20922789888000.0))))))));
    switch (k & 3) {
    case 0: *c = cr, *s = sr; break;
    case 1: *c = -sr, *s = cr; break;
    case 2: *c = -cr, *s = -sr; break;
    default: *c = sr, *s = -cr; break;
    }
}

// The box's centre is its unit texel's centre; the tolerance is 1e-6 local units of its smaller scale.
static cw__obb box_obb(const cw__body *box)
{
    const cw__xf *xf = &box->xf;
    cw__obb o;
    cw__to_world(xf, 0.5, 0.5, 0, 0, &o.cx, &o.cy);
    o.ux = 0.5 * xf->c * xf->sx, o.uy = 0.5 * xf->s * xf->sx;
    o.vx = -0.5 * xf->s * xf->sy, o.vy = 0.5 * xf->c * xf->sy;
    o.c = xf->c, o.s = xf->s;
    o.tolerance = cw__min(fabs(xf->sx) * box->eps_x, fabs(xf->sy) * box->eps_y);
    return o;
}

static bool transform_is_valid(const cw_transform *t)
{
    if (!cw__transform_is_finite(t)) {
        cw__fail("The transform has a non-finite position, rotation, scale or origin.");
        return false;
    }
    if (t->scale.x == 0.0f || t->scale.y == 0.0f) {
        cw__fail("The transform has a zero scale.");
        return false;
    }
    return true;
}

static bool shape_is_valid(const cw_shape *shape)
{
    switch (shape->type) {
    case CW_SHAPE_BOX:
        if (!(shape->size.x > 0 && shape->size.y > 0 && isfinite(shape->size.x) && isfinite(shape->size.y))) {
            cw__fail("A box needs a finite width and height greater than zero.");
            return false;
        }
        return true;
    case CW_SHAPE_MASK:
        if (shape->mask == NULL) {
            cw__fail("The mask shape has a NULL mask.");
            return false;
        }
        return true;
    default:
        cw__fail("The shape type is unknown: use CW_SHAPE_BOX or CW_SHAPE_MASK.");
        return false;
    }
}

bool cw__prepare(const cw_shape *shape, const cw_transform *t, cw__body *out)
{
    if (shape == NULL || t == NULL) {
        cw__fail(shape == NULL ? "The shape is NULL." : "The transform is NULL.");
        return false;
    }
    if (!shape_is_valid(shape) || !transform_is_valid(t))
        return false;
    double c, s;
    float_cos_sin(t->rotation, &c, &s);
    cw__prepare_rotated(shape, t, c, s, out);
    return true;
}

void cw__prepare_rotated(const cw_shape *shape, const cw_transform *t, double c, double s, cw__body *out)
{
    cw__xf *xf = &out->xf;
    xf->px = t->position.x;
    xf->py = t->position.y;
    xf->c = c;
    xf->s = s;
    xf->sx = t->scale.x;
    xf->sy = t->scale.y;
    xf->ox = t->origin.x;
    xf->oy = t->origin.y;
    out->scale_x = t->scale.x, out->scale_y = t->scale.y, out->origin_x = t->origin.x, out->origin_y = t->origin.y;
    out->is_box = shape->type == CW_SHAPE_BOX;
    if (out->is_box) {
        // A box is the unit texel stretched to its size: scale by the size, origin in box fractions.
        out->mask = &cw__unit_mask;
        out->w = shape->size.x;
        out->h = shape->size.y;
        xf->sx *= out->w;
        xf->sy *= out->h;
        xf->ox /= out->w;
        xf->oy /= out->h;
    } else {
        out->mask = shape->mask;
        out->w = shape->mask->width;
        out->h = shape->mask->height;
    }
    out->eps_x = out->is_box ? CW__EPS / out->w : CW__EPS;
    out->eps_y = out->is_box ? CW__EPS / out->h : CW__EPS;
    out->inner_x = 0.5 - out->eps_x;
    out->inner_y = 0.5 - out->eps_y;
    xf->inv_sx = 1.0 / xf->sx;
    xf->inv_sy = 1.0 / xf->sy;
    if (out->is_box)
        out->obb = box_obb(out);
}

cw__map cw__map_between(const cw__body *from, const cw__body *to)
{
    const cw__xf *a = &from->xf, *b = &to->xf;
    // The rotation of `from` relative to `to`; equal rotations give exactly the identity.
    double cr = a->c * b->c + a->s * b->s, sr = a->s * b->c - a->c * b->s;
    snap(&cr, &sr);
    cw__map m;
    if (cr == 1 && sr == 0 && a->sx == b->sx && a->sy == b->sy) {
        // Same rotation and scale: a translation, its offset summed so that equal pivots cancel
        // exactly, and as cw_overlap()'s unrotated path sums it (both must give the same answer).
        double dx = a->px - b->px, dy = a->py - b->py;
        double lx = b->c * dx + b->s * dy, ly = -b->s * dx + b->c * dy;
        m.ux = 1, m.uy = 0, m.vx = 0, m.vy = 1;
        m.ox = lx / b->sx - a->ox + b->ox;
        m.oy = ly / b->sy - a->oy + b->oy;
        return m;
    }
    m.ux = cr * a->sx * b->inv_sx;
    m.uy = sr * a->sx * b->inv_sy;
    m.vx = -sr * a->sy * b->inv_sx;
    m.vy = cr * a->sy * b->inv_sy;
    // Local origin of `from`: world offset from `to`'s position, rotated into `to`'s frame.
    double dx = a->px - b->px, dy = a->py - b->py;
    double qx = -a->ox * a->sx, qy = -a->oy * a->sy;
    double wx = b->c * dx + b->s * dy + cr * qx - sr * qy;
    double wy = -b->s * dx + b->c * dy + sr * qx + cr * qy;
    m.ox = wx * b->inv_sx + b->ox;
    m.oy = wy * b->inv_sy + b->oy;
    return m;
}


// The float one step toward -inf (+inf with up) from finite f, by its bit pattern.
static float float_step(float f, bool up)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if (f == 0.0f)
        bits = up ? 1u : 0x80000001u; // the smallest subnormal of the wanted sign
    else
        bits += ((f > 0.0f) == up) ? 1u : (uint32_t)-1;
    memcpy(&f, &bits, sizeof f);
    return f;
}

float cw__float_down(double x)
{
    float f = (float)x;
    return (double)f > x && isfinite(f) ? float_step(f, false) : f;
}

float cw__float_up(double x)
{
    float f = (float)x;
    return (double)f < x && isfinite(f) ? float_step(f, true) : f;
}

// cw__rounding() of a body whose linear map (xx xy; yx yy) is already at hand.
static inline double placement_rounding(const cw__body *body, double xx, double xy, double yx, double yy)
{
    const cw__xf *xf = &body->xf;
    double reach_x = fabs(xf->ox) + (body->is_box ? 1 : body->mask->width);
    double reach_y = fabs(xf->oy) + (body->is_box ? 1 : body->mask->height);
    return cw__rounding(xf->px, xf->py, xx, xy, yx, yy, reach_x, reach_y);
}

cw_aabb cw__body_aabb(const cw__body *body)
{
    const cw_mask *m = body->mask;
    const cw__xf *xf = &body->xf;
    if (m->count == 0) { // nothing covered: a point, so that it is still somewhere sensible
        cw_vec2 at = {(float)xf->px, (float)xf->py};
        return (cw_aabb){at, at};
    }
    // Each corner of the hull (a box's four, or the mask's opaque hull) is mapped relative to the
    // origin and the position added last: a corner at the origin lands exactly on the position, and
    // a huge shape loses no precision near its pivot (centre plus or minus half extents would).
    const double xx = xf->c * xf->sx, xy = -xf->s * xf->sy, yx = xf->s * xf->sx, yy = xf->c * xf->sy;
    double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
    if (body->is_box) { // the unit square's corners: each axis's extremes are sums of per-edge extremes
        double ax0 = -xf->ox, ax1 = 1 - xf->ox, ay0 = -xf->oy, ay1 = 1 - xf->oy;
        lo_x = cw__min(xx * ax0, xx * ax1) + cw__min(xy * ay0, xy * ay1);
        hi_x = cw__max(xx * ax0, xx * ax1) + cw__max(xy * ay0, xy * ay1);
        lo_y = cw__min(yx * ax0, yx * ax1) + cw__min(yy * ay0, yy * ay1);
        hi_y = cw__max(yx * ax0, yx * ax1) + cw__max(yy * ay0, yy * ay1);
    }
    for (int i = 0; i < m->hull_count && !body->is_box; i++) {
        double hx = m->hull[2 * i] - xf->ox, hy = m->hull[2 * i + 1] - xf->oy;
        double wx = xx * hx + xy * hy, wy = yx * hx + yy * hy;
        lo_x = cw__min(lo_x, wx);
        lo_y = cw__min(lo_y, wy);
        hi_x = cw__max(hi_x, wx);
        hi_y = cw__max(hi_y, wy);
    }
    // Where rounding may reach the touching tolerance (far beyond moderate placements: say a pivot
    // 1e30 away, cancelled by the position), the bounds may be off by that much: widen them so that
    // they hold whatever the exact tests could find. Elsewhere they stay tight.
    double rounding = placement_rounding(body, xx, xy, yx, yy);
    double slack = 4 * rounding >= cw__body_tolerance(body) ? rounding : 0;
    return (cw_aabb){{cw__float_down(lo_x + xf->px - slack), cw__float_down(lo_y + xf->py - slack)},
                     {cw__float_up(hi_x + xf->px + slack), cw__float_up(hi_y + xf->py + slack)}};
}

double cw__body_rounding(const cw__body *body)
{
    const cw__xf *xf = &body->xf;
    return placement_rounding(body, xf->c * xf->sx, -xf->s * xf->sy, xf->s * xf->sx, xf->c * xf->sy);
}

bool cw_shape_aabb(const cw_shape *shape, const cw_transform *transform, cw_aabb *aabb)
{
    cw__body body;
    if (aabb == NULL) {
        cw__fail("The AABB output pointer is NULL.");
        return false;
    }
    if (!cw__prepare(shape, transform, &body))
        return false;
    *aabb = cw__body_aabb(&body);
    return true;
}
