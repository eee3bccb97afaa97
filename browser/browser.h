/* browser/: Debian's headless Chromium driven over the DevTools protocol on
 * a pipe (--remote-debugging-pipe), from C.
 *
 * One `browser` is one chromium process, started on the first load and
 * reused; each page gets a fresh browser context (no cookies, cache or
 * storage pass between pages) that is disposed of when the load ends. Every
 * request the page makes is paused (the Fetch domain) and answered by the
 * caller's callback: the browser itself reaches no network (a proxy that
 * refuses at once is the second wall, for what interception does not see,
 * WebSockets among them). The result is the DOMSnapshot of the page, in a
 * small versioned JSON envelope, and optionally a full-page PNG.
 *
 * No globals: two `browser`s on two threads share nothing. A `browser` is
 * used by one thread at a time. The chromium process gets SIGKILL when the
 * THREAD that started it ends (PR_SET_PDEATHSIG): start it (the first load)
 * from a thread that outlives its use; a browser found dead is started
 * again on the next load. */
#ifndef GLANCE_BROWSER_BROWSER_H
#define GLANCE_BROWSER_BROWSER_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct browser browser; /* one chromium process and its pipe */

typedef struct browser_opts {
    const char *executable; /* NULL: $GLANCE_CHROMIUM if set, else the first of chromium, chromium-browser, google-chrome found on PATH */
    int window_w, window_h; /* the window (Emulation.setDeviceMetricsOverride, deviceScaleFactor 1); <= 0: 1280 x 800 */
    int mobile;             /* 1: a phone's or tablet's browser (mobile 1, touch): the page's meta viewport sets the
                             * layout viewport (980 px wide without one), which the snapshot's "window" then gives */
    int scripts;            /* 1: JavaScript on; 0: Emulation.setScriptExecutionDisabled */
    long budget_ms;         /* the whole of one page: navigate, wait, snapshot, counted once the browser is up (a start, ~0.3 s, is not the page's); past it the page is given up (BROWSER_ETIME); <= 0: 10000 */
    long quiet_ms;          /* after the load event, wait until no request has been made for this long (e.g. 500), within the budget */
    long virtual_ms;        /* > 0 (scripts on): the page's timers run on a virtual clock (Emulation.setVirtualTimePolicy,
                             * pauseIfNetworkFetchesPending) that advances only while no request is pending, and the page
                             * is taken once this much of it has passed (and the waits above are over): the same timers
                             * have run whatever the machine's load; 0: the page's own clock */
    int max_requests;       /* requests one page may make (beyond them: failed) e.g. 300; <= 0: no limit */
    int screenshot;         /* 1: also a full-page PNG (clipped to the document, at most BROWSER_SHOT_MAX_H px tall) */
    const char *const *computed_styles; /* NULL-terminated; NULL: the default list: display, visibility, position, font-size, font-weight, white-space, overflow-x, overflow-y, opacity */
} browser_opts;

#define BROWSER_SHOT_MAX_H 16384

typedef struct browser_request {
    const char *url;           /* absolute */
    const char *method;        /* "GET", ... */
    const char *resource_type; /* the protocol's ResourceType: "Document", "Stylesheet", "Script", "Image", "XHR", "Fetch", ... */
    int is_main;               /* the top document's own navigation request (and its redirects) */
} browser_request;

typedef struct browser_response {
    int status;               /* an HTTP status to fulfil with; 0: refuse the request (Fetch.failRequest, "BlockedByClient") */
    const char *content_type; /* NULL: none */
    const char *location;     /* for a 3xx: the Location header (the browser then follows and asks again) */
    const char *body; size_t len; /* owned by the callback's ud, valid until the next call or the load's end */
} browser_response;

/* Called on the thread that called browser_load, for every request the
 * page makes. `out` is zeroed before the call (a refusal). */
typedef void (*browser_fetch_fn)(void *ud, const browser_request *rq, browser_response *out);

typedef struct browser_capture {
    char *snapshot;  size_t snapshot_len; /* JSON text: {"glance_snapshot":1,"url":...,"window":{"width":W,"height":H},"scripts":true|false,"snapshot":{"documents":[...],"strings":[...]}} */
    unsigned char *png; size_t png_len;   /* when opts.screenshot */
    double start_ms, load_ms, snapshot_ms; /* start_ms: browser start if this load started it, else 0; load_ms: navigate to the end of the wait; snapshot_ms: captureSnapshot and the envelope */
    int requests, refused;                 /* requests the page made; how many were refused (by the callback, past max_requests, or navigations away) */
} browser_capture;

typedef enum browser_status {
    BROWSER_OK = 0,
    BROWSER_ENOMEM,
    BROWSER_ENOTFOUND, /* no chromium executable */
    BROWSER_ESTART,    /* it did not start or answer */
    BROWSER_ETIME,     /* over budget_ms */
    BROWSER_ECRASH,    /* it or the page's renderer died */
    BROWSER_EPROTO     /* an answer we could not read, a protocol error, or the navigation itself failed */
} browser_status;

browser *browser_new(void); /* nothing started yet; NULL when out of memory */
/* Loads `url` (its requests answered by `fetch`) and captures it into *out
 * (zeroed first; free with browser_capture_free whatever the status). On
 * failure `why` (cap bytes) says why in one line. */
browser_status browser_load(browser *b, const browser_opts *o, const char *url, browser_fetch_fn fetch, void *ud,
                            browser_capture *out, char *why, size_t cap);
void browser_capture_free(browser_capture *c);
void browser_free(browser *b);          /* kills the process group, reaps it, removes the profile folder */
int browser_restarts(const browser *b); /* times a dead browser was started again */
pid_t browser_pid(const browser *b);    /* 0 when not running */
const char *browser_profile(const browser *b); /* the --user-data-dir of the running browser, or NULL */
const char *browser_find(char *buf, size_t cap); /* path of the executable browser_load would use (opts.executable NULL), or NULL */
/* Browser.getVersion's product ("HeadlessChrome/156..."), starting it if need be. */
browser_status browser_version(browser *b, const browser_opts *o, char *buf, size_t cap);
const char *browser_status_name(browser_status s);

#ifdef __cplusplus
}
#endif

#endif
