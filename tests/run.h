/* Running the glance command from a test: exit status, stdout and stderr. */
#ifndef GLANCE_TESTS_RUN_H
#define GLANCE_TESTS_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

typedef struct run_out {
    int code;
    char *out, *err;
} run_out;

/* A whole file, "" when it cannot be read; the caller frees. */
static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)(n > 0 ? n : 0) + 1);
    size_t got = n > 0 ? fread(b, 1, (size_t)n, f) : 0;
    b[got] = '\0';
    fclose(f);
    return b;
}

/* Runs `glance ARGS` through the shell, capturing into files under `dir`. */
static inline run_out run_in(const char *dir, const char *args)
{
    char cmd[10240], out[512], err[512];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    /* A command cut short would run something else: refused instead. */
    if (snprintf(cmd, sizeof cmd, "%s %.8191s >%s 2>%s", GLANCE_BIN, args, out, err) >= (int)sizeof cmd)
        abort();
    int st = system(cmd);
    run_out r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

static inline void run_free(run_out *r)
{
    free(r->out);
    free(r->err);
}

/* A page of a head and `n` items, each at most `item_cap` bytes written
 * by `item` (snprintf's contract). Its length in *len; the caller frees. */
static inline char *items_page(const char *head, int n, size_t item_cap,
                               int (*item)(char *p, size_t cap, int i), size_t *len)
{
    size_t cap = 64 + strlen(head) + (size_t)n * item_cap, k = 0;
    char *p = malloc(cap);
    if (!p)
        abort();
    k += (size_t)snprintf(p + k, cap - k, "<html><body>%s", head);
    for (int i = 0; i < n; i++)
        k += (size_t)item(p + k, cap - k, i);
    k += (size_t)snprintf(p + k, cap - k, "</body></html>");
    if (len)
        *len = k;
    return p;
}

static inline int float_item(char *p, size_t cap, int i)
{
    return snprintf(p, cap, "<div style=\"float:left;width:%dpx\">w</div>", i % 300 + 1);
}

static inline int link_item(char *p, size_t cap, int i)
{
    return snprintf(p, cap, "<a href=\"/p%d\">link %d</a>\n", i, i);
}

/* A page cheap to read and costly to lay out: `n` float:left siblings
 * (litehtml places each against all before it in their formatting
 * context), under a paragraph. Past max_floats it is refused before the
 * layout; the isolation tests raise that limit, so that it reaches the
 * layout and is killed there. */
static inline char *floats_page(int n, size_t *len)
{
    return items_page("<p>floats</p>", n, 48, float_item, len);
}

/* A page costly in memory: `n` links (100 000 take some 450 MB laid out). */
static inline char *links_page(int n, size_t *len)
{
    return items_page("", n, 40, link_item, len);
}

#endif
