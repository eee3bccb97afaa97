/* tools/: how glance bench scores a page against its truth and shows the
 * means of a run: the summary lines, the tables per page kind (the truth's
 * "type") and per script group (its "group"), and their JSON. */
#ifndef GLANCE_TOOLS_SCORES_H
#define GLANCE_TOOLS_SCORES_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "eval/eval.h"

/* One page's scores against its truth. */
typedef struct scores_page {
    eval_shingles sh;      /* the benchmark's tokens */
    eval_shingles scripts; /* the variant that reads every script */
    eval_prf lcs, blk;
    int has_snippets;      /* the truth has a "with" or a "without" list */
    eval_snippets snip;
} scores_page;

/* Scores `pred` (NULL: empty) against `truth_text` and, when `truth` has
 * them for `id`, its "with" and "without" snippets. 0, or -1 when out of
 * memory. */
int scores_page_run(json_object *truth, const char *id, const char *truth_text,
                    const char *pred, scores_page *out);

/* A page's scores added to a summary: every measure it has. */
void scores_summary_add(eval_summary *s, const scores_page *p);

/* The means of one value of a truth field ("article", "CJK"). */
typedef struct scores_row {
    char *name;
    eval_summary sum;
} scores_row;

typedef struct scores_table {
    const char *field; /* "type", "group" */
    scores_row *rows;
    size_t n, cap;
} scores_table;

/* The scores of a run: over all pages, per kind and per group. */
typedef struct scores_run {
    eval_summary all;
    scores_table by_type, by_group;
} scores_run;

void scores_run_init(scores_run *r);
/* Adds page `id`'s scores (to the rows of its "type" and "group" when the
 * truth gives them). 0, or -1 when out of memory. */
int scores_run_add(scores_run *r, json_object *truth, const char *id, const scores_page *p);
/* The summary lines, then the tables that have rows (most pages first:
 * both sort the rows). */
void scores_run_print(FILE *f, scores_run *r);
/* The summary as JSON, with "by_type" and "by_group" when they have rows. */
json_object *scores_run_json(scores_run *r);
void scores_run_free(scores_run *r);

/* The summary lines of one summary (the benchmark's shingles, the variant's,
 * token LCS, text blocks, snippets when there are). */
void scores_print(FILE *f, const eval_scores *s);
json_object *scores_json(const eval_scores *s);

#endif
