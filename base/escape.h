/* base/: text made safe inside HTML. */
#ifndef GLANCE_BASE_ESCAPE_H
#define GLANCE_BASE_ESCAPE_H

#include <stddef.h>

#include "base/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Appends `n` bytes of text escaped for HTML element content and for quoted
 * attribute values alike: & < > " ' become &amp; &lt; &gt; &quot; &#39;. */
void base_html_escape(base_buf *b, const char *p, size_t n);

/* The same into a new malloc'd string; NULL when out of memory. */
char *base_html_escaped(const char *s);
/* The reverse, for text escaped that way and no more: the references
 * above (and &apos;) and numeric ones (&#233; &#xE9;) become their
 * characters; any other '&' stays as it is. Appends to b. */
void base_html_unescape(base_buf *b, const char *p, size_t n);

/* Plain text as HTML paragraphs: one <p> per line, escaped as above
 * ("a\nb<c" gives "<p>a</p><p>b&lt;c</p>"). malloc'd; NULL when out of
 * memory. */
char *base_html_paragraphs(const char *text);

#ifdef __cplusplus
}
#endif

#endif
