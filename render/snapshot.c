/* render/: a browser's snapshot (DOMSnapshot.captureSnapshot) becomes the
 * dom tree every method reads, with the fields render/tree.cpp gives
 * litehtml's tree (snapshot.h says which and how).
 *
 * The snapshot is flat: per document, parallel arrays over the nodes
 * (parent index, type, name, value, attributes as pairs of indexes into a
 * table of strings) and over the layout objects (the node each belongs
 * to, its computed styles in the order they were asked for, its border
 * box in document coordinates), and the text boxes (one per line fragment
 * of a text's layout object). Nodes come in document order; shadow roots
 * and a frame's content document are linked, not nested. */
#include "render/snapshot.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/clock.h"
#include "base/grow.h"
#include "base/tags.h"

/* The computed styles the envelope's snapshots carry, in this order
 * (docs/snapshot.md; browser/ and examples/snapshot.mjs ask for them so). */
enum { ST_DISPLAY, ST_VISIBILITY, ST_POSITION, ST_FONT_SIZE, ST_FONT_WEIGHT, ST_WHITE_SPACE, ST_N };

/* Node types of the DOM. */
enum { N_ELEMENT = 1, N_TEXT = 3, N_CDATA = 4, N_COMMENT = 8, N_DOCUMENT = 9, N_FRAGMENT = 11 };

typedef struct snap {
    /* The string table. */
    const char **str;
    size_t *str_len;
    size_t n_str;
    char *why;
    size_t cap;
} snap;

/* One document of the snapshot, its arrays read out of json-c. */
typedef struct sdoc {
    size_t n;               /* nodes */
    int *parent, *type, *name, *value;
    json_object **attrs;    /* per node: the array of string indexes */
    int *layout;            /* per node: its layout object, -1 none */
    int *first_child, *next_sibling, *last_child;
    int *shadow;            /* per node: in a shadow tree, 1 the page's (open or closed),
                               2 the browser's own (shadowRootType) */
    int *content_doc;       /* per node: a frame's document index, -1 none */
    int *pseudo;            /* per node: 1 a pseudo-element */
    int *rendered;          /* per node: it or a node under it has a layout object */
    size_t n_layout;
    json_object *styles, *bounds;
    int *box_first, *box_next; /* per layout object: its text boxes, chained */
    json_object *tb_bounds;
    double origin_x, origin_y; /* where the document sits in the top one */
    const char *url;
} sdoc;

static int fail(snap *s, const char *msg)
{
    if (s->why && s->cap)
        snprintf(s->why, s->cap, "not a snapshot glance can read: %s", msg);
    return -1;
}

static json_object *get(json_object *o, const char *key, json_type t)
{
    json_object *v = NULL;
    if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, t))
        return NULL;
    return v;
}

/* An array of n integers out of `o` (NULL or not an array of n: -1). */
static int read_ints(snap *s, json_object *o, size_t n, int *out, int lo, int hi, const char *what)
{
    if (!o || !json_object_is_type(o, json_type_array) || json_object_array_length(o) != n)
        return fail(s, what);
    for (size_t i = 0; i < n; i++) {
        json_object *v = json_object_array_get_idx(o, i);
        if (!json_object_is_type(v, json_type_int))
            return fail(s, what);
        int64_t x = json_object_get_int64(v);
        if (x < lo || x > hi)
            return fail(s, what);
        out[i] = (int)x;
    }
    return 0;
}

/* A "rare" table, {"index": [...], "value": [...]}: value[k] for node
 * index[k]; written into out[node] (absent: left as it was). */
static int read_rare(snap *s, json_object *nodes, const char *key, size_t n, int *out, int with_value)
{
    json_object *r = get(nodes, key, json_type_object);
    if (!r)
        return 0;
    json_object *idx = get(r, "index", json_type_array);
    json_object *val = with_value ? get(r, "value", json_type_array) : NULL;
    if (!idx || (with_value && (!val || json_object_array_length(val) != json_object_array_length(idx))))
        return fail(s, key);
    for (size_t k = 0; k < json_object_array_length(idx); k++) {
        int64_t i = json_object_get_int64(json_object_array_get_idx(idx, k));
        if (i < 0 || (size_t)i >= n)
            return fail(s, key);
        out[i] = with_value ? (int)json_object_get_int64(json_object_array_get_idx(val, k)) : 1;
    }
    return 0;
}

static const char *string_at(const snap *s, int i, size_t *len)
{
    if (i < 0 || (size_t)i >= s->n_str) {
        if (len)
            *len = 0;
        return NULL;
    }
    if (len)
        *len = s->str_len[i];
    return s->str[i];
}

static void sdoc_free(sdoc *d)
{
    free(d->parent);
    free(d->type);
    free(d->name);
    free(d->value);
    free(d->attrs);
    free(d->layout);
    free(d->first_child);
    free(d->next_sibling);
    free(d->last_child);
    free(d->shadow);
    free(d->content_doc);
    free(d->pseudo);
    free(d->rendered);
    free(d->box_first);
    free(d->box_next);
    memset(d, 0, sizeof *d);
}

static int sdoc_read(snap *s, json_object *doc, sdoc *d)
{
    memset(d, 0, sizeof *d);
    json_object *nodes = get(doc, "nodes", json_type_object);
    json_object *layout = get(doc, "layout", json_type_object);
    json_object *tb = get(doc, "textBoxes", json_type_object);
    json_object *parents = get(nodes, "parentIndex", json_type_array);
    if (!nodes || !layout || !parents)
        return fail(s, "a document without nodes or layout");
    size_t n = json_object_array_length(parents);
    d->n = n;
    d->url = string_at(s, (int)json_object_get_int64(json_object_object_get(doc, "documentURL")), NULL);
    if (!(d->parent = malloc(n * sizeof(int) + 1)) || !(d->type = malloc(n * sizeof(int) + 1)) ||
        !(d->name = malloc(n * sizeof(int) + 1)) || !(d->value = malloc(n * sizeof(int) + 1)) ||
        !(d->attrs = calloc(n + 1, sizeof(json_object *))) ||
        !(d->layout = malloc(n * sizeof(int) + 1)) || !(d->first_child = malloc(n * sizeof(int) + 1)) ||
        !(d->next_sibling = malloc(n * sizeof(int) + 1)) ||
        !(d->last_child = malloc(n * sizeof(int) + 1)) || !(d->shadow = calloc(n + 1, sizeof(int))) ||
        !(d->content_doc = malloc(n * sizeof(int) + 1)) || !(d->pseudo = calloc(n + 1, sizeof(int))) ||
        !(d->rendered = calloc(n + 1, sizeof(int))))
        return -2;
    int ns = (int)s->n_str;
    if (read_ints(s, parents, n, d->parent, -1, (int)n - 1, "parentIndex") ||
        read_ints(s, get(nodes, "nodeType", json_type_array), n, d->type, 0, 64, "nodeType") ||
        read_ints(s, get(nodes, "nodeName", json_type_array), n, d->name, -1, ns - 1, "nodeName") ||
        read_ints(s, get(nodes, "nodeValue", json_type_array), n, d->value, -1, ns - 1, "nodeValue"))
        return -1;
    json_object *attrs = get(nodes, "attributes", json_type_array);
    if (attrs && json_object_array_length(attrs) != n)
        return fail(s, "attributes");
    for (size_t i = 0; i < n; i++) {
        /* Parents come before their children: the walk relies on it. */
        if (d->parent[i] >= (int)i)
            return fail(s, "a node before its parent");
        d->layout[i] = d->first_child[i] = d->next_sibling[i] = d->last_child[i] = -1;
        d->content_doc[i] = -1;
        if (attrs) {
            json_object *a = json_object_array_get_idx(attrs, i);
            if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) % 2)
                return fail(s, "attributes");
            d->attrs[i] = a;
        }
    }
    int *shadow_kind = malloc(n * sizeof(int) + 1);
    if (!shadow_kind)
        return -2;
    for (size_t i = 0; i < n; i++)
        shadow_kind[i] = -1;
    if (read_rare(s, nodes, "shadowRootType", n, shadow_kind, 1) ||
        read_rare(s, nodes, "contentDocumentIndex", n, d->content_doc, 1) ||
        read_rare(s, nodes, "pseudoType", n, d->pseudo, 0)) {
        free(shadow_kind);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (shadow_kind[i] >= 0) {
            const char *k = string_at(s, shadow_kind[i], NULL);
            d->shadow[i] = k && strcmp(k, "user-agent") == 0 ? 2 : 1;
        }
        if (d->pseudo[i])
            d->pseudo[i] = 1;
    }
    free(shadow_kind);
    /* Children in order: nodes come in document order. */
    for (size_t i = 0; i < n; i++) {
        int p = d->parent[i];
        if (p < 0)
            continue;
        if (d->last_child[p] < 0)
            d->first_child[p] = (int)i;
        else
            d->next_sibling[d->last_child[p]] = (int)i;
        d->last_child[p] = (int)i;
    }

    json_object *lnode = get(layout, "nodeIndex", json_type_array);
    d->styles = get(layout, "styles", json_type_array);
    d->bounds = get(layout, "bounds", json_type_array);
    if (!lnode || !d->styles || !d->bounds)
        return fail(s, "layout without nodeIndex, styles or bounds");
    size_t nl = json_object_array_length(lnode);
    d->n_layout = nl;
    if (json_object_array_length(d->styles) != nl || json_object_array_length(d->bounds) != nl)
        return fail(s, "layout arrays of different lengths");
    if (!(d->box_first = malloc(nl * sizeof(int) + 1)))
        return -2;
    for (size_t l = 0; l < nl; l++) {
        int64_t i = json_object_get_int64(json_object_array_get_idx(lnode, l));
        if (i < 0 || (size_t)i >= n)
            return fail(s, "layout nodeIndex");
        /* A node's first layout object is its own (a continuation follows). */
        if (d->layout[i] < 0)
            d->layout[i] = (int)l;
        d->box_first[l] = -1;
    }
    /* Rendered: the node or one under it has a layout object. Children
     * come after their parents, so one pass backwards carries it up. */
    for (size_t i = n; i-- > 0;) {
        if (d->layout[i] >= 0)
            d->rendered[i] = 1;
        if (d->rendered[i] && d->parent[i] >= 0)
            d->rendered[d->parent[i]] = 1;
    }
    if (tb) {
        json_object *tl = get(tb, "layoutIndex", json_type_array);
        d->tb_bounds = get(tb, "bounds", json_type_array);
        if (!tl || !d->tb_bounds || json_object_array_length(tl) != json_object_array_length(d->tb_bounds))
            return fail(s, "textBoxes");
        size_t nt = json_object_array_length(tl);
        if (!(d->box_next = malloc(nt * sizeof(int) + 1)))
            return -2;
        /* Chained in reverse so that each list reads in order. */
        for (size_t k = nt; k-- > 0;) {
            int64_t l = json_object_get_int64(json_object_array_get_idx(tl, k));
            if (l < 0 || (size_t)l >= nl)
                return fail(s, "textBoxes layoutIndex");
            d->box_next[k] = d->box_first[l];
            d->box_first[l] = (int)k;
        }
    }
    return 0;
}

static int read_box(json_object *b, dom_box *out)
{
    if (!b || !json_object_is_type(b, json_type_array) || json_object_array_length(b) < 4)
        return -1;
    double v[4];
    for (int k = 0; k < 4; k++) {
        v[k] = json_object_get_double(json_object_array_get_idx(b, k));
        if (!isfinite(v[k]))
            return -1;
    }
    *out = (dom_box){v[0], v[1], v[2], v[3]};
    return 0;
}

/* The building walk ------------------------------------------------------ */

typedef struct builder {
    snap *s;
    dom_doc *doc;
    sdoc *docs;
    size_t n_docs;
    const render_opts *o;
    size_t elements, words;
    int depth_over;
    int root_hidden; /* the root or the body is visibility: hidden */
    int oom;
    int bad;
    char *origin; /* scheme://host[:port] of the top document */
} builder;

static const char *style_of(const builder *b, const sdoc *d, int l, int which, size_t *len)
{
    json_object *st = json_object_array_get_idx(d->styles, (size_t)l);
    if (!st || !json_object_is_type(st, json_type_array) || (size_t)which >= json_object_array_length(st)) {
        *len = 0;
        return NULL;
    }
    return string_at(b->s, (int)json_object_get_int64(json_object_array_get_idx(st, (size_t)which)), len);
}

static int style_is(const char *v, size_t n, const char *want)
{
    return v && n == strlen(want) && memcmp(v, want, n) == 0;
}

static dom_display display_of(const char *v, size_t n)
{
    if (!v || style_is(v, n, "none"))
        return DOM_DISPLAY_NONE;
    if (style_is(v, n, "inline") || (n > 7 && memcmp(v, "inline-", 7) == 0) || style_is(v, n, "ruby") ||
        style_is(v, n, "contents"))
        return DOM_DISPLAY_INLINE;
    return DOM_DISPLAY_BLOCK;
}

/* scheme://authority of a URL, malloc'd; NULL when it has none. */
static char *origin_of(const char *url)
{
    if (!url)
        return NULL;
    const char *p = strstr(url, "://");
    if (!p)
        return NULL;
    p += 3;
    while (*p && *p != '/' && *p != '?' && *p != '#')
        p++;
    return strndup(url, (size_t)(p - url));
}

static int same_origin(const builder *b, const char *url)
{
    char *o = origin_of(url);
    int same = o && b->origin && strcasecmp(o, b->origin) == 0;
    free(o);
    return same;
}

static int valid_tag_name(const char *t, size_t n)
{
    if (!t || !n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = t[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
              c == ':'))
            return 0;
    }
    return 1;
}

/* A run of text siblings (comments between them do not split it, as in
 * litehtml's tree) becoming one dom text node. */
typedef struct text_run {
    char *text;
    size_t len, cap;
    dom_box *lines;
    size_t n_lines, cap_lines;
    int any;
    int shown; /* some part has a layout object */
} text_run;

static int run_add_text(text_run *r, const char *t, size_t n)
{
    if (base_grow(&r->text, &r->cap, r->len + n + 1, 1) != 0)
        return -1;
    memcpy(r->text + r->len, t, n);
    r->len += n;
    r->text[r->len] = '\0';
    r->any = 1;
    return 0;
}

static int run_add_line(text_run *r, dom_box b)
{
    if (b.w <= 0 || b.h <= 0)
        return 0;
    if (r->n_lines) {
        dom_box *last = &r->lines[r->n_lines - 1];
        /* Same line: vertical ranges overlap by more than half (tree.cpp). */
        double top = fmax(last->y, b.y), bottom = fmin(last->y + last->h, b.y + b.h);
        if (bottom - top > 0.5 * fmin(last->h, b.h)) {
            *last = dom_box_union(*last, b);
            return 0;
        }
    }
    if (base_grow(&r->lines, &r->cap_lines, r->n_lines + 1, sizeof *r->lines) != 0)
        return -1;
    r->lines[r->n_lines++] = b;
    return 0;
}

static void run_reset(text_run *r)
{
    r->len = 0;
    r->n_lines = 0;
    r->any = 0;
    r->shown = 0;
    if (r->text)
        r->text[0] = '\0';
}

/* Words of a text, for max_words: runs between white space. */
static size_t count_words(const char *t, size_t n)
{
    size_t w = 0;
    int in = 0;
    for (size_t i = 0; i < n; i++) {
        int sp = base_html_space(t[i]);
        if (!sp && !in)
            w++;
        in = !sp;
    }
    return w;
}

static void flush(builder *b, text_run *r, dom_node *parent)
{
    if (!r->any || b->oom)
        return;
    char *t = r->text;
    size_t n = r->len;
    size_t k = 0;
    if (!parent->preformatted) {
        /* Collapsed as the browser shows it (tree.cpp does the same). */
        int space = 0;
        for (size_t i = 0; i < n; i++) {
            if (base_html_space(t[i])) {
                space = 1;
                continue;
            }
            if (space)
                t[k++] = ' ';
            space = 0;
            t[k++] = t[i];
        }
        if (space)
            t[k++] = ' ';
        n = k;
    }
    b->words += count_words(t, n);
    dom_node *node = dom_text_new(b->doc, t, n);
    if (!node || dom_set_lines(b->doc, node, r->lines, r->n_lines) != 0) {
        b->oom = 1;
        run_reset(r);
        return;
    }
    node->preformatted = parent->preformatted;
    node->font_size = parent->font_size;
    node->font_weight = parent->font_weight;
    if (!r->n_lines && !base_html_blank(t, n))
        node->hidden |= DOM_HIDDEN_ZERO_SIZE;
    node->hidden |= parent->hidden & DOM_HIDDEN_VISIBILITY;
    node->in_link = parent->in_link;
    node->in_fixed = parent->in_fixed;
    dom_append(parent, node);
    run_reset(r);
}

/* The text boxes of node i's layout objects, as its line boxes. */
static int add_text_node(builder *b, const sdoc *d, int i, text_run *r)
{
    size_t n;
    const char *t = string_at(b->s, d->value[i], &n);
    if (t && run_add_text(r, t, n) != 0)
        return -1;
    r->any = 1;
    int l = d->layout[i];
    if (l < 0)
        return 0;
    r->shown = 1;
    for (int k = d->box_first[l]; k >= 0; k = d->box_next[k]) {
        dom_box bx;
        if (read_box(json_object_array_get_idx(d->tb_bounds, (size_t)k), &bx) != 0)
            continue;
        bx.x += d->origin_x;
        bx.y += d->origin_y;
        if (run_add_line(r, bx) != 0)
            return -1;
    }
    return 0;
}

static dom_node *make_element(builder *b, const sdoc *d, int i, dom_node *parent)
{
    size_t nlen;
    const char *name = string_at(b->s, d->name[i], &nlen);
    char tag[64];
    if (!name || !valid_tag_name(name, nlen) || nlen >= sizeof tag)
        return NULL; /* not a node: its children are its parent's */
    for (size_t k = 0; k < nlen; k++)
        tag[k] = (name[k] >= 'A' && name[k] <= 'Z') ? (char)(name[k] + 32) : name[k];
    tag[nlen] = '\0';
    dom_node *n = dom_element_new(b->doc, tag);
    if (!n) {
        b->oom = 1;
        return NULL;
    }
    b->elements++;
    json_object *a = d->attrs[i];
    size_t na = a ? json_object_array_length(a) : 0;
    if (na / 2 > RENDER_MAX_ATTRS)
        na = 2 * RENDER_MAX_ATTRS;
    for (size_t k = 0; k + 1 < na; k += 2) {
        const char *an = string_at(b->s, (int)json_object_get_int64(json_object_array_get_idx(a, k)), NULL);
        const char *av = string_at(b->s, (int)json_object_get_int64(json_object_array_get_idx(a, k + 1)), NULL);
        if (!an)
            continue;
        char lname[128];
        size_t ln = strlen(an);
        if (ln >= sizeof lname)
            continue;
        for (size_t c = 0; c <= ln; c++)
            lname[c] = (an[c] >= 'A' && an[c] <= 'Z') ? (char)(an[c] + 32) : an[c];
        if (dom_set_attr(b->doc, n, lname, av ? av : "") != 0)
            b->oom = 1;
    }
    int l = d->layout[i];
    if (parent) {
        n->font_size = parent->font_size;
        n->font_weight = parent->font_weight;
        n->preformatted = parent->preformatted;
        n->in_fixed = parent->in_fixed;
        n->hidden |= parent->hidden & DOM_HIDDEN_VISIBILITY;
    }
    if (l >= 0) {
        size_t vn;
        const char *v = style_of(b, d, l, ST_DISPLAY, &vn);
        n->display = display_of(v, vn);
        if (n->display == DOM_DISPLAY_NONE)
            n->display = DOM_DISPLAY_BLOCK; /* it has a box all the same */
        /* A <noscript> the browser shows (scripts off) is content, as
         * render/noscript.c marks the ones litehtml shows. */
        if (dom_is_tag(n, "noscript"))
            n->display = DOM_DISPLAY_BLOCK;
        v = style_of(b, d, l, ST_VISIBILITY, &vn);
        n->hidden &= ~(unsigned)DOM_HIDDEN_VISIBILITY;
        if (v && !style_is(v, vn, "visible")) {
            /* A page that hides its root or body until a script shows it
             * (anti-flicker snippets) is shown, as litehtml's tree shows
             * it (render/tree.cpp): the root, the body and what inherits
             * their visibility. */
            if (!parent || dom_is_tag(n, "body"))
                b->root_hidden = 1;
            else if (!b->root_hidden)
                n->hidden |= DOM_HIDDEN_VISIBILITY;
        }
        v = style_of(b, d, l, ST_POSITION, &vn);
        if (style_is(v, vn, "fixed"))
            n->in_fixed = 1;
        v = style_of(b, d, l, ST_FONT_SIZE, &vn);
        if (v) {
            double fs = atof(v);
            if (isfinite(fs) && fs > 0 && fs < 1e5)
                n->font_size = (float)fs;
        }
        v = style_of(b, d, l, ST_FONT_WEIGHT, &vn);
        if (v) {
            int w = atoi(v);
            if (w >= 1 && w <= 1000)
                n->font_weight = (short)w;
        }
        v = style_of(b, d, l, ST_WHITE_SPACE, &vn);
        if (v)
            n->preformatted = style_is(v, vn, "pre") || style_is(v, vn, "pre-wrap") ||
                              style_is(v, vn, "pre-line") || style_is(v, vn, "break-spaces");
        dom_box bx;
        if (read_box(json_object_array_get_idx(d->bounds, (size_t)l), &bx) == 0) {
            bx.x += d->origin_x;
            bx.y += d->origin_y;
            n->box = bx;
        }
        if (n->box.w <= 0 || n->box.h <= 0)
            n->hidden |= DOM_HIDDEN_ZERO_SIZE;
        else if (n->box.x + n->box.w <= 0 || n->box.y + n->box.h <= 0)
            n->hidden |= DOM_HIDDEN_OFF_PAGE;
    } else if (d->rendered[i]) {
        /* display: contents (a <slot>, a wrapper of the page's): no box of
         * its own, its children shown; its box is theirs, filled after. */
        n->display = DOM_DISPLAY_INLINE;
    } else {
        n->display = DOM_DISPLAY_NONE;
        n->hidden |= DOM_HIDDEN_DISPLAY_NONE;
    }
    if (!b->oom && l < 0 && d->rendered[i])
        n->hidden |= DOM_HIDDEN_ZERO_SIZE; /* until a child's box is added */
    n->in_link = (parent && parent->in_link) || (dom_is_tag(n, "a") && dom_attr_get(n, "href"));
    if (parent)
        dom_append(parent, n);
    return n;
}

/* The tree as the browser shows it. DOMSnapshot gives it flattened: a
 * shadow host's children are its shadow tree's nodes (no shadow root node
 * comes between), and each <slot> holds the host's children assigned to
 * it (its own when none is). The browser's own shadow trees (an
 * <input>'s, a <details>'s) are walked through, their text and elements
 * left out, the page's nodes in their slots kept. A frame's children are
 * its content document's <body>'s when it is of the top document's
 * origin. */
typedef struct frame {
    const sdoc *d;
    int node;      /* whose children these are */
    int next;      /* the next child to visit (-1: done) */
    dom_node *dn;  /* where they go */
    text_run run;
    dom_node *contents; /* an element of display: contents whose box is its children's */
    int no_text;   /* a script's or a style's text: not kept, as litehtml keeps none
                      (a JSON-LD script's is: meta/ reads it); or the browser's own */
} frame;

#define MAX_FRAMES_DOCS 64

static int build(builder *b, const sdoc *top, int html, dom_node **root)
{
    size_t cap = 0, n = 0;
    frame *st = NULL;
    if (base_grow(&st, &cap, 1, sizeof *st) != 0)
        return -2;
    dom_node *r = make_element(b, top, html, NULL);
    if (!r) {
        free(st);
        return b->oom ? -2 : fail(b->s, "the root is no element");
    }
    *root = r;
    st[n++] = (frame){.d = top, .node = html, .next = top->first_child[html], .dn = r};
    int ret = 0;
    double deadline = b->o ? b->o->deadline_ms : 0;
    size_t steps = 0;
    while (n && !b->oom) {
        frame *f = &st[n - 1];
        if (f->next < 0) {
            flush(b, &f->run, f->dn);
            free(f->run.text);
            free(f->run.lines);
            if (f->contents) {
                /* Its box is its children's. */
                dom_box u = {0, 0, 0, 0};
                for (dom_node *c = f->contents->first_child; c; c = c->next)
                    if (!(c->hidden & DOM_HIDDEN_DISPLAY_NONE))
                        u = dom_box_union(u, c->box);
                f->contents->box = u;
                if (u.w > 0 && u.h > 0)
                    f->contents->hidden &= ~(unsigned)DOM_HIDDEN_ZERO_SIZE;
            }
            n--;
            continue;
        }
        if (++steps % 4096 == 0 && deadline > 0 && base_now_ms() > deadline) {
            ret = -3;
            break;
        }
        const sdoc *d = f->d;
        int c = f->next;
        f->next = d->next_sibling[c];
        if (d->pseudo[c] || d->type[c] == N_COMMENT || d->type[c] == N_FRAGMENT)
            continue; /* comments do not split text */
        /* The browser's own shadow tree: its elements walked through, its
         * text (a placeholder, a button's label) left out. */
        int ua = d->shadow[c] == 2;
        if (d->type[c] == N_TEXT || d->type[c] == N_CDATA) {
            if (f->no_text || ua)
                continue;
            if (add_text_node(b, d, c, &f->run) != 0)
                b->oom = 1;
            continue;
        }
        if (d->type[c] != N_ELEMENT)
            continue;
        flush(b, &f->run, f->dn);
        if (b->o && b->o->max_elements && b->elements >= b->o->max_elements) {
            ret = -4;
            break;
        }
        if (b->o && b->o->max_words && b->words > b->o->max_words) {
            ret = -5;
            break;
        }
        if (b->o && b->o->max_depth > 0 && n >= (size_t)b->o->max_depth) {
            b->depth_over = 1;
            ret = -6;
            break;
        }
        dom_node *e = ua ? NULL : make_element(b, d, c, f->dn);
        if (b->oom)
            break;
        if (base_grow(&st, &cap, n + 1, sizeof *st) != 0) {
            b->oom = 1;
            break;
        }
        f = &st[n - 1];
        frame nf = {.d = d, .node = c, .next = d->first_child[c], .dn = e ? e : f->dn};
        if (e && d->layout[c] < 0 && d->rendered[c])
            nf.contents = e;
        if (e && (dom_is_tag(e, "style") ||
                  (dom_is_tag(e, "script") &&
                   !(dom_attr_get(e, "type") && strstr(dom_attr_get(e, "type"), "ld+json")))))
            nf.no_text = 1;
        if (e && d->content_doc[c] >= 0 && (size_t)d->content_doc[c] < b->n_docs) {
            const sdoc *cd = &b->docs[d->content_doc[c]];
            if (cd != d && same_origin(b, cd->url)) {
                /* The frame's <body>. */
                int body = -1;
                for (int k = 0; k < (int)cd->n && body < 0; k++) {
                    size_t bl;
                    const char *bn = string_at(b->s, cd->name[k], &bl);
                    if (cd->type[k] == N_ELEMENT && bn && bl == 4 && strncasecmp(bn, "body", 4) == 0)
                        body = k;
                }
                if (body >= 0) {
                    nf.d = cd;
                    nf.node = body;
                    nf.next = cd->first_child[body];
                }
            }
        }
        st[n++] = nf;
    }
    for (size_t k = 0; k < n; k++) {
        free(st[k].run.text);
        free(st[k].run.lines);
    }
    free(st);
    if (b->oom)
        return -2;
    return ret;
}

/* A page that holds its content back until a script shows it: the article
 * under an element that is visibility: hidden until a class is taken off,
 * or until its custom elements are defined (a :not(:defined) rule). When
 * the page's scripts do not come (a saved page, a refused host) or do not
 * run, it stays so, and the reader is shown a header and a footer. The
 * root and the body are read as shown already (make_element); here, when
 * the text that only visibility hides outweighs the text shown
 * RENDER_HELD_BACK to one, visibility is not read at all: the page is read
 * as its script would have shown it (litehtml, which knows no :defined,
 * shows most such pages so too). A menu or a dialog a page keeps hidden
 * holds far less than the page shows. */
#define RENDER_HELD_BACK 3

static void show_held_back(dom_node *top)
{
    size_t shown = 0, held = 0;
    for (dom_node *x = top; x;) {
        if (x->kind == DOM_ELEMENT && (x->hidden & DOM_HIDDEN_DISPLAY_NONE)) {
            x = dom_next_after(x, top);
            continue;
        }
        if (x->kind == DOM_TEXT) {
            if (!x->hidden)
                shown += base_html_text_chars(x->text, x->text_len);
            else if (x->hidden == DOM_HIDDEN_VISIBILITY)
                held += base_html_text_chars(x->text, x->text_len);
        }
        x = dom_next(x, top);
    }
    if (held <= RENDER_HELD_BACK * shown)
        return;
    for (dom_node *x = top; x; x = dom_next(x, top))
        x->hidden &= ~(unsigned)DOM_HIDDEN_VISIBILITY;
}

render_status render_snapshot_dom(const char *json, size_t len, const render_opts *o,
                                  dom_doc **out, render_snapshot_info *info, char *why, size_t cap)
{
    *out = NULL;
    memset(info, 0, sizeof *info);
    info->scripts = -1;
    if (why && cap)
        why[0] = '\0';
    snap s = {.why = why, .cap = cap};
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return RENDER_ENOMEM;
    json_object *root = json_tokener_parse_ex(tok, json, (int)(len > 0x7fffffff ? 0x7fffffff : len));
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    json_tokener_free(tok);
    if (!root || jerr != json_tokener_success || len > 0x7fffffff) {
        json_object_put(root);
        if (why && cap)
            snprintf(why, cap, "not a snapshot glance can read: not JSON (%s)",
                     len > 0x7fffffff ? "over 2 GB" : json_tokener_error_desc(jerr));
        return RENDER_EPARSE;
    }
    render_status rs = RENDER_EPARSE;
    sdoc *docs = NULL;
    size_t n_docs = 0;
    builder b = {0};
    json_object *snapo = root;
    info->window_w = o ? o->window_w : 0;
    info->window_h = o ? o->window_h : 0;
    json_object *ver = get(root, "glance_snapshot", json_type_int);
    if (ver) {
        if (json_object_get_int64(ver) != RENDER_SNAPSHOT_VERSION) {
            if (why && cap)
                snprintf(why, cap, "not a snapshot glance can read: glance_snapshot %lld (this build reads %d)",
                         (long long)json_object_get_int64(ver), RENDER_SNAPSHOT_VERSION);
            goto done;
        }
        snapo = get(root, "snapshot", json_type_object);
        json_object *u = get(root, "url", json_type_string);
        if (u && !(info->url = strdup(json_object_get_string(u)))) {
            rs = RENDER_ENOMEM;
            goto done;
        }
        json_object *w = get(root, "window", json_type_object);
        json_object *ww = get(w, "width", json_type_int), *wh = get(w, "height", json_type_int);
        if (ww && wh) {
            int64_t x = json_object_get_int64(ww), y = json_object_get_int64(wh);
            if (x < 1 || x > 100000 || y < 1 || y > 100000) {
                fail(&s, "a window out of range");
                goto done;
            }
            info->window_w = (int)x;
            info->window_h = (int)y;
        }
        json_object *sc = get(root, "scripts", json_type_boolean);
        if (sc)
            info->scripts = json_object_get_boolean(sc);
        json_object *mo = get(root, "mobile", json_type_boolean);
        if (mo)
            info->mobile = json_object_get_boolean(mo);
    } else if (get(root, "glance_snapshot", json_type_null) == NULL &&
               json_object_object_get_ex(root, "glance_snapshot", NULL)) {
        fail(&s, "glance_snapshot is no number");
        goto done;
    }
    json_object *documents = get(snapo, "documents", json_type_array);
    json_object *strings = get(snapo, "strings", json_type_array);
    if (!documents || !strings || json_object_array_length(documents) == 0) {
        fail(&s, ver ? "its snapshot has no documents or strings"
                     : "no \"glance_snapshot\" envelope, nor documents and strings");
        goto done;
    }
    s.n_str = json_object_array_length(strings);
    s.str = malloc(s.n_str * sizeof *s.str + 1);
    s.str_len = malloc(s.n_str * sizeof *s.str_len + 1);
    if (!s.str || !s.str_len) {
        rs = RENDER_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < s.n_str; i++) {
        json_object *v = json_object_array_get_idx(strings, i);
        if (!json_object_is_type(v, json_type_string)) {
            fail(&s, "a string that is not one");
            goto done;
        }
        s.str[i] = json_object_get_string(v);
        s.str_len[i] = (size_t)json_object_get_string_len(v);
    }
    n_docs = json_object_array_length(documents);
    if (n_docs > MAX_FRAMES_DOCS)
        n_docs = MAX_FRAMES_DOCS; /* frames past it are not read */
    docs = calloc(n_docs, sizeof *docs);
    if (!docs) {
        rs = RENDER_ENOMEM;
        goto done;
    }
    for (size_t k = 0; k < n_docs; k++) {
        int r = sdoc_read(&s, json_object_array_get_idx(documents, k), &docs[k]);
        if (r == -2) {
            rs = RENDER_ENOMEM;
            goto done;
        }
        if (r != 0)
            goto done;
    }
    /* A frame's document sits where its frame's content box is: its boxes
     * are its own viewport's. */
    for (size_t k = 0; k < n_docs; k++) {
        sdoc *d = &docs[k];
        for (size_t i = 0; i < d->n; i++) {
            int cd = d->content_doc[i];
            if (cd > 0 && (size_t)cd < n_docs && cd != (int)k && d->layout[i] >= 0) {
                dom_box fb;
                if (read_box(json_object_array_get_idx(d->bounds, (size_t)d->layout[i]), &fb) == 0) {
                    docs[cd].origin_x = d->origin_x + fb.x;
                    docs[cd].origin_y = d->origin_y + fb.y;
                }
            }
        }
    }
    const sdoc *top = &docs[0];
    int html = -1;
    for (size_t i = 0; i < top->n && html < 0; i++)
        if (top->type[i] == N_ELEMENT && top->parent[i] >= 0 && top->type[top->parent[i]] == N_DOCUMENT)
            html = (int)i;
    if (html < 0) {
        fail(&s, "its document has no root element");
        goto done;
    }
    if (!info->url && top->url && !(info->url = strdup(top->url))) {
        rs = RENDER_ENOMEM;
        goto done;
    }
    b.s = &s;
    b.docs = docs;
    b.n_docs = n_docs;
    b.o = o;
    b.origin = origin_of(top->url);
    if (!(b.doc = dom_doc_new())) {
        rs = RENDER_ENOMEM;
        goto done;
    }
    dom_node *r = NULL;
    int br = build(&b, top, html, &r);
    info->elements = b.elements;
    info->words = b.words;
    if (br != 0) {
        rs = br == -2 ? RENDER_ENOMEM : br == -3 ? RENDER_ETIME : br == -4 ? RENDER_EELEMENTS
             : br == -5 ? RENDER_EWORDS : br == -6 ? RENDER_EDEPTH : RENDER_EPARSE;
        dom_doc_free(b.doc);
        b.doc = NULL;
        goto done;
    }
    dom_doc_set_root(b.doc, r);
    show_held_back(r);
    /* The document's size: what scrolls (contentWidth and -Height, at least
     * the window), or the root's box when the page is shorter than the
     * window, as litehtml sizes a document by its content. */
    json_object *d0 = json_object_array_get_idx(documents, 0);
    double cw = json_object_get_double(json_object_object_get(d0, "contentWidth"));
    double ch = json_object_get_double(json_object_object_get(d0, "contentHeight"));
    double w = r->box.x + r->box.w, h = r->box.y + r->box.h;
    if (isfinite(cw) && cw > w)
        w = cw;
    if (isfinite(ch) && ch > h && ch > info->window_h)
        h = ch;
    dom_doc_set_size(b.doc, w, h);
    if (o && o->max_doc_height > 0 && h > o->max_doc_height) {
        dom_doc_free(b.doc);
        b.doc = NULL;
        rs = RENDER_EHEIGHT;
        goto done;
    }
    dom_doc_finish(b.doc);
    *out = b.doc;
    rs = RENDER_OK;
done:
    free(b.origin);
    for (size_t k = 0; k < n_docs && docs; k++)
        sdoc_free(&docs[k]);
    free(docs);
    free(s.str);
    free(s.str_len);
    json_object_put(root);
    if (rs != RENDER_OK) {
        free(info->url);
        info->url = NULL;
    }
    return rs;
}
