-- The world example from README.md in Lua, run by `make test` (under Lua 5.4 and LuaJIT).
local cw = require "collworld"

local frame = 0
local world = cw.world{
    on_begin = function(a, b) print(("frame %d: %s starts touching %s"):format(frame, a.data.name, b.data.name)) end,
    on_end = function(a, b) print(("frame %d: %s stops touching %s"):format(frame, a.data.name, b.data.name)) end,
}
world:body{ shape = cw.box(10, 100), x = 100, y = -50, static = true, data = { name = "the wall" } }
local ship = world:body{ shape = cw.box(16, 8), origin = { 8, 4 }, data = { name = "the ship" } }

for f = 1, 30 do
    frame = f
    ship:set{ x = ship.x + 5, rotation = ship.rotation + 0.1 } -- the game moves its sprites...
    world:step() -- ...and the world reports who starts and stops touching
end
world:close()
