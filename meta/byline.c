/* meta/: the byline and the date a reader sees near the headline.
 *
 * Found by markup or by place, never by words: an element marked as a
 * byline or an author (rel=author, itemprop=author, a class or id naming
 * "byline" or "author": the markup's conventions, in any language) near
 * the headline; or else, by the layout, the first short line below the
 * headline that holds a date (by its form) or a link beside other text.
 * A figure's caption is never one (a photographer's credit looks the
 * same), nor is anything in a reader comment. */
#define _GNU_SOURCE /* strcasestr */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/tags.h"
#include "meta/internal.h"

/* A byline is a line or two, not a paragraph. */
#define BYLINE_MAX_CHARS 160
/* Markup names a byline this far from the headline at most (px); an
 * author's box at the end of the story is no byline. */
#define BYLINE_MAX_DISTANCE 800
/* The place rule looks at the first few lines under the headline. */
#define PLACE_MAX_BLOCKS 6
#define PLACE_MAX_GAP 320

static int attr_says(const dom_node *n, const char *word)
{
    const char *c = dom_attr_get(n, "class"), *id = dom_attr_get(n, "id");
    return (c && strcasestr(c, word)) || (id && strcasestr(id, word));
}

static int rel_author(const dom_node *n)
{
    const char *r = dom_attr_get(n, "rel");
    return r && strcasestr(r, "author");
}

/* Inside a reader comment (the clean-up's convention: a class or id that
 * starts with "comment") or a figure. */
static int out_of_place(const dom_node *n)
{
    for (const dom_node *a = n; a; a = a->parent) {
        if (dom_is_tag(a, "figure") || dom_is_tag(a, "figcaption"))
            return 1;
        const char *c = dom_attr_get(a, "class"), *id = dom_attr_get(a, "id");
        if ((c && !strncasecmp(c, "comment", 7)) || (id && !strncasecmp(id, "comment", 7)))
            return 1;
    }
    return 0;
}

static char *text_of(const dom_node *n)
{
    char *t = dom_to_text(n, NULL);
    if (!t)
        return NULL;
    char *f = meta_fold(t);
    free(t);
    return f;
}

/* The date of a <time> below n (its datetime, else its text), or of the
 * text of n. */
static const char *date_in(const dom_node *n, const char *text, int month_first, char *out,
                           size_t cap)
{
    for (const dom_node *c = n; c; c = dom_next(c, n)) {
        if (!dom_is_tag(c, "time") || dom_node_left_out(c))
            continue;
        const char *dt = dom_attr_get(c, "datetime");
        if (dt && meta_date_iso(dt, out, cap))
            return "time";
    }
    if (text && meta_date_in_text(text, month_first, out, cap))
        return "byline";
    return NULL;
}

/* The author's name inside a byline: what its markup names (itemprop
 * name or author, rel=author, a class or id naming an author), else its
 * first link whose text is no date. */
static char *author_in(const dom_node *n, int month_first)
{
    const dom_node *best = NULL;
    for (const dom_node *c = n; c && !best; c = dom_next(c, n)) {
        if (c->kind != DOM_ELEMENT || dom_node_left_out(c) || c == n)
            continue;
        const char *ip = dom_attr_get(c, "itemprop");
        if ((ip && (!strcmp(ip, "name") || !strcmp(ip, "author"))) || rel_author(c) ||
            attr_says(c, "author"))
            best = c;
    }
    for (const dom_node *c = n; c && !best; c = dom_next(c, n)) {
        if (!dom_is_tag(c, "a") || dom_node_left_out(c) || !dom_attr_get(c, "href"))
            continue;
        char *t = text_of(c);
        char iso[40];
        int is_date = t && meta_date_in_text(t, month_first, iso, sizeof iso);
        int empty = !t || !*t;
        free(t);
        if (!is_date && !empty)
            best = c;
    }
    if (!best)
        return NULL;
    char *t = text_of(best);
    if (t && (!*t || strlen(t) > BYLINE_MAX_CHARS)) {
        free(t);
        return NULL;
    }
    return t;
}

static const dom_node *block_of(const dom_node *n)
{
    while (n && (n->kind != DOM_ELEMENT || n->display != DOM_DISPLAY_BLOCK))
        n = n->parent;
    return n;
}

static int has_link(const dom_node *n)
{
    for (const dom_node *c = n; c; c = dom_next(c, n))
        if (dom_is_tag(c, "a") && dom_attr_get(c, "href") && !dom_node_left_out(c))
            return 1;
    return 0;
}

/* Characters of the text of n outside its links. */
static size_t text_beside_links(const dom_node *n)
{
    size_t k = 0;
    for (const dom_node *c = n; c; c = dom_next(c, n))
        if (c->kind == DOM_TEXT && !c->in_link && !dom_node_left_out(c))
            for (size_t i = 0; i < c->text_len; i++)
                k += !base_html_space(c->text[i]) && !ispunct((unsigned char)c->text[i]);
    return k;
}

/* Does a line hold letters (of any script: every byte of a non-ASCII
 * character counts), not only a date's digits and separators? */
static int has_letters(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p >= 0x80 || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
            return 1;
    return 0;
}

static double distance_below(const dom_node *headline, const dom_node *n)
{
    if (!headline)
        return 0;
    double bottom = headline->box.y + headline->box.h;
    double d = n->box.y - bottom;
    /* Above the headline counts too, but further. */
    return d >= 0 ? d : headline->box.y - (n->box.y + n->box.h) + 200;
}

static int by_markup(const dom_doc *dom, const dom_node *headline, int month_first, meta_byline *out)
{
    const dom_node *root = dom_doc_body(dom) ? dom_doc_body(dom) : dom_doc_root(dom);
    const dom_node *best = NULL;
    double best_d = INFINITY;
    int best_is_byline = 0;
    for (const dom_node *n = root; n;) {
        if (n->kind == DOM_ELEMENT && dom_node_left_out(n)) {
            n = dom_next_after(n, root); /* nothing in it shows */
            continue;
        }
        const dom_node *here = n;
        n = dom_next(n, root);
        if (here->kind != DOM_ELEMENT)
            continue;
        int is_byline = attr_says(here, "byline");
        const char *ip = dom_attr_get(here, "itemprop");
        int is_author = attr_says(here, "author") || rel_author(here) || (ip && !strcmp(ip, "author"));
        if (!is_byline && !is_author)
            continue;
        if (out_of_place(here) || (headline && dom_is_ancestor(headline, here)))
            continue;
        double d = distance_below(headline, here);
        if (headline && d > BYLINE_MAX_DISTANCE)
            continue;
        /* A byline's box beats an author's inside it; then the nearest. */
        if (!best || (is_byline && !best_is_byline) ||
            (is_byline == best_is_byline && d < best_d && !dom_is_ancestor(best, here))) {
            char *t = text_of(here);
            size_t len = t ? strlen(t) : 0;
            free(t);
            if (len < 2 || len > BYLINE_MAX_CHARS)
                continue;
            best = here;
            best_d = d;
            best_is_byline = is_byline;
        }
    }
    if (!best)
        return 0;
    /* An author's name alone: the line it stands in is the byline, when it
     * is short. */
    const dom_node *line = best;
    if (!best_is_byline) {
        const dom_node *b = block_of(best);
        char *t = b ? text_of(b) : NULL;
        if (t && strlen(t) <= BYLINE_MAX_CHARS && !out_of_place(b))
            line = b;
        free(t);
    }
    out->text = text_of(line);
    out->author = best_is_byline ? author_in(best, month_first) : text_of(best);
    if (!best_is_byline && out->author && !*out->author) {
        free(out->author);
        out->author = NULL;
    }
    const char *from = date_in(line, out->text, month_first, out->date, sizeof out->date);
    out->date_from = from;
    out->from = "byline:markup";
    return out->text ? 1 : -1;
}

static int by_place(const dom_doc *dom, const dom_node *headline, int month_first, meta_byline *out)
{
    const dom_node *root = dom_doc_root(dom);
    double bottom = headline->box.y + headline->box.h;
    const dom_node *seen = NULL;
    int blocks = 0;
    for (const dom_node *n = dom_next_after(headline, root); n && blocks < PLACE_MAX_BLOCKS;
         n = dom_next(n, root)) {
        if (n->kind != DOM_TEXT || dom_node_left_out(n) || n->text_len == strspn(n->text, " \t\n\r\f"))
            continue;
        const dom_node *b = block_of(n);
        if (!b || b == seen || dom_is_ancestor(b, headline))
            continue;
        seen = b;
        blocks++;
        if (b->box.y - bottom > PLACE_MAX_GAP)
            break;
        if (out_of_place(b))
            continue;
        if (b->tag[0] == 'h' && b->tag[1] >= '1' && b->tag[1] <= '6' && !b->tag[2])
            break; /* the next heading: the story has begun */
        char *t = text_of(b);
        if (!t)
            return -1;
        if (strlen(t) > BYLINE_MAX_CHARS) {
            free(t);
            if (out->date[0])
                break;
            continue; /* a standfirst: the byline may follow it */
        }
        char iso[40];
        const char *df = date_in(b, t, month_first, iso, sizeof iso);
        int link = has_link(b) && text_beside_links(b) > 0;
        if (!df && !link) {
            free(t);
            continue;
        }
        if (!out->text && (link || has_letters(t))) {
            out->text = t;
            t = NULL;
            out->author = author_in(b, month_first);
            out->from = "byline:place";
        }
        if (df && !out->date[0]) {
            strcpy(out->date, iso);
            out->date_from = df;
        }
        free(t);
        if (out->text && out->date[0])
            break;
    }
    return out->text || out->date[0];
}

int meta_byline_find(const dom_doc *dom, const dom_node *headline, int month_first,
                     meta_byline *out)
{
    memset(out, 0, sizeof *out);
    int r = by_markup(dom, headline, month_first, out);
    if (r < 0)
        return -1;
    if (headline && !out->date[0]) {
        /* The markup named no date: the lines under the headline may. */
        meta_byline place;
        memset(&place, 0, sizeof place);
        if (by_place(dom, headline, month_first, &place) < 0)
            return -1;
        if (!out->text) {
            *out = place;
        } else {
            if (place.date[0]) {
                strcpy(out->date, place.date);
                out->date_from = place.date_from;
            }
            meta_byline_free(&place);
        }
    }
    return 0;
}

void meta_byline_free(meta_byline *b)
{
    free(b->text);
    free(b->author);
    b->text = b->author = NULL;
}
