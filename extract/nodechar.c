/* extract/: main content by node characteristics (paper 000, Liu et al.,
 * JCSE 2017), on the laid-out tree.
 *
 * Nodes. The paper keeps the container tags and deletes a container that
 * holds other containers (its tag filter), so the nodes it classifies are
 * the lowest blocks of the page. On a laid-out tree that is what a block
 * box holds between two of its block children: a run of inline content.
 * Interaction tags (script, form controls, embedded objects) are filtered
 * out first; subtrees that are not displayed never count.
 *
 * Text density, formula (1): δ(b) = T(b) / ((L(b) - 1)·maxLen), T(b) being
 * the characters on all lines but the last, L(b) the number of lines; one
 * line: T(b) / maxLen. Here the lines are the node's line boxes, and a
 * line's characters are measured where they are set: the width its text
 * covers, against the width maxLen characters would cover, which is that of
 * "one line on the screen at most": the longest line the page sets
 * anywhere, or the width of the node's block when that is narrower (a line
 * cannot outgrow its column). So δ is the mean fill of the node's lines but
 * the last, in any script and at any font size.
 *
 * Hyperlink density, formula (2): θ(b) = Ta(b) / T(b), characters inside
 * <a href> over all characters (white space never counts).
 *
 * Node fusion, formula (3): a node whose difference |Δδ|·α + |Δθ|·β from
 * the node before it (as merged so far) is under ε joins it; the merged
 * node's δ and θ are those of all its lines and characters.
 *
 * Classification, Fig. 2: θ ≥ θ0: noise. Otherwise content when δ ≥ δ0,
 * or when the next or the previous node has δ ≥ δ0; noise when neither
 * does (a node at either end of the page has no neighbour there).
 *
 * Result analyzer: the content, taken as one node, must have δ > 0.3 and
 * more than 2 punctuation marks (any script's); otherwise the page is a
 * catalogue of links and there is no main content to give.
 */
#include "extract/extract.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/tags.h"

void extract_nodechar_params_default(extract_nodechar_params *p)
{
    p->theta = 0.333;
    p->delta = 0.5;
    p->weight_text = 0.2;
    p->epsilon = 0.1;
    p->min_density = 0.3;
    p->min_punct = 2;
}

/* What a node (a lowest block, or several merged) knows of itself. */
typedef struct nc_stats {
    long chars, link_chars;
    size_t lines;
    double sum_w, sum_ref;   /* text width and block width, over all lines */
    double last_w, last_ref; /* the last line's */
} nc_stats;

typedef struct nc_block {
    nc_stats st;
    double line_x0, line_x1, line_y0, line_y1; /* the line being built */
    int line_open;
    double ref;              /* width of the block it is set in */
    double longest;          /* its longest line */
    size_t group;            /* the fused node it went into */
} nc_block;

typedef struct nc_walk {
    nc_block *blocks;
    size_t n_blocks, cap_blocks;
    int open;                 /* the last block still takes text */
    const dom_node **texts;   /* text nodes with characters, in order */
    size_t *text_block;
    size_t n_texts, cap_texts, cap_text_block;
    int failed;
} nc_walk;

/* Interaction tags (the paper's first category): filtered out with what
 * they hold. Style tags (b, i ...) stay: their text is the node's text. */
static int filtered(const dom_node *n)
{
    static const char *const tags[] = {"script", "noscript", "applet", "object", "embed",
                                       "input",  "button",   "select", "textarea", "option",
                                       "iframe", "svg",      NULL};
    return base_tag_in(n->tag, tags);
}

static double stats_delta(const nc_stats *s)
{
    if (s->lines > 1) {
        double ref = s->sum_ref - s->last_ref;
        return ref > 0 ? (s->sum_w - s->last_w) / ref : 0;
    }
    return s->last_ref > 0 ? s->last_w / s->last_ref : 0;
}

static double stats_theta(const nc_stats *s)
{
    return s->chars > 0 ? (double)s->link_chars / (double)s->chars : 0;
}

static void stats_merge(nc_stats *a, const nc_stats *b)
{
    a->chars += b->chars;
    a->link_chars += b->link_chars;
    a->lines += b->lines;
    a->sum_w += b->sum_w;
    a->sum_ref += b->sum_ref;
    a->last_w = b->last_w;
    a->last_ref = b->last_ref;
}

static void close_line(nc_block *b)
{
    if (!b->line_open)
        return;
    double w = b->line_x1 - b->line_x0;
    b->st.lines++;
    b->st.sum_w += w;
    b->st.last_w = w;
    if (w > b->longest)
        b->longest = w;
    b->line_open = 0;
}

static void add_line(nc_block *b, dom_box lb)
{
    if (b->line_open && lb.y < b->line_y1 && lb.y + lb.h > b->line_y0) {
        /* Overlaps the line being built: the same line (text, then a link,
         * then text again). */
        if (lb.x < b->line_x0)
            b->line_x0 = lb.x;
        if (lb.x + lb.w > b->line_x1)
            b->line_x1 = lb.x + lb.w;
        if (lb.y < b->line_y0)
            b->line_y0 = lb.y;
        if (lb.y + lb.h > b->line_y1)
            b->line_y1 = lb.y + lb.h;
        return;
    }
    close_line(b);
    b->line_open = 1;
    b->line_x0 = lb.x;
    b->line_x1 = lb.x + lb.w;
    b->line_y0 = lb.y;
    b->line_y1 = lb.y + lb.h;
}

/* The width a line of text at `n` can fill: its nearest block ancestor's
 * (one with a width: litehtml gives flex containers none). */
static double ref_width(const dom_node *n)
{
    for (const dom_node *a = n->parent; a; a = a->parent)
        if (a->display == DOM_DISPLAY_BLOCK && a->box.w > 0)
            return a->box.w;
    return 0;
}

static void add_text(nc_walk *w, const dom_node *n)
{
    long chars = extract_count_chars(n->text, n->text_len);
    if (chars == 0)
        return; /* the space node filter */
    if (!w->open) {
        if (base_grow(&w->blocks, &w->cap_blocks, w->n_blocks + 1, sizeof *w->blocks)) {
            w->failed = 1;
            return;
        }
        nc_block *b = &w->blocks[w->n_blocks++];
        memset(b, 0, sizeof *b);
        b->ref = ref_width(n);
        w->open = 1;
    }
    nc_block *b = &w->blocks[w->n_blocks - 1];
    b->st.chars += chars;
    if (n->in_link)
        b->st.link_chars += chars;
    if (n->n_lines)
        for (size_t i = 0; i < n->n_lines; i++)
            add_line(b, n->lines[i]);
    else
        add_line(b, n->box);
    if (base_grow(&w->texts, &w->cap_texts, w->n_texts + 1, sizeof *w->texts) ||
        base_grow(&w->text_block, &w->cap_text_block, w->n_texts + 1, sizeof *w->text_block)) {
        w->failed = 1;
        return;
    }
    w->texts[w->n_texts] = n;
    w->text_block[w->n_texts++] = w->n_blocks - 1;
}

static void end_block(nc_walk *w)
{
    if (w->open)
        close_line(&w->blocks[w->n_blocks - 1]);
    w->open = 0;
}

static int nc_enter(void *ctx, const dom_node *n)
{
    nc_walk *w = ctx;
    if (w->failed || dom_node_left_out(n))
        return 0;
    if (n->kind == DOM_TEXT) {
        add_text(w, n);
        return 1;
    }
    if (filtered(n))
        return 0;
    if (n->display == DOM_DISPLAY_BLOCK)
        end_block(w);
    return 1;
}

static void nc_leave(void *ctx, const dom_node *n)
{
    if (n->kind == DOM_ELEMENT && n->display == DOM_DISPLAY_BLOCK)
        end_block(ctx);
}

int extract_nodechar(const dom_doc *doc, const extract_nodechar_params *p, extract_span *out,
                     extract_nodechar_info *info)
{
    extract_nodechar_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    const dom_node *top = extract_span_begin(doc, out);
    if (!top)
        return 1;
    nc_walk w = {0};
    dom_walk(top, nc_enter, nc_leave, &w);
    end_block(&w);
    nc_stats *groups = NULL;
    unsigned char *content = NULL;
    int rc = -1;
    if (w.failed)
        goto done;
    info->blocks = w.n_blocks;
    /* maxLen: a line can hold no more than its block's width, nor more than
     * the longest line the page sets anywhere. */
    double longest = 0;
    for (size_t i = 0; i < w.n_blocks; i++)
        if (w.blocks[i].longest > longest)
            longest = w.blocks[i].longest;
    for (size_t i = 0; i < w.n_blocks; i++) {
        nc_block *b = &w.blocks[i];
        double ref = b->ref > 0 && b->ref < longest ? b->ref : longest;
        b->st.sum_ref = (double)b->st.lines * ref;
        b->st.last_ref = ref;
    }
    if (w.n_blocks == 0) {
        out->failure = "no displayed text on the page";
        rc = 1;
        goto done;
    }

    /* Node fusion (formula 3), each node against the one before it as
     * merged so far. */
    groups = malloc(w.n_blocks * sizeof *groups);
    content = calloc(w.n_blocks, 1);
    if (!groups || !content)
        goto done;
    size_t ng = 0;
    for (size_t i = 0; i < w.n_blocks; i++) {
        nc_block *b = &w.blocks[i];
        if (ng > 0) {
            nc_stats *g = &groups[ng - 1];
            double diff = fabs(stats_delta(g) - stats_delta(&b->st)) * p->weight_text +
                          fabs(stats_theta(g) - stats_theta(&b->st)) * (1 - p->weight_text);
            if (diff < p->epsilon) {
                stats_merge(g, &b->st);
                b->group = ng - 1;
                continue;
            }
        }
        groups[ng] = b->st;
        b->group = ng++;
    }
    info->nodes = ng;

    /* The neighbour rule (Fig. 2). */
    nc_stats all = {0};
    for (size_t i = 0; i < ng; i++) {
        if (stats_theta(&groups[i]) >= p->theta)
            continue;
        int dense = stats_delta(&groups[i]) >= p->delta ||
                    (i + 1 < ng && stats_delta(&groups[i + 1]) >= p->delta) ||
                    (i > 0 && stats_delta(&groups[i - 1]) >= p->delta);
        if (dense) {
            content[i] = 1;
            info->content++;
            stats_merge(&all, &groups[i]);
        }
    }

    /* The result analyzer. */
    size_t count = dom_doc_count(doc);
    out->picked = calloc(count ? count : 1, 1);
    if (!out->picked)
        goto done;
    out->n_picked = count;
    for (size_t t = 0; t < w.n_texts; t++) {
        const dom_node *n = w.texts[t];
        if (!content[w.blocks[w.text_block[t]].group] || n->index >= count)
            continue;
        out->picked[n->index] = 1;
        if (!out->first)
            out->first = n;
        out->last = n;
        info->punct += extract_count_punct(n->text, n->text_len);
    }
    info->density = stats_delta(&all);
    out->score = all.chars;
    if (info->content == 0) {
        out->failure = "no node with the text density of content: a catalogue of links";
        rc = 1;
    } else if (!(info->density > p->min_density && info->punct > p->min_punct)) {
        out->failure = "the content's text density or punctuation is too low: a catalogue of links";
        rc = 1;
    } else {
        rc = 0;
    }
    if (rc == 1) {
        free(out->picked);
        out->picked = NULL;
        out->n_picked = 0;
        out->first = out->last = NULL;
    }
done:
    free(groups);
    free(content);
    free(w.blocks);
    free(w.texts);
    free(w.text_block);
    if (rc < 0)
        extract_span_free(out);
    return rc;
}
