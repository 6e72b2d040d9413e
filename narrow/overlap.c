// cw_overlap: validation, canonical order (so (a, b) and (b, a) run the very same computation),
// and dispatch to box-box or the mask test.
#include "internal.h"

#include <math.h>
#include <stddef.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static int compare_double(double x, double y) { return (x > y) - (x < y); }

int cw__compare_bodies(const cw__body *a, const cw__body *b)
{
    int by_content = cw__mask_compare(a->mask, b->mask);
    if (by_content != 0)
        return by_content;
    const double ka[] = {a->xf.px, a->xf.py, a->xf.c, a->xf.s, a->xf.sx, a->xf.sy, a->xf.ox, a->xf.oy};
    const double kb[] = {b->xf.px, b->xf.py, b->xf.c, b->xf.s, b->xf.sx, b->xf.sy, b->xf.ox, b->xf.oy};
    for (size_t i = 0; i < sizeof ka / sizeof ka[0]; i++) {
        int c = compare_double(ka[i], kb[i]);
        if (c != 0)
            return c;
    }
    // The same frame: only two boxes of different sizes (and scales) can still differ.
    int by_width = compare_double(cw__body_width(a), cw__body_width(b));
    return by_width != 0 ? by_width : compare_double(cw__body_height(a), cw__body_height(b));
}

// cw__rounding_matters() for two unrotated masks, from their transforms (as cw__prepare() would
// give them: cosine 1, sine 0).
static bool rounding_matters_unrotated(const cw_mask *ma, const cw_transform *ta, const cw_mask *mb,
                                       const cw_transform *tb)
{
    const cw_transform *t[2] = {ta, tb};
    const cw_mask *m[2] = {ma, mb};
    double rounding[2], tolerance[2];
    for (int k = 0; k < 2; k++) {
        double sx = t[k]->scale.x, sy = t[k]->scale.y;
        rounding[k] = cw__rounding(t[k]->position.x, t[k]->position.y, sx, 0, 0, sy,
                                   fabs((double)t[k]->origin.x) + m[k]->width, fabs((double)t[k]->origin.y) + m[k]->height);
        tolerance[k] = cw__tolerance(sx, sy);
    }
    return cw__rounding_matters(rounding[0], tolerance[0], rounding[1], tolerance[1]);
}

bool cw__aabbs_meet(const cw__body *a, const cw__body *b)
{
    cw_aabb p = cw__body_aabb(a), q = cw__body_aabb(b);
    return p.min.x <= q.max.x && q.min.x <= p.max.x && p.min.y <= q.max.y && q.min.y <= p.max.y;
}

// Whether both shapes are masks with a mask and both transforms are given (valid or not: a bad
// transform is caught later): the start of every sprite-pair check.
static inline bool both_masks(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb)
{
    return a && b && ta && tb && a->type == CW_SHAPE_MASK && b->type == CW_SHAPE_MASK && a->mask && b->mask;
}

// Whether two shapes are masks placed unrotated at one scale (both mirrored alike or neither; valid
// or not: a bad transform is caught later). A's texel grid then lands on B's shifted.
static inline bool is_unrotated_pair(const cw_shape *a, const cw_transform *ta, const cw_shape *b,
                                     const cw_transform *tb)
{
    return both_masks(a, ta, b, tb) && ta->rotation == 0 && tb->rotation == 0 && ta->scale.x == tb->scale.x &&
           ta->scale.y == tb->scale.y;
}

// A moderate unrotated placement (cw__moderate(): finite, so valid, and rounding never matters)
// judged on the floats' bits: |position| < 2^16, |origin| < 2^14, |scale| in [1/16, 16) (its bits
// less SCALE_BITS_LOW below SCALE_BITS_SPAN, which wraps for smaller scales), rotation 0 or -0.
#define POSITION_BITS_BOUND ((127u + 16) << 23)
#define ORIGIN_BITS_BOUND ((127u + 14) << 23)
#define SCALE_BITS_LOW ((127u - 4) << 23)
#define SCALE_BITS_SPAN (8u << 23)

// One side of the common sprite pair (see is_moderate_unrotated_pair()).
static inline bool is_moderate_unrotated(const cw_transform *t)
{
    uint32_t position = cw__max_u32(cw__abs_bits(t->position.x), cw__abs_bits(t->position.y));
    uint32_t origin = cw__max_u32(cw__abs_bits(t->origin.x), cw__abs_bits(t->origin.y));
    uint32_t scale = cw__max_u32(cw__abs_bits(t->scale.x) - SCALE_BITS_LOW, cw__abs_bits(t->scale.y) - SCALE_BITS_LOW);
    return (position < POSITION_BITS_BOUND) & (origin < ORIGIN_BITS_BOUND) & (scale < SCALE_BITS_SPAN) &
           (cw__abs_bits(t->rotation) == 0);
}

// Whether two transforms' scales are equal but for the signs (for moderate scales, equal bits are
// equal values).
static inline bool scales_alike(const cw_transform *ta, const cw_transform *tb)
{
    return ((cw__abs_bits(ta->scale.x) ^ cw__abs_bits(tb->scale.x)) |
            (cw__abs_bits(ta->scale.y) ^ cw__abs_bits(tb->scale.y))) == 0;
}

#if !defined(__SSE2__) // else lanes_are_moderate_pair(), the same test four lanes at once
// Whether two masks are placed unrotated at one scale but for the signs (so that one may be
// mirrored against the other), both as is_moderate_unrotated() says: the common sprite pair's only
// check. Written for the pair at once (the maxima of both sides compared once, B's scale only
// through scales_alike()), which costs 15 instructions a call less than the two sides apart.
static inline bool is_moderate_unrotated_pair(const cw_shape *a, const cw_transform *ta, const cw_shape *b,
                                              const cw_transform *tb)
{
    if (!both_masks(a, ta, b, tb))
        return false;
    uint32_t position = cw__max_u32(cw__max_u32(cw__abs_bits(ta->position.x), cw__abs_bits(ta->position.y)),
                                    cw__max_u32(cw__abs_bits(tb->position.x), cw__abs_bits(tb->position.y)));
    uint32_t origin = cw__max_u32(cw__max_u32(cw__abs_bits(ta->origin.x), cw__abs_bits(ta->origin.y)),
                                  cw__max_u32(cw__abs_bits(tb->origin.x), cw__abs_bits(tb->origin.y)));
    uint32_t scale = cw__max_u32(cw__abs_bits(ta->scale.x) - SCALE_BITS_LOW, cw__abs_bits(ta->scale.y) - SCALE_BITS_LOW);
    uint32_t turned = cw__abs_bits(ta->rotation) | cw__abs_bits(tb->rotation);
    return (position < POSITION_BITS_BOUND) & (origin < ORIGIN_BITS_BOUND) & (scale < SCALE_BITS_SPAN) &
           (turned == 0) & scales_alike(ta, tb);
}
#endif

// The slow check for an unrotated pair whose placements are not moderate: finite, not mirrored
// (left to the general path), and rounding far below the tolerance (else the general path consults
// the AABBs).
static bool unrotated_is_plain(const cw_mask *ma, const cw_transform *ta, const cw_mask *mb, const cw_transform *tb)
{
    return cw__transform_is_finite(ta) && cw__transform_is_finite(tb) && ta->scale.x > 0 && ta->scale.y > 0 &&
           !rounding_matters_unrotated(ma, ta, mb, tb);
}

// d / scale, without the division (a slow instruction) for the common scales 1 and -1, where it is
// exact.
static inline double per_scale(double d, float scale)
{
    return scale == 1.0f ? d : scale == -1.0f ? -d : d / scale;
}

// The most common sprite pair (is_moderate_unrotated_pair(), or any unrotated pair at one scale)
// without the general setup: A's texel grid lands on B's shifted, or mirrored on the axes whose
// scale signs differ (the magnitudes are equal). The offset is summed as cw__map_between() sums it
// (so that the world's answer is the same). No canonical order is needed: with the shapes swapped
// every step rounds to exactly the negated bits (IEEE rounding is symmetric in sign), and the
// translated test judges an offset and its negation alike; on a mirrored axis the pivots add (B's
// less A's negated), a sum that rounds to the same bits either way round, as the mirrored test
// wants. So (a, b) and (b, a) give the same answer. sign_x, sign_y: the sign bits in which A's
// scale differs from B's (0 or 0x80000000 each); where either is set, masks cw__can_mirror() takes.
static inline bool sprite_pair_overlap(const cw_shape *a, const cw_transform *ta, const cw_shape *b,
                                       const cw_transform *tb, uint32_t sign_x, uint32_t sign_y)
{
    double dx = per_scale((double)ta->position.x - tb->position.x, tb->scale.x);
    double dy = per_scale((double)ta->position.y - tb->position.y, tb->scale.y);
    double ox = dx + ((double)tb->origin.x - cw__flip_sign(ta->origin.x, sign_x));
    double oy = dy + ((double)tb->origin.y - cw__flip_sign(ta->origin.y, sign_y));
    return cw__translated_overlap(a->mask, b->mask, ox, oy, sign_x != 0, sign_y != 0, CW__EPS, CW__EPS);
}

#if defined(__SSE2__)
// A transform's fields in lanes: its position and pivot in one register, its scale in another, the
// rotation's bits apart. Both halves of a pair's checks and its offset are worked out on them, four
// lanes at once: the common sprite pair runs a few dozen instructions before its row loop. Each
// cw_vec2 is read with one 8-byte load. A load wider than the stores it reads back waits for them to
// reach the cache, so the width is a choice (measured on the benchmark's sprite pairs, AMD Zen 4):
// transforms written well before the call, 10.4 ns a pair; written just before it as whole
// structs or cw_vec2 fields, 12-13 ns; written float by float just before it, 23 ns. Read one float
// at a time (which no way of writing them slows down) the pair took 13.4-15.7 ns in every case, and
// 16-byte loads 21-23 ns in all three of the latter.
_Static_assert(offsetof(cw_transform, rotation) == 8 && offsetof(cw_transform, scale) == 12 &&
                   offsetof(cw_transform, origin) == 20 && sizeof(cw_transform) == 28,
               "cw_transform must be seven packed floats");

typedef struct transform_lanes {
    __m128i place;      // px, py, ox, oy
    __m128i scale;      // sx, sy, 0, 0
    uint32_t rotation;  // the rotation's bits
} transform_lanes;

static inline transform_lanes lanes_of(const cw_transform *t)
{
    __m128 position = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)&t->position));
    __m128 place = _mm_loadh_pi(position, (const __m64 *)(const void *)&t->origin);
    return (transform_lanes){_mm_castps_si128(place), _mm_loadl_epi64((const __m128i *)(const void *)&t->scale),
                             cw__float_bits(t->rotation)};
}

// is_moderate_unrotated_pair()'s test of the numbers, on the lanes: the same bounds on the same
// bits (|x|'s bits are below 2^31, so signed compares order them), each side checked in full.
static inline bool lanes_are_moderate_pair(const transform_lanes *a, const transform_lanes *b)
{
    const __m128i abs_mask = _mm_set1_epi32(0x7fffffff);
    const __m128i place_end = _mm_setr_epi32(POSITION_BITS_BOUND, POSITION_BITS_BOUND, ORIGIN_BITS_BOUND, ORIGIN_BITS_BOUND);
    const __m128i scale_floor = _mm_set1_epi32(SCALE_BITS_LOW - 1), scale_end = _mm_set1_epi32(SCALE_BITS_LOW + SCALE_BITS_SPAN);
    __m128i pa = _mm_and_si128(a->place, abs_mask), pb = _mm_and_si128(b->place, abs_mask);
    __m128i scales = _mm_and_si128(_mm_unpacklo_epi64(a->scale, b->scale), abs_mask); // |A's|, |B's|
    __m128i alike = _mm_cmpeq_epi32(scales, _mm_shuffle_epi32(scales, _MM_SHUFFLE(1, 0, 3, 2))); // scales_alike()
    __m128i ok = _mm_and_si128(_mm_and_si128(_mm_cmplt_epi32(pa, place_end), _mm_cmplt_epi32(pb, place_end)),
                               _mm_and_si128(_mm_and_si128(_mm_cmpgt_epi32(scales, scale_floor),
                                                           _mm_cmplt_epi32(scales, scale_end)),
                                             alike));
    return (_mm_movemask_ps(_mm_castsi128_ps(ok)) == 15) & (((a->rotation | b->rotation) & 0x7fffffffu) == 0);
}

// A sprite pair (is_moderate_unrotated_pair()) placed as pixel art is: scale 1 (either sign) on both
// axes, not mirrored top to bottom, and every position and pivot a whole number of texels. The
// offset is then a whole number, which sprite_pair_overlap()'s sums in double reach exactly (the
// values are below 2^16); summed here in ints, four lanes at once, it skips their chain of
// conversions and the judging of fractions. Other pairs go there. -1 where one sprite is mirrored
// against the other and the masks are too wide to be tested so.
static inline int lanes_sprite_pair_overlap(const cw_shape *a, const cw_shape *b, const cw_transform *ta,
                                            const cw_transform *tb, const transform_lanes *la, const transform_lanes *lb)
{
    // Bit 0: the scales' signs differ in x (one sprite mirrored against the other); bit 1: in y.
    int mirrored = _mm_movemask_ps(_mm_castsi128_ps(_mm_xor_si128(la->scale, lb->scale))) & 3;
    uint32_t sign_x = (uint32_t)(mirrored & 1) << 31, sign_y = (uint32_t)(mirrored & 2) << 30;
    bool flip_x = mirrored & 1;
    if (mirrored != 0 && !cw__can_mirror(a->mask, b->mask))
        return -1;
    __m128 va = _mm_castsi128_ps(la->place), vb = _mm_castsi128_ps(lb->place);
    __m128i ia = _mm_cvttps_epi32(va), ib = _mm_cvttps_epi32(vb);
    __m128 whole = _mm_and_ps(_mm_cmpeq_ps(_mm_cvtepi32_ps(ia), va), _mm_cmpeq_ps(_mm_cvtepi32_ps(ib), vb));
    __m128i unit = _mm_cmpeq_epi32(_mm_and_si128(lb->scale, _mm_set1_epi32(0x7fffffff)), _mm_set1_epi32(0x3f800000));
    // Lanes 0, 1 of `unit` say B's scale is 1 either way, on x and y; lanes 2, 3 are left out.
    if ((_mm_movemask_ps(whole) & (_mm_movemask_ps(_mm_castsi128_ps(unit)) | 12)) != 15 || (mirrored & 2))
        return sprite_pair_overlap(a, ta, b, tb, sign_x, sign_y);
    // Lanes x, y: (A's position less B's) / B's scale, a negation where that is -1; lanes 2, 3: B's
    // pivot less A's (A's turned round where mirrored). The offset is the sum of the two halves.
    __m128i turn = _mm_setr_epi32(0, 0, -(int)flip_x, 0);
    __m128i negate = _mm_or_si128(_mm_srai_epi32(lb->scale, 31), _mm_setr_epi32(0, 0, -1, -1));
    __m128i d = _mm_sub_epi32(_mm_sub_epi32(_mm_xor_si128(ia, turn), turn), ib);
    d = _mm_sub_epi32(_mm_xor_si128(d, negate), negate);
    __m128i offset = _mm_add_epi32(d, _mm_shuffle_epi32(d, _MM_SHUFFLE(3, 2, 3, 2)));
    return cw__translated_whole(a->mask, b->mask, _mm_cvtsi128_si32(offset),
                                _mm_cvtsi128_si32(_mm_shuffle_epi32(offset, _MM_SHUFFLE(1, 1, 1, 1))), flip_x);
}
#endif

// The sprite pair (is_moderate_unrotated_pair()) of two placements: -1 where one sprite is
// mirrored against the other and the masks are too wide to be tested so.
static inline int moderate_sprite_pair_overlap(const cw_shape *a, const cw_transform *ta, const cw_shape *b,
                                               const cw_transform *tb)
{
#if defined(__SSE2__)
    transform_lanes la = lanes_of(ta), lb = lanes_of(tb);
    return lanes_sprite_pair_overlap(a, b, ta, tb, &la, &lb);
#else
    uint32_t sign_x = (cw__float_bits(ta->scale.x) ^ cw__float_bits(tb->scale.x)) & 0x80000000u;
    uint32_t sign_y = (cw__float_bits(ta->scale.y) ^ cw__float_bits(tb->scale.y)) & 0x80000000u;
    if ((sign_x | sign_y) != 0 && !cw__can_mirror(a->mask, b->mask))
        return -1;
    return sprite_pair_overlap(a, ta, b, tb, sign_x, sign_y);
#endif
}

// cw_overlap()'s common sprite pair: is_moderate_unrotated_pair() then
// moderate_sprite_pair_overlap(), or -1 for every other call (of any kind: the rest decides).
static inline int common_sprite_pair_overlap(const cw_shape *a, const cw_transform *ta, const cw_shape *b,
                                             const cw_transform *tb)
{
#if defined(__SSE2__)
    if (!both_masks(a, ta, b, tb))
        return -1;
    transform_lanes la = lanes_of(ta), lb = lanes_of(tb);
    return lanes_are_moderate_pair(&la, &lb) ? lanes_sprite_pair_overlap(a, b, ta, tb, &la, &lb) : -1;
#else
    return is_moderate_unrotated_pair(a, ta, b, tb) ? moderate_sprite_pair_overlap(a, ta, b, tb) : -1;
#endif
}

// Whether a shape is valid and validly and moderately placed (cw__moderate(), a finite rotation).
static inline bool is_moderate_placement(const cw_shape *shape, const cw_transform *t)
{
    bool valid = shape->type == CW_SHAPE_MASK ? shape->mask != NULL
                                              : shape->type == CW_SHAPE_BOX && shape->size.x > 0 && shape->size.y > 0;
    return valid && cw__placement_is_moderate(shape, t) && cw__abs_bits(t->rotation) < 0x7f800000u;
}

// Two shapes so placed (any rotations and scales): they need none of the general path's checks.
static inline bool is_moderate_pair(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb)
{
    return a && b && ta && tb && is_moderate_placement(a, ta) && is_moderate_placement(b, tb);
}

// Such a pair that is not a common sprite pair (turned, scaled apart, or a box and a mask) without
// the general setup: prepared together and tested as prepared_overlap() tests a moderate pair, so
// the same bodies and the same answer, without validating what the bits already showed valid (a
// third of the checks' cost of a rotated sprite pair).
static CW__NOINLINE bool moderate_pair_overlap(const cw_shape *a, const cw_transform *ta, const cw_shape *b,
                                               const cw_transform *tb)
{
    double c[2], s[2];
    cw__cos_sin2(ta->rotation, tb->rotation, c, s);
    cw__body body_a, body_b;
    cw__prepare_rotated(a, ta, c[0], s[0], &body_a);
    cw__prepare_rotated(b, tb, c[1], s[1], &body_b);
    return cw__overlap_bodies(&body_a, &body_b, NULL);
}

// Two boxes without the rest of the general setup: a cosine and sine each, their SAT forms as the
// world makes them, and the world's test (symmetric as it stands).
static CW__NOINLINE bool box_pair_overlap(const cw_shape *a, const cw_transform *ta, const cw_shape *b,
                                          const cw_transform *tb)
{
    double c[2], s[2];
    cw__cos_sin2(ta->rotation, tb->rotation, c, s);
    cw__obb oa = cw__box_obb(a, ta, c[0], s[0]), ob = cw__box_obb(b, tb, c[1], s[1]);
    return cw__obbs_overlap(&oa, &ob);
}

bool cw__overlap_bodies(const cw__body *a, const cw__body *b, cw_manifold *manifold)
{
    if (manifold == NULL && a->is_box && b->is_box) { // the box test is symmetric as it stands
        const cw__obb oa = cw__body_obb(a), ob = cw__body_obb(b);
        return cw__obbs_overlap(&oa, &ob);
    }
    bool swapped = cw__compare_bodies(a, b) > 0;
    // Picked by index rather than by a branch: which way round a pair comes is a coin toss.
    const cw__body *const given[2] = {a, b};
    const cw__body *first = given[swapped], *second = given[!swapped];
    cw_manifold found;
    bool hit;
    if (first->is_box && second->is_box) {
        hit = cw__box_box(first, second, manifold ? &found : NULL);
    } else {
        hit = cw__masks_overlap(first, second);
        if (hit && manifold != NULL)
            cw__mask_manifold(first, second, &found);
    }
    if (hit && manifold != NULL) {
        if (swapped)
            found.normal = (cw_vec2){-found.normal.x, -found.normal.y};
        *manifold = found;
    }
    return hit;
}

bool cw__bodies_may_meet(const cw__body *a, const cw__body *b)
{
    return !cw__bodies_rounding_matters(a, b) || cw__aabbs_meet(a, b);
}

// Two prepared bodies (`moderate`: known to be, so rounding cannot matter): gated where rounding
// matters (cw__bodies_may_meet), then the exact test.
static bool prepared_overlap(const cw__body *a, const cw__body *b, bool moderate, cw_manifold *manifold)
{
    return (moderate || cw__bodies_may_meet(a, b)) && cw__overlap_bodies(a, b, manifold);
}

// cw_overlap() past its common case: validated, prepared and dispatched. Kept out of line so that
// the common case runs without this path's stack frame.
static CW__NOINLINE bool overlap_prepared(const cw_shape *a, const cw_transform *ta, const cw_shape *b,
                                          const cw_transform *tb, cw_manifold *manifold)
{
    if (manifold == NULL && is_unrotated_pair(a, ta, b, tb) && unrotated_is_plain(a->mask, ta, b->mask, tb))
        return sprite_pair_overlap(a, ta, b, tb, 0, 0); // one scale: neither is mirrored
    cw__body body_a, body_b;
    if (!cw__prepare_pair(a, ta, b, tb, &body_a, &body_b))
        return false;
    bool moderate = cw__placement_is_moderate(a, ta) && cw__placement_is_moderate(b, tb);
    return prepared_overlap(&body_a, &body_b, moderate, manifold);
}

bool cw_overlap(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                cw_manifold *manifold)
{
    int sprites = manifold == NULL ? common_sprite_pair_overlap(a, ta, b, tb) : -1;
    if (sprites >= 0)
        return sprites;
    if (manifold == NULL && is_moderate_pair(a, ta, b, tb)) // the box test is symmetric as it stands
        return a->type == CW_SHAPE_BOX && b->type == CW_SHAPE_BOX ? box_pair_overlap(a, ta, b, tb)
                                                                  : moderate_pair_overlap(a, ta, b, tb);
    return overlap_prepared(a, ta, b, tb, manifold);
}

// --- placed shapes ---

// What cw_place() keeps in a cw_placed: the shape and transform as given (cw_overlap()'s choices of
// path are made on them), their prepared body and the per-shape halves of those choices. Read in
// place through a cast of the caller's storage: may_alias says so to GCC and Clang.
#if defined(__GNUC__)
#define CW__MAY_ALIAS __attribute__((may_alias))
#else
#define CW__MAY_ALIAS
#endif
typedef struct CW__MAY_ALIAS cw__placed {
    uint32_t tag;         // PLACED_TAG once filled; anything else is refused
    bool sprite;          // a mask, unrotated and moderately placed: one side of
                          // is_moderate_unrotated_pair()
    bool moderate;        // cw__placement_is_moderate()
    bool moderate_box;    // a valid box so placed: one side of is_moderate_pair() for two boxes
    cw_shape shape;
    cw_transform transform;
    cw__body body;
    cw__obb obb;          // a box's SAT form (cw__body_obb)
} cw__placed;
_Static_assert(sizeof(cw__placed) <= CW_PLACED_BYTES, "cw_placed must hold cw__placed");
_Static_assert(_Alignof(cw__placed) <= _Alignof(cw_placed), "cw_placed must be aligned for cw__placed");

#define PLACED_TAG 0x706c6163u // "plac"

bool cw_place(const cw_shape *shape, const cw_transform *transform, cw_placed *placed)
{
    if (placed == NULL) {
        cw__fail("The placed-shape output pointer is NULL.");
        return false;
    }
    cw__placed *p = (cw__placed *)(void *)placed->opaque.bytes;
    p->tag = 0;
    if (!cw__prepare(shape, transform, &p->body))
        return false;
    p->shape = *shape;
    p->transform = *transform;
    p->moderate = cw__placement_is_moderate(shape, transform);
    p->sprite = shape->type == CW_SHAPE_MASK && is_moderate_unrotated(transform);
    p->moderate_box = shape->type == CW_SHAPE_BOX && p->moderate;
    if (p->body.is_box)
        p->obb = cw__body_obb(&p->body);
    p->tag = PLACED_TAG;
    return true;
}

// The placement in `placed`, or NULL (with an error) if there is none.
static const cw__placed *placed_of(const cw_placed *placed)
{
    if (placed == NULL) {
        cw__fail("The placed shape is NULL.");
        return NULL;
    }
    const cw__placed *p = (const cw__placed *)(const void *)placed->opaque.bytes;
    if (p->tag != PLACED_TAG) {
        cw__fail("The placed shape was not filled by cw_place() (or its cw_place() failed).");
        return NULL;
    }
    return p;
}

// cw_overlap()'s choices in its order, each made from the stored halves (the same outcome as on the
// shapes and transforms themselves), the preparation already done.
bool cw_placed_overlap(const cw_placed *a, const cw_placed *b, cw_manifold *manifold)
{
    const cw__placed *pa = placed_of(a), *pb = placed_of(b);
    if (pa == NULL || pb == NULL)
        return false;
    const cw_shape *sa = &pa->shape, *sb = &pb->shape;
    const cw_transform *ta = &pa->transform, *tb = &pb->transform;
    int sprites = manifold == NULL && pa->sprite && pb->sprite && scales_alike(ta, tb)
                      ? moderate_sprite_pair_overlap(sa, ta, sb, tb)
                      : -1;
    if (sprites >= 0)
        return sprites;
    if (manifold == NULL && pa->moderate_box && pb->moderate_box)
        return cw__obbs_overlap(&pa->obb, &pb->obb);
    if (manifold == NULL && is_unrotated_pair(sa, ta, sb, tb) && unrotated_is_plain(sa->mask, ta, sb->mask, tb))
        return sprite_pair_overlap(sa, ta, sb, tb, 0, 0); // one scale: neither is mirrored
    return prepared_overlap(&pa->body, &pb->body, pa->moderate && pb->moderate, manifold);
}
