/* render/: runs of white space written as one space (spaces.h). */
#include "render/spaces.h"

#include "base/sheetrefs.h"
#include "base/tags.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How far after "white-space" a value is looked for. */
#define SPACES_VALUE_SPAN 256

static int ends_value(char c)
{
    return c == ';' || c == '}' || c == '"' || c == '\'' || c == '<' || c == '>';
}

/* Whether [p, end) holds `word` (ASCII, lower case) in any case. */
static int holds(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    for (; (size_t)(end - p) >= n; p++)
        if (strncasecmp(p, word, n) == 0)
            return 1;
    return 0;
}

int spaces_kept(const char *css, size_t len)
{
    static const char name[] = "white-space";
    const size_t n = sizeof name - 1, dash = 5; /* "white" before the '-' */
    const char *end = css + len;
    const char *p = css;
    while (p < end && (p = memchr(p, '-', (size_t)(end - p)))) {
        if ((size_t)(p - css) < dash || (size_t)(end - (p - dash)) < n ||
            strncasecmp(p - dash, name, n) != 0) {
            p++;
            continue;
        }
        const char *v = p - dash + n, *stop = v;
        for (; stop < end && !ends_value(*stop); stop++)
            if (stop - v >= SPACES_VALUE_SPAN)
                return 1;
        if (holds(v, stop, "pre") || holds(v, stop, "break") || holds(v, stop, "var("))
            return 1;
        p = stop; /* each byte looked at once */
    }
    return 0;
}

/* Whether a start or end tag is of an element that keeps its white space
 * and holds markup. */
static int keeps_spaces(const base_tag *t)
{
    return strcmp(t->lower, "pre") == 0 || strcmp(t->lower, "listing") == 0;
}

int spaces_collapse(const char *page, size_t len, int (*sheet)(void *ud, const char *ref),
                    void *ud, char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    char *w = malloc(len + 1), *o = w;
    if (!w)
        return -1;
    base_tag_scanner s;
    base_tag t;
    base_tag_scanner_init(&s, page, len);
    size_t kept = 0; /* <pre> and <listing> open */
    while (base_tag_next(&s, &t)) {
        if (t.kind == BASE_TAG_TEXT && kept == 0) {
            const char *p = t.start, *e = t.start + t.len;
            while (p < e) {
                if (!base_html_space(*p)) {
                    *o++ = *p++;
                    continue;
                }
                *o++ = ' ';
                while (p < e && base_html_space(*p))
                    p++;
            }
            continue;
        }
        int css = t.kind == BASE_TAG_START || (t.kind == BASE_TAG_RAW && base_tag_is(&t, "style"));
        if ((css && spaces_kept(t.start, t.len)) ||
            (sheet && base_sheet_refs_token(&t, NULL, sheet, ud))) {
            free(w);
            return 0;
        }
        if (t.kind == BASE_TAG_START && keeps_spaces(&t))
            kept++;
        else if (t.kind == BASE_TAG_END && keeps_spaces(&t) && kept > 0)
            kept--;
        memcpy(o, t.start, t.len);
        o += t.len;
    }
    *o = '\0';
    *out = w;
    *out_len = (size_t)(o - w);
    return 1;
}
