/* methods/score: the model shipped reads the features the code computes,
 * by name and in order, in both stages; and the scorer answers a page as a
 * reader would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "glance.h"
#include "methods/score_model.h"

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
            int32_t stack[64], top = 0;
            stack[top++] = m[k]->roots[t];
            while (top > 0) {
                const score_node *nd = &m[k]->nodes[stack[--top]];
                if (nd->feature < 0)
                    continue;
                assert_true((size_t)nd->feature < m[k]->n_features);
                assert_true(top + 2 <= 64);
                stack[top++] = nd->left;
                stack[top++] = nd->right;
            }
        }
    }
    assert_null(score_feature_name(n));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_reads_the_code_features),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
