// Delivering a step's events: ends, begins (with those of swept pairs that touched only during the
// step), their ends, stays; each group in key order, to the callbacks.
#include "internal.h"

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
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

// The events of a kind delivered so far in the step (the step's statistics count them).
static int *delivered_count(cw_world *world, int kind)
{
    return kind == CW__ENDS ? &world->stats.end_events : kind == CW__BEGINS ? &world->stats.begin_events
                                                                           : &world->stats.stay_events;
}

static cw_contact_fn *callback_of(const cw_world *world, int kind)
{
    return kind == CW__ENDS ? world->def.on_end : kind == CW__BEGINS ? world->def.on_begin : world->def.on_stay;
}

// One event: counted, kept in its array if it is an end (begins and stays are gathered from the
// step's sets when cw_world_events() asks), and handed to its callback (if any; without one, a
// begin or stay comes with no contact: nobody would read it).
static void report_event(cw_world *world, int kind, const cw_contact *contact)
{
    (*delivered_count(world, kind))++;
    cw__event_arrays *arrays = &world->events;
    if (kind == CW__ENDS && world->def.event_arrays) // room was made before the step's diff
        arrays->items[kind][arrays->count[kind]++] = *contact;
    cw_contact_fn *fn = callback_of(world, kind);
    if (fn != NULL)
        fn(contact, world->def.context);
}

// Delivery reads, for each event, the two bodies' slots (ids, user data) and hot records (alive or
// not): scattered over arrays far larger than the cache in large worlds, and asked for this many
// events ahead so that the callbacks do not wait on them one by one.
#define DELIVERY_AHEAD 8

static void prefetch_event_body(const cw_world *world, uint32_t index)
{
    const cw__slot *slot = &world->slots[index];
    cw__prefetch(&slot->generation);
    cw__prefetch(&slot->user_data);
    cw__prefetch(&world->hot[index]);
}

static void prefetch_contact(const cw_world *world, uint64_t key)
{
    prefetch_event_body(world, cw__key_a(key));
    prefetch_event_body(world, cw__key_b(key));
}

static void deliver_ends(cw_world *world, const cw__touching *old)
{
    for (uint32_t k = 0; k < world->ends.count; k++) {
        if (k + DELIVERY_AHEAD < world->ends.count)
            prefetch_contact(world, old->keys[world->ends.items[k + DELIVERY_AHEAD]]);
        uint32_t i = world->ends.items[k];
        if (!(old->flags[i] & CW__REPORTED))
            continue; // its begin was dropped (a callback destroyed a body): no end is owed
        cw_contact contact = contact_of(world, old->keys[i], NULL, 1);
        report_event(world, CW__ENDS, &contact);
    }
}

// The step's begins in key order are the merge of the pairs that touch now (world->begins) and the
// swept pairs that touched only during the step (world->passed); a cursor is a position in each.
// Takes the begin at the cursor and moves past it; true (and its contact, if `out` is not NULL) if
// it is, or was, delivered. Delivering (`deliver`), a begin whose body a callback destroyed is dropped, and then no
// end is owed; every other is marked (so its end will be), callback or not. Gathering, the marks
// say which were delivered.
static bool take_begin(cw_world *world, uint32_t *k, uint32_t *n, bool deliver, cw_contact *out)
{
    cw__passed *passed = &world->passed;
    cw__touching *now = &world->touching[world->current];
    if (*k == cw__begin_count(world, now) || (*n < passed->count && passed->keys[*n] < now->keys[cw__begin_at(world, *k)])) {
        uint32_t i = (*n)++;
        if (deliver)
            passed->delivered[i] = both_alive(world, passed->keys[i]);
        if (!passed->delivered[i])
            return false;
        const cw__begin_info *info = &passed->info[i];
        if (out != NULL)
            *out = contact_of(world, passed->keys[i], world->begin_manifolds ? &info->manifold : NULL, info->fraction);
        return true;
    }
    uint32_t i = (*k)++, p = cw__begin_at(world, i);
    if (deliver && both_alive(world, now->keys[p]))
        now->flags[p] |= CW__REPORTED;
    if (!(now->flags[p] & CW__REPORTED)) // a pair that just began: marked by its delivery only
        return false;
    if (out == NULL)
        return true;
    const cw__begin_info *info = world->begins_have_info ? &world->begin_info[i] : NULL;
    const cw_manifold *manifold = !world->begin_manifolds ? NULL : info ? &info->manifold : &now->manifolds[p];
    *out = contact_of(world, now->keys[p], manifold, info ? info->fraction : 1);
    return true;
}

static bool more_begins(const cw_world *world, uint32_t k, uint32_t n)
{
    return k < cw__begin_count(world, &world->touching[world->current]) || n < world->passed.count;
}

static void deliver_begins(cw_world *world)
{
    cw_contact contact, *out = callback_of(world, CW__BEGINS) != NULL ? &contact : NULL;
    const cw__touching *now = &world->touching[world->current];
    const uint32_t begins = cw__begin_count(world, now);
    for (uint32_t k = 0, n = 0; more_begins(world, k, n);) {
        if (k + DELIVERY_AHEAD < begins) // the passed pairs' begins, few, are left to come
            prefetch_contact(world, now->keys[cw__begin_at(world, k + DELIVERY_AHEAD)]);
        if (take_begin(world, &k, &n, true, out))
            report_event(world, CW__BEGINS, out);
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

// The stay of pair p of the current set: true (and its contact, if `out` is not NULL) if it is, or
// was, delivered.
// Delivering, a pair that began in the step or names a body a callback destroyed is passed over,
// and the others are marked; gathering, the marks say which were delivered.
static bool take_stay(cw_world *world, uint32_t p, bool deliver, cw_contact *out)
{
    cw__touching *now = &world->touching[world->current];
    if (deliver && !(now->flags[p] & CW__FRESH) && both_alive(world, now->keys[p]))
        now->flags[p] |= CW__STAYED;
    if (!(now->flags[p] & CW__STAYED))
        return false;
    if (out != NULL)
        *out = contact_of(world, now->keys[p], world->stay_manifolds ? &now->manifolds[p] : NULL, 1);
    return true;
}

static void deliver_stays(cw_world *world)
{
    cw_contact contact, *out = callback_of(world, CW__STAYS) != NULL ? &contact : NULL;
    const cw__touching *now = &world->touching[world->current];
    for (uint32_t p = 0; p < now->count && world->report_stays; p++) {
        if (p + DELIVERY_AHEAD < now->count)
            prefetch_contact(world, now->keys[p + DELIVERY_AHEAD]);
        if (take_stay(world, p, true, out))
            report_event(world, CW__STAYS, out);
    }
}

// Callbacks run on the sets as the diff left them; they may change bodies but never the sets.
void cw__deliver(cw_world *world)
{
    world->in_callback = true;
    deliver_ends(world, &world->touching[!world->current]);
    deliver_begins(world);
    deliver_passed_ends(world);
    deliver_stays(world);
    world->in_callback = false;
}


// Room for `needed` events of a kind; false (with an error) if memory runs out.
static bool reserve_kind(cw__event_arrays *arrays, int kind, uint64_t needed)
{
    if (needed <= arrays->capacity[kind])
        return true;
    if (needed > UINT32_MAX / 2) {
        cw__fail("Out of memory: the step's events would not fit the event arrays.");
        return false;
    }
    void *items = arrays->items[kind];
    uint32_t old_capacity = arrays->capacity[kind];
    if (!cw__reserve(&items, sizeof(cw_contact), &arrays->capacity[kind], (uint32_t)needed))
        return false;
    arrays->items[kind] = items;
    atomic_fetch_add(&arrays->bytes, (size_t)(arrays->capacity[kind] - old_capacity) * sizeof(cw_contact));
    return true;
}

// Room for the ends the diff listed (its ends and the passed pairs'), which delivery copies into
// their array as it goes: the bodies of some are freed when the step ends.
bool cw__events_reserve(cw_world *world)
{
    cw__event_arrays *arrays = &world->events;
    if (!world->def.event_arrays)
        return true;
    return reserve_kind(arrays, CW__ENDS, (uint64_t)world->ends_owed + world->passed.count);
}

// Copies the begins and stays delivered so far that are not in the arrays yet, from where the last
// gathering of the step stopped (their marks are in the sets, which stay as the step left them
// until the next step, and so do the ids and the user data they show). False if memory runs out.
static bool gather(cw_world *world)
{
    cw__event_arrays *arrays = &world->events;
    uint32_t begins = (uint32_t)*delivered_count(world, CW__BEGINS), stays = (uint32_t)*delivered_count(world, CW__STAYS);
    if (begins == arrays->count[CW__BEGINS] && stays == arrays->count[CW__STAYS])
        return true; // all there (and after a step that failed, nothing to gather)
    if (cw__in_step(world)) { // more to come in this delivery: room for all it may bring
        uint32_t pairs = world->touching[world->current].count;
        uint32_t began = cw__begin_count(world, &world->touching[world->current]);
        begins = began + world->passed.count;
        stays = world->report_stays ? pairs - began : 0;
    }
    if (!reserve_kind(arrays, CW__BEGINS, begins) || !reserve_kind(arrays, CW__STAYS, stays)) {
        cw__fail("Out of memory: the step's begins and stays could not be gathered into the event arrays; a later "
                 "call tries again.");
        return false;
    }
    cw_contact contact;
    while (arrays->count[CW__BEGINS] < (uint32_t)*delivered_count(world, CW__BEGINS))
        if (take_begin(world, &arrays->begin_cursor[0], &arrays->begin_cursor[1], false, &contact))
            arrays->items[CW__BEGINS][arrays->count[CW__BEGINS]++] = contact;
    while (arrays->count[CW__STAYS] < (uint32_t)*delivered_count(world, CW__STAYS))
        if (take_stay(world, arrays->stay_cursor++, false, &contact))
            arrays->items[CW__STAYS][arrays->count[CW__STAYS]++] = contact;
    return true;
}

// Gathers the step's begins and stays once: from a callback (on the stepping thread) up to the event
// being delivered; after the step, by the first caller while any others wait for it.
static bool gather_once(cw_world *world)
{
    cw__event_arrays *arrays = &world->events;
    if (cw__in_step(world))
        return gather(world);
    int state = atomic_load(&arrays->gathered);
    while (state != CW__GATHERED) {
        if (state == CW__NOT_GATHERED && atomic_compare_exchange_weak(&arrays->gathered, &state, CW__GATHERING)) {
            bool ok = gather(world);
            atomic_store(&arrays->gathered, ok ? CW__GATHERED : CW__NOT_GATHERED);
            return ok;
        }
        if (state == CW__GATHERING)
            sched_yield();
        state = atomic_load(&arrays->gathered);
    }
    return true;
}

void cw__events_start_step(cw__event_arrays *events)
{
    memset(events->count, 0, sizeof events->count);
    memset(events->begin_cursor, 0, sizeof events->begin_cursor);
    events->stay_cursor = 0;
    atomic_store(&events->gathered, CW__NOT_GATHERED);
}

void cw__events_free(cw__event_arrays *events)
{
    for (int kind = 0; kind < 3; kind++)
        cw__free(events->items[kind], (size_t)events->capacity[kind] * sizeof(cw_contact));
    memset(events->items, 0, sizeof events->items);
    memset(events->capacity, 0, sizeof events->capacity);
    atomic_store(&events->bytes, 0);
    cw__events_start_step(events);
}

cw_events cw_world_events(const cw_world *world)
{
    cw_events out;
    memset(&out, 0, sizeof out);
    if (world == NULL) {
        cw__fail("The world is NULL.");
        return out;
    }
    if (atomic_load(&world->stepping) && !cw__in_step(world)) {
        cw__fail("cw_world_events cannot run while another thread is stepping the world.");
        return out;
    }
    // Gathering fills the world's arrays, which the caller does not see otherwise: the world is const
    // to the caller, not to itself.
    cw_world *self = (cw_world *)(uintptr_t)world;
    if (world->def.event_arrays && !gather_once(self))
        return out;
    const cw__event_arrays *arrays = &world->events;
    out.ends = arrays->items[CW__ENDS], out.end_count = (int)arrays->count[CW__ENDS];
    out.begins = arrays->items[CW__BEGINS], out.begin_count = (int)arrays->count[CW__BEGINS];
    out.stays = arrays->items[CW__STAYS], out.stay_count = (int)arrays->count[CW__STAYS];
    return out;
}
