/* lib/: a result as JSON (json-c), with the reasoning laid bare so that a
 * person can see why a node was chosen or why none was: each method that
 * ran adds its own details (its descriptor's), auto what it weighed. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

/* One answer as --method all reports it: status, text, the node and span
 * it came from, its words, or why there is none. */
static json_object *janswer(const glance_result *res, int found, const char *text,
                            const dom_node *node, const extract_span *span, const char *failure)
{
    json_object *j = json_object_new_object();
    json_object_object_add(j, "status",
                           json_object_new_string(glance_status_name(found ? GLANCE_OK : GLANCE_ENOCONTENT)));
    json_object_object_add(j, "text", found ? method_json_str(text) : NULL);
    json_object_object_add(j, "xpath", found && node ? method_json_str(dom_node_xpath(res->dom, node)) : NULL);
    if (found && span && span->first) {
        json_object *sp = json_object_new_object();
        json_object_object_add(sp, "first", method_json_str(dom_node_xpath(res->dom, span->first)));
        json_object_object_add(sp, "last", method_json_str(dom_node_xpath(res->dom, span->last)));
        json_object_object_add(j, "span", sp);
    }
    json_object_object_add(j, "words",
                           json_object_new_int64(found && text ? extract_count_words(text, strlen(text)) : 0));
    json_object_object_add(j, "failure", found ? NULL : method_json_str(failure));
    return j;
}

static void jmethods(json_object *o, const glance_result *res)
{
    for (size_t i = 0; i < methods_count; i++) {
        const method_desc *d = methods_all[i];
        const result_record *r = &res->records[i];
        if (r->ran && d->details) {
            json_object *j = d->details(&res->page, r->state);
            if (j)
                json_object_object_add(j, "ms", json_object_new_double(r->ms));
            json_object_object_add(o, d->json_key, j);
        }
    }
    if (!res->all_ran)
        return;
    /* --method all: each method's own answer, side by side, auto's first. */
    json_object *all = json_object_new_object();
    json_object_object_add(all, "auto",
                           janswer(res, res->status == GLANCE_OK, res->text, res->chosen, res->span,
                                   glance_result_message(res, res->status)));
    for (size_t i = 0; i < methods_count; i++) {
        const result_record *r = &res->records[i];
        if (!r->ran)
            continue;
        char failure[400];
        snprintf(failure, sizeof failure, "%s: %s", glance_strerror(GLANCE_ENOCONTENT), r->ans.why);
        json_object_object_add(all, methods_all[i]->name,
                               janswer(res, r->found, r->ans.text, r->ans.node, r->ans.span, failure));
    }
    json_object_object_add(o, "methods", all);
}

/* The metadata: each field's value (null when unknown), and under "from"
 * where each came from. */
static json_object *jmeta(const glance_result *res)
{
    json_object *m = json_object_new_object(), *from = json_object_new_object();
    const meta_info *mi = &res->meta;
    for (int i = 0; i < META_N; i++) {
        const char *name = meta_field_name((meta_field)i);
        json_object_object_add(m, name, method_json_str(mi->f[i].value));
        if (i == META_TITLE) {
            json_object *a = json_object_new_array();
            for (size_t k = 0; k < mi->n_authors; k++)
                json_object_array_add(a, json_object_new_string(mi->authors[k]));
            json_object_object_add(m, "authors", a);
        }
        if (mi->f[i].from)
            json_object_object_add(from, name, json_object_new_string(mi->f[i].from));
    }
    if (mi->authors_from)
        json_object_object_add(from, "authors", json_object_new_string(mi->authors_from));
    /* The <title> element as the page wrote it, beside the title. */
    json_object_object_add(m, "title_element", json_object_new_string(res->title ? res->title : ""));
    int minutes = glance_result_reading_minutes(res);
    json_object_object_add(m, "reading_minutes", minutes ? json_object_new_int(minutes) : NULL);
    json_object_object_add(m, "from", from);
    return m;
}

char *json_build(const glance_result *res)
{
    json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    json_object_object_add(o, "status", json_object_new_string(glance_status_name(res->status)));
    json_object_object_add(o, "message",
                           res->status == GLANCE_OK ? NULL : method_json_str(glance_result_message(res, res->status)));
    json_object_object_add(o, "title", json_object_new_string(glance_result_title(res)));
    if (res->meta_read)
        json_object_object_add(o, "metadata", jmeta(res));
    int ok = res->status == GLANCE_OK;
    json_object_object_add(o, "text", ok ? method_json_str(res->text) : NULL);
    json_object_object_add(o, "html", ok ? method_json_str(res->html) : NULL);

    json_object_object_add(o, "method", ok ? method_json_str(glance_result_method(res)) : NULL);
    json_object *chosen = NULL;
    if (ok && res->chosen) {
        chosen = json_object_new_object();
        json_object_object_add(chosen, "xpath", method_json_str(res->xpath));
        json_object_object_add(chosen, "tag", method_json_str(res->chosen->tag));
        json_object_object_add(chosen, "box", method_json_box(res->chosen->box));
        if (res->rule) {
            json_object_object_add(chosen, "rule", json_object_new_string(res->rule));
            json_object_object_add(chosen, "density", json_object_new_double(res->density));
        }
    }
    json_object_object_add(o, "chosen", chosen);

    json_object *win = json_object_new_object();
    json_object_object_add(win, "w", json_object_new_int(res->window_w));
    json_object_object_add(win, "h", json_object_new_int(res->window_h));
    json_object_object_add(o, "window", win);
    /* A phone's or tablet's browser lays the page out in a layout viewport
     * of its own (render_viewport): the boxes are in its CSS px. */
    if (res->rstats.viewport.mobile) {
        json_object *vp = json_object_new_object();
        json_object_object_add(vp, "w", json_object_new_int(res->rstats.viewport.w));
        json_object_object_add(vp, "h", json_object_new_int(res->rstats.viewport.h));
        /* Not known of a caller's snapshot: its markup is not at hand. */
        if (!(res->engine && strcmp(res->engine, "snapshot") == 0))
            json_object_object_add(vp, "from_meta",
                                   json_object_new_boolean(res->rstats.viewport.from_meta));
        json_object_object_add(o, "viewport", vp);
    }
    /* Who laid the page out: litehtml, the browser (chromium), or the
     * caller's browser (snapshot); with engine auto, whether it sent the
     * page to the browser. */
    json_object_object_add(o, "engine", res->engine ? json_object_new_string(res->engine) : NULL);
    if (res->engine && strcmp(res->engine, "chromium") == 0) {
        const browse_stats *b = &res->browse;
        json_object *bj = json_object_new_object();
        json_object_object_add(bj, "start_ms", json_object_new_double(b->start_ms));
        json_object_object_add(bj, "load_ms", json_object_new_double(b->load_ms));
        json_object_object_add(bj, "snapshot_ms", json_object_new_double(b->snapshot_ms));
        json_object_object_add(bj, "tree_ms", json_object_new_double(b->tree_ms));
        json_object_object_add(bj, "snapshot_bytes", json_object_new_int64((int64_t)b->snapshot_bytes));
        json_object_object_add(bj, "requests", json_object_new_int(b->requests));
        json_object_object_add(bj, "refused", json_object_new_int(b->refused));
        json_object_object_add(bj, "restarts", json_object_new_int(b->restarts));
        json_object_object_add(bj, "sent_by_auto", json_object_new_boolean(b->sent));
        json_object_object_add(bj, "scripts_emptied", json_object_new_boolean(b->scripts_emptied));
        json_object_object_add(o, "browser", bj);
    }
    if (res->dom) {
        json_object *d = json_object_new_object();
        json_object_object_add(d, "w", json_object_new_double(dom_doc_width(res->dom)));
        json_object_object_add(d, "h", json_object_new_double(dom_doc_height(res->dom)));
        json_object_object_add(d, "nodes", json_object_new_int64((int64_t)dom_doc_count(res->dom)));
        /* Its <noscript> styles hid it: laid out again without them. */
        if (res->rstats.noscript_styles_dropped)
            json_object_object_add(d, "noscript_styles_dropped", json_object_new_boolean(1));
        /* Its runs of white space written as one space (render/spaces.h),
         * then read again as they were: a stylesheet loaded during the parse
         * might keep them. */
        if (res->rstats.spaces_read_again)
            json_object_object_add(d, "spaces_read_again", json_object_new_boolean(1));
        /* Its attributes that nothing reads left out (render/cssfilter.h),
         * then read again with them: a stylesheet loaded during the parse
         * names one. */
        if (res->rstats.attrs_read_again)
            json_object_object_add(d, "attrs_read_again", json_object_new_boolean(1));
        /* Its text hidden by visibility until a script ran: shown. */
        if (res->rstats.visibility_revealed)
            json_object_object_add(d, "visibility_revealed", json_object_new_boolean(1));
        /* Streamed in parts that its scripts move into place: put there. */
        if (res->rstats.streamed_parts > 0)
            json_object_object_add(d, "streamed_parts",
                                   json_object_new_int(res->rstats.streamed_parts));
        json_object_object_add(o, "document", d);
        json_object *css = json_object_new_object();
        json_object_object_add(css, "loaded", json_object_new_int(res->rstats.stylesheets_loaded));
        json_object_object_add(css, "skipped", json_object_new_int(res->rstats.stylesheets_skipped));
        json_object_object_add(o, "stylesheets", css);
        /* The scripts of the page no installed face has: their text was
         * measured with fonts/' metric fallback, not a face. */
        json_object *fo = json_object_new_object(), *miss = json_object_new_array();
        for (size_t i = 0; i < res->rstats.n_missing_scripts && i < RENDER_MISSING_SCRIPTS; i++)
            json_object_array_add(miss, json_object_new_string(res->rstats.missing_scripts[i]));
        json_object_object_add(fo, "missing_scripts", miss);
        json_object_object_add(o, "fonts", fo);
    }
    if (res->geometry.applied) {
        json_object *g = json_object_new_object();
        json_object_object_add(g, "matched", json_object_new_int64((int64_t)res->geometry.matched));
        json_object_object_add(g, "unmatched", json_object_new_int64((int64_t)res->geometry.unmatched));
        json_object_object_add(g, "unused", json_object_new_int64((int64_t)res->geometry.unused));
        json_object_object_add(o, "geometry", g);
    }
    jmethods(o, res);

    /* Where the page came from: its URL, charset and remote stylesheets. */
    json_object *src = json_object_new_object();
    json_object_object_add(src, "url", method_json_str(res->url));
    json_object_object_add(src, "final_url", method_json_str(res->final_url));
    if (res->url) {
        json_object_object_add(src, "http_status", json_object_new_int64(res->http_status));
        json_object_object_add(src, "redirects", json_object_new_int(res->redirects));
        json_object_object_add(src, "content_type", method_json_str(res->content_type));
    }
    json_object_object_add(src, "charset", json_object_new_string(res->charset.name));
    json_object_object_add(src, "charset_from", method_json_str(res->charset.from));
    json_object *sheets = json_object_new_array();
    for (int i = 0; i < res->sheets.n_sheets; i++) {
        const net_sheet *sh = &res->sheets.sheets[i];
        json_object *j = json_object_new_object();
        json_object_object_add(j, "url", method_json_str(sh->url));
        json_object_object_add(j, "fetched", json_object_new_boolean(sh->error == NULL));
        json_object_object_add(j, "bytes", json_object_new_int64((int64_t)sh->len));
        json_object_object_add(j, "error", method_json_str(sh->error));
        json_object_object_add(j, "ms", json_object_new_double(sh->ms));
        json_object_array_add(sheets, j);
    }
    json_object_object_add(src, "stylesheets", sheets);
    json_object_object_add(o, "source", src);

    json_object *t = json_object_new_object();
    json_object_object_add(t, "fetch", json_object_new_double(res->timings.fetch_ms));
    json_object_object_add(t, "parse", json_object_new_double(res->timings.parse_ms));
    json_object_object_add(t, "layout", json_object_new_double(res->timings.layout_ms));
    json_object *pp = json_object_new_object();
    json_object_object_add(pp, "css", json_object_new_double(res->timings.css_ms));
    json_object_object_add(pp, "html", json_object_new_double(res->timings.html_ms));
    json_object_object_add(pp, "styles", json_object_new_double(res->timings.style_ms));
    json_object_object_add(t, "parse_parts", pp);
    json_object_object_add(t, "tree", json_object_new_double(res->timings.tree_ms));
    json_object_object_add(t, "extract", json_object_new_double(res->timings.extract_ms));
    json_object_object_add(t, "total", json_object_new_double(res->timings.total_ms));
    json_object_object_add(o, "timings_ms", t);

    const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    char *out = s ? strdup(s) : NULL;
    json_object_put(o);
    return out;
}
