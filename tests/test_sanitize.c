/* The answer's HTML is safe to show: well-known filter evasions (the OWASP
 * XSS filter evasion cheat sheet's and others), each put in the middle of
 * an article served from an address, must leave no script, event handler,
 * script URL, form, frame, style or foreign markup in glance's HTML or
 * Markdown, while the article's text stays.
 *
 * Two checks: the output read back with base/'s tag scanner, every tag and
 * attribute on the serialiser's allow-list and every URL of an allowed
 * scheme after the cleaning browsers do; and plain searches for what must
 * never appear at all. */
#define _GNU_SOURCE /* strcasestr, strndup */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "base/tags.h"
#include "base/url.h"
#include "glance.h"

static glance_context *ctx;

/* The vectors, each as a page would carry it. */
static const char *const vectors[] = {
    "<script>alert('XSS')</script>",
    "<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>",
    "<IMG SRC=\"javascript:alert('XSS');\">",
    "<IMG SRC=javascript:alert('XSS')>",
    "<IMG SRC=JaVaScRiPt:alert('XSS')>",
    "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
    "<a onmouseover=\"alert(document.cookie)\">xxs link</a>",
    "<IMG \"\"\"><SCRIPT>alert(\"XSS\")</SCRIPT>\"\\>",
    "<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>",
    "<IMG SRC=# onmouseover=\"alert('xxs')\">",
    "<IMG SRC=/ onerror=\"alert(String.fromCharCode(88,83,83))\"></img>",
    "<img src=x onerror=\"&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041\">",
    "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
    "<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>",
    "<IMG SRC=\"jav\tascript:alert('XSS');\">",
    "<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
    "<IMG SRC=\"jav&#x0A;ascript:alert('XSS');\">",
    "<IMG SRC=\"jav&#x0D;ascript:alert('XSS');\">",
    "<IMG SRC=\" &#14;  javascript:alert('XSS');\">",
    "<a href=\"jav&#x09;ascript:alert(1)\">tab link</a>",
    "<a href=\"&#x6A;avascript:alert(1)\">entity link</a>",
    "<a href=\"  JaVaScRiPt:alert(1)\">mixed case link</a>",
    "<a href=\"javascript&colon;alert(1)\">colon entity</a>",
    "<a href=\"vbscript:msgbox('XSS')\">vb link</a>",
    "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">data link</a>",
    "<img src=\"data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+\">",
    "<SCRIPT/XSS SRC=\"https://xss.example/xss.js\"></SCRIPT>",
    "<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert(\"XSS\")>",
    "<<SCRIPT>alert(\"XSS\");//\\<</SCRIPT>",
    "<SCRIPT SRC=https://xss.example/xss.js?< B >",
    "<svg onload=alert(1)>",
    "<svg><script>alert(1)</script></svg>",
    "<svg><a xlink:href=\"javascript:alert(1)\"><text x=\"20\" y=\"20\">svg link</text></a></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
    "<math><a xlink:href=\"javascript:alert(1)\">math link</a></math>",
    "<style>@import 'https://xss.example/xss.css';</style>",
    "<STYLE>li {list-style-image: url(\"javascript:alert('XSS')\");}</STYLE><UL><LI>XSS</br></UL>",
    "<DIV STYLE=\"background-image: url(javascript:alert('XSS'))\">styled div</DIV>",
    "<DIV STYLE=\"width: expression(alert('XSS'));\">expression</DIV>",
    "<IMG STYLE=\"xss:expr/*XSS*/ession(alert('XSS'))\">",
    "<iframe src=\"javascript:alert(1)\"></iframe>",
    "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
    "<FRAMESET><FRAME SRC=\"javascript:alert('XSS');\"></FRAMESET>",
    "<OBJECT TYPE=\"text/x-scriptlet\" DATA=\"https://xss.example/scriptlet.html\"></OBJECT>",
    "<EMBED SRC=\"data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==\" type=\"image/svg+xml\" AllowScriptAccess=\"always\"></EMBED>",
    "<form action=\"javascript:alert(1)\"><input type=submit formaction=\"javascript:alert(2)\"><button>go</button></form>",
    "<META HTTP-EQUIV=\"refresh\" CONTENT=\"0;url=javascript:alert('XSS');\">",
    "<BASE HREF=\"javascript:alert('XSS');//\">",
    "<LINK REL=\"stylesheet\" HREF=\"javascript:alert('XSS');\">",
    "<TABLE BACKGROUND=\"javascript:alert('XSS')\"><TR><TD BACKGROUND=\"javascript:alert('XSS')\">cell</TD></TR></TABLE>",
    "<p title=\"</p><img src=x onerror=alert(1)>\">attribute breakout</p>",
    "<img alt='\"><script>alert(1)</script>' src=\"/ok.png\">",
    "<a href=\"/x\" title='\" onmouseover=\"alert(1)'>quote breakout</a>",
    "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>",
    "<details open ontoggle=alert(1)>details</details>",
    "<video><source onerror=\"alert(1)\"></video>",
    "<a href=\"javascript:void(0)\" onclick=\"alert(1)\">void link</a>",
    "<img srcset=\"javascript:alert(1) 1x, /fine.png 2x\">",
    "<img data-src=\"javascript:alert(1)\" src=\"data:image/gif;base64,R0lGODlhAQABAAAAACw=\">",
    "<a href=\"java\nscript:alert(1)\">newline link</a>",
    "<isindex type=image src=1 onerror=alert(1)>",
    "<object data=\"javascript:alert(1)\"></object>",
    "<xmp><img src=x onerror=alert(1)></xmp>",
    "<template><img src=x onerror=alert(1)></template>",
    "<input onfocus=alert(1) autofocus>",
    "<select autofocus onfocus=alert(1)>",
    "<textarea autofocus onfocus=alert(1)>",
    "<keygen autofocus onfocus=alert(1)>",
    "<marquee onstart=alert(1)>marquee</marquee>",
    "<a href=\"https://ok.example/\" target=\"_blank\" ping=\"https://xss.example/\" style=\"x:y\" id=\"x\" class=\"c\">ok link</a>",
};

/* The serialiser's allow-list, as dom/serialize.c has it. */
static const char *const tags_ok[] = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd",
    "blockquote", "pre", "code", "kbd", "samp", "var", "a", "em", "strong", "b", "i", "u",
    "s", "del", "ins", "sub", "sup", "small", "mark", "q", "cite", "abbr", "dfn", "time",
    "br", "hr", "img", "figure", "figcaption", "table", "caption", "thead", "tbody",
    "tfoot", "tr", "td", "th", "div", "article", "section", "details", "summary", NULL};
static const char *const attrs_ok[] = {"href", "src", "srcset", "alt", "title", "colspan",
                                       "rowspan", "lang", "datetime", "dir", "width", "height",
                                       "start", "class", NULL};

static int url_ok(const char *v, size_t n, int image)
{
    char *raw = strndup(v, n);
    /* Attribute values are escaped text: &amp; is the only reference a
     * URL of ours can hold. */
    char *c = base_url_clean(raw);
    free(raw);
    char scheme[64];
    size_t sn = base_url_scheme(c, scheme, sizeof scheme);
    int ok = sn == 0 || !strcmp(scheme, "http") || !strcmp(scheme, "https") ||
             (!image && (!strcmp(scheme, "mailto") || !strcmp(scheme, "tel") || !strcmp(scheme, "ftp"))) ||
             (image && !strcmp(scheme, "data") && !strncasecmp(c, "data:image/gif", 14));
    free(c);
    return ok;
}

static void check_html(const char *vector, const char *html)
{
    base_tag_scanner s;
    base_tag_scanner_init(&s, html, strlen(html));
    base_tag t;
    while (base_tag_next(&s, &t)) {
        if (t.kind == BASE_TAG_COMMENT || t.kind == BASE_TAG_DECL || t.kind == BASE_TAG_RAW)
            fail_msg("%s: markup of another kind in the output: %.*s", vector, (int)t.len, t.start);
        if (t.kind != BASE_TAG_START && t.kind != BASE_TAG_END)
            continue;
        if (!base_tag_in(t.lower, tags_ok))
            fail_msg("%s: tag <%.*s> let through", vector, (int)t.name_len, t.name);
        base_tag_attrs it;
        base_tag_attr a;
        base_tag_attrs_init(&it, &t);
        while (base_tag_attrs_next(&it, &a)) {
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)a.name_len, a.name);
            if (!base_tag_in(name, attrs_ok))
                fail_msg("%s: attribute %s let through: %s", vector, name, html);
            if (!a.value)
                fail_msg("%s: an attribute without a quoted value: %s", vector, html);
            if (!strcmp(name, "href") && !url_ok(a.value, a.value_len, 0))
                fail_msg("%s: href %.*s let through", vector, (int)a.value_len, a.value);
            if (!strcmp(name, "src") && !url_ok(a.value, a.value_len, 1))
                fail_msg("%s: src %.*s let through", vector, (int)a.value_len, a.value);
            if (!strcmp(name, "srcset") && strcasestr(a.value, "script"))
                fail_msg("%s: srcset %.*s let through", vector, (int)a.value_len, a.value);
            if (!strcmp(name, "class") && strncmp(a.value, "language-", 9) != 0)
                fail_msg("%s: class %.*s let through", vector, (int)a.value_len, a.value);
        }
    }
}

/* What must not appear anywhere, in any case. */
static void check_absent(const char *vector, const char *what, const char *out)
{
    /* A script URL is checked where it could run (check_html reads every
     * href and src, cleaned): as text, or inside an http URL's path, it is
     * harmless. In Markdown, a link's destination: "](javascript:". */
    /* A script URL is checked where it could run (check_html reads every
     * href and src, cleaned; an event handler is an attribute it would
     * refuse): as text, or escaped inside an attribute's value, either is
     * harmless. What no output may hold at all is a live tag of these
     * (a '<' of the text is escaped in both), or a Markdown link to a
     * script. */
    static const char *const never[] = {"<script", "<iframe", "<svg", "<math", "<style", "<form",
                                        "<object", "<embed", "<frame", "<meta", "<base", "<link",
                                        "<input", "<button", "<textarea", "<select", "<template",
                                        "<video", "<marquee", "<isindex", "<keygen", "<xmp",
                                        "](javascript:", "](vbscript:", "](data:text",
                                        "](data:image/svg", NULL};
    for (const char *const *n = never; *n; n++) {
        const char *p = strcasestr(out, *n);
        /* "\<script" in Markdown is the text "<script", escaped. */
        if (p && !(p > out && p[-1] == '\\'))
            fail_msg("%s: %s holds \"%s\": %s", vector, what, *n, out);
    }
}

static void test_vectors(void **state)
{
    (void)state;
    size_t n = sizeof vectors / sizeof vectors[0];
    glance_options *o = glance_options_new();
    /* GCE answers with the <article> whole (the scorer might leave the
     * vector's block out, and then it would test nothing). */
    assert_int_equal(glance_options_set(o, "method", "gce"), GLANCE_OK);
    assert_int_equal(glance_options_set(o, "cleanup", "off"), GLANCE_OK);
    for (size_t i = 0; i < n; i++) {
        char page[8192];
        snprintf(page, sizeof page,
                 "<!DOCTYPE html><html><head><title>A safe page</title></head><body>"
                 "<nav><a href=\"/\">Home</a></nav><article><h1>A safe page</h1>"
                 "<p>The harbour authority approved the plan on Monday after a long debate about "
                 "the cost of dredging the channel and the noise the works will make at night.</p>"
                 "<div>%s</div>"
                 "<p>Residents may comment until the end of the month; the works would start in "
                 "the spring and last about eighteen weeks if the weather allows it.</p>"
                 "</article></body></html>",
                 vectors[i]);
        glance_result *res = NULL;
        glance_status st = glance_extract_page(ctx, page, strlen(page), "utf-8",
                                               "https://news.example/harbour/plan.html", o, &res);
        if (st != GLANCE_OK)
            fail_msg("%s: status %d: %s", vectors[i], st, glance_result_message(res, st));
        const char *html = glance_result_html(res);
        const char *md = glance_result_markdown(res);
        assert_non_null(html);
        assert_non_null(md);
        assert_non_null(strstr(html, "The harbour authority approved the plan"));
        /* (A script left open runs to the end of the page, in a browser
         * too: the paragraph after it may go, the one before stays.) */
        if (!strstr(md, "The harbour authority approved the plan"))
            fail_msg("%s: the Markdown lost the text: %s\n--- html ---\n%s", vectors[i], md, html);
        check_html(vectors[i], html);
        check_absent(vectors[i], "html", html);
        check_absent(vectors[i], "markdown", md);
        glance_result_free(res);
    }
    glance_options_free(o);
    print_message("%zu vectors: none got through\n", n);
}

/* What a safe page keeps: its links and images, absolute. */
static void test_kept(void **state)
{
    (void)state;
    static const char page[] =
        "<!DOCTYPE html><html><head><title>Kept</title><base href=\"/base/\"></head><body><article>"
        "<h1>Kept</h1><p>The harbour authority approved the plan on Monday after a long debate "
        "about the cost of dredging the channel; <a href=\"../dossier\">the dossier</a> and "
        "<a href=\"mailto:desk@news.example\">the desk</a> have more.</p>"
        "<figure><img src=\"data:image/gif;base64,R0lGODlhAQABAAAAACw=\" data-src=\"img/a.jpg\" "
        "data-srcset=\"img/a-2x.jpg 2x\" alt=\"A\" width=\"640\" height=\"360\"></figure>"
        "<p>Residents may comment until the end of the month; the works would start in the "
        "spring and last about eighteen weeks if the weather allows it.</p></article></body></html>";
    glance_options *o = glance_options_new();
    assert_int_equal(glance_options_set(o, "method", "gce"), GLANCE_OK);
    glance_result *res = NULL;
    assert_int_equal(glance_extract_page(ctx, page, strlen(page), NULL,
                                         "https://news.example/harbour/plan.html", o, &res),
                     GLANCE_OK);
    const char *html = glance_result_html(res);
    assert_non_null(strstr(html, "<a href=\"https://news.example/dossier\">the dossier</a>"));
    assert_non_null(strstr(html, "<a href=\"mailto:desk@news.example\">the desk</a>"));
    /* The lazy image: its data-src and data-srcset, against <base href>. */
    assert_non_null(strstr(html, " src=\"https://news.example/base/img/a.jpg\""));
    assert_non_null(strstr(html, " srcset=\"https://news.example/base/img/a-2x.jpg 2x\""));
    assert_non_null(strstr(html, " width=\"640\""));
    assert_null(strstr(html, "data:image"));
    const char *md = glance_result_markdown(res);
    assert_non_null(strstr(md, "[the dossier](https://news.example/dossier)"));
    assert_non_null(strstr(md, "![A](https://news.example/base/img/a.jpg)"));
    glance_result_free(res);
    glance_options_free(o);
}

int main(void)
{
    ctx = glance_context_new();
    if (!ctx)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_kept),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    glance_context_free(ctx);
    return rc;
}
