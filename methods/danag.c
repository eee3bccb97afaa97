/* methods/: DANAg (Mohammadzadeh et al. 2011, paper 004; extract/danag.c):
 * content against code characters per line, smoothed, grown across gaps. */
#include <json-c/json.h>
#include <limits.h>
#include <stddef.h>

#include "methods/method.h"

typedef struct state {
    extract_span span;
    extract_danag_info info;
} state;

static const base_param params[] = {
    {"danag.gap", BASE_PARAM_INT, offsetof(extract_danag_params, gap), 0, INT_MAX, "20",
     "lines between two paragraphs of the main area, at most", NULL, 0, NULL},
    {"danag.radius", BASE_PARAM_INT, offsetof(extract_danag_params, radius), 0, 1000, "1",
     "smoothing over lines i-r .. i+r", NULL, 0, NULL},
};

static void state_free(void *p)
{
    extract_span_free(&((state *)p)->span);
}

static int run(const method_page *pg, const void *p, void *st, method_answer *out)
{
    state *s = st;
    return method_answer_found_span(pg, extract_danag(pg->dom, p, &s->span, &s->info), &s->span,
                                    "DANAg", 1, out);
}

static json_object *details(const method_page *pg, const void *st)
{
    const state *s = st;
    json_object *j = method_span_json(pg->dom, &s->span);
    json_object_object_add(j, "lines", json_object_new_int64((int64_t)s->info.lines));
    if (s->span.first) {
        json_object *seed = json_object_new_array(), *area = json_object_new_array();
        json_object_array_add(seed, json_object_new_int64((int64_t)s->info.seed_first));
        json_object_array_add(seed, json_object_new_int64((int64_t)s->info.seed_last));
        json_object_array_add(area, json_object_new_int64((int64_t)s->info.area_first));
        json_object_array_add(area, json_object_new_int64((int64_t)s->info.area_last));
        json_object_object_add(j, "seed_lines", seed);
        json_object_object_add(j, "area_lines", area);
    }
    return j;
}

const method_desc method_danag = {
    .name = "danag",
    .title = "DANAg",
    .doc = "DANAg (paper 004) alone: content against markup per line, smoothed, grown across gaps",
    .json_key = "danag",
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .params_size = sizeof(extract_danag_params),
    .state_size = sizeof(state),
    .state_free = state_free,
    .run = run,
    .details = details,
};
