/* lib/: the public API. Bytes in, checked and made UTF-8; laid out by
 * render/; GCE on the tree; text, HTML and JSON out. */
#include "glance.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "extract/extract.h"
#include "gce/gce.h"
#include "lib/geometry.h"
#include "lib/input.h"
#include "lib/result.h"
#include "net/net.h"
#include "render/render.h"

struct glance_context {
    fonts_lib *fonts;
    render_engine *render;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

const char *glance_strerror(glance_status status)
{
    switch (status) {
    case GLANCE_OK: return "ok";
    case GLANCE_ENOCONTENT: return "no main content found";
    case GLANCE_EINPUT: return "not an HTML page";
    case GLANCE_ETOOBIG: return "input over a limit";
    case GLANCE_EOPTION: return "invalid option";
    case GLANCE_EIO: return "cannot read input";
    case GLANCE_ENOMEM: return "out of memory";
    case GLANCE_ELAYOUT: return "layout failed";
    case GLANCE_EFONTS: return "no usable font installed";
    case GLANCE_EURL: return "not an http or https URL";
    case GLANCE_EFETCH: return "could not fetch the page";
    case GLANCE_ETIMEOUT: return "timed out fetching the page";
    case GLANCE_EADDR: return "address refused: not a public address";
    case GLANCE_EREDIRECTS: return "too many redirects";
    case GLANCE_EOFFLINE: return "offline: the network is not used";
    case GLANCE_ECOSTLY: return "page too costly: over the time budget";
    }
    return "unknown status";
}

static const char *const method_names[] = {"auto", "gce", "bte", "nodechar", "xpath", "danag", "all"};

const char *glance_method_name(glance_method m)
{
    return (unsigned)m < sizeof method_names / sizeof method_names[0] ? method_names[m] : "unknown";
}

int glance_method_from_name(const char *name, glance_method *out)
{
    for (size_t i = 0; name && i < sizeof method_names / sizeof method_names[0]; i++)
        if (strcmp(name, method_names[i]) == 0) {
            *out = (glance_method)i;
            return 0;
        }
    return -1;
}

void glance_options_default(glance_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = GLANCE_METHOD_AUTO;
    /* Measured on the benchmark (181 pages): where GCE's text had under 0.3
     * of BTE's words, GCE's shingle F1 averaged 0.10 and BTE's 0.78 (27
     * pages); from 0.3 up, GCE was as good or better. */
    o->auto_min_share = 0.3;
    /* Measured on the benchmark: stretch shares 0.1 to 1 give shingle F1
     * 0.939 to 0.942 (0.931 untrimmed); min shares 0.4 to 0.6 the same. */
    o->auto_trim = 1;
    o->auto_stretch_share = 0.3;
    o->auto_trim_min_share = 0.5;
    o->cleanup = 1;
    o->cleanup_link_share = 0.5;
    methods_options_default(o);
    gce_params p;
    gce_params_default(&p);
    o->window_w = p.window_w;
    o->window_h = p.window_h;
    o->grid_rows = p.grid_rows;
    o->grid_cols = p.grid_cols;
    o->alpha = p.alpha;
    o->beta = p.beta;
    o->dw = p.dw;
    o->diff_parent = p.diff_target == GCE_DIFF_PARENT;
    o->link_area_min_links = p.link_area_min_links;
    o->link_area_min_cells = p.link_area_min_cells;
    o->link_text_page_share = p.link_text_page_share;
    o->flex_grid = 1;
    o->max_input_bytes = (size_t)64 << 20;
    o->max_depth = 512;
    o->max_css_bytes = (size_t)4 << 20;
    o->max_stylesheets = 64;
    o->max_elements = 200000;
    o->max_words = 1000000;
    o->max_doc_height = 1000000;
    o->time_budget_ms = 20000;
    o->connect_timeout_ms = 10000;
    o->timeout_ms = 30000;
    o->max_redirects = 10;
}

glance_context *glance_context_new(void)
{
    glance_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    /* libcurl's set-up is reference-counted; each context holds one. */
    if (net_global_init() != 0) {
        free(ctx);
        return NULL;
    }
    ctx->fonts = fonts_lib_new();
    ctx->render = ctx->fonts ? render_engine_new(ctx->fonts) : NULL;
    if (!ctx->render) {
        glance_context_free(ctx);
        return NULL;
    }
    return ctx;
}

void glance_context_free(glance_context *ctx)
{
    if (!ctx)
        return;
    render_engine_free(ctx->render);
    fonts_lib_free(ctx->fonts);
    net_global_cleanup();
    free(ctx);
}

static int finite_positive(double v)
{
    return isfinite(v) && v > 0;
}

/* Boxes of another engine stand for a layout at their window size only. */
static int geometry_fits(const glance_options *o, char *why, size_t cap)
{
    int w, h;
    glance_geometry_window(o->geometry, &w, &h);
    if (w == o->window_w && h == o->window_h)
        return 1;
    snprintf(why, cap, "geometry laid out in a %dx%d window, not %dx%d", w, h, o->window_w,
             o->window_h);
    return 0;
}

/* Checks the options a caller can get wrong; writes why into `why`. */
static int options_valid(const glance_options *o, char *why, size_t cap)
{
    if ((unsigned)o->method > GLANCE_METHOD_ALL)
        snprintf(why, cap, "method %d: not a glance_method", (int)o->method);
    else if (!isfinite(o->auto_min_share) || o->auto_min_share < 0 || o->auto_min_share > 1)
        snprintf(why, cap, "auto_min_share %g: must be 0 to 1", o->auto_min_share);
    else if (!isfinite(o->auto_stretch_share) || o->auto_stretch_share < 0 ||
             o->auto_stretch_share > 1 || !isfinite(o->auto_trim_min_share) ||
             o->auto_trim_min_share < 0 || o->auto_trim_min_share > 1)
        snprintf(why, cap, "auto_stretch_share %g, auto_trim_min_share %g: must be 0 to 1",
                 o->auto_stretch_share, o->auto_trim_min_share);
    else if (!isfinite(o->cleanup_link_share) || o->cleanup_link_share <= 0 ||
             o->cleanup_link_share > 1)
        snprintf(why, cap, "cleanup_link_share %g: must be above 0 and at most 1",
                 o->cleanup_link_share);
    else if (o->window_w < 100 || o->window_h < 100 || o->window_w > 16384 || o->window_h > 16384)
        snprintf(why, cap, "window %dx%d: width and height must be 100 to 16384", o->window_w, o->window_h);
    else if (o->grid_rows < 1 || o->grid_cols < 1 || o->grid_rows > 1000 || o->grid_cols > 1000)
        snprintf(why, cap, "grid %dx%d: rows and columns must be 1 to 1000", o->grid_rows, o->grid_cols);
    else if (!finite_positive(o->alpha) || o->alpha > 100)
        snprintf(why, cap, "alpha %g: must be above 0 and at most 100", o->alpha);
    else if (!isfinite(o->beta) || o->beta < 0 || o->beta > 1)
        snprintf(why, cap, "beta %g: must be 0 to 1", o->beta);
    else if (!finite_positive(o->dw) || o->dw > 100)
        snprintf(why, cap, "dw %g: must be above 0 and at most 100", o->dw);
    else if (o->link_area_min_links < 1)
        snprintf(why, cap, "link_area_min_links %d: must be at least 1", o->link_area_min_links);
    else if (!isfinite(o->link_area_min_cells) || o->link_area_min_cells < 0)
        snprintf(why, cap, "link_area_min_cells %g: must be 0 or more", o->link_area_min_cells);
    else if (!isfinite(o->link_text_page_share) || o->link_text_page_share <= 0)
        snprintf(why, cap, "link_text_page_share %g: must be over 0", o->link_text_page_share);
    else if (o->geometry && !geometry_fits(o, why, cap))
        return 0;
    else if (!methods_options_valid(o, why, cap))
        return 0;
    else if (o->max_input_bytes == 0 || o->max_depth < 1 || o->max_css_bytes == 0 ||
             o->max_stylesheets < 0 || o->max_elements == 0 || o->max_words == 0 ||
             o->max_doc_height < 1)
        snprintf(why, cap, "limits must be positive");
    else if (o->time_budget_ms < 0)
        snprintf(why, cap, "time_budget_ms %ld: must be 0 (none) or more", o->time_budget_ms);
    else if (o->connect_timeout_ms <= 0 || o->timeout_ms <= 0)
        snprintf(why, cap, "timeouts must be positive (connect_timeout_ms %ld, timeout_ms %ld)",
                 o->connect_timeout_ms, o->timeout_ms);
    else if (o->max_redirects < 0)
        snprintf(why, cap, "max_redirects %d: must be 0 or more", o->max_redirects);
    else
        return 1;
    return 0;
}

static void to_gce_params(const glance_options *o, gce_params *p)
{
    gce_params_default(p);
    p->window_w = o->window_w;
    p->window_h = o->window_h;
    p->grid_rows = o->grid_rows;
    p->grid_cols = o->grid_cols;
    p->alpha = o->alpha;
    p->beta = o->beta;
    p->dw = o->dw;
    p->diff_target = o->diff_parent ? GCE_DIFF_PARENT : GCE_DIFF_CHILD;
    p->link_area_min_links = o->link_area_min_links;
    p->link_area_min_cells = o->link_area_min_cells;
    p->link_text_page_share = o->link_text_page_share;
}

static glance_status from_render(render_status s)
{
    switch (s) {
    case RENDER_OK: return GLANCE_OK;
    case RENDER_ENOMEM: return GLANCE_ENOMEM;
    case RENDER_EFONTS: return GLANCE_EFONTS;
    case RENDER_EDEPTH:
    case RENDER_EELEMENTS:
    case RENDER_EWORDS:
    case RENDER_EHEIGHT:
    case RENDER_EATTRS: return GLANCE_ETOOBIG;
    case RENDER_ETIME: return GLANCE_ECOSTLY;
    case RENDER_EPARSE: break;
    }
    return GLANCE_ELAYOUT;
}

static glance_status finish(glance_result *res, glance_status st, double t0)
{
    res->status = st;
    res->timings.total_ms = now_ms() - t0;
    return st;
}

static glance_status run_extract(glance_result *res, const glance_options *opts);

static void to_net_opts(const glance_options *o, net_opts *n)
{
    memset(n, 0, sizeof *n);
    n->offline = o->offline;
    n->public_only = o->public_only;
    n->allow_addrs = o->allow_addrs;
    n->connect_timeout_ms = o->connect_timeout_ms;
    n->timeout_ms = o->timeout_ms;
    n->max_page_bytes = o->max_input_bytes;
    n->max_css_bytes = o->max_css_bytes;
    n->max_stylesheets = o->max_stylesheets;
    n->max_redirects = o->max_redirects;
    n->user_agent = o->user_agent;
    n->accept_language = o->accept_language;
}

static glance_status from_net(net_status s)
{
    switch (s) {
    case NET_OK: return GLANCE_OK;
    case NET_ENOMEM: return GLANCE_ENOMEM;
    case NET_EURL: return GLANCE_EURL;
    case NET_EOFFLINE: return GLANCE_EOFFLINE;
    case NET_EADDR: return GLANCE_EADDR;
    case NET_EFETCH: break;
    case NET_ETIMEOUT: return GLANCE_ETIMEOUT;
    case NET_ETOOBIG: return GLANCE_ETOOBIG;
    case NET_EREDIRECTS: return GLANCE_EREDIRECTS;
    }
    return GLANCE_EFETCH;
}

/* render/ asks here for the stylesheets net/ fetched. */
static int css_lookup(void *ud, const char *ref, const char *from, const char **css, size_t *len,
                      const char **url)
{
    const net_sheet *s = net_sheets_find(ud, ref, from);
    if (!s)
        return 0;
    *css = s->css;
    *len = s->len;
    *url = s->url;
    return 1;
}

/* Fetches the remote stylesheets of `utf8` into res->sheets (through
 * `ns`, or a session of its own) and makes their texts UTF-8. */
static glance_status fetch_sheets(glance_result *res, const char *utf8, const glance_options *opts,
                                  net_session *ns, const char *page_url)
{
    net_session *own = NULL;
    if (!ns) {
        net_opts no;
        to_net_opts(opts, &no);
        if (!(ns = own = net_session_new(&no)))
            return GLANCE_ENOMEM;
    }
    net_status st = net_fetch_sheets(ns, utf8, strlen(utf8), page_url, &res->sheets);
    net_session_free(own);
    if (st != NET_OK)
        return GLANCE_ENOMEM;
    for (int i = 0; i < res->sheets.n_sheets; i++) {
        net_sheet *sh = &res->sheets.sheets[i];
        if (!sh->css)
            continue;
        size_t n;
        char *u = input_css_to_utf8(sh->css, sh->len, sh->charset, res->charset.name, &n);
        if (!u)
            return GLANCE_ENOMEM;
        free(sh->css);
        sh->css = u;
        sh->len = n;
    }
    return GLANCE_OK;
}

/* The page's bytes, from a caller, a file or the network, to the result:
 * made UTF-8, its remote stylesheets fetched (unless offline), laid out,
 * extracted. `ns` and `page_url` are the session and URL the page came
 * from (NULL: not from the network); `http_charset` its Content-Type's. */
static glance_status extract_page(glance_context *ctx, glance_result *res, const char *html,
                                  size_t len, const glance_options *opts, net_session *ns,
                                  const char *page_url, const char *http_charset)
{
    char why[256];
    res->window_w = opts->window_w;
    res->window_h = opts->window_h;

    char *utf8 = NULL;
    glance_status st = input_to_utf8(html, len, opts->max_input_bytes, http_charset, &utf8,
                                     &res->charset, why, sizeof why);
    if (st != GLANCE_OK) {
        result_set_message(res, why);
        return st;
    }
    if (!opts->offline) {
        double tf = now_ms();
        st = fetch_sheets(res, utf8, opts, ns, page_url);
        res->fetch_ms += now_ms() - tf;
        if (st != GLANCE_OK) {
            free(utf8);
            return st;
        }
    }

    res->t_begin = now_ms();
    res->deadline = opts->time_budget_ms > 0 ? res->t_begin + (double)opts->time_budget_ms : 0;
    render_opts ro = {
        .window_w = opts->window_w,
        .window_h = opts->window_h,
        /* A page from the web reads no local file. */
        .base_dir = page_url ? NULL : opts->base_dir,
        .max_css_bytes = opts->max_css_bytes,
        .max_stylesheets = opts->max_stylesheets,
        .max_depth = opts->max_depth,
        .max_elements = opts->max_elements,
        .max_words = opts->max_words,
        .max_doc_height = opts->max_doc_height,
        .max_style_bytes = opts->max_css_bytes,
        .deadline_ms = res->deadline,
        .plain_litehtml = !opts->flex_grid,
        .css_lookup = res->sheets.n_sheets ? css_lookup : NULL,
        .css_lookup_ud = &res->sheets,
    };
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
        if (rs == RENDER_EDEPTH)
            snprintf(why, sizeof why, "elements nested deeper than %d (max_depth)", opts->max_depth);
        else if (rs == RENDER_EELEMENTS)
            snprintf(why, sizeof why, "%zu elements, over the limit of %zu (max_elements)",
                     res->rstats.elements, opts->max_elements);
        else if (rs == RENDER_EWORDS)
            snprintf(why, sizeof why, "%zu words of text, over the limit of %zu (max_words)",
                     res->rstats.words, opts->max_words);
        else if (rs == RENDER_EATTRS)
            snprintf(why, sizeof why, "an element with %zu attributes, over the limit of %d",
                     res->rstats.max_attrs, RENDER_MAX_ATTRS);
        else if (rs == RENDER_EHEIGHT)
            snprintf(why, sizeof why, "document %d px tall, over the limit of %d (max_doc_height)",
                     res->rstats.height, opts->max_doc_height);
        else if (rs == RENDER_ETIME)
            snprintf(why, sizeof why, "page too costly: %.0f ms to parse and lay out, over "
                     "the budget of %ld ms (time_budget_ms)", now_ms() - res->t_begin,
                     opts->time_budget_ms);
        else
            snprintf(why, sizeof why, "%s", glance_strerror(from_render(rs)));
        result_set_message(res, why);
        return from_render(rs);
    }
    res->dom = render_doc_dom(res->rdoc);
    if (opts->geometry) {
        double tg = now_ms();
        if (geometry_apply(res->dom, opts->geometry, &res->geometry) != 0)
            return GLANCE_ENOMEM;
        res->timings.layout_ms += now_ms() - tg;
    }
    res->title = extract_title(res->dom);
    if (!res->title)
        return GLANCE_ENOMEM;

    return run_extract(res, opts);
}

/* A new result for `out`, the options to use (the defaults for NULL), and
 * whether they are valid; the status to return at once, or GLANCE_OK. */
static glance_status begin(glance_context *ctx, const glance_options **opts,
                           glance_options *defaults, glance_result **out)
{
    *out = result_new();
    if (!*out)
        return GLANCE_ENOMEM;
    if (!*opts) {
        glance_options_default(defaults);
        *opts = defaults;
    }
    char why[256];
    if (!ctx) {
        result_set_message(*out, "no context");
        return GLANCE_EOPTION;
    }
    if (!options_valid(*opts, why, sizeof why)) {
        result_set_message(*out, why);
        return GLANCE_EOPTION;
    }
    return GLANCE_OK;
}

glance_status glance_extract(glance_context *ctx, const char *html, size_t len,
                             const glance_options *opts, glance_result **out)
{
    double t0 = now_ms();
    glance_options defaults;
    glance_status st = begin(ctx, &opts, &defaults, out);
    if (!*out)
        return st;
    if (st == GLANCE_OK && !html && len) {
        result_set_message(*out, "no input buffer");
        st = GLANCE_EOPTION;
    }
    if (st == GLANCE_OK)
        st = extract_page(ctx, *out, html, len, opts, NULL, NULL, NULL);
    return finish(*out, st, t0);
}

glance_status glance_extract_page(glance_context *ctx, const char *html, size_t len,
                                  const char *charset, const char *base_url,
                                  const glance_options *opts, glance_result **out)
{
    double t0 = now_ms();
    glance_options defaults;
    glance_status st = begin(ctx, &opts, &defaults, out);
    if (!*out)
        return st;
    if (st == GLANCE_OK && !html && len) {
        result_set_message(*out, "no input buffer");
        st = GLANCE_EOPTION;
    }
    if (st == GLANCE_OK && base_url && strncasecmp(base_url, "http://", 7) != 0 &&
        strncasecmp(base_url, "https://", 8) != 0) {
        result_set_message(*out, "the base is not an http or https URL");
        st = GLANCE_EURL;
    }
    if (st == GLANCE_OK)
        st = extract_page(ctx, *out, html, len, opts, NULL, base_url, charset);
    return finish(*out, st, t0);
}

glance_status glance_extract_url(glance_context *ctx, const char *url,
                                 const glance_options *opts, glance_result **out)
{
    double t0 = now_ms();
    glance_options defaults;
    glance_status st = begin(ctx, &opts, &defaults, out);
    if (!*out)
        return st;
    glance_result *res = *out;
    if (st == GLANCE_OK && !url) {
        result_set_message(res, "no URL");
        st = GLANCE_EOPTION;
    }
    if (st != GLANCE_OK)
        return finish(res, st, t0);
    if (!(res->url = strdup(url)))
        return finish(res, GLANCE_ENOMEM, t0);
    net_opts no;
    to_net_opts(opts, &no);
    net_session *ns = net_session_new(&no);
    if (!ns)
        return finish(res, GLANCE_ENOMEM, t0);
    net_page page;
    char why[512];
    double tf = now_ms();
    net_status ps = net_fetch_page(ns, url, &page, why, sizeof why);
    res->fetch_ms = now_ms() - tf;
    res->http_status = page.http_status;
    res->redirects = page.redirects;
    res->final_url = page.url;
    res->content_type = page.content_type;
    page.url = page.content_type = NULL;
    if (ps != NET_OK) {
        if (ps == NET_ETOOBIG)
            snprintf(why + strlen(why), sizeof why - strlen(why), " (max_input_bytes)");
        /* Say where it went wrong when a redirect took it elsewhere. */
        if (res->final_url && strcmp(res->final_url, url) != 0 && ps != NET_EOFFLINE) {
            size_t n = strlen(why);
            snprintf(why + n, sizeof why - n, " (at %s)", res->final_url);
        }
        result_set_message(res, why);
        st = from_net(ps);
    } else {
        st = extract_page(ctx, res, page.body, page.len, opts, ns, res->final_url, page.charset);
    }
    net_page_free(&page);
    net_session_free(ns);
    return finish(res, st, t0);
}

static glance_status run_gce(glance_result *res, const glance_options *opts);

/* Clean HTML of a text: a paragraph per line, escaped. */
char *result_paragraphs_html(const char *text)
{
    size_t n = strlen(text), cap = n * 6 + 16, w = 0;
    char *o = malloc(cap);
    if (!o)
        return NULL;
    w += (size_t)sprintf(o, "<p>");
    for (const char *p = text; *p; p++) {
        const char *rep = NULL;
        switch (*p) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '\n': rep = "</p><p>"; break;
        default: break;
        }
        if (rep) {
            memcpy(o + w, rep, strlen(rep));
            w += strlen(rep);
        } else {
            o[w++] = *p;
        }
    }
    memcpy(o + w, "</p>", 5);
    return o;
}

/* The clean-up's keep function and its tables, made once per page; NULL
 * (keep everything) when the clean-up is off. -1 when out of memory. */
int result_cleaner(glance_result *res, const glance_options *opts, extract_cleaner **out)
{
    *out = NULL;
    if (!opts->cleanup)
        return 0;
    if (res->cleaner && res->cleaner_share != opts->cleanup_link_share) {
        extract_cleaner_free(res->cleaner);
        res->cleaner = NULL;
    }
    if (!res->cleaner) {
        res->cleaner = extract_cleaner_new(res->dom, opts->cleanup_link_share, res->title);
        if (!res->cleaner)
            return -1;
        res->cleaner_share = opts->cleanup_link_share;
    }
    *out = res->cleaner;
    return 0;
}

/* BTE's span (into res->bte) and its text after the clean-up (malloc'd,
 * into *text); the status. Run once per extraction: auto's plausibility
 * check and BTE's answer share it. */
static glance_status bte_text(glance_result *res, const glance_options *opts, char **text)
{
    *text = NULL;
    double tb = now_ms();
    int b = extract_bte(res->dom, &res->bte);
    extract_cleaner *cl = NULL;
    glance_status st = GLANCE_OK;
    if (b < 0 || (b == 0 && result_cleaner(res, opts, &cl)))
        st = GLANCE_ENOMEM;
    else if (b > 0)
        st = GLANCE_ENOCONTENT;
    else if (!(*text = extract_span_text_kept(&res->bte, cl ? extract_cleaner_keep : NULL, cl)))
        st = GLANCE_ENOMEM;
    res->timings.gce_ms += now_ms() - tb;
    return st;
}

/* BTE answers with `text` (from bte_text, taken over); the status. */
static glance_status bte_answer(glance_result *res, char *text)
{
    res->text = text;
    if (text[0] == '\0')
        return GLANCE_ENOCONTENT;
    res->html = result_paragraphs_html(text);
    res->chosen = extract_span_holder(&res->bte);
    res->xpath = res->chosen ? dom_node_xpath(res->dom, res->chosen) : "";
    if (!res->html || !res->xpath)
        return GLANCE_ENOMEM;
    res->method = GLANCE_METHOD_BTE;
    return GLANCE_OK;
}

static void forget_run(glance_result *res);

/* time_budget_ms: checked between stages, each bounded by the limits on
 * the input (litehtml cannot be stopped within one). 1 when spent, with
 * the message set. */
static int over_budget(glance_result *res, const glance_options *opts, const char *next)
{
    if (res->deadline <= 0 || now_ms() <= res->deadline)
        return 0;
    char why[256];
    snprintf(why, sizeof why,
             "page too costly: %.0f ms spent before %s, over the budget of %ld ms (time_budget_ms)",
             now_ms() - res->t_begin, next, opts->time_budget_ms);
    result_set_message(res, why);
    return 1;
}

/* --method all: each extractor on its own, its answer recorded; then auto
 * answers. */
static glance_status run_all(glance_result *res, const glance_options *opts)
{
    glance_options o = *opts;
    for (int m = GLANCE_METHOD_GCE; m < GLANCE_METHOD_ALL; m++) {
        o.method = (glance_method)m;
        if (over_budget(res, opts, glance_method_name(o.method)))
            return GLANCE_ECOSTLY;
        forget_run(res);
        glance_status st = run_extract(res, &o);
        if (st != GLANCE_OK && st != GLANCE_ENOCONTENT)
            return st;
        if (methods_record(res, o.method, st))
            return GLANCE_ENOMEM;
    }
    forget_run(res);
    o.method = GLANCE_METHOD_AUTO;
    glance_status st = run_extract(res, &o);
    if ((st == GLANCE_OK || st == GLANCE_ENOCONTENT) && methods_record(res, GLANCE_METHOD_AUTO, st))
        return GLANCE_ENOMEM;
    res->all_ran = 1;
    return st;
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

/* The extractor the options ask for, on the laid-out page of `res`. */
static glance_status run_extract(glance_result *res, const glance_options *opts)
{
    if (opts->method == GLANCE_METHOD_ALL)
        return run_all(res, opts);
    if (over_budget(res, opts, glance_method_name(opts->method)))
        return GLANCE_ECOSTLY;
    if (opts->method >= GLANCE_METHOD_NODECHAR)
        return methods_run(res, opts, opts->method);
    char *btext = NULL;
    glance_status bs = GLANCE_ENOCONTENT;
    int have_bte = 0;
    if (opts->method != GLANCE_METHOD_BTE) {
        glance_status st = run_gce(res, opts);
        if (st != GLANCE_ENOMEM && opts->method != GLANCE_METHOD_GCE && over_budget(res, opts, "bte"))
            return GLANCE_ECOSTLY;
        if (st == GLANCE_OK && opts->method == GLANCE_METHOD_AUTO && opts->auto_min_share > 0) {
            /* Is GCE's answer plausible? Not when BTE finds far more text,
             * nor when it is a footer. */
            bs = bte_text(res, opts, &btext);
            have_bte = 1;
            if (bs == GLANCE_ENOMEM)
                return GLANCE_ENOMEM;
            res->auto_gce_words = extract_count_words(res->text, strlen(res->text));
            res->auto_bte_words = btext ? extract_count_words(btext, strlen(btext)) : 0;
            res->auto_checked = 1;
            res->params_auto_min_share = opts->auto_min_share;
            int footer = in_footer(res->chosen);
            if (res->auto_gce_words >= opts->auto_min_share * (double)res->auto_bte_words &&
                !footer) {
                free(btext);
                return methods_trim(res, opts);
            }
            res->auto_overruled = 1;
            res->auto_why = footer ? "in a <footer>" : "under min_share of BTE's words";
            st = GLANCE_ENOCONTENT;
        }
        if (st == GLANCE_OK && opts->method == GLANCE_METHOD_AUTO)
            return methods_trim(res, opts);
        if (st != GLANCE_ENOCONTENT || opts->method == GLANCE_METHOD_GCE)
            return st;
        /* GCE found nothing: BTE decides (DESIGN.md, Fallbacks). */
        free(res->text);
        free(res->html);
        res->text = res->html = NULL;
        res->xpath = NULL;
        res->chosen = NULL;
    }
    if (!have_bte)
        bs = bte_text(res, opts, &btext);
    res->bte_ran = 1;
    glance_status b = bs == GLANCE_OK ? bte_answer(res, btext) : bs;
    if (b == GLANCE_ENOCONTENT) {
        char why[512];
        snprintf(why, sizeof why, "%s%s%s", res->message ? res->message : glance_strerror(b),
                 res->message ? "; BTE: " : ": BTE: ",
                 res->bte.failure ? res->bte.failure : "the clean-up left out all it found");
        result_set_message(res, why);
    } else if (b == GLANCE_OK) {
        free(res->message);
        res->message = NULL;
        if (opts->method == GLANCE_METHOD_AUTO)
            b = methods_trim(res, opts);
    }
    return b;
}

/* GCE and serialisation on the laid-out page of `res`; the status. */
static glance_status run_gce(glance_result *res, const glance_options *opts)
{
    char why[256];
    double tg = now_ms();
    to_gce_params(opts, &res->params);
    int g = gce_run(res->dom, &res->params, &res->gce);
    res->gce_ran = 1;
    res->timings.gce_ms = now_ms() - tg;
    if (g < 0)
        return GLANCE_ENOMEM;
    if (g > 0) {
        snprintf(why, sizeof why, "%s: %s", glance_strerror(GLANCE_ENOCONTENT),
                 res->gce.failure ? res->gce.failure : "GCE failed");
        result_set_message(res, why);
        return GLANCE_ENOCONTENT;
    }
    const dom_node *chosen = res->gce.chosen;
    res->chosen = chosen;
    res->method = GLANCE_METHOD_GCE;
    res->xpath = dom_node_xpath(res->dom, chosen);
    extract_cleaner *cl;
    if (result_cleaner(res, opts, &cl))
        return GLANCE_ENOMEM;
    dom_keep_fn keep = cl ? extract_cleaner_keep : NULL;
    res->text = dom_to_text_kept(chosen, keep, cl, NULL);
    res->html = dom_to_html_kept(chosen, keep, cl, NULL);
    if (!res->xpath || !res->text || !res->html)
        return GLANCE_ENOMEM;
    if (res->text[0] == '\0') {
        /* A chosen node whose visible text is empty is no content to a
         * reader; never hand back a silent empty result. */
        result_set_message(res, "no main content found: the chosen element holds no visible text");
        return GLANCE_ENOCONTENT;
    }
    return GLANCE_OK;
}

glance_status glance_result_rerun(glance_result *res, const glance_options *opts)
{
    double t0 = now_ms();
    char why[256];
    if (!res || !opts)
        return GLANCE_EOPTION;
    if (!res->dom) {
        result_set_message(res, "the page was not laid out: nothing to run again");
        return res->status = GLANCE_EOPTION;
    }
    if (!options_valid(opts, why, sizeof why)) {
        result_set_message(res, why);
        return res->status = GLANCE_EOPTION;
    }
    if (opts->window_w != res->window_w || opts->window_h != res->window_h) {
        result_set_message(res, "a different window size needs a new layout: call glance_extract");
        return res->status = GLANCE_EOPTION;
    }
    forget_run(res);
    methods_free(res);
    res->t_begin = t0;
    res->deadline = opts->time_budget_ms > 0 ? t0 + (double)opts->time_budget_ms : 0;
    glance_status st = run_extract(res, opts);
    res->status = st;
    res->timings.total_ms = res->timings.parse_ms + res->timings.layout_ms + (now_ms() - t0);
    return st;
}

/* Forgets the last run; keeps the layout, its timings and the title. */
static void forget_run(glance_result *res)
{
    gce_result_free(&res->gce);
    memset(&res->gce, 0, sizeof res->gce);
    res->gce_ran = 0;
    free(res->text);
    free(res->html);
    free(res->json);
    free(res->message);
    res->text = res->html = res->json = res->message = NULL;
    res->xpath = NULL;
    res->bte_ran = 0;
    res->auto_checked = res->auto_overruled = 0;
    res->auto_why = NULL;
    res->auto_trim_ran = res->auto_trimmed = 0;
    res->chosen = NULL;
    memset(&res->bte, 0, sizeof res->bte);
    methods_forget(res);
}

glance_status glance_extract_file(glance_context *ctx, const char *path,
                                  const glance_options *opts, glance_result **out)
{
    *out = NULL;
    char why[512];
    char *buf = NULL;
    size_t len = 0;
    glance_options o;
    if (opts)
        o = *opts;
    else
        glance_options_default(&o);
    glance_status st = input_read_file(path, o.max_input_bytes, &buf, &len, why, sizeof why);
    if (st != GLANCE_OK) {
        glance_result *res = result_new();
        if (!res)
            return GLANCE_ENOMEM;
        result_set_message(res, why);
        res->status = st;
        *out = res;
        return st;
    }
    char *dir = NULL;
    if (!o.base_dir) {
        const char *slash = strrchr(path, '/');
        dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
        if (!dir) {
            free(buf);
            return GLANCE_ENOMEM;
        }
        o.base_dir = dir;
    }
    st = glance_extract(ctx, buf, len, &o, out);
    free(buf);
    free(dir);
    return st;
}
