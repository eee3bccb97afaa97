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

/* `total` 0: a stream of unknown length (the count and the rate are
 * drawn, not a bar). */
void progress_init(progress *p, const char *label, size_t total);
void progress_step(progress *p, size_t n);
/* A line for stderr (with its newline) that the bar must not overwrite:
 * on a terminal the bar is cleared, the line printed, the bar drawn again
 * below it; elsewhere the line alone. */
void progress_note(progress *p, const char *line);
void progress_end(progress *p);


#endif
