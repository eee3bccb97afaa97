/* base/: a growable byte buffer, always NUL-terminated.
 *
 * Out of memory is sticky: after the first failed growth every append is a
 * no-op and base_buf_take gives NULL, so a writer appends freely and checks
 * once at the end. */
#ifndef GLANCE_BASE_BUF_H
#define GLANCE_BASE_BUF_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct base_buf {
    char *data;   /* NUL-terminated once anything was added; NULL before */
    size_t len;   /* bytes, the NUL not counted */
    size_t cap;
    int oom;      /* 1 after a failed growth */
} base_buf;

#define BASE_BUF_INIT {NULL, 0, 0, 0}

/* Room for `extra` more bytes (and the NUL); 0, or -1 when out of memory. */
int base_buf_reserve(base_buf *b, size_t extra);
void base_buf_add(base_buf *b, const char *p, size_t n);
void base_buf_puts(base_buf *b, const char *s);
void base_buf_putc(base_buf *b, char c);
void base_buf_printf(base_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void base_buf_vprintf(base_buf *b, const char *fmt, va_list ap);
/* Drops the last `n` bytes (all when n > len). */
void base_buf_shrink(base_buf *b, size_t n);
/* Empties the buffer, keeping its memory and clearing oom. */
void base_buf_reset(base_buf *b);
/* The text, malloc'd, for the caller to free ("" when nothing was added);
 * *len its length when len is not NULL. NULL when out of memory (the
 * buffer's memory is freed either way); the buffer is empty after. */
char *base_buf_take(base_buf *b, size_t *len);
void base_buf_free(base_buf *b);

#ifdef __cplusplus
}
#endif

#endif
