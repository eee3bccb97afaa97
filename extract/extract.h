/* extract/: what the pipeline takes out of the chosen node and the page
 * around it: the title, the non-visual extractors that answer when GCE
 * does not (DESIGN.md, Fallbacks: BTE, node characteristics, XPath blocks,
 * DANAg), and the clean-up inside the chosen node. */
#ifndef GLANCE_EXTRACT_H
#define GLANCE_EXTRACT_H

#include "dom/dom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The text of the first <title> (in document order), white space collapsed
 * and trimmed; "" when there is none. malloc'd; NULL only when out of memory. */
char *extract_title(const dom_doc *doc);

/* A stretch of the page between two text nodes, in document order, both
 * included: what the non-visual extractors answer. An extractor that keeps
 * some text nodes of the stretch and not others (node characteristics,
 * XPath blocks) says which in `picked`. */
typedef struct extract_span {
    const dom_node *first, *last;
    long score;   /* the extractor's own measure of it (BTE: words - tags) */
    unsigned char *picked; /* NULL: every displayed text node from first to last;
                              else one flag per node (dom_node.index, n_picked of
                              them), 1 for the text nodes of the answer. malloc'd:
                              extract_span_free */
    size_t n_picked;
    const char *failure;   /* why nothing was found (static string); NULL when found */
} extract_span;

/* Frees what a span owns (picked) and empties it. */
void extract_span_free(extract_span *span);

/* Empties `out` for an extractor about to fill it and returns the element
 * the extractor reads: <body>, or the root when there is none; NULL, with
 * out->failure set, when the page has neither. */
const dom_node *extract_span_begin(const dom_doc *doc, extract_span *out);

/* BTE (paper 001): the stretch of the page with the most words and fewest
 * tags. 0 when found, 1 when the page has no displayed words or the
 * stretch is link text only (out->failure says which), -1 when out of
 * memory. */
int extract_bte(const dom_doc *doc, extract_span *out);

/* BTE's tokens inside one element (`top`; what `keep` turns down below it
 * left out), and every maximal-scoring stretch of them (Ruzzo and Tompa,
 * 1999: none inside it scores more, none around it holds it) that scores at
 * least `min_share` of the best one: the word-dense parts of an element,
 * without the tag-dense ones between and around them (bylines, galleries,
 * lists of links). out->picked marks their text nodes; out->score is the sum
 * of their scores. 0 when found, 1 when the element shows no words, -1 when
 * out of memory. */
int extract_bte_stretches(const dom_doc *doc, const dom_node *top, dom_keep_fn keep, void *ctx,
                          double min_share, extract_span *out);

/* Words of a text as BTE counts them: runs between white space, and each
 * character of a script written without spaces (Han, Kana, Thai ...). */
long extract_count_words(const char *text, size_t len);

/* Characters of a text that are not white space (code points, any script),
 * and of those the punctuation marks (Unicode categories P*, any script:
 * "。", "،", "!" alike). */
long extract_count_chars(const char *text, size_t len);
long extract_count_punct(const char *text, size_t len);

/* A text node in an answer made of picked text: picked (picked[n->index],
 * for indices under n_picked), or spaces only (base_html_spaces), which no
 * block holds and without which the words either side would run together. */
int extract_text_in_answer(const dom_node *n, const unsigned char *picked, size_t n_picked);

/* The counts of a text in one pass: characters that are not white space,
 * words (as extract_count_words), punctuation marks, the marks that end a
 * sentence in any script (. ! ? and their fullwidth, Arabic, Devanagari,
 * Ethiopic, Armenian, Myanmar and Khmer forms), and decimal digits. */
typedef struct extract_counts {
    long chars, words, punct, stops, digits;
} extract_counts;
void extract_count_all(const char *text, size_t len, extract_counts *out);

/* Blocks ------------------------------------------------------------------
 *
 * The page cut into its lowest blocks, as a reader sees paragraphs: the
 * text one block box holds between two of its block children (a <p>, an
 * <li>, a cell, the run of text in a <div> before its first block child).
 * Text that is not displayed, and the text of scripts, styles, form
 * controls and <svg>, belongs to none. What the default scorer classifies
 * (methods/score.c). */
typedef struct extract_block {
    size_t first, count;        /* its text nodes: texts[first .. first + count) */
    const dom_node *container;  /* the block box it is set in */
    dom_box box;                /* the union of its lines */
    extract_counts counts;
    long link_chars;            /* characters inside <a href> */
    size_t lines;               /* line boxes, a line counted once */
    double line_w;              /* their widths, summed */
    float font_size;            /* of its first text, px */
    short font_weight;
} extract_block;

typedef struct extract_blocks {
    extract_block *v;
    size_t n, cap;
    const dom_node **texts;     /* every text node of a block, in document order */
    size_t n_texts, cap_texts;
    long chars;                 /* of all blocks */
} extract_blocks;

/* 0, or -1 when out of memory (out is then empty). */
int extract_blocks_make(const dom_doc *doc, extract_blocks *out);
void extract_blocks_free(extract_blocks *b);

/* Features of each block, read off the layout and the tree: its text and
 * links, its box against the window and the first impression area, its
 * font against the page's body text, its lines, the semantic tags, roles
 * and class or id words of its ancestors, its neighbours and ancestors'
 * share of the page's text. EXTRACT_FEATURES(X) lists them, X(name, what)
 * each, in the order of the vector. */
#define EXTRACT_FEATURES(X)                                                          \
    X(chars, "log(1 + characters)")                                               \
    X(words, "log(1 + words)")                                                    \
    X(link_share, "characters inside links / characters")                         \
    X(punct_share, "punctuation marks / characters")                              \
    X(stops, "sentence-ending marks per 100 characters")                          \
    X(digit_share, "digits / characters")                                         \
    X(lines, "log(1 + line boxes)")                                               \
    X(line_fill, "mean line width / the container's width")                       \
    X(x, "left edge / window width")                                              \
    X(y, "top / window height (at most 50)")                                      \
    X(w, "width / window width")                                                  \
    X(h, "height / window height (at most 50)")                                   \
    X(off_centre, "|centre - window centre| / window width")                      \
    X(y_doc, "top / document height")                                             \
    X(in_fia, "1 when it starts in the first impression area (2 windows)")        \
    X(font, "font size / the page's body text size")                              \
    X(bold, "1 when its weight is 600 or more")                                   \
    X(line_height, "height per line / font size")                                 \
    X(tag_p, "in a <p>")                                                          \
    X(tag_li, "in an <li>")                                                       \
    X(tag_cell, "in a <td> or <th>")                                              \
    X(tag_h1, "in an <h1>")                                                       \
    X(tag_h, "in an <h2> to <h6>")                                                \
    X(tag_pre, "in a <pre> or <code>")                                            \
    X(tag_quote, "in a <blockquote>")                                             \
    X(tag_dl, "in a <dt> or <dd>")                                                \
    X(tag_caption, "in a <figcaption> or <caption>")                              \
    X(in_article, "under <article>")                                              \
    X(in_main, "under <main> or role=main")                                       \
    X(in_nav, "under <nav> or role=navigation")                                   \
    X(in_aside, "under <aside> or role=complementary")                            \
    X(in_header, "under <header> or role=banner")                                 \
    X(in_footer, "under <footer> or role=contentinfo")                            \
    X(in_form, "under <form>")                                                    \
    X(in_table, "under <table>")                                                  \
    X(in_list, "under <ul> or <ol>")                                              \
    X(in_figure, "under <figure>")                                                \
    X(in_body_prop, "under itemprop articleBody, text or reviewBody")             \
    X(in_button, "under <button>, <label> or <select>")                           \
    X(depth, "tree depth / 20")                                                   \
    X(cls_content, "an ancestor's class or id names the content")                 \
    X(cls_boiler, "an ancestor's class or id names boilerplate")                  \
    X(cls_comment, "an ancestor's class or id names comments")                    \
    X(cls_meta, "an ancestor's class or id names a byline, date or tags")         \
    X(cont_chars, "log(1 + the container's characters)")                         \
    X(cont_links, "the container's link share")                                   \
    X(cont_blocks, "log(1 + blocks in the container)")                            \
    X(prev_chars, "log(1 + the previous block's characters)")                     \
    X(prev_links, "the previous block's link share")                              \
    X(next_chars, "log(1 + the next block's characters)")                         \
    X(next_links, "the next block's link share")                                  \
    X(a1_share, "the parent's share of the page's characters")                    \
    X(a1_links, "the parent's link share")                                        \
    X(a2_share, "the grandparent's share")                                        \
    X(a2_links, "the grandparent's link share")                                   \
    X(a3_share, "the 3rd ancestor's share")                                       \
    X(a3_links, "the 3rd ancestor's link share")                                  \
    X(a4_share, "the 4th ancestor's share")                                       \
    X(a4_links, "the 4th ancestor's link share")                                  \
    X(a_wide_share, "the lowest ancestor at least half the window wide: share")   \
    X(page_chars, "log(1 + the page's characters)")                               \
    X(page_blocks, "log(1 + the page's blocks)")                                  \
    X(doc_h, "document height / window height (at most 50)")                      \
    X(rank, "its place among the page's blocks, 0 to 1")                          \
    X(before, "share of the page's characters before it")                         \
    X(in_title, "share of its characters in the page's <title>")                  \
    X(head_none, "1 when no block is the headline (extract_headline)")            \
    X(head_rel, "(its place - the headline's) / blocks, -1 to 1")                 \
    X(head_dy, "(its top - the headline's) / window height (at most 50)")         \
    X(head_dx, "(its left edge - the headline's) / window width")                 \
    X(head_up, "steps up from its container to the headline's ancestor / 20")    \
    X(rep_count, "log(1 + siblings like its lowest repeated ancestor, at most 4 up)") \
    X(rep_level, "that ancestor's level above its container / 4, 1 when none")    \
    X(rep_share, "share of the page's characters in it and its like siblings")    \
    X(rep_links, "their link share")

enum {
#define EXTRACT_FEATURE_ENUM(name, what) EXTRACT_F_##name,
    EXTRACT_FEATURES(EXTRACT_FEATURE_ENUM)
#undef EXTRACT_FEATURE_ENUM
    EXTRACT_N_FEATURES
};

extern const char *const extract_feature_names[EXTRACT_N_FEATURES];

/* A block's text, white space collapsed, into `b` (emptied first). */
struct base_buf;
void extract_block_text(const extract_blocks *blocks, const extract_block *k, struct base_buf *b);

/* Whether block i is a side label: a few characters (at most
 * EXTRACT_SIDE_MAX_CHARS), mostly a link, set at the right edge of the box
 * that holds its block box (within EXTRACT_SIDE_EDGE px), on the line of
 * a block to its left in that box (one of the two before or after it in
 * reading order: a float comes first). A "source", "edit" or permalink
 * beside a heading, a count beside a list entry: furniture of the line, not
 * its text. Not a table cell (a row's last column), nor a card in a row of
 * cards (the block to its left is in another box), nor a label at the
 * left. The two numbers were chosen on the four corpora: 16, 32 and 64
 * characters take the same on modern-dev, scrapinghub and lang-dev, and
 * without the right edge the rule takes more than labels (modern-dev
 * -0.054 on 9 pages). */
#define EXTRACT_SIDE_MAX_CHARS 32
#define EXTRACT_SIDE_EDGE 8
int extract_block_side_label(const extract_blocks *b, size_t i);

/* The features of every block into out[i * stride + f] (stride at least
 * EXTRACT_N_FEATURES: the caller may append its own). 0, or -1 when out of
 * memory. */
int extract_block_features(const dom_doc *doc, const extract_blocks *b, int window_w,
                           int window_h, const char *title, float *out, size_t stride);

/* Node characteristics (paper 000, Liu et al. 2017) ----------------------
 *
 * The page, cut into its lowest blocks (the inline content of one block box
 * between two block children), each with text density δ (formula 1, the
 * lines and their fill read off the line boxes) and hyperlink density θ
 * (formula 2); neighbours alike merge (node fusion, formula 3); each node
 * is content or noise by the neighbour rule of Fig. 2; the result analyzer
 * turns down a page whose content is a catalogue of links. */
typedef struct extract_nodechar_params {
    double theta;        /* hyperlink density above which a node is noise; 0.333 */
    double delta;        /* text density under which a node leans on its
                            neighbours; 0.5 */
    double weight_text;  /* α of formula 3 (β = 1 - α weighs θ); 0.2 */
    double epsilon;      /* neighbours whose difference is under this merge; 0.1
                            (the paper gives no value; 0: no fusion) */
    double min_density;  /* result analyzer: text density of the content over
                            this ...; 0.3 */
    int min_punct;       /* ... and more than this many punctuation marks; 2 */
} extract_nodechar_params;

void extract_nodechar_params_default(extract_nodechar_params *p);

typedef struct extract_nodechar_info {
    size_t blocks;       /* lowest blocks with text */
    size_t nodes;        /* after fusion */
    size_t content;      /* nodes classified content */
    double density;      /* text density of the content, as one node */
    long punct;          /* punctuation marks in it */
} extract_nodechar_info;

/* 0 when content was found (out->picked holds its text nodes), 1 when none
 * (out->failure says why: no text, or a catalogue of links), -1 when out of
 * memory. `info` may be NULL. */
int extract_nodechar(const dom_doc *doc, const extract_nodechar_params *p, extract_span *out,
                     extract_nodechar_info *info);

/* XPath blocks (paper 003, Thanadechteemapat & Fung) -----------------------
 *
 * Every displayed text leaf adds its counts to each ancestor up to <body>
 * (the XPath blocks); a leaf's block is its lowest ancestor holding more
 * than one leaf. Anchor node ratio ANR = links / leaves, anchor text ratio
 * ATR = link text / text, AR = w·ATR + (1 - w)·ANR. A leaf is content
 * unless it starts with a footer phrase, its run of inline text (up to the
 * next block boundary) holds under min_chars characters, or its block has
 * AR >= max_ar (unless the block holds fewer than exempt_links links and
 * more than exempt_leaves leaves: a paragraph with one link in it). */
typedef struct extract_xpath_params {
    double atr_weight;   /* w; 0.75 (ANR weighs 0.25) */
    double max_ar;       /* 0.6 */
    int min_chars;       /* 2 (DESIGN.md: the paper's "less than" is a slip) */
    int exempt_links;    /* 2 */
    int exempt_leaves;   /* 2 */
    const char *footer_phrases; /* '|'-separated, matched case-blind at the
                            start of a leaf; default "powered by|copyright|©|版权所有|
                            版權所有|著作権|저작권" */
} extract_xpath_params;

void extract_xpath_params_default(extract_xpath_params *p);

typedef struct extract_xpath_info {
    size_t leaves, content, footers;
} extract_xpath_info;

int extract_xpath(const dom_doc *doc, const extract_xpath_params *p, extract_span *out,
                  extract_xpath_info *info);

/* DANAg (paper 004, Mohammadzadeh et al. 2011) ----------------------------
 *
 * The page serialised one line per block-level element (start tag, inline
 * content, inline tags; a block child starts a new line); per line T1 =
 * content characters, T2 = code characters (the markup as written, with its
 * attributes); diff_i = Σ_{k=i-r..i+r} (T1_k - T2_k) (formula 1, r = 1);
 * the run of positive lines with the most content seeds the main area,
 * which takes in every positive run up and down that starts at most `gap`
 * lines away. */
typedef struct extract_danag_params {
    int gap;             /* 20 */
    int radius;          /* r; 1 */
} extract_danag_params;

void extract_danag_params_default(extract_danag_params *p);

typedef struct extract_danag_info {
    size_t lines;                 /* of the normalised serialisation */
    size_t seed_first, seed_last; /* lines of the seed run (0-based) */
    size_t area_first, area_last; /* lines of the main area */
} extract_danag_info;

int extract_danag(const dom_doc *doc, const extract_danag_params *p, extract_span *out,
                  extract_danag_info *info);

/* The text of a span: the displayed text nodes from first to last, a line
 * break where the block around them changes, white space collapsed.
 * malloc'd; NULL when out of memory. */
char *extract_span_text(const extract_span *span);

/* The clean-up inside the chosen node. A cleaner is made once per page;
 * extract_cleaner_keep is a dom_keep_fn (dom_to_text_kept) that turns down
 * <nav>, <aside>, <footer>, forms and their controls, any block whose text
 * is more than `max_link_share` link text, and a heading (h1-h3) whose text
 * is part of `title` (the page's <title>; NULL or under 10 bytes: no such
 * rule). NULL when out of memory. */
typedef struct extract_cleaner extract_cleaner;
extract_cleaner *extract_cleaner_new(const dom_doc *doc, double max_link_share,
                                     const char *title);
void extract_cleaner_free(extract_cleaner *c);
int extract_cleaner_keep(const dom_node *n, void *cleaner);

/* The text of a span without what `keep` turns down below the span's
 * holder (NULL: everything), and only its picked text nodes. */
char *extract_span_text_kept(const extract_span *span, dom_keep_fn keep, void *ctx);
/* 1 when that text would not be empty, found without writing it. */
int extract_span_has_text_kept(const extract_span *span, dom_keep_fn keep, void *ctx);

/* The element that holds the whole span (the nearest common ancestor). */
const dom_node *extract_span_holder(const extract_span *span);

#ifdef __cplusplus
}
#endif

#endif
