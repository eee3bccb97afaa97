/* dom/: the one document tree every extractor reads.
 *
 * A dom_doc owns an arena: every node, attribute, string and box lives until
 * dom_doc_free. The tree is built once from the laid-out litehtml document
 * (render/) or by hand (tests), then only read.
 *
 * Coordinates are CSS pixels in document space: (0,0) is the top left of the
 * page, y grows downwards. Boxes are border boxes (content + padding +
 * border, no margins). An inline element's box is the union of its line
 * fragments; a text node's box is the union of its line boxes.
 */
#ifndef GLANCE_DOM_H
#define GLANCE_DOM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dom_box {
    double x, y, w, h;
} dom_box;

typedef enum dom_kind {
    DOM_ELEMENT = 1,
    DOM_TEXT = 2
} dom_kind;

/* Why a node cannot be seen; 0 means visible. A node is also invisible
 * when an ancestor has display:none (dom_node_visible); the other bits do
 * not pass to descendants: a zero-height box can hold floats that show, and
 * a child of a visibility:hidden element can be visibility:visible (render/
 * gives text nodes their element's visibility bit). */
enum {
    DOM_HIDDEN_DISPLAY_NONE = 1 << 0, /* display:none, or not rendered (script, style, head) */
    DOM_HIDDEN_VISIBILITY = 1 << 1,   /* visibility:hidden or collapse */
    DOM_HIDDEN_ZERO_SIZE = 1 << 2,    /* width or height is 0 */
    DOM_HIDDEN_OFF_PAGE = 1 << 3      /* entirely left of or above the page */
};

/* Layout role of an element as its computed display gives it. */
typedef enum dom_display {
    DOM_DISPLAY_NONE = 0,
    DOM_DISPLAY_BLOCK,  /* block, list-item, table, table parts, flex, grid */
    DOM_DISPLAY_INLINE, /* inline, inline-block, inline-table */
} dom_display;

typedef struct dom_attr {
    const char *name;  /* lower case */
    const char *value; /* never NULL; "" for a bare attribute */
} dom_attr;

/* render/ leaves out before the parse the attributes that neither litehtml,
 * the page's stylesheets nor glance read (render/cssfilter.h). An element
 * that had some carries this one instead: the code points of their markup
 * as written, ` name="value"` each, for the measures that count a page's
 * code (DANAg, extract/danag.c). An attribute whose value holds a character
 * reference, or "article" or "content" (dom_value_names_content), is kept
 * whatever its name. */
#define DOM_ATTR_CUT "data-glance-cut"

typedef struct dom_node dom_node;
typedef struct dom_doc dom_doc;
struct dom_node {
    dom_kind kind;
    const char *tag;   /* elements: lower-case tag name; text: NULL */
    const char *text;  /* text nodes: UTF-8 text as rendered (white space collapsed
                          unless preformatted); elements: NULL */
    size_t text_len;
    dom_attr *attrs;
    size_t n_attrs;

    dom_box box;       /* border box in document coordinates */
    dom_box *lines;    /* text nodes: one box per line the text occupies */
    size_t n_lines;

    dom_display display;
    unsigned hidden;   /* DOM_HIDDEN_* bits of this node itself */
    int in_link;       /* 1 when the node is, or is inside, an <a href> */
    int in_fixed;      /* 1 when the node is, or is inside, a box with position: fixed */
    int preformatted;  /* white-space: pre, pre-wrap or pre-line */
    float font_size;   /* computed font size in px (text nodes: their element's);
                          0 when unknown */
    short font_weight; /* computed weight, 100..900 (bold: 700); 0 when unknown */

    dom_node *parent, *first_child, *last_child, *prev, *next;
    dom_doc *owner;    /* the document that made it (the DOM's ownerDocument):
                          what serialisation reads the base URL off */
    size_t index;      /* pre-order position in the document, set by dom_doc_finish */
    size_t depth;      /* 0 for the root */
};

/* Lifecycle ------------------------------------------------------------ */

dom_doc *dom_doc_new(void);
void dom_doc_free(dom_doc *doc);

/* The <html> element (or whatever the builder set as root), and <body>. */
dom_node *dom_doc_root(const dom_doc *doc);
dom_node *dom_doc_body(const dom_doc *doc);
void dom_doc_set_root(dom_doc *doc, dom_node *root);

/* Page size as laid out (the rendered document size S_d of the GCE paper). */
void dom_doc_set_size(dom_doc *doc, double width, double height);
double dom_doc_width(const dom_doc *doc);
double dom_doc_height(const dom_doc *doc);

/* The URL the document's relative links and images resolve against (its
 * address, or its <base href> resolved against that; the DOM's
 * document.baseURI): the HTML and Markdown serialisations write them
 * absolute. NULL (the default): they stay as written. Copied; 0 or -1
 * when out of memory. */
int dom_doc_set_base_url(dom_doc *doc, const char *url);
const char *dom_doc_base_url(const dom_doc *doc);

/* Numbers nodes in pre-order, sets depth, finds <body>. Call once the tree
 * is complete; readers may rely on index and depth afterwards. */
void dom_doc_finish(dom_doc *doc);
size_t dom_doc_count(const dom_doc *doc); /* nodes numbered by dom_doc_finish */

/* Arena ---------------------------------------------------------------- */

void *dom_alloc(dom_doc *doc, size_t size);          /* zeroed; NULL when out of memory */
char *dom_strndup(dom_doc *doc, const char *s, size_t n);

/* Building ------------------------------------------------------------- */

dom_node *dom_element_new(dom_doc *doc, const char *tag); /* tag is lower-cased */
dom_node *dom_text_new(dom_doc *doc, const char *text, size_t len);
void dom_append(dom_node *parent, dom_node *child);
int dom_set_attr(dom_doc *doc, dom_node *el, const char *name, const char *value); /* 0 or -1 */
int dom_set_lines(dom_doc *doc, dom_node *text, const dom_box *lines, size_t n); /* also sets box */

/* Reading -------------------------------------------------------------- */

const char *dom_attr_get(const dom_node *el, const char *name); /* NULL if absent */
/* Does the value (n bytes) hold "article" or "content", in any case? What
 * GCE's expanding step looks for in every attribute (gce/gce.c): render/
 * keeps such an attribute however unread it is otherwise (DOM_ATTR_CUT). */
int dom_value_names_content(const char *v, size_t n);
int dom_is_tag(const dom_node *n, const char *tag);
/* Visible: the node has no hidden bit and no ancestor is display:none. */
int dom_node_visible(const dom_node *n);
/* Next node in pre-order within the subtree of `top` (NULL when done). */
dom_node *dom_next(const dom_node *n, const dom_node *top);
/* The same, stepping over the subtree of `n` (NULL when done). */
dom_node *dom_next_after(const dom_node *n, const dom_node *top);
/* Pre-order walk of `top`, without recursion, with a call on the way into
 * each node and one on the way out; `enter` returns 0 to step over the
 * node's subtree (and then `leave` is not called for it). */
typedef int (*dom_enter_fn)(void *ctx, const dom_node *n);
typedef void (*dom_leave_fn)(void *ctx, const dom_node *n);
void dom_walk(const dom_node *top, dom_enter_fn enter, dom_leave_fn leave, void *ctx);
/* What serialisation and the extractors leave out: an element whose subtree
 * shows nothing (display:none or entirely off the page), or a text node
 * with any hidden bit. */
int dom_node_left_out(const dom_node *n);
int dom_is_ancestor(const dom_node *ancestor, const dom_node *n); /* proper or equal */
double dom_box_area(dom_box b);
int dom_box_intersects(dom_box a, dom_box b);
dom_box dom_box_union(dom_box a, dom_box b); /* an empty (0x0) box is ignored */

/* XPath of a node, as browsers print it: /html[1]/body[1]/div[2]/text()[1].
 * The string lives in the document's arena. */
const char *dom_node_xpath(dom_doc *doc, const dom_node *n);
/* The node at an XPath of that form, or NULL. */
dom_node *dom_find_xpath(const dom_doc *doc, const char *xpath);

/* Serialisation: malloc'd, NUL-terminated, the caller frees. NULL only when
 * out of memory. Hidden nodes are left out. */
/* Plain text: block boundaries and <br> become line breaks, paragraphs are
 * separated by one empty line, runs of white space collapse (except inside
 * preformatted text), no leading or trailing white space. A list item
 * starts with its marker, "- " in an unordered list and "N. " in an
 * ordered one (counted from its start attribute), indented two spaces
 * per list it is nested in. */
char *dom_to_text(const dom_node *n, size_t *len);
/* Clean HTML, safe to show: an allow-list of structural and inline tags
 * (p, h1-h6, ul, ol, li, blockquote, pre, code, table parts, a, em,
 * strong, img, figure ...; another block becomes a div, another inline
 * element is unwrapped; script, style, svg, math, iframes, objects and
 * form controls go with their content) and of attributes (href, src,
 * srcset, alt, title, width, height, colspan, rowspan, start, datetime,
 * lang, dir, and a class naming a code block's language); no event
 * handler, style or id. href, src and srcset are resolved against the
 * document's base URL (dom_doc_set_base_url) and kept only with a scheme
 * that cannot run script (http, https, mailto, tel, ftp; for an image
 * also data: of a raster type), cleaned as browsers clean them first, so
 * "jav&#x09;ascript:" goes too. A lazy image gets a real src from its
 * data-src (data-lazy-src, data-original) or data-srcset, or from the
 * <img> of a <noscript> beside it. */
char *dom_to_html(const dom_node *n, size_t *len);

/* The same, leaving out every subtree (below `n`) whose root `keep` turns
 * down (returns 0): what a clean-up inside the chosen node uses. */
typedef int (*dom_keep_fn)(const dom_node *n, void *ctx);
char *dom_to_text_kept(const dom_node *n, dom_keep_fn keep, void *ctx, size_t *len);
char *dom_to_html_kept(const dom_node *n, dom_keep_fn keep, void *ctx, size_t *len);

/* Markdown (CommonMark, with GitHub's tables and strikethrough) of clean
 * HTML as dom_to_html_kept writes it: headings, paragraphs, bullet and
 * numbered lists (nested), links, emphasis, inline code and fenced code
 * blocks (the language of a class "language-X"), block quotes, tables
 * whose cells hold no blocks as GitHub tables (others as their cells'
 * blocks in order), images, hard line breaks. Text is escaped wherever
 * Markdown would read it as markup. It reads the serialiser's output, not
 * the tree, so that every answer, whatever the method cut it with, has
 * the Markdown of its own HTML: the two never disagree. malloc'd; NULL
 * when out of memory. */
char *dom_html_to_markdown(const char *html, size_t len, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif
