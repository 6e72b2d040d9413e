// Queries from Lua: the C query gathers ids (and contacts) into the world's scratch without
// touching Lua (a query callback may not raise); the answers become Lua values after it returns,
// sorted (by body index, or by fraction then index) so a script sees the same order every run.
#include <stdlib.h>
#include <string.h>

#include "lcw.h"

static bool keep(lcw_world *lw, cw_body_id body, const cw_manifold *manifold, float fraction)
{
    void *found = lw->found;
    if (!lcw_grow(lw->query_L, &found, &lw->found_capacity, sizeof *lw->found, lw->found_count + 1, 64)) {
        lw->found_overflow = true;
        return false;
    }
    lw->found = found;
    lcw_found *f = &lw->found[lw->found_count++];
    memset(f, 0, sizeof *f);
    f->body = body, f->fraction = fraction, f->has_manifold = manifold != NULL;
    if (manifold != NULL)
        f->manifold = *manifold;
    return true;
}

static bool on_body(cw_body_id body, void *user_data, const cw_manifold *manifold, void *context)
{
    (void)user_data;
    return keep(context, body, manifold, 0);
}

static float on_hit(const cw_ray_hit *hit, void *context)
{
    cw_manifold m = {hit->point, hit->normal, 0};
    return keep(context, hit->body, &m, hit->fraction) ? 1.0f : 0.0f;
}

static int by_index(const void *a, const void *b)
{
    uint32_t x = ((const lcw_found *)a)->body.index, y = ((const lcw_found *)b)->body.index;
    return (x > y) - (x < y);
}

static int by_fraction(const void *a, const void *b)
{
    float x = ((const lcw_found *)a)->fraction, y = ((const lcw_found *)b)->fraction;
    return x < y ? -1 : x > y ? 1 : by_index(a, b);
}

static lcw_world *begin_query(lua_State *L)
{
    lcw_world *lw = lcw_check_world(L, 1);
    lw->found_count = 0, lw->found_overflow = false;
    lw->query_L = L;
    cw_clear_error();
    return lw;
}

// After the C query: raise for bad input or a scratch that could not grow.
static void end_query(lua_State *L, lcw_world *lw, bool ok)
{
    if (!ok && cw_last_error()[0] != '\0')
        lcw_fail(L);
    if (lw->found_overflow)
        luaL_error(L, "collworld: out of memory while gathering the query's answers");
}

static void push_hit(lua_State *L, const lcw_found *f)
{
    lua_createtable(L, 0, 6);
    lcw_push_body(L, 1, f->body);
    lua_setfield(L, -2, "body");
    lua_pushnumber(L, f->manifold.point.x), lua_setfield(L, -2, "x");
    lua_pushnumber(L, f->manifold.point.y), lua_setfield(L, -2, "y");
    lua_pushnumber(L, f->manifold.normal.x), lua_setfield(L, -2, "nx");
    lua_pushnumber(L, f->manifold.normal.y), lua_setfield(L, -2, "ny");
    lua_pushnumber(L, f->fraction), lua_setfield(L, -2, "fraction");
}

static int iterate(lua_State *L)
{
    lua_Integer k = lua_tointeger(L, lua_upvalueindex(3)) + 1;
    lua_pushinteger(L, k);
    lua_replace(L, lua_upvalueindex(3));
    lua_rawgeti(L, lua_upvalueindex(1), (int)k);
    lua_rawgeti(L, lua_upvalueindex(2), (int)k);
    return 2;
}

// Returns an iterator over the found bodies (and, if kept, their contacts), in index order.
static int push_body_iterator(lua_State *L, lcw_world *lw)
{
    qsort(lw->found, lw->found_count, sizeof *lw->found, by_index);
    lua_createtable(L, (int)lw->found_count, 0);
    lua_createtable(L, 0, 0);
    for (size_t k = 0; k < lw->found_count; k++) {
        lcw_push_body(L, 1, lw->found[k].body);
        lua_rawseti(L, -3, (int)k + 1);
        if (lw->found[k].has_manifold) {
            lua_createtable(L, 0, 5);
            lcw_set_manifold(L, &lw->found[k].manifold);
            lua_rawseti(L, -2, (int)k + 1);
        }
    }
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, iterate, 3);
    return 1;
}

// for body in world:query_point(x, y [, filter]) do ... end
static int query_point(lua_State *L)
{
    lcw_world *lw = begin_query(L);
    cw_vec2 p = lcw_check_vec2(L, 2);
    cw_query_filter filter = lcw_opt_filter(L, 4);
    end_query(L, lw, cw_world_query_point(lw->world, p, filter, on_body, lw));
    return push_body_iterator(L, lw);
}

// for body in world:query_box(min_x, min_y, max_x, max_y [, filter]) do ... end (AABBs)
static int query_box(lua_State *L)
{
    lcw_world *lw = begin_query(L);
    const cw_vec2 min = lcw_check_vec2(L, 2), max = lcw_check_vec2(L, 4);
    cw_aabb box = {min, max};
    cw_query_filter filter = lcw_opt_filter(L, 6);
    end_query(L, lw, cw_world_query_aabb(lw->world, box, filter, on_body, lw));
    return push_body_iterator(L, lw);
}

// Shape and transform arguments at `arg`, `arg + 1` (a transform table of x, y, rotation, ...).
static void check_placed_shape(lua_State *L, int arg, cw_shape *shape, cw_transform *t)
{
    *shape = lcw_check_shape(L, arg);
    *t = lcw_check_transform(L, arg + 1);
}

// for body, contact in world:query_shape(shape, transform [, filter [, want_contacts]]) do ... end
static int query_shape(lua_State *L)
{
    lcw_world *lw = begin_query(L);
    cw_shape shape;
    cw_transform t;
    check_placed_shape(L, 2, &shape, &t);
    cw_query_filter filter = lcw_opt_filter(L, 4);
    bool want = lua_toboolean(L, 5);
    end_query(L, lw, cw_world_query_shape(lw->world, &shape, &t, filter, want, on_body, lw));
    return push_body_iterator(L, lw);
}

// The hits of a ray or shape cast: the closest (or nil), or all as a list ordered by fraction.
static int push_hits(lua_State *L, lcw_world *lw, bool all)
{
    qsort(lw->found, lw->found_count, sizeof *lw->found, by_fraction);
    if (!all) {
        if (lw->found_count == 0)
            return 0;
        push_hit(L, &lw->found[0]);
        return 1;
    }
    lua_createtable(L, (int)lw->found_count, 0);
    for (size_t k = 0; k < lw->found_count; k++) {
        push_hit(L, &lw->found[k]);
        lua_rawseti(L, -2, (int)k + 1);
    }
    return 1;
}

static int raycast_with(lua_State *L, bool all)
{
    lcw_world *lw = begin_query(L);
    cw_vec2 o = lcw_check_vec2(L, 2);
    cw_vec2 d = lcw_check_vec2(L, 4);
    cw_query_filter filter = lcw_opt_filter(L, 6);
    if (!all) {
        cw_ray_hit hit;
        bool found = cw_world_raycast_closest(lw->world, o, d, filter, &hit);
        if (found)
            on_hit(&hit, lw);
        end_query(L, lw, found);
    } else {
        end_query(L, lw, cw_world_raycast(lw->world, o, d, filter, on_hit, lw));
    }
    return push_hits(L, lw, all);
}

// world:raycast(x, y, dx, dy [, filter]) -> nil or { body, x, y, nx, ny, fraction }
static int raycast(lua_State *L)
{
    return raycast_with(L, false);
}

// world:raycast_all(x, y, dx, dy [, filter]) -> every hit, by fraction
static int raycast_all(lua_State *L)
{
    return raycast_with(L, true);
}

static int cast_with(lua_State *L, bool all)
{
    lcw_world *lw = begin_query(L);
    cw_shape shape;
    cw_transform t;
    check_placed_shape(L, 2, &shape, &t);
    cw_vec2 d = lcw_check_vec2(L, 4);
    cw_query_filter filter = lcw_opt_filter(L, 6);
    if (!all) {
        cw_ray_hit hit;
        bool found = cw_world_cast_shape_closest(lw->world, &shape, &t, d, filter, &hit);
        if (found)
            on_hit(&hit, lw);
        end_query(L, lw, found);
    } else {
        end_query(L, lw, cw_world_cast_shape(lw->world, &shape, &t, d, filter, on_hit, lw));
    }
    return push_hits(L, lw, all);
}

// world:cast(shape, transform, dx, dy [, filter]) -> nil or the first hit
static int cast(lua_State *L)
{
    return cast_with(L, false);
}

// world:cast_all(shape, transform, dx, dy [, filter]) -> every body the moving shape touches
static int cast_all(lua_State *L)
{
    return cast_with(L, true);
}

void lcw_open_queries(lua_State *L, int world_methods)
{
    static const luaL_Reg methods[] = {{"query_point", query_point}, {"query_box", query_box},
                                       {"query_shape", query_shape}, {"raycast", raycast},
                                       {"raycast_all", raycast_all}, {"cast", cast},
                                       {"cast_all", cast_all},       {NULL, NULL}};
    lua_pushvalue(L, world_methods);
    luaL_setfuncs(L, methods, 0);
    lua_pop(L, 1);
}
