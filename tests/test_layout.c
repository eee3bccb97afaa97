/* Fidelity of glance's layout to a browser's: every page under
 * fixtures/layout/ is laid out by glance and its boxes are compared with the
 * boxes Chromium gave the same page (NAME.boxes.json beside it, written once
 * by tools/chromium-boxes.mjs and kept as data; Chromium is not needed
 * here). Held to the test: the elements with at least 50 characters of text
 * and the elements the page marks with data-check. Each must have its left
 * edge and its width within 5% of the window width of Chromium's, as
 * `glance bench --fidelity` measures benchmark pages.
 *
 * litehtml 0.6 lays out no flexbox or grid (DESIGN.md, Fidelity); glance's
 * layer (render/compat.cpp) does. The flex- and grid- pages are also laid
 * out without the layer, where they must disagree: a page litehtml alone
 * gets right would not test the layer. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "glance.h"
#include "opts.h"

#define MIN_CHARS 50
#define TOLERANCE 0.05
#define MARK "data-check"

static glance_context *ctx;

/* The flex and grid pages: litehtml 0.6 alone gets them wrong, which
 * keeps the comparison honest (it can fail). */
static int uses_flex_or_grid(const char *page)
{
    return strncmp(page, "flex-", 5) == 0 || strncmp(page, "grid-", 5) == 0;
}

/* Counts the elements of a page that carry the mark (a scan of the source
 * is enough for these hand-written pages). */
static size_t marked_in(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char line[4096];
    size_t n = 0;
    while (fgets(line, sizeof line, f))
        for (const char *p = line; (p = strstr(p, " " MARK)); p += strlen(MARK))
            n++;
    fclose(f);
    return n;
}

static void compare(const char *name, int flex_grid, glance_fidelity *f);

static void check_page(void **state)
{
    const char *name = *state;
    glance_fidelity f;
    compare(name, 1, &f);
    if (f.agree != f.compared) {
        for (size_t i = 0; i < f.n_items; i++) {
            const glance_fidelity_item *it = &f.items[i];
            if (!it->agree)
                printf("%s: %s: glance x %.0f w %.0f, Chromium x %.0f w %.0f\n", name, it->xpath,
                       it->glance.x, it->glance.w, it->other.x, it->other.w);
        }
        fail_msg("%s: %zu of %zu elements off by more than %.0f%% of the window width", name,
                 f.compared - f.agree, f.compared, TOLERANCE * 100);
    }
    glance_fidelity_free(&f);
    if (uses_flex_or_grid(name)) {
        compare(name, 0, &f);
        if (f.agree == f.compared)
            fail_msg("%s: litehtml alone agrees with Chromium too (%zu of %zu elements): the page "
                     "does not test the flex and grid layer",
                     name, f.agree, f.compared);
        printf("%s: without the layer %zu of %zu elements agree\n", name, f.agree, f.compared);
        glance_fidelity_free(&f);
    }
}

/* Lays `name` out (flex_grid: with the layer or not) and compares its boxes
 * with Chromium's. */
static void compare(const char *name, int flex_grid, glance_fidelity *out)
{
    char html[1024], boxes[1024], why[600];
    snprintf(html, sizeof html, "%s/layout/%s.html", FIXTURES_DIR, name);
    snprintf(boxes, sizeof boxes, "%s/layout/%s.boxes.json", FIXTURES_DIR, name);

    glance_geometry *geo = NULL;
    if (glance_geometry_read_file(boxes, &geo, why, sizeof why) != GLANCE_OK)
        fail_msg("%s", why);
    int w, h;
    glance_geometry_window(geo, &w, &h);
    char window[64];
    snprintf(window, sizeof window, "window=%dx%d", w, h);
    /* The mark, a data-* attribute, in the tree (keep_attributes). */
    glance_options *opt =
        OPTS(window, flex_grid ? "flex_grid=on" : "flex_grid=off", "keep_attributes=on");
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, html, opt, &res);
    glance_options_free(opt);
    if (st != GLANCE_OK && st != GLANCE_ENOCONTENT)
        fail_msg("%s: %s", name, glance_result_message(res, st));

    glance_fidelity f;
    assert_int_equal(glance_result_fidelity(res, geo, MIN_CHARS, MARK, TOLERANCE, &f), GLANCE_OK);
    /* The comparison means something only when both trees name the same
     * nodes and Chromium shows what the page marks. */
    if (f.unmatched)
        fail_msg("%s: %zu elements have no box in %s: XPaths differ", name, f.unmatched, boxes);
    size_t marked = marked_in(html);
    if (marked == 0 || f.compared < marked)
        fail_msg("%s: %zu elements compared, %zu marked", name, f.compared, marked);

    *out = f;
    glance_result_free(res);
    glance_geometry_free(geo);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/layout", FIXTURES_DIR);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", dir);
        return 1;
    }
    char *names[256];
    size_t n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) && n < 256) {
        size_t len = strlen(ent->d_name);
        if (len > 5 && strcmp(ent->d_name + len - 5, ".html") == 0)
            names[n++] = strndup(ent->d_name, len - 5);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_str);
    struct CMUnitTest tests[256];
    for (size_t i = 0; i < n; i++)
        tests[i] = (struct CMUnitTest){names[i], check_page, NULL, NULL, names[i]};
    ctx = glance_context_new();
    if (!ctx)
        return 1;
    int rc = _cmocka_run_group_tests("layout", tests, n, NULL, NULL);
    glance_context_free(ctx);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    return rc;
}
