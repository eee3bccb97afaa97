/* net/: the stylesheets of a page, fetched up front in rounds (the page's
 * own, then what they @import, ...), each round in parallel, so that
 * render/ finds every sheet by name and layout never waits for the
 * network. */
#define _GNU_SOURCE
#include "net/net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net/fetch.h"

#include "base/grow.h"
#include "base/sheetrefs.h"

/* `ref` as the layout engine will ask for it: litehtml hands over an
 * @import "x.css" with its quotes, so both sides drop white space around
 * and one pair of quotes. render/ does the same (container.cpp). */
static char *normalise_ref(const char *ref)
{
    const char *ws = " \t\n\r\f";
    size_t a = strspn(ref, ws), n = strlen(ref);
    while (n > a && strchr(ws, ref[n - 1]))
        n--;
    if (n - a >= 2 && (ref[a] == '"' || ref[a] == '\'') && ref[n - 1] == ref[a]) {
        a++;
        n--;
        a += strspn(ref + a, ws);
        while (n > a && strchr(ws, ref[n - 1]))
            n--;
    }
    return strndup(ref + a, n - a);
}

static int is_web_url(const char *s)
{
    return strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0;
}

typedef struct builder {
    net_sheets *t;
    const net_opts *o;
    const char *from;  /* "" or the importing sheet's URL */
    const char *base;  /* what relative references resolve against; NULL: none do */
    int round;         /* 0: the page's own; n: imported n deep */
    size_t cap_sheets, cap_refs;
} builder;

static int add_sheet(builder *b, const char *url, const char *error)
{
    net_sheets *t = b->t;
    if (base_grow(&t->sheets, &b->cap_sheets, (size_t)t->n_sheets + 1, sizeof *t->sheets))
        return -1;
    net_sheet *s = &t->sheets[t->n_sheets];
    memset(s, 0, sizeof *s);
    s->url = strdup(url);
    s->error = error ? strdup(error) : NULL;
    if (!s->url || (error && !s->error)) {
        free(s->url);
        free(s->error);
        return -1;
    }
    return t->n_sheets++;
}

/* Called by the scans for each reference. */
static int add_ref(void *ud, const char *raw)
{
    builder *b = ud;
    net_sheets *t = b->t;
    char *ref = normalise_ref(raw);
    if (!ref)
        return -1;
    if (!ref[0]) {
        free(ref);
        return 0;
    }
    for (int i = 0; i < t->n_refs; i++)
        if (strcmp(t->refs[i].ref, ref) == 0 && strcmp(t->refs[i].from, b->from) == 0) {
            free(ref);
            return 0;
        }
    /* A page from a file has no URL: its relative references are files
     * (render/ reads them); only absolute web URLs are for the network. */
    char *url = b->base || is_web_url(ref) ? net_resolve(b->base, ref) : NULL;
    if (!url && !b->base) {
        free(ref);
        return 0;
    }
    const char *key = url ? url : ref;
    int sheet = -1;
    for (int i = 0; i < t->n_sheets; i++)
        if (strcmp(t->sheets[i].url, key) == 0) {
            sheet = i;
            break;
        }
    if (sheet < 0) {
        char err[128];
        const char *e = NULL;
        if (!url) {
            e = "not an http or https URL";
        } else if (b->o->max_stylesheets > 0 && t->n_sheets >= b->o->max_stylesheets) {
            snprintf(err, sizeof err, "over the limit of %d stylesheets (max_stylesheets)",
                     b->o->max_stylesheets);
            e = err;
        } else if (b->round >= NET_IMPORT_ROUNDS) {
            snprintf(err, sizeof err, "@import nested deeper than %d", NET_IMPORT_ROUNDS);
            e = err;
        }
        sheet = add_sheet(b, key, e);
    }
    free(url);
    if (sheet < 0) {
        free(ref);
        return -1;
    }
    if (base_grow(&t->refs, &b->cap_refs, (size_t)t->n_refs + 1, sizeof *t->refs)) {
        free(ref);
        return -1;
    }
    net_sheet_ref *r = &t->refs[t->n_refs];
    r->ref = ref;
    r->from = strdup(b->from);
    r->sheet = sheet;
    if (!r->from) {
        free(ref);
        return -1;
    }
    t->n_refs++;
    return 0;
}

/* Fetches the sheets [first, last) that are still to fetch, together. */
static net_status fetch_round(net_session *s, builder *b, int first, int last)
{
    net_sheets *t = b->t;
    int n = 0;
    for (int i = first; i < last; i++)
        n += !t->sheets[i].error;
    if (n == 0)
        return NET_OK;
    net_fetch_job *jobs = calloc((size_t)n, sizeof *jobs);
    int *sheet_of = malloc((size_t)n * sizeof *sheet_of);
    if (!jobs || !sheet_of) {
        free(jobs);
        free(sheet_of);
        return NET_ENOMEM;
    }
    int k = 0;
    for (int i = first; i < last; i++) {
        if (t->sheets[i].error)
            continue;
        jobs[k].url = t->sheets[i].url;
        jobs[k].limit = b->o->max_css_bytes;
        jobs[k].accept = "text/css,*/*;q=0.1";
        sheet_of[k++] = i;
    }
    net_status st = net_fetch_many(s, jobs, n);
    for (int i = 0; i < n; i++) {
        net_sheet *sh = &t->sheets[sheet_of[i]];
        sh->ms = jobs[i].ms;
        sh->charset = jobs[i].charset;
        if (st == NET_OK && jobs[i].status == NET_OK) {
            sh->css = jobs[i].body;
            sh->len = jobs[i].len;
        } else {
            free(jobs[i].body);
            if (st == NET_OK && jobs[i].status == NET_ETOOBIG)
                snprintf(jobs[i].why + strlen(jobs[i].why), sizeof jobs[i].why - strlen(jobs[i].why),
                         " (max_css_bytes)");
            if (!(sh->error = strdup(st == NET_OK ? jobs[i].why : "out of memory")))
                st = NET_ENOMEM;
        }
    }
    free(sheet_of);
    free(jobs);
    return st;
}

typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

static int collect(void *ud, const char *ref)
{
    strlist *l = ud;
    if (base_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v))
        return -1;
    return (l->v[l->n] = strdup(ref)) ? (l->n++, 0) : -1;
}

net_status net_fetch_sheets(net_session *s, const char *html, size_t len, const char *page_url,
                            net_sheets *out)
{
    memset(out, 0, sizeof *out);
    builder b = {.t = out, .o = net_session_opts(s), .from = ""};
    strlist refs = {0};
    char *base_href = NULL, *base = NULL;
    net_status st = NET_OK;
    /* The references are resolved once the scan has seen the <base>. */
    if (base_sheet_refs_html(html, len, &base_href, collect, &refs) != 0)
        st = NET_ENOMEM;
    if (st == NET_OK && page_url) {
        base = base_href ? net_resolve(page_url, base_href) : NULL;
        if (!base && !(base = strdup(page_url)))
            st = NET_ENOMEM;
    }
    b.base = base;
    for (size_t i = 0; st == NET_OK && i < refs.n; i++)
        if (add_ref(&b, refs.v[i]) != 0)
            st = NET_ENOMEM;
    for (size_t i = 0; i < refs.n; i++)
        free(refs.v[i]);
    free(refs.v);
    free(base_href);
    int first = 0;
    for (int round = 0; st == NET_OK && first < out->n_sheets; round++) {
        int last = out->n_sheets;
        st = fetch_round(s, &b, first, last);
        /* What these sheets import is the next round; their references
         * resolve against their own URL. */
        b.round = round + 1;
        for (int i = first; st == NET_OK && i < last; i++) {
            const char *css = out->sheets[i].css, *url = out->sheets[i].url;
            size_t n = out->sheets[i].len;
            if (!css)
                continue;
            b.from = url;
            b.base = url;
            if (base_sheet_refs_css(css, n, add_ref, &b) != 0)
                st = NET_ENOMEM;
        }
        first = last;
    }
    free(base);
    if (st != NET_OK)
        net_sheets_free(out);
    return st;
}

const net_sheet *net_sheets_find(const net_sheets *t, const char *ref, const char *from)
{
    if (!t || !ref)
        return NULL;
    char *r = normalise_ref(ref);
    if (!r)
        return NULL;
    const net_sheet *found = NULL;
    for (int i = 0; i < t->n_refs && !found; i++)
        if (strcmp(t->refs[i].ref, r) == 0 && strcmp(t->refs[i].from, from ? from : "") == 0)
            found = &t->sheets[t->refs[i].sheet];
    for (int i = 0; i < t->n_sheets && !found && is_web_url(r); i++)
        if (strcmp(t->sheets[i].url, r) == 0)
            found = &t->sheets[i];
    free(r);
    return found && found->css ? found : NULL;
}

void net_sheets_free(net_sheets *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n_sheets; i++) {
        free(t->sheets[i].url);
        free(t->sheets[i].css);
        free(t->sheets[i].charset);
        free(t->sheets[i].error);
    }
    for (int i = 0; i < t->n_refs; i++) {
        free(t->refs[i].ref);
        free(t->refs[i].from);
    }
    free(t->sheets);
    free(t->refs);
    memset(t, 0, sizeof *t);
}
