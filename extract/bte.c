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

#include "base/grow.h"

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
    if (base_grow(&r->v, &r->cap, r->n + 1, sizeof *r->v)) {
        r->failed = 1;
        return;
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
    const dom_node *top = extract_span_begin(doc, out);
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

/* BTE's stretches inside one element ----------------------------------- */

typedef struct sub_walk {
    runs r;
    const dom_node *top;
    dom_keep_fn keep;
    void *ctx;
} sub_walk;

static int sub_enter(void *ctx, const dom_node *n)
{
    sub_walk *w = ctx;
    if (n != w->top && w->keep && !w->keep(n, w->ctx))
        return 0;
    return bte_enter(&w->r, n);
}

static void sub_leave(void *ctx, const dom_node *n)
{
    bte_leave(&((sub_walk *)ctx)->r, n);
}

/* A maximal-scoring stretch of runs: runs s..e, the prefix sums before and
 * after it, and the nearest earlier stretch whose L is smaller. */
typedef struct stretch {
    size_t s, e;
    long L, R;
    size_t lower;
} stretch;

#define NONE ((size_t)-1)

int extract_bte_stretches(const dom_doc *doc, const dom_node *top, dom_keep_fn keep, void *ctx,
                          double min_share, extract_span *out)
{
    memset(out, 0, sizeof *out);
    sub_walk w = {{0}, top, keep, ctx};
    dom_walk(top, sub_enter, sub_leave, &w);
    size_t count = dom_doc_count(doc);
    stretch *st = w.r.failed ? NULL : malloc((w.r.n + 1) * sizeof *st);
    out->picked = st ? calloc(count ? count : 1, 1) : NULL;
    if (!out->picked) {
        free(st);
        free(w.r.v);
        return -1;
    }
    out->n_picked = count;
    /* Ruzzo and Tompa (1999): every run of words opens a stretch, which
     * swallows the stretches before it as long as that raises its score and
     * an earlier one does not stand higher. */
    size_t ns = 0;
    long cum = 0, best = 0;
    for (size_t k = 0; k < w.r.n; k++) {
        long L = cum;
        cum += w.r.v[k].value;
        if (w.r.v[k].value <= 0)
            continue;
        stretch cur = {k, k, L, cum, NONE};
        for (;;) {
            size_t j = ns ? ns - 1 : NONE;
            while (j != NONE && st[j].L >= cur.L)
                j = st[j].lower;
            if (j == NONE || st[j].R >= cur.R) {
                cur.lower = j;
                st[ns++] = cur;
                break;
            }
            cur.s = st[j].s;
            cur.L = st[j].L;
            ns = j;
        }
    }
    for (size_t i = 0; i < ns; i++)
        if (st[i].R - st[i].L > best)
            best = st[i].R - st[i].L;
    for (size_t i = 0; i < ns; i++) {
        if (best == 0 || (double)(st[i].R - st[i].L) < min_share * (double)best)
            continue;
        for (size_t k = st[i].s; k <= st[i].e; k++) {
            const run *r = &w.r.v[k];
            if (r->value <= 0 || !r->first_text)
                continue;
            for (const dom_node *n = r->first_text; n; n = dom_next(n, top)) {
                if (n->kind == DOM_TEXT && n->index < count)
                    out->picked[n->index] = 1;
                if (n == r->last_text)
                    break;
            }
            if (!out->first)
                out->first = r->first_text;
            out->last = r->last_text;
        }
        out->score += st[i].R - st[i].L;
    }
    free(st);
    free(w.r.v);
    if (!out->first) {
        extract_span_free(out);
        out->failure = "no displayed words in the element";
        return 1;
    }
    return 0;
}
