// Transforms and shapes: defaults, validation, and the maps between local spaces.
#include "internal.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
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

// The box's centre is its unit texel's centre; the tolerance is 1e-6 local units of its smaller scale.
static cw__obb box_obb(const cw__xf *xf, double eps_x, double eps_y)
{
    cw__obb o;
    cw__to_world(xf, 0.5, 0.5, 0, 0, &o.cx, &o.cy);
    o.ux = 0.5 * xf->c * xf->sx, o.uy = 0.5 * xf->s * xf->sx;
    o.vx = -0.5 * xf->s * xf->sy, o.vy = 0.5 * xf->c * xf->sy;
    o.c = xf->c, o.s = xf->s;
    o.tolerance = cw__min(fabs(xf->sx) * eps_x, fabs(xf->sy) * eps_y);
    return o;
}

// The frame of a shape's local space from its transform: position, rotation, scale and pivot; a
// box's size folded in (its unit texel stretched to the size, the pivot in box fractions).
static void frame_of(const cw_shape *shape, const cw_transform *t, double c, double s, cw__xf *xf)
{
    xf->px = t->position.x;
    xf->py = t->position.y;
    xf->c = c;
    xf->s = s;
    xf->sx = t->scale.x;
    xf->sy = t->scale.y;
    xf->ox = t->origin.x;
    xf->oy = t->origin.y;
    if (shape->type == CW_SHAPE_BOX) {
        double w = shape->size.x, h = shape->size.y;
        xf->sx *= w;
        xf->sy *= h;
        xf->ox /= w;
        xf->oy /= h;
    }
}

const char *cw__transform_fault(const cw_transform *t)
{
    if (!cw__transform_is_finite(t))
        return "has a non-finite position, rotation, scale or origin";
    if (t->scale.x == 0.0f || t->scale.y == 0.0f)
        return "has a zero scale";
    return NULL;
}

bool cw__transform_is_valid(const cw_transform *t)
{
    const char *fault = cw__transform_fault(t);
    if (fault != NULL)
        cw__failf("The transform %s.", fault);
    return fault == NULL;
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

// cw__prepare()'s checks (the error recorded is the first found).
static bool placement_is_valid(const cw_shape *shape, const cw_transform *t)
{
    if (shape == NULL || t == NULL) {
        cw__fail(shape == NULL ? "The shape is NULL." : "The transform is NULL.");
        return false;
    }
    return shape_is_valid(shape) && cw__transform_is_valid(t);
}

bool cw__prepare(const cw_shape *shape, const cw_transform *t, cw__body *out)
{
    if (!placement_is_valid(shape, t))
        return false;
    double c, s;
    cw__cos_sin(t->rotation, &c, &s);
    cw__prepare_rotated(shape, t, c, s, out);
    return true;
}

bool cw__prepare_pair(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                      cw__body *out_a, cw__body *out_b)
{
    if (!placement_is_valid(a, ta) || !placement_is_valid(b, tb))
        return false;
    double c[2], s[2];
    cw__cos_sin2(ta->rotation, tb->rotation, c, s);
    cw__prepare_rotated(a, ta, c[0], s[0], out_a);
    cw__prepare_rotated(b, tb, c[1], s[1], out_b);
    return true;
}

// The frame with its inverse scales.
static void full_frame_of(const cw_shape *shape, const cw_transform *t, double c, double s, cw__xf *xf)
{
    frame_of(shape, t, c, s, xf);
    xf->inv_sx = 1.0 / xf->sx;
    xf->inv_sy = 1.0 / xf->sy;
}

// What a body takes from its transform besides the frame: the transform's scale and pivot.
static void keep_scale_and_pivot(const cw_transform *t, cw__body *out)
{
    out->scale_x = t->scale.x, out->scale_y = t->scale.y, out->origin_x = t->origin.x, out->origin_y = t->origin.y;
}

void cw__prepare_rotated(const cw_shape *shape, const cw_transform *t, double c, double s, cw__body *out)
{
    full_frame_of(shape, t, c, s, &out->xf);
    keep_scale_and_pivot(t, out);
    out->is_box = shape->type == CW_SHAPE_BOX;
    out->mask = out->is_box ? &cw__unit_mask : shape->mask;
    out->eps_x = out->is_box ? CW__EPS / (double)shape->size.x : CW__EPS;
    out->eps_y = out->is_box ? CW__EPS / (double)shape->size.y : CW__EPS;
}

cw__obb cw__body_obb(const cw__body *box) { return box_obb(&box->xf, box->eps_x, box->eps_y); }

// The rotation of `from` relative to `to` as cw__map_between() takes it, snapped.
static void relative_rotation(const cw__xf *a, const cw__xf *b, double *cr, double *sr)
{
    *cr = a->c * b->c + a->s * b->s, *sr = a->s * b->c - a->c * b->s;
    snap(cr, sr);
}

// Whether `from` lands on `to` translated, or mirrored on an axis or both (same rotation, or half a
// turn apart, and scales of the same sizes), given the relative rotation.
static bool lands_translated(const cw__xf *a, const cw__xf *b, double cr, double sr)
{
    return sr == 0 && fabs(cr) == 1 && fabs(a->sx) == fabs(b->sx) && fabs(a->sy) == fabs(b->sy);
}

// The map of such a pair: a translation, its offset summed so that equal pivots cancel exactly, and
// as cw_overlap()'s unrotated path sums it (both must give the same answer): for two unrotated
// bodies it rounds to exactly the negated bits with the bodies swapped. A sign apart on an axis (one
// mirrored against the other), or half a turn apart (both axes turned round): the grid lands
// mirrored there, with that axis's pivot turned round, a sum that rounds to the same bits either
// way round.
static cw__map translation_map(const cw__xf *a, const cw__xf *b, double cr)
{
    cw__map m;
    double dx = a->px - b->px, dy = a->py - b->py;
    double lx = b->c * dx + b->s * dy, ly = -b->s * dx + b->c * dy;
    bool flip_x = (a->sx != b->sx) != (cr < 0), flip_y = (a->sy != b->sy) != (cr < 0);
    m.ux = flip_x ? -1 : 1, m.uy = 0, m.vx = 0, m.vy = flip_y ? -1 : 1;
    m.ox = lx / b->sx + (flip_x ? b->ox + a->ox : b->ox - a->ox);
    m.oy = ly / b->sy + (flip_y ? b->oy + a->oy : b->oy - a->oy);
    return m;
}

cw__map cw__map_between(const cw__body *from, const cw__body *to)
{
    const cw__xf *a = &from->xf, *b = &to->xf;
    // The rotation of `from` relative to `to`; equal rotations give exactly the identity.
    double cr, sr;
    relative_rotation(a, b, &cr, &sr);
    if (lands_translated(a, b, cr, sr))
        return translation_map(a, b, cr);
    cw__map m;
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


#if defined(__SSE2__)
// The two maps' general case in two lanes (lane 0: `from` to `to`; lane 1: back), each lane
// cw__map_between()'s operations in its order.
static void general_maps(const cw__xf *a, const cw__xf *b, double cr_there, double sr_there, double cr_back,
                         double sr_back, cw__map *there, cw__map *back)
{
    const __m128d sign = _mm_set1_pd(-0.0);
    const __m128d cr = _mm_setr_pd(cr_there, cr_back), sr = _mm_setr_pd(sr_there, sr_back);
    const __m128d from_sx = _mm_setr_pd(a->sx, b->sx), from_sy = _mm_setr_pd(a->sy, b->sy);
    const __m128d to_inv_sx = _mm_setr_pd(b->inv_sx, a->inv_sx), to_inv_sy = _mm_setr_pd(b->inv_sy, a->inv_sy);
    const __m128d ux = _mm_mul_pd(_mm_mul_pd(cr, from_sx), to_inv_sx), uy = _mm_mul_pd(_mm_mul_pd(sr, from_sx), to_inv_sy);
    const __m128d vx = _mm_mul_pd(_mm_mul_pd(_mm_xor_pd(sr, sign), from_sy), to_inv_sx);
    const __m128d vy = _mm_mul_pd(_mm_mul_pd(cr, from_sy), to_inv_sy);
    const __m128d dx = _mm_sub_pd(_mm_setr_pd(a->px, b->px), _mm_setr_pd(b->px, a->px));
    const __m128d dy = _mm_sub_pd(_mm_setr_pd(a->py, b->py), _mm_setr_pd(b->py, a->py));
    const __m128d qx = _mm_mul_pd(_mm_xor_pd(_mm_setr_pd(a->ox, b->ox), sign), from_sx);
    const __m128d qy = _mm_mul_pd(_mm_xor_pd(_mm_setr_pd(a->oy, b->oy), sign), from_sy);
    const __m128d to_c = _mm_setr_pd(b->c, a->c), to_s = _mm_setr_pd(b->s, a->s);
    const __m128d wx = _mm_sub_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(to_c, dx), _mm_mul_pd(to_s, dy)), _mm_mul_pd(cr, qx)),
                                  _mm_mul_pd(sr, qy));
    const __m128d wy = _mm_add_pd(
        _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm_xor_pd(to_s, sign), dx), _mm_mul_pd(to_c, dy)), _mm_mul_pd(sr, qx)),
        _mm_mul_pd(cr, qy));
    const __m128d ox = _mm_add_pd(_mm_mul_pd(wx, to_inv_sx), _mm_setr_pd(b->ox, a->ox));
    const __m128d oy = _mm_add_pd(_mm_mul_pd(wy, to_inv_sy), _mm_setr_pd(b->oy, a->oy));
    _Static_assert(offsetof(cw__map, oy) == 8 && offsetof(cw__map, uy) == 24 && offsetof(cw__map, vy) == 40,
                   "a map is its three pairs of doubles");
    _mm_storeu_pd(&there->ox, _mm_unpacklo_pd(ox, oy)), _mm_storeu_pd(&back->ox, _mm_unpackhi_pd(ox, oy));
    _mm_storeu_pd(&there->ux, _mm_unpacklo_pd(ux, uy)), _mm_storeu_pd(&back->ux, _mm_unpackhi_pd(ux, uy));
    _mm_storeu_pd(&there->vx, _mm_unpacklo_pd(vx, vy)), _mm_storeu_pd(&back->vx, _mm_unpackhi_pd(vx, vy));
}
#endif

bool cw__maps_between(const cw__body *from, const cw__body *to, cw__map *there, cw__map *back)
{
#if defined(__SSE2__)
    const cw__xf *a = &from->xf, *b = &to->xf;
    double cr, sr, cr_back, sr_back;
    relative_rotation(a, b, &cr, &sr);
    if (lands_translated(a, b, cr, sr)) {
        *there = translation_map(a, b, cr); // the way back is not needed
        return false;
    }
    relative_rotation(b, a, &cr_back, &sr_back); // its own rounding and snap: a zero's sign included
    general_maps(a, b, cr, sr, cr_back, sr_back, there, back);
#else
    *there = cw__map_between(from, to);
    *back = cw__map_between(to, from);
#endif
    return true;
}

// x rounded to a float toward -inf (cw__float_down) or +inf (cw__float_up): rounded to nearest,
// then, where that went the wrong way, one step by the bit pattern (toward -inf: the magnitude up
// for a negative, down for a positive). No branches: whether the conversion rounded up or down is a
// coin toss, which a branch predictor loses about half the time, four times an AABB. No case for
// zero: a nearest float of zero has x's sign, so its step is the smallest subnormal of that sign.
// Beyond the floats (the nearest is an infinity) it stays infinite.
float cw__float_down(double x)
{
    float f = (float)x;
    uint32_t bits = cw__float_bits(f), step = ((double)f > x) & (x < (double)FLT_MAX);
    return cw__float_of_bits(bits + ((0u - step) & ((bits >> 31) * 2u - 1u)));
}

float cw__float_up(double x)
{
    float f = (float)x;
    uint32_t bits = cw__float_bits(f), step = ((double)f < x) & (x > -(double)FLT_MAX);
    return cw__float_of_bits(bits + ((0u - step) & (1u - (bits >> 31) * 2u)));
}

// cw__rounding() of a body whose linear map (xx xy; yx yy) is already at hand.
static inline double placement_rounding(const cw__body *body, double xx, double xy, double yx, double yy)
{
    const cw__xf *xf = &body->xf;
    double reach_x = fabs(xf->ox) + (body->is_box ? 1 : body->mask->width);
    double reach_y = fabs(xf->oy) + (body->is_box ? 1 : body->mask->height);
    return cw__rounding(xf->px, xf->py, xx, xy, yx, yy, reach_x, reach_y);
}

// cw__moderate() of a prepared body (its fields hold the floats it was made from, exactly).
static bool body_is_moderate(const cw__body *body)
{
    float side = body->is_box ? (float)cw__max(cw__body_width(body), cw__body_height(body)) : 0;
    return cw__moderate((float)body->xf.px, (float)body->xf.py, body->origin_x, body->origin_y, body->scale_x,
                        body->scale_y, side);
}

// The linear part of a frame: local x and y axes in world units.
typedef struct linear {
    double xx, xy, yx, yy;
} linear;

static linear linear_of(const cw__xf *xf)
{
    return (linear){xf->c * xf->sx, -xf->s * xf->sy, xf->s * xf->sx, xf->c * xf->sy};
}

// Bounds relative to the position, before they are placed and rounded to floats.
typedef struct bounds {
    double lo_x, lo_y, hi_x, hi_y;
} bounds;

// A box's unit square: each axis's extremes are sums of per-edge extremes.
static bounds box_bounds(const cw__xf *xf, const linear *l)
{
    double ax0 = -xf->ox, ax1 = 1 - xf->ox, ay0 = -xf->oy, ay1 = 1 - xf->oy;
    return (bounds){cw__min(l->xx * ax0, l->xx * ax1) + cw__min(l->xy * ay0, l->xy * ay1),
                    cw__min(l->yx * ax0, l->yx * ax1) + cw__min(l->yy * ay0, l->yy * ay1),
                    cw__max(l->xx * ax0, l->xx * ax1) + cw__max(l->xy * ay0, l->xy * ay1),
                    cw__max(l->yx * ax0, l->yx * ax1) + cw__max(l->yy * ay0, l->yy * ay1)};
}

#if defined(__SSE2__)
// cw__float_down() (up: cw__float_up()) of two doubles at once, by the same operations (so the same
// bits): `wrong` has the lanes where the nearest float went the wrong way and x is within the
// floats; the step is -1 or +1 by the sign and the direction.
static __m128i floats_outward(__m128d x, bool up)
{
    __m128 nearest = _mm_cvtpd_ps(x);
    __m128d back = _mm_cvtps_pd(nearest);
    __m128d wrong = up ? _mm_and_pd(_mm_cmplt_pd(back, x), _mm_cmpgt_pd(x, _mm_set1_pd(-(double)FLT_MAX)))
                       : _mm_and_pd(_mm_cmpgt_pd(back, x), _mm_cmplt_pd(x, _mm_set1_pd((double)FLT_MAX)));
    __m128i bits = _mm_castps_si128(nearest), sign = _mm_srai_epi32(bits, 31); // 0 or -1
    __m128i step = up ? _mm_or_si128(sign, _mm_set1_epi32(1)) : _mm_xor_si128(_mm_slli_epi32(sign, 1), _mm_set1_epi32(-1));
    __m128i lanes = _mm_shuffle_epi32(_mm_castpd_si128(wrong), _MM_SHUFFLE(3, 3, 2, 0));
    return _mm_add_epi32(bits, _mm_and_si128(lanes, step));
}
#endif

// The position added last (a corner at the origin lands exactly on it), widened by `slack`, rounded
// outward to floats (every moved body's, each step: two at a time where SSE2 is at hand), into
// *out: stored whole, as its reader loads it (an AABB returned by value comes back in two halves,
// which the caller stored one by one and then read 16 bytes wide: a store-forwarding stall).
static void placed(const cw__xf *xf, const bounds *b, double slack, cw_aabb *out)
{
    double lo_x = b->lo_x + xf->px - slack, lo_y = b->lo_y + xf->py - slack;
    double hi_x = b->hi_x + xf->px + slack, hi_y = b->hi_y + xf->py + slack;
#if defined(__SSE2__)
    _Static_assert(sizeof(cw_aabb) == 4 * sizeof(float), "an AABB is its four floats, min first");
    __m128i lo = floats_outward(_mm_set_pd(lo_y, lo_x), false), hi = floats_outward(_mm_set_pd(hi_y, hi_x), true);
    _mm_storeu_si128((__m128i *)(void *)out, _mm_unpacklo_epi64(lo, hi));
#else
    *out = (cw_aabb){{cw__float_down(lo_x), cw__float_down(lo_y)}, {cw__float_up(hi_x), cw__float_up(hi_y)}};
#endif
}

// Where rounding may reach the touching tolerance (far beyond moderate placements: say a pivot
// 1e30 away, cancelled by the position), the bounds may be off by that much: they are widened so
// that they hold whatever the exact tests could find. Elsewhere they stay tight.
static double aabb_slack(const cw__body *body, const linear *l)
{
    if (body_is_moderate(body))
        return 0;
    double rounding = placement_rounding(body, l->xx, l->xy, l->yx, l->yy);
    return 4 * rounding >= cw__body_tolerance(body) ? rounding : 0;
}

// The reach of hull vertices along both rows of a frame's linear map, (x row, y row) . (corner -
// origin), and their extremes so far: two lanes of one register where SSE2 is at hand, else four
// doubles. Either way each reach is x * hx + y * hy and each extreme a cw__min/cw__max of the one so
// far and the new reach, so both give the same bits.
#if defined(__SSE2__)
typedef struct hull_reach {
    __m128d lo, hi;           // (x, y) lanes
    __m128d origin, col_x, col_y; // the pivot; the map's columns (xx, yx) and (xy, yy)
} hull_reach;

static inline hull_reach reach_start(const cw__xf *xf, const linear *l)
{
    return (hull_reach){_mm_set1_pd(INFINITY), _mm_set1_pd(-INFINITY), _mm_set_pd(xf->oy, xf->ox),
                   _mm_set_pd(l->yx, l->xx), _mm_set_pd(l->yy, l->xy)};
}

static CW__ALWAYS_INLINE void reach_vertex(hull_reach *r, const int32_t *hull, int i)
{
    __m128d corner = _mm_cvtepi32_pd(_mm_loadl_epi64((const __m128i *)(const void *)(hull + 2 * i)));
    __m128d h = _mm_sub_pd(corner, r->origin);
    __m128d w = _mm_add_pd(_mm_mul_pd(_mm_unpacklo_pd(h, h), r->col_x), _mm_mul_pd(_mm_unpackhi_pd(h, h), r->col_y));
    r->lo = _mm_min_pd(r->lo, w);
    r->hi = _mm_max_pd(r->hi, w);
}

// Takes in the extremes another reach found (over other vertices of the same map).
static inline void reach_merge(hull_reach *r, const hull_reach *other)
{
    r->lo = _mm_min_pd(r->lo, other->lo);
    r->hi = _mm_max_pd(r->hi, other->hi);
}

static inline bounds reach_bounds(const hull_reach *r)
{
    bounds b;
    _mm_storel_pd(&b.lo_x, r->lo), _mm_storeh_pd(&b.lo_y, r->lo);
    _mm_storel_pd(&b.hi_x, r->hi), _mm_storeh_pd(&b.hi_y, r->hi);
    return b;
}
#else
typedef struct hull_reach {
    bounds b;
    double ox, oy;
    linear l;
} hull_reach;

static inline hull_reach reach_start(const cw__xf *xf, const linear *l)
{
    return (hull_reach){{INFINITY, INFINITY, -INFINITY, -INFINITY}, xf->ox, xf->oy, *l};
}

static inline void reach_vertex(hull_reach *r, const int32_t *hull, int i)
{
    double hx = hull[2 * i] - r->ox, hy = hull[2 * i + 1] - r->oy;
    double wx = r->l.xx * hx + r->l.xy * hy, wy = r->l.yx * hx + r->l.yy * hy;
    r->b.lo_x = cw__min(r->b.lo_x, wx);
    r->b.lo_y = cw__min(r->b.lo_y, wy);
    r->b.hi_x = cw__max(r->b.hi_x, wx);
    r->b.hi_y = cw__max(r->b.hi_y, wy);
}

static inline void reach_merge(hull_reach *r, const hull_reach *other)
{
    r->b.lo_x = cw__min(r->b.lo_x, other->b.lo_x);
    r->b.lo_y = cw__min(r->b.lo_y, other->b.lo_y);
    r->b.hi_x = cw__max(r->b.hi_x, other->b.hi_x);
    r->b.hi_y = cw__max(r->b.hi_y, other->b.hi_y);
}

static inline bounds reach_bounds(const hull_reach *r) { return r->b; }
#endif

// The sector of a direction in the extreme-vertex table; -1 when it has no pseudo-angle (zero or NaN).
static inline int sector_of(double dx, double dy)
{
    double p = cw__pseudo_angle(dx, dy);
    return p >= 0 && p <= 4 ? (int)(p * (CW__SECTORS / 4.0)) & (CW__SECTORS - 1) : -1;
}

// The sectors of both rows of the map, the way each points (the vertex farthest along it is in that
// sector's run) and the opposite way (the nearest). With both scales of the same size the y row is
// the x row turned a quarter, forward or (one axis mirrored) back, so its two sectors are those a
// quarter of the table on from the x row's, in one order or the other (hull_bounds() takes all four
// runs alike): pseudo-angles turn exactly with the direction and their rounding is far inside the
// sectors' margin, and this saves the division of a second pseudo-angle. False when a row has no
// pseudo-angle.
static CW__ALWAYS_INLINE bool row_sectors(const cw__xf *xf, const linear *l, int sector[4])
{
    const int quarter = CW__SECTORS / 4, mask = CW__SECTORS - 1;
    int far_x = sector_of(l->xx, l->xy);
    int far_y = fabs(xf->sx) == fabs(xf->sy) ? (far_x + quarter) & mask : sector_of(l->yx, l->yy);
    if (far_x < 0 || far_y < 0)
        return false;
    sector[0] = far_x, sector[1] = (far_x + 2 * quarter) & mask;
    sector[2] = far_y, sector[3] = (far_y + 2 * quarter) & mask;
    return true;
}

// A mask's bounds relative to its position. Each axis's extremes are among the vertices the
// extreme-vertex table names for its row's two sectors (the same values the whole hull's scan
// finds), so both axes are taken over all four runs at once: the other axis's vertices are on the
// hull too, and cannot go past the extremes. Runs of one or two vertices (all of them, in every
// sprite measured) are read as their first and last, eight reads without a branch; a hull too small
// for a table is at least four vertices stored twice, so eight reads cover it too; and one of nine
// to sixteen is read whole, sixteen reads (10k sprites' moves 5% faster than through the table).
static bounds hull_bounds(const cw_mask *m, const cw__xf *xf, const linear *l)
{
    hull_reach r = reach_start(xf, l);
    const int32_t *hull = m->hull;
    int sector[4];
    if (xf->c == 0 || xf->s == 0) {
        // Turned by a whole number of quarter turns (most sprites are not turned at all): each
        // axis's extremes are along one local axis alone, where the hull reaches no farther than
        // the opaque box, so its four corners give the same bounds as the hull's vertices.
        const int32_t corners[8] = {m->x0, m->y0, m->x1, m->y0, m->x0, m->y1, m->x1, m->y1};
        for (int i = 0; i < 4; i++)
            reach_vertex(&r, corners, i);
    } else if (m->hull_count > 8 && m->hull_count <= CW__SCAN_HULL) {
        // Sixteen reads of the hull stored twice, in two chains of eight: no division for the
        // pseudo-angle and no table to wait on, which costs more than reading a small hull whole.
        _Static_assert(CW__SCAN_HULL == 16, "a hull of 9 to CW__SCAN_HULL points stored twice holds 16 reads");
        hull_reach r2 = reach_start(xf, l);
        for (int i = 0; i < 16; i += 2) {
            reach_vertex(&r, hull, i);
            reach_vertex(&r2, hull, i + 1);
        }
        reach_merge(&r, &r2);
    } else if (m->sector_count[0] != 0 && row_sectors(xf, l, sector)) {
        const uint16_t *first = m->sector_first, *count = m->sector_count;
        if (count[sector[0]] <= 2 && count[sector[1]] <= 2 && count[sector[2]] <= 2 && count[sector[3]] <= 2) {
            for (int k = 0; k < 4; k++) {
                reach_vertex(&r, hull, first[sector[k]]);
                reach_vertex(&r, hull, first[sector[k]] + count[sector[k]] - 1);
            }
        } else {
            for (int k = 0; k < 4; k++)
                for (int i = first[sector[k]]; i < first[sector[k]] + count[sector[k]]; i++)
                    reach_vertex(&r, hull, i);
        }
    } else if (m->hull_count >= 4 && m->hull_count <= 8) {
        for (int i = 0; i < 8; i++)
            reach_vertex(&r, hull, i);
    } else {
        for (int i = 0; i < m->hull_count; i++)
            reach_vertex(&r, hull, i);
    }
    return reach_bounds(&r);
}

// The world AABB of a mask (or, is_box, the unit square) under a frame; `for_slack`, where the
// placement may not be moderate, is the body whose rounding widens it. Into *out (see placed()).
static void frame_aabb(const cw_mask *m, bool is_box, const cw__xf *xf, const cw__body *for_slack, cw_aabb *out)
{
    if (m->count == 0) { // nothing covered: a point, so that it is still somewhere sensible
        cw_vec2 at = {(float)xf->px, (float)xf->py};
        *out = (cw_aabb){at, at};
        return;
    }
    // Each corner of the hull (a box's four, or the mask's opaque hull) is mapped relative to the
    // origin and the position added last: a huge shape loses no precision near its pivot (centre
    // plus or minus half extents would).
    const linear l = linear_of(xf);
    const bounds b = is_box ? box_bounds(xf, &l) : hull_bounds(m, xf, &l);
    placed(xf, &b, for_slack ? aabb_slack(for_slack, &l) : 0, out);
}

cw_aabb cw__body_aabb(const cw__body *body)
{
    cw_aabb aabb;
    frame_aabb(body->mask, body->is_box, &body->xf, body, &aabb);
    return aabb;
}

void cw__place_mask(const cw_shape *shape, const cw_transform *t, double c, double s, bool moderate, cw__body *body,
                    cw_aabb *aabb)
{
    // The frame is made and measured in a local, then stored: read back from the body, its fields
    // would wait on the stores just made (a wide load over two narrow stores is not forwarded).
    cw__xf xf;
    full_frame_of(shape, t, c, s, &xf);
    if (moderate)
        frame_aabb(body->mask, false, &xf, NULL, aabb);
    body->xf = xf;
    keep_scale_and_pivot(t, body);
    if (!moderate) // rare: the slack needs the whole body
        *aabb = cw__body_aabb(body);
}

cw__obb cw__box_obb(const cw_shape *shape, const cw_transform *t, double c, double s)
{
    cw__xf xf;
    frame_of(shape, t, c, s, &xf);
    return box_obb(&xf, CW__EPS / (double)shape->size.x, CW__EPS / (double)shape->size.y);
}

static cw__packed_obb packed_obb(const cw__obb *o, const cw__xf *xf)
{
    return (cw__packed_obb){o->cx, o->cy, o->c, o->s, 0.5 * xf->sx, 0.5 * xf->sy, o->tolerance};
}

cw__packed_obb cw__pack_body_obb(const cw__body *box)
{
    const cw__obb full = cw__body_obb(box);
    return packed_obb(&full, &box->xf);
}

void cw__place_box(const cw_shape *shape, const cw_transform *t, double c, double s, bool moderate,
                   cw__packed_obb *obb, cw_aabb *aabb)
{
    if (!moderate) { // rare: the whole body, for the AABB's slack
        cw__body body;
        cw__prepare_rotated(shape, t, c, s, &body);
        *obb = cw__pack_body_obb(&body);
        *aabb = cw__body_aabb(&body);
        return;
    }
    cw__xf xf;
    frame_of(shape, t, c, s, &xf);
    const cw__obb full = box_obb(&xf, CW__EPS / (double)shape->size.x, CW__EPS / (double)shape->size.y);
    *obb = packed_obb(&full, &xf);
    const linear l = linear_of(&xf);
    bounds b = box_bounds(&xf, &l);
    placed(&xf, &b, 0, aabb);
}

double cw__body_rounding(const cw__body *body)
{
    const linear l = linear_of(&body->xf);
    return placement_rounding(body, l.xx, l.xy, l.yx, l.yy);
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
