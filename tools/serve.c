/* tools/: glance serve, the reader-mode backend over HTTP.
 *
 * libmicrohttpd runs the sockets on one internal polling thread (epoll);
 * the work (fetch, layout, extraction, painting) runs on our own pool of
 * workers, each with its own glance_context (contexts are single-threaded).
 * A request that needs a worker is suspended and put on a bounded queue;
 * when the queue is full it is answered at once with 503 and Retry-After
 * (back-pressure: the client hears "later" instead of waiting behind a
 * queue that cannot drain). The worker resumes the connection with the
 * answer ready. Cheap answers (health, metrics, bad requests) never queue.
 *
 * Each request has a time budget from the moment it arrives: time spent in
 * the queue counts, a job that waited its whole budget is answered 503
 * unrun, and the fetch gets what is left (glance_options.timeout_ms).
 * Layout and extraction are not interruptible; they are bounded by the
 * page's size and depth limits instead.
 *
 * SIGTERM (or SIGINT): stop accepting, finish every request already taken
 * (queued or running) and send its answer, then exit 0. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <json-c/json.h>
#include <microhttpd.h>

#include "glance.h"
#include "tools/cli.h"
#include "reader_css.h" /* generated from tools/reader.css: reader_css[] */

/* ---- metrics ---------------------------------------------------------- */

enum { EP_READ, EP_EXTRACT, EP_SHOT, EP_HEALTHZ, EP_METRICS, EP_OTHER, N_EP };
static const char *const ep_names[N_EP] = {"read", "extract", "shot", "healthz", "metrics", "other"};
static const int codes[] = {200, 400, 403, 404, 405, 413, 422, 500, 502, 503, 504};
#define N_CODES (int)(sizeof codes / sizeof codes[0])
static const double buckets[] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
#define N_BUCKETS (int)(sizeof buckets / sizeof buckets[0])

typedef struct metrics {
    pthread_mutex_t lock;
    unsigned long requests[N_EP];
    unsigned long responses[N_EP][N_CODES + 1]; /* the last: any other code */
    unsigned long rejected;                     /* 503: queue full or shutting down */
    unsigned long hist[N_EP][N_BUCKETS + 1];    /* cumulative at print time */
    double sum[N_EP];
    unsigned long count[N_EP];
} metrics;

/* ---- requests, jobs, the queue ---------------------------------------- */

typedef struct server server;

typedef struct req {
    server *srv;
    struct MHD_Connection *conn;
    int ep;
    int post;
    double t0;            /* arrival, monotonic ms */
    /* POST body */
    char *body;
    size_t len, cap;
    int too_big;
    /* the job */
    char *url, *base, *charset;
    int window_w, window_h;
    int queued;           /* was put on the queue: counts in in_flight until completed */
    int done;             /* the worker's answer is ready */
    int code;
    char *out;            /* malloc'd answer */
    size_t out_len;
    const char *ctype;
    int retry_after;      /* seconds, 0: none */
    struct req *next;
} req;

struct server {
    struct MHD_Daemon *d;
    int workers;
    int queue_cap;
    double budget_ms;
    size_t max_bytes;
    char *allow_addrs;   /* "IP:PORT,..." the address policy lets through (glance_options) */
    pthread_mutex_t lock;
    pthread_cond_t cond; /* a job queued, or quitting */
    pthread_cond_t idle; /* in_flight fell */
    req *head, *tail;
    int n_queued;
    int in_flight;       /* requests taken for a worker and not yet completed */
    int stopping;        /* SIGTERM: no new work */
    int quit;            /* workers: leave */
    pthread_t *threads;
    metrics m;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- small strings ---------------------------------------------------- */

typedef struct sbuf {
    char *b;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_add(sbuf *s, const char *p, size_t n)
{
    if (s->oom)
        return;
    if (s->n + n + 1 > s->cap) {
        size_t c = s->cap ? s->cap : 4096;
        while (c < s->n + n + 1)
            c *= 2;
        char *nb = realloc(s->b, c);
        if (!nb) {
            s->oom = 1;
            return;
        }
        s->b = nb;
        s->cap = c;
    }
    memcpy(s->b + s->n, p, n);
    s->n += n;
    s->b[s->n] = '\0';
}

static void sb_puts(sbuf *s, const char *p)
{
    sb_add(s, p, strlen(p));
}

static void sb_printf(sbuf *s, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb_add(s, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Text into HTML, in element content and in quoted attributes alike. */
static void sb_html(sbuf *s, const char *p)
{
    for (; p && *p; p++) {
        switch (*p) {
        case '&': sb_puts(s, "&amp;"); break;
        case '<': sb_puts(s, "&lt;"); break;
        case '>': sb_puts(s, "&gt;"); break;
        case '"': sb_puts(s, "&quot;"); break;
        case '\'': sb_puts(s, "&#39;"); break;
        default: sb_add(s, p, 1);
        }
    }
}

/* ---- answers ---------------------------------------------------------- */

static int code_index(int code)
{
    for (int i = 0; i < N_CODES; i++)
        if (codes[i] == code)
            return i;
    return N_CODES;
}

static void count_response(server *srv, int ep, int code, double t0)
{
    double s = (now_ms() - t0) / 1000.0;
    pthread_mutex_lock(&srv->m.lock);
    srv->m.responses[ep][code_index(code)]++;
    if (ep == EP_READ || ep == EP_EXTRACT || ep == EP_SHOT) {
        int b = 0;
        while (b < N_BUCKETS && s > buckets[b])
            b++;
        srv->m.hist[ep][b]++;
        srv->m.sum[ep] += s;
        srv->m.count[ep]++;
    }
    pthread_mutex_unlock(&srv->m.lock);
}

/* Sends `body` (taken: freed by MHD) with `code`. */
static enum MHD_Result respond(req *r, int code, const char *ctype, char *body, size_t len,
                               int retry_after)
{
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(len, body ? body : (char *)"", body ? MHD_RESPMEM_MUST_FREE
                                                                            : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (retry_after > 0) {
        char ra[16];
        snprintf(ra, sizeof ra, "%d", retry_after);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, ra);
    }
    if (r->ep == EP_READ)
        /* The page shows content from elsewhere: no scripts, no plugins,
         * only our own stylesheet; images from anywhere. */
        MHD_add_response_header(resp, "Content-Security-Policy",
                                "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; "
                                "form-action 'none'");
    if (r->srv->stopping)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    count_response(r->srv, r->ep, code, r->t0);
    enum MHD_Result ret = MHD_queue_response(r->conn, (unsigned)code, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* The HTTP status that fits a glance status. */
static int http_code_for(glance_status st)
{
    switch (st) {
    case GLANCE_OK: return 200;
    case GLANCE_EURL:
    case GLANCE_EOPTION: return 400;
    case GLANCE_EADDR: return 403;
    case GLANCE_ETOOBIG:
    case GLANCE_ECOSTLY: return 413;
    case GLANCE_ENOCONTENT:
    case GLANCE_EINPUT: return 422;
    case GLANCE_EFETCH:
    case GLANCE_EREDIRECTS: return 502;
    case GLANCE_ETIMEOUT: return 504;
    default: return 500;
    }
}

/* {"error": message, "status": token, "code": http} */
static char *error_json(int code, const char *status, const char *message, size_t *len)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "error", json_object_new_string(message ? message : ""));
    json_object_object_add(o, "status", json_object_new_string(status));
    json_object_object_add(o, "code", json_object_new_int(code));
    char *s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
    json_object_put(o);
    *len = s ? strlen(s) : 0;
    return s;
}

static enum MHD_Result respond_error(req *r, int code, const char *status, const char *message,
                                     int retry_after)
{
    size_t len;
    char *b = error_json(code, status, message, &len);
    return respond(r, code, "application/json", b, len, retry_after);
}

/* ---- the work --------------------------------------------------------- */

static void set_error(req *r, int code, const char *status, const char *message)
{
    r->code = code;
    r->ctype = "application/json";
    r->out = error_json(code, status, message, &r->out_len);
}

static void reader_page(req *r, glance_result *res)
{
    sbuf s = {0};
    const char *title = glance_result_title(res);
    const char *src = glance_result_url(res);
    if (!src)
        src = r->url ? r->url : r->base;
    sb_puts(&s, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<meta name=\"referrer\" content=\"no-referrer\">\n<title>");
    sb_html(&s, title[0] ? title : src);
    sb_puts(&s, "</title>\n");
    if (src && !r->post) {
        /* The content's relative links and images point at the original. */
        sb_puts(&s, "<base href=\"");
        sb_html(&s, src);
        sb_puts(&s, "\">\n");
    }
    sb_puts(&s, "<style>\n");
    sb_add(&s, (const char *)reader_css, sizeof reader_css);
    sb_puts(&s, "</style>\n</head>\n<body>\n<main>\n<header>\n");
    if (title[0]) {
        sb_puts(&s, "<h1 dir=\"auto\">");
        sb_html(&s, title);
        sb_puts(&s, "</h1>\n");
    }
    if (src) {
        sb_puts(&s, "<p class=\"source\"><a href=\"");
        sb_html(&s, src);
        sb_puts(&s, "\" rel=\"noreferrer noopener\">");
        sb_html(&s, src);
        sb_puts(&s, "</a></p>\n");
    }
    /* The content comes from glance's own serialiser (clean HTML: no
     * scripts, styles or event attributes). */
    sb_puts(&s, "</header>\n<article dir=\"auto\">\n");
    sb_puts(&s, glance_result_html(res));
    sb_puts(&s, "\n</article>\n</main>\n</body></html>\n");
    if (s.oom) {
        free(s.b);
        set_error(r, 500, "nomem", "out of memory");
        return;
    }
    r->code = 200;
    r->ctype = "text/html; charset=utf-8";
    r->out = s.b;
    r->out_len = s.n;
}

static void run_job(server *srv, glance_context *ctx, req *r)
{
    double left = srv->budget_ms - (now_ms() - r->t0);
    if (left < 1) {
        set_error(r, 503, "busy", "waited in the queue for the whole time budget");
        r->retry_after = 1;
        return;
    }
    glance_options *o = glance_options_new();
    char win[64], bytes[32], ms[32], cms[32];
    snprintf(win, sizeof win, "%dx%d", r->window_w, r->window_h);
    snprintf(bytes, sizeof bytes, "%zu", srv->max_bytes);
    /* Layout and extraction get as long again at most (the library counts
     * their budget from the end of the fetch). */
    snprintf(ms, sizeof ms, "%ldms", (long)left);
    snprintf(cms, sizeof cms, "%ldms", (long)left < 10000 ? (long)left : 10000L);
    /* The address policy, with the exact addresses the operator allowed
     * (--allow-host): checked on every connection, redirects and
     * stylesheets included. */
    if (!o || glance_options_set(o, "window", win) || glance_options_set(o, "max_input_bytes", bytes) ||
        glance_options_set(o, "timeout", ms) || glance_options_set(o, "time_budget", ms) ||
        glance_options_set(o, "connect_timeout", cms) || glance_options_set(o, "public_only", "on") ||
        (srv->allow_addrs && glance_options_set(o, "allow_addrs", srv->allow_addrs))) {
        glance_options_free(o);
        set_error(r, 500, "nomem", "out of memory");
        return;
    }
    glance_result *res = NULL;
    glance_status st;
    if (r->post)
        st = glance_extract_page(ctx, r->body, r->len, r->charset, r->base, o, &res);
    else
        st = glance_extract_url(ctx, r->url, o, &res);
    glance_options_free(o);
    if (!res) {
        set_error(r, 500, "nomem", "out of memory");
        return;
    }
    if (r->ep == EP_SHOT && (st == GLANCE_OK || st == GLANCE_ENOCONTENT)) {
        /* A page GCE found nothing on is worth seeing too. */
        unsigned char *png = NULL;
        size_t len = 0;
        glance_status ss = glance_result_shot_png(ctx, res, NULL, &png, &len);
        if (ss == GLANCE_OK) {
            r->code = 200;
            r->ctype = "image/png";
            r->out = (char *)png;
            r->out_len = len;
        } else {
            set_error(r, http_code_for(ss) == 400 ? 500 : http_code_for(ss), glance_status_name(ss),
                      glance_result_message(res, ss));
        }
    } else if (st != GLANCE_OK) {
        set_error(r, http_code_for(st), glance_status_name(st), glance_result_message(res, st));
    } else if (r->ep == EP_READ) {
        reader_page(r, res);
    } else {
        const char *j = glance_result_json(res);
        if (!j) {
            set_error(r, 500, "nomem", "out of memory");
        } else {
            r->code = 200;
            r->ctype = "application/json";
            r->out = strdup(j);
            r->out_len = r->out ? strlen(j) : 0;
            if (!r->out)
                set_error(r, 500, "nomem", "out of memory");
        }
    }
    glance_result_free(res);
}

static void *worker_main(void *arg)
{
    server *srv = arg;
    glance_context *ctx = glance_context_new();
    for (;;) {
        pthread_mutex_lock(&srv->lock);
        while (!srv->head && !srv->quit)
            pthread_cond_wait(&srv->cond, &srv->lock);
        if (!srv->head) {
            pthread_mutex_unlock(&srv->lock);
            break;
        }
        req *r = srv->head;
        srv->head = r->next;
        if (!srv->head)
            srv->tail = NULL;
        srv->n_queued--;
        pthread_mutex_unlock(&srv->lock);

        if (ctx)
            run_job(srv, ctx, r);
        else
            set_error(r, 500, "fonts", "cannot set up fonts");
        pthread_mutex_lock(&srv->lock);
        r->done = 1;
        pthread_mutex_unlock(&srv->lock);
        MHD_resume_connection(r->conn);
    }
    glance_context_free(ctx);
    return NULL;
}

/* ---- the HTTP side ---------------------------------------------------- */

static char *metrics_text(server *srv, size_t *len)
{
    sbuf s = {0};
    metrics *m = &srv->m;
    pthread_mutex_lock(&srv->lock);
    int queued = srv->n_queued, in_flight = srv->in_flight;
    pthread_mutex_unlock(&srv->lock);
    pthread_mutex_lock(&m->lock);
    sb_puts(&s, "# HELP glance_requests_total Requests received, by endpoint.\n"
                "# TYPE glance_requests_total counter\n");
    for (int e = 0; e < N_EP; e++)
        sb_printf(&s, "glance_requests_total{endpoint=\"%s\"} %lu\n", ep_names[e], m->requests[e]);
    sb_puts(&s, "# HELP glance_responses_total Responses sent, by endpoint and HTTP status.\n"
                "# TYPE glance_responses_total counter\n");
    for (int e = 0; e < N_EP; e++)
        for (int c = 0; c <= N_CODES; c++)
            if (m->responses[e][c] && c < N_CODES)
                sb_printf(&s, "glance_responses_total{endpoint=\"%s\",code=\"%d\"} %lu\n", ep_names[e],
                          codes[c], m->responses[e][c]);
            else if (m->responses[e][c])
                sb_printf(&s, "glance_responses_total{endpoint=\"%s\",code=\"other\"} %lu\n", ep_names[e],
                          m->responses[e][c]);
    sb_puts(&s, "# HELP glance_errors_total Responses with a status of 400 or over, by endpoint.\n"
                "# TYPE glance_errors_total counter\n");
    for (int e = 0; e < N_EP; e++) {
        unsigned long n = 0;
        for (int c = 0; c <= N_CODES; c++)
            if (c == N_CODES || codes[c] >= 400)
                n += m->responses[e][c];
        sb_printf(&s, "glance_errors_total{endpoint=\"%s\"} %lu\n", ep_names[e], n);
    }
    sb_puts(&s, "# HELP glance_rejected_total Requests refused with 503 because the queue was full "
                "or the server was stopping.\n# TYPE glance_rejected_total counter\n");
    sb_printf(&s, "glance_rejected_total %lu\n", m->rejected);
    sb_puts(&s, "# HELP glance_request_duration_seconds Time from a request's arrival to its answer.\n"
                "# TYPE glance_request_duration_seconds histogram\n");
    for (int e = 0; e < EP_HEALTHZ; e++) {
        unsigned long cum = 0;
        for (int b = 0; b < N_BUCKETS; b++) {
            cum += m->hist[e][b];
            sb_printf(&s, "glance_request_duration_seconds_bucket{endpoint=\"%s\",le=\"%g\"} %lu\n",
                      ep_names[e], buckets[b], cum);
        }
        sb_printf(&s, "glance_request_duration_seconds_bucket{endpoint=\"%s\",le=\"+Inf\"} %lu\n",
                  ep_names[e], m->count[e]);
        sb_printf(&s, "glance_request_duration_seconds_sum{endpoint=\"%s\"} %.6f\n", ep_names[e], m->sum[e]);
        sb_printf(&s, "glance_request_duration_seconds_count{endpoint=\"%s\"} %lu\n", ep_names[e],
                  m->count[e]);
    }
    pthread_mutex_unlock(&m->lock);
    sb_puts(&s, "# HELP glance_queue_length Requests waiting for a worker.\n"
                "# TYPE glance_queue_length gauge\n");
    sb_printf(&s, "glance_queue_length %d\n", queued);
    sb_puts(&s, "# HELP glance_in_flight Requests queued or being worked on.\n"
                "# TYPE glance_in_flight gauge\n");
    sb_printf(&s, "glance_in_flight %d\n", in_flight);
    sb_printf(&s, "# HELP glance_workers Worker threads.\n# TYPE glance_workers gauge\nglance_workers %d\n",
              srv->workers);
    if (s.oom) {
        free(s.b);
        return NULL;
    }
    *len = s.n;
    return s.b;
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

static int parse_window(const char *s, int *w, int *h)
{
    if (!s) {
        *w = 1920;
        *h = 1080;
        return 0;
    }
    /* The shot is the window's width by up to alpha (2) heights, 4 bytes a
     * pixel: at 3840x2400 that is 74 MB a worker; keep it there. */
    return cli_parse_pair(s, w, h) != 0 || *w > 3840 || *h > 2400 || *w < 200 || *h < 200 ? -1 : 0;
}

/* Puts `r` on the queue and suspends its connection; 503 when full. */
static enum MHD_Result enqueue(req *r)
{
    server *srv = r->srv;
    pthread_mutex_lock(&srv->lock);
    if (srv->stopping || srv->n_queued >= srv->queue_cap) {
        int stopping = srv->stopping;
        pthread_mutex_unlock(&srv->lock);
        pthread_mutex_lock(&srv->m.lock);
        srv->m.rejected++;
        pthread_mutex_unlock(&srv->m.lock);
        return respond_error(r, 503, "busy",
                             stopping ? "the server is shutting down" : "the queue is full: try again",
                             1);
    }
    /* Suspended before any worker can see it: the worker's resume always
     * comes after. */
    MHD_suspend_connection(r->conn);
    r->queued = 1;
    r->next = NULL;
    if (srv->tail)
        srv->tail->next = r;
    else
        srv->head = r;
    srv->tail = r;
    srv->n_queued++;
    srv->in_flight++;
    pthread_cond_signal(&srv->cond);
    pthread_mutex_unlock(&srv->lock);
    return MHD_YES;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url,
                               const char *method, const char *version, const char *upload_data,
                               size_t *upload_data_size, void **con_cls)
{
    server *srv = cls;
    req *r = *con_cls;
    if (!r) {
        if (!(r = calloc(1, sizeof *r)))
            return MHD_NO;
        r->srv = srv;
        r->conn = conn;
        r->t0 = now_ms();
        r->post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
        if (strcmp(url, "/read") == 0)
            r->ep = EP_READ;
        else if (strcmp(url, "/extract") == 0)
            r->ep = EP_EXTRACT;
        else if (strcmp(url, "/shot") == 0)
            r->ep = EP_SHOT;
        else if (strcmp(url, "/healthz") == 0)
            r->ep = EP_HEALTHZ;
        else if (strcmp(url, "/metrics") == 0)
            r->ep = EP_METRICS;
        else
            r->ep = EP_OTHER;
        *con_cls = r;
        pthread_mutex_lock(&srv->m.lock);
        srv->m.requests[r->ep]++;
        pthread_mutex_unlock(&srv->m.lock);
        if (r->post && r->ep == EP_EXTRACT) {
            /* A declared length over the limit is refused before the body
             * is read. */
            const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
            if (cl && strtod(cl, NULL) > (double)srv->max_bytes)
                return respond_error(r, 413, "toobig", "the body is over the server's limit", 0);
            return MHD_YES; /* the body comes in the next calls */
        }
    }
    if (r->done) { /* resumed: the worker's answer */
        char *o = r->out;
        r->out = NULL;
        return respond(r, r->code, r->ctype, o, r->out_len, r->retry_after);
    }
    if (*upload_data_size) {
        if (!r->too_big && r->len + *upload_data_size <= srv->max_bytes) {
            if (r->len + *upload_data_size + 1 > r->cap) {
                size_t c = r->cap ? r->cap : 65536;
                while (c < r->len + *upload_data_size + 1)
                    c *= 2;
                char *nb = realloc(r->body, c);
                if (!nb)
                    r->too_big = 1;
                else {
                    r->body = nb;
                    r->cap = c;
                }
            }
            if (!r->too_big) {
                memcpy(r->body + r->len, upload_data, *upload_data_size);
                r->len += *upload_data_size;
            }
        } else {
            r->too_big = 1; /* the rest is read and dropped */
        }
        *upload_data_size = 0;
        return MHD_YES;
    }

    int get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
    switch (r->ep) {
    case EP_HEALTHZ:
        if (!get)
            return respond_error(r, 405, "method", "GET only", 0);
        if (srv->stopping)
            return respond(r, 503, "text/plain; charset=utf-8", strdup("stopping\n"), 9, 0);
        return respond(r, 200, "text/plain; charset=utf-8", strdup("ok\n"), 3, 0);
    case EP_METRICS: {
        if (!get)
            return respond_error(r, 405, "method", "GET only", 0);
        size_t len = 0;
        char *t = metrics_text(srv, &len);
        if (!t)
            return respond_error(r, 500, "nomem", "out of memory", 0);
        return respond(r, 200, "text/plain; version=0.0.4; charset=utf-8", t, len, 0);
    }
    case EP_OTHER:
        return respond_error(r, 404, "notfound", "no such endpoint: /read, /extract, /shot, /healthz, /metrics", 0);
    default: break;
    }
    if (r->post && r->ep != EP_EXTRACT)
        return respond_error(r, 405, "method", "GET only (POST is for /extract)", 0);
    if (!r->post && !get)
        return respond_error(r, 405, "method", "GET or POST", 0);
    if (r->too_big)
        return respond_error(r, 413, "toobig", "the body is over the server's limit", 0);
    const char *win = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "window");
    if (parse_window(win, &r->window_w, &r->window_h) != 0)
        return respond_error(r, 400, "badoption", "window must be WxH, 200x200 to 3840x2400", 0);
    if (r->post) {
        const char *base = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "base");
        if (base && !(r->base = strdup(base)))
            return MHD_NO;
        r->charset = charset_of(MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                            MHD_HTTP_HEADER_CONTENT_TYPE));
        if (!r->len)
            return respond_error(r, 400, "badinput", "POST /extract needs the page as its body", 0);
    } else {
        const char *u = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "url");
        if (!u || !*u)
            return respond_error(r, 400, "badurl", "the url parameter is missing", 0);
        if (strncasecmp(u, "http://", 7) != 0 && strncasecmp(u, "https://", 8) != 0)
            return respond_error(r, 400, "badurl", "not an http or https URL", 0);
        if (!(r->url = strdup(u)))
            return MHD_NO;
    }
    return enqueue(r);
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    server *srv = cls;
    req *r = *con_cls;
    if (!r)
        return;
    if (r->queued) {
        pthread_mutex_lock(&srv->lock);
        srv->in_flight--;
        pthread_cond_broadcast(&srv->idle);
        pthread_mutex_unlock(&srv->lock);
    }
    free(r->body);
    free(r->url);
    free(r->base);
    free(r->charset);
    free(r->out);
    free(r);
    *con_cls = NULL;
}

/* ---- the command ------------------------------------------------------ */

static void usage(FILE *f)
{
    fputs("usage: glance serve [--listen HOST:PORT] [--workers N] [--queue N]\n"
          "                    [--budget S] [--max-page-bytes N] [--allow-host HOST:PORT ...]\n"
          "\n"
          "The reader-mode backend over HTTP:\n"
          "  GET  /read?url=U[&window=WxH]   a reader page: title, content, link to U\n"
          "  GET  /extract?url=U[&window=WxH]  the JSON of glance extract --format json\n"
          "  POST /extract[?base=U&window=WxH] the same for the page in the body (its\n"
          "                                  Content-Type's charset is honoured)\n"
          "  GET  /shot?url=U[&window=WxH]   the PNG of glance shot\n"
          "  GET  /healthz, GET /metrics     health; Prometheus counters\n"
          "Errors are JSON: 400 bad URL or option, 403 address refused, 413 too\n"
          "large, 422 no main content or not HTML, 502 upstream failed, 503 busy\n"
          "(Retry-After), 504 upstream timed out.\n"
          "\n"
          "options:\n"
          "  --listen HOST:PORT  address to listen on (default 127.0.0.1:8080; port 0:\n"
          "                      any free one, printed on stdout)\n"
          "  --workers N         worker threads, one glance context each (default: cores)\n"
          "  --queue N           requests waiting for a worker at most; more get 503\n"
          "                      (default 4 x workers)\n"
          "  --budget S          seconds a request may take, queue wait and fetch\n"
          "                      included (default 30)\n"
          "  --max-page-bytes N  a fetched page or a POSTed body (default 8388608)\n"
          "  --allow-host IP:PORT  let this exact numeric address and port through the\n"
          "                      address policy (which refuses loopback, private and\n"
          "                      reserved addresses), checked on every connection;\n"
          "                      redirects and stylesheets elsewhere stay refused. For\n"
          "                      tests and an upstream of your own; repeatable\n"
          "\n"
          "SIGTERM or SIGINT: stop accepting, finish the requests taken, exit 0.\n",
          f);
}

/* "HOST:PORT" or "[V6]:PORT" into a socket address. */
static int parse_listen(const char *s, struct sockaddr_storage *sa, socklen_t *len, int *v6)
{
    char host[256];
    const char *colon = strrchr(s, ':');
    if (!colon || colon == s || (size_t)(colon - s) >= sizeof host)
        return -1;
    size_t hn = (size_t)(colon - s);
    memcpy(host, s, hn);
    host[hn] = '\0';
    if (host[0] == '[' && hn > 2 && host[hn - 1] == ']') {
        memmove(host, host + 1, hn - 2);
        host[hn - 2] = '\0';
    }
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || end == colon + 1 || port < 0 || port > 65535)
        return -1;
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV, .ai_socktype = SOCK_STREAM};
    struct addrinfo *ai = NULL;
    if (getaddrinfo(host, colon + 1, &hints, &ai) != 0 || !ai)
        return -1;
    memcpy(sa, ai->ai_addr, ai->ai_addrlen);
    *len = ai->ai_addrlen;
    *v6 = ai->ai_family == AF_INET6;
    freeaddrinfo(ai);
    return 0;
}

/* Adds "IP:PORT" to the allow-list in the form the connection check
 * compares (inet_ntop's; IPv6 in brackets). 0, or -1 for a bad value. */
static int add_allowed(server *srv, const char *v)
{
    struct sockaddr_storage sa;
    socklen_t len;
    int v6;
    char ip[INET6_ADDRSTRLEN], one[INET6_ADDRSTRLEN + 10];
    if (parse_listen(v, &sa, &len, &v6) != 0)
        return -1;
    unsigned port;
    if (v6) {
        const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)&sa;
        inet_ntop(AF_INET6, &s->sin6_addr, ip, sizeof ip);
        port = ntohs(s->sin6_port);
        snprintf(one, sizeof one, "[%s]:%u", ip, port);
    } else {
        const struct sockaddr_in *s = (const struct sockaddr_in *)&sa;
        inet_ntop(AF_INET, &s->sin_addr, ip, sizeof ip);
        port = ntohs(s->sin_port);
        snprintf(one, sizeof one, "%s:%u", ip, port);
    }
    if (port == 0)
        return -1;
    size_t old = srv->allow_addrs ? strlen(srv->allow_addrs) : 0;
    char *n = realloc(srv->allow_addrs, old + strlen(one) + 2);
    if (!n)
        return -1;
    if (old)
        n[old++] = ',';
    strcpy(n + old, one);
    srv->allow_addrs = n;
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    const char *listen_at = "127.0.0.1:8080";
    server srv;
    memset(&srv, 0, sizeof srv);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    srv.workers = ncpu > 0 ? (int)ncpu : 2;
    srv.queue_cap = -1;
    srv.budget_ms = 30000;
    srv.max_bytes = 8u << 20;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d = 0;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (!v || strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "glance: serve: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return EXIT_USAGE;
        }
        i++;
        int bad = 0;
        if (strcmp(a, "--listen") == 0) {
            listen_at = v;
        } else if (strcmp(a, "--allow-host") == 0) {
            bad = add_allowed(&srv, v) != 0;
        } else if (cli_parse_double(v, &d) != 0) {
            bad = 1;
        } else if (strcmp(a, "--workers") == 0) {
            bad = d < 1 || d > 256 || d != floor(d);
            srv.workers = (int)d;
        } else if (strcmp(a, "--queue") == 0) {
            bad = d < 0 || d > 100000 || d != floor(d);
            srv.queue_cap = (int)d;
        } else if (strcmp(a, "--budget") == 0) {
            bad = d <= 0 || d > 3600;
            srv.budget_ms = d * 1000;
        } else if (strcmp(a, "--max-page-bytes") == 0) {
            bad = d < 1 || d > 1e10 || d != floor(d);
            srv.max_bytes = (size_t)d;
        } else {
            fprintf(stderr, "glance: serve: unknown option '%s'\n", a);
            usage(stderr);
            return EXIT_USAGE;
        }
        if (bad) {
            fprintf(stderr, "glance: serve: bad value for %s: '%s'\n", a, v);
            return EXIT_USAGE;
        }
    }
    if (srv.queue_cap < 0)
        srv.queue_cap = 4 * srv.workers;
    struct sockaddr_storage sa;
    socklen_t salen;
    int v6 = 0;
    if (parse_listen(listen_at, &sa, &salen, &v6) != 0) {
        fprintf(stderr, "glance: serve: bad --listen '%s' (HOST:PORT, a numeric address)\n", listen_at);
        return EXIT_USAGE;
    }

    /* Signals are taken by sigwait below, on this thread only: block them
     * before any thread starts, so every thread inherits the mask. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    pthread_mutex_init(&srv.lock, NULL);
    pthread_mutex_init(&srv.m.lock, NULL);
    pthread_cond_init(&srv.cond, NULL);
    pthread_cond_init(&srv.idle, NULL);
    /* One glance context per worker holds fonts; curl's process-wide set-up
     * is reference-counted by the contexts. */
    srv.threads = calloc((size_t)srv.workers, sizeof *srv.threads);
    if (!srv.threads)
        return EXIT_INTERNAL;
    int started = 0;
    for (; started < srv.workers; started++)
        if (pthread_create(&srv.threads[started], NULL, worker_main, &srv) != 0)
            break;
    int code = 0;
    if (started < srv.workers) {
        fprintf(stderr, "glance: serve: cannot start the workers\n");
        code = EXIT_INTERNAL;
        goto stop_workers;
    }

    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ITC | (v6 ? MHD_USE_IPv6 : 0);
    srv.d = MHD_start_daemon(flags, 0, NULL, NULL, handler, &srv,
                             MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
                             MHD_OPTION_NOTIFY_COMPLETED, completed, &srv,
                             MHD_OPTION_CONNECTION_LIMIT, (unsigned)4096,
                             MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)(srv.budget_ms / 1000 + 30),
                             MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024,
                             MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536,
                             MHD_OPTION_END);
    if (!srv.d) {
        fprintf(stderr, "glance: serve: cannot listen on %s: %s\n", listen_at, strerror(errno));
        code = EXIT_INTERNAL;
        goto stop_workers;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(srv.d, MHD_DAEMON_INFO_BIND_PORT);
    char host[256];
    snprintf(host, sizeof host, "%.*s", (int)(strrchr(listen_at, ':') - listen_at), listen_at);
    printf("glance serve: listening on http://%s:%u (%d workers, queue %d)\n", host,
           info ? info->port : 0, srv.workers, srv.queue_cap);
    fflush(stdout);

    int sig = 0;
    while (sigwait(&sigs, &sig) != 0)
        ;
    fprintf(stderr, "glance serve: signal %d: finishing the requests taken\n", sig);
    /* Stop accepting; what is queued or running is finished and answered
     * (in_flight falls as each answer is sent: completed()). */
    pthread_mutex_lock(&srv.lock);
    srv.stopping = 1;
    pthread_mutex_unlock(&srv.lock);
    MHD_socket ls = MHD_quiesce_daemon(srv.d);
    if (ls != MHD_INVALID_SOCKET)
        close(ls);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)(srv.budget_ms / 1000) + 10;
    pthread_mutex_lock(&srv.lock);
    while (srv.in_flight > 0)
        if (pthread_cond_timedwait(&srv.idle, &srv.lock, &until) == ETIMEDOUT)
            break;
    int left = srv.in_flight;
    pthread_mutex_unlock(&srv.lock);
    if (left) {
        /* Workers still hold suspended connections: libmicrohttpd cannot be
         * stopped under them. Leave; the kernel closes the sockets. */
        fprintf(stderr, "glance serve: %d requests still unanswered at the deadline\n", left);
        return EXIT_INTERNAL;
    }
    MHD_stop_daemon(srv.d);
stop_workers:
    pthread_mutex_lock(&srv.lock);
    srv.quit = 1;
    pthread_cond_broadcast(&srv.cond);
    pthread_mutex_unlock(&srv.lock);
    for (int i = 0; i < started; i++)
        pthread_join(srv.threads[i], NULL);
    free(srv.threads);
    free(srv.allow_addrs);
    /* cairo's process-wide font caches (filled by /shot) and their
     * fontconfig patterns, handed back for a clean exit as glance shot
     * does; no thread paints any more. */
    cairo_debug_reset_static_data();
    FcFini();
    fprintf(stderr, "glance serve: stopped\n");
    return code;
}
