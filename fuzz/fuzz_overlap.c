// libFuzzer target: cw_overlap on arbitrary shapes and transforms (NaN, inf, huge, denormal, tiny
// scales). Checks that the answer does not depend on the argument order, that cw_placed_overlap
// gives the same answer and manifold (cw_place failing exactly on bad input), that bad input fails with
// an error both ways, that an overlap lies inside both AABBs, and (for some inputs) the manifold's
// promises: swapped arguments negate the normal, a unit normal, a finite point and depth >= 0.
// For moderate placements the answer is also checked against the tests' exact reference
// (tests/reference.c, every pair of opaque texels through the separating-axis test in double).
#include "fuzz_common.h"

#include "../tests/reference.h"

static cw_shape pick_shape(fz_reader *r, cw_mask **owned)
{
    uint8_t kind = fz_u8(r);
    if (kind < 96) {
        *owned = fz_small_mask(r);
        return cw_shape_mask(*owned);
    }
    if (kind < 240) {
        float w = fz_u8(r) < 200 ? 0.25f + (float)fz_u8(r) / 16.0f : fz_float(r, 16.0f);
        float h = fz_u8(r) < 200 ? 0.25f + (float)fz_u8(r) / 16.0f : fz_float(r, 16.0f);
        return cw_shape_box(w, h);
    }
    cw_shape odd = cw_shape_box(1, 1); // invalid shapes: unknown type, mask shape without a mask
    if (kind < 248)
        odd.type = (cw_shape_type)(fz_u8(r) % 4 == 0 ? 0 : 3 + fz_u8(r));
    else
        odd = cw_shape_mask(NULL);
    return odd;
}

static bool shape_valid(const cw_shape *s)
{
    if (s->type == CW_SHAPE_MASK)
        return s->mask != NULL;
    return s->type == CW_SHAPE_BOX && isfinite(s->size.x) && isfinite(s->size.y) && s->size.x > 0 && s->size.y > 0;
}

// Generous: the AABB is rounded outward by float steps we do not model.
static bool boxes_meet(const cw_aabb *a, const cw_aabb *b)
{
    float slack = 1e-3f * (1.0f + fmaxf(fmaxf(fabsf(a->min.x), fabsf(a->max.x)), fmaxf(fabsf(a->min.y), fabsf(a->max.y))) +
                           fmaxf(fmaxf(fabsf(b->min.x), fabsf(b->max.x)), fmaxf(fabsf(b->min.y), fabsf(b->max.y))));
    return a->min.x <= b->max.x + slack && b->min.x <= a->max.x + slack && a->min.y <= b->max.y + slack &&
           b->min.y <= a->max.y + slack;
}

// Equal as numbers (0 == -0), so the same configuration.
static bool same_transform(const cw_transform *x, const cw_transform *y)
{
    return x->position.x == y->position.x && x->position.y == y->position.y && x->rotation == y->rotation &&
           x->scale.x == y->scale.x && x->scale.y == y->scale.y && x->origin.x == y->origin.x &&
           x->origin.y == y->origin.y;
}

// The reference's form of a valid shape; a mask's texels go into `solid` (16 x 16 at most).
static ref_shape reference_shape(const cw_shape *s, unsigned char solid[16 * 16])
{
    if (s->type == CW_SHAPE_BOX)
        return ref_box(s->size.x, s->size.y);
    int w = cw_mask_width(s->mask), h = cw_mask_height(s->mask);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            solid[y * w + x] = cw_mask_get(s->mask, x, y);
    return ref_mask(solid, w, h);
}

static double largest_scale(const cw_transform *t) { return fmax(fabs((double)t->scale.x), fabs((double)t->scale.y)); }

// How far from the origin a shape's corners and pivot can be, in world units.
static double reach(const cw_shape *s, const cw_transform *t)
{
    double w = s->type == CW_SHAPE_BOX ? s->size.x : cw_mask_width(s->mask);
    double h = s->type == CW_SHAPE_BOX ? s->size.y : cw_mask_height(s->mask);
    return fabs((double)t->position.x) + fabs((double)t->position.y) +
           (fabs((double)t->origin.x) + fabs((double)t->origin.y) + w + h) * largest_scale(t);
}

// Where the reference's margin leaves the answer open, in world units: the header's touching
// tolerance (about 1e-6 local units of either shape) ten times over, plus the rounding of the two
// placements (the library's and the reference's, each far below 1e-13 of the reach).
static double open_band(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb)
{
    return 1e-5 * fmax(largest_scale(ta), largest_scale(tb)) + 1e-12 * fmax(reach(a, ta), reach(b, tb));
}

static cw_shape shape_a, shape_b;
static cw_transform transform_a, transform_b;

static void print_case(void)
{
    fz_print_shape("a", &shape_a);
    fz_print_transform("ta", &transform_a);
    fz_print_shape("b", &shape_b);
    fz_print_transform("tb", &transform_b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = {data, size, 0};
    uint8_t flags = fz_u8(&r);
    cw_mask *ma = NULL, *mb = NULL;
    cw_shape a = pick_shape(&r, &ma), b = pick_shape(&r, &mb);
    float range = (flags & 2) ? 4096.0f : 24.0f;
    cw_transform ta = fz_transform(&r, range), tb = fz_transform(&r, range);
    if (flags & 4) { // far from the origin, together
        float dx = fz_float(&r, 1e5f), dy = fz_float(&r, 1e5f);
        ta.position.x += dx, tb.position.x += dx;
        ta.position.y += dy, tb.position.y += dy;
    }
    shape_a = a, shape_b = b, transform_a = ta, transform_b = tb;
    fz_context_printer = print_case;
    if (fz_verbose) // FUZZ_VERBOSE=1: the case first (sanitizer reports abort without context)
        print_case();
    bool valid = shape_valid(&a) && shape_valid(&b) && fz_transform_valid(&ta) && fz_transform_valid(&tb);

    cw_clear_error();
    bool ab = cw_overlap(&a, &ta, &b, &tb, NULL);
    bool ab_failed = cw_last_error()[0] != '\0';
    cw_clear_error();
    bool ba = cw_overlap(&b, &tb, &a, &ta, NULL);
    bool ba_failed = cw_last_error()[0] != '\0';
    FZ_CHECK(ab == ba, "cw_overlap(a, b) = %d but cw_overlap(b, a) = %d", ab, ba);
    FZ_CHECK(ab_failed == ba_failed, "an error one way only");
    FZ_CHECK(ab_failed == !valid, "valid %d but error %d (%s)", valid, ab_failed, cw_last_error());
    FZ_CHECK(!ab_failed || !ab, "failed but returned true");

    // Exact: an overlap wherever the reference finds the two shapes overlapping by more than the open
    // band, none where it finds them that far apart.
    if (valid && fz_moderate(&a, &ta) && fz_moderate(&b, &tb)) {
        unsigned char solid_a[16 * 16], solid_b[16 * 16];
        ref_shape ra = reference_shape(&a, solid_a), rb = reference_shape(&b, solid_b);
        double margin = ref_margin(&ra, &ta, &rb, &tb), band = open_band(&a, &ta, &b, &tb);
        FZ_CHECK(ab || !(margin > band), "no overlap, but the reference's margin is %g (open within %g)", margin, band);
        FZ_CHECK(!ab || !(margin < -band), "an overlap, but the reference's margin is %g (open within %g)", margin,
                 band);
    }

    // Placed once, the same answer (and cw_place fails exactly where cw_overlap does).
    cw_placed pa, pb;
    cw_clear_error();
    bool placed = cw_place(&a, &ta, &pa) && cw_place(&b, &tb, &pb);
    FZ_CHECK(placed == valid, "cw_place %d but valid %d (%s)", placed, valid, cw_last_error());
    if (placed) {
        FZ_CHECK(cw_placed_overlap(&pa, &pb, NULL) == ab && cw_placed_overlap(&pb, &pa, NULL) == ab,
                 "cw_placed_overlap differs from cw_overlap (%d)", ab);
    }

    if (ab) {
        cw_aabb box_a, box_b;
        FZ_CHECK(cw_shape_aabb(&a, &ta, &box_a) && cw_shape_aabb(&b, &tb, &box_b), "aabb: %s", cw_last_error());
        bool finite_boxes = isfinite(box_a.min.x) && isfinite(box_a.min.y) && isfinite(box_a.max.x) &&
                            isfinite(box_a.max.y) && isfinite(box_b.min.x) && isfinite(box_b.min.y) &&
                            isfinite(box_b.max.x) && isfinite(box_b.max.y);
        FZ_CHECK(!finite_boxes || boxes_meet(&box_a, &box_b), "overlap but the AABBs (%g %g %g %g) and (%g %g %g %g) are apart",
                 box_a.min.x, box_a.min.y, box_a.max.x, box_a.max.y, box_b.min.x, box_b.min.y, box_b.max.x,
                 box_b.max.y);
    }
    if (flags & 1) {
        cw_manifold mab = {{-7, -7}, {-7, -7}, -7}, mba = mab, untouched = mab;
        bool with_ab = cw_overlap(&a, &ta, &b, &tb, &mab);
        bool with_ba = cw_overlap(&b, &tb, &a, &ta, &mba);
        FZ_CHECK(with_ab == ab && with_ba == ab, "the manifold changed the answer");
        if (placed) {
            cw_manifold placed_ab = untouched;
            FZ_CHECK(cw_placed_overlap(&pa, &pb, &placed_ab) == ab && memcmp(&placed_ab, &mab, sizeof mab) == 0,
                     "cw_placed_overlap's manifold differs from cw_overlap's");
        }
        if (!ab) {
            FZ_CHECK(memcmp(&mab, &untouched, sizeof mab) == 0 && memcmp(&mba, &untouched, sizeof mba) == 0,
                     "manifold written without an overlap");
        } else {
            // The header promises a unit normal and finite values for moderate placements only.
            bool moderate = fz_moderate(&a, &ta) && fz_moderate(&b, &tb);
            float len = hypotf(mab.normal.x, mab.normal.y);
            FZ_CHECK(!moderate || fabsf(len - 1.0f) < 1e-3f, "normal length %g", len);
            FZ_CHECK(!moderate || (isfinite(mab.point.x) && isfinite(mab.point.y) && isfinite(mab.depth)),
                     "point (%g, %g) depth %g", mab.point.x, mab.point.y, mab.depth);
            FZ_CHECK(!moderate || mab.depth >= 0, "depth %g", mab.depth);
            // The same shape under the same transform twice: the two calls are the same call, so the
            // normal cannot be negated (the header's promise is for distinct arguments).
            bool identical = a.type == b.type && a.mask == b.mask && a.size.x == b.size.x && a.size.y == b.size.y &&
                             same_transform(&ta, &tb); // cw_shape has padding: fields, not memcmp
            // Arguments that differ only below float resolution (a rotation of 1e-45 rad) prepare to
            // the same placement, and the header then allows the same normal both ways (seed
            // corpus/overlap/regression-manifold-tie): accepted in exactly that form.
            identical = identical || (mab.normal.x == mba.normal.x && mab.normal.y == mba.normal.y &&
                                      mab.point.x == mba.point.x && mab.point.y == mba.point.y && mab.depth == mba.depth);
            FZ_CHECK(!moderate || identical || mab.normal.x == -mba.normal.x && mab.normal.y == -mba.normal.y && mab.point.x == mba.point.x &&
                         mab.point.y == mba.point.y && mab.depth == mba.depth,
                     "swapped manifold: (%a %a) n (%a %a) d %a vs (%a %a) n (%a %a) d %a", mab.point.x, mab.point.y,
                     mab.normal.x, mab.normal.y, mab.depth, mba.point.x, mba.point.y, mba.normal.x, mba.normal.y,
                     mba.depth);
        }
    }
    if ((flags & 8) && valid) { // a cast: symmetric, a hit wherever cw_overlap finds one at an end
        cw_vec2 d = {fz_float(&r, range), fz_float(&r, range)};
        cw_transform end = ta;
        end.position.x += d.x, end.position.y += d.y;
        float fa = -1, fb = -1;
        if (!isfinite(d.x) || !isfinite(d.y)) {
            cw_clear_error();
            FZ_CHECK(!cw_shape_cast(&a, &ta, d, &b, &tb, &fa, NULL) && cw_last_error()[0] != '\0',
                     "a cast by a translation that is not finite did not fail");
            d = (cw_vec2){0, 0};
        }
        bool hit_ab = cw_shape_cast(&a, &ta, d, &b, &tb, &fa, NULL);
        bool hit_ba = cw_shape_cast(&b, &tb, (cw_vec2){-d.x, -d.y}, &a, &ta, &fb, NULL);
        FZ_CHECK(hit_ab == hit_ba, "cast a by d hits %d but b by -d %d", hit_ab, hit_ba);
        FZ_CHECK(!hit_ab || memcmp(&fa, &fb, sizeof fa) == 0, "cast fractions %a and %a", fa, fb);
        FZ_CHECK(!hit_ab || (fa >= 0 && fa <= 1), "cast fraction %g", fa);
        FZ_CHECK(!ab || (hit_ab && fa == 0), "overlap at the start but the cast gives %d at %g", hit_ab, fa);
        // The end placement as floats: far from the origin, ta + d rounds (a position of 1e5 swallows
        // a d.x of 2e-4), so compare with a cast by the translation the end really is, where exact.
        bool at_end = cw_overlap(&a, &end, &b, &tb, NULL);
        bool moderate = fz_moderate(&a, &ta) && fz_moderate(&b, &tb) && fz_moderate(&a, &end);
        cw_vec2 moved = {end.position.x - ta.position.x, end.position.y - ta.position.y};
        bool exact = (double)ta.position.x + moved.x == (double)end.position.x &&
                     (double)ta.position.y + moved.y == (double)end.position.y;
        float fm = -1;
        bool hit_moved = exact && cw_shape_cast(&a, &ta, moved, &b, &tb, &fm, NULL);
        FZ_CHECK(!moderate || !exact || !at_end || hit_moved,
                 "overlap at the end but the cast misses (translation %a %a, as placed %a %a)", d.x, d.y, moved.x,
                 moved.y);
    }
    cw_mask_destroy(ma);
    cw_mask_destroy(mb);
    return 0;
}
