// Memory and errors, shared by every part of the library. Not part of the public API.
#ifndef CW_NARROW_ALLOC_H
#define CW_NARROW_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Allocates through the user's allocator; on failure records an error and returns NULL.
void *cw__alloc(size_t size);
// Frees a block from cw__alloc; `size` must be the size that was asked for. NULL is ignored.
void cw__free(void *memory, size_t size);
// Records `message` (a static sentence) as this thread's last error.
void cw__fail(const char *message);

// Records a formatted sentence (printf-style, at most 255 bytes) as this thread's last error; kept
// in a per-thread buffer until the thread's next formatted error.
void cw__failf(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

// A capacity of at least `needed` grown from `capacity` by half again at a time (at least
// `minimum`), computed in 64 bits and capped at UINT32_MAX: growth is always geometric, never one
// element at a time, and never wraps.
uint32_t cw__grown_capacity(uint32_t capacity, uint32_t needed, uint32_t minimum);

// Makes room for at least `needed` elements of `size` bytes in *array (capacity *capacity),
// growing geometrically and keeping the contents. Returns false (array unchanged) on failure.
bool cw__reserve(void **array, size_t size, uint32_t *capacity, uint32_t needed);
// The same, but to `needed` elements and an eighth: for scratch whose whole need is known each time
// and drifts little between uses (a step's cell members), where half again would leave a third of
// it unused. Growth is still geometric: it grows again only once the need has passed its room.
bool cw__reserve_near(void **array, size_t size, uint32_t *capacity, uint32_t needed);
// The same, but to exactly `needed` elements: for room asked for up front (a known body count),
// where growth's spare room would only be waste.
bool cw__reserve_exact(void **array, size_t size, uint32_t *capacity, uint32_t needed);

#endif
