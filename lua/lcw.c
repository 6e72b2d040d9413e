// require "collworld": the module table, the helpers that read Lua values (lcw.h), and the
// shape-level functions (cw.overlap, cw.cast, cw.contains, cw.raycast_shape, cw.aabb).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lcw.h"

int lcw_fail(lua_State *L)
{
    const char *why = cw_last_error();
    return luaL_error(L, "collworld: %s", why[0] != '\0' ? why : "the call failed.");
}

static int field_error(lua_State *L, int arg, const char *key, const char *expected)
{
    return luaL_argerror(L, arg, lua_pushfstring(L, "field '%s': %s expected, got %s", key, expected,
                                                 luaL_typename(L, -1)));
}

// Pushes the field `key` of the table at `idx` if it is there, after checking it is of `type`
// (else an argument error naming `expected`); false, with nothing pushed, if it is nil.
static bool push_opt_field(lua_State *L, int idx, int arg, const char *key, int type, const char *expected)
{
    lua_getfield(L, idx, key);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return false;
    }
    if (lua_type(L, -1) != type)
        field_error(L, arg, key, expected);
    return true;
}

bool lcw_opt_number_field(lua_State *L, int idx, int arg, const char *key, lua_Number *out)
{
    if (!push_opt_field(L, idx, arg, key, LUA_TNUMBER, "number"))
        return false;
    *out = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return true;
}

bool lcw_opt_bool_field(lua_State *L, int idx, int arg, const char *key, bool *out)
{
    if (!push_opt_field(L, idx, arg, key, LUA_TBOOLEAN, "boolean"))
        return false;
    *out = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return true;
}

// Category bits: integers in [0, 2^32 - 1] (LuaJIT's numbers are doubles, so no integer subtype).
static bool to_u32(lua_Number n, uint32_t *out)
{
    if (!(n >= 0 && n <= 4294967295.0) || n != floor(n))
        return false;
    *out = (uint32_t)n;
    return true;
}

bool lcw_opt_u32_field(lua_State *L, int idx, int arg, const char *key, uint32_t *out)
{
    lua_Number n;
    if (!lcw_opt_number_field(L, idx, arg, key, &n))
        return false;
    if (!to_u32(n, out))
        luaL_argerror(L, arg, lua_pushfstring(L, "field '%s': an integer in [0, 0xffffffff] expected", key));
    return true;
}

// Raises for the unknown key at the top of the stack. A key that is not a string is most often a
// list given where a table of named fields belongs ({10, 20} for {x = 10, y = 20}): say so.
static void unknown_key(lua_State *L, int arg)
{
    if (lua_type(L, -1) == LUA_TSTRING)
        luaL_argerror(L, arg, lua_pushfstring(L, "unknown field '%s'", lua_tostring(L, -1)));
    const char *key = luaL_typename(L, -1);
    if (lua_type(L, -1) == LUA_TNUMBER) {
        lua_pushvalue(L, -1); // a copy: lua_tostring converts in place
        key = lua_tostring(L, -1);
    }
    luaL_argerror(L, arg, lua_pushfstring(L, "unknown field [%s]: fields are named, as in {x = 10}", key));
}

void lcw_check_keys(lua_State *L, int idx, int arg, const char *const *known)
{
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        lua_pop(L, 1);
        bool ok = false;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (const char *const *k = known; *k != NULL && !ok; k++)
                ok = strcmp(*k, lua_tostring(L, -1)) == 0;
        if (!ok)
            unknown_key(L, arg);
    }
}

// A pair {a, b} of numbers in a field (origin = {16, 16}); a single number for scale means both.
static bool opt_pair_field(lua_State *L, int idx, int arg, const char *key, bool allow_number, cw_vec2 *out)
{
    lua_getfield(L, idx, key);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return false;
    }
    if (allow_number && lua_type(L, -1) == LUA_TNUMBER) {
        out->x = out->y = (float)lua_tonumber(L, -1);
    } else {
        if (lua_type(L, -1) != LUA_TTABLE)
            field_error(L, arg, key, allow_number ? "number or {x, y}" : "{x, y}");
        lua_rawgeti(L, -1, 1);
        lua_rawgeti(L, -2, 2);
        if (lua_type(L, -2) != LUA_TNUMBER || lua_type(L, -1) != LUA_TNUMBER)
            luaL_argerror(L, arg, lua_pushfstring(L, "field '%s': two numbers {x, y} expected", key));
        out->x = (float)lua_tonumber(L, -2), out->y = (float)lua_tonumber(L, -1);
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
    return true;
}

bool lcw_read_transform(lua_State *L, int idx, int arg, cw_transform *t)
{
    lua_Number n;
    bool any = false;
    if (lcw_opt_number_field(L, idx, arg, "x", &n))
        t->position.x = (float)n, any = true;
    if (lcw_opt_number_field(L, idx, arg, "y", &n))
        t->position.y = (float)n, any = true;
    if (lcw_opt_number_field(L, idx, arg, "rotation", &n))
        t->rotation = (float)n, any = true;
    any |= opt_pair_field(L, idx, arg, "scale", true, &t->scale);
    if (lcw_opt_number_field(L, idx, arg, "scale_x", &n))
        t->scale.x = (float)n, any = true;
    if (lcw_opt_number_field(L, idx, arg, "scale_y", &n))
        t->scale.y = (float)n, any = true;
    any |= opt_pair_field(L, idx, arg, "origin", false, &t->origin);
    return any;
}

static const char *const transform_keys[] = {"x", "y", "rotation", "scale", "scale_x", "scale_y", "origin", NULL};

cw_transform lcw_check_transform(lua_State *L, int arg)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    lcw_check_keys(L, arg, arg, transform_keys);
    cw_transform t = cw_default_transform();
    lcw_read_transform(L, arg, arg, &t);
    return t;
}

cw_vec2 lcw_check_vec2(lua_State *L, int arg)
{
    const lua_Number x = luaL_checknumber(L, arg); // sequenced: an initializer list is not
    const lua_Number y = luaL_checknumber(L, arg + 1);
    return (cw_vec2){(float)x, (float)y};
}

cw_query_filter lcw_opt_filter(lua_State *L, int idx)
{
    static const char *const keys[] = {"category", "collides_with", NULL};
    cw_query_filter filter = cw_default_query_filter();
    if (lua_isnoneornil(L, idx))
        return filter;
    luaL_checktype(L, idx, LUA_TTABLE);
    lcw_check_keys(L, idx, idx, keys);
    lcw_opt_u32_field(L, idx, idx, "category", &filter.category);
    lcw_opt_u32_field(L, idx, idx, "collides_with", &filter.collides_with);
    return filter;
}

void lcw_set_manifold(lua_State *L, const cw_manifold *m)
{
    lua_pushnumber(L, m->point.x), lua_setfield(L, -2, "x");
    lua_pushnumber(L, m->point.y), lua_setfield(L, -2, "y");
    lua_pushnumber(L, m->normal.x), lua_setfield(L, -2, "nx");
    lua_pushnumber(L, m->normal.y), lua_setfield(L, -2, "ny");
    lua_pushnumber(L, m->depth), lua_setfield(L, -2, "depth");
}

// --- shapes ---

bool lcw_is_shape(lua_State *L, int idx)
{
    return luaL_testudata(L, idx, LCW_BOX) != NULL || luaL_testudata(L, idx, LCW_MASK) != NULL;
}

cw_shape lcw_check_shape(lua_State *L, int idx)
{
    const lcw_box *box = luaL_testudata(L, idx, LCW_BOX);
    if (box != NULL)
        return cw_shape_box(box->width, box->height);
    const lcw_mask *mask = luaL_testudata(L, idx, LCW_MASK);
    if (mask != NULL && mask->collected)
        luaL_argerror(L, idx, "the mask was freed");
    if (mask != NULL)
        return cw_shape_mask(mask->mask);
    luaL_argerror(L, idx, lua_pushfstring(L, "shape (cw.box or a mask) expected, got %s", luaL_typename(L, idx)));
    return cw_shape_box(1, 1);
}

static int box_new(lua_State *L)
{
    lua_Number w = luaL_checknumber(L, 1), h = luaL_checknumber(L, 2);
    luaL_argcheck(L, w > 0 && isfinite(w), 1, "width must be positive and finite");
    luaL_argcheck(L, h > 0 && isfinite(h), 2, "height must be positive and finite");
    lcw_box *box = lua_newuserdata(L, sizeof *box);
    box->width = (float)w, box->height = (float)h;
    luaL_setmetatable(L, LCW_BOX);
    return 1;
}

static int box_size(lua_State *L)
{
    const lcw_box *box = luaL_checkudata(L, 1, LCW_BOX);
    lua_pushnumber(L, box->width);
    lua_pushnumber(L, box->height);
    return 2;
}

static int box_tostring(lua_State *L)
{
    const lcw_box *box = luaL_checkudata(L, 1, LCW_BOX);
    char text[96]; // lua_pushfstring's %f prints numbers as each Lua does ("2.0" in 5.4, "2" in LuaJIT)
    snprintf(text, sizeof text, "collworld.box(%.9g, %.9g)", (double)box->width, (double)box->height);
    lua_pushstring(L, text);
    return 1;
}

// Pixels as a Lua string of `bytes_per_pixel` bytes per pixel, rows of `width` pixels, no padding.
static const char *check_pixels(lua_State *L, int arg, int width, int height, int bytes_per_pixel)
{
    size_t size;
    const char *pixels = luaL_checklstring(L, arg, &size);
    double need = (double)width * height * bytes_per_pixel;
    if ((double)size < need)
        luaL_argerror(L, arg, lua_pushfstring(L, "%d x %d pixels need %d bytes, the string has %d", width, height,
                                              (int)need, (int)size));
    return pixels;
}

static int check_size(lua_State *L, int arg, const char *what)
{
    lua_Integer n = luaL_checkinteger(L, arg);
    if (n < 1 || n > 1 << 20)
        luaL_argerror(L, arg, lua_pushfstring(L, "%s must be in [1, 1048576]", what));
    return (int)n;
}

static int opt_threshold(lua_State *L, int arg)
{
    lua_Integer t = luaL_optinteger(L, arg, 128);
    luaL_argcheck(L, t >= 0 && t <= 255, arg, "alpha threshold must be in [0, 255]");
    return (int)t;
}

// cw.mask(rgba, width, height [, threshold]) / cw.mask_alpha(alpha, width, height [, threshold])
static int mask_new_from(lua_State *L, int bytes_per_pixel)
{
    int width = check_size(L, 2, "width"), height = check_size(L, 3, "height");
    const char *pixels = check_pixels(L, 1, width, height, bytes_per_pixel);
    uint8_t threshold = (uint8_t)opt_threshold(L, 4);
    lcw_mask *ud = lua_newuserdata(L, sizeof *ud); // before the mask: no leak if this raises
    *ud = (lcw_mask){.mask = NULL, .owned = true};
    luaL_setmetatable(L, LCW_MASK);
    cw_mask *mask = bytes_per_pixel == 4 ? cw_mask_from_rgba(pixels, width, height, 4 * width, threshold)
                                         : cw_mask_from_alpha((const uint8_t *)pixels, width, height, width, threshold);
    if (mask == NULL)
        return lcw_fail(L);
    ud->mask = mask;
    return 1;
}

static int mask_new(lua_State *L)
{
    return mask_new_from(L, 4);
}

static int mask_new_alpha(lua_State *L)
{
    return mask_new_from(L, 1);
}

static const lcw_mask *check_mask(lua_State *L, int arg)
{
    const lcw_mask *mask = luaL_checkudata(L, arg, LCW_MASK);
    if (mask->collected)
        luaL_argerror(L, arg, "the mask was freed");
    return mask;
}

lcw_mask *lcw_test_mask(lua_State *L, int idx)
{
    return luaL_testudata(L, idx, LCW_MASK);
}

static void free_mask(lcw_mask *mask)
{
    cw_mask_destroy((cw_mask *)mask->mask);
    mask->mask = NULL;
}

static void free_sheet(lcw_sheet *sheet)
{
    cw_sheet_destroy(sheet->sheet);
    sheet->sheet = NULL;
}

void lcw_pin(lcw_mask *mask)
{
    if (mask == NULL)
        return;
    if (mask->owned)
        mask->users++;
    else
        mask->sheet->users++;
}

void lcw_unpin(lcw_mask *mask)
{
    if (mask == NULL)
        return;
    if (mask->owned) {
        if (--mask->users == 0 && mask->collected)
            free_mask(mask);
    } else if (--mask->sheet->users == 0 && mask->sheet->collected) {
        free_sheet(mask->sheet);
    }
}

static int mask_gc(lua_State *L)
{
    lcw_mask *mask = luaL_checkudata(L, 1, LCW_MASK);
    mask->collected = true;
    if (mask->owned && mask->users == 0)
        free_mask(mask);
    return 0;
}

static int mask_size(lua_State *L)
{
    const lcw_mask *mask = check_mask(L, 1);
    lua_pushinteger(L, cw_mask_width(mask->mask));
    lua_pushinteger(L, cw_mask_height(mask->mask));
    return 2;
}

static int mask_get(lua_State *L)
{
    const lcw_mask *mask = check_mask(L, 1);
    const int x = (int)luaL_checkinteger(L, 2), y = (int)luaL_checkinteger(L, 3); // in argument order
    lua_pushboolean(L, cw_mask_get(mask->mask, x, y));
    return 1;
}

static int mask_count(lua_State *L)
{
    lua_pushinteger(L, cw_mask_count(check_mask(L, 1)->mask));
    return 1;
}

static int mask_eq(lua_State *L)
{
    const lcw_mask *a = luaL_testudata(L, 1, LCW_MASK), *b = luaL_testudata(L, 2, LCW_MASK);
    lua_pushboolean(L, a != NULL && b != NULL && a->mask == b->mask);
    return 1;
}

static int mask_tostring(lua_State *L)
{
    const lcw_mask *mask = luaL_checkudata(L, 1, LCW_MASK);
    if (mask->collected)
        lua_pushliteral(L, "collworld.mask (freed)");
    else
        lua_pushfstring(L, "collworld.mask(%d x %d, %d opaque)", cw_mask_width(mask->mask),
                        cw_mask_height(mask->mask), cw_mask_count(mask->mask));
    return 1;
}

// --- shape-level functions: cw.overlap(shape, t, shape, t), cw.cast(...), ... ---

static int overlap(lua_State *L)
{
    cw_shape a = lcw_check_shape(L, 1); // arguments checked in their order
    cw_transform ta = lcw_check_transform(L, 2);
    cw_shape b = lcw_check_shape(L, 3);
    cw_transform tb = lcw_check_transform(L, 4);
    bool want = lua_toboolean(L, 5);
    cw_manifold m;
    cw_clear_error();
    bool hit = cw_overlap(&a, &ta, &b, &tb, want ? &m : NULL);
    return lcw_push_overlap(L, hit, want, &m);
}

int lcw_push_overlap(lua_State *L, bool hit, bool want_contact, const cw_manifold *m)
{
    if (!hit && cw_last_error()[0] != '\0')
        return lcw_fail(L);
    lua_pushboolean(L, hit);
    if (!hit || !want_contact)
        return 1;
    lua_createtable(L, 0, 5);
    lcw_set_manifold(L, m);
    return 2;
}

// cw.cast(a, ta, dx, dy, b, tb) -> nil, or fraction and the contact table
static int cast(lua_State *L)
{
    cw_shape a = lcw_check_shape(L, 1);
    cw_transform ta = lcw_check_transform(L, 2);
    const lua_Number dx = luaL_checknumber(L, 3), dy = luaL_checknumber(L, 4);
    cw_shape b = lcw_check_shape(L, 5);
    cw_transform tb = lcw_check_transform(L, 6);
    cw_vec2 d = {(float)dx, (float)dy};
    float fraction;
    cw_manifold m;
    cw_clear_error();
    if (!cw_shape_cast(&a, &ta, d, &b, &tb, &fraction, &m)) {
        if (cw_last_error()[0] != '\0')
            return lcw_fail(L);
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, fraction);
    lua_createtable(L, 0, 6);
    lcw_set_manifold(L, &m);
    lua_pushnumber(L, fraction), lua_setfield(L, -2, "fraction");
    return 2;
}

static int contains(lua_State *L)
{
    cw_shape s = lcw_check_shape(L, 1);
    cw_transform t = lcw_check_transform(L, 2);
    cw_vec2 p = lcw_check_vec2(L, 3);
    cw_clear_error();
    bool in = cw_shape_contains_point(&s, &t, p);
    if (!in && cw_last_error()[0] != '\0')
        return lcw_fail(L);
    lua_pushboolean(L, in);
    return 1;
}

static int raycast_shape(lua_State *L)
{
    cw_shape s = lcw_check_shape(L, 1);
    cw_transform t = lcw_check_transform(L, 2);
    cw_vec2 o = lcw_check_vec2(L, 3);
    cw_vec2 d = lcw_check_vec2(L, 5);
    cw_ray_hit hit;
    cw_clear_error();
    if (!cw_shape_raycast(&s, &t, o, d, &hit)) {
        if (cw_last_error()[0] != '\0')
            return lcw_fail(L);
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 5);
    lua_pushnumber(L, hit.point.x), lua_setfield(L, -2, "x");
    lua_pushnumber(L, hit.point.y), lua_setfield(L, -2, "y");
    lua_pushnumber(L, hit.normal.x), lua_setfield(L, -2, "nx");
    lua_pushnumber(L, hit.normal.y), lua_setfield(L, -2, "ny");
    lua_pushnumber(L, hit.fraction), lua_setfield(L, -2, "fraction");
    return 1;
}

static int aabb(lua_State *L)
{
    cw_shape s = lcw_check_shape(L, 1);
    cw_transform t = lcw_check_transform(L, 2);
    cw_aabb box;
    if (!cw_shape_aabb(&s, &t, &box))
        return lcw_fail(L);
    lua_pushnumber(L, box.min.x), lua_pushnumber(L, box.min.y);
    lua_pushnumber(L, box.max.x), lua_pushnumber(L, box.max.y);
    return 4;
}

// --- sprite sheets ---

static lcw_sheet *check_sheet(lua_State *L, int arg)
{
    lcw_sheet *sheet = luaL_checkudata(L, arg, LCW_SHEET);
    if (sheet->collected || sheet->sheet == NULL)
        luaL_argerror(L, arg, "the sheet was freed");
    return sheet;
}

static int sheet_new(lua_State *L)
{
    lcw_sheet *ud = lua_newuserdata(L, sizeof *ud);
    *ud = (lcw_sheet){.sheet = NULL, .collected = false, .users = 0};
    luaL_setmetatable(L, LCW_SHEET);
    lua_newtable(L); // name -> frame object, so each frame has one object
    lcw_setenv(L, -2);
    if ((ud->sheet = cw_sheet_create()) == NULL)
        return lcw_fail(L);
    return 1;
}

static int sheet_gc(lua_State *L)
{
    lcw_sheet *sheet = luaL_checkudata(L, 1, LCW_SHEET);
    sheet->collected = true;
    if (sheet->users == 0)
        free_sheet(sheet);
    return 0;
}

static const char *check_name(lua_State *L, int arg)
{
    size_t size;
    const char *name = luaL_checklstring(L, arg, &size);
    luaL_argcheck(L, size > 0, arg, "the name is empty");
    luaL_argcheck(L, strlen(name) == size, arg, "the name holds a zero byte");
    return name;
}

// sheet:add_grid(prefix, rgba, sheet_width, sheet_height, frame_width, frame_height [, threshold])
static int sheet_add_grid(lua_State *L)
{
    lcw_sheet *sheet = check_sheet(L, 1);
    const char *prefix = check_name(L, 2);
    int sw = check_size(L, 4, "sheet width"), sh = check_size(L, 5, "sheet height");
    int fw = check_size(L, 6, "frame width"), fh = check_size(L, 7, "frame height");
    const char *pixels = check_pixels(L, 3, sw, sh, 4);
    int added = cw_sheet_add_grid(sheet->sheet, prefix, pixels, sw, sh, 4 * sw, fw, fh, (uint8_t)opt_threshold(L, 8));
    if (added < 0)
        return lcw_fail(L);
    lua_pushinteger(L, added);
    return 1;
}

// sheet:add(name, rgba, width, height [, threshold [, {x, y, w, h}]]): the whole image, or the
// rectangle of it given last.
static int sheet_add(lua_State *L)
{
    lcw_sheet *sheet = check_sheet(L, 1);
    const char *name = check_name(L, 2);
    int width = check_size(L, 4, "width"), height = check_size(L, 5, "height");
    const char *pixels = check_pixels(L, 3, width, height, 4);
    uint8_t threshold = (uint8_t)opt_threshold(L, 6);
    lua_Integer x = 0, y = 0, w = width, h = height;
    if (!lua_isnoneornil(L, 7)) {
        luaL_checktype(L, 7, LUA_TTABLE);
        lua_Integer v[4];
        for (int k = 0; k < 4; k++) {
            lua_rawgeti(L, 7, k + 1);
            if (lua_type(L, -1) != LUA_TNUMBER)
                luaL_argerror(L, 7, "rectangle {x, y, width, height} expected");
            v[k] = lua_tointeger(L, -1);
            lua_pop(L, 1);
        }
        x = v[0], y = v[1], w = v[2], h = v[3];
        luaL_argcheck(L, x >= 0 && y >= 0 && w >= 1 && h >= 1 && x + w <= width && y + h <= height, 7,
                      "the rectangle is not inside the image");
    }
    const char *first = pixels + ((size_t)y * (size_t)width + (size_t)x) * 4;
    if (cw_sheet_add(sheet->sheet, name, first, (int)w, (int)h, 4 * width, threshold) == NULL)
        return lcw_fail(L);
    return 0;
}

// sheet:find(name): the frame's mask object, or nil; sheet:frame(name) raises for a missing name.
static int sheet_find(lua_State *L)
{
    lcw_sheet *sheet = check_sheet(L, 1);
    const char *name = luaL_checkstring(L, 2);
    lcw_getenv(L, 1);
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    if (!lua_isnil(L, -1))
        return 1;
    const cw_mask *mask = cw_sheet_find(sheet->sheet, name);
    if (mask == NULL)
        return 0;
    lcw_mask *ud = lua_newuserdata(L, sizeof *ud);
    *ud = (lcw_mask){.mask = mask, .owned = false, .sheet = sheet};
    luaL_setmetatable(L, LCW_MASK);
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1); // the frame keeps its sheet alive
    lcw_setenv(L, -2);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, -5);
    return 1;
}

static int sheet_frame(lua_State *L)
{
    if (sheet_find(L) == 0)
        return luaL_error(L, "collworld: the sheet has no frame named '%s'", lua_tostring(L, 2));
    return 1;
}

// sheet:names(): the frame names in the order they were added.
static int sheet_names(lua_State *L)
{
    lcw_sheet *sheet = check_sheet(L, 1);
    int n = cw_sheet_get_stats(sheet->sheet).frames;
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) {
        lua_pushstring(L, cw_sheet_frame_name(sheet->sheet, k));
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

static int sheet_stats(lua_State *L)
{
    cw_sheet_stats s = cw_sheet_get_stats(check_sheet(L, 1)->sheet);
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, s.frames), lua_setfield(L, -2, "frames");
    lua_pushinteger(L, s.masks), lua_setfield(L, -2, "masks");
    lua_pushinteger(L, (lua_Integer)s.bytes), lua_setfield(L, -2, "bytes");
    return 1;
}

static int sheet_len(lua_State *L)
{
    lua_pushinteger(L, cw_sheet_get_stats(check_sheet(L, 1)->sheet).frames);
    return 1;
}

void lcw_new_type(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods)
{
    luaL_newmetatable(L, name);
    luaL_setfuncs(L, meta, 0);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "__index");
    lua_pushliteral(L, "collworld");
    lua_setfield(L, -3, "__metatable"); // getmetatable() cannot swap the methods out
    lua_remove(L, -2);
}

void lcw_open_shapes(lua_State *L)
{
    static const luaL_Reg box_meta[] = {{"__tostring", box_tostring}, {NULL, NULL}};
    static const luaL_Reg box_methods[] = {{"size", box_size}, {NULL, NULL}};
    static const luaL_Reg mask_meta[] = {{"__gc", mask_gc}, {"__eq", mask_eq}, {"__tostring", mask_tostring},
                                         {NULL, NULL}};
    static const luaL_Reg mask_methods[] = {{"size", mask_size}, {"get", mask_get}, {"count", mask_count},
                                            {NULL, NULL}};
    static const luaL_Reg sheet_meta[] = {{"__gc", sheet_gc}, {"__len", sheet_len}, {NULL, NULL}};
    static const luaL_Reg sheet_methods[] = {{"add", sheet_add},     {"add_grid", sheet_add_grid},
                                             {"frame", sheet_frame}, {"find", sheet_find},
                                             {"names", sheet_names}, {"stats", sheet_stats},
                                             {NULL, NULL}};
    static const luaL_Reg functions[] = {{"box", box_new},         {"mask", mask_new},
                                         {"mask_alpha", mask_new_alpha}, {"sheet", sheet_new},
                                         {"overlap", overlap},     {"cast", cast},
                                         {"contains", contains},   {"raycast_shape", raycast_shape},
                                         {"aabb", aabb},           {NULL, NULL}};
    lcw_new_type(L, LCW_BOX, box_meta, box_methods);
    lcw_new_type(L, LCW_MASK, mask_meta, mask_methods);
    lcw_new_type(L, LCW_SHEET, sheet_meta, sheet_methods);
    lua_pop(L, 3);
    luaL_setfuncs(L, functions, 0);
}

#if defined(__GNUC__)
#define LCW_EXPORT __attribute__((visibility("default")))
#else
#define LCW_EXPORT
#endif

LCW_EXPORT int luaopen_collworld(lua_State *L);

LCW_EXPORT int luaopen_collworld(lua_State *L)
{
    lua_newtable(L);
    lcw_open_shapes(L);
    lcw_open_placed(L);
    lcw_open_world(L);
    lua_pushstring(L, cw_version());
    lua_setfield(L, -2, "version");
    return 1;
}
