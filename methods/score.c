/* methods/: glance's own scorer, the default answer (DESIGN.md, "Beyond the
 * papers"). Every lowest block of the laid-out page (extract.h, Blocks) is
 * scored from what the layout and the tree say of it and from the answers
 * of the papers' methods, as votes, by a forest of trees fitted offline on
 * the development corpora (score_model.c, tools/fit/); the blocks scored
 * content make the answer, in the page's order. */
#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "methods/method.h"
#include "methods/score_model.h"

/* The methods whose answers are votes, in the order of their features. */
static const char *const voters[] = {"gce", "bte", "nodechar", "xpath", "danag"};
#define N_VOTES (sizeof voters / sizeof voters[0])
#define N_FEATURES (EXTRACT_N_FEATURES + N_VOTES)

typedef struct params {
    double threshold; /* a block is content at this probability */
    int features;     /* the JSON gives every block's text and features */
} params;

static const base_param table[] = {
    {"score.threshold", BASE_PARAM_DOUBLE, offsetof(params, threshold), 0, 1, "0.5",
     "a block is main content when the model gives it at least this probability", NULL, 0,
     NULL},
    {"score.features", BASE_PARAM_BOOL, offsetof(params, features), 0, 0, "off",
     "the JSON lists every block with its text, probability and features (for fitting the "
     "model: tools/fit/)", NULL, 0, NULL},
};

typedef struct state {
    extract_blocks blocks;
    float *f; /* blocks.n x N_FEATURES */
    float *p; /* the probability of each block */
    size_t picked;
    int features;
} state;

static void state_free(void *st)
{
    state *s = st;
    extract_blocks_free(&s->blocks);
    free(s->f);
    free(s->p);
}

/* The text nodes (by dom index) of another method's answer. */
static void mark_answer(const method_answer *a, unsigned char *member, size_t count)
{
    if (!a)
        return;
    if (a->span && a->span->first) {
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

static double model_score(const score_model *m, const float *f)
{
    double sum = m->base;
    for (size_t t = 0; t < m->n_trees; t++) {
        int32_t i = m->roots[t];
        while (m->nodes[i].feature >= 0) {
            const score_node *nd = &m->nodes[i];
            i = f[nd->feature] < nd->threshold ? nd->left : nd->right;
        }
        sum += m->nodes[i].value;
    }
    return 1.0 / (1.0 + exp(-sum));
}

static int run(const method_page *pg, const void *pp, void *st, method_answer *out)
{
    const params *pa = pp;
    state *s = st;
    const score_model *m = &score_model_default;
    s->features = pa->features;
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
    int rc = -1;
    if (!s->f || !s->p || !member || !picked)
        goto done;
    if (extract_block_features(pg->dom, b, pg->window_w, pg->window_h, pg->title, s->f,
                               N_FEATURES) != 0)
        goto done;
    /* The votes: the share of each block's characters in each answer. */
    for (size_t v = 0; v < N_VOTES; v++) {
        int vst = 0;
        const method_answer *a = pg->answer_of ? pg->answer_of(pg, voters[v], &vst) : NULL;
        memset(member, 0, count);
        mark_answer(a, member, count);
        for (size_t i = 0; i < b->n; i++) {
            const extract_block *k = &b->v[i];
            long in = 0, all = 0;
            for (size_t t = k->first; t < k->first + k->count; t++) {
                const dom_node *n = b->texts[t];
                long c = extract_count_chars(n->text, n->text_len);
                all += c;
                in += n->index < count && member[n->index] ? c : 0;
            }
            s->f[i * N_FEATURES + EXTRACT_N_FEATURES + v] = all ? (float)in / (float)all : 0;
        }
    }
    if (m->n_features != N_FEATURES) {
        /* The features are there to be fitted on (score.features); no
         * block is scored by a model that reads others. */
        snprintf(out->why, sizeof out->why, "score: the model reads %zu features, not %zu",
                 m->n_features, (size_t)N_FEATURES);
        rc = 1;
        goto done;
    }
    for (size_t i = 0; i < b->n; i++) {
        s->p[i] = (float)model_score(m, s->f + i * N_FEATURES);
        if (s->p[i] < pa->threshold)
            continue;
        s->picked++;
        const extract_block *k = &b->v[i];
        for (size_t t = k->first; t < k->first + k->count; t++)
            if (b->texts[t]->index < count)
                picked[b->texts[t]->index] = 1;
    }
    const dom_node *top = dom_doc_body(pg->dom) ? dom_doc_body(pg->dom) : dom_doc_root(pg->dom);
    rc = s->picked ? method_answer_picked(pg, top, picked, count, out) : 1;
    if (rc == 1)
        snprintf(out->why, sizeof out->why, "score: no block scored as main content");
    (void)0;
done:
    free(member);
    free(picked);
    return rc;
}

static const char *feature_name(size_t i)
{
    return i < EXTRACT_N_FEATURES ? extract_feature_names[i] : voters[i - EXTRACT_N_FEATURES];
}

static json_object *details(const method_page *pg, const void *st)
{
    const state *s = st;
    const score_model *m = &score_model_default;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "blocks", json_object_new_int64((int64_t)s->blocks.n));
    json_object_object_add(o, "picked", json_object_new_int64((int64_t)s->picked));
    json_object_object_add(o, "model", method_json_str(m->fitted));
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
