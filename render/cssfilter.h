/* render/: stylesheets cut down to the rules that can match the page.
 *
 * litehtml 0.6 tries every selector of every stylesheet on every element;
 * with a user-agent sheet of 250 selectors and the 2 000 to 20 000 of a
 * site's inline CSS, selector matching is most of the time a page takes
 * (measured on the benchmark: 37% of the run, 10 ms per median page for the
 * user-agent sheet alone). A rule whose selector needs a tag, class or id
 * that appears nowhere in the page can never match, so it is dropped before
 * litehtml sees it. The test is conservative: whatever it does not
 * understand (escapes it cannot read, namespaces) is kept.
 */
#ifndef GLANCE_RENDER_CSSFILTER_H
#define GLANCE_RENDER_CSSFILTER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct css_index css_index;

/* The tag names, classes and ids of a page (ASCII lower-cased), from a scan
 * of its tags, and the attributes its <style>s name
 * (css_index_note_sheet). `sheet`, when not NULL, is called with each
 * stylesheet reference of the page in that scan (base/sheetrefs.h), for the
 * caller to note what the sheets name before the parse. NULL when out of
 * memory or when `sheet` fails. */
css_index *css_index_html(const char *html, size_t len, int (*sheet)(void *ud, const char *ref),
                          void *ud);
void css_index_free(css_index *ix);

/* Attributes nothing reads. Of a modern page's bytes outside its scripts
 * and styles, two thirds are attribute values, and a quarter of them are
 * read by no one: an SVG path's data (d), aria-*, the event handlers and
 * the data-* of scripts (measured on modern-dev: 22 of 88 MB). With
 * css_index_drop_attrs on, css_prepare_html leaves them out before the
 * HTML parser reads them and litehtml stores them, but those a stylesheet
 * names, in a selector ([data-state=open]) or in attr(), and the data-* of
 * an <img> (a lazy image's address, dom.h). An element that lost some
 * carries DOM_ATTR_CUT (dom.h) instead, their length. Every stylesheet the
 * filter reads is noted (css_filter does it); one read only during the
 * parse (an @import of a linked sheet) that names an attribute already
 * left out, or an attribute selector the filter cannot read, makes
 * css_index_attrs_lost true: the page is to be read again with the
 * attributes kept. */
void css_index_note_sheet(css_index *ix, const char *css, size_t len);
void css_index_drop_attrs(css_index *ix, int on);
int css_index_attrs_lost(const css_index *ix);

/* Bounds for what the filter lets through, for a page nested `depth` deep
 * (the tag scan's estimate): litehtml 0.6 matches a descendant or sibling
 * combinator by trying every ancestor (or earlier sibling) in turn and the
 * rest of the selector from each, so a selector with k such combinators
 * that fails late costs up to the sum of C(depth, j), j <= k, per element;
 * a selector over CSS_MAX_MATCH_COST, or with parentheses nested deeper
 * than CSS_MAX_NESTING (:not(:not(...))), is dropped. The page's <style>
 * text in all is cut at `max_style_bytes` (0: no cap): later <style>
 * blocks are left out. Without this call: no bound. */
#define CSS_MAX_MATCH_COST 1e6
#define CSS_MAX_NESTING 3
/* litehtml tries every selector on every element: the selectors let
 * through (the user-agent sheet's first) are at most this over the page's
 * `elements` (and at least 1000); later ones are dropped. */
#define CSS_MAX_MATCH_PAIRS 2e7
void css_index_limit(css_index *ix, int depth, size_t elements, size_t max_style_bytes);

/* litehtml builds a ::before or ::after box's text (an element per word)
 * when it applies the styles, before layout and before any deadline is
 * checked. The filter bounds it from above: for each rule with a `content`
 * declaration, the characters it generates for one box (its strings, 16
 * for each counter()) times the elements its selectors' subjects can match
 * (the fewest elements bearing one of the subject's tag, classes or id; all
 * of them for `*`). Once the sum is over `max_generated` (0: no bound), the
 * rules that add to it are dropped and css_index_generated says so.
 * Honest pages' generated content is an icon or a word on some elements. */
void css_index_limit_generated(css_index *ix, size_t max_generated);
/* The screen is a phone's or a tablet's (render_viewport): the media
 * features hover and any-hover answer none, pointer and any-pointer
 * coarse; else a desktop's mouse (hover, fine). */
void css_index_touch(css_index *ix, int on);
double css_index_generated(const css_index *ix, int *over);
/* Back to a sum css_index_generated gave, before the same sheets are
 * filtered again (the page laid out a second time, noscript.h). */
void css_index_generated_reset(css_index *ix, double to);

/* `css` without the rules that cannot match the page, and with the newer
 * CSS litehtml 0.6 reads wrongly written in forms it reads: :is(),
 * :where() and :not() of a list, nesting, @layer and @supports blocks,
 * media query ranges and the media features it does not know, logical
 * properties (docs/how-glance-sees-a-page.md, and render/README.md).
 * Malloc'd, NUL-terminated; NULL when out of memory. */
char *css_filter(css_index *ix, const char *css, size_t len, size_t *out_len);

/* The page as litehtml should get it: the text of each <style> filtered,
 * the text of each <script> and every comment left out (a quarter of a
 * page's bytes on the benchmark, which the HTML parser then does not read,
 * and elements litehtml would build for nothing), and the <noscript>s a
 * reader without scripts is shown marked (render/noscript.h), the parts of
 * a streamed page put where its scripts would put them (render/streamed.h). The content
 * of <svg> is kept: litehtml lays it out as inline boxes, and taking it out
 * moves the page. With `noscript_styles` 0, the <style>s inside <noscript>
 * are left out too. Malloc'd, NUL-terminated; NULL when out of memory.
 * When `info` is not NULL it says what the page holds. */
typedef struct css_page_info {
    size_t text_bytes;  /* bytes of the page's text outside <noscript> and
                           raw-text elements, white space not counted */
    int noscript_styles; /* <style>s inside <noscript>: how many */
    int streamed_parts;  /* parts of a streamed page put in place
                            (render/streamed.h) */
} css_page_info;
char *css_prepare_html(css_index *ix, const char *html, size_t len, int noscript_styles,
                       css_page_info *info);

/* With `on`, css_prepare_html sets the filtered text of each <style> aside
 * in the index and writes a mark in its place ("/\*glance-aside:N*\/"),
 * which container.cpp's element for <style> reads as that sheet: the HTML
 * parser reads the mark where it read the sheet a character at a time (a
 * fifth of a page's bytes on scrapinghub), and litehtml makes no element
 * per word of it. A text the parser might not hand on as it is (CR, NUL,
 * control characters, ill-formed UTF-8, "</"; once an <svg> or <math> has
 * begun, any '<' or '&', which it reads as markup in a <style> of theirs)
 * stays in place. The sheets
 * of the last css_prepare_html, in the page's order, until the next or
 * css_index_free; css_index_aside_of: the sheet whose mark `text` is, or
 * NULL. */
void css_index_set_aside(css_index *ix, int on);
size_t css_index_aside_count(const css_index *ix);
const char *css_index_aside(const css_index *ix, size_t i, size_t *len);
const char *css_index_aside_of(const css_index *ix, const char *text, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
