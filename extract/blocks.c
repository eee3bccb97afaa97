/* extract/: the page's lowest blocks and what the layout and the tree say
 * of each (extract.h, Blocks): the default scorer's input. */
#define _GNU_SOURCE /* strcasestr */
#include "extract/extract.h"

#include <ctype.h>
#include <hb.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/grow.h"
#include "base/script.h"
#include "base/tags.h"
#include "base/utf8.h"

const char *const extract_feature_names[EXTRACT_N_FEATURES] = {
#define EXTRACT_FEATURE_NAME(name, what) #name,
    EXTRACT_FEATURES(EXTRACT_FEATURE_NAME)
#undef EXTRACT_FEATURE_NAME
};

/* Counting ------------------------------------------------------------------ */

static int space_cp(uint32_t cp)
{
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f' || cp == 0xA0 ||
           cp == 0x3000;
}

/* Marks that end a sentence (Unicode's Sentence_Terminal, the common ones):
 * full stops, question and exclamation marks of the scripts glance meets. */
static int stop_cp(uint32_t cp)
{
    switch (cp) {
    case '.': case '!': case '?':
    case 0x3002: case 0xFF01: case 0xFF1F: case 0xFF0E: /* 。！？． */
    case 0x061F: case 0x06D4:                           /* Arabic ؟ ۔ */
    case 0x0964: case 0x0965:                           /* Devanagari । ॥ */
    case 0x1362: case 0x0589: case 0x104B: case 0x17D4: /* Ethiopic, Armenian, Myanmar, Khmer */
    case 0x2026:                                        /* … */
        return 1;
    default:
        return 0;
    }
}

void extract_count_all(const char *s, size_t n, extract_counts *out)
{
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    memset(out, 0, sizeof *out);
    int in_word = 0;
    for (const char *p = s, *end = s + n; p < end;) {
        uint32_t cp = base_utf8_next(&p, end);
        if (space_cp(cp)) {
            in_word = 0;
            continue;
        }
        out->chars++;
        if (base_script_unspaced(cp)) {
            out->words++;
            in_word = 0;
        } else if (!in_word) {
            out->words++;
            in_word = 1;
        }
        out->stops += stop_cp(cp);
        switch (hb_unicode_general_category(uf, cp)) {
        case HB_UNICODE_GENERAL_CATEGORY_DECIMAL_NUMBER: out->digits++; break;
        case HB_UNICODE_GENERAL_CATEGORY_CONNECT_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_DASH_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_CLOSE_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_FINAL_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_INITIAL_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_OTHER_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_OPEN_PUNCTUATION: out->punct++; break;
        default: break;
        }
    }
}

/* Segmentation ------------------------------------------------------------------ */

/* Elements whose text is no reader's text: not blocks. */
static int skipped(const dom_node *n)
{
    static const char *const tags[] = {"script", "style", "template", "noscript", "svg", "math",
                                       "select", "option", "textarea", "head", NULL};
    return base_tag_in(n->tag, tags) && !(dom_is_tag(n, "noscript") && n->display == DOM_DISPLAY_BLOCK);
}

typedef struct seg {
    extract_blocks *b;
    int open;   /* the last block takes more text */
    double line_y0, line_y1; /* the line being added to */
    int failed;
} seg;

static const dom_node *block_ancestor(const dom_node *n)
{
    for (const dom_node *a = n->parent; a; a = a->parent)
        if (a->kind == DOM_ELEMENT && a->display == DOM_DISPLAY_BLOCK)
            return a;
    return n->parent;
}

static void add_line(seg *s, extract_block *k, dom_box lb)
{
    if (lb.w <= 0 || lb.h <= 0)
        return;
    k->box = dom_box_union(k->box, lb);
    if (k->lines && lb.y < s->line_y1 && lb.y + lb.h > s->line_y0) {
        k->line_w += lb.w; /* more of the same line */
        return;
    }
    k->lines++;
    k->line_w += lb.w;
    s->line_y0 = lb.y;
    s->line_y1 = lb.y + lb.h;
}

static void add_text(seg *s, const dom_node *n)
{
    extract_counts c;
    extract_count_all(n->text, n->text_len, &c);
    if (c.chars == 0)
        return;
    extract_blocks *b = s->b;
    if (!s->open) {
        if (base_grow(&b->v, &b->cap, b->n + 1, sizeof *b->v)) {
            s->failed = 1;
            return;
        }
        extract_block *k = &b->v[b->n++];
        memset(k, 0, sizeof *k);
        k->first = b->n_texts;
        k->container = block_ancestor(n);
        k->font_size = n->font_size;
        k->font_weight = n->font_weight;
        s->open = 1;
    }
    extract_block *k = &b->v[b->n - 1];
    if (base_grow(&b->texts, &b->cap_texts, b->n_texts + 1, sizeof *b->texts)) {
        s->failed = 1;
        return;
    }
    b->texts[b->n_texts++] = n;
    k->count++;
    k->counts.chars += c.chars;
    k->counts.words += c.words;
    k->counts.punct += c.punct;
    k->counts.stops += c.stops;
    k->counts.digits += c.digits;
    if (n->in_link)
        k->link_chars += c.chars;
    b->chars += c.chars;
    if (n->n_lines)
        for (size_t i = 0; i < n->n_lines; i++)
            add_line(s, k, n->lines[i]);
    else
        add_line(s, k, n->box);
}

static int seg_enter(void *ctx, const dom_node *n)
{
    seg *s = ctx;
    if (s->failed || dom_node_left_out(n))
        return 0;
    if (n->kind == DOM_TEXT) {
        add_text(s, n);
        return 1;
    }
    if (skipped(n))
        return 0;
    if (n->display == DOM_DISPLAY_BLOCK || dom_is_tag(n, "br"))
        s->open = dom_is_tag(n, "br") && s->open; /* a line break stays in its block */
    return 1;
}

static void seg_leave(void *ctx, const dom_node *n)
{
    seg *s = ctx;
    if (n->kind == DOM_ELEMENT && n->display == DOM_DISPLAY_BLOCK)
        s->open = 0;
}

int extract_blocks_make(const dom_doc *doc, extract_blocks *out)
{
    memset(out, 0, sizeof *out);
    seg s = {out, 0, 0, 0, 0};
    const dom_node *top = dom_doc_body(doc);
    if (!top)
        top = dom_doc_root(doc);
    if (top)
        dom_walk(top, seg_enter, seg_leave, &s);
    if (s.failed) {
        extract_blocks_free(out);
        return -1;
    }
    return 0;
}

void extract_blocks_free(extract_blocks *b)
{
    free(b->v);
    free(b->texts);
    memset(b, 0, sizeof *b);
}

/* Features ------------------------------------------------------------------ */

/* Words of class and id values, in markup: not of the page's language. A
 * value is split at every character that is not a letter or a digit, and
 * a word matches when it starts with one of the list's. */
static const char *const cls_content[] = {"article", "content", "post", "entry", "story",
                                          "main", "body", "text", "prose", "markdown", "thread",
                                          "message", "topic", "answer", "question", "review",
                                          "description", "detail", "product", NULL};
static const char *const cls_boiler[] = {"nav", "menu", "footer", "header", "sidebar", "side",
                                         "related", "share", "social", "promo", "ad", "ads",
                                         "advert", "banner", "cookie", "consent", "newsletter",
                                         "subscribe", "signup", "breadcrumb", "widget", "popup",
                                         "modal", "recommend", "trending", "popular", "login",
                                         "search", "pagination", "pager", "copyright", "legal",
                                         "disclaimer", "toolbar", "sponsor", NULL};
static const char *const cls_comment[] = {"comment", "reply", "replies", "discuss", "disqus",
                                          "respond", NULL};
static const char *const cls_meta[] = {"byline", "author", "date", "time", "meta", "dateline",
                                       "caption", "credit", "tag", "tags", "categor", NULL};

/* The lists' words by their first byte, made once: a class value of a
 * modern page has twenty words and more, each tried against a few only. */
typedef struct list_word {
    const char *w;
    size_t len;
    unsigned bit;
} list_word;
static list_word by_first[sizeof cls_content / sizeof *cls_content +
                          sizeof cls_boiler / sizeof *cls_boiler +
                          sizeof cls_comment / sizeof *cls_comment +
                          sizeof cls_meta / sizeof *cls_meta]; /* room for all, NULLs counted */
static unsigned short first_at[257]; /* by_first[first_at[c] .. first_at[c + 1]) */
static pthread_once_t by_first_once = PTHREAD_ONCE_INIT;

static void by_first_make(void)
{
    static const char *const *const lists[] = {cls_content, cls_boiler, cls_comment, cls_meta};
    size_t n = 0;
    for (unsigned c = 0; c < 256; c++) {
        first_at[c] = (unsigned short)n;
        for (unsigned k = 0; k < 4; k++)
            for (const char *const *p = lists[k]; *p; p++)
                if ((unsigned char)**p == c)
                    by_first[n++] = (list_word){*p, strlen(*p), 1u << k};
    }
    first_at[256] = (unsigned short)n;
}

/* Bit 1 << k for each list k that a word of the value starts with. */
static unsigned words_match(const char *v)
{
    pthread_once(&by_first_once, by_first_make);
    unsigned bits = 0;
    char w[48];
    while (*v) {
        size_t n = 0;
        while (*v && !isalnum((unsigned char)*v))
            v++;
        while (*v && isalnum((unsigned char)*v)) {
            if (n + 1 < sizeof w)
                w[n++] = (char)tolower((unsigned char)*v);
            v++;
        }
        w[n] = '\0';
        if (n < 2)
            continue;
        unsigned char c = (unsigned char)w[0];
        for (unsigned i = first_at[c]; i < first_at[c + 1]; i++) {
            const list_word *e = &by_first[i];
            /* "ad" and "side" only whole: "address", "sidenote" are not theirs */
            if (e->len <= 4 ? strcmp(w, e->w) == 0 : strncmp(w, e->w, e->len) == 0)
                bits |= e->bit;
        }
    }
    return bits;
}

static int has_attr_value(const dom_node *n, const char *name, const char *const *values)
{
    const char *v = dom_attr_get(n, name);
    if (!v)
        return 0;
    for (const char *const *p = values; *p; p++)
        if (strcasecmp(v, *p) == 0)
            return 1;
    return 0;
}

/* What an element and its ancestors are, as bits in the order of
 * bit_feature in extract_block_features: semantic tags and roles, then the
 * class and id words (words_match's lists). Worked out once per element. */
enum {
    A_ARTICLE = 1 << 0, A_MAIN = 1 << 1, A_NAV = 1 << 2, A_ASIDE = 1 << 3, A_HEADER = 1 << 4,
    A_FOOTER = 1 << 5, A_FORM = 1 << 6, A_TABLE = 1 << 7, A_LIST = 1 << 8, A_FIGURE = 1 << 9,
    A_BODY_PROP = 1 << 10, A_BUTTON = 1 << 11, A_CLS_SHIFT = 12
};

/* A class or id value's words_match, remembered by its text: a page
 * repeats the same values on many elements (a list's items, a grid's
 * cells), and words_match was most of own_flags' work. */
#define WORDS_MEMO 512 /* a power of two */
typedef struct flag_memo {
    unsigned *flags; /* by dom index: the node's and its ancestors' bits */
    unsigned char *done;
    size_t count;
    struct words_memo {
        uint64_t hash;
        const char *value; /* NULL: empty */
        unsigned bits;
    } words[WORDS_MEMO];
} flag_memo;

static unsigned words_match_memo(flag_memo *m, const char *v)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)v; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    struct words_memo *e = &m->words[h & (WORDS_MEMO - 1)];
    if (e->value && e->hash == h && strcmp(e->value, v) == 0)
        return e->bits;
    unsigned bits = words_match(v);
    *e = (struct words_memo){h, v, bits};
    return bits;
}

static unsigned own_flags(flag_memo *m, const dom_node *a)
{
    static const char *const r_main[] = {"main", "article", NULL},
                             *const r_nav[] = {"navigation", "menu", "menubar", NULL},
                             *const r_aside[] = {"complementary", NULL}, *const r_head[] = {"banner", NULL},
                             *const r_foot[] = {"contentinfo", NULL},
                             *const p_body[] = {"articleBody", "text", "reviewBody", "description", NULL};
    if (a->kind != DOM_ELEMENT)
        return 0;
    const char *t = a->tag;
    unsigned f = 0;
    f |= !strcmp(t, "article") ? A_ARTICLE : 0;
    f |= !strcmp(t, "main") || has_attr_value(a, "role", r_main) ? A_MAIN : 0;
    f |= !strcmp(t, "nav") || has_attr_value(a, "role", r_nav) ? A_NAV : 0;
    f |= !strcmp(t, "aside") || has_attr_value(a, "role", r_aside) ? A_ASIDE : 0;
    f |= !strcmp(t, "header") || has_attr_value(a, "role", r_head) ? A_HEADER : 0;
    f |= !strcmp(t, "footer") || has_attr_value(a, "role", r_foot) ? A_FOOTER : 0;
    f |= !strcmp(t, "form") ? A_FORM : 0;
    f |= !strcmp(t, "table") ? A_TABLE : 0;
    f |= !strcmp(t, "ul") || !strcmp(t, "ol") ? A_LIST : 0;
    f |= !strcmp(t, "figure") ? A_FIGURE : 0;
    f |= has_attr_value(a, "itemprop", p_body) ? A_BODY_PROP : 0;
    f |= !strcmp(t, "button") || !strcmp(t, "label") ? A_BUTTON : 0;
    const char *v = dom_attr_get(a, "class");
    unsigned cls = v ? words_match_memo(m, v) : 0;
    if ((v = dom_attr_get(a, "id")))
        cls |= words_match_memo(m, v);
    return f | cls << A_CLS_SHIFT;
}

/* The bits of `n` and every ancestor, each element's worked out once:
 * up from `n` to the first ancestor known, then down again filling in (no
 * recursion: a page may nest deeply). */
static unsigned anc_flags(flag_memo *m, const dom_node *n)
{
    size_t len = 0;
    const dom_node *a = n;
    for (; a && a->index < m->count && !m->done[a->index]; a = a->parent)
        len++;
    unsigned f = !a ? 0 : a->index < m->count ? m->flags[a->index] : own_flags(m, a) | anc_flags(m, a->parent);
    const dom_node **path = len ? malloc(len * sizeof *path) : NULL;
    if (len && !path) {
        /* Out of memory: worked out without keeping it. */
        for (const dom_node *b = n; b != a; b = b->parent)
            f |= own_flags(m, b);
        return f;
    }
    size_t k = 0;
    for (const dom_node *b = n; b != a; b = b->parent)
        path[k++] = b;
    while (k-- > 0) {
        f |= own_flags(m, path[k]);
        m->flags[path[k]->index] = f;
        m->done[path[k]->index] = 1;
    }
    free(path);
    return f;
}

/* Per element of the page (by dom index): characters and link characters
 * of the blocks under it, and blocks whose container it is. */
typedef struct sums {
    long *chars, *links, *blocks;
} sums;

static double share(long part, long whole)
{
    return whole > 0 ? (double)part / (double)whole : 0;
}

static float clampf(double v, double hi)
{
    return (float)(v > hi ? hi : v < -hi ? -hi : v);
}

/* The body text's size: the font size that sets most characters. */
static double body_font(const extract_blocks *b)
{
    double best = 16, best_n = 0;
    for (size_t i = 0; i < b->n; i++) {
        double sz = b->v[i].font_size, n = 0;
        if (sz <= 0)
            continue;
        for (size_t j = 0; j < b->n; j++)
            if (fabs(b->v[j].font_size - sz) < 0.5)
                n += (double)b->v[j].counts.chars;
        if (n > best_n) {
            best_n = n;
            best = sz;
        }
        if (i > 64)
            break; /* the first blocks show the sizes in use */
    }
    return best;
}

/* Between two text nodes of a block, in document order: a text node of
 * spaces alone or a <br>, which part their words. */
static int parted(const dom_node *a, const dom_node *z)
{
    for (const dom_node *n = dom_next(a, NULL); n && n != z; n = dom_next(n, NULL))
        if ((n->kind == DOM_TEXT && !dom_node_left_out(n) && base_html_spaces(n->text, n->text_len)) ||
            dom_is_tag(n, "br"))
            return 1;
    return 0;
}

void extract_block_text(const extract_blocks *bl, const extract_block *k, base_buf *b)
{
    base_buf_reset(b);
    for (size_t t = k->first; t < k->first + k->count; t++) {
        const dom_node *n = bl->texts[t];
        if (t > k->first && b->len && b->data[b->len - 1] != ' ' && parted(bl->texts[t - 1], n))
            base_buf_putc(b, ' ');
        for (size_t i = 0; i < n->text_len; i++) {
            int sp = base_html_space(n->text[i]);
            if (sp && (b->len == 0 || b->data[b->len - 1] == ' '))
                continue;
            base_buf_putc(b, sp ? ' ' : n->text[i]);
        }
    }
    while (b->len && b->data[b->len - 1] == ' ')
        base_buf_shrink(b, 1);
}

/* Case does not count (a headline "The bell tower" in a title "... the
 * bell tower"), for the letters that have ASCII case. */
int extract_block_side_label(const extract_blocks *b, size_t i)
{
    const extract_block *k = &b->v[i];
    if (k->counts.chars > EXTRACT_SIDE_MAX_CHARS || 2 * k->link_chars < k->counts.chars)
        return 0;
    const dom_node *c = k->container, *box = c ? c->parent : NULL;
    if (!box || dom_is_tag(c, "td") || dom_is_tag(c, "th") ||
        k->box.x + k->box.w < box->box.x + box->box.w - EXTRACT_SIDE_EDGE)
        return 0;
    for (size_t d = 1; d <= 2; d++)
        for (int before = 0; before < 2; before++) {
            if (before && i < d)
                continue;
            size_t j = before ? i - d : i + d;
            if (j >= b->n)
                continue;
            const extract_block *o = &b->v[j];
            if (o->box.y < k->box.y + k->box.h && k->box.y < o->box.y + o->box.h &&
                o->box.x + o->box.w <= k->box.x + 1 && o->container &&
                dom_is_ancestor(box, o->container))
                return 1;
        }
    return 0;
}

static double title_share(const char *text, size_t len, const char *title)
{
    if (!title || !title[0] || len == 0)
        return 0;
    size_t tl = strlen(title);
    if (len <= tl && strcasestr(title, text))
        return 1;
    if (tl < len && strcasestr(text, title))
        return (double)tl / (double)len;
    return 0;
}

/* The headline: the block that is most of the page's title (the title
 * without the site's name), as a reader finds it above the text it heads.
 * Of the blocks whose whole text is in the title and that are at least half
 * of it (and HEADLINE_MIN_CHARS long): the one in an <h1>, else in the
 * largest font, else the first. -1 when there is none. */
#define HEADLINE_MIN_CHARS 8
static long headline(const extract_blocks *b, const float *f, size_t stride, const char *title)
{
    long tl = title ? extract_count_chars(title, strlen(title)) : 0;
    long best = -1;
    for (size_t i = 0; i < b->n && tl > 0; i++) {
        const extract_block *k = &b->v[i];
        const float *fi = f + i * stride;
        if (fi[EXTRACT_F_in_title] < 1 || k->counts.chars < HEADLINE_MIN_CHARS ||
            2 * k->counts.chars < tl)
            continue;
        if (best < 0) {
            best = (long)i;
            continue;
        }
        const float *fb = f + (size_t)best * stride;
        if (fi[EXTRACT_F_tag_h1] > fb[EXTRACT_F_tag_h1] ||
            (fi[EXTRACT_F_tag_h1] == fb[EXTRACT_F_tag_h1] &&
             k->font_size > b->v[best].font_size))
            best = (long)i;
    }
    return best;
}

/* Each block against the headline: before or after it, how far down and
 * across, and how far up from its container the headline's ancestors are
 * met (the article's text shares a close ancestor with its headline; a
 * list of teasers above it does not). */
static int headline_features(const dom_doc *doc, const extract_blocks *b, double ww, double wh,
                             const char *title, float *out, size_t stride)
{
    long h = headline(b, out, stride, title);
    for (size_t i = 0; i < b->n; i++) {
        float *f = out + i * stride;
        f[EXTRACT_F_head_none] = h < 0;
        f[EXTRACT_F_head_rel] = f[EXTRACT_F_head_dy] = f[EXTRACT_F_head_dx] = 0;
        f[EXTRACT_F_head_up] = h < 0 ? 0 : 1;
    }
    if (h < 0)
        return 0;
    size_t count = dom_doc_count(doc);
    unsigned char *up = calloc(count + 1, 1); /* the headline's ancestors */
    if (!up)
        return -1;
    const extract_block *hk = &b->v[h];
    for (const dom_node *a = hk->container; a; a = a->parent)
        if (a->index < count)
            up[a->index] = 1;
    for (size_t i = 0; i < b->n; i++) {
        const extract_block *k = &b->v[i];
        float *f = out + i * stride;
        f[EXTRACT_F_head_rel] = b->n > 1 ? (float)((double)((long)i - h) / (double)(b->n - 1)) : 0;
        double dy = (k->box.y - hk->box.y) / wh;
        f[EXTRACT_F_head_dy] = (float)(dy > 50 ? 50 : dy < -50 ? -50 : dy);
        double dx = (k->box.x - hk->box.x) / ww;
        f[EXTRACT_F_head_dx] = (float)(dx > 1 ? 1 : dx < -1 ? -1 : dx);
        size_t steps = 0;
        const dom_node *a = k->container;
        while (a && !(a->index < count && up[a->index])) {
            a = a->parent;
            steps++;
        }
        f[EXTRACT_F_head_up] = a ? (float)(steps > 20 ? 20 : steps) / 20.0f : 1;
    }
    free(up);
    return 0;
}

/* An element's kind for repetition: its tag and class attribute, hashed. */
static uint64_t kind_of(const dom_node *n)
{
    uint64_t h = 1469598103934665603ull;
    const char *parts[2] = {n->tag ? n->tag : "", dom_attr_get(n, "class")};
    for (int i = 0; i < 2; i++) {
        for (const char *c = parts[i] ? parts[i] : ""; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull;
    }
    return h;
}

typedef struct kid {
    uint64_t kind;
    size_t index;
} kid;
typedef struct kids {
    kid *v;
    size_t n, cap;
} kids;

static int by_kind(const void *a, const void *b)
{
    uint64_t x = ((const kid *)a)->kind, y = ((const kid *)b)->kind;
    return x < y ? -1 : x > y;
}

/* same[] of every element child of p: how many of its siblings are of its
 * kind (sorted by kind, so that a list of thousands costs its sort). */
static int count_kinds(const dom_node *p, size_t count, const sums *s, long *same,
                       long *group_chars, long *group_links, unsigned char *done, kids *k)
{
    k->n = 0;
    for (const dom_node *c = p->first_child; c; c = c->next) {
        if (c->kind != DOM_ELEMENT || c->index >= count)
            continue;
        if (base_grow(&k->v, &k->cap, k->n + 1, sizeof *k->v))
            return -1;
        k->v[k->n++] = (kid){kind_of(c), c->index};
    }
    qsort(k->v, k->n, sizeof *k->v, by_kind);
    for (size_t i = 0, j; i < k->n; i = j) {
        long chars = 0, links = 0;
        for (j = i; j < k->n && k->v[j].kind == k->v[i].kind; j++) {
            chars += s->chars[k->v[j].index];
            links += s->links[k->v[j].index];
        }
        for (size_t m = i; m < j; m++) {
            same[k->v[m].index] = (long)(j - i - 1);
            group_chars[k->v[m].index] = chars;
            group_links[k->v[m].index] = links;
            done[k->v[m].index] = 1;
        }
    }
    return 0;
}

/* Repetition: the lowest ancestor of each block's container (the container
 * itself, up to 4 levels above) whose kind (tag and class) at least two of
 * its siblings share, how many do, and what share of the page's text and
 * what link share they hold together: a list of teasers, of comments, of
 * products, of links repeats one shape; an article's paragraphs sit in one
 * container. */
static int repeat_features(const dom_doc *doc, const extract_blocks *b, const sums *s,
                           float *out, size_t stride)
{
    size_t count = dom_doc_count(doc);
    long *same = calloc(count + 1, sizeof *same); /* of each element: siblings of its kind */
    long *gc = calloc(count + 1, sizeof *gc), *gl = calloc(count + 1, sizeof *gl);
    unsigned char *done = calloc(count + 1, 1);
    kids kids = {NULL, 0, 0};
    int rc = -1;
    if (!same || !gc || !gl || !done)
        goto out;
    for (size_t i = 0; i < b->n; i++) {
        float *f = out + i * stride;
        f[EXTRACT_F_rep_count] = 0;
        f[EXTRACT_F_rep_level] = 1;
        f[EXTRACT_F_rep_share] = 0;
        f[EXTRACT_F_rep_links] = 0;
        const dom_node *a = b->v[i].container;
        for (int level = 0; a && level <= 4; level++, a = a->parent) {
            const dom_node *p = a->parent;
            if (!p || a->index >= count)
                break;
            if (!done[a->index] && count_kinds(p, count, s, same, gc, gl, done, &kids) != 0)
                goto out;
            if (same[a->index] >= 2) {
                f[EXTRACT_F_rep_count] = (float)log1p((double)same[a->index]);
                f[EXTRACT_F_rep_level] = (float)level / 4.0f;
                f[EXTRACT_F_rep_share] = (float)share(gc[a->index], b->chars);
                f[EXTRACT_F_rep_links] = (float)share(gl[a->index], gc[a->index]);
                break;
            }
        }
    }
    rc = 0;
out:
    free(kids.v);
    free(same);
    free(gc);
    free(gl);
    free(done);
    return rc;
}

int extract_block_features(const dom_doc *doc, const extract_blocks *b, int window_w,
                           int window_h, const char *title, float *out, size_t stride)
{
    size_t count = dom_doc_count(doc);
    sums s = {calloc(count + 1, sizeof(long)), calloc(count + 1, sizeof(long)),
              calloc(count + 1, sizeof(long))};
    base_buf text = BASE_BUF_INIT;
    flag_memo memo = {calloc(count + 1, sizeof(unsigned)), calloc(count + 1, 1), count, {{0}}};
    int rc = -1;
    if (!s.chars || !s.links || !s.blocks || !memo.flags || !memo.done)
        goto done;
    for (size_t i = 0; i < b->n; i++) {
        const extract_block *k = &b->v[i];
        if (k->container && k->container->index < count)
            s.blocks[k->container->index]++;
        for (const dom_node *a = k->container; a; a = a->parent)
            if (a->index < count) {
                s.chars[a->index] += k->counts.chars;
                s.links[a->index] += k->link_chars;
            }
    }
    double ww = window_w > 0 ? window_w : 1920, wh = window_h > 0 ? window_h : 1080;
    double doc_h = dom_doc_height(doc) > 0 ? dom_doc_height(doc) : wh;
    double font0 = body_font(b);
    long before = 0;
    for (size_t i = 0; i < b->n; i++) {
        const extract_block *k = &b->v[i];
        float *f = out + i * stride;
        memset(f, 0, EXTRACT_N_FEATURES * sizeof *f);
        double chars = (double)k->counts.chars;
        f[EXTRACT_F_chars] = (float)log1p(chars);
        f[EXTRACT_F_words] = (float)log1p((double)k->counts.words);
        f[EXTRACT_F_link_share] = (float)share(k->link_chars, k->counts.chars);
        f[EXTRACT_F_punct_share] = (float)share(k->counts.punct, k->counts.chars);
        f[EXTRACT_F_stops] = (float)(100.0 * share(k->counts.stops, k->counts.chars));
        f[EXTRACT_F_digit_share] = (float)share(k->counts.digits, k->counts.chars);
        f[EXTRACT_F_lines] = (float)log1p((double)k->lines);
        double cw = k->container && k->container->box.w > 0 ? k->container->box.w : ww;
        f[EXTRACT_F_line_fill] = k->lines ? clampf(k->line_w / (double)k->lines / cw, 4) : 0;
        f[EXTRACT_F_x] = clampf(k->box.x / ww, 50);
        f[EXTRACT_F_y] = clampf(k->box.y / wh, 50);
        f[EXTRACT_F_w] = clampf(k->box.w / ww, 50);
        f[EXTRACT_F_h] = clampf(k->box.h / wh, 50);
        f[EXTRACT_F_off_centre] = clampf(fabs(k->box.x + k->box.w / 2 - ww / 2) / ww, 50);
        f[EXTRACT_F_y_doc] = clampf(k->box.y / doc_h, 1);
        f[EXTRACT_F_in_fia] = k->box.y < 2 * wh;
        f[EXTRACT_F_font] = k->font_size > 0 ? clampf(k->font_size / font0, 10) : 1;
        f[EXTRACT_F_bold] = k->font_weight >= 600;
        f[EXTRACT_F_line_height] =
            k->lines && k->font_size > 0 ? clampf(k->box.h / (double)k->lines / k->font_size, 10) : 0;
        /* The container's tag, and what its ancestors are. */
        const dom_node *c = k->container;
        const char *tag = c && c->tag ? c->tag : "";
        f[EXTRACT_F_tag_p] = !strcmp(tag, "p");
        f[EXTRACT_F_tag_li] = !strcmp(tag, "li");
        f[EXTRACT_F_tag_cell] = !strcmp(tag, "td") || !strcmp(tag, "th");
        f[EXTRACT_F_tag_h1] = !strcmp(tag, "h1");
        f[EXTRACT_F_tag_h] = tag[0] == 'h' && tag[1] >= '2' && tag[1] <= '6' && !tag[2];
        f[EXTRACT_F_tag_pre] = !strcmp(tag, "pre") || !strcmp(tag, "code");
        f[EXTRACT_F_tag_quote] = !strcmp(tag, "blockquote");
        f[EXTRACT_F_tag_dl] = !strcmp(tag, "dt") || !strcmp(tag, "dd");
        f[EXTRACT_F_tag_caption] = !strcmp(tag, "figcaption") || !strcmp(tag, "caption");
        unsigned fl = anc_flags(&memo, b->texts[k->first]->parent);
        static const int bit_feature[] = {
            EXTRACT_F_in_article, EXTRACT_F_in_main, EXTRACT_F_in_nav, EXTRACT_F_in_aside,
            EXTRACT_F_in_header, EXTRACT_F_in_footer, EXTRACT_F_in_form, EXTRACT_F_in_table,
            EXTRACT_F_in_list, EXTRACT_F_in_figure, EXTRACT_F_in_body_prop, EXTRACT_F_in_button,
            EXTRACT_F_cls_content, EXTRACT_F_cls_boiler, EXTRACT_F_cls_comment, EXTRACT_F_cls_meta};
        for (size_t bit = 0; bit < sizeof bit_feature / sizeof bit_feature[0]; bit++)
            f[bit_feature[bit]] = (fl >> bit) & 1;
        size_t depth = b->texts[k->first]->depth;
        f[EXTRACT_F_depth] = (float)depth / 20.0f;
        /* Its container, its neighbours, its ancestors. */
        size_t ci = c && c->index < count ? c->index : count;
        f[EXTRACT_F_cont_chars] = (float)log1p((double)s.chars[ci]);
        f[EXTRACT_F_cont_links] = (float)share(s.links[ci], s.chars[ci]);
        f[EXTRACT_F_cont_blocks] = (float)log1p((double)s.blocks[ci]);
        if (i > 0) {
            const extract_block *p = &b->v[i - 1];
            f[EXTRACT_F_prev_chars] = (float)log1p((double)p->counts.chars);
            f[EXTRACT_F_prev_links] = (float)share(p->link_chars, p->counts.chars);
        }
        if (i + 1 < b->n) {
            const extract_block *nx = &b->v[i + 1];
            f[EXTRACT_F_next_chars] = (float)log1p((double)nx->counts.chars);
            f[EXTRACT_F_next_links] = (float)share(nx->link_chars, nx->counts.chars);
        }
        const dom_node *a = c ? c->parent : NULL;
        static const int anc[4][2] = {{EXTRACT_F_a1_share, EXTRACT_F_a1_links},
                                      {EXTRACT_F_a2_share, EXTRACT_F_a2_links},
                                      {EXTRACT_F_a3_share, EXTRACT_F_a3_links},
                                      {EXTRACT_F_a4_share, EXTRACT_F_a4_links}};
        for (int l = 0; l < 4; l++) {
            size_t ai = a && a->index < count ? a->index : count;
            f[anc[l][0]] = a ? (float)share(s.chars[ai], b->chars) : 1;
            f[anc[l][1]] = a ? (float)share(s.links[ai], s.chars[ai]) : f[EXTRACT_F_cont_links];
            a = a ? a->parent : NULL;
        }
        const dom_node *wide = c;
        while (wide && wide->parent && wide->box.w < ww / 2)
            wide = wide->parent;
        size_t wi = wide && wide->index < count ? wide->index : count;
        f[EXTRACT_F_a_wide_share] = wide ? (float)share(s.chars[wi], b->chars) : 1;
        f[EXTRACT_F_page_chars] = (float)log1p((double)b->chars);
        f[EXTRACT_F_page_blocks] = (float)log1p((double)b->n);
        f[EXTRACT_F_doc_h] = clampf(doc_h / wh, 50);
        f[EXTRACT_F_rank] = b->n > 1 ? (float)i / (float)(b->n - 1) : 0;
        f[EXTRACT_F_before] = (float)share(before, b->chars);
        before += k->counts.chars;
        extract_block_text(b, k, &text);
        if (text.oom)
            goto done;
        f[EXTRACT_F_in_title] = (float)title_share(text.data ? text.data : "", text.len, title);
    }
    rc = headline_features(doc, b, ww, wh, title, out, stride) == 0 &&
                 repeat_features(doc, b, &s, out, stride) == 0
             ? 0
             : -1;
done:
    base_buf_free(&text);
    free(memo.flags);
    free(memo.done);
    free(s.chars);
    free(s.links);
    free(s.blocks);
    return rc;
}
