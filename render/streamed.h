/* render/: a page streamed in pieces, each put where it belongs. Internal
 * to render/ (cssfilter.c rewrites the page with it).
 *
 * A server that streams a page (React's streaming server rendering, which
 * Next.js and others use) sends what is ready first and the rest as it
 * comes: in place of a part not yet ready, a placeholder, <template
 * id="B:0"> (after the comment <!--$?-->, before a fallback such as a
 * spinner, up to <!--/$-->) or <template id="P:1">; further down, the part
 * itself in a hidden element, <div hidden id="S:0">, and a script that
 * moves it into place, $RC("B:0","S:0") or $RS("S:1","P:1"). The page's
 * whole article can be such a part. A browser without scripts would show
 * the fallback and keep the part hidden, as a page that hides its body
 * until a script runs; a reader sees the part in place once the page has
 * loaded, and that is what glance shows (as for the hidden root or body,
 * ua.css and container.cpp): each part named by such a script is put at
 * its placeholder, the fallback left out, the hidden copy taken away. No
 * script is run: the scripts' texts are read for the pairs of ids alone.
 */
#ifndef GLANCE_RENDER_STREAMED_H
#define GLANCE_RENDER_STREAMED_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Placeholders, parts and instructions read on one page at most; a page
 * with more is put together as far as those go. */
#define STREAMED_MAX_PARTS 4096
/* Parts put within parts, at most: deeper ones are left out (no page
 * nests a tenth as deep; the writing recurses once a level). */
#define STREAMED_MAX_NESTING 256
/* Hidden elements open at once while the page is read: one inside more
 * is not taken for a part. */
#define STREAMED_MAX_OPEN 64

/* The page with its streamed parts in place: the number of parts paired
 * with their placeholders (those nested past the bound included),
 * with *out (malloc'd, NUL-terminated) and *out_len the page rewritten;
 * 0 with *out NULL when the page has none to place; -1 when out of
 * memory. */
int streamed_splice(const char *html, size_t len, char **out, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif
