/* extract/blocks: which blocks are side labels, on hand-built trees whose
 * boxes can be read off by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"
#include "tree.h"

/* The block whose first text starts with `text`, or fails. */
static size_t block_of(const extract_blocks *b, const char *text)
{
    for (size_t i = 0; i < b->n; i++) {
        const dom_node *t = b->texts[b->v[i].first];
        if (t->text_len >= strlen(text) && !strncmp(t->text, text, strlen(text)))
            return i;
    }
    fail_msg("no block starts with \"%s\"", text);
    return 0;
}

/* A line of a box 800px wide at x 100, its top at `y`: a heading at its
 * left, and at its right edge (a float, first in reading order) a label
 * from `label_x`: `plain` text, then `linked` text in a link (either may be
 * NULL), 8px a character. */
static void line_with_label(dom_doc *d, dom_node *body, double y, const char *heading,
                            const char *plain, const char *linked, double label_x)
{
    dom_node *box = el(d, body, "section", 100, y, 800, 24);
    dom_node *side = el(d, box, "div", label_x, y, 900 - label_x, 24);
    double x = label_x;
    if (plain) {
        txt(d, side, plain, x, y, 8.0 * (double)strlen(plain), 24);
        x += 8.0 * (double)strlen(plain);
    }
    if (linked)
        link(d, side, linked, x, y, 900 - x, 24);
    txt(d, el(d, box, "h4", 100, y, 400, 24), heading, 100, y, 300, 24);
    txt(d, el(d, body, "p", 100, y + 30, 800, 24),
        "The paragraph under the heading says what the method does.", 100, y + 30, 760, 24);
}

static void side_labels(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 2000);
    line_with_label(d, body, 0, "fn clone(&self)", NULL, "source", 852);
    line_with_label(d, body, 100, "fn fmt(&self)", "1.0.0 \xc2\xb7 ", "source", 772);
    line_with_label(d, body, 200, "fn eq(&self)", NULL,
                    "the source of this method, in the file that defines it", 468); /* long */
    line_with_label(d, body, 300, "fn hash(&self)", "3 days ago", NULL, 820); /* no link */
    line_with_label(d, body, 400, "fn cmp(&self)", "12 lines, ", "source", 732); /* half */

    /* A link in the middle of its line, after a heading. */
    dom_node *mid = el(d, body, "section", 100, 800, 800, 24);
    txt(d, el(d, mid, "h4", 100, 800, 400, 24), "fn max(&self)", 100, 800, 300, 24);
    link(d, el(d, mid, "div", 600, 800, 48, 24), "docs", 600, 800, 48, 24);

    /* A link set over the end of a line of text (positioned), not beside it. */
    dom_node *over = el(d, body, "section", 100, 900, 800, 48);
    txt(d, el(d, over, "p", 100, 900, 800, 48), "A line of text that runs the width of its box",
        100, 900, 800, 24);
    link(d, el(d, over, "div", 860, 900, 40, 24), "close", 860, 900, 40, 24);

    /* A link at the left of its line, after a heading at the right. */
    dom_node *box = el(d, body, "section", 100, 500, 800, 24);
    link(d, el(d, box, "div", 100, 500, 60, 24), "edit", 100, 500, 60, 24);
    txt(d, el(d, box, "h4", 500, 500, 400, 24), "fn ne(&self)", 500, 500, 300, 24);

    /* A row of two cards: the second's title, a short link, set at the
     * right of its card; the text to its left is in the first card. */
    dom_node *row = el(d, body, "div", 100, 600, 800, 100);
    dom_node *c1 = el(d, row, "div", 100, 600, 400, 100);
    txt(d, el(d, c1, "p", 100, 600, 400, 24), "The first card's teaser.", 100, 600, 380, 24);
    dom_node *c2 = el(d, row, "div", 500, 600, 400, 100);
    link(d, el(d, c2, "h3", 800, 600, 100, 24), "Second card", 800, 600, 100, 24);

    /* A table row: the last cell, a short link at the row's right edge. */
    dom_node *tr = el(d, el(d, body, "table", 100, 700, 800, 24), "tr", 100, 700, 800, 24);
    txt(d, el(d, tr, "td", 100, 700, 700, 24), "A topic of the forum", 100, 700, 300, 24);
    link(d, el(d, tr, "td", 800, 700, 100, 24), "12 replies", 800, 700, 100, 24);
    dom_doc_finish(d);

    extract_blocks b;
    assert_int_equal(extract_blocks_make(d, &b), 0);
    struct {
        const char *text;
        int label;
    } cases[] = {
        {"source", 1},     {"fn clone", 0}, {"1.0.0", 1},       {"the source of", 0},
        {"3 days ago", 0}, {"12 lines", 0}, {"edit", 0},        {"fn ne", 0},
        {"Second card", 0}, {"12 replies", 0}, {"docs", 0}, {"close", 0},
        {"The paragraph", 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t i = block_of(&b, cases[c].text);
        if (extract_block_side_label(&b, i) != cases[c].label)
            fail_msg("\"%s\": side label %d, wanted %d", cases[c].text, !cases[c].label,
                     cases[c].label);
    }
    extract_blocks_free(&b);
    dom_doc_free(d);
}

/* The features of a block against the page's headline and of the shapes
 * its ancestors repeat: three teasers (a linked title and a summary each,
 * `div class=item` in a list) above an article (its headline, the page's
 * title, and two paragraphs). */
static void headline_and_repetition(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 2000);
    dom_node *list = el(d, body, "div", 100, 0, 800, 300);
    dom_set_attr(d, list, "class", "list");
    for (int i = 0; i < 3; i++) {
        double y = 100.0 * i;
        dom_node *item = el(d, list, "div", 100, y, 800, 100);
        dom_set_attr(d, item, "class", "item");
        link(d, el(d, item, "h3", 100, y, 800, 24), "Another story of the day", 100, y, 400, 24);
        txt(d, el(d, item, "p", 100, y + 30, 800, 48),
            "The summary of another story, two lines of it under its title.", 100, y + 30, 800,
            48);
    }
    dom_node *art = el(d, body, "div", 100, 400, 800, 400);
    dom_set_attr(d, art, "class", "article");
    txt(d, el(d, art, "h1", 100, 400, 800, 40), "A meteorite fell near her house", 100, 400, 600,
        40);
    txt(d, el(d, art, "p", 120, 460, 780, 48),
        "The first paragraph of the article, as long as a paragraph is.", 120, 460, 780, 48);
    txt(d, el(d, art, "p", 120, 520, 780, 48),
        "The second paragraph of the article, which ends the story.", 120, 520, 780, 48);
    dom_doc_finish(d);

    extract_blocks b;
    assert_int_equal(extract_blocks_make(d, &b), 0);
    float *f = calloc(b.n * EXTRACT_N_FEATURES, sizeof *f);
    assert_non_null(f);
    assert_int_equal(extract_block_features(d, &b, 1000, 1000, "A meteorite fell near her house",
                                            f, EXTRACT_N_FEATURES),
                     0);
#define F(i, name) f[(i) * EXTRACT_N_FEATURES + EXTRACT_F_##name]
    size_t head = block_of(&b, "A meteorite"), para = block_of(&b, "The first paragraph"),
           teaser = block_of(&b, "The summary"), title = block_of(&b, "Another story");
    for (size_t i = 0; i < b.n; i++)
        assert_true(F(i, head_none) == 0);
    assert_true(F(head, head_rel) == 0 && F(head, head_dy) == 0 && F(head, head_up) == 0);
    /* The paragraph after it, 60 px down in a window of 1 000, 20 px to the
     * right; its container's parent holds the headline: a step up. */
    assert_true(F(para, head_rel) > 0);
    assert_float_equal(F(para, head_dy), 0.06, 1e-6);
    assert_float_equal(F(para, head_dx), 0.02, 1e-6);
    assert_float_equal(F(para, head_up), 1.0 / 20, 1e-6);
    /* A summary above it: before, higher up, three steps (p, item, list) up
     * to the body. */
    assert_true(F(teaser, head_rel) < 0 && F(teaser, head_dy) < 0);
    assert_float_equal(F(teaser, head_up), 3.0 / 20, 1e-6);
    /* Its item repeats twice beside it, a level above its container: the
     * three items hold the titles and summaries, half their characters in
     * links. The article's paragraphs repeat nothing within four levels
     * (a pair of paragraphs is not a list). */
    assert_float_equal(F(teaser, rep_count), logf(3), 1e-6);
    assert_float_equal(F(teaser, rep_level), 0.25, 1e-6);
    assert_float_equal(F(title, rep_level), 0.25, 1e-6);
    long items = 3 * (b.v[teaser].counts.chars + b.v[title].counts.chars);
    assert_float_equal(F(teaser, rep_share), (double)items / (double)b.chars, 1e-6);
    assert_float_equal(F(teaser, rep_links), (double)(3 * b.v[title].counts.chars) / items,
                       1e-6);
    assert_true(F(para, rep_count) == 0 && F(para, rep_level) == 1);

    /* Without a title, or with one no block is most of, no headline. */
    const char *titles[] = {NULL, "A meteorite fell near her house, and what she will do with it "
                                  "now that the museum has said it wants to buy it"};
    for (int t = 0; t < 2; t++) {
        assert_int_equal(
            extract_block_features(d, &b, 1000, 1000, titles[t], f, EXTRACT_N_FEATURES), 0);
        for (size_t i = 0; i < b.n; i++)
            assert_true(F(i, head_none) == 1 && F(i, head_rel) == 0 && F(i, head_up) == 0);
    }
#undef F
    free(f);
    extract_blocks_free(&b);
    dom_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(side_labels),
        cmocka_unit_test(headline_and_repetition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
