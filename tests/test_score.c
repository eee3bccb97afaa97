/* methods/score: the model shipped reads the features the code computes,
 * by name and in order, in both stages; and the features a block gets from
 * the rest of the page (blocks of its shape, of its text, the page's links,
 * its place under the headline) are what a reader counts on the page. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"
#include "glance.h"
#include "methods/score_model.h"
#include "tree.h"

static void model_reads_the_code_features(void **state)
{
    (void)state;
    const score_model *m[2] = {&score_model_default, &score_model_stage2};
    size_t n = score_feature_count();
    assert_true(n > 0);
    /* Stage one reads a prefix of them, stage two all of them. */
    assert_true(m[0]->n_features > 0 && m[0]->n_features < n);
    assert_int_equal(m[1]->n_features, n);
    for (int k = 0; k < 2; k++) {
        assert_true(m[k]->n_trees > 0);
        for (size_t i = 0; i < m[k]->n_features; i++)
            if (strcmp(m[k]->features[i], score_feature_name(i)) != 0)
                fail_msg("stage %d feature %zu: the model reads \"%s\", the code computes \"%s\"",
                         k + 1, i, m[k]->features[i], score_feature_name(i));
        /* Every tree's nodes point inside the forest, and every inner node
         * reads a feature the stage has. */
        for (size_t t = 0; t < m[k]->n_trees; t++) {
            int32_t stack[64], top = 0;
            stack[top++] = m[k]->roots[t];
            while (top > 0) {
                const score_node *nd = &m[k]->nodes[stack[--top]];
                if (nd->feature < 0)
                    continue;
                assert_true((size_t)nd->feature < m[k]->n_features);
                assert_true(top + 2 <= 64);
                stack[top++] = nd->left;
                stack[top++] = nd->right;
            }
        }
    }
    assert_null(score_feature_name(n));
}

/* A headline, a menu of three items of one shape, two paragraphs and a
 * "Share" line twice: what each block is told of the others. */
static void features_from_the_page_around(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *html = el(d, NULL, "html", 0, 0, 1000, 2000);
    dom_doc_set_root(d, html);
    dom_doc_set_size(d, 1000, 2000);
    dom_node *body = el(d, html, "body", 0, 0, 1000, 2000);
    dom_node *ul = el(d, body, "ul", 0, 0, 1000, 60);
    dom_set_attr(d, ul, "class", "menu");
    static const char *const items[] = {"One", "Two", "Three"};
    for (int i = 0; i < 3; i++) {
        dom_node *li = el(d, ul, "li", 0, 20.0 * i, 100, 20);
        dom_set_attr(d, li, "class", "item");
        link(d, el(d, li, "a", 0, 20.0 * i, 100, 20), items[i], 0, 20.0 * i, 50, 20);
    }
    dom_node *h1 = el(d, body, "h1", 0, 100, 1000, 40);
    txt(d, h1, "The headline", 0, 100, 400, 40);
    dom_node *p1 = el(d, body, "p", 0, 300, 1000, 20);
    txt(d, p1, "A first paragraph of the article.", 0, 300, 900, 20);
    dom_node *s1 = el(d, body, "p", 0, 400, 1000, 20);
    txt(d, s1, "Share", 0, 400, 50, 20);
    dom_node *p2 = el(d, body, "p", 0, 500, 1000, 20);
    txt(d, p2, "A second one.", 0, 500, 300, 20);
    dom_node *s2 = el(d, body, "div", 0, 600, 1000, 20);
    txt(d, s2, "Share", 0, 600, 50, 20);
    dom_doc_finish(d);

    extract_blocks b = {0};
    assert_int_equal(extract_blocks_make(d, &b), 0);
    assert_int_equal(b.n, 8);
    float *f = calloc(b.n * EXTRACT_N_FEATURES, sizeof *f);
    assert_non_null(f);
    assert_int_equal(extract_block_features(d, &b, 1000, 1000, "", f, EXTRACT_N_FEATURES), 0);
#define F(i, name) f[(i) * EXTRACT_N_FEATURES + EXTRACT_F_##name]
    /* The menu's items share their shape (li.item in ul.menu); the
     * paragraphs share theirs (p in body), the last "Share" (a div) none. */
    for (int i = 0; i < 3; i++)
        assert_float_equal(F(i, same_shape), log(3), 1e-6);
    assert_float_equal(F(3, same_shape), 0, 1e-6);
    assert_float_equal(F(4, same_shape), log(3), 1e-6);
    assert_float_equal(F(7, same_shape), 0, 1e-6);
    /* "Share" is there twice; every other text once. */
    assert_float_equal(F(5, same_text), log(2), 1e-6);
    assert_float_equal(F(7, same_text), log(2), 1e-6);
    assert_float_equal(F(4, same_text), 0, 1e-6);
    /* The links are the menu's 11 characters of the page's 73. */
    long all = 0;
    for (size_t i = 0; i < b.n; i++)
        all += b.v[i].counts.chars;
    assert_float_equal(F(0, page_links), 11.0 / (double)all, 1e-6);
    /* Under the headline, in windows: the menu above it, the paragraph
     * 200 px below in a 1000 px window. */
    assert_float_equal(F(3, below_head), 0, 1e-6);
    assert_float_equal(F(0, below_head), -0.1, 1e-6);
    assert_float_equal(F(4, below_head), 0.2, 1e-6);
#undef F
    free(f);
    extract_blocks_free(&b);
    dom_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_reads_the_code_features),
        cmocka_unit_test(features_from_the_page_around),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
