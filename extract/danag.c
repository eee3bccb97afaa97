/* extract/: DANAg (paper 004, Mohammadzadeh, Gottron, Schweiggert and
 * Nakhaeizadeh, 2011), on the laid-out tree.
 *
 * Segments. The paper counts content and code characters per line of "a
 * normalised source code representation". Ours is the page written out one
 * line per block-level element: a block's start tag opens a line, its
 * inline content and the markup of its inline elements follow on that line,
 * a block child opens the next one, and a block's end tag closes the line it
 * is on. Code is the markup as written (tag names, attribute names and
 * values, brackets and quotes); content is the displayed text, counted in
 * characters that are not white space, so that a script written without
 * spaces weighs what its characters weigh. The paper's preprocessing (no
 * script, no style, no comments) is the tree's: what is not displayed is
 * not on any line.
 *
 * Smoothing, formula (1): diff_i = Σ_{k=i-1..i+1} (T1_k - T2_k), a line
 * before the first or after the last counting 0.
 *
 * Boundary: the runs of lines with diff > 0 are the paragraphs; the one with
 * the most content (Σ T1 over its lines) is the first paragraph of the main
 * content; the main area then takes in every paragraph up and down whose gap
 * to it (lines between the two) is at most 20, again and again.
 */
#include "extract/extract.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/tags.h"

void extract_danag_params_default(extract_danag_params *p)
{
    p->gap = 20;
    p->radius = 1;
}

typedef struct dn_line {
    long t1, t2;
    const dom_node *first, *last; /* its text nodes with content */
} dn_line;

typedef struct dn_walk {
    const dom_node *top;
    dn_line *lines;
    size_t n, cap;
    int failed;
} dn_walk;

static int is_void(const char *tag)
{
    static const char *const tags[] = {"area", "base", "br", "col", "embed", "hr", "img", "input",
                                       "link", "meta", "param", "source", "track", "wbr", NULL};
    return base_tag_in(tag, tags);
}

/* Characters of a string (code points), white space included: markup is
 * code however it is spaced. */
static long cp_len(const char *s)
{
    long k = 0;
    for (; *s; s++)
        k += ((unsigned char)*s & 0xC0) != 0x80;
    return k;
}

/* <tag name="value" ...> */
static long start_tag_len(const dom_node *n)
{
    long k = 2 + cp_len(n->tag);
    for (size_t i = 0; i < n->n_attrs; i++) {
        if (!strcmp(n->attrs[i].name, DOM_ATTR_CUT)) { /* those render/ left out */
            k += strtol(n->attrs[i].value, NULL, 10);
            continue;
        }
        k += 1 + cp_len(n->attrs[i].name);
        if (n->attrs[i].value[0])
            k += 3 + cp_len(n->attrs[i].value);
    }
    return k;
}

static dn_line *cur(dn_walk *w)
{
    return w->n ? &w->lines[w->n - 1] : NULL;
}

/* Opens a new line, unless the current one is still empty. */
static void new_line(dn_walk *w)
{
    dn_line *l = cur(w);
    if (w->failed || (l && l->t1 == 0 && l->t2 == 0 && !l->first))
        return;
    if (base_grow(&w->lines, &w->cap, w->n + 1, sizeof *w->lines)) {
        w->failed = 1;
        return;
    }
    memset(&w->lines[w->n++], 0, sizeof *w->lines);
}

static int dn_enter(void *ctx, const dom_node *n)
{
    dn_walk *w = ctx;
    if (w->failed || dom_node_left_out(n))
        return 0;
    if (n->kind == DOM_TEXT) {
        long chars = extract_count_chars(n->text, n->text_len);
        if (chars > 0) {
            dn_line *l = cur(w);
            l->t1 += chars;
            if (!l->first)
                l->first = n;
            l->last = n;
        }
        return 1;
    }
    if (n->display == DOM_DISPLAY_BLOCK)
        new_line(w);
    if (!w->failed)
        cur(w)->t2 += start_tag_len(n);
    return 1;
}

static void dn_leave(void *ctx, const dom_node *n)
{
    dn_walk *w = ctx;
    if (w->failed || n->kind != DOM_ELEMENT)
        return;
    if (!is_void(n->tag))
        cur(w)->t2 += 3 + cp_len(n->tag); /* </tag> */
    if (n->display == DOM_DISPLAY_BLOCK)
        new_line(w);
}

typedef struct dn_region {
    size_t first, last;
    long content;
} dn_region;

int extract_danag(const dom_doc *doc, const extract_danag_params *p, extract_span *out,
                  extract_danag_info *info)
{
    extract_danag_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    const dom_node *top = extract_span_begin(doc, out);
    if (!top)
        return 1;
    dn_walk w = {.top = top};
    new_line(&w);
    dom_walk(top, dn_enter, dn_leave, &w);
    dn_region *reg = NULL;
    long *prefix = NULL;
    int rc = -1;
    if (w.failed)
        goto done;
    if (w.n > 0 && w.lines[w.n - 1].t1 == 0 && w.lines[w.n - 1].t2 == 0)
        w.n--; /* the line opened after </body> */
    info->lines = w.n;

    /* diff_i over a window of 2r + 1 lines, from prefix sums of T1 - T2. */
    prefix = malloc((w.n + 1) * sizeof *prefix);
    reg = malloc((w.n + 1) * sizeof *reg);
    if (!prefix || !reg)
        goto done;
    prefix[0] = 0;
    long total = 0;
    for (size_t i = 0; i < w.n; i++) {
        prefix[i + 1] = prefix[i] + w.lines[i].t1 - w.lines[i].t2;
        total += w.lines[i].t1;
    }
    size_t r = p->radius > 0 ? (size_t)p->radius : 0, nreg = 0;
    int in = 0;
    for (size_t i = 0; i < w.n; i++) {
        size_t a = i >= r ? i - r : 0, b = i + r + 1 < w.n ? i + r + 1 : w.n;
        long diff = prefix[b] - prefix[a];
        if (diff > 0) {
            if (!in)
                reg[nreg++] = (dn_region){i, i, 0};
            reg[nreg - 1].last = i;
            reg[nreg - 1].content += w.lines[i].t1;
            in = 1;
        } else {
            in = 0;
        }
    }
    size_t seed = 0;
    for (size_t k = 1; k < nreg; k++)
        if (reg[k].content > reg[seed].content)
            seed = k;
    if (nreg == 0 || reg[seed].content == 0) {
        out->failure = total > 0 ? "no line where content outweighs code"
                                 : "no displayed text on the page";
        rc = 1;
        goto done;
    }
    info->seed_first = reg[seed].first;
    info->seed_last = reg[seed].last;
    size_t first = reg[seed].first, last = reg[seed].last;
    size_t gap = p->gap > 0 ? (size_t)p->gap : 0;
    for (size_t k = seed + 1; k < nreg && reg[k].first - last - 1 <= gap; k++)
        last = reg[k].last;
    for (size_t k = seed; k-- > 0 && first - reg[k].last - 1 <= gap;)
        first = reg[k].first;
    info->area_first = first;
    info->area_last = last;
    long content = 0;
    for (size_t i = first; i <= last; i++) {
        content += w.lines[i].t1;
        if (w.lines[i].first && !out->first)
            out->first = w.lines[i].first;
        if (w.lines[i].last)
            out->last = w.lines[i].last;
    }
    out->score = content;
    rc = out->first ? 0 : 1;
    if (rc)
        out->failure = "no displayed text on the page";
done:
    free(prefix);
    free(reg);
    free(w.lines);
    return rc;
}
