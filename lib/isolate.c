/* lib/: a call's extraction in a child process (isolate.h).
 *
 * The child runs the same entry point in-process (the option isolate off)
 * on the caller's context, which the fork copied, and sends back one
 * message of one field: what the result's accessors read, written in
 * order by put_result and read back in the same order by get_result
 * (strings with a byte that says NULL or not, numbers and small structs
 * as their bytes: the child is a fork of the same program). The JSON is
 * built in the child, where the laid-out page is; the Markdown is built
 * from the HTML on first call, as in-process. */
#define _GNU_SOURCE
#include "lib/isolate.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/clock.h"
#include "base/proc.h"
#include "lib/options.h"
#include "lib/result.h"
#include "methods/method.h"

/* ---- the message --------------------------------------------------------- */

static void put_raw(base_buf *b, const void *p, size_t n)
{
    base_buf_add(b, p, n);
}

static void put_str(base_buf *b, const char *s)
{
    base_buf_putc(b, s ? 1 : 0);
    if (s)
        base_buf_add(b, s, strlen(s) + 1);
}

static void put_u32(base_buf *b, uint32_t v)
{
    put_raw(b, &v, sizeof v);
}

static void put_result(base_buf *b, glance_result *r)
{
    int32_t st = (int32_t)r->status;
    put_raw(b, &st, sizeof st);
    put_str(b, r->message);
    put_str(b, r->title);
    put_str(b, r->text);
    put_str(b, r->html);
    put_str(b, glance_result_json(r));
    put_str(b, r->xpath);
    put_str(b, r->chosen ? r->chosen->tag : NULL);
    glance_box box = {0, 0, 0, 0};
    if (r->chosen)
        box = (glance_box){r->chosen->box.x, r->chosen->box.y, r->chosen->box.w, r->chosen->box.h};
    put_raw(b, &box, sizeof box);
    put_str(b, r->answered ? r->answered->name : NULL);
    put_raw(b, &r->timings, sizeof r->timings);
    put_raw(b, &r->geometry, sizeof r->geometry);
    put_str(b, r->url);
    put_str(b, r->final_url);
    put_str(b, r->charset.name);
    put_str(b, r->charset.from);
    put_u32(b, (uint32_t)r->meta_read);
    for (int i = 0; i < META_N; i++) {
        put_str(b, r->meta.f[i].value);
        put_str(b, r->meta.f[i].from);
    }
    put_u32(b, (uint32_t)r->meta.n_authors);
    for (size_t i = 0; i < r->meta.n_authors; i++)
        put_str(b, r->meta.authors[i]);
    put_str(b, r->meta.authors_from);
    put_u32(b, (uint32_t)r->sheets.n_sheets);
    for (int i = 0; i < r->sheets.n_sheets; i++) {
        put_str(b, r->sheets.sheets[i].url);
        put_str(b, r->sheets.sheets[i].error);
    }
    size_t n_missing = r->rstats.n_missing_scripts;
    put_u32(b, (uint32_t)n_missing);
    for (size_t i = 0; i < n_missing && i < RENDER_MISSING_SCRIPTS; i++)
        put_str(b, r->rstats.missing_scripts[i]);
}

/* Reads the message in place; `bad` once it was short or out of memory. */
typedef struct reader {
    const char *p, *end;
    int bad;
} reader;

static void get_raw(reader *rd, void *out, size_t n)
{
    if (rd->bad || (size_t)(rd->end - rd->p) < n) {
        rd->bad = 1;
        memset(out, 0, n);
        return;
    }
    memcpy(out, rd->p, n);
    rd->p += n;
}

static uint32_t get_u32(reader *rd)
{
    uint32_t v;
    get_raw(rd, &v, sizeof v);
    return v;
}

/* A string of the message (it lives as long as the message), or NULL. */
static const char *get_str(reader *rd)
{
    char has = 0;
    get_raw(rd, &has, 1);
    if (rd->bad || !has)
        return NULL;
    const char *s = rd->p, *nul = memchr(s, '\0', (size_t)(rd->end - s));
    if (!nul) {
        rd->bad = 1;
        return NULL;
    }
    rd->p = nul + 1;
    return s;
}

/* The same, malloc'd, for a field the result frees itself. */
static char *get_own(reader *rd)
{
    const char *s = get_str(rd);
    char *c = s ? strdup(s) : NULL;
    if (s && !c)
        rd->bad = 1;
    return c;
}

/* Fills `res` from the message `wire` (which it takes): 0, or -1 when the
 * message is not one. */
static int get_result(glance_result *res, char *wire, size_t len)
{
    res->wire = wire;
    reader rd = {wire, wire + len, 0};
    int32_t st;
    get_raw(&rd, &st, sizeof st);
    res->status = (glance_status)st;
    result_set_message(res, get_str(&rd));
    res->title = get_own(&rd);
    res->text = get_own(&rd);
    res->html = get_own(&rd);
    res->json = get_own(&rd);
    res->xpath = get_str(&rd);
    res->tag = get_str(&rd);
    get_raw(&rd, &res->box, sizeof res->box);
    res->answered = methods_find(get_str(&rd), NULL);
    get_raw(&rd, &res->timings, sizeof res->timings);
    get_raw(&rd, &res->geometry, sizeof res->geometry);
    res->url = get_own(&rd);
    res->final_url = get_own(&rd);
    const char *cs = get_str(&rd);
    snprintf(res->charset.name, sizeof res->charset.name, "%s", cs ? cs : "UTF-8");
    res->charset.from = get_str(&rd);
    res->meta_read = (int)get_u32(&rd);
    for (int i = 0; i < META_N; i++) {
        res->meta.f[i].value = get_own(&rd);
        res->meta.f[i].from = get_str(&rd);
    }
    uint32_t n = get_u32(&rd);
    for (uint32_t i = 0; i < n && !rd.bad; i++) {
        char *a = get_own(&rd);
        if (res->meta.n_authors < META_MAX_AUTHORS)
            res->meta.authors[res->meta.n_authors++] = a;
        else
            free(a);
    }
    res->meta.authors_from = get_str(&rd);
    n = get_u32(&rd);
    if (n && !rd.bad && n < (1u << 20)) {
        if (!(res->sheets.sheets = calloc(n, sizeof *res->sheets.sheets)))
            rd.bad = 1;
        for (uint32_t i = 0; i < n && !rd.bad; i++) {
            res->sheets.sheets[i].url = get_own(&rd);
            res->sheets.sheets[i].error = get_own(&rd);
            res->sheets.n_sheets = (int)i + 1;
        }
    } else if (n) {
        rd.bad = 1;
    }
    n = get_u32(&rd);
    res->rstats.n_missing_scripts = n;
    for (uint32_t i = 0; i < n && i < RENDER_MISSING_SCRIPTS; i++)
        res->rstats.missing_scripts[i] = get_str(&rd);
    if (!rd.bad && rd.p == rd.end)
        return 0;
    result_forget_run(res); /* nothing half read is shown */
    res->meta_read = 0;
    res->rstats.n_missing_scripts = 0;
    res->tag = NULL;
    return -1;
}

/* ---- the child ------------------------------------------------------------- */

static void child(glance_context *ctx, const isolate_job *job, const glance_options *o, int fd)
{
    /* A crash here is the child's end, not a jump into the caller's
     * handlers (a test runner's, an interpreter's) with its code. */
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        signal(fatal[i], SIG_DFL);
    glance_options *in = glance_options_copy(o);
    glance_result *r = NULL;
    if (in) {
        in->core.isolate = 0;
        switch (job->kind) {
        case ISOLATE_BYTES:
            glance_extract(ctx, job->html, job->len, in, &r);
            break;
        case ISOLATE_PAGE:
            glance_extract_page(ctx, job->html, job->len, job->charset, job->base_url, in, &r);
            break;
        case ISOLATE_URL:
            glance_extract_url(ctx, job->where, in, &r);
            break;
        case ISOLATE_FILE:
            glance_extract_file(ctx, job->where, in, &r);
            break;
        }
    }
    base_buf b = BASE_BUF_INIT;
    if (r)
        put_result(&b, r);
    size_t len = 0;
    char *msg = r ? base_buf_take(&b, &len) : NULL;
    /* No answer (out of memory) ends the child without one: the parent
     * says so. Nothing is freed: the process ends here. */
    if (msg) {
        base_proc_field f = {msg, len};
        base_proc_send(fd, &f, 1);
    }
    _exit(msg ? 0 : 1);
}

/* ---- the parent -------------------------------------------------------------- */

static glance_status fail(glance_result *res, glance_status st, const char *msg)
{
    result_set_message(res, msg);
    return res->status = st;
}

glance_status isolate_call(glance_context *ctx, const isolate_job *job, const glance_options *o,
                           glance_result *res)
{
    char msg[320];
    const options_core *c = &o->core;
    /* The budget counts from the end of the fetch of the page and its
     * stylesheets (pipeline.c), which the network's timeout bounds. */
    double limit = c->time_budget_ms > 0 ? (double)c->time_budget_ms + 1000 +
                                               (c->net.offline ? 0 : (double)c->net.timeout_ms)
                                         : 0;
    size_t max_memory = 0;
    if (c->max_memory) {
        size_t now = base_proc_address_space();
        max_memory = now + c->max_memory < now ? 0 : now + c->max_memory;
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(msg, sizeof msg, "isolate: no socket for the child process: %s", strerror(errno));
        return fail(res, GLANCE_ENOMEM, msg);
    }
    double deadline = limit > 0 ? base_now_ms() + limit : 0;
    pid_t pid = base_proc_fork(max_memory);
    if (pid == 0) {
        close(sv[0]);
        child(ctx, job, o, sv[1]);
    }
    int err = errno;
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        snprintf(msg, sizeof msg, "isolate: cannot fork a child process: %s", strerror(err));
        return fail(res, GLANCE_ENOMEM, msg);
    }
    char **fields = NULL;
    size_t *lens = NULL;
    int n = 0, status = 0;
    int r = base_proc_wait_readable(sv[0], pid, deadline);
    if (r == 1)
        r = base_proc_recv(sv[0], deadline, &fields, &lens, &n);
    close(sv[0]);
    if (r == 0) {
        base_proc_kill(pid, &status);
        snprintf(msg, sizeof msg,
                 "page too costly: over the budget of %ld ms (time_budget)%s; its process "
                 "(isolate) was killed at %.0f ms",
                 c->time_budget_ms, c->net.offline ? "" : " after the fetch (timeout)", limit);
        return fail(res, GLANCE_ECOSTLY, msg);
    }
    /* Answered: the child is leaving. Not: it died, or is dying. Either
     * way it is reaped here, killed if it lingers. */
    if (base_proc_wait(pid, base_now_ms() + 2000, &status) < 0)
        status = -1;
    if (r == 1 && n == 1 && get_result(res, fields[0], lens[0]) == 0) {
        fields[0] = NULL; /* the result's now */
        base_proc_fields_free(fields, lens, n);
        return res->status;
    }
    if (r == 1 && n == 1)
        fields[0] = NULL; /* taken by get_result, which failed: freed with res */
    base_proc_fields_free(fields, lens, n);
    if (r == 1)
        return fail(res, GLANCE_ENOMEM, "isolate: the child process's answer was cut short");
    if (status != -1 && WIFSIGNALED(status))
        snprintf(msg, sizeof msg,
                 "the page could not be finished: its process (isolate) ended by signal %d (%s; "
                 "max_memory %zu MB more than the caller's)",
                 WTERMSIG(status), strsignal(WTERMSIG(status)), c->max_memory >> 20);
    else
        snprintf(msg, sizeof msg,
                 "the page could not be finished: its process (isolate) exited with %d without "
                 "an answer (out of memory under max_memory %zu MB more than the caller's?)",
                 status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                 c->max_memory >> 20);
    return fail(res, GLANCE_ENOMEM, msg);
}
