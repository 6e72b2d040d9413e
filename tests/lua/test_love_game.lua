-- The LÖVE demo's game (demo/love/game.lua) played headless on autopilot: it runs, hits rocks
-- with its swept bullets, shares the ship's frames' mask, and plays the same way every run (and in
-- another process).
local h = require "harness"
local Game = require "game"

if arg and arg[1] == "--trace" then -- the child process of the last check
    local Game = require "game"
    local g = Game.new(960, 640, 11)
    local trace = {}
    for f = 1, tonumber(arg[2]) do
        g:update(1 / 60, g:autopilot())
        if f % 60 == 0 then trace[#trace + 1] = g.score .. "/" .. g.hits .. "/" .. g.lives end
    end
    io.write(table.concat(trace, " "))
    os.exit(0)
end

local function play(frames)
    local g = Game.new(960, 640, 11)
    local trace = {}
    for f = 1, frames do
        g:update(1 / 60, g:autopilot())
        if f % 60 == 0 then trace[#trace + 1] = g.score .. "/" .. g.hits .. "/" .. g.lives end
    end
    return g, table.concat(trace, " ")
end

h.run("love game", {
    { "autopilot plays", function()
        local g, trace = play(h.count(3600))
        h.check(g.hits > 0 or h.scale > 1, "bullets hit rocks", g.hits)
        h.check(g.bullets_fired > 10 or h.scale > 1, "bullets fired", g.bullets_fired)
        local sheet = g.sheet:stats()
        h.equal(sheet.frames, 12, "frames")
        h.equal(sheet.masks, 9, "the four ship frames share one mask (the flame does not collide)")
        h.check(g.sheet:frame("ship/0") == g.sheet:frame("ship/3"), "shared frame")
        h.check(g.world:stats().bodies < 200, "bodies stay few", g.world:stats().bodies)
        local _, again = play(h.count(3600))
        h.equal(again, trace, "the same game every run")
        local interpreter, script = arg and arg[-1], arg and arg[0]
        if interpreter and script then -- and in another process (other addresses, other string hashes)
            local child = io.popen(("%s %s --trace %d"):format(interpreter, script, h.count(3600)))
            h.equal(child:read("*a"), trace, "the same game in another process")
            child:close()
        end
        g.world:close()
    end },
})
