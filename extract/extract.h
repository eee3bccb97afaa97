/* extract/: what the pipeline takes out of the chosen node and the page
 * around it: the title, the non-visual extractors that answer when GCE
 * does not (DESIGN.md, Fallbacks; BTE so far), later the clean-up inside
 * the chosen node. */
#ifndef GLANCE_EXTRACT_H
#define GLANCE_EXTRACT_H

#include "dom/dom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The text of the first <title> (in document order), white space collapsed
 * and trimmed; "" when there is none. malloc'd; NULL only when out of memory. */
char *extract_title(const dom_doc *doc);

/* A stretch of the page between two text nodes, in document order, both
 * included: what the non-visual extractors answer. An extractor that keeps
 * some text nodes of the stretch and not others (node characteristics,
 * XPath blocks) says which in `picked`. */
typedef struct extract_span {
    const dom_node *first, *last;
    long score;   /* the extractor's own measure of it (BTE: words - tags) */
    unsigned char *picked; /* NULL: every displayed text node from first to last;
                              else one flag per node (dom_node.index, n_picked of
                              them), 1 for the text nodes of the answer. malloc'd:
                              extract_span_free */
    size_t n_picked;
    const char *failure;   /* why nothing was found (static string); NULL when found */
} extract_span;

/* Frees what a span owns (picked) and empties it. */
void extract_span_free(extract_span *span);

/* BTE (paper 001): the stretch of the page with the most words and fewest
 * tags. 0 when found, 1 when the page has no displayed words or the
 * stretch is link text only (out->failure says which), -1 when out of
 * memory. */
int extract_bte(const dom_doc *doc, extract_span *out);

/* Words of a text as BTE counts them: runs between white space, and each
 * character of a script written without spaces (Han, Kana, Thai ...). */
long extract_count_words(const char *text, size_t len);

/* Characters of a text that are not white space (code points, any script),
 * and of those the punctuation marks (Unicode categories P*, any script:
 * "。", "،", "!" alike). */
long extract_count_chars(const char *text, size_t len);
long extract_count_punct(const char *text, size_t len);

/* The text of a span: the displayed text nodes from first to last, a line
 * break where the block around them changes, white space collapsed.
 * malloc'd; NULL when out of memory. */
char *extract_span_text(const extract_span *span);

/* The clean-up inside the chosen node. A cleaner is made once per page;
 * extract_cleaner_keep is a dom_keep_fn (dom_to_text_kept) that turns down
 * <nav>, <aside>, <footer>, forms and their controls, any block whose text
 * is more than `max_link_share` link text, and a heading (h1-h3) whose text
 * is part of `title` (the page's <title>; NULL or under 10 bytes: no such
 * rule). NULL when out of memory. */
typedef struct extract_cleaner extract_cleaner;
extract_cleaner *extract_cleaner_new(const dom_doc *doc, double max_link_share,
                                     const char *title);
void extract_cleaner_free(extract_cleaner *c);
int extract_cleaner_keep(const dom_node *n, void *cleaner);

/* The text of a span without what `keep` turns down below the span's
 * holder (NULL: everything), and only its picked text nodes. */
char *extract_span_text_kept(const extract_span *span, dom_keep_fn keep, void *ctx);

/* The element that holds the whole span (the nearest common ancestor). */
const dom_node *extract_span_holder(const extract_span *span);

#ifdef __cplusplus
}
#endif

#endif
