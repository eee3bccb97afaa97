/* browser/: headless Chromium over the DevTools protocol, every request
 * answered by the test's callback. Skipped (a line naming chromium) when no
 * chromium is installed, unless CI=true, where that is a failure. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <json-c/json.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
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

/* Pages that are not hostile: a bound, not a duration (they take well
 * under a second), wide enough for a machine under a load of 40 on two
 * cores, where a renderer can wait seconds for a CPU. Hostile pages get 5 s. */
#define NORMAL_BUDGET 15000

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
    browser_opts o = opts(NORMAL_BUDGET);
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
    browser_opts o = opts(NORMAL_BUDGET);
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


static void scripts_on_off(void **state)
{
    NEED_CHROMIUM();
    static const route r[] = {
        {"http://js.test/", 200, "text/html",
         "<!doctype html><body><p>Before scripts.</p><script>"
         "addEventListener('load', function () {"
         "  document.body.innerHTML = '<p>Written on ' + 'load by a script.</p>';"
         "  setTimeout(function () { document.body.insertAdjacentHTML('beforeend', '<p>Written 300 ' + 'ms later.</p>'); }, 300);"
         "});</script>",
         NULL, 0},
        {NULL, 0, NULL, NULL, NULL, 0}};
    site s = {r, {0}, 0, 0};
    browser *b = browser_new();
    browser_opts o = opts(NORMAL_BUDGET);
    o.quiet_ms = 500;
    browser_capture c;
    char why[256];
    browser_status st = browser_load(b, &o, "http://js.test/", site_fetch, &s, &c, why, sizeof why);
    if (st != BROWSER_OK)
        fail_msg("%s: %s", browser_status_name(st), why);
    assert_true(snap_has_text(&c, "Written on load by a script."));
    assert_true(snap_has_text(&c, "Written 300 ms later."));
    assert_false(snap_has_text(&c, "Before scripts."));
    browser_capture_free(&c);

    o.scripts = 0;
    st = browser_load(b, &o, "http://js.test/", site_fetch, &s, &c, why, sizeof why);
    if (st != BROWSER_OK)
        fail_msg("scripts off: %s: %s", browser_status_name(st), why);
    assert_true(snap_has_text(&c, "Before scripts."));
    assert_false(snap_has_text(&c, "Written on load by a script."));
    assert_false(snap_has_text(&c, "Written 300 ms later."));
    json_object *j = snap_parse(&c);
    assert_false(json_object_get_boolean(get(j, "scripts")));
    json_object_put(j);
    browser_capture_free(&c);
    browser_free(b);
    site_clear(&s);
}

/* A page costs its own renderer only: Chromium 156 builds each new
 * window's omnibox popups as WebUI pages (targets of type browser_ui, a
 * renderer each), and every page gets a window of its own. */
static void no_browser_ui(void **state)
{
    NEED_CHROMIUM();
    char path[] = "/tmp/glance-test-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    assert_true(saved >= 0);
    dup2(fd, 2);
    setenv("GLANCE_BROWSER_TRACE", "1", 1);
    browser *b = browser_new();
    unsetenv("GLANCE_BROWSER_TRACE");
    load_normal(b);
    load_normal(b);
    browser_free(b);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    off_t n = lseek(fd, 0, SEEK_END);
    assert_true(n > 0);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(pread(fd, text, (size_t)n, 0), n);
    text[n] = 0;
    close(fd);
    unlink(path);
    static const char PAGE_T[] = "\"type\":\"page\"", UI_T[] = "\"type\":\"browser_ui\"";
    int pages = 0, ui = 0;
    for (const char *p = text; (p = strstr(p, "\"type\":\"")); p++) {
        if (strncmp(p, PAGE_T, strlen(PAGE_T)) == 0)
            pages++;
        else if (strncmp(p, UI_T, strlen(UI_T)) == 0)
            ui++;
    }
    free(text);
    printf("two pages: %d page targets and %d browser_ui targets seen\n", pages, ui);
    assert_true(pages >= 2);
    assert_int_equal(ui, 0);
}

/* Cookies and storage of one page are not seen by the next. */
static void pages_share_nothing(void **state)
{
    NEED_CHROMIUM();
    static const route r[] = {
        {"http://state.test/one", 200, "text/html",
         "<body><script>document.cookie = 'glance=1; max-age=3600'; localStorage.setItem('k', 'v');"
         "document.body.textContent = 'one: cookie[' + document.cookie + '] storage[' + localStorage.length + ']';"
         "</script>",
         NULL, 0},
        {"http://state.test/two", 200, "text/html",
         "<body><script>document.body.textContent = 'two: cookie[' + document.cookie + '] storage[' + "
         "localStorage.length + ']';</script>",
         NULL, 0},
        {NULL, 0, NULL, NULL, NULL, 0}};
    site s = {r, {0}, 0, 0};
    browser *b = browser_new();
    browser_opts o = opts(NORMAL_BUDGET);
    browser_capture c;
    char why[256];
    browser_status st = browser_load(b, &o, "http://state.test/one", site_fetch, &s, &c, why, sizeof why);
    if (st != BROWSER_OK)
        fail_msg("%s: %s", browser_status_name(st), why);
    assert_true(snap_has_text(&c, "one: cookie[glance=1] storage[1]"));
    browser_capture_free(&c);
    st = browser_load(b, &o, "http://state.test/two", site_fetch, &s, &c, why, sizeof why);
    if (st != BROWSER_OK)
        fail_msg("%s: %s", browser_status_name(st), why);
    assert_true(snap_has_text(&c, "two: cookie[] storage[0]"));
    browser_capture_free(&c);
    browser_free(b);
    site_clear(&s);
}

/* A listener on 127.0.0.1 that the page tries to reach six ways: only the
 * callback sees the requests; nothing connects. */
static void nothing_leaves(void **state)
{
    NEED_CHROMIUM();
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    assert_true(ls >= 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(ls, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(ls, 16), 0);
    socklen_t al = sizeof a;
    getsockname(ls, (struct sockaddr *)&a, &al);
    int port = ntohs(a.sin_port);
    /* Port 1 too, where a proxy of 0.0.0.0:1 would connect (root only). */
    int ls1 = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_in a1 = a;
    a1.sin_port = htons(1);
    if (bind(ls1, (struct sockaddr *)&a1, sizeof a1) < 0 || listen(ls1, 16) < 0) {
        close(ls1);
        ls1 = -1;
    }
    char page[2048], redirect[128], base[64];
    snprintf(base, sizeof base, "http://127.0.0.1:%d/", port);
    snprintf(redirect, sizeof redirect, "http://127.0.0.1:%d/redirected", port);
    snprintf(page, sizeof page,
             "<!doctype html><style>body{background:url(http://127.0.0.1:%d/css)}</style>"
             "<p>Six ways out.</p>"
             "<img src='http://127.0.0.1:%d/img'>"
             "<iframe src='http://127.0.0.1:%d/iframe'></iframe>"
             "<script src='http://wall.test/go.js'></script>"
             "<script>fetch('http://127.0.0.1:%d/fetch').catch(function(){});"
             "try { new WebSocket('ws://127.0.0.1:%d/ws'); } catch (e) {}"
             "try { new WebSocket('ws://localhost:%d/ws'); } catch (e) {}"
             "window.open('http://127.0.0.1:%d/popup');</script>",
             port, port, port, port, port, port, port);
    route r[] = {
        {"http://wall.test/", 200, "text/html", page, NULL, 0},
        /* A redirect the callback gives, to the listener: asked again. */
        {"http://wall.test/go.js", 302, NULL, NULL, redirect, 0},
        {NULL, 0, NULL, NULL, NULL, 0}};
    site s = {r, {0}, 0, 0};
    browser *b = browser_new();
    browser_opts o = opts(NORMAL_BUDGET);
    o.quiet_ms = 800;
    browser_capture c;
    char why[256];
    browser_status st = browser_load(b, &o, "http://wall.test/", site_fetch, &s, &c, why, sizeof why);
    if (st != BROWSER_OK)
        fail_msg("%s: %s", browser_status_name(st), why);
    assert_true(snap_has_text(&c, "Six ways out."));
    browser_capture_free(&c);
    usleep(300 * 1000);
    int conn = accept(ls, NULL, NULL);
    if (conn >= 0)
        fail_msg("a connection reached the listener on 127.0.0.1:%d", port);
    assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
    if (ls1 >= 0) {
        conn = accept(ls1, NULL, NULL);
        if (conn >= 0)
            fail_msg("a connection reached a listener on 127.0.0.1:1");
        close(ls1);
    }
    const char *ways[] = {"css", "img", "iframe", "fetch", "redirected"};
    for (size_t i = 0; i < sizeof ways / sizeof *ways; i++) {
        char u[128];
        snprintf(u, sizeof u, "%s%s", base, ways[i]);
        if (!site_saw(&s, u))
            fail_msg("the callback did not see %s", u);
    }
    /* The WebSocket: not seen by the Fetch domain; the proxy refused it. */
    close(ls);
    browser_free(b);
    site_clear(&s);
}

typedef struct hostile {
    const char *name;
    const char *html;
    int sleep_ms; /* a subresource the callback takes this long over */
} hostile;

static void hostile_pages(void **state)
{
    NEED_CHROMIUM();
    static const hostile pages[] = {
        {"while(true)", "<p>Spin.</p><script>while (true) {}</script>", 0},
        {"spin after load", "<p>Spin later.</p><script>onload = function () { for (;;) {} };</script>", 0},
        {"spin from a timer",
         "<p>Spin from a timer.</p><script>onload = function () { setTimeout(function () { for (;;) {} }, 100); };"
         "</script>",
         0},
        {"allocation", "<p>Grow.</p><script>var a = []; for (;;) a.push(new Array(1e6).fill(1));</script>", 0},
        {"window.open loop",
         "<p>Windows.</p><script>for (var i = 0; i < 200; i++) window.open('http://hostile.test/popup' + i);"
         "setInterval(function () { window.open('http://hostile.test/again'); }, 10);</script>",
         0},
        {"alert loop", "<p>Alerts.</p><script>for (var i = 0; i < 1000; i++) { alert(i); confirm(i); prompt(i); }</script>",
         0},
        {"location loop",
         "<p>Away.</p><script>setInterval(function () { location.href = '/?' + Math.random(); }, 5);"
         "location.reload();</script>",
         0},
        {"meta refresh", "<meta http-equiv=refresh content='0; url=http://hostile.test/'><p>Refresh.</p>", 0},
        {"beforeunload",
         "<p>Stay.</p><script>onbeforeunload = function (e) { e.preventDefault(); return 'stay'; };"
         "setTimeout(function () { location.href = 'http://hostile.test/elsewhere'; }, 50);</script>",
         0},
        {"slow script", "<p>Slow.</p><script src='http://hostile.test/slow.js'></script>", 2000},
        {"long poll",
         "<p>Poll.</p><script>(function poll() { fetch('/poll?' + Math.random()).then(function () { "
         "setTimeout(poll, 50); }, function () { setTimeout(poll, 50); }); })();</script>",
         0},
    };
    browser *b = browser_new();
    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
        route r[] = {
            {"http://hostile.test/slow.js", 200, "text/javascript", "document.title = 'slow';", NULL,
             pages[i].sleep_ms},
            {"http://hostile.test/poll*", 200, "text/plain", "x", NULL, 0},
            {"http://hostile.test/", 200, "text/html", pages[i].html, NULL, 0},
            {NULL, 0, NULL, NULL, NULL, 0}};
        site s = {r, {0}, 0, 0};
        browser_opts o = opts(5000);
        o.quiet_ms = 500;
        browser_capture c;
        char why[256] = "";
        double t = base_now_ms();
        browser_status st = browser_load(b, &o, "http://hostile.test/", site_fetch, &s, &c, why, sizeof why);
        double ms = base_now_ms() - t - c.start_ms;
        printf("hostile %-16s %-22s %5.0f ms, %d requests (%d refused), %zu bytes%s%s\n", pages[i].name,
               browser_status_name(st), ms, c.requests, c.refused, c.snapshot_len, why[0] ? ": " : "", why);
        if (ms > o.budget_ms + 1000)
            fail_msg("%s: %.0f ms, over the budget and a second", pages[i].name, ms);
        if (st != BROWSER_OK && st != BROWSER_ETIME && st != BROWSER_ECRASH)
            fail_msg("%s: %s: %s", pages[i].name, browser_status_name(st), why);
        browser_capture_free(&c);
        site_clear(&s);
        load_normal(b);
    }
    printf("hostile: %d restarts\n", browser_restarts(b));
    browser_free(b);
}

/* Whether any process has `needle` in its command line. */
static int procs_with(const char *needle)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    char path[300];
    size_t cap = 1 << 20; /* a renderer's command line is long */
    char *buf = malloc(cap);
    assert_non_null(buf);
    while (d && (e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t k = 0, got;
        while ((got = read(fd, buf + k, cap - 1 - (size_t)k)) > 0)
            k += got;
        close(fd);
        if (k <= 0)
            continue;
        for (ssize_t i = 0; i < k; i++)
            if (!buf[i])
                buf[i] = ' ';
        buf[k] = 0;
        if (strstr(buf, needle))
            n++;
    }
    free(buf);
    if (d)
        closedir(d);
    return n;
}

static void free_leaves_nothing(void **state)
{
    NEED_CHROMIUM();
    browser *b = browser_new();
    browser_opts o = opts(NORMAL_BUDGET);
    char v[128];
    assert_int_equal(browser_version(b, &o, v, sizeof v), BROWSER_OK);
    load_normal(b);
    char dir[512];
    snprintf(dir, sizeof dir, "user-data-dir=%s", browser_profile(b));
    int before = procs_with(dir);
    printf("free: %d processes with the profile before browser_free\n", before);
    assert_true(before >= 2); /* the browser and its helpers */
    /* Chromium's singleton socket lives in a temporary folder of its own,
     * which it removes only when it exits cleanly. */
    char link[600], sock[PATH_MAX];
    snprintf(link, sizeof link, "%s/SingletonSocket", browser_profile(b));
    ssize_t n = readlink(link, sock, sizeof sock - 1);
    assert_true(n > 0);
    sock[n] = 0;
    char *slash = strrchr(sock, '/');
    assert_non_null(slash);
    *slash = 0;
    printf("free: the singleton's folder %s\n", sock);
    assert_int_equal(access(sock, F_OK), 0);
    browser_free(b);
    assert_int_equal(procs_with(dir), 0);
    assert_int_equal(access(dir + strlen("user-data-dir="), F_OK), -1); /* the profile removed */
    assert_int_equal(access(sock, F_OK), -1); /* and the singleton's folder */
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    remove(path);
    return 0;
}

/* A process that owns a browser is SIGKILLed: its chromium goes too. */
static void owner_killed(void **state)
{
    NEED_CHROMIUM();
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(p[0]);
        browser *b = browser_new();
        browser_opts o = opts(NORMAL_BUDGET);
        char v[128];
        if (browser_version(b, &o, v, sizeof v) != BROWSER_OK)
            _exit(1);
        load_normal(b);
        const char *dir = browser_profile(b);
        if (write(p[1], dir, strlen(dir)) < 0)
            _exit(1);
        close(p[1]);
        pause();
        _exit(0);
    }
    close(p[1]);
    char dir[512] = "user-data-dir=";
    size_t off = strlen(dir);
    ssize_t k;
    while ((k = read(p[0], dir + off, sizeof dir - 1 - off)) > 0)
        off += (size_t)k;
    dir[off] = 0;
    close(p[0]);
    assert_true(off > strlen("user-data-dir="));
    assert_true(procs_with(dir) >= 2);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    double t = base_now_ms();
    int left = 0;
    while (base_now_ms() - t < 2000 && (left = procs_with(dir)) > 0)
        usleep(50 * 1000);
    printf("owner killed: chromium gone after %.0f ms (%d left)\n", base_now_ms() - t, left);
    assert_int_equal(left, 0);
    /* Its profile folder is left behind: nobody was there to remove it. */
    nftw(dir + strlen("user-data-dir="), rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    assert_int_equal(access(dir + strlen("user-data-dir="), F_OK), -1);
}

/* Times: a 200 KB page of the benchmark, every other request refused. */
static void measure(void **state)
{
    NEED_CHROMIUM();
    char path[1024];
    snprintf(path, sizeof path, "%s/bench/modern-dev/html", SHARED_DIR);
    DIR *d = opendir(path);
    if (!d) {
        printf("measure: skipped: no %s\n", path);
        skip();
    }
    /* The page nearest 200 KB once gunzipped. */
    struct dirent *e;
    char best[1024] = "";
    long best_diff = -1;
    char *best_html = NULL;
    size_t best_len = 0;
    int looked = 0;
    while ((e = readdir(d)) && looked < 400) {
        if (!strstr(e->d_name, ".html.gz"))
            continue;
        looked++;
        char f[1300];
        snprintf(f, sizeof f, "%s/%s", path, e->d_name);
        gzFile z = gzopen(f, "rb");
        if (!z)
            continue;
        size_t cap = 1 << 20, len = 0;
        char *h = malloc(cap);
        int k;
        while (h && (k = gzread(z, h + len, (unsigned)(cap - len - 1))) > 0) {
            len += (size_t)k;
            if (cap - len < 4096)
                h = realloc(h, cap *= 2);
        }
        gzclose(z);
        long diff = labs((long)len - 200 * 1024);
        if (h && (best_diff < 0 || diff < best_diff)) {
            free(best_html);
            best_html = h;
            best_len = len;
            h[len] = 0;
            best_diff = diff;
            snprintf(best, sizeof best, "%s", e->d_name);
        } else {
            free(h);
        }
    }
    closedir(d);
    assert_non_null(best_html);
    route r[] = {{"http://bench.test/", 200, "text/html; charset=utf-8", best_html, NULL, 0},
                 {NULL, 0, NULL, NULL, NULL, 0}};
    site s = {r, {0}, 0, 0};
    browser *b = browser_new();
    browser_opts o = opts(NORMAL_BUDGET);
    o.quiet_ms = 500;
    o.screenshot = 1;
    browser_capture c;
    char why[256];
    for (int scripts = 1; scripts >= 0; scripts--) {
        o.scripts = scripts;
        browser_status st = browser_load(b, &o, "http://bench.test/", site_fetch, &s, &c, why, sizeof why);
        if (st != BROWSER_OK)
            fail_msg("%s: %s: %s", best, browser_status_name(st), why);
        printf("measure %s (%zu bytes, scripts %d): start %.0f ms, load %.0f ms (quiet %ld), snapshot %.0f ms, "
               "%zu bytes, png %zu bytes, %d requests (%d refused)\n",
               best, best_len, scripts, c.start_ms, c.load_ms, o.quiet_ms, c.snapshot_ms, c.snapshot_len,
               c.png_len, c.requests, c.refused);
        assert_true(c.png_len > 8 && memcmp(c.png, "\x89PNG", 4) == 0);
        json_object *j = snap_parse(&c);
        assert_non_null(j);
        json_object_put(j);
        browser_capture_free(&c);
    }
    browser_free(b);
    site_clear(&s);
    free(best_html);
}


/* The browser killed between two pages: the next load starts another. */
static void browser_killed(void **state)
{
    NEED_CHROMIUM();
    browser *b = browser_new();
    load_normal(b);
    pid_t pid = browser_pid(b);
    assert_true(pid > 0);
    kill(pid, SIGKILL);
    usleep(200 * 1000);
    load_normal(b);
    assert_int_equal(browser_restarts(b), 1);
    assert_true(browser_pid(b) > 0 && browser_pid(b) != pid);
    browser_free(b);
}

/* The callback refuses the page itself: a one-line why, no hang. */
static void page_refused(void **state)
{
    NEED_CHROMIUM();
    site s = {NULL, {0}, 0, 0};
    browser *b = browser_new();
    browser_opts o = opts(NORMAL_BUDGET);
    browser_capture c;
    char why[256];
    browser_status st = browser_load(b, &o, "http://refused.test/", site_fetch, &s, &c, why, sizeof why);
    printf("refused: %s: %s\n", browser_status_name(st), why);
    assert_int_equal(st, BROWSER_EPROTO);
    assert_non_null(strstr(why, "ERR_BLOCKED_BY_CLIENT"));
    assert_null(c.snapshot);
    browser_capture_free(&c);
    load_normal(b);
    browser_free(b);
    site_clear(&s);
}


/* Two browsers on two threads at once share nothing. */
typedef struct thread_job {
    const char *text;
    int ok;
} thread_job;

static void *thread_load(void *arg)
{
    thread_job *j = arg;
    char html[256];
    snprintf(html, sizeof html, "<p>%s</p>", j->text);
    route r[] = {{"http://thread.test/", 200, "text/html", html, NULL, 0}, {NULL, 0, NULL, NULL, NULL, 0}};
    site s = {r, {0}, 0, 0};
    browser *b = browser_new();
    browser_opts o = opts(NORMAL_BUDGET);
    for (int i = 0; i < 2; i++) {
        browser_capture c;
        char why[256];
        if (browser_load(b, &o, "http://thread.test/", site_fetch, &s, &c, why, sizeof why) == BROWSER_OK &&
            strstr(c.snapshot, j->text))
            j->ok++;
        browser_capture_free(&c);
    }
    browser_free(b);
    site_clear(&s);
    return NULL;
}

static void two_threads(void **state)
{
    NEED_CHROMIUM();
    thread_job a = {"The first thread's page.", 0}, b = {"The second thread's page.", 0};
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, thread_load, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, thread_load, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    assert_int_equal(a.ok, 2);
    assert_int_equal(b.ok, 2);
}


/* The page's own redirect: asked again as the main request; the envelope
 * names the final URL. */
static void main_redirect(void **state)
{
    NEED_CHROMIUM();
    static const route r[] = {
        {"http://moved.test/", 301, NULL, NULL, "http://moved.test/final", 0},
        {"http://moved.test/final", 200, "text/html", "<p>The page after the redirect.</p>", NULL, 0},
        {NULL, 0, NULL, NULL, NULL, 0}};
    site s = {r, {0}, 0, 0};
    browser *b = browser_new();
    browser_opts o = opts(NORMAL_BUDGET);
    o.screenshot = 1;
    browser_capture c;
    char why[256];
    browser_status st = browser_load(b, &o, "http://moved.test/", site_fetch, &s, &c, why, sizeof why);
    if (st != BROWSER_OK)
        fail_msg("%s: %s", browser_status_name(st), why);
    assert_true(snap_has_text(&c, "The page after the redirect."));
    json_object *j = snap_parse(&c);
    assert_string_equal(json_object_get_string(get(j, "url")), "http://moved.test/final");
    json_object_put(j);
    assert_true(c.png_len > 8 && memcmp(c.png, "\x89PNG", 4) == 0);
    browser_capture_free(&c);
    browser_free(b);
    site_clear(&s);
}


/* A frame's document is in the snapshot (frames stay in the page's
 * renderer, and the page's interception answers their requests). */
static void frame_in_snapshot(void **state)
{
    NEED_CHROMIUM();
    static const route r[] = {
        {"http://frames.test/", 200, "text/html", "<p>The outer page.</p><iframe src='http://other.test/frame'></iframe>",
         NULL, 0},
        {"http://other.test/frame", 200, "text/html", "<p>Text inside the frame of another site.</p>", NULL, 0},
        {NULL, 0, NULL, NULL, NULL, 0}};
    site s = {r, {0}, 0, 0};
    browser *b = browser_new();
    browser_opts o = opts(NORMAL_BUDGET);
    browser_capture c;
    char why[256];
    browser_status st = browser_load(b, &o, "http://frames.test/", site_fetch, &s, &c, why, sizeof why);
    if (st != BROWSER_OK)
        fail_msg("%s: %s", browser_status_name(st), why);
    assert_true(site_saw(&s, "http://other.test/frame"));
    assert_true(snap_has_text(&c, "Text inside the frame of another site."));
    json_object *j = snap_parse(&c);
    assert_int_equal(json_object_array_length(get(get(j, "snapshot"), "documents")), 2);
    json_object_put(j);
    browser_capture_free(&c);
    browser_free(b);
    site_clear(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(static_page),
        cmocka_unit_test(scripts_on_off),
        cmocka_unit_test(pages_share_nothing),
        cmocka_unit_test(nothing_leaves),
        cmocka_unit_test(hostile_pages),
        cmocka_unit_test(free_leaves_nothing),
        cmocka_unit_test(no_browser_ui),
        cmocka_unit_test(browser_killed),
        cmocka_unit_test(page_refused),
        cmocka_unit_test(main_redirect),
        cmocka_unit_test(frame_in_snapshot),
        cmocka_unit_test(two_threads),
        cmocka_unit_test(owner_killed),
        cmocka_unit_test(measure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
