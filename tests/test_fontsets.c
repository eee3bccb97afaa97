/* The chosen block must not depend on the fonts installed: the pages in
 * Chinese, Arabic, Thai and Devanagari under fixtures/ (fonts-*.html) are
 * extracted by a context that sees DejaVu alone (FONTCONFIG_FILE pointing at a
 * configuration this test writes to a temporary folder) and by one that sees
 * every installed font, and must give the same node with nearly the same
 * boxes. DejaVu has no Han, Thai or Devanagari: there fonts/' metric fallback
 * measures them, and the layout must still be the one the real faces give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "glance.h"

#define DEJAVU_DIR "/usr/share/fonts/truetype/dejavu"

static glance_context *dejavu, *full;
static char tmpdir[] = "/tmp/glance-fontsets-XXXXXX";

/* A fontconfig configuration that offers DejaVu alone, with its cache in
 * our temporary folder; the system's rules (aliases) still apply. */
static int write_conf(char *path, size_t cap)
{
    if (!mkdtemp(tmpdir))
        return -1;
    snprintf(path, cap, "%s/fonts.conf", tmpdir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "<?xml version=\"1.0\"?>\n"
            "<!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\">\n"
            "<fontconfig>\n"
            "  <dir>" DEJAVU_DIR "</dir>\n"
            "  <cachedir>%s/cache</cachedir>\n"
            "  <include ignore_missing=\"yes\">/etc/fonts/conf.d</include>\n"
            "</fontconfig>\n",
            tmpdir);
    return fclose(f);
}

static int setup(void **state)
{
    (void)state;
    if (access(DEJAVU_DIR "/DejaVuSans.ttf", R_OK) != 0)
        return 0; /* each test skips */
    char conf[256];
    if (write_conf(conf, sizeof conf) != 0)
        return -1;
    /* fontconfig reads FONTCONFIG_FILE when a context loads its
     * configuration, and only then. */
    const char *old = getenv("FONTCONFIG_FILE");
    char *saved = old ? strdup(old) : NULL;
    setenv("FONTCONFIG_FILE", conf, 1);
    dejavu = glance_context_new();
    if (saved) {
        setenv("FONTCONFIG_FILE", saved, 1);
        free(saved);
    } else {
        unsetenv("FONTCONFIG_FILE");
    }
    full = glance_context_new();
    return dejavu && full ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    glance_context_free(dejavu);
    glance_context_free(full);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (strcmp(tmpdir + strlen(tmpdir) - 6, "XXXXXX") != 0 && system(cmd) != 0)
        return -1;
    return 0;
}

/* The report says the DejaVu context really sees DejaVu alone: otherwise
 * the comparisons below would compare a configuration with itself. */
static void test_the_dejavu_context_sees_dejavu_alone(void **state)
{
    (void)state;
    if (!dejavu)
        skip();
    char *r = glance_fonts_report(dejavu);
    assert_non_null(r);
    assert_non_null(strstr(r, "Latin: DejaVu Sans\n"));
    assert_non_null(strstr(r, "Han: none (metric fallback)\n"));
    assert_non_null(strstr(r, "Thai: none (metric fallback)\n"));
    assert_non_null(strstr(r, "Devanagari: none (metric fallback)\n"));
    free(r);
    r = glance_fonts_report(full);
    assert_non_null(r);
    assert_null(strstr(r, "Latin: DejaVu Sans\n")); /* Arial is Liberation Sans */
    free(r);
}

typedef struct page {
    const char *name;
    const char *missing; /* a script DejaVu lacks that the page is written in */
    int min_height;      /* the story's height at least, px (see below) */
} page;

/* The story's box as glance lays it out, with the fallback; at least this
 * high. Measured each text at nothing wide, as a missing glyph did, a
 * paragraph of 700px collapses to a line or two and the story to a third of
 * its height: so the story's height says the fallback measured the text. */
static const page pages[] = {
    {"fonts-zh", "Han", 600},
    {"fonts-ar", NULL, 850},
    {"fonts-th", "Thai", 700},
    {"fonts-hi", "Devanagari", 850},
};

typedef struct laid {
    char xpath[256];
    double x, y, w, h;  /* the chosen node's box */
    double doc_h;       /* the document's height */
    int missing;        /* the page's script was listed as missing */
} laid;

static double num(json_object *o, const char *key)
{
    json_object *v;
    assert_true(json_object_object_get_ex(o, key, &v));
    return json_object_get_double(v);
}

static void extract(glance_context *ctx, const page *p, laid *out)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.html", FIXTURES_DIR, p->name);
    /* The story is the node GCE chooses, under the classic policy (the
     * default, the scorer, may answer with blocks held by <body>). */
    glance_options *opt = glance_options_new();
    assert_non_null(opt);
    assert_int_equal(glance_options_set(opt, "method", "classic"), GLANCE_OK);
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, path, opt, &res);
    glance_options_free(opt);
    assert_non_null(res);
    if (st != GLANCE_OK)
        fail_msg("%s: status %d: %s", p->name, st, glance_result_message(res, st));
    memset(out, 0, sizeof *out);
    snprintf(out->xpath, sizeof out->xpath, "%s", glance_result_xpath(res));
    json_object *o = json_tokener_parse(glance_result_json(res)), *chosen, *box, *doc;
    assert_non_null(o);
    assert_true(json_object_object_get_ex(o, "chosen", &chosen));
    assert_true(json_object_object_get_ex(chosen, "box", &box));
    out->x = num(box, "x");
    out->y = num(box, "y");
    out->w = num(box, "w");
    out->h = num(box, "h");
    assert_true(json_object_object_get_ex(o, "document", &doc));
    out->doc_h = num(doc, "h");
    json_object_put(o);
    for (int i = 0; p->missing && glance_result_missing_script(res, i); i++)
        if (strcmp(glance_result_missing_script(res, i), p->missing) == 0)
            out->missing = 1;
    glance_result_free(res);
}

static void near(const char *page, const char *what, double a, double b, double tol)
{
    if (a - b > tol || b - a > tol)
        fail_msg("%s: %s %.1f with DejaVu alone, %.1f with every font", page, what, a, b);
}

static void check_page(void **state)
{
    const page *p = *state;
    if (!dejavu)
        skip();
    laid d, f;
    extract(dejavu, p, &d);
    extract(full, p, &f);
    if (strcmp(d.xpath, f.xpath) != 0)
        fail_msg("%s: chose %s with DejaVu alone, %s with every font", p->name, d.xpath, f.xpath);
    /* Nearly the same boxes: Latin digits and spaces come from DejaVu in
     * one and Liberation in the other, so a line may break a word sooner. */
    near(p->name, "the story's x", d.x, f.x, 2);
    near(p->name, "the story's width", d.w, f.w, 2);
    near(p->name, "the story's y", d.y, f.y, 8);
    near(p->name, "the story's height", d.h, f.h, 0.05 * f.h);
    near(p->name, "the page's height", d.doc_h, f.doc_h, 0.05 * f.doc_h);
    if (d.h < p->min_height)
        fail_msg("%s: the story is %.0fpx high with DejaVu alone, less than %dpx: its text was "
                 "measured narrower than any face draws it",
                 p->name, d.h, p->min_height);
    if (p->missing && !d.missing)
        fail_msg("%s: with DejaVu alone, %s is not listed as a missing script", p->name,
                 p->missing);
}

int main(void)
{
    struct CMUnitTest tests[1 + sizeof pages / sizeof pages[0]];
    tests[0] = (struct CMUnitTest)cmocka_unit_test(test_the_dejavu_context_sees_dejavu_alone);
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
        tests[i + 1] = (struct CMUnitTest){pages[i].name, check_page, NULL, NULL,
                                           (void *)&pages[i]};
    return cmocka_run_group_tests(tests, setup, teardown);
}
