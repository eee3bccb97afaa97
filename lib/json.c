/* lib/: a result as JSON (json-c), with GCE's reasoning laid bare so that a
 * person can see why a node was chosen or why none was. */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "lib/result.h"

static const char *status_name(glance_status s)
{
    switch (s) {
    case GLANCE_OK: return "ok";
    case GLANCE_ENOCONTENT: return "nocontent";
    case GLANCE_EINPUT: return "badinput";
    case GLANCE_ETOOBIG: return "toobig";
    case GLANCE_EOPTION: return "badoption";
    case GLANCE_EIO: return "io";
    case GLANCE_ENOMEM: return "nomem";
    case GLANCE_ELAYOUT: return "layout";
    case GLANCE_EFONTS: return "fonts";
    case GLANCE_EURL: return "badurl";
    case GLANCE_EFETCH: return "fetch";
    case GLANCE_ETIMEOUT: return "timeout";
    case GLANCE_EADDR: return "addressrefused";
    case GLANCE_EREDIRECTS: return "redirects";
    case GLANCE_EOFFLINE: return "offline";
    case GLANCE_ECOSTLY: return "costly";
    }
    return "unknown";
}

static const char *rule_name(gce_rule r)
{
    switch (r) {
    case GCE_RULE_TAG: return "tag";
    case GCE_RULE_ATTR: return "attr";
    case GCE_RULE_DIFF: return "diff";
    case GCE_RULE_NONE: return "none";
    }
    return "none";
}

static json_object *jbox(dom_box b)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "x", json_object_new_double(b.x));
    json_object_object_add(o, "y", json_object_new_double(b.y));
    json_object_object_add(o, "w", json_object_new_double(b.w));
    json_object_object_add(o, "h", json_object_new_double(b.h));
    return o;
}

static json_object *jpoint(gce_point p)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "x", json_object_new_double(p.x));
    json_object_object_add(o, "y", json_object_new_double(p.y));
    return o;
}

static json_object *jstr(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

/* A node as XPath, tag and box; the xpath string lands in the document's
 * arena, which the result owns anyway. */
static json_object *jnode(dom_doc *doc, const dom_node *n)
{
    if (!n)
        return NULL;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "xpath", jstr(dom_node_xpath(doc, n)));
    if (n->kind == DOM_ELEMENT)
        json_object_object_add(o, "tag", jstr(n->tag));
    json_object_object_add(o, "box", jbox(n->box));
    if (n->kind == DOM_TEXT) {
        /* The first 80 bytes of the leaf, cut at a character boundary. */
        size_t len = n->text_len < 80 ? n->text_len : 80;
        while (len < n->text_len && len > 0 && ((unsigned char)n->text[len] & 0xc0) == 0x80)
            len--;
        json_object_object_add(o, "text", json_object_new_string_len(n->text, (int)len));
    }
    return o;
}

static json_object *jgce(const glance_result *res)
{
    const gce_result *g = &res->gce;
    dom_doc *doc = res->dom;
    json_object *o = json_object_new_object();

    json_object *params = json_object_new_object();
    json_object_object_add(params, "grid_rows", json_object_new_int(res->params.grid_rows));
    json_object_object_add(params, "grid_cols", json_object_new_int(res->params.grid_cols));
    json_object_object_add(params, "alpha", json_object_new_double(res->params.alpha));
    json_object_object_add(params, "beta", json_object_new_double(res->params.beta));
    json_object_object_add(params, "dw", json_object_new_double(res->params.dw));
    json_object_object_add(params, "diff_target",
                           json_object_new_string(res->params.diff_target == GCE_DIFF_PARENT ? "parent" : "child"));
    json_object_object_add(params, "link_area_min_links", json_object_new_int(res->params.link_area_min_links));
    json_object_object_add(params, "link_area_min_cells", json_object_new_double(res->params.link_area_min_cells));
    json_object_object_add(params, "link_text_page_share", json_object_new_double(res->params.link_text_page_share));
    json_object_object_add(o, "params", params);

    json_object_object_add(o, "fia", jbox(g->fia));
    json_object *grid = json_object_new_object();
    json_object_object_add(grid, "rows", json_object_new_int(g->rows));
    json_object_object_add(grid, "cols", json_object_new_int(g->cols));
    json_object_object_add(grid, "cell_w", json_object_new_double(g->cell_w));
    json_object_object_add(grid, "cell_h", json_object_new_double(g->cell_h));
    json_object_object_add(grid, "kept", json_object_new_int64((int64_t)g->n_kept));
    json_object *excluded = json_object_new_array();
    for (int r = 0; g->cells && r < g->rows; r++) {
        for (int c = 0; c < g->cols; c++) {
            unsigned char s = g->cells[(size_t)r * (size_t)g->cols + (size_t)c];
            if (s == GCE_CELL_KEPT)
                continue;
            json_object *cell = json_object_new_object();
            json_object_object_add(cell, "row", json_object_new_int(r));
            json_object_object_add(cell, "col", json_object_new_int(c));
            json_object_object_add(cell, "reason", json_object_new_string(s == GCE_CELL_EDGE ? "edge" : "link"));
            json_object_array_add(excluded, cell);
        }
    }
    json_object_object_add(grid, "excluded", excluded);
    json_object_object_add(o, "grid", grid);

    json_object *centres = json_object_new_object();
    json_object_object_add(centres, "window", jpoint(g->window_centre));
    json_object_object_add(centres, "document", jpoint(g->document_centre));
    json_object_object_add(centres, "c1", jpoint(g->centres[0]));
    json_object_object_add(centres, "c2", jpoint(g->centres[1]));
    json_object_object_add(centres, "c3", jpoint(g->centres[2]));
    json_object_object_add(o, "centres", centres);

    json_object *leaves = json_object_new_array();
    for (int i = 0; i < 3; i++)
        json_object_array_add(leaves, jnode(doc, g->leaves[i]));
    json_object_object_add(o, "leaves", leaves);

    json_object *cands = json_object_new_array();
    for (size_t i = 0; i < g->n_candidates; i++) {
        const gce_candidate *c = &g->candidates[i];
        json_object *jc = jnode(doc, c->node);
        if (!jc)
            continue;
        json_object_object_add(jc, "walk", json_object_new_int(c->walk + 1));
        json_object_object_add(jc, "rule", json_object_new_string(rule_name(c->rule)));
        json_object_object_add(jc, "density", json_object_new_double(c->density));
        json_object_object_add(jc, "best", json_object_new_boolean(c->best));
        json_object_object_add(jc, "chosen", json_object_new_boolean(c->node == g->chosen && c->walk == g->chosen_walk));
        json_object_array_add(cands, jc);
    }
    json_object_object_add(o, "candidates", cands);
    json_object_object_add(o, "chosen_walk", g->chosen_walk >= 0 ? json_object_new_int(g->chosen_walk + 1) : NULL);
    json_object_object_add(o, "chosen_best", json_object_new_boolean(g->chosen_best));
    json_object_object_add(o, "failure", jstr(g->failure));
    return o;
}

/* The extractors of papers 000, 003 and 004 (lib/methods.c) ------------ */

/* What a span covers: found, its score, its first and last text nodes. */
static json_object *jspan(dom_doc *doc, const extract_span *sp)
{
    json_object *o = json_object_new_object();
    int found = sp->first != NULL;
    json_object_object_add(o, "found", json_object_new_boolean(found));
    if (found) {
        json_object_object_add(o, "score", json_object_new_int64(sp->score));
        json_object_object_add(o, "first", jstr(dom_node_xpath(doc, sp->first)));
        json_object_object_add(o, "last", jstr(dom_node_xpath(doc, sp->last)));
    }
    json_object_object_add(o, "failure", jstr(sp->failure));
    return o;
}

static void jmethods(json_object *o, const glance_result *res)
{
    if (res->nodechar_ran) {
        const extract_nodechar_info *i = &res->nodechar_info;
        json_object *j = jspan(res->dom, &res->nodechar);
        json_object_object_add(j, "blocks", json_object_new_int64((int64_t)i->blocks));
        json_object_object_add(j, "nodes", json_object_new_int64((int64_t)i->nodes));
        json_object_object_add(j, "content_nodes", json_object_new_int64((int64_t)i->content));
        json_object_object_add(j, "text_density", json_object_new_double(i->density));
        json_object_object_add(j, "punctuation", json_object_new_int64(i->punct));
        json_object_object_add(o, "nodechar", j);
    }
    if (res->xpath_ran) {
        const extract_xpath_info *i = &res->xpath_info;
        json_object *j = jspan(res->dom, &res->xpath_blocks);
        json_object_object_add(j, "leaves", json_object_new_int64((int64_t)i->leaves));
        json_object_object_add(j, "content_leaves", json_object_new_int64((int64_t)i->content));
        json_object_object_add(j, "footers", json_object_new_int64((int64_t)i->footers));
        json_object_object_add(o, "xpath_blocks", j);
    }
    if (res->danag_ran) {
        const extract_danag_info *i = &res->danag_info;
        json_object *j = jspan(res->dom, &res->danag);
        json_object_object_add(j, "lines", json_object_new_int64((int64_t)i->lines));
        if (res->danag.first) {
            json_object *seed = json_object_new_array(), *area = json_object_new_array();
            json_object_array_add(seed, json_object_new_int64((int64_t)i->seed_first));
            json_object_array_add(seed, json_object_new_int64((int64_t)i->seed_last));
            json_object_array_add(area, json_object_new_int64((int64_t)i->area_first));
            json_object_array_add(area, json_object_new_int64((int64_t)i->area_last));
            json_object_object_add(j, "seed_lines", seed);
            json_object_object_add(j, "area_lines", area);
        }
        json_object_object_add(o, "danag", j);
    }
    if (res->all_ran) {
        /* --method all: each extractor's own answer, side by side. */
        json_object *all = json_object_new_object();
        for (int m = 0; m < GLANCE_METHOD_ALL; m++) {
            const struct result_answer *a = &res->answers[m];
            if (!a->ran)
                continue;
            json_object *j = json_object_new_object();
            json_object_object_add(j, "status", json_object_new_string(status_name(a->status)));
            json_object_object_add(j, "text", jstr(a->text));
            json_object_object_add(j, "xpath", jstr(a->xpath));
            if (a->first) {
                json_object *span = json_object_new_object();
                json_object_object_add(span, "first", jstr(a->first));
                json_object_object_add(span, "last", jstr(a->last));
                json_object_object_add(j, "span", span);
            }
            json_object_object_add(j, "words", json_object_new_int64(a->words));
            json_object_object_add(j, "failure", jstr(a->failure));
            json_object_object_add(all, glance_method_name((glance_method)m), j);
        }
        json_object_object_add(o, "methods", all);
    }
}

char *result_build_json(const glance_result *res)
{
    json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    json_object_object_add(o, "status", json_object_new_string(status_name(res->status)));
    json_object_object_add(o, "message",
                           res->status == GLANCE_OK ? NULL : jstr(glance_result_message(res, res->status)));
    json_object_object_add(o, "title", json_object_new_string(res->title ? res->title : ""));
    int ok = res->status == GLANCE_OK;
    json_object_object_add(o, "text", ok ? jstr(res->text) : NULL);
    json_object_object_add(o, "html", ok ? jstr(res->html) : NULL);

    json_object_object_add(o, "method", ok ? jstr(glance_method_name(res->method)) : NULL);
    json_object *chosen = NULL;
    if (ok && res->chosen) {
        chosen = json_object_new_object();
        json_object_object_add(chosen, "xpath", jstr(res->xpath));
        json_object_object_add(chosen, "tag", jstr(res->chosen->tag));
        json_object_object_add(chosen, "box", jbox(res->chosen->box));
        for (size_t i = 0; res->method == GLANCE_METHOD_GCE && i < res->gce.n_candidates; i++) {
            const gce_candidate *c = &res->gce.candidates[i];
            if (c->node == res->gce.chosen && c->walk == res->gce.chosen_walk) {
                json_object_object_add(chosen, "rule", json_object_new_string(rule_name(c->rule)));
                json_object_object_add(chosen, "density", json_object_new_double(c->density));
                break;
            }
        }
    }
    json_object_object_add(o, "chosen", chosen);

    json_object *win = json_object_new_object();
    json_object_object_add(win, "w", json_object_new_int(res->window_w));
    json_object_object_add(win, "h", json_object_new_int(res->window_h));
    json_object_object_add(o, "window", win);
    if (res->dom) {
        json_object *d = json_object_new_object();
        json_object_object_add(d, "w", json_object_new_double(dom_doc_width(res->dom)));
        json_object_object_add(d, "h", json_object_new_double(dom_doc_height(res->dom)));
        json_object_object_add(d, "nodes", json_object_new_int64((int64_t)dom_doc_count(res->dom)));
        json_object_object_add(o, "document", d);
        json_object *css = json_object_new_object();
        json_object_object_add(css, "loaded", json_object_new_int(res->rstats.stylesheets_loaded));
        json_object_object_add(css, "skipped", json_object_new_int(res->rstats.stylesheets_skipped));
        json_object_object_add(o, "stylesheets", css);
    }
    if (res->geometry.applied) {
        json_object *g = json_object_new_object();
        json_object_object_add(g, "matched", json_object_new_int64((int64_t)res->geometry.matched));
        json_object_object_add(g, "unmatched", json_object_new_int64((int64_t)res->geometry.unmatched));
        json_object_object_add(g, "unused", json_object_new_int64((int64_t)res->geometry.unused));
        json_object_object_add(o, "geometry", g);
    }
    if (res->auto_checked) {
        json_object *a = json_object_new_object();
        json_object_object_add(a, "gce_words", json_object_new_int64(res->auto_gce_words));
        json_object_object_add(a, "bte_words", json_object_new_int64(res->auto_bte_words));
        json_object_object_add(a, "min_share", json_object_new_double(res->params_auto_min_share));
        json_object_object_add(a, "gce_overruled", json_object_new_boolean(res->auto_overruled));
        if (res->auto_why)
            json_object_object_add(a, "why", json_object_new_string(res->auto_why));
        json_object_object_add(o, "auto", a);
    }
    if (res->auto_trim_ran) {
        /* auto: GCE's node kept to its dense stretches (lib/methods.c). */
        json_object *a = json_object_new_object();
        json_object_object_add(a, "trimmed", json_object_new_boolean(res->auto_trimmed));
        json_object_object_add(a, "words", json_object_new_int64(res->auto_trim_words));
        json_object_object_add(a, "stretch_share", json_object_new_double(res->params_stretch_share));
        json_object_object_add(a, "min_share", json_object_new_double(res->params_trim_min_share));
        json_object_object_add(o, "auto_trim", a);
    }
    if (res->bte_ran) {
        json_object *b = json_object_new_object();
        int found = res->bte.first != NULL;
        json_object_object_add(b, "found", json_object_new_boolean(found));
        if (found) {
            json_object_object_add(b, "score", json_object_new_int64(res->bte.score));
            json_object_object_add(b, "first", jstr(dom_node_xpath(res->dom, res->bte.first)));
            json_object_object_add(b, "last", jstr(dom_node_xpath(res->dom, res->bte.last)));
        }
        json_object_object_add(o, "bte", b);
    }
    if (res->gce_ran)
        json_object_object_add(o, "gce", jgce(res));
    jmethods(o, res);

    /* Where the page came from: its URL, charset and remote stylesheets. */
    json_object *src = json_object_new_object();
    json_object_object_add(src, "url", jstr(res->url));
    json_object_object_add(src, "final_url", jstr(res->final_url));
    if (res->url) {
        json_object_object_add(src, "http_status", json_object_new_int64(res->http_status));
        json_object_object_add(src, "redirects", json_object_new_int(res->redirects));
        json_object_object_add(src, "content_type", jstr(res->content_type));
    }
    json_object_object_add(src, "charset", json_object_new_string(res->charset.name));
    json_object_object_add(src, "charset_from", jstr(res->charset.from));
    json_object *sheets = json_object_new_array();
    for (int i = 0; i < res->sheets.n_sheets; i++) {
        const net_sheet *sh = &res->sheets.sheets[i];
        json_object *j = json_object_new_object();
        json_object_object_add(j, "url", jstr(sh->url));
        json_object_object_add(j, "fetched", json_object_new_boolean(sh->error == NULL));
        json_object_object_add(j, "bytes", json_object_new_int64((int64_t)sh->len));
        json_object_object_add(j, "error", jstr(sh->error));
        json_object_object_add(j, "ms", json_object_new_double(sh->ms));
        json_object_array_add(sheets, j);
    }
    json_object_object_add(src, "stylesheets", sheets);
    json_object_object_add(o, "source", src);

    json_object *t = json_object_new_object();
    json_object_object_add(t, "fetch", json_object_new_double(res->fetch_ms));
    json_object_object_add(t, "parse", json_object_new_double(res->timings.parse_ms));
    json_object_object_add(t, "layout", json_object_new_double(res->timings.layout_ms));
    json_object_object_add(t, "gce", json_object_new_double(res->timings.gce_ms));
    json_object_object_add(t, "total", json_object_new_double(res->timings.total_ms));
    json_object_object_add(o, "timings_ms", t);

    const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    char *out = s ? strdup(s) : NULL;
    json_object_put(o);
    return out;
}
