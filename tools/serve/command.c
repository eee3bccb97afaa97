/* tools/serve/: glance serve, the reader-mode backend over HTTP: its flags,
 * signals, start and stop.
 *
 * libmicrohttpd runs the sockets on one internal polling thread (epoll);
 * the work (fetch, layout, extraction, painting) runs on our workers
 * (workers.c). Every option of the library is a flag too: the server's
 * options are every request's defaults and the ceilings of the limits a
 * client's query may lower (routes.c).
 *
 * SIGTERM (or SIGINT): stop accepting, answer the requests still queued
 * 503, let those on a worker finish within their budget (the worker is
 * killed at it), send every answer, kill the workers, exit 0. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cairo.h>
#include <fontconfig/fontconfig.h>

#include "tools/cli.h"
#include "tools/options.h"
#include "tools/serve/serve.h"

static void usage(FILE *f)
{
    fputs("usage: glance serve [--listen HOST:PORT] [--workers N] [--spare N] [--queue N]\n"
          "                    [--budget S] [--allow-host IP:PORT ...] [library options]\n"
          "\n"
          "The reader-mode backend over HTTP:\n"
          "  GET  /read?url=U[&KEY=VALUE...]     a reader page: title, content, link to U\n"
          "  GET  /extract?url=U[&KEY=VALUE...]  the JSON of glance extract --format json\n"
          "  POST /extract[?base=U&KEY=VALUE...] the same for the page in the body (its\n"
          "                                      Content-Type's charset is honoured)\n"
          "  GET  /shot?url=U[&KEY=VALUE...]     the PNG of glance shot\n"
          "  GET  /debug?url=U[&KEY=VALUE...]    a page for a person: the shot, the scorer's\n"
          "  POST /debug[?base=U&KEY=VALUE...]   blocks with why, every method's answer, the\n"
          "                                      metadata and the timings\n"
          "  GET  /healthz, GET /metrics         health; Prometheus counters\n"
          "KEY=VALUE: any option of the library below by its key (method=bte,\n"
          "gce.alpha=2.5, window=1280x1024), on top of the server's: a limit may only\n"
          "be lowered, the operator's options (local files, the network policy, the\n"
          "identity sent) are refused, the window is at most 3840x2400; anything\n"
          "refused, an unknown parameter included, is 400 \"badoption\".\n"
          "Errors are JSON: 400 bad URL or option, 403 address refused, 405 method,\n"
          "413 too large, 422 no main content or not HTML, 502 upstream failed, 503\n"
          "busy (Retry-After), 504 upstream timed out or page over the budget.\n"
          "\n"
          "options:\n"
          "  --listen HOST:PORT  address to listen on (default 127.0.0.1:8080; port 0:\n"
          "                      any free one, printed on stdout)\n"
          "  --workers N         worker processes, one glance context each, each at most\n"
          "                      --max-memory of address space (default: cores)\n"
          "  --spare N           more worker processes that take requests only while every\n"
          "                      worker is busy: a normal page is answered at once while\n"
          "                      costly ones hold the workers until their budget (default 1)\n"
          "  --queue N           requests waiting for a worker at most, a bound on the\n"
          "                      memory their bodies hold; more get 503 (default: as many\n"
          "                      bodies of --max-page-bytes as an eighth of the memory\n"
          "                      holds, at most 2048). Below it a request waits only when\n"
          "                      the wait expected lets it finish within --budget, and\n"
          "                      the clients' addresses are served in turn\n"
          "  --budget S          a request's whole time from its arrival, the wait for a\n"
          "                      worker and the fetch included: waited out in the queue,\n"
          "                      503; still on a worker, 504 (the worker process is\n"
          "                      killed and a fresh one forked; default 30)\n"
          "  --allow-host IP:PORT  let this exact numeric address and port through the\n"
          "                      address policy (which refuses loopback, private and\n"
          "                      reserved addresses), checked on every connection;\n"
          "                      redirects and stylesheets elsewhere stay refused. For\n"
          "                      tests and an upstream of your own; repeatable\n"
          "  -h, --help          this help\n"
          "\n"
          "the library's options (--KEY VALUE, --KEY=VALUE, --set KEY=VALUE; a switch\n"
          "is --KEY or --no-KEY): every request's defaults, and the ceilings of the\n"
          "limits. The server's own defaults differ from those listed in three:\n"
          "public_only is always on; max_input_bytes (--max-page-bytes) is 8M, also\n"
          "the most a POSTed body may hold; timeout and time_budget are --budget,\n"
          "and whatever they are, a request gets no more than its budget has left.\n"
          "\n",
          f);
    cli_options_usage(f, "page");
    fputs("\nthe methods:\n", f);
    cli_options_usage(f, "methods");
    fputs("\nthe network:\n", f);
    cli_options_usage(f, "network");
    fputs("\nwhat a page may cost:\n", f);
    cli_options_usage(f, "limits");
    fputs("\nSIGTERM or SIGINT: stop accepting, answer the queued requests 503, let those\n"
          "being worked on finish within their budget, kill the workers, exit 0.\n",
          f);
}

/* "HOST:PORT" or "[V6]:PORT" into a socket address. */
static int parse_listen(const char *s, struct sockaddr_storage *sa, socklen_t *len, int *v6)
{
    char host[256];
    const char *colon = strrchr(s, ':');
    if (!colon || colon == s || (size_t)(colon - s) >= sizeof host)
        return -1;
    size_t hn = (size_t)(colon - s);
    memcpy(host, s, hn);
    host[hn] = '\0';
    if (host[0] == '[' && hn > 2 && host[hn - 1] == ']') {
        memmove(host, host + 1, hn - 2);
        host[hn - 2] = '\0';
    }
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || end == colon + 1 || port < 0 || port > 65535)
        return -1;
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV, .ai_socktype = SOCK_STREAM};
    struct addrinfo *ai = NULL;
    if (getaddrinfo(host, colon + 1, &hints, &ai) != 0 || !ai)
        return -1;
    memcpy(sa, ai->ai_addr, ai->ai_addrlen);
    *len = ai->ai_addrlen;
    *v6 = ai->ai_family == AF_INET6;
    freeaddrinfo(ai);
    return 0;
}

/* Adds "IP:PORT" to a comma-separated allow-list (malloc'd) in the form the
 * connection check compares (inet_ntop's; IPv6 in brackets). 0, or -1 for
 * a bad value. */
static int add_allowed(char **list, const char *v)
{
    struct sockaddr_storage sa;
    socklen_t len;
    int v6;
    char ip[INET6_ADDRSTRLEN], one[INET6_ADDRSTRLEN + 10];
    if (parse_listen(v, &sa, &len, &v6) != 0)
        return -1;
    unsigned port;
    if (v6) {
        const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)&sa;
        inet_ntop(AF_INET6, &s->sin6_addr, ip, sizeof ip);
        port = ntohs(s->sin6_port);
        snprintf(one, sizeof one, "[%s]:%u", ip, port);
    } else {
        const struct sockaddr_in *s = (const struct sockaddr_in *)&sa;
        inet_ntop(AF_INET, &s->sin_addr, ip, sizeof ip);
        port = ntohs(s->sin_port);
        snprintf(one, sizeof one, "%s:%u", ip, port);
    }
    if (port == 0)
        return -1;
    size_t old = *list ? strlen(*list) : 0;
    char *n = realloc(*list, old + strlen(one) + 2);
    if (!n)
        return -1;
    if (old)
        n[old++] = ',';
    strcpy(n + old, one);
    *list = n;
    return 0;
}

/* Sets option `key` to the most its range allows. */
static int set_to_max(glance_options *o, const char *key)
{
    for (int i = 0; i < glance_option_count(); i++) {
        glance_option_info info;
        info.size = sizeof info;
        if (glance_option_describe(i, &info) != GLANCE_OK)
            break;
        if (strcmp(info.key, key) == 0) {
            char v[64];
            snprintf(v, sizeof v, "%.17g", info.max);
            return glance_options_set(o, key, v) == GLANCE_OK ? 0 : -1;
        }
    }
    return -1;
}

/* The server's defaults, before the flags change them: the address policy
 * on, pages of 8 MiB at most, and no bound on the fetch and the layout but
 * the request's budget (the most here, lowered to --budget after the
 * flags). */
static int server_defaults(glance_options *o)
{
    if (glance_options_set(o, "public_only", "on") != GLANCE_OK ||
        glance_options_set(o, "max_input_bytes", "8M") != GLANCE_OK)
        return -1;
    return set_to_max(o, "timeout") || set_to_max(o, "time_budget") ? -1 : 0;
}

/* The value of serve's own flag `name` at argv[*i] ("--name V" or
 * "--name=V"); NULL when argv[*i] is another flag, or when it is this one
 * without a value (*missing set). */
static const char *flag_value(const char *name, int argc, char **argv, int *i, int *missing)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

typedef struct settings {
    const char *listen_at;
    int workers, spare, queue; /* queue -1: default_queue */
    double budget_s;
    char *allow;        /* --allow-host's, joined */
} settings;

/* One of serve's own flags: 1 taken, 0 not one of them, -1 bad (said). */
static int own_flag(settings *s, int argc, char **argv, int *i)
{
    static const char *const names[] = {"--listen", "--workers", "--queue", "--budget", "--allow-host",
                                        "--spare"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        int missing = 0;
        const char *v = flag_value(names[k], argc, argv, i, &missing);
        if (missing) {
            fprintf(stderr, "glance serve: %s needs a value\n", names[k]);
            return -1;
        }
        if (!v)
            continue;
        double d = 0;
        int bad = 0;
        if (k == 0)
            s->listen_at = v;
        else if (k == 4)
            bad = add_allowed(&s->allow, v) != 0;
        else if (cli_parse_double(v, &d) != 0)
            bad = 1;
        else if (k == 1 && !(bad = d < 1 || d > 256 || d != floor(d)))
            s->workers = (int)d;
        else if (k == 2 && !(bad = d < 0 || d > 100000 || d != floor(d)))
            s->queue = (int)d;
        else if (k == 3 && !(bad = d <= 0 || d > 3600))
            s->budget_s = d;
        else if (k == 5 && !(bad = d < 0 || d > 256 || d != floor(d)))
            s->spare = (int)d;
        if (bad) {
            fprintf(stderr, "glance serve: bad value for %s: '%s'\n", names[k], v);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* The server's options after the flags: the address policy still on, the
 * allowed hosts added, the time limits within the budget, the window
 * within the server's bounds. 0, or -1 (said). */
static int finish_options(server *srv, settings *s)
{
    glance_options *o = srv->opts;
    char *v = glance_options_get(o, "public_only");
    int off = v && strcmp(v, "off") == 0;
    free(v);
    if (off) {
        fprintf(stderr, "glance serve: the address policy (public_only) is always on\n");
        return -1;
    }
    if (s->allow) {
        char *given = glance_options_get(o, "allow_addrs"), *all = NULL;
        if (given && given[0] && asprintf(&all, "%s,%s", given, s->allow) < 0)
            all = NULL;
        glance_status st = glance_options_set(o, "allow_addrs", all ? all : s->allow);
        free(given);
        free(all);
        if (st != GLANCE_OK) {
            fprintf(stderr, "glance serve: %s\n", glance_options_error(o));
            return -1;
        }
    }
    char ms[32];
    snprintf(ms, sizeof ms, "%ldms", (long)(s->budget_s * 1000));
    /* Lowered to the budget unless lower already (restrict refuses then). */
    (void)glance_options_restrict(o, "timeout", ms);
    (void)glance_options_restrict(o, "connect_timeout", ms);
    (void)glance_options_restrict(o, "time_budget", ms);
    char *window = glance_options_get(o, "window"), why[160];
    int bad = serve_check_window(window, why, sizeof why);
    free(window);
    if (bad) {
        fprintf(stderr, "glance serve: %s\n", why);
        return -1;
    }
    char *bytes = glance_options_get(o, "max_input_bytes");
    srv->max_body = bytes ? (size_t)strtoull(bytes, NULL, 10) : 0;
    free(bytes);
    srv->budget_ms = s->budget_s * 1000;
    return srv->max_body ? 0 : -1;
}

/* The default cap on requests waiting for a worker. Each holds its body,
 * up to max_input_bytes, in the server until a worker takes it: the cap is
 * as many of the largest as an eighth of the machine's memory holds (the
 * rest for the workers, each up to --max-memory, and everything else).
 * Which requests wait below the cap is the budget's rule (workers.c); the
 * cap only bounds the memory. At most 2048: each waiting request holds
 * one of libmicrohttpd's 4096 connections, and /healthz needs one too. */
static int default_queue(size_t max_body)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    /* Unknown memory: 512 MiB for them. */
    double allowance = pages > 0 && page > 0 ? (double)pages * (double)page / 8 : 512.0 * 1048576;
    double n = max_body ? allowance / (double)max_body : 2048;
    return n < 1 ? 1 : n > 2048 ? 2048 : (int)n;
}

/* Waits for SIGTERM or SIGINT, then stops accepting and waits until every
 * request taken is answered (or its budget and 10 s more passed). The
 * number still unanswered. */
static int wait_and_drain(server *srv, sigset_t *sigs)
{
    int sig = 0;
    while (sigwait(sigs, &sig) != 0)
        ;
    fprintf(stderr, "glance serve: signal %d: finishing the requests taken\n", sig);
    pthread_mutex_lock(&srv->lock);
    srv->stopping = 1;
    pthread_mutex_unlock(&srv->lock);
    MHD_socket ls = MHD_quiesce_daemon(srv->d);
    if (ls != MHD_INVALID_SOCKET)
        close(ls);
    /* Requests not yet on a worker are answered 503 now; a worker is
     * killed at its request's budget: every answer is out within the
     * budget. in_flight falls as each is sent (serve_completed). */
    serve_workers_drain(srv->workers);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)(srv->budget_ms / 1000) + 2;
    pthread_mutex_lock(&srv->lock);
    while (srv->in_flight > 0)
        if (pthread_cond_timedwait(&srv->idle, &srv->lock, &until) == ETIMEDOUT)
            break;
    int left = srv->in_flight;
    pthread_mutex_unlock(&srv->lock);
    return left;
}

int cmd_serve(int argc, char **argv)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    settings s = {"127.0.0.1:8080", ncpu > 0 ? (int)ncpu : 2, 1, -1, 30, NULL};
    server srv;
    memset(&srv, 0, sizeof srv);
    int code = EXIT_USAGE;
    srv.opts = glance_options_new();
    if (!srv.opts || server_defaults(srv.opts) != 0) {
        fprintf(stderr, "glance serve: out of memory\n");
        code = EXIT_INTERNAL;
        goto out;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_version(a)) {
            code = cli_version();
            goto out;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            code = 0;
            goto out;
        }
        int r = own_flag(&s, argc, argv, &i);
        if (r == 0)
            r = cli_option("serve", srv.opts, argc, argv, &i);
        if (r < 0)
            goto out;
        if (r == 0) {
            cli_bad_flag("serve", a);
            goto out;
        }
    }
    if (finish_options(&srv, &s) != 0)
        goto out;
    if (s.queue < 0)
        s.queue = default_queue(srv.max_body);
    struct sockaddr_storage sa;
    socklen_t salen;
    int v6 = 0;
    if (parse_listen(s.listen_at, &sa, &salen, &v6) != 0) {
        fprintf(stderr, "glance serve: bad --listen '%s' (HOST:PORT, a numeric address)\n", s.listen_at);
        goto out;
    }

    /* Signals are taken by sigwait, on this thread only: block them before
     * any thread starts, so every thread inherits the mask. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    code = EXIT_INTERNAL;
    pthread_mutex_init(&srv.lock, NULL);
    pthread_cond_init(&srv.idle, NULL);
    char *mem = glance_options_get(srv.opts, "max_memory");
    size_t max_memory = mem ? (size_t)strtoull(mem, NULL, 10) : 0;
    free(mem);
    /* engine chromium or auto: is there a browser that starts? Asked once,
     * here, before any thread (each worker then starts its own); /healthz
     * says when not. */
    char *engine = glance_options_get(srv.opts, "engine");
    srv.browser_needed = !engine ? 0 : strcmp(engine, "chromium") == 0 ? 1 : strcmp(engine, "auto") == 0 ? 2 : 0;
    free(engine);
    if (srv.browser_needed) {
        glance_context *probe = glance_context_new();
        char why[320] = "cannot set up a context";
        if (!probe || glance_browser_version(probe, srv.opts, why, sizeof why) != GLANCE_OK) {
            snprintf(srv.browser_problem, sizeof srv.browser_problem, "%s", why);
            fprintf(stderr, "glance serve: warning: the browser cannot start: %s\n", why);
        }
        glance_context_free(probe);
    }
    /* The workers' zygote is forked here, before libmicrohttpd's thread
     * and the dispatchers start. */
    if (!(srv.metrics = serve_metrics_new()) ||
        !(srv.workers = serve_workers_start(s.workers, s.spare, s.queue, srv.opts, srv.budget_ms,
                                            max_memory, srv.metrics)))
        goto stop;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ITC | (v6 ? MHD_USE_IPv6 : 0);
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, 0, NULL, NULL, serve_request, &srv, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
        MHD_OPTION_NOTIFY_COMPLETED, serve_completed, &srv, MHD_OPTION_CONNECTION_LIMIT, (unsigned)4096,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)(srv.budget_ms / 1000 + 30),
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)65536, MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "glance serve: cannot listen on %s: %s\n", s.listen_at, strerror(errno));
        goto stop;
    }
    srv.d = d;
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    printf("glance serve: listening on http://%.*s:%u (%d workers, %d spare, queue %d)\n",
           (int)(strrchr(s.listen_at, ':') - s.listen_at), s.listen_at, info ? info->port : 0,
           serve_workers_count(srv.workers), s.spare, s.queue);
    fflush(stdout);

    int left = wait_and_drain(&srv, &sigs);
    if (left) {
        /* Workers still hold suspended connections: libmicrohttpd cannot be
         * stopped under them. Leave; the kernel closes the sockets. */
        fprintf(stderr, "glance serve: %d requests still unanswered at the deadline\n", left);
        free(s.allow);
        return EXIT_INTERNAL;
    }
    MHD_stop_daemon(d);
    code = 0;
stop:
    serve_workers_stop(srv.workers);
    serve_metrics_free(srv.metrics);
    /* cairo's process-wide font caches (filled by /shot) and their
     * fontconfig patterns, handed back for a clean exit as glance shot
     * does; no worker paints any more. */
    cairo_debug_reset_static_data();
    FcFini();
    fprintf(stderr, "glance serve: stopped\n");
out:
    glance_options_free(srv.opts);
    free(s.allow);
    return code;
}
