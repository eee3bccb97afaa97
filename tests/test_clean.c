/* extract/clean: what the clean-up inside the chosen node leaves out, one
 * kind of block at a time, and what it keeps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"
#include "tree.h"

static char *cleaned(dom_doc *d, const dom_node *top, double share)
{
    extract_cleaner *c = extract_cleaner_new(d, share, NULL);
    assert_non_null(c);
    char *t = dom_to_text_kept(top, extract_cleaner_keep, c, NULL);
    assert_non_null(t);
    extract_cleaner_free(c);
    return t;
}

static void test_each_removed_kind(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *main = el(d, body, "div", 0, 0, 1, 1);
    txt(d, el(d, main, "p", 0, 0, 1, 1), "The story begins here.", 0, 0, 1, 1);
    /* A paragraph with one link among many words stays. */
    dom_node *p2 = el(d, main, "p", 0, 0, 1, 1);
    txt(d, p2, "It goes on, as the ", 0, 0, 1, 1);
    link(d, p2, "council said", 0, 0, 1, 1);
    txt(d, p2, " on Tuesday, for a while longer.", 0, 0, 1, 1);
    /* A list of links (share row, related articles): link text only. */
    dom_node *ul = el(d, main, "ul", 0, 0, 1, 1);
    link(d, el(d, ul, "li", 0, 0, 1, 1), "Share on a network", 0, 0, 1, 1);
    link(d, el(d, ul, "li", 0, 0, 1, 1), "Another story to read", 0, 0, 1, 1);
    /* A block that is mostly link text with a little other text. */
    dom_node *tags = el(d, main, "div", 0, 0, 1, 1);
    txt(d, tags, "Tags: ", 0, 0, 1, 1);
    link(d, tags, "harbour energy tides", 0, 0, 1, 1);
    /* Navigation, complementary content, a footer, a form: by their meaning. */
    txt(d, el(d, main, "nav", 0, 0, 1, 1), "Previous article", 0, 0, 1, 1);
    txt(d, el(d, main, "aside", 0, 0, 1, 1), "Pull quote in a box", 0, 0, 1, 1);
    txt(d, el(d, main, "footer", 0, 0, 1, 1), "Posted in News", 0, 0, 1, 1);
    dom_node *form = el(d, main, "form", 0, 0, 1, 1);
    txt(d, el(d, form, "label", 0, 0, 1, 1), "Your email", 0, 0, 1, 1);
    el(d, form, "input", 0, 0, 1, 1);
    /* Reader comments, as the page's markup names them (a class or id
     * starting with "comment", or Disqus's thread), in any language; a
     * class that only mentions comments further in does not count. */
    dom_node *comments = el(d, main, "div", 0, 0, 1, 1);
    dom_set_attr(d, comments, "class", "post-comments comments-area");
    dom_node *one = el(d, comments, "div", 0, 0, 1, 1);
    txt(d, el(d, one, "p", 0, 0, 1, 1), "Great article, thanks for writing it!", 0, 0, 1, 1);
    dom_set_attr(d, el(d, main, "div", 0, 0, 1, 1), "id", "disqus_thread");
    txt(d, main->last_child, "Leserkommentar: sehr gut", 0, 0, 1, 1);
    dom_node *has = el(d, main, "p", 0, 0, 1, 1);
    dom_set_attr(d, has, "class", "note has-comments");
    txt(d, has, "The end.", 0, 0, 1, 1);
    dom_doc_finish(d);

    char *t = cleaned(d, main, 0.5);
    assert_string_equal(t, "The story begins here.\n\n"
                           "It goes on, as the council said on Tuesday, for a while longer.\n\n"
                           "The end.");
    free(t);
    /* Without the clean-up everything is there. */
    t = dom_to_text(main, NULL);
    assert_non_null(strstr(t, "Share on a network"));
    assert_non_null(strstr(t, "Tags: harbour"));
    assert_non_null(strstr(t, "Previous article"));
    assert_non_null(strstr(t, "Your email"));
    assert_non_null(strstr(t, "Great article"));
    assert_non_null(strstr(t, "Leserkommentar"));
    free(t);
    /* A share of 1 keeps blocks however many links they hold (not the
     * elements dropped for what they are). */
    t = cleaned(d, main, 1.0);
    assert_non_null(strstr(t, "Share on a network"));
    assert_null(strstr(t, "Previous article"));
    free(t);
    dom_doc_free(d);
}

/* The node the clean-up is asked about is never dropped itself: a chosen
 * node that is all links still gives its text. */
static void test_top_is_kept(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *list = el(d, body, "ul", 0, 0, 1, 1);
    link(d, el(d, list, "li", 0, 0, 1, 1), "only links here", 0, 0, 1, 1);
    txt(d, el(d, list, "li", 0, 0, 1, 1), "and a plain item", 0, 0, 1, 1);
    dom_doc_finish(d);
    char *t = cleaned(d, list, 0.5);
    /* The first item is all link and goes; the list itself stays, its
     * item with its marker. */
    assert_string_equal(t, "- and a plain item");
    free(t);
    dom_doc_free(d);
}

/* The headline is the page's title, reported apart: a heading whose text
 * is part of <title> leaves the text; other headings stay. */
static void test_headline_in_title(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *art = el(d, body, "article", 0, 0, 1, 1);
    txt(d, el(d, art, "h1", 0, 0, 1, 1), "Harbour opens tidal station", 0, 0, 1, 1);
    txt(d, el(d, art, "p", 0, 0, 1, 1), "The turbines turned.", 0, 0, 1, 1);
    txt(d, el(d, art, "h2", 0, 0, 1, 1), "What comes next", 0, 0, 1, 1);
    txt(d, el(d, art, "p", 0, 0, 1, 1), "Two more harbours.", 0, 0, 1, 1);
    dom_doc_finish(d);
    extract_cleaner *c = extract_cleaner_new(d, 0.5, "Harbour opens tidal station | The Ledger");
    assert_non_null(c);
    char *t = dom_to_text_kept(art, extract_cleaner_keep, c, NULL);
    assert_string_equal(t, "The turbines turned.\n\nWhat comes next\n\nTwo more harbours.");
    free(t);
    extract_cleaner_free(c);
    /* No title, or one too short to tell: the headline stays. */
    c = extract_cleaner_new(d, 0.5, "Ledger");
    t = dom_to_text_kept(art, extract_cleaner_keep, c, NULL);
    assert_true(strncmp(t, "Harbour opens tidal station", 27) == 0);
    free(t);
    extract_cleaner_free(c);
    dom_doc_free(d);
}

/* A wrapper holding the article beside a bigger menu is link-heavy too,
 * but it is not dropped: its own words are the article (over 400 bytes of
 * text outside links). The menu inside it still goes. */
static void test_wrapper_with_article_kept(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *wrap = el(d, body, "div", 0, 0, 1, 1);
    dom_node *menu = el(d, wrap, "ul", 0, 0, 1, 1);
    char item[64];
    for (int i = 0; i < 60; i++) {
        snprintf(item, sizeof item, "Section number %d of the site", i);
        link(d, el(d, menu, "li", 0, 0, 1, 1), item, 0, 0, 1, 1);
    }
    dom_node *story = el(d, wrap, "div", 0, 0, 1, 1);
    for (int i = 0; i < 8; i++)
        txt(d, el(d, story, "p", 0, 0, 1, 1),
            "A paragraph of the story, long enough to be a paragraph of a story.", 0, 0, 1, 1);
    dom_doc_finish(d);
    char *t = cleaned(d, body, 0.5);
    assert_non_null(strstr(t, "A paragraph of the story"));
    assert_null(strstr(t, "Section number"));
    free(t);
    dom_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_removed_kind),
        cmocka_unit_test(test_top_is_kept),
        cmocka_unit_test(test_headline_in_title),
        cmocka_unit_test(test_wrapper_with_article_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
