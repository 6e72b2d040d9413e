// The allocator hook and the per-thread last error.
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(size_t size, void *context)
{
    (void)context;
    return malloc(size);
}

static void default_free(void *memory, size_t size, void *context)
{
    (void)size;
    (void)context;
    free(memory);
}

// Process-wide by design: the allocator must be the same for every object so that any thread may
// free what another made. Set it once before creating anything.
static cw_alloc_fn *alloc_fn = default_alloc;
static cw_free_fn *free_fn = default_free;
static void *alloc_context;

static _Thread_local const char *last_error = "";

bool cw_set_allocator(cw_alloc_fn *alloc, cw_free_fn *free_function, void *context)
{
    if ((alloc == NULL) != (free_function == NULL)) {
        cw__fail("cw_set_allocator needs both an alloc and a free function, or NULL for both.");
        return false;
    }
    alloc_fn = alloc ? alloc : default_alloc;
    free_fn = free_function ? free_function : default_free;
    alloc_context = alloc ? context : NULL;
    return true;
}

void *cw__alloc(size_t size)
{
    void *memory = alloc_fn(size, alloc_context);
    if (memory == NULL)
        cw__fail("Out of memory: the allocator returned NULL.");
    return memory;
}

void cw__free(void *memory, size_t size)
{
    if (memory != NULL)
        free_fn(memory, size, alloc_context);
}

void cw__fail(const char *message) { last_error = message; }

void cw__failf(const char *format, ...)
{
    static _Thread_local char buffer[256];
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    last_error = buffer;
}

uint32_t cw__grown_capacity(uint32_t capacity, uint32_t needed, uint32_t minimum)
{
    uint64_t grown = capacity < minimum ? minimum : capacity;
    while (grown < needed)
        grown += grown / 2 + 1;
    return grown > UINT32_MAX ? UINT32_MAX : (uint32_t)grown;
}

// Moves the array's elements to a block of `grown` (> *capacity) elements.
static bool regrow(void **array, size_t size, uint32_t *capacity, uint64_t grown)
{
    if (grown > SIZE_MAX / size) {
        cw__fail("Out of memory: the requested size overflows.");
        return false;
    }
    void *bigger = cw__alloc((size_t)grown * size);
    if (bigger == NULL)
        return false;
    if (*array != NULL) {
        memcpy(bigger, *array, (size_t)*capacity * size);
        cw__free(*array, (size_t)*capacity * size);
    }
    *array = bigger;
    *capacity = (uint32_t)grown;
    return true;
}

bool cw__reserve(void **array, size_t size, uint32_t *capacity, uint32_t needed)
{
    if (needed <= *capacity)
        return true;
    // By half again, as the body slots grow: geometric (never one element at a time), and a third
    // less room left over on average than doubling (a quarter of a world's memory, once, at 100k).
    return regrow(array, size, capacity, cw__grown_capacity(*capacity, needed, 16));
}

bool cw__reserve_near(void **array, size_t size, uint32_t *capacity, uint32_t needed)
{
    uint64_t grown = (uint64_t)needed + needed / 8 + 16;
    return needed <= *capacity || regrow(array, size, capacity, grown > UINT32_MAX ? UINT32_MAX : grown);
}

bool cw__reserve_exact(void **array, size_t size, uint32_t *capacity, uint32_t needed)
{
    return needed <= *capacity || regrow(array, size, capacity, needed);
}

const char *cw_last_error(void) { return last_error; }

void cw_clear_error(void) { last_error = ""; }
