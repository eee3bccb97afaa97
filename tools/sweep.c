/* tools/: glance sweep, one method (auto, the default, or any other) over a
 * corpus at every combination of window sizes and option values. Each page
 * is laid out once per window size (and per value of an option of the
 * layout); the other options run again on that layout
 * (glance_result_rerun). Each combination is scored as glance bench scores
 * it, over all pages, per page kind (the truth's "type") and per group:
 * a CSV of every combination and row, a table of F1 per window and kind,
 * and a chart drawn with cairo. */
#define _GNU_SOURCE
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "eval/eval.h"
#include "glance.h"
#include "tools/cli.h"
#include "tools/corpus.h"
#include "tools/options.h"
#include "tools/pool.h"
#include "tools/scores.h"

static void usage_sweep(FILE *f)
{
    fputs("usage: glance sweep --pages DIR --truth TRUTH.json [options]\n"
          "\n"
          "Runs one method on every page at every combination of the values given\n"
          "below, lays each page out once per window size (and per value of an\n"
          "option of the layout), runs the method's own options again on that\n"
          "layout, and scores each combination as glance bench --method M does:\n"
          "over all pages, per page kind (the truth's \"type\") and per group when\n"
          "the truth has them. Writes a CSV with a row per combination and kind,\n"
          "prints F1 (the benchmark's shingles) per window and kind, and draws it\n"
          "as a PNG (with several settings per window, also F1 per setting, a\n"
          "line per window).\n"
          "\n"
          "options (each takes a comma-separated list of values):\n"
          "  --method LIST    methods (default auto; glance extract --help)\n"
          "  --windows LIST   window sizes WxH (default 1920x1080)\n"
          "  --KEY LIST       any option of glance extract, a value or several:\n"
          "                   --score.threshold 0.4,0.5 --gce.alpha 1.5,2 --no-flex-grid;\n"
          "                   --set KEY=LIST too. A WxH option takes A..B for every\n"
          "                   size between (--grids 3x3..8x8)\n"
          "  --grids, --alpha, --beta, --dw   GCE's gce.grid, gce.alpha, gce.beta, gce.dw\n"
          "  --jobs N         pages in parallel (default 1)\n"
          "  --csv FILE       where the CSV goes (default sweep.csv)\n"
          "  --png FILE       where the chart goes (default sweep.png)\n"
          "\n"
          "Pages are read offline, each with its own folder as base_dir, as glance\n"
          "bench reads them.\n",
          f);
}

/* One option swept: its values as text, as glance_options_set reads them. */
typedef struct axis {
    char *key;    /* the option's key: "window", "method", "gce.grid" */
    int layout;   /* 1: another value needs another layout */
    char **values;
    int n;
} axis;

/* The axes in the order of the combinations: the window first, the options
 * of the layout next, the others last (the innermost), so that the
 * combinations of one layout follow one another. */
typedef struct sweep_axes {
    axis *v;
    int n;
    int total;      /* combinations */
    int per_layout; /* combinations on one layout */
    int settings;   /* combinations per window */
} sweep_axes;

/* The index of axis a's value in combination k. */
static int value_index(const sweep_axes *ax, int k, int a)
{
    int stride = 1;
    for (int b = ax->n - 1; b > a; b--)
        stride *= ax->v[b].n;
    return (k / stride) % ax->v[a].n;
}

static const char *value_of(const sweep_axes *ax, int k, int a)
{
    return ax->v[a].values[value_index(ax, k, a)];
}

/* Combination k's values on the options; 0, or -1 (the message in
 * glance_options_error). */
static int combo_params(const sweep_axes *ax, int k, glance_options *o)
{
    for (int a = 0; a < ax->n; a++)
        if (glance_options_set(o, ax->v[a].key, value_of(ax, k, a)) != GLANCE_OK)
            return -1;
    return 0;
}

/* A setting (combination k without its window) as text: "gce.alpha=2
 * method=gce", or "defaults"; with `swept`, only the options given
 * several values. */
static void setting_text(const sweep_axes *ax, int k, int swept, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int a = 1; a < ax->n && used < cap; a++)
        if (!swept || ax->v[a].n > 1)
            used += (size_t)snprintf(buf + used, cap - used, "%s%s=%s", used ? " " : "",
                                 ax->v[a].key, value_of(ax, k, a));
    if (!buf[0])
        snprintf(buf, cap, "defaults");
}

/* Which options need a layout of their own: those of the page, but the
 * method and the clean-up, which run on the laid-out tree. */
static int is_layout_option(const glance_option_info *info)
{
    return strcmp(info->group, "page") == 0 && strcmp(info->key, "method") != 0 &&
           strcmp(info->key, "cleanup") != 0 && strcmp(info->key, "cleanup_link_share") != 0;
}

/* One page's outcomes: a score per distinct output, an index per
 * combination. */
typedef struct page_scores {
    int ready;
    unsigned short *which; /* per combination, into `scores` */
    struct scored {
        scores_page sc;
        int answered;
    } *scores;
    size_t n_scores;
} page_scores;

typedef struct sweep_run {
    const sweep_axes *ax;
    const corpus_page *pages;
    size_t n;
    json_object *truth;
    size_t max_bytes; /* a page's, as glance_options' max_input_bytes */
    page_scores *out;
} sweep_run;

/* The index of an output's score in ps, scored once per distinct text
 * (texts[] holds them while the page runs); -1 when out of memory. */
static int score_for(page_scores *ps, char ***texts, json_object *truth, const char *id,
                     const char *truth_text, const char *text, int answered)
{
    for (size_t i = 0; i < ps->n_scores; i++)
        if (ps->scores[i].answered == answered && strcmp((*texts)[i], text) == 0)
            return (int)i;
    if (ps->n_scores >= 65535)
        return -1;
    struct scored *s = realloc(ps->scores, (ps->n_scores + 1) * sizeof *s);
    if (!s)
        return -1;
    ps->scores = s;
    char **t = realloc(*texts, (ps->n_scores + 1) * sizeof *t);
    if (!t)
        return -1;
    *texts = t;
    struct scored *n = &ps->scores[ps->n_scores];
    memset(n, 0, sizeof *n);
    n->answered = answered;
    if (!(t[ps->n_scores] = strdup(text)))
        return -1;
    if (scores_page_run(truth, id, truth_text, answered ? text : NULL, &n->sc) != 0) {
        free(t[ps->n_scores]);
        return -1;
    }
    return (int)ps->n_scores++;
}

/* One page at every combination (pool_page_fn; -1, out of memory, stops). */
static int sweep_page(void *arg, glance_context *ctx, size_t i)
{
    sweep_run *run = arg;
    const sweep_axes *ax = run->ax;
    const corpus_page *pg = &run->pages[i];
    page_scores *ps = &run->out[i];
    const char *truth = corpus_text(run->truth, pg->id);
    if (!truth)
        return 0; /* not scored */
    ps->which = calloc((size_t)ax->total, sizeof *ps->which);
    if (!ps->which)
        return -1;
    glance_options *opt = glance_options_new();
    /* Saved pages, as saved: no stylesheet from the web, the local ones of
     * the page's folder as glance bench reads them (a base_dir swept
     * overrides it). */
    char *dir = corpus_page_dir(pg);
    if (!opt || !dir || glance_options_set(opt, "offline", "on") != GLANCE_OK ||
        glance_options_set(opt, "base_dir", dir) != GLANCE_OK) {
        glance_options_free(opt);
        free(dir);
        return -1;
    }
    free(dir);
    char why[512], *html = NULL, **texts = NULL;
    size_t len = 0;
    int readable = corpus_read(pg, run->max_bytes, &html, &len, why, sizeof why) == 0;
    glance_result *res = NULL;
    int rc = 0;
    for (int k = 0; k < ax->total && rc == 0; k++) {
        if (combo_params(ax, k, opt) != 0) {
            rc = -1;
            break;
        }
        glance_status st = GLANCE_EIO;
        if (k % ax->per_layout == 0) { /* a layout of its own */
            glance_result_free(res);
            res = NULL;
            if (readable) {
                st = glance_extract(ctx, html, len, opt, &res);
                if (!res)
                    rc = -1; /* out of memory */
            }
        } else if (res) {
            st = glance_result_rerun(res, opt);
        }
        int ok = st == GLANCE_OK && res && glance_result_text(res);
        int s = rc ? -1
                   : score_for(ps, &texts, run->truth, pg->id, truth,
                               ok ? glance_result_text(res) : "", ok);
        if (s < 0)
            rc = -1;
        else
            ps->which[k] = (unsigned short)s;
    }
    glance_result_free(res);
    glance_options_free(opt);
    free(html);
    for (size_t j = 0; texts && j < ps->n_scores; j++)
        free(texts[j]);
    free(texts);
    ps->ready = rc == 0;
    return rc;
}

/* A list of values; for an option of type WxH, "A..B" is every size from A
 * to B ("3x3..8x8": 36 grids). 0, or -1. */
static int parse_values(const char *list, int pairs, char ***out, int *n)
{
    char **items;
    int k;
    *out = NULL;
    *n = 0;
    if (cli_parse_list(list, &items, &k))
        return -1;
    int rc = 0;
    for (int i = 0; i < k && !rc; i++) {
        char *dots = pairs ? strstr(items[i], "..") : NULL;
        int r0, c0, r1, c1;
        if (dots) {
            *dots = '\0';
            rc = cli_parse_pair(items[i], &r0, &c0) || cli_parse_pair(dots + 2, &r1, &c1) ||
                 r1 < r0 || c1 < c0 || (long)(r1 - r0 + 1) * (c1 - c0 + 1) > 4096;
        }
        for (int r = dots ? r0 : 0; !rc && r <= (dots ? r1 : 0); r++)
            for (int c = dots ? c0 : 0; !rc && c <= (dots ? c1 : 0); c++) {
                char **v = *n < 65536 ? realloc(*out, (size_t)(*n + 1) * sizeof *v) : NULL;
                char pair[48];
                snprintf(pair, sizeof pair, "%dx%d", r, c);
                if (!v || !(v[*n] = strdup(dots ? pair : items[i]))) {
                    if (v)
                        *out = v;
                    rc = -1;
                    break;
                }
                *out = v;
                (*n)++;
            }
    }
    cli_free_list(items, k);
    return rc;
}

static void axes_free(sweep_axes *ax)
{
    for (int a = 0; a < ax->n; a++) {
        free(ax->v[a].key);
        cli_free_list(ax->v[a].values, ax->v[a].n);
    }
    free(ax->v);
    memset(ax, 0, sizeof *ax);
}

/* Adds an axis for option `name` (its first n bytes; a key, an alias, or
 * one of sweep's own names) with the values of `list`. 0; -1 out of memory;
 * an exit status after a line on stderr. */
static int axis_add(sweep_axes *ax, const char *name, size_t n, const char *list)
{
    static const struct {
        const char *flag, *key;
    } own[] = {{"windows", "window"}, {"grids", "gce.grid"}};
    char buf[128];
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strlen(own[i].flag) == n && strncmp(name, own[i].flag, n) == 0) {
            name = own[i].key;
            n = strlen(name);
        }
    glance_option_info info;
    if (cli_option_find(name, n, &info) < 0) {
        snprintf(buf, sizeof buf, "--%.*s", (int)(n < 100 ? n : 100), name);
        cli_bad_flag("sweep", buf);
        return EXIT_USAGE;
    }
    for (int a = 0; a < ax->n; a++)
        if (strcmp(ax->v[a].key, info.key) == 0) {
            fprintf(stderr, "glance sweep: %s given twice (one list of values each)\n", info.key);
            return EXIT_USAGE;
        }
    axis *v = realloc(ax->v, (size_t)(ax->n + 1) * sizeof *v);
    if (!v)
        return -1;
    ax->v = v;
    axis *x = &ax->v[ax->n];
    memset(x, 0, sizeof *x);
    if (!(x->key = strdup(info.key)))
        return -1;
    ax->n++;
    x->layout = is_layout_option(&info);
    if (parse_values(list, strcmp(info.type, "WxH") == 0, &x->values, &x->n) != 0) {
        fprintf(stderr, "glance sweep: bad list '%s' for %s\n", list, info.key);
        return EXIT_USAGE;
    }
    return 0;
}

/* The window first, the layout's options next, then the method, the rest
 * last (each group in the order given); counts the combinations. 0, or an
 * exit status. */
static int axes_order(sweep_axes *ax)
{
    axis *v = malloc((size_t)ax->n * sizeof *v);
    if (!v)
        return EXIT_INTERNAL;
    int m = 0;
    for (int pass = 0; pass < 4; pass++)
        for (int a = 0; a < ax->n; a++) {
            int group = strcmp(ax->v[a].key, "window") == 0   ? 0
                        : ax->v[a].layout                     ? 1
                        : strcmp(ax->v[a].key, "method") == 0 ? 2
                                                              : 3;
            if (group == pass)
                v[m++] = ax->v[a];
        }
    free(ax->v);
    ax->v = v;
    long total = 1, per_layout = 1;
    for (int a = 0; a < ax->n; a++) {
        total *= ax->v[a].n;
        if (!ax->v[a].layout)
            per_layout *= ax->v[a].n;
        if (total > 65535) {
            fprintf(stderr, "glance sweep: more than 65535 combinations\n");
            return EXIT_USAGE;
        }
    }
    ax->total = (int)total;
    ax->per_layout = (int)per_layout;
    ax->settings = (int)(total / ax->v[0].n);
    return 0;
}

/* The rows of the tables: all pages, then each kind ("type"), then each
 * group, most pages first, then by name. */
typedef struct sweep_row {
    const char *by;   /* "all", "type", "group" */
    const char *name; /* points into the truth; "all" for all */
    size_t pages;
} sweep_row;

static int row_cmp(const void *a, const void *b)
{
    const sweep_row *x = a, *y = b;
    int c = strcmp(x->by, y->by);
    if (c)
        return strcmp(x->by, "type") == 0 ? -1 : 1; /* "type" before "group" */
    if (x->pages != y->pages)
        return x->pages > y->pages ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Rows for every kind and group of the scored pages; the row of each page
 * for each field in page_rows[i * 2 + f] (-1: none). 0, or -1. */
static int rows_of(const sweep_run *run, sweep_row **rows, size_t *n_rows, int *page_rows)
{
    static const char *const fields[2] = {"type", "group"};
    size_t n = 1, cap = 8;
    sweep_row *r = malloc(cap * sizeof *r);
    if (!r)
        return -1;
    r[0] = (sweep_row){"all", "all", 0};
    for (size_t i = 0; i < run->n; i++) {
        if (!run->out[i].ready)
            continue;
        r[0].pages++;
        for (int f = 0; f < 2; f++) {
            const char *v = corpus_field(run->truth, run->pages[i].id, fields[f]);
            if (!v)
                continue;
            size_t j = 1;
            while (j < n && !(strcmp(r[j].by, fields[f]) == 0 && strcmp(r[j].name, v) == 0))
                j++;
            if (j == n) {
                if (n == cap) {
                    sweep_row *g = realloc(r, (cap *= 2) * sizeof *g);
                    if (!g) {
                        free(r);
                        return -1;
                    }
                    r = g;
                }
                r[n++] = (sweep_row){fields[f], v, 0};
            }
            r[j].pages++;
        }
    }
    qsort(r + 1, n - 1, sizeof *r, row_cmp);
    for (size_t i = 0; i < run->n; i++)
        for (int f = 0; f < 2; f++) {
            page_rows[i * 2 + f] = -1;
            const char *v = run->out[i].ready ? corpus_field(run->truth, run->pages[i].id, fields[f]) : NULL;
            for (size_t j = 1; v && j < n; j++)
                if (strcmp(r[j].by, fields[f]) == 0 && strcmp(r[j].name, v) == 0)
                    page_rows[i * 2 + f] = (int)j;
        }
    *rows = r;
    *n_rows = n;
    return 0;
}

/* The chart ------------------------------------------------------------------ */

typedef struct series {
    const char *name;
    const double *y; /* one per x */
    int bold;
} series;

static const double colours[][3] = {{0.12, 0.47, 0.71}, {0.89, 0.10, 0.11}, {0.20, 0.63, 0.17},
                                    {1.00, 0.50, 0.00}, {0.42, 0.24, 0.60}, {0.65, 0.34, 0.16},
                                    {0.97, 0.51, 0.75}, {0.50, 0.50, 0.50}, {0.74, 0.74, 0.13},
                                    {0.09, 0.75, 0.81}};

/* Lines of values against labelled x positions, in the panel at (x0, y0) of
 * W x H, with the legend on its right. */
static void draw_lines(cairo_t *cr, double x0, double y0, double W, double H, const char *title,
                       const char *xtitle, char **xlabels, int nx, const series *s, int ns)
{
    const double L = 80, R = 230, T = 60, B = 100;
    double lo = 1, hi = 0;
    for (int i = 0; i < ns; i++)
        for (int x = 0; x < nx; x++) {
            lo = s[i].y[x] < lo ? s[i].y[x] : lo;
            hi = s[i].y[x] > hi ? s[i].y[x] : hi;
        }
    lo = floor(lo * 20 - 0.5) / 20;
    hi = ceil(hi * 20 + 0.5) / 20;
    lo = lo < 0 ? 0 : lo;
    hi = hi > 1 ? 1 : hi;
    if (hi <= lo)
        hi = lo + 0.05;
    double pw = W - L - R, ph = H - T - B;
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 16);
    cairo_move_to(cr, x0 + L, y0 + 30);
    cairo_show_text(cr, title);
    cairo_set_font_size(cr, 12);
    cairo_set_line_width(cr, 1);
    for (double y = lo; y <= hi + 1e-9; y += 0.05) {
        double py = y0 + T + ph * (1 - (y - lo) / (hi - lo));
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, x0 + L, py);
        cairo_line_to(cr, x0 + L + pw, py);
        cairo_stroke(cr);
        char lab[16];
        snprintf(lab, sizeof lab, "%.2f", y);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_move_to(cr, x0 + L - 40, py + 4);
        cairo_show_text(cr, lab);
    }
    double step = nx > 1 ? pw / (nx - 1) : 0;
    int every = nx > 24 ? (nx + 23) / 24 : 1;
#define PX(x) (x0 + L + (nx > 1 ? (x) * step : pw / 2))
#define PY(v) (y0 + T + ph * (1 - ((v) - lo) / (hi - lo)))
    for (int x = 0; x < nx; x += every) {
        cairo_save(cr);
        cairo_move_to(cr, PX(x) - 4, y0 + H - B + 16);
        cairo_rotate(cr, M_PI / 5);
        cairo_show_text(cr, xlabels[x]);
        cairo_restore(cr);
    }
    cairo_move_to(cr, x0 + L + pw / 2 - 40, y0 + H - 12);
    cairo_show_text(cr, xtitle);
    cairo_save(cr);
    cairo_move_to(cr, x0 + 22, y0 + T + ph / 2 + 30);
    cairo_rotate(cr, -M_PI / 2);
    cairo_show_text(cr, "F1 (shingles)");
    cairo_restore(cr);
    cairo_rectangle(cr, x0 + L, y0 + T, pw, ph);
    cairo_stroke(cr);
    for (int i = 0; i < ns; i++) {
        const double *c = s[i].bold ? (const double[3]){0, 0, 0} : colours[i % 10];
        cairo_set_source_rgb(cr, c[0], c[1], c[2]);
        cairo_set_line_width(cr, s[i].bold ? 3.5 : 2);
        for (int x = 0; x < nx; x++) {
            if (x == 0)
                cairo_move_to(cr, PX(x), PY(s[i].y[x]));
            else
                cairo_line_to(cr, PX(x), PY(s[i].y[x]));
        }
        cairo_stroke(cr);
        for (int x = 0; x < nx; x++) {
            cairo_arc(cr, PX(x), PY(s[i].y[x]), s[i].bold ? 4 : 3, 0, 2 * M_PI);
            cairo_fill(cr);
        }
        if (i < 24) { /* the legend */
            cairo_rectangle(cr, x0 + W - R + 20, y0 + T + 10 + i * 22, 22, s[i].bold ? 5 : 3);
            cairo_fill(cr);
            cairo_set_source_rgb(cr, 0, 0, 0);
            cairo_move_to(cr, x0 + W - R + 50, y0 + T + 16 + i * 22);
            cairo_show_text(cr, s[i].name);
        }
    }
#undef PX
#undef PY
}

/* F1 per window, a line per row (all pages bold), at setting `best`; and,
 * with several settings, F1 over all pages per setting, a line per
 * window. */
static int draw_chart(const char *path, const char *method, const sweep_axes *ax,
                      const eval_scores *sc, const sweep_row *rows, size_t n_rows, int best)
{
    const int W = 1100, H = 560;
    int panels = ax->settings > 1 ? 2 : 1;
    int nw = ax->v[0].n, ns = ax->settings;
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H * panels);
    cairo_t *cr = cairo_create(surf);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    size_t n_lines = 0;
    while (n_lines < n_rows && n_lines < 11 && strcmp(rows[n_lines].by, "group") != 0)
        n_lines++; /* all and the kinds; the groups are in the CSV */
    double *y = calloc((n_lines + (size_t)nw) * (size_t)(nw > ns ? nw : ns), sizeof *y);
    series *s = calloc(n_lines + (size_t)nw, sizeof *s);
    char **labels = calloc((size_t)(nw > ns ? nw : ns), sizeof *labels);
    char (*names)[64] = calloc(n_lines + (size_t)nw, sizeof *names);
    int rc = -1;
    if (!y || !s || !labels || !names)
        goto out;
    for (size_t r = 0; r < n_lines; r++) {
        snprintf(names[r], sizeof names[r], "%s (%zu)", rows[r].name, rows[r].pages);
        s[r] = (series){names[r], y + r * (size_t)nw, r == 0};
        for (int w = 0; w < nw; w++)
            y[r * (size_t)nw + (size_t)w] = sc[((size_t)(w * ns + best)) * n_rows + r].f1;
    }
    for (int w = 0; w < nw; w++)
        labels[w] = ax->v[0].values[w];
    char title[400], setting[256];
    setting_text(ax, best, 0, setting, sizeof setting);
    snprintf(title, sizeof title, "%s: F1 by window, a line per kind (%s)", method, setting);
    draw_lines(cr, 0, 0, W, H, title, "window (px)", labels, nw, s, (int)n_lines);
    if (panels == 2) {
        char (*lab)[64] = calloc((size_t)ns, sizeof *lab);
        if (!lab)
            goto out;
        for (int k = 0; k < ns; k++) {
            setting_text(ax, k, 1, lab[k], sizeof lab[k]);
            labels[k] = lab[k];
        }
        for (int w = 0; w < nw; w++) {
            s[w] = (series){ax->v[0].values[w], y + (size_t)w * (size_t)ns, 0};
            for (int k = 0; k < ns; k++)
                y[(size_t)w * (size_t)ns + (size_t)k] = sc[((size_t)(w * ns + k)) * n_rows].f1;
        }
        snprintf(title, sizeof title, "%s: F1 over all pages by setting, a line per window",
                 method);
        draw_lines(cr, 0, H, W, H, title, "setting", labels, ns, s, nw);
        free(lab);
    }
    rc = cairo_surface_write_to_png(surf, path) == CAIRO_STATUS_SUCCESS ? 0 : -1;
out:
    free(y);
    free(s);
    free(labels);
    free(names);
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    /* cairo's text API opened fontconfig's default configuration; hand both
     * back, so that leak checkers see a clean exit (glance's own fonts use
     * configurations of their own, all freed by now). */
    cairo_debug_reset_static_data();
    FcFini();
    return rc;
}

/* The table of F1 per window (a line) and row (a column) at setting k. */
static void print_table(FILE *f, const sweep_axes *ax, const eval_scores *sc,
                        const sweep_row *rows, size_t n_rows, int k)
{
    fprintf(f, "%-12s", "window");
    for (size_t r = 0; r < n_rows; r++) {
        char head[80];
        snprintf(head, sizeof head, "%s%s (%zu)", strcmp(rows[r].by, "group") == 0 ? "group " : "",
                 rows[r].name, rows[r].pages);
        fprintf(f, " %*s", (int)(strlen(head) > 8 ? strlen(head) : 8), head);
    }
    fputc('\n', f);
    for (int w = 0; w < ax->v[0].n; w++) {
        fprintf(f, "%-12s", ax->v[0].values[w]);
        for (size_t r = 0; r < n_rows; r++) {
            char head[80];
            int width = snprintf(head, sizeof head, "%s%s (%zu)",
                                 strcmp(rows[r].by, "group") == 0 ? "group " : "", rows[r].name,
                                 rows[r].pages);
            fprintf(f, " %*.3f", width > 8 ? width : 8,
                    sc[((size_t)(w * ax->settings + k)) * n_rows + r].f1);
        }
        fputc('\n', f);
    }
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++)
        if (*s == '"')
            fputs("\"\"", f);
        else
            fputc(*s, f);
    fputc('"', f);
}

int cmd_sweep(int argc, char **argv)
{
    const char *pages_dir = NULL, *truth_path = NULL, *csv_path = "sweep.csv",
               *png_path = "sweep.png";
    int jobs = 1, code = EXIT_USAGE;
    sweep_axes ax = {0};
    static const char *const valued[] = {"--pages", "--truth", "--jobs", "--csv", "--png"};
    const char **slots[] = {&pages_dir, &truth_path, NULL, &csv_path, &png_path};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        size_t v = 0, nv = sizeof valued / sizeof valued[0];
        while (v < nv && strcmp(a, valued[v]) != 0)
            v++;
        if (v < nv) {
            if (i + 1 >= argc) {
                fprintf(stderr, "glance sweep: %s needs a value (glance sweep --help)\n", a);
                goto out;
            }
            const char *val = argv[++i];
            double d;
            if (!slots[v] && (cli_parse_double(val, &d) || d < 1 || d > 256 || d != floor(d))) {
                fprintf(stderr, "glance sweep: bad value '%s' for --jobs (1 to 256)\n", val);
                goto out;
            }
            if (slots[v])
                *slots[v] = val;
            else
                jobs = (int)d;
            continue;
        }
        if (cli_is_version(a)) {
            code = cli_version();
            goto out;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage_sweep(stdout);
            code = 0;
            goto out;
        }
        if (strncmp(a, "--", 2) != 0 || !a[2]) {
            cli_bad_flag("sweep", a);
            goto out;
        }
        const char *name = a + 2, *list = NULL;
        size_t n;
        if (strcmp(name, "set") == 0) { /* --set KEY=LIST */
            const char *kv = i + 1 < argc ? argv[++i] : "";
            const char *eq = strchr(kv, '=');
            if (!eq) {
                fprintf(stderr, "glance sweep: --set takes KEY=LIST\n");
                goto out;
            }
            name = kv;
            n = (size_t)(eq - kv);
            list = eq + 1;
        } else {
            const char *eq = strchr(name, '=');
            n = eq ? (size_t)(eq - name) : strlen(name);
            list = eq ? eq + 1 : NULL;
        }
        glance_option_info info;
        if (!list && n > 3 && strncmp(name, "no-", 3) == 0 &&
            cli_option_find(name + 3, n - 3, &info) >= 0 && strcmp(info.type, "on|off") == 0) {
            name += 3;
            n -= 3;
            list = "off";
        }
        if (!list) {
            int sw = cli_option_find(name, n, &info) >= 0 && strcmp(info.type, "on|off") == 0;
            if (sw && (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0))
                list = "on"; /* a switch alone */
            else if (i + 1 < argc)
                list = argv[++i];
            else {
                fprintf(stderr, "glance sweep: %s needs a value (glance sweep --help)\n", a);
                goto out;
            }
        }
        int r = axis_add(&ax, name, n, list);
        if (r != 0) {
            code = r < 0 ? EXIT_INTERNAL : r;
            if (r < 0)
                fprintf(stderr, "glance sweep: out of memory\n");
            goto out;
        }
    }
    if (!pages_dir || !truth_path) {
        fprintf(stderr, "glance sweep: give --pages and --truth (glance sweep --help)\n");
        goto out;
    }
    /* The window and the method are always columns, at their defaults
     * when not given. */
    int have_window = 0, have_method = 0;
    for (int a = 0; a < ax.n; a++) {
        have_window |= strcmp(ax.v[a].key, "window") == 0;
        have_method |= strcmp(ax.v[a].key, "method") == 0;
    }
    if ((!have_window && axis_add(&ax, "window", 6, "1920x1080") != 0) ||
        (!have_method && axis_add(&ax, "method", 6, "auto") != 0)) {
        fprintf(stderr, "glance sweep: out of memory\n");
        code = EXIT_INTERNAL;
        goto out;
    }
    if ((code = axes_order(&ax)) != 0)
        goto out;
    code = EXIT_USAGE;
    /* Every value in range, said before any page is laid out. */
    glance_options *check = glance_options_new();
    for (int a = 0; check && a < ax.n; a++)
        for (int j = 0; j < ax.v[a].n; j++)
            if (glance_options_set(check, ax.v[a].key, ax.v[a].values[j]) != GLANCE_OK) {
                fprintf(stderr, "glance sweep: %s\n", glance_options_error(check));
                glance_options_free(check);
                goto out;
            }
    char *limit = check ? glance_options_get(check, "max_input_bytes") : NULL;
    glance_options_free(check);
    if (!limit) {
        fprintf(stderr, "glance sweep: out of memory\n");
        code = EXIT_INTERNAL;
        goto out;
    }
    size_t max_bytes = (size_t)strtoull(limit, NULL, 10);
    free(limit);

    corpus corp;
    int started = corpus_start("sweep", pages_dir, truth_path, &corp);
    if (started != 0) {
        code = started;
        goto out;
    }
    size_t n = corp.n;
    int layouts = ax.total / ax.per_layout;
    fprintf(stderr, "glance sweep: %zu pages x %d combinations (%d per window, %d layouts per page)\n",
            n, ax.total, ax.settings, layouts);
    sweep_run run = {.ax = &ax, .pages = corp.pages, .n = n, .truth = corp.truth,
                     .max_bytes = max_bytes};
    run.out = calloc(n, sizeof *run.out);
    int *page_rows = calloc(n * 2 + 1, sizeof *page_rows);
    sweep_row *rows = NULL;
    size_t n_rows = 0;
    eval_summary *sums = NULL;
    size_t *answered = NULL;
    eval_scores *sc = NULL;
    code = EXIT_INTERNAL;
    if (!run.out || !page_rows) {
        fprintf(stderr, "glance sweep: out of memory\n");
        goto end;
    }
    if (pool_run(n, jobs, "sweep", sweep_page, &run, NULL) != 0) {
        fprintf(stderr, "glance sweep: stopped (fonts or memory)\n");
        goto end;
    }
    if (rows_of(&run, &rows, &n_rows, page_rows) != 0 ||
        !(sums = calloc((size_t)ax.total * n_rows, sizeof *sums)) ||
        !(answered = calloc((size_t)ax.total * n_rows, sizeof *answered)) ||
        !(sc = calloc((size_t)ax.total * n_rows, sizeof *sc))) {
        fprintf(stderr, "glance sweep: out of memory\n");
        goto end;
    }
    /* Sums in page order, whatever the number of jobs. */
    for (size_t i = 0; i < n; i++) {
        page_scores *ps = &run.out[i];
        if (!ps->ready)
            continue;
        int in[3] = {0, page_rows[i * 2], page_rows[i * 2 + 1]};
        for (int k = 0; k < ax.total; k++) {
            const struct scored *s = &ps->scores[ps->which[k]];
            for (int j = 0; j < 3; j++)
                if (in[j] >= 0) {
                    size_t at = (size_t)k * n_rows + (size_t)in[j];
                    scores_summary_add(&sums[at], &s->sc);
                    answered[at] += s->answered != 0;
                }
        }
    }
    for (size_t k = 0; k < (size_t)ax.total * n_rows; k++)
        eval_summary_scores(&sums[k], &sc[k]);

    code = 0;
    FILE *csv = fopen(csv_path, "w");
    if (!csv) {
        fprintf(stderr, "glance sweep: cannot write %s: %s\n", csv_path, strerror(errno));
        code = EXIT_INTERNAL;
    } else {
        for (int a = 0; a < ax.n; a++)
            fprintf(csv, "%s,", ax.v[a].key);
        fprintf(csv, "by,kind,pages,answered,f1,precision,recall,accuracy,scripts_f1,"
                     "lcs_f1,lcs_f05,lcs_precision,lcs_recall,blocks_f1,blocks_f05,"
                     "blocks_precision,blocks_recall\n");
        for (int k = 0; k < ax.total; k++)
            for (size_t r = 0; r < n_rows; r++) {
                const eval_scores *s = &sc[(size_t)k * n_rows + r];
                for (int a = 0; a < ax.n; a++)
                    fprintf(csv, "%s,", value_of(&ax, k, a));
                fprintf(csv, "%s,", rows[r].by);
                csv_field(csv, rows[r].name);
                fprintf(csv, ",%zu,%zu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,"
                             "%.4f,%.4f\n",
                        s->pages, answered[(size_t)k * n_rows + r], s->f1, s->precision,
                        s->recall, s->accuracy, s->scripts_f1, s->lcs_f1, s->lcs_f05, s->lcs_p,
                        s->lcs_r, s->blk_f1, s->blk_f05, s->blk_p, s->blk_r);
            }
        if (fclose(csv) != 0) {
            fprintf(stderr, "glance sweep: cannot write %s\n", csv_path);
            code = EXIT_INTERNAL;
        }
    }
    /* The setting whose F1 over all pages, averaged over the windows, is
     * the highest (ties: the earlier). */
    int best = 0;
    double best_mean = -1;
    for (int k = 0; k < ax.settings; k++) {
        double m = 0;
        for (int w = 0; w < ax.v[0].n; w++)
            m += sc[((size_t)(w * ax.settings + k)) * n_rows].f1;
        if (m > best_mean) {
            best_mean = m;
            best = k;
        }
    }
    char setting[256];
    printf("glance sweep: %zu pages of %s (%zu scored), %d combinations\n", n, pages_dir,
           rows[0].pages, ax.total);
    if (ax.settings > 1) {
        /* The best ten settings by mean F1 over the windows. */
        int *order = malloc((size_t)ax.settings * sizeof *order);
        double *mean = calloc((size_t)ax.settings, sizeof *mean);
        if (order && mean) {
            for (int k = 0; k < ax.settings; k++) {
                order[k] = k;
                for (int w = 0; w < ax.v[0].n; w++)
                    mean[k] += sc[((size_t)(w * ax.settings + k)) * n_rows].f1 / ax.v[0].n;
            }
            for (int a = 0; a < ax.settings && a < 10; a++) /* partial selection sort */
                for (int b = a + 1; b < ax.settings; b++)
                    if (mean[order[b]] > mean[order[a]]) {
                        int t = order[a];
                        order[a] = order[b];
                        order[b] = t;
                    }
            printf("best %d of %d settings by F1 over all pages, the mean over %d window(s):\n",
                   ax.settings < 10 ? ax.settings : 10, ax.settings, ax.v[0].n);
            for (int a = 0; a < ax.settings && a < 10; a++) {
                setting_text(&ax, order[a], 1, setting, sizeof setting);
                printf("  %.3f  %s\n", mean[order[a]], setting);
            }
        }
        free(order);
        free(mean);
    }
    setting_text(&ax, best, 0, setting, sizeof setting);
    printf("F1 (shingles, the benchmark's) by window and kind, %s:\n", setting);
    print_table(stdout, &ax, sc, rows, n_rows, best);
    const char *method = "auto";
    for (int a = 0; a < ax.n; a++)
        if (strcmp(ax.v[a].key, "method") == 0)
            method = value_of(&ax, best, a);
    if (draw_chart(png_path, method, &ax, sc, rows, n_rows, best) != 0) {
        fprintf(stderr, "glance sweep: cannot write %s\n", png_path);
        code = EXIT_INTERNAL;
    } else if (code == 0) {
        fprintf(stderr, "glance sweep: wrote %s and %s\n", csv_path, png_path);
    }
end:
    for (size_t i = 0; run.out && i < n; i++) {
        free(run.out[i].which);
        free(run.out[i].scores);
    }
    free(run.out);
    free(page_rows);
    free(rows);
    free(sums);
    free(answered);
    free(sc);
    corpus_end(&corp);
out:
    axes_free(&ax);
    return code;
}
