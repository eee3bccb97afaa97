/* lib/: the engines that are not litehtml: a real browser (browser/,
 * Chromium over the DevTools protocol) loads the page and runs its
 * scripts, every request it makes answered through glance's own fetcher
 * (net/, with its address policy and limits) or refused; and a snapshot a
 * caller's browser took. Both give the tree render/snapshot.c builds, on
 * which the pipeline goes on as for litehtml's. */
#ifndef GLANCE_LIB_BROWSE_H
#define GLANCE_LIB_BROWSE_H

#include <stddef.h>

#include "glance.h"
#include "net/net.h"

typedef struct browse_stats {
    double start_ms;    /* the browser started for this page (0: it was running) */
    double load_ms;     /* navigation, the page's requests, the quiet wait */
    double snapshot_ms; /* DOMSnapshot.captureSnapshot */
    double tree_ms;     /* the dom tree built from the snapshot */
    int requests, refused; /* requests the page made; refused of them */
    int restarts;       /* the context's browser started again after dying */
    size_t snapshot_bytes;
    int sent;           /* engine auto: the page went to the browser */
    int scripts_emptied; /* its scripts emptied the page: read again without them */
} browse_stats;

/* engine auto: a page whose scripts run and of which litehtml shows at
 * most this many characters (white space aside) is an application's
 * shell, and goes to the browser. */
#define BROWSE_SHELL_CHARS 200

/* engine chromium: a page whose markup holds at least this many
 * characters of text, of which its scripts leave less than a quarter
 * shown, is read again with scripts off (a saved copy whose scripts take
 * it down, a wall). */
#define BROWSE_EMPTIED_CHARS 500

/* The engines (the option engine). */
enum { BROWSE_LITEHTML = 0, BROWSE_CHROMIUM = 1, BROWSE_AUTO = 2 };

/* The page `utf8` (its address `page_url`, NULL for a page from a file or
 * bytes) loaded in the context's browser, its snapshot built into
 * res->dom, then the rest of the pipeline. Each request the page makes
 * goes through net/ in a session of its own, within what is left of the
 * budget (offline: every request but the page's own and, for a file, its
 * folder's files is refused). */
glance_status browse_page(glance_context *ctx, glance_result *res, const char *utf8,
                          const glance_options *o, const char *page_url);

/* A snapshot a caller's browser took (render/snapshot.h's envelope) into
 * res->dom, then the rest of the pipeline. */
glance_status browse_snapshot(glance_context *ctx, glance_result *res, const char *json,
                              size_t len, const glance_options *o);

/* glance_browser_version. */
glance_status browse_version(glance_context *ctx, const glance_options *o, char *buf, size_t cap);

/* engine auto: does the page, as litehtml showed it (its status `st`),
 * look like the shell of an application whose scripts build its content?
 * 1 or 0. */
int browse_wants_browser(const glance_result *res, const char *utf8, glance_status st);

#endif
