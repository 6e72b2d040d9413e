// The touching set as sorted arrays: a step diffs the sorted pairs it found against the previous
// step's in one merge, in key order, so events come out already ordered and no pair is looked up
// in a table. Also the growable arrays the world uses.
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
