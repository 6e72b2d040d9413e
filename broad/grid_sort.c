// The grid's sorting scan (see grid_sort.h): when most proxies moved, every filed proxy's member
// records are counting-sorted into a flat array by cell (in parts on the owner's threads, through
// grid->sort_runner, when there are many), which cw__grid_scan_cells() then reads cell by cell (on
// one thread or several) and queries read while the cell table is stale.
#include "grid_sort.h"
#include "cell_pairs.h"

#include "../narrow/alloc.h"

#include <string.h>

// The cell range covered by the filed proxies, and how many cell entries they make.
typedef struct cell_extent {
    int32_t x0, y0, x1, y1;
    uint64_t entries;
} cell_extent;

static cell_extent filed_extent(const cw__grid *grid)
{
    cell_extent e = {INT32_MAX, INT32_MAX, INT32_MIN, INT32_MIN, 0};
    for (uint32_t i = 0; i < grid->proxy_capacity; i++) {
        const cw__proxy *p = &grid->proxies[i];
        if (!p->live || p->large)
            continue;
        e.x0 = p->cx0 < e.x0 ? p->cx0 : e.x0, e.y0 = p->cy0 < e.y0 ? p->cy0 : e.y0;
        e.x1 = p->cx1 > e.x1 ? p->cx1 : e.x1, e.y1 = p->cy1 > e.y1 ? p->cy1 : e.y1;
        e.entries += (uint64_t)((int64_t)p->cx1 - p->cx0 + 1) * (uint64_t)((int64_t)p->cy1 - p->cy0 + 1);
    }
    return e;
}

// The count of a filed proxy's first cell in the sorting scan (see sort_into_cells).
static inline uint32_t *first_count(uint32_t *start, const cell_extent *e, uint32_t width, const cw__proxy *p)
{
    return start + (uint32_t)(p->cy0 - e->y0) * width + 1 + (uint32_t)(p->cx0 - e->x0);
}

// Proxies are numbered as their bodies, which lie anywhere, so each one's counts and member records
// land anywhere in arrays that outgrow the caches from some 30k bodies on. Asked for ahead, their
// misses overlap: the counts SCAN_AHEAD proxies ahead, and while placing, the record a proxy's
// first member goes to SCAN_AHEAD / 2 ahead (its count, asked for earlier, is in the cache by then).
// Only where the arrays outgrow SCAN_CACHED bytes (a core's L2 here): below that the prefetches are
// pure cost (10k boxes 3% slower with them, 1M 18% faster). The prefetches are written in the
// loops: GCC judges a function that only prefetches to have no effect and drops its calls.
#define SCAN_AHEAD 64
#define SCAN_CACHED (1u << 20)
#if defined(__GNUC__)
#define PREFETCH_FOR_WRITE(address) __builtin_prefetch((address), 1)
#else
#define PREFETCH_FOR_WRITE(address) ((void)(address))
#endif

// The first count of proxy i where it is filed in cells (NULL past the last proxy, or for one not
// filed): what the scan asks for ahead.
static inline uint32_t *count_ahead(const cw__grid *grid, uint32_t i, uint32_t *start, const cell_extent *e, uint32_t width)
{
    if (i >= grid->proxy_capacity || !grid->proxies[i].live || grid->proxies[i].large)
        return NULL;
    return first_count(start, e, width, &grid->proxies[i]);
}

// Most proxies lie in one, two or four cells (the cell is sized to hold the typical body), and which
// is a coin toss for a branch predictor: the loops over a proxy's rows and columns mispredicted about
// once a proxy in each pass. A proxy at most SMALL_SPAN cells a side is written to all four cells of
// its 2 x 2 block without loops or branches: a cell it does not reach counts zero more, and its
// member record goes to a spare past the last, so the counts keep a row more than the cells and
// the records one more than the entries for each part of the sort (1k-10k boxes: the whole frame
// 7% faster).
#define SMALL_SPAN 2

// Places a proxy of at most 2 x 2 cells (`right`, `below`: 1 where it reaches the next column, row)
// from its first cell's place `row`, as the general loop would.
static inline void place_small(member *sorted, uint32_t *row, uint32_t width, member m, uint32_t right,
                               uint32_t below, uint32_t spare)
{
    uint32_t *next[3] = {row + 1, row + width, row + width + 1};
    const uint32_t reaches[3] = {right, below, right & below};
    const uint32_t flags[3] = {m.flags & ~(uint32_t)STARTS_COLUMN, m.flags & ~(uint32_t)STARTS_ROW,
                               m.flags & ~(uint32_t)(STARTS_COLUMN | STARTS_ROW)};
    sorted[row[0]++] = m;
    for (int k = 0; k < 3; k++) {
        uint32_t at = reaches[k] ? *next[k] : spare;
        m.flags = flags[k];
        sorted[at] = m;
        *next[k] += reaches[k];
    }
}

// A counting sort on the dense cell number files every proxy's member record in a flat array, cell
// by cell: it reads the proxies in order and each cell's members contiguously, with no lists to
// chase. It runs in `parts` parts by proxy index range, each counting into counts of its own; a
// cell's members of one part then go after those of the parts before it, so the array is in proxy
// order within each cell, the same bytes however many parts. Cell k counts at counts[k + 1]; the
// sums over cells and parts turn that into where part p's members of k start, and placing them
// leaves it where they end: the last part's counts (cell_start) then say where each cell starts
// and ends, k's members being [start[k], start[k + 1]).
typedef struct sort_job {
    cw__grid *grid;
    cell_extent e;
    uint32_t width, cells, parts;
    size_t stride; // counts a part: the cells, the row a small proxy counts past, and the slot before
    bool ahead;    // the arrays outgrow the cache: ask for counts and records ahead
} sort_job;

static uint32_t *counts_of(const sort_job *job, uint32_t part)
{
    return part + 1 == job->parts ? job->grid->cell_start : job->grid->part_counts + part * job->stride;
}

static void sort_part_range(const sort_job *job, uint32_t part, uint32_t *first, uint32_t *end)
{
    uint64_t n = job->grid->proxy_capacity;
    *first = (uint32_t)(n * part / job->parts), *end = (uint32_t)(n * (part + 1) / job->parts);
}

// count_ahead() for proxy i of a part that ends before `end`, where the sort asks ahead at all.
static inline uint32_t *part_ahead(const sort_job *job, uint32_t *start, uint32_t i, uint32_t end)
{
    return job->ahead && i < end ? count_ahead(job->grid, i, start, &job->e, job->width) : NULL;
}

// The proxy's cells are read into locals first: the counts are uint32_t, which may alias its int32_t
// fields, so the compiler would load them again after every count.
static void count_part(void *arg, uint32_t part)
{
    const sort_job *job = arg;
    const cw__grid *grid = job->grid;
    const uint32_t width = job->width;
    uint32_t *start = counts_of(job, part), first, end;
    sort_part_range(job, part, &first, &end);
    memset(start, 0, job->stride * sizeof *start);
    for (uint32_t i = first; i < end; i++) {
        uint32_t *later = part_ahead(job, start, i + SCAN_AHEAD, end);
        if (later)
            PREFETCH_FOR_WRITE(later);
        const cw__proxy *p = &grid->proxies[i];
        if (!p->live || p->large)
            continue;
        uint32_t columns = (uint32_t)(p->cx1 - p->cx0) + 1, rows = (uint32_t)(p->cy1 - p->cy0) + 1;
        uint32_t *row = first_count(start, &job->e, width, p);
        if (((columns - 1) | (rows - 1)) < SMALL_SPAN) { // the common proxy: see SMALL_SPAN
            uint32_t right = columns - 1, below = rows - 1;
            row[0]++, row[1] += right, row[width] += below, row[width + 1] += right & below;
            continue;
        }
        for (uint32_t y = 0; y < rows; y++, row += width)
            for (uint32_t k = 0; k < columns; k++)
                row[k]++;
    }
}

static void sum_counts(const sort_job *job)
{
    if (job->parts == 1) {
        uint32_t *start = job->grid->cell_start;
        for (uint32_t c = 1, sum = 0, n; c <= job->cells; c++)
            n = start[c], start[c] = sum, sum += n;
        return;
    }
    for (uint32_t c = 1, sum = 0; c <= job->cells; c++) {
        for (uint32_t part = 0; part < job->parts; part++) {
            uint32_t *count = &counts_of(job, part)[c], n = *count;
            *count = sum, sum += n;
        }
    }
}

// Each part's spare record (see SMALL_SPAN) is its own, past the last entry, and SPARE_SPACING
// records from the next part's: most proxies write theirs three times, and two workers writing
// records side by side fought over their cache line (two lines' worth between them, as CPUs fetch
// lines in pairs).
#define SPARE_SPACING (128 / sizeof(member) + 1)

static void place_part(void *arg, uint32_t part)
{
    const sort_job *job = arg;
    cw__grid *grid = job->grid;
    const uint32_t width = job->width, spare = (uint32_t)(job->e.entries + part * SPARE_SPACING);
    uint32_t *start = counts_of(job, part), first, end;
    sort_part_range(job, part, &first, &end);
    member *sorted = grid->sorted;
    for (uint32_t i = first; i < end; i++) {
        uint32_t *later = part_ahead(job, start, i + SCAN_AHEAD, end);
        uint32_t *sooner = part_ahead(job, start, i + SCAN_AHEAD / 2, end);
        if (later)
            PREFETCH_FOR_WRITE(later);
        if (sooner)
            PREFETCH_FOR_WRITE(&sorted[*sooner]);
        const cw__proxy *p = &grid->proxies[i];
        if (!p->live || p->large)
            continue;
        uint32_t columns = (uint32_t)(p->cx1 - p->cx0) + 1, rows = (uint32_t)(p->cy1 - p->cy0) + 1;
        uint32_t *row = first_count(start, &job->e, width, p);
        member m = cw__member_of(grid, i, p->cx0, p->cy0); // flags for the first cell, then adjusted
        if (((columns - 1) | (rows - 1)) < SMALL_SPAN) {
            place_small(sorted, row, width, m, columns - 1, rows - 1, spare);
            continue;
        }
        for (uint32_t y = 0; y < rows; y++, row += width) {
            for (uint32_t k = 0; k < columns; k++) {
                sorted[row[k]++] = m;
                m.flags &= ~(uint32_t)STARTS_COLUMN;
            }
            m.flags = (m.flags & ~(uint32_t)STARTS_ROW) | STARTS_COLUMN;
        }
    }
}

// Runs fn on every part: on the calling thread, or shared by the grid's runner.
static void run_parts(const cw__grid *grid, cw__part_fn *fn, sort_job *job)
{
    if (job->parts == 1) {
        fn(job, 0);
        return;
    }
    grid->sort_runner.run(grid->sort_runner.self, fn, job, job->parts);
}

static void sort_into_cells(sort_job *job)
{
    run_parts(job->grid, count_part, job);
    sum_counts(job);
    run_parts(job->grid, place_part, job);
}

// Room for the counts of every part of a shared sort but the last (which uses cell_start).
static bool parts_have_room(cw__grid *grid, uint32_t parts, size_t stride)
{
    uint64_t needed = (uint64_t)(parts - 1) * stride;
    void *counts = grid->part_counts;
    bool room = needed <= UINT32_MAX / 2 &&
                cw__reserve_near(&counts, sizeof(uint32_t), &grid->part_counts_capacity, (uint32_t)needed);
    grid->part_counts = counts;
    return room;
}

// Sorting scans in a row after which the cell table goes even if a step has used it since it was
// built: a world that alternates between scanning steps and steps where few bodies move keeps it.
#define RELEASE_STREAK 64

// The cell table and its nodes serve the steps where few bodies move (and queries until the first
// sorting scan); while every step scans they only take memory (at 10k bodies more than the slots).
// They go at a sorting scan unless a step has used them since they were built (then only after
// RELEASE_STREAK scans in a row, so that no world allocates every step); fresh_cells() builds them
// again, all at once, when a step needs them. The table is left stale either way.
static void release_cells(cw__grid *grid)
{
    grid->scan_streak = grid->scan_streak < UINT32_MAX ? grid->scan_streak + 1 : UINT32_MAX;
    if (grid->cells_used && grid->scan_streak < RELEASE_STREAK)
        return;
    cw__free(grid->cells, grid->cell_capacity * sizeof *grid->cells);
    cw__free(grid->nodes, grid->node_capacity * sizeof *grid->nodes);
    grid->cells = NULL;
    grid->nodes = NULL;
    grid->cell_capacity = grid->cell_count = grid->node_capacity = 0;
    grid->free_node = -1;
    grid->cells_used = false;
}

cw__scan_result cw__grid_sort_scan(cw__grid *grid, uint32_t *scan_cells)
{
    *scan_cells = 0;
    cell_extent e = filed_extent(grid);
    if (e.entries == 0) {
        grid->sorted_width = grid->sorted_height = 0; // no member of an older scan stays in view
        return CW__SCANNED;
    }
    uint64_t width = (uint64_t)((int64_t)e.x1 - e.x0 + 1), cells = width * (uint64_t)((int64_t)e.y1 - e.y0 + 1);
    if (cells > 4 * e.entries + 4096 || e.entries > UINT32_MAX / 2 || cells > UINT32_MAX / 2)
        return CW__SPARSE;
    release_cells(grid); // before the scratch is reserved: the two are not needed at once
    sort_job job = {grid, e, (uint32_t)width, (uint32_t)cells, 1, (size_t)(cells + width) + 2, false};
    const cw__part_runner *runner = &grid->sort_runner;
    if (runner->parts > 1 && e.entries >= runner->min_entries && parts_have_room(grid, runner->parts, job.stride))
        job.parts = runner->parts; // else (no room for their counts either) the calling thread alone
    void *start = grid->cell_start, *sorted = grid->sorted;
    if (!cw__reserve_near(&start, sizeof(uint32_t), &grid->cell_start_capacity, (uint32_t)job.stride) ||
        !cw__reserve_near(&sorted, sizeof(member), &grid->sorted_capacity,
                          (uint32_t)(e.entries + job.parts * SPARE_SPACING))) {
        grid->cell_start = start, grid->sorted = sorted;
        return CW__SCAN_OUT_OF_MEMORY;
    }
    grid->cell_start = start, grid->sorted = sorted;
    job.ahead = (uint64_t)cells * sizeof(uint32_t) + e.entries * sizeof(member) > SCAN_CACHED;
    sort_into_cells(&job);
    grid->sorted_x0 = e.x0, grid->sorted_y0 = e.y0; // queries look here while the table is stale
    grid->sorted_width = (uint32_t)width, grid->sorted_height = (uint32_t)(cells / width);
    *scan_cells = (uint32_t)cells; // the caller scans them (cw__grid_scan_cells)
    return CW__SCANNED;
}

void cw__grid_scan_cells(const cw__grid *grid, uint32_t first_cell, uint32_t end_cell, cw__pair_list *out)
{
    for (uint32_t c = first_cell; c < end_cell && !out->failed; c++) {
        uint32_t first = grid->cell_start[c], end = grid->cell_start[c + 1];
        if (end - first >= 2)
            cw__pairs_among(grid->sorted + first, (int)(end - first), out);
    }
}

uint32_t cw__grid_scan_split(const cw__grid *grid, uint32_t cells, uint32_t k, uint32_t parts)
{
    if (k >= parts)
        return cells;
    uint64_t target = (uint64_t)grid->cell_start[cells] * k / parts;
    uint32_t lo = 0, hi = cells; // the first cell whose members start at or after the target
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (grid->cell_start[mid] < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
