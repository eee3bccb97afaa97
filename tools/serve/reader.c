/* tools/serve/: the reader page of GET /read. */
#include <string.h>

#include "base/buf.h"
#include "base/escape.h"
#include "reader_css.h" /* generated from tools/serve/reader.css: reader_css[] */
#include "tools/serve/serve.h"

static void put_escaped(base_buf *b, const char *s)
{
    base_html_escape(b, s, strlen(s));
}

char *serve_reader_page(glance_result *res, const char *src, int link_base, size_t *len)
{
    base_buf b = BASE_BUF_INIT;
    const char *title = glance_result_title(res);
    base_buf_puts(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                      "<meta name=\"referrer\" content=\"no-referrer\">\n<title>");
    put_escaped(&b, title[0] ? title : src ? src : "");
    base_buf_puts(&b, "</title>\n");
    if (src && link_base) {
        /* The content's relative links and images point at the original. */
        base_buf_puts(&b, "<base href=\"");
        put_escaped(&b, src);
        base_buf_puts(&b, "\">\n");
    }
    base_buf_puts(&b, "<style>\n");
    base_buf_add(&b, (const char *)reader_css, sizeof reader_css);
    base_buf_puts(&b, "</style>\n</head>\n<body>\n<main>\n<header>\n");
    if (title[0]) {
        base_buf_puts(&b, "<h1 dir=\"auto\">");
        put_escaped(&b, title);
        base_buf_puts(&b, "</h1>\n");
    }
    if (src) {
        base_buf_puts(&b, "<p class=\"source\"><a href=\"");
        put_escaped(&b, src);
        base_buf_puts(&b, "\" rel=\"noreferrer noopener\">");
        put_escaped(&b, src);
        base_buf_puts(&b, "</a></p>\n");
    }
    /* The content comes from glance's own serialiser (clean HTML: no
     * scripts, styles or event attributes). */
    base_buf_puts(&b, "</header>\n<article dir=\"auto\">\n");
    base_buf_puts(&b, glance_result_html(res));
    base_buf_puts(&b, "\n</article>\n</main>\n</body></html>\n");
    return base_buf_take(&b, len);
}
