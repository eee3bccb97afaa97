/* tools/: a progress bar on a terminal, nothing when stderr is not one.
 * Thread-safe: workers call progress_step. */
#ifndef GLANCE_TOOLS_PROGRESS_H
#define GLANCE_TOOLS_PROGRESS_H

#include <pthread.h>
#include <stddef.h>

typedef struct progress {
    pthread_mutex_t lock;
    size_t done, total;
    double start_ms, last_ms;
    int tty;
    const char *label;
} progress;

void progress_init(progress *p, const char *label, size_t total);
void progress_step(progress *p, size_t n);
void progress_end(progress *p);


#endif
