// The world: one step (broadphase, narrowphase, the diff against the last touching set) and the
// contact events.
//
// A step re-tests only pairs with a body that changed ("moved"). The touching pairs found among
// those are sorted and merged with the previous step's sorted set: a pair found in both stays; a
// pair found only now begins; a previous pair of two unchanged bodies stays without a test; any
// other previous pair ends. Events thus come out in key order with no table lookups, and a step
// that runs out of memory leaves the previous set intact and is redone by the next step.
#include "internal.h"

#include <math.h>
#include <string.h>
#include <time.h>

// The automatic cell size: two and a half times the mean body extent, chosen at the first step with
// bodies and re-chosen when that drifts by more than 2x. Against twice (the sprites scene, bodies
// 8-64 units, two runs each): 10k bodies 3-7% faster a frame (fewer cell entries, and cells hold
// less than one body on average there anyway), 50k within the runs' spread, 100k up to 1% slower
// (more bodies a cell to check against each other); three times: 50k-100k boxes 1-4% slower.
#define AUTO_CELL_FACTOR 2.5
#define DEFAULT_CELL 64.0f
// Above this the mean is a body far beyond moderate sizes (its own extent may not fit a float):
// the cell size stays as it was.
#define MAX_AUTO_CELL 1e30

cw_world_def cw_default_world_def(void)
{
    return (cw_world_def){.cell_size = 0, .on_begin = NULL, .on_stay = NULL, .on_end = NULL, .context = NULL,
                          .manifolds = true, .report_stays = false, .event_arrays = true, .stay_manifolds = true,
                          .worker_count = 1, .max_pairs = CW_DEFAULT_MAX_PAIRS};
}

// --- the grid's scan on the workers ---

// Parts of the scan a worker takes in turn: a few each evens out crowded regions.
#define SCAN_PARTS_PER_WORKER 4
// Below this many cell entries the scan is left to the stepping thread.
#define PARALLEL_SCAN_MEMBERS 65536

static void free_worker_scratch(cw_world *world)
{
    for (uint32_t k = 0; world->scan_lists != NULL && k < world->scan_parts; k++)
        cw__free(world->scan_lists[k].items, world->scan_lists[k].capacity * sizeof(uint32_t));
    cw__free(world->scan_lists, world->scan_parts * sizeof *world->scan_lists);
    cw__free(world->scan_bounds, (world->scan_parts + 1) * sizeof *world->scan_bounds);
    world->scan_lists = NULL, world->scan_bounds = NULL, world->scan_parts = 0;
    cw__free(world->sort_counts, (size_t)world->sort_parts * CW__SORT_DIGITS * sizeof *world->sort_counts);
    world->sort_counts = NULL, world->sort_parts = 0;
    world->grid.sort_runner.parts = 0;
}

// The grid's counting sort shared among the workers (see cw__part_runner): a part a worker.
typedef struct part_task {
    cw__part_fn *fn;
    void *arg;
} part_task;

static void part_range_task(int start, int end, int worker, void *context)
{
    (void)worker;
    const part_task *task = context;
    for (int k = start; k < end; k++)
        task->fn(task->arg, (uint32_t)k);
}

static void run_grid_parts(void *self, cw__part_fn *fn, void *arg, uint32_t parts)
{
    part_task task = {fn, arg};
    cw__parallel_for(self, part_range_task, (int)parts, 1, &task);
}

// The per-part lists of the scan and the counts of the shared sort; without memory for them the
// stepping thread scans and sorts alone.
static void make_worker_scratch(cw_world *world)
{
    uint32_t parts = (uint32_t)world->workers * SCAN_PARTS_PER_WORKER;
    world->scan_lists = cw__alloc(parts * sizeof *world->scan_lists);
    if (world->scan_lists != NULL) // emptied first: freeing the scratch below frees each list's items
        memset(world->scan_lists, 0, parts * sizeof *world->scan_lists);
    world->scan_bounds = cw__alloc((parts + 1) * sizeof *world->scan_bounds);
    world->scan_parts = parts;
    if (world->scan_lists == NULL || world->scan_bounds == NULL) {
        free_worker_scratch(world);
        return;
    }
    world->grid.sort_runner = (cw__part_runner){run_grid_parts, world, (uint32_t)world->workers, PARALLEL_SCAN_MEMBERS};
    // The radix sort's counts: one row of digits a part, a part a worker (a pass is even work).
    world->sort_parts = (uint32_t)world->workers;
    world->sort_counts = cw__alloc((size_t)world->sort_parts * CW__SORT_DIGITS * sizeof *world->sort_counts);
    if (world->sort_counts == NULL)
        world->sort_parts = 0; // the stepping thread sorts alone
}

// Scans part k into its own list (emptied, its room kept). On a worker the list must not grow
// (`fixed`): a full one is marked failed and scanned again by the stepping thread. The list is
// filled in a copy on this thread's stack: the parts' lists lie side by side, two to a cache line,
// and counting pairs into them in place made two workers fight over the line (100k boxes' step
// 6% slower on two workers, where the array happened to start).
static void scan_part(cw_world *world, uint32_t k, bool fixed)
{
    cw__pair_list list = {.items = world->scan_lists[k].items, .capacity = world->scan_lists[k].capacity,
                          .fixed = fixed, .limit = world->candidates.limit};
    cw__grid_scan_cells(&world->grid, world->scan_bounds[k], world->scan_bounds[k + 1], &list);
    world->scan_lists[k] = list;
}

static void scan_range(int start, int end, int worker, void *context)
{
    (void)worker;
    for (int k = start; k < end; k++)
        scan_part(context, (uint32_t)k, true);
}

// Joining the parts' lists copies every candidate once more (100k boxes: 5 MB a step), so where
// there are this many the parts are copied on the workers, each to its own place.
#define PARALLEL_JOIN_INDICES 65536

typedef struct join_job {
    cw_world *world;
    uint32_t at[CW_MAX_WORKERS * SCAN_PARTS_PER_WORKER]; // where each part's list goes
} join_job;

static void join_range(int start, int end, int worker, void *context)
{
    (void)worker;
    join_job *job = context;
    for (int k = start; k < end; k++) {
        const cw__pair_list *list = &job->world->scan_lists[k];
        memcpy(job->world->candidates.items + job->at[k], list->items, list->count * sizeof(uint32_t));
    }
}

// The scan's parts on the workers, then their lists joined in cell order: the same candidates in
// the same order as one thread's scan. False if memory runs out.
static bool scan_on_workers(cw_world *world, uint32_t cells)
{
    uint32_t parts = world->scan_parts;
    for (uint32_t k = 0; k <= parts; k++)
        world->scan_bounds[k] = cw__grid_scan_split(&world->grid, cells, k, parts);
    cw__parallel_for(world, scan_range, (int)parts, 1, world);
    uint64_t total = world->candidates.count;
    for (uint32_t k = 0; k < parts; k++) {
        cw__pair_list *list = &world->scan_lists[k];
        if (list->failed) // it outgrew its room: again here, where it may grow
            scan_part(world, k, false);
        world->candidates.over_limit |= list->over_limit;
        if (list->failed)
            return false;
        total += list->count;
    }
    cw__pair_list *out = &world->candidates;
    if (total > out->limit) {
        out->failed = out->over_limit = true;
        return false;
    }
    void *items = out->items;
    if (!cw__reserve(&items, sizeof(uint32_t), &out->capacity, (uint32_t)total))
        return false;
    out->items = items;
    join_job job;
    job.world = world;
    for (uint32_t k = 0; k < parts; k++) {
        job.at[k] = out->count;
        out->count += world->scan_lists[k].count;
    }
    cw__parallel_for(world, join_range, (int)parts, total >= PARALLEL_JOIN_INDICES ? 1 : (int)parts, &job);
    return true;
}

// The step's candidate pairs (the grid's scan shared among the workers when it is large).
static bool find_candidates(cw_world *world)
{
    cw__grid *grid = &world->grid;
    uint32_t cells;
    if (!cw__grid_pairs_begin(grid, world->moved.count, &world->candidates, &cells))
        return false;
    if (world->scan_parts > 0 && cw__grid_scan_members(grid, cells) >= PARALLEL_SCAN_MEMBERS) {
        if (!scan_on_workers(world, cells))
            return false;
    } else {
        cw__grid_scan_cells(grid, 0, cells, &world->candidates);
    }
    return cw__grid_pairs_end(grid, world->moved.items, world->moved.count, &world->candidates);
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
    if (def->cell_size > 0 && def->cell_size < CW_MIN_CELL_SIZE) {
        cw__fail("The cell size is too small: it must be 0 (automatic) or at least 1e-3.");
        return NULL;
    }
    if (def->worker_count < 1 || def->worker_count > CW_MAX_WORKERS) {
        cw__fail("The worker count must be from 1 to CW_MAX_WORKERS (64).");
        return NULL;
    }
    if (def->max_pairs < 0) {
        cw__fail("max_pairs must be 0 (the default, CW_DEFAULT_MAX_PAIRS) or more.");
        return NULL;
    }
    if ((def->enqueue_task == NULL) != (def->finish_task == NULL)) {
        cw__fail("Set both enqueue_task and finish_task, or neither.");
        return NULL;
    }
    if (def->body_capacity < 0 || def->body_capacity >= INT32_MAX) {
        cw__fail("body_capacity must be from 0 (no room made ahead) to 2147483646.");
        return NULL;
    }
    cw_world *world = cw__alloc(sizeof *world);
    if (world == NULL)
        return NULL;
    memset(world, 0, sizeof *world);
    world->def = *def;
    world->auto_cell = def->cell_size == 0;
    world->report_stays = def->on_stay != NULL || def->report_stays;
    world->begin_manifolds = def->manifolds && (def->on_begin != NULL || def->event_arrays);
    world->stay_manifolds = def->manifolds && def->stay_manifolds && world->report_stays;
    cw__grid_init(&world->grid, world->auto_cell ? DEFAULT_CELL : def->cell_size);
    const char *error_before = cw_last_error();
    if (world->def.max_pairs == 0)
        world->def.max_pairs = CW_DEFAULT_MAX_PAIRS;
    world->candidates.limit = 2 * (uint32_t)world->def.max_pairs;
    atomic_init(&world->stepping, false);
    atomic_init(&world->queries, 0);
    atomic_init(&world->lanes_busy, 0u);
    atomic_init(&world->events.bytes, 0);
    world->workers = def->worker_count;
    if (def->worker_count > 1 && def->enqueue_task == NULL) {
        // Threads that cannot be started (or no memory for them) leave fewer workers, down to one.
        world->pool = cw__pool_start(def->worker_count - 1);
        world->workers = 1 + cw__pool_threads(world->pool);
    }
    if (world->workers > 1)
        make_worker_scratch(world);
    cw__fail(error_before); // running on fewer workers, or scanning the grid alone, is no failure
    world->stats.cell_size = world->grid.cell_size;
    world->stats.workers = world->workers;
    if (def->body_capacity > 0 && !cw__reserve_bodies(world, (uint32_t)def->body_capacity)) {
        cw_world_destroy(world);
        cw__failf("Out of memory: no room for body_capacity (%d) bodies.", def->body_capacity);
        return NULL;
    }
    return world;
}

// The world whose step runs on this thread (its callbacks may be running), or NULL.
static _Thread_local const cw_world *stepping_here;

bool cw__in_step(const cw_world *world) { return world != NULL && stepping_here == world; }

// Why the world cannot be stepped (what = 0) or destroyed (what = 1) by this thread now, or NULL.
static const char *busy_reason(const cw_world *world, int what)
{
    static const char *const reasons[4][2] = {
        {"cw_world_step cannot be called from a query callback.", "cw_world_destroy cannot be called from a query callback."},
        {"cw_world_step cannot be called from a contact callback.", "cw_world_destroy cannot be called from a contact callback."},
        {"cw_world_step cannot run while another thread is querying the world.",
         "cw_world_destroy cannot run while another thread is querying the world."},
        {"cw_world_step cannot run while another thread is stepping the world.",
         "cw_world_destroy cannot run while another thread is stepping the world."}};
    if (cw__in_query(world))
        return reasons[0][what];
    if (cw__in_step(world))
        return reasons[1][what];
    if (atomic_load(&world->queries) > 0)
        return reasons[2][what];
    if (atomic_load(&world->stepping))
        return reasons[3][what];
    return NULL;
}

void cw_world_destroy(cw_world *world)
{
    if (world == NULL)
        return;
    const char *busy = busy_reason(world, 1);
    if (busy != NULL) {
        cw__fail(busy);
        return;
    }
    cw__pool_stop(world->pool);
    cw__grid_free(&world->grid);
    cw__slot_arrays_free(world);
    cw__mask_pages_free(world);
    cw__free(world->outcomes, world->outcome_capacity);
    free_worker_scratch(world);
    cw__u32s_free(&world->dirty);
    cw__u32s_free(&world->moved);
    cw__free(world->candidates.items, world->candidates.capacity * sizeof(uint32_t));
    cw__touching_free(&world->touching[0]);
    cw__touching_free(&world->touching[1]);
    cw__u32s_free(&world->ends);
    cw__u32s_free(&world->begins);
    cw__u32s_free(&world->manifold_todo);
    cw__free(world->begin_info, world->begin_info_capacity * sizeof *world->begin_info);
    cw__u32s_free(&world->swept);
    cw__passed_free(&world->passed);
    cw__index_free(&world->index);
    cw__events_free(&world->events);
    cw__free(world, sizeof *world);
}

// Everything cw_world_destroy gives back, in bytes. Reads only what changes between steps on this
// thread or atomically (the event arrays grow on whichever thread gathers them).
static size_t world_bytes(const cw_world *world)
{
    size_t bytes = sizeof *world + cw__pool_bytes(world->pool) + cw__grid_bytes(&world->grid) + cw__body_bytes(world) +
                   world->outcome_capacity + (size_t)world->candidates.capacity * sizeof(uint32_t) +
                   cw__touching_bytes(&world->touching[0]) + cw__touching_bytes(&world->touching[1]) +
                   (size_t)world->begin_info_capacity * sizeof *world->begin_info + cw__passed_bytes(&world->passed) +
                   cw__index_bytes(world) + atomic_load(&world->events.bytes);
    const cw__u32s *lists[] = {&world->dirty, &world->moved, &world->ends, &world->begins, &world->swept,
                               &world->manifold_todo};
    for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++)
        bytes += (size_t)lists[k]->capacity * sizeof(uint32_t);
    if (world->scan_lists != NULL) {
        bytes += world->scan_parts * sizeof *world->scan_lists + (world->scan_parts + 1) * sizeof *world->scan_bounds;
        for (uint32_t k = 0; k < world->scan_parts; k++)
            bytes += (size_t)world->scan_lists[k].capacity * sizeof(uint32_t);
    }
    if (world->sort_counts != NULL)
        bytes += (size_t)world->sort_parts * CW__SORT_DIGITS * sizeof *world->sort_counts;
    return bytes;
}

cw_world_stats cw_world_get_stats(const cw_world *world)
{
    cw_world_stats stats;
    memset(&stats, 0, sizeof stats);
    if (world == NULL)
        return stats;
    stats = world->stats;
    stats.bodies = world->bodies; // counts are as of now, the rest as of the last step
    stats.static_bodies = world->static_bodies;
    stats.disabled_bodies = world->disabled_bodies;
    stats.bytes = world_bytes(world);
    return stats;
}

static double now_ms(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

// --- broadphase ---

// The moved bodies come in the order they were moved, which in a world whose bodies were made and
// destroyed over time is anywhere in memory. When most bodies moved, out of order, they are taken
// in index order instead (in_index_order: one pass over the hot records), so that every pass walks
// the records in memory order: 100k boxes moved in random order, the step 31.7 -> 28.6 ms, as in
// index order (27.5). When fewer moved, out of order, each one's records (hot record, slot, grid
// proxy, retest step) are asked for MOVED_AHEAD bodies ahead in a large world (the broadphase of
// 100k boxes moved in random order 19.8 -> 16.7 ms before the index order took that case); a list
// in index order, or a small world's records, need no asking.
#define MOVED_AHEAD 32
#define PREFETCHED_MOVED 16384

static CW__ALWAYS_INLINE void prefetch_moved(const cw_world *world, uint32_t index)
{
    cw__prefetch_lines(&world->hot[index], sizeof(cw__hot));
    cw__prefetch_lines(&world->slots[index], sizeof(cw__slot));
    cw__prefetch(&world->retest_step[index]);
    const cw__proxy *proxy = cw__grid_proxy_at(&world->grid, index);
    if (proxy != NULL)
        cw__prefetch_lines(proxy, sizeof *proxy);
}

// Whether the list is in index order already (moved in a loop over the bodies as made): a pass
// over the list, cheaper than in_index_order()'s over every body's flags.
static bool ascending(const uint32_t *items, uint32_t count)
{
    for (uint32_t i = 1; i < count; i++)
        if (items[i] < items[i - 1])
            return false;
    return true;
}

// The dirty bodies in index order, written over `items`: the live bodies the step's dirty list
// names, once each (a body is listed once, a destroyed one is no longer dirty), so no more than
// the list held. Which order the step takes them in changes no event: those are sorted.
static uint32_t in_index_order(const cw_world *world, uint32_t *items)
{
    uint32_t count = 0;
    for (uint32_t index = 1; index < world->slot_count; index++)
        if (world->hot[index].state == CW__ALIVE && world->hot[index].dirty)
            items[count++] = index;
    return count;
}

// Takes the dirty list for this step and files the changed bodies' new AABBs in the grid (swept
// bodies are filed afterwards, under their motion's box: cw__file_swept). Also measures how far the
// unswept bodies moved, which widens the swept bodies' boxes.
static void update_moved(cw_world *world)
{
    world->sweep_margin_x = world->sweep_margin_y = 0;
    cw__u32s taken = world->dirty;
    world->dirty = world->moved;
    world->dirty.count = 0;
    world->moved = taken;
    world->moved.count = 0;
    const bool large = world->slot_count >= PREFETCHED_MOVED, most = taken.count > world->slot_count / 2;
    bool ordered = (most || large) && ascending(taken.items, taken.count);
    if (most && !ordered) {
        taken.count = in_index_order(world, taken.items);
        ordered = true;
    }
    const bool far = large && !ordered; // an ordered list's records come in memory order anyway
    for (uint32_t i = 0; i < taken.count; i++) {
        uint32_t index = taken.items[i];
        if (far && i + MOVED_AHEAD < taken.count)
            prefetch_moved(world, taken.items[i + MOVED_AHEAD]);
        cw__slot *slot = &world->slots[index];
        if (world->hot[index].state != CW__ALIVE || !world->hot[index].dirty)
            continue; // destroyed since it was listed
        world->hot[index].dirty = false;
        if (world->hot[index].disabled) { // out of the grid; if it still touches, its pairs end
            cw__grid_remove(&world->grid, index);
            world->extent_sum -= slot->extent;
            slot->extent = 0;
            if (cw__body_has_pairs(world, index)) {
                world->moved.items[world->moved.count++] = index;
                world->retest_step[index] = world->step;
            }
            continue;
        }
        cw__box box = slot->next_aabb;
        float width = box.max_x - box.min_x, height = box.max_y - box.min_y;
        float extent = width > height ? width : height; // fmaxf is a libm call under strict IEEE rules
        bool swept = world->hot[index].is_swept;
        if (!swept) {
            double dx, dy;
            cw__motion(slot, &dx, &dy);
            world->sweep_margin_x = cw__max(world->sweep_margin_x, fabs(dx)); // finite: no libm fmax
            world->sweep_margin_y = cw__max(world->sweep_margin_y, fabs(dy));
        }
        if (!swept && !cw__grid_update(&world->grid, index, &box, world->hot[index].is_static)) {
            cw__world_mark_dirty(world, index); // out of memory: it keeps its old place and the
            world->step_failed = true;          // step is redone, so no pair is judged on it
            continue;
        }
        world->extent_sum += (double)extent - slot->extent;
        slot->extent = extent;
        world->moved.items[world->moved.count++] = index; // in place: never ahead of i
        world->retest_step[index] = world->step;
    }
}

static void adapt_cell_size(cw_world *world)
{
    if (!world->auto_cell || world->bodies == 0)
        return;
    double target = AUTO_CELL_FACTOR * world->extent_sum / world->bodies;
    if (!(target >= CW_MIN_CELL_SIZE && target <= MAX_AUTO_CELL))
        return;
    double ratio = target / world->grid.cell_size;
    if (ratio > 2 || ratio < 0.5 || !world->cell_chosen) {
        const char *error_before = cw_last_error();
        if (cw__grid_set_cell_size(&world->grid, (float)target))
            world->cell_chosen = true;
        else
            cw__fail(error_before); // out of memory: the old size stays, and the step goes on
    }
}

// --- narrowphase ---

// Box2D's rule: the same nonzero group decides (negative: never, positive: always), else categories.
static bool filters_match(const cw__hot *a, const cw__hot *b)
{
    if (a->group == b->group && a->group != 0)
        return a->group > 0;
    return (a->category & b->collides_with) && (b->category & a->collides_with);
}

// Appends a pair to `found` if it touches, over the candidates: the k-th pair found is at most the
// k-th candidate, whose indices were read before (and nothing reads the earlier ones again). So the
// key may be written either way and kept by the count alone: whether a candidate touches is as
// random as the bodies, and a branch on it was mispredicted for a third of them.
static void push_found(cw_world *world, uint64_t key, bool touching)
{
    world->found[world->found_count] = key;
    world->found_count += touching;
}

static bool bodies_overlap(const cw_world *world, uint32_t a, uint32_t b)
{
    const cw__hot *ha = &world->hot[a], *hb = &world->hot[b];
    if (ha->is_box && hb->is_box) {
        const cw__obb oa = cw__unpack_obb(&ha->obb), ob = cw__unpack_obb(&hb->obb);
        return cw__obbs_overlap(&oa, &ob);
    }
    cw__body scratch_a, scratch_b;
    return cw__overlap_bodies(cw__slot_body(world, a, &scratch_a), cw__slot_body(world, b, &scratch_b), NULL);
}

// What the test of a candidate pair found. Reads the world only, so any worker may run it.
enum { FILTERED = 0, APART = 1, TOUCHING = 2, PASSED = 3 };
static CW__ALWAYS_INLINE uint8_t candidate_outcome(const cw_world *world, uint32_t a, uint32_t b)
{
    if (!filters_match(&world->hot[a], &world->hot[b]))
        return FILTERED;
    if (world->hot[a].is_swept | world->hot[b].is_swept) { // judged over the motion (swept.c)
        double dx, dy;
        cw__pair_motion(world, a, b, &dx, &dy);
        if (dx != 0 || dy != 0) {
            int outcome = cw__swept_outcome(world, a, b);
            return outcome == CW__TOUCHING_NOW ? TOUCHING : outcome == CW__PASSED ? PASSED : APART;
        }
        // Still: the candidate's box was a swept one, wider than where the bodies are, so the AABBs
        // gate the test where rounding matters, as in cw_overlap() (swept.c).
        cw__body scratch_a, scratch_b;
        if (!cw__bodies_may_meet(cw__slot_body(world, a, &scratch_a), cw__slot_body(world, b, &scratch_b)))
            return APART;
    }
    return bodies_overlap(world, a, b) ? TOUCHING : APART;
}

// Files a candidate's outcome, in candidate order; false (the step fails) if memory runs out.
static bool file_outcome(cw_world *world, uint8_t outcome, uint32_t a, uint32_t b)
{
    world->stats.narrow_tests += outcome != FILTERED;
    push_found(world, cw__pair_key(a, b), outcome == TOUCHING);
    if (outcome == PASSED && !cw__passed_push(&world->passed, cw__pair_key(a, b))) {
        world->step_failed = true;
        return false;
    }
    return true;
}

// The pair loop reads two bodies' hot records per candidate, scattered over the whole array, and a
// mask's kept form (its frame), which its hot record says where to find: asked for ahead, most of
// the memory latency is hidden in large worlds. Boxes need only their hot records, asked for
// 2 * PREFETCH_AHEAD candidates ahead. Where masks may be, in two stages, the second reading only
// what the first brought in: the hot records, then a mask's kept form (checking which bodies are
// masks cost 100k boxes 6-20% of their pair loop, so only such a world does).
#define PREFETCH_AHEAD 8

// Whether some slot has held a mask body (entry 0 is none).
static inline bool has_held_masks(const cw_world *world) { return world->mask_body_count > 1; }

static CW__ALWAYS_INLINE void prefetch_hot(const cw_world *world, uint32_t index)
{
    cw__prefetch_lines(&world->hot[index], sizeof(cw__hot));
}

// The fields a mask test reads: those before the transform's scale and pivot.
static CW__ALWAYS_INLINE void prefetch_mask_body(const cw_world *world, uint32_t index)
{
    const cw__hot *hot = &world->hot[index];
    if (!hot->is_box) {
        const char *body = (const char *)cw__mask_body(world, hot->mask_body);
        const size_t read = offsetof(cw__body, scale_x); // 108 bytes: two or three lines
        cw__prefetch_lines(body, read); // the first and the last
        cw__prefetch(body + 64);        // and the one between
    }
}

static CW__ALWAYS_INLINE void prefetch_pair(const cw_world *world, uint32_t pair, uint32_t pair_count, bool masks)
{
    const uint32_t *pairs = world->candidates.items;
    if (pair + 2 * PREFETCH_AHEAD < pair_count) {
        prefetch_hot(world, pairs[2 * (pair + 2 * PREFETCH_AHEAD)]);
        prefetch_hot(world, pairs[2 * (pair + 2 * PREFETCH_AHEAD) + 1]);
    }
    if (masks && pair + PREFETCH_AHEAD < pair_count) {
        prefetch_mask_body(world, pairs[2 * (pair + PREFETCH_AHEAD)]);
        prefetch_mask_body(world, pairs[2 * (pair + PREFETCH_AHEAD) + 1]);
    }
}

// A worker's share of the candidates: each outcome goes to its own byte, so neither which worker
// runs a range nor when changes anything.
static void test_range(int start, int end, int worker, void *context)
{
    (void)worker;
    const cw_world *world = context;
    const uint32_t *pairs = world->candidates.items, pair_count = world->candidates.count / 2;
    const bool masks = has_held_masks(world);
    for (uint32_t i = (uint32_t)start; i < (uint32_t)end; i++) {
        prefetch_pair(world, i, pair_count, masks);
        world->outcomes[i] = candidate_outcome(world, pairs[2 * i], pairs[2 * i + 1]);
    }
}

// Below this many candidates a step tests them on its own thread: handing out work (waking the
// workers, filing the outcomes afterwards) costs more than it saves. Box pairs are ~30 ns each, so a
// world of boxes alone needs many more of them than one with masks (measured by bench_threads:
// 10k boxes, 6k candidates, were 14% slower on two workers).
#define PARALLEL_PAIRS 256
#define PARALLEL_BOX_PAIRS 65536
#define MIN_RANGE 64

// Tests the candidates: on the workers (then filed in candidate order), or here as they are found.
static bool test_all(cw_world *world)
{
    const uint32_t *pairs = world->candidates.items, pair_count = world->candidates.count / 2;
    const bool masks = has_held_masks(world);
    if (world->workers > 1 && pair_count >= (masks ? PARALLEL_PAIRS : PARALLEL_BOX_PAIRS)) {
        void *outcomes = world->outcomes;
        if (!cw__reserve(&outcomes, 1, &world->outcome_capacity, pair_count)) {
            world->step_failed = true;
            return false;
        }
        world->outcomes = outcomes;
        cw__parallel_for(world, test_range, (int)pair_count, MIN_RANGE, world);
        for (uint32_t i = 0; i < pair_count; i++)
            if (!file_outcome(world, world->outcomes[i], pairs[2 * i], pairs[2 * i + 1]))
                return false;
        return true;
    }
    for (uint32_t i = 0; i < pair_count; i++) {
        prefetch_pair(world, i, pair_count, masks);
        if (!file_outcome(world, candidate_outcome(world, pairs[2 * i], pairs[2 * i + 1]), pairs[2 * i], pairs[2 * i + 1]))
            return false;
    }
    return true;
}

// Tests the candidates whose filters match; the touching ones go to `found`, sorted.
static void test_candidates(cw_world *world)
{
    world->found = (uint64_t *)(void *)world->candidates.items; // aligned: the allocator's block
    world->found_count = 0;
    world->passed.count = 0;
    if (!test_all(world))
        return;
    uint32_t sorted = world->found_count > world->passed.count ? world->found_count : world->passed.count;
    if (!cw__reserve_next_set(world, sorted)) { // the sorts' scratch
        world->step_failed = true;
        return;
    }
    cw__finish_passed(world);
    cw__sort_pair_keys(world, world->found, cw__sort_scratch(world), world->found_count, world->slot_count);
}

// Out of memory somewhere in the step: the previous touching set stands, and every body that moved
// is tested again by the next step, so no event is lost, only delayed.
static void redo_next_step(cw_world *world)
{
    if (world->candidates.over_limit)
        cw__failf("The step needs more than %d candidate pairs (cw_world_def::max_pairs): bodies are piled up; "
                  "nothing changed, and the next step tries again.",
                  world->def.max_pairs);
    else
        cw__fail("Out of memory: the step could not finish; the next step redoes it.");
    for (uint32_t i = 0; i < world->moved.count; i++)
        cw__world_mark_dirty(world, world->moved.items[i]);
}

// The slots of bodies destroyed before this step's diff have had their ends: they become free.
// Bodies destroyed by this step's callbacks wait for the next step.
static void free_dying(cw_world *world, uint32_t ended)
{
    cw__dying *dying = &world->dying;
    for (uint32_t k = 0; k < ended; k++) {
        uint32_t index = dying->head;
        dying->head = world->slots[index].next_dying;
        world->hot[index].state = CW__FREE;
        world->slots[index].next_free = world->free_slot;
        world->free_slot = index;
    }
    dying->count -= ended;
    if (dying->count == 0)
        dying->head = dying->tail = 0;
}

static void finish_stats(cw_world *world, double t0, double t1, double t2, double t3)
{
    cw_world_stats *stats = &world->stats;
    stats->bodies = world->bodies;
    stats->static_bodies = world->static_bodies;
    stats->disabled_bodies = world->disabled_bodies;
    stats->moved_bodies = (int)world->moved.count;
    stats->large_bodies = cw__grid_large_count(&world->grid);
    stats->touching_pairs = (int)world->touching[world->current].count;
    stats->cell_size = world->grid.cell_size;
    stats->workers = world->workers;
    world->failed_steps = world->step_failed ? world->failed_steps + 1 : 0;
    stats->failed_steps = world->failed_steps;
    stats->broad_ms = t1 - t0;
    stats->narrow_ms = t2 - t1;
    stats->events_ms = t3 - t2;
}

// The step is done: the bodies that moved start their next motion where they are now (before the
// callbacks, which may move them again for the next step).
static void start_next_motion(cw_world *world)
{
    const bool far = world->slot_count >= PREFETCHED_MOVED && !ascending(world->moved.items, world->moved.count);
    for (uint32_t i = 0; i < world->moved.count; i++) {
        if (far && i + MOVED_AHEAD < world->moved.count)
            cw__prefetch_lines(&world->slots[world->moved.items[i + MOVED_AHEAD]], sizeof(cw__slot));
        cw__slot *slot = &world->slots[world->moved.items[i]];
        slot->from = slot->transform.position; // a fresh body's first step is over
    }
}

void cw__test_near_wrap(cw_world *world, uint32_t left)
{
    world->grid.stamp = UINT32_MAX - left;
    for (uint32_t i = 0; i < world->grid.proxy_capacity; i++) // marks from before stay in the past
        world->grid.proxies[i].moved_stamp = world->grid.proxies[i].moved_stamp ? 1 : 0;
    world->step = CW__DIED - 1 - left;
    for (uint32_t i = 0; i < world->slot_count; i++) {
        if (world->retest_step[i] != CW__DIED)
            world->retest_step[i] = world->retest_step[i] ? world->step - 1 : 0;
        world->slots[i].user_saved_step = 0;
    }
    for (int k = 0; k < CW_QUERY_LANES; k++)
        world->lane_mark[k] = (uint16_t)(UINT16_MAX - left);
    for (uint32_t i = 1; i < world->slot_count; i++) // free slots: their reuse count near its wrap
        if (world->hot[i].state == CW__FREE)
            world->slots[i].generation = (world->slots[i].generation & 0xff000000u) | (0xffffffu - left);
}

static void restart_step_count(cw_world *world)
{
    for (uint32_t i = 0; i < world->slot_count; i++) {
        if (world->retest_step[i] != CW__DIED)
            world->retest_step[i] = 0;
        world->slots[i].user_saved_step = 0;
    }
    world->step = 0;
}

static void run_step(cw_world *world)
{
    memset(&world->stats, 0, sizeof world->stats);
    cw__events_start_step(&world->events);
    world->step_failed = false;
    world->candidates.over_limit = false; // a step that fails before its scan runs out of memory
    double t0 = now_ms();
    if (world->step == CW__DIED - 1) // after four billion steps: start counting again
        restart_step_count(world);
    world->step++;
    cw__grid_begin_step(&world->grid);
    update_moved(world);
    if (!world->step_failed && !cw__file_swept(world))
        world->step_failed = true;
    adapt_cell_size(world);
    if (!world->step_failed)
        world->step_failed = !find_candidates(world);
    world->stats.candidate_pairs = world->step_failed ? 0 : (int)(world->candidates.count / 2);
    double t1 = now_ms();
    if (!world->step_failed)
        test_candidates(world);
    double t2 = now_ms();
    if (world->step_failed || !cw__diff_pairs(world) || !cw__events_reserve(world) ||
        (cw__index_kept(&world->index) && !cw__index_reserve(&world->index, world->touching[!world->current].count + 1))) {
        world->step_failed = true; // counted in failed_steps however far it got
        redo_next_step(world);
        finish_stats(world, t0, t1, t2, now_ms());
        return;
    }
    cw__index_apply(world);
    world->current = !world->current;
    start_next_motion(world);
    uint32_t ended = world->dying.count;
    cw__deliver(world);
    free_dying(world, ended);
    finish_stats(world, t0, t1, t2, now_ms());
}

void cw_world_step(cw_world *world)
{
    if (world == NULL) {
        cw__fail("The world is NULL.");
        return;
    }
    const char *busy = busy_reason(world, 0);
    if (busy != NULL || atomic_exchange(&world->stepping, true)) {
        cw__fail(busy != NULL ? busy : "cw_world_step cannot run while another thread is stepping the world.");
        return;
    }
    stepping_here = world;
    run_step(world);
    stepping_here = NULL;
    atomic_store(&world->stepping, false);
}
