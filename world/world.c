// The world: stepping (broadphase, narrowphase, the pair table) and contact events.
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The automatic cell size: twice the mean body extent, re-chosen when that drifts by more than 2x.
#define AUTO_CELL_FACTOR 2.0
#define DEFAULT_CELL 64.0f

void cw__hash_out_of_memory(void) { cw__fail("Out of memory: the pair table could not grow."); }

cw_world_def cw_default_world_def(void)
{
    return (cw_world_def){.cell_size = 0, .on_begin = NULL, .on_stay = NULL, .on_end = NULL, .context = NULL};
}

cw_world *cw_world_create(const cw_world_def *def)
{
    if (def == NULL) {
        cw__fail("The world def is NULL.");
        return NULL;
    }
    if (!(def->cell_size >= 0 && isfinite(def->cell_size))) {
        cw__fail("The cell size must be finite and >= 0 (0 picks one automatically).");
        return NULL;
    }
    cw_world *world = cw__alloc(sizeof *world);
    if (world == NULL)
        return NULL;
    memset(world, 0, sizeof *world);
    world->def = *def;
    world->auto_cell = def->cell_size == 0;
    cw__grid_init(&world->grid, world->auto_cell ? DEFAULT_CELL : def->cell_size);
    world->stats.cell_size = world->grid.cell_size;
    return world;
}

static void free_events(cw__events *events) { cw__free(events->items, events->capacity * sizeof(cw__event)); }

void cw_world_destroy(cw_world *world)
{
    if (world == NULL)
        return;
    if (world->in_callback) {
        cw__fail("cw_world_destroy cannot be called from a contact callback.");
        return;
    }
    HASH_CLEAR(hh, world->pairs);
    while (world->chunks != NULL) {
        cw__pair_chunk *chunk = world->chunks;
        world->chunks = chunk->next;
        cw__free(chunk, sizeof *chunk);
    }
    cw__free(world->moved_step, world->moved_step_capacity * sizeof *world->moved_step);
    cw__grid_free(&world->grid);
    cw__free(world->slots, world->slot_capacity * sizeof *world->slots);
    cw__free(world->dirty, world->dirty_capacity * sizeof *world->dirty);
    cw__free(world->moved, world->moved_capacity * sizeof *world->moved);
    cw__free(world->fresh, world->fresh_capacity * sizeof *world->fresh);
    cw__free(world->candidates, world->candidate_capacity * sizeof *world->candidates);
    free_events(&world->pending);
    free_events(&world->ends);
    free_events(&world->begins);
    free_events(&world->stays);
    cw__free(world, sizeof *world);
}

cw_world_stats cw_world_get_stats(const cw_world *world)
{
    cw_world_stats none;
    memset(&none, 0, sizeof none);
    return world ? world->stats : none;
}

bool cw__events_push(cw__events *events, const cw_contact *contact)
{
    void *items = events->items;
    if (!cw__reserve(&items, sizeof(cw__event), &events->capacity, events->count + 1))
        return false;
    events->items = items;
    events->items[events->count++] = (cw__event){((uint64_t)contact->a.index << 32) | contact->b.index, *contact};
    return true;
}

// --- the pair table and the contact lists ---

static cw__pair **list_next(cw__pair *pair, uint32_t index) { return pair->a.index == index ? &pair->next_a : &pair->next_b; }
static cw__pair **list_prev(cw__pair *pair, uint32_t index) { return pair->a.index == index ? &pair->prev_a : &pair->prev_b; }

static void link_pair(cw_world *world, cw__pair *pair, uint32_t index)
{
    cw__slot *slot = &world->slots[index];
    *list_prev(pair, index) = NULL;
    *list_next(pair, index) = slot->contacts;
    if (slot->contacts)
        *list_prev(slot->contacts, index) = pair;
    slot->contacts = pair;
}

static void unlink_pair(cw_world *world, cw__pair *pair, uint32_t index)
{
    cw__pair *prev = *list_prev(pair, index), *next = *list_next(pair, index);
    if (prev)
        *list_next(prev, index) = next;
    else
        world->slots[index].contacts = next;
    if (next)
        *list_prev(next, index) = prev;
}

static void release_pair(cw_world *world, cw__pair *pair)
{
    unlink_pair(world, pair, pair->a.index);
    unlink_pair(world, pair, pair->b.index);
    HASH_DEL(world->pairs, pair);
    pair->live = false;
    pair->next_a = world->free_pairs;
    world->free_pairs = pair;
}

static bool add_chunk(cw_world *world)
{
    cw__pair_chunk *chunk = cw__alloc(sizeof *chunk);
    if (chunk == NULL)
        return false;
    memset(chunk, 0, sizeof *chunk);
    chunk->next = world->chunks;
    world->chunks = chunk;
    for (int i = CW__PAIR_CHUNK - 1; i >= 0; i--) {
        chunk->items[i].next_a = world->free_pairs;
        world->free_pairs = &chunk->items[i];
    }
    return true;
}

static cw__pair *new_pair(cw_world *world, uint64_t key, uint32_t a, uint32_t b)
{
    if (world->free_pairs == NULL && !add_chunk(world))
        return NULL;
    cw__pair *pair = world->free_pairs;
    world->free_pairs = pair->next_a;
    memset(pair, 0, sizeof *pair);
    pair->key = key;
    pair->a = (cw_body_id){a, world->slots[a].generation};
    pair->b = (cw_body_id){b, world->slots[b].generation};
    HASH_ADD(hh, world->pairs, key, sizeof pair->key, pair);
    if (HASH_CNT(hh, world->pairs) == 0 || pair->hh.tbl == NULL) { // uthash could not allocate its table
        pair->next_a = world->free_pairs;
        world->free_pairs = pair;
        return NULL;
    }
    link_pair(world, pair, a);
    link_pair(world, pair, b);
    pair->live = true;
    return pair;
}

static cw_contact contact_of(const cw_world *world, const cw__pair *pair)
{
    cw_contact contact;
    memset(&contact, 0, sizeof contact);
    contact.a = pair->a;
    contact.b = pair->b;
    contact.user_a = world->slots[pair->a.index].user_data;
    contact.user_b = world->slots[pair->b.index].user_data;
    contact.manifold = pair->manifold;
    return contact;
}

void cw__world_drop_pairs(cw_world *world, uint32_t index)
{
    while (world->slots[index].contacts != NULL) {
        cw__pair *pair = world->slots[index].contacts;
        if (pair->reported) {
            cw_contact end = contact_of(world, pair);
            memset(&end.manifold, 0, sizeof end.manifold);
            if (!cw__events_push(&world->pending, &end))
                cw__fail("Out of memory: an end event for a destroyed body was lost.");
        }
        release_pair(world, pair);
    }
}

// --- one step ---

static double now_ms(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static cw__box box_of(const cw_aabb *aabb)
{
    return (cw__box){aabb->min.x, aabb->min.y, aabb->max.x, aabb->max.y};
}

// Takes the dirty list for this step and files the changed bodies' new AABBs in the grid.
static void update_moved(cw_world *world)
{
    uint32_t *swap = world->moved, swap_capacity = world->moved_capacity;
    world->moved = world->dirty, world->moved_capacity = world->dirty_capacity;
    world->moved_count = 0;
    uint32_t taken = world->dirty_count;
    world->dirty = swap, world->dirty_capacity = swap_capacity, world->dirty_count = 0;
    if (world->moved_step_capacity < world->slot_capacity) {
        void *steps = world->moved_step;
        uint32_t old_capacity = world->moved_step_capacity;
        if (!cw__reserve(&steps, sizeof(uint32_t), &world->moved_step_capacity, world->slot_capacity)) {
            for (uint32_t i = 0; i < taken; i++) // out of memory: retry everything next step
                cw__world_mark_dirty(world, world->moved[i]);
            return;
        }
        world->moved_step = steps;
        memset(world->moved_step + old_capacity, 0, (world->moved_step_capacity - old_capacity) * sizeof(uint32_t));
    }
    for (uint32_t i = 0; i < taken; i++) {
        uint32_t index = world->moved[i];
        cw__slot *slot = &world->slots[index];
        if (!slot->alive || !slot->dirty)
            continue; // destroyed since, or listed twice
        slot->dirty = false;
        cw_aabb aabb = cw__body_aabb(&slot->prepared);
        cw__box box = box_of(&aabb);
        float extent = fmaxf(box.max_x - box.min_x, box.max_y - box.min_y);
        world->extent_sum += (double)extent - slot->extent;
        slot->extent = extent;
        if (!cw__grid_update(&world->grid, index, &box, slot->is_static)) {
            cw__world_mark_dirty(world, index); // try again next step
            continue;
        }
        world->moved[world->moved_count++] = index;
        world->moved_step[index] = world->step;
    }
}

static void adapt_cell_size(cw_world *world)
{
    if (!world->auto_cell || world->bodies == 0)
        return;
    double target = AUTO_CELL_FACTOR * world->extent_sum / world->bodies;
    if (!(target > 1e-3) || !isfinite(target))
        return;
    double ratio = target / world->grid.cell_size;
    if (ratio > 2 || ratio < 0.5)
        cw__grid_set_cell_size(&world->grid, (float)target);
    world->stats.cell_size = world->grid.cell_size;
}

static bool filters_match(const cw__slot *a, const cw__slot *b)
{
    return (a->category & b->collides_with) && (b->category & a->collides_with);
}

// The broadphase calls this for each candidate pair; they are tested once the grid is done.
static void add_candidate(void *context, uint32_t a, uint32_t b)
{
    cw_world *world = context;
    if (world->candidate_count + 2 > world->candidate_capacity) {
        void *candidates = world->candidates;
        if (!cw__reserve(&candidates, sizeof(uint32_t), &world->candidate_capacity, world->candidate_count + 2)) {
            cw__fail("Out of memory: a candidate pair was dropped (it is found again next step).");
            return;
        }
        world->candidates = candidates;
    }
    world->candidates[world->candidate_count++] = a;
    world->candidates[world->candidate_count++] = b;
}

// Filter, exact test, pair table: a touching pair is confirmed for this step or begins.
static void test_pair(cw_world *world, uint32_t a, uint32_t b)
{
    const cw__slot *sa = &world->slots[a], *sb = &world->slots[b];
    if (!filters_match(sa, sb))
        return;
    world->stats.narrow_tests++;
    if (!cw__overlap_bodies(&sa->prepared, &sb->prepared, NULL))
        return;
    uint64_t key = ((uint64_t)a << 32) | b;
    cw__pair *pair;
    HASH_FIND(hh, world->pairs, &key, sizeof key, pair);
    if (pair == NULL) {
        void *fresh = world->fresh;
        if (!cw__reserve(&fresh, sizeof(cw__pair *), &world->fresh_capacity, world->fresh_count + 1))
            return; // out of memory: the pair is found again next step
        world->fresh = fresh;
        if ((pair = new_pair(world, key, a, b)) == NULL)
            return;
        world->fresh[world->fresh_count++] = pair;
        pair->fresh = true;
    }
    pair->stamp = world->step;
    bool wants_manifold = pair->fresh ? world->def.on_begin != NULL : world->def.on_stay != NULL;
    if (wants_manifold)
        cw__overlap_bodies(&sa->prepared, &sb->prepared, &pair->manifold);
}

// Pairs of a moved body that the broadphase and narrowphase did not confirm this step have ended.
// The records are scanned in memory order; which bodies moved is a compact per-slot array.
static void collect_ends(cw_world *world)
{
    for (cw__pair_chunk *chunk = world->chunks; chunk != NULL; chunk = chunk->next) {
        for (int i = 0; i < CW__PAIR_CHUNK; i++) {
            cw__pair *pair = &chunk->items[i];
            if (!pair->live || pair->stamp == world->step ||
                (world->moved_step[pair->a.index] != world->step && world->moved_step[pair->b.index] != world->step))
                continue;
            cw_contact end = contact_of(world, pair);
            memset(&end.manifold, 0, sizeof end.manifold);
            if (!cw__events_push(&world->ends, &end))
                cw__fail("Out of memory: an end event was lost.");
            release_pair(world, pair);
        }
    }
}

static int compare_events(const void *x, const void *y)
{
    const cw__event *a = x, *b = y;
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    if (a->contact.a.generation != b->contact.a.generation)
        return a->contact.a.generation < b->contact.a.generation ? -1 : 1;
    return (a->contact.b.generation > b->contact.b.generation) - (a->contact.b.generation < b->contact.b.generation);
}

static void sort_events(cw__events *events)
{
    if (events->count > 1)
        qsort(events->items, events->count, sizeof(cw__event), compare_events);
}

// Copies this step's begins and stays out of the table, so callbacks may change the world freely.
// A stay is a pair touching before and after this step; a pair that began now is not one.
static void collect_begins_and_stays(cw_world *world)
{
    for (cw__pair_chunk *chunk = world->def.on_stay != NULL ? world->chunks : NULL; chunk != NULL; chunk = chunk->next) {
        for (int i = 0; i < CW__PAIR_CHUNK; i++) {
            cw__pair *pair = &chunk->items[i];
            if (!pair->live || pair->fresh)
                continue;
            cw_contact stay = contact_of(world, pair);
            if (!cw__events_push(&world->stays, &stay))
                cw__fail("Out of memory: a stay event was lost.");
        }
    }
    for (uint32_t i = 0; i < world->fresh_count; i++) {
        cw__pair *pair = world->fresh[i];
        pair->fresh = false;
        pair->reported = world->def.on_begin == NULL; // with a callback: once it is delivered
        cw_contact begin = contact_of(world, pair);
        if (world->def.on_begin && !cw__events_push(&world->begins, &begin))
            cw__fail("Out of memory: a begin event was lost.");
    }
    world->fresh_count = 0;
}

static bool both_alive(const cw_world *world, const cw_contact *contact)
{
    return cw_body_is_valid(world, contact->a) && cw_body_is_valid(world, contact->b);
}

static void deliver(cw_world *world)
{
    const cw_world_def *def = &world->def;
    world->in_callback = true;
    for (uint32_t i = 0; i < world->ends.count; i++)
        if (def->on_end)
            def->on_end(&world->ends.items[i].contact, def->context);
    for (uint32_t i = 0; i < world->begins.count; i++) {
        cw__event *event = &world->begins.items[i];
        if (!both_alive(world, &event->contact))
            continue; // a callback destroyed one of them: no begin, and no end is owed
        cw__pair *pair;
        HASH_FIND(hh, world->pairs, &event->order, sizeof event->order, pair);
        if (pair != NULL)
            pair->reported = true;
        def->on_begin(&event->contact, def->context);
    }
    for (uint32_t i = 0; i < world->stays.count; i++)
        if (both_alive(world, &world->stays.items[i].contact))
            def->on_stay(&world->stays.items[i].contact, def->context);
    world->in_callback = false;
}

void cw_world_step(cw_world *world)
{
    if (world == NULL) {
        cw__fail("The world is NULL.");
        return;
    }
    if (world->in_callback) {
        cw__fail("cw_world_step cannot be called from a contact callback.");
        return;
    }
    cw_world_stats *stats = &world->stats;
    memset(stats, 0, sizeof *stats);
    double t0 = now_ms();
    world->step++;
    cw__grid_begin_step(&world->grid);
    update_moved(world);
    adapt_cell_size(world);
    world->candidate_count = 0;
    stats->candidate_pairs = cw__grid_pairs(&world->grid, world->moved, (int)world->moved_count, add_candidate, world);
    double t1 = now_ms();
    for (uint32_t i = 0; i < world->candidate_count; i += 2)
        test_pair(world, world->candidates[i], world->candidates[i + 1]);
    double t2 = now_ms();
    // Ends owed by destroyed bodies are delivered with this step's own ends.
    cw__events swap = world->ends;
    world->ends = world->pending, world->pending = swap;
    world->pending.count = 0;
    world->begins.count = world->stays.count = 0;
    collect_ends(world);
    collect_begins_and_stays(world);
    sort_events(&world->ends);
    sort_events(&world->begins);
    sort_events(&world->stays);
    stats->end_events = (int)world->ends.count;
    stats->begin_events = (int)world->begins.count;
    stats->stay_events = (int)world->stays.count;
    stats->touching_pairs = (int)HASH_COUNT(world->pairs);
    deliver(world);
    double t3 = now_ms();
    stats->bodies = world->bodies;
    stats->static_bodies = world->static_bodies;
    stats->moved_bodies = (int)world->moved_count;
    stats->large_bodies = cw__grid_large_count(&world->grid);
    stats->cell_size = world->grid.cell_size;
    stats->broad_ms = t1 - t0;
    stats->narrow_ms = t2 - t1;
    stats->events_ms = t3 - t2;
}
