/* lib/: shots. The page painted by render/ with cairo (or the browser's
 * screenshot), and on it, for the default method, every block the scorer
 * saw (methods/score.c: its probability, whether it was taken, the rule
 * that dropped it), the legend beside the page; for the others, what GCE
 * saw and chose (paper 002; DESIGN.md "GCE"): the FIA grid with its excluded
 * cells, the window and document centres C_w and C_d, the centroids C1-C3
 * and the leaves E1-E3 nearest them, every candidate M_n of the three walks
 * with its rule and text-area density D_t, and the node that answered.
 *
 * Nothing here runs unless a shot is asked for: extraction never paints.
 * The overlay lives in lib/ because it needs both render/ and gce/, which
 * know nothing of each other. */
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/grow.h"
#include "lib/context.h"
#include "lib/result.h"

/* The overlay's colours, named in the legend (docs/shot.md). */
typedef struct rgb {
    double r, g, b;
} rgb;
static const rgb EDGE = {0.16, 0.35, 0.86};     /* excluded: outer ring */
static const rgb LINK = {1.00, 0.47, 0.00};     /* excluded: dense link area */
static const rgb GRID = {0.35, 0.35, 0.35};
static const rgb CAND = {0.00, 0.50, 0.55};     /* candidates M_n */
static const rgb ANSWER = {0.902, 0.0, 0.494};  /* #e6007e, the chosen node */
static const rgb CENTRE[3] = {{0.84, 0.15, 0.16}, {0.17, 0.63, 0.17}, {0.12, 0.47, 0.71}};
static const rgb INK = {0.1, 0.1, 0.1};
static const rgb WHITE = {1, 1, 1};
#define EDGE_ALPHA 0.22
#define LINK_ALPHA 0.30
#define ANSWER_WIDTH 6
#define LABEL_SIZE 13.0
#define LABEL_H 18.0

/* The scorer's overlay (the default method's shot): each block's outline
 * coloured by its probability on SCORE_SCALE, the blocks taken filled, the
 * headline marked by a bar at its left, the blocks a rule dropped hatched
 * and named; the legend in a margin of LEGEND_W px right of the page.
 * tests/test_shot.c reads these colours back. */
static const rgb SCORE_SCALE[3] = {{0.25, 0.45, 0.85},  /* p 0: blue */
                                   {0.95, 0.60, 0.05},  /* p 0.5: amber */
                                   {0.80, 0.05, 0.15}}; /* p 1: crimson */
static const rgb TAKEN = {0.10, 0.70, 0.30};           /* fill of the blocks taken */
static const rgb HATCH = {0.478, 0.122, 0.635};        /* #7a1fa2, dropped by a rule */
static const rgb HEADLINE = {0.0, 0.0, 0.0};           /* the bar left of the headline */
static const rgb MARGIN = {0.96, 0.96, 0.96};
#define TAKEN_ALPHA 0.20
#define BLOCK_LINE 3     /* px, inside the block's box */
#define HATCH_STEP 10    /* px between the hatch's lines */
#define HEADLINE_BAR 6   /* px, left of the headline's box */
#define LEGEND_W 380

/* The image may hold this many bytes at most (4 per pixel). */
#define SHOT_MAX_BYTES ((size_t)512 << 20)
#define SHOT_MAX_SIDE 32767 /* cairo's limit for an image surface */

void glance_shot_options_default(glance_shot_options *o)
{
    memset(o, 0, sizeof *o);
    o->full = 0;
    o->overlay = 1;
    o->max_height = 16384;
}

static void color(cairo_t *cr, rgb c, double a)
{
    cairo_set_source_rgba(cr, c.r, c.g, c.b, a);
}

/* Labels already drawn, so that the next one does not cover them, and the
 * image they must stay inside. */
typedef struct labels {
    double (*r)[4];
    size_t n, cap;
    double w, h;
    char below[512]; /* what lies below the image, named at its bottom */
} labels;

static int overlaps(const labels *ls, double x, double y, double w, double h)
{
    for (size_t i = 0; i < ls->n; i++) {
        const double *r = ls->r[i];
        if (x < r[0] + r[2] && r[0] < x + w && y < r[1] + r[3] && r[1] < y + h)
            return 1;
    }
    return 0;
}

/* Keeps a label's box, so that later labels move off it; 0, or -1 when out
 * of memory (the box is then not kept). */
static int keep(labels *ls, double x, double y, double w, double h)
{
    if (base_grow(&ls->r, &ls->cap, ls->n + 1, sizeof *ls->r) != 0)
        return -1;
    double *r = ls->r[ls->n++];
    r[0] = x, r[1] = y, r[2] = w, r[3] = h;
    return 0;
}

/* A text on a filled box with its top left at (x, y), moved down while it
 * would cover an earlier label. */
static void label(cairo_t *cr, labels *ls, double x, double y, const char *text, rgb bg, rgb fg)
{
    cairo_text_extents_t ext;
    cairo_set_font_size(cr, LABEL_SIZE);
    cairo_text_extents(cr, text, &ext);
    double w = ext.x_advance + 8, h = LABEL_H;
    x = fmax(2, fmin(x, ls->w - w - 2));
    y = fmax(2, fmin(y, ls->h - h - 2));
    for (int i = 0; i < 40 && overlaps(ls, x, y, w, h); i++)
        y += h + 1;
    keep(ls, x, y, w, h); /* out of memory: drawn all the same, only not kept */
    color(cr, bg, 0.92);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
    color(cr, fg, 1);
    cairo_move_to(cr, x + 4, y + h - 5);
    cairo_show_text(cr, text);
}

/* A label for a mark whose top is at `top`; a mark below the image is named
 * in the note at its bottom instead. */
static void mark_label(cairo_t *cr, labels *ls, double top, double x, double y, const char *text,
                       const char *short_name, rgb bg)
{
    if (top < ls->h) {
        label(cr, ls, x, y, text, bg, WHITE);
        return;
    }
    size_t n = strlen(ls->below);
    snprintf(ls->below + n, sizeof ls->below - n, "%s%.64s at y %.0f", n ? ", " : "",
             short_name, top);
}

static void outline(cairo_t *cr, dom_box b, rgb c, double width, int dashed)
{
    /* Inside the box, so that a box at the image's edge shows whole. */
    double i = width / 2;
    if (b.w <= 2 * i || b.h <= 2 * i)
        i = 0;
    cairo_save(cr);
    color(cr, c, 1);
    cairo_set_line_width(cr, width);
    if (dashed) {
        double d[] = {8, 5};
        cairo_set_dash(cr, d, 2, 0);
    }
    cairo_rectangle(cr, b.x + i, b.y + i, b.w - 2 * i, b.h - 2 * i);
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* The answer, boldly, just outside its box so that its first letters stay
 * readable; inside where the box meets the image's edge. */
static void answer_outline(cairo_t *cr, dom_box b, const labels *ls)
{
    double i = ANSWER_WIDTH / 2.0;
    double x0 = fmax(b.x - i, i), y0 = fmax(b.y - i, i);
    double x1 = fmin(b.x + b.w + i, ls->w - i), y1 = fmin(b.y + b.h + i, ls->h - i);
    if (x1 <= x0 || y1 <= y0)
        return;
    cairo_save(cr);
    color(cr, ANSWER, 1);
    cairo_set_line_width(cr, ANSWER_WIDTH);
    cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
    cairo_stroke(cr);
    cairo_restore(cr);
}

static void crosshair(cairo_t *cr, gce_point p, rgb c)
{
    cairo_save(cr);
    color(cr, WHITE, 1);
    cairo_set_line_width(cr, 5);
    cairo_move_to(cr, p.x - 14, p.y);
    cairo_line_to(cr, p.x + 14, p.y);
    cairo_move_to(cr, p.x, p.y - 14);
    cairo_line_to(cr, p.x, p.y + 14);
    cairo_stroke_preserve(cr);
    color(cr, c, 1);
    cairo_set_line_width(cr, 2);
    cairo_stroke(cr);
    cairo_restore(cr);
}

static void dot(cairo_t *cr, gce_point p, rgb c)
{
    cairo_arc(cr, p.x, p.y, 7, 0, 2 * M_PI);
    color(cr, c, 1);
    cairo_fill_preserve(cr);
    color(cr, WHITE, 1);
    cairo_set_line_width(cr, 2);
    cairo_stroke(cr);
}

/* The point of box b nearest to p. */
static gce_point nearest(gce_point p, dom_box b)
{
    gce_point q = {fmin(fmax(p.x, b.x), b.x + b.w), fmin(fmax(p.y, b.y), b.y + b.h)};
    return q;
}

static const char *rule_name(gce_rule r)
{
    switch (r) {
    case GCE_RULE_TAG: return "tag";
    case GCE_RULE_ATTR: return "attr";
    case GCE_RULE_DIFF: return "diff";
    case GCE_RULE_NONE: break;
    }
    return "body";
}

static void hline(cairo_t *cr, double y, double w, const char *text, labels *ls)
{
    cairo_save(cr);
    color(cr, INK, 0.8);
    cairo_set_line_width(cr, 2);
    double d[] = {12, 6};
    cairo_set_dash(cr, d, 2, 0);
    cairo_move_to(cr, 0, y);
    cairo_line_to(cr, w, y);
    cairo_stroke(cr);
    cairo_restore(cr);
    label(cr, ls, 8, y - LABEL_H - 2, text, INK, WHITE);
}

/* Step 2-3: the FIA grid, its excluded cells shaded by reason. */
static void draw_grid(cairo_t *cr, const gce_result *g, int w, labels *ls, int full,
                      double window_h)
{
    for (int r = 0; g->cells && r < g->rows; r++)
        for (int c = 0; c < g->cols; c++) {
            unsigned char s = g->cells[(size_t)r * (size_t)g->cols + (size_t)c];
            if (s == GCE_CELL_KEPT)
                continue;
            color(cr, s == GCE_CELL_EDGE ? EDGE : LINK, s == GCE_CELL_EDGE ? EDGE_ALPHA : LINK_ALPHA);
            cairo_rectangle(cr, c * g->cell_w, r * g->cell_h, g->cell_w, g->cell_h);
            cairo_fill(cr);
        }
    cairo_save(cr);
    color(cr, GRID, 0.55);
    cairo_set_line_width(cr, 1);
    double bottom = g->rows * g->cell_h;
    for (int c = 0; c <= g->cols; c++) {
        double x = fmin(floor(c * g->cell_w) + 0.5, w - 0.5);
        cairo_move_to(cr, x, 0);
        cairo_line_to(cr, x, bottom);
    }
    for (int r = 0; r <= g->rows; r++) {
        double y = floor(r * g->cell_h) + 0.5;
        cairo_move_to(cr, 0, y);
        cairo_line_to(cr, w, y);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
    if (g->fia.h > window_h + 0.5)
        hline(cr, window_h, w, "bottom of the window (h0)", ls);
    if (full && g->fia.h < ls->h - 1)
        hline(cr, g->fia.h, w, "bottom of the first impression area", ls);
}

/* Steps 4-6: candidates, leaves, centres. Labels go last, over everything. */
static void draw_gce(cairo_t *cr, const glance_result *res, labels *ls)
{
    const gce_result *g = &result_gce(res)->gce;
    char text[512];
    /* GCE's pick is the answer unless auto let BTE overrule it. */
    int gce_answered = res->status == GLANCE_OK && res->answered == &method_gce;
    /* Each candidate node once, with every walk that reached it. */
    for (size_t i = 0; i < g->n_candidates; i++) {
        const gce_candidate *c = &g->candidates[i];
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= g->candidates[j].node == c->node;
        if (seen || !c->node)
            continue;
        outline(cr, c->node->box, CAND, 2, 1);
    }
    for (int i = 0; i < 3; i++) {
        const dom_node *e = g->leaves[i];
        if (!e)
            continue;
        for (size_t k = 0; k < e->n_lines || (k == 0 && e->n_lines == 0); k++)
            outline(cr, e->n_lines ? e->lines[k] : e->box, CENTRE[i], 2, 0);
    }
    /* Each centroid joined to its leaf; C_w and C_d. */
    for (int i = 0; i < 3; i++) {
        const dom_node *e = g->leaves[i];
        if (!e)
            continue;
        gce_point p = g->centres[i], best = nearest(p, e->box);
        double bd = INFINITY;
        for (size_t k = 0; k < e->n_lines; k++) {
            gce_point q = nearest(p, e->lines[k]);
            double d = hypot(q.x - p.x, q.y - p.y);
            if (d < bd)
                bd = d, best = q;
        }
        cairo_save(cr);
        color(cr, CENTRE[i], 1);
        cairo_set_line_width(cr, 2);
        cairo_move_to(cr, p.x, p.y);
        cairo_line_to(cr, best.x, best.y);
        cairo_stroke(cr);
        cairo_restore(cr);
    }
    crosshair(cr, g->window_centre, INK);
    crosshair(cr, g->document_centre, GRID);
    /* With no cell kept, GCE takes C_w for C1. */
    for (int i = 0; i < 3; i++)
        dot(cr, g->centres[i], CENTRE[i]);

    /* Labels: the answer and the candidates at their boxes' top left. */
    for (size_t i = 0; i < g->n_candidates; i++) {
        const gce_candidate *c = &g->candidates[i];
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= g->candidates[j].node == c->node;
        if (seen || !c->node)
            continue;
        size_t n = 0;
        if (c->node == g->chosen)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s",
                                  gce_answered ? "GCE's pick: " : "GCE's pick, overruled: ");
        for (size_t j = i; j < g->n_candidates && n < sizeof text; j++) {
            const gce_candidate *o = &g->candidates[j];
            if (o->node != c->node)
                continue;
            n += (size_t)snprintf(text + n, sizeof text - n, "%sM%d %s", j == i ? "" : ", ",
                                  o->walk + 1, rule_name(o->rule));
        }
        if (n < sizeof text)
            snprintf(text + n, sizeof text - n, "  D_t %.3f%s", c->density,
                     c->best ? "" : "  (nobest)");
        mark_label(cr, ls, c->node->box.y, c->node->box.x, c->node->box.y - ANSWER_WIDTH - LABEL_H,
                   text, c->node == g->chosen ? "GCE's pick" : "a candidate",
                   c->node == g->chosen && gce_answered ? ANSWER : CAND);
    }
    /* Leaves and centres: the same leaf or point named once. */
    for (int i = 0; i < 3; i++) {
        const dom_node *e = g->leaves[i];
        if (!e || (i > 0 && e == g->leaves[i - 1]) || (i > 1 && e == g->leaves[i - 2]))
            continue;
        size_t n = (size_t)snprintf(text, sizeof text, "E%d", i + 1);
        for (int j = i + 1; j < 3; j++)
            if (g->leaves[j] == e)
                n += (size_t)snprintf(text + n, sizeof text - n, " E%d", j + 1);
        mark_label(cr, ls, e->box.y, e->box.x + e->box.w + 4, e->box.y, text, text, CENTRE[i]);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(text, sizeof text, "C%d", i + 1);
        mark_label(cr, ls, g->centres[i].y, g->centres[i].x + 10, g->centres[i].y - LABEL_H / 2,
                   text, text, CENTRE[i]);
    }
    mark_label(cr, ls, g->window_centre.y, g->window_centre.x - 40, g->window_centre.y + 16, "Cw",
               "Cw", INK);
    mark_label(cr, ls, g->document_centre.y, g->document_centre.x - 40, g->document_centre.y + 16,
               "Cd", "Cd", GRID);
}

/* The legend, in the top right corner: what each mark means, and the run. */
static void draw_legend(cairo_t *cr, const glance_result *res, int w)
{
    char run[256], page[128], why[256] = "";
    const method_gce_state *gs = result_gce(res);
    if (gs)
        snprintf(run, sizeof run, "GCE grid %dx%d  alpha %g  beta %g  dw %g", gs->params.grid_rows,
                 gs->params.grid_cols, gs->params.alpha, gs->params.beta, gs->params.dw);
    else
        snprintf(run, sizeof run, "GCE did not run (method %s)",
                 res->answered ? res->answered->name : "none");
    snprintf(page, sizeof page, "window %dx%d   document %.0fx%.0f", res->window_w, res->window_h,
             dom_doc_width(res->dom), dom_doc_height(res->dom));
    if (res->status == GLANCE_OK)
        snprintf(why, sizeof why, "answer: %s, <%s>", res->answered ? res->answered->name : "?",
                 res->chosen && res->chosen->tag ? res->chosen->tag : "?");
    else
        snprintf(why, sizeof why, "no answer: %s",
                 res->message ? res->message : glance_strerror(res->status));
    struct row {
        int kind;
        const char *text;
    } rows[] = {
        {0, "excluded: edge cell"},
        {1, "excluded: dense link area"},
        {2, "Cw window centre, Cd document centre"},
        {3, "C1 C2 C3 centroids of the kept cells"},
        {4, "E1 E2 E3 low-link text nearest to them"},
        {5, "candidate: walk, rule, text-area density"},
        {6, "the answer"},
        {7, run},
        {7, page},
        {7, why},
    };
    size_t nrows = sizeof rows / sizeof rows[0];
    cairo_set_font_size(cr, LABEL_SIZE);
    double tw = 0;
    for (size_t i = 0; i < nrows; i++) {
        cairo_text_extents_t ext;
        cairo_text_extents(cr, rows[i].text, &ext);
        tw = fmax(tw, ext.x_advance + (rows[i].kind < 7 ? 44 : 0));
    }
    double lw = fmin(tw + 20, w - 24), lh = nrows * 20 + 14;
    double x0 = w - lw - 12, y0 = 12;
    cairo_save(cr);
    cairo_rectangle(cr, x0, y0, lw, lh);
    cairo_clip_preserve(cr);
    color(cr, WHITE, 0.93);
    cairo_fill_preserve(cr);
    color(cr, INK, 1);
    cairo_set_line_width(cr, 2);
    cairo_stroke(cr);
    for (size_t i = 0; i < nrows; i++) {
        double x = x0 + 10, y = y0 + 8 + i * 20, cx = x + 16, cy = y + 10;
        gce_point c = {cx, cy};
        switch (rows[i].kind) {
        case 0:
        case 1:
            color(cr, rows[i].kind ? LINK : EDGE, rows[i].kind ? LINK_ALPHA * 2 : EDGE_ALPHA * 2);
            cairo_rectangle(cr, x, y + 3, 32, 14);
            cairo_fill(cr);
            break;
        case 2:
            crosshair(cr, c, INK);
            break;
        case 3:
            for (int k = 0; k < 3; k++) {
                gce_point d = {x + 5 + k * 11, cy};
                cairo_arc(cr, d.x, d.y, 4.5, 0, 2 * M_PI);
                color(cr, CENTRE[k], 1);
                cairo_fill(cr);
            }
            break;
        case 4:
            for (int k = 0; k < 3; k++) {
                color(cr, CENTRE[k], 1);
                cairo_set_line_width(cr, 2);
                cairo_rectangle(cr, x + 1 + k * 11, y + 5, 8, 10);
                cairo_stroke(cr);
            }
            break;
        case 5:
            outline(cr, (dom_box){x, y + 3, 32, 14}, CAND, 2, 1);
            break;
        case 6:
            outline(cr, (dom_box){x, y + 1, 32, 18}, ANSWER, ANSWER_WIDTH, 0);
            break;
        default:
            break;
        }
        color(cr, INK, 1);
        cairo_move_to(cr, rows[i].kind < 7 ? x + 44 : x, y + 15);
        cairo_show_text(cr, rows[i].text);
    }
    cairo_restore(cr);
}

static void draw_cut(cairo_t *cr, int w, int h, double page_h)
{
    char text[160];
    snprintf(text, sizeof text, "cut at %d px: the page goes on to %.0f px (max_height)", h,
             page_h);
    cairo_save(cr);
    color(cr, INK, 0.88);
    cairo_rectangle(cr, 0, h - 28, w, 28);
    cairo_fill(cr);
    /* A torn edge above the band. */
    cairo_move_to(cr, 0, h - 28);
    for (int x = 0; x <= w; x += 12)
        cairo_line_to(cr, x, h - 28 - ((x / 12) % 2 ? 6 : 0));
    cairo_line_to(cr, w, h - 28);
    cairo_close_path(cr);
    cairo_fill(cr);
    cairo_set_font_size(cr, 14);
    color(cr, WHITE, 1);
    cairo_move_to(cr, 12, h - 9);
    cairo_show_text(cr, text);
    cairo_restore(cr);
}


/* The scorer's overlay ----------------------------------------------------- */

/* A probability's colour on the scale the legend shows. */
static rgb score_colour(double p)
{
    p = fmin(fmax(p, 0), 1);
    int k = p < 0.5 ? 0 : 1;
    double t = (p - 0.5 * k) / 0.5;
    rgb a = SCORE_SCALE[k], b = SCORE_SCALE[k + 1];
    return (rgb){a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

/* A block's box on whole pixels, as it is drawn (the test rounds alike). */
typedef struct pbox {
    double x0, y0, x1, y1;
} pbox;

static pbox snap(dom_box b)
{
    return (pbox){round(b.x), round(b.y), round(b.x + b.w), round(b.y + b.h)};
}

static int hatched(int fate)
{
    return fate != METHOD_SCORE_BELOW && fate != METHOD_SCORE_TAKEN;
}

static void hatch(cairo_t *cr, double x0, double y0, double x1, double y1)
{
    cairo_save(cr);
    cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
    cairo_clip(cr);
    color(cr, HATCH, 1);
    cairo_set_line_width(cr, 2);
    double hgt = y1 - y0;
    for (double x = x0 - fmod(x0 + y0, HATCH_STEP); x < x1 + hgt; x += HATCH_STEP) {
        cairo_move_to(cr, x, y0);
        cairo_line_to(cr, x - hgt, y1);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* A small label inside the box's top right corner, when it fits there and
 * covers no earlier label; 1 when drawn. */
static int inner_label(cairo_t *cr, labels *ls, pbox b, const char *text, rgb bg)
{
    cairo_text_extents_t ext;
    cairo_set_font_size(cr, 11);
    cairo_text_extents(cr, text, &ext);
    double w = ceil(ext.x_advance) + 6, h = 15;
    double x = b.x1 - BLOCK_LINE - w, y = b.y0 + BLOCK_LINE;
    if (x < b.x0 + BLOCK_LINE || y + h > b.y1 - BLOCK_LINE || y + h > ls->h ||
        overlaps(ls, x, y, w, h))
        return 0;
    if (keep(ls, x, y, w, h) != 0)
        return 0;
    color(cr, bg, 1);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
    color(cr, WHITE, 1);
    cairo_move_to(cr, x + 3, y + h - 4);
    cairo_show_text(cr, text);
    return 1;
}

/* Every block the scorer saw, within the image of height h. */
static void draw_score(cairo_t *cr, const method_score_view *v, labels *ls, int h)
{
    cairo_save(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < v->n; i++) {
            const method_score_block *k = &v->v[i];
            pbox b = snap(k->box);
            if (b.y0 >= h || b.x1 <= b.x0 || b.y1 <= b.y0)
                continue;
            double in = b.x1 - b.x0 > 2 * BLOCK_LINE && b.y1 - b.y0 > 2 * BLOCK_LINE ? BLOCK_LINE : 0;
            if (pass == 0 && k->fate == METHOD_SCORE_TAKEN) {
                color(cr, TAKEN, TAKEN_ALPHA);
                cairo_rectangle(cr, b.x0 + in, b.y0 + in, b.x1 - b.x0 - 2 * in, b.y1 - b.y0 - 2 * in);
                cairo_fill(cr);
            } else if (pass == 0 && hatched(k->fate)) {
                hatch(cr, b.x0 + in, b.y0 + in, b.x1 - in, b.y1 - in);
            } else if (pass == 1) {
                color(cr, score_colour(k->p), 1);
                if (in) {
                    cairo_set_line_width(cr, BLOCK_LINE);
                    cairo_rectangle(cr, b.x0 + BLOCK_LINE / 2.0, b.y0 + BLOCK_LINE / 2.0,
                                    b.x1 - b.x0 - BLOCK_LINE, b.y1 - b.y0 - BLOCK_LINE);
                    cairo_stroke(cr);
                } else {
                    cairo_rectangle(cr, b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0);
                    cairo_fill(cr);
                }
            } else if (pass == 2 && k->headline) {
                double x = fmax(0, b.x0 - HEADLINE_BAR - 1);
                color(cr, HEADLINE, 1);
                cairo_rectangle(cr, x, b.y0, HEADLINE_BAR, b.y1 - b.y0);
                cairo_fill(cr);
            }
        }
    cairo_restore(cr);
    /* Labels: each block's rank and probability where there is room; a
     * rule's name always, outside the box when it does not fit in it. */
    char text[160];
    for (size_t i = 0; i < v->n; i++) {
        const method_score_block *k = &v->v[i];
        pbox b = snap(k->box);
        if (b.y0 >= h || b.x1 <= b.x0 || b.y1 <= b.y0)
            continue;
        if (hatched(k->fate)) {
            snprintf(text, sizeof text, "#%zu %.2f %s", k->rank, k->p, method_score_fate_text(k->fate));
            if (!inner_label(cr, ls, b, text, HATCH)) {
                cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                                       CAIRO_FONT_WEIGHT_NORMAL);
                label(cr, ls, b.x0, b.y0 - LABEL_H - 1, text, HATCH, WHITE);
                cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                                       CAIRO_FONT_WEIGHT_BOLD);
            }
        } else {
            snprintf(text, sizeof text, "#%zu %.2f", k->rank, k->p);
            inner_label(cr, ls, b, text, score_colour(k->p));
        }
    }
}

/* The legend of the scorer's overlay, in the margin right of the page. */
static void draw_score_legend(cairo_t *cr, const glance_result *res, const method_score_view *v,
                              int w, int h, const char *below)
{
    size_t count[METHOD_SCORE_N_FATES] = {0}, heads = 0;
    for (size_t i = 0; i < v->n; i++) {
        count[v->v[i].fate]++;
        heads += v->v[i].headline;
    }
    cairo_save(cr);
    cairo_rectangle(cr, w, 0, LEGEND_W, h);
    cairo_clip(cr);
    color(cr, MARGIN, 1);
    cairo_paint(cr);
    color(cr, INK, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, w + 0.5, 0);
    cairo_line_to(cr, w + 0.5, h);
    cairo_stroke(cr);
    double x = w + 14, y = 24;
    char text[512];
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 15);
    color(cr, INK, 1);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, "glance's scorer (method auto)");
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, LABEL_SIZE);
    y += 22;
    if (res->status != GLANCE_OK)
        snprintf(text, sizeof text, "no answer: %s",
                 res->message ? res->message : glance_strerror(res->status));
    else if (v->fallback)
        snprintf(text, sizeof text, "answer: the classic policy's (no block stood)");
    else
        snprintf(text, sizeof text, "answer: %zu of %zu blocks taken", count[METHOD_SCORE_TAKEN], v->n);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, text);
    /* The scale: outline colour by probability, threshold and cut marked. */
    y += 26;
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, "outline: the block's probability");
    y += 8;
    double sw = LEGEND_W - 40;
    for (int i = 0; i < (int)sw; i++) {
        color(cr, score_colour(i / (sw - 1)), 1);
        cairo_rectangle(cr, x + i, y, 1, 14);
        cairo_fill(cr);
    }
    color(cr, INK, 1);
    const double ticks[] = {0, 0.5, 1};
    for (int t = 0; t < 3; t++) {
        snprintf(text, sizeof text, "%g", ticks[t]);
        cairo_move_to(cr, x + ticks[t] * (sw - 1) - (t == 2 ? 8 : t == 1 ? 8 : 0), y + 30);
        cairo_show_text(cr, text);
    }
    const double marks[] = {v->threshold, v->cut};
    const char *mark_names[] = {"threshold", "cut"};
    for (int t = 0; t < 2; t++) {
        double mx = x + fmin(fmax(marks[t], 0), 1) * (sw - 1);
        cairo_set_line_width(cr, 2);
        cairo_move_to(cr, mx, y - 3);
        cairo_line_to(cr, mx, y + 17);
        cairo_stroke(cr);
        (void)mark_names;
    }
    y += 48;
    snprintf(text, sizeof text, "threshold %.2f, this page's cut %.2f", v->threshold, v->cut);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, text);
    /* Swatches. */
    y += 14;
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    color(cr, WHITE, 1);
    cairo_rectangle(cr, x, y, 36, 18);
    cairo_fill(cr);
    color(cr, TAKEN, TAKEN_ALPHA);
    cairo_rectangle(cr, x, y, 36, 18);
    cairo_fill(cr);
    color(cr, score_colour(0.9), 1);
    cairo_set_line_width(cr, BLOCK_LINE);
    cairo_rectangle(cr, x + 1.5, y + 1.5, 33, 15);
    cairo_stroke(cr);
    color(cr, INK, 1);
    snprintf(text, sizeof text, "filled: taken (%zu)", count[METHOD_SCORE_TAKEN]);
    cairo_move_to(cr, x + 46, y + 14);
    cairo_show_text(cr, text);
    y += 26;
    color(cr, HEADLINE, 1);
    cairo_rectangle(cr, x, y, HEADLINE_BAR, 18);
    cairo_fill(cr);
    color(cr, INK, 1);
    snprintf(text, sizeof text, "bar: the headline%s", heads ? "" : " (none on this page)");
    cairo_move_to(cr, x + 46, y + 14);
    cairo_show_text(cr, text);
    y += 26;
    color(cr, WHITE, 1);
    cairo_rectangle(cr, x, y, 36, 18);
    cairo_fill(cr);
    hatch(cr, x, y, x + 36, y + 18);
    color(cr, INK, 1);
    cairo_move_to(cr, x + 46, y + 14);
    cairo_show_text(cr, "hatched: likely, dropped by a rule:");
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    for (int f = METHOD_SCORE_CUT; f < METHOD_SCORE_N_FATES; f++) {
        y += 18;
        snprintf(text, sizeof text, "%s (%zu)", method_score_fate_text(f), count[f]);
        cairo_move_to(cr, x + 56, y + 14);
        cairo_show_text(cr, text);
    }
    y += 30;
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, "#rank probability on each block, where there is room");
    /* The blocks dropped by a rule, by rank. */
    y += 26;
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, "dropped by a rule");
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    size_t shown = 0, dropped = 0;
    for (size_t i = 0; i < v->n; i++) {
        const method_score_block *k = &v->v[i];
        if (!hatched(k->fate))
            continue;
        dropped++;
        if (shown >= 16)
            continue;
        y += 18;
        snprintf(text, sizeof text, "#%zu %.2f  %s%s", k->rank, k->p, method_score_fate_text(k->fate),
                 k->box.y >= h ? " (below)" : "");
        cairo_move_to(cr, x + 8, y);
        cairo_show_text(cr, text);
        shown++;
    }
    if (dropped > shown) {
        y += 18;
        snprintf(text, sizeof text, "and %zu more", dropped - shown);
        cairo_move_to(cr, x + 8, y);
        cairo_show_text(cr, text);
    } else if (!dropped) {
        y += 18;
        cairo_move_to(cr, x + 8, y);
        cairo_show_text(cr, "none");
    }
    y += 30;
    snprintf(text, sizeof text, "window %dx%d   document %.0fx%.0f", res->window_w, res->window_h,
             dom_doc_width(res->dom), dom_doc_height(res->dom));
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, text);
    y += 18;
    snprintf(text, sizeof text, "%zu blocks, engine %s", v->n, res->engine ? res->engine : "?");
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, text);
    if (below && below[0]) {
        y += 18;
        snprintf(text, sizeof text, "below this image: %.400s", below);
        cairo_move_to(cr, x, y);
        cairo_show_text(cr, text);
    }
    cairo_restore(cr);
}

/* cairo's PNG reader from memory. */
typedef struct png_reader {
    const unsigned char *p;
    size_t len, at;
} png_reader;

static cairo_status_t read_png(void *closure, unsigned char *data, unsigned int len)
{
    png_reader *r = closure;
    if (r->len - r->at < len)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->p + r->at, len);
    r->at += len;
    return CAIRO_STATUS_SUCCESS;
}

static glance_status shot_surface(glance_context *ctx, glance_result *res,
                                  const glance_shot_options *opts, cairo_surface_t **out)
{
    *out = NULL;
    if (!ctx || !res || res->ctx != ctx)
        return GLANCE_EOPTION; /* the page's fonts are its own context's */
    glance_shot_options defaults;
    if (!opts) {
        glance_shot_options_default(&defaults);
        opts = &defaults;
    }
    if (!res || !res->dom || (!res->rdoc && !res->png))
        return GLANCE_EOPTION; /* never laid out, or by a browser without a screenshot */
    if (opts->max_height < 1 || opts->max_height > SHOT_MAX_SIDE)
        return GLANCE_EOPTION;
    /* The layout viewport the page was laid out in: a phone's window lays
     * a page without a meta viewport out 980 px wide (render/viewport.c),
     * and the shot shows all of it. */
    int w = res->page.window_w > 0 ? res->page.window_w : res->window_w;
    double h0 = res->page.window_h > 0 ? res->page.window_h : res->window_h, h1 = dom_doc_height(res->dom), page_h;
    if (opts->full) {
        page_h = fmax(h0, h1);
    } else if (result_gce(res)) {
        page_h = result_gce(res)->gce.fia.h;
    } else {
        gce_params p;
        gce_params_default(&p);
        page_h = h1 > h0 ? fmin(p.alpha * h0, h1) : h0;
    }
    /* Very tall pages are cut, never a failed allocation. */
    long cap = opts->max_height;
    long rows_budget = (long)(SHOT_MAX_BYTES / ((size_t)w * 4));
    if (cap > rows_budget)
        cap = rows_budget;
    long full_h = (long)ceil(page_h - 1e-9);
    if (full_h < 1)
        full_h = 1;
    int h = (int)(full_h > cap ? cap : full_h);
    int cut = full_h > cap;
    /* The default method's shot: the scorer's blocks, the legend beside
     * the page. Another method's (gce, classic...): GCE's reasoning. */
    method_score_view sv;
    const result_record *sr = result_record_get(res, &method_score);
    int scorer = opts->overlay && sr && sr->ran && sr->state &&
                 method_score_view_of(sr->state, &sv) == 0;

    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w + (scorer ? LEGEND_W : 0), h);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return GLANCE_ENOMEM;
    }
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    render_status rs = RENDER_OK;
    if (res->rdoc) {
        rs = render_paint(res->rdoc, cr, (dom_box){0, 0, w, h});
    } else {
        /* The browser's own picture of the page (engine chromium). */
        png_reader rd = {res->png, res->png_len, 0};
        cairo_surface_t *img = cairo_image_surface_create_from_png_stream(read_png, &rd);
        if (cairo_surface_status(img) == CAIRO_STATUS_SUCCESS) {
            cairo_set_source_surface(cr, img, 0, 0);
            cairo_rectangle(cr, 0, 0, w, h);
            cairo_fill(cr);
        } else {
            rs = RENDER_EPARSE;
        }
        cairo_surface_destroy(img);
    }
    if (rs == RENDER_OK && scorer) {
        labels ls = {.w = w, .h = h};
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        draw_score(cr, &sv, &ls, h);
        if (sv.fallback && res->status == GLANCE_OK && res->chosen) {
            answer_outline(cr, res->chosen->box, &ls);
            mark_label(cr, &ls, res->chosen->box.y, res->chosen->box.x,
                       res->chosen->box.y - ANSWER_WIDTH - LABEL_H, "the classic answer stood",
                       "the answer", ANSWER);
        }
        for (size_t i = 0; i < sv.n; i++)
            if (sv.v[i].fate == METHOD_SCORE_TAKEN && sv.v[i].box.y >= h) {
                size_t n = strlen(ls.below);
                snprintf(ls.below + n, sizeof ls.below - n, "%sblocks taken from y %.0f",
                         n ? ", " : "", sv.v[i].box.y);
                break;
            }
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        draw_score_legend(cr, res, &sv, w, h, ls.below);
        free(ls.r);
    } else if (rs == RENDER_OK && opts->overlay) {
        labels ls = {.w = w, .h = h};
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        if (result_gce(res))
            draw_grid(cr, &result_gce(res)->gce, w, &ls, opts->full, h0);
        if (res->status == GLANCE_OK && res->chosen)
            answer_outline(cr, res->chosen->box, &ls);
        if (result_gce(res))
            draw_gce(cr, res, &ls);
        if (res->status == GLANCE_OK && res->chosen && res->answered != &method_gce) {
            char text[64];
            snprintf(text, sizeof text, "answer: %s", res->answered ? res->answered->name : "?");
            mark_label(cr, &ls, res->chosen->box.y, res->chosen->box.x,
                       res->chosen->box.y - ANSWER_WIDTH - LABEL_H, text, "the answer", ANSWER);
        }
        if (ls.below[0]) {
            char text[600];
            snprintf(text, sizeof text, "below this image: %s", ls.below);
            label(cr, &ls, 8, h - LABEL_H - (cut ? 40 : 6), text, INK, WHITE);
        }
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        draw_legend(cr, res, w);
        free(ls.r);
    }
    if (rs == RENDER_OK && cut)
        draw_cut(cr, w, h, page_h);
    cairo_status_t cs = cairo_status(cr);
    cairo_destroy(cr);
    if (rs != RENDER_OK || cs != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return rs == RENDER_EPARSE ? GLANCE_ELAYOUT : GLANCE_ENOMEM;
    }
    cairo_surface_flush(s);
    *out = s;
    return GLANCE_OK;
}

/* cairo's PNG writer into a buffer. */
static cairo_status_t append(void *closure, const unsigned char *data, unsigned int len)
{
    base_buf *b = closure;
    base_buf_add(b, (const char *)data, len);
    return b->oom ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

glance_status glance_result_shot_png(glance_context *ctx, glance_result *res,
                                     const glance_shot_options *opts, unsigned char **png,
                                     size_t *len)
{
    *png = NULL;
    *len = 0;
    cairo_surface_t *s;
    glance_status st = shot_surface(ctx, res, opts, &s);
    if (st != GLANCE_OK)
        return st;
    base_buf b = BASE_BUF_INIT;
    cairo_status_t cs = cairo_surface_write_to_png_stream(s, append, &b);
    cairo_surface_destroy(s);
    if (cs != CAIRO_STATUS_SUCCESS) {
        base_buf_free(&b);
        return GLANCE_ENOMEM;
    }
    *png = (unsigned char *)base_buf_take(&b, len);
    return *png ? GLANCE_OK : GLANCE_ENOMEM;
}

glance_status glance_result_shot(glance_context *ctx, glance_result *res,
                                 const glance_shot_options *opts, const char *png_path)
{
    if (!png_path)
        return GLANCE_EOPTION;
    unsigned char *png;
    size_t len;
    glance_status st = glance_result_shot_png(ctx, res, opts, &png, &len);
    if (st != GLANCE_OK)
        return st;
    FILE *f = fopen(png_path, "wb");
    if (!f) {
        int err = errno;
        free(png);
        errno = err;
        return GLANCE_EIO;
    }
    size_t put = fwrite(png, 1, len, f);
    int err = put == len ? 0 : errno;
    if (fclose(f) != 0 && !err)
        err = errno;
    free(png);
    if (put != len || err) {
        errno = err ? err : EIO;
        return GLANCE_EIO;
    }
    return GLANCE_OK;
}
