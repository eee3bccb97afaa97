/* extract/danag: content and code per line of the normalised
 * serialisation, the smoothing of formula (1) and the growth across gaps
 * (paper 004), on trees whose lines can be written out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"
#include "tree.h"

/* A string of n copies of c. */
static char *repeat(char c, size_t n)
{
    char *s = malloc(n + 1);
    assert_non_null(s);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

static dom_node *a_href(dom_doc *d, dom_node *parent, const char *href, const char *text)
{
    dom_node *a = el(d, parent, "a", 0, 0, 1, 1);
    dom_set_attr(d, a, "href", href);
    txt(d, a, text, 0, 0, 1, 1);
    return a;
}

/* The page, one line per block (T1 content, T2 code, T1 - T2):
 *   0  <body>                                      0   6    -6
 *   1  <ul>                                        0   4    -4
 *   2  <li><a href="/news">News</a></li>           4  29   -25
 *   3  <li><a href="/sport">Sport</a></li>         5  30   -25
 *   4  <li><a href="/weather">Weather</a></li>     7  32   -25
 *   5  </ul>                                       0   5    -5
 *   6  <div id="story">                            0  16   -16
 *   7  <p>200 characters</p>                     200   7   193
 *   8  <p>150 characters</p>                     150   7   143
 *   9  </div>                                      0   6    -6
 *  10  <ul>                                        0   4    -4
 *  11  <li><a href="/about">About</a></li>         5  30   -25
 *  12  <li><a href="/jobs">Jobs</a></li>           4  29   -25
 *  13  </ul>                                       0   5    -5
 *  14  </body>                                     0   7    -7
 * diff over i-1..i+1: line 5 -46, 6 172, 7 320, 8 330, 9 133, 10 -35, the
 * rest below 0. One run above the axis, lines 6-9: the two paragraphs. */
static void test_lines_and_smoothing(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *ul = el(d, body, "ul", 0, 0, 1, 1);
    a_href(d, el(d, ul, "li", 0, 0, 1, 1), "/news", "News");
    a_href(d, el(d, ul, "li", 0, 0, 1, 1), "/sport", "Sport");
    a_href(d, el(d, ul, "li", 0, 0, 1, 1), "/weather", "Weather");
    dom_node *story = el(d, body, "div", 0, 0, 1, 1);
    dom_set_attr(d, story, "id", "story");
    char *c200 = repeat('x', 200), *c150 = repeat('y', 150);
    dom_node *t1 = txt(d, el(d, story, "p", 0, 0, 1, 1), c200, 0, 0, 1, 1);
    dom_node *t2 = txt(d, el(d, story, "p", 0, 0, 1, 1), c150, 0, 0, 1, 1);
    ul = el(d, body, "ul", 0, 0, 1, 1);
    a_href(d, el(d, ul, "li", 0, 0, 1, 1), "/about", "About");
    a_href(d, el(d, ul, "li", 0, 0, 1, 1), "/jobs", "Jobs");
    dom_doc_finish(d);

    extract_danag_params p;
    extract_danag_params_default(&p);
    assert_int_equal(p.gap, 20);
    assert_int_equal(p.radius, 1);
    extract_span s;
    extract_danag_info info;
    assert_int_equal(extract_danag(d, &p, &s, &info), 0);
    assert_int_equal(info.lines, 15);
    assert_int_equal(info.seed_first, 6);
    assert_int_equal(info.seed_last, 9);
    assert_int_equal(info.area_first, 6);
    assert_int_equal(info.area_last, 9);
    assert_int_equal(s.score, 350);
    assert_ptr_equal(s.first, t1);
    assert_ptr_equal(s.last, t2);
    assert_null(s.picked);
    assert_ptr_equal(extract_span_holder(&s), story);

    /* Without smoothing (r = 0) the same two lines are the run. */
    p.radius = 0;
    assert_int_equal(extract_danag(d, &p, &s, &info), 0);
    assert_int_equal(info.seed_first, 7);
    assert_int_equal(info.seed_last, 8);
    free(c200);
    free(c150);
    dom_doc_free(d);
}

/* The gap. A paragraph of 300 characters, 25 empty <div>s (a line of code
 * each, 11 characters), a paragraph of 100:
 *   0 <body> (0, 6)   1 <p>A</p> (300, 7)   2-26 <div></div> (0, 11)
 *   27 <p>B</p> (100, 7)   28 </body> (0, 7)
 * Runs above the axis: lines 0-2 (diff 287, 276, 271; content 300) and
 * 26-28 (71, 75, 86; content 100). 23 lines lie between them: with a gap of
 * 20 the main area is the first run alone; with 23 it takes in the second. */
static void test_gap(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    char *a = repeat('a', 300), *b = repeat('b', 100);
    dom_node *ta = txt(d, el(d, body, "p", 0, 0, 1, 1), a, 0, 0, 1, 1);
    for (int i = 0; i < 25; i++)
        el(d, body, "div", 0, 0, 1, 1);
    dom_node *tb = txt(d, el(d, body, "p", 0, 0, 1, 1), b, 0, 0, 1, 1);
    dom_doc_finish(d);

    extract_danag_params p;
    extract_danag_params_default(&p);
    extract_span s;
    extract_danag_info info;
    assert_int_equal(extract_danag(d, &p, &s, &info), 0);
    assert_int_equal(info.lines, 29);
    assert_int_equal(info.seed_first, 0);
    assert_int_equal(info.seed_last, 2);
    assert_int_equal(info.area_last, 2);
    assert_ptr_equal(s.first, ta);
    assert_ptr_equal(s.last, ta);

    p.gap = 23;
    assert_int_equal(extract_danag(d, &p, &s, &info), 0);
    assert_int_equal(info.area_first, 0);
    assert_int_equal(info.area_last, 28);
    assert_ptr_equal(s.last, tb);
    free(a);
    free(b);
    dom_doc_free(d);
}

/* Content counts characters, any script: 30 Chinese characters outweigh
 * the 7 characters of <p></p>, while a menu of two-character links (less
 * text than markup) stays out. A page of links only has no line where
 * content outweighs code; an empty page has no text at all. */
static void test_chinese_and_links_only(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *ul = el(d, body, "ul", 0, 0, 1, 1);
    for (int i = 0; i < 6; i++)
        a_href(d, el(d, ul, "li", 0, 0, 1, 1), "/news/local", "新闻");
    const char *zh = "经过两年多的改造，位于老城区河边的市立图书馆重新开放。";
    dom_node *t = txt(d, el(d, body, "p", 0, 0, 1, 1), zh, 0, 0, 1, 1);
    for (int i = 0; i < 6; i++)
        a_href(d, el(d, ul, "li", 0, 0, 1, 1), "/culture/books", "文化");
    dom_doc_finish(d);
    extract_danag_params p;
    extract_danag_params_default(&p);
    extract_span s;
    assert_int_equal(extract_danag(d, &p, &s, NULL), 0);
    assert_ptr_equal(s.first, t);
    assert_ptr_equal(s.last, t);
    assert_int_equal(s.score, 27);
    dom_doc_free(d);

    d = dom_doc_new();
    body = page(d, 1000, 1000);
    ul = el(d, body, "ul", 0, 0, 1, 1);
    for (int i = 0; i < 10; i++)
        a_href(d, el(d, ul, "li", 0, 0, 1, 1), "/section", "Local news");
    dom_doc_finish(d);
    assert_int_equal(extract_danag(d, &p, &s, NULL), 1);
    assert_null(s.first);
    assert_non_null(strstr(s.failure, "no line where content outweighs code"));
    dom_doc_free(d);

    d = dom_doc_new();
    page(d, 1000, 1000);
    dom_doc_finish(d);
    assert_int_equal(extract_danag(d, &p, &s, NULL), 1);
    assert_non_null(strstr(s.failure, "no displayed text"));
    dom_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_and_smoothing),
        cmocka_unit_test(test_gap),
        cmocka_unit_test(test_chinese_and_links_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
