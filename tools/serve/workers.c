/* tools/serve/: the queue and the workers.
 *
 * The workers are processes (tools/isolate.h), forked by a zygote that the
 * server starts before any thread: each makes its own glance context and
 * runs with an address-space limit (max_memory) and a CPU limit per job.
 * In the server, one dispatcher thread per worker takes jobs in order from
 * one bounded queue, sends a job to its worker over a socket (the kind,
 * the page or its URL, the options that differ from the server's), and
 * waits for the answer (status, type, body) until the job's budget is
 * spent. Past it the answer is 504, the worker is SIGKILLed and a fresh one
 * forked in its place: litehtml cannot be interrupted inside a call, a
 * process can. A worker that has grown past ISOLATE_RETIRE_BYTES resident
 * after an answer is retired the same way while idle (tools/isolate.h says
 * why).
 *
 * Admission by the budget: a job waits for a worker only when the wait
 * expected lets it finish within its budget, the wait being the jobs
 * served before it times the recent time of a job on a worker (a moving
 * average; a prior before the first) over the workers. Otherwise it is
 * refused at once, 503 with Retry-After from that wait: the client hears
 * "later" now instead of after a wait that would end in 503 or 504 anyway,
 * and the queue holds only work that can be done in time, however many
 * that is. A cap on the jobs waiting stays, as a bound on the memory their
 * bodies hold (command.c derives it from the largest body and the
 * machine's memory).
 *
 * Fairness: the jobs wait in one queue per client (its address), served in
 * turn, a job from each client with any waiting, so a client that sends
 * one request is not behind another's hundreds; its expected wait counts
 * the jobs served before it in that order, so it is admitted while the
 * flood's own are refused. One client may hold no more than its share of
 * the cap (three quarters), so a flood cannot shut the others out by the
 * cap either.
 *
 * The budget is a request's whole time from its arrival: a job that
 * waited it out for a worker is answered 503 unrun, and a worker gets what
 * is left of it (then 504). So every request is answered within its budget
 * (and the moment a kill takes), whatever the pages do.
 *
 * Spares: `spare` more worker processes, forked with the others, whose
 * dispatchers take a job only while every regular worker is busy. A few
 * costly pages can hold the regular workers until their budget; a spare
 * answers a normal page meanwhile at once instead of after that budget. A
 * spare is only one more process, not a promise: as many costly pages as
 * there are workers and spares hold them all, each until its budget.
 *
 * This file alone knows what a worker is. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/clock.h"
#include "tools/isolate.h"
#include "tools/serve/serve.h"

typedef struct item {
    const serve_job *job;
    serve_done_fn done;
    void *cls;
    double queued_at; /* base_now_ms(), for the histogram of waits */
    struct item *next;
} item;

/* A client with jobs waiting: its own queue, and its place in the turn. */
typedef struct client {
    char key[64];
    item *head, *tail;
    int n;
    struct client *next; /* the next client in turn */
} client;

/* The prior of the time of a job on a worker, until the first is done:
 * ordinary pages take a few hundred ms; erring long refuses some of a
 * first burst, erring short admits more than can finish. At most a
 * quarter of the budget, so a short budget still admits a few. */
#define SERVICE_PRIOR_MS 1000.0
/* The weight of the newest job in the moving average: about the last five
 * jobs count, so the estimate follows a change of pages or of load within
 * a second or two of work. */
#define SERVICE_ALPHA 0.2
/* A job is admitted when its expected end is within this part of what is
 * left of its budget: the estimate is an average, learnt before the burst
 * being admitted (whose jobs, run side by side, may each take longer), and
 * those admitted last must not be killed at the budget when the pages run
 * a little slower. */
#define ADMIT_HEADROOM 0.8

typedef struct slot {
    int fd;        /* to its worker; -1: none */
    pid_t pid;
    double since;  /* busy since (base_now_ms); 0: idle */
} slot;

struct serve_workers {
    pthread_mutex_t lock;
    pthread_cond_t cond; /* a job queued, or quitting */
    client *first, *last; /* the clients with jobs waiting, in turn */
    int clients;
    int queued, cap, share;
    double service_ms;   /* the moving average of a job's time on a worker */
    double time_refused; /* base_now_ms() of the last refusal for time; 0: none */
    serve_metrics *metrics;
    int quit;            /* leave once the queue is empty */
    int draining;        /* stopping: jobs not yet started are answered 503 */
    int n;               /* dispatchers started */
    int regular;         /* slots [0, regular) are the workers, the rest spares */
    pthread_t *threads;
    slot *slots;
    double *running;     /* room for the slots' running times (service_now) */
    int nslots;
    isolate *z;
    const glance_options *base; /* the server's options (the workers have a copy) */
    double budget_ms;
    unsigned long killed, respawned, retired;
    unsigned long browser_starts; /* atomic: counted by the dispatchers */
};

typedef struct dispatch_arg {
    serve_workers *w;
    int i;
} dispatch_arg;

/* ---- in the worker process ---------------------------------------------- */

static const char *const ctypes[] = {
    "application/json", "text/html; charset=utf-8", "image/png", "text/plain; charset=utf-8",
    "text/plain",
};
#define N_CTYPES (int)(sizeof ctypes / sizeof ctypes[0])

/* The worker: jobs in, answers out, until the server closes the socket. */
static int worker_main(void *arg, int fd)
{
    serve_workers *w = arg;
    glance_context *ctx = glance_context_new();
    for (;;) {
        char **f;
        size_t *l;
        int n;
        if (base_proc_recv(fd, 0, &f, &l, &n) != 1)
            break;
        serve_answer a;
        memset(&a, 0, sizeof a);
        int kind = 0, has_url = 0, has_charset = 0, has_base = 0, started = 0;
        double t0 = 0, budget = 0;
        glance_options *o = NULL;
        if (n != 7 || sscanf(f[0], "%d %d %d %d %lf %lf", &kind, &has_url, &has_charset, &has_base,
                             &t0, &budget) != 6 ||
            !(o = glance_options_copy(w->base))) {
            serve_error(&a, 500, "internal", "a bad job reached the worker");
        } else {
            /* The options that differ from the server's: "key\0value\0"... */
            for (size_t p = 0; p < l[6];) {
                const char *k = f[6] + p, *v = k + strlen(k) + 1;
                (void)glance_options_set(o, k, v);
                p = (size_t)(v - f[6]) + strlen(v) + 1;
            }
            serve_job job = {.kind = (serve_kind)kind, .url = has_url ? f[1] : NULL, .body = f[2],
                             .len = l[2], .charset = has_charset ? f[4] : NULL,
                             .base = has_base ? f[5] : NULL, .snapshot = l[3] > 0, .opts = o, .t0 = t0, .budget_ms = budget};
            /* The server kills us at the budget; the CPU limit is the
             * backstop should it not. */
            isolate_cpu_limit(budget / 1000 + 2);
            if (ctx)
                started = serve_job_run(ctx, &job, &a);
            else
                serve_error(&a, 500, "fonts", "cannot set up fonts");
        }
        glance_options_free(o);
        base_proc_fields_free(f, l, n);
        int ct = 0;
        while (ct < N_CTYPES && !(a.ctype && strcmp(a.ctype, ctypes[ct]) == 0))
            ct++;
        char head[64];
        snprintf(head, sizeof head, "%d %d %d %d", a.code, a.retry_after, ct, started);
        base_proc_field out[2] = {{head, strlen(head)}, {a.body, a.body ? a.len : 0}};
        int bad = base_proc_send(fd, out, 2);
        free(a.body);
        if (bad)
            break;
        isolate_trim();
    }
    glance_context_free(ctx);
    return 0;
}

/* ---- in the server ------------------------------------------------------ */

/* The options of `job` that differ from the server's, as "key\0value\0". */
static void options_diff(const glance_options *base, const glance_options *o, base_buf *out)
{
    for (int i = 0; i < glance_option_count(); i++) {
        glance_option_info info;
        info.size = sizeof info;
        if (glance_option_describe(i, &info) != GLANCE_OK)
            break;
        char *a = glance_options_get(o, info.key), *b = glance_options_get(base, info.key);
        if (a && (!b || strcmp(a, b) != 0)) {
            base_buf_add(out, info.key, strlen(info.key) + 1);
            base_buf_add(out, a, strlen(a) + 1);
        }
        free(a);
        free(b);
    }
}

static int send_job(serve_workers *w, slot *s, const serve_job *job)
{
    double t0 = job->t0; /* the arrival: the worker gets what is left */
    char head[128];
    snprintf(head, sizeof head, "%d %d %d %d %.3f %.3f", (int)job->kind, job->url != NULL,
             job->charset != NULL, job->base != NULL, t0, w->budget_ms);
    base_buf diff = BASE_BUF_INIT;
    options_diff(w->base, job->opts, &diff);
    const char *u = job->url ? job->url : "", *c = job->charset ? job->charset : "",
               *b = job->base ? job->base : "";
    base_proc_field f[7] = {{head, strlen(head)}, {u, strlen(u)}, {job->body, job->body ? job->len : 0},
                          {job->snapshot ? "1" : "", job->snapshot ? 1u : 0u}, {c, strlen(c)}, {b, strlen(b)}, {diff.data, diff.len}};
    int r = diff.oom ? -1 : base_proc_send(s->fd, f, 7);
    base_buf_free(&diff);
    return r;
}

static int respawn(serve_workers *w, slot *s)
{
    if (isolate_spawn(w->z, &s->fd, &s->pid) != 0) {
        s->fd = -1;
        s->pid = 0;
        return -1;
    }
    return 0;
}

/* The worker of `s` is done with: killed (if it still runs) and reaped;
 * its wait status. */
static int end_worker(serve_workers *w, slot *s)
{
    int status = isolate_kill(w->z, s->pid);
    close(s->fd);
    s->fd = -1;
    s->pid = 0;
    return status;
}

/* One job on the worker of slot `s`: its answer into `a`. 1 when the
 * worker had to be ended (killed or gone). */
static int run_on_worker(serve_workers *w, slot *s, const serve_job *job, serve_answer *a)
{
    int reader = serve_for_people(job->kind);
    double deadline = job->t0 + w->budget_ms;
    if (s->fd < 0 && respawn(w, s) != 0) {
        serve_error_as(a, reader, 503, "busy", "no worker could be started", job->url);
        a->retry_after = 1;
        serve_metrics_refused(w->metrics, SERVE_REFUSED_NOWORKER);
        return 0;
    }
    char **f = NULL;
    size_t *l = NULL;
    int n = 0, r = -1;
    if (send_job(w, s, job) == 0)
        r = base_proc_recv(s->fd, deadline, &f, &l, &n);
    int code, retry, ct, started = 0;
    if (r == 1 && n == 2 && sscanf(f[0], "%d %d %d %d", &code, &retry, &ct, &started) >= 3) {
        if (started)
            __atomic_add_fetch(&w->browser_starts, 1, __ATOMIC_RELAXED);
        *a = (serve_answer){code, ct >= 0 && ct < N_CTYPES ? ctypes[ct] : "application/octet-stream",
                            l[1] ? f[1] : NULL, l[1], retry};
        if (l[1])
            f[1] = NULL; /* taken */
        base_proc_fields_free(f, l, n);
        return 0;
    }
    base_proc_fields_free(f, l, n);
    int status = end_worker(w, s);
    char msg[200];
    if (r == 0) {
        snprintf(msg, sizeof msg,
                 "page too costly: still being worked on at the time budget of %.0f ms (--budget); "
                 "its worker was stopped",
                 w->budget_ms);
        serve_error_as(a, reader, 504, glance_status_name(GLANCE_ECOSTLY), msg, job->url);
    } else {
        snprintf(msg, sizeof msg, "the page could not be finished: %s", isolate_why(status));
        serve_error_as(a, reader, 500, "internal", msg, job->url);
    }
    return 1;
}

/* Every regular worker busy (or missing): the spares may take jobs. Under
 * the lock. */
static int regulars_busy(const serve_workers *w)
{
    for (int i = 0; i < w->regular; i++)
        if (w->slots[i].since <= 0 && w->slots[i].fd >= 0)
            return 0;
    return 1;
}

/* The time a job takes on a worker, as now expected: the moving average
 * of those done, or the median time the jobs on the workers have been
 * running, when longer. Those have taken at least that long already: the
 * average, learnt before, is stale when the machine slows down under a
 * burst (the average of jobs done only follows after them). The median, so
 * that one costly page holding a worker until its budget does not make
 * every other job look as slow. Under the lock. */
static double service_now(serve_workers *w)
{
    double now = base_now_ms(), *run = w->running;
    int k = 0;
    for (int i = 0; i < w->n; i++)
        if (w->slots[i].since > 0) {
            double t = now - w->slots[i].since;
            int j = k++;
            for (; j > 0 && run[j - 1] > t; j--) /* kept sorted: a few workers */
                run[j] = run[j - 1];
            run[j] = t;
        }
    double median = k ? run[k / 2] : 0;
    return median > w->service_ms ? median : w->service_ms;
}

/* The next job in turn: the first client's oldest, that client then last
 * in turn if it has more. Under the lock; NULL when none waits. */
static item *take_next(serve_workers *w)
{
    client *c = w->first;
    if (!c)
        return NULL;
    item *it = c->head;
    c->head = it->next;
    if (!c->head)
        c->tail = NULL;
    c->n--;
    w->queued--;
    w->first = c->next;
    if (!w->first)
        w->last = NULL;
    c->next = NULL;
    if (c->n > 0) {
        if (w->last)
            w->last->next = c;
        else
            w->first = c;
        w->last = c;
    } else {
        free(c);
        w->clients--;
    }
    return it;
}

static void *dispatcher(void *arg)
{
    dispatch_arg *da = arg;
    serve_workers *w = da->w;
    int spare = da->i >= w->regular;
    slot *s = &w->slots[da->i];
    free(da);
    for (;;) {
        pthread_mutex_lock(&w->lock);
        while (!w->quit && !(w->first && (!spare || regulars_busy(w))))
            pthread_cond_wait(&w->cond, &w->lock);
        item *it = take_next(w);
        double taken = base_now_ms();
        /* At most half the budget: an estimate inflated by jobs killed at
         * the budget must not shed every job (none would run to bring it
         * down); one that waited less than half its budget always runs. */
        double estimate = service_now(w);
        if (estimate > w->budget_ms / 2)
            estimate = w->budget_ms / 2;
        if (it) {
            s->since = taken; /* busy from here, for the spares and /healthz */
            /* A regular worker busy now: a spare may be wanted. */
            pthread_cond_broadcast(&w->cond);
        }
        int draining = w->draining;
        pthread_mutex_unlock(&w->lock);
        if (!it)
            break;
        serve_metrics_queue_wait(w->metrics, (taken - it->queued_at) / 1000.0);
        serve_answer a;
        int ended = 0, ran = 0;
        if (draining) {
            serve_error_as(&a, serve_for_people(it->job->kind), 503, "busy",
                           "the server is shutting down", it->job->url);
            a.retry_after = 1;
            serve_metrics_refused(w->metrics, SERVE_REFUSED_STOPPING);
        } else if (taken >= it->job->t0 + w->budget_ms - estimate) {
            /* The estimate was wrong (slower pages, or clients that came
             * later were served in turn before it): less is left of its
             * budget than a job takes. Run, it would most likely hold a
             * worker until killed at the budget, for a 504. */
            serve_error_as(&a, serve_for_people(it->job->kind), 503, "busy",
                           "waited for a worker until too little of the time budget was left",
                           it->job->url);
            a.retry_after = 1;
            serve_metrics_refused(w->metrics, SERVE_REFUSED_WAITED);
            pthread_mutex_lock(&w->lock);
            w->time_refused = base_now_ms();
            pthread_mutex_unlock(&w->lock);
        } else {
            ended = run_on_worker(w, s, it->job, &a);
            ran = 1;
        }
        double took = base_now_ms() - taken;
        /* A worker grown past the bound is retired while idle, as one
         * killed is (isolate.h: ISOLATE_RETIRE_BYTES). */
        int retired = !ended && !draining && s->fd >= 0 &&
                      isolate_resident(s->pid) > ISOLATE_RETIRE_BYTES;
        if (retired)
            end_worker(w, s);
        pthread_mutex_lock(&w->lock);
        w->killed += ended;
        w->retired += retired;
        /* Every job a worker ran counts in the estimate, those killed at
         * the budget too: they held a worker that long. */
        if (ran)
            w->service_ms += SERVICE_ALPHA * (took - w->service_ms);
        pthread_mutex_unlock(&w->lock);
        /* Outside the lock: the callback may take locks of its own. The
         * answer first, then a fresh worker (the slot counts as busy until
         * it is forked). */
        it->done(it->cls, &a);
        free(it);
        int again = (ended || retired) && !draining && respawn(w, s) == 0;
        pthread_mutex_lock(&w->lock);
        w->respawned += again && ended;
        s->since = 0;
        pthread_mutex_unlock(&w->lock);
    }
    return NULL;
}

serve_workers *serve_workers_start(int regular, int spare, int queue, const glance_options *base,
                                   double budget_ms, size_t max_memory, serve_metrics *metrics)
{
    int n = regular + spare;
    serve_workers *w = calloc(1, sizeof *w);
    if (!w || !(w->threads = calloc((size_t)n, sizeof *w->threads)) ||
        !(w->slots = calloc((size_t)n, sizeof *w->slots)) ||
        !(w->running = calloc((size_t)n, sizeof *w->running))) {
        if (w) {
            free(w->threads);
            free(w->slots);
        }
        free(w);
        fprintf(stderr, "glance serve: out of memory\n");
        return NULL;
    }
    w->cap = queue;
    /* A quarter of the cap is kept for the other clients. */
    w->share = queue - queue / 4;
    w->service_ms = budget_ms / 4 < SERVICE_PRIOR_MS ? budget_ms / 4 : SERVICE_PRIOR_MS;
    w->metrics = metrics;
    w->regular = regular;
    w->base = base;
    w->budget_ms = budget_ms;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->nslots = n;
    for (int i = 0; i < n; i++)
        w->slots[i].fd = -1;
    /* The zygote first, while this process has no thread. */
    if (!(w->z = isolate_start(worker_main, w, max_memory))) {
        fprintf(stderr, "glance serve: cannot start the workers\n");
        serve_workers_stop(w);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        if (respawn(w, &w->slots[i]) != 0) {
            fprintf(stderr, "glance serve: cannot start the workers\n");
            serve_workers_stop(w);
            return NULL;
        }
    for (; w->n < n; w->n++) {
        dispatch_arg *da = malloc(sizeof *da);
        if (!da)
            break;
        *da = (dispatch_arg){w, w->n};
        if (pthread_create(&w->threads[w->n], NULL, dispatcher, da) != 0) {
            free(da);
            break;
        }
    }
    if (w->n < n) {
        fprintf(stderr, "glance serve: cannot start the workers\n");
        serve_workers_stop(w);
        return NULL;
    }
    return w;
}

/* The wait expected for a job of client `c` (NULL: one with none
 * waiting), in ms, with `service` the time of a job: 0 when a worker is
 * free for it now. Under the lock. */
static double expected_wait(const serve_workers *w, const client *c, double service)
{
    /* The jobs served before it, in turn: its client's own, and of each
     * other client as many as it has up to the round this one is served
     * in (one more round for the clients before its client in turn; a new
     * client joins last). */
    int mine = c ? c->n : 0, before = 1, ahead = mine;
    for (const client *d = w->first; d; d = d->next) {
        if (d == c) {
            before = 0;
            continue;
        }
        int upto = before ? mine + 1 : mine;
        ahead += d->n < upto ? d->n : upto;
    }
    int alive = 0, busy = 0;
    for (int i = 0; i < w->n; i++) {
        alive += w->slots[i].fd >= 0 || w->slots[i].since > 0;
        busy += w->slots[i].since > 0;
    }
    if (alive < 1)
        alive = 1;
    /* How many workers must come free before it is taken: with one free
     * and nothing ahead, none. */
    int turns = ahead + busy - alive + 1;
    return turns > 0 ? turns * service / alive : 0;
}

int serve_workers_submit(serve_workers *w, const serve_job *job, serve_done_fn done, void *cls,
                         serve_answer *refused)
{
    const char *key = job->client ? job->client : "";
    item *it = malloc(sizeof *it);
    client *fresh = malloc(sizeof *fresh);
    const char *why = NULL;
    serve_refusal reason = SERVE_REFUSED_CAP;
    double wait = 0;
    pthread_mutex_lock(&w->lock);
    double now = base_now_ms();
    client *c = w->first;
    while (c && strcmp(c->key, key) != 0)
        c = c->next;
    double service = service_now(w);
    wait = expected_wait(w, c, service);
    /* What is left of its budget (the body's upload has taken some). */
    double left = job->t0 + w->budget_ms - now;
    if (!it || !fresh) {
        why = "out of memory";
    } else if (w->quit || w->draining) {
        why = "the server is shutting down";
        reason = SERVE_REFUSED_STOPPING;
    } else if (w->queued >= w->cap) {
        why = "the queue is full: try again later";
    } else if (c && c->n >= w->share) {
        why = "this client has its whole share of the queue waiting: try again later";
        reason = SERVE_REFUSED_SHARE;
    } else if (wait > 0 && wait + service > ADMIT_HEADROOM * left) {
        /* A worker free now takes it whatever the estimate: one inflated
         * past the budget (by pages killed at it) would otherwise refuse
         * every job, and no job would run to bring it down. */
        why = "the expected wait for a worker would not leave time to finish within the budget: "
              "try again later";
        reason = SERVE_REFUSED_WAIT;
        w->time_refused = now;
    }
    if (why) {
        pthread_mutex_unlock(&w->lock);
        free(it);
        free(fresh);
        if (!it || !fresh) {
            serve_error_as(refused, serve_for_people(job->kind), 500, "nomem", why, job->url);
            return -1;
        }
        serve_error_as(refused, serve_for_people(job->kind), 503, "busy", why, job->url);
        /* When the jobs now ahead of it should be done: seconds, rounded
         * up. */
        refused->retry_after = wait > 1000 ? (int)((wait + 999) / 1000) : 1;
        serve_metrics_refused(w->metrics, reason);
        return -1;
    }
    *it = (item){job, done, cls, now, NULL};
    if (!c) {
        c = fresh;
        fresh = NULL;
        memset(c, 0, sizeof *c);
        snprintf(c->key, sizeof c->key, "%s", key);
        if (w->last)
            w->last->next = c;
        else
            w->first = c;
        w->last = c;
        w->clients++;
    }
    if (c->tail)
        c->tail->next = it;
    else
        c->head = it;
    c->tail = it;
    c->n++;
    w->queued++;
    pthread_cond_broadcast(&w->cond); /* a spare's dispatcher may not take it */
    pthread_mutex_unlock(&w->lock);
    free(fresh);
    return 0;
}

int serve_workers_count(const serve_workers *w)
{
    return w->regular;
}

int serve_workers_queued(serve_workers *w)
{
    pthread_mutex_lock(&w->lock);
    int n = w->queued;
    pthread_mutex_unlock(&w->lock);
    return n;
}

void serve_workers_stats(serve_workers *w, serve_worker_stats *st)
{
    double now = base_now_ms();
    memset(st, 0, sizeof *st);
    pthread_mutex_lock(&w->lock);
    st->workers = w->regular;
    st->spares = w->n - w->regular;
    st->queued = w->queued;
    st->queue_cap = w->cap;
    st->client_share = w->share;
    st->clients = w->clients;
    st->service_ms = service_now(w);
    st->since_time_refusal_ms = w->time_refused > 0 ? now - w->time_refused : -1;
    st->killed = w->killed;
    st->respawned = w->respawned;
    st->browser_starts = __atomic_load_n(&w->browser_starts, __ATOMIC_RELAXED);
    st->retired = w->retired;
    for (int i = 0; i < w->n; i++) {
        const slot *s = &w->slots[i];
        int spare = i >= w->regular;
        if (s->since > 0) {
            if (spare)
                st->spares_busy++;
            else
                st->busy++;
            if (now - s->since > w->budget_ms / 2)
                st->busy_long++;
        } else if (s->fd < 0) {
            st->down++;
        }
    }
    pthread_mutex_unlock(&w->lock);
}

void serve_workers_drain(serve_workers *w)
{
    pthread_mutex_lock(&w->lock);
    w->draining = 1;
    /* The jobs no worker took: 503 now, not when one is free. */
    item *head = NULL, **tail = &head;
    for (item *it; (it = take_next(w));) {
        *tail = it;
        tail = &it->next;
        it->next = NULL;
    }
    pthread_mutex_unlock(&w->lock);
    for (item *it = head, *next; it; it = next) {
        next = it->next;
        serve_answer a;
        serve_error_as(&a, serve_for_people(it->job->kind), 503, "busy", "the server is shutting down",
                       it->job->url);
        a.retry_after = 1;
        serve_metrics_refused(w->metrics, SERVE_REFUSED_STOPPING);
        it->done(it->cls, &a);
        free(it);
    }
}

void serve_workers_stop(serve_workers *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->quit = 1;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
    for (int i = 0; i < w->n; i++)
        pthread_join(w->threads[i], NULL);
    for (int i = 0; w->slots && i < w->nslots; i++)
        if (w->slots[i].fd >= 0)
            close(w->slots[i].fd);
    isolate_stop(w->z); /* kills the workers left */
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    free(w->threads);
    free(w->slots);
    free(w->running);
    free(w);
}
