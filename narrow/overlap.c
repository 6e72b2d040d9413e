// cw_overlap: validation, canonical order (so (a, b) and (b, a) run the very same computation),
// and dispatch to box-box or the mask test.
#include "internal.h"

#include <math.h>

static int compare_double(double x, double y) { return (x > y) - (x < y); }

int cw__compare_bodies(const cw__body *a, const cw__body *b)
{
    int by_content = cw__mask_compare(a->mask, b->mask);
    if (by_content != 0)
        return by_content;
    const double ka[] = {a->xf.px, a->xf.py, a->xf.c, a->xf.s, a->xf.sx, a->xf.sy, a->xf.ox, a->xf.oy, a->w, a->h};
    const double kb[] = {b->xf.px, b->xf.py, b->xf.c, b->xf.s, b->xf.sx, b->xf.sy, b->xf.ox, b->xf.oy, b->w, b->h};
    for (size_t i = 0; i < sizeof ka / sizeof ka[0]; i++) {
        int c = compare_double(ka[i], kb[i]);
        if (c != 0)
            return c;
    }
    return 0;
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

// The slow check for placements that are not moderate: finite, not mirrored (the texel grid runs
// the other way: left to the general path), and rounding far below the tolerance (else the general
// path consults the AABBs).
static bool unrotated_is_plain(const cw_mask *ma, const cw_transform *ta, const cw_mask *mb, const cw_transform *tb)
{
    return cw__transform_is_finite(ta) && cw__transform_is_finite(tb) && ta->scale.x > 0 && ta->scale.y > 0 &&
           !rounding_matters_unrotated(ma, ta, mb, tb);
}

// The most common sprite pair, two unrotated masks at the same scale, without the general setup.
// Returns false (not handled) for anything else, bad input included, which then takes the full path.
static bool try_unrotated(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                          bool *hit)
{
    if (!(a && b && ta && tb && a->type == CW_SHAPE_MASK && b->type == CW_SHAPE_MASK && a->mask && b->mask &&
          ta->rotation == 0 && tb->rotation == 0 && ta->scale.x == tb->scale.x && ta->scale.y == tb->scale.y))
        return false;
    // Both masks (no box side to bound); the scales are equal, so one sign check says neither is mirrored.
    bool moderate = cw__placement_is_moderate(a, ta) && cw__placement_is_moderate(b, tb) && ta->scale.x > 0 &&
                    ta->scale.y > 0;
    if (!moderate && !unrotated_is_plain(a->mask, ta, b->mask, tb))
        return false;
    // Canonical order (by mask content, then placement) so that (a, b) and (b, a) compute the same
    // thing, whatever the masks' addresses.
    int by_content = cw__mask_compare(a->mask, b->mask);
    bool swap = by_content != 0                  ? by_content > 0
                : ta->position.x != tb->position.x ? ta->position.x > tb->position.x
                : ta->position.y != tb->position.y ? ta->position.y > tb->position.y
                : ta->origin.x != tb->origin.x     ? ta->origin.x > tb->origin.x
                                                   : ta->origin.y > tb->origin.y;
    if (swap) {
        const cw_shape *s = a;
        a = b, b = s;
        const cw_transform *t = ta;
        ta = tb, tb = t;
    }
    double dx = (double)ta->position.x - tb->position.x, dy = (double)ta->position.y - tb->position.y;
    if (ta->scale.x != 1.0f) // unscaled sprites skip the division
        dx /= ta->scale.x;
    if (ta->scale.y != 1.0f)
        dy /= ta->scale.y;
    double ox = dx - ta->origin.x + tb->origin.x, oy = dy - ta->origin.y + tb->origin.y;
    *hit = cw__translated_overlap(a->mask, b->mask, ox, oy, CW__EPS, CW__EPS);
    return true;
}

bool cw__overlap_bodies(const cw__body *a, const cw__body *b, cw_manifold *manifold)
{
    if (manifold == NULL && a->is_box && b->is_box) // the box test is symmetric as it stands
        return cw__obbs_overlap(&a->obb, &b->obb);
    bool swapped = cw__compare_bodies(a, b) > 0;
    const cw__body *first = swapped ? b : a, *second = swapped ? a : b;
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

bool cw_overlap(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                cw_manifold *manifold)
{
    bool hit;
    if (manifold == NULL && try_unrotated(a, ta, b, tb, &hit))
        return hit;
    cw__body body_a, body_b;
    if (!cw__prepare(a, ta, &body_a) || !cw__prepare(b, tb, &body_b))
        return false;
    bool moderate = cw__placement_is_moderate(a, ta) && cw__placement_is_moderate(b, tb);
    if (!moderate &&
        cw__rounding_matters(cw__body_rounding(&body_a), cw__body_tolerance(&body_a), cw__body_rounding(&body_b),
                             cw__body_tolerance(&body_b)) &&
        !cw__aabbs_meet(&body_a, &body_b))
        return false;
    return cw__overlap_bodies(&body_a, &body_b, manifold);
}
