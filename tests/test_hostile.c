/* Hostile input: whatever the bytes, glance answers or says clearly why
 * not (a status and a message naming the limit), and the costly pages are
 * refused before litehtml spends on them. The big inputs are built in
 * memory here; none is committed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <cmocka.h>
#include <fontconfig/fontconfig.h>

#include "glance.h"
#include "opts.h"

static glance_context *ctx;

/* Text GCE or BTE takes for an article: long enough, with punctuation. */
#define ARTICLE                                                                              \
    "<p>After a week of heavy rain the river has fallen back below the flood mark, the "     \
    "county engineers said on Tuesday, and the footbridge at the mill will open again.</p>"  \
    "<p>Residents along the lower bank were asked to keep their sandbags in place until the " \
    "weekend, when a second, smaller crest is expected to pass through the town.</p>"

/* A growing buffer for the generated pages. */
typedef struct buf {
    char *s;
    size_t len, cap;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->s = realloc(b->s, cap);
        assert_non_null(b->s);
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void puts_(buf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void repeat(buf *b, const char *s, size_t times)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < times; i++)
        put(b, s, n);
}

static glance_status run(const char *html, size_t len, const glance_options *opt,
                         glance_result **res)
{
    *res = NULL;
    glance_status st = glance_extract(ctx, html, len, opt, res);
    assert_non_null(*res);
    assert_int_equal(glance_result_status(*res), st);
    return st;
}

/* The status of `html` with the default options (or `opt`), and that the
 * message holds `says` (when not NULL). */
static void expect(const char *html, size_t len, const glance_options *opt, glance_status want,
                   const char *says)
{
    glance_result *res;
    glance_status st = run(html, len, opt, &res);
    const char *msg = glance_result_message(res, st);
    if (st != want || (says && !strstr(msg, says)))
        fail_msg("status %d (%s), wanted %d with \"%s\"", st, msg, want, says ? says : "");
    glance_result_free(res);
}

static void empty_file(void **state)
{
    expect("", 0, NULL, GLANCE_EINPUT, "empty input");
}

static void one_byte(void **state)
{
    glance_result *res;
    assert_int_equal(run("x", 1, NULL, &res), GLANCE_OK);
    assert_string_equal(glance_result_text(res), "x");
    glance_result_free(res);
}

static void random_binary(void **state)
{
    unsigned char b[65536];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof b; i++) {
        x = x * 1103515245u + 12345u;
        b[i] = (unsigned char)(x >> 16);
    }
    expect((const char *)b, sizeof b, NULL, GLANCE_EINPUT, "binary data");
}

/* 50 MB: 50 000 paragraphs of 200 words. litehtml would make ten million
 * text elements (6.5 GB, 76 s measured); the scan refuses it first. */
static void page_of_50_mb(void **state)
{
    buf b = {0};
    buf para = {0};
    puts_(&para, "<p>");
    repeat(&para, "lorem ipsum dolor sit amet ", 40);
    puts_(&para, "</p>\n");
    puts_(&b, "<html><body>");
    while (b.len < (size_t)50 << 20)
        put(&b, para.s, para.len);
    puts_(&b, "</body></html>");
    expect(b.s, b.len, NULL, GLANCE_ETOOBIG, "(max_words)");
    /* Over max_input_bytes, it says that instead. */
    glance_options *opt = OPTS("max_input_bytes=10M");
    expect(b.s, b.len, opt, GLANCE_ETOOBIG, "(max_input_bytes)");
    glance_options_free(opt);
    free(para.s);
    free(b.s);
}

/* litehtml recurses: 20 000 levels overflow its stack. */
static void nested_100000_divs(void **state)
{
    buf b = {0};
    puts_(&b, "<html><body>");
    repeat(&b, "<div>", 100000);
    puts_(&b, ARTICLE);
    repeat(&b, "</div>", 100000);
    puts_(&b, "</body></html>");
    expect(b.s, b.len, NULL, GLANCE_ETOOBIG, "nested deeper than 512 (max_depth)");
    /* Tables a parser may close or not, so measured by a parse: gumbo's
     * parse errors, each with a copy of its stack of open elements, once
     * took 23 GB on these; the parse records none now. */
    b.len = 0;
    puts_(&b, "<html><body>");
    repeat(&b, "<table><tr><td>", 30000);
    puts_(&b, "x</body></html>");
    expect(b.s, b.len, NULL, GLANCE_ETOOBIG, "nested deeper than 512 (max_depth)");
    /* Unclosed paragraphs are not nesting: a parser closes each <p>. */
    b.len = 0;
    puts_(&b, "<html><body>");
    repeat(&b, "<p>a line, of text. ", 20000);
    puts_(&b, "</body></html>");
    glance_result *res;
    glance_status st = run(b.s, b.len, NULL, &res);
    assert_true(st == GLANCE_OK || st == GLANCE_ENOCONTENT);
    glance_result_free(res);
    free(b.s);
}

static void sibling_links_100000(void **state)
{
    buf b = {0};
    char a[64];
    puts_(&b, "<html><body>");
    for (int i = 0; i < 100000; i++) {
        snprintf(a, sizeof a, "<a href=\"/l%d\">link %d</a>\n", i, i);
        puts_(&b, a);
    }
    puts_(&b, "</body></html>");
    /* Laid out, and read as what it is: a page of links. (No time budget:
     * what is checked here is the answer, and under the sanitizers the
     * layout alone takes most of the default 20 s.) */
    glance_options *opt = OPTS("time_budget=0");
    expect(b.s, b.len, opt, GLANCE_ENOCONTENT, "a page of links");
    glance_options_free(opt);
    /* With fewer elements allowed, refused before the parse. */
    opt = OPTS("max_elements=50000");
    expect(b.s, b.len, opt, GLANCE_ETOOBIG, "100002 elements, over the limit of 50000 (max_elements)");
    glance_options_free(opt);
    free(b.s);
}

/* gumbo compares each attribute of an element with all before it: 300 000
 * on one <div> took 378 s to parse. */
static void many_attributes(void **state)
{
    buf b = {0};
    char a[32];
    puts_(&b, "<html><body><div class=\"a b\" title='x > y'");
    for (int i = 0; i < 300000; i++) {
        snprintf(a, sizeof a, " a%d=x", i);
        puts_(&b, a);
    }
    puts_(&b, ">" ARTICLE "</div></body></html>");
    expect(b.s, b.len, NULL, GLANCE_ETOOBIG, "an element with 300002 attributes, over the limit of 1000");
    /* A thousand is still a page. */
    b.len = 0;
    puts_(&b, "<html><body><div");
    for (int i = 0; i < 1000; i++) {
        snprintf(a, sizeof a, " a%d=x", i);
        puts_(&b, a);
    }
    puts_(&b, ">" ARTICLE "</div></body></html>");
    expect(b.s, b.len, NULL, GLANCE_OK, NULL);
    free(b.s);
}

static void invalid_utf8(void **state)
{
    /* UTF-8 with a few broken bytes stays UTF-8: each broken byte is U+FFFD. */
    const char html[] = "<html><body><p>na\xc3\xafve caf\xc3\xa9, r\xc3\xa9sum\xc3\xa9 \xff "
                        "broken \xe2\x82 bytes, and words around them.</p></body></html>";
    glance_result *res;
    assert_int_equal(run(html, sizeof html - 1, NULL, &res), GLANCE_OK);
    const char *t = glance_result_text(res);
    assert_non_null(strstr(t, "na\xc3\xafve caf\xc3\xa9"));
    assert_non_null(strstr(t, "\xef\xbf\xbd broken \xef\xbf\xbd\xef\xbf\xbd bytes"));
    assert_non_null(strstr(t, "and words around them."));
    glance_result_free(res);
    /* Bytes that are no UTF-8 at all are read in the charset detected. */
    const char latin[] = "<html><body><p>caf\xe9 \xff\xfe cr\xe8me br\xfbl\xe9" "e, "
                         "and words around them.</p></body></html>";
    assert_int_equal(run(latin, sizeof latin - 1, NULL, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "and words around them."));
    const char *from;
    glance_result_charset(res, &from);
    assert_string_equal(from, "detected");
    glance_result_free(res);
}

static void utf16_with_bom(void **state)
{
    const char *ascii = "<html><body>" ARTICLE "</body></html>";
    size_t n = strlen(ascii);
    char *b = malloc(2 + 2 * n);
    assert_non_null(b);
    b[0] = (char)0xff;
    b[1] = (char)0xfe;
    for (size_t i = 0; i < n; i++) {
        b[2 + 2 * i] = ascii[i];
        b[3 + 2 * i] = 0;
    }
    glance_result *res;
    assert_int_equal(run(b, 2 + 2 * n, NULL, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "the footbridge at the mill"));
    const char *from;
    assert_string_equal(glance_result_charset(res, &from), "UTF-16LE");
    assert_string_equal(from, "bom");
    glance_result_free(res);
    free(b);
}

static void nul_bytes_in_text(void **state)
{
    const char html[] = "<html><body><p>before\0after, the text goes on past the NUL.</p></body></html>";
    glance_result *res;
    assert_int_equal(run(html, sizeof html - 1, NULL, &res), GLANCE_OK);
    /* The NUL became U+FFFD: nothing after it is lost. */
    assert_non_null(strstr(glance_result_text(res), "before\xef\xbf\xbd" "after, the text goes on"));
    glance_result_free(res);
}

static void unterminated_comment_and_script(void **state)
{
    const char *pages[] = {
        "<html><body>" ARTICLE "<!-- never closed <p>hidden words</p>",
        "<html><body>" ARTICLE "<script>var s = '<p>hidden words</p>';",
        "<html><body>" ARTICLE "<style>p { color: red } <p>hidden words</p>",
    };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        glance_result *res;
        assert_int_equal(run(pages[i], strlen(pages[i]), NULL, &res), GLANCE_OK);
        const char *t = glance_result_text(res);
        assert_non_null(strstr(t, "footbridge at the mill"));
        assert_null(strstr(t, "hidden words"));
        glance_result_free(res);
    }
}

/* 10 MB of text on one line: two million words, refused on the count; a
 * million-character word is one word, and laid out. */
static void ten_mb_single_line(void **state)
{
    buf b = {0};
    puts_(&b, "<html><body><p>");
    while (b.len < (size_t)10 << 20)
        puts_(&b, "lorem ipsum dolor sit amet ");
    puts_(&b, "</p></body></html>");
    expect(b.s, b.len, NULL, GLANCE_ETOOBIG, "words of text, over the limit of 1000000 (max_words)");
    b.len = 0;
    puts_(&b, "<html><body><p>");
    repeat(&b, "x", 1000000);
    puts_(&b, "</p></body></html>");
    glance_result *res;
    assert_int_equal(run(b.s, b.len, NULL, &res), GLANCE_OK);
    assert_int_equal(strlen(glance_result_text(res)), 1000000);
    glance_result_free(res);
    free(b.s);
}

/* litehtml matches "div div ... div" by trying every ancestor for each
 * compound: 2000 such rules over 50 nested divs hung it (> 120 s). The
 * filter drops them; the page lays out with the rules a page can afford. */
static void pathological_selectors(void **state)
{
    buf b = {0};
    puts_(&b, "<html><head><style>.keep { display: none }\n");
    for (int r = 0; r < 2000; r++) {
        repeat(&b, "div ", 200);
        puts_(&b, ":not(:not(:not(:not(div)))) { color: red }\n");
    }
    puts_(&b, "</style></head><body>");
    repeat(&b, "<div>", 50);
    puts_(&b, ARTICLE "<p class=keep>hidden words</p>");
    repeat(&b, "</div>", 50);
    puts_(&b, "</body></html>");
    glance_result *res;
    assert_int_equal(run(b.s, b.len, NULL, &res), GLANCE_OK);
    const char *t = glance_result_text(res);
    assert_non_null(strstr(t, "footbridge at the mill"));
    assert_null(strstr(t, "hidden words")); /* the cheap rule still applies */
    glance_result_free(res);
    free(b.s);
}

/* The page's <style> text in all is held to max_css_bytes: later blocks
 * are left out. */
static void style_text_capped(void **state)
{
    const char *html = "<html><head><style>p.a { color: blue }</style>"
                       "<style>.gone { display: none }</style></head><body>" ARTICLE
                       "<p class=gone>words of the second sheet</p></body></html>";
    glance_result *res;
    assert_int_equal(run(html, strlen(html), NULL, &res), GLANCE_OK);
    assert_null(strstr(glance_result_text(res), "words of the second sheet"));
    glance_result_free(res);
    glance_options *opt = OPTS("max_css_bytes=30"); /* the first block (20 bytes) fits, not both */
    assert_int_equal(run(html, strlen(html), opt, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "words of the second sheet"));
    glance_result_free(res);
    glance_options_free(opt);
}

static void huge_and_broken_sizes(void **state)
{
    const char *pages[] = {
        "<html><body><div style='width: 1e9px'>" ARTICLE "</div></body></html>",
        "<html><body><div style='width: 1000000000px; margin-left: -1000000000px'>" ARTICLE
        "</div></body></html>",
        "<html><body><div style='width: -500px; height: -1e30px; margin: NaNpx; "
        "padding: -infinitypx; font-size: nan; line-height: -3'>" ARTICLE
        "</div><img width=-5 height=99999999999><table width=-1><tr><td colspan=-3 "
        "rowspan=99999999>cell</td></tr></table></body></html>",
    };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        glance_result *res;
        assert_int_equal(run(pages[i], strlen(pages[i]), NULL, &res), GLANCE_OK);
        assert_non_null(strstr(glance_result_text(res), "footbridge at the mill"));
        /* The shot of such a page is painted too. */
        unsigned char *png = NULL;
        size_t len = 0;
        assert_int_equal(glance_result_shot_png(ctx, res, NULL, &png, &len), GLANCE_OK);
        assert_true(len > 8 && memcmp(png, "\x89PNG", 4) == 0);
        free(png);
        glance_result_free(res);
    }
}

static void document_too_tall(void **state)
{
    const char *html = "<html><body><div style='height: 2000000px'>" ARTICLE "</div></body></html>";
    expect(html, strlen(html), NULL, GLANCE_ETOOBIG, "px tall, over the limit of 1000000 (max_doc_height)");
    glance_options *opt = OPTS("max_doc_height=3000000");
    expect(html, strlen(html), opt, GLANCE_OK, NULL);
    glance_options_free(opt);
}

/* The time budget is checked between stages: 1 ms is spent by the parse
 * of a page of a thousand paragraphs. */
static void time_budget(void **state)
{
    buf b = {0};
    puts_(&b, "<html><body>");
    repeat(&b, ARTICLE, 500);
    puts_(&b, "</body></html>");
    const char *html = b.s;
    glance_options *opt = OPTS("time_budget=1ms");
    expect(html, strlen(html), opt, GLANCE_ECOSTLY, "page too costly");
    expect(html, strlen(html), opt, GLANCE_ECOSTLY, "over the budget of 1 ms (time_budget)");
    OPTS_SET(opt, "time_budget=0"); /* none */
    expect(html, strlen(html), opt, GLANCE_OK, NULL);
    /* Out of range: refused when set, the budget left as it was. */
    OPTS_REFUSED(opt, "time_budget", "-1", "time_budget");
    OPTS_TEXT(opt, "time_budget", "0");
    glance_options_free(opt);
    free(b.s);
}

/* The library's own check between stages, not render/'s: the page is laid
 * out with no budget, then extracted again (glance_result_rerun, which
 * starts the budget anew) with every method and a budget of 1 ms. GCE
 * alone takes far longer on a page of 2 000 paragraphs, so the check
 * before the next method stops the run; without it, all would answer. */
static void time_budget_between_methods(void **state)
{
    buf b = {0};
    puts_(&b, "<html><body>");
    repeat(&b, ARTICLE, 2000);
    puts_(&b, "</body></html>");
    glance_options *opt = OPTS("time_budget=0");
    glance_result *res = NULL;
    assert_int_equal(glance_extract(ctx, b.s, strlen(b.s), opt, &res), GLANCE_OK);
    OPTS_SET(opt, "method=all", "time_budget=1ms");
    assert_int_equal(glance_result_rerun(res, opt), GLANCE_ECOSTLY);
    const char *why = glance_result_message(res, GLANCE_ECOSTLY);
    if (!strstr(why, "spent before") || !strstr(why, "(time_budget)"))
        fail_msg("not the check between methods: %s", why);
    assert_null(glance_result_text(res));
    /* With no budget the same rerun answers. */
    OPTS_SET(opt, "time_budget=0");
    assert_int_equal(glance_result_rerun(res, opt), GLANCE_OK);
    glance_result_free(res);
    glance_options_free(opt);
    free(b.s);
}

int main(void)
{
    ctx = glance_context_new();
    if (!ctx) {
        fprintf(stderr, "no glance context (fonts missing?)\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_file),
        cmocka_unit_test(one_byte),
        cmocka_unit_test(random_binary),
        cmocka_unit_test(page_of_50_mb),
        cmocka_unit_test(nested_100000_divs),
        cmocka_unit_test(sibling_links_100000),
        cmocka_unit_test(many_attributes),
        cmocka_unit_test(invalid_utf8),
        cmocka_unit_test(utf16_with_bom),
        cmocka_unit_test(nul_bytes_in_text),
        cmocka_unit_test(unterminated_comment_and_script),
        cmocka_unit_test(ten_mb_single_line),
        cmocka_unit_test(pathological_selectors),
        cmocka_unit_test(style_text_capped),
        cmocka_unit_test(huge_and_broken_sizes),
        cmocka_unit_test(document_too_tall),
        cmocka_unit_test(time_budget),
        cmocka_unit_test(time_budget_between_methods),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    glance_context_free(ctx);
    /* cairo's caches of the faces the shots opened, for leak checkers. */
    cairo_debug_reset_static_data();
    FcFini();
    return failed;
}
