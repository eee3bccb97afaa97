/* tools/serve/: the reader page of GET /read, and the page it shows when
 * there is nothing to read.
 *
 * A header as a reader mode sets it (the site's name, the title, the
 * byline, the date, the reading time, the link to the original), the lead
 * image, then the content: glance's own clean HTML, which is an allow-list
 * of tags and attributes with absolute, script-free URLs (dom/). Every
 * string from the page is escaped here. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/utf8.h"
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

/* ---- the body's own byline line ------------------------------------------
 *
 * The header shows the byline and the date; an article whose body opens
 * with the same line ("By NAME · DATE", in whatever language the page is
 * written) would show it twice. As Firefox's reader view does, that first
 * line is dropped. It is recognised by what it holds, not by words of any
 * language: a short first block that is the byline the metadata read, or
 * holds an author's name with little else than it, the date's digits and
 * punctuation. */

/* Letters and words' characters, as opposed to spaces, digits and
 * punctuation (ASCII's, general punctuation, the CJK and full-width ones). */
static int is_wordish(uint32_t c)
{
    if (c < 0x80)
        return isalpha((int)c);
    if ((c >= 0x2000 && c <= 0x206F) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFF0F) ||
        (c >= 0xFF1A && c <= 0xFF20) || c == 0xA0 || c == 0xB7 || c == 0x30FB)
        return 0;
    if (c >= 0xFF10 && c <= 0xFF19) /* full-width digits */
        return 0;
    return 1;
}

/* Text for comparing: white space collapsed to one space, ASCII letters
 * lower-cased, trimmed. */
static void normalise(base_buf *out, const char *p, size_t n)
{
    int space = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
            space = 1;
            continue;
        }
        if (c == 0xC2 && i + 1 < n && (unsigned char)p[i + 1] == 0xA0) { /* no-break space */
            i++;
            space = 1;
            continue;
        }
        if (space && out->len)
            base_buf_add(out, " ", 1);
        space = 0;
        char l = (char)tolower(c);
        base_buf_add(out, c < 0x80 ? &l : (const char *)&p[i], 1);
    }
}

static size_t count_chars(const char *p, size_t n, int wordish)
{
    const char *end = p + n;
    size_t k = 0;
    while (p < end) {
        uint32_t c = base_utf8_next(&p, end);
        k += !wordish || is_wordish(c);
    }
    return k;
}

/* The block elements a byline line is written in. */
static int line_tag(const char *t, size_t n)
{
    static const char *const tags[] = {"p", "div", "address", "header", "section"};
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
        if (strlen(tags[i]) == n && !strncasecmp(t, tags[i], n))
            return 1;
    return 0;
}

#define BYLINE_MAX_CHARS 160 /* a line, not a paragraph */
#define BYLINE_MAX_OTHER 40  /* word characters beside the names ("By", "Published", a month) */
#define BYLINE_MAX_WORDS 4   /* words beside the names: "By", "Published", a month; not a sentence */

/* Characters of the scripts written without spaces between words. */
static int unspaced(uint32_t c)
{
    return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) ||
           (c >= 0x0E00 && c <= 0x0EFF) || (c >= 0x1000 && c <= 0x109F) ||
           (c >= 0x1780 && c <= 0x17FF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000);
}

/* Words of a text: runs of word characters; in a script written without
 * spaces, two characters make a word. */
static size_t count_words(const char *p, size_t n)
{
    const char *end = p + n;
    size_t words = 0, run = 0, cjk = 0;
    while (p <= end) {
        uint32_t c = p < end ? base_utf8_next(&p, end) : (p++, 0);
        if (c && is_wordish(c) && !unspaced(c)) {
            run++;
            continue;
        }
        if (c && unspaced(c)) {
            cjk++;
            words += run > 0;
            run = 0;
            continue;
        }
        words += (run > 0) + (cjk + 1) / 2;
        run = cjk = 0;
    }
    return words;
}

/* Whether `text` (the first block's, normalised) is the byline line the
 * header shows. */
static int is_byline_line(glance_result *res, const char *text, size_t n)
{
    if (!n || count_chars(text, n, 0) > BYLINE_MAX_CHARS)
        return 0;
    base_buf t = BASE_BUF_INIT;
    int yes = 0;
    const char *byline = glance_result_meta(res, "byline", NULL);
    if (byline && *byline) {
        base_buf bl = BASE_BUF_INIT;
        normalise(&bl, byline, strlen(byline));
        /* The line the metadata read as the byline, or one holding it. */
        yes = bl.len >= 3 && (bl.len == n ? !memcmp(bl.data, text, n)
                                          : bl.len < n && memmem(text, n, bl.data, bl.len) &&
                                                count_chars(text, n, 1) -
                                                        count_chars(bl.data, bl.len, 1) <=
                                                    BYLINE_MAX_OTHER);
        base_buf_free(&bl);
    }
    /* An author's name, and little else that is a word: the names blanked
     * out, a few words at most are left ("By", "Published", a month). */
    char *rest = yes ? NULL : malloc(n + 1);
    int named = 0;
    if (rest)
        memcpy(rest, text, n), rest[n] = 0;
    for (int i = 0; rest && i < glance_result_author_count(res); i++) {
        const char *a = glance_result_author(res, i, NULL);
        t.len = 0;
        normalise(&t, a, strlen(a));
        if (count_chars(t.data, t.len, 1) < 2)
            continue;
        for (char *at = memmem(rest, n, t.data, t.len); at; at = memmem(rest, n, t.data, t.len)) {
            memset(at, ' ', t.len);
            named = 1;
        }
    }
    if (rest && named)
        yes = count_chars(rest, n, 1) <= BYLINE_MAX_OTHER && count_words(rest, n) <= BYLINE_MAX_WORDS;
    free(rest);
    base_buf_free(&t);
    return yes;
}

/* The content's HTML without its first block when that block is the byline
 * line; NULL when it is not (or out of memory). */
static char *without_byline(glance_result *res, const char *html)
{
    if (!html || (!glance_result_author_count(res) && !glance_result_meta(res, "byline", NULL)))
        return NULL;
    /* The first text of the content, and the block element it is in. */
    const char *p = html, *open = NULL;
    size_t tag_len = 0;
    while (*p) {
        if (*p == '<') {
            const char *q = p + 1;
            int closing = *q == '/';
            q += closing;
            size_t k = strcspn(q, " \t\n>/");
            if (!closing && line_tag(q, k))
                open = p, tag_len = k;
            else if (closing && line_tag(q, k))
                open = NULL; /* a block closed before any text: empty */
            const char *gt = strchr(p, '>');
            if (!gt)
                return NULL;
            p = gt + 1;
            continue;
        }
        if (!isspace((unsigned char)*p))
            break;
        p++;
    }
    if (!*p || !open)
        return NULL;
    /* Its end: the matching close tag, the same element nested counted. */
    const char *q = open + 1 + tag_len;
    int depth = 1;
    const char *end = NULL;
    while ((q = strchr(q, '<'))) {
        int closing = q[1] == '/';
        const char *name = q + 1 + closing;
        if (!strncasecmp(name, open + 1, tag_len) && strchr(" \t\n>/", name[tag_len])) {
            depth += closing ? -1 : 1;
            if (!depth) {
                end = strchr(q, '>');
                break;
            }
        }
        q++;
    }
    if (!end)
        return NULL;
    end++;
    /* The block's text: tags out, references decoded, spaces collapsed. */
    base_buf raw = BASE_BUF_INIT, text = BASE_BUF_INIT;
    for (const char *c = open; c < end;) {
        if (*c == '<') {
            const char *gt = memchr(c, '>', (size_t)(end - c));
            base_buf_add(&raw, " ", 1);
            c = gt ? gt + 1 : end;
            continue;
        }
        const char *lt = memchr(c, '<', (size_t)(end - c));
        size_t run = lt ? (size_t)(lt - c) : (size_t)(end - c);
        base_html_unescape(&raw, c, run);
        c += run;
    }
    normalise(&text, raw.data ? raw.data : "", raw.len);
    int drop = !raw.oom && !text.oom && is_byline_line(res, text.data ? text.data : "", text.len);
    base_buf_free(&raw);
    base_buf_free(&text);
    if (!drop)
        return NULL;
    base_buf out = BASE_BUF_INIT;
    base_buf_add(&out, html, (size_t)(open - html));
    base_buf_puts(&out, end);
    size_t n;
    return base_buf_take(&out, &n);
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
    char *own = without_byline(res, html);
    base_buf_puts(&b, own ? own : html ? html : "");
    free(own);
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
