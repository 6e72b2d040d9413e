// The uniform hashed grid (see grid.h): filing proxies in cells and finding the candidate pairs.
// Queries (boxes and rays through the cells) are in grid_query.c; the sorting scan (every proxy
// counting-sorted by cell when most moved) in grid_sort.c; the test of a cell's members against
// each other in cell_pairs.c.
#include "grid.h"
#include "cell_pairs.h"
#include "grid_sort.h"

#include "../narrow/alloc.h"

#include <float.h>
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define CELL_EMPTY INT64_MIN
// A proxy covering more cells than this along either axis goes to the large list: filing it would
// cost too many cell entries, and testing it against what moves is cheaper.
#define LARGE_SPAN 4
// Cell coordinates are clamped to this range so that any finite coordinate maps to a cell.
#define CELL_LIMIT 1000000000


void cw__grid_init(cw__grid *grid, float cell_size)
{
    memset(grid, 0, sizeof *grid);
    grid->cell_size = cell_size;
    grid->inv_cell_size = 1.0f / cell_size;
    grid->free_node = -1;
    // No table until a step needs one: the first step usually scans by sorting (every body is new)
    // and would release it at once, and choosing the cell size would build it twice before that.
    grid->cells_stale = true;
}

void cw__grid_free(cw__grid *grid)
{
    cw__free(grid->proxies, grid->proxy_capacity * sizeof *grid->proxies);
    cw__free(grid->cells, grid->cell_capacity * sizeof *grid->cells);
    cw__free(grid->nodes, grid->node_capacity * sizeof *grid->nodes);
    cw__free(grid->large, grid->large_capacity * sizeof *grid->large);
    cw__free(grid->crowd, grid->crowd_capacity * sizeof *grid->crowd);
    cw__free(grid->cell_start, grid->cell_start_capacity * sizeof *grid->cell_start);
    cw__free(grid->sorted, grid->sorted_capacity * sizeof *grid->sorted);
    cw__free(grid->part_counts, grid->part_counts_capacity * sizeof *grid->part_counts);
    memset(grid, 0, sizeof *grid);
}

void cw__grid_begin_step(cw__grid *grid)
{
    if (++grid->stamp != 0)
        return;
    // Wrapped after 2^32 steps: a proxy last moved 2^32 steps ago would look moved now (and pairs
    // with it be skipped as reported from the other side). No proxy has moved in this step yet, so
    // every mark can start again.
    for (uint32_t i = 0; i < grid->proxy_capacity; i++)
        grid->proxies[i].moved_stamp = 0;
    grid->stamp = 1;
}

int32_t cw__grid_cell_coord(const cw__grid *grid, float x)
{
    double c = (double)x * grid->inv_cell_size;
    c = c >= -CELL_LIMIT ? c : -CELL_LIMIT; // NaN (an infinite AABB times 0) goes to the edge too
    c = c <= CELL_LIMIT ? c : CELL_LIMIT;
    int32_t i = (int32_t)c; // floor without libm: truncate, then step down for negatives
    return i - (c < i);
}

static int64_t cell_key(int32_t cx, int32_t cy) { return (int64_t)(((uint64_t)(uint32_t)cx << 32) | (uint32_t)cy); }

static uint32_t cell_hash(int64_t key)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

// The slot holding `key`, or the empty slot where it would go.
static uint32_t find_slot(const cw__grid *grid, int64_t key)
{
    uint32_t mask = grid->cell_capacity - 1, i = cell_hash(key) & mask;
    while (grid->cells[i].key != CELL_EMPTY && grid->cells[i].key != key)
        i = (i + 1) & mask;
    return i;
}

// Grows the cell table to at least `needed` slots (a power of two, at least 256), re-filing its cells.
static bool grow_cells(cw__grid *grid, uint64_t needed)
{
    uint32_t old_capacity = grid->cell_capacity;
    uint64_t capacity = old_capacity ? 2 * (uint64_t)old_capacity : 256;
    while (capacity < needed)
        capacity *= 2;
    if (capacity > UINT32_MAX / 2 / sizeof(cw__cell)) {
        cw__fail("Out of memory: the requested size overflows.");
        return false;
    }
    cw__cell *old = grid->cells, *cells = cw__alloc((size_t)capacity * sizeof *cells);
    if (cells == NULL)
        return false;
    for (uint32_t i = 0; i < capacity; i++)
        cells[i] = (cw__cell){CELL_EMPTY, -1, 0};
    grid->cells = cells;
    grid->cell_capacity = (uint32_t)capacity;
    for (uint32_t i = 0; i < old_capacity; i++)
        if (old[i].key != CELL_EMPTY)
            grid->cells[find_slot(grid, old[i].key)] = old[i];
    cw__free(old, old_capacity * sizeof *old);
    return true;
}

// Room in the cell table for `entries` more cell entries, at half load at most.
static bool reserve_cells(cw__grid *grid, uint32_t entries)
{
    uint64_t needed = 2 * ((uint64_t)grid->cell_count + entries);
    return needed <= grid->cell_capacity || grow_cells(grid, needed);
}

// Removes an emptied cell by shifting later members of its probe run back (no tombstones, so the
// table never fills with dead slots as bodies wander).
static void delete_slot(cw__grid *grid, uint32_t hole)
{
    uint32_t mask = grid->cell_capacity - 1;
    for (uint32_t i = (hole + 1) & mask; grid->cells[i].key != CELL_EMPTY; i = (i + 1) & mask) {
        uint32_t home = cell_hash(grid->cells[i].key) & mask;
        bool movable = hole <= i ? (home <= hole || home > i) : (home <= hole && home > i);
        if (movable) {
            grid->cells[hole] = grid->cells[i];
            hole = i;
        }
    }
    grid->cells[hole] = (cw__cell){CELL_EMPTY, -1, 0};
    grid->cell_count--;
}

static bool reserve_nodes(cw__grid *grid, int32_t extra)
{
    int32_t free_count = 0;
    for (int32_t n = grid->free_node; n >= 0 && free_count < extra; n = grid->nodes[n].next)
        free_count++;
    if (free_count >= extra)
        return true;
    uint32_t old_capacity = grid->node_capacity;
    void *nodes = grid->nodes;
    if (!cw__reserve(&nodes, sizeof(struct cw__node), &grid->node_capacity, old_capacity + (uint32_t)(extra - free_count)))
        return false;
    grid->nodes = nodes;
    for (int32_t n = (int32_t)grid->node_capacity - 1; n >= (int32_t)old_capacity; n--) {
        grid->nodes[n].next = grid->free_node;
        grid->free_node = n;
    }
    return true;
}

// Files `index` in cell (cx, cy); the caller reserved a node and, if needed, a cell slot.
static void add_to_cell(cw__grid *grid, uint32_t index, int32_t cx, int32_t cy)
{
    int64_t key = cell_key(cx, cy);
    uint32_t slot = find_slot(grid, key);
    cw__cell *cell = &grid->cells[slot];
    if (cell->key == CELL_EMPTY) {
        *cell = (cw__cell){key, -1, 0};
        grid->cell_count++;
    }
    int32_t n = grid->free_node;
    grid->free_node = grid->nodes[n].next;
    grid->nodes[n] = (struct cw__node){(int32_t)index, cell->head};
    cell->head = n;
    cell->count++;
}

static void remove_from_cell(cw__grid *grid, uint32_t index, int32_t cx, int32_t cy)
{
    uint32_t slot = find_slot(grid, cell_key(cx, cy));
    cw__cell *cell = &grid->cells[slot];
    for (int32_t *link = &cell->head; *link >= 0; link = &grid->nodes[*link].next) {
        if (grid->nodes[*link].proxy == (int32_t)index) {
            int32_t n = *link;
            *link = grid->nodes[n].next;
            grid->nodes[n].next = grid->free_node;
            grid->free_node = n;
            if (--cell->count == 0)
                delete_slot(grid, slot);
            return;
        }
    }
}

static void unfile(cw__grid *grid, uint32_t index)
{
    cw__proxy *p = &grid->proxies[index];
    if (p->large) {
        for (uint32_t i = 0; i < grid->large_count; i++)
            if (grid->large[i] == index) {
                grid->large[i] = grid->large[--grid->large_count];
                break;
            }
        return;
    }
    grid->small_count--;
    if (grid->cells_stale)
        return;
    for (int32_t cy = p->cy0; cy <= p->cy1; cy++)
        for (int32_t cx = p->cx0; cx <= p->cx1; cx++)
            remove_from_cell(grid, index, cx, cy);
}

static bool file_large(cw__grid *grid, uint32_t index)
{
    void *large = grid->large;
    if (!cw__reserve(&large, sizeof(uint32_t), &grid->large_capacity, grid->large_count + 1))
        return false;
    grid->large = large;
    grid->large[grid->large_count++] = index;
    grid->proxies[index].large = true;
    return true;
}

#if defined(__SSE2__)
// cw__grid_cell_coord() of two floats at once, by the same operations (so the same cells): the
// product, clamped (MAXPD yields its second operand for NaN, as the scalar test does), truncated,
// and one less where the truncation went up.
static __m128i cell_coords2(__m128d x, __m128d inv)
{
    __m128d c = _mm_min_pd(_mm_max_pd(_mm_mul_pd(x, inv), _mm_set1_pd(-CELL_LIMIT)), _mm_set1_pd(CELL_LIMIT));
    __m128i truncated = _mm_cvttpd_epi32(c);
    __m128d up = _mm_cmplt_pd(c, _mm_cvtepi32_pd(truncated));
    return _mm_add_epi32(truncated, _mm_shuffle_epi32(_mm_castpd_si128(up), _MM_SHUFFLE(3, 3, 2, 0)));
}
#endif

// The cells a box covers at the grid's cell size, as x0, y0, x1, y1 (a proxy's cx0..cy1). Every
// moved proxy's are found each step: where SSE2 is at hand, two at a time, in a quarter of the
// instructions.
typedef struct cell_range {
    int32_t c[4];
} cell_range;

static cell_range cells_of(const cw__grid *grid, const cw__box *box)
{
    cell_range r;
#if defined(__SSE2__)
    _Static_assert(sizeof(cw__box) == 4 * sizeof(float), "a box is its four floats");
    __m128 sides = _mm_loadu_ps((const float *)(const void *)box);
    __m128d inv = _mm_set1_pd(grid->inv_cell_size);
    __m128i mins = cell_coords2(_mm_cvtps_pd(sides), inv), maxs = cell_coords2(_mm_cvtps_pd(_mm_movehl_ps(sides, sides)), inv);
    _mm_storeu_si128((__m128i *)(void *)r.c, _mm_unpacklo_epi64(mins, maxs));
#else
    r.c[0] = cw__grid_cell_coord(grid, box->min_x), r.c[1] = cw__grid_cell_coord(grid, box->min_y);
    r.c[2] = cw__grid_cell_coord(grid, box->max_x), r.c[3] = cw__grid_cell_coord(grid, box->max_y);
#endif
    return r;
}

static void cover(const cw__grid *grid, cw__proxy *p)
{
    cell_range r = cells_of(grid, &p->box);
    p->cx0 = r.c[0], p->cy0 = r.c[1], p->cx1 = r.c[2], p->cy1 = r.c[3];
}

static bool is_large(const cw__proxy *p)
{
    return (int64_t)p->cx1 - p->cx0 + 1 > LARGE_SPAN || (int64_t)p->cy1 - p->cy0 + 1 > LARGE_SPAN;
}

// Files a proxy whose cell range is set; everything is reserved first so failure changes nothing.
static bool file(cw__grid *grid, uint32_t index)
{
    cw__proxy *p = &grid->proxies[index];
    int64_t w = (int64_t)p->cx1 - p->cx0 + 1, h = (int64_t)p->cy1 - p->cy0 + 1;
    if (is_large(p))
        return file_large(grid, index);
    if (!grid->cells_stale && !(reserve_cells(grid, (uint32_t)(w * h)) && reserve_nodes(grid, (int32_t)(w * h))))
        return false;
    p->large = false;
    grid->small_count++;
    if (grid->cells_stale)
        return true;
    for (int32_t cy = p->cy0; cy <= p->cy1; cy++)
        for (int32_t cx = p->cx0; cx <= p->cx1; cx++)
            add_to_cell(grid, index, cx, cy);
    return true;
}

// Makes room for filing proxy q at its cells (or in the large list), so that moving it cannot fail
// halfway once it has left its old cells.
static bool reserve_filing(cw__grid *grid, const cw__proxy *q)
{
    if (is_large(q)) {
        void *large = grid->large;
        if (!cw__reserve(&large, sizeof(uint32_t), &grid->large_capacity, grid->large_count + 1))
            return false;
        grid->large = large;
        return true;
    }
    if (grid->cells_stale)
        return true;
    uint32_t entries = (uint32_t)(((int64_t)q->cx1 - q->cx0 + 1) * ((int64_t)q->cy1 - q->cy0 + 1));
    return reserve_cells(grid, entries) && reserve_nodes(grid, (int32_t)entries);
}

// Moves the proxies to an array of `capacity` (more than now), the new ones not live.
static bool resize_proxies(cw__grid *grid, uint32_t capacity)
{
    void *proxies = grid->proxies;
    uint32_t old_capacity = grid->proxy_capacity;
    if (!cw__reserve_exact(&proxies, sizeof(cw__proxy), &grid->proxy_capacity, capacity))
        return false;
    grid->proxies = proxies;
    memset(grid->proxies + old_capacity, 0, (grid->proxy_capacity - old_capacity) * sizeof(cw__proxy));
    return true;
}

size_t cw__grid_bytes(const cw__grid *grid)
{
    return grid->proxy_capacity * sizeof *grid->proxies + grid->cell_capacity * sizeof *grid->cells +
           grid->node_capacity * sizeof *grid->nodes + grid->large_capacity * sizeof *grid->large +
           grid->crowd_capacity * sizeof *grid->crowd + grid->cell_start_capacity * sizeof *grid->cell_start +
           grid->sorted_capacity * sizeof *grid->sorted + grid->part_counts_capacity * sizeof *grid->part_counts;
}

bool cw__grid_reserve(cw__grid *grid, uint32_t proxies)
{
    return proxies <= grid->proxy_capacity || resize_proxies(grid, proxies);
}

// A proxy inserted, or moved to other cells: refiled, everything reserved first. Out of line, so
// that the common move does not pay for its registers.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool refile(cw__grid *grid, uint32_t index, const cw__box *box, bool is_static, const cell_range *r)
{
    cw__proxy *p = &grid->proxies[index], moved = *p;
    moved.box = *box;
    moved.is_static = is_static;
    moved.moved_stamp = grid->stamp;
    moved.cx0 = r->c[0], moved.cy0 = r->c[1], moved.cx1 = r->c[2], moved.cy1 = r->c[3];
    if (!reserve_filing(grid, &moved))
        return false; // out of memory: the proxy is as it was
    if (p->live)
        unfile(grid, index);
    moved.live = true;
    *p = moved;
    file(grid, index); // cannot fail: reserved above
    return true;
}

bool cw__grid_update(cw__grid *grid, uint32_t index, const cw__box *box, bool is_static)
{
    if (index >= grid->proxy_capacity && !resize_proxies(grid, cw__grown_capacity(grid->proxy_capacity, index + 1, 16)))
        return false;
    cw__proxy *p = &grid->proxies[index];
    cell_range r = cells_of(grid, box);
    // Most moves stay in their cells (a body crosses a cell's edge every few dozen steps): only the
    // box and the marks change.
    if (!(p->live && r.c[0] == p->cx0 && r.c[1] == p->cy0 && r.c[2] == p->cx1 && r.c[3] == p->cy1))
        return refile(grid, index, box, is_static, &r);
    p->box = *box;
    p->is_static = is_static;
    p->moved_stamp = grid->stamp;
    return true;
}

void cw__grid_remove(cw__grid *grid, uint32_t index)
{
    if (index >= grid->proxy_capacity || !grid->proxies[index].live)
        return;
    unfile(grid, index);
    grid->proxies[index].live = false;
}


// Whether a pair (p moved, q another proxy) is reported from p's side: not both static, and when
// both moved only from the lower index.
static bool reported_from(const cw__grid *grid, uint32_t p, uint32_t q)
{
    const cw__proxy *pp = &grid->proxies[p], *pq = &grid->proxies[q];
    if (pp->is_static && pq->is_static)
        return false;
    return !(pq->moved_stamp == grid->stamp && q < p);
}

static void pairs_in_cells(const cw__grid *grid, uint32_t p, cw__pair_list *out)
{
    const cw__proxy *pp = &grid->proxies[p];
    for (int32_t cy = pp->cy0; cy <= pp->cy1; cy++) {
        for (int32_t cx = pp->cx0; cx <= pp->cx1; cx++) {
            const cw__cell *cell = &grid->cells[find_slot(grid, cell_key(cx, cy))];
            for (int32_t n = cell->head; n >= 0; n = grid->nodes[n].next) {
                uint32_t q = (uint32_t)grid->nodes[n].proxy;
                const cw__proxy *pq = &grid->proxies[q];
                if (q == p || !reported_from(grid, p, q) || !cw__boxes_meet(&pp->box, &pq->box))
                    continue;
                // Only the cell holding the min corner of the intersection reports the pair; cells
                // are monotonic in the coordinates, so that is the larger of the two min cells.
                int32_t corner_x = pp->cx0 > pq->cx0 ? pp->cx0 : pq->cx0;
                int32_t corner_y = pp->cy0 > pq->cy0 ? pp->cy0 : pq->cy0;
                if (corner_x != cx || corner_y != cy)
                    continue;
                cw__pair_list_add(out, p < q ? p : q, p < q ? q : p);
            }
        }
    }
}

// Pairs of a moved proxy p with the large proxies (which are in no cell). A filed p reports every
// such pair (the large side only reports filed proxies that did not move); two large ones follow
// the lower-index rule.
static void pairs_with_large(const cw__grid *grid, uint32_t p, cw__pair_list *out)
{
    const cw__proxy *pp = &grid->proxies[p];
    for (uint32_t i = 0; i < grid->large_count; i++) {
        uint32_t q = grid->large[i];
        const cw__proxy *pq = &grid->proxies[q];
        bool ours = pp->large ? reported_from(grid, p, q) : !(pp->is_static && pq->is_static);
        if (q == p || !ours || !cw__boxes_meet(&pp->box, &pq->box))
            continue;
        cw__pair_list_add(out, p < q ? p : q, p < q ? q : p);
    }
}

// A moved large proxy looking for filed proxies that did not move, cell by cell.
typedef struct large_search {
    const cw__grid *grid;
    uint32_t p;
    int32_t cx, cy; // the cell being visited
    cw__pair_list *out;
} large_search;

static bool large_meets(void *context, uint32_t q)
{
    const large_search *s = context;
    const cw__proxy *pp = &s->grid->proxies[s->p], *pq = &s->grid->proxies[q];
    if (pq->moved_stamp == s->grid->stamp || (pp->is_static && pq->is_static) || !cw__boxes_meet(&pp->box, &pq->box))
        return true;
    // A filed proxy may sit in several of the large one's cells: only the cell holding the min corner
    // of the intersection reports the pair.
    if ((pp->cx0 > pq->cx0 ? pp->cx0 : pq->cx0) == s->cx && (pp->cy0 > pq->cy0 ? pp->cy0 : pq->cy0) == s->cy)
        cw__pair_list_add(s->out, s->p < q ? s->p : q, s->p < q ? q : s->p);
    return true;
}

// Pairs of a moved large proxy with every filed proxy that did not move (moved ones report the
// pair themselves through pairs_with_large): through its cells when they are fewer than the filed
// proxies, else by looking at every proxy.
static void large_with_cells(const cw__grid *grid, uint32_t p, cw__pair_list *out)
{
    const cw__proxy *pp = &grid->proxies[p];
    uint64_t covered = (uint64_t)((int64_t)pp->cx1 - pp->cx0 + 1) * (uint64_t)((int64_t)pp->cy1 - pp->cy0 + 1);
    if (covered < grid->small_count) {
        large_search s = {grid, p, 0, 0, out};
        for (s.cy = pp->cy0; s.cy <= pp->cy1; s.cy++)
            for (s.cx = pp->cx0; s.cx <= pp->cx1; s.cx++)
                cw__grid_visit_cell(grid, s.cx, s.cy, large_meets, &s);
        return;
    }
    for (uint32_t q = 0; q < grid->proxy_capacity; q++) {
        const cw__proxy *pq = &grid->proxies[q];
        if (!pq->live || pq->large || pq->moved_stamp == grid->stamp || (pp->is_static && pq->is_static) ||
            !cw__boxes_meet(&pp->box, &pq->box))
            continue;
        cw__pair_list_add(out, p < q ? p : q, p < q ? q : p);
    }
}


static void pairs_in_cell(const cw__grid *grid, const cw__cell *cell, member *members, cw__pair_list *out)
{
    int32_t cx = (int32_t)(uint32_t)((uint64_t)cell->key >> 32), cy = (int32_t)(uint32_t)(uint64_t)cell->key;
    int n = 0;
    for (int32_t node = cell->head; node >= 0; node = grid->nodes[node].next)
        members[n++] = cw__member_of(grid, (uint32_t)grid->nodes[node].proxy, cx, cy);
    cw__pairs_among(members, n, out);
}

// When most proxies moved, scanning the cells in memory order touches each proxy a few times
// instead of once per neighbour. False if a crowded cell needed scratch memory and none was had.
static bool pairs_by_cells(cw__grid *grid, cw__pair_list *out)
{
    enum { LOCAL = 128 };
    member local[LOCAL];
    for (uint32_t slot = 0; slot < grid->cell_capacity && !out->failed; slot++) {
        const cw__cell *cell = &grid->cells[slot];
        if (cell->key == CELL_EMPTY || cell->count < 2)
            continue;
        member *members = local;
        if (cell->count > LOCAL) { // a crowd far beyond the cell size: scratch kept for the next time
            void *crowd = grid->crowd;
            if (!cw__reserve(&crowd, sizeof(member), &grid->crowd_capacity, (uint32_t)cell->count))
                return false;
            members = grid->crowd = crowd;
        }
        pairs_in_cell(grid, cell, members, out);
    }
    return true;
}

// Reserves large-list room and, unless the table is stale (nothing is filed in it then), cell
// slots and nodes for filing every live proxy at `cell_size` into an empty cell table.
static bool reserve_for_size(cw__grid *grid, float cell_size)
{
    cw__grid sized = *grid;
    sized.cell_size = cell_size, sized.inv_cell_size = 1.0f / cell_size;
    uint32_t entries = 0, large = 0;
    for (uint32_t i = 0; i < grid->proxy_capacity; i++) {
        cw__proxy p = grid->proxies[i];
        if (!p.live)
            continue;
        cover(&sized, &p);
        if (is_large(&p))
            large++;
        else
            entries += (uint32_t)(((int64_t)p.cx1 - p.cx0 + 1) * ((int64_t)p.cy1 - p.cy0 + 1));
    }
    void *list = grid->large;
    if (!cw__reserve(&list, sizeof(uint32_t), &grid->large_capacity, large))
        return false;
    grid->large = list;
    if (grid->cells_stale)
        return true;
    if ((uint64_t)entries * 2 > grid->cell_capacity && !grow_cells(grid, (uint64_t)entries * 2))
        return false;
    void *nodes = grid->nodes;
    if (!cw__reserve(&nodes, sizeof(struct cw__node), &grid->node_capacity, entries))
        return false;
    grid->nodes = nodes;
    return true;
}

// Empties the cell table (unless it is stale) and the large list, then files every live proxy
// again at the current cell size; the caller reserved room with reserve_for_size.
static void refile_all(cw__grid *grid)
{
    if (!grid->cells_stale)
        for (uint32_t i = 0; i < grid->cell_capacity; i++)
            grid->cells[i] = (cw__cell){CELL_EMPTY, -1, 0};
    grid->cell_count = grid->small_count = grid->large_count = 0;
    grid->free_node = -1;
    for (int32_t n = (int32_t)grid->node_capacity - 1; n >= 0; n--) {
        grid->nodes[n].next = grid->free_node;
        grid->free_node = n;
    }
    for (uint32_t i = 0; i < grid->proxy_capacity; i++) {
        cw__proxy *p = &grid->proxies[i];
        if (!p->live)
            continue;
        cover(grid, p);
        file(grid, i);
    }
}

bool cw__grid_set_cell_size(cw__grid *grid, float cell_size)
{
    if (!(cell_size > 0 && cell_size <= FLT_MAX && 1.0f / cell_size > 0))
        return false; // not a finite size with a nonzero inverse: the size stays as it was
    // A stale table stays stale (and unbuilt) only while no sorting scan's members are in view:
    // theirs are cells of the old size, which queries could no longer find.
    bool was_stale = grid->cells_stale;
    if (was_stale && grid->sorted_width != 0)
        grid->cells_stale = false; // built at the new size below
    if (!reserve_for_size(grid, cell_size)) {
        grid->cells_stale = was_stale;
        return false;
    }
    grid->cell_size = cell_size;
    grid->inv_cell_size = 1.0f / cell_size;
    refile_all(grid);
    return true;
}

// Brings a stale cell table up to date before a scan that needs it. False if memory runs out.
static bool fresh_cells(cw__grid *grid)
{
    grid->cells_used = true;
    grid->scan_streak = 0;
    if (!grid->cells_stale)
        return true;
    grid->cells_stale = false;
    if (!reserve_for_size(grid, grid->cell_size)) {
        grid->cells_stale = true;
        return false;
    }
    refile_all(grid);
    return true;
}

// Pairs found by scanning every cell: sorting when the cells are dense enough, else walking the
// cell table. After a sorting scan the table is left stale: while most proxies keep moving,
// keeping it up to date would be wasted.
static bool pairs_by_scan(cw__grid *grid, cw__pair_list *out, uint32_t *scan_cells)
{
    cw__scan_result result = cw__grid_sort_scan(grid, scan_cells);
    if (result == CW__SCANNED)
        grid->cells_stale = true;
    if (result != CW__SPARSE)
        return result == CW__SCANNED;
    return fresh_cells(grid) && pairs_by_cells(grid, out);
}

// Whether this step's pairs come from scanning every cell (most proxies moved) rather than from
// each moved proxy's cells.
static bool scanning(const cw__grid *grid, uint32_t moved_count)
{
    return 4 * (uint64_t)moved_count >= grid->small_count;
}

bool cw__grid_pairs_begin(cw__grid *grid, uint32_t moved_count, cw__pair_list *out, uint32_t *cells)
{
    out->count = 0;
    out->failed = out->over_limit = false;
    *cells = 0;
    return scanning(grid, moved_count) ? pairs_by_scan(grid, out, cells) : fresh_cells(grid);
}

bool cw__grid_pairs_end(cw__grid *grid, const uint32_t *moved, uint32_t moved_count, cw__pair_list *out)
{
    bool scan = scanning(grid, moved_count);
    if (scan && grid->large_count == 0) // the scan found every pair: nothing is large
        return !out->failed;
    for (uint32_t i = 0; i < moved_count && !out->failed; i++) {
        uint32_t p = moved[i];
        if (p >= grid->proxy_capacity || !grid->proxies[p].live)
            continue;
        if (grid->proxies[p].large)
            large_with_cells(grid, p, out);
        else if (!scan)
            pairs_in_cells(grid, p, out);
        if (grid->large_count > 0)
            pairs_with_large(grid, p, out);
    }
    return !out->failed;
}

// Visits the members of cell (cx, cy); false if the visitor stopped.
bool cw__grid_visit_cell(const cw__grid *grid, int32_t cx, int32_t cy, cw__visit_fn *fn, void *context)
{
    if (grid->cells_stale) {
        int64_t x = (int64_t)cx - grid->sorted_x0, y = (int64_t)cy - grid->sorted_y0;
        if (x < 0 || y < 0 || x >= grid->sorted_width || y >= grid->sorted_height)
            return true;
        uint64_t c = (uint64_t)y * grid->sorted_width + (uint64_t)x;
        for (uint32_t k = grid->cell_start[c]; k < grid->cell_start[c + 1]; k++)
            if (!fn(context, grid->sorted[k].index))
                return false;
        return true;
    }
    if (grid->cell_count == 0)
        return true;
    const cw__cell *cell = &grid->cells[find_slot(grid, cell_key(cx, cy))];
    for (int32_t n = cell->head; n >= 0; n = grid->nodes[n].next)
        if (!fn(context, (uint32_t)grid->nodes[n].proxy))
            return false;
    return true;
}

uint64_t cw__grid_occupied_walk(const cw__grid *grid)
{
    return grid->cells_stale ? (uint64_t)grid->sorted_width * grid->sorted_height : grid->cell_capacity;
}

void cw__grid_visit_occupied(const cw__grid *grid, cw__cell_fn *fn, void *context)
{
    if (grid->cells_stale) {
        for (uint32_t y = 0; y < grid->sorted_height; y++)
            for (uint32_t x = 0; x < grid->sorted_width; x++) {
                uint64_t c = (uint64_t)y * grid->sorted_width + x;
                if (grid->cell_start[c] < grid->cell_start[c + 1])
                    fn(context, (int32_t)(grid->sorted_x0 + (int64_t)x), (int32_t)(grid->sorted_y0 + (int64_t)y));
            }
        return;
    }
    for (uint32_t slot = 0; slot < grid->cell_capacity; slot++) {
        const cw__cell *cell = &grid->cells[slot];
        if (cell->key != CELL_EMPTY && cell->head >= 0)
            fn(context, (int32_t)(uint32_t)((uint64_t)cell->key >> 32), (int32_t)(uint32_t)(uint64_t)cell->key);
    }
}
