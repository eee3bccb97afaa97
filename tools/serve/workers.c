/* tools/serve/: the queue and the workers.
 *
 * The workers are threads, each with its own glance_context (a context is
 * single-threaded), taking jobs in order from one bounded queue. A full
 * queue refuses at once (back-pressure: the client hears "later" instead of
 * waiting behind a queue that cannot drain). This file alone knows they are
 * threads: the interface in serve.h (submit, an answer back, the count,
 * stop) is what a pool of worker processes would offer too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "tools/serve/serve.h"

typedef struct item {
    const serve_job *job;
    serve_done_fn done;
    void *cls;
    struct item *next;
} item;

struct serve_workers {
    pthread_mutex_t lock;
    pthread_cond_t cond; /* a job queued, or quitting */
    item *head, *tail;
    int queued, cap;
    int quit;            /* leave once the queue is empty */
    int n;               /* threads started */
    pthread_t *threads;
};

static void *worker_main(void *arg)
{
    serve_workers *w = arg;
    glance_context *ctx = glance_context_new();
    for (;;) {
        pthread_mutex_lock(&w->lock);
        while (!w->head && !w->quit)
            pthread_cond_wait(&w->cond, &w->lock);
        item *it = w->head;
        if (it) {
            w->head = it->next;
            if (!w->head)
                w->tail = NULL;
            w->queued--;
        }
        pthread_mutex_unlock(&w->lock);
        if (!it)
            break;
        serve_answer a;
        if (ctx)
            serve_job_run(ctx, it->job, &a);
        else
            serve_error(&a, 500, "fonts", "cannot set up fonts");
        /* Outside the lock: the callback may take locks of its own. */
        it->done(it->cls, &a);
        free(it);
    }
    glance_context_free(ctx);
    return NULL;
}

serve_workers *serve_workers_start(int n, int queue)
{
    serve_workers *w = calloc(1, sizeof *w);
    if (!w || !(w->threads = calloc((size_t)n, sizeof *w->threads))) {
        free(w);
        fprintf(stderr, "glance serve: out of memory\n");
        return NULL;
    }
    w->cap = queue;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    /* One glance context per worker holds fonts; curl's process-wide set-up
     * is reference-counted by the contexts. */
    for (; w->n < n; w->n++)
        if (pthread_create(&w->threads[w->n], NULL, worker_main, w) != 0)
            break;
    if (w->n < n) {
        fprintf(stderr, "glance serve: cannot start the workers\n");
        serve_workers_stop(w);
        return NULL;
    }
    return w;
}

int serve_workers_submit(serve_workers *w, const serve_job *job, serve_done_fn done, void *cls)
{
    item *it = malloc(sizeof *it);
    if (!it)
        return -1;
    *it = (item){job, done, cls, NULL};
    pthread_mutex_lock(&w->lock);
    if (w->queued >= w->cap || w->quit) {
        pthread_mutex_unlock(&w->lock);
        free(it);
        return -1;
    }
    if (w->tail)
        w->tail->next = it;
    else
        w->head = it;
    w->tail = it;
    w->queued++;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
    return 0;
}

int serve_workers_count(const serve_workers *w)
{
    return w->n;
}

int serve_workers_queued(serve_workers *w)
{
    pthread_mutex_lock(&w->lock);
    int n = w->queued;
    pthread_mutex_unlock(&w->lock);
    return n;
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
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    free(w->threads);
    free(w);
}
