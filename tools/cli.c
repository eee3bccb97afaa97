/* tools/: what the commands of glance share: argument parsing, exit
 * statuses. */
#include "tools/cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cli_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int cli_parse_pair(const char *s, int *a, int *b)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || end == s || (*end != 'x' && *end != 'X'))
        return -1;
    const char *p = end + 1;
    long y = strtol(p, &end, 10);
    if (errno || end == p || *end || x <= 0 || y <= 0 || x > 100000 || y > 100000)
        return -1;
    *a = (int)x;
    *b = (int)y;
    return 0;
}

int cli_exit_for(glance_status st)
{
    switch (st) {
    case GLANCE_OK: return EXIT_CONTENT;
    case GLANCE_ENOCONTENT: return EXIT_NOCONTENT;
    case GLANCE_EOPTION: return EXIT_USAGE;
    case GLANCE_EINPUT:
    case GLANCE_ETOOBIG:
    case GLANCE_ECOSTLY:
    case GLANCE_EIO:
    case GLANCE_EURL: return EXIT_BADINPUT;
    case GLANCE_EOFFLINE: return EXIT_USAGE;
    case GLANCE_EFETCH:
    case GLANCE_ETIMEOUT:
    case GLANCE_EADDR:
    case GLANCE_EREDIRECTS: return EXIT_FETCH;
    default: return EXIT_INTERNAL;
    }
}

int cli_parse_list(const char *s, char ***items, int *n)
{
    *items = NULL;
    *n = 0;
    char *copy = strdup(s);
    if (!copy)
        return -1;
    int cap = 0;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 8;
            char **v = realloc(*items, (size_t)cap * sizeof *v);
            if (!v)
                goto fail;
            *items = v;
        }
        if (!((*items)[*n] = strdup(t)))
            goto fail;
        (*n)++;
    }
    free(copy);
    return *n > 0 ? 0 : -1;
fail:
    free(copy);
    cli_free_list(*items, *n);
    *items = NULL;
    *n = 0;
    return -1;
}

void cli_free_list(char **items, int n)
{
    for (int i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

