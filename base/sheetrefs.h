/* base/: the stylesheet references of a page and of a stylesheet, found
 * with a scan of the tags (no second HTML parse: render/ parses the page
 * once, with litehtml). The scan looks for what litehtml 0.6 will ask its
 * container for, and writes each reference the way litehtml will ask
 * (attribute entities decoded; render/ trims white space and quotes the
 * same way on its side): net/ fetches the sheets a page names, render/
 * asks whether one of them is a local file before the parse.
 */
#ifndef GLANCE_BASE_SHEETREFS_H
#define GLANCE_BASE_SHEETREFS_H

#include "base/tags.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Calls `fn` for each stylesheet reference of a page: the href of each
 * <link rel=stylesheet> and each @import in <style>, decoded, in document
 * order; and sets *base to the first <base href> (malloc'd; NULL when
 * none). Comments and the text of the other raw-text elements (<script>,
 * <textarea>, <title>, <iframe> ...: base/tags.h) are skipped. -1 when out
 * of memory or when `fn` returns non-zero. */
int base_sheet_refs_html(const char *html, size_t len, char **base,
                         int (*fn)(void *ud, const char *ref), void *ud);
/* The same for one token of a page, for a caller that scans it for more:
 * <link rel=stylesheet>, a <style>'s text, and a <base href> when `base`
 * is not NULL and *base is (set as above). */
int base_sheet_refs_token(const base_tag *t, char **base, int (*fn)(void *ud, const char *ref),
                          void *ud);
/* The same for the @import rules of a stylesheet. */
int base_sheet_refs_css(const char *css, size_t len, int (*fn)(void *ud, const char *ref),
                        void *ud);

#ifdef __cplusplus
}
#endif

#endif
