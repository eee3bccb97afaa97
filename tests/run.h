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

/* A page cheap to read and costly to lay out: `n` float:left siblings
 * (litehtml places each against all before it in their formatting
 * context), under a paragraph. Its length in *len; the caller frees.
 * Past max_floats it is refused before the layout; the isolation tests
 * raise that limit, so that it reaches the layout and is killed there. */
static inline char *floats_page(int n, size_t *len)
{
    size_t cap = 64 + (size_t)n * 48, k = 0;
    char *p = malloc(cap);
    if (!p)
        abort();
    k += (size_t)snprintf(p + k, cap - k, "<html><body><p>floats</p>");
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(p + k, cap - k, "<div style=\"float:left;width:%dpx\">w</div>", i % 300 + 1);
    k += (size_t)snprintf(p + k, cap - k, "</body></html>");
    if (len)
        *len = k;
    return p;
}

#endif
