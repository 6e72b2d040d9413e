// The grid's queries (see grid.h): every proxy whose box meets a query box, and the proxies of
// the cells a ray passes, in the order it passes them.
#include "grid.h"

#include <float.h>
#include <math.h>

// Visits every live proxy once; false if the visitor stopped.
static bool visit_all(const cw__grid *grid, cw__visit_fn *fn, void *context)
{
    for (uint32_t i = 0; i < grid->proxy_capacity; i++)
        if (grid->proxies[i].live && !fn(context, i))
            return false;
    return true;
}

static bool visit_large(const cw__grid *grid, cw__visit_fn *fn, void *context)
{
    for (uint32_t i = 0; i < grid->large_count; i++)
        if (!fn(context, grid->large[i]))
            return false;
    return true;
}

// Cells a query may look in: the table's, or while it is stale the last sorting scan's (which
// still describe every proxy that has not moved since).
static uint64_t indexed_cells(const cw__grid *grid)
{
    return grid->cells_stale ? (uint64_t)grid->sorted_width * grid->sorted_height : grid->cell_count;
}


void cw__grid_query_box(const cw__grid *grid, const cw__box *box, cw__visit_fn *fn, void *context)
{
    if (indexed_cells(grid) == 0) { // nothing filed
        visit_large(grid, fn, context);
        return;
    }
    int32_t cx0 = cw__grid_cell_coord(grid, box->min_x), cy0 = cw__grid_cell_coord(grid, box->min_y);
    int32_t cx1 = cw__grid_cell_coord(grid, box->max_x), cy1 = cw__grid_cell_coord(grid, box->max_y);
    uint64_t covered = (uint64_t)((int64_t)cx1 - cx0 + 1) * (uint64_t)((int64_t)cy1 - cy0 + 1);
    if (covered > indexed_cells(grid)) { // a box over most of the world: every proxy is cheaper
        visit_all(grid, fn, context);
        return;
    }
    if (!visit_large(grid, fn, context))
        return;
    for (int32_t cy = cy0; cy <= cy1; cy++)
        for (int32_t cx = cx0; cx <= cx1; cx++)
            if (!cw__grid_visit_cell(grid, cx, cy, fn, context))
                return;
    return;
}

// The cells along a ray, in the order it enters them (Amanatides and Woo), while the entry
// fraction is below the visitor's limit.
typedef struct ray_cells {
    int32_t cx, cy, step_x, step_y;
    double next_x, next_y, delta_x, delta_y; // fractions at the next x and y cell edges, and per cell
} ray_cells;

static ray_cells ray_start(const cw__grid *grid, double ox, double oy, double dx, double dy)
{
    double size = 1.0 / (double)grid->inv_cell_size; // where cell_coord puts the boundaries
    ray_cells r;
    r.cx = cw__grid_cell_coord(grid, (float)ox), r.cy = cw__grid_cell_coord(grid, (float)oy);
    r.step_x = dx > 0 ? 1 : -1, r.step_y = dy > 0 ? 1 : -1;
    r.next_x = dx != 0 ? (((double)r.cx + (dx > 0)) * size - ox) / dx : INFINITY;
    r.next_y = dy != 0 ? (((double)r.cy + (dy > 0)) * size - oy) / dy : INFINITY;
    r.next_x = r.next_x < 0 ? 0 : r.next_x; // the origin's float cell may differ by rounding
    r.next_y = r.next_y < 0 ? 0 : r.next_y;
    r.delta_x = dx != 0 ? size / fabs(dx) : INFINITY;
    r.delta_y = dy != 0 ? size / fabs(dy) : INFINITY;
    return r;
}

// The part of a ray inside one cell, from where it enters to where it leaves.
typedef struct ray_piece {
    double x0, y0, x1, y1;
} ray_piece;

// Where the walk is: the cell, and the cells it came from and goes to next (visited anyway).
typedef struct ray_place {
    int32_t cx, cy, prev_x, prev_y, next_x, next_y;
} ray_place;

static bool visit_unwalked(const cw__grid *grid, const ray_place *at, int32_t x, int32_t y, cw__visit_fn *fn,
                           void *context)
{
    bool walked = (x == at->cx && y == at->cy) || (x == at->prev_x && y == at->prev_y) ||
                  (x == at->next_x && y == at->next_y);
    return walked || cw__grid_visit_cell(grid, x, y, fn, context);
}

// Whether the piece's line passes within about `margin` of (x, y) (never false when it does).
static bool passes_near(const ray_piece *p, double x, double y, double margin)
{
    double ex = p->x1 - p->x0, ey = p->y1 - p->y0;
    double cross = (x - p->x0) * ey - (y - p->y0) * ex;
    return fabs(cross) <= 2 * margin * (fabs(ex) + fabs(ey));
}

// Whether coordinate v lies within `cells` cell sizes of a grid line (or too far out to tell).
static bool near_grid_line(const cw__grid *grid, double v, double cells)
{
    double c = v * grid->inv_cell_size;
    if (!(fabs(c) < 0x1p52))
        return true;
    double f = c - (double)(int64_t)c; // the fraction, in (-1, 1)
    f = f < 0 ? f + 1 : f;
    return (f < 0.5 ? f : 1 - f) < cells;
}

// Visits the cells beside the walk's cell that the ray's piece in it comes within `margin` of: a
// side neighbour when the piece nears that edge, a corner neighbour when it nears that corner.
// Usually none. A margin near a cell's size (far beyond moderate magnitudes) covers the 3 x 3 block.
static bool visit_beside(const cw__grid *grid, const ray_piece *p, double margin, const ray_place *at,
                         cw__visit_fn *fn, void *context)
{
    double size = 1.0 / (double)grid->inv_cell_size;
    double left = at->cx * size, right = (at->cx + 1.0) * size, bottom = at->cy * size, top = (at->cy + 1.0) * size;
    bool near[2][2] = {{fmin(p->x0, p->x1) - margin < left, fmax(p->x0, p->x1) + margin > right},
                       {fmin(p->y0, p->y1) - margin < bottom, fmax(p->y0, p->y1) + margin > top}};
    bool coarse = margin * 4 >= size;
    for (int side = 0; side < 2; side++) {
        int32_t step = side ? 1 : -1;
        if ((coarse || near[0][side]) && !visit_unwalked(grid, at, at->cx + step, at->cy, fn, context))
            return false;
        if ((coarse || near[1][side]) && !visit_unwalked(grid, at, at->cx, at->cy + step, fn, context))
            return false;
    }
    for (int sx = 0; sx < 2; sx++)
        for (int sy = 0; sy < 2; sy++) {
            bool corner = coarse || (near[0][sx] && near[1][sy] && passes_near(p, sx ? right : left, sy ? top : bottom, margin));
            if (corner && !visit_unwalked(grid, at, at->cx + (sx ? 1 : -1), at->cy + (sy ? 1 : -1), fn, context))
                return false;
        }
    return true;
}

void cw__grid_query_ray(const cw__grid *grid, double ox, double oy, double dx, double dy, const double *limit,
                        cw__visit_fn *fn, void *context)
{
    if (!visit_large(grid, fn, context) || indexed_cells(grid) == 0)
        return;
    double cells_on_ray = (fabs(dx) + fabs(dy)) / grid->cell_size + 2;
    if (cells_on_ray > 4.0 * (double)indexed_cells(grid) + 64) { // a long ray over a sparse world
        for (uint32_t i = 0; i < grid->proxy_capacity; i++)
            if (grid->proxies[i].live && !grid->proxies[i].large && !fn(context, i))
                return;
        return;
    }
    ray_cells r = ray_start(grid, ox, oy, dx, dy);
    // The exact tests work in each shape's own frame, and their rounding (a few units in the last
    // place of these magnitudes) can find a hit just across a cell edge the ray only grazes: cells
    // that close to the ray are visited too.
    double margin = 0x1p-40 * (fabs(ox) + fabs(oy) + fabs(dx) + fabs(dy) + 1.0 / grid->inv_cell_size);
    // Only a cell whose piece starts or ends near a grid line (where it crosses one, or the ray's
    // own ends) can be near a neighbour other than the walk's own: a piece is nearest an edge at one
    // of its ends, and passes a corner closely only where it crosses one of the corner's grid lines
    // close to it. The check runs for those cells only.
    ray_place at = {r.cx, r.cy, r.cx, r.cy, 0, 0};
    double near_cells = 2 * margin * grid->inv_cell_size;
    bool entry_near = near_grid_line(grid, ox, near_cells) || near_grid_line(grid, oy, near_cells);
    bool end_near = near_grid_line(grid, ox + dx, near_cells) || near_grid_line(grid, oy + dy, near_cells);
    // A cell is visited while it is entered before the limit; the 1e-6 covers the rounding of the
    // boundaries against the float AABBs the proxies were filed by.
    double entry = 0;
    while (entry <= *limit + 1e-6 && entry <= 1 + 1e-6) {
        if (!cw__grid_visit_cell(grid, r.cx, r.cy, fn, context))
            return;
        bool along_x = r.next_x <= r.next_y;
        double exit = along_x ? r.next_x : r.next_y;
        exit = exit < 1 + 1e-6 ? exit : 1 + 1e-6; // the last cell: where the segment ends
        bool exit_near = exit > 1 ? end_near : near_grid_line(grid, along_x ? oy + exit * dy : ox + exit * dx, near_cells);
        at.cx = r.cx, at.cy = r.cy;
        at.next_x = r.cx + (along_x ? r.step_x : 0), at.next_y = r.cy + (along_x ? 0 : r.step_y);
        ray_piece piece = {ox + entry * dx, oy + entry * dy, ox + exit * dx, oy + exit * dy};
        if ((entry_near || exit_near) && !visit_beside(grid, &piece, margin, &at, fn, context))
            return;
        entry_near = exit_near;
        at.prev_x = r.cx, at.prev_y = r.cy;
        if (along_x)
            entry = r.next_x, r.cx += r.step_x, r.next_x += r.delta_x;
        else
            entry = r.next_y, r.cy += r.step_y, r.next_y += r.delta_y;
    }
    return;
}
