/* tools/: reading a corpus folder (plain or gzip pages) and text files. */
#define _GNU_SOURCE
#include "tools/corpus.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "tools/cli.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

static int page_cmp(const void *a, const void *b)
{
    return strcmp(((const corpus_page *)a)->id, ((const corpus_page *)b)->id);
}

/* The deepest folder corpus_list walks into below the corpus folder: far
 * deeper than any documentation tree (rustdoc's are 4 or 5), and a bound
 * on a tree that loops through bind mounts. */
#define CORPUS_MAX_DEPTH 32

typedef struct lister {
    corpus_page *pages;
    size_t n, cap;
    int err; /* errno of the corpus folder's opendir */
} lister;

/* Lists the pages of `dir` (the corpus folder joined with `rel`, "" at the
 * top) into `l`, and of its subfolders. A page's id is its path below the
 * corpus folder without the suffix, so that a flat folder gives the file
 * names as before. Folders are walked, not followed: a symbolic link to a
 * folder is not one (lstat), which keeps a link loop out; a link to a file
 * is listed as the file. Names starting with a dot are skipped only for
 * folders (a work folder beside the pages, .git), never for pages, as the
 * flat listing did. 0; -1 out of memory; -2 the folder cannot be read (the
 * corpus folder itself: the caller says why; a subfolder: skipped). */
static int list_dir(const char *root, const char *rel, int depth, lister *l)
{
    char *dir = NULL;
    if (asprintf(&dir, *rel ? "%s/%s" : "%s%s", root, rel) < 0)
        return -1;
    DIR *d = opendir(dir);
    if (!d) {
        l->err = errno;
        free(dir);
        return -2;
    }
    static const char *const suffixes[] = {".html.gz", ".htm.gz", ".html", ".htm"};
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *path = NULL, *sub = NULL;
        if (asprintf(&path, "%s/%s", dir, e->d_name) < 0) {
            rc = -1;
            break;
        }
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (e->d_name[0] != '.' && depth < CORPUS_MAX_DEPTH) {
                if (asprintf(&sub, *rel ? "%s/%s" : "%s%s", rel, e->d_name) < 0)
                    rc = -1;
                else if (list_dir(root, sub, depth + 1, l) == -1)
                    rc = -1;
                free(sub);
            }
            free(path);
            continue;
        }
        const char *suffix = NULL;
        for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0] && !suffix; i++)
            if (ends_with(e->d_name, suffixes[i]))
                suffix = suffixes[i];
        if (!suffix) {
            free(path);
            continue;
        }
        if (l->n == l->cap) {
            size_t cap = l->cap ? l->cap * 2 : 256;
            corpus_page *v = realloc(l->pages, cap * sizeof *v);
            if (!v) {
                free(path);
                rc = -1;
                break;
            }
            l->pages = v;
            l->cap = cap;
        }
        corpus_page *p = &l->pages[l->n];
        size_t stem = strlen(e->d_name) - strlen(suffix);
        p->path = path;
        p->gz = ends_with(suffix, ".gz");
        if ((*rel ? asprintf(&p->id, "%s/%.*s", rel, (int)stem, e->d_name)
                  : asprintf(&p->id, "%.*s", (int)stem, e->d_name)) < 0) {
            free(path);
            rc = -1;
            break;
        }
        l->n++;
    }
    closedir(d);
    free(dir);
    return rc;
}

int corpus_list(const char *dir, corpus_page **pages, size_t *n, char *why, size_t why_cap)
{
    *pages = NULL;
    *n = 0;
    lister l = {0};
    int rc = list_dir(dir, "", 0, &l);
    if (rc == -2) {
        snprintf(why, why_cap, "%s: %s", dir, strerror(l.err));
        return -1;
    }
    if (rc == -1) {
        corpus_free(l.pages, l.n);
        snprintf(why, why_cap, "out of memory");
        return -1;
    }
    if (l.n == 0) {
        snprintf(why, why_cap, "%s: no .html or .html.gz pages", dir);
        free(l.pages);
        return -1;
    }
    qsort(l.pages, l.n, sizeof *l.pages, page_cmp);
    *pages = l.pages;
    *n = l.n;
    return 0;
}

char *corpus_page_dir(const corpus_page *page)
{
    const char *slash = strrchr(page->path, '/');
    if (!slash)
        return strdup(".");
    return strndup(page->path, (size_t)(slash - page->path) + (slash == page->path));
}

void corpus_free(corpus_page *pages, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(pages[i].id);
        free(pages[i].path);
    }
    free(pages);
}

int corpus_read(const corpus_page *page, size_t limit, char **buf, size_t *len, char *why,
                size_t why_cap)
{
    *buf = NULL;
    *len = 0;
    gzFile f = gzopen(page->path, "rb"); /* reads plain files as they are */
    if (!f) {
        snprintf(why, why_cap, "%s: %s", page->path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    while (b) {
        if (n == cap) {
            if (cap > limit)
                break;
            char *nb = realloc(b, cap * 2 + 1);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
        int got = gzread(f, b + n, (unsigned)(cap - n));
        if (got < 0) {
            int err;
            snprintf(why, why_cap, "%s: %s", page->path, gzerror(f, &err));
            gzclose(f);
            free(b);
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    gzclose(f);
    if (!b) {
        snprintf(why, why_cap, "%s: out of memory", page->path);
        return -1;
    }
    if (n > limit) {
        snprintf(why, why_cap, "%s: over the limit of %zu bytes", page->path, limit);
        free(b);
        return -1;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

json_object *corpus_load_texts(const char *path, json_object **root, char *why, size_t why_cap)
{
    *root = json_object_from_file(path);
    if (!*root) {
        snprintf(why, why_cap, "%s: not a readable JSON file (%s)", path, json_util_get_last_err());
        return NULL;
    }
    json_object *texts = *root, *inner;
    if (json_object_object_get_ex(*root, "output", &inner) &&
        json_object_is_type(inner, json_type_object))
        texts = inner;
    if (!json_object_is_type(texts, json_type_object)) {
        snprintf(why, why_cap, "%s: expected an object of {id: {\"articleBody\": text}}", path);
        json_object_put(*root);
        *root = NULL;
        return NULL;
    }
    return texts;
}

const char *corpus_text(json_object *texts, const char *id)
{
    json_object *page, *body;
    if (!json_object_object_get_ex(texts, id, &page))
        return NULL;
    if (json_object_is_type(page, json_type_string))
        return json_object_get_string(page);
    if (json_object_object_get_ex(page, "articleBody", &body) &&
        json_object_is_type(body, json_type_string))
        return json_object_get_string(body);
    return NULL;
}

const char *corpus_field(json_object *texts, const char *id, const char *key)
{
    json_object *page, *val;
    if (!json_object_object_get_ex(texts, id, &page) ||
        !json_object_is_type(page, json_type_object) ||
        !json_object_object_get_ex(page, key, &val) || !json_object_is_type(val, json_type_string))
        return NULL;
    return json_object_get_string(val);
}

int corpus_strings(json_object *texts, const char *id, const char *key, const char ***v,
                   size_t *n)
{
    *v = NULL;
    *n = 0;
    json_object *page, *arr;
    if (!json_object_object_get_ex(texts, id, &page) ||
        !json_object_is_type(page, json_type_object) ||
        !json_object_object_get_ex(page, key, &arr) || !json_object_is_type(arr, json_type_array))
        return 0;
    size_t len = json_object_array_length(arr);
    if (!(*v = malloc((len ? len : 1) * sizeof **v)))
        return -1;
    for (size_t i = 0; i < len; i++) {
        json_object *item = json_object_array_get_idx(arr, i);
        if (json_object_is_type(item, json_type_string))
            (*v)[(*n)++] = json_object_get_string(item);
    }
    return 1;
}

int corpus_start(const char *cmd, const char *dir, const char *truth_path, corpus *c)
{
    char why[512];
    *c = (corpus){0};
    if (!(c->truth = corpus_load_texts(truth_path, &c->root, why, sizeof why)) ||
        corpus_list(dir, &c->pages, &c->n, why, sizeof why) != 0) {
        fprintf(stderr, "glance %s: %s\n", cmd, why);
        corpus_end(c);
        return EXIT_BADINPUT;
    }
    return 0;
}

void corpus_end(corpus *c)
{
    corpus_free(c->pages, c->n);
    if (c->root)
        json_object_put(c->root);
    *c = (corpus){0};
}
