/* gce/: Grid, Centering, Expanding (Jung et al., IEEE Access 2022, paper 002)
 * over the laid-out dom tree.
 *
 * Terms as in the paper: window S_w = (w0, h0), document S_d = (w1, h1),
 * C_w = (w0/2, h0/2), C_d = (w1/2, h1/2).
 */
#ifndef GLANCE_GCE_H
#define GLANCE_GCE_H

#include "dom/dom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gce_diff_target {
    GCE_DIFF_CHILD = 0,  /* the node before the width jump (the paper's text) */
    GCE_DIFF_PARENT = 1  /* the wider parent (the paper's pseudocode) */
} gce_diff_target;

typedef struct gce_params {
    int window_w, window_h;  /* S_w; default 1920x1080 */
    int grid_rows, grid_cols; /* cells of the window; default 7x8 */
    double alpha;            /* scroll factor of the FIA; default 2 */
    double beta;             /* link node area density threshold; default 0.5 */
    double dw;               /* width jump factor Δw; default 1.7 */
    gce_diff_target diff_target;
    /* Which elements count as a dense link *area* when excluding cells (the
     * paper leaves it open; DESIGN.md: a block of some size holding several
     * links): block-level, visible, D_l > beta, at least link_area_min_links
     * link containers, and an area of at least link_area_min_cells cells. */
    int link_area_min_links;      /* default 3 */
    double link_area_min_cells;   /* default 0.25 */
    /* An element whose extent covers at least this share of the page (and
     * <html>, <body>) never makes the text under it link text: the paper
     * means menus and ad blocks, and a page-wide wrapper is the page. Without
     * it, a page whose menus outweigh its article (every menu item a
     * full-width block when the external CSS is missing) has no low-link
     * text at all. Above 1: the paper's literal reading. Default 0.9. */
    double link_text_page_share;
} gce_params;

void gce_params_default(gce_params *p);

typedef struct gce_point {
    double x, y;
} gce_point;

typedef enum gce_cell_state {
    GCE_CELL_KEPT = 0,
    GCE_CELL_EDGE = 1,      /* outer ring of the FIA grid */
    GCE_CELL_LINK = 2       /* overlaps a dense link area */
} gce_cell_state;

typedef enum gce_rule {
    GCE_RULE_TAG = 0,   /* first <article> on the walk: M_tag */
    GCE_RULE_ATTR = 1,  /* first attribute value holding "article" or "content": M_attr */
    GCE_RULE_DIFF = 2,  /* width jump > dw: M_diff */
    GCE_RULE_NONE = 3   /* no rule fired: the walk ended at <body> */
} gce_rule;

typedef struct gce_candidate {
    int walk;               /* 0, 1, 2: from E1, E2, E3 */
    gce_rule rule;
    const dom_node *node;
    double density;         /* text node area density D_t */
    int best;               /* 1: may be M_best (not <body>, height >= h0/2) */
} gce_candidate;

typedef struct gce_result {
    dom_box fia;                   /* (0, 0, w0, min(alpha*h0, h1)) or S_w */
    int rows, cols;                /* FIA grid: rows = ceil(FIA height / cell height) */
    double cell_w, cell_h;
    unsigned char *cells;          /* rows*cols gce_cell_state, row-major; malloc'd */
    size_t n_kept;
    gce_point window_centre, document_centre;
    gce_point centres[3];          /* C1, C2, C3 */
    const dom_node *leaves[3];     /* E1, E2, E3 (NULL when no low-link-density text) */
    gce_candidate *candidates;     /* malloc'd */
    size_t n_candidates;
    const dom_node *chosen;        /* NULL when GCE failed */
    int chosen_walk;               /* 0..2, the M_n chosen; -1 when failed */
    int chosen_best;               /* 1 when chosen as M_best */
    const char *failure;           /* why GCE failed (static string), NULL on success */
} gce_result;

/* Runs the method. Returns 0 when a main-content node was chosen, 1 when
 * GCE failed (result->failure says why; all other fields are filled as far as
 * the method got), -1 when out of memory. Free with gce_result_free. */
int gce_run(const dom_doc *doc, const gce_params *params, gce_result *result);
void gce_result_free(gce_result *result);

/* The pieces, exposed for tests and for the other extractors. ----------- */

/* Link node area density D_l(e) = A_l(e) / A(e): the area of the link
 * containers in e's subtree (e itself included, so D_l(<a href>) = 1) over
 * the area of e; a container inside another counts once, as the outer one. A link container is an <a href>
 * and, recursively, its parent while that parent has it as its only child
 * element and no text of its own. 0 when e has no link or no area. Writes
 * the number of link containers to *n_links when not NULL. */
double gce_link_area_density(const dom_node *e, int *n_links);

/* Text node area density D_t(e) = Σ A(T) / A(e) over the visible text
 * nodes T under e that are low-link-density, A(T) being the summed area of
 * T's line boxes. `high_link` is the flag array of gce_mark_high_link,
 * indexed by dom_node.index. 0 when e has no area. */
double gce_text_area_density(const dom_node *e, const unsigned char *high_link);

/* Marks every text node that has an ancestor element e with D_l(e) > beta
 * (the paper's high-density link text), e not being page-wide (see
 * gce_params.link_text_page_share; pass 2 for the literal reading). Returns a malloc'd array of dom_doc_count(doc)
 * flags (1 = high-link-density text), or NULL when out of memory. */
unsigned char *gce_mark_high_link(const dom_doc *doc, double beta, double page_share);

/* Distance from a point to a box; 0 inside. */
double gce_point_box_distance(gce_point p, dom_box b);

#ifdef __cplusplus
}
#endif

#endif
