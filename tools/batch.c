/* tools/: glance batch, a stream of records in, one JSON line per record
 * out: what Hadoop Streaming and Spark's pipe() run as they are, and what a
 * crawl's WARC files go through.
 *
 * Records: JSON lines ({"id", "url"} to fetch, {"id", "html", "url"?} to
 * read) or WARC (gzip per record, as Common Crawl publishes it, or plain),
 * told apart by their first bytes. The reader makes a record of each, the
 * workers extract (tools/stream.c: a bounded window of records between the
 * reader and the writer), the writer writes the lines in the order the
 * records came, each with its record's id. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <json-c/json.h>
#include <zlib.h>

#include "glance.h"
#include "tools/cli.h"
#include "tools/options.h"
#include "tools/progress.h"
#include "tools/stream.h"

static void usage_batch(FILE *f)
{
    fputs("usage: glance batch [options] [FILE ...]\n"
          "\n"
          "Reads records from the FILEs, or standard input, and writes one JSON line per\n"
          "record on standard output, in the order they came: {\"id\": ..., \"status\": ...,\n"
          "and the fields asked for}. Records:\n"
          "  JSON lines  {\"id\": ID, \"url\": URL} (fetched) or {\"id\": ID, \"html\": TEXT,\n"
          "              \"url\": URL} (url optional: the base of its stylesheets); a\n"
          "              record without an id takes its place in the stream (from 1);\n"
          "              {\"id\": ID, \"snapshot\": {...}}: what a browser saw\n"
          "              (docs/snapshot.md), as glance extract --snapshot reads it\n"
          "  WARC        response records (gzip per record, as Common Crawl publishes\n"
          "              them, or plain): the id is WARC-Record-ID, the url\n"
          "              WARC-Target-URI, the page the HTTP payload in the charset of\n"
          "              its Content-Type; other record types are skipped\n"
          "Either may be gzip-compressed as a whole. A record that fails gives its\n"
          "line with its status and \"message\"; the run goes on.\n"
          "\n"
          "options:\n"
          "  --fields LIST   fields of glance extract --format json to write, comma\n"
          "                  between them, besides id and status (default title,text);\n"
          "                  also url (the record's) and message (written anyway when\n"
          "                  the status is not ok or nocontent)\n"
          "  --input FORMAT  auto, jsonl or warc (default auto: WARC when the stream\n"
          "                  starts with WARC/)\n"
          "  --jobs N        records extracted at once (default 1), each on a thread\n"
          "                  with its own fonts\n"
          "  --queue N       records held at once between reading and writing\n"
          "                  (default 4 per job): memory is bounded by it\n"
          "  -o FILE         write to FILE, not standard output\n"
          "  -h, --help      this help\n"
          "\n"
          "Every option of the library is a flag too (glance extract --help lists them);\n"
          "--offline keeps a page's remote stylesheets from being fetched.\n"
          "\n"
          "exit status: 0 every record read was answered (whatever each status), 2 usage\n"
          "error, 3 the input could not be read to its end (the records before were\n"
          "answered), 4 internal error or the output could not be written.\n",
          f);
}

/* The fields a line may carry: the top-level keys of glance_result_json
 * (each method's details under its name), and the record's url. */
static const char *const known_fields[] = {
    "status", "message", "title",  "text",       "html",    "method", "chosen",
    "window", "document", "stylesheets", "fonts", "geometry", "source", "timings_ms",
    "methods", "gce",    "bte",    "nodechar",   "xpath_blocks", "danag", "classic",
    "score",  "url",     "id",
};

typedef struct record {
    json_object *id;   /* the record's id (owned) */
    json_object *json; /* a JSON line's object (owns html and url then) */
    const char *html;  /* the page, or NULL: fetch url */
    size_t len;
    char *html_own;    /* a WARC record's payload */
    const char *url;
    char *url_own;
    char *snapshot;    /* a JSON line's "snapshot", as text (owned) */
    size_t snapshot_len;
    char *charset;     /* from the HTTP Content-Type */
    glance_status pre; /* decided by the reader: the record is no page */
    char *pre_msg;
    char *line;        /* the output line, with its newline */
    size_t line_len;
    glance_status st;
} record;

/* The input as it comes: read(2) returns what a pipe holds, so that a
 * record is answered before the stream's end (zlib's gzread waits to fill
 * its buffer); gzip data, one member or many (a WARC file, gzip per record),
 * inflated as it arrives. */
typedef struct instream {
    int fd, gz, eof, started;
    z_stream z;
    unsigned char raw[1 << 16];
    unsigned char buf[1 << 16];
    size_t pos, len; /* the decoded bytes not yet taken: buf[pos, len) */
    char err[160];
} instream;

static int in_open(instream *s, int fd)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
    return 0;
}

static void in_close(instream *s)
{
    if (s->gz)
        inflateEnd(&s->z);
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}

/* read(2) into raw, past EINTR: the bytes, 0 at the end, -1. */
static ssize_t in_raw(instream *s, unsigned char *dst, size_t cap)
{
    for (;;) {
        ssize_t n = read(s->fd, dst, cap);
        if (n >= 0 || errno != EINTR) {
            if (n < 0)
                snprintf(s->err, sizeof s->err, "%s", strerror(errno));
            return n;
        }
    }
}

/* Makes decoded bytes available: 1, 0 at the end, -1 (s->err). */
static int in_fill(instream *s)
{
    if (s->pos < s->len)
        return 1;
    s->pos = s->len = 0;
    if (!s->started) {
        /* gzip or not: the first two bytes say. */
        s->started = 1;
        size_t got = 0;
        while (got < 2) {
            ssize_t n = in_raw(s, s->raw + got, sizeof s->raw - got);
            if (n < 0)
                return -1;
            if (n == 0)
                break;
            got += (size_t)n;
        }
        if (got >= 2 && s->raw[0] == 0x1f && s->raw[1] == 0x8b) {
            if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
                snprintf(s->err, sizeof s->err, "out of memory");
                return -1;
            }
            s->gz = 1;
            s->z.next_in = s->raw;
            s->z.avail_in = (uInt)got;
        } else {
            memcpy(s->buf, s->raw, got);
            s->len = got;
            if (got == 0)
                s->eof = 1;
            return got ? 1 : 0;
        }
    }
    if (s->eof)
        return 0;
    if (!s->gz) {
        ssize_t n = in_raw(s, s->buf, sizeof s->buf);
        if (n < 0)
            return -1;
        s->len = (size_t)n;
        s->eof = n == 0;
        return n > 0;
    }
    for (;;) {
        if (s->z.avail_in == 0) {
            ssize_t n = in_raw(s, s->raw, sizeof s->raw);
            if (n < 0)
                return -1;
            if (n == 0) {
                if (s->z.total_in > 0) { /* inside a member */
                    snprintf(s->err, sizeof s->err, "gzip data cut short");
                    return -1;
                }
                s->eof = 1;
                return 0;
            }
            s->z.next_in = s->raw;
            s->z.avail_in = (uInt)n;
        }
        s->z.next_out = s->buf;
        s->z.avail_out = sizeof s->buf;
        int rc = inflate(&s->z, Z_NO_FLUSH);
        s->len = sizeof s->buf - s->z.avail_out;
        if (rc == Z_STREAM_END) {
            /* The next member, if any, starts afresh. */
            inflateReset(&s->z);
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            snprintf(s->err, sizeof s->err, "broken gzip data (%s)", s->z.msg ? s->z.msg : "zlib");
            return -1;
        }
        if (s->len > 0)
            return 1;
    }
}

typedef struct batch {
    const glance_options *opt;
    char **fields;
    int n_fields;
    int format; /* 0 auto, 1 jsonl, 2 warc */
    /* the input: files one after another, or standard input */
    char **files;
    int n_files, file_i;
    instream in;
    int in_open;
    const char *in_name;
    int warc;          /* the current input's format, once known */
    char *pending;     /* a line read to tell the format, not yet used */
    size_t line_no;    /* of the current input */
    size_t record_no;  /* records of all inputs: a missing id */
    size_t max_record; /* bytes of one record */
    char *read_error;  /* why reading stopped */
    size_t skipped;    /* WARC records that are not responses */
    /* the output */
    FILE *out;
    progress prog;
    size_t ok, nocontent, failed;
} batch;

static char *strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *strfmt(const char *fmt, ...)
{
    char *s = NULL;
    va_list ap;
    va_start(ap, fmt);
    int rc = vasprintf(&s, fmt, ap);
    va_end(ap);
    return rc < 0 ? NULL : s;
}

static void record_free(record *r)
{
    if (!r)
        return;
    json_object_put(r->id);
    json_object_put(r->json);
    free(r->html_own);
    free(r->snapshot);
    free(r->url_own);
    free(r->charset);
    free(r->pre_msg);
    free(r->line);
    free(r);
}

/* Reading ------------------------------------------------------------------ */

/* Opens the next input: 1, 0 when there is none, -1 (b->read_error). */
static int next_input(batch *b)
{
    if (b->in_open) {
        in_close(&b->in);
        b->in_open = 0;
    }
    free(b->pending);
    b->pending = NULL;
    b->warc = -1;
    b->line_no = 0;
    int fd;
    if (b->n_files == 0 && b->file_i == 0) {
        b->file_i = 1;
        b->in_name = "stdin";
        fd = dup(STDIN_FILENO);
    } else if (b->file_i < b->n_files) {
        b->in_name = b->files[b->file_i++];
        fd = strcmp(b->in_name, "-") == 0 ? dup(STDIN_FILENO) : open(b->in_name, O_RDONLY);
    } else {
        return 0;
    }
    if (fd < 0) {
        b->read_error = strfmt("%s: %s", b->in_name, strerror(errno));
        return -1;
    }
    in_open(&b->in, fd);
    b->in_open = 1;
    return 1;
}

static void end_input(batch *b)
{
    in_close(&b->in);
    b->in_open = 0;
}

static int input_error(batch *b)
{
    free(b->read_error);
    b->read_error = strfmt("%s: %s", b->in_name, b->in.err[0] ? b->in.err : "cannot read");
    return -1;
}

/* One line of the input without its line end, at most `limit` bytes (a
 * longer one is read to its end and *too_long set). 1, 0 at the end, -1 on
 * an error (b->read_error). */
static int read_line(batch *b, char **line, size_t *len, size_t limit, int *too_long)
{
    *line = NULL;
    *len = 0;
    *too_long = 0;
    if (b->pending) {
        *line = b->pending;
        *len = strlen(b->pending);
        b->pending = NULL;
        b->line_no++;
        return 1;
    }
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    if (!s)
        return -1;
    for (;;) {
        int rc = in_fill(&b->in);
        if (rc < 0) {
            free(s);
            return input_error(b);
        }
        if (rc == 0) {
            if (n == 0 && !*too_long) {
                free(s);
                return 0;
            }
            break;
        }
        unsigned char *from = b->in.buf + b->in.pos;
        size_t avail = b->in.len - b->in.pos;
        unsigned char *nl = memchr(from, '\n', avail);
        size_t take = nl ? (size_t)(nl - from) + 1 : avail;
        if (n + take + 1 > cap) {
            if (n + take > limit) {
                *too_long = 1;
                n = 0; /* read on to the line's end, keeping nothing */
            } else {
                while (n + take + 1 > cap)
                    cap *= 2;
                char *ns = realloc(s, cap);
                if (!ns) {
                    free(s);
                    return -1;
                }
                s = ns;
            }
        }
        if (n + take + 1 <= cap) {
            memcpy(s + n, from, take);
            n += take;
        }
        b->in.pos += take;
        if (nl)
            break;
    }
    b->line_no++;
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    s[n] = '\0';
    *line = s;
    *len = n;
    return 1;
}

static record *record_new(batch *b)
{
    record *r = calloc(1, sizeof *r);
    if (r)
        b->record_no++;
    return r;
}

/* The record's id when it has none: its place in the stream, from 1. */
static void default_id(batch *b, record *r)
{
    if (!r->id)
        r->id = json_object_new_int64((int64_t)b->record_no);
}

static int is_http_url(const char *u)
{
    return u && (strncasecmp(u, "http://", 7) == 0 || strncasecmp(u, "https://", 8) == 0);
}

/* A JSON line: 1 and *out, 0 for a blank line (no record). */
static int jsonl_record(batch *b, char *line, size_t len, int too_long, record **out)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!too_long && !*p)
        return 0;
    record *r = record_new(b);
    if (!r)
        return -1;
    *out = r;
    if (too_long) {
        r->pre = GLANCE_ETOOBIG;
        r->pre_msg = strfmt("line %zu of %s: over %zu bytes (max_input_bytes)", b->line_no,
                            b->in_name, b->max_record);
        default_id(b, r);
        return 1;
    }
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        record_free(r);
        *out = NULL;
        return -1;
    }
    json_object *o = json_tokener_parse_ex(tok, line, (int)len);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    while (end < len && isspace((unsigned char)line[end]))
        end++;
    if (!o || jerr != json_tokener_success || end != len ||
        !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        r->pre = GLANCE_EINPUT;
        r->pre_msg = strfmt("line %zu of %s: not a JSON object%s%s", b->line_no, b->in_name,
                            jerr != json_tokener_success ? ": " : "",
                            jerr != json_tokener_success ? json_tokener_error_desc(jerr) : "");
        default_id(b, r);
        return 1;
    }
    r->json = o;
    json_object *v;
    if (json_object_object_get_ex(o, "id", &v) && v)
        r->id = json_object_get(v);
    default_id(b, r);
    if (json_object_object_get_ex(o, "url", &v) && json_object_is_type(v, json_type_string))
        r->url = json_object_get_string(v);
    if (json_object_object_get_ex(o, "snapshot", &v) &&
        (json_object_is_type(v, json_type_object) || json_object_is_type(v, json_type_string))) {
        /* Read again by the library from its text: the line was bounded
         * by max_input_bytes already. */
        size_t n = 0;
        const char *t = json_object_is_type(v, json_type_string)
                            ? json_object_get_string(v)
                            : json_object_to_json_string_length(v, JSON_C_TO_STRING_PLAIN, &n);
        if (json_object_is_type(v, json_type_string))
            n = (size_t)json_object_get_string_len(v);
        if (!t || !(r->snapshot = malloc(n + 1)))
            return -1;
        memcpy(r->snapshot, t, n);
        r->snapshot[n] = '\0';
        r->snapshot_len = n;
    } else if (json_object_object_get_ex(o, "html", &v) && json_object_is_type(v, json_type_string)) {
        r->html = json_object_get_string(v);
        r->len = (size_t)json_object_get_string_len(v);
    } else if (!r->url) {
        r->pre = GLANCE_EINPUT;
        r->pre_msg = strfmt("line %zu of %s: a record needs \"html\" or \"url\" (a string), or "
                            "\"snapshot\"",
                            b->line_no, b->in_name);
    }
    return 1;
}

/* Reads `n` bytes of the input into *buf (NUL-terminated); or, when over
 * `limit`, reads past them keeping nothing (*buf NULL). 0, -1. */
static int read_block(batch *b, size_t n, size_t limit, char **buf)
{
    *buf = NULL;
    char *s = n <= limit ? malloc(n + 1) : NULL;
    if (n <= limit && !s)
        return -1;
    size_t got = 0;
    while (got < n) {
        int rc = in_fill(&b->in);
        if (rc <= 0) {
            free(s);
            if (rc < 0)
                return input_error(b);
            b->read_error = strfmt("%s: a WARC record cut short", b->in_name);
            return -1;
        }
        size_t take = b->in.len - b->in.pos;
        if (take > n - got)
            take = n - got;
        if (s)
            memcpy(s + got, b->in.buf + b->in.pos, take);
        b->in.pos += take;
        got += take;
    }
    if (s)
        s[n] = '\0';
    *buf = s;
    return 0;
}

/* A header's value in a block of "Name: value" lines (CRLF or LF), up to
 * `end`; malloc'd, NULL when absent. */
static char *header_value(const char *h, const char *end, const char *name)
{
    size_t k = strlen(name);
    for (const char *p = h; p < end;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        if ((size_t)(eol - p) > k && strncasecmp(p, name, k) == 0 && p[k] == ':') {
            const char *v = p + k + 1, *e = eol;
            while (v < e && (*v == ' ' || *v == '\t'))
                v++;
            while (e > v && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
                e--;
            return strndup(v, (size_t)(e - v));
        }
        p = eol + 1;
    }
    return NULL;
}

/* The charset parameter of a Content-Type, malloc'd; NULL when none. */
static char *content_type_charset(const char *ct)
{
    for (const char *p = ct; (p = strchr(p, ';'));) {
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncasecmp(p, "charset=", 8) == 0) {
            p += 8;
            int quoted = *p == '"' || *p == '\'';
            if (quoted)
                p++;
            size_t n = 0;
            while (p[n] && p[n] != ';' && p[n] != ' ' && p[n] != '"' && p[n] != '\'')
                n++;
            return n ? strndup(p, n) : NULL;
        }
    }
    return NULL;
}

/* A page's media type is HTML's (or none is given). */
static int html_type(const char *ct)
{
    if (!ct || !*ct)
        return 1;
    size_t n = strcspn(ct, "; \t");
    return (n == 9 && strncasecmp(ct, "text/html", 9) == 0) ||
           (n == 21 && strncasecmp(ct, "application/xhtml+xml", 21) == 0);
}

/* Undoes Transfer-Encoding: chunked in place; the new length, or (size_t)-1
 * when the chunks are broken. */
static size_t dechunk(char *s, size_t len)
{
    size_t in = 0, out = 0;
    for (;;) {
        char *end;
        if (in >= len)
            return (size_t)-1;
        unsigned long long n = strtoull(s + in, &end, 16);
        if (end == s + in)
            return (size_t)-1;
        char *nl = memchr(end, '\n', len - (size_t)(end - s));
        if (!nl)
            return (size_t)-1;
        in = (size_t)(nl - s) + 1;
        if (n == 0)
            break;
        if (n > len - in)
            return (size_t)-1;
        memmove(s + out, s + in, (size_t)n);
        out += (size_t)n;
        in += (size_t)n;
        if (in < len && s[in] == '\r')
            in++;
        if (in < len && s[in] == '\n')
            in++;
    }
    s[out] = '\0';
    return out;
}

/* Content-Encoding: deflate, zlib-wrapped or raw as servers send it. */
static int inflate_any(const char *in, size_t len, size_t limit, char **out, size_t *out_len)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (inflateInit2(&z, attempt == 0 ? MAX_WBITS : -MAX_WBITS) != Z_OK)
            return -1;
        size_t cap = len * 4 + 4096 < limit + 1 ? len * 4 + 4096 : limit + 1, n = 0;
        char *s = malloc(cap + 1);
        int rc = Z_OK;
        z.next_in = (unsigned char *)in;
        z.avail_in = (uInt)len;
        while (s && rc == Z_OK) {
            if (n == cap) {
                if (cap > limit)
                    break;
                size_t ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
                char *ns = realloc(s, ncap + 1);
                if (!ns) {
                    free(s);
                    s = NULL;
                    break;
                }
                s = ns;
                cap = ncap;
            }
            z.next_out = (unsigned char *)s + n;
            z.avail_out = (uInt)(cap - n);
            rc = inflate(&z, Z_NO_FLUSH);
            n = cap - z.avail_out;
        }
        inflateEnd(&z);
        if (s && (rc == Z_STREAM_END || n > limit)) {
            s[n] = '\0';
            *out = s;
            *out_len = n;
            return 0;
        }
        free(s);
    }
    return -1;
}

/* The page of a WARC response record's block: the HTTP payload, its
 * transfer and content encodings undone, in the charset of its
 * Content-Type; or the status that says why it is no page. Takes `block`. */
static void warc_payload(batch *b, record *r, char *block, size_t len)
{
    r->html_own = block;
    r->html = block;
    r->len = len;
    if (strncmp(block, "HTTP/", 5) != 0)
        return; /* not HTTP: the block is the page */
    char *hend = strstr(block, "\r\n\r\n");
    size_t skip = 4;
    char *lf = strstr(block, "\n\n");
    if (!hend || (lf && lf < hend)) {
        hend = lf;
        skip = 2;
    }
    if (!hend) {
        r->pre = GLANCE_EINPUT;
        r->pre_msg = strdup("an HTTP response without the end of its headers");
        return;
    }
    int code = 0;
    const char *sp = strchr(block, ' ');
    if (sp && sp < hend)
        code = atoi(sp + 1);
    const char *headers = memchr(block, '\n', (size_t)(hend - block));
    headers = headers ? headers + 1 : hend;
    char *ct = header_value(headers, hend, "Content-Type");
    char *te = header_value(headers, hend, "Transfer-Encoding");
    char *ce = header_value(headers, hend, "Content-Encoding");
    char *body = hend + skip;
    size_t body_len = len - (size_t)(body - block);
    if (code < 200 || code > 299) {
        r->pre = GLANCE_EFETCH;
        r->pre_msg = strfmt("HTTP %d", code);
    } else if (!html_type(ct)) {
        r->pre = GLANCE_EINPUT;
        r->pre_msg = strfmt("not HTML: %s", ct);
    } else {
        if (te && strcasestr(te, "chunked")) {
            size_t n = dechunk(body, body_len);
            if (n != (size_t)-1)
                body_len = n;
        }
        char *plain = NULL;
        size_t plain_len = 0;
        if (ce && (strcasecmp(ce, "gzip") == 0 || strcasecmp(ce, "x-gzip") == 0)) {
            if (cli_gunzip(body, body_len, b->max_record, &plain, &plain_len) != 0) {
                r->pre = GLANCE_EINPUT;
                r->pre_msg = strdup("broken gzip payload");
            }
        } else if (ce && strcasecmp(ce, "deflate") == 0) {
            if (inflate_any(body, body_len, b->max_record, &plain, &plain_len) != 0) {
                r->pre = GLANCE_EINPUT;
                r->pre_msg = strdup("broken deflate payload");
            }
        } else if (ce && *ce && strcasecmp(ce, "identity") != 0) {
            r->pre = GLANCE_EINPUT;
            r->pre_msg = strfmt("Content-Encoding %s is not read", ce);
        }
        if (plain) {
            free(block);
            r->html_own = plain;
            r->html = plain;
            r->len = plain_len;
        } else {
            r->html = body;
            r->len = body_len;
        }
        r->charset = ct ? content_type_charset(ct) : NULL;
    }
    free(ct);
    free(te);
    free(ce);
}

/* The next WARC response record: 1, 0 at the end of the input, -1. */
static int warc_record(batch *b, record **out)
{
    for (;;) {
        char *line;
        size_t len;
        int too_long, rc;
        /* the version line, after the blank lines that end a record */
        do {
            rc = read_line(b, &line, &len, 1 << 16, &too_long);
            if (rc <= 0)
                return rc;
            if (len == 0)
                free(line);
        } while (len == 0);
        if (strncmp(line, "WARC/", 5) != 0) {
            b->read_error = strfmt("%s: line %zu: not a WARC record (\"%.40s\")", b->in_name,
                                   b->line_no, line);
            free(line);
            return -1;
        }
        free(line);
        char *type = NULL, *uri = NULL, *rid = NULL;
        long long length = -1;
        for (;;) {
            rc = read_line(b, &line, &len, 1 << 16, &too_long);
            if (rc < 0 || (rc == 0 && (b->read_error = strfmt("%s: a WARC header cut short",
                                                               b->in_name)))) {
                free(type), free(uri), free(rid);
                return -1;
            }
            if (len == 0) {
                free(line);
                break;
            }
            char *colon = strchr(line, ':');
            if (colon) {
                *colon = '\0';
                char *v = colon + 1;
                while (*v == ' ' || *v == '\t')
                    v++;
                if (strcasecmp(line, "WARC-Type") == 0 && !type)
                    type = strdup(v);
                else if (strcasecmp(line, "WARC-Target-URI") == 0 && !uri)
                    uri = strdup(v);
                else if (strcasecmp(line, "WARC-Record-ID") == 0 && !rid)
                    rid = strdup(v);
                else if (strcasecmp(line, "Content-Length") == 0)
                    length = strtoll(v, NULL, 10);
            }
            free(line);
        }
        if (length < 0) {
            b->read_error = strfmt("%s: line %zu: a WARC record without Content-Length",
                                   b->in_name, b->line_no);
            free(type), free(uri), free(rid);
            return -1;
        }
        int response = type && strcasecmp(type, "response") == 0;
        /* An HTTP response's headers come before the page: a little room. */
        char *block = NULL;
        if (read_block(b, (size_t)length, response ? b->max_record + (1 << 16) : 0, &block) != 0) {
            free(type), free(uri), free(rid);
            return -1;
        }
        free(type);
        if (!response) {
            b->skipped++;
            free(uri), free(rid), free(block);
            continue;
        }
        record *r = record_new(b);
        if (!r) {
            free(uri), free(rid), free(block);
            return -1;
        }
        if (rid) {
            /* "<urn:uuid:...>": the id without its angle brackets */
            size_t n = strlen(rid);
            const char *v = rid;
            if (n >= 2 && rid[0] == '<' && rid[n - 1] == '>')
                v++, n -= 2;
            r->id = json_object_new_string_len(v, (int)n);
            free(rid);
        }
        default_id(b, r);
        r->url = r->url_own = uri;
        if (!block) {
            r->pre = GLANCE_ETOOBIG;
            r->pre_msg = strfmt("a record of %lld bytes: over max_input_bytes", length);
        } else {
            warc_payload(b, r, block, (size_t)length);
        }
        *out = r;
        return 1;
    }
}

static int batch_read(void *arg, void **item)
{
    batch *b = arg;
    for (;;) {
        if (!b->in_open) {
            int rc = next_input(b);
            if (rc <= 0)
                return rc;
        }
        if (b->warc < 0) {
            /* The format, from the first line: a WARC starts "WARC/". */
            char *line;
            size_t len;
            int too_long;
            int rc = read_line(b, &line, &len, b->max_record * 4 + (1 << 20), &too_long);
            if (rc < 0)
                return -1;
            if (rc == 0) {
                end_input(b);
                if (b->n_files == 0 || b->file_i >= b->n_files)
                    return 0;
                continue;
            }
            b->warc = b->format == 2 || (b->format == 0 && strncmp(line, "WARC/", 5) == 0);
            if (too_long) {
                /* jsonl_record reports it */
                record *r = NULL;
                free(line);
                char none[1] = "";
                int k = jsonl_record(b, none, 0, 1, &r);
                if (k < 0)
                    return -1;
                *item = r;
                return 1;
            }
            b->pending = line;
            b->line_no--; /* read again */
        }
        record *r = NULL;
        int rc;
        if (b->warc) {
            rc = warc_record(b, &r);
        } else {
            char *line;
            size_t len;
            int too_long;
            rc = read_line(b, &line, &len, b->max_record * 4 + (1 << 20), &too_long);
            if (rc > 0) {
                rc = jsonl_record(b, line, len, too_long, &r);
                free(line);
                if (rc == 0)
                    continue; /* a blank line */
            }
        }
        if (rc < 0)
            return -1;
        if (rc == 0) {
            end_input(b);
            if (b->n_files == 0 || b->file_i >= b->n_files)
                return 0;
            continue;
        }
        *item = r;
        return 1;
    }
}

/* Working ------------------------------------------------------------------ */

static int field_wanted(const batch *b, const char *name)
{
    for (int i = 0; i < b->n_fields; i++)
        if (strcmp(b->fields[i], name) == 0)
            return 1;
    return 0;
}

static json_object *str_or_null(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

static void batch_work(void *arg, glance_context *gc, void *item)
{
    batch *b = arg;
    record *r = item;
    glance_result *res = NULL;
    if (r->pre != GLANCE_OK)
        r->st = r->pre;
    else if (r->snapshot)
        r->st = glance_extract_snapshot(gc, r->snapshot, r->snapshot_len, b->opt, &res);
    else if (r->html)
        r->st = glance_extract_page(gc, r->html, r->len, r->charset,
                                    is_http_url(r->url) ? r->url : NULL, b->opt, &res);
    else
        r->st = glance_extract_url(gc, r->url, b->opt, &res);

    json_object *line = json_object_new_object(), *full = NULL;
    if (!line) {
        glance_result_free(res);
        return;
    }
    json_object_object_add(line, "id", json_object_get(r->id));
    json_object_object_add(line, "status", json_object_new_string(glance_status_name(r->st)));
    for (int i = 0; i < b->n_fields; i++) {
        const char *f = b->fields[i];
        json_object *v = NULL;
        if (strcmp(f, "id") == 0 || strcmp(f, "status") == 0 || strcmp(f, "message") == 0)
            continue;
        if (strcmp(f, "url") == 0)
            v = str_or_null(r->url);
        else if (!res)
            v = NULL;
        else if (strcmp(f, "title") == 0)
            v = json_object_new_string(glance_result_title(res));
        else if (strcmp(f, "text") == 0)
            v = str_or_null(glance_result_text(res));
        else if (strcmp(f, "html") == 0)
            v = str_or_null(glance_result_html(res));
        else if (strcmp(f, "method") == 0)
            v = str_or_null(glance_result_method(res));
        else {
            /* The rest from the JSON of the result, read once. */
            if (!full) {
                const char *j = glance_result_json(res);
                full = j ? json_tokener_parse(j) : NULL;
            }
            json_object *fv;
            if (full && json_object_object_get_ex(full, f, &fv))
                v = json_object_get(fv);
        }
        json_object_object_add(line, f, v);
    }
    if (field_wanted(b, "message") || (r->st != GLANCE_OK && r->st != GLANCE_ENOCONTENT)) {
        const char *msg = r->pre != GLANCE_OK ? r->pre_msg
                          : r->st != GLANCE_OK ? glance_result_message(res, r->st)
                                               : NULL;
        json_object_object_add(line, "message", str_or_null(msg));
    }
    const char *s =
        json_object_to_json_string_ext(line, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    if (s && asprintf(&r->line, "%s\n", s) >= 0)
        r->line_len = strlen(r->line);
    else
        r->line = NULL;
    json_object_put(full);
    json_object_put(line);
    glance_result_free(res);
    /* The page is done with: the window holds lines, not pages. */
    free(r->html_own);
    r->html_own = NULL;
    r->html = NULL;
    free(r->snapshot);
    r->snapshot = NULL;
    if (r->json) {
        json_object_put(r->json);
        r->json = NULL;
        r->url = NULL;
    }
}

/* Writing ------------------------------------------------------------------ */

static void batch_drop(void *arg, void *item)
{
    record_free(item);
}

static int batch_write(void *arg, void *item)
{
    batch *b = arg;
    record *r = item;
    int rc = 0;
    if (!r->line) {
        /* out of memory making the line: the id and the status at least */
        char *s = NULL;
        const char *id = json_object_to_json_string_ext(r->id, JSON_C_TO_STRING_PLAIN);
        if (asprintf(&s, "{\"id\":%s,\"status\":\"nomem\"}\n", id ? id : "null") < 0)
            rc = -1;
        else
            r->line = s, r->line_len = strlen(s);
        r->st = GLANCE_ENOMEM;
    }
    if (rc == 0 && (fwrite(r->line, 1, r->line_len, b->out) != r->line_len || fflush(b->out) != 0))
        rc = -1;
    if (r->st == GLANCE_OK)
        b->ok++;
    else if (r->st == GLANCE_ENOCONTENT)
        b->nocontent++;
    else
        b->failed++;
    progress_step(&b->prog, 1);
    record_free(r);
    return rc;
}

/* The command --------------------------------------------------------------- */

static int parse_fields(batch *b, const char *list)
{
    if (cli_parse_list(list, &b->fields, &b->n_fields) != 0) {
        fprintf(stderr, "glance batch: --fields needs names, comma between them\n");
        return -1;
    }
    for (int i = 0; i < b->n_fields; i++) {
        int known = 0;
        for (size_t k = 0; k < sizeof known_fields / sizeof known_fields[0] && !known; k++)
            known = strcmp(b->fields[i], known_fields[k]) == 0;
        if (!known) {
            fprintf(stderr,
                    "glance batch: unknown field '%s' (the keys of glance extract --format json, "
                    "and url)\n",
                    b->fields[i]);
            return -1;
        }
    }
    return 0;
}

int cmd_batch(int argc, char **argv)
{
    batch b = {.format = 0, .warc = -1, .in = {.fd = -1}};
    int code = EXIT_USAGE, jobs = 1;
    size_t window = 0;
    const char *out_path = NULL, *fields = "title,text";
    glance_options *opt = glance_options_new();
    b.files = calloc((size_t)argc, sizeof *b.files);
    if (!opt || !b.files) {
        code = EXIT_INTERNAL;
        goto out;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage_batch(stdout);
            code = 0;
            goto out;
        }
        if (!strcmp(a, "--fields") || !strcmp(a, "--input") || !strcmp(a, "--jobs") ||
            !strcmp(a, "--queue") || !strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "glance batch: %s needs a value\n", a);
                goto out;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--fields")) {
                fields = v;
            } else if (!strcmp(a, "-o")) {
                out_path = v;
            } else if (!strcmp(a, "--input")) {
                if (!strcmp(v, "auto"))
                    b.format = 0;
                else if (!strcmp(v, "jsonl"))
                    b.format = 1;
                else if (!strcmp(v, "warc"))
                    b.format = 2;
                else {
                    fprintf(stderr, "glance batch: bad value '%s' for --input (auto, jsonl or warc)\n", v);
                    goto out;
                }
            } else if (!strcmp(a, "--jobs")) {
                if ((jobs = atoi(v)) < 1 || jobs > 256) {
                    fprintf(stderr, "glance batch: bad value '%s' for --jobs (1 to 256)\n", v);
                    goto out;
                }
            } else {
                long q = atol(v);
                if (q < 1 || q > 100000) {
                    fprintf(stderr, "glance batch: bad value '%s' for --queue (1 to 100000)\n", v);
                    goto out;
                }
                window = (size_t)q;
            }
            continue;
        }
        int r = cli_option("batch", opt, argc, argv, &i);
        if (r < 0)
            goto out;
        if (r > 0)
            continue;
        if (a[0] == '-' && a[1] != '\0') {
            cli_bad_flag("batch", a);
            goto out;
        }
        b.files[b.n_files++] = argv[i];
    }
    if (parse_fields(&b, fields) != 0)
        goto out;
    if (window && window < (size_t)jobs) {
        fprintf(stderr, "glance batch: --queue %zu holds fewer records than --jobs %d work on\n",
                window, jobs);
        goto out;
    }
    char *limit = glance_options_get(opt, "max_input_bytes");
    b.max_record = limit ? (size_t)strtoull(limit, NULL, 10) : (size_t)64 << 20;
    free(limit);
    b.opt = opt;
    b.out = stdout;
    if (out_path && !(b.out = fopen(out_path, "w"))) {
        fprintf(stderr, "glance batch: cannot write %s: %s\n", out_path, strerror(errno));
        code = EXIT_INTERNAL;
        goto out;
    }
    progress_init(&b.prog, "batch", 0);
    stream_ops ops = {batch_read, batch_work, batch_write, batch_drop};
    stream_result sr;
    int rc = stream_run(&ops, &b, jobs, window, &sr);
    progress_end(&b.prog);
    if (rc != 0) {
        fprintf(stderr, "glance: cannot set up fonts (is fontconfig configured and a font installed?)\n");
        code = EXIT_INTERNAL;
    } else if (sr.stopped) {
        fprintf(stderr, "glance batch: cannot write output: %s\n", strerror(errno));
        code = EXIT_INTERNAL;
    } else {
        code = 0;
        if (sr.read_error) {
            fprintf(stderr, "glance batch: %s\n", b.read_error ? b.read_error : "cannot read input");
            code = EXIT_BADINPUT;
        }
        fprintf(stderr, "glance batch: %zu records: %zu ok, %zu no main content, %zu failed",
                sr.written, b.ok, b.nocontent, b.failed);
        if (b.skipped)
            fprintf(stderr, " (%zu WARC records other than responses skipped)", b.skipped);
        fputc('\n', stderr);
    }
    if (b.out != stdout && fclose(b.out) != 0 && code == 0) {
        fprintf(stderr, "glance batch: cannot write %s: %s\n", out_path, strerror(errno));
        code = EXIT_INTERNAL;
    }
    /* A reader cancelled inside read(2) leaves its stream half-way: not
     * closed then (the process ends). */
    if (b.in_open && !sr.reader_cancelled)
        in_close(&b.in);
out:
    free(b.pending);
    free(b.read_error);
    cli_free_list(b.fields, b.n_fields);
    free(b.files);
    glance_options_free(opt);
    return code;
}
