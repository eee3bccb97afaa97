/* render/: dropping the CSS rules a page cannot use (cssfilter.h). */
#include "render/cssfilter.h"
#include "render/render.h"
#include "render/noscript.h"
#include "render/streamed.h"

#include "dom/dom.h"

#include "base/buf.h"
#include "base/grow.h"
#include "base/sheetrefs.h"
#include "base/tags.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A set of short strings ---------------------------------------------------- */

typedef struct entry {
    char *s;
    size_t n;
    uint64_t h;
    size_t count; /* elements with this tag, class or id */
} entry;

struct css_index {
    entry *slots;
    size_t cap, count;
    int failed;
    int depth;              /* css_index_limit; 0: no bound on selectors */
    size_t max_style_bytes; /* 0: no cap */
    size_t max_selectors;   /* selectors let through in all; 0: no cap */
    size_t kept;            /* ... so far */
    size_t elements;        /* start tags of the page */
    size_t max_generated;   /* css_index_limit_generated; 0: no bound */
    double generated;       /* the bound of generated characters so far */
    int generated_over;     /* a rule was dropped for it */
    int drop_attrs;         /* css_index_drop_attrs */
    int attrs_unknown;      /* a stylesheet names an attribute the filter cannot read */
    int attrs_lost;         /* ... or one left out of the page */
    size_t dropped;         /* attributes left out of the page */
    int touch;              /* css_index_touch: a phone's or tablet's screen */
    int aside_on;           /* css_index_set_aside */
    char **aside;           /* the sheets set aside by the last css_prepare_html */
    size_t *aside_len;
    size_t n_aside, cap_aside;
};

static void aside_clear(css_index *ix)
{
    for (size_t i = 0; i < ix->n_aside; i++)
        free(ix->aside[i]);
    ix->n_aside = 0;
}

/* The bytes the scans of a sheet stop at, by scan: each passes over the
 * others a table look at a time (a page's <style> blocks run to hundreds
 * of kilobytes, and each rule's text is read by several scans). */
enum {
    B_OPAQUE = 1,  /* '/', '"', '\'': what skip_opaque may skip */
    B_BLOCK = 2,   /* block_end: '{', '}' */
    B_PRELUDE = 4, /* prelude_end, nested_open, put_selectors: brackets, '{', ';', '}', ',' */
    B_GROUP = 8,   /* find_is, split_not: '(', '[', '\\', ':' */
    B_SELECTOR = 16 /* selector_too_costly, pseudo_bound: quotes, brackets, white
                       space, combinators, ',' */
};
static const unsigned char byte_stop[256] = {
    ['/'] = B_OPAQUE,  ['"'] = B_OPAQUE | B_SELECTOR,  ['\''] = B_OPAQUE | B_SELECTOR,
    ['{'] = B_BLOCK | B_PRELUDE,          ['}'] = B_BLOCK | B_PRELUDE,
    [';'] = B_PRELUDE, [','] = B_PRELUDE | B_SELECTOR,
    [')'] = B_PRELUDE | B_SELECTOR,       [']'] = B_PRELUDE | B_SELECTOR,
    ['('] = B_PRELUDE | B_GROUP | B_SELECTOR, ['['] = B_PRELUDE | B_GROUP | B_SELECTOR,
    ['\\'] = B_GROUP, [':'] = B_GROUP,
    [' '] = B_SELECTOR, ['\t'] = B_SELECTOR, ['\n'] = B_SELECTOR, ['\r'] = B_SELECTOR,
    ['\f'] = B_SELECTOR, ['>'] = B_SELECTOR, ['+'] = B_SELECTOR, ['~'] = B_SELECTOR};

/* The first byte of [p, end) in one of the kinds, or end. */
static inline const char *next_stop(const char *p, const char *end, unsigned kinds)
{
    while (p < end && !(byte_stop[(unsigned char)*p] & kinds))
        p++;
    return p;
}

static uint64_t hash_lower(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)tolower((unsigned char)s[i])) * 0x100000001b3ull;
    return h;
}

static int eq_lower(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return 0;
    return 1;
}

/* Entries are kinds-prefixed: "t:div", "c:menu", "i:main". The entry, or
 * NULL when there is none; `*unknown` is set when the name is too long to
 * look up (then a rule is kept). */
static entry *set_find(css_index *ix, char kind, const char *s, size_t n, int *unknown)
{
    *unknown = 0;
    if (ix->cap == 0)
        return NULL;
    char key[256];
    if (n + 2 > sizeof key) {
        *unknown = 1;
        return NULL;
    }
    key[0] = kind;
    key[1] = ':';
    memcpy(key + 2, s, n);
    uint64_t h = hash_lower(key, n + 2);
    for (size_t i = h & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
        entry *e = &ix->slots[i];
        if (!e->s)
            return NULL;
        if (e->h == h && e->n == n + 2 && eq_lower(e->s, key, n + 2))
            return e;
    }
}

static int set_has(css_index *ix, char kind, const char *s, size_t n)
{
    int unknown;
    return set_find(ix, kind, s, n, &unknown) != NULL || unknown;
}

static void set_add(css_index *ix, char kind, const char *s, size_t n)
{
    if (ix->failed || n == 0 || n > 200)
        return;
    if ((ix->count + 1) * 2 > ix->cap) {
        size_t cap = ix->cap ? ix->cap * 2 : 256;
        entry *slots = calloc(cap, sizeof *slots);
        if (!slots) {
            ix->failed = 1;
            return;
        }
        for (size_t i = 0; i < ix->cap; i++) {
            if (!ix->slots[i].s)
                continue;
            size_t j = ix->slots[i].h & (cap - 1);
            while (slots[j].s)
                j = (j + 1) & (cap - 1);
            slots[j] = ix->slots[i];
        }
        free(ix->slots);
        ix->slots = slots;
        ix->cap = cap;
    }
    int unknown;
    entry *found = set_find(ix, kind, s, n, &unknown);
    if (found) {
        found->count++;
        return;
    }
    char *copy = malloc(n + 3);
    if (!copy) {
        ix->failed = 1;
        return;
    }
    copy[0] = kind;
    copy[1] = ':';
    for (size_t i = 0; i < n; i++)
        copy[2 + i] = (char)tolower((unsigned char)s[i]);
    copy[n + 2] = '\0';
    uint64_t h = hash_lower(copy, n + 2);
    size_t j = h & (ix->cap - 1);
    while (ix->slots[j].s)
        j = (j + 1) & (ix->cap - 1);
    ix->slots[j] = (entry){copy, n + 2, h, 1};
    ix->count++;
}

void css_index_free(css_index *ix)
{
    if (!ix)
        return;
    for (size_t i = 0; i < ix->cap; i++)
        free(ix->slots[i].s);
    free(ix->slots);
    aside_clear(ix);
    free(ix->aside);
    free(ix->aside_len);
    free(ix);
}

/* Scanning the page's tags ----------------------------------------------------- */

/* The classes or the id an attribute gives the element, into the index. */
static void index_attr(css_index *ix, const base_tag_attr *a)
{
    const char *v = a->value;
    size_t vn = a->value_len;
    if (!v)
        return;
    if (base_tag_attr_is(a, "id")) {
        size_t i = 0, j = vn;
        while (i < j && base_html_space(v[i]))
            i++;
        while (j > i && base_html_space(v[j - 1]))
            j--;
        set_add(ix, 'i', v + i, j - i);
    } else if (base_tag_attr_is(a, "class")) {
        for (size_t i = 0; i < vn;) {
            while (i < vn && base_html_space(v[i]))
                i++;
            size_t start = i;
            while (i < vn && !base_html_space(v[i]))
                i++;
            set_add(ix, 'c', v + start, i - start);
        }
    }
}

css_index *css_index_html(const char *html, size_t len, int (*sheet)(void *ud, const char *ref),
                          void *ud)
{
    css_index *ix = calloc(1, sizeof *ix);
    if (!ix)
        return NULL;
    /* Elements the parser makes whether or not the page writes them. */
    static const char *const implied[] = {"html", "head", "body", "tbody"};
    for (size_t i = 0; i < sizeof implied / sizeof implied[0]; i++)
        set_add(ix, 't', implied[i], strlen(implied[i]));
    base_tag_scanner s;
    base_tag_scanner_init(&s, html, len);
    base_tag t;
    while (base_tag_next(&s, &t)) {
        if (sheet && base_sheet_refs_token(&t, NULL, sheet, ud) != 0)
            ix->failed = 1;
        if (t.kind == BASE_TAG_RAW && base_tag_is(&t, "style"))
            css_index_note_sheet(ix, t.start, t.len);
        if (t.kind != BASE_TAG_START)
            continue;
        ix->elements++;
        set_add(ix, 't', t.name, t.name_len);
        base_tag_attrs it;
        base_tag_attrs_init(&it, &t);
        base_tag_attr a;
        while (base_tag_attrs_next(&it, &a))
            index_attr(ix, &a);
    }
    if (ix->failed) {
        css_index_free(ix);
        return NULL;
    }
    return ix;
}

/* Attributes nothing reads ------------------------------------------------- */

/* An attribute that neither litehtml nor glance reads: an SVG path's data
 * (d), the accessibility attributes (aria-*), the event handlers (on...,
 * run by no one here) and the data-* of scripts, but on an <img>, where
 * dom/ finds a lazy image's address (dom.h). A stylesheet may still ask
 * for one (css_index_note_sheet). */
static int attr_unread(const char *s, size_t n, int img)
{
    if (n > 200)
        return 0; /* longer than the index holds */
    if (n == 1)
        return s[0] == 'd' || s[0] == 'D';
    if (n > 5 && eq_lower(s, "aria-", 5))
        return 1;
    if (n > 5 && eq_lower(s, "data-", 5))
        return !img;
    if (n <= 2 || !eq_lower(s, "on", 2))
        return 0;
    for (size_t i = 2; i < n; i++)
        if (!isalpha((unsigned char)s[i]))
            return 0;
    return 1;
}

static const char *read_ident(const char *p, const char *end, char *out, size_t cap, size_t *n,
                              int *ok);

int render_attr_left_out(const char *name)
{
    return name && attr_unread(name, strlen(name), 0);
}

/* An attribute a stylesheet names, by a selector or by attr(). */
static void note_attr(css_index *ix, const char *p, const char *end)
{
    while (p < end && base_html_space(*p))
        p++;
    char name[256];
    size_t n;
    int ok;
    read_ident(p, end, name, sizeof name, &n, &ok);
    if (!ok) {
        /* An escape the filter does not decode: whichever it is, no
         * attribute is left out of the page. */
        ix->attrs_lost |= ix->dropped > 0;
        ix->attrs_unknown = 1;
        return;
    }
    if (n == 0 || !attr_unread(name, n, 0) || set_has(ix, 'a', name, n))
        return;
    if (set_has(ix, 'x', name, n))
        ix->attrs_lost = 1; /* left out of the page already */
    set_add(ix, 'a', name, n);
}

void css_index_note_sheet(css_index *ix, const char *css, size_t len)
{
    /* Every '[' and "attr(": in a comment or a string too, where a name
     * noted for nothing only keeps an attribute in the page. */
    const char *end = css + len;
    for (const char *p = css; (p = memchr(p, '[', (size_t)(end - p))); p++)
        note_attr(ix, p + 1, end);
    for (const char *p = css; (p = memchr(p, '(', (size_t)(end - p))); p++)
        if (p - css >= 4 && eq_lower(p - 4, "attr", 4))
            note_attr(ix, p + 1, end);
}

void css_index_drop_attrs(css_index *ix, int on)
{
    ix->drop_attrs = on;
    ix->attrs_lost = 0;
}

int css_index_attrs_lost(const css_index *ix)
{
    return ix->drop_attrs && ix->attrs_lost;
}

/* Code points of an attribute's name or value without a character
 * reference, as the parser gives them: CR LF is one. */
static long code_points(const char *v, size_t n)
{
    long k = 0;
    for (size_t i = 0; i < n; i++)
        k += ((unsigned char)v[i] & 0xC0) != 0x80 &&
             !(v[i] == '\r' && i + 1 < n && v[i + 1] == '\n');
    return k;
}

/* Selectors ------------------------------------------------------------------- */

static int is_ident(unsigned char c)
{
    return isalnum(c) || c == '-' || c == '_' || c >= 0x80 || c == '\\';
}

/* Reads an identifier at p (escapes decoded into `out`); returns the end.
 * *ok is 0 when an escape could not be read. */
static const char *read_ident(const char *p, const char *end, char *out, size_t cap, size_t *n,
                              int *ok)
{
    *n = 0;
    *ok = 1;
    while (p < end && is_ident((unsigned char)*p)) {
        char c = *p++;
        if (c == '\\') {
            if (p >= end || isxdigit((unsigned char)*p) || *p == '\n') {
                *ok = 0; /* hex escapes: not worth decoding here */
                while (p < end && (isxdigit((unsigned char)*p) || *p == ' '))
                    p++;
                continue;
            }
            c = *p++;
        }
        if (*n + 1 < cap)
            out[(*n)++] = c;
        else
            *ok = 0;
    }
    return p;
}

/* Pseudo-classes and pseudo-elements that never apply to a page laid out
 * once, unscrolled and untouched (a pointer over it, a focus, a selection,
 * a visited link), and the engine-prefixed ones of other engines. */
static int never_static(const char *name, size_t n)
{
    static const char *const dynamic[] = {"hover", "focus", "active", "focus-within",
                                          "focus-visible", "visited", "target", "selection",
                                          "placeholder", "backdrop", "placeholder-shown"};
    if (n > 1 && name[0] == '-')
        return 1; /* -webkit-scrollbar, -moz-focus-inner, -ms-clear ... */
    for (size_t i = 0; i < sizeof dynamic / sizeof dynamic[0]; i++)
        if (strlen(dynamic[i]) == n && eq_lower(name, dynamic[i], n))
            return 1;
    return 0;
}

void css_index_limit(css_index *ix, int depth, size_t elements, size_t max_style_bytes)
{
    ix->depth = depth > 0 ? depth : 1;
    ix->max_style_bytes = max_style_bytes;
    ix->max_selectors = (size_t)(CSS_MAX_MATCH_PAIRS / (double)(elements > 0 ? elements : 1));
    if (ix->max_selectors < 1000)
        ix->max_selectors = 1000;
}

/* Whether litehtml could spend too long matching the selector on a page
 * `depth` deep (cssfilter.h): its descendant and general-sibling
 * combinators, inside parentheses too, and how deep they nest. */
static int selector_too_costly(const char *s, size_t len, int depth)
{
    int k = 0, nest = 0, max_nest = 0, in_space = 0;
    for (size_t i = 0; i < len; i++) {
        /* A run of other bytes changes nothing but ends a run of spaces. */
        size_t j = (size_t)(next_stop(s + i, s + len, B_SELECTOR) - s);
        if (j != i) {
            in_space = 0;
            if ((i = j) >= len)
                break;
        }
        char c = s[i];
        if (c == '(' || c == '[') {
            if (++nest > max_nest)
                max_nest = nest;
        } else if ((c == ')' || c == ']') && nest > 0) {
            nest--;
        } else if (c == '"' || c == '\'') {
            for (i++; i < len && s[i] != c; i++)
                if (s[i] == '\\')
                    i++;
        }
        int sp = base_html_space(c);
        /* A run of spaces not beside '>', '+' or ',' is a descendant combinator. */
        if (sp && !in_space && i > 0 && i + 1 < len)
            k++;
        else if (c == '~')
            k++;
        else if (c == '>' || c == '+' || c == ',' || c == '(') {
            if (in_space)
                k--; /* "a > b": the space was no combinator */
            in_space = 0;
            while (i + 1 < len && base_html_space(s[i + 1]))
                i++;
            continue;
        }
        in_space = sp;
    }
    if (max_nest > CSS_MAX_NESTING)
        return 1;
    /* sum of C(depth, j) for j <= k, in doubles, stopping over the bound */
    double term = 1, sum = 1;
    for (int j = 1; j <= k && j <= depth; j++) {
        term = term * (double)(depth - j + 1) / (double)j;
        sum += term;
        if (sum > CSS_MAX_MATCH_COST)
            return 1;
    }
    return 0;
}

/* 0 when the selector needs a tag, class or id the page lacks, or a state
 * a static page never has, or when matching it could take too long. */
static int selector_may_match(css_index *ix, const char *s, size_t len)
{
    if (ix->depth > 0 && selector_too_costly(s, len, ix->depth))
        return 0;
    if (ix->max_selectors > 0 && ix->kept >= ix->max_selectors)
        return 0;
    const char *p = s, *end = s + len;
    int compound_start = 1;
    char name[256];
    while (p < end) {
        char c = *p;
        if (c == '[' || c == '(') {
            /* Attribute tests and pseudo-class arguments: not looked into. */
            char open = c, close = c == '[' ? ']' : ')';
            int depth = 0;
            for (; p < end; p++) {
                if (*p == '"' || *p == '\'') {
                    char q = *p;
                    for (p++; p < end && *p != q; p++)
                        if (*p == '\\')
                            p++;
                } else if (*p == open) {
                    depth++;
                } else if (*p == close && --depth == 0) {
                    p++;
                    break;
                }
            }
            compound_start = 0;
            continue;
        }
        if (base_html_space(c) || c == '>' || c == '+' || c == '~') {
            compound_start = 1;
            p++;
            continue;
        }
        if (c == '|')
            return 1; /* namespaces: keep */
        if (c == '.' || c == '#') {
            size_t n;
            int ok;
            p = read_ident(p + 1, end, name, sizeof name, &n, &ok);
            if (ok && n > 0 && !set_has(ix, c == '.' ? 'c' : 'i', name, n))
                return 0;
            compound_start = 0;
            continue;
        }
        if (c == ':') {
            while (p < end && *p == ':')
                p++;
            size_t n;
            int ok;
            p = read_ident(p, end, name, sizeof name, &n, &ok);
            if (ok && never_static(name, n))
                return 0;
            compound_start = 0;
            continue;
        }
        if (compound_start && is_ident((unsigned char)c)) {
            size_t n;
            int ok;
            p = read_ident(p, end, name, sizeof name, &n, &ok);
            if (ok && n > 0 && !set_has(ix, 't', name, n))
                return 0;
            compound_start = 0;
            continue;
        }
        compound_start = 0;
        p++;
    }
    return 1;
}


static inline const char *skip_opaque(const char *p, const char *end);

/* Generated content ---------------------------------------------------------- */

void css_index_touch(css_index *ix, int on)
{
    ix->touch = on != 0;
}

void css_index_limit_generated(css_index *ix, size_t max_generated)
{
    ix->max_generated = max_generated;
}

void css_index_generated_reset(css_index *ix, double to)
{
    ix->generated = to;
    ix->generated_over = 0;
}

double css_index_generated(const css_index *ix, int *over)
{
    if (over)
        *over = ix->generated_over;
    return ix->generated;
}

/* How many boxes a selector's ::before or ::after can make: 0 when its
 * subject (the last compound) has neither, else the fewest elements of
 * the page that bear one of the compound's tag, classes or id (all the
 * page's elements for `*` or attribute tests alone). An upper bound: the
 * rest of the selector only narrows it. */
static double pseudo_bound(css_index *ix, const char *s, size_t len)
{
    /* the last compound: after the last combinator outside () and [] */
    size_t start = 0;
    int nest = 0;
    for (size_t i = 0; (i = (size_t)(next_stop(s + i, s + len, B_SELECTOR) - s)) < len; i++) {
        char c = s[i];
        if (c == '"' || c == '\'') {
            for (i++; i < len && s[i] != c; i++)
                if (s[i] == '\\')
                    i++;
        } else if (c == '(' || c == '[') {
            nest++;
        } else if ((c == ')' || c == ']') && nest > 0) {
            nest--;
        } else if (!nest && (base_html_space(c) || c == '>' || c == '+' || c == '~')) {
            start = i + 1;
        }
    }
    const char *p = s + start, *end = s + len;
    double bound = (double)ix->elements;
    int pseudo = 0, first = 1;
    char name[256];
    while (p < end) {
        char c = *p;
        if (c == '[' || c == '(') {
            char close = c == '[' ? ']' : ')';
            int depth = 0;
            for (; p < end; p++) {
                if (*p == c)
                    depth++;
                else if (*p == close && --depth == 0) {
                    p++;
                    break;
                }
            }
            first = 0;
            continue;
        }
        size_t n;
        int ok, unknown;
        if (c == '.' || c == '#' || (first && is_ident((unsigned char)c))) {
            char kind = c == '.' ? 'c' : c == '#' ? 'i' : 't';
            p = read_ident(kind == 't' ? p : p + 1, end, name, sizeof name, &n, &ok);
            entry *e = ok && n > 0 ? set_find(ix, kind, name, n, &unknown) : NULL;
            if (e && (double)e->count < bound)
                bound = (double)e->count;
            first = 0;
            continue;
        }
        if (c == ':') {
            while (p < end && *p == ':')
                p++;
            p = read_ident(p, end, name, sizeof name, &n, &ok);
            if (ok && ((n == 6 && eq_lower(name, "before", 6)) ||
                       (n == 5 && eq_lower(name, "after", 5))))
                pseudo = 1;
            first = 0;
            continue;
        }
        first = 0;
        p++;
    }
    return pseudo ? bound : 0;
}

/* Characters a `content` declaration of the block [p, end) generates for
 * one box: its strings' bytes and a number's worth for each counter();
 * 0 when the block has none. */
static double content_chars(const char *p, const char *end)
{
    double most = 0;
    while (p < end) {
        /* a declaration's name */
        while (p < end && (base_html_space(*p) || *p == ';' || *p == '{'))
            p++;
        const char *name = p;
        while (p < end && (is_ident((unsigned char)*p)))
            p++;
        size_t nl = (size_t)(p - name);
        while (p < end && base_html_space(*p))
            p++;
        int is_content = nl == 7 && eq_lower(name, "content", 7) && p < end && *p == ':';
        double chars = 0;
        /* to the declaration's end */
        int paren = 0;
        while (p < end && (paren || (*p != ';' && *p != '}'))) {
            if (*p == '"' || *p == '\'') {
                const char *q = skip_opaque(p, end);
                chars += (double)(q - p);
                p = q;
                continue;
            }
            if (*p == '(')
                paren++;
            else if (*p == ')' && paren > 0)
                paren--;
            else if (is_content && (end - p) > 8 && eq_lower(p, "counter", 7))
                chars += 16;
            p++;
        }
        if (is_content && chars > most)
            most = chars;
        if (p < end)
            p++;
        if (p == name)
            p++;
    }
    return most;
}

/* The stylesheet ----------------------------------------------------------------- */

/* Skips a comment or a string at p when there is one; returns p otherwise. */
static inline const char *skip_opaque(const char *p, const char *end)
{
    /* Most characters open neither (read once per character of a sheet). */
    if (*p != '/' && *p != '"' && *p != '\'')
        return p;
    if (p + 1 < end && p[0] == '/' && p[1] == '*') {
        for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
            ;
        return p + 1 < end ? p + 2 : end;
    }
    if (*p == '"' || *p == '\'') {
        char q = *p;
        for (p++; p < end && *p != q && *p != '\n'; p++)
            if (*p == '\\')
                p++;
        return p < end ? p + 1 : end;
    }
    return p;
}

/* The end of the block whose '{' is at p (one past its '}'). */
static const char *block_end(const char *p, const char *end)
{
    int depth = 0;
    while ((p = next_stop(p, end, B_OPAQUE | B_BLOCK)) < end) {
        const char *q = skip_opaque(p, end);
        if (q != p) {
            p = q;
            continue;
        }
        if (*p == '{')
            depth++;
        else if (*p == '}' && --depth == 0)
            return p + 1;
        p++;
    }
    return end;
}

/* Up to the first top-level '{' or ';' (or end). */
static const char *prelude_end(const char *p, const char *end)
{
    int paren = 0;
    while ((p = next_stop(p, end, B_OPAQUE | B_PRELUDE)) < end) {
        const char *q = skip_opaque(p, end);
        if (q != p) {
            p = q;
            continue;
        }
        if (*p == '(' || *p == '[')
            paren++;
        else if ((*p == ')' || *p == ']') && paren > 0)
            paren--;
        else if (!paren && (*p == '{' || *p == ';' || *p == '}'))
            return p;
        p++;
    }
    return end;
}

/* :is() and :where() ------------------------------------------------------------- */

/* One past the bracket that closes the '(' or '[' at p (end when none). */
static const char *group_end(const char *p, const char *end)
{
    char open = *p, close = open == '(' ? ')' : ']';
    int depth = 0;
    for (; p < end; p++) {
        if (*p == '\\' && p + 1 < end) {
            p++;
        } else if (*p == '"' || *p == '\'') {
            const char *q = skip_opaque(p, end);
            p = q - 1;
        } else if (*p == open) {
            depth++;
        } else if (*p == close && --depth == 0) {
            return p + 1;
        }
    }
    return end;
}

static int is_combinator(char c)
{
    return base_html_space(c) || c == '>' || c == '+' || c == '~';
}

/* Past what a selector's structure takes whole at s[i]: a bracketed group,
 * an escape's two bytes; i itself at anything else. */
static size_t past_group(const char *s, size_t i, size_t len)
{
    if (s[i] == '(' || s[i] == '[')
        return (size_t)(group_end(s + i, s + len) - s);
    if (s[i] == '\\')
        return i + 2 < len ? i + 2 : len;
    return i;
}

/* The next item of a comma-separated list [*p, end) (a prelude's
 * selectors, the arguments of :is() or :not()): its bytes, white space
 * trimmed, in [*a, *b); *p moves past its comma, beyond end after the last
 * item. A comma inside brackets, a string, a comment or an escape parts no
 * items. 0 when the list is done. */
static int list_item(const char **p, const char *end, const char **a, const char **b)
{
    if (*p > end)
        return 0;
    const char *q = *p;
    while (q < end && *q != ',') {
        const char *r = skip_opaque(q, end);
        if (r == q) {
            size_t j = past_group(q, 0, (size_t)(end - q));
            r = q + (j ? j : 1);
        }
        q = r;
    }
    const char *x = *p, *y = q;
    while (x < y && base_html_space(*x))
        x++;
    while (y > x && base_html_space(y[-1]))
        y--;
    *a = x;
    *b = y;
    *p = q + 1;
    return 1;
}

/* Where the compound selector that holds position `at` of s starts: after
 * the last combinator before it outside brackets. */
static size_t compound_start(const char *s, size_t at)
{
    size_t start = 0;
    for (size_t i = 0; i < at;) {
        size_t j = past_group(s, i, at);
        if (j == i && is_combinator(s[i]))
            start = i + 1;
        i = j != i ? j : i + 1;
    }
    return start < at ? start : at;
}

/* Where the compound selector that goes on at `from` ends. */
static size_t compound_end(const char *s, size_t from, size_t len)
{
    for (size_t i = from; i < len;) {
        size_t j = past_group(s, i, len);
        if (j == i && is_combinator(s[i]))
            return i;
        i = j != i ? j : i + 1;
    }
    return len;
}

/* The type selector a compound starts with (`div`, `*`): its length. */
static size_t type_len(const char *s, size_t len)
{
    if (len && s[0] == '*')
        return 1;
    size_t n = 0;
    while (n < len && is_ident((unsigned char)s[n]) && s[n] != '\\')
        n++;
    return n;
}

/* Where the first :is(, :where(, :matches(, :-webkit-any( or :-moz-any( of
 * s outside brackets starts (its ':'), and its '(' in *open; len when none. */
static size_t find_is(const char *s, size_t len, size_t *open)
{
    static const char *const names[] = {"is(", "where(", "matches(", "-webkit-any(", "-moz-any("};
    for (size_t i = 0; (i = (size_t)(next_stop(s + i, s + len, B_GROUP) - s)) < len;) {
        size_t j = past_group(s, i, len);
        if (j != i) {
            i = j;
            continue;
        }
        if (s[i] == ':' && i + 1 < len && s[i + 1] != ':')
            for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
                size_t n = strlen(names[k]);
                if (i + 1 + n <= len && eq_lower(s + i + 1, names[k], n)) {
                    *open = i + n;
                    return i;
                }
            }
        i++;
    }
    return len;
}

/* Selectors written out in `out`, each followed by a NUL. */
#define CSS_MAX_IS_SELECTORS 32

/* litehtml 0.6 knows neither :is() nor :where() (nor their older names)
 * and matches nothing with them: a rule written `.body > div { display:
 * none } :is(.body > div):first-of-type { display: block }` hid a whole
 * article. Each is written out as the selectors it stands for, its
 * compound merged into the last compound of each argument:
 * `.a :is(.b > p, h2).c` is `.a .b > p.c, .a h2.c`. Exact where the :is()
 * opens the selector or holds compounds only; elsewhere an argument's
 * combinators follow those before the :is() (a subset of what it
 * matches). :where()'s specificity becomes its argument's. Returns 0
 * (*count selectors written), or -1 when there would be more than
 * CSS_MAX_IS_SELECTORS or the selector is not read (it is then left as it
 * is). */
static int expand_is(const char *s, size_t len, base_buf *out, int *count, int level)
{
    size_t open, at = find_is(s, len, &open);
    if (at == len) {
        if (++*count > CSS_MAX_IS_SELECTORS)
            return -1;
        base_buf_add(out, s, len);
        base_buf_putc(out, '\0');
        return 0;
    }
    if (level > 8)
        return -1;
    size_t close = (size_t)(group_end(s + open, s + len) - s); /* one past ')' */
    if (close > len || s[close - 1] != ')')
        return -1;
    size_t cs = compound_start(s, at), ce = compound_end(s, close, len);
    const char *cp = s + cs, *post = s + close;
    size_t cp_len = at - cs, post_len = ce - close;
    size_t tp = type_len(cp, cp_len);
    base_buf one = BASE_BUF_INIT;
    int rc = 0;
    const char *args = s + open + 1, *args_end = s + close - 1, *x, *y;
    while (rc == 0 && list_item(&args, args_end, &x, &y)) {
        size_t n = (size_t)(y - x);
        if (n == 0 || is_combinator(*x) || is_combinator(y[-1]))
            continue; /* empty or not a selector: forgiven, as the list forgives */
        size_t ls = compound_start(x, n);
        const char *lc = x + ls;
        size_t lc_len = n - ls, tl = type_len(lc, lc_len);
        /* Two type selectors: the same, or one of them `*`, else never. */
        if (tp && tl && !(tp == 1 && cp[0] == '*') && !(tl == 1 && lc[0] == '*') &&
            !(tp == tl && eq_lower(cp, lc, tp)))
            continue;
        base_buf_reset(&one);
        base_buf_add(&one, s, cs);              /* before the compound */
        base_buf_add(&one, x, ls);              /* the argument's own ancestors */
        if (tl && !(tl == 1 && lc[0] == '*'))
            base_buf_add(&one, lc, tl);
        else if (tp)
            base_buf_add(&one, cp, tp);
        else if (tl)
            base_buf_add(&one, lc, tl);
        base_buf_add(&one, cp + tp, cp_len - tp); /* the compound, before the :is() */
        base_buf_add(&one, lc + tl, lc_len - tl); /* the argument's last compound */
        base_buf_add(&one, post, post_len);       /* the compound, after it */
        base_buf_add(&one, s + ce, len - ce);     /* the rest */
        if (one.oom) {
            rc = -1;
            break;
        }
        if (one.len == 0 || is_combinator(one.data[one.len - 1]))
            continue;
        rc = expand_is(one.data, one.len, out, count, level + 1);
    }
    base_buf_free(&one);
    return rc;
}

/* s with each :not() of a list outside brackets written as one :not() an
 * item (`:not(.a, .b)` is `:not(.a):not(.b)`, which litehtml 0.6 reads: it
 * takes the list for one selector that never matches, so that the rule
 * applied to every element). Into `o`; 0 when s has no such :not(). */
static int split_not(const char *s, size_t len, base_buf *o)
{
    int changed = 0;
    size_t copied = 0;
    for (size_t i = 0; (i = (size_t)(next_stop(s + i, s + len, B_GROUP) - s)) < len;) {
        size_t j = past_group(s, i, len);
        if (j != i) {
            i = j;
            continue;
        }
        if (!(s[i] == ':' && i + 5 <= len && eq_lower(s + i + 1, "not(", 4) &&
              (i == 0 || s[i - 1] != ':'))) {
            i++;
            continue;
        }
        size_t open = i + 4, close = (size_t)(group_end(s + open, s + len) - s);
        if (close > len || s[close - 1] != ')')
            break;
        /* Its items: 2 to 63 of them, none empty (an empty one makes the
         * selector invalid), else it is left as it is. */
        const char *p = s + open + 1, *end = s + close - 1, *x, *y;
        int items = 0, empty = 0;
        while (list_item(&p, end, &x, &y)) {
            items++;
            empty |= x == y;
        }
        if (items < 2 || items > 63 || empty) {
            i = close;
            continue;
        }
        base_buf_add(o, s + copied, i - copied);
        for (p = s + open + 1; list_item(&p, end, &x, &y);) {
            base_buf_puts(o, ":not(");
            base_buf_add(o, x, (size_t)(y - x));
            base_buf_putc(o, ')');
        }
        copied = i = close;
        changed = 1;
    }
    if (changed)
        base_buf_add(o, s + copied, len - copied);
    return changed;
}

/* Writes the selector [a, a + n) when it may match; counts it in *kept. */
static void put_selector(css_index *ix, const char *a, size_t n, base_buf *o, double *boxes,
                         int *kept)
{
    base_buf split = BASE_BUF_INIT;
    if (split_not(a, n, &split) && !split.oom) {
        a = split.data;
        n = split.len;
    }
    if (selector_may_match(ix, a, n)) {
        ix->kept++;
        if ((*kept)++)
            base_buf_add(o, ",", 1);
        base_buf_add(o, a, n);
        *boxes += pseudo_bound(ix, a, n);
    }
    base_buf_free(&split);
}

/* Writes the selectors of a prelude that may match, comma-separated, each
 * :is() and :where() written out (expand_is); returns how many. */
static int put_selectors(css_index *ix, const char *p, const char *end, base_buf *o,
                         double *boxes)
{
    int kept = 0, paren = 0;
    const char *start = p;
    for (const char *q = p; q <= end; q++) {
        q = next_stop(q, end, B_OPAQUE | B_PRELUDE);
        if (q < end) {
            const char *r = skip_opaque(q, end);
            if (r != q) {
                q = r - 1;
                continue;
            }
            if (*q == '(' || *q == '[')
                paren++;
            else if ((*q == ')' || *q == ']') && paren > 0)
                paren--;
            if (paren || *q != ',')
                continue;
        }
        const char *a = start, *b = q;
        while (a < b && base_html_space(*a))
            a++;
        while (b > a && base_html_space(b[-1]))
            b--;
        size_t n = (size_t)(b - a), open;
        if (n && find_is(a, n, &open) < n) {
            base_buf list = BASE_BUF_INIT;
            int count = 0;
            if (expand_is(a, n, &list, &count, 0) == 0 && !list.oom) {
                for (size_t i = 0; i < list.len;) {
                    size_t m = strlen(list.data + i);
                    put_selector(ix, list.data + i, m, o, boxes, &kept);
                    i += m + 1;
                }
            } else {
                put_selector(ix, a, n, o, boxes, &kept);
            }
            base_buf_free(&list);
        } else if (n) {
            put_selector(ix, a, n, o, boxes, &kept);
        }
        start = q + 1;
    }
    return kept;
}

static int at_is(const char *name, size_t n, const char *what)
{
    return strlen(what) == n && eq_lower(name, what, n);
}

/* One range of Media Queries 4, `(width >= 48rem)`, `(30em < width <= 60em)`,
 * written in the min-/max- form litehtml 0.6 reads, into `o`; 0 when
 * [p, end) (inside the parentheses) is not one (then nothing is written). A
 * bound is taken as inclusive either way. */
static int put_media_range(base_buf *o, const char *p, const char *end)
{
    /* Up to three terms split by up to two comparisons. */
    const char *term[3], *term_end[3];
    char op[2][2];
    int n = 0, ops = 0;
    const char *q = p;
    for (;;) {
        while (q < end && base_html_space(*q))
            q++;
        const char *t = q;
        while (q < end && !base_html_space(*q) && *q != '<' && *q != '>' && *q != '=')
            q++;
        if (q == t || n == 3)
            return 0;
        term[n] = t;
        term_end[n++] = q;
        while (q < end && base_html_space(*q))
            q++;
        if (q >= end)
            break;
        if (ops == 2 || (*q != '<' && *q != '>' && *q != '='))
            return 0;
        op[ops][0] = *q++;
        op[ops][1] = 0;
        if (q < end && *q == '=' && op[ops][0] != '=')
            op[ops][1] = *q++;
        ops++;
    }
    if (n != ops + 1 || n < 2)
        return 0;
    /* Which term is the feature. */
    int f = -1;
    for (int i = 0; i < n; i++) {
        size_t len = (size_t)(term_end[i] - term[i]);
        if ((len == 5 && eq_lower(term[i], "width", 5)) ||
            (len == 6 && eq_lower(term[i], "height", 6)))
            f = i;
    }
    if (f < 0 || (n == 3 && f != 1))
        return 0;
    int wrote = 0;
    for (int k = 0; k < ops; k++) {
        /* The value on the other side of comparison k, and which bound it is. */
        int v = k == f ? k + 1 : k; /* feature op value, or value op feature */
        if (v == f)
            return 0;
        char c = op[k][0];
        const char *bound = c == '=' ? NULL : ((c == '>') == (k == f)) ? "min-" : "max-";
        if (wrote++)
            base_buf_puts(o, " and ");
        base_buf_putc(o, '(');
        if (bound)
            base_buf_puts(o, bound);
        base_buf_add(o, term[f], (size_t)(term_end[f] - term[f]));
        base_buf_puts(o, ": ");
        base_buf_add(o, term[v], (size_t)(term_end[v] - term[v]));
        base_buf_putc(o, ')');
    }
    return 1;
}

/* Media features litehtml 0.6 does not know and takes for true whatever
 * they ask (a touch screen's rules, a dark theme's, those for a browser
 * running scripts all applied), as the browser glance stands for answers
 * them: a desktop window, a mouse (a finger on a phone's or tablet's
 * screen: css_index_touch), a light theme, no scripts, reduced
 * motion (nothing moves: pages then give their static version), no other
 * preference: each feature's value that holds. A feature alone (`(hover)`)
 * holds unless that value is "none" or "no-preference". */
static const struct {
    const char *name, *holds;
} media_answers[] = {
    {"hover", "hover"},
    {"any-hover", "hover"},
    {"pointer", "fine"},
    {"any-pointer", "fine"},
    {"prefers-color-scheme", "light"},
    {"prefers-reduced-motion", "reduce"}, /* nothing moves here: the static version */
    {"prefers-reduced-transparency", "no-preference"},
    {"prefers-reduced-data", "no-preference"},
    {"prefers-contrast", "no-preference"},
    {"forced-colors", "none"},
    {"inverted-colors", "none"},
    {"scripting", "none"},
    {"display-mode", "browser"},
    {"update", "fast"},
    {"overflow-block", "scroll"},
    {"overflow-inline", "scroll"},
};

/* `(name: value)` or `(name)`, [p, end) inside the parentheses, of a
 * feature of media_answers: 1 when it holds, 0 when not; -1 for any other. */
static int media_answer(const char *p, const char *end, int touch)
{
    while (p < end && base_html_space(*p))
        p++;
    while (end > p && base_html_space(end[-1]))
        end--;
    const char *colon = memchr(p, ':', (size_t)(end - p));
    const char *ne = colon ? colon : end;
    while (ne > p && base_html_space(ne[-1]))
        ne--;
    const char *v = colon ? colon + 1 : end;
    while (v < end && base_html_space(*v))
        v++;
    for (size_t i = 0; i < sizeof media_answers / sizeof media_answers[0]; i++) {
        size_t n = strlen(media_answers[i].name);
        if ((size_t)(ne - p) != n || !eq_lower(p, media_answers[i].name, n))
            continue;
        const char *holds = media_answers[i].holds;
        if (touch && strstr(media_answers[i].name, "hover")) /* a finger hovers over nothing */
            holds = "none";
        else if (touch && strstr(media_answers[i].name, "pointer"))
            holds = "coarse";
        if (!colon) /* the feature alone: whether its answer is something */
            return strcmp(holds, "none") != 0 && strcmp(holds, "no-preference") != 0;
        size_t vl = (size_t)(end - v);
        return vl == strlen(holds) && eq_lower(v, holds, vl);
    }
    return -1;
}

/* An @media prelude, each range in it written in the min-/max- form:
 * litehtml 0.6 takes `(width < 48rem)` for true at any width, so that the
 * rules for narrow windows applied on every page that writes them so. */
static void put_media_prelude(base_buf *o, const char *p, const char *end, int touch)
{
    while (p < end) {
        const char *q = skip_opaque(p, end);
        if (q != p) {
            base_buf_add(o, p, (size_t)(q - p));
            p = q;
            continue;
        }
        if (*p == '(') {
            const char *e = group_end(p, end);
            const char *close = e > p + 1 && e[-1] == ')' ? e - 1 : NULL;
            int range = 0;
            for (const char *r = p + 1; close && r < close; r++)
                range |= *r == '<' || *r == '>';
            size_t mark = o->len;
            if (range && !put_media_range(o, p + 1, close)) {
                base_buf_shrink(o, o->len - mark);
                range = 0;
            }
            /* A feature litehtml does not know: a test it reads, always met
             * or never (the window is wider than 0). */
            int answer = !range && close ? media_answer(p + 1, close, touch) : -1;
            if (answer >= 0)
                base_buf_puts(o, answer ? "(min-width: 0px)" : "(max-width: 0px)");
            else if (!range)
                base_buf_add(o, p, (size_t)(e - p));
            p = e;
            continue;
        }
        base_buf_putc(o, *p++);
    }
}

/* Whether a browser of today meets an @supports condition [p, end): every
 * declaration and selector() it tests is taken as supported but another
 * engine's prefixed ones (-moz-, -ms-, -o-), as a Blink browser would;
 * not, and, or as they say; anything else (font-tech(), a condition not
 * read) is not met. */
/* Whether [p, end) starts with the keyword `word` (not, and, or), followed
 * by white space or a '(': its length, else 0. */
static size_t keyword(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) > n && eq_lower(p, word, n) && (base_html_space(p[n]) || p[n] == '(')
               ? n
               : 0;
}

/* Whether a declaration's property [a, colon) is another engine's. */
static int other_engine(const char *a, const char *colon)
{
    static const char *const prefixes[] = {"-moz-", "-ms-", "-o-"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if ((size_t)(colon - a) > n && eq_lower(a, prefixes[i], n))
            return 1;
    }
    return 0;
}

static int supports_met(const char *p, const char *end, int level)
{
    while (p < end && base_html_space(*p))
        p++;
    while (end > p && base_html_space(end[-1]))
        end--;
    if (p >= end || level > 16)
        return 0;
    if (keyword(p, end, "not"))
        return !supports_met(p + 3, end, level + 1);
    int met = -1, op = 0; /* op: 0 none yet, 1 and, 2 or */
    while (p < end) {
        while (p < end && base_html_space(*p))
            p++;
        if (p >= end)
            break;
        if (met >= 0) { /* and / or */
            size_t k;
            if ((k = keyword(p, end, "and")))
                op = 1, p += k;
            else if ((k = keyword(p, end, "or")))
                op = 2, p += k;
            else
                return 0;
            while (p < end && base_html_space(*p))
                p++;
        }
        const char *name = p;
        while (p < end && *p != '(' && !base_html_space(*p))
            p++;
        if (p >= end || *p != '(')
            return 0;
        const char *e = group_end(p, end);
        if (e[-1] != ')')
            return 0;
        int one;
        if (p > name) { /* a function: selector() is met */
            one = (size_t)(p - name) == 8 && eq_lower(name, "selector", 8);
        } else {
            /* A declaration, or a condition in parentheses. */
            const char *a = p + 1, *b = e - 1, *colon = NULL;
            while (a < b && base_html_space(*a))
                a++;
            for (const char *q = a; q < b && *q != '(' && !colon; q++)
                if (*q == ':')
                    colon = q;
            if (colon && !keyword(a, b, "not"))
                one = !other_engine(a, colon);
            else
                one = supports_met(a, b, level + 1);
        }
        met = met < 0 ? one : op == 1 ? (met && one) : (met || one);
        p = e;
    }
    return met > 0;
}

/* CSS nesting ------------------------------------------------------------------ */

/* The first '{' of a declaration block [p, end) outside strings, comments
 * and brackets: where a nested rule's block opens; NULL when none. */
static const char *nested_open(const char *p, const char *end)
{
    int paren = 0;
    while ((p = next_stop(p, end, B_OPAQUE | B_PRELUDE)) < end) {
        const char *q = skip_opaque(p, end);
        if (q != p) {
            p = q;
            continue;
        }
        if (*p == '(' || *p == '[')
            paren++;
        else if ((*p == ')' || *p == ']') && paren > 0)
            paren--;
        else if (!paren && *p == '{')
            return p;
        p++;
    }
    return NULL;
}

/* A nested selector list [c, c_end) against its parent's list [par,
 * par_end): each `&` is the parent, `:is(parent)`, and a selector without
 * one is the parent's descendant. */
static void put_nested_selectors(base_buf *o, const char *par, size_t par_len, const char *c,
                                 const char *c_end, size_t cap)
{
    int first = 1;
    const char *a, *b;
    while (o->len <= cap && list_item(&c, c_end, &a, &b)) {
        if (a == b)
            continue;
        if (!first)
            base_buf_putc(o, ',');
        first = 0;
        int amp = 0;
        for (const char *x = a; x < b; x++) {
            const char *r = skip_opaque(x, b);
            if (r != x) {
                base_buf_add(o, x, (size_t)(r - x));
                x = r - 1;
            } else if (*x == '&') {
                base_buf_puts(o, ":is(");
                base_buf_add(o, par, par_len);
                base_buf_putc(o, ')');
                amp = 1;
            } else {
                base_buf_putc(o, *x);
            }
        }
        if (!amp) { /* a descendant of the parent: the parent goes first */
            size_t len = (size_t)(b - a);
            base_buf_shrink(o, len);
            base_buf_puts(o, ":is(");
            base_buf_add(o, par, par_len);
            base_buf_puts(o, ") ");
            base_buf_add(o, a, len);
        }
    }
}

/* The rule of selectors [sel, sel_end) and declaration block [blk,
 * blk_end) written without nesting into `o`: its own declarations under
 * its selectors, then each nested rule under the selectors nesting makes
 * (put_nested_selectors), each nested @media, @supports or @layer around
 * a rule of the parent's selectors. Beyond `level` 16 nested rules go. */
static void flatten_rule(const char *sel, size_t sel_len, const char *blk, const char *blk_end,
                         base_buf *o, int level, size_t cap)
{
    base_buf own = BASE_BUF_INIT, nested = BASE_BUF_INIT;
    const char *p = blk;
    while (p < blk_end && o->len + own.len + nested.len <= cap) {
        /* The next declaration, or the prelude of a nested rule. */
        const char *e = p;
        int paren = 0;
        while (e < blk_end) {
            const char *q = skip_opaque(e, blk_end);
            if (q != e) {
                e = q;
                continue;
            }
            if (*e == '(' || *e == '[')
                paren++;
            else if ((*e == ')' || *e == ']') && paren > 0)
                paren--;
            else if (!paren && (*e == ';' || *e == '{' || *e == '}'))
                break;
            e++;
        }
        if (e < blk_end && *e == '{') {
            const char *be = block_end(e, blk_end);
            const char *inner = e + 1, *inner_end = be > inner && be[-1] == '}' ? be - 1 : be;
            const char *a = p;
            while (a < e && base_html_space(*a))
                a++;
            if (level < 16 && a < e && *a == '@') {
                /* @media (...) { declarations and rules }: around the parent's rule. */
                base_buf_add(&nested, a, (size_t)(e - a));
                base_buf_putc(&nested, '{');
                flatten_rule(sel, sel_len, inner, inner_end, &nested, level + 1, cap);
                base_buf_puts(&nested, "}\n");
            } else if (level < 16 && a < e) {
                base_buf child = BASE_BUF_INIT;
                put_nested_selectors(&child, sel, sel_len, a, e, cap);
                if (child.len && !child.oom && child.len <= cap)
                    flatten_rule(child.data, child.len, inner, inner_end, &nested, level + 1, cap);
                nested.oom |= child.oom;
                base_buf_free(&child);
            }
            p = be;
            continue;
        }
        const char *d = p, *d_end = e;
        while (d < d_end && base_html_space(*d))
            d++;
        while (d_end > d && base_html_space(d_end[-1]))
            d_end--;
        if (d_end > d) {
            base_buf_add(&own, d, (size_t)(d_end - d));
            base_buf_putc(&own, ';');
        }
        p = e < blk_end ? e + 1 : e;
    }
    if (own.len) {
        base_buf_add(o, sel, sel_len);
        base_buf_putc(o, '{');
        base_buf_add(o, own.data, own.len);
        base_buf_puts(o, "}\n");
    }
    if (nested.len)
        base_buf_add(o, nested.data, nested.len);
    o->oom |= own.oom | nested.oom;
    base_buf_free(&own);
    base_buf_free(&nested);
}

/* Which rules filter_rules writes: a layer's rules lose to the rules
 * outside any layer whatever their order, so a sheet's layers are written
 * first, then the rest (the nearest litehtml's order comes to it). */
enum { RULES_ALL, RULES_LAYERED, RULES_UNLAYERED };

/* Logical properties, which litehtml 0.6 does not know, as the physical
 * ones they stand for in horizontal writing from left to right: a pair
 * takes one or two values (start, end), a box one to four (as margin). */
static const struct {
    const char *name;
    char kind; /* '1' the whole value, '2' a pair, '4' a box */
    const char *to[4];
} logical[] = {
    {"margin-inline", '2', {"margin-left", "margin-right"}},
    {"margin-block", '2', {"margin-top", "margin-bottom"}},
    {"margin-inline-start", '1', {"margin-left"}},
    {"margin-inline-end", '1', {"margin-right"}},
    {"margin-block-start", '1', {"margin-top"}},
    {"margin-block-end", '1', {"margin-bottom"}},
    {"padding-inline", '2', {"padding-left", "padding-right"}},
    {"padding-block", '2', {"padding-top", "padding-bottom"}},
    {"padding-inline-start", '1', {"padding-left"}},
    {"padding-inline-end", '1', {"padding-right"}},
    {"padding-block-start", '1', {"padding-top"}},
    {"padding-block-end", '1', {"padding-bottom"}},
    {"inset", '4', {"top", "right", "bottom", "left"}},
    {"inset-inline", '2', {"left", "right"}},
    {"inset-block", '2', {"top", "bottom"}},
    {"inset-inline-start", '1', {"left"}},
    {"inset-inline-end", '1', {"right"}},
    {"inset-block-start", '1', {"top"}},
    {"inset-block-end", '1', {"bottom"}},
    {"inline-size", '1', {"width"}},
    {"min-inline-size", '1', {"min-width"}},
    {"max-inline-size", '1', {"max-width"}},
    {"block-size", '1', {"height"}},
    {"min-block-size", '1', {"min-height"}},
    {"max-block-size", '1', {"max-height"}},
};

/* The declaration [a, b) (no ';') written with a logical property as the
 * physical ones; 0 when it is no logical property (nothing written). */
static int put_logical(base_buf *o, const char *a, const char *b)
{
    while (a < b && base_html_space(*a))
        a++;
    const char *colon = memchr(a, ':', (size_t)(b - a));
    if (!colon)
        return 0;
    const char *ne = colon;
    while (ne > a && base_html_space(ne[-1]))
        ne--;
    size_t nl = (size_t)(ne - a), k;
    for (k = 0; k < sizeof logical / sizeof logical[0]; k++)
        if (strlen(logical[k].name) == nl && eq_lower(a, logical[k].name, nl))
            break;
    if (k == sizeof logical / sizeof logical[0])
        return 0;
    const char *v = colon + 1, *ve = b;
    while (v < ve && base_html_space(*v))
        v++;
    while (ve > v && base_html_space(ve[-1]))
        ve--;
    /* !important goes with each physical declaration. */
    const char *imp = NULL;
    for (const char *q = ve; q > v; q--)
        if (q[-1] == '!') {
            imp = q - 1;
            break;
        }
    if (imp) {
        const char *w = imp + 1;
        while (w < ve && base_html_space(*w))
            w++;
        if (ve - w != 9 || !eq_lower(w, "important", 9))
            imp = NULL;
    }
    const char *vend = imp ? imp : ve;
    while (vend > v && base_html_space(vend[-1]))
        vend--;
    /* The values, split at white space outside brackets. */
    const char *val[4];
    size_t len[4];
    int n = 0, depth = 0;
    for (const char *q = v; q < vend && n <= 4;) {
        while (q < vend && base_html_space(*q))
            q++;
        if (q >= vend)
            break;
        const char *st = q;
        while (q < vend && (depth > 0 || !base_html_space(*q))) {
            depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
            q++;
        }
        if (n < 4)
            val[n] = st, len[n] = (size_t)(q - st);
        n++;
    }
    int want = logical[k].kind - '0';
    if (n == 0 || n > want)
        return 1; /* not a value a browser takes: dropped as it would be */
    for (int i = 0; i < want; i++) {
        /* A box's missing values as margin's: right and bottom from top,
         * left from right; a pair's end from its start. */
        int j = i < n ? i : (want == 4 && i == 3 && n > 1) ? 1 : 0;
        base_buf_puts(o, logical[k].to[i]);
        base_buf_add(o, ":", 1);
        base_buf_add(o, val[j], len[j]);
        if (imp)
            base_buf_puts(o, " !important");
        base_buf_add(o, ";", 1);
    }
    return 1;
}

/* The declaration block [p, end) ('{' to '}') as litehtml should read it:
 * as it is, but for logical properties (put_logical). */
static void put_block(base_buf *o, const char *p, const char *end)
{
    const char *a = p + 1, *close = end > p + 1 && end[-1] == '}' ? end - 1 : end;
    int any = 0;
    for (const char *q = a; q + 5 <= close && !any; q++) {
        int c = tolower((unsigned char)*q); /* the words' first letters */
        any = (c == 'b' || c == 'i') &&
              (eq_lower(q, "block", 5) || eq_lower(q, "inset", 5) ||
               (q + 6 <= close && eq_lower(q, "inline", 6)));
    }
    if (!any) {
        base_buf_add(o, p, (size_t)(end - p));
        return;
    }
    base_buf_add(o, "{", 1);
    int depth = 0;
    for (const char *q = a; q <= close;) {
        const char *r = q < close ? skip_opaque(q, close) : q;
        if (r != q) {
            q = r;
            continue;
        }
        if (q == close || (*q == ';' && depth == 0)) {
            if (!put_logical(o, a, q)) {
                base_buf_add(o, a, (size_t)(q - a));
                if (q < close)
                    base_buf_add(o, ";", 1);
            }
            if (q == close)
                break;
            a = ++q;
            continue;
        }
        depth += *q == '(' ? 1 : *q == ')' && depth > 0 ? -1 : 0;
        q++;
    }
    base_buf_add(o, close, (size_t)(end - close));
}

static void filter_rules(css_index *ix, const char *p, const char *end, base_buf *o, int depth,
                         int which)
{
    while (p < end && !o->oom) {
        const char *q = skip_opaque(p, end);
        if (q != p || base_html_space(*p) || *p == ';' || *p == '}') {
            p = q != p ? q : p + 1;
            continue;
        }
        const char *pe = prelude_end(p, end);
        if (*p == '@') {
            const char *name = p + 1, *ne = name;
            while (ne < pe && is_ident((unsigned char)*ne))
                ne++;
            size_t nl = (size_t)(ne - name);
            if (pe >= end || *pe != '{') { /* @import, @charset, @namespace */
                if (which != RULES_UNLAYERED) { /* written once, first */
                    base_buf_add(o, p, (size_t)(pe - p));
                    base_buf_add(o, ";", 1);
                }
                p = pe < end ? pe + 1 : end;
                continue;
            }
            const char *be = block_end(pe, end);
            /* litehtml 0.6 drops the rules of an @layer or an @supports
             * block: those of a layer, and of a condition a browser meets,
             * are written as rules of the block around them. */
            if (at_is(name, nl, "layer") && depth < 16) {
                if (which != RULES_UNLAYERED)
                    filter_rules(ix, pe + 1, be > pe + 1 ? be - 1 : be, o, depth + 1, RULES_ALL);
                p = be;
                continue;
            }
            if (at_is(name, nl, "supports") && supports_met(ne, pe, 0) && depth < 16) {
                filter_rules(ix, pe + 1, be > pe + 1 ? be - 1 : be, o, depth + 1, which);
                p = be;
                continue;
            }
            if ((at_is(name, nl, "media") || at_is(name, nl, "document") ||
                 at_is(name, nl, "-moz-document")) &&
                depth < 16) {
                size_t mark = o->len;
                if (at_is(name, nl, "media"))
                    put_media_prelude(o, p, pe, ix->touch);
                else
                    base_buf_add(o, p, (size_t)(pe - p));
                base_buf_add(o, "{", 1);
                size_t inner = o->len;
                filter_rules(ix, pe + 1, be > pe + 1 ? be - 1 : be, o, depth + 1, which);
                if (o->len == inner) /* nothing left inside */
                    base_buf_shrink(o, o->len - mark);
                else
                    base_buf_add(o, "}\n", 2);
            }
            /* @font-face, @keyframes, @page ...: litehtml uses none of them. */
            p = be;
            continue;
        }
        if (pe >= end || *pe != '{') { /* a stray prelude: drop it */
            p = pe < end ? pe + 1 : end;
            continue;
        }
        if (which == RULES_LAYERED) { /* outside any layer: the second pass's */
            p = block_end(pe, end);
            continue;
        }
        const char *be = block_end(pe, end);
        const char *inner_end = be > pe + 1 && be[-1] == '}' ? be - 1 : be;
        if (depth < 16 && nested_open(pe + 1, inner_end)) {
            /* CSS nesting, which litehtml 0.6 does not read: the rules it
             * stands for, filtered as any others. Bounded: a flattened rule
             * over 16 times its text (each nested selector holds its
             * parent's) is left out. */
            const char *a = p, *b = pe;
            while (b > a && base_html_space(b[-1]))
                b--;
            base_buf flat = BASE_BUF_INIT;
            size_t cap = 16 * (size_t)(be - p) + 4096;
            flatten_rule(a, (size_t)(b - a), pe + 1, inner_end, &flat, 0, cap);
            if (!flat.oom && flat.len <= cap)
                filter_rules(ix, flat.data ? flat.data : "", flat.data ? flat.data + flat.len : "",
                             o, depth + 1, RULES_ALL);
            base_buf_free(&flat);
            p = be;
            continue;
        }
        size_t mark = o->len;
        double boxes = 0;
        int kept = put_selectors(ix, p, pe, o, &boxes);
        if (kept > 0 && boxes > 0) {
            /* Generated content is built when styles are applied, before
             * any deadline can be checked: bounded here (cssfilter.h). */
            double chars = content_chars(pe, be);
            ix->generated += boxes * chars;
            if (chars > 0 && ix->max_generated > 0 && ix->generated > (double)ix->max_generated) {
                ix->generated_over = 1;
                kept = 0;
            }
        }
        if (kept > 0)
            put_block(o, pe, be), base_buf_add(o, "\n", 1);
        else
            base_buf_shrink(o, o->len - mark);
        p = be;
    }
}

/* Whether the sheet may hold an @layer block (a cheap look, case aside). */
static int css_has_layer(const char *css, size_t len)
{
    for (const char *p = css; (p = memchr(p, '@', (size_t)(css + len - p))) != NULL; p++)
        if ((size_t)(css + len - p) > 6 && eq_lower(p + 1, "layer", 5))
            return 1;
    return 0;
}

char *css_filter(css_index *ix, const char *css, size_t len, size_t *out_len)
{
    css_index_note_sheet(ix, css, len);
    base_buf o = BASE_BUF_INIT;
    if (css_has_layer(css, len)) {
        filter_rules(ix, css, css + len, &o, 0, RULES_LAYERED);
        filter_rules(ix, css, css + len, &o, 0, RULES_UNLAYERED);
    } else {
        filter_rules(ix, css, css + len, &o, 0, RULES_ALL);
    }
    return base_buf_take(&o, out_len);
}

/* The page rewritten for litehtml (css_prepare_html). */
typedef struct html_rewrite {
    css_index *ix;
    const char *copied; /* everything before this is in `o` */
    base_buf o;
    size_t style_bytes; /* <style> text kept so far */
    int foreign;        /* an <svg> or <math> start tag was read: what follows
                           may be foreign content (read_as_is) */
} html_rewrite;

/* The attributes of start tag `t` nothing reads (attr_unread) left out,
 * and the length of their markup put in DOM_ATTR_CUT. */
static void drop_unread_attrs(html_rewrite *r, const base_tag *t)
{
    css_index *ix = r->ix;
    const char *attrs_end = t->attrs + t->attrs_len;
    int img = base_tag_is(t, "img");
    long cut = 0;
    base_tag_attrs it;
    base_tag_attrs_init(&it, t);
    base_tag_attr a;
    while (base_tag_attrs_next(&it, &a)) {
        if (!attr_unread(a.name, a.name_len, img) || set_has(ix, 'a', a.name, a.name_len))
            continue;
        /* What GCE reads of every attribute (dom.h), and a value the
         * parser decodes first: kept. */
        if (a.value && (memchr(a.value, '&', a.value_len) ||
                        dom_value_names_content(a.value, a.value_len)))
            continue;
        const char *end = a.name + a.name_len;
        long value = 0;
        if (a.value) {
            end = a.value + a.value_len;
            if (a.value[-1] == '"' || a.value[-1] == '\'')
                end++; /* its closing quote */
            value = code_points(a.value, a.value_len);
        }
        /* DANAg's count (extract/danag.c): ` name`, and `="value"` when
         * the value is not empty. A name repeated later in the tag, which
         * the parser drops, is counted too. */
        cut += 1 + code_points(a.name, a.name_len) + (value ? 3 + value : 0);
        set_add(ix, 'x', a.name, a.name_len);
        ix->dropped++;
        base_buf_add(&r->o, r->copied, (size_t)(a.name - r->copied));
        r->copied = end;
    }
    if (cut == 0)
        return;
    base_buf_add(&r->o, r->copied, (size_t)(attrs_end - r->copied));
    base_buf_printf(&r->o, " " DOM_ATTR_CUT "=\"%ld\"", cut);
    r->copied = attrs_end;
}

/* Drops `n` bytes at `text` (script text, a comment), or puts the filtered
 * CSS in their place (`style`: the text of a <style>). */
void css_index_set_aside(css_index *ix, int on)
{
    ix->aside_on = on;
}

size_t css_index_aside_count(const css_index *ix)
{
    return ix->n_aside;
}

const char *css_index_aside(const css_index *ix, size_t i, size_t *len)
{
    if (i >= ix->n_aside)
        return NULL;
    *len = ix->aside_len[i];
    return ix->aside[i];
}

/* The mark of sheet i, into buf (at least CSS_ASIDE_MARK_MAX bytes). */
#define CSS_ASIDE_MARK_MAX 48
static void aside_mark(size_t i, char *buf)
{
    snprintf(buf, CSS_ASIDE_MARK_MAX, "/*glance-aside:%zu*/", i);
}

const char *css_index_aside_of(const css_index *ix, const char *text, size_t *len)
{
    static const char prefix[] = "/*glance-aside:";
    if (!ix || strncmp(text, prefix, sizeof prefix - 1) != 0)
        return NULL;
    char *end;
    unsigned long long i = strtoull(text + sizeof prefix - 1, &end, 10);
    char want[CSS_ASIDE_MARK_MAX];
    if (i >= ix->n_aside)
        return NULL;
    aside_mark((size_t)i, want);
    if (strcmp(text, want) != 0)
        return NULL;
    *len = ix->aside_len[i];
    return ix->aside[i];
}

/* Whether gumbo hands litehtml the n bytes of a <style>'s text as they are:
 * nothing its input stream rewrites (CR, NUL, control characters,
 * noncharacters, ill-formed UTF-8 and surrogates, all of which it turns
 * into LF or U+FFFD), and no "</", which may end the element. With
 * `foreign`, the <style> may be inside <svg> or <math>, where it is no raw
 * text to the parser (base/tags.h), which reads tags and character
 * references in it: neither '<' nor '&' either. */
static int read_as_is(const char *s, size_t n, int foreign)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        unsigned c = *p;
        if (c >= 0x20 && c < 0x7f) {
            if ((c == '<' && (foreign || (p + 1 < end && p[1] == '/'))) || (c == '&' && foreign))
                return 0;
            p++;
            continue;
        }
        if (c == '\t' || c == '\n' || c == '\f') {
            p++;
            continue;
        }
        uint32_t cp;
        size_t k;
        if (c >= 0xc2 && c <= 0xdf) {
            cp = c & 0x1f;
            k = 1;
        } else if (c >= 0xe0 && c <= 0xef) {
            cp = c & 0x0f;
            k = 2;
        } else if (c >= 0xf0 && c <= 0xf4) {
            cp = c & 0x07;
            k = 3;
        } else {
            return 0; /* a control character, DEL, or no lead byte */
        }
        if ((size_t)(end - p) <= k)
            return 0;
        for (size_t j = 1; j <= k; j++) {
            if ((p[j] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (p[j] & 0x3f);
        }
        if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0 || (cp >= 0xfdd0 && cp <= 0xfdef) ||
            (cp & 0xfffe) == 0xfffe)
            return 0;
        p += k + 1;
    }
    return 1;
}

static void rewrite_region(html_rewrite *r, int style, const char *text, size_t n)
{
    base_buf_add(&r->o, r->copied, (size_t)(text - r->copied));
    r->copied = text + n;
    if (!style)
        return; /* dropped */
    if (r->ix->max_style_bytes > 0) {
        if (n > r->ix->max_style_bytes - r->style_bytes)
            return; /* over the page's share of CSS: left out */
        r->style_bytes += n;
    }
    size_t fl;
    char *f = css_filter(r->ix, text, n, &fl);
    if (!f) {
        r->o.oom = 1; /* the whole page fails with its stylesheet */
        return;
    }
    css_index *ix = r->ix;
    if (ix->aside_on && fl > 0 && read_as_is(f, fl, r->foreign)) {
        size_t *lens = NULL;
        if (base_grow(&ix->aside, &ix->cap_aside, ix->n_aside + 1, sizeof *ix->aside) ||
            !(lens = realloc(ix->aside_len, ix->cap_aside * sizeof *ix->aside_len))) {
            free(f);
            r->o.oom = 1;
            return;
        }
        ix->aside_len = lens;
        char mark[CSS_ASIDE_MARK_MAX];
        aside_mark(ix->n_aside, mark);
        base_buf_puts(&r->o, mark);
        ix->aside[ix->n_aside] = f;
        ix->aside_len[ix->n_aside++] = fl;
        return;
    }
    base_buf_add(&r->o, f, fl);
    free(f);
}

char *css_prepare_html(css_index *ix, const char *html, size_t len, int noscript_styles,
                       css_page_info *info)
{
    noscript_plan plan;
    css_page_info local = {0, 0, 0};
    if (!info)
        info = &local;
    memset(info, 0, sizeof *info);
    aside_clear(ix);
    char *spliced;
    size_t spliced_len;
    info->streamed_parts = streamed_splice(html, len, &spliced, &spliced_len);
    if (info->streamed_parts < 0)
        return NULL;
    if (spliced) {
        html = spliced;
        len = spliced_len;
    }
    if (noscript_plan_page(html, len, &plan, &info->text_bytes) != 0) {
        free(spliced);
        return NULL;
    }
    html_rewrite r = {ix, html, BASE_BUF_INIT, 0, 0};
    base_tag_scanner s;
    base_tag_scanner_init(&s, html, len);
    base_tag t;
    base_tag_attr attr;
    int noscript = 0; /* inside a <noscript> */
    while (base_tag_next(&s, &t)) {
        if (t.kind == BASE_TAG_START && (!strcmp(t.lower, "svg") || !strcmp(t.lower, "math")))
            r.foreign = 1;
        if (t.kind == BASE_TAG_COMMENT) {
            rewrite_region(&r, 0, t.start, t.len);
        } else if (t.kind == BASE_TAG_RAW && base_tag_is(&t, "script")) {
            rewrite_region(&r, 0, t.start, t.len);
        } else if (t.kind == BASE_TAG_RAW && base_tag_is(&t, "style")) {
            /* A <noscript>'s styles are for a page without scripts
             * (noscript.h): they apply unless the caller says not. */
            info->noscript_styles += noscript > 0;
            rewrite_region(&r, !noscript || noscript_styles, t.start, t.len);
        } else if (t.kind == BASE_TAG_START && base_tag_is(&t, "link") &&
                   base_tag_find_attr(&t, "disabled", &attr)) {
            /* A stylesheet marked disabled (a theme a script may switch
             * to) applies to nothing in a browser; litehtml would apply
             * it: the tag is left out. */
            rewrite_region(&r, 0, t.start, t.len);
        } else if (t.kind == BASE_TAG_START && base_tag_is(&t, "noscript") && !t.self_closing) {
            if (noscript++ == 0 && noscript_plan_shows(&plan, t.start)) {
                const char *after = t.name + t.name_len;
                base_buf_add(&r.o, r.copied, (size_t)(after - r.copied));
                base_buf_puts(&r.o, " " NOSCRIPT_SHOWN_ATTR);
                r.copied = after;
            }
        } else if (t.kind == BASE_TAG_END && base_tag_is(&t, "noscript") && noscript > 0) {
            noscript--;
        } else if (t.kind == BASE_TAG_START && ix->drop_attrs && !ix->attrs_unknown &&
                   !t.truncated && t.attrs_len > 0) {
            drop_unread_attrs(&r, &t);
        }
    }
    noscript_plan_free(&plan);
    base_buf_add(&r.o, r.copied, (size_t)(html + len - r.copied));
    free(spliced);
    return base_buf_take(&r.o, NULL);
}
