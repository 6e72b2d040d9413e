// The grid's in-cell test (private to broad/): a cell's members, each a proxy's AABB and flags as
// seen from that cell, and the pairs among them that the cell reports. grid.c gathers members (from
// its cell lists, or from the sorting scan's flat array); cell_pairs.c tests them.
#ifndef CW_BROAD_CELL_PAIRS_H
#define CW_BROAD_CELL_PAIRS_H

#include "grid.h"

// What pairing needs of a proxy in one cell, gathered so that the scan reads each proxy once per
// cell. The flags say whether the proxy starts in the cell's column and row: a pair's intersection
// has its min corner in the cell iff each of those holds for one of the two.
enum { STARTS_COLUMN = 1, STARTS_ROW = 2, MOVED = 4, STATIC = 8 };
// What two members need between them for their pair to be reported here: one starts in the
// column, one in the row, one moved.
#define REPORTED_HERE (STARTS_COLUMN | STARTS_ROW | MOVED)
typedef struct cw__member {
    cw__box box;
    uint32_t index;
    uint32_t flags;
} member;

static inline member cw__member_of(const cw__grid *grid, uint32_t index, int32_t cx, int32_t cy)
{
    const cw__proxy *p = &grid->proxies[index];
    uint32_t flags = (p->cx0 == cx ? STARTS_COLUMN : 0) | (p->cy0 == cy ? STARTS_ROW : 0) |
                     (p->moved_stamp == grid->stamp ? MOVED : 0) | (p->is_static ? STATIC : 0);
    return (member){p->box, index, flags};
}

// Pairs among the members of one cell: every two whose AABBs overlap, at least one moved, not both
// static, and whose intersection's min corner lies in this cell (so each pair is reported by one
// cell only).
void cw__pairs_among(const member *members, int n, cw__pair_list *out);

#endif
