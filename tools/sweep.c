/* tools/: glance sweep, every combination of window size and GCE parameters
 * over a corpus, each page laid out once per window size
 * (glance_result_rerun for the other parameters), with a CSV of every
 * combination, the best ten, and a chart drawn with cairo. */
#define _GNU_SOURCE
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "eval/eval.h"
#include "glance.h"
#include "tools/cli.h"
#include "tools/corpus.h"
#include "tools/pool.h"

static void usage_sweep(FILE *f)
{
    fputs("usage: glance sweep --pages DIR --truth TRUTH.json [options]\n"
          "\n"
          "Runs GCE (alone, no fallback) with every combination of the values below\n"
          "on every page, lays each page out once per window size, and scores each\n"
          "combination as glance bench --method gce does. Writes a CSV of every combination, prints the best ten\n"
          "by token-LCS F0.5, and draws LCS F0.5 against grid size, a line per\n"
          "window size (the best over the other parameters), as a PNG.\n"
          "\n"
          "options (comma-separated lists):\n"
          "  --windows LIST   window sizes WxH (default 1920x1080)\n"
          "  --grids LIST     grids RxC; R1xC1..R2xC2 for every grid between\n"
          "                   (default 7x8)\n"
          "  --alpha LIST     FIA scroll factors (default 2)\n"
          "  --beta LIST      link density thresholds (default 0.5)\n"
          "  --dw LIST        width jump factors (default 1.7)\n"
          "  --jobs N         pages in parallel (default 1)\n"
          "  --csv FILE       where the CSV goes (default sweep.csv)\n"
          "  --png FILE       where the chart goes (default sweep.png)\n",
          f);
}

typedef struct grid {
    int rows, cols;
} grid;

typedef struct axes {
    grid *windows; /* w, h in rows, cols */
    int n_windows;
    grid *grids;
    int n_grids;
    double *alpha, *beta, *dw;
    int n_alpha, n_beta, n_dw;
    int per_window; /* combinations for one window */
    int total;
} axes;

/* The values of one combination. */
typedef struct combo {
    int window_w, window_h, grid_rows, grid_cols;
    double alpha, beta, dw;
} combo_values;

static combo_values combo_at(const axes *ax, int k)
{
    int w = k / ax->per_window, c = k % ax->per_window;
    int d = c % ax->n_dw;
    c /= ax->n_dw;
    int b = c % ax->n_beta;
    c /= ax->n_beta;
    int a = c % ax->n_alpha;
    int g = c / ax->n_alpha;
    return (combo_values){ax->windows[w].rows, ax->windows[w].cols, ax->grids[g].rows, ax->grids[g].cols,
                   ax->alpha[a], ax->beta[b], ax->dw[d]};
}

/* The combination's values on the options (every one was checked when
 * the lists were read); 0, or -1. */
static int combo_params(const axes *ax, int k, glance_options *o)
{
    combo_values c = combo_at(ax, k);
    char v[5][64];
    snprintf(v[0], sizeof v[0], "%dx%d", c.window_w, c.window_h);
    snprintf(v[1], sizeof v[1], "%dx%d", c.grid_rows, c.grid_cols);
    snprintf(v[2], sizeof v[2], "%.17g", c.alpha);
    snprintf(v[3], sizeof v[3], "%.17g", c.beta);
    snprintf(v[4], sizeof v[4], "%.17g", c.dw);
    static const char *const keys[5] = {"window", "gce.grid", "gce.alpha", "gce.beta", "gce.dw"};
    for (int i = 0; i < 5; i++)
        if (glance_options_set(o, keys[i], v[i]) != GLANCE_OK)
            return -1;
    return 0;
}

/* One page's scores: a score per distinct output, an index per combination. */
typedef struct page_scores {
    int ready;
    unsigned short *which; /* per combination, into `scores` */
    struct scored {
        eval_shingles sh;
        eval_prf lcs, blk;
        int answered;
    } *scores;
    size_t n_scores;
    char **keys; /* the chosen XPath of each score ("" for none) */
} page_scores;

typedef struct sweep_run {
    const axes *ax;
    const corpus_page *pages;
    size_t n;
    json_object *truth;
    size_t max_bytes; /* a page's, as glance_options' max_input_bytes */
    page_scores *out;
} sweep_run;

/* The score of an output, computed once per distinct chosen node. */
static int score_for(page_scores *ps, const char *truth, const char *key, const char *text,
                     int answered)
{
    for (size_t i = 0; i < ps->n_scores; i++)
        if (strcmp(ps->keys[i], key) == 0)
            return (int)i;
    if (ps->n_scores >= 65535)
        return -1;
    struct scored *s = realloc(ps->scores, (ps->n_scores + 1) * sizeof *s);
    if (!s)
        return -1;
    ps->scores = s;
    char **k = realloc(ps->keys, (ps->n_scores + 1) * sizeof *k);
    if (!k)
        return -1;
    ps->keys = k;
    struct scored *n = &ps->scores[ps->n_scores];
    memset(n, 0, sizeof *n);
    n->answered = answered;
    if (!(ps->keys[ps->n_scores] = strdup(key)) || eval_shingle_match(truth, text, &n->sh) ||
        eval_lcs(truth, text, &n->lcs) || eval_blocks(truth, text, &n->blk))
        return -1;
    return (int)ps->n_scores++;
}

/* One page at every combination (pool_page_fn; -1, out of memory, stops). */
static int sweep_page(void *arg, glance_context *ctx, size_t i)
{
    sweep_run *run = arg;
    const axes *ax = run->ax;
    const corpus_page *pg = &run->pages[i];
    page_scores *ps = &run->out[i];
    const char *truth = corpus_text(run->truth, pg->id);
    if (!truth)
        return 0; /* not scored */
    ps->which = calloc((size_t)ax->total, sizeof *ps->which);
    if (!ps->which)
        return -1;
    glance_options *opt = glance_options_new();
    /* The parameters are GCE's; saved pages, as saved: no stylesheet from
     * the web, the local ones of the page's folder as glance bench reads
     * them. */
    char *dir = corpus_page_dir(pg);
    if (!opt || !dir || glance_options_set(opt, "method", "gce") != GLANCE_OK ||
        glance_options_set(opt, "offline", "on") != GLANCE_OK ||
        glance_options_set(opt, "base_dir", dir) != GLANCE_OK) {
        glance_options_free(opt);
        free(dir);
        return -1;
    }
    free(dir);
    char why[512], *html = NULL;
    size_t len = 0;
    int readable = corpus_read(pg, run->max_bytes, &html, &len, why, sizeof why) == 0;
    for (int w = 0; w < ax->n_windows; w++) {
        glance_result *res = NULL;
        for (int c = 0; c < ax->per_window; c++) {
            int combo = w * ax->per_window + c;
            if (combo_params(ax, combo, opt) != 0) {
                glance_result_free(res);
                glance_options_free(opt);
                free(html);
                return -1;
            }
            glance_status st = GLANCE_EIO;
            if (readable && c == 0)
                st = glance_extract(ctx, html, len, opt, &res);
            else if (res)
                st = glance_result_rerun(res, opt);
            if (!res && readable) {
                glance_options_free(opt);
                free(html);
                return -1; /* out of memory */
            }
            int ok = st == GLANCE_OK;
            const char *key = ok ? glance_result_xpath(res) : "";
            int k = score_for(ps, truth, key, ok ? glance_result_text(res) : "", ok);
            if (k < 0) {
                glance_result_free(res);
                glance_options_free(opt);
                free(html);
                return -1;
            }
            ps->which[combo] = (unsigned short)k;
        }
        glance_result_free(res);
    }
    glance_options_free(opt);
    free(html);
    ps->ready = 1;
    return 0;
}

/* "7x8", or "3x3..8x8" for every grid from 3 to 8 rows and 3 to 8 columns. */
static int parse_grids(const char *list, grid **out, int *n)
{
    char **items;
    int k;
    *out = NULL;
    *n = 0;
    if (cli_parse_list(list, &items, &k))
        return -1;
    int rc = 0;
    for (int i = 0; i < k && !rc; i++) {
        grid a, b;
        char *dots = strstr(items[i], "..");
        if (dots) {
            *dots = '\0';
            rc = cli_parse_pair(items[i], &a.rows, &a.cols) ||
                 cli_parse_pair(dots + 2, &b.rows, &b.cols) || b.rows < a.rows || b.cols < a.cols;
        } else {
            rc = cli_parse_pair(items[i], &a.rows, &a.cols);
            b = a;
        }
        for (int r = a.rows; !rc && r <= b.rows; r++)
            for (int c = a.cols; !rc && c <= b.cols; c++) {
                grid *g = *n < 4096 ? realloc(*out, (size_t)(*n + 1) * sizeof *g) : NULL;
                if (!g) {
                    rc = -1;
                    break;
                }
                *out = g;
                (*out)[(*n)++] = (grid){r, c};
            }
    }
    cli_free_list(items, k);
    return rc;
}

static int parse_numbers(const char *list, double **out, int *n)
{
    char **items;
    int k;
    if (cli_parse_list(list, &items, &k))
        return -1;
    *out = calloc((size_t)k, sizeof **out);
    int rc = *out ? 0 : -1;
    for (int i = 0; i < k && !rc; i++)
        rc = cli_parse_double(items[i], &(*out)[i]) || (*out)[i] <= 0;
    *n = k;
    cli_free_list(items, k);
    return rc;
}

/* The chart: LCS F0.5 (best over alpha, beta, dw) against the grid, a line
 * per window. */
static int draw_chart(const char *path, const axes *ax, const eval_scores *sc)
{
    const int W = 1100, H = 620, L = 80, R = 200, T = 60, B = 90;
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(surf);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    double *best = calloc((size_t)(ax->n_windows * ax->n_grids), sizeof *best);
    if (!best) {
        cairo_destroy(cr);
        cairo_surface_destroy(surf);
        return -1;
    }
    int per_grid = ax->n_alpha * ax->n_beta * ax->n_dw;
    double lo = 1, hi = 0;
    for (int w = 0; w < ax->n_windows; w++)
        for (int g = 0; g < ax->n_grids; g++) {
            double b = 0;
            for (int k = 0; k < per_grid; k++) {
                double v = sc[w * ax->per_window + g * per_grid + k].lcs_f05;
                b = v > b ? v : b;
            }
            best[w * ax->n_grids + g] = b;
            lo = b < lo ? b : lo;
            hi = b > hi ? b : hi;
        }
    lo = floor(lo * 20 - 1) / 20;
    hi = ceil(hi * 20 + 1) / 20;
    lo = lo < 0 ? 0 : lo;
    hi = hi > 1 ? 1 : hi;
    double pw = W - L - R, ph = H - T - B;
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 17);
    cairo_move_to(cr, L, 30);
    cairo_show_text(cr, "GCE: token-LCS F0.5 by grid (best over alpha, beta, dw), a line per window");
    /* Axes, horizontal guides every 0.05. */
    cairo_set_font_size(cr, 12);
    cairo_set_line_width(cr, 1);
    for (double y = lo; y <= hi + 1e-9; y += 0.05) {
        double py = T + ph * (1 - (y - lo) / (hi - lo));
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, L, py);
        cairo_line_to(cr, L + pw, py);
        cairo_stroke(cr);
        char lab[16];
        snprintf(lab, sizeof lab, "%.2f", y);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_move_to(cr, L - 40, py + 4);
        cairo_show_text(cr, lab);
    }
    double step = ax->n_grids > 1 ? pw / (ax->n_grids - 1) : 0;
    int every = ax->n_grids > 24 ? (ax->n_grids + 23) / 24 : 1;
    for (int g = 0; g < ax->n_grids; g++) {
        double px = L + (ax->n_grids > 1 ? g * step : pw / 2);
        if (g % every)
            continue;
        char lab[24];
        snprintf(lab, sizeof lab, "%dx%d", ax->grids[g].rows, ax->grids[g].cols);
        cairo_save(cr);
        cairo_move_to(cr, px - 4, H - B + 16);
        cairo_rotate(cr, M_PI / 4);
        cairo_show_text(cr, lab);
        cairo_restore(cr);
    }
    cairo_move_to(cr, L + pw / 2 - 60, H - 15);
    cairo_show_text(cr, "grid (rows x columns)");
    cairo_save(cr);
    cairo_move_to(cr, 22, T + ph / 2 + 40);
    cairo_rotate(cr, -M_PI / 2);
    cairo_show_text(cr, "LCS F0.5");
    cairo_restore(cr);
    cairo_rectangle(cr, L, T, pw, ph);
    cairo_stroke(cr);
    static const double colours[][3] = {{0.12, 0.47, 0.71}, {0.89, 0.10, 0.11}, {0.20, 0.63, 0.17},
                                        {1.00, 0.50, 0.00}, {0.42, 0.24, 0.60}, {0.65, 0.34, 0.16}};
    for (int w = 0; w < ax->n_windows; w++) {
        const double *c = colours[w % 6];
        cairo_set_source_rgb(cr, c[0], c[1], c[2]);
        cairo_set_line_width(cr, 2.5);
        for (int g = 0; g < ax->n_grids; g++) {
            double px = L + (ax->n_grids > 1 ? g * step : pw / 2);
            double py = T + ph * (1 - (best[w * ax->n_grids + g] - lo) / (hi - lo));
            if (g == 0)
                cairo_move_to(cr, px, py);
            else
                cairo_line_to(cr, px, py);
        }
        cairo_stroke(cr);
        for (int g = 0; g < ax->n_grids; g++) {
            double px = L + (ax->n_grids > 1 ? g * step : pw / 2);
            double py = T + ph * (1 - (best[w * ax->n_grids + g] - lo) / (hi - lo));
            cairo_arc(cr, px, py, 3.5, 0, 2 * M_PI);
            cairo_fill(cr);
        }
        char lab[48];
        snprintf(lab, sizeof lab, "%dx%d", ax->windows[w].rows, ax->windows[w].cols);
        cairo_rectangle(cr, W - R + 20, T + 20 + w * 24, 22, 4);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_move_to(cr, W - R + 50, T + 26 + w * 24);
        cairo_show_text(cr, lab);
    }
    free(best);
    cairo_destroy(cr);
    cairo_status_t st = cairo_surface_write_to_png(surf, path);
    cairo_surface_destroy(surf);
    /* cairo's text API opened fontconfig's default configuration; hand both
     * back, so that leak checkers see a clean exit (glance's own fonts use
     * configurations of their own, all freed by now). */
    cairo_debug_reset_static_data();
    FcFini();
    return st == CAIRO_STATUS_SUCCESS ? 0 : -1;
}

int cmd_sweep(int argc, char **argv)
{
    enum { O_PAGES = 256, O_TRUTH, O_WINDOWS, O_GRIDS, O_ALPHA, O_BETA, O_DW, O_JOBS, O_CSV, O_PNG };
    static const struct option longs[] = {
        {"pages", required_argument, NULL, O_PAGES}, {"truth", required_argument, NULL, O_TRUTH},
        {"windows", required_argument, NULL, O_WINDOWS}, {"grids", required_argument, NULL, O_GRIDS},
        {"alpha", required_argument, NULL, O_ALPHA}, {"beta", required_argument, NULL, O_BETA},
        {"dw", required_argument, NULL, O_DW}, {"jobs", required_argument, NULL, O_JOBS},
        {"csv", required_argument, NULL, O_CSV}, {"png", required_argument, NULL, O_PNG},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *pages_dir = NULL, *truth_path = NULL, *csv_path = "sweep.csv",
               *png_path = "sweep.png";
    const char *windows = "1920x1080", *grids = "7x8", *alpha = "2", *beta = "0.5", *dw = "1.7";
    double jobs_d = 1;
    int c;
    optind = 1;
    opterr = 0; /* our one line, not getopt's and the whole usage */
    while ((c = getopt_long(argc, argv, ":hV", longs, NULL)) != -1) {
        switch (c) {
        case O_PAGES: pages_dir = optarg; break;
        case O_TRUTH: truth_path = optarg; break;
        case O_WINDOWS: windows = optarg; break;
        case O_GRIDS: grids = optarg; break;
        case O_ALPHA: alpha = optarg; break;
        case O_BETA: beta = optarg; break;
        case O_DW: dw = optarg; break;
        case O_JOBS:
            if (cli_parse_double(optarg, &jobs_d) || jobs_d < 1 || jobs_d > 256 ||
                jobs_d != floor(jobs_d)) {
                fprintf(stderr, "glance sweep: bad value '%s' for --jobs\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case O_CSV: csv_path = optarg; break;
        case O_PNG: png_path = optarg; break;
        case 'h': usage_sweep(stdout); return 0;
        case 'V': return cli_version();
        case ':':
            fprintf(stderr, "glance sweep: %s needs a value (glance sweep --help)\n", argv[optind - 1]);
            return EXIT_USAGE;
        default: cli_bad_flag("sweep", argv[optind - 1]); return EXIT_USAGE;
        }
    }
    if (optind < argc || !pages_dir || !truth_path) {
        fprintf(stderr, "glance sweep: give --pages and --truth (glance sweep --help)\n");
        return EXIT_USAGE;
    }
    axes ax = {0};
    const char *bad = NULL;
    if (parse_grids(windows, &ax.windows, &ax.n_windows))
        bad = "--windows";
    else if (parse_grids(grids, &ax.grids, &ax.n_grids))
        bad = "--grids";
    else if (parse_numbers(alpha, &ax.alpha, &ax.n_alpha))
        bad = "--alpha";
    else if (parse_numbers(beta, &ax.beta, &ax.n_beta))
        bad = "--beta";
    else if (parse_numbers(dw, &ax.dw, &ax.n_dw))
        bad = "--dw";
    if (bad) {
        fprintf(stderr, "glance sweep: bad list for %s\n", bad);
        return EXIT_USAGE;
    }
    long per = (long)ax.n_grids * ax.n_alpha * ax.n_beta * ax.n_dw;
    if (per * ax.n_windows > 65535) {
        fprintf(stderr, "glance sweep: %ld combinations; at most 65535\n", per * ax.n_windows);
        return EXIT_USAGE;
    }
    ax.per_window = (int)per;
    ax.total = (int)per * ax.n_windows;
    /* Every value in range, said before any page is laid out. */
    glance_options *check = glance_options_new();
    for (int k = 0; check && k < ax.total; k++)
        if (combo_params(&ax, k, check) != 0) {
            fprintf(stderr, "glance sweep: %s\n", glance_options_error(check));
            glance_options_free(check);
            return EXIT_USAGE;
        }
    glance_options_free(check);

    corpus corp;
    int started = corpus_start("sweep", pages_dir, truth_path, &corp);
    if (started != 0)
        return started;
    const corpus_page *pages = corp.pages;
    size_t n = corp.n;
    json_object *truth = corp.truth;
    fprintf(stderr, "glance sweep: %zu pages x %d combinations (%d per window, %d layouts per page)\n",
            n, ax.total, ax.per_window, ax.n_windows);
    sweep_run run = {.ax = &ax, .pages = pages, .n = n, .truth = truth,
                     .max_bytes = (size_t)64 << 20};
    run.out = calloc(n, sizeof *run.out);
    int jobs = (int)jobs_d;
    eval_summary *sums = calloc((size_t)ax.total, sizeof *sums);
    size_t *answered = calloc((size_t)ax.total, sizeof *answered);
    eval_scores *sc = calloc((size_t)ax.total, sizeof *sc);
    if (!run.out || !sums || !answered || !sc) {
        fprintf(stderr, "glance sweep: out of memory\n");
        return EXIT_INTERNAL;
    }
    if (pool_run(n, jobs, "sweep", sweep_page, &run, NULL) != 0) {
        fprintf(stderr, "glance sweep: stopped (fonts or memory)\n");
        return EXIT_INTERNAL;
    }
    /* Sums in page order, whatever the number of jobs. */
    for (size_t i = 0; i < n; i++) {
        page_scores *ps = &run.out[i];
        if (!ps->ready)
            continue;
        for (int k = 0; k < ax.total; k++) {
            const struct scored *s = &ps->scores[ps->which[k]];
            eval_summary_add(&sums[k], &s->sh, &s->lcs, &s->blk);
            answered[k] += s->answered != 0;
        }
        for (size_t j = 0; j < ps->n_scores; j++)
            free(ps->keys[j]);
        free(ps->keys);
        free(ps->scores);
        free(ps->which);
    }
    for (int k = 0; k < ax.total; k++)
        eval_summary_scores(&sums[k], &sc[k]);

    int rc = 0;
    FILE *csv = fopen(csv_path, "w");
    if (!csv) {
        fprintf(stderr, "glance sweep: cannot write %s: %s\n", csv_path, strerror(errno));
        rc = EXIT_INTERNAL;
    } else {
        fprintf(csv, "window,grid,alpha,beta,dw,pages,answered,f1,precision,recall,accuracy,"
                     "lcs_f1,lcs_f05,lcs_precision,lcs_recall,blocks_f1,blocks_f05,"
                     "blocks_precision,blocks_recall\n");
        for (int k = 0; k < ax.total; k++) {
            combo_values o = combo_at(&ax, k);
            const eval_scores *s = &sc[k];
            fprintf(csv, "%dx%d,%dx%d,%g,%g,%g,%zu,%zu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n",
                    o.window_w, o.window_h, o.grid_rows, o.grid_cols, o.alpha, o.beta, o.dw,
                    s->pages, answered[k], s->f1, s->precision, s->recall, s->accuracy, s->lcs_f1,
                    s->lcs_f05, s->lcs_p, s->lcs_r, s->blk_f1, s->blk_f05, s->blk_p, s->blk_r);
        }
        if (fclose(csv) != 0)
            rc = EXIT_INTERNAL;
    }
    /* The best ten by LCS F0.5 (ties: the earlier combination). */
    int *order = malloc((size_t)ax.total * sizeof *order);
    if (order) {
        for (int k = 0; k < ax.total; k++)
            order[k] = k;
        for (int a = 0; a < ax.total && a < 10; a++) /* partial selection sort */
            for (int b = a + 1; b < ax.total; b++)
                if (sc[order[b]].lcs_f05 > sc[order[a]].lcs_f05) {
                    int t = order[a];
                    order[a] = order[b];
                    order[b] = t;
                }
        printf("best %d of %d combinations by token-LCS F0.5 (%zu pages):\n",
               ax.total < 10 ? ax.total : 10, ax.total, sc[0].pages);
        printf("%-10s %-6s %5s %5s %5s  %8s %7s %7s %9s %8s\n", "window", "grid", "alpha", "beta",
               "dw", "answered", "LCS F.5", "LCS F1", "blocks F.5", "shingle F1");
        for (int a = 0; a < ax.total && a < 10; a++) {
            combo_values o = combo_at(&ax, order[a]);
            const eval_scores *s = &sc[order[a]];
            char win[24], grd[24];
            snprintf(win, sizeof win, "%dx%d", o.window_w, o.window_h);
            snprintf(grd, sizeof grd, "%dx%d", o.grid_rows, o.grid_cols);
            printf("%-10s %-6s %5g %5g %5g  %8zu %7.3f %7.3f %9.3f %8.3f\n", win, grd, o.alpha,
                   o.beta, o.dw, answered[order[a]], s->lcs_f05, s->lcs_f1, s->blk_f05, s->f1);
        }
        free(order);
    }
    if (draw_chart(png_path, &ax, sc) != 0) {
        fprintf(stderr, "glance sweep: cannot write %s\n", png_path);
        rc = EXIT_INTERNAL;
    } else {
        fprintf(stderr, "glance sweep: wrote %s and %s\n", csv_path, png_path);
    }
    free(sums);
    free(answered);
    free(sc);
    free(run.out);
    free(ax.windows);
    free(ax.grids);
    free(ax.alpha);
    free(ax.beta);
    free(ax.dw);
    corpus_end(&corp);
    return rc;
}
