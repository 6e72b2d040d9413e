// A cell's members tested against each other (see cell_pairs.h): pairs in packed compares for the
// few members an ordinary cell holds, vectorised columns for more, plain pairs for a crowd.
#include "cell_pairs.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static bool wanted(const member *a, const member *b)
{
    uint32_t any = a->flags | b->flags, both = a->flags & b->flags;
    return (a->box.min_x <= b->box.max_x) & (b->box.min_x <= a->box.max_x) & (a->box.min_y <= b->box.max_y) &
           (b->box.min_y <= a->box.max_y) & ((any & REPORTED_HERE) == REPORTED_HERE) &
           !(both & STATIC);
}

static void report_pair(uint32_t a, uint32_t b, cw__pair_list *out)
{
    cw__pair_list_add(out, a < b ? a : b, a < b ? b : a);
}

// Whether a pair is reported is as random as the bodies, and a branch on it is mispredicted about
// once in every few pairs. Where the list has room for `most` more indices (every pair a loop could
// report), each pair is written and the count moves by 0 or 2 (write_kept_if), without a branch;
// else (a full list, or one near its limit) the pairs go one at a time, as the list allows. The
// same pairs in the same order either way.
static inline bool room_for_every_pair(const cw__pair_list *out, uint32_t most)
{
    return out->capacity - out->count >= most && (out->limit == 0 || out->limit - out->count >= most) &&
           !out->failed;
}

static inline uint32_t write_kept_if(uint32_t *items, uint32_t count, uint32_t a, uint32_t b, bool kept)
{
    items[count] = a < b ? a : b;
    items[count + 1] = a < b ? b : a;
    return count + 2u * kept;
}

#if defined(__SSE2__)
// wanted() with the boxes in one packed compare: a's min corner against b's max and b's min against
// a's max (the same four comparisons, so the same answer, NaN included).
static inline bool packed_wanted(__m128 a, __m128 b, uint32_t fa, uint32_t fb)
{
    bool meet = _mm_movemask_ps(_mm_cmple_ps(_mm_movelh_ps(a, b), _mm_movehl_ps(a, b))) == 15;
    return meet & (((fa | fb) & REPORTED_HERE) == REPORTED_HERE) & ((fa & fb & STATIC) == 0);
}

// A cell's pairs by packed_wanted(). A cell holds a few members (at 10k boxes 3.7 on average, 2 to
// 9 in all but a few cells): one pair costs about a dozen instructions this way, where the
// columns' setup and remainders came to some fifty.
static void pairs_packed(const member *members, int n, cw__pair_list *out)
{
    if (room_for_every_pair(out, (uint32_t)(n * (n - 1)))) {
        uint32_t *items = out->items, count = out->count;
        for (int i = 0; i < n - 1; i++) {
            const __m128 a = _mm_loadu_ps((const float *)(const void *)&members[i].box);
            const uint32_t fa = members[i].flags, ia = members[i].index;
            for (int j = i + 1; j < n; j++) {
                const __m128 b = _mm_loadu_ps((const float *)(const void *)&members[j].box);
                const uint32_t fb = members[j].flags, ib = members[j].index;
                count = write_kept_if(items, count, ia, ib, packed_wanted(a, b, fa, fb));
            }
        }
        out->count = count;
        return;
    }
    for (int i = 0; i < n - 1 && !out->failed; i++) {
        const __m128 a = _mm_loadu_ps((const float *)(const void *)&members[i].box);
        const uint32_t fa = members[i].flags;
        for (int j = i + 1; j < n; j++) {
            const __m128 b = _mm_loadu_ps((const float *)(const void *)&members[j].box);
            const uint32_t fb = members[j].flags;
            if (packed_wanted(a, b, fa, fb))
                report_pair(members[i].index, members[j].index, out);
        }
    }
}
#endif

// A cell's members as columns, so that testing one member against all the later ones vectorises.
#define COLUMN_MAX 128
#define SMALL_CELL 4 // below this, setting up the columns costs more than it saves
#define PACKED_MAX 8  // up to this, pairs in packed compares (where SSE2 is at hand) beat the columns
typedef struct column_set {
    float min_x[COLUMN_MAX], min_y[COLUMN_MAX], max_x[COLUMN_MAX], max_y[COLUMN_MAX];
    uint32_t flags[COLUMN_MAX];
    uint8_t hit[COLUMN_MAX];
} column_set;

// Reports member i with each later member j whose hit[j] is set (see room_for_every_pair()).
static void report_hits(const member *members, int i, int n, const uint8_t *hit, cw__pair_list *out)
{
    uint32_t ia = members[i].index;
    if (room_for_every_pair(out, 2u * (uint32_t)(n - 1 - i))) {
        uint32_t *items = out->items, count = out->count;
        for (int j = i + 1; j < n; j++)
            count = write_kept_if(items, count, ia, members[j].index, hit[j]);
        out->count = count;
        return;
    }
    for (int j = i + 1; j < n; j++)
        if (hit[j])
            report_pair(ia, members[j].index, out);
}

static void pairs_in_columns(const member *members, int n, column_set *c, cw__pair_list *out)
{
    for (int k = 0; k < n; k++) {
        c->min_x[k] = members[k].box.min_x, c->min_y[k] = members[k].box.min_y;
        c->max_x[k] = members[k].box.max_x, c->max_y[k] = members[k].box.max_y;
        c->flags[k] = members[k].flags;
    }
    for (int i = 0; i < n - 1 && !out->failed; i++) {
        const float x0 = c->min_x[i], y0 = c->min_y[i], x1 = c->max_x[i], y1 = c->max_y[i];
        const uint32_t f = c->flags[i];
        for (int j = i + 1; j < n; j++) // no branches: the compiler turns this into vector compares
            c->hit[j] = (uint8_t)((x0 <= c->max_x[j]) & (c->min_x[j] <= x1) & (y0 <= c->max_y[j]) &
                                  (c->min_y[j] <= y1) & (((f | c->flags[j]) & REPORTED_HERE) == REPORTED_HERE) &
                                  ((f & c->flags[j] & STATIC) == 0));
        report_hits(members, i, n, c->hit, out);
    }
}

// Cells beyond the packed compares' reach (and every cell without SSE2): the columns' setup pays
// for itself from a few members on; plain pairs below that and for a crowd. Out of line: the
// columns' stack frame would otherwise be set up for every cell.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void pairs_many(const member *members, int n, cw__pair_list *out)
{
    if (n > SMALL_CELL && n <= COLUMN_MAX) {
        column_set c;
        pairs_in_columns(members, n, &c, out);
        return;
    }
    // A few members, or a crowd far beyond the cell size: plain pairs (a pile-up stops as soon as
    // the list fails: its limit makes the time to say so bounded). A crowd in which no pair can be
    // reported from this cell (none starts here, or none moved: a pile-up seen from the cells it
    // spills into) is skipped without looking at its n^2 pairs.
    if (n > COLUMN_MAX) {
        uint32_t any = 0;
        for (int i = 0; i < n; i++)
            any |= members[i].flags;
        if ((any & REPORTED_HERE) != REPORTED_HERE)
            return;
    }
    for (int i = 0; i < n && !out->failed; i++)
        for (int j = i + 1; j < n; j++)
            if (wanted(&members[i], &members[j]))
                report_pair(members[i].index, members[j].index, out);
}

void cw__pairs_among(const member *members, int n, cw__pair_list *out)
{
#if defined(__SSE2__)
    if (n <= PACKED_MAX) {
        pairs_packed(members, n, out);
        return;
    }
#endif
    pairs_many(members, n, out);
}
