/* meta/: the page's metadata from every source it offers, each value with
 * where it came from (meta.h).
 *
 * Where sources disagree, the order is: JSON-LD (written for machines,
 * and the most explicit), Open Graph, microdata, Twitter cards, plain
 * <meta>, then what the page shows (the byline and the headline). The
 * title is the exception: a page's metadata titles often carry the site's
 * name, so the headline a reader sees wins when a metadata title or the
 * <title> vouches for it, and otherwise the first metadata title with the
 * site's name taken off. */
#define _GNU_SOURCE /* strcasestr, strndup */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/tags.h"
#include "base/url.h"
#include "base/utf8.h"
#include "meta/internal.h"

static const char *const field_names[META_N] = {
    "title", "byline", "published", "modified", "description", "language", "dir",
    "canonical_url", "site_name", "image"};

const char *meta_field_name(meta_field f)
{
    return (int)f >= 0 && f < META_N ? field_names[f] : NULL;
}

/* Small helpers ---------------------------------------------------------- */

char *meta_fold(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t k = 0;
    int space = 0;
    for (size_t i = 0; i < n; i++) {
        /* A no-break space (U+00A0) folds like a space. */
        int nbsp = (unsigned char)s[i] == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] == 0xA0;
        if (base_html_space(s[i]) || nbsp) {
            space = k > 0;
            i += nbsp;
            continue;
        }
        if (space)
            out[k++] = ' ';
        space = 0;
        out[k++] = s[i];
    }
    out[k] = '\0';
    return out;
}

int meta_add_author(char **list, size_t *n, const char *name)
{
    if (!name || !*name || *n >= META_MAX_AUTHORS)
        return 0;
    for (size_t i = 0; i < *n; i++)
        if (!strcasecmp(list[i], name))
            return 0;
    if (!(list[*n] = strdup(name)))
        return -1;
    (*n)++;
    return 0;
}

static char *node_text(const dom_node *n)
{
    char *t = dom_to_text(n, NULL);
    if (!t)
        return NULL;
    char *f = meta_fold(t);
    free(t);
    return f;
}

/* Every text of the subtree, shown or not (a <title> or <meta> is never
 * shown). */
static char *all_text(const dom_node *n)
{
    base_buf b = BASE_BUF_INIT;
    for (const dom_node *c = n; c; c = dom_next(c, n))
        if (c->kind == DOM_TEXT)
            base_buf_add(&b, c->text, c->text_len);
    char *t = base_buf_take(&b, NULL);
    if (!t)
        return NULL;
    char *f = meta_fold(t);
    free(t);
    return f;
}

/* The page's <meta> tags --------------------------------------------------- */

#define MAX_TAGS 256

typedef struct tag_kv {
    char key[64]; /* property, name, itemprop or http-equiv, lower case */
    const char *value;
} tag_kv;

typedef struct tags {
    tag_kv kv[MAX_TAGS];
    size_t n;
} tags;

static void read_tags(const dom_doc *dom, tags *t)
{
    const dom_node *root = dom_doc_root(dom);
    t->n = 0;
    for (const dom_node *n = root; n && t->n < MAX_TAGS; n = dom_next(n, root)) {
        if (!dom_is_tag(n, "meta"))
            continue;
        const char *content = dom_attr_get(n, "content");
        if (!content)
            continue;
        static const char *const keys[] = {"property", "name", "itemprop", "http-equiv"};
        for (size_t k = 0; k < 4 && t->n < MAX_TAGS; k++) {
            const char *key = dom_attr_get(n, keys[k]);
            if (!key || !*key)
                continue;
            /* property="og:title article:author" names two at once. */
            const char *p = key;
            while (*p && t->n < MAX_TAGS) {
                while (base_html_space(*p))
                    p++;
                size_t len = 0;
                while (p[len] && !base_html_space(p[len]))
                    len++;
                if (len && len < sizeof t->kv[0].key) {
                    tag_kv *kv = &t->kv[t->n++];
                    for (size_t i = 0; i < len; i++)
                        kv->key[i] = (char)tolower((unsigned char)p[i]);
                    kv->key[len] = '\0';
                    kv->value = content;
                }
                p += len;
            }
        }
    }
}

/* The first non-empty value of any of `keys`, in the order of `keys`;
 * *which the key that gave it. */
static const char *tag(const tags *t, const char *const *keys, const char **which)
{
    for (const char *const *k = keys; *k; k++)
        for (size_t i = 0; i < t->n; i++)
            if (!strcmp(t->kv[i].key, *k) && t->kv[i].value[strspn(t->kv[i].value, " \t\n\r\f")]) {
                if (which)
                    *which = *k;
                return t->kv[i].value;
            }
    return NULL;
}

/* Microdata -------------------------------------------------------------- */

typedef struct micro {
    const dom_node *headline, *description, *published, *modified, *image, *language, *publisher;
    const dom_node *authors[META_MAX_AUTHORS];
    size_t n_authors;
} micro;

static int has_token(const char *list, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = list; p && *p;) {
        while (base_html_space(*p))
            p++;
        size_t n = 0;
        while (p[n] && !base_html_space(p[n]))
            n++;
        if (n == wl && !strncmp(p, word, n))
            return 1;
        p += n;
    }
    return 0;
}

static int in_comment(const dom_node *n)
{
    for (const dom_node *a = n; a; a = a->parent) {
        const char *c = dom_attr_get(a, "class"), *id = dom_attr_get(a, "id");
        if ((c && !strncasecmp(c, "comment", 7)) || (id && !strncasecmp(id, "comment", 7)))
            return 1;
    }
    return 0;
}

static void read_micro(const dom_doc *dom, micro *m)
{
    memset(m, 0, sizeof *m);
    const dom_node *root = dom_doc_root(dom);
    for (const dom_node *n = root; n; n = dom_next(n, root)) {
        const char *ip = n->kind == DOM_ELEMENT ? dom_attr_get(n, "itemprop") : NULL;
        if (!ip || in_comment(n))
            continue;
        const dom_node **slot = has_token(ip, "headline")        ? &m->headline
                                : has_token(ip, "description")   ? &m->description
                                : has_token(ip, "datePublished") ? &m->published
                                : has_token(ip, "dateModified")  ? &m->modified
                                : has_token(ip, "image")         ? &m->image
                                : has_token(ip, "inLanguage")    ? &m->language
                                : has_token(ip, "publisher")     ? &m->publisher
                                                                 : NULL;
        if (slot && !*slot)
            *slot = n;
        if (has_token(ip, "author") && m->n_authors < META_MAX_AUTHORS)
            m->authors[m->n_authors++] = n;
    }
}

/* An itemprop's value as the microdata standard reads it. */
static char *micro_value(const dom_node *n, int url)
{
    static const struct {
        const char *tag, *attr;
    } by_attr[] = {{"meta", "content"}, {"img", "src"},    {"audio", "src"}, {"video", "src"},
                   {"source", "src"},   {"embed", "src"},  {"iframe", "src"}, {"a", "href"},
                   {"area", "href"},    {"link", "href"},  {"object", "data"}, {"data", "value"},
                   {"meter", "value"},  {"time", "datetime"}};
    for (size_t i = 0; i < sizeof by_attr / sizeof by_attr[0]; i++)
        if (dom_is_tag(n, by_attr[i].tag)) {
            const char *v = dom_attr_get(n, by_attr[i].attr);
            if (v)
                return meta_fold(v);
            if (!dom_is_tag(n, "time"))
                return NULL;
        }
    /* A nested item (an ImageObject, an Organization): its url or name. */
    if (dom_attr_get(n, "itemscope")) {
        for (const dom_node *c = n->first_child ? n : NULL; c; c = dom_next(c, n)) {
            const char *ip = c != n && c->kind == DOM_ELEMENT ? dom_attr_get(c, "itemprop") : NULL;
            if (ip && has_token(ip, url ? "url" : "name"))
                return micro_value(c, url);
        }
        if (url)
            return NULL;
    }
    return url ? NULL : all_text(n);
}

/* The title ----------------------------------------------------------------- */

/* Separators between a title and the site's name, as pages write them. */
static const char *const separators[] = {" | ", " - ", " – ", " — ", " · ", " • ", " :: ",
                                         " » ", " « ", " / ", " ~ ", " ｜ ", "｜", "丨", NULL};

/* Case-insensitive equality of two folded texts (ASCII letters only
 * change case: enough for the site names pages write both ways). */
static int same(const char *a, const char *b)
{
    return a && b && !strcasecmp(a, b);
}

/* The first or last separator of `t`: its offset and length, or -1. */
static long find_sep(const char *t, int last, size_t *len)
{
    long best = -1;
    for (const char *const *s = separators; *s; s++) {
        const char *p = t, *hit = NULL;
        while ((p = strstr(p, *s))) {
            hit = p;
            if (!last)
                break;
            p += 1;
        }
        if (!hit)
            continue;
        long off = hit - t;
        if (best < 0 || (last ? off > best : off < best)) {
            best = off;
            *len = strlen(*s);
        }
    }
    return best;
}

static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* `t` without the site's name at its start or end: the part a separator
 * cuts off when it is `site` (or the host's name), or, when no name is
 * known, a short last (or first) part beside a longer rest. *cut, when
 * not NULL, receives the part taken off. malloc'd. */
static char *strip_site(const char *t, const char *site, const char *host, char **cut)
{
    if (cut)
        *cut = NULL;
    size_t sl = 0, fl = 0;
    long last = find_sep(t, 1, &sl), first = find_sep(t, 0, &fl);
    if (last < 0)
        return strdup(t);
    char *head = strndup(t, (size_t)last), *tail = strdup(t + last + sl);
    char *lead = strndup(t, (size_t)first), *rest = strdup(t + first + fl);
    char *out = NULL;
    if (!head || !tail || !lead || !rest)
        goto done;
    const char *known[] = {site, host};
    for (int k = 0; k < 2 && !out; k++) {
        if (!known[k])
            continue;
        if (same(tail, known[k]) || (k == 1 && strcasestr(known[k], tail) && chars(tail) >= 4)) {
            out = strdup(head);
            if (cut)
                *cut = strdup(tail);
        } else if (same(lead, known[k]) || (k == 1 && strcasestr(known[k], lead) && chars(lead) >= 4)) {
            out = strdup(rest);
            if (cut)
                *cut = strdup(lead);
        }
    }
    if (!out && !site) {
        /* No name to go by: a last part shorter than half the rest is the
         * site's, as is a first part as short before a long rest. */
        if (chars(tail) * 2 <= chars(head) && chars(head) >= 8) {
            out = strdup(head);
            if (cut)
                *cut = strdup(tail);
        } else if (chars(lead) * 2 <= chars(rest) && chars(rest) >= 8) {
            out = strdup(rest);
            if (cut)
                *cut = strdup(lead);
        }
    }
    if (!out)
        out = strdup(t);
done:
    free(head);
    free(tail);
    free(lead);
    free(rest);
    return out;
}

/* The headline a reader sees: the visible <h1> set largest (the first of
 * those); NULL when the page has none. */
static const dom_node *find_headline(const dom_doc *dom)
{
    const dom_node *root = dom_doc_root(dom), *best = NULL;
    for (const dom_node *n = root; n;) {
        if (n->kind == DOM_ELEMENT && dom_node_left_out(n)) {
            n = dom_next_after(n, root);
            continue;
        }
        if (dom_is_tag(n, "h1") && !in_comment(n)) {
            int shows = 0;
            for (const dom_node *c = n; c && !shows; c = dom_next(c, n))
                shows = c->kind == DOM_TEXT && !dom_node_left_out(c) &&
                        c->text_len > strspn(c->text, " \t\n\r\f");
            if (shows && (!best || n->font_size > best->font_size + 0.5))
                best = n;
        }
        n = dom_next(n, root);
    }
    return best;
}

/* The host of a URL without "www." and its last label ("kuestenblatt" of
 * https://www.kuestenblatt.de/x): how a site's name often reads. */
static char *host_name(const char *url)
{
    if (!url)
        return NULL;
    const char *p = strstr(url, "://");
    if (!p)
        return NULL;
    p += 3;
    size_t n = strcspn(p, "/:?#");
    char *h = strndup(p, n);
    if (!h)
        return NULL;
    char *s = h;
    if (!strncasecmp(s, "www.", 4))
        s += 4;
    char *dot = strrchr(s, '.');
    if (dot)
        *dot = '\0';
    char *r = strdup(s);
    free(h);
    return r;
}

/* Direction ------------------------------------------------------------- */

/* The direction of the first strongly directional character: the scripts
 * written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan,
 * Mandaic, and their presentation forms) give rtl, any other letter ltr;
 * NULL when there is none. */
static const char *text_dir(const char *s)
{
    const char *end = s + strlen(s);
    while (s < end) {
        uint32_t cp = base_utf8_next(&s, end);
        if ((cp >= 0x0590 && cp <= 0x08FF) || (cp >= 0xFB1D && cp <= 0xFDFF) ||
            (cp >= 0xFE70 && cp <= 0xFEFF) || (cp >= 0x10800 && cp <= 0x10FFF) ||
            (cp >= 0x1E800 && cp <= 0x1EFFF))
            return "rtl";
        if ((cp < 0x80 && isalpha((int)cp)) ||
            (cp >= 0xC0 && cp != 0xD7 && cp != 0xF7 && !(cp >= 0x2000 && cp <= 0x2BFF) &&
             !(cp >= 0x3000 && cp <= 0x303F) && !(cp >= 0xFF00 && cp <= 0xFF20) && cp != 0xFFFD))
            return "ltr";
    }
    return NULL;
}

/* Putting it together -------------------------------------------------- */

static int put(meta_info *m, meta_field f, const char *v, const char *from)
{
    if (m->f[f].value || !v)
        return 0;
    char *x = meta_fold(v);
    if (!x)
        return -1;
    if (!*x) {
        free(x);
        return 0;
    }
    m->f[f].value = x;
    m->f[f].from = from;
    return 0;
}

static int put_owned(meta_info *m, meta_field f, char *v, const char *from)
{
    int rc = put(m, f, v, from);
    free(v);
    return rc;
}

static int put_date(meta_info *m, meta_field f, const char *v, const char *from)
{
    char iso[40];
    if (m->f[f].value || !v || !meta_date_iso(v, iso, sizeof iso))
        return 0;
    return put(m, f, iso, from);
}

/* A URL made absolute against the page's base (when known). */
static int put_url(meta_info *m, meta_field f, const char *v, const char *base, const char *from)
{
    if (m->f[f].value || !v || !v[strspn(v, " \t\n\r\f")])
        return 0;
    char *u = base_url_resolve(base, v);
    if (!u)
        return -1;
    char scheme[16];
    size_t sn = base_url_scheme(u, scheme, sizeof scheme);
    /* Only what a reader could open: no script, no data. */
    if (sn && strcmp(scheme, "http") && strcmp(scheme, "https")) {
        free(u);
        return 0;
    }
    m->f[f].value = u;
    m->f[f].from = from;
    return 0;
}

/* "de_DE" (Open Graph's form) as a language tag, "de-DE". */
static char *lang_tag(const char *v)
{
    char *t = meta_fold(v);
    if (!t)
        return NULL;
    for (char *p = t; *p; p++)
        if (*p == '_')
            *p = '-';
    /* Only the first of a list ("de, en"). */
    t[strcspn(t, ", ;")] = '\0';
    return t;
}

/* Whether the page writes dates month first (3/5/2024 for March 5): the
 * convention of the United States among the places a language tag names. */
static int month_first(const char *lang)
{
    if (!lang)
        return 0;
    const char *dash = strchr(lang, '-');
    return dash && !strcasecmp(dash + 1, "US");
}

/* The first image of the main content big enough to lead it (a real image,
 * not an icon): laid out at least 200 px wide, or declared so. */
static const char *content_image(const dom_node *content)
{
    for (const dom_node *n = content; n; n = dom_next(n, content)) {
        if (!dom_is_tag(n, "img") || dom_node_left_out(n))
            continue;
        const char *w = dom_attr_get(n, "width");
        if (n->box.w < 200 && !(w && atoi(w) >= 200))
            continue;
        static const char *const srcs[] = {"data-src", "data-lazy-src", "data-original", "src", NULL};
        for (const char *const *a = srcs; *a; a++) {
            const char *v = dom_attr_get(n, *a);
            if (v && v[strspn(v, " \t\n\r\f")] && strncasecmp(v + strspn(v, " "), "data:", 5))
                return v;
        }
    }
    return NULL;
}

char *meta_base_url(const dom_doc *dom, const char *page_url)
{
    const dom_node *root = dom_doc_root(dom);
    for (const dom_node *n = root; n; n = dom_next(n, root))
        if (dom_is_tag(n, "base") && dom_attr_get(n, "href")) {
            char *u = base_url_resolve(page_url, dom_attr_get(n, "href"));
            char scheme[16];
            if (u && base_url_scheme(u, scheme, sizeof scheme) &&
                (!strcmp(scheme, "http") || !strcmp(scheme, "https")))
                return u;
            free(u);
            break;
        }
    return page_url ? strdup(page_url) : NULL;
}

static int read_title(meta_info *m, const tags *t, const meta_ld *ld, const micro *mi,
                      const dom_doc *dom, const dom_node *headline, const char *host)
{
    int rc = 0;
    const char *site = m->f[META_SITE_NAME].value;
    /* The candidates, in the order they are trusted. */
    struct {
        const char *from;
        char *raw;
    } c[6] = {{"json-ld", NULL}, {"og:title", NULL}, {"microdata", NULL},
              {"twitter:title", NULL}, {"dc.title", NULL}, {"title", NULL}};
    c[0].raw = ld->title ? strdup(ld->title) : NULL;
    static const char *const og[] = {"og:title", NULL}, *const tw[] = {"twitter:title", NULL},
                             *const dc[] = {"dc.title", "dcterms.title", NULL};
    const char *v;
    if ((v = tag(t, og, NULL)))
        c[1].raw = meta_fold(v);
    if (mi->headline)
        c[2].raw = micro_value(mi->headline, 0);
    if ((v = tag(t, tw, NULL)))
        c[3].raw = meta_fold(v);
    if ((v = tag(t, dc, NULL)))
        c[4].raw = meta_fold(v);
    const dom_node *root = dom_doc_root(dom);
    for (const dom_node *n = root; n; n = dom_next(n, root))
        if (dom_is_tag(n, "title")) {
            c[5].raw = all_text(n);
            break;
        }
    char *h1 = headline ? node_text(headline) : NULL;
    char *stripped[6] = {0};
    char *cut = NULL;
    for (int i = 0; i < 6; i++)
        if (c[i].raw && *c[i].raw)
            stripped[i] = strip_site(c[i].raw, site, host, i == 5 && !cut ? &cut : NULL);
    /* The headline, when a title vouches for it. */
    int vouched = 0;
    if (h1 && *h1)
        for (int i = 0; i < 6 && !vouched; i++)
            vouched = (stripped[i] && same(stripped[i], h1)) ||
                      (i == 5 && c[5].raw && strstr(c[5].raw, h1) && chars(h1) >= 4);
    if (vouched)
        rc |= put(m, META_TITLE, h1, "h1");
    for (int i = 0; i < 6; i++)
        if (stripped[i] && *stripped[i])
            rc |= put(m, META_TITLE, stripped[i], c[i].from);
    if (h1 && *h1)
        rc |= put(m, META_TITLE, h1, "h1");
    /* The part of <title> that was the site's name, when nothing else
     * named the site: what a separator sets off from the title chosen. */
    const char *title = m->f[META_TITLE].value;
    if (title && c[5].raw && !cut) {
        size_t tl = strlen(title), rl = strlen(c[5].raw);
        for (const char *const *sp = separators; *sp && !cut; sp++) {
            size_t sl = strlen(*sp);
            if (rl > tl + sl && !strncasecmp(c[5].raw, title, tl) && !strncmp(c[5].raw + tl, *sp, sl))
                cut = meta_fold(c[5].raw + tl + sl);
            else if (rl > tl + sl && !strcasecmp(c[5].raw + rl - tl, title) &&
                     !strncmp(c[5].raw + rl - tl - sl, *sp, sl))
                cut = strndup(c[5].raw, rl - tl - sl);
        }
    }
    if (cut && *cut && title && !same(cut, title) && !strcasestr(title, cut))
        rc |= put(m, META_SITE_NAME, cut, "title");
    for (int i = 0; i < 6; i++) {
        free(c[i].raw);
        free(stripped[i]);
    }
    free(cut);
    free(h1);
    return rc;
}

int meta_read(const meta_input *in, meta_info *m)
{
    memset(m, 0, sizeof *m);
    const dom_doc *dom = in->dom;
    const dom_node *root = dom_doc_root(dom);
    if (!root)
        return 0;
    tags *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    read_tags(dom, t);
    meta_ld ld;
    if (meta_ld_read(in->jsonld, &ld) != 0) {
        free(t);
        return -1;
    }
    micro mi;
    read_micro(dom, &mi);
    const dom_node *headline = find_headline(dom);
    char *host = host_name(in->base_url);
    const char *base = in->base_url;
    int rc = 0;
    const char *which;
    const char *v;

    /* The language first: it tells how the page writes its dates. */
    static const char *const k_lang[] = {"og:locale", "content-language", "dc.language", NULL};
    v = dom_attr_get(root, "lang");
    if (!v || !*v)
        v = dom_attr_get(root, "xml:lang");
    rc |= put_owned(m, META_LANGUAGE, v ? lang_tag(v) : NULL, "html");
    rc |= put_owned(m, META_LANGUAGE, ld.language ? lang_tag(ld.language) : NULL, "json-ld");
    if ((v = tag(t, k_lang, &which)))
        rc |= put_owned(m, META_LANGUAGE, lang_tag(v), which);
    if (mi.language)
        rc |= put_owned(m, META_LANGUAGE, micro_value(mi.language, 0), "microdata");

    /* The site's name (the title's clean-up reads it). */
    static const char *const k_site[] = {"og:site_name", NULL}, *const k_app[] = {"application-name", NULL};
    if ((v = tag(t, k_site, &which)))
        rc |= put(m, META_SITE_NAME, v, which);
    rc |= put(m, META_SITE_NAME, ld.site_name, "json-ld");
    if (mi.publisher)
        rc |= put_owned(m, META_SITE_NAME, micro_value(mi.publisher, 0), "microdata");
    if ((v = tag(t, k_app, &which)))
        rc |= put(m, META_SITE_NAME, v, which);

    rc |= read_title(m, t, &ld, &mi, dom, headline, host);

    /* Authors. */
    static const char *const k_author[] = {"author", "article:author", "dc.creator",
                                           "dcterms.creator", "parsely-author", NULL};
    for (size_t i = 0; i < ld.n_authors; i++)
        rc |= meta_add_author(m->authors, &m->n_authors, ld.authors[i]);
    if (m->n_authors)
        m->authors_from = "json-ld";
    for (size_t i = 0; i < mi.n_authors && !m->authors_from; i++) {
        char *a = micro_value(mi.authors[i], 0);
        rc |= a ? meta_add_author(m->authors, &m->n_authors, a) : 0;
        free(a);
    }
    if (m->n_authors && !m->authors_from)
        m->authors_from = "microdata";
    if (!m->n_authors && (v = tag(t, k_author, &which))) {
        /* Open Graph's article:author is often a profile's URL, no name. */
        char scheme[16];
        if (!base_url_scheme(v + strspn(v, " "), scheme, sizeof scheme)) {
            char *a = meta_fold(v);
            rc |= a ? meta_add_author(m->authors, &m->n_authors, a) : -1;
            free(a);
            if (m->n_authors)
                m->authors_from = which;
        }
    }

    /* What the page shows under its headline. */
    meta_byline by;
    int mf = month_first(m->f[META_LANGUAGE].value);
    if (meta_byline_find(dom, headline, mf, &by) != 0) {
        rc = -1;
        memset(&by, 0, sizeof by);
    }
    rc |= put(m, META_BYLINE, by.text, by.from);
    if (!m->n_authors && by.author) {
        rc |= meta_add_author(m->authors, &m->n_authors, by.author);
        m->authors_from = by.from;
    }

    /* Dates. */
    static const char *const k_pub[] = {"article:published_time", "og:article:published_time",
                                        "datepublished", "date", "dc.date", "dc.date.issued",
                                        "dcterms.created", "dcterms.issued", "pubdate",
                                        "publishdate", "publish-date", "parsely-pub-date",
                                        "sailthru.date", "citation_publication_date", NULL};
    static const char *const k_mod[] = {"article:modified_time", "og:updated_time",
                                        "datemodified", "dcterms.modified", "last-modified", NULL};
    rc |= put_date(m, META_PUBLISHED, ld.published, "json-ld");
    rc |= put_date(m, META_MODIFIED, ld.modified, "json-ld");
    for (const char *const *k = k_pub; *k && !m->f[META_PUBLISHED].value; k++) {
        const char *one[] = {*k, NULL};
        if ((v = tag(t, one, &which)))
            rc |= put_date(m, META_PUBLISHED, v, which);
    }
    for (const char *const *k = k_mod; *k && !m->f[META_MODIFIED].value; k++) {
        const char *one[] = {*k, NULL};
        if ((v = tag(t, one, &which)))
            rc |= put_date(m, META_MODIFIED, v, which);
    }
    if (mi.published && !m->f[META_PUBLISHED].value) {
        char *d = micro_value(mi.published, 0);
        rc |= put_date(m, META_PUBLISHED, d, "microdata");
        free(d);
    }
    if (mi.modified && !m->f[META_MODIFIED].value) {
        char *d = micro_value(mi.modified, 0);
        rc |= put_date(m, META_MODIFIED, d, "microdata");
        free(d);
    }
    if (by.date[0])
        rc |= put(m, META_PUBLISHED, by.date,
                  by.date_from && !strcmp(by.date_from, "time") ? "time" : "byline");

    /* Description. */
    static const char *const k_desc[] = {"og:description", "twitter:description", "description",
                                         "dc.description", NULL};
    rc |= put(m, META_DESCRIPTION, ld.description, "json-ld");
    if ((v = tag(t, k_desc, &which)))
        rc |= put(m, META_DESCRIPTION, v, which);
    if (mi.description)
        rc |= put_owned(m, META_DESCRIPTION, micro_value(mi.description, 0), "microdata");

    /* Canonical URL. */
    for (const dom_node *n = root; n && !m->f[META_CANONICAL].value; n = dom_next(n, root)) {
        const char *rel = dom_is_tag(n, "link") ? dom_attr_get(n, "rel") : NULL;
        if (rel && has_token(rel, "canonical"))
            rc |= put_url(m, META_CANONICAL, dom_attr_get(n, "href"), base, "link:canonical");
    }
    static const char *const k_url[] = {"og:url", NULL};
    if ((v = tag(t, k_url, &which)))
        rc |= put_url(m, META_CANONICAL, v, base, which);
    rc |= put_url(m, META_CANONICAL, ld.canonical, base, "json-ld");

    /* The lead image. */
    static const char *const k_img[] = {"og:image:secure_url", "og:image", "og:image:url",
                                        "twitter:image", "twitter:image:src", NULL};
    if ((v = tag(t, k_img, &which)))
        rc |= put_url(m, META_IMAGE, v, base, which);
    rc |= put_url(m, META_IMAGE, ld.image, base, "json-ld");
    if (mi.image) {
        char *u = micro_value(mi.image, 1);
        rc |= put_url(m, META_IMAGE, u, base, "microdata");
        free(u);
    }
    if (in->content)
        rc |= put_url(m, META_IMAGE, content_image(in->content), base, "content");

    /* Direction: the page's own, else its headline's or text's letters. */
    const dom_node *body = dom_doc_body(dom);
    v = dom_attr_get(root, "dir");
    if ((!v || !*v) && body)
        v = dom_attr_get(body, "dir");
    if (v && (!strcasecmp(v, "rtl") || !strcasecmp(v, "ltr"))) {
        rc |= put(m, META_DIR, !strcasecmp(v, "rtl") ? "rtl" : "ltr", "html");
    } else {
        const char *d = m->f[META_TITLE].value ? text_dir(m->f[META_TITLE].value) : NULL;
        if (!d && in->content) {
            char *txt = dom_to_text(in->content, NULL);
            if (txt)
                txt[strlen(txt) > 2000 ? 2000 : strlen(txt)] = '\0';
            d = txt ? text_dir(txt) : NULL;
            free(txt);
        }
        rc |= put(m, META_DIR, d, "text");
    }

    meta_byline_free(&by);
    meta_ld_free(&ld);
    free(host);
    free(t);
    if (rc) {
        meta_info_free(m);
        return -1;
    }
    return 0;
}

void meta_info_free(meta_info *m)
{
    for (int i = 0; i < META_N; i++)
        free(m->f[i].value);
    for (size_t i = 0; i < m->n_authors; i++)
        free(m->authors[i]);
    memset(m, 0, sizeof *m);
}
