/* dom/: clean HTML as Markdown (CommonMark, with GitHub's tables and
 * strikethrough).
 *
 * The input is what dom_to_html_kept writes (or base_html_paragraphs):
 * a closed set of tags, every non-void element closed, every attribute
 * quoted, text escaped with five references. So a scan of its tags
 * (base/'s) and a stack give its tree exactly; no parser's repairs are
 * needed. Reading the serialiser's output rather than the dom tree means
 * the Markdown of an answer is the Markdown of its HTML, whatever keep
 * function cut that answer out of the page.
 *
 * The tree is turned into blocks bottom up: each container renders its
 * children's blocks, separated by an empty line, and a list item or a
 * block quote prefixes the lines of what it holds. Text is escaped where
 * CommonMark would read it as markup. */
#define _GNU_SOURCE /* strndup */
#include "dom/dom.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/tags.h"
#include "base/url.h"

/* The tree of the clean HTML ------------------------------------------- */

typedef struct md_node md_node;
struct md_node {
    char tag[16];        /* lower case; "" for text */
    char *text;          /* text: decoded */
    size_t len;
    char *href, *src, *alt, *title, *cls; /* cls: the class (a code block's language) */
    long start;          /* <ol start> */
    int colspan;
    md_node *parent, *first, *last, *next;
    md_node *all;        /* every node, for freeing */
};

typedef struct md_tree {
    md_node *root;
    md_node *all;
    int oom;
} md_tree;

static md_node *node_new(md_tree *t, md_node *parent, const char *tag)
{
    md_node *n = calloc(1, sizeof *n);
    if (!n) {
        t->oom = 1;
        return NULL;
    }
    snprintf(n->tag, sizeof n->tag, "%s", tag);
    n->all = t->all;
    t->all = n;
    n->start = 1;
    n->colspan = 1;
    if (parent) {
        n->parent = parent;
        if (parent->last)
            parent->last->next = n;
        else
            parent->first = n;
        parent->last = n;
    }
    return n;
}

static void tree_free(md_tree *t)
{
    for (md_node *n = t->all; n;) {
        md_node *next = n->all;
        free(n->text);
        free(n->href);
        free(n->src);
        free(n->alt);
        free(n->title);
        free(n->cls);
        free(n);
        n = next;
    }
}

static char *decoded(const char *p, size_t n)
{
    base_buf b = BASE_BUF_INIT;
    base_html_unescape(&b, p, n);
    if (!b.data && !b.oom)
        return strdup("");
    return base_buf_take(&b, NULL);
}

static const char *const void_tags[] = {"br", "hr", "img", NULL};

/* Nesting past this is read as if the deeper elements were not there
 * (their text stays): the blocks are rendered recursively. */
#define MD_MAX_DEPTH 200

static int build(md_tree *t, const char *html, size_t len)
{
    if (!(t->root = node_new(t, NULL, "body")))
        return -1;
    /* The open elements: the node each made, NULL for one read past. */
    size_t cap = 64, depth = 0;
    md_node **open = malloc(cap * sizeof *open);
    char(*names)[16] = malloc(cap * sizeof *names);
    if (!open || !names) {
        free(open);
        free(names);
        return -1;
    }
    md_node *cur = t->root;
    int made = 0; /* elements made on the stack */
    base_tag_scanner s;
    base_tag_scanner_init(&s, html, len);
    base_tag tok;
    while (!t->oom && base_tag_next(&s, &tok)) {
        if (tok.kind == BASE_TAG_TEXT || tok.kind == BASE_TAG_RAW) {
            if (!tok.len)
                continue;
            md_node *x = node_new(t, cur, "");
            if (x && !(x->text = decoded(tok.start, tok.len)))
                t->oom = 1;
            if (x && x->text)
                x->len = strlen(x->text);
        } else if (tok.kind == BASE_TAG_START) {
            int is_void = base_tag_in(tok.lower, void_tags) || tok.self_closing;
            md_node *x = NULL;
            if (made < MD_MAX_DEPTH && tok.lower[0]) {
                x = node_new(t, cur, tok.lower);
                base_tag_attrs it;
                base_tag_attr a;
                base_tag_attrs_init(&it, &tok);
                while (x && base_tag_attrs_next(&it, &a)) {
                    char **dst = base_tag_attr_is(&a, "href")    ? &x->href
                                 : base_tag_attr_is(&a, "src")   ? &x->src
                                 : base_tag_attr_is(&a, "alt")   ? &x->alt
                                 : base_tag_attr_is(&a, "title") ? &x->title
                                 : base_tag_attr_is(&a, "class") ? &x->cls
                                                                 : NULL;
                    char *v = a.value ? decoded(a.value, a.value_len) : NULL;
                    if (dst && v && !*dst) {
                        *dst = v;
                        v = NULL;
                    } else if (v && base_tag_attr_is(&a, "start")) {
                        x->start = strtol(v, NULL, 10);
                    } else if (v && base_tag_attr_is(&a, "colspan")) {
                        long c = strtol(v, NULL, 10);
                        x->colspan = c >= 1 && c <= 1000 ? (int)c : 1;
                    }
                    free(v);
                }
            }
            if (is_void)
                continue;
            if (depth == cap) {
                cap *= 2;
                md_node **no = realloc(open, cap * sizeof *no);
                char(*nn)[16] = no ? realloc(names, cap * sizeof *nn) : NULL;
                if (no)
                    open = no;
                if (nn)
                    names = nn;
                if (!no || !nn) {
                    t->oom = 1;
                    break;
                }
            }
            open[depth] = x;
            snprintf(names[depth], sizeof names[depth], "%s", tok.lower);
            depth++;
            if (x) {
                cur = x;
                made++;
            }
        } else if (tok.kind == BASE_TAG_END) {
            size_t k = depth;
            while (k > 0 && strcmp(names[k - 1], tok.lower) != 0)
                k--;
            if (k == 0)
                continue; /* closes nothing open */
            while (depth >= k) {
                depth--;
                if (open[depth]) {
                    made--;
                    cur = open[depth]->parent;
                }
            }
        }
    }
    free(open);
    free(names);
    return t->oom ? -1 : 0;
}

/* Kinds of element ---------------------------------------------------- */

static const char *const block_tags[] = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "blockquote",
    "pre", "hr", "table", "caption", "thead", "tbody", "tfoot", "tr", "td", "th", "figure",
    "figcaption", "div", "article", "section", "details", "summary", "body", NULL};
/* What makes a table a layout rather than data: a cell holding these can
 * not be a cell of a Markdown table, whose cells are one line. */
static const char *const hard_blocks[] = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol",
                                          "dl", "blockquote", "pre", "hr", "table", "figure",
                                          NULL};

static int is_block(const md_node *n)
{
    return n->tag[0] && base_tag_in(n->tag, block_tags);
}

static int has_block(const md_node *n)
{
    for (const md_node *c = n->first; c; c = c->next)
        if (is_block(c) || has_block(c))
            return 1;
    return 0;
}

/* Inline text ---------------------------------------------------------- */

typedef struct md_ctx {
    int in_cell;   /* inside a table cell: '|' escaped, no line breaks */
    int one_line;  /* inside a heading: no line breaks */
} md_ctx;

static int ascii_alnum(char c)
{
    return isalnum((unsigned char)c);
}

/* Text, its runs of white space folded to one space, escaped where
 * CommonMark would read markup. */
static void put_text(base_buf *b, const char *s, size_t n, const md_ctx *c)
{
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (base_html_space(ch)) {
            if (b->len && b->data[b->len - 1] != ' ' && b->data[b->len - 1] != '\n')
                base_buf_putc(b, ' ');
            continue;
        }
        char prev = i > 0 ? s[i - 1] : (b->len ? b->data[b->len - 1] : ' ');
        char next = i + 1 < n ? s[i + 1] : ' ';
        int esc = 0;
        switch (ch) {
        case '\\': case '*': case '`': case '[': case ']': case '<': case '>':
            esc = 1;
            break;
        case '_': /* intraword underscores open nothing */
            esc = !(ascii_alnum(prev) && ascii_alnum(next));
            break;
        case '~': /* only "~~" strikes through */
            esc = prev == '~' || next == '~';
            break;
        case '|':
            esc = c->in_cell;
            break;
        case '&': { /* what could read as a character reference */
            size_t j = i + 1;
            if (j < n && s[j] == '#')
                j++;
            size_t k = j;
            while (k < n && ascii_alnum(s[k]))
                k++;
            esc = k > j && k < n && s[k] == ';';
            break;
        }
        default: break;
        }
        if (esc)
            base_buf_putc(b, '\\');
        base_buf_putc(b, ch);
    }
}

/* A link destination: spaces, parentheses and angle brackets as
 * percent-escapes, so that it stays one token. */
static void put_dest(base_buf *b, const char *u)
{
    for (const unsigned char *p = (const unsigned char *)u; *p; p++) {
        if (*p <= 0x20 || *p == '(' || *p == ')' || *p == '<' || *p == '>' || *p == 0x7f)
            base_buf_printf(b, "%%%02X", *p);
        else
            base_buf_putc(b, (char)*p);
    }
}

static void put_title(base_buf *b, const char *t)
{
    if (!t || !*t)
        return;
    base_buf_puts(b, " \"");
    for (const char *p = t; *p; p++) {
        if (*p == '"' || *p == '\\')
            base_buf_putc(b, '\\');
        base_buf_putc(b, base_html_space(*p) ? ' ' : *p);
    }
    base_buf_putc(b, '"');
}

/* A URL the serialiser let through, checked again all the same (this may
 * be handed other HTML): NULL when it could run script. */
static int safe_dest(const char *u)
{
    char *c = base_url_clean(u);
    if (!c)
        return 0;
    char scheme[32];
    size_t n = base_url_scheme(c, scheme, sizeof scheme);
    int ok = n == 0 || !strcmp(scheme, "http") || !strcmp(scheme, "https") ||
             !strcmp(scheme, "mailto") || !strcmp(scheme, "tel") || !strcmp(scheme, "ftp") ||
             (!strcmp(scheme, "data") && !strncasecmp(c, "data:image/", 11) &&
              strncasecmp(c, "data:image/svg", 14) != 0);
    /* A scheme too long for `scheme` is none of these. */
    if (n == 0 && strchr(c, ':') && strcspn(c, ":") > 30 && isalpha((unsigned char)c[0]) &&
        strspn(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.") == strcspn(c, ":"))
        ok = 0;
    free(c);
    return ok;
}

static void inline_of(base_buf *b, const md_node *n, const md_ctx *c);
static void inline_node(base_buf *b, const md_node *x, const md_ctx *c);

/* The text of a subtree, unescaped (code). */
static void raw_text(base_buf *b, const md_node *n)
{
    for (const md_node *x = n->first; x; x = x->next) {
        if (!x->tag[0])
            base_buf_add(b, x->text, x->len);
        else if (!strcmp(x->tag, "br"))
            base_buf_putc(b, '\n');
        else
            raw_text(b, x);
    }
}

static size_t longest_run(const char *s, char ch)
{
    size_t best = 0, run = 0;
    for (; *s; s++) {
        run = *s == ch ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    return best;
}

static void put_code_span(base_buf *b, const md_node *n)
{
    base_buf t = BASE_BUF_INIT;
    raw_text(&t, n);
    char *s = base_buf_take(&t, NULL);
    if (!s)
        return;
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    if (s[strspn(s, " ")]) {
        size_t ticks = longest_run(s, '`') + 1;
        int pad = s[0] == '`' || s[strlen(s) - 1] == '`' || s[0] == ' ';
        for (size_t i = 0; i < ticks; i++)
            base_buf_putc(b, '`');
        if (pad)
            base_buf_putc(b, ' ');
        base_buf_puts(b, s);
        if (pad)
            base_buf_putc(b, ' ');
        for (size_t i = 0; i < ticks; i++)
            base_buf_putc(b, '`');
    }
    free(s);
}

/* `mark` around the inline content of n, the white space at its edges
 * moved outside (CommonMark's emphasis may not start or end with it). */
static void put_wrapped(base_buf *b, const md_node *n, const md_ctx *c, const char *mark)
{
    base_buf t = BASE_BUF_INIT;
    if (b->len && b->data[b->len - 1] == ' ')
        base_buf_putc(&t, ' '); /* so that leading white space folds as it would */
    size_t skip = t.len;
    inline_of(&t, n, c);
    char *s = base_buf_take(&t, NULL);
    if (!s)
        return;
    char *core = s + skip;
    size_t lead = strspn(core, " \n");
    size_t end = strlen(core);
    while (end > lead && (core[end - 1] == ' ' || core[end - 1] == '\n'))
        end--;
    if (lead && b->len && b->data[b->len - 1] != ' ' && b->data[b->len - 1] != '\n')
        base_buf_putc(b, ' ');
    if (end > lead) {
        base_buf_puts(b, mark);
        base_buf_add(b, core + lead, end - lead);
        base_buf_puts(b, mark);
    }
    if (end < strlen(core))
        base_buf_putc(b, ' ');
    free(s);
}

static void put_image(base_buf *b, const md_node *n, const md_ctx *c)
{
    if (!n->src || !safe_dest(n->src)) {
        if (n->alt)
            put_text(b, n->alt, strlen(n->alt), c);
        return;
    }
    base_buf_puts(b, "![");
    if (n->alt)
        put_text(b, n->alt, strlen(n->alt), c);
    base_buf_puts(b, "](");
    put_dest(b, n->src);
    put_title(b, n->title);
    base_buf_putc(b, ')');
}

static void put_link(base_buf *b, const md_node *n, const md_ctx *c)
{
    if (!n->href || !safe_dest(n->href)) {
        inline_of(b, n, c);
        return;
    }
    base_buf t = BASE_BUF_INIT;
    inline_of(&t, n, c);
    char *s = base_buf_take(&t, NULL);
    if (!s)
        return;
    size_t lead = strspn(s, " ");
    size_t end = strlen(s);
    while (end > lead && s[end - 1] == ' ')
        end--;
    if (end > lead) {
        if (lead && b->len && b->data[b->len - 1] != ' ')
            base_buf_putc(b, ' ');
        base_buf_putc(b, '[');
        base_buf_add(b, s + lead, end - lead);
        base_buf_puts(b, "](");
        put_dest(b, n->href);
        put_title(b, n->title);
        base_buf_putc(b, ')');
        if (end < strlen(s))
            base_buf_putc(b, ' ');
    }
    free(s);
}

static void inline_node(base_buf *b, const md_node *x, const md_ctx *c)
{
    const char *t = x->tag;
    if (!t[0]) {
        put_text(b, x->text, x->len, c);
    } else if (!strcmp(t, "br")) {
        if (c->in_cell || c->one_line) {
            if (b->len && b->data[b->len - 1] != ' ')
                base_buf_putc(b, ' ');
        } else {
            while (b->len && b->data[b->len - 1] == ' ')
                base_buf_shrink(b, 1);
            base_buf_puts(b, "\\\n");
        }
    } else if (!strcmp(t, "img")) {
        put_image(b, x, c);
    } else if (!strcmp(t, "a")) {
        put_link(b, x, c);
    } else if (!strcmp(t, "em") || !strcmp(t, "i") || !strcmp(t, "cite") || !strcmp(t, "dfn") ||
               !strcmp(t, "var")) {
        put_wrapped(b, x, c, "*");
    } else if (!strcmp(t, "strong") || !strcmp(t, "b")) {
        put_wrapped(b, x, c, "**");
    } else if (!strcmp(t, "del") || !strcmp(t, "s")) {
        put_wrapped(b, x, c, "~~");
    } else if (!strcmp(t, "code") || !strcmp(t, "kbd") || !strcmp(t, "samp")) {
        put_code_span(b, x);
    } else {
        /* Blocks inside inline content (a card's link around divs, a rule)
         * read as running text, a space between them. */
        int blk = is_block(x);
        if (blk && b->len && b->data[b->len - 1] != ' ')
            base_buf_putc(b, ' ');
        inline_of(b, x, c);
        if (blk && b->len && b->data[b->len - 1] != ' ')
            base_buf_putc(b, ' ');
    }
}

static void inline_of(base_buf *b, const md_node *n, const md_ctx *c)
{
    for (const md_node *x = n->first; x; x = x->next)
        inline_node(b, x, c);
}

/* A paragraph's inline text: trimmed, each line freed of what would open
 * a block at its start. NULL (nothing) when it shows no text and no
 * image. */
static char *finish_paragraph(char *s)
{
    base_buf out = BASE_BUF_INIT;
    const char *p = s;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        size_t a = 0;
        while (a < n && p[a] == ' ')
            a++;
        size_t e = n;
        while (e > a && p[e - 1] == ' ')
            e--;
        /* A line that is only a break's backslash adds nothing. */
        if (e - a == 1 && p[a] == '\\' && nl) {
            p = nl + 1;
            continue;
        }
        const char *l = p + a;
        size_t ln = e - a;
        if (ln) {
            if (out.len)
                base_buf_putc(&out, '\n');
            /* ATX headings, list items, thematic breaks, setext
             * underlines and ordered items, read at a line's start. */
            if (l[0] == '#' || l[0] == '-' || l[0] == '+' || l[0] == '=') {
                base_buf_putc(&out, '\\');
                base_buf_add(&out, l, ln);
            } else if (isdigit((unsigned char)l[0])) {
                size_t d = strspn(l, "0123456789");
                if (d < ln && d <= 9 && (l[d] == '.' || l[d] == ')')) {
                    base_buf_add(&out, l, d);
                    base_buf_putc(&out, '\\');
                    base_buf_add(&out, l + d, ln - d);
                } else {
                    base_buf_add(&out, l, ln);
                }
            } else {
                base_buf_add(&out, l, ln);
            }
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    free(s);
    /* A trailing break's backslash would show. */
    while (out.len >= 1 && out.data[out.len - 1] == '\\' &&
           (out.len < 2 || out.data[out.len - 2] != '\\'))
        base_buf_shrink(&out, 1);
    while (out.len && (out.data[out.len - 1] == '\n' || out.data[out.len - 1] == ' '))
        base_buf_shrink(&out, 1);
    if (!out.len) {
        base_buf_free(&out);
        return NULL;
    }
    return base_buf_take(&out, NULL);
}

/* Blocks --------------------------------------------------------------- */

/* What the last block of a container was, so that two lists in a row
 * stay two (CommonMark joins lists with the same marker). */
typedef struct md_blocks {
    base_buf *out;
    int oom;
    int joins;         /* empty lines written between two blocks */
    int last_para;     /* the last block was a paragraph */
    char last_bullet;  /* '-' or '*' for a bullet list just written; 0 else */
    char last_delim;   /* '.' or ')' for an ordered one */
} md_blocks;

static void blocks_of(const md_node *n, base_buf *out, const md_ctx *c);
static char *render_one(const md_node *x, const md_ctx *c);

static void add_block(md_blocks *bl, const char *s)
{
    if (!s || !*s)
        return;
    if (bl->out->len) {
        base_buf_puts(bl->out, "\n\n");
        bl->joins++;
    }
    base_buf_puts(bl->out, s);
    bl->last_bullet = bl->last_delim = 0;
    bl->last_para = 0;
}

/* A list right after a paragraph of a list item follows it on the next
 * line (a bullet list, or one numbered from 1, may interrupt a paragraph),
 * so that an item of a line and its sublist keeps its list tight. */
static void add_list(md_blocks *bl, const char *s, int may_interrupt)
{
    if (!s || !*s)
        return;
    if (bl->out->len && bl->last_para && may_interrupt) {
        base_buf_putc(bl->out, '\n');
        base_buf_puts(bl->out, s);
        bl->last_bullet = bl->last_delim = 0;
        bl->last_para = 0;
        return;
    }
    add_block(bl, s);
}

/* `s` with `first` before its first line and `rest` before every other
 * line that is not empty (a list item's marker and indent, a quote's
 * "> "). */
static void prefix_lines(base_buf *b, const char *s, const char *first, const char *rest,
                         const char *empty)
{
    int line = 0;
    const char *p = s;
    while (1) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (line == 0)
            base_buf_puts(b, first);
        else if (n)
            base_buf_puts(b, rest);
        else
            base_buf_puts(b, empty);
        base_buf_add(b, p, n);
        line++;
        if (!nl)
            break;
        base_buf_putc(b, '\n');
        p = nl + 1;
    }
}

static int blocks_joined(const md_node *n, base_buf *out, const md_ctx *c);

/* The blocks of n's children; *joins (when not NULL) the empty lines
 * between them. */
static char *render_joined(const md_node *n, const md_ctx *c, int *joins)
{
    base_buf b = BASE_BUF_INIT;
    int j = blocks_joined(n, &b, c);
    if (joins)
        *joins = j;
    if (!b.data && !b.oom)
        return strdup("");
    return base_buf_take(&b, NULL);
}

static char *render(const md_node *n, const md_ctx *c)
{
    base_buf b = BASE_BUF_INIT;
    blocks_of(n, &b, c);
    if (!b.data && !b.oom)
        return strdup("");
    return base_buf_take(&b, NULL);
}

static void list_block(md_blocks *bl, const md_node *n, const md_ctx *c)
{
    int ordered = !strcmp(n->tag, "ol");
    char bullet = bl->last_bullet == '-' ? '*' : '-';
    char delim = bl->last_delim == '.' ? ')' : '.';
    long num = ordered ? n->start : 0;
    if (num < 0 || num > 999999999)
        num = 1;
    /* Each item's blocks first: a list with an item of several blocks is
     * loose (its items apart by an empty line), as CommonMark reads it. */
    size_t count = 0;
    for (const md_node *x = n->first; x; x = x->next)
        count++;
    char **items = calloc(count ? count : 1, sizeof *items);
    if (!items) {
        bl->oom = 1;
        return;
    }
    size_t k = 0;
    int loose = 0;
    for (const md_node *x = n->first; x; x = x->next) {
        if (!x->tag[0] && x->text[strspn(x->text, " \t\n\r\f")] == '\0')
            continue;
        if (strcmp(x->tag, "li") != 0 && k > 0) {
            /* Markup that puts a list (or text) straight in a list: it
             * belongs to the item before it. */
            char *more = render_one(x, c);
            if (more && *more) {
                size_t l1 = strlen(items[k - 1]), l2 = strlen(more);
                char *j = malloc(l1 + l2 + 3);
                if (j) {
                    memcpy(j, items[k - 1], l1);
                    memcpy(j + l1, "\n\n", l1 ? 2 : 0);
                    memcpy(j + l1 + (l1 ? 2 : 0), more, l2 + 1);
                    free(items[k - 1]);
                    items[k - 1] = j;
                } else {
                    bl->oom = 1;
                }
            }
            free(more);
            continue;
        }
        int joins = 0;
        items[k++] = strcmp(x->tag, "li") == 0 ? render_joined(x, c, &joins) : render_one(x, c);
        if (!items[k - 1])
            bl->oom = 1;
        loose |= joins > 0;
    }
    base_buf b = BASE_BUF_INIT;
    for (size_t i = 0; i < k; i++) {
        char marker[24], indent[24];
        if (ordered)
            snprintf(marker, sizeof marker, "%ld%c ", num + (long)i, delim);
        else
            snprintf(marker, sizeof marker, "%c ", bullet);
        size_t w = strlen(marker);
        memset(indent, ' ', w);
        indent[w] = '\0';
        if (i)
            base_buf_puts(&b, loose ? "\n\n" : "\n");
        const char *it = items[i] ? items[i] : "";
        if (!*it) {
            marker[w - 1] = '\0'; /* an empty item: the marker alone */
            base_buf_puts(&b, marker);
        } else {
            prefix_lines(&b, it, marker, indent, "");
        }
    }
    for (size_t i = 0; i < k; i++)
        free(items[i]);
    free(items);
    char *s = base_buf_take(&b, NULL);
    if (!s) {
        bl->oom = 1;
        return;
    }
    add_list(bl, s, !ordered || num == 1);
    free(s);
    if (ordered)
        bl->last_delim = delim;
    else
        bl->last_bullet = bullet;
}

static void code_block(md_blocks *bl, const md_node *n)
{
    base_buf t = BASE_BUF_INIT;
    raw_text(&t, n);
    char *s = base_buf_take(&t, NULL);
    if (!s) {
        bl->oom = 1;
        return;
    }
    size_t len = strlen(s);
    while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
        s[--len] = '\0';
    /* The language of the block or of the code inside it. */
    const char *cls = n->cls;
    if (!cls && n->first && !strcmp(n->first->tag, "code"))
        cls = n->first->cls;
    const char *lang = cls && !strncmp(cls, "language-", 9) ? cls + 9 : "";
    size_t fence = longest_run(s, '`') + 1;
    if (fence < 3)
        fence = 3;
    base_buf b = BASE_BUF_INIT;
    for (size_t i = 0; i < fence; i++)
        base_buf_putc(&b, '`');
    for (const char *p = lang; *p && !base_html_space(*p) && *p != '`'; p++)
        base_buf_putc(&b, *p);
    base_buf_putc(&b, '\n');
    base_buf_puts(&b, s);
    if (len)
        base_buf_putc(&b, '\n');
    for (size_t i = 0; i < fence; i++)
        base_buf_putc(&b, '`');
    free(s);
    char *blk = base_buf_take(&b, NULL);
    if (!blk)
        bl->oom = 1;
    add_block(bl, blk);
    free(blk);
}

/* A table's rows, through its row groups. */
static size_t table_rows(const md_node *t, const md_node **rows, size_t cap)
{
    size_t n = 0;
    for (const md_node *x = t->first; x; x = x->next) {
        if (!strcmp(x->tag, "tr")) {
            if (rows && n < cap)
                rows[n] = x;
            n++;
        } else if (!strcmp(x->tag, "thead") || !strcmp(x->tag, "tbody") || !strcmp(x->tag, "tfoot")) {
            for (const md_node *r = x->first; r; r = r->next)
                if (!strcmp(r->tag, "tr")) {
                    if (rows && n < cap)
                        rows[n] = r;
                    n++;
                }
        }
    }
    return n;
}

static int holds_hard_block(const md_node *n)
{
    for (const md_node *c = n->first; c; c = c->next)
        if ((c->tag[0] && base_tag_in(c->tag, hard_blocks)) || holds_hard_block(c))
            return 1;
    return 0;
}

static int is_cell(const md_node *n)
{
    return !strcmp(n->tag, "td") || !strcmp(n->tag, "th");
}

/* A GitHub table: the first row its header, every row as wide as the
 * widest (a colspan's cell followed by empty ones). */
static void data_table(md_blocks *bl, const md_node *t, const md_node **rows, size_t nrows)
{
    md_ctx cell = {1, 1};
    int cols = 0;
    for (size_t r = 0; r < nrows; r++) {
        int w = 0;
        for (const md_node *x = rows[r]->first; x; x = x->next)
            if (is_cell(x))
                w += x->colspan;
        if (w > cols)
            cols = w;
    }
    if (cols == 0)
        return;
    for (const md_node *x = t->first; x; x = x->next)
        if (!strcmp(x->tag, "caption")) {
            char *cap = render(x, &(md_ctx){0, 0});
            add_block(bl, cap);
            free(cap);
        }
    base_buf b = BASE_BUF_INIT;
    for (size_t r = 0; r < nrows; r++) {
        int w = 0;
        base_buf_putc(&b, '|');
        for (const md_node *x = rows[r]->first; x; x = x->next) {
            if (!is_cell(x))
                continue;
            base_buf t2 = BASE_BUF_INIT;
            inline_of(&t2, x, &cell);
            char *s = base_buf_take(&t2, NULL);
            size_t a = s ? strspn(s, " ") : 0, e = s ? strlen(s) : 0;
            while (e > a && s[e - 1] == ' ')
                e--;
            base_buf_putc(&b, ' ');
            if (s)
                base_buf_add(&b, s + a, e - a);
            base_buf_puts(&b, " |");
            free(s);
            for (int k = 1; k < x->colspan; k++)
                base_buf_puts(&b, "  |");
            w += x->colspan;
        }
        for (; w < cols; w++)
            base_buf_puts(&b, "  |");
        base_buf_putc(&b, '\n');
        if (r == 0) {
            base_buf_putc(&b, '|');
            for (int k = 0; k < cols; k++)
                base_buf_puts(&b, " --- |");
            base_buf_putc(&b, '\n');
        }
    }
    while (b.len && b.data[b.len - 1] == '\n')
        base_buf_shrink(&b, 1);
    char *s = base_buf_take(&b, NULL);
    if (!s)
        bl->oom = 1;
    add_block(bl, s);
    free(s);
}

static void table_block(md_blocks *bl, const md_node *t, const md_ctx *c)
{
    size_t n = table_rows(t, NULL, 0);
    const md_node **rows = n ? calloc(n, sizeof *rows) : NULL;
    if (n && !rows) {
        bl->oom = 1;
        return;
    }
    table_rows(t, rows, n);
    int layout = 0;
    for (size_t r = 0; r < n && !layout; r++)
        for (const md_node *x = rows[r]->first; x && !layout; x = x->next)
            layout = is_cell(x) && holds_hard_block(x);
    if (!layout && n) {
        data_table(bl, t, rows, n);
    } else {
        /* A table that lays blocks out: its cells' blocks in order. */
        char *s = render(t, c);
        add_block(bl, s);
        free(s);
    }
    free(rows);
}

static void heading(md_blocks *bl, const md_node *n)
{
    md_ctx one = {0, 1};
    base_buf t = BASE_BUF_INIT;
    inline_of(&t, n, &one);
    char *s = base_buf_take(&t, NULL);
    if (!s) {
        bl->oom = 1;
        return;
    }
    size_t a = strspn(s, " "), e = strlen(s);
    while (e > a && s[e - 1] == ' ')
        e--;
    if (e > a) {
        base_buf b = BASE_BUF_INIT;
        for (int i = 0; i < n->tag[1] - '0'; i++)
            base_buf_putc(&b, '#');
        base_buf_putc(&b, ' ');
        /* A closing run of '#' would be read as the heading's end. */
        size_t h = e;
        while (h > a && s[h - 1] == '#')
            h--;
        base_buf_add(&b, s + a, h - a);
        if (h < e) {
            base_buf_putc(&b, '\\');
            base_buf_add(&b, s + h, e - h);
        }
        char *blk = base_buf_take(&b, NULL);
        add_block(bl, blk);
        free(blk);
    }
    free(s);
}

static void quote_block(md_blocks *bl, const md_node *n, const md_ctx *c)
{
    char *inner = render(n, c);
    if (!inner) {
        bl->oom = 1;
        return;
    }
    if (*inner) {
        base_buf b = BASE_BUF_INIT;
        prefix_lines(&b, inner, "> ", "> ", ">");
        char *s = base_buf_take(&b, NULL);
        add_block(bl, s);
        free(s);
    }
    free(inner);
}

static void flush_inline(md_blocks *bl, base_buf *run)
{
    if (!run->len)
        return;
    char *p = finish_paragraph(base_buf_take(run, NULL));
    if (p) {
        add_block(bl, p);
        bl->last_para = 1;
    }
    free(p);
}

/* One child of a container: inline content gathers in `run` until a
 * block comes, which first makes the run a paragraph. */
static void one_block(md_blocks *bl, base_buf *run, const md_node *x, const md_ctx *c)
{
    if (!is_block(x)) {
        if (x->tag[0] && has_block(x)) {
            /* An inline element around blocks: its blocks. */
            flush_inline(bl, run);
            char *s = render(x, c);
            if (!s)
                bl->oom = 1;
            add_block(bl, s);
            free(s);
        } else {
            inline_node(run, x, c);
        }
        return;
    }
    flush_inline(bl, run);
    const char *t = x->tag;
    if (t[0] == 'h' && t[1] >= '1' && t[1] <= '6' && !t[2]) {
        heading(bl, x);
    } else if (!strcmp(t, "ul") || !strcmp(t, "ol")) {
        list_block(bl, x, c);
    } else if (!strcmp(t, "blockquote")) {
        quote_block(bl, x, c);
    } else if (!strcmp(t, "pre")) {
        code_block(bl, x);
    } else if (!strcmp(t, "hr")) {
        add_block(bl, "---");
    } else if (!strcmp(t, "table")) {
        table_block(bl, x, c);
    } else {
        /* p, div, li out of a list, figure, dd, a layout table's cell ...:
         * their blocks. */
        char *s = render(x, c);
        if (!s)
            bl->oom = 1;
        add_block(bl, s);
        free(s);
    }
}

static int blocks_joined(const md_node *n, base_buf *out, const md_ctx *c)
{
    md_blocks bl = {out, 0, 0, 0, 0, 0};
    base_buf run = BASE_BUF_INIT;
    for (const md_node *x = n->first; x; x = x->next)
        one_block(&bl, &run, x, c);
    flush_inline(&bl, &run);
    if (bl.oom)
        out->oom = 1;
    return bl.joins;
}

static void blocks_of(const md_node *n, base_buf *out, const md_ctx *c)
{
    blocks_joined(n, out, c);
}

/* The blocks of one node, as a container holding only it renders them. */
static char *render_one(const md_node *x, const md_ctx *c)
{
    base_buf out = BASE_BUF_INIT, run = BASE_BUF_INIT;
    md_blocks bl = {&out, 0, 0, 0, 0, 0};
    one_block(&bl, &run, x, c);
    flush_inline(&bl, &run);
    if (bl.oom)
        out.oom = 1;
    if (!out.data && !out.oom)
        return strdup("");
    return base_buf_take(&out, NULL);
}

char *dom_html_to_markdown(const char *html, size_t len, size_t *out_len)
{
    md_tree t = {NULL, NULL, 0};
    base_buf out = BASE_BUF_INIT;
    if (build(&t, html ? html : "", html ? len : 0) != 0) {
        tree_free(&t);
        return NULL;
    }
    md_ctx c = {0, 0};
    blocks_of(t.root, &out, &c);
    tree_free(&t);
    if (!out.data && !out.oom) {
        char *e = strdup("");
        if (out_len)
            *out_len = 0;
        return e;
    }
    return base_buf_take(&out, out_len);
}
