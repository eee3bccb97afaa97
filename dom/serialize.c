/* dom/: a subtree as plain text and as clean HTML.
 *
 * Both walks are iterative (dom_next plus a climb back up for end tags), so a
 * deep tree costs no stack. What is left out, in both: elements with
 * display:none or entirely off the page (with their subtree), and text nodes
 * with any hidden bit (text of a visibility:hidden element, zero-size text).
 */
#define _GNU_SOURCE /* strndup */
#include "dom/dom.h"

#include "base/buf.h"
#include "base/escape.h"
#include "base/tags.h"
#include "base/url.h"

#include <ctype.h>
#include <stdio.h>
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
    char marker[48]; /* a list item's indent and marker, owed before its first text */
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
    if (t->marker[0]) {
        if (t->b.len == 0 || t->b.data[t->b.len - 1] == '\n')
            base_buf_puts(&t->b, t->marker);
        t->marker[0] = '\0';
    }
}

static int is_list(const dom_node *n)
{
    return dom_is_tag(n, "ul") || dom_is_tag(n, "ol") || dom_is_tag(n, "menu");
}

/* The indent and marker of a list item that is a block: "- ", or "N. "
 * in an ordered list (its start attribute, then one more per item before
 * it), two spaces per list it is nested in. */
static void list_marker(const dom_node *li, char *out, size_t cap)
{
    int depth = 0;
    for (const dom_node *a = li->parent; a; a = a->parent)
        depth += is_list(a);
    depth = depth > 0 ? depth - 1 : 0;
    if (depth > 8)
        depth = 8; /* deeper lists keep the last indent: a line is for reading */
    size_t k = 0;
    for (int i = 0; i < depth; i++) {
        out[k++] = ' ';
        out[k++] = ' ';
    }
    const dom_node *list = li->parent;
    if (list && dom_is_tag(list, "ol")) {
        const char *st = dom_attr_get(list, "start");
        long num = st ? strtol(st, NULL, 10) : 1;
        for (const dom_node *p = li->prev; p; p = p->prev)
            num += dom_is_tag(p, "li");
        snprintf(out + k, cap - k, "%ld. ", num);
    } else {
        snprintf(out + k, cap - k, "- ");
    }
}

static void text_emit(text_state *t, const char *s, size_t n, int pre)
{
    if (!pre) {
        /* Collapse runs of white space; a leading or trailing space becomes
         * an owed space, paid only between two words on one line. Spaces
         * alone, no-break ones too, are such a space ("<p>&nbsp;</p>" is
         * no line). */
        if (base_html_spaces(s, n)) {
            if (n > 0)
                t->space = 1;
            return;
        }
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
    if (is_list(n) || dom_is_tag(n, "dl")) {
        /* A list inside a list item follows its item's line. */
        for (const dom_node *a = n->parent; a; a = a->parent)
            if (dom_is_tag(a, "li"))
                return SEP_LINE;
    }
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
        if (dom_is_tag(n, "li") && n->display == DOM_DISPLAY_BLOCK)
            list_marker(n, t->marker, sizeof t->marker);
    }
    return 1;
}

static void text_leave(void *ctx, const dom_node *n)
{
    text_state *t = ctx;
    if (n->kind == DOM_ELEMENT)
        text_sep(t, element_sep(n));
    if (dom_is_tag(n, "li"))
        t->marker[0] = '\0'; /* an item without text shows no marker */
}

char *dom_to_text(const dom_node *top, size_t *len)
{
    return dom_to_text_kept(top, NULL, NULL, len);
}

char *dom_to_text_kept(const dom_node *top, dom_keep_fn keep, void *keep_ctx, size_t *len)
{
    text_state t = {BASE_BUF_INIT, SEP_NONE, 0, "", top, keep, keep_ctx};
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
/* Left out with everything inside them: what runs, embeds, draws with
 * markup of its own (svg and math reparse their content by other rules,
 * the root of many filter evasions) or asks the reader for input. */
static const char *const html_drop[] = {
    "script", "style", "template", "iframe", "frame", "frameset", "object", "embed", "applet",
    "param", "portal", "input", "button", "select", "textarea", "option", "datalist",
    "output", "svg", "math", "canvas", "audio", "video", "source", "track", "map", "area",
    "head", "title", "meta", "link", "base", "noembed", "noframes", "xmp", "plaintext", NULL};
static const char *const html_void[] = {"br", "hr", "img", NULL};
/* Attributes kept as text (escaped). The URL attributes and class, dir are
 * checked on their own below. */
static const char *const html_attrs[] = {"alt", "title", "colspan", "rowspan", "lang",
                                         "datetime", NULL};

/* The schemes a link may keep, and an image; anything else (javascript:,
 * vbscript:, data: in a link, file:, an unknown one) goes. */
static const char *const link_schemes[] = {"http", "https", "mailto", "tel", "ftp", NULL};
static const char *const image_schemes[] = {"http", "https", NULL};
/* data: images of these types only: a raster image runs nothing (an SVG
 * document can, when opened on its own). */
static const char *const data_images[] = {"data:image/png", "data:image/jpeg", "data:image/jpg",
                                          "data:image/gif", "data:image/webp", "data:image/avif",
                                          NULL};

/* `v` resolved against the document's base and checked: malloc'd, or NULL
 * when it must go (or out of memory). */
static char *safe_url(const dom_node *n, const char *v, int image)
{
    const char *base = n->owner ? dom_doc_base_url(n->owner) : NULL;
    char *u = base_url_resolve(base, v);
    if (!u)
        return NULL;
    char scheme[32];
    if (base_url_scheme(u, scheme, sizeof scheme) == 0) {
        /* A scheme too long to read is still a scheme. */
        size_t k = strspn(u, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.");
        if (u[k] == ':' && k > 0 && ((u[0] | 0x20) >= 'a' && (u[0] | 0x20) <= 'z')) {
            free(u);
            return NULL;
        }
        return u; /* relative: no base to make it absolute */
    }
    if (base_tag_in(scheme, image ? image_schemes : link_schemes))
        return u;
    if (image && !strcmp(scheme, "data"))
        for (const char *const *t = data_images; *t; t++) {
            size_t tl = strlen(*t);
            if (strncasecmp(u, *t, tl) == 0 && (u[tl] == ';' || u[tl] == ','))
                return u;
        }
    free(u);
    return NULL;
}

/* A srcset's candidates ("URL [descriptor], ..."), each URL made safe as
 * an image's src; the unsafe ones dropped. NULL when none is left. */
static char *safe_srcset(const dom_node *n, const char *v)
{
    base_buf out = BASE_BUF_INIT;
    const char *p = v;
    while (*p) {
        while (*p && (base_html_space(*p) || *p == ','))
            p++;
        if (!*p)
            break;
        const char *us = p;
        while (*p && !base_html_space(*p))
            p++;
        /* A URL ends before its descriptor; trailing commas are its
         * separator (the HTML standard's srcset parsing). */
        const char *ue = p;
        int comma = 0;
        while (ue > us && ue[-1] == ',')
            ue--, comma = 1;
        const char *ds = p, *de = p;
        if (!comma) {
            while (*p && base_html_space(*p))
                p++;
            ds = p;
            while (*p && *p != ',')
                p++;
            de = p;
            while (de > ds && base_html_space(de[-1]))
                de--;
        }
        char *url = strndup(us, (size_t)(ue - us));
        char *safe = url ? safe_url(n, url, 1) : NULL;
        free(url);
        if (safe && !strpbrk(safe, " ,")) {
            if (out.len)
                base_buf_puts(&out, ", ");
            base_buf_puts(&out, safe);
            if (de > ds) {
                base_buf_putc(&out, ' ');
                base_buf_add(&out, ds, (size_t)(de - ds));
            }
        }
        free(safe);
    }
    if (!out.len) {
        base_buf_free(&out);
        return NULL;
    }
    return base_buf_take(&out, NULL);
}

static void put_attr(base_buf *b, const char *name, const char *value)
{
    base_buf_puts(b, " ");
    base_buf_puts(b, name);
    base_buf_puts(b, "=\"");
    base_html_escape(b, value, strlen(value));
    base_buf_puts(b, "\"");
}

/* A placeholder a lazy image shows until a script swaps it: none, a data:
 * URL (a blank pixel) or nothing but white space. */
static int placeholder_src(const char *v)
{
    if (!v)
        return 1;
    while (base_html_space(*v))
        v++;
    return *v == '\0' || strncasecmp(v, "data:", 5) == 0;
}

/* The <img> inside a <noscript> right after `img` (white space between),
 * the fallback lazy-loading pages give readers without scripts. */
static const dom_node *noscript_img(const dom_node *img)
{
    const dom_node *s = img->next;
    while (s && s->kind == DOM_TEXT && s->text_len == strspn(s->text, " \t\n\r\f"))
        s = s->next;
    /* A <noscript> shown as content (render/noscript.h) shows its own. */
    if (!s || !dom_is_tag(s, "noscript") || !dom_node_left_out(s))
        return NULL;
    for (const dom_node *c = s->first_child; c; c = dom_next(c, s))
        if (dom_is_tag(c, "img"))
            return c;
    return NULL;
}

/* An image's src and srcset as a reader without scripts should get them. */
static void put_img(base_buf *b, const dom_node *n)
{
    static const char *const lazy[] = {"data-src", "data-lazy-src", "data-original",
                                       "data-lazy", "data-url", NULL};
    const char *src = dom_attr_get(n, "src");
    const char *srcset = dom_attr_get(n, "srcset");
    if (placeholder_src(src)) {
        const char *lz = NULL;
        for (const char *const *a = lazy; *a && !lz; a++)
            if ((lz = dom_attr_get(n, *a)) && placeholder_src(lz))
                lz = NULL;
        const dom_node *ns = lz ? NULL : noscript_img(n);
        src = lz ? lz : ns ? dom_attr_get(ns, "src") : src;
        if (!srcset && ns)
            srcset = dom_attr_get(ns, "srcset");
    }
    const char *lazy_set = dom_attr_get(n, "data-srcset");
    if (lazy_set && (!srcset || placeholder_src(srcset)))
        srcset = lazy_set;
    char *s = NULL;
    if (src && src[strspn(src, " \t\n\r\f")]) /* "" would resolve to the page itself */
        s = safe_url(n, src, 1);
    char *ss = srcset ? safe_srcset(n, srcset) : NULL;
    if (!s && ss) {
        /* No src but a srcset: its first candidate, for readers that take
         * no srcset. */
        size_t k = strcspn(ss, " ,");
        s = strndup(ss, k);
    }
    if (s)
        put_attr(b, "src", s);
    if (ss)
        put_attr(b, "srcset", ss);
    free(s);
    free(ss);
}

/* "language-X" among an element's classes, the convention of code
 * highlighters and of Markdown's fenced blocks; NULL when none. Only
 * letters, digits and "+#._-" pass. */
static int code_language(const dom_node *n, const char **lang, size_t *len)
{
    const char *c = dom_attr_get(n, "class");
    while (c && *c) {
        while (base_html_space(*c))
            c++;
        size_t k = 0;
        while (c[k] && !base_html_space(c[k]))
            k++;
        if (k > 9 && (!strncmp(c, "language-", 9) || !strncmp(c, "lang-", 5))) {
            size_t pre = c[4] == '-' ? 5 : 9;
            size_t j = pre;
            while (j < k && (isalnum((unsigned char)c[j]) || strchr("+#._-", c[j])))
                j++;
            if (j == k) {
                *lang = c + pre;
                *len = k - pre;
                return 1;
            }
        }
        c += k;
    }
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

static void put_attrs(base_buf *b, const dom_node *n)
{
    for (size_t i = 0; i < n->n_attrs; i++) {
        const dom_attr *a = &n->attrs[i];
        if (base_tag_in(a->name, html_attrs)) {
            put_attr(b, a->name, a->value);
        } else if (!strcmp(a->name, "href") && dom_is_tag(n, "a")) {
            char *u = safe_url(n, a->value, 0);
            if (u)
                put_attr(b, "href", u);
            free(u);
        } else if ((!strcmp(a->name, "width") || !strcmp(a->name, "height")) &&
                   dom_is_tag(n, "img") && a->value[0] &&
                   strspn(a->value, "0123456789") == strlen(a->value)) {
            put_attr(b, a->name, a->value);
        } else if (!strcmp(a->name, "start") && dom_is_tag(n, "ol") &&
                   strspn(a->value + (a->value[0] == '-'), "0123456789") ==
                       strlen(a->value + (a->value[0] == '-'))) {
            put_attr(b, "start", a->value);
        } else if (!strcmp(a->name, "dir") &&
                   (!strcasecmp(a->value, "ltr") || !strcasecmp(a->value, "rtl") ||
                    !strcasecmp(a->value, "auto"))) {
            put_attr(b, "dir", a->value);
        }
    }
    if (dom_is_tag(n, "img"))
        put_img(b, n);
    const char *lang;
    size_t ll;
    if ((dom_is_tag(n, "code") || dom_is_tag(n, "pre")) && code_language(n, &lang, &ll)) {
        base_buf_puts(b, " class=\"language-");
        base_buf_add(b, lang, ll);
        base_buf_puts(b, "\"");
    }
}

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
    if (tag == n->tag)
        put_attrs(b, n);
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
