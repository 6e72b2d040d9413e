-- What the Lua binding costs on top of the C step: N boxes drifting in a square, each moved by
-- body:set{} every frame, begin/end callbacks counting events. Prints ms per frame for the moves,
-- the step as Lua sees it (callbacks included) and the step's own time (stats), medians of 5 runs.
local cw = require "collworld"

local function run(n, frames, callbacks, fast)
    local side = math.sqrt(n) * 24
    local seed = 12345
    local function rand()
        seed = seed * 16807 % 2147483647
        return seed / 2147483647
    end
    local events = 0
    local world = cw.world{ manifolds = false }
    if callbacks then
        world:on_begin(function() events = events + 1 end)
        world:on_end(function() events = events + 1 end)
    end
    local bodies = {}
    for k = 1, n do
        bodies[k] = world:body{ shape = cw.box(8 + 8 * rand(), 8 + 8 * rand()), x = rand() * side, y = rand() * side,
            rotation = rand() * 6.28, data = { vx = rand() * 2 - 1, vy = rand() * 2 - 1 } }
    end
    world:step()
    local move, step, inner = 0, 0, 0
    for _ = 1, frames do
        local t0 = os.clock()
        for k = 1, n do
            local b = bodies[k]
            local d = b.data
            local x, y = b:position()
            if fast then
                b:move_to((x + d.vx) % side, (y + d.vy) % side)
            else
                b:set{ x = (x + d.vx) % side, y = (y + d.vy) % side }
            end
        end
        local t1 = os.clock()
        world:step()
        local t2 = os.clock()
        local s = world:stats()
        move, step, inner = move + (t1 - t0), step + (t2 - t1), inner + (s.broad_ms + s.narrow_ms + s.events_ms) / 1000
    end
    local per = 1000 / frames
    world:close()
    return move * per, step * per, inner * per, events / frames
end

local function median(list)
    table.sort(list)
    return list[math.ceil(#list / 2)]
end

print(("collworld Lua binding, %s%s"):format(_VERSION, jit and (" / " .. jit.version) or ""))
print("| boxes | callbacks | move by set{}, ms | move by move_to(), ms | step from Lua, ms | step's own time, ms | events/frame |")
print("|---:|---|---:|---:|---:|---:|---:|")
for _, n in ipairs({ 2000, 10000 }) do
    for _, callbacks in ipairs({ false, true }) do
        local m, f, s, i, e = {}, {}, {}, {}, 0
        for r = 1, 5 do -- interleaved: set{} then move_to()
            m[r] = run(n, 60, callbacks, false)
            f[r], s[r], i[r], e = run(n, 60, callbacks, true)
        end
        print(("| %d | %s | %.2f | %.2f | %.2f | %.2f | %.0f |"):format(n, callbacks and "begin+end" or "none",
            median(m), median(f), median(s), median(i), e))
    end
end
