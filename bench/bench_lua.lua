-- What the Lua binding costs on top of the C step: N boxes drifting in a square (the script keeps
-- their positions in arrays), each moved every frame by body:set{}, by body:move_to(), or all at
-- once by world:move_all(); begin/end callbacks counting events. Prints ms per frame for the moves, the
-- step as Lua sees it (callbacks included) and the step's own time (stats), medians of 5 runs.
-- With --quick (make bench-check): 500 boxes, 5 frames, one run each, to see that it still runs.
local cw = require "collworld"
local quick = arg ~= nil and arg[1] == "--quick"

local function run(n, frames, callbacks, how)
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
    local xs, ys, vxs, vys = {}, {}, {}, {} -- the script keeps its sprites' positions in arrays
    for k = 1, n do
        xs[k], ys[k] = bodies[k]:position()
        vxs[k], vys[k] = bodies[k].data.vx, bodies[k].data.vy
    end
    world:step()
    local move, step, inner = 0, 0, 0
    for _ = 1, frames do
        local t0 = os.clock()
        for k = 1, n do
            xs[k], ys[k] = (xs[k] + vxs[k]) % side, (ys[k] + vys[k]) % side
        end
        if how == "move_all" then
            world:move_all(bodies, xs, ys)
        elseif how == "move_to" then
            for k = 1, n do
                bodies[k]:move_to(xs[k], ys[k])
            end
        else
            for k = 1, n do
                bodies[k]:set{ x = xs[k], y = ys[k] }
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
print("| boxes | callbacks | move by set{}, ms | move by move_to(), ms | move_all(), ms | step from Lua, ms "
    .. "| step's own time, ms | events/frame |")
print("|---:|---|---:|---:|---:|---:|---:|---:|")
local sizes, runs, frames = { 2000, 10000 }, 5, 60
if quick then
    sizes, runs, frames = { 500 }, 1, 5
end
for _, n in ipairs(sizes) do
    for _, callbacks in ipairs({ false, true }) do
        local m, f, a, s, i, e = {}, {}, {}, {}, {}, 0
        for r = 1, runs do -- interleaved: set{}, move_to(), move_all()
            m[r] = run(n, frames, callbacks, "set")
            f[r], s[r], i[r], e = run(n, frames, callbacks, "move_to")
            a[r] = run(n, frames, callbacks, "move_all")
        end
        print(("| %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f |"):format(n, callbacks and "begin+end" or "none",
            median(m), median(f), median(a), median(s), median(i), e))
    end
end
