/* glance: the main content of a web page, found where a reader's eye lands.
 *
 * The page is laid out with litehtml at a real window size with real fonts;
 * GCE (Grid, Centering, Expanding; Jung et al., IEEE Access 2022) picks the
 * element that holds the main content.
 *
 *     glance_context *ctx = glance_context_new();
 *     glance_options opt;
 *     glance_options_default(&opt);
 *     glance_result *res = NULL;
 *     glance_status st = glance_extract(ctx, html, len, &opt, &res);
 *     if (st == GLANCE_OK)
 *         puts(glance_result_text(res));
 *     else
 *         fprintf(stderr, "%s\n", glance_result_message(res, st));
 *     glance_result_free(res);
 *     glance_context_free(ctx);
 *
 * A context holds what is costly to set up (fonts, the parsed user-agent
 * stylesheet) and is used by one thread at a time; use one per thread. A
 * result owns everything it points to until glance_result_free.
 */
#ifndef GLANCE_H
#define GLANCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GLANCE_VERSION "0.1.0"

typedef enum glance_status {
    GLANCE_OK = 0,
    GLANCE_ENOCONTENT = 1, /* the page was laid out, but no main content was found */
    GLANCE_EINPUT = 2,     /* empty, binary, or otherwise not an HTML page */
    GLANCE_ETOOBIG = 3,    /* over a limit: input bytes or nesting depth */
    GLANCE_EOPTION = 4,    /* an option is out of range */
    GLANCE_EIO = 5,        /* a file could not be read */
    GLANCE_ENOMEM = 6,     /* out of memory */
    GLANCE_ELAYOUT = 7,    /* the layout engine could not build the page */
    GLANCE_EFONTS = 8,     /* no usable font is installed */
    /* Pages from URLs (glance_extract_url) */
    GLANCE_EURL = 9,       /* not an http or https URL (or a redirect to another scheme) */
    GLANCE_EFETCH = 10,    /* the page could not be fetched: DNS, connection, TLS, an
                              HTTP error status */
    GLANCE_ETIMEOUT = 11,  /* connect_timeout_ms or timeout_ms passed */
    GLANCE_EADDR = 12,     /* public_only refused the address the host resolved to */
    GLANCE_EREDIRECTS = 13, /* more than max_redirects redirects */
    GLANCE_EOFFLINE = 14,  /* a URL, but the options say offline */
    GLANCE_ECOSTLY = 15    /* the page took more than time_budget_ms to lay out
                              and extract */
} glance_status;

/* A short English description of a status ("no main content found"). */
const char *glance_strerror(glance_status status);

/* Which extractor answers. */
typedef enum glance_method {
    GLANCE_METHOD_AUTO = 0, /* GCE; BTE when GCE finds nothing or far less text
                               than BTE (auto_min_share); the answer kept to the
                               article's running text (auto_trim); the default */
    GLANCE_METHOD_GCE = 1,  /* Grid, Centering, Expanding (paper 002) alone */
    GLANCE_METHOD_BTE = 2,  /* Body Text Extraction (paper 001) alone */
    GLANCE_METHOD_NODECHAR = 3, /* node characteristics (paper 000) alone */
    GLANCE_METHOD_XPATH = 4,    /* XPath blocks (paper 003) alone */
    GLANCE_METHOD_DANAG = 5,    /* DANAg (paper 004) alone */
    GLANCE_METHOD_ALL = 6       /* auto answers; every extractor also runs on its
                                   own and the JSON reports each one's answer
                                   ("methods") */
} glance_method;

/* "auto", "gce", "bte", "nodechar", "xpath", "danag", "all"; and back (0,
 * or -1 for an unknown name). */
const char *glance_method_name(glance_method m);
int glance_method_from_name(const char *name, glance_method *out);

typedef struct glance_geometry glance_geometry; /* another engine's boxes, below */
/* Node characteristics (paper 000, Liu et al. 2017). */
typedef struct glance_nodechar_options {
    double theta;       /* hyperlink density θ at or over which a node is noise;
                           default 0.333 */
    double delta;       /* text density δ under which a node is content only
                           beside a denser one (Fig. 2); default 0.5 */
    double weight_text; /* α of node fusion (formula 3); β = 1 - α weighs θ;
                           default 0.2 */
    double epsilon;     /* neighbours differing by less merge; default 0.1 (the
                           paper gives none); 0: no fusion */
    double min_density; /* result analyzer: the content's text density must be
                           over this ...; default 0.3 */
    int min_punct;      /* ... and its punctuation marks more than this many
                           (any script's); default 2 */
} glance_nodechar_options;

/* XPath blocks (paper 003, Thanadechteemapat & Fung). */
typedef struct glance_xpath_options {
    double atr_weight;  /* AR = w·ATR + (1 - w)·ANR; default 0.75 */
    double max_ar;      /* a block with AR at or over this is links; default 0.6 */
    int min_chars;      /* a leaf needs this many characters; default 2 */
    int exempt_links;   /* ... a block with fewer links than this (default 2) ... */
    int exempt_leaves;  /* ... among more leaves than this (default 2) is kept
                           whatever its AR */
    const char *footer_phrases; /* a leaf starting with one of these ('|' between
                           them; ASCII letters in any case) is a footer; default
                           "powered by|copyright|©|版权所有|版權所有|著作権|저작권";
                           "" for none */
} glance_xpath_options;

/* DANAg (paper 004, Mohammadzadeh et al. 2011). */
typedef struct glance_danag_options {
    int gap;            /* lines between two paragraphs of the main area, at
                           most; default 20 */
    int radius;         /* smoothing over lines i-r .. i+r; default 1 */
} glance_danag_options;

typedef struct glance_options {
    glance_method method;        /* default GLANCE_METHOD_AUTO */
    double auto_min_share;       /* auto: GCE's answer stands when it holds at least
                                    this share of the words of BTE's; below it, GCE
                                    took a part of the article (or a wrong block)
                                    and BTE answers. Default 0.3; 0 never overrules */
    int auto_trim;               /* auto: when GCE's answer stands, keep of its node
                                    only the stretches BTE's count of words and tags
                                    finds dense (extract_bte_stretches): bylines,
                                    galleries and lists between or around the text
                                    go, and figure captions. Default 1 */
    double auto_stretch_share;   /* ... every stretch scoring at least this share of
                                    the best one; default 0.3 */
    double auto_trim_min_share;  /* ... unless that keeps under this share of GCE's
                                    words: then the node is structured content (a
                                    table, a list) and stays whole; default 0.5 */
    /* Layout */
    int window_w, window_h;      /* window size S_w; default 1920x1080 */
    const char *base_dir;        /* folder that relative stylesheet links resolve
                                    against; NULL: linked stylesheets are skipped.
                                    glance_extract_file sets it to the file's folder. */
    int flex_grid;               /* 1: flex and grid containers get the boxes a browser
                                    gives them (render/compat.h); 0: litehtml 0.6 alone
                                    (stacked full-width children). Default 1 */
    /* GCE (paper 002; DESIGN.md) */
    int grid_rows, grid_cols;    /* default 7x8 */
    double alpha;                /* FIA scroll factor; default 2 */
    double beta;                 /* link node area density threshold; default 0.5 */
    double dw;                   /* width jump factor Δw; default 1.7 */
    int diff_parent;             /* 1: the width-jump rule takes the wider parent
                                    (the paper's pseudocode); default 0, the child */
    int link_area_min_links;     /* a dense link area holds at least this many
                                    links; default 3 */
    double link_area_min_cells;  /* ... and covers at least this many grid cells'
                                    area; default 0.25 */
    double link_text_page_share; /* an element covering this share of the page never
                                    makes its text link text (gce.h); default 0.9,
                                    above 1 for the paper's literal reading */
    /* Clean-up inside the chosen node (both extractors) */
    int cleanup;                 /* 1: leave out <nav>, <aside>, <footer>, forms and
                                    blocks that are mostly link text; default 1 */
    double cleanup_link_share;   /* "mostly": link text over this share of a block's
                                    text; default 0.5 */
    /* The other extractors, each with its paper's values (DESIGN.md) */
    glance_nodechar_options nodechar;
    glance_xpath_options xpath;
    glance_danag_options danag;
    /* Limits */
    size_t max_input_bytes;      /* default 64 MiB */
    int max_depth;               /* element nesting; default 512 */
    size_t max_css_bytes;        /* one stylesheet; default 4 MiB */
    int max_stylesheets;         /* linked stylesheets loaded; default 64 */
    /* What a page may cost: litehtml makes an element per tag and per word
     * and recurses without limit, and no call into it can be interrupted,
     * so each stage is bounded by the input before it runs. Over one of
     * these: GLANCE_ETOOBIG, the message naming the option. */
    size_t max_elements;         /* start tags, counted by a scan before parsing;
                                    default 200 000 */
    size_t max_words;            /* runs of text between spaces and tags, counted
                                    the same way; default 1 000 000 (litehtml
                                    takes ~0.6 KB and ~7 us per word) */
    int max_doc_height;          /* the laid-out document's height in px, checked
                                    after layout; default 1 000 000 */
    /* The page's <style> text in all is held to max_css_bytes too (beyond
     * it, <style> blocks are left out); a selector whose matching could
     * backtrack too long at the page's depth (descendant and sibling
     * combinators over nested elements) is dropped (render/cssfilter.h). */
    long time_budget_ms;         /* parse, layout and extraction in all, checked
                                    between stages (parse, layout, the tree, each
                                    extractor; litehtml cannot be interrupted
                                    within one, which the limits above bound):
                                    GLANCE_ECOSTLY "page too costly"; default
                                    20000; 0: none */
    /* The network (glance_extract_url; remote stylesheets of any page).
     * max_input_bytes bounds a fetched page (decompressed), max_css_bytes and
     * max_stylesheets its stylesheets. */
    int offline;                 /* 1: never touch the network: URLs are refused
                                    (GLANCE_EOFFLINE), remote stylesheets skipped
                                    at once; default 0 */
    int public_only;             /* 1: connect only to public addresses: loopback,
                                    private, link-local, multicast and reserved ones
                                    are refused after DNS and on every redirect (for
                                    a server fetching for strangers); default 0 */
    const char *allow_addrs;     /* with public_only: these exact addresses and ports
                                    are let through all the same, as a comma-separated
                                    list of "IP:PORT" ("127.0.0.1:8000,[::1]:8000"),
                                    numeric as the connection sees them: a test's or an
                                    operator's own upstream. Redirects and stylesheets
                                    elsewhere stay under the policy. NULL: none */
    long connect_timeout_ms;     /* one connection; default 10000 */
    long timeout_ms;             /* the page and its stylesheets in all; default 30000 */
    int max_redirects;           /* default 10 */
    const char *user_agent;      /* NULL: a desktop browser's */
    const char *accept_language; /* NULL: "en-US,en;q=0.9,*;q=0.5" */
    /* Geometry */
    const glance_geometry *geometry; /* NULL (default): litehtml's boxes. Else every
                                    node takes its box from these (a browser's,
                                    tools/chromium-boxes.mjs) before any extractor
                                    runs; their window must be window_w x window_h */
} glance_options;

void glance_options_default(glance_options *opts);

typedef struct glance_context glance_context;

/* NULL when fonts cannot be set up or out of memory. */
glance_context *glance_context_new(void);
void glance_context_free(glance_context *ctx);

typedef struct glance_result glance_result;

/* Extracts the main content of `len` bytes of HTML. UTF-8 is expected
 * (a UTF-8 or UTF-16 byte order mark is honoured; invalid bytes become
 * U+FFFD). *out receives a result unless out of memory, whatever the
 * status: with GLANCE_OK it holds the content; with GLANCE_ENOCONTENT the
 * title and GCE's reasoning (glance_result_json); with an error, the
 * message that says what was wrong (glance_result_message). */
glance_status glance_extract(glance_context *ctx, const char *html, size_t len,
                             const glance_options *opts, glance_result **out);

/* The same for a file ("-" is not special here); relative stylesheet links
 * resolve against the file's folder unless opts->base_dir is set. */
glance_status glance_extract_file(glance_context *ctx, const char *path,
                                  const glance_options *opts, glance_result **out);

/* The same for a page on the web: fetches `url` (http or https; redirects
 * followed) and the stylesheets it links and imports, in parallel, within
 * timeout_ms, reads it in its charset (Content-Type, <meta>, or detected),
 * and extracts. A stylesheet that fails is skipped and reported
 * (glance_result_stylesheet), never fatal; a page that fails gives its own
 * status (GLANCE_EURL ... GLANCE_EOFFLINE, GLANCE_ETOOBIG over
 * max_input_bytes) with the reason in glance_result_message. */
glance_status glance_extract_url(glance_context *ctx, const char *url,
                                 const glance_options *opts, glance_result **out);

/* The same for bytes that came from elsewhere, as a server's client sends
 * them: `charset` is the charset their Content-Type named (NULL: none; then
 * a BOM, <meta> or detection decide), `base_url` the http(s) address they
 * came from (NULL: none): relative stylesheet links resolve against it and
 * are fetched as a fetched page's are (never a local file; base_dir is
 * ignored when it is set). */
glance_status glance_extract_page(glance_context *ctx, const char *html, size_t len,
                                  const char *charset, const char *base_url,
                                  const glance_options *opts, glance_result **out);

/* Runs GCE again on the page `res` already laid out, with other GCE
 * parameters (grid, alpha, beta, dw, ...), replacing the result's content,
 * reasoning and status: what `glance sweep` uses to lay a page out once per
 * window size. The window size must be the one of the layout (else
 * GLANCE_EOPTION); a result whose page could not be laid out gives
 * GLANCE_EOPTION too. */
glance_status glance_result_rerun(glance_result *res, const glance_options *opts);

void glance_result_free(glance_result *res);
glance_status glance_result_status(const glance_result *res);

/* The main content as plain text (block boundaries as line breaks) and as
 * clean HTML; NULL when no main content was found. */
const char *glance_result_text(const glance_result *res);
const char *glance_result_html(const glance_result *res);
/* The page's <title>, white space collapsed; "" when it has none or the
 * page could not be laid out. */
const char *glance_result_title(const glance_result *res);

typedef struct glance_box {
    double x, y, w, h;
} glance_box;

/* The chosen element: its XPath (/html[1]/body[1]/div[2]), tag and border
 * box in document coordinates. NULL / a zero box when none was chosen. */
const char *glance_result_xpath(const glance_result *res);
const char *glance_result_tag(const glance_result *res);
glance_box glance_result_box(const glance_result *res);

/* The extractor that answered ("gce", "bte", "nodechar", "xpath", "danag");
 * NULL when none did. */
const char *glance_result_method(const glance_result *res);

/* Why no main content was found; NULL when it was. */
const char *glance_result_failure(const glance_result *res);

/* A one-line message for a status, with the result's detail when there is
 * one ("no main content found: every candidate is <body> ..."). `res` may
 * be NULL. The string lives as long as the result (or is static). */
const char *glance_result_message(const glance_result *res, glance_status status);

typedef struct glance_timings {
    double parse_ms;   /* HTML and CSS parse, style resolution */
    double layout_ms;  /* layout and building the document tree */
    double gce_ms;     /* GCE */
    double total_ms;   /* the whole call, input checks and serialisation included */
} glance_timings;

glance_timings glance_result_timings(const glance_result *res);

/* Where the page came from: the URL after redirects (NULL for a page not
 * fetched), and the charset it was read in ("UTF-8", "SHIFT_JIS", ...) with
 * what said so: "bom", "http", "meta", "detected" or "utf-8". */
const char *glance_result_url(const glance_result *res);
const char *glance_result_charset(const glance_result *res, const char **from);

/* The remote stylesheets the page asked for: how many, and for each its
 * URL, with *error NULL when it was fetched, else why it was skipped
 * ("HTTP 404", "timed out: ..."). NULL past the end. */
int glance_result_stylesheet_count(const glance_result *res);
const char *glance_result_stylesheet(const glance_result *res, int i, const char **error);

/* Everything as one JSON object: title, text, html, the chosen node's
 * XPath and box, the window and document size, the FIA, the grid and its
 * excluded cells, the centres C_w, C_d, C1-C3, the leaves E1-E3, every
 * candidate with its rule and text-area density, the failure reason, and
 * the timings. Built on first call; NULL only when out of memory. */
const char *glance_result_json(glance_result *res);

/* Shots: the laid-out page painted with cairo, GCE's reasoning drawn on it.
 * Painting costs nothing until asked for: extraction never paints. */
typedef struct glance_shot_options {
    int full;       /* 1: the whole document; 0: the first impression area
                       (GCE's FIA; the window when GCE did not run). Default 0 */
    int overlay;    /* 1: the grid with its excluded cells (edge and dense-link
                       shaded apart), the window and document centres, C1-C3
                       and their leaves E1-E3, every candidate labelled with its
                       walk, rule and text-area density, the answer outlined
                       boldly, a legend in the top right corner; 0: a plain
                       screenshot. Default 1 */
    int max_height; /* a taller image is cut at this height (px), with a note
                       drawn at the cut; at most 32767, and lower for very wide
                       windows (the image stays under 512 MiB). Default 16384 */
} glance_shot_options;

void glance_shot_options_default(glance_shot_options *opts);

/* Paints the page `res` laid out, whatever its status (a page GCE found
 * nothing on is worth seeing too), as a PNG of the window's width and the
 * height of the FIA or the document, and writes it to `png_path`. The
 * context that made `res` must still be alive and used by no other thread
 * meanwhile: the page's fonts are its. GLANCE_EOPTION when the page was never
 * laid out or an option is out of range, GLANCE_EIO when the file cannot be
 * written (errno says why), GLANCE_ENOMEM. `opts` may be NULL (defaults). */
glance_status glance_result_shot(glance_result *res, const glance_shot_options *opts,
                                 const char *png_path);
/* The same PNG in memory: *png (malloc'd; the caller frees it) of *len bytes. */
glance_status glance_result_shot_png(glance_result *res, const glance_shot_options *opts,
                                     unsigned char **png, size_t *len);
/* Another engine's boxes --------------------------------------------------
 *
 * litehtml 0.6 lays out no flexbox or grid. A browser does: its boxes of a
 * page, keyed by the XPath of each node, as tools/chromium-boxes.mjs writes
 * them ({"window": {w, h}, "document": {w, h}, "nodes": {XPATH: [x, y, w, h]
 * or null for an element, [[x, y, w, h], ...] line boxes for a text node}}),
 * can stand in for litehtml's: glance then still parses the page and builds
 * its tree with litehtml (text, structure and styles stay glance's), and
 * gives every node the browser's box before any extractor runs. A geometry
 * is read-only once read: threads may share it. */

/* Reads boxes from JSON text or a file: GLANCE_OK; GLANCE_EINPUT (not such
 * a JSON), GLANCE_EIO or GLANCE_ENOMEM with a message in `why`. */
glance_status glance_geometry_read(const char *json, size_t len, glance_geometry **out,
                                   char *why, size_t why_cap);
glance_status glance_geometry_read_file(const char *path, glance_geometry **out, char *why,
                                        size_t why_cap);
void glance_geometry_free(glance_geometry *geo);
/* The window size the boxes were laid out in. */
void glance_geometry_window(const glance_geometry *geo, int *w, int *h);

/* How a result's tree took the boxes of glance_options.geometry. */
typedef struct glance_geometry_stats {
    int applied;      /* 1 when the result's boxes come from a geometry */
    size_t matched;   /* nodes of glance's tree the boxes have an XPath for */
    size_t unmatched; /* nodes they have none for: these take their parent's box */
    size_t unused;    /* XPaths of the boxes no node of glance's tree has */
} glance_geometry_stats;

glance_geometry_stats glance_result_geometry(const glance_result *res);

/* Fidelity: litehtml's boxes of a page against another engine's. */
typedef struct glance_fidelity_item {
    const char *xpath;  /* lives as long as the result */
    glance_box glance;  /* litehtml's border box (0x0 when glance hides it) */
    glance_box other;   /* the geometry's */
    size_t chars;       /* characters of text the element holds */
    int agree;
} glance_fidelity_item;

typedef struct glance_fidelity {
    size_t compared;    /* elements held to the test that the other engine shows */
    size_t agree;       /* ... whose left edge and width agree within the tolerance */
    size_t not_shown;   /* held to the test, but not rendered (or 0 wide) there: left out */
    size_t unmatched;   /* held to the test, but absent from the boxes: left out */
    glance_fidelity_item *items; /* the compared elements in document order */
    size_t n_items;
} glance_fidelity;

/* Compares the boxes of `res`'s page, laid out by litehtml (without a
 * geometry: else GLANCE_EOPTION), to `geo`'s, which must be of the same
 * window. Held to the test: the elements under <body> whose text (all of
 * it, shown or not) has at least `min_chars` characters other than white
 * space, and the elements that carry the attribute `mark` (when not NULL).
 * An element agrees when its left edge and its width are both within
 * `tolerance` x the window width of the other engine's. GLANCE_OK, or
 * GLANCE_EOPTION / GLANCE_ENOMEM. Free with glance_fidelity_free. */
glance_status glance_result_fidelity(glance_result *res, const glance_geometry *geo,
                                     size_t min_chars, const char *mark, double tolerance,
                                     glance_fidelity *out);
void glance_fidelity_free(glance_fidelity *f);

#ifdef __cplusplus
}
#endif

#endif
