// The broadphase: a uniform grid over proxies (an index and an AABB), hashed by cell coordinates so
// any finite coordinates work without declaring world bounds. It knows proxies and pairs only:
// nothing about shapes, bodies or the world. Not part of the public API.
//
// A proxy is filed in every cell its AABB covers, unless it covers many cells: then it goes to the
// large list instead, which is tested against everything that moved. Candidate pairs are produced
// only for proxies that moved this step, each pair exactly once with no dedup table: a pair is
// reported by the cell that holds the min corner of the two AABBs' intersection, and a pair of two
// moved proxies only from the lower index.
#ifndef CW_BROAD_GRID_H
#define CW_BROAD_GRID_H

#include "../narrow/fp.h"
#include <stdbool.h>
#include <stdint.h>

#include "../narrow/alloc.h"

// A proxy's AABB, in world units.
typedef struct cw__box {
    float min_x, min_y, max_x, max_y;
} cw__box;

// Whether two boxes meet, touching included. Candidates (and the queries' cheap filters) use it:
// far from the origin (or with an overflowing transform) a shape's float AABB can have no extent
// while the exact test, done in double relative to one shape, still finds an overlap.
static inline bool cw__boxes_meet(const cw__box *a, const cw__box *b)
{
    return a->min_x <= b->max_x && b->min_x <= a->max_x && a->min_y <= b->max_y && b->min_y <= a->max_y;
}

// Candidate pairs as they are found (AABBs overlap with positive area; not both static): two
// proxy indices each, the lower first. Owned by the caller, grown by the grid.
typedef struct cw__pair_list {
    uint32_t *items;
    uint32_t count, capacity; // in indices
    bool failed;              // memory ran out (or a fixed list was full): some pairs are missing
    bool fixed;               // never grows (filled on a worker thread, which must not allocate)
    uint32_t limit;           // at most this many indices (0: no limit); more fails the list
    bool over_limit;          // it failed because of the limit
} cw__pair_list;

// Appends a pair; on failure marks the list failed (the callers stop looking once it is).
static inline void cw__pair_list_add(cw__pair_list *list, uint32_t a, uint32_t b)
{
    if (list->limit != 0 && list->limit - list->count < 2) {
        list->failed = list->over_limit = true;
        return;
    }
    if (list->capacity - list->count < 2) {
        void *items = list->items;
        if (list->fixed || !cw__reserve(&items, sizeof(uint32_t), &list->capacity, list->count + 2)) {
            list->failed = true;
            return;
        }
        list->items = items;
    }
    list->items[list->count++] = a;
    list->items[list->count++] = b;
}

typedef struct cw__proxy {
    cw__box box;
    int32_t cx0, cy0, cx1, cy1; // covered cells, inclusive; meaningful when filed in cells
    uint32_t moved_stamp;       // == grid stamp: moved in the current step
    bool live, is_static, large;
} cw__proxy;

typedef struct cw__cell {
    int64_t key;   // packed cell coordinates; CW__CELL_EMPTY for a free slot
    int32_t head;  // first node of the cell's proxy list, -1 if none
    int32_t count;
} cw__cell;

// Runs fn(arg, part) for every part in [0, parts), each once, on whatever threads the caller has
// (broad/ knows no threads), and returns when all are done. Parts touch disjoint memory.
typedef void cw__part_fn(void *arg, uint32_t part);
typedef struct cw__part_runner {
    void (*run)(void *self, cw__part_fn *fn, void *arg, uint32_t parts);
    void *self;
    uint32_t parts;       // 0 or 1: the calling thread alone
    uint32_t min_entries; // a sort of fewer cell entries runs on the calling thread alone
} cw__part_runner;

typedef struct cw__grid {
    float cell_size, inv_cell_size;
    uint32_t stamp;
    cw__proxy *proxies;
    uint32_t proxy_capacity;
    cw__cell *cells; // open addressing, linear probing; capacity a power of two
    uint32_t cell_capacity, cell_count;
    struct cw__node { int32_t proxy, next; } *nodes; // cell membership lists, pooled, with a free list
    uint32_t node_capacity;
    int32_t free_node;
    uint32_t *large;                 // indices of the large proxies
    uint32_t large_count, large_capacity;
    uint32_t small_count;            // live proxies that are not large
    bool cells_stale;                // the cell table is out of date (see pairs_by_scan)
    bool cells_used;                 // a step has used the cell table since it was last built
    uint32_t scan_streak;            // sorting scans in a row (see release_cells, grid_sort.c)
    struct cw__member *crowd;        // scratch for cells more crowded than the stack buffer
    uint32_t crowd_capacity;
    uint32_t *cell_start;            // scratch of the sorting scan: where each dense cell's members start
    uint32_t cell_start_capacity;
    struct cw__member *sorted;       // scratch of the sorting scan: member records, cell by cell
    uint32_t sorted_capacity;
    int32_t sorted_x0, sorted_y0;    // the last sorting scan's cells: its first cell and its size
    uint32_t sorted_width, sorted_height;
    cw__part_runner sort_runner;     // shares the sorting scan's counting sort (set by the owner)
    uint32_t *part_counts;           // scratch of a shared sort: every part's counts but the last's
    uint32_t part_counts_capacity;
} cw__grid;

// Initialises an empty grid; the cell size must be finite and > 0. Allocation-free.
void cw__grid_init(cw__grid *grid, float cell_size);

// Frees everything the grid allocated.
void cw__grid_free(cw__grid *grid);
// Bytes the grid holds from the allocator (what cw__grid_free gives back).
size_t cw__grid_bytes(const cw__grid *grid);

// Starts a step: proxies updated from now on count as moved in it.
void cw__grid_begin_step(cw__grid *grid);

// Inserts proxy `index` or moves it to `box`, and marks it moved. Re-files it only if its cells
// changed. Returns false (grid unchanged for that proxy) if memory runs out.
bool cw__grid_update(cw__grid *grid, uint32_t index, const cw__box *box, bool is_static);
// Room for proxy indices below `proxies`, exactly. False (grid unchanged) if memory runs out.
bool cw__grid_reserve(cw__grid *grid, uint32_t proxies);

// Removes a proxy (no-op if absent).
void cw__grid_remove(cw__grid *grid, uint32_t index);

// The candidate pairs: every pair with at least one of the `moved` proxies (those updated since
// cw__grid_begin_step), each exactly once, in three parts so that the middle one can be shared
// among threads. cw__grid_pairs_begin() empties `out` and, when most proxies moved and the cells are dense, files
// every proxy by cell and returns in *cells how many cells are left to scan (else it lists what it
// must itself and *cells is 0); cw__grid_scan_cells() appends the pairs of cells [first, end) (it
// only reads the grid: ranges may be scanned on several threads at once, each into its own list);
// cw__grid_pairs_end() appends the pairs the scan does not find (large proxies, and every moved
// proxy's when there was no scan). The pairs of the ranges in cell order, then the end's, are the
// list one thread would make. Begin and end return false if memory ran out (or the list's limit
// was reached): then some pairs are missing.
bool cw__grid_pairs_begin(cw__grid *grid, uint32_t moved_count, cw__pair_list *out, uint32_t *cells);
void cw__grid_scan_cells(const cw__grid *grid, uint32_t first, uint32_t end, cw__pair_list *out);
bool cw__grid_pairs_end(cw__grid *grid, const uint32_t *moved, uint32_t moved_count, cw__pair_list *out);
// The cell where the k-th of `parts` shares of a scan's members starts (by member count; `cells`
// for k >= parts).
uint32_t cw__grid_scan_split(const cw__grid *grid, uint32_t cells, uint32_t k, uint32_t parts);
// The members (proxy entries) in the first `cells` cells of the scan begun.
static inline uint32_t cw__grid_scan_members(const cw__grid *grid, uint32_t cells)
{
    return cells ? grid->cell_start[cells] : 0;
}

// The cell coordinate of `x`, clamped so that any float (NaN included) maps to a cell.
int32_t cw__grid_cell_coord(const cw__grid *grid, float x);

// Query visitors get each candidate proxy (possibly more than once: proxies span cells) and return
// false to stop.
typedef bool cw__visit_fn(void *context, uint32_t index);

// Visits the members of cell (cx, cy): the cell table's, or while it is stale the last sorting
// scan's. False if the visitor stopped. Never allocates.
bool cw__grid_visit_cell(const cw__grid *grid, int32_t cx, int32_t cy, cw__visit_fn *fn, void *context);

// The cells that hold members (the cell table's, or while it is stale the last sorting scan's),
// given to fn(context, cx, cy) in the grid's own order (deterministic: no addresses). Never
// allocates. cw__grid_occupied_walk() is how many cells the walk reads, to compare with walking an
// area cell by cell.
typedef void cw__cell_fn(void *context, int32_t cx, int32_t cy);
void cw__grid_visit_occupied(const cw__grid *grid, cw__cell_fn *fn, void *context);
uint64_t cw__grid_occupied_walk(const cw__grid *grid);

// Visits the proxies filed in the cells `box` covers, and the large ones (while the cell table is
// stale, in the cells of the last sorting scan: proxies moved since are the caller's to handle).
// Never allocates.
void cw__grid_query_box(const cw__grid *grid, const cw__box *box, cw__visit_fn *fn, void *context);

// Visits the large proxies, then those in the cells along the segment origin + t * (dx, dy) in the
// order it enters them, while the entry fraction is below *limit (which the visitor may lower) and
// at most 1. Never allocates.
void cw__grid_query_ray(const cw__grid *grid, double ox, double oy, double dx, double dy, const double *limit,
                        cw__visit_fn *fn, void *context);

// Changes the cell size and re-files every proxy. Returns false if memory runs out or the size is
// not finite and positive with a nonzero inverse, and then the grid is as it was.
bool cw__grid_set_cell_size(cw__grid *grid, float cell_size);

// Number of proxies in the large list.
static inline int cw__grid_large_count(const cw__grid *grid) { return (int)grid->large_count; }

// The proxy of `index` (for its owner to ask for its memory ahead), or NULL if there is none yet.
static inline const cw__proxy *cw__grid_proxy_at(const cw__grid *grid, uint32_t index)
{
    return index < grid->proxy_capacity ? &grid->proxies[index] : NULL;
}

#endif
