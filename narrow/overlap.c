// cw_overlap: validation, canonical order (so (a, b) and (b, a) run the very same computation),
// and dispatch to box-box or the mask test.
#include "internal.h"

static int compare_double(double x, double y) { return (x > y) - (x < y); }

// A total order on prepared bodies, used only to pick which one goes first.
static int compare_bodies(const cw__body *a, const cw__body *b)
{
    if (a->mask != b->mask)
        return (uintptr_t)a->mask < (uintptr_t)b->mask ? -1 : 1;
    const double ka[] = {a->xf.px, a->xf.py, a->xf.c, a->xf.s, a->xf.sx, a->xf.sy, a->xf.ox, a->xf.oy, a->w, a->h};
    const double kb[] = {b->xf.px, b->xf.py, b->xf.c, b->xf.s, b->xf.sx, b->xf.sy, b->xf.ox, b->xf.oy, b->w, b->h};
    for (size_t i = 0; i < sizeof ka / sizeof ka[0]; i++) {
        int c = compare_double(ka[i], kb[i]);
        if (c != 0)
            return c;
    }
    return 0;
}

bool cw_overlap(const cw_shape *a, const cw_transform *ta, const cw_shape *b, const cw_transform *tb,
                cw_manifold *manifold)
{
    cw__body body_a, body_b;
    if (!cw__prepare(a, ta, &body_a) || !cw__prepare(b, tb, &body_b))
        return false;
    bool swapped = compare_bodies(&body_a, &body_b) > 0;
    const cw__body *first = swapped ? &body_b : &body_a, *second = swapped ? &body_a : &body_b;
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
