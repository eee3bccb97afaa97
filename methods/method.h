/* methods/: the extractors as glance runs them, one descriptor each.
 *
 * A descriptor says everything the rest of glance needs to know about one
 * method: its name, its parameters (a table: key, type, offset, range,
 * default, one line of documentation; see base/param.h), how to run it on
 * the shared laid-out tree, and what it reports in the JSON. The options,
 * their defaults and checks, --help, the command-line flags, serve's query
 * parameters and docs/options.md's table all come from these tables (lib/), and
 * the result keeps one run record per method (lib/result.h), so adding a
 * method is one file here and one line of registry.def.
 *
 * The algorithms themselves live in gce/ and extract/; a descriptor adapts
 * one of them: its parameter struct is the algorithm's own (gce_params,
 * extract_danag_params, ...), so no option is ever copied field by field.
 */
#ifndef GLANCE_METHODS_METHOD_H
#define GLANCE_METHODS_METHOD_H

#include <stddef.h>

#include "base/param.h"
#include "dom/dom.h"
#include "extract/extract.h"
#include "gce/gce.h"

#ifdef __cplusplus
extern "C" {
#endif

struct json_object;

/* The page every method reads: the laid-out tree and what the pipeline
 * made of it once. */
typedef struct method_page method_page;
struct method_answer;

struct method_page {
    dom_doc *dom;
    const char *title;        /* the page's <title>, white space collapsed */
    int window_w, window_h;   /* the window the page was laid out in */
    extract_cleaner *cleaner; /* the clean-up inside an answer; NULL: off */
    /* Another method's answer on this page, run on first asking (a method
     * may weigh the others' answers, as the default scorer does). *status:
     * 0 it answered, 1 it found nothing (the answer's why says why); NULL
     * with *status -1 out of memory, -2 over the time budget (the run must
     * then return the same). Set by the pipeline. */
    const struct method_answer *(*answer_of)(const method_page *pg, const char *name,
                                             int *status);
    void *pipeline;           /* what answer_of reads */
    int browser;              /* 1: a browser laid the page out (engine chromium, a
                                 snapshot): its boxes are Chromium's */
};

/* What a method answers: an element (GCE) or a span of the page's text
 * (the others), its text and HTML after the clean-up, and why not when it
 * found nothing. */
typedef struct method_answer {
    const dom_node *node;     /* the element answered, or the one that holds
                                 the span; NULL when none */
    const extract_span *span; /* the span the text came from (in the method's
                                 state); NULL for an element's answer */
    const unsigned char *picked; /* or: the text nodes it is made of, by dom
                                 index (n_picked flags, in the method's state);
                                 NULL when node or span says */
    size_t n_picked;
    char *text, *html;        /* malloc'd; NULL when none */
    const char *rule;         /* the rule that chose the element ("tag", "attr",
                                 "diff" for GCE); NULL: none to tell */
    double density;           /* with a rule: the element's score by it */
    char why[256];            /* found nothing: why, without a prefix ("every
                                 candidate is <body> ...") */
} method_answer;

void method_answer_free(method_answer *a);

/* An element's text, without what the page's clean-up turns down; its HTML
 * is left NULL until method_answer_fill. 0; 1 when no visible text is left
 * (a->why says so); -1 out of memory. */
int method_answer_node(const method_page *pg, const dom_node *node, method_answer *a);

/* A span's text (its picked text nodes, without what the clean-up turns
 * down) and that text as paragraphs of clean HTML; a->node is the element
 * that holds it. 0; 1 when the clean-up left nothing (a->why says so); -1
 * out of memory. */
int method_answer_span(const method_page *pg, const extract_span *span, method_answer *a);

/* An answer made of some text nodes under `top` (picked[dom index] 1 for
 * the text nodes of the answer, count flags): their text, and the HTML of
 * `top` without the elements that hold text but none picked (an image, a
 * rule stay); a->node is the lowest element holding every picked text.
 * 0; 1 when nothing is picked (a->why); -1 out of memory. */
int method_answer_picked(const method_page *pg, const dom_node *top, const unsigned char *picked,
                         size_t count, method_answer *a);

/* The text nodes a walk of `top` with `keep` reaches (what dom_to_text_kept
 * gives the text of): member[index] set to 1 for each, count flags. 0. */
int method_members(const dom_node *top, dom_keep_fn keep, void *ctx, unsigned char *member,
                   size_t count);
/* The same for a span's text nodes (its picked ones), `keep` read on the
 * ancestors below the span's holder as extract_span_text_kept does. 0. */
int method_members_span(const extract_span *span, dom_keep_fn keep, void *ctx,
                        unsigned char *member, size_t count);

/* The answer of a method that looked for a span: `r` as the extract_*
 * functions return it (0 found, 1 none, with span->failure, -1 out of
 * memory); when nothing is found, out->why is "TITLE: reason". 0, 1, -1
 * as method_answer_span. With `later`, a found answer's text and HTML are
 * left NULL until method_answer_fill (the scorer reads only which text
 * nodes an answer holds, and writing a method's text was 3% of a page). */
int method_answer_found_span(const method_page *pg, int r, const extract_span *span,
                             const char *title, int later, method_answer *out);

/* Writes the text and HTML of an answer found with `later`, and the HTML of
 * an element's answer (method_answer_node leaves it NULL: the scorer and
 * the classic policy read only its text and its text nodes, and GCE's HTML
 * was written for nothing on most pages) or of a copy of one (nothing to do
 * for others). 0; -1 out of memory. */
int method_answer_fill(const method_page *pg, method_answer *a);

typedef struct method_desc {
    const char *name;      /* "gce": --method, the JSON, its parameters' prefix */
    const char *title;     /* for people: "GCE", "node characteristics" */
    const char *doc;       /* one line for --help and docs/options.md */
    const char *json_key;  /* the key of its details in the JSON (usually name) */
    /* Parameters: the table, whose keys start with "name.", and the size of
     * the struct its offsets point into (the options keep one per method). */
    const base_param *params;
    size_t n_params;
    size_t params_size;
    /* The method's own state of one run (what it saw, for the JSON and the
     * shot), zeroed before the run; freed with state_free (NULL: nothing
     * to free). */
    size_t state_size;
    void (*state_free)(void *state);
    /* Runs the method on the page: 0 answered (out's text non-empty), 1
     * found nothing (out->why), -1 out of memory, -2 stopped by the time
     * budget (an answer it asked for through answer_of). `params` is a
     * block of params_size bytes. */
    int (*run)(const method_page *pg, const void *params, void *state, method_answer *out);
    /* Its details in the JSON (json-c): what it saw and why it chose; NULL
     * when it has none. */
    struct json_object *(*details)(const method_page *pg, const void *state);
} method_desc;

/* The registry (registry.def): every method, in the order --help and the
 * JSON list them. */
extern const method_desc *const methods_all[];
extern const size_t methods_count;

/* The method called `name`; NULL when none. Its index in methods_all in
 * *index when not NULL. */
const method_desc *methods_find(const char *name, size_t *index);

/* The descriptors lib/ names itself: GCE (the shot draws its reasoning)
 * and the scorer (auto is the scorer). */
extern const method_desc method_gce, method_score;

/* GCE's state: the parameters it ran with (the window set from the page)
 * and all it saw. */
typedef struct method_gce_state {
    gce_params params;
    gce_result gce;
} method_gce_state;

/* The scorer's blocks (methods/score.c), as the shot draws them and
 * --explain lists them: what became of each. */
typedef enum method_score_fate {
    METHOD_SCORE_BELOW,           /* under the threshold (and the page's cut) */
    METHOD_SCORE_TAKEN,           /* in the answer */
    METHOD_SCORE_CUT,             /* at or over the threshold, under the page's cut */
    METHOD_SCORE_TITLE,           /* the headline, which glance gives as the title */
    METHOD_SCORE_BEFORE_HEADLINE, /* before and above a headline in an <h1> */
    METHOD_SCORE_NAV,             /* under <nav> or <footer> */
    METHOD_SCORE_SIDE_LABEL,      /* a label at the right edge of a line */
    METHOD_SCORE_PINNED,          /* in a box pinned to the window, outweighed */
    METHOD_SCORE_SHORT,           /* taken, but all taken too short or mostly links */
    METHOD_SCORE_N_FATES
} method_score_fate;

typedef struct method_score_block {
    dom_box box;                  /* the union of its lines */
    const dom_node *container;
    float p;                      /* stage two's probability */
    long chars;
    size_t rank;                  /* 1: the most probable block */
    unsigned char fate;           /* method_score_fate */
    unsigned char headline;       /* the page's headline (extract.h) */
} method_score_block;

typedef struct method_score_view {
    size_t n;
    const method_score_block *v;  /* in the page's order */
    double threshold, cut;        /* score.threshold and the page's own cut */
    int fallback;                 /* the classic answer stood */
} method_score_view;

/* The blocks the scorer saw, from its state; 0, or -1 when it scored none
 * (no text, a model that reads other features). */
int method_score_view_of(const void *state, method_score_view *out);
/* What a fate is, in a few words ("before the headline"); the short name
 * the JSON gives it ("before_headline"). */
const char *method_score_fate_text(int fate);
const char *method_score_fate_key(int fate);

/* Why block i has its probability (Saabas' contributions): down each tree
 * of the stage whose probability decides (stage two), each split's change
 * of value (the child's less the node's, an inner node's value being the
 * cover-weighted mean of its children's) goes to the split's feature. The
 * bias (the model's base and the trees' roots) plus the contributions is
 * the block's logit (returned). contrib holds method_score_feature_count()
 * numbers. NAN when the state has no such block. */
double method_score_explain(const void *state, size_t i, double *bias, double *contrib);
size_t method_score_feature_count(void);
const char *method_score_feature_key(size_t i);   /* "head_rel" */
const char *method_score_feature_label(size_t i); /* "after the headline" */

/* JSON pieces every report uses: a string or null, a box {x, y, w, h}. */
struct json_object *method_json_str(const char *s);
struct json_object *method_json_box(dom_box b);

/* The JSON of a span: found, score, first and last text nodes, failure. */
struct json_object *method_span_json(dom_doc *dom, const extract_span *span);

#ifdef __cplusplus
}
#endif

#endif
