/* browser/: headless Chromium over the DevTools protocol on a pipe
 * (browser.h). */
#define _GNU_SOURCE
#include "browser/browser.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/clock.h"

/* A snapshot of a large page is tens of MB; past this much held from the
 * pipe the answer is not read (BROWSER_EPROTO) rather than exhaust memory. */
#define BROWSER_MAX_HELD ((size_t)512 << 20)
/* How long a started chromium may take to answer its first command. */
#define BROWSER_START_MS 15000.0
/* Disposing of a page's context after a failure: past this the browser is
 * taken as stuck and killed (the next load starts a fresh one). */
#define BROWSER_DISPOSE_MS 800.0

struct browser {
    pid_t pid;       /* 0: not running; also its process group */
    int fd;          /* our end of the socketpair (fds 3 and 4 in the child) */
    int dead;        /* EOF or an error on fd: start again on the next load */
    int reaped;      /* the browser process was reaped (its group may live on) */
    int restarts;
    int started;     /* a browser was started at least once */
    char *dir;       /* --user-data-dir, removed on free and restart */
    pid_t watcher;   /* the process that cleans up after us (start_watcher); 0: none */
    int watch_fd;    /* our end of its pipe: it acts when the pipe closes */
    long next_id;
    base_buf in;     /* bytes read from the pipe, not yet split */
    size_t off;      /* of `in`, where the unread messages begin */
    size_t scanned;  /* from `off`, bytes known to hold no NUL */
    struct page *page; /* the load in progress, for the event handlers */
    int trace;       /* $GLANCE_BROWSER_TRACE: each message to stderr, cut short */
};

/* One message off the pipe: the spans of its top-level members in `raw`
 * (not copied: the snapshot answer is spliced from here). */
typedef struct msg {
    const char *raw;
    size_t len;
    long id;          /* -1: an event */
    char method[96];
    char session[64];
    const char *result; size_t result_len;
    const char *error; size_t error_len;
    const char *params; size_t params_len;
} msg;

/* A page's image requests the caller refuses (lib/browse.c loads none) fail,
 * and fire the image's error event. A page whose error handler asks for an
 * image again (onerror="this.src='fallback.jpg'", and the fallback refused
 * too) would ask without end, and its load event, which waits for its
 * images, would not fire before the budget ran out. Past REFUSED_REPEATS
 * refusals of one address the request is answered with a transparent image
 * of one pixel: as if the fallback came, and the loop ends. A page asking
 * for one missing image a few times keeps its broken images. */
#define REFUSED_SEEN 64
#define REFUSED_REPEATS 20

/* The state of one load, which the event handlers update. */
typedef struct page {
    const browser_opts *o;
    browser_fetch_fn fetch;
    void *ud;
    char ctx[64], target[64], session[64];
    int navigating;   /* Page.navigate was sent */
    int committed;    /* the main frame committed the page's document */
    char *url;        /* the committed document's URL */
    int load_fired, dcl_fired; /* the load event; DOMContentLoaded */
    int virtual_spent;         /* virtual_ms: the virtual clock's budget ran out */
    double load_at, dcl_at, last_request_at;
    int requests, refused;
    /* The first REFUSED_SEEN image addresses refused (a hash of each),
     * and how often. */
    struct {
        uint64_t hash;
        int count;
    } seen[REFUSED_SEEN];
    int n_seen;
    int crashed;
    char crash_why[128];
} page;

/* ---- small tools ---- */

static void why_set(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void why_set(char *why, size_t cap, const char *fmt, ...)
{
    if (!why || !cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
}

const char *browser_status_name(browser_status s)
{
    switch (s) {
    case BROWSER_OK: return "ok";
    case BROWSER_ENOMEM: return "out of memory";
    case BROWSER_ENOTFOUND: return "no chromium executable";
    case BROWSER_ESTART: return "chromium did not start";
    case BROWSER_ETIME: return "over the time budget";
    case BROWSER_ECRASH: return "chromium or the page crashed";
    case BROWSER_EPROTO: return "protocol error";
    }
    return "?";
}

/* A JSON string literal of `s` (n bytes) appended to `b`. */
static void put_jstr(base_buf *b, const char *s, size_t n)
{
    base_buf_putc(b, '"');
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        base_buf_add(b, s + from, i - from);
        if (c == '"' || c == '\\') {
            base_buf_putc(b, '\\');
            base_buf_putc(b, (char)c);
        } else {
            base_buf_printf(b, "\\u%04x", c);
        }
        from = i + 1;
    }
    base_buf_add(b, s + from, n - from);
    base_buf_putc(b, '"');
}

static void put_base64(base_buf *b, const unsigned char *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (base_buf_reserve(b, (n + 2) / 3 * 4) < 0)
        return;
    char *o = b->data + b->len;
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
        *o++ = tab[v >> 18];
        *o++ = tab[v >> 12 & 63];
        *o++ = tab[v >> 6 & 63];
        *o++ = tab[v & 63];
    }
    if (i < n) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);
        *o++ = tab[v >> 18];
        *o++ = tab[v >> 12 & 63];
        *o++ = i + 1 < n ? tab[v >> 6 & 63] : '=';
        *o++ = '=';
    }
    b->len = (size_t)(o - b->data);
    b->data[b->len] = 0;
}

/* Decodes base64 text (a JSON string's contents: `\/` escapes skipped);
 * malloc'd, NULL when out of memory. */
static unsigned char *base64_decode(const char *s, size_t n, size_t *out_len)
{
    unsigned char *o = malloc(n / 4 * 3 + 3);
    if (!o)
        return NULL;
    size_t k = 0;
    unsigned v = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i], d;
        if (c >= 'A' && c <= 'Z') d = c - 'A';
        else if (c >= 'a' && c <= 'z') d = c - 'a' + 26;
        else if (c >= '0' && c <= '9') d = c - '0' + 52;
        else if (c == '+') d = 62;
        else if (c == '/') d = 63;
        else continue; /* '=', '\\' of "\/", white space */
        v = v << 6 | (unsigned)d;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            o[k++] = (unsigned char)(v >> bits);
        }
    }
    *out_len = k;
    return o;
}

/* Skips white space. */
static const char *ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* Past one JSON string starting at its quote; NULL when unterminated. */
static const char *skip_string(const char *p, const char *e)
{
    for (p++; p < e; p++) {
        if (*p == '\\')
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return NULL;
}

/* Past one JSON value, without building it: the snapshot answer is many MB
 * and is spliced, not parsed. Structure only; json-c parses what we read. */
static const char *skip_value(const char *p, const char *e)
{
    p = ws(p, e);
    if (p >= e)
        return NULL;
    if (*p == '"')
        return skip_string(p, e);
    if (*p == '{' || *p == '[') {
        long depth = 0;
        for (; p < e; p++) {
            if (*p == '"') {
                p = skip_string(p, e);
                if (!p)
                    return NULL;
                p--;
            } else if (*p == '{' || *p == '[') {
                depth++;
            } else if (*p == '}' || *p == ']') {
                if (--depth == 0)
                    return p + 1;
            }
        }
        return NULL;
    }
    while (p < e && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' && *p != '\t' &&
           *p != '\r')
        p++;
    return p;
}

/* Splits one message into its top-level members. 0, or -1 when it is not a
 * JSON object. */
static int msg_split(msg *m, const char *raw, size_t len)
{
    memset(m, 0, sizeof *m);
    m->raw = raw;
    m->len = len;
    m->id = -1;
    const char *p = raw, *e = raw + len;
    p = ws(p, e);
    if (p >= e || *p != '{')
        return -1;
    p = ws(p + 1, e);
    if (p < e && *p == '}')
        return 0;
    for (;;) {
        if (p >= e || *p != '"')
            return -1;
        const char *k = p + 1, *ke = skip_string(p, e);
        if (!ke)
            return -1;
        size_t kn = (size_t)(ke - 1 - k);
        p = ws(ke, e);
        if (p >= e || *p != ':')
            return -1;
        const char *v = ws(p + 1, e), *ve = skip_value(v, e);
        if (!ve)
            return -1;
        size_t vn = (size_t)(ve - v);
#define KEY(s) (kn == sizeof(s) - 1 && memcmp(k, s, kn) == 0)
        if (KEY("id")) {
            m->id = strtol(v, NULL, 10);
        } else if ((KEY("method") || KEY("sessionId")) && vn >= 2 && *v == '"') {
            char *dst = KEY("method") ? m->method : m->session;
            size_t cap = KEY("method") ? sizeof m->method : sizeof m->session;
            size_t n = vn - 2 < cap - 1 ? vn - 2 : cap - 1;
            memcpy(dst, v + 1, n);
            dst[n] = 0;
        } else if (KEY("result")) {
            m->result = v, m->result_len = vn;
        } else if (KEY("error")) {
            m->error = v, m->error_len = vn;
        } else if (KEY("params")) {
            m->params = v, m->params_len = vn;
        }
#undef KEY
        p = ws(ve, e);
        if (p < e && *p == ',') {
            p = ws(p + 1, e);
            continue;
        }
        if (p < e && *p == '}')
            return 0;
        return -1;
    }
}

static json_object *parse_span(const char *p, size_t n)
{
    if (!p || n > INT_MAX)
        return NULL;
    json_tokener *tok = json_tokener_new_ex(64);
    if (!tok)
        return NULL;
    json_object *o = json_tokener_parse_ex(tok, p, (int)n);
    if (json_tokener_get_error(tok) != json_tokener_success) {
        json_object_put(o);
        o = NULL;
    }
    json_tokener_free(tok);
    return o;
}

static const char *jstr(json_object *o, const char *key)
{
    json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

static json_object *jobj(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* ---- the process ---- */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    remove(path);
    return 0;
}

static void rm_tree(const char *dir)
{
    if (dir && *dir)
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int executable(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

const char *browser_find(char *buf, size_t cap)
{
    const char *env = getenv("GLANCE_CHROMIUM");
    if (env && *env) {
        if (!executable(env) || strlen(env) >= cap)
            return NULL;
        memcpy(buf, env, strlen(env) + 1);
        return buf;
    }
    static const char *const names[] = {"chromium", "chromium-browser", "google-chrome"};
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        for (const char *p = path; *p;) {
            const char *c = strchr(p, ':');
            size_t n = c ? (size_t)(c - p) : strlen(p);
            if (n && n + 1 + strlen(names[i]) < cap) {
                snprintf(buf, cap, "%.*s/%s", (int)n, p, names[i]);
                if (executable(buf))
                    return buf;
            }
            p += n + (c ? 1 : 0);
        }
    }
    return NULL;
}

/* Kills the process group and reaps the browser; closes the pipe. */
/* A process that outlives us if need be: when its pipe closes (we stopped
 * the browser, or died: SIGKILLed at a budget, the profile folder would
 * otherwise stay behind in $TMPDIR) it kills the browser's process group
 * and removes the profile folder. A shell, exec'd at once: nothing but
 * async-signal-safe calls between fork and exec in a process with
 * threads. Not killed with us (no PR_SET_PDEATHSIG): that is its job. */
static void start_watcher(browser *b)
{
    int wp[2];
    char pgid[24];
    snprintf(pgid, sizeof pgid, "%d", (int)b->pid);
    const char *const argv[] = {"/bin/sh", "-c", "read _; kill -9 -- \"-$1\" 2>/dev/null; rm -rf -- \"$2\"",
                                "glance-browser-watch", pgid, b->dir, NULL};
    if (pipe2(wp, O_CLOEXEC) != 0)
        return;
    pid_t w = fork();
    if (w == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int nul = open("/dev/null", O_RDWR);
        dup2(wp[0], 0);
        if (nul >= 0) {
            dup2(nul, 1);
            dup2(nul, 2);
        }
        closefrom(3);
        /* Its own process group: a kill of our group does not stop it. */
        setpgid(0, 0);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(wp[0]);
    if (w < 0) {
        close(wp[1]);
        return;
    }
    b->watcher = w;
    b->watch_fd = wp[1];
}

static void browser_stop(browser *b)
{
    if (b->watch_fd > 0) {
        /* The browser's group is killed below; the watcher removes the
         * profile folder, then ends, reaped here. */
        close(b->watch_fd);
        b->watch_fd = 0;
    }
    if (b->pid > 0) {
        kill(-b->pid, SIGKILL);
        if (!b->reaped) {
            kill(b->pid, SIGKILL); /* in case setpgid had not happened yet */
            while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR)
                ;
        }
        /* Its other processes (zygote, renderers) are children of the
         * browser, not ours: they were killed with the group and are reaped
         * by init. */
    }
    b->pid = 0;
    b->reaped = 0;
    if (b->fd >= 0)
        close(b->fd);
    b->fd = -1;
    b->dead = 0;
    if (b->watcher > 0) {
        while (waitpid(b->watcher, NULL, 0) < 0 && errno == EINTR)
            ;
        b->watcher = 0;
    }
    base_buf_free(&b->in); /* it may have grown to a snapshot's size */
    b->scanned = 0;
    b->off = 0;
    if (b->dir) {
        rm_tree(b->dir);
        free(b->dir);
        b->dir = NULL;
    }
}

browser *browser_new(void)
{
    browser *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->fd = -1;
    b->next_id = 1;
    const char *t = getenv("GLANCE_BROWSER_TRACE");
    b->trace = t && *t && strcmp(t, "0") != 0;
    return b;
}

void browser_free(browser *b)
{
    if (!b)
        return;
    browser_stop(b);
    base_buf_free(&b->in);
    free(b);
}

int browser_restarts(const browser *b)
{
    return b ? b->restarts : 0;
}

pid_t browser_pid(const browser *b)
{
    return b ? b->pid : 0;
}

const char *browser_profile(const browser *b)
{
    return b && b->pid ? b->dir : NULL;
}

/* 1 when the browser process has ended (reaped here), else 0. */
static int browser_exited(browser *b)
{
    if (b->pid <= 0)
        return 1;
    int st;
    pid_t r = waitpid(b->pid, &st, WNOHANG);
    if (r == b->pid || (r < 0 && errno == ECHILD)) {
        b->reaped = 1;
        return 1;
    }
    return 0;
}

static browser_status send_cmd(browser *b, const char *session, const char *method, const char *params, long *id,
                               double deadline, char *why, size_t cap);
static browser_status wait_answer(browser *b, long id, double deadline, msg *out, char **raw, char *why, size_t cap);

static browser_status browser_start(browser *b, const browser_opts *o, double deadline, char *why, size_t cap)
{
    char exe[PATH_MAX];
    const char *path = o && o->executable ? o->executable : browser_find(exe, sizeof exe);
    if (!path || !executable(path)) {
        why_set(why, cap, "no chromium executable (set GLANCE_CHROMIUM or install chromium)");
        return BROWSER_ENOTFOUND;
    }
    const char *tmp = getenv("TMPDIR");
    base_buf d = BASE_BUF_INIT;
    base_buf_printf(&d, "%s/glance-chromium-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    char *dir = base_buf_take(&d, NULL);
    if (!dir)
        return BROWSER_ENOMEM;
    if (!mkdtemp(dir)) {
        why_set(why, cap, "mkdtemp %s: %s", dir, strerror(errno));
        free(dir);
        return BROWSER_ESTART;
    }
    b->dir = dir;

    /* The command line, built before the fork: the child only execs. */
    base_buf udd = BASE_BUF_INIT;
    base_buf_printf(&udd, "--user-data-dir=%s", dir);
    char *udd_s = base_buf_take(&udd, NULL);
    if (!udd_s) {
        browser_stop(b);
        return BROWSER_ENOMEM;
    }
    const char *argv[] = {
        path,
        "--headless",
        "--remote-debugging-pipe",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-default-apps",
        "--mute-audio",
        "--hide-scrollbars",
        "--disable-dev-shm-usage",
        "--disable-breakpad",
        "--disable-crash-reporter",
        "--disable-domain-reliability",
        "--disable-client-side-phishing-detection",
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
        "--metrics-recording-only",
        "--password-store=basic",
        "--use-mock-keychain",
        /* Frames in the page's renderer, so that the page's Fetch
         * interception sees its subframes' requests. No WebUI omnibox
         * popups: Chromium 156 builds two for every new window (a
         * renderer each, chrome://omnibox-popup.top-chrome), and each page
         * has a window of its own; they cost more CPU than the page
         * (measured: 23.9 -> 9.9 CPU-seconds over 20 modern-dev pages). */
        "--disable-features=IsolateOrigins,site-per-process,Translate,MediaRouter,OptimizationHints,"
        "AutofillServerCommunication,InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater,"
        "WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
        "--disable-site-isolation-trials",
        /* The second wall, for what interception does not see (WebSockets,
         * a popup's requests; measured: without it a WebSocket to
         * 127.0.0.1 connects). No name resolves, IP literals included
         * (MAP * ~NOTFOUND maps 127.0.0.1 too), and every connection,
         * loopback too (<-loopback>), goes to a proxy whose own name does
         * not resolve, so it fails at once and connects nowhere. Not
         * 0.0.0.0:1: Linux takes 0.0.0.0 for this host, and a listener on
         * 127.0.0.1:1 got the proxied connections. WebRTC's UDP only
         * through the proxy, so never. */
        "--proxy-server=socks5://glance-refused.invalid:1",
        "--proxy-bypass-list=<-loopback>",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
        /* An allocating page dies fast (a crash of the page, not of us). */
        "--js-flags=--max-old-space-size=512",
        udd_s,
        "about:blank",
        NULL,
    };

    /* One socketpair for both directions: Chromium reads fd 3 and writes
     * fd 4 with read(2)/write(2), which a socket serves as a pipe would,
     * and our writes can then say MSG_NOSIGNAL instead of touching the
     * process's SIGPIPE. */
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        why_set(why, cap, "socketpair: %s", strerror(errno));
        free(udd_s);
        browser_stop(b);
        return BROWSER_ESTART;
    }
    int logfd = -1;
    const char *log = getenv("GLANCE_BROWSER_LOG");
    if (log && *log)
        logfd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    /* Chromium's own temporary files (the singleton's socket folder,
     * org.chromium.Chromium.*, which a killed browser never removes) go
     * into our folder, removed with it: its environment with TMPDIR=dir. */
    extern char **environ;
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **envp = calloc(nenv + 2, sizeof *envp);
    base_buf tmpd = BASE_BUF_INIT;
    base_buf_printf(&tmpd, "TMPDIR=%s", dir);
    char *tmp_s = base_buf_take(&tmpd, NULL);
    if (!envp || !tmp_s) {
        free(envp);
        free(tmp_s);
        free(udd_s);
        close(sv[0]);
        close(sv[1]);
        if (logfd >= 0)
            close(logfd);
        browser_stop(b);
        return BROWSER_ENOMEM;
    }
    size_t ne = 0;
    for (size_t k = 0; k < nenv; k++)
        if (strncmp(environ[k], "TMPDIR=", 7) != 0)
            envp[ne++] = environ[k];
    envp[ne++] = tmp_s;
    envp[ne] = NULL;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        /* What the caller's thread blocked or ignored is not chromium's to
         * inherit (a server that blocks SIGTERM for a signal thread). */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGCHLD, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        if (getppid() != parent) /* the parent ended before the line above */
            _exit(127);
        /* A worker process of glance's runs under a soft RLIMIT_AS
         * (base/proc.h) and, in glance serve, a soft RLIMIT_CPU for its
         * request (tools/isolate.c): Chromium cannot start in the first
         * (V8 reserves its heap's cage up front) and, reused from page to
         * page, would run out of the second. It bounds its pages' memory
         * itself (--js-flags), and the budget bounds their time. */
        static const int lifted[] = {RLIMIT_AS, RLIMIT_CPU};
        for (size_t k = 0; k < sizeof lifted / sizeof lifted[0]; k++) {
            struct rlimit rl;
            if (getrlimit(lifted[k], &rl) == 0 && rl.rlim_cur != rl.rlim_max) {
                rl.rlim_cur = rl.rlim_max;
                setrlimit(lifted[k], &rl);
            }
        }
        int nul = open("/dev/null", O_RDWR);
        /* sv[1] may itself be 3 or 4: move it out of the way first. */
        int s = fcntl(sv[1], F_DUPFD, 10);
        int lf = logfd >= 0 ? fcntl(logfd, F_DUPFD, 10) : -1;
        if (nul < 0 || s < 0)
            _exit(127);
        dup2(nul, 0);
        dup2(nul, 1);
        dup2(lf >= 0 ? lf : nul, 2);
        dup2(s, 3);
        dup2(s, 4);
        closefrom(5);
        execve(path, (char *const *)argv, envp);
        _exit(127);
    }
    int err = errno;
    free(envp);
    free(tmp_s);
    if (logfd >= 0)
        close(logfd);
    close(sv[1]);
    free(udd_s);
    if (pid < 0) {
        close(sv[0]);
        why_set(why, cap, "fork: %s", strerror(err));
        browser_stop(b);
        return BROWSER_ESTART;
    }
    setpgid(pid, pid); /* also here: no race with our first kill(-pgid) */
    b->pid = pid;
    start_watcher(b);
    b->fd = sv[0];
    fcntl(b->fd, F_SETFL, fcntl(b->fd, F_GETFL) | O_NONBLOCK);
    b->dead = 0;
    b->started++;

    /* It answers once it is up. */
    double dl = base_now_ms() + BROWSER_START_MS;
    if (deadline > 0 && deadline < dl)
        dl = deadline;
    long id;
    msg m;
    char *raw = NULL;
    browser_status st = send_cmd(b, NULL, "Target.setDiscoverTargets", "{\"discover\":true}", &id, dl, why, cap);
    if (st == BROWSER_OK)
        st = wait_answer(b, id, dl, &m, &raw, why, cap);
    free(raw);
    raw = NULL;
    if (st == BROWSER_OK) {
        st = send_cmd(b, NULL, "Browser.setDownloadBehavior", "{\"behavior\":\"deny\"}", &id, dl, why, cap);
        if (st == BROWSER_OK)
            st = wait_answer(b, id, dl, &m, &raw, why, cap);
        free(raw);
    }
    if (st != BROWSER_OK) {
        char w[200];
        snprintf(w, sizeof w, "%s", why && cap ? why : "");
        why_set(why, cap, "chromium did not answer: %s", w);
        browser_stop(b);
        return st == BROWSER_ENOMEM ? st : BROWSER_ESTART;
    }
    return BROWSER_OK;
}

/* ---- the pipe ---- */

static browser_status send_raw(browser *b, const char *p, size_t n, double deadline, char *why, size_t cap)
{
    while (n) {
        ssize_t w = send(b->fd, p, n, MSG_NOSIGNAL);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            double left = deadline - base_now_ms();
            if (left <= 0) {
                b->dead = 1; /* a command may be cut in half: the stream is lost */
                why_set(why, cap, "chromium does not read its pipe");
                return BROWSER_ETIME;
            }
            struct pollfd pf = {b->fd, POLLOUT, 0};
            poll(&pf, 1, left > 100 ? 100 : (int)left + 1);
            continue;
        }
        b->dead = 1;
        why_set(why, cap, "chromium's pipe is closed: %s", strerror(errno));
        return BROWSER_ECRASH;
    }
    return BROWSER_OK;
}

/* Sends a command; `params` a JSON object's text or NULL. */
static browser_status send_cmd(browser *b, const char *session, const char *method, const char *params, long *id,
                               double deadline, char *why, size_t cap)
{
    base_buf c = BASE_BUF_INIT;
    long n = b->next_id++;
    base_buf_printf(&c, "{\"id\":%ld,\"method\":\"%s\"", n, method);
    if (session && *session)
        base_buf_printf(&c, ",\"sessionId\":\"%s\"", session);
    if (params) {
        base_buf_puts(&c, ",\"params\":");
        base_buf_puts(&c, params); /* a fulfilment's body may be megabytes */
    }
    base_buf_putc(&c, '}');
    base_buf_add(&c, "", 1); /* the NUL that ends a message */
    if (c.oom) {
        base_buf_free(&c);
        return BROWSER_ENOMEM;
    }
    if (b->trace)
        fprintf(stderr, "browser -> %.*s\n", (int)(c.len < 300 ? c.len : 300), c.data);
    browser_status st = send_raw(b, c.data, c.len, deadline, why, cap);
    base_buf_free(&c);
    if (id)
        *id = n;
    return st;
}

/* Sends a command built in `c` (its params object, without the envelope). */
static browser_status send_built(browser *b, const char *session, const char *method, base_buf *params,
                                 double deadline, char *why, size_t cap)
{
    if (params->oom) {
        base_buf_free(params);
        return BROWSER_ENOMEM;
    }
    browser_status st = send_cmd(b, session, method, params->data, NULL, deadline, why, cap);
    base_buf_free(params);
    return st;
}

static void handle_event(browser *b, const msg *m);

/* Reads until the answer to command `id` comes or the deadline passes;
 * with id < 0, until at least one event was handled and nothing more is
 * buffered (or the deadline). Events are handled as they come. The
 * answer's bytes are moved to *raw (malloc'd; out's spans point into it). */
static browser_status wait_answer(browser *b, long id, double deadline, msg *out, char **raw, char *why, size_t cap)
{
    int handled = 0;
    for (;;) {
        /* Whole messages already in the buffer first; `off` is where the
         * unread ones begin (moved to the front only before a read, so that
         * a read of many events is not moved once per event). */
        char *start = b->in.data ? b->in.data + b->off : NULL;
        size_t avail = b->in.len - b->off;
        char *nul = avail > b->scanned ? memchr(start + b->scanned, 0, avail - b->scanned) : NULL;
        if (nul) {
            size_t n = (size_t)(nul - start);
            msg m;
            if (b->trace)
                fprintf(stderr, "browser <- %.*s\n", (int)(n < 300 ? n : 300), start);
            if (msg_split(&m, start, n) < 0) {
                b->dead = 1; /* the stream cannot be trusted past this: start again */
                why_set(why, cap, "a message from chromium that is not JSON (%zu bytes)", n);
                return BROWSER_EPROTO;
            }
            if (m.id >= 0 && m.id == id) {
                char *mine;
                if (b->off == 0 && n > (64u << 10)) {
                    /* A large answer (the snapshot): the buffer itself is
                     * handed over, the few bytes after it copied out. */
                    size_t rest_n = avail - n - 1;
                    base_buf rest = BASE_BUF_INIT;
                    if (rest_n)
                        base_buf_add(&rest, nul + 1, rest_n);
                    if (rest.oom)
                        return BROWSER_ENOMEM;
                    mine = b->in.data;
                    b->in = rest;
                } else {
                    mine = malloc(n + 1);
                    if (!mine)
                        return BROWSER_ENOMEM;
                    memcpy(mine, start, n);
                    mine[n] = 0;
                    b->off += n + 1;
                }
                b->scanned = 0;
                msg_split(&m, mine, n);
                *out = m;
                *raw = mine;
                if (m.error) {
                    why_set(why, cap, "%.*s", (int)(m.error_len < 200 ? m.error_len : 200), m.error);
                    return BROWSER_EPROTO;
                }
                return BROWSER_OK;
            }
            if (m.id < 0) {
                handle_event(b, &m);
                handled++;
            }
            /* Answers to commands we did not wait for (fulfilments) are
             * dropped. */
            b->off += n + 1;
            b->scanned = 0;
            continue;
        }
        b->scanned = avail;
        if (b->off) {
            memmove(b->in.data, start, avail);
            b->in.len = avail;
            b->in.data[avail] = 0;
            b->off = 0;
        }
        if (id < 0 && handled)
            return BROWSER_OK; /* the caller looks at what the events changed */
        if (b->dead) {
            why_set(why, cap, "chromium closed its pipe (it died)");
            return BROWSER_ECRASH;
        }
        double left = deadline - base_now_ms();
        if (left <= 0) {
            if (id < 0)
                return BROWSER_OK;
            why_set(why, cap, "chromium did not answer in time");
            return BROWSER_ETIME;
        }
        struct pollfd pf = {b->fd, POLLIN, 0};
        int r = poll(&pf, 1, left > 1000 ? 1000 : (int)left + 1);
        if (r < 0 && errno != EINTR) {
            why_set(why, cap, "poll: %s", strerror(errno));
            return BROWSER_EPROTO;
        }
        if (r <= 0)
            continue;
        if (b->in.len > BROWSER_MAX_HELD) {
            b->dead = 1;
            why_set(why, cap, "a message from chromium of more than %zu MB", BROWSER_MAX_HELD >> 20);
            return BROWSER_EPROTO;
        }
        size_t want = b->in.len < (1u << 20) ? (256u << 10) : b->in.len / 2;
        if (base_buf_reserve(&b->in, want) < 0)
            return BROWSER_ENOMEM;
        ssize_t got = read(b->fd, b->in.data + b->in.len, b->in.cap - b->in.len - 1);
        if (got > 0) {
            b->in.len += (size_t)got;
            b->in.data[b->in.len] = 0;
        } else if (got == 0 || (errno != EAGAIN && errno != EINTR && errno != EWOULDBLOCK)) {
            b->dead = 1;
        }
    }
}

/* Sends a command and waits for its answer; the answer's parsed result in
 * *result when not NULL (json_object_put it). */
static browser_status call(browser *b, const char *session, const char *method, const char *params, double deadline,
                           json_object **result, char *why, size_t cap)
{
    long id;
    browser_status st = send_cmd(b, session, method, params, &id, deadline, why, cap);
    if (st != BROWSER_OK)
        return st;
    msg m;
    char *raw = NULL;
    st = wait_answer(b, id, deadline, &m, &raw, why, cap);
    if (st == BROWSER_EPROTO && raw) {
        char w[256];
        snprintf(w, sizeof w, "%s: %s", method, why && cap ? why : "");
        why_set(why, cap, "%s", w);
    }
    if (st == BROWSER_OK && result) {
        *result = parse_span(m.result, m.result_len);
        if (!*result) {
            why_set(why, cap, "%s: an answer that is not JSON", method);
            st = BROWSER_EPROTO;
        }
    }
    free(raw);
    return st;
}

/* ---- events ---- */

static void fail_request(browser *b, page *pg, const char *rid, const char *reason)
{
    base_buf p = BASE_BUF_INIT;
    base_buf_puts(&p, "{\"requestId\":");
    put_jstr(&p, rid, strlen(rid));
    base_buf_printf(&p, ",\"errorReason\":\"%s\"}", reason);
    send_built(b, pg->session, "Fetch.failRequest", &p, base_now_ms() + 2000, NULL, 0);
}

/* How often the image at `url` was refused on this page, this time
 * counted (0: not counted, past the first REFUSED_SEEN addresses). */
static int image_refusals(page *pg, const char *url)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)url; *c; c++)
        h = (h ^ *c) * 1099511628211ULL;
    for (int i = 0; i < pg->n_seen; i++)
        if (pg->seen[i].hash == h)
            return ++pg->seen[i].count;
    if (pg->n_seen >= REFUSED_SEEN)
        return 0;
    pg->seen[pg->n_seen].hash = h;
    pg->seen[pg->n_seen].count = 1;
    return pg->seen[pg->n_seen++].count;
}

/* A transparent GIF of one pixel. */
static const unsigned char blank_gif[] = {
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00,
    0x00, 0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b};

/* Answers an image request with blank_gif. Not counted against the quiet
 * period, as a refusal is not: nothing new comes to the page. */
static void fulfill_blank(browser *b, page *pg, const char *rid)
{
    base_buf p = BASE_BUF_INIT;
    base_buf_puts(&p, "{\"requestId\":");
    put_jstr(&p, rid, strlen(rid));
    base_buf_puts(&p, ",\"responseCode\":200,\"responseHeaders\":[{\"name\":\"Content-Type\",\"value\":"
                      "\"image/gif\"}],\"body\":\"");
    put_base64(&p, blank_gif, sizeof blank_gif);
    base_buf_puts(&p, "\"}");
    send_built(b, pg->session, "Fetch.fulfillRequest", &p, base_now_ms() + 5000, NULL, 0);
}

/* Refuses a request the page may not have: an image (`image_url` not NULL)
 * refused past REFUSED_REPEATS times at its address is answered with
 * blank_gif instead. */
static void refuse_request(browser *b, page *pg, const char *rid, const char *image_url)
{
    if (image_url && image_refusals(pg, image_url) > REFUSED_REPEATS) {
        fulfill_blank(b, pg, rid);
        return;
    }
    pg->refused++;
    fail_request(b, pg, rid, "BlockedByClient");
}

static void on_request(browser *b, page *pg, json_object *params)
{
    const char *rid = jstr(params, "requestId");
    json_object *req = jobj(params, "request");
    const char *url = jstr(req, "url"), *method = jstr(req, "method");
    const char *type = jstr(params, "resourceType"), *frame = jstr(params, "frameId");
    if (!rid)
        return;
    pg->requests++;
    int is_main = type && strcmp(type, "Document") == 0 && frame && strcmp(frame, pg->target) == 0;
    if (is_main && pg->committed) {
        /* A navigation away from the committed document (a location loop,
         * a meta refresh): aborted, which commits no error page, so the
         * first document stays to be captured. */
        pg->refused++;
        fail_request(b, pg, rid, "Aborted");
        return;
    }
    const char *image_url = type && strcmp(type, "Image") == 0 ? url : NULL;
    if (pg->o->max_requests > 0 && pg->requests > pg->o->max_requests) {
        refuse_request(b, pg, rid, image_url);
        return;
    }
    /* Only a request answered counts against the quiet period: a refused
     * one is over at once and brings nothing for the page to work on (a
     * location loop would otherwise never be quiet). */
    browser_request rq = {url ? url : "", method ? method : "GET", type ? type : "Other", is_main};
    browser_response out;
    memset(&out, 0, sizeof out);
    if (pg->fetch)
        pg->fetch(pg->ud, &rq, &out);
    if (out.status <= 0) {
        refuse_request(b, pg, rid, image_url);
        return;
    }
    pg->last_request_at = base_now_ms();
    base_buf p = BASE_BUF_INIT;
    base_buf_puts(&p, "{\"requestId\":");
    put_jstr(&p, rid, strlen(rid));
    base_buf_printf(&p, ",\"responseCode\":%d,\"responseHeaders\":[", out.status);
    int first = 1;
    if (out.content_type) {
        base_buf_puts(&p, "{\"name\":\"Content-Type\",\"value\":");
        put_jstr(&p, out.content_type, strlen(out.content_type));
        base_buf_putc(&p, '}');
        first = 0;
    }
    if (out.location) {
        base_buf_puts(&p, first ? "" : ",");
        base_buf_puts(&p, "{\"name\":\"Location\",\"value\":");
        put_jstr(&p, out.location, strlen(out.location));
        base_buf_putc(&p, '}');
    }
    base_buf_puts(&p, "],\"body\":\"");
    if (out.body && out.len)
        put_base64(&p, (const unsigned char *)out.body, out.len);
    base_buf_puts(&p, "\"}");
    send_built(b, pg->session, "Fetch.fulfillRequest", &p, base_now_ms() + 5000, NULL, 0);
}

static void handle_event(browser *b, const msg *m)
{
    page *pg = b->page;
    if (!pg)
        return;
    int mine = pg->session[0] && strcmp(m->session, pg->session) == 0;
    const char *ev = m->method;
    if (mine && strcmp(ev, "Fetch.requestPaused") == 0) {
        json_object *p = parse_span(m->params, m->params_len);
        on_request(b, pg, p);
        json_object_put(p);
    } else if (mine && strcmp(ev, "Page.frameNavigated") == 0) {
        json_object *p = parse_span(m->params, m->params_len);
        json_object *f = jobj(p, "frame");
        const char *url = jstr(f, "url");
        if (f && !jobj(f, "parentId") && pg->navigating && url) {
            pg->committed = 1;
            free(pg->url);
            pg->url = strdup(url);
        }
        json_object_put(p);
    } else if (mine && strcmp(ev, "Emulation.virtualTimeBudgetExpired") == 0) {
        pg->virtual_spent = 1;
    } else if (mine && strcmp(ev, "Page.loadEventFired") == 0) {
        if (pg->committed && !pg->load_fired) {
            pg->load_fired = 1;
            pg->load_at = base_now_ms();
        }
    } else if (mine && strcmp(ev, "Page.domContentEventFired") == 0) {
        if (pg->committed && !pg->dcl_fired) {
            pg->dcl_fired = 1;
            pg->dcl_at = base_now_ms();
        }
    } else if (mine && strcmp(ev, "Page.frameStoppedLoading") == 0) {
        /* The main frame stopped loading without a load event: a navigation
         * started during the parse (location.reload()) cancels the load of
         * the document, which then never fires it. */
        json_object *p = parse_span(m->params, m->params_len);
        const char *f = jstr(p, "frameId");
        if (f && strcmp(f, pg->target) == 0 && pg->committed && !pg->load_fired) {
            pg->load_fired = 1;
            pg->load_at = base_now_ms();
        }
        json_object_put(p);
    } else if (mine && strcmp(ev, "Page.javascriptDialogOpening") == 0) {
        json_object *p = parse_span(m->params, m->params_len);
        const char *type = jstr(p, "type");
        /* beforeunload accepted, so that a navigation does not wait on it. */
        int accept = type && strcmp(type, "beforeunload") == 0;
        send_cmd(b, pg->session, "Page.handleJavaScriptDialog", accept ? "{\"accept\":true}" : "{\"accept\":false}",
                 NULL, base_now_ms() + 2000, NULL, 0);
        json_object_put(p);
    } else if ((mine && strcmp(ev, "Inspector.targetCrashed") == 0)) {
        pg->crashed = 1;
        snprintf(pg->crash_why, sizeof pg->crash_why, "the page's renderer crashed");
    } else if (strcmp(ev, "Target.targetCrashed") == 0) {
        json_object *p = parse_span(m->params, m->params_len);
        const char *t = jstr(p, "targetId");
        if (t && strcmp(t, pg->target) == 0) {
            pg->crashed = 1;
            snprintf(pg->crash_why, sizeof pg->crash_why, "the page's renderer died (%s, code %d)",
                     jstr(p, "status") ? jstr(p, "status") : "?", json_object_get_int(jobj(p, "errorCode")));
        }
        json_object_put(p);
    } else if (strcmp(ev, "Target.targetCreated") == 0) {
        json_object *p = parse_span(m->params, m->params_len);
        json_object *ti = jobj(p, "targetInfo");
        const char *t = jstr(ti, "targetId"), *type = jstr(ti, "type"), *ctx = jstr(ti, "browserContextId");
        /* A window the page opened: closed at once (its requests would not
         * pass through the page's interception). */
        if (t && type && ctx && pg->target[0] && strcmp(t, pg->target) != 0 && strcmp(ctx, pg->ctx) == 0 &&
            strcmp(type, "page") == 0) {
            base_buf q = BASE_BUF_INIT;
            base_buf_puts(&q, "{\"targetId\":");
            put_jstr(&q, t, strlen(t));
            base_buf_putc(&q, '}');
            send_built(b, NULL, "Target.closeTarget", &q, base_now_ms() + 2000, NULL, 0);
        }
        json_object_put(p);
    } else if (strcmp(ev, "Target.detachedFromTarget") == 0) {
        json_object *p = parse_span(m->params, m->params_len);
        const char *s = jstr(p, "sessionId");
        if (s && strcmp(s, pg->session) == 0 && !pg->crashed) {
            pg->crashed = 1;
            snprintf(pg->crash_why, sizeof pg->crash_why, "the page was detached (closed or crashed)");
        }
        json_object_put(p);
    }
}

/* ---- a load ---- */

static const char *const default_styles[] = {"display", "visibility", "position", "font-size", "font-weight",
                                             "white-space", "overflow-x", "overflow-y", "opacity", NULL};

/* Starts the browser when it is not running or died. */
static browser_status ensure_started(browser *b, const browser_opts *o, double deadline, double *start_ms,
                                     char *why, size_t cap)
{
    if (b->pid != 0 && (b->dead || browser_exited(b))) {
        browser_stop(b);
        b->restarts++;
    }
    if (b->pid > 0)
        return BROWSER_OK;
    double t = base_now_ms();
    browser_status st = browser_start(b, o, deadline, why, cap);
    if (start_ms)
        *start_ms = base_now_ms() - t;
    return st;
}

browser_status browser_version(browser *b, const browser_opts *o, char *buf, size_t cap)
{
    char why[256];
    if (cap)
        buf[0] = 0;
    browser_status st = ensure_started(b, o, 0, NULL, why, sizeof why);
    if (st != BROWSER_OK) {
        snprintf(buf, cap, "%s", why);
        return st;
    }
    json_object *r = NULL;
    st = call(b, NULL, "Browser.getVersion", NULL, base_now_ms() + 5000, &r, why, sizeof why);
    if (st == BROWSER_OK)
        snprintf(buf, cap, "%s", jstr(r, "product") ? jstr(r, "product") : "");
    else
        snprintf(buf, cap, "%s", why);
    json_object_put(r);
    return st;
}

/* Ends a page: its context disposed of, its renderer gone with it. A
 * browser that does not answer is killed (the next load starts one). */
static void page_end(browser *b, page *pg)
{
    /* Events from here on are dropped: the page's paused requests go with
     * its context, and the callback is not called during the clean-up. */
    b->page = NULL;
    if (b->pid > 0 && !b->dead && pg->ctx[0]) {
        char w[128];
        base_buf p = BASE_BUF_INIT;
        base_buf_puts(&p, "{\"browserContextId\":");
        put_jstr(&p, pg->ctx, strlen(pg->ctx));
        base_buf_putc(&p, '}');
        browser_status st = BROWSER_ENOMEM;
        if (!p.oom)
            st = call(b, NULL, "Target.disposeBrowserContext", p.data, base_now_ms() + BROWSER_DISPOSE_MS, NULL, w,
                      sizeof w);
        base_buf_free(&p);
        if (st == BROWSER_ETIME || st == BROWSER_ECRASH) {
            browser_stop(b);
            b->restarts++;
        }
    }
    free(pg->url);
    pg->url = NULL;
}

static browser_status capture_png(browser *b, page *pg, double deadline, browser_capture *out, char *why, size_t cap)
{
    json_object *r = NULL;
    browser_status st = call(b, pg->session, "Page.getLayoutMetrics", NULL, deadline, &r, why, cap);
    if (st != BROWSER_OK)
        return st;
    json_object *cs = jobj(r, "cssContentSize");
    double w = json_object_get_double(jobj(cs, "width")), h = json_object_get_double(jobj(cs, "height"));
    json_object_put(r);
    if (w < 1)
        w = pg->o->window_w;
    if (h < 1)
        h = pg->o->window_h;
    if (h > BROWSER_SHOT_MAX_H)
        h = BROWSER_SHOT_MAX_H;
    char params[256];
    snprintf(params, sizeof params,
             "{\"format\":\"png\",\"captureBeyondViewport\":true,\"clip\":{\"x\":0,\"y\":0,\"width\":%.0f,"
             "\"height\":%.0f,\"scale\":1}}",
             w, h);
    long id;
    st = send_cmd(b, pg->session, "Page.captureScreenshot", params, &id, deadline, why, cap);
    if (st != BROWSER_OK)
        return st;
    msg m;
    char *raw = NULL;
    st = wait_answer(b, id, deadline, &m, &raw, why, cap);
    if (st == BROWSER_OK) {
        /* {"data":"..."}: the base64 read off the raw text, not parsed. */
        const char *k = m.result ? memmem(m.result, m.result_len, "\"data\":\"", 8) : NULL;
        if (!k) {
            why_set(why, cap, "Page.captureScreenshot: no data");
            st = BROWSER_EPROTO;
        } else {
            const char *s = k + 8, *e = skip_string(k + 7, m.result + m.result_len);
            if (!e) {
                st = BROWSER_EPROTO;
            } else {
                out->png = base64_decode(s, (size_t)(e - 1 - s), &out->png_len);
                if (!out->png)
                    st = BROWSER_ENOMEM;
            }
        }
    }
    free(raw);
    return st;
}

/* Changes to the page before its snapshot, asked with a short deadline
 * and not waited for past it (a page that does not answer keeps its
 * layout); examples/snapshot.mjs makes the same (docs/snapshot.md).
 *
 * An <svg> outside SVG with neither a width nor a height, that no rule of
 * the page sizes, is laid out by the browser as wide as its container, and
 * as tall as its viewBox's shape makes it: an icon whose stylesheet did not
 * come (a saved page, a refused host) fills the window, and a row of them
 * pushes the content dozens of screens down. It is given the size of a
 * letter, as the icons it stands for are drawn. The rule weighs nothing
 * against the page's own (:where), so any rule of the page that sizes it
 * wins.
 *
 * A closed <details> is opened: what it holds (a question's answer, a
 * step's explanation, a long list folded) is the page's text, which the
 * browser lays out only once it is open, and which litehtml, knowing no
 * <details>, always shows. The page's scripts are stopped by then, so no
 * handler of its toggle event runs. */
#define UNSIZED_SVG_CSS ":where(:not(svg)>svg:not([width]):not([height]),:not(svg)>svg[width$=\"%\"]){width:1em;height:1em}"

/* With scripts off, the browser parses a <noscript>'s markup, lays it out
 * and applies its styles, where the litehtml engine shows only the
 * <noscript>s that hold a reader's text (render/noscript.h); the page is
 * made to read as litehtml reads it:
 * - Some pages' <noscript> styles hide the page to show a warning in its
 *   place ("div:not(.no-js) { display:none }"). When the text the browser
 *   shows is less than RENDER_HIDDEN_SHARE (a fifth) of the page's text
 *   outside <noscript>, white space not counted, the styles inside
 *   <noscript> are taken out, as litehtml lays such a page out again
 *   without them.
 * - A <noscript> in the body showing fewer than NOSCRIPT_MIN_CHARS (300)
 *   characters, white space not counted, is hidden: a tracking pixel, the
 *   fallback <img> of a lazy image, an advert's banner, a line asking for
 *   JavaScript. (litehtml also hides a longer one that is mostly markup
 *   written as text or a copy of the page's text; this does not.) */
#define NOSCRIPT_HIDING_JS                                                                              \
    "var n=function(s){return s.replace(/\\s+/g,'').length},"                                           \
    "ns=d.querySelectorAll('noscript style,noscript link[rel~=stylesheet i]');"                         \
    "if(ns.length&&d.body){var all=0,t,w=d.createTreeWalker(d.body,NodeFilter.SHOW_TEXT);"              \
    "while(t=w.nextNode())if(!t.parentElement.closest('noscript,script,style,template'))all+=n(t.data);" \
    "if(n(d.body.innerText)<0.2*all)ns.forEach(function(e){e.remove()})}"                                \
    "var few=[];d.querySelectorAll('body noscript').forEach(function(e){if(n(e.innerText)<300)few.push(e)});" \
    "few.forEach(function(e){e.style.setProperty('display','none','important')});"

/* With scripts off, a page streamed in parts (React's streaming server
 * rendering: render/streamed.h) keeps each part hidden, <div hidden
 * id="S:0">, and shows the fallback in its place (a spinner, or nothing):
 * the script that moves it, $RC("B:0","S:0") or $RS("S:1","P:1"), does not
 * run. Each part its scripts' texts name is put in its place, in their
 * order, as litehtml's engine reads such a page: for $RC, in place of the
 * boundary's template and fallback up to its end comment (<!--/$-->);
 * for $RS, in place of the placeholder. No script of the page runs; their
 * texts are read for the pairs of ids alone, STREAMED_MAX_PARTS at most. */
#define STREAMED_PARTS_JS                                                                                   \
    "var re=/\\$R([CS])\\(\\s*([\"'])([^\"']*)\\2\\s*,\\s*([\"'])([^\"']*)\\4/g,m,todo=[];"                 \
    "d.querySelectorAll('script').forEach(function(s){var t=s.textContent;re.lastIndex=0;"                   \
    "while(m=re.exec(t))todo.push(m)});"                                                                     \
    "todo.slice(0,4096).forEach(function(m){var c=m[1]=='C',part=d.getElementById(c?m[5]:m[3]),"              \
    "at=d.getElementById(c?m[3]:m[5]);if(!part||!at||!at.parentNode||!part.parentNode||part.contains(at))"   \
    "return;var p=at.parentNode,end=at.nextSibling,k=0,x;"                                                   \
    "if(c)while(end&&!(end.nodeType==8&&end.data=='/$'&&k==0)){if(end.nodeType==8){if(end.data=='/$')k--;"   \
    "else if(/^\\$[?!]?$/.test(end.data))k++}x=end.nextSibling;p.removeChild(end);end=x}"                    \
    "while(part.firstChild)p.insertBefore(part.firstChild,end);p.removeChild(at);"                           \
    "part.parentNode.removeChild(part)});"

static void before_snapshot(browser *b, page *pg, double deadline)
{
#define PAGE_FIXES_JS                                                                      \
    "var d=document,s=d.createElement('style');s.textContent='" UNSIZED_SVG_CSS            \
    "';(d.head||d.documentElement).appendChild(s);"                                        \
    "d.querySelectorAll('details:not([open])').forEach(function(e){e.open=true});"
    static const char expr[] = "(function(){" PAGE_FIXES_JS "})()";
    /* Each fix of a page without scripts on its own: one that fails (a page
     * built oddly) leaves the other done. */
    static const char expr_noscript[] =
        "(function(){" PAGE_FIXES_JS "try{" NOSCRIPT_HIDING_JS "}catch(e){}try{" STREAMED_PARTS_JS "}catch(e){}})()";
#undef PAGE_FIXES_JS
    base_buf p = BASE_BUF_INIT;
    base_buf_puts(&p, "{\"expression\":");
    if (pg->o->scripts)
        put_jstr(&p, expr, sizeof expr - 1);
    else
        put_jstr(&p, expr_noscript, sizeof expr_noscript - 1);
    base_buf_putc(&p, '}');
    double dl = base_now_ms() + 300;
    if (dl > deadline)
        dl = deadline;
    json_object *r = NULL;
    char why[64];
    if (!p.oom && call(b, pg->session, "Runtime.evaluate", p.data, dl, &r, why, sizeof why) == BROWSER_OK)
        json_object_put(r);
    base_buf_free(&p);
}

static browser_status capture_snapshot(browser *b, page *pg, double deadline, browser_capture *out, char *why,
                                       size_t cap)
{
    const browser_opts *o = pg->o;
    base_buf p = BASE_BUF_INIT;
    base_buf_puts(&p, "{\"computedStyles\":[");
    const char *const *styles = o->computed_styles ? o->computed_styles : default_styles;
    for (size_t i = 0; styles[i]; i++) {
        if (i)
            base_buf_putc(&p, ',');
        put_jstr(&p, styles[i], strlen(styles[i]));
    }
    base_buf_puts(&p, "],\"includeDOMRects\":true,\"includePaintOrder\":false}");
    if (p.oom) {
        base_buf_free(&p);
        return BROWSER_ENOMEM;
    }
    long id;
    browser_status st = send_cmd(b, pg->session, "DOMSnapshot.captureSnapshot", p.data, &id, deadline, why, cap);
    base_buf_free(&p);
    if (st != BROWSER_OK)
        return st;
    msg m;
    char *raw = NULL;
    st = wait_answer(b, id, deadline, &m, &raw, why, cap);
    if (st != BROWSER_OK) {
        free(raw);
        return st;
    }
    if (!m.result || m.result_len < 2 || m.result[0] != '{') {
        free(raw);
        why_set(why, cap, "DOMSnapshot.captureSnapshot: no result object");
        return BROWSER_EPROTO;
    }
    /* A phone's browser lays the page out in a layout viewport of its own
     * (the meta viewport's width, else 980 px): that is the window the
     * boxes are in. */
    int ww = o->window_w, wh = o->window_h;
    if (o->mobile) {
        json_object *r = NULL;
        st = call(b, pg->session, "Page.getLayoutMetrics", NULL, deadline, &r, why, cap);
        if (st != BROWSER_OK) {
            free(raw);
            return st;
        }
        json_object *lv = jobj(r, "cssLayoutViewport");
        int lw = json_object_get_int(jobj(lv, "clientWidth")), lh = json_object_get_int(jobj(lv, "clientHeight"));
        json_object_put(r);
        if (lw > 0 && lh > 0)
            ww = lw, wh = lh;
    }
    /* The envelope around the result's own text, spliced, not parsed. */
    base_buf e = BASE_BUF_INIT;
    base_buf_reserve(&e, m.result_len + 512);
    base_buf_puts(&e, "{\"glance_snapshot\":1,\"url\":");
    const char *url = pg->url ? pg->url : "";
    put_jstr(&e, url, strlen(url));
    base_buf_printf(&e, ",\"window\":{\"width\":%d,\"height\":%d},%s\"scripts\":%s,\"snapshot\":", ww, wh,
                    o->mobile ? "\"mobile\":true," : "", o->scripts ? "true" : "false");
    base_buf_add(&e, m.result, m.result_len);
    base_buf_putc(&e, '}');
    free(raw);
    out->snapshot = base_buf_take(&e, &out->snapshot_len);
    return out->snapshot ? BROWSER_OK : BROWSER_ENOMEM;
}

/* The snapshot is tried at this share of the budget when the load event
 * has not come (a page kept busy): a page half loaded beats none. */
#define BROWSER_LATE_SHARE 0.8

/* A page whose document was parsed (DOMContentLoaded) but whose load event
 * does not come, with no request answered for this long (and at least
 * four quiet periods), is taken as it is: the load waits for a frame
 * that never finishes (an advert's frame written with document.open() and
 * never closed once its scripts were refused), which nothing will end
 * before the budget does. 37 lang-dev pages waited 14.5 s for it. */
#define BROWSER_UNLOADED_MS 2000.0

browser_status browser_load(browser *b, const browser_opts *oin, const char *url, browser_fetch_fn fetch, void *ud,
                            browser_capture *out, char *why, size_t cap)
{
    memset(out, 0, sizeof *out);
    if (why && cap)
        why[0] = 0;
    browser_opts o = *oin;
    if (o.window_w <= 0 || o.window_h <= 0)
        o.window_w = 1280, o.window_h = 800;
    if (o.budget_ms <= 0)
        o.budget_ms = 10000;
    if (o.quiet_ms < 0)
        o.quiet_ms = 0;
    double t0 = base_now_ms();
    double deadline = t0 + (double)o.budget_ms;

    browser_status st = ensure_started(b, &o, 0, &out->start_ms, why, cap);
    if (st != BROWSER_OK)
        return st;
    /* The start is not the page's time: the budget counts from here. */
    t0 = base_now_ms();
    deadline = t0 + (double)o.budget_ms;

    page pg;
    memset(&pg, 0, sizeof pg);
    pg.o = &o;
    pg.fetch = fetch;
    pg.ud = ud;
    b->page = &pg;
    json_object *r = NULL;
    char params[512];

    st = call(b, NULL, "Target.createBrowserContext", "{\"disposeOnDetach\":true}", deadline, &r, why, cap);
    if (st == BROWSER_ECRASH) {
        /* It died since the last page (killed, or its thread ended) and
         * had not been reaped yet when looked at: started again, once. */
        browser_stop(b);
        b->restarts++;
        double started = 0;
        st = ensure_started(b, &o, 0, &started, why, cap);
        out->start_ms += started;
        t0 = base_now_ms();
        deadline = t0 + (double)o.budget_ms;
        if (st == BROWSER_OK)
            st = call(b, NULL, "Target.createBrowserContext", "{\"disposeOnDetach\":true}", deadline, &r, why, cap);
    }
    if (st != BROWSER_OK)
        goto done;
    snprintf(pg.ctx, sizeof pg.ctx, "%s", jstr(r, "browserContextId") ? jstr(r, "browserContextId") : "");
    json_object_put(r);
    r = NULL;
    snprintf(params, sizeof params, "{\"url\":\"about:blank\",\"browserContextId\":\"%s\"}", pg.ctx);
    st = call(b, NULL, "Target.createTarget", params, deadline, &r, why, cap);
    if (st != BROWSER_OK)
        goto done;
    snprintf(pg.target, sizeof pg.target, "%s", jstr(r, "targetId") ? jstr(r, "targetId") : "");
    json_object_put(r);
    r = NULL;
    snprintf(params, sizeof params, "{\"targetId\":\"%s\",\"flatten\":true}", pg.target);
    st = call(b, NULL, "Target.attachToTarget", params, deadline, &r, why, cap);
    if (st != BROWSER_OK)
        goto done;
    snprintf(pg.session, sizeof pg.session, "%s", jstr(r, "sessionId") ? jstr(r, "sessionId") : "");
    json_object_put(r);
    r = NULL;
    if (!pg.ctx[0] || !pg.target[0] || !pg.session[0]) {
        why_set(why, cap, "no browser context, target or session in chromium's answers");
        st = BROWSER_EPROTO;
        goto done;
    }
    const char *s = pg.session;
    snprintf(params, sizeof params,
             "{\"width\":%d,\"height\":%d,\"deviceScaleFactor\":1,\"mobile\":%s}", o.window_w, o.window_h,
             o.mobile ? "true" : "false");
    if ((st = call(b, s, "Inspector.enable", NULL, deadline, NULL, why, cap)) != BROWSER_OK ||
        (st = call(b, s, "Page.enable", NULL, deadline, NULL, why, cap)) != BROWSER_OK ||
        (st = call(b, s, "Fetch.enable", "{\"patterns\":[{\"urlPattern\":\"*\",\"requestStage\":\"Request\"}]}",
                   deadline, NULL, why, cap)) != BROWSER_OK ||
        (st = call(b, s, "Emulation.setDeviceMetricsOverride", params, deadline, NULL, why, cap)) != BROWSER_OK)
        goto done;
    /* A phone's screen is touched, not pointed at: (hover: none) and
     * (pointer: coarse) hold, as render/viewport.c has them for litehtml. */
    if (o.mobile &&
        (st = call(b, s, "Emulation.setTouchEmulationEnabled", "{\"enabled\":true,\"maxTouchPoints\":5}",
                   deadline, NULL, why, cap)) != BROWSER_OK)
        goto done;
    if (o.scripts &&
        (st = call(b, s, "Page.addScriptToEvaluateOnNewDocument",
                   /* Dialogs answered in the page as a dismissal answers them,
                    * without a round trip each: an alert() loop would
                    * otherwise run at a hundred dialogs a second, past any
                    * budget. Page.javascriptDialogOpening still dismisses
                    * what gets through. */
                   "{\"source\":\"(function(){var w=window;w.alert=function(){};"
                   "w.confirm=function(){return false};w.prompt=function(){return null};"
                   "w.print=function(){};})()\"}",
                   deadline, NULL, why, cap)) != BROWSER_OK)
        goto done;
    if (!o.scripts &&
        (st = call(b, s, "Emulation.setScriptExecutionDisabled", "{\"value\":true}", deadline, NULL, why, cap)) !=
            BROWSER_OK)
        goto done;
    /* The page's clock stands still until its document commits; from then
     * on it runs only while no request is pending (below). */
    int virtual_on = o.scripts && o.virtual_ms > 0;
    if (virtual_on &&
        (st = call(b, s, "Emulation.setVirtualTimePolicy", "{\"policy\":\"pause\"}", deadline, NULL, why, cap)) !=
            BROWSER_OK)
        goto done;

    /* The navigation: its requests come as events while we wait for the
     * answer, which comes once it commits or fails. */
    {
        base_buf p = BASE_BUF_INIT;
        base_buf_puts(&p, "{\"url\":");
        put_jstr(&p, url, strlen(url));
        base_buf_putc(&p, '}');
        if (p.oom) {
            base_buf_free(&p);
            st = BROWSER_ENOMEM;
            goto done;
        }
        pg.navigating = 1;
        st = call(b, s, "Page.navigate", p.data, deadline, &r, why, cap);
        base_buf_free(&p);
        if (st != BROWSER_OK)
            goto done;
        const char *err = jstr(r, "errorText");
        if (err && *err) {
            why_set(why, cap, "the navigation failed: %s", err);
            st = BROWSER_EPROTO;
            goto done;
        }
        json_object *dl = jobj(r, "isDownload");
        if (dl && json_object_get_boolean(dl)) {
            why_set(why, cap, "the page is a download (refused), not a document");
            st = BROWSER_EPROTO;
            goto done;
        }
        json_object_put(r);
        r = NULL;
    }
    /* The virtual clock: the page's timers fire in their order, as fast
     * as the page's tasks allow, and not while a request is pending; it
     * stops after virtual_ms (Emulation.virtualTimeBudgetExpired). */
    if (virtual_on) {
        snprintf(params, sizeof params, "{\"policy\":\"pauseIfNetworkFetchesPending\",\"budget\":%ld}",
                 o.virtual_ms);
        if ((st = call(b, s, "Emulation.setVirtualTimePolicy", params, deadline, NULL, why, cap)) != BROWSER_OK)
            goto done;
    }

    /* The wait: the load event, then quiet_ms without a request; or, when
     * the load event does not come, DOMContentLoaded, then `unloaded` ms
     * without one. With virtual_ms, also the virtual clock's budget spent
     * (a request that never ends keeps it from running: then the late
     * snapshot below). */
    double late = t0 + BROWSER_LATE_SHARE * (double)o.budget_ms;
    double unloaded = 4.0 * (double)o.quiet_ms > BROWSER_UNLOADED_MS ? 4.0 * (double)o.quiet_ms
                                                                      : BROWSER_UNLOADED_MS;
    for (;;) {
        if (pg.crashed) {
            why_set(why, cap, "%s", pg.crash_why);
            st = BROWSER_ECRASH;
            goto done;
        }
        double now = base_now_ms();
        /* When the page is taken: quiet_ms after the load event and the
         * last request answered; without the load event, `unloaded` after
         * DOMContentLoaded and the last answer; 0: not yet, nor while the
         * virtual clock runs. */
        double ready = 0;
        if (!virtual_on || pg.virtual_spent) {
            if (pg.load_fired)
                ready = (pg.load_at > pg.last_request_at ? pg.load_at : pg.last_request_at) + (double)o.quiet_ms;
            else if (pg.dcl_fired)
                ready = (pg.dcl_at > pg.last_request_at ? pg.dcl_at : pg.last_request_at) + unloaded;
        }
        if (ready > 0 && now >= ready)
            break;
        if (now >= late && pg.committed)
            break;
        if (now >= deadline) {
            why_set(why, cap, "no document committed within the budget of %ld ms", o.budget_ms);
            st = BROWSER_ETIME;
            goto done;
        }
        double until = ready > 0 && ready < late ? ready : late;
        if (until <= now)
            until = now + 5;
        if (until > deadline)
            until = deadline;
        msg m;
        st = wait_answer(b, -1, until, &m, NULL, why, cap);
        if (st != BROWSER_OK)
            goto done;
    }
    out->load_ms = base_now_ms() - t0;

    if (o.scripts) {
        /* The page is frozen before the snapshot: a page kept busy (a
         * script that spins from the start, or from a timer once the page
         * was quiet) would never answer it. Both commands interrupt the
         * renderer's running script (Chromium runs them off its main
         * thread), so no new script starts and the one running ends. Their
         * answers come once the main thread is free, at once on a page at
         * rest, so they are not waited for beyond a moment. */
        double dl = base_now_ms() + 300;
        if (dl > deadline)
            dl = deadline;
        long id1, id2;
        if (send_cmd(b, pg.session, "Emulation.setScriptExecutionDisabled", "{\"value\":true}", &id1, dl, why,
                     cap) == BROWSER_OK &&
            send_cmd(b, pg.session, "Runtime.terminateExecution", NULL, &id2, dl, why, cap) == BROWSER_OK) {
            msg m;
            char *raw = NULL;
            if (wait_answer(b, id2, dl, &m, &raw, why, cap) == BROWSER_OK && b->trace)
                fprintf(stderr, "browser: a busy page's script terminated\n");
            free(raw);
        }
        if (why && cap)
            why[0] = 0;
    }

    before_snapshot(b, &pg, deadline);

    double ts = base_now_ms();
    st = capture_snapshot(b, &pg, deadline, out, why, cap);
    if (st == BROWSER_ETIME)
        why_set(why, cap,
                "the page did not answer the snapshot within the budget of %ld ms (asked at %.0f ms, the load "
                "event %s; a busy script?)",
                o.budget_ms, ts - t0, pg.load_fired ? "came" : "never came");
    out->snapshot_ms = base_now_ms() - ts;
    if (st == BROWSER_OK && o.screenshot)
        st = capture_png(b, &pg, deadline, out, why, cap);

done:
    if (pg.crashed && st != BROWSER_OK && st != BROWSER_ECRASH) {
        why_set(why, cap, "%s", pg.crash_why);
        st = BROWSER_ECRASH;
    }
    json_object_put(r);
    out->requests = pg.requests;
    out->refused = pg.refused;
    page_end(b, &pg);
    if (st != BROWSER_OK) {
        free(out->snapshot);
        out->snapshot = NULL;
        out->snapshot_len = 0;
        free(out->png);
        out->png = NULL;
        out->png_len = 0;
    }
    return st;
}

void browser_capture_free(browser_capture *c)
{
    if (!c)
        return;
    free(c->snapshot);
    free(c->png);
    memset(c, 0, sizeof *c);
}
