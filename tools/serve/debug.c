/* tools/serve/: the debug page of GET /debug and POST /debug, for a person
 * who wants to see why glance answered as it did.
 *
 * Built from the result's JSON (the public output: every method's answer
 * with --method all, the scorer's blocks with score.explain) and its shot,
 * inline as a data: URL. Each block drawn on the shot has a mark over it,
 * hidden until the table's link to it makes it the page's :target: the
 * table reads, and the marks work, without scripts. Every string from the
 * page is escaped here. */
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/escape.h"
#include "tools/serve/serve.h"

/* Characters of a block's text the table shows. */
#define TEXT_START 90

static const char css[] =
    "body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:0 16px;"
    "color:#1a1a1a;background:#fff}\n"
    "h1{font-size:1.4em;margin:.8em 0 .2em}h2{font-size:1.15em;margin:1.6em 0 .4em;"
    "border-bottom:1px solid #ccc}\n"
    "nav a{margin-right:1em}.src{color:#555;word-break:break-all}\n"
    "table{border-collapse:collapse;width:100%;font-size:14px}"
    "th,td{border:1px solid #ddd;padding:3px 6px;vertical-align:top;text-align:left}"
    "th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    ".shot{position:relative;border:1px solid #999}.shot img{display:block;width:100%;height:auto}\n"
    ".mark{position:absolute;display:none;outline:4px solid #e6007e;"
    "background:rgba(230,0,126,.18)}.mark:target{display:block}\n"
    "tr:target{background:#ffe3f2}.taken{background:#e5f6ea}.dropped{background:#f3e8f8}\n"
    ".plus{color:#0a6b2c}.minus{color:#a3122a}.why{color:#555}\n"
    "#blocks td:nth-child(4){width:45%}#blocks td:nth-child(5){width:28%}"
    "#blocks ol{margin:0;padding-left:1.4em}\n";

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *str(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static double num(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v ? json_object_get_double(v) : NAN;
}

static void esc(base_buf *b, const char *s)
{
    if (s)
        base_html_escape(b, s, strlen(s));
}

/* The first `max` characters of a UTF-8 text, escaped, and an ellipsis
 * when there is more. */
static void esc_start(base_buf *b, const char *s, size_t max)
{
    if (!s)
        return;
    size_t i = 0, chars = 0;
    while (s[i] && chars < max) {
        i++;
        while ((s[i] & 0xC0) == 0x80)
            i++;
        chars++;
    }
    base_html_escape(b, s, i);
    if (s[i])
        base_buf_puts(b, "…");
}

static void putf(base_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(base_buf *b, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0)
        base_buf_add(b, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

static void base64(base_buf *b, const unsigned char *p, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char q[4];
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        q[0] = t[v >> 18 & 63], q[1] = t[v >> 12 & 63];
        q[2] = i + 1 < n ? t[v >> 6 & 63] : '=';
        q[3] = i + 2 < n ? t[v & 63] : '=';
        base_buf_add(b, q, 4);
    }
}

/* Width and height of a PNG from its header; 0 when it is not one. */
static void png_size(const unsigned char *p, size_t n, int *w, int *h)
{
    *w = *h = 0;
    if (p && n >= 24 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0 && memcmp(p + 12, "IHDR", 4) == 0) {
        *w = (int)((unsigned)p[16] << 24 | p[17] << 16 | p[18] << 8 | p[19]);
        *h = (int)((unsigned)p[20] << 24 | p[21] << 16 | p[22] << 8 | p[23]);
    }
}

static const char *fate_words(const char *key)
{
    static const char *const map[][2] = {
        {"below", "under the threshold"},
        {"taken", "taken"},
        {"cut", "dropped: the page's cut"},
        {"title", "dropped: the headline, given as the title"},
        {"before_headline", "dropped: before the headline"},
        {"nav", "dropped: under <nav> or <footer>"},
        {"side_label", "dropped: a side label"},
        {"pinned", "dropped: a box pinned to the window"},
        {"short", "dropped: too short or mostly links to answer"},
    };
    for (size_t i = 0; key && i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(key, map[i][0]))
            return map[i][1];
    return key ? key : "?";
}

static void put_shot(base_buf *b, json_object *blocks, const unsigned char *png, size_t png_len,
                     int page_w)
{
    int iw, ih;
    png_size(png, png_len, &iw, &ih);
    base_buf_puts(b, "<section id=\"shot\"><h2>The page as glance saw it</h2>\n");
    if (!iw) {
        base_buf_puts(b, "<p>No shot of this page.</p></section>\n");
        return;
    }
    putf(b, "<p class=\"why\">The first screens, %d px wide; the legend on the right. Choose a "
            "block's rank in the table to mark it here.</p>\n",
         page_w);
    putf(b, "<div class=\"shot\"><img alt=\"the page with the blocks glance saw\" width=\"%d\" "
            "height=\"%d\" src=\"data:image/png;base64,",
         iw, ih);
    base64(b, png, png_len);
    base_buf_puts(b, "\">\n");
    size_t n = blocks ? json_object_array_length(blocks) : 0;
    for (size_t i = 0; i < n; i++) {
        json_object *k = json_object_array_get_idx(blocks, i), *box = get(k, "box");
        double x = num(box, "x"), y = num(box, "y"), w = num(box, "w"), h = num(box, "h");
        if (!(y < ih) || !(w > 0) || !(h > 0))
            continue;
        /* Percent of the image, so that the mark follows it when scaled. */
        putf(b, "<a class=\"mark\" id=\"b%zu\" href=\"#r%zu\" title=\"block %zu\" style=\"left:%.3f%%;"
                "top:%.3f%%;width:%.3f%%;height:%.3f%%\"></a>\n",
             i, i, (size_t)num(k, "rank"), 100 * x / iw, 100 * y / ih, 100 * w / iw,
             100 * fmin(h, ih - y) / ih);
    }
    base_buf_puts(b, "</div></section>\n");
}

static void put_contribution(base_buf *b, json_object *c)
{
    double v = num(c, "contribution");
    putf(b, "<li><span class=\"%s\">%+.2f</span> ", v >= 0 ? "plus" : "minus", v);
    esc(b, str(c, "name"));
    base_buf_puts(b, "</li>");
}

static void put_blocks(base_buf *b, json_object *ex, int shot_h)
{
    json_object *blocks = get(ex, "blocks");
    size_t n = blocks ? json_object_array_length(blocks) : 0;
    base_buf_puts(b, "<section id=\"blocks\"><h2>Blocks</h2>\n");
    if (!n) {
        base_buf_puts(b, "<p>The scorer saw no block on this page.</p></section>\n");
        return;
    }
    putf(b, "<p class=\"why\">%zu blocks in the page's order. The probability is stage two's, "
            "which decides; the features are those that moved its logit most (Saabas' "
            "contributions along each tree's path: the bias plus all of them is the logit). "
            "Threshold %.2f.</p>\n",
         n, num(ex, "threshold"));
    base_buf_puts(b, "<table><thead><tr><th>rank</th><th>probability</th><th>what became of "
                     "it</th><th>text</th><th>top three features</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < n; i++) {
        json_object *k = json_object_array_get_idx(blocks, i), *box = get(k, "box");
        const char *fate = str(k, "fate");
        int taken = fate && !strcmp(fate, "taken"), below = fate && !strcmp(fate, "below");
        putf(b, "<tr id=\"r%zu\"%s><td class=\"n\">", i,
             taken ? " class=\"taken\"" : below ? "" : " class=\"dropped\"");
        if (num(box, "y") < shot_h)
            putf(b, "<a href=\"#b%zu\">%.0f</a>", i, num(k, "rank"));
        else
            putf(b, "%.0f", num(k, "rank"));
        putf(b, "</td><td class=\"n\">%.3f</td><td>", num(k, "p"));
        esc(b, fate_words(fate));
        if (json_object_get_boolean(get(k, "headline")))
            base_buf_puts(b, "; the headline");
        if (!(num(box, "y") < shot_h))
            base_buf_puts(b, " <span class=\"why\">(below the shot)</span>");
        base_buf_puts(b, "</td><td>");
        esc_start(b, str(k, "text"), TEXT_START);
        base_buf_puts(b, "</td><td><ol>");
        json_object *cs = get(k, "contributions");
        for (size_t c = 0; cs && c < json_object_array_length(cs) && c < 3; c++)
            put_contribution(b, json_object_array_get_idx(cs, c));
        base_buf_puts(b, "</ol></td></tr>\n");
    }
    base_buf_puts(b, "</tbody></table></section>\n");
}

/* Each method's answer: its status, its words, its time, why it found
 * nothing. */
static void put_methods(base_buf *b, json_object *j)
{
    json_object *ms = get(j, "methods");
    base_buf_puts(b, "<section id=\"methods\"><h2>Every method's answer</h2>\n");
    if (!ms || !json_object_is_type(ms, json_type_object)) {
        base_buf_puts(b, "<p>Only one method ran (the server's or the request's method).</p>"
                         "</section>\n");
        return;
    }
    base_buf_puts(b, "<table><thead><tr><th>method</th><th>status</th><th>words</th>"
                     "<th>ms</th><th>its answer begins, or why it found none</th></tr></thead>"
                     "<tbody>\n");
    json_object_object_foreach(ms, name, m)
    {
        base_buf_puts(b, "<tr><td>");
        esc(b, name);
        base_buf_puts(b, "</td><td>");
        esc(b, str(m, "status"));
        putf(b, "</td><td class=\"n\">%.0f</td><td class=\"n\">", num(m, "words"));
        /* The method's own time is in its details, under its JSON key. */
        json_object *d = get(j, name);
        if (!d && !strcmp(name, "xpath"))
            d = get(j, "xpath_blocks");
        if (!d && !strcmp(name, "auto"))
            d = get(j, "score");
        double t = num(d, "ms");
        if (!isnan(t))
            putf(b, "%.1f", t);
        base_buf_puts(b, "</td><td>");
        if (str(m, "text"))
            esc_start(b, str(m, "text"), TEXT_START);
        else
            esc(b, str(m, "failure"));
        base_buf_puts(b, "</td></tr>\n");
    }
    base_buf_puts(b, "</tbody></table></section>\n");
}

static void put_value(base_buf *b, json_object *v)
{
    if (!v || json_object_is_type(v, json_type_null)) {
        base_buf_puts(b, "<span class=\"why\">none</span>");
    } else if (json_object_is_type(v, json_type_string)) {
        esc(b, json_object_get_string(v));
    } else if (json_object_is_type(v, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            if (i)
                base_buf_puts(b, ", ");
            put_value(b, json_object_array_get_idx(v, i));
        }
    } else {
        esc(b, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
    }
}

static void put_metadata(base_buf *b, json_object *meta)
{
    base_buf_puts(b, "<section id=\"metadata\"><h2>Metadata</h2>\n");
    if (!meta || !json_object_is_type(meta, json_type_object)) {
        base_buf_puts(b, "<p>None.</p></section>\n");
        return;
    }
    json_object *from = get(meta, "from");
    base_buf_puts(b, "<table><thead><tr><th>field</th><th>value</th><th>from</th></tr></thead>"
                     "<tbody>\n");
    json_object_object_foreach(meta, key, v)
    {
        if (!strcmp(key, "from"))
            continue;
        base_buf_puts(b, "<tr><td>");
        esc(b, key);
        base_buf_puts(b, "</td><td>");
        put_value(b, v);
        base_buf_puts(b, "</td><td>");
        esc(b, str(from, key));
        base_buf_puts(b, "</td></tr>\n");
    }
    base_buf_puts(b, "</tbody></table></section>\n");
}

static void put_timings(base_buf *b, json_object *t, const char *prefix)
{
    json_object_object_foreach(t, key, v)
    {
        if (json_object_is_type(v, json_type_object)) {
            char p[128];
            snprintf(p, sizeof p, "%s%s: ", prefix, key);
            put_timings(b, v, p);
            continue;
        }
        base_buf_puts(b, "<tr><td>");
        esc(b, prefix);
        esc(b, key);
        putf(b, "</td><td class=\"n\">%.2f</td></tr>\n", json_object_get_double(v));
    }
}

char *serve_debug_page(const char *json, const unsigned char *png, size_t png_len, const char *src,
                       size_t *len)
{
    *len = 0;
    json_object *j = json ? json_tokener_parse(json) : NULL;
    if (!j || !json_object_is_type(j, json_type_object)) {
        json_object_put(j);
        return NULL;
    }
    base_buf b = BASE_BUF_INIT;
    const char *title = str(j, "title");
    json_object *window = get(j, "window"), *ex = get(get(j, "score"), "explain");
    int page_w = (int)num(window, "w"), iw, ih;
    png_size(png, png_len, &iw, &ih);
    base_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                      "<meta name=\"referrer\" content=\"no-referrer\">\n<title>glance debug: ");
    esc(&b, title && *title ? title : "untitled");
    base_buf_puts(&b, "</title>\n<style>\n");
    base_buf_puts(&b, css);
    base_buf_puts(&b, "</style>\n</head>\n<body>\n<header><h1>");
    esc(&b, title && *title ? title : "untitled");
    base_buf_puts(&b, "</h1>\n<p class=\"src\">");
    if (src) {
        base_buf_puts(&b, "<a href=\"");
        esc(&b, src);
        base_buf_puts(&b, "\">");
        esc(&b, src);
        base_buf_puts(&b, "</a>");
    } else {
        base_buf_puts(&b, "a page sent in the request");
    }
    base_buf_puts(&b, "</p>\n<p id=\"answer\">status <b>");
    esc(&b, str(j, "status"));
    base_buf_puts(&b, "</b>, answered by <b>");
    esc(&b, str(j, "method") ? str(j, "method") : "none");
    base_buf_puts(&b, "</b>");
    if (str(j, "message")) {
        base_buf_puts(&b, ": ");
        esc(&b, str(j, "message"));
    }
    putf(&b, "; window %dx%d, engine ", page_w, (int)num(window, "h"));
    esc(&b, str(j, "engine"));
    base_buf_puts(&b, "</p>\n<nav><a href=\"#shot\">shot</a><a href=\"#blocks\">blocks</a>"
                      "<a href=\"#methods\">methods</a><a href=\"#metadata\">metadata</a>"
                      "<a href=\"#timings\">timings</a></nav></header>\n<main>\n");
    put_shot(&b, get(ex, "blocks"), png, png_len, page_w);
    put_blocks(&b, ex, ih);
    put_methods(&b, j);
    put_metadata(&b, get(j, "metadata"));
    base_buf_puts(&b, "<section id=\"timings\"><h2>Timings</h2>\n<table><thead><tr><th>stage"
                      "</th><th>ms</th></tr></thead><tbody>\n");
    json_object *t = get(j, "timings_ms");
    if (t && json_object_is_type(t, json_type_object))
        put_timings(&b, t, "");
    base_buf_puts(&b, "</tbody></table></section>\n</main>\n</body></html>\n");
    json_object_put(j);
    if (b.oom) {
        base_buf_free(&b);
        return NULL;
    }
    return base_buf_take(&b, len);
}
