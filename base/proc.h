/* base/: child processes that can be killed, and the messages they send.
 *
 * litehtml cannot be interrupted inside a call; a process can. These are
 * the mechanics shared by the glance command's worker processes
 * (tools/isolate.c) and the library's option "isolate" (lib/isolate.c): a
 * fork whose child dies with its parent and runs under an address-space
 * limit (RLIMIT_AS; left out when built with AddressSanitizer, which
 * reserves terabytes of virtual space and cannot start under such a
 * limit), a wait with a deadline that SIGKILLs and reaps the child past it,
 * and length-prefixed messages over a socket, received with a deadline. */
#ifndef GLANCE_BASE_PROC_H
#define GLANCE_BASE_PROC_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when built with AddressSanitizer (the address-space limit is skipped). */
int base_proc_asan(void);

/* Forks. In the child (0 returned): it gets SIGKILL when the thread that
 * forked it ends (PR_SET_PDEATHSIG), and its address space is limited to
 * `max_memory` bytes (0: no limit; none under AddressSanitizer: the soft
 * limit, which a browser it starts lifts for itself). In the
 * parent: the child's pid, or -1 (errno says why). The child must leave
 * with _exit. */
pid_t base_proc_fork(size_t max_memory);

/* The address space this process has now, in bytes (Linux's
 * /proc/self/statm); 0 when unknown. */
size_t base_proc_address_space(void);

/* SIGKILLs child `pid` and reaps it; *status (when not NULL) its wait
 * status. 0, or -1 when it was not a child of ours. */
int base_proc_kill(pid_t pid, int *status);

/* Waits for child `pid` to end until `deadline_ms` (base_now_ms(); 0: no
 * deadline), then SIGKILLs and reaps it. 1: it ended, *status its wait
 * status; 0: killed at the deadline (*status the kill's); -1: not a child. */
int base_proc_wait(pid_t pid, double deadline_ms, int *status);

/* Waits until `fd` can be read, child `pid` has ended (looked at every
 * 10 ms, without reaping it) or `deadline_ms` (0: none) passes: 1 readable,
 * 0 at the deadline, -1 the child ended with nothing to read. For a
 * process whose other threads fork too: a child of theirs may hold a copy
 * of `fd`'s peer, so a dead child's socket need not read as closed. */
int base_proc_wait_readable(int fd, pid_t pid, double deadline_ms);

/* A message: `n` fields of bytes. */
typedef struct base_proc_field {
    const void *data;
    size_t len;
} base_proc_field;

/* At most this many fields in one message. */
#define BASE_PROC_MAX_FIELDS 64

/* Sends a message of `n` fields: 0, or -1 (the peer is gone). */
int base_proc_send(int fd, const base_proc_field *f, int n);

/* Waits for a message until `deadline_ms` (base_now_ms(); 0: no deadline)
 * and reads it: its fields malloc'd, each NUL-terminated (free each and the
 * array, or base_proc_fields_free). 1, 0 at the deadline, -1 when the peer
 * is gone or the message is not one. */
int base_proc_recv(int fd, double deadline_ms, char ***fields, size_t **lens, int *n);
void base_proc_fields_free(char **fields, size_t *lens, int n);

#ifdef __cplusplus
}
#endif

#endif
