/* base/: child processes that can be killed (proc.h). */
#define _GNU_SOURCE
#include "base/proc.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"

#if defined(__SANITIZE_ADDRESS__)
#define PROC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROC_ASAN 1
#endif
#endif
#ifndef PROC_ASAN
#define PROC_ASAN 0
#endif

int base_proc_asan(void)
{
    return PROC_ASAN;
}

pid_t base_proc_fork(size_t max_memory)
{
    pid_t parent = getpid();
    pid_t p = fork();
    if (p != 0)
        return p;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the parent ended before the line above */
        _exit(1);
    if (max_memory && !PROC_ASAN) {
        /* The soft limit only: a browser this process starts (browser/)
         * lifts it in its own child, as it cannot run in a few GB of
         * address space (V8 reserves its heap's cage up front); glance's
         * own code never raises it. */
        struct rlimit rl = {max_memory, RLIM_INFINITY};
        getrlimit(RLIMIT_AS, &rl);
        rl.rlim_cur = max_memory < rl.rlim_max ? max_memory : rl.rlim_max;
        setrlimit(RLIMIT_AS, &rl);
    }
    return 0;
}

size_t base_proc_address_space(void)
{
    FILE *f = fopen("/proc/self/statm", "re");
    unsigned long pages = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%lu", &pages) != 1)
        pages = 0;
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)pages * (size_t)page : 0;
}

int base_proc_kill(pid_t pid, int *status)
{
    int st = 0;
    kill(pid, SIGKILL);
    pid_t r;
    while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
        ;
    if (status)
        *status = st;
    return r == pid ? 0 : -1;
}

int base_proc_wait(pid_t pid, double deadline_ms, int *status)
{
    /* Polled: a few ms late at most, and no signal handler to set up. */
    for (unsigned k = 0;; k++) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 1;
        if (r < 0 && errno != EINTR)
            return -1;
        if (deadline_ms > 0 && base_now_ms() >= deadline_ms)
            return base_proc_kill(pid, status) == 0 ? 0 : -1;
        struct timespec ts = {0, (k < 100 ? 1 : 5) * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* ---- messages ----------------------------------------------------------- */

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Waits until `fd` can be read or `deadline_ms` passes: 1, 0 at the
 * deadline, -1. */
static int wait_readable(int fd, double deadline_ms)
{
    for (;;) {
        int timeout = -1;
        if (deadline_ms > 0) {
            double left = deadline_ms - base_now_ms();
            if (left <= 0)
                return 0;
            timeout = left > 1e9 ? 1000000000 : (int)left + 1;
        }
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, timeout);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != 0)
            return r > 0 ? 1 : -1;
    }
}

int base_proc_wait_readable(int fd, pid_t pid, double deadline_ms)
{
    for (;;) {
        double slice = base_now_ms() + 10;
        int r = wait_readable(fd, deadline_ms > 0 && deadline_ms < slice ? deadline_ms : slice);
        if (r != 0)
            return r;
        if (deadline_ms > 0 && base_now_ms() >= deadline_ms)
            return 0;
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == pid) {
            struct pollfd p = {fd, POLLIN, 0}; /* its last words, if any */
            return poll(&p, 1, 0) == 1 ? 1 : -1;
        }
    }
}

/* Reads `n` bytes by the deadline: 1, 0 at the deadline, -1. */
static int read_all(int fd, void *p, size_t n, double deadline_ms)
{
    char *c = p;
    while (n) {
        int w = wait_readable(fd, deadline_ms);
        if (w != 1)
            return w;
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 1;
}

int base_proc_send(int fd, const base_proc_field *f, int n)
{
    uint32_t k = (uint32_t)n;
    if (n < 0 || n > BASE_PROC_MAX_FIELDS || write_all(fd, &k, sizeof k) != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        uint64_t len = f[i].len;
        if (write_all(fd, &len, sizeof len) != 0 || (len && write_all(fd, f[i].data, len) != 0))
            return -1;
    }
    return 0;
}

void base_proc_fields_free(char **fields, size_t *lens, int n)
{
    for (int i = 0; fields && i < n; i++)
        free(fields[i]);
    free(fields);
    free(lens);
}

int base_proc_recv(int fd, double deadline_ms, char ***fields, size_t **lens, int *n)
{
    *fields = NULL;
    *lens = NULL;
    *n = 0;
    uint32_t k;
    int r = read_all(fd, &k, sizeof k, deadline_ms);
    if (r != 1)
        return r;
    if (k > BASE_PROC_MAX_FIELDS)
        return -1;
    char **f = calloc(k ? k : 1, sizeof *f);
    size_t *l = calloc(k ? k : 1, sizeof *l);
    if (!f || !l) {
        free(f);
        free(l);
        return -1;
    }
    for (uint32_t i = 0; i < k && r == 1; i++) {
        uint64_t len;
        r = read_all(fd, &len, sizeof len, deadline_ms);
        if (r == 1 && (len > ((uint64_t)1 << 40) || !(f[i] = malloc((size_t)len + 1))))
            r = -1;
        if (r == 1 && (r = read_all(fd, f[i], (size_t)len, deadline_ms)) == 1) {
            f[i][len] = '\0';
            l[i] = (size_t)len;
        }
    }
    if (r != 1) {
        base_proc_fields_free(f, l, (int)k);
        return r;
    }
    *fields = f;
    *lens = l;
    *n = (int)k;
    return 1;
}
