/* lib/: another engine's boxes of a page (a browser's, written by
 * tools/chromium-boxes.mjs): read from JSON, put on glance's tree in place of
 * litehtml's, and compared with litehtml's (fidelity).
 *
 * Nodes are matched by XPath, numbered as dom/xpath.c numbers them. The
 * XPaths of a whole tree are made in one pre-order walk that keeps the path
 * of the current node's ancestors and, per level, how many siblings of each
 * tag came before: dom_node_xpath per node would walk the ancestors and
 * their siblings again for every node. */
#include "lib/geometry.h"

#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/result.h"

struct glance_geometry {
    json_object *root;  /* owns everything below */
    json_object *nodes; /* {xpath: box or lines} */
    int window_w, window_h;
    double doc_w, doc_h;
};

/* The XPath walk ------------------------------------------------------- */

typedef struct xp_count {
    const char *tag; /* NULL: text() */
    size_t n;
} xp_count;

typedef struct xp_level {
    xp_count *c;    /* siblings seen so far among the children of this level's parent */
    size_t n, cap;
    size_t len;     /* length of the path up to and with this level's node */
} xp_level;

/* Called with each node and its XPath (valid during the call); nonzero
 * stops the walk. */
typedef int (*xpath_fn)(void *ctx, dom_node *n, const char *xpath);

/* The 1-based position of `n` among the siblings of its kind and tag seen
 * so far at this level; 0 when out of memory. */
static size_t xp_bump(xp_level *lv, const dom_node *n)
{
    const char *tag = n->kind == DOM_TEXT ? NULL : n->tag;
    for (size_t i = 0; i < lv->n; i++) {
        const char *t = lv->c[i].tag;
        if (t == tag || (t && tag && strcmp(t, tag) == 0))
            return ++lv->c[i].n;
    }
    if (lv->n == lv->cap) {
        size_t cap = lv->cap ? lv->cap * 2 : 8;
        xp_count *c = realloc(lv->c, cap * sizeof *c);
        if (!c)
            return 0;
        lv->c = c;
        lv->cap = cap;
    }
    lv->c[lv->n++] = (xp_count){tag, 1};
    return 1;
}

/* Every node of `doc` in pre-order with its XPath. 0, 1 when `fn` stopped
 * the walk, -1 when out of memory. */
static int each_xpath(dom_doc *doc, xpath_fn fn, void *ctx)
{
    dom_node *root = dom_doc_root(doc);
    xp_level *lv = NULL;
    size_t nlv = 0;
    char *buf = NULL;
    size_t cap = 0;
    int rc = 0;
    for (dom_node *n = root; n && rc == 0; n = dom_next(n, root)) {
        size_t d = n == root ? 0 : n->depth;
        if (d + 2 > nlv) {
            size_t m = nlv ? nlv * 2 : 64;
            while (m < d + 2)
                m *= 2;
            xp_level *l = realloc(lv, m * sizeof *l);
            if (!l) {
                rc = -1;
                break;
            }
            memset(l + nlv, 0, (m - nlv) * sizeof *l);
            lv = l;
            nlv = m;
        }
        size_t pos = d == 0 ? 1 : xp_bump(&lv[d], n);
        if (pos == 0) {
            rc = -1;
            break;
        }
        const char *name = n->kind == DOM_TEXT ? "text()" : n->tag;
        size_t base = d ? lv[d - 1].len : 0;
        size_t need = base + strlen(name) + 32;
        if (need > cap) {
            size_t c2 = cap ? cap : 256;
            while (c2 < need)
                c2 *= 2;
            char *b = realloc(buf, c2);
            if (!b) {
                rc = -1;
                break;
            }
            buf = b;
            cap = c2;
        }
        int k = snprintf(buf + base, cap - base, "/%s[%zu]", name, pos);
        lv[d].len = base + (size_t)k;
        lv[d + 1].n = 0; /* n's children start counting afresh */
        rc = fn(ctx, n, buf);
    }
    for (size_t i = 0; i < nlv; i++)
        free(lv[i].c);
    free(lv);
    free(buf);
    return rc;
}

/* Reading -------------------------------------------------------------- */

static int num(json_object *o, double *out)
{
    if (!o || !(json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int)))
        return -1;
    double v = json_object_get_double(o);
    if (!isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* [x, y, w, h] with w, h >= 0; 0 or -1. */
static int read_box(json_object *a, dom_box *b)
{
    if (!a || !json_object_is_type(a, json_type_array) || json_object_array_length(a) != 4)
        return -1;
    double v[4];
    for (size_t i = 0; i < 4; i++)
        if (num(json_object_array_get_idx(a, i), &v[i]) != 0)
            return -1;
    if (v[2] < 0 || v[3] < 0)
        return -1;
    *b = (dom_box){v[0], v[1], v[2], v[3]};
    return 0;
}

static int read_size(json_object *o, const char *key, double *w, double *h)
{
    json_object *s, *jw, *jh;
    if (!json_object_object_get_ex(o, key, &s) || !json_object_object_get_ex(s, "w", &jw) ||
        !json_object_object_get_ex(s, "h", &jh) || num(jw, w) || num(jh, h) || *w <= 0 || *h <= 0)
        return -1;
    return 0;
}

glance_status glance_geometry_read(const char *json, size_t len, glance_geometry **out, char *why,
                                   size_t why_cap)
{
    *out = NULL;
    if (len > INT_MAX) {
        snprintf(why, why_cap, "boxes over 2 GiB");
        return GLANCE_EINPUT;
    }
    json_tokener *tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
    if (!tok) {
        snprintf(why, why_cap, "out of memory");
        return GLANCE_ENOMEM;
    }
    json_object *root = json_tokener_parse_ex(tok, json, (int)len);
    enum json_tokener_error err = json_tokener_get_error(tok);
    json_tokener_free(tok);
    if (!root || err != json_tokener_success) {
        snprintf(why, why_cap, "not JSON: %s", json_tokener_error_desc(err));
        json_object_put(root);
        return GLANCE_EINPUT;
    }
    glance_geometry *g = calloc(1, sizeof *g);
    if (!g) {
        json_object_put(root);
        snprintf(why, why_cap, "out of memory");
        return GLANCE_ENOMEM;
    }
    g->root = root;
    double w, h;
    if (!json_object_is_type(root, json_type_object) ||
        !json_object_object_get_ex(root, "nodes", &g->nodes) ||
        !json_object_is_type(g->nodes, json_type_object)) {
        snprintf(why, why_cap, "no \"nodes\" object: not the boxes of tools/chromium-boxes.mjs");
    } else if (read_size(root, "window", &w, &h) != 0 || w != floor(w) || h != floor(h) ||
               w > 16384 || h > 16384) {
        snprintf(why, why_cap, "no \"window\": {\"w\", \"h\"} in whole pixels");
    } else {
        g->window_w = (int)w;
        g->window_h = (int)h;
        if (read_size(root, "document", &g->doc_w, &g->doc_h) != 0) {
            g->doc_w = w;
            g->doc_h = h;
        }
        *out = g;
        return GLANCE_OK;
    }
    glance_geometry_free(g);
    return GLANCE_EINPUT;
}

glance_status glance_geometry_read_file(const char *path, glance_geometry **out, char *why,
                                        size_t why_cap)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_cap, "%s: cannot open", path);
        return GLANCE_EIO;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            snprintf(why, why_cap, "out of memory");
            return GLANCE_ENOMEM;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *b = realloc(buf, cap *= 2);
        if (!b)
            free(buf);
        buf = b;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        snprintf(why, why_cap, "%s: cannot read", path);
        return GLANCE_EIO;
    }
    char msg[256];
    glance_status st = glance_geometry_read(buf, n, out, msg, sizeof msg);
    free(buf);
    if (st != GLANCE_OK)
        snprintf(why, why_cap, "%s: %s", path, msg);
    return st;
}

void glance_geometry_free(glance_geometry *geo)
{
    if (!geo)
        return;
    json_object_put(geo->root);
    free(geo);
}

void glance_geometry_window(const glance_geometry *geo, int *w, int *h)
{
    *w = geo ? geo->window_w : 0;
    *h = geo ? geo->window_h : 0;
}

/* Applying ------------------------------------------------------------- */

typedef struct apply_ctx {
    dom_doc *doc;
    json_object *nodes;
    glance_geometry_stats *st;
    dom_box *lines;
    size_t cap;
} apply_ctx;

/* Zero-size and off-page bits from the box, as render/tree.cpp sets them. */
static void size_bits(dom_node *n)
{
    n->hidden &= ~(unsigned)(DOM_HIDDEN_ZERO_SIZE | DOM_HIDDEN_OFF_PAGE);
    if (n->box.w <= 0 || n->box.h <= 0)
        n->hidden |= DOM_HIDDEN_ZERO_SIZE;
    else if (n->box.x + n->box.w <= 0 || n->box.y + n->box.h <= 0)
        n->hidden |= DOM_HIDDEN_OFF_PAGE;
}

/* A text node's line boxes from [[x, y, w, h], ...]; -1 when out of memory. */
static int apply_lines(apply_ctx *a, dom_node *n, json_object *arr)
{
    size_t k = 0, len = json_object_array_length(arr);
    if (len > a->cap) {
        dom_box *l = realloc(a->lines, len * sizeof *l);
        if (!l)
            return -1;
        a->lines = l;
        a->cap = len;
    }
    for (size_t i = 0; i < len; i++) {
        dom_box b;
        if (read_box(json_object_array_get_idx(arr, i), &b) == 0 && b.w > 0 && b.h > 0)
            a->lines[k++] = b;
    }
    if (dom_set_lines(a->doc, n, a->lines, k) != 0)
        return -1;
    n->hidden &= ~(unsigned)(DOM_HIDDEN_ZERO_SIZE | DOM_HIDDEN_OFF_PAGE);
    if (k == 0)
        n->hidden |= DOM_HIDDEN_ZERO_SIZE;
    return 0;
}

static int apply_one(void *ctx, dom_node *n, const char *xpath)
{
    apply_ctx *a = ctx;
    json_object *v = NULL;
    int found = json_object_object_get_ex(a->nodes, xpath, &v);
    if (n->kind == DOM_TEXT) {
        if (found && (!v || json_object_is_type(v, json_type_array))) {
            a->st->matched++;
            if (v)
                return apply_lines(a, n, v);
            if (dom_set_lines(a->doc, n, NULL, 0) != 0)
                return -1;
            n->hidden |= DOM_HIDDEN_ZERO_SIZE;
            return 0;
        }
        /* Not in the boxes (glance's tree and the browser's parted here):
         * the text keeps a place, its parent's box as its one line, so that
         * what it says still counts where the parent is. */
        a->st->unmatched++;
        dom_box pb = n->parent ? n->parent->box : (dom_box){0, 0, 0, 0};
        int shown = n->parent && pb.w > 0 && pb.h > 0;
        if (dom_set_lines(a->doc, n, shown ? &pb : NULL, shown ? 1 : 0) != 0)
            return -1;
        n->hidden &= ~(unsigned)(DOM_HIDDEN_ZERO_SIZE | DOM_HIDDEN_OFF_PAGE);
        if (!shown)
            n->hidden |= DOM_HIDDEN_ZERO_SIZE;
        return 0;
    }
    dom_box b;
    if (found && !v) {
        /* Not rendered there: display:none, or inside such an element. */
        a->st->matched++;
        n->box = (dom_box){0, 0, 0, 0};
        n->hidden &= ~(unsigned)(DOM_HIDDEN_ZERO_SIZE | DOM_HIDDEN_OFF_PAGE);
        n->hidden |= DOM_HIDDEN_DISPLAY_NONE;
        return 0;
    }
    if (found && read_box(v, &b) == 0) {
        a->st->matched++;
        n->box = b;
        n->hidden &= ~(unsigned)DOM_HIDDEN_DISPLAY_NONE;
        /* Rendered there though litehtml's styles said none: a block is the
         * likelier guess for serialisation's line breaks. */
        if (n->display == DOM_DISPLAY_NONE)
            n->display = DOM_DISPLAY_BLOCK;
    } else {
        a->st->unmatched++;
        n->box = n->parent ? n->parent->box : (dom_box){0, 0, 0, 0};
    }
    size_bits(n);
    return 0;
}

int geometry_apply(dom_doc *doc, const glance_geometry *geo, glance_geometry_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    apply_ctx a = {.doc = doc, .nodes = geo->nodes, .st = stats};
    int rc = each_xpath(doc, apply_one, &a);
    free(a.lines);
    if (rc < 0)
        return -1;
    stats->applied = 1;
    size_t keys = (size_t)json_object_object_length(geo->nodes);
    stats->unused = keys > stats->matched ? keys - stats->matched : 0;
    dom_doc_set_size(doc, geo->doc_w, geo->doc_h);
    return 0;
}

glance_geometry_stats glance_result_geometry(const glance_result *res)
{
    glance_geometry_stats s = {0, 0, 0, 0};
    return res ? res->geometry : s;
}

/* Fidelity ------------------------------------------------------------- */

/* Characters other than white space (ASCII white space and U+00A0). */
static size_t text_chars(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) == 0x80 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f')
            continue;
        if (c == 0xC2 && i + 1 < len && (unsigned char)s[i + 1] == 0xA0)
            continue;
        n++;
    }
    return n;
}

typedef struct fid_ctx {
    dom_doc *doc;
    const glance_geometry *geo;
    const dom_node *body;
    const size_t *chars;
    size_t min_chars;
    const char *mark;
    double tol;
    glance_fidelity *out;
    size_t cap;
} fid_ctx;

static int shown_by_glance(const dom_node *n)
{
    for (const dom_node *a = n; a; a = a->parent)
        if (a->hidden & DOM_HIDDEN_DISPLAY_NONE)
            return 0;
    return 1;
}

static int fid_one(void *ctx, dom_node *n, const char *xpath)
{
    fid_ctx *f = ctx;
    if (n->kind != DOM_ELEMENT || n == f->body || !dom_is_ancestor(f->body, n))
        return 0;
    if (f->chars[n->index] < f->min_chars && !(f->mark && dom_attr_get(n, f->mark)))
        return 0;
    glance_fidelity *o = f->out;
    json_object *v = NULL;
    dom_box theirs;
    if (!json_object_object_get_ex(f->geo->nodes, xpath, &v)) {
        o->unmatched++;
        return 0;
    }
    if (!v || read_box(v, &theirs) != 0 || theirs.w <= 0) {
        o->not_shown++;
        return 0;
    }
    if (o->n_items == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 64;
        glance_fidelity_item *it = realloc(o->items, cap * sizeof *it);
        if (!it)
            return -1;
        o->items = it;
        f->cap = cap;
    }
    dom_box mine = shown_by_glance(n) ? n->box : (dom_box){0, 0, 0, 0};
    double slack = f->tol * f->geo->window_w;
    glance_fidelity_item *it = &o->items[o->n_items];
    it->xpath = dom_strndup(f->doc, xpath, strlen(xpath));
    if (!it->xpath)
        return -1;
    it->glance = (glance_box){mine.x, mine.y, mine.w, mine.h};
    it->other = (glance_box){theirs.x, theirs.y, theirs.w, theirs.h};
    it->chars = f->chars[n->index];
    it->agree = fabs(mine.x - theirs.x) <= slack && fabs(mine.w - theirs.w) <= slack;
    o->n_items++;
    o->compared++;
    o->agree += (size_t)it->agree;
    return 0;
}

glance_status glance_result_fidelity(glance_result *res, const glance_geometry *geo,
                                     size_t min_chars, const char *mark, double tolerance,
                                     glance_fidelity *out)
{
    memset(out, 0, sizeof *out);
    if (!res || !res->dom || !geo || res->geometry.applied || !isfinite(tolerance) ||
        tolerance < 0 || geo->window_w != res->window_w || geo->window_h != res->window_h)
        return GLANCE_EOPTION;
    /* A mark the tree may have lost (render.h): asked for with keep_attributes. */
    if (mark && !res->rstats.attrs_all_kept && render_attr_left_out(mark))
        return GLANCE_EOPTION;
    dom_doc *doc = res->dom;
    const dom_node *body = dom_doc_body(doc);
    if (!body)
        return GLANCE_OK;
    size_t count = dom_doc_count(doc);
    size_t *chars = calloc(count ? count : 1, sizeof *chars);
    dom_node **order = malloc((count ? count : 1) * sizeof *order);
    if (!chars || !order) {
        free(chars);
        free(order);
        return GLANCE_ENOMEM;
    }
    dom_node *root = dom_doc_root(doc);
    for (dom_node *n = root; n; n = dom_next(n, root)) {
        order[n->index] = n;
        if (n->kind == DOM_TEXT)
            chars[n->index] = text_chars(n->text, n->text_len);
    }
    /* Children come after their parent in pre-order: sum from the end. */
    for (size_t i = count; i-- > 1;)
        if (order[i]->parent)
            chars[order[i]->parent->index] += chars[i];
    fid_ctx f = {.doc = doc, .geo = geo, .body = body, .chars = chars, .min_chars = min_chars,
                 .mark = mark, .tol = tolerance, .out = out};
    int rc = each_xpath(doc, fid_one, &f);
    free(chars);
    free(order);
    if (rc < 0) {
        glance_fidelity_free(out);
        return GLANCE_ENOMEM;
    }
    return GLANCE_OK;
}

void glance_fidelity_free(glance_fidelity *f)
{
    if (!f)
        return;
    free(f->items);
    memset(f, 0, sizeof *f);
}
