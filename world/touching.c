// The touching set as sorted arrays: a step diffs the sorted pairs it found against the previous
// step's in one merge, in key order, so events come out already ordered and no pair is looked up
// in a table (cw__diff_pairs). Also the growable arrays the world uses.
#include "internal.h"

#include <string.h>

bool cw__u32s_reserve(cw__u32s *array, uint32_t needed)
{
    void *items = array->items;
    if (!cw__reserve(&items, sizeof(uint32_t), &array->capacity, needed))
        return false;
    array->items = items;
    return true;
}

bool cw__u64s_reserve(cw__u64s *array, uint32_t needed)
{
    void *items = array->items;
    if (!cw__reserve(&items, sizeof(uint64_t), &array->capacity, needed))
        return false;
    array->items = items;
    return true;
}

void cw__u32s_free(cw__u32s *array)
{
    cw__free(array->items, array->capacity * sizeof(uint32_t));
    memset(array, 0, sizeof *array);
}

void cw__u64s_free(cw__u64s *array)
{
    cw__free(array->items, array->capacity * sizeof(uint64_t));
    memset(array, 0, sizeof *array);
}

// Grows one array of the set to `capacity` items, keeping `count`; false if memory runs out.
static bool grow(void **items, size_t size, uint32_t count, uint32_t old_capacity, uint32_t capacity)
{
    void *grown = cw__alloc((size_t)capacity * size);
    if (grown == NULL)
        return false;
    if (count > 0)
        memcpy(grown, *items, (size_t)count * size);
    cw__free(*items, (size_t)old_capacity * size);
    *items = grown;
    return true;
}

bool cw__touching_reserve(cw__touching *set, uint32_t needed, bool with_manifolds)
{
    if (needed <= set->capacity && (!with_manifolds || set->manifolds != NULL))
        return true;
    uint32_t capacity = set->capacity < 64 ? 64 : set->capacity; // never ask the allocator for 0 bytes
    while (capacity < needed)
        capacity += capacity / 2;
    // All three arrays are grown before any is swapped in, so a failure leaves the set as it was.
    void *keys = NULL, *flags = NULL, *manifolds = NULL;
    if (!grow(&keys, sizeof(uint64_t), 0, 0, capacity) || !grow(&flags, 1, 0, 0, capacity) ||
        (with_manifolds && !grow(&manifolds, sizeof(cw_manifold), 0, 0, capacity))) {
        cw__free(keys, (size_t)capacity * sizeof(uint64_t));
        cw__free(flags, capacity);
        return false;
    }
    if (set->count > 0) {
        memcpy(keys, set->keys, (size_t)set->count * sizeof(uint64_t));
        memcpy(flags, set->flags, set->count);
        if (with_manifolds && set->manifolds != NULL)
            memcpy(manifolds, set->manifolds, (size_t)set->count * sizeof(cw_manifold));
    }
    cw__touching_free(&(cw__touching){set->keys, set->flags, set->manifolds, 0, set->capacity});
    set->keys = keys, set->flags = flags, set->manifolds = manifolds;
    set->capacity = capacity;
    return true;
}

void cw__touching_free(cw__touching *set)
{
    cw__free(set->keys, (size_t)set->capacity * sizeof(uint64_t));
    cw__free(set->flags, set->capacity);
    cw__free(set->manifolds, (size_t)set->capacity * sizeof(cw_manifold));
    set->keys = NULL, set->flags = NULL, set->manifolds = NULL;
    set->count = set->capacity = 0;
}

// One stable counting pass on the `bits` bits of the keys starting at bit `shift`.
#define RADIX_BITS 11
static void radix_pass(const uint64_t *from, uint64_t *to, uint32_t count, int shift)
{
    uint32_t offsets[1u << RADIX_BITS];
    memset(offsets, 0, sizeof offsets);
    const uint64_t mask = (1u << RADIX_BITS) - 1;
    for (uint32_t i = 0; i < count; i++)
        offsets[(from[i] >> shift) & mask]++;
    uint32_t sum = 0;
    for (uint32_t d = 0; d < (1u << RADIX_BITS); d++) {
        uint32_t n = offsets[d];
        offsets[d] = sum;
        sum += n;
    }
    for (uint32_t i = 0; i < count; i++)
        to[offsets[(from[i] >> shift) & mask]++] = from[i];
}

static void insertion_sort(uint64_t *keys, uint32_t count)
{
    for (uint32_t i = 1; i < count; i++) {
        uint64_t key = keys[i];
        uint32_t j = i;
        for (; j > 0 && keys[j - 1] > key; j--)
            keys[j] = keys[j - 1];
        keys[j] = key;
    }
}

void cw__sort_pair_keys(uint64_t *keys, uint64_t *scratch, uint32_t count, uint32_t index_bound)
{
    if (count < 64) {
        insertion_sort(keys, count);
        return;
    }
    int bits = 1;
    while (bits < 32 && (1ull << bits) < index_bound)
        bits++;
    // Only the low `bits` of each half can be set: b's digits first, then a's (LSD order).
    uint64_t *from = keys, *to = scratch;
    for (int half = 0; half < 64; half += 32) {
        for (int shift = 0; shift < bits; shift += RADIX_BITS) {
            radix_pass(from, to, count, half + shift);
            uint64_t *swap = from;
            from = to, to = swap;
        }
    }
    if (from != keys)
        memcpy(keys, from, (size_t)count * sizeof(uint64_t));
}

// --- the diff ---

static void manifold_of(const cw_world *world, uint64_t key, cw_manifold *manifold)
{
    cw__overlap_bodies(&world->slots[cw__key_a(key)].prepared, &world->slots[cw__key_b(key)].prepared, manifold);
}

// A previous pair that was not found again still touches iff neither body changed (nor died).
static bool unchanged(const cw_world *world, uint64_t key)
{
    return world->retest_step[cw__key_a(key)] < world->step && world->retest_step[cw__key_b(key)] < world->step;
}

// What a begin found in this step carries: pairs with a swept body begin where along the step
// they first touched (0 if they already touch at its start), with the contact there; others at
// the end of the step (fraction 1), with the set's manifold.
static void begin_info_of(const cw_world *world, uint64_t key, const cw__touching *set, uint32_t p, cw__begin_info *info)
{
    uint32_t a = cw__key_a(key), b = cw__key_b(key);
    if (world->hot[a].is_swept | world->hot[b].is_swept) {
        double dx, dy;
        cw__pair_motion(world, a, b, &dx, &dy);
        if (dx != 0 || dy != 0) {
            cw__swept_begin(world, key, world->begin_manifolds, info);
            return;
        }
        info->fraction = 0; // no relative motion: touching all along
    } else {
        info->fraction = 1;
    }
    if (world->begin_manifolds)
        info->manifold = set->manifolds[p];
}

static bool reserve_begin_info(cw_world *world, uint32_t needed)
{
    if (needed <= world->begin_info_capacity)
        return true;
    uint32_t capacity = needed < 64 ? 64 : needed + needed / 2;
    cw__begin_info *info = cw__alloc(capacity * sizeof *info);
    if (info == NULL)
        return false;
    cw__free(world->begin_info, world->begin_info_capacity * sizeof *world->begin_info);
    world->begin_info = info, world->begin_info_capacity = capacity;
    return true;
}

// Appends a pair to the new set; false if memory runs out.
static bool push_pair(cw__touching *set, uint64_t key, uint8_t flags, bool with_manifolds)
{
    if (set->count == set->capacity && !cw__touching_reserve(set, set->count + 1, with_manifolds))
        return false;
    set->keys[set->count] = key;
    set->flags[set->count++] = flags;
    return true;
}

// Merges the previous set with `found` into the other set, listing ends and begins. Returns false
// (the previous set untouched) if memory runs out.
bool cw__diff_pairs(cw_world *world)
{
    const cw__touching *old = &world->touching[world->current];
    cw__touching *next = &world->touching[!world->current];
    const uint64_t *found = world->found.items;
    const uint32_t found_count = world->found.count;
    const bool keep_manifolds = world->stay_manifolds, with_manifolds = keep_manifolds || world->begin_manifolds;
    const uint8_t begun = CW__FRESH | (world->def.on_begin ? 0 : CW__REPORTED);
    world->ends.count = world->begins.count = 0;
    next->count = 0;
    if (!cw__u32s_reserve(&world->ends, old->count) || !cw__u32s_reserve(&world->begins, found_count) ||
        !reserve_begin_info(world, found_count) || !cw__touching_reserve(next, old->count, with_manifolds))
        return false;
    uint32_t i = 0, j = 0;
    while (i < old->count || j < found_count) {
        bool only_found = j < found_count && (i == old->count || found[j] < old->keys[i]);
        bool both = !only_found && j < found_count && found[j] == old->keys[i];
        if (only_found) {
            if (!push_pair(next, found[j], begun, with_manifolds))
                return false;
            if (with_manifolds) // for the begin, or for its stays to come
                manifold_of(world, found[j], &next->manifolds[next->count - 1]);
            begin_info_of(world, found[j], next, next->count - 1, &world->begin_info[world->begins.count]);
            world->begins.items[world->begins.count++] = next->count - 1;
            j++;
        } else if (both || unchanged(world, old->keys[i])) {
            if (!push_pair(next, old->keys[i], old->flags[i] & CW__REPORTED, with_manifolds))
                return false;
            if (keep_manifolds && both)
                manifold_of(world, found[j], &next->manifolds[next->count - 1]);
            else if (keep_manifolds)
                next->manifolds[next->count - 1] = old->manifolds[i];
            i++, j += both;
        } else {
            if (old->flags[i] & CW__REPORTED)
                world->ends.items[world->ends.count++] = i;
            i++;
        }
    }
    return true;
}
