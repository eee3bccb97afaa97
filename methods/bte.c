/* methods/: BTE, Body Text Extraction (Finn's method as in paper 001;
 * extract/bte.c): the stretch of the page with the most words and the
 * fewest tags. */
#include <json-c/json.h>
#include <string.h>

#include "methods/method.h"

static void state_free(void *state)
{
    extract_span_free(state);
}

static int run(const method_page *pg, const void *p, void *state, method_answer *out)
{
    extract_span *sp = state;
    return method_answer_found_span(pg, extract_bte(pg->dom, sp), sp, "BTE", 0, out);
}

static json_object *details(const method_page *pg, const void *state)
{
    return method_span_json(pg->dom, state);
}

const method_desc method_bte = {
    .name = "bte",
    .title = "BTE",
    .doc = "Body Text Extraction (Finn's method, paper 001) alone: the stretch with the most "
           "words and fewest tags",
    .json_key = "bte",
    .state_size = sizeof(extract_span),
    .state_free = state_free,
    .run = run,
    .details = details,
};
