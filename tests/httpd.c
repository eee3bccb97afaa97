/* The tests' HTTP server (httpd.h). */
#define _GNU_SOURCE
#include "httpd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#define MAX_CONN 256
#define MAX_SEEN 64

typedef struct seen {
    char *path, *head;
    int hits;
} seen;

struct httpd {
    const httpd_route *routes;
    int n_routes;
    int listen_fd;
    int stop_pipe[2]; /* written once at stop; never read, so it stays readable */
    int port;
    pthread_t acceptor;
    pthread_mutex_t lock;
    pthread_t conns[MAX_CONN];
    int n_conns;
    seen seen[MAX_SEEN];
    int n_seen;
};

typedef struct conn {
    httpd *h;
    int fd;
} conn;

/* Waits up to `ms` (-1: for ever) for `fd` to be ready for `events`: 1
 * ready, 0 timed out or the server is stopping. With fd -1 it is a delay
 * that the stop cuts short: 1 when the whole delay passed. */
static int wait_fd(httpd *h, int fd, short events, int ms)
{
    struct pollfd p[2] = {{h->stop_pipe[0], POLLIN, 0}, {fd, events, 0}};
    int r;
    do
        r = poll(p, fd >= 0 ? 2 : 1, ms);
    while (r < 0 && errno == EINTR);
    if (r < 0 || p[0].revents)
        return 0;
    if (fd < 0)
        return r == 0;
    return r > 0 && p[1].revents != 0;
}

static int send_all(httpd *h, int fd, const char *b, size_t n)
{
    while (n > 0) {
        if (!wait_fd(h, fd, POLLOUT, 5000))
            return -1;
        ssize_t k = send(fd, b, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1; /* the client went away (a limit, a timeout): fine */
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

static char *gzip_body(const char *b, size_t n, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t cap = deflateBound(&z, n) + 32;
    char *o = malloc(cap);
    if (!o) {
        deflateEnd(&z);
        return NULL;
    }
    z.next_in = (Bytef *)b;
    z.avail_in = (uInt)n;
    z.next_out = (Bytef *)o;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    *out_len = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(o);
        return NULL;
    }
    return o;
}

static void note(httpd *h, const char *path, const char *head)
{
    pthread_mutex_lock(&h->lock);
    int i;
    for (i = 0; i < h->n_seen; i++)
        if (strcmp(h->seen[i].path, path) == 0)
            break;
    if (i == h->n_seen && h->n_seen < MAX_SEEN) {
        h->seen[i].path = strdup(path);
        h->seen[i].head = NULL;
        h->seen[i].hits = 0;
        h->n_seen++;
    }
    if (i < h->n_seen) {
        h->seen[i].hits++;
        free(h->seen[i].head);
        h->seen[i].head = strdup(head);
    }
    pthread_mutex_unlock(&h->lock);
}

static void *serve(void *arg)
{
    conn c = *(conn *)arg;
    free(arg);
    httpd *h = c.h;
    char head[8192];
    size_t n = 0;
    head[0] = '\0';
    while (n + 1 < sizeof head && !strstr(head, "\r\n\r\n")) {
        if (!wait_fd(h, c.fd, POLLIN, 5000))
            goto done;
        ssize_t k = recv(c.fd, head + n, sizeof head - 1 - n, 0);
        if (k <= 0)
            goto done;
        n += (size_t)k;
        head[n] = '\0';
    }
    char *eoh = strstr(head, "\r\n\r\n");
    if (eoh)
        *eoh = '\0';
    char method[16], path[2048];
    if (sscanf(head, "%15s %2047s", method, path) != 2)
        goto done;
    note(h, path, head);
    const httpd_route *r = NULL;
    for (int i = 0; i < h->n_routes; i++)
        if (strcmp(h->routes[i].path, path) == 0) {
            r = &h->routes[i];
            break;
        }
    if (!r) {
        static const char nf[] = "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n"
                                 "Content-Length: 10\r\nConnection: close\r\n\r\nnot found\n";
        send_all(h, c.fd, nf, sizeof nf - 1);
        goto done;
    }
    if (r->delay_ms > 0 && !wait_fd(h, -1, 0, r->delay_ms))
        goto done; /* stopping */
    const char *body = r->body ? r->body : "";
    size_t len = r->len ? r->len : strlen(body);
    char *packed = NULL;
    /* Accept-Encoding: ... gzip ... (a loose look is enough here) */
    const char *ae = strcasestr(head, "\r\nAccept-Encoding:");
    int gz = r->gzip && ae && strstr(ae, "gzip") && strstr(ae, "gzip") < ae + 200;
    if (gz) {
        size_t plen;
        if (!(packed = gzip_body(body, len, &plen)))
            goto done;
        body = packed;
        len = plen;
    }
    char out[4096];
    int k = snprintf(out, sizeof out, "HTTP/1.1 %d %s\r\n%s%s", r->status ? r->status : 200,
                     (r->status ? r->status : 200) < 300 ? "OK" : "Other",
                     r->headers ? r->headers : "Content-Type: text/html\r\n",
                     gz ? "Content-Encoding: gzip\r\n" : "");
    if (!r->no_length)
        k += snprintf(out + k, sizeof out - (size_t)k, "Content-Length: %zu\r\n", len);
    k += snprintf(out + k, sizeof out - (size_t)k, "Connection: close\r\n\r\n");
    if (send_all(h, c.fd, out, (size_t)k) == 0)
        send_all(h, c.fd, body, len);
    free(packed);
done:
    close(c.fd);
    return NULL;
}

static void *accept_loop(void *arg)
{
    httpd *h = arg;
    for (;;) {
        if (!wait_fd(h, h->listen_fd, POLLIN, -1))
            break;
        int fd = accept4(h->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        conn *c = malloc(sizeof *c);
        pthread_mutex_lock(&h->lock);
        int room = h->n_conns < MAX_CONN;
        if (c && room) {
            c->h = h;
            c->fd = fd;
            if (pthread_create(&h->conns[h->n_conns], NULL, serve, c) == 0) {
                h->n_conns++;
                c = NULL;
                fd = -1;
            }
        }
        pthread_mutex_unlock(&h->lock);
        free(c);
        if (fd >= 0)
            close(fd);
    }
    return NULL;
}

httpd *httpd_start(const httpd_route *routes, int n)
{
    return httpd_start_at("127.0.0.1", routes, n);
}

httpd *httpd_start_at(const char *ip, const httpd_route *routes, int n)
{
    httpd *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->routes = routes;
    h->n_routes = n;
    pthread_mutex_init(&h->lock, NULL);
    h->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = 0; /* the kernel picks a free port */
    socklen_t alen = sizeof a;
    if (h->listen_fd < 0 || inet_pton(AF_INET, ip, &a.sin_addr) != 1 || bind(h->listen_fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(h->listen_fd, 64) != 0 || getsockname(h->listen_fd, (struct sockaddr *)&a, &alen) != 0 ||
        pipe2(h->stop_pipe, O_CLOEXEC) != 0) {
        if (h->listen_fd >= 0)
            close(h->listen_fd);
        free(h);
        return NULL;
    }
    h->port = ntohs(a.sin_port);
    if (pthread_create(&h->acceptor, NULL, accept_loop, h) != 0) {
        close(h->listen_fd);
        close(h->stop_pipe[0]);
        close(h->stop_pipe[1]);
        free(h);
        return NULL;
    }
    return h;
}

int httpd_port(const httpd *h)
{
    return h->port;
}

void httpd_stop(httpd *h)
{
    if (!h)
        return;
    if (write(h->stop_pipe[1], "x", 1) != 1)
        perror("httpd_stop");
    pthread_join(h->acceptor, NULL);
    close(h->listen_fd);
    /* No new connection threads now: join them all. */
    for (int i = 0; i < h->n_conns; i++)
        pthread_join(h->conns[i], NULL);
    close(h->stop_pipe[0]);
    close(h->stop_pipe[1]);
    for (int i = 0; i < h->n_seen; i++) {
        free(h->seen[i].path);
        free(h->seen[i].head);
    }
    pthread_mutex_destroy(&h->lock);
    free(h);
}

int httpd_hits(httpd *h, const char *path)
{
    int hits = 0;
    pthread_mutex_lock(&h->lock);
    for (int i = 0; i < h->n_seen; i++)
        if (strcmp(h->seen[i].path, path) == 0)
            hits = h->seen[i].hits;
    pthread_mutex_unlock(&h->lock);
    return hits;
}

char *httpd_last_request(httpd *h, const char *path)
{
    char *head = NULL;
    pthread_mutex_lock(&h->lock);
    for (int i = 0; i < h->n_seen; i++)
        if (strcmp(h->seen[i].path, path) == 0 && h->seen[i].head)
            head = strdup(h->seen[i].head);
    pthread_mutex_unlock(&h->lock);
    return head;
}
