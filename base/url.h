/* base/: URLs as a browser reads them in an attribute: cleaned the way the
 * URL standard's parser cleans its input, their scheme, and a reference
 * resolved against a base (RFC 3986, section 5.2).
 *
 * What the serialisers need (dom/: links and images made absolute, and
 * the schemes that would run script refused) and what the metadata need
 * (meta/: a canonical link or an image relative to the page). No network,
 * no percent-decoding, no IDNA: a URL stays the bytes the page wrote, with
 * only its dots and its base applied. */
#ifndef GLANCE_BASE_URL_H
#define GLANCE_BASE_URL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* `s` as the URL parser reads it: leading and trailing C0 controls and
 * spaces dropped, every tab, line feed and carriage return inside removed
 * (so "jav\tascript:" is "javascript:", as browsers follow it). malloc'd;
 * NULL when out of memory. */
char *base_url_clean(const char *s);

/* The scheme of a cleaned URL, lower-cased into `out` (cap bytes): its
 * length, or 0 when it has none (a relative reference). A scheme is a
 * letter, then letters, digits, '+', '-' or '.', then ':' (RFC 3986 3.1). */
size_t base_url_scheme(const char *url, char *out, size_t cap);

/* `ref` resolved against `base` (both cleaned first). A `ref` with a
 * scheme is itself; with no usable base (NULL, or without a scheme) a
 * relative `ref` comes back as it is. malloc'd; NULL when out of
 * memory. */
char *base_url_resolve(const char *base, const char *ref);

#ifdef __cplusplus
}
#endif

#endif
