/* meta/: what the files of meta/ share (not a contract of the folder). */
#ifndef GLANCE_META_INTERNAL_H
#define GLANCE_META_INTERNAL_H

#include "meta/meta.h"

/* What the JSON-LD of a page says of its main item (jsonld.c): every
 * string malloc'd, NULL when it says nothing. */
typedef struct meta_ld {
    char *title;       /* headline, else the name of an article */
    char *page_name;   /* the name of a WebPage (often the <title>) */
    char *description, *published, *modified, *language, *canonical, *image, *site_name;
    char *authors[META_MAX_AUTHORS];
    size_t n_authors;
} meta_ld;

/* 0, or -1 out of memory. */
int meta_ld_read(const meta_scripts *s, meta_ld *out);
void meta_ld_free(meta_ld *ld);

/* A text with its white space collapsed and trimmed (HTML's white space
 * and no-break spaces); malloc'd, NULL when out of memory. */
char *meta_fold(const char *s);

/* Adds `name` to a list of authors unless it is there (or empty): 0, or -1
 * out of memory. */
int meta_add_author(char **list, size_t *n, const char *name);

/* The visible byline near the headline (byline.c). */
typedef struct meta_byline {
    char *text;    /* the byline as shown */
    char *author;  /* the name in it, when its markup tells */
    char date[40]; /* ISO 8601, "" when none */
    const char *date_from; /* "time" (a <time datetime>) or "byline" (its text) */
    const char *from;      /* "byline:markup" or "byline:place" */
} meta_byline;

/* `headline` may be NULL (then markup alone finds a byline). 0, or -1 out
 * of memory. */
int meta_byline_find(const dom_doc *dom, const dom_node *headline, int month_first,
                     meta_byline *out);
void meta_byline_free(meta_byline *b);

#endif
