// The reference world's private parts, shared by world_ref.c (the mirror and the step),
// world_ref_events.c (the event checks), world_ref_motion.c (what swept bodies must report) and
// world_ref_touch.c (what is asked between steps). Tests only.
#ifndef CW_TEST_WORLD_REF_INTERNAL_H
#define CW_TEST_WORLD_REF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "world_ref.h"

#define WR_MAX_PRINTED 25

// A small hash map from uint64 keys to int values (open addressing, tombstones).
#define MAP_EMPTY UINT64_MAX
#define MAP_TOMB (UINT64_MAX - 1)

typedef struct wr_map {
    uint64_t *keys;
    int *vals;
    size_t cap, count, used; // used = count + tombstones
} wr_map;

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
void map_init(wr_map *m, size_t cap);
void map_free(wr_map *m);
void map_clear(wr_map *m);
int *map_find(const wr_map *m, uint64_t key);
void map_put(wr_map *m, uint64_t key, int val);
bool map_del(wr_map *m, uint64_t key);

// The mirror.
typedef struct wr_rec {
    cw_body_id id;
    int tag;
    bool live;
    bool live_at_step;    // live when the last (or current) step began
    int created_step;     // w->steps when created (== the running step if created in a callback)
    bool created_in_step; // created from a callback
    int destroy_step;     // the step whose callbacks destroyed it, or -1 (destroyed between steps, or live)
    int destroy_seq;      // events recorded before the destroy, when destroyed in a callback
    cw_shape shape;
    ref_shape ref;
    cw_transform transform;
    uint32_t category, collides_with;
    bool is_static;
    bool swept;
    int32_t group;
    bool disabled;
    bool fresh;           // created since the last step: does not move in its first step
    cw_vec2 from;         // where this step's motion starts (the position at the last step)
    bool teleported;      // by a callback of the running step: the next motion starts where it landed
    cw_vec2 next_from;    // where, when teleported
    void *user, *user_step, *user_destroy;
    cw_shape shape_step;
    ref_shape ref_step;
    cw_transform transform_step;
    bool aabb_valid, aabb_empty;
    double min[2], max[2];
    int live_pos;
} wr_rec;

// A pair with a swept body and a relative motion in the running step, judged by cw_shape_cast() of
// one against the other from where both were at the last step.
typedef struct wr_motion {
    uint64_t key;          // canonical
    bool hit;
    float fraction;        // the cast's, when it hits
    cw_manifold manifold;  // at the first touch, where it happens in the world
    double dx, dy;         // the relative motion (a's minus b's), in double
    bool was_open;         // touching when the step began (then it ends, if it stops touching)
} wr_motion;

typedef struct wr_tpair {
    uint64_t key;   // handle a << 32 | handle b (a has the lower slot index)
    bool was_open;  // open (begun, not ended) when the step began
} wr_tpair;

struct wr_world {
    cw_world *world;
    wr_options opt;
    char name[96];
    wr_rec *recs;
    int rec_count, rec_cap;
    int *live;
    int live_count, live_cap;
    wr_map ids;    // index << 32 | generation -> handle
    wr_map open;   // pairs begun and not ended, as the events say
    wr_map expect; // the expected touching set of the last step (value: index in tpairs)
    wr_map begun;  // pairs begun in the current step
    wr_map stayed; // pairs with a stay in the current step
    wr_tpair *tpairs;
    int tcount, tcap;
    wr_map moving;  // key -> index in motions
    wr_motion *motions;
    int motion_count, motion_cap;
    wr_event *log;
    int log_count, log_cap;
    int steps;   // steps run (the running one included)
    int touch_checks_from; // the first step after which cw_body_touching() is asked (see wr_create)
    bool in_step;
    int failures, printed;
    int step_destroys, step_creates;
    wr_totals totals;
    unsigned char *stream;
    size_t stream_len, stream_cap;
};


static inline uint64_t id_key(cw_body_id id) { return ((uint64_t)id.index << 32) | id.generation; }
static inline uint64_t pair_key(int ha, int hb) { return ((uint64_t)(uint32_t)ha << 32) | (uint32_t)hb; }
static inline int key_a(uint64_t k) { return (int)(uint32_t)(k >> 32); }
static inline int key_b(uint64_t k) { return (int)(uint32_t)k; }

// The canonical key of two records: the one with the lower slot index first.
static inline uint64_t canon_key(const wr_world *w, int h1, int h2)
{
    return w->recs[h1].id.index < w->recs[h2].id.index ? pair_key(h1, h2) : pair_key(h2, h1);
}

// The filter of the header: the same nonzero group decides (negative never, positive always), else
// categories both ways; disabled bodies never touch.
static inline bool wr_filters_match(const wr_rec *a, const wr_rec *b)
{
    if (a->disabled || b->disabled)
        return false;
    if (a->group == b->group && a->group != 0)
        return a->group > 0;
    return (a->category & b->collides_with) && (b->category & a->collides_with);
}

// world_ref_events.c: after a step, the recorded events against the expected set and the mirror
// (ends, begins, stays; users, fractions, manifolds; the touching set they build; the stats).
void wr_check_events(wr_world *w);

// world_ref_touch.c: after a step, what cw_body_touching(), cw_pair_touching() and
// cw_world_events() say against the expected set and the recorded events.
void wr_check_touching(wr_world *w);
void wr_check_event_arrays(wr_world *w);

// world_ref_motion.c: the expectations of swept bodies.
// Lists the running step's pairs with a swept body and a relative motion, with the cast's answer.
void wr_expect_motion(wr_world *w);
// The pair's entry, or NULL if it has no swept body or no relative motion.
const wr_motion *wr_motion_of(const wr_world *w, uint64_t key);
// Whether the motion reference finds the pair grazing (neither clearly touching nor clearly apart
// over the motion): then the library may answer either way.
bool wr_motion_grazing(const wr_world *w, const wr_motion *m);
// Checks a begin's fraction and manifold against the cast's (or the reference's, if they differ);
// returns a reason, or NULL if it is fine.
const char *wr_check_motion_begin(const wr_world *w, const wr_motion *m, const cw_contact *c);
// After the events: every pair that touched only during the step had its begin and end.
void wr_check_passed(wr_world *w);

#endif
