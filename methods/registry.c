/* methods/: the registry of registry.def. */
#include <string.h>

#include "methods/method.h"

#define METHOD(x) extern const method_desc method_##x;
#include "methods/registry.def"
#undef METHOD

const method_desc *const methods_all[] = {
#define METHOD(x) &method_##x,
#include "methods/registry.def"
#undef METHOD
};

const size_t methods_count = sizeof methods_all / sizeof methods_all[0];

const method_desc *methods_find(const char *name, size_t *index)
{
    for (size_t i = 0; name && i < methods_count; i++)
        if (strcmp(methods_all[i]->name, name) == 0) {
            if (index)
                *index = i;
            return methods_all[i];
        }
    return NULL;
}
