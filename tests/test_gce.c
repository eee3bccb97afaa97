/* gce/: every step of the method on hand-built trees whose numbers can be
 * worked out on paper (paper 002, section III; DESIGN.md "GCE"). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "gce/gce.h"
#include "tree.h"

#define assert_near(a, b) assert_true(fabs((double)(a) - (double)(b)) < 0.01)

static void test_link_area_density(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 1000);
    dom_node *div = el(d, body, "div", 0, 0, 400, 100);
    dom_node *ul = el(d, div, "ul", 0, 0, 400, 20);
    dom_node *li = el(d, ul, "li", 0, 0, 400, 20);
    dom_node *a1 = link(d, li, "Home", 0, 0, 100, 20);
    dom_node *p = el(d, div, "p", 0, 20, 400, 80);
    dom_node *see = txt(d, p, "see ", 0, 20, 40, 20);
    link(d, p, "this", 40, 20, 60, 20);
    dom_node *a_no_href = el(d, p, "a", 100, 20, 50, 20);
    txt(d, a_no_href, "anchor", 100, 20, 50, 20);
    dom_doc_finish(d);

    int n = -1;
    /* <li> holding only the link is a link container (400x20 = 8000), as is
     * the <ul> around it, which counts once; the link inside the paragraph
     * counts 60x20 = 1200; an <a> without href is no link. */
    assert_near(gce_link_area_density(div, &n), (8000.0 + 1200.0) / 40000.0);
    assert_int_equal(n, 2);
    assert_near(gce_link_area_density(li, NULL), 1.0);
    assert_near(gce_link_area_density(a1, NULL), 1.0);
    assert_near(gce_link_area_density(p, &n), 1200.0 / 32000.0);
    assert_int_equal(n, 1);
    assert_near(gce_link_area_density(a_no_href, &n), 0);
    assert_int_equal(n, 0);

    unsigned char *high = gce_mark_high_link(d, 0.5, 0.9);
    assert_non_null(high);
    assert_true(high[a1->first_child->index]);  /* "Home" */
    assert_false(high[see->index]);             /* "see " */
    assert_true(high[see->next->first_child->index]); /* "this" */
    assert_false(high[a_no_href->first_child->index]);
    /* D_t(p): only the low-link text counts, "see " (800) and "anchor" (1000). */
    assert_near(gce_text_area_density(p, high), 1800.0 / 32000.0);
    free(high);
    dom_doc_free(d);
}

static void test_point_box_distance(void **state)
{
    (void)state;
    dom_box b = {100, 100, 50, 50};
    assert_near(gce_point_box_distance((gce_point){120, 120}, b), 0);
    assert_near(gce_point_box_distance((gce_point){90, 120}, b), 10);
    assert_near(gce_point_box_distance((gce_point){153, 154}, b), 5);
}

/* A tall page with one paragraph in the middle column. */
static dom_doc *tall_page(double height, dom_node **body_out)
{
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1920, height);
    dom_node *main = el(d, body, "div", 400, 100, 1000, height - 200);
    dom_node *p = el(d, main, "p", 400, 100, 1000, 600);
    txt(d, p, "words", 400, 100, 1000, 600);
    dom_doc_finish(d);
    if (body_out)
        *body_out = body;
    return d;
}

static void test_fia_and_grid(void **state)
{
    (void)state;
    gce_params p;
    gce_params_default(&p);
    assert_int_equal(p.window_w, 1920);
    assert_int_equal(p.grid_rows, 7);
    assert_int_equal(p.grid_cols, 8);
    assert_near(p.alpha, 2);
    assert_near(p.beta, 0.5);
    assert_near(p.dw, 1.7);

    /* 5000 px tall: the FIA is 1920 x min(2 * 1080, 5000) = 2160; cells are
     * 240 x 154.29, so the FIA has ceil(2160 / 154.29) = 14 rows; the outer
     * ring is 14*8 - 12*6 = 40 cells. */
    dom_doc *d = tall_page(5000, NULL);
    gce_result r;
    assert_int_equal(gce_run(d, &p, &r), 0);
    assert_near(r.fia.h, 2160);
    assert_near(r.fia.w, 1920);
    assert_int_equal(r.rows, 14);
    assert_int_equal(r.cols, 8);
    assert_near(r.cell_w, 240);
    assert_near(r.cell_h, 1080.0 / 7);
    int edge = 0;
    for (int i = 0; i < r.rows * r.cols; i++)
        edge += r.cells[i] == GCE_CELL_EDGE;
    assert_int_equal(edge, 40);
    assert_int_equal(r.n_kept, 72);
    /* C1: inner columns 1..6 and rows 1..12, whose centres average to
     * (4 * 240, 7 * 154.29) = (960, 1080). C2 adds C_w = (960, 540); C3
     * also C_d = (960, 2500). */
    assert_near(r.centres[0].x, 960);
    assert_near(r.centres[0].y, 1080);
    assert_near(r.centres[1].y, (72 * 1080 + 540) / 73.0);
    assert_near(r.centres[2].y, (72 * 1080 + 540 + 2500) / 74.0);
    assert_near(r.document_centre.y, 2500);
    gce_result_free(&r);
    dom_doc_free(d);

    /* Shorter than the window: the FIA is the window, 7 rows. */
    d = tall_page(800, NULL);
    gce_run(d, &p, &r);
    assert_near(r.fia.h, 1080);
    assert_int_equal(r.rows, 7);
    assert_int_equal(r.n_kept, 5 * 6);
    gce_result_free(&r);
    dom_doc_free(d);

    /* alpha 1.5 on a 5000 px page: 1620 px, ceil(10.5) = 11 rows. */
    p.alpha = 1.5;
    d = tall_page(5000, NULL);
    gce_run(d, &p, &r);
    assert_near(r.fia.h, 1620);
    assert_int_equal(r.rows, 11);
    gce_result_free(&r);
    dom_doc_free(d);
}

static void test_dense_link_area_excludes_cells(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1920, 5000);
    dom_node *main = el(d, body, "div", 240, 100, 1100, 3000);
    dom_node *p = el(d, main, "p", 240, 100, 1100, 600);
    txt(d, p, "words", 240, 100, 1100, 600);
    /* A paragraph with one inline link: D_l of the link is 1, but one link
     * is no dense link *area*, so it excludes nothing. */
    dom_node *p2 = el(d, main, "p", 240, 800, 1100, 40);
    link(d, p2, "one link", 240, 800, 1100, 40);
    /* The rail: 12 items of 480x150 over 480x2000, D_l = 0.9, in column 6
     * (x 1440..1680) and the edge column 7. */
    dom_node *rail = el(d, body, "ul", 1440, 0, 480, 2000);
    for (int i = 0; i < 12; i++) {
        dom_node *li = el(d, rail, "li", 1440, i * 160, 480, 150);
        link(d, li, "elsewhere", 1440, i * 160, 480, 150);
    }
    dom_doc_finish(d);
    gce_params prm;
    gce_params_default(&prm);
    gce_result r;
    assert_int_equal(gce_run(d, &prm, &r), 0);
    int link = 0;
    for (int y = 0; y < r.rows; y++)
        for (int x = 0; x < r.cols; x++)
            if (r.cells[y * r.cols + x] == GCE_CELL_LINK) {
                link++;
                assert_int_equal(x, 6);
            }
    /* Rows 1..12 of column 6 lie under the rail (0..2000 covers rows 0..12). */
    assert_int_equal(link, 12);
    assert_int_equal(r.n_kept, 60);
    assert_near(r.centres[0].x, 3.5 * 240); /* columns 1..5 */
    gce_result_free(&r);

    /* With the rule off (min links 100), the rail excludes nothing. */
    prm.link_area_min_links = 100;
    assert_int_equal(gce_run(d, &prm, &r), 0);
    assert_int_equal(r.n_kept, 72);
    gce_result_free(&r);
    dom_doc_free(d);
}

/* body > wrap(1920) > header(links) + main(1100 wide) > [article(400 high) > p] + p ... */
static dom_doc *article_page(dom_node **main_out, dom_node **wrap_out, dom_node **art_out)
{
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1920, 3000);
    dom_node *wrap = el(d, body, "div", 0, 0, 1920, 3000);
    dom_node *header = el(d, wrap, "div", 0, 0, 1920, 100);
    for (int i = 0; i < 5; i++)
        link(d, header, "menu", i * 200, 0, 180, 100);
    dom_node *main = el(d, wrap, "div", 410, 150, 1100, 2000);
    dom_set_attr(d, main, "id", "main");
    dom_node *art = el(d, main, "article", 410, 150, 1100, 400);
    dom_node *p = el(d, art, "p", 410, 150, 1100, 400);
    txt(d, p, "the story", 410, 150, 1100, 400);
    for (int i = 0; i < 4; i++) {
        dom_node *q = el(d, main, "p", 410, 600 + i * 300, 1100, 280);
        txt(d, q, "more of it", 410, 600 + i * 300, 1100, 280);
    }
    dom_doc_finish(d);
    *main_out = main;
    *wrap_out = wrap;
    *art_out = art;
    return d;
}

static void test_expansion_rules_and_choice(void **state)
{
    (void)state;
    dom_node *main, *wrap, *art;
    dom_doc *d = article_page(&main, &wrap, &art);
    gce_params prm;
    gce_params_default(&prm);
    gce_result r;
    assert_int_equal(gce_run(d, &prm, &r), 0);
    /* Centres near (960, 1000): the nearest low-link text is a paragraph of
     * main (the header's links are high-link text). */
    for (int i = 0; i < 3; i++) {
        assert_non_null(r.leaves[i]);
        assert_false(r.leaves[i]->in_link);
        assert_true(dom_is_ancestor(main, r.leaves[i]));
    }
    /* From a paragraph of main: width jump main (1100) -> wrap (1920 > 1.7 *
     * 1100 = 1870), so M_diff is main; no article and no attribute on the way. */
    int diff = 0;
    for (size_t i = 0; i < r.n_candidates; i++)
        if (r.candidates[i].rule == GCE_RULE_DIFF) {
            assert_ptr_equal(r.candidates[i].node, main);
            assert_true(r.candidates[i].best);
            diff++;
        }
    assert_int_equal(diff, 3);
    assert_ptr_equal(r.chosen, main);
    assert_int_equal(r.chosen_walk, 2); /* M3 first */
    assert_true(r.chosen_best);
    assert_null(r.failure);
    gce_result_free(&r);

    /* The pseudocode's reading: the wider parent. */
    prm.diff_target = GCE_DIFF_PARENT;
    assert_int_equal(gce_run(d, &prm, &r), 0);
    assert_ptr_equal(r.chosen, wrap);
    gce_result_free(&r);

    /* Narrow the jump threshold beyond reach: no rule fires from main's
     * paragraphs, every candidate is <body>, GCE fails and says why. */
    prm.diff_target = GCE_DIFF_CHILD;
    prm.dw = 5;
    assert_int_equal(gce_run(d, &prm, &r), 1);
    assert_null(r.chosen);
    assert_int_equal(r.chosen_walk, -1);
    assert_non_null(r.failure);
    for (size_t i = 0; i < r.n_candidates; i++) {
        assert_int_equal(r.candidates[i].rule, GCE_RULE_NONE);
        assert_true(dom_is_tag(r.candidates[i].node, "body"));
        assert_false(r.candidates[i].best);
    }
    gce_result_free(&r);
    dom_doc_free(d);
}

static void test_article_and_attribute_rules(void **state)
{
    (void)state;
    dom_node *main, *wrap, *art;
    dom_doc *d = article_page(&main, &wrap, &art);
    /* Put the leaf inside the article: move the centres there with a
     * window whose centre falls on it. */
    dom_set_attr(d, main, "class", "page-Content");
    gce_params prm;
    gce_params_default(&prm);
    prm.window_w = 1920;
    prm.window_h = 700;   /* C_w = (960, 350): inside the article */
    prm.alpha = 1;        /* FIA = window */
    prm.grid_rows = 3;    /* one inner row: y 233..467 */
    prm.grid_cols = 3;
    gce_result r;
    assert_int_equal(gce_run(d, &prm, &r), 0);
    assert_ptr_equal(r.leaves[0]->parent->parent, art);
    int tag = 0, attr = 0;
    for (size_t i = 0; i < r.n_candidates; i++) {
        const gce_candidate *c = &r.candidates[i];
        if (c->walk != 0)
            continue;
        if (c->rule == GCE_RULE_TAG) {
            tag++;
            assert_ptr_equal(c->node, art);
            assert_true(c->best); /* 400 >= 700 / 2 */
        }
        if (c->rule == GCE_RULE_ATTR) {
            attr++;
            assert_ptr_equal(c->node, main); /* "page-Content": any case */
        }
    }
    assert_int_equal(tag, 1);
    assert_int_equal(attr, 1);
    /* C3 takes in C_d = (960, 1500), below the article: walk 3 starts in
     * main, and M3 comes first in the paper's order even though walk 1 found
     * a denser candidate: D_t(article) = 1 against D_t(main) =
     * (1100*400 + 4*1100*280) / (1100*2000) = 0.76. */
    assert_true(dom_is_ancestor(main, r.leaves[2]) && !dom_is_ancestor(art, r.leaves[2]));
    assert_ptr_equal(r.chosen, main);
    assert_int_equal(r.chosen_walk, 2);
    for (size_t i = 0; i < r.n_candidates; i++) {
        const gce_candidate *c = &r.candidates[i];
        if (c->node == art)
            assert_near(c->density, 1.0);
        if (c->node == main)
            assert_near(c->density, 1672000.0 / 2200000.0);
    }
    gce_result_free(&r);

    /* A page as short as the window: C_d = (960, 350) too, every walk starts
     * in the article, and the densest best candidate of M3 is the article. */
    dom_doc_set_size(d, 1920, 700);
    assert_int_equal(gce_run(d, &prm, &r), 0);
    assert_ptr_equal(r.leaves[2]->parent->parent, art);
    assert_ptr_equal(r.chosen, art);
    assert_true(r.chosen_best);
    gce_result_free(&r);

    /* In a 1080-high window the article (400 < 540) is nobest, and the best
     * candidate of the same walk, main, wins over it. */
    prm.window_h = 1080;
    assert_int_equal(gce_run(d, &prm, &r), 0);
    assert_true(dom_is_ancestor(art, r.leaves[2]));
    assert_ptr_equal(r.chosen, main);
    for (size_t i = 0; i < r.n_candidates; i++)
        if (r.candidates[i].node == art)
            assert_false(r.candidates[i].best);
    gce_result_free(&r);
    dom_doc_free(d);
}

static void test_page_without_text_fails_cleanly(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1920, 1080);
    dom_node *nav = el(d, body, "ul", 0, 0, 1920, 1080);
    for (int i = 0; i < 10; i++)
        link(d, el(d, nav, "li", 0, i * 100, 1920, 100), "link", 0, i * 100, 1920, 100);
    dom_doc_finish(d);
    gce_result r;
    assert_int_equal(gce_run(d, NULL, &r), 1);
    assert_null(r.chosen);
    assert_non_null(r.failure);
    for (int i = 0; i < 3; i++)
        assert_null(r.leaves[i]);
    /* Every cell is excluded; C1 falls back to the window centre. */
    assert_int_equal(r.n_kept, 0);
    assert_near(r.centres[0].x, 960);
    assert_near(r.centres[0].y, 540);
    gce_result_free(&r);
    dom_doc_free(d);
}

/* A page whose menu of full-width items outweighs its one paragraph: the
 * page-wide wrapper has D_l = 12*1920*100 / (1920*2000) = 0.6 > beta. */
static void test_page_wide_wrapper_is_not_a_link_area(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1920, 2000);
    dom_node *wrap = el(d, body, "div", 0, 0, 1920, 2000);
    dom_node *menu = el(d, wrap, "ul", 0, 0, 1920, 1200);
    for (int i = 0; i < 12; i++)
        link(d, el(d, menu, "li", 0, i * 100, 1920, 100), "section", 0, i * 100, 100, 20);
    dom_node *story = el(d, wrap, "div", 460, 1200, 1000, 800);
    dom_node *p = el(d, story, "p", 460, 1200, 1000, 800);
    dom_node *t = txt(d, p, "the only article text", 460, 1200, 1000, 800);
    dom_doc_finish(d);
    assert_near(gce_link_area_density(wrap, NULL), 0.6);

    unsigned char *high = gce_mark_high_link(d, 0.5, 0.9);
    assert_false(high[t->index]);
    assert_true(high[menu->first_child->first_child->first_child->index]);
    free(high);
    /* The literal reading: the wrapper makes every text link text. */
    high = gce_mark_high_link(d, 0.5, 2);
    assert_true(high[t->index]);
    free(high);

    gce_params prm;
    gce_params_default(&prm);
    assert_near(prm.link_text_page_share, 0.9);
    gce_result r;
    assert_int_equal(gce_run(d, &prm, &r), 0);
    assert_ptr_equal(r.leaves[0], t);
    /* story (1000) -> wrap (1920 > 1700): the width jump takes the story. */
    assert_ptr_equal(r.chosen, story);
    gce_result_free(&r);
    prm.link_text_page_share = 2;
    assert_int_equal(gce_run(d, &prm, &r), 1);
    assert_null(r.leaves[0]);
    gce_result_free(&r);
    dom_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_area_density),
        cmocka_unit_test(test_point_box_distance),
        cmocka_unit_test(test_fia_and_grid),
        cmocka_unit_test(test_dense_link_area_excludes_cells),
        cmocka_unit_test(test_expansion_rules_and_choice),
        cmocka_unit_test(test_article_and_attribute_rules),
        cmocka_unit_test(test_page_without_text_fails_cleanly),
        cmocka_unit_test(test_page_wide_wrapper_is_not_a_link_area),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
