/* glance: the main content of a web page, found where a reader's eye lands.
 *
 * The page is laid out with litehtml at a real window size with real fonts;
 * GCE (Grid, Centering, Expanding; Jung et al., IEEE Access 2022) picks the
 * element that holds the main content.
 *
 *     glance_context *ctx = glance_context_new();
 *     glance_result *res = NULL;
 *     glance_status st = glance_extract(ctx, html, len, NULL, &res);
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
 *
 * What a call can bound: by default the library works in the caller's
 * process and thread (in-process), and cannot interrupt litehtml inside
 * the parse or the layout. The input limits (max_input_bytes, max_elements,
 * max_words, max_depth, max_css_bytes, ...) are checked before a stage runs
 * and keep each stage short for what they measure; time_budget is checked
 * between stages only, so a page that is costly within one stage (50 000
 * float:left siblings: tens of seconds of layout) returns GLANCE_ECOSTLY
 * only once that stage is over; and max_memory is not applied at all (a
 * library cannot limit its caller's address space).
 *
 * The option "isolate" (off by default) bounds both: each glance_extract,
 * _extract_file, _extract_page and _extract_url call forks a child process
 * that runs the extraction on a copy of the context and sends the result
 * back over a socket. The child's address space may grow by max_memory
 * over the caller's at the fork (RLIMIT_AS; not set in a build with
 * AddressSanitizer); the call waits until time_budget and a second (and
 * the network's timeout more unless "offline": the budget counts from the
 * end of the fetch; no deadline when time_budget is 0), then SIGKILLs and
 * reaps the child and returns GLANCE_ECOSTLY ("... its process (isolate)
 * was killed ..."). A child that dies or ends without an answer (over
 * max_memory: malloc failed, or litehtml crashed on it) gives
 * GLANCE_ENOMEM, its message naming the signal or exit and max_memory; a
 * fork that fails, GLANCE_ENOMEM too. The result answers every accessor
 * as an in-process one does (its JSON built in the child; the stages'
 * timings the child's, total_ms the caller's, the fork included), but holds no
 * laid-out page: glance_result_shot, _shot_png, _rerun and _fidelity give
 * GLANCE_EOPTION on it. What isolate costs and assumes:
 *   - a fork per call (a few ms, and the pages the child writes copied);
 *   - the child holds only the calling thread: the other threads of the
 *     caller are not there, and a lock one of them held at the fork (in
 *     the caller's code or a library's) stays held in the child; an
 *     extraction takes no lock another context holds but the C library's
 *     and libcurl's set-up, and a child that blocks on one all the same is
 *     killed at the deadline;
 *   - the child runs glance's code only, with the default action for
 *     SIGSEGV, SIGBUS, SIGABRT, SIGFPE and SIGILL, and leaves with _exit
 *     (no atexit handler, no stdio buffer of the caller's written twice);
 *     it gets SIGKILL if the calling thread ends (PR_SET_PDEATHSIG);
 *   - the call reaps its child with waitpid on its pid: a caller that sets
 *     SIGCHLD to SIG_IGN, or reaps every child (waitpid(-1)) on another
 *     thread, may take the child's status (the call then still answers,
 *     killed or not, but cannot tell a crash from an exit);
 *   - Linux (PR_SET_PDEATHSIG, /proc/self/statm for the caller's size).
 * The glance command bounds pages the same way without the option (extract,
 * bench and serve: worker processes with RLIMIT_AS of max_memory, SIGKILLed
 * past time_budget and a second; its --in-process does not).
 */
#ifndef GLANCE_H
#define GLANCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GLANCE_VERSION "0.2.0"

/* The version of the library as it was built ("0.2.0"): GLANCE_VERSION is
 * the header's, which a program compiled against an older header keeps;
 * this is the libglance.so it runs with (a binding that loads the library
 * by name, such as python/glance, reads it here). */
const char *glance_version(void);

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
    GLANCE_ECOSTLY = 15,   /* the page took more than time_budget_ms to lay out
                              and extract (checked between stages: a stage
                              already running is not interrupted; with the
                              option isolate, its process killed past the
                              budget and a second) */
    GLANCE_EBROWSER = 16   /* the browser (engine chromium) is not installed, did not
                              start or stopped answering */
} glance_status;

/* A short English description of a status ("no main content found"). */
const char *glance_strerror(glance_status status);

/* The vocabulary of the statuses, one word each, as the JSON, the server
 * and the batch output all write them: "ok", "nocontent", "badinput",
 * "toobig", "badoption", "io", "nomem", "layout", "fonts", "badurl",
 * "fetch", "timeout", "addressrefused", "redirects", "offline", "costly",
 * "browser". */
const char *glance_status_name(glance_status status);

/* Which extractor answers ----------------------------------------------------
 *
 * "auto" (the default): glance's scorer ("score"), which weighs every block
 * of the laid-out page with the other methods' answers as votes; "all": auto
 * answers, and every method also runs on its own, its answer reported side
 * by side in the JSON ("methods"); or one method alone: "gce" (the paper's
 * GCE), "bte", "nodechar", "xpath", "danag", and whatever later versions
 * add. The list, with a line of documentation each: */
int glance_method_count(void);
const char *glance_method_name(int i); /* NULL past the end */
const char *glance_method_doc(int i);  /* one line; NULL past the end */

typedef struct glance_geometry glance_geometry; /* another engine's boxes, below */

/* Options ----------------------------------------------------------------------
 *
 * Every option has a key and is set from text, so that adding an option
 * changes no struct a program was compiled against (glance is 0.x: this
 * replaced the public struct of 0.1, once):
 *
 *     glance_options *opt = glance_options_new();
 *     if (glance_options_set(opt, "method", "danag") != GLANCE_OK ||
 *         glance_options_set(opt, "danag.gap", "20") != GLANCE_OK)
 *         fprintf(stderr, "%s\n", glance_options_error(opt));
 *
 * Keys: the page's options ("window", "max_depth", "timeout", ...) and each
 * method's ("gce.alpha", "danag.gap", "classic.min_share", ...);
 * glance_option_describe lists them all with their types, ranges, defaults
 * and documentation, and docs/options.md has the same table. '-' and '_' are the
 * same in a key. Values: numbers as C writes them; sizes in bytes, with k,
 * M or G for powers of 1024; durations in seconds, or with "ms", "s" or
 * "min"; switches "on"/"off" (or 1/0, true/false, yes/no); a window "WxH". */
typedef struct glance_options glance_options;

/* Every option at its default; NULL when out of memory. */
glance_options *glance_options_new(void);
glance_options *glance_options_copy(const glance_options *opts);
void glance_options_free(glance_options *opts);

/* Sets an option from text: GLANCE_OK, GLANCE_EOPTION (an unknown key, a
 * value of the wrong form or out of range: glance_options_error says which,
 * and the option keeps its value) or GLANCE_ENOMEM. */
glance_status glance_options_set(glance_options *opts, const char *key, const char *value);

/* The same for a value from someone the caller trusts less (a server's
 * client): an option marked GLANCE_OPTION_LOCAL is refused, and one marked
 * GLANCE_OPTION_LIMIT may only be lowered (a higher value is refused). */
glance_status glance_options_restrict(glance_options *opts, const char *key, const char *value);

/* Why the last glance_options_set or _restrict was refused; "" when none. */
const char *glance_options_error(const glance_options *opts);

/* An option's value as text, in the form glance_options_set reads
 * (malloc'd; the caller frees it); NULL for an unknown key or out of
 * memory. */
char *glance_options_get(const glance_options *opts, const char *key);

/* Another engine's boxes to use instead of litehtml's (NULL: litehtml's);
 * borrowed, so `geo` must outlive the options. Their window must be the
 * options' "window" when a page is extracted. */
void glance_options_set_geometry(glance_options *opts, const glance_geometry *geo);

/* What an option is, for documentation and for front ends that offer every
 * option (the command's flags, the server's query parameters). */
#define GLANCE_OPTION_LOCAL 0x100 /* the operator's alone: local files, the network
                                     policy, the identity sent to servers */
#define GLANCE_OPTION_LIMIT 0x200 /* a bound on what a page may cost */

typedef struct glance_option_info {
    size_t size;          /* set by the caller: sizeof(glance_option_info); the
                             library fills no more than that, so a program
                             built against an older header still works */
    const char *key;      /* "gce.alpha" */
    const char *alias;    /* an older flag's name ("alpha"); NULL: none */
    const char *group;    /* "page", or a method's name */
    const char *type;     /* "on|off", "integer", "count", "number", "seconds",
                             "WxH", "name", "text" */
    const char *def;      /* the default as text; NULL: none (unset) */
    const char *choices;  /* a name's choices, '|' between them; NULL otherwise */
    const char *doc;      /* one line */
    double min, max;      /* a number's range (durations in seconds) */
    int above_min;        /* 1: the minimum itself is out of range */
    unsigned flags;       /* GLANCE_OPTION_* */
} glance_option_info;

int glance_option_count(void);
/* Describes option i (0 .. glance_option_count() - 1): GLANCE_OK, or
 * GLANCE_EOPTION past the end or for a size of 0. */
glance_status glance_option_describe(int i, glance_option_info *info);
/* Option i's range in words ("0 to 1", "above 0, at most 100", "child|parent")
 * into buf; the length it needed (as snprintf). */
int glance_option_range(int i, char *buf, size_t cap);

typedef struct glance_context glance_context;

/* NULL when fonts cannot be set up or out of memory. */
glance_context *glance_context_new(void);
void glance_context_free(glance_context *ctx);

/* What the context's fonts (fontconfig's, as the process found them) give
 * each script that matters: one line per script, "Latin: Liberation Sans",
 * naming the face that draws it in the default sans-serif font (CSS
 * sans-serif: Arial, Liberation Sans where installed) or one of its
 * fallbacks, or "Thai: none (metric fallback)" when no installed face has
 * it. A script without a face still lays out, its characters measured at
 * a mean advance for the script (an em for Han, kana and Hangul), so the
 * chosen block does not depend on it; but its text is drawn as empty boxes
 * in shots. malloc'd; the caller frees it. NULL when out of memory. */
char *glance_fonts_report(glance_context *ctx);

/* The browser the option engine "chromium" would use (the option browser,
 * else $GLANCE_CHROMIUM, else chromium on the PATH): its path and the
 * product it says it is ("/usr/bin/chromium (Chrome/156.0.8078.108)"),
 * written into buf. Starts the context's browser to ask it, which later
 * pages then reuse. GLANCE_OK, or GLANCE_EBROWSER with buf saying why (none
 * found, or it would not start). opts may be NULL. */
glance_status glance_browser_version(glance_context *ctx, const glance_options *opts, char *buf,
                                     size_t cap);

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
 * resolve against the file's folder unless the option "base_dir" is set. */
glance_status glance_extract_file(glance_context *ctx, const char *path,
                                  const glance_options *opts, glance_result **out);

/* The same for a page on the web: fetches `url` (http or https; redirects
 * followed) and the stylesheets it links and imports, in parallel, within
 * the option "timeout", reads it in its charset (Content-Type, <meta>, or detected),
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

/* The same for what a browser saw: a DOMSnapshot.captureSnapshot of the
 * laid-out page after its scripts ran, in glance's versioned envelope
 * (docs/snapshot.md: {"glance_snapshot": 1, "url", "window", "scripts",
 * "snapshot"}), as a pipeline that already drives a headless browser
 * (Puppeteer, Playwright, chromedp) takes it. The window is the
 * envelope's; links resolve against its "url". Every method, the
 * metadata and the JSON run as on glance's own layout; the options'
 * limits on elements, words, depth and height apply. GLANCE_EINPUT when
 * the text is no such snapshot (the message says what is wrong). */
glance_status glance_extract_snapshot(glance_context *ctx, const char *json, size_t len,
                                      const glance_options *opts, glance_result **out);

/* Runs the extraction again on the page `res` already laid out, with other
 * options (a method, its parameters), replacing the result's content,
 * reasoning and status: what `glance sweep` uses to lay a page out once per
 * window size. The window size must be the one of the layout (else
 * GLANCE_EOPTION); a result whose page could not be laid out, or was laid
 * out in a child process (the option isolate), gives GLANCE_EOPTION too. */
glance_status glance_result_rerun(glance_result *res, const glance_options *opts);

void glance_result_free(glance_result *res);
glance_status glance_result_status(const glance_result *res);

/* The main content as plain text (block boundaries as line breaks) and as
 * clean HTML; NULL when no main content was found. */
const char *glance_result_text(const glance_result *res);
const char *glance_result_html(const glance_result *res);
/* The main content as Markdown (CommonMark, with GitHub's tables and
 * strikethrough): headings, paragraphs, lists, links, emphasis, code,
 * block quotes, tables, images, line breaks; the Markdown of
 * glance_result_html. Built on first call; NULL when no main content was
 * found (or out of memory). */
const char *glance_result_markdown(glance_result *res);
/* The page's title: its headline without the site's name (the metadata's
 * "title", below), else its <title>, white space collapsed; "" when it has
 * none or the page could not be laid out. */
const char *glance_result_title(const glance_result *res);

/* Metadata ---------------------------------------------------------------
 *
 * What the page says about itself, in its <meta> tags, Open Graph, Twitter
 * cards, JSON-LD and microdata, and what it shows under its headline (the
 * byline and the date, found by their markup or their place, in any
 * language). Read for every page that was laid out, with or without main
 * content. Fields by name, as the JSON's "metadata" has them:
 *   "title"         the headline, without the site's name
 *   "byline"        the byline as the page shows it
 *   "published", "modified"  ISO 8601 (2024-03-05, 2024-03-05T08:00:00+01:00)
 *   "description", "language" (a language tag: de, pt-BR), "dir" (ltr, rtl)
 *   "canonical_url", "site_name", "image" (the lead image; URLs absolute
 *   when the page's address is known)
 * glance_meta_field(i) lists them (NULL past the end). A field's value, or
 * NULL when the page does not say; *from (when not NULL) says where it
 * came from: "json-ld", "og:title", "microdata", "meta" keys such as
 * "description" or "article:published_time", "html" (an attribute of
 * <html>), "title" (the <title>), "h1" (the headline), "byline:markup",
 * "byline:place", "time", "content" (an image of the main content),
 * "text" (the direction of its letters). Strings live as long as the
 * result. */
const char *glance_meta_field(int i);
const char *glance_result_meta(const glance_result *res, const char *field, const char **from);
/* The authors, in the page's order (*from as above). */
int glance_result_author_count(const glance_result *res);
const char *glance_result_author(const glance_result *res, int i, const char **from);
/* Minutes a reader takes over the main content (at least 1; 0 when none
 * was found): 238 words a minute where words are spaced, 300 characters a
 * minute in scripts written without spaces. */
int glance_result_reading_minutes(const glance_result *res);

typedef struct glance_box {
    double x, y, w, h;
} glance_box;

/* The chosen element: its XPath (/html[1]/body[1]/div[2]), tag and border
 * box in document coordinates. NULL / a zero box when none was chosen. */
const char *glance_result_xpath(const glance_result *res);
const char *glance_result_tag(const glance_result *res);
glance_box glance_result_box(const glance_result *res);

/* The method that answered ("score" for auto, "gce", "classic", ...); NULL
 * when none did. */
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
    double extract_ms; /* choosing the content on the laid-out tree: every
                          method that ran (auto's scorer runs the others as
                          its votes), the clean-up and serialising the
                          answer */
    double total_ms;   /* the whole call, input checks and fetching included */
    double fetch_ms;   /* the page and its stylesheets from the network */
    /* parse_ms in its parts: */
    double css_ms;     /* glance's own pass before litehtml: the scan of the
                          tags, the CSS filter, the page rewritten */
    double html_ms;    /* litehtml's HTML parse (gumbo) and its elements made */
    double style_ms;   /* the stylesheets parsed, applied to every element and
                          their properties read (litehtml's style resolution) */
    /* and of layout_ms: */
    double tree_ms;    /* the dom tree built from the laid-out page */
    /* With the browser (engine chromium): parse_ms is its load (the
     * navigation, the page's requests and scripts, the quiet wait),
     * layout_ms its snapshot and the tree; in their parts: */
    double browser_start_ms; /* the context's browser started for this page (0: it ran) */
    double load_ms;          /* navigation to the snapshot's request */
    double snapshot_ms;      /* DOMSnapshot.captureSnapshot */
} glance_timings;

glance_timings glance_result_timings(const glance_result *res);

/* What the browser saw (engine chromium, with the option keep_snapshot
 * on): its snapshot in the envelope glance_extract_snapshot reads, *len
 * its length. NULL otherwise. */
const char *glance_result_snapshot(const glance_result *res, size_t *len);

/* Which engine laid the page out: "litehtml", "chromium" or "snapshot"
 * (NULL before layout). */
const char *glance_result_engine(const glance_result *res);

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

/* The scripts of the page's text that no installed face has ("Thai",
 * "Devanagari", "Han"; the JSON's "fonts": {"missing_scripts": [...]}):
 * its characters were measured with the metric fallback
 * (glance_fonts_report). NULL past the end, or before layout. */
const char *glance_result_missing_script(const glance_result *res, int i);

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
    int overlay;    /* 1: with the default method (the scorer), every block
                       it saw, outlined in its probability's colour, those
                       taken filled, the headline marked, those a rule
                       dropped hatched and named, ranks and probabilities,
                       and a legend in a margin of 380 px right of the page
                       (the PNG is that much wider); with another method,
                       the grid with its excluded cells (edge and dense-link
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
 * height of the FIA or the document, and writes it to `png_path`. `ctx`
 * must be the context that made `res` (the page's fonts are its), used by
 * no other thread meanwhile. GLANCE_EOPTION when the page was never laid
 * out or was laid out in a child process (the option isolate), `ctx` is
 * another context or an option is out of range, GLANCE_EIO
 * when the file cannot be written (errno says why), GLANCE_ENOMEM. `opts`
 * may be NULL (defaults). */
glance_status glance_result_shot(glance_context *ctx, glance_result *res,
                                 const glance_shot_options *opts, const char *png_path);
/* The same PNG in memory: *png (malloc'd; the caller frees it) of *len bytes. */
glance_status glance_result_shot_png(glance_context *ctx, glance_result *res,
                                     const glance_shot_options *opts, unsigned char **png,
                                     size_t *len);
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
 * space, and the elements that carry the attribute `mark` (when not NULL;
 * a data-* or aria-* mark, which glance leaves out of the tree unless a
 * stylesheet names it, needs the option keep_attributes: else
 * GLANCE_EOPTION).
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
