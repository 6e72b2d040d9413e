// The world's private types, shared by world.c (stepping and events), body.c (the body API) and
// touching.c (the sorted set of touching pairs).
#ifndef CW_WORLD_INTERNAL_H
#define CW_WORLD_INTERNAL_H

#include "../broad/grid.h"
#include "../narrow/internal.h"

#include <stdatomic.h>

// A slot's life: free, holding a live body, or holding a destroyed body whose id and user data are
// still needed for the ends of its contacts (delivered at the next step, then the slot is freed).
enum { CW__FREE = 0, CW__ALIVE = 1, CW__DYING = 2 };
#define CW__DIED UINT32_MAX

// What the step reads for every candidate pair, kept compact and apart from the rest of the slot
// so that the pair loop touches little memory.
typedef struct cw__hot {
    union {
        cw__packed_obb obb; // boxes: the SAT form of shape and transform
        uint32_t mask_body; // masks (is_box clear): its entry among the world's mask bodies
                            // (cw__mask_body), 0 = none; a free slot keeps its last mask's entry
                            // for its next body (cw__mask_entry)
    };
    uint32_t category, collides_with;
    int32_t group;
    // Bits, so that the record packs to 72 bytes rather than 80 (separate bytes would pad to the
    // doubles' next 8-byte boundary). dirty: changed since the last step (its AABB and pairs are
    // redone). listed: in the list cw_world_set_transforms() is placing (clear between calls).
    unsigned state : 2, is_box : 1, is_static : 1, is_swept : 1, disabled : 1, dirty : 1, listed : 1;
} cw__hot;

typedef struct cw__slot {
    // What a move and the step read and write comes first, so that a body touches as few cache
    // lines as it can (slots are read in the step's order, not the bodies'); the rest is placed so
    // that no padding is left: 88 bytes on 64-bit (the flags a move sets are bits of the hot record).
    cw_vec2 from;           // the position at the last step: this step's motion starts there; NaN
                            // while the body has had no step (cw__is_fresh: it does not move in
                            // its first step)
    cw_transform transform;
    union {
        float extent;       // live: the larger side of its AABB, for the automatic cell size (0 once
                            // switched off)
        uint32_t next_free; // free: the free-slot list, 0 = end (a free slot has no extent, and its
                            // next body's creation overwrites the whole slot)
        uint32_t next_dying; // destroyed, waiting for its ends: the dying list, 0 = end (see cw__dying)
    };
    cw__box next_aabb;      // the AABB of shape and transform as they are now (as of the last step
                            // too unless dirty; swept bodies are filed in the grid under a larger box)
    uint32_t generation;    // of the current or last body in the slot
    uint32_t user_saved_step; // the step whose delivery saved step_user_data
    cw_vec2 size;           // the shape's size as given; the rest of the shape is kept elsewhere, once
                            // (its kind: the hot record's is_box; a mask: its kept form's): cw__slot_shape
    void *user_data;
    void *step_user_data;   // user_data as the current delivery began, if a callback changed it
} cw__slot;

// Per touching pair.
enum { CW__REPORTED = 1, CW__FRESH = 2, CW__STAYED = 4 }; // an end is owed; began in the current step;
                                                        // its stay was delivered in the current step

// The touching pairs, in ascending key order (a.index << 32 | b.index).
typedef struct cw__touching {
    uint64_t *keys;
    uint8_t *flags;
    uint32_t *nodes;        // each pair's node in its b body's list, while the body index is kept (else NULL)
    cw_manifold *manifolds; // only when on_begin or on_stay is set
    uint32_t count, capacity;
} cw__touching;

// The body index: for each body b, the pairs (a, b) with a < b that touch, as a doubly linked list
// of nodes (pairs (b, c) with c > b are a range of the sorted set). Node 0 means none. Only
// cw_body_touching() reads it, so a world builds it the first time that is asked (index_needed)
// and keeps it up to date from then on: a world that never asks saves its 20 bytes a touching pair
// (three links, and each set's node of each pair) and the step's linking.
enum { CW__INDEX_OFF = 0, CW__INDEX_BUILDING = 1, CW__INDEX_ON = 2 };
typedef struct cw__body_index {
    uint32_t *head;         // per slot (head_capacity of them, the slots' once on)
    uint32_t *other, *next, *prev; // per node: a, and the list links
    uint32_t capacity, used, free_node; // nodes: the pool's size, the highest used, the free list
    uint32_t head_capacity;
    atomic_int state;       // off, being built (by the first thread that needs it), or kept
} cw__body_index;

// The step's events kept for cw_world_events(): three growable arrays of contacts. Ends are copied
// in as they are delivered; begins and stays are gathered from the step's sets by the first
// cw_world_events() that asks (events.c), from where the cursors say the last gathering stopped.
enum { CW__NOT_GATHERED = 0, CW__GATHERING = 1, CW__GATHERED = 2 };
typedef struct cw__event_arrays {
    cw_contact *items[3];   // ends, begins, stays
    uint32_t count[3], capacity[3];
    uint32_t begin_cursor[2]; // the next begin: its positions in world->begins and world->passed
    uint32_t stay_cursor;     // the next stay: its position in the current touching set
    atomic_int gathered;      // after the step: whether (or which thread is) gathering is done
    atomic_size_t bytes;      // the arrays' room in bytes: grown by a gathering on any thread, read by
                              // cw_world_get_stats on another
} cw__event_arrays;
enum { CW__ENDS = 0, CW__BEGINS = 1, CW__STAYS = 2 };

// The destroyed bodies whose slots wait for their ends, oldest first: a list threaded through the
// slots (next_dying), so that it needs no room of its own (an array would need a place for every
// slot, since any number of bodies may be destroyed between steps without allocating).
typedef struct cw__dying {
    uint32_t head, tail, count; // slot indices (0: none)
} cw__dying;

// A growable array of 32-bit values.
typedef struct cw__u32s {
    uint32_t *items;
    uint32_t count, capacity;
} cw__u32s;

// What a begin carries beyond its pair: when along the motion, and for pairs with a swept body the
// contact at that moment.
typedef struct cw__begin_info {
    float fraction;
    cw_manifold manifold;
} cw__begin_info;

// Pairs with a swept body that touched during the step but neither before nor after it: each gets
// a begin and, after all the step's begins, an end.
typedef struct cw__passed {
    uint64_t *keys;
    cw__begin_info *info;
    uint8_t *delivered;     // its begin was delivered, so its end is owed
    uint32_t count, capacity;
} cw__passed;

// Mask bodies' kept forms are filed in pages that never move: the array grows a page at a time,
// with no copy (a copy would hold old and new at once: 2.5 times the array at its peak) and at
// most a page of spare room (a growth by half again leaves up to a third).
enum { CW__MASK_PAGE_BITS = 6, CW__MASK_PAGE = 1 << CW__MASK_PAGE_BITS };

// A page of kept mask forms, its entries starting on a cache line: a form is two lines, so a test
// reads two lines a sprite instead of three (the allocator hook promises no more than the
// alignment of a double: the block is a line longer).
enum { CW__LINE = 64 };
_Static_assert(sizeof(cw__body) % CW__LINE == 0, "a kept mask form fills whole cache lines");
typedef struct cw__mask_page {
    cw__body *bodies; // the block's first line boundary
    void *block;      // as allocated: CW__MASK_PAGE * sizeof(cw__body) + CW__LINE bytes
} cw__mask_page;

// The arrays parallel to the slots (body.c): slots, hot records, retest steps, touching pair counts
// and, from CW__FIRST_LANE on, the query lanes' marks, each made by its lane's first query (and
// the body index's heads once it is kept: not one of these).
enum { CW__FIRST_LANE = 4, CW__SLOT_ARRAYS = CW__FIRST_LANE + CW_QUERY_LANES };

// The world's own worker threads (tasks.c).
typedef struct cw__pool cw__pool;

struct cw_world {
    cw_world_def def;
    int workers;            // workers the step uses (1: none but the stepping thread)
    int share_moves_from;   // tests only (cw__test_share_moves_from): 0, else lists this long on the workers
    cw__pool *pool;         // the world's own threads, when workers > 1 without a task system
    atomic_bool stepping;   // a step runs (set by the stepping thread; others fail to step)
    atomic_int queries;     // queries running, on any thread
    atomic_uint lanes_busy; // bit k: query lane k is taken
    uint16_t *lane_seen[CW_QUERY_LANES]; // per lane, parallel to slots once the lane has run a query
                            // (query.c): the lane's last query that tested the body
    atomic_size_t lane_bytes; // the lanes' marks in bytes: made by a query on any thread, read by
                            // cw_world_get_stats on another
    uint16_t lane_mark[CW_QUERY_LANES];  // per lane: the current query's number
    uint8_t *outcomes;      // per candidate pair, written by the workers (see test_candidates)
    uint32_t outcome_capacity;
    cw__pair_list *scan_lists; // with workers: one candidate list per part of the grid's scan
    uint32_t *scan_bounds;  // the parts' first cells (scan_parts + 1)
    uint32_t scan_parts;
    uint32_t *sort_counts;  // with workers: the shared radix sort's digit counts, sort_parts x 2^11
    uint32_t sort_parts;
    bool auto_cell;
    bool cell_chosen;       // the automatic cell size has been chosen from the bodies
    bool in_callback;
    bool step_failed;       // the current step ran out of memory (or pairs) and will be redone
    int failed_steps;       // steps in a row that failed
    bool begin_manifolds, stay_manifolds; // computed for those events (a callback and def.manifolds)
    uint32_t step;
    cw__slot *slots;        // slot 0 is never used: index 0 means "no body"
    cw__hot *hot;           // parallel to slots
    cw__mask_page *mask_pages; // the narrowphase form of mask bodies, in pages of CW__MASK_PAGE
                            // entries (entry 0 unused; cw__mask_body); a box's is rebuilt from its
                            // slot when needed (cw__slot_body)
    uint32_t mask_body_count, mask_page_count, mask_page_capacity;
    uint32_t free_mask_body; // entries given back by slots that went on to hold a box, linked
                             // through the entries themselves (0 = none; body.c)
    uint32_t *retest_step;  // parallel to slots: the last step that re-tested the body's pairs, or
                            // CW__DIED once destroyed (small, so the diff's lookups stay in cache)
    uint32_t *pair_count;   // parallel to slots: the body's pairs in the current touching set
    uint32_t slot_count, slot_capacity, free_slot;
    uint32_t slot_array_capacity[CW__SLOT_ARRAYS]; // of each array parallel to the slots (body.c): a
                            // growth cut short by memory leaves the first ones above slot_capacity
    int bodies, static_bodies;
    double extent_sum;      // of the live bodies' extents
    cw__u32s dirty;         // bodies changed since the last step
    cw__u32s moved;         // the dirty list taken by the current step
    cw__dying dying;        // destroyed bodies whose slots wait for their ends
    cw__grid grid;
    cw__pair_list candidates; // the current step's candidate pairs, two indices each
    uint64_t *found;        // the touching pairs with a moved body, then sorted: the keys are written
                            // over the candidates already tested (one key takes the room of one
                            // candidate, never ahead of the one being read), so they need no room
    uint32_t found_count;   // of their own
    cw__touching touching[2]; // before and after the current step; `current` is the latest
    int current;
    cw__u32s ends;          // positions in the previous touching set of the pairs that left it
    uint32_t ends_owed;     // of those, the ones whose begin was reported (an end event each)
    cw__u32s begins;        // positions in the current touching set (see cw__begin_at)
    bool begins_all;        // every pair of the current set began (the previous set was empty, as at
                            // a first step): the list stays empty instead of as long as the set
    cw__u32s manifold_todo; // positions in the new touching set whose manifold the diff computes
    cw__begin_info *begin_info; // parallel to begins when begins_have_info (some body is swept)
    bool begins_have_info;
    uint32_t begin_info_capacity;
    cw__u32s swept;         // the swept bodies, each filed under its motion's box
    double sweep_margin_x, sweep_margin_y; // the farthest unswept body's motion this step, per axis
    cw__passed passed;      // swept pairs that touched only during the step, sorted after the step's tests
    cw__body_index index;   // from each body to the pairs it touches
    cw__event_arrays events; // the last step's events, for cw_world_events()
    bool report_stays;      // on_stay or def.report_stays
    int disabled_bodies;
    cw_world_stats stats;
};

// tasks.c: runs task over [0, item_count) on the world's workers (inline with one worker or at most
// min_range items); returns when every range has run.
void cw__parallel_for(const cw_world *world, cw_task_fn *task, int item_count, int min_range, void *task_context);
// Starts up to thread_count threads (NULL if none could be started); stops and joins them.
cw__pool *cw__pool_start(int thread_count);
void cw__pool_stop(cw__pool *pool);
int cw__pool_threads(const cw__pool *pool);

// Tests only (declared again in tests/hooks.h; not in the public header): brings the world's
// wrapping counters (the grid's step stamp, the step count, the query lanes' marks, free slots'
// reuse counts) `left` steps, queries or reuses short of their wrap, keeping what they mean now.
void cw__test_near_wrap(cw_world *world, uint32_t left);
void cw__test_share_moves_from(cw_world *world, int work); // moves.c: lists this long go to the workers

// Whether this thread is running a query of `world` (its callback is on the stack), or its step.
bool cw__in_query(const cw_world *world);
bool cw__in_step(const cw_world *world);

// False (with an error) while a query runs (a query callback, or another thread's query): bodies
// may not change then.
bool cw__world_may_change(const cw_world *world);

// The slot of a live body named by `id`, or NULL (with an error) if the id is stale or null.
cw__slot *cw__world_slot(const cw_world *world, cw_body_id id);

// A mask body's kept form: entry `entry` (a hot record's mask_body, >= 1).
static inline cw__body *cw__mask_body(const cw_world *world, uint32_t entry)
{
    return &world->mask_pages[entry >> CW__MASK_PAGE_BITS].bodies[entry & (CW__MASK_PAGE - 1)];
}

// The mask entry slot `index` holds (0: none): its body's, or a free slot's last mask body's. A
// slot never used is all zeros, so it holds none.
static inline uint32_t cw__mask_entry(const cw_world *world, uint32_t index)
{
    const cw__hot *hot = &world->hot[index];
    return hot->is_box ? 0 : hot->mask_body;
}

// Whether `id` names a live body of the world (not NULL).
static inline bool cw__is_live(const cw_world *world, cw_body_id id)
{
    return id.index != 0 && id.index < world->slot_count && world->hot[id.index].state == CW__ALIVE &&
           world->slots[id.index].generation == id.generation;
}

// A body's shape as given (a box's mask pointer: NULL).
static inline cw_shape cw__slot_shape(const cw_world *world, uint32_t index)
{
    const cw__slot *slot = &world->slots[index];
    const cw__hot *hot = &world->hot[index];
    return (cw_shape){.type = hot->is_box ? CW_SHAPE_BOX : CW_SHAPE_MASK, .size = slot->size,
                      .mask = hot->is_box ? NULL : cw__mask_body(world, hot->mask_body)->mask};
}

// The narrowphase form of a body's shape and transform: a mask body's kept one, or a box's rebuilt
// into `scratch` (no trigonometry: its rotation is kept in the hot record).
static inline const cw__body *cw__slot_body(const cw_world *world, uint32_t index, cw__body *scratch)
{
    const cw__slot *slot = &world->slots[index];
    const cw__hot *hot = &world->hot[index];
    if (!hot->is_box)
        return cw__mask_body(world, hot->mask_body);
    cw_shape box = cw__slot_shape(world, index);
    cw__prepare_rotated(&box, &slot->transform, hot->obb.c, hot->obb.s, scratch);
    return scratch;
}

// The body's AABB as it is now (for an unchanged body, as of the last step; a swept body's place in
// the grid is the box of its motion: not this).
static inline cw__box cw__body_box(const cw_world *world, uint32_t index)
{
    return world->slots[index].next_aabb;
}

// Scratch for sorting the pairs found or passed once the candidates are tested: the keys of the
// touching set the step is about to fill, reserved for them by test_candidates (the set needs that
// room anyway: every pair found goes into it) and not read before the diff writes them.
static inline uint64_t *cw__sort_scratch(cw_world *world) { return world->touching[!world->current].keys; }

// The step's begins: how many, and the position of the k-th in the touching set `set` it filled.
static inline uint32_t cw__begin_count(const cw_world *world, const cw__touching *set)
{
    return world->begins_all ? set->count : world->begins.count;
}
static inline uint32_t cw__begin_at(const cw_world *world, uint32_t k)
{
    return world->begins_all ? k : world->begins.items[k];
}

// Marks a body changed so the next step redoes its AABB and pairs. Never allocates.
void cw__world_mark_dirty(cw_world *world, uint32_t index);
// Moves a live body to `t` (moves.c): false, with the error and nothing changed, if `t` is invalid.
bool cw__move_body(cw_world *world, uint32_t index, const cw_transform *t);
// Room for `bodies` bodies, exactly (cw_world_def::body_capacity): the slot arrays, the per-body
// lists and the grid's proxies. False (with the error) if memory runs out.
bool cw__reserve_bodies(cw_world *world, uint32_t bodies);
void cw__mask_pages_free(cw_world *world); // body.c

// The body index (touching.c): whether the step keeps it; room for `needed` nodes; its heads grown
// to `slots` (body.c grows them with the slots); freed. False if memory runs out.
static inline bool cw__index_kept(const cw__body_index *index)
{
    return atomic_load_explicit(&index->state, memory_order_acquire) == CW__INDEX_ON;
}
bool cw__index_reserve(cw__body_index *index, uint32_t needed);
bool cw__index_reserve_heads(cw__body_index *index, uint32_t slots);
void cw__index_free(cw__body_index *index);
// Frees the arrays parallel to the slots (body.c).
void cw__slot_arrays_free(cw_world *world);
// The position of `key` in a sorted touching set, or where it would go (a lower bound).
uint32_t cw__find_key(const cw__touching *set, uint64_t key);
// After a diff: the pair counts follow the pairs that left and the new ones, and where the index is
// kept the ones that left are unlinked and the new ones linked (never allocates).
void cw__index_apply(cw_world *world);
// Whether the body is in a touching pair of the current set (touching.c).
bool cw__body_has_pairs(const cw_world *world, uint32_t index);

// Makes room in the event arrays for the ends the diff listed (callbacks can only drop some); false
// if memory runs out.
bool cw__events_reserve(cw_world *world);
// Empties the event arrays for a new step (nothing gathered yet).
void cw__events_start_step(cw__event_arrays *events);
void cw__events_free(cw__event_arrays *events);

// Empties the set the step is about to fill and makes room in it for `needed` pairs and for the
// previous set's (the diff needs both); false if memory runs out (touching.c).
bool cw__reserve_next_set(cw_world *world, uint32_t needed);

// Growable arrays: make room for `needed` items; false (unchanged) if memory runs out.
bool cw__u32s_reserve(cw__u32s *array, uint32_t needed);
bool cw__u32s_reserve_exact(cw__u32s *array, uint32_t needed); // to exactly `needed`
void cw__u32s_free(cw__u32s *array);

// touching.c: the sorted pair set.
// Sorts `keys` ascending (radix sort on the bits below index_bound in each half); `scratch` must
// hold as many keys. Allocation-free.
#define CW__SORT_DIGITS (1u << 11) // the radix sort's digits a pass (touching.c: RADIX_BITS)
// With several workers and many keys the passes are shared among them (world->sort_counts).
void cw__sort_pair_keys(const cw_world *world, uint64_t *keys, uint64_t *scratch, uint32_t count, uint32_t index_bound);
// Makes room for `needed` pairs (and manifolds if `with_manifolds`, index nodes if `with_nodes`);
// false if memory runs out.
bool cw__touching_reserve(cw__touching *set, uint32_t needed, bool with_manifolds, bool with_nodes);
void cw__touching_free(cw__touching *set);
// What each part of the world holds from the allocator, in bytes (cw_world_stats::bytes): the
// sets and the body index with the sets' nodes, counted once it is kept (touching.c), the slot
// arrays and mask pages (body.c), the
// passed list (swept.c), the pool (tasks.c).
size_t cw__touching_bytes(const cw__touching *set);
size_t cw__index_bytes(const cw_world *world);
size_t cw__body_bytes(const cw_world *world);
size_t cw__passed_bytes(const cw__passed *passed);
size_t cw__pool_bytes(const cw__pool *pool);

// Asks for the cache line holding `address`: a hint, nothing where the compiler has no prefetch.
static CW__ALWAYS_INLINE void cw__prefetch(const void *address)
{
#if defined(__GNUC__)
    __builtin_prefetch(address);
#else
    (void)address;
#endif
}

// Asks for the lines of [address, address + size) that hold its first and last bytes (all of it
// where it spans at most two).
static CW__ALWAYS_INLINE void cw__prefetch_lines(const void *address, size_t size)
{
    cw__prefetch(address);
    cw__prefetch((const char *)address + size - 1);
}

// Whether the body was created since the last step (its `from` is NaN: positions are finite).
static inline bool cw__is_fresh(const cw__slot *slot) { return slot->from.x != slot->from.x; }

// The body's motion in the current step (zero unless it moved since the last step; zero in its
// first step).
static inline void cw__motion(const cw__slot *slot, double *dx, double *dy)
{
    bool fresh = cw__is_fresh(slot);
    *dx = fresh ? 0 : (double)slot->transform.position.x - slot->from.x;
    *dy = fresh ? 0 : (double)slot->transform.position.y - slot->from.y;
}

// swept.c: contacts over the step's motion.
// Files every swept body under its motion's box, widened by the unswept bodies' farthest motion,
// where that box changed; they join the moved list. False if memory runs out.
bool cw__file_swept(cw_world *world);
// The candidate test of a pair with a swept body and a relative motion: touching after the step,
// touched only during it (and not touching before), or neither.
enum { CW__APART = 0, CW__TOUCHING_NOW = 1, CW__PASSED = 2 };
int cw__swept_outcome(const cw_world *world, uint32_t a, uint32_t b);
// Appends a passed pair; false if memory runs out.
bool cw__passed_push(cw__passed *passed, uint64_t key);
// The first touch of a pair found touching that began in this step.
void cw__swept_begin(const cw_world *world, uint64_t key, bool with_manifold, cw__begin_info *info);
// Sorts the passed pairs and computes their first touches; false if memory runs out.
void cw__finish_passed(cw_world *world);
// A pair's relative motion this step (a's motion minus b's).
void cw__pair_motion(const cw_world *world, uint32_t a, uint32_t b, double *dx, double *dy);
void cw__passed_free(cw__passed *passed);

// touching.c: merges the previous touching set with the pairs found into the other set, listing
// ends and begins. Returns false (the previous set untouched) if memory runs out.
bool cw__diff_pairs(cw_world *world);

// events.c: delivers the step's events to the callbacks.
void cw__deliver(cw_world *world);

static inline uint64_t cw__pair_key(uint32_t a, uint32_t b) { return ((uint64_t)a << 32) | b; }
static inline uint32_t cw__key_a(uint64_t key) { return (uint32_t)(key >> 32); }
static inline uint32_t cw__key_b(uint64_t key) { return (uint32_t)key; }

#endif
