/* net/: transfers through one curl multi handle per page, the limits and
 * the address policy. */
#define _GNU_SOURCE
#include "net/net.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/fetch.h"

#include "base/buf.h"
#include "base/clock.h"
#include "base/tags.h"

struct net_session {
    net_opts o;
    CURLM *multi; /* made on the first transfer */
    double deadline;
};

int net_global_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

void net_global_cleanup(void)
{
    curl_global_cleanup();
}

/* ---- The address policy ---- */

static int v4_public(uint32_t a) /* host byte order */
{
    static const struct { uint32_t net, mask; } refused[] = {
        {0x00000000, 0xff000000}, /* 0/8: "this network", unspecified */
        {0x0a000000, 0xff000000}, /* 10/8: private */
        {0x64400000, 0xffc00000}, /* 100.64/10: carrier-grade NAT */
        {0x7f000000, 0xff000000}, /* 127/8: loopback */
        {0xa9fe0000, 0xffff0000}, /* 169.254/16: link-local */
        {0xac100000, 0xfff00000}, /* 172.16/12: private */
        {0xc0000000, 0xffffff00}, /* 192.0.0/24: IETF protocol assignments */
        {0xc0000200, 0xffffff00}, /* 192.0.2/24: documentation */
        {0xc0a80000, 0xffff0000}, /* 192.168/16: private */
        {0xc6120000, 0xfffe0000}, /* 198.18/15: benchmarking */
        {0xc6336400, 0xffffff00}, /* 198.51.100/24: documentation */
        {0xcb007100, 0xffffff00}, /* 203.0.113/24: documentation */
        {0xe0000000, 0xf0000000}, /* 224/4: multicast */
        {0xf0000000, 0xf0000000}, /* 240/4: reserved; 255.255.255.255: broadcast */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if ((a & refused[i].mask) == refused[i].net)
            return 0;
    return 1;
}

static int v6_public(const unsigned char *b)
{
    static const unsigned char zero[12] = {0};
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    static const unsigned char nat64[12] = {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t v4 = (uint32_t)b[12] << 24 | (uint32_t)b[13] << 16 | (uint32_t)b[14] << 8 | b[15];
    /* IPv4 inside IPv6 is judged as IPv4: a mapped address reaches the
     * IPv4 host, and so does NAT64's well-known prefix. */
    if (memcmp(b, mapped, 12) == 0 || memcmp(b, nat64, 12) == 0)
        return v4_public(v4);
    if (memcmp(b, zero, 12) == 0) /* ::, ::1 and the old IPv4-compatible form */
        return 0;
    if ((b[0] & 0xfe) == 0xfc) /* fc00::/7: unique local */
        return 0;
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) /* fe80::/10: link-local */
        return 0;
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) /* fec0::/10: old site-local */
        return 0;
    if (b[0] == 0xff) /* ff00::/8: multicast */
        return 0;
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) /* 2001:db8::/32 */
        return 0;
    if (b[0] == 0x01 && b[1] == 0 && memcmp(b + 2, zero, 6) == 0) /* 100::/64: discard */
        return 0;
    return 1;
}

int net_addr_public(const struct sockaddr *sa)
{
    if (!sa)
        return 0;
    if (sa->sa_family == AF_INET) {
        struct sockaddr_in in;
        memcpy(&in, sa, sizeof in);
        return v4_public(ntohl(in.sin_addr.s_addr));
    }
    if (sa->sa_family == AF_INET6) {
        struct sockaddr_in6 in6;
        memcpy(&in6, sa, sizeof in6);
        return v6_public(in6.sin6_addr.s6_addr);
    }
    return 0;
}

/* ---- One transfer ---- */

typedef struct xfer {
    CURL *easy;
    struct curl_slist *headers;
    base_buf body;
    size_t limit;
    int too_big;
    int public_only;
    const char *allow_addrs;
    int refused;           /* the policy refused an address */
    char refused_addr[INET6_ADDRSTRLEN];
    int done;
    CURLcode result;
    double t0, ms;
    char err[CURL_ERROR_SIZE];
} xfer;

static size_t on_data(char *p, size_t size, size_t n, void *ud)
{
    xfer *x = ud;
    size_t k = size * n;
    /* The limit counts decompressed bytes: a small gzip body can unpack to
     * gigabytes. Returning less than k stops the transfer. */
    if (k > x->limit - x->body.len) {
        x->too_big = 1;
        return 0;
    }
    base_buf_add(&x->body, p, k);
    return x->body.oom ? 0 : k;
}

/* libcurl asks here for every socket it is about to connect with, after
 * resolving the host and again for every redirect and every address it
 * tries: the one place where the address a request really goes to can be
 * checked without a race (checking the resolved name beforehand leaves
 * DNS free to answer differently the second time). */
/* Is the address and port of `a` one of `list` ("IP:PORT,[IP6]:PORT")? */
static int addr_allowed(const char *list, const struct curl_sockaddr *a)
{
    char ip[INET6_ADDRSTRLEN], me[INET6_ADDRSTRLEN + 10];
    unsigned port;
    if (!list)
        return 0;
    if (a->family == AF_INET) {
        const struct sockaddr_in *s = (const struct sockaddr_in *)(const void *)&a->addr;
        if (!inet_ntop(AF_INET, &s->sin_addr, ip, sizeof ip))
            return 0;
        port = ntohs(s->sin_port);
        snprintf(me, sizeof me, "%s:%u", ip, port);
    } else if (a->family == AF_INET6) {
        const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)(const void *)&a->addr;
        if (!inet_ntop(AF_INET6, &s->sin6_addr, ip, sizeof ip))
            return 0;
        port = ntohs(s->sin6_port);
        snprintf(me, sizeof me, "[%s]:%u", ip, port);
    } else {
        return 0;
    }
    size_t n = strlen(me);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if (k == n && strncasecmp(p, me, n) == 0)
            return 1;
        p += k + (e ? 1 : 0);
    }
    return 0;
}

static curl_socket_t open_socket(void *ud, curlsocktype purpose, struct curl_sockaddr *a)
{
    xfer *x = ud;
    if (x->public_only && !net_addr_public(&a->addr) && !addr_allowed(x->allow_addrs, a)) {
        x->refused = 1;
        const void *bytes = NULL;
        if (a->family == AF_INET)
            bytes = &((const struct sockaddr_in *)(const void *)&a->addr)->sin_addr;
        else if (a->family == AF_INET6)
            bytes = &((const struct sockaddr_in6 *)(const void *)&a->addr)->sin6_addr;
        if (!bytes || !inet_ntop(a->family, bytes, x->refused_addr, sizeof x->refused_addr))
            snprintf(x->refused_addr, sizeof x->refused_addr, "(address family %d)", a->family);
        return CURL_SOCKET_BAD;
    }
    return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

static void xfer_free(xfer *x)
{
    if (!x)
        return;
    if (x->easy)
        curl_easy_cleanup(x->easy);
    curl_slist_free_all(x->headers);
    base_buf_free(&x->body);
    free(x);
}

/* A transfer of `url` set up with the session's options; NULL when out of
 * memory. `accept` is the Accept header. */
static xfer *xfer_new(net_session *s, const char *url, size_t limit, const char *accept,
                      long timeout_ms)
{
    xfer *x = calloc(1, sizeof *x);
    if (!x || !(x->easy = curl_easy_init())) {
        free(x);
        return NULL;
    }
    char accept_h[256], lang_h[256];
    snprintf(accept_h, sizeof accept_h, "Accept: %s", accept);
    snprintf(lang_h, sizeof lang_h, "Accept-Language: %s",
             s->o.accept_language ? s->o.accept_language : NET_ACCEPT_LANGUAGE);
    const char *lines[] = {accept_h, lang_h};
    for (int i = 0; i < 2; i++) {
        struct curl_slist *l = curl_slist_append(x->headers, lines[i]);
        if (!l) {
            xfer_free(x);
            return NULL;
        }
        x->headers = l;
    }
    x->limit = limit;
    x->public_only = s->o.public_only;
    x->allow_addrs = s->o.allow_addrs;
    CURL *e = x->easy;
    CURLcode rc = CURLE_OK;
#define SET(opt, val) \
    if (rc == CURLE_OK) \
    rc = curl_easy_setopt(e, opt, val)
    SET(CURLOPT_URL, url);
    SET(CURLOPT_PRIVATE, x);
    SET(CURLOPT_NOSIGNAL, 1L);
    /* Only the web: no file://, no other protocol libcurl knows, neither
     * asked for nor redirected to. */
    SET(CURLOPT_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_FOLLOWLOCATION, 1L);
    SET(CURLOPT_MAXREDIRS, (long)s->o.max_redirects);
    SET(CURLOPT_AUTOREFERER, 1L);
    SET(CURLOPT_USERAGENT, s->o.user_agent ? s->o.user_agent : NET_USER_AGENT);
    SET(CURLOPT_HTTPHEADER, x->headers);
    SET(CURLOPT_ACCEPT_ENCODING, ""); /* every encoding this libcurl decodes */
    SET(CURLOPT_COOKIEFILE, "");      /* cookies across redirects, in memory */
    SET(CURLOPT_CONNECTTIMEOUT_MS, s->o.connect_timeout_ms);
    SET(CURLOPT_TIMEOUT_MS, timeout_ms);
    SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)limit); /* refuses early on Content-Length */
    SET(CURLOPT_WRITEFUNCTION, on_data);
    SET(CURLOPT_WRITEDATA, x);
    SET(CURLOPT_OPENSOCKETFUNCTION, open_socket);
    SET(CURLOPT_OPENSOCKETDATA, x);
    SET(CURLOPT_ERRORBUFFER, x->err);
    if (s->o.public_only)
        SET(CURLOPT_PROXY, ""); /* the policy must see the real address, not a proxy's */
#undef SET
    if (rc != CURLE_OK) {
        xfer_free(x);
        return NULL;
    }
    return x;
}

/* Runs the transfers in parallel until all are done or the deadline. */
static net_status run(net_session *s, xfer **xs, int n)
{
    if (!s->multi && !(s->multi = curl_multi_init()))
        return NET_ENOMEM;
    int added = 0;
    for (int i = 0; i < n; i++) {
        xs[i]->t0 = base_now_ms();
        if (curl_multi_add_handle(s->multi, xs[i]->easy) != CURLM_OK) {
            xs[i]->done = 1;
            xs[i]->result = CURLE_OUT_OF_MEMORY;
            continue;
        }
        added++;
    }
    int running = added;
    while (running > 0) {
        if (curl_multi_perform(s->multi, &running) != CURLM_OK)
            break;
        CURLMsg *m;
        int left;
        while ((m = curl_multi_info_read(s->multi, &left))) {
            if (m->msg != CURLMSG_DONE)
                continue;
            xfer *x = NULL;
            curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&x);
            if (x) {
                x->done = 1;
                x->result = m->data.result;
                x->ms = base_now_ms() - x->t0;
            }
        }
        if (running == 0)
            break;
        double left_ms = s->deadline - base_now_ms();
        if (left_ms <= 0)
            break; /* each transfer has its own timeout too; this is the backstop */
        curl_multi_poll(s->multi, NULL, 0, left_ms < 1000 ? (int)left_ms + 1 : 1000, NULL);
    }
    for (int i = 0; i < n; i++) {
        curl_multi_remove_handle(s->multi, xs[i]->easy);
        if (!xs[i]->done) {
            xs[i]->done = 1;
            xs[i]->result = CURLE_OPERATION_TIMEDOUT;
            xs[i]->ms = base_now_ms() - xs[i]->t0;
            snprintf(xs[i]->err, sizeof xs[i]->err, "the time budget ran out");
        }
    }
    return NET_OK;
}

/* The status of a finished transfer and, when it failed, why. */
static net_status outcome(const xfer *x, const net_opts *o, char *why, size_t cap)
{
    long code = 0;
    curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &code);
    const char *detail = x->err[0] ? x->err : curl_easy_strerror(x->result);
    if (x->refused && x->result != CURLE_OK) {
        snprintf(why, cap, "address %s refused: not a public address (public_only)", x->refused_addr);
        return NET_EADDR;
    }
    if (x->too_big || x->result == CURLE_FILESIZE_EXCEEDED) {
        snprintf(why, cap, "over the limit of %zu bytes", x->limit);
        return NET_ETOOBIG;
    }
    switch (x->result) {
    case CURLE_OK:
        if (code >= 400) {
            snprintf(why, cap, "HTTP %ld", code);
            return NET_EFETCH;
        }
        return NET_OK;
    case CURLE_OPERATION_TIMEDOUT:
        snprintf(why, cap, "timed out: %s", detail);
        return NET_ETIMEOUT;
    case CURLE_TOO_MANY_REDIRECTS:
        snprintf(why, cap, "more than %d redirects (max_redirects)", o->max_redirects);
        return NET_EREDIRECTS;
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
        snprintf(why, cap, "not an http or https URL: %s", detail);
        return NET_EURL;
    case CURLE_OUT_OF_MEMORY:
        snprintf(why, cap, "out of memory");
        return NET_ENOMEM;
    default:
        snprintf(why, cap, "%s", detail);
        return NET_EFETCH;
    }
}

/* The charset parameter of a Content-Type, unquoted; NULL when none. */
static char *content_type_charset(const char *ct)
{
    for (const char *p = ct ? strchr(ct, ';') : NULL; p; p = strchr(p + 1, ';')) {
        const char *q = p + 1;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncasecmp(q, "charset", 7) != 0)
            continue;
        q += 7;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '=')
            continue;
        q++;
        while (*q == ' ' || *q == '\t')
            q++;
        char quote = (*q == '"' || *q == '\'') ? *q++ : 0;
        size_t n = 0;
        while (q[n] && q[n] != ';' && q[n] != ' ' && q[n] != '\t' && q[n] != quote)
            n++;
        return n ? strndup(q, n) : NULL;
    }
    return NULL;
}

static void fill_options(net_opts *o)
{
    if (o->connect_timeout_ms <= 0)
        o->connect_timeout_ms = 10000;
    if (o->timeout_ms <= 0)
        o->timeout_ms = 30000;
    if (o->max_page_bytes == 0)
        o->max_page_bytes = (size_t)64 << 20;
    if (o->max_css_bytes == 0)
        o->max_css_bytes = (size_t)4 << 20;
    if (o->max_redirects < 0)
        o->max_redirects = 0;
}

net_session *net_session_new(const net_opts *o)
{
    net_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->o = *o;
    fill_options(&s->o);
    s->deadline = base_now_ms() + (double)s->o.timeout_ms;
    return s;
}

void net_session_free(net_session *s)
{
    if (!s)
        return;
    if (s->multi)
        curl_multi_cleanup(s->multi);
    free(s);
}

long net_session_left_ms(const net_session *s)
{
    double left = s->deadline - base_now_ms();
    return left > 0 ? (long)left + 1 : 0;
}

const net_opts *net_session_opts(const net_session *s)
{
    return &s->o;
}

void net_page_free(net_page *p)
{
    if (!p)
        return;
    free(p->body);
    free(p->url);
    free(p->content_type);
    free(p->charset);
    memset(p, 0, sizeof *p);
}

net_status net_fetch_page(net_session *s, const char *url, net_page *out, char *why,
                          size_t why_cap)
{
    memset(out, 0, sizeof *out);
    if (why_cap)
        why[0] = '\0';
    if (s->o.offline) {
        snprintf(why, why_cap, "offline: the network is not used");
        return NET_EOFFLINE;
    }
    char *abs = net_resolve(NULL, url);
    if (!abs) {
        snprintf(why, why_cap, "not an http or https URL");
        return NET_EURL;
    }
    long left = net_session_left_ms(s);
    if (left == 0) {
        free(abs);
        snprintf(why, why_cap, "timed out before the request (timeout)");
        return NET_ETIMEOUT;
    }
    xfer *x = xfer_new(s, abs, s->o.max_page_bytes,
                       "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", left);
    free(abs);
    if (!x) {
        snprintf(why, why_cap, "out of memory");
        return NET_ENOMEM;
    }
    net_status st = run(s, &x, 1);
    if (st == NET_OK)
        st = outcome(x, &s->o, why, why_cap);
    else
        snprintf(why, why_cap, "out of memory");
    char *eff = NULL, *ct = NULL;
    long code = 0, redirects = 0;
    curl_easy_getinfo(x->easy, CURLINFO_EFFECTIVE_URL, &eff);
    curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ct);
    curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &code);
    curl_easy_getinfo(x->easy, CURLINFO_REDIRECT_COUNT, &redirects);
    out->http_status = code;
    out->redirects = (int)redirects;
    out->ms = x->ms;
    out->url = strdup(eff ? eff : url);
    out->content_type = ct ? strdup(ct) : NULL;
    out->charset = content_type_charset(ct);
    if (!out->url || (ct && !out->content_type)) {
        st = NET_ENOMEM;
        snprintf(why, why_cap, "out of memory");
    }
    if (st == NET_OK) {
        out->body = base_buf_take(&x->body, &out->len);
        if (!out->body) {
            st = NET_ENOMEM;
            snprintf(why, why_cap, "out of memory");
        }
    }
    xfer_free(x);
    if (st != NET_OK) {
        /* Keep where it went (for the message) but no body. */
        free(out->body);
        out->body = NULL;
        out->len = 0;
    }
    return st;
}

/* ---- Many transfers at once, for net/sheets.c ---- */

net_status net_fetch_many(net_session *s, net_fetch_job *jobs, int n)
{
    if (n == 0)
        return NET_OK;
    xfer **xs = calloc((size_t)n, sizeof *xs); /* per job; NULL: not started */
    xfer **run_list = calloc((size_t)n, sizeof *run_list);
    if (!xs || !run_list) {
        free(xs);
        free(run_list);
        return NET_ENOMEM;
    }
    long left = net_session_left_ms(s);
    net_status st = NET_OK;
    int k = 0;
    for (int i = 0; i < n && st == NET_OK; i++) {
        net_fetch_job *j = &jobs[i];
        j->status = NET_OK;
        if (s->o.offline) {
            j->status = NET_EOFFLINE;
            snprintf(j->why, sizeof j->why, "offline: the network is not used");
        } else if (left == 0) {
            j->status = NET_ETIMEOUT;
            snprintf(j->why, sizeof j->why, "timed out: the time budget ran out before it");
        } else if (!(xs[i] = xfer_new(s, j->url, j->limit, j->accept, left))) {
            st = NET_ENOMEM;
        } else {
            run_list[k++] = xs[i];
        }
    }
    if (st == NET_OK)
        st = run(s, run_list, k);
    for (int i = 0; st == NET_OK && i < n; i++) {
        net_fetch_job *j = &jobs[i];
        xfer *x = xs[i];
        if (!x)
            continue;
        j->status = outcome(x, &s->o, j->why, sizeof j->why);
        j->ms = x->ms;
        char *ct = NULL;
        curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ct);
        j->charset = content_type_charset(ct);
        if (j->status == NET_OK) {
            j->body = base_buf_take(&x->body, &j->len);
            if (!j->body)
                st = NET_ENOMEM;
        }
    }
    for (int i = 0; i < n; i++)
        xfer_free(xs[i]);
    free(xs);
    free(run_list);
    return st;
}

char *net_resolve(const char *base, const char *ref)
{
    /* URLs in pages carry stray white space (the HTML standard strips it,
     * and tabs and newlines inside). */
    while (base_html_space(*ref))
        ref++;
    size_t n = strlen(ref);
    while (n && base_html_space(ref[n - 1]))
        n--;
    char *clean = malloc(n + 1);
    if (!clean)
        return NULL;
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (ref[i] != '\t' && ref[i] != '\n' && ref[i] != '\r')
            clean[w++] = ref[i];
    clean[w] = '\0';
    CURLU *u = curl_url();
    char *out = NULL, *scheme = NULL;
    if (u && (!base || curl_url_set(u, CURLUPART_URL, base, 0) == CURLUE_OK) &&
        curl_url_set(u, CURLUPART_URL, clean, CURLU_URLENCODE) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
        (strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0))
        curl_url_get(u, CURLUPART_URL, &out, 0);
    curl_free(scheme);
    curl_url_cleanup(u);
    free(clean);
    if (!out)
        return NULL;
    char *copy = strdup(out); /* the caller frees with free(), not curl_free() */
    curl_free(out);
    return copy;
}
