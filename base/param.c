/* base/: tables of typed parameters. */
#include "base/param.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Keys compare with '-' and '_' alike: flags are written with dashes. */
static int key_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
        if (x != y)
            return 0;
    }
    return *a == *b;
}

const base_param *base_param_find(const base_param *tab, size_t n, const char *key)
{
    if (!key)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (key_eq(tab[i].key, key) || (tab[i].alias && key_eq(tab[i].alias, key)))
            return &tab[i];
    return NULL;
}

static void *field(void *block, const base_param *p)
{
    return (char *)block + p->offset;
}

static const void *cfield(const void *block, const base_param *p)
{
    return (const char *)block + p->offset;
}

/* A finite number, the whole text; 0 or -1. */
static int parse_number(const char *s, double *out, const char **rest)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno == ERANGE || end == s || !isfinite(v) || s[0] == ' ' || s[0] == '\t')
        return -1;
    *out = v;
    if (rest)
        *rest = end;
    else if (*end)
        return -1;
    return 0;
}

static int in_range(const base_param *p, double v)
{
    if (p->flags & BASE_PARAM_ABOVE_MIN ? v <= p->min : v < p->min)
        return 0;
    return v <= p->max;
}

/* Index of `name` among the '|'-separated choices; -1 when none. */
static int choice_index(const char *choices, const char *name)
{
    size_t n = strlen(name);
    int i = 0;
    for (const char *c = choices; c && *c; i++) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncasecmp(c, name, n) == 0)
            return i;
        if (!bar)
            break;
        c = bar + 1;
    }
    return -1;
}

static void choice_name(const char *choices, int index, base_buf *out)
{
    const char *c = choices;
    for (int i = 0; c && i < index; i++) {
        c = strchr(c, '|');
        if (c)
            c++;
    }
    if (!c) {
        base_buf_puts(out, "?");
        return;
    }
    const char *bar = strchr(c, '|');
    base_buf_add(out, c, bar ? (size_t)(bar - c) : strlen(c));
}

static int parse_bool(const char *s, int *out)
{
    static const char *const yes[] = {"1", "true", "yes", "on"}, *const no[] = {"0", "false", "no", "off"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(s, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcasecmp(s, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return -1;
}

/* A duration in ms: seconds, or a number with ms, s or min after it. */
static int parse_ms(const char *s, double *ms)
{
    double v;
    const char *rest;
    if (parse_number(s, &v, &rest) != 0)
        return -1;
    if (*rest == '\0' || strcmp(rest, "s") == 0)
        v *= 1000;
    else if (strcmp(rest, "min") == 0)
        v *= 60000;
    else if (strcmp(rest, "ms") != 0)
        return -1;
    *ms = v;
    return 0;
}

/* A count with an optional k, M or G (powers of 1024). */
static int parse_size(const char *s, double *out)
{
    double v;
    const char *rest;
    if (parse_number(s, &v, &rest) != 0)
        return -1;
    if (*rest == 'k' || *rest == 'K')
        v *= 1024, rest++;
    else if (*rest == 'M')
        v *= 1024.0 * 1024, rest++;
    else if (*rest == 'G')
        v *= 1024.0 * 1024 * 1024, rest++;
    if (*rest || v != floor(v))
        return -1;
    *out = v;
    return 0;
}

void base_param_describe(const base_param *p, base_buf *out)
{
    switch (p->type) {
    case BASE_PARAM_BOOL: base_buf_puts(out, "on|off"); return;
    case BASE_PARAM_CHOICE: base_buf_puts(out, p->choices ? p->choices : ""); return;
    case BASE_PARAM_STRING: base_buf_puts(out, "text"); return;
    case BASE_PARAM_PAIR: base_buf_puts(out, "WxH, each "); break;
    default: break;
    }
    double lo = p->min, hi = p->max;
    const char *unit = "";
    if (p->type == BASE_PARAM_MS) {
        lo /= 1000;
        hi /= 1000;
        unit = " s";
    }
    /* A maximum this large is no bound a person needs to read. */
    int open_top = p->max >= 1e9 && p->type != BASE_PARAM_MS;
    if (p->flags & BASE_PARAM_ABOVE_MIN)
        base_buf_printf(out, open_top ? "above %.15g%s" : "above %.15g%s, at most %.15g%s", lo, unit,
                        hi, unit);
    else
        base_buf_printf(out, open_top ? "%.15g%s or more" : "%.15g%s to %.15g%s", lo, unit, hi, unit);
}

const char *base_param_type_name(const base_param *p)
{
    switch (p->type) {
    case BASE_PARAM_BOOL: return "on|off";
    case BASE_PARAM_INT:
    case BASE_PARAM_LONG: return "integer";
    case BASE_PARAM_SIZE: return "count";
    case BASE_PARAM_DOUBLE: return "number";
    case BASE_PARAM_MS: return "seconds";
    case BASE_PARAM_PAIR: return "WxH";
    case BASE_PARAM_CHOICE: return "name";
    case BASE_PARAM_STRING: return "text";
    }
    return "?";
}

static int refuse(const base_param *p, const char *text, char *why, size_t cap)
{
    base_buf b = BASE_BUF_INIT;
    base_param_describe(p, &b);
    snprintf(why, cap, "%s: '%s' must be %s", p->key, text, b.data ? b.data : "?");
    base_buf_free(&b);
    return -1;
}

int base_param_parse(const base_param *p, void *block, const char *text, char *why, size_t cap)
{
    double v, w;
    if (!text)
        text = "";
    switch (p->type) {
    case BASE_PARAM_BOOL: {
        int b;
        if (parse_bool(text, &b) != 0)
            return refuse(p, text, why, cap);
        *(int *)field(block, p) = b;
        return 0;
    }
    case BASE_PARAM_INT:
    case BASE_PARAM_LONG:
        if (parse_number(text, &v, NULL) != 0 || v != floor(v) || !in_range(p, v))
            return refuse(p, text, why, cap);
        if (p->type == BASE_PARAM_INT)
            *(int *)field(block, p) = (int)v;
        else
            *(long *)field(block, p) = (long)v;
        return 0;
    case BASE_PARAM_SIZE:
        if (parse_size(text, &v) != 0 || !in_range(p, v))
            return refuse(p, text, why, cap);
        *(size_t *)field(block, p) = (size_t)v;
        return 0;
    case BASE_PARAM_DOUBLE:
        if (parse_number(text, &v, NULL) != 0 || !in_range(p, v))
            return refuse(p, text, why, cap);
        *(double *)field(block, p) = v;
        return 0;
    case BASE_PARAM_MS:
        if (parse_ms(text, &v) != 0 || !in_range(p, floor(v + 0.5)))
            return refuse(p, text, why, cap);
        *(long *)field(block, p) = (long)floor(v + 0.5);
        return 0;
    case BASE_PARAM_PAIR: {
        const char *x = strpbrk(text, "xX");
        if (!x)
            return refuse(p, text, why, cap);
        char first[64];
        size_t n = (size_t)(x - text);
        if (n == 0 || n >= sizeof first)
            return refuse(p, text, why, cap);
        memcpy(first, text, n);
        first[n] = '\0';
        if (parse_number(first, &v, NULL) != 0 || parse_number(x + 1, &w, NULL) != 0 ||
            v != floor(v) || w != floor(w) || !in_range(p, v) || !in_range(p, w))
            return refuse(p, text, why, cap);
        int *f = field(block, p);
        f[0] = (int)v;
        f[1] = (int)w;
        return 0;
    }
    case BASE_PARAM_CHOICE: {
        int i = choice_index(p->choices, text);
        if (i < 0)
            return refuse(p, text, why, cap);
        *(int *)field(block, p) = i;
        return 0;
    }
    case BASE_PARAM_STRING: {
        char **f = field(block, p);
        char *s = NULL;
        if (!(text[0] == '\0' && (p->flags & BASE_PARAM_NULLABLE)) && !(s = strdup(text)))
            return -2;
        free(*f);
        *f = s;
        return 0;
    }
    }
    snprintf(why, cap, "%s: a parameter of an unknown type", p->key);
    return -1;
}

void base_param_format(const base_param *p, const void *block, base_buf *out)
{
    const void *f = cfield(block, p);
    switch (p->type) {
    case BASE_PARAM_BOOL: base_buf_puts(out, *(const int *)f ? "on" : "off"); return;
    case BASE_PARAM_INT: base_buf_printf(out, "%d", *(const int *)f); return;
    case BASE_PARAM_LONG: base_buf_printf(out, "%ld", *(const long *)f); return;
    case BASE_PARAM_SIZE: base_buf_printf(out, "%zu", *(const size_t *)f); return;
    case BASE_PARAM_DOUBLE: base_buf_printf(out, "%.17g", *(const double *)f); return;
    case BASE_PARAM_MS: {
        long ms = *(const long *)f;
        if (ms % 1000 == 0)
            base_buf_printf(out, "%ld", ms / 1000);
        else
            base_buf_printf(out, "%ldms", ms);
        return;
    }
    case BASE_PARAM_PAIR: {
        const int *v = f;
        base_buf_printf(out, "%dx%d", v[0], v[1]);
        return;
    }
    case BASE_PARAM_CHOICE: choice_name(p->choices, *(const int *)f, out); return;
    case BASE_PARAM_STRING: {
        const char *s = *(char *const *)f;
        base_buf_puts(out, s ? s : "");
        return;
    }
    }
}

int base_params_default(const base_param *tab, size_t n, void *block, char *why, size_t cap)
{
    for (size_t i = 0; i < n; i++) {
        if (tab[i].type == BASE_PARAM_STRING && !tab[i].def) {
            char **f = field(block, &tab[i]);
            free(*f);
            *f = NULL;
            continue;
        }
        if (base_param_parse(&tab[i], block, tab[i].def, why, cap) != 0)
            return -1;
    }
    return 0;
}

int base_params_copy(const base_param *tab, size_t n, void *dst, const void *src, size_t size)
{
    memcpy(dst, src, size);
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        if (tab[i].type != BASE_PARAM_STRING)
            continue;
        char **d = field(dst, &tab[i]);
        if (*d && !failed && !(*d = strdup(*d)))
            failed = 1;
        else if (failed)
            *d = NULL;
    }
    if (failed) {
        base_params_free(tab, n, dst);
        return -1;
    }
    return 0;
}

void base_params_free(const base_param *tab, size_t n, void *block)
{
    for (size_t i = 0; i < n; i++)
        if (tab[i].type == BASE_PARAM_STRING) {
            char **f = field(block, &tab[i]);
            free(*f);
            *f = NULL;
        }
}
