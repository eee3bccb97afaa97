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
    a->html = NULL; /* method_answer_fill, when asked for */
    if (!a->text)
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

/* A span's answer whose text and HTML wait until asked for
 * (method_answer_fill): 0 when the text would not be empty, else 1 as
 * method_answer_span. */
static int answer_span_later(const method_page *pg, const extract_span *span, method_answer *a)
{
    a->span = span;
    a->node = extract_span_holder(span);
    a->text = a->html = NULL;
    if (extract_span_has_text_kept(span, pg->cleaner ? extract_cleaner_keep : NULL, pg->cleaner))
        return 0;
    snprintf(a->why, sizeof a->why, "the clean-up left out all it found");
    return 1;
}

int method_answer_fill(const method_page *pg, method_answer *a)
{
    if (a->text && !a->html && a->node && !a->span) {
        /* An element's answer (method_answer_node), or a copy of one. */
        a->html = dom_to_html_kept(a->node, pg->cleaner ? extract_cleaner_keep : NULL, pg->cleaner,
                                   NULL);
        return a->html ? 0 : -1;
    }
    if (a->text || !a->span)
        return 0;
    return method_answer_span(pg, a->span, a) < 0 ? -1 : 0;
}

int method_answer_found_span(const method_page *pg, int r, const extract_span *sp,
                             const char *title, int later, method_answer *out)
{
    if (r < 0)
        return -1;
    if (r == 0 &&
        (r = later ? answer_span_later(pg, sp, out) : method_answer_span(pg, sp, out)) != 1)
        return r;
    const char *reason = r == 1 && out->why[0] ? out->why : sp->failure ? sp->failure : "nothing found";
    char why[sizeof out->why + 64];
    snprintf(why, sizeof why, "%s: %s", title, reason);
    snprintf(out->why, sizeof out->why, "%.*s", (int)sizeof out->why - 1, why);
    return 1;
}

typedef struct picked_ctx {
    const unsigned char *picked;
    unsigned char *shown; /* elements: 1 picked text below, 2 text but none picked */
    size_t count;
} picked_ctx;

static int picked_keep(const dom_node *n, void *p)
{
    const picked_ctx *t = p;
    if (n->index >= t->count)
        return 1;
    if (n->kind == DOM_TEXT)
        return extract_text_in_answer(n, t->picked, t->count);
    return t->shown[n->index] != 2;
}

int method_answer_picked(const method_page *pg, const dom_node *top, const unsigned char *picked,
                         size_t count, method_answer *a)
{
    picked_ctx t = {picked, calloc(count ? count : 1, 1), count};
    const dom_node **order = calloc(count ? count : 1, sizeof *order);
    int rc = -1;
    if (!t.shown || !order)
        goto done;
    /* Bottom up over top's subtree (pre-order indices run on from its own):
     * which elements hold picked text, or text but none picked. */
    size_t end = top->index, first = count, last = 0;
    for (const dom_node *n = top; n; n = dom_next(n, top))
        if (n->index < count) {
            order[n->index] = n;
            if (n->index >= end)
                end = n->index + 1;
            if (n->kind == DOM_TEXT && picked[n->index]) {
                first = n->index < first ? n->index : first;
                last = n->index > last ? n->index : last;
            }
        }
    if (first == count) {
        snprintf(a->why, sizeof a->why, "nothing picked");
        rc = 1;
        goto done;
    }
    for (size_t i = end; i-- > top->index;) {
        const dom_node *n = order[i];
        if (!n || n == top || !n->parent || dom_node_left_out(n))
            continue;
        unsigned char mine = t.shown[i];
        if (n->kind == DOM_TEXT)
            mine = !extract_count_chars(n->text, n->text_len) ? 0 : picked[i] ? 1 : 2;
        unsigned char *up = &t.shown[n->parent->index];
        if (mine == 1)
            *up = 1;
        else if (mine == 2 && *up == 0)
            *up = 2;
    }
    /* The lowest element holding the first and the last picked text. */
    const dom_node *holder = order[first]->parent;
    while (holder && holder != top && !dom_is_ancestor(holder, order[last]))
        holder = holder->parent;
    a->node = holder ? holder : top;
    a->span = NULL;
    a->text = dom_to_text_kept(a->node, picked_keep, &t, NULL);
    a->html = a->text ? dom_to_html_kept(a->node, picked_keep, &t, NULL) : NULL;
    if (!a->text || !a->html)
        goto done;
    rc = a->text[0] ? 0 : 1;
    if (rc)
        snprintf(a->why, sizeof a->why, "the picked text is empty");
done:
    free(t.shown);
    free(order);
    (void)pg;
    return rc;
}

typedef struct members_walk {
    dom_keep_fn keep;
    void *ctx;
    unsigned char *member;
    size_t count;
} members_walk;

static int members_enter(void *p, const dom_node *n)
{
    members_walk *w = p;
    if (dom_node_left_out(n) || (w->keep && !w->keep(n, w->ctx)))
        return 0;
    if (n->kind == DOM_TEXT && n->index < w->count)
        w->member[n->index] = 1;
    return 1;
}

static void members_leave(void *p, const dom_node *n)
{
    (void)p;
    (void)n;
}

int method_members(const dom_node *top, dom_keep_fn keep, void *ctx, unsigned char *member,
                   size_t count)
{
    members_walk w = {keep, ctx, member, count};
    /* The top itself is never turned down (dom_to_text_kept starts below it). */
    for (const dom_node *c = top->first_child; c; c = c->next)
        dom_walk(c, members_enter, members_leave, &w);
    return 0;
}

int method_members_span(const extract_span *sp, dom_keep_fn keep, void *ctx,
                        unsigned char *member, size_t count)
{
    if (!sp || !sp->first)
        return 0;
    const dom_node *holder = extract_span_holder(sp);
    for (const dom_node *n = sp->first; n; n = dom_next(n, NULL)) {
        if (n->kind == DOM_TEXT && n->index < count && !dom_node_left_out(n) &&
            (!sp->picked || (n->index < sp->n_picked && sp->picked[n->index]))) {
            int in = 1;
            for (const dom_node *a = n; in && a && a != holder; a = a->parent)
                in = !keep || keep(a, ctx);
            member[n->index] = (unsigned char)in;
        }
        if (n == sp->last)
            break;
    }
    return 0;
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
