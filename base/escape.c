/* base/: text made safe inside HTML (escape.h). */
#include "base/escape.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void base_html_escape(base_buf *b, const char *p, size_t n)
{
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep;
        switch (p[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&#39;"; break;
        default: continue;
        }
        base_buf_add(b, p + start, i - start);
        base_buf_puts(b, rep);
        start = i + 1;
    }
    base_buf_add(b, p + start, n - start);
}

char *base_html_escaped(const char *s)
{
    base_buf b = BASE_BUF_INIT;
    base_html_escape(&b, s, strlen(s));
    return base_buf_take(&b, NULL);
}

char *base_html_paragraphs(const char *text)
{
    base_buf b = BASE_BUF_INIT;
    base_buf_puts(&b, "<p>");
    for (const char *p = text;;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        base_html_escape(&b, p, n);
        if (!nl)
            break;
        base_buf_puts(&b, "</p><p>");
        p = nl + 1;
    }
    base_buf_puts(&b, "</p>");
    return base_buf_take(&b, NULL);
}

void base_html_unescape(base_buf *b, const char *p, size_t n)
{
    static const struct {
        const char *name;
        char c;
    } named[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}};
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '&') {
            base_buf_putc(b, p[i]);
            continue;
        }
        int done = 0;
        for (size_t k = 0; k < sizeof named / sizeof named[0] && !done; k++) {
            size_t l = strlen(named[k].name);
            if (i + 1 + l <= n && !strncmp(p + i + 1, named[k].name, l)) {
                base_buf_putc(b, named[k].c);
                i += l;
                done = 1;
            }
        }
        if (!done && i + 2 < n && p[i + 1] == '#') {
            int hex = p[i + 2] == 'x' || p[i + 2] == 'X';
            size_t j = i + 2 + (size_t)hex;
            unsigned long cp = 0;
            size_t d0 = j;
            while (j < n && j - d0 < 8 && (hex ? isxdigit((unsigned char)p[j]) : isdigit((unsigned char)p[j]))) {
                cp = cp * (hex ? 16 : 10) + (unsigned long)(isdigit((unsigned char)p[j]) ? p[j] - '0' : (tolower((unsigned char)p[j]) - 'a' + 10));
                j++;
            }
            if (j > d0 && j < n && p[j] == ';' && cp > 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF)) {
                char u[4];
                int k = 0;
                if (cp < 0x80) {
                    u[k++] = (char)cp;
                } else if (cp < 0x800) {
                    u[k++] = (char)(0xC0 | (cp >> 6));
                    u[k++] = (char)(0x80 | (cp & 0x3F));
                } else if (cp < 0x10000) {
                    u[k++] = (char)(0xE0 | (cp >> 12));
                    u[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                    u[k++] = (char)(0x80 | (cp & 0x3F));
                } else {
                    u[k++] = (char)(0xF0 | (cp >> 18));
                    u[k++] = (char)(0x80 | ((cp >> 12) & 0x3F));
                    u[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                    u[k++] = (char)(0x80 | (cp & 0x3F));
                }
                base_buf_add(b, u, (size_t)k);
                i = j;
                done = 1;
            }
        }
        if (!done)
            base_buf_putc(b, '&');
    }
}

