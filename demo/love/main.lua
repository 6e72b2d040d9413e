-- A small LÖVE game on collworld: `love demo/love` from the repository (after `make lua`), or
-- with the module installed (`make install`). Arrows turn and thrust, space fires, A toggles the
-- autopilot, D the debug view (AABBs, contacts), Esc quits. `love demo/love --screenshot FILE`
-- plays 4 seconds on autopilot, saves a screenshot and quits.
local source = love.filesystem.getSource()
package.cpath = source .. "/../../build/luajit/?.so;" .. package.cpath
package.path = source .. "/?.lua;" .. package.path
local Game = require "game"

local game, images, quads, debug_view, autopilot
local screenshot_file, quit_next

local function image_of(art)
    local data = love.image.newImageData(art.width, art.height, "rgba8", art.pixels)
    local image = love.graphics.newImage(data)
    image:setFilter("nearest", "nearest")
    local frames = {}
    for k = 0, art.width / art.size - 1 do
        frames[k] = love.graphics.newQuad(k * art.size, 0, art.size, art.size, art.width, art.height)
    end
    return image, frames
end

function love.load(args)
    for i, a in ipairs(args) do
        if a == "--screenshot" then screenshot_file = args[i + 1] end
    end
    autopilot = screenshot_file ~= nil
    game = Game.new(love.graphics.getWidth(), love.graphics.getHeight())
    images, quads = {}, {}
    for name, art in pairs(game.art) do images[name], quads[name] = image_of(art) end
end

function love.update(dt)
    dt = math.min(dt, 1 / 30)
    local input = autopilot and game:autopilot() or {
        left = love.keyboard.isDown("left"), right = love.keyboard.isDown("right"),
        thrust = love.keyboard.isDown("up"), fire = love.keyboard.isDown("space") }
    game:update(dt, input)
    if quit_next then love.event.quit() end
    if screenshot_file and game.time > 4 then
        local file = screenshot_file
        love.graphics.captureScreenshot(function(data) -- (an error in here crashes LÖVE 11.4)
            local png = data:encode("png")
            local f = io.open(file, "wb")
            if f then
                f:write(png:getString())
                f:close()
            end
            quit_next = true
        end)
        screenshot_file = nil
    end
end

-- Which sheet and frame a body shows: its frame's name tells.
local function draw_body(body, name, frame, size)
    local x, y = body:position()
    love.graphics.draw(images[name], quads[name][frame], x, y, body.rotation, Game.SCALE, Game.SCALE, size / 2, size / 2)
end

function love.draw()
    love.graphics.clear(0.04, 0.05, 0.09)
    love.graphics.setColor(1, 1, 1)
    for _, body in ipairs(game.world:bodies()) do
        local kind = body.data.kind
        if kind == "bullet" then
            love.graphics.setColor(1, 0.9, 0.4)
            love.graphics.rectangle("fill", body.x - 2, body.y - 2, 4, 4)
            love.graphics.setColor(1, 1, 1)
        elseif kind == "ship" then
            if body.enabled or math.floor(game.time * 10) % 2 == 0 then
                local thrust = love.keyboard.isDown("up") or (autopilot and game:autopilot().thrust)
                draw_body(body, "ship", thrust and 1 + math.floor(game.time * 20) % 3 or 0, 32)
            end
        else
            local frame = body.data.frame or 0
            draw_body(body, kind, frame, kind == "rock" and 48 or 24)
        end
        if debug_view then
            local x0, y0, x1, y1 = body:aabb()
            love.graphics.setColor(0.3, 1, 0.5, 0.5)
            love.graphics.rectangle("line", x0, y0, x1 - x0, y1 - y0)
            love.graphics.setColor(1, 1, 1)
        end
    end
    if game.last_hit and game.time - game.last_hit.time < 0.2 then
        love.graphics.setColor(1, 0.6, 0.2, 1 - (game.time - game.last_hit.time) * 5)
        love.graphics.circle("fill", game.last_hit.x, game.last_hit.y, 14)
        love.graphics.setColor(1, 1, 1)
    end
    local s, sheet = game.world:stats(), game.sheet:stats()
    love.graphics.print(("score %d   lives %d   %s"):format(game.score, game.lives,
        autopilot and "autopilot (A)" or "arrows, space; A autopilot, D debug"), 10, 10)
    love.graphics.print(("%d bodies, %d touching, step %.3f ms | sheet: %d frames, %d masks, %d KB"):format(
        s.bodies, s.touching_pairs, s.broad_ms + s.narrow_ms + s.events_ms, sheet.frames, sheet.masks,
        math.floor(sheet.bytes / 1024)), 10, 28)
end

function love.keypressed(key)
    if key == "escape" then love.event.quit() end
    if key == "a" then autopilot = not autopilot end
    if key == "d" then debug_view = not debug_view end
end
