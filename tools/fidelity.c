/* tools/: glance bench on a browser's boxes, and the fidelity of litehtml's
 * layout to them (tools/fidelity.h). */
#define _GNU_SOURCE
#include "tools/fidelity.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *fidelity_boxes_path(const char *dir, const char *id)
{
    char *p;
    return asprintf(&p, "%s/%s.json", dir, id) < 0 ? NULL : p;
}

size_t fidelity_keep_pages(const char *dir, corpus_page *pages, size_t *n)
{
    size_t kept = 0, dropped = 0;
    for (size_t i = 0; i < *n; i++) {
        char *path = fidelity_boxes_path(dir, pages[i].id);
        if (path && access(path, R_OK) == 0) {
            pages[kept++] = pages[i];
        } else {
            free(pages[i].id);
            free(pages[i].path);
            dropped++;
        }
        free(path);
    }
    *n = kept;
    return dropped;
}

glance_status fidelity_read_boxes(const char *dir, const char *id, glance_geometry **geo,
                                  char *why, size_t why_cap)
{
    *geo = NULL;
    char *path = fidelity_boxes_path(dir, id);
    if (!path) {
        snprintf(why, why_cap, "out of memory");
        return GLANCE_ENOMEM;
    }
    glance_status st = glance_geometry_read_file(path, geo, why, why_cap);
    free(path);
    return st;
}

/* GCE's node on the page of `res` (running GCE alone again when the bench
 * runs another method): *xpath is malloc'd, NULL when GCE found nothing.
 * 0, or -1 when out of memory. */
static int gce_node(glance_result *res, const glance_options *opt, char **xpath)
{
    *xpath = NULL;
    glance_status st = glance_result_status(res);
    char *method = glance_options_get(opt, "method");
    if (!method)
        return -1;
    if (strcmp(method, "gce") != 0) {
        glance_options *o = glance_options_copy(opt);
        st = !o || glance_options_set(o, "method", "gce") != GLANCE_OK ? GLANCE_ENOMEM
                                                                        : glance_result_rerun(res, o);
        glance_options_free(o);
    }
    free(method);
    if (st == GLANCE_ENOMEM)
        return -1;
    if (st == GLANCE_OK && !(*xpath = strdup(glance_result_xpath(res))))
        return -1;
    return 0;
}

int fidelity_measure(glance_context *ctx, const char *html, size_t len, const glance_options *opt,
                     glance_result *res, const glance_geometry *geo, fidelity_page *out)
{
    glance_fidelity f;
    glance_status st =
        glance_result_fidelity(res, geo, FIDELITY_MIN_CHARS, NULL, FIDELITY_TOLERANCE, &f);
    if (st == GLANCE_ENOMEM)
        return -1;
    if (st != GLANCE_OK) {
        int w, h;
        glance_geometry_window(geo, &w, &h);
        char why[128];
        snprintf(why, sizeof why, "boxes of a %dx%d window, or a page not laid out", w, h);
        return (out->error = strdup(why)) ? 0 : -1;
    }
    out->compared = f.compared;
    out->agree = f.agree;
    glance_fidelity_free(&f);
    if (gce_node(res, opt, &out->gce_litehtml) != 0)
        return -1;

    glance_options *o = glance_options_copy(opt);
    if (!o)
        return -1;
    glance_options_set_geometry(o, geo);
    glance_result *r2 = NULL;
    out->browser_status = glance_extract(ctx, html, len, o, &r2);
    if (!r2) {
        glance_options_free(o);
        return -1;
    }
    int rc = 0;
    if (out->browser_status == GLANCE_OK && !(out->browser_text = strdup(glance_result_text(r2))))
        rc = -1;
    out->unmatched = glance_result_geometry(r2).unmatched;
    if (rc == 0 && (out->browser_status == GLANCE_OK || out->browser_status == GLANCE_ENOCONTENT))
        rc = gce_node(r2, o, &out->gce_browser);
    glance_result_free(r2);
    glance_options_free(o);
    out->done = rc == 0;
    return rc;
}

void fidelity_page_free(fidelity_page *p)
{
    free(p->error);
    free(p->gce_litehtml);
    free(p->gce_browser);
    free(p->browser_text);
    memset(p, 0, sizeof *p);
}

void fidelity_print(FILE *f, const char *dir, const fidelity_page *pages, size_t n)
{
    size_t done = 0, held_pages = 0, compared = 0, agree = 0, unmatched = 0;
    size_t same = 0, both_failed = 0, failed_lite = 0, failed_browser = 0;
    double share_sum = 0;
    for (size_t i = 0; i < n; i++) {
        const fidelity_page *p = &pages[i];
        if (!p->done)
            continue;
        done++;
        compared += p->compared;
        agree += p->agree;
        unmatched += p->unmatched;
        if (p->compared) {
            held_pages++;
            share_sum += (double)p->agree / (double)p->compared;
        }
        failed_lite += !p->gce_litehtml;
        failed_browser += !p->gce_browser;
        if (!p->gce_litehtml && !p->gce_browser)
            both_failed++;
        else if (p->gce_litehtml && p->gce_browser && strcmp(p->gce_litehtml, p->gce_browser) == 0)
            same++;
    }
    fprintf(f, "fidelity to the boxes of %s: %zu pages measured, %zu not (boxes unreadable, or the "
               "page not laid out)\n",
            dir, done, n - done);
    fprintf(f, "  elements of %d+ characters within %.0f%% of the window (left edge and width):\n",
            FIDELITY_MIN_CHARS, FIDELITY_TOLERANCE * 100);
    fprintf(f, "    mean share per page %.3f (%zu pages); %zu of %zu elements in all (%.3f)\n",
            held_pages ? share_sum / (double)held_pages : 0.0, held_pages, agree, compared,
            compared ? (double)agree / (double)compared : 0.0);
    fprintf(f, "  GCE's node on both: same on %zu of %zu pages (%.3f): the same XPath %zu, both "
               "failed %zu\n",
            same + both_failed, done, done ? (double)(same + both_failed) / (double)done : 0.0,
            same, both_failed);
    fprintf(f, "    GCE failed on litehtml's boxes %zu, on the browser's %zu\n", failed_lite,
            failed_browser);
    fprintf(f, "  nodes of glance's tree without a box: %zu\n", unmatched);
}
