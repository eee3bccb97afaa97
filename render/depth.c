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


int render_span_value(const char *v, size_t n, int max)
{
    size_t i = 0;
    while (i < n && base_html_space(v[i]))
        i++;
    if (i < n && v[i] == '+')
        i++;
    long val = 0;
    int digits = 0;
    for (; i < n && v[i] >= '0' && v[i] <= '9'; i++, digits++)
        if (val <= max)
            val = val * 10 + (v[i] - '0');
    if (!digits || val < 1)
        return 1;
    return val > max ? max : (int)val;
}

/* One open table of the scan: its rows, its widest row, and the rowspans
 * still reaching into the rows below (a heap on the row they end before). */
typedef struct span_end {
    size_t end_row, cols;
} span_end;

typedef struct table_state {
    size_t rows, widest, width, carry;
    int in_row;
    span_end *heap;
    size_t n_heap, cap_heap;
} table_state;

static void heap_push(table_state *t, span_end e)
{
    size_t i = t->n_heap++;
    t->heap[i] = e;
    while (i > 0 && t->heap[(i - 1) / 2].end_row > t->heap[i].end_row) {
        span_end tmp = t->heap[i];
        t->heap[i] = t->heap[(i - 1) / 2];
        t->heap[(i - 1) / 2] = tmp;
        i = (i - 1) / 2;
    }
}

static void heap_pop(table_state *t)
{
    t->heap[0] = t->heap[--t->n_heap];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < t->n_heap && t->heap[l].end_row < t->heap[m].end_row)
            m = l;
        if (r < t->n_heap && t->heap[r].end_row < t->heap[m].end_row)
            m = r;
        if (m == i)
            break;
        span_end tmp = t->heap[i];
        t->heap[i] = t->heap[m];
        t->heap[m] = tmp;
        i = m;
    }
}

static void row_end(table_state *t)
{
    if (t->in_row && t->width > t->widest)
        t->widest = t->width;
    t->in_row = 0;
}

/* A row begins: the cells spanning into it from above take their columns. */
static void row_begin(table_state *t)
{
    row_end(t);
    t->rows++;
    while (t->n_heap > 0 && t->heap[0].end_row < t->rows) {
        t->carry -= t->heap[0].cols;
        heap_pop(t);
    }
    t->width = t->carry;
    t->in_row = 1;
}

static size_t table_close(table_state *t)
{
    row_end(t);
    free(t->heap);
    double cells = (double)t->rows * (double)t->widest;
    return cells > 1e18 ? (size_t)1e18 : (size_t)cells;
}

static size_t add_sat(size_t a, size_t b)
{
    return a > (size_t)-1 - b ? (size_t)-1 : a + b;
}

/* A cell of the innermost table: its spans, clamped. -1 when out of memory. */
static int table_cell(table_state *t, const base_tag *tag)
{
    if (!t->in_row)
        row_begin(t); /* a cell outside <tr>: the parser opens a row */
    int colspan = 1, rowspan = 1;
    base_tag_attrs it;
    base_tag_attrs_init(&it, tag);
    base_tag_attr a;
    while (base_tag_attrs_next(&it, &a)) {
        if (!a.value)
            continue;
        if (base_tag_attr_is(&a, "colspan"))
            colspan = render_span_value(a.value, a.value_len, RENDER_MAX_COLSPAN);
        else if (base_tag_attr_is(&a, "rowspan"))
            rowspan = render_span_value(a.value, a.value_len, RENDER_MAX_ROWSPAN);
    }
    t->width += (size_t)colspan;
    if (rowspan > 1) {
        if (base_grow(&t->heap, &t->cap_heap, t->n_heap + 1, sizeof *t->heap))
            return -1;
        heap_push(t, (span_end){t->rows + (size_t)rowspan - 1, (size_t)colspan});
        t->carry += (size_t)colspan;
    }
    return 0;
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
    table_state *tables = NULL;
    size_t n_tables = 0, cap_tables = 0;
    int failed = 0;
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
        if (t.kind == BASE_TAG_END && n_tables > 0 && base_tag_is(&t, "table")) {
            n_tables--;
            out->table_cells = add_sat(out->table_cells, table_close(&tables[n_tables]));
        }
        if (t.kind == BASE_TAG_START && base_tag_is(&t, "table")) {
            if (base_grow(&tables, &cap_tables, n_tables + 1, sizeof *tables)) {
                failed = 1;
                break;
            }
            tables[n_tables++] = (table_state){0};
        } else if (t.kind == BASE_TAG_START && n_tables > 0 && base_tag_is(&t, "tr")) {
            row_begin(&tables[n_tables - 1]);
        } else if (t.kind == BASE_TAG_START && n_tables > 0 &&
                   (base_tag_is(&t, "td") || base_tag_is(&t, "th"))) {
            if (table_cell(&tables[n_tables - 1], &t) != 0) {
                failed = 1;
                break;
            }
        }
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
        if (base_tag_in(t.lower, base_void_elements))
            continue;
        if (base_grow(&stack, &cap, n + 1, sizeof *stack)) {
            failed = 1;
            break;
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
    while (n_tables > 0) {
        n_tables--;
        out->table_cells = add_sat(out->table_cells, table_close(&tables[n_tables]));
    }
    free(tables);
    out->depth = deepest;
    out->strict_depth = strict_deepest;
    return failed ? -1 : 0;
}
