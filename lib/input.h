/* lib/: bytes from a file or a caller made into NUL-terminated UTF-8 that
 * the layout engine can take, or a clear reason why not. */
#ifndef GLANCE_LIB_INPUT_H
#define GLANCE_LIB_INPUT_H

#include <stddef.h>

#include "glance.h"

/* Reads a whole regular file of at most `limit` bytes. */
glance_status input_read_file(const char *path, size_t limit, char **buf, size_t *len,
                              char *why, size_t why_cap);

/* The charset input was read in, and what said so: "bom", "http" (the
 * Content-Type), "meta", "detected" (uchardet), or "utf-8" (valid UTF-8, or
 * UTF-8 but for a few broken bytes, or nothing better known). */
typedef struct input_charset {
    char name[64];
    const char *from;
} input_charset;

/* Empty input, input over `limit`, and binary data (compressed archives,
 * images, control bytes) are refused with a reason. A UTF-8 BOM is dropped,
 * UTF-16 with a BOM is converted; input that is not UTF-8 is read, through
 * iconv, in the charset `http_charset` names (NULL: none), else the one its
 * <meta> declares, else (unless it is UTF-8 with a few broken bytes) the
 * one uchardet detects. Invalid UTF-8 and NUL bytes become U+FFFD. *out is
 * malloc'd and NUL-terminated; `cs` (may be NULL) says which charset. */
glance_status input_to_utf8(const char *bytes, size_t len, size_t limit, const char *http_charset,
                            char **out, input_charset *cs, char *why, size_t why_cap);

/* A stylesheet as UTF-8: BOM, then (when not UTF-8) `http_charset`, its
 * @charset rule, or the page's charset, through iconv; invalid bytes
 * become U+FFFD. Malloc'd; NULL when out of memory. */
char *input_css_to_utf8(const char *bytes, size_t len, const char *http_charset,
                        const char *page_charset, size_t *out_len);

#endif
