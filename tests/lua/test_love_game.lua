-- The LÖVE demo's game (demo/love/game.lua) played headless on autopilot: it runs, hits rocks
-- with its swept bullets, shares the ship's frames' mask, and plays the same way every run.
local h = require "harness"
local Game = require "game"

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
        g.world:close()
    end },
})
