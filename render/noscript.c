/* render/: which <noscript> elements a reader without scripts is shown
 * (noscript.h says why and how). */
#include "render/noscript.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/grow.h"
#include "base/tags.h"
#include "base/utf8.h"

/* Copies are found by byte grams of the text with its white space taken
 * out (any script: no words needed). Only the grams whose hash falls on a
 * fixed residue are kept, on both sides alike, so that a copy is found
 * wherever it starts and the page's set stays an eighth of its text. */
#define GRAM 16
#define SAMPLE 8

typedef struct candidate {
    const char *tag;   /* the '<' of its start tag */
    size_t from, to;   /* its text in `inside` */
    size_t chars;      /* code points other than white space */
    size_t marks;      /* characters and references of markup written as text */
} candidate;

typedef struct scan {
    base_buf outside, inside; /* text outside and inside <noscript>, no white space */
    candidate *c;
    size_t n, cap;
    int failed;
} scan;

static uint64_t gram_hash(const char *p)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (int i = 0; i < GRAM; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    return h;
}

/* Appends a text token without its white space; counts its characters and
 * the markup in it when `cand` is not NULL. */
static void add_text(base_buf *b, const char *p, size_t n, candidate *cand)
{
    const char *end = p + n;
    while (!cand && p < end) { /* nothing to count: runs between spaces at once */
        while (p < end && base_html_space(*p))
            p++;
        const char *q = p;
        while (q < end && !base_html_space(*q))
            q++;
        base_buf_add(b, p, (size_t)(q - p));
        p = q;
    }
    while (p < end) {
        if (base_html_space(*p)) {
            p++;
            continue;
        }
        const char *q = p;
        uint32_t cp = base_utf8_next(&q, end);
        if (cand) {
            cand->chars++;
            if (cp == '<' || cp == '>' || cp == '=' || cp == '"' ||
                (cp == '&' && (end - p >= 4) && (!strncmp(p, "&lt;", 4) || !strncmp(p, "&gt;", 4))))
                cand->marks++;
        }
        base_buf_add(b, p, (size_t)(q - p));
        p = q;
    }
}

/* An open-addressing set of the sampled gram hashes of a text. */
typedef struct gram_set {
    uint64_t *slots; /* 0: empty (a hash of 0 is stored as 1) */
    size_t mask;
} gram_set;

static int sampled(uint64_t h)
{
    return (h >> 7) % SAMPLE == 0;
}

static int set_build(gram_set *s, const char *text, size_t len)
{
    size_t want = len / SAMPLE * 2 + 16, size = 16;
    while (size < want)
        size *= 2;
    s->slots = calloc(size, sizeof *s->slots);
    s->mask = size - 1;
    if (!s->slots)
        return -1;
    for (size_t i = 0; i + GRAM <= len; i++) {
        uint64_t h = gram_hash(text + i);
        if (!sampled(h))
            continue;
        h = h ? h : 1;
        size_t k = (size_t)h & s->mask;
        while (s->slots[k] && s->slots[k] != h)
            k = (k + 1) & s->mask;
        s->slots[k] = h;
    }
    return 0;
}

static int set_has(const gram_set *s, uint64_t h)
{
    h = h ? h : 1;
    for (size_t k = (size_t)h & s->mask; s->slots[k]; k = (k + 1) & s->mask)
        if (s->slots[k] == h)
            return 1;
    return 0;
}

/* The share of a text's sampled grams found in the set; 0 when it has none. */
static double copied_share(const gram_set *s, const char *text, size_t len)
{
    size_t seen = 0, found = 0;
    for (size_t i = 0; i + GRAM <= len; i++) {
        uint64_t h = gram_hash(text + i);
        if (!sampled(h))
            continue;
        seen++;
        found += set_has(s, h);
    }
    return seen ? (double)found / (double)seen : 0;
}

static int push_shown(noscript_plan *p, const char *tag)
{
    if (base_grow(&p->shown, &p->cap, p->n + 1, sizeof *p->shown) != 0)
        return -1;
    p->shown[p->n++] = tag;
    return 0;
}

int noscript_plan_page(const char *html, size_t len, noscript_plan *out, size_t *text_bytes)
{
    memset(out, 0, sizeof *out);
    scan s = {BASE_BUF_INIT, BASE_BUF_INIT, NULL, 0, 0, 0};
    base_tag_scanner sc;
    base_tag_scanner_init(&sc, html, len);
    base_tag t;
    int depth = 0; /* <noscript> open; one inside another adds to the outer */
    while (base_tag_next(&sc, &t)) {
        if (t.kind == BASE_TAG_START && base_tag_is(&t, "noscript") && !t.self_closing) {
            if (depth++ == 0) {
                if (base_grow(&s.c, &s.cap, s.n + 1, sizeof *s.c) != 0) {
                    s.failed = 1;
                    break;
                }
                s.c[s.n++] = (candidate){t.start, s.inside.len, s.inside.len, 0, 0};
            }
        } else if (t.kind == BASE_TAG_END && base_tag_is(&t, "noscript")) {
            if (depth > 0 && --depth == 0)
                s.c[s.n - 1].to = s.inside.len;
        } else if (t.kind == BASE_TAG_TEXT) {
            if (depth > 0)
                add_text(&s.inside, t.start, t.len, &s.c[s.n - 1]);
            else
                add_text(&s.outside, t.start, t.len, NULL);
        }
    }
    if (depth > 0 && s.n)
        s.c[s.n - 1].to = s.inside.len; /* open to the end of the page */
    int rc = s.failed || s.outside.oom || s.inside.oom ? -1 : 0;
    gram_set set = {NULL, 0};
    int have_set = 0;
    for (size_t i = 0; rc == 0 && i < s.n; i++) {
        candidate *c = &s.c[i];
        /* Prose, not a line about scripts, nor markup written as text. */
        if (c->chars < NOSCRIPT_MIN_CHARS || c->marks * 30 > c->chars)
            continue;
        if (!have_set) {
            if (set_build(&set, s.outside.data ? s.outside.data : "", s.outside.len) != 0) {
                rc = -1;
                break;
            }
            have_set = 1;
        }
        if (copied_share(&set, s.inside.data + c->from, c->to - c->from) > NOSCRIPT_MAX_COPIED)
            continue; /* the page carries it anyway: counted once */
        if (push_shown(out, c->tag) != 0)
            rc = -1;
    }
    if (text_bytes)
        *text_bytes = s.outside.len;
    free(set.slots);
    free(s.c);
    base_buf_free(&s.outside);
    base_buf_free(&s.inside);
    if (rc != 0)
        noscript_plan_free(out);
    return rc;
}

void noscript_plan_free(noscript_plan *p)
{
    free(p->shown);
    memset(p, 0, sizeof *p);
}

int noscript_plan_shows(const noscript_plan *p, const char *tag)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->shown[mid] == tag)
            return 1;
        if (p->shown[mid] < tag)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}
