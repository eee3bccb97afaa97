/* lib/: the chromium engine and snapshots (browse.h).
 *
 * The browser reaches nothing on its own: browser/ hands every request the
 * page makes to fetch_request below, which serves the page's own bytes at
 * its address, a file page's sibling files from its folder (as litehtml's
 * local stylesheets are read), and the rest through net/, with the
 * options' address policy, limits and offline mode, or refuses it. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/tags.h"
#include "browser/browser.h"
#include "lib/browse.h"
#include "lib/context.h"
#include "lib/pipeline.h"
#include "lib/status.h"
#include "meta/meta.h"
#include "render/snapshot.h"

/* Where a page without an address is served from: a name that resolves
 * nowhere (RFC 6761's .invalid), so that nothing the page links can reach
 * a real host by accident. */
#define LOCAL_ORIGIN "http://glance.invalid/"

typedef struct fetcher {
    const char *doc_url;  /* the page's address in the browser */
    const char *html;     /* served there */
    size_t len;
    int served_doc;
    const char *dir;      /* a file page's folder (realpath); NULL: none */
    const net_opts *net;  /* NULL: nothing from the network */
    double deadline;      /* the browser's budget ends (base_now_ms) */
    size_t max_bytes;
    char *body;           /* the last answer's, kept until the next call */
    size_t body_len;
    char *content_type;
    char *location;
} fetcher;

static void fetcher_drop(fetcher *f)
{
    free(f->body);
    free(f->content_type);
    free(f->location);
    f->body = f->content_type = f->location = NULL;
    f->body_len = 0;
}

/* The URL without its fragment equals the page's address. */
static int is_doc(const fetcher *f, const char *url)
{
    size_t n = strcspn(url, "#"), m = strcspn(f->doc_url, "#");
    return n == m && strncmp(url, f->doc_url, n) == 0;
}

static const char *type_of_path(const char *p)
{
    static const struct {
        const char *ext, *type;
    } types[] = {{".css", "text/css"},       {".js", "text/javascript"},  {".mjs", "text/javascript"},
                 {".json", "application/json"}, {".html", "text/html"}, {".htm", "text/html"},
                 {".png", "image/png"},      {".jpg", "image/jpeg"},      {".jpeg", "image/jpeg"},
                 {".gif", "image/gif"},      {".svg", "image/svg+xml"},   {".webp", "image/webp"},
                 {".woff2", "font/woff2"},   {".woff", "font/woff"},      {".txt", "text/plain"}};
    const char *dot = strrchr(p, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (strcasecmp(dot, types[i].ext) == 0)
            return types[i].type;
    return "application/octet-stream";
}

/* A file under the page's folder, by the path of a LOCAL_ORIGIN URL: only
 * a regular file whose real path stays inside the folder, at most
 * max_bytes. 0, or -1. */
static int read_local(fetcher *f, const char *url)
{
    if (!f->dir)
        return -1;
    const char *p = url + strlen(LOCAL_ORIGIN);
    size_t n = strcspn(p, "?#");
    char rel[PATH_MAX], full[PATH_MAX], real[PATH_MAX];
    if (n == 0 || n >= sizeof rel)
        return -1;
    /* %XX escapes decoded (two hex digits); an escaped NUL refused. The
     * real path is held to the folder below, whatever the escapes say. */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c == '%' && i + 2 < n && isxdigit((unsigned char)p[i + 1]) &&
            isxdigit((unsigned char)p[i + 2])) {
            char hex[3] = {p[i + 1], p[i + 2], 0};
            c = (char)strtol(hex, NULL, 16);
            if (!c)
                return -1;
            i += 2;
        }
        rel[k++] = c;
    }
    rel[k] = '\0';
    if (snprintf(full, sizeof full, "%s/%s", f->dir, rel) >= (int)sizeof full || !realpath(full, real))
        return -1;
    size_t dl = strlen(f->dir);
    if (strncmp(real, f->dir, dl) != 0 || (real[dl] != '/' && real[dl] != '\0'))
        return -1;
    int fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > f->max_bytes) {
        close(fd);
        return -1;
    }
    char *b = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (b && got < (size_t)st.st_size) {
        ssize_t r = read(fd, b + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (!b || got != (size_t)st.st_size) {
        free(b);
        return -1;
    }
    f->body = b;
    f->body_len = got;
    f->content_type = strdup(type_of_path(real));
    return 0;
}

/* The kinds of request fetched for a page: what can put text on it or
 * lay it out (the document's frames, stylesheets, scripts and what they
 * ask for). Images, media and fonts are refused, as litehtml loads none:
 * an image without a size keeps the box its attributes and styles give
 * it, and text measures with the fallback faces. */
static int wanted(const char *type)
{
    static const char *const kinds[] = {"Document", "Stylesheet", "Script", "XHR", "Fetch", "EventSource"};
    for (size_t i = 0; type && i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(type, kinds[i]) == 0)
            return 1;
    return 0;
}

static void fetch_request(void *ud, const browser_request *rq, browser_response *out)
{
    fetcher *f = ud;
    fetcher_drop(f);
    memset(out, 0, sizeof *out);
    if (strcmp(rq->method, "GET") != 0 && strcmp(rq->method, "HEAD") != 0)
        return; /* a page read is never a form sent: refused */
    if (is_doc(f, rq->url) && (rq->is_main || !f->served_doc)) {
        f->served_doc = 1;
        out->status = 200;
        out->content_type = "text/html; charset=utf-8";
        out->body = f->html;
        out->len = f->len;
        return;
    }
    if (strncmp(rq->url, LOCAL_ORIGIN, strlen(LOCAL_ORIGIN)) == 0) {
        if (read_local(f, rq->url) == 0) {
            out->status = 200;
            out->content_type = f->content_type;
            out->body = f->body;
            out->len = f->body_len;
        }
        return;
    }
    if (!f->net || rq->is_main || !wanted(rq->resource_type))
        return; /* offline; a navigation away from the page; what shows no text */
    /* The callback holds the browser's loop while it runs: each request
     * has what is left of the budget at most, and its own session (a
     * server that never answers costs one request's wait, not the page's). */
    double left = f->deadline - base_now_ms() - 500;
    if (left < 100)
        return;
    net_opts no = *f->net;
    if (no.timeout_ms <= 0 || no.timeout_ms > (long)left)
        no.timeout_ms = (long)left;
    if (no.connect_timeout_ms <= 0 || no.connect_timeout_ms > no.timeout_ms)
        no.connect_timeout_ms = no.timeout_ms;
    net_session *ns = net_session_new(&no);
    if (!ns)
        return;
    net_page pg;
    char why[256];
    net_status nst = net_fetch_page(ns, rq->url, &pg, why, sizeof why);
    net_session_free(ns);
    if (nst != NET_OK) {
        net_page_free(&pg);
        return;
    }
    f->body = pg.body;
    f->body_len = pg.len;
    f->content_type = pg.content_type;
    pg.body = NULL;
    pg.content_type = NULL;
    net_page_free(&pg);
    out->status = 200;
    out->content_type = f->content_type;
    out->body = f->body ? f->body : "";
    out->len = f->body_len;
}

/* JSON-LD from the tree: the scripts' text, which the browser keeps. */
static int jsonld_from_dom(glance_result *res)
{
    meta_scripts_free(&res->jsonld);
    return meta_scripts_from_dom(res->dom, &res->jsonld);
}

/* Characters of text a reader is shown on the page (white space aside),
 * counting up to `cap`. */
static size_t shown_chars(const dom_doc *dom, size_t cap);

/* The text of the page's markup outside scripts and styles, in
 * characters (white space aside), counting up to `cap`: what a reader
 * without scripts could be shown at most. */
static size_t static_chars(const char *utf8, size_t cap)
{
    base_tag_scanner s;
    base_tag t;
    size_t n = 0;
    base_tag_scanner_init(&s, utf8, strlen(utf8));
    while (n < cap && base_tag_next(&s, &t))
        if (t.kind == BASE_TAG_TEXT)
            n += base_html_text_chars(t.start, t.len);
    return n;
}

/* The snapshot's tree into res->dom (0), or the status with res's
 * message set. */
static glance_status snapshot_tree(glance_result *res, const char *json, size_t len,
                                   const glance_options *o, render_snapshot_info *info)
{
    char why[320];
    render_opts ro = o->core.render;
    ro.deadline_ms = res->deadline;
    double t0 = base_now_ms();
    dom_doc *dom = NULL;
    render_status rs = render_snapshot_dom(json, len, &ro, &dom, info, why, sizeof why);
    res->browse.tree_ms += base_now_ms() - t0;
    res->timings.tree_ms = res->browse.tree_ms;
    res->timings.layout_ms += base_now_ms() - t0;
    res->rstats.elements = info->elements;
    res->rstats.words = info->words;
    if (rs != RENDER_OK) {
        if (rs == RENDER_EPARSE) {
            result_set_message(res, why);
            return GLANCE_EINPUT;
        }
        char msg[256];
        switch (rs) {
        case RENDER_EELEMENTS:
            snprintf(msg, sizeof msg, "over %zu elements (max_elements)", o->core.render.max_elements);
            break;
        case RENDER_EWORDS:
            snprintf(msg, sizeof msg, "over %zu words of text (max_words)", o->core.render.max_words);
            break;
        case RENDER_EDEPTH:
            snprintf(msg, sizeof msg, "elements nested deeper than %d (max_depth)", o->core.render.max_depth);
            break;
        case RENDER_EHEIGHT:
            snprintf(msg, sizeof msg, "document taller than %d px (max_doc_height)",
                     o->core.render.max_doc_height);
            break;
        case RENDER_ETIME:
            snprintf(msg, sizeof msg, "page too costly: over the budget of %ld ms (time_budget)",
                     o->core.time_budget_ms);
            break;
        default: snprintf(msg, sizeof msg, "%s", glance_strerror(status_from_render(rs))); break;
        }
        result_set_message(res, msg);
        return status_from_render(rs);
    }
    res->dom = dom;
    res->own_dom = 1;
    return GLANCE_OK;
}

/* The rest of the page's way from the tree of res->dom. */
static glance_status from_tree(glance_result *res, render_snapshot_info *info, const glance_options *o,
                               const char *page_url, int keep_window)
{
    render_snapshot_info i = *info;
    if (!keep_window) {
        res->window_w = i.window_w;
        res->window_h = i.window_h;
    }
    /* A phone's browser: the snapshot's window is its layout viewport,
     * which the methods see (pipeline_tree), as litehtml's. */
    if (i.mobile)
        res->rstats.viewport = (render_viewport){.w = i.window_w, .h = i.window_h, .mobile = 1};
    glance_status st = GLANCE_OK;
    if (jsonld_from_dom(res) != 0)
        st = GLANCE_ENOMEM;
    /* A snapshot's own address stands for the page's when none was given:
     * its links resolve against it. */
    const char *url = page_url ? page_url : (keep_window ? NULL : i.url);
    if (st == GLANCE_OK && !keep_window && i.url && !res->final_url)
        res->final_url = strdup(i.url);
    if (st == GLANCE_OK)
        st = pipeline_tree(res, o, url);
    return st;
}

static glance_status from_snapshot(glance_result *res, const char *json, size_t len,
                                   const glance_options *o, const char *page_url, int keep_window)
{
    render_snapshot_info info;
    glance_status st = snapshot_tree(res, json, len, o, &info);
    if (st == GLANCE_OK)
        st = from_tree(res, &info, o, page_url, keep_window);
    free(info.url);
    return st;
}

glance_status browse_snapshot(glance_context *ctx, glance_result *res, const char *json,
                              size_t len, const glance_options *o)
{
    res->ctx = ctx;
    res->engine = "snapshot";
    res->window_w = o->core.render.window_w;
    res->window_h = o->core.render.window_h;
    if (!json || len == 0) {
        result_set_message(res, "empty input: no snapshot");
        return GLANCE_EINPUT;
    }
    if (len > o->core.net.max_page_bytes * 8) {
        char why[160];
        snprintf(why, sizeof why, "a snapshot of %zu bytes, over 8 times max_input_bytes (%zu)", len,
                 o->core.net.max_page_bytes);
        result_set_message(res, why);
        return GLANCE_ETOOBIG;
    }
    res->t_begin = base_now_ms();
    res->deadline = o->core.time_budget_ms > 0 ? res->t_begin + (double)o->core.time_budget_ms : 0;
    return from_snapshot(res, json, len, o, NULL, 0);
}

static glance_status status_of_browser(browser_status bs)
{
    switch (bs) {
    case BROWSER_OK: return GLANCE_OK;
    case BROWSER_ENOMEM: return GLANCE_ENOMEM;
    case BROWSER_ETIME: return GLANCE_ECOSTLY;
    case BROWSER_ECRASH: return GLANCE_ECOSTLY;
    default: return GLANCE_EBROWSER;
    }
}

/* One load of the page in the browser, its times added to res's. */
static browser_status load(browser *b, const browser_opts *bo, fetcher *f, glance_result *res,
                           browser_capture *cap, char *why, size_t whycap)
{
    f->served_doc = 0;
    browser_status bs = browser_load(b, bo, f->doc_url, fetch_request, f, cap, why, whycap);
    res->browse.start_ms += cap->start_ms;
    res->browse.load_ms += cap->load_ms;
    res->browse.snapshot_ms += cap->snapshot_ms;
    res->browse.requests += cap->requests;
    res->browse.refused += cap->refused;
    res->timings.parse_ms += cap->load_ms;
    res->timings.layout_ms += cap->snapshot_ms;
    res->timings.browser_start_ms += cap->start_ms;
    res->timings.load_ms += cap->load_ms;
    res->timings.snapshot_ms += cap->snapshot_ms;
    return bs;
}

glance_status browse_page(glance_context *ctx, glance_result *res, const char *utf8,
                          const glance_options *o, const char *page_url)
{
    const options_core *c = &o->core;
    char why[512];
    res->ctx = ctx;
    res->engine = "chromium";
    if (!ctx->browser && !(ctx->browser = browser_new()))
        return GLANCE_ENOMEM;
    char dir[PATH_MAX];
    char *doc_url = NULL;
    /* Offline, a page reaches nothing but itself and, from a file, its
     * folder's files (as litehtml reads its local stylesheets). */
    fetcher f = {.html = utf8, .len = strlen(utf8), .net = c->net.offline ? NULL : &c->net,
                 .max_bytes = c->net.max_page_bytes};
    if (page_url) {
        doc_url = strdup(page_url);
    } else {
        /* A file page: served from LOCAL_ORIGIN, its folder's files beside it. */
        if (c->render.base_dir && realpath(c->render.base_dir, dir))
            f.dir = dir;
        doc_url = strdup(LOCAL_ORIGIN "page.html");
    }
    if (!doc_url)
        return GLANCE_ENOMEM;
    f.doc_url = doc_url;
    res->t_begin = base_now_ms();
    res->deadline = c->time_budget_ms > 0 ? res->t_begin + (double)c->time_budget_ms : 0;
    browser_opts bo = {
        .executable = c->browser,
        .window_w = c->render.window_w,
        .window_h = c->render.window_h,
        /* The device option as render/viewport.c reads it for litehtml. */
        .mobile = render_device_mobile(&c->render),
        .scripts = c->scripts,
        /* The browser's share of the budget: the tree and the extraction
         * take the rest (a tenth, at least a second when there is one). */
        .budget_ms = c->time_budget_ms > 0
                         ? (c->time_budget_ms > 2000 ? c->time_budget_ms - (c->time_budget_ms / 10 > 1000
                                                                               ? c->time_budget_ms / 10
                                                                               : 1000)
                                                     : c->time_budget_ms * 3 / 4)
                         : 60000,
        .quiet_ms = c->quiet_ms,
        .virtual_ms = c->virtual_ms,
        .max_requests = c->max_requests,
        .screenshot = c->screenshot,
    };
    f.deadline = res->t_begin + (double)bo.budget_ms;
    browser_capture cap = {0};
    int restarts = browser_restarts(ctx->browser);
    browser_status bs = load(ctx->browser, &bo, &f, res, &cap, why, sizeof why);
    render_snapshot_info info = {0};
    glance_status st = GLANCE_OK;
    if (bs == BROWSER_OK && (st = snapshot_tree(res, cap.snapshot, cap.snapshot_len, o, &info)) == GLANCE_OK &&
        bo.scripts) {
        /* The page's scripts emptied it: a saved copy whose scripts lack
         * what they expect (their files, their network) and take the page
         * down, or a wall that hides it until a script of someone else's
         * lets the reader in. What a reader without scripts would see is
         * read instead, when there is time: at most a quarter of the
         * text the markup holds shows with scripts, and it holds some. */
        size_t has = static_chars(utf8, 100000), shown = shown_chars(res->dom, has);
        double left = f.deadline - base_now_ms();
        if (has >= BROWSE_EMPTIED_CHARS && shown * 4 < has && left > bo.budget_ms / 3.0) {
            browser_capture again = {0};
            browser_opts off = bo;
            off.scripts = 0;
            off.budget_ms = (long)left;
            char why2[512];
            if (load(ctx->browser, &off, &f, res, &again, why2, sizeof why2) == BROWSER_OK) {
                render_snapshot_info info2 = {0};
                dom_doc *first = res->dom;
                res->dom = NULL;
                if (snapshot_tree(res, again.snapshot, again.snapshot_len, o, &info2) == GLANCE_OK &&
                    shown_chars(res->dom, has) > shown) {
                    dom_doc_free(first);
                    free(info.url);
                    info = info2;
                    browser_capture_free(&cap);
                    cap = again;
                    memset(&again, 0, sizeof again);
                    res->browse.scripts_emptied = 1;
                } else {
                    if (res->dom)
                        dom_doc_free(res->dom);
                    res->dom = first;
                    free(info2.url);
                }
            }
            browser_capture_free(&again);
        }
    }
    fetcher_drop(&f);
    res->browse.restarts = browser_restarts(ctx->browser) - restarts;
    res->browse.snapshot_bytes = cap.snapshot_len;
    if (bs != BROWSER_OK) {
        char msg[700];
        snprintf(msg, sizeof msg, "%s%s", bs == BROWSER_ETIME ? "page too costly in the browser: " : "browser: ", why);
        result_set_message(res, msg);
        browser_capture_free(&cap);
        free(doc_url);
        return status_of_browser(bs);
    }
    res->png = cap.png;
    res->png_len = cap.png_len;
    cap.png = NULL;
    /* Whether the page's meta viewport set a phone's layout viewport, read
     * as litehtml's engine reads it, in the page's markup. */
    int from_meta = 0;
    if (st == GLANCE_OK && info.mobile) {
        render_viewport v;
        render_viewport_of(utf8, strlen(utf8), &c->render, &v);
        from_meta = v.from_meta;
    }
    if (st == GLANCE_OK)
        st = from_tree(res, &info, o, page_url, 1);
    if (res->rstats.viewport.mobile)
        res->rstats.viewport.from_meta = from_meta;
    free(info.url);
    if (c->keep_snapshot) {
        res->snapshot = cap.snapshot;
        res->snapshot_len = cap.snapshot_len;
        cap.snapshot = NULL;
    }
    browser_capture_free(&cap);
    free(doc_url);
    return st;
}

glance_status browse_version(glance_context *ctx, const glance_options *o, char *buf, size_t cap)
{
    if (!ctx->browser && !(ctx->browser = browser_new()))
        return GLANCE_ENOMEM;
    browser_opts bo = {.executable = o->core.browser, .budget_ms = 10000};
    char product[256], path[1024];
    const char *exe = o->core.browser ? o->core.browser : browser_find(path, sizeof path);
    if (!exe) {
        snprintf(buf, cap, "no chromium executable (set the option browser or GLANCE_CHROMIUM, or "
                           "install Debian's chromium)");
        return GLANCE_EBROWSER;
    }
    browser_status bs = browser_version(ctx->browser, &bo, product, sizeof product);
    if (bs != BROWSER_OK) {
        snprintf(buf, cap, "%s: %s", exe, product);
        return bs == BROWSER_ENOMEM ? GLANCE_ENOMEM : GLANCE_EBROWSER;
    }
    snprintf(buf, cap, "%s (%s)", exe, product);
    return GLANCE_OK;
}

/* engine auto's rule ------------------------------------------------------ */

/* Characters of text a reader is shown on the page (white space aside),
 * counting up to `cap`. */
static size_t shown_chars(const dom_doc *dom, size_t cap)
{
    const dom_node *top = dom_doc_body(dom) ? dom_doc_body(dom) : dom_doc_root(dom);
    size_t n = 0;
    for (const dom_node *x = top; x && n < cap;) {
        if (x->kind == DOM_ELEMENT && (x->hidden & DOM_HIDDEN_DISPLAY_NONE)) {
            x = dom_next_after(x, top);
            continue;
        }
        if (x->kind == DOM_TEXT && !x->hidden)
            n += base_html_text_chars(x->text, x->text_len);
        x = dom_next(x, top);
    }
    return n;
}

/* Scripts that run (not JSON, JSON-LD or templates), as the tags say. */
static int runs_scripts(const char *utf8)
{
    base_tag_scanner s;
    base_tag t;
    base_tag_scanner_init(&s, utf8, strlen(utf8));
    while (base_tag_next(&s, &t)) {
        if (t.kind != BASE_TAG_START || !base_tag_is(&t, "script"))
            continue;
        base_tag_attrs it;
        base_tag_attr a;
        base_tag_attrs_init(&it, &t);
        int code = 1;
        while (base_tag_attrs_next(&it, &a))
            if (base_tag_attr_is(&a, "type") && a.value && a.value_len) {
                /* A classic script's types, and modules. */
                code = (a.value_len >= 6 && strncasecmp(a.value, "module", 6) == 0) ||
                       memmem(a.value, a.value_len, "javascript", 10) != NULL ||
                       memmem(a.value, a.value_len, "ecmascript", 10) != NULL;
            }
        if (code)
            return 1;
    }
    return 0;
}

int browse_wants_browser(const glance_result *res, const char *utf8, glance_status st)
{
    /* What litehtml could not lay out, or a result with no tree, is not a
     * shell: the browser would meet the same limits. */
    if ((st != GLANCE_OK && st != GLANCE_ENOCONTENT) || !res->dom)
        return 0;
    if (!runs_scripts(utf8))
        return 0;
    /* A shell shows next to nothing: a menu, a "Loading" line, a title. */
    return shown_chars(res->dom, BROWSE_SHELL_CHARS + 1) <= BROWSE_SHELL_CHARS;
}
