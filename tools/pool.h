/* tools/: pages processed on N threads, each thread with a glance_context
 * of its own, with a progress bar. */
#ifndef GLANCE_TOOLS_POOL_H
#define GLANCE_TOOLS_POOL_H

#include <stddef.h>

#include "glance.h"

/* Work on page i with the thread's context; 0, or -1 to stop the run. */
typedef int (*pool_page_fn)(void *ctx, glance_context *gc, size_t i);

/* Calls `page` for every i in [0, n) on `jobs` threads (pages taken in
 * order, one at a time). 0 when every page was done; -1 when no thread or
 * context could start (fonts, memory) or a page stopped the run. *wall_ms
 * (when not NULL) gets the wall time of the run. */
int pool_run(size_t n, int jobs, const char *label, pool_page_fn page, void *ctx, double *wall_ms);

#endif
