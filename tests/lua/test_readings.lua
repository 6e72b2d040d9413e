-- What the module reads back, on seeded random bodies: every body field and body:position(),
-- body:transform(), body:aabb() give what was set (values floats hold exactly) and agree with
-- cw.aabb(); box:size(); world:query_box() reports exactly the bodies whose AABB meets the box;
-- world:cast_all() and world:cast() give each body cw.cast()'s fraction; body.data however it is
-- set; every object's tostring.
-- (Found by coverage: none of these was called by the other Lua tests.)
local cw = require "collworld"
local h = require "harness"

-- A box or a mask, and its width and height.
local function random_shape(r)
    if r.chance(0.5) then
        local w, hh = r.int(4, 160) / 8, r.int(4, 160) / 8
        return cw.box(w, hh), w, hh
    end
    local w, hh = r.int(1, 12), r.int(1, 12)
    return cw.mask(h.rgba(w, hh, function() return r.chance(0.7) and 255 or 0 end), w, hh), w, hh
end

-- Transform fields that a float holds exactly, so that reading them back gives the same numbers.
local function random_fields(r)
    local sign = function() return r.chance(0.3) and -1 or 1 end
    return {
        x = r.int(-800, 800) / 8, y = r.int(-800, 800) / 8, rotation = r.int(-200, 200) / 64,
        scale_x = sign() * r.int(4, 24) / 8, scale_y = sign() * r.int(4, 24) / 8,
        origin = { r.int(-8, 40) / 4, r.int(-8, 40) / 4 },
    }
end

local function random_body(world, r)
    local f, w, hh = random_fields(r), nil, nil
    f.shape, w, hh = random_shape(r)
    f.static, f.swept, f.enabled = r.chance(0.2), r.chance(0.2), r.chance(0.8)
    f.group, f.category = r.int(-2, 2), 2 ^ r.int(0, 31)
    f.collides_with = r.chance(0.5) and 0xffffffff or r.int(0, 0x7fffffff) * 2 + r.int(0, 1)
    return world:body(f), f, w, hh
end

local function check_reads(body, f, what)
    for _, k in ipairs { "x", "y", "rotation", "scale_x", "scale_y", "static", "swept", "enabled", "group",
        "category", "collides_with" } do
        h.equal(body[k], f[k], what .. ": body." .. k)
    end
    h.check(rawequal(body.shape, f.shape), what .. ": body.shape is the shape given")
    local x, y = body:position()
    h.check(x == f.x and y == f.y, what .. ": body:position()", x, y)
    local t = body:transform()
    for _, k in ipairs { "x", "y", "rotation", "scale_x", "scale_y" } do h.equal(t[k], f[k], what .. ": transform." .. k) end
    h.check(t.origin[1] == f.origin[1] and t.origin[2] == f.origin[2], what .. ": transform.origin")
    local a = { body:aabb() }
    local b = { cw.aabb(f.shape, t) }
    h.check(#a == 4 and a[1] == b[1] and a[2] == b[2] and a[3] == b[3] and a[4] == b[4] and a[1] <= a[3] and
        a[2] <= a[4], what .. ": body:aabb() is cw.aabb(shape, body:transform())", a[1], a[2], a[3], a[4])
end

local function readings_give_back_what_was_set()
    local r = h.rng(20261203)
    local world = cw.world {}
    for case = 1, h.count(300) do
        local body, f, w, hh = random_body(world, r)
        check_reads(body, f, "made " .. case)
        local sw, sh = body.shape:size() -- box:size() or mask:size()
        h.check(sw == w and sh == hh, "shape:size()", sw, sh, "made as", w, hh)
        local changes = random_fields(r) -- set again: some fields by set{}, some by assignment
        changes.enabled, changes.group = not f.enabled, r.int(-2, 2)
        changes.category, changes.collides_with = 2 ^ r.int(0, 31), r.int(0, 0xffff)
        for k, v in pairs(changes) do
            if k ~= "origin" and r.chance(0.3) then body[k] = v else body:set { [k] = v } end
            f[k] = v
        end
        check_reads(body, f, "changed " .. case)
        if case % 3 == 0 then world:step() end
    end
    world:close()
end

local function box_size()
    local r = h.rng(7)
    for _ = 1, 50 do
        local w, hh = r.int(1, 4000) / 16, r.int(1, 4000) / 16
        local bw, bh = cw.box(w, hh):size()
        h.check(bw == w and bh == hh, "box:size()", bw, bh, w, hh)
    end
end

local function strictly_meet(a, b)
    return math.min(a[3], b[3]) > math.max(a[1], b[1]) and math.min(a[4], b[4]) > math.max(a[2], b[2])
end

-- The default filter reports a body that is switched on and whose collides_with is not 0.
local function findable(body) return body.enabled and body.collides_with ~= 0 end

local function query_box_against_aabbs()
    local r = h.rng(4242)
    local world = cw.world {}
    local bodies = {}
    for k = 1, 120 do bodies[k] = random_body(world, r) end
    world:step()
    local reported_total = 0
    for _ = 1, h.count(200) do
        local x, y = r.float(-120, 120), r.float(-120, 120)
        local box = { x, y, x + r.float(0, 60), y + r.float(0, 60) }
        local seen = {}
        for body in world:query_box(box[1], box[2], box[3], box[4]) do
            h.check(not seen[body], "query_box reports a body once")
            seen[body] = true
        end
        for _, body in ipairs(bodies) do
            local want = findable(body) and strictly_meet({ body:aabb() }, box)
            h.check(want == (seen[body] == true), "query_box: body", body:id(), "reported", seen[body], "meets", want)
            reported_total = reported_total + (want and 1 or 0)
        end
    end
    h.check(reported_total > h.count(200) / 4, "query_box found bodies", reported_total)
    world:close()
end

local function casts_against_cw_cast()
    local r = h.rng(99)
    local world = cw.world {}
    local bodies = {}
    for k = 1, 80 do bodies[k] = random_body(world, r) end
    local hits_total = 0
    for case = 1, h.count(150) do
        local shape, t = random_shape(r), random_fields(r)
        local dx, dy = r.float(-100, 100), r.float(-100, 100)
        local hits = world:cast_all(shape, t, dx, dy)
        local by_body, last = {}, -1
        for _, hit in ipairs(hits) do
            h.check(by_body[hit.body] == nil, "cast_all reports a body once")
            h.check(hit.fraction >= last, "cast_all is ordered by fraction")
            by_body[hit.body], last = hit.fraction, hit.fraction
        end
        local first
        for _, body in ipairs(bodies) do
            local f = findable(body) and cw.cast(shape, t, dx, dy, body.shape, body:transform()) or nil
            h.check(f == by_body[body], "case", case, "body", body:id(), "cast_all", by_body[body], "cw.cast", f)
            if f and (first == nil or f < first) then first = f end
            hits_total = hits_total + (f and 1 or 0)
        end
        local closest = world:cast(shape, t, dx, dy)
        h.check((closest and closest.fraction) == first and (closest == nil or rawequal(closest.body, hits[1].body)),
            "world:cast is cast_all's first hit", closest and closest.fraction, first)
    end
    h.check(hits_total > h.count(150), "casts hit bodies (more than one a cast)", hits_total)
    world:close()
end

-- body.data: given at creation, by set{}, by assignment, and kept after the body is destroyed.
local function data()
    local world = cw.world {}
    local mine = { hp = 3 }
    local body = world:body { shape = cw.box(1, 1), data = mine }
    h.check(rawequal(body.data, mine), "data given at creation")
    local other = {}
    body:set { data = other, x = 2 }
    h.check(rawequal(body.data, other) and body.x == 2, "data by set{}")
    body.data = "a string"
    h.equal(body.data, "a string", "data by assignment")
    body:destroy()
    body.data = 42
    h.equal(body.data, 42, "data of a destroyed body")
    world:close()
    body.data = false
    h.equal(body.data, false, "data of a body of a closed world")
end

local function names()
    local world = cw.world {}
    local box = cw.box(2, 3.5)
    h.equal(tostring(box), "collworld.box(2, 3.5)", "tostring(box): the same in every Lua")
    local mask = cw.mask_alpha(string.char(255, 0, 255, 255, 0, 0), 3, 2)
    h.equal(tostring(mask), "collworld.mask(3 x 2, 3 opaque)", "tostring(mask)")
    local a = world:body { shape = box }
    local b = world:body { shape = mask }
    h.equal(tostring(world), "collworld.world (2 bodies)", "tostring(world)")
    h.equal(tostring(b), "collworld.body #" .. b:id(), "tostring(body)")
    a:destroy()
    h.equal(tostring(a), "collworld.body #" .. a:id() .. " (destroyed)", "tostring(destroyed body)")
    h.equal(tostring(world), "collworld.world (1 body)", "tostring(world) after a destroy")
    world:close()
    h.equal(tostring(world), "collworld.world (closed)", "tostring(closed world)")
end

-- Counts are integers (Lua 5.4 prints 3, not 3.0; math.type says "integer"), measures are floats.
local function counts_are_integers()
    local world = cw.world { workers = 2 }
    for k = 1, 4 do world:body { shape = cw.box(2, 2), x = k, category = 0x80000000 } end
    world:step()
    local sheet = cw.sheet()
    sheet:add_grid("f", string.rep("\255", 4 * 16), 8, 2, 4, 2)
    local whole = {}
    for name, value in pairs(world:stats()) do
        if not name:find("_ms$") and name ~= "cell_size" then whole[#whole + 1] = { "stats()." .. name, value } end
    end
    for name, value in pairs(sheet:stats()) do whole[#whole + 1] = { "sheet:stats()." .. name, value } end
    local body = world:body { shape = cw.box(1, 1), category = 0x80000000, collides_with = 0xffffffff }
    whole[#whole + 1] = { "body.category", body.category }
    whole[#whole + 1] = { "body.collides_with", body.collides_with }
    whole[#whole + 1] = { "body.group", body.group }
    h.equal(body.category, 0x80000000, "a category in the top bit")
    h.equal(body.collides_with, 0xffffffff, "every category")
    h.check(#whole >= 19, "the counts read", #whole)
    for _, field in ipairs(whole) do
        h.check(field[2] % 1 == 0, field[1], "is not whole:", field[2])
        if math.type then h.equal(math.type(field[2]), "integer", field[1]) end
    end
    if math.type then h.equal(math.type(world:stats().narrow_ms), "float", "a measure") end
end

h.run("lua readings", {
    { "counts are integers", counts_are_integers },
    { "readings give back what was set", readings_give_back_what_was_set },
    { "box:size()", box_size },
    { "query_box against the bodies' AABBs", query_box_against_aabbs },
    { "cast_all and cast against cw.cast", casts_against_cw_cast },
    { "body.data", data },
    { "tostring of every object", names },
})
