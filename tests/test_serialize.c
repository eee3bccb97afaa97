/* dom/: a subtree as plain text and as clean HTML. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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
                      "<img src=\"a.png\" alt=\"A\"></div>");
    dom_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_become_lines),
        cmocka_unit_test(test_hidden_and_preformatted),
        cmocka_unit_test(test_table_rows_and_cells),
        cmocka_unit_test(test_empty_subtree_gives_empty_string),
        cmocka_unit_test(test_clean_html),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
