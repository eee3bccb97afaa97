/* tools/: worker processes forked by a zygote (isolate.h). */
#define _GNU_SOURCE
#include "tools/isolate.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/proc.h"

struct isolate {
    int fd;        /* to the zygote: SOCK_SEQPACKET */
    pid_t pid;     /* the zygote */
    pthread_mutex_t lock;
};

typedef struct zreq {
    char op;       /* 'S' spawn, 'K' kill */
    pid_t pid;
} zreq;

typedef struct zans {
    pid_t pid;
    int status;    /* 'K': the wait status; 'S': 0, or -1 */
} zans;

/* ---- the zygote --------------------------------------------------------- */

static void worker(isolate_main_fn fn, void *arg, int fd)
{
    _exit(fn(arg, fd));
}

static void zygote(int zfd, isolate_main_fn fn, void *arg, size_t max_memory)
{
    pid_t *kids = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        zreq q;
        ssize_t r = recv(zfd, &q, sizeof q, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != (ssize_t)sizeof q)
            break;
        zans a = {0, 0};
        if (q.op == 'S') {
            int sv[2];
            a.status = -1;
            if (n == cap) {
                size_t c = cap ? 2 * cap : 16;
                pid_t *k = realloc(kids, c * sizeof *k);
                if (k) {
                    kids = k;
                    cap = c;
                }
            }
            if (n < cap && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0) {
                pid_t p = base_proc_fork(max_memory);
                if (p == 0) {
                    close(zfd);
                    close(sv[0]);
                    free(kids);
                    worker(fn, arg, sv[1]);
                }
                close(sv[1]);
                if (p > 0) {
                    kids[n++] = p;
                    a.pid = p;
                    a.status = 0;
                    char cbuf[CMSG_SPACE(sizeof(int))];
                    memset(cbuf, 0, sizeof cbuf);
                    struct iovec iov = {&a, sizeof a};
                    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
                                        .msg_controllen = sizeof cbuf};
                    struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
                    c->cmsg_level = SOL_SOCKET;
                    c->cmsg_type = SCM_RIGHTS;
                    c->cmsg_len = CMSG_LEN(sizeof(int));
                    memcpy(CMSG_DATA(c), &sv[0], sizeof(int));
                    sendmsg(zfd, &mh, MSG_NOSIGNAL);
                    close(sv[0]);
                    continue;
                }
                close(sv[0]);
            }
            send(zfd, &a, sizeof a, MSG_NOSIGNAL);
        } else if (q.op == 'K') {
            a.pid = q.pid;
            a.status = -1;
            for (size_t i = 0; i < n; i++)
                if (kids[i] == q.pid) { /* ours and not reaped: the pid is still its */
                    base_proc_kill(q.pid, &a.status);
                    kids[i] = kids[--n];
                    break;
                }
            send(zfd, &a, sizeof a, MSG_NOSIGNAL);
        }
    }
    for (size_t i = 0; i < n; i++)
        kill(kids[i], SIGKILL);
    for (size_t i = 0; i < n; i++)
        waitpid(kids[i], NULL, 0);
    _exit(0);
}

isolate *isolate_start(isolate_main_fn fn, void *arg, size_t max_memory)
{
    isolate *z = calloc(1, sizeof *z);
    int sv[2];
    if (!z || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        free(z);
        return NULL;
    }
    fflush(NULL); /* nothing buffered is written twice */
    pid_t p = base_proc_fork(0);
    if (p == 0) {
        close(sv[0]);
        zygote(sv[1], fn, arg, max_memory);
    }
    close(sv[1]);
    if (p < 0) {
        close(sv[0]);
        free(z);
        return NULL;
    }
    z->fd = sv[0];
    z->pid = p;
    pthread_mutex_init(&z->lock, NULL);
    return z;
}

int isolate_spawn(isolate *z, int *fd, pid_t *pid)
{
    zreq q = {'S', 0};
    zans a = {0, -1};
    char cbuf[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {&a, sizeof a};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
                        .msg_controllen = sizeof cbuf};
    pthread_mutex_lock(&z->lock);
    ssize_t r = -1;
    if (send(z->fd, &q, sizeof q, MSG_NOSIGNAL) == (ssize_t)sizeof q)
        while ((r = recvmsg(z->fd, &mh, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
            ;
    pthread_mutex_unlock(&z->lock);
    if (r != (ssize_t)sizeof a || a.status != 0)
        return -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
    if (!c || c->cmsg_type != SCM_RIGHTS)
        return -1;
    memcpy(fd, CMSG_DATA(c), sizeof(int));
    *pid = a.pid;
    return 0;
}

int isolate_kill(isolate *z, pid_t pid)
{
    zreq q = {'K', pid};
    zans a = {0, -1};
    pthread_mutex_lock(&z->lock);
    ssize_t r = -1;
    if (send(z->fd, &q, sizeof q, MSG_NOSIGNAL) == (ssize_t)sizeof q)
        while ((r = recv(z->fd, &a, sizeof a, 0)) < 0 && errno == EINTR)
            ;
    pthread_mutex_unlock(&z->lock);
    return r == (ssize_t)sizeof a ? a.status : -1;
}

void isolate_stop(isolate *z)
{
    if (!z)
        return;
    close(z->fd); /* the zygote kills what is left and leaves */
    while (waitpid(z->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    pthread_mutex_destroy(&z->lock);
    free(z);
}

int isolate_run(int (*fn)(void *arg), void *arg, size_t max_memory, double deadline_ms,
                int *status)
{
    fflush(NULL); /* nothing buffered is written twice */
    pid_t p = base_proc_fork(max_memory);
    if (p < 0)
        return -1;
    if (p == 0) {
        int code = fn(arg);
        fflush(NULL);
        _exit(code);
    }
    return base_proc_wait(p, deadline_ms, status);
}

size_t isolate_resident(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/statm", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned long size, resident;
    int got = fscanf(f, "%lu %lu", &size, &resident);
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return got == 2 && page > 0 ? (size_t)resident * (size_t)page : 0;
}

/* ---- a pool of workers for the threads of a command ----------------------- */

typedef struct pool_slot {
    int fd; /* -1: none yet, or killed */
    pid_t pid;
    int busy;
} pool_slot;

struct isolate_pool {
    isolate *z;
    pthread_mutex_t lock;
    pool_slot *slots;
    int n;
    size_t retire; /* resident bytes past which a worker is retired; 0: never */
};

isolate_pool *isolate_pool_start(isolate_main_fn fn, void *arg, size_t max_memory, int n)
{
    isolate_pool *p = calloc(1, sizeof *p);
    if (!p || n < 1 || !(p->slots = calloc((size_t)n, sizeof *p->slots)) ||
        !(p->z = isolate_start(fn, arg, max_memory))) {
        if (p)
            free(p->slots);
        free(p);
        return NULL;
    }
    p->n = n;
    p->retire = ISOLATE_RETIRE_BYTES;
    for (int i = 0; i < n; i++)
        p->slots[i].fd = -1;
    pthread_mutex_init(&p->lock, NULL);
    return p;
}

int isolate_pool_call(isolate_pool *p, const base_proc_field *q, int nq, double deadline_ms,
                      char ***fields, size_t **lens, int *n, int *status)
{
    *fields = NULL;
    *lens = NULL;
    *n = 0;
    *status = -1;
    pthread_mutex_lock(&p->lock);
    pool_slot *s = NULL;
    for (int i = 0; i < p->n && !s; i++)
        if (!p->slots[i].busy)
            s = &p->slots[i];
    if (s)
        s->busy = 1;
    pthread_mutex_unlock(&p->lock);
    if (!s)
        return -1; /* more calls at once than workers: the caller's error */
    int r = -1;
    if (s->fd >= 0 || isolate_spawn(p->z, &s->fd, &s->pid) == 0) {
        if (base_proc_send(s->fd, q, nq) == 0)
            r = base_proc_recv(s->fd, deadline_ms, fields, lens, n);
        if (r != 1) {
            *status = isolate_kill(p->z, s->pid);
            close(s->fd);
            s->fd = -1; /* a fresh worker next time */
        } else if (p->retire && isolate_resident(s->pid) > p->retire) {
            isolate_kill(p->z, s->pid); /* idle between calls: nothing is lost */
            close(s->fd);
            s->fd = -1;
        }
    } else {
        s->fd = -1;
    }
    pthread_mutex_lock(&p->lock);
    s->busy = 0;
    pthread_mutex_unlock(&p->lock);
    return r == 1 ? 1 : r == 0 ? 0 : -1;
}

void isolate_pool_retire_at(isolate_pool *p, size_t bytes)
{
    p->retire = bytes;
}

void isolate_pool_stop(isolate_pool *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n; i++)
        if (p->slots[i].fd >= 0)
            close(p->slots[i].fd);
    isolate_stop(p->z);
    pthread_mutex_destroy(&p->lock);
    free(p->slots);
    free(p);
}

/* ---- within a worker ---------------------------------------------------- */

/* jemalloc's control call, looked up at run time: the command links
 * jemalloc (tools/CMakeLists.txt), its sanitizer and fuzzing builds do not,
 * and then there is nothing to trim. */
typedef int (*mallctl_fn)(const char *, void *, size_t *, void *, size_t);

void isolate_trim(void)
{
    static mallctl_fn ctl;
    static int looked;
    if (!looked) {
        looked = 1;
        ctl = (mallctl_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mallctl");
    }
    if (!ctl)
        return;
    /* The statistics are a snapshot taken at each new epoch. */
    uint64_t epoch = 1;
    size_t sz = sizeof epoch;
    if (ctl("epoch", &epoch, &sz, &epoch, sz) != 0)
        return;
    size_t dirty = 0; /* pages, all arenas (4096: MALLCTL_ARENAS_ALL) */
    sz = sizeof dirty;
    if (ctl("stats.arenas.4096.pdirty", &dirty, &sz, NULL, 0) != 0)
        return;
    if (dirty * (size_t)sysconf(_SC_PAGESIZE) > ISOLATE_TRIM_BYTES)
        ctl("arena.4096.purge", NULL, NULL, NULL, 0);
}

void isolate_cpu_limit(double seconds)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_CPU, &rl) != 0)
        return;
    if (seconds <= 0) {
        rl.rlim_cur = rl.rlim_max;
    } else {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        double used = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec + 1;
        rlim_t want = (rlim_t)(used + seconds + 0.999);
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || want < rl.rlim_max ? want : rl.rlim_max;
    }
    setrlimit(RLIMIT_CPU, &rl);
}

const char *isolate_why(int status)
{
    if (status == -1)
        return "its worker ended";
    if (WIFSIGNALED(status)) {
        int s = WTERMSIG(status);
        if (s == SIGXCPU)
            return "its worker was stopped over the CPU limit";
        if (s == SIGABRT || s == SIGSEGV || s == SIGBUS)
            return "its worker crashed (over the memory limit, max_memory?)";
        return "its worker was killed";
    }
    return "its worker ended without an answer";
}
