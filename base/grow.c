/* base/: arrays that grow by doubling (grow.h). */
#include "base/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int base_grow(void *items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n = n > SIZE_MAX / 2 ? need : n * 2;
    if (size && n > SIZE_MAX / size)
        return -1;
    /* The array's pointer is read and written as bytes: `items` may point
     * to a pointer of any object type. */
    void *old, *p;
    memcpy(&old, items, sizeof old);
    p = realloc(old, n * size);
    if (!p)
        return -1;
    memcpy(items, &p, sizeof p);
    *cap = n;
    return 0;
}
