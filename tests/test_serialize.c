/* dom/: a subtree as plain text and as clean HTML. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tree.h"

static void expect_text(const dom_node *n, const char *want)
{
    size_t len = 0;
    char *s = dom_to_text(n, &len);
    assert_non_null(s);
    assert_string_equal(s, want);
    assert_int_equal(len, strlen(want));
    free(s);
}

static void expect_html(const dom_node *n, const char *want)
{
    char *s = dom_to_html(n, NULL);
    assert_non_null(s);
    assert_string_equal(s, want);
    free(s);
}

static void test_blocks_become_lines(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 100, 100);
    dom_node *h = el(d, body, "h1", 0, 0, 1, 1);
    txt(d, h, "Title", 0, 0, 1, 1);
    dom_node *p = el(d, body, "p", 0, 0, 1, 1);
    txt(d, p, "  First ", 0, 0, 1, 1);
    dom_node *em = el(d, p, "em", 0, 0, 1, 1);
    txt(d, em, "para", 0, 0, 1, 1);
    txt(d, p, "graph,  still   going.", 0, 0, 1, 1);
    dom_node *div = el(d, body, "div", 0, 0, 1, 1);
    txt(d, div, "line one", 0, 0, 1, 1);
    el(d, div, "br", 0, 0, 0, 0);
    txt(d, div, "line two", 0, 0, 1, 1);
    dom_node *div2 = el(d, body, "div", 0, 0, 1, 1);
    txt(d, div2, "a plain div", 0, 0, 1, 1);
    dom_doc_finish(d);
    /* Paragraph-like blocks get an empty line, plain blocks a line break,
     * inline elements nothing, white space collapses. */
    expect_text(body, "Title\n\nFirst paragraph, still going.\n\nline one\nline two\na plain div");
    expect_text(em, "para");
    dom_doc_free(d);
}

static void test_hidden_and_preformatted(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 100, 100);
    dom_node *p = el(d, body, "p", 0, 0, 1, 1);
    txt(d, p, "shown", 0, 0, 1, 1);
    dom_node *gone = el(d, body, "div", 0, 0, 0, 0);
    gone->hidden = DOM_HIDDEN_DISPLAY_NONE;
    txt(d, gone, "secret", 0, 0, 1, 1);
    dom_node *off = el(d, body, "div", -5000, 0, 10, 10);
    off->hidden = DOM_HIDDEN_OFF_PAGE;
    txt(d, off, "skip to content", 0, 0, 1, 1);
    dom_node *pre = el(d, body, "pre", 0, 0, 1, 1);
    dom_node *code = txt(d, pre, "int main()\n{\n    return 0;\n}", 0, 0, 1, 1);
    code->preformatted = 1;
    dom_doc_finish(d);
    expect_text(body, "shown\n\nint main()\n{\n    return 0;\n}");
    dom_doc_free(d);
}

static void test_table_rows_and_cells(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 100, 100);
    dom_node *table = el(d, body, "table", 0, 0, 1, 1);
    for (int r = 0; r < 2; r++) {
        dom_node *tr = el(d, table, "tr", 0, 0, 1, 1);
        dom_node *a = el(d, tr, "td", 0, 0, 1, 1);
        txt(d, a, r ? "b1" : "a1", 0, 0, 1, 1);
        dom_node *b = el(d, tr, "td", 0, 0, 1, 1);
        txt(d, b, r ? "b2" : "a2", 0, 0, 1, 1);
    }
    dom_doc_finish(d);
    expect_text(body, "a1\ta2\nb1\tb2");
    dom_doc_free(d);
}

static void test_empty_subtree_gives_empty_string(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 100, 100);
    dom_node *div = el(d, body, "div", 0, 0, 1, 1);
    txt(d, div, "   \n  ", 0, 0, 1, 1);
    dom_doc_finish(d);
    expect_text(div, "");
    dom_doc_free(d);
}

static void test_clean_html(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 100, 100);
    dom_node *main = el(d, body, "main", 0, 0, 1, 1);
    dom_set_attr(d, main, "class", "wrapper");
    dom_node *p = el(d, main, "p", 0, 0, 1, 1);
    dom_set_attr(d, p, "onclick", "evil()");
    dom_set_attr(d, p, "style", "color:red");
    txt(d, p, "Fish & chips <cheap>", 0, 0, 1, 1);
    dom_node *a = el(d, p, "a", 0, 0, 1, 1);
    dom_set_attr(d, a, "href", "/menu?a=1&b=\"2\"");
    dom_set_attr(d, a, "target", "_blank");
    txt(d, a, "menu", 0, 0, 1, 1);
    dom_node *bad = el(d, p, "a", 0, 0, 1, 1);
    dom_set_attr(d, bad, "href", " JavaScript:alert(1)");
    txt(d, bad, "click", 0, 0, 1, 1);
    dom_node *span = el(d, p, "span", 0, 0, 1, 1);
    txt(d, span, "unwrapped", 0, 0, 1, 1);
    dom_node *script = el(d, main, "script", 0, 0, 0, 0);
    txt(d, script, "alert(2)", 0, 0, 0, 0);
    dom_node *form = el(d, main, "form", 0, 0, 1, 1);
    el(d, form, "input", 0, 0, 1, 1);
    dom_node *img = el(d, main, "img", 0, 0, 1, 1);
    dom_set_attr(d, img, "src", "a.png");
    dom_set_attr(d, img, "alt", "A");
    dom_doc_finish(d);
    expect_html(main, "<div><p>Fish &amp; chips &lt;cheap&gt;"
                      "<a href=\"/menu?a=1&amp;b=&quot;2&quot;\">menu</a>"
                      "<a>click</a>unwrapped</p><div></div>"
                      "<img alt=\"A\" src=\"a.png\"></div>");
    dom_doc_free(d);
}

/* List items keep their markers in text: "- " or "N. " from the list's
 * start, nested lists two spaces further in, an empty item none. */
static void test_text_list_markers(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 100, 100);
    dom_node *ul = el(d, body, "ul", 0, 0, 1, 1);
    txt(d, el(d, ul, "li", 0, 0, 1, 1), "apples", 0, 0, 1, 1);
    dom_node *li = el(d, ul, "li", 0, 0, 1, 1);
    txt(d, li, "pears", 0, 0, 1, 1);
    dom_node *ol = el(d, li, "ol", 0, 0, 1, 1);
    dom_set_attr(d, ol, "start", "3");
    txt(d, el(d, ol, "li", 0, 0, 1, 1), "ripe", 0, 0, 1, 1);
    txt(d, el(d, ol, "li", 0, 0, 1, 1), "green", 0, 0, 1, 1);
    el(d, ul, "li", 0, 0, 1, 1);
    dom_node *p = el(d, body, "p", 0, 0, 1, 1);
    txt(d, p, "after", 0, 0, 1, 1);
    dom_doc_finish(d);
    expect_text(body, "- apples\n- pears\n  3. ripe\n  4. green\n\nafter");
    dom_doc_free(d);
}

static dom_node *with_attr(dom_doc *d, dom_node *n, const char *k, const char *v)
{
    dom_set_attr(d, n, k, v);
    return n;
}

/* Links and images made absolute against the document's base URL; lazy
 * images given a real src from data-src, data-srcset or their
 * <noscript>; unsafe schemes, in any disguise, dropped. */
static void test_html_urls(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 100, 100);
    assert_int_equal(dom_doc_set_base_url(d, "https://example.org/news/story.html"), 0);
    dom_node *p = el(d, body, "p", 0, 0, 1, 1);
    txt(d, with_attr(d, el(d, p, "a", 0, 0, 1, 1), "href", "/dossier"), "d", 0, 0, 1, 1);
    txt(d, with_attr(d, el(d, p, "a", 0, 0, 1, 1), "href", "jav\tascript:alert(1)"), "x", 0, 0, 1, 1);
    txt(d, with_attr(d, el(d, p, "a", 0, 0, 1, 1), "href", "data:text/html,<script>"), "y", 0, 0, 1, 1);
    txt(d, with_attr(d, el(d, p, "a", 0, 0, 1, 1), "href", "mailto:a@b.org"), "m", 0, 0, 1, 1);
    dom_node *img = el(d, body, "img", 0, 0, 1, 1);
    dom_set_attr(d, img, "src", "data:image/gif;base64,R0lGODlhAQABAAAAACw=");
    dom_set_attr(d, img, "data-src", "../img/tide.jpg");
    dom_set_attr(d, img, "data-srcset", "../img/tide-2x.jpg 2x, javascript:x 3x");
    dom_set_attr(d, img, "onerror", "alert(1)");
    dom_node *lazy = el(d, body, "img", 0, 0, 1, 1);
    dom_set_attr(d, lazy, "class", "lazy");
    dom_node *ns = el(d, body, "noscript", 0, 0, 0, 0);
    ns->hidden = DOM_HIDDEN_DISPLAY_NONE;
    dom_set_attr(d, el(d, ns, "img", 0, 0, 1, 1), "src", "/img/fallback.png");
    dom_set_attr(d, el(d, body, "img", 0, 0, 1, 1), "src", "data:image/svg+xml,<svg onload=alert(1)>");
    dom_doc_finish(d);
    expect_html(body, "<div><p><a href=\"https://example.org/dossier\">d</a><a>x</a><a>y</a>"
                      "<a href=\"mailto:a@b.org\">m</a></p>"
                      "<img src=\"https://example.org/img/tide.jpg\" "
                      "srcset=\"https://example.org/img/tide-2x.jpg 2x\">"
                      "<img src=\"https://example.org/img/fallback.png\"><img></div>");
    dom_doc_free(d);
}

static void expect_md(const char *html, const char *want)
{
    char *m = dom_html_to_markdown(html, strlen(html), NULL);
    assert_non_null(m);
    if (strcmp(m, want) != 0)
        fail_msg("markdown of %s:\n%s\n--- wanted ---\n%s", html, m, want);
    free(m);
}

/* Markdown of clean HTML: each construct, and text that would read as
 * markup escaped. tests/test_markdown.c reads the fixtures' Markdown back
 * with cmark-gfm. */
static void test_markdown(void **state)
{
    (void)state;
    expect_md("<h2>Tides &amp; power #</h2><p>One <em>two</em> <strong>three</strong> "
              "<a href=\"https://x.org/a b\" title=\"T\">four</a> <code>f(x)</code><br>five</p>",
              "## Tides & power \\#\n\nOne *two* **three** [four](https://x.org/a%20b \"T\") "
              "`f(x)`\\\nfive");
    expect_md("<ul><li>a</li><li>b<ol><li>c</li></ol></li></ul><ol start=\"4\"><li>d</li></ol>",
              "- a\n- b\n  1. c\n\n4. d");
    expect_md("<blockquote><p>q</p></blockquote><pre class=\"language-sh\"><code>ls\n</code></pre><hr>",
              "> q\n\n```sh\nls\n```\n\n---");
    expect_md("<table><thead><tr><th>a|b</th><th>c</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>",
              "| a\\|b | c |\n| --- | --- |\n| 1 |  |");
    expect_md("<figure><img src=\"https://x.org/i.png\" alt=\"A [b]\"><figcaption>Cap</figcaption></figure>",
              "![A \\[b\\]](https://x.org/i.png)\n\nCap");
    expect_md("<p>1. not a list, - * _x_ snake_case &lt;b&gt; &amp;amp;</p><p># no heading</p>",
              "1\\. not a list, - \\* \\_x\\_ snake_case \\<b\\> \\&amp;\n\n\\# no heading");
    expect_md("<ul><li>one</li></ul><ul><li>two</li></ul>", "- one\n\n* two");
    expect_md("<p><a href=\"javascript:alert(1)\">x</a></p>", "x");
    expect_md("", "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_become_lines),
        cmocka_unit_test(test_hidden_and_preformatted),
        cmocka_unit_test(test_table_rows_and_cells),
        cmocka_unit_test(test_empty_subtree_gives_empty_string),
        cmocka_unit_test(test_clean_html),
        cmocka_unit_test(test_text_list_markers),
        cmocka_unit_test(test_html_urls),
        cmocka_unit_test(test_markdown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
