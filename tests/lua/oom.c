// Out of memory inside Lua: runs tests/lua/oom_script.lua in a fresh Lua 5.4 state whose allocator
// fails from its k-th allocation on, for every k the script reaches. Whatever fails must come out as a Lua
// error (never a crash, never a longjmp through the library: AddressSanitizer watches), and closing
// the state must free every world, sheet and mask (LeakSanitizer watches). Built by make lua-oom.
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

int luaopen_collworld(lua_State *L);

// From the fail_at-th growing allocation on, every one fails (Lua retries a failed allocation
// after a full collection, so a single failure would mostly be absorbed).
typedef struct limit {
    long calls, fail_at; // 0: none fail
    long failed;
} limit;

static void *limited_alloc(void *ud, void *memory, size_t old_size, size_t new_size)
{
    limit *l = ud;
    if (new_size == 0) {
        free(memory);
        return NULL;
    }
    bool grows = memory == NULL || new_size > old_size; // Lua requires shrinking never to fail
    if (grows && l->fail_at > 0 && ++l->calls >= l->fail_at) {
        l->failed++;
        return NULL;
    }
    return realloc(memory, new_size);
}

// One run: 0 if the script finished, 1 if it raised (as it should when memory ran out), -1 when
// it raised without any allocation failing.
static int run(const char *script, long fail_at, long *calls)
{
    limit l = {0, 0, 0};
    lua_State *L = lua_newstate(limited_alloc, &l);
    if (L == NULL)
        return 1;
    luaL_openlibs(L);
    luaL_requiref(L, "collworld", luaopen_collworld, 0);
    lua_pop(L, 1);
    if (luaL_loadfile(L, script) != LUA_OK) {
        fprintf(stderr, "lua-oom: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return -1;
    }
    l.fail_at = fail_at; // from here on, from the k-th allocation on, all fail
    int status = lua_pcall(L, 0, 0, 0);
    if (status != LUA_OK && l.failed == 0)
        fprintf(stderr, "lua-oom: the script failed without running out of memory: %s\n", lua_tostring(L, -1));
    *calls = l.calls;
    l.fail_at = 0;
    lua_close(L); // finalizers close worlds and free sheets and masks
    return status == LUA_OK ? 0 : l.failed > 0 ? 1 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: oom SCRIPT\n", stderr);
        return 2;
    }
    long k = 1, raised = 0;
    for (;; k++) {
        long calls = 0;
        int result = run(argv[1], k, &calls);
        if (result < 0)
            return 1;
        raised += result;
        if (calls < k) // the script made fewer allocations than k: it failed from each one on
            break;
    }
    printf("lua-oom: memory ran out at each of %ld allocations in turn, %ld runs raised 'not enough memory', none crashed\n", k - 1,
           raised);
    return raised > 0 ? 0 : 1;
}
