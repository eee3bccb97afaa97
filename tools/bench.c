/* tools/: glance bench, accuracy and speed over a corpus, and the scoring of
 * other extractors' output files on the same measures. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <json-c/json.h>

#include "eval/eval.h"
#include "base/clock.h"
#include "glance.h"
#include "tools/cli.h"
#include "tools/corpus.h"
#include "tools/fidelity.h"
#include "tools/isolate.h"
#include "tools/options.h"
#include "tools/pool.h"
#include "tools/progress.h"
#include "tools/scores.h"

static void usage_bench(FILE *f)
{
    fputs("usage: glance bench --pages DIR --truth TRUTH.json [options]\n"
          "       glance bench --score OUTPUT.json --truth TRUTH.json\n"
          "\n"
          "Extracts every page of DIR and of its subfolders (.html or .html.gz; the\n"
          "id is the path below DIR without it, sphinx/pkg/page; the stylesheets\n"
          "in the page's own folder and below apply) and scores the texts\n"
          "against TRUTH.json ({id: {\"articleBody\"}}): the article-extraction\n"
          "benchmark's shingle precision, recall, F1 and accuracy, the same with\n"
          "tokens that read every script (a token per Han, Kana, Hangul, Thai, Lao,\n"
          "Khmer, Myanmar letter; words keep their combining marks), and the GCE\n"
          "paper's token LCS and matched text blocks; the snippets' precision,\n"
          "recall and F when the truth has \"with\" and \"without\" lists; a table\n"
          "per \"type\" and per \"group\" when it has those. Prints the time per page\n"
          "from its bytes in memory, without reading and decompressing the file\n"
          "(parse, layout, extraction: median, 90th and 99th percentiles; parse in\n"
          "its parts: glance's CSS filter and page rewrite, litehtml's HTML parse\n"
          "and elements, its style resolution; of layout, the tree built), pages\n"
          "per second (reading included) and the peak memory. With --score, scores\n"
          "an output file of the same shape (optionally wrapped as {\"version\",\n"
          "\"output\"}) instead.\n"
          "\n"
          "options:\n"
          "  --method NAME    what answers (default auto; glance extract --help)\n"
          "  --window WxH     window size (default 1920x1080)\n"
          "  --KEY VALUE      any option of glance extract (--no-flex-grid, --gce.alpha 2.5,\n"
          "                   --set danag.gap=10, ...)\n"
          "  --jobs N         pages in parallel, one document each (default 1)\n"
          "  --in-process     extract in this process, not in --jobs worker processes\n"
          "                   (the default: forked once, reused from page to page, a page\n"
          "                   past time_budget and a second killed with its worker and\n"
          "                   counted an error, max_memory each worker's address space).\n"
          "                   In-process the budget is checked between stages only and\n"
          "                   cannot stop litehtml inside one. --fidelity is in-process\n"
          "  --out FILE       write every page's text, status, timings and scores,\n"
          "                   as a file --score reads back\n"
          "  --boxes-dir DIR  a browser's boxes of each page, DIR/ID.json\n"
          "                   (tools/chromium-boxes.mjs): only the pages that have\n"
          "                   them run, on those boxes instead of litehtml's\n"
          "  --fidelity       with --boxes-dir: run on litehtml's boxes and measure\n"
          "                   how far they are from the browser's (elements of 50+\n"
          "                   characters whose left edge and width are within 5% of\n"
          "                   the window), whether GCE chooses the same node on both,\n"
          "                   and the scores on the browser's boxes\n",
          f);
}

typedef struct page_out {
    glance_status status;
    char *text;      /* the extracted text; NULL when none */
    const char *method; /* the extractor that answered (static string) */
    char *message;   /* why not, when not */
    double parse_ms, layout_ms, extract_ms, total_ms;
    double css_ms, html_ms, style_ms, tree_ms; /* parse's parts; layout's tree */
    double start_ms, load_ms, snapshot_ms;     /* the browser's (engine chromium) */
    int scored;
    scores_page sc;
    fidelity_page fid;  /* --fidelity */
    int scored2;        /* ... and the scores on the browser's boxes */
    scores_page sc2;
} page_out;

typedef struct bench_run {
    const corpus_page *pages;
    size_t n;
    json_object *truth;
    const glance_options *opt;
    size_t max_bytes;      /* a page's, as the options' max_input_bytes */
    const char *boxes_dir; /* --boxes-dir; NULL: litehtml's boxes only */
    int fidelity;
    int page_dirs;         /* each page's folder its base_dir (none was given) */
    page_out *out;
    struct bench_iso *iso; /* the worker processes; NULL: in-process */
} bench_run;

/* The options a page runs with: the run's, with the page's own folder as
 * base_dir (a saved page's local stylesheets apply as `glance extract FILE`
 * applies them: relative <link rel=stylesheet> hrefs and @imports resolve
 * against the folder of the page file, .html or .html.gz alike, and a page
 * in a subfolder has its own) and, when it runs on a browser's, the page's
 * boxes. NULL with *oom 0 when the run's options serve as they are. */
static glance_options *page_options(const bench_run *run, const corpus_page *pg,
                                    glance_geometry *geo, int *oom)
{
    *oom = 0;
    if (!run->page_dirs && !geo)
        return NULL;
    glance_options *opt = glance_options_copy(run->opt);
    char *dir = run->page_dirs ? corpus_page_dir(pg) : NULL;
    if (!opt || (run->page_dirs && (!dir || glance_options_set(opt, "base_dir", dir) != GLANCE_OK))) {
        glance_options_free(opt);
        free(dir);
        *oom = 1;
        return NULL;
    }
    free(dir);
    if (geo)
        glance_options_set_geometry(opt, geo);
    return opt;
}

/* One page read and extracted into `o` (not scored). In-process, or in a
 * worker process (bench_worker). */
static void bench_extract(const bench_run *run, glance_context *ctx, size_t i, page_out *o)
{
    const corpus_page *pg = &run->pages[i];
    char why[512], *html = NULL;
    size_t len = 0;
    double t0 = 0;
    if (corpus_read(pg, run->max_bytes, &html, &len, why, sizeof why) != 0) {
        o->status = GLANCE_EIO;
        o->message = strdup(why);
    } else {
        /* The page's time starts from its bytes in memory, as the parse
         * floor's does (../shared/tools/gumbo-floor.c): reading and
         * decompressing the file are the corpus's cost, not glance's, and
         * were counted as extraction before. Pages per second still pay
         * for them. */
        t0 = base_now_ms();
        glance_result *res = NULL;
        glance_geometry *geo = NULL;
        if (run->boxes_dir &&
            fidelity_read_boxes(run->boxes_dir, pg->id, &geo, why, sizeof why) != GLANCE_OK)
            o->fid.error = strdup(why);
        int oom;
        glance_options *opt = page_options(run, pg, run->fidelity ? NULL : geo, &oom);
        if (run->boxes_dir && !geo && !run->fidelity)
            o->status = GLANCE_EIO; /* no boxes to run on: an error, not litehtml's */
        else if (oom)
            o->status = GLANCE_ENOMEM;
        else
            o->status = glance_extract(ctx, html, len, opt ? opt : run->opt, &res);
        double wall = base_now_ms() - t0;
        if (!res && o->status == GLANCE_EIO) {
            o->message = strdup(o->fid.error ? o->fid.error : "no boxes");
        } else if (!res) {
            o->status = GLANCE_ENOMEM;
        } else {
            glance_timings t = glance_result_timings(res);
            o->parse_ms = t.parse_ms;
            o->layout_ms = t.layout_ms;
            o->css_ms = t.css_ms;
            o->html_ms = t.html_ms;
            o->style_ms = t.style_ms;
            o->tree_ms = t.tree_ms;
            o->start_ms = t.browser_start_ms;
            o->load_ms = t.load_ms;
            o->snapshot_ms = t.snapshot_ms;
            o->total_ms = wall;
            o->extract_ms = wall - t.parse_ms - t.layout_ms;
            if (o->extract_ms < 0)
                o->extract_ms = 0;
            if (o->status == GLANCE_OK) {
                o->text = strdup(glance_result_text(res));
                o->method = glance_result_method(res);
            } else {
                o->message = strdup(glance_result_message(res, o->status));
            }
            /* After the bench took its answer: measuring may run GCE again. */
            if (geo && run->fidelity && (o->status == GLANCE_OK || o->status == GLANCE_ENOCONTENT) &&
                fidelity_measure(ctx, html, len, opt ? opt : run->opt, res, geo, &o->fid) != 0 &&
                !o->fid.error)
                o->fid.error = strdup("out of memory");
            glance_result_free(res);
        }
        glance_options_free(opt);
        glance_geometry_free(geo);
        free(html);
    }
}

/* Page `i`'s outcome scored against the truth. */
static void bench_score(bench_run *run, size_t i)
{
    const corpus_page *pg = &run->pages[i];
    page_out *o = &run->out[i];
    const char *truth = corpus_text(run->truth, pg->id);
    if (truth)
        o->scored = scores_page_run(run->truth, pg->id, truth, o->text, &o->sc) == 0;
    if (truth && o->fid.done)
        o->scored2 =
            scores_page_run(run->truth, pg->id, truth, o->fid.browser_text, &o->sc2) == 0;
}

/* One page in this process: read, extract, score (pool_page_fn; never
 * stops the run). */
static int bench_page(void *arg, glance_context *ctx, size_t i)
{
    bench_run *run = arg;
    bench_extract(run, ctx, i, &run->out[i]);
    bench_score(run, i);
    return 0;
}

/* ---- pages in worker processes ------------------------------------------
 *
 * By default each page is extracted in a worker process (tools/isolate.h),
 * one per --jobs, forked once by a zygote started before the pool's threads
 * and reused from page to page: a page past time_budget and a second is
 * killed with its worker (litehtml cannot be interrupted inside a call, a
 * process can), counted as an error (costly), and a fresh worker forked for
 * the next page; max_memory is each worker's address space. The worker
 * sends back the status, the timings, the text, the method and the
 * message; the scores are computed here. */

typedef struct bench_iso {
    isolate_pool *pool;
    double limit_ms; /* 0: none */
} bench_iso;

/* In the worker process: page indexes in, outcomes out. */
static int bench_worker(void *arg, int fd)
{
    const bench_run *run = arg;
    glance_context *ctx = glance_context_new();
    for (;;) {
        char **f;
        size_t *l;
        int n;
        if (base_proc_recv(fd, 0, &f, &l, &n) != 1)
            break;
        size_t i = n == 1 ? (size_t)strtoull(f[0], NULL, 10) : run->n;
        base_proc_fields_free(f, l, n);
        page_out o;
        memset(&o, 0, sizeof o);
        if (i >= run->n) {
            o.status = GLANCE_EOPTION;
            o.message = strdup("a bad request reached the worker");
        } else if (!ctx) {
            o.status = GLANCE_EFONTS;
            o.message = strdup("cannot set up fonts");
        } else {
            bench_extract(run, ctx, i, &o);
        }
        char head[512];
        snprintf(head, sizeof head,
                 "%d %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g",
                 (int)o.status, o.text != NULL, o.parse_ms, o.layout_ms, o.extract_ms, o.total_ms,
                 o.css_ms, o.html_ms, o.style_ms, o.tree_ms, o.start_ms, o.load_ms, o.snapshot_ms);
        const char *m = o.method ? o.method : "", *t = o.text ? o.text : "",
                   *msg = o.message ? o.message : "";
        base_proc_field out[4] = {{head, strlen(head)}, {t, strlen(t)}, {m, strlen(m)},
                                {msg, strlen(msg)}};
        int bad = base_proc_send(fd, out, 4);
        free(o.text);
        free(o.message);
        if (bad)
            break;
        isolate_trim();
    }
    glance_context_free(ctx);
    return 0;
}

/* The method's static name, as glance_result_method gives it. */
static const char *method_named(const char *name)
{
    for (int m = 0; glance_method_name(m); m++)
        if (strcmp(glance_method_name(m), name) == 0)
            return glance_method_name(m);
    return NULL;
}

/* One page on a worker process (pool_page_fn; never stops the run). */
static int bench_page_isolated(void *arg, glance_context *ctx, size_t i)
{
    (void)ctx;
    bench_run *run = arg;
    page_out *o = &run->out[i];
    double t0 = base_now_ms();
    char **f = NULL, num[32];
    size_t *l = NULL;
    int n = 0, status = -1;
    snprintf(num, sizeof num, "%zu", i);
    base_proc_field q = {num, strlen(num)};
    int r = isolate_pool_call(run->iso->pool, &q, 1,
                              run->iso->limit_ms > 0 ? t0 + run->iso->limit_ms : 0, &f, &l, &n,
                              &status);
    int st, has_text;
    if (r == 1 && n == 4 &&
        sscanf(f[0], "%d %d %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &st, &has_text,
               &o->parse_ms, &o->layout_ms, &o->extract_ms, &o->total_ms, &o->css_ms, &o->html_ms,
               &o->style_ms, &o->tree_ms, &o->start_ms, &o->load_ms, &o->snapshot_ms) == 13) {
        o->status = (glance_status)st;
        if (has_text) {
            o->text = f[1];
            f[1] = NULL;
        }
        o->method = l[2] ? method_named(f[2]) : NULL;
        if (l[3])
            o->message = strdup(f[3]);
    } else {
        char why[300];
        cli_worker_failed(why, sizeof why, r == 0, status, run->opt, 0);
        o->status = r == 0 ? GLANCE_ECOSTLY : GLANCE_ENOMEM;
        o->message = strdup(why);
        o->total_ms = base_now_ms() - t0;
    }
    base_proc_fields_free(f, l, n);
    bench_score(run, i);
    return 0;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median (p = 0.5; the middle two's mean for an even n), 90th and 99th
 * percentiles ... of n values, nearest rank: the value at rank ceil(p n). */
static double percentile(double *v, size_t n, double p)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, dbl_cmp);
    if (p == 0.5)
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    size_t k = (size_t)ceil(p * (double)n);
    return v[k ? k - 1 : 0];
}

/* glance bench --score: another extractor's output file on our measures,
 * page by page over the truth's ids, as the benchmark walks them. */
static int score_file(const char *out_path, const char *truth_path)
{
    char why[512];
    json_object *troot, *oroot;
    json_object *truth = corpus_load_texts(truth_path, &troot, why, sizeof why);
    if (!truth) {
        fprintf(stderr, "glance bench: %s\n", why);
        return EXIT_BADINPUT;
    }
    json_object *output = corpus_load_texts(out_path, &oroot, why, sizeof why);
    if (!output) {
        fprintf(stderr, "glance bench: %s\n", why);
        json_object_put(troot);
        return EXIT_BADINPUT;
    }
    scores_run sr;
    scores_run_init(&sr);
    size_t missing = 0;
    int rc = 0;
    json_object_object_foreach(truth, id, val)
    {
        (void)val;
        const char *t = corpus_text(truth, id), *p = corpus_text(output, id);
        missing += p == NULL;
        scores_page sc;
        if (scores_page_run(truth, id, t ? t : "", p, &sc) != 0 ||
            scores_run_add(&sr, truth, id, &sc) != 0) {
            fprintf(stderr, "glance bench: out of memory\n");
            rc = EXIT_INTERNAL;
            break;
        }
    }
    if (rc == 0) {
        printf("%s: %zu pages (%zu without output, scored as empty)\n", out_path, sr.all.pages,
               missing);
        scores_run_print(stdout, &sr);
    }
    scores_run_free(&sr);
    json_object_put(troot);
    json_object_put(oroot);
    return rc;
}

static int write_out(const char *path, const bench_run *run, scores_run *sr,
                     const char *method)
{
    json_object *root = json_object_new_object(), *output = json_object_new_object(),
                *pages = json_object_new_object();
    char version[64];
    snprintf(version, sizeof version, "glance %s %s", GLANCE_VERSION, method);
    json_object_object_add(root, "version", json_object_new_string(version));
    for (size_t i = 0; i < run->n; i++) {
        const page_out *o = &run->out[i];
        json_object *body = json_object_new_object(), *pg = json_object_new_object();
        json_object_object_add(body, "articleBody", json_object_new_string(o->text ? o->text : ""));
        json_object_object_add(output, run->pages[i].id, body);
        json_object_object_add(pg, "status", json_object_new_string(glance_strerror(o->status)));
        if (o->method)
            json_object_object_add(pg, "method", json_object_new_string(o->method));
        if (o->message)
            json_object_object_add(pg, "message", json_object_new_string(o->message));
        json_object *ms = json_object_new_object();
        json_object_object_add(ms, "parse", json_object_new_double(o->parse_ms));
        json_object_object_add(ms, "layout", json_object_new_double(o->layout_ms));
        json_object_object_add(ms, "extract", json_object_new_double(o->extract_ms));
        json_object_object_add(ms, "total", json_object_new_double(o->total_ms));
        json_object_object_add(ms, "css", json_object_new_double(o->css_ms));
        json_object_object_add(ms, "html", json_object_new_double(o->html_ms));
        json_object_object_add(ms, "styles", json_object_new_double(o->style_ms));
        json_object_object_add(ms, "tree", json_object_new_double(o->tree_ms));
        json_object_object_add(pg, "ms", ms);
        if (o->scored) {
            const scores_page *p = &o->sc;
            json_object *sc = json_object_new_object();
            json_object_object_add(sc, "tp", json_object_new_double(p->sh.tp));
            json_object_object_add(sc, "fp", json_object_new_double(p->sh.fp));
            json_object_object_add(sc, "fn", json_object_new_double(p->sh.fn));
            json_object_object_add(sc, "scripts_tp", json_object_new_double(p->scripts.tp));
            json_object_object_add(sc, "scripts_fp", json_object_new_double(p->scripts.fp));
            json_object_object_add(sc, "scripts_fn", json_object_new_double(p->scripts.fn));
            json_object_object_add(sc, "lcs_f05", json_object_new_double(p->lcs.f05));
            json_object_object_add(sc, "blocks_f05", json_object_new_double(p->blk.f05));
            if (p->has_snippets) {
                json_object *sn = json_object_new_object();
                json_object_object_add(sn, "tp", json_object_new_int64((int64_t)p->snip.tp));
                json_object_object_add(sn, "fn", json_object_new_int64((int64_t)p->snip.fn));
                json_object_object_add(sn, "fp", json_object_new_int64((int64_t)p->snip.fp));
                json_object_object_add(sn, "tn", json_object_new_int64((int64_t)p->snip.tn));
                json_object_object_add(sc, "snippets", sn);
            }
            json_object_object_add(pg, "scores", sc);
        }
        if (o->fid.done) {
            const fidelity_page *fp = &o->fid;
            json_object *fo = json_object_new_object();
            json_object_object_add(fo, "compared", json_object_new_int64((int64_t)fp->compared));
            json_object_object_add(fo, "agree", json_object_new_int64((int64_t)fp->agree));
            json_object_object_add(fo, "unmatched", json_object_new_int64((int64_t)fp->unmatched));
            json_object_object_add(fo, "gce_litehtml", fp->gce_litehtml ? json_object_new_string(fp->gce_litehtml) : NULL);
            json_object_object_add(fo, "gce_browser", fp->gce_browser ? json_object_new_string(fp->gce_browser) : NULL);
            if (o->scored2) {
                json_object *sc = json_object_new_object();
                json_object_object_add(sc, "tp", json_object_new_double(o->sc2.sh.tp));
                json_object_object_add(sc, "fp", json_object_new_double(o->sc2.sh.fp));
                json_object_object_add(sc, "fn", json_object_new_double(o->sc2.sh.fn));
                json_object_object_add(fo, "browser_scores", sc);
            }
            json_object_object_add(pg, "fidelity", fo);
        }
        json_object_object_add(pages, run->pages[i].id, pg);
    }
    json_object_object_add(root, "summary", scores_run_json(sr));
    json_object_object_add(root, "output", output);
    json_object_object_add(root, "pages", pages);
    int rc = json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY);
    json_object_put(root);
    return rc;
}

static int run_bench(glance_options *opt, const char *method, const char *window,
                     const char *pages_dir, const char *truth_path, const char *out_path,
                     const char *score_path, const char *boxes_dir, int fidelity, int jobs,
                     int in_process);

int cmd_bench(int argc, char **argv)
{
    const char *pages_dir = NULL, *truth_path = NULL, *out_path = NULL, *score_path = NULL,
               *boxes_dir = NULL;
    int fidelity = 0, jobs = 1, code = EXIT_USAGE, in_process = 0;
    glance_options *opt = glance_options_new();
    /* Saved pages, scored as saved: no stylesheet from the web. */
    if (!opt || glance_options_set(opt, "offline", "on") != GLANCE_OK) {
        fprintf(stderr, "glance bench: out of memory\n");
        glance_options_free(opt);
        return EXIT_INTERNAL;
    }
    static const char *const valued[] = {"--pages", "--truth", "--jobs", "--out", "--score", "--boxes-dir"};
    const char **slots[] = {&pages_dir, &truth_path, NULL, &out_path, &score_path, &boxes_dir};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        size_t v = 0;
        while (v < sizeof valued / sizeof valued[0] && strcmp(a, valued[v]) != 0)
            v++;
        if (v < sizeof valued / sizeof valued[0]) {
            if (i + 1 >= argc) {
                fprintf(stderr, "glance bench: %s needs a value\n", a);
                goto out;
            }
            const char *val = argv[++i];
            double d;
            if (!slots[v] && (cli_parse_double(val, &d) || d < 1 || d > 256 || d != floor(d))) {
                fprintf(stderr, "glance bench: bad value '%s' for --jobs (1 to 256)\n", val);
                goto out;
            }
            if (slots[v])
                *slots[v] = val;
            else
                jobs = (int)d;
            continue;
        }
        if (strcmp(a, "--fidelity") == 0) {
            fidelity = 1;
            continue;
        }
        if (strcmp(a, "--in-process") == 0) {
            in_process = 1;
            continue;
        }
        if (cli_is_version(a)) {
            code = cli_version();
            goto out;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage_bench(stdout);
            code = 0;
            goto out;
        }
        int r = cli_option("bench", opt, argc, argv, &i);
        if (r < 0)
            goto out;
        if (r == 0) {
            cli_bad_flag("bench", a);
            goto out;
        }
    }
    if (!truth_path || (!pages_dir == !score_path)) {
        fprintf(stderr, "glance bench: give --truth and one of --pages or --score\n");
        usage_bench(stderr);
        goto out;
    }
    if ((fidelity && !boxes_dir) || (boxes_dir && score_path)) {
        fprintf(stderr, "glance bench: --fidelity needs --boxes-dir, and both need --pages\n");
        goto out;
    }
    char *method = glance_options_get(opt, "method"), *window = glance_options_get(opt, "window");
    if (!method || !window) {
        fprintf(stderr, "glance bench: out of memory\n");
        code = EXIT_INTERNAL;
    } else {
        code = run_bench(opt, method, window, pages_dir, truth_path, out_path, score_path,
                         boxes_dir, fidelity, jobs, in_process);
    }
    free(method);
    free(window);
out:
    glance_options_free(opt);
    return code;
}

/* Frees what the pages' outcomes hold, then the outcomes. */
static void outs_free(page_out *out, size_t n)
{
    for (size_t i = 0; out && i < n; i++) {
        free(out[i].text);
        free(out[i].message);
        fidelity_page_free(&out[i].fid);
    }
    free(out);
}

/* The bench itself, on parsed options. */
/* How many pages each method answered, in the order glance lists the
 * methods, those that answered none left out: "gce 2", "score 3" (auto
 * answers as the scorer, "score"); "none" when no page was answered. */
static void answered_by(const page_out *out, size_t n, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int m = 0; glance_method_name(m); m++) {
        const char *name = glance_method_name(m);
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            k += out[i].status == GLANCE_OK && out[i].method && strcmp(out[i].method, name) == 0;
        if (k && used < cap)
            used += (size_t)snprintf(buf + used, cap - used, "%s%s %zu", used ? ", " : "", name, k);
    }
    if (!buf[0])
        snprintf(buf, cap, "none");
}

static int run_bench(glance_options *opt, const char *method, const char *window,
                     const char *pages_dir, const char *truth_path, const char *out_path,
                     const char *score_path, const char *boxes_dir, int fidelity, int jobs,
                     int in_process)
{
    if (score_path)
        return score_file(score_path, truth_path);

    corpus corp;
    int started = corpus_start("bench", pages_dir, truth_path, &corp);
    if (started != 0)
        return started;
    size_t without_boxes = boxes_dir ? fidelity_keep_pages(boxes_dir, corp.pages, &corp.n) : 0;
    if (corp.n == 0) {
        fprintf(stderr, "glance bench: no page of %s has its boxes in %s (ID.json)\n", pages_dir,
                boxes_dir);
        corpus_end(&corp);
        return EXIT_BADINPUT;
    }
    const corpus_page *pages = corp.pages;
    size_t n = corp.n;
    json_object *truth = corp.truth;
    char *limit = glance_options_get(opt, "max_input_bytes");
    bench_run run = {.pages = pages, .n = n, .truth = truth, .opt = opt, .boxes_dir = boxes_dir,
                     .max_bytes = limit ? (size_t)strtoull(limit, NULL, 10) : (size_t)64 << 20,
                     .fidelity = fidelity};
    free(limit);
    scores_run sr, sr2; /* the run's scores; --fidelity: on the browser's boxes */
    scores_run_init(&sr);
    scores_run_init(&sr2);
    double *parse = malloc(n * sizeof *parse), *layout = malloc(n * sizeof *layout),
           *extract = malloc(n * sizeof *extract), *total = malloc(n * sizeof *total);
    double *parts = malloc(4 * n * sizeof *parts); /* css, html, styles, tree: n each */
    fidelity_page *fp = NULL;
    int rc = EXIT_INTERNAL;
    run.out = calloc(n, sizeof *run.out);
    char *given = glance_options_get(opt, "base_dir"); /* --base_dir wins, as for extract */
    int have_given = given != NULL;
    run.page_dirs = given && !*given;
    free(given);
    if (!run.out || !parse || !layout || !extract || !total || !parts || !have_given) {
        fprintf(stderr, "glance bench: out of memory\n");
        goto out;
    }
    /* The worker processes: their zygote forked here, before the pool
     * starts any thread. --fidelity measures in this process (its
     * outcome is not one a worker sends back). */
    bench_iso iso = {.limit_ms = cli_page_limit_ms(opt, 0)};
    if (!in_process && !fidelity) {
        if (!(iso.pool = isolate_pool_start(bench_worker, &run, cli_max_memory(opt), jobs))) {
            fprintf(stderr, "glance bench: cannot start the worker processes\n");
            goto out;
        }
        run.iso = &iso;
    }
    double wall = 0;
    int pooled = pool_run(n, jobs, "bench", run.iso ? bench_page_isolated : bench_page, &run, &wall);
    isolate_pool_stop(iso.pool);
    run.iso = NULL;
    if (pooled != 0) {
        fprintf(stderr, "glance bench: could not start (fonts or memory)\n");
        goto out;
    }

    /* Scores in page order, so that --jobs never changes them. */
    size_t ok = 0, nocontent = 0, errors = 0, unscored = 0;
    size_t slowest = 0;
    for (size_t i = 0; i < n; i++) {
        const page_out *o = &run.out[i];
        ok += o->status == GLANCE_OK;
        nocontent += o->status == GLANCE_ENOCONTENT;
        errors += o->status != GLANCE_OK && o->status != GLANCE_ENOCONTENT;
        if (o->scored && scores_run_add(&sr, truth, pages[i].id, &o->sc) != 0)
            goto oom;
        unscored += !o->scored;
        if (o->scored2 && scores_run_add(&sr2, truth, pages[i].id, &o->sc2) != 0)
            goto oom;
        parse[i] = o->parse_ms;
        layout[i] = o->layout_ms;
        extract[i] = o->extract_ms;
        total[i] = o->total_ms;
        parts[i] = o->css_ms;
        parts[n + i] = o->html_ms;
        parts[2 * n + i] = o->style_ms;
        parts[3 * n + i] = o->tree_ms;
        if (o->total_ms > run.out[slowest].total_ms)
            slowest = i;
    }
    struct rusage ru, kids;
    getrusage(RUSAGE_SELF, &ru);
    /* The worker processes' too (reaped by now, with their zygote): the
     * peak of any one process. */
    if (getrusage(RUSAGE_CHILDREN, &kids) == 0 && kids.ru_maxrss > ru.ru_maxrss)
        ru.ru_maxrss = kids.ru_maxrss;

    printf("glance bench: %zu pages of %s, method %s, window %s, jobs %d\n", n, pages_dir,
           method, window, jobs);
    if (boxes_dir)
        printf("boxes: the pages with boxes in %s (%zu without left out), on %s boxes\n", boxes_dir,
               without_boxes, fidelity ? "litehtml's" : "the browser's");
    char by[256];
    answered_by(run.out, n, by, sizeof by);
    printf("answered %zu (%s), no main content %zu, errors %zu; scored %zu (%zu without truth)\n",
           ok, by, nocontent, errors, sr.all.pages, unscored);
    scores_run_print(stdout, &sr);
    double slow_ms = run.out[slowest].total_ms;
    const char *slow_id = pages[slowest].id;
    printf("%-22s %8s %8s %8s %8s\n", "time per page (ms)", "parse", "layout", "extract", "total");
    static const struct {
        const char *name;
        double p;
    } ranks[] = {{"  median", 0.5}, {"  90th percentile", 0.9}, {"  99th percentile", 0.99}};
    for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++)
        printf("%-22s %8.1f %8.1f %8.1f %8.1f\n", ranks[k].name, percentile(parse, n, ranks[k].p),
               percentile(layout, n, ranks[k].p), percentile(extract, n, ranks[k].p),
               percentile(total, n, ranks[k].p));
    printf("%-22s %8s %8s %8s %8.1f  %s\n", "  slowest", "", "", "", slow_ms, slow_id);
    printf("%-22s %8s %8s %8s %8s\n", "parse, layout in parts", "css", "html", "styles", "tree");
    for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++)
        printf("%-22s %8.1f %8.1f %8.1f %8.1f\n", ranks[k].name, percentile(parts, n, ranks[k].p),
               percentile(parts + n, n, ranks[k].p), percentile(parts + 2 * n, n, ranks[k].p),
               percentile(parts + 3 * n, n, ranks[k].p));
    /* The browser's part (engine chromium): its start, the load, the
     * snapshot, the tree and the extraction, page by page. */
    size_t browsed = 0;
    for (size_t i = 0; i < n; i++)
        browsed += run.out[i].load_ms > 0;
    if (browsed) {
        double *bt = malloc(5 * n * sizeof *bt);
        if (!bt)
            goto oom;
        size_t m = 0, starts = 0;
        double start_sum = 0;
        for (size_t i = 0; i < n; i++) {
            const page_out *o = &run.out[i];
            if (o->start_ms > 0) {
                starts++;
                start_sum += o->start_ms;
            }
            if (o->load_ms <= 0)
                continue;
            bt[m] = o->load_ms;
            bt[n + m] = o->snapshot_ms;
            bt[2 * n + m] = o->tree_ms;
            bt[3 * n + m] = o->extract_ms;
            bt[4 * n + m] = o->tree_ms + o->extract_ms;
            m++;
        }
        printf("%-22s %8s %8s %8s %8s %8s  (%zu pages in the browser)\n", "browser (ms)", "load",
               "snapshot", "tree", "extract", "tree+ex", m);
        for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++)
            printf("%-22s %8.1f %8.1f %8.1f %8.1f %8.1f\n", ranks[k].name, percentile(bt, m, ranks[k].p),
                   percentile(bt + n, m, ranks[k].p), percentile(bt + 2 * n, m, ranks[k].p),
                   percentile(bt + 3 * n, m, ranks[k].p), percentile(bt + 4 * n, m, ranks[k].p));
        if (starts)
            printf("  browser started %zu times, %.1f ms each on average\n", starts, start_sum / starts);
        free(bt);
    }
    printf("%.1f pages/s over %.1f s; peak resident memory %.1f MB\n", n / (wall / 1000.0),
           wall / 1000.0, ru.ru_maxrss / 1024.0);
    if (fidelity) {
        if (!(fp = malloc(n * sizeof *fp)))
            goto oom;
        for (size_t i = 0; i < n; i++)
            fp[i] = run.out[i].fid;
        fidelity_print(stdout, boxes_dir, fp, n);
        printf("scores on the browser's boxes (method %s, %zu pages):\n", method, sr2.all.pages);
        scores_run_print(stdout, &sr2);
    }

    rc = 0;
    if (out_path && write_out(out_path, &run, &sr, method) != 0) {
        fprintf(stderr, "glance bench: cannot write %s: %s\n", out_path, strerror(errno));
        rc = EXIT_INTERNAL;
    }
    goto out;
oom:
    fprintf(stderr, "glance bench: out of memory\n");
out:
    free(fp);
    free(parse);
    free(layout);
    free(extract);
    free(total);
    free(parts);
    scores_run_free(&sr);
    scores_run_free(&sr2);
    outs_free(run.out, n);
    corpus_end(&corp);
    return rc;
}
