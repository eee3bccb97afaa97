/* tools/serve/: the counters of GET /metrics, by endpoint (a route of the
 * table, or "other"), and their Prometheus text. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "tools/serve/serve.h"

static const int codes[] = {200, 400, 403, 404, 405, 413, 422, 500, 502, 503, 504};
#define N_CODES (int)(sizeof codes / sizeof codes[0])
static const double buckets[] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
#define N_BUCKETS (int)(sizeof buckets / sizeof buckets[0])

typedef struct counts {
    unsigned long requests;
    unsigned long responses[N_CODES + 1]; /* the last: any other code */
    unsigned long hist[N_BUCKETS + 1];    /* made cumulative when printed */
    double sum;
    unsigned long count;
} counts;

/* The labels of glance_refused_total, by serve_refusal. */
static const char *const refusal_names[SERVE_N_REFUSALS] = {
    [SERVE_REFUSED_WAIT] = "expected_wait",   [SERVE_REFUSED_CAP] = "cap",
    [SERVE_REFUSED_SHARE] = "client_share",   [SERVE_REFUSED_WAITED] = "waited_out",
    [SERVE_REFUSED_STOPPING] = "stopping",    [SERVE_REFUSED_NOWORKER] = "no_worker",
};

struct serve_metrics {
    pthread_mutex_t lock;
    unsigned long refused[SERVE_N_REFUSALS]; /* 503 unrun, by why */
    counts wait;            /* the waits for a worker (hist, sum, count) */
    int n;                  /* the routes, and "other" */
    counts ep[];
};

static counts *of(serve_metrics *m, int endpoint)
{
    return &m->ep[endpoint >= 0 && endpoint < m->n ? endpoint : m->n - 1];
}

static const char *ep_name(int ep)
{
    return ep < serve_n_routes ? serve_routes[ep].path + 1 : "other";
}

/* Only the routes that wait for a worker are timed. */
static int timed(int ep)
{
    return ep < serve_n_routes && serve_routes[ep].worker;
}

serve_metrics *serve_metrics_new(void)
{
    int n = serve_n_routes + 1;
    serve_metrics *m = calloc(1, sizeof *m + (size_t)n * sizeof m->ep[0]);
    if (!m)
        return NULL;
    m->n = n;
    pthread_mutex_init(&m->lock, NULL);
    return m;
}

void serve_metrics_free(serve_metrics *m)
{
    if (!m)
        return;
    pthread_mutex_destroy(&m->lock);
    free(m);
}

void serve_metrics_request(serve_metrics *m, int endpoint)
{
    pthread_mutex_lock(&m->lock);
    of(m, endpoint)->requests++;
    pthread_mutex_unlock(&m->lock);
}

void serve_metrics_refused(serve_metrics *m, serve_refusal why)
{
    if (!m || why < 0 || why >= SERVE_N_REFUSALS)
        return;
    pthread_mutex_lock(&m->lock);
    m->refused[why]++;
    pthread_mutex_unlock(&m->lock);
}

static void observe(counts *c, double seconds)
{
    int b = 0;
    while (b < N_BUCKETS && seconds > buckets[b])
        b++;
    c->hist[b]++;
    c->sum += seconds;
    c->count++;
}

void serve_metrics_queue_wait(serve_metrics *m, double seconds)
{
    if (!m)
        return;
    pthread_mutex_lock(&m->lock);
    observe(&m->wait, seconds);
    pthread_mutex_unlock(&m->lock);
}

/* A histogram's lines: `labels` "endpoint=\"read\"," or "". */
static void histogram(base_buf *s, const char *name, const char *labels, const counts *c)
{
    unsigned long cum = 0;
    for (int b = 0; b < N_BUCKETS; b++) {
        cum += c->hist[b];
        base_buf_printf(s, "%s_bucket{%sle=\"%g\"} %lu\n", name, labels, buckets[b], cum);
    }
    base_buf_printf(s, "%s_bucket{%sle=\"+Inf\"} %lu\n", name, labels, c->count);
    size_t n = strlen(labels);
    /* The labels without their trailing comma, in braces, or nothing. */
    if (n)
        base_buf_printf(s, "%s_sum{%.*s} %.6f\n%s_count{%.*s} %lu\n", name, (int)(n - 1), labels,
                        c->sum, name, (int)(n - 1), labels, c->count);
    else
        base_buf_printf(s, "%s_sum %.6f\n%s_count %lu\n", name, c->sum, name, c->count);
}

void serve_metrics_response(serve_metrics *m, int endpoint, int code, double seconds)
{
    int c = 0;
    while (c < N_CODES && codes[c] != code)
        c++;
    pthread_mutex_lock(&m->lock);
    counts *e = of(m, endpoint);
    e->responses[c]++;
    if (timed((int)(e - m->ep)))
        observe(e, seconds);
    pthread_mutex_unlock(&m->lock);
}

char *serve_metrics_text(serve_metrics *m, const serve_worker_stats *ws, int in_flight, size_t *len)
{
    base_buf s = BASE_BUF_INIT;
    pthread_mutex_lock(&m->lock);
    base_buf_puts(&s, "# HELP glance_requests_total Requests received, by endpoint.\n"
                      "# TYPE glance_requests_total counter\n");
    for (int e = 0; e < m->n; e++)
        base_buf_printf(&s, "glance_requests_total{endpoint=\"%s\"} %lu\n", ep_name(e),
                        m->ep[e].requests);
    base_buf_puts(&s, "# HELP glance_responses_total Responses sent, by endpoint and HTTP status.\n"
                      "# TYPE glance_responses_total counter\n");
    for (int e = 0; e < m->n; e++)
        for (int c = 0; c <= N_CODES; c++) {
            unsigned long k = m->ep[e].responses[c];
            if (k && c < N_CODES)
                base_buf_printf(&s, "glance_responses_total{endpoint=\"%s\",code=\"%d\"} %lu\n",
                                ep_name(e), codes[c], k);
            else if (k)
                base_buf_printf(&s, "glance_responses_total{endpoint=\"%s\",code=\"other\"} %lu\n",
                                ep_name(e), k);
        }
    base_buf_puts(&s, "# HELP glance_errors_total Responses with a status of 400 or over, by endpoint.\n"
                      "# TYPE glance_errors_total counter\n");
    for (int e = 0; e < m->n; e++) {
        unsigned long errors = 0;
        for (int c = 0; c <= N_CODES; c++)
            if (c == N_CODES || codes[c] >= 400)
                errors += m->ep[e].responses[c];
        base_buf_printf(&s, "glance_errors_total{endpoint=\"%s\"} %lu\n", ep_name(e), errors);
    }
    unsigned long refused = 0;
    for (int r = 0; r < SERVE_N_REFUSALS; r++)
        refused += m->refused[r];
    base_buf_puts(&s, "# HELP glance_rejected_total Requests answered 503 without being worked on "
                      "(glance_refused_total by reason, summed).\n"
                      "# TYPE glance_rejected_total counter\n");
    base_buf_printf(&s, "glance_rejected_total %lu\n", refused);
    base_buf_puts(&s, "# HELP glance_refused_total Requests answered 503 without being worked on, "
                      "by reason: expected_wait (the wait expected would not let it finish within "
                      "the budget), cap (the cap on waiting requests), client_share (its client's "
                      "share of that cap), waited_out (admitted, then waited out its budget), "
                      "stopping, no_worker.\n# TYPE glance_refused_total counter\n");
    for (int r = 0; r < SERVE_N_REFUSALS; r++)
        base_buf_printf(&s, "glance_refused_total{reason=\"%s\"} %lu\n", refusal_names[r],
                        m->refused[r]);
    base_buf_puts(&s, "# HELP glance_queue_wait_seconds Time a request waited for a worker.\n"
                      "# TYPE glance_queue_wait_seconds histogram\n");
    histogram(&s, "glance_queue_wait_seconds", "", &m->wait);
    base_buf_puts(&s, "# HELP glance_request_duration_seconds Time from a request's arrival to its "
                      "answer.\n# TYPE glance_request_duration_seconds histogram\n");
    for (int e = 0; e < m->n; e++) {
        if (!timed(e))
            continue;
        char labels[64];
        snprintf(labels, sizeof labels, "endpoint=\"%s\",", ep_name(e));
        histogram(&s, "glance_request_duration_seconds", labels, &m->ep[e]);
    }
    pthread_mutex_unlock(&m->lock);
    base_buf_puts(&s, "# HELP glance_queue_length Requests waiting for a worker.\n"
                      "# TYPE glance_queue_length gauge\n");
    base_buf_printf(&s, "glance_queue_length %d\n", ws->queued);
    base_buf_printf(&s, "# HELP glance_queue_cap Requests waiting for a worker at most (a bound on "
                        "memory).\n# TYPE glance_queue_cap gauge\nglance_queue_cap %d\n",
                    ws->queue_cap);
    base_buf_printf(&s, "# HELP glance_queue_clients Clients with a request waiting.\n"
                        "# TYPE glance_queue_clients gauge\nglance_queue_clients %d\n",
                    ws->clients);
    base_buf_printf(&s, "# HELP glance_service_seconds The recent time of a request on a worker "
                        "(a moving average; the admission's estimate).\n"
                        "# TYPE glance_service_seconds gauge\nglance_service_seconds %.6f\n",
                    ws->service_ms / 1000);
    base_buf_puts(&s, "# HELP glance_in_flight Requests queued or being worked on.\n"
                      "# TYPE glance_in_flight gauge\n");
    base_buf_printf(&s, "glance_in_flight %d\n", in_flight);
    base_buf_printf(&s, "# HELP glance_workers Worker processes, one glance context each.\n"
                        "# TYPE glance_workers gauge\nglance_workers %d\n",
                    ws->workers);
    base_buf_printf(&s, "# HELP glance_workers_busy Workers working on a request now.\n"
                        "# TYPE glance_workers_busy gauge\nglance_workers_busy %d\n",
                    ws->busy);
    base_buf_printf(&s, "# HELP glance_workers_spare Spare worker processes, taking requests "
                        "while every worker is busy.\n"
                        "# TYPE glance_workers_spare gauge\nglance_workers_spare %d\n",
                    ws->spares);
    base_buf_printf(&s, "# HELP glance_workers_spare_busy Spares working on a request now.\n"
                        "# TYPE glance_workers_spare_busy gauge\nglance_workers_spare_busy %d\n",
                    ws->spares_busy);
    base_buf_printf(&s, "# HELP glance_workers_killed_total Workers killed at their request's "
                        "budget, or gone without an answer.\n"
                        "# TYPE glance_workers_killed_total counter\nglance_workers_killed_total %lu\n",
                    ws->killed);
    base_buf_printf(&s, "# HELP glance_workers_respawned_total Workers forked in place of those.\n"
                        "# TYPE glance_workers_respawned_total counter\n"
                        "glance_workers_respawned_total %lu\n",
                    ws->respawned);
    base_buf_printf(&s, "# HELP glance_browser_starts_total The workers' browsers started (engine "
                        "chromium): each worker's first, and again after one died or its worker was "
                        "replaced.\n"
                        "# TYPE glance_browser_starts_total counter\nglance_browser_starts_total %lu\n",
                    ws->browser_starts);
    base_buf_printf(&s, "# HELP glance_workers_retired_total Workers ended while idle, grown past "
                        "their resident bound, and forked again.\n"
                        "# TYPE glance_workers_retired_total counter\n"
                        "glance_workers_retired_total %lu\n",
                    ws->retired);
    return base_buf_take(&s, len);
}
