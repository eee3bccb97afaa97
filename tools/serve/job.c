/* tools/serve/: one job's work on a worker's glance context, in the
 * worker process.
 *
 * A request's budget runs from its arrival (t0), the wait for a worker
 * included: the fetch, layout and extraction get what is left (or less,
 * when the server's or the client's options say less). Layout cannot be
 * interrupted inside litehtml: the server kills the worker process when
 * the budget is out (workers.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "tools/serve/serve.h"

/* Lowers the limit `key` to `value` unless it is lower already:
 * glance_options_restrict refuses a higher value, and that refusal is the
 * case where the option stands. */
static void lower(glance_options *o, const char *key, const char *value)
{
    (void)glance_options_restrict(o, key, value);
}

static void answer_json(glance_result *res, serve_answer *out)
{
    const char *j = glance_result_json(res);
    char *copy = j ? strdup(j) : NULL;
    if (!copy) {
        serve_error(out, 500, "nomem", "out of memory");
        return;
    }
    *out = (serve_answer){200, "application/json", copy, strlen(copy), 0};
}

static void answer_shot(glance_context *ctx, glance_result *res, serve_answer *out)
{
    unsigned char *png = NULL;
    size_t len = 0;
    glance_status st = glance_result_shot_png(ctx, res, NULL, &png, &len);
    if (st != GLANCE_OK) {
        /* No option of the client's reaches the shot: a refusal is ours. */
        int code = serve_http_code(st);
        serve_error(out, code == 400 ? 500 : code, glance_status_name(st),
                    glance_result_message(res, st));
        return;
    }
    *out = (serve_answer){200, "image/png", (char *)png, len, 0};
}

static void answer_reader(const serve_job *job, glance_result *res, serve_answer *out)
{
    const char *src = glance_result_url(res);
    if (!src)
        src = job->url ? job->url : job->base;
    size_t len = 0;
    /* A page sent in the body gets no <base>: its links stay as they are. */
    char *page = serve_reader_page(res, src, job->url != NULL, &len);
    if (!page) {
        serve_error(out, 500, "nomem", "out of memory");
        return;
    }
    *out = (serve_answer){200, "text/html; charset=utf-8", page, len, 0};
}

/* The debug page: the result's JSON (every method's answer, the blocks
 * explained) and its shot in one page. */
static void answer_debug(glance_context *ctx, const serve_job *job, glance_result *res,
                         serve_answer *out)
{
    unsigned char *png = NULL;
    size_t png_len = 0, len = 0;
    if (glance_result_shot_png(ctx, res, NULL, &png, &png_len) != GLANCE_OK)
        png = NULL, png_len = 0; /* the page without its shot still says why */
    const char *src = glance_result_url(res);
    char *page = serve_debug_page(glance_result_json(res), png, png_len,
                                  src ? src : job->url ? job->url : job->base, &len);
    free(png);
    if (!page) {
        serve_error(out, 500, "nomem", "out of memory");
        return;
    }
    *out = (serve_answer){200, "text/html; charset=utf-8", page, len, 0};
}

int serve_job_run(glance_context *ctx, const serve_job *job, serve_answer *out)
{
    memset(out, 0, sizeof *out);
    double left = job->budget_ms - (base_now_ms() - job->t0);
    if (left < 1) {
        serve_error_as(out, serve_for_people(job->kind), 503, "busy",
                       "waited in the queue for the whole time budget", job->url);
        out->retry_after = 1;
        return 0;
    }
    glance_options *o = glance_options_copy(job->opts);
    if (!o) {
        serve_error(out, 500, "nomem", "out of memory");
        return 0;
    }
    /* The fetch gets what is left; layout and extraction as long again at
     * most (the library counts their budget from the end of the fetch).
     * Less a margin: a fetch that times out is then answered 504 "timeout"
     * by us, a moment before the server would kill us at the budget. */
    left -= left / 10 < 250 ? left / 10 : 250;
    char ms[32];
    snprintf(ms, sizeof ms, "%ldms", (long)left < 1 ? 1L : (long)left);
    lower(o, "timeout", ms);
    lower(o, "connect_timeout", ms);
    lower(o, "time_budget", ms);
    if (job->kind == SERVE_DEBUG) {
        /* Every method's answer beside auto's, unless one was asked for;
         * the scorer's blocks explained; the browser's screenshot to draw
         * on when a browser lays the page out. */
        char *method = glance_options_get(o, "method");
        if (method && !strcmp(method, "auto"))
            (void)glance_options_set(o, "method", "all");
        free(method);
        (void)glance_options_set(o, "score.explain", "on");
        (void)glance_options_set(o, "screenshot", "on");
    }
    glance_result *res = NULL;
    glance_status st;
    if (job->url)
        st = glance_extract_url(ctx, job->url, o, &res);
    else if (job->snapshot)
        st = glance_extract_snapshot(ctx, job->body, job->len, o, &res);
    else
        st = glance_extract_page(ctx, job->body, job->len, job->charset, job->base, o, &res);
    glance_options_free(o);
    int started = res && st != GLANCE_EBROWSER && glance_result_timings(res).browser_start_ms > 0;
    if (!res)
        serve_error(out, 500, "nomem", "out of memory");
    else if (job->kind == SERVE_SHOT && (st == GLANCE_OK || st == GLANCE_ENOCONTENT))
        answer_shot(ctx, res, out); /* a page GCE found nothing on is worth seeing too */
    else if (job->kind == SERVE_DEBUG && (st == GLANCE_OK || st == GLANCE_ENOCONTENT))
        answer_debug(ctx, job, res, out); /* and why there is nothing */
    else if (st != GLANCE_OK)
        /* A reader gets a page that says why, with the way to the original. */
        serve_error_as(out, serve_for_people(job->kind), serve_http_code(st), glance_status_name(st),
                       glance_result_message(res, st), job->url);
    else if (serve_for_people(job->kind))
        answer_reader(job, res, out);
    else
        answer_json(res, out);
    glance_result_free(res);
    return started;
}
