-- The Lua API's promises one by one: every bad argument raises a standard error, destroyed bodies
-- and closed worlds raise on use, errors in callbacks never leave the world half-stepped, bodies
-- created and destroyed in callbacks, swept bullets, sheets, and lifetimes under the collector.
local cw = require "collworld"
local h = require "harness"

local function solid(w, hh) return h.rgba(w, hh, function() return 255 end) end

local function bad_arguments()
    local w = cw.world()
    local box = cw.box(4, 4)
    h.raises("bad argument #1 to 'box' (number expected, got no value)", function() cw.box() end)
    h.raises("bad argument #2 to 'box' (height must be positive and finite)", function() cw.box(1, -1) end)
    h.raises("bad argument #1 to 'box' (width must be positive and finite)", function() cw.box(0 / 0, 1) end)
    h.raises("bad argument #1 to 'mask' (string expected, got nil)", function() cw.mask(nil, 2, 2) end)
    h.raises("bad argument #1 to 'mask' (2 x 2 pixels need 16 bytes, the string has 3)", function() cw.mask("abc", 2, 2) end)
    h.raises("bad argument #2 to 'mask' (width must be in [1, 1048576])", function() cw.mask("", 0, 2) end)
    h.raises("bad argument #4 to 'mask_alpha' (alpha threshold must be in [0, 255])", function() cw.mask_alpha("ab", 2, 1, 256) end)
    h.raises("bad argument #1 to 'world' (table expected, got number)", function() cw.world(3) end)
    h.raises("bad argument #1 to 'world' (unknown field 'cellsize')", function() cw.world({ cellsize = 3 }) end)
    for _, bad in ipairs({ 0, -1, 65, 1.5, 0 / 0 }) do
        h.raises("bad argument #1 to 'world' (field 'workers' must be an integer from 1 to 64)",
            function() cw.world({ workers = bad }) end)
    end
    h.equal(cw.world({ workers = 2 }):stats().workers, 2, "workers")
    for _, bad in ipairs({ 0, -3, 2 ^ 31, 0.5 }) do
        h.raises("bad argument #1 to 'world' (field 'max_pairs' must be an integer from 1 to 2147483647)",
            function() cw.world({ max_pairs = bad }) end)
    end
    for _, bad in ipairs({ -1, 256, 1.5 }) do
        h.raises("bad argument #1 to 'world' (field 'id_tag' must be an integer from 0 to 255)",
            function() cw.world({ id_tag = bad }) end)
    end
    for _, bad in ipairs({ -1, 2 ^ 31 - 1, 2 ^ 40, 2.5, 0 / 0 }) do
        h.raises("bad argument #1 to 'world' (field 'body_capacity' must be an integer from 0 to 2147483646)",
            function() cw.world({ body_capacity = bad }) end)
    end
    do -- room made ahead changes nothing a script sees, within it and past it
        local roomy, plain = cw.world({ body_capacity = 3 }), cw.world()
        for _, w in ipairs({ roomy, plain }) do
            for k = 1, 5 do w:body({ shape = cw.box(4, 4), x = k * 3, y = 0 }) end
            w:step()
        end
        h.equal(roomy:stats().touching_pairs, plain:stats().touching_pairs, "pairs with body_capacity")
        h.equal(#roomy:events().begins, 4, "begins with body_capacity")
        h.check(roomy:stats().bytes > 0 and plain:stats().bytes > 0, "bytes", roomy:stats().bytes)
    end
    do -- world:reserve(n): the room body_capacity makes, in a world that already lives
        local w = cw.world()
        for _, bad in ipairs({ -1, 2 ^ 31 - 1, 2 ^ 40, 2.5, 0 / 0 }) do
            h.raises("bad argument #1 to 'reserve' (must be an integer from 0 to 2147483646)",
                function() w:reserve(bad) end)
        end
        h.raises("bad argument #1 to 'reserve' (number expected, got no value)", function() w:reserve() end)
        local made = cw.world({ body_capacity = 40 })
        w:reserve(40)
        h.equal(w:stats().bytes, made:stats().bytes, "reserve makes body_capacity's room")
        w:reserve(3) -- below the room there is: nothing
        h.equal(w:stats().bytes, made:stats().bytes, "reserve never shrinks")
        for k = 1, 5 do w:body({ shape = cw.box(4, 4), x = k * 3, y = 0 }) end
        w:step()
        h.equal(#w:events().begins, 4, "begins after reserve")
        w:close()
        h.raises("collworld: the world was closed", function() w:reserve(10) end)
    end
    do -- a pile-up over max_pairs: the step raises, nothing happens, stats say so; spread, it goes on
        local w = cw.world({ max_pairs = 3 })
        local bodies = {}
        for k = 1, 4 do bodies[k] = w:body({ shape = cw.box(4, 4), x = 0, y = 0 }) end
        h.raises("The step needs more than 3 candidate pairs", function() w:step() end)
        h.equal(w:stats().failed_steps, 1, "failed steps")
        h.equal(w:stats().touching_pairs, 0, "nothing touches after a failed step")
        for k = 1, 4 do bodies[k]:move_to(k * 3, 0) end
        w:step()
        h.equal(w:stats().failed_steps, 0, "failed steps after a good step")
        h.equal(w:stats().touching_pairs, 3, "pairs after spreading out")
        -- built a body a step: each step lists one new pair, yet the touching pairs may not pass 3
        local extra = w:body({ shape = cw.box(4, 4), x = 100, y = 0 })
        w:body({ shape = cw.box(4, 4), x = 102, y = 0 })
        h.raises("The step needs more than 3 candidate pairs", function() w:step() end)
        h.equal(w:stats().touching_pairs, 3, "the touching pairs as they were")
        extra:move_to(200, 0)
        w:step()
        h.equal(w:stats().touching_pairs, 3, "three again once the new pair has parted")
        local a, b = cw.world({ id_tag = 1 }), cw.world({ id_tag = 2 })
        local ba, bb = a:body({ shape = cw.box(1, 1) }), b:body({ shape = cw.box(1, 1) })
        local ia, ga = ba:id()
        local ib, gb = bb:id()
        h.equal(ia, ib, "same slot in both worlds")
        h.check(ga ~= gb, "generations differ by tag")
    end
    h.equal(cw.world():stats().workers, 1, "default workers")
    h.raises("bad argument #1 to 'world' (field 'on_begin': function expected, got number)", function() cw.world({ on_begin = 1 }) end)
    h.raises("collworld: The cell size", function() cw.world({ cell_size = -1 }) end)
    h.raises("bad argument #1 to 'body' (table expected, got no value)", function() w:body() end)
    h.raises("bad argument #1 to 'body' (field 'shape' or 'frame' expected)", function() w:body{ x = 1 } end)
    h.raises("bad argument #1 to 'body' (field 'x': number expected, got string)",
        function() w:body{ shape = box, x = "1" } end)
    h.raises("bad argument #1 to 'body' (unknown field 'rotaton')", function() w:body{ shape = box, rotaton = 1 } end)
    h.raises("bad argument #1 to 'body' (field 'shape': shape (cw.box or a mask) expected, got table)",
        function() w:body{ shape = {} } end)
    h.raises("bad argument #1 to 'body' (field 'frame': mask expected, got userdata)",
        function() w:body{ frame = box } end)
    h.raises("bad argument #1 to 'body' (give 'shape' or 'frame', not both)",
        function() w:body{ shape = box, frame = box } end)
    h.raises("bad argument #1 to 'body' (field 'origin': two numbers {x, y} expected)",
        function() w:body{ shape = box, origin = { 1 } } end)
    h.raises("bad argument #1 to 'body' (field 'origin': {x, y} expected, got string)",
        function() w:body{ shape = box, origin = "bad" } end)
    h.raises("bad argument #1 to 'body' (field 'scale': number or {x, y} expected, got string)",
        function() w:body{ shape = box, scale = "bad" } end)
    h.raises("bad argument #1 to 'body' (field 'category': an integer in [0, 0xffffffff] expected)",
        function() w:body{ shape = box, category = -1 } end)
    h.raises("bad argument #1 to 'body' (field 'group': a 32-bit integer expected)",
        function() w:body{ shape = box, group = 0.5 } end)
    h.raises("bad argument #1 to 'body' (field 'static': boolean expected, got number)",
        function() w:body{ shape = box, static = 1 } end)
    h.raises("collworld: ", function() w:body{ shape = box, scale = 0 } end) -- the library says why
    h.raises("collworld: ", function() w:body{ shape = box, x = 0 / 0 } end)
    local b = w:body{ shape = box }
    h.raises("bad argument #1 to 'set' (unknown field 'static')", function() b:set{ static = true } end)
    h.raises("bad argument #1 to 'set' (table expected, got number)", function() b:set(1) end)
    h.raises("collworld: ", function() b:set{ rotation = math.huge } end)
    h.equal(b.rotation, 0, "a failed set{} changes nothing")
    h.raises("a body has no field 'hp' (keep your own values in body.data)", function() return b.hp end)
    h.raises("bad argument #2 to 'move_to' (number expected, got no value)", function() b:move_to(1) end)
    h.raises("collworld: ", function() b:move_to(1, 0 / 0) end)
    b:move_to(3, 4, 0.5)
    h.check(b.x == 3 and b.y == 4 and math.abs(b.rotation - 0.5) < 1e-6, "move_to", b.x, b.y, b.rotation)
    h.raises("bad argument #1 to 'set_frame' (collworld.mask expected, got",
        function() b:set_frame(box) end)
    h.raises("bad argument #2 to 'query_point' (number expected, got no value)", function() w:query_point(1) end)
    h.raises("bad argument #3 to 'query_point' (unknown field 'mask')", function() w:query_point(1, 2, { mask = 1 }) end)
    h.raises("bad argument #2 to 'raycast' (number expected, got string)", function() w:raycast(1, "x", 1, 1) end)
    h.raises("collworld: ", function() w:raycast(0, 0, 0, 0) end) -- a zero-length ray
    h.raises("bad argument #1 to 'cast' (shape (cw.box or a mask) expected, got nil)", function() w:cast(nil) end)
    h.raises("bad argument #2 to 'cast' (table expected, got no value)", function() w:cast(box) end)
    h.raises("bad argument #3 to 'overlap' (shape (cw.box or a mask) expected, got number)",
        function() cw.overlap(box, {}, 5, {}) end)
    h.raises("bad argument #2 to 'overlap' (unknown field 'angle')", function() cw.overlap(box, { angle = 1 }, box, {}) end)
    h.raises("bad argument #2 to 'overlap' (unknown field [1]: fields are named, as in {x = 10})",
        function() cw.overlap(box, { 10, 20 }, box, {}) end)
    h.raises("bad argument #1 to 'body' (unknown field [boolean]: fields are named, as in {x = 10})",
        function() w:body{ shape = box, [true] = 1 } end)
    h.raises("collworld: The transform has a non-finite position, rotation, scale or origin.",
        function() cw.overlap(box, { x = 0 / 0 }, box, {}) end)
    h.raises("collworld: The transform has a zero scale.", function() cw.contains(box, { scale = { 1, 0 } }, 1, 1) end)
    h.raises("collworld: The point is not finite.", function() cw.contains(box, {}, 0 / 0, 1) end)
    h.raises("collworld: stays are off in this world", function() w:on_stay(print) end)
    h.raises("bad argument #1 to 'on_begin' (function expected, got number)", function() w:on_begin(3) end)
    h.raises("bad argument #1 to 'step' (collworld.world expected, got number)", function() w.step(3) end)
    h.raises("bad argument #1 to 'touching' (collworld.body expected, got nil)", function() w:touching(nil, b) end)
    local other = cw.world()
    local stranger = other:body{ shape = box }
    h.raises("bad argument #2 to 'touching' (the body belongs to another world)", function() w:touching(b, stranger) end)
    local sheet = cw.sheet()
    h.raises("bad argument #1 to 'add_grid' (the name is empty)", function() sheet:add_grid("", solid(2, 2), 2, 2, 1, 1) end)
    h.raises("bad argument #2 to 'add_grid' (4 x 4 pixels need 64 bytes, the string has 16)",
        function() sheet:add_grid("g", solid(2, 2), 4, 4, 2, 2) end)
    h.raises("collworld: The frame is larger than the sheet.", function() sheet:add_grid("g", solid(2, 2), 2, 2, 4, 4) end)
    h.raises("collworld: the sheet has no frame named 'nope'", function() sheet:frame("nope") end)
    h.equal(sheet:find("nope"), nil, "find gives nil")
    sheet:add("one", solid(2, 2), 2, 2)
    h.raises("collworld: The sheet already has a frame with that name.", function() sheet:add("one", solid(2, 2), 2, 2) end)
    h.raises("bad argument #6 to 'add' (the rectangle is not inside the image)",
        function() sheet:add("two", solid(2, 2), 2, 2, 128, { 1, 1, 2, 2 }) end)
    h.raises("bad argument #6 to 'add' (rectangle {x, y, width, height} expected)",
        function() sheet:add("two", solid(2, 2), 2, 2, 128, { 0, "x", 1, 1 }) end)
    h.equal(#sheet, 1, "failed adds change nothing")
    other:close()
    w:close()
end

local function destroyed_and_closed()
    local w = cw.world()
    local box = cw.box(4, 4)
    local b = w:body{ shape = box, data = { kind = "crate" } }
    b:destroy()
    h.equal(b:is_valid(), false, "is_valid after destroy")
    h.raises("collworld: the body was destroyed", function() return b.x end)
    h.raises("collworld: the body was destroyed", function() b:set{ x = 1 } end)
    h.raises("collworld: the body was destroyed", function() b.x = 1 end)
    h.raises("collworld: the body was destroyed", function() b:touching() end)
    h.raises("collworld: the body was destroyed", function() b:position() end)
    h.raises("collworld: the body was destroyed", function() b:move_to(1, 2) end)
    h.raises("collworld: the body was destroyed", function() w:touching(b, b) end)
    h.equal(b.data.kind, "crate", "data stays readable")
    b:destroy() -- again: nothing
    local c = w:body{ shape = box }
    w:close()
    w:close() -- again: nothing
    h.equal(w:is_closed(), true, "closed")
    h.equal(c:is_valid(), false, "bodies of a closed world are not valid")
    h.raises("collworld: the body's world was closed", function() return c.x end)
    h.raises("collworld: the world was closed", function() w:step() end)
    h.raises("collworld: the world was closed", function() w:body{ shape = box } end)
    h.raises("collworld: the world was closed", function() w:query_point(0, 0) end)
    c:destroy() -- nothing
    h.equal(tostring(w), "collworld.world (closed)", "tostring")
end

-- An error in a callback: the step completes (every event delivered, the touching set whole),
-- then world:step() raises the first error with its traceback.
local function callback_errors()
    local w = cw.world()
    local box = cw.box(10, 10)
    local bodies = {}
    for k = 1, 4 do bodies[k] = w:body{ shape = box, x = k * 2 } end -- all six pairs touch
    local begins = 0
    w:on_begin(function(a, b)
        begins = begins + 1
        if begins % 2 == 0 then error("boom " .. begins) end
    end)
    local ok, err = pcall(w.step, w)
    h.equal(ok, false, "step raised")
    h.check(tostring(err):find("boom 2", 1, true), "the first error", err)
    h.check(tostring(err):find("stack traceback", 1, true), "with its traceback", err)
    h.check(tostring(err):find("and 2 more errors", 1, true), "the others counted", err)
    h.equal(begins, 6, "every begin was delivered")
    h.equal(w:stats().touching_pairs, 6, "the step completed")
    h.equal(#bodies[1]:touching(), 3, "touching after a failed callback")
    w:on_begin(function() error({ code = 7 }) end) -- a non-string error is raised as it is
    w:body{ shape = box }
    ok, err = pcall(w.step, w)
    h.check(not ok and type(err) == "table" and err.code == 7, "a table error", err)
    -- step and close from a callback fail inside the callback (and so come out of step)
    w:on_begin(function() w:step() end)
    w:body{ shape = box }
    h.raises("world:step() cannot be called from the world's callbacks", w.step, w)
    w:on_begin(function() w:close() end)
    w:body{ shape = box }
    h.raises("world:close() cannot be called from the world's callbacks", w.step, w)
    h.equal(w:is_closed(), false, "still open")
    w:on_begin(nil)
    w:step()
    -- a coroutine cannot yield from a callback: an error, not a crash
    w:on_begin(function() coroutine.yield() end)
    w:body{ shape = box }
    local co = coroutine.create(function() w:step() end)
    local resumed, message = coroutine.resume(co)
    h.check(not resumed and tostring(message):find("yield", 1, true), "yield across the step", message)
    w:close()
end

-- Callbacks that destroy and create: a destroyed body is never named by a later begin, its ends
-- come next step with its object, a body made in a callback begins next step.
local function create_and_destroy_in_callbacks()
    local w = cw.world()
    local box = cw.box(10, 10)
    local victim = w:body{ shape = box, data = { name = "victim" } }
    local others = {}
    for k = 1, 3 do others[k] = w:body{ shape = box, x = k, data = { name = "o" .. k } } end
    local log, spawned = {}, nil
    w:on_begin(function(a, b)
        log[#log + 1] = "begin " .. a.data.name .. " " .. b.data.name
        if a == victim or b == victim then
            victim:destroy()
            if not spawned then spawned = w:body{ shape = box, x = 2, data = { name = "new" } } end
        end
    end)
    w:on_end(function(a, b) log[#log + 1] = "end " .. a.data.name .. " " .. b.data.name end)
    w:step()
    for _, line in ipairs(log) do h.check(not line:find("victim o[23]"), "no begin after the destroy", line) end
    h.equal(log[1], "begin victim o1", "the first begin")
    log = {}
    w:step()
    local ends, begins_new = 0, 0
    for _, line in ipairs(log) do
        if line == "end victim o1" then ends = ends + 1 end
        if line:find("new", 1, true) and line:find("begin", 1, true) then begins_new = begins_new + 1 end
    end
    h.equal(ends, 1, "the victim's end, with its object")
    h.equal(begins_new, 3, "the new body begins with the three others")
    h.equal(#w:events().ends, 1, "world:events() names the destroyed body")
    h.equal(w:events().ends[1].a, victim, "world:events() names the destroyed body")
    w:close()
end

-- A bullet faster than the wall is thick: swept, it begins and ends in the same step.
local function swept_bullets()
    local w = cw.world()
    local wall = w:body{ shape = cw.box(2, 100), x = 50, y = 0, static = true }
    local bullet = w:body{ shape = cw.box(1, 1), x = 0, y = 50, swept = true }
    local seen = {}
    w:on_begin(function(a, b, c) seen[#seen + 1] = { "begin", c.fraction } end)
    w:on_end(function() seen[#seen + 1] = { "end" } end)
    w:step()
    bullet.x = 100
    w:step()
    h.equal(#seen, 2, "begin and end in one step")
    h.check(seen[1][1] == "begin" and seen[1][2] > 0.4 and seen[1][2] < 0.5, "the fraction of the first touch", seen[1][2])
    h.equal(seen[2] and seen[2][1], "end", "then its end")
    h.equal(bullet.swept, true, "swept")
    bullet.swept = false
    bullet:teleport{ x = 0 }
    seen = {}
    w:step()
    bullet.x = 100
    w:step()
    h.equal(#seen, 0, "unswept, it passes through")
    h.equal(wall.static, true, "static")
    w:close()
end

-- Lifetimes under the collector: a body keeps its mask and its sheet alive; a collected world
-- destroys its bodies; data tables are not kept once a destroyed body's ends are reported.
local function lifetimes()
    local w = cw.world()
    do
        local sheet = cw.sheet()
        sheet:add_grid("ship", solid(8, 4), 8, 4, 4, 4)
        w:body{ frame = sheet:frame("ship/1"), x = 0 }
        w:body{ shape = cw.mask(solid(3, 3), 3, 3), x = 1 }
    end
    collectgarbage()
    collectgarbage()
    w:step() -- the masks are still there (valgrind would see a use after free)
    h.equal(w:stats().touching_pairs, 1, "masks kept alive by bodies")
    local weak = setmetatable({}, { __mode = "v" })
    do
        local b = w:body{ shape = cw.box(1, 1), data = { big = true } }
        weak[1] = b.data
        b:destroy()
    end
    w:step() -- the ends
    w:step() -- the object goes before this step
    collectgarbage()
    collectgarbage()
    h.equal(weak[1], nil, "data of a destroyed body is collected")
    local weak_world = setmetatable({}, { __mode = "v" })
    do
        local w2 = cw.world()
        for k = 1, 10 do w2:body{ shape = cw.box(5, 5), x = k, data = {} } end
        w2:step()
        weak_world[1] = w2
    end
    collectgarbage()
    collectgarbage()
    h.equal(weak_world[1], nil, "an unreferenced world is collected (and destroys its bodies)")
    local w4 = cw.world()
    do
        local b = w4:body{ shape = cw.box(1, 1), data = { closed = true } }
        weak[2] = b.data
    end
    w4:close()
    collectgarbage()
    collectgarbage()
    h.equal(weak[2], nil, "a closed world keeps no body's data")
    for _ = 1, 50 do -- many short-lived worlds, sheets and masks
        local s = cw.sheet()
        s:add_grid("a", solid(16, 16), 16, 16, 4, 4)
        local w3 = cw.world{ on_begin = function() end }
        for k = 0, 15 do w3:body{ frame = s:frame("a/" .. k), x = k } end
        w3:step()
    end
    collectgarbage()
    if _VERSION == "Lua 5.4" then -- to-be-closed worlds
        local closed = assert(load([[
            local cw = ...
            local seen
            do
                local w <close> = cw.world()
                seen = w
                w:body{ shape = cw.box(1, 1) }
            end
            return seen:is_closed()
        ]]))(cw)
        h.equal(closed, true, "<close> closes the world")
    end
    w:close()
end

local function sheets()
    local sheet = cw.sheet()
    -- four 8x8 frames: 0 and 2 the same, 1 empty, 3 a single texel
    local pixels = h.rgba(32, 8, function(x, y)
        local f, u, v = math.floor(x / 8), x % 8, y
        if f == 1 then return 0 end
        if f == 3 then return (u == 3 and v == 4) and 255 or 0 end
        return (u + v) % 3 == 0 and 200 or 10
    end)
    h.equal(sheet:add_grid("walk", pixels, 32, 8, 8, 8, 100), 4, "frames")
    local s = sheet:stats()
    h.equal(s.frames, 4, "stats.frames")
    h.equal(s.masks, 3, "stats.masks: repeats share")
    h.check(s.bytes > 0, "stats.bytes")
    h.equal(sheet:frame("walk/0"), sheet:frame("walk/2"), "shared masks compare equal")
    h.check(rawequal(sheet:frame("walk/1"), sheet:frame("walk/1")), "one object per frame")
    h.equal(sheet:frame("walk/3"):count(), 1, "one texel")
    h.equal(sheet:frame("walk/3"):get(3, 4), true, "the texel")
    local fw, fh = sheet:frame("walk/0"):size()
    h.check(fw == 8 and fh == 8, "frame size")
    local names = sheet:names()
    h.equal(table.concat(names, ","), "walk/0,walk/1,walk/2,walk/3", "names in order")
    sheet:add("single", pixels, 32, 8, 100, { 24, 0, 8, 8 })
    h.equal(sheet:frame("single"), sheet:frame("walk/3"), "a rectangle of the image")
    -- a body changing frames (an animation) keeps colliding as its frame says
    local w = cw.world()
    local target = w:body{ shape = cw.box(1, 1), x = 3, y = 4 } -- just on walk/3's texel
    local anim = w:body{ frame = sheet:frame("walk/1") }
    w:step()
    h.equal(w:touching(anim, target), false, "the empty frame touches nothing")
    anim:set_frame(sheet:frame("walk/3"))
    w:step()
    h.equal(w:touching(anim, target), true, "the next frame touches")
    h.check(rawequal(anim.shape, sheet:frame("walk/3")), "body.shape")
    w:close()
end

-- Every other entry point with each kind of bad input, table-driven: { expected text, call }.
local function every_entry_point()
    h.check(type(cw.version) == "string" and cw.version:match("^%d+%.%d+%.%d+$") ~= nil,
        "cw.version should be the version string, got", cw.version)
    local w = cw.world()
    local box = cw.box(4, 4)
    local mask = cw.mask_alpha(string.rep("\255", 4), 2, 2)
    local b = w:body{ shape = box }
    local dead = w:body{ shape = box }
    dead:destroy()
    local sheet = cw.sheet()
    local cases = {
        { "bad argument #1 to 'get' (number expected, got no value)", function() mask:get() end },
        { "bad argument #1 to 'size' (collworld.mask expected, got", function() mask.size(box) end },
        { "bad argument #1 to 'add' (string expected, got nil)", function() sheet:add(nil, "", 1, 1) end },
        { "bad argument #3 to 'add' (width must be in [1, 1048576])", function() sheet:add("x", "", 0, 1) end },
        { "bad argument #1 to 'frame' (string expected, got no value)", function() sheet:frame() end },
        { "bad argument #1 to 'names' (collworld.sheet expected, got", function() sheet.names(w) end },
        { "bad argument #1 to 'query_box' (number expected, got no value)", function() w:query_box() end },
        { "collworld: The query box is inverted", function() w:query_box(1, 1, 0, 0) end },
        { "bad argument #2 to 'query_shape' (table expected, got no value)", function() w:query_shape(box) end },
        { "bad argument #3 to 'query_shape' (table expected, got string)", function() w:query_shape(box, {}, "x") end },
        { "bad argument #4 to 'raycast_all' (number expected, got no value)", function() w:raycast_all(0, 0, 1) end },
        { "collworld: ", function() w:raycast_all(0, 0, 0 / 0, 1) end },
        { "bad argument #4 to 'cast_all' (number expected, got no value)", function() w:cast_all(box, {}, 1) end },
        { "collworld: ", function() w:cast(box, { scale = 0 }, 1, 1) end },
        { "bad argument #1 to 'teleport' (table expected, got no value)", function() b:teleport() end },
        { "collworld: ", function() b:teleport{ x = math.huge } end },
        { "bad argument #1 to 'set_shape' (shape (cw.box or a mask) expected, got no value)", function() b:set_shape() end },
        { "bad argument #1 to 'on_end' (function expected, got string)", function() w:on_end("f") end },
        { "bad argument #1 to 'on_begin' (value expected)", function() w:on_begin() end },
        { "bad argument #1 to 'contains' (shape (cw.box or a mask) expected, got nil)", function() cw.contains(nil, {}, 0, 0) end },
        { "bad argument #4 to 'contains' (number expected, got no value)", function() cw.contains(box, {}, 0) end },
        { "bad argument #6 to 'raycast_shape' (number expected, got no value)", function() cw.raycast_shape(box, {}, 0, 0, 1) end },
        { "collworld: ", function() cw.raycast_shape(box, {}, 0, 0, 0, 0) end },
        { "bad argument #2 to 'aabb' (table expected, got no value)", function() cw.aabb(box) end },
        { "collworld: ", function() cw.aabb(box, { rotation = 0 / 0 }) end },
        { "bad argument #3 to 'cast' (number expected, got no value)", function() cw.cast(box, {}) end },
        { "bad argument #5 to 'cast' (shape (cw.box or a mask) expected, got no value)", function() cw.cast(box, {}, 1, 1) end },
        { "bad argument #2 to 'query_box' (number expected, got no value)", function() w:query_box(0) end },
        { "bad argument #2 to 'get' (number expected, got no value)", function() mask:get(1) end },
        { "collworld: ", function() cw.cast(box, {}, 0 / 0, 1, box, {}) end },
        { "collworld: the body was destroyed", function() dead:contacts() end },
        { "collworld: the body was destroyed", function() dead:aabb() end },
        { "collworld: the body was destroyed", function() dead:transform() end },
        { "collworld: the body was destroyed", function() dead:teleport{ x = 1 } end },
        { "collworld: the body was destroyed", function() dead:set_frame(mask) end },
        { "collworld: the body was destroyed", function() return dead.static end },
    }
    for _, case in ipairs(cases) do h.raises(case[1], case[2]) end
    h.equal(b.x, 0, "nothing changed the body")
    w:close()
    for _, call in ipairs({ "events", "stats", "bodies", "on_begin", "raycast", "touching" }) do
        h.raises("collworld: the world was closed", function() w[call](w, print) end)
    end
end

-- Stays: on in a world made with stays (or on_stay); callbacks set, swapped and removed any time.
local function stays_and_callbacks()
    local w = cw.world{ stays = true }
    local a = w:body{ shape = cw.box(10, 10) }
    local b = w:body{ shape = cw.box(10, 10), x = 5 }
    local count = { begin = 0, stay = 0 }
    w:step() -- no callbacks: the events are kept all the same
    h.equal(#w:events().begins, 1, "a begin without a callback")
    w:step()
    h.equal(#w:events().stays, 1, "a stay without a callback")
    w:on_stay(function(x, y, contact)
        count.stay = count.stay + 1
        h.check(rawequal(x, a) and rawequal(y, b) and contact.depth > 0, "the stay's bodies and contact")
    end)
    w:step()
    w:step()
    h.equal(count.stay, 2, "on_stay each step")
    w:on_stay(nil)
    w:step()
    h.equal(count.stay, 2, "on_stay removed")
    h.equal(#a:contacts(), 1, "contacts")
    h.check(a:contacts()[1].nx > 0.99 and rawequal(a:contacts()[1].body, b), "the contact's normal toward b")
    w:close()
    local w2 = cw.world{ on_stay = function() count.stay = count.stay + 1 end }
    w2:body{ shape = cw.box(4, 4) }
    w2:body{ shape = cw.box(4, 4), x = 1 }
    w2:step()
    w2:step()
    h.equal(count.stay, 3, "on_stay given at creation turns stays on")
    w2:close()
    -- stay_manifolds = false: begins keep their contact, stays and contacts() carry zeros
    local lean = cw.world{ stays = true, stay_manifolds = false }
    local c, d = lean:body{ shape = cw.box(10, 10) }, lean:body{ shape = cw.box(10, 10), x = 5 }
    lean:step()
    local begin = lean:events().begins[1]
    h.check(begin.depth > 0 and begin.nx > 0.99, "a lean world's begin has its contact")
    lean:step()
    local stay = lean:events().stays[1]
    h.check(rawequal(stay.a, c) and rawequal(stay.b, d), "a lean world's stay")
    h.check(stay.depth == 0 and stay.nx == 0 and stay.ny == 0 and stay.x == 0, "a lean world's stay carries zeros")
    h.check(c:contacts()[1].depth == 0 and rawequal(c:contacts()[1].body, d), "a lean world's contacts carry zeros")
    lean:close()
    h.raises("bad argument #1 to 'world' (field 'stay_manifolds': boolean expected, got number)",
        function() cw.world({ stay_manifolds = 1 }) end)
end

-- world:move_all: the same bodies as move_to one at a time (random lists, with and without
-- rotations, in worlds with and without workers: transforms and events alike); each bad entry
-- raises naming its index and moves nothing; allowed in a step's callback.
local function move_all()
    local r = h.rng(4242)
    for case = 1, h.count(40) do
        local workers = case % 2 + 1
        local one, listed = cw.world{ workers = 1 }, cw.world{ workers = workers }
        local ones, lists, logs = {}, {}, { {}, {} }
        for i, w in ipairs({ one, listed }) do
            w:on_begin(function(a, b) logs[i][#logs[i] + 1] = "b" .. a:id() .. "-" .. b:id() end)
            w:on_end(function(a, b) logs[i][#logs[i] + 1] = "e" .. a:id() .. "-" .. b:id() end)
        end
        local n = r.int(1, 60)
        for k = 1, n do
            local def = { shape = cw.box(r.float(1, 6), r.float(1, 6)), x = r.float(0, 40), y = r.float(0, 40),
                rotation = r.float(-3, 3) }
            ones[k], lists[k] = one:body(def), listed:body(def)
        end
        for frame = 1, 4 do
            local xs, ys, rs, turn = {}, {}, {}, r.chance(0.5)
            for k = 1, n do
                xs[k], ys[k], rs[k] = r.float(0, 40), r.float(0, 40), r.float(-3, 3)
                ones[k]:move_to(xs[k], ys[k], turn and rs[k] or nil)
            end
            listed:move_all(lists, xs, ys, turn and rs or nil)
            for k = 1, n do
                local a, b = ones[k], lists[k]
                h.check(a.x == b.x and a.y == b.y and a.rotation == b.rotation, "move_all moves as move_to", case, k)
            end
            one:step()
            listed:step()
            h.equal(table.concat(logs[2], " "), table.concat(logs[1], " "), "move_all's events")
            logs[1], logs[2] = {}, {}
        end
        one:close()
        listed:close()
    end

    local w, other = cw.world{}, cw.world{}
    local box = cw.box(2, 2)
    local bodies = { w:body{ shape = box }, w:body{ shape = box, x = 1 }, w:body{ shape = box, x = 2 } }
    local stranger, gone = other:body{ shape = box }, w:body{ shape = box, x = 3 }
    gone:destroy()
    local xs, ys = { 10, 20, 30 }, { 0, 0, 0 }
    local function unmoved()
        h.check(bodies[1].x == 0 and bodies[2].x == 1 and bodies[3].x == 2, "a failed move_all moves nothing")
    end
    h.raises("bad argument #1 to 'move_all' (table expected, got nil)", function() w:move_all(nil, xs, ys) end)
    h.raises("bad argument #3 to 'move_all' (table expected, got number)", function() w:move_all(bodies, xs, 0) end)
    h.raises("bad argument #4 to 'move_all' (table expected, got string)",
        function() w:move_all(bodies, xs, ys, "r") end)
    h.raises("bad argument #1 to 'move_all' (body expected at index 2, got string)",
        function() w:move_all({ bodies[1], "b" }, xs, ys) end)
    h.raises("bad argument #1 to 'move_all' (the body at index 2 belongs to another world)",
        function() w:move_all({ bodies[1], stranger }, xs, ys) end)
    h.raises("bad argument #1 to 'move_all' (the body at index 3 was destroyed)",
        function() w:move_all({ bodies[1], bodies[2], gone }, xs, ys) end)
    h.raises("bad argument #3 to 'move_all' (number expected at index 3, got nil)",
        function() w:move_all(bodies, xs, { 0, 0 }) end)
    h.raises("bad argument #4 to 'move_all' (number expected at index 1, got boolean)",
        function() w:move_all(bodies, xs, ys, { true }) end)
    h.raises("collworld: entry 2 of the list has a non-finite position, rotation, scale or origin; nothing was moved.",
        function() w:move_all(bodies, { 1, 0 / 0, 3 }, ys) end)
    h.raises("collworld: entry 3 of the list names a body an earlier entry names (list each body once); "
        .. "nothing was moved.", function() w:move_all({ bodies[1], bodies[2], bodies[1] }, xs, ys) end)
    unmoved()
    w:move_all({}, {}, {})
    unmoved()
    -- From a step's callback: the bodies move for the next step.
    local moved = false
    w:on_begin(function(a, b)
        if not moved then w:move_all({ a, b }, { 100, 200 }, { 0, 0 }) end
        moved = true
    end)
    w:step()
    h.check(bodies[1].x == 100 and bodies[2].x == 200, "move_all from a callback", bodies[1].x, bodies[2].x)
    w:close()
    h.raises("collworld: the world was closed", function() w:move_all(bodies, xs, ys) end)
    other:close()
end

h.run("lua api", {
    { "moving many bodies at once", move_all },
    { "stays and callbacks", stays_and_callbacks },
    { "every entry point's misuse", every_entry_point },
    { "bad arguments", bad_arguments },
    { "destroyed bodies and closed worlds", destroyed_and_closed },
    { "errors in callbacks", callback_errors },
    { "create and destroy in callbacks", create_and_destroy_in_callbacks },
    { "swept bullets", swept_bullets },
    { "lifetimes under the collector", lifetimes },
    { "sprite sheets", sheets },
})
