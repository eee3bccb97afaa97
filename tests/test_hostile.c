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
#include "render/render.h"

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

/* Random bytes are refused at any length but the shortest, whatever the
 * seed: a tenth of them are control bytes, which no page in any charset
 * holds but as strays, and bytes in no charset without markup are no page
 * either, markup being a whole tag's start, which a random run holds one
 * time in millions (below some 16 bytes a run can pass for text by
 * chance: "ab" is text). Short runs are tried by the thousand, and runs
 * after a UTF-16 BOM, which decode to characters of every script. A few pages
 * in legacy charsets, with broken bytes, or as short as a fragment are
 * read (test_charset.c has more). */
static void random_bytes_any_length(void **state)
{
    static const size_t lengths[] = {16, 24, 32, 48, 64, 100, 333, 1000, 4096, 10000, 65536, 102400, 1 << 20};
    unsigned char *b = malloc(1 << 20);
    assert_non_null(b);
    for (uint64_t seed = 1; seed <= 8; seed++) {
        uint64_t x = seed * 0x9e3779b97f4a7c15ull;
        for (size_t i = 0; i < (size_t)1 << 20; i++) {
            x ^= x << 13; /* xorshift64 */
            x ^= x >> 7;
            x ^= x << 17;
            b[i] = (unsigned char)(x >> 24);
        }
        for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++)
            expect((const char *)b, lengths[k], NULL, GLANCE_EINPUT, "binary data");
    }
    /* 3 000 short runs, 16 to 63 bytes, from one stream. */
    uint64_t x = 0x2545f4914f6cdd1dull;
    for (int n = 0; n < 3000; n++) {
        size_t len = 16 + (size_t)(n % 48);
        for (size_t i = 0; i < len; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b[i] = (unsigned char)(x >> 24);
        }
        expect((const char *)b, len, NULL, GLANCE_EINPUT, "binary data");
    }
    /* Random bytes after a UTF-16 BOM, either order, 30 B to 64 KiB. */
    for (size_t len = 32; len <= 65536; len *= 4)
        for (int order = 0; order < 2; order++) {
            for (size_t i = 0; i < len; i++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b[i] = (unsigned char)(x >> 24);
            }
            b[0] = order ? 0xfe : 0xff;
            b[1] = order ? 0xff : 0xfe;
            expect((const char *)b, len, NULL, GLANCE_EINPUT, "binary data");
        }
    free(b);
    /* windows-1251 without a declaration, Shift_JIS declared, ISO-8859-1
     * with a stray control byte, short ISO-8859-1 fragments: pages. */
    const char *pages[] = {
        "<html><body><p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xdd\xf2\xee \xf2\xe5\xea\xf1\xf2 "
        "\xed\xe0 \xf0\xf3\xf1\xf1\xea\xee\xec \xff\xe7\xfb\xea\xe5, \xe8 \xee\xed \xe4\xee\xeb"
        "\xe6\xe5\xed \xe1\xfb\xf2\xfc \xef\xf0\xee\xf7\xe8\xf2\xe0\xed.</p></body></html>",
        "<html><head><meta charset=\"shift_jis\"></head><body><p>\x93\xfa\x96\x7b\x8c\xea\x82"
        "\xcc\x95\xb6\x8f\xcd\x82\xc5\x82\xb7\x81\x42</p></body></html>",
        "<html><body><p>Caf\xe9 cr\xe8me br\xfbl\xe9" "e\x01, and words around them.</p></body></html>",
        "<p>Caf\xe9 cr\xe8me</p>", "<!-- \xe9t\xe9 -->Caf\xe9", "<b>\xe9t\xe9</b>",
    };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
        expect(pages[i], strlen(pages[i]), NULL, GLANCE_OK, NULL);
}

/* Control bytes among printable ASCII, as a page with markup: one in 40
 * characters is binary data, one in 400 a page with strays (the count is
 * over 1 in 100). Each kind alone, DEL (0x7f) and the C0 controls but tab,
 * line ends and form feed, wherever it falls in the eight-byte words that
 * input.c reads printable ASCII in. */
static void control_bytes_among_ascii(void **state)
{
    (void)state;
    static const unsigned char c0[] = {0x01, 0x02, 0x07, 0x08, 0x0b, 0x10, 0x1a, 0x1f};
    const char *head = "<html><body><p>", *tail = "</p></body></html>";
    size_t n = 8000, hl = strlen(head), tl = strlen(tail);
    char *b = malloc(hl + n + tl);
    assert_non_null(b);
    for (int kind = 0; kind < 2; kind++)
        for (size_t every = 40; every <= 400; every *= 10) {
            memcpy(b, head, hl);
            for (size_t i = 0; i < n; i++) {
                char c = "Words in a line, "[i % 17];
                if (i % every == every / 2 + i / every % 8)
                    c = kind ? (char)c0[i / every % 8] : (char)0x7f;
                b[hl + i] = c;
            }
            memcpy(b + hl + n, tail, tl);
            if (every == 40)
                expect(b, hl + n + tl, NULL, GLANCE_EINPUT, "binary data");
            else
                expect(b, hl + n + tl, NULL, GLANCE_OK, NULL);
        }
    free(b);
}

/* The standard's parser of a span attribute, clamped. */
static void span_values(void **state)
{
    struct {
        const char *v;
        int max, want;
    } cases[] = {{"3", 1000, 3},          {" +7 ", 1000, 7},      {"0", 1000, 1},
                 {"abc", 1000, 1},        {"-4", 1000, 1},        {"65534", 1000, 1000},
                 {"99999999999999", 65534, 65534}, {"65535", 65534, 65534}, {"12px", 1000, 12},
                 {"", 1000, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_int_equal(render_span_value(cases[i].v, strlen(cases[i].v), cases[i].max),
                         cases[i].want);
}

/* One cell of colspan and rowspan 65 534 over 1 000 rows: litehtml's grid
 * held 65 million cells (4.1 GB, 12.5 s). The spans are clamped as
 * browsers clamp them (1 000 columns), and the grid that is left, a
 * million cells and one row and column more, is over max_table_cells; with
 * a higher limit the clamped table is laid out. */
static void table_spans(void **state)
{
    buf b = {0};
    puts_(&b, "<html><body>" ARTICLE "<table><tr><td colspan=\"65534\" rowspan=\"65534\">x</td></tr>");
    repeat(&b, "<tr><td>a row</td></tr>", 1000);
    puts_(&b, "</table></body></html>");
    expect(b.s, b.len, NULL, GLANCE_ETOOBIG,
           "1002001 table cells, over the limit of 1000000 (max_table_cells)");
    glance_options *opt = OPTS("max_table_cells=2000000");
    expect(b.s, b.len, opt, GLANCE_OK, NULL);
    glance_options_free(opt);
    /* litehtml reads a colspan on any cell, display:table-cell too (where
     * browsers ignore it), and builds anonymous tables around stray rows:
     * no <table> for the scan to see; counted on the tree before the grids
     * are built. */
    const char *open[] = {"<div style=\"display:table\">", "<section>"};
    for (size_t i = 0; i < 2; i++) {
        b.len = 0;
        puts_(&b, "<html><body>" ARTICLE);
        puts_(&b, open[i]);
        puts_(&b, "<div style=\"display:table-row\"><div style=\"display:table-cell\" "
                  "colspan=\"65534\">x</div></div>");
        repeat(&b, "<div style=\"display:table-row\"><div style=\"display:table-cell\">a "
                   "row</div></div>", 1000);
        puts_(&b, i ? "</section>" : "</div>");
        puts_(&b, "</body></html>");
        expect(b.s, b.len, NULL, GLANCE_ETOOBIG, "table cells, over the limit of 1000000 (max_table_cells)");
    }
    free(b.s);
}

/* A large honest table is still a page: 200 rows of 10 cells, and a
 * thousand tables of a row. */
static void honest_tables(void **state)
{
    buf b = {0};
    puts_(&b, "<html><body>" ARTICLE "<table><tr><th colspan=2>head</th><th rowspan=200>side</th></tr>");
    for (int r = 0; r < 200; r++) {
        puts_(&b, "<tr>");
        repeat(&b, "<td>12.5</td>", 10);
        puts_(&b, "</tr>");
    }
    puts_(&b, "</table>");
    repeat(&b, "<table><tr><td>one</td><td>row</td></tr></table>", 1000);
    puts_(&b, "</body></html>");
    glance_result *res;
    assert_int_equal(run(b.s, b.len, NULL, &res), GLANCE_OK);
    assert_non_null(glance_result_text(res));
    glance_result_free(res);
    free(b.s);
}

/* li::before { content: counter(a) "<100 000 characters>" } over 20 000
 * items: two billion characters that litehtml would build while applying
 * the styles (69 s and 4 GB before the budget refused it). The CSS filter
 * bounds it before parsing. An icon before each item is a page. */
static void generated_content(void **state)
{
    buf b = {0};
    puts_(&b, "<html><head><style>ol { counter-reset: a } li { counter-increment: a }\n"
              "li::before { content: counter(a) \"");
    repeat(&b, "x", 100000);
    puts_(&b, "\" }</style></head><body>" ARTICLE "<ol>");
    repeat(&b, "<li>item</li>", 20000);
    puts_(&b, "</ol></body></html>");
    expect(b.s, b.len, NULL, GLANCE_ETOOBIG, "over the limit of 2000000 (max_generated)");
    b.len = 0;
    puts_(&b, "<html><head><style>li::before { content: \"\\2022  \" } "
              ".note:after { content: \" (note)\" }</style></head><body>" ARTICLE "<ul>");
    repeat(&b, "<li class=note>item</li>", 2000);
    puts_(&b, "</ul></body></html>");
    expect(b.s, b.len, NULL, GLANCE_OK, NULL);
    /* The boxes themselves are counted after parsing. */
    glance_options *opt = OPTS("max_pseudo_boxes=1000");
    expect(b.s, b.len, opt, GLANCE_ETOOBIG, "4000 ::before/::after boxes, over the limit of 1000 (max_pseudo_boxes)");
    glance_options_free(opt);
    free(b.s);
}

/* 50 000 floated siblings: litehtml places each against all before it
 * (still running after 120 s). Refused before layout; a few floats, and
 * many in separate formatting contexts, are a page. */
static void many_floats(void **state)
{
    buf b = {0};
    char d[96];
    puts_(&b, "<html><body>" ARTICLE);
    for (int i = 0; i < 50000; i++) {
        snprintf(d, sizeof d, "<div style=\"float:left;width:%dpx\">f</div>", i % 300 + 1);
        puts_(&b, d);
    }
    puts_(&b, "</body></html>");
    expect(b.s, b.len, NULL, GLANCE_ETOOBIG,
           "50000 floats in one formatting context, over the limit of 2000 (max_floats)");
    b.len = 0;
    puts_(&b, "<html><body><div style=\"float:right;width:200px\">aside</div>" ARTICLE
              "<img style=\"float:left\" width=100 height=100>" ARTICLE);
    for (int i = 0; i < 100; i++) {
        puts_(&b, "<div style=\"overflow:hidden\">");
        repeat(&b, "<span style=\"float:left\">tag</span>", 30);
        puts_(&b, "</div>");
    }
    puts_(&b, "</body></html>");
    glance_result *res;
    assert_int_equal(run(b.s, b.len, NULL, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "the footbridge at the mill"));
    glance_result_free(res);
    free(b.s);
}

/* 50 000 absolutely positioned boxes (4.4 s, 253 MB): refused before
 * layout; a few hundred are a page. */
static void many_positioned(void **state)
{
    buf b = {0};
    char d[96];
    puts_(&b, "<html><body>" ARTICLE);
    for (int i = 0; i < 50000; i++) {
        snprintf(d, sizeof d, "<div style=\"position:absolute;left:%dpx;top:%dpx\">a</div>",
                 i % 1000, i % 700);
        puts_(&b, d);
    }
    puts_(&b, "</body></html>");
    expect(b.s, b.len, NULL, GLANCE_ETOOBIG,
           "50000 absolutely positioned boxes, over the limit of 20000 (max_positioned)");
    b.len = 0;
    puts_(&b, "<html><body>" ARTICLE);
    repeat(&b, "<div style=\"position:absolute;top:0;left:0\">badge</div>", 300);
    puts_(&b, "</body></html>");
    expect(b.s, b.len, NULL, GLANCE_OK, NULL);
    free(b.s);
}

/* 100 000 nested <b>: formatting elements, which the parser may reopen,
 * so the scan cannot refuse them alone: gumbo's exact depth does. */
static void nested_100000_b(void **state)
{
    buf b = {0};
    puts_(&b, "<html><body>" ARTICLE);
    repeat(&b, "<b>", 100000);
    puts_(&b, "x");
    repeat(&b, "</b>", 100000);
    puts_(&b, "</body></html>");
    expect(b.s, b.len, NULL, GLANCE_ETOOBIG, "(max_depth)");
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
        cmocka_unit_test(control_bytes_among_ascii),
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
        cmocka_unit_test(random_bytes_any_length),
        cmocka_unit_test(span_values),
        cmocka_unit_test(table_spans),
        cmocka_unit_test(honest_tables),
        cmocka_unit_test(generated_content),
        cmocka_unit_test(many_floats),
        cmocka_unit_test(many_positioned),
        cmocka_unit_test(nested_100000_b),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    glance_context_free(ctx);
    /* cairo's caches of the faces the shots opened, for leak checkers. */
    cairo_debug_reset_static_data();
    FcFini();
    return failed;
}
