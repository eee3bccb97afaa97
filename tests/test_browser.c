/* browser/: headless Chromium over the DevTools protocol, every request
 * answered by the test's callback. Skipped (a line naming chromium) when no
 * chromium is installed, unless CI=true, where that is a failure. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "base/clock.h"
#include "browser/browser.h"

/* ---- helpers ---- */

static int have_chromium(void)
{
    char buf[4096];
    if (browser_find(buf, sizeof buf))
        return 1;
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0)
        fail_msg("CI=true and no chromium executable found (install chromium or set GLANCE_CHROMIUM)");
    printf("test_browser: skipped: no chromium executable (chromium, chromium-browser, google-chrome on PATH, "
           "or GLANCE_CHROMIUM)\n");
    return 0;
}

#define NEED_CHROMIUM()                                                                                          \
    do {                                                                                                         \
        if (!have_chromium())                                                                                    \
            skip();                                                                                              \
    } while (0)

/* A site: each route a URL's answer. */
typedef struct route {
    const char *url;
    int status;
    const char *type;
    const char *body;
    const char *location;
    int sleep_ms; /* the callback takes this long */
} route;

#define MAX_SEEN 512

typedef struct site {
    const route *routes;
    char *seen[MAX_SEEN];
    int nseen;
    int calls;
} site;

static void site_fetch(void *ud, const browser_request *rq, browser_response *out)
{
    site *s = ud;
    s->calls++;
    if (s->nseen < MAX_SEEN)
        s->seen[s->nseen++] = strdup(rq->url);
    for (const route *r = s->routes; r && r->url; r++) {
        size_t n = strlen(r->url);
        /* A route ending in '*' is a prefix. */
        if (n && r->url[n - 1] == '*' ? strncmp(rq->url, r->url, n - 1) == 0 : strcmp(rq->url, r->url) == 0) {
            if (r->sleep_ms)
                usleep((useconds_t)r->sleep_ms * 1000);
            out->status = r->status;
            out->content_type = r->type;
            out->body = r->body;
            out->len = r->body ? strlen(r->body) : 0;
            out->location = r->location;
            return;
        }
    }
}

static void site_clear(site *s)
{
    for (int i = 0; i < s->nseen; i++)
        free(s->seen[i]);
    s->nseen = 0;
    s->calls = 0;
}

static int site_saw(const site *s, const char *prefix)
{
    for (int i = 0; i < s->nseen; i++)
        if (strncmp(s->seen[i], prefix, strlen(prefix)) == 0)
            return 1;
    return 0;
}

static browser_opts opts(long budget)
{
    browser_opts o;
    memset(&o, 0, sizeof o);
    o.window_w = 1024;
    o.window_h = 768;
    o.scripts = 1;
    o.budget_ms = budget;
    o.quiet_ms = 300;
    o.max_requests = 300;
    return o;
}

/* The snapshot's strings table joined, for looking text up. */
static json_object *snap_parse(const browser_capture *c)
{
    json_tokener *tok = json_tokener_new_ex(64);
    json_object *o = json_tokener_parse_ex(tok, c->snapshot, (int)c->snapshot_len);
    assert_int_equal(json_tokener_get_error(tok), json_tokener_success);
    json_tokener_free(tok);
    return o;
}

static json_object *get(json_object *o, const char *k)
{
    json_object *v = NULL;
    if (!o || !json_object_object_get_ex(o, k, &v))
        return NULL;
    return v;
}

static int snap_has_text(const browser_capture *c, const char *needle)
{
    json_object *o = snap_parse(c);
    json_object *strings = get(get(o, "snapshot"), "strings");
    int found = 0;
    for (size_t i = 0; strings && i < json_object_array_length(strings); i++)
        if (strstr(json_object_get_string(json_object_array_get_idx(strings, i)), needle))
            found = 1;
    json_object_put(o);
    return found;
}

/* A normal page loads: the browser is usable after whatever came before. */
static void load_normal(browser *b)
{
    static const route r[] = {
        {"http://ok.test/", 200, "text/html", "<title>ok</title><p>The next page loads normally.</p>", NULL, 0},
        {NULL, 0, NULL, NULL, NULL, 0}};
    site s = {r, {0}, 0, 0};
    browser_opts o = opts(5000);
    browser_capture c;
    char why[256];
    browser_status st = browser_load(b, &o, "http://ok.test/", site_fetch, &s, &c, why, sizeof why);
    if (st != BROWSER_OK)
        fail_msg("the next page: %s: %s", browser_status_name(st), why);
    assert_true(snap_has_text(&c, "The next page loads normally."));
    browser_capture_free(&c);
    site_clear(&s);
}

/* ---- tests ---- */

static void static_page(void **state)
{
    NEED_CHROMIUM();
    static const route r[] = {
        {"http://static.test/", 200, "text/html; charset=utf-8",
         "<!doctype html><title>Static</title><style>p{font-size:20px}</style>"
         "<h1>Glance static page</h1><p>Some text that the browser lays out.</p><img src=/i.png>",
         NULL, 0},
        {NULL, 0, NULL, NULL, NULL, 0}};
    site s = {r, {0}, 0, 0};
    browser *b = browser_new();
    assert_non_null(b);
    browser_opts o = opts(10000);
    browser_capture c;
    char why[256];
    browser_status st = browser_load(b, &o, "http://static.test/", site_fetch, &s, &c, why, sizeof why);
    if (st != BROWSER_OK)
        fail_msg("%s: %s", browser_status_name(st), why);
    printf("static: start %.0f ms, load %.0f ms, snapshot %.0f ms, %zu bytes, %d requests (%d refused)\n",
           c.start_ms, c.load_ms, c.snapshot_ms, c.snapshot_len, c.requests, c.refused);
    assert_true(c.start_ms > 0);
    assert_true(c.requests >= 2); /* the image; and the favicon, which the browser asks for */
    assert_int_equal(c.refused, c.requests - 1);
    assert_true(snap_has_text(&c, "Some text that the browser lays out."));
    json_object *j = snap_parse(&c);
    assert_int_equal(json_object_get_int(get(j, "glance_snapshot")), 1);
    assert_string_equal(json_object_get_string(get(j, "url")), "http://static.test/");
    assert_int_equal(json_object_get_int(get(get(j, "window"), "width")), 1024);
    assert_true(json_object_get_boolean(get(j, "scripts")));
    json_object *docs = get(get(j, "snapshot"), "documents");
    assert_non_null(docs);
    json_object *bounds = get(get(json_object_array_get_idx(docs, 0), "layout"), "bounds");
    assert_non_null(bounds);
    int nonzero = 0;
    for (size_t i = 0; i < json_object_array_length(bounds); i++) {
        json_object *rect = json_object_array_get_idx(bounds, i);
        if (json_object_get_double(json_object_array_get_idx(rect, 2)) > 0 &&
            json_object_get_double(json_object_array_get_idx(rect, 3)) > 0)
            nonzero++;
    }
    assert_true(nonzero > 2);
    json_object_put(j);
    browser_capture_free(&c);

    /* The same browser again: no start this time. */
    pid_t pid = browser_pid(b);
    st = browser_load(b, &o, "http://static.test/", site_fetch, &s, &c, why, sizeof why);
    if (st != BROWSER_OK)
        fail_msg("again: %s: %s", browser_status_name(st), why);
    printf("static again: load %.0f ms, snapshot %.0f ms\n", c.load_ms, c.snapshot_ms);
    assert_true(c.start_ms == 0);
    assert_int_equal(browser_pid(b), pid);
    browser_capture_free(&c);

    char v[128];
    assert_int_equal(browser_version(b, &o, v, sizeof v), BROWSER_OK);
    printf("version: %s\n", v);
    assert_non_null(strstr(v, "Chrome"));
    browser_free(b);
    site_clear(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(static_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
