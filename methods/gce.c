/* methods/: GCE, Grid Centering Expanding (Jung et al., IEEE Access 2022,
 * paper 002; gce/), kept as the paper describes it: the element it chooses
 * is the answer, cleaned up inside. */
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stddef.h>

#include "methods/method.h"

/* CHOICE parameters are ints. */
_Static_assert(sizeof(gce_diff_target) == sizeof(int), "gce_diff_target is an int");

static const base_param params[] = {
    {"gce.grid", BASE_PARAM_PAIR, offsetof(gce_params, grid_rows), 1, 1000, "7x8",
     "grid rows x columns over the window", NULL, 0, "grid"},
    {"gce.alpha", BASE_PARAM_DOUBLE, offsetof(gce_params, alpha), 0, 100, "2",
     "scroll factor of the first impression area (FIA)", NULL, BASE_PARAM_ABOVE_MIN, "alpha"},
    {"gce.beta", BASE_PARAM_DOUBLE, offsetof(gce_params, beta), 0, 1, "0.5",
     "link node area density above which text is link text", NULL, 0, "beta"},
    {"gce.dw", BASE_PARAM_DOUBLE, offsetof(gce_params, dw), 0, 100, "1.7",
     "width jump that stops the expansion (Δw)", NULL, BASE_PARAM_ABOVE_MIN, "dw"},
    {"gce.diff", BASE_PARAM_CHOICE, offsetof(gce_params, diff_target), 0, 0, "child",
     "node the width-jump rule takes: the one before the jump (the paper's text) or the "
     "wider parent (its pseudocode)", "child|parent", 0, "diff"},
    {"gce.link_area_min_links", BASE_PARAM_INT, offsetof(gce_params, link_area_min_links), 1,
     INT_MAX, "3", "a dense link area (excluding grid cells) holds at least this many links",
     NULL, 0, NULL},
    {"gce.link_area_min_cells", BASE_PARAM_DOUBLE, offsetof(gce_params, link_area_min_cells), 0,
     1e6, "0.25", "... and covers at least this many grid cells' area", NULL, 0, NULL},
    {"gce.link_text_page_share", BASE_PARAM_DOUBLE, offsetof(gce_params, link_text_page_share), 0,
     1e6, "0.9",
     "an element covering this share of the page never makes its text link text (above 1: "
     "the paper's literal reading)", NULL, BASE_PARAM_ABOVE_MIN, NULL},
};

static void state_free(void *state)
{
    method_gce_state *s = state;
    gce_result_free(&s->gce);
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

static int run(const method_page *pg, const void *p, void *state, method_answer *out)
{
    method_gce_state *s = state;
    s->params = *(const gce_params *)p;
    s->params.window_w = pg->window_w;
    s->params.window_h = pg->window_h;
    int g = gce_run(pg->dom, &s->params, &s->gce);
    if (g < 0)
        return -1;
    if (g > 0) {
        snprintf(out->why, sizeof out->why, "%s", s->gce.failure ? s->gce.failure : "GCE failed");
        return 1;
    }
    int r = method_answer_node(pg, s->gce.chosen, out);
    for (size_t i = 0; r == 0 && i < s->gce.n_candidates; i++) {
        const gce_candidate *c = &s->gce.candidates[i];
        if (c->node == s->gce.chosen && c->walk == s->gce.chosen_walk) {
            out->rule = rule_name(c->rule);
            out->density = c->density;
            break;
        }
    }
    return r;
}

static json_object *jpoint(gce_point p)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "x", json_object_new_double(p.x));
    json_object_object_add(o, "y", json_object_new_double(p.y));
    return o;
}

/* A node as XPath, tag and box (and a text leaf's first 80 bytes, cut at a
 * character boundary). */
static json_object *jnode(dom_doc *doc, const dom_node *n)
{
    if (!n)
        return NULL;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "xpath", method_json_str(dom_node_xpath(doc, n)));
    if (n->kind == DOM_ELEMENT)
        json_object_object_add(o, "tag", method_json_str(n->tag));
    json_object_object_add(o, "box", method_json_box(n->box));
    if (n->kind == DOM_TEXT) {
        size_t len = n->text_len < 80 ? n->text_len : 80;
        while (len < n->text_len && len > 0 && ((unsigned char)n->text[len] & 0xc0) == 0x80)
            len--;
        json_object_object_add(o, "text", json_object_new_string_len(n->text, (int)len));
    }
    return o;
}

static json_object *details(const method_page *pg, const void *state)
{
    const method_gce_state *s = state;
    const gce_result *g = &s->gce;
    const gce_params *pa = &s->params;
    dom_doc *doc = pg->dom;
    json_object *o = json_object_new_object();

    json_object *params = json_object_new_object();
    json_object_object_add(params, "grid_rows", json_object_new_int(pa->grid_rows));
    json_object_object_add(params, "grid_cols", json_object_new_int(pa->grid_cols));
    json_object_object_add(params, "alpha", json_object_new_double(pa->alpha));
    json_object_object_add(params, "beta", json_object_new_double(pa->beta));
    json_object_object_add(params, "dw", json_object_new_double(pa->dw));
    json_object_object_add(params, "diff_target",
                           json_object_new_string(pa->diff_target == GCE_DIFF_PARENT ? "parent" : "child"));
    json_object_object_add(params, "link_area_min_links", json_object_new_int(pa->link_area_min_links));
    json_object_object_add(params, "link_area_min_cells", json_object_new_double(pa->link_area_min_cells));
    json_object_object_add(params, "link_text_page_share", json_object_new_double(pa->link_text_page_share));
    json_object_object_add(o, "params", params);

    json_object_object_add(o, "fia", method_json_box(g->fia));
    json_object *grid = json_object_new_object();
    json_object_object_add(grid, "rows", json_object_new_int(g->rows));
    json_object_object_add(grid, "cols", json_object_new_int(g->cols));
    json_object_object_add(grid, "cell_w", json_object_new_double(g->cell_w));
    json_object_object_add(grid, "cell_h", json_object_new_double(g->cell_h));
    json_object_object_add(grid, "kept", json_object_new_int64((int64_t)g->n_kept));
    json_object *excluded = json_object_new_array();
    for (int r = 0; g->cells && r < g->rows; r++) {
        for (int c = 0; c < g->cols; c++) {
            unsigned char st = g->cells[(size_t)r * (size_t)g->cols + (size_t)c];
            if (st == GCE_CELL_KEPT)
                continue;
            json_object *cell = json_object_new_object();
            json_object_object_add(cell, "row", json_object_new_int(r));
            json_object_object_add(cell, "col", json_object_new_int(c));
            json_object_object_add(cell, "reason", json_object_new_string(st == GCE_CELL_EDGE ? "edge" : "link"));
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
    json_object_object_add(o, "failure", method_json_str(g->failure));
    return o;
}

const method_desc method_gce = {
    .name = "gce",
    .title = "GCE",
    .doc = "Grid, Centering, Expanding (paper 002) alone: the element where the eye lands",
    .json_key = "gce",
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .params_size = sizeof(gce_params),
    .state_size = sizeof(method_gce_state),
    .state_free = state_free,
    .run = run,
    .details = details,
};
