/* lib/: the pipeline of one page, and the compositions over the registry
 * of methods: auto (glance's policy: GCE weighed against BTE, its answer
 * kept to the running text) and all (every method on its own, auto
 * answering). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "lib/browse.h"
#include "lib/geometry.h"
#include "lib/input.h"
#include "lib/pipeline.h"
#include "lib/source.h"
#include "lib/status.h"

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
    if (rc == -2)
        return GLANCE_ECOSTLY; /* an answer it asked for was stopped: the message is set */
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
    int local;
    if (!status)
        status = &local;
    *status = -1;
    if (!res->running || !methods_find(name, &i))
        return NULL;
    glance_status st = run_method(res, res->running, i);
    if (st == GLANCE_ECOSTLY)
        *status = -2;
    if (st != GLANCE_OK && st != GLANCE_ENOCONTENT)
        return NULL;
    *status = st == GLANCE_OK ? 0 : 1;
    return &res->records[i].ans;
}

/* Method i's answer becomes the result's. */
static glance_status answer_with(glance_result *res, size_t i)
{
    result_record *r = &res->records[i];
    if (method_answer_fill(&res->page, &r->ans) != 0)
        return GLANCE_ENOMEM;
    free(res->text);
    free(res->html);
    res->text = strdup(r->ans.text);
    res->html = strdup(r->ans.html);
    res->answered = methods_all[i];
    res->chosen = r->ans.node;
    res->span = r->ans.span;
    res->picked = r->ans.picked;
    res->n_picked = r->ans.n_picked;
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

/* auto: glance's scorer, which weighs every block of the page with the
 * other methods' answers as votes (methods/score.c). */
static glance_status run_auto(glance_result *res, const glance_options *o)
{
    size_t i;
    methods_find(method_score.name, &i);
    return run_one(res, o, i);
}

/* all: every method on its own, its answer kept in its record; then auto
 * answers. */
static glance_status run_all(glance_result *res, const glance_options *o)
{
    for (size_t i = 0; i < methods_count; i++) {
        glance_status st = run_method(res, o, i);
        if (st != GLANCE_OK && st != GLANCE_ENOCONTENT)
            return st;
        /* Each answer is shown (the JSON's "methods"). */
        if (res->records[i].found && method_answer_fill(&res->page, &res->records[i].ans) != 0)
            return GLANCE_ENOMEM;
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

static glance_status page_litehtml(glance_context *ctx, glance_result *res, const char *utf8,
                                   const glance_options *o, net_session *ns, const char *page_url);

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
    case RENDER_ECELLS:
        snprintf(why, sizeof why, "%zu table cells, over the limit of %zu (max_table_cells)",
                 res->rstats.table_cells, r->max_table_cells);
        break;
    case RENDER_EGENERATED:
        snprintf(why, sizeof why,
                 "up to %.0f characters of ::before/::after content, over the limit of %zu "
                 "(max_generated)",
                 res->rstats.generated, r->max_generated);
        break;
    case RENDER_EPSEUDO:
        snprintf(why, sizeof why,
                 "%zu ::before/::after boxes, over the limit of %zu (max_pseudo_boxes)",
                 res->rstats.pseudo_boxes, r->max_pseudo_boxes);
        break;
    case RENDER_EFLOATS:
        snprintf(why, sizeof why, "%zu floats in one formatting context, over the limit of %zu (max_floats)",
                 res->rstats.floats, r->max_floats);
        break;
    case RENDER_EPOSITIONED:
        snprintf(why, sizeof why,
                 "%zu absolutely positioned boxes, over the limit of %zu (max_positioned)",
                 res->rstats.positioned, r->max_positioned);
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
    if (c->engine == BROWSE_CHROMIUM) {
        st = browse_page(ctx, res, utf8, o, page_url);
        free(utf8);
        return st;
    }
    if (c->engine == BROWSE_AUTO) {
        /* litehtml first; the browser for a page it shows as an empty
         * shell (browse_wants_browser). */
        st = page_litehtml(ctx, res, utf8, o, ns, page_url);
        if (browse_wants_browser(res, utf8, st)) {
            glance_timings t = res->timings;
            result_forget_page(res);
            res->timings = t; /* the litehtml pass counts in the call's time */
            st = browse_page(ctx, res, utf8, o, page_url);
            res->browse.sent = 1;
            if (st == GLANCE_EBROWSER) {
                /* No browser here (or it would not start): litehtml's
                 * answer stands, as without engine auto. */
                result_forget_page(res);
                res->timings = t;
                res->browse.sent = 0;
                st = page_litehtml(ctx, res, utf8, o, ns, page_url);
            }
        }
        res->engine = res->browse.sent ? "chromium" : "litehtml";
        free(utf8);
        return st;
    }
    st = page_litehtml(ctx, res, utf8, o, ns, page_url);
    free(utf8);
    return st;
}

/* The page laid out by litehtml, its tree built, extracted. `utf8` stays
 * the caller's. */
static glance_status page_litehtml(glance_context *ctx, glance_result *res, const char *utf8,
                                   const glance_options *o, net_session *ns, const char *page_url)
{
    const options_core *c = &o->core;
    glance_status st;
    res->engine = "litehtml";
    if (!c->net.offline && (st = source_fetch_sheets(res, utf8, o, ns, page_url)) != GLANCE_OK)
        return st;

    /* JSON-LD lives in scripts, whose text never reaches the layout. */
    meta_scripts_free(&res->jsonld);
    if (meta_scripts_scan(utf8, strlen(utf8), &res->jsonld) != 0)
        return GLANCE_ENOMEM;

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
    ro.keep_hidden = o->geometry != NULL;
    /* Another engine's boxes (tools/chromium-boxes.mjs) are a desktop
     * browser's at the window's width. */
    if (o->geometry)
        ro.device = RENDER_DEVICE_DESKTOP;
    ro.css_lookup = res->sheets.n_sheets ? source_css_lookup : NULL;
    ro.css_lookup_ud = &res->sheets;
    render_status rs = render_load(ctx->render, utf8, &ro, &res->rdoc, &res->rstats);
    /* litehtml keeps its own copy of what it parsed. */
    for (int i = 0; i < res->sheets.n_sheets; i++) {
        free(res->sheets.sheets[i].css);
        res->sheets.sheets[i].css = NULL;
    }
    res->timings.parse_ms = res->rstats.parse_ms;
    res->timings.layout_ms = res->rstats.layout_ms + res->rstats.dom_ms;
    res->timings.css_ms = res->rstats.css_ms;
    res->timings.html_ms = res->rstats.html_ms;
    res->timings.style_ms = res->rstats.style_ms;
    res->timings.tree_ms = res->rstats.dom_ms;
    if (rs != RENDER_OK) {
        render_failure(res, o, rs);
        return status_from_render(rs);
    }
    res->dom = render_doc_dom(res->rdoc);
    return pipeline_tree(res, o, page_url);
}

glance_status pipeline_tree(glance_result *res, const glance_options *o, const char *page_url)
{
    if (o->geometry) {
        double tg = base_now_ms();
        if (geometry_apply(res->dom, o->geometry, &res->geometry) != 0)
            return GLANCE_ENOMEM;
        res->timings.layout_ms += base_now_ms() - tg;
    }
    if (!(res->title = extract_title(res->dom)))
        return GLANCE_ENOMEM;
    /* Links and images of every answer are written absolute against the
     * page's address and its <base href>. */
    res->base_url = meta_base_url(res->dom, page_url);
    if (res->base_url && dom_doc_set_base_url(res->dom, res->base_url) != 0)
        return GLANCE_ENOMEM;
    /* The methods see the window the page was laid out in: on a phone's
     * browser its layout viewport (render_viewport: 980 px wide for a page
     * without a meta viewport; the browser's own, from its snapshot), in
     * CSS px as the boxes are. */
    int vw = res->window_w, vh = res->window_h;
    if (res->rstats.viewport.w > 0 &&
        ((res->engine && strcmp(res->engine, "litehtml") == 0) || res->rstats.viewport.mobile)) {
        vw = res->rstats.viewport.w;
        vh = res->rstats.viewport.h;
    }
    res->page = (method_page){.dom = res->dom, .title = res->title, .window_w = vw,
                              .window_h = vh, .browser = res->own_dom};
    glance_status st2 = pipeline_extract(res, o);
    if (st2 != GLANCE_OK && st2 != GLANCE_ENOCONTENT)
        return st2;
    /* The metadata: a page without main content has them too. */
    double tm = base_now_ms();
    meta_input mi = {res->dom, &res->jsonld, res->base_url,
                     st2 == GLANCE_OK ? res->chosen : NULL};
    if (meta_read(&mi, &res->meta) != 0)
        return GLANCE_ENOMEM;
    res->meta_read = 1;
    meta_scripts_free(&res->jsonld);
    res->timings.extract_ms += base_now_ms() - tm;
    return st2;
}
