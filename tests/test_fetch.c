/* Pages from URLs, end to end, against the tests' own server on 127.0.0.1
 * (httpd.c): the library (glance_extract_url) and the command (glance
 * extract URL). Redirects, a redirect loop, a slow page and a slow
 * stylesheet past a 1 s budget, oversized bodies (declared, undeclared,
 * and a gzip bomb), gzip, a stylesheet that 404s, a stylesheet that moves
 * GCE's choice (the classic policy's node), the address policy, offline.
 * Nothing leaves the machine. */
#define _GNU_SOURCE
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
#include <json-c/json.h>

#include "glance.h"
#include "httpd.h"
#include "opts.h"
#include "run.h"

static glance_context *ctx;
static httpd *srv;
static char base[64]; /* http://127.0.0.1:PORT */
static char tmpdir[] = "/tmp/glance-fetch-XXXXXX";

/* A page whose layout depends on its stylesheet: without it a wide promo
 * block fills the first screen and GCE takes it (it is 900px of a 1904px
 * body: the width jump); with it the promo is hidden (site.css) and the
 * article is 700px, centred (more.css, which site.css imports). */
#define PROMO_P                                                                                  \
    "<p>Our newsletter brings you the best stories of the week, every week, straight into your " \
    "inbox. Join the thousands of readers who start their Sunday with our long reads.</p>\n"
#define ARTICLE_P                                                                                \
    "<p>After a week of heavy rain the river has fallen back below the flood mark, the county "  \
    "engineers said on Tuesday, and the footbridge at the mill will open again on Friday.</p>\n"
#define PROMO PROMO_P PROMO_P PROMO_P PROMO_P PROMO_P PROMO_P PROMO_P
#define ARTICLE ARTICLE_P ARTICLE_P ARTICLE_P ARTICLE_P ARTICLE_P
#define PAGE_WITH(links)                                                                        \
    "<!DOCTYPE html><html><head><title>River levels fall</title>" links "</head><body>\n"        \
    "<div class=\"promo\" style=\"width:900px\"><h2>Subscribe today</h2>\n" PROMO PROMO "</div>\n" \
    "<article><h1>River levels fall</h1>\n" ARTICLE ARTICLE "</article></body></html>\n"

#define PROMO_XPATH "/html[1]/body[1]/div[1]"
#define ARTICLE_XPATH "/html[1]/body[1]/article[1]"

static const char page_css[] = PAGE_WITH("<link rel=\"stylesheet\" href=\"css/site.css\">");
static const char page_base[] = PAGE_WITH("<base href=\"/elsewhere/\"><link rel=stylesheet href=\"css/site.css\">");
static const char page_404css[] =
    PAGE_WITH("<link rel=stylesheet href=\"/missing.css\"><link rel=stylesheet href=\"css/site.css\">");
static const char page_slowcss[] =
    PAGE_WITH("<link rel=stylesheet href=\"/slow.css\"><link rel=stylesheet href=\"/css/more.css\">");
static const char page_many[] = PAGE_WITH(
    "<link rel=stylesheet href=\"/s1.css\"><link rel=stylesheet href=\"/s2.css\">"
    "<link rel=stylesheet href=\"/s3.css\"><link rel=stylesheet href=\"/s4.css\">");
static const char page_plain[] = PAGE_WITH("");
static const char site_css[] = "@import \"more.css\";\n.promo { display: none }\n";
static const char more_css[] = "article { width: 700px; margin: 0 auto }\n";
#define CSS "Content-Type: text/css\r\n"

/* The same page, its promo named in a word with an accent ("réclame", in
 * UTF-8 on the page), and the sheets that hide it written in ISO-8859-1:
 * one says so in its Content-Type, one with @charset. Read as UTF-8 the
 * byte 0xE9 is no "é": the rule would match nothing and the promo win. */
#define PAGE_RECLAME(links)                                                                     \
    "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>River levels fall</title>" links \
    "</head><body>\n<div class=\"r\xc3\xa9" "clame\" style=\"width:900px\"><h2>Subscribe today</h2>\n" \
    PROMO PROMO "</div>\n<article><h1>River levels fall</h1>\n" ARTICLE ARTICLE                  \
    "</article></body></html>\n"
static const char page_latin1_http[] = PAGE_RECLAME("<link rel=stylesheet href=\"/l1.css\">");
static const char page_latin1_at[] = PAGE_RECLAME("<link rel=stylesheet href=\"/l2.css\">");

/* The story with a listing that keeps its lines by a class, `.code` (a
 * <div>, not a <pre>), which a fetched stylesheet says is pre: one the page
 * links, or one that a sheet it links imports. */
#define PAGE_CODE(links)                                                                        \
    "<!DOCTYPE html><html><head><title>River levels fall</title>" links "</head><body>\n"        \
    "<article><h1>River levels fall</h1>\n" ARTICLE "<div class=\"code\">int main(void)\n{\n" \
    "    return 0;\n}\n</div>\n" ARTICLE "</article></body></html>\n"
static const char page_code[] = PAGE_CODE("<link rel=stylesheet href=\"/code-pre.css\">");
static const char page_code_deep[] = PAGE_CODE("<link rel=stylesheet href=\"/code-outer.css\">");

static char *big;      /* 150 000 bytes of page */
static char *bomb;     /* 8 MB of page, sent gzip-compressed (a few KB) */
#define BIG_LEN 150000
#define BOMB_LEN (8u << 20)

static httpd_route routes[] = {
    {.path = "/page.html", .body = page_css},
    {.path = "/css/site.css", .headers = CSS, .body = site_css},
    {.path = "/css/more.css", .headers = CSS, .body = more_css},
    {.path = "/plain.html", .body = page_plain},
    /* Two redirects to a page in another folder: its relative stylesheet
     * resolves against where it landed. */
    {.path = "/r1", .status = 301, .headers = "Location: /r2\r\n"},
    {.path = "/r2", .status = 302, .headers = "Location: /news/story.html\r\n"},
    {.path = "/news/story.html", .body = page_css},
    {.path = "/news/css/site.css", .headers = CSS, .body = site_css},
    {.path = "/news/css/more.css", .headers = CSS, .body = more_css},
    {.path = "/based.html", .body = page_base},
    {.path = "/elsewhere/css/site.css", .headers = CSS, .body = site_css},
    {.path = "/elsewhere/css/more.css", .headers = CSS, .body = more_css},
    {.path = "/loop", .status = 302, .headers = "Location: /loop\r\n"},
    {.path = "/to-file", .status = 302, .headers = "Location: file:///etc/passwd\r\n"},
    {.path = "/gone.html", .status = 404, .body = "<html><body><p>gone</p></body></html>"},
    {.path = "/slow.html", .body = page_css, .delay_ms = 5000},
    {.path = "/slowcss.html", .body = page_slowcss},
    {.path = "/slow.css", .headers = CSS, .body = ".promo { display: none }", .delay_ms = 5000},
    {.path = "/404css.html", .body = page_404css},
    {.path = "/gz.html", .body = page_css, .gzip = 1},
    {.path = "/many.html", .body = page_many},
    {.path = "/latin1-http.html", .body = page_latin1_http},
    {.path = "/latin1-at.html", .body = page_latin1_at},
    {.path = "/l1.css", .headers = "Content-Type: text/css; charset=iso-8859-1\r\n",
     .body = ".r\xe9" "clame { display: none }\n"},
    {.path = "/l2.css", .headers = CSS, .body = "@charset \"iso-8859-1\";\n.r\xe9" "clame { display: none }\n"},
    {.path = "/s1.css", .headers = CSS, .body = "p { color: red }"},
    {.path = "/s2.css", .headers = CSS, .body = "p { color: red }"},
    {.path = "/s3.css", .headers = CSS, .body = "p { color: red }"},
    {.path = "/s4.css", .headers = CSS, .body = "p { color: red }"},
    {.path = "/code.html", .body = page_code},
    {.path = "/code-deep.html", .body = page_code_deep},
    {.path = "/code-pre.css", .headers = CSS, .body = ".code { white-space: pre }\n"},
    {.path = "/code-outer.css", .headers = CSS,
     .body = "@import \"code-pre.css\";\nh1 { font-size: 2em }\n"},
    /* filled in by setup */
    {.path = "/big.html"},
    {.path = "/big-nolength.html", .no_length = 1},
    {.path = "/bomb.html", .gzip = 1},
};
#define N_ROUTES (int)(sizeof routes / sizeof routes[0])

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static char *fill(size_t n)
{
    char *b = malloc(n + 1);
    static const char head[] = "<html><body><p>";
    memcpy(b, head, sizeof head - 1);
    for (size_t i = sizeof head - 1; i < n; i++)
        b[i] = "abcdefgh "[i % 9];
    b[n] = '\0';
    return b;
}

static int setup(void **state)
{
    unsetenv("http_proxy");
    unsetenv("HTTP_PROXY");
    unsetenv("all_proxy");
    unsetenv("ALL_PROXY");
    big = fill(BIG_LEN);
    bomb = fill(BOMB_LEN);
    for (int i = 0; i < N_ROUTES; i++) {
        if (strcmp(routes[i].path, "/big.html") == 0 || strcmp(routes[i].path, "/big-nolength.html") == 0) {
            routes[i].body = big;
            routes[i].len = BIG_LEN;
        } else if (strcmp(routes[i].path, "/bomb.html") == 0) {
            routes[i].body = bomb;
            routes[i].len = BOMB_LEN;
        }
    }
    srv = httpd_start(routes, N_ROUTES);
    ctx = glance_context_new();
    if (!srv || !ctx || !mkdtemp(tmpdir))
        return -1;
    snprintf(base, sizeof base, "http://127.0.0.1:%d", httpd_port(srv));
    return 0;
}

static int teardown(void **state)
{
    httpd_stop(srv);
    glance_context_free(ctx);
    free(big);
    free(bomb);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Options for the tests: short timeouts, so that nothing waits long, and
 * the classic policy, whose answer is GCE's node: which node it is (the
 * promo or the article) tells whether a stylesheet was applied. */
static glance_options *quick(void)
{
    return OPTS("connect_timeout=1", "timeout=3", "method=classic");
}

static glance_status fetch(const char *path, const glance_options *o, glance_result **res)
{
    char url[256];
    snprintf(url, sizeof url, "%s%s", base, path);
    glance_status st = glance_extract_url(ctx, url, o, res);
    assert_non_null(*res);
    assert_int_equal(glance_result_status(*res), st);
    return st;
}

/* The sheet of the result whose URL ends in `tail`; its error in *err. */
static int find_sheet(const glance_result *res, const char *tail, const char **err)
{
    for (int i = 0; i < glance_result_stylesheet_count(res); i++) {
        const char *u = glance_result_stylesheet(res, i, err);
        size_t n = strlen(u), k = strlen(tail);
        if (n >= k && strcmp(u + n - k, tail) == 0)
            return 1;
    }
    return 0;
}

static void stylesheets_change_the_choice(void **state)
{
    glance_options *o = quick();
    glance_result *res;
    /* Fetched with its stylesheet (and the sheet it imports): the promo is
     * hidden and the article is chosen. */
    assert_int_equal(fetch("/page.html", o, &res), GLANCE_OK);
    assert_string_equal(glance_result_xpath(res), ARTICLE_XPATH);
    glance_box b = glance_result_box(res);
    assert_true(b.w == 700); /* more.css, reached through @import, applied */
    const char *err = "unset";
    assert_true(find_sheet(res, "/css/site.css", &err));
    assert_null(err);
    assert_true(find_sheet(res, "/css/more.css", &err));
    assert_null(err);
    assert_null(strstr(glance_result_text(res), "newsletter"));
    glance_result_free(res);

    /* The default, too, reads the article and not the promo the stylesheet
     * hides. */
    glance_options *dflt = OPTS("connect_timeout=1", "timeout=3");
    assert_int_equal(fetch("/page.html", dflt, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "footbridge at the mill"));
    assert_null(strstr(glance_result_text(res), "newsletter"));
    assert_null(strstr(glance_result_text(res), "Subscribe today"));
    glance_result_free(res);
    glance_options_free(dflt);

    /* The same bytes without the network: the promo is what the reader's
     * eye meets, and GCE takes it. */
    OPTS_SET(o, "offline=on");
    assert_int_equal(glance_extract(ctx, page_css, strlen(page_css), o, &res), GLANCE_OK);
    assert_string_equal(glance_result_xpath(res), PROMO_XPATH);
    assert_int_equal(glance_result_stylesheet_count(res), 0);
    glance_result_free(res);

    /* A browser's headers went out. */
    char *head = httpd_last_request(srv, "/page.html");
    assert_non_null(head);
    assert_non_null(strstr(head, "\r\nUser-Agent: Mozilla/5.0"));
    assert_non_null(strstr(head, "\r\nAccept-Language: en-US"));
    assert_non_null(strstr(head, "\r\nAccept: text/html"));
    free(head);
    glance_options_free(o);
}

/* A stylesheet in another charset is read in it (its Content-Type, else
 * its @charset): the rule naming the accented class hides the promo. */
static void stylesheet_charset_converted(void **state)
{
    glance_options *o = quick();
    const char *pages[] = {"/latin1-http.html", "/latin1-at.html"};
    for (int i = 0; i < 2; i++) {
        glance_result *res;
        assert_int_equal(fetch(pages[i], o, &res), GLANCE_OK);
        const char *err = "unset";
        assert_true(find_sheet(res, i ? "/l2.css" : "/l1.css", &err));
        assert_null(err);
        if (strcmp(glance_result_xpath(res), ARTICLE_XPATH) != 0)
            fail_msg("%s: chose %s: the ISO-8859-1 rule did not hide the promo", pages[i],
                     glance_result_xpath(res));
        assert_null(strstr(glance_result_text(res), "newsletter"));
        glance_result_free(res);
    }
    glance_options_free(o);
}

static void redirects_followed_and_resolved_against_the_end(void **state)
{
    glance_options *o = quick();
    glance_result *res;
    assert_int_equal(fetch("/r1", o, &res), GLANCE_OK);
    char want[256];
    snprintf(want, sizeof want, "%s/news/story.html", base);
    assert_string_equal(glance_result_url(res), want);
    /* css/site.css relative to /news/story.html, not to /r1 */
    const char *err = "unset";
    assert_true(find_sheet(res, "/news/css/site.css", &err));
    assert_null(err);
    assert_string_equal(glance_result_xpath(res), ARTICLE_XPATH);
    json_object *j = json_tokener_parse(glance_result_json(res)), *src, *v;
    assert_true(json_object_object_get_ex(j, "source", &src));
    assert_true(json_object_object_get_ex(src, "redirects", &v));
    assert_int_equal(json_object_get_int(v), 2);
    json_object_put(j);
    glance_result_free(res);

    /* One redirect allowed, two needed. */
    OPTS_SET(o, "max_redirects=1");
    assert_int_equal(fetch("/r1", o, &res), GLANCE_EREDIRECTS);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EREDIRECTS), "max_redirects"));
    glance_result_free(res);
    glance_options_free(o);
}

static void base_href_moves_stylesheets(void **state)
{
    glance_options *o = quick();
    glance_result *res;
    int before = httpd_hits(srv, "/elsewhere/css/site.css");
    assert_int_equal(fetch("/based.html", o, &res), GLANCE_OK);
    assert_int_equal(httpd_hits(srv, "/elsewhere/css/site.css"), before + 1);
    assert_string_equal(glance_result_xpath(res), ARTICLE_XPATH);
    glance_result_free(res);
    glance_options_free(o);
}

static void redirect_loop_stops(void **state)
{
    glance_options *o = quick();
    glance_result *res;
    int before = httpd_hits(srv, "/loop");
    assert_int_equal(fetch("/loop", o, &res), GLANCE_EREDIRECTS);
    assert_null(glance_result_text(res));
    /* The first request and max_redirects (10) more, then it stopped. */
    assert_int_equal(httpd_hits(srv, "/loop") - before, 11);
    glance_result_free(res);
    glance_options_free(o);
}

static void slow_page_times_out(void **state)
{
    glance_options *o = quick();
    OPTS_SET(o, "timeout=1000ms");
    glance_result *res;
    double t0 = now_ms();
    assert_int_equal(fetch("/slow.html", o, &res), GLANCE_ETIMEOUT);
    double took = now_ms() - t0;
    /* The server would answer after 5 s; the budget was 1 s. */
    if (took > 3000)
        fail_msg("gave up after %.0f ms on a 1000 ms budget", took);
    assert_non_null(strstr(glance_result_message(res, GLANCE_ETIMEOUT), "timed out"));
    glance_result_free(res);
    glance_options_free(o);
}

static void slow_stylesheet_skipped(void **state)
{
    glance_options *o = quick();
    OPTS_SET(o, "timeout=1000ms");
    glance_result *res;
    double t0 = now_ms();
    assert_int_equal(fetch("/slowcss.html", o, &res), GLANCE_OK);
    double took = now_ms() - t0;
    if (took > 3000)
        fail_msg("took %.0f ms on a 1000 ms budget", took);
    const char *err = NULL;
    assert_true(find_sheet(res, "/slow.css", &err));
    assert_non_null(err);
    assert_non_null(strstr(err, "timed out"));
    /* The fast sheet of the same page was applied; the slow one (which
     * would hide the promo) was not. */
    assert_true(find_sheet(res, "/css/more.css", &err));
    assert_null(err);
    assert_string_equal(glance_result_xpath(res), PROMO_XPATH);
    glance_result_free(res);
    glance_options_free(o);
}

static void oversized_pages_refused(void **state)
{
    glance_options *o = quick();
    OPTS_SET(o, "max_input_bytes=100000");
    const char *paths[] = {"/big.html", "/big-nolength.html", "/bomb.html"};
    for (int i = 0; i < 3; i++) {
        glance_result *res;
        glance_status st = fetch(paths[i], o, &res);
        if (st != GLANCE_ETOOBIG)
            fail_msg("%s: %s, expected over the limit", paths[i], glance_result_message(res, st));
        assert_non_null(strstr(glance_result_message(res, st), "100000"));
        assert_null(glance_result_text(res));
        glance_result_free(res);
    }
    /* The same pages under the default limit are fine. */
    glance_result *res;
    assert_int_equal(fetch("/big-nolength.html", NULL, &res), GLANCE_OK);
    glance_result_free(res);
    glance_options_free(o);
}

static void gzip_decompressed(void **state)
{
    glance_options *o = quick();
    glance_result *res;
    assert_int_equal(fetch("/gz.html", o, &res), GLANCE_OK);
    assert_string_equal(glance_result_xpath(res), ARTICLE_XPATH);
    assert_non_null(strstr(glance_result_text(res), "footbridge at the mill"));
    char *head = httpd_last_request(srv, "/gz.html");
    assert_non_null(head);
    assert_non_null(strstr(head, "Accept-Encoding:"));
    assert_non_null(strstr(strstr(head, "Accept-Encoding:"), "gzip"));
    free(head);
    glance_result_free(res);
    glance_options_free(o);
}

static void stylesheet_404_skipped_and_reported(void **state)
{
    glance_options *o = quick();
    glance_result *res;
    assert_int_equal(fetch("/404css.html", o, &res), GLANCE_OK);
    const char *err = NULL;
    assert_true(find_sheet(res, "/missing.css", &err));
    assert_non_null(err);
    assert_string_equal(err, "HTTP 404");
    assert_true(find_sheet(res, "/css/site.css", &err));
    assert_null(err);
    assert_string_equal(glance_result_xpath(res), ARTICLE_XPATH);
    glance_result_free(res);
    glance_options_free(o);
}

static void error_page_is_an_error(void **state)
{
    glance_options *o = quick();
    glance_result *res;
    assert_int_equal(fetch("/gone.html", o, &res), GLANCE_EFETCH);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EFETCH), "HTTP 404"));
    assert_null(glance_result_text(res));
    glance_result_free(res);
    assert_int_equal(fetch("/to-file", o, &res), GLANCE_EURL);
    glance_result_free(res);
    glance_options_free(o);
}

static void stylesheet_count_limit(void **state)
{
    glance_options *o = quick();
    OPTS_SET(o, "max_stylesheets=2");
    glance_result *res;
    assert_int_equal(fetch("/many.html", o, &res), GLANCE_OK);
    assert_int_equal(glance_result_stylesheet_count(res), 4);
    int fetched = 0;
    for (int i = 0; i < 4; i++) {
        const char *err;
        glance_result_stylesheet(res, i, &err);
        if (!err)
            fetched++;
        else
            assert_non_null(strstr(err, "max_stylesheets"));
    }
    assert_int_equal(fetched, 2);
    assert_int_equal(httpd_hits(srv, "/s3.css") + httpd_hits(srv, "/s4.css"), 0);
    glance_result_free(res);
    glance_options_free(o);
}

static void address_policy(void **state)
{
    glance_options *o = quick();
    OPTS_SET(o, "public_only=on");
    glance_result *res;
    int before = httpd_hits(srv, "/plain.html");
    assert_int_equal(fetch("/plain.html", o, &res), GLANCE_EADDR);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EADDR), "127.0.0.1"));
    glance_result_free(res);
    assert_int_equal(httpd_hits(srv, "/plain.html"), before);
    /* (10.0.0.1 is refused in test_net, in a network namespace of its own.) */
    glance_options_free(o);
}

static void offline_never_fetches(void **state)
{
    glance_options *o = quick();
    OPTS_SET(o, "offline=on");
    glance_result *res;
    int before = httpd_hits(srv, "/plain.html");
    assert_int_equal(fetch("/plain.html", o, &res), GLANCE_EOFFLINE);
    glance_result_free(res);
    assert_int_equal(httpd_hits(srv, "/plain.html"), before);

    /* A page from a file with an absolute link to a remote stylesheet:
     * fetched, unless offline. */
    char path[512], html[sizeof page_plain + 512];
    snprintf(path, sizeof path, "%s/remote-css.html", tmpdir);
    snprintf(html, sizeof html, "%s", page_css);
    char *rel = strstr(html, "css/site.css");
    char link[128];
    snprintf(link, sizeof link, "%s/css/site.css", base);
    memmove(rel + strlen(link), rel + strlen("css/site.css"), strlen(rel + strlen("css/site.css")) + 1);
    memcpy(rel, link, strlen(link));
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(html, f);
    fclose(f);
    int hits = httpd_hits(srv, "/css/site.css");
    assert_int_equal(glance_extract_file(ctx, path, o, &res), GLANCE_OK);
    assert_string_equal(glance_result_xpath(res), PROMO_XPATH);
    glance_result_free(res);
    assert_int_equal(httpd_hits(srv, "/css/site.css"), hits);
    OPTS_SET(o, "offline=off");
    assert_int_equal(glance_extract_file(ctx, path, o, &res), GLANCE_OK);
    assert_string_equal(glance_result_xpath(res), ARTICLE_XPATH);
    glance_result_free(res);
    assert_int_equal(httpd_hits(srv, "/css/site.css"), hits + 1);
    glance_options_free(o);
}

/* ---- The command ---- */

static run_out cli(const char *fmt, ...)
{
    char args[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return run_in(tmpdir, args);
}

static void cli_extract_url(void **state)
{
    run_out r = cli("extract --timeout 3 --method classic --format json %s/page.html", base);
    assert_int_equal(r.code, 0);
    json_object *j = json_tokener_parse(r.out), *v, *w;
    assert_non_null(j);
    assert_true(json_object_object_get_ex(j, "chosen", &v));
    assert_true(json_object_object_get_ex(v, "xpath", &w));
    assert_string_equal(json_object_get_string(w), ARTICLE_XPATH);
    assert_true(json_object_object_get_ex(j, "source", &v));
    assert_true(json_object_object_get_ex(v, "stylesheets", &w));
    assert_int_equal(json_object_array_length(w), 2);
    json_object_put(j);
    run_free(&r);

    /* Text: the title, then the article; a skipped stylesheet is a warning. */
    r = cli("extract --timeout 3 %s/404css.html", base);
    assert_int_equal(r.code, 0);
    assert_true(strncmp(r.out, "River levels fall\n\n", 19) == 0);
    assert_non_null(strstr(r.err, "missing.css skipped: HTTP 404"));
    run_free(&r);
}

static void cli_failures_exit_with_one_line(void **state)
{
    static const struct {
        const char *args;
        int code;
        const char *says;
    } cases[] = {
        {"%s/gone.html", 5, "HTTP 404"},
        {"--timeout 1 %s/slow.html", 5, "timed out"},
        {"--public-only %s/plain.html", 5, "refused"},
        {"%s/loop", 5, "redirects"},
        {"--max-page-bytes 1000 %s/big.html", 3, "1000"},
        {"--offline %s/plain.html", 2, "offline"},
        {"--timeout 0 %s/plain.html", 2, "timeout"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char fmt[256];
        snprintf(fmt, sizeof fmt, "extract %s", cases[i].args);
        run_out r = cli(fmt, base);
        if (r.code != cases[i].code || !strstr(r.err, cases[i].says))
            fail_msg("'%s': exit %d, stderr '%s'", cases[i].args, r.code, r.err);
        int lines = 0;
        for (const char *p = r.err; *p; p++)
            lines += *p == '\n';
        assert_int_equal(lines, 1);
        assert_string_equal(r.out, "");
        run_free(&r);
    }
    run_out r = cli("extract ftp://127.0.0.1/page.html");
    assert_int_equal(r.code, 3);
    assert_non_null(strstr(r.err, "http"));
    run_free(&r);
}

/* What the JSON's `document` says of a page whose runs of white space,
 * written as one space, were read again as they were (render/spaces.h). */
#define READ_AGAIN "\"spaces_read_again\":true"

/* glance writes the runs of white space of a page's text as one space
 * before litehtml reads them, unless a style may keep them. A sheet the
 * page links is read before: the listing keeps its lines, the page read
 * once. A sheet that one imports is seen as it loads: the page is read
 * again as it was, and the listing keeps its lines all the same. */
static void white_space_of_fetched_sheets_kept(void **state)
{
    (void)state;
    static const char kept[] = "int main(void)\n{\n    return 0;\n}";
    glance_options *o = OPTS("connect_timeout=1", "timeout=3");
    glance_result *res;
    assert_int_equal(fetch("/code.html", o, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), kept));
    assert_null(strstr(glance_result_json(res), READ_AGAIN));
    glance_result_free(res);

    assert_int_equal(fetch("/code-deep.html", o, &res), GLANCE_OK);
    const char *err = "unset";
    assert_true(find_sheet(res, "/code-pre.css", &err));
    assert_null(err);
    assert_non_null(strstr(glance_result_text(res), kept));
    assert_non_null(strstr(glance_result_json(res), READ_AGAIN));
    glance_result_free(res);

    /* Without its sheets, the listing is one line, as a browser shows it. */
    OPTS_SET(o, "offline=on");
    assert_int_equal(glance_extract(ctx, page_code_deep, strlen(page_code_deep), o, &res),
                     GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "int main(void) { return 0; }"));
    assert_null(strstr(glance_result_json(res), READ_AGAIN));
    glance_result_free(res);
    glance_options_free(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stylesheets_change_the_choice),
        cmocka_unit_test(stylesheet_charset_converted),
        cmocka_unit_test(redirects_followed_and_resolved_against_the_end),
        cmocka_unit_test(base_href_moves_stylesheets),
        cmocka_unit_test(redirect_loop_stops),
        cmocka_unit_test(slow_page_times_out),
        cmocka_unit_test(slow_stylesheet_skipped),
        cmocka_unit_test(oversized_pages_refused),
        cmocka_unit_test(gzip_decompressed),
        cmocka_unit_test(stylesheet_404_skipped_and_reported),
        cmocka_unit_test(error_page_is_an_error),
        cmocka_unit_test(stylesheet_count_limit),
        cmocka_unit_test(address_policy),
        cmocka_unit_test(offline_never_fetches),
        cmocka_unit_test(white_space_of_fetched_sheets_kept),
        cmocka_unit_test(cli_extract_url),
        cmocka_unit_test(cli_failures_exit_with_one_line),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
