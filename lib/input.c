/* lib/: checking and normalising the input bytes. */
#include "lib/input.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <uchardet/uchardet.h>

#include "base/tags.h"

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

/* Bytes no text holds: the C0 controls but tab, newline, form feed,
 * carriage return, escape, shift out and shift in (the ISO-2022 charsets'
 * escapes and shifts), and DEL. No legacy charset uses them inside a
 * character either (the double-byte ones' trail bytes start at 0x40 and
 * skip 0x7f), so a page in any charset has them only as strays, while
 * random bytes are a tenth of them (26 of 256). */
static int control_byte(unsigned char c)
{
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r' && c != 0x1b &&
            c != 0x0e && c != 0x0f) ||
           c == 0x7f;
}

/* Whether the 8 bytes at b are ASCII and none is NUL. */
static int ascii8(const unsigned char *b)
{
    uint64_t w;
    memcpy(&w, b, sizeof w);
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    return !(w & highs) && !((w - ones) & ~w & highs);
}

/* Whether the 8 bytes at b are printable ASCII, 0x20 to 0x7e: none a
 * control byte, none past ASCII. */
static int printable8(const unsigned char *b)
{
    uint64_t w;
    memcpy(&w, b, sizeof w);
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull,
                   spaces = 0x2020202020202020ull, dels = 0x7f7f7f7f7f7f7f7full;
    uint64_t d = w ^ dels; /* a byte 0x7f is 0 here */
    return !(w & highs) && !((w - spaces) & ~w & highs) && !((d - ones) & ~d & highs);
}

static int ascii_letter(unsigned char c)
{
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/* Markup as a page has it, not as a random run can have it by chance: a
 * tag's start ('<', a letter, its name's letters, digits and hyphens, then
 * white space, '/' or '>'), an end tag's start ('</' and a letter), a
 * comment ('<!--'), a doctype or an XML declaration ('<!' or '<?' and a
 * letter). A '<' before a letter alone is a run of random bytes every few
 * kilobytes; the whole tag start is one in some millions. */
static int has_markup(const unsigned char *b, size_t len)
{
    const unsigned char *end = b + len;
    for (const unsigned char *p = memchr(b, '<', len); p && p + 2 < end;
         p = memchr(p + 1, '<', (size_t)(end - p - 1))) {
        unsigned char c = p[1], d = p[2];
        if ((c == '/' || c == '?') && ascii_letter(d))
            return 1;
        if (c == '!' && (ascii_letter(d) || (d == '-' && p + 3 < end && p[3] == '-')))
            return 1;
        if (!ascii_letter(c))
            continue;
        const unsigned char *q = p + 2;
        while (q < end && (ascii_letter(*q) || (*q >= '0' && *q <= '9') || *q == '-'))
            q++;
        if (q < end && (base_html_space((char)*q) || *q == '/' || *q == '>'))
            return 1;
    }
    return 0;
}

/* Whether the bytes (the whole input, as read or as decoded) are not text:
 * control bytes in more than 1 character in 100 (at least 2 of them), or,
 * in input without any markup, a control byte at all. A page with a stray
 * NUL or two stays a page; random bytes of any length but the shortest
 * (under some 64 bytes a run can lack control bytes by chance) are
 * refused. Characters are counted as UTF-8 lead bytes and single bytes. */
static int looks_binary(const unsigned char *b, size_t len)
{
    size_t ctl = 0, chars = 0;
    for (size_t i = 0; i < len;) {
        /* Most of a page: eight characters, no control byte. */
        if (i + 8 <= len && printable8(b + i)) {
            chars += 8;
            i += 8;
            continue;
        }
        unsigned char c = b[i++];
        ctl += (size_t)control_byte(c);
        chars += (c & 0xc0) != 0x80;
    }
    if (ctl == 0)
        return 0;
    if (!has_markup(b, len))
        return 1;
    return ctl >= 2 && ctl * 100 > chars;
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
        if (i + 8 <= len && ascii8(b + i)) {
            i += 8;
            continue;
        }
        size_t n = b[i] ? utf8_valid_len(b + i, len - i) : 0;
        if (n == 0)
            return 0;
        i += n;
    }
    return 1;
}

/* The bytes as UTF-8: a NUL or a byte that is not well-formed UTF-8
 * becomes U+FFFD. Malloc'd, NUL-terminated; NULL when out of memory. */
static char *utf8_or_replacement(const unsigned char *b, size_t len, size_t *out_len)
{
    /* Worst case every byte becomes U+FFFD (3 bytes). */
    if (len > ((size_t)-1 - 1) / 3)
        return NULL;
    char *o = malloc(len * 3 + 1);
    if (!o)
        return NULL;
    size_t w = 0;
    for (size_t i = 0; i < len;) {
        if (i + 8 <= len && ascii8(b + i)) {
            memcpy(o + w, b + i, 8);
            w += 8;
            i += 8;
            continue;
        }
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
    char *shrunk = realloc(o, w + 1); /* give back the worst-case room */
    if (out_len)
        *out_len = w;
    return shrunk ? shrunk : o;
}

/* The iconv name of a charset label, as the WHATWG Encoding standard maps
 * labels where iconv's name differs (latin1 and ASCII are really
 * windows-1252, Shift_JIS is CP932, GB2312 and GBK are GB18030's subsets,
 * EUC-KR is CP949, Big5 is Big5-HKSCS); the label itself otherwise. NULL
 * for UTF-8 and ASCII, which need no conversion. */
static const char *iconv_name(const char *label, char *buf, size_t cap)
{
    static const struct { const char *label, *iconv; } map[] = {
        {"utf-8", NULL}, {"utf8", NULL}, {"unicode-1-1-utf-8", NULL},
        {"iso-8859-1", "WINDOWS-1252"}, {"latin1", "WINDOWS-1252"}, {"l1", "WINDOWS-1252"},
        {"iso8859-1", "WINDOWS-1252"}, {"iso_8859-1", "WINDOWS-1252"},
        {"us-ascii", "WINDOWS-1252"}, {"ascii", "WINDOWS-1252"},
        {"shift_jis", "CP932"}, {"shift-jis", "CP932"}, {"sjis", "CP932"},
        {"x-sjis", "CP932"}, {"windows-31j", "CP932"}, {"ms_kanji", "CP932"},
        {"gb2312", "GB18030"}, {"gbk", "GB18030"}, {"x-gbk", "GB18030"}, {"cp936", "GB18030"},
        {"euc-kr", "CP949"}, {"ks_c_5601-1987", "CP949"}, {"uhc", "CP949"}, {"windows-949", "CP949"},
        {"big5", "BIG5-HKSCS"}, {"big5-hkscs", "BIG5-HKSCS"}, {"x-x-big5", "BIG5-HKSCS"},
    };
    char low[64];
    size_t k = 0;
    for (; label[k] && k + 1 < sizeof low; k++)
        low[k] = (char)tolower((unsigned char)label[k]);
    low[k] = '\0';
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(low, map[i].label) == 0)
            return map[i].iconv;
    snprintf(buf, cap, "%s", low);
    return buf;
}

/* The charset label a page declares in its first 1024 bytes (as browsers'
 * prescan looks): <meta charset="..."> or <meta http-equiv content="...;
 * charset=...">. 0 when none. */
static int declared_charset(const unsigned char *b, size_t len, char *label, size_t cap)
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
        /* c[k] first: strchr finds a string's own terminator, and the
         * label may run to the end of the prescan. */
        while (k + 1 < cap && c[k] && (isalnum((unsigned char)c[k]) || strchr("-_.:", c[k])))
            k++;
        if (k == 0)
            continue;
        snprintf(label, cap, "%.*s", (int)k, c);
        return 1;
    }
    return 0;
}

/* The charset uchardet reads in the bytes (the first MiB is plenty);
 * 0 when it has no answer. */
static int detected_charset(const char *b, size_t len, char *label, size_t cap)
{
    uchardet_t u = uchardet_new();
    if (!u)
        return 0;
    size_t n = len < ((size_t)1 << 20) ? len : ((size_t)1 << 20);
    int ok = uchardet_handle_data(u, b, n) == 0;
    uchardet_data_end(u);
    const char *cs = ok ? uchardet_get_charset(u) : NULL;
    ok = cs && cs[0];
    if (ok)
        snprintf(label, cap, "%s", cs);
    uchardet_delete(u);
    return ok;
}

/* UTF-8 with a few broken bytes (a truncated sequence, a stray byte) is
 * still UTF-8: it holds at least as many well-formed multi-byte sequences
 * as bytes that are not. A legacy charset's text has almost none. */
static int mostly_utf8(const unsigned char *b, size_t len)
{
    size_t good = 0, bad = 0;
    for (size_t i = 0; i < len;) {
        if (b[i] < 0x80) {
            i++;
            continue;
        }
        size_t n = utf8_valid_len(b + i, len - i);
        if (n) {
            good++;
            i += n;
        } else {
            bad++;
            i++;
        }
    }
    return good > 0 && good >= bad;
}

/* Reads `bytes` (not valid UTF-8) as `label` through iconv. 0 when done,
 * -1 when iconv does not know the label or out of memory. */
static int convert_label(const char *bytes, size_t len, const char *label, char **out,
                         size_t *out_len)
{
    char buf[64];
    const char *enc = iconv_name(label, buf, sizeof buf);
    if (!enc)
        return -1; /* UTF-8: nothing to convert */
    return iconv_to_utf8(bytes, len, enc, 1, out, out_len) == GLANCE_OK ? 0 : -1;
}

glance_status input_to_utf8(const char *bytes, size_t len, size_t limit, const char *http_charset,
                            char **out, input_charset *cs, char *why, size_t why_cap)
{
    *out = NULL;
    input_charset local;
    if (!cs)
        cs = &local;
    snprintf(cs->name, sizeof cs->name, "UTF-8");
    cs->from = "utf-8";
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
    size_t clen = 0;
    int unreadable = 0; /* neither UTF-8 nor after a BOM */
    /* After a UTF-16 BOM any two bytes are a character, and random ones
     * are characters of every script with a control character one time in
     * 2 400: the count of control bytes cannot tell them from text under
     * some hundred kilobytes. A page in UTF-16 has tags; without any it is
     * refused as the bytes in no charset are. */
    int utf16 = 0;
    int valid = 0;   /* the bytes as they stand are UTF-8 without NUL */
    int binary = -1; /* looks_binary of the bytes as they stand, once asked */
    if (len >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff))) {
        const char *enc = b[0] == 0xff ? "UTF-16LE" : "UTF-16BE";
        glance_status st = iconv_to_utf8(bytes + 2, len - 2, enc, 2, &converted, &clen);
        if (st != GLANCE_OK) {
            snprintf(why, why_cap, "UTF-16 input could not be converted");
            return st;
        }
        snprintf(cs->name, sizeof cs->name, "%s", enc);
        cs->from = "bom";
        utf16 = 1;
        b = (const unsigned char *)converted;
        len = clen;
    } else if (len >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) {
        cs->from = "bom";
        b += 3;
        len -= 3;
    } else if (binary_signature(b, len) || (binary = looks_binary(b, len))) {
        /* Checked below: before a charset reads it as text. */
        unreadable = 1;
    } else if ((valid = valid_utf8(b, len)) == 0) {
        unreadable = 1;
        /* Not UTF-8. In the order browsers follow: the charset the server
         * sends, then the one the page declares; when neither is said (or
         * what is said is UTF-8, which the bytes disprove), a page that is
         * UTF-8 but for a few broken bytes stays UTF-8, and any other is
         * read in the charset uchardet detects. Valid UTF-8 is kept as it
         * is whatever is declared (a page saved as UTF-8 often still
         * declares its old charset). */
        char label[64];
        if (http_charset && convert_label(bytes, len, http_charset, &converted, &clen) == 0) {
            snprintf(cs->name, sizeof cs->name, "%s", http_charset);
            cs->from = "http";
        } else if (declared_charset(b, len, label, sizeof label) &&
                   convert_label(bytes, len, label, &converted, &clen) == 0) {
            snprintf(cs->name, sizeof cs->name, "%s", label);
            cs->from = "meta";
        } else if (mostly_utf8(b, len)) {
            cs->from = "utf-8";
        } else if (detected_charset(bytes, len, label, sizeof label) &&
                   convert_label(bytes, len, label, &converted, &clen) == 0) {
            snprintf(cs->name, sizeof cs->name, "%s", label);
            cs->from = "detected";
        }
        if (converted) {
            b = (const unsigned char *)converted;
            len = clen;
            binary = -1;
        }
    }
    /* Bytes in no charset of their own, or after a UTF-16 BOM, and with no
     * markup are no page (a short random run may lack control bytes, not
     * high ones). */
    const char *sig = binary_signature(b, len);
    if (!sig && binary < 0)
        binary = looks_binary(b, len);
    if (sig || binary || ((unreadable || utf16) && !has_markup(b, len))) {
        snprintf(why, why_cap, "binary data, not HTML%s%s", sig ? ": " : "", sig ? sig : "");
        free(converted);
        return GLANCE_EINPUT;
    }
    char *o;
    if (valid) { /* nothing to replace */
        o = malloc(len + 1);
        if (o) {
            memcpy(o, b, len);
            o[len] = '\0';
        }
    } else {
        o = utf8_or_replacement(b, len, NULL);
    }
    free(converted);
    if (!o) {
        snprintf(why, why_cap, "out of memory");
        return GLANCE_ENOMEM;
    }
    *out = o;
    return GLANCE_OK;
}

char *input_css_to_utf8(const char *bytes, size_t len, const char *http_charset,
                        const char *page_charset, size_t *out_len)
{
    const unsigned char *b = (const unsigned char *)bytes;
    char *converted = NULL;
    size_t clen = 0;
    if (len >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) {
        b += 3;
        len -= 3;
    } else if (len >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff))) {
        if (iconv_to_utf8(bytes + 2, len - 2, b[0] == 0xff ? "UTF-16LE" : "UTF-16BE", 2,
                          &converted, &clen) != GLANCE_OK)
            return NULL;
    } else if (!valid_utf8(b, len)) {
        /* CSS Syntax: the HTTP charset, then @charset "...";, then the
         * page's encoding. */
        char label[64] = "";
        if (len > 10 && memcmp(b, "@charset \"", 10) == 0) {
            size_t k = 0;
            while (10 + k < len && b[10 + k] != '"' && k + 1 < sizeof label)
                k++;
            snprintf(label, sizeof label, "%.*s", (int)k, (const char *)b + 10);
        }
        const char *tries[] = {http_charset, label[0] ? label : NULL, page_charset};
        for (size_t i = 0; i < 3 && !converted; i++)
            if (tries[i])
                convert_label(bytes, len, tries[i], &converted, &clen);
    }
    if (converted) {
        b = (const unsigned char *)converted;
        len = clen;
    }
    char *o = utf8_or_replacement(b, len, out_len);
    free(converted);
    return o;
}
