/* methods/: node characteristics (Liu et al. 2017, paper 000;
 * extract/nodechar.c): text and hyperlink density per lowest block, node
 * fusion, the neighbour rule, the result analyzer. */
#include <json-c/json.h>
#include <limits.h>
#include <stddef.h>

#include "methods/method.h"

typedef struct state {
    extract_span span;
    extract_nodechar_info info;
} state;

static const base_param params[] = {
    {"nodechar.theta", BASE_PARAM_DOUBLE, offsetof(extract_nodechar_params, theta), 0, 1, "0.333",
     "hyperlink density θ at or over which a node is noise", NULL, 0, NULL},
    {"nodechar.delta", BASE_PARAM_DOUBLE, offsetof(extract_nodechar_params, delta), 0, 1e9, "0.5",
     "text density δ under which a node is content only beside a denser one (Fig. 2)", NULL, 0,
     NULL},
    {"nodechar.weight_text", BASE_PARAM_DOUBLE, offsetof(extract_nodechar_params, weight_text), 0,
     1, "0.2", "α of node fusion (formula 3); 1 - α weighs θ", NULL, 0, NULL},
    {"nodechar.epsilon", BASE_PARAM_DOUBLE, offsetof(extract_nodechar_params, epsilon), 0, 1e9,
     "0.1", "neighbours differing by less merge (the paper gives no value); 0: no fusion", NULL,
     0, NULL},
    {"nodechar.min_density", BASE_PARAM_DOUBLE, offsetof(extract_nodechar_params, min_density), 0,
     1, "0.3", "result analyzer: the content's text density must be over this", NULL, 0, NULL},
    {"nodechar.min_punct", BASE_PARAM_INT, offsetof(extract_nodechar_params, min_punct), 0,
     INT_MAX, "2", "... and its punctuation marks (any script's) more than this many", NULL, 0,
     NULL},
};

static void state_free(void *p)
{
    extract_span_free(&((state *)p)->span);
}

static int run(const method_page *pg, const void *p, void *st, method_answer *out)
{
    state *s = st;
    return method_answer_found_span(pg, extract_nodechar(pg->dom, p, &s->span, &s->info), &s->span,
                                    "node characteristics", 1, out);
}

static json_object *details(const method_page *pg, const void *st)
{
    const state *s = st;
    json_object *j = method_span_json(pg->dom, &s->span);
    json_object_object_add(j, "blocks", json_object_new_int64((int64_t)s->info.blocks));
    json_object_object_add(j, "nodes", json_object_new_int64((int64_t)s->info.nodes));
    json_object_object_add(j, "content_nodes", json_object_new_int64((int64_t)s->info.content));
    json_object_object_add(j, "text_density", json_object_new_double(s->info.density));
    json_object_object_add(j, "punctuation", json_object_new_int64(s->info.punct));
    return j;
}

const method_desc method_nodechar = {
    .name = "nodechar",
    .title = "node characteristics",
    .doc = "node characteristics (paper 000) alone: text and link density per block, fused",
    .json_key = "nodechar",
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .params_size = sizeof(extract_nodechar_params),
    .state_size = sizeof(state),
    .state_free = state_free,
    .run = run,
    .details = details,
};
