/* base/: the buffer, arrays, the clock, HTML escaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/clock.h"
#include "base/escape.h"
#include "base/grow.h"

/* buf ----------------------------------------------------------------------- */

static void test_buf_growth(void **state)
{
    (void)state;
    base_buf b = BASE_BUF_INIT;
    assert_null(b.data);
    /* Byte by byte, the capacity grows geometrically: a few times, not
     * once per byte (appending stays linear). */
    int growths = 0;
    for (int i = 0; i < 10000; i++) {
        size_t cap = b.cap;
        base_buf_putc(&b, (char)('a' + i % 26));
        growths += b.cap != cap;
    }
    assert_in_range(growths, 1, 20);
    assert_int_equal(b.len, 10000);
    assert_true(b.cap > 10000);
    assert_int_equal(b.data[10000], '\0');
    assert_int_equal(strlen(b.data), 10000);
    assert_memory_equal(b.data, "abcdefghijklmnopqrstuvwxyzabc", 29);
    assert_int_equal(b.data[9999], 'a' + 9999 % 26);
    base_buf_add(&b, "XYZ", 2);
    assert_string_equal(b.data + 10000, "XY");
    base_buf_puts(&b, "!");
    assert_int_equal(b.len, 10003);
    base_buf_shrink(&b, 3);
    assert_int_equal(b.len, 10000);
    assert_int_equal(b.data[10000], '\0');
    base_buf_shrink(&b, 20000);
    assert_int_equal(b.len, 0);
    assert_string_equal(b.data, "");
    assert_false(b.oom);
    base_buf_free(&b);
    assert_null(b.data);
}

static void test_buf_printf(void **state)
{
    (void)state;
    base_buf b = BASE_BUF_INIT;
    base_buf_puts(&b, "n=");
    base_buf_printf(&b, "%d-%s-%.2f", 42, "x", 2.25);
    assert_string_equal(b.data, "n=42-x-2.25");
    assert_int_equal(b.len, strlen("n=42-x-2.25"));
    /* Longer than the room the buffer has: grown, then written whole. */
    char big[3000];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    base_buf_printf(&b, "[%s]", big);
    assert_int_equal(b.len, 11 + 2 + 2999);
    assert_int_equal(b.data[11], '[');
    assert_int_equal(b.data[12 + 2998], 'q');
    assert_int_equal(b.data[b.len - 1], ']');
    assert_int_equal(b.data[b.len], '\0');
    base_buf_printf(&b, "%s", "");
    assert_int_equal(b.len, 11 + 2 + 2999);
    base_buf_free(&b);
}

static void test_buf_take_reset(void **state)
{
    (void)state;
    base_buf b = BASE_BUF_INIT;
    size_t n = 99;
    char *s = base_buf_take(&b, &n); /* nothing added: "" */
    assert_non_null(s);
    assert_string_equal(s, "");
    assert_int_equal(n, 0);
    free(s);

    base_buf_puts(&b, "hello");
    char *mem = b.data;
    size_t cap = b.cap;
    base_buf_reset(&b);
    assert_int_equal(b.len, 0);
    assert_ptr_equal(b.data, mem); /* the memory is kept */
    assert_int_equal(b.cap, cap);
    assert_string_equal(b.data, "");
    base_buf_puts(&b, "world");
    s = base_buf_take(&b, &n);
    assert_string_equal(s, "world");
    assert_int_equal(n, 5);
    assert_null(b.data); /* empty after */
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    free(s);
}

static void test_buf_oom_sticky(void **state)
{
    (void)state;
    base_buf b = BASE_BUF_INIT;
    base_buf_puts(&b, "kept");
    /* More than memory can hold: the growth fails, and so does everything
     * after it. */
    assert_int_equal(base_buf_reserve(&b, SIZE_MAX), -1);
    assert_true(b.oom);
    base_buf_puts(&b, "more");
    base_buf_printf(&b, "%d", 7);
    assert_int_equal(b.len, 4);
    assert_int_equal(base_buf_reserve(&b, 1), -1);
    size_t n = 99;
    assert_null(base_buf_take(&b, &n));
    assert_int_equal(n, 0);
    assert_null(b.data);
    assert_false(b.oom);
    /* reset clears the flag and keeps working */
    base_buf_puts(&b, "a");
    b.oom = 1;
    base_buf_reset(&b);
    assert_false(b.oom);
    base_buf_puts(&b, "b");
    assert_string_equal(b.data, "b");
    base_buf_free(&b);
}

/* grow -------------------------------------------------------------------------- */

static void test_grow(void **state)
{
    (void)state;
    long *v = NULL;
    size_t cap = 0;
    assert_int_equal(base_grow(&v, &cap, 1, sizeof *v), 0);
    assert_non_null(v);
    assert_true(cap >= 1);
    for (size_t i = 0; i < 1000; i++) {
        assert_int_equal(base_grow(&v, &cap, i + 1, sizeof *v), 0);
        v[i] = (long)i * 3;
    }
    assert_true(cap >= 1000 && cap < 4000);
    assert_int_equal(v[999], 2997);
    assert_int_equal(v[0], 0);
    /* Enough room already: nothing moves. */
    long *same = v;
    size_t had = cap;
    assert_int_equal(base_grow(&v, &cap, 10, sizeof *v), 0);
    assert_ptr_equal(v, same);
    assert_int_equal(cap, had);
    /* A size that overflows fails and leaves the array as it was. */
    assert_int_equal(base_grow(&v, &cap, SIZE_MAX / 2, sizeof *v), -1);
    assert_ptr_equal(v, same);
    assert_int_equal(cap, had);
    assert_int_equal(v[999], 2997);
    free(v);
}

/* clock ----------------------------------------------------------------------- */

static void test_clock_monotonic(void **state)
{
    (void)state;
    double a = base_now_ms(), b = base_now_ms();
    assert_true(a > 0);
    assert_true(b >= a);
}

/* escape ---------------------------------------------------------------------- */

static void test_escape_every_special(void **state)
{
    (void)state;
    char *s = base_html_escaped("a&b<c>d\"e'f");
    assert_string_equal(s, "a&amp;b&lt;c&gt;d&quot;e&#39;f");
    free(s);
    s = base_html_escaped("plain text, \xe4\xb8\xad");
    assert_string_equal(s, "plain text, \xe4\xb8\xad");
    free(s);
    s = base_html_escaped("");
    assert_string_equal(s, "");
    free(s);
    /* Only the n bytes given, after what the buffer holds. */
    base_buf b = BASE_BUF_INIT;
    base_buf_puts(&b, "<p>");
    base_html_escape(&b, "<>&ignored", 3);
    assert_string_equal(b.data, "<p>&lt;&gt;&amp;");
    base_buf_free(&b);
}

static void test_escape_paragraphs(void **state)
{
    (void)state;
    char *s = base_html_paragraphs("a\nb<c");
    assert_string_equal(s, "<p>a</p><p>b&lt;c</p>");
    free(s);
    s = base_html_paragraphs("it's \"x\" & y");
    assert_string_equal(s, "<p>it&#39;s &quot;x&quot; &amp; y</p>");
    free(s);
    s = base_html_paragraphs("");
    assert_string_equal(s, "<p></p>");
    free(s);
    s = base_html_paragraphs("a\n");
    assert_string_equal(s, "<p>a</p><p></p>");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buf_growth),
        cmocka_unit_test(test_buf_printf),
        cmocka_unit_test(test_buf_take_reset),
        cmocka_unit_test(test_buf_oom_sticky),
        cmocka_unit_test(test_grow),
        cmocka_unit_test(test_clock_monotonic),
        cmocka_unit_test(test_escape_every_special),
        cmocka_unit_test(test_escape_paragraphs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
