/* net/ on its own: the scan that finds a page's stylesheets, URL
 * resolution, the address policy's table, and the policy at work on real
 * connection attempts: 127.0.0.1 through the tests' server; 10.0.0.1, and
 * redirects from a "public" host to 127.0.0.1 and 10.0.0.1, in a network
 * namespace of the test's own, where no packet can leave the machine even
 * if the policy failed. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "httpd.h"
#include "net/net.h"
#include "base/sheetrefs.h"

typedef struct refs {
    char *v[32];
    int n;
} refs;

static int collect(void *ud, const char *ref)
{
    refs *r = ud;
    if (r->n < 32)
        r->v[r->n++] = strdup(ref);
    return 0;
}

static void refs_free(refs *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->v[i]);
    r->n = 0;
}

static void scan_finds_what_litehtml_asks_for(void **state)
{
    static const char page[] =
        "<html><head><base href='https://example.test/news/'>"
        "<link rel=\"stylesheet\" href=\"a.css?x=1&amp;y=2\">"
        "<link href='/b.css' rel=stylesheet media=print>"
        "<link rel=\"preload\" href=\"no-preload.css\">"
        "<link rel=\"alternate stylesheet\" href=\"no-alternate.css\">"
        "<link rel=\"stylesheet\" href=\"no-disabled.css\" disabled>"
        "<!-- <link rel=stylesheet href=no-comment.css> -->"
        "<script>var s = '<link rel=stylesheet href=no-script.css>';</script>"
        "<style>/* @import 'no-css-comment.css'; */ @import \"c.css\"; @import url(d.css) screen;"
        " @import url( 'e.css' ); p { content: '@import \"no-string.css\"' }</style>"
        "<link rel=stylesheet href=\"&#x66;.css\">"
        "</head><body><p>text</p></body></html>";
    refs r = {0};
    char *base = NULL;
    assert_int_equal(base_sheet_refs_html(page, strlen(page), &base, collect, &r), 0);
    assert_string_equal(base, "https://example.test/news/");
    const char *want[] = {"a.css?x=1&y=2", "/b.css", "c.css", "d.css", "e.css", "f.css"};
    assert_int_equal(r.n, 6);
    for (int i = 0; i < 6; i++)
        assert_string_equal(r.v[i], want[i]);
    refs_free(&r);
    free(base);
}

static void scan_css_imports(void **state)
{
    static const char css[] = "@charset \"utf-8\";\n@import 'one.css';\n@import url(\"two.css\") print;\n"
                              "/* @import 'none.css'; */ body { color: red }\n"
                              "@media screen { @import url(three.css); }\n";
    refs r = {0};
    assert_int_equal(base_sheet_refs_css(css, strlen(css), collect, &r), 0);
    assert_int_equal(r.n, 3);
    assert_string_equal(r.v[0], "one.css");
    assert_string_equal(r.v[1], "two.css");
    assert_string_equal(r.v[2], "three.css");
    refs_free(&r);
    /* The bytes "@import" first in a string and a comment, then a rule:
     * the scan goes on past each to the next. */
    static const char later[] = "p::before { content: '@import \"no.css\"' }\n"
                                "/* @import 'none.css'; */ a { color: red }\n"
                                "@import url(four.css);\n";
    refs r2 = {0};
    assert_int_equal(base_sheet_refs_css(later, strlen(later), collect, &r2), 0);
    assert_int_equal(r2.n, 1);
    assert_string_equal(r2.v[0], "four.css");
    refs_free(&r2);
}

static void resolve_against_base(void **state)
{
    static const struct {
        const char *base, *ref, *want;
    } cases[] = {
        {"http://a.test/dir/page.html", "x.css", "http://a.test/dir/x.css"},
        {"http://a.test/dir/page.html", "../x.css", "http://a.test/x.css"},
        {"http://a.test/dir/page.html", "/root.css", "http://a.test/root.css"},
        {"https://a.test/dir/page.html", "//cdn.test/c.css", "https://cdn.test/c.css"},
        {"http://a.test/", "  \n x.css \t", "http://a.test/x.css"},
        {NULL, "https://b.test/s.css", "https://b.test/s.css"},
        {NULL, "relative.css", NULL},
        {"http://a.test/", "file:///etc/passwd", NULL},
        {"http://a.test/", "ftp://a.test/x.css", NULL},
        {"http://a.test/", "data:text/css,p{}", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = net_resolve(cases[i].base, cases[i].ref);
        if (!cases[i].want) {
            if (got)
                fail_msg("%s + %s gave %s, expected none", cases[i].base, cases[i].ref, got);
        } else if (!got || strcmp(got, cases[i].want) != 0) {
            fail_msg("%s + %s gave %s, expected %s", cases[i].base, cases[i].ref,
                     got ? got : "(none)", cases[i].want);
        }
        free(got);
    }
}

static int addr_public(const char *ip)
{
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    if (strchr(ip, ':')) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
        a->sin6_family = AF_INET6;
        assert_int_equal(inet_pton(AF_INET6, ip, &a->sin6_addr), 1);
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&ss;
        a->sin_family = AF_INET;
        assert_int_equal(inet_pton(AF_INET, ip, &a->sin_addr), 1);
    }
    return net_addr_public((struct sockaddr *)&ss);
}

static void address_table(void **state)
{
    /* Only judged, never connected to. */
    const char *refused[] = {
        "127.0.0.1", "127.1.2.3", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.254",
        "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "239.255.255.250",
        "255.255.255.255", "240.0.0.1", "192.0.2.1", "::", "::1", "fe80::1", "fc00::1", "fd12:3456::1",
        "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "2001:db8::1",
    };
    const char *allowed[] = {"8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "100.128.0.1",
                             "93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (addr_public(refused[i]))
            fail_msg("%s judged public", refused[i]);
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        if (!addr_public(allowed[i]))
            fail_msg("%s judged not public", allowed[i]);
}

static net_opts quick_opts(int public_only)
{
    net_opts o;
    memset(&o, 0, sizeof o);
    o.public_only = public_only;
    o.connect_timeout_ms = 1000;
    o.timeout_ms = 2000;
    o.max_redirects = 5;
    o.max_stylesheets = 8;
    return o;
}

static void policy_refuses_loopback(void **state)
{
    static const httpd_route routes[] = {
        {.path = "/page.html", .body = "<html><body><p>local</p></body></html>"},
    };
    httpd *h = httpd_start(routes, 1);
    assert_non_null(h);
    char url[128], why[512];
    const char *hosts[] = {"127.0.0.1", "localhost"};
    for (int i = 0; i < 2; i++) {
        snprintf(url, sizeof url, "http://%s:%d/page.html", hosts[i], httpd_port(h));
        net_opts o = quick_opts(1);
        net_session *s = net_session_new(&o);
        net_page p;
        net_status st = net_fetch_page(s, url, &p, why, sizeof why);
        if (st != NET_EADDR)
            fail_msg("%s: status %d (%s), expected the address refused", url, st, why);
        assert_non_null(strstr(why, "refused"));
        net_page_free(&p);
        net_session_free(s);
    }
    /* Refused before connecting: the server never saw a request. */
    assert_int_equal(httpd_hits(h, "/page.html"), 0);
    /* The same fetch without the policy reaches it. */
    snprintf(url, sizeof url, "http://127.0.0.1:%d/page.html", httpd_port(h));
    net_opts o = quick_opts(0);
    net_session *s = net_session_new(&o);
    net_page p;
    assert_int_equal(net_fetch_page(s, url, &p, why, sizeof why), NET_OK);
    assert_non_null(strstr(p.body, "local"));
    net_page_free(&p);
    net_session_free(s);
    assert_int_equal(httpd_hits(h, "/page.html"), 1);
    httpd_stop(h);
}

/* allow_addrs lets exactly the address-port pairs it names through the
 * policy, on every connection: a redirect from there to another loopback
 * port is refused still. */
static void policy_allows_listed(void **state)
{
    static const httpd_route routes[] = {
        {.path = "/page.html", .body = "<html><body><p>local</p></body></html>"},
        {.path = "/away", .status = 302, .headers = "Location: http://127.0.0.1:1/x\r\n"},
    };
    httpd *h = httpd_start(routes, 2);
    assert_non_null(h);
    char url[128], allow[128], why[512];
    snprintf(allow, sizeof allow, "[::1]:9,127.0.0.1:%d,10.0.0.1:80", httpd_port(h));
    net_opts o = quick_opts(1);
    o.allow_addrs = allow;
    net_session *s = net_session_new(&o);
    net_page p;
    snprintf(url, sizeof url, "http://127.0.0.1:%d/page.html", httpd_port(h));
    assert_int_equal(net_fetch_page(s, url, &p, why, sizeof why), NET_OK);
    assert_non_null(strstr(p.body, "local"));
    net_page_free(&p);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/away", httpd_port(h));
    assert_int_equal(net_fetch_page(s, url, &p, why, sizeof why), NET_EADDR);
    net_page_free(&p);
    net_session_free(s);
    /* Another port of the same address: refused. */
    snprintf(allow, sizeof allow, "127.0.0.1:%d", httpd_port(h) == 65535 ? 1 : httpd_port(h) + 1);
    s = net_session_new(&o);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/page.html", httpd_port(h));
    assert_int_equal(net_fetch_page(s, url, &p, why, sizeof why), NET_EADDR);
    net_page_free(&p);
    net_session_free(s);
    assert_int_equal(httpd_hits(h, "/page.html"), 1);
    assert_int_equal(httpd_hits(h, "/away"), 1);
    httpd_stop(h);
}

/* The child: a network namespace of its own (only a loopback, down), then
 * a fetch of 10.0.0.1 under the policy; the net_status is the exit code. */
static int fetch_private_isolated(void)
{
    if (unshare(CLONE_NEWNET) != 0)
        _exit(100);
    net_opts o = quick_opts(1);
    net_session *s = net_session_new(&o);
    net_page p;
    char why[512];
    net_status st = net_fetch_page(s, "http://10.0.0.1/", &p, why, sizeof why);
    net_page_free(&p);
    net_session_free(s);
    _exit((int)st);
}

static void policy_refuses_private(void **state)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        fetch_private_isolated();
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    assert_true(WIFEXITED(ws));
    if (WEXITSTATUS(ws) == 100)
        skip(); /* no network namespace here (not root): the table test above stands */
    assert_int_equal(WEXITSTATUS(ws), NET_EADDR);
}

/* A network namespace of the calling process's own, with its loopback up
 * and, when `ip` is set, that address on it too: an address that exists
 * only inside this namespace, so a "public" host can be played with no
 * packet ever leaving the machine. 0, or -1 when namespaces are not
 * allowed here. */
static int isolated_net(const char *ip)
{
    if (unshare(CLONE_NEWNET) != 0)
        return -1;
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
    if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) != 0)
        return -1;
    ifr.ifr_flags |= IFF_UP;
    if (ioctl(fd, SIOCSIFFLAGS, &ifr) != 0)
        return -1;
    if (ip) {
        memset(&ifr, 0, sizeof ifr);
        snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo:1");
        struct sockaddr_in sin;
        memset(&sin, 0, sizeof sin);
        sin.sin_family = AF_INET;
        inet_pton(AF_INET, ip, &sin.sin_addr);
        memcpy(&ifr.ifr_addr, &sin, sizeof sin);
        if (ioctl(fd, SIOCSIFADDR, &ifr) != 0)
            return -1;
    }
    close(fd);
    return 0;
}

static net_status fetch_status(const char *url, int public_only, char **body)
{
    net_opts o = quick_opts(public_only);
    net_session *s = net_session_new(&o);
    net_page p;
    char why[512];
    net_status st = net_fetch_page(s, url, &p, why, sizeof why);
    if (st != NET_OK)
        fprintf(stderr, "# %s: %s\n", url, why);
    if (body)
        *body = p.body ? strdup(p.body) : NULL;
    net_page_free(&p);
    net_session_free(s);
    return st;
}

/* The child: a public host (1.2.3.4, in the namespace only) that
 * redirects to 127.0.0.1 and to 10.0.0.1. The exit code says what
 * went wrong (0: nothing). */
static void redirect_child(void)
{
    if (isolated_net("1.2.3.4") != 0)
        _exit(100);
    httpd_route inner[] = {{.path = "/secret", .body = "internal"}};
    httpd *in = httpd_start(inner, 1);
    if (!in)
        _exit(101);
    char loc[128];
    snprintf(loc, sizeof loc, "Location: http://127.0.0.1:%d/secret\r\n", httpd_port(in));
    httpd_route outer[] = {
        {.path = "/go", .status = 302, .headers = loc},
        {.path = "/private", .status = 302, .headers = "Location: http://10.0.0.1/\r\n"},
        {.path = "/page", .body = "public"},
    };
    httpd *out = httpd_start_at("1.2.3.4", outer, 3);
    if (!out)
        _exit(101);
    char url[128], *body = NULL;
    int code = 0;
    /* The public host itself is allowed. */
    snprintf(url, sizeof url, "http://1.2.3.4:%d/page", httpd_port(out));
    if (fetch_status(url, 1, &body) != NET_OK || !body || strcmp(body, "public") != 0)
        code = 1;
    free(body);
    /* Without the policy the redirect reaches 127.0.0.1 (the set-up works)... */
    snprintf(url, sizeof url, "http://1.2.3.4:%d/go", httpd_port(out));
    if (!code && (fetch_status(url, 0, &body) != NET_OK || !body || strcmp(body, "internal") != 0))
        code = 2;
    free(body);
    /* ... with it, the redirect is refused before connecting. */
    int before = httpd_hits(in, "/secret");
    if (!code && fetch_status(url, 1, NULL) != NET_EADDR)
        code = 3;
    if (!code && (httpd_hits(out, "/go") != 2 || httpd_hits(in, "/secret") != before))
        code = 4;
    snprintf(url, sizeof url, "http://1.2.3.4:%d/private", httpd_port(out));
    if (!code && fetch_status(url, 1, NULL) != NET_EADDR)
        code = 5;
    httpd_stop(out);
    httpd_stop(in);
    _exit(code);
}

static void policy_checks_every_redirect(void **state)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        redirect_child();
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    assert_true(WIFEXITED(ws));
    if (WEXITSTATUS(ws) == 100)
        skip(); /* no network namespace here (not root) */
    static const char *const what[] = {
        "", "the public host was not reached", "without the policy the redirect was not followed",
        "the redirect to 127.0.0.1 was not refused", "the refused redirect reached a server",
        "the redirect to 10.0.0.1 was not refused"};
    int c = WEXITSTATUS(ws);
    if (c != 0)
        fail_msg("%s (child exit %d)", c < 6 ? what[c] : "set-up failed", c);
}

/* A server that never accepts: its accept queue (backlog 0) is filled by
 * two idle connections, after which the kernel drops new SYNs and a
 * client's connect hangs. The connect timeout, not the total one, ends it. */
static void connect_timeout_applies(void **state)
{
    int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof a;
    assert_int_equal(bind(l, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(l, 0), 0);
    assert_int_equal(getsockname(l, (struct sockaddr *)&a, &alen), 0);
    int fill[2];
    for (int i = 0; i < 2; i++) {
        fill[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        connect(fill[i], (struct sockaddr *)&a, sizeof a);
    }
    usleep(100 * 1000); /* let both handshakes land in the queue */
    char url[128], why[512];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", ntohs(a.sin_port));
    net_opts o = quick_opts(0);
    o.connect_timeout_ms = 300;
    o.timeout_ms = 5000;
    net_session *s = net_session_new(&o);
    net_page p;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    net_status st = net_fetch_page(s, url, &p, why, sizeof why);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    net_page_free(&p);
    net_session_free(s);
    for (int i = 0; i < 2; i++)
        close(fill[i]);
    close(l);
    if (st != NET_ETIMEOUT)
        fail_msg("status %d (%s), expected a timeout", st, why);
    assert_non_null(strstr(why, "onnect")); /* curl's "Connection timed out after ..." */
    if (ms > 2500)
        fail_msg("gave up after %.0f ms on a 300 ms connect timeout", ms);
}

static void schemes_other_than_http_refused(void **state)
{
    const char *urls[] = {"file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/",
                          "dict://127.0.0.1:11211/stats", "not a url"};
    for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
        net_opts o = quick_opts(0);
        net_session *s = net_session_new(&o);
        net_page p;
        char why[512];
        net_status st = net_fetch_page(s, urls[i], &p, why, sizeof why);
        if (st != NET_EURL)
            fail_msg("%s: status %d (%s), expected a bad URL", urls[i], st, why);
        net_page_free(&p);
        net_session_free(s);
    }
}

int main(void)
{
    /* The tests' server is on this machine: no proxy may stand between. */
    unsetenv("http_proxy");
    unsetenv("HTTP_PROXY");
    unsetenv("https_proxy");
    unsetenv("HTTPS_PROXY");
    unsetenv("all_proxy");
    unsetenv("ALL_PROXY");
    if (net_global_init() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scan_finds_what_litehtml_asks_for),
        cmocka_unit_test(scan_css_imports),
        cmocka_unit_test(resolve_against_base),
        cmocka_unit_test(address_table),
        cmocka_unit_test(policy_refuses_loopback),
        cmocka_unit_test(policy_allows_listed),
        cmocka_unit_test(policy_refuses_private),
        cmocka_unit_test(policy_checks_every_redirect),
        cmocka_unit_test(connect_timeout_applies),
        cmocka_unit_test(schemes_other_than_http_refused),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    net_global_cleanup();
    return rc;
}
