// Moving bodies: one at a time (cw_body_set_transform, cw_body_teleport) or a list at once
// (cw_world_set_transforms). A list is checked whole before anything changes, its rotations are
// turned into cosines and sines two at a time, and a long one is placed on the world's workers.
// Either way each body ends with the same bits as one cw_body_set_transform() call would give it.
#include "internal.h"

#include <string.h>

// Whether the placement is moderate (cw__placement_is_moderate) with a finite rotation, so valid:
// the full check is only for the others. Reads the slot and hot record, not a mask's kept form.
static inline bool moderate_move(const cw_world *world, uint32_t index, const cw_transform *t)
{
    const float side = world->hot[index].is_box ? cw__box_side(world->slots[index].size) : 0.0f;
    return cw__moderate(t->position.x, t->position.y, t->origin.x, t->origin.y, t->scale.x, t->scale.y, side) &&
           cw__abs_bits(t->rotation) < 0x7f800000u;
}

static inline bool rotation_changed(const cw_world *world, uint32_t index, const cw_transform *t)
{
    return memcmp(&t->rotation, &world->slots[index].transform.rotation, sizeof t->rotation) != 0;
}

// The rotation's cosine and sine kept in the body's current form (for a rotation that did not change:
// most sprites do not turn).
static void kept_cos_sin(const cw_world *world, uint32_t index, double *c, double *s)
{
    const cw__hot *hot = &world->hot[index];
    if (hot->is_box) {
        *c = hot->obb.c, *s = hot->obb.s;
    } else {
        const cw__xf *xf = &cw__mask_body(world, hot->mask_body)->xf;
        *c = xf->c, *s = xf->s;
    }
}

static void cos_sin_for(const cw_world *world, uint32_t index, const cw_transform *t, double *c, double *s)
{
    if (rotation_changed(world, index, t))
        cw__cos_sin(t->rotation, c, s);
    else
        kept_cos_sin(world, index, c, s);
}

// Puts a body (already marked dirty, its transform known to be valid; `moderate`: moderate_move())
// at `t`, rotated by (c, s): a box needs only its SAT form and AABB, a mask its kept form, moved in
// place.
static CW__ALWAYS_INLINE void place(cw_world *world, uint32_t index, const cw_transform *t, bool moderate, double c,
                                    double s)
{
    cw__slot *slot = &world->slots[index];
    cw__hot *hot = &world->hot[index];
    cw_shape shape = {.type = hot->is_box ? CW_SHAPE_BOX : CW_SHAPE_MASK, .size = slot->size};
    cw_aabb aabb;
    if (hot->is_box) {
        cw__place_box(&shape, t, c, s, moderate, &hot->obb, &aabb);
    } else {
        cw__body *body = cw__mask_body(world, hot->mask_body);
        shape.mask = body->mask;
        cw__place_mask(&shape, t, c, s, moderate, body, &aabb);
    }
    slot->next_aabb = (cw__box){aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y};
    slot->transform = *t;
}

bool cw__move_body(cw_world *world, uint32_t index, const cw_transform *t)
{
    const bool moderate = moderate_move(world, index, t);
    if (!moderate && !cw__transform_is_valid(t))
        return false; // nothing changed
    double c, s;
    cos_sin_for(world, index, t, &c, &s);
    cw__world_mark_dirty(world, index);
    place(world, index, t, moderate, c, s);
    return true;
}

// --- A list of moves ---

// A large world's bodies lie anywhere in memory, and a list names them in the caller's order, so
// their records are asked for ahead: while checking, the slot and hot record CHECK_AHEAD entries
// ahead; while placing, the same 2 * MOVE_AHEAD ahead (in case the check's are gone) and a mask's
// kept form (its hot record in by then) MOVE_AHEAD ahead. 100k boxes listed in random order: 22.8
// ms one call a body, the list 15.6 ms placing ahead only, 13.3 checking ahead too. A list in index
// order, or a small world's records, need no asking: there it is pure cost.
#define MOVE_AHEAD 8
#define CHECK_AHEAD 16
#define PREFETCHED_MOVES 16384

// Whether a list's bodies' records are asked for ahead: in a large world, or always under the test
// hook (cw__test_share_moves_from), so that the tests' small worlds run that path too.
static inline bool asks_ahead(const cw_world *world)
{
    return world->slot_count >= PREFETCHED_MOVES || world->share_moves_from != 0;
}

// cw__transform_is_valid() for entry k of a list, its error naming the entry.
static bool transform_is_valid(int k, const cw_transform *t)
{
    const char *fault = cw__transform_fault(t);
    if (fault != NULL)
        cw__failf("Entry %d of the list %s; nothing was moved.", k, fault);
    return fault == NULL;
}

// The first entry of the list that cannot be moved, with the error recorded, or -1. Each entry's
// body is marked dirty and listed as it passes (the list's place goes on the dirty list in list
// order, as one call at a time would put it): see unlist(). *masks: how many entries are masks;
// *ordered: whether the list is in index order (its records then come in memory order: nothing is
// asked for ahead, here once an entry is seen out of order).
static int check_list(cw_world *world, const cw_body_id *bodies, const cw_transform *transforms, int count,
                      int *masks, bool *ordered)
{
    int mask_count = 0;
    bool in_order = true;
    const bool far = asks_ahead(world);
    for (int k = 0; k < count; k++) {
        const uint32_t index = bodies[k].index;
        const cw_transform *t = &transforms[k];
        in_order = in_order && (k == 0 || index > bodies[k - 1].index);
        if (far && !in_order && k + CHECK_AHEAD < count && bodies[k + CHECK_AHEAD].index < world->slot_count) {
            const uint32_t ahead = bodies[k + CHECK_AHEAD].index; // an id not yet checked: in range only
            cw__prefetch_lines(&world->hot[ahead], sizeof(cw__hot));
            cw__prefetch_lines(&world->slots[ahead], sizeof(cw__slot));
        }
        if (!cw__is_live(world, bodies[k])) {
            cw__failf("Entry %d of the list names no live body (its id is stale or null); nothing was moved.", k);
            return k;
        }
        if (world->hot[index].listed) {
            cw__failf("Entry %d of the list names a body an earlier entry names (list each body once); "
                      "nothing was moved.", k);
            return k;
        }
        if (!moderate_move(world, index, t) && !transform_is_valid(k, t))
            return k;
        world->hot[index].listed = true;
        mask_count += !world->hot[index].is_box;
        cw__world_mark_dirty(world, index);
    }
    *masks = mask_count, *ordered = in_order;
    return -1;
}

// Undoes check_list() for the first `checked` entries: their listed marks, and the dirty marks of
// those it put on the dirty list (after `dirty_before`), so a failed call leaves the world as it was.
static void unlist(cw_world *world, const cw_body_id *bodies, int checked, uint32_t dirty_before)
{
    for (int k = 0; k < checked; k++)
        world->hot[bodies[k].index].listed = false;
    for (uint32_t i = dirty_before; i < world->dirty.count; i++)
        world->hot[world->dirty.items[i]].dirty = false;
    world->dirty.count = dirty_before;
}

typedef struct move_list {
    cw_world *world;
    const cw_body_id *bodies;
    const cw_transform *transforms;
    bool ahead; // ask for the entries' records ahead (asks_ahead(), the list out of index order)
} move_list;

// Asks for what entry k's successors in [k, end) will read. Never past `end`: the entries after it
// may be another worker's, whose hot records it is writing.
static inline void prefetch_entry(const move_list *list, int k, int end)
{
    const cw_world *world = list->world;
    if (k + 2 * MOVE_AHEAD < end) {
        const uint32_t index = list->bodies[k + 2 * MOVE_AHEAD].index;
        cw__prefetch_lines(&world->hot[index], sizeof(cw__hot));
        cw__prefetch_lines(&world->slots[index], sizeof(cw__slot));
    }
    if (k + MOVE_AHEAD < end) {
        const cw__hot *hot = &world->hot[list->bodies[k + MOVE_AHEAD].index];
        if (!hot->is_box)
            cw__prefetch_lines(cw__mask_body(world, hot->mask_body), sizeof(cw__body));
    }
}

// Places a listed body at `t`, rotated by (c, s), and takes it off the list.
static CW__ALWAYS_INLINE void place_listed(cw_world *world, uint32_t index, const cw_transform *t, double c, double s)
{
    world->hot[index].listed = false;
    place(world, index, t, moderate_move(world, index, t), c, s);
}

// Places entries [start, end), two at a time: both rotations that changed go through one two-lane
// cosine and sine (the same bits as one at a time). Each entry writes only its own body's records,
// so ranges may run on different workers.
static void place_range(int start, int end, int worker, void *context)
{
    (void)worker;
    const move_list *list = context;
    cw_world *world = list->world;
    int k = start;
    for (; k + 1 < end; k += 2) {
        if (list->ahead) {
            prefetch_entry(list, k, end);
            prefetch_entry(list, k + 1, end);
        }
        const uint32_t a = list->bodies[k].index, b = list->bodies[k + 1].index;
        const cw_transform *ta = &list->transforms[k], *tb = &list->transforms[k + 1];
        double c[2], s[2];
        if (rotation_changed(world, a, ta) && rotation_changed(world, b, tb)) {
            cw__cos_sin2(ta->rotation, tb->rotation, c, s);
        } else {
            cos_sin_for(world, a, ta, &c[0], &s[0]);
            cos_sin_for(world, b, tb, &c[1], &s[1]);
        }
        place_listed(world, a, ta, c[0], s[0]);
        place_listed(world, b, tb, c[1], s[1]);
    }
    if (k < end) {
        const uint32_t a = list->bodies[k].index;
        double c, s;
        cos_sin_for(world, a, &list->transforms[k], &c, &s);
        place_listed(world, a, &list->transforms[k], c, s);
    }
}

// A list is placed on the workers from PARALLEL_MOVES box moves' worth of work (a mask's move costs
// about two), below which waking them costs more than sharing the work saves (bench_moves, 2
// workers: 10k boxes 14% slower shared, 10k sprites 22% faster, 100k boxes 34% faster). Ranges are
// at least MOVE_RANGE entries.
#define PARALLEL_MOVES 16384
#define MOVE_RANGE 256

bool cw_world_set_transforms(cw_world *world, const cw_body_id *bodies, const cw_transform *transforms, int count)
{
    if (world == NULL || count < 0 || (count > 0 && (bodies == NULL || transforms == NULL))) {
        cw__fail(world == NULL      ? "The world is NULL."
                 : count < 0        ? "The count must be 0 or more."
                 : bodies == NULL   ? "The body list is NULL."
                                    : "The transform list is NULL.");
        return false;
    }
    if (!cw__world_may_change(world))
        return false;
    const uint32_t dirty_before = world->dirty.count;
    int masks = 0; // set by check_list(); initialised for compilers that cannot see that (-O1)
    bool ordered = true;
    const int bad = check_list(world, bodies, transforms, count, &masks, &ordered);
    if (bad >= 0) {
        unlist(world, bodies, bad, dirty_before);
        return false;
    }
    move_list list = {world, bodies, transforms, asks_ahead(world) && !ordered};
    // Inside a step (from a callback) the step owns the workers: the calling thread places alone.
    const int share_from = world->share_moves_from ? world->share_moves_from : PARALLEL_MOVES;
    if ((int64_t)count + masks >= share_from && !cw__in_step(world))
        cw__parallel_for(world, place_range, count, MOVE_RANGE, &list);
    else
        place_range(0, count, 0, &list);
    return true;
}

void cw__test_share_moves_from(cw_world *world, int work) { world->share_moves_from = work; }
