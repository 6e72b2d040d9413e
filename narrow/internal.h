// Internal declarations shared by the narrowphase files. Not part of the public API.
#ifndef CW_NARROW_INTERNAL_H
#define CW_NARROW_INTERNAL_H

#include "fp.h"
#include <collworld.h>

#include <float.h>
#include <math.h>
#include <string.h>

// The exact tests, their tolerances and the same bytes in every run rest on IEEE binary64
// arithmetic with every operation rounded to its type, which C11 gives on every 64-bit target and
// on 32-bit ones with SSE2 or a hardware FPU. Refused at compile time rather than wrong at run
// time: x87's extra precision (32-bit x86 without -msse2 -mfpmath=sse) and -ffast-math (which may
// reorder and drop NaN and infinity checks; the rest of a program may use it, not this library).
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD > 0
#error "collworld needs arithmetic rounded to each type (FLT_EVAL_METHOD 0): on 32-bit x86 build it with -msse2 -mfpmath=sse"
#endif
#if defined(__FAST_MATH__)
#error "collworld must be built without -ffast-math (its exact tests need IEEE arithmetic): leave it off for collworld's files"
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "alloc.h"

// Keeps a rarely taken path out of its caller, so that the common path does not pay for its stack
// frame and saved registers.
#if defined(__GNUC__)
#define CW__NOINLINE __attribute__((noinline))
#define CW__ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CW__NOINLINE
#define CW__ALWAYS_INLINE inline
#endif

// GCC and Clang on x86-64 can compile a function for AVX2 inside a baseline build and ask the CPU
// whether it has AVX2 (__builtin_cpu_supports): the hottest loops get a second copy that way.
// Defining CW_NO_AVX2_CLONE leaves the copies out: `make test`'s sanitizer build does, so that the
// suite runs the baseline loops too on a machine that has AVX2.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(CW_NO_AVX2_CLONE)
#define CW__HAVE_AVX2_CLONE 1
#else
#define CW__HAVE_AVX2_CLONE 0
#endif

// --- masks (mask.c) ---

// The hull's extreme-vertex table: directions are split into CW__SECTORS sectors by pseudo-angle,
// and each sector keeps the run of hull vertices that can be the farthest along a direction in it,
// so that a bounding box needs a few vertices instead of the whole hull. Hulls of at most
// CW__SCAN_HULL points are scanned whole (sooner than the table's division and lookups) and have
// no table.
#define CW__SECTORS 64
#define CW__SCAN_HULL 16

// A pseudo-angle of the direction (dx, dy): in [0, 4], growing with atan2(dy, dx) from 0 along +x
// (so 1 along +y, 2 along -x, 3 along -y; 4 is 0 again), and exactly 2 more or less for (-dx, -dy).
// A rational function of dx and dy, cheaper than atan2 and, written with bit operations rather
// than conditions, without branches (every moved mask takes one or two, and a sprite's direction is
// anyone's guess, so a branch would miss half the time). NaN for (0, 0).
static inline double cw__pseudo_angle(double dx, double dy)
{
    double t = fabs(dy) / (fabs(dx) + fabs(dy)); // in [0, 1] within a quadrant
    // The quadrants 2 and 4 count t down: below the x axis, dx > 0; above, dx < 0 (dx = 0 gives
    // 2 * below + 1 either way, as t is 1).
    int below = dy < 0, back = (dx < 0) ^ below;
    return 2.0 * (below + back) + t * (1 - 2 * back);
}

// The 8-direction bounding polygon of the opaque texels, in local texel-corner coordinates:
// x in [x0, x1], y in [y0, y1], x + y in [sum0, sum1], x - y in [diff0, diff1].
typedef struct cw__dop8 {
    double x0, x1, y0, y1, sum0, sum1, diff0, diff1;
} cw__dop8;

struct cw_mask {
    size_t alloc_size;    // bytes of the one allocation holding the mask and its arrays
    int width, height;    // texels
    int words;            // 64-bit words per row
    int count;            // opaque texels
    int runs;             // maximal horizontal runs of opaque texels, over all rows
    int x0, y0, x1, y1;   // opaque bounds, max exclusive; all 0 when empty
    double box[4];        // the same as doubles: x0, y0, x1, y1
    cw__dop8 dop;         // tighter opaque bounds, for clipping
    int32_t *spans;       // per row: first opaque x, last opaque x + 1 (0, 0 if empty)
    int32_t *hull;        // convex hull of the opaque texels' corners: hull_count (x, y) points, then
                          // the same points again (so that a run of them starting anywhere is contiguous)
    int hull_count;
    // At most 8 points (x, y) around every opaque texel: the hull when it has no more points than
    // the 8-direction polygon, else that polygon's corners. What the probe maps into the other
    // mask, at a bounded cost however round the sprite (a disc's hull has dozens of points).
    double outline[16];
    int outline_count;
    // The extreme-vertex table (see CW__SECTORS): for sector k, the hull vertices sector_first[k],
    // sector_first[k] + 1, ..., sector_count[k] of them (in the repeated hull: past the last is the
    // first). All counts are 0 when the hull is scanned whole.
    uint16_t sector_first[CW__SECTORS], sector_count[CW__SECTORS];
    uint64_t hash;        // of the size and the opaque bits: orders pairs by content, never by address
    uint64_t *bits;       // height * words; bit i of word w in row j is texel (64 * w + i, j); at most
                          // 64 texels wide, CW__ROW_PAD zero rows follow
    // Masks at most 64 texels wide: each row again, mirrored (bit i is texel width - 1 - i), for
    // sprites that face the other way, and CW__ROW_PAD zero rows; NULL for wider masks.
    uint64_t *mirrored;
    // Masks at most 64 texels each way: the mask with texel (i, j) at (j, i), its own allocation,
    // so that two sprites a quarter turn apart take the translated test; NULL for the others.
    const cw_mask *transposed;
};

// The bytes a mask holds: its allocation and its transposed copy's.
static inline size_t cw__mask_bytes(const cw_mask *m)
{
    return m->alloc_size + (m->transposed != NULL ? m->transposed->alloc_size : 0);
}

// The rows the translated test ANDs between early exits, and the zero rows a mask at most 64
// texels wide keeps after its rows and after its mirrored rows so that the last group may read
// past them (see any_shifted_and_body() in translated.c): 248 bytes each, for a tail-free loop that
// made the unrotated sprite pair 15-20% faster.
#define CW__ROW_GROUP 32
#define CW__ROW_PAD (CW__ROW_GROUP - 1)

// The one-texel full mask that boxes are turned into (box = that texel scaled by its size).
extern const cw_mask cw__unit_mask;

// A total order on masks by content (size, hash, then the bits themselves): 0 iff they hold the same
// texels. Pairs are put in canonical order with it, so the answer never depends on addresses.
int cw__mask_compare(const cw_mask *a, const cw_mask *b);

static inline const uint64_t *cw__row(const cw_mask *m, int y) { return m->bits + (size_t)y * (size_t)m->words; }

// Texel (x, y) of a mask that has it (0 <= x < width, 0 <= y < height: not checked).
static inline bool cw__texel_at(const cw_mask *m, int x, int y) { return (cw__row(m, y)[x >> 6] >> (x & 63)) & 1u; }

// Texel (x, y), transparent outside the mask.
static inline bool cw__texel(const cw_mask *m, int x, int y)
{
    if (x < 0 || y < 0 || x >= m->width || y >= m->height)
        return false;
    return cw__texel_at(m, x, y);
}

// --- transforms and shapes (shape.c) ---

// A validated transform in double, with the rotation's cosine and sine (snapped to exact values
// within 1e-6 of a multiple of 90 degrees).
typedef struct cw__xf {
    double px, py, c, s, sx, sy, ox, oy;
    double inv_sx, inv_sy;
} cw__xf;

// A box for the separating-axis test: centre, half edges and unit edge directions in world units,
// and its share of the touching tolerance (1e-6 of its smaller scale). Absolute coordinates in
// double keep about 1e-16 relative precision, and make the test exactly symmetric in its arguments.
typedef struct cw__obb {
    double cx, cy;     // centre
    double ux, uy;     // half of the local x edge
    double vx, vy;     // half of the local y edge
    double c, s;       // the rotation: edge normals (c, s) and (-s, c)
    double tolerance;
} cw__obb;

// Half the extent of a box's projection on unit axis (nx, ny).
static inline double cw__obb_radius(const cw__obb *o, double nx, double ny)
{
    return fabs(nx * o->ux + ny * o->uy) + fabs(nx * o->vx + ny * o->vy);
}

// Overlap of the two boxes' projections on unit axis (nx, ny), signed distance of the centres in *d.
static inline double cw__obb_depth(const cw__obb *a, const cw__obb *b, double nx, double ny, double *d)
{
    *d = nx * (b->cx - a->cx) + ny * (b->cy - a->cy);
    return cw__obb_radius(a, nx, ny) + cw__obb_radius(b, nx, ny) - fabs(*d);
}

#if defined(__SSE2__)
// |nx * x + ny * y| on two axes at once, lane by lane as the scalar expression.
static inline __m128d cw__abs_dot2(__m128d nx, __m128d ny, __m128d x, __m128d y)
{
    const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL));
    return _mm_and_pd(_mm_add_pd(_mm_mul_pd(nx, x), _mm_mul_pd(ny, y)), magnitude);
}

// cw__obb_radius() on two axes at once.
static inline __m128d cw__obb_radius2(const cw__obb *o, __m128d nx, __m128d ny)
{
    return _mm_add_pd(cw__abs_dot2(nx, ny, _mm_set1_pd(o->ux), _mm_set1_pd(o->uy)),
                      cw__abs_dot2(nx, ny, _mm_set1_pd(o->vx), _mm_set1_pd(o->vy)));
}

// cw__obb_depth() > tol on two axes at once, lane by lane the very same operations (so the same
// answer): the projections' radii, the centres' distance, the depth.
static inline bool cw__obb_depths_exceed(const cw__obb *a, const cw__obb *b, __m128d nx, __m128d ny, __m128d dx,
                                         __m128d dy, __m128d tol)
{
    __m128d radii = _mm_add_pd(cw__obb_radius2(a, nx, ny), cw__obb_radius2(b, nx, ny));
    return _mm_movemask_pd(_mm_cmpgt_pd(_mm_sub_pd(radii, cw__abs_dot2(nx, ny, dx, dy)), tol)) == 3;
}
#endif

// Whether two boxes overlap by more than the touching tolerance on all four edge normals. Every
// candidate pair of boxes in a world comes here: where SSE2 is at hand, two normals at a time, and
// both pairs of normals always (the answer is as random as the bodies: a branch between them was
// mispredicted often enough to cost more than the second pair).
static inline bool cw__obbs_overlap(const cw__obb *a, const cw__obb *b)
{
    double tolerance = a->tolerance < b->tolerance ? a->tolerance : b->tolerance;
#if defined(__SSE2__)
    __m128d dx = _mm_set1_pd(b->cx - a->cx), dy = _mm_set1_pd(b->cy - a->cy), tol = _mm_set1_pd(tolerance);
    bool on_a = cw__obb_depths_exceed(a, b, _mm_set_pd(-a->s, a->c), _mm_set_pd(a->c, a->s), dx, dy, tol);
    bool on_b = cw__obb_depths_exceed(a, b, _mm_set_pd(-b->s, b->c), _mm_set_pd(b->c, b->s), dx, dy, tol);
    return on_a & on_b;
#else
    double d;
    return cw__obb_depth(a, b, a->c, a->s, &d) > tolerance && cw__obb_depth(a, b, -a->s, a->c, &d) > tolerance &&
           cw__obb_depth(a, b, b->c, b->s, &d) > tolerance && cw__obb_depth(a, b, -b->s, b->c, &d) > tolerance;
#endif
}

// A box's SAT form as a world keeps it, 16 bytes smaller: the half edges are rebuilt from the
// rotation and the half scaled sides, to the bit (0.5 * c * sx, as box_obb computes it, rounds
// once, as c * (0.5 * sx) does: halving is exact).
typedef struct cw__packed_obb {
    double cx, cy;     // centre
    double c, s;       // the rotation
    double hx, hy;     // half the box's scaled sides (signed: mirroring)
    double tolerance;
} cw__packed_obb;

static inline cw__obb cw__unpack_obb(const cw__packed_obb *p)
{
    return (cw__obb){p->cx, p->cy, p->c * p->hx, p->s * p->hx, -(p->s * p->hy), p->c * p->hy, p->c, p->s, p->tolerance};
}

// A shape ready for the narrowphase: a mask and the transform of its texel space. Boxes become
// the unit mask with their size folded into the scale.
typedef struct cw__body {
    // What the exact tests read comes first, together (the 108 bytes before the scale). Nothing
    // that can be worked out from the rest is kept (a box's size, the texel edges' inner limit, a
    // box's SAT form): the world keeps one of these for every sprite, 128 bytes, two cache lines.
    const cw_mask *mask;
#if UINTPTR_MAX == UINT32_MAX
    uint32_t pad_head; // 32-bit targets: the 64-bit layout and size (see CW__LINE in world/)
#endif
    cw__xf xf;
    double eps_x, eps_y; // touching tolerance in texel units: 1e-6 local units (a box is one texel)
    bool is_box;
    float scale_x, scale_y, origin_x, origin_y; // the transform's, as given (boxes: size not folded)
#if UINTPTR_MAX == UINT32_MAX
    uint32_t pad_tail;
#endif
} cw__body;

// A body's size in its local units: a box's own size (folded into the frame's scale as the exact
// product of two floats, so dividing by the scale gives it back exactly), or the mask's in texels.
static inline double cw__body_width(const cw__body *body)
{
    return body->is_box ? body->xf.sx / body->scale_x : body->mask->width;
}
static inline double cw__body_height(const cw__body *body)
{
    return body->is_box ? body->xf.sy / body->scale_y : body->mask->height;
}

// Whether every field of the transform is finite (no error is recorded). The seven fields are
// floats; a float is inf or NaN iff its exponent bits are all ones: one branch for the lot.
static inline bool cw__transform_is_finite(const cw_transform *t)
{
    const float fields[7] = {t->position.x, t->position.y, t->rotation, t->scale.x,
                             t->scale.y,    t->origin.x,   t->origin.y};
    uint32_t bits[7], special = 0;
    memcpy(bits, fields, sizeof bits);
    for (int i = 0; i < 7; i++)
        special |= (uint32_t)((bits[i] & 0x7f800000u) == 0x7f800000u);
    return special == 0;
}

// The float nearest below (above) a double: x itself when it is a float; infinities stay.
float cw__float_down(double x);
float cw__float_up(double x);

// Validates a shape and transform and fills `out`; records an error and returns false on bad input.
bool cw__prepare(const cw_shape *shape, const cw_transform *t, cw__body *out);
// cw__prepare() of a pair, A checked first (the same bodies and error; the trigonometry of both at once).
bool cw__prepare_pair(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                      cw__body *out_a, cw__body *out_b);
// What is wrong with a transform, as the end of a sentence about it ("has a zero scale"), or NULL
// if it is finite with nonzero scales. No error is recorded.
const char *cw__transform_fault(const cw_transform *t);
// Whether the transform is finite with nonzero scales; records an error and returns false if not.
bool cw__transform_is_valid(const cw_transform *t);

// Cosine and sine of a rotation as cw__prepare computes them (exact at multiples of 90 degrees).
void cw__cos_sin(float angle, double *c, double *s);
// cw__cos_sin() of two rotations at once (the same bits): c[0], s[0] for a; c[1], s[1] for b.
void cw__cos_sin2(float a, float b, double c[2], double s[2]);

// cw__prepare without the checks, given the rotation's cosine and sine as cw__prepare computed them
// (a prepared body's xf.c and xf.s): rebuilds exactly the body cw__prepare made, without the
// trigonometry. The shape and transform must be valid.
void cw__prepare_rotated(const cw_shape *shape, const cw_transform *t, double c, double s, cw__body *out);

// Affine map from one shape's local space to another's: q = o + x * u + y * v.
typedef struct cw__map {
    double ox, oy, ux, uy, vx, vy;
} cw__map;

// The map from `from`'s local (texel) space to `to`'s local space.
cw__map cw__map_between(const cw__body *from, const cw__body *to);
// Both maps between two bodies (the same bits as two cw__map_between() calls, in half the work), or,
// where `from` lands on `to` translated or mirrored, only `there` (false: `back` is not filled).
bool cw__maps_between(const cw__body *from, const cw__body *to, cw__map *there, cw__map *back);

// World point of a local point, relative to a world reference point (rx, ry) for precision.
static inline void cw__to_world(const cw__xf *xf, double lx, double ly, double rx, double ry, double *wx, double *wy)
{
    double qx = (lx - xf->ox) * xf->sx, qy = (ly - xf->oy) * xf->sy;
    *wx = (xf->px - rx) + xf->c * qx - xf->s * qy;
    *wy = (xf->py - ry) + xf->s * qx + xf->c * qy;
}

// A world vector in a shape's local (texel) units: the inverse of its rotation and scale.
static inline void cw__local_vector(const cw__xf *xf, double wx, double wy, double *lx, double *ly)
{
    *lx = (xf->c * wx + xf->s * wy) * xf->inv_sx;
    *ly = (-xf->s * wx + xf->c * wy) * xf->inv_sy;
}

// --- narrowphase (boxes.c, masks.c, manifold.c) ---

bool cw__box_box(const cw__body *a, const cw__body *b, cw_manifold *manifold);

// A total order on prepared bodies by content and placement (never by address): the canonical
// order that makes (a, b) and (b, a) run the very same computation.
int cw__compare_bodies(const cw__body *a, const cw__body *b);

// Whether the two bodies' AABBs (cw__body_aabb) meet, touching included, as the world's candidates do.
bool cw__aabbs_meet(const cw__body *a, const cw__body *b);

// False where rounding may reach the touching tolerance (placements far from moderate) and the
// AABBs do not meet: cw_overlap() then says no before the exact test, as the world's candidates
// (whose AABBs meet) do, so that the two agree; true otherwise.
bool cw__bodies_may_meet(const cw__body *a, const cw__body *b);

// A body moved by (dx, dy) world units.
static inline cw__body cw__body_moved(const cw__body *body, double dx, double dy)
{
    cw__body moved = *body;
    moved.xf.px += dx, moved.xf.py += dy;
    return moved;
}

// Contacts over a motion (cast.c). `a` starts where it is and moves by (dx, dy) world units; `b`
// stays. Both put the pair in canonical order first (then b moves by minus that), so the answer
// for (b, a, -d) is the same bytes with the normal turned round.
// False where rounding may reach the touching tolerance (placements far from moderate) and the
// AABB of the pair's canonical first over its whole motion misses the other's: cw_shape_cast()
// then finds nothing, as cw_overlap() finds nothing for AABBs apart; true otherwise.
bool cw__motion_may_meet(const cw__body *a, const cw__body *b, double dx, double dy);
// Whether cw_shape_cast() of a by (dx, dy) against b hits (its verdict, without the time), for a
// pair that does not overlap at the end as cw_overlap() sees it: the world judges a pass-through
// with it after taking that plain test itself, so the two agree. (cw_shape_cast() takes the plain
// test at the end too, where this swept test misses: a sliver within one shape's tolerance and past
// the other's may be an overlap for the one and not the other.)
bool cw__cast_hits(const cw__body *a, const cw__body *b, double dx, double dy);
// The same, and the earliest time they overlap (*fraction, in [0, 1], to 2^-20 for masks) with,
// if `manifold` is not NULL, the contact there.
bool cw__cast_bodies(const cw__body *a, const cw__body *b, double dx, double dy, float *fraction,
                     cw_manifold *manifold);
// cw__cast_bodies() for a pair cw__cast_hits() has just found touching over this motion: the same
// answer without testing that again (so it is always true).
bool cw__cast_touching(const cw__body *a, const cw__body *b, double dx, double dy, float *fraction,
                       cw_manifold *manifold);

// cw_overlap() for prepared bodies (the world prepares each body once per change): the same
// canonical order, so the same answer as cw_overlap() on the shapes and transforms.
bool cw__overlap_bodies(const cw__body *a, const cw__body *b, cw_manifold *manifold);

// World AABB of a prepared body, rounded outward to floats (a point at the position if empty).
cw_aabb cw__body_aabb(const cw__body *body);
// A box's packed SAT form and world AABB straight from its (valid) shape and transform, given the
// rotation's cosine and sine as cw__cos_sin() gives them: the same bytes as cw__prepare_rotated()
// then cw__pack_body_obb() and cw__body_aabb(), without making the rest of the body (the world's
// path for a moved box). `moderate`: cw__placement_is_moderate(shape, t), as the caller found it.
void cw__place_box(const cw_shape *shape, const cw_transform *t, double c, double s, bool moderate,
                   cw__packed_obb *obb, cw_aabb *aabb);

// A prepared mask body moved to `t` (its shape unchanged, the transform valid; c and s as
// cw__cos_sin() gives them), in place, and its world AABB: the same bytes as cw__prepare_rotated()
// then cw__body_aabb(), without remaking what the shape alone decides (the world's path for a moved
// mask). `moderate`: cw__placement_is_moderate(shape, t), as the caller found it.
void cw__place_mask(const cw_shape *shape, const cw_transform *t, double c, double s, bool moderate, cw__body *body,
                    cw_aabb *aabb);

// The SAT form of a prepared box, from its frame: the same bits every time.
cw__obb cw__body_obb(const cw__body *box);
// The packed SAT form of a prepared box.
cw__packed_obb cw__pack_body_obb(const cw__body *box);

// A box's SAT form alone, as cw__prepare_rotated() makes it (the shape and transform valid; c and s
// as cw__cos_sin() gives them).
cw__obb cw__box_obb(const cw_shape *shape, const cw_transform *t, double c, double s);

// cw__rounding() of a prepared body.
double cw__body_rounding(const cw__body *body);

// Exact test for two mask bodies: true iff they overlap with positive area. Deterministic for a
// given (a, b); the caller puts them in canonical order.
bool cw__masks_overlap(const cw__body *a, const cw__body *b);

// The swept test: whether a, moved by t * (dx, dy) world units, overlaps b for some t in [0, 1].
// Exact: each run of texels sweeps a convex hexagon, sliced by the other's rows as in the plain
// test. Deterministic for a given (a, b); zero motion is the plain test.
bool cw__masks_overlap_moving(const cw__body *a, const cw__body *b, double dx, double dy);

// Exact test for two masks with the same rotation and scale, mask a's texel (i, j) landing on
// mask b's local point (i + ox, j + oy): a word-wise shift-and-AND. With flip_x (flip_y) a lands
// mirrored: its texel column i covers b's local x in [ox - i - 1, ox - i] (rows likewise); only for
// masks cw__can_mirror() takes. eps_x and eps_y are the touching tolerance in b's texel units.
// Symmetric to the bit: (b, a) with the negated offset on an axis that is not mirrored and the
// same offset on one that is gives the same answer (with the same tolerance).
bool cw__translated_overlap(const cw_mask *a, const cw_mask *b, double ox, double oy, bool flip_x, bool flip_y,
                            double eps_x, double eps_y);

// cw__translated_overlap() for a whole offset (ox, oy) (|ox|, |oy| < 2^30), not mirrored top to
// bottom: the same answer, from ints.
bool cw__translated_whole(const cw_mask *a, const cw_mask *b, int ox, int oy, bool flip_x);

// Whether cw__translated_overlap() takes the two masks mirrored: both at most 64 texels wide.
static inline bool cw__can_mirror(const cw_mask *a, const cw_mask *b) { return (a->words | b->words) == 1; }

// One overlapping piece: walked texels [i0, i1) of row j against texel k of the other's row band.
typedef struct cw__piece {
    int i0, i1, j, k, band;
} cw__piece;

// A piece and the centre find_nearest measures it by, kept by a sweep so that the piece nearest a
// target known only after it (the pieces' mean) needs no second sweep.
typedef struct cw__piece_spot {
    double cx, cy;
    cw__piece piece;
} cw__piece_spot;

// What an area sweep accumulates, in the other mask's local space.
typedef struct cw__pieces {
    double area, sum_x, sum_y;              // area and first moments of the overlap
    double grad_x, grad_y;                  // d(area)/d(move of the other mask), from its boundary texels
    double lo_x, lo_y, hi_x, hi_y;          // box around the pieces
    bool find_nearest;                      // also find the piece nearest the target
    double target_x, target_y;              // target point
    double metric_x, metric_y;              // world units per local unit, for the distance
    double best_d2;
    cw__piece best;
    cw__piece_spot *spots;                  // if not NULL, every piece is kept here (up to spot_cap)
    int spot_cap, spot_count;               // spot_count goes on counting past spot_cap
} cw__pieces;

// An empty accumulator.
cw__pieces cw__pieces_empty(void);

// Accumulates the overlap pieces of `walked` against `other` (approximate area: each slice's exact
// area shared among the texels it covers in proportion to covered width), in `other`'s local space.
// Stops after CW__PIECES_WORK work units (rows and band slices; about 8 ms): a manifold of two
// giant, finely broken masks then comes from the pieces of the rows swept so far, so that its cost
// stays bounded (a 16384 x 16384 checkerboard would otherwise take half a minute).
#define CW__PIECES_WORK (1L << 18)
void cw__masks_pieces(const cw__body *walked, const cw__body *other, cw__pieces *pieces);

// Finds, among `count` pieces kept by a sweep, the nearest to p's target (into p->best_d2 and p->best),
// as the sweep would have found it with find_nearest set.
void cw__pieces_nearest_of(cw__pieces *p, const cw__piece_spot *spots, int count);

// Centroid of the exact polygon of a piece, in `other`'s local space.
void cw__piece_centroid(const cw__body *walked, const cw__body *other, const cw__piece *piece, double *x, double *y);

// What sampling the overlap accumulates, in the walked mask's local space.
typedef struct cw__samples {
    long count;                             // texel centres inside the overlap
    double sum_x, sum_y;                    // their sum
    double grad_x, grad_y;                  // boundary counts: d(count)/d(move of the walked mask)
    double lo_x, lo_y, hi_x, hi_y;          // box around them
    bool find_nearest;                      // also find the sample nearest the target
    double target_x, target_y, metric_x, metric_y, best_d2, best_x, best_y;
} cw__samples;

void cw__masks_sample(const cw__body *walked, const cw__body *other, int stride, cw__samples *out);

// The minimum translation of b that ends its overlap with a (mtd.c): a unit direction and the
// distance (a shade past the first gap, so that the move separates them). (hint_x, hint_y) is one
// more direction to try; (inside_x, inside_y) a world point inside the overlap, if known (one that
// is not only costs a little time). False only if no separating move was found (never for valid
// bodies).
bool cw__mtd(const cw__body *a, const cw__body *b, double hint_x, double hint_y, double inside_x, double inside_y,
             double *nx, double *ny, double *depth);

// Tests only (tests/hooks.h): the lower bound cw__mtd() puts on every move that parts a and b
// (mtd.c, parting_lower_bound()), given a world point inside their overlap; NaN for shapes or
// transforms that cannot be prepared.
double cw__test_parting_bound(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                              cw_vec2 inside);

// How deep world point (wx, wy) lies in a body (clearance.c): the distance from it to the nearest
// texel that is not opaque (outside the opaque box all are transparent), or to a box's edge, in
// local units times the smaller of the transform's scales, so that the world disc of that radius
// lies within the shape. 0 where the point is not inside an opaque texel or the box.
double cw__clearance(const cw__body *body, double wx, double wy);

// The first touch of a moving by t * (dx, dy) against b, from the intervals of time over which
// each pair of rectangles (a run of texels of each, or a box) overlaps: the earliest start in
// [0, 1], and in *until (if not NULL) the end of that pair's interval (a time at which they do
// overlap lies between); *t is infinite where no pair meets. False where the rectangles are too
// many (then bisect).
bool cw__first_touch_pairs(const cw__body *a, const cw__body *b, double dx, double dy, double *t, double *until);

// Fills the manifold for two overlapping mask bodies; normal from a toward b.
void cw__mask_manifold(const cw__body *a, const cw__body *b, cw_manifold *manifold);

// --- points and rays (query.c) ---

// Local coordinates of a world point, in shape units (texels, or the box's own units).
void cw__to_local(const cw__body *body, double wx, double wy, double *lx, double *ly);

// Whether the world point is in an opaque texel, texels half-open: [i, i+1) x [j, j+1).
bool cw__body_contains(const cw__body *body, double wx, double wy);

// A ray's entry into a shape: the fraction along it and the unit world normal facing the ray.
typedef struct cw__ray_result {
    double fraction, nx, ny;
} cw__ray_result;

// The first entry of the segment origin + t * (dx, dy), t in [0, limit), into the interior of an
// opaque texel (t = 0 with the negated direction as normal if it starts inside one).
bool cw__body_raycast(const cw__body *body, double ox, double oy, double dx, double dy, double limit,
                      cw__ray_result *out);

// Whether a ray's origin and translation are finite and the translation is not zero (else an error).
bool cw__ray_is_valid(cw_vec2 origin, cw_vec2 translation);

// The public hit for a result (no body).
cw_ray_hit cw__ray_hit_of(cw_vec2 origin, cw_vec2 translation, const cw__ray_result *result);

// --- small convex polygons (polygon.c) ---

// Most points a clipped polygon may have: a quad cut by four half-planes has at most eight.
#define CW__POLYGON_MAX 12

// Keeps the part of convex polygon (px, py, n points) where a * x + b * y <= c, in place; returns
// the new point count.
int cw__clip_polygon(double *px, double *py, int n, double a, double b, double c);

// Centroid of a convex polygon (the mean of its points when it has no area).
void cw__polygon_centroid(const double *px, const double *py, int n, double *x, double *y);

// Makes (x, y), a point meant to lie in the overlap of convex quads p and q, really lie there: a
// sliver's clipped corners are ill-conditioned (nearly parallel edges put them far along an edge),
// so where it falls outside either quad it becomes the mean of the corners of each quad that lie in
// the other (those lie in both, and so does their mean). Unchanged if no corner does.
void cw__settle_in_quads(const double *px, const double *py, const double *qx, const double *qy, double *x, double *y);

// Touching tolerance, in local units of a shape (texels for a mask, the caller's units for a box).
#define CW__EPS 1e-6

// fmin/fmax without the NaN rules, so they compile to one instruction (inputs are never NaN).
static inline double cw__min(double a, double b) { return a < b ? a : b; }
static inline double cw__max(double a, double b) { return a > b ? a : b; }

// The length of (x, y), the same bits on every machine: libm's hypot differs in its last bit between
// implementations (glibc's own picks an FMA variant on x86-64 CPUs that have FMA), sqrt is correctly
// rounded everywhere. Scaled by a power of two (exactly) where a square would overflow or underflow.
static inline double cw__length(double x, double y)
{
    double big = cw__max(fabs(x), fabs(y));
    if (big > 0x1p500 && big < INFINITY)
        return sqrt((x * 0x1p-600) * (x * 0x1p-600) + (y * 0x1p-600) * (y * 0x1p-600)) * 0x1p600;
    if (big < 0x1p-500 && big > 0)
        return sqrt((x * 0x1p600) * (x * 0x1p600) + (y * 0x1p600) * (y * 0x1p600)) * 0x1p-600;
    return sqrt(x * x + y * y);
}

// A bound, in world units, on how far double rounding may move a world point of one placement: the
// computations add the position, the mapped pivot and the mapped texel corners, each good to a few
// units in the last place of the largest of those terms (32 units allowed here). (xx xy; yx yy) is
// the placement's linear map, reach_x/y bound the local coordinates' distance from the pivot.
static inline double cw__rounding(double px, double py, double xx, double xy, double yx, double yy, double reach_x,
                                  double reach_y)
{
    double mx = fabs(px) + fabs(xx) * reach_x + fabs(xy) * reach_y;
    double my = fabs(py) + fabs(yx) * reach_x + fabs(yy) * reach_y;
    return 0x1p-48 * cw__max(mx, my);
}

// The touching tolerance (CW__EPS local units) in world units, along the shorter scaled axis.
static inline double cw__tolerance(double scale_x, double scale_y)
{
    return CW__EPS * cw__min(fabs(scale_x), fabs(scale_y));
}

// cw__tolerance() of a prepared body (boxes: the scale as given, their size not folded in).
static inline double cw__body_tolerance(const cw__body *body)
{
    return cw__tolerance(body->scale_x, body->scale_y);
}

// Whether rounding may come near the touching tolerance for a pair: moderate placements never do. Where
// it may (a pivot 1e30 away cancelled by the position, a box 1e28 long beside a small sprite), the
// exact tests may disagree with the AABBs (which allow for the rounding), so cw_overlap() asks them first:
// the answer is then the world's, whose candidates are the pairs whose AABBs meet.
static inline bool cw__rounding_matters(double rounding_a, double tolerance_a, double rounding_b, double tolerance_b)
{
    return 4 * (rounding_a + rounding_b) >= cw__min(tolerance_a, tolerance_b);
}

// The same for two bodies where they are.
static inline bool cw__bodies_rounding_matters(const cw__body *a, const cw__body *b)
{
    return cw__rounding_matters(cw__body_rounding(a), cw__body_tolerance(a), cw__body_rounding(b),
                                cw__body_tolerance(b));
}

// A float's bits.
static inline uint32_t cw__float_bits(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

// The float with these bits.
static inline float cw__float_of_bits(uint32_t bits)
{
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

// x with its sign bit flipped where `sign` (0 or 0x80000000) has it: -x or x, without a branch.
static inline float cw__flip_sign(float x, uint32_t sign) { return cw__float_of_bits(cw__float_bits(x) ^ sign); }

// |x|'s bits: for floats (NaN aside) ordered as |x| is, so one integer compare bounds a magnitude.
static inline uint32_t cw__abs_bits(float x) { return cw__float_bits(x) & 0x7fffffffu; }

static inline uint32_t cw__max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

// Whether a placement is moderate, by the bits of its fields: finite, |position| < 2^16,
// |origin| < 2^14, |scale| in [2^-4, 2^4) on both axes and (boxes) a size below 2^14 (masks are at
// most CW_MASK_MAX_SIZE = 2^14 texels a side). Then cw__rounding() is at most
// 2^-48 (2^16 + 2 * 2^4 * 2^15) < 4e-9 whatever the rotation, so that rounding never matters:
// 4 * (4e-9 + 4e-9) < 6.25e-8 = CW__EPS * 2^-4, the smallest tolerance of such a placement, and
// an AABB needs no slack. This spares the common sprite the check in double.
static inline bool cw__moderate(float px, float py, float ox, float oy, float sx, float sy, float box_side)
{
    const uint32_t binade = 1u << 23; // one power of two in a float's bits
    uint32_t position = cw__max_u32(cw__abs_bits(px), cw__abs_bits(py));
    uint32_t origin = cw__max_u32(cw__max_u32(cw__abs_bits(ox), cw__abs_bits(oy)), cw__abs_bits(box_side));
    uint32_t scale_x = cw__abs_bits(sx) - (127u - 4) * binade, scale_y = cw__abs_bits(sy) - (127u - 4) * binade;
    return (position < (127u + 16) * binade) & (origin < (127u + 14) * binade) &
           (cw__max_u32(scale_x, scale_y) < 8 * binade);
}

// The larger side of a box of `size` (by magnitude), as cw__moderate() takes it.
static inline float cw__box_side(cw_vec2 size)
{
    return cw__abs_bits(size.x) > cw__abs_bits(size.y) ? size.x : size.y;
}

// cw__moderate() of a shape (valid or not: a bad one fails later) under a transform.
static inline bool cw__placement_is_moderate(const cw_shape *shape, const cw_transform *t)
{
    const float side = shape->type == CW_SHAPE_BOX ? cw__box_side(shape->size) : 0.0f;
    return cw__moderate(t->position.x, t->position.y, t->origin.x, t->origin.y, t->scale.x, t->scale.y, side);
}

// Set bits in a word. __builtin_popcountll is a libgcc call on baseline x86-64 (no POPCNT).
static inline int cw__popcount(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

// The 64 bits of x in reverse order (bit i to bit 63 - i).
static inline uint64_t cw__reversed_bits(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
    x = ((x >> 8) & 0x00FF00FF00FF00FFull) | ((x & 0x00FF00FF00FF00FFull) << 8);
    x = ((x >> 16) & 0x0000FFFF0000FFFFull) | ((x & 0x0000FFFF0000FFFFull) << 16);
    return (x >> 32) | (x << 32);
}

#endif
