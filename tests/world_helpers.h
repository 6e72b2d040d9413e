// Helpers shared by the hand-made world tests (test_world_changes.c, test_world_misuse.c,
// test_world_getters.c, test_world_extremes.c): user data pointers, placements, boxes, and reference
// worlds (world_ref.h) with their checked steps.
#ifndef CW_TEST_WORLD_HELPERS_H
#define CW_TEST_WORLD_HELPERS_H

#include <stdbool.h>

#include <collworld.h>

#include "world_ref.h"

extern char wh_users[64]; // user data pointers: &wh_users[k]

// The default transform at position (x, y).
cw_transform wh_at(float x, float y);

// Adds a w x h box with its corner at (x, y).
int wh_add_box(wr_world *w, float x, float y, float bw, float bh, bool is_static, void *user, int tag);

// A reference world named `name`, its callbacks calling `hook` (may be NULL) with `context`.
wr_world *wh_make_world(const char *name, wr_hook_fn *hook, void *context);

// Destroys the reference world, then fails the test if it found anything.
void wh_finish(wr_world *w);

// How many events of `phase` the last step delivered.
int wh_count_phase(wr_world *w, int phase);

// Runs one checked step and fails the test at once if the reference found anything.
#define STEP(w) wh_step_at((w), __FILE__, __LINE__)
void wh_step_at(wr_world *w, const char *file, int line);

#endif
