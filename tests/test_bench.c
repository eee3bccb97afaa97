/* glance bench and glance sweep on a corpus of three fixture pages (one
 * gzip-compressed) with a truth file written here: the commands run, count
 * what they should, score what they should, and give the same scores
 * whatever the number of jobs. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run.h"

static char dir[] = "/tmp/glance-bench-XXXXXX";
static char pages[600], truth[600];

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(pages, sizeof pages, "%s/pages", dir);
    snprintf(truth, sizeof truth, "%s/truth.json", dir);
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
    assert_non_null(strstr(r.out, "answered 2 (gce 2, bte 0), no main content 1, errors 0; scored 3"));
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
    /* The default, auto, answers gce-fails with BTE. */
    snprintf(args, sizeof args, "bench --pages %s --truth %s", pages, truth);
    r = run_in(dir, args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "method auto"));
    assert_non_null(strstr(r.out, "answered 3 (gce 2, bte 1), no main content 0"));
    line = strstr(r.out, "  shingles (benchmark)");
    assert_non_null(line);
    assert_int_equal(sscanf(line + 22, "%lf %lf %lf %lf", &f1, &p, &rc, &acc), 4);
    assert_true(fabs(rc - 1) < 1e-3); /* every true shingle found */
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

static void bench_jobs_give_the_same_scores(void **state)
{
    (void)state;
    char args[2048];
    snprintf(args, sizeof args, "bench --pages %s --truth %s --jobs 1", pages, truth);
    run_out one = run_in(dir, args);
    snprintf(args, sizeof args, "bench --pages %s --truth %s --jobs 3", pages, truth);
    run_out three = run_in(dir, args);
    assert_int_equal(one.code, 0);
    assert_int_equal(three.code, 0);
    char *a = score_lines(one.out), *b = score_lines(three.out);
    assert_string_equal(a, b);
    free(a);
    free(b);
    run_free(&one);
    run_free(&three);
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
    /* A folder without pages. */
    snprintf(args, sizeof args, "bench --pages %s --truth %s", dir, truth);
    run_out r = run_in(dir, args);
    assert_int_equal(r.code, 3);
    assert_non_null(strstr(r.err, "no .html"));
    run_free(&r);
}

static void sweep_writes_csv_chart_and_best(void **state)
{
    (void)state;
    char args[4096], csv[700], png[700];
    snprintf(csv, sizeof csv, "%s/s.csv", dir);
    snprintf(png, sizeof png, "%s/s.png", dir);
    snprintf(args, sizeof args,
             "sweep --pages %s --truth %s --windows 1280x1024,1920x1080 --grids 3x3..3x4,7x8 "
             "--alpha 2 --beta 0.25,0.5 --dw 1.7 --jobs 2 --csv %s --png %s",
             pages, truth, csv, png);
    run_out r = run_in(dir, args);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    /* 2 windows x 3 grids (3x3, 3x4, 7x8) x 2 betas = 12 combinations. */
    assert_non_null(strstr(r.out, "best 10 of 12 combinations"));
    char *text = slurp(csv);
    int lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 13);
    assert_true(strncmp(text, "window,grid,alpha,beta,dw,pages,answered,f1", 43) == 0);
    assert_non_null(strstr(text, "1920x1080,7x8,2,0.5,1.7,3,2,"));
    assert_non_null(strstr(text, "1280x1024,3x4,2,0.25,1.7,3,"));
    free(text);
    char *img = slurp(png);
    assert_true(memcmp(img, "\x89PNG", 4) == 0);
    free(img);
    /* The default combination scores as glance bench scores GCE. */
    snprintf(args, sizeof args, "bench --method gce --pages %s --truth %s", pages, truth);
    run_out b = run_in(dir, args);
    char *line = strstr(b.out, "  token LCS (GCE paper)");
    assert_non_null(line);
    double f1, f05;
    assert_int_equal(sscanf(line + 23, "%lf %lf", &f1, &f05), 2);
    text = slurp(csv);
    char *row = strstr(text, "1920x1080,7x8,2,0.5,1.7,");
    assert_non_null(row);
    double v[12];
    int got = sscanf(row + strlen("1920x1080,7x8,2,0.5,1.7,"),
                     "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                     &v[6], &v[7]);
    assert_int_equal(got, 8);
    assert_true(fabs(v[6] - f1) < 1e-3);  /* lcs_f1 */
    assert_true(fabs(v[7] - f05) < 1e-3); /* lcs_f05 */
    free(text);
    run_free(&b);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bench_counts_and_scores),
        cmocka_unit_test(bench_jobs_give_the_same_scores),
        cmocka_unit_test(bench_bad_usage),
        cmocka_unit_test(sweep_writes_csv_chart_and_best),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
