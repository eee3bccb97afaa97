/* base/: the growable byte buffer. */
#include "base/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int base_buf_reserve(base_buf *b, size_t extra)
{
    if (b->oom)
        return -1;
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) {
        if (cap > (size_t)-1 / 2) {
            b->oom = 1;
            return -1;
        }
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p) {
        b->oom = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

void base_buf_add(base_buf *b, const char *p, size_t n)
{
    if (base_buf_reserve(b, n) != 0)
        return;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void base_buf_puts(base_buf *b, const char *s)
{
    base_buf_add(b, s, strlen(s));
}

void base_buf_putc(base_buf *b, char c)
{
    base_buf_add(b, &c, 1);
}

void base_buf_vprintf(base_buf *b, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, aq);
    va_end(aq);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        base_buf_add(b, tmp, (size_t)n);
        return;
    }
    if (base_buf_reserve(b, (size_t)n) != 0)
        return;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void base_buf_printf(base_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    base_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void base_buf_shrink(base_buf *b, size_t n)
{
    b->len = n > b->len ? 0 : b->len - n;
    if (b->data)
        b->data[b->len] = '\0';
}

void base_buf_reset(base_buf *b)
{
    b->len = 0;
    b->oom = 0;
    if (b->data)
        b->data[0] = '\0';
}

char *base_buf_take(base_buf *b, size_t *len)
{
    char *s = b->data;
    if (!b->oom && !s)
        s = calloc(1, 1);
    if (b->oom || !s) {
        free(b->data);
        s = NULL;
    } else if (len) {
        *len = b->len;
    }
    *b = (base_buf)BASE_BUF_INIT;
    return s;
}

void base_buf_free(base_buf *b)
{
    free(b->data);
    *b = (base_buf)BASE_BUF_INIT;
}
