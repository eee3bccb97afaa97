/* extract/: the text of a span of the page, and the element around it. */
#include "extract/extract.h"

#include "base/buf.h"
#include "base/tags.h"

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
    return !span->picked || extract_text_in_answer(n, span->picked, span->n_picked);
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

/* The text nodes a span's text is made of, in the page's order: picked,
 * shown, and kept below the span's holder. */
typedef struct span_texts {
    const extract_span *span;
    const dom_node *root, *holder, *next; /* next: the node to look at, NULL at the end */
    dom_keep_fn keep;
    void *ctx;
} span_texts;

static void span_texts_begin(span_texts *it, const extract_span *span, dom_keep_fn keep,
                             void *ctx)
{
    it->span = span;
    it->keep = keep;
    it->ctx = ctx;
    it->next = span->first && span->last ? span->first : NULL;
    it->root = span->first;
    while (it->root && it->root->parent)
        it->root = it->root->parent;
    it->holder = it->next ? extract_span_holder(span) : NULL;
}

static const dom_node *span_texts_next(span_texts *it)
{
    while (it->next) {
        const dom_node *n = it->next;
        it->next = n == it->span->last ? NULL : dom_next(n, it->root);
        if (n->kind == DOM_TEXT && picked(it->span, n) && shown(n) &&
            kept(n, it->holder, it->keep, it->ctx))
            return n;
    }
    return NULL;
}

char *extract_span_text_kept(const extract_span *span, dom_keep_fn keep, void *ctx)
{
    base_buf b = BASE_BUF_INIT;
    span_texts it;
    span_texts_begin(&it, span, keep, ctx);
    const dom_node *prev_block = NULL;
    for (const dom_node *n; (n = span_texts_next(&it));) {
        const dom_node *blk = block_of(n);
        if (b.len > 0 && blk != prev_block) {
            while (b.len > 0 && b.data[b.len - 1] == ' ')
                base_buf_shrink(&b, 1);
            if (b.len > 0 && b.data[b.len - 1] != '\n')
                base_buf_putc(&b, '\n');
        }
        prev_block = blk;
        /* Spaces alone, no-break ones too, are one collapsible space. */
        int spaces = !n->preformatted && base_html_spaces(n->text, n->text_len);
        for (size_t i = 0; i < n->text_len; i++) {
            char c = n->text[i];
            if (spaces || (base_html_space(c) && !n->preformatted)) {
                if (b.len > 0 && b.data[b.len - 1] != ' ' && b.data[b.len - 1] != '\n')
                    base_buf_putc(&b, ' ');
            } else {
                base_buf_putc(&b, c);
            }
        }
    }
    while (b.len > 0 && (b.data[b.len - 1] == ' ' || b.data[b.len - 1] == '\n'))
        base_buf_shrink(&b, 1);
    return base_buf_take(&b, NULL);
}

int extract_span_has_text_kept(const extract_span *span, dom_keep_fn keep, void *ctx)
{
    span_texts it;
    span_texts_begin(&it, span, keep, ctx);
    for (const dom_node *n; (n = span_texts_next(&it));) {
        if (!n->preformatted && base_html_spaces(n->text, n->text_len))
            continue;
        /* What extract_span_text_kept writes of it, and keeps after its
         * last trim of spaces and line ends. */
        for (size_t i = 0; i < n->text_len; i++) {
            char c = n->text[i];
            if (n->preformatted ? c != ' ' && c != '\n' : !base_html_space(c))
                return 1;
        }
    }
    return 0;
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
