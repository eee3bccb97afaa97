/* tools/serve/: the reader page of GET /read, and the page it shows when
 * there is nothing to read.
 *
 * A header as a reader mode sets it (the site's name, the title, the
 * byline, the date, the reading time, the link to the original), the lead
 * image, then the content: glance's own clean HTML, which is an allow-list
 * of tags and attributes with absolute, script-free URLs (dom/). Every
 * string from the page is escaped here. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/escape.h"
#include "reader_css.h" /* generated from tools/serve/reader.css: reader_css[] */
#include "tools/serve/serve.h"

static void put_escaped(base_buf *b, const char *s)
{
    base_html_escape(b, s, strlen(s));
}

/* The head both pages share, up to <body>: `lang` and `dir` only in the
 * forms an attribute of ours may take. */
static void put_head(base_buf *b, const char *title, const char *lang, const char *dir,
                     const char *base)
{
    base_buf_puts(b, "<!DOCTYPE html>\n<html");
    if (lang && *lang && strlen(lang) < 36 && strspn(lang, "abcdefghijklmnopqrstuvwxyz"
                                                     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") ==
                                                  strlen(lang)) {
        base_buf_puts(b, " lang=\"");
        base_buf_puts(b, lang);
        base_buf_puts(b, "\"");
    }
    if (dir && (!strcmp(dir, "rtl") || !strcmp(dir, "ltr"))) {
        base_buf_puts(b, " dir=\"");
        base_buf_puts(b, dir);
        base_buf_puts(b, "\"");
    }
    base_buf_puts(b, "><head><meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"referrer\" content=\"no-referrer\">\n<title>");
    put_escaped(b, title);
    base_buf_puts(b, "</title>\n");
    if (base) {
        /* What the content still has relative (a page sent without its
         * address has nothing to resolve against) points at the original. */
        base_buf_puts(b, "<base href=\"");
        put_escaped(b, base);
        base_buf_puts(b, "\">\n");
    }
    base_buf_puts(b, "<style>\n");
    base_buf_add(b, (const char *)reader_css, sizeof reader_css);
    base_buf_puts(b, "</style>\n</head>\n<body>\n<main>\n");
}

static void put_source(base_buf *b, const char *src)
{
    base_buf_puts(b, "<p class=\"source\"><a href=\"");
    put_escaped(b, src);
    base_buf_puts(b, "\" rel=\"noreferrer noopener\">");
    put_escaped(b, src);
    base_buf_puts(b, "</a></p>\n");
}

/* Authors or byline, date and reading time on one line, a dot between. */
static void put_meta_line(base_buf *b, glance_result *res)
{
    base_buf line = BASE_BUF_INIT;
    int n = glance_result_author_count(res);
    const char *byline = glance_result_meta(res, "byline", NULL);
    if (n) {
        /* The names, as metadata give them: the page's byline often
         * carries the date too, which comes next on its own. */
        base_buf_puts(&line, "<span class=\"byline\">");
        for (int i = 0; i < n; i++) {
            if (i)
                base_buf_puts(&line, ", ");
            put_escaped(&line, glance_result_author(res, i, NULL));
        }
        base_buf_puts(&line, "</span>");
    } else if (byline) {
        base_buf_puts(&line, "<span class=\"byline\">");
        put_escaped(&line, byline);
        base_buf_puts(&line, "</span>");
    }
    const char *date = glance_result_meta(res, "published", NULL);
    if (date && strlen(date) >= 10) {
        /* The date as ISO 8601 writes it, the same in every language. */
        if (line.len)
            base_buf_puts(&line, " <span class=\"sep\">·</span> ");
        base_buf_puts(&line, "<time datetime=\"");
        put_escaped(&line, date);
        base_buf_puts(&line, "\">");
        base_buf_add(&line, date, 10);
        base_buf_puts(&line, "</time>");
    }
    int minutes = glance_result_reading_minutes(res);
    if (minutes > 0) {
        if (line.len)
            base_buf_puts(&line, " <span class=\"sep\">·</span> ");
        /* "min", the unit's symbol, reads in any language. */
        base_buf_printf(&line, "<span class=\"reading-time\">%d min</span>", minutes);
    }
    if (line.len) {
        base_buf_puts(b, "<p class=\"meta\" dir=\"auto\">");
        base_buf_add(b, line.data, line.len);
        base_buf_puts(b, "</p>\n");
    }
    base_buf_free(&line);
}

char *serve_reader_page(glance_result *res, const char *src, int link_base, size_t *len)
{
    base_buf b = BASE_BUF_INIT;
    const char *title = glance_result_title(res);
    const char *html = glance_result_html(res);
    put_head(&b, title[0] ? title : src ? src : "", glance_result_meta(res, "language", NULL),
             glance_result_meta(res, "dir", NULL), src && link_base ? src : NULL);
    base_buf_puts(&b, "<header>\n");
    const char *site = glance_result_meta(res, "site_name", NULL);
    if (site) {
        base_buf_puts(&b, "<p class=\"site\" dir=\"auto\">");
        put_escaped(&b, site);
        base_buf_puts(&b, "</p>\n");
    }
    if (title[0]) {
        base_buf_puts(&b, "<h1 dir=\"auto\">");
        put_escaped(&b, title);
        base_buf_puts(&b, "</h1>\n");
    }
    put_meta_line(&b, res);
    if (src)
        put_source(&b, src);
    base_buf_puts(&b, "</header>\n");
    /* The lead image, unless the content shows it already. */
    const char *image = glance_result_meta(res, "image", NULL);
    if (image && html && !strstr(html, image)) {
        base_buf_puts(&b, "<figure class=\"lead\"><img src=\"");
        put_escaped(&b, image);
        base_buf_puts(&b, "\" alt=\"\"></figure>\n");
    }
    base_buf_puts(&b, "<article dir=\"auto\">\n");
    base_buf_puts(&b, html ? html : "");
    base_buf_puts(&b, "\n</article>\n</main>\n</body></html>\n");
    return base_buf_take(&b, len);
}

char *serve_reader_error_page(int code, const char *status, const char *message, const char *src,
                              size_t *len)
{
    base_buf b = BASE_BUF_INIT;
    put_head(&b, "No reader view", NULL, NULL, NULL);
    base_buf_puts(&b, "<header>\n<h1>No reader view</h1>\n</header>\n<article class=\"failure\">\n"
                      "<p class=\"reason\" dir=\"auto\">");
    put_escaped(&b, message && *message ? message : status);
    base_buf_printf(&b, "</p>\n<p class=\"status\">HTTP %d, <code>", code);
    put_escaped(&b, status);
    base_buf_puts(&b, "</code></p>\n");
    /* The original, when it is one a browser may open. */
    if (src && (!strncasecmp(src, "http://", 7) || !strncasecmp(src, "https://", 8))) {
        base_buf_puts(&b, "<p class=\"original\"><a href=\"");
        put_escaped(&b, src);
        base_buf_puts(&b, "\" rel=\"noreferrer noopener\">");
        put_escaped(&b, src);
        base_buf_puts(&b, "</a></p>\n");
    }
    base_buf_puts(&b, "</article>\n</main>\n</body></html>\n");
    return base_buf_take(&b, len);
}
