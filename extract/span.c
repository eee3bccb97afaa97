/* extract/: the text of a span of the page, and the element around it. */
#include "extract/extract.h"

#include <stdlib.h>
#include <string.h>

static const dom_node *block_of(const dom_node *n)
{
    for (n = n->parent; n; n = n->parent)
        if (n->display == DOM_DISPLAY_BLOCK)
            return n;
    return NULL;
}

/* Shown: not inside a display:none or off-page subtree, and (text) not
 * hidden itself. */
static int shown(const dom_node *n)
{
    if (n->kind == DOM_TEXT && n->hidden)
        return 0;
    for (; n; n = n->parent)
        if (n->hidden & (DOM_HIDDEN_DISPLAY_NONE | DOM_HIDDEN_OFF_PAGE))
            return 0;
    return 1;
}

typedef struct buf {
    char *s;
    size_t len, cap;
    int failed;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

char *extract_span_text(const extract_span *span)
{
    return extract_span_text_kept(span, NULL, NULL);
}

/* Kept: neither the node nor an ancestor below `top` turned down. */
static int kept(const dom_node *n, const dom_node *top, dom_keep_fn keep, void *ctx)
{
    if (!keep)
        return 1;
    for (; n && n != top; n = n->parent)
        if (!keep(n, ctx))
            return 0;
    return 1;
}

static int picked(const extract_span *span, const dom_node *n)
{
    return !span->picked || (n->index < span->n_picked && span->picked[n->index]);
}

const dom_node *extract_span_begin(const dom_doc *doc, extract_span *out)
{
    memset(out, 0, sizeof *out);
    const dom_node *top = dom_doc_body(doc) ? dom_doc_body(doc) : dom_doc_root(doc);
    if (!top)
        out->failure = "no displayed text on the page";
    return top;
}

void extract_span_free(extract_span *span)
{
    free(span->picked);
    memset(span, 0, sizeof *span);
}

char *extract_span_text_kept(const extract_span *span, dom_keep_fn keep, void *ctx)
{
    buf b = {0};
    put(&b, "", 0);
    if (!span->first || !span->last)
        return b.s;
    const dom_node *root = span->first;
    while (root->parent)
        root = root->parent;
    const dom_node *prev_block = NULL, *holder = extract_span_holder(span);
    for (const dom_node *n = span->first; n; n = dom_next(n, root)) {
        if (n->kind == DOM_TEXT && picked(span, n) && shown(n) && kept(n, holder, keep, ctx)) {
            const dom_node *blk = block_of(n);
            if (b.len > 0 && blk != prev_block) {
                while (b.len > 0 && b.s[b.len - 1] == ' ')
                    b.s[--b.len] = '\0';
                if (b.len > 0 && b.s[b.len - 1] != '\n')
                    put(&b, "\n", 1);
            }
            prev_block = blk;
            for (size_t i = 0; i < n->text_len; i++) {
                char c = n->text[i];
                if (is_ws(c) && !n->preformatted) {
                    if (b.len > 0 && b.s[b.len - 1] != ' ' && b.s[b.len - 1] != '\n')
                        put(&b, " ", 1);
                } else {
                    put(&b, &c, 1);
                }
            }
        }
        if (n == span->last)
            break;
    }
    while (b.len > 0 && (b.s[b.len - 1] == ' ' || b.s[b.len - 1] == '\n'))
        b.s[--b.len] = '\0';
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

const dom_node *extract_span_holder(const extract_span *span)
{
    const dom_node *a = span->first, *c = span->last;
    if (!a || !c)
        return NULL;
    while (a->depth > c->depth)
        a = a->parent;
    while (c->depth > a->depth)
        c = c->parent;
    while (a != c) {
        a = a->parent;
        c = c->parent;
    }
    while (a && a->kind != DOM_ELEMENT)
        a = a->parent;
    return a;
}
