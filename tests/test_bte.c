/* extract/bte: the maximum-sum stretch of words against tags, on trees
 * whose token counts can be read off by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"
#include "tree.h"

/* body > ul(5 links) + div > p(20 words) + p(12 words) + ul(3 links).
 * Tokens: the menu is tag-heavy (each li>a costs 4 tags for 1 word), the
 * article word-heavy; the best stretch is the two paragraphs. */
static void test_article_between_menus(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *menu = el(d, body, "ul", 0, 0, 1, 1);
    for (int i = 0; i < 5; i++)
        link(d, el(d, menu, "li", 0, 0, 1, 1), "Home", 0, 0, 1, 1);
    dom_node *div = el(d, body, "div", 0, 0, 1, 1);
    dom_node *p1 = el(d, div, "p", 0, 0, 1, 1);
    dom_node *t1 = txt(d, p1, "one two three four five six seven eight nine ten "
                              "eleven twelve thirteen fourteen fifteen sixteen seventeen "
                              "eighteen nineteen twenty", 0, 0, 1, 1);
    dom_node *p2 = el(d, div, "p", 0, 0, 1, 1);
    dom_node *t2 = txt(d, p2, "a b c d e f g h i j k l", 0, 0, 1, 1);
    dom_node *foot = el(d, body, "ul", 0, 0, 1, 1);
    for (int i = 0; i < 3; i++)
        link(d, el(d, foot, "li", 0, 0, 1, 1), "About", 0, 0, 1, 1);
    dom_doc_finish(d);

    extract_span s;
    assert_int_equal(extract_bte(d, &s), 0);
    assert_ptr_equal(s.first, t1);
    assert_ptr_equal(s.last, t2);
    /* 20 words, </p> <p> (2 tags), 12 words: 30. */
    assert_int_equal(s.score, 30);
    assert_ptr_equal(extract_span_holder(&s), div);
    char *text = extract_span_text(&s);
    assert_non_null(text);
    assert_true(strncmp(text, "one two three", 13) == 0);
    assert_non_null(strstr(text, "twenty\na b c"));
    assert_null(strstr(text, "Home"));
    free(text);
    dom_doc_free(d);
}

/* Japanese counts a word per character, so a short Japanese paragraph
 * outweighs a longer-looking run of tags; hidden text counts for nothing. */
static void test_unspaced_script_and_hidden_text(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *hidden = el(d, body, "div", 0, 0, 0, 0);
    hidden->hidden = DOM_HIDDEN_DISPLAY_NONE;
    txt(d, hidden, "many many many many many many many many many many words hidden here", 0, 0, 1, 1);
    dom_node *nav = el(d, body, "div", 0, 0, 1, 1);
    for (int i = 0; i < 4; i++)
        link(d, el(d, nav, "span", 0, 0, 1, 1), "x", 0, 0, 1, 1);
    dom_node *p = el(d, body, "p", 0, 0, 1, 1);
    dom_node *t = txt(d, p, "今日は晴れです", 0, 0, 1, 1); /* 7 characters, 7 words */
    dom_doc_finish(d);
    extract_span s;
    assert_int_equal(extract_bte(d, &s), 0);
    assert_ptr_equal(s.first, t);
    assert_ptr_equal(s.last, t);
    assert_int_equal(s.score, 7);
    dom_doc_free(d);
}

static void test_no_words(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    el(d, el(d, body, "div", 0, 0, 1, 1), "img", 0, 0, 1, 1);
    txt(d, body, "   \n ", 0, 0, 1, 1);
    dom_doc_finish(d);
    extract_span s;
    assert_int_equal(extract_bte(d, &s), 1);
    assert_null(s.first);
    assert_non_null(strstr(s.failure, "no displayed words"));
    char *text = extract_span_text(&s);
    assert_string_equal(text, "");
    free(text);
    dom_doc_free(d);
}

/* A page of links: the best stretch is link text only, which is no main
 * content; BTE says so rather than answer a menu. */
static void test_links_only(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    for (int k = 0; k < 3; k++) {
        dom_node *ul = el(d, body, "ul", 0, 0, 1, 1);
        for (int i = 0; i < 4; i++)
            link(d, el(d, ul, "li", 0, 0, 1, 1), "Local news from the harbour towns", 0, 0, 1, 1);
    }
    dom_doc_finish(d);
    extract_span s;
    assert_int_equal(extract_bte(d, &s), 1);
    assert_null(s.first);
    assert_non_null(strstr(s.failure, "link text only"));
    dom_doc_free(d);
}

/* The dense stretches inside one element. A byline (3 words inside 4
 * tags), a paragraph of 20 words, a gallery of three linked images (20
 * tags, no words), paragraphs of 15 and 5 words. Runs of the element's
 * tokens and their prefix sums:
 *   <div><div><span> -3 (-3), By Ann Lee +3 (0), </span></div><p> -3 (-3),
 *   p1 +20 (17), </p><ul>...</ul><p> -22 (-5), p2 +15 (10), </p><p> -2 (8),
 *   p3 +5 (13), </p></div> -2 (11).
 * Maximal stretches: the byline (3), p1 (20), p2 to p3 (18: p3 raises the
 * stretch of p2 across the two tags between them). At a share of 0.3 of the
 * best (6) the byline goes; at 0.1 it stays; at 1 only p1 is left. */
static void test_stretches(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *art = el(d, body, "div", 0, 0, 1, 1);
    dom_node *by = txt(d, el(d, el(d, art, "div", 0, 0, 1, 1), "span", 0, 0, 1, 1), "By Ann Lee",
                       0, 0, 1, 1);
    dom_node *t1 = txt(d, el(d, art, "p", 0, 0, 1, 1),
                       "one two three four five six seven eight nine ten eleven twelve thirteen "
                       "fourteen fifteen sixteen seventeen eighteen nineteen twenty", 0, 0, 1, 1);
    dom_node *gallery = el(d, art, "ul", 0, 0, 1, 1);
    for (int i = 0; i < 3; i++) {
        dom_node *a = el(d, el(d, gallery, "li", 0, 0, 1, 1), "a", 0, 0, 1, 1);
        dom_set_attr(d, a, "href", "/photo");
        el(d, a, "img", 0, 0, 1, 1);
    }
    dom_node *t2 = txt(d, el(d, art, "p", 0, 0, 1, 1),
                       "a b c d e f g h i j k l m n o", 0, 0, 1, 1);
    dom_node *t3 = txt(d, el(d, art, "p", 0, 0, 1, 1), "v w x y z", 0, 0, 1, 1);
    txt(d, el(d, body, "p", 0, 0, 1, 1), "outside the element", 0, 0, 1, 1);
    dom_doc_finish(d);

    extract_span s;
    assert_int_equal(extract_bte_stretches(d, art, NULL, NULL, 0.3, &s), 0);
    assert_ptr_equal(s.first, t1);
    assert_ptr_equal(s.last, t3);
    assert_int_equal(s.score, 38);
    assert_false(s.picked[by->index]);
    assert_true(s.picked[t1->index] && s.picked[t2->index] && s.picked[t3->index]);
    char *text = extract_span_text(&s);
    assert_non_null(strstr(text, "twenty\na b c"));
    assert_non_null(strstr(text, "o\nv w x y z"));
    assert_null(strstr(text, "Ann"));
    assert_null(strstr(text, "outside"));
    free(text);
    extract_span_free(&s);

    assert_int_equal(extract_bte_stretches(d, art, NULL, NULL, 0.1, &s), 0);
    assert_ptr_equal(s.first, by);
    assert_int_equal(s.score, 41);
    extract_span_free(&s);

    assert_int_equal(extract_bte_stretches(d, art, NULL, NULL, 1, &s), 0);
    assert_ptr_equal(s.first, t1);
    assert_ptr_equal(s.last, t1);
    assert_false(s.picked[t2->index]);
    extract_span_free(&s);

    /* An element with no words. */
    assert_int_equal(extract_bte_stretches(d, gallery, NULL, NULL, 0.3, &s), 1);
    assert_null(s.first);
    dom_doc_free(d);
}

/* Whether a span has text, as the methods whose text waits ask
 * (extract_span_has_text_kept): the same as whether its text is empty,
 * through spaces, no-break spaces, preformatted tabs and line ends, hidden
 * text and what a clean-up turns down. */
static int turn_down_aside(const dom_node *n, void *ctx)
{
    (void)ctx;
    return !dom_is_tag(n, "aside");
}

static void test_span_has_text(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *p = el(d, body, "p", 0, 0, 1, 1);
    dom_node *spaces = txt(d, p, "  \n\t ", 0, 0, 1, 1);
    dom_node *nbsp = txt(d, el(d, body, "p", 0, 0, 1, 1), "\xc2\xa0\xc2\xa0", 0, 0, 1, 1);
    dom_node *pre = el(d, body, "pre", 0, 0, 1, 1);
    dom_node *pre_nl = txt(d, pre, " \n \n", 0, 0, 1, 1);
    pre_nl->preformatted = 1;
    dom_node *pre2 = el(d, body, "pre", 0, 0, 1, 1);
    dom_node *pre_tab = txt(d, pre2, "\t", 0, 0, 1, 1);
    pre_tab->preformatted = 1;
    dom_node *hid = txt(d, el(d, body, "p", 0, 0, 1, 1), "hidden words", 0, 0, 1, 1);
    hid->hidden = DOM_HIDDEN_ZERO_SIZE;
    dom_node *aside = el(d, body, "aside", 0, 0, 1, 1);
    dom_node *aside_t = txt(d, aside, "turned down", 0, 0, 1, 1);
    dom_node *word = txt(d, el(d, body, "p", 0, 0, 1, 1), "word", 0, 0, 1, 1);
    dom_doc_finish(d);
    struct {
        const dom_node *first, *last;
        dom_keep_fn keep;
        int has;
    } cases[] = {
        {spaces, spaces, NULL, 0},        {spaces, nbsp, NULL, 0},
        {pre_nl, pre_nl, NULL, 0},        {pre_tab, pre_tab, NULL, 1},
        {hid, hid, NULL, 0},              {aside_t, aside_t, NULL, 1},
        {spaces, aside_t, turn_down_aside, 1}, {hid, aside_t, turn_down_aside, 0},
        {spaces, word, turn_down_aside, 1},
        {nbsp, word, NULL, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        extract_span s = {cases[i].first, cases[i].last, 0, NULL, 0, NULL};
        char *text = extract_span_text_kept(&s, cases[i].keep, NULL);
        assert_non_null(text);
        int has = extract_span_has_text_kept(&s, cases[i].keep, NULL);
        if (has != cases[i].has || has != (text[0] != '\0'))
            fail_msg("case %zu: has %d, wanted %d, text \"%s\"", i, has, cases[i].has, text);
        free(text);
    }
    dom_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_article_between_menus),
        cmocka_unit_test(test_unspaced_script_and_hidden_text),
        cmocka_unit_test(test_no_words),
        cmocka_unit_test(test_links_only),
        cmocka_unit_test(test_stretches),
        cmocka_unit_test(test_span_has_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
