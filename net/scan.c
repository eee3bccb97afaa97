/* net/: the stylesheet references of a page and of a stylesheet, found with
 * a scan of the tags (no second HTML parse: render/ parses the page once,
 * with litehtml). The scan looks for what litehtml 0.6 will ask its
 * container for, and writes each reference the way litehtml will ask
 * (attribute entities decoded; render/ trims white space and quotes the
 * same way on its side), so that the fetched sheet is found by name. */
#define _GNU_SOURCE
#include "net/net.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

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

/* The first "</name" (ASCII case-insensitive) at or after p; end when none. */
static const char *find_end_tag(const char *p, const char *end, const char *name)
{
    size_t n = strlen(name);
    for (; p + 2 + n <= end; p++)
        if (p[0] == '<' && p[1] == '/' && strncasecmp(p + 2, name, n) == 0)
            return p;
    return end;
}

static const char *skip_css_comment(const char *p, const char *end)
{
    for (p += 2; p + 1 < end; p++)
        if (p[0] == '*' && p[1] == '/')
            return p + 2;
    return end;
}

int net_scan_css(const char *css, size_t len, int (*fn)(void *ud, const char *ref), void *ud)
{
    const char *p = css, *end = css + len;
    while (p < end) {
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
        while (p < end && (is_space(*p) || (p + 1 < end && p[0] == '/' && p[1] == '*')))
            p = is_space(*p) ? p + 1 : skip_css_comment(p, end);
        int is_url = (size_t)(end - p) >= 4 && strncasecmp(p, "url(", 4) == 0;
        if (is_url) {
            p += 4;
            while (p < end && is_space(*p))
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
            while (p < end && *p != ')' && !is_space(*p))
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

typedef struct attr {
    const char *name;
    size_t name_len;
    const char *val;
    size_t val_len;
} attr;

/* Reads the attributes of a start tag from p (just past its name) to its
 * '>'; the first `cap` go into `out`. Returns the position after '>' and
 * the count in *n. */
static const char *read_attrs(const char *p, const char *end, attr *out, int cap, int *n)
{
    *n = 0;
    while (p < end) {
        while (p < end && (is_space(*p) || *p == '/'))
            p++;
        if (p >= end)
            break;
        if (*p == '>')
            return p + 1;
        const char *name = p;
        while (p < end && !is_space(*p) && *p != '=' && *p != '>' && *p != '/')
            p++;
        size_t name_len = (size_t)(p - name);
        if (name_len == 0) { /* a stray '=' */
            p++;
            continue;
        }
        while (p < end && is_space(*p))
            p++;
        const char *val = "";
        size_t val_len = 0;
        if (p < end && *p == '=') {
            p++;
            while (p < end && is_space(*p))
                p++;
            if (p < end && (*p == '"' || *p == '\'')) {
                char q = *p++;
                val = p;
                while (p < end && *p != q)
                    p++;
                val_len = (size_t)(p - val);
                if (p < end)
                    p++;
            } else {
                val = p;
                while (p < end && !is_space(*p) && *p != '>')
                    p++;
                val_len = (size_t)(p - val);
            }
        }
        if (*n < cap)
            out[(*n)++] = (attr){name, name_len, val, val_len};
    }
    return end;
}

/* The value of the first attribute called `name`; NULL when none. */
static const attr *find_attr(const attr *a, int n, const char *name)
{
    size_t len = strlen(name);
    for (int i = 0; i < n; i++)
        if (a[i].name_len == len && strncasecmp(a[i].name, name, len) == 0)
            return &a[i];
    return NULL;
}

int net_scan_html(const char *html, size_t len, char **base,
                  int (*fn)(void *ud, const char *ref), void *ud)
{
    *base = NULL;
    const char *p = html, *end = html + len;
    while (p < end) {
        const char *lt = memchr(p, '<', (size_t)(end - p));
        if (!lt)
            break;
        p = lt + 1;
        if (p < end && *p == '!') {
            if ((size_t)(end - p) >= 3 && p[1] == '-' && p[2] == '-') {
                const char *c = p + 3;
                while (c + 2 < end && !(c[0] == '-' && c[1] == '-' && c[2] == '>'))
                    c++;
                p = c + 2 < end ? c + 3 : end;
            } else {
                const char *gt = memchr(p, '>', (size_t)(end - p));
                p = gt ? gt + 1 : end;
            }
            continue;
        }
        if (p >= end || !isalpha((unsigned char)*p))
            continue; /* an end tag, "<?", or a lone '<' in text */
        char name[16];
        size_t k = 0;
        while (p < end && (isalnum((unsigned char)*p) || *p == '-' || *p == ':')) {
            if (k + 1 < sizeof name)
                name[k++] = (char)tolower((unsigned char)*p);
            p++;
        }
        name[k] = '\0';
        attr a[32];
        int n;
        p = read_attrs(p, end, a, 32, &n);
        if (strcmp(name, "link") == 0) {
            const attr *rel = find_attr(a, n, "rel"), *href = find_attr(a, n, "href");
            /* litehtml 0.6 applies a <link> only when rel is "stylesheet",
             * exactly (el_link.cpp). */
            if (rel && href && href->val_len) {
                char *r = decode_attr(rel->val, rel->val_len);
                char *h = r ? decode_attr(href->val, href->val_len) : NULL;
                int rc = h && strcmp(r, "stylesheet") == 0 ? fn(ud, h) : 0;
                free(r);
                free(h);
                if (!h || rc)
                    return -1;
            }
        } else if (strcmp(name, "base") == 0 && !*base) {
            const attr *href = find_attr(a, n, "href");
            if (href && !(*base = decode_attr(href->val, href->val_len)))
                return -1;
        } else if (strcmp(name, "style") == 0) {
            const char *close = find_end_tag(p, end, "style");
            if (net_scan_css(p, (size_t)(close - p), fn, ud))
                return -1;
            p = close;
        } else if (strcmp(name, "script") == 0 || strcmp(name, "textarea") == 0 ||
                   strcmp(name, "title") == 0 || strcmp(name, "xmp") == 0) {
            /* Text, not tags, until the end tag. */
            p = find_end_tag(p, end, name);
        }
    }
    return 0;
}
