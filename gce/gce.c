/* gce/: Grid, Centering, Expanding (paper 002, section III) on the laid-out
 * tree. DESIGN.md "GCE" gives the reading of the paper used here; the
 * comments cite the step.
 */
#include "gce/gce.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/grow.h"

void gce_params_default(gce_params *p)
{
    memset(p, 0, sizeof *p);
    p->window_w = 1920;
    p->window_h = 1080;
    p->grid_rows = 7; /* the paper's best: 7x8 on 1920x1080, alpha 2 */
    p->grid_cols = 8;
    p->alpha = 2.0;
    p->beta = 0.5;
    p->dw = 1.7;
    p->diff_target = GCE_DIFF_CHILD;
    p->link_area_min_links = 3;
    p->link_area_min_cells = 0.25;
    p->link_text_page_share = 0.9;
}

/* Link containers ------------------------------------------------------ */

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]))
            return 0;
    return 1;
}

static int is_anchor(const dom_node *n)
{
    return dom_is_tag(n, "a") && dom_attr_get(n, "href") != NULL;
}

/* What a node's subtree shows on the page: its border box grown to hold the
 * boxes of its shown descendants. A container whose children float is, in
 * CSS as in a browser, only as tall as its padding (24 px around a whole
 * two-column page is common); its box area would make the floats inside it
 * look link-dense and text-dense beyond 1. Areas in GCE (A(e) in D_l and
 * D_t) and the "lower than h0/2" test use this extent. Subtrees that are
 * display:none or off the page show nothing. */
static dom_box subtree_extent(const dom_node *e)
{
    dom_box ext = e->box;
    const dom_node *n = e;
    while (n) {
        if (n != e && dom_node_left_out(n)) {
            n = dom_next_after(n, e);
            continue;
        }
        if (n != e && !n->hidden)
            ext = dom_box_union(ext, n->box);
        n = dom_next(n, e);
    }
    return ext;
}

/* The only element child of `n` when n has exactly one and no text of its
 * own; NULL otherwise. <body> and <html> never wrap a link (a page that is
 * one link is not a link container). */
static const dom_node *sole_child(const dom_node *n)
{
    if (n->kind != DOM_ELEMENT || dom_is_tag(n, "body") || dom_is_tag(n, "html"))
        return NULL;
    const dom_node *only = NULL;
    for (const dom_node *c = n->first_child; c; c = c->next) {
        if (c->kind == DOM_TEXT) {
            if (!is_blank(c->text, c->text_len))
                return NULL;
        } else if (only) {
            return NULL;
        } else {
            only = c;
        }
    }
    return only;
}

/* A link container: an <a href>, or an element wrapping one through a chain
 * of single children (DESIGN.md GCE step 3). */
static int is_link_container(const dom_node *n)
{
    while (n) {
        if (is_anchor(n))
            return 1;
        n = sole_child(n);
    }
    return 0;
}

double gce_link_area_density(const dom_node *e, int *n_links)
{
    double area = dom_box_area(subtree_extent(e)), links = 0;
    int count = 0;
    const dom_node *n = e;
    while (n) {
        if (n->kind == DOM_ELEMENT && is_link_container(n)) {
            /* The outer container counts; what is inside it does not. */
            if (dom_node_visible(n)) {
                links += dom_box_area(n->box);
                count++;
            }
            n = dom_next_after(n, e);
            continue;
        }
        n = dom_next(n, e);
    }
    if (n_links)
        *n_links = count;
    return area > 0 && count > 0 ? links / area : 0;
}

/* Per-document tables, indexed by dom_node.index. */
typedef struct gce_doc {
    const dom_doc *doc;
    size_t count;
    const dom_node **nodes; /* pre-order */
    unsigned char *visible; /* dom_node_visible, computed top down */
    double *link_area;      /* A_l(e) */
    int *links;             /* link containers under e */
    dom_box *desc;          /* union of what e's descendants show (subtree_extent) */
} gce_doc;

static dom_box extent(const gce_doc *g, const dom_node *e)
{
    return dom_box_union(e->box, g->desc[e->index]);
}

static void gce_doc_free(gce_doc *g)
{
    free(g->nodes);
    free(g->visible);
    free(g->link_area);
    free(g->links);
    free(g->desc);
}

/* Fills the tables in O(n): containers bottom up, "inside a container" and
 * visibility top down, then areas summed bottom up. */
static int gce_doc_init(gce_doc *g, const dom_doc *doc)
{
    memset(g, 0, sizeof *g);
    g->doc = doc;
    g->count = dom_doc_count(doc);
    size_t n = g->count ? g->count : 1;
    g->nodes = calloc(n, sizeof *g->nodes);
    g->visible = calloc(n, 1);
    g->link_area = calloc(n, sizeof *g->link_area);
    g->links = calloc(n, sizeof *g->links);
    g->desc = calloc(n, sizeof *g->desc);
    unsigned char *container = calloc(n, 1), *covered = calloc(n, 1), *dn = calloc(n, 1);
    if (!g->nodes || !g->visible || !g->link_area || !g->links || !g->desc || !container || !covered ||
        !dn) {
        free(container), free(covered), free(dn);
        gce_doc_free(g);
        return -1;
    }
    const dom_node *root = dom_doc_root(doc);
    for (const dom_node *x = root; x; x = dom_next(x, root))
        if (x->index < g->count)
            g->nodes[x->index] = x;
    for (size_t i = g->count; i-- > 0;) {
        const dom_node *x = g->nodes[i];
        if (!x || x->kind != DOM_ELEMENT)
            continue;
        if (is_anchor(x)) {
            container[i] = 1;
        } else {
            const dom_node *c = sole_child(x);
            container[i] = c && container[c->index];
        }
    }
    for (size_t i = 0; i < g->count; i++) {
        const dom_node *x = g->nodes[i];
        if (!x)
            continue;
        const dom_node *p = x->parent;
        if (p && x != root) {
            covered[i] = covered[p->index] || container[p->index];
            dn[i] = dn[p->index] || (p->hidden & DOM_HIDDEN_DISPLAY_NONE);
        }
        g->visible[i] = !x->hidden && !dn[i];
        if (container[i] && !covered[i] && g->visible[i]) {
            g->link_area[i] = dom_box_area(x->box);
            g->links[i] = 1;
        }
    }
    for (size_t i = g->count; i-- > 0;) {
        const dom_node *x = g->nodes[i];
        if (x && x->parent && x != root) {
            g->link_area[x->parent->index] += g->link_area[i];
            g->links[x->parent->index] += g->links[i];
            if (!dom_node_left_out(x)) {
                dom_box shown = dom_box_union(x->hidden ? (dom_box){0, 0, 0, 0} : x->box,
                                              g->desc[i]);
                g->desc[x->parent->index] = dom_box_union(g->desc[x->parent->index], shown);
            }
        }
    }
    free(container), free(covered), free(dn);
    return 0;
}

static double link_density(const gce_doc *g, const dom_node *e)
{
    double area = dom_box_area(extent(g, e));
    return area > 0 && g->links[e->index] > 0 ? g->link_area[e->index] / area : 0;
}

/* The page itself rather than a part of it (gce_params.link_text_page_share). */
static int page_wide(const gce_doc *g, const dom_node *e, double share)
{
    if (share > 1)
        return 0;
    double page = dom_doc_width(g->doc) * dom_doc_height(g->doc);
    return dom_is_tag(e, "html") || dom_is_tag(e, "body") ||
           (page > 0 && dom_box_area(extent(g, e)) >= share * page);
}

static unsigned char *mark_high_link(const gce_doc *g, double beta, double share)
{
    unsigned char *high = calloc(g->count ? g->count : 1, 1);
    if (!high)
        return NULL;
    for (size_t i = 0; i < g->count; i++) {
        const dom_node *x = g->nodes[i];
        if (!x)
            continue;
        int inherited = x->parent && x != dom_doc_root(g->doc) && high[x->parent->index];
        high[i] = inherited || (x->kind == DOM_ELEMENT && !page_wide(g, x, share) &&
                                link_density(g, x) > beta);
    }
    return high;
}

unsigned char *gce_mark_high_link(const dom_doc *doc, double beta, double page_share)
{
    gce_doc g;
    if (gce_doc_init(&g, doc) != 0)
        return NULL;
    unsigned char *high = mark_high_link(&g, beta, page_share);
    gce_doc_free(&g);
    return high;
}

/* Text ------------------------------------------------------------------ */

static double text_area(const dom_node *t)
{
    double a = 0;
    for (size_t i = 0; i < t->n_lines; i++)
        a += dom_box_area(t->lines[i]);
    if (t->n_lines == 0)
        a = dom_box_area(t->box);
    return a;
}

/* A text node GCE may start from or count: visible, not blank, and low link
 * density. */
static int low_link_text(const dom_node *t, const unsigned char *high)
{
    return t->kind == DOM_TEXT && !high[t->index] && dom_node_visible(t) &&
           !is_blank(t->text, t->text_len) && text_area(t) > 0;
}

/* D_t over a known area (the extent of e). */
static double text_density_in(const dom_node *e, double area, const unsigned char *high_link)
{
    double text = 0;
    if (area <= 0)
        return 0;
    for (const dom_node *n = e; n; n = dom_next(n, e))
        if (low_link_text(n, high_link))
            text += text_area(n);
    return text / area;
}

double gce_text_area_density(const dom_node *e, const unsigned char *high_link)
{
    return text_density_in(e, dom_box_area(subtree_extent(e)), high_link);
}

double gce_point_box_distance(gce_point p, dom_box b)
{
    double dx = p.x < b.x ? b.x - p.x : (p.x > b.x + b.w ? p.x - (b.x + b.w) : 0);
    double dy = p.y < b.y ? b.y - p.y : (p.y > b.y + b.h ? p.y - (b.y + b.h) : 0);
    return sqrt(dx * dx + dy * dy);
}

static double text_distance(gce_point p, const dom_node *t)
{
    if (t->n_lines == 0)
        return gce_point_box_distance(p, t->box);
    double best = INFINITY;
    for (size_t i = 0; i < t->n_lines; i++) {
        double d = gce_point_box_distance(p, t->lines[i]);
        if (d < best)
            best = d;
    }
    return best;
}

/* Steps 1-3: FIA, grid, excluded cells ------------------------------------ */

static int make_grid(const gce_doc *g, const gce_params *p, gce_result *r)
{
    double w0 = p->window_w, h0 = p->window_h, h1 = dom_doc_height(g->doc);
    /* Step 1: the FIA is S_w unless the page is taller than the window. */
    double fia_h = h1 > h0 ? fmin(p->alpha * h0, h1) : h0;
    r->fia = (dom_box){0, 0, w0, fia_h};
    /* Step 2: cells of the window; the FIA has as many rows as it needs. */
    r->cell_w = w0 / p->grid_cols;
    r->cell_h = h0 / p->grid_rows;
    r->cols = p->grid_cols;
    r->rows = (int)ceil(fia_h / r->cell_h - 1e-9);
    if (r->rows < 1)
        r->rows = 1;
    r->cells = calloc((size_t)r->rows * (size_t)r->cols, 1);
    if (!r->cells)
        return -1;
    /* Step 3a: the outer ring. */
    for (int y = 0; y < r->rows; y++)
        for (int x = 0; x < r->cols; x++)
            if (y == 0 || x == 0 || y == r->rows - 1 || x == r->cols - 1)
                r->cells[y * r->cols + x] = GCE_CELL_EDGE;
    /* Step 3b: cells overlapping a dense link area (DESIGN.md: a block of
     * some size holding several links, with D_l > beta). */
    double min_area = p->link_area_min_cells * r->cell_w * r->cell_h;
    for (size_t i = 0; i < g->count; i++) {
        const dom_node *e = g->nodes[i];
        if (!e || e->kind != DOM_ELEMENT || e->display != DOM_DISPLAY_BLOCK || !g->visible[i] ||
            dom_is_tag(e, "body") || dom_is_tag(e, "html") ||
            g->links[i] < p->link_area_min_links || dom_box_area(extent(g, e)) < min_area ||
            link_density(g, e) <= p->beta)
            continue;
        dom_box b = extent(g, e);
        if (!dom_box_intersects(b, r->fia))
            continue;
        int x0 = (int)floor(b.x / r->cell_w), x1 = (int)ceil((b.x + b.w) / r->cell_w) - 1;
        int y0 = (int)floor(b.y / r->cell_h), y1 = (int)ceil((b.y + b.h) / r->cell_h) - 1;
        x0 = x0 < 0 ? 0 : x0;
        y0 = y0 < 0 ? 0 : y0;
        x1 = x1 >= r->cols ? r->cols - 1 : x1;
        y1 = y1 >= r->rows ? r->rows - 1 : y1;
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++)
                if (r->cells[y * r->cols + x] == GCE_CELL_KEPT)
                    r->cells[y * r->cols + x] = GCE_CELL_LINK;
    }
    r->n_kept = 0;
    for (int i = 0; i < r->rows * r->cols; i++)
        r->n_kept += r->cells[i] == GCE_CELL_KEPT;
    return 0;
}

/* Step 4: centres and leaves -------------------------------------------- */

static void centres(const gce_params *p, const dom_doc *doc, gce_result *r)
{
    r->window_centre = (gce_point){p->window_w / 2.0, p->window_h / 2.0};
    r->document_centre = (gce_point){dom_doc_width(doc) / 2.0, dom_doc_height(doc) / 2.0};
    double sx = 0, sy = 0;
    for (int y = 0; y < r->rows; y++)
        for (int x = 0; x < r->cols; x++)
            if (r->cells[y * r->cols + x] == GCE_CELL_KEPT) {
                sx += (x + 0.5) * r->cell_w;
                sy += (y + 0.5) * r->cell_h;
            }
    double k = (double)r->n_kept;
    gce_point cw = r->window_centre, cd = r->document_centre;
    /* With every cell excluded V_a is empty; C1 is then the window centre. */
    r->centres[0] = k > 0 ? (gce_point){sx / k, sy / k} : cw;
    r->centres[1] = (gce_point){(sx + cw.x) / (k + 1), (sy + cw.y) / (k + 1)};
    r->centres[2] = (gce_point){(sx + cw.x + cd.x) / (k + 2), (sy + cw.y + cd.y) / (k + 2)};
}

static void nearest_leaves(const gce_doc *g, const unsigned char *high, gce_result *r)
{
    double best[3] = {INFINITY, INFINITY, INFINITY};
    for (size_t i = 0; i < g->count; i++) {
        const dom_node *t = g->nodes[i];
        if (!t || t->kind != DOM_TEXT || !low_link_text(t, high))
            continue;
        for (int c = 0; c < 3; c++) {
            double d = text_distance(r->centres[c], t);
            if (d < best[c]) { /* ties: the first in document order */
                best[c] = d;
                r->leaves[c] = t;
            }
        }
    }
}

/* Step 5: expanding ------------------------------------------------------ */

/* An attribute value holding "article" or "content", in any case. */
static int positive_attr(const dom_node *n)
{
    for (size_t i = 0; i < n->n_attrs; i++)
        if (dom_value_names_content(n->attrs[i].value, strlen(n->attrs[i].value)))
            return 1;
    return 0;
}

static int add_candidate(gce_result *r, size_t *cap, int walk, gce_rule rule,
                         const dom_node *node)
{
    if (base_grow(&r->candidates, cap, r->n_candidates + 1, sizeof *r->candidates))
        return -1;
    r->candidates[r->n_candidates++] = (gce_candidate){walk, rule, node, 0, 0};
    return 0;
}

/* Algorithm 1, with the step N <- P it forgets. The width rule compares N
 * and its parent only when N is a block: a text node or an inline element
 * is as narrow as its words, and its parent's "jump" says nothing. */
static int expand(const dom_doc *doc, const gce_params *p, int walk, const dom_node *leaf,
                  gce_result *r, size_t *cap)
{
    const dom_node *body = dom_doc_body(doc);
    int tag = 0, attr = 0, diff = 0;
    size_t first = r->n_candidates;
    for (const dom_node *n = leaf; n && n != body && n->parent; n = n->parent) {
        const dom_node *parent = n->parent;
        if (!tag && dom_is_tag(parent, "article")) {
            tag = 1;
            if (add_candidate(r, cap, walk, GCE_RULE_TAG, parent))
                return -1;
        }
        if (!attr && positive_attr(parent)) {
            attr = 1;
            if (add_candidate(r, cap, walk, GCE_RULE_ATTR, parent))
                return -1;
        }
        if (!diff && n->kind == DOM_ELEMENT && n->display == DOM_DISPLAY_BLOCK &&
            n->box.w > 0 && parent->box.w > p->dw * n->box.w) {
            diff = 1;
            const dom_node *m = p->diff_target == GCE_DIFF_PARENT ? parent : n;
            if (add_candidate(r, cap, walk, GCE_RULE_DIFF, m))
                return -1;
        }
        if (dom_is_tag(parent, "html"))
            break;
    }
    if (r->n_candidates == first && body &&
        add_candidate(r, cap, walk, GCE_RULE_NONE, body))
        return -1;
    return 0;
}

/* Step 6: choosing -------------------------------------------------------- */

static void choose(const gce_doc *g, const gce_params *p, const unsigned char *high,
                   gce_result *r)
{
    const dom_node *body = dom_doc_body(g->doc);
    for (size_t i = 0; i < r->n_candidates; i++) {
        gce_candidate *c = &r->candidates[i];
        /* The walks often reach the same node: measure it once. */
        size_t k = 0;
        while (k < i && r->candidates[k].node != c->node)
            k++;
        if (k < i) {
            c->density = r->candidates[k].density;
            c->best = r->candidates[k].best;
            continue;
        }
        dom_box ext = extent(g, c->node);
        c->density = text_density_in(c->node, dom_box_area(ext), high);
        c->best = c->node != body && !dom_is_tag(c->node, "html") && ext.h >= p->window_h / 2.0;
    }
    /* M3_best, M2_best, M1_best: the densest best candidate of the walk. */
    for (int walk = 2; walk >= 0 && !r->chosen; walk--) {
        const gce_candidate *pick = NULL;
        for (size_t i = 0; i < r->n_candidates; i++) {
            const gce_candidate *c = &r->candidates[i];
            if (c->walk == walk && c->best && (!pick || c->density > pick->density))
                pick = c;
        }
        if (pick) {
            r->chosen = pick->node;
            r->chosen_walk = walk;
            r->chosen_best = 1;
        }
    }
    /* M3_nobest, M2_nobest, M1_nobest: D_t is not defined for them, so the
     * first one the walk found (the nearest to its leaf) that is not <body>. */
    for (int walk = 2; walk >= 0 && !r->chosen; walk--) {
        for (size_t i = 0; i < r->n_candidates; i++) {
            const gce_candidate *c = &r->candidates[i];
            if (c->walk == walk && c->node != body && !dom_is_tag(c->node, "html")) {
                r->chosen = c->node;
                r->chosen_walk = walk;
                r->chosen_best = 0;
                break;
            }
        }
    }
}

int gce_run(const dom_doc *doc, const gce_params *params, gce_result *r)
{
    gce_params def;
    if (!params) {
        gce_params_default(&def);
        params = &def;
    }
    memset(r, 0, sizeof *r);
    r->chosen_walk = -1;
    gce_params p = *params;
    if (p.window_w < 1 || p.window_h < 1 || p.grid_rows < 1 || p.grid_cols < 1) {
        r->failure = "invalid window or grid size";
        return 1;
    }
    if (!dom_doc_root(doc) || !dom_doc_body(doc)) {
        r->failure = "the document has no <body>";
        return 1;
    }
    gce_doc g;
    if (gce_doc_init(&g, doc) != 0)
        return -1;
    unsigned char *high = mark_high_link(&g, p.beta, p.link_text_page_share);
    int rc = -1;
    size_t cap = 0;
    if (!high || make_grid(&g, &p, r) != 0)
        goto out;
    centres(&p, doc, r);
    nearest_leaves(&g, high, r);
    for (int walk = 0; walk < 3; walk++)
        if (r->leaves[walk] && expand(doc, &p, walk, r->leaves[walk], r, &cap) != 0)
            goto out;
    choose(&g, &p, high, r);
    if (r->chosen) {
        rc = 0;
    } else {
        rc = 1;
        if (!r->leaves[0] && !r->leaves[1] && !r->leaves[2])
            r->failure = "no visible low-link-density text on the page";
        else
            r->failure = "every candidate is <body>: no <article>, no article/content "
                         "attribute and no width jump on the way up from the leaves";
    }
out:
    free(high);
    gce_doc_free(&g);
    return rc;
}

void gce_result_free(gce_result *r)
{
    if (!r)
        return;
    free(r->cells);
    free(r->candidates);
    r->cells = NULL;
    r->candidates = NULL;
}
