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

#include "render/htmlscan.h"
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
            if (n == cap) {
                struct item *s = realloc(stack, 2 * cap * sizeof *stack);
                if (!s) {
                    deepest = -1;
                    n = 0;
                    break;
                }
                stack = s;
                cap *= 2;
            }
            stack[n++] = (struct item){c, it.depth + 1};
        }
    }
    free(stack);
    gumbo_destroy_output(&opt, out);
    return deepest;
}

static int is_void(const char *name, size_t len)
{
    static const char *const voids[] = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                                        "meta", "param", "source", "track", "wbr", "basefont", "bgsound",
                                        "frame", "keygen", "image", "menuitem"};
    for (size_t i = 0; i < sizeof voids / sizeof voids[0]; i++)
        if (strlen(voids[i]) == len && memcmp(voids[i], name, len) == 0)
            return 1;
    return 0;
}

/* Elements whose content is text up to their end tag. */
static int is_raw_text(const char *name, size_t len)
{
    static const char *const raw[] = {"script", "style", "textarea", "title", "xmp", "iframe",
                                      "noembed", "noframes", "plaintext"};
    for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++)
        if (strlen(raw[i]) == len && memcmp(raw[i], name, len) == 0)
            return 1;
    return 0;
}

static uint32_t name_hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint32_t)tolower((unsigned char)s[i])) * 16777619u;
    return h;
}

/* Elements that no start tag closes implicitly (nor reopens, as the
 * formatting elements are): a parser nests them as the tags do, so their
 * depth in the scan is a lower bound of the parser's up to what an end
 * tag of an ancestor closes (which the scan follows too). */
static int is_strict(const char *name, size_t len)
{
    static const char *const strict[] = {
        "div", "span", "section", "article", "aside", "nav", "header", "footer", "main",
        "blockquote", "ul", "ol", "dl", "center", "figure", "fieldset", "details", "label",
        "abbr", "cite", "q", "sub", "sup", "ins", "del", "mark", "time", "var", "kbd",
        "samp", "dfn", "bdi", "bdo", "data", "address", "hgroup", "menu", "dir"};
    for (size_t i = 0; i < sizeof strict / sizeof strict[0]; i++)
        if (strlen(strict[i]) == len && memcmp(strict[i], name, len) == 0)
            return 1;
    return 0;
}

static int is_space_char(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Words in text between tags: runs of characters other than white space. */
static size_t count_words(const char *p, const char *end, int *in_word)
{
    size_t n = 0;
    for (; p < end; p++) {
        int sp = is_space_char(*p);
        if (!sp && !*in_word)
            n++;
        *in_word = !sp;
    }
    return n;
}

/* Simulates a tree builder that never closes an element implicitly: an
 * open tag pushes (void elements excepted), an end tag pops back to the
 * nearest open element of that name among the top 32, or is ignored. Real
 * parsers close <p>, <li> and the like implicitly, so this counts deeper
 * than they build, except for what they add themselves (html, head, body,
 * tbody, reopened formatting elements), which `slack` covers. The elements
 * of is_strict are counted apart: the parser builds them at least as deep.
 * <select> is stepped over like raw text (a parser ignores most tags in
 * it). One pass, linear in the input. */
int render_html_count(const char *html, size_t len, render_html_counts *out)
{
    memset(out, 0, sizeof *out);
    const char *p = html, *end = html + len;
    size_t cap = 64, n = 0, strict_n = 0;
    struct open {
        uint32_t h;
        int strict;
    } *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return -1;
    int deepest = 0, strict_deepest = 0, in_word = 0;
    while (p < end) {
        const char *lt = memchr(p, '<', (size_t)(end - p));
        out->words += count_words(p, lt ? lt : end, &in_word);
        if (!lt)
            break;
        p = lt + 1;
        if (p < end && *p == '!') {
            p = htmlscan_skip_decl(p, end); /* comment, doctype or CDATA */
            in_word = 0;
            continue;
        }
        int closing = p < end && *p == '/';
        if (closing)
            p++;
        const char *name = p;
        while (p < end && (isalnum((unsigned char)*p) || *p == '-' || *p == ':'))
            p++;
        size_t nlen = (size_t)(p - name);
        if (nlen == 0 || !isalpha((unsigned char)name[0])) {
            /* A stray '<' is text. */
            out->words += count_words(lt, p, &in_word);
            continue;
        }
        in_word = 0;
        /* "<div/>" opens a div in HTML: only void elements never nest.
         * Attributes: gumbo checks each against all before it. */
        size_t attrs = 0;
        int in_space = 0;
        char quote = 0;
        for (; p < end && (quote || *p != '>'); p++) {
            if (quote) {
                quote = *p == quote ? 0 : quote;
                continue;
            }
            if (*p == '"' || *p == '\'') {
                quote = *p;
            } else if (is_space_char(*p)) {
                in_space = 1;
                continue;
            } else if (in_space && *p != '=' && *p != '/') {
                attrs++;
            }
            in_space = 0;
        }
        if (attrs > out->max_attrs)
            out->max_attrs = attrs;
        p = p < end ? p + 1 : end;
        char lower[16];
        size_t llen = nlen < sizeof lower ? nlen : 0;
        for (size_t i = 0; i < llen; i++)
            lower[i] = (char)tolower((unsigned char)name[i]);
        uint32_t h = name_hash(name, nlen);
        if (closing) {
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
        if (llen && (is_raw_text(lower, llen) || (llen == 6 && !memcmp(lower, "select", 6)))) {
            const char *close = htmlscan_find_end_tag(p, end, lower, llen);
            int code = (llen == 6 && !memcmp(lower, "script", 6)) ||
                       (llen == 5 && !memcmp(lower, "style", 5));
            if (!code) /* script and style hold no words */
                out->words += count_words(p, close, &in_word);
            in_word = 0;
            p = close;
            continue;
        }
        if (llen && is_void(lower, llen))
            continue;
        if (n == cap) {
            struct open *s = realloc(stack, 2 * cap * sizeof *stack);
            if (!s) {
                free(stack);
                return -1;
            }
            stack = s;
            cap *= 2;
        }
        int strict = llen && is_strict(lower, llen);
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
