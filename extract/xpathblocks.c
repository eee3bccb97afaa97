/* extract/: main content by XPath blocks (paper 003, Thanadechteemapat and
 * Fung), on the laid-out tree.
 *
 * Leaves (the paper's R1 and R2): the displayed text nodes with some text,
 * outside script, noscript, embed, object and form controls. Each leaf
 * knows its text length, whether it is link text (inside <a href>), and
 * whether it starts with a footer phrase.
 *
 * Blocks: "starting from the XPath of a parent of each leaf node and step
 * up until the parent is a body element node", every ancestor of a leaf
 * gathers the leaf's counts: leaves (All Elements), link leaves (All Href),
 * text length (All T-Length) and link text length (All Href T-Length). A
 * block needs more than one leaf (step 1), and a leaf belongs to the lowest
 * such block above it (step 2); <body> takes a leaf no lower block does.
 *
 * Selection: ANR = All Href / All Elements, ATR = All Href T-Length /
 * All T-Length, AR = 0.75·ATR + 0.25·ANR. A leaf is content when it is no
 * footer, holds at least 2 characters, and its block has AR < 0.6, or holds
 * fewer than 2 links among more than 2 leaves (a paragraph with a link).
 *
 * Readings of ours. The paper drops <form> with all it holds; pages built
 * on ASP.NET wrap the whole page in one, so only the controls go. Lengths
 * count characters that are not white space, in any script. And a leaf is
 * measured for the 2 characters with the inline text it runs on with (up to
 * the next block boundary): inline tags cut a sentence into leaves, and the
 * "A" before a link or the full stop after one is no stray mark.
 */
#include "extract/extract.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/grow.h"
#include "base/tags.h"

void extract_xpath_params_default(extract_xpath_params *p)
{
    p->atr_weight = 0.75;
    p->max_ar = 0.6;
    p->min_chars = 2;
    p->exempt_links = 2;
    p->exempt_leaves = 2;
    /* The paper's example, and "copyright" in a few scripts. */
    p->footer_phrases = "powered by|copyright|\xc2\xa9|\xe7\x89\x88\xe6\x9d\x83\xe6\x89\x80\xe6\x9c\x89|"
                        "\xe7\x89\x88\xe6\xac\x8a\xe6\x89\x80\xe6\x9c\x89|\xe8\x91\x97\xe4\xbd\x9c\xe6\xa8\xa9|"
                        "\xec\xa0\x80\xec\x9e\x91\xea\xb6\x8c"; /* ©, 版权所有, 版權所有, 著作権, 저작권 */
}

typedef struct xb_count {
    long leaves, links;
    long chars, link_chars;
} xb_count;

typedef struct xb_walk {
    const dom_node *top;
    xb_count *c;      /* per node index */
    size_t count;
    const dom_node **leaves;
    size_t *leaf_run;  /* the run of inline text each leaf is in */
    size_t n_leaves, cap_leaves, cap_runs;
    size_t run;        /* runs of inline text: a block boundary starts a new one */
    int failed;
} xb_walk;

static int skipped(const dom_node *n)
{
    static const char *const tags[] = {"script", "noscript", "embed",  "object",   "img",
                                       "style",  "input",    "button", "select",   "textarea",
                                       "option", NULL};
    return base_tag_in(n->tag, tags);
}

static int xb_enter(void *ctx, const dom_node *n)
{
    xb_walk *w = ctx;
    if (w->failed || dom_node_left_out(n) || n->index >= w->count)
        return 0;
    if (n->kind == DOM_ELEMENT) {
        if (skipped(n))
            return 0;
        w->run += n->display == DOM_DISPLAY_BLOCK;
        return 1;
    }
    long chars = extract_count_chars(n->text, n->text_len);
    if (chars == 0 || !n->parent)
        return 0;
    if (base_grow(&w->leaves, &w->cap_leaves, w->n_leaves + 1, sizeof *w->leaves) ||
        base_grow(&w->leaf_run, &w->cap_runs, w->n_leaves + 1, sizeof *w->leaf_run)) {
        w->failed = 1;
        return 0;
    }
    w->leaf_run[w->n_leaves] = w->run;
    w->leaves[w->n_leaves++] = n;
    xb_count *c = &w->c[n->index];
    c->leaves = 1;
    c->links = n->in_link != 0;
    c->chars = chars;
    c->link_chars = n->in_link ? chars : 0;
    return 1;
}

/* On the way out, a node's counts go to its parent: every ancestor up to
 * the top gathers its leaves. */
static void xb_leave(void *ctx, const dom_node *n)
{
    xb_walk *w = ctx;
    w->run += n->kind == DOM_ELEMENT && n->display == DOM_DISPLAY_BLOCK;
    if (n == w->top || !n->parent || n->index >= w->count || n->parent->index >= w->count)
        return;
    xb_count *c = &w->c[n->index], *p = &w->c[n->parent->index];
    p->leaves += c->leaves;
    p->links += c->links;
    p->chars += c->chars;
    p->link_chars += c->link_chars;
}

/* Does the text start (after white space) with one of the '|'-separated
 * phrases? ASCII letters match whatever their case. */
static int footer(const dom_node *n, const char *phrases)
{
    if (!phrases || !phrases[0])
        return 0;
    const char *s = n->text, *end = n->text + n->text_len;
    while (s < end && base_html_space(*s))
        s++;
    for (const char *p = phrases; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len > 0 && (size_t)(end - s) >= len && strncasecmp(s, p, len) == 0)
            return 1;
        p += len + (bar != NULL);
    }
    return 0;
}

int extract_xpath(const dom_doc *doc, const extract_xpath_params *p, extract_span *out,
                  extract_xpath_info *info)
{
    extract_xpath_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    const dom_node *top = extract_span_begin(doc, out);
    if (!top)
        return 1;
    xb_walk w = {.top = top, .count = dom_doc_count(doc)};
    w.c = calloc(w.count ? w.count : 1, sizeof *w.c);
    out->picked = calloc(w.count ? w.count : 1, 1);
    if (!w.c || !out->picked) {
        free(w.c);
        extract_span_free(out);
        return -1;
    }
    out->n_picked = w.count;
    dom_walk(top, xb_enter, xb_leave, &w);
    if (w.failed) {
        free(w.c);
        free(w.leaves);
        free(w.leaf_run);
        extract_span_free(out);
        return -1;
    }
    info->leaves = w.n_leaves;
    long chars = 0, run_chars = 0;
    for (size_t i = 0, run_end = 0; i < w.n_leaves; i++) {
        const dom_node *n = w.leaves[i];
        const xb_count *leaf = &w.c[n->index];
        if (i == run_end) {
            /* The characters of the run of inline text from leaf i on. */
            run_chars = 0;
            for (run_end = i; run_end < w.n_leaves && w.leaf_run[run_end] == w.leaf_run[i]; run_end++)
                run_chars += w.c[w.leaves[run_end]->index].chars;
        }
        if (footer(n, p->footer_phrases)) {
            info->footers++;
            continue;
        }
        if (run_chars < p->min_chars)
            continue;
        /* The lowest block above the leaf: more than one leaf in it. */
        const dom_node *b = n->parent;
        while (b != top && b->parent && w.c[b->index].leaves <= 1)
            b = b->parent;
        const xb_count *c = &w.c[b->index];
        double anr = c->leaves ? (double)c->links / (double)c->leaves : 0;
        double atr = c->chars ? (double)c->link_chars / (double)c->chars : 0;
        double ar = p->atr_weight * atr + (1 - p->atr_weight) * anr;
        if (ar >= p->max_ar && !(c->links < p->exempt_links && c->leaves > p->exempt_leaves))
            continue;
        out->picked[n->index] = 1;
        if (!out->first)
            out->first = n;
        out->last = n;
        info->content++;
        chars += leaf->chars;
    }
    out->score = chars;
    free(w.c);
    free(w.leaves);
    free(w.leaf_run);
    if (!out->first) {
        extract_span_free(out);
        out->failure = info->leaves ? "every text leaf is in a link block, a footer or too short"
                                    : "no displayed text on the page";
        return 1;
    }
    return 0;
}
