/* render/: the pieces of a tag scan shared by depth.c and cssfilter.c. */
#include "render/htmlscan.h"

#include <ctype.h>
#include <string.h>

const char *htmlscan_skip_decl(const char *p, const char *end)
{
    if (end - p >= 3 && p[1] == '-' && p[2] == '-') {
        const char *c = p + 3;
        while (c + 2 < end && !(c[0] == '-' && c[1] == '-' && c[2] == '>'))
            c++;
        return c + 3 <= end ? c + 3 : end;
    }
    const char *gt = memchr(p, '>', (size_t)(end - p));
    return gt ? gt + 1 : end;
}

const char *htmlscan_find_end_tag(const char *p, const char *end, const char *name, size_t n)
{
    for (; p + 2 + n <= end; p++) {
        if (p[0] != '<' || p[1] != '/')
            continue;
        size_t i = 0;
        while (i < n && tolower((unsigned char)p[2 + i]) == name[i])
            i++;
        if (i == n)
            return p;
    }
    return end;
}
