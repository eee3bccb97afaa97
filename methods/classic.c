/* methods/: the policy that was glance's default before the scorer (issue
 * 4): GCE first; BTE answers when GCE finds nothing, a footer, or far less
 * text than BTE (under min_share of its words); the answer is then kept to
 * the article's running text: GCE's node to the stretches BTE's count of
 * words and tags finds dense (bylines, galleries and lists between or
 * around the text go), BTE's stretch without figure captions. Kept as a
 * method of its own: the scorer reads its answer as a vote. */
#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "methods/method.h"

typedef struct params {
    double min_share;      /* GCE's answer stands with at least this share of
                              BTE's words; 0: never overruled */
    int trim;              /* keep of GCE's node its dense stretches */
    double stretch_share;  /* every stretch scoring this share of the best */
    double trim_min_share; /* unless that keeps under this share of its words */
} params;

/* Measured on the benchmark (181 pages): where GCE's text had under 0.3 of
 * BTE's words, GCE's shingle F1 averaged 0.10 and BTE's 0.78 (27 pages);
 * from 0.3 up, GCE was as good or better. Stretch shares 0.1 to 1 give
 * shingle F1 0.939 to 0.942 (0.931 untrimmed); min shares 0.4 to 0.6 the
 * same. */
static const base_param table[] = {
    {"classic.min_share", BASE_PARAM_DOUBLE, offsetof(params, min_share), 0, 1, "0.3",
     "GCE's answer stands when it holds at least this share of BTE's words (and is no "
     "footer); below it, BTE answers. 0: never overruled", NULL, 0, "auto_min_share"},
    {"classic.trim", BASE_PARAM_BOOL, offsetof(params, trim), 0, 0, "on",
     "keep of GCE's node only the stretches BTE's count of words and tags finds dense "
     "(bylines, galleries and lists between or around the text go, and figure captions)",
     NULL, 0, "auto_trim"},
    {"classic.stretch_share", BASE_PARAM_DOUBLE, offsetof(params, stretch_share), 0, 1, "0.3",
     "... every stretch scoring at least this share of the best one", NULL, 0,
     "auto_stretch_share"},
    {"classic.trim_min_share", BASE_PARAM_DOUBLE, offsetof(params, trim_min_share), 0, 1,
     "0.5", "... unless that keeps under this share of GCE's words (a table, a list: the node "
     "stays whole)", NULL, 0, "auto_trim_min_share"},
};

typedef struct state {
    params p;              /* what it ran with */
    const char *answered;  /* "gce" or "bte" */
    int checked, overruled;
    const char *why;       /* why GCE was overruled (static text) */
    long gce_words, bte_words;
    int trim_ran, trimmed;
    long trim_words;
    unsigned char *picked; /* the answer's text nodes, by dom index */
    size_t count;
} state;

static void state_free(void *st)
{
    free(((state *)st)->picked);
}

/* What the policy reads as the article's running text: what the clean-up
 * keeps, but no caption (<figcaption> belongs to its picture, and a text
 * answer has no pictures; the HTML keeps the images). */
static int running_text(const dom_node *n, void *cl)
{
    if (n->kind == DOM_ELEMENT && strcmp(n->tag, "figcaption") == 0)
        return 0;
    return cl ? extract_cleaner_keep(n, cl) : 1;
}

typedef struct trim_ctx {
    const unsigned char *picked; /* text nodes in a dense stretch */
    unsigned char *shown;        /* elements: 1 picked text below, 2 text but none picked */
    size_t count;
    extract_cleaner *cl;
} trim_ctx;

/* A text node stays when a dense stretch holds it; an element when it is
 * running text and holds such text, or no text at all (an image). */
static int trim_keep(const dom_node *n, void *p)
{
    const trim_ctx *t = p;
    if (n->index >= t->count)
        return 1;
    if (n->kind == DOM_TEXT)
        return extract_text_in_answer(n, t->picked, t->count);
    if (t->shown[n->index] == 2)
        return 0;
    return running_text(n, t->cl);
}

static int cleaner_keep(const dom_node *n, void *cl)
{
    return cl ? extract_cleaner_keep(n, cl) : 1;
}

static long words_of(const char *text)
{
    return text ? extract_count_words(text, strlen(text)) : 0;
}

/* 1 when `n` is or lies inside a <footer>: by its HTML meaning never the
 * main content (the clean-up leaves footers out of every answer too). */
static int in_footer(const dom_node *n)
{
    for (; n; n = n->parent)
        if (n->kind == DOM_ELEMENT && dom_is_tag(n, "footer"))
            return 1;
    return 0;
}

/* Takes another answer's text and HTML as this one's. */
static int copy_answer(const method_answer *from, method_answer *out)
{
    out->node = from->node;
    out->span = from->span;
    out->rule = from->rule;
    out->density = from->density;
    out->text = strdup(from->text);
    /* An element's answer writes its HTML when asked for (method_answer_fill). */
    out->html = from->html ? strdup(from->html) : NULL;
    return out->text && (out->html || !from->html) ? 0 : -1;
}

/* GCE's node kept to the stretches BTE's count finds dense in words
 * (extract_bte_stretches), unless that keeps too little of it. 0 (out
 * holds the answer, trimmed or whole), -1 out of memory. */
static int trim_node(const method_page *pg, state *s, const method_answer *g, method_answer *out)
{
    extract_cleaner *cl = pg->cleaner;
    const dom_node *top = g->node;
    extract_span sp;
    int r = extract_bte_stretches(pg->dom, top, running_text, cl, s->p.stretch_share, &sp);
    if (r < 0)
        return -1;
    s->trim_ran = 1;
    if (r > 0) {
        if (copy_answer(g, out) != 0)
            return -1;
        return method_members(top, cleaner_keep, cl, s->picked, s->count);
    }
    /* Which elements below the node hold picked text, or text but none
     * picked: bottom up over the node's subtree (its pre-order indices run
     * on from its own). */
    size_t count = sp.n_picked;
    trim_ctx t = {sp.picked, calloc(count ? count : 1, 1), count, cl};
    const dom_node **order = calloc(count ? count : 1, sizeof *order);
    char *text = NULL, *html = NULL;
    int rc = -1;
    if (!t.shown || !order)
        goto done;
    size_t end = top->index;
    for (const dom_node *n = top; n; n = dom_next(n, top))
        if (n->index < count) {
            order[n->index] = n;
            if (n->index >= end)
                end = n->index + 1;
        }
    for (size_t i = end; i-- > top->index;) {
        const dom_node *n = order[i];
        if (!n || n == top || !n->parent || dom_node_left_out(n))
            continue;
        unsigned char mine = t.shown[i];
        if (n->kind == DOM_TEXT)
            mine = !extract_count_chars(n->text, n->text_len) ? 0 : sp.picked[i] ? 1 : 2;
        unsigned char *up = &t.shown[n->parent->index];
        if (mine == 1)
            *up = 1;
        else if (mine == 2 && *up == 0)
            *up = 2;
    }
    if (!(text = dom_to_text_kept(top, trim_keep, &t, NULL)))
        goto done;
    s->trim_words = words_of(text);
    if (!text[0] || (double)s->trim_words < s->p.trim_min_share * (double)words_of(g->text)) {
        /* Structured content (a table, a list): the node stays whole. */
        rc = copy_answer(g, out) == 0 ? method_members(top, cleaner_keep, cl, s->picked, s->count) : -1;
        goto done;
    }
    if (!(html = dom_to_html_kept(top, trim_keep, &t, NULL)))
        goto done;
    out->node = top;
    out->rule = g->rule;
    out->density = g->density;
    out->text = text;
    out->html = html;
    text = html = NULL;
    s->trimmed = 1;
    rc = method_members(top, trim_keep, &t, s->picked, s->count);
done:
    free(text);
    free(html);
    free(t.shown);
    free(order);
    extract_span_free(&sp);
    return rc;
}

/* BTE's answer without figure captions (when that leaves any text). */
static int trim_span(const method_page *pg, state *s, const method_answer *b, method_answer *out)
{
    char *t = extract_span_text_kept(b->span, running_text, pg->cleaner);
    if (!t)
        return -1;
    if (!t[0]) {
        free(t);
        if (copy_answer(b, out) != 0)
            return -1;
        return method_members_span(b->span, cleaner_keep, pg->cleaner, s->picked, s->count);
    }
    out->node = b->node;
    out->span = b->span;
    out->text = t;
    out->html = base_html_paragraphs(t);
    if (!out->html)
        return -1;
    return method_members_span(b->span, running_text, pg->cleaner, s->picked, s->count);
}

/* `name`'s answer through the page; -2 over the time budget, -1 out of
 * memory, 0 found, 1 not found. */
static int ask(const method_page *pg, const char *name, const method_answer **a)
{
    int st = -1;
    *a = pg->answer_of ? pg->answer_of(pg, name, &st) : NULL;
    return *a ? st : st < 0 ? st : -1;
}

static int decide(const method_page *pg, state *s, method_answer *out)
{
    s->count = dom_doc_count(pg->dom);
    if (!(s->picked = calloc(s->count ? s->count : 1, 1)))
        return -1;
    const method_answer *g, *b = NULL;
    int gs = ask(pg, "gce", &g), bs = 1;
    if (gs < 0)
        return gs;
    if (gs == 0 && s->p.min_share > 0) {
        /* Is GCE's answer plausible? Not when BTE finds far more text, nor
         * when it is a footer. */
        if ((bs = ask(pg, "bte", &b)) < 0)
            return bs;
        s->checked = 1;
        s->gce_words = words_of(g->text);
        s->bte_words = bs == 0 ? words_of(b->text) : 0;
        int footer = in_footer(g->node);
        if ((double)s->gce_words < s->p.min_share * (double)s->bte_words || footer) {
            s->overruled = 1;
            s->why = footer ? "in a <footer>" : "under min_share of BTE's words";
            gs = 1;
        }
    }
    if (gs == 0) {
        s->answered = "gce";
        if (s->p.trim)
            return trim_node(pg, s, g, out);
        if (copy_answer(g, out) != 0)
            return -1;
        return method_members(g->node, cleaner_keep, pg->cleaner, s->picked, s->count);
    }
    /* GCE found nothing, or was overruled: BTE decides (DESIGN.md,
     * Fallbacks). */
    if (!b && (bs = ask(pg, "bte", &b)) < 0)
        return bs;
    if (bs == 0) {
        s->answered = "bte";
        if (s->p.trim)
            return trim_span(pg, s, b, out);
        if (copy_answer(b, out) != 0)
            return -1;
        return method_members_span(b->span, cleaner_keep, pg->cleaner, s->picked, s->count);
    }
    if (s->checked)
        snprintf(out->why, sizeof out->why, "%s", b->why);
    else
        snprintf(out->why, sizeof out->why, "%.*s; %.*s", 120, g->why, 120, b->why);
    return 1;
}

static int run(const method_page *pg, const void *pp, void *st, method_answer *out)
{
    state *s = st;
    s->p = *(const params *)pp;
    int rc = decide(pg, s, out);
    if (rc == 0) {
        /* The scorer reads the answer's text nodes as its vote. */
        out->picked = s->picked;
        out->n_picked = s->count;
    }
    return rc;
}

static json_object *details(const method_page *pg, const void *st)
{
    const state *s = st;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "answered", method_json_str(s->answered));
    if (s->checked) {
        json_object_object_add(o, "gce_words", json_object_new_int64(s->gce_words));
        json_object_object_add(o, "bte_words", json_object_new_int64(s->bte_words));
        json_object_object_add(o, "min_share", json_object_new_double(s->p.min_share));
        json_object_object_add(o, "gce_overruled", json_object_new_boolean(s->overruled));
        json_object_object_add(o, "why", method_json_str(s->why));
    }
    if (s->trim_ran) {
        json_object *t = json_object_new_object();
        json_object_object_add(t, "trimmed", json_object_new_boolean(s->trimmed));
        json_object_object_add(t, "words", json_object_new_int64(s->trim_words));
        json_object_object_add(t, "stretch_share", json_object_new_double(s->p.stretch_share));
        json_object_object_add(t, "min_share", json_object_new_double(s->p.trim_min_share));
        json_object_object_add(o, "trim", t);
    }
    return o;
}

const method_desc method_classic = {
    .name = "classic",
    .title = "classic",
    .doc = "GCE weighed against BTE (BTE answers when GCE finds nothing, a footer or far less "
           "text), kept to its running text: glance's default before the scorer",
    .json_key = "classic",
    .params = table,
    .n_params = sizeof table / sizeof table[0],
    .params_size = sizeof(params),
    .state_size = sizeof(state),
    .state_free = state_free,
    .run = run,
    .details = details,
};
