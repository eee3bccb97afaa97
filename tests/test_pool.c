/* tools/isolate.c's pool of worker processes: a worker retired past its
 * resident bound, and the fresh one forked in its place, answer as the first
 * did. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/proc.h"
#include "tools/isolate.h"

/* The worker: each request's text back in capitals, and its pid. */
static int upper_worker(void *arg, int fd)
{
    (void)arg;
    for (;;) {
        char **f;
        size_t *l;
        int n;
        if (base_proc_recv(fd, 0, &f, &l, &n) != 1)
            break;
        for (size_t i = 0; n == 1 && i < l[0]; i++)
            if (f[0][i] >= 'a' && f[0][i] <= 'z')
                f[0][i] = (char)(f[0][i] - 'a' + 'A');
        char pid[32];
        snprintf(pid, sizeof pid, "%ld", (long)getpid());
        base_proc_field out[2] = {{n == 1 ? f[0] : "", n == 1 ? l[0] : 0}, {pid, strlen(pid)}};
        int bad = base_proc_send(fd, out, 2);
        base_proc_fields_free(f, l, n);
        if (bad)
            break;
    }
    return 0;
}

/* Three calls on a pool of one worker: their answers, and how many
 * different workers gave them. */
static int three_calls(size_t retire)
{
    isolate_pool *p = isolate_pool_start(upper_worker, NULL, 0, 1);
    assert_non_null(p);
    isolate_pool_retire_at(p, retire);
    static const char *const in[] = {"first page", "second page", "third page"};
    static const char *const want[] = {"FIRST PAGE", "SECOND PAGE", "THIRD PAGE"};
    long pids[3];
    for (int i = 0; i < 3; i++) {
        base_proc_field q = {in[i], strlen(in[i])};
        char **f;
        size_t *l;
        int n, status;
        assert_int_equal(isolate_pool_call(p, &q, 1, 0, &f, &l, &n, &status), 1);
        assert_int_equal(n, 2);
        assert_int_equal(l[0], strlen(want[i]));
        assert_memory_equal(f[0], want[i], l[0]);
        pids[i] = strtol(f[1], NULL, 10);
        base_proc_fields_free(f, l, n);
    }
    isolate_pool_stop(p);
    int distinct = 1;
    for (int i = 1; i < 3; i++)
        distinct += pids[i] != pids[i - 1];
    return distinct;
}

/* Any worker is past a bound of one byte: each call has a fresh worker,
 * and each answers right. */
static void retired_worker_replaced(void **state)
{
    (void)state;
    assert_int_equal(three_calls(1), 3);
}

/* No bound: the one worker answers every call. */
static void worker_reused_without_bound(void **state)
{
    (void)state;
    assert_int_equal(three_calls(0), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(retired_worker_replaced),
        cmocka_unit_test(worker_reused_without_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
