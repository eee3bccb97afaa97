/* render/: litehtml lays the page out with real fonts; the result becomes a
 * dom tree. The litehtml document container is the only C++ in the project;
 * this header is its C face.
 *
 * A render_engine (the user-agent stylesheet, parsed once, and the fonts) is
 * used by one thread at a time. A render_doc is one laid-out page.
 */
#ifndef GLANCE_RENDER_H
#define GLANCE_RENDER_H

#include <stddef.h>

#include "dom/dom.h"
#include "fonts/fonts.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct render_engine render_engine;
typedef struct render_doc render_doc;

/* render_opts.device: what browser the window stands for. */
enum {
    RENDER_DEVICE_AUTO = 0,    /* a phone's or tablet's below RENDER_MOBILE_WIDTH, else a desktop's */
    RENDER_DEVICE_DESKTOP = 1, /* the window is the layout viewport; no meta viewport */
    RENDER_DEVICE_MOBILE = 2   /* the page's meta viewport sets the layout viewport */
};
/* Windows narrower than this are a phone's or a tablet's held upright
 * (360, 390, 768, 820 px wide) under RENDER_DEVICE_AUTO; 1024 and wider a
 * desktop's (or a tablet's on its side, which browsers lay out as one). */
#define RENDER_MOBILE_WIDTH 1000
/* The layout viewport of a mobile browser on a page without a meta
 * viewport width (Safari's and Chrome's for Android). */
#define RENDER_MOBILE_DEFAULT_WIDTH 980

typedef struct render_opts {
    int window_w, window_h; /* the window (the screen, in CSS px); the layout
                               viewport is render_viewport_of's */
    int device;             /* RENDER_DEVICE_* */
    /* Set by render_load for the container, not by callers: the screen
     * (media device-width/-height) when the layout viewport differs from
     * the window; 0: the window itself. */
    int screen_w, screen_h;
    /* Directory that relative URLs of linked stylesheets resolve against
     * (the page file's folder); NULL: linked stylesheets are not loaded. */
    const char *base_dir;
    size_t max_css_bytes;   /* a local stylesheet larger than this is skipped */
    int max_stylesheets;    /* linked stylesheets beyond this count are skipped */
    int max_depth;          /* deeper element nesting is refused before layout
                               (litehtml recurses; DESIGN.md, Fidelity); 0: no check */
    size_t max_elements;    /* start tags (a scan before parsing); 0: no check */
    size_t max_words;       /* words of text (the same scan); 0: no check */
    int max_doc_height;     /* laid-out height in px; 0: no check */
    size_t max_style_bytes; /* the page's <style> text in all; 0: no cap */
    /* What litehtml builds beyond the tags (docs/limits.md); 0: no check.
     * Spans are clamped as browsers clamp them (RENDER_MAX_COLSPAN,
     * RENDER_MAX_ROWSPAN) whatever these say. */
    size_t max_table_cells; /* grid cells of all tables, empty ones that spans
                               imply included (the scan, before parsing) */
    size_t max_generated;   /* characters of ::before/::after content: each
                               rule's strings times the elements its selector
                               can match (the CSS filter, before parsing) */
    size_t max_pseudo_boxes; /* ::before/::after boxes with content (after
                                parsing, before layout) */
    size_t max_floats;      /* floated boxes in one block formatting context
                               (after parsing, before layout) */
    size_t max_positioned;  /* absolutely or fixed positioned boxes (the same) */
    double deadline_ms;     /* base_now_ms() time (base/clock.h) after which the
                               next stage does not start (RENDER_ETIME); 0: none */
    int plain_litehtml;     /* 1: without the flex and grid layer (compat.h), as
                               litehtml 0.6 alone lays flex and grid out */
    int keep_attrs;         /* 1: every attribute of the page in the tree; 0:
                               those render_attr_left_out names left out
                               before the parse (render/cssfilter.h) */
    int keep_hidden;        /* 1: what is inside a display:none element is
                               styled and in the tree (another engine's boxes
                               may show it: lib/geometry.h); 0: left out once
                               the element's display is known */
    /* Stylesheets fetched beforehand (net/, through lib/): asked first for
     * each <link rel=stylesheet> and @import. `ref` is the reference as
     * written, white space and one pair of quotes trimmed; `from` is "" for
     * the page or the `url` an earlier answer gave for the importing sheet.
     * Returns 1 with the sheet's UTF-8 text and absolute URL, 0 when it has
     * none (then a relative reference is a local file under base_dir, and
     * a remote one is skipped). NULL: no lookup. */
    int (*css_lookup)(void *ud, const char *ref, const char *from, const char **css,
                      size_t *len, const char **url);
    void *css_lookup_ud;
} render_opts;

typedef enum render_status {
    RENDER_OK = 0,
    RENDER_ENOMEM = 1,
    RENDER_EPARSE = 2, /* litehtml could not build a document */
    RENDER_EFONTS = 3, /* no font could be opened */
    RENDER_EDEPTH = 4, /* nesting deeper than max_depth */
    RENDER_EELEMENTS = 5, /* more start tags than max_elements */
    RENDER_EWORDS = 6,    /* more words than max_words */
    RENDER_EHEIGHT = 7,   /* laid out taller than max_doc_height */
    RENDER_ETIME = 8,     /* deadline_ms passed between two stages */
    RENDER_EATTRS = 9,    /* an element with more than RENDER_MAX_ATTRS attributes */
    RENDER_ECELLS = 10,   /* table grid cells over max_table_cells */
    RENDER_EGENERATED = 11, /* generated content over max_generated */
    RENDER_EPSEUDO = 12,  /* ::before/::after boxes over max_pseudo_boxes */
    RENDER_EFLOATS = 13,  /* floats over max_floats */
    RENDER_EPOSITIONED = 14 /* absolutely positioned boxes over max_positioned */
} render_status;

/* The HTML standard's clamps of a cell's spans (a colspan of 0 is 1; a
 * rowspan of 0, "to the end of the row group", is read as 1 here). */
#define RENDER_MAX_COLSPAN 1000
#define RENDER_MAX_ROWSPAN 65534

/* gumbo (litehtml's parser) checks each attribute of an element against
 * all before it: 300 000 on one element took 378 s to parse. */
#define RENDER_MAX_ATTRS 1000

/* A page whose own styles for readers without scripts (the <style>s inside
 * its <noscript>s) leave less than this share of its text shown hid itself
 * behind a warning: it is laid out again without them (noscript.h). */
#define RENDER_HIDDEN_SHARE 0.2

#define RENDER_MISSING_SCRIPTS 16

/* The layout viewport: the width pages are laid out at and their media
 * queries' width and height. A desktop browser's is the window. A mobile
 * browser's (RENDER_DEVICE_MOBILE, or AUTO below RENDER_MOBILE_WIDTH)
 * comes from the page's last <meta name=viewport>: width=device-width is
 * the window's width, width=N is N CSS px (clamped to 1..10000), an
 * initial-scale alone the window's width over it, and a page without one
 * of those is laid out 980 px wide (RENDER_MOBILE_DEFAULT_WIDTH); its
 * height is the window's at the scale that shows that width across the
 * screen. Media queries then see the layout viewport as width and height,
 * the window as device-width and device-height, and a touch screen (hover:
 * none, pointer: coarse). */
typedef struct render_viewport {
    int w, h;
    int mobile;    /* laid out as a phone's or tablet's browser */
    int from_meta; /* a meta viewport's width or scale set it */
} render_viewport;
void render_viewport_of(const char *html, size_t len, const render_opts *o, render_viewport *v);
/* Whether `o`'s window stands for a phone's or tablet's browser (its device
 * option, and its width under RENDER_DEVICE_AUTO): what render_viewport_of
 * decides first, for another engine too (lib/browse.c's chromium). */
int render_device_mobile(const render_opts *o);

typedef struct render_stats {
    render_viewport viewport; /* what the page was laid out in */
    double parse_ms;   /* HTML parse, CSS parse and style resolution */
    double layout_ms;  /* litehtml layout at the window width */
    double dom_ms;     /* building the dom tree from the layout */
    /* parse_ms in its parts: */
    double css_ms;     /* the tag scan, the CSS filter, the page rewritten */
    double html_ms;    /* litehtml's HTML parse and element creation */
    double style_ms;   /* stylesheets parsed and applied, styles resolved */
    size_t elements, words, max_attrs; /* the scan's counts (render_html_count) */
    size_t table_cells;  /* the scan's too */
    double generated;    /* the CSS filter's bound of generated characters */
    size_t pseudo_boxes, positioned; /* counted before layout */
    size_t shown_elements; /* litehtml's elements outside display:none, words
                              and white space included: what layout walks */
    size_t floats, floats_total; /* the most in one formatting context; in all */
    int height;        /* the laid-out document's height, px */
    int noscript_styles_dropped; /* the page hid itself: laid out again without
                                    the <style>s of its <noscript>s */
    int visibility_revealed; /* the page hid its text with visibility until a
                                script shows it: shown (container.cpp) */
    int streamed_parts; /* parts of a streamed page that its scripts would
                           move into place: put there (streamed.h) */
    int spaces_read_again; /* a stylesheet loaded during the parse may keep
                              the runs of white space written as one space
                              (spaces.h): read again as they are */
    int attrs_all_kept;    /* the tree holds every attribute of the page
                              (keep_attrs, plain_litehtml, or read again) */
    int attrs_read_again;  /* a stylesheet loaded during the parse names an
                              attribute left out (cssfilter.h): read again
                              with every attribute */
    int stylesheets_loaded;
    int stylesheets_skipped; /* remote, missing, too large or over the count */
    /* Scripts of the page's text that no installed face has, measured with
     * fonts/' metric fallback (fonts_missing_scripts): English names, static
     * strings; the first RENDER_MISSING_SCRIPTS of n_missing_scripts. */
    const char *missing_scripts[RENDER_MISSING_SCRIPTS];
    size_t n_missing_scripts;
} render_stats;

/* `fonts` stays owned by the caller and must outlive the engine. */
render_engine *render_engine_new(fonts_lib *fonts);
void render_engine_free(render_engine *eng);

/* Parses `html` (UTF-8, NUL-terminated), lays it out and builds its dom.
 * On success *out holds the page; free it with render_doc_free. */
render_status render_load(render_engine *eng, const char *html, const render_opts *opts,
                          render_doc **out, render_stats *stats);

/* The deepest element nesting of `html` as an HTML parser builds it (gumbo,
 * the parser litehtml uses), counted from <html> = 1; -1 when out of memory. */
int render_html_depth(const char *html, size_t len);
/* A quick scan of the tags: start tags, words of text outside tags (script
 * and style text left out), the depth (at least as deep as the parser
 * builds, give or take the few elements a parser adds itself), and the depth
 * counting only elements
 * that no start tag closes implicitly (div, span, section, em, ...): a
 * parser nests those at least that deep, so a page over the limit on it
 * is refused without the exact parse (which is quadratic in the depth). */
typedef struct render_html_counts {
    size_t elements, words;
    size_t max_attrs; /* attributes of the element that has most */
    int depth, strict_depth;
    /* Cells of the tables' grids: of each table its rows times its widest
     * row, colspans (clamped) and the columns that rowspans from rows above
     * take counted in, as litehtml's grid holds them. */
    size_t table_cells;
} render_html_counts;
/* A span attribute's value as the standard's parser reads it, clamped to
 * 1..`max` (0, a missing or unreadable value: 1). */
int render_span_value(const char *v, size_t n, int max);
int render_html_count(const char *html, size_t len, render_html_counts *out);
void render_doc_free(render_doc *doc);

/* The tree of the laid-out page, owned by the render_doc. */
dom_doc *render_doc_dom(render_doc *doc);

/* Paints the laid-out page with cairo (render/paint.cpp): backgrounds,
 * borders, text in the faces it was measured with (fallback faces
 * included), list markers, a placeholder box of each image's laid-out size
 * (images are not fetched), overflow clipping. `cr`'s user space is document
 * space: translate it to paint a part of the page. Only what meets `area`
 * (document coordinates) is painted. The fonts_lib the engine was made with
 * must still be alive and used by no other thread. RENDER_EPARSE when `doc`
 * holds no page, RENDER_ENOMEM when out of memory. */
struct _cairo;
render_status render_paint(render_doc *doc, struct _cairo *cr, dom_box area);

/* The user-agent stylesheet (render/ua.css), for tests and documentation. */
extern const char render_ua_css[];

/* Does render_load leave an attribute called `name` out of the tree (but on
 * an <img>, and unless a stylesheet of the page names it) without
 * keep_attrs? The attributes neither litehtml nor glance read: d, aria-*,
 * the event handlers, data-* (render/cssfilter.h). */
int render_attr_left_out(const char *name);

#ifdef __cplusplus
}
#endif

#endif
