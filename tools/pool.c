/* tools/: the worker threads of glance bench and glance sweep. */
#include "tools/pool.h"

#include <pthread.h>
#include <stdlib.h>

#include "base/clock.h"
#include "tools/progress.h"

typedef struct pool {
    size_t n, next;
    pool_page_fn page;
    void *ctx;
    pthread_mutex_t lock;
    progress prog;
    int failed;
} pool;

static void stop(pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->failed = 1;
    pthread_mutex_unlock(&p->lock);
}

static void *worker(void *arg)
{
    pool *p = arg;
    glance_context *gc = glance_context_new();
    if (!gc) {
        stop(p);
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next++;
        int halt = p->failed;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n || halt)
            break;
        if (p->page(p->ctx, gc, i) != 0) {
            stop(p);
            break;
        }
        progress_step(&p->prog, 1);
    }
    glance_context_free(gc);
    return NULL;
}

int pool_run(size_t n, int jobs, const char *label, pool_page_fn page, void *ctx, double *wall_ms)
{
    pool p = {.n = n, .page = page, .ctx = ctx};
    pthread_t *threads = calloc((size_t)(jobs > 0 ? jobs : 1), sizeof *threads);
    if (!threads)
        return -1;
    pthread_mutex_init(&p.lock, NULL);
    progress_init(&p.prog, label, n);
    double t0 = base_now_ms();
    int started = 0;
    for (int j = 0; j < jobs; j++)
        started += pthread_create(&threads[started], NULL, worker, &p) == 0;
    for (int j = 0; j < started; j++)
        pthread_join(threads[j], NULL);
    if (wall_ms)
        *wall_ms = base_now_ms() - t0;
    progress_end(&p.prog);
    pthread_mutex_destroy(&p.lock);
    free(threads);
    return p.failed || started == 0 ? -1 : 0;
}
