// What grid.c shares with grid_query.c: the cell a coordinate falls in, and a walk over one
// cell's members (both as the pair search uses them).
#ifndef CW_GRID_INTERNAL_H
#define CW_GRID_INTERNAL_H

#include "grid.h"

// The cell coordinate of `x`, clamped so that any float (NaN included) maps to a cell.
int32_t cw__grid_cell_coord(const cw__grid *grid, float x);

// Visits the members of cell (cx, cy): the cell table's, or while it is stale the last sorting
// scan's. False if the visitor stopped.
bool cw__grid_visit_cell(const cw__grid *grid, int32_t cx, int32_t cy, cw__visit_fn *fn, void *context);

#endif
