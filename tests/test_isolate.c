/* The library's option "isolate": the extraction in a child process,
 * killed past time_budget and a second, under max_memory; its result read
 * through the same accessors, without the laid-out page. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/clock.h"
#include "base/proc.h" /* base_proc_asan: no address-space limit under AddressSanitizer */
#include "glance.h"
#include "opts.h"
#include "run.h"

static glance_context *ctx;

static int setup(void **state)
{
    (void)state;
    ctx = glance_context_new();
    return ctx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    glance_context_free(ctx);
    return 0;
}

static void same_string(const char *a, const char *b)
{
    if (!a || !b)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

/* A copy of JSON text without its timings: each method's "ms", the
 * scorer's "ms_parts" object and the "timings_ms" object. */
static char *untimed(const char *json)
{
    assert_non_null(json);
    char *c = strdup(json), *w = c;
    assert_non_null(c);
    for (const char *p = json; *p;) {
        if (!strncmp(p, "\"timings_ms\"", 12))
            break;
        if (!strncmp(p, "\"ms_parts\":{", 12)) {
            while (*p && *p != '}')
                p++;
            p += *p == '}';
            continue;
        }
        if (!strncmp(p, "\"ms\":", 5)) {
            p += 5;
            while (*p && strchr("0123456789.eE+-", *p))
                p++;
            continue;
        }
        *w++ = *p++;
    }
    *w = '\0';
    return c;
}

/* Every accessor that does not need the laid-out page says the same of a
 * result made in a child process as of one made in-process. */
static void compare(glance_result *in, glance_result *iso)
{
    assert_int_equal(glance_result_status(iso), glance_result_status(in));
    same_string(glance_result_text(iso), glance_result_text(in));
    same_string(glance_result_html(iso), glance_result_html(in));
    same_string(glance_result_markdown(iso), glance_result_markdown(in));
    same_string(glance_result_title(iso), glance_result_title(in));
    same_string(glance_result_method(iso), glance_result_method(in));
    same_string(glance_result_xpath(iso), glance_result_xpath(in));
    same_string(glance_result_tag(iso), glance_result_tag(in));
    same_string(glance_result_failure(iso), glance_result_failure(in));
    same_string(glance_result_url(iso), glance_result_url(in));
    glance_box a = glance_result_box(in), b = glance_result_box(iso);
    assert_true(a.x == b.x && a.y == b.y && a.w == b.w && a.h == b.h);
    assert_int_equal(glance_result_reading_minutes(iso), glance_result_reading_minutes(in));
    const char *fa, *fb;
    same_string(glance_result_charset(iso, &fb), glance_result_charset(in, &fa));
    same_string(fb, fa);
    for (int i = 0; glance_meta_field(i); i++) {
        same_string(glance_result_meta(iso, glance_meta_field(i), &fb),
                    glance_result_meta(in, glance_meta_field(i), &fa));
        same_string(fb, fa);
    }
    assert_int_equal(glance_result_author_count(iso), glance_result_author_count(in));
    for (int i = 0; i < glance_result_author_count(in); i++) {
        same_string(glance_result_author(iso, i, &fb), glance_result_author(in, i, &fa));
        same_string(fb, fa);
    }
    assert_int_equal(glance_result_stylesheet_count(iso), glance_result_stylesheet_count(in));
    for (int i = 0; glance_result_missing_script(in, i); i++)
        same_string(glance_result_missing_script(iso, i), glance_result_missing_script(in, i));
    /* The JSON, built in the child: the same but for the timings. */
    char *ja = untimed(glance_result_json(in)), *jb = untimed(glance_result_json(iso));
    assert_string_equal(ja, jb);
    free(ja);
    free(jb);
}

static glance_options *isolated(glance_options *o)
{
    assert_int_equal(glance_options_set(o, "isolate", "on"), GLANCE_OK);
    return o;
}

/* A fixture page (file, bytes, bytes from elsewhere): the same answer in a
 * child process as in-process. */
static void same_answer_as_in_process(void **state)
{
    (void)state;
    const char *pages[] = {"news.html", "fonts-th.html", "article-tag.html"};
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, pages[k]);
        glance_options *o = OPTS("offline=on");
        glance_options *oi = isolated(OPTS("offline=on"));
        glance_result *in = NULL, *iso = NULL;
        glance_extract_file(ctx, path, o, &in);
        glance_extract_file(ctx, path, oi, &iso);
        print_message("%s: %s in-process, %s isolated\n", pages[k],
                      glance_status_name(glance_result_status(in)),
                      glance_status_name(glance_result_status(iso)));
        assert_int_equal(glance_result_status(in), GLANCE_OK);
        compare(in, iso);
        glance_result_free(in);
        glance_result_free(iso);

        char *html = slurp(path);
        glance_extract(ctx, html, strlen(html), o, &in);
        glance_extract(ctx, html, strlen(html), oi, &iso);
        compare(in, iso);
        glance_result_free(in);
        glance_result_free(iso);
        glance_extract_page(ctx, html, strlen(html), "utf-8", NULL, o, &in);
        glance_extract_page(ctx, html, strlen(html), "utf-8", NULL, oi, &iso);
        compare(in, iso);
        glance_result_free(in);
        glance_result_free(iso);
        free(html);
        glance_options_free(o);
        glance_options_free(oi);
    }
    /* An error of the page's, from the child: its status and message. */
    glance_options *oi = isolated(OPTS("offline=on"));
    glance_result *iso = NULL;
    assert_int_equal(glance_extract(ctx, "", 0, oi, &iso), GLANCE_EINPUT);
    assert_non_null(strstr(glance_result_message(iso, GLANCE_EINPUT), "empty"));
    glance_result_free(iso);
    assert_int_equal(glance_extract_file(ctx, "/nonexistent/page.html", oi, &iso), GLANCE_EIO);
    glance_result_free(iso);
    glance_options_free(oi);
}

/* A page cheap to read and costly to lay out (litehtml cannot be
 * interrupted inside the layout): in-process it would run tens of seconds
 * past its budget; isolated, its process is killed at the budget and a
 * second and the call returns GLANCE_ECOSTLY, within the budget and 2.5 s
 * (generous, for a loaded machine: this bounds, it does not time). The
 * budget is 3 s so that the parse always ends within it (else the
 * library's own check before the layout answers first). */
static void costly_page_killed_at_budget(void **state)
{
    (void)state;
    size_t n;
    char *p = floats_page(20000, &n);
    glance_options *o = isolated(OPTS("offline=on", "time_budget=3", "max_floats=100000"));
    glance_result *res = NULL;
    double t0 = base_now_ms();
    glance_status st = glance_extract(ctx, p, n, o, &res);
    double took = base_now_ms() - t0;
    print_message("a costly page, budget 3 s, isolated: %s after %.0f ms: %s\n",
                  glance_status_name(st), took, glance_result_message(res, st));
    assert_int_equal(st, GLANCE_ECOSTLY);
    assert_int_equal(glance_result_status(res), GLANCE_ECOSTLY);
    assert_non_null(strstr(glance_result_message(res, st), "over the budget of 3000 ms (time_budget)"));
    assert_null(glance_result_text(res));
    assert_non_null(glance_result_json(res));
    assert_true(took < 5500);
    glance_result_free(res);
    free(p);
    glance_options_free(o);

    /* The context is the caller's as before: a page in-process after it. */
    char path[512];
    snprintf(path, sizeof path, "%s/news.html", FIXTURES_DIR);
    o = OPTS("offline=on");
    assert_int_equal(glance_extract_file(ctx, path, o, &res), GLANCE_OK);
    glance_result_free(res);
    glance_options_free(o);
}

/* max_memory bounds what the child may add to the caller's address space:
 * 100 000 links (some 450 MB laid out) fail under 64M more with
 * GLANCE_ENOMEM, whether the library saw malloc fail or the process died;
 * a normal page is answered under the same bound. */
static void memory_bound(void **state)
{
    (void)state;
    if (base_proc_asan()) {
        /* AddressSanitizer reserves terabytes of address space: no
         * RLIMIT_AS is set under it (base/proc.c); the plain build checks. */
        print_message("max_memory: not checked under AddressSanitizer\n");
        skip();
    }
    size_t n;
    char *p = links_page(100000, &n);
    glance_options *o = isolated(OPTS("offline=on", "max_memory=64M"));
    glance_result *res = NULL;
    glance_status st = glance_extract(ctx, p, n, o, &res);
    print_message("100 000 links under 64M more, isolated: %s: %s\n", glance_status_name(st),
                  glance_result_message(res, st));
    assert_int_equal(st, GLANCE_ENOMEM);
    glance_result_free(res);
    free(p);

    char path[512];
    snprintf(path, sizeof path, "%s/news.html", FIXTURES_DIR);
    assert_int_equal(glance_extract_file(ctx, path, o, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "The turbines under the old ferry pier"));
    glance_result_free(res);
    glance_options_free(o);
}

/* What cannot cross a process: the laid-out page. A shot, a rerun and a
 * fidelity of an isolated result give GLANCE_EOPTION, and nothing
 * crashes. */
static void no_laid_out_page(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/news.html", FIXTURES_DIR);
    glance_options *o = isolated(OPTS("offline=on"));
    glance_result *res = NULL;
    assert_int_equal(glance_extract_file(ctx, path, o, &res), GLANCE_OK);
    unsigned char *png = NULL;
    size_t len = 0;
    assert_int_equal(glance_result_shot_png(ctx, res, NULL, &png, &len), GLANCE_EOPTION);
    assert_null(png);
    char out[600];
    snprintf(out, sizeof out, "%s/never-written.png", FIXTURES_DIR);
    assert_int_equal(glance_result_shot(ctx, res, NULL, out), GLANCE_EOPTION);
    glance_options *plain = OPTS("offline=on");
    assert_int_equal(glance_result_rerun(res, plain), GLANCE_EOPTION);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EOPTION), "isolate"));
    glance_options_free(plain);
    glance_result_free(res);
    glance_options_free(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_answer_as_in_process),
        cmocka_unit_test(costly_page_killed_at_budget),
        cmocka_unit_test(memory_bound),
        cmocka_unit_test(no_laid_out_page),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
