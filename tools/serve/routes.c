/* tools/serve/: the HTTP side. One table of routes; the request handler
 * finds a request's route, answers 404 or 405 from the table alone, reads a
 * POST body, then calls the route's handler. A route that needs a worker
 * makes a job, which is queued and its connection suspended; the worker's
 * answer resumes it. Cheap answers (health, metrics, bad requests) never
 * queue.
 *
 * Query parameters of the page routes: `url` (GET) and `base` (POST) are
 * the server's; every other one names an option of the library by its key
 * (?method=bte&gce.alpha=2.5&window=1280x1024), applied with
 * glance_options_restrict on top of the server's own options: a client may
 * lower a limit but never raise it, and never set an option that is the
 * operator's alone (local files, the address policy, the identity sent).
 * Anything refused, an unknown parameter included, is answered 400
 * "badoption" with the library's reason. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/clock.h"
#include "tools/cli.h"
#include "tools/serve/serve.h"

struct serve_req {
    server *srv;
    struct MHD_Connection *conn;
    const serve_route *route; /* NULL: no route has the path */
    int endpoint;             /* the route's index (metrics); serve_n_routes: none */
    unsigned method;          /* SERVE_GET, SERVE_HEAD, SERVE_POST, or 0: another */
    double t0;                /* arrival, base_now_ms() */
    base_buf body;            /* a POST's */
    int too_big;              /* the body passed the server's limit: the rest is dropped */
    char *url, *base, *charset;
    glance_options *opts;     /* the server's, with the query's on top */
    serve_job job;
    int queued;               /* handed to the workers: counts in in_flight until completed */
    int done;                 /* the worker's answer is in `answer` */
    serve_answer answer;
    int sent;                 /* an answer was queued: what comes after is dropped */
    char method_name[16];     /* as the client sent it, for the access log */
    char client[64];          /* its address (IPv6: its /64), whose turn it waits in */
    char *path;
};

static int route_read(serve_req *r, serve_answer *a);
static int route_debug(serve_req *r, serve_answer *a);

/* A request of GET /read or /debug: its errors are pages for a person. */
static int is_reader(const serve_req *r)
{
    return r->route && (r->route->handler == route_read || r->route->handler == route_debug);
}

/* One line on stderr per request answered: when (UTC), the method, the
 * path, the status, the bytes of the body and the milliseconds since it
 * arrived. Written with one call, so that lines from the workers' answers
 * and the HTTP thread never interleave. */
static void access_log(const serve_req *r, int code, size_t bytes)
{
    char when[32], line[512];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    int n = snprintf(line, sizeof line, "%s %s %.300s %d %zu %.1fms\n", when, r->method_name,
                     r->path ? r->path : "-", code, bytes, base_now_ms() - r->t0);
    if (n > 0)
        (void)!write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* ---- sending ------------------------------------------------------------ */

/* "GET, HEAD, POST" */
static void method_list(unsigned methods, char *buf, size_t cap)
{
    static const char *const names[] = {"GET", "HEAD", "POST"};
    buf[0] = '\0';
    for (int i = 0; i < 3; i++)
        if (methods & (1u << i))
            snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s", buf[0] ? ", " : "", names[i]);
}

/* Sends the answer (its body taken: freed by libmicrohttpd). */
static enum MHD_Result send_answer(serve_req *r, serve_answer *a)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        a->len, a->body ? a->body : (char *)"", a->body ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        free(a->body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, a->ctype ? a->ctype : "text/plain");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (a->retry_after > 0) {
        char ra[16];
        snprintf(ra, sizeof ra, "%d", a->retry_after);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, ra);
    }
    if (a->code == 405 && r->route) {
        char allow[32];
        method_list(r->route->methods, allow, sizeof allow);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
    }
    if (a->ctype && strncmp(a->ctype, "text/html", 9) == 0)
        /* The reader page shows content from elsewhere: no scripts, no
         * plugins, only our own stylesheet; images from anywhere. */
        MHD_add_response_header(resp, "Content-Security-Policy",
                                "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; "
                                "form-action 'none'");
    if (r->srv->stopping)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    serve_metrics_response(r->srv->metrics, r->endpoint, a->code, (base_now_ms() - r->t0) / 1000.0);
    access_log(r, a->code, a->len);
    r->sent = 1;
    enum MHD_Result ret = MHD_queue_response(r->conn, (unsigned)a->code, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result send_error(serve_req *r, int code, const char *status, const char *message,
                                  int retry_after)
{
    serve_answer a;
    /* A method /read does not take is no reader's request: JSON, as
     * elsewhere. */
    serve_error_as(&a, is_reader(r) && code != 405, code, status, message, r->url);
    a.retry_after = retry_after;
    return send_answer(r, &a);
}

static int reader_error(serve_req *r, serve_answer *a, int code, const char *status,
                        const char *message)
{
    serve_error_as(a, is_reader(r), code, status, message, r->url);
    return SERVE_ANSWER;
}

static int answer_error(serve_answer *a, int code, const char *status, const char *message)
{
    serve_error(a, code, status, message);
    return SERVE_ANSWER;
}

/* ---- the routes that answer at once ------------------------------------- */

/* ok (200); degraded (200, why): every regular worker busy (a spare, if
 * any, takes the next request; none free: it waits), a worker busy for
 * over half the budget, the queue half full, a worker missing, or
 * requests refused for time (the expected wait over their budget, or
 * waited out) in the last minute; unavailable (503, why): no worker at
 * all, or the queue full; stopping (503). */
static int route_healthz(serve_req *r, serve_answer *a)
{
    serve_worker_stats ws;
    serve_workers_stats(r->srv->workers, &ws);
    char text[320];
    int code = 200;
    int all = ws.workers + ws.spares, alive = all - ws.down;
    int busy = ws.busy + ws.spares_busy;
    /* Refusals for time say the load is over what the workers do within
     * the budget, even between bursts when every worker is idle. */
    int refusing = ws.since_time_refusal_ms >= 0 && ws.since_time_refusal_ms < 60000;
    if (r->srv->stopping) {
        code = 503;
        snprintf(text, sizeof text, "stopping\n");
    } else if (r->srv->browser_problem[0]) {
        /* engine chromium: no page can be read; auto: the pages that
         * need the browser are read by litehtml alone. */
        code = r->srv->browser_needed == 1 ? 503 : 200;
        snprintf(text, sizeof text, "%s: the browser cannot start: %.200s\n",
                 code == 503 ? "unavailable" : "degraded", r->srv->browser_problem);
    } else if (alive <= 0 || ws.queued >= ws.queue_cap) {
        code = 503;
        snprintf(text, sizeof text,
                 "unavailable: %s (%d of %d workers and %d of %d spares busy, %d queued of %d)\n",
                 alive <= 0 ? "no worker running" : "the queue is full", ws.busy, ws.workers,
                 ws.spares_busy, ws.spares, ws.queued, ws.queue_cap);
    } else if (busy >= alive || ws.busy >= ws.workers || ws.busy_long ||
               2 * ws.queued >= ws.queue_cap || ws.down || refusing) {
        snprintf(text, sizeof text,
                 "degraded: %s (%d of %d workers and %d of %d spares busy, %d past half the "
                 "budget, %d queued of %d)\n",
                 refusing                ? "refusing requests that would not finish in time"
                 : busy >= alive         ? "no worker free"
                 : ws.busy >= ws.workers ? "every worker busy, a spare taking requests"
                 : ws.busy_long          ? "workers busy past half their budget"
                 : ws.down               ? "a worker could not be forked"
                                         : "the queue is filling",
                 ws.busy, ws.workers, ws.spares_busy, ws.spares, ws.busy_long, ws.queued,
                 ws.queue_cap);
    } else {
        snprintf(text, sizeof text, "ok\n");
    }
    *a = (serve_answer){code, "text/plain; charset=utf-8", strdup(text), strlen(text), 0};
    if (!a->body)
        return answer_error(a, 500, "nomem", "out of memory");
    return SERVE_ANSWER;
}

static int route_metrics(serve_req *r, serve_answer *a)
{
    server *srv = r->srv;
    pthread_mutex_lock(&srv->lock);
    int in_flight = srv->in_flight;
    pthread_mutex_unlock(&srv->lock);
    size_t len = 0;
    serve_worker_stats ws;
    serve_workers_stats(srv->workers, &ws);
    char *t = serve_metrics_text(srv->metrics, &ws, in_flight, &len);
    if (!t)
        return answer_error(a, 500, "nomem", "out of memory");
    *a = (serve_answer){200, "text/plain; version=0.0.4; charset=utf-8", t, len, 0};
    return SERVE_ANSWER;
}

/* ---- the routes that need a worker -------------------------------------- */

int serve_check_window(const char *window, char *why, size_t cap)
{
    int w, h;
    if (!window || cli_parse_pair(window, &w, &h) != 0 || w < SERVE_WINDOW_MIN ||
        h < SERVE_WINDOW_MIN || w > SERVE_WINDOW_MAX_W || h > SERVE_WINDOW_MAX_H) {
        snprintf(why, cap, "window: '%s' must be WxH, %dx%d to %dx%d here", window ? window : "",
                 SERVE_WINDOW_MIN, SERVE_WINDOW_MIN, SERVE_WINDOW_MAX_W, SERVE_WINDOW_MAX_H);
        return -1;
    }
    return 0;
}

/* "text/html; charset=ISO-8859-1" -> "ISO-8859-1" (malloc'd), or NULL. */
static char *charset_of(const char *ctype)
{
    if (!ctype)
        return NULL;
    const char *p = strcasestr(ctype, "charset=");
    if (!p)
        return NULL;
    p += 8;
    if (*p == '"')
        p++;
    size_t n = 0;
    while (p[n] && (isalnum((unsigned char)p[n]) || strchr("-_.:", p[n])))
        n++;
    return n ? strndup(p, n) : NULL;
}

typedef struct query {
    serve_req *r;
    glance_status st; /* of the first parameter refused */
} query;

static enum MHD_Result one_param(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    query *q = cls;
    char **own = strcmp(key, "url") == 0 ? &q->r->url : strcmp(key, "base") == 0 ? &q->r->base : NULL;
    if (own) {
        free(*own);
        if (!(*own = strdup(value ? value : ""))) {
            q->st = GLANCE_ENOMEM;
            return MHD_NO;
        }
        return MHD_YES;
    }
    q->st = glance_options_restrict(q->r->opts, key, value ? value : "");
    return q->st == GLANCE_OK ? MHD_YES : MHD_NO;
}

/* The query: url and base kept, every other parameter applied to the
 * request's copy of the server's options. 0, or -1 with the answer. */
static int read_query(serve_req *r, serve_answer *a)
{
    if (!(r->opts = glance_options_copy(r->srv->opts))) {
        serve_error(a, 500, "nomem", "out of memory");
        return -1;
    }
    query q = {r, GLANCE_OK};
    MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, one_param, &q);
    if (q.st == GLANCE_ENOMEM) {
        serve_error(a, 500, "nomem", "out of memory");
        return -1;
    }
    if (q.st != GLANCE_OK) {
        reader_error(r, a, 400, glance_status_name(GLANCE_EOPTION), glance_options_error(r->opts));
        return -1;
    }
    /* The server's own bound on the window, whoever set it. */
    char *window = glance_options_get(r->opts, "window"), why[160];
    int bad = serve_check_window(window, why, sizeof why);
    free(window);
    if (bad) {
        reader_error(r, a, 400, glance_status_name(GLANCE_EOPTION), why);
        return -1;
    }
    return 0;
}

static int page_route(serve_req *r, serve_kind kind, serve_answer *a)
{
    int snapshot = 0;
    if (r->too_big)
        return reader_error(r, a, 413, "toobig", "the body is over the server's limit");
    if (r->body.oom)
        return answer_error(a, 500, "nomem", "out of memory");
    if (read_query(r, a) != 0)
        return SERVE_ANSWER;
    if (r->method == SERVE_POST) {
        r->charset = charset_of(MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                            MHD_HTTP_HEADER_CONTENT_TYPE));
        /* A JSON body is a browser's snapshot of the page (a pipeline that
         * drives its own browser: docs/snapshot.md). */
        const char *ct = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                     MHD_HTTP_HEADER_CONTENT_TYPE);
        snapshot = ct && strncasecmp(ct, "application/json", 16) == 0;
        if (!r->body.len)
            return reader_error(r, a, 400, "badinput",
                                kind == SERVE_DEBUG ? "POST /debug needs the page as its body"
                                                    : "POST /extract needs the page as its body");
        free(r->url); /* the page is the body's */
        r->url = NULL;
    } else {
        const char *u = r->url;
        if (!u || !*u)
            return reader_error(r, a, 400, "badurl", "the url parameter is missing");
        if (strncasecmp(u, "http://", 7) != 0 && strncasecmp(u, "https://", 8) != 0)
            return reader_error(r, a, 400, "badurl", "not an http or https URL");
    }
    r->job = (serve_job){.kind = kind, .url = r->url, .body = r->body.data, .len = r->body.len,
                         .charset = r->charset, .base = r->base, .opts = r->opts, .t0 = r->t0,
                         .budget_ms = r->srv->budget_ms, .client = r->client};
    r->job.snapshot = snapshot;
    return SERVE_QUEUE;
}

static int route_read(serve_req *r, serve_answer *a)
{
    return page_route(r, SERVE_READ, a);
}

static int route_extract(serve_req *r, serve_answer *a)
{
    return page_route(r, SERVE_EXTRACT, a);
}

static int route_shot(serve_req *r, serve_answer *a)
{
    return page_route(r, SERVE_SHOT, a);
}

static int route_debug(serve_req *r, serve_answer *a)
{
    return page_route(r, SERVE_DEBUG, a);
}

/* ---- the table ---------------------------------------------------------- */

const serve_route serve_routes[] = {
    {"/read", SERVE_GET | SERVE_HEAD, route_read, 1},
    {"/extract", SERVE_GET | SERVE_HEAD | SERVE_POST, route_extract, 1},
    {"/shot", SERVE_GET | SERVE_HEAD, route_shot, 1},
    {"/debug", SERVE_GET | SERVE_HEAD | SERVE_POST, route_debug, 1},
    {"/healthz", SERVE_GET | SERVE_HEAD, route_healthz, 0},
    {"/metrics", SERVE_GET | SERVE_HEAD, route_metrics, 0},
};
const int serve_n_routes = (int)(sizeof serve_routes / sizeof serve_routes[0]);

/* ---- the handler -------------------------------------------------------- */

/* The worker's answer: kept, and the connection resumed to send it. */
static void on_answer(void *cls, serve_answer *a)
{
    serve_req *r = cls;
    server *srv = r->srv;
    /* Under the lock that submit() held until the connection was
     * suspended: the resume always comes after the suspend. */
    pthread_mutex_lock(&srv->lock);
    r->answer = *a;
    r->done = 1;
    pthread_mutex_unlock(&srv->lock);
    MHD_resume_connection(r->conn);
}

/* Hands the request's job to the workers and suspends its connection; 503
 * when the workers refuse it (serve_workers_submit says why) or the server
 * is stopping. */
static enum MHD_Result submit(serve_req *r)
{
    server *srv = r->srv;
    serve_answer refused;
    pthread_mutex_lock(&srv->lock);
    int stopping = srv->stopping;
    if (!stopping && serve_workers_submit(srv->workers, &r->job, on_answer, r, &refused) == 0) {
        MHD_suspend_connection(r->conn);
        r->queued = 1;
        srv->in_flight++;
        pthread_mutex_unlock(&srv->lock);
        return MHD_YES;
    }
    pthread_mutex_unlock(&srv->lock);
    if (!stopping)
        return send_answer(r, &refused);
    serve_metrics_refused(srv->metrics, SERVE_REFUSED_STOPPING);
    return send_error(r, 503, "busy", "the server is shutting down", 1);
}

/* The client's address as the key of its turn in the queue. An IPv6
 * client is its /64: one host is usually given a whole /64 and could
 * otherwise take as many turns as it picks addresses. */
static void client_key(struct MHD_Connection *conn, char *key, size_t cap)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(key, cap, "?");
    if (!ci || !ci->client_addr)
        return;
    const struct sockaddr *sa = ci->client_addr;
    if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, key, (socklen_t)cap);
    } else if (sa->sa_family == AF_INET6) {
        struct in6_addr a = ((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (!IN6_IS_ADDR_V4MAPPED(&a))
            memset(a.s6_addr + 8, 0, 8);
        inet_ntop(AF_INET6, &a, key, (socklen_t)cap);
    }
}

static unsigned method_of(const char *m)
{
    return strcmp(m, MHD_HTTP_METHOD_GET) == 0    ? SERVE_GET
           : strcmp(m, MHD_HTTP_METHOD_HEAD) == 0 ? SERVE_HEAD
           : strcmp(m, MHD_HTTP_METHOD_POST) == 0 ? SERVE_POST
                                                  : 0;
}

/* A new request: its route, and the answers the table alone gives. */
static enum MHD_Result begin(server *srv, struct MHD_Connection *conn, const char *url,
                             const char *method, void **con_cls)
{
    serve_req *r = calloc(1, sizeof *r);
    if (!r)
        return MHD_NO;
    *con_cls = r;
    r->srv = srv;
    r->conn = conn;
    r->t0 = base_now_ms();
    r->method = method_of(method);
    snprintf(r->method_name, sizeof r->method_name, "%s", method);
    r->path = strdup(url);
    client_key(conn, r->client, sizeof r->client);
    r->endpoint = serve_n_routes;
    for (int i = 0; i < serve_n_routes; i++)
        if (strcmp(url, serve_routes[i].path) == 0) {
            r->route = &serve_routes[i];
            r->endpoint = i;
        }
    serve_metrics_request(srv->metrics, r->endpoint);
    if (!r->route) {
        char paths[256] = "";
        for (int i = 0; i < serve_n_routes; i++)
            snprintf(paths + strlen(paths), sizeof paths - strlen(paths), "%s%s", i ? ", " : "",
                     serve_routes[i].path);
        char msg[300];
        snprintf(msg, sizeof msg, "no such endpoint: %s", paths);
        return send_error(r, 404, "notfound", msg, 0);
    }
    if (!(r->route->methods & r->method)) {
        char allowed[32], msg[96];
        method_list(r->route->methods, allowed, sizeof allowed);
        snprintf(msg, sizeof msg, "%s takes %s", r->route->path, allowed);
        return send_error(r, 405, "method", msg, 0);
    }
    if (r->method == SERVE_POST) {
        /* A declared length over the limit is refused before the body is
         * read. */
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                     MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtod(cl, NULL) > (double)srv->max_body)
            return send_error(r, 413, "toobig", "the body is over the server's limit", 0);
    }
    return MHD_YES; /* a body, if any, comes in the next calls */
}

enum MHD_Result serve_request(void *cls, struct MHD_Connection *conn, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls)
{
    serve_req *r = *con_cls;
    if (!r)
        return begin(cls, conn, url, method, con_cls);
    if (r->sent) { /* answered early (404, 405, 413): the body is dropped */
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (r->done) { /* resumed: the worker's answer */
        serve_answer a = r->answer;
        r->answer.body = NULL;
        return send_answer(r, &a);
    }
    if (*upload_data_size) {
        if (!r->too_big && r->body.len + *upload_data_size <= r->srv->max_body)
            base_buf_add(&r->body, upload_data, *upload_data_size);
        else
            r->too_big = 1; /* the rest is read and dropped */
        *upload_data_size = 0;
        return MHD_YES;
    }
    serve_answer a;
    if (r->route->handler(r, &a) == SERVE_QUEUE) /* a route with workers, its job ready */
        return submit(r);
    return send_answer(r, &a);
}

void serve_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                     enum MHD_RequestTerminationCode toe)
{
    server *srv = cls;
    serve_req *r = *con_cls;
    if (!r)
        return;
    if (r->queued) {
        pthread_mutex_lock(&srv->lock);
        srv->in_flight--;
        pthread_cond_broadcast(&srv->idle);
        pthread_mutex_unlock(&srv->lock);
    }
    base_buf_free(&r->body);
    free(r->url);
    free(r->base);
    free(r->charset);
    free(r->path);
    free(r->answer.body);
    glance_options_free(r->opts);
    free(r);
    *con_cls = NULL;
}
