/* base/: arrays that grow by doubling. */
#ifndef GLANCE_BASE_GROW_H
#define GLANCE_BASE_GROW_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for `need` items of `size` bytes in an array of capacity *cap
 * items. `items` is the address of the array's pointer (&v for `T *v`,
 * NULL or from malloc); the capacity doubles (from 16) until it holds
 * `need`. 0, or -1 when out of memory or when the bytes would overflow a
 * size_t: then the array and *cap are as they were. Doubling keeps n
 * appends linear. */
int base_grow(void *items, size_t *cap, size_t need, size_t size);

#ifdef __cplusplus
}
#endif

#endif
