/* base/: the stylesheet references of a page and of a stylesheet
 * (sheetrefs.h). */
#define _GNU_SOURCE
#include "base/sheetrefs.h"

#include "base/tags.h"

#include <stdlib.h>
#include <string.h>

/* Appends the UTF-8 of code point `cp` at o; the bytes written. */
static size_t put_utf8(char *o, unsigned long cp)
{
    if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        cp = 0xfffd;
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* An attribute value with its character references decoded: the numeric
 * ones and the few named ones a URL holds (&amp; above all, in query
 * strings). Never longer than the input. */
static char *decode_attr(const char *p, size_t n)
{
    char *o = malloc(n + 1);
    if (!o)
        return NULL;
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        if (p[i] != '&') {
            o[w++] = p[i++];
            continue;
        }
        const char *semi = memchr(p + i, ';', n - i < 12 ? n - i : 12);
        if (semi && i + 1 < n && p[i + 1] == '#') {
            const char *d = p + i + 2;
            int hex = d < semi && (*d == 'x' || *d == 'X');
            char *end;
            unsigned long cp = strtoul(d + hex, &end, hex ? 16 : 10);
            if (end == semi && end > d + hex) {
                size_t k = put_utf8(o + w, cp);
                /* "&#N;" is at least 4 bytes, at least as long as its UTF-8
                 * (a 4-byte sequence needs a code point of 6 digits). */
                w += k;
                i = (size_t)(semi - p) + 1;
                continue;
            }
        } else if (semi) {
            static const struct { const char *name; char c; } named[] = {
                {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''},
            };
            size_t len = (size_t)(semi - (p + i + 1));
            size_t k;
            for (k = 0; k < sizeof named / sizeof named[0]; k++)
                if (strlen(named[k].name) == len && memcmp(p + i + 1, named[k].name, len) == 0)
                    break;
            if (k < sizeof named / sizeof named[0]) {
                o[w++] = named[k].c;
                i = (size_t)(semi - p) + 1;
                continue;
            }
        }
        o[w++] = p[i++];
    }
    o[w] = '\0';
    return o;
}

static const char *skip_css_comment(const char *p, const char *end)
{
    for (p += 2; p + 1 < end; p++)
        if (p[0] == '*' && p[1] == '/')
            return p + 2;
    return end;
}

int base_sheet_refs_css(const char *css, size_t len, int (*fn)(void *ud, const char *ref),
                        void *ud)
{
    const char *p = css, *end = css + len;
    /* A rule is read only where the bytes "@import" are: past the last of
     * them (in a comment, a string or not) the scan has nothing to find.
     * Most sheets hold none, and a page's <style> blocks are hundreds of
     * kilobytes, read here a byte at a time. */
    const char *next = memmem(p, len, "@import", 7);
    while (p < end) {
        if (next && next < p)
            next = memmem(p, (size_t)(end - p), "@import", 7);
        if (!next)
            return 0;
        if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            p = skip_css_comment(p, end);
            continue;
        }
        if (*p == '"' || *p == '\'') {
            char q = *p++;
            while (p < end && *p != q && *p != '\n')
                p += (*p == '\\' && p + 1 < end) ? 2 : 1;
            if (p < end)
                p++;
            continue;
        }
        /* litehtml knows the rule by its lower-case name only. */
        if (*p != '@' || (size_t)(end - p) < 7 || memcmp(p, "@import", 7) != 0) {
            p++;
            continue;
        }
        p += 7;
        while (p < end && (base_html_space(*p) || (p + 1 < end && p[0] == '/' && p[1] == '*')))
            p = base_html_space(*p) ? p + 1 : skip_css_comment(p, end);
        int is_url = (size_t)(end - p) >= 4 && strncasecmp(p, "url(", 4) == 0;
        if (is_url) {
            p += 4;
            while (p < end && base_html_space(*p))
                p++;
        }
        const char *s = p, *e;
        if (p < end && (*p == '"' || *p == '\'')) {
            char q = *p++;
            s = p;
            while (p < end && *p != q)
                p++;
            e = p;
            if (p < end)
                p++; /* the closing quote: not the start of a string */
        } else if (is_url) {
            while (p < end && *p != ')' && !base_html_space(*p))
                p++;
            e = p;
        } else {
            continue; /* not an @import litehtml would read */
        }
        if (e > s) {
            char *ref = strndup(s, (size_t)(e - s));
            if (!ref)
                return -1;
            int r = fn(ud, ref);
            free(ref);
            if (r)
                return -1;
        }
    }
    return 0;
}

/* The value of an attribute, decoded; "" for one without a value. */
static char *attr_value(const base_tag_attr *a)
{
    return decode_attr(a->value ? a->value : "", a->value_len);
}

int base_sheet_refs_token(const base_tag *t, char **base, int (*fn)(void *ud, const char *ref),
                          void *ud)
{
    /* The text of <style>: its @imports. Other raw text (script, textarea,
     * title ...) holds no tags. */
    if (t->kind == BASE_TAG_RAW && base_tag_is(t, "style"))
        return base_sheet_refs_css(t->start, t->len, fn, ud);
    if (t->kind != BASE_TAG_START)
        return 0;
    base_tag_attr rel, href;
    if (base_tag_is(t, "link")) {
        /* litehtml 0.6 applies a <link> only when rel is "stylesheet",
         * exactly (el_link.cpp); one marked disabled (a theme the page's
         * script may switch to) render/ leaves out, as a browser does. */
        base_tag_attr off;
        if (base_tag_find_attr(t, "rel", &rel) && base_tag_find_attr(t, "href", &href) &&
            href.value_len && !base_tag_find_attr(t, "disabled", &off)) {
            char *r = attr_value(&rel);
            char *h = r ? attr_value(&href) : NULL;
            int rc = h && strcmp(r, "stylesheet") == 0 ? fn(ud, h) : 0;
            free(r);
            free(h);
            if (!h || rc)
                return -1;
        }
    } else if (base && base_tag_is(t, "base") && !*base) {
        if (base_tag_find_attr(t, "href", &href) && !(*base = attr_value(&href)))
            return -1;
    }
    return 0;
}

int base_sheet_refs_html(const char *html, size_t len, char **base,
                         int (*fn)(void *ud, const char *ref), void *ud)
{
    *base = NULL;
    base_tag_scanner s;
    base_tag_scanner_init(&s, html, len);
    base_tag t;
    while (base_tag_next(&s, &t))
        if (base_sheet_refs_token(&t, base, fn, ud))
            return -1;
    return 0;
}
