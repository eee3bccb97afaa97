/* tools/serve/: what the files of glance serve share (not a public header).
 *
 *   command.c  the command: its flags and the server's options, signals,
 *              start and stop
 *   routes.c   the route table and the request handler that dispatches
 *              through it; query options, POST bodies, sending answers
 *   workers.c  the queue and the workers: a job goes in, its answer comes
 *              back (nothing else knows what a worker is)
 *   job.c      a job's work on a glance context: the page extracted, then
 *              the reader page, the JSON or the PNG
 *   answer.c   error answers and the HTTP status of a glance status
 *   reader.c   the reader page, with reader.css built in
 *   metrics.c  the counters and their Prometheus text
 *
 * Threads: libmicrohttpd calls routes.c on its one polling thread; answers
 * come back from the workers' dispatcher threads (serve_done_fn). The
 * work itself runs in worker processes (workers.c). */
#ifndef GLANCE_TOOLS_SERVE_SERVE_H
#define GLANCE_TOOLS_SERVE_SERVE_H

#include <pthread.h>
#include <stddef.h>

#include <microhttpd.h>

#include "glance.h"

/* The largest window a client (or the operator) may ask for: a shot is the
 * window's width by up to alpha (2) heights, 4 bytes a pixel, so 3840x2400
 * is 74 MB a worker. The smallest keeps pages readable. */
#define SERVE_WINDOW_MIN 200
#define SERVE_WINDOW_MAX_W 3840
#define SERVE_WINDOW_MAX_H 2400

/* ---- answers (answer.c) ------------------------------------------------ */

typedef struct serve_answer {
    int code;          /* HTTP status */
    const char *ctype; /* static text */
    char *body;        /* malloc'd; NULL: empty */
    size_t len;
    int retry_after;   /* seconds; 0: no Retry-After */
} serve_answer;

/* An error answer: JSON {"error": message, "status": word, "code": code},
 * the word one of glance_status_name's or the server's own (busy,
 * notfound, method). Out of memory leaves an empty body. */
void serve_error(serve_answer *a, int code, const char *status, const char *message);

/* The HTTP status that fits a glance status. */
int serve_http_code(glance_status st);

/* An error answer for a reader: the page of serve_reader_error_page (HTML,
 * for GET /read, whose clients are people with a browser), or the JSON of
 * serve_error for any other `kind` (SERVE_READ and the others, below). */
void serve_error_as(serve_answer *a, int reader, int code, const char *status,
                    const char *message, const char *src);

/* ---- jobs (job.c) ------------------------------------------------------- */

typedef enum serve_kind {
    SERVE_READ,    /* the reader page */
    SERVE_EXTRACT, /* the JSON */
    SERVE_SHOT,    /* the PNG */
    SERVE_DEBUG    /* the debug page: the shot, the blocks, every method */
} serve_kind;

/* Whether a kind's clients are people with a browser, whose errors are
 * pages (serve_reader_error_page), not JSON. */
static inline int serve_for_people(serve_kind k)
{
    return k == SERVE_READ || k == SERVE_DEBUG;
}

/* Everything a worker needs, borrowed from the request until its answer. */
typedef struct serve_job {
    serve_kind kind;
    const char *url;            /* the page to fetch; NULL for a page sent */
    const char *body;           /* the page sent (POST /extract) ... */
    size_t len;                 /* ... and its length */
    const char *charset;        /* its Content-Type's charset; NULL: none */
    const char *base;           /* where it came from (?base=); NULL: none */
    int snapshot;               /* the body is what a browser saw (Content-Type
                                   application/json: docs/snapshot.md), not HTML */
    const glance_options *opts; /* the server's, with the client's on top */
    double t0;                  /* its arrival, base_now_ms() */
    double budget_ms;           /* from t0 */
    const char *client;         /* who asked (its address): the queue is shared
                                   between clients in turn; NULL: "" */
} serve_job;

/* Does `job` with `ctx` (the worker's own), its answer into `out`, always
 * filled: an error answer when the job failed. 1 when the worker's browser
 * was started for it (engine chromium or auto: its first, or again after
 * it died), else 0. */
int serve_job_run(glance_context *ctx, const serve_job *job, serve_answer *out);

/* ---- the reader page (reader.c) ----------------------------------------- */

/* The reader page of a result: its title, its content, a link to `src`
 * (the page's address; NULL: unknown) and, when `link_base`, a <base href>
 * to it so that relative links and images point at the original. malloc'd
 * HTML, *len its length; NULL when out of memory. */
char *serve_reader_page(glance_result *res, const char *src, int link_base, size_t *len);

/* The page a reader gets instead when there is nothing to read: why
 * (`message`, the status word and the HTTP code) and a link to `src` (the
 * page asked for; NULL, or not http(s): none). malloc'd HTML; NULL when
 * out of memory. */
char *serve_reader_error_page(int code, const char *status, const char *message, const char *src,
                              size_t *len);

/* ---- the debug page (debug.c) ------------------------------------------- */

/* The debug page of GET /debug and POST /debug: from the result's JSON
 * (`json`, with every method's answer and the scorer's blocks explained)
 * and its shot (`png`, `png_len`; NULL: none), one HTML page: the shot,
 * each block drawn on it shown when chosen in the table, the blocks (rank,
 * probability, what became of each, the start of its text, the three
 * features that moved it most), each method's answer and status, the
 * metadata, the timings. `src`: the page's address (NULL: unknown).
 * malloc'd, *len its length; NULL when out of memory or the JSON is not
 * glance's. */
char *serve_debug_page(const char *json, const unsigned char *png, size_t png_len, const char *src,
                       size_t *len);

/* ---- the workers (workers.c) -------------------------------------------- */

typedef struct serve_workers serve_workers;
typedef struct serve_metrics serve_metrics;

/* Why a request was answered 503 without being worked on: the label of
 * glance_refused_total, and what /healthz reads. */
typedef enum serve_refusal {
    SERVE_REFUSED_WAIT,     /* its expected wait would not let it finish within its budget */
    SERVE_REFUSED_CAP,      /* the cap on waiting requests (a bound on their memory) */
    SERVE_REFUSED_SHARE,    /* its client already holds its share of that cap */
    SERVE_REFUSED_WAITED,   /* admitted, then waited for a worker for its whole budget */
    SERVE_REFUSED_STOPPING, /* the server was stopping */
    SERVE_REFUSED_NOWORKER, /* no worker could be started */
    SERVE_N_REFUSALS
} serve_refusal;

/* Takes the answer (its body is the callee's to free). Called once per job
 * submitted, never from within serve_workers_submit and never by the
 * submitting thread: it must be safe to call from anywhere. */
typedef void (*serve_done_fn)(void *cls, serve_answer *answer);

/* `regular` worker processes and `spare` more that take a job only while
 * every regular one is busy, each with a glance context of its own and an
 * address space of `max_memory` bytes at most (0: none), and room for
 * `queue` jobs waiting for one at most (the cap: a bound on memory, not
 * the admission rule; serve_workers_submit). `base` is the server's
 * options (each job sends only what differs from them; borrowed until
 * stop). A job is answered within `budget_ms` of its arrival (job.t0): 503
 * when it waited that long for a worker, 504 when a worker was still on it
 * (the worker killed and replaced). Refusals and waits are counted in
 * `metrics` (borrowed until stop). Call it before any thread starts. NULL
 * when they cannot start (a line on stderr). */
serve_workers *serve_workers_start(int regular, int spare, int queue, const glance_options *base,
                                   double budget_ms, size_t max_memory, serve_metrics *metrics);

/* Hands a job over: 0, and done(cls, answer) comes later; or -1, the job
 * refused, with its 503 (and Retry-After) in `refused` and counted, done
 * never called. A job waits for a worker only when the expected wait lets
 * it finish within its budget; the cap, its client's share of the cap and
 * draining refuse it too. The job must live until done. */
int serve_workers_submit(serve_workers *w, const serve_job *job, serve_done_fn done, void *cls,
                         serve_answer *refused);

/* The regular workers (spares not counted). */
int serve_workers_count(const serve_workers *w);
/* Jobs waiting for a worker now. */
int serve_workers_queued(serve_workers *w);

typedef struct serve_worker_stats {
    int workers, busy;       /* the regular workers; those working on a job */
    int spares, spares_busy; /* the spares; those working on a job */
    int busy_long;           /* busy for over half the budget (spares too) */
    int down;                /* no worker in its place (none could be forked) */
    int queued, queue_cap;
    int client_share;        /* the most one client may have waiting */
    int clients;             /* clients with a request waiting */
    double service_ms;       /* the recent time of a job on a worker (the estimate) */
    double since_time_refusal_ms; /* since the last refusal for time (expected wait
                                     or waited out); -1: none yet */
    unsigned long killed;    /* ended past their budget, or gone */
    unsigned long respawned; /* forked in their place */
    unsigned long retired;   /* ended idle past ISOLATE_RETIRE_BYTES, a fresh one forked */
    unsigned long browser_starts; /* the workers' browsers started (engine chromium) */
} serve_worker_stats;
void serve_workers_stats(serve_workers *w, serve_worker_stats *st);

/* Stopping: the jobs queued are answered 503 at once (done is called from
 * the caller's thread); those running end within their budget. */
void serve_workers_drain(serve_workers *w);

/* Answers every job still queued, stops the dispatchers, kills the worker
 * processes and frees them. */
void serve_workers_stop(serve_workers *w);

/* ---- the routes (routes.c) ---------------------------------------------- */

/* HTTP methods as a set. */
enum { SERVE_GET = 1 << 0, SERVE_HEAD = 1 << 1, SERVE_POST = 1 << 2 };

typedef struct serve_req serve_req;

/* A route's handler: SERVE_ANSWER with its answer in `out`, or SERVE_QUEUE
 * (routes with `worker` only) when the request's job is ready for a
 * worker. */
enum { SERVE_ANSWER, SERVE_QUEUE };
typedef int (*serve_handler)(serve_req *r, serve_answer *out);

typedef struct serve_route {
    const char *path;      /* "/read"; its metrics' endpoint is the name after '/' */
    unsigned methods;      /* SERVE_GET | ... : the others are answered 405 */
    serve_handler handler;
    int worker;            /* 1: the answer needs a worker (queued; timed in the metrics) */
} serve_route;

extern const serve_route serve_routes[];
extern const int serve_n_routes; /* an endpoint index of serve_n_routes: no route */

typedef struct server {
    struct MHD_Daemon *d;
    glance_options *opts;    /* the operator's: every request's defaults, and the
                                ceilings of the limits its query may lower */
    double budget_ms;        /* a request's whole time, from its arrival */
    size_t max_body;         /* a POSTed page at most (the operator's max_input_bytes) */
    serve_workers *workers;
    serve_metrics *metrics;
    pthread_mutex_t lock;    /* in_flight and stopping: the HTTP thread and the
                                answers coming back from the workers */
    pthread_cond_t idle;     /* in_flight fell */
    int in_flight;           /* requests handed to the workers, not yet answered */
    int stopping;            /* SIGTERM: no new work */
    char browser_problem[320]; /* engine chromium or auto: why the browser would not
                                  start when the server did; "" when it did, or
                                  the engine is litehtml */
    int browser_needed;      /* 1: engine chromium (every page needs it); 2: auto */
} server;

/* libmicrohttpd's callbacks, `cls` the server. */
enum MHD_Result serve_request(void *cls, struct MHD_Connection *conn, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls);
void serve_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                     enum MHD_RequestTerminationCode toe);

/* A window "WxH" within the server's bounds: 0, or -1 with why in `why`. */
int serve_check_window(const char *window, char *why, size_t cap);

/* ---- the metrics (metrics.c) -------------------------------------------- */

/* Counters by endpoint: an index of serve_routes, or serve_n_routes for a
 * path no route has. Safe from any thread. */
serve_metrics *serve_metrics_new(void);
void serve_metrics_free(serve_metrics *m);
void serve_metrics_request(serve_metrics *m, int endpoint);
void serve_metrics_response(serve_metrics *m, int endpoint, int code, double seconds);
/* A request answered 503 unrun, and why. */
void serve_metrics_refused(serve_metrics *m, serve_refusal why);
/* A job taken by a worker after waiting `seconds` for one. */
void serve_metrics_queue_wait(serve_metrics *m, double seconds);
/* The Prometheus text, with the gauges given; malloc'd, NULL when out of
 * memory. */
char *serve_metrics_text(serve_metrics *m, const serve_worker_stats *ws, int in_flight, size_t *len);

#endif
