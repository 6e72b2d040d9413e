// The counting allocator of counting.h.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collworld.h"
#include "counting.h"

static void *counting_alloc(size_t size, void *context)
{
    counter *c = context;
    c->zero_sized += size == 0;
    if (c->fail_at > 0 && ++c->armed_calls == c->fail_at) {
        c->failed++;
        return NULL;
    }
    void *p = malloc(size ? size : 1);
    if (p != NULL) {
        c->allocs++;
        c->live_bytes += (long)size;
        c->peak_bytes = c->live_bytes > c->peak_bytes ? c->live_bytes : c->peak_bytes;
    }
    return p;
}

static void counting_free(void *memory, size_t size, void *context)
{
    counter *c = context;
    c->frees++;
    c->live_bytes -= (long)size;
    free(memory);
}

void counter_install(counter *c)
{
    memset(c, 0, sizeof *c);
    assert_true(cw_set_allocator(counting_alloc, counting_free, c));
}

void counter_arm(counter *c, long k)
{
    c->armed_calls = 0;
    c->fail_at = k;
}

void counter_expect_no_leak(const counter *c)
{
    assert_int_equal(c->zero_sized, 0); // malloc(0) may return NULL: collworld never asks for 0 bytes
    if (c->allocs != c->frees || c->live_bytes != 0)
        printf("  allocator: %ld allocations, %ld frees, %ld bytes still live\n", c->allocs, c->frees, c->live_bytes);
    assert_int_equal(c->allocs, c->frees);
    assert_int_equal(c->live_bytes, 0);
}

int counter_restore_default(void **state)
{
    (void)state;
    return cw_set_allocator(NULL, NULL, NULL) ? 0 : -1;
}
