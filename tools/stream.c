/* tools/: the stream's reader, workers and writer around one ring of
 * `window` slots, under one lock. Item k lives in slot k % window from the
 * moment it is read until it is written; the reader may read item k only
 * once item k - window is written. */
#include "tools/stream.h"

#include <pthread.h>
#include <stdlib.h>

enum { SLOT_FREE, SLOT_READ, SLOT_WORKING, SLOT_DONE };

typedef struct slot {
    void *item;
    int state;
} slot;

typedef struct stream {
    const stream_ops *ops;
    void *arg;
    slot *ring;
    size_t window;
    size_t n_read, n_claimed, n_written;
    int read_end, read_error, stop, in_read;
    pthread_mutex_t lock;
    pthread_cond_t changed;
} stream;

typedef struct worker_arg {
    stream *s;
    glance_context *gc;
} worker_arg;

static void *reader(void *arg)
{
    stream *s = arg;
    int old;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    for (;;) {
        pthread_mutex_lock(&s->lock);
        while (!s->stop && s->n_read - s->n_written >= s->window)
            pthread_cond_wait(&s->changed, &s->lock);
        if (s->stop) {
            s->read_end = 1;
            pthread_cond_broadcast(&s->changed);
            pthread_mutex_unlock(&s->lock);
            return NULL;
        }
        s->in_read = 1;
        pthread_mutex_unlock(&s->lock);

        /* Reading blocks on the input (a pipe that may never close); the
         * run's stop cancels it there, and only there. */
        void *item = NULL;
        pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
        int r = s->ops->read(s->arg, &item);
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);

        pthread_mutex_lock(&s->lock);
        s->in_read = 0;
        if (r == 1 && !s->stop) {
            slot *sl = &s->ring[s->n_read % s->window];
            sl->item = item;
            sl->state = SLOT_READ;
            s->n_read++;
        } else {
            if (r == 1)
                s->ops->drop(s->arg, item);
            s->read_end = 1;
            s->read_error = r < 0;
        }
        pthread_cond_broadcast(&s->changed);
        int end = s->read_end;
        pthread_mutex_unlock(&s->lock);
        if (end)
            return NULL;
    }
}

static void *worker(void *arg)
{
    worker_arg *w = arg;
    stream *s = w->s;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->stop && s->n_claimed == s->n_read && !s->read_end)
            pthread_cond_wait(&s->changed, &s->lock);
        if (s->stop || s->n_claimed == s->n_read)
            break;
        slot *sl = &s->ring[s->n_claimed % s->window];
        s->n_claimed++;
        sl->state = SLOT_WORKING;
        pthread_mutex_unlock(&s->lock);
        s->ops->work(s->arg, w->gc, sl->item);
        pthread_mutex_lock(&s->lock);
        sl->state = SLOT_DONE;
        pthread_cond_broadcast(&s->changed);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* The calling thread: items in order as they are done. */
static void writer(stream *s)
{
    pthread_mutex_lock(&s->lock);
    for (;;) {
        slot *sl = &s->ring[s->n_written % s->window];
        while (!(s->n_written < s->n_read && sl->state == SLOT_DONE) &&
               !(s->read_end && s->n_written == s->n_read))
            pthread_cond_wait(&s->changed, &s->lock);
        if (s->n_written == s->n_read)
            break; /* read_end: all written */
        void *item = sl->item;
        pthread_mutex_unlock(&s->lock);
        int rc = s->ops->write(s->arg, item);
        pthread_mutex_lock(&s->lock);
        sl->item = NULL;
        sl->state = SLOT_FREE;
        s->n_written++;
        if (rc != 0)
            s->stop = 1;
        pthread_cond_broadcast(&s->changed);
        if (s->stop)
            break;
    }
    pthread_mutex_unlock(&s->lock);
}

int stream_run(const stream_ops *ops, void *arg, int jobs, size_t window, stream_result *out)
{
    *out = (stream_result){0};
    if (jobs < 1)
        jobs = 1;
    if (window == 0)
        window = 4 * (size_t)jobs;
    if (window < (size_t)jobs)
        window = (size_t)jobs;
    stream s = {.ops = ops, .arg = arg, .window = window};
    worker_arg *ws = calloc((size_t)jobs, sizeof *ws);
    pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
    s.ring = calloc(window, sizeof *s.ring);
    int started = 0, rc = -1;
    if (!ws || !threads || !s.ring)
        goto out;
    /* Every context before any thread: a machine without fonts fails here,
     * before a single record is read. */
    for (int j = 0; j < jobs; j++)
        if (!(ws[j].gc = glance_context_new()))
            goto out;
    pthread_mutex_init(&s.lock, NULL);
    pthread_cond_init(&s.changed, NULL);
    for (int j = 0; j < jobs; j++) {
        ws[j].s = &s;
        if (pthread_create(&threads[started], NULL, worker, &ws[j]) == 0)
            started++;
    }
    pthread_t rd;
    if (started == 0 || pthread_create(&rd, NULL, reader, &s) != 0) {
        pthread_mutex_lock(&s.lock);
        s.stop = s.read_end = 1;
        pthread_cond_broadcast(&s.changed);
        pthread_mutex_unlock(&s.lock);
        for (int j = 0; j < started; j++)
            pthread_join(threads[j], NULL);
        pthread_cond_destroy(&s.changed);
        pthread_mutex_destroy(&s.lock);
        goto out;
    }
    writer(&s);

    pthread_mutex_lock(&s.lock);
    if (s.stop && s.in_read) {
        pthread_cancel(rd);
        out->reader_cancelled = 1;
    }
    pthread_mutex_unlock(&s.lock);
    pthread_join(rd, NULL);
    for (int j = 0; j < started; j++)
        pthread_join(threads[j], NULL);
    /* Stopped: what was read and not written is dropped. */
    for (size_t k = s.n_written; k < s.n_read; k++)
        ops->drop(arg, s.ring[k % window].item);
    out->read = s.n_read;
    out->written = s.n_written;
    out->read_error = s.read_error;
    out->stopped = s.stop;
    pthread_cond_destroy(&s.changed);
    pthread_mutex_destroy(&s.lock);
    rc = 0;
out:
    for (int j = 0; ws && j < jobs; j++)
        glance_context_free(ws[j].gc);
    free(ws);
    free(threads);
    free(s.ring);
    return rc;
}
