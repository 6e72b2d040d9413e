// Debug draw: the world's geometry handed to the engine's drawing functions (collworld.h,
// cw_world_debug_draw). Read-only and allocation-free.
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { ALL_FLAGS = CW_DRAW_AABBS | CW_DRAW_BOXES | CW_DRAW_MASK_OUTLINES | CW_DRAW_GRID | CW_DRAW_CONTACTS | CW_DRAW_IDS };

cw_debug_draw cw_default_debug_draw(void)
{
    cw_debug_draw draw;
    memset(&draw, 0, sizeof draw);
    return draw;
}

static bool check_draw(const cw_world *world, const cw_debug_draw *draw)
{
    const char *error = NULL;
    uint32_t f = draw ? draw->flags : 0;
    if (world == NULL || draw == NULL)
        error = world == NULL ? "The world is NULL." : "The debug draw is NULL.";
    else if (f & ~(uint32_t)ALL_FLAGS)
        error = "The debug draw flags hold unknown bits: use the CW_DRAW_ flags.";
    else if ((f & (CW_DRAW_AABBS | CW_DRAW_BOXES | CW_DRAW_GRID)) && draw->draw_polygon == NULL)
        error = "The debug draw asks for AABBs, boxes or grid cells without a draw_polygon function.";
    else if ((f & (CW_DRAW_MASK_OUTLINES | CW_DRAW_CONTACTS)) && draw->draw_segment == NULL)
        error = "The debug draw asks for mask outlines or contacts without a draw_segment function.";
    else if ((f & CW_DRAW_CONTACTS) && draw->draw_point == NULL)
        error = "The debug draw asks for contacts without a draw_point function.";
    else if (draw->use_bounds &&
             !(isfinite(draw->bounds.min.x) && isfinite(draw->bounds.min.y) && isfinite(draw->bounds.max.x) &&
               isfinite(draw->bounds.max.y) && draw->bounds.min.x <= draw->bounds.max.x &&
               draw->bounds.min.y <= draw->bounds.max.y))
        error = "The debug draw bounds are inverted or not finite.";
    if (error != NULL)
        cw__fail(error);
    return error == NULL;
}

static bool visible(const cw_debug_draw *draw, const cw__box *box)
{
    if (!draw->use_bounds)
        return true;
    cw__box view = {draw->bounds.min.x, draw->bounds.min.y, draw->bounds.max.x, draw->bounds.max.y};
    return cw__boxes_meet(box, &view);
}

static cw_debug_item item_of(const cw_world *world, uint32_t index, cw_debug_flags what)
{
    return (cw_debug_item){.what = what, .body = {index, world->slots[index].generation},
                           .user_data = world->slots[index].user_data, .touching = cw__body_has_pairs(world, index)};
}

static void draw_box_polygon(const cw_debug_draw *draw, const cw__box *b, const cw_debug_item *item)
{
    const cw_vec2 v[4] = {{b->min_x, b->min_y}, {b->max_x, b->min_y}, {b->max_x, b->max_y}, {b->min_x, b->max_y}};
    draw->draw_polygon(v, 4, item, draw->context);
}

static void draw_oriented_box(const cw_debug_draw *draw, const cw__obb *o, const cw_debug_item *item)
{
    const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    cw_vec2 v[4];
    for (int k = 0; k < 4; k++)
        v[k] = (cw_vec2){(float)(o->cx + sx[k] * o->ux + sy[k] * o->vx), (float)(o->cy + sx[k] * o->uy + sy[k] * o->vy)};
    draw->draw_polygon(v, 4, item, draw->context);
}

static void outline_segment(const cw_debug_draw *draw, const cw__xf *xf, double x0, double y0, double x1, double y1,
                            const cw_debug_item *item)
{
    double ax, ay, bx, by;
    cw__to_world(xf, x0, y0, 0, 0, &ax, &ay);
    cw__to_world(xf, x1, y1, 0, 0, &bx, &by);
    draw->draw_segment((cw_vec2){(float)ax, (float)ay}, (cw_vec2){(float)bx, (float)by}, item, draw->context);
}

// The boundary edges of a mask's opaque texels, joined along each grid line into the longest runs:
// a horizontal edge at line y between texels (x, y - 1) and (x, y), a vertical one at line x
// between (x - 1, y) and (x, y), wherever exactly one of the two is opaque.
static void draw_outline(const cw_debug_draw *draw, const cw__body *body, const cw_debug_item *item)
{
    const cw_mask *m = body->mask;
    for (int y = 0; y <= m->height; y++)
        for (int x = 0; x < m->width;) {
            if (cw__texel(m, x, y - 1) == cw__texel(m, x, y)) {
                x++;
                continue;
            }
            int start = x;
            while (x < m->width && cw__texel(m, x, y - 1) != cw__texel(m, x, y))
                x++;
            outline_segment(draw, &body->xf, start, y, x, y, item);
        }
    for (int x = 0; x <= m->width; x++)
        for (int y = 0; y < m->height;) {
            if (cw__texel(m, x - 1, y) == cw__texel(m, x, y)) {
                y++;
                continue;
            }
            int start = y;
            while (y < m->height && cw__texel(m, x - 1, y) != cw__texel(m, x, y))
                y++;
            outline_segment(draw, &body->xf, x, start, x, y, item);
        }
}

static void draw_id(const cw_debug_draw *draw, const cw__box *b, const cw_debug_item *item)
{
    char text[16];
    snprintf(text, sizeof text, "%u", (unsigned)item->body.index);
    draw->draw_text((cw_vec2){(b->min_x + b->max_x) / 2, (b->min_y + b->max_y) / 2}, text, item, draw->context);
}

static void draw_bodies(const cw_world *world, const cw_debug_draw *draw)
{
    const uint32_t f = draw->flags;
    for (uint32_t i = 1; i < world->slot_count; i++) {
        const cw__hot *hot = &world->hot[i];
        cw__box box = cw__body_box(world, i);
        if (hot->state != CW__ALIVE || hot->disabled || !visible(draw, &box))
            continue;
        if (f & CW_DRAW_AABBS) {
            cw_debug_item item = item_of(world, i, CW_DRAW_AABBS);
            draw_box_polygon(draw, &box, &item);
        }
        if ((f & CW_DRAW_BOXES) && hot->is_box) {
            cw_debug_item item = item_of(world, i, CW_DRAW_BOXES);
            const cw__obb obb = cw__unpack_obb(&hot->obb);
            draw_oriented_box(draw, &obb, &item);
        }
        if ((f & CW_DRAW_MASK_OUTLINES) && !hot->is_box) {
            cw_debug_item item = item_of(world, i, CW_DRAW_MASK_OUTLINES);
            draw_outline(draw, cw__mask_body(world, hot->mask_body), &item);
        }
        if ((f & CW_DRAW_IDS) && draw->draw_text != NULL) {
            cw_debug_item item = item_of(world, i, CW_DRAW_IDS);
            draw_id(draw, &box, &item);
        }
    }
}

typedef struct grid_walk {
    const cw_debug_draw *draw;
    int32_t cx0, cy0, cx1, cy1; // the drawn area's cells
    double size;
    bool occupied;
} grid_walk;

static bool note_member(void *context, uint32_t index)
{
    (void)index;
    ((grid_walk *)context)->occupied = true;
    return false; // one member is enough
}

static void draw_cell(void *context, int32_t cx, int32_t cy)
{
    const grid_walk *walk = context;
    if (cx < walk->cx0 || cx > walk->cx1 || cy < walk->cy0 || cy > walk->cy1)
        return;
    double size = walk->size;
    cw__box cell = {(float)(cx * size), (float)(cy * size), (float)((cx + 1.0) * size), (float)((cy + 1.0) * size)};
    cw_debug_item item = {.what = CW_DRAW_GRID};
    draw_box_polygon(walk->draw, &cell, &item);
}

// The cells over the drawn area (the view, or every live body's AABB) that hold bodies: the area's
// cells looked up one by one, in rows, or where the area has more cells than the grid holds (a view
// zoomed far out) the grid's occupied cells, each kept if it lies in the area.
static void draw_grid(const cw_world *world, const cw_debug_draw *draw)
{
    cw__box area = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    if (draw->use_bounds) {
        area = (cw__box){draw->bounds.min.x, draw->bounds.min.y, draw->bounds.max.x, draw->bounds.max.y};
    } else {
        for (uint32_t i = 1; i < world->slot_count; i++) {
            if (world->hot[i].state != CW__ALIVE || world->hot[i].disabled)
                continue;
            cw__box b = cw__body_box(world, i);
            area = (cw__box){fminf(area.min_x, b.min_x), fminf(area.min_y, b.min_y), fmaxf(area.max_x, b.max_x),
                             fmaxf(area.max_y, b.max_y)};
        }
    }
    if (!(area.min_x <= area.max_x && area.min_y <= area.max_y))
        return;
    const cw__grid *grid = &world->grid;
    grid_walk walk = {draw, cw__grid_cell_coord(grid, area.min_x), cw__grid_cell_coord(grid, area.min_y),
                      cw__grid_cell_coord(grid, area.max_x), cw__grid_cell_coord(grid, area.max_y), grid->cell_size, false};
    uint64_t area_cells = (uint64_t)((int64_t)walk.cx1 - walk.cx0 + 1) * (uint64_t)((int64_t)walk.cy1 - walk.cy0 + 1);
    if (area_cells > cw__grid_occupied_walk(grid)) {
        cw__grid_visit_occupied(grid, draw_cell, &walk);
        return;
    }
    for (int32_t cy = walk.cy0; cy <= walk.cy1; cy++)
        for (int32_t cx = walk.cx0; cx <= walk.cx1; cx++) {
            walk.occupied = false;
            cw__grid_visit_cell(grid, cx, cy, note_member, &walk);
            if (walk.occupied)
                draw_cell(&walk, cx, cy);
        }
}

// Each touching pair whose first body is drawn: its manifold as the last step found it (or, without
// kept manifolds, as the bodies are now; pairs that no longer overlap are left out).
static void draw_contacts(const cw_world *world, const cw_debug_draw *draw)
{
    const cw__touching *set = &world->touching[world->current];
    for (uint32_t p = 0; p < set->count; p++) {
        uint32_t a = cw__key_a(set->keys[p]), b = cw__key_b(set->keys[p]);
        cw__box box = cw__body_box(world, a);
        if (world->hot[a].state != CW__ALIVE || world->hot[b].state != CW__ALIVE || !visible(draw, &box))
            continue;
        cw_manifold m;
        if (set->manifolds != NULL) {
            m = set->manifolds[p];
        } else {
            cw__body scratch_a, scratch_b;
            if (!cw__overlap_bodies(cw__slot_body(world, a, &scratch_a), cw__slot_body(world, b, &scratch_b), &m))
                continue;
        }
        cw_debug_item item = item_of(world, a, CW_DRAW_CONTACTS);
        item.other = (cw_body_id){b, world->slots[b].generation};
        float length = m.depth > 1 ? m.depth : 1;
        draw->draw_point(m.point, 4, &item, draw->context);
        cw_vec2 tip = {m.point.x + length * m.normal.x, m.point.y + length * m.normal.y};
        draw->draw_segment(m.point, tip, &item, draw->context);
    }
}

bool cw_world_debug_draw(const cw_world *world, const cw_debug_draw *draw)
{
    if (!check_draw(world, draw))
        return false;
    if (draw->flags & CW_DRAW_GRID)
        draw_grid(world, draw);
    draw_bodies(world, draw);
    if (draw->flags & CW_DRAW_CONTACTS)
        draw_contacts(world, draw);
    return true;
}
