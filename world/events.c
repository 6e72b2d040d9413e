// Delivering a step's events: ends, begins (with those of swept pairs that touched only during the
// step), their ends, stays; each group in key order, to the callbacks.
#include "internal.h"

#include <stddef.h>
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

// One event: kept in its array (when the world keeps them) and handed to its callback (if any).
static void report_event(cw_world *world, int kind, const cw_contact *contact)
{
    static const size_t counters[3] = {offsetof(cw_world_stats, end_events), offsetof(cw_world_stats, begin_events),
                                       offsetof(cw_world_stats, stay_events)};
    (*(int *)((char *)&world->stats + counters[kind]))++;
    cw__event_arrays *arrays = &world->events;
    if (world->def.event_arrays) // room was made before the step's diff
        arrays->items[kind][arrays->count[kind]++] = *contact;
    cw_contact_fn *fn = kind == CW__ENDS ? world->def.on_end : kind == CW__BEGINS ? world->def.on_begin : world->def.on_stay;
    if (fn != NULL)
        fn(contact, world->def.context);
}

static void deliver_ends(cw_world *world, const cw__touching *old)
{
    for (uint32_t k = 0; k < world->ends.count; k++) {
        uint32_t i = world->ends.items[k];
        if (!(old->flags[i] & CW__REPORTED))
            continue; // its begin was dropped (a callback destroyed a body): no end is owed
        cw_contact contact = contact_of(world, old->keys[i], NULL, 1);
        report_event(world, CW__ENDS, &contact);
    }
}

static void deliver_begin(cw_world *world, uint64_t key, const cw__begin_info *info)
{
    cw_contact contact = contact_of(world, key, world->begin_manifolds ? &info->manifold : NULL, info->fraction);
    report_event(world, CW__BEGINS, &contact);
}

// The step's begins in key order: the pairs that touch now and the swept pairs that touched only
// during the step. A begin whose body a callback destroyed is dropped, and then no end is owed;
// every other begin is reported (so its end will be), callback or not.
static void deliver_begins(cw_world *world, cw__touching *now)
{
    cw__passed *passed = &world->passed;
    uint32_t k = 0, n = 0;
    while (k < world->begins.count || n < passed->count) {
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
            cw__begin_info plain = {.fraction = 1};
            if (!world->begins_have_info && world->begin_manifolds)
                plain.manifold = now->manifolds[p];
            deliver_begin(world, now->keys[p], world->begins_have_info ? &world->begin_info[k] : &plain);
        }
        k++;
    }
}

// The ends of the swept pairs that touched only during the step, for every begin delivered (a
// body destroyed by a callback since still gets them, with its old id and user data).
static void deliver_passed_ends(cw_world *world)
{
    const cw__passed *passed = &world->passed;
    for (uint32_t n = 0; n < passed->count; n++) {
        if (!passed->delivered[n])
            continue;
        cw_contact contact = contact_of(world, passed->keys[n], NULL, 1);
        report_event(world, CW__ENDS, &contact);
    }
}

static void deliver_stays(cw_world *world, const cw__touching *now)
{
    for (uint32_t p = 0; p < now->count && world->report_stays; p++) {
        if ((now->flags[p] & CW__FRESH) || !both_alive(world, now->keys[p]))
            continue;
        cw_contact contact = contact_of(world, now->keys[p], world->stay_manifolds ? &now->manifolds[p] : NULL, 1);
        report_event(world, CW__STAYS, &contact);
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


// Room for the events the diff listed: its ends and the passed pairs' ends, its begins and the
// passed pairs' begins, and a stay for every pair of the new set that did not just begin.
bool cw__events_reserve(cw_world *world)
{
    cw__event_arrays *arrays = &world->events;
    memset(arrays->count, 0, sizeof arrays->count);
    if (!world->def.event_arrays)
        return true;
    uint32_t passed = world->passed.count, begins = world->begins.count;
    uint32_t pairs = world->touching[!world->current].count; // the new set
    const uint64_t needed[3] = {(uint64_t)world->ends_owed + passed, (uint64_t)begins + passed,
                                world->report_stays ? (uint64_t)pairs - begins : 0};
    for (int kind = 0; kind < 3; kind++) {
        if (needed[kind] <= arrays->capacity[kind])
            continue;
        if (needed[kind] > UINT32_MAX / 2) {
            cw__fail("Out of memory: the step's events would not fit the event arrays.");
            return false;
        }
        void *items = arrays->items[kind];
        if (!cw__reserve(&items, sizeof(cw_contact), &arrays->capacity[kind], (uint32_t)needed[kind]))
            return false;
        arrays->items[kind] = items;
    }
    return true;
}

void cw__events_free(cw__event_arrays *events)
{
    for (int kind = 0; kind < 3; kind++)
        cw__free(events->items[kind], (size_t)events->capacity[kind] * sizeof(cw_contact));
    memset(events, 0, sizeof *events);
}

cw_events cw_world_events(const cw_world *world)
{
    cw_events out;
    memset(&out, 0, sizeof out);
    if (world == NULL) {
        cw__fail("The world is NULL.");
        return out;
    }
    const cw__event_arrays *arrays = &world->events;
    out.ends = arrays->items[CW__ENDS], out.end_count = (int)arrays->count[CW__ENDS];
    out.begins = arrays->items[CW__BEGINS], out.begin_count = (int)arrays->count[CW__BEGINS];
    out.stays = arrays->items[CW__STAYS], out.stay_count = (int)arrays->count[CW__STAYS];
    return out;
}
