/* tools/: glance extract, the main content of one page. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <json-c/json.h>

#include <json-c/json.h>

#include "base/clock.h"
#include "glance.h"
#include "tools/cli.h"
#include "tools/corpus.h"
#include "tools/isolate.h"
#include "tools/options.h"
#include "tools/progress.h"
#include "tools/shot.h"
#include "tools/stream.h"

static void usage_extract(FILE *f)
{
    fputs("usage: glance extract [options] FILE|URL|-\n"
          "       glance extract [options] [--jobs N] [-o FILE | --output-dir DIR]\n"
          "                      [--input-dir DIR] [FILE|URL ...]\n"
          "\n"
          "Lays the page out at a window size and prints its main content. An http\n"
          "or https URL is fetched with its stylesheets; a file or standard input\n"
          "that is gzip data (.html.gz) is read through it.\n"
          "\n"
          "Many pages: every FILE and URL given, and every .html, .htm, .html.gz and\n"
          ".htm.gz page of --input-dir DIR and its subfolders. Their outputs go to\n"
          "standard output (or -o FILE) in the order given, each text or HTML after a\n"
          "line \"==> PAGE <==\", each JSON on a line of its own with \"input\": PAGE;\n"
          "or with --output-dir DIR each to a file named after its page (DIR/ID.txt,\n"
          ".html or .json; ID: the file name without .html and .gz, or the path\n"
          "below --input-dir). A page that fails is reported on stderr and counted;\n"
          "the run goes on. A progress bar is drawn on stderr when it is a terminal.\n"
          "\n"
          "options:\n"
          "  --format F         text (the page title, an empty line, the text), markdown\n"
          "                     (the title as a heading, then the content), html (the\n"
          "                     content only) or json (the reasoning and the metadata too)\n"
          "                     (default text)\n"
          "  --metadata         text and markdown: a header of the page's metadata first\n"
          "                     (title, authors, byline, dates, description, language,\n"
          "                     canonical URL, site name, lead image; \"key: value\" lines,\n"
          "                     or YAML front matter for markdown) in place of the title\n"
          "  -o FILE            write to FILE, not standard output\n"
          "  --output-dir DIR   one file per page in DIR (made when missing)\n"
          "  --input-dir DIR    every page of DIR and its subfolders (sorted by path)\n"
          "  --jobs N           pages extracted at once (default 1), each on a thread\n"
          "                     with its own fonts; the output keeps the order given\n"
          "  --snapshot FILE    the input is what a browser saw, not HTML: a\n"
          "                     DOMSnapshot in glance's envelope (docs/snapshot.md), as\n"
          "                     examples/snapshot.mjs writes it; - reads standard input\n"
          "  --save-snapshot FILE  with --engine chromium (or auto, when it sends the\n"
          "                     page there): also write what the browser saw, for\n"
          "                     --snapshot to run again without the browser\n"
          "  --geometry FILE    boxes of a browser's layout of the page, keyed by XPath\n"
          "                     (tools/chromium-boxes.mjs), used instead of litehtml's;\n"
          "                     the window is theirs unless --window is given\n"
          "  --in-process       work on pages in this process, not in worker processes\n"
          "                     (the default: one for one page, one per --jobs reused\n"
          "                     page to page for many) killed past time_budget and a\n"
          "                     second (the fetch's timeout too, for a URL) or failing\n"
          "                     over max_memory; in-process the budget is checked\n"
          "                     between stages only and cannot stop litehtml inside one,\n"
          "                     and max_memory is not applied\n"
          "  --shot OUT.png     also paint the page with GCE's reasoning on it, as\n"
          "                     glance shot does (with its options:)\n",
          f);
    fputs(shot_cli_usage, f);
    fputs("  -h, --help         this help\n"
          "\n"
          "the page (every option of the library is a flag: --KEY VALUE, --KEY=VALUE,\n"
          "--set KEY=VALUE; a switch is --KEY or --no-KEY):\n",
          f);
    cli_options_usage(f, "page");
    fputs("\nthe methods (each with its paper's values):\n", f);
    cli_options_usage(f, "methods");
    fputs("\nthe network (a URL, and remote stylesheets of any page):\n", f);
    cli_options_usage(f, "network");
    fputs("\nwhat a page may cost:\n", f);
    cli_options_usage(f, "limits");
    fputs(cli_exit_usage, f);
    fputs("With many pages: 0 when every page gave content, else the highest status\n"
          "of a page (1 no main content ... 5 not fetched); every page is tried.\n",
          f);
}

/* One page of many: where it comes from, what its output is called. */
typedef struct page_in {
    const char *input; /* a FILE, URL or "-", as given (or a page of --input-dir) */
    char *name;        /* the output's name without its extension (--output-dir) */
} page_in;

/* A page on its way through the stream: read by nobody (the worker reads
 * it), extracted, its output written by the writer in order. */
typedef struct page_job {
    size_t index;
    glance_status st;
    int code;      /* its exit status */
    char *out;     /* what goes to the output stream; NULL: nothing */
    size_t out_len;
    char *notes;   /* lines for stderr (a skipped stylesheet, why it failed) */
} page_job;

typedef struct many {
    const glance_options *opt;
    const char *format; /* "text", "markdown", "html" or "json" */
    int metadata;       /* --metadata */
    const char *out_dir;
    FILE *out;          /* the stream, when not out_dir */
    page_in *pages;
    size_t n, next;
    progress prog;
    size_t content, nocontent, failed, written;
    int worst; /* the highest exit status of a page */
    isolate_pool *pool; /* the worker processes; NULL: in-process */
} many;

static const char *format_ext(const char *format)
{
    if (strcmp(format, "markdown") == 0 || strcmp(format, "md") == 0)
        return ".md";
    return strcmp(format, "json") == 0 ? ".json" : strcmp(format, "html") == 0 ? ".html" : ".txt";
}

/* A page's output name from what was given: the file name without .html,
 * .htm, .xhtml and .gz; a URL's host and path with '_' for what a file
 * name should not hold; "stdin" for "-". */
static char *name_of_input(const char *input)
{
    if (strcmp(input, "-") == 0)
        return strdup("stdin");
    const char *base = input;
    if (cli_looks_like_url(input)) {
        base = strstr(input, "://") + 3;
    } else {
        const char *slash = strrchr(input, '/');
        if (slash)
            base = slash + 1;
    }
    char *name = strdup(*base ? base : "page");
    if (!name)
        return NULL;
    size_t n = strlen(name);
    static const char *const suffixes[] = {".gz", ".html", ".htm", ".xhtml"};
    for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
        size_t m = strlen(suffixes[k]);
        if (n > m && strcasecmp(name + n - m, suffixes[k]) == 0)
            name[n -= m] = '\0';
    }
    for (char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '.' || *c == '-' || *c == '_' || (unsigned char)*c >= 0x80))
            *c = '_';
    if (n > 200)
        name[200] = '\0';
    if (name[0] == '.')
        name[0] = '_'; /* no hidden files, no ".." */
    return name;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Two pages whose outputs would be one file: said on stderr, 1. */
static int names_collide(const page_in *pages, size_t n, const char *dir, const char *ext)
{
    char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names)
        return 1;
    for (size_t i = 0; i < n; i++)
        names[i] = pages[i].name;
    qsort(names, n, sizeof *names, name_cmp);
    int clash = 0;
    for (size_t i = 1; i < n && !clash; i++)
        if (strcmp(names[i - 1], names[i]) == 0) {
            fprintf(stderr, "glance extract: two pages would both be written to %s/%s%s (give them one "
                            "at a time, or use --input-dir, whose names keep their folders)\n",
                    dir, names[i], ext);
            clash = 1;
        }
    free(names);
    return clash;
}

/* Makes the folders above `path` (mkdir -p of its parent). */
static int make_parents(char *path)
{
    for (char *c = path + 1; *c; c++) {
        if (*c != '/')
            continue;
        *c = '\0';
        int rc = mkdir(path, 0777);
        *c = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    return 0;
}

static void note(page_job *job, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(page_job *job, const char *fmt, ...)
{
    char *line = NULL, *joined = NULL;
    va_list ap;
    va_start(ap, fmt);
    int rc = vasprintf(&line, fmt, ap);
    va_end(ap);
    if (rc < 0)
        return;
    if (asprintf(&joined, "%s%s\n", job->notes ? job->notes : "", line) >= 0) {
        free(job->notes);
        job->notes = joined;
    }
    free(line);
}

static int many_read(void *arg, void **item)
{
    many *m = arg;
    if (m->next == m->n)
        return 0;
    page_job *job = calloc(1, sizeof *job);
    if (!job)
        return -1;
    job->index = m->next++;
    *item = job;
    return 1;
}

/* The title as a Markdown heading, what would read as markup escaped. */
static void print_heading(FILE *out, const char *t)
{
    fputs("# ", out);
    size_t n = strlen(t), end = n;
    while (end > 0 && t[end - 1] == '#')
        end--; /* a closing run of '#' would end the heading */
    for (size_t i = 0; i < n; i++) {
        if (strchr("\\`*_[]<>", t[i]) || (i == end && end < n))
            fputc('\\', out);
        fputc(t[i], out);
    }
    fputs("\n\n", out);
}

/* One metadata line: "key: value" for text, a YAML line (the value as a
 * JSON string, which YAML reads) for Markdown's front matter. */
static void meta_line(FILE *out, const char *key, const char *value, int yaml)
{
    if (!value)
        return;
    if (!yaml) {
        fprintf(out, "%s: %s\n", key, value);
        return;
    }
    json_object *s = json_object_new_string(value);
    fprintf(out, "%s: %s\n", key, json_object_to_json_string_ext(s, JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(s);
}

/* The metadata header of --metadata: the fields the page gave, in the
 * order of the library's list, the authors after the title. */
static void print_metadata(FILE *out, glance_result *res, int yaml)
{
    if (yaml)
        fprintf(out, "---\n");
    meta_line(out, "title", glance_result_title(res), yaml);
    int n = glance_result_author_count(res);
    if (n && yaml) {
        fprintf(out, "authors:\n");
        for (int i = 0; i < n; i++) {
            json_object *s = json_object_new_string(glance_result_author(res, i, NULL));
            fprintf(out, "  - %s\n", json_object_to_json_string_ext(s, JSON_C_TO_STRING_NOSLASHESCAPE));
            json_object_put(s);
        }
    } else if (n) {
        fprintf(out, "authors: ");
        for (int i = 0; i < n; i++)
            fprintf(out, "%s%s", i ? "; " : "", glance_result_author(res, i, NULL));
        fprintf(out, "\n");
    }
    for (int i = 0; glance_meta_field(i); i++) {
        const char *f = glance_meta_field(i);
        if (strcmp(f, "title") != 0)
            meta_line(out, f, glance_result_meta(res, f, NULL), yaml);
    }
    int minutes = glance_result_reading_minutes(res);
    if (minutes) {
        char m[16];
        snprintf(m, sizeof m, "%d", minutes);
        if (yaml)
            fprintf(out, "reading_minutes: %s\n", m);
        else
            meta_line(out, "reading_minutes", m, 0);
    }
    fprintf(out, yaml ? "---\n\n" : "\n");
}

/* A page's answer as the command prints it: the title (or the metadata
 * header) and the text, the content's HTML, or Markdown. 0, or -1 when out
 * of memory. */
static int write_answer(FILE *out, glance_result *res, const char *format, int metadata)
{
    const char *title = glance_result_title(res);
    if (strcmp(format, "html") == 0) {
        fprintf(out, "%s\n", glance_result_html(res));
    } else if (strcmp(format, "markdown") == 0 || strcmp(format, "md") == 0) {
        const char *md = glance_result_markdown(res);
        if (!md)
            return -1;
        if (metadata)
            print_metadata(out, res, 1);
        else if (title[0])
            print_heading(out, title);
        fprintf(out, "%s\n", md);
    } else {
        /* A reader wants the headline: the title first, then the text
         * (which leaves the headline out when the title holds it). */
        if (metadata)
            print_metadata(out, res, 0);
        else if (title[0])
            fprintf(out, "%s\n\n", title);
        fprintf(out, "%s\n", glance_result_text(res));
    }
    return 0;
}

/* The page's output as the single-page command prints it; for the stream
 * with its "==> PAGE <==" line, or its JSON with "input" first. */
static char *format_page(const many *m, const page_in *pg, glance_result *res, glance_status st,
                         size_t *len)
{
    char *s = NULL;
    int rc = -1;
    int stream = m->out_dir == NULL;
    if (strcmp(m->format, "json") == 0) {
        /* A file per page: the JSON as glance extract prints it. The stream:
         * one line per page, "input" first. */
        const char *j = res ? glance_result_json(res) : NULL;
        if (!stream && j) {
            rc = asprintf(&s, "%s\n", j);
        } else {
            json_object *line = json_object_new_object(), *parsed = j ? json_tokener_parse(j) : NULL;
            if (!line) {
                json_object_put(parsed);
                return NULL;
            }
            if (stream)
                json_object_object_add(line, "input", json_object_new_string(pg->input));
            if (parsed) {
                json_object_object_foreach(parsed, key, val)
                    json_object_object_add(line, key, json_object_get(val));
            } else { /* not even a result: the status and why */
                json_object_object_add(line, "status", json_object_new_string(glance_status_name(st)));
            }
            const char *t = json_object_to_json_string_ext(
                line, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
            rc = t ? asprintf(&s, "%s\n", t) : -1;
            json_object_put(parsed);
            json_object_put(line);
        }
    } else if (st == GLANCE_OK) {
        size_t n = 0;
        FILE *f = open_memstream(&s, &n);
        if (!f)
            return NULL;
        if (stream)
            fprintf(f, "==> %s <==\n", pg->input);
        int bad = write_answer(f, res, m->format, m->metadata);
        if (fclose(f) != 0 || bad) {
            free(s);
            return NULL;
        }
        rc = (int)n;
    } else {
        rc = asprintf(&s, "%s", ""); /* text and html: nothing without content */
    }
    if (rc < 0)
        return NULL;
    *len = (size_t)rc;
    return s;
}

static void many_work(void *arg, glance_context *gc, void *item)
{
    many *m = arg;
    page_job *job = item;
    const page_in *pg = &m->pages[job->index];
    glance_result *res = NULL;
    char why[1024];
    job->st = cli_extract_input(gc, pg->input, m->opt, &res, why, sizeof why);
    for (int i = 0; res && i < glance_result_stylesheet_count(res); i++) {
        const char *err, *url = glance_result_stylesheet(res, i, &err);
        if (err)
            note(job, "glance: warning: %s: stylesheet %s skipped: %s", pg->input, url, err);
    }
    if (job->st != GLANCE_OK)
        note(job, "glance: %s: %s", strcmp(pg->input, "-") ? pg->input : "stdin", why);
    job->code = cli_exit_for(job->st);
    char *out = format_page(m, pg, res, job->st, &job->out_len);
    if (!out) {
        note(job, "glance: %s: out of memory", pg->input);
        job->code = EXIT_INTERNAL;
    } else if (m->out_dir && job->out_len > 0) {
        /* One file per page, written here: pages in parallel write in
         * parallel. */
        char *path = NULL;
        FILE *f = NULL;
        if (asprintf(&path, "%s/%s%s", m->out_dir, pg->name, format_ext(m->format)) < 0 ||
            make_parents(path) != 0 || !(f = fopen(path, "w")) ||
            fwrite(out, 1, job->out_len, f) != job->out_len || fclose(f) != 0) {
            note(job, "glance: %s: cannot write %s: %s", pg->input, path ? path : pg->name,
                 strerror(errno));
            job->code = EXIT_INTERNAL;
            if (f && path)
                remove(path);
        }
        free(path);
        free(out);
        out = NULL;
        job->out_len = 0;
    }
    job->out = out;
    glance_result_free(res);
}

/* Many pages in worker processes (the default): one per --jobs, forked by
 * a zygote started before the stream's threads and reused page to page;
 * a page past its budget is killed with its worker and reported, and the
 * next page gets a fresh worker. The worker runs many_work itself (so an
 * --output-dir file is written there) and sends back the status, the exit
 * status, the output and the notes. */
static int many_worker(void *arg, int fd)
{
    many *m = arg;
    glance_context *ctx = glance_context_new();
    for (;;) {
        char **f;
        size_t *l;
        int n;
        if (base_proc_recv(fd, 0, &f, &l, &n) != 1)
            break;
        page_job job;
        memset(&job, 0, sizeof job);
        job.index = n == 1 ? (size_t)strtoull(f[0], NULL, 10) : m->n;
        base_proc_fields_free(f, l, n);
        if (job.index >= m->n) {
            job.st = GLANCE_EOPTION;
            job.code = EXIT_INTERNAL;
            note(&job, "glance: a bad request reached the worker");
        } else if (!ctx) {
            job.st = GLANCE_EFONTS;
            job.code = EXIT_INTERNAL;
            note(&job, "glance: cannot set up fonts (is fontconfig configured and a font installed?)");
        } else {
            many_work(m, ctx, &job);
        }
        char head[64];
        snprintf(head, sizeof head, "%d %d", (int)job.st, job.code);
        const char *notes = job.notes ? job.notes : "";
        base_proc_field out[3] = {{head, strlen(head)}, {job.out ? job.out : "", job.out ? job.out_len : 0},
                                {notes, strlen(notes)}};
        int bad = base_proc_send(fd, out, 3);
        free(job.out);
        free(job.notes);
        if (bad)
            break;
        isolate_trim();
    }
    glance_context_free(ctx);
    return 0;
}

static void many_work_isolated(void *arg, glance_context *gc, void *item)
{
    (void)gc;
    many *m = arg;
    page_job *job = item;
    const page_in *pg = &m->pages[job->index];
    int url = cli_looks_like_url(pg->input);
    double limit = cli_page_limit_ms(m->opt, url);
    char num[32], **f = NULL;
    size_t *l = NULL;
    int n = 0, status = -1, st, code;
    snprintf(num, sizeof num, "%zu", job->index);
    base_proc_field q = {num, strlen(num)};
    int r = isolate_pool_call(m->pool, &q, 1, limit > 0 ? base_now_ms() + limit : 0, &f, &l, &n,
                              &status);
    if (r == 1 && n == 3 && sscanf(f[0], "%d %d", &st, &code) == 2) {
        job->st = (glance_status)st;
        job->code = code;
        if (l[1]) {
            job->out = f[1];
            job->out_len = l[1];
            f[1] = NULL;
        }
        if (l[2]) {
            job->notes = f[2];
            f[2] = NULL;
        }
    } else {
        char why[300];
        cli_worker_failed(why, sizeof why, r == 0, status, m->opt, url);
        job->st = r == 0 ? GLANCE_ECOSTLY : GLANCE_ENOMEM;
        job->code = cli_exit_for(job->st);
        note(job, "glance: %s: %s", strcmp(pg->input, "-") ? pg->input : "stdin", why);
    }
    base_proc_fields_free(f, l, n);
}

static void many_drop(void *arg, void *item)
{
    page_job *job = item;
    free(job->out);
    free(job->notes);
    free(job);
}

static int many_write(void *arg, void *item)
{
    many *m = arg;
    page_job *job = item;
    int rc = 0;
    if (job->notes)
        progress_note(&m->prog, job->notes);
    if (job->out && job->out_len) {
        /* Between two pages' texts, an empty line, as head(1) leaves. */
        if (strcmp(m->format, "json") != 0 && m->written > 0 && fputc('\n', m->out) == EOF)
            rc = -1;
        if (fwrite(job->out, 1, job->out_len, m->out) != job->out_len)
            rc = -1;
        m->written++;
    }
    if (rc != 0)
        job->code = EXIT_INTERNAL;
    if (job->st == GLANCE_OK && job->code == EXIT_CONTENT)
        m->content++;
    else if (job->st == GLANCE_ENOCONTENT && job->code == EXIT_NOCONTENT)
        m->nocontent++;
    else
        m->failed++;
    if (job->code > m->worst)
        m->worst = job->code;
    progress_step(&m->prog, 1);
    many_drop(arg, item);
    return rc;
}

/* Many pages: `inputs` as given, then the pages of `in_dir`. */
static int extract_many(const glance_options *opt, const char *format, int metadata, char **inputs,
                        int n_inputs, const char *in_dir, const char *out_dir, const char *out_path,
                        int jobs, int in_process)
{
    corpus_page *dir_pages = NULL;
    size_t n_dir = 0;
    char why[512];
    int code = EXIT_INTERNAL;
    if (in_dir && corpus_list(in_dir, &dir_pages, &n_dir, why, sizeof why) != 0) {
        fprintf(stderr, "glance extract: --input-dir %s\n", why);
        return EXIT_BADINPUT;
    }
    int stdin_seen = 0;
    for (int i = 0; i < n_inputs; i++)
        if (strcmp(inputs[i], "-") == 0 && stdin_seen++) {
            fprintf(stderr, "glance extract: - (standard input) given twice\n");
            corpus_free(dir_pages, n_dir);
            return EXIT_USAGE;
        }
    many m = {.opt = opt, .format = format, .metadata = metadata, .out_dir = out_dir};
    m.n = (size_t)n_inputs + n_dir;
    m.pages = calloc(m.n ? m.n : 1, sizeof *m.pages);
    if (!m.pages)
        goto out;
    for (int i = 0; i < n_inputs; i++) {
        m.pages[i].input = inputs[i];
        if (!(m.pages[i].name = name_of_input(inputs[i])))
            goto out;
    }
    for (size_t i = 0; i < n_dir; i++) {
        page_in *pg = &m.pages[(size_t)n_inputs + i];
        pg->input = dir_pages[i].path;
        if (!(pg->name = strdup(dir_pages[i].id)))
            goto out;
    }
    if (out_dir && names_collide(m.pages, m.n, out_dir, format_ext(format))) {
        code = EXIT_USAGE;
        goto out;
    }
    if (out_dir && mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "glance extract: cannot make %s: %s\n", out_dir, strerror(errno));
        goto out;
    }
    m.out = stdout;
    if (!out_dir && out_path && !(m.out = fopen(out_path, "w"))) {
        fprintf(stderr, "glance extract: cannot write %s: %s\n", out_path, strerror(errno));
        goto out;
    }
    progress_init(&m.prog, "extract", m.n);
    /* The workers' zygote forked here, before the stream's threads. */
    if (!in_process && !(m.pool = isolate_pool_start(many_worker, &m, cli_max_memory(opt), jobs))) {
        fprintf(stderr, "glance extract: cannot start the worker processes\n");
        goto out;
    }
    stream_ops ops = {many_read, m.pool ? many_work_isolated : many_work, many_write, many_drop};
    stream_result sr;
    int rc = stream_run(&ops, &m, jobs, 0, &sr);
    isolate_pool_stop(m.pool);
    m.pool = NULL;
    progress_end(&m.prog);
    if (rc != 0) {
        fprintf(stderr, "glance: cannot set up fonts (is fontconfig configured and a font installed?)\n");
    } else if (sr.stopped) {
        fprintf(stderr, "glance extract: cannot write output: %s\n", strerror(errno));
    } else {
        code = m.worst;
        fprintf(stderr, "glance extract: %zu pages: %zu with content, %zu without main content, %zu failed\n",
                m.n, m.content, m.nocontent, m.failed);
    }
    if (m.out && m.out != stdout && fclose(m.out) != 0 && code < EXIT_INTERNAL) {
        fprintf(stderr, "glance extract: cannot write %s: %s\n", out_path, strerror(errno));
        code = EXIT_INTERNAL;
    } else if (m.out == stdout && fflush(stdout) != 0 && code < EXIT_INTERNAL) {
        fprintf(stderr, "glance: cannot write output: %s\n", strerror(errno));
        code = EXIT_INTERNAL;
    }
out:
    for (size_t i = 0; m.pages && i < m.n; i++)
        free(m.pages[i].name);
    free(m.pages);
    corpus_free(dir_pages, n_dir);
    return code;
}

/* One page, in-process or in a worker process (isolate_run): its exit
 * status. */
typedef struct one_page {
    const glance_options *opt;
    const char *path, *format;
    int metadata;
    FILE *out;
    shot_cli *shot;
    glance_geometry *geo;
    size_t max_memory; /* the worker process's address space; 0: in-process */
    int snapshot;      /* path is a snapshot (--snapshot) */
    const char *save_snapshot; /* --save-snapshot FILE */
} one_page;

static int extract_one(void *arg)
{
    const one_page *pg = arg;
    const glance_options *opt = pg->opt;
    const char *path = pg->path, *format = pg->format;
    int metadata = pg->metadata, code;
    FILE *out = pg->out;
    glance_context *ctx = glance_context_new();
    if (!ctx) {
        fprintf(stderr, "glance: cannot set up fonts (is fontconfig configured and a font installed?)\n");
        return EXIT_INTERNAL;
    }
    glance_result *res = NULL;
    glance_status st = cli_load(ctx, path, opt, &res, pg->snapshot);
    if (st == GLANCE_ENOMEM && pg->max_memory)
        fprintf(stderr, "glance: page too costly: over the memory limit of %zu MB (max_memory) of "
                        "its worker process\n",
                pg->max_memory >> 20);
    if (st == GLANCE_OK || st == GLANCE_ENOCONTENT) {
        if (strcmp(format, "json") == 0) {
            /* The reasoning is worth printing when nothing was found, too. */
            const char *j = glance_result_json(res);
            if (j)
                fprintf(out, "%s\n", j);
        } else if (st == GLANCE_OK && write_answer(out, res, format, metadata) != 0) {
            fprintf(stderr, "glance: out of memory\n");
            st = GLANCE_ENOMEM;
        }
    }
    code = cli_exit_for(st);
    if (res && pg->save_snapshot) {
        size_t slen = 0;
        const char *snap = glance_result_snapshot(res, &slen);
        FILE *sf = snap ? fopen(pg->save_snapshot, "w") : NULL;
        if (!snap) {
            fprintf(stderr, "glance: no snapshot to save: the browser did not lay the page out "
                            "(--engine chromium)\n");
        } else if (!sf || fwrite(snap, 1, slen, sf) != slen || fclose(sf) != 0) {
            fprintf(stderr, "glance: cannot write %s: %s\n", pg->save_snapshot, strerror(errno));
            if (code == EXIT_CONTENT)
                code = EXIT_INTERNAL;
        }
    }
    if (res && (st == GLANCE_OK || st == GLANCE_ENOCONTENT)) {
        int sc = shot_cli_write(pg->shot, ctx, res);
        if (sc)
            code = sc;
    }
    if (fflush(out) != 0 && code == EXIT_CONTENT) {
        fprintf(stderr, "glance: cannot write output: %s\n", strerror(errno));
        code = EXIT_INTERNAL;
    }
    glance_result_free(res);
    glance_context_free(ctx);
    return code;
}

int cmd_extract(int argc, char **argv)
{
    glance_options *opt = glance_options_new();
    if (!opt) {
        fprintf(stderr, "glance extract: out of memory\n");
        return EXIT_INTERNAL;
    }
    const char *format = "text", *geometry_path = NULL, *out_path = NULL, *in_dir = NULL,
               *out_dir = NULL, *save_snapshot = NULL;
    int window_given = 0, metadata = 0, code = EXIT_USAGE, jobs = 1, n_inputs = 0, in_process = 0,
        snapshot = 0;
    char **inputs = calloc((size_t)argc, sizeof *inputs);
    FILE *out = stdout;
    shot_cli shot;
    shot_cli_init(&shot);
    if (!inputs) {
        code = EXIT_INTERNAL;
        goto done;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int taken = shot_cli_option(&shot, argc, argv, &i);
        if (taken < 0)
            goto done;
        if (taken)
            continue;
        if (cli_is_version(a)) {
            code = cli_version();
            goto done;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage_extract(stdout);
            code = EXIT_CONTENT;
            goto done;
        }
        if (strcmp(a, "--metadata") == 0) {
            metadata = 1;
            continue;
        }
        if (strcmp(a, "--in-process") == 0) {
            in_process = 1;
            continue;
        }
        if (strncmp(a, "--format=", 9) == 0) {
            format = a + 9;
            continue;
        }
        if (strcmp(a, "--format") == 0 || strcmp(a, "--geometry") == 0 || strcmp(a, "-o") == 0 ||
            strcmp(a, "--input-dir") == 0 || strcmp(a, "--output-dir") == 0 ||
            strcmp(a, "--jobs") == 0 || strcmp(a, "--snapshot") == 0 ||
            strcmp(a, "--save-snapshot") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "glance extract: %s needs a value\n", a);
                goto done;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--format") == 0)
                format = v;
            else if (strcmp(a, "--geometry") == 0)
                geometry_path = v;
            else if (strcmp(a, "--save-snapshot") == 0) {
                save_snapshot = v;
                if (glance_options_set(opt, "keep_snapshot", "on") != GLANCE_OK)
                    goto done;
            } else if (strcmp(a, "--snapshot") == 0) {
                snapshot = 1;
                inputs[n_inputs++] = (char *)v;
            }
            else if (strcmp(a, "-o") == 0)
                out_path = v;
            else if (strcmp(a, "--input-dir") == 0)
                in_dir = v;
            else if (strcmp(a, "--output-dir") == 0)
                out_dir = v;
            else if ((jobs = atoi(v)) < 1 || jobs > 256) {
                fprintf(stderr, "glance extract: bad value '%s' for --jobs (1 to 256)\n", v);
                goto done;
            }
            continue;
        }
        if (strncmp(a, "--window", 8) == 0)
            window_given = 1;
        int r = cli_option("extract", opt, argc, argv, &i);
        if (r < 0)
            goto done;
        if (r > 0)
            continue;
        if (a[0] == '-' && a[1] != '\0') {
            cli_bad_flag("extract", a);
            goto done;
        }
        inputs[n_inputs++] = argv[i];
    }
    if (strcmp(format, "text") && strcmp(format, "html") && strcmp(format, "json") &&
        strcmp(format, "markdown") && strcmp(format, "md")) {
        fprintf(stderr, "glance extract: bad value for --format: '%s' (text, markdown, html or json)\n",
                format);
        goto done;
    }
    if (n_inputs == 0 && !in_dir) {
        fprintf(stderr, "glance extract: give a FILE or URL (or - for standard input), or --input-dir DIR\n");
        goto done;
    }
    if (out_path && out_dir) {
        fprintf(stderr, "glance extract: -o and --output-dir: one or the other\n");
        goto done;
    }
    if (n_inputs != 1 || in_dir || out_dir) {
        /* Many pages (or one, written into a folder). */
        if (shot.out || geometry_path || snapshot || save_snapshot) {
            fprintf(stderr, "glance extract: %s is for one page\n",
                    shot.out ? "--shot" : geometry_path ? "--geometry" : snapshot ? "--snapshot"
                                                                                   : "--save-snapshot");
            goto done;
        }
        code = extract_many(opt, format, metadata, inputs, n_inputs, in_dir, out_dir, out_path, jobs,
                            in_process);
        goto done;
    }
    const char *path = inputs[0];
    if (out_path && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "glance extract: cannot write %s: %s\n", out_path, strerror(errno));
        code = EXIT_INTERNAL;
        goto done;
    }
    if (shot.out && strcmp(shot.out, "-") == 0) {
        fprintf(stderr, "glance extract: --shot - would mix the PNG with the output (glance shot -o - "
                        "writes it alone)\n");
        goto done;
    }
    if (shot.out && glance_options_set(opt, "screenshot", "on") != GLANCE_OK) {
        code = EXIT_INTERNAL;
        goto done;
    }
    glance_geometry *geo = NULL;
    if (geometry_path && (code = cli_load_geometry(geometry_path, opt, window_given, &geo)) != 0)
        goto done;

    one_page one = {opt, path, format, metadata, out, &shot, geo, in_process ? 0 : cli_max_memory(opt),
                    snapshot, save_snapshot};
    if (in_process) {
        code = extract_one(&one);
    } else {
        /* The page in a child process, killed past its budget: litehtml
         * cannot be interrupted inside a call, a process can. */
        int url = cli_looks_like_url(path), status = 0;
        double limit = cli_page_limit_ms(opt, url);
        int r = isolate_run(extract_one, &one, cli_max_memory(opt),
                            limit > 0 ? base_now_ms() + limit : 0, &status);
        if (r == 1 && WIFEXITED(status)) {
            code = WEXITSTATUS(status);
        } else if (r == 1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE) {
            /* The reader of the output went away (| head): end as the
             * worker did, as an in-process run would, without a word. */
            signal(SIGPIPE, SIG_DFL);
            raise(SIGPIPE);
            code = EXIT_INTERNAL;
        } else if (r < 0) {
            fprintf(stderr, "glance: cannot fork a worker process: %s\n", strerror(errno));
            code = EXIT_INTERNAL;
        } else {
            char why[300];
            cli_worker_failed(why, sizeof why, r == 0, status, opt, url);
            fprintf(stderr, "glance: %s\n", why);
            code = cli_exit_for(r == 0 ? GLANCE_ECOSTLY : GLANCE_ENOMEM);
        }
    }
    glance_geometry_free(geo);
    shot_cli_done(&shot);
done:
    if (out != stdout && fclose(out) != 0 && code == EXIT_CONTENT) {
        fprintf(stderr, "glance extract: cannot write %s: %s\n", out_path, strerror(errno));
        code = EXIT_INTERNAL;
    }
    free(inputs);
    glance_options_free(opt);
    return code;
}
