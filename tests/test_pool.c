/* tools/isolate.c's pool of worker processes: a worker retired past its
 * resident bound, and the fresh one forked in its place, answer as the first
 * did. */
#include <dlfcn.h>
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

/* Memory a page freed is handed back between pages once it is over
 * ISOLATE_TRIM_BYTES: this test allocates with jemalloc, the command's
 * allocator (tests/CMakeLists.txt links it, as tools/ does, but for the
 * sanitizers' builds): 48 MB allocated, written and freed, then
 * isolate_trim. */
typedef int (*ctl_fn)(const char *, void *, size_t *, void *, size_t);

static size_t dirty_bytes(ctl_fn ctl)
{
    uint64_t epoch = 1;
    size_t sz = sizeof epoch;
    assert_int_equal(ctl("epoch", &epoch, &sz, &epoch, sz), 0);
    size_t pages = 0;
    sz = sizeof pages;
    assert_int_equal(ctl("stats.arenas.4096.pdirty", &pages, &sz, NULL, 0), 0);
    return pages * (size_t)sysconf(_SC_PAGESIZE);
}

static void freed_memory_returned(void **state)
{
    (void)state;
    ctl_fn ctl = (ctl_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mallctl");
    if (!ctl) {
        printf("freed_memory_returned: skipped, not built with jemalloc (a sanitizer's build)\n");
        skip();
    }
    enum { N = 48 };
    char *volatile p[N];
    for (int i = 0; i < N; i++) {
        p[i] = malloc((size_t)1 << 20);
        assert_non_null(p[i]);
        memset(p[i], i, (size_t)1 << 20);
    }
    for (int i = 0; i < N; i++)
        free(p[i]);
    size_t before = dirty_bytes(ctl);
    isolate_trim();
    size_t after = dirty_bytes(ctl);
    printf("freed_memory_returned: %.1f MB dirty before isolate_trim, %.1f MB after\n",
           before / 1048576.0, after / 1048576.0);
    assert_true(before > ISOLATE_TRIM_BYTES);
    assert_true(after < ((size_t)1 << 20));
    /* Below the bound nothing is asked of the allocator. */
    char *volatile q = malloc((size_t)4 << 20);
    assert_non_null(q);
    memset(q, 1, (size_t)4 << 20);
    free(q);
    size_t small = dirty_bytes(ctl);
    assert_true(small >= ((size_t)4 << 20));
    isolate_trim();
    assert_int_equal(dirty_bytes(ctl), small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(retired_worker_replaced),
        cmocka_unit_test(worker_reused_without_bound),
        cmocka_unit_test(freed_memory_returned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
