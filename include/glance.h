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
    GLANCE_EFONTS = 8      /* no usable font is installed */
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

/* Everything as one JSON object: title, text, html, the chosen node's
 * XPath and box, the window and document size, the FIA, the grid and its
 * excluded cells, the centres C_w, C_d, C1-C3, the leaves E1-E3, every
 * candidate with its rule and text-area density, the failure reason, and
 * the timings. Built on first call; NULL only when out of memory. */
const char *glance_result_json(glance_result *res);

#ifdef __cplusplus
}
#endif

#endif
