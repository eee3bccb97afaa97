/* The Markdown of every fixture, read back by a Markdown parser (Debian's
 * cmark-gfm: CommonMark with GitHub's tables and strikethrough), gives the
 * blocks of glance's HTML: the same headings (and levels), paragraphs,
 * bullet and numbered lists (and their nesting and items), block quotes,
 * code blocks, rules and tables (and their rows), in the same order.
 *
 * Both sides are reduced to a skeleton of blocks by one reading of their
 * tags (base/'s scanner): a paragraph is a run of inline content that
 * shows something (text or an image) between two block boundaries,
 * whatever wraps it (a <p>, a <div>, nothing, a list item), since Markdown
 * has no divs and a tight list no <p>; a table whose cells hold blocks is
 * a layout and reads as the blocks of its cells, as glance's Markdown
 * writes it. Skipped, with a note, without cmark-gfm
 * (tools/install-deps.sh installs it). */
#define _GNU_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/tags.h"
#include "glance.h"
#include "run.h"

static const char *const containers[] = {"div", "article", "section", "figure", "figcaption",
                                         "details", "summary", "dl", "dt", "dd", "p", "caption",
                                         "thead", "tbody", "tfoot", "tr", "td", "th", NULL};
static const char *const hard_blocks[] = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol",
                                          "dl", "blockquote", "pre", "hr", "table", "figure",
                                          NULL};

typedef struct skel {
    char toks[4096][24];
    size_t n;
    int run;       /* inline content that shows something since the last boundary */
    int quiet;     /* inside a heading, a code block or a data table: no paragraphs */
} skel;

static void emit(skel *k, const char *t)
{
    if (k->n < sizeof k->toks / sizeof k->toks[0])
        snprintf(k->toks[k->n++], sizeof k->toks[0], "%s", t);
}

static void boundary(skel *k)
{
    if (k->run && !k->quiet)
        emit(k, "p");
    k->run = 0;
}

/* From a table's start tag (the scanner just past it): whether its cells
 * hold blocks (a layout), its rows, and whether its caption shows text. */
static void look_at_table(const base_tag_scanner *at, int *layout, int *rows, int *caption)
{
    base_tag_scanner s = *at;
    base_tag t;
    int depth = 1, in_cell = 0, in_caption = 0;
    *layout = *rows = *caption = 0;
    while (depth > 0 && base_tag_next(&s, &t)) {
        if (t.kind == BASE_TAG_START && base_tag_is(&t, "table")) {
            depth++;
            *layout |= in_cell > 0;
        } else if (t.kind == BASE_TAG_END && base_tag_is(&t, "table")) {
            depth--;
        } else if (depth == 1 && t.kind == BASE_TAG_START && base_tag_is(&t, "tr")) {
            (*rows)++;
        } else if (depth == 1 && (base_tag_is(&t, "td") || base_tag_is(&t, "th"))) {
            in_cell += t.kind == BASE_TAG_START ? 1 : -1;
        } else if (depth == 1 && base_tag_is(&t, "caption")) {
            in_caption = t.kind == BASE_TAG_START;
        } else if (t.kind == BASE_TAG_START && in_cell > 0 && base_tag_in(t.lower, hard_blocks)) {
            *layout = 1;
        } else if (t.kind == BASE_TAG_TEXT && in_caption &&
                   t.len > strspn(t.start, " \t\n\r\f") && strspn(t.start, " \t\n\r\f") < t.len) {
            *caption = 1;
        }
    }
}

/* Skips to the end of the element whose start was just read. */
static void skip_element(base_tag_scanner *s, const char *name)
{
    base_tag t;
    int depth = 1;
    while (depth > 0 && base_tag_next(s, &t)) {
        if (t.kind == BASE_TAG_START && base_tag_is(&t, name) && !t.self_closing)
            depth++;
        else if (t.kind == BASE_TAG_END && base_tag_is(&t, name))
            depth--;
    }
}

static int shows_text(const base_tag *t)
{
    for (size_t i = 0; i < t->len; i++)
        if (!base_html_space(t->start[i]))
            return 1;
    return 0;
}

/* The skeleton as one string of tokens, a space between them. */
static char *skeleton(const char *html)
{
    skel *k = calloc(1, sizeof *k);
    /* Where each open list or quote began in the tokens, to drop it when
     * nothing came inside (glance's Markdown writes no empty quote). */
    size_t opened[512];
    int n_open = 0;
    /* Headings hold their text until they close. */
    int heading = 0, heading_text = 0;
    base_tag_scanner s;
    base_tag_scanner_init(&s, html, strlen(html));
    base_tag t;
    while (base_tag_next(&s, &t)) {
        if (t.kind == BASE_TAG_TEXT) {
            if (heading)
                heading_text |= shows_text(&t);
            else if (shows_text(&t))
                k->run = 1;
            continue;
        }
        if (t.kind != BASE_TAG_START && t.kind != BASE_TAG_END)
            continue;
        int start = t.kind == BASE_TAG_START;
        const char *n = t.lower;
        if (!strcmp(n, "img")) {
            if (heading)
                heading_text = 1;
            else
                k->run = 1;
        } else if (n[0] == 'h' && n[1] >= '1' && n[1] <= '6' && !n[2]) {
            boundary(k);
            if (start) {
                heading = n[1] - '0';
                heading_text = 0;
            } else if (heading) {
                if (heading_text) {
                    char h[4] = {'h', (char)('0' + heading), 0};
                    emit(k, h);
                }
                heading = 0;
            }
        } else if (!strcmp(n, "ul") || !strcmp(n, "ol") || !strcmp(n, "blockquote") ||
                   !strcmp(n, "li")) {
            boundary(k);
            if (start) {
                if (n_open < 512)
                    opened[n_open++] = k->n;
                char o[24];
                snprintf(o, sizeof o, "%s(", !strcmp(n, "blockquote") ? "bq" : n);
                emit(k, o);
            } else if (n_open > 0) {
                size_t at = opened[--n_open];
                /* An empty list or quote leaves no trace; an empty item
                 * does (the Markdown writes its marker). */
                if (strcmp(n, "li") != 0 && k->n == at + 1)
                    k->n = at;
                else
                    emit(k, ")");
            }
        } else if (!strcmp(n, "pre")) {
            boundary(k);
            if (start) {
                emit(k, "pre");
                skip_element(&s, "pre");
            }
        } else if (!strcmp(n, "hr")) {
            boundary(k);
            emit(k, "hr");
        } else if (!strcmp(n, "table")) {
            boundary(k);
            if (start) {
                int layout, rows, caption;
                look_at_table(&s, &layout, &rows, &caption);
                if (!layout && rows) {
                    if (caption)
                        emit(k, "p");
                    char tk[24];
                    snprintf(tk, sizeof tk, "table:%d", rows);
                    emit(k, tk);
                    skip_element(&s, "table");
                }
            }
        } else if (base_tag_in(n, containers)) {
            boundary(k);
        }
        /* Inline elements (a, em, code, br, span ...) are no boundary. */
    }
    boundary(k);
    base_buf b = BASE_BUF_INIT;
    for (size_t i = 0; i < k->n; i++) {
        if (i)
            base_buf_putc(&b, ' ');
        base_buf_puts(&b, k->toks[i]);
    }
    free(k);
    char *out = base_buf_take(&b, NULL);
    return out ? out : strdup("");
}

static int have_cmark(void)
{
    return system("cmark-gfm --version >/dev/null 2>&1") == 0;
}

/* cmark-gfm's HTML of a Markdown text. */
static char *cmark(const char *md)
{
    char in[] = "/tmp/glance-md-XXXXXX";
    int fd = mkstemp(in);
    assert_true(fd >= 0);
    size_t n = strlen(md);
    assert_int_equal(write(fd, md, n), (ssize_t)n);
    close(fd);
    char cmd[256], out[64];
    snprintf(out, sizeof out, "%s.html", in);
    snprintf(cmd, sizeof cmd, "cmark-gfm -e table -e strikethrough %s > %s", in, out);
    assert_int_equal(system(cmd), 0);
    char *html = slurp(out);
    unlink(in);
    unlink(out);
    return html;
}

static glance_context *ctx;

static void round_trip(const char *name, const char *path)
{
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, path, NULL, &res);
    if (st != GLANCE_OK) {
        glance_result_free(res);
        return; /* no content: no Markdown */
    }
    const char *html = glance_result_html(res);
    const char *md = glance_result_markdown(res);
    assert_non_null(md);
    char *back = cmark(md);
    assert_non_null(back);
    char *want = skeleton(html), *got = skeleton(back);
    if (strcmp(want, got) != 0)
        fail_msg("%s: the Markdown reads back as other blocks\nglance's HTML: %s\ncmark-gfm's:   "
                 "%s\n--- markdown ---\n%s\n--- html ---\n%s",
                 name, want, got, md, html);
    free(want);
    free(got);
    free(back);
    glance_result_free(res);
}

static void test_fixtures_round_trip(void **state)
{
    (void)state;
    if (!have_cmark()) {
        print_message("SKIPPED: no cmark-gfm (sh tools/install-deps.sh installs it)\n");
        skip();
    }
    DIR *d = opendir(FIXTURES_DIR);
    assert_non_null(d);
    struct dirent *e;
    int pages = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".html") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, e->d_name);
        round_trip(e->d_name, path);
        pages++;
    }
    closedir(d);
    print_message("%d fixture pages: their Markdown gives their blocks\n", pages);
    assert_true(pages >= 20);
}

/* The skeleton itself, on a page of every construct. */
static void test_rich_page(void **state)
{
    (void)state;
    if (!have_cmark())
        skip();
    glance_result *res = NULL;
    glance_options *o = glance_options_new();
    assert_int_equal(glance_options_set(o, "method", "gce"), GLANCE_OK);
    assert_int_equal(glance_extract_file(ctx, FIXTURES_DIR "/markdown-rich.html", o, &res), GLANCE_OK);
    glance_options_free(o);
    char *back = cmark(glance_result_markdown(res));
    char *want = skeleton(glance_result_html(res)), *got = skeleton(back);
    /* A heading, a paragraph, a heading, a nested list, a numbered one, a
     * quote, code, a table of three rows, the figure's image and caption,
     * a rule and two paragraphs that only look like markup. */
    print_message("markdown-rich: %s\n", got);
    assert_string_equal(want, got);
    assert_non_null(strstr(got, "ul( li( p ) li( p ul( li( p ) li( p ) ) ) li( p ) ) ol( li( p ) "
                                "li( p ) ) bq( p ) pre table:3 p p hr p p"));
    free(want);
    free(got);
    free(back);
    glance_result_free(res);
}

int main(void)
{
    ctx = glance_context_new();
    if (!ctx)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rich_page),
        cmocka_unit_test(test_fixtures_round_trip),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    glance_context_free(ctx);
    return rc;
}
