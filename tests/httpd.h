/* A small HTTP/1.1 server for the tests, on 127.0.0.1 and a port the
 * kernel picks: a fixed table of answers, a thread per connection, every
 * thread joined at httpd_stop (which also wakes answers still waiting out
 * their delay). It serves only the machine it runs on. */
#ifndef GLANCE_TESTS_HTTPD_H
#define GLANCE_TESTS_HTTPD_H

#include <stddef.h>

typedef struct httpd_route {
    const char *path;    /* the request target, exactly ("/a.css?x=1") */
    int status;          /* 0: 200 */
    const char *headers; /* more header lines, each ending in "\r\n" (Location,
                            Content-Type, ...); NULL: Content-Type text/html */
    const char *body;    /* NULL: empty */
    size_t len;          /* 0: strlen(body) */
    int delay_ms;        /* wait this long before answering: a slow server */
    int no_length;       /* 1: no Content-Length; the end of the body is the
                            closed connection */
    int gzip;            /* 1: the body is sent gzip-compressed (Content-Encoding)
                            when the request accepts gzip */
} httpd_route;

typedef struct httpd httpd;

/* The routes are borrowed: they must outlive the server. A path that no
 * route has gets 404. NULL when the server cannot start. */
httpd *httpd_start(const httpd_route *routes, int n);
/* The same on another IPv4 address of this machine (dotted quad). */
httpd *httpd_start_at(const char *ip, const httpd_route *routes, int n);
int httpd_port(const httpd *h);
/* Stops accepting, wakes waiting answers, joins every thread, frees. */
void httpd_stop(httpd *h);

/* Requests received for `path` so far. */
int httpd_hits(httpd *h, const char *path);
/* The head (request line and headers) of the last request for `path`,
 * malloc'd; NULL when there was none. */
char *httpd_last_request(httpd *h, const char *path);

#endif
