-- The script tests/lua/oom.c runs with each allocation failing in turn: every kind of object and
-- call the binding has, callbacks that create and destroy, queries, events. Its asserts hold on
-- every run that gets that far.
local cw = require "collworld"
local pixels = string.rep("\255\255\255\255", 64 * 16)
local sheet = cw.sheet()
sheet:add_grid("f", pixels, 64, 16, 16, 16)
local mask = cw.mask_alpha(string.rep("\255", 64), 8, 8)
local world = cw.world{ stays = true }
local made = 0
world:on_begin(function(a, b, contact)
    if made < 4 then
        made = made + 1
        world:body{ shape = cw.box(3, 3), x = a.x, y = a.y, data = { made = made } }
    end
    if b.data and b.data.victim then b:destroy() end
end)
world:on_end(function(a, b) end)
world:on_stay(function(a, b, contact) end)
world:reserve(20) -- room for what comes, made before it comes
local bodies = {}
for k = 1, 12 do
    bodies[k] = world:body{ frame = sheet:frame("f/" .. k % 4), x = k * 6, y = 0, data = { victim = k % 5 == 0 } }
end
bodies[#bodies + 1] = world:body{ shape = mask, x = 3, y = 3, swept = true }
for step = 1, 4 do
    local live, xs, ys = {}, {}, {}
    for k = 1, #bodies do
        if bodies[k]:is_valid() then
            if k % 2 == 0 then
                bodies[k]:move_to(bodies[k].x + 1, bodies[k].y)
            else -- the others in one list
                live[#live + 1], xs[#xs + 1], ys[#ys + 1] = bodies[k], bodies[k].x + 1, bodies[k].y
            end
        end
    end
    world:move_all(live, xs, ys)
    world:step()
    local events = world:events()
    assert(#events.begins + #events.stays + #events.ends >= 0)
    for body in world:query_point(10, 5) do assert(body:is_valid()) end
    assert(world:raycast(-10, 5, 200, 0))
    local hits = world:cast_all(cw.box(4, 4), { x = -10, y = 4 }, 200, 0)
    assert(#hits > 0)
    assert(#bodies[2]:touching() >= 0)
end
assert(cw.overlap(mask, {}, cw.box(2, 2), { x = 1 }))
local placed = cw.place(sheet:frame("f/1"), { x = 1, rotation = 0.5 })
assert(placed:overlaps(cw.place(mask, { x = 2 }), true))
bodies[1]:destroy()
world:step()
world:close()
-- A world with a worker: its pool and the workers' scratch are made with it (without them it runs
-- on fewer threads, which is no failure).
local shared = cw.world{ workers = 2 }
for k = 1, 6 do shared:body{ shape = cw.box(4, 4), x = k * 3, y = 0 } end
shared:step()
assert(shared:stats().touching_pairs == 5)
shared:close()
