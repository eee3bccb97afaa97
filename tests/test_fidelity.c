/* glance bench --boxes-dir and --fidelity on a corpus of three pages, two
 * with a browser's boxes (the layout fixtures' Chromium boxes, one of them
 * moved off by 200px on one element) and one without: only the pages with
 * boxes run; the fidelity table counts what the library's measure counts;
 * GCE's node is compared on both geometries; the extraction runs on the
 * browser's boxes when asked; bad usage is refused. */
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

#include "glance.h"
#include "opts.h"
#include "run.h"

static char dir[] = "/tmp/glance-fidelity-XXXXXX";
static char pages[600], boxes[600], truth[600];

/* Copies `from` to `to`, moving the box of the element at `xpath` (when
 * not NULL) 200px to the right. */
static int copy_boxes(const char *from, const char *to, const char *xpath)
{
    FILE *in = fopen(from, "r"), *out = fopen(to, "w");
    if (!in || !out)
        return -1;
    char line[8192], key[600];
    snprintf(key, sizeof key, "\"%s\": [", xpath ? xpath : "");
    int moved = 0;
    while (fgets(line, sizeof line, in)) {
        double x, y, w, h;
        if (xpath && strncmp(line, key, strlen(key)) == 0 &&
            sscanf(line + strlen(key), "%lf,%lf,%lf,%lf", &x, &y, &w, &h) == 4) {
            fprintf(out, "%s%g,%g,%g,%g]%s\n", key, x + 200, y, w, h, strstr(line, "],") ? "," : "");
            moved = 1;
        } else {
            fputs(line, out);
        }
    }
    fclose(in);
    return fclose(out) == 0 && (moved || !xpath) ? 0 : -1;
}

#define MOVED "/html[1]/body[1]/div[1]/div[1]"

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(pages, sizeof pages, "%s/pages", dir);
    snprintf(boxes, sizeof boxes, "%s/boxes", dir);
    snprintf(truth, sizeof truth, "%s/truth.json", dir);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "mkdir %s %s && cp %s/layout/block-float.html %s/layout/margin-auto.html %s/news.html %s/",
             pages, boxes, FIXTURES_DIR, FIXTURES_DIR, FIXTURES_DIR, pages);
    if (system(cmd) != 0)
        return -1;
    char from[1024], to[1024];
    snprintf(from, sizeof from, "%s/layout/block-float.boxes.json", FIXTURES_DIR);
    snprintf(to, sizeof to, "%s/block-float.json", boxes);
    if (copy_boxes(from, to, NULL) != 0)
        return -1;
    snprintf(from, sizeof from, "%s/layout/margin-auto.boxes.json", FIXTURES_DIR);
    snprintf(to, sizeof to, "%s/margin-auto.json", boxes);
    if (copy_boxes(from, to, MOVED) != 0)
        return -1;
    FILE *f = fopen(truth, "w");
    if (!f)
        return -1;
    fputs("{\"block-float\": {\"articleBody\": \"The harbour board met on Tuesday to hear the plans "
          "for the new ferry terminal.\"},\n"
          " \"margin-auto\": {\"articleBody\": \"Residents asked how the extra traffic would reach "
          "the pier without crossing the market square.\"},\n"
          " \"news\": {\"articleBody\": \"The turbines under the old ferry pier began turning\"}}\n",
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

/* What the library says of one page: elements compared and agreeing, and
 * whether GCE picks the same node on both geometries. */
static void expected(const char *id, size_t *compared, size_t *agree, int *same)
{
    glance_context *ctx = glance_context_new();
    assert_non_null(ctx);
    char html[1024], json[1024], why[600];
    snprintf(html, sizeof html, "%s/%s.html", pages, id);
    snprintf(json, sizeof json, "%s/%s.json", boxes, id);
    glance_geometry *geo;
    assert_int_equal(glance_geometry_read_file(json, &geo, why, sizeof why), GLANCE_OK);
    glance_options *opt = OPTS("method=gce");
    glance_result *a, *b;
    glance_status sa = glance_extract_file(ctx, html, opt, &a);
    glance_fidelity f;
    assert_int_equal(glance_result_fidelity(a, geo, 50, NULL, 0.05, &f), GLANCE_OK);
    *compared = f.compared;
    *agree = f.agree;
    glance_fidelity_free(&f);
    glance_options_set_geometry(opt, geo);
    glance_status sb = glance_extract_file(ctx, html, opt, &b);
    *same = (sa != GLANCE_OK && sb != GLANCE_OK) ||
            (sa == GLANCE_OK && sb == GLANCE_OK &&
             strcmp(glance_result_xpath(a), glance_result_xpath(b)) == 0);
    glance_result_free(a);
    glance_result_free(b);
    glance_options_free(opt);
    glance_geometry_free(geo);
    glance_context_free(ctx);
}

static void fidelity_table(void **state)
{
    (void)state;
    size_t c1, a1, c2, a2;
    int s1, s2;
    expected("block-float", &c1, &a1, &s1);
    expected("margin-auto", &c2, &a2, &s2);
    /* The fixtures agree with Chromium, but for the element moved here. */
    assert_true(c1 > 5 && a1 == c1);
    assert_true(c2 > 2 && a2 == c2 - 1);

    char args[2048], want[256];
    snprintf(args, sizeof args,
             "bench --method gce --pages %s --truth %s --boxes-dir %s --fidelity --out %s/out.json",
             pages, truth, boxes, dir);
    run_out r = run_in(dir, args);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    assert_non_null(strstr(r.out, "glance bench: 2 pages"));
    assert_non_null(strstr(r.out, "(1 without left out), on litehtml's boxes"));
    assert_non_null(strstr(r.out, "2 pages measured, 0 not"));
    snprintf(want, sizeof want, "mean share per page %.3f (2 pages); %zu of %zu elements in all",
             (1.0 + (double)a2 / (double)c2) / 2, a1 + a2, c1 + c2);
    if (!strstr(r.out, want))
        fail_msg("no \"%s\" in:\n%s", want, r.out);
    snprintf(want, sizeof want, "same on %d of 2 pages", s1 + s2);
    if (!strstr(r.out, want))
        fail_msg("no \"%s\" in:\n%s", want, r.out);
    assert_non_null(strstr(r.out, "nodes of glance's tree without a box: 0"));
    assert_non_null(strstr(r.out, "scores on the browser's boxes (method gce, 2 pages)"));
    char outp[700];
    snprintf(outp, sizeof outp, "%s/out.json", dir);
    char *out = slurp(outp);
    assert_non_null(strstr(out, "\"fidelity\""));
    free(out);
    run_free(&r);

    /* Without --fidelity the pages run on the browser's boxes. */
    snprintf(args, sizeof args, "bench --method gce --pages %s --truth %s --boxes-dir %s", pages,
             truth, boxes);
    r = run_in(dir, args);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    assert_non_null(strstr(r.out, "on the browser's boxes"));
    assert_non_null(strstr(r.out, "errors 0; scored 2"));
    assert_null(strstr(r.out, "fidelity to"));
    run_free(&r);
}

static void fidelity_bad_usage(void **state)
{
    (void)state;
    char args[2048];
    snprintf(args, sizeof args, "bench --pages %s --truth %s --fidelity", pages, truth);
    run_out r = run_in(dir, args);
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "--boxes-dir"));
    run_free(&r);
    /* A boxes folder that holds no page's boxes. */
    snprintf(args, sizeof args, "bench --pages %s --truth %s --boxes-dir %s", pages, truth, pages);
    r = run_in(dir, args);
    assert_int_equal(r.code, 3);
    assert_non_null(strstr(r.err, "no page"));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fidelity_table),
        cmocka_unit_test(fidelity_bad_usage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
