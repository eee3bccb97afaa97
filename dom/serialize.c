/* dom/: a subtree as plain text and as clean HTML.
 *
 * Both walks are iterative (dom_next plus a climb back up for end tags), so a
 * deep tree costs no stack. What is left out, in both: elements with
 * display:none or entirely off the page (with their subtree), and text nodes
 * with any hidden bit (text of a visibility:hidden element, zero-size text).
 */
#include "dom/dom.h"

#include "base/buf.h"
#include "base/escape.h"
#include "base/tags.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Plain text ------------------------------------------------------------ */

enum { SEP_NONE = 0, SEP_TAB, SEP_LINE, SEP_PARA };

static const char *const para_tags[] = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "blockquote", "pre",
    "table", "figure", "hr", "section", "article", "header", "footer", "aside", "nav",
    "main", "address", "details", "form", "fieldset", NULL};

typedef struct text_state {
    base_buf b;
    int sep;        /* separator owed before the next text */
    int space;      /* a collapsible space is owed before the next text */
    const dom_node *top;
    dom_keep_fn keep;
    void *keep_ctx;
} text_state;

static int ends_with_newlines(const base_buf *b)
{
    int n = 0;
    for (size_t i = b->len; i > 0 && b->data[i - 1] == '\n'; i--)
        n++;
    return n;
}

static void trim_trailing_blanks(base_buf *b)
{
    while (b->len > 0 && (b->data[b->len - 1] == ' ' || b->data[b->len - 1] == '\t'))
        base_buf_shrink(b, 1);
}

/* Writes the separator or space owed before the next text. */
static void pay_sep(text_state *t)
{
    if (t->b.len > 0) {
        char last = t->b.data[t->b.len - 1];
        if (t->sep >= SEP_LINE) {
            trim_trailing_blanks(&t->b);
            int want = t->sep == SEP_PARA ? 2 : 1;
            for (int have = ends_with_newlines(&t->b); have < want; have++)
                base_buf_add(&t->b, "\n", 1);
        } else if (t->sep == SEP_TAB) {
            trim_trailing_blanks(&t->b);
            if (ends_with_newlines(&t->b) == 0)
                base_buf_add(&t->b, "\t", 1);
        } else if (t->space && last != '\n' && last != ' ' && last != '\t') {
            base_buf_add(&t->b, " ", 1);
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
            while (j < n && base_html_space(s[j]))
                j++;
            if (j > i) {
                t->space = 1;
                i = j;
                continue;
            }
            while (j < n && !base_html_space(s[j]))
                j++;
            text_emit(t, s + i, j - i, 1);
            i = j;
        }
        return;
    }
    if (n == 0)
        return;
    pay_sep(t);
    base_buf_add(&t->b, s, n);
}

static void text_sep(text_state *t, int sep)
{
    if (sep > t->sep)
        t->sep = sep;
}

static int element_sep(const dom_node *n)
{
    if (base_tag_in(n->tag, para_tags))
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
            base_buf_add(&t->b, "\n", 1);
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
    text_state t = {BASE_BUF_INIT, SEP_NONE, 0, top, keep, keep_ctx};
    if (top)
        dom_walk(top, text_enter, text_leave, &t);
    trim_trailing_blanks(&t.b);
    while (t.b.len > 0 && t.b.data[t.b.len - 1] == '\n')
        base_buf_shrink(&t.b, 1);
    return base_buf_take(&t.b, len);
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
    "script", "style", "template", "iframe", "object", "embed", "applet",
    "input", "button", "select", "textarea", "option", "svg", "math", "canvas", "audio",
    "video", "map", "head", "title", "meta", "link", "base", NULL};
static const char *const html_void[] = {"br", "hr", "img", NULL};
static const char *const html_attrs[] = {"href", "src", "alt", "title", "colspan",
                                         "rowspan", NULL};

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
    if (base_tag_in(n->tag, html_keep))
        return n->tag;
    return n->display == DOM_DISPLAY_BLOCK ? "div" : NULL;
}

typedef struct html_state {
    base_buf b;
    const dom_node *top;
    dom_keep_fn keep;
    void *keep_ctx;
} html_state;

static int html_enter(void *ctx, const dom_node *n)
{
    html_state *h = ctx;
    base_buf *b = &h->b;
    if (dom_node_left_out(n) || (h->keep && n != h->top && !h->keep(n, h->keep_ctx)))
        return 0;
    if (n->kind == DOM_TEXT) {
        base_html_escape(b, n->text, n->text_len);
        return 1;
    }
    if (base_tag_in(n->tag, html_drop))
        return 0;
    const char *tag = html_tag(n);
    if (!tag)
        return 1;
    base_buf_puts(b, "<");
    base_buf_puts(b, tag);
    if (tag == n->tag) {
        for (size_t i = 0; i < n->n_attrs; i++) {
            const dom_attr *a = &n->attrs[i];
            if (!base_tag_in(a->name, html_attrs))
                continue;
            if ((!strcmp(a->name, "href") || !strcmp(a->name, "src")) && unsafe_url(a->value))
                continue;
            base_buf_puts(b, " ");
            base_buf_puts(b, a->name);
            base_buf_puts(b, "=\"");
            base_html_escape(b, a->value, strlen(a->value));
            base_buf_puts(b, "\"");
        }
    }
    base_buf_puts(b, ">");
    return 1;
}

static void html_leave(void *ctx, const dom_node *n)
{
    base_buf *b = &((html_state *)ctx)->b;
    if (n->kind != DOM_ELEMENT)
        return;
    const char *tag = html_tag(n);
    if (!tag || base_tag_in(tag, html_void))
        return;
    base_buf_puts(b, "</");
    base_buf_puts(b, tag);
    base_buf_puts(b, ">");
}

char *dom_to_html(const dom_node *top, size_t *len)
{
    return dom_to_html_kept(top, NULL, NULL, len);
}

char *dom_to_html_kept(const dom_node *top, dom_keep_fn keep, void *keep_ctx, size_t *len)
{
    html_state h = {BASE_BUF_INIT, top, keep, keep_ctx};
    if (top)
        dom_walk(top, html_enter, html_leave, &h);
    return base_buf_take(&h.b, len);
}
