/* render/: how deep a page nests, before litehtml sees it.
 *
 * litehtml builds and lays out its tree recursively and its cost grows
 * faster than linearly with depth (DESIGN.md, Fidelity: 20 000 nested divs
 * overflow an 8 MB stack), so depth is bounded before layout. Parsing with
 * gumbo gives the exact depth but costs about 6 ms on a news page, a fifth
 * of the budget; a scan of the tags that over-estimates the depth lets
 * ordinary pages skip that parse.
 */
#include <ctype.h>
#include <gumbo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/tags.h"
#include "render/render.h"

int render_html_depth(const char *html, size_t len)
{
    /* gumbo copies its whole stack of open elements into each parse error
     * it records: on 30 000 nested tables that took 23 GB. Errors are of
     * no use here. */
    GumboOptions opt = kGumboDefaultOptions;
    opt.max_errors = 0;
    GumboOutput *out = gumbo_parse_with_options(&opt, html, len);
    if (!out)
        return -1;
    /* Iterative: the point is to survive pages nested 100 000 deep. */
    size_t cap = 256, n = 0;
    struct item {
        GumboNode *node;
        int depth;
    } *stack = malloc(cap * sizeof *stack);
    int deepest = stack ? 0 : -1;
    if (stack)
        stack[n++] = (struct item){out->root, 1};
    while (n > 0) {
        struct item it = stack[--n];
        if (it.depth > deepest)
            deepest = it.depth;
        GumboVector *kids = &it.node->v.element.children;
        for (unsigned i = 0; i < kids->length; i++) {
            GumboNode *c = kids->data[i];
            if (c->type != GUMBO_NODE_ELEMENT && c->type != GUMBO_NODE_TEMPLATE)
                continue;
            if (base_grow(&stack, &cap, n + 1, sizeof *stack)) {
                deepest = -1;
                n = 0;
                break;
            }
            stack[n++] = (struct item){c, it.depth + 1};
        }
    }
    free(stack);
    gumbo_destroy_output(&opt, out);
    return deepest;
}

static const char *const void_elements[] = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr", "basefont", "bgsound", "frame", "keygen", "image", "menuitem", NULL};

/* Elements that no start tag closes implicitly (nor reopens, as the
 * formatting elements are): a parser nests them as the tags do, so their
 * depth in the scan is a lower bound of the parser's up to what an end
 * tag of an ancestor closes (which the scan follows too). */
static const char *const strict_elements[] = {
    "div", "span", "section", "article", "aside", "nav", "header", "footer", "main",
    "blockquote", "ul", "ol", "dl", "center", "figure", "fieldset", "details", "label",
    "abbr", "cite", "q", "sub", "sup", "ins", "del", "mark", "time", "var", "kbd",
    "samp", "dfn", "bdi", "bdo", "data", "address", "hgroup", "menu", "dir", NULL};

static uint32_t name_hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint32_t)tolower((unsigned char)s[i])) * 16777619u;
    return h;
}

/* Words in text between tags: runs of characters other than white space. */
static size_t count_words(const char *p, size_t n)
{
    size_t words = 0;
    int in_word = 0;
    for (size_t i = 0; i < n; i++) {
        int sp = base_html_space(p[i]);
        words += !sp && !in_word;
        in_word = !sp;
    }
    return words;
}

/* Simulates a tree builder that never closes an element implicitly: an
 * open tag pushes (void elements excepted), an end tag pops back to the
 * nearest open element of that name among the top 32, or is ignored. Real
 * parsers close <p>, <li> and the like implicitly, so this counts deeper
 * than they build, except for what they add themselves (html, head, body,
 * tbody, reopened formatting elements), which `slack` covers. The elements
 * of strict_elements are counted apart: the parser builds them at least as
 * deep. Raw-text elements hold no tags, and <select> is stepped over the
 * same way (a parser ignores most tags in it). One pass, linear in the
 * input. */
int render_html_count(const char *html, size_t len, render_html_counts *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = 64, n = 0, strict_n = 0;
    struct open {
        uint32_t h;
        int strict;
    } *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return -1;
    int deepest = 0, strict_deepest = 0;
    base_tag_scanner s;
    base_tag_scanner_init(&s, html, len);
    base_tag t;
    while (base_tag_next(&s, &t)) {
        if (t.kind == BASE_TAG_TEXT) {
            out->words += count_words(t.start, t.len);
            continue;
        }
        if (t.kind == BASE_TAG_RAW) {
            /* script and style hold no words */
            if (!base_tag_is(&t, "script") && !base_tag_is(&t, "style"))
                out->words += count_words(t.start, t.len);
            continue;
        }
        if (t.kind != BASE_TAG_START && t.kind != BASE_TAG_END)
            continue;
        uint32_t h = name_hash(t.name, t.name_len);
        if (t.kind == BASE_TAG_END) {
            for (size_t k = 0; k < n && k < 32; k++) {
                if (stack[n - 1 - k].h == h) {
                    for (size_t j = n - 1 - k; j < n; j++)
                        strict_n -= (size_t)stack[j].strict;
                    n -= k + 1;
                    break;
                }
            }
            continue;
        }
        out->elements++;
        /* gumbo checks each attribute against all before it. */
        size_t attrs = 0;
        base_tag_attrs it;
        base_tag_attrs_init(&it, &t);
        base_tag_attr a;
        while (base_tag_attrs_next(&it, &a))
            attrs++;
        if (attrs > out->max_attrs)
            out->max_attrs = attrs;
        if (t.raw_text)
            continue;
        if (base_tag_is(&t, "select")) {
            base_tag_skip_content(&s, &t);
            continue;
        }
        /* "<div/>" opens a div in HTML: only void elements never nest. */
        if (base_tag_in(t.lower, void_elements))
            continue;
        if (base_grow(&stack, &cap, n + 1, sizeof *stack)) {
            free(stack);
            return -1;
        }
        int strict = base_tag_in(t.lower, strict_elements);
        stack[n++] = (struct open){h, strict};
        strict_n += (size_t)strict;
        if ((int)n > deepest)
            deepest = (int)n;
        if ((int)strict_n > strict_deepest)
            strict_deepest = (int)strict_n;
    }
    free(stack);
    out->depth = deepest;
    out->strict_depth = strict_deepest;
    return 0;
}
