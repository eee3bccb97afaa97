/* base/: the buffer and arrays, the clock, HTML escaping, UTF-8 and scripts,
 * the tag scanner. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/clock.h"
#include "base/escape.h"
#include "base/grow.h"
#include "base/script.h"
#include "base/tags.h"
#include "base/url.h"
#include "base/utf8.h"

/* buf ----------------------------------------------------------------------- */

static void test_buf_growth(void **state)
{
    (void)state;
    base_buf b = BASE_BUF_INIT;
    assert_null(b.data);
    /* Byte by byte, the capacity grows geometrically: a few times, not
     * once per byte (appending stays linear). */
    int growths = 0;
    for (int i = 0; i < 10000; i++) {
        size_t cap = b.cap;
        base_buf_putc(&b, (char)('a' + i % 26));
        growths += b.cap != cap;
    }
    assert_in_range(growths, 1, 20);
    assert_int_equal(b.len, 10000);
    assert_true(b.cap > 10000);
    assert_int_equal(b.data[10000], '\0');
    assert_int_equal(strlen(b.data), 10000);
    assert_memory_equal(b.data, "abcdefghijklmnopqrstuvwxyzabc", 29);
    assert_int_equal(b.data[9999], 'a' + 9999 % 26);
    base_buf_add(&b, "XYZ", 2);
    assert_string_equal(b.data + 10000, "XY");
    base_buf_puts(&b, "!");
    assert_int_equal(b.len, 10003);
    base_buf_shrink(&b, 3);
    assert_int_equal(b.len, 10000);
    assert_int_equal(b.data[10000], '\0');
    base_buf_shrink(&b, 20000);
    assert_int_equal(b.len, 0);
    assert_string_equal(b.data, "");
    assert_false(b.oom);
    base_buf_free(&b);
    assert_null(b.data);
}

static void test_buf_printf(void **state)
{
    (void)state;
    base_buf b = BASE_BUF_INIT;
    base_buf_puts(&b, "n=");
    base_buf_printf(&b, "%d-%s-%.2f", 42, "x", 2.25);
    assert_string_equal(b.data, "n=42-x-2.25");
    assert_int_equal(b.len, strlen("n=42-x-2.25"));
    /* Longer than the room the buffer has: grown, then written whole. */
    char big[3000];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    base_buf_printf(&b, "[%s]", big);
    assert_int_equal(b.len, 11 + 2 + 2999);
    assert_int_equal(b.data[11], '[');
    assert_int_equal(b.data[12 + 2998], 'q');
    assert_int_equal(b.data[b.len - 1], ']');
    assert_int_equal(b.data[b.len], '\0');
    base_buf_printf(&b, "%s", "");
    assert_int_equal(b.len, 11 + 2 + 2999);
    base_buf_free(&b);
}

static void test_buf_take_reset(void **state)
{
    (void)state;
    base_buf b = BASE_BUF_INIT;
    size_t n = 99;
    char *s = base_buf_take(&b, &n); /* nothing added: "" */
    assert_non_null(s);
    assert_string_equal(s, "");
    assert_int_equal(n, 0);
    free(s);

    base_buf_puts(&b, "hello");
    char *mem = b.data;
    size_t cap = b.cap;
    base_buf_reset(&b);
    assert_int_equal(b.len, 0);
    assert_ptr_equal(b.data, mem); /* the memory is kept */
    assert_int_equal(b.cap, cap);
    assert_string_equal(b.data, "");
    base_buf_puts(&b, "world");
    s = base_buf_take(&b, &n);
    assert_string_equal(s, "world");
    assert_int_equal(n, 5);
    assert_null(b.data); /* empty after */
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    free(s);
}

static void test_buf_oom_sticky(void **state)
{
    (void)state;
    base_buf b = BASE_BUF_INIT;
    base_buf_puts(&b, "kept");
    /* More than memory can hold: the growth fails, and so does everything
     * after it. */
    assert_int_equal(base_buf_reserve(&b, SIZE_MAX), -1);
    assert_true(b.oom);
    base_buf_puts(&b, "more");
    base_buf_printf(&b, "%d", 7);
    assert_int_equal(b.len, 4);
    assert_int_equal(base_buf_reserve(&b, 1), -1);
    size_t n = 99;
    assert_null(base_buf_take(&b, &n));
    assert_int_equal(n, 0);
    assert_null(b.data);
    assert_false(b.oom);
    /* reset clears the flag and keeps working */
    base_buf_puts(&b, "a");
    b.oom = 1;
    base_buf_reset(&b);
    assert_false(b.oom);
    base_buf_puts(&b, "b");
    assert_string_equal(b.data, "b");
    base_buf_free(&b);
}

/* grow -------------------------------------------------------------------------- */

static void test_grow(void **state)
{
    (void)state;
    long *v = NULL;
    size_t cap = 0;
    assert_int_equal(base_grow(&v, &cap, 1, sizeof *v), 0);
    assert_non_null(v);
    assert_true(cap >= 1);
    for (size_t i = 0; i < 1000; i++) {
        assert_int_equal(base_grow(&v, &cap, i + 1, sizeof *v), 0);
        v[i] = (long)i * 3;
    }
    assert_true(cap >= 1000 && cap < 4000);
    assert_int_equal(v[999], 2997);
    assert_int_equal(v[0], 0);
    /* Enough room already: nothing moves. */
    long *same = v;
    size_t had = cap;
    assert_int_equal(base_grow(&v, &cap, 10, sizeof *v), 0);
    assert_ptr_equal(v, same);
    assert_int_equal(cap, had);
    /* A size that overflows fails and leaves the array as it was. */
    assert_int_equal(base_grow(&v, &cap, SIZE_MAX / 2, sizeof *v), -1);
    assert_ptr_equal(v, same);
    assert_int_equal(cap, had);
    assert_int_equal(v[999], 2997);
    free(v);
}

/* clock ----------------------------------------------------------------------- */

static void test_clock_monotonic(void **state)
{
    (void)state;
    double a = base_now_ms(), b = base_now_ms();
    assert_true(a > 0);
    assert_true(b >= a);
}

/* escape ---------------------------------------------------------------------- */

static void test_escape_every_special(void **state)
{
    (void)state;
    char *s = base_html_escaped("a&b<c>d\"e'f");
    assert_string_equal(s, "a&amp;b&lt;c&gt;d&quot;e&#39;f");
    free(s);
    s = base_html_escaped("plain text, \xe4\xb8\xad");
    assert_string_equal(s, "plain text, \xe4\xb8\xad");
    free(s);
    s = base_html_escaped("");
    assert_string_equal(s, "");
    free(s);
    /* Only the n bytes given, after what the buffer holds. */
    base_buf b = BASE_BUF_INIT;
    base_buf_puts(&b, "<p>");
    base_html_escape(&b, "<>&ignored", 3);
    assert_string_equal(b.data, "<p>&lt;&gt;&amp;");
    base_buf_free(&b);
}

static void test_escape_paragraphs(void **state)
{
    (void)state;
    char *s = base_html_paragraphs("a\nb<c");
    assert_string_equal(s, "<p>a</p><p>b&lt;c</p>");
    free(s);
    s = base_html_paragraphs("it's \"x\" & y");
    assert_string_equal(s, "<p>it&#39;s &quot;x&quot; &amp; y</p>");
    free(s);
    s = base_html_paragraphs("");
    assert_string_equal(s, "<p></p>");
    free(s);
    s = base_html_paragraphs("a\n");
    assert_string_equal(s, "<p>a</p><p></p>");
    free(s);
}

/* utf8 and script --------------------------------------------------------------- */

static void expect_cps(const char *s, size_t n, const uint32_t *want, size_t count)
{
    const char *p = s, *end = s + n;
    size_t i = 0;
    while (p < end) {
        assert_true(i < count);
        uint32_t cp = base_utf8_next(&p, end);
        if (cp != want[i])
            fail_msg("code point %zu: U+%04X, want U+%04X", i, (unsigned)cp, (unsigned)want[i]);
        i++;
    }
    assert_int_equal(i, count);
    assert_ptr_equal(p, end);
}

static void test_utf8(void **state)
{
    (void)state;
    const char ok[] = "a\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80";
    expect_cps(ok, sizeof ok - 1, (const uint32_t[]){'a', 0xE9, 0x4E2D, 0x1F600}, 4);
    /* A stray continuation byte, then a sequence cut short by 'x'. */
    expect_cps("\x80\xe4\xb8x", 4, (const uint32_t[]){0xFFFD, 0xFFFD, 0xFFFD, 'x'}, 4);
    /* Cut short by the end. */
    expect_cps("\xe4\xb8", 2, (const uint32_t[]){0xFFFD, 0xFFFD}, 2);
    /* Overlong '/', a surrogate, over U+10FFFF. */
    expect_cps("\xc0\xaf", 2, (const uint32_t[]){0xFFFD, 0xFFFD}, 2);
    expect_cps("\xed\xa0\x80", 3, (const uint32_t[]){0xFFFD, 0xFFFD, 0xFFFD}, 3);
    expect_cps("\xf4\x90\x80\x80", 4, (const uint32_t[]){0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD}, 4);
}

static void test_script_unspaced(void **state)
{
    (void)state;
    assert_true(base_script_unspaced(0x4E2D));  /* 中, Han */
    assert_true(base_script_unspaced(0x3042));  /* あ, Hiragana */
    assert_true(base_script_unspaced(0x30A2));  /* ア, Katakana */
    assert_true(base_script_unspaced(0x0E01));  /* ก, Thai */
    assert_true(base_script_unspaced(0x0EA1));  /* ມ, Lao */
    assert_true(base_script_unspaced(0x1780));  /* ក, Khmer */
    assert_true(base_script_unspaced(0x1000));  /* က, Myanmar */
    assert_true(base_script_unspaced(0x0F40));  /* ཀ, Tibetan */
    assert_false(base_script_unspaced('a'));    /* Latin */
    assert_false(base_script_unspaced(0xAC00)); /* 가, Hangul: written with spaces */
    assert_false(base_script_unspaced(0x0628)); /* ب, Arabic */
    assert_false(base_script_unspaced(0x3002)); /* 。, punctuation: Common */
    assert_false(base_script_unspaced(0x110000));
}

/* tags ----------------------------------------------------------------------------- */

/* The tokens of `html` as "KIND:text" lines, the name for tags. */
static char *tokens(const char *html)
{
    static const char *const kinds[] = {"", "TEXT", "START", "END", "COMMENT", "DECL", "RAW"};
    base_buf b = BASE_BUF_INIT;
    base_tag_scanner s;
    base_tag_scanner_init(&s, html, strlen(html));
    base_tag t;
    while (base_tag_next(&s, &t)) {
        if (t.kind == BASE_TAG_START || t.kind == BASE_TAG_END)
            base_buf_printf(&b, "%s:%.*s%s%s|", kinds[t.kind], (int)t.name_len, t.name,
                            t.self_closing ? "/" : "", t.truncated ? "…" : "");
        else
            base_buf_printf(&b, "%s:%.*s|", kinds[t.kind], (int)t.len, t.start);
    }
    return base_buf_take(&b, NULL);
}

static void expect_tokens(const char *html, const char *want)
{
    char *got = tokens(html);
    if (strcmp(got, want) != 0)
        fail_msg("%s\n got: %s\nwant: %s", html, got, want);
    free(got);
}

static void test_tags_comments(void **state)
{
    (void)state;
    expect_tokens("a<!-- <b> -- -->c", "TEXT:a|COMMENT:<!-- <b> -- -->|TEXT:c|");
    /* The standard's empty comments, and "--!>". */
    expect_tokens("<!--><p><!---><p>", "COMMENT:<!-->|START:p|COMMENT:<!--->|START:p|");
    expect_tokens("<!--x--!>y", "COMMENT:<!--x--!>|TEXT:y|");
    expect_tokens("<!DOCTYPE html><?xml x?></ 3>", "DECL:<!DOCTYPE html>|DECL:<?xml x?>|DECL:</ 3>|");
    expect_tokens("<!-- open", "COMMENT:<!-- open|");
}

static void test_tags_raw_text(void **state)
{
    (void)state;
    expect_tokens("<script>x='</div>'</script><p>",
                  "START:script|RAW:x='</div>'|END:script|START:p|");
    /* An end tag ends the text only when the name stops there. */
    expect_tokens("<SCRIPT>a</scripts>b</SCRIPT >", "START:SCRIPT|RAW:a</scripts>b|END:SCRIPT|");
    /* A script in an escaped stretch ("<!--") keeps the outer one open. */
    expect_tokens("<script><!--w('<script></script>')--></script>x",
                  "START:script|RAW:<!--w('<script></script>')-->|END:script|TEXT:x|");
    expect_tokens("<style>p>a{}</style><title><b></title>",
                  "START:style|RAW:p>a{}|END:style|START:title|RAW:<b>|END:title|");
    expect_tokens("<textarea></textarea>", "START:textarea|RAW:|END:textarea|");
    /* plaintext has no end tag. */
    expect_tokens("<plaintext><b></plaintext>", "START:plaintext|RAW:<b></plaintext>|");
    /* noscript is markup. */
    expect_tokens("<noscript><p></noscript>", "START:noscript|START:p|END:noscript|");
    /* Every raw-text element by name, any case; a name that begins as one
     * is markup. */
    expect_tokens("<XMP><b></xmp><noEmbed><b></noembed><noframes><b></noframes>",
                  "START:XMP|RAW:<b>|END:xmp|START:noEmbed|RAW:<b>|END:noembed|"
                  "START:noframes|RAW:<b>|END:noframes|");
    expect_tokens("<Style>a<b></style><Title>a<b></title><IFRAME>a<b></iframe>",
                  "START:Style|RAW:a<b>|END:style|START:Title|RAW:a<b>|END:title|"
                  "START:IFRAME|RAW:a<b>|END:iframe|");
    expect_tokens("<scripts><b><s><b><tt><b><i><b><p><b><x><b><noembeds><b>",
                  "START:scripts|START:b|START:s|START:b|START:tt|START:b|START:i|START:b|"
                  "START:p|START:b|START:x|START:b|START:noembeds|START:b|");
    /* A raw-text START says so. */
    base_tag_scanner s;
    base_tag t;
    const char *html = "<iframe><p></iframe>";
    base_tag_scanner_init(&s, html, strlen(html));
    assert_true(base_tag_next(&s, &t));
    assert_true(t.raw_text);
    assert_string_equal(t.lower, "iframe");
    assert_true(base_tag_next(&s, &t));
    assert_int_equal(t.kind, BASE_TAG_RAW);
    assert_true(base_tag_is(&t, "iframe"));
    /* A caller may read another element's content as raw text. */
    html = "<select><option>a</select>b";
    base_tag_scanner_init(&s, html, strlen(html));
    assert_true(base_tag_next(&s, &t));
    assert_false(t.raw_text);
    base_tag_skip_content(&s, &t);
    assert_true(base_tag_next(&s, &t));
    assert_int_equal(t.kind, BASE_TAG_RAW);
    assert_int_equal(t.len, strlen("<option>a"));
    assert_true(base_tag_next(&s, &t));
    assert_int_equal(t.kind, BASE_TAG_END);
}

static void expect_attrs(const char *html, const char *want)
{
    base_tag_scanner s;
    base_tag t;
    base_tag_scanner_init(&s, html, strlen(html));
    assert_true(base_tag_next(&s, &t));
    base_buf b = BASE_BUF_INIT;
    base_tag_attrs it;
    base_tag_attrs_init(&it, &t);
    base_tag_attr a;
    while (base_tag_attrs_next(&it, &a)) {
        if (a.value)
            base_buf_printf(&b, "%.*s=[%.*s] ", (int)a.name_len, a.name, (int)a.value_len, a.value);
        else
            base_buf_printf(&b, "%.*s ", (int)a.name_len, a.name);
    }
    char *got = base_buf_take(&b, NULL);
    if (strcmp(got, want) != 0)
        fail_msg("%s\n got: %s\nwant: %s", html, got, want);
    free(got);
}

static void test_tags_attributes(void **state)
{
    (void)state;
    expect_attrs("<a href=x.html class='b c' title=\"d>e\" hidden data-x = 1>",
                 "href=[x.html] class=[b c] title=[d>e] hidden data-x=[1] ");
    /* Unquoted values run to white space or '>': quotes and '/' belong. */
    expect_attrs("<a b=c\"d e=f/>", "b=[c\"d] e=[f/] ");
    expect_attrs("<a x=\"1\"y='2'z=>", "x=[1] y=[2] z=[] ");
    /* An '=' first is part of a name; a '/' between attributes is not. */
    expect_attrs("<a =x / b>", "=x b ");
    expect_tokens("<a title='x>y'>z", "START:a|TEXT:z|");
}

static void test_tags_names(void **state)
{
    (void)state;
    expect_tokens("<a/><br /><div/ >", "START:a/|START:br/|START:div|");
    base_tag_scanner s;
    base_tag t;
    const char *html = "<DIV Class=X></DiV><Custom-Element-Long-Name>";
    base_tag_scanner_init(&s, html, strlen(html));
    assert_true(base_tag_next(&s, &t));
    assert_int_equal(t.kind, BASE_TAG_START);
    assert_string_equal(t.lower, "div");
    assert_true(base_tag_is(&t, "div"));
    assert_false(base_tag_is(&t, "di"));
    base_tag_attrs it;
    base_tag_attr a;
    base_tag_attrs_init(&it, &t);
    assert_true(base_tag_attrs_next(&it, &a));
    assert_true(base_tag_attr_is(&a, "class"));
    assert_false(base_tag_attrs_next(&it, &a));
    assert_true(base_tag_next(&s, &t));
    assert_int_equal(t.kind, BASE_TAG_END);
    assert_string_equal(t.lower, "div");
    assert_true(base_tag_next(&s, &t));
    assert_int_equal(t.name_len, strlen("Custom-Element-Long-Name"));
    assert_string_equal(t.lower, ""); /* too long for it */
    assert_true(base_tag_is(&t, "custom-element-long-name"));
    assert_false(base_tag_next(&s, &t));
}

static void test_tags_truncated(void **state)
{
    (void)state;
    expect_tokens("<p>x<a href='y", "START:p|TEXT:x|START:a…|");
    base_tag_scanner s;
    base_tag t;
    const char *html = "<p>x<a href='y";
    base_tag_scanner_init(&s, html, strlen(html));
    for (int i = 0; i < 3; i++)
        assert_true(base_tag_next(&s, &t));
    assert_true(t.truncated);
    assert_ptr_equal(t.start + t.len, html + strlen(html));
    expect_attrs("<a href='y", "href=[y] ");
    assert_false(base_tag_next(&s, &t));
    /* A raw-text element cut off: its text runs to the end. */
    expect_tokens("<script>a<b", "START:script|RAW:a<b|");
}

static void test_tags_lone_lt(void **state)
{
    (void)state;
    expect_tokens("a < b <3 c<", "TEXT:a < b <3 c<|");
    expect_tokens("x</", "TEXT:x</|");
    expect_tokens("1<2<b>3", "TEXT:1<2|START:b|TEXT:3|");
    expect_tokens("", "");
}

/* RFC 3986 5.4's examples against its base, and what the serialisers rely
 * on: a cleaned URL's scheme, so "jav\tascript:" is seen for what it is. */
static void expect_resolved(const char *base, const char *ref, const char *want)
{
    char *got = base_url_resolve(base, ref);
    assert_non_null(got);
    if (strcmp(got, want) != 0)
        fail_msg("%s against %s: got %s, want %s", ref, base ? base : "(none)", got, want);
    free(got);
}

static void test_url_resolve(void **state)
{
    (void)state;
    const char *b = "http://a/b/c/d;p?q";
    static const char *const rfc[][2] = {
        {"g:h", "g:h"},           {"g", "http://a/b/c/g"},     {"./g", "http://a/b/c/g"},
        {"g/", "http://a/b/c/g/"}, {"/g", "http://a/g"},        {"//g", "http://g"},
        {"?y", "http://a/b/c/d;p?y"}, {"g?y", "http://a/b/c/g?y"}, {"#s", "http://a/b/c/d;p?q#s"},
        {"g#s", "http://a/b/c/g#s"}, {"g?y#s", "http://a/b/c/g?y#s"}, {";x", "http://a/b/c/;x"},
        {"g;x", "http://a/b/c/g;x"}, {"", "http://a/b/c/d;p?q"}, {".", "http://a/b/c/"},
        {"./", "http://a/b/c/"},   {"..", "http://a/b/"},       {"../", "http://a/b/"},
        {"../g", "http://a/b/g"},  {"../..", "http://a/"},      {"../../", "http://a/"},
        {"../../g", "http://a/g"}, {"../../../g", "http://a/g"}, {"/./g", "http://a/g"},
        {"/../g", "http://a/g"},   {"g.", "http://a/b/c/g."},   {"..g", "http://a/b/c/..g"},
        {"./../g", "http://a/b/g"}, {"./g/.", "http://a/b/c/g/"}, {"g/./h", "http://a/b/c/g/h"},
        {"g/../h", "http://a/b/c/h"}, {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
        {"g;x=1/../y", "http://a/b/c/y"},
    };
    for (size_t i = 0; i < sizeof rfc / sizeof rfc[0]; i++)
        expect_resolved(b, rfc[i][0], rfc[i][1]);
    expect_resolved("https://example.org", "dossier", "https://example.org/dossier");
    expect_resolved("https://example.org/news/a.html", " /img/x.jpg\n", "https://example.org/img/x.jpg");
    /* No usable base: a relative reference stays as written. */
    expect_resolved(NULL, "/dossier", "/dossier");
    expect_resolved("relative/only", "x", "x");
}

static void test_url_scheme(void **state)
{
    (void)state;
    char s[32];
    char *c = base_url_clean(" \x0e jav\tas\ncr\ript:alert(1) \x01");
    assert_string_equal(c, "javascript:alert(1)");
    assert_int_equal(base_url_scheme(c, s, sizeof s), 10);
    assert_string_equal(s, "javascript");
    free(c);
    assert_int_equal(base_url_scheme("JaVaScRiPt:x", s, sizeof s), 10);
    assert_string_equal(s, "javascript");
    assert_int_equal(base_url_scheme("/a:b", s, sizeof s), 0);
    assert_int_equal(base_url_scheme("a/b:c", s, sizeof s), 0);
    assert_int_equal(base_url_scheme("1http:x", s, sizeof s), 0);
    assert_int_equal(base_url_scheme("https://x", s, sizeof s), 5);
    assert_string_equal(s, "https");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buf_growth),
        cmocka_unit_test(test_buf_printf),
        cmocka_unit_test(test_buf_take_reset),
        cmocka_unit_test(test_buf_oom_sticky),
        cmocka_unit_test(test_grow),
        cmocka_unit_test(test_clock_monotonic),
        cmocka_unit_test(test_escape_every_special),
        cmocka_unit_test(test_escape_paragraphs),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_script_unspaced),
        cmocka_unit_test(test_tags_comments),
        cmocka_unit_test(test_tags_raw_text),
        cmocka_unit_test(test_tags_attributes),
        cmocka_unit_test(test_tags_names),
        cmocka_unit_test(test_tags_truncated),
        cmocka_unit_test(test_tags_lone_lt),
        cmocka_unit_test(test_url_resolve),
        cmocka_unit_test(test_url_scheme),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
