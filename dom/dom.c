/* dom/: the tree, its arena, building and reading. */
#include "dom/dom.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The arena is a list of chunks; a request larger than a chunk gets a chunk
 * of its own. Nothing is freed before dom_doc_free, which is what a document
 * that is built once and then only read wants. */
typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t used, size;
    max_align_t data[]; /* aligned start */
} arena_chunk;

#define ARENA_CHUNK (64 * 1024)

struct dom_doc {
    arena_chunk *chunks;
    dom_node *root, *body;
    const char *base_url; /* in the arena; NULL: none */
    double width, height;
    size_t count;
};

dom_doc *dom_doc_new(void)
{
    return calloc(1, sizeof(dom_doc));
}

void dom_doc_free(dom_doc *doc)
{
    if (!doc)
        return;
    arena_chunk *c = doc->chunks;
    while (c) {
        arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    free(doc);
}

void *dom_alloc(dom_doc *doc, size_t size)
{
    const size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    if (size == 0)
        size = align;
    arena_chunk *c = doc->chunks;
    if (!c || c->size - c->used < size) {
        size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        arena_chunk *n = malloc(sizeof(arena_chunk) + cap);
        if (!n)
            return NULL;
        n->used = 0;
        n->size = cap;
        if (c && size > ARENA_CHUNK) {
            /* Keep the partly used chunk in front: a big block goes behind it. */
            n->next = c->next;
            c->next = n;
        } else {
            n->next = c;
            doc->chunks = n;
        }
        c = n;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *dom_strndup(dom_doc *doc, const char *s, size_t n)
{
    char *d = dom_alloc(doc, n + 1);
    if (!d)
        return NULL;
    if (n)
        memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

dom_node *dom_doc_root(const dom_doc *doc) { return doc->root; }
dom_node *dom_doc_body(const dom_doc *doc) { return doc->body; }
void dom_doc_set_root(dom_doc *doc, dom_node *root) { doc->root = root; }

int dom_doc_set_base_url(dom_doc *doc, const char *url)
{
    doc->base_url = url ? dom_strndup(doc, url, strlen(url)) : NULL;
    return url && !doc->base_url ? -1 : 0;
}

const char *dom_doc_base_url(const dom_doc *doc) { return doc->base_url; }

void dom_doc_set_size(dom_doc *doc, double width, double height)
{
    doc->width = width;
    doc->height = height;
}

double dom_doc_width(const dom_doc *doc) { return doc->width; }
double dom_doc_height(const dom_doc *doc) { return doc->height; }
size_t dom_doc_count(const dom_doc *doc) { return doc->count; }

void dom_doc_finish(dom_doc *doc)
{
    size_t i = 0;
    doc->body = NULL;
    for (dom_node *n = doc->root; n; n = dom_next(n, doc->root)) {
        n->index = i++;
        n->depth = n->parent && n != doc->root ? n->parent->depth + 1 : 0;
        if (!doc->body && dom_is_tag(n, "body"))
            doc->body = n;
    }
    doc->count = i;
}

dom_node *dom_element_new(dom_doc *doc, const char *tag)
{
    dom_node *n = dom_alloc(doc, sizeof(dom_node));
    if (!n)
        return NULL;
    size_t len = strlen(tag);
    char *t = dom_strndup(doc, tag, len);
    if (!t)
        return NULL;
    for (size_t i = 0; i < len; i++)
        t[i] = (char)tolower((unsigned char)t[i]);
    n->kind = DOM_ELEMENT;
    n->owner = doc;
    n->tag = t;
    n->display = DOM_DISPLAY_BLOCK;
    return n;
}

dom_node *dom_text_new(dom_doc *doc, const char *text, size_t len)
{
    dom_node *n = dom_alloc(doc, sizeof(dom_node));
    if (!n)
        return NULL;
    n->text = dom_strndup(doc, text, len);
    if (!n->text)
        return NULL;
    n->kind = DOM_TEXT;
    n->owner = doc;
    n->text_len = len;
    n->display = DOM_DISPLAY_INLINE;
    return n;
}

void dom_append(dom_node *parent, dom_node *child)
{
    child->parent = parent;
    child->next = NULL;
    child->prev = parent->last_child;
    if (parent->last_child)
        parent->last_child->next = child;
    else
        parent->first_child = child;
    parent->last_child = child;
}

int dom_set_attr(dom_doc *doc, dom_node *el, const char *name, const char *value)
{
    for (size_t i = 0; i < el->n_attrs; i++) {
        if (strcmp(el->attrs[i].name, name) == 0) {
            const char *v = dom_strndup(doc, value ? value : "", value ? strlen(value) : 0);
            if (!v)
                return -1;
            el->attrs[i].value = v;
            return 0;
        }
    }
    /* Attributes are few; grow by copying into the arena (old array stays
     * behind until the document is freed, which is cheap at this size). */
    dom_attr *a = dom_alloc(doc, (el->n_attrs + 1) * sizeof(dom_attr));
    if (!a)
        return -1;
    if (el->n_attrs)
        memcpy(a, el->attrs, el->n_attrs * sizeof(dom_attr));
    size_t nlen = strlen(name);
    char *n = dom_strndup(doc, name, nlen);
    const char *v = dom_strndup(doc, value ? value : "", value ? strlen(value) : 0);
    if (!n || !v)
        return -1;
    for (size_t i = 0; i < nlen; i++)
        n[i] = (char)tolower((unsigned char)n[i]);
    a[el->n_attrs].name = n;
    a[el->n_attrs].value = v;
    el->attrs = a;
    el->n_attrs++;
    return 0;
}

int dom_set_lines(dom_doc *doc, dom_node *text, const dom_box *lines, size_t n)
{
    text->n_lines = 0;
    text->lines = NULL;
    text->box = (dom_box){0, 0, 0, 0};
    if (n == 0)
        return 0;
    text->lines = dom_alloc(doc, n * sizeof(dom_box));
    if (!text->lines)
        return -1;
    memcpy(text->lines, lines, n * sizeof(dom_box));
    text->n_lines = n;
    dom_box u = lines[0];
    for (size_t i = 1; i < n; i++)
        u = dom_box_union(u, lines[i]);
    text->box = u;
    return 0;
}

const char *dom_attr_get(const dom_node *el, const char *name)
{
    for (size_t i = 0; i < el->n_attrs; i++)
        if (strcmp(el->attrs[i].name, name) == 0)
            return el->attrs[i].value;
    return NULL;
}

int dom_value_names_content(const char *v, size_t n)
{
    for (size_t i = 0; i + 7 <= n; i++)
        if (strncasecmp(v + i, "article", 7) == 0 || strncasecmp(v + i, "content", 7) == 0)
            return 1;
    return 0;
}

int dom_is_tag(const dom_node *n, const char *tag)
{
    return n && n->kind == DOM_ELEMENT && strcmp(n->tag, tag) == 0;
}

int dom_node_visible(const dom_node *n)
{
    if (!n || n->hidden)
        return 0;
    for (n = n->parent; n; n = n->parent)
        if (n->hidden & DOM_HIDDEN_DISPLAY_NONE)
            return 0;
    return 1;
}

dom_node *dom_next(const dom_node *n, const dom_node *top)
{
    return n->first_child ? n->first_child : dom_next_after(n, top);
}

dom_node *dom_next_after(const dom_node *n, const dom_node *top)
{
    while (n && n != top) {
        if (n->next)
            return n->next;
        n = n->parent;
    }
    return NULL;
}

int dom_node_left_out(const dom_node *n)
{
    if (n->kind == DOM_TEXT)
        return n->hidden != 0;
    return (n->hidden & (DOM_HIDDEN_DISPLAY_NONE | DOM_HIDDEN_OFF_PAGE)) != 0;
}

void dom_walk(const dom_node *top, dom_enter_fn enter, dom_leave_fn leave, void *ctx)
{
    const dom_node *n = top;
    while (n) {
        if (enter(ctx, n)) {
            if (n->first_child) {
                n = n->first_child;
                continue;
            }
            leave(ctx, n);
        }
        while (n != top && !n->next) {
            n = n->parent;
            leave(ctx, n);
        }
        if (n == top)
            break;
        n = n->next;
    }
}

int dom_is_ancestor(const dom_node *ancestor, const dom_node *n)
{
    for (; n; n = n->parent)
        if (n == ancestor)
            return 1;
    return 0;
}

double dom_box_area(dom_box b)
{
    return b.w > 0 && b.h > 0 ? b.w * b.h : 0;
}

int dom_box_intersects(dom_box a, dom_box b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

dom_box dom_box_union(dom_box a, dom_box b)
{
    if (a.w <= 0 && a.h <= 0)
        return b;
    if (b.w <= 0 && b.h <= 0)
        return a;
    double x0 = a.x < b.x ? a.x : b.x;
    double y0 = a.y < b.y ? a.y : b.y;
    double x1 = a.x + a.w > b.x + b.w ? a.x + a.w : b.x + b.w;
    double y1 = a.y + a.h > b.y + b.h ? a.y + a.h : b.y + b.h;
    return (dom_box){x0, y0, x1 - x0, y1 - y0};
}
