// Delivering a step's events: ends, begins (with those of swept pairs that touched only during the
// step), their ends, stays; each group in key order, to the callbacks.
#include "internal.h"

#include <string.h>

static void *user_data_of(const cw_world *world, uint32_t index)
{
    const cw__slot *slot = &world->slots[index];
    return slot->user_saved_step == world->step ? slot->step_user_data : slot->user_data;
}

static cw_contact contact_of(const cw_world *world, uint64_t key, const cw_manifold *manifold, float fraction)
{
    uint32_t a = cw__key_a(key), b = cw__key_b(key);
    cw_contact contact;
    memset(&contact, 0, sizeof contact);
    contact.a = (cw_body_id){a, world->slots[a].generation};
    contact.b = (cw_body_id){b, world->slots[b].generation};
    contact.user_a = user_data_of(world, a);
    contact.user_b = user_data_of(world, b);
    if (manifold != NULL)
        contact.manifold = *manifold;
    contact.fraction = fraction;
    return contact;
}

// Whether neither body of a pair was destroyed by an earlier callback of this step.
static bool both_alive(const cw_world *world, uint64_t key)
{
    return world->hot[cw__key_a(key)].state == CW__ALIVE && world->hot[cw__key_b(key)].state == CW__ALIVE;
}

static void deliver_ends(cw_world *world, const cw__touching *old)
{
    for (uint32_t k = 0; k < world->ends.count && world->def.on_end; k++) {
        cw_contact contact = contact_of(world, old->keys[world->ends.items[k]], NULL, 1);
        world->stats.end_events++;
        world->def.on_end(&contact, world->def.context);
    }
}

static void deliver_begin(cw_world *world, uint64_t key, const cw__begin_info *info)
{
    cw_contact contact = contact_of(world, key, world->begin_manifolds ? &info->manifold : NULL, info->fraction);
    world->stats.begin_events++;
    world->def.on_begin(&contact, world->def.context);
}

// The step's begins in key order: the pairs that touch now and the swept pairs that touched only
// during the step. A begin whose body a callback destroyed is dropped, and then no end is owed.
static void deliver_begins(cw_world *world, cw__touching *now)
{
    cw__passed *passed = &world->passed;
    uint32_t k = 0, n = 0;
    if (world->def.on_begin == NULL && passed->count > 0) // no begin callback: the ends still come
        memset(passed->delivered, 1, passed->count);
    while (world->def.on_begin && (k < world->begins.count || n < passed->count)) {
        bool take_passed = k == world->begins.count ||
                           (n < passed->count && passed->keys[n] < now->keys[world->begins.items[k]]);
        if (take_passed) {
            if (both_alive(world, passed->keys[n])) {
                passed->delivered[n] = 1;
                deliver_begin(world, passed->keys[n], &passed->info[n]);
            }
            n++;
            continue;
        }
        uint32_t p = world->begins.items[k];
        if (both_alive(world, now->keys[p])) {
            now->flags[p] |= CW__REPORTED;
            deliver_begin(world, now->keys[p], &world->begin_info[k]);
        }
        k++;
    }
}

// The ends of the swept pairs that touched only during the step, for every begin delivered (a
// body destroyed by a callback since still gets them, with its old id and user data).
static void deliver_passed_ends(cw_world *world)
{
    const cw__passed *passed = &world->passed;
    for (uint32_t n = 0; n < passed->count && world->def.on_end; n++) {
        if (!passed->delivered[n])
            continue;
        cw_contact contact = contact_of(world, passed->keys[n], NULL, 1);
        world->stats.end_events++;
        world->def.on_end(&contact, world->def.context);
    }
}

static void deliver_stays(cw_world *world, const cw__touching *now)
{
    for (uint32_t p = 0; p < now->count && world->def.on_stay; p++) {
        if ((now->flags[p] & CW__FRESH) || !both_alive(world, now->keys[p]))
            continue;
        cw_contact contact = contact_of(world, now->keys[p], world->stay_manifolds ? &now->manifolds[p] : NULL, 1);
        world->stats.stay_events++;
        world->def.on_stay(&contact, world->def.context);
    }
}

// Callbacks run on the sets as the diff left them; they may change bodies but never the sets.
void cw__deliver(cw_world *world)
{
    world->in_callback = true;
    deliver_ends(world, &world->touching[!world->current]);
    deliver_begins(world, &world->touching[world->current]);
    deliver_passed_ends(world);
    deliver_stays(world, &world->touching[world->current]);
    world->in_callback = false;
}

