// The random world scenes of test_world_random.c for other test files: one scene run with a given
// threading, its event stream kept.
#ifndef CW_TEST_SCENE_H
#define CW_TEST_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include <collworld.h>

// How a scene's world uses threads: cw_world_def's worker_count and task system.
typedef struct scene_threading {
    int worker_count; // 0: 1
    cw_enqueue_task_fn *enqueue_task;
    cw_finish_task_fn *finish_task;
    void *task_context;
} scene_threading;

// Runs a crowded scene (masks and boxes, large bodies, spawns, destroys, reshapes, filter, group,
// swept and enable changes between steps, swept bullets, callbacks that change the world) from
// `seed` with `threading`, checking every step against the brute-force reference (its failures are
// added to *failures). Returns the byte stream of every event (malloc'd: free it) and its length.
unsigned char *scene_stream(uint64_t seed, const scene_threading *threading, size_t *length, int *failures);

#endif
