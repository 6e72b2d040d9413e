// The model the world target keeps of what it asked the world to do, shared by its two files:
// fuzz_world.c (operations, steps and their events) and world_queries.c (queries against brute force).
#ifndef CW_FUZZ_WORLD_H
#define CW_FUZZ_WORLD_H

#include "fuzz_common.h"

enum { MAX_LIVE = 40, MAX_RECORDS = 512, MAX_EVENTS = 4096, MAX_PAIRS = MAX_LIVE * MAX_LIVE / 2, MAX_OPS = 300 };

typedef struct body {
    cw_body_id id;
    cw_shape shape;
    cw_transform transform;
    uint32_t category, collides_with;
    bool is_static, swept;
    uintptr_t token;
    int32_t group;
    bool disabled;
    cw_vec2 from; // where its motion in the next step starts: its place at the last step that passed
    bool changed; // its shape, filter, group, switch or sweeping changed since then
    bool fresh;   // made since then: its first step has no motion, wherever it was moved meanwhile
} body;

extern body live[MAX_LIVE]; // the bodies alive now, in the order made
extern int live_count;

static inline bool same_id(cw_body_id x, cw_body_id y) { return x.index == y.index && x.generation == y.generation; }

// From the input: a shape (now and then an invalid one) and a transform (huge: positions up to 1e6).
cw_shape pick_shape(fz_reader *r);
cw_transform pick_transform(fz_reader *r, bool huge);
bool shape_valid(const cw_shape *s);

// A call that had to fail did, with an error.
void expect_failure(bool ok, const char *what);

// Each reads its query from the input, asks the world and checks the answer against brute force
// over live[] with the single-shape functions (world_queries.c).
void check_point_query(cw_world *world, fz_reader *r);
void check_ray_query(cw_world *world, fz_reader *r);
void check_cast_query(cw_world *world, fz_reader *r);

#endif
