// Bodies: creation, destruction, ids with generations, setters and getters.
#include "internal.h"

#include <string.h>

bool cw_body_id_is_null(cw_body_id id) { return id.index == 0 && id.generation == 0; }

cw_body_def cw_default_body_def(void)
{
    return (cw_body_def){.shape = cw_shape_box(1, 1),
                         .transform = cw_default_transform(),
                         .category = 1,
                         .collides_with = UINT32_MAX,
                         .is_static = false,
                         .user_data = NULL};
}

static bool check_world(const cw_world *world)
{
    if (world == NULL)
        cw__fail("The world is NULL.");
    return world != NULL;
}

cw__slot *cw__world_slot(const cw_world *world, cw_body_id id)
{
    if (!check_world(world))
        return NULL;
    if (id.index == 0 || id.index >= world->slot_count || !world->slots[id.index].alive ||
        world->slots[id.index].generation != id.generation) {
        cw__fail("The body id is stale or null: that body was destroyed or never existed.");
        return NULL;
    }
    return &world->slots[id.index];
}

bool cw_body_is_valid(const cw_world *world, cw_body_id id)
{
    return world != NULL && id.index != 0 && id.index < world->slot_count && world->slots[id.index].alive &&
           world->slots[id.index].generation == id.generation;
}

bool cw__world_mark_dirty(cw_world *world, uint32_t index)
{
    cw__slot *slot = &world->slots[index];
    if (slot->dirty)
        return true;
    if (world->dirty_count == world->dirty_capacity) {
        void *dirty = world->dirty;
        if (!cw__reserve(&dirty, sizeof(uint32_t), &world->dirty_capacity, world->dirty_count + 1))
            return false;
        world->dirty = dirty;
    }
    world->dirty[world->dirty_count++] = index;
    slot->dirty = true;
    return true;
}

// A free slot index (reusing destroyed ones first), or 0 if memory runs out.
static uint32_t take_slot(cw_world *world)
{
    if (world->free_slot != 0) {
        uint32_t index = world->free_slot;
        world->free_slot = world->slots[index].next_free;
        return index;
    }
    uint32_t index = world->slot_count == 0 ? 1 : world->slot_count; // slot 0 stays unused
    void *slots = world->slots;
    uint32_t old_capacity = world->slot_capacity;
    if (!cw__reserve(&slots, sizeof(cw__slot), &world->slot_capacity, index + 1))
        return 0;
    world->slots = slots;
    memset(world->slots + old_capacity, 0, (world->slot_capacity - old_capacity) * sizeof(cw__slot));
    world->slot_count = index + 1;
    return index;
}

static void give_back_slot(cw_world *world, uint32_t index)
{
    world->slots[index].next_free = world->free_slot;
    world->free_slot = index;
}

cw_body_id cw_body_create(cw_world *world, const cw_body_def *def)
{
    const cw_body_id null_id = {0, 0};
    cw__body prepared;
    if (!check_world(world))
        return null_id;
    if (def == NULL) {
        cw__fail("The body def is NULL.");
        return null_id;
    }
    if (!cw__prepare(&def->shape, &def->transform, &prepared))
        return null_id;
    uint32_t index = take_slot(world);
    if (index == 0)
        return null_id;
    cw__slot *slot = &world->slots[index];
    uint32_t generation = slot->generation + 1 == 0 ? 1 : slot->generation + 1;
    *slot = (cw__slot){.generation = generation, .alive = true, .is_static = def->is_static,
                       .category = def->category, .collides_with = def->collides_with,
                       .user_data = def->user_data, .shape = def->shape, .transform = def->transform,
                       .prepared = prepared};
    if (!cw__world_mark_dirty(world, index)) {
        slot->alive = false;
        give_back_slot(world, index);
        return null_id;
    }
    world->bodies++;
    world->static_bodies += def->is_static;
    return (cw_body_id){index, generation};
}

void cw_body_destroy(cw_world *world, cw_body_id id)
{
    cw__slot *slot = cw__world_slot(world, id);
    if (slot == NULL)
        return;
    cw__world_drop_pairs(world, id.index);
    cw__grid_remove(&world->grid, id.index);
    world->extent_sum -= slot->extent;
    world->bodies--;
    world->static_bodies -= slot->is_static;
    slot->alive = false;
    slot->generation = slot->generation + 1 == 0 ? 1 : slot->generation + 1; // old ids go stale now
    slot->dirty = false; // a stale entry in the dirty list is skipped by the step
    give_back_slot(world, id.index);
}

// Applies a new shape and/or transform after validating them together.
static bool reshape(cw_world *world, cw_body_id id, const cw_shape *shape, const cw_transform *transform)
{
    cw__slot *slot = cw__world_slot(world, id);
    if (slot == NULL)
        return false;
    cw__body prepared;
    if (!cw__prepare(shape ? shape : &slot->shape, transform ? transform : &slot->transform, &prepared))
        return false;
    if (!cw__world_mark_dirty(world, id.index))
        return false;
    if (shape)
        slot->shape = *shape;
    if (transform)
        slot->transform = *transform;
    slot->prepared = prepared;
    return true;
}

bool cw_body_set_transform(cw_world *world, cw_body_id body, const cw_transform *transform)
{
    if (transform == NULL && world != NULL) {
        cw__fail("The transform is NULL.");
        return false;
    }
    return reshape(world, body, NULL, transform);
}

bool cw_body_set_shape(cw_world *world, cw_body_id body, const cw_shape *shape)
{
    if (shape == NULL && world != NULL) {
        cw__fail("The shape is NULL.");
        return false;
    }
    return reshape(world, body, shape, NULL);
}

bool cw_body_set_filter(cw_world *world, cw_body_id body, uint32_t category, uint32_t collides_with)
{
    cw__slot *slot = cw__world_slot(world, body);
    if (slot == NULL || !cw__world_mark_dirty(world, body.index))
        return false;
    slot->category = category;
    slot->collides_with = collides_with;
    return true;
}

bool cw_body_set_user_data(cw_world *world, cw_body_id body, void *user_data)
{
    cw__slot *slot = cw__world_slot(world, body);
    if (slot == NULL)
        return false;
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
    return slot ? slot->shape : none;
}

void *cw_body_user_data(const cw_world *world, cw_body_id body)
{
    const cw__slot *slot = cw__world_slot(world, body);
    return slot ? slot->user_data : NULL;
}

bool cw_body_filter(const cw_world *world, cw_body_id body, uint32_t *category, uint32_t *collides_with)
{
    const cw__slot *slot = cw__world_slot(world, body);
    if (slot == NULL)
        return false;
    if (category)
        *category = slot->category;
    if (collides_with)
        *collides_with = slot->collides_with;
    return true;
}

bool cw_body_is_static(const cw_world *world, cw_body_id body)
{
    const cw__slot *slot = cw__world_slot(world, body);
    return slot ? slot->is_static : false;
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
    *aabb = cw__body_aabb(&slot->prepared);
    return true;
}
