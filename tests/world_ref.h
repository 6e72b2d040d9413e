// A brute-force reference for the collision world (tests only, public API only).
//
// wr_world wraps one cw_world and mirrors every call made through it (bodies with their shape,
// transform, filter, static flag and user data). Each wr_step():
//   1. computes the expected touching set from the mirror by brute force (every pair with filters
//      matching both ways, not both static, and cw_overlap() true), before the step;
//   2. runs cw_world_step(), recording every event (callbacks may change the world through the
//      wr_* calls below: the mirror follows, and the changes count from the next step on);
//   3. checks the events against the header's event semantics: ends, then begins, then stays, each
//      group in ascending (a.index, b.index); a.index < b.index; user_a/user_b as they were when the
//      step began (or when a destroyed body was destroyed); begin/end balanced per pair; every stay a
//      pair touching before and after; no begin or stay naming a body after a callback destroyed it;
//      the ends of a destroyed body's contacts in the next step's ends with its old id and user data;
//      a unit normal (and the manifold cw_overlap gives) for begins and stays, zero for ends; the
//      touching set derived from the events (begins add, ends remove) equal to the expected one;
//      and the stats of the step.
// Failures are printed with the world's name, seed and step, and counted (no cmocka assert runs
// inside a callback); the test asserts wr_failures() == 0.
#ifndef CW_TEST_WORLD_REF_H
#define CW_TEST_WORLD_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <collworld.h>

#include "reference.h"

typedef struct wr_world wr_world;

/// Event phases, in the order a step delivers them.
enum { WR_END = 0, WR_BEGIN = 1, WR_STAY = 2 };

/// One delivered event (the contact copied during the callback).
typedef struct wr_event {
    int phase;
    cw_contact contact;
} wr_event;

/// Called from inside the world's callbacks after the event has been recorded: it may change the
/// world through the wr_* calls (and may try misuse through wr_cw()).
typedef void wr_hook_fn(wr_world *w, int phase, const cw_contact *contact, void *context);

typedef struct wr_options {
    const char *name;          ///< printed with failures
    uint64_t seed;             ///< printed with failures
    float cell_size;           ///< cw_world_def::cell_size
    bool no_stay;              ///< leave on_stay NULL (then stays are not expected)
    bool no_manifolds;         ///< cw_world_def::manifolds = false (then every manifold must be zero)
    bool skip_manifold_equal;  ///< do not compare manifolds with cw_overlap()'s (unit normals are still checked)
    bool record_stream;        ///< keep a byte serialisation of every event (see wr_stream())
    wr_hook_fn *hook;          ///< may be NULL
    void *hook_context;
    int worker_count;          ///< cw_world_def::worker_count (0: 1)
    cw_enqueue_task_fn *enqueue_task; ///< cw_world_def's task system (NULL: the world's own threads)
    cw_finish_task_fn *finish_task;
    void *task_context;
} wr_options;

/// Creates the world (failures are counted; returns NULL only if the world could not be made).
wr_world *wr_create(const wr_options *options);
/// Destroys the cw_world and the mirror.
void wr_destroy(wr_world *w);
cw_world *wr_cw(wr_world *w);

/// Mirrored calls. Each asserts (counts a failure) that the library call succeeded. Handles are the
/// mirror's record numbers: stable for the life of the wr_world, never reused.
int wr_body_create(wr_world *w, const cw_body_def *def, const ref_shape *ref, int tag);
void wr_body_destroy(wr_world *w, int h);
void wr_set_transform(wr_world *w, int h, const cw_transform *t);
void wr_set_shape(wr_world *w, int h, const cw_shape *shape, const ref_shape *ref);
void wr_set_filter(wr_world *w, int h, uint32_t category, uint32_t collides_with);
void wr_set_user(wr_world *w, int h, void *user_data);
void wr_teleport(wr_world *w, int h, const cw_transform *t);
void wr_set_swept(wr_world *w, int h, bool swept);
void wr_set_group(wr_world *w, int h, int32_t group);
void wr_set_enabled(wr_world *w, int h, bool enabled);
bool wr_is_enabled(const wr_world *w, int h);

/// Queries on the mirror.
int wr_live_count(const wr_world *w);
int wr_live_at(const wr_world *w, int k); ///< handle of the k-th live body (order changes on destroy)
bool wr_is_live(const wr_world *w, int h);
cw_body_id wr_id(const wr_world *w, int h);
int wr_tag(const wr_world *w, int h);
bool wr_is_static(const wr_world *w, int h);
cw_transform wr_transform(const wr_world *w, int h);
int wr_handle_of(const wr_world *w, cw_body_id id); ///< -1 if the world never returned that id

/// Steps once and checks everything; false if this step found a failure.
bool wr_step(wr_world *w);
int wr_steps(const wr_world *w);
int wr_failures(const wr_world *w);
/// Counts a failure with a message (for the tests' own checks).
void wr_fail(wr_world *w, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Events of the last step, in delivery order.
const wr_event *wr_events(const wr_world *w, int *count);
/// Number of events of `phase` in the last step naming the bodies with handles ha and hb (either order).
int wr_count_events(const wr_world *w, int phase, int ha, int hb);
/// Size of the expected touching set of the last step.
int wr_expected_count(const wr_world *w);
/// Whether the pair (ha, hb) was expected to touch in the last step.
bool wr_expected(const wr_world *w, int ha, int hb);
/// Sorted list of the last step's expected touching pairs as (a.index, a.generation, b.index,
/// b.generation) quadruples: fills up to `max` quadruples, returns the count.
int wr_expected_pairs(const wr_world *w, uint32_t *out, int max);
/// Totals over all steps.
typedef struct wr_totals {
    long begins, stays, ends, dropped_checks, callback_destroys, callback_creates, manifold_checked;
    int max_touching;
} wr_totals;
wr_totals wr_get_totals(const wr_world *w);

/// With record_stream: the serialisation of every event so far (phase, ids, user pointers and
/// manifold bits), and its length.
const unsigned char *wr_stream(const wr_world *w, size_t *length);

/// Prints a body of the mirror (id, tag, filter, shape and transform) for failure reports.
void wr_print_body(const wr_world *w, int h);

#endif
