/* extract/xpathblocks: leaves, XPath blocks, anchor ratios and footer
 * marks (paper 003), on trees whose counts can be read off by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"
#include "tree.h"

static char *text_of(const extract_span *s)
{
    char *t = extract_span_text(s);
    assert_non_null(t);
    return t;
}

/* body > div > ul > 5 × li > a: each link leaf's lowest block with more
 * than one leaf is the ul (5 leaves, 5 links: ANR = ATR = 1, AR = 1).
 * body > div.article > h1, p, p(text, a, text): the h1's and the first p's
 * leaves are alone in their elements, so their block is the div (5
 * leaves, 1 link); the second p is a block itself: 3 leaves, 1 link,
 * ATR = 11 / 36 ("Itgoeson,asthe" 15, "councilsaid" 11, "onTuesday." 10),
 * AR = 0.75 · 11/36 + 0.25 · 1/3 = 0.31 < 0.6: content.
 * A copyright line is a footer; a lone "|" holds 1 character. */
static void test_blocks_and_ratios(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *ul = el(d, el(d, body, "div", 0, 0, 1, 1), "ul", 0, 0, 1, 1);
    for (int i = 0; i < 5; i++)
        link(d, el(d, ul, "li", 0, 0, 1, 1), "Section", 0, 0, 1, 1);
    dom_node *art = el(d, body, "div", 0, 0, 1, 1);
    dom_node *h = txt(d, el(d, art, "h1", 0, 0, 1, 1), "Harbour news", 0, 0, 1, 1);
    txt(d, el(d, art, "p", 0, 0, 1, 1), "The turbines began turning.", 0, 0, 1, 1);
    dom_node *p2 = el(d, art, "p", 0, 0, 1, 1);
    txt(d, p2, "It goes on, as the ", 0, 0, 1, 1);
    link(d, p2, "council said", 0, 0, 1, 1);
    dom_node *last = txt(d, p2, " on Tuesday.", 0, 0, 1, 1);
    txt(d, el(d, body, "div", 0, 0, 1, 1), "Copyright 2024 The Ledger", 0, 0, 1, 1);
    txt(d, el(d, body, "div", 0, 0, 1, 1), "|", 0, 0, 1, 1);
    dom_doc_finish(d);

    extract_xpath_params p;
    extract_xpath_params_default(&p);
    assert_true(p.atr_weight == 0.75 && p.max_ar == 0.6 && p.min_chars == 2);
    extract_span s;
    extract_xpath_info info;
    assert_int_equal(extract_xpath(d, &p, &s, &info), 0);
    assert_int_equal(info.leaves, 12);
    assert_int_equal(info.content, 5);
    assert_int_equal(info.footers, 1);
    assert_ptr_equal(s.first, h);
    assert_ptr_equal(s.last, last);
    assert_ptr_equal(extract_span_holder(&s), art);
    char *t = text_of(&s);
    assert_string_equal(t, "Harbour news\nThe turbines began turning.\n"
                           "It goes on, as the council said on Tuesday.");
    free(t);
    extract_span_free(&s);

    /* Without footer phrases the copyright line is content too. */
    p.footer_phrases = "";
    assert_int_equal(extract_xpath(d, &p, &s, &info), 0);
    assert_int_equal(info.footers, 0);
    t = text_of(&s);
    assert_non_null(strstr(t, "Copyright 2024"));
    assert_null(strstr(t, "|"));
    free(t);
    extract_span_free(&s);
    dom_doc_free(d);
}

/* The exemption: a block with fewer than 2 links among more than 2 leaves
 * stays whatever its AR (a sentence around one long link: ATR = 35/42,
 * AR = 0.75 · 35/42 + 0.25 · 1/3 = 0.71). With two links among three
 * leaves (ATR = 22/24, AR = 0.85) it goes. */
static void test_one_link_exemption(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *p1 = el(d, body, "p", 0, 0, 1, 1);
    txt(d, p1, "See ", 0, 0, 1, 1);
    link(d, p1, "the full report of the harbour commission", 0, 0, 1, 1);
    txt(d, p1, " now.", 0, 0, 1, 1);
    dom_node *p2 = el(d, body, "p", 0, 0, 1, 1);
    link(d, p2, "Previous story", 0, 0, 1, 1);
    txt(d, p2, " or ", 0, 0, 1, 1);
    link(d, p2, "next story", 0, 0, 1, 1);
    dom_doc_finish(d);
    extract_xpath_params p;
    extract_xpath_params_default(&p);
    extract_span s;
    assert_int_equal(extract_xpath(d, &p, &s, NULL), 0);
    char *t = text_of(&s);
    assert_string_equal(t, "See the full report of the harbour commission now.");
    free(t);
    extract_span_free(&s);
    dom_doc_free(d);
}

/* Short leaves: the "A" before a link and the "." after one run on with
 * the sentence and stay; a lone character goes, in any script ("好" alone,
 * while "你好" stays). A page of link lists has no content at all. */
static void test_short_leaves_and_links_only(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *p = el(d, body, "p", 0, 0, 1, 1);
    txt(d, p, "A ", 0, 0, 1, 1);
    link(d, p, "tidal barrage", 0, 0, 1, 1);
    txt(d, p, " holds back the sea", 0, 0, 1, 1);
    txt(d, p, ".", 0, 0, 1, 1);
    txt(d, el(d, body, "div", 0, 0, 1, 1), "好", 0, 0, 1, 1);
    txt(d, el(d, body, "div", 0, 0, 1, 1), "你好", 0, 0, 1, 1);
    dom_doc_finish(d);
    extract_xpath_params xp;
    extract_xpath_params_default(&xp);
    extract_span s;
    assert_int_equal(extract_xpath(d, &xp, &s, NULL), 0);
    char *t = text_of(&s);
    assert_string_equal(t, "A tidal barrage holds back the sea.\n你好");
    free(t);
    extract_span_free(&s);
    dom_doc_free(d);

    d = dom_doc_new();
    body = page(d, 1000, 1000);
    for (int k = 0; k < 3; k++) {
        dom_node *ul = el(d, body, "ul", 0, 0, 1, 1);
        for (int i = 0; i < 4; i++)
            link(d, el(d, ul, "li", 0, 0, 1, 1), "Local news from the towns", 0, 0, 1, 1);
    }
    dom_doc_finish(d);
    extract_xpath_info info;
    assert_int_equal(extract_xpath(d, &xp, &s, &info), 1);
    assert_int_equal(info.leaves, 12);
    assert_int_equal(info.content, 0);
    assert_null(s.first);
    assert_non_null(strstr(s.failure, "link block"));
    dom_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_and_ratios),
        cmocka_unit_test(test_one_link_exemption),
        cmocka_unit_test(test_short_leaves_and_links_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
