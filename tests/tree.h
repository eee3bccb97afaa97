/* Hand-built trees for the unit tests: boxes are given, not laid out, so
 * every number a test checks can be worked out on paper. */
#ifndef GLANCE_TESTS_TREE_H
#define GLANCE_TESTS_TREE_H

#include <string.h>

#include "dom/dom.h"

static inline dom_node *el(dom_doc *d, dom_node *parent, const char *tag, double x, double y,
                           double w, double h)
{
    dom_node *n = dom_element_new(d, tag);
    n->box = (dom_box){x, y, w, h};
    static const char *const inl[] = {"a", "span", "em", "strong", "b", "i", "code", "br", NULL};
    n->display = DOM_DISPLAY_BLOCK;
    for (const char *const *t = inl; *t; t++)
        if (strcmp(tag, *t) == 0)
            n->display = DOM_DISPLAY_INLINE;
    if (parent)
        dom_append(parent, n);
    return n;
}

/* A text node on one line box. */
static inline dom_node *txt(dom_doc *d, dom_node *parent, const char *s, double x, double y,
                            double w, double h)
{
    dom_node *t = dom_text_new(d, s, strlen(s));
    dom_box line = {x, y, w, h};
    dom_set_lines(d, t, &line, 1);
    dom_append(parent, t);
    for (dom_node *a = parent; a; a = a->parent)
        if (dom_is_tag(a, "a") && dom_attr_get(a, "href"))
            t->in_link = 1;
    return t;
}

static inline dom_node *link(dom_doc *d, dom_node *parent, const char *s, double x, double y,
                             double w, double h)
{
    dom_node *a = el(d, parent, "a", x, y, w, h);
    dom_set_attr(d, a, "href", "/x");
    txt(d, a, s, x, y, w, h);
    return a;
}

/* <html><body> of the given size; returns body. */
static inline dom_node *page(dom_doc *d, double w, double h)
{
    dom_node *html = el(d, NULL, "html", 0, 0, w, h);
    dom_doc_set_root(d, html);
    dom_doc_set_size(d, w, h);
    return el(d, html, "body", 0, 0, w, h);
}

#endif
