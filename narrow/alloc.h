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

// Makes room for at least `needed` elements of `size` bytes in *array (capacity *capacity),
// growing geometrically and keeping the contents. Returns false (array unchanged) on failure.
bool cw__reserve(void **array, size_t size, uint32_t *capacity, uint32_t needed);

#endif
