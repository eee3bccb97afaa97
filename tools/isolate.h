/* tools/: pages worked on in worker processes that can be killed.
 *
 * litehtml cannot be interrupted inside a call, so the time budget of the
 * library (checked between stages) cannot stop a page that is cheap to send
 * and costly to lay out. A worker process can be stopped: the commands send
 * a page to a worker over a socket, wait for its answer until a deadline,
 * and SIGKILL it when the deadline passes; a fresh worker takes its place.
 *
 * The workers are forked by a small "zygote" process, itself forked by
 * isolate_start before the command starts any thread: a worker is never
 * forked from a process with threads. The zygote holds nothing but what
 * the command had when it started it (its options, its list of pages), so
 * a worker begins with that and makes its own glance context. The zygote
 * also reaps the workers it kills, so a pid is never reused under us.
 *
 * Each worker runs with an address-space limit (RLIMIT_AS, max_memory),
 * left out when built with AddressSanitizer: ASan reserves terabytes of
 * virtual space and cannot start under such a limit. The worker may set a
 * CPU limit of its own per page (isolate_cpu_limit). The fork, the limit,
 * the kill and the messages are base/'s (base/proc.h), which the library's
 * option "isolate" uses too; this file adds the zygote and the pool. */
#ifndef GLANCE_TOOLS_ISOLATE_H
#define GLANCE_TOOLS_ISOLATE_H

#include <stddef.h>
#include <sys/types.h>

#include "base/proc.h"

/* The worker's loop: reads requests from `fd` and answers them until EOF;
 * its return is the worker's exit code. Runs in the worker process. */
typedef int (*isolate_main_fn)(void *arg, int fd);

typedef struct isolate isolate;

/* Forks the zygote now (call it before any thread starts). max_memory:
 * each worker's address space in bytes (0: none). NULL when it cannot. */
isolate *isolate_start(isolate_main_fn fn, void *arg, size_t max_memory);

/* A new worker: its socket (the caller's to close) and pid. 0, or -1.
 * Thread-safe. */
int isolate_spawn(isolate *z, int *fd, pid_t *pid);

/* SIGKILLs worker `pid` (if it still runs) and reaps it: its wait status,
 * or -1. Thread-safe. */
int isolate_kill(isolate *z, pid_t pid);

/* Kills the workers left and the zygote. */
void isolate_stop(isolate *z);

/* One task in one child process, for a command that works on one page:
 * forks (call it before any thread starts), runs fn(arg) in the child with
 * an address space of `max_memory` bytes at most (0: none) and exits with
 * its return; waits for the child until `deadline_ms` (base_now_ms(); 0:
 * none), SIGKILLs and reaps it there. 1: it ended, *status its wait
 * status; 0: killed at the deadline; -1: no fork. */
int isolate_run(int (*fn)(void *arg), void *arg, size_t max_memory, double deadline_ms,
                int *status);

/* A worker's resident size in bytes (0 when unknown), read from /proc.
 *
 * A reused worker does not shrink back: what the allocator freed after a
 * big page stays mapped, split among what later pages keep, and the
 * context's caches (fonts' faces and sizes) grow with every page. On the
 * modern-dev corpus one worker reused for all 491 pages grew to 227 MB
 * while no page alone takes more than about 150 MB. So, as servers retire
 * a worker after so many requests, a worker whose resident size after an
 * answer exceeds ISOLATE_RETIRE_BYTES is retired (killed while idle,
 * reaped) and a fresh one forked from the zygote for the next page. The
 * bound is above what a fresh worker holds after most pages (its context,
 * the fonts, ~30 to 80 MB), so a worker serves many pages (about 35 on
 * modern-dev) and its start-up (a fork and a context) is rare. */
#define ISOLATE_RETIRE_BYTES ((size_t)96 << 20)
size_t isolate_resident(pid_t pid);

/* A pool of `n` workers of one zygote for `n` threads of a command, each
 * call on a worker no other thread is using, the worker forked on first
 * use and again after one was killed or retired (the zygote started by
 * isolate_pool_start, before any thread). */
typedef struct isolate_pool isolate_pool;
isolate_pool *isolate_pool_start(isolate_main_fn fn, void *arg, size_t max_memory, int n);
/* Sends the `nq` fields of `q` to a free worker and waits for its answer
 * until `deadline_ms` (0: none). 1: the answer in *fields etc. (as
 * base_proc_recv); 0: the deadline passed, the worker killed; -1: the worker
 * ended without an answer (killed and reaped: *status its wait status, -1
 * when unknown). Thread-safe; at most `n` calls at once. */
int isolate_pool_call(isolate_pool *p, const base_proc_field *q, int nq, double deadline_ms,
                      char ***fields, size_t **lens, int *n, int *status);
/* A worker past `bytes` resident after an answer is retired and a fresh one
 * forked for the next call (ISOLATE_RETIRE_BYTES unless set; 0: never). */
void isolate_pool_retire_at(isolate_pool *p, size_t bytes);
/* Closes the workers' sockets and stops the zygote (and the workers). */
void isolate_pool_stop(isolate_pool *p);

/* Within a worker, after an answer: the pages the allocator keeps for
 * reuse once freed (jemalloc's dirty pages, returned to the system only
 * some seconds later) handed back when they are over ISOLATE_TRIM_BYTES.
 * Pages a second apart would otherwise stack one page's leftovers on the
 * next page's needs: one worker over modern-dev peaked at 98 to 107 MB, 91
 * MB so, at the same pages per second (glance bench --jobs 1). A page
 * that frees less than that costs nothing more than two statistics calls. */
#define ISOLATE_TRIM_BYTES ((size_t)32 << 20)
void isolate_trim(void);

/* Within a worker: SIGXCPU after `seconds` more of CPU time (0: none). */
void isolate_cpu_limit(double seconds);

/* What a worker's wait status says, for a message: "killed: over the
 * memory limit" and the like. */
const char *isolate_why(int status);

#endif
