/* meta/: JSON-LD (json-c): the texts of a page's <script
 * type="application/ld+json">, and what they say of its main item.
 *
 * A page may hold several scripts, each an object, an array of them or a
 * @graph; items refer to each other by @id (an article's author and
 * publisher are often only {"@id": ...}). Every object of every script is
 * gathered, and the main item is the first whose @type is an article's
 * (schema.org's Article and its kinds, BlogPosting, Report, ...), else a
 * web page's. The vocabulary is schema.org's, the same in every language. */
#define _GNU_SOURCE /* memrchr */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/tags.h"
#include "meta/internal.h"

/* Scanning ------------------------------------------------------------- */

static int is_ld_type(const base_tag *t)
{
    base_tag_attrs it;
    base_tag_attr a;
    base_tag_attrs_init(&it, t);
    while (base_tag_attrs_next(&it, &a))
        if (base_tag_attr_is(&a, "type") && a.value) {
            /* "application/ld+json", in any case, perhaps with parameters. */
            const char *want = "application/ld+json";
            size_t n = strlen(want);
            size_t k = 0;
            while (k < a.value_len && base_html_space(a.value[k]))
                k++;
            return a.value_len - k >= n && strncasecmp(a.value + k, want, n) == 0;
        }
    return 0;
}

/* Where the last "ld+json", in any case, of [html, html + len) begins, or
 * NULL: no script's type names JSON-LD past it (is_ld_type reads the bytes
 * as they are, references undecoded). */
static const char *last_ld_json(const char *html, size_t len)
{
    for (const char *p = html + len; p > html;) {
        const char *plus = memrchr(html, '+', (size_t)(p - html));
        if (!plus)
            return NULL;
        if (plus - html >= 2 && html + len - plus >= 5 && strncasecmp(plus - 2, "ld+json", 7) == 0)
            return plus - 2;
        p = plus;
    }
    return NULL;
}

int meta_scripts_scan(const char *html, size_t len, meta_scripts *out)
{
    memset(out, 0, sizeof *out);
    /* The tags are read up to the last script that may be one and its
     * text: most pages have none, or put theirs in the <head>. */
    const char *last = last_ld_json(html, len);
    if (!last)
        return 0;
    base_tag_scanner s;
    base_tag_scanner_init(&s, html, len);
    base_tag t;
    int want = 0;
    size_t total = 0;
    while (base_tag_next(&s, &t) && out->n < META_MAX_SCRIPTS) {
        if (t.start > last && !want)
            break;
        if (t.kind == BASE_TAG_START && base_tag_is(&t, "script")) {
            want = is_ld_type(&t);
        } else if (t.kind == BASE_TAG_RAW && want) {
            want = 0;
            if (total + t.len > META_MAX_SCRIPT_BYTES)
                break; /* what a page may make us parse is bounded */
            total += t.len;
            char *c = malloc(t.len + 1);
            if (!c) {
                meta_scripts_free(out);
                return -1;
            }
            memcpy(c, t.start, t.len);
            c[t.len] = '\0';
            out->texts[out->n++] = c;
        }
    }
    return 0;
}

int meta_scripts_from_dom(const dom_doc *dom, meta_scripts *out)
{
    memset(out, 0, sizeof *out);
    const dom_node *root = dom_doc_root(dom);
    size_t total = 0;
    for (const dom_node *n = root; n && out->n < META_MAX_SCRIPTS; n = dom_next(n, root)) {
        if (n->kind != DOM_ELEMENT || !dom_is_tag(n, "script"))
            continue;
        const char *type = dom_attr_get(n, "type");
        const char *want = "application/ld+json";
        if (!type)
            continue;
        while (base_html_space(*type))
            type++;
        if (strncasecmp(type, want, strlen(want)) != 0)
            continue;
        base_buf b = BASE_BUF_INIT;
        for (const dom_node *t = n->first_child; t; t = t->next)
            if (t->kind == DOM_TEXT)
                base_buf_add(&b, t->text, t->text_len);
        size_t len = 0;
        char *c = base_buf_take(&b, &len);
        if (!c) {
            meta_scripts_free(out);
            return -1;
        }
        if (total + len > META_MAX_SCRIPT_BYTES) {
            free(c);
            break; /* what a page may make us parse is bounded */
        }
        total += len;
        out->texts[out->n++] = c;
    }
    return 0;
}

void meta_scripts_free(meta_scripts *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->texts[i]);
    memset(s, 0, sizeof *s);
}

/* Reading -------------------------------------------------------------- */

#define MAX_ITEMS 512

typedef struct ld_items {
    json_object *roots[META_MAX_SCRIPTS];
    size_t n_roots;
    json_object *items[MAX_ITEMS];
    size_t n;
} ld_items;

/* Every object below o, depth first. */
static void gather(ld_items *it, json_object *o, int depth)
{
    if (!o || depth > 24 || it->n >= MAX_ITEMS)
        return;
    if (json_object_is_type(o, json_type_array)) {
        size_t n = json_object_array_length(o);
        for (size_t i = 0; i < n; i++)
            gather(it, json_object_array_get_idx(o, i), depth + 1);
    } else if (json_object_is_type(o, json_type_object)) {
        it->items[it->n++] = o;
        json_object_object_foreach(o, key, val)
        {
            (void)key;
            if (json_object_is_type(val, json_type_object) || json_object_is_type(val, json_type_array))
                gather(it, val, depth + 1);
        }
    }
}

static const char *str_of(json_object *o, const char *key)
{
    json_object *v;
    if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
        return NULL;
    if (json_object_is_type(v, json_type_array) && json_object_array_length(v) > 0)
        v = json_object_array_get_idx(v, 0);
    return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static json_object *get(json_object *o, const char *key)
{
    json_object *v;
    if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
        return NULL;
    return v;
}

/* The item an {"@id": X} stands for, when the page describes it. */
static json_object *deref(const ld_items *it, json_object *o)
{
    if (!o || !json_object_is_type(o, json_type_object))
        return o;
    const char *id = str_of(o, "@id");
    if (!id || json_object_object_length(o) > 1)
        return o;
    for (size_t i = 0; i < it->n; i++) {
        const char *other = str_of(it->items[i], "@id");
        if (it->items[i] != o && other && !strcmp(other, id) && json_object_object_length(it->items[i]) > 1)
            return it->items[i];
    }
    return o;
}

/* How much an item's @type makes it the page's main item: 3 an article,
 * 2 a web page, 0 anything else. */
static int rank_of(json_object *o)
{
    json_object *t = get(o, "@type");
    int best = 0;
    size_t n = t && json_object_is_type(t, json_type_array) ? json_object_array_length(t) : 1;
    for (size_t i = 0; t && i < n; i++) {
        json_object *ti = json_object_is_type(t, json_type_array) ? json_object_array_get_idx(t, i) : t;
        if (!json_object_is_type(ti, json_type_string))
            continue;
        const char *s = json_object_get_string(ti);
        const char *h = strrchr(s, '/'); /* "http://schema.org/NewsArticle" */
        s = h ? h + 1 : s;
        int r = strstr(s, "Article") || strstr(s, "Posting") || !strcmp(s, "Report") ||
                        !strcmp(s, "Recipe") || !strcmp(s, "Review") || !strcmp(s, "HowTo")
                    ? 3
                : strstr(s, "Page") ? 2
                                    : 0;
        if (r > best)
            best = r;
    }
    return best;
}

static int has_type(json_object *o, const char *want)
{
    json_object *t = get(o, "@type");
    size_t n = t && json_object_is_type(t, json_type_array) ? json_object_array_length(t) : 1;
    for (size_t i = 0; t && i < n; i++) {
        json_object *ti = json_object_is_type(t, json_type_array) ? json_object_array_get_idx(t, i) : t;
        if (json_object_is_type(ti, json_type_string)) {
            const char *s = json_object_get_string(ti);
            const char *h = strrchr(s, '/');
            if (!strcmp(h ? h + 1 : s, want))
                return 1;
        }
    }
    return 0;
}

/* A string of the page, its references decoded and white space folded
 * (some pages write HTML's escapes into their JSON). */
static char *text_of(const char *s)
{
    if (!s)
        return NULL;
    base_buf b = BASE_BUF_INIT;
    base_html_unescape(&b, s, strlen(s));
    char *u = base_buf_take(&b, NULL);
    if (!u)
        return NULL;
    char *f = meta_fold(u);
    free(u);
    if (f && !*f) {
        free(f);
        return NULL;
    }
    return f;
}

/* A name: a string, or an object's "name" (through @id). */
static const char *name_of(const ld_items *it, json_object *v)
{
    if (!v)
        return NULL;
    if (json_object_is_type(v, json_type_string))
        return json_object_get_string(v);
    v = deref(it, v);
    return str_of(v, "name");
}

/* A URL: a string, or an object's url (@id as the last resort). */
static const char *url_of(const ld_items *it, json_object *v)
{
    if (!v)
        return NULL;
    if (json_object_is_type(v, json_type_array))
        v = json_object_array_length(v) ? json_object_array_get_idx(v, 0) : NULL;
    if (!v)
        return NULL;
    if (json_object_is_type(v, json_type_string))
        return json_object_get_string(v);
    v = deref(it, v);
    const char *u = str_of(v, "url");
    if (!u)
        u = str_of(v, "contentUrl");
    if (!u)
        u = str_of(v, "@id");
    return u;
}

static int set(char **dst, const char *s)
{
    if (*dst || !s)
        return 0;
    *dst = text_of(s);
    return 0;
}

static int set_date(char **dst, const char *s)
{
    char iso[40];
    if (*dst || !s || !meta_date_iso(s, iso, sizeof iso))
        return 0;
    return (*dst = strdup(iso)) ? 0 : -1;
}

static int read_authors(const ld_items *it, json_object *v, meta_ld *out)
{
    if (!v)
        return 0;
    size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 1;
    for (size_t i = 0; i < n; i++) {
        json_object *a = json_object_is_type(v, json_type_array) ? json_object_array_get_idx(v, i) : v;
        char *name = text_of(name_of(it, a));
        int rc = name ? meta_add_author(out->authors, &out->n_authors, name) : 0;
        free(name);
        if (rc)
            return -1;
    }
    return 0;
}

/* Some pages wrap their JSON in a comment or CDATA, or end it with a
 * semicolon: what a browser's JSON.parse would refuse, but every search
 * engine reads. */
static char *unwrap(const char *s)
{
    static const char *const junk[] = {"<!--", "-->", "//<![CDATA[", "//]]>", "<![CDATA[", "]]>", NULL};
    char *c = strdup(s);
    if (!c)
        return NULL;
    for (const char *const *j = junk; *j; j++) {
        char *p;
        size_t n = strlen(*j);
        while ((p = strstr(c, *j)))
            memmove(p, p + n, strlen(p + n) + 1);
    }
    size_t n = strlen(c);
    while (n && (base_html_space(c[n - 1]) || c[n - 1] == ';'))
        c[--n] = '\0';
    return c;
}

int meta_ld_read(const meta_scripts *s, meta_ld *out)
{
    memset(out, 0, sizeof *out);
    if (!s || !s->n)
        return 0;
    ld_items *it = calloc(1, sizeof *it);
    if (!it)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        char *text = unwrap(s->texts[i]);
        if (!text)
            continue;
        /* A depth json-c's default (32) would also give; said outright. */
        json_tokener *tok = json_tokener_new_ex(32);
        json_object *o = tok ? json_tokener_parse_ex(tok, text, (int)strlen(text)) : NULL;
        if (tok && json_tokener_get_error(tok) != json_tokener_success) {
            json_object_put(o);
            o = NULL;
        }
        json_tokener_free(tok);
        free(text);
        if (o) {
            it->roots[it->n_roots++] = o;
            gather(it, o, 0);
        }
    }
    json_object *main = NULL, *page = NULL;
    int best = 0;
    for (size_t i = 0; i < it->n; i++) {
        int r = rank_of(it->items[i]);
        if (r > best) {
            best = r;
            main = it->items[i];
        }
        if (r == 2 && !page)
            page = it->items[i];
    }
    int rc = 0;
    if (main) {
        if (best == 3) {
            set(&out->title, str_of(main, "headline"));
            set(&out->title, str_of(main, "name"));
        }
        set(&out->page_name, page ? str_of(page, "name") : NULL);
        rc |= read_authors(it, get(main, "author"), out);
        if (!out->n_authors)
            rc |= read_authors(it, get(main, "creator"), out);
        rc |= set_date(&out->published, str_of(main, "datePublished"));
        rc |= set_date(&out->published, str_of(main, "dateCreated"));
        rc |= set_date(&out->modified, str_of(main, "dateModified"));
        set(&out->description, str_of(main, "description"));
        json_object *lang = get(main, "inLanguage");
        set(&out->language, lang && json_object_is_type(lang, json_type_string)
                                ? json_object_get_string(lang)
                                : str_of(deref(it, lang), "alternateName"));
        set(&out->canonical, str_of(main, "url"));
        set(&out->canonical, url_of(it, get(main, "mainEntityOfPage")));
        set(&out->image, url_of(it, get(main, "image")));
        set(&out->image, str_of(main, "thumbnailUrl"));
        set(&out->site_name, name_of(it, get(main, "publisher")));
        json_object *part = deref(it, get(main, "isPartOf"));
        if (part && has_type(part, "WebSite"))
            set(&out->site_name, str_of(part, "name"));
        /* What the article leaves out, its page may say. */
        if (page && page != main) {
            set(&out->description, str_of(page, "description"));
            set(&out->canonical, str_of(page, "url"));
            rc |= set_date(&out->published, str_of(page, "datePublished"));
            rc |= set_date(&out->modified, str_of(page, "dateModified"));
            json_object *pl = get(page, "inLanguage");
            if (pl && json_object_is_type(pl, json_type_string))
                set(&out->language, json_object_get_string(pl));
            set(&out->image, url_of(it, get(page, "primaryImageOfPage")));
        }
    }
    for (size_t i = 0; i < it->n && !out->site_name; i++)
        if (has_type(it->items[i], "WebSite"))
            set(&out->site_name, str_of(it->items[i], "name"));
    for (size_t i = 0; i < it->n_roots; i++)
        json_object_put(it->roots[i]);
    free(it);
    if (rc) {
        meta_ld_free(out);
        return -1;
    }
    return 0;
}

void meta_ld_free(meta_ld *ld)
{
    free(ld->title);
    free(ld->page_name);
    free(ld->description);
    free(ld->published);
    free(ld->modified);
    free(ld->language);
    free(ld->canonical);
    free(ld->image);
    free(ld->site_name);
    for (size_t i = 0; i < ld->n_authors; i++)
        free(ld->authors[i]);
    memset(ld, 0, sizeof *ld);
}
