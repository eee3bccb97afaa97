/* lib/: checking and normalising the input bytes. */
#include "lib/input.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

glance_status input_read_file(const char *path, size_t limit, char **buf, size_t *len,
                              char *why, size_t why_cap)
{
    *buf = NULL;
    *len = 0;
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(why, why_cap, "%s: %s", path, strerror(errno));
        return GLANCE_EIO;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, why_cap, "%s: not a regular file", path);
        return GLANCE_EIO;
    }
    if ((size_t)st.st_size > limit) {
        snprintf(why, why_cap, "%s: %lld bytes, over the limit of %zu (max_input_bytes)", path,
                 (long long)st.st_size, limit);
        return GLANCE_ETOOBIG;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_cap, "%s: %s", path, strerror(errno));
        return GLANCE_EIO;
    }
    size_t cap = (size_t)st.st_size + 1;
    char *b = malloc(cap);
    if (!b) {
        fclose(f);
        snprintf(why, why_cap, "%s: out of memory", path);
        return GLANCE_ENOMEM;
    }
    size_t got = fread(b, 1, cap - 1, f);
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(b);
        snprintf(why, why_cap, "%s: read error", path);
        return GLANCE_EIO;
    }
    b[got] = '\0';
    *buf = b;
    *len = got;
    return GLANCE_OK;
}

/* Formats whose first bytes say they are not a page. */
static const char *binary_signature(const unsigned char *b, size_t len)
{
    static const struct {
        const char *magic;
        size_t n;
        const char *name;
    } sigs[] = {
        {"\x1f\x8b", 2, "gzip-compressed data (decompress it first)"},
        {"\x89PNG", 4, "a PNG image"},
        {"GIF8", 4, "a GIF image"},
        {"\xff\xd8\xff", 3, "a JPEG image"},
        {"%PDF", 4, "a PDF document"},
        {"PK\x03\x04", 4, "a ZIP archive"},
        {"\x7f" "ELF", 4, "an executable"},
        {"BZh", 3, "bzip2-compressed data"},
        {"\xfd" "7zXZ", 5, "xz-compressed data"},
        {"\x28\xb5\x2f\xfd", 4, "zstd-compressed data"},
    };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (len >= sigs[i].n && memcmp(b, sigs[i].magic, sigs[i].n) == 0)
            return sigs[i].name;
    return NULL;
}

/* Share of control bytes (other than tab, newline, carriage return, form
 * feed and escape) in the first 4 KiB: text has almost none. */
static int looks_binary(const unsigned char *b, size_t len)
{
    size_t n = len < 4096 ? len : 4096, ctl = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = b[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b)
            ctl++;
    }
    return n > 0 && ctl * 10 > n; /* over 10% */
}

/* Converts `enc` (UTF-16 after its BOM, or a charset the page declares) to
 * UTF-8 through iconv; a sequence iconv cannot read becomes U+FFFD and
 * `unit` bytes are skipped. */
static glance_status iconv_to_utf8(const char *in, size_t len, const char *enc, size_t unit,
                                   char **out, size_t *out_len)
{
    iconv_t cd = iconv_open("UTF-8", enc);
    if (cd == (iconv_t)-1)
        return GLANCE_EINPUT;
    if (len > ((size_t)-1 - 4) / 3) {
        iconv_close(cd);
        return GLANCE_ENOMEM;
    }
    size_t cap = len * 3 + 4; /* one input byte never makes more than 3 */
    char *buf = malloc(cap);
    if (!buf) {
        iconv_close(cd);
        return GLANCE_ENOMEM;
    }
    char *ip = (char *)in, *op = buf;
    size_t il = len, ol = cap - 1;
    while (il > 0) {
        if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1) {
            if (errno == EILSEQ || errno == EINVAL) {
                /* A broken unit: skip it, mark it. */
                size_t skip = il >= unit ? unit : il;
                ip += skip;
                il -= skip;
                if (ol >= 3) {
                    memcpy(op, "\xef\xbf\xbd", 3);
                    op += 3;
                    ol -= 3;
                }
                continue;
            }
            break; /* E2BIG cannot happen with this capacity */
        }
    }
    iconv_close(cd);
    *op = '\0';
    *out = buf;
    *out_len = (size_t)(op - buf);
    return GLANCE_OK;
}

/* Length of the valid UTF-8 sequence at b (1-4), 0 when invalid. */
static size_t utf8_valid_len(const unsigned char *b, size_t left)
{
    unsigned char c = b[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned cp;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (left < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((b[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (b[i] & 0x3f);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return n;
}

static int valid_utf8(const unsigned char *b, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t n = b[i] ? utf8_valid_len(b + i, len - i) : 0;
        if (n == 0)
            return 0;
        i += n;
    }
    return 1;
}

/* The charset a page declares in its first 1024 bytes (as browsers' prescan
 * looks): <meta charset="..."> or <meta http-equiv content="...; charset=...">.
 * Labels are mapped as the WHATWG Encoding standard maps them where iconv's
 * name differs (latin1 is really windows-1252, Shift_JIS is CP932, GB2312
 * is GB18030's subset, EUC-KR is CP949). 0 when none or UTF-8. */
static int declared_charset(const unsigned char *b, size_t len, char *enc, size_t cap)
{
    size_t n = len < 1024 ? len : 1024;
    char head[1025];
    for (size_t i = 0; i < n; i++)
        head[i] = (char)tolower(b[i]);
    head[n] = '\0';
    for (char *m = strstr(head, "<meta"); m; m = strstr(m + 5, "<meta")) {
        char *end = strchr(m, '>');
        char *c = strstr(m, "charset");
        if (!c || (end && c > end))
            continue;
        c += 7;
        while (*c == ' ' || *c == '=' || *c == '"' || *c == '\'')
            c++;
        size_t k = 0;
        while (k + 1 < cap && (isalnum((unsigned char)c[k]) || strchr("-_.:", c[k])))
            k++;
        if (k == 0)
            continue;
        char label[64];
        snprintf(label, sizeof label, "%.*s", (int)k, c);
        static const struct { const char *label, *iconv; } map[] = {
            {"utf-8", NULL}, {"utf8", NULL}, {"unicode-1-1-utf-8", NULL},
            {"iso-8859-1", "WINDOWS-1252"}, {"latin1", "WINDOWS-1252"},
            {"us-ascii", "WINDOWS-1252"}, {"ascii", "WINDOWS-1252"},
            {"shift_jis", "CP932"}, {"shift-jis", "CP932"}, {"sjis", "CP932"},
            {"x-sjis", "CP932"}, {"windows-31j", "CP932"},
            {"gb2312", "GB18030"}, {"gbk", "GB18030"}, {"x-gbk", "GB18030"},
            {"euc-kr", "CP949"}, {"ks_c_5601-1987", "CP949"}, {"big5", "BIG5-HKSCS"},
        };
        for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
            if (strcmp(label, map[i].label) == 0) {
                if (!map[i].iconv)
                    return 0;
                snprintf(enc, cap, "%s", map[i].iconv);
                return 1;
            }
        snprintf(enc, cap, "%s", label);
        return 1;
    }
    return 0;
}

glance_status input_to_utf8(const char *bytes, size_t len, size_t limit, char **out,
                            char *why, size_t why_cap)
{
    *out = NULL;
    const unsigned char *b = (const unsigned char *)bytes;
    if (len == 0) {
        snprintf(why, why_cap, "empty input");
        return GLANCE_EINPUT;
    }
    if (len > limit) {
        snprintf(why, why_cap, "input of %zu bytes is over the limit of %zu (max_input_bytes)", len, limit);
        return GLANCE_ETOOBIG;
    }
    char *converted = NULL;
    if (len >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff))) {
        size_t clen;
        glance_status st = iconv_to_utf8(bytes + 2, len - 2, b[0] == 0xff ? "UTF-16LE" : "UTF-16BE",
                                         2, &converted, &clen);
        if (st != GLANCE_OK) {
            snprintf(why, why_cap, "UTF-16 input could not be converted");
            return st;
        }
        b = (const unsigned char *)converted;
        len = clen;
    } else if (len >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) {
        b += 3;
        len -= 3;
    } else if (!valid_utf8(b, len)) {
        /* Not UTF-8: read it as the charset the page declares, when iconv
         * knows it. Valid UTF-8 is kept as it is whatever the page says
         * (a page saved as UTF-8 often still declares its old charset). */
        char enc[64];
        size_t clen;
        if (declared_charset(b, len, enc, sizeof enc) &&
            iconv_to_utf8(bytes, len, enc, 1, &converted, &clen) == GLANCE_OK) {
            b = (const unsigned char *)converted;
            len = clen;
        }
    }
    const char *sig = binary_signature(b, len);
    if (sig || looks_binary(b, len)) {
        snprintf(why, why_cap, "binary data, not HTML%s%s", sig ? ": " : "", sig ? sig : "");
        free(converted);
        return GLANCE_EINPUT;
    }
    /* Worst case every byte becomes U+FFFD (3 bytes). */
    if (len > ((size_t)-1 - 1) / 3) {
        free(converted);
        return GLANCE_ENOMEM;
    }
    char *o = malloc(len * 3 + 1);
    if (!o) {
        free(converted);
        snprintf(why, why_cap, "out of memory");
        return GLANCE_ENOMEM;
    }
    size_t w = 0;
    for (size_t i = 0; i < len;) {
        size_t n = b[i] ? utf8_valid_len(b + i, len - i) : 0;
        if (n == 0) {
            memcpy(o + w, "\xef\xbf\xbd", 3);
            w += 3;
            i++;
        } else {
            memcpy(o + w, b + i, n);
            w += n;
            i += n;
        }
    }
    o[w] = '\0';
    free(converted);
    char *shrunk = realloc(o, w + 1); /* give back the worst-case room */
    *out = shrunk ? shrunk : o;
    return GLANCE_OK;
}
