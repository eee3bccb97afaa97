/* base/: the tags of an HTML page, one token at a time (tags.h).
 *
 * The states are those of the HTML standard's tokenizer (13.2.5), folded
 * into a few loops: what a state only reports as a parse error changes
 * nothing here, and nothing is decoded. */
#include "base/tags.h"

#include <string.h>

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char lower_of(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* ASCII case-insensitive: do the n bytes at p spell `lower`? */
static int eq_lower(const char *p, size_t n, const char *lower)
{
    size_t i = 0;
    for (; i < n && lower[i]; i++)
        if (lower_of(p[i]) != lower[i])
            return 0;
    return i == n && lower[i] == '\0';
}

void base_tag_scanner_init(base_tag_scanner *s, const char *html, size_t len)
{
    memset(s, 0, sizeof *s);
    s->p = html;
    s->end = html + len;
}

int base_tag_is(const base_tag *t, const char *lower)
{
    return t->name && eq_lower(t->name, t->name_len, lower);
}

const char *const base_void_elements[] = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr", "basefont", "bgsound", "frame", "keygen", "image", "menuitem", NULL};

int base_tag_in(const char *name, const char *const *names)
{
    if (!name)
        return 0;
    /* The first bytes compared here: most names of a list differ there,
     * and each strcmp call costs more than the list's walk. */
    for (const char c = name[0]; *names; names++)
        if ((*names)[0] == c && strcmp(name, *names) == 0)
            return 1;
    return 0;
}

int base_tag_attr_is(const base_tag_attr *a, const char *lower)
{
    return eq_lower(a->name, a->name_len, lower);
}

int base_tag_find_attr(const base_tag *t, const char *lower, base_tag_attr *out)
{
    base_tag_attrs it;
    base_tag_attrs_init(&it, t);
    while (base_tag_attrs_next(&it, out))
        if (base_tag_attr_is(out, lower))
            return 1;
    return 0;
}

/* Attributes ----------------------------------------------------------------- */

/* The bytes that end a tag's or an attribute's name or an unquoted value,
 * by kind, so that each byte of those is one look in a table. */
enum { C_SPACE = 1, C_SLASH = 2, C_GT = 4, C_EQ = 8 };
static const unsigned char byte_kind[256] = {
    [' '] = C_SPACE, ['\t'] = C_SPACE, ['\n'] = C_SPACE, ['\r'] = C_SPACE, ['\f'] = C_SPACE,
    ['/'] = C_SLASH, ['>'] = C_GT,      ['='] = C_EQ};

static const char *run_until(const char *p, const char *end, unsigned kinds)
{
    while (p < end && !(byte_kind[(unsigned char)*p] & kinds))
        p++;
    return p;
}

/* One attribute from *pp (before-attribute-name state) on; 0 at the tag's
 * end ('>' or the end of the range, left unread). */
static int read_attr(const char **pp, const char *end, base_tag_attr *a)
{
    const char *p = *pp;
    /* Before the name, a '/' not followed by '>' is passed over. */
    while (p < end && (base_html_space(*p) || (*p == '/' && !(p + 1 < end && p[1] == '>'))))
        p++;
    if (p >= end || *p == '>' || *p == '/') {
        *pp = p;
        return 0;
    }
    /* The name: an '=' in first place belongs to it. */
    a->name = p++;
    p = run_until(p, end, C_SPACE | C_SLASH | C_GT | C_EQ);
    a->name_len = (size_t)(p - a->name);
    a->value = NULL;
    a->value_len = 0;
    const char *q = p;
    while (q < end && base_html_space(*q))
        q++;
    if (q < end && *q == '=') {
        q++;
        while (q < end && base_html_space(*q))
            q++;
        if (q < end && (*q == '"' || *q == '\'')) {
            char quote = *q++;
            const char *close = memchr(q, quote, (size_t)(end - q));
            a->value = q;
            a->value_len = (size_t)((close ? close : end) - q);
            p = close ? close + 1 : end;
        } else {
            /* Unquoted, up to white space or '>' ("<a href=x/>": x/). A
             * missing value ("a=>") is an empty one. */
            a->value = q;
            q = run_until(q, end, C_SPACE | C_GT);
            a->value_len = (size_t)(q - a->value);
            p = q;
        }
    }
    *pp = p;
    return 1;
}

void base_tag_attrs_init(base_tag_attrs *it, const base_tag *t)
{
    it->p = t->attrs;
    it->end = t->attrs ? t->attrs + t->attrs_len : NULL;
}

int base_tag_attrs_next(base_tag_attrs *it, base_tag_attr *a)
{
    return it->p && read_attr(&it->p, it->end, a);
}

/* Tags -------------------------------------------------------------------------- */

/* t->lower from t->name (left "" when the name is too long for it). */
static void set_lower(base_tag *t)
{
    if (t->name_len >= sizeof t->lower)
        return;
    for (size_t i = 0; i < t->name_len; i++)
        t->lower[i] = lower_of(t->name[i]);
    t->lower[t->name_len] = '\0';
}

/* Past the attributes from p (before-attribute-name state) to the tag's
 * end ('>', "/>" or the end of the range, left unread): read_attr's steps
 * until it finds none, with nothing kept (every tag of every scan of a page
 * goes through here, most of them with attributes). */
static const char *skip_attrs(const char *p, const char *end)
{
    for (;;) {
        while (p < end && (base_html_space(*p) || (*p == '/' && !(p + 1 < end && p[1] == '>'))))
            p++;
        if (p >= end || *p == '>' || *p == '/')
            return p;
        p = run_until(p + 1, end, C_SPACE | C_SLASH | C_GT | C_EQ); /* the name */
        const char *q = p;
        while (q < end && base_html_space(*q))
            q++;
        if (q < end && *q == '=') {
            q++;
            while (q < end && base_html_space(*q))
                q++;
            if (q < end && (*q == '"' || *q == '\'')) {
                const char *close = memchr(q + 1, *q, (size_t)(end - q - 1));
                p = close ? close + 1 : end;
            } else {
                p = run_until(q, end, C_SPACE | C_GT);
            }
        }
    }
}

/* Reads a tag from its name on (p just past "<" or "</"): name, attributes
 * and closing '>'. Returns the position after the tag. */
static const char *read_tag(const char *p, const char *end, base_tag *t)
{
    t->name = p;
    p = run_until(p, end, C_SPACE | C_SLASH | C_GT);
    t->name_len = (size_t)(p - t->name);
    set_lower(t);
    t->attrs = p;
    p = skip_attrs(p, end);
    t->attrs_len = (size_t)(p - t->attrs);
    if (p + 1 < end && p[0] == '/' && p[1] == '>') {
        t->self_closing = 1;
        return p + 2;
    }
    if (p < end) /* '>' */
        return p + 1;
    t->truncated = 1;
    return end;
}

/* What the standard reads as a bogus comment (or a doctype): from `from`
 * up to the first '>'. */
static const char *read_bogus(const char *from, const char *end, base_tag *t)
{
    t->kind = BASE_TAG_DECL;
    const char *gt = memchr(from, '>', (size_t)(end - from));
    t->truncated = !gt;
    return gt ? gt + 1 : end;
}

/* "<!": a comment, or a doctype, CDATA or bogus comment up to '>'. */
static const char *read_decl(const char *p, const char *end, base_tag *t)
{
    if (end - p >= 4 && p[2] == '-' && p[3] == '-') {
        t->kind = BASE_TAG_COMMENT;
        const char *c = p + 4;
        /* "<!-->" and "<!--->" are empty comments. */
        if (c < end && *c == '>')
            return c + 1;
        if (end - c >= 2 && c[0] == '-' && c[1] == '>')
            return c + 2;
        for (; c < end; c++) {
            if (c[0] != '-' || end - c < 3 || c[1] != '-')
                continue;
            if (c[2] == '>')
                return c + 3;
            if (end - c >= 4 && c[2] == '!' && c[3] == '>')
                return c + 4;
        }
        t->truncated = 1;
        return end;
    }
    return read_bogus(p, end, t);
}

/* Raw text ----------------------------------------------------------------------- */

/* Is `lower` a raw-text element's name (tags.h: script, style, textarea,
 * title, xmp, iframe, noembed, noframes, plaintext)? By the first letter:
 * asked of every start tag of every scan. */
static int is_raw_element(const char *lower)
{
    switch (lower[0]) {
    case 's':
        return !strcmp(lower, "script") || !strcmp(lower, "style");
    case 't':
        return !strcmp(lower, "textarea") || !strcmp(lower, "title");
    case 'x':
        return !strcmp(lower, "xmp");
    case 'i':
        return !strcmp(lower, "iframe");
    case 'n':
        return !strcmp(lower, "noembed") || !strcmp(lower, "noframes");
    case 'p':
        return !strcmp(lower, "plaintext");
    default:
        return 0;
    }
}

/* At p, "</" and the name (any case), then white space, '/' or '>': the
 * end tag that closes the raw text (the standard's "appropriate end tag").
 * "</name" cut off by the end of the input counts too: the tag is
 * truncated, not text. */
static int is_end_of(const char *p, const char *end, const char *name, size_t n)
{
    if ((size_t)(end - p) < n + 2 || p[0] != '<' || p[1] != '/')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower_of(p[2 + i]) != lower_of(name[i]))
            return 0;
    if ((size_t)(end - p) == n + 2)
        return 1;
    char c = p[2 + n];
    return base_html_space(c) || c == '/' || c == '>';
}

/* The end of the raw text of element `name` from p: its end tag, or end. */
static const char *raw_end(const char *p, const char *end, const char *name, size_t n)
{
    for (; (p = memchr(p, '<', (size_t)(end - p))) != NULL; p++)
        if (is_end_of(p, end, name, n))
            return p;
    return end;
}

/* Is the word at p "script" followed by white space, '/' or '>'? */
static int script_word(const char *p, const char *end)
{
    return end - p > 6 && eq_lower(p, 6, "script") &&
           (base_html_space(p[6]) || p[6] == '/' || p[6] == '>');
}

/* The end of a script's text from p, by the standard's script data states:
 * a "<!--" in a script starts an escaped stretch, which "-->" ends; inside
 * it a "<script" starts a double-escaped one, in which "</script" closes
 * only that inner script. So the old idiom
 *     <script><!-- document.write("<script>...</script>"); --></script>
 * is one script, up to its last end tag. */
static const char *script_end(const char *p, const char *end)
{
    enum { DATA, ESCAPED, DOUBLE } st = DATA;
    while (p < end) {
        /* In plain script text only '<' matters; escaped, '-' too ("-->"). */
        if (st == DATA) {
            p = memchr(p, '<', (size_t)(end - p));
            if (!p)
                return end;
        } else {
            while (p < end && *p != '<' && *p != '-')
                p++;
            if (p == end)
                return end;
        }
        if (*p == '-') {
            if (end - p >= 3 && p[1] == '-' && p[2] == '>') {
                st = DATA;
                p += 3;
            } else {
                p++;
            }
        } else if (end - p >= 4 && p[1] == '!' && p[2] == '-' && p[3] == '-') {
            if (st == DATA)
                st = ESCAPED;
            p += 2; /* its dashes can end it at once: "<!-->" */
        } else if (st != DOUBLE && is_end_of(p, end, "script", 6)) {
            return p;
        } else if (st == DOUBLE && end - p >= 2 && p[1] == '/' && script_word(p + 2, end)) {
            st = ESCAPED;
            p += 8;
        } else if (st == ESCAPED && script_word(p + 1, end)) {
            st = DOUBLE;
            p += 7;
        } else {
            p++;
        }
    }
    return end;
}

void base_tag_skip_content(base_tag_scanner *s, const base_tag *start)
{
    s->raw_name = start->name;
    s->raw_len = start->name_len;
    s->raw_script = 0;
    s->raw_to_end = 0;
}

/* The RAW token of the element whose START was just given. */
static void raw_token(base_tag_scanner *s, base_tag *t)
{
    const char *close = s->raw_to_end ? s->end
                        : s->raw_script ? script_end(s->p, s->end)
                                        : raw_end(s->p, s->end, s->raw_name, s->raw_len);
    t->kind = BASE_TAG_RAW;
    t->start = s->p;
    t->len = (size_t)(close - s->p);
    t->name = s->raw_name;
    t->name_len = s->raw_len;
    set_lower(t);
    s->p = close;
    s->raw_name = NULL;
}

/* The scanner ---------------------------------------------------------------------- */

/* Does the '<' at p open a token (a tag, a comment, a declaration)? Any
 * other '<' is text. */
static int opens_token(const char *p, const char *end)
{
    if (end - p < 2)
        return 0;
    char c = p[1];
    return is_alpha(c) || c == '!' || c == '?' || (c == '/' && end - p >= 3);
}

int base_tag_next(base_tag_scanner *s, base_tag *t)
{
    memset(t, 0, sizeof *t);
    if (s->raw_name) {
        raw_token(s, t);
        return 1;
    }
    const char *p = s->p, *end = s->end;
    if (p >= end)
        return 0;
    t->start = p;
    if (!(*p == '<' && opens_token(p, end))) {
        /* Text up to the next '<' that opens a token. */
        const char *q = p + 1;
        while ((q = memchr(q, '<', (size_t)(end - q))) != NULL && !opens_token(q, end))
            q++;
        t->kind = BASE_TAG_TEXT;
        s->p = q ? q : end;
        t->len = (size_t)(s->p - p);
        return 1;
    }
    char c = p[1];
    if (c == '!') {
        s->p = read_decl(p, end, t);
    } else if (c == '?') {
        s->p = read_bogus(p, end, t); /* a processing instruction */
    } else if (c == '/') {
        if (is_alpha(p[2])) {
            t->kind = BASE_TAG_END;
            s->p = read_tag(p + 2, end, t);
        } else {
            /* "</>" is dropped and "</3" opens a bogus comment: both up to '>'. */
            s->p = read_bogus(p + 2, end, t);
        }
    } else {
        t->kind = BASE_TAG_START;
        s->p = read_tag(p + 1, end, t);
        if (is_raw_element(t->lower)) {
            base_tag_skip_content(s, t);
            t->raw_text = 1;
            s->raw_script = strcmp(t->lower, "script") == 0;
            s->raw_to_end = strcmp(t->lower, "plaintext") == 0;
        }
    }
    t->len = (size_t)(s->p - p);
    return 1;
}
