// cw.world{...} and the world object: contact callbacks run under pcall (an error is kept and
// raised by world:step() once the step is complete), step, events, stats, close / __gc / __close.
#include <limits.h>
#include <string.h>

#include "lcw.h"

void *lcw_realloc(lua_State *L, void *memory, size_t old_size, size_t new_size)
{
    void *ud;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    return alloc(ud, memory, old_size, new_size);
}

lcw_world *lcw_check_world(lua_State *L, int idx)
{
    lcw_world *lw = luaL_checkudata(L, idx, LCW_WORLD);
    if (lw->world == NULL)
        luaL_error(L, "collworld: the world was closed");
    return lw;
}

// Pushes table[index] if it is the body `id` (same generation); returns whether it was.
static bool push_if_body(lua_State *L, int table_idx, cw_body_id id)
{
    lua_rawgeti(L, table_idx, (int)id.index);
    const lcw_body *body = lua_touserdata(L, -1);
    if (body != NULL && body->id.generation == id.generation)
        return true;
    lua_pop(L, 1);
    return false;
}

void lcw_push_body(lua_State *L, int world_idx, cw_body_id id)
{
    lcw_getenv(L, world_idx);
    lua_rawgeti(L, -1, LCW_W_BODIES);
    lua_rawgeti(L, -2, LCW_W_GRAVE);
    int top = lua_gettop(L);
    if (!push_if_body(L, top - 1, id) && !push_if_body(L, top, id))
        lua_pushnil(L);
    lua_replace(L, top - 2);
    lua_pop(L, 2);
}

bool lcw_grow(lua_State *L, void **list, size_t *capacity, size_t size, size_t needed, size_t first)
{
    if (needed <= *capacity)
        return true;
    size_t grown = *capacity ? *capacity : first;
    while (grown < needed)
        grown *= 2;
    void *memory = lcw_realloc(L, *list, *capacity * size, grown * size);
    if (memory == NULL)
        return false;
    *list = memory, *capacity = grown;
    return true;
}

static void reserve_dying(lua_State *L, lcw_world *lw)
{
    void *dying = lw->dying;
    if (!lcw_grow(L, &dying, &lw->dying_capacity, sizeof *lw->dying, lw->dying_count + 1, 16))
        luaL_error(L, "collworld: out of memory");
    lw->dying = dying;
}

void lcw_destroy_body(lua_State *L, int body_idx)
{
    lcw_body *body = luaL_checkudata(L, body_idx, LCW_BODY);
    lcw_world *lw = body->world;
    if (body->dead || lw->world == NULL)
        return;
    reserve_dying(L, lw);
    lcw_getenv(L, body_idx);
    lua_rawgeti(L, -1, LCW_B_WORLD);
    lcw_getenv(L, -1);
    lua_rawgeti(L, -1, LCW_W_GRAVE);
    lua_pushvalue(L, body_idx);
    lua_rawseti(L, -2, (int)body->id.index); // the one step that may allocate: before any change
    lua_rawgeti(L, -2, LCW_W_BODIES);
    lua_pushnil(L);
    lua_rawseti(L, -2, (int)body->id.index);
    lua_pop(L, 5);
    cw_body_destroy(lw->world, body->id);
    body->dead = true;
    lcw_unpin(body->pinned); // the world no longer reads its mask
    body->pinned = NULL;
    // Destroyed between steps: the next step reports its ends. From a callback: the step after.
    lw->dying[lw->dying_count++] = (lcw_dying){body->id.index, body->id.generation, lw->steps + (lw->stepping ? 2 : 1)};
}

// Before a step: forget the destroyed bodies whose ends an earlier step reported (and whose
// events world:events() could still name until now). Setting a key to nil never allocates.
static void release_dying(lua_State *L, lcw_world *lw, int world_idx)
{
    lcw_getenv(L, world_idx);
    lua_rawgeti(L, -1, LCW_W_GRAVE);
    int grave = lua_gettop(L);
    size_t kept = 0;
    for (size_t k = 0; k < lw->dying_count; k++) {
        lcw_dying d = lw->dying[k];
        if (d.release_after > lw->steps) {
            lw->dying[kept++] = d;
        } else if (push_if_body(L, grave, (cw_body_id){d.index, d.generation})) {
            lua_pop(L, 1);
            lua_pushnil(L);
            lua_rawseti(L, grave, (int)d.index);
        }
    }
    lw->dying_count = kept;
    lua_pop(L, 2);
}

// --- contact callbacks ---

enum { KIND_BEGIN, KIND_STAY, KIND_END };

typedef struct pending_event {
    const cw_contact *contact;
    int kind;
} pending_event;

// Runs under lua_pcall: (world, event) -> calls the Lua callback with a, b and the contact.
static int dispatch(lua_State *L)
{
    const pending_event *event = lua_touserdata(L, 2);
    lcw_getenv(L, 1);
    lua_rawgeti(L, -1, LCW_W_ON_BEGIN + event->kind);
    if (!lua_isfunction(L, -1))
        return 0;
    const cw_contact *c = event->contact;
    lcw_push_body(L, 1, c->a);
    lcw_push_body(L, 1, c->b);
    lua_createtable(L, 0, 6);
    lcw_set_manifold(L, &c->manifold);
    lua_pushnumber(L, c->fraction);
    lua_setfield(L, -2, "fraction");
    lua_call(L, 3, 0);
    return 0;
}

// The message handler: a string error gains its traceback.
static int traceback(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TSTRING)
        luaL_traceback(L, L, lua_tostring(L, 1), 1);
    return 1;
}

// Called by cw_world_step() from inside world:step(): the world is at index 1 of that frame, and
// the step closure's upvalues hold the handler and dispatch (pushing them allocates nothing).
static void deliver(lcw_world *lw, const cw_contact *contact, int kind)
{
    if (!lw->has_callback[kind])
        return;
    lua_State *L = lw->L;
    if (!lua_checkstack(L, 8)) {
        lw->errors++; // the callback cannot even be called: counted, the step goes on
        return;
    }
    pending_event event = {contact, kind};
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 1);
    lua_pushlightuserdata(L, &event);
    if (lua_pcall(L, 2, 0, -4) != LUA_OK) {
        if (lw->errors++ == 0) {
            lcw_getenv(L, 1);
            lua_pushvalue(L, -2);
            lua_rawseti(L, -2, LCW_W_ERROR); // the slot exists: no allocation
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    cw_clear_error(); // what a callback's failed call left is not the step's failure
}

static void on_begin(const cw_contact *contact, void *context)
{
    deliver(context, contact, KIND_BEGIN);
}

static void on_stay(const cw_contact *contact, void *context)
{
    deliver(context, contact, KIND_STAY);
}

static void on_end(const cw_contact *contact, void *context)
{
    deliver(context, contact, KIND_END);
}

// --- the world ---

static void set_callback(lua_State *L, int world_idx, int slot, int fn_idx)
{
    if (fn_idx < 0)
        fn_idx = lua_gettop(L) + fn_idx + 1;
    if (!lua_isnil(L, fn_idx))
        luaL_checktype(L, fn_idx, LUA_TFUNCTION);
    lcw_getenv(L, world_idx);
    if (lua_isnil(L, fn_idx))
        lua_pushboolean(L, false);
    else
        lua_pushvalue(L, fn_idx);
    lua_rawseti(L, -2, slot);
    lua_pop(L, 1);
    lcw_world *lw = lua_touserdata(L, world_idx);
    lw->has_callback[slot - LCW_W_ON_BEGIN] = !lua_isnil(L, fn_idx);
}

// A count of bodies a world can make room for (body_capacity, world:reserve): a whole number from
// 0 to 2,147,483,646 (the range is checked before the conversion, which NaN or a huge value breaks).
static bool is_body_count(lua_Number n) { return n >= 0 && n < INT_MAX && n == (int)n; }

// cw.world{ cell_size =, manifolds =, stay_manifolds =, stays =, event_arrays =, workers =, max_pairs =,
//           id_tag =, body_capacity =, on_begin =, on_stay =, on_end = }
static int world_new(lua_State *L)
{
    static const char *const keys[] = {"cell_size", "manifolds", "stay_manifolds", "stays", "event_arrays", "workers",
                                       "max_pairs", "id_tag", "body_capacity", "on_begin", "on_stay", "on_end", NULL};
    if (lua_isnoneornil(L, 1)) {
        lua_settop(L, 0);
        lua_newtable(L);
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lcw_check_keys(L, 1, 1, keys);
    cw_world_def def = cw_default_world_def();
    lua_Number cell;
    if (lcw_opt_number_field(L, 1, 1, "cell_size", &cell))
        def.cell_size = (float)cell;
    lcw_opt_bool_field(L, 1, 1, "manifolds", &def.manifolds);
    lcw_opt_bool_field(L, 1, 1, "stay_manifolds", &def.stay_manifolds);
    lcw_opt_bool_field(L, 1, 1, "event_arrays", &def.event_arrays);
    lua_Number workers;
    if (lcw_opt_number_field(L, 1, 1, "workers", &workers)) { // the world's own threads; callbacks stay on this one
        if (!(workers >= 1 && workers <= CW_MAX_WORKERS && workers == (int)workers))
            luaL_argerror(L, 1, "field 'workers' must be an integer from 1 to 64");
        def.worker_count = (int)workers;
    }
    lua_Number max_pairs, id_tag;
    if (lcw_opt_number_field(L, 1, 1, "max_pairs", &max_pairs)) { // more candidate pairs fail the step
        if (!(max_pairs >= 1 && max_pairs <= INT_MAX && max_pairs == (int)max_pairs))
            luaL_argerror(L, 1, "field 'max_pairs' must be an integer from 1 to 2147483647");
        def.max_pairs = (int)max_pairs;
    }
    if (lcw_opt_number_field(L, 1, 1, "id_tag", &id_tag)) { // worlds with different tags reject each other's ids
        if (!(id_tag >= 0 && id_tag <= 255 && id_tag == (int)id_tag))
            luaL_argerror(L, 1, "field 'id_tag' must be an integer from 0 to 255");
        def.id_tag = (uint8_t)id_tag;
    }
    lua_Number capacity;
    if (lcw_opt_number_field(L, 1, 1, "body_capacity", &capacity)) { // room for this many bodies, made now
        if (!is_body_count(capacity))
            luaL_argerror(L, 1, "field 'body_capacity' must be an integer from 0 to 2147483646");
        def.body_capacity = (int)capacity;
    }
    bool stays = false;
    lcw_opt_bool_field(L, 1, 1, "stays", &stays);
    lua_getfield(L, 1, "on_stay");
    stays |= !lua_isnil(L, -1);
    lua_pop(L, 1);

    lcw_world *lw = lua_newuserdata(L, sizeof *lw);
    memset(lw, 0, sizeof *lw);
    luaL_setmetatable(L, LCW_WORLD);
    int world_idx = lua_gettop(L);
    lua_createtable(L, LCW_W_ERROR, 0);
    lua_newtable(L);
    lua_rawseti(L, -2, LCW_W_BODIES);
    lua_newtable(L);
    lua_rawseti(L, -2, LCW_W_GRAVE);
    for (int slot = LCW_W_ON_BEGIN; slot <= LCW_W_ERROR; slot++) {
        lua_pushboolean(L, false);
        lua_rawseti(L, -2, slot);
    }
    lcw_setenv(L, world_idx);
    static const char *const callbacks[] = {"on_begin", "on_stay", "on_end"};
    for (int k = 0; k < 3; k++) {
        lua_getfield(L, 1, callbacks[k]);
        if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
            luaL_argerror(L, 1, lua_pushfstring(L, "field '%s': function expected, got %s", callbacks[k],
                                                luaL_typename(L, -1)));
        set_callback(L, world_idx, LCW_W_ON_BEGIN + k, -1);
        lua_pop(L, 1);
    }
    def.on_begin = on_begin, def.on_end = on_end, def.on_stay = stays ? on_stay : NULL;
    def.context = lw;
    lw->stays = stays;
    if ((lw->world = cw_world_create(&def)) == NULL)
        return lcw_fail(L);
    lua_pushvalue(L, world_idx);
    return 1;
}

// Every body object of the world is marked dead (the C bodies go with the world).
static void close_world(lua_State *L, lcw_world *lw, int world_idx)
{
    if (lw->world == NULL)
        return;
    cw_world_destroy(lw->world);
    lw->world = NULL;
    lcw_getenv(L, world_idx);
    lua_rawgeti(L, -1, LCW_W_BODIES);
    if (lua_istable(L, -1)) {
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            lcw_body *body = lua_touserdata(L, -1);
            if (body != NULL) {
                body->dead = true;
                lcw_unpin(body->pinned); // after the world that read it is gone
                body->pinned = NULL;
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    lua_pushboolean(L, false); // the world keeps no body objects (nor their data) once closed
    lua_rawseti(L, -2, LCW_W_BODIES);
    lua_pushboolean(L, false);
    lua_rawseti(L, -2, LCW_W_GRAVE);
    lua_pop(L, 1);
    lcw_realloc(L, lw->dying, lw->dying_capacity * sizeof *lw->dying, 0);
    lcw_realloc(L, lw->found, lw->found_capacity * sizeof *lw->found, 0);
    lcw_realloc(L, lw->move_ids, lw->move_ids_capacity * sizeof *lw->move_ids, 0);
    lcw_realloc(L, lw->move_to, lw->move_to_capacity * sizeof *lw->move_to, 0);
    lw->dying = NULL, lw->found = NULL, lw->move_ids = NULL, lw->move_to = NULL;
    lw->dying_count = lw->dying_capacity = lw->found_count = lw->found_capacity = 0;
    lw->move_ids_capacity = lw->move_to_capacity = 0;
}

// world:reserve(n): room for n bodies in all, made now (cw_world_reserve), e.g. before a level.
static int world_reserve(lua_State *L)
{
    lcw_world *lw = lcw_check_world(L, 1);
    lua_Number bodies = luaL_checknumber(L, 2);
    if (!is_body_count(bodies))
        return luaL_argerror(L, 2, "must be an integer from 0 to 2147483646");
    if (!cw_world_reserve(lw->world, (int)bodies))
        return lcw_fail(L);
    return 0;
}

static int world_close(lua_State *L)
{
    lcw_world *lw = luaL_checkudata(L, 1, LCW_WORLD);
    if (lw->stepping)
        return luaL_error(L, "collworld: world:close() cannot be called from the world's callbacks");
    close_world(L, lw, 1);
    return 0;
}

static int world_gc(lua_State *L)
{
    lcw_world *lw = luaL_checkudata(L, 1, LCW_WORLD);
    close_world(L, lw, 1); // a world being stepped is on the stack: never collected then
    return 0;
}

static int world_is_closed(lua_State *L)
{
    lua_pushboolean(L, ((lcw_world *)luaL_checkudata(L, 1, LCW_WORLD))->world == NULL);
    return 1;
}

// Raises the first callback error of the step (with "and N more" for the rest).
static int raise_callback_error(lua_State *L, const lcw_world *lw)
{
    lcw_getenv(L, 1);
    lua_rawgeti(L, -1, LCW_W_ERROR);
    lua_pushboolean(L, false);
    lua_rawseti(L, -3, LCW_W_ERROR);
    if (lua_type(L, -1) == LUA_TBOOLEAN) // the error could not be kept (no stack)
        return luaL_error(L, "collworld: %d errors in contact callbacks", lw->errors);
    if (lw->errors > 1 && lua_type(L, -1) == LUA_TSTRING)
        lua_pushfstring(L, "%s\n(and %d more errors in this step's contact callbacks)", lua_tostring(L, -1),
                        lw->errors - 1);
    return lua_error(L);
}

static int world_step(lua_State *L)
{
    lcw_world *lw = lcw_check_world(L, 1);
    if (lw->stepping)
        return luaL_error(L, "collworld: world:step() cannot be called from the world's callbacks");
    lua_settop(L, 1);
    release_dying(L, lw, 1);
    lw->stepping = true, lw->L = L, lw->errors = 0;
    cw_clear_error();
    cw_world_step(lw->world);
    lw->stepping = false, lw->L = NULL;
    bool failed = cw_last_error()[0] != '\0';
    if (!failed)
        lw->steps++;
    if (lw->errors > 0)
        return raise_callback_error(L, lw);
    if (failed)
        return lcw_fail(L);
    return 0;
}

static int world_set_callback(lua_State *L, int kind)
{
    lcw_world *lw = lcw_check_world(L, 1);
    if (kind == KIND_STAY && !lw->stays)
        return luaL_error(L, "collworld: stays are off in this world: create it with cw.world{ stays = true }");
    luaL_checkany(L, 2);
    set_callback(L, 1, LCW_W_ON_BEGIN + kind, 2);
    return 0;
}

static int world_on_begin(lua_State *L)
{
    return world_set_callback(L, KIND_BEGIN);
}

static int world_on_stay(lua_State *L)
{
    return world_set_callback(L, KIND_STAY);
}

static int world_on_end(lua_State *L)
{
    return world_set_callback(L, KIND_END);
}

static void push_contact_list(lua_State *L, const cw_contact *contacts, int count)
{
    lua_createtable(L, count, 0);
    for (int k = 0; k < count; k++) {
        lua_createtable(L, 0, 8);
        lcw_push_body(L, 1, contacts[k].a);
        lua_setfield(L, -2, "a");
        lcw_push_body(L, 1, contacts[k].b);
        lua_setfield(L, -2, "b");
        lcw_set_manifold(L, &contacts[k].manifold);
        lua_pushnumber(L, contacts[k].fraction);
        lua_setfield(L, -2, "fraction");
        lua_rawseti(L, -2, k + 1);
    }
}

// world:events() -> { begins = {...}, stays = {...}, ends = {...} }, each { a, b, x, y, nx, ny,
// depth, fraction } in delivery order.
static int world_events(lua_State *L)
{
    lcw_world *lw = lcw_check_world(L, 1);
    cw_clear_error();
    cw_events e = cw_world_events(lw->world);
    if (cw_last_error()[0] != '\0') // gathering the step's begins and stays ran out of memory
        return lcw_fail(L);
    lua_createtable(L, 0, 3);
    push_contact_list(L, e.begins, e.begin_count);
    lua_setfield(L, -2, "begins");
    push_contact_list(L, e.stays, e.stay_count);
    lua_setfield(L, -2, "stays");
    push_contact_list(L, e.ends, e.end_count);
    lua_setfield(L, -2, "ends");
    return 1;
}

static int world_stats(lua_State *L)
{
    cw_world_stats s = cw_world_get_stats(lcw_check_world(L, 1)->world);
    lua_createtable(L, 0, 18);
    const struct {
        const char *name;
        lua_Integer value;
    } counts[] = {{"bodies", s.bodies},
                  {"static_bodies", s.static_bodies},
                  {"moved_bodies", s.moved_bodies},
                  {"large_bodies", s.large_bodies},
                  {"candidate_pairs", s.candidate_pairs},
                  {"narrow_tests", s.narrow_tests},
                  {"touching_pairs", s.touching_pairs},
                  {"begin_events", s.begin_events},
                  {"stay_events", s.stay_events},
                  {"end_events", s.end_events},
                  {"disabled_bodies", s.disabled_bodies},
                  {"workers", s.workers},
                  {"failed_steps", s.failed_steps},
                  {"bytes", (lua_Integer)s.bytes}};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        lua_pushinteger(L, counts[k].value); // integers in Lua 5.4 (print shows 3, not 3.0)
        lua_setfield(L, -2, counts[k].name);
    }
    const struct {
        const char *name;
        lua_Number value;
    } measures[] = {{"cell_size", s.cell_size}, {"broad_ms", s.broad_ms}, {"narrow_ms", s.narrow_ms},
                    {"events_ms", s.events_ms}};
    for (size_t k = 0; k < sizeof measures / sizeof measures[0]; k++) {
        lua_pushnumber(L, measures[k].value);
        lua_setfield(L, -2, measures[k].name);
    }
    return 1;
}

// world:touching(a, b): whether the two bodies touch after the last step.
static int world_touching(lua_State *L)
{
    lcw_world *lw = lcw_check_world(L, 1);
    lcw_body *a = lcw_check_live_body(L, 2), *b = lcw_check_live_body(L, 3);
    luaL_argcheck(L, a->world == lw, 2, "the body belongs to another world");
    luaL_argcheck(L, b->world == lw, 3, "the body belongs to another world");
    lua_pushboolean(L, cw_pair_touching(lw->world, a->id, b->id));
    return 1;
}

// world:bodies(): the live bodies in index order.
static int world_bodies(lua_State *L)
{
    lcw_check_world(L, 1);
    lcw_getenv(L, 1);
    lua_rawgeti(L, -1, LCW_W_BODIES);
    int bodies = lua_gettop(L);
    lua_newtable(L);
    int out = lua_gettop(L), n = 0;
    lua_Number highest = 0;
    lua_pushnil(L);
    while (lua_next(L, bodies) != 0) { // find the highest index, then walk in order
        if (lua_tonumber(L, -2) > highest)
            highest = lua_tonumber(L, -2);
        lua_pop(L, 1);
    }
    for (int index = 1; index <= (int)highest; index++) { // only live bodies are there (see lcw_destroy_body)
        lua_rawgeti(L, bodies, index);
        if (!lua_isnil(L, -1))
            lua_rawseti(L, out, ++n);
        else
            lua_pop(L, 1);
    }
    return 1;
}

static int world_tostring(lua_State *L)
{
    const lcw_world *lw = luaL_checkudata(L, 1, LCW_WORLD);
    if (lw->world == NULL) {
        lua_pushliteral(L, "collworld.world (closed)");
        return 1;
    }
    int bodies = cw_world_get_stats(lw->world).bodies;
    lua_pushfstring(L, "collworld.world (%d bod%s)", bodies, bodies == 1 ? "y" : "ies");
    return 1;
}

void lcw_open_world(lua_State *L)
{
    static const luaL_Reg meta[] = {{"__gc", world_gc},
#if LUA_VERSION_NUM >= 504
                                    {"__close", world_gc},
#endif
                                    {"__tostring", world_tostring},
                                    {NULL, NULL}};
    static const luaL_Reg methods[] = {{"close", world_close},       {"is_closed", world_is_closed},
                                       {"on_begin", world_on_begin}, {"on_stay", world_on_stay},
                                       {"on_end", world_on_end},     {"events", world_events},
                                       {"stats", world_stats},       {"touching", world_touching},
                                       {"bodies", world_bodies},     {"reserve", world_reserve},
                                       {NULL, NULL}};
    lcw_new_type(L, LCW_WORLD, meta, methods);
    int world_methods = lua_gettop(L);
    lua_pushcfunction(L, traceback); // world:step's upvalues: the handler and the dispatcher
    lua_pushcfunction(L, dispatch);
    lua_pushcclosure(L, world_step, 2);
    lua_setfield(L, world_methods, "step");
    lcw_open_bodies(L, world_methods);
    lcw_open_queries(L, world_methods);
    lua_pop(L, 1);
    lua_pushcfunction(L, world_new);
    lua_setfield(L, -2, "world");
}
