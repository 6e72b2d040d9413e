// Bodies: world:body{...}, body:set{...} / body.x = ..., frames and shapes, destroy, what a body
// touches. A body object keeps its world and its shape (and so a frame's sheet) alive, and holds
// the user's data; every change is parsed and checked before the first call that changes the world.
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lcw.h"

// What a def or set{} table asks for.
typedef struct body_changes {
    cw_transform transform;
    bool has_transform;
    int shape_idx; // stack index of the shape or frame object; 0 if none
    cw_shape shape;
    uint32_t category, collides_with;
    bool has_category, has_collides_with;
    int32_t group;
    bool has_group;
    bool swept, has_swept, enabled, has_enabled, is_static;
    int data_idx; // stack index of the data value; 0 if none
} body_changes;

static const char *const def_keys[] = {"shape", "frame", "x", "y", "rotation", "scale", "scale_x", "scale_y",
                                       "origin", "swept", "static", "category", "collides_with", "group",
                                       "enabled", "data", NULL};
static const char *const set_keys[] = {"shape", "frame", "x", "y", "rotation", "scale", "scale_x", "scale_y",
                                       "origin", "swept", "category", "collides_with", "group", "enabled",
                                       "data", NULL};

static void read_shape(lua_State *L, int idx, int arg, body_changes *c)
{
    lua_getfield(L, idx, "shape");
    lua_getfield(L, idx, "frame");
    bool has_shape = !lua_isnil(L, -2), has_frame = !lua_isnil(L, -1);
    if (has_shape && has_frame)
        luaL_argerror(L, arg, "give 'shape' or 'frame', not both");
    if (has_frame && luaL_testudata(L, -1, LCW_MASK) == NULL)
        luaL_argerror(L, arg, lua_pushfstring(L, "field 'frame': mask expected, got %s", luaL_typename(L, -1)));
    if (has_shape && !lcw_is_shape(L, -2))
        luaL_argerror(L, arg, lua_pushfstring(L, "field 'shape': shape (cw.box or a mask) expected, got %s",
                                              luaL_typename(L, -2)));
    if (!has_shape && !has_frame) {
        lua_pop(L, 2);
        return;
    }
    lua_remove(L, has_shape ? -1 : -2); // keep the one given on the stack for the caller
    c->shape_idx = lua_gettop(L);
    c->shape = lcw_check_shape(L, c->shape_idx);
}

static void read_changes(lua_State *L, int idx, int arg, bool is_def, body_changes *c)
{
    luaL_checktype(L, idx, LUA_TTABLE);
    lcw_check_keys(L, idx, arg, is_def ? def_keys : set_keys);
    c->has_transform = lcw_read_transform(L, idx, arg, &c->transform);
    read_shape(L, idx, arg, c);
    c->has_category = lcw_opt_u32_field(L, idx, arg, "category", &c->category);
    c->has_collides_with = lcw_opt_u32_field(L, idx, arg, "collides_with", &c->collides_with);
    lua_Number group;
    if ((c->has_group = lcw_opt_number_field(L, idx, arg, "group", &group))) {
        if (!(group >= -2147483648.0 && group <= 2147483647.0) || group != floor(group))
            luaL_argerror(L, arg, "field 'group': a 32-bit integer expected");
        c->group = (int32_t)group;
    }
    c->has_swept = lcw_opt_bool_field(L, idx, arg, "swept", &c->swept);
    c->has_enabled = lcw_opt_bool_field(L, idx, arg, "enabled", &c->enabled);
    if (is_def)
        lcw_opt_bool_field(L, idx, arg, "static", &c->is_static);
    lua_getfield(L, idx, "data");
    c->data_idx = lua_isnil(L, -1) ? 0 : lua_gettop(L);
    if (c->data_idx == 0)
        lua_pop(L, 1);
}

lcw_body *lcw_check_live_body(lua_State *L, int idx)
{
    lcw_body *body = luaL_checkudata(L, idx, LCW_BODY);
    if (body->world->world == NULL)
        luaL_error(L, "collworld: the body's world was closed");
    if (body->dead)
        luaL_error(L, "collworld: the body was destroyed");
    return body;
}

// Sets bodies[index] = body under pcall: the only step of world:body that can run out of memory
// after the C body exists (then the body is destroyed again and the error raised).
static int raw_set(lua_State *L)
{
    lua_rawset(L, 1);
    return 0;
}

// world:body{ shape = | frame =, x, y, rotation, scale, scale_x, scale_y, origin, swept, static,
// category, collides_with, group, enabled, data }
static int world_body(lua_State *L)
{
    lcw_world *lw = lcw_check_world(L, 1);
    body_changes c;
    memset(&c, 0, sizeof c);
    c.transform = cw_default_transform();
    read_changes(L, 2, 2, true, &c);
    if (c.shape_idx == 0)
        return luaL_argerror(L, 2, "field 'shape' or 'frame' expected");

    lcw_body *body = lua_newuserdata(L, sizeof *body);
    *body = (lcw_body){.id = {0, 0}, .world = lw, .pinned = NULL, .dead = true};
    luaL_setmetatable(L, LCW_BODY);
    int body_idx = lua_gettop(L);
    lua_createtable(L, LCW_B_DATA, 0);
    lua_pushvalue(L, 1), lua_rawseti(L, -2, LCW_B_WORLD);
    lua_pushvalue(L, c.shape_idx), lua_rawseti(L, -2, LCW_B_SHAPE);
    if (c.data_idx != 0) // the array part has all three slots from now on: setting them never allocates
        lua_pushvalue(L, c.data_idx), lua_rawseti(L, -2, LCW_B_DATA);
    else
        lua_pushnil(L), lua_rawseti(L, -2, LCW_B_DATA);
    lcw_setenv(L, body_idx);
    lcw_getenv(L, 1);
    lua_rawgeti(L, -1, LCW_W_BODIES);
    int bodies_idx = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1)); // allocate before the body exists
    lua_pushvalue(L, bodies_idx);

    cw_body_def def = cw_default_body_def();
    def.shape = c.shape, def.transform = c.transform, def.swept = c.swept, def.is_static = c.is_static;
    if (c.has_category)
        def.category = c.category;
    if (c.has_collides_with)
        def.collides_with = c.collides_with;
    if (c.has_group)
        def.group = c.group;
    cw_body_id id = cw_body_create(lw->world, &def);
    if (cw_body_id_is_null(id))
        return lcw_fail(L);
    if (c.has_enabled && !c.enabled)
        cw_body_set_enabled(lw->world, id, false);
    body->id = id, body->dead = false;
    body->pinned = lcw_test_mask(L, c.shape_idx);
    lcw_pin(body->pinned);
    lua_pushinteger(L, (lua_Integer)id.index);
    lua_pushvalue(L, body_idx);
    if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
        cw_body_destroy(lw->world, id); // never stepped: no events
        body->dead = true;
        lcw_unpin(body->pinned);
        body->pinned = NULL;
        return lua_error(L);
    }
    lua_pushvalue(L, body_idx);
    return 1;
}

static void set_env_slot(lua_State *L, int body_idx, int slot, int value_idx)
{
    lcw_getenv(L, body_idx);
    lua_pushvalue(L, value_idx);
    lua_rawseti(L, -2, slot); // the slots were made with the body: no allocation
    lua_pop(L, 1);
}

// After the world took the shape at `shape_idx`: the body holds it and pins it instead of the old.
static void keep_shape(lua_State *L, lcw_body *body, int body_idx, int shape_idx)
{
    lcw_mask *old = body->pinned;
    body->pinned = lcw_test_mask(L, shape_idx);
    lcw_pin(body->pinned); // first: the same mask again never drops to no users
    lcw_unpin(old);
    set_env_slot(L, body_idx, LCW_B_SHAPE, shape_idx);
}

// Applies a set{} table; everything is read and checked before the first change.
static int apply(lua_State *L, int body_idx, int table_idx, bool teleport)
{
    lcw_body *body = lcw_check_live_body(L, body_idx);
    cw_world *world = body->world->world;
    body_changes c;
    memset(&c, 0, sizeof c);
    c.transform = cw_body_transform(world, body->id);
    read_changes(L, table_idx, table_idx, false, &c);
    // Making a body swept may grow the world's list of swept bodies, so it goes first, undone
    // (which never fails) if the transform is refused.
    bool was_swept = cw_body_is_swept(world, body->id);
    if (c.has_swept && !cw_body_set_swept(world, body->id, c.swept)) // out of memory: nothing changed
        return lcw_fail(L);
    bool ok = true;
    if (c.has_transform || teleport)
        ok = teleport ? cw_body_teleport(world, body->id, &c.transform)
                      : cw_body_set_transform(world, body->id, &c.transform);
    if (!ok) { // a bad transform (NaN, a zero scale): nothing else changed yet
        cw_body_set_swept(world, body->id, was_swept);
        return lcw_fail(L);
    }
    if (c.shape_idx != 0 && cw_body_set_shape(world, body->id, &c.shape))
        keep_shape(L, body, body_idx, c.shape_idx);
    if (c.has_category || c.has_collides_with) {
        uint32_t category, collides_with;
        cw_body_filter(world, body->id, &category, &collides_with);
        cw_body_set_filter(world, body->id, c.has_category ? c.category : category,
                           c.has_collides_with ? c.collides_with : collides_with);
    }
    if (c.has_group)
        cw_body_set_group(world, body->id, c.group);
    if (c.has_enabled)
        cw_body_set_enabled(world, body->id, c.enabled);
    if (c.data_idx != 0)
        set_env_slot(L, body_idx, LCW_B_DATA, c.data_idx);
    return 0;
}

static int body_set(lua_State *L)
{
    return apply(L, 1, 2, false);
}

static int body_teleport(lua_State *L)
{
    return apply(L, 1, 2, true);
}

// body:move_to(x, y [, rotation]): the per-frame move without a table (a fraction of set{}'s cost).
static int body_move_to(lua_State *L)
{
    lcw_body *body = lcw_check_live_body(L, 1);
    cw_world *world = body->world->world;
    cw_transform t = cw_body_transform(world, body->id);
    t.position.x = (float)luaL_checknumber(L, 2);
    t.position.y = (float)luaL_checknumber(L, 3);
    if (!lua_isnoneornil(L, 4))
        t.rotation = (float)luaL_checknumber(L, 4);
    if (!cw_body_set_transform(world, body->id, &t))
        return lcw_fail(L);
    return 0;
}

// list[k] as a number, or an argument error naming the index.
static float number_at(lua_State *L, int list, int arg, lua_Integer k)
{
    lua_rawgeti(L, list, k);
    int is_number;
    lua_Number v = lua_tonumberx(L, -1, &is_number);
    if (!is_number)
        luaL_argerror(L, arg, lua_pushfstring(L, "number expected at index %d, got %s", (int)k, luaL_typename(L, -1)));
    lua_pop(L, 1);
    return (float)v;
}

// bodies[k], a live body of the world `lw`, or an argument error naming the index.
static const lcw_body *body_at(lua_State *L, const lcw_world *lw, lua_Integer k)
{
    lua_rawgeti(L, 2, k);
    const lcw_body *body = luaL_testudata(L, -1, LCW_BODY);
    if (body == NULL)
        luaL_argerror(L, 2, lua_pushfstring(L, "body expected at index %d, got %s", (int)k, luaL_typename(L, -1)));
    if (body->world != lw)
        luaL_argerror(L, 2, lua_pushfstring(L, "the body at index %d belongs to another world", (int)k));
    if (body->dead)
        luaL_argerror(L, 2, lua_pushfstring(L, "the body at index %d was destroyed", (int)k));
    lua_pop(L, 1);
    return body;
}

// world:move_all(bodies, xs, ys [, rotations]): bodies[k]:move_to(xs[k], ys[k] [, rotations[k]])
// for every k in one call (cw_world_set_transforms): every entry is read and checked before any
// body moves, and a long list is placed on the world's workers. A script's loop then only fills
// arrays, which LuaJIT compiles (a call into C per body stops it).
static int world_move_all(lua_State *L)
{
    lcw_world *lw = lcw_check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TTABLE);
    luaL_checktype(L, 4, LUA_TTABLE);
    const bool turn = !lua_isnoneornil(L, 5);
    if (turn)
        luaL_checktype(L, 5, LUA_TTABLE);
    const size_t n = lcw_rawlen(L, 2);
    if (n > (size_t)INT_MAX)
        luaL_argerror(L, 2, "too many bodies");
    void *ids = lw->move_ids, *to = lw->move_to; // the lists kept for the next call
    const bool room = lcw_grow(L, &ids, &lw->move_ids_capacity, sizeof *lw->move_ids, n, 64);
    lw->move_ids = ids;
    if (!room || !lcw_grow(L, &to, &lw->move_to_capacity, sizeof *lw->move_to, n, 64))
        luaL_error(L, "collworld: out of memory"); // before any change to the world
    lw->move_to = to;
    for (size_t i = 0; i < n; i++) {
        const lua_Integer k = (lua_Integer)i + 1;
        const lcw_body *body = body_at(L, lw, k);
        cw_transform t = cw_body_transform(lw->world, body->id);
        t.position.x = number_at(L, 3, 3, k);
        t.position.y = number_at(L, 4, 4, k);
        if (turn)
            t.rotation = number_at(L, 5, 5, k);
        lw->move_ids[i] = body->id, lw->move_to[i] = t;
    }
    if (cw_world_set_transforms(lw->world, lw->move_ids, lw->move_to, (int)n))
        return 0;
    // Entries are counted from 0 in the library's sentence and from 1 in Lua.
    const char *error = cw_last_error();
    int entry, rest = 0;
    if (sscanf(error, "Entry %d of the list %n", &entry, &rest) == 1 && rest > 0)
        return luaL_error(L, "collworld: entry %d of the list %s", entry + 1, error + rest);
    return lcw_fail(L);
}

// body:set_frame(mask) / body:set_shape(shape)
static int body_set_shape(lua_State *L)
{
    lcw_body *body = lcw_check_live_body(L, 1);
    cw_shape shape = lcw_check_shape(L, 2);
    if (!cw_body_set_shape(body->world->world, body->id, &shape))
        return lcw_fail(L);
    keep_shape(L, body, 1, 2);
    return 0;
}

static int body_set_frame(lua_State *L)
{
    luaL_checkudata(L, 2, LCW_MASK);
    return body_set_shape(L);
}

// body:destroy(): ends follow at the next step (the object is passed to on_end); a second call,
// or a call after the world closed, does nothing.
static int body_destroy(lua_State *L)
{
    lcw_destroy_body(L, 1);
    return 0;
}

static int body_is_valid(lua_State *L)
{
    const lcw_body *body = luaL_checkudata(L, 1, LCW_BODY);
    lua_pushboolean(L, !body->dead && body->world->world != NULL);
    return 1;
}

static int body_position(lua_State *L)
{
    const lcw_body *body = lcw_check_live_body(L, 1);
    cw_transform t = cw_body_transform(body->world->world, body->id);
    lua_pushnumber(L, t.position.x);
    lua_pushnumber(L, t.position.y);
    return 2;
}

static int body_transform(lua_State *L)
{
    const lcw_body *body = lcw_check_live_body(L, 1);
    cw_transform t = cw_body_transform(body->world->world, body->id);
    lua_createtable(L, 0, 6);
    lua_pushnumber(L, t.position.x), lua_setfield(L, -2, "x");
    lua_pushnumber(L, t.position.y), lua_setfield(L, -2, "y");
    lua_pushnumber(L, t.rotation), lua_setfield(L, -2, "rotation");
    lua_pushnumber(L, t.scale.x), lua_setfield(L, -2, "scale_x");
    lua_pushnumber(L, t.scale.y), lua_setfield(L, -2, "scale_y");
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, t.origin.x), lua_rawseti(L, -2, 1);
    lua_pushnumber(L, t.origin.y), lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "origin");
    return 1;
}

static int body_aabb(lua_State *L)
{
    const lcw_body *body = lcw_check_live_body(L, 1);
    cw_aabb box;
    if (!cw_body_aabb(body->world->world, body->id, &box))
        return lcw_fail(L);
    lua_pushnumber(L, box.min.x), lua_pushnumber(L, box.min.y);
    lua_pushnumber(L, box.max.x), lua_pushnumber(L, box.max.y);
    return 4;
}

// body:touching() -> the bodies it touches after the last step, in index order;
// body:contacts() -> the same as { body =, x, y, nx, ny, depth } (normals toward the other body,
// zero unless the world keeps stays' manifolds).
static int touching_list(lua_State *L, bool contacts)
{
    const lcw_body *body = lcw_check_live_body(L, 1);
    cw_world *world = body->world->world;
    int n = cw_body_touching(world, body->id, NULL, 0);
    if (n < 0) // out of memory building the world's body index (its first call)
        return lcw_fail(L);
    cw_touch *touches = lua_newuserdata(L, (size_t)(n > 0 ? n : 1) * sizeof *touches);
    n = cw_body_touching(world, body->id, touches, n);
    lua_getfield(L, 1, "world");
    int world_idx = lua_gettop(L);
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) {
        if (contacts) {
            lua_createtable(L, 0, 6);
            lcw_push_body(L, world_idx, touches[k].body);
            lua_setfield(L, -2, "body");
            lcw_set_manifold(L, &touches[k].manifold);
        } else {
            lcw_push_body(L, world_idx, touches[k].body);
        }
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

static int body_touching(lua_State *L)
{
    return touching_list(L, false);
}

static int body_contacts(lua_State *L)
{
    return touching_list(L, true);
}

// body:id() -> index, generation (stable for the body's life; for logs and saves)
static int body_id(lua_State *L)
{
    const lcw_body *body = luaL_checkudata(L, 1, LCW_BODY);
    lua_pushinteger(L, (lua_Integer)body->id.index);
    lua_pushinteger(L, (lua_Integer)body->id.generation);
    return 2;
}

// Properties read as fields: body.data and body.world always; the rest of a live body.
static bool push_property(lua_State *L, const lcw_body *body, const char *key)
{
    cw_world *world = body->world->world;
    if (strcmp(key, "swept") == 0)
        lua_pushboolean(L, cw_body_is_swept(world, body->id));
    else if (strcmp(key, "static") == 0)
        lua_pushboolean(L, cw_body_is_static(world, body->id));
    else if (strcmp(key, "enabled") == 0)
        lua_pushboolean(L, cw_body_is_enabled(world, body->id));
    else if (strcmp(key, "group") == 0)
        lua_pushinteger(L, cw_body_group(world, body->id));
    else if (strcmp(key, "category") == 0 || strcmp(key, "collides_with") == 0) {
        uint32_t category, collides_with;
        cw_body_filter(world, body->id, &category, &collides_with);
        lua_pushinteger(L, (lua_Integer)(strcmp(key, "category") == 0 ? category : collides_with));
    } else {
        cw_transform t = cw_body_transform(world, body->id);
        const struct {
            const char *name;
            float value;
        } numbers[] = {{"x", t.position.x},     {"y", t.position.y},     {"rotation", t.rotation},
                       {"scale_x", t.scale.x},  {"scale_y", t.scale.y}};
        for (size_t k = 0; k < sizeof numbers / sizeof numbers[0]; k++)
            if (strcmp(key, numbers[k].name) == 0) {
                lua_pushnumber(L, numbers[k].value);
                return true;
            }
        return false;
    }
    return true;
}

static int body_index(lua_State *L)
{
    const lcw_body *body = luaL_checkudata(L, 1, LCW_BODY);
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(1)); // methods first
    if (!lua_isnil(L, -1) || lua_type(L, 2) != LUA_TSTRING)
        return 1;
    const char *key = lua_tostring(L, 2);
    int slot = strcmp(key, "data") == 0 ? LCW_B_DATA : strcmp(key, "world") == 0 ? LCW_B_WORLD
                                                     : strcmp(key, "shape") == 0 ? LCW_B_SHAPE : 0;
    if (slot != 0) {
        lcw_getenv(L, 1);
        lua_rawgeti(L, -1, slot);
        return 1;
    }
    lcw_check_live_body(L, 1);
    if (!push_property(L, body, key))
        return luaL_error(L, "collworld: a body has no field '%s' (keep your own values in body.data)", key);
    return 1;
}

// body.data = v always works; body.x = 5 (and the other fields of set{}) is body:set{ x = 5 }.
static int body_newindex(lua_State *L)
{
    luaL_checkudata(L, 1, LCW_BODY);
    if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "data") == 0) {
        set_env_slot(L, 1, LCW_B_DATA, 3);
        return 0;
    }
    lua_settop(L, 3);
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, 4);
    return apply(L, 1, 4, false);
}

static int body_eq(lua_State *L)
{
    const lcw_body *a = luaL_testudata(L, 1, LCW_BODY), *b = luaL_testudata(L, 2, LCW_BODY);
    lua_pushboolean(L, a != NULL && b != NULL && a->world == b->world && a->id.index == b->id.index &&
                           a->id.generation == b->id.generation);
    return 1;
}

static int body_tostring(lua_State *L)
{
    const lcw_body *body = luaL_checkudata(L, 1, LCW_BODY);
    lua_pushfstring(L, "collworld.body #%d%s", (int)body->id.index, body->dead ? " (destroyed)" : "");
    return 1;
}

void lcw_open_bodies(lua_State *L, int world_methods)
{
    static const luaL_Reg methods[] = {{"set", body_set},
                                       {"teleport", body_teleport},
                                       {"move_to", body_move_to},
                                       {"set_frame", body_set_frame},
                                       {"set_shape", body_set_shape},
                                       {"destroy", body_destroy},
                                       {"is_valid", body_is_valid},
                                       {"position", body_position},
                                       {"transform", body_transform},
                                       {"aabb", body_aabb},
                                       {"touching", body_touching},
                                       {"contacts", body_contacts},
                                       {"id", body_id},
                                       {NULL, NULL}};
    luaL_newmetatable(L, LCW_BODY);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_pushcclosure(L, body_index, 1);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, body_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, body_eq);
    lua_setfield(L, -2, "__eq");
    lua_pushcfunction(L, body_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushliteral(L, "collworld");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
    lua_pushcfunction(L, raw_set);
    lua_pushcclosure(L, world_body, 1);
    lua_setfield(L, world_methods, "body");
    lua_pushcfunction(L, world_move_all);
    lua_setfield(L, world_methods, "move_all");
}
