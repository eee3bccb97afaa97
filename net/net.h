/* net/: pages and their stylesheets from the network, through libcurl.
 *
 * One net_session is one page: a curl multi handle (so that the page and
 * its stylesheets share connections and the DNS cache, and the stylesheets
 * download in parallel) and one deadline for all of it. A slow or broken
 * stylesheet is skipped and reported; only the page itself can fail.
 *
 * Nothing here guesses: redirects, decompression, URL resolution and the
 * transfer limits are libcurl's; net/ only sets them and checks what
 * libcurl leaves to the caller (the address a socket is about to connect
 * to, the decompressed size).
 *
 * A session is used by one thread at a time; there is no global state but
 * libcurl's own, set up by net_global_init.
 */
#ifndef GLANCE_NET_H
#define GLANCE_NET_H

#include <stddef.h>

struct sockaddr;

#ifdef __cplusplus
extern "C" {
#endif

typedef enum net_status {
    NET_OK = 0,
    NET_ENOMEM,
    NET_EURL,       /* not an http or https URL, or a redirect to another scheme */
    NET_EOFFLINE,   /* offline: the network is not to be touched */
    NET_EADDR,      /* the address policy refused where the host resolved to */
    NET_EFETCH,     /* DNS, connection, TLS, an HTTP error status */
    NET_ETIMEOUT,   /* the connect timeout or the session's deadline passed */
    NET_ETOOBIG,    /* more bytes than allowed (after decompression) */
    NET_EREDIRECTS  /* more redirects than allowed */
} net_status;

typedef struct net_opts {
    int offline;             /* 1: every fetch fails at once with NET_EOFFLINE */
    int public_only;         /* 1: connect only to public unicast addresses
                                (net_addr_public), checked on every connection,
                                redirects included; proxies are not used */
    const char *allow_addrs; /* with public_only: "IP:PORT,[IP6]:PORT" let through
                                all the same (exactly those address-port pairs) */
    long connect_timeout_ms; /* one connection */
    long timeout_ms;         /* the whole session: page and stylesheets */
    size_t max_page_bytes;   /* the page, decompressed */
    size_t max_css_bytes;    /* one stylesheet, decompressed */
    int max_stylesheets;     /* distinct stylesheets fetched for one page */
    int max_redirects;       /* per transfer */
    const char *user_agent;      /* NULL: NET_USER_AGENT */
    const char *accept_language; /* NULL: NET_ACCEPT_LANGUAGE */
} net_opts;

/* A desktop browser's User-Agent: servers send some pages (and their
 * stylesheets) only to browsers they know. */
#define NET_USER_AGENT                                                                        \
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "                \
    "Chrome/120.0.0.0 Safari/537.36 glance/0.1"
#define NET_ACCEPT_LANGUAGE "en-US,en;q=0.9,*;q=0.5"

/* @import rounds: a page's sheets, their imports, and so on, at most this
 * deep. */
#define NET_IMPORT_ROUNDS 4

/* libcurl's process-wide set-up; call before any thread uses net/ (it is
 * reference-counted: pair each call with net_global_cleanup). 0 or -1. */
int net_global_init(void);
void net_global_cleanup(void);

/* 1 when `sa` is an address a server may connect to for a stranger:
 * not loopback, private (RFC 1918, unique-local, carrier-grade NAT),
 * link-local, multicast, unspecified, broadcast or reserved; IPv4 mapped
 * into IPv6 is judged as IPv4. 0 otherwise, and for other families. */
int net_addr_public(const struct sockaddr *sa);

typedef struct net_session net_session;

/* The deadline starts now. NULL when out of memory. `o` is copied. */
net_session *net_session_new(const net_opts *o);
void net_session_free(net_session *s);

typedef struct net_page {
    char *body;         /* the bytes as the server sent them, decompressed */
    size_t len;
    char *url;          /* after redirects */
    char *content_type; /* the Content-Type header; NULL when none */
    char *charset;      /* its charset parameter, unquoted; NULL when none */
    long http_status;
    int redirects;
    double ms;
} net_page;

/* Fetches one page. On an error `why` says what happened in one line
 * (with the URL). */
net_status net_fetch_page(net_session *s, const char *url, net_page *out, char *why,
                          size_t why_cap);
void net_page_free(net_page *p);

/* One stylesheet, fetched or skipped. */
typedef struct net_sheet {
    char *url;      /* absolute */
    char *css;      /* the bytes, decompressed; NULL when skipped */
    size_t len;
    char *charset;  /* of its Content-Type; NULL when none */
    char *error;    /* why it was skipped; NULL when fetched */
    double ms;
} net_sheet;

/* A reference to a stylesheet as the page or a sheet writes it: `ref` is
 * what the layout engine will ask for (entities decoded, white space and
 * quotes trimmed), `from` is "" for the page (<link rel=stylesheet> and
 * @import in <style>) or the URL of the importing sheet. */
typedef struct net_sheet_ref {
    char *from, *ref;
    int sheet;      /* index into sheets */
} net_sheet_ref;

typedef struct net_sheets {
    net_sheet *sheets;
    int n_sheets;
    net_sheet_ref *refs;
    int n_refs;
} net_sheets;

/* Finds the stylesheets of `html` (UTF-8 or ASCII-compatible; its <link
 * rel=stylesheet>, and @import in its <style>) and fetches them, then the
 * sheets they @import, in rounds, all in parallel within a round, until the
 * session's deadline. With a `page_url` every reference resolves against it
 * (or the page's <base href>); without one (a page from a file) only
 * absolute http and https references are fetched: the rest are local
 * files, render/'s business. Never fails for a stylesheet; NET_ENOMEM
 * only. */
net_status net_fetch_sheets(net_session *s, const char *html, size_t len, const char *page_url,
                            net_sheets *out);
/* The sheet a reference names; NULL when none was fetched for it. An
 * absolute URL matches from anywhere. */
const net_sheet *net_sheets_find(const net_sheets *t, const char *ref, const char *from);
void net_sheets_free(net_sheets *t);

/* `ref` resolved against `base` (an absolute URL, or NULL: then `ref` must
 * be absolute), white space trimmed; malloc'd, NULL when it is no http or
 * https URL. */
char *net_resolve(const char *base, const char *ref);

#ifdef __cplusplus
}
#endif

#endif
