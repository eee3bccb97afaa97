/* lib/: the pipeline of one page, and the compositions over the registry
 * of methods: auto (glance's policy: GCE weighed against BTE, its answer
 * kept to the running text) and all (every method on its own, auto
 * answering). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/escape.h"
#include "lib/geometry.h"
#include "lib/input.h"
#include "lib/pipeline.h"
#include "lib/source.h"
#include "lib/status.h"

/* auto's parameters. Measured on the benchmark (181 pages): where GCE's
 * text had under 0.3 of BTE's words, GCE's shingle F1 averaged 0.10 and
 * BTE's 0.78 (27 pages); from 0.3 up, GCE was as good or better. Stretch
 * shares 0.1 to 1 give shingle F1 0.939 to 0.942 (0.931 untrimmed); min
 * shares 0.4 to 0.6 the same. */
const base_param auto_param_table[] = {
    {"auto.min_share", BASE_PARAM_DOUBLE, offsetof(auto_params, min_share), 0, 1, "0.3",
     "GCE's answer stands when it holds at least this share of BTE's words (and is no "
     "footer); below it, BTE answers. 0: never overruled", NULL, 0, "auto_min_share"},
    {"auto.trim", BASE_PARAM_BOOL, offsetof(auto_params, trim), 0, 0, "on",
     "keep of GCE's node only the stretches BTE's count of words and tags finds dense "
     "(bylines, galleries and lists between or around the text go, and figure captions)",
     NULL, 0, "auto_trim"},
    {"auto.stretch_share", BASE_PARAM_DOUBLE, offsetof(auto_params, stretch_share), 0, 1, "0.3",
     "... every stretch scoring at least this share of the best one", NULL, 0,
     "auto_stretch_share"},
    {"auto.trim_min_share", BASE_PARAM_DOUBLE, offsetof(auto_params, trim_min_share), 0, 1,
     "0.5", "... unless that keeps under this share of GCE's words (a table, a list: the node "
     "stays whole)", NULL, 0, "auto_trim_min_share"},
};
const size_t auto_n_params = sizeof auto_param_table / sizeof auto_param_table[0];

/* The budget ------------------------------------------------------------- */

/* time_budget: checked between stages, each bounded by the limits on the
 * input (litehtml cannot be stopped within one). 1 when spent, with the
 * message set. */
static int over_budget(glance_result *res, const glance_options *o, const char *next)
{
    if (res->deadline <= 0 || base_now_ms() <= res->deadline)
        return 0;
    char why[256];
    snprintf(why, sizeof why,
             "page too costly: %.0f ms spent before %s, over the budget of %ld ms (time_budget)",
             base_now_ms() - res->t_begin, next, o->core.time_budget_ms);
    result_set_message(res, why);
    return 1;
}

/* One method ------------------------------------------------------------- */

/* The clean-up's tables for this page, made once per link share; off: none. */
static int ready_cleaner(glance_result *res, const glance_options *o)
{
    const options_core *c = &o->core;
    if (res->page.cleaner && (!c->cleanup || res->cleaner_share != c->cleanup_link_share)) {
        extract_cleaner_free(res->page.cleaner);
        res->page.cleaner = NULL;
    }
    if (c->cleanup && !res->page.cleaner) {
        res->page.cleaner = extract_cleaner_new(res->dom, c->cleanup_link_share, res->title);
        if (!res->page.cleaner)
            return -1;
        res->cleaner_share = c->cleanup_link_share;
    }
    return 0;
}

/* Runs method i of the registry on the page, once per extraction (auto
 * reads the records all made). GLANCE_OK (it answered), GLANCE_ENOCONTENT
 * (its record says why), GLANCE_ENOMEM or GLANCE_ECOSTLY. */
static glance_status run_method(glance_result *res, const glance_options *o, size_t i)
{
    const method_desc *d = methods_all[i];
    result_record *r = &res->records[i];
    if (r->ran)
        return r->found ? GLANCE_OK : GLANCE_ENOCONTENT;
    if (over_budget(res, o, d->name))
        return GLANCE_ECOSTLY;
    if (ready_cleaner(res, o) != 0)
        return GLANCE_ENOMEM;
    if (!(r->state = calloc(1, d->state_size ? d->state_size : 1)))
        return GLANCE_ENOMEM;
    double t0 = base_now_ms();
    int rc = d->run(&res->page, options_method_params(o, i), r->state, &r->ans);
    r->ms = base_now_ms() - t0;
    r->ran = 1;
    if (rc < 0)
        return GLANCE_ENOMEM;
    r->found = rc == 0;
    return r->found ? GLANCE_OK : GLANCE_ENOCONTENT;
}

/* method_page.answer_of: another method's answer, run on first asking. */
static const method_answer *answer_of(const method_page *pg, const char *name, int *status)
{
    glance_result *res = pg->pipeline;
    size_t i;
    if (status)
        *status = 0;
    if (!res->running || !methods_find(name, &i))
        return NULL;
    glance_status st = run_method(res, res->running, i);
    if (st != GLANCE_OK && st != GLANCE_ENOCONTENT && status)
        *status = -1;
    return st == GLANCE_OK ? &res->records[i].ans : NULL;
}

/* Method i's answer becomes the result's. */
static glance_status answer_with(glance_result *res, size_t i)
{
    const result_record *r = &res->records[i];
    free(res->text);
    free(res->html);
    res->text = strdup(r->ans.text);
    res->html = strdup(r->ans.html);
    res->answered = methods_all[i];
    res->chosen = r->ans.node;
    res->span = r->ans.span;
    res->rule = r->ans.rule;
    res->density = r->ans.density;
    res->xpath = res->chosen ? dom_node_xpath(res->dom, res->chosen) : "";
    free(res->message);
    res->message = NULL;
    return res->text && res->html && res->xpath ? GLANCE_OK : GLANCE_ENOMEM;
}

/* "no main content found: WHY[; WHY2]" */
static glance_status no_content(glance_result *res, const char *why, const char *why2)
{
    char msg[600];
    snprintf(msg, sizeof msg, "%s: %s%s%s", glance_strerror(GLANCE_ENOCONTENT), why,
             why2 ? "; " : "", why2 ? why2 : "");
    result_set_message(res, msg);
    return GLANCE_ENOCONTENT;
}

static glance_status run_one(glance_result *res, const glance_options *o, size_t i)
{
    glance_status st = run_method(res, o, i);
    if (st == GLANCE_OK)
        return answer_with(res, i);
    if (st == GLANCE_ENOCONTENT)
        return no_content(res, res->records[i].ans.why, NULL);
    return st;
}

/* auto's trim ------------------------------------------------------------- */

typedef struct trim_ctx {
    const unsigned char *picked; /* text nodes in a dense stretch */
    unsigned char *shown;        /* elements: 1 picked text below, 2 text but none picked */
    size_t count;
    extract_cleaner *cl;
} trim_ctx;

/* What auto reads as the article's running text: what the clean-up keeps,
 * but no caption (<figcaption> belongs to its picture, and a text answer
 * has no pictures; the HTML keeps the images). */
static int running_text(const dom_node *n, void *cl)
{
    if (n->kind == DOM_ELEMENT && strcmp(n->tag, "figcaption") == 0)
        return 0;
    return cl ? extract_cleaner_keep(n, cl) : 1;
}

/* A text node stays when a dense stretch holds it; an element when it is
 * running text and holds such text, or no text at all (an image). */
static int trim_keep(const dom_node *n, void *p)
{
    const trim_ctx *t = p;
    if (n->index >= t->count)
        return 1;
    if (n->kind == DOM_TEXT)
        return t->picked[n->index];
    if (t->shown[n->index] == 2)
        return 0;
    return running_text(n, t->cl);
}

/* BTE's answer without figure captions. */
static glance_status trim_span(glance_result *res)
{
    char *t = extract_span_text_kept(res->span, running_text, res->page.cleaner);
    if (!t)
        return GLANCE_ENOMEM;
    if (!t[0]) {
        free(t);
        return GLANCE_OK;
    }
    char *h = base_html_paragraphs(t);
    if (!h) {
        free(t);
        return GLANCE_ENOMEM;
    }
    free(res->text);
    free(res->html);
    res->text = t;
    res->html = h;
    return GLANCE_OK;
}

/* GCE's node kept to the stretches BTE's count finds dense in words
 * (extract_bte_stretches), unless that keeps too little of it. */
static glance_status trim_node(glance_result *res, const auto_params *a)
{
    auto_info *ai = &res->autoinfo;
    extract_cleaner *cl = res->page.cleaner;
    extract_span sp;
    int r = extract_bte_stretches(res->dom, res->chosen, running_text, cl, a->stretch_share, &sp);
    if (r < 0)
        return GLANCE_ENOMEM;
    ai->trim_ran = 1;
    if (r > 0)
        return GLANCE_OK;
    /* Which elements below the node hold picked text, or text but none
     * picked: bottom up over the node's subtree (its pre-order indices run
     * on from its own). */
    size_t count = sp.n_picked, top = res->chosen->index;
    trim_ctx t = {sp.picked, calloc(count ? count : 1, 1), count, cl};
    const dom_node **order = calloc(count ? count : 1, sizeof *order);
    char *text = NULL, *html = NULL;
    glance_status st = GLANCE_ENOMEM;
    if (!t.shown || !order)
        goto done;
    size_t end = top;
    for (const dom_node *n = res->chosen; n; n = dom_next(n, res->chosen))
        if (n->index < count) {
            order[n->index] = n;
            if (n->index >= end)
                end = n->index + 1;
        }
    for (size_t i = end; i-- > top;) {
        const dom_node *n = order[i];
        if (!n || n == res->chosen || !n->parent || dom_node_left_out(n))
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
    text = dom_to_text_kept(res->chosen, trim_keep, &t, NULL);
    if (!text)
        goto done;
    ai->trim_words = extract_count_words(text, strlen(text));
    long words = extract_count_words(res->text, strlen(res->text));
    st = GLANCE_OK;
    if (!text[0] || (double)ai->trim_words < a->trim_min_share * (double)words)
        goto done; /* structured content (a table, a list): the node stays whole */
    if (!(html = dom_to_html_kept(res->chosen, trim_keep, &t, NULL))) {
        st = GLANCE_ENOMEM;
        goto done;
    }
    free(res->text);
    free(res->html);
    res->text = text;
    res->html = html;
    text = html = NULL;
    ai->trimmed = 1;
done:
    free(text);
    free(html);
    free(t.shown);
    free(order);
    extract_span_free(&sp);
    return st;
}

/* The answer made the article's running text when auto.trim asks: GCE's
 * node trimmed to its dense stretches, BTE's stretch without captions. */
static glance_status trim(glance_result *res, const auto_params *a)
{
    if (!a->trim)
        return GLANCE_OK;
    if (res->answered == &method_bte)
        return trim_span(res);
    if (res->answered == &method_gce && res->chosen)
        return trim_node(res, a);
    return GLANCE_OK;
}

/* auto ------------------------------------------------------------------ */

/* 1 when `n` is or lies inside a <footer>: by its HTML meaning never the
 * main content (the clean-up leaves footers out of every answer too). */
static int in_footer(const dom_node *n)
{
    for (; n; n = n->parent)
        if (n->kind == DOM_ELEMENT && dom_is_tag(n, "footer"))
            return 1;
    return 0;
}

static long words_of(const char *text)
{
    return text ? extract_count_words(text, strlen(text)) : 0;
}

/* GCE first; BTE answers when GCE finds nothing, far less text than BTE
 * (auto.min_share) or a footer; the answer is then kept to the running
 * text (trim). */
static glance_status run_auto(glance_result *res, const glance_options *o)
{
    const auto_params *a = &o->autop;
    auto_info *ai = &res->autoinfo;
    size_t gi, bi;
    methods_find(method_gce.name, &gi);
    methods_find(method_bte.name, &bi);
    const result_record *g = &res->records[gi], *b = &res->records[bi];
    res->auto_ran = 1;
    ai->params = *a;

    glance_status st = run_method(res, o, gi);
    if (st != GLANCE_OK && st != GLANCE_ENOCONTENT)
        return st;
    if (st == GLANCE_OK && a->min_share <= 0) {
        st = answer_with(res, gi);
        return st == GLANCE_OK ? trim(res, a) : st;
    }
    if (st == GLANCE_OK) {
        /* Is GCE's answer plausible? Not when BTE finds far more text, nor
         * when it is a footer. */
        glance_status bs = run_method(res, o, bi);
        if (bs != GLANCE_OK && bs != GLANCE_ENOCONTENT)
            return bs;
        ai->checked = 1;
        ai->gce_words = words_of(g->ans.text);
        ai->bte_words = b->found ? words_of(b->ans.text) : 0;
        int footer = in_footer(g->ans.node);
        if (ai->gce_words >= a->min_share * (double)ai->bte_words && !footer) {
            st = answer_with(res, gi);
            return st == GLANCE_OK ? trim(res, a) : st;
        }
        ai->overruled = 1;
        ai->why = footer ? "in a <footer>" : "under min_share of BTE's words";
    }
    /* GCE found nothing, or was overruled: BTE decides (DESIGN.md,
     * Fallbacks). */
    st = run_method(res, o, bi);
    if (st == GLANCE_OK) {
        st = answer_with(res, bi);
        return st == GLANCE_OK ? trim(res, a) : st;
    }
    if (st != GLANCE_ENOCONTENT)
        return st;
    return g->found ? no_content(res, b->ans.why, NULL) : no_content(res, g->ans.why, b->ans.why);
}

/* all: every method on its own, its answer kept in its record; then auto
 * answers. */
static glance_status run_all(glance_result *res, const glance_options *o)
{
    for (size_t i = 0; i < methods_count; i++) {
        glance_status st = run_method(res, o, i);
        if (st != GLANCE_OK && st != GLANCE_ENOCONTENT)
            return st;
    }
    glance_status st = run_auto(res, o);
    if (st == GLANCE_OK || st == GLANCE_ENOCONTENT)
        res->all_ran = 1;
    return st;
}

glance_status pipeline_extract(glance_result *res, const glance_options *o)
{
    double t0 = base_now_ms();
    glance_status st;
    res->running = o;
    res->page.answer_of = answer_of;
    res->page.pipeline = res;
    switch (o->mode) {
    case OPTIONS_ALL: st = run_all(res, o); break;
    case OPTIONS_ONE: st = run_one(res, o, o->method); break;
    case OPTIONS_AUTO:
    default: st = run_auto(res, o); break;
    }
    res->timings.extract_ms += base_now_ms() - t0;
    res->running = NULL;
    return st;
}

/* The page ---------------------------------------------------------------- */

/* Why render/ refused or failed, in a line that names the option. */
static void render_failure(glance_result *res, const glance_options *o, render_status rs)
{
    char why[256];
    const render_opts *r = &o->core.render;
    switch (rs) {
    case RENDER_EDEPTH:
        snprintf(why, sizeof why, "elements nested deeper than %d (max_depth)", r->max_depth);
        break;
    case RENDER_EELEMENTS:
        snprintf(why, sizeof why, "%zu elements, over the limit of %zu (max_elements)",
                 res->rstats.elements, r->max_elements);
        break;
    case RENDER_EWORDS:
        snprintf(why, sizeof why, "%zu words of text, over the limit of %zu (max_words)",
                 res->rstats.words, r->max_words);
        break;
    case RENDER_EATTRS:
        snprintf(why, sizeof why, "an element with %zu attributes, over the limit of %d",
                 res->rstats.max_attrs, RENDER_MAX_ATTRS);
        break;
    case RENDER_EHEIGHT:
        snprintf(why, sizeof why, "document %d px tall, over the limit of %d (max_doc_height)",
                 res->rstats.height, r->max_doc_height);
        break;
    case RENDER_ETIME:
        snprintf(why, sizeof why,
                 "page too costly: %.0f ms to parse and lay out, over the budget of %ld ms "
                 "(time_budget)",
                 base_now_ms() - res->t_begin, o->core.time_budget_ms);
        break;
    default: snprintf(why, sizeof why, "%s", glance_strerror(status_from_render(rs))); break;
    }
    result_set_message(res, why);
}

glance_status pipeline_page(glance_context *ctx, glance_result *res, const char *html,
                            size_t len, const glance_options *o, net_session *ns,
                            const char *page_url, const char *http_charset)
{
    char why[256];
    const options_core *c = &o->core;
    res->ctx = ctx;
    res->window_w = c->render.window_w;
    res->window_h = c->render.window_h;

    char *utf8 = NULL;
    glance_status st = input_to_utf8(html, len, c->net.max_page_bytes, http_charset, &utf8,
                                     &res->charset, why, sizeof why);
    if (st != GLANCE_OK) {
        result_set_message(res, why);
        return st;
    }
    if (!c->net.offline && (st = source_fetch_sheets(res, utf8, o, ns, page_url)) != GLANCE_OK) {
        free(utf8);
        return st;
    }

    res->t_begin = base_now_ms();
    res->deadline = c->time_budget_ms > 0 ? res->t_begin + (double)c->time_budget_ms : 0;
    render_opts ro = c->render;
    /* A page from the web reads no local file. */
    ro.base_dir = page_url ? NULL : c->render.base_dir;
    ro.max_css_bytes = c->net.max_css_bytes;
    ro.max_stylesheets = c->net.max_stylesheets;
    ro.max_style_bytes = c->net.max_css_bytes;
    ro.deadline_ms = res->deadline;
    ro.plain_litehtml = !c->flex_grid;
    ro.css_lookup = res->sheets.n_sheets ? source_css_lookup : NULL;
    ro.css_lookup_ud = &res->sheets;
    render_status rs = render_load(ctx->render, utf8, &ro, &res->rdoc, &res->rstats);
    free(utf8);
    /* litehtml keeps its own copy of what it parsed. */
    for (int i = 0; i < res->sheets.n_sheets; i++) {
        free(res->sheets.sheets[i].css);
        res->sheets.sheets[i].css = NULL;
    }
    res->timings.parse_ms = res->rstats.parse_ms;
    res->timings.layout_ms = res->rstats.layout_ms + res->rstats.dom_ms;
    if (rs != RENDER_OK) {
        render_failure(res, o, rs);
        return status_from_render(rs);
    }
    res->dom = render_doc_dom(res->rdoc);
    if (o->geometry) {
        double tg = base_now_ms();
        if (geometry_apply(res->dom, o->geometry, &res->geometry) != 0)
            return GLANCE_ENOMEM;
        res->timings.layout_ms += base_now_ms() - tg;
    }
    if (!(res->title = extract_title(res->dom)))
        return GLANCE_ENOMEM;
    res->page = (method_page){.dom = res->dom, .title = res->title, .window_w = res->window_w,
                              .window_h = res->window_h};
    return pipeline_extract(res, o);
}
