/* tools/: glance bench --boxes-dir and --fidelity: each page's boxes from a
 * browser (tools/chromium-boxes.mjs, DIR/ID.json), extraction on them, and
 * how far litehtml's boxes and GCE's choice are from theirs. */
#ifndef GLANCE_TOOLS_FIDELITY_H
#define GLANCE_TOOLS_FIDELITY_H

#include <stddef.h>
#include <stdio.h>

#include "glance.h"
#include "tools/corpus.h"

/* What --fidelity measures on one page. */
typedef struct fidelity_page {
    int done;            /* the page had readable boxes and was measured */
    char *error;         /* else why not (malloc'd); NULL when it was */
    size_t compared, agree; /* elements of >= FIDELITY_MIN_CHARS characters */
    size_t unmatched;    /* nodes of glance's tree without a box */
    char *gce_litehtml;  /* GCE's node on litehtml's boxes; NULL: GCE failed */
    char *gce_browser;   /* ... on the browser's */
    glance_status browser_status; /* the extraction (the bench's method) on the browser's boxes */
    char *browser_text;  /* its text; NULL when none */
} fidelity_page;

#define FIDELITY_MIN_CHARS 50
#define FIDELITY_TOLERANCE 0.05

/* DIR/ID.json, malloc'd; NULL when out of memory. */
char *fidelity_boxes_path(const char *dir, const char *id);

/* Keeps the pages of the corpus that have boxes in `dir` (the others are
 * freed); returns how many were left out. */
size_t fidelity_keep_pages(const char *dir, corpus_page *pages, size_t *n);

/* Reads a page's boxes into *geo; GLANCE_OK, or a status with the message
 * in `why`. */
glance_status fidelity_read_boxes(const char *dir, const char *id, glance_geometry **geo,
                                  char *why, size_t why_cap);

/* The fidelity of `res` (the page laid out by litehtml with `opt`) to the
 * browser's boxes `geo`, GCE's node on both, and the extraction on the
 * browser's boxes. May run GCE again on `res`: take what is needed from it
 * first. 0, or -1 when out of memory. */
int fidelity_measure(glance_context *ctx, const char *html, size_t len, const glance_options *opt,
                     glance_result *res, const glance_geometry *geo, fidelity_page *out);

void fidelity_page_free(fidelity_page *p);

/* The table: pages measured, the mean share of elements that agree, the
 * same-node rate, GCE's failures on either side. */
void fidelity_print(FILE *f, const char *dir, const fidelity_page *pages, size_t n);

#endif
