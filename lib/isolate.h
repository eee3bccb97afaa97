/* lib/: the option "isolate": a call's extraction in a child process that
 * can be killed (base/proc.h), its result sent back over a socket and
 * rebuilt in the caller's process without the laid-out page. */
#ifndef GLANCE_LIB_ISOLATE_H
#define GLANCE_LIB_ISOLATE_H

#include <stddef.h>

#include "glance.h"

/* Which entry point the child runs, with its arguments. */
typedef enum isolate_kind {
    ISOLATE_BYTES, /* glance_extract */
    ISOLATE_PAGE,  /* glance_extract_page */
    ISOLATE_URL,   /* glance_extract_url */
    ISOLATE_FILE   /* glance_extract_file */
} isolate_kind;

typedef struct isolate_job {
    isolate_kind kind;
    const char *html;
    size_t len;
    const char *charset, *base_url; /* ISOLATE_PAGE */
    const char *where;              /* the URL or the path */
} isolate_job;

/* Runs `job` with options `o` (checked; their isolate is on) in a child
 * process of ctx's: RLIMIT_AS of the address space at the fork plus
 * max_memory, SIGKILLed and reaped at time_budget + 1 s (+ timeout unless
 * offline; no deadline when time_budget is 0). Fills `res` from the child's
 * answer: its status; GLANCE_ECOSTLY past the deadline, GLANCE_ENOMEM when
 * the child died without an answer or could not be forked, with a message
 * that says which. */
glance_status isolate_call(glance_context *ctx, const isolate_job *job, const glance_options *o,
                           glance_result *res);

#endif
