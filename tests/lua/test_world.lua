-- Random worlds stepped from Lua, checked against a brute-force loop over cw.overlap: the events
-- (and world:events()), what each body touches, and the queries. Callbacks also create, destroy,
-- move and switch bodies; after a step whose callbacks change nothing, the touching pairs must be
-- exactly the brute force's.
local cw = require "collworld"
local h = require "harness"

local function band4(a, b) -- a & b for values in [0, 15]
    local r, bit = 0, 1
    for _ = 1, 4 do
        if a % (2 * bit) >= bit and b % (2 * bit) >= bit then r = r + bit end
        bit = bit * 2
    end
    return r
end

-- Shapes: boxes, masks from alpha strings, frames of a sheet (some frames repeat).
local function make_shapes(r)
    local shapes = {}
    for _ = 1, 4 do shapes[#shapes + 1] = cw.box(r.float(2, 30), r.float(2, 30)) end
    for _ = 1, 3 do
        local w, hh = r.int(1, 24), r.int(1, 24)
        local bytes = {}
        for k = 1, w * hh do bytes[k] = string.char(r.chance(0.6) and 255 or 0) end
        shapes[#shapes + 1] = cw.mask_alpha(table.concat(bytes), w, hh, 128)
    end
    local sheet = cw.sheet()
    local pattern = {}
    for k = 1, 4 do pattern[k] = r.int(0, 1000) end
    local pixels = h.rgba(64, 32, function(x, y)
        local frame = math.floor(x / 16) + 4 * math.floor(y / 16)
        local p = pattern[frame % 4 + 1]
        return (((x % 16) * 7 + (y % 16) * 13 + p) % 5 < 3) and 200 or 0
    end)
    h.equal(sheet:add_grid("f", pixels, 64, 32, 16, 16, 128), 8, "grid frames")
    h.equal(sheet:stats().masks <= 4, true, "repeated frames share masks")
    for k = 0, 7 do shapes[#shapes + 1] = sheet:frame("f/" .. k) end
    return shapes
end

local function random_transform(r)
    local t = { x = r.float(0, 160), y = r.float(0, 160) }
    if r.chance(0.6) then t.rotation = r.chance(0.3) and r.int(0, 3) * math.pi / 2 or r.float(-4, 4) end
    if r.chance(0.4) then t.scale_x = r.pick({ 1, -1, 0.5, 2, -1.5 }) end
    if r.chance(0.4) then t.scale_y = r.pick({ 1, -1, 0.75, 2 }) end
    if r.chance(0.4) then t.origin = { r.float(-5, 10), r.float(-5, 10) } end
    return t
end

local function full(t) -- the transform table with every field, as the world holds it
    return { x = t.x, y = t.y, rotation = t.rotation or 0, scale_x = t.scale_x or 1, scale_y = t.scale_y or 1,
        origin = t.origin or { 0, 0 } }
end

local function pair_key(a, b)
    local i, j = a:id(), b:id()
    if i > j then i, j = j, i end
    return i * 1000000 + j
end

-- The world and a model of it kept by the test.
local function new_case(seed)
    local r = h.rng(seed)
    local c = { r = r, shapes = make_shapes(r), model = {}, touching = {}, log = {} }
    c.world = cw.world{ cell_size = r.chance(0.5) and 0 or r.float(8, 40) }
    return c
end

local function spawn(c)
    local r = c.r
    local t = random_transform(r)
    local m = { shape = r.pick(c.shapes), t = full(t), category = r.pick({ 1, 2, 4, 8 }),
        collides_with = r.pick({ 15, 15, 7, 3, 0 }), group = r.pick({ 0, 0, 0, 1, -1, 2 }),
        static = r.chance(0.15), enabled = r.chance(0.9) }
    local def = { shape = m.shape, category = m.category, collides_with = m.collides_with, group = m.group,
        static = m.static, enabled = m.enabled, data = { serial = r.next() } }
    for k, v in pairs(t) do def[k] = v end
    m.body = c.world:body(def)
    m.serial = def.data.serial
    c.model[m.body] = m
    return m
end

local function live(c)
    local list = {}
    for _, m in pairs(c.model) do list[#list + 1] = m end
    table.sort(list, function(a, b) return a.body:id() < b.body:id() end)
    return list
end

local function passes(a, b)
    if not a.enabled or not b.enabled or (a.static and b.static) then return false end
    if a.group ~= 0 and a.group == b.group then return a.group > 0 end
    return band4(a.category, b.collides_with) ~= 0 and band4(b.category, a.collides_with) ~= 0
end

local function brute_touching(c)
    local list, set = live(c), {}
    for i = 1, #list do
        for j = i + 1, #list do
            local a, b = list[i], list[j]
            if passes(a, b) and cw.overlap(a.shape, a.t, b.shape, b.t) then set[pair_key(a.body, b.body)] = true end
        end
    end
    return set
end

-- One random change to the world (and the model).
local function mutate(c, m)
    local r, op = c.r, c.r.int(1, 10)
    if op == 1 then
        local t = random_transform(r)
        m.body:set(t)
        for k, v in pairs(t) do m.t[k] = v end
    elseif op == 2 then
        m.t.x, m.t.y = r.float(0, 160), r.float(0, 160)
        m.body:teleport{ x = m.t.x, y = m.t.y }
    elseif op == 3 then
        m.t.x = m.t.x + r.float(-8, 8)
        m.body.x = m.t.x -- as a field
    elseif op == 4 then
        m.shape = r.pick(c.shapes)
        m.body:set_shape(m.shape)
    elseif op == 5 then
        m.category, m.collides_with = r.pick({ 1, 2, 4, 8 }), r.pick({ 15, 7, 3, 0 })
        m.body:set{ category = m.category, collides_with = m.collides_with }
    elseif op == 6 then
        m.group = r.pick({ 0, 1, -1 })
        m.body.group = m.group
    elseif op == 7 then
        m.enabled = not m.enabled
        m.body:set{ enabled = m.enabled }
    elseif op == 8 then
        c.model[m.body] = nil
        m.body:destroy()
        h.equal(m.body:is_valid(), false, "destroyed")
    elseif op == 10 then
        m.t.x, m.t.y = m.t.x + r.float(-8, 8), m.t.y + r.float(-8, 8)
        if r.chance(0.5) then
            m.t.rotation = r.float(-4, 4)
            m.body:move_to(m.t.x, m.t.y, m.t.rotation)
        else
            m.body:move_to(m.t.x, m.t.y)
        end
    else
        m.body:set{ rotation = r.float(-4, 4), scale = r.pick({ 1, 2, { -1, 1 } }) }
        m.t.rotation = m.body.rotation
        m.t.scale_x, m.t.scale_y = m.body.scale_x, m.body.scale_y
    end
end

-- Callbacks log every event; in a "busy" step they also change the world.
local function install_callbacks(c)
    local function record(kind)
        return function(a, b, contact)
            h.check(a:id() < b:id(), "a before b")
            h.check(contact.fraction == 1, "unswept pairs are found at the end of the step")
            if kind == "begin" then
                h.check(contact.depth >= 0 and math.abs(contact.nx * contact.nx + contact.ny * contact.ny - 1) < 1e-3,
                    "a begin's manifold", contact.depth, contact.nx, contact.ny)
            end
            c.log[#c.log + 1] = { kind, a, b }
            if c.busy and c.r.chance(0.3) then
                local victim = c.r.chance(0.5) and a or b
                if c.r.chance(0.5) and victim:is_valid() then
                    c.model[victim] = nil
                    victim:destroy()
                    victim:destroy() -- a second destroy does nothing
                elseif c.r.chance(0.5) then
                    spawn(c)
                elseif victim:is_valid() then
                    mutate(c, c.model[victim])
                end
            end
        end
    end
    c.world:on_begin(record("begin"))
    c.world:on_end(record("end"))
end

-- The step's events against the pairs touching before: ends of touching pairs, then begins of
-- pairs that were not, each group in ascending pair order; world:events() the same list.
local function check_events(c)
    local order, last = { ["end"] = 1, begin = 2 }, { 0, -1 }
    for _, e in ipairs(c.log) do
        local key = pair_key(e[2], e[3])
        local rank = { order[e[1]], key }
        h.check(rank[1] > last[1] or (rank[1] == last[1] and rank[2] > last[2]), "event order", e[1], key)
        last = rank
        if e[1] == "end" then
            h.check(c.touching[key], "an end of a pair that touched", key)
            c.touching[key] = nil
        else
            h.check(not c.touching[key], "a begin of a pair already touching", key)
            c.touching[key] = true
        end
    end
    local ev = c.world:events()
    local arrays = {}
    for _, e in ipairs(ev.ends) do arrays[#arrays + 1] = { "end", e.a, e.b } end
    for _, e in ipairs(ev.begins) do arrays[#arrays + 1] = { "begin", e.a, e.b } end
    h.equal(#arrays, #c.log, "world:events() count")
    for k = 1, math.min(#arrays, #c.log) do
        h.check(arrays[k][1] == c.log[k][1] and rawequal(arrays[k][2], c.log[k][2]) and
            rawequal(arrays[k][3], c.log[k][3]), "world:events() entry", k)
    end
end

local function check_touching(c)
    local want = brute_touching(c)
    local n = 0
    for key in pairs(want) do
        n = n + 1
        h.check(c.touching[key], "brute force touches, the world's events do not", key)
    end
    for key in pairs(c.touching) do h.check(want[key], "the world's events touch, brute force does not", key) end
    h.equal(c.world:stats().touching_pairs, n, "stats.touching_pairs")
    local all, model = c.world:bodies(), live(c) -- every live body, in index order
    h.equal(#all, #model, "world:bodies() count")
    for k = 1, math.min(#all, #model) do h.check(rawequal(all[k], model[k].body), "world:bodies() entry", k) end
    for _, m in ipairs(live(c)) do -- body:touching() for every body
        local got, expect = m.body:touching(), {}
        for _, o in ipairs(live(c)) do
            if o ~= m and want[pair_key(m.body, o.body)] then expect[#expect + 1] = o.body end
        end
        h.equal(#got, #expect, "body:touching() count")
        for k = 1, math.min(#got, #expect) do h.check(rawequal(got[k], expect[k]), "body:touching() entry") end
    end
end

-- Whether a query with `filter` (nil: every bit) reports the body, as between two bodies.
local function reported(m, filter)
    local f = filter or { category = 15, collides_with = 15 }
    return m.enabled and band4(m.category, f.collides_with) ~= 0 and band4(f.category, m.collides_with) ~= 0
end

local function check_queries(c)
    local r = c.r
    for _ = 1, 4 do
        local x, y = r.float(-10, 180), r.float(-10, 180)
        local filter = r.chance(0.5) and { category = 15, collides_with = r.pick({ 1, 3, 15 }) } or nil
        local want = {}
        for _, m in ipairs(live(c)) do
            if reported(m, filter) and cw.contains(m.shape, m.t, x, y) then want[#want + 1] = m.body end
        end
        local got = {}
        for body in c.world:query_point(x, y, filter) do got[#got + 1] = body end
        h.equal(#got, #want, "query_point count")
        for k = 1, math.min(#got, #want) do h.check(rawequal(got[k], want[k]), "query_point entry") end

        local dx, dy = r.float(-150, 150), r.float(-150, 150)
        local best
        for _, m in ipairs(live(c)) do
            local hit = reported(m) and cw.raycast_shape(m.shape, m.t, x, y, dx, dy)
            if hit and (best == nil or hit.fraction < best) then best = hit.fraction end
        end
        local hit = c.world:raycast(x, y, dx, dy)
        h.equal(hit and hit.fraction, best, "raycast fraction")
        local all = c.world:raycast_all(x, y, dx, dy)
        for k = 2, #all do h.check(all[k - 1].fraction <= all[k].fraction, "raycast_all order") end

        local shape, t = r.pick(c.shapes), full(random_transform(r))
        local expect = {}
        for _, m in ipairs(live(c)) do
            if reported(m) and cw.overlap(shape, t, m.shape, m.t) then expect[#expect + 1] = m.body end
        end
        local n = 0
        for body, contact in c.world:query_shape(shape, t, nil, true) do
            n = n + 1
            h.check(rawequal(body, expect[n]), "query_shape entry")
            h.check(contact ~= nil and contact.depth >= 0, "query_shape contact")
        end
        h.equal(n, #expect, "query_shape count")
        local first
        for _, m in ipairs(live(c)) do
            local f = reported(m) and cw.cast(shape, t, dx, dy, m.shape, m.t)
            if f and (first == nil or f < first) then first = f end
        end
        local cast = c.world:cast(shape, t, dx, dy)
        h.equal(cast and cast.fraction, first, "cast fraction")
    end
end

local function run_case(seed, steps)
    local c = new_case(seed)
    install_callbacks(c)
    for _ = 1, c.r.int(10, 40) do spawn(c) end
    for step = 1, steps do
        c.busy = step % 3 == 1
        for _ = 1, c.r.int(0, 6) do
            local list = live(c)
            if #list < 50 and (c.r.chance(0.3) or #list < 3) then spawn(c)
            elseif #list > 0 then mutate(c, c.r.pick(list)) end
        end
        c.log = {}
        c.world:step()
        check_events(c)
        if not c.busy then
            check_touching(c)
            if step % 4 == 0 then check_queries(c) end
        end
        for _, m in ipairs(live(c)) do h.equal(m.body.data.serial, m.serial, "data kept") end
        if step % 5 == 0 then collectgarbage() end
    end
    -- Every begin gets its end: destroy everything, step, and nothing is left touching.
    c.busy = false
    for _, m in ipairs(live(c)) do m.body:destroy() end
    c.model, c.log = {}, {}
    c.world:step()
    check_events(c)
    h.check(next(c.touching) == nil, "every begin was ended")
    c.world:close()
end

h.run("lua world", {
    { "random worlds against brute force", function()
        for seed = 1, h.count(40) do run_case(seed, 24) end
    end },
})
