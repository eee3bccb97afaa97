/* dom/: a subtree as plain text and as clean HTML.
 *
 * Both walks are iterative (dom_next plus a climb back up for end tags), so a
 * deep tree costs no stack. What is left out, in both: elements with
 * display:none or entirely off the page (with their subtree), and text nodes
 * with any hidden bit (text of a visibility:hidden element, zero-size text).
 */
#include "dom/dom.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct buf {
    char *s;
    size_t len, cap;
    int failed;
} buf;

static void buf_put(buf *b, const char *s, size_t n)
{
    if (b->failed || n == 0)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void buf_puts(buf *b, const char *s)
{
    buf_put(b, s, strlen(s));
}

static char *buf_finish(buf *b, size_t *len)
{
    if (!b->failed && !b->s) {
        b->s = calloc(1, 1);
        b->failed = !b->s;
    }
    if (b->failed) {
        free(b->s);
        return NULL;
    }
    if (len)
        *len = b->len;
    return b->s;
}

static int tag_in(const char *tag, const char *const *list)
{
    for (; tag && *list; list++)
        if (strcmp(tag, *list) == 0)
            return 1;
    return 0;
}

/* Plain text ------------------------------------------------------------ */

enum { SEP_NONE = 0, SEP_TAB, SEP_LINE, SEP_PARA };

static const char *const para_tags[] = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "blockquote", "pre",
    "table", "figure", "hr", "section", "article", "header", "footer", "aside", "nav",
    "main", "address", "details", "form", "fieldset", NULL};

typedef struct text_state {
    buf b;
    int sep;        /* separator owed before the next text */
    int space;      /* a collapsible space is owed before the next text */
    const dom_node *top;
    dom_keep_fn keep;
    void *keep_ctx;
} text_state;

static int ends_with_newlines(const buf *b)
{
    int n = 0;
    for (size_t i = b->len; i > 0 && b->s[i - 1] == '\n'; i--)
        n++;
    return n;
}

static void trim_trailing_blanks(buf *b)
{
    while (b->len > 0 && (b->s[b->len - 1] == ' ' || b->s[b->len - 1] == '\t'))
        b->s[--b->len] = '\0';
}

/* Writes the separator or space owed before the next text. */
static void pay_sep(text_state *t)
{
    if (t->b.len > 0) {
        char last = t->b.s[t->b.len - 1];
        if (t->sep >= SEP_LINE) {
            trim_trailing_blanks(&t->b);
            int want = t->sep == SEP_PARA ? 2 : 1;
            for (int have = ends_with_newlines(&t->b); have < want; have++)
                buf_put(&t->b, "\n", 1);
        } else if (t->sep == SEP_TAB) {
            trim_trailing_blanks(&t->b);
            if (ends_with_newlines(&t->b) == 0)
                buf_put(&t->b, "\t", 1);
        } else if (t->space && last != '\n' && last != ' ' && last != '\t') {
            buf_put(&t->b, " ", 1);
        }
    }
    t->sep = SEP_NONE;
    t->space = 0;
}

static void text_emit(text_state *t, const char *s, size_t n, int pre)
{
    if (!pre) {
        /* Collapse runs of white space; a leading or trailing space becomes
         * an owed space, paid only between two words on one line. */
        size_t i = 0;
        while (i < n) {
            size_t j = i;
            while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r' ||
                             s[j] == '\f'))
                j++;
            if (j > i) {
                t->space = 1;
                i = j;
                continue;
            }
            while (j < n && !(s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r' ||
                              s[j] == '\f'))
                j++;
            text_emit(t, s + i, j - i, 1);
            i = j;
        }
        return;
    }
    if (n == 0)
        return;
    pay_sep(t);
    buf_put(&t->b, s, n);
}

static void text_sep(text_state *t, int sep)
{
    if (sep > t->sep)
        t->sep = sep;
}

static int element_sep(const dom_node *n)
{
    if (tag_in(n->tag, para_tags))
        return SEP_PARA;
    if (dom_is_tag(n, "td") || dom_is_tag(n, "th"))
        return SEP_TAB;
    return n->display == DOM_DISPLAY_BLOCK ? SEP_LINE : SEP_NONE;
}

static int text_enter(void *ctx, const dom_node *n)
{
    text_state *t = ctx;
    if (dom_node_left_out(n) || (t->keep && n != t->top && !t->keep(n, t->keep_ctx)))
        return 0;
    if (n->kind == DOM_TEXT) {
        text_emit(t, n->text, n->text_len, n->preformatted);
    } else if (dom_is_tag(n, "br")) {
        /* A forced break: one newline per <br>, so two make an empty line. */
        if (t->b.len > 0) {
            if (t->sep >= SEP_LINE)
                pay_sep(t);
            trim_trailing_blanks(&t->b);
            buf_put(&t->b, "\n", 1);
        }
        t->space = 0;
    } else {
        text_sep(t, element_sep(n));
    }
    return 1;
}

static void text_leave(void *ctx, const dom_node *n)
{
    if (n->kind == DOM_ELEMENT)
        text_sep(ctx, element_sep(n));
}

char *dom_to_text(const dom_node *top, size_t *len)
{
    return dom_to_text_kept(top, NULL, NULL, len);
}

char *dom_to_text_kept(const dom_node *top, dom_keep_fn keep, void *keep_ctx, size_t *len)
{
    text_state t = {{0}, SEP_NONE, 0, top, keep, keep_ctx};
    if (top)
        dom_walk(top, text_enter, text_leave, &t);
    trim_trailing_blanks(&t.b);
    while (t.b.len > 0 && t.b.s[t.b.len - 1] == '\n')
        t.b.s[--t.b.len] = '\0';
    return buf_finish(&t.b, len);
}

/* Clean HTML ------------------------------------------------------------ */

/* Kept as they are (with the attributes below). */
static const char *const html_keep[] = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd",
    "blockquote", "pre", "code", "kbd", "samp", "var", "a", "em", "strong", "b", "i", "u",
    "s", "del", "ins", "sub", "sup", "small", "mark", "q", "cite", "abbr", "dfn", "time",
    "br", "hr", "img", "figure", "figcaption", "table", "caption", "thead", "tbody",
    "tfoot", "tr", "td", "th", "div", "article", "section", "details", "summary", NULL};
/* Left out with everything inside them. */
static const char *const html_drop[] = {
    "script", "style", "template", "noscript", "iframe", "object", "embed", "applet",
    "input", "button", "select", "textarea", "option", "svg", "math", "canvas", "audio",
    "video", "map", "head", "title", "meta", "link", "base", NULL};
static const char *const html_void[] = {"br", "hr", "img", NULL};
static const char *const html_attrs[] = {"href", "src", "alt", "title", "colspan",
                                         "rowspan", NULL};

static void html_escape(buf *b, const char *s, size_t n, int attr)
{
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = attr ? "&quot;" : NULL; break;
        default: break;
        }
        if (rep) {
            buf_put(b, s + start, i - start);
            buf_puts(b, rep);
            start = i + 1;
        }
    }
    buf_put(b, s + start, n - start);
}

/* A URL that would run script when followed or loaded. */
static int unsafe_url(const char *v)
{
    while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')
        v++;
    static const char *const schemes[] = {"javascript:", "vbscript:", "data:text/html", NULL};
    for (const char *const *sc = schemes; *sc; sc++)
        if (strncasecmp(v, *sc, strlen(*sc)) == 0)
            return 1;
    return 0;
}

/* The tag written for an element: its own when kept, "div" for another
 * block (so block boundaries survive), NULL to unwrap it. */
static const char *html_tag(const dom_node *n)
{
    if (tag_in(n->tag, html_keep))
        return n->tag;
    return n->display == DOM_DISPLAY_BLOCK ? "div" : NULL;
}

typedef struct html_state {
    buf b;
    const dom_node *top;
    dom_keep_fn keep;
    void *keep_ctx;
} html_state;

static int html_enter(void *ctx, const dom_node *n)
{
    html_state *h = ctx;
    buf *b = &h->b;
    if (dom_node_left_out(n) || (h->keep && n != h->top && !h->keep(n, h->keep_ctx)))
        return 0;
    if (n->kind == DOM_TEXT) {
        html_escape(b, n->text, n->text_len, 0);
        return 1;
    }
    if (tag_in(n->tag, html_drop))
        return 0;
    const char *tag = html_tag(n);
    if (!tag)
        return 1;
    buf_puts(b, "<");
    buf_puts(b, tag);
    if (tag == n->tag) {
        for (size_t i = 0; i < n->n_attrs; i++) {
            const dom_attr *a = &n->attrs[i];
            if (!tag_in(a->name, html_attrs))
                continue;
            if ((!strcmp(a->name, "href") || !strcmp(a->name, "src")) && unsafe_url(a->value))
                continue;
            buf_puts(b, " ");
            buf_puts(b, a->name);
            buf_puts(b, "=\"");
            html_escape(b, a->value, strlen(a->value), 1);
            buf_puts(b, "\"");
        }
    }
    buf_puts(b, ">");
    return 1;
}

static void html_leave(void *ctx, const dom_node *n)
{
    buf *b = &((html_state *)ctx)->b;
    if (n->kind != DOM_ELEMENT)
        return;
    const char *tag = html_tag(n);
    if (!tag || tag_in(tag, html_void))
        return;
    buf_puts(b, "</");
    buf_puts(b, tag);
    buf_puts(b, ">");
}

char *dom_to_html(const dom_node *top, size_t *len)
{
    return dom_to_html_kept(top, NULL, NULL, len);
}

char *dom_to_html_kept(const dom_node *top, dom_keep_fn keep, void *keep_ctx, size_t *len)
{
    html_state h = {{0}, top, keep, keep_ctx};
    if (top)
        dom_walk(top, html_enter, html_leave, &h);
    return buf_finish(&h.b, len);
}
