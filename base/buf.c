/* base/: the growable byte buffer (buf.h). */
#include "base/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int base_buf_reserve(base_buf *b, size_t extra)
{
    if (b->oom)
        return -1;
    if (extra > SIZE_MAX - 1 - b->len) {
        b->oom = 1;
        return -1;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    /* Doubling keeps a writer that appends byte by byte linear. */
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
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
    if (n == 0 || base_buf_reserve(b, n) != 0)
        return;
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
    if (b->len + 1 < b->cap && !b->oom) { /* room for it and the NUL */
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return;
    }
    base_buf_add(b, &c, 1);
}

void base_buf_vprintf(base_buf *b, const char *fmt, va_list ap)
{
    if (b->oom)
        return;
    /* Straight into the free room; a second try with room enough when the
     * text was longer. */
    va_list again;
    va_copy(again, ap);
    size_t room = b->cap > b->len ? b->cap - b->len : 0;
    char tmp[1];
    int n = vsnprintf(room ? b->data + b->len : tmp, room ? room : sizeof tmp, fmt, ap);
    if (n > 0 && (size_t)n >= room) {
        if (base_buf_reserve(b, (size_t)n) == 0)
            vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
        else
            n = 0;
    }
    va_end(again);
    if (n > 0) {
        b->len += (size_t)n;
    } else if (b->data) {
        b->data[b->len] = '\0'; /* an encoding error wrote part of the text */
    }
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
    b->len = n < b->len ? b->len - n : 0;
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
    char *s = b->oom ? NULL : b->data ? b->data : calloc(1, 1);
    if (b->oom)
        free(b->data);
    if (len)
        *len = s ? b->len : 0;
    *b = (base_buf)BASE_BUF_INIT;
    return s;
}

void base_buf_free(base_buf *b)
{
    free(b->data);
    *b = (base_buf)BASE_BUF_INIT;
}
