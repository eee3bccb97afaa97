/* meta/: what a page says about itself, and what its layout shows of it.
 *
 * The title without the site's name, the authors and the byline, the
 * dates published and modified (ISO 8601), the description, the language
 * and direction, the canonical URL, the site's name and the lead image,
 * each read from the page's <meta> tags, Open Graph, Twitter cards, JSON-LD
 * (json-c; @graph and arrays), microdata, and, when the markup says
 * nothing, from the byline and the date a reader sees under the headline.
 * Each value says where it came from ("og:title", "json-ld", "microdata",
 * "byline", ...).
 *
 * Nothing here reads words of one language: a byline is known by its
 * markup (rel=author, itemprop, a class or id naming it) or its place (a
 * short line right under the headline with a date or a link), a date by
 * its form (ISO 8601, numbers with dots, slashes or dashes, <time
 * datetime>), never by the names of months.
 *
 * JSON-LD lives in <script>s, whose text render/ keeps from litehtml, so
 * its texts are taken from the page's bytes before layout
 * (meta_scripts_scan, base/'s tag scanner); everything else is read off
 * the laid-out dom tree. */
#ifndef GLANCE_META_META_H
#define GLANCE_META_META_H

#include <stddef.h>

#include "dom/dom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum meta_field {
    META_TITLE = 0,
    META_BYLINE,      /* the byline as the page shows it */
    META_PUBLISHED,   /* ISO 8601: 2024-03-05, or 2024-03-05T08:00:00+01:00 */
    META_MODIFIED,
    META_DESCRIPTION,
    META_LANGUAGE,    /* a language tag: de, de-DE */
    META_DIR,         /* ltr or rtl */
    META_CANONICAL,   /* absolute when the page's URL is known */
    META_SITE_NAME,
    META_IMAGE,       /* the lead image's URL */
    META_N
} meta_field;

/* "title", "byline", "published", "modified", "description", "language",
 * "dir", "canonical_url", "site_name", "image": the keys of the JSON and
 * of glance_result_meta. NULL past the end. */
const char *meta_field_name(meta_field f);

typedef struct meta_value {
    char *value;      /* malloc'd; NULL: unknown */
    const char *from; /* static: "og:title", "json-ld", "microdata", "meta:author",
                         "html", "byline", "title", "h1", ... */
} meta_value;

#define META_MAX_AUTHORS 16

typedef struct meta_info {
    meta_value f[META_N];
    char *authors[META_MAX_AUTHORS]; /* malloc'd names, in the page's order */
    size_t n_authors;
    const char *authors_from;
} meta_info;

/* The JSON-LD of a page: the text of each <script type="application/ld+json">
 * (at most META_MAX_SCRIPTS of them, META_MAX_SCRIPT_BYTES in all). */
#define META_MAX_SCRIPTS 32
#define META_MAX_SCRIPT_BYTES (1u << 20)
typedef struct meta_scripts {
    char *texts[META_MAX_SCRIPTS];
    size_t n;
} meta_scripts;

/* Collects the JSON-LD texts of `html` (UTF-8). 0, or -1 out of memory. */
int meta_scripts_scan(const char *html, size_t len, meta_scripts *out);
/* The same from a tree that keeps the scripts' text (a browser's, whose
 * <script> elements hold it as a text node): 0, or -1 out of memory. */
int meta_scripts_from_dom(const dom_doc *dom, meta_scripts *out);
void meta_scripts_free(meta_scripts *s);

/* The URL the page's relative links resolve against: its <base href>
 * resolved against `page_url` (the address it was fetched from, NULL when
 * unknown), else `page_url`. malloc'd; NULL when there is none or out of
 * memory. */
char *meta_base_url(const dom_doc *dom, const char *page_url);

typedef struct meta_input {
    const dom_doc *dom;         /* laid out */
    const meta_scripts *jsonld; /* NULL: none */
    const char *base_url;       /* meta_base_url's; NULL: relative URLs stay relative */
    const dom_node *content;    /* the main content's element (a lead image may come from
                                   it); NULL: none */
} meta_input;

/* Reads everything; 0, or -1 out of memory (*out then freed). */
int meta_read(const meta_input *in, meta_info *out);
void meta_info_free(meta_info *m);

/* Dates ----------------------------------------------------------------- */

/* A date written in a machine's form (ISO 8601 with or without time and
 * zone, "2024-03-05 08:00", "20240305") as ISO 8601 into out: 1, or 0 when
 * it is none of them. */
int meta_date_iso(const char *s, char *out, size_t cap);

/* The first date in a text a reader sees, by its form alone: ISO 8601,
 * Y-M-D with dashes, dots or slashes, D.M.Y, and D/M/Y or M/D/Y (the
 * order told by a number over 12, else by `month_first`, the page's
 * convention). ISO 8601 into out: 1, or 0 when there is none. */
int meta_date_in_text(const char *s, int month_first, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
