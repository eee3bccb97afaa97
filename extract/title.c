/* extract/: the page title. */
#include "extract/extract.h"

#include <stdlib.h>
#include <string.h>

#include "base/tags.h"

char *extract_title(const dom_doc *doc)
{
    const dom_node *root = dom_doc_root(doc);
    const dom_node *title = NULL;
    for (const dom_node *n = root; n && !title; n = dom_next(n, root))
        if (dom_is_tag(n, "title"))
            title = n;
    size_t cap = 1;
    if (title)
        for (const dom_node *c = title->first_child; c; c = c->next)
            if (c->kind == DOM_TEXT)
                cap += c->text_len;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    size_t len = 0;
    int space = 0;
    if (title) {
        for (const dom_node *c = title->first_child; c; c = c->next) {
            if (c->kind != DOM_TEXT)
                continue;
            for (size_t i = 0; i < c->text_len; i++) {
                unsigned char ch = (unsigned char)c->text[i];
                if (base_html_space((char)ch)) {
                    space = len > 0;
                    continue;
                }
                if (space)
                    out[len++] = ' ';
                space = 0;
                out[len++] = (char)ch;
            }
        }
    }
    out[len] = '\0';
    return out;
}
