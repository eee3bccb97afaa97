/* glance bench and glance sweep on a corpus of three fixture pages (one
 * gzip-compressed) with a truth file written here: the commands run, count
 * what they should, score what they should, and give the same scores
 * whatever the number of jobs; the tables per page kind and per group and
 * the snippets on truths that have them; a page's local stylesheets. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/clock.h"
#include "run.h"

static char dir[] = "/tmp/glance-bench-XXXXXX";
static char pages[600], truth[600], truth_kinds[600];

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(pages, sizeof pages, "%s/pages", dir);
    snprintf(truth, sizeof truth, "%s/truth.json", dir);
    snprintf(truth_kinds, sizeof truth_kinds, "%s/truth-kinds.json", dir);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "mkdir %s && cp %s/news.html %s/article-tag.html %s/ && gzip -c %s/gce-fails.html > %s/gce-fails.html.gz",
             pages, FIXTURES_DIR, FIXTURES_DIR, pages, FIXTURES_DIR, pages);
    if (system(cmd) != 0)
        return -1;
    /* news: its story exactly as glance gives it (checked by test_fixtures
     * to hold these paragraphs); article-tag: a text glance cannot match
     * wholly; gce-fails: GCE finds nothing. */
    FILE *f = fopen(truth, "w");
    if (!f)
        return -1;
    fputs("{\"news\": {\"articleBody\": \"The turbines under the old ferry pier began turning on "
          "Tuesday morning\"},\n"
          " \"article-tag\": {\"articleBody\": \"Most bread recipes ask for more yeast than the "
          "dough needs.\"},\n"
          " \"gce-fails\": {\"articleBody\": \"Present: eleven members and the secretary.\"},\n"
          " \"elsewhere\": {\"articleBody\": \"a page not in the corpus\"}}\n",
          f);
    if (fclose(f) != 0)
        return -1;
    /* The same pages with a kind, a group and snippets, as modern-dev's and
     * lang-dev's truths give them. What the snippets find follows from the
     * fixtures' .expect files (test_fixtures checks them): news contains
     * its first and last sentences and excludes "Subscribe"; article-tag
     * contains its first sentence and excludes "More recipes"; with
     * --method gce, gce-fails gives nothing. */
    if (!(f = fopen(truth_kinds, "w")))
        return -1;
    fputs("{\"news\": {\"articleBody\": \"The turbines under the old ferry pier began turning on "
          "Tuesday morning\", \"type\": \"article\", \"group\": \"Latin\",\n"
          "  \"with\": [\"The turbines under the old  ferry pier began turning\",\n"
          "            \"a decision on funding is expected early next year.\"],\n"
          "  \"without\": [\"Subscribe\", \"The turbines under the old ferry pier\"]},\n"
          " \"article-tag\": {\"articleBody\": \"Most bread recipes ask for more yeast than the "
          "dough needs.\", \"type\": \"blog\", \"group\": \"Latin\",\n"
          "  \"with\": [\"Most bread recipes ask for more yeast than the dough needs.\",\n"
          "            \"A sentence that is on no page.\"],\n"
          "  \"without\": [\"More recipes\"]},\n"
          " \"gce-fails\": {\"articleBody\": \"Present: eleven members and the secretary.\",\n"
          "  \"type\": \"forum\", \"group\": \"CJK\",\n"
          "  \"with\": [\"Present: eleven members and the secretary.\"], \"without\": [\"Nothing\"]}}\n",
          f);
    return fclose(f);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void bench_counts_and_scores(void **state)
{
    (void)state;
    char args[2048];
    snprintf(args, sizeof args, "bench --method gce --pages %s --truth %s --out %s/out1.json",
             pages, truth, dir);
    run_out r = run_in(dir, args);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    assert_non_null(strstr(r.out, "glance bench: 3 pages"));
    assert_non_null(strstr(r.out, "answered 2 (gce 2), no main content 1, errors 0; scored 3"));
    /* news and article-tag: every true shingle found (recall 1 on both),
     * gce-fails: none. Recall mean 2/3. */
    char *line = strstr(r.out, "  shingles (benchmark)");
    assert_non_null(line);
    double f1, p, rc, acc;
    assert_int_equal(sscanf(line + 22, "%lf %lf %lf %lf", &f1, &p, &rc, &acc), 4);
    assert_true(fabs(rc - 2 / 3.0) < 1e-3);
    assert_true(p > 0 && p < 0.5); /* the outputs hold much more than the truth */
    assert_true(acc == 0);
    assert_non_null(strstr(r.out, "pages/s"));
    assert_non_null(strstr(r.out, "peak resident memory"));
    /* The --out file scores the same through --score. */
    char again[2048];
    snprintf(again, sizeof again, "bench --score %s/out1.json --truth %s", dir, truth);
    run_out s = run_in(dir, again);
    assert_int_equal(s.code, 0);
    char *l2 = strstr(s.out, "  shingles (benchmark)");
    assert_non_null(l2);
    double f1b, pb, rb;
    assert_int_equal(sscanf(l2 + 22, "%lf %lf %lf", &f1b, &pb, &rb), 3);
    /* --score walks the truth's ids: "elsewhere" adds a page with no
     * output, so recall is 2/4 there. */
    assert_true(fabs(rb - 0.5) < 1e-3);
    assert_true(fabs(pb - p) < 1e-3);
    run_free(&s);
    run_free(&r);
    /* The default, auto, is the scorer: it answers every page, gce-fails
     * (where GCE finds nothing) too. */
    snprintf(args, sizeof args, "bench --pages %s --truth %s", pages, truth);
    r = run_in(dir, args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "method auto"));
    assert_non_null(strstr(r.out, "answered 3 (score 3), no main content 0"));
    line = strstr(r.out, "  shingles (benchmark)");
    assert_non_null(line);
    assert_int_equal(sscanf(line + 22, "%lf %lf %lf %lf", &f1, &p, &rc, &acc), 4);
    assert_true(fabs(rc - 1) < 1e-3); /* every true shingle found */
    /* This truth has no kind, group or snippets: no table, no snippet line. */
    assert_null(strstr(r.out, "by kind"));
    assert_null(strstr(r.out, "by group"));
    assert_null(strstr(r.out, "snippets"));
    run_free(&r);
}

/* The score lines of a bench run (everything from the first table on). */
static char *score_lines(const char *out)
{
    const char *a = strstr(out, "  shingles"), *b = strstr(out, "time per page");
    assert_non_null(a);
    assert_non_null(b);
    return strndup(a, (size_t)(b - a));
}

/* The numbers after a row's name in a table of the output: pages, F1,
 * precision, recall, the variant's F1 and (when wanted) the snippets' F. */
typedef struct row {
    double pages, f1, p, r, f1_scripts, snippet_f;
} row;

static row table_row(const char *out, const char *table, const char *name, int snippets)
{
    const char *t = strstr(out, table);
    if (!t)
        fail_msg("no table \"%s\" in:\n%s", table, out);
    char key[128];
    snprintf(key, sizeof key, "\n  %s ", name);
    const char *line = strstr(t, key);
    if (!line)
        fail_msg("no row \"%s\" in:\n%s", name, t);
    row r = {0};
    int got = sscanf(line + strlen(key), "%lf %lf %lf %lf %lf %lf", &r.pages, &r.f1, &r.p, &r.r,
                     &r.f1_scripts, &r.snippet_f);
    if (got != 5 + snippets)
        fail_msg("row \"%s\": %d numbers", name, got);
    return r;
}

#define near3(a, b) assert_true(fabs((a) - (b)) < 6e-4) /* printed to 3 places */

/* --score with files written here: every number worked out by hand. */
static void bench_tables_by_hand(void **state)
{
    (void)state;
    char t[700], o[700], args[2048];
    snprintf(t, sizeof t, "%s/hand-truth.json", dir);
    snprintf(o, sizeof o, "%s/hand-out.json", dir);
    FILE *f = fopen(t, "w");
    assert_non_null(f);
    fputs("{\"a1\": {\"articleBody\": \"one two three four five\", \"type\": \"article\",\n"
          "        \"group\": \"Latin\", \"with\": [\"two three\"], \"without\": [\"Sign in\"]},\n"
          " \"a2\": {\"articleBody\": \"中文字体设计\", \"type\": \"article\", \"group\": \"CJK\",\n"
          "        \"with\": [\"字体\", \"设计图\", \"中文\"], \"without\": [\"登录\"]},\n"
          " \"f1\": {\"articleBody\": \"alpha beta gamma delta\", \"type\": \"forum\",\n"
          "        \"group\": \"Latin\", \"with\": [\"alpha beta\", \"delta epsilon\"],\n"
          "        \"without\": [\"Reply\", \"Log in\"]},\n"
          " \"x\": {\"articleBody\": \"lone page here now\"}}\n",
          f);
    assert_int_equal(fclose(f), 0);
    f = fopen(o, "w");
    assert_non_null(f);
    fputs("{\"a1\": {\"articleBody\": \"one two three four five Sign in\"},\n"
          " \"a2\": {\"articleBody\": \"中文字体\"},\n"
          " \"f1\": {\"articleBody\": \"alpha beta gamma delta\"}}\n",
          f);
    assert_int_equal(fclose(f), 0);
    snprintf(args, sizeof args, "bench --score %s --truth %s", o, t);
    run_out r = run_in(dir, args);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    /* Per page, benchmark tokens (P, R): a1 4 output shingles, 2 true, both
     * found (1/2, 1); a2 one token each, different (0, 0); f1 exact (1, 1);
     * x no output (R 0, P not counted). P = 1.5/3, R = 2/4, F1 1/2,
     * accuracy 1/4. Variant: a2 per character: 3 true shingles, the output's
     * one among them (1, 1/3): P = 2.5/3, R = (7/3)/4, F1 = 0.686. */
    double v[4];
    char *line = strstr(r.out, "  shingles (benchmark)");
    assert_non_null(line);
    assert_int_equal(sscanf(line + 22, "%lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3]), 4);
    near3(v[0], 0.5);
    near3(v[1], 0.5);
    near3(v[2], 0.5);
    near3(v[3], 0.25);
    line = strstr(r.out, "  shingles (scripts)");
    assert_non_null(line);
    assert_int_equal(sscanf(line + 22, "%lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3]), 4);
    double p = 2.5 / 3, rc = 7 / 12.0;
    near3(v[0], 2 * p * rc / (p + rc));
    near3(v[1], p);
    near3(v[2], rc);
    near3(v[3], 0.25);
    /* Snippets: a1 "two three" found, "Sign in" found (a false positive);
     * a2 字体 and 中文 found, 设计图 not, 登录 not; f1 "alpha beta" found,
     * "delta epsilon" not, Reply and "Log in" not. tp 4, fn 2, fp 1, tn 3:
     * P 4/5, R 4/6, F 8/11. x has none. */
    line = strstr(r.out, "  snippets");
    assert_non_null(line);
    assert_int_equal(sscanf(line + 22, "%lf %lf %lf", &v[0], &v[1], &v[2]), 3);
    near3(v[0], 8 / 11.0);
    near3(v[1], 0.8);
    near3(v[2], 4 / 6.0);
    assert_non_null(strstr(line, "with: 4 of 6 found; without: 1 of 4 found"));
    /* By kind: article (a1, a2) P (1/2 + 0)/2, R (1 + 0)/2; variant P
     * (1/2 + 1)/2, R (1 + 1/3)/2; snippets tp 3, fn 1, fp 1: F 3/4. forum
     * (f1) all 1; snippets tp 1, fn 1: F 2/3. x has no kind. */
    row a = table_row(r.out, "by kind (\"type\")", "article", 1);
    near3(a.pages, 2);
    near3(a.p, 0.25);
    near3(a.r, 0.5);
    near3(a.f1, 1 / 3.0);
    near3(a.f1_scripts, 2 * 0.75 * (2 / 3.0) / (0.75 + 2 / 3.0));
    near3(a.snippet_f, 0.75);
    row fo = table_row(r.out, "by kind (\"type\")", "forum", 1);
    near3(fo.pages, 1);
    near3(fo.f1, 1);
    near3(fo.f1_scripts, 1);
    near3(fo.snippet_f, 2 / 3.0);
    /* Most pages first. */
    assert_true(strstr(r.out, "\n  article ") < strstr(r.out, "\n  forum "));
    /* By group: Latin (a1, f1) P 3/4, R 1; snippets tp 2, fn 1, fp 1: F
     * 2/3. CJK (a2): 0 with the benchmark's tokens, P 1, R 1/3 with the
     * variant's (F1 1/2); snippets tp 2, fn 1: F 4/5. */
    row la = table_row(r.out, "by group (\"group\")", "Latin", 1);
    near3(la.pages, 2);
    near3(la.p, 0.75);
    near3(la.r, 1);
    near3(la.f1, 1.5 / 1.75);
    near3(la.f1_scripts, 1.5 / 1.75);
    near3(la.snippet_f, 2 / 3.0);
    row cjk = table_row(r.out, "by group (\"group\")", "CJK", 1);
    near3(cjk.pages, 1);
    near3(cjk.f1, 0);
    near3(cjk.f1_scripts, 0.5);
    near3(cjk.snippet_f, 0.8);
    assert_true(strstr(r.out, "\n  Latin ") < strstr(r.out, "\n  CJK "));
    run_free(&r);
}

/* A number in the --out file: the first `key` after each of `path`'s keys
 * in turn (the file is json-c's pretty print: "key":value). */
static double out_number(const char *text, const char *const *path, size_t n, const char *key)
{
    const char *at = strstr(text, "\"summary\"");
    char k[128];
    for (size_t i = 0; at && i < n; i++) {
        snprintf(k, sizeof k, "\"%s\":", path[i]);
        at = strstr(at, k);
    }
    snprintf(k, sizeof k, "\"%s\":", key);
    if (!at || !(at = strstr(at, k)))
        fail_msg("no %s under %s in the --out file", key, n ? path[n - 1] : "summary");
    return strtod(at + strlen(k), NULL);
}

/* --pages: the same tables on glance's own output, in the --out file's
 * summary too, and the same again when --score reads that file back. */
static void bench_pages_tables_and_snippets(void **state)
{
    (void)state;
    char args[2048], out[700];
    snprintf(out, sizeof out, "%s/kinds.json", dir);
    snprintf(args, sizeof args, "bench --method gce --pages %s --truth %s --out %s", pages,
             truth_kinds, out);
    run_out r = run_in(dir, args);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    /* news: both `with` found, "Subscribe" not, its own first words (a
     * `without` here) found; article-tag: one of two `with`, "More recipes"
     * not; gce-fails: nothing. tp 3, fn 2, fp 1, tn 3: P 3/4, R 3/5, F 2/3. */
    char *line = strstr(r.out, "  snippets");
    assert_non_null(line);
    double v[3];
    assert_int_equal(sscanf(line + 22, "%lf %lf %lf", &v[0], &v[1], &v[2]), 3);
    near3(v[0], 2 / 3.0);
    near3(v[1], 0.75);
    near3(v[2], 0.6);
    assert_non_null(strstr(line, "with: 3 of 5 found; without: 1 of 4 found"));
    /* article (news): tp 2, fp 1: F 4/5; blog (article-tag): tp 1, fn 1: F
     * 2/3; forum (gce-fails): F 0. Every true shingle of news and
     * article-tag is found (recall 1), none of gce-fails. */
    row a = table_row(r.out, "by kind", "article", 1), b = table_row(r.out, "by kind", "blog", 1),
        fo = table_row(r.out, "by kind", "forum", 1);
    near3(a.snippet_f, 0.8);
    near3(b.snippet_f, 2 / 3.0);
    near3(fo.snippet_f, 0);
    near3(a.r, 1);
    near3(b.r, 1);
    near3(fo.r, 0);
    near3(fo.f1, 0);
    near3(a.pages + b.pages + fo.pages, 3);
    row la = table_row(r.out, "by group", "Latin", 1), cjk = table_row(r.out, "by group", "CJK", 1);
    near3(la.pages, 2);
    near3(la.r, 1);
    near3(cjk.r, 0);
    /* The --out file's summary says the same. */
    char *text = slurp(out);
    const char *art[] = {"by_type", "article", "snippets"};
    assert_true(out_number(text, art, 3, "tp") == 2);
    assert_true(out_number(text, art, 3, "fp") == 1);
    near3(out_number(text, art, 3, "f1"), 0.8);
    const char *cj[] = {"by_group", "CJK"};
    assert_true(out_number(text, cj, 2, "pages") == 1);
    const char *all[] = {"snippets"};
    assert_true(out_number(text, all, 1, "tn") == 3);
    free(text);
    /* And --score reads the file back into the same tables. */
    snprintf(args, sizeof args, "bench --score %s --truth %s", out, truth_kinds);
    run_out s = run_in(dir, args);
    assert_int_equal(s.code, 0);
    const char *ta = strstr(r.out, "by kind"), *tb = strstr(r.out, "time per page"),
               *sa = strstr(s.out, "by kind");
    assert_non_null(ta);
    assert_non_null(tb);
    assert_non_null(sa);
    assert_int_equal(strlen(sa), (size_t)(tb - ta));
    assert_memory_equal(sa, ta, (size_t)(tb - ta));
    /* The tail of the times. */
    assert_non_null(strstr(r.out, "  99th percentile"));
    run_free(&s);
    run_free(&r);
}

/* A page's local stylesheets apply as glance extract FILE applies them,
 * from a .html and a .html.gz alike: the stylesheet beside the page hides
 * a paragraph (a stylesheet missing beside it is skipped). */
static void bench_local_stylesheets(void **state)
{
    (void)state;
    char sub[700], cmd[4096];
    snprintf(sub, sizeof sub, "%s/styled", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p %s", sub);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/page.html", sub);
    FILE *f = fopen(cmd, "w");
    assert_non_null(f);
    fputs("<!DOCTYPE html><html><head><title>Styled</title>"
          "<link rel=stylesheet href=\"styled.css\"><link rel=stylesheet href=\"missing.css\">"
          "</head><body><div><a href=\"/\">Home</a> <a href=\"/a\">About</a></div><div>"
          "<p>The lighthouse keeper counted the ships that passed the point each night and wrote "
          "their names in a book.</p>"
          "<p class=\"promo\">Buy the lighthouse calendar today and save twenty percent.</p>"
          "<p>In winter the storms came early and the lamp had to be lit before four in the "
          "afternoon.</p>"
          "<p>Nobody reads the book now, but it still sits on the shelf by the stairs.</p>"
          "</div></body></html>\n",
          f);
    assert_int_equal(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "%s/styled.css", sub);
    f = fopen(cmd, "w");
    assert_non_null(f);
    fputs(".promo { display: none }\n", f);
    assert_int_equal(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "gzip -c %s/page.html > %s/zipped.html.gz", sub, sub);
    assert_int_equal(system(cmd), 0);
    char t[700], args[2048];
    snprintf(t, sizeof t, "%s/styled-truth.json", dir);
    f = fopen(t, "w");
    assert_non_null(f);
    fputs("{\"page\": {\"articleBody\": \"The lighthouse keeper\"}, \"zipped\": {\"articleBody\": "
          "\"The lighthouse keeper\"}}\n",
          f);
    assert_int_equal(fclose(f), 0);
    snprintf(args, sizeof args, "bench --pages %s --truth %s --out %s/styled-out.json", sub, t,
             dir);
    run_out r = run_in(dir, args);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    run_free(&r);
    snprintf(cmd, sizeof cmd, "%s/styled-out.json", dir);
    char *text = slurp(cmd);
    snprintf(args, sizeof args, "extract %s/page.html", sub);
    run_out e = run_in(dir, args);
    assert_int_equal(e.code, 0);
    assert_non_null(strstr(e.out, "In winter the storms"));
    assert_null(strstr(e.out, "Buy the lighthouse calendar"));
    /* glance extract prints the title, an empty line, then the text; the
     * --out file holds the text, JSON-escaped (its line breaks as \n). */
    const char *body = strstr(e.out, "\n\n");
    assert_non_null(body);
    char want[2048];
    size_t w = 0;
    for (const char *c = body + 2; *c && w + 3 < sizeof want; c++) {
        if (*c == '\n' && c[1] == '\0')
            break; /* extract's last line break */
        if (*c == '\n') {
            want[w++] = '\\';
            want[w++] = 'n';
        } else {
            want[w++] = *c;
        }
    }
    want[w] = '\0';
    static const char *const ids[] = {"\"page\":{", "\"zipped\":{"};
    for (size_t i = 0; i < 2; i++) {
        char *at = strstr(text, ids[i]);
        assert_non_null(at);
        char *ab = strstr(at, "\"articleBody\":\"");
        assert_non_null(ab);
        ab += strlen("\"articleBody\":\"");
        if (strncmp(ab, want, w) != 0 || ab[w] != '"')
            fail_msg("%s: bench gave\n%.300s\nextract gave\n%s", ids[i], ab, want);
    }
    free(text);
    run_free(&e);
}

/* Writes `text` to the file `dir`/`name`. */
static void put_file(const char *d, const char *name, const char *text)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", d, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* A page of the tree below: an intro, a promotion, and two paragraphs,
 * under the stylesheet `_static/site.css` of the page's own folder. */
static const char tree_page[] =
    "<!DOCTYPE html><html><head><title>Tree</title>"
    "<link rel=stylesheet href=\"_static/site.css\"></head><body>"
    "<div><a href=\"/\">Home</a> <a href=\"/a\">About</a></div><div>"
    "<p class=\"intro\">The harbour office opens at six and closes when the last boat is in.</p>"
    "<p>The lighthouse keeper counted the ships that passed the point each night and wrote "
    "their names in a book.</p>"
    "<p class=\"promo\">Buy the lighthouse calendar today and save twenty percent.</p>"
    "<p>In winter the storms came early and the lamp had to be lit before four in the "
    "afternoon.</p></div></body></html>\n";

/* The articleBody of `id` in a --out file (json-c's print: "id":{, then
 * "articleBody":"...", a slash written as \/), malloc'd; fails the test
 * when absent. */
static char *out_body(const char *text, const char *id)
{
    char key[256];
    size_t k = 0;
    key[k++] = '"';
    for (const char *c = id; *c && k + 4 < sizeof key; c++) {
        if (*c == '/')
            key[k++] = '\\';
        key[k++] = *c;
    }
    snprintf(key + k, sizeof key - k, "\":{");
    const char *at = strstr(text, key);
    if (!at || !(at = strstr(at, "\"articleBody\":\"")))
        fail_msg("no output for %s", id);
    at += strlen("\"articleBody\":\"");
    const char *end = at;
    while (*end && !(*end == '"' && end[-1] != '\\'))
        end++;
    return strndup(at, (size_t)(end - at));
}

/* A corpus in a tree, as the styled documentation corpus is laid out: the
 * pages of every subfolder are found, with their path below the corpus
 * folder as id (a flat page keeps its file name); folders named with a dot
 * and symbolic links to folders are not walked; and each page takes the
 * stylesheets of its own folder, not the corpus folder's nor another
 * page's. */
static void bench_pages_in_subfolders(void **state)
{
    (void)state;
    char tree[700], cmd[8192];
    snprintf(tree, sizeof tree, "%s/tree", dir);
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/_static %s/sphinx/pkg/_static %s/javadoc/other %s/.work && "
             "ln -s %s %s/sphinx/loop",
             tree, tree, tree, tree, tree, tree);
    assert_int_equal(system(cmd), 0);
    /* The corpus folder's stylesheet hides the intro; the sphinx page's own
     * hides the promotion; the javadoc page's folder has none. */
    put_file(tree, "_static/site.css", ".intro { display: none }\n");
    put_file(tree, "sphinx/pkg/_static/site.css", ".promo { display: none }\n");
    put_file(tree, "sphinx/pkg/page.html", tree_page);
    put_file(tree, "javadoc/other/page.html", tree_page);
    put_file(tree, "flat.html", tree_page);
    put_file(tree, ".work/hidden.html", tree_page);
    snprintf(cmd, sizeof cmd, "gzip -c %s/sphinx/pkg/page.html > %s/sphinx/pkg/zipped.html.gz",
             tree, tree);
    assert_int_equal(system(cmd), 0);
    char t[700], o[700], args[4096];
    snprintf(t, sizeof t, "%s/tree-truth.json", dir);
    put_file(dir, "tree-truth.json",
             "{\"sphinx/pkg/page\": {\"articleBody\": \"The lighthouse keeper\", \"type\": "
             "\"sphinx\"},\n"
             " \"sphinx/pkg/zipped\": {\"articleBody\": \"The lighthouse keeper\", \"type\": "
             "\"sphinx\"},\n"
             " \"javadoc/other/page\": {\"articleBody\": \"The lighthouse keeper\", \"type\": "
             "\"javadoc\"},\n"
             " \"flat\": {\"articleBody\": \"The lighthouse keeper\"}}\n");
    snprintf(o, sizeof o, "%s/tree-out.json", dir);
    snprintf(args, sizeof args, "bench --pages %s --truth %s --out %s", tree, t, o);
    run_out r = run_in(dir, args);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    /* Four pages: not .work/hidden, not the pages again through the link
     * sphinx/loop; every one has its truth. */
    assert_non_null(strstr(r.out, "glance bench: 4 pages"));
    assert_non_null(strstr(r.out, "scored 4 (0 without truth)"));
    /* The truth's type gives the table per generator. */
    row sp = table_row(r.out, "by kind", "sphinx", 0), jd = table_row(r.out, "by kind", "javadoc", 0);
    near3(sp.pages, 2);
    near3(jd.pages, 1);
    run_free(&r);
    char *text = slurp(o);
    assert_null(strstr(text, "hidden"));
    assert_null(strstr(text, "loop"));
    static const char *const sphinx_ids[] = {"sphinx/pkg/page", "sphinx/pkg/zipped"};
    for (size_t i = 0; i < 2; i++) {
        /* Its own folder's stylesheet: the promotion hidden, the intro shown
         * (the corpus folder's stylesheet would hide it instead). */
        char *b = out_body(text, sphinx_ids[i]);
        if (!strstr(b, "The harbour office opens at six") || strstr(b, "lighthouse calendar"))
            fail_msg("%s: %s", sphinx_ids[i], b);
        free(b);
    }
    /* No _static/ in its folder: nothing hidden, the sphinx page's sheet does
     * not reach it. */
    char *b = out_body(text, "javadoc/other/page");
    if (!strstr(b, "The harbour office opens at six") || !strstr(b, "lighthouse calendar"))
        fail_msg("javadoc/other/page: %s", b);
    free(b);
    /* The flat page at the top takes the corpus folder's: the intro hidden. */
    b = out_body(text, "flat");
    if (strstr(b, "The harbour office opens at six") || !strstr(b, "lighthouse calendar"))
        fail_msg("flat: %s", b);
    free(b);
    free(text);
    /* --base_dir given wins for every page, as for glance extract: the
     * corpus folder's sheet hides the intro of the sphinx page too. */
    snprintf(args, sizeof args, "bench --pages %s --truth %s --out %s --base_dir %s", tree, t, o,
             tree);
    r = run_in(dir, args);
    assert_int_equal(r.code, 0);
    run_free(&r);
    text = slurp(o);
    b = out_body(text, "sphinx/pkg/page");
    if (strstr(b, "The harbour office opens at six") || !strstr(b, "lighthouse calendar"))
        fail_msg("sphinx/pkg/page with --base_dir: %s", b);
    free(b);
    free(text);
}

static void bench_jobs_give_the_same_scores(void **state)
{
    (void)state;
    char args[2048];
    snprintf(args, sizeof args, "bench --pages %s --truth %s --jobs 1", pages, truth);
    run_out one = run_in(dir, args);
    snprintf(args, sizeof args, "bench --pages %s --truth %s --jobs 3", pages, truth);
    run_out three = run_in(dir, args);
    /* In-process (no worker processes): the same scores too. */
    snprintf(args, sizeof args, "bench --pages %s --truth %s --jobs 2 --in-process", pages, truth);
    run_out inproc = run_in(dir, args);
    assert_int_equal(one.code, 0);
    assert_int_equal(three.code, 0);
    assert_int_equal(inproc.code, 0);
    char *a = score_lines(one.out), *b = score_lines(three.out), *c = score_lines(inproc.out);
    assert_string_equal(a, b);
    assert_string_equal(a, c);
    free(a);
    free(b);
    free(c);
    run_free(&one);
    run_free(&three);
    run_free(&inproc);
}

/* A page past the budget (20 000 float:left siblings, made here: parsed in
 * well under the budget of 3 s, then tens of seconds of layout, which
 * litehtml cannot interrupt) is killed with
 * its worker process at the budget and a second, counted as an error with
 * a message naming the budget, and the run goes on: the next page, on a
 * fresh worker, is answered. */
static void bench_costly_page_is_an_error(void **state)
{
    (void)state;
    char costly[700], out[800], args[4096];
    snprintf(costly, sizeof costly, "%s/costly", dir);
    snprintf(out, sizeof out, "%s/costly.json", dir);
    snprintf(args, sizeof args, "mkdir -p %s && cp %s/news.html %s/", costly, FIXTURES_DIR, costly);
    assert_int_equal(system(args), 0);
    char *p = floats_page(20000, NULL);
    put_file(costly, "a-floats.html", p); /* first: the news page comes after it */
    free(p);
    /* --max_floats: the floats reach the layout, to be killed there. */
    snprintf(args, sizeof args,
             "bench --pages %s --truth %s --time_budget 3 --max_floats 100000 --out %s", costly, truth,
             out);
    double t0 = base_now_ms();
    run_out r = run_in(dir, args);
    double took = base_now_ms() - t0;
    print_message("a costly page and news, budget 3 s: exit %d after %.0f ms\n", r.code, took);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "answered 1 "));
    assert_non_null(strstr(r.out, "errors 1;"));
    char *text = slurp(out);
    assert_non_null(strstr(text, "page too costly: over the budget of 3000 ms (time_budget)"));
    char *body = out_body(text, "news");
    assert_non_null(strstr(body, "The turbines under the old ferry pier began turning"));
    free(body);
    free(text);
    /* The budget and the kill's second, and the rest of the run. */
    assert_true(took < 8000);
    run_free(&r);
}

static void bench_bad_usage(void **state)
{
    (void)state;
    char args[2048];
    const char *bad[] = {"bench", "bench --pages /nonexistent --truth /nonexistent",
                         "bench --pages x --score y --truth z", "bench --jobs 0 --pages x --truth y",
                         "bench --method nosuch --pages x --truth y"};
    const int code[] = {2, 3, 2, 2, 2};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run_out r = run_in(dir, bad[i]);
        if (r.code != code[i])
            fail_msg("glance %s: exit %d, expected %d", bad[i], r.code, code[i]);
        assert_true(strlen(r.err) > 0);
        run_free(&r);
    }
    /* A folder without pages, in it or below it (the temporary folder
     * itself has pages in its subfolders now that bench walks them). */
    char empty[700], cmd[1600];
    snprintf(empty, sizeof empty, "%s/empty", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p %s/sub && echo 'p {}' > %s/sub/style.css", empty, empty);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "bench --pages %s --truth %s", empty, truth);
    run_out r = run_in(dir, args);
    assert_int_equal(r.code, 3);
    assert_non_null(strstr(r.err, "no .html"));
    run_free(&r);
}

/* The F1 of bench's summary line ("  shingles (benchmark)"), and of a row
 * of its table per kind ("  article"). */
static double bench_f1(const char *out, const char *line)
{
    const char *l = strstr(out, line);
    assert_non_null(l);
    double f1;
    if (strncmp(line, "  shingles", 10) == 0) {
        assert_int_equal(sscanf(l + 22, "%lf", &f1), 1);
    } else {
        size_t pages;
        assert_int_equal(sscanf(l + strlen(line), "%zu %lf", &pages, &f1), 2);
    }
    return f1;
}

/* The f1 column of the CSV row that starts with `prefix`. */
static double csv_f1(const char *csv, const char *prefix, int f1_column)
{
    const char *row = strstr(csv, prefix);
    if (!row)
        fail_msg("no row %s in:\n%s", prefix, csv);
    for (int c = 0; c < f1_column; c++)
        row = strchr(row, ',') + 1;
    return atof(row);
}

static void sweep_auto_by_window_and_kind(void **state)
{
    (void)state;
    char args[4096], csv[700], png[700];
    snprintf(csv, sizeof csv, "%s/s.csv", dir);
    snprintf(png, sizeof png, "%s/s.png", dir);
    snprintf(args, sizeof args,
             "sweep --pages %s --truth %s --windows 360x740,1920x1080 --score.threshold 0.3,0.5 "
             "--jobs 2 --csv %s --png %s",
             pages, truth_kinds, csv, png);
    run_out r = run_in(dir, args);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    /* auto by default; 2 windows x 2 thresholds; the table per window and
     * kind. */
    assert_non_null(strstr(r.err, "3 pages x 4 combinations (2 per window, 2 layouts per page)"));
    assert_non_null(strstr(r.out, "by window and kind, method=auto score.threshold="));
    assert_non_null(strstr(r.out, "all (3)"));
    assert_non_null(strstr(r.out, "article (1)"));
    assert_non_null(strstr(r.out, "group CJK (1)"));
    char *text = slurp(csv);
    /* A row per combination and per row of the tables: all, the three
     * kinds, the two groups (Latin 2, CJK 1). */
    int lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 1 + 4 * 6);
    const char *head = "window,method,score.threshold,by,kind,pages,answered,f1,precision,recall,";
    if (strncmp(text, head, strlen(head)) != 0)
        fail_msg("header: %.200s", text);
    assert_non_null(strstr(text, "\n1920x1080,auto,0.5,all,all,3,3,"));
    assert_non_null(strstr(text, "\n1920x1080,auto,0.5,type,forum,1,1,"));
    assert_non_null(strstr(text, "\n360x740,auto,0.3,group,Latin,2,2,"));
    assert_non_null(strstr(text, "\n360x740,auto,0.3,group,CJK,1,1,"));
    char *img = slurp(png);
    assert_true(memcmp(img, "\x89PNG", 4) == 0);
    free(img);
    /* Each window at the default threshold scores as glance bench scores
     * auto at that window: over all pages and per kind. The threshold's
     * other value ran on the same layout first (glance_result_rerun), so
     * the rerun gives what a fresh extraction gives. */
    static const char *const windows[] = {"360x740", "1920x1080"};
    for (int w = 0; w < 2; w++) {
        snprintf(args, sizeof args, "bench --pages %s --truth %s --window %s", pages, truth_kinds,
                 windows[w]);
        run_out b = run_in(dir, args);
        assert_int_equal(b.code, 0);
        static const struct {
            const char *csv, *bench;
        } rows[] = {{"all,all,", "  shingles (benchmark)"},
                    {"type,article,", "  article"},
                    {"type,blog,", "  blog"},
                    {"type,forum,", "  forum"}};
        for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
            char prefix[128];
            snprintf(prefix, sizeof prefix, "\n%s,auto,0.5,%s", windows[w], rows[k].csv);
            double a = csv_f1(text, prefix, 7), b2 = bench_f1(b.out, rows[k].bench);
            if (fabs(a - b2) > 1e-3)
                fail_msg("%s: sweep %.4f, bench %.4f", prefix + 1, a, b2);
        }
        run_free(&b);
    }
    free(text);
    run_free(&r);
}

static void sweep_gce_grid_and_errors(void **state)
{
    (void)state;
    char args[4096], csv[700], png[700];
    snprintf(csv, sizeof csv, "%s/g.csv", dir);
    snprintf(png, sizeof png, "%s/g.png", dir);
    /* GCE's own options, the old flags among them; a truth without kinds
     * has the "all" row alone. */
    snprintf(args, sizeof args,
             "sweep --method gce --pages %s --truth %s --windows 1920x1080 --grids 3x3..3x4,7x8 "
             "--beta 0.25,0.5 --csv %s --png %s",
             pages, truth, csv, png);
    run_out r = run_in(dir, args);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    assert_non_null(strstr(r.out, "best 6 of 6 settings"));
    char *text = slurp(csv);
    int lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 1 + 6);
    assert_true(strncmp(text, "window,method,gce.grid,gce.beta,by,kind,pages,answered,f1,", 58) == 0);
    assert_non_null(strstr(text, "\n1920x1080,gce,3x4,0.25,all,all,3,"));
    /* The default combination answers as glance bench --method gce. */
    snprintf(args, sizeof args, "bench --method gce --pages %s --truth %s", pages, truth);
    run_out b = run_in(dir, args);
    double f1 = bench_f1(b.out, "  shingles (benchmark)");
    assert_true(fabs(csv_f1(text, "\n1920x1080,gce,7x8,0.5,all,all,", 8) - f1) < 1e-3);
    assert_non_null(strstr(text, "\n1920x1080,gce,7x8,0.5,all,all,3,2,")); /* gce-fails: none */
    free(text);
    run_free(&b);
    run_free(&r);
    /* Bad lists and flags: a clear line and the usage status, before any
     * page is laid out. */
    static const struct {
        const char *args, *says;
    } bad[] = {{"--windows 1920", "window: '1920' must be WxH"},
               {"--score.threshold 0.3,2", "score.threshold"},
               {"--gce.alpha 2 --alpha 3", "gce.alpha given twice"},
               {"--no-such-option 1", "unknown option"},
               {"--method gce,nothing", "method"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "sweep --pages %s --truth %s %s --csv %s --png %s", pages,
                 truth, bad[i].args, csv, png);
        run_out e = run_in(dir, args);
        assert_int_equal(e.code, 2);
        if (!strstr(e.err, bad[i].says))
            fail_msg("%s: %s", bad[i].args, e.err);
        run_free(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bench_counts_and_scores),
        cmocka_unit_test(bench_tables_by_hand),
        cmocka_unit_test(bench_pages_tables_and_snippets),
        cmocka_unit_test(bench_local_stylesheets),
        cmocka_unit_test(bench_pages_in_subfolders),
        cmocka_unit_test(bench_jobs_give_the_same_scores),
        cmocka_unit_test(bench_costly_page_is_an_error),
        cmocka_unit_test(bench_bad_usage),
        cmocka_unit_test(sweep_auto_by_window_and_kind),
        cmocka_unit_test(sweep_gce_grid_and_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
