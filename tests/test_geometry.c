/* Another engine's boxes on glance's tree (glance_options_set_geometry), and
 * the fidelity measure that compares them with litehtml's: boxes land on
 * the node their XPath names, what the browser hides is hidden and what it
 * shows is shown, nodes without a box are counted, bad files are refused
 * with a message, and the measure counts what it says it counts, to the
 * tolerance's edge. */
#define _GNU_SOURCE
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
#include "lib/result.h"
#include "opts.h"
#include "run.h"

static glance_context *ctx;

/* No white space between tags: the tree is exactly the tags. */
static const char PAGE[] =
    "<!DOCTYPE html><html><head><title>t</title></head><body>"
    "<div><p>The first paragraph, long enough to be held to the fidelity test.</p></div>"
    "<div style='display:none'>Hidden by litehtml, shown by the browser here.</div>"
    "<p>Shown by litehtml, hidden by the browser.</p>"
    "</body></html>";

static const char PAGE_BOXES[] =
    "{\"window\": {\"w\": 1000, \"h\": 800}, \"document\": {\"w\": 1000, \"h\": 2000},\n"
    "\"nodes\": {\n"
    "\"/html[1]\": [0, 0, 1000, 2000],\n"
    "\"/html[1]/head[1]\": null,\n"
    "\"/html[1]/head[1]/title[1]\": null,\n"
    "\"/html[1]/head[1]/title[1]/text()[1]\": [],\n"
    "\"/html[1]/body[1]\": [10, 10, 980, 1980],\n"
    "\"/html[1]/body[1]/div[1]\": [100, 200, 500, 300],\n"
    "\"/html[1]/body[1]/div[1]/p[1]\": [110, 210, 480, 40],\n"
    "\"/html[1]/body[1]/div[1]/p[1]/text()[1]\": [[110, 210, 300, 20], [110, 230, 200, 20]],\n"
    "\"/html[1]/body[1]/div[2]\": [600, 200, 300, 50],\n"
    "\"/html[1]/body[1]/div[2]/text()[1]\": [[600, 200, 280, 20]],\n"
    "\"/html[1]/body[1]/p[1]\": null,\n"
    "\"/html[1]/body[1]/section[1]\": [0, 0, 1, 1]\n"
    "}}\n";

static glance_geometry *read_geo(const char *json)
{
    char why[256];
    glance_geometry *geo = NULL;
    glance_status st = glance_geometry_read(json, strlen(json), &geo, why, sizeof why);
    if (st != GLANCE_OK)
        fail_msg("geometry refused: %s", why);
    return geo;
}

static void assert_box(dom_box b, double x, double y, double w, double h)
{
    if (b.x != x || b.y != y || b.w != w || b.h != h)
        fail_msg("box %g,%g %gx%g, expected %g,%g %gx%g", b.x, b.y, b.w, b.h, x, y, w, h);
}

static void st_ok_or_nocontent(glance_status st)
{
    if (st != GLANCE_OK && st != GLANCE_ENOCONTENT)
        fail_msg("status %s", glance_status_name(st));
}

static void boxes_land_by_xpath(void **state)
{
    (void)state;
    glance_geometry *geo = read_geo(PAGE_BOXES);
    int w, h;
    glance_geometry_window(geo, &w, &h);
    assert_int_equal(w, 1000);
    assert_int_equal(h, 800);
    glance_options *opt = OPTS("window=1000x800");
    glance_options_set_geometry(opt, geo);
    glance_result *res = NULL;
    glance_status st = glance_extract(ctx, PAGE, strlen(PAGE), opt, &res);
    glance_options_free(opt);
    assert_true(st == GLANCE_OK || st == GLANCE_ENOCONTENT);

    /* 12 nodes; the browser's boxes name 11 of them, and one node (a
     * section) glance's tree lacks. */
    glance_geometry_stats gs = glance_result_geometry(res);
    assert_int_equal(gs.applied, 1);
    assert_int_equal(gs.matched, 11);
    assert_int_equal(gs.unmatched, 1);
    assert_int_equal(gs.unused, 1);

    dom_doc *doc = res->dom;
    assert_true(dom_doc_width(doc) == 1000 && dom_doc_height(doc) == 2000);
    assert_box(dom_find_xpath(doc, "/html[1]/body[1]/div[1]")->box, 100, 200, 500, 300);
    dom_node *t = dom_find_xpath(doc, "/html[1]/body[1]/div[1]/p[1]/text()[1]");
    assert_int_equal(t->n_lines, 2);
    assert_box(t->lines[1], 110, 230, 200, 20);
    assert_box(t->box, 110, 210, 300, 40);
    assert_true(dom_node_visible(t));

    /* What the browser shows is shown, though litehtml hid it ... */
    dom_node *shown = dom_find_xpath(doc, "/html[1]/body[1]/div[2]/text()[1]");
    assert_true(dom_node_visible(shown));
    assert_box(dom_find_xpath(doc, "/html[1]/body[1]/div[2]")->box, 600, 200, 300, 50);
    /* ... and what it hides is hidden, its text too (which had no box). */
    dom_node *p = dom_find_xpath(doc, "/html[1]/body[1]/p[1]");
    assert_true(p->hidden & DOM_HIDDEN_DISPLAY_NONE);
    assert_false(dom_node_visible(p->first_child));
    char *text = dom_to_text(dom_doc_body(doc), NULL);
    assert_non_null(strstr(text, "shown by the browser here"));
    assert_null(strstr(text, "hidden by the browser"));
    free(text);

    /* The result says where its boxes came from. */
    const char *json = glance_result_json(res);
    assert_non_null(strstr(json, "\"geometry\""));
    assert_non_null(strstr(json, "\"unmatched\":1"));

    /* litehtml's boxes of a page laid out on a browser's cannot be compared. */
    glance_fidelity f;
    assert_int_equal(glance_result_fidelity(res, geo, 50, NULL, 0.05, &f), GLANCE_EOPTION);
    glance_result_free(res);
    glance_geometry_free(geo);
}

static void other_window_refused(void **state)
{
    (void)state;
    glance_geometry *geo = read_geo(PAGE_BOXES);
    glance_options *opt = glance_options_new(); /* 1920x1080 */
    assert_non_null(opt);
    OPTS_TEXT(opt, "window", "1920x1080");
    glance_options_set_geometry(opt, geo);
    glance_result *res = NULL;
    assert_int_equal(glance_extract(ctx, PAGE, strlen(PAGE), opt, &res), GLANCE_EOPTION);
    assert_non_null(strstr(glance_result_message(res, GLANCE_EOPTION), "1000x800"));
    glance_result_free(res);
    /* The boxes' window: accepted; no boxes: any window. */
    OPTS_SET(opt, "window=1000x800");
    st_ok_or_nocontent(glance_extract(ctx, PAGE, strlen(PAGE), opt, &res));
    assert_int_equal(glance_result_geometry(res).applied, 1);
    glance_result_free(res);
    OPTS_SET(opt, "window=1920x1080");
    glance_options_set_geometry(opt, NULL);
    st_ok_or_nocontent(glance_extract(ctx, PAGE, strlen(PAGE), opt, &res));
    assert_int_equal(glance_result_geometry(res).applied, 0);
    glance_result_free(res);
    glance_options_free(opt);
    glance_geometry_free(geo);
}

static void bad_boxes_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        "{\"window\": {\"w\": 1000, \"h\": 800}, \"nodes\": {",
        "[1, 2, 3]",
        "{\"window\": {\"w\": 1000, \"h\": 800}}",
        "{\"nodes\": {}}",
        "{\"window\": {\"w\": 0, \"h\": 800}, \"nodes\": {}}",
        "{\"window\": {\"w\": 1000.5, \"h\": 800}, \"nodes\": {}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char why[256] = "";
        glance_geometry *geo = (glance_geometry *)1;
        glance_status st = glance_geometry_read(bad[i], strlen(bad[i]), &geo, why, sizeof why);
        if (st != GLANCE_EINPUT)
            fail_msg("boxes %zu taken (status %d)", i, st);
        assert_null(geo);
        assert_true(why[0] != '\0');
    }
    char why[256];
    glance_geometry *geo;
    assert_int_equal(glance_geometry_read_file("/nonexistent/boxes.json", &geo, why, sizeof why),
                     GLANCE_EIO);
    assert_non_null(strstr(why, "/nonexistent/boxes.json"));
}

/* 60 characters other than white space, in six words. */
#define SIXTY "aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee ffffffffff"

static const char FPAGE[] =
    "<html><head></head><body style='margin:0'>"
    "<div style='margin-left:100px;width:400px'>" SIXTY "</div>"
    "<div data-m style='width:300px'>short</div>"
    "<div>" SIXTY "</div>"
    "<p>" SIXTY "</p>"
    "<section>" SIXTY "</section>"
    "</body></html>";

static void fidelity_counts_to_the_edge(void **state)
{
    (void)state;
    /* The mark, a data-* attribute, is in the tree with keep_attributes
     * alone: without, the fidelity says it cannot count it. */
    glance_options *opt = OPTS("window=1000x800");
    glance_result *res = NULL;
    glance_fidelity f;
    glance_extract(ctx, FPAGE, strlen(FPAGE), opt, &res);
    glance_options_free(opt);
    assert_non_null(res->dom);
    glance_geometry *none = read_geo("{\"window\": {\"w\": 1000, \"h\": 800}, \"nodes\": {}}");
    assert_int_equal(glance_result_fidelity(res, none, 50, "data-m", 0.05, &f), GLANCE_EOPTION);
    assert_int_equal(glance_result_fidelity(res, none, 50, "class", 0.05, &f), GLANCE_OK);
    glance_fidelity_free(&f);
    glance_geometry_free(none);
    glance_result_free(res);
    opt = OPTS("window=1000x800", "keep_attributes=on");
    glance_extract(ctx, FPAGE, strlen(FPAGE), opt, &res);
    glance_options_free(opt);
    assert_non_null(res->dom);
    dom_box d1 = dom_find_xpath(res->dom, "/html[1]/body[1]/div[1]")->box;
    dom_box d2 = dom_find_xpath(res->dom, "/html[1]/body[1]/div[2]")->box;
    dom_box d3 = dom_find_xpath(res->dom, "/html[1]/body[1]/div[3]")->box;
    assert_true(d1.x == 100 && d1.w == 400 && d2.w == 300 && d3.w == 1000);

    /* div[1] off by exactly 5% of the window (agrees), div[3] 51px too
     * narrow (does not), div[2] exact; the browser hides <p>; <section> is
     * not in its boxes. */
    char json[2048];
    snprintf(json, sizeof json,
             "{\"window\": {\"w\": 1000, \"h\": 800}, \"nodes\": {"
             "\"/html[1]/body[1]\": [0, 0, 1000, 100],"
             "\"/html[1]/body[1]/div[1]\": [%g, %g, %g, %g],"
             "\"/html[1]/body[1]/div[2]\": [%g, %g, %g, %g],"
             "\"/html[1]/body[1]/div[3]\": [%g, %g, %g, %g],"
             "\"/html[1]/body[1]/p[1]\": null}}",
             d1.x + 50, d1.y, d1.w, d1.h, d2.x, d2.y, d2.w, d2.h, d3.x, d3.y, d3.w - 51, d3.h);
    glance_geometry *geo = read_geo(json);

    assert_int_equal(glance_result_fidelity(res, geo, 50, "data-m", 0.05, &f), GLANCE_OK);
    assert_int_equal(f.compared, 3);
    assert_int_equal(f.agree, 2);
    assert_int_equal(f.not_shown, 1);
    assert_int_equal(f.unmatched, 1);
    assert_int_equal(f.n_items, 3);
    assert_string_equal(f.items[0].xpath, "/html[1]/body[1]/div[1]");
    assert_int_equal(f.items[0].chars, 60);
    assert_true(f.items[0].agree);
    assert_true(f.items[0].other.x == d1.x + 50 && f.items[0].glance.x == 100);
    assert_string_equal(f.items[1].xpath, "/html[1]/body[1]/div[2]");
    assert_true(f.items[1].agree);
    assert_string_equal(f.items[2].xpath, "/html[1]/body[1]/div[3]");
    assert_false(f.items[2].agree);
    glance_fidelity_free(&f);

    /* Without the mark the short div is not held; a tighter tolerance
     * turns the 5% one down. */
    assert_int_equal(glance_result_fidelity(res, geo, 50, NULL, 0.049, &f), GLANCE_OK);
    assert_int_equal(f.compared, 2);
    assert_int_equal(f.agree, 0);
    glance_fidelity_free(&f);
    glance_geometry_free(geo);

    /* Boxes of another window are another layout. */
    geo = read_geo("{\"window\": {\"w\": 1200, \"h\": 800}, \"nodes\": {}}");
    assert_int_equal(glance_result_fidelity(res, geo, 50, NULL, 0.05, &f), GLANCE_EOPTION);
    glance_geometry_free(geo);
    glance_result_free(res);
}

/* glance extract --geometry: the window is the boxes' unless given. */
static void cli_geometry(void **state)
{
    (void)state;
    char dir[] = "/tmp/glance-geometry-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char page[600], boxes[600], args[2048];
    snprintf(page, sizeof page, "%s/page.html", dir);
    snprintf(boxes, sizeof boxes, "%s/page.json", dir);
    FILE *f = fopen(page, "w");
    fputs(PAGE, f);
    fclose(f);
    f = fopen(boxes, "w");
    fputs(PAGE_BOXES, f);
    fclose(f);

    snprintf(args, sizeof args, "extract --format json --geometry %s %s", boxes, page);
    run_out r = run_in(dir, args);
    if (r.code != 0 && r.code != 1)
        fail_msg("exit %d: %s", r.code, r.err);
    assert_non_null(strstr(r.out, "\"matched\":11"));
    assert_non_null(strstr(r.out, "\"w\":1000"));
    run_free(&r);

    snprintf(args, sizeof args, "extract --window 1920x1080 --geometry %s %s", boxes, page);
    r = run_in(dir, args);
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "1000x800"));
    run_free(&r);

    snprintf(args, sizeof args, "extract --geometry %s/missing.json %s", dir, page);
    r = run_in(dir, args);
    assert_int_equal(r.code, 3);
    assert_non_null(strstr(r.err, "missing.json"));
    run_free(&r);

    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

int main(void)
{
    ctx = glance_context_new();
    if (!ctx)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(boxes_land_by_xpath),
        cmocka_unit_test(other_window_refused),
        cmocka_unit_test(bad_boxes_refused),
        cmocka_unit_test(fidelity_counts_to_the_edge),
        cmocka_unit_test(cli_geometry),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    glance_context_free(ctx);
    return rc;
}
