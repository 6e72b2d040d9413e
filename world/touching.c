// The touching set as sorted arrays: a step diffs the sorted pairs it found against the previous
// step's in one merge, in key order, so events come out already ordered and no pair is looked up
// in a table (cw__diff_pairs). Also the growable arrays the world uses.
#include "internal.h"

#include <sched.h>
#include <stdint.h>
#include <string.h>

bool cw__u32s_reserve(cw__u32s *array, uint32_t needed)
{
    void *items = array->items;
    if (!cw__reserve(&items, sizeof(uint32_t), &array->capacity, needed))
        return false;
    array->items = items;
    return true;
}

bool cw__u32s_reserve_exact(cw__u32s *array, uint32_t needed)
{
    void *items = array->items;
    if (!cw__reserve_exact(&items, sizeof(uint32_t), &array->capacity, needed))
        return false;
    array->items = items;
    return true;
}

void cw__u32s_free(cw__u32s *array)
{
    cw__free(array->items, array->capacity * sizeof(uint32_t));
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

bool cw__touching_reserve(cw__touching *set, uint32_t needed, bool with_manifolds, bool with_nodes)
{
    if (needed <= set->capacity && (!with_manifolds || set->manifolds != NULL) && (!with_nodes || set->nodes != NULL))
        return true;
    uint32_t capacity = cw__grown_capacity(set->capacity, needed, 64); // never 0 bytes
    // All the arrays are grown before any is swapped in, so a failure leaves the set as it was.
    void *keys = NULL, *flags = NULL, *nodes = NULL, *manifolds = NULL;
    if (!grow(&keys, sizeof(uint64_t), 0, 0, capacity) || !grow(&flags, 1, 0, 0, capacity) ||
        (with_nodes && !grow(&nodes, sizeof(uint32_t), 0, 0, capacity)) ||
        (with_manifolds && !grow(&manifolds, sizeof(cw_manifold), 0, 0, capacity))) {
        cw__free(keys, (size_t)capacity * sizeof(uint64_t));
        cw__free(flags, capacity);
        cw__free(nodes, (size_t)capacity * sizeof(uint32_t));
        return false;
    }
    if (set->count > 0) {
        memcpy(keys, set->keys, (size_t)set->count * sizeof(uint64_t));
        memcpy(flags, set->flags, set->count);
        if (with_nodes && set->nodes != NULL)
            memcpy(nodes, set->nodes, (size_t)set->count * sizeof(uint32_t));
        if (with_manifolds && set->manifolds != NULL)
            memcpy(manifolds, set->manifolds, (size_t)set->count * sizeof(cw_manifold));
    }
    cw__touching_free(&(cw__touching){set->keys, set->flags, set->nodes, set->manifolds, 0, set->capacity});
    set->keys = keys, set->flags = flags, set->nodes = nodes, set->manifolds = manifolds;
    set->capacity = capacity;
    return true;
}

size_t cw__touching_bytes(const cw__touching *set)
{
    size_t per_pair = sizeof(uint64_t) + 1 + (set->manifolds != NULL ? sizeof(cw_manifold) : 0);
    return (size_t)set->capacity * per_pair; // the nodes are the index's (cw__index_bytes)
}

// Read on any thread: what the index holds is only read once it is kept (a thread building it
// publishes it with its state).
size_t cw__index_bytes(const cw_world *world)
{
    const cw__body_index *index = &world->index;
    if (!cw__index_kept(index))
        return 0;
    size_t words = (size_t)index->capacity * 3 + index->head_capacity;
    for (int k = 0; k < 2; k++)
        words += world->touching[k].nodes != NULL ? world->touching[k].capacity : 0;
    return words * sizeof(uint32_t);
}

void cw__touching_free(cw__touching *set)
{
    cw__free(set->keys, (size_t)set->capacity * sizeof(uint64_t));
    cw__free(set->flags, set->capacity);
    cw__free(set->nodes, (size_t)set->capacity * sizeof(uint32_t));
    cw__free(set->manifolds, (size_t)set->capacity * sizeof(cw_manifold));
    set->keys = NULL, set->flags = NULL, set->nodes = NULL, set->manifolds = NULL;
    set->count = set->capacity = 0;
}

// Radix digits: RADIX_BITS bits a pass.
#define RADIX_BITS 11
_Static_assert((1u << RADIX_BITS) == CW__SORT_DIGITS, "the shared sort's counts are sized by CW__SORT_DIGITS");

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

// One stable counting pass on the RADIX_BITS bits of the keys from bit `shift`, in `parts` parts
// (one on the stepping thread, or one a worker): each part counts its digits, the counts become
// each part's offsets (digit by digit, parts in order: the stable order of a single pass), and each
// part places its keys. The keys are distinct, so the sorted result is the same bytes however many
// parts it took.
typedef struct shared_pass {
    const uint64_t *from;
    uint64_t *to;
    uint32_t count, parts;
    int shift, digit_bits; // digit_bits <= RADIX_BITS
    uint32_t *counts;      // parts x 2^RADIX_BITS, of which each part uses the first 2^digit_bits
} shared_pass;

static void part_range(const shared_pass *s, uint32_t part, uint32_t *begin, uint32_t *end)
{
    *begin = (uint32_t)((uint64_t)s->count * part / s->parts);
    *end = (uint32_t)((uint64_t)s->count * (part + 1) / s->parts);
}

static void count_digits(int start, int end, int worker, void *context)
{
    (void)worker;
    const shared_pass *s = context;
    const uint64_t mask = (1u << s->digit_bits) - 1;
    for (int part = start; part < end; part++) {
        uint32_t *counts = s->counts + ((size_t)part << RADIX_BITS), first, last;
        memset(counts, 0, sizeof(uint32_t) << s->digit_bits);
        part_range(s, (uint32_t)part, &first, &last);
        for (uint32_t i = first; i < last; i++)
            counts[(s->from[i] >> s->shift) & mask]++;
    }
}

static void place_keys(int start, int end, int worker, void *context)
{
    (void)worker;
    const shared_pass *s = context;
    const uint64_t mask = (1u << s->digit_bits) - 1;
    for (int part = start; part < end; part++) {
        uint32_t *offsets = s->counts + ((size_t)part << RADIX_BITS), first, last;
        part_range(s, (uint32_t)part, &first, &last);
        for (uint32_t i = first; i < last; i++)
            s->to[offsets[(s->from[i] >> s->shift) & mask]++] = s->from[i];
    }
}

static void radix_pass(const cw_world *world, shared_pass *s)
{
    cw__parallel_for(world, count_digits, (int)s->parts, 1, s);
    uint32_t sum = 0;
    for (uint32_t d = 0; d < (1u << s->digit_bits); d++) {
        uint32_t *slot = &s->counts[d];
        for (uint32_t part = 0; part < s->parts; part++, slot += 1u << RADIX_BITS) {
            uint32_t n = *slot;
            *slot = sum;
            sum += n;
        }
    }
    cw__parallel_for(world, place_keys, (int)s->parts, 1, s);
}

// Below this many keys one thread sorts them: the passes are short and handing them out costs more.
#define SHARED_SORT_KEYS 65536

void cw__sort_pair_keys(const cw_world *world, uint64_t *keys, uint64_t *scratch, uint32_t count, uint32_t index_bound)
{
    if (count < 64) {
        insertion_sort(keys, count);
        return;
    }
    int bits = 1;
    while (bits < 32 && (1ull << bits) < index_bound)
        bits++;
    uint32_t alone[1u << RADIX_BITS]; // the counts of a pass this thread makes alone
    bool shared = world->workers > 1 && world->sort_counts != NULL && count >= SHARED_SORT_KEYS;
    shared_pass s = {.count = count, .parts = shared ? world->sort_parts : 1, .counts = shared ? world->sort_counts : alone};
    // Only the low `bits` of each half can be set: b's digits first, then a's (LSD order). A pass
    // costs its keys plus clearing and summing 2^digit_bits counts, so the digits are as narrow as
    // the fewest passes allow, and no wider than the keys are many.
    int widest = 1;
    while (widest < RADIX_BITS && (2u << widest) <= count)
        widest++;
    int passes = (bits + widest - 1) / widest;
    s.digit_bits = (bits + passes - 1) / passes;
    uint64_t *from = keys, *to = scratch;
    for (int half = 0; half < 64; half += 32) {
        for (int shift = 0; shift < bits; shift += s.digit_bits) {
            s.from = from, s.to = to, s.shift = half + shift;
            radix_pass(world, &s); // one part: cw__parallel_for runs it here
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
    cw__body scratch_a, scratch_b;
    cw__overlap_bodies(cw__slot_body(world, cw__key_a(key), &scratch_a), cw__slot_body(world, cw__key_b(key), &scratch_b),
                       manifold);
}

// A previous pair that was not found again still touches iff neither body changed (nor died).
static bool unchanged(const cw_world *world, uint64_t key)
{
    return world->retest_step[cw__key_a(key)] < world->step && world->retest_step[cw__key_b(key)] < world->step;
}

// What a begin found in this step carries: pairs with a swept body begin where along the step
// they first touched (0 if they already touch at its start), with the contact there; others at
// the end of the step (fraction 1), with the set's manifold, or where the set keeps none (no
// stays want them) one computed here.
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
    if (world->begin_manifolds && set->manifolds != NULL)
        info->manifold = set->manifolds[p];
    else if (world->begin_manifolds)
        manifold_of(world, key, &info->manifold);
}

static bool reserve_begin_info(cw_world *world, uint32_t needed)
{
    if (needed <= world->begin_info_capacity)
        return true;
    // By half again from the room it had, but no more than needed beyond that: a first step's
    // burst of begins leaves no spare half behind.
    uint64_t grown = (uint64_t)world->begin_info_capacity + world->begin_info_capacity / 2;
    uint32_t capacity = grown > needed ? (uint32_t)(grown < UINT32_MAX ? grown : UINT32_MAX) : needed;
    cw__begin_info *info = cw__alloc(capacity * sizeof *info);
    if (info == NULL)
        return false;
    cw__free(world->begin_info, world->begin_info_capacity * sizeof *world->begin_info);
    world->begin_info = info, world->begin_info_capacity = capacity;
    return true;
}

// Appends to a list of the diff, which grows with what the step finds (a first step's begins
// need not be room for every later step's ends); false if it cannot grow.
static bool push_u32(cw__u32s *list, uint32_t value)
{
    if (list->count == list->capacity && !cw__u32s_reserve(list, list->count + 1))
        return false;
    list->items[list->count++] = value;
    return true;
}

// Appends a pair to the new set; false if it cannot grow.
static bool push_pair(cw__touching *set, uint64_t key, uint8_t flags, uint32_t node, bool with_manifolds)
{
    if (set->count == set->capacity && !cw__touching_reserve(set, set->count + 1, with_manifolds, set->nodes != NULL))
        return false;
    set->keys[set->count] = key;
    if (set->nodes != NULL)
        set->nodes[set->count] = node;
    set->flags[set->count++] = flags;
    return true;
}

// Manifolds (a mask's costs tens of plain tests) and swept begins' first touches are independent
// per pair: the merge lists them and the workers compute them, each into its own place.
#define MANIFOLD_RANGE 16

static void manifold_range(int start, int end, int worker, void *context)
{
    (void)worker;
    const cw_world *world = context;
    cw__touching *next = (cw__touching *)&world->touching[!world->current];
    for (int k = start; k < end; k++) {
        uint32_t p = world->manifold_todo.items[k];
        manifold_of(world, next->keys[p], &next->manifolds[p]);
    }
}

static void begin_info_range(int start, int end, int worker, void *context)
{
    (void)worker;
    cw_world *world = context;
    const cw__touching *next = &world->touching[!world->current];
    for (int k = start; k < end; k++) {
        uint32_t p = cw__begin_at(world, (uint32_t)k);
        begin_info_of(world, next->keys[p], next, p, &world->begin_info[k]);
    }
}

bool cw__reserve_next_set(cw_world *world, uint32_t needed)
{
    const cw__touching *old = &world->touching[world->current];
    cw__touching *next = &world->touching[!world->current];
    next->count = 0; // what it holds is two steps old: nothing to keep
    return cw__touching_reserve(next, needed > old->count ? needed : old->count, world->stay_manifolds,
                                cw__index_kept(&world->index));
}

// A run of pairs found again, copied while the new set has room for them: what the merge does for
// each (the key, whether its begin was reported), without its checks and calls, for sets that keep
// no manifolds or index nodes. Most pairs stay: 100k boxes' step 3% faster.
static void copy_stays(cw__touching *next, const cw__touching *old, const uint64_t *found, uint32_t found_count,
                       uint32_t *i, uint32_t *j)
{
    uint32_t a = *i, b = *j, n = next->count;
    while (a < old->count && b < found_count && found[b] == old->keys[a] && n < next->capacity) {
        next->keys[n] = found[b];
        next->flags[n++] = old->flags[a] & CW__REPORTED;
        a++, b++;
    }
    *i = a, *j = b, next->count = n;
}

// Merges the previous set with `found` into the other set, listing ends and begins. Returns false
// if memory runs out; the previous set and the body index are left as they are either way
// (cw__index_apply() brings the index up to date once the step is sure to go on).
bool cw__diff_pairs(cw_world *world)
{
    const cw__touching *old = &world->touching[world->current];
    cw__touching *next = &world->touching[!world->current];
    const uint64_t *found = world->found;
    const uint32_t found_count = world->found_count;
    // The set keeps manifolds for stays only: begins that want theirs without stays (the default
    // world's) get them in their begin_info, so pairs that stay carry none.
    const bool keep_manifolds = world->stay_manifolds, with_manifolds = keep_manifolds;
    world->ends.count = world->begins.count = world->ends_owed = 0;
    world->begins_all = old->count == 0; // then every pair found begins: no list to make
    next->count = 0;
    // Without swept bodies and with the set's manifolds every begin has fraction 1 and the set's
    // manifold: nothing to keep.
    world->begins_have_info = world->swept.count > 0 || (world->begin_manifolds && !keep_manifolds);
    world->manifold_todo.count = 0;
    if (!cw__touching_reserve(next, old->count, with_manifolds, cw__index_kept(&world->index)))
        return false;
    const bool plain = !keep_manifolds && next->nodes == NULL;
    uint32_t i = 0, j = 0;
    while (i < old->count || j < found_count) {
        if (plain) {
            copy_stays(next, old, found, found_count, &i, &j);
            if (i == old->count && j == found_count)
                break;
        }
        bool only_found = j < found_count && (i == old->count || found[j] < old->keys[i]);
        bool both = !only_found && j < found_count && found[j] == old->keys[i];
        if (only_found) { // reported when the begin is delivered (events.c); linked by cw__index_apply
            if (!push_pair(next, found[j], CW__FRESH, 0, with_manifolds) ||
                (with_manifolds && !push_u32(&world->manifold_todo, next->count - 1)) || // for the begin and stays
                (!world->begins_all && !push_u32(&world->begins, next->count - 1)))
                return false;
            j++;
        } else if (both || unchanged(world, old->keys[i])) {
            if (!push_pair(next, old->keys[i], old->flags[i] & CW__REPORTED, old->nodes ? old->nodes[i] : 0, with_manifolds))
                return false;
            if (keep_manifolds && both && !push_u32(&world->manifold_todo, next->count - 1))
                return false;
            if (keep_manifolds && !both)
                next->manifolds[next->count - 1] = old->manifolds[i];
            i++, j += both;
        } else {
            if (!push_u32(&world->ends, i)) // an end is owed if its begin was reported
                return false;
            world->ends_owed += old->flags[i] & CW__REPORTED;
            i++;
        }
    }
    // The limit bounds the touching set too, whatever moved: pairs kept from earlier steps are
    // not this step's candidates, yet they count, so a pile-up built a few bodies a step fails as
    // one made at once does.
    if (next->count > (uint32_t)world->def.max_pairs) {
        world->candidates.over_limit = true;
        return false;
    }
    uint32_t begins = cw__begin_count(world, next);
    if (world->begins_have_info && !reserve_begin_info(world, begins))
        return false;
    cw__parallel_for(world, manifold_range, (int)world->manifold_todo.count, MANIFOLD_RANGE, world);
    if (world->begins_have_info) // after the manifolds: a begin without motion takes the set's
        cw__parallel_for(world, begin_info_range, (int)begins, MANIFOLD_RANGE, world);
    return true;
}

// --- the body index ---

static uint32_t index_link(cw__body_index *index, uint32_t a, uint32_t b)
{
    uint32_t node = index->free_node;
    if (node != 0)
        index->free_node = index->next[node];
    else
        node = ++index->used; // node 0 is "none"; room was reserved
    index->other[node] = a;
    index->prev[node] = 0;
    index->next[node] = index->head[b];
    if (index->head[b] != 0)
        index->prev[index->head[b]] = node;
    index->head[b] = node;
    return node;
}

static void index_unlink(cw__body_index *index, uint32_t node, uint32_t b)
{
    uint32_t prev = index->prev[node], next = index->next[node];
    if (prev != 0)
        index->next[prev] = next;
    else
        index->head[b] = next;
    if (next != 0)
        index->prev[next] = prev;
    index->next[node] = index->free_node;
    index->free_node = node;
}

// The counts and the index follow the diff: the pairs that left are unlinked first (their nodes are
// reused), then the new ones linked. Room was reserved (cw__index_reserve() for the new set's count).
void cw__index_apply(cw_world *world)
{
    const cw__touching *old = &world->touching[world->current];
    cw__touching *next = &world->touching[!world->current];
    uint32_t *count = world->pair_count;
    bool kept = cw__index_kept(&world->index);
    for (uint32_t k = 0; k < world->ends.count; k++) {
        uint32_t i = world->ends.items[k], a = cw__key_a(old->keys[i]), b = cw__key_b(old->keys[i]);
        count[a]--, count[b]--;
        if (kept)
            index_unlink(&world->index, old->nodes[i], b);
    }
    for (uint32_t k = 0, begins = cw__begin_count(world, next); k < begins; k++) {
        uint32_t p = cw__begin_at(world, k), a = cw__key_a(next->keys[p]), b = cw__key_b(next->keys[p]);
        count[a]++, count[b]++;
        if (kept)
            next->nodes[p] = index_link(&world->index, a, b);
    }
}

bool cw__index_reserve(cw__body_index *index, uint32_t needed)
{
    if (needed <= index->capacity)
        return true;
    uint32_t capacity = cw__grown_capacity(index->capacity, needed, 64);
    // All three are made before any is swapped in: a failure leaves the index as it was.
    uint32_t *arrays[3] = {NULL, NULL, NULL}, *old[3] = {index->other, index->next, index->prev};
    for (int k = 0; k < 3; k++) {
        arrays[k] = cw__alloc((size_t)capacity * sizeof(uint32_t));
        if (arrays[k] == NULL) {
            for (int m = 0; m < k; m++)
                cw__free(arrays[m], (size_t)capacity * sizeof(uint32_t));
            return false;
        }
    }
    for (int k = 0; k < 3; k++) {
        if (index->capacity > 0)
            memcpy(arrays[k], old[k], (size_t)index->capacity * sizeof(uint32_t));
        cw__free(old[k], (size_t)index->capacity * sizeof(uint32_t));
    }
    index->other = arrays[0], index->next = arrays[1], index->prev = arrays[2];
    index->capacity = capacity;
    return true;
}

bool cw__index_reserve_heads(cw__body_index *index, uint32_t slots)
{
    if (slots <= index->head_capacity)
        return true;
    uint32_t *head = cw__alloc((size_t)slots * sizeof(uint32_t));
    if (head == NULL)
        return false;
    memset(head, 0, (size_t)slots * sizeof(uint32_t));
    if (index->head_capacity > 0)
        memcpy(head, index->head, (size_t)index->head_capacity * sizeof(uint32_t));
    cw__free(index->head, (size_t)index->head_capacity * sizeof(uint32_t));
    index->head = head, index->head_capacity = slots;
    return true;
}

void cw__index_free(cw__body_index *index)
{
    cw__free(index->head, (size_t)index->head_capacity * sizeof(uint32_t));
    cw__free(index->other, (size_t)index->capacity * sizeof(uint32_t));
    cw__free(index->next, (size_t)index->capacity * sizeof(uint32_t));
    cw__free(index->prev, (size_t)index->capacity * sizeof(uint32_t));
    index->head = index->other = index->next = index->prev = NULL;
    index->capacity = index->used = index->free_node = index->head_capacity = 0;
    atomic_store(&index->state, CW__INDEX_OFF);
}

// Numbers the set's pairs' nodes body by body: each b body's pairs take a run of consecutive nodes
// (bodies in index order, a run in key order), so the lists are linked in one sequential pass
// instead of a random write for each pair. The heads count each body's pairs, then mark their runs'
// ends, which filling the runs back to front turns into their starts.
static void number_nodes(cw__body_index *index, const cw__touching *set, uint32_t *nodes, uint32_t slots)
{
    uint32_t *head = index->head;
    for (uint32_t p = 0; p < set->count; p++)
        head[cw__key_b(set->keys[p])]++;
    uint32_t end = 1; // node 0 is "none"
    for (uint32_t x = 0; x < slots; x++) {
        end += head[x];
        head[x] = head[x] != 0 ? end : 0;
    }
    for (uint32_t p = set->count; p-- > 0;) {
        uint32_t node = --head[cw__key_b(set->keys[p])];
        index->other[node] = cw__key_a(set->keys[p]);
        nodes[p] = node;
    }
    for (uint32_t x = slots; x-- > 0;) { // runs back to front: each ends where the next one starts
        if (head[x] == 0)
            continue;
        for (uint32_t node = head[x]; node < end; node++) {
            index->next[node] = node + 1 < end ? node + 1 : 0;
            index->prev[node] = node > head[x] ? node - 1 : 0;
        }
        end = head[x];
    }
    index->used = set->count;
    index->free_node = 0;
}

// Builds the index from the current set: heads for every slot, a node for every pair, and the
// set's own nodes (a new array beside its keys, which other threads may be reading). False, with
// nothing kept, if memory runs out.
static bool build_index(cw_world *world)
{
    cw__body_index *index = &world->index;
    cw__touching *set = &world->touching[world->current];
    size_t node_bytes = (size_t)set->capacity * sizeof(uint32_t); // a set with no room yet gets its nodes with it
    uint32_t *nodes = node_bytes > 0 ? cw__alloc(node_bytes) : NULL;
    if ((node_bytes > 0 && nodes == NULL) || !cw__index_reserve_heads(index, world->slot_capacity) ||
        !cw__index_reserve(index, set->count + 1)) {
        cw__free(nodes, node_bytes);
        cw__index_free(index);
        return false;
    }
    number_nodes(index, set, nodes, world->slot_count);
    set->nodes = nodes;
    return true;
}

// The index for cw_body_touching(): built by the first call that needs it, while any other thread
// that needs it at the same time waits (as the event arrays are gathered), and kept by every step
// after. False if memory runs out (a later call tries again) or another thread is stepping.
static bool index_needed(const cw_world *world)
{
    cw_world *self = (cw_world *)(uintptr_t)world; // const to the caller, not to itself
    cw__body_index *index = &self->index;
    int state = atomic_load_explicit(&index->state, memory_order_acquire);
    while (state != CW__INDEX_ON) {
        if (state == CW__INDEX_OFF && atomic_compare_exchange_weak(&index->state, &state, CW__INDEX_BUILDING)) {
            atomic_fetch_add(&self->queries, 1); // as a query: no step, and no body made, meanwhile
            bool stepping = atomic_load(&world->stepping) && !cw__in_step(world);
            bool built = !stepping && build_index(self);
            atomic_fetch_sub(&self->queries, 1);
            atomic_store_explicit(&index->state, built ? CW__INDEX_ON : CW__INDEX_OFF, memory_order_release);
            if (stepping)
                cw__fail("cw_body_touching cannot run while another thread is stepping the world.");
            return built;
        }
        if (state == CW__INDEX_BUILDING)
            sched_yield();
        state = atomic_load_explicit(&index->state, memory_order_acquire);
    }
    return true;
}

// --- what touches what, after the last step ---

uint32_t cw__find_key(const cw__touching *set, uint64_t key)
{
    uint32_t lo = 0, hi = set->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (set->keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool cw__body_has_pairs(const cw_world *world, uint32_t index) { return world->pair_count[index] != 0; }

bool cw_pair_touching(const cw_world *world, cw_body_id a, cw_body_id b)
{
    if (cw__world_slot(world, a) == NULL || cw__world_slot(world, b) == NULL)
        return false;
    if (a.index == b.index || world->hot[a.index].disabled || world->hot[b.index].disabled)
        return false;
    uint64_t key = a.index < b.index ? cw__pair_key(a.index, b.index) : cw__pair_key(b.index, a.index);
    const cw__touching *set = &world->touching[world->current];
    uint32_t at = cw__find_key(set, key);
    return at < set->count && set->keys[at] == key;
}

// One partner for the output: its id and user data, and the set's manifold from the asking body.
static cw_touch touch_of(const cw_world *world, uint32_t partner, uint64_t key, bool flip)
{
    cw_touch t;
    memset(&t, 0, sizeof t);
    t.body = (cw_body_id){partner, world->slots[partner].generation};
    t.user_data = world->slots[partner].user_data;
    if (world->stay_manifolds) {
        const cw__touching *set = &world->touching[world->current];
        uint32_t at = cw__find_key(set, key);
        if (at < set->count && set->keys[at] == key) {
            t.manifold = set->manifolds[at];
            if (flip)
                t.manifold.normal = (cw_vec2){-t.manifold.normal.x, -t.manifold.normal.y};
        }
    }
    return t;
}

// Partners destroyed or switched off since the last step are left out at once, as queries do.
static bool listed(const cw_world *world, uint32_t partner)
{
    return world->hot[partner].state == CW__ALIVE && !world->hot[partner].disabled;
}

// The lowest partner in `body`'s list above `after` (partners are unique), or 0.
static uint32_t next_partner(const cw_world *world, uint32_t body, uint32_t after)
{
    uint32_t best = 0;
    for (uint32_t node = world->index.head[body]; node != 0; node = world->index.next[node]) {
        uint32_t a = world->index.other[node];
        if (a > after && (best == 0 || a < best) && listed(world, a))
            best = a;
    }
    return best;
}

static void sift(cw_touch *t, int i, int n)
{
    for (int child; (child = 2 * i + 1) < n; i = child) {
        if (child + 1 < n && t[child + 1].body.index > t[child].body.index)
            child++;
        if (t[child].body.index <= t[i].body.index)
            return;
        cw_touch swap = t[i];
        t[i] = t[child], t[child] = swap;
    }
}

// Sorts by body index in place (heap sort: no recursion, no allocation).
static void sort_touches(cw_touch *t, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--)
        sift(t, i, n);
    for (int end = n - 1; end > 0; end--) {
        cw_touch swap = t[0];
        t[0] = t[end], t[end] = swap;
        sift(t, 0, end);
    }
}

int cw_body_touching(const cw_world *world, cw_body_id body, cw_touch *out, int capacity)
{
    if (cw__world_slot(world, body) == NULL)
        return -1;
    if (capacity < 0 || (out == NULL && capacity > 0)) {
        cw__fail(capacity < 0 ? "The capacity is negative." : "The output array is NULL but the capacity is not 0.");
        return -1;
    }
    uint32_t x = body.index;
    if (world->hot[x].disabled)
        return 0;
    if (!index_needed(world))
        return -1;
    // Partners below x: its list. Where they all fit, gathered and sorted; else the lowest ones,
    // picked one by one (the output is then too small to sort in).
    int n = 0;
    for (uint32_t node = world->index.head[x]; node != 0; node = world->index.next[node])
        n += listed(world, world->index.other[node]);
    if (n <= capacity) {
        int k = 0;
        for (uint32_t node = world->index.head[x]; node != 0; node = world->index.next[node]) {
            uint32_t a = world->index.other[node];
            if (listed(world, a))
                out[k++] = touch_of(world, a, cw__pair_key(a, x), true);
        }
        sort_touches(out, n);
    } else {
        int k = 0;
        for (uint32_t a = next_partner(world, x, 0); k < capacity; a = next_partner(world, x, a))
            out[k++] = touch_of(world, a, cw__pair_key(a, x), true);
    }
    // Partners above: the range of keys (x, c) of the sorted set, ascending already.
    const cw__touching *set = &world->touching[world->current];
    for (uint32_t at = cw__find_key(set, cw__pair_key(x, 0)); at < set->count && cw__key_a(set->keys[at]) == x; at++) {
        uint32_t c = cw__key_b(set->keys[at]);
        if (!listed(world, c))
            continue;
        if (n < capacity)
            out[n] = touch_of(world, c, set->keys[at], false);
        n++;
    }
    return n;
}
