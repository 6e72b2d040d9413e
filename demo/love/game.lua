-- The game of demo/love without LÖVE: art painted into sprite sheets, a collworld world, the rules.
-- main.lua draws it and reads the keys; tests/lua/test_love_game.lua plays it headless.
local cw = require "collworld"

local Game = {}
Game.__index = Game

local SHIP, BULLET, ROCK = 1, 2, 4 -- collision categories
local TAU = 2 * math.pi
Game.SCALE = 2 -- sprites are drawn (and collide) at twice their texel size

-- --- art: RGBA strings, one sheet per kind of sprite ---

-- A sheet of `count` frames of size x size, painted by paint(frame, x, y) -> r, g, b, a.
local function paint_sheet(count, size, paint)
    local rows = {}
    for y = 0, size - 1 do
        local row = {}
        for x = 0, count * size - 1 do
            local r, g, b, a = paint(math.floor(x / size), x % size + 0.5, y + 0.5)
            row[#row + 1] = string.char(r, g, b, a)
        end
        rows[#rows + 1] = table.concat(row)
    end
    return { pixels = table.concat(rows), width = count * size, height = size, size = size }
end

-- The ship points right. Frames 1-3 add a flame with alpha under the threshold: it is drawn but
-- never collides, so all four frames share one mask.
local function ship_pixel(frame, x, y)
    local dx, dy = x - 16, y - 16
    if x >= 6 and x <= 28 and math.abs(dy) <= (28 - x) * 0.45 + 1 and math.abs(dy) <= (x - 6) * 1.2 + 2 then
        local edge = math.abs(dy) > (28 - x) * 0.45 - 1
        return edge and 120 or 200, edge and 200 or 230, 255, 255
    end
    if frame > 0 and x < 6 and math.abs(dy) < 3 + frame - x * 0.3 and dx < 0 then
        return 255, 160 - frame * 30, 40, 90 -- the flame: below the threshold
    end
    return 0, 0, 0, 0
end

-- Rocks: lumpy discs, a different lump pattern per frame.
local function rock_pixel(frame, x, y, size)
    local c = size / 2
    local a = math.atan2(y - c, x - c)
    local radius = c * (0.78 + 0.12 * math.sin(3 * a + frame * 1.7) + 0.07 * math.sin(7 * a + frame))
    local d = math.sqrt((x - c) ^ 2 + (y - c) ^ 2)
    if d >= radius then return 0, 0, 0, 0 end
    local shade = 150 - math.floor(40 * d / radius) + ((math.floor(x / 3) + math.floor(y / 3)) % 2) * 12
    return shade, shade - 20, shade - 40, 255
end

function Game.paint()
    return {
        ship = paint_sheet(4, 32, ship_pixel),
        rock = paint_sheet(4, 48, function(f, x, y) return rock_pixel(f, x, y, 48) end),
        pebble = paint_sheet(4, 24, function(f, x, y) return rock_pixel(f + 4, x, y, 24) end),
    }
end

-- --- the game ---

function Game.new(width, height, seed)
    local g = setmetatable({ width = width, height = height, score = 0, lives = 3, time = 0,
        hits = 0, bullets_fired = 0, seed = seed or 7, rocks = 0 }, Game)
    g.art = Game.paint()
    g.sheet = cw.sheet()
    for _, name in ipairs({ "ship", "rock", "pebble" }) do -- a fixed order: pairs() has none
        local art = g.art[name]
        g.sheet:add_grid(name, art.pixels, art.width, art.height, art.size, art.size, 128)
    end
    g.world = cw.world{ on_begin = function(a, b, contact) g:on_begin(a, b, contact) end }
    g.ship = g.world:body{ frame = g.sheet:frame("ship/0"), x = width / 2, y = height / 2, origin = { 16, 16 }, scale = Game.SCALE,
        category = SHIP, collides_with = ROCK, group = -1, data = { kind = "ship", vx = 0, vy = 0, safe = 2 } }
    g.ship:set{ enabled = false } -- a moment of safety at the start
    for _ = 1, 8 do g:spawn_rock("rock", nil, nil, 48) end
    return g
end

function Game:random()
    self.seed = self.seed * 16807 % 2147483647
    return self.seed / 2147483647
end

function Game:spawn_rock(kind, x, y, size)
    local edge = self:random() < 0.5
    x = x or (edge and 0 or self:random() * self.width)
    y = y or (edge and self:random() * self.height or 0)
    local speed, heading = 20 + 60 * self:random(), self:random() * TAU
    local frame = math.floor(self:random() * 4)
    local rock = self.world:body{ frame = self.sheet:frame(kind .. "/" .. frame),
        x = x, y = y, origin = { size / 2, size / 2 }, scale = Game.SCALE, rotation = self:random() * TAU,
        category = ROCK, collides_with = SHIP + BULLET,
        data = { kind = kind, frame = frame, vx = speed * math.cos(heading), vy = speed * math.sin(heading),
            spin = self:random() * 2 - 1 } }
    self.rocks = self.rocks + 1
end

function Game:fire()
    local s = self.ship
    local dx, dy = math.cos(s.rotation), math.sin(s.rotation)
    local bullet = self.world:body{ shape = cw.box(4, 4), origin = { 2, 2 }, x = s.x + dx * 32, y = s.y + dy * 32,
        swept = true, group = -1, category = BULLET, collides_with = ROCK,
        data = { kind = "bullet", vx = dx * 900 + s.data.vx, vy = dy * 900 + s.data.vy, ttl = 0.8 } }
    self.bullets_fired = self.bullets_fired + 1
end

-- Contacts: a bullet breaks a rock (big rocks into two pebbles); a rock hits the ship.
function Game:on_begin(a, b, contact)
    if a.data.kind == "bullet" or b.data.kind == "bullet" then
        local bullet, rock = a, b
        if b.data.kind == "bullet" then bullet, rock = b, a end
        if not rock:is_valid() or not bullet:is_valid() then return end
        self.hits = self.hits + 1
        self.score = self.score + (rock.data.kind == "rock" and 20 or 50)
        self.rocks = self.rocks - 1
        bullet:destroy()
        if rock.data.kind == "rock" then
            for _ = 1, 2 do self:spawn_rock("pebble", rock.x, rock.y, 24) end
        end
        rock:destroy()
        self.last_hit = { x = contact.x, y = contact.y, time = self.time }
    elseif a.data.kind == "ship" or b.data.kind == "ship" then
        self.lives = self.lives - 1
        if self.lives == 0 then self.lives, self.score, self.games = 3, 0, (self.games or 0) + 1 end
        self.ship:teleport{ x = self.width / 2, y = self.height / 2 } -- no sweep across the screen
        self.ship.data.vx, self.ship.data.vy, self.ship.data.safe = 0, 0, 2
        self.ship:set{ enabled = false }
    end
end

-- Screen wrap: a teleport, so nothing sweeps across the screen.
function Game:wrap(body, margin)
    local x, y = body:position()
    local nx = (x < -margin) and self.width + margin or (x > self.width + margin) and -margin or x
    local ny = (y < -margin) and self.height + margin or (y > self.height + margin) and -margin or y
    if nx ~= x or ny ~= y then body:teleport{ x = nx, y = ny } end
end

-- One frame: input = { left, right, thrust, fire } (booleans).
function Game:update(dt, input)
    self.time = self.time + dt
    local s, d = self.ship, self.ship.data
    local turn = (input.right and 1 or 0) - (input.left and 1 or 0)
    local rotation = s.rotation + turn * 4 * dt
    if input.thrust then
        d.vx, d.vy = d.vx + math.cos(rotation) * 300 * dt, d.vy + math.sin(rotation) * 300 * dt
    end
    d.vx, d.vy = d.vx * (1 - 0.5 * dt), d.vy * (1 - 0.5 * dt)
    s:set{ x = s.x + d.vx * dt, y = s.y + d.vy * dt, rotation = rotation,
        frame = self.sheet:frame("ship/" .. (input.thrust and 1 + math.floor(self.time * 20) % 3 or 0)) }
    self:wrap(s, 32)
    if d.safe > 0 then
        d.safe = d.safe - dt
        if d.safe <= 0 then s:set{ enabled = true } end
    end
    self.cooldown = (self.cooldown or 0) - dt
    if input.fire and self.cooldown <= 0 then
        self:fire()
        self.cooldown = 0.12
    end
    -- Every body in index order (never pairs() over objects: its order follows memory addresses,
    -- and the order of destroys decides which slots new bodies take, so the game would differ
    -- from run to run).
    -- The rocks move in one call (world:move_all), then wrap.
    local rocks, xs, ys, turns = {}, {}, {}, {}
    for _, body in ipairs(self.world:bodies()) do
        local b = body.data
        if b.kind == "bullet" then
            b.ttl = b.ttl - dt
            if b.ttl <= 0 then
                body:destroy()
            else
                body:move_to(body.x + b.vx * dt, body.y + b.vy * dt)
                self:wrap(body, 2)
            end
        elseif b.kind == "rock" or b.kind == "pebble" then
            local k = #rocks + 1
            rocks[k], xs[k], ys[k] = body, body.x + b.vx * dt, body.y + b.vy * dt
            turns[k] = body.rotation + b.spin * dt
        end
    end
    self.world:move_all(rocks, xs, ys, turns)
    for _, rock in ipairs(rocks) do self:wrap(rock, 48) end
    if self.rocks == 0 then -- a new wave
        for _ = 1, 8 do self:spawn_rock("rock", nil, nil, 48) end
    end
    self.world:step()
end

-- The autopilot of headless runs and of the attract mode: turn, thrust now and then, fire.
function Game:autopilot()
    local t = self.time
    return { left = math.sin(t * 0.7) < -0.3, right = math.sin(t * 0.7) > 0.3, thrust = math.sin(t * 0.31) > 0.6,
        fire = true }
end

return Game
