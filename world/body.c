// Bodies: creation, destruction, ids with generations, setters and getters.
#include "internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

bool cw_body_id_is_null(cw_body_id id) { return id.index == 0 && id.generation == 0; }

cw_body_def cw_default_body_def(void)
{
    return (cw_body_def){.shape = cw_shape_box(1, 1),
                         .transform = cw_default_transform(),
                         .category = 1,
                         .collides_with = UINT32_MAX,
                         .is_static = false,
                         .swept = false,
                         .user_data = NULL,
                         .group = 0};
}

static bool check_world(const cw_world *world)
{
    if (world == NULL)
        cw__fail("The world is NULL.");
    return world != NULL;
}

bool cw__world_may_change(const cw_world *world)
{
    // Nobody queries or steps (every change between steps): a query callback on this thread counts
    // in `queries` too, so nothing below can object.
    if (atomic_load(&world->queries) == 0 && !atomic_load(&world->stepping))
        return true;
    if (cw__in_query(world)) {
        cw__fail("Bodies cannot be created, destroyed or changed from inside a query callback.");
        return false;
    }
    if (atomic_load(&world->queries) > 0) {
        cw__fail("Bodies cannot be changed while another thread is querying the world.");
        return false;
    }
    if (atomic_load(&world->stepping) && !cw__in_step(world)) {
        cw__fail("Bodies cannot be changed while another thread is stepping the world.");
        return false;
    }
    return true;
}

// The slot of a live body that may be changed now, or NULL with an error.
static cw__slot *changeable_slot(cw_world *world, cw_body_id id)
{
    cw__slot *slot = cw__world_slot(world, id);
    return slot != NULL && cw__world_may_change(world) ? slot : NULL;
}

cw__slot *cw__world_slot(const cw_world *world, cw_body_id id)
{
    if (!check_world(world))
        return NULL;
    if (!cw__is_live(world, id)) {
        cw__fail("The body id is stale or null: that body was destroyed or never existed.");
        return NULL;
    }
    return &world->slots[id.index];
}

bool cw_body_is_valid(const cw_world *world, cw_body_id id) { return world != NULL && cw__is_live(world, id); }

void cw__world_mark_dirty(cw_world *world, uint32_t index)
{
    cw__hot *hot = &world->hot[index];
    if (hot->dirty)
        return;
    // Room for every slot was reserved when the slot was made, so this never allocates.
    world->dirty.items[world->dirty.count++] = index;
    hot->dirty = true;
}

// The element sizes of the arrays parallel to the slots, in parallel_arrays' order.
static void parallel_sizes(size_t sizes[CW__SLOT_ARRAYS])
{
    sizes[0] = sizeof(cw__slot), sizes[1] = sizeof(cw__hot), sizes[2] = sizeof(uint32_t), sizes[3] = sizeof(uint32_t);
    for (int k = 0; k < CW_QUERY_LANES; k++)
        sizes[CW__FIRST_LANE + k] = sizeof(uint16_t);
}

_Static_assert(sizeof *((cw_world *)0)->retest_step == sizeof(uint32_t) &&
                   sizeof *((cw_world *)0)->pair_count == sizeof(uint32_t) &&
                   sizeof *((cw_world *)0)->lane_seen[0] == sizeof(uint16_t),
               "parallel_sizes gives each slot array's element size");

// The arrays parallel to the slots, each with its element size, largest first (see reserve_slots).
static void parallel_arrays(cw_world *world, void **arrays[CW__SLOT_ARRAYS], size_t sizes[CW__SLOT_ARRAYS])
{
    arrays[0] = (void **)&world->slots, arrays[1] = (void **)&world->hot;
    arrays[2] = (void **)&world->retest_step, arrays[3] = (void **)&world->pair_count;
    for (int k = 0; k < CW_QUERY_LANES; k++)
        arrays[CW__FIRST_LANE + k] = (void **)&world->lane_seen[k];
    parallel_sizes(sizes);
}

// Grows the slot arrays and every per-body list to exactly `capacity` bodies, so that marking,
// moving and destroying bodies never allocate. False (nothing lost) if memory runs out.
//
// One array at a time, largest first: the old and new blocks of only one array are live at once,
// so growing by half again peaks at 1.5 times the old arrays plus the smallest one rather than 2.5
// times (the creation of a 10k-body world peaked there). If memory runs out halfway the arrays
// already grown keep their room (each has its own capacity) and slot_capacity stays the old one.
static bool grow_slots(cw_world *world, uint32_t capacity)
{
    if (!(cw__u32s_reserve_exact(&world->dirty, capacity) && cw__u32s_reserve_exact(&world->moved, capacity)))
        return false;
    void **arrays[CW__SLOT_ARRAYS];
    size_t sizes[CW__SLOT_ARRAYS];
    parallel_arrays(world, arrays, sizes);
    for (int k = 0; k < CW__SLOT_ARRAYS; k++) {
        size_t old = world->slot_array_capacity[k];
        if (old >= capacity || (k >= CW__FIRST_LANE && *arrays[k] == NULL)) // a lane not used yet: none
            continue;
        if (capacity > SIZE_MAX / sizes[k]) { // a 32-bit build asked for billions of bodies
            cw__fail("Out of memory: the requested size overflows.");
            return false;
        }
        void *grown = cw__alloc(capacity * sizes[k]);
        if (grown == NULL)
            return false;
        memset(grown, 0, capacity * sizes[k]);
        if (old > 0)
            memcpy(grown, *arrays[k], old * sizes[k]);
        cw__free(*arrays[k], old * sizes[k]);
        *arrays[k] = grown;
        world->slot_array_capacity[k] = capacity;
        if (k >= CW__FIRST_LANE)
            atomic_fetch_add(&world->lane_bytes, (capacity - old) * sizes[k]);
    }
    // The body index's heads, once it is kept (bodies are not created while it is being built: that
    // counts as a query).
    if (cw__index_kept(&world->index) && !cw__index_reserve_heads(&world->index, capacity))
        return false;
    // And the grid's proxies: every slot's body is filed at its first step, so they take the slots'
    // growth (else they grow by half again then, on their own).
    if (!cw__grid_reserve(&world->grid, capacity))
        return false;
    world->slot_capacity = capacity;
    return true;
}

// Room for slot indices below `needed`, grown by a quarter at a time (see grow_slots): the arrays
// parallel to the slots, the grid's proxies and the lists are most of what a world holds for its
// bodies (216 bytes a slot on 64-bit), so their growth's spare room (up to a fifth, a tenth on average) weighs more than the
// copies (a body created one by one is copied about four times on its way, not twice).
static bool reserve_slots(cw_world *world, uint32_t needed)
{
    if (needed <= world->slot_capacity)
        return true;
    uint64_t grown = world->slot_capacity < 64 ? 64 : world->slot_capacity;
    while (grown < needed)
        grown += grown / 4 + 1;
    return grow_slots(world, grown > UINT32_MAX ? UINT32_MAX : (uint32_t)grown);
}

bool cw__reserve_bodies(cw_world *world, uint32_t bodies)
{
    uint32_t slots = bodies + 1; // slot 0 is never used
    return slots <= world->slot_capacity || grow_slots(world, slots);
}

bool cw_world_reserve(cw_world *world, int bodies)
{
    if (!check_world(world))
        return false;
    if (bodies < 0 || bodies >= INT32_MAX) {
        cw__fail("The body count to make room for must be from 0 to 2147483646.");
        return false;
    }
    if (!cw__world_may_change(world))
        return false;
    // New bodies take the free slots first, then the ones past the last: `bodies` live ones beside
    // the destroyed bodies still waiting for their ends fit in that many slots (room there is
    // already is kept: cw__reserve_bodies never shrinks).
    uint64_t in_use = (uint64_t)bodies + world->dying.count;
    if (in_use > INT32_MAX - 1u) {
        cw__fail("The world holds as many bodies as it can (2^31 - 1).");
        return false;
    }
    if (!cw__reserve_bodies(world, (uint32_t)in_use)) {
        cw__failf("Out of memory: no room for %d bodies.", bodies);
        return false;
    }
    return true;
}

// A page of kept mask forms as allocated (see cw__mask_page).
#define MASK_PAGE_BYTES (CW__MASK_PAGE * sizeof(cw__body) + CW__LINE)

size_t cw__body_bytes(const cw_world *world)
{
    size_t sizes[CW__SLOT_ARRAYS], bytes = atomic_load(&world->lane_bytes);
    parallel_sizes(sizes);
    for (int k = 0; k < CW__FIRST_LANE; k++)
        bytes += world->slot_array_capacity[k] * sizes[k];
    return bytes + (size_t)world->mask_page_count * MASK_PAGE_BYTES +
           (size_t)world->mask_page_capacity * sizeof *world->mask_pages;
}

void cw__slot_arrays_free(cw_world *world)
{
    void **arrays[CW__SLOT_ARRAYS];
    size_t sizes[CW__SLOT_ARRAYS];
    parallel_arrays(world, arrays, sizes);
    for (int k = 0; k < CW__SLOT_ARRAYS; k++) {
        cw__free(*arrays[k], world->slot_array_capacity[k] * sizes[k]);
        *arrays[k] = NULL;
        world->slot_array_capacity[k] = 0;
    }
    atomic_store(&world->lane_bytes, 0);
    world->slot_capacity = 0;
}

// A free slot index (reusing freed ones first), or 0 if memory runs out.
static uint32_t take_slot(cw_world *world)
{
    if (world->free_slot != 0) {
        uint32_t index = world->free_slot;
        world->free_slot = world->slots[index].next_free;
        return index;
    }
    uint32_t index = world->slot_count == 0 ? 1 : world->slot_count; // slot 0 stays unused
    if (index >= INT32_MAX) { // counts are ints in the stats, and indices must stay below CW__DIED
        cw__fail("The world holds as many bodies as it can (2^31 - 1).");
        return 0;
    }
    if (!reserve_slots(world, index + 1))
        return 0;
    world->slot_count = index + 1;
    return index;
}

// Room for one more kept mask body: an entry given back, or one past the last. False (nothing
// changed) if memory runs out.
static bool reserve_mask_body(cw_world *world)
{
    if (world->free_mask_body != 0 || world->mask_body_count < world->mask_page_count * CW__MASK_PAGE)
        return true;
    void *pages = world->mask_pages;
    if (!cw__reserve(&pages, sizeof(cw__mask_page), &world->mask_page_capacity, world->mask_page_count + 1))
        return false;
    world->mask_pages = pages;
    void *block = cw__alloc(MASK_PAGE_BYTES);
    if (block == NULL)
        return false;
    uintptr_t first = ((uintptr_t)block + CW__LINE - 1) & ~(uintptr_t)(CW__LINE - 1);
    world->mask_pages[world->mask_page_count++] = (cw__mask_page){(cw__body *)first, block};
    if (world->mask_body_count == 0)
        world->mask_body_count = 1; // entry 0 is unused
    return true;
}

void cw__mask_pages_free(cw_world *world)
{
    for (uint32_t k = 0; k < world->mask_page_count; k++)
        cw__free(world->mask_pages[k].block, MASK_PAGE_BYTES);
    cw__free(world->mask_pages, world->mask_page_capacity * sizeof *world->mask_pages);
    world->mask_pages = NULL;
    world->mask_page_count = world->mask_page_capacity = world->mask_body_count = world->free_mask_body = 0;
}

// An entry given back is dead: its first bytes hold the next one given back (0: the last).
static uint32_t next_given_back(const cw_world *world, uint32_t entry)
{
    uint32_t next;
    memcpy(&next, cw__mask_body(world, entry), sizeof next);
    return next;
}

// An entry for a slot's new mask body: one given back, else the next unused (room was made by
// reserve_mask_body).
static uint32_t take_mask_body(cw_world *world)
{
    uint32_t entry = world->free_mask_body;
    if (entry == 0)
        return world->mask_body_count++;
    world->free_mask_body = next_given_back(world, entry);
    return entry;
}

// A slot whose mask body became a box gives its entry back (the hot record's bytes that held it
// now hold the box's SAT form).
static void give_back_mask_body(cw_world *world, uint32_t entry)
{
    memcpy(cw__mask_body(world, entry), &world->free_mask_body, sizeof world->free_mask_body);
    world->free_mask_body = entry;
}

// Whether slot `index` (0: a new one) can keep `prepared`: a box always can, a mask needs an entry,
// which reserve_mask_body makes; false (with the error) if memory runs out.
static bool room_for(cw_world *world, uint32_t index, const cw__body *prepared)
{
    return prepared->is_box || (index != 0 && cw__mask_entry(world, index) != 0) || reserve_mask_body(world);
}

// Keeps the narrowphase form: a box's in the hot record, a mask's in the slot's mask entry (`entry`,
// what the slot held before, or a new one: room was made by room_for), and the AABB for the next
// step.
static void keep_prepared(cw_world *world, uint32_t index, uint32_t entry, const cw__body *prepared)
{
    cw__hot *hot = &world->hot[index];
    hot->is_box = prepared->is_box;
    if (hot->is_box) {
        if (entry != 0)
            give_back_mask_body(world, entry);
        hot->obb = cw__pack_body_obb(prepared);
    } else {
        hot->mask_body = entry != 0 ? entry : take_mask_body(world);
        *cw__mask_body(world, hot->mask_body) = *prepared;
    }
    cw_aabb aabb = cw__body_aabb(prepared);
    world->slots[index].next_aabb = (cw__box){aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y};
}

cw_body_id cw_body_create(cw_world *world, const cw_body_def *def)
{
    const cw_body_id null_id = {0, 0};
    cw__body prepared;
    if (!check_world(world) || !cw__world_may_change(world))
        return null_id;
    if (def == NULL) {
        cw__fail("The body def is NULL.");
        return null_id;
    }
    if (!cw__prepare(&def->shape, &def->transform, &prepared) || !room_for(world, world->free_slot, &prepared) ||
        (def->swept && !cw__u32s_reserve(&world->swept, world->swept.count + 1)))
        return null_id;
    uint32_t index = take_slot(world);
    if (index == 0)
        return null_id;
    cw__slot *slot = &world->slots[index];
    uint32_t reuse = (slot->generation & 0xffffffu) + 1; // the slot's count, never 0: 0/0 is the null id
    uint32_t generation = (uint32_t)world->def.id_tag << 24 | (reuse > 0xffffffu ? 1 : reuse);
    *slot = (cw__slot){.generation = generation, .user_data = def->user_data, .size = def->shape.size,
                       .transform = def->transform, .from = {NAN, NAN}}; // no step yet
    uint32_t entry = cw__mask_entry(world, index);
    world->hot[index] = (cw__hot){.category = def->category, .collides_with = def->collides_with,
                                  .group = def->group, .state = CW__ALIVE, .is_static = def->is_static,
                                  .is_swept = def->swept};
    if (def->swept)
        world->swept.items[world->swept.count++] = index;
    world->retest_step[index] = 0; // in no pair yet; its first step re-tests it anyway
    keep_prepared(world, index, entry, &prepared);
    cw__world_mark_dirty(world, index);
    world->bodies++;
    world->static_bodies += def->is_static;
    return (cw_body_id){index, generation};
}

// Takes a body off the swept list (the list's order is only the order of filing, which changes no
// answer).
static void forget_swept(cw_world *world, uint32_t index)
{
    cw__u32s *swept = &world->swept;
    for (uint32_t k = 0; k < swept->count; k++)
        if (swept->items[k] == index) {
            swept->items[k] = swept->items[--swept->count];
            return;
        }
}

void cw_body_destroy(cw_world *world, cw_body_id id)
{
    cw__slot *slot = changeable_slot(world, id);
    if (slot == NULL)
        return;
    // The slot keeps its id and user data until the next step has reported the ends of its pairs.
    cw__grid_remove(&world->grid, id.index);
    world->hot[id.index].state = CW__DYING;
    world->retest_step[id.index] = CW__DIED;
    world->extent_sum -= slot->extent;
    slot->next_dying = 0; // over the extent: a dying slot has none
    if (world->dying.count++ == 0)
        world->dying.head = id.index;
    else
        world->slots[world->dying.tail].next_dying = id.index;
    world->dying.tail = id.index;
    world->bodies--;
    world->static_bodies -= world->hot[id.index].is_static;
    world->disabled_bodies -= world->hot[id.index].disabled;
    world->hot[id.index].dirty = false; // a stale entry in the dirty list is skipped by the step
    if (world->hot[id.index].is_swept)
        forget_swept(world, id.index);
}

// Moves a body that may be changed now (cw__move_body validates the transform).
static bool move(cw_world *world, cw_body_id id, const cw_transform *transform)
{
    return changeable_slot(world, id) != NULL && cw__move_body(world, id.index, transform);
}

bool cw_body_set_transform(cw_world *world, cw_body_id body, const cw_transform *transform)
{
    if (transform == NULL && world != NULL) {
        cw__fail("The transform is NULL.");
        return false;
    }
    return move(world, body, transform); // a fresh body's motion stays zero: it has no start
}

bool cw_body_teleport(cw_world *world, cw_body_id body, const cw_transform *transform)
{
    if (transform == NULL && world != NULL) {
        cw__fail("The transform is NULL.");
        return false;
    }
    if (!move(world, body, transform))
        return false;
    cw__slot *slot = &world->slots[body.index];
    if (!cw__is_fresh(slot)) // a fresh body's motion is zero anyway
        slot->from = transform->position; // this step's motion starts here
    return true;
}

bool cw_body_set_swept(cw_world *world, cw_body_id body, bool swept)
{
    if (changeable_slot(world, body) == NULL)
        return false;
    cw__hot *hot = &world->hot[body.index];
    if (hot->is_swept == swept)
        return true;
    // The swept list grows with the swept bodies (few, in most worlds), not with the slots.
    if (swept && !cw__u32s_reserve(&world->swept, world->swept.count + 1))
        return false;
    hot->is_swept = swept;
    if (swept)
        world->swept.items[world->swept.count++] = body.index;
    else
        forget_swept(world, body.index);
    cw__world_mark_dirty(world, body.index); // refiled (under its motion's box, or its own)
    return true;
}

bool cw_body_is_swept(const cw_world *world, cw_body_id body)
{
    return cw__world_slot(world, body) ? world->hot[body.index].is_swept : false;
}

bool cw_body_set_group(cw_world *world, cw_body_id body, int32_t group)
{
    if (changeable_slot(world, body) == NULL)
        return false;
    cw__world_mark_dirty(world, body.index); // as a filter change: its pairs are looked at again
    world->hot[body.index].group = group;
    return true;
}

int32_t cw_body_group(const cw_world *world, cw_body_id body)
{
    return cw__world_slot(world, body) ? world->hot[body.index].group : 0;
}

bool cw_body_set_enabled(cw_world *world, cw_body_id body, bool enabled)
{
    cw__slot *slot = changeable_slot(world, body);
    if (slot == NULL)
        return false;
    cw__hot *hot = &world->hot[body.index];
    if (hot->disabled == !enabled)
        return true;
    hot->disabled = !enabled;
    world->disabled_bodies += enabled ? -1 : 1;
    if (enabled && !cw__is_fresh(slot))
        slot->from = slot->transform.position; // back without a motion
    cw__world_mark_dirty(world, body.index);  // filed again, or taken out, at the next step
    return true;
}

bool cw_body_is_enabled(const cw_world *world, cw_body_id body)
{
    return cw__world_slot(world, body) ? !world->hot[body.index].disabled : false;
}

bool cw_body_set_shape(cw_world *world, cw_body_id body, const cw_shape *shape)
{
    if (shape == NULL && world != NULL) {
        cw__fail("The shape is NULL.");
        return false;
    }
    cw__slot *slot = changeable_slot(world, body);
    if (slot == NULL)
        return false;
    cw__body prepared; // validated with the body's transform, as the step will prepare it
    if (!cw__prepare(shape, &slot->transform, &prepared) || !room_for(world, body.index, &prepared))
        return false;
    cw__world_mark_dirty(world, body.index);
    slot->size = shape->size;
    keep_prepared(world, body.index, cw__mask_entry(world, body.index), &prepared);
    return true;
}

bool cw_body_set_filter(cw_world *world, cw_body_id body, uint32_t category, uint32_t collides_with)
{
    if (changeable_slot(world, body) == NULL)
        return false;
    cw__world_mark_dirty(world, body.index);
    world->hot[body.index].category = category;
    world->hot[body.index].collides_with = collides_with;
    return true;
}

bool cw_body_set_user_data(cw_world *world, cw_body_id body, void *user_data)
{
    cw__slot *slot = changeable_slot(world, body);
    if (slot == NULL)
        return false;
    // The last step's events show the user data as it was when their delivery began: the rest of
    // its callbacks, and cw_world_events(), which may gather them only now.
    if (slot->user_saved_step != world->step) {
        slot->step_user_data = slot->user_data;
        slot->user_saved_step = world->step;
    }
    slot->user_data = user_data;
    return true;
}

cw_transform cw_body_transform(const cw_world *world, cw_body_id body)
{
    const cw__slot *slot = cw__world_slot(world, body);
    return slot ? slot->transform : cw_default_transform();
}

cw_shape cw_body_shape(const cw_world *world, cw_body_id body)
{
    const cw__slot *slot = cw__world_slot(world, body);
    cw_shape none;
    memset(&none, 0, sizeof none);
    return slot ? cw__slot_shape(world, body.index) : none;
}

void *cw_body_user_data(const cw_world *world, cw_body_id body)
{
    const cw__slot *slot = cw__world_slot(world, body);
    return slot ? slot->user_data : NULL;
}

bool cw_body_filter(const cw_world *world, cw_body_id body, uint32_t *category, uint32_t *collides_with)
{
    if (cw__world_slot(world, body) == NULL)
        return false;
    if (category)
        *category = world->hot[body.index].category;
    if (collides_with)
        *collides_with = world->hot[body.index].collides_with;
    return true;
}

bool cw_body_is_static(const cw_world *world, cw_body_id body)
{
    return cw__world_slot(world, body) ? world->hot[body.index].is_static : false;
}

bool cw_body_aabb(const cw_world *world, cw_body_id body, cw_aabb *aabb)
{
    const cw__slot *slot = cw__world_slot(world, body);
    if (slot == NULL)
        return false;
    if (aabb == NULL) {
        cw__fail("The AABB output pointer is NULL.");
        return false;
    }
    const cw__box *box = &slot->next_aabb;
    *aabb = (cw_aabb){{box->min_x, box->min_y}, {box->max_x, box->max_y}};
    return true;
}
