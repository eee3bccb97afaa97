/* tools/: a corpus of pages on disk and the texts they are scored against. */
#ifndef GLANCE_TOOLS_CORPUS_H
#define GLANCE_TOOLS_CORPUS_H

#include <stddef.h>

#include <json-c/json.h>

typedef struct corpus_page {
    char *id;   /* the path below the corpus folder without .html / .htm /
                 * .html.gz / .htm.gz: the file name in a flat folder,
                 * "sphinx/pkg/page" in a tree */
    char *path;
    int gz;
} corpus_page;

/* The pages of a folder and of its subfolders (not of folders named with a
 * leading dot, nor through symbolic links to folders), sorted by id. 0, or
 * -1 with a message in `why`. */
int corpus_list(const char *dir, corpus_page **pages, size_t *n, char *why, size_t why_cap);
void corpus_free(corpus_page *pages, size_t n);

/* The folder of a page's file (its local stylesheets resolve against it),
 * malloc'd; NULL when out of memory. */
char *corpus_page_dir(const corpus_page *page);

/* Reads a page whole (decompressing .gz), at most `limit` bytes of HTML.
 * 0, or -1 with a message in `why`. *buf is malloc'd, NUL-terminated. */
int corpus_read(const corpus_page *page, size_t limit, char **buf, size_t *len, char *why,
                size_t why_cap);

/* A JSON file of {id: {"articleBody": text}}, optionally wrapped as
 * {"version": ..., "output": {...}} (the peers' files). Returns the inner
 * object (owned by *root, which the caller puts), or NULL with a message. */
json_object *corpus_load_texts(const char *path, json_object **root, char *why, size_t why_cap);

/* The articleBody of `id`, or NULL when absent (a bare string is taken too). */
const char *corpus_text(json_object *texts, const char *id);

/* The string `key` of `id`'s entry (the truth's "type", "group"), or NULL
 * when absent or not a string. */
const char *corpus_field(json_object *texts, const char *id, const char *key);

/* The strings of the array `key` of `id`'s entry (the truth's "with" and
 * "without"): *n of them in *v, which points into the JSON and which the
 * caller frees. 1 when there is such an array (perhaps empty; items that are
 * not strings left out), 0 when not (*v NULL, *n 0), -1 when out of
 * memory. */
int corpus_strings(json_object *texts, const char *id, const char *key, const char ***v,
                   size_t *n);

/* A corpus to run: the texts its pages are scored against, and the pages. */
typedef struct corpus {
    json_object *root;  /* owns `truth` */
    json_object *truth; /* {id: {"articleBody": text}} (corpus_text reads it) */
    corpus_page *pages; /* sorted by id */
    size_t n;
} corpus;

/* The start glance bench and glance sweep share: the truth file loaded and
 * the pages of `dir` listed. 0; or EXIT_BADINPUT after a line on stderr
 * ("glance CMD: why"), with nothing left to free. */
int corpus_start(const char *cmd, const char *dir, const char *truth_path, corpus *c);
/* Frees the pages and the texts. */
void corpus_end(corpus *c);

#endif
