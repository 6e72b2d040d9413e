// The Lua module's shared parts: the userdata types, Lua 5.1 (LuaJIT) / 5.4 compatibility, and the
// helpers that read Lua values into collworld's structs. Every C call into the library completes
// before anything here can raise a Lua error, so no error ever longjmps through collworld's frames.
#ifndef LCW_H
#define LCW_H

#include <lauxlib.h>
#include <lua.h>
#include <stdbool.h>
#include <stdint.h>

#include "collworld.h"

#if LUA_VERSION_NUM < 502
// Lua 5.1 / LuaJIT: a userdata's one Lua value is its environment table.
#define lcw_getenv(L, idx) lua_getfenv((L), (idx))
#define lcw_setenv(L, idx) lua_setfenv((L), (idx))
#define lcw_rawlen(L, idx) lua_objlen((L), (idx))
#else
#define lcw_getenv(L, idx) ((void)lua_getiuservalue((L), (idx), 1))
#define lcw_setenv(L, idx) ((void)lua_setiuservalue((L), (idx), 1))
#define lcw_rawlen(L, idx) lua_rawlen((L), (idx))
#endif

#define LCW_BOX "collworld.box"
#define LCW_MASK "collworld.mask"
#define LCW_SHEET "collworld.sheet"
#define LCW_WORLD "collworld.world"
#define LCW_BODY "collworld.body"

// A box shape: a value, no resources.
typedef struct lcw_box {
    float width, height;
} lcw_box;

// Masks and sheets borrowed by a world's bodies are pinned: a body's world reads its mask at every
// step, and Lua may run a mask's or a sheet's __gc while a world that uses it can still be stepped
// (a finaliser that runs later in the same collection may reach that world). Such a __gc marks the
// object collected (Lua code can no longer use it) and leaves the memory to the last body to let
// go (lcw_unpin).
typedef struct lcw_sheet {
    cw_sheet *sheet; // NULL once freed
    bool collected;  // its __gc has run
    int users;       // bodies in open worlds whose shape is one of its frames
} lcw_sheet;

// A mask: owned (made by cw.mask, freed by its __gc, or by lcw_unpin once no body uses it) or a
// sheet's frame (its environment table holds the sheet, which owns the mask).
typedef struct lcw_mask {
    const cw_mask *mask; // NULL once freed
    bool owned;
    bool collected;      // its __gc has run
    int users;           // owned masks: bodies in open worlds whose shape it is
    lcw_sheet *sheet;    // frames: the sheet (kept alive by the frame's environment table)
} lcw_mask;

// Bodies destroyed whose ends are still to be delivered: their Lua objects stay in the world's
// body table until the step that reports those ends, so end callbacks still receive them.
typedef struct lcw_dying {
    uint32_t index, generation;
    uint64_t release_after; // the completed-step count after which the object can go
} lcw_dying;

// A query's answers, gathered in C (a query callback may not raise) and turned into Lua values
// after the query returns.
typedef struct lcw_found {
    cw_body_id body;
    cw_manifold manifold;
    float fraction;
    bool has_manifold;
} lcw_found;

typedef struct lcw_world {
    cw_world *world;      // NULL once closed
    lua_State *L;         // the thread running world:step(), during the step
    bool stepping, stays;
    bool has_callback[3]; // begin, stay, end: a Lua function is set (else an event costs no pcall)
    uint64_t steps;       // completed steps
    lcw_dying *dying;
    size_t dying_count, dying_capacity;
    int errors;           // callback errors in the running step
    lua_State *query_L;   // the thread running a query (for Lua's allocator)
    lcw_found *found;     // query scratch (Lua's allocator), kept for the next query
    size_t found_count, found_capacity;
    bool found_overflow;  // the scratch could not grow: the query stopped early
    cw_body_id *move_ids; // world:move_all's lists (Lua's allocator), kept for the next call
    cw_transform *move_to;
    size_t move_ids_capacity, move_to_capacity;
} lcw_world;

typedef struct lcw_body {
    cw_body_id id;
    lcw_world *world; // kept alive by the body's environment (which holds the world object)
    lcw_mask *pinned; // the mask object it pins while alive (NULL for a box); held by its environment
    bool dead;        // destroyed, or its world closed
} lcw_body;

// Slots of a world's environment table.
// BODIES: index -> live body; GRAVE: index -> a destroyed body whose ends are not yet reported.
enum { LCW_W_BODIES = 1, LCW_W_GRAVE, LCW_W_ON_BEGIN, LCW_W_ON_STAY, LCW_W_ON_END, LCW_W_ERROR };
// Slots of a body's environment table.
enum { LCW_B_WORLD = 1, LCW_B_SHAPE, LCW_B_DATA };

// Raises "collworld: <what cw_last_error() says>".
int lcw_fail(lua_State *L);

// The shape at `idx` (a box or a mask), or a standard argument error (also for a collected mask).
cw_shape lcw_check_shape(lua_State *L, int idx);
// The mask object at `idx`, or NULL for anything else (a box).
lcw_mask *lcw_test_mask(lua_State *L, int idx);
// A body starts / stops using the mask (NULL: a box, nothing to do). The last body to stop using a
// collected mask (or a frame of a collected sheet) frees it. Never raise, never allocate.
void lcw_pin(lcw_mask *mask);
void lcw_unpin(lcw_mask *mask);
bool lcw_is_shape(lua_State *L, int idx);

// A transform from a table's fields x, y, rotation, scale_x, scale_y, scale, origin (missing
// fields keep `base`'s values); an argument error for a field of the wrong type. Returns whether
// any transform field was present.
bool lcw_read_transform(lua_State *L, int idx, int arg, cw_transform *base);
// A transform argument: a table of the transform fields above (all optional, others rejected).
cw_transform lcw_check_transform(lua_State *L, int arg);
// The field of the table at `idx`, as a number / boolean / uint32 if present (else the default).
bool lcw_opt_number_field(lua_State *L, int idx, int arg, const char *key, lua_Number *out);
bool lcw_opt_bool_field(lua_State *L, int idx, int arg, const char *key, bool *out);
bool lcw_opt_u32_field(lua_State *L, int idx, int arg, const char *key, uint32_t *out);
// Rejects keys of the table at `idx` not in the NULL-terminated `known` (catches typos).
void lcw_check_keys(lua_State *L, int idx, int arg, const char *const *known);
// Two number arguments `arg`, `arg + 1` as a vector (checked in that order).
cw_vec2 lcw_check_vec2(lua_State *L, int arg);
// A query filter from an optional table {category=, collides_with=} at `idx`.
cw_query_filter lcw_opt_filter(lua_State *L, int idx);
// Pushes a manifold's fields into the table at the top: x, y, nx, ny, depth.
void lcw_set_manifold(lua_State *L, const cw_manifold *m);
// The result of an overlap test called after cw_clear_error(): raises the library's error if it
// failed, else pushes whether it hit and, when asked and it did, the contact table (1 or 2 results).
int lcw_push_overlap(lua_State *L, bool hit, bool want_contact, const cw_manifold *m);

// The world at `idx`, open (raises for a closed world).
lcw_world *lcw_check_world(lua_State *L, int idx);
// Pushes the body object for `id`, live or destroyed with its ends still to come (nil if none);
// the world object must be at `world_idx`.
void lcw_push_body(lua_State *L, int world_idx, cw_body_id id);
// Memory through the Lua state's allocator (never raises; NULL when it fails).
void *lcw_realloc(lua_State *L, void *memory, size_t old_size, size_t new_size);
// Room for `needed` elements of `size` bytes in *list (capacity *capacity, in elements), grown by
// doubling from `first` through lcw_realloc and kept: false (the list as it was) if memory runs out.
// Never raises.
bool lcw_grow(lua_State *L, void **list, size_t *capacity, size_t size, size_t needed, size_t first);
// Destroys the body at `body_idx`: its object moves to the world's grave until its ends are
// reported (and world:events() read). Raises before any change if memory runs out.
void lcw_destroy_body(lua_State *L, int body_idx);
// Raises unless the body is alive in an open world.
lcw_body *lcw_check_live_body(lua_State *L, int idx);

// Registers userdata type `name` (metatable with `meta`, methods as its __index, a locked
// __metatable) and leaves the methods table on the stack, for the caller to add to and pop.
void lcw_new_type(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods);

void lcw_open_shapes(lua_State *L);  // cw.box, cw.mask, cw.mask_alpha, cw.sheet, cw.overlap, ...
void lcw_open_placed(lua_State *L);  // cw.place and the placed type
void lcw_open_world(lua_State *L);   // cw.world and the world's methods
void lcw_open_bodies(lua_State *L, int world_methods); // the body type and world:body
void lcw_open_queries(lua_State *L, int world_methods); // world:query_*, raycasts, casts

#endif
