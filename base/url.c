/* base/: URLs cleaned, their schemes, references resolved (url.h). */
#include "base/url.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

char *base_url_clean(const char *s)
{
    size_t n = strlen(s);
    /* C0 controls and space at either end: the URL standard strips them. */
    while (n && (unsigned char)s[n - 1] <= 0x20)
        n--;
    while (n && (unsigned char)*s <= 0x20)
        s++, n--;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            out[k++] = s[i];
    out[k] = '\0';
    return out;
}

size_t base_url_scheme(const char *url, char *out, size_t cap)
{
    if (!isalpha((unsigned char)url[0]))
        return 0;
    size_t n = 1;
    while (isalnum((unsigned char)url[n]) || url[n] == '+' || url[n] == '-' || url[n] == '.')
        n++;
    if (url[n] != ':' || n + 1 > cap)
        return 0;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)tolower((unsigned char)url[i]);
    out[n] = '\0';
    return n;
}

/* The parts of a reference (RFC 3986 3): each a range of the text, and
 * whether it is there at all (an empty query "?" is not an absent one). */
typedef struct url_parts {
    const char *scheme, *auth, *path, *query, *frag;
    size_t scheme_n, auth_n, path_n, query_n, frag_n;
    int has_scheme, has_auth, has_query, has_frag;
} url_parts;

static void split(const char *s, url_parts *u)
{
    memset(u, 0, sizeof *u);
    size_t sn = 0;
    /* base_url_scheme wants room for the whole scheme: measure it first. */
    if (isalpha((unsigned char)s[0])) {
        while (isalnum((unsigned char)s[sn]) || s[sn] == '+' || s[sn] == '-' || s[sn] == '.')
            sn++;
        if (s[sn] == ':') {
            u->has_scheme = 1;
            u->scheme = s;
            u->scheme_n = sn;
            s += sn + 1;
        }
    }
    if (s[0] == '/' && s[1] == '/') {
        s += 2;
        size_t n = strcspn(s, "/?#");
        u->has_auth = 1;
        u->auth = s;
        u->auth_n = n;
        s += n;
    }
    size_t n = strcspn(s, "?#");
    u->path = s;
    u->path_n = n;
    s += n;
    if (*s == '?') {
        s++;
        n = strcspn(s, "#");
        u->has_query = 1;
        u->query = s;
        u->query_n = n;
        s += n;
    }
    if (*s == '#') {
        u->has_frag = 1;
        u->frag = s + 1;
        u->frag_n = strlen(s + 1);
    }
}

/* RFC 3986 5.2.4: "." and ".." segments of `in` taken out, into `out`. */
static void remove_dots(const char *in, size_t n, base_buf *out)
{
    size_t start = out->len;
    size_t i = 0;
    while (i < n) {
        const char *p = in + i;
        size_t left = n - i;
        if (left >= 3 && !strncmp(p, "../", 3)) {
            i += 3;
        } else if (left >= 2 && !strncmp(p, "./", 2)) {
            i += 2;
        } else if (left >= 3 && !strncmp(p, "/./", 3)) {
            i += 2;
        } else if (left == 2 && !strncmp(p, "/.", 2)) {
            /* "/." at the end: the folder itself. */
            base_buf_putc(out, '/');
            i += 2;
        } else if ((left >= 4 && !strncmp(p, "/../", 4)) || (left == 3 && !strncmp(p, "/..", 3))) {
            /* Up one: drop the last segment written (and its '/'). */
            while (out->len > start && out->data[out->len - 1] != '/')
                base_buf_shrink(out, 1);
            if (out->len > start)
                base_buf_shrink(out, 1);
            if (left == 3) {
                base_buf_putc(out, '/');
                i += 3;
            } else {
                i += 3; /* the next segment starts with the '/' left */
            }
        } else if ((left == 1 && p[0] == '.') || (left == 2 && !strncmp(p, "..", 2))) {
            i = n;
        } else {
            /* One segment, with its leading '/'. */
            size_t k = p[0] == '/' ? 1 : 0;
            while (k < left && p[k] != '/')
                k++;
            base_buf_add(out, p, k);
            i += k;
        }
    }
}

char *base_url_resolve(const char *base_in, const char *ref_in)
{
    char *ref = base_url_clean(ref_in);
    char *base = base_in ? base_url_clean(base_in) : NULL;
    if (!ref || (base_in && !base)) {
        free(ref);
        free(base);
        return NULL;
    }
    url_parts r, b;
    split(ref, &r);
    if (base)
        split(base, &b);
    if (r.has_scheme || !base || !b.has_scheme) {
        free(base);
        return ref;
    }
    base_buf out = BASE_BUF_INIT;
    base_buf_add(&out, b.scheme, b.scheme_n);
    base_buf_putc(&out, ':');
    if (r.has_auth) {
        base_buf_puts(&out, "//");
        base_buf_add(&out, r.auth, r.auth_n);
        remove_dots(r.path, r.path_n, &out);
        if (r.has_query) {
            base_buf_putc(&out, '?');
            base_buf_add(&out, r.query, r.query_n);
        }
    } else {
        if (b.has_auth) {
            base_buf_puts(&out, "//");
            base_buf_add(&out, b.auth, b.auth_n);
        }
        if (r.path_n == 0) {
            base_buf_add(&out, b.path, b.path_n);
            const char *q = r.has_query ? r.query : b.query;
            size_t qn = r.has_query ? r.query_n : b.query_n;
            if (r.has_query || b.has_query) {
                base_buf_putc(&out, '?');
                base_buf_add(&out, q, qn);
            }
        } else {
            if (r.path[0] == '/') {
                remove_dots(r.path, r.path_n, &out);
            } else {
                /* Merge (5.2.3): the base's path up to its last '/', then
                 * the reference; "/" alone when the base has an authority
                 * and no path. */
                base_buf merged = BASE_BUF_INIT;
                if (b.has_auth && b.path_n == 0) {
                    base_buf_putc(&merged, '/');
                } else {
                    size_t k = b.path_n;
                    while (k > 0 && b.path[k - 1] != '/')
                        k--;
                    base_buf_add(&merged, b.path, k);
                }
                base_buf_add(&merged, r.path, r.path_n);
                if (merged.data)
                    remove_dots(merged.data, merged.len, &out);
                out.oom |= merged.oom;
                base_buf_free(&merged);
            }
            if (r.has_query) {
                base_buf_putc(&out, '?');
                base_buf_add(&out, r.query, r.query_n);
            }
        }
    }
    if (r.has_frag) {
        base_buf_putc(&out, '#');
        base_buf_add(&out, r.frag, r.frag_n);
    }
    free(ref);
    free(base);
    return base_buf_take(&out, NULL);
}
