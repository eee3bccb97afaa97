/* lib/: the entry points of include/glance.h: a context, and a page from
 * bytes, a file, a server's client or the web, each checked and handed to
 * the pipeline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/clock.h"
#include "browser/browser.h"
#include "lib/browse.h"
#include "lib/input.h"
#include "lib/isolate.h"
#include "lib/options.h"
#include "lib/pipeline.h"
#include "lib/source.h"

const char *glance_version(void)
{
    return GLANCE_VERSION;
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
    browser_free(ctx->browser);
    fonts_lib_free(ctx->fonts);
    net_global_cleanup();
    free(ctx);
}

char *glance_fonts_report(glance_context *ctx)
{
    /* The scripts of the corpora and of most of the web's text, each by a
     * letter of it. */
    static const struct {
        const char *name;
        unsigned cp;
    } scripts[] = {
        {"Latin", 'a'},          {"Greek", 0x03B1},     {"Cyrillic", 0x0434},
        {"Armenian", 0x0561},    {"Hebrew", 0x05D0},    {"Arabic", 0x0628},
        {"Devanagari", 0x0915},  {"Bengali", 0x0995},   {"Gurmukhi", 0x0A15},
        {"Gujarati", 0x0A95},    {"Tamil", 0x0B95},     {"Telugu", 0x0C15},
        {"Kannada", 0x0C95},     {"Malayalam", 0x0D15}, {"Sinhala", 0x0D9A},
        {"Thai", 0x0E01},        {"Lao", 0x0E81},       {"Tibetan", 0x0F40},
        {"Myanmar", 0x1000},     {"Georgian", 0x10D0},  {"Ethiopic", 0x1200},
        {"Khmer", 0x1780},       {"Han", 0x6C34},       {"Hiragana", 0x3042},
        {"Katakana", 0x30A2},    {"Hangul", 0xD55C},
    };
    if (!ctx)
        return NULL;
    fonts_font *f = fonts_open(ctx->fonts, "sans-serif", 16, 400, 0);
    base_buf b = BASE_BUF_INIT;
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        const char *face = f ? fonts_family_for(f, scripts[i].cp) : NULL;
        base_buf_printf(&b, "%s: %s\n", scripts[i].name, face ? face : "none (metric fallback)");
    }
    return base_buf_take(&b, NULL);
}

/* A call in progress: its result, its options (the defaults when the
 * caller gave none) and when it began. */
typedef struct call {
    glance_result *res;
    const glance_options *o;
    glance_options *own;
    double t0;
} call;

/* Starts a call: a new result in *out, the options checked. The status to
 * return at once, or GLANCE_OK. */
static glance_status begin(call *c, glance_context *ctx, const glance_options *opts,
                           glance_result **out)
{
    memset(c, 0, sizeof *c);
    c->t0 = base_now_ms();
    *out = c->res = result_new();
    if (!c->res)
        return GLANCE_ENOMEM;
    c->o = opts;
    if (!opts && !(c->o = c->own = glance_options_new()))
        return GLANCE_ENOMEM;
    char why[256];
    if (!ctx) {
        result_set_message(c->res, "no context");
        return GLANCE_EOPTION;
    }
    if (!options_valid(c->o, why, sizeof why)) {
        result_set_message(c->res, why);
        return GLANCE_EOPTION;
    }
    return GLANCE_OK;
}

static glance_status finish(call *c, glance_status st)
{
    glance_options_free(c->own);
    if (!c->res)
        return st;
    c->res->status = st;
    c->res->timings.total_ms = base_now_ms() - c->t0;
    return st;
}

static glance_status no_buffer(call *c)
{
    result_set_message(c->res, "no input buffer");
    return GLANCE_EOPTION;
}

glance_status glance_extract(glance_context *ctx, const char *html, size_t len,
                             const glance_options *opts, glance_result **out)
{
    call c;
    glance_status st = begin(&c, ctx, opts, out);
    if (st == GLANCE_OK && !html && len)
        st = no_buffer(&c);
    if (st == GLANCE_OK && c.o->core.isolate)
        st = isolate_call(ctx, &(isolate_job){.kind = ISOLATE_BYTES, .html = html, .len = len},
                          c.o, c.res);
    else if (st == GLANCE_OK)
        st = pipeline_page(ctx, c.res, html, len, c.o, NULL, NULL, NULL);
    return finish(&c, st);
}

glance_status glance_extract_page(glance_context *ctx, const char *html, size_t len,
                                  const char *charset, const char *base_url,
                                  const glance_options *opts, glance_result **out)
{
    call c;
    glance_status st = begin(&c, ctx, opts, out);
    if (st == GLANCE_OK && !html && len)
        st = no_buffer(&c);
    if (st == GLANCE_OK && base_url && strncasecmp(base_url, "http://", 7) != 0 &&
        strncasecmp(base_url, "https://", 8) != 0) {
        result_set_message(c.res, "the base is not an http or https URL");
        st = GLANCE_EURL;
    }
    if (st == GLANCE_OK && c.o->core.isolate)
        st = isolate_call(ctx,
                          &(isolate_job){.kind = ISOLATE_PAGE, .html = html, .len = len,
                                         .charset = charset, .base_url = base_url},
                          c.o, c.res);
    else if (st == GLANCE_OK)
        st = pipeline_page(ctx, c.res, html, len, c.o, NULL, base_url, charset);
    return finish(&c, st);
}

glance_status glance_browser_version(glance_context *ctx, const glance_options *opts, char *buf,
                                     size_t cap)
{
    if (!ctx || !buf || !cap)
        return GLANCE_EOPTION;
    glance_options *own = NULL;
    if (!opts && !(opts = own = glance_options_new()))
        return GLANCE_ENOMEM;
    glance_status st = browse_version(ctx, opts, buf, cap);
    glance_options_free(own);
    return st;
}

glance_status glance_extract_snapshot(glance_context *ctx, const char *json, size_t len,
                                      const glance_options *opts, glance_result **out)
{
    call c;
    glance_status st = begin(&c, ctx, opts, out);
    if (st == GLANCE_OK && !json && len)
        st = no_buffer(&c);
    if (st == GLANCE_OK)
        st = browse_snapshot(ctx, c.res, json, len, c.o);
    return finish(&c, st);
}

glance_status glance_extract_url(glance_context *ctx, const char *url,
                                 const glance_options *opts, glance_result **out)
{
    call c;
    glance_status st = begin(&c, ctx, opts, out);
    if (st == GLANCE_OK && !url) {
        result_set_message(c.res, "no URL");
        st = GLANCE_EOPTION;
    }
    if (st == GLANCE_OK && c.o->core.isolate)
        st = isolate_call(ctx, &(isolate_job){.kind = ISOLATE_URL, .where = url}, c.o, c.res);
    if (st != GLANCE_OK || c.o->core.isolate)
        return finish(&c, st);
    net_session *ns = NULL;
    net_page page;
    st = source_fetch_page(c.res, c.o, url, &ns, &page);
    if (st == GLANCE_OK)
        st = pipeline_page(ctx, c.res, page.body, page.len, c.o, ns, c.res->final_url,
                           page.charset);
    net_page_free(&page);
    net_session_free(ns);
    return finish(&c, st);
}

glance_status glance_extract_file(glance_context *ctx, const char *path,
                                  const glance_options *opts, glance_result **out)
{
    call c;
    glance_status st = begin(&c, ctx, opts, out);
    if (st == GLANCE_OK && c.o->core.isolate)
        st = isolate_call(ctx, &(isolate_job){.kind = ISOLATE_FILE, .where = path}, c.o, c.res);
    if (st != GLANCE_OK || c.o->core.isolate)
        return finish(&c, st);
    char why[512];
    char *buf = NULL;
    size_t len = 0;
    st = input_read_file(path, c.o->core.net.max_page_bytes, &buf, &len, why, sizeof why);
    if (st != GLANCE_OK) {
        result_set_message(c.res, why);
        return finish(&c, st);
    }
    const glance_options *o = c.o;
    glance_options *with_dir = NULL;
    if (!o->core.render.base_dir) {
        /* Relative stylesheet links resolve against the file's folder. */
        const char *slash = strrchr(path, '/');
        char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
        if (!dir || !(with_dir = glance_options_copy(o)) ||
            glance_options_set(with_dir, "base_dir", dir) != GLANCE_OK)
            st = GLANCE_ENOMEM;
        free(dir);
        o = with_dir;
    }
    if (st == GLANCE_OK)
        st = pipeline_page(ctx, c.res, buf, len, o, NULL, NULL, NULL);
    free(buf);
    glance_options_free(with_dir);
    return finish(&c, st);
}

glance_status glance_result_rerun(glance_result *res, const glance_options *opts)
{
    double t0 = base_now_ms();
    char why[256];
    if (!res || !opts)
        return GLANCE_EOPTION;
    if (!res->dom) {
        result_set_message(res, res->wire ? "the page was laid out in a child process (isolate): "
                                            "nothing to run again here"
                                          : "the page was not laid out: nothing to run again");
        return res->status = GLANCE_EOPTION;
    }
    if (!options_valid(opts, why, sizeof why)) {
        result_set_message(res, why);
        return res->status = GLANCE_EOPTION;
    }
    if (opts->core.render.window_w != res->window_w || opts->core.render.window_h != res->window_h) {
        result_set_message(res, "a different window size needs a new layout: call glance_extract");
        return res->status = GLANCE_EOPTION;
    }
    result_forget_run(res);
    res->t_begin = t0;
    res->deadline = opts->core.time_budget_ms > 0 ? t0 + (double)opts->core.time_budget_ms : 0;
    res->timings.extract_ms = 0;
    glance_status st = pipeline_extract(res, opts);
    res->status = st;
    res->timings.total_ms = res->timings.parse_ms + res->timings.layout_ms + (base_now_ms() - t0);
    return st;
}
