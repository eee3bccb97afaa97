/* render/: the laid-out page painted with cairo, checked by its pixels:
 * backgrounds and borders where the boxes are, text ink inside the line
 * boxes and no wider than measured, CJK drawn as real glyphs, overflow
 * clipped, list markers, image placeholders. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <cmocka.h>
#include <fontconfig/fontconfig.h>

#include "render/render.h"
#include "run.h"

static fonts_lib *fonts;
static render_engine *eng;

static int setup(void **state)
{
    (void)state;
    fonts = fonts_lib_new();
    eng = fonts ? render_engine_new(fonts) : NULL;
    return eng ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    render_engine_free(eng);
    fonts_lib_free(fonts);
    /* cairo's caches of the faces it opened, for leak checkers. */
    cairo_debug_reset_static_data();
    FcFini();
    return 0;
}

typedef struct shot {
    render_doc *doc;
    cairo_surface_t *surf;
    unsigned char *px;
    int w, h, stride;
} shot;

/* Lays `html` out at w x h and paints the top w x h of it on white. */
static shot paint(const char *html, int w, int h)
{
    shot s = {0};
    render_opts ro = {.window_w = w, .window_h = h, .max_depth = 512};
    assert_int_equal(render_load(eng, html, &ro, &s.doc, NULL), RENDER_OK);
    s.surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s.surf);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    assert_int_equal(render_paint(s.doc, cr, (dom_box){0, 0, w, h}), RENDER_OK);
    cairo_destroy(cr);
    cairo_surface_flush(s.surf);
    s.px = cairo_image_surface_get_data(s.surf);
    s.w = w;
    s.h = h;
    s.stride = cairo_image_surface_get_stride(s.surf);
    return s;
}

static void shot_free(shot *s)
{
    cairo_surface_destroy(s->surf);
    render_doc_free(s->doc);
}

/* 0xRRGGBB of a pixel. */
static unsigned rgb(const shot *s, int x, int y)
{
    assert_true(x >= 0 && y >= 0 && x < s->w && y < s->h);
    return *(const uint32_t *)(s->px + (size_t)y * (size_t)s->stride + (size_t)x * 4) & 0xFFFFFF;
}

static int dark(const shot *s, int x, int y)
{
    unsigned c = rgb(s, x, y);
    return ((c >> 16 & 255) + (c >> 8 & 255) + (c & 255)) < 3 * 128;
}

/* The first element with this tag in pre-order. */
static const dom_node *find_tag(const shot *s, const char *tag)
{
    const dom_node *root = dom_doc_root(render_doc_dom(s->doc));
    for (const dom_node *n = root; n; n = dom_next(n, root))
        if (n->kind == DOM_ELEMENT && strcmp(n->tag, tag) == 0)
            return n;
    fail_msg("no <%s>", tag);
    return NULL;
}

static void backgrounds_and_borders_at_their_boxes(void **state)
{
    (void)state;
    shot s = paint("<html><body style='margin:0'>"
                   "<div style='margin:20px;width:200px;height:100px;background:#3050a0;"
                   "border:4px solid #ff0000;border-bottom:10px dashed #00aa00'></div>"
                   "</body></html>",
                   400, 300);
    const dom_node *div = find_tag(&s, "div");
    /* The border box: 20 + 4 + 200 + 4 wide, 4 + 100 + 10 tall. */
    /* The border box: 20 + 4 + 200 + 4 wide, 4 + 100 + 10 tall (litehtml
     * collapses the top margin through <body>: y is its own business). */
    assert_true(div->box.x == 20 && div->box.w == 208 && div->box.h == 114);
    int y0 = (int)div->box.y;
    assert_int_equal(rgb(&s, 120, y0 + 50), 0x3050a0);  /* the background */
    assert_int_equal(rgb(&s, 21, y0 + 50), 0xff0000);   /* left border */
    assert_int_equal(rgb(&s, 120, y0 + 2), 0xff0000);   /* top border */
    assert_int_equal(rgb(&s, 226, y0 + 50), 0xff0000);  /* right border */
    /* The dashed bottom: green dashes with gaps between them. */
    int green = 0, other = 0;
    for (int x = 30; x < 210; x++)
        if (rgb(&s, x, y0 + 109) == 0x00aa00)
            green++;
        else
            other++;
    assert_true(green > 40 && other > 40);
    assert_int_equal(rgb(&s, 120, y0 + 120), 0xffffff); /* below it: the page */
    assert_int_equal(rgb(&s, 10, y0 + 50), 0xffffff);
    assert_int_equal(rgb(&s, 300, 70), 0xffffff);
    shot_free(&s);
}

static void text_inside_its_line_boxes_as_wide_as_measured(void **state)
{
    (void)state;
    shot s = paint("<html><body style='margin:10px;font:20px Arial'>"
                   "<p id=p>Harbour town opens its first tidal power station</p>"
                   "</body></html>",
                   800, 200);
    const dom_node *p = find_tag(&s, "p");
    const dom_node *t = p->first_child;
    assert_int_equal(t->kind, DOM_TEXT);
    assert_int_equal((int)t->n_lines, 1);
    dom_box b = t->lines[0];
    int inside = 0, outside = 0, right = -1, left = s.w;
    for (int y = 0; y < s.h; y++)
        for (int x = 0; x < s.w; x++) {
            if (!dark(&s, x, y))
                continue;
            if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h) {
                inside++;
                right = x > right ? x : right;
                left = x < left ? x : left;
            } else {
                outside++;
            }
        }
    assert_true(inside > 300);
    assert_int_equal(outside, 0);
    /* The ink spans the measured line: from its first letter to its last. */
    assert_true(left <= b.x + 2);
    assert_true(right >= b.x + b.w - 4);
    shot_free(&s);
}

/* The CJK fixture: a line of ideographs is drawn with real glyphs, each cell
 * of it different from the next, not a row of identical empty boxes. */
static void cjk_fixture_paints_glyphs(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/news-ja.html", FIXTURES_DIR);
    char *html = slurp(path);
    shot s = paint(html, 1920, 1080);
    free(html);
    /* A text node of CJK characters only (three UTF-8 bytes each), alone on
     * its line, inside the window. */
    const dom_node *root = dom_doc_root(render_doc_dom(s.doc)), *t = NULL;
    for (const dom_node *n = root; n && !t; n = dom_next(n, root)) {
        if (n->kind != DOM_TEXT || n->n_lines != 1 || n->text_len < 3 * 6 || n->text_len > 3 * 40)
            continue;
        int cjk = 1;
        for (size_t i = 0; i < n->text_len; i += 3)
            cjk &= (unsigned char)n->text[i] >= 0xE3 && (unsigned char)n->text[i] <= 0xE9;
        dom_box b = n->lines[0];
        if (cjk && b.y + b.h < s.h && b.x + b.w < s.w)
            t = n;
    }
    assert_non_null(t);
    size_t chars = t->text_len / 3;
    dom_box b = t->lines[0];
    double cell = b.w / (double)chars; /* full-width: one em each */
    int inked = 0, differ = 0;
    for (size_t i = 0; i < chars; i++) {
        int ink = 0, diff = 0;
        for (int y = (int)b.y; y < (int)(b.y + b.h); y++)
            for (int dx = 0; dx < (int)cell; dx++) {
                int x = (int)(b.x + i * cell) + dx;
                ink += dark(&s, x, y);
                if (i > 0)
                    diff += dark(&s, x, y) != dark(&s, (int)(b.x + (i - 1) * cell) + dx, y);
            }
        inked += ink > 5;
        differ += i > 0 && diff > 5;
    }
    assert_int_equal(inked, (int)chars);
    /* Neighbours differ (a repeated character may not). */
    assert_true(differ >= (int)chars - 3);
    shot_free(&s);
}

static void overflow_hidden_clips(void **state)
{
    (void)state;
    shot s = paint("<html><body style='margin:0'>"
                   "<div style='overflow:hidden;width:100px;height:50px'>"
                   "<div style='background:#00ff00;width:300px;height:300px'></div></div>"
                   "</body></html>",
                   400, 400);
    assert_int_equal(rgb(&s, 50, 25), 0x00ff00);
    assert_int_equal(rgb(&s, 150, 25), 0xffffff);
    assert_int_equal(rgb(&s, 50, 100), 0xffffff);
    shot_free(&s);
}

static void list_markers_and_image_placeholders(void **state)
{
    (void)state;
    shot s = paint("<html><body style='margin:0;font:16px Arial'>"
                   "<ul style='margin:0;padding-left:40px'><li>one</li></ul>"
                   "<ol style='margin:0;padding-left:40px'><li>two</li></ol>"
                   "<img src='missing.png' width='120' height='80' style='display:block'>"
                   "</body></html>",
                   400, 300);
    const dom_node *ul = find_tag(&s, "ul"), *ol = find_tag(&s, "ol"), *img = find_tag(&s, "img");
    /* Ink left of each item's text: the disc, and "1." */
    int disc = 0, number = 0;
    for (int x = 0; x < 40; x++)
        for (int y = (int)ul->box.y; y < (int)(ul->box.y + ul->box.h); y++)
            disc += dark(&s, x, y);
    for (int x = 0; x < 40; x++)
        for (int y = (int)ol->box.y; y < (int)(ol->box.y + ol->box.h); y++)
            number += dark(&s, x, y);
    assert_true(disc > 4);
    assert_true(number > 8);
    /* The image: a grey box of its size, where it was laid out. */
    assert_true(img->box.w == 120 && img->box.h == 80);
    unsigned grey = rgb(&s, (int)img->box.x + 30, (int)img->box.y + 60);
    assert_int_not_equal(grey, 0xffffff);
    assert_true((grey >> 16) == (grey & 255) && (grey >> 16) > 0x80);
    assert_int_equal(rgb(&s, (int)(img->box.x + img->box.w) + 3, (int)img->box.y + 40), 0xffffff);
    shot_free(&s);
}

/* Painting a part: the user space is document space, translated. */
static void a_part_of_the_page(void **state)
{
    (void)state;
    render_doc *doc;
    render_opts ro = {.window_w = 300, .window_h = 200, .max_depth = 512};
    assert_int_equal(render_load(eng,
                                 "<body style='margin:0'><div style='height:1000px'></div>"
                                 "<div style='height:50px;background:#0000ff'></div></body>",
                                 &ro, &doc, NULL),
                     RENDER_OK);
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 300, 100);
    cairo_t *cr = cairo_create(surf);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_translate(cr, 0, -980);
    assert_int_equal(render_paint(doc, cr, (dom_box){0, 980, 300, 100}), RENDER_OK);
    cairo_destroy(cr);
    cairo_surface_flush(surf);
    const uint32_t *row10 = (const uint32_t *)(cairo_image_surface_get_data(surf) +
                                               10 * cairo_image_surface_get_stride(surf));
    const uint32_t *row30 = (const uint32_t *)(cairo_image_surface_get_data(surf) +
                                               30 * cairo_image_surface_get_stride(surf));
    assert_int_equal(row10[150] & 0xFFFFFF, 0xffffff); /* y 990: the empty div */
    assert_int_equal(row30[150] & 0xFFFFFF, 0x0000ff); /* y 1010: the blue one */
    cairo_surface_destroy(surf);
    render_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(backgrounds_and_borders_at_their_boxes),
        cmocka_unit_test(text_inside_its_line_boxes_as_wide_as_measured),
        cmocka_unit_test(cjk_fixture_paints_glyphs),
        cmocka_unit_test(overflow_hidden_clips),
        cmocka_unit_test(list_markers_and_image_placeholders),
        cmocka_unit_test(a_part_of_the_page),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
