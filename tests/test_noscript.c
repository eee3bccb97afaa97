/* render/noscript: which <noscript> a reader without scripts is shown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "render/noscript.h"

/* Prose of about 80 characters a sentence, `n` sentences, numbered so that
 * no two are alike. */
static void prose(base_buf *b, int n, int first)
{
    for (int i = 0; i < n; i++)
        base_buf_printf(b, "The ferry number %d left the harbour at dawn and crossed to the island. ",
                        first + i);
}

/* Other prose: another sentence, that shares only words with the first. */
static void other_prose(base_buf *b, int n)
{
    for (int i = 0; i < n; i++)
        base_buf_printf(b, "On day %d the island's school opened its doors to the children of the "
                           "harbour workers. ", i);
}

/* 1 when the first <noscript> of `page` is shown. */
static int shown(const char *page)
{
    noscript_plan p;
    assert_int_equal(noscript_plan_page(page, strlen(page), &p, NULL), 0);
    const char *tag = strstr(page, "<noscript");
    assert_non_null(tag);
    int r = noscript_plan_shows(&p, tag);
    noscript_plan_free(&p);
    return r;
}

static void what_is_shown(void **state)
{
    (void)state;
    base_buf b = BASE_BUF_INIT;
    /* A thread only in <noscript>: shown. */
    base_buf_puts(&b, "<html><body><div id=app></div><noscript><div><p>");
    prose(&b, 8, 0);
    base_buf_puts(&b, "</p></div></noscript></body></html>");
    assert_true(shown(b.data));
    /* A pixel; a lazy image's fallback: no text, hidden. */
    assert_false(shown("<body><noscript><img src=p.gif width=1 height=1></noscript><p>x</p></body>"));
    assert_false(shown("<body><img data-src=a.jpg><noscript><img src=a.jpg alt=\"a ferry\"></noscript></body>"));
    /* A line asking for JavaScript, in any language: short, hidden. */
    assert_false(shown("<body><noscript><p>Please enable JavaScript to use this site. It is needed "
                       "for the search and the comments.</p></noscript></body>"));
    assert_false(shown("<body><noscript>请启用JavaScript以浏览本网站的全部内容。</noscript></body>"));
    /* Markup written as text (escaped tags), however long: hidden. */
    base_buf_reset(&b);
    base_buf_puts(&b, "<body><noscript>");
    for (int i = 0; i < 12; i++)
        base_buf_printf(&b, "&lt;img src=\"https://stats.example/p?c=%d&amp;n=ferry\" width=\"1\"&gt;", i);
    base_buf_puts(&b, "</noscript><p>text</p></body>");
    assert_false(shown(b.data));
    /* A copy of the page's own text: counted once, hidden. */
    base_buf_reset(&b);
    base_buf_puts(&b, "<body><article><p>");
    prose(&b, 8, 100);
    base_buf_puts(&b, "</p></article><noscript><div class=copy><p>");
    prose(&b, 8, 100);
    base_buf_puts(&b, "</p></div></noscript></body>");
    assert_false(shown(b.data));
    /* ... but not a text that merely shares words with the page. */
    base_buf_reset(&b);
    base_buf_puts(&b, "<body><article><p>");
    prose(&b, 8, 100);
    base_buf_puts(&b, "</p></article><noscript><div><p>");
    other_prose(&b, 8);
    base_buf_puts(&b, "</p></div></noscript></body>");
    assert_true(shown(b.data));
    /* Its <style> and <script> text is no reader's text. */
    base_buf_reset(&b);
    base_buf_puts(&b, "<head><noscript><style>");
    for (int i = 0; i < 40; i++)
        base_buf_printf(&b, ".lazy-%d{display:none!important} ", i);
    base_buf_puts(&b, "</style></noscript></head><body><p>x</p></body>");
    assert_false(shown(b.data));
    base_buf_free(&b);
}

static void nested_and_unclosed(void **state)
{
    (void)state;
    base_buf b = BASE_BUF_INIT;
    /* An unclosed <noscript> runs to the end of the page. */
    base_buf_puts(&b, "<body><p>x</p><noscript><p>");
    prose(&b, 8, 0);
    assert_true(shown(b.data));
    /* Nothing but <noscript>s, none of them with text. */
    assert_false(shown("<noscript></noscript><noscript><noscript></noscript></noscript>"));
    base_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(what_is_shown),
        cmocka_unit_test(nested_and_unclosed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
