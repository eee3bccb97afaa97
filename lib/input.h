/* lib/: bytes from a file or a caller made into NUL-terminated UTF-8 that
 * the layout engine can take, or a clear reason why not. */
#ifndef GLANCE_LIB_INPUT_H
#define GLANCE_LIB_INPUT_H

#include <stddef.h>

#include "glance.h"

/* Reads a whole regular file of at most `limit` bytes. */
glance_status input_read_file(const char *path, size_t limit, char **buf, size_t *len,
                              char *why, size_t why_cap);

/* Empty input, input over `limit`, and binary data (compressed archives,
 * images, control bytes) are refused with a reason. A UTF-8 BOM is dropped,
 * UTF-16 with a BOM is converted, input that is not UTF-8 is read in the
 * charset its <meta> declares (through iconv), invalid UTF-8 and NUL bytes
 * become U+FFFD. *out is malloc'd and NUL-terminated. */
glance_status input_to_utf8(const char *bytes, size_t len, size_t limit, char **out,
                            char *why, size_t why_cap);

#endif
