/* render/cssfilter: rules that cannot match the page are dropped, nothing
 * that could match is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/cssfilter.h"
#include "render/cssmath.h"
#include "render/spaces.h"
#include "render/streamed.h"
#include "base/buf.h"

static const char PAGE[] =
    "<!DOCTYPE html><html><head><title>t</title></head><body>"
    "<div class=\"a  B\" id='main' data-x><p>x</p><i class=md:flex>y</i>"
    "<script>var s = \"<span class=zz id=other>\";</script>"
    "<!-- <span class=zz> --></div></body></html>";

static char *filter(const char *css)
{
    css_index *ix = css_index_html(PAGE, strlen(PAGE), NULL, NULL);
    assert_non_null(ix);
    size_t n;
    char *out = css_filter(ix, css, strlen(css), &n);
    assert_non_null(out);
    assert_int_equal(n, strlen(out));
    css_index_free(ix);
    return out;
}

static void expect_kept(const char *css)
{
    char *out = filter(css);
    if (!strstr(out, css))
        fail_msg("dropped a rule that can match: %s (got \"%s\")", css, out);
    free(out);
}

static void expect_dropped(const char *css)
{
    char *out = filter(css);
    if (out[0])
        fail_msg("kept a rule that cannot match: %s (got \"%s\")", css, out);
    free(out);
}

/* The filter writes `want` of `css`, to the byte; with `trim`, the newlines
 * at its end not counted (the filter ends each rule with one). */
static void expect_output(const char *css, const char *want, int trim)
{
    char *out = filter(css);
    size_t n = strlen(out);
    while (trim && n && out[n - 1] == '\n')
        out[--n] = '\0';
    if (strcmp(out, want) != 0)
        fail_msg("\"%s\" gave \"%s\", not \"%s\"", css, out, want);
    free(out);
}

static void test_rules_by_tag_class_id(void **state)
{
    (void)state;
    expect_kept(".a{color:red}");
    expect_kept("#main p{margin:0}");
    expect_kept("div > .b{x:y}");        /* classes compared without case */
    expect_kept("body{margin:0}");       /* the parser makes <body> anyway */
    expect_kept("tbody{x:y}");           /* ... and <tbody> */
    expect_kept("[data-x]{o:p}");
    expect_kept("*{q:r}");
    expect_kept(".a::before{k:l}");
    expect_kept(".md\\:flex{m:n}");      /* an escaped class that is there */
    expect_kept("p:not(.nothere){x:y}"); /* arguments are not looked into */
    expect_dropped(".zz{x:y}");          /* only inside a script */
    expect_dropped("span{x:y}");         /* only inside a comment */
    expect_dropped("#other{x:y}");
    expect_dropped("div .q{x:y}");
    expect_dropped("a:hover{x:y}");
    expect_dropped(".a:hover{x:y}");      /* no pointer over a laid-out page */
    expect_dropped("p:focus-within{x:y}");
    expect_dropped("p::selection{x:y}");
    expect_dropped("p::-webkit-scrollbar{x:y}");
    expect_kept("p:first-child{x:y}");
    expect_dropped(".md\\:grid{x:y}");
}

static void test_lists_media_and_at_rules(void **state)
{
    (void)state;
    char *out = filter(".a:hover, .a , span.zz{c:d}");
    assert_string_equal(out, ".a{c:d}\n"); /* only the selectors that can match */
    free(out);
    out = filter("@media (min-width:100px){.a{e:f} .q{g:h}}@media print{.q{x:y}}");
    assert_string_equal(out, "@media (min-width:100px){.a{e:f}\n}\n");
    free(out);
    out = filter("@font-face{font-family:x;src:url(a.woff)}@keyframes k{0%{opacity:0}}"
                 "@import url(x.css);/* .a{} */p{content:\"}{\"}");
    assert_string_equal(out, "@import url(x.css);p{content:\"}{\"}\n");
    free(out);
    /* litehtml 0.6 drops what is inside @layer and @supports: a layer's
     * rules, and those of a condition a browser of today meets, come out
     * of their block; an unmet condition's rules go. */
    static const struct {
        const char *css, *out;
    } blocks[] = {
        {"@layer base{.a{e:f}.q{g:h}}", ".a{e:f}\n"},
        {"@layer a, b;@layer b{@media (min-width:1px){.a{e:f}}}",
         "@layer a, b;@media (min-width:1px){.a{e:f}\n}\n"},
        /* A layer's rules lose to the others whatever their order: first. */
        {"@import url(x.css);p{g:h}@layer x{.a{e:f}}@media print{}div{i:j}",
         "@import url(x.css);.a{e:f}\np{g:h}\ndiv{i:j}\n"},
        {"@media (min-width:1px){p{g:h}@layer x{.a{e:f}}}",
         "@media (min-width:1px){.a{e:f}\n}\n@media (min-width:1px){p{g:h}\n}\n"},
        {"@supports (display: grid){.a{e:f}}", ".a{e:f}\n"},
        {"@supports not (display: grid){.a{e:f}}", ""},
        {"@supports (-moz-appearance: none){.a{e:f}}", ""},            /* another engine's */
        {"@supports (-webkit-appearance: none){.a{e:f}}", ".a{e:f}\n"},
        {"@supports (display: grid) and (not (display: inline-grid)){.a{e:f}}", ""},
        {"@supports (-ms-grid-row: 1) or ((gap: 1px) and selector(a > b)){.a{e:f}}", ".a{e:f}\n"},
        {"@supports font-tech(color-COLRv1){.a{e:f}}", ""},
        {"@supports (display: grid) nonsense (x: y){.a{e:f}}", ""},
        {"@supports (display: grid) or{.a{e:f}}", ""},
        /* CSS nesting, which litehtml 0.6 does not read: written out. */
        {".a{color:red;& p{x:y}}", ".a{color:red;}\n.a p{x:y;}\n"},
        {".a{&:first-child{x:y}g:h}", ".a{g:h;}\n.a:first-child{x:y;}\n"},
        {".a, p{ i{x:y} }", ".a i,p i{x:y;}\n"},
        {".a{ p{ i{x:y} } }", ".a p i{x:y;}\n"},
        {"div{.B &{x:y}}", ".B div{x:y;}\n"},
        {".a{@media (min-width:1px){x:y}}", "@media (min-width:1px){.a{x:y;}\n}\n"},
        {".a{ .zz{x:y} }", ""},
        {".a{content:\"{\";k:l}", ".a{content:\"{\";k:l}\n"},    /* a brace in a string */
    };
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        expect_output(blocks[i].css, blocks[i].out, 0);
}

static void test_page_rewrite(void **state)
{
    (void)state;
    const char html[] = "<html><head><style>.a{x:y} .gone{x:y}</style>"
                        "<link rel=stylesheet href=light.css>"
                        "<link rel=stylesheet href=dark.css disabled>"
                        "<script type=\"text/javascript\">if (a < b) document.write('<p>');</script>"
                        "</head><body><!-- a comment --><div class=a>text</div>"
                        "<textarea><!-- kept --></textarea></body></html>";
    css_index *ix = css_index_html(html, strlen(html), NULL, NULL);
    assert_non_null(ix);
    char *out = css_prepare_html(ix, html, strlen(html), 1, NULL);
    assert_non_null(out);
    assert_string_equal(out, "<html><head><style>.a{x:y}\n</style>"
                             "<link rel=stylesheet href=light.css>"
                             "<script type=\"text/javascript\"></script>"
                             "</head><body><div class=a>text</div>"
                             "<textarea><!-- kept --></textarea></body></html>");
    free(out);
    css_index_free(ix);
}

/* A selector litehtml could take too long to match on a page 40 deep:
 * over five descendant or sibling combinators (the sum of C(40, j), j up
 * to six, is over CSS_MAX_MATCH_COST), counted as runs of white space not
 * beside '>' or '+', and '~'; a run of spaces counts once. */
static void test_costly_selectors_dropped(void **state)
{
    (void)state;
    static const struct {
        const char *css;
        int kept;
    } cases[] = {
        {"div p p p p p{x:y}", 1},
        {"div p p p p p p{x:y}", 0},
        {"div  p\tp\n p p \f p{x:y}", 1},
        {"div p.b p[title='a b c d e f'] p:not(.x .y) p p{x:y}", 0},
        {"div p[title='a b c d e f g'] p{x:y}", 1},
        {"div > p > p > p > p > p > p > p + p{x:y}", 1},
        {"div p p p ~ p{x:y}", 0},
        {"div p p p~p{x:y}", 1},
    };
    const char page[] = "<div class=a><p class=b>x</p></div>";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        css_index *ix = css_index_html(page, strlen(page), NULL, NULL);
        assert_non_null(ix);
        css_index_limit(ix, 40, 1, 0);
        size_t n;
        char *out = css_filter(ix, cases[i].css, strlen(cases[i].css), &n);
        assert_non_null(out);
        if ((n > 0) != cases[i].kept)
            fail_msg("%s: %s", cases[i].css, n > 0 ? "kept" : "dropped");
        free(out);
        css_index_free(ix);
    }
}

/* With css_index_set_aside, each <style>'s filtered sheet is set aside and
 * a mark left in its place: putting each sheet back at its mark gives the
 * page css_prepare_html writes without. A sheet the HTML parser would not
 * hand on as it is (a CR, a NUL, a control character, ill-formed UTF-8, a
 * noncharacter, "</"; once an <svg> has begun, '<' or '&') stays in the
 * page; an empty one is not set aside. */
static void test_sheets_set_aside(void **state)
{
    (void)state;
    const char html[] = "<html><head><style media=screen>.a{color:red} .gone{x:y}</style>"
                        "<style>.b{content:'\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80'}</style>"
                        "<style>.a{font-family:x,\r\ny}</style><style>.gone{x:y}</style>"
                        "<style>.a{content:'\x01'}</style><style>.a{content:'\xed\xa0\x80'}</style>"
                        "<style>.a{content:'\xef\xb7\x90'}</style><style>.a{content:'\xc3'}</style>"
                        "<style>.a{content:'<\\/x'}</style><style>.a{content:'</x'}</style>"
                        "<style>.a{background:url(x.png?a=1&amp;b=2)}</style>"
                        "<STYLE>.b{\tx:y}</STYLE></head><body><p class='a b'>x</p>"
                        "<svg><style>.a{content:'&gt;'}</style></svg><style>.b{y:z}</style>"
                        "<style>.a{content:'a<b'}</style></body></html>";
    css_index *plain = css_index_html(html, strlen(html), NULL, NULL);
    css_index *ix = css_index_html(html, strlen(html), NULL, NULL);
    assert_non_null(plain);
    assert_non_null(ix);
    char *want = css_prepare_html(plain, html, strlen(html), 1, NULL);
    css_index_set_aside(ix, 1);
    char *got = css_prepare_html(ix, html, strlen(html), 1, NULL);
    assert_non_null(want);
    assert_non_null(got);
    assert_int_equal(css_index_aside_count(plain), 0);
    /* Six sheets set aside: the first two, the one with "<\\/", the one with
     * "&amp;" before the <svg>, the one in capitals, the one with neither
     * '<' nor '&' after it (a <style> of <svg> is markup to the parser). */
    assert_int_equal(css_index_aside_count(ix), 6);
    base_buf b = BASE_BUF_INIT;
    size_t marks = 0;
    for (const char *p = got; *p;) {
        const char *m = strstr(p, "/*glance-aside:");
        if (!m) {
            base_buf_puts(&b, p);
            break;
        }
        base_buf_add(&b, p, (size_t)(m - p));
        const char *close = strstr(m, "*/");
        assert_non_null(close);
        char mark[64];
        snprintf(mark, sizeof mark, "%.*s", (int)(close + 2 - m), m);
        size_t n, n2;
        const char *css = css_index_aside_of(ix, mark, &n);
        assert_non_null(css);
        assert_ptr_equal(css, css_index_aside(ix, marks, &n2));
        assert_int_equal(n, n2);
        base_buf_add(&b, css, n);
        marks++;
        p = close + 2;
    }
    assert_int_equal(marks, 6);
    char *back = base_buf_take(&b, NULL);
    assert_string_equal(back, want);
    /* Only a mark of this page's, exactly, is one. */
    size_t n;
    assert_null(css_index_aside_of(ix, "/*glance-aside:6*/", &n));
    assert_null(css_index_aside_of(ix, "/*glance-aside:0*/ ", &n));
    assert_null(css_index_aside_of(ix, "/*glance-aside:00*/", &n));
    assert_null(css_index_aside_of(ix, ".a{color:red}", &n));
    assert_null(css_index_aside_of(plain, "/*glance-aside:0*/", &n));
    /* The next page's sheets replace these. */
    free(got);
    got = css_prepare_html(ix, "<style>.a{}</style>", 19, 1, NULL);
    assert_int_equal(css_index_aside_count(ix), 1);
    free(got);
    free(back);
    free(want);
    css_index_free(plain);
    css_index_free(ix);
}

/* The attributes nothing reads leave the page before the parse, their
 * markup's length in DOM_ATTR_CUT; those a stylesheet names, an <img>'s
 * data-*, a value GCE reads or one with a reference stay. */
static void test_unread_attributes_left_out(void **state)
{
    (void)state;
    const char html[] =
        "<style>[data-state=open] { display: block } .n::after { content: attr(data-n) }"
        "</style><div class=c data-x=\"1\" aria-label='a' onclick=\"f()\" id=d>t</div>"
        "<svg viewBox=\"0 0 9 9\"><path d=\"M0 0L9 9\"/></svg>"
        "<p class=n data-state=open data-n=3 data-role=\"Article body\" data-q=\"&amp;\">p</p>"
        "<img data-src=a.jpg src=p.gif onload=x><b data-é=\"ü\">b</b><i on-x=1 data-v>i</i>";
    css_index *ix = css_index_html(html, strlen(html), NULL, NULL);
    assert_non_null(ix);
    /* Off (the default): the page as it is, but its filtered style. */
    char *as_is = css_prepare_html(ix, html, strlen(html), 1, NULL);
    assert_non_null(as_is);
    assert_non_null(strstr(as_is, "<div class=c data-x=\"1\" aria-label='a' onclick=\"f()\" id=d>"));
    css_index_drop_attrs(ix, 1);
    char *out = css_prepare_html(ix, html, strlen(html), 1, NULL);
    assert_non_null(out);
    /* ` data-x="1"` 11, ` aria-label='a'` 15, ` onclick="f()"` 14: 40; the
     * path's ` d="M0 0L9 9"` 13; the <img>'s ` onload="x"` 11, counted
     * as DANAg counts it, quoted (its data-src stays); ` data-é="ü"` 11
     * code points; a bare ` data-v` 7. */
    assert_string_equal(
        out, "<style>[data-state=open]{ display: block }\n.n::after{ content: attr(data-n) }\n"
             "</style><div class=c    id=d data-glance-cut=\"40\">t</div>"
             "<svg viewBox=\"0 0 9 9\"><path  data-glance-cut=\"13\"/></svg>"
             "<p class=n data-state=open data-n=3 data-role=\"Article body\" data-q=\"&amp;\">p</p>"
             "<img data-src=a.jpg src=p.gif  data-glance-cut=\"11\"><b  data-glance-cut=\"11\">b"
             "</b><i on-x=1  data-glance-cut=\"7\">i</i>");
    free(out);
    assert_int_equal(css_index_attrs_lost(ix), 0);
    /* A stylesheet read after (a linked sheet's @import) that names one
     * left out: the page must be read again; one that names another, not. */
    char *f = css_filter(ix, "[aria-busy] { color: red }", 26, NULL);
    free(f);
    assert_int_equal(css_index_attrs_lost(ix), 0);
    f = css_filter(ix, "[ARIA-label] { display: none }", 30, NULL);
    free(f);
    assert_int_equal(css_index_attrs_lost(ix), 1);
    /* Read again with them all. */
    css_index_drop_attrs(ix, 0);
    assert_int_equal(css_index_attrs_lost(ix), 0);
    out = css_prepare_html(ix, html, strlen(html), 1, NULL);
    assert_string_equal(out, as_is);
    free(out);
    free(as_is);
    css_index_free(ix);
}

/* The page as streamed_splice writes it; NULL when it places nothing. */
static char *spliced(const char *html, int parts)
{
    char *out;
    size_t n;
    assert_int_equal(streamed_splice(html, strlen(html), &out, &n), parts);
    if (out)
        assert_int_equal(n, strlen(out));
    return out;
}

static void test_streamed_parts_put_in_place(void **state)
{
    (void)state;
    /* A boundary with its fallback, the part at the end, and the script
     * that moves it: the part's content in the boundary's place, the
     * fallback and the hidden copy gone, the script's text kept. */
    const char *boundary = "<body><h1>Site</h1><!--$?--><template id=\"B:0\"></template>"
                           "<p>Loading</p><!--$--><i>x</i><!--/$--><p>spinner</p><!--/$-->"
                           "<footer>f</footer><div hidden id=\"S:0\"><article>Story</article>"
                           "</div><script>$RC(\"B:0\",\"S:0\")</script></body>";
    char *out = spliced(boundary, 1);
    assert_non_null(out);
    assert_string_equal(out, "<body><h1>Site</h1><!--$?--><article>Story</article><!--/$-->"
                             "<footer>f</footer><script>$RC(\"B:0\",\"S:0\")</script></body>");
    free(out);

    /* A placeholder inside a part, filled by a second part ($RS, ids in
     * the other order), single quotes, a part with a <div> of its own
     * inside. */
    const char *nested = "<main><template id=\"B:a\"></template></main>"
                         "<div hidden id=\"S:a\"><div><p>One</p></div><template id=\"P:1\">"
                         "</template><p>Three</p></div>"
                         "<div hidden=\"\" id=\"S:1\"><p>Two</p></div>"
                         "<script>$RS('S:1', 'P:1');$RC(\"B:a\",\"S:a\")</script>";
    out = spliced(nested, 2);
    assert_non_null(out);
    assert_string_equal(out, "<main><div><p>One</p></div><p>Two</p><p>Three</p></main>"
                             "<script>$RS('S:1', 'P:1');$RC(\"B:a\",\"S:a\")</script>");
    free(out);

    /* Through css_prepare_html: the comments and the script text go too. */
    css_index *ix = css_index_html(boundary, strlen(boundary), NULL, NULL);
    assert_non_null(ix);
    css_page_info info;
    out = css_prepare_html(ix, boundary, strlen(boundary), 1, &info);
    assert_non_null(out);
    assert_int_equal(info.streamed_parts, 1);
    assert_string_equal(out, "<body><h1>Site</h1><article>Story</article>"
                             "<footer>f</footer><script></script></body>");
    free(out);
    css_index_free(ix);
}

static void test_streamed_pages_left_alone(void **state)
{
    (void)state;
    const char *pages[] = {
        /* no script names a pair */
        "<template id=\"B:0\"></template><div hidden id=\"S:0\">x</div>",
        /* the function defined, never called */
        "<script>$RC=function(b,c){}</script><div hidden id=\"S:0\">x</div>",
        /* a pair whose part is missing, or whose placeholder is */
        "<template id=\"B:0\"></template><script>$RC(\"B:0\",\"S:0\")</script>",
        "<div hidden id=\"S:0\">x</div><script>$RC(\"B:0\",\"S:0\")</script>",
        /* a part that is not hidden, a template with content */
        "<template id=\"B:0\"></template><div id=\"S:0\">x</div><script>$RC(\"B:0\",\"S:0\")"
        "</script>",
        "<template id=\"B:0\"><p>t</p></template><div hidden id=\"S:0\">x</div>"
        "<script>$RC(\"B:0\",\"S:0\")</script>",
        /* a placeholder inside its own part */
        "<div hidden id=\"S:0\"><template id=\"P:0\"></template></div>"
        "<script>$RS(\"S:0\",\"P:0\")</script>",
        /* cut off in the middle of the instruction or of the part */
        "<template id=\"B:0\"></template><div hidden id=\"S:0\">x</div><script>$RC(\"B:0\",",
        "<template id=\"B:0\"></template><script>$RC(\"B:0\",\"S:0\")</script>"
        "<div hidden id=\"S:0\">x",
    };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        char *out = spliced(pages[i], 0);
        if (out)
            fail_msg("page %zu rewritten: %s", i, out);
    }

    /* Hidden void elements with ids, more than can be open at once, before
     * a part: they open nothing, and the part is still found. */
    base_buf voids = BASE_BUF_INIT;
    base_buf_puts(&voids, "<template id=\"B:0\"></template>");
    for (int i = 0; i < STREAMED_MAX_OPEN + 10; i++)
        base_buf_printf(&voids, "<input hidden id=\"f%d\"><img hidden id=\"i%d\">", i, i);
    base_buf_puts(&voids, "<div hidden id=\"S:0\">x</div><script>$RC(\"B:0\",\"S:0\")</script>");
    char *vp = base_buf_take(&voids, NULL);
    assert_non_null(vp);
    char *vout = spliced(vp, 1);
    assert_non_null(vout);
    assert_non_null(strstr(vout, "<input hidden id=\"f0\">"));
    assert_true(vout[0] == 'x');
    free(vout);
    free(vp);

    /* Two parts each holding the other's placeholder: neither can be
     * reached; written once, without looping. */
    const char *cycle = "<p>a</p><div hidden id=\"S:0\"><template id=\"P:1\"></template></div>"
                        "<div hidden id=\"S:1\"><template id=\"P:0\"></template></div>"
                        "<script>$RS(\"S:0\",\"P:0\");$RS(\"S:1\",\"P:1\")</script>";
    char *out = spliced(cycle, 2);
    assert_non_null(out);
    assert_string_equal(out, "<p>a</p><script>$RS(\"S:0\",\"P:0\");$RS(\"S:1\",\"P:1\")</script>");
    free(out);

    /* One part named by two scripts: placed once, at the first. */
    const char *twice = "<template id=\"B:0\"></template><template id=\"B:1\"></template>"
                        "<div hidden id=\"S:0\">x</div>"
                        "<script>$RC(\"B:0\",\"S:0\");$RC(\"B:1\",\"S:0\")</script>";
    out = spliced(twice, 1);
    assert_non_null(out);
    assert_string_equal(out, "x<template id=\"B:1\"></template>"
                             "<script>$RC(\"B:0\",\"S:0\");$RC(\"B:1\",\"S:0\")</script>");
    free(out);

    /* Parts within parts deeper than the bound: the deepest left out. */
    base_buf chain = BASE_BUF_INIT;
    base_buf_puts(&chain, "<template id=\"P:0\"></template>");
    for (int i = 0; i < STREAMED_MAX_NESTING + 10; i++)
        base_buf_printf(&chain,
                        "<div hidden id=\"S:%d\">[%d]<template id=\"P:%d\"></template></div>", i,
                        i, i + 1);
    base_buf_puts(&chain, "<script>");
    for (int i = 0; i < STREAMED_MAX_NESTING + 10; i++)
        base_buf_printf(&chain, "$RS(\"S:%d\",\"P:%d\");", i, i);
    base_buf_puts(&chain, "</script>");
    char *deep = base_buf_take(&chain, NULL);
    assert_non_null(deep);
    out = spliced(deep, STREAMED_MAX_NESTING + 10);
    assert_non_null(out);
    char last[32];
    snprintf(last, sizeof last, "[%d]", STREAMED_MAX_NESTING - 1);
    assert_non_null(strstr(out, last));
    snprintf(last, sizeof last, "[%d]", STREAMED_MAX_NESTING);
    assert_null(strstr(out, last));
    free(out);
    free(deep);

    /* More parts than are read: those within the bound placed, the rest
     * left hidden where they are. */
    base_buf b = BASE_BUF_INIT;
    for (int i = 0; i < STREAMED_MAX_PARTS + 100; i++)
        base_buf_printf(&b, "<template id=\"B:%x\"></template>", i);
    for (int i = 0; i < STREAMED_MAX_PARTS + 100; i++)
        base_buf_printf(&b, "<div hidden id=\"S:%x\">%d</div>", i, i);
    base_buf_puts(&b, "<script>");
    for (int i = 0; i < STREAMED_MAX_PARTS + 100; i++)
        base_buf_printf(&b, "$RC(\"B:%x\",\"S:%x\");", i, i);
    base_buf_puts(&b, "</script>");
    char *big = base_buf_take(&b, NULL);
    assert_non_null(big);
    out = spliced(big, STREAMED_MAX_PARTS);
    assert_non_null(out);
    assert_non_null(strstr(out, "40944095<template id=\"B:1000\"></template>"));
    assert_non_null(strstr(out, "<div hidden id=\"S:1000\">4096</div>"));
    free(out);
    free(big);
}

/* Every byte of `out` but the filter's own punctuation is in `in`: nothing
 * invented, nothing read past the end. */
static void expect_from_input(const char *in, const char *out)
{
    for (const char *p = out; *p; p++)
        if (!strchr("{};\n ", *p) && !strchr(in, *p))
            fail_msg("output \"%s\" of \"%s\" holds '%c', not in the input", out, in, *p);
}

/* Each of `n` sheets: whatever comes out comes from the input. */
static void expect_all_from_input(const char *const *css, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *out = filter(css[i]);
        expect_from_input(css[i], out);
        free(out);
    }
}

static void test_broken_css_is_safe(void **state)
{
    (void)state;
    /* Unterminated blocks, strings and comments: a browser closes what is
     * open at the end of the sheet, so a rule that can match stays, with
     * its declarations; what never was a rule gives nothing. */
    static const struct {
        const char *css, *starts; /* the output starts so; NULL: it is empty */
    } cases[] = {
        {".a{color:red", ".a{color:red"},       /* closed at the end: kept */
        {".a{content:\"x", ".a{content:\"x"},   /* the string too */
        {".q{color:red", NULL},                 /* no .q on the page */
        {"/* open", NULL},
        {"/* .a{x:y} ", NULL},                  /* inside a comment to the end */
        {"{{{", NULL},
        {"\\", NULL},
        {"", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = filter(cases[i].css);
        expect_from_input(cases[i].css, out);
        if (!cases[i].starts && out[0])
            fail_msg("\"%s\" gave \"%s\", not nothing", cases[i].css, out);
        if (cases[i].starts && strncmp(out, cases[i].starts, strlen(cases[i].starts)) != 0)
            fail_msg("\"%s\" gave \"%s\", not the rule kept", cases[i].css, out);
        free(out);
    }
    /* The rest: whatever comes out comes from the input. */
    const char *const more[] = {"@media screen{.a{", "}}}.a{x:y}", ".a,,,{x:y}", "@",
                                "@media{", "}", ".a{p{", ".a{p{i{", ".a{@media{",
                                ".a{;;{}}", "{.a{}}"};
    expect_all_from_input(more, sizeof more / sizeof more[0]);
}

/* :is() and :where(), which litehtml 0.6 matches nothing with, written
 * out as the selectors they stand for (the page has div.a.B#main, p and
 * i.md:flex). */
static void test_is_and_where_written_out(void **state)
{
    (void)state;
    static const struct {
        const char *css, *out;
    } cases[] = {
        /* A rule that showed the first of the divs that another hid. */
        {":is(.a > p):first-of-type{x:y}", ".a > p:first-of-type{x:y}"},
        {"div:is(.a, .zz) i{x:y}", "div.a i{x:y}"},           /* .zz is not there */
        {".a :where(p, i.md\\:flex){x:y}", ".a p,.a i.md\\:flex{x:y}"},
        {".B:IS(div){x:y}", "div.B{x:y}"},                   /* the type first */
        {"*:is(p){x:y}", "p{x:y}"},
        {":is(p, :where(i, #main)){x:y}", "p,i,#main{x:y}"}, /* nested */
        {"p:is(div){x:y}", ""},                              /* two types: never */
        {":is(p, i):is(.nothere){x:y}", ""},
        {"p:not(:is(.a)){x:y}", "p:not(:is(.a)){x:y}"},      /* inside :not, as it was */
        /* A :not() of a list (litehtml 0.6 reads one selector there). */
        {"p:not(.a, .zz){x:y}", "p:not(.a):not(.zz){x:y}"},
        {".a :NOT( i , [x=\",\"] ,:nth-child(2n+1)) p{x:y}",
         ".a :not(i):not([x=\",\"]):not(:nth-child(2n+1)) p{x:y}"},
        {":is(p, i):not(.zz,.yy){x:y}", "p:not(.zz):not(.yy),i:not(.zz):not(.yy){x:y}"},
        {"p:not(.a,,.b){x:y}", "p:not(.a,,.b){x:y}"},         /* not a selector: as it was */
        /* More than 32 selectors: left as it was. */
        {":is(.a,.b,.c,.d,.e,.f):is(.a,.b,.c,.d,.e,.f){x:y}",
         ":is(.a,.b,.c,.d,.e,.f):is(.a,.b,.c,.d,.e,.f){x:y}"},
        /* 6 of 36 can be, 3 are here */
        {":is(p,i,div,b,u,s):is(p,i,div,b,u,s){x:y}", "p,i,div{x:y}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_output(cases[i].css, cases[i].out, 1);
    /* Broken ones: whatever comes out comes from the input. */
    const char *const broken[] = {":is(.a{x:y}", ":is(.a,{x:y}", ":is(){x:y}", ":is(>p){x:y}",
                                  "p:not(.a,{x:y}", "p:not(,,){x:y}", "p:not(.a, \"){x:y}",
                                  ".a:is(p ){x:y}", ":where(.a)) p{x:y}", ":is(\"){x:y}"};
    expect_all_from_input(broken, sizeof broken / sizeof broken[0]);
}

/* Media Queries 4's ranges, which litehtml 0.6 takes for true at any width,
 * written in the min-/max- form it reads. */
static void test_media_ranges_written_out(void **state)
{
    (void)state;
    static const struct {
        const char *css, *out;
    } cases[] = {
        {"@media (width >= 48rem){.a{x:y}}", "@media (min-width: 48rem){.a{x:y}\n}\n"},
        {"@media (width<48rem){.a{x:y}}", "@media (max-width: 48rem){.a{x:y}\n}\n"},
        {"@media screen and (600px < width){.a{x:y}}",
         "@media screen and (min-width: 600px){.a{x:y}\n}\n"},
        {"@media (HEIGHT > 30em){.a{x:y}}", "@media (min-HEIGHT: 30em){.a{x:y}\n}\n"},
        {"@media (400px <= width <= 700px), print{.a{x:y}}",
         "@media (min-width: 400px) and (max-width: 700px), print{.a{x:y}\n}\n"},
        /* Features litehtml takes for true whatever they ask, answered as a
         * desktop browser without scripts answers them. */
        {"@media (hover: none){.a{x:y}}", "@media (max-width: 0px){.a{x:y}\n}\n"},
        {"@media screen and (Hover:hover){.a{x:y}}",
         "@media screen and (min-width: 0px){.a{x:y}\n}\n"},
        {"@media (prefers-color-scheme: dark){.a{x:y}}", "@media (max-width: 0px){.a{x:y}\n}\n"},
        {"@media (scripting: none){.a{x:y}}", "@media (min-width: 0px){.a{x:y}\n}\n"},
        {"@media (scripting){.a{x:y}}", "@media (max-width: 0px){.a{x:y}\n}\n"},
        {"@media (prefers-reduced-motion){.a{x:y}}", "@media (min-width: 0px){.a{x:y}\n}\n"},
        {"@media (prefers-contrast){.a{x:y}}", "@media (max-width: 0px){.a{x:y}\n}\n"},
        {"@media not all and (pointer: coarse){.a{x:y}}",
         "@media not all and (max-width: 0px){.a{x:y}\n}\n"},
        /* Left as they are: the old form, other features, what is no range. */
        {"@media (min-width: 600px){.a{x:y}}", "@media (min-width: 600px){.a{x:y}\n}\n"},
        {"@media (aspect-ratio > 1){.a{x:y}}", "@media (aspect-ratio > 1){.a{x:y}\n}\n"},
        {"@media (width >){.a{x:y}}", "@media (width >){.a{x:y}\n}\n"},
        {"@media (1px < width < 2px < 3px){.a{x:y}}",
         "@media (1px < width < 2px < 3px){.a{x:y}\n}\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_output(cases[i].css, cases[i].out, 0);
    /* Broken ones: written as they came (nothing read past the end). */
    const char *const broken[] = {"@media (width >= {.a{x:y}}", "@media (<){.a{x:y}}",
                                  "@media (width <= 1px", "@media (width <= \"){.a{x:y}}"};
    expect_all_from_input(broken, sizeof broken / sizeof broken[0]);
}

/* Logical properties, which litehtml 0.6 does not know, written as the
 * physical ones in horizontal writing from left to right. */
static void test_logical_properties_written_out(void **state)
{
    (void)state;
    static const struct {
        const char *css, *out;
    } cases[] = {
        {".a{margin-inline:auto}", ".a{margin-left:auto;margin-right:auto;}"},
        {".a{color:red;Margin-Inline : 1px 2px ! important; x:y}",
         ".a{color:red;margin-left:1px !important;margin-right:2px !important; x:y}"},
        {".a{inset:0}", ".a{top:0;right:0;bottom:0;left:0;}"},
        {".a{inset:1px 2px 3px}", ".a{top:1px;right:2px;bottom:3px;left:2px;}"},
        {".a{padding-inline:calc(50% - 10px) 0;padding-block-end:4px}",
         ".a{padding-left:calc(50% - 10px);padding-right:0;padding-bottom:4px;}"},
        {".a{max-inline-size:65ch}", ".a{max-width:65ch;}"},
        /* More values than the property takes: dropped, as a browser does. */
        {".a{margin-inline:1px 2px 3px;color:red}", ".a{color:red}"},
        /* Left as they are: strings, comments, other properties. */
        {".a{content:\"margin-inline:1px\";display:inline-block}",
         ".a{content:\"margin-inline:1px\";display:inline-block}"},
        {".a{/* inset:0 */border-block:1px solid}", ".a{/* inset:0 */border-block:1px solid}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_output(cases[i].css, cases[i].out, 1);
    /* Cut short: nothing read past the end (the sanitizer pass checks). */
    const char *const broken[] = {".a{inset:", ".a{margin-inline:(1px", ".a{inset:1px;",
                                  ".a{inset:1px !", ".a{padding-block: !important"};
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++)
        free(filter(broken[i]));
    expect_output(".a{padding-block: !important}", ".a{}", 1);
}

/* Lengths litehtml 0.6 misreads (render/cssmath.h): found, and evaluated
 * as a browser evaluates them. */
static void test_lengths_evaluated(void **state)
{
    (void)state;
    static const char *const needed[] = {"calc(100% - 2rem)", "MIN(720px, 100%)", "65ch",
                                         "100dvh", "0 clamp(1rem, 2vw, 3rem)", "-webkit-calc(1px)"};
    static const char *const read[] = {"10px", "auto", "50%", "max-content", "1.5em", "0",
                                       "-2.5rem", "fit-content", "h1"};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
        if (!css_math_needed(needed[i]))
            fail_msg("litehtml reads \"%s\"?", needed[i]);
    for (size_t i = 0; i < sizeof read / sizeof read[0]; i++)
        if (css_math_needed(read[i]))
            fail_msg("litehtml misreads \"%s\"?", read[i]);
    const css_math_ctx c = {1000, 16, 16, 8, 8, 24, 1920, 1080};
    static const struct {
        const char *s;
        double px;
    } cases[] = {
        {"calc(100% - 400px)", 600},
        {"min(720px, 100% - 2rem)", 720},
        {"min(720px, 50% - 2rem)", 468},
        {"clamp(300px, 50vw, 1200px)", 960},
        {"clamp(300px, 10vw, 1200px)", 300},
        {"clamp(300px, 90vw, 1200px)", 1200},
        {"max(50%, 400px, 2em)", 500},
        {"65ch", 520},
        {"100dvh", 1080},
        {"calc((100% - 2 * 20px) / 3)", 320},
        {"calc(10px*2 + 1em)", 36},
        {"-webkit-calc(1px + 1px)", 2},
        {"calc(2lh - 1ex)", 40},
        {"calc(0 + 5px)", 5},
        {"  calc( 1in - 6pt )  ", 88},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double px = -1;
        if (!css_math_eval(cases[i].s, &c, &px) || px < cases[i].px - 1e-6 ||
            px > cases[i].px + 1e-6)
            fail_msg("\"%s\" gave %g, not %g", cases[i].s, px, cases[i].px);
    }
    static const char *const bad[] = {"auto", "calc(100% - )", "calc(1px / 0)", "calc(1px * 2px)",
                                      "calc(1px + 2)", "var(--x)", "min(1px, 2)",
                                      "clamp(1px, 2px)", "calc(1px", "calc(1px))", "3",
                                      "1foo", "calc(((((((((((((((((((1px)))))))))))))))))))",
                                      ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double px;
        if (css_math_eval(bad[i], &c, &px))
            fail_msg("\"%s\" gave %g", bad[i], px);
    }
    /* A percentage of what is not known yet (a height) is no length. */
    css_math_ctx h = c;
    h.percent_of = -1;
    double px;
    assert_false(css_math_eval("calc(100% - 10px)", &h, &px));
    assert_true(css_math_eval("calc(100vh - 80px)", &h, &px));
    assert_true(px == 1000);
}

/* spaces_collapse's sheet callback: counts the references, says yes to
 * the one named in `keep`. */
typedef struct sheet_calls {
    const char *keep;
    int calls;
} sheet_calls;

static int sheet_keeps(void *ud, const char *ref)
{
    sheet_calls *c = ud;
    c->calls++;
    return c->keep && strcmp(ref, c->keep) == 0;
}

/* Collapses `page`; NULL when spaces_collapse leaves it as it is. */
static char *collapse(const char *page, sheet_calls *calls)
{
    char *out = (char *)"unset";
    size_t n = 99;
    int r = spaces_collapse(page, strlen(page), calls ? sheet_keeps : NULL, calls, &out, &n);
    assert_true(r == 0 || r == 1);
    if (r == 0) {
        assert_null(out);
        return NULL;
    }
    assert_int_equal(n, strlen(out));
    return out;
}

/* The runs of white space in a page's text become one space, but in the
 * elements that keep theirs and inside tags; a style or a stylesheet that
 * may keep them leaves the page as it is. */
static void test_white_space_runs_written_as_one(void **state)
{
    (void)state;
    char *out = collapse("<p>a \n\t b</p>\n   <pre>x\n   y</pre>  <listing> l\n  m</listing>"
                         "<textarea> t \n u</textarea><div title='a   b'>c \r\n d </div>\n",
                         NULL);
    assert_string_equal(out, "<p>a b</p> <pre>x\n   y</pre> <listing> l\n  m</listing>"
                             "<textarea> t \n u</textarea><div title='a   b'>c d </div> ");
    free(out);
    /* "<pre/>" opens a <pre>; one left open keeps the rest as it is. */
    out = collapse("<p>a  b</p><PRE/>c  d</p><pre>e  f", NULL);
    assert_string_equal(out, "<p>a b</p><PRE/>c  d</p><pre>e  f");
    free(out);
    out = collapse("<pre>a  b</pre></pre><p>c  d</p>", NULL);
    assert_string_equal(out, "<pre>a  b</pre></pre><p>c d</p>");
    free(out);

    /* What may keep spaces: a value of pre, pre-wrap, pre-line or
     * break-spaces, in any case, or a var() unknown here; in a <style> or
     * in a tag. */
    static const char *const kept[] = {
        "<style>.c{white-space:pre-line}</style><p>a  b</p>",
        "<p style=\"WHITE-SPACE : Break-Spaces\">a  b</p>",
        "<style>code { white-space: var(--ws) }</style><p>a  b</p>",
        "<svg><style>text{white-space:pre}</style></svg><p>a  b</p>",
        "<p>a  b</p><div style='font:x;white-space:\npre-wrap'>c</div>",
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        if (collapse(kept[i], NULL))
            fail_msg("collapsed: %s", kept[i]);
    /* What does not: other values, or "pre" past the declaration's end. */
    out = collapse("<style>.n{white-space:nowrap;font-family:pre}</style>"
                   "<p style='white-space: normal'>a  b</p><p>white-space:  pre</p>",
                   NULL);
    assert_string_equal(out, "<style>.n{white-space:nowrap;font-family:pre}</style>"
                             "<p style='white-space: normal'>a b</p><p>white-space: pre</p>");
    free(out);

    /* Each stylesheet the page names is asked about, as litehtml will ask
     * for it: the page is left as it is when one may keep spaces. */
    static const char linked[] = "<link rel=stylesheet href=\"a.css\"><style>@import 'b.css';"
                                 "</style><link rel=icon href=i.css><p>a  b</p>";
    sheet_calls calls = {NULL, 0};
    out = collapse(linked, &calls);
    assert_int_equal(calls.calls, 2);
    assert_non_null(strstr(out, "<p>a b</p>"));
    free(out);
    calls = (sheet_calls){"b.css", 0};
    assert_null(collapse(linked, &calls));
    assert_int_equal(calls.calls, 2);
    calls = (sheet_calls){"a.css", 0};
    assert_null(collapse(linked, &calls));
    assert_int_equal(calls.calls, 1);

    /* spaces_kept reads the bytes it is given, no further. */
    assert_true(spaces_kept("x{white-space:pre}", 18));
    assert_false(spaces_kept("x{white-space:pre}", 16)); /* cut before the value */
    assert_false(spaces_kept("", 0));
    /* A value longer than any a browser knows counts, and each byte is
     * looked at once: a page of mentions costs its length. */
    char long_value[400] = "x{white-space:";
    memset(long_value + 14, 'a', 300);
    long_value[314] = '}';
    long_value[315] = '\0';
    assert_true(spaces_kept(long_value, strlen(long_value)));
    long_value[14 + 200] = ';';
    assert_false(spaces_kept(long_value, strlen(long_value)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_by_tag_class_id),
        cmocka_unit_test(test_lists_media_and_at_rules),
        cmocka_unit_test(test_page_rewrite),
        cmocka_unit_test(test_sheets_set_aside),
        cmocka_unit_test(test_costly_selectors_dropped),
        cmocka_unit_test(test_unread_attributes_left_out),
        cmocka_unit_test(test_streamed_parts_put_in_place),
        cmocka_unit_test(test_streamed_pages_left_alone),
        cmocka_unit_test(test_broken_css_is_safe),
        cmocka_unit_test(test_is_and_where_written_out),
        cmocka_unit_test(test_media_ranges_written_out),
        cmocka_unit_test(test_logical_properties_written_out),
        cmocka_unit_test(test_lengths_evaluated),
        cmocka_unit_test(test_white_space_runs_written_as_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
