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

#endif
