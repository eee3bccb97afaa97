/* methods/: XPath blocks (Thanadechteemapat & Fung, paper 003;
 * extract/xpathblocks.c): text leaves grouped by the XPath of their
 * parents, anchor ratios, footer phrases. */
#include <json-c/json.h>
#include <limits.h>
#include <stddef.h>

#include "methods/method.h"

typedef struct state {
    extract_span span;
    extract_xpath_info info;
} state;

static const base_param params[] = {
    {"xpath.atr_weight", BASE_PARAM_DOUBLE, offsetof(extract_xpath_params, atr_weight), 0, 1,
     "0.75", "AR = w·ATR + (1 - w)·ANR", NULL, 0, NULL},
    {"xpath.max_ar", BASE_PARAM_DOUBLE, offsetof(extract_xpath_params, max_ar), 0, 1, "0.6",
     "a block with AR at or over this is links", NULL, 0, NULL},
    {"xpath.min_chars", BASE_PARAM_INT, offsetof(extract_xpath_params, min_chars), 0, INT_MAX, "2",
     "a leaf's run of inline text needs this many characters", NULL, 0, NULL},
    {"xpath.exempt_links", BASE_PARAM_INT, offsetof(extract_xpath_params, exempt_links), 0,
     INT_MAX, "2", "a block with fewer links than this ...", NULL, 0, NULL},
    {"xpath.exempt_leaves", BASE_PARAM_INT, offsetof(extract_xpath_params, exempt_leaves), 0,
     INT_MAX, "2", "... among more leaves than this is kept whatever its AR", NULL, 0, NULL},
    {"xpath.footer_phrases", BASE_PARAM_STRING, offsetof(extract_xpath_params, footer_phrases), 0,
     0, "powered by|copyright|©|版权所有|版權所有|著作権|저작권",
     "a leaf starting with one of these ('|' between them; ASCII letters in any case) is a "
     "footer; empty: none", NULL, 0, NULL},
};

static void state_free(void *p)
{
    extract_span_free(&((state *)p)->span);
}

static int run(const method_page *pg, const void *p, void *st, method_answer *out)
{
    state *s = st;
    extract_xpath_params xp = *(const extract_xpath_params *)p;
    if (!xp.footer_phrases)
        xp.footer_phrases = "";
    return method_answer_found_span(pg, extract_xpath(pg->dom, &xp, &s->span, &s->info), &s->span,
                                    "XPath blocks", 1, out);
}

static json_object *details(const method_page *pg, const void *st)
{
    const state *s = st;
    json_object *j = method_span_json(pg->dom, &s->span);
    json_object_object_add(j, "leaves", json_object_new_int64((int64_t)s->info.leaves));
    json_object_object_add(j, "content_leaves", json_object_new_int64((int64_t)s->info.content));
    json_object_object_add(j, "footers", json_object_new_int64((int64_t)s->info.footers));
    return j;
}

const method_desc method_xpath = {
    .name = "xpath",
    .title = "XPath blocks",
    .doc = "XPath blocks (paper 003) alone: leaves grouped by their parents' XPath, anchor ratios",
    .json_key = "xpath_blocks",
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .params_size = sizeof(extract_xpath_params),
    .state_size = sizeof(state),
    .state_free = state_free,
    .run = run,
    .details = details,
};
