/* tools/: what the commands of glance share: argument parsing, exit
 * statuses. */
#include "tools/cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <zlib.h>

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

double cli_option_ms(const glance_options *o, const char *key)
{
    char *v = glance_options_get(o, key);
    if (!v)
        return 0;
    char *end;
    double d = strtod(v, &end);
    if (strcmp(end, "ms") != 0)
        d *= 1000; /* seconds, as the table prints them */
    free(v);
    return d > 0 ? d : 0;
}

size_t cli_max_memory(const glance_options *o)
{
    char *v = glance_options_get(o, "max_memory");
    size_t n = v ? (size_t)strtoull(v, NULL, 10) : 0;
    free(v);
    return n;
}

double cli_page_limit_ms(const glance_options *o, int url)
{
    double budget = cli_option_ms(o, "time_budget");
    if (budget <= 0)
        return 0;
    return budget + (url ? cli_option_ms(o, "timeout") : 0) + 1000;
}

void cli_worker_failed(char *buf, size_t cap, int killed, int status, const glance_options *o,
                       int url)
{
    if (killed) {
        double budget = cli_option_ms(o, "time_budget");
        if (url)
            snprintf(buf, cap,
                     "page too costly: over the budget of %.0f ms (time_budget) after the fetch "
                     "(timeout %.0f ms); its worker process was killed",
                     budget, cli_option_ms(o, "timeout"));
        else
            snprintf(buf, cap,
                     "page too costly: over the budget of %.0f ms (time_budget); its worker "
                     "process was killed",
                     budget);
        return;
    }
    size_t mem = cli_max_memory(o);
    if (WIFSIGNALED(status))
        snprintf(buf, cap, "the page could not be finished: its worker process ended by signal %d "
                 "(%s; max_memory %zu MB)",
                 WTERMSIG(status), strsignal(WTERMSIG(status)), mem >> 20);
    else
        snprintf(buf, cap, "the page could not be finished: its worker process exited with %d",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
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
    /* The browser of --engine chromium, when there is one. */
    char browser[1200];
    if (ctx && glance_browser_version(ctx, NULL, browser, sizeof browser) == GLANCE_OK)
        printf("browser (--engine chromium): %s\n", browser);
    else if (ctx)
        printf("browser (--engine chromium): none: %s\n", browser);
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

int cli_is_gzip(const void *buf, size_t len)
{
    const unsigned char *b = buf;
    return len >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

int cli_gunzip(const void *in, size_t in_len, size_t limit, char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return -1;
    size_t cap = in_len * 4 + 4096, n = 0;
    if (cap > limit + 1)
        cap = limit + 1;
    char *b = malloc(cap + 1);
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)(in_len > UINT32_MAX ? UINT32_MAX : in_len);
    int rc = Z_OK;
    while (b && n <= limit) {
        if (n == cap) {
            size_t ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
            char *nb = ncap > cap ? realloc(b, ncap + 1) : NULL;
            if (!nb)
                break; /* at the limit (or out of memory): what is read so far, one byte over */
            b = nb;
            cap = ncap;
        }
        z.next_out = (unsigned char *)b + n;
        z.avail_out = (uInt)(cap - n);
        rc = inflate(&z, Z_NO_FLUSH);
        n = cap - z.avail_out;
        if (rc == Z_STREAM_END) {
            /* Another member may follow (gzip files may be concatenated). */
            if (z.avail_in == 0 || !cli_is_gzip(z.next_in, z.avail_in))
                break;
            if (inflateReset(&z) != Z_OK) {
                rc = Z_DATA_ERROR;
                break;
            }
            rc = Z_OK;
        } else if (rc != Z_OK) {
            break;
        }
    }
    inflateEnd(&z);
    if (!b || (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) ||
        (rc == Z_BUF_ERROR && n < cap)) {
        free(b);
        return -1;
    }
    b[n] = '\0';
    *out = b;
    *out_len = n;
    return 0;
}

/* Reads a gzip file whole, at most `limit` + 1 bytes of what it holds (one
 * more tells the library it was over). 0, or -1 with errno (EINVAL: not
 * gzip data, or broken). */
static int read_gz_file(const char *path, size_t limit, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    gzFile f = gzopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    while (b && n <= limit) {
        if (n == cap) {
            char *nb = realloc(b, cap * 2 + 1);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
        size_t want = cap - n;
        if (want > limit + 1 - n)
            want = limit + 1 - n;
        int got = gzread(f, b + n, (unsigned)(want > INT32_MAX ? INT32_MAX : want));
        if (got < 0) {
            gzclose(f);
            free(b);
            errno = EINVAL;
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    int zerr = Z_OK;
    gzerror(f, &zerr);
    gzclose(f);
    if (b && zerr != Z_OK && zerr != Z_STREAM_END && n <= limit) {
        /* Truncated or corrupt: zlib gave what it could, then stopped. */
        free(b);
        errno = EINVAL;
        return -1;
    }
    if (!b) {
        errno = ENOMEM;
        return -1;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

/* Whether the file starts as gzip data does; 0 when it cannot be read (the
 * library then says why). */
static int file_is_gzip(const char *path)
{
    unsigned char magic[2];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t got = fread(magic, 1, 2, f);
    fclose(f);
    return cli_is_gzip(magic, got);
}

int cli_looks_like_url(const char *s)
{
    size_t n = 0;
    if (!isalpha((unsigned char)s[0]))
        return 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '+' || s[n] == '-' || s[n] == '.')
        n++;
    return strncmp(s + n, "://", 3) == 0;
}

static size_t input_limit(const glance_options *o)
{
    char *limit = glance_options_get(o, "max_input_bytes");
    size_t v = limit ? (size_t)strtoull(limit, NULL, 10) : (size_t)64 << 20;
    free(limit);
    return v;
}

/* Bytes read here (standard input, a gzip file) handed to the library;
 * a file's with its folder as the base of its local stylesheets, as
 * glance_extract_file gives it. */
static glance_status extract_bytes(glance_context *ctx, const char *buf, size_t len,
                                   const char *file, const glance_options *o,
                                   glance_result **res)
{
    char *base = file ? glance_options_get(o, "base_dir") : NULL;
    glance_status st;
    if (file && base && !base[0]) {
        const char *slash = strrchr(file, '/');
        char *dir = slash ? strndup(file, (size_t)(slash - file) + (slash == file)) : strdup(".");
        glance_options *with_dir = dir ? glance_options_copy(o) : NULL;
        if (with_dir && glance_options_set(with_dir, "base_dir", dir) == GLANCE_OK)
            st = glance_extract(ctx, buf, len, with_dir, res);
        else
            st = GLANCE_ENOMEM;
        glance_options_free(with_dir);
        free(dir);
    } else {
        st = glance_extract(ctx, buf, len, o, res);
    }
    free(base);
    return st;
}

/* Standard input whole, at most `limit` + 1 bytes, through zlib when it is
 * gzip data. GLANCE_OK, or the status with `why` set. */
static glance_status read_stdin_plain(size_t limit, char **buf, size_t *len, char *why, size_t why_cap)
{
    if (read_stdin(limit, buf, len) != 0) {
        snprintf(why, why_cap, "cannot read standard input");
        return GLANCE_EIO;
    }
    if (cli_is_gzip(*buf, *len)) {
        char *plain = NULL;
        size_t plain_len = 0;
        int bad = cli_gunzip(*buf, *len, limit, &plain, &plain_len) != 0;
        free(*buf);
        *buf = plain;
        *len = plain_len;
        if (bad) {
            snprintf(why, why_cap, "broken gzip data");
            return GLANCE_EINPUT;
        }
    }
    return GLANCE_OK;
}

glance_status cli_extract_input(glance_context *ctx, const char *path, const glance_options *o,
                                glance_result **res, char *why, size_t why_cap)
{
    *res = NULL;
    why[0] = '\0';
    size_t limit = input_limit(o);
    char *buf = NULL;
    size_t len = 0;
    glance_status st;
    if (strcmp(path, "-") == 0) {
        if ((st = read_stdin_plain(limit, &buf, &len, why, why_cap)) != GLANCE_OK)
            return st;
        st = glance_extract(ctx, buf, len, o, res);
        free(buf);
    } else if (cli_looks_like_url(path)) {
        st = glance_extract_url(ctx, path, o, res);
    } else if (file_is_gzip(path)) {
        if (read_gz_file(path, limit, &buf, &len) != 0) {
            snprintf(why, why_cap, "%s", errno == EINVAL ? "broken gzip data" : strerror(errno));
            return errno == EINVAL ? GLANCE_EINPUT : errno == ENOMEM ? GLANCE_ENOMEM : GLANCE_EIO;
        }
        st = extract_bytes(ctx, buf, len, path, o, res);
        free(buf);
    } else {
        st = glance_extract_file(ctx, path, o, res);
    }
    if (st != GLANCE_OK)
        snprintf(why, why_cap, "%s", glance_result_message(*res, st));
    return st;
}

glance_status cli_extract_snapshot(glance_context *ctx, const char *path, const glance_options *o,
                                   glance_result **res, char *why, size_t why_cap)
{
    *res = NULL;
    why[0] = '\0';
    /* A snapshot is JSON of the page's every node and box: a few times the
     * page's own bytes. */
    size_t limit = input_limit(o) * 8;
    char *buf = NULL;
    size_t len = 0;
    glance_status st;
    if (strcmp(path, "-") == 0) {
        if ((st = read_stdin_plain(limit, &buf, &len, why, why_cap)) != GLANCE_OK)
            return st;
    } else if (read_gz_file(path, limit, &buf, &len) != 0) {
        /* gzopen reads a plain file as it is, and gzip data through zlib. */
        snprintf(why, why_cap, "%s: %s", path, errno == EINVAL ? "broken gzip data" : strerror(errno));
        return errno == EINVAL ? GLANCE_EINPUT : errno == ENOMEM ? GLANCE_ENOMEM : GLANCE_EIO;
    }
    st = glance_extract_snapshot(ctx, buf, len, o, res);
    free(buf);
    if (st != GLANCE_OK)
        snprintf(why, why_cap, "%s", glance_result_message(*res, st));
    return st;
}

glance_status cli_load_page(glance_context *ctx, const char *path, const glance_options *o,
                            glance_result **res)
{
    return cli_load(ctx, path, o, res, 0);
}

glance_status cli_load(glance_context *ctx, const char *path, const glance_options *o,
                       glance_result **res, int snapshot)
{
    char why[1024];
    glance_status st = snapshot ? cli_extract_snapshot(ctx, path, o, res, why, sizeof why)
                                : cli_extract_input(ctx, path, o, res, why, sizeof why);
    /* A stylesheet that could not be fetched is no error, but the layout
     * may show it. */
    for (int i = 0; *res && i < glance_result_stylesheet_count(*res); i++) {
        const char *err, *url = glance_result_stylesheet(*res, i, &err);
        if (err)
            fprintf(stderr, "glance: warning: stylesheet %s skipped: %s\n", url, err);
    }
    if (st != GLANCE_OK) {
        /* The library's message may name the file or URL it could not read
         * itself: then once is enough. */
        const char *name = strcmp(path, "-") ? path : "stdin";
        if (strstr(why, name))
            fprintf(stderr, "glance: %s\n", why);
        else
            fprintf(stderr, "glance: %s: %s\n", name, why);
    }
    return st;
}
