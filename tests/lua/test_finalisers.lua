-- Finalisers: when a world, its masks or sheet and some other object with a finaliser all become
-- garbage in one collection, Lua runs their finalisers one after another, newest first, and a
-- finaliser may still reach the world (it holds it, or stores it somewhere). A mask's or a sheet's
-- finaliser that runs before such a world's last use must not free what the world's bodies read:
-- the world steps as before, while the collected mask or sheet itself can no longer be used (a
-- plain error, never a read of freed memory: valgrind and the sanitizers watch this test). Once the
-- world goes, what was kept for it goes too (valgrind's leak check).
local cw = require "collworld"
local h = require "harness"

-- An object whose collection calls fn: a table with __gc in Lua 5.4, a proxy in LuaJIT (Lua 5.1
-- runs no table finalisers).
local function finaliser(fn)
    if newproxy then
        local proxy = newproxy(true)
        getmetatable(proxy).__gc = fn
        return proxy
    end
    return setmetatable({}, { __gc = fn })
end

local function full_collection()
    collectgarbage()
    collectgarbage()
end

local solid = h.rgba(8, 8, function() return 255 end)

-- What a finaliser saw, checked once the collection is over (a finaliser's errors are not raised).
-- Each scenario is made by a function that returns nothing, so that only the finaliser's closure
-- (its upvalues) reaches the world: all of it is garbage in the same collection.
local seen

-- Steps the world and records the touching pairs, or what it raised.
local function step_and_count(world)
    seen.ran = true
    local ok, err = pcall(function()
        world:step()
        seen.pairs = world:stats().touching_pairs
    end)
    seen.step_error = not ok and tostring(err) or nil
end

local function each_use(tries)
    seen.ran = true
    local errors = {}
    for name, try in pairs(tries) do
        local ok, err = pcall(try)
        errors[name] = not ok and tostring(err) or "no error"
    end
    return errors
end

-- Makes a scene, lets the collector take all of it, and checks that its finaliser ran.
local function collect_scene(make)
    seen = {}
    make()
    full_collection()
    h.check(seen.ran, "the finaliser ran")
end

-- The world first, then the finaliser, then the mask: the mask is finalised first, the finaliser
-- next (while the world is still open), the world last.
local function make_mask_scene()
    local world = cw.world()
    local mask
    local late = finaliser(function()
        step_and_count(world)
        seen.errors = each_use({ size = function() return mask:size() end })
    end)
    mask = cw.mask(solid, 8, 8)
    world:body{ shape = mask, x = 0, y = 0 }
    world:body{ shape = mask, x = 4, y = 0 }
    world:body{ shape = mask, x = 30, y = 0 }
    assert(late) -- alive until the scene is complete
end

local function world_outlives_its_mask()
    collect_scene(make_mask_scene)
    h.equal(seen.step_error, nil, "a step from a finaliser after the mask's")
    h.equal(seen.pairs, 1, "the pair of the collected mask's bodies still touches")
    h.check(seen.errors and seen.errors.size:find("the mask was freed", 1, true), "the collected mask itself:",
        seen.errors and seen.errors.size)
end

-- The same with a sheet's frames: the sheet is collected first, the world still steps with its
-- frames, and the sheet and its frames refuse to be used.
local function make_sheet_scene()
    local world = cw.world()
    local sheet, frame
    local late = finaliser(function()
        step_and_count(world)
        seen.errors = each_use({
            sheet = function() return sheet:frame("f/0") end,
            frame = function() return cw.overlap(frame, {}, cw.box(1, 1), {}) end,
        })
        seen.frame_text = tostring(frame)
    end)
    sheet = cw.sheet()
    sheet:add_grid("f", h.rgba(16, 8, function() return 255 end), 16, 8, 8, 8)
    frame = sheet:frame("f/0")
    world:body{ frame = frame, x = 0, y = 0 }
    world:body{ frame = sheet:frame("f/1"), x = 4, y = 0 }
    assert(late) -- alive until the scene is complete
end

local function world_outlives_its_sheet()
    collect_scene(make_sheet_scene)
    h.equal(seen.step_error, nil, "a step from a finaliser after the sheet's")
    h.equal(seen.pairs, 1, "the collected sheet's frames still touch")
    local e = seen.errors or {}
    h.check(e.sheet and e.sheet:find("the sheet was freed", 1, true), "a collected sheet:", e.sheet)
    h.check(e.frame and e.frame:find("the mask was freed", 1, true), "a collected frame as a shape:", e.frame)
    h.equal(seen.frame_text, "collworld.mask (freed)", "tostring of a collected frame")
end

-- A collected mask reached from a finaliser: every use raises, its placement refuses to be tested.
local function make_refusing_scene()
    local mask, placed
    local late = finaliser(function()
        seen.errors = each_use({
            size = function() return mask:size() end,
            count = function() return mask:count() end,
            get = function() return mask:get(0, 0) end,
            overlap = function() return cw.overlap(mask, {}, cw.box(1, 1), {}) end,
            body = function() return cw.world():body{ shape = mask } end,
            place = function() return cw.place(mask, {}) end,
            placed = function() return placed:overlaps(placed) end,
        })
        seen.text = tostring(mask)
    end)
    mask = cw.mask(solid, 8, 8)
    placed = cw.place(mask, {})
    assert(late) -- alive until the scene is complete
end

local function collected_mask_refused()
    collect_scene(make_refusing_scene)
    for name, err in pairs(seen.errors or {}) do
        local want = name == "placed" and "the placed shape's mask was freed" or "the mask was freed"
        h.check(err:find(want, 1, true), name, "on a collected mask:", err)
    end
    h.equal(seen.text, "collworld.mask (freed)", "tostring of a collected mask")
end

-- A body that changed its shape, or was destroyed, no longer keeps the old mask: the world's step
-- after that mask went is as before.
local function make_reshaped_scene()
    local world = cw.world()
    local late = finaliser(function() step_and_count(world) end)
    local old, new, gone = cw.mask(solid, 8, 8), cw.mask(solid, 8, 8), cw.mask(solid, 8, 8)
    local a = world:body{ shape = old, x = 0, y = 0 }
    world:body{ shape = new, x = 4, y = 0 }
    world:body{ shape = gone, x = 2, y = 0 }:destroy()
    a:set_shape(new)
    a:set{ shape = old }
    a:set{ shape = new } -- pinned and let go by each path
    assert(late) -- alive until the scene is complete
end

local function reshaped_and_destroyed()
    collect_scene(make_reshaped_scene)
    h.equal(seen.step_error, nil, "a step from a finaliser after the old masks'")
    h.equal(seen.pairs, 1, "the reshaped body touches its neighbour")
end

-- A world closed while its mask is still in use elsewhere leaves the mask working; a mask used by
-- two worlds is kept until both let go.
local function shared_mask()
    local mask = cw.mask(solid, 8, 8)
    local one, two = cw.world(), cw.world()
    one:body{ shape = mask }
    two:body{ shape = mask }
    two:body{ shape = mask, x = 3 }
    one:close()
    two:step()
    h.equal(two:stats().touching_pairs, 1, "the other world's pair")
    h.equal(mask:count(), 64, "the mask after one world closed")
    two:close()
    h.equal(mask:count(), 64, "the mask after both closed")
end

h.run("lua finalisers", {
    { "a world outlives its mask", world_outlives_its_mask },
    { "a world outlives its sheet", world_outlives_its_sheet },
    { "a collected mask is refused", collected_mask_refused },
    { "reshaped and destroyed bodies", reshaped_and_destroyed },
    { "a mask shared by worlds", shared_mask },
})
