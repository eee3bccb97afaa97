/* extract/: the clean-up inside the chosen node (DESIGN.md: drop what a
 * reader-mode user does not want). Decided on the laid-out tree, not on
 * English words: a block whose text is mostly link text (menus, tag lists,
 * "related" lists, share rows), navigation and complementary sections
 * (<nav>, <aside>, <footer> by their HTML meaning), form controls, and
 * reader comments as the page's markup names them. Hidden nodes are already
 * left out by every serialiser. */
#define _GNU_SOURCE /* strcasestr */
#include "extract/extract.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/tags.h"

/* Text outside links (non-space bytes) a link-dense block may hold and
 * still be dropped: a few lines of labels and separators, not paragraphs. */
#define MAX_OTHER_TEXT 400

struct extract_cleaner {
    double max_link_share;
    char *title; /* the page's <title>, white space collapsed; NULL: no title rule */
    size_t count;
    size_t *text, *link; /* visible non-space bytes of text under each node, and of link text */
};

static size_t solid_bytes(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += !base_html_space(s[i]);
    return k;
}

extract_cleaner *extract_cleaner_new(const dom_doc *doc, double max_link_share,
                                     const char *title)
{
    extract_cleaner *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->max_link_share = max_link_share;
    if (title && strlen(title) >= 10 && !(c->title = strdup(title))) {
        free(c);
        return NULL;
    }
    c->count = dom_doc_count(doc);
    size_t n = c->count ? c->count : 1;
    c->text = calloc(n, sizeof *c->text);
    c->link = calloc(n, sizeof *c->link);
    const dom_node **order = calloc(n, sizeof *order);
    if (!c->text || !c->link || !order) {
        free(order);
        extract_cleaner_free(c);
        return NULL;
    }
    const dom_node *root = dom_doc_root(doc);
    for (const dom_node *x = root; x; x = dom_next(x, root))
        if (x->index < c->count)
            order[x->index] = x;
    /* Bottom up: children come after their parent in pre-order. */
    for (size_t i = c->count; i-- > 0;) {
        const dom_node *x = order[i];
        if (!x)
            continue;
        if (x->kind == DOM_TEXT && !x->hidden) {
            size_t k = solid_bytes(x->text, x->text_len);
            c->text[i] += k;
            if (x->in_link)
                c->link[i] += k;
        }
        if (x->parent && x != root && !(x->hidden & DOM_HIDDEN_DISPLAY_NONE)) {
            c->text[x->parent->index] += c->text[i];
            c->link[x->parent->index] += c->link[i];
        }
    }
    free(order);
    return c;
}

void extract_cleaner_free(extract_cleaner *c)
{
    if (!c)
        return;
    free(c->text);
    free(c->link);
    free(c->title);
    free(c);
}

/* Reader comments: a block that the page's own markup names as comments
 * (the id or a class starts with "comment", or is Disqus's thread) — the
 * convention of blog engines and comment services in every language, not
 * a word of the text. */
static int is_comments(const dom_node *n)
{
    const char *names[2] = {dom_attr_get(n, "id"), dom_attr_get(n, "class")};
    for (int k = 0; k < 2; k++) {
        const char *p = names[k];
        while (p && *p) {
            while (*p == ' ' || *p == '\t' || *p == '\n')
                p++;
            if (!strncasecmp(p, "comment", 7) || !strncasecmp(p, "disqus", 6))
                return 1;
            while (*p && *p != ' ' && *p != '\t' && *p != '\n')
                p++;
        }
    }
    return 0;
}

int extract_cleaner_keep(const dom_node *n, void *ctx)
{
    const extract_cleaner *c = ctx;
    if (n->kind != DOM_ELEMENT || n->index >= c->count)
        return 1;
    static const char *const dropped[] = {"nav", "aside", "footer", "form", "button", "select",
                                          "textarea", "input", "label", NULL};
    if (base_tag_in(n->tag, dropped))
        return 0;
    /* The headline: a heading whose text is in the page's <title> (which
     * the result reports as its title) is not repeated in the text. */
    if (c->title && (!strcmp(n->tag, "h1") || !strcmp(n->tag, "h2") || !strcmp(n->tag, "h3")) &&
        c->text[n->index] >= 8) {
        char *h = dom_to_text(n, NULL);
        int in_title = h && strlen(h) >= 8 && strcasestr(c->title, h) != NULL;
        free(h);
        if (in_title)
            return 0;
    }
    if (n->display == DOM_DISPLAY_BLOCK && is_comments(n))
        return 0;
    size_t text = c->text[n->index], link = c->link[n->index];
    /* Mostly links, and little else: a wrapper that holds the article beside
     * big menus is link-heavy too, but its own words are the article. */
    if (n->display == DOM_DISPLAY_BLOCK && text > 0 &&
        (double)link > c->max_link_share * (double)text && text - link < MAX_OTHER_TEXT)
        return 0;
    return 1;
}
