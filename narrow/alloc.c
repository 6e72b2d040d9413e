// The allocator hook and the per-thread last error.
#include "internal.h"

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

bool cw__reserve(void **array, size_t size, uint32_t *capacity, uint32_t needed)
{
    if (needed <= *capacity)
        return true;
    uint32_t grown = *capacity < 16 ? 16 : *capacity;
    while (grown < needed)
        grown = grown > UINT32_MAX / 2 ? needed : grown * 2;
    if ((size_t)grown > SIZE_MAX / size) {
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
    *capacity = grown;
    return true;
}

const char *cw_last_error(void) { return last_error; }

void cw_clear_error(void) { last_error = ""; }
