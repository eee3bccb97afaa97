/* net/: what sheets.c needs of fetch.c. Internal to net/. */
#ifndef GLANCE_NET_FETCH_H
#define GLANCE_NET_FETCH_H

#include "net/net.h"

/* One of many transfers run together by net_fetch_many. */
typedef struct net_fetch_job {
    const char *url;    /* in */
    size_t limit;       /* in: bytes, decompressed */
    const char *accept; /* in: the Accept header */
    net_status status;  /* out */
    char why[256];      /* out, when status is not NET_OK */
    char *body;         /* out, malloc'd, NUL-terminated, when NET_OK */
    size_t len;
    char *charset;      /* out: of the Content-Type; malloc'd or NULL */
    double ms;
} net_fetch_job;

/* Runs the jobs in parallel through the session's multi handle, until all
 * are done or the session's deadline. NET_ENOMEM, else NET_OK (each job has
 * its own status). */
net_status net_fetch_many(net_session *s, net_fetch_job *jobs, int n);

/* Milliseconds left before the deadline; 0 when it has passed. */
long net_session_left_ms(const net_session *s);
const net_opts *net_session_opts(const net_session *s);

#endif
