/* tools/: what the commands of glance share: argument parsing, exit
 * statuses. */
#include "tools/cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
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


const char cli_exit_usage[] =
    "\n"
    "exit status: 0 content printed, 1 no main content found, 2 usage error,\n"
    "3 bad input (unreadable, empty, binary, over a limit, not an http(s) URL),\n"
    "4 internal error, 5 the page could not be fetched (network, HTTP error,\n"
    "timeout, address refused, too many redirects).\n";

int cli_is_version(const char *a)
{
    return !strcmp(a, "--version") || !strcmp(a, "-V");
}

int cli_version(void)
{
    printf("glance %s\n", GLANCE_VERSION);
    /* The fonts found here: a script without a face lays out with the
     * metric fallback, but a shot draws it as boxes. */
    glance_context *ctx = glance_context_new();
    char *report = ctx ? glance_fonts_report(ctx) : NULL;
    if (report) {
        printf("fonts (the default sans-serif and its fallbacks):\n");
        for (const char *p = report; *p;) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            printf("  %.*s\n", (int)n, p);
            p += n + (nl ? 1 : 0);
        }
    } else {
        printf("fonts: none could be set up\n");
    }
    free(report);
    glance_context_free(ctx);
    return 0;
}

void cli_bad_flag(const char *cmd, const char *flag)
{
    fprintf(stderr, "glance %s: unknown option '%s' (glance %s --help lists them)\n", cmd, flag, cmd);
}

int cli_load_geometry(const char *path, glance_options *o, int window_given, glance_geometry **geo)
{
    char why[600];
    glance_status gs = glance_geometry_read_file(path, geo, why, sizeof why);
    if (gs != GLANCE_OK) {
        fprintf(stderr, "glance: --geometry %s\n", why);
        return cli_exit_for(gs);
    }
    if (!window_given) {
        int w, h;
        char win[64];
        glance_geometry_window(*geo, &w, &h);
        snprintf(win, sizeof win, "%dx%d", w, h);
        if (glance_options_set(o, "window", win) != GLANCE_OK) {
            fprintf(stderr, "glance: --geometry %s: %s\n", path, glance_options_error(o));
            glance_geometry_free(*geo);
            *geo = NULL;
            return EXIT_USAGE;
        }
    }
    glance_options_set_geometry(o, *geo);
    return 0;
}

/* Reads standard input whole, up to `limit` bytes (one more tells the
 * library it was over). */
static int read_stdin(size_t limit, char **buf, size_t *len)
{
    size_t cap = 65536, n = 0;
    char *b = malloc(cap);
    if (!b)
        return -1;
    for (;;) {
        if (n == cap) {
            if (cap > limit)
                break;
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                return -1;
            }
            b = nb;
            cap *= 2;
        }
        size_t got = fread(b + n, 1, cap - n, stdin);
        n += got;
        if (got == 0) {
            if (ferror(stdin)) {
                free(b);
                return -1;
            }
            break;
        }
    }
    *buf = b;
    *len = n;
    return 0;
}

/* "scheme://...": a URL (glance_extract_url says which schemes it takes). */
static int looks_like_url(const char *s)
{
    size_t n = 0;
    if (!isalpha((unsigned char)s[0]))
        return 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '+' || s[n] == '-' || s[n] == '.')
        n++;
    return strncmp(s + n, "://", 3) == 0;
}

glance_status cli_load_page(glance_context *ctx, const char *path, const glance_options *o,
                            glance_result **res)
{
    glance_status st;
    *res = NULL;
    if (strcmp(path, "-") == 0) {
        char *buf = NULL, *limit = glance_options_get(o, "max_input_bytes");
        size_t len = 0;
        int rc = read_stdin(limit ? (size_t)strtoull(limit, NULL, 10) : (size_t)64 << 20, &buf, &len);
        free(limit);
        if (rc != 0) {
            fprintf(stderr, "glance: cannot read standard input\n");
            return GLANCE_EIO;
        }
        st = glance_extract(ctx, buf, len, o, res);
        free(buf);
    } else if (looks_like_url(path)) {
        st = glance_extract_url(ctx, path, o, res);
    } else {
        st = glance_extract_file(ctx, path, o, res);
    }
    /* A stylesheet that could not be fetched is no error, but the layout
     * may show it. */
    for (int i = 0; *res && i < glance_result_stylesheet_count(*res); i++) {
        const char *err, *url = glance_result_stylesheet(*res, i, &err);
        if (err)
            fprintf(stderr, "glance: warning: stylesheet %s skipped: %s\n", url, err);
    }
    if (st != GLANCE_OK) {
        /* The library's message names a file or URL it could not read
         * itself: then once is enough. */
        const char *msg = glance_result_message(*res, st);
        const char *name = strcmp(path, "-") ? path : "stdin";
        if (strstr(msg, name))
            fprintf(stderr, "glance: %s\n", msg);
        else
            fprintf(stderr, "glance: %s: %s\n", name, msg);
    }
    return st;
}
