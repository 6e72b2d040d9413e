-- Placed shapes from Lua: cw.place and placed:overlaps give exactly cw.overlap's answers and
-- contacts on random boxes, masks and sheet frames, rotated, scaled, mirrored and pivoted; each kind
-- of misuse raises its standard error; a placement keeps its mask (and a frame's sheet) alive.
local cw = require "collworld"
local h = require "harness"

local function blob(r, w, hh)
    local cx, cy, rad = r.float(0, w), r.float(0, hh), r.float(1, math.max(w, hh))
    return h.rgba(w, hh, function(x, y)
        local dx, dy = x + 0.5 - cx, y + 0.5 - cy
        return (dx * dx + dy * dy <= rad * rad or r.chance(0.15)) and 255 or 0
    end)
end

local function random_shape(r)
    if r.chance(0.4) then return cw.box(r.float(0.5, 20), r.float(0.5, 20)) end
    local w, hh = r.int(1, 24), r.int(1, 24)
    return cw.mask(blob(r, w, hh), w, hh)
end

local function random_transform(r)
    local sx, sy = r.float(0.5, 2), r.float(0.5, 2)
    if r.chance(0.3) then sx = -sx end
    if r.chance(0.3) then sy = sy * (r.chance(0.5) and -1 or 1) end
    local t = { x = r.float(-15, 15), y = r.float(-15, 15), scale = { sx, sy } }
    if r.chance(0.7) then t.rotation = r.float(-4, 4) end
    if r.chance(0.4) then t.origin = { r.float(-5, 10), r.float(-5, 10) } end
    if r.chance(0.2) then t.x, t.y = r.int(-10, 10), r.int(-10, 10) end -- whole offsets, unrotated paths
    return t
end

-- The same answer and the same contact, to the bit, as cw.overlap on what the placements were made of.
local function same_as_overlap()
    local r = h.rng(20261127)
    local touching = 0
    for case = 1, h.count(1500) do
        local a, b = random_shape(r), random_shape(r)
        local ta, tb = random_transform(r), random_transform(r)
        local pa, pb = cw.place(a, ta), cw.place(b, tb)
        local want = r.chance(0.5)
        local hit, contact = cw.overlap(a, ta, b, tb, want)
        local got, got_contact = pa:overlaps(pb, want)
        h.equal(got, hit, "case " .. case .. ": overlaps")
        h.equal(pb:overlaps(pa), hit, "case " .. case .. ": the other way round")
        if hit then touching = touching + 1 end
        if hit and want then
            for _, k in ipairs({ "x", "y", "nx", "ny", "depth" }) do
                h.equal(got_contact[k], contact[k], "case " .. case .. ": contact " .. k)
            end
        else
            h.equal(got_contact, nil, "case " .. case .. ": no contact table")
        end
        h.check(pa:shape() == a, "case " .. case .. ": shape() gives the shape it was made from")
    end
    h.check(touching > h.count(1500) / 5 and touching < h.count(1500) * 4 / 5, "touching pairs", touching)
end

local function misuse()
    local box = cw.box(4, 4)
    local p = cw.place(box, { x = 1 })
    h.raises("bad argument #1 to 'place' (shape (cw.box or a mask) expected, got number)", function() cw.place(3, {}) end)
    h.raises("bad argument #2 to 'place' (table expected, got no value)", function() cw.place(box) end)
    h.raises("bad argument #2 to 'place' (unknown field 'angle')", function() cw.place(box, { angle = 1 }) end)
    h.raises("collworld: The transform has a non-finite position, rotation, scale or origin.",
        function() cw.place(box, { x = 0 / 0 }) end)
    h.raises("collworld: ", function() cw.place(box, { scale = 0 }) end) -- a zero scale
    h.raises("bad argument #1 to 'overlaps' (collworld.placed expected, got number)", function() p:overlaps(3) end)
    h.raises("bad argument #1 to 'overlaps' (collworld.placed expected, got ", -- LuaJIT: "userdata"
        function() p:overlaps(box) end)
    h.raises("bad argument #1 to 'overlaps' (collworld.placed expected, got nil)", function() p.overlaps(nil, p) end)
    h.equal(tostring(p), "collworld.placed", "tostring")
    h.equal(p:overlaps(cw.place(box, { x = 5 })), false, "edges that only touch do not overlap")
    h.equal(p:overlaps(cw.place(box, { x = 4.5, y = -3 })), true, "overlapping")
end

local function lifetimes()
    local p, q
    do
        local sheet = cw.sheet()
        sheet:add_grid("ship", h.rgba(8, 4, function() return 255 end), 8, 4, 4, 4)
        p = cw.place(sheet:frame("ship/1"), { x = 0 })
        q = cw.place(cw.mask(h.rgba(3, 3, function() return 255 end), 3, 3), { x = 2, y = 1 })
    end
    collectgarbage()
    collectgarbage()
    h.equal(p:overlaps(q), true, "masks kept alive by their placements") -- valgrind would see a use after free
    local weak = setmetatable({}, { __mode = "k" })
    do
        local mask = cw.mask(h.rgba(2, 2, function() return 255 end), 2, 2)
        weak[mask] = true
        local placed = cw.place(mask, {})
        h.equal(placed:overlaps(placed), true, "a placement overlaps itself")
    end
    collectgarbage()
    collectgarbage()
    h.equal(next(weak), nil, "the mask goes with its last placement")
end

h.run("lua placed", {
    { "same as cw.overlap", same_as_overlap },
    { "misuse", misuse },
    { "lifetimes under the collector", lifetimes },
})
