// The world's private types, shared by world.c (stepping and events) and body.c (the body API).
#ifndef CW_WORLD_INTERNAL_H
#define CW_WORLD_INTERNAL_H

#include "../broad/grid.h"
#include "../narrow/internal.h"

#include <string.h>

// uthash allocates through the user's allocator and reports failure instead of calling exit().
#define HASH_NONFATAL_OOM 1
#define uthash_malloc(size) cw__alloc(size)
#define uthash_free(pointer, size) cw__free((pointer), (size))
#define uthash_nonfatal_oom(element) cw__hash_out_of_memory()
// Every key is a 64-bit pair key: one multiply mixes it better and far faster than uthash's default
// byte-wise Jenkins hash.
#define HASH_FUNCTION(keyptr, keylen, hashv)                                                               \
    do {                                                                                                   \
        uint64_t cw__key;                                                                                  \
        memcpy(&cw__key, (keyptr), sizeof cw__key);                                                        \
        cw__key *= 0x9E3779B97F4A7C15ull;                                                                  \
        (hashv) = (unsigned)(cw__key >> 32) ^ (unsigned)cw__key;                                           \
    } while (0)
#include <uthash.h>

// Called by uthash when it could not allocate (the table keeps working, possibly slower).
void cw__hash_out_of_memory(void);

// A pair of bodies touching after the last step. Records are recycled through a free list, so a
// warmed-up world allocates none.
typedef struct cw__pair {
    uint64_t key;          // a.index << 32 | b.index
    cw_body_id a, b;       // a.index < b.index
    uint32_t stamp;        // the step that last found it touching
    bool live;             // in the table (records are pooled in chunks)
    bool fresh;            // began in the current step
    bool reported;         // its begin has been delivered (an end will then be owed)
    cw_manifold manifold;  // as of the last step that tested it (kept for stays of resting pairs)
    struct cw__pair *prev_a, *next_a, *prev_b, *next_b; // the contact lists of a and b
    UT_hash_handle hh;
} cw__pair;

typedef struct cw__slot {
    uint32_t generation;   // of the current or last body in the slot
    bool alive;
    bool is_static;
    bool dirty;            // changed since the last step: its AABB and pairs are redone
    uint32_t category, collides_with;
    void *user_data;
    cw_shape shape;
    cw_transform transform;
    cw__body prepared;     // the narrowphase form of shape and transform
    float extent;          // the larger side of its AABB, for the automatic cell size
    cw__pair *contacts;    // pairs it is in (a list through prev_a/next_a or prev_b/next_b)
    uint32_t next_free;    // free-slot list, 0 = end
} cw__slot;

// Pair records live in chunks that never move (uthash keeps pointers to them) and are scanned in
// memory order to find ended pairs and stays.
#define CW__PAIR_CHUNK 512
typedef struct cw__pair_chunk {
    struct cw__pair_chunk *next;
    cw__pair items[CW__PAIR_CHUNK];
} cw__pair_chunk;

// One event, copied out of the pair table before any callback runs.
typedef struct cw__event {
    uint64_t order; // a.index << 32 | b.index
    cw_contact contact;
} cw__event;

typedef struct cw__events {
    cw__event *items;
    uint32_t count, capacity;
} cw__events;

struct cw_world {
    cw_world_def def;
    bool auto_cell;
    bool in_callback;
    uint32_t step;
    cw__slot *slots;       // slot 0 is never used: index 0 means "no body"
    uint32_t slot_count, slot_capacity, free_slot;
    int bodies, static_bodies;
    double extent_sum;     // of the live bodies' extents
    uint32_t *dirty;       // bodies changed since the last step
    uint32_t dirty_count, dirty_capacity;
    uint32_t *moved;       // the dirty list taken by the current step
    uint32_t moved_count, moved_capacity;
    cw__grid grid;
    cw__pair *pairs;       // uthash table by key
    cw__pair_chunk *chunks; // every pair record ever allocated
    cw__pair *free_pairs;  // recycled records (linked through next_a)
    uint32_t *moved_step;  // per slot: the last step that re-tested the body's pairs
    uint32_t moved_step_capacity;
    uint32_t *candidates;  // the current step's candidate pairs, two indices each
    uint32_t candidate_count, candidate_capacity; // in indices
    cw__pair **fresh;      // pairs that began in the current step
    uint32_t fresh_count, fresh_capacity;
    cw__events pending;    // ends owed by bodies destroyed since the last delivery
    cw__events ends, begins, stays; // the current step's events, sorted before delivery
    cw_world_stats stats;
};

// The slot of a live body named by `id`, or NULL (with an error) if the id is stale or null.
cw__slot *cw__world_slot(const cw_world *world, cw_body_id id);

// Marks a body changed so the next step redoes its AABB and pairs. False if memory runs out.
bool cw__world_mark_dirty(cw_world *world, uint32_t index);

// Removes every pair of body `index`: those whose begin was delivered get an end in the next step.
void cw__world_drop_pairs(cw_world *world, uint32_t index);

// Appends an event; false if memory runs out.
bool cw__events_push(cw__events *events, const cw_contact *contact);

#endif
