/* base/: reading UTF-8 a code point at a time. */
#ifndef GLANCE_BASE_UTF8_H
#define GLANCE_BASE_UTF8_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The code point at *p (which must be before `end`); advances *p past it.
 * What is not well-formed UTF-8 (a stray continuation byte, a sequence cut
 * short or by the end, an overlong form, a surrogate, a value over
 * U+10FFFF) gives U+FFFD and consumes one byte, so the next call starts
 * again at the following byte, as a browser's decoder resynchronises. */
uint32_t base_utf8_next(const char **p, const char *end);

#ifdef __cplusplus
}
#endif

#endif
