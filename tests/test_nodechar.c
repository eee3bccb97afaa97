/* extract/nodechar: text density from line boxes, hyperlink density, node
 * fusion, the neighbour rule of Fig. 2 and the result analyzer (paper 000),
 * on trees whose numbers can be worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"
#include "tree.h"

/* A text node set on n lines of the given widths (20px high, from y). */
static dom_node *lines(dom_doc *d, dom_node *parent, const char *s, double y, const double *w,
                       size_t n)
{
    dom_node *t = txt(d, parent, s, 0, y, w[0], 20);
    dom_box b[8];
    for (size_t i = 0; i < n && i < 8; i++)
        b[i] = (dom_box){0, y + 20.0 * (double)i, w[i], 20};
    dom_set_lines(d, t, b, n);
    return t;
}

static char *picked_text(const extract_span *s)
{
    char *t = extract_span_text(s);
    assert_non_null(t);
    return t;
}

/* body > ul (5 links) + div > p (3 lines: 1000, 1000, 400px) + p (1 line,
 * 300px) + ul (3 links), every block 1000px wide; the longest line of the
 * page is 1000px, so maxLen fills 1000px.
 *   menu items: δ = 50/1000 = 0.05, θ = 1; they fuse (difference 0).
 *   p1: δ = (1000 + 1000) / (2 · 1000) = 1, θ = 0; difference from the
 *       menu 0.2 · 0.95 + 0.8 · 1 = 0.99: a node of its own.
 *   p2: δ = 0.3; difference from p1 0.2 · 0.7 = 0.14 >= ε = 0.1: its own.
 *   footer links: δ 0.06, θ 1, fused.
 * Four nodes. Fig. 2: menu and footer are noise (θ >= 0.333), p1 content
 * (δ >= 0.5), p2 content because p1 before it is dense. The content as one
 * node: lines 1000, 1000, 400, 300, δ = 2400 / 3000 = 0.8; punctuation 3
 * (". , ."), more than 2. */
static void test_article_between_menus(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *menu = el(d, body, "ul", 0, 0, 1000, 100);
    for (int i = 0; i < 5; i++)
        link(d, el(d, menu, "li", 0, 20.0 * i, 1000, 20), "Home", 0, 20.0 * i, 50, 20);
    dom_node *story = el(d, body, "div", 0, 100, 1000, 80);
    static const double w1[] = {1000, 1000, 400}, w2[] = {300};
    dom_node *t1 = lines(d, el(d, story, "p", 0, 100, 1000, 60),
                         "The turbines began turning on Tuesday. By noon the station fed the "
                         "grid, and by evening the quay was lit by the sea beneath it",
                         100, w1, 3);
    dom_node *t2 = lines(d, el(d, story, "p", 0, 160, 1000, 20), "More next year.", 160, w2, 1);
    dom_node *foot = el(d, body, "ul", 0, 180, 1000, 60);
    for (int i = 0; i < 3; i++)
        link(d, el(d, foot, "li", 0, 180 + 20.0 * i, 1000, 20), "About", 0, 180 + 20.0 * i, 60, 20);
    dom_doc_finish(d);

    extract_nodechar_params p;
    extract_nodechar_params_default(&p);
    assert_true(p.theta == 0.333 && p.delta == 0.5 && p.weight_text == 0.2 && p.epsilon == 0.1);
    extract_span s;
    extract_nodechar_info info;
    assert_int_equal(extract_nodechar(d, &p, &s, &info), 0);
    assert_int_equal(info.blocks, 10);
    assert_int_equal(info.nodes, 4);
    assert_int_equal(info.content, 2);
    assert_true(info.density > 0.799 && info.density < 0.801);
    assert_int_equal(info.punct, 3);
    assert_ptr_equal(s.first, t1);
    assert_ptr_equal(s.last, t2);
    assert_ptr_equal(extract_span_holder(&s), story);
    char *text = picked_text(&s);
    assert_non_null(strstr(text, "The turbines began turning on Tuesday."));
    assert_non_null(strstr(text, "beneath it\nMore next year."));
    assert_null(strstr(text, "Home"));
    assert_null(strstr(text, "About"));
    free(text);
    extract_span_free(&s);
    dom_doc_free(d);
}

/* Fig. 2 by the letter, and fusion. A dense paragraph A (δ = 1), then three
 * short lines B (200px, δ 0.2), C (150px, 0.15), D (100px, 0.1), no links.
 * Without fusion (ε = 0): B is content (A before it is dense), C is noise
 * (B and D are not), D is noise (C is not, and nothing follows). With the
 * default ε = 0.1: B, C and D differ by at most 0.2 · 0.1 and fuse into one
 * node of δ (200 + 150) / 2000 = 0.175, content beside A. */
static void test_neighbour_rule_and_fusion(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    static const double wa[] = {1000, 1000, 500}, wb[] = {200}, wc[] = {150}, wd[] = {100};
    lines(d, el(d, body, "p", 0, 0, 1000, 60),
          "Alpha paragraph, first sentence. Second sentence; third sentence.", 0, wa, 3);
    lines(d, el(d, body, "p", 0, 60, 1000, 20), "Posted in News", 60, wb, 1);
    lines(d, el(d, body, "p", 0, 80, 1000, 20), "Share this story", 80, wc, 1);
    lines(d, el(d, body, "p", 0, 100, 1000, 20), "Tags none", 100, wd, 1);
    dom_doc_finish(d);

    extract_nodechar_params p;
    extract_nodechar_params_default(&p);
    p.epsilon = 0;
    extract_span s;
    extract_nodechar_info info;
    assert_int_equal(extract_nodechar(d, &p, &s, &info), 0);
    assert_int_equal(info.nodes, 4);
    assert_int_equal(info.content, 2);
    char *text = picked_text(&s);
    assert_non_null(strstr(text, "Posted in News"));
    assert_null(strstr(text, "Share this story"));
    assert_null(strstr(text, "Tags none"));
    free(text);
    extract_span_free(&s);

    p.epsilon = 0.1;
    assert_int_equal(extract_nodechar(d, &p, &s, &info), 0);
    assert_int_equal(info.nodes, 2);
    assert_int_equal(info.content, 2);
    text = picked_text(&s);
    assert_non_null(strstr(text, "Share this story\nTags none"));
    free(text);
    extract_span_free(&s);
    dom_doc_free(d);
}

/* Hyperlink density counts characters: a paragraph with a quarter of its
 * characters in links (θ = 5 / 20) is content, one with half (θ = 10 / 20)
 * is noise, however dense. */
static void test_link_density(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    static const double full[] = {1000, 1000, 600};
    lines(d, el(d, body, "p", 0, 0, 1000, 60), "Plain words, more words, and the end.", 0, full, 3);
    dom_node *p2 = el(d, body, "p", 0, 60, 1000, 60);
    lines(d, p2, "aaaaa bbbbb ccccc", 60, full, 3); /* 15 characters */
    link(d, p2, "ddddd", 0, 100, 100, 20);             /* 5 in a link */
    dom_node *p3 = el(d, body, "p", 0, 120, 1000, 60);
    lines(d, p3, "eeeee fffff", 120, full, 3);      /* 10 characters */
    link(d, p3, "ggggg hhhhh", 0, 160, 200, 20);      /* 10 in a link */
    dom_doc_finish(d);

    extract_nodechar_params p;
    extract_nodechar_params_default(&p);
    extract_span s;
    assert_int_equal(extract_nodechar(d, &p, &s, NULL), 0);
    char *text = picked_text(&s);
    assert_non_null(strstr(text, "aaaaa bbbbb ccccc"));
    assert_non_null(strstr(text, "ddddd"));
    assert_null(strstr(text, "eeeee"));
    assert_null(strstr(text, "ggggg"));
    free(text);
    extract_span_free(&s);
    dom_doc_free(d);
}

/* Any script: a Chinese paragraph (no spaces, full-width punctuation) is
 * measured by the width its characters cover (900px, the longest line of
 * the page: δ = 1) and its 。，？ count as punctuation. */
static void test_chinese(void **state)
{
    (void)state;
    const char *zh = "今天天气很好。我们去公园散步，好吗？";
    assert_int_equal(extract_count_chars(zh, strlen(zh)), 18);
    assert_int_equal(extract_count_punct(zh, strlen(zh)), 3);
    /* Arabic comma and question mark, Devanagari danda, ASCII. */
    const char *other = "\xd8\x8c \xd8\x9f \xe0\xa5\xa4 a, b.";
    assert_int_equal(extract_count_punct(other, strlen(other)), 5);

    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *nav = el(d, body, "ul", 0, 0, 1000, 40);
    link(d, el(d, nav, "li", 0, 0, 1000, 20), "首页", 0, 0, 40, 20);
    link(d, el(d, nav, "li", 0, 20, 1000, 20), "新闻", 0, 20, 40, 20);
    static const double w[] = {900};
    dom_node *t = lines(d, el(d, body, "p", 0, 40, 1000, 20), zh, 40, w, 1);
    dom_doc_finish(d);
    extract_nodechar_params p;
    extract_nodechar_params_default(&p);
    extract_span s;
    extract_nodechar_info info;
    assert_int_equal(extract_nodechar(d, &p, &s, &info), 0);
    assert_ptr_equal(s.first, t);
    assert_ptr_equal(s.last, t);
    assert_int_equal(info.punct, 3);
    assert_true(info.density > 0.999 && info.density < 1.001);
    extract_span_free(&s);
    dom_doc_free(d);
}

/* The result analyzer. A page of links has no content node at all; a dense
 * block with no punctuation fails the analyzer; either way the reason says
 * the page is a catalogue of links, and nothing is picked. */
static void test_catalogue_of_links(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    for (int i = 0; i < 6; i++)
        link(d, el(d, body, "div", 0, 20.0 * i, 1000, 20), "Section of the site", 0, 20.0 * i, 600, 20);
    dom_doc_finish(d);
    extract_nodechar_params p;
    extract_nodechar_params_default(&p);
    extract_span s;
    assert_int_equal(extract_nodechar(d, &p, &s, NULL), 1);
    assert_null(s.first);
    assert_null(s.picked);
    assert_non_null(strstr(s.failure, "catalogue of links"));
    dom_doc_free(d);

    d = dom_doc_new();
    body = page(d, 1000, 1000);
    static const double w[] = {1000, 1000, 800};
    lines(d, el(d, body, "div", 0, 0, 1000, 60), "Boats Nets Ropes Buoys Anchors Oars Sails", 0, w, 3);
    dom_doc_finish(d);
    extract_nodechar_info info;
    assert_int_equal(extract_nodechar(d, &p, &s, &info), 1);
    assert_int_equal(info.content, 1);
    assert_int_equal(info.punct, 0);
    assert_non_null(strstr(s.failure, "catalogue of links"));
    /* Asking for no punctuation lets it through. */
    p.min_punct = -1;
    assert_int_equal(extract_nodechar(d, &p, &s, &info), 0);
    extract_span_free(&s);
    dom_doc_free(d);

    d = dom_doc_new();
    page(d, 1000, 1000);
    dom_doc_finish(d);
    assert_int_equal(extract_nodechar(d, &p, &s, NULL), 1);
    assert_non_null(strstr(s.failure, "no displayed text"));
    dom_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_article_between_menus),
        cmocka_unit_test(test_neighbour_rule_and_fusion),
        cmocka_unit_test(test_link_density),
        cmocka_unit_test(test_chinese),
        cmocka_unit_test(test_catalogue_of_links),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
