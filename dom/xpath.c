/* dom/: XPath of a node in the form browsers print, and back. */
#include "dom/dom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1-based position of n among its parent's children of the same kind and
 * tag, which is what /div[2] or /text()[3] means. */
static size_t same_kind_position(const dom_node *n)
{
    size_t pos = 1;
    for (const dom_node *s = n->prev; s; s = s->prev) {
        if (s->kind != n->kind)
            continue;
        if (n->kind == DOM_TEXT || strcmp(s->tag, n->tag) == 0)
            pos++;
    }
    return pos;
}

static size_t step_length(const dom_node *n)
{
    char num[32];
    int k = snprintf(num, sizeof num, "%zu", same_kind_position(n));
    size_t name = n->kind == DOM_TEXT ? strlen("text()") : strlen(n->tag);
    return 1 + name + 2 + (size_t)k; /* "/" name "[" num "]" */
}

const char *dom_node_xpath(dom_doc *doc, const dom_node *n)
{
    if (!n)
        return NULL;
    size_t total = 0;
    for (const dom_node *a = n; a; a = a->parent)
        total += step_length(a);
    char *s = dom_alloc(doc, total + 1);
    if (!s)
        return NULL;
    /* Written from the end: the node's own step last. */
    size_t end = total;
    s[end] = '\0';
    for (const dom_node *a = n; a; a = a->parent) {
        char step[256];
        int k = snprintf(step, sizeof step, "/%s[%zu]", a->kind == DOM_TEXT ? "text()" : a->tag,
                         same_kind_position(a));
        if (k < 0)
            return NULL;
        size_t len = (size_t)k < sizeof step ? (size_t)k : sizeof step - 1;
        if (len > end)
            return NULL;
        end -= len;
        memcpy(s + end, step, len);
    }
    return s + end;
}

/* Parses one "/name[k]" step; returns the text after it or NULL. */
static const char *parse_step(const char *p, char *name, size_t cap, size_t *pos)
{
    if (*p != '/')
        return NULL;
    p++;
    size_t len = strcspn(p, "[/");
    if (len == 0 || len >= cap)
        return NULL;
    memcpy(name, p, len);
    name[len] = '\0';
    p += len;
    *pos = 1;
    if (*p == '[') {
        char *end;
        unsigned long v = strtoul(p + 1, &end, 10);
        if (*end != ']' || v == 0)
            return NULL;
        *pos = v;
        p = end + 1;
    }
    return p;
}

dom_node *dom_find_xpath(const dom_doc *doc, const char *xpath)
{
    dom_node *root = dom_doc_root(doc);
    if (!root || !xpath)
        return NULL;
    char name[128];
    size_t pos;
    const char *p = parse_step(xpath, name, sizeof name, &pos);
    if (!p || pos != 1 || !dom_is_tag(root, name))
        return NULL;
    dom_node *cur = root;
    while (*p) {
        p = parse_step(p, name, sizeof name, &pos);
        if (!p)
            return NULL;
        int text = strcmp(name, "text()") == 0;
        dom_node *hit = NULL;
        size_t seen = 0;
        for (dom_node *c = cur->first_child; c && !hit; c = c->next) {
            if (text ? c->kind == DOM_TEXT : dom_is_tag(c, name))
                if (++seen == pos)
                    hit = c;
        }
        if (!hit)
            return NULL;
        cur = hit;
    }
    return cur;
}
