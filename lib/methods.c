/* lib/: the extractors of papers 000 (node characteristics), 003 (XPath
 * blocks) and 004 (DANAg) as answers of the public API, and every
 * extractor's own answer side by side (--method all). Each answers as BTE
 * does: a stretch of the page (some of its text nodes, for the first two),
 * its text after the clean-up, that text as paragraphs of clean HTML, and
 * the element that holds it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/result.h"

void methods_options_default(glance_options *o)
{
    extract_nodechar_params n;
    extract_nodechar_params_default(&n);
    o->nodechar = (glance_nodechar_options){n.theta, n.delta, n.weight_text, n.epsilon,
                                            n.min_density, n.min_punct};
    extract_xpath_params x;
    extract_xpath_params_default(&x);
    o->xpath = (glance_xpath_options){x.atr_weight, x.max_ar, x.min_chars, x.exempt_links,
                                      x.exempt_leaves, x.footer_phrases};
    extract_danag_params d;
    extract_danag_params_default(&d);
    o->danag = (glance_danag_options){d.gap, d.radius};
}

static int share(double v)
{
    return isfinite(v) && v >= 0 && v <= 1;
}

int methods_options_valid(const glance_options *o, char *why, size_t cap)
{
    const glance_nodechar_options *n = &o->nodechar;
    const glance_xpath_options *x = &o->xpath;
    if (!share(n->theta) || !share(n->weight_text) || !share(n->min_density))
        snprintf(why, cap, "nodechar theta %g, weight_text %g, min_density %g: must be 0 to 1",
                 n->theta, n->weight_text, n->min_density);
    else if (!isfinite(n->delta) || n->delta < 0 || !isfinite(n->epsilon) || n->epsilon < 0)
        snprintf(why, cap, "nodechar delta %g, epsilon %g: must be 0 or more", n->delta,
                 n->epsilon);
    else if (n->min_punct < 0)
        snprintf(why, cap, "nodechar min_punct %d: must be 0 or more", n->min_punct);
    else if (!share(x->atr_weight) || !share(x->max_ar))
        snprintf(why, cap, "xpath atr_weight %g, max_ar %g: must be 0 to 1", x->atr_weight,
                 x->max_ar);
    else if (x->min_chars < 0 || x->exempt_links < 0 || x->exempt_leaves < 0)
        snprintf(why, cap, "xpath min_chars, exempt_links, exempt_leaves: must be 0 or more");
    else if (o->danag.gap < 0 || o->danag.radius < 0 || o->danag.radius > 1000)
        snprintf(why, cap, "danag gap %d, radius %d: gap 0 or more, radius 0 to 1000",
                 o->danag.gap, o->danag.radius);
    else
        return 1;
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char *long_name(glance_method m)
{
    switch (m) {
    case GLANCE_METHOD_NODECHAR: return "node characteristics";
    case GLANCE_METHOD_XPATH: return "XPath blocks";
    case GLANCE_METHOD_DANAG: return "DANAg";
    default: return glance_method_name(m);
    }
}

static glance_status fail(glance_result *res, glance_method m, const char *why)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s: %s: %s", glance_strerror(GLANCE_ENOCONTENT), long_name(m), why);
    result_set_message(res, msg);
    return GLANCE_ENOCONTENT;
}

glance_status methods_run(glance_result *res, const glance_options *opts, glance_method m)
{
    double t0 = now_ms();
    extract_span *sp;
    int r;
    if (m == GLANCE_METHOD_NODECHAR) {
        const glance_nodechar_options *o = &opts->nodechar;
        extract_nodechar_params p = {o->theta, o->delta, o->weight_text, o->epsilon,
                                     o->min_density, o->min_punct};
        sp = &res->nodechar;
        extract_span_free(sp);
        r = extract_nodechar(res->dom, &p, sp, &res->nodechar_info);
        res->nodechar_ran = 1;
    } else if (m == GLANCE_METHOD_XPATH) {
        const glance_xpath_options *o = &opts->xpath;
        extract_xpath_params p = {o->atr_weight, o->max_ar, o->min_chars, o->exempt_links,
                                  o->exempt_leaves, o->footer_phrases};
        sp = &res->xpath_blocks;
        extract_span_free(sp);
        r = extract_xpath(res->dom, &p, sp, &res->xpath_info);
        res->xpath_ran = 1;
    } else if (m == GLANCE_METHOD_DANAG) {
        extract_danag_params p = {opts->danag.gap, opts->danag.radius};
        sp = &res->danag;
        extract_span_free(sp);
        r = extract_danag(res->dom, &p, sp, &res->danag_info);
        res->danag_ran = 1;
    } else {
        return GLANCE_EOPTION;
    }
    res->timings.gce_ms += now_ms() - t0;
    if (r < 0)
        return GLANCE_ENOMEM;
    if (r > 0)
        return fail(res, m, sp->failure ? sp->failure : "nothing found");
    extract_cleaner *cl;
    if (result_cleaner(res, opts, &cl))
        return GLANCE_ENOMEM;
    char *text = extract_span_text_kept(sp, cl ? extract_cleaner_keep : NULL, cl);
    if (!text)
        return GLANCE_ENOMEM;
    if (!text[0]) {
        free(text);
        return fail(res, m, "the clean-up left out all it found");
    }
    free(res->text);
    free(res->html);
    res->text = text;
    res->html = result_paragraphs_html(text);
    res->chosen = extract_span_holder(sp);
    res->xpath = res->chosen ? dom_node_xpath(res->dom, res->chosen) : "";
    if (!res->html || !res->xpath)
        return GLANCE_ENOMEM;
    res->method = m;
    free(res->message);
    res->message = NULL;
    return GLANCE_OK;
}

/* The span an answer of method m came from, when it was one. */
static const extract_span *span_of(const glance_result *res, glance_method m)
{
    switch (m) {
    case GLANCE_METHOD_BTE: return &res->bte;
    case GLANCE_METHOD_NODECHAR: return &res->nodechar;
    case GLANCE_METHOD_XPATH: return &res->xpath_blocks;
    case GLANCE_METHOD_DANAG: return &res->danag;
    default: return NULL;
    }
}

int methods_record(glance_result *res, glance_method m, glance_status st)
{
    if ((unsigned)m >= GLANCE_METHOD_ALL)
        return 0;
    struct result_answer *a = &res->answers[m];
    free(a->text);
    free(a->failure);
    memset(a, 0, sizeof *a);
    a->ran = 1;
    a->status = st;
    if (st == GLANCE_OK && res->text) {
        if (!(a->text = strdup(res->text)))
            return -1;
        a->words = extract_count_words(a->text, strlen(a->text));
        a->xpath = res->xpath;
        const extract_span *sp = span_of(res, res->method);
        if (sp && sp->first) {
            a->first = dom_node_xpath(res->dom, sp->first);
            a->last = dom_node_xpath(res->dom, sp->last);
        }
    } else if (!(a->failure = strdup(res->message ? res->message : glance_strerror(st)))) {
        return -1;
    }
    return 0;
}

void methods_forget(glance_result *res)
{
    extract_span_free(&res->nodechar);
    extract_span_free(&res->xpath_blocks);
    extract_span_free(&res->danag);
    res->nodechar_ran = res->xpath_ran = res->danag_ran = 0;
}

void methods_free(glance_result *res)
{
    methods_forget(res);
    for (int m = 0; m < GLANCE_METHOD_ALL; m++) {
        free(res->answers[m].text);
        free(res->answers[m].failure);
    }
    memset(res->answers, 0, sizeof res->answers);
    res->all_ran = 0;
}


/* auto's trim ------------------------------------------------------------ */

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

glance_status methods_trim(glance_result *res, const glance_options *opts)
{
    if (opts->auto_trim && res->method == GLANCE_METHOD_BTE) {
        extract_cleaner *cl;
        if (result_cleaner(res, opts, &cl))
            return GLANCE_ENOMEM;
        char *t = extract_span_text_kept(&res->bte, running_text, cl);
        if (!t)
            return GLANCE_ENOMEM;
        if (t[0]) {
            char *h = result_paragraphs_html(t);
            if (!h) {
                free(t);
                return GLANCE_ENOMEM;
            }
            free(res->text);
            free(res->html);
            res->text = t;
            res->html = h;
        } else {
            free(t);
        }
        return GLANCE_OK;
    }
    if (!opts->auto_trim || res->method != GLANCE_METHOD_GCE || !res->chosen)
        return GLANCE_OK;
    double t0 = now_ms();
    extract_cleaner *cl;
    if (result_cleaner(res, opts, &cl))
        return GLANCE_ENOMEM;
    extract_span sp;
    int r = extract_bte_stretches(res->dom, res->chosen, running_text, cl,
                                  opts->auto_stretch_share, &sp);
    if (r < 0)
        return GLANCE_ENOMEM;
    res->auto_trim_ran = 1;
    res->params_stretch_share = opts->auto_stretch_share;
    res->params_trim_min_share = opts->auto_trim_min_share;
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
    res->auto_trim_words = extract_count_words(text, strlen(text));
    long words = extract_count_words(res->text, strlen(res->text));
    st = GLANCE_OK;
    if (!text[0] || (double)res->auto_trim_words < opts->auto_trim_min_share * (double)words)
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
    res->auto_trimmed = 1;
done:
    res->timings.gce_ms += now_ms() - t0;
    free(text);
    free(html);
    free(t.shown);
    free(order);
    extract_span_free(&sp);
    return st;
}
