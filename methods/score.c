/* methods/: glance's own scorer, the default answer (DESIGN.md, "Beyond the
 * papers"). Every lowest block of the laid-out page (extract.h, Blocks) is
 * scored from what the layout and the tree say of it and from the answers
 * of the papers' methods, as votes, by a forest of trees fitted offline on
 * the development corpora (score_model.c, tools/fit/); the blocks scored
 * content make the answer, in the page's order. */
#define _GNU_SOURCE /* qsort_r */
#include <json-c/json.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/clock.h"
#include "methods/method.h"
#include "methods/score_model.h"

/* Block indices by their probability in p1, ascending; of equal ones the
 * later block first (read from the end, the page's order). */
static int by_p1(const void *a, const void *b, void *p1)
{
    const float *p = p1;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (p[i] != p[j])
        return p[i] < p[j] ? -1 : 1;
    return i > j ? -1 : i < j;
}

/* Measured against the threshold alone, cross-validated by site on the four
 * development corpora (the same folds' models), glance as it answers
 * (tools/fit/cv.sh), power 1.2: scrapinghub 0.964 -> 0.964, modern-dev
 * 0.804 -> 0.808 (listings 0.618 -> 0.645, collections 0.512 -> 0.533, no
 * kind lower), lang-dev 0.917 -> 0.918, styled 0.959 -> 0.957. Power 1.0
 * gave modern-dev 0.810 and lang-dev 0.915; block by block (fit.py's
 * probabilities), 1.3 gave modern-dev 0.792 against 1.2's 0.794. */
double score_page_cut(const float *p, const long *chars, size_t n, double base, double power)
{
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    double *q = malloc((n ? n : 1) * sizeof *q);
    if (!order || !q) {
        free(order);
        free(q);
        return -1;
    }
    double all = 0;
    for (size_t i = 0; i < n; i++) {
        double pi = p[i] < 1e-7f ? 1e-7 : p[i] > 1 - 1e-7f ? 1 - 1e-7 : p[i];
        double raw = 1.0 / (1.0 + exp(-(log(pi / (1 - pi)) - base)));
        q[i] = pow(raw, power) * (double)chars[i];
        all += q[i];
        order[i] = i;
    }
    qsort_r(order, n, sizeof *order, by_p1, (void *)p);
    double s = 0, c = 0, best = -1, cut = 2;
    for (size_t k = n; k-- > 0;) { /* the most probable first */
        s += q[order[k]];
        c += (double)chars[order[k]];
        double ef = c + all > 0 ? 2 * s / (c + all) : 0;
        if (ef > best) {
            best = ef;
            cut = p[order[k]];
        }
    }
    free(order);
    free(q);
    return cut;
}

/* The methods whose answers are votes, in the order of their features. */
static const char *const voters[] = {"gce", "bte", "nodechar", "xpath", "danag", "classic"};
#define N_VOTES (sizeof voters / sizeof voters[0])
/* Stage two reads, beside the block's own features and votes, what stage
 * one made of its neighbours and of the page: blocks are read in their
 * context, as a reader reads a paragraph among paragraphs. */
static const char *const context_names[] = {
    "p1", "p1_prev", "p1_next", "p1_near3", "p1_near10", "p1_page", "p1_max", "p1_rank",
    "p1_before", "p1_content_share", "p1_container", "p1_a1", "p1_a2", "p1_a3",
    "p1_in_root", "p1_root_depth"};
#define N_CONTEXT (sizeof context_names / sizeof context_names[0])
#define N_STAGE1 (EXTRACT_N_FEATURES + N_VOTES)
#define N_FEATURES (N_STAGE1 + N_CONTEXT)

/* Characters the blocks scored as content must hold between them to be an
 * answer of their own (a headline and a date are not). */
#define SCORE_MIN_CHARS 80
/* Link characters among those, at or over which they give way to the
 * classic policy's answer (below). */
#define SCORE_MAX_LINK_SHARE 0.7

typedef struct params {
    double threshold; /* a block is content at this probability */
    double cut_power; /* the page's own cut (score_page_cut); 0: the threshold alone */
    int after_h1;     /* nothing before a headline in an <h1> */
    int features;     /* the JSON gives every block's text and features */
    int explain;      /* the JSON gives every block's contributions */
} params;

static const base_param table[] = {
    {"score.threshold", BASE_PARAM_DOUBLE, offsetof(params, threshold), 0, 1, "0.5",
     "a block is main content when the model gives it at least this probability", NULL, 0,
     NULL},
    {"score.cut_power", BASE_PARAM_DOUBLE, offsetof(params, cut_power), 0, 4, "1.2",
     "on a page where some block reaches score.threshold, the blocks taken are the most "
     "probable ones that maximise the F1 their probabilities (to this power) expect; 0: every "
     "block at or over score.threshold",
     NULL, 0, NULL},
    {"score.after_h1", BASE_PARAM_BOOL, offsetof(params, after_h1), 0, 0, "on",
     "on a page whose headline (the block that is most of its title) is in an <h1>, no block "
     "before the headline and above it is main content",
     NULL, 0, NULL},
    {"score.features", BASE_PARAM_BOOL, offsetof(params, features), 0, 0, "off",
     "the JSON lists every block with its text, probability and features (for fitting the "
     "model: tools/fit/)", NULL, 0, NULL},
    {"score.explain", BASE_PARAM_BOOL, offsetof(params, explain), 0, 0, "off",
     "the JSON lists every block with its rank, probability, what became of it and what moved "
     "its probability: stage two's bias and each feature's contribution to its logit",
     NULL, 0, "explain"},
};

typedef struct state {
    extract_blocks blocks;
    float *f; /* blocks.n x N_FEATURES */
    float *p; /* the probability of each block */
    size_t picked;
    double cut;    /* the probability at which blocks were taken on this page */
    size_t pinned; /* content by the model, left out for sitting in a fixed box */
    size_t side_labels; /* content by the model, left out as side labels */
    size_t before_h1; /* content by the model, left out for coming before the headline */
    int features;
    int explain;
    int fallback; /* no block scored: the classic answer stands */
    double threshold;
    const score_model *decides; /* the stage whose probability is s->p */
    const score_model *stage1;
    method_score_block *view;   /* each block as the shot and --explain show it */
    /* The run's parts in milliseconds: the blocks and their features, the
     * votes (the other methods run on first asking, and each block's share
     * in their answers), the two forests with stage two's context, and the
     * answer assembled from the probabilities (-1: not reached). */
    double ms_features, ms_votes, ms_forests, ms_assembly;
} state;

static void state_free(void *st)
{
    state *s = st;
    extract_blocks_free(&s->blocks);
    free(s->f);
    free(s->p);
    free(s->view);
}

/* The text nodes (by dom index) of another method's answer. */
static void mark_answer(const method_answer *a, unsigned char *member, size_t count)
{
    if (!a)
        return;
    if (a->picked) {
        for (size_t i = 0; i < count && i < a->n_picked; i++)
            member[i] = a->picked[i];
    } else if (a->span && a->span->first) {
        const extract_span *sp = a->span;
        for (const dom_node *n = sp->first; n; n = dom_next(n, NULL)) {
            if (n->kind == DOM_TEXT && n->index < count)
                member[n->index] = sp->picked ? (n->index < sp->n_picked && sp->picked[n->index]) : 1;
            if (n == sp->last)
                break;
        }
    } else if (a->node) {
        for (const dom_node *n = a->node; n; n = dom_next(n, a->node))
            if (n->kind == DOM_TEXT && n->index < count)
                member[n->index] = 1;
    }
}

/* Stage two's context of each block, from stage one's probabilities: the
 * block's, its neighbours', the blocks near it (weighted by characters),
 * the page's, its rank, and its container's. Written the same in
 * tools/fit/fit.py (context()), which fits stage two on them. */
/* The container of block i, or NULL. */
static const dom_node *container_of(const extract_blocks *b, size_t i)
{
    return b->v[i].container;
}

static size_t slot(const dom_node *n, size_t count)
{
    return n && n->index < count ? n->index : count;
}

/* Block i joins the answer: its text nodes marked in `picked`, its
 * characters and link characters added up. */
static void pick(const extract_blocks *b, size_t i, unsigned char *picked, size_t count,
                 long *chars, long *links)
{
    const extract_block *k = &b->v[i];
    *chars += k->counts.chars;
    *links += k->link_chars;
    for (size_t t = k->first; t < k->first + k->count; t++)
        if (b->texts[t]->index < count)
            picked[b->texts[t]->index] = 1;
}


static int context(const extract_blocks *b, const float *p1, float *f, size_t stride,
                   size_t count)
{
    size_t n = b->n;
    size_t *order = malloc(n * sizeof *order);
    /* Per element: stage one's probability times characters, characters,
     * and (p1 - 0.5) times characters, over the blocks below it. */
    double *cs = calloc(count + 1, sizeof *cs), *cw = calloc(count + 1, sizeof *cw),
           *gain = calloc(count + 1, sizeof *gain);
    if (!order || !cs || !cw || !gain) {
        free(order);
        free(cs);
        free(cw);
        free(gain);
        return -1;
    }
    double page = 0, chars = 0, maxp = 0, over = 0, cum = 0;
    for (size_t i = 0; i < n; i++) {
        double c = (double)b->v[i].counts.chars;
        page += p1[i] * c;
        chars += c;
        maxp = p1[i] > maxp ? p1[i] : maxp;
        over += p1[i] >= 0.5f;
        for (const dom_node *a = container_of(b, i); a; a = a->parent) {
            size_t k = slot(a, count);
            cs[k] += p1[i] * c;
            cw[k] += c;
            gain[k] += (p1[i] - 0.5) * c;
        }
        if (!container_of(b, i)) {
            cs[count] += p1[i] * c;
            cw[count] += c;
        }
        order[i] = i;
    }
    /* The content's root: the element under which the blocks scored
     * content outweigh the others most. */
    const dom_node *root = NULL;
    double best = 0;
    for (size_t i = 0; i < n; i++)
        for (const dom_node *a = container_of(b, i); a; a = a->parent)
            if (gain[slot(a, count)] > best) {
                best = gain[slot(a, count)];
                root = a;
            }
    /* The rank of each block's probability: how many score lower. */
    qsort_r(order, n, sizeof *order, by_p1, (void *)p1);
    for (size_t r = 0, below = 0; r < n; r++) {
        if (r > 0 && p1[order[r]] > p1[order[r - 1]])
            below = r;
        f[order[r] * stride + N_STAGE1 + 7] = n > 1 ? (float)below / (float)(n - 1) : 0;
    }
    for (size_t i = 0; i < n; i++) {
        float *x = f + i * stride + N_STAGE1;
        x[0] = p1[i];
        x[1] = i > 0 ? p1[i - 1] : 0;
        x[2] = i + 1 < n ? p1[i + 1] : 0;
        for (int k = 0; k < 2; k++) {
            size_t r = k ? 10 : 3, lo = i > r ? i - r : 0, hi = i + r + 1 < n ? i + r + 1 : n;
            double s = 0, w = 0;
            for (size_t j = lo; j < hi; j++) {
                s += p1[j] * (double)b->v[j].counts.chars;
                w += (double)b->v[j].counts.chars;
            }
            x[3 + k] = w > 0 ? (float)(s / w) : 0;
        }
        x[5] = chars > 0 ? (float)(page / chars) : 0;
        x[6] = (float)maxp;
        cum += p1[i] * (double)b->v[i].counts.chars;
        x[8] = page > 0 ? (float)(cum / page) : 0;
        x[9] = (float)(over / (double)n);
        const dom_node *c = container_of(b, i);
        size_t ci = slot(c, count);
        x[10] = cw[ci] > 0 ? (float)(cs[ci] / cw[ci]) : 0;
        const dom_node *a = c ? c->parent : NULL;
        for (int l = 0; l < 3; l++) {
            size_t ai = slot(a, count);
            x[11 + l] = a && cw[ai] > 0 ? (float)(cs[ai] / cw[ai]) : x[5];
            a = a ? a->parent : NULL;
        }
        int under = 0, depth = 0;
        for (const dom_node *u = c; u && root; u = u->parent, depth++)
            if (u == root) {
                under = 1;
                break;
            }
        x[14] = (float)under;
        x[15] = under ? (float)depth / 10.0f : -1.0f;
    }
    free(order);
    free(cs);
    free(cw);
    free(gain);
    return 0;
}

/* A forest laid out for reading: every tree made complete to the forest's
 * depth (a leaf above it repeated below itself), its inner nodes in
 * breadth-first order, so that a block goes down a tree by arithmetic, with
 * no branch to guess (node i's children are 2i+1 and 2i+2; the leaf
 * reached is the node's index less the inner nodes'). Each block meets
 * the same test, in the same order, as down the fitted tree, and the leaves
 * are summed in the same order: the scores are the fitted ones, bit for
 * bit. Made once per model, on first use, by whichever thread comes first. */
#define FOREST_MAX_DEPTH 8
typedef struct complete_forest {
    int depth;            /* 0: the model is deeper than FOREST_MAX_DEPTH */
    size_t inner, leaves; /* per tree: 2^depth - 1 and 2^depth */
    struct forest_test {
        float threshold;
        int32_t feature;
    } *test;              /* n_trees x inner: go right unless below */
    float *value;         /* n_trees x leaves */
} complete_forest;

static int tree_depth(const score_model *m, int32_t i)
{
    if (m->nodes[i].feature < 0)
        return 0;
    int l = tree_depth(m, m->nodes[i].left), r = tree_depth(m, m->nodes[i].right);
    return 1 + (l > r ? l : r);
}

/* Node i of the complete tree (at depth d) stands for fitted node `from`. */
static void complete_fill(const score_model *m, const complete_forest *c, size_t t,
                          int32_t from, size_t i, int d)
{
    const score_node *nd = &m->nodes[from];
    if (d == c->depth) {
        c->value[t * c->leaves + (i - c->inner)] = nd->value;
        return;
    }
    if (nd->feature < 0) {
        /* A leaf above the last level: any test sends the block to it. */
        c->test[t * c->inner + i].feature = 0;
        c->test[t * c->inner + i].threshold = 0;
        complete_fill(m, c, t, from, 2 * i + 1, d + 1);
        complete_fill(m, c, t, from, 2 * i + 2, d + 1);
        return;
    }
    c->test[t * c->inner + i].feature = nd->feature;
    c->test[t * c->inner + i].threshold = nd->threshold;
    complete_fill(m, c, t, nd->left, 2 * i + 1, d + 1);
    complete_fill(m, c, t, nd->right, 2 * i + 2, d + 1);
}

static void complete_make(const score_model *m, complete_forest *c)
{
    int depth = 0;
    for (size_t t = 0; t < m->n_trees; t++) {
        int d = tree_depth(m, m->roots[t]);
        if (d > depth)
            depth = d;
    }
    if (depth > FOREST_MAX_DEPTH || m->n_trees == 0)
        return;
    complete_forest k = {depth, ((size_t)1 << depth) - 1, (size_t)1 << depth, NULL, NULL};
    k.test = malloc(m->n_trees * (k.inner ? k.inner : 1) * sizeof *k.test);
    k.value = malloc(m->n_trees * k.leaves * sizeof *k.value);
    if (!k.test || !k.value) {
        free(k.test);
        free(k.value);
        return; /* the fitted trees are read instead */
    }
    for (size_t t = 0; t < m->n_trees; t++)
        complete_fill(m, &k, t, m->roots[t], 0, 0);
    *c = k;
}

/* Each made on its first use only: making the two was a quarter of a
 * modern-dev page's extraction, paid by every process that extracts one
 * page (glance extract FILE, a fresh worker), only once per process. */
static complete_forest forests[2];
static pthread_once_t forests_once[2] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static void forest_make_0(void) { complete_make(&score_model_default, &forests[0]); }
static void forest_make_1(void) { complete_make(&score_model_stage2, &forests[1]); }
static void (*const forest_make[2])(void) = {forest_make_0, forest_make_1};

/* Eight blocks of the scorer's features (N_FEATURES apart) down a
 * complete tree of the fitted depth, 6, which the compiler unrolls: the
 * steps of run_chunk's loop, a test's address and the next node's index
 * worked out with fewer instructions (2i + 2 less one when below is
 * 2i + 1 + not below, a NaN never below either way). */
static void run_eight_6(const struct forest_test *ts, const float *lv, size_t inner,
                        const float *x, double *sum)
{
    size_t i0 = 0, i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0, i6 = 0, i7 = 0;
#define STEP(i, j)                                                                                \
    i = 2 * i + 2 - (x[(j) * N_FEATURES + ts[i].feature] < ts[i].threshold)
#pragma GCC unroll 6
    for (int d = 0; d < 6; d++) {
        STEP(i0, 0);
        STEP(i1, 1);
        STEP(i2, 2);
        STEP(i3, 3);
        STEP(i4, 4);
        STEP(i5, 5);
        STEP(i6, 6);
        STEP(i7, 7);
    }
#undef STEP
    sum[0] += lv[i0 - inner];
    sum[1] += lv[i1 - inner];
    sum[2] += lv[i2 - inner];
    sum[3] += lv[i3 - inner];
    sum[4] += lv[i4 - inner];
    sum[5] += lv[i5 - inner];
    sum[6] += lv[i6 - inner];
    sum[7] += lv[i7 - inner];
}

/* Blocks [k0, n) of score_model_run through every tree, in the trees'
 * order: each block's sum is the one a run block by block gives. */
static void run_chunk(const score_model *m, const complete_forest *c, const float *f, size_t k0,
                      size_t n, size_t stride, double *sum)
{
    for (size_t t = 0; t < m->n_trees; t++) {
        if (c && c->depth) {
            const struct forest_test *ts = c->test + t * c->inner;
            const float *lv = c->value + t * c->leaves;
            /* Eight blocks at a time go down side by side: each step of
             * one waits on its last, not on the others'. */
            size_t k = k0;
            if (c->depth == 6 && stride == N_FEATURES)
                for (; k + 8 <= n; k += 8)
                    run_eight_6(ts, lv, c->inner, f + k * stride, sum + k);
            for (; k + 8 <= n; k += 8) {
                size_t i[8] = {0, 0, 0, 0, 0, 0, 0, 0};
                const float *x = f + k * stride;
                for (int d = 0; d < c->depth; d++)
#pragma GCC unroll 8 /* the eight indices stay in registers */
                    for (int j = 0; j < 8; j++)
                        i[j] = 2 * i[j] + 1 +
                               !(x[(size_t)j * stride + (size_t)ts[i[j]].feature] <
                                 ts[i[j]].threshold);
                for (int j = 0; j < 8; j++)
                    sum[k + (size_t)j] += lv[i[j] - c->inner];
            }
            for (; k < n; k++) {
                const float *x = f + k * stride;
                size_t i = 0;
                for (int d = 0; d < c->depth; d++)
                    i = 2 * i + 1 + !(x[ts[i].feature] < ts[i].threshold);
                sum[k] += lv[i - c->inner];
            }
            continue;
        }
        const int32_t root = m->roots[t];
        for (size_t k = k0; k < n; k++) {
            const float *x = f + k * stride;
            int32_t i = root;
            while (m->nodes[i].feature >= 0) {
                const score_node *nd = &m->nodes[i];
                i = x[nd->feature] < nd->threshold ? nd->left : nd->right;
            }
            sum[k] += m->nodes[i].value;
        }
    }
}

/* Blocks a run takes at a time through every tree: their features (388
 * bytes a block) stay in the first-level cache while the trees go by. */
#define RUN_CHUNK 64

/* Tree by tree over a chunk of the blocks, so that a tree's nodes stay in
 * the cache while the chunk's blocks go by (block by block, every tree
 * would be read again for each block), and the chunk's features while the
 * trees do (over all the blocks, a page's features, hundreds of kilobytes,
 * were read again from the second-level cache for each tree: a quarter of
 * the run's first-level misses). */
int score_model_run(const score_model *m, const float *f, size_t n, size_t stride, float *out)
{
    int which = m == &score_model_default ? 0 : m == &score_model_stage2 ? 1 : -1;
    const complete_forest *c = NULL;
    if (which >= 0) {
        pthread_once(&forests_once[which], forest_make[which]);
        c = &forests[which];
    }
    double *sum = malloc((n ? n : 1) * sizeof *sum);
    if (!sum)
        return -1;
    for (size_t k = 0; k < n; k++)
        sum[k] = m->base;
    for (size_t c0 = 0; c0 < n; c0 += RUN_CHUNK)
        run_chunk(m, c, f, c0, n - c0 < RUN_CHUNK ? n : c0 + RUN_CHUNK, stride, sum);
    for (size_t k = 0; k < n; k++)
        out[k] = (float)(1.0 / (1.0 + exp(-sum[k])));
    free(sum);
    return 0;
}

/* Orders block indices by probability, highest first (the earlier block of
 * equal ones first). */
static int by_p_desc(const void *a, const void *b, void *p)
{
    return -by_p1(a, b, p);
}

/* Each block as the shot and --explain show it, before the rules say what
 * became of it: its box, probability, rank, and whether it is the headline. */
static int view_make(state *s)
{
    const extract_blocks *b = &s->blocks;
    size_t *order = malloc(b->n * sizeof *order);
    s->view = calloc(b->n, sizeof *s->view);
    if (!order || !s->view) {
        free(order);
        return -1;
    }
    int head = 0;
    for (size_t i = 0; i < b->n; i++) {
        const float *fi = s->f + i * N_FEATURES;
        method_score_block *v = &s->view[i];
        v->box = b->v[i].box;
        v->container = b->v[i].container;
        v->p = s->p[i];
        v->chars = b->v[i].counts.chars;
        v->fate = METHOD_SCORE_BELOW;
        if (!head && !fi[EXTRACT_F_head_none] && fi[EXTRACT_F_head_rel] == 0)
            head = v->headline = 1;
        order[i] = i;
    }
    qsort_r(order, b->n, sizeof *order, by_p_desc, s->p);
    for (size_t r = 0; r < b->n; r++)
        s->view[order[r]].rank = r + 1;
    free(order);
    return 0;
}

static int run(const method_page *pg, const void *pp, void *st, method_answer *out)
{
    const params *pa = pp;
    state *s = st;
    const score_model *m = &score_model_default, *m2 = &score_model_stage2;
    const method_answer *classic = NULL;
    long picked_chars = 0, picked_links = 0, pinned_chars = 0, classic_own = 0;
    unsigned char *pinned = NULL; /* of each block: content, in a fixed box */
    char classic_why[sizeof out->why] = "";
    s->features = pa->features;
    s->explain = pa->explain;
    s->threshold = pa->threshold;
    s->ms_features = s->ms_votes = s->ms_forests = s->ms_assembly = -1;
    double t0 = base_now_ms(), t_forests = -1;
    if (extract_blocks_make(pg->dom, &s->blocks) != 0)
        return -1;
    extract_blocks *b = &s->blocks;
    if (b->n == 0) {
        snprintf(out->why, sizeof out->why, "score: no text on the page");
        return 1;
    }
    size_t count = dom_doc_count(pg->dom);
    s->f = calloc(b->n * N_FEATURES, sizeof *s->f);
    s->p = calloc(b->n, sizeof *s->p);
    unsigned char *member = calloc(count ? count : 1, 1), *picked = calloc(count ? count : 1, 1);
    long *text_chars = NULL; /* of each of the blocks' text nodes */
    int rc = -1;
    pinned = calloc(b->n, 1);
    if (!s->f || !s->p || !member || !picked || !pinned)
        goto done;
    if (extract_block_features(pg->dom, b, pg->window_w, pg->window_h, pg->title, s->f,
                               N_FEATURES) != 0)
        goto done;
    /* The votes: the share of each block's characters in each answer. */
    double t_votes = base_now_ms();
    s->ms_features = t_votes - t0;
    text_chars = malloc((b->n_texts ? b->n_texts : 1) * sizeof *text_chars);
    if (!text_chars)
        goto done;
    for (size_t t = 0; t < b->n_texts; t++)
        text_chars[t] = extract_count_chars(b->texts[t]->text, b->texts[t]->text_len);
    for (size_t v = 0; v < N_VOTES; v++) {
        int vst = -1;
        const method_answer *a = pg->answer_of ? pg->answer_of(pg, voters[v], &vst) : NULL;
        if (vst == -2) {
            rc = -2; /* the time budget ran out */
            goto done;
        }
        memset(member, 0, count);
        if (vst == 0)
            mark_answer(a, member, count);
        if (v + 1 == N_VOTES) {
            classic = vst == 0 ? a : NULL;
            if (vst == 1 && a)
                snprintf(classic_why, sizeof classic_why, "%s", a->why);
            /* The classic answer's own words: its characters outside links
             * and outside boxes pinned to the window (a consent dialog). */
            for (size_t t = 0; classic && t < b->n_texts; t++) {
                const dom_node *n = b->texts[t];
                if (n->index < count && member[n->index] && !n->in_link && !n->in_fixed)
                    classic_own += text_chars[t];
            }
        }
        for (size_t i = 0; i < b->n; i++) {
            const extract_block *k = &b->v[i];
            long in = 0, all = 0;
            for (size_t t = k->first; t < k->first + k->count; t++) {
                const dom_node *n = b->texts[t];
                long c = text_chars[t];
                all += c;
                in += n->index < count && member[n->index] ? c : 0;
            }
            s->f[i * N_FEATURES + EXTRACT_N_FEATURES + v] = all ? (float)in / (float)all : 0;
        }
    }
    t_forests = base_now_ms();
    s->ms_votes = t_forests - t_votes;
    if (m->n_features != N_STAGE1 || (m2->n_trees && m2->n_features != N_FEATURES)) {
        /* The features are there to be fitted on (score.features); no
         * block is scored by a model that reads others. */
        snprintf(out->why, sizeof out->why, "score: the model reads %zu features, not %zu",
                 m->n_features, (size_t)N_STAGE1);
        rc = context(b, s->p, s->f, N_FEATURES, count) == 0 ? 1 : -1;
        goto done;
    }
    if (score_model_run(m, s->f, b->n, N_FEATURES, s->p) != 0 ||
        context(b, s->p, s->f, N_FEATURES, count) != 0 ||
        (m2->n_trees && score_model_run(m2, s->f, b->n, N_FEATURES, s->p) != 0))
        goto done;
    double t_assembly = base_now_ms();
    s->ms_forests = t_assembly - t_forests;
    t_forests = -1;
    s->decides = m2->n_trees ? m2 : m;
    s->stage1 = m;
    if (view_make(s) != 0)
        goto done;
    method_score_block *vw = s->view;
    /* On a page where the model finds content, the page's own cut
     * (score_page_cut): the most probable blocks an F1 is expected of. */
    s->cut = pa->threshold;
    for (size_t i = 0; i < b->n && pa->cut_power > 0; i++)
        if (s->p[i] >= pa->threshold) {
            long *chars = malloc(b->n * sizeof *chars);
            if (!chars)
                goto done;
            for (size_t k = 0; k < b->n; k++)
                chars[k] = b->v[k].counts.chars;
            s->cut = score_page_cut(s->p, chars, b->n, m2->n_trees ? m2->base : m->base,
                                    pa->cut_power);
            free(chars);
            if (s->cut < 0)
                goto done;
            break;
        }
    int head_h1 = 0; /* the headline (head_rel 0 of a page that has one) is in an <h1> */
    for (size_t i = 0; i < b->n && pa->after_h1; i++) {
        const float *fi = s->f + i * N_FEATURES;
        if (!fi[EXTRACT_F_head_none] && fi[EXTRACT_F_head_rel] == 0) {
            head_h1 = fi[EXTRACT_F_tag_h1] > 0;
            break;
        }
    }
    for (size_t i = 0; i < b->n; i++) {
        if (s->p[i] < s->cut) {
            vw[i].fate = s->p[i] >= pa->threshold ? METHOD_SCORE_CUT : METHOD_SCORE_BELOW;
            continue;
        }
        /* The headline is the page's title, which glance gives apart (as
         * the clean-up does for every method). */
        const float *fi = s->f + i * N_FEATURES;
        if (fi[EXTRACT_F_in_title] >= 1 && (fi[EXTRACT_F_tag_h1] || fi[EXTRACT_F_tag_h]) &&
            b->v[i].counts.chars >= 10) {
            vw[i].fate = METHOD_SCORE_TITLE;
            continue;
        }
        /* An article begins at its headline: on a page whose headline
         * (extract.h: the block that is most of the page's title) is in an
         * <h1>, what comes before it and above it is the site's, not the
         * article's (a list of teasers, a menu written out, a breadcrumb);
         * beside it, a product's gallery or price may come first in the
         * page's order and stays. Measured on
         * the four development corpora, cross-validated, the content before
         * such a headline is under 4% of the content on pages that have
         * one, and the rule moves lang-dev 0.918 -> 0.924 (Cyrillic
         * 0.833 -> 0.867: news sites' teasers above the article), while
         * modern-dev (0.811), scrapinghub (0.966) and the styled corpus
         * (0.960) stay. Not for a headline in an <h2> to <h6>: that is
         * often a section's, in the middle of the text (javadoc's class
         * names), and the styled corpus lost 0.006 with it, block by block. */
        if (head_h1 && fi[EXTRACT_F_head_rel] < 0 && fi[EXTRACT_F_head_dy] < 0) {
            s->before_h1++;
            vw[i].fate = METHOD_SCORE_BEFORE_HEADLINE;
            continue;
        }
        /* Navigation and footers are never the main content by their HTML
         * meaning (the clean-up's rule too); measured on the development
         * corpora, leaving them out after the model helps a little. */
        if (fi[EXTRACT_F_in_nav] || fi[EXTRACT_F_in_footer]) {
            vw[i].fate = METHOD_SCORE_NAV;
            continue;
        }
        /* A label at the right edge of a line ("source", "edit", a
         * count): furniture of the line (extract_block_side_label). */
        if (extract_block_side_label(b, i)) {
            s->side_labels++;
            vw[i].fate = METHOD_SCORE_SIDE_LABEL;
            continue;
        }
        /* A box pinned to the window (position: fixed) stays in view while
         * the page scrolls under it: a table of contents, a synopsis, a
         * banner, a bar of buttons, never the text read through. Its
         * blocks wait, and join only if they outweigh the rest (a page
         * whose whole body is such a box, scrolled within). */
        const dom_node *c = container_of(b, i);
        if (c && c->in_fixed) {
            pinned[i] = 1;
            pinned_chars += b->v[i].counts.chars;
            s->pinned++;
            vw[i].fate = METHOD_SCORE_PINNED;
            continue;
        }
        vw[i].fate = METHOD_SCORE_TAKEN;
        s->picked++;
        pick(b, i, picked, count, &picked_chars, &picked_links);
    }
    if (s->pinned && pinned_chars >= picked_chars) {
        for (size_t i = 0; i < b->n; i++)
            if (pinned[i]) {
                pick(b, i, picked, count, &picked_chars, &picked_links);
                vw[i].fate = METHOD_SCORE_TAKEN;
            }
        s->picked += s->pinned;
        s->pinned = 0;
    }
    /* A line or two is no main content to stand against the classic
     * policy's answer or its reason for finding none. Nor are blocks that
     * are nearly all links (SCORE_MAX_LINK_SHARE: menus, a site map) when
     * the classic policy found an answer. When it found none, they stand:
     * a listing's items are links (a job board, search results). Blocks
     * of fewer links stand always (API documentation, whose type names
     * are links, half its characters or more). Cross-validated on the
     * development corpora, the older rule (links at least half of the
     * characters, whatever the classic policy found) did worse than this
     * one by 0.008 on modern-dev and on the styled corpus, and better by
     * 0.001 on lang-dev. And the classic answer stands in their place
     * only when it has more words of its own than they have (outside
     * links, and outside boxes pinned to the window): a teaser or a
     * consent dialog is no article to stand against a listing. On
     * modern-dev the classic answer stood so on 10 pages of 491, and all
     * 10 scored under 0.3; with this check 2 of them remain. */
    if (s->picked &&
        (picked_chars < SCORE_MIN_CHARS ||
         (classic && (double)picked_links >= SCORE_MAX_LINK_SHARE * (double)picked_chars &&
          classic_own > picked_chars - picked_links))) {
        s->picked = 0;
        for (size_t i = 0; i < b->n; i++)
            if (vw[i].fate == METHOD_SCORE_TAKEN)
                vw[i].fate = METHOD_SCORE_SHORT;
    }
    const dom_node *top = dom_doc_body(pg->dom) ? dom_doc_body(pg->dom) : dom_doc_root(pg->dom);
    rc = s->picked ? method_answer_picked(pg, top, picked, count, out) : 1;
    if (rc == 1 && classic) {
        /* No block is main content by the model: the classic policy's
         * answer stands (a page unlike any it was fitted on). */
        s->fallback = 1;
        out->node = classic->node;
        out->span = classic->span;
        out->text = strdup(classic->text);
        /* NULL when it is GCE's element whole: method_answer_fill writes it. */
        out->html = classic->html ? strdup(classic->html) : NULL;
        rc = out->text && (out->html || !classic->html) ? 0 : -1;
    } else if (rc == 1 && classic_why[0]) {
        snprintf(out->why, sizeof out->why, "%s", classic_why);
    } else if (rc == 1) {
        snprintf(out->why, sizeof out->why, "score: no block scored as main content");
    }
    s->ms_assembly = base_now_ms() - t_assembly;
done:
    if (t_forests >= 0 && s->ms_forests < 0)
        s->ms_forests = base_now_ms() - t_forests;
    free(pinned);
    free(text_chars);
    free(member);
    free(picked);
    return rc;
}

size_t score_feature_count(void)
{
    return N_FEATURES;
}

const char *score_feature_name(size_t i)
{
    if (i < EXTRACT_N_FEATURES)
        return extract_feature_names[i];
    if (i < N_STAGE1)
        return voters[i - EXTRACT_N_FEATURES];
    return i < N_FEATURES ? context_names[i - N_STAGE1] : NULL;
}

static const char *feature_name(size_t i)
{
    return score_feature_name(i);
}


/* The features in plain words, in the order of score_feature_name's, for
 * --explain and the debug page (the key names are the fitter's). */
static const char *const feature_labels[] = {
    /* extract.h, EXTRACT_FEATURES */
    "length", "words", "link share", "punctuation", "sentence ends", "digits", "lines",
    "line fill", "left edge", "top in the window", "width", "height", "off the centre",
    "place down the page", "in the first screens", "font size", "bold", "line height",
    "a paragraph", "a list item", "a table cell", "in the <h1>", "a heading", "code",
    "a quotation", "a definition", "a caption", "under <article>", "under <main>",
    "under navigation", "under an aside", "under the page header", "under a footer",
    "under a form", "under a table", "under a list", "under a figure",
    "marked as the article body", "under a button or label", "tree depth",
    "class or id says content", "class or id says boilerplate", "class or id says comments",
    "class or id says byline or tags", "container's length", "container's link share",
    "blocks in the container", "previous block's length", "previous block's link share",
    "next block's length", "next block's link share", "parent's share of the page",
    "parent's link share", "grandparent's share of the page", "grandparent's link share",
    "3rd ancestor's share of the page", "3rd ancestor's link share",
    "4th ancestor's share of the page", "4th ancestor's link share",
    "wide ancestor's share of the page", "page length", "blocks on the page", "page height",
    "place among the blocks", "text before it", "in the page's title", "no headline",
    "after the headline", "below the headline", "beside the headline",
    "steps to the headline's ancestor", "repeated siblings", "level of the repetition",
    "repeated group's share of the page", "repeated group's link share",
    /* votes */
    "GCE's answer", "BTE's answer", "node characteristics' answer", "XPath blocks' answer",
    "DANAg's answer", "the classic answer",
    /* stage two's context */
    "stage one's probability", "previous block's probability", "next block's probability",
    "probability of the blocks near", "probability of the blocks around",
    "page's mean probability", "page's highest probability", "rank of its probability",
    "likely content before it", "share of blocks likely content", "container's probability",
    "parent's probability", "grandparent's probability", "3rd ancestor's probability",
    "under the content's root", "steps below the content's root"};
_Static_assert(sizeof feature_labels / sizeof feature_labels[0] == N_FEATURES,
               "a plain name for every feature");

size_t method_score_feature_count(void)
{
    return N_FEATURES;
}

const char *method_score_feature_key(size_t i)
{
    return score_feature_name(i);
}

const char *method_score_feature_label(size_t i)
{
    return i < N_FEATURES ? feature_labels[i] : NULL;
}

static const char *const fate_text[METHOD_SCORE_N_FATES][2] = {
    {"below", "under the threshold"},
    {"taken", "taken"},
    {"cut", "the cut: likely, but under the page's cut"},
    {"title", "the headline, given as the title"},
    {"before_headline", "before the headline"},
    {"nav", "under <nav> or <footer>"},
    {"side_label", "a side label"},
    {"pinned", "a box pinned to the window"},
    {"short", "too short or mostly links to answer"},
};

const char *method_score_fate_key(int fate)
{
    return fate >= 0 && fate < METHOD_SCORE_N_FATES ? fate_text[fate][0] : "?";
}

const char *method_score_fate_text(int fate)
{
    return fate >= 0 && fate < METHOD_SCORE_N_FATES ? fate_text[fate][1] : "?";
}

int method_score_view_of(const void *st, method_score_view *out)
{
    const state *s = st;
    memset(out, 0, sizeof *out);
    if (!s || !s->view)
        return -1;
    out->n = s->blocks.n;
    out->v = s->view;
    out->threshold = s->threshold;
    out->cut = s->cut;
    out->fallback = s->fallback;
    return 0;
}

/* Saabas' contributions down the fitted trees (not the complete forest,
 * whose repeated leaves have no inner values): the same tests, the same
 * leaves, so the logit is the one score_model_run sums. */
static double model_explain(const score_model *m, const float *f, double *bias, double *contrib)
{
    double b = m->base, logit = m->base;
    memset(contrib, 0, m->n_features * sizeof *contrib);
    for (size_t t = 0; t < m->n_trees; t++) {
        int32_t i = m->roots[t];
        b += m->nodes[i].value;
        while (m->nodes[i].feature >= 0) {
            const score_node *nd = &m->nodes[i];
            int32_t next = f[nd->feature] < nd->threshold ? nd->left : nd->right;
            contrib[nd->feature] += (double)m->nodes[next].value - (double)nd->value;
            i = next;
        }
        logit += m->nodes[i].value;
    }
    *bias = b;
    return logit;
}

double method_score_explain(const void *st, size_t i, double *bias, double *contrib)
{
    const state *s = st;
    if (!s || !s->view || !s->decides || i >= s->blocks.n)
        return NAN;
    double c[N_FEATURES];
    double logit = model_explain(s->decides, s->f + i * N_FEATURES, bias, c);
    for (size_t k = 0; k < N_FEATURES; k++)
        contrib[k] = k < s->decides->n_features ? c[k] : 0;
    return logit;
}

/* Orders feature indices by the size of their contribution, largest first. */
static int by_size(const void *a, const void *b, void *c)
{
    const double *v = c;
    double x = fabs(v[*(const size_t *)a]), y = fabs(v[*(const size_t *)b]);
    return x > y ? -1 : x < y;
}

/* The contributions c of block i's features (f), largest first, zeros left out. */
static json_object *contributions_json(const float *f, const double *c)
{
    size_t order[N_FEATURES];
    json_object *cs = json_object_new_array();
    for (size_t k = 0; k < N_FEATURES; k++)
        order[k] = k;
    qsort_r(order, N_FEATURES, sizeof *order, by_size, (void *)c);
    for (size_t k = 0; k < N_FEATURES && c[order[k]] != 0; k++) {
        json_object *e = json_object_new_object();
        json_object_object_add(e, "feature", json_object_new_string(feature_name(order[k])));
        json_object_object_add(e, "name", json_object_new_string(feature_labels[order[k]]));
        json_object_object_add(e, "value", json_object_new_double(f[order[k]]));
        json_object_object_add(e, "contribution", json_object_new_double(c[order[k]]));
        json_object_array_add(cs, e);
    }
    return cs;
}

/* --explain: each block, in the page's order, with what became of it and
 * why the model gave it its probability. */
static json_object *explain_json(const state *s)
{
    json_object *o = json_object_new_object(), *list = json_object_new_array();
    json_object_object_add(o, "stage",
                           json_object_new_string(
                               s->decides && s->decides->n_features == N_FEATURES
                                   ? "two: the probability that decides, from the block's features "
                                     "and stage one's probabilities around it"
                                   : "one"));
    json_object_object_add(o, "threshold", json_object_new_double(s->threshold));
    base_buf text = BASE_BUF_INIT;
    double c[N_FEATURES];
    for (size_t i = 0; i < s->blocks.n; i++) {
        const method_score_block *v = &s->view[i];
        json_object *j = json_object_new_object();
        double bias, logit = method_score_explain(s, i, &bias, c);
        extract_block_text(&s->blocks, &s->blocks.v[i], &text);
        json_object_object_add(j, "rank", json_object_new_int64((int64_t)v->rank));
        json_object_object_add(j, "p", json_object_new_double(v->p));
        json_object_object_add(j, "fate", json_object_new_string(method_score_fate_key(v->fate)));
        json_object_object_add(j, "headline", json_object_new_boolean(v->headline));
        json_object_object_add(j, "box", method_json_box(v->box));
        json_object_object_add(j, "text", json_object_new_string(text.data ? text.data : ""));
        json_object_object_add(j, "logit", json_object_new_double(logit));
        json_object_object_add(j, "bias", json_object_new_double(bias));
        json_object_object_add(j, "contributions", contributions_json(s->f + i * N_FEATURES, c));
        if (s->stage1 && s->stage1 != s->decides) {
            /* What stage one, whose probability stage two reads first, made
             * of the block's own features and the votes. */
            json_object *one = json_object_new_object();
            double b1, l1 = model_explain(s->stage1, s->f + i * N_FEATURES, &b1, c);
            for (size_t k = s->stage1->n_features; k < N_FEATURES; k++)
                c[k] = 0;
            json_object_object_add(one, "logit", json_object_new_double(l1));
            json_object_object_add(one, "bias", json_object_new_double(b1));
            json_object_object_add(one, "contributions",
                                   contributions_json(s->f + i * N_FEATURES, c));
            json_object_object_add(j, "stage_one", one);
        }
        json_object_array_add(list, j);
    }
    base_buf_free(&text);
    json_object_object_add(o, "blocks", list);
    return o;
}

static json_object *details(const method_page *pg, const void *st)
{
    const state *s = st;
    const score_model *m = &score_model_default;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "blocks", json_object_new_int64((int64_t)s->blocks.n));
    json_object_object_add(o, "picked", json_object_new_int64((int64_t)s->picked));
    json_object_object_add(o, "cut", json_object_new_double(s->cut));
    json_object_object_add(o, "pinned_left_out", json_object_new_int64((int64_t)s->pinned));
    json_object_object_add(o, "side_labels_left_out",
                           json_object_new_int64((int64_t)s->side_labels));
    json_object_object_add(o, "before_headline_left_out",
                           json_object_new_int64((int64_t)s->before_h1));
    json_object_object_add(o, "fallback", json_object_new_boolean(s->fallback));
    json_object *ms = json_object_new_object();
    const double parts[] = {s->ms_features, s->ms_votes, s->ms_forests, s->ms_assembly};
    const char *const part_names[] = {"features", "votes", "forests", "assembly"};
    for (size_t i = 0; i < 4; i++)
        if (parts[i] >= 0)
            json_object_object_add(ms, part_names[i], json_object_new_double(parts[i]));
    json_object_object_add(o, "ms_parts", ms);
    json_object_object_add(o, "model", method_json_str(m->fitted));
    if (s->explain && s->view)
        json_object_object_add(o, "explain", explain_json(s));
    if (!s->features || !s->f)
        return o;
    json_object *names = json_object_new_array();
    for (size_t i = 0; i < N_FEATURES; i++)
        json_object_array_add(names, json_object_new_string(feature_name(i)));
    json_object_object_add(o, "feature_names", names);
    json_object *list = json_object_new_array();
    base_buf text = BASE_BUF_INIT;
    for (size_t i = 0; i < s->blocks.n; i++) {
        json_object *j = json_object_new_object(), *f = json_object_new_array();
        extract_block_text(&s->blocks, &s->blocks.v[i], &text);
        json_object_object_add(j, "text", json_object_new_string(text.data ? text.data : ""));
        json_object_object_add(j, "p", json_object_new_double(s->p[i]));
        const dom_node *c = s->blocks.v[i].container;
        json_object_object_add(j, "container", json_object_new_int64(c ? (int64_t)c->index : -1));
        json_object *path = json_object_new_array();
        for (const dom_node *a = c; a; a = a->parent)
            json_object_array_add(path, json_object_new_int64((int64_t)a->index));
        json_object_object_add(j, "path", path);
        for (size_t k = 0; k < N_FEATURES; k++)
            json_object_array_add(f, json_object_new_double(s->f[i * N_FEATURES + k]));
        json_object_object_add(j, "f", f);
        json_object_array_add(list, j);
    }
    base_buf_free(&text);
    json_object_object_add(o, "block_list", list);
    return o;
}

const method_desc method_score = {
    .name = "score",
    .title = "score",
    .doc = "glance's scorer: every block of the laid-out page scored from its layout, its tree "
           "and the other methods' answers by a model fitted on the development corpora",
    .json_key = "score",
    .params = table,
    .n_params = sizeof table / sizeof table[0],
    .params_size = sizeof(params),
    .state_size = sizeof(state),
    .state_free = state_free,
    .run = run,
    .details = details,
};
