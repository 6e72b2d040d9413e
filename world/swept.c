// Contacts over the step's motion. Every body moves in a straight line from where it was at the
// last step to where it is now; a pair with a swept body is judged over that relative motion: it
// touched during the step iff cw_shape_cast() says so for the relative translation.
//
// The grid must offer such pairs as candidates: a swept body is filed under the box of its whole
// motion, widened by the farthest any unswept body moved this step (per axis), so that a moving
// unswept body meets it wherever along their motions they touch. Those boxes are redone each step
// where they changed.
#include "internal.h"

#include <math.h>
#include <string.h>

void cw__pair_motion(const cw_world *world, uint32_t a, uint32_t b, double *dx, double *dy)
{
    double ax, ay, bx, by;
    cw__motion(&world->slots[a], &ax, &ay);
    cw__motion(&world->slots[b], &bx, &by);
    *dx = ax - bx, *dy = ay - by;
}

// The box a swept body is filed under: its AABB at both ends of its motion, widened by the margins.
static cw__box swept_box(const cw_world *world, uint32_t index)
{
    const cw__slot *slot = &world->slots[index];
    cw__box box = slot->next_aabb; // its AABB now, at the end of its motion
    double dx, dy;
    cw__motion(slot, &dx, &dy);
    if (dx != 0 || dy != 0) { // the start is the end moved back (the motion is a translation)
        cw__box from = {cw__float_down(box.min_x - dx), cw__float_down(box.min_y - dy), cw__float_up(box.max_x - dx),
                        cw__float_up(box.max_y - dy)};
        box.min_x = fminf(box.min_x, from.min_x), box.min_y = fminf(box.min_y, from.min_y);
        box.max_x = fmaxf(box.max_x, from.max_x), box.max_y = fmaxf(box.max_y, from.max_y);
    }
    double mx = world->sweep_margin_x, my = world->sweep_margin_y;
    return (cw__box){cw__float_down(box.min_x - mx), cw__float_down(box.min_y - my), cw__float_up(box.max_x + mx),
                     cw__float_up(box.max_y + my)};
}

static bool same_box(const cw__box *a, const cw__box *b)
{
    return a->min_x == b->min_x && a->min_y == b->min_y && a->max_x == b->max_x && a->max_y == b->max_y;
}

bool cw__file_swept(cw_world *world)
{
    bool ok = true;
    for (uint32_t k = 0; k < world->swept.count; k++) {
        uint32_t index = world->swept.items[k];
        if (world->hot[index].disabled)
            continue; // out of the grid until enabled
        bool moved = world->retest_step[index] == world->step;
        cw__box box = swept_box(world, index);
        const cw__proxy *proxy = index < world->grid.proxy_capacity ? &world->grid.proxies[index] : NULL;
        if (!moved && proxy != NULL && proxy->live && same_box(&proxy->box, &box))
            continue;
        if (!cw__grid_update(&world->grid, index, &box, world->hot[index].is_static)) {
            cw__world_mark_dirty(world, index); // out of memory: the step is redone
            ok = false;
            continue;
        }
        if (!moved) { // its box changed: its pairs are looked for again
            world->moved.items[world->moved.count++] = index;
            world->retest_step[index] = world->step;
        }
    }
    return ok;
}

// Whether the pair was touching after the last step (the previous set is sorted by key).
static bool was_touching(const cw_world *world, uint64_t key)
{
    const cw__touching *set = &world->touching[world->current];
    uint32_t at = cw__find_key(set, key);
    return at < set->count && set->keys[at] == key;
}

// A pair judged over its motion: `mover` goes back from where it ends by the relative motion
// (dx, dy) and moves by it against `still` where that ends. The body that moves back is a, unless
// a did not move and b did: then b. So a bullet past a still wall is judged on the numbers
// cw_shape_cast() of the bullet from where it was against the wall reads; moving the wall back
// instead would test a translated copy of them, which rounding may answer otherwise far from the
// origin or against a huge wall.
typedef struct judged {
    uint32_t mover, still;
    double dx, dy;
    bool swapped; // the mover is b: a contact found from it points from b to a
} judged;

static judged judge_motion(const cw_world *world, uint32_t a, uint32_t b)
{
    double ax, ay, bx, by;
    cw__motion(&world->slots[a], &ax, &ay);
    cw__motion(&world->slots[b], &bx, &by);
    if (ax == 0 && ay == 0 && (bx != 0 || by != 0))
        return (judged){b, a, bx - ax, by - ay, true};
    return (judged){a, b, ax - bx, ay - by, false};
}

int cw__swept_outcome(const cw_world *world, uint32_t a, uint32_t b)
{
    judged j = judge_motion(world, a, b);
    cw__body scratch_m, scratch_s;
    const cw__body *pm = cw__slot_body(world, j.mover, &scratch_m), *ps = cw__slot_body(world, j.still, &scratch_s);
    // Gated by the AABBs where rounding matters, as cw_overlap() is: this pair's candidate box was
    // its motion's, which meets far more than the bodies where they are.
    bool now = cw__bodies_may_meet(pm, ps) && cw__overlap_bodies(pm, ps, NULL);
    if (now)
        return CW__TOUCHING_NOW;
    if (was_touching(world, cw__pair_key(a, b)))
        return CW__APART; // it ends, as any pair that stops touching
    cw__body start = cw__body_moved(pm, -j.dx, -j.dy);
    return cw__motion_may_meet(&start, ps, j.dx, j.dy) && cw__cast_hits(&start, ps, j.dx, j.dy) ? CW__PASSED
                                                                                            : CW__APART;
}

// The first touch of a pair that began in this step; `passed`: the swept test found it touching
// over the step's motion (cw__swept_outcome, on the same bodies and motion), so the cast need not
// test that again.
static void first_touch(const cw_world *world, uint64_t key, bool with_manifold, bool passed, cw__begin_info *info)
{
    uint32_t a = cw__key_a(key), b = cw__key_b(key);
    judged j = judge_motion(world, a, b);
    cw__body scratch_m, scratch_s;
    const cw__body *pm = cw__slot_body(world, j.mover, &scratch_m), *ps = cw__slot_body(world, j.still, &scratch_s);
    double still_x, still_y;
    cw__motion(&world->slots[j.still], &still_x, &still_y);
    cw__body start = cw__body_moved(pm, -j.dx, -j.dy);
    cw_manifold found = {{0, 0}, {0, 0}, 0};
    float *fraction = &info->fraction;
    cw_manifold *contact = with_manifold ? &found : NULL;
    if (!(passed ? cw__cast_touching(&start, ps, j.dx, j.dy, fraction, contact)
                 : cw__cast_bodies(&start, ps, j.dx, j.dy, fraction, contact))) {
        // Only where the plain test and the swept one part by rounding: it touches at the end.
        info->fraction = 1;
        if (with_manifold) {
            cw__body scratch_a, scratch_b;
            cw__overlap_bodies(cw__slot_body(world, a, &scratch_a), cw__slot_body(world, b, &scratch_b), &found);
        }
    } else if (with_manifold) {
        // Found with the still body at its end; at that time it was (1 - t) of its motion back.
        double back = 1.0 - info->fraction;
        found.point = (cw_vec2){(float)(found.point.x - back * still_x), (float)(found.point.y - back * still_y)};
        if (j.swapped)
            found.normal = (cw_vec2){-found.normal.x, -found.normal.y}; // from a toward b
    }
    info->manifold = found;
}

void cw__swept_begin(const cw_world *world, uint64_t key, bool with_manifold, cw__begin_info *info)
{
    first_touch(world, key, with_manifold, false, info);
}

void cw__finish_passed(cw_world *world)
{
    cw__passed *passed = &world->passed;
    if (passed->count == 0)
        return;
    cw__sort_pair_keys(world, passed->keys, cw__sort_scratch(world), passed->count, world->slot_count);
    for (uint32_t k = 0; k < passed->count; k++) {
        first_touch(world, passed->keys[k], world->begin_manifolds, true, &passed->info[k]);
        passed->delivered[k] = 0;
    }
}

bool cw__passed_push(cw__passed *passed, uint64_t key)
{
    if (passed->count == UINT32_MAX)
        return false;
    if (passed->count == passed->capacity) {
        // All three arrays are made before any is swapped in: a failure leaves the list as it was.
        uint32_t capacity = cw__grown_capacity(passed->capacity, passed->count + 1, 16);
        uint64_t *keys = cw__alloc(capacity * sizeof *keys);
        cw__begin_info *info = cw__alloc(capacity * sizeof *info);
        uint8_t *delivered = cw__alloc(capacity);
        if (keys == NULL || info == NULL || delivered == NULL) {
            cw__free(keys, capacity * sizeof *keys);
            cw__free(info, capacity * sizeof *info);
            cw__free(delivered, capacity);
            return false;
        }
        if (passed->count > 0) {
            memcpy(keys, passed->keys, passed->count * sizeof *keys);
            memcpy(info, passed->info, passed->count * sizeof *info);
            memcpy(delivered, passed->delivered, passed->count);
        }
        uint32_t count = passed->count;
        cw__passed_free(passed);
        passed->keys = keys, passed->info = info, passed->delivered = delivered;
        passed->count = count, passed->capacity = capacity;
    }
    passed->keys[passed->count++] = key;
    return true;
}

size_t cw__passed_bytes(const cw__passed *passed)
{
    return (size_t)passed->capacity * (sizeof *passed->keys + sizeof *passed->info + sizeof *passed->delivered);
}

void cw__passed_free(cw__passed *passed)
{
    cw__free(passed->keys, passed->capacity * sizeof *passed->keys);
    cw__free(passed->info, passed->capacity * sizeof *passed->info);
    cw__free(passed->delivered, passed->capacity * sizeof *passed->delivered);
    passed->keys = NULL, passed->info = NULL, passed->delivered = NULL;
    passed->count = passed->capacity = 0;
}
