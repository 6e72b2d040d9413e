-- Test helpers shared by the Lua test scripts; the same under Lua 5.4 and LuaJIT.
local M = {}

-- CW_TEST_SCALE divides the random case counts (as for the C suite).
M.scale = tonumber(os.getenv("CW_TEST_SCALE") or "1") or 1
function M.count(n)
    return math.max(1, math.floor(n / M.scale))
end

-- CW_TEST_SALT mixes into every seed (as for the C suite): the same checks on other random cases.
M.salt = math.floor(tonumber(os.getenv("CW_TEST_SALT") or "0") or 0)

-- A seeded generator that gives the same numbers in every Lua (Park-Miller: exact in doubles).
function M.rng(seed)
    local state = (seed + M.salt * 104729) % 2147483646 + 1
    local r = {}
    function r.next()
        state = state * 16807 % 2147483647
        return state
    end
    function r.float(lo, hi) -- in [lo, hi)
        return lo + (hi - lo) * ((r.next() - 1) / 2147483646)
    end
    function r.int(lo, hi) -- in [lo, hi]
        return lo + (r.next() - 1) % (hi - lo + 1)
    end
    function r.chance(p)
        return r.float(0, 1) < p
    end
    function r.pick(list)
        return list[r.int(1, #list)]
    end
    return r
end

local failures, checks = 0, 0
function M.check(ok, ...)
    checks = checks + 1
    if not ok then
        failures = failures + 1
        if failures <= 20 then
            local parts = {}
            for i = 1, select("#", ...) do parts[#parts + 1] = tostring((select(i, ...))) end
            print("  FAILED: " .. table.concat(parts, " ") .. "\n" .. debug.traceback("", 2))
        end
    end
    return ok
end

function M.equal(got, want, what)
    return M.check(got == want, what or "", "got", got, "want", want)
end

-- `fn` raises an error whose message contains `pattern` (plain text).
function M.raises(pattern, fn, ...)
    local ok, err = pcall(fn, ...)
    return M.check(not ok and tostring(err):find(pattern, 1, true) ~= nil, "expected an error with '" .. pattern ..
        "', got", ok and "no error" or err)
end

-- Runs the named tests in order and exits non-zero on any failure.
function M.run(name, tests)
    local start = os.clock()
    for _, t in ipairs(tests) do
        local before = failures
        local ok, err = xpcall(t[2], debug.traceback)
        if not ok then
            failures = failures + 1
            print("  ERROR in " .. t[1] .. ": " .. tostring(err))
        end
        print(("  %-40s %s"):format(t[1], failures == before and "ok" or "FAILED"))
    end
    print(("%s (%s): %d checks, %d failed, %.1f s"):format(name, _VERSION .. (jit and " / " .. jit.version or ""),
        checks, failures, os.clock() - start))
    if failures > 0 then os.exit(1) end
end

-- An RGBA string of w x h pixels whose alpha is given by alpha(x, y) (0-based).
function M.rgba(w, h, alpha)
    local rows = {}
    for y = 0, h - 1 do
        local row = {}
        for x = 0, w - 1 do row[#row + 1] = string.char(x % 256, y % 256, 7, alpha(x, y)) end
        rows[#rows + 1] = table.concat(row)
    end
    return table.concat(rows)
end

return M
