/* lib/: the options: one table of rows for the page (here), auto's
 * (pipeline.c) and each method's (methods/); glance_options_* over them. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lib/options.h"
#include "methods/method.h"

/* A limit whose 0 means "none": a client may not lower it to 0. */
enum { OPT_ZERO_NONE = 1 << 10 };

#define C(f) offsetof(options_core, f)
#define MAX_MS 86400000 /* a day */

static const base_param core_table[] = {
    {"window", BASE_PARAM_PAIR, C(render.window_w), 100, 16384, "1920x1080",
     "window size the page is laid out in (S_w)", NULL, 0, NULL},
    {"device", BASE_PARAM_CHOICE, C(render.device), 0, 0, "auto",
     "the browser the window stands for: desktop (the page laid out at the window's width), "
     "mobile (a phone's or tablet's: the page's <meta name=viewport> sets the width it is laid "
     "out at, 980 px without one; its media queries see that width, the window as the device "
     "and a touch screen), or auto (mobile below 1000 px wide, else desktop)",
     "auto|desktop|mobile", 0, NULL},
    {"flex_grid", BASE_PARAM_BOOL, C(flex_grid), 0, 0, "on",
     "lay display:flex and display:grid out with glance's layer; off: as litehtml 0.6 alone "
     "does (a 0x0 container, its children stacked full width)", NULL, 0, NULL},
    {"keep_attributes", BASE_PARAM_BOOL, C(render.keep_attrs), 0, 0, "off",
     "every attribute of the page in the tree (for glance_result_fidelity's mark); off: those "
     "neither litehtml, the page's stylesheets nor glance read (an SVG path's d, aria-*, event "
     "handlers, the data-* of scripts) are left out before the HTML parser reads them",
     NULL, 0, NULL},
    {"base_dir", BASE_PARAM_STRING, C(render.base_dir), 0, 0, NULL,
     "folder that relative <link rel=stylesheet> hrefs resolve against (not set: a file's own "
     "folder; none for bytes)", NULL, BASE_PARAM_NULLABLE | OPT_LOCAL, "base"},
    {"cleanup", BASE_PARAM_BOOL, C(cleanup), 0, 0, "on",
     "leave <nav>, <aside>, <footer>, forms, reader comments and blocks that are mostly link "
     "text out of every answer", NULL, 0, NULL},
    {"cleanup_link_share", BASE_PARAM_DOUBLE, C(cleanup_link_share), 0, 1, "0.5",
     "\"mostly\": link text over this share of a block's text", NULL, BASE_PARAM_ABOVE_MIN, NULL},
    /* The engine (lib/browse.h). */
    {"engine", BASE_PARAM_CHOICE, C(engine), 0, 0, "litehtml",
     "what lays the page out: litehtml (embedded, runs no scripts), chromium (Debian's "
     "headless browser over the DevTools protocol: the page's scripts run, every request it "
     "makes goes through glance's fetcher), or auto (litehtml, and the browser for a page "
     "whose static view is an application's empty shell)", "litehtml|chromium|auto",
     OPT_LOCAL, NULL},
    {"scripts", BASE_PARAM_BOOL, C(scripts), 0, 0, "on",
     "the browser runs the page's scripts (engine chromium); off: it shows the page as with "
     "scripting off, <noscript> included", NULL, 0, NULL},
    {"quiet", BASE_PARAM_MS, C(quiet_ms), 0, 60000, "0.5",
     "the browser waits after the load event until no request has been in flight for this "
     "long, within time_budget; without a load event, after DOMContentLoaded for 2 s or four "
     "times this", NULL, OPT_LIMIT, NULL},
    {"virtual_time", BASE_PARAM_MS, C(virtual_ms), 0, 60000, "0",
     "the browser runs the page's timers on a virtual clock that advances only while no "
     "request is in flight, and takes the page once this much page time has passed (and the "
     "waits of quiet are over): a page answers the same whatever the machine's load, and "
     "a timer of seconds costs no seconds; 0: the page's own clock (engine chromium, scripts "
     "on)", NULL, OPT_LIMIT, NULL},
    {"max_requests", BASE_PARAM_INT, C(max_requests), 1, 100000, "300",
     "requests one page may make in the browser (scripts, images, frames...); past it they "
     "fail", NULL, OPT_LIMIT, NULL},
    {"browser", BASE_PARAM_STRING, C(browser), 0, 0, NULL,
     "the browser's executable (not set: $GLANCE_CHROMIUM, else chromium on the PATH)", NULL,
     BASE_PARAM_NULLABLE | OPT_LOCAL, NULL},
    {"keep_snapshot", BASE_PARAM_BOOL, C(keep_snapshot), 0, 0, "off",
     "keep what the browser saw (its snapshot, docs/snapshot.md) in the result "
     "(glance_result_snapshot, glance extract --save-snapshot), to run again later with "
     "--snapshot", NULL, 0, NULL},
    {"screenshot", BASE_PARAM_BOOL, C(screenshot), 0, 0, "off",
     "the browser (engine chromium) also takes the whole page's screenshot, which a shot "
     "draws glance's reasoning on (glance shot and --shot set it)", NULL, 0, NULL},
    /* What a page may cost (docs/limits.md). */
    {"max_input_bytes", BASE_PARAM_SIZE, C(net.max_page_bytes), 1, 1e12, "64M",
     "the page's bytes (a fetched page's after decompression); over it is an error, not a "
     "truncated page", NULL, OPT_LIMIT, "max_page_bytes"},
    {"max_depth", BASE_PARAM_INT, C(render.max_depth), 1, 1e6, "512",
     "element nesting (litehtml recurses); deeper pages are refused", NULL, OPT_LIMIT, NULL},
    {"max_elements", BASE_PARAM_SIZE, C(render.max_elements), 1, 1e12, "200000",
     "start tags, counted by a scan before parsing", NULL, OPT_LIMIT, NULL},
    {"max_words", BASE_PARAM_SIZE, C(render.max_words), 1, 1e12, "1000000",
     "runs of text between spaces and tags, counted the same way (litehtml takes ~0.6 KB and "
     "~7 us per word)", NULL, OPT_LIMIT, NULL},
    {"max_table_cells", BASE_PARAM_SIZE, C(render.max_table_cells), 1, 1e12, "1000000",
     "cells of the tables' grids, the empty ones spans imply included (each table's rows "
     "times its widest row, spans clamped to 1000 columns and 65534 rows as browsers do), "
     "counted by the scan", NULL, OPT_LIMIT, NULL},
    {"max_generated", BASE_PARAM_SIZE, C(render.max_generated), 1, 1e12, "2000000",
     "characters of ::before/::after content, bounded before parsing: each rule's strings "
     "times the elements its selector can match", NULL, OPT_LIMIT, NULL},
    {"max_pseudo_boxes", BASE_PARAM_SIZE, C(render.max_pseudo_boxes), 1, 1e12, "100000",
     "::before/::after boxes with content, counted after parsing, before layout", NULL,
     OPT_LIMIT, NULL},
    {"max_floats", BASE_PARAM_SIZE, C(render.max_floats), 1, 1e12, "2000",
     "floated boxes in one block formatting context, counted after parsing, before "
     "layout (litehtml places each against every one before it there)", NULL, OPT_LIMIT, NULL},
    {"max_positioned", BASE_PARAM_SIZE, C(render.max_positioned), 1, 1e12, "20000",
     "absolutely or fixed positioned boxes, counted the same way", NULL, OPT_LIMIT, NULL},
    {"max_doc_height", BASE_PARAM_INT, C(render.max_doc_height), 1, INT_MAX, "1000000",
     "the laid-out document's height in px, checked after layout", NULL, OPT_LIMIT, NULL},
    {"max_css_bytes", BASE_PARAM_SIZE, C(net.max_css_bytes), 1, 1e12, "4M",
     "one stylesheet, and the page's <style> text in all", NULL, OPT_LIMIT, NULL},
    {"max_stylesheets", BASE_PARAM_INT, C(net.max_stylesheets), 0, 1e6, "64",
     "linked stylesheets loaded for one page", NULL, OPT_LIMIT, NULL},
    {"time_budget", BASE_PARAM_MS, C(time_budget_ms), 0, MAX_MS, "20",
     "parse, layout and extraction in all, checked between stages (litehtml cannot be "
     "interrupted within one); over it: GLANCE_ECOSTLY. 0: none", NULL,
     OPT_LIMIT | OPT_ZERO_NONE, NULL},
    {"max_memory", BASE_PARAM_SIZE, C(max_memory), 0, 1e13, "2G",
     "the address space of the process a page is worked on in by the glance command (extract, "
     "bench, serve: a worker process it kills at time_budget and a second more), or what a "
     "library call with isolate may add to its caller's; over it the page fails. A library "
     "call without isolate, and the command's --in-process, cannot bound it and ignore it. "
     "0: none", NULL, OPT_LOCAL, NULL},
    {"isolate", BASE_PARAM_BOOL, C(isolate), 0, 0, "off",
     "the library's calls work on the page in a child process they fork, under max_memory, "
     "and kill it at time_budget and a second (and timeout more unless offline): "
     "GLANCE_ECOSTLY; a child that dies gives GLANCE_ENOMEM. Its result has no laid-out page "
     "(no shot, rerun or fidelity). The command isolates on its own", NULL, OPT_LOCAL, NULL},
    /* The network. */
    {"offline", BASE_PARAM_BOOL, C(net.offline), 0, 0, "off",
     "never touch the network: URLs are refused, remote stylesheets skipped at once", NULL, 0,
     NULL},
    {"public_only", BASE_PARAM_BOOL, C(net.public_only), 0, 0, "off",
     "connect only to public addresses (loopback, private, link-local, multicast and "
     "reserved ones refused after DNS and on every redirect); no proxy", NULL, OPT_LOCAL, NULL},
    {"allow_addrs", BASE_PARAM_STRING, C(net.allow_addrs), 0, 0, NULL,
     "with public_only: these exact IP:PORT pairs are let through all the same (comma between "
     "them; [::1]:8000 for IPv6)", NULL, BASE_PARAM_NULLABLE | OPT_LOCAL, NULL},
    {"timeout", BASE_PARAM_MS, C(net.timeout_ms), 1, MAX_MS, "30",
     "the page and its stylesheets in all", NULL, OPT_LIMIT, NULL},
    {"connect_timeout", BASE_PARAM_MS, C(net.connect_timeout_ms), 1, MAX_MS, "10",
     "one connection", NULL, OPT_LIMIT, NULL},
    {"max_redirects", BASE_PARAM_INT, C(net.max_redirects), 0, 1000, "10", "redirects followed",
     NULL, OPT_LIMIT, NULL},
    {"user_agent", BASE_PARAM_STRING, C(net.user_agent), 0, 0, NULL,
     "the User-Agent sent (not set: a desktop browser's)", NULL,
     BASE_PARAM_NULLABLE | OPT_LOCAL, NULL},
    {"accept_language", BASE_PARAM_STRING, C(net.accept_language), 0, 0, NULL,
     "the Accept-Language sent (not set: \"en-US,en;q=0.9,*;q=0.5\")", NULL,
     BASE_PARAM_NULLABLE | OPT_LOCAL, NULL},
};
#define N_CORE (sizeof core_table / sizeof core_table[0])

/* The rows in the order glance_option_describe lists them: "method", the
 * page's, then each method's. A row is found as a table and the block its
 * offsets point into. */
typedef struct row {
    const base_param *p;
    const char *group;
    int table; /* -2: method, -1: core, else the registry's index */
} row;

static size_t n_rows(void)
{
    size_t n = 1 + N_CORE;
    for (size_t i = 0; i < methods_count; i++)
        n += methods_all[i]->n_params;
    return n;
}

static int row_at(size_t i, row *r)
{
    if (i == 0) {
        *r = (row){NULL, "page", -2};
        return 0;
    }
    i--;
    if (i < N_CORE) {
        *r = (row){&core_table[i], "page", -1};
        return 0;
    }
    i -= N_CORE;
    for (size_t m = 0; m < methods_count; m++) {
        if (i < methods_all[m]->n_params) {
            *r = (row){&methods_all[m]->params[i], methods_all[m]->name, (int)m};
            return 0;
        }
        i -= methods_all[m]->n_params;
    }
    return -1;
}

static void *row_block(glance_options *o, const row *r)
{
    if (r->table == -1)
        return &o->core;
    return o->params[r->table];
}

/* The row of a key; -1 when none. */
static int find_row(const char *key, row *r)
{
    for (size_t i = 1; row_at(i, r) == 0; i++)
        if (base_param_find(r->p, 1, key))
            return 0;
    if (key && (strcmp(key, "method") == 0)) {
        row_at(0, r);
        return 0;
    }
    return -1;
}

void glance_options_free(glance_options *o)
{
    if (!o)
        return;
    base_params_free(core_table, N_CORE, &o->core);
    for (size_t i = 0; o->params && i < methods_count; i++) {
        if (o->params[i])
            base_params_free(methods_all[i]->params, methods_all[i]->n_params, o->params[i]);
        free(o->params[i]);
    }
    free(o->params);
    free(o);
}

glance_options *glance_options_new(void)
{
    glance_options *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->params = calloc(methods_count ? methods_count : 1, sizeof *o->params);
    if (!o->params) {
        free(o);
        return NULL;
    }
    char why[256];
    int bad = base_params_default(core_table, N_CORE, &o->core, why, sizeof why);
    for (size_t i = 0; !bad && i < methods_count; i++) {
        const method_desc *d = methods_all[i];
        o->params[i] = calloc(1, d->params_size ? d->params_size : 1);
        bad = !o->params[i] || base_params_default(d->params, d->n_params, o->params[i], why, sizeof why);
    }
    if (bad) {
        glance_options_free(o);
        return NULL;
    }
    o->mode = OPTIONS_AUTO;
    return o;
}

glance_options *glance_options_copy(const glance_options *src)
{
    if (!src)
        return NULL;
    glance_options *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    *o = *src;
    o->params = calloc(methods_count ? methods_count : 1, sizeof *o->params);
    int bad = !o->params;
    if (bad || base_params_copy(core_table, N_CORE, &o->core, &src->core, sizeof o->core)) {
        /* No string of the core is o's own: leave them to src. */
        memset(&o->core, 0, sizeof o->core);
        bad = 1;
    }
    for (size_t i = 0; !bad && i < methods_count; i++) {
        const method_desc *d = methods_all[i];
        o->params[i] = malloc(d->params_size ? d->params_size : 1);
        bad = !o->params[i] ||
              base_params_copy(d->params, d->n_params, o->params[i], src->params[i], d->params_size);
        if (bad && o->params[i]) {
            free(o->params[i]);
            o->params[i] = NULL;
        }
    }
    if (bad) {
        glance_options_free(o);
        return NULL;
    }
    return o;
}

static glance_status refuse(glance_options *o, const char *fmt, const char *a, const char *b)
{
    snprintf(o->error, sizeof o->error, fmt, a, b);
    return GLANCE_EOPTION;
}

static glance_status set_method(glance_options *o, const char *value)
{
    if (value && strcmp(value, "auto") == 0) {
        o->mode = OPTIONS_AUTO;
    } else if (value && strcmp(value, "all") == 0) {
        o->mode = OPTIONS_ALL;
    } else {
        size_t i;
        if (!methods_find(value, &i)) {
            base_buf b = BASE_BUF_INIT;
            for (int k = 0; k < glance_method_count(); k++)
                base_buf_printf(&b, "%s%s", k ? ", " : "", glance_method_name(k));
            glance_status st = refuse(o, "method: '%s' is not one of %s", value ? value : "",
                                      b.data ? b.data : "");
            base_buf_free(&b);
            return st;
        }
        o->mode = OPTIONS_ONE;
        o->method = i;
    }
    o->error[0] = '\0';
    return GLANCE_OK;
}

glance_status glance_options_set(glance_options *o, const char *key, const char *value)
{
    if (!o)
        return GLANCE_EOPTION;
    row r;
    if (find_row(key, &r) != 0)
        return refuse(o, "unknown option '%s'%s", key ? key : "",
                      " (glance extract --help lists them)");
    if (r.table == -2)
        return set_method(o, value);
    int rc = base_param_parse(r.p, row_block(o, &r), value, o->error, sizeof o->error);
    if (rc == -2)
        return GLANCE_ENOMEM;
    if (rc != 0)
        return GLANCE_EOPTION;
    o->error[0] = '\0';
    return GLANCE_OK;
}

/* A number field's value, for comparing limits. */
static double number_of(const base_param *p, const void *block)
{
    const char *f = (const char *)block + p->offset;
    switch (p->type) {
    case BASE_PARAM_INT:
    case BASE_PARAM_BOOL:
    case BASE_PARAM_CHOICE: return *(const int *)f;
    case BASE_PARAM_LONG:
    case BASE_PARAM_MS: return (double)*(const long *)f;
    case BASE_PARAM_SIZE: return (double)*(const size_t *)f;
    case BASE_PARAM_DOUBLE: return *(const double *)f;
    default: return 0;
    }
}

glance_status glance_options_restrict(glance_options *o, const char *key, const char *value)
{
    if (!o)
        return GLANCE_EOPTION;
    row r;
    if (find_row(key, &r) != 0)
        return glance_options_set(o, key, value);
    if (r.p && (r.p->flags & OPT_LOCAL))
        return refuse(o, "option '%s' is %s", r.p->key, "not for a client to set");
    if (!r.p || !(r.p->flags & OPT_LIMIT))
        return glance_options_set(o, key, value);
    /* Parse into a scratch block, then compare: a limit may only go down. */
    options_core scratch;
    const void *block = row_block(o, &r);
    size_t size = r.table == -1 ? sizeof(options_core) : methods_all[r.table]->params_size;
    if (size > sizeof scratch)
        return refuse(o, "option '%s': %s", r.p->key, "too large a block to compare");
    memcpy(&scratch, block, size);
    if (base_param_parse(r.p, &scratch, value, o->error, sizeof o->error) != 0)
        return GLANCE_EOPTION;
    double now = number_of(r.p, block), asked = number_of(r.p, &scratch);
    int unbounded_now = (r.p->flags & OPT_ZERO_NONE) && now == 0;
    int unbounded_asked = (r.p->flags & OPT_ZERO_NONE) && asked == 0;
    if (!unbounded_now && (unbounded_asked || asked > now)) {
        base_buf b = BASE_BUF_INIT;
        base_param_format(r.p, block, &b);
        snprintf(o->error, sizeof o->error, "%s: '%s' is over the limit here (%s)", r.p->key,
                 value ? value : "", b.data ? b.data : "?");
        base_buf_free(&b);
        return GLANCE_EOPTION;
    }
    return glance_options_set(o, key, value);
}

const char *glance_options_error(const glance_options *o)
{
    return o ? o->error : "no options";
}

char *glance_options_get(const glance_options *o, const char *key)
{
    row r;
    if (!o || find_row(key, &r) != 0)
        return NULL;
    base_buf b = BASE_BUF_INIT;
    if (r.table == -2)
        base_buf_puts(&b, o->mode == OPTIONS_AUTO  ? "auto"
                          : o->mode == OPTIONS_ALL ? "all"
                                                   : methods_all[o->method]->name);
    else
        base_param_format(r.p, row_block((glance_options *)o, &r), &b);
    return base_buf_take(&b, NULL);
}

void glance_options_set_geometry(glance_options *o, const glance_geometry *geo)
{
    if (o)
        o->geometry = geo;
}

int glance_option_count(void)
{
    return (int)n_rows();
}

glance_status glance_option_describe(int i, glance_option_info *info)
{
    row r;
    if (!info || info->size == 0 || i < 0 || row_at((size_t)i, &r) != 0)
        return GLANCE_EOPTION;
    glance_option_info full;
    memset(&full, 0, sizeof full);
    full.size = info->size;
    full.group = r.group;
    if (r.table == -2) {
        full.key = "method";
        full.type = "name";
        full.def = "auto";
        full.doc = "what answers: auto (glance's scorer, score), all (auto, and every "
                   "method's own answer in the JSON), or one method alone";
    } else {
        const base_param *p = r.p;
        full.key = p->key;
        full.alias = p->alias;
        full.type = base_param_type_name(p);
        full.def = p->def;
        full.choices = p->choices;
        full.doc = p->doc;
        full.min = p->type == BASE_PARAM_MS ? p->min / 1000 : p->min;
        full.max = p->type == BASE_PARAM_MS ? p->max / 1000 : p->max;
        full.above_min = (p->flags & BASE_PARAM_ABOVE_MIN) != 0;
        full.flags = p->flags & (GLANCE_OPTION_LOCAL | GLANCE_OPTION_LIMIT);
    }
    memcpy(info, &full, info->size < sizeof full ? info->size : sizeof full);
    return GLANCE_OK;
}

int glance_option_range(int i, char *buf, size_t cap)
{
    row r;
    if (i < 0 || row_at((size_t)i, &r) != 0)
        return -1;
    base_buf b = BASE_BUF_INIT;
    if (r.table == -2) {
        for (int k = 0; k < glance_method_count(); k++)
            base_buf_printf(&b, "%s%s", k ? "|" : "", glance_method_name(k));
    } else {
        base_param_describe(r.p, &b);
    }
    int n = snprintf(buf, cap, "%s", b.data ? b.data : "");
    base_buf_free(&b);
    return n;
}

/* The public list of methods: auto, the registry's, all. */
int glance_method_count(void)
{
    return (int)methods_count + 2;
}

const char *glance_method_name(int i)
{
    if (i == 0)
        return "auto";
    if (i > 0 && (size_t)i <= methods_count)
        return methods_all[i - 1]->name;
    return (size_t)i == methods_count + 1 ? "all" : NULL;
}

const char *glance_method_doc(int i)
{
    if (i == 0)
        return "glance's scorer (score), the default: every block of the laid-out page weighed "
               "with the other methods' answers as votes";
    if (i > 0 && (size_t)i <= methods_count)
        return methods_all[i - 1]->doc;
    return (size_t)i == methods_count + 1
               ? "auto answers; every method also runs on its own and the JSON reports each "
                 "one's answer (\"methods\")"
               : NULL;
}

/* Boxes of another engine stand for a layout at their window size only. */
int options_valid(const glance_options *o, char *why, size_t cap)
{
    if (o->geometry) {
        int w, h;
        glance_geometry_window(o->geometry, &w, &h);
        if (w != o->core.render.window_w || h != o->core.render.window_h) {
            snprintf(why, cap, "geometry laid out in a %dx%d window, not %dx%d", w, h,
                     o->core.render.window_w, o->core.render.window_h);
            return 0;
        }
    }
    return 1;
}
