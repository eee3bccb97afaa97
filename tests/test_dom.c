/* dom/: building, reading, visibility, pre-order walking and XPath. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tree.h"

static void test_xpath_round_trip(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 1000, 800);
    el(d, body, "div", 0, 0, 10, 10);
    dom_node *div2 = el(d, body, "div", 0, 10, 10, 10);
    el(d, body, "p", 0, 20, 10, 10);
    txt(d, div2, "one", 0, 10, 5, 5);
    el(d, div2, "br", 0, 0, 0, 0);
    dom_node *t2 = txt(d, div2, "two", 0, 15, 5, 5);
    dom_doc_finish(d);

    assert_string_equal(dom_node_xpath(d, div2), "/html[1]/body[1]/div[2]");
    assert_string_equal(dom_node_xpath(d, t2), "/html[1]/body[1]/div[2]/text()[2]");
    assert_ptr_equal(dom_find_xpath(d, "/html[1]/body[1]/div[2]/text()[2]"), t2);
    assert_ptr_equal(dom_find_xpath(d, "/html[1]/body[1]/div[2]"), div2);
    assert_null(dom_find_xpath(d, "/html[1]/body[1]/div[3]"));
    assert_null(dom_find_xpath(d, "/html[1]/body[1]/div["));
    assert_null(dom_find_xpath(d, ""));
    dom_doc_free(d);
}

static void test_finish_numbers_in_preorder(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 100, 100);
    dom_node *a = el(d, body, "div", 0, 0, 1, 1);
    dom_node *a1 = el(d, a, "p", 0, 0, 1, 1);
    dom_node *b = el(d, body, "div", 0, 0, 1, 1);
    dom_doc_finish(d);
    assert_int_equal(dom_doc_count(d), 5);
    assert_ptr_equal(dom_doc_body(d), body);
    assert_int_equal(body->index, 1);
    assert_int_equal(a1->index, 3);
    assert_int_equal(b->index, 4);
    assert_int_equal(a1->depth, 3);
    /* dom_next stays inside the subtree it is given. */
    assert_ptr_equal(dom_next(a, a), a1);
    assert_null(dom_next(a1, a));
    assert_ptr_equal(dom_next(a1, body), b);
    /* dom_next_after steps over a subtree, and stays inside `top`. */
    assert_ptr_equal(dom_next_after(a, body), b);
    assert_null(dom_next_after(a1, a));
    assert_null(dom_next_after(b, body));
    assert_true(dom_is_ancestor(body, a1));
    assert_false(dom_is_ancestor(a1, body));
    dom_doc_free(d);
}

static void test_visibility(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 100, 100);
    dom_node *none = el(d, body, "div", 0, 0, 0, 0);
    none->hidden = DOM_HIDDEN_DISPLAY_NONE;
    dom_node *inside = txt(d, none, "gone", 0, 0, 5, 5);
    dom_node *vis = el(d, body, "div", 0, 0, 10, 10);
    vis->hidden = DOM_HIDDEN_VISIBILITY;
    /* visibility:hidden does not pass down: a child may be visible again. */
    dom_node *child = el(d, vis, "span", 0, 0, 5, 5);
    dom_node *zero = el(d, body, "div", 0, 0, 0, 0);
    zero->hidden = DOM_HIDDEN_ZERO_SIZE;
    dom_node *floated = el(d, zero, "div", 0, 0, 50, 50);
    dom_doc_finish(d);
    assert_false(dom_node_visible(none));
    assert_false(dom_node_visible(inside));
    assert_false(dom_node_visible(vis));
    assert_true(dom_node_visible(child));
    assert_false(dom_node_visible(zero));
    assert_true(dom_node_visible(floated));
    dom_doc_free(d);
}

static void test_attributes_and_boxes(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *body = page(d, 100, 100);
    dom_node *div = el(d, body, "DIV", 0, 0, 1, 1);
    assert_string_equal(div->tag, "div");
    assert_int_equal(dom_set_attr(d, div, "class", "a"), 0);
    assert_int_equal(dom_set_attr(d, div, "id", "main"), 0);
    assert_int_equal(dom_set_attr(d, div, "class", "b"), 0); /* replaces */
    assert_string_equal(dom_attr_get(div, "class"), "b");
    assert_string_equal(dom_attr_get(div, "id"), "main");
    assert_null(dom_attr_get(div, "title"));
    assert_int_equal(div->n_attrs, 2);

    dom_box u = dom_box_union((dom_box){10, 10, 10, 10}, (dom_box){30, 0, 5, 5});
    assert_true(u.x == 10 && u.y == 0 && u.w == 25 && u.h == 20);
    u = dom_box_union((dom_box){0, 0, 0, 0}, (dom_box){3, 4, 5, 6});
    assert_true(u.x == 3 && u.y == 4 && u.w == 5 && u.h == 6);
    assert_true(dom_box_intersects((dom_box){0, 0, 10, 10}, (dom_box){9, 9, 10, 10}));
    assert_false(dom_box_intersects((dom_box){0, 0, 10, 10}, (dom_box){10, 0, 10, 10}));
    assert_true(dom_box_area((dom_box){0, 0, 4, 5}) == 20);
    assert_true(dom_box_area((dom_box){0, 0, -4, 5}) == 0);

    /* A text node's box is the union of its lines. */
    dom_node *t = dom_text_new(d, "x", 1);
    dom_box lines[2] = {{10, 0, 100, 20}, {0, 20, 50, 20}};
    assert_int_equal(dom_set_lines(d, t, lines, 2), 0);
    assert_true(t->box.x == 0 && t->box.y == 0 && t->box.w == 110 && t->box.h == 40);
    dom_doc_free(d);
}

static void test_deep_tree_is_walked_without_recursion(void **state)
{
    (void)state;
    dom_doc *d = dom_doc_new();
    dom_node *n = page(d, 100, 100);
    for (int i = 0; i < 200000; i++)
        n = el(d, n, "div", 0, 0, 1, 1);
    dom_doc_finish(d);
    assert_int_equal(dom_doc_count(d), 200002);
    assert_int_equal(n->depth, 200001);
    const char *xp = dom_node_xpath(d, n);
    assert_non_null(xp);
    assert_ptr_equal(dom_find_xpath(d, xp), n);
    dom_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xpath_round_trip),
        cmocka_unit_test(test_finish_numbers_in_preorder),
        cmocka_unit_test(test_visibility),
        cmocka_unit_test(test_attributes_and_boxes),
        cmocka_unit_test(test_deep_tree_is_walked_without_recursion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
