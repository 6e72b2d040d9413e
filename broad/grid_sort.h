// The grid's sorting scan (private to broad/): when most proxies moved and the cells in use are
// dense, every filed proxy is counting-sorted by cell into a flat array of member records instead
// of walking the cell table (grid_sort.c). grid.c decides when; the scan of the sorted cells,
// cw__grid_scan_cells() and cw__grid_scan_split(), is declared in grid.h.
#ifndef CW_BROAD_GRID_SORT_H
#define CW_BROAD_GRID_SORT_H

#include "grid.h"

typedef enum cw__scan_result { CW__SCANNED, CW__SPARSE, CW__SCAN_OUT_OF_MEMORY } cw__scan_result;

// Sorts every filed proxy into the flat array by cell (shared through grid->sort_runner from its
// min_entries cell entries on, the same array either way) and returns CW__SCANNED with in *scan_cells
// how many cells cw__grid_scan_cells() has to scan (0 with nothing filed); the cell table may be
// released (see release_cells). CW__SPARSE (nothing changed) where the cells in use are too sparse
// for a dense array; CW__SCAN_OUT_OF_MEMORY where its scratch could not be had.
cw__scan_result cw__grid_sort_scan(cw__grid *grid, uint32_t *scan_cells);

#endif
