/* base/: text made safe inside HTML (escape.h). */
#include "base/escape.h"

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
