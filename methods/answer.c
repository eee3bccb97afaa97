/* methods/: what the methods share: an answer's text and HTML from an
 * element or a span, and a span's JSON. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "methods/method.h"

void method_answer_free(method_answer *a)
{
    free(a->text);
    free(a->html);
    a->text = a->html = NULL;
}

int method_answer_node(const method_page *pg, const dom_node *node, method_answer *a)
{
    dom_keep_fn keep = pg->cleaner ? extract_cleaner_keep : NULL;
    a->node = node;
    a->span = NULL;
    a->text = dom_to_text_kept(node, keep, pg->cleaner, NULL);
    a->html = dom_to_html_kept(node, keep, pg->cleaner, NULL);
    if (!a->text || !a->html)
        return -1;
    if (a->text[0] == '\0') {
        /* A chosen node whose visible text is empty is no content to a
         * reader; never hand back a silent empty result. */
        snprintf(a->why, sizeof a->why, "the chosen element holds no visible text");
        return 1;
    }
    return 0;
}

int method_answer_span(const method_page *pg, const extract_span *span, method_answer *a)
{
    a->span = span;
    a->node = extract_span_holder(span);
    a->text = extract_span_text_kept(span, pg->cleaner ? extract_cleaner_keep : NULL, pg->cleaner);
    if (!a->text)
        return -1;
    if (a->text[0] == '\0') {
        snprintf(a->why, sizeof a->why, "the clean-up left out all it found");
        return 1;
    }
    a->html = base_html_paragraphs(a->text);
    return a->html ? 0 : -1;
}

int method_answer_found_span(const method_page *pg, int r, const extract_span *sp,
                             const char *title, method_answer *out)
{
    if (r < 0)
        return -1;
    if (r == 0 && (r = method_answer_span(pg, sp, out)) != 1)
        return r;
    const char *reason = r == 1 && out->why[0] ? out->why : sp->failure ? sp->failure : "nothing found";
    char why[sizeof out->why + 64];
    snprintf(why, sizeof why, "%s: %s", title, reason);
    snprintf(out->why, sizeof out->why, "%.*s", (int)sizeof out->why - 1, why);
    return 1;
}

struct json_object *method_json_str(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

struct json_object *method_json_box(dom_box b)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "x", json_object_new_double(b.x));
    json_object_object_add(o, "y", json_object_new_double(b.y));
    json_object_object_add(o, "w", json_object_new_double(b.w));
    json_object_object_add(o, "h", json_object_new_double(b.h));
    return o;
}

struct json_object *method_span_json(dom_doc *dom, const extract_span *sp)
{
    json_object *o = json_object_new_object();
    int found = sp->first != NULL;
    json_object_object_add(o, "found", json_object_new_boolean(found));
    if (found) {
        json_object_object_add(o, "score", json_object_new_int64(sp->score));
        json_object_object_add(o, "first", method_json_str(dom_node_xpath(dom, sp->first)));
        json_object_object_add(o, "last", method_json_str(dom_node_xpath(dom, sp->last)));
    }
    json_object_object_add(o, "failure", method_json_str(sp->failure));
    return o;
}
