/* render/: a streamed page's parts put where they belong (streamed.h says
 * why and how). One scan of the tags finds the placeholders, the hidden
 * parts and the scripts' pairs of ids; the page is then written again with
 * each part in its placeholder's place. */
#include "render/streamed.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/grow.h"
#include "base/tags.h"

typedef struct span {
    const char *p;
    size_t n;
} span;

/* A placeholder: <template id=...></template>, and the fallback after it
 * up to its boundary's end comment when it opens one. */
typedef struct holder {
    span id;
    const char *start, *skip_to; /* replaced: [start, skip_to) */
    int boundary;                /* after <!--$?-->: a fallback follows */
} holder;

/* A hidden part: <div hidden id=...> ... </div> (a part inside <svg> or a
 * table comes in an element of another name, always with `hidden`). */
typedef struct part {
    span id;
    const char *start, *inner, *inner_end, *end;
    int used;
} part;

typedef struct pair {
    span holder, part;
} pair;

/* What is replaced or taken out, in the page's order. */
typedef struct event {
    const char *start, *end;
    int part; /* the part put in its place; -1: a hidden part taken out */
} event;

/* A boundary's comment: +1 opens one (<!--$-->, <!--$?-->, <!--$!-->),
 * -1 closes one (<!--/$-->). */
typedef struct mark {
    const char *start;
    int step;
} mark;

typedef struct scan {
    holder *holders;
    size_t n_holders, cap_holders;
    part *parts;
    size_t n_parts, cap_parts;
    pair *pairs;
    size_t n_pairs, cap_pairs;
    mark *marks;
    size_t n_marks, cap_marks;
    event *events;
    size_t n_events, cap_events;
} scan;

static int span_eq(span a, span b)
{
    return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

/* The id and whether the tag has `hidden`. */
static span tag_id(const base_tag *t, int *hidden)
{
    span id = {NULL, 0};
    base_tag_attrs it;
    base_tag_attr a;
    base_tag_attrs_init(&it, t);
    *hidden = 0;
    while (base_tag_attrs_next(&it, &a)) {
        if (base_tag_attr_is(&a, "id") && a.value)
            id = (span){a.value, a.value_len};
        else if (base_tag_attr_is(&a, "hidden"))
            *hidden = 1;
    }
    return id;
}

/* One quoted id at *p (white space before it): its bytes, *p past it. */
static int read_id(const char **p, const char *end, span *id)
{
    const char *q = *p;
    while (q < end && base_html_space(*q))
        q++;
    if (q >= end || (*q != '"' && *q != '\''))
        return 0;
    char quote = *q++;
    const char *s = q;
    while (q < end && *q != quote && *q != '\\' && q - s <= 64)
        q++;
    if (q >= end || *q != quote || q == s)
        return 0;
    *id = (span){s, (size_t)(q - s)};
    *p = q + 1;
    return 1;
}

/* The pairs a script's text names: $RC("B:0","S:0") puts part S:0 in
 * boundary B:0; $RS("S:1","P:1") puts part S:1 in placeholder P:1. */
static int read_pairs(scan *s, const char *text, size_t n)
{
    const char *end = text + n;
    for (const char *p = text; p + 4 <= end; p++) {
        p = memchr(p, '$', (size_t)(end - p));
        if (!p || end - p < 4)
            break;
        if (p[1] != 'R' || (p[2] != 'C' && p[2] != 'S') || p[3] != '(')
            continue;
        int completes = p[2] == 'C';
        const char *q = p + 4;
        span a, b;
        if (!read_id(&q, end, &a))
            continue;
        while (q < end && base_html_space(*q))
            q++;
        if (q >= end || *q++ != ',' || !read_id(&q, end, &b))
            continue;
        if (s->n_pairs >= STREAMED_MAX_PARTS)
            return 0;
        if (base_grow(&s->pairs, &s->cap_pairs, s->n_pairs + 1, sizeof *s->pairs) != 0)
            return -1;
        s->pairs[s->n_pairs++] = completes ? (pair){a, b} : (pair){b, a};
        p = q - 1;
    }
    return 0;
}

/* Is the comment token one of a boundary's? Its step, or 0. */
static int boundary_step(const base_tag *t, int *pending)
{
    /* "<!--" + data + "-->" */
    if (t->len < 7)
        return 0;
    const char *d = t->start + 4;
    size_t n = t->len - 7;
    *pending = n == 2 && d[0] == '$' && d[1] == '?';
    if ((n == 1 && d[0] == '$') || (n == 2 && d[0] == '$' && (d[1] == '?' || d[1] == '!')))
        return 1;
    if (n == 2 && d[0] == '/' && d[1] == '$')
        return -1;
    return 0;
}

/* Open hidden elements that may be parts, with the depth of their name. */
typedef struct open_part {
    size_t part;
    char name[16];
    int depth;
} open_part;

static int read_page(scan *s, const char *html, size_t len)
{
    base_tag_scanner sc;
    base_tag t;
    base_tag_scanner_init(&sc, html, len);
    open_part open[STREAMED_MAX_OPEN];
    size_t n_open = 0;
    int after_pending = 0;      /* the token before was <!--$?--> */
    holder *waiting = NULL;     /* a <template> whose end tag is next */
    while (base_tag_next(&sc, &t)) {
        int pending = 0;
        if (waiting) {
            if (t.kind == BASE_TAG_END && base_tag_is(&t, "template"))
                waiting->skip_to = t.start + t.len;
            else
                s->n_holders--; /* a template with content: not React's */
            waiting = NULL;
        }
        if (t.kind == BASE_TAG_RAW && base_tag_is(&t, "script")) {
            if (read_pairs(s, t.start, t.len) != 0)
                return -1;
        } else if (t.kind == BASE_TAG_COMMENT) {
            int step = boundary_step(&t, &pending);
            if (step && s->n_marks < 16 * (size_t)STREAMED_MAX_PARTS) {
                if (base_grow(&s->marks, &s->cap_marks, s->n_marks + 1, sizeof *s->marks) != 0)
                    return -1;
                s->marks[s->n_marks++] = (mark){t.start, step};
            }
        } else if (t.kind == BASE_TAG_START && !t.self_closing && t.lower[0]) {
            for (size_t i = 0; i < n_open; i++)
                open[i].depth += strcmp(open[i].name, t.lower) == 0;
            int hidden;
            span id = tag_id(&t, &hidden);
            if (id.n && base_tag_is(&t, "template") && s->n_holders < STREAMED_MAX_PARTS) {
                if (base_grow(&s->holders, &s->cap_holders, s->n_holders + 1,
                              sizeof *s->holders) != 0)
                    return -1;
                waiting = &s->holders[s->n_holders++];
                *waiting = (holder){id, t.start, NULL, after_pending};
            } else if (id.n && hidden && n_open < STREAMED_MAX_OPEN &&
                       s->n_parts < STREAMED_MAX_PARTS &&
                       !base_tag_in(t.lower, base_void_elements)) {
                if (base_grow(&s->parts, &s->cap_parts, s->n_parts + 1, sizeof *s->parts) != 0)
                    return -1;
                s->parts[s->n_parts] = (part){id, t.start, t.start + t.len, NULL, NULL, 0};
                open[n_open].part = s->n_parts++;
                memcpy(open[n_open].name, t.lower, sizeof open[n_open].name);
                open[n_open++].depth = 1;
            }
        } else if (t.kind == BASE_TAG_END && t.lower[0]) {
            for (size_t i = n_open; i-- > 0;) {
                if (strcmp(open[i].name, t.lower) != 0 || --open[i].depth > 0)
                    continue;
                part *pt = &s->parts[open[i].part];
                pt->inner_end = t.start;
                pt->end = t.start + t.len;
                memmove(&open[i], &open[i + 1], (n_open - i - 1) * sizeof *open);
                n_open--;
            }
        }
        after_pending = pending;
    }
    if (waiting)
        s->n_holders--;
    return 0;
}

/* The first of `n` items in the page's order (each begins with its
 * `const char *start`) that starts at `at` or after. */
static size_t first_from(const void *items, size_t n, size_t size, const char *at)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *start;
        memcpy(&start, (const char *)items + mid * size, sizeof start);
        if (start < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Where a boundary's fallback ends: its <!--/$-->, the first close comment
 * after `from` that is not of a boundary opened after `from`. */
static const char *fallback_end(const scan *s, const char *from)
{
    int depth = 0;
    for (size_t i = first_from(s->marks, s->n_marks, sizeof *s->marks, from); i < s->n_marks;
         i++) {
        depth += s->marks[i].step;
        if (depth < 0)
            return s->marks[i].start;
    }
    return NULL;
}

static int by_start(const void *a, const void *b)
{
    const event *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int add_event(scan *s, event e)
{
    if (base_grow(&s->events, &s->cap_events, s->n_events + 1, sizeof *s->events) != 0)
        return -1;
    s->events[s->n_events++] = e;
    return 0;
}

/* The events: each pair whose placeholder and part are both on the page
 * (the first of each id), a part placed once. Returns the parts placed. */
static int pair_up(scan *s)
{
    int placed = 0;
    for (size_t i = 0; i < s->n_pairs; i++) {
        holder *h = NULL;
        part *pt = NULL;
        for (size_t j = 0; j < s->n_holders && !h; j++)
            if (span_eq(s->holders[j].id, s->pairs[i].holder))
                h = &s->holders[j];
        for (size_t j = 0; j < s->n_parts && !pt; j++)
            if (span_eq(s->parts[j].id, s->pairs[i].part))
                pt = &s->parts[j];
        if (!h || !h->skip_to || !pt || !pt->end || pt->used)
            continue;
        const char *to = h->skip_to;
        if (h->boundary) {
            const char *e = fallback_end(s, to);
            if (e && (pt->start < to || pt->start >= e))
                to = e; /* the part is not inside the fallback it replaces */
        }
        if (pt->start < to && pt->end > h->start)
            continue; /* a placeholder inside its own part */
        pt->used = 1;
        if (add_event(s, (event){h->start, to, (int)(pt - s->parts)}) != 0 ||
            add_event(s, (event){pt->start, pt->end, -1}) != 0)
            return -1;
        placed++;
    }
    if (s->n_events > 1)
        qsort(s->events, s->n_events, sizeof *s->events, by_start);
    return placed;
}

/* Writes [a, b) with its events: a placeholder replaced by its part's
 * content (written the same way), a hidden part taken out. */
static void emit(const scan *s, base_buf *o, const char *a, const char *b, int nesting)
{
    const char *cur = a;
    for (size_t i = first_from(s->events, s->n_events, sizeof *s->events, a);
         i < s->n_events && s->events[i].start < b; i++) {
        const event *e = &s->events[i];
        if (e->start < cur || e->end > b)
            continue; /* inside what was replaced, or across the end */
        base_buf_add(o, cur, (size_t)(e->start - cur));
        if (e->part >= 0 && nesting < STREAMED_MAX_NESTING) {
            const part *pt = &s->parts[e->part];
            emit(s, o, pt->inner, pt->inner_end, nesting + 1);
        }
        cur = e->end;
    }
    base_buf_add(o, cur, (size_t)(b - cur));
}

/* Whether the page holds "$RC(" or "$RS(": one pass from '$' to '$'. */
static int has_instruction(const char *html, size_t len)
{
    const char *end = html + len;
    for (const char *p = html; (p = memchr(p, '$', (size_t)(end - p))) != NULL; p++)
        if (end - p >= 4 && p[1] == 'R' && (p[2] == 'C' || p[2] == 'S') && p[3] == '(')
            return 1;
    return 0;
}

int streamed_splice(const char *html, size_t len, char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    /* Most pages: no instruction, nothing to read. */
    if (!has_instruction(html, len))
        return 0;
    scan s;
    memset(&s, 0, sizeof s);
    int placed = read_page(&s, html, len);
    if (placed == 0)
        placed = pair_up(&s);
    if (placed > 0) {
        base_buf o = BASE_BUF_INIT;
        emit(&s, &o, html, html + len, 0);
        *out = base_buf_take(&o, out_len);
        if (!*out)
            placed = -1;
    }
    free(s.holders);
    free(s.parts);
    free(s.pairs);
    free(s.marks);
    free(s.events);
    return placed;
}
