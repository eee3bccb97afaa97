/* base/: the tags of an HTML page, one token at a time.
 *
 * A linear scan, not a parse: no tree, no implied elements, no character
 * references decoded. It splits the bytes the way the HTML standard's
 * tokenizer does (tags, attributes, comments, the text of raw-text
 * elements), so that the scans built on it (net/'s stylesheet links,
 * render/'s CSS filter and depth check) see the page as the parser that
 * lays it out will: a "<div>" inside a <script> is no tag, a ">" inside a
 * quoted attribute ends nothing. Nothing is copied; every range points into
 * the input, which must outlive the scanner.
 *
 * Where the standard drops what it cannot read, the scanner still gives it
 * (a tag cut off by the end of the input is a BASE_TAG_START marked
 * truncated): its callers bound or collect, and lose nothing by seeing
 * more. Knowing no tree, it cannot tell foreign content: a <style> or
 * <title> inside <svg> is raw text here too, where a parser reads markup.
 */
#ifndef GLANCE_BASE_TAGS_H
#define GLANCE_BASE_TAGS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum base_tag_kind {
    BASE_TAG_TEXT = 1, /* text between tags; a '<' that opens nothing is text */
    BASE_TAG_START,    /* <name attributes> or <name/> */
    BASE_TAG_END,      /* </name> (attributes, if any, are read past) */
    BASE_TAG_COMMENT,  /* <!-- ... --> */
    BASE_TAG_DECL,     /* what the standard reads as a bogus comment or a
                          doctype: <!DOCTYPE ...>, <![CDATA[...]>, <?...>,
                          </ not followed by a letter ... up to '>' */
    BASE_TAG_RAW       /* the text of a raw-text element, up to its end tag */
} base_tag_kind;

/* Elements whose text runs to their end tag with no tags in it: script,
 * style, textarea, title, xmp, iframe, noembed, noframes, and plaintext
 * (to the end of the input: it has no end tag). <noscript> is not one: the
 * page is laid out without script, where its content is markup. */

typedef struct base_tag {
    base_tag_kind kind;
    const char *start; /* the token's bytes, delimiters included */
    size_t len;
    /* START, END: the name as written; RAW: the name of its element. */
    const char *name;
    size_t name_len;
    /* The name in ASCII lower case, NUL-terminated; "" when it is 16 bytes
     * or longer (no element the scans look for has such a name). */
    char lower[16];
    int self_closing; /* START: written "<name .../>" */
    int raw_text;     /* START: of a raw-text element, so a RAW comes next */
    int truncated;    /* the input ended inside the token */
    /* START, END: the bytes between the name and the closing '>' or "/>",
     * for base_tag_attrs. */
    const char *attrs;
    size_t attrs_len;
} base_tag;

typedef struct base_tag_scanner {
    const char *p, *end;
    /* A START of a raw-text element was just given: its text is next. */
    const char *raw_name;
    size_t raw_len;
    int raw_script, raw_to_end;
} base_tag_scanner;

void base_tag_scanner_init(base_tag_scanner *s, const char *html, size_t len);

/* The next token into *t: 1, or 0 at the end of the input. Every START of
 * a raw-text element is followed by one RAW token (empty when the element
 * is), then by its END unless the input ends first. */
int base_tag_next(base_tag_scanner *s, base_tag *t);

/* Reads the content of the element whose START was just given as raw text
 * up to "</name" (the next token is a RAW), as if it were a raw-text
 * element: for a caller that steps over what a parser treats specially
 * (render/'s depth check and <select>). */
void base_tag_skip_content(base_tag_scanner *s, const base_tag *start);

/* Is the token's name `lower` (ASCII, lower case)? */
int base_tag_is(const base_tag *t, const char *lower);

/* The attributes of a START or END token, in order. A value is the bytes
 * between its quotes, or up to white space or '>' unquoted; references in
 * it are not decoded. */
typedef struct base_tag_attr {
    const char *name;
    size_t name_len;
    const char *value; /* NULL for an attribute written without "=" */
    size_t value_len;
} base_tag_attr;

typedef struct base_tag_attrs {
    const char *p, *end;
} base_tag_attrs;

void base_tag_attrs_init(base_tag_attrs *it, const base_tag *t);
/* The next attribute into *a: 1, or 0 when there is none left. */
int base_tag_attrs_next(base_tag_attrs *it, base_tag_attr *a);
/* Is the attribute's name `lower` (ASCII, lower case)? */
int base_tag_attr_is(const base_tag_attr *a, const char *lower);
/* The first attribute of a START or END token called `lower` (the
 * standard drops later ones) into *out: 1, or 0 when it has none. */
int base_tag_find_attr(const base_tag *t, const char *lower, base_tag_attr *out);

/* Is `name` (NULL: no) one of `names`, a NULL-terminated list? Exact
 * bytes: for names lower-cased already (base_tag.lower, a dom tag). */
int base_tag_in(const char *name, const char *const *names);
/* The void elements, which have no content and no end tag (and the
 * obsolete ones parsers treat alike), for base_tag_in. */
extern const char *const base_void_elements[];

/* HTML's white space: space, tab, LF, FF and CR. */
static inline int base_html_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Nothing but HTML's white space (a no-break space is text). */
static inline int base_html_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!base_html_space(s[i]))
            return 0;
    return 1;
}

/* Nothing but spaces: HTML's white space and no-break spaces (U+00A0, as
 * gtk-doc puts between a type and its name). A text node of them alone
 * parts the words of the elements either side. */
static inline int base_html_spaces(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (base_html_space(s[i]))
            continue;
        if ((unsigned char)s[i] != 0xC2 || i + 1 >= n || (unsigned char)s[i + 1] != 0xA0)
            return 0;
        i++; /* the two bytes of U+00A0 */
    }
    return 1;
}

/* Characters of UTF-8 text, HTML's white space aside: what a reader is
 * shown of it, in any script. */
static inline size_t base_html_text_chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80 && !base_html_space(s[i]))
            c++;
    return c;
}

#ifdef __cplusplus
}
#endif

#endif
