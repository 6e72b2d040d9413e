// Placed shapes for Lua: cw.place(shape, t) checks and prepares one placement (cw_place), and
// placed:overlaps(other [, want_contact]) tests two of them exactly as cw.overlap tests the shapes
// and transforms they were made from (cw_placed_overlap), without redoing that work on every call.
#include "lcw.h"

#define LCW_PLACED "collworld.placed"

typedef struct lcw_placed {
    cw_placed placed;
    const lcw_mask *mask; // the mask object it was made from (NULL for a box), held by its environment
} lcw_placed;

// cw.place(shape, t) -> placed. The placement borrows the shape's mask, so its environment keeps
// the shape object (and through a frame's, its sheet) alive as long as the placement is.
static int place(lua_State *L)
{
    cw_shape shape = lcw_check_shape(L, 1); // arguments checked in their order
    cw_transform t = lcw_check_transform(L, 2);
    lcw_placed *ud = lua_newuserdata(L, sizeof *ud);
    ud->mask = lcw_test_mask(L, 1);
    luaL_setmetatable(L, LCW_PLACED);
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    lcw_setenv(L, -2);
    if (!cw_place(&shape, &t, &ud->placed))
        return lcw_fail(L); // the unfinished object is dropped with the error: nothing can reach it
    return 1;
}

// placed:overlaps(other [, want_contact]) -> whether they overlap (and the contact, from self's
// side, when asked and they do)
// A placement whose mask object was collected: its __gc ran in the collection that found neither
// reachable, and a finaliser that ran after it kept the placement.
static const lcw_placed *check_placed(lua_State *L, int arg)
{
    const lcw_placed *placed = luaL_checkudata(L, arg, LCW_PLACED);
    if (placed->mask != NULL && placed->mask->collected)
        luaL_argerror(L, arg, "the placed shape's mask was freed");
    return placed;
}

static int placed_overlaps(lua_State *L)
{
    const lcw_placed *a = check_placed(L, 1);
    const lcw_placed *b = check_placed(L, 2);
    bool want = lua_toboolean(L, 3);
    cw_manifold m;
    cw_clear_error();
    bool hit = cw_placed_overlap(&a->placed, &b->placed, want ? &m : NULL);
    return lcw_push_overlap(L, hit, want, &m);
}

// placed:shape() -> the shape object it was made from
static int placed_shape(lua_State *L)
{
    luaL_checkudata(L, 1, LCW_PLACED);
    lcw_getenv(L, 1);
    lua_rawgeti(L, -1, 1);
    return 1;
}

static int placed_tostring(lua_State *L)
{
    luaL_checkudata(L, 1, LCW_PLACED);
    lua_pushliteral(L, "collworld.placed");
    return 1;
}

void lcw_open_placed(lua_State *L)
{
    static const luaL_Reg meta[] = {{"__tostring", placed_tostring}, {NULL, NULL}};
    static const luaL_Reg methods[] = {{"overlaps", placed_overlaps}, {"shape", placed_shape}, {NULL, NULL}};
    static const luaL_Reg functions[] = {{"place", place}, {NULL, NULL}};
    lcw_new_type(L, LCW_PLACED, meta, methods);
    lua_pop(L, 1);
    luaL_setfuncs(L, functions, 0);
}
