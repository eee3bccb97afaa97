/* extract/: Body Text Extraction (paper 001, after Finn et al.).
 *
 * The page becomes a sequence of tokens, a tag (+1 in the paper's count of
 * tags) or a word; Finn's objective, the number of tags outside [i, j] plus
 * the number of words inside it, is the total number of tags plus the
 * maximum-sum run of the sequence scored word = +1, tag = -1: a maximum-sum
 * subarray, found in one pass (Kadane) instead of the paper's O(n^2)
 * (DESIGN.md). Words of scripts written without spaces count one per
 * character. Subtrees that are not displayed are left out: a reader never
 * sees their words.
 */
#include "extract/extract.h"

#include <stdlib.h>
#include <string.h>

/* One token per run of equal kind: the tags and words in a row merge. */
typedef struct run {
    long value;                 /* +words or -tags */
    const dom_node *first_text; /* words: the first text node in the run */
    const dom_node *last_text;
} run;

typedef struct runs {
    run *v;
    size_t n, cap;
    int failed;
} runs;

static void add(runs *r, long value, const dom_node *text)
{
    if (r->failed || value == 0)
        return;
    if (r->n > 0 && (r->v[r->n - 1].value > 0) == (value > 0)) {
        run *last = &r->v[r->n - 1];
        last->value += value;
        if (text) {
            if (!last->first_text)
                last->first_text = text;
            last->last_text = text;
        }
        return;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        run *v = realloc(r->v, cap * sizeof *v);
        if (!v) {
            r->failed = 1;
            return;
        }
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = (run){value, text, text};
}

static int bte_enter(void *ctx, const dom_node *n)
{
    if (dom_node_left_out(n))
        return 0;
    if (n->kind == DOM_TEXT)
        add(ctx, extract_count_words(n->text, n->text_len), n);
    else
        add(ctx, -1, NULL);
    return 1;
}

static void bte_leave(void *ctx, const dom_node *n)
{
    if (n->kind == DOM_ELEMENT)
        add(ctx, -1, NULL);
}

int extract_bte(const dom_doc *doc, extract_span *out)
{
    memset(out, 0, sizeof *out);
    const dom_node *top = dom_doc_body(doc) ? dom_doc_body(doc) : dom_doc_root(doc);
    if (!top)
        return 1;
    runs r = {0};
    /* A tag token on the way into an element and one on the way out. */
    dom_walk(top, bte_enter, bte_leave, &r);
    if (r.failed) {
        free(r.v);
        return -1;
    }
    /* Kadane over the runs. */
    long best = 0, cur = 0;
    size_t best_i = 0, best_j = 0, start = 0;
    int found = 0;
    for (size_t k = 0; k < r.n; k++) {
        if (cur <= 0) {
            cur = 0;
            start = k;
        }
        cur += r.v[k].value;
        if (cur > best) {
            best = cur;
            best_i = start;
            best_j = k;
            found = 1;
        }
    }
    if (found) {
        /* The range starts and ends on word runs (a best run never starts
         * or ends with a negative one). */
        out->first = r.v[best_i].first_text;
        out->last = r.v[best_j].last_text;
        out->score = best;
    }
    free(r.v);
    if (!found || !out->first) {
        out->first = out->last = NULL;
        out->failure = "no displayed words on the page";
        return 1;
    }
    /* A stretch of nothing but link text is a menu or a list of links at
     * best: the page has no main content to give (a page of links). */
    const dom_node *root = out->first;
    while (root->parent)
        root = root->parent;
    for (const dom_node *n = out->first; n; n = dom_next(n, root)) {
        if (n->kind == DOM_TEXT && !n->in_link && !dom_node_left_out(n) &&
            extract_count_words(n->text, n->text_len) > 0)
            return 0;
        if (n == out->last)
            break;
    }
    out->first = out->last = NULL;
    out->failure = "its best stretch is link text only: a page of links";
    return 1;
}
