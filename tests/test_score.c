/* methods/score: the model shipped reads the features the code computes,
 * by name and in order, in both stages; and the scorer answers a page as a
 * reader would. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "glance.h"
#include "methods/score_model.h"

/* The inner nodes of tree `t` of `m`, in the order a walk from its root
 * meets them (at most MAX_INNER; the walk's stack at most 64 deep). */
#define MAX_INNER 4096

static size_t inner_nodes(const score_model *m, size_t t, int32_t *out)
{
    int32_t stack[64], top = 0;
    size_t n = 0;
    stack[top++] = m->roots[t];
    while (top > 0) {
        int32_t i = stack[--top];
        const score_node *nd = &m->nodes[i];
        if (nd->feature < 0)
            continue;
        assert_true(n < MAX_INNER);
        out[n++] = i;
        assert_true(top + 2 <= 64);
        stack[top++] = nd->left;
        stack[top++] = nd->right;
    }
    return n;
}

static void model_reads_the_code_features(void **state)
{
    (void)state;
    const score_model *m[2] = {&score_model_default, &score_model_stage2};
    size_t n = score_feature_count();
    assert_true(n > 0);
    /* Stage one reads a prefix of them, stage two all of them. */
    assert_true(m[0]->n_features > 0 && m[0]->n_features < n);
    assert_int_equal(m[1]->n_features, n);
    for (int k = 0; k < 2; k++) {
        assert_true(m[k]->n_trees > 0);
        for (size_t i = 0; i < m[k]->n_features; i++)
            if (strcmp(m[k]->features[i], score_feature_name(i)) != 0)
                fail_msg("stage %d feature %zu: the model reads \"%s\", the code computes \"%s\"",
                         k + 1, i, m[k]->features[i], score_feature_name(i));
        /* Every tree's nodes point inside the forest, and every inner node
         * reads a feature the stage has. */
        for (size_t t = 0; t < m[k]->n_trees; t++) {
            int32_t inner[MAX_INNER];
            size_t ni = inner_nodes(m[k], t, inner);
            for (size_t j = 0; j < ni; j++)
                assert_true((size_t)m[k]->nodes[inner[j]].feature < m[k]->n_features);
        }
    }
    assert_null(score_feature_name(n));
}

/* A block's probability read down the fitted trees, node by node: what
 * score_model_run must give, bit for bit, however it lays the trees out. */
static float by_the_fitted_trees(const score_model *m, const float *x)
{
    double sum = m->base;
    for (size_t t = 0; t < m->n_trees; t++) {
        int32_t i = m->roots[t];
        while (m->nodes[i].feature >= 0)
            i = x[m->nodes[i].feature] < m->nodes[i].threshold ? m->nodes[i].left
                                                                : m->nodes[i].right;
        sum += m->nodes[i].value;
    }
    return (float)(1.0 / (1.0 + exp(-sum)));
}

static void scores_are_the_fitted_trees(void **state)
{
    (void)state;
    const score_model *m[2] = {&score_model_default, &score_model_stage2};
    /* Blocks whose features are the thresholds themselves, just below
     * them, missing (NaN), or anything: every way down is taken. 8k + 5
     * blocks, as the blocks are read eight at a time. */
    enum { N = 8 * 40 + 5 };
    /* Each model with the scorer's own stride (every block's features, the
     * fast paths of score_model_run), and with another. */
    for (int r = 0; r < 4; r++) {
        int k = r % 2;
        size_t stride = r < 2 ? score_feature_count() : m[k]->n_features + 3;
        float *f = calloc(N * stride, sizeof *f), *p = calloc(N, sizeof *p);
        assert_non_null(f);
        assert_non_null(p);
        uint32_t seed = 12345u + (uint32_t)r;
#define NEXT() (seed = seed * 1664525u + 1013904223u)
        for (size_t b = 0; b < N; b++) {
            float *x = f + b * stride;
            for (size_t j = 0; j < stride; j++)
                x[j] = (float)(NEXT() % 20000u) / 100.0f - 50.0f;
            /* Down a few trees, each test met at its edge: the feature at
             * the threshold, just below it, or missing. */
            for (int w = 0; w < 4; w++) {
                int32_t i = m[k]->roots[NEXT() % m[k]->n_trees];
                while (m[k]->nodes[i].feature >= 0) {
                    const score_node *nd = &m[k]->nodes[i];
                    float *v = &x[nd->feature];
                    switch (NEXT() >> 30) {
                    case 0: *v = nd->threshold; break;
                    case 1: *v = nextafterf(nd->threshold, -INFINITY); break;
                    case 2: *v = NAN; break;
                    default: break;
                    }
                    i = *v < nd->threshold ? nd->left : nd->right;
                }
            }
        }
#undef NEXT
        assert_int_equal(score_model_run(m[k], f, N, stride, p), 0);
        for (size_t b = 0; b < N; b++) {
            float want = by_the_fitted_trees(m[k], f + b * stride);
            if (memcmp(&want, &p[b], sizeof want) != 0)
                fail_msg("stage %d block %zu: %.9g, the fitted trees give %.9g", k + 1, b,
                         (double)p[b], (double)want);
        }
        free(f);
        free(p);
    }
}

/* The page's own cut on pages whose numbers can be worked out by hand: the
 * expected F1 of the k most probable blocks, 2 S / (C + P). */
/* Every inner node carries a value for --explain's contributions: a
 * weighted mean of its children's (tools/fit: by their covers), so
 * between the two; and not all of them zero, which would put each tree's
 * whole leaf on its last split. */
static void inner_nodes_carry_their_means(void **state)
{
    (void)state;
    const score_model *m[2] = {&score_model_default, &score_model_stage2};
    for (int k = 0; k < 2; k++) {
        size_t inner = 0, nonzero = 0;
        for (size_t t = 0; t < m[k]->n_trees; t++) {
            int32_t in[MAX_INNER];
            size_t ni = inner_nodes(m[k], t, in);
            for (size_t j = 0; j < ni; j++) {
                const score_node *nd = &m[k]->nodes[in[j]];
                float l = m[k]->nodes[nd->left].value, r = m[k]->nodes[nd->right].value;
                float lo = l < r ? l : r, hi = l < r ? r : l;
                if (nd->value < lo - 1e-6f || nd->value > hi + 1e-6f)
                    fail_msg("model %d tree %zu: an inner node's value %g is not between its "
                             "children's %g and %g", k, t, nd->value, l, r);
                inner++;
                nonzero += nd->value != 0;
            }
        }
        assert_true(inner > 0 && nonzero > inner / 2);
    }
}

static void page_cut_by_hand(void **state)
{
    (void)state;
    /* One sure block and three doubtful ones, 100 characters each: P = 230;
     * k = 1..4 expect 190/330, 280/430, 370/530, 460/630, the last the
     * most: all four, the doubtful ones under a threshold of 0.5 too. */
    const float confident[] = {0.95f, 0.45f, 0.45f, 0.45f};
    const long hundred[] = {100, 100, 100, 100};
    assert_float_equal(score_page_cut(confident, hundred, 4, 0, 1), 0.45, 1e-6);
    /* The same with the stage's base at 2: read as fitted, 0.72 and 0.10;
     * k = 1 expects 144/202, k = 2 164/302: the sure block alone. */
    assert_float_equal(score_page_cut(confident, hundred, 4, 2, 1), 0.95, 1e-6);
    /* A short sure block and a long unlikely one (a comment thread under a
     * short article): 0.2 of 2 000 characters is 400 expected, more than
     * the article's 90, and taking it is expected to do better (980/2590
     * against 180/590); raised to the power 1.2, 0.2 counts 0.145, and the
     * article alone does better (176/478 against 756/2478). */
    const float thread[] = {0.9f, 0.2f};
    const long sizes[] = {100, 2000};
    assert_float_equal(score_page_cut(thread, sizes, 2, 0, 1), 0.2, 1e-6);
    assert_float_equal(score_page_cut(thread, sizes, 2, 0, 1.2), 0.9, 1e-6);
    /* Ties keep the page's order; no block, no cut below 1. */
    const float same[] = {0.7f, 0.7f};
    assert_float_equal(score_page_cut(same, sizes, 2, 0, 1), 0.7, 1e-6);
    assert_true(score_page_cut(same, sizes, 0, 0, 1) > 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_reads_the_code_features),
        cmocka_unit_test(scores_are_the_fitted_trees),
        cmocka_unit_test(page_cut_by_hand),
        cmocka_unit_test(inner_nodes_carry_their_means),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
