/* The public API on the inputs a caller can get wrong: each gets its own
 * status and a message, never a crash or a silent empty result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "glance.h"

static glance_context *ctx;

/* A small article page whose content GCE finds by the <article> rule. */
static const char ARTICLE_PAGE[] =
    "<!DOCTYPE html><html><head><title>  A   small\n page </title></head><body>"
    "<div style='height:60px'><a href='/'>Home</a> <a href='/a'>News</a> <a href='/b'>Sport</a></div>"
    "<article style='width:700px;margin:0 auto'><h1>River levels fall</h1>"
    "<p>After a week of heavy rain the river has fallen back below the flood mark, the county "
    "engineers said on Tuesday, and the footbridge at the mill will open again on Friday.</p>"
    "<p>Residents along the lower bank were asked to keep their sandbags in place until the "
    "weekend, when a second, smaller crest is expected to pass through the town.</p>"
    "<p>The engineers thanked the volunteers who filled more than four thousand bags.</p>"
    "<p>" "The council will meet next month to discuss a permanent wall along the quay, which "
    "has flooded three times in the last ten years and cost the town dearly each time.</p>"
    "<p>Until then the temporary barriers stay in place and the car park stays closed.</p>"
    "<p>More rain is forecast for the hills, but the river is expected to stay within its banks.</p>"
    "<p>Anglers are asked to keep away from the weir while the water is still high and fast.</p>"
    "<p>The bus service on the river road will return to its normal timetable on Monday.</p>"
    "<p>Schools in the valley reopened on Wednesday after two days of closure.</p>"
    "<p>The mill museum expects to reopen its ground floor gallery before the summer.</p>"
    "</article><div><a href='/c'>Contact</a></div></body></html>";

static glance_status run(const char *html, size_t len, const glance_options *opt, glance_result **res)
{
    *res = NULL;
    glance_status st = glance_extract(ctx, html, len, opt, res);
    assert_non_null(*res);
    assert_int_equal(glance_result_status(*res), st);
    return st;
}

static void finds_article(void **state)
{
    glance_result *res;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), NULL, &res), GLANCE_OK);
    assert_string_equal(glance_result_title(res), "A small page");
    assert_string_equal(glance_result_tag(res), "article");
    assert_string_equal(glance_result_xpath(res), "/html[1]/body[1]/article[1]");
    const char *text = glance_result_text(res);
    assert_non_null(strstr(text, "River levels fall"));
    assert_non_null(strstr(text, "mill museum"));
    assert_null(strstr(text, "Contact"));
    assert_null(strstr(text, "Sport"));
    assert_non_null(strstr(glance_result_html(res), "<h1>River levels fall</h1>"));
    glance_box b = glance_result_box(res);
    assert_true(b.w == 700);
    assert_true(b.x == (1920 - 700) / 2.0);
    glance_timings t = glance_result_timings(res);
    assert_true(t.parse_ms > 0 && t.layout_ms > 0 && t.total_ms >= t.parse_ms + t.layout_ms);
    glance_result_free(res);
}

static void json_carries_reasoning(void **state)
{
    glance_result *res;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), NULL, &res), GLANCE_OK);
    json_object *o = json_tokener_parse(glance_result_json(res)), *v, *g, *w;
    assert_non_null(o);
    assert_true(json_object_object_get_ex(o, "title", &v));
    assert_string_equal(json_object_get_string(v), "A small page");
    assert_true(json_object_object_get_ex(o, "chosen", &v));
    assert_true(json_object_object_get_ex(v, "xpath", &w));
    assert_string_equal(json_object_get_string(w), "/html[1]/body[1]/article[1]");
    assert_true(json_object_object_get_ex(v, "rule", &w));
    assert_string_equal(json_object_get_string(w), "tag");
    assert_true(json_object_object_get_ex(o, "gce", &g));
    /* The document is shorter than the window: the FIA is the window. */
    assert_true(json_object_object_get_ex(g, "fia", &v));
    assert_true(json_object_object_get_ex(v, "h", &w));
    assert_true(json_object_get_double(w) == 1080);
    assert_true(json_object_object_get_ex(g, "grid", &v));
    assert_true(json_object_object_get_ex(v, "rows", &w));
    assert_int_equal(json_object_get_int(w), 7);
    assert_true(json_object_object_get_ex(v, "excluded", &w));
    assert_true(json_object_array_length(w) >= 2 * 7 + 2 * 8 - 4); /* at least the edge ring */
    assert_true(json_object_object_get_ex(g, "centres", &v));
    assert_true(json_object_object_get_ex(v, "c3", &w));
    assert_true(json_object_object_get_ex(g, "leaves", &v));
    assert_int_equal(json_object_array_length(v), 3);
    assert_true(json_object_object_get_ex(g, "candidates", &v));
    assert_true(json_object_array_length(v) >= 1);
    assert_true(json_object_object_get_ex(o, "timings_ms", &v));
    assert_true(json_object_object_get_ex(v, "layout", &w));
    json_object_put(o);
    glance_result_free(res);
}

static void empty_input(void **state)
{
    glance_result *res;
    assert_int_equal(run("", 0, NULL, &res), GLANCE_EINPUT);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EINPUT), "empty"));
    assert_null(glance_result_text(res));
    glance_result_free(res);
}

static void binary_input(void **state)
{
    static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10";
    glance_result *res;
    assert_int_equal(run(png, sizeof png - 1, NULL, &res), GLANCE_EINPUT);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EINPUT), "PNG"));
    glance_result_free(res);

    char noise[2048];
    unsigned x = 12345;
    for (size_t i = 0; i < sizeof noise; i++) {
        x = x * 1103515245u + 12345u;
        noise[i] = (char)(x >> 16);
    }
    assert_int_equal(run(noise, sizeof noise, NULL, &res), GLANCE_EINPUT);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EINPUT), "binary"));
    glance_result_free(res);
}

static void over_the_size_limit(void **state)
{
    glance_options opt;
    glance_options_default(&opt);
    opt.max_input_bytes = 100;
    glance_result *res;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), &opt, &res), GLANCE_ETOOBIG);
    assert_non_null(strstr(glance_result_message(res, GLANCE_ETOOBIG), "max_input_bytes"));
    glance_result_free(res);
}

static void too_deep(void **state)
{
    /* 20 000 nested <div>s would overflow litehtml's recursion: refused
     * before layout, quickly. */
    const int depth = 20000;
    size_t cap = (size_t)depth * 11 + 64;
    char *html = malloc(cap);
    assert_non_null(html);
    size_t n = 0;
    n += (size_t)sprintf(html + n, "<html><body>");
    for (int i = 0; i < depth; i++)
        n += (size_t)sprintf(html + n, "<div>");
    n += (size_t)sprintf(html + n, "deep");
    for (int i = 0; i < depth; i++)
        n += (size_t)sprintf(html + n, "</div>");
    glance_result *res;
    assert_int_equal(run(html, n, NULL, &res), GLANCE_ETOOBIG);
    assert_non_null(strstr(glance_result_message(res, GLANCE_ETOOBIG), "deeper"));
    glance_result_free(res);
    free(html);
}

static void invalid_utf8_and_nul(void **state)
{
    /* In a UTF-8 page (its headline has an em dash and an é), stray bytes
     * and a NUL inside the text become U+FFFD; the content is still found,
     * and the bytes after the NUL are not lost. (A page with no UTF-8 at
     * all is read in the charset uchardet detects: test_charset.) */
    const char *h1 = strstr(ARTICLE_PAGE, "River levels fall");
    size_t len = strlen(ARTICLE_PAGE) + 16;
    char *html = malloc(len + 1);
    assert_non_null(html);
    snprintf(html, len + 1, "%.*s\xe2\x80\x94 caf\xc3\xa9 %s", (int)(h1 - ARTICLE_PAGE),
             ARTICLE_PAGE, h1);
    len = strlen(html);
    char *p = strstr(html, "heavy rain");
    assert_non_null(p);
    p[5] = '\xff';
    p[6] = '\0';
    glance_result *res;
    assert_int_equal(run(html, len, NULL, &res), GLANCE_OK);
    const char *text = glance_result_text(res);
    assert_non_null(strstr(text, "heavy\xef\xbf\xbd\xef\xbf\xbd" "ain"));
    assert_non_null(strstr(text, "mill museum"));
    glance_result_free(res);
    free(html);
}

/* A page in the charset its <meta> declares (and not UTF-8) is read in
 * that charset; the text comes out as UTF-8. */
static void declared_legacy_charsets(void **state)
{
    static const struct {
        const char *meta, *word, *utf8;
    } cases[] = {
        /* 日本語 in Shift_JIS */
        {"<meta charset=\"Shift_JIS\">", "\x93\xfa\x96\x7b\x8c\xea", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"},
        /* Привет in windows-1251 */
        {"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">",
         "\xcf\xf0\xe8\xe2\xe5\xf2", "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82"},
        /* café in ISO-8859-1, which browsers read as windows-1252 */
        {"<meta charset=iso-8859-1>", "caf\xe9", "caf\xc3\xa9"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char html[8192];
        const char *body = strstr(ARTICLE_PAGE, "<body>");
        const char *rain = strstr(ARTICLE_PAGE, "heavy rain");
        int n = snprintf(html, sizeof html, "<!DOCTYPE html><html><head>%s<title>t</title></head>%.*s%s %.*s",
                         cases[k].meta, (int)(rain - body), body, cases[k].word,
                         (int)strlen(rain), rain);
        glance_result *res;
        assert_int_equal(run(html, (size_t)n, NULL, &res), GLANCE_OK);
        const char *text = glance_result_text(res);
        if (!strstr(text, cases[k].utf8))
            fail_msg("case %zu: text lacks the converted word: %.120s", k, text);
        glance_result_free(res);
    }
}

static void utf16_with_bom(void **state)
{
    size_t len = strlen(ARTICLE_PAGE);
    char *u16 = malloc(2 + 2 * len);
    assert_non_null(u16);
    u16[0] = '\xff';
    u16[1] = '\xfe';
    for (size_t i = 0; i < len; i++) { /* the page is ASCII */
        u16[2 + 2 * i] = ARTICLE_PAGE[i];
        u16[3 + 2 * i] = 0;
    }
    glance_result *res;
    assert_int_equal(run(u16, 2 + 2 * len, NULL, &res), GLANCE_OK);
    assert_string_equal(glance_result_xpath(res), "/html[1]/body[1]/article[1]");
    glance_result_free(res);
    free(u16);
}

static void bad_options(void **state)
{
    glance_options opt;
    glance_result *res;
    glance_options_default(&opt);
    opt.window_w = 0;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), &opt, &res), GLANCE_EOPTION);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EOPTION), "window"));
    glance_result_free(res);
    glance_options_default(&opt);
    opt.beta = 1.5;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), &opt, &res), GLANCE_EOPTION);
    glance_result_free(res);
    glance_options_default(&opt);
    opt.grid_rows = 0;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), &opt, &res), GLANCE_EOPTION);
    glance_result_free(res);
    /* The other extractors' options, each checked whatever the method. */
    glance_options_default(&opt);
    opt.nodechar.theta = 1.5;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), &opt, &res), GLANCE_EOPTION);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EOPTION), "nodechar"));
    glance_result_free(res);
    glance_options_default(&opt);
    opt.xpath.max_ar = -0.1;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), &opt, &res), GLANCE_EOPTION);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EOPTION), "xpath"));
    glance_result_free(res);
    glance_options_default(&opt);
    opt.danag.gap = -1;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), &opt, &res), GLANCE_EOPTION);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EOPTION), "danag"));
    glance_result_free(res);
}

/* The extractors of papers 000, 003 and 004 answer as BTE does: the text
 * of what they found after the clean-up, as paragraphs of HTML, the element
 * that holds it, their name, and their own block of the JSON. The paper's
 * defaults are the options' defaults. */
static void other_methods(void **state)
{
    glance_options opt;
    glance_options_default(&opt);
    assert_true(opt.nodechar.theta == 0.333 && opt.nodechar.delta == 0.5 &&
                opt.nodechar.weight_text == 0.2 && opt.nodechar.min_density == 0.3 &&
                opt.nodechar.min_punct == 2);
    assert_true(opt.xpath.atr_weight == 0.75 && opt.xpath.max_ar == 0.6 && opt.xpath.min_chars == 2);
    assert_true(opt.danag.gap == 20 && opt.danag.radius == 1);
    static const struct {
        glance_method m;
        const char *name, *block;
    } ms[] = {{GLANCE_METHOD_NODECHAR, "nodechar", "nodechar"},
              {GLANCE_METHOD_XPATH, "xpath", "xpath_blocks"},
              {GLANCE_METHOD_DANAG, "danag", "danag"}};
    for (int i = 0; i < 3; i++) {
        opt.method = ms[i].m;
        glance_result *res;
        assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), &opt, &res), GLANCE_OK);
        assert_string_equal(glance_result_method(res), ms[i].name);
        assert_non_null(strstr(glance_result_text(res), "River levels fall"));
        assert_null(strstr(glance_result_text(res), "Sport"));
        assert_non_null(strstr(glance_result_html(res), "<p>"));
        assert_true(strncmp(glance_result_xpath(res), "/html[1]/body[1]", 16) == 0);
        json_object *o = json_tokener_parse(glance_result_json(res)), *b, *f;
        assert_non_null(o);
        assert_true(json_object_object_get_ex(o, ms[i].block, &b));
        assert_true(json_object_object_get_ex(b, "found", &f));
        assert_true(json_object_get_boolean(f));
        json_object_put(o);
        /* Run again on the same layout: the same answer. */
        char *before = strdup(glance_result_text(res));
        assert_int_equal(glance_result_rerun(res, &opt), GLANCE_OK);
        assert_string_equal(glance_result_text(res), before);
        free(before);
        glance_result_free(res);
    }
}

static void no_text_at_all(void **state)
{
    static const char page[] = "<html><body><div style='height:2000px'></div></body></html>";
    glance_result *res;
    assert_int_equal(run(page, strlen(page), NULL, &res), GLANCE_ENOCONTENT);
    assert_non_null(glance_result_failure(res));
    assert_null(glance_result_text(res));
    glance_result_free(res);
}

/* GCE fails on paragraphs straight in <body>; auto hands the page to BTE,
 * which answers with all of them and says so; gce alone finds nothing. */
static void auto_falls_back_to_bte(void **state)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/gce-fails.html", FIXTURES_DIR);
    glance_options opt;
    glance_options_default(&opt);
    assert_int_equal(opt.method, GLANCE_METHOD_AUTO);
    glance_result *res;
    assert_int_equal(glance_extract_file(ctx, path, &opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "bte");
    const char *text = glance_result_text(res);
    assert_non_null(strstr(text, "Present: eleven members and the secretary."));
    assert_non_null(strstr(text, "Meeting closed at nine."));
    assert_non_null(strstr(glance_result_html(res), "<p>Meeting closed at nine.</p>"));
    assert_string_equal(glance_result_xpath(res), "/html[1]/body[1]");
    json_object *o = json_tokener_parse(glance_result_json(res)), *m, *b;
    assert_non_null(o);
    assert_true(json_object_object_get_ex(o, "method", &m));
    assert_string_equal(json_object_get_string(m), "bte");
    assert_true(json_object_object_get_ex(o, "bte", &b));
    json_object_put(o);
    glance_result_free(res);

    opt.method = GLANCE_METHOD_GCE;
    assert_int_equal(glance_extract_file(ctx, path, &opt, &res), GLANCE_ENOCONTENT);
    assert_null(glance_result_method(res));
    glance_result_free(res);

    /* On a page GCE answers, auto is GCE's answer. */
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), NULL, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "gce");
    glance_result_free(res);
}

/* auto weighs GCE's answer against BTE's. On the news fixture, without the
 * clean-up, GCE's story holds 339 words and BTE's stretch 416 (the rail's
 * lists come in too), so GCE stands at the default share (0.3) and is
 * overruled when the share asks for more than 339/416. */
static void auto_weighs_gce_against_bte(void **state)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/news.html", FIXTURES_DIR);
    glance_options opt;
    glance_options_default(&opt);
    opt.cleanup = 0;
    glance_result *res;
    assert_int_equal(glance_extract_file(ctx, path, &opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "gce");
    json_object *o = json_tokener_parse(glance_result_json(res)), *a, *g, *b, *ov;
    assert_true(json_object_object_get_ex(o, "auto", &a));
    assert_true(json_object_object_get_ex(a, "gce_words", &g));
    assert_true(json_object_object_get_ex(a, "bte_words", &b));
    assert_true(json_object_object_get_ex(a, "gce_overruled", &ov));
    assert_false(json_object_get_boolean(ov));
    double share = (double)json_object_get_int64(g) / (double)json_object_get_int64(b);
    assert_true(share > 0.3 && share < 1);
    json_object_put(o);
    glance_result_free(res);

    opt.auto_min_share = share + 0.01;
    assert_int_equal(glance_extract_file(ctx, path, &opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "bte");
    assert_non_null(strstr(glance_result_text(res), "The turbines under the old ferry pier"));
    glance_result_free(res);

    opt.auto_min_share = 0; /* never overrule: no BTE run at all */
    assert_int_equal(glance_extract_file(ctx, path, &opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "gce");
    o = json_tokener_parse(glance_result_json(res));
    assert_false(json_object_object_get_ex(o, "auto", &a) && a);
    json_object_put(o);
    glance_result_free(res);

    opt.auto_min_share = 1.5;
    assert_int_equal(glance_extract_file(ctx, path, &opt, &res), GLANCE_EOPTION);
    glance_result_free(res);
}

/* auto keeps GCE's node to its dense stretches: on the gallery fixture the
 * row of date, time and author above the story and the captions leave;
 * with auto_trim off the answer is GCE's whole node; the JSON says which. */
static void auto_trims_gce(void **state)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/gallery.html", FIXTURES_DIR);
    glance_options opt;
    glance_options_default(&opt);
    assert_int_equal(opt.auto_trim, 1);
    assert_true(opt.auto_stretch_share == 0.3 && opt.auto_trim_min_share == 0.5);
    glance_result *res;
    assert_int_equal(glance_extract_file(ctx, path, &opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "gce");
    assert_null(strstr(glance_result_text(res), "Staff reports"));
    assert_null(strstr(glance_result_text(res), "Photo: Dan Reed"));
    assert_null(strstr(glance_result_html(res), "Staff reports"));
    assert_non_null(strstr(glance_result_html(res), "<img"));
    json_object *o = json_tokener_parse(glance_result_json(res)), *t, *v;
    assert_true(json_object_object_get_ex(o, "auto_trim", &t));
    assert_true(json_object_object_get_ex(t, "trimmed", &v));
    assert_true(json_object_get_boolean(v));
    json_object_put(o);
    glance_result_free(res);

    opt.auto_trim = 0;
    assert_int_equal(glance_extract_file(ctx, path, &opt, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "Staff reports"));
    assert_non_null(strstr(glance_result_text(res), "Photo: Dan Reed"));
    glance_result_free(res);

    /* Asking for every stretch to keep more than all the words: never trimmed. */
    opt.auto_trim = 1;
    opt.auto_trim_min_share = 1;
    assert_int_equal(glance_extract_file(ctx, path, &opt, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "Staff reports"));
    glance_result_free(res);

    opt.auto_stretch_share = 2;
    assert_int_equal(glance_extract_file(ctx, path, &opt, &res), GLANCE_EOPTION);
    glance_result_free(res);
}

static void method_names(void **state)
{
    glance_method m;
    static const char *const names[] = {"auto", "gce", "bte", "nodechar", "xpath", "danag", "all"};
    for (int i = 0; i < 7; i++) {
        assert_int_equal(glance_method_from_name(names[i], &m), 0);
        assert_string_equal(glance_method_name(m), names[i]);
    }
    assert_int_equal(glance_method_from_name("readability", &m), -1);
    assert_int_equal(glance_method_from_name(NULL, &m), -1);
    glance_options opt;
    glance_options_default(&opt);
    opt.method = (glance_method)7;
    glance_result *res;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), &opt, &res), GLANCE_EOPTION);
    glance_result_free(res);
}

static void missing_file(void **state)
{
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, "/nonexistent/page.html", NULL, &res);
    assert_int_equal(st, GLANCE_EIO);
    assert_non_null(strstr(glance_result_message(res, st), "/nonexistent/page.html"));
    glance_result_free(res);
}

static void strerror_covers_every_status(void **state)
{
    for (int s = GLANCE_OK; s <= GLANCE_ECOSTLY; s++) {
        const char *m = glance_strerror((glance_status)s);
        assert_non_null(m);
        assert_string_not_equal(m, "unknown status");
    }
    assert_string_equal(glance_strerror((glance_status)999), "unknown status");
}

/* glance_extract_page: the charset a Content-Type named (here Latin-1,
 * which no <meta> declares), and a base that must be http or https. */
static void extract_page_charset_and_base(void **state)
{
    static const char page[] = "<!DOCTYPE html><html><head><title>Caf\xe9 cr\xe8me</title></head>"
                               "<body><article><p>Un caf\xe9 cr\xe8me, s'il vous pla\xeet.</p>"
                               "</article></body></html>";
    glance_options o;
    glance_options_default(&o);
    o.offline = 1;
    glance_result *res = NULL;
    glance_status st = glance_extract_page(ctx, page, sizeof page - 1, "ISO-8859-1",
                                           "http://example.org/news/", &o, &res);
    assert_non_null(res);
    assert_true(st == GLANCE_OK || st == GLANCE_ENOCONTENT);
    assert_string_equal(glance_result_title(res), "Caf\xc3\xa9 cr\xc3\xa8me");
    const char *from = NULL;
    assert_string_equal(glance_result_charset(res, &from), "ISO-8859-1");
    assert_string_equal(from, "http");
    glance_result_free(res);

    res = NULL;
    assert_int_equal(glance_extract_page(ctx, page, sizeof page - 1, NULL, "file:///etc/", &o, &res),
                     GLANCE_EURL);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EURL), "base"));
    glance_result_free(res);
}

int main(void)
{
    ctx = glance_context_new();
    if (!ctx)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_article),
        cmocka_unit_test(json_carries_reasoning),
        cmocka_unit_test(empty_input),
        cmocka_unit_test(binary_input),
        cmocka_unit_test(over_the_size_limit),
        cmocka_unit_test(too_deep),
        cmocka_unit_test(invalid_utf8_and_nul),
        cmocka_unit_test(utf16_with_bom),
        cmocka_unit_test(declared_legacy_charsets),
        cmocka_unit_test(auto_falls_back_to_bte),
        cmocka_unit_test(auto_weighs_gce_against_bte),
        cmocka_unit_test(auto_trims_gce),
        cmocka_unit_test(method_names),
        cmocka_unit_test(bad_options),
        cmocka_unit_test(other_methods),
        cmocka_unit_test(no_text_at_all),
        cmocka_unit_test(missing_file),
        cmocka_unit_test(strerror_covers_every_status),
        cmocka_unit_test(extract_page_charset_and_base),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    glance_context_free(ctx);
    return failed;
}
