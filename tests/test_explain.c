/* Why a block (--explain, methods/score.c): for every block of three pages,
 * the bias plus the features' contributions is the block's logit, and the
 * logit is the probability the scorer gave it; the contributions are
 * named in plain words; without the option the JSON has none. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "glance.h"
#include "opts.h"

static glance_context *ctx;

static int setup(void **state)
{
    (void)state;
    ctx = glance_context_new();
    return ctx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    glance_context_free(ctx);
    return 0;
}

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, key, &v))
        fail_msg("no \"%s\" in %.200s", key, json_object_to_json_string(o));
    return v;
}

/* The sum of the contributions listed, each named. */
static double sum_of(json_object *list)
{
    double sum = 0;
    for (size_t k = 0; k < json_object_array_length(list); k++) {
        json_object *c = json_object_array_get_idx(list, k);
        const char *name = json_object_get_string(get(c, "name"));
        assert_true(name && strlen(name) > 2);
        sum += json_object_get_double(get(c, "contribution"));
    }
    return sum;
}

static void bias_plus_contributions_is_the_logit(void **state)
{
    (void)state;
    const char *pages[] = {"news.html", "news-zh.html", "docs-page.html"};
    for (size_t pi = 0; pi < 3; pi++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, pages[pi]);
        glance_options *o = OPTS("score.explain=on");
        glance_result *res = NULL;
        assert_int_equal(glance_extract_file(ctx, path, o, &res), GLANCE_OK);
        glance_options_free(o);
        json_object *j = json_tokener_parse(glance_result_json(res));
        assert_non_null(j);
        json_object *ex = get(get(j, "score"), "explain");
        assert_non_null(strstr(json_object_get_string(get(ex, "stage")), "two"));
        json_object *blocks = get(ex, "blocks");
        size_t n = json_object_array_length(blocks), taken = 0;
        assert_true(n >= 5);
        for (size_t i = 0; i < n; i++) {
            json_object *b = json_object_array_get_idx(blocks, i);
            double logit = json_object_get_double(get(b, "logit"));
            double bias = json_object_get_double(get(b, "bias"));
            double p = json_object_get_double(get(b, "p"));
            json_object *cs = get(b, "contributions");
            double sum = bias + sum_of(cs);
            if (fabs(sum - logit) > 1e-9 * fmax(1, fabs(logit)))
                fail_msg("%s block %zu: bias %.12g + contributions = %.12g, logit %.12g", pages[pi],
                         i, bias, sum, logit);
            /* The logit is the probability the scorer gave (a float). */
            assert_true(fabs(1 / (1 + exp(-logit)) - p) < 1e-6);
            /* Largest first; many features move a block, not the last
             * split's alone (the inner nodes carry their values). */
            assert_true(json_object_array_length(cs) >= 10);
            for (size_t k = 1; k < json_object_array_length(cs); k++)
                assert_true(fabs(json_object_get_double(get(json_object_array_get_idx(cs, k - 1),
                                                            "contribution"))) >=
                            fabs(json_object_get_double(
                                get(json_object_array_get_idx(cs, k), "contribution"))));
            /* Stage one, which stage two reads, adds up the same way. */
            json_object *one = get(b, "stage_one");
            double l1 = json_object_get_double(get(one, "logit"));
            double s1 = json_object_get_double(get(one, "bias")) + sum_of(get(one, "contributions"));
            assert_true(fabs(s1 - l1) <= 1e-9 * fmax(1, fabs(l1)));
            taken += strcmp(json_object_get_string(get(b, "fate")), "taken") == 0;
        }
        assert_true(taken > 0);
        json_object_put(j);
        glance_result_free(res);
    }
}

static void none_unless_asked(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/news.html", FIXTURES_DIR);
    glance_result *res = NULL;
    assert_int_equal(glance_extract_file(ctx, path, NULL, &res), GLANCE_OK);
    json_object *j = json_tokener_parse(glance_result_json(res)), *v;
    assert_false(json_object_object_get_ex(get(j, "score"), "explain", &v));
    json_object_put(j);
    glance_result_free(res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bias_plus_contributions_is_the_logit),
        cmocka_unit_test(none_unless_asked),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
