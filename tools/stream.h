/* tools/: a stream of pages through a bounded, ordered pipeline: one reader
 * thread makes items, `jobs` worker threads (each with a glance_context of
 * its own) work on them, and the calling thread writes them in the order
 * they were read. glance extract with many pages and glance batch run on it.
 *
 * At most `window` items exist at once (read and not yet written): the
 * reader waits while the window is full, so memory is bounded by the window
 * whatever the stream's length. An item slow to extract holds the window
 * (the writer waits for it, in order); the window is a few items per
 * worker, so the others keep working meanwhile. */
#ifndef GLANCE_TOOLS_STREAM_H
#define GLANCE_TOOLS_STREAM_H

#include <stddef.h>

#include "glance.h"

typedef struct stream_ops {
    /* Makes the next item in *item: 1; 0 at the end of the stream; -1 when
     * reading cannot go on (the items read before are still worked on and
     * written). Runs on the reader thread, which may be cancelled while in
     * it (only when the run is stopped: the caller frees no state it uses
     * then). */
    int (*read)(void *arg, void **item);
    /* Works on an item with the thread's own context. */
    void (*work)(void *arg, glance_context *gc, void *item);
    /* Writes an item, in the order they were read, and frees it: 0, or -1
     * to stop the run (the output is gone). Runs on the calling thread. */
    int (*write)(void *arg, void *item);
    /* Frees an item that will not be written (the run was stopped). */
    void (*drop)(void *arg, void *item);
} stream_ops;

typedef struct stream_result {
    size_t read, written;
    int read_error;    /* read gave -1 */
    int stopped;       /* write gave -1 */
    int reader_cancelled; /* the reader was cancelled inside read: its state
                             may be half-way (a stream to close, not to read) */
} stream_result;

/* Runs the stream: 0, or -1 when no worker could start (fonts, memory, a
 * thread). `window` items at most at once (0: 4 per worker). */
int stream_run(const stream_ops *ops, void *arg, int jobs, size_t window, stream_result *out);

#endif
