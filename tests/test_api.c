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

#include "meta/meta.h"
#include "glance.h"
#include "opts.h"

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

/* What the default gives a reader: the article's paragraphs, without the
 * navigation above it and the link below it. */
static void finds_article(void **state)
{
    glance_result *res;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), NULL, &res), GLANCE_OK);
    assert_string_equal(glance_result_title(res), "A small page");
    const char *text = glance_result_text(res);
    assert_non_null(strstr(text, "After a week of heavy rain"));
    assert_non_null(strstr(text, "Residents along the lower bank"));
    assert_non_null(strstr(text, "mill museum"));
    assert_null(strstr(text, "Contact"));
    assert_null(strstr(text, "Sport"));
    assert_null(strstr(text, "Home"));
    const char *html = glance_result_html(res);
    assert_non_null(strstr(html, "<p>After a week of heavy rain"));
    assert_null(strstr(html, "Contact"));
    glance_timings t = glance_result_timings(res);
    assert_true(t.parse_ms > 0 && t.layout_ms > 0 && t.extract_ms > 0);
    assert_true(t.total_ms >= t.parse_ms + t.layout_ms + t.extract_ms);
    assert_true(t.fetch_ms >= 0 && t.fetch_ms <= t.total_ms); /* no stylesheet to fetch */
    /* parse in its parts, and the tree within layout */
    assert_true(t.css_ms > 0 && t.html_ms > 0 && t.style_ms > 0);
    assert_true(t.css_ms + t.html_ms + t.style_ms <= t.parse_ms + 1e-6);
    assert_true(t.tree_ms > 0 && t.tree_ms <= t.layout_ms);
    glance_result_free(res);
}

/* Words of elements side by side, apart only by the white space between
 * them (or a no-break space alone, as gtk-doc writes "double&nbsp;<em>x</em>"),
 * stay apart in every method's answer ("alpha beta", not "alphabeta"), and
 * code keeps its lines; a paragraph of a no-break space alone gives no
 * line. */
static void words_apart_between_elements(void **state)
{
    (void)state;
    char html[8192];
    const char *p = strstr(ARTICLE_PAGE, "<p>The engineers");
    assert_non_null(p);
    int n = snprintf(html, sizeof html,
                     "%.*s<p><b>Alpha</b> <i>beta</i>\n<a href='/g'>gamma</a>&nbsp;<b>delta</b> and the sandbags of "
                     "the county engineers stay on the quay until the second crest passes.</p>"
                     "<p>Tide tables<br>are posted daily at the harbour office for anglers.</p>"
                     "<p>&nbsp;</p><pre><code><span>use</span> <span>std::mem</span>;\n"
                     "<span>let</span> <span>level</span> = 4;\n  <b>gauge</b>();\n<i>end</i>\n\n<i>stop</i>"
                     "</code></pre>%s",
                     (int)(p - ARTICLE_PAGE), ARTICLE_PAGE, p);
    assert_true(n > 0 && (size_t)n < sizeof html);
    static const char *const methods[] = {"auto", "classic", "bte", "nodechar", "gce"};
    glance_options *opt = glance_options_new();
    assert_non_null(opt);
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++) {
        assert_int_equal(glance_options_set(opt, "method", methods[i]), GLANCE_OK);
        OPTS_TEXT(opt, "method", methods[i]);
        glance_result *res;
        assert_int_equal(run(html, (size_t)n, opt, &res), GLANCE_OK);
        const char *text = glance_result_text(res);
        if (!strstr(text, "Alpha beta gamma delta and the sandbags") ||
            !strstr(text, "use std::mem;\nlet level = 4;\n  gauge();\nend\n\nstop") ||
            strstr(text, "\xc2\xa0"))
            fail_msg("%s:\n%s", methods[i], text);
        glance_result_free(res);
    }
    /* The blocks' texts in the JSON (what tools/fit/ labels against the
     * truth) are parted the same way: spaces alone, and a <br>. */
    assert_int_equal(glance_options_set(opt, "method", "auto"), GLANCE_OK);
    assert_int_equal(glance_options_set(opt, "score.features", "on"), GLANCE_OK);
    glance_result *res;
    assert_int_equal(run(html, (size_t)n, opt, &res), GLANCE_OK);
    json_object *o = json_tokener_parse(glance_result_json(res)), *sc, *list;
    assert_non_null(o);
    assert_true(json_object_object_get_ex(o, "score", &sc));
    assert_true(json_object_object_get_ex(sc, "block_list", &list));
    int found = 0;
    for (size_t i = 0; i < json_object_array_length(list); i++) {
        json_object *t;
        assert_true(json_object_object_get_ex(json_object_array_get_idx(list, i), "text", &t));
        const char *bt = json_object_get_string(t);
        found |= (strstr(bt, "Alpha beta gamma delta and") != NULL) |
                 (strstr(bt, "use std::mem; let level = 4;") != NULL) << 1 |
                 (strstr(bt, "Tide tables are posted") != NULL) << 2;
    }
    if (found != 7)
        fail_msg("blocks: %s", json_object_to_json_string(list));
    json_object_put(o);
    glance_result_free(res);
    glance_options_free(opt);
}

/* Blocks in a box pinned to the window (position: fixed) wait: on a
 * reference whose contents, synopsis and feedback bar are pinned, the
 * scorer leaves them out and says how many; on a page whose whole body is
 * one pinned box (scrolled within), they outweigh the rest and are the
 * scorer's own answer, not the classic policy's. */
static void pinned_boxes_wait(void **state)
{
    (void)state;
    static const char *const pages[] = {"pinned-boxes.html", "pinned-shell.html"};
    static const char *const want[] = {"nextHighWater :: TideTable", "the first ferry to the island"};
    glance_options *opt = glance_options_new();
    assert_non_null(opt);
    for (int i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, pages[i]);
        glance_result *res;
        assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
        assert_non_null(strstr(glance_result_text(res), want[i]));
        json_object *o = json_tokener_parse(glance_result_json(res)), *sc, *v;
        assert_non_null(o);
        assert_true(json_object_object_get_ex(o, "score", &sc));
        assert_true(json_object_object_get_ex(sc, "fallback", &v));
        assert_false(json_object_get_boolean(v));
        assert_true(json_object_object_get_ex(sc, "pinned_left_out", &v));
        if (i == 0)
            assert_true(json_object_get_int(v) >= 3); /* contents, synopsis, the bar */
        else
            assert_int_equal(json_object_get_int(v), 0);
        json_object_put(o);
        glance_result_free(res);
    }
    glance_options_free(opt);
}

/* A pinned box is where the page paints it: against the window, not
 * against its parent. pinned-boxes.html's contents list (left 2em, top
 * 6em, padding 1em) sits inside the centred #content (355 px from the
 * left at 1920 px), and its feedback bar is at the window's bottom; a
 * browser puts "Contents" at 48, 128 and the bar's line at y 1040. */
static void pinned_boxes_placed_against_the_window(void **state)
{
    (void)state;
    glance_options *opt = glance_options_new();
    assert_non_null(opt);
    assert_int_equal(glance_options_set(opt, "window", "1920x1080"), GLANCE_OK);
    assert_int_equal(glance_options_set(opt, "score.explain", "on"), GLANCE_OK);
    char path[1024];
    snprintf(path, sizeof path, "%s/pinned-boxes.html", FIXTURES_DIR);
    glance_result *res;
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
    json_object *o = json_tokener_parse(glance_result_json(res)), *sc, *ex, *list;
    assert_non_null(o);
    assert_true(json_object_object_get_ex(o, "score", &sc));
    assert_true(json_object_object_get_ex(sc, "explain", &ex));
    assert_true(json_object_object_get_ex(ex, "blocks", &list));
    int found = 0;
    for (size_t i = 0; i < json_object_array_length(list); i++) {
        json_object *b = json_object_array_get_idx(list, i), *t, *box, *v;
        assert_true(json_object_object_get_ex(b, "text", &t));
        assert_true(json_object_object_get_ex(b, "box", &box));
        double xywh[4];
        const char *keys[] = {"x", "y", "w", "h"};
        for (int k = 0; k < 4; k++) {
            assert_true(json_object_object_get_ex(box, keys[k], &v));
            xywh[k] = json_object_get_double(v);
        }
        const char *s = json_object_get_string(t);
        if (strcmp(s, "Contents") == 0) {
            found |= 1;
            if (xywh[0] < 40 || xywh[0] > 56 || xywh[1] < 120 || xywh[1] > 136)
                fail_msg("Contents at %.0f, %.0f", xywh[0], xywh[1]);
        } else if (strncmp(s, "Was this page useful", 20) == 0) {
            found |= 2;
            if (xywh[0] < 12 || xywh[0] > 28 || xywh[1] + xywh[3] > 1080 || xywh[1] < 1020)
                fail_msg("the feedback bar's line at %.0f, %.0f (%.0f high)", xywh[0], xywh[1],
                         xywh[3]);
        }
    }
    assert_int_equal(found, 3);
    json_object_put(o);
    glance_result_free(res);
    glance_options_free(opt);
}

/* A list of teasers above an article whose <h1> is the page's title: the
 * answer begins at the headline, the teasers counted as left out; with
 * score.after_h1 off, the model alone takes them in (their summaries read
 * like the article's paragraphs). */
static void nothing_before_the_headline(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/teasers-first.html", FIXTURES_DIR);
    const char *teaser = "The council voted on Tuesday to rebuild the harbour wall";
    const char *story = "the ferry to the island will run six times a day instead of nine";
    for (int on = 1; on >= 0; on--) {
        glance_options *opt = glance_options_new();
        assert_non_null(opt);
        assert_int_equal(glance_options_set(opt, "score.after_h1", on ? "on" : "off"), GLANCE_OK);
        glance_result *res;
        assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
        assert_non_null(strstr(glance_result_text(res), story));
        assert_true((strstr(glance_result_text(res), teaser) == NULL) == on);
        json_object *o = json_tokener_parse(glance_result_json(res)), *sc, *v;
        assert_non_null(o);
        assert_true(json_object_object_get_ex(o, "score", &sc));
        assert_true(json_object_object_get_ex(sc, "before_headline_left_out", &v));
        if (on)
            assert_true(json_object_get_int(v) >= 10); /* five titles and summaries */
        else
            assert_int_equal(json_object_get_int(v), 0);
        /* The scorer's run in its parts, each timed, none more than the
         * whole extraction. */
        json_object *parts, *tm, *ex;
        assert_true(json_object_object_get_ex(sc, "ms_parts", &parts));
        assert_true(json_object_object_get_ex(o, "timings_ms", &tm));
        assert_true(json_object_object_get_ex(tm, "extract", &ex));
        double sum = 0;
        for (const char *const *k = (const char *const[]){"features", "votes", "forests",
                                                           "assembly", NULL};
             *k; k++) {
            assert_true(json_object_object_get_ex(parts, *k, &v));
            assert_true(json_object_get_double(v) >= 0);
            sum += json_object_get_double(v);
        }
        assert_true(sum <= json_object_get_double(ex));
        json_object_put(o);
        glance_result_free(res);
        glance_options_free(opt);
    }
}

/* A page streamed in parts: the JSON's document says how many were put
 * in place, and the story is the scorer's own answer, in order. */
static void streamed_parts_counted(void **state)
{
    (void)state;
    glance_options *opt = glance_options_new();
    assert_non_null(opt);
    char path[1024];
    snprintf(path, sizeof path, "%s/streamed.html", FIXTURES_DIR);
    glance_result *res;
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
    const char *text = glance_result_text(res);
    const char *a = strstr(text, "and carries bicycles in a car of its own");
    const char *b = strstr(text, "and the dining car serves breakfast from six");
    const char *c = strstr(text, "Tickets go on sale next month");
    if (!a || !b || !c || !(a < b && b < c))
        fail_msg("parts missing or out of order:\n%s", text);
    json_object *o = json_tokener_parse(glance_result_json(res)), *d, *v;
    assert_non_null(o);
    assert_true(json_object_object_get_ex(o, "document", &d));
    assert_true(json_object_object_get_ex(d, "streamed_parts", &v));
    assert_int_equal(json_object_get_int(v), 2);
    assert_true(json_object_object_get_ex(o, "score", &d));
    assert_true(json_object_object_get_ex(d, "fallback", &v));
    assert_false(json_object_get_boolean(v));
    json_object_put(o);
    glance_result_free(res);
    glance_options_free(opt);
}

/* A listing whose items are links (a job board): the default answers with
 * its items. Links are most of its characters, and the classic policy finds
 * no article; an older rule took that for a page of links and answered
 * nothing. */
static const char *const job_names[] = {"Acme", "Borealis", "Cobalt", "Dynamo", "Ember",
                                        "Fjord", "Granite", "Harbor", "Indigo", "Juniper",
                                        "Kestrel", "Lumen", "Meridian", "Nimbus", "Orchid",
                                        "Pioneer", "Quarry", "Radiant", "Summit", "Tundra"};
static const char *const job_roles[] = {"a founding engineer", "designers who code",
                                        "a security engineer", "interns for the summer",
                                        "an account executive"};
enum { N_JOBS = sizeof job_names / sizeof job_names[0] };

/* The job board, with `tail` (HTML) after it, extracted with the default:
 * its items must be the answer (the model may leave out one at an edge,
 * next to the footer), and `unwanted` (when given) must not be in it. */
static void expect_job_board(const char *tail, const char *unwanted)
{
    char html[16384];
    size_t len = (size_t)snprintf(html, sizeof html,
                                  "<!DOCTYPE html><html><head><title>Jobs board</title></head><body>"
                                  "<table width='85%%' align='center'><tr><td><a href='/'>Board</a> | "
                                  "<a href='/new'>new</a> | <a href='/jobs'>jobs</a></td></tr>"
                                  "<tr><td><table>");
    for (int i = 0; i < N_JOBS; i++)
        len += (size_t)snprintf(html + len, sizeof html - len,
                                "<tr><td>%d.</td><td><a href='/jobs/%d'>%s Labs is hiring %s</a> "
                                "(<a href='/from/%d'>%s.example</a>)</td></tr>"
                                "<tr><td></td><td><a href='/item/%d'>%d days ago</a></td></tr>",
                                i + 1, i, job_names[i], job_roles[i % 5], i, job_names[i], i, i + 2);
    len += (size_t)snprintf(html + len, sizeof html - len,
                            "</table></td></tr><tr><td><a href='/faq'>FAQ</a></td></tr>"
                            "</table>%s</body></html>", tail);
    assert_true(len < sizeof html);
    glance_result *res;
    assert_int_equal(run(html, len, NULL, &res), GLANCE_OK);
    const char *text = glance_result_text(res);
    char want[128];
    int found = 0;
    for (int i = 0; i < N_JOBS; i++) {
        snprintf(want, sizeof want, "%s Labs is hiring %s", job_names[i], job_roles[i % 5]);
        found += strstr(text, want) != NULL;
    }
    if (found < N_JOBS - 2)
        fail_msg("%d of the %d items are in the answer:\n%s", found, N_JOBS, text);
    if (unwanted && strstr(text, unwanted))
        fail_msg("\"%s\" is in the answer:\n%s", unwanted, text);
    glance_result_free(res);
}

static void finds_listing_of_links(void **state)
{
    (void)state;
    expect_job_board("", NULL);
}

/* The classic policy answers with an <article> that is a line of the page,
 * and the items are mostly links: the article stands in their place only
 * when it has more words of its own (outside links) than they have, and a
 * box pinned to the window (a consent dialog) has none to count. Without
 * either rule the answer is the notice alone, not the board (the notice in
 * the flow of the page may join the board: a reader sees it there). */
static void listing_outweighs_a_short_article(void **state)
{
    (void)state;
    expect_job_board("<div><article><p>We use cookies to keep you signed in. Accept them?</p>"
                     "<button>Accept</button></article></div>",
                     NULL);
    expect_job_board("<div style='position:fixed; bottom:0; left:0; right:0'><article><p>We and "
                     "our partners store and read information on your device, such as cookies "
                     "and identifiers, to measure how the board is used, to remember your "
                     "choices and to show offers that match your searches. You can accept all "
                     "of it, refuse all of it, or choose for each purpose in the settings; you "
                     "can change your mind at any time in the footer.</p><button>Accept</button>"
                     "</article></div>",
                     "We and our partners");
}

/* A page of bare links, a site map of 3000 of them, is no main content:
 * not one of its characters is outside a link, not one sentence ends. A
 * listing whose teasers are the links' text (a news topic page) stands. */
static void bare_links_are_no_content(void **state)
{
    (void)state;
    enum { N = 3000 };
    size_t cap = 64 + N * 48;
    char *html = malloc(cap);
    assert_non_null(html);
    size_t len = (size_t)snprintf(html, cap, "<html><body>");
    for (int i = 0; i < N; i++)
        len += (size_t)snprintf(html + len, cap - len, "<a href=\"/l%d\">link %d</a>\n", i, i);
    len += (size_t)snprintf(html + len, cap - len, "</body></html>");
    assert_true(len < cap);
    glance_result *res;
    assert_int_equal(run(html, len, NULL, &res), GLANCE_ENOCONTENT);
    const char *msg = glance_result_message(res, GLANCE_ENOCONTENT);
    if (!msg || !strstr(msg, "a page of links"))
        fail_msg("message: %s", msg ? msg : "(none)");
    glance_result_free(res);

    len = (size_t)snprintf(html, cap, "<html><body><h1>Headphones</h1>");
    for (int i = 0; i < 12; i++)
        len += (size_t)snprintf(html + len, cap - len,
                                "<div><a href=\"/n%d\"><h2>Story %d of the week</h2><p>The maker "
                                "put out update %d for its earphones, and testers found the "
                                "battery lasts longer. Reviewers liked the case.</p></a></div>",
                                i, i, i);
    len += (size_t)snprintf(html + len, cap - len, "</body></html>");
    assert_int_equal(run(html, len, NULL, &res), GLANCE_OK);
    const char *text = glance_result_text(res);
    int found = 0;
    for (int i = 0; i < 12; i++) {
        char want[64];
        snprintf(want, sizeof want, "put out update %d for", i);
        found += strstr(text, want) != NULL;
    }
    /* The model may leave out a few toward the end (their place on the
     * page); what the rule must not do is take them all away. */
    if (found < 6)
        fail_msg("%d of the 12 teasers are in the answer:\n%s", found, text);
    glance_result_free(res);
    free(html);
}

/* The classic policy answers with GCE's <article>: its node, its box
 * (700px, centred) and its headline. */
static void classic_finds_article(void **state)
{
    glance_options *opt = OPTS("method=classic");
    glance_result *res;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), opt, &res), GLANCE_OK);
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
    glance_result_free(res);
    glance_options_free(opt);
}

static void json_carries_reasoning(void **state)
{
    glance_options *opt = OPTS("method=classic");
    glance_result *res;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), opt, &res), GLANCE_OK);
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
    assert_true(json_object_object_get_ex(v, "extract", &w));
    assert_true(json_object_get_double(w) > 0);
    assert_true(json_object_object_get_ex(v, "fetch", &w));
    assert_false(json_object_object_get_ex(v, "gce", &w)); /* "extract" since 0.2 */
    json_object_put(o);
    glance_result_free(res);
    glance_options_free(opt);
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
    glance_options *opt = OPTS("max_input_bytes=100");
    glance_result *res;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), opt, &res), GLANCE_ETOOBIG);
    assert_non_null(strstr(glance_result_message(res, GLANCE_ETOOBIG), "max_input_bytes"));
    glance_result_free(res);
    glance_options_free(opt);
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
    /* Read right, the page is the one GCE answers with its <article>. */
    glance_options *opt = OPTS("method=classic");
    glance_result *res;
    assert_int_equal(run(u16, 2 + 2 * len, opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_xpath(res), "/html[1]/body[1]/article[1]");
    glance_result_free(res);
    glance_options_free(opt);
    free(u16);
}

/* A value out of range is refused when it is set, with a message naming
 * the option, and the option keeps the value it had: the options a page is
 * extracted with are always valid. */
static void bad_options(void **state)
{
    glance_options *opt = glance_options_new();
    assert_non_null(opt);
    OPTS_REFUSED(opt, "window", "0x1080", "window");
    OPTS_TEXT(opt, "window", "1920x1080");
    OPTS_REFUSED(opt, "gce.beta", "1.5", "gce.beta");
    OPTS_NUMBER(opt, "gce.beta", 0.5);
    OPTS_REFUSED(opt, "gce.grid", "0x8", "gce.grid");
    OPTS_TEXT(opt, "gce.grid", "7x8");
    /* The other extractors' options, each checked whatever the method. */
    OPTS_REFUSED(opt, "nodechar.theta", "1.5", "nodechar.theta");
    OPTS_NUMBER(opt, "nodechar.theta", 0.333);
    OPTS_REFUSED(opt, "xpath.max_ar", "-0.1", "xpath.max_ar");
    OPTS_NUMBER(opt, "xpath.max_ar", 0.6);
    OPTS_REFUSED(opt, "danag.gap", "-1", "danag.gap");
    OPTS_TEXT(opt, "danag.gap", "20");
    /* A value of the wrong form, not only out of range. */
    OPTS_REFUSED(opt, "gce.alpha", "two", "gce.alpha");
    OPTS_REFUSED(opt, "window", "800", "window");
    OPTS_REFUSED(opt, "cleanup", "maybe", "cleanup");
    /* What was refused left the options as they were: they still work
     * (GCE, under the classic policy, still finds the <article>). */
    OPTS_SET(opt, "method=classic");
    glance_result *res;
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_tag(res), "article");
    glance_result_free(res);
    glance_options_free(opt);
}

/* The extractors of papers 000, 003 and 004 answer as BTE does: the text
 * of what they found after the clean-up, as paragraphs of HTML, the element
 * that holds it, their name, and their own block of the JSON. The paper's
 * defaults are the options' defaults. */
static void other_methods(void **state)
{
    glance_options *opt = glance_options_new();
    assert_non_null(opt);
    OPTS_NUMBER(opt, "nodechar.theta", 0.333);
    OPTS_NUMBER(opt, "nodechar.delta", 0.5);
    OPTS_NUMBER(opt, "nodechar.weight_text", 0.2);
    OPTS_NUMBER(opt, "nodechar.min_density", 0.3);
    OPTS_TEXT(opt, "nodechar.min_punct", "2");
    OPTS_NUMBER(opt, "xpath.atr_weight", 0.75);
    OPTS_NUMBER(opt, "xpath.max_ar", 0.6);
    OPTS_TEXT(opt, "xpath.min_chars", "2");
    OPTS_TEXT(opt, "danag.gap", "20");
    OPTS_TEXT(opt, "danag.radius", "1");
    static const struct {
        const char *name, *block;
    } ms[] = {{"nodechar", "nodechar"}, {"xpath", "xpath_blocks"}, {"danag", "danag"}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(glance_options_set(opt, "method", ms[i].name), GLANCE_OK);
        OPTS_TEXT(opt, "method", ms[i].name);
        glance_result *res;
        assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), opt, &res), GLANCE_OK);
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
        assert_int_equal(glance_result_rerun(res, opt), GLANCE_OK);
        assert_string_equal(glance_result_text(res), before);
        free(before);
        glance_result_free(res);
    }
    glance_options_free(opt);
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

/* GCE fails on paragraphs straight in <body>; the classic policy hands the
 * page to BTE, which answers with all of them and says so; gce alone finds
 * nothing. The default answers the page too. */
static void classic_falls_back_to_bte(void **state)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/gce-fails.html", FIXTURES_DIR);
    glance_options *opt = glance_options_new();
    assert_non_null(opt);
    OPTS_SET(opt, "method=classic");
    glance_result *res;
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "classic");
    const char *text = glance_result_text(res);
    assert_non_null(strstr(text, "Present: eleven members and the secretary."));
    assert_non_null(strstr(text, "Meeting closed at nine."));
    assert_non_null(strstr(glance_result_html(res), "<p>Meeting closed at nine.</p>"));
    assert_string_equal(glance_result_xpath(res), "/html[1]/body[1]");
    json_object *o = json_tokener_parse(glance_result_json(res)), *m, *b, *c;
    assert_non_null(o);
    assert_true(json_object_object_get_ex(o, "method", &m));
    assert_string_equal(json_object_get_string(m), "classic");
    assert_true(json_object_object_get_ex(o, "classic", &c));
    assert_true(json_object_object_get_ex(c, "answered", &m));
    assert_string_equal(json_object_get_string(m), "bte");
    assert_true(json_object_object_get_ex(o, "bte", &b));
    json_object_put(o);
    glance_result_free(res);

    OPTS_SET(opt, "method=gce");
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_ENOCONTENT);
    assert_null(glance_result_method(res));
    glance_result_free(res);

    /* The default finds the minutes where GCE finds nothing. */
    OPTS_SET(opt, "method=auto");
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
    text = glance_result_text(res);
    assert_non_null(strstr(text, "Present: eleven members and the secretary."));
    assert_non_null(strstr(text, "Meeting closed at nine."));
    glance_result_free(res);

    /* On a page GCE answers, the classic policy's answer is GCE's. */
    OPTS_SET(opt, "method=classic");
    assert_int_equal(run(ARTICLE_PAGE, strlen(ARTICLE_PAGE), opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "classic");
    o = json_tokener_parse(glance_result_json(res));
    assert_non_null(o);
    assert_true(json_object_object_get_ex(o, "classic", &c));
    assert_true(json_object_object_get_ex(c, "answered", &m));
    assert_string_equal(json_object_get_string(m), "gce");
    json_object_put(o);
    glance_result_free(res);
    glance_options_free(opt);
}

/* The classic policy weighs GCE's answer against BTE's. On the news
 * fixture, without the clean-up, GCE's story holds 339 words and BTE's
 * stretch 416 (the rail's lists come in too), so GCE stands at the default
 * share (0.3) and is overruled when the share asks for more than 339/416. */
static void classic_weighs_gce_against_bte(void **state)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/news.html", FIXTURES_DIR);
    glance_options *opt = OPTS("cleanup=off", "method=classic");
    OPTS_NUMBER(opt, "classic.min_share", 0.3);
    glance_result *res;
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "classic");
    json_object *o = json_tokener_parse(glance_result_json(res)), *a, *g, *b, *ov, *by;
    assert_true(json_object_object_get_ex(o, "classic", &a));
    assert_true(json_object_object_get_ex(a, "answered", &by));
    assert_string_equal(json_object_get_string(by), "gce");
    assert_true(json_object_object_get_ex(a, "gce_words", &g));
    assert_true(json_object_object_get_ex(a, "bte_words", &b));
    assert_true(json_object_object_get_ex(a, "gce_overruled", &ov));
    assert_false(json_object_get_boolean(ov));
    double share = (double)json_object_get_int64(g) / (double)json_object_get_int64(b);
    assert_true(share > 0.3 && share < 1);
    json_object_put(o);
    glance_result_free(res);

    char share_text[32];
    snprintf(share_text, sizeof share_text, "%.17g", share + 0.01);
    assert_int_equal(glance_options_set(opt, "classic.min_share", share_text), GLANCE_OK);
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "classic");
    o = json_tokener_parse(glance_result_json(res));
    assert_true(json_object_object_get_ex(o, "classic", &a));
    assert_true(json_object_object_get_ex(a, "answered", &by));
    assert_string_equal(json_object_get_string(by), "bte");
    assert_true(json_object_object_get_ex(a, "gce_overruled", &ov));
    assert_true(json_object_get_boolean(ov));
    json_object_put(o);
    assert_non_null(strstr(glance_result_text(res), "The turbines under the old ferry pier"));
    glance_result_free(res);

    OPTS_SET(opt, "classic.min_share=0"); /* never overrule: no BTE run at all */
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "classic");
    o = json_tokener_parse(glance_result_json(res));
    assert_true(json_object_object_get_ex(o, "classic", &a));
    assert_true(json_object_object_get_ex(a, "answered", &by));
    assert_string_equal(json_object_get_string(by), "gce");
    assert_false(json_object_object_get_ex(a, "gce_words", &g));
    assert_false(json_object_object_get_ex(o, "bte", &b) && b);
    json_object_put(o);
    glance_result_free(res);

    OPTS_REFUSED(opt, "classic.min_share", "1.5", "classic.min_share");
    OPTS_NUMBER(opt, "classic.min_share", 0);
    /* The former auto.* keys are gone; the old flag's name stays an alias. */
    assert_int_equal(glance_options_set(opt, "auto.min_share", "0.3"), GLANCE_EOPTION);
    OPTS_SET(opt, "auto_min_share=0.4");
    OPTS_NUMBER(opt, "classic.min_share", 0.4);
    glance_options_free(opt);
}

/* The classic policy keeps GCE's node to its dense stretches: on the
 * gallery fixture the row of date, time and author above the story and the
 * captions leave; with classic.trim off the answer is GCE's whole node; the
 * JSON says which. */
static void classic_trims_gce(void **state)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/gallery.html", FIXTURES_DIR);
    glance_options *opt = OPTS("method=classic");
    OPTS_TEXT(opt, "classic.trim", "on");
    OPTS_NUMBER(opt, "classic.stretch_share", 0.3);
    OPTS_NUMBER(opt, "classic.trim_min_share", 0.5);
    glance_result *res;
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
    assert_string_equal(glance_result_method(res), "classic");
    assert_null(strstr(glance_result_text(res), "Staff reports"));
    assert_null(strstr(glance_result_text(res), "Photo: Dan Reed"));
    assert_null(strstr(glance_result_html(res), "Staff reports"));
    assert_non_null(strstr(glance_result_html(res), "<img"));
    json_object *o = json_tokener_parse(glance_result_json(res)), *c, *t, *v;
    assert_true(json_object_object_get_ex(o, "classic", &c));
    assert_true(json_object_object_get_ex(c, "answered", &v));
    assert_string_equal(json_object_get_string(v), "gce");
    assert_true(json_object_object_get_ex(c, "trim", &t));
    assert_true(json_object_object_get_ex(t, "trimmed", &v));
    assert_true(json_object_get_boolean(v));
    json_object_put(o);
    glance_result_free(res);

    OPTS_SET(opt, "classic.trim=off");
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "Staff reports"));
    assert_non_null(strstr(glance_result_text(res), "Photo: Dan Reed"));
    glance_result_free(res);

    /* Asking for every stretch to keep more than all the words: never trimmed. */
    OPTS_SET(opt, "classic.trim=on", "classic.trim_min_share=1");
    assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
    assert_non_null(strstr(glance_result_text(res), "Staff reports"));
    glance_result_free(res);

    OPTS_REFUSED(opt, "classic.stretch_share", "2", "classic.stretch_share");
    OPTS_NUMBER(opt, "classic.stretch_share", 0.3);
    glance_options_free(opt);
}

static void method_names(void **state)
{
    static const char *const names[] = {"auto",  "gce",     "bte",   "nodechar", "xpath",
                                        "danag", "classic", "score", "all"};
    const int n = (int)(sizeof names / sizeof names[0]);
    assert_int_equal(glance_method_count(), n);
    glance_options *opt = glance_options_new();
    assert_non_null(opt);
    for (int i = 0; i < n; i++) {
        assert_non_null(glance_method_name(i));
        assert_string_equal(glance_method_name(i), names[i]);
        const char *doc = glance_method_doc(i);
        assert_non_null(doc);
        assert_true(doc[0] != '\0');
        /* Each name is a value of "method", and reads back as itself. */
        assert_int_equal(glance_options_set(opt, "method", names[i]), GLANCE_OK);
        OPTS_TEXT(opt, "method", names[i]);
    }
    assert_null(glance_method_name(n));
    assert_null(glance_method_doc(n));
    assert_null(glance_method_name(-1));
    OPTS_SET(opt, "method=gce");
    OPTS_REFUSED(opt, "method", "readability", "method");
    OPTS_REFUSED(opt, "method", "7", "method");
    OPTS_REFUSED(opt, "method", "", "method");
    OPTS_TEXT(opt, "method", "gce");
    glance_options_free(opt);
}

static void missing_file(void **state)
{
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, "/nonexistent/page.html", NULL, &res);
    assert_int_equal(st, GLANCE_EIO);
    assert_non_null(strstr(glance_result_message(res, st), "/nonexistent/page.html"));
    glance_result_free(res);
}

/* The library's version is the header's it was built with. */
static void version_of_the_library(void **state)
{
    assert_string_equal(glance_version(), GLANCE_VERSION);
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
    glance_options *o = OPTS("offline=on");
    glance_result *res = NULL;
    glance_status st = glance_extract_page(ctx, page, sizeof page - 1, "ISO-8859-1",
                                           "http://example.org/news/", o, &res);
    assert_non_null(res);
    assert_true(st == GLANCE_OK || st == GLANCE_ENOCONTENT);
    assert_string_equal(glance_result_title(res), "Caf\xc3\xa9 cr\xc3\xa8me");
    const char *from = NULL;
    assert_string_equal(glance_result_charset(res, &from), "ISO-8859-1");
    assert_string_equal(from, "http");
    assert_true(glance_result_timings(res).fetch_ms == 0); /* offline: no network */
    glance_result_free(res);

    res = NULL;
    assert_int_equal(glance_extract_page(ctx, page, sizeof page - 1, NULL, "file:///etc/", o, &res),
                     GLANCE_EURL);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EURL), "base"));
    glance_result_free(res);
    glance_options_free(o);
}

/* The options API ------------------------------------------------------- */

/* An unknown key is refused, the message naming it, and changes nothing. */
static void unknown_option(void **state)
{
    glance_options *o = glance_options_new();
    assert_non_null(o);
    assert_string_equal(glance_options_error(o), "");
    assert_int_equal(glance_options_set(o, "no_such_option", "1"), GLANCE_EOPTION);
    assert_non_null(strstr(glance_options_error(o), "no_such_option"));
    assert_null(glance_options_get(o, "no_such_option"));
    /* A method's parameter under another method's name is no key either. */
    assert_int_equal(glance_options_set(o, "danag.alpha", "2"), GLANCE_EOPTION);
    assert_non_null(strstr(glance_options_error(o), "danag.alpha"));
    assert_int_equal(glance_options_set(o, NULL, "1"), GLANCE_EOPTION);
    /* A value accepted after a refusal clears the message. */
    assert_int_equal(glance_options_set(o, "gce.alpha", "3"), GLANCE_OK);
    assert_string_equal(glance_options_error(o), "");
    glance_options_free(o);
}

/* '-' and '_' are the same in a key, to set and to read. */
static void dashes_and_underscores(void **state)
{
    glance_options *o = glance_options_new();
    assert_non_null(o);
    OPTS_TEXT(o, "max_depth", "512");
    assert_int_equal(glance_options_set(o, "max-depth", "100"), GLANCE_OK);
    OPTS_TEXT(o, "max_depth", "100");
    OPTS_TEXT(o, "max-depth", "100");
    assert_int_equal(glance_options_set(o, "nodechar.min-punct", "5"), GLANCE_OK);
    OPTS_TEXT(o, "nodechar.min_punct", "5");
    OPTS_REFUSED(o, "max-depth", "0", "max_depth");
    OPTS_TEXT(o, "max_depth", "100");
    glance_options_free(o);
}

/* An option's alias (an older flag's name) sets the same option. */
static void alias_sets_the_option(void **state)
{
    glance_options *o = glance_options_new();
    assert_non_null(o);
    OPTS_NUMBER(o, "gce.alpha", 2);
    assert_int_equal(glance_options_set(o, "alpha", "3.5"), GLANCE_OK);
    OPTS_NUMBER(o, "gce.alpha", 3.5);
    OPTS_NUMBER(o, "alpha", 3.5);
    /* Refused under its alias: the message names the option. */
    OPTS_REFUSED(o, "alpha", "-1", "alpha");
    OPTS_NUMBER(o, "gce.alpha", 3.5);
    glance_options_free(o);
}

/* Values in the forms the header promises: sizes with k, M, G; durations in
 * seconds or with a unit; switches in any of their spellings. */
static void value_forms(void **state)
{
    glance_options *o = glance_options_new();
    assert_non_null(o);
    OPTS_TEXT(o, "max_input_bytes", "67108864");
    OPTS_SET(o, "max_input_bytes=2k");
    OPTS_TEXT(o, "max_input_bytes", "2048");
    OPTS_TEXT(o, "time_budget", "20");
    OPTS_SET(o, "time_budget=250ms");
    OPTS_TEXT(o, "time_budget", "250ms");
    OPTS_SET(o, "time_budget=1.5");
    OPTS_TEXT(o, "time_budget", "1500ms");
    OPTS_SET(o, "time_budget=0");
    OPTS_TEXT(o, "time_budget", "0");
    OPTS_SET(o, "connect_timeout=500ms", "timeout=1min");
    OPTS_TEXT(o, "connect_timeout", "500ms");
    OPTS_TEXT(o, "timeout", "60");
    OPTS_TEXT(o, "offline", "off");
    OPTS_SET(o, "offline=yes");
    OPTS_TEXT(o, "offline", "on");
    OPTS_SET(o, "offline=0");
    OPTS_TEXT(o, "offline", "off");
    OPTS_SET(o, "window=800x600", "gce.diff=parent");
    OPTS_TEXT(o, "window", "800x600");
    OPTS_TEXT(o, "gce.diff", "parent");
    OPTS_REFUSED(o, "gce.diff", "sibling", "gce.diff");
    OPTS_REFUSED(o, "time_budget", "-1", "time_budget");
    OPTS_REFUSED(o, "max_input_bytes", "1.5", "max_input_bytes");
    glance_options_free(o);
}

/* A copy is independent of its original, strings included. */
static void copy_is_independent(void **state)
{
    glance_options *a = OPTS("window=800x600", "xpath.footer_phrases=all rights reserved");
    glance_options *b = glance_options_copy(a);
    assert_non_null(b);
    OPTS_TEXT(b, "window", "800x600");
    OPTS_TEXT(b, "xpath.footer_phrases", "all rights reserved");
    OPTS_TEXT(b, "method", "auto");

    OPTS_SET(b, "window=1024x768", "gce.alpha=4", "method=danag",
             "xpath.footer_phrases=powered by");
    OPTS_TEXT(a, "window", "800x600");
    OPTS_NUMBER(a, "gce.alpha", 2);
    OPTS_TEXT(a, "method", "auto");
    OPTS_TEXT(a, "xpath.footer_phrases", "all rights reserved");

    OPTS_SET(a, "xpath.footer_phrases=", "base_dir=/tmp");
    OPTS_TEXT(b, "xpath.footer_phrases", "powered by");
    OPTS_TEXT(b, "base_dir", "");
    OPTS_TEXT(a, "base_dir", "/tmp");

    /* Each lives on without the other. */
    glance_options *c = glance_options_copy(a);
    assert_non_null(c);
    glance_options_free(a);
    OPTS_TEXT(c, "base_dir", "/tmp");
    OPTS_TEXT(b, "xpath.footer_phrases", "powered by");
    glance_options_free(b);
    OPTS_TEXT(c, "window", "800x600");
    glance_options_free(c);
    assert_null(glance_options_copy(NULL));
}

/* Every option is listed once, with a key, a group, a type and a line of
 * documentation, and reads back with glance_options_get. */
static void options_described(void **state)
{
    int n = glance_option_count();
    assert_true(n > 40);
    glance_options *o = glance_options_new();
    assert_non_null(o);
    const char **keys = calloc((size_t)n, sizeof *keys);
    assert_non_null(keys);
    int seen_method = 0, seen_alpha = 0;
    for (int i = 0; i < n; i++) {
        glance_option_info info;
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        assert_int_equal(glance_option_describe(i, &info), GLANCE_OK);
        assert_non_null(info.key);
        assert_true(info.key[0] != '\0');
        assert_non_null(info.doc);
        if (info.doc[0] == '\0')
            fail_msg("option %s has no documentation", info.key);
        assert_non_null(info.group);
        assert_non_null(info.type);
        for (int k = 0; k < i; k++)
            if (strcmp(keys[k], info.key) == 0)
                fail_msg("option %s listed twice (%d and %d)", info.key, k, i);
        keys[i] = info.key;
        char *v = glance_options_get(o, info.key);
        if (!v)
            fail_msg("option %s is listed but glance_options_get knows it not", info.key);
        /* Its default, as text, is what new options hold. */
        if (info.def) {
            if (glance_options_set(o, info.key, info.def) != GLANCE_OK)
                fail_msg("option %s: its default '%s' is refused: %s", info.key, info.def,
                         glance_options_error(o));
            char *again = glance_options_get(o, info.key);
            assert_non_null(again);
            if (strcmp(v, again) != 0)
                fail_msg("option %s: new options hold '%s', its default '%s' reads '%s'",
                         info.key, v, info.def, again);
            free(again);
        }
        free(v);
        if (info.alias) {
            char *a = glance_options_get(o, info.alias);
            if (!a)
                fail_msg("option %s: its alias %s is unknown", info.key, info.alias);
            free(a);
        }
        char range[128];
        assert_true(glance_option_range(i, range, sizeof range) > 0);
        seen_method += strcmp(info.key, "method") == 0;
        if (strcmp(info.key, "gce.alpha") == 0) {
            seen_alpha = 1;
            assert_non_null(info.alias);
            assert_string_equal(info.alias, "alpha");
            assert_string_equal(info.group, "gce");
            assert_string_equal(info.def, "2");
        }
        if (strcmp(info.key, "public_only") == 0)
            assert_true(info.flags & GLANCE_OPTION_LOCAL);
        if (strcmp(info.key, "max_depth") == 0)
            assert_true(info.flags & GLANCE_OPTION_LIMIT);
    }
    assert_int_equal(seen_method, 1);
    assert_true(seen_alpha);
    free(keys);
    glance_options_free(o);

    glance_option_info info;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    assert_int_equal(glance_option_describe(n, &info), GLANCE_EOPTION);
    assert_int_equal(glance_option_describe(-1, &info), GLANCE_EOPTION);
    assert_int_equal(glance_option_describe(0, NULL), GLANCE_EOPTION);
    info.size = 0;
    assert_int_equal(glance_option_describe(0, &info), GLANCE_EOPTION);
    /* A caller built against a smaller struct gets no more than its size. */
    unsigned char small[sizeof(glance_option_info)];
    memset(small, 0xAB, sizeof small);
    size_t head = offsetof(glance_option_info, alias);
    ((glance_option_info *)(void *)small)->size = head;
    assert_int_equal(glance_option_describe(0, (glance_option_info *)(void *)small), GLANCE_OK);
    for (size_t k = head; k < sizeof small; k++)
        assert_int_equal(small[k], 0xAB);
    assert_int_equal(glance_option_range(n, NULL, 0), -1);
}

/* What a server's client may set: no operator's option, and a limit only
 * lower. */
static void restrict_options(void **state)
{
    glance_options *o = glance_options_new();
    assert_non_null(o);
    assert_int_equal(glance_options_restrict(o, "max_depth", "1000"), GLANCE_EOPTION);
    assert_non_null(strstr(glance_options_error(o), "max_depth"));
    OPTS_TEXT(o, "max_depth", "512");
    assert_int_equal(glance_options_restrict(o, "max-depth", "100"), GLANCE_OK);
    OPTS_TEXT(o, "max_depth", "100");
    assert_int_equal(glance_options_restrict(o, "max_depth", "200"), GLANCE_EOPTION);
    OPTS_TEXT(o, "max_depth", "100");
    assert_int_equal(glance_options_restrict(o, "max_depth", "100"), GLANCE_OK);

    assert_int_equal(glance_options_restrict(o, "public_only", "on"), GLANCE_EOPTION);
    assert_non_null(strstr(glance_options_error(o), "public_only"));
    OPTS_TEXT(o, "public_only", "off");
    assert_int_equal(glance_options_restrict(o, "base_dir", "/etc"), GLANCE_EOPTION);
    assert_non_null(strstr(glance_options_error(o), "base_dir"));
    OPTS_TEXT(o, "base_dir", "");
    assert_int_equal(glance_options_restrict(o, "user_agent", "x"), GLANCE_EOPTION);

    /* time_budget: 0 is none, so no lowering. */
    assert_int_equal(glance_options_restrict(o, "time_budget", "0"), GLANCE_EOPTION);
    OPTS_TEXT(o, "time_budget", "20");
    assert_int_equal(glance_options_restrict(o, "time_budget", "5"), GLANCE_OK);
    OPTS_TEXT(o, "time_budget", "5");

    /* Neither local nor a limit: as glance_options_set. */
    assert_int_equal(glance_options_restrict(o, "gce.alpha", "3"), GLANCE_OK);
    OPTS_NUMBER(o, "gce.alpha", 3);
    assert_int_equal(glance_options_restrict(o, "method", "bte"), GLANCE_OK);
    OPTS_TEXT(o, "method", "bte");
    assert_int_equal(glance_options_restrict(o, "gce.alpha", "-3"), GLANCE_EOPTION);
    assert_non_null(strstr(glance_options_error(o), "gce.alpha"));
    assert_int_equal(glance_options_restrict(o, "no_such_option", "1"), GLANCE_EOPTION);
    assert_non_null(strstr(glance_options_error(o), "no_such_option"));
    glance_options_free(o);
}

/* One word per status, none shared. */
static void status_names(void **state)
{
    static const char *const words[] = {
        "ok",    "nocontent", "badinput", "toobig",         "badoption", "io",
        "nomem", "layout",    "fonts",    "badurl",         "fetch",     "timeout",
        "addressrefused", "redirects", "offline", "costly"};
    assert_int_equal(sizeof words / sizeof words[0], GLANCE_ECOSTLY + 1);
    for (int s = GLANCE_OK; s <= GLANCE_ECOSTLY; s++) {
        const char *w = glance_status_name((glance_status)s);
        assert_non_null(w);
        assert_true(w[0] != '\0');
        assert_null(strchr(w, '_'));
        assert_null(strchr(w, ' '));
        for (int t = GLANCE_OK; t < s; t++)
            assert_string_not_equal(w, glance_status_name((glance_status)t));
        assert_string_equal(w, words[s]);
    }
}

/* The HTML of an answer that is a span of text (every method but GCE, and
 * what the reader page embeds) is that text escaped: markup written as
 * text on the page stays text, never becomes markup. */
static void span_answers_are_escaped(void **state)
{
    static const char page[] =
        "<html><head><title>t</title></head><body>"
        "<p>Write &lt;script&gt;alert(1)&lt;/script&gt; and &lt;b&gt;bold&lt;/b&gt; in a comment "
        "box, and the forum shows it as text: Tom &amp; Jerry say \"quotes\" stay too, they said "
        "in a long paragraph that carries enough words for every method to take it as the text.</p>"
        "<p>A second paragraph of plain words keeps the text long enough to be the main content "
        "of this small page, with nothing else on it but a line.</p></body></html>";
    const char *methods[] = {"bte", "nodechar", "xpath", "danag"};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        char m[32];
        snprintf(m, sizeof m, "method=%s", methods[i]);
        glance_options *o = OPTS(m);
        glance_result *res;
        assert_int_equal(run(page, strlen(page), o, &res), GLANCE_OK);
        assert_string_equal(glance_result_method(res), methods[i]);
        assert_non_null(strstr(glance_result_text(res), "<script>alert(1)</script>"));
        const char *html = glance_result_html(res);
        if (strstr(html, "<script") || strstr(html, "<b>") || strstr(html, "</b>"))
            fail_msg("%s: markup from the text in the HTML: %s", methods[i], html);
        assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert_non_null(strstr(html, "Tom &amp; Jerry"));
        assert_non_null(strstr(html, "<p>"));
        glance_result_free(res);
        glance_options_free(o);
    }
}

/* A story carried twice, in the document and in a <noscript>, is laid out
 * once: the page is as tall as without the <noscript>. */
static void noscript_copy_counted_once(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/noscript-copy.html", FIXTURES_DIR);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char page[16384];
    size_t n = fread(page, 1, sizeof page - 1, f);
    fclose(f);
    page[n] = '\0';
    glance_result *res;
    assert_int_equal(run(page, n, NULL, &res), GLANCE_OK);
    json_object *o = json_tokener_parse(glance_result_json(res)), *doc, *h;
    assert_true(json_object_object_get_ex(o, "document", &doc));
    assert_true(json_object_object_get_ex(doc, "h", &h));
    double with_copy = json_object_get_double(h);
    json_object_put(o);
    glance_result_free(res);
    /* The same page without its <noscript>. */
    char *a = strstr(page, "<noscript>"), *b = strstr(page, "</noscript>");
    assert_non_null(a);
    assert_non_null(b);
    memmove(a, b + strlen("</noscript>"), strlen(b + strlen("</noscript>")) + 1);
    assert_int_equal(run(page, strlen(page), NULL, &res), GLANCE_OK);
    o = json_tokener_parse(glance_result_json(res));
    assert_true(json_object_object_get_ex(o, "document", &doc));
    assert_true(json_object_object_get_ex(doc, "h", &h));
    double without = json_object_get_double(h);
    json_object_put(o);
    glance_result_free(res);
    if (with_copy > without + 1)
        fail_msg("the copy in <noscript> was laid out: %.0f px tall, %.0f without it", with_copy,
                 without);
}

/* A story with a listing that keeps its lines by a class, `.code` (a
 * <div>, not a <pre>): `head` says where the class's white-space comes
 * from. */
static char *code_page(const char *head)
{
    static const char para[] =
        "<p>The mill stood by the river for two hundred years, grinding the grain of the "
        "valley and the hills around it, until the flood of the wet spring took its wheel "
        "downstream and the miller's sons built it again, higher up the bank.</p>\n";
    char *page = malloc(8192);
    assert_non_null(page);
    snprintf(page, 8192,
             "<!DOCTYPE html><html><head><title>The mill</title>%s</head><body><article>\n"
             "  <h1>The mill</h1>\n  %s%s%s<div class=\"code\">int main(void)\n{\n    "
             "return 0;\n}\n</div>\n  %s%s</article></body></html>",
             head, para, para, para, para, para);
    return page;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

/* What the JSON's `document` says of a page whose runs of white space,
 * written as one space, were read again as they were (render/spaces.h). */
#define READ_AGAIN "\"spaces_read_again\":true"

/* glance writes the runs of white space of a page's text as one space
 * before litehtml reads them, unless a style may keep them: the listing
 * keeps its lines and indentation when its class says pre, from the page's
 * <style>, a local stylesheet or one the <style> imports (the <style>'s
 * text set aside before the parse, render/cssfilter.h, is read for them);
 * without, it reads as one line, as a browser shows it. */
static void white_space_kept_where_styles_say(void **state)
{
    (void)state;
    static const char kept[] = "int main(void)\n{\n    return 0;\n}";
    static const char joined[] = "int main(void) { return 0; }";
    char dir[] = "/tmp/glance-spaces-XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_file(dir, "code.css", ".code { white-space: pre; font-family: monospace }\n");
    struct {
        const char *head;
        const char *want;
    } cases[] = {
        {"<link rel=\"stylesheet\" href=\"code.css\">", kept},
        {"<style>.code { white-space: pre-wrap }</style>", kept},
        {"<style>@import \"code.css\"; p { margin: 0 }</style>", kept},
        {"<link rel=\"stylesheet\" href=\"missing.css\">", joined},
        {"<style>.code { white-space: nowrap }</style>", joined},
    };
    glance_options *opt = OPTS("method=auto");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *page = code_page(cases[i].head);
        write_file(dir, "page.html", page);
        free(page);
        char path[1024];
        snprintf(path, sizeof path, "%s/page.html", dir);
        glance_result *res;
        assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
        const char *text = glance_result_text(res);
        if (!strstr(text, cases[i].want))
            fail_msg("%s: no \"%s\" in:\n%s", cases[i].head, cases[i].want, text);
        assert_non_null(strstr(text, "higher up the bank."));
        /* Known before the parse: read once. */
        assert_null(strstr(glance_result_json(res), READ_AGAIN));
        glance_result_free(res);
    }
    glance_options_free(opt);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* glance leaves the attributes nothing reads out of the page before the
 * parse (render/cssfilter.h), but those a stylesheet names: the paragraph
 * a sheet hides by its data-* attribute stays hidden, whether the sheet is
 * the page's, linked, or imported by a linked one (known only during the
 * parse: the page is read again with its attributes). */
static void attributes_a_stylesheet_names_kept(void **state)
{
    (void)state;
    static const char hidden[] = "Sign up for our newsletter";
    char dir[] = "/tmp/glance-attrs-XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_file(dir, "hide.css", "[data-promo] { display: none }\n");
    write_file(dir, "all.css", "@import \"hide.css\";\n.code { font-family: monospace }\n");
    struct {
        const char *head;
        int shown, again;
    } cases[] = {
        {"<style>[data-promo] { display: none }</style>", 0, 0},
        {"<link rel=\"stylesheet\" href=\"hide.css\">", 0, 0},
        {"<link rel=\"stylesheet\" href=\"all.css\">", 0, 1},
        {"<link rel=\"stylesheet\" href=\"missing.css\">", 1, 0},
    };
    static const char para[] =
        "<p>The mill stood by the river for two hundred years, grinding the grain of the "
        "valley and the hills around it, until the flood of the wet spring took its wheel "
        "downstream and the miller's sons built it again, higher up the bank.</p>\n";
    glance_options *opt = OPTS("method=auto");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char page[8192];
        snprintf(page, sizeof page,
                 "<!DOCTYPE html><html><head><title>The mill</title>%s</head><body><article>"
                 "<h1>The mill</h1>%s%s<p data-promo=\"1\">%s</p>%s%s</article></body></html>",
                 cases[i].head, para, para, hidden, para, para);
        write_file(dir, "page.html", page);
        char path[1024];
        snprintf(path, sizeof path, "%s/page.html", dir);
        glance_result *res;
        assert_int_equal(glance_extract_file(ctx, path, opt, &res), GLANCE_OK);
        const char *text = glance_result_text(res);
        assert_non_null(strstr(text, "higher up the bank."));
        if ((strstr(text, hidden) != NULL) != cases[i].shown)
            fail_msg("%s: the promotion %s in:\n%s", cases[i].head,
                     cases[i].shown ? "missing" : "shown", text);
        if ((strstr(glance_result_json(res), "\"attrs_read_again\":true") != NULL) !=
            cases[i].again)
            fail_msg("%s: read again %s", cases[i].head, cases[i].again ? "expected" : "not expected");
        glance_result_free(res);
    }
    glance_options_free(opt);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* meta_scripts_scan reads the page's tags only up to its last script that
 * may be JSON-LD ("ld+json" in any case) and that script's text: every
 * such script is found, the first, one in the body, one typed in capitals;
 * the bytes in a comment or another script's text are no script; a page
 * without them has none. */
static void jsonld_scripts_found_to_the_last(void **state)
{
    (void)state;
    static const char page[] =
        "<html><head><script type='application/ld+json'>{\"a\":1}</script>"
        "<script>var t = 'application/ld+json';</script></head><body><p>x</p>"
        "<!-- <script type='application/ld+json'>{\"no\":1}</script> -->"
        "<script type=\"APPLICATION/LD+JSON\">{\"b\":2}</script><p>y</p>"
        "<script type='application/ld+json; charset=utf-8'>{\"c\":3}</script>"
        "<p>ld+json</p></body></html>";
    meta_scripts m;
    assert_int_equal(meta_scripts_scan(page, strlen(page), &m), 0);
    assert_int_equal(m.n, 3);
    assert_string_equal(m.texts[0], "{\"a\":1}");
    assert_string_equal(m.texts[1], "{\"b\":2}");
    assert_string_equal(m.texts[2], "{\"c\":3}");
    meta_scripts_free(&m);
    static const char none[] = "<html><head><script>var x = 1 + 2;</script></head>"
                               "<body><p>a+b</p></body></html>";
    assert_int_equal(meta_scripts_scan(none, strlen(none), &m), 0);
    assert_int_equal(m.n, 0);
    meta_scripts_free(&m);
}

int main(void)
{
    ctx = glance_context_new();
    if (!ctx)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(jsonld_scripts_found_to_the_last),
        cmocka_unit_test(finds_article),
        cmocka_unit_test(classic_finds_article),
        cmocka_unit_test(finds_listing_of_links),
        cmocka_unit_test(listing_outweighs_a_short_article),
        cmocka_unit_test(bare_links_are_no_content),
        cmocka_unit_test(words_apart_between_elements),
        cmocka_unit_test(json_carries_reasoning),
        cmocka_unit_test(empty_input),
        cmocka_unit_test(binary_input),
        cmocka_unit_test(over_the_size_limit),
        cmocka_unit_test(too_deep),
        cmocka_unit_test(invalid_utf8_and_nul),
        cmocka_unit_test(utf16_with_bom),
        cmocka_unit_test(declared_legacy_charsets),
        cmocka_unit_test(classic_falls_back_to_bte),
        cmocka_unit_test(pinned_boxes_wait),
        cmocka_unit_test(pinned_boxes_placed_against_the_window),
        cmocka_unit_test(nothing_before_the_headline),
        cmocka_unit_test(streamed_parts_counted),
        cmocka_unit_test(classic_weighs_gce_against_bte),
        cmocka_unit_test(classic_trims_gce),
        cmocka_unit_test(method_names),
        cmocka_unit_test(bad_options),
        cmocka_unit_test(other_methods),
        cmocka_unit_test(no_text_at_all),
        cmocka_unit_test(missing_file),
        cmocka_unit_test(strerror_covers_every_status),
        cmocka_unit_test(version_of_the_library),
        cmocka_unit_test(extract_page_charset_and_base),
        cmocka_unit_test(unknown_option),
        cmocka_unit_test(dashes_and_underscores),
        cmocka_unit_test(alias_sets_the_option),
        cmocka_unit_test(value_forms),
        cmocka_unit_test(copy_is_independent),
        cmocka_unit_test(options_described),
        cmocka_unit_test(restrict_options),
        cmocka_unit_test(status_names),
        cmocka_unit_test(span_answers_are_escaped),
        cmocka_unit_test(noscript_copy_counted_once),
        cmocka_unit_test(white_space_kept_where_styles_say),
        cmocka_unit_test(attributes_a_stylesheet_names_kept),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    glance_context_free(ctx);
    return failed;
}
