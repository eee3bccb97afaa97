/* render/: what a reader without scripts sees of a page's <noscript>
 * elements. Internal to render/ (cssfilter.c rewrites the page with it).
 *
 * glance runs no scripts, so it shows the page as a browser with scripting
 * disabled does: the content of <noscript> is markup, laid out in place
 * (forums built on Discourse keep their posts there). But most <noscript>s
 * hold what must not change the answer: a tracking pixel, the fallback
 * <img> of a lazy image, a line asking to enable JavaScript, a copy of text
 * the page carries anyway. One is shown when its text is a reader's text:
 * at least NOSCRIPT_MIN_CHARS characters of prose (not markup written as
 * text), most of it found nowhere else on the page. The rest stay hidden,
 * as the user-agent stylesheet hides every <noscript> (ua.css); a shown one
 * carries the attribute NOSCRIPT_SHOWN_ATTR, which ua.css displays.
 *
 * The <style> elements inside a <noscript> apply, as in such a browser:
 * they hide the placeholders of lazy images whose fallbacks the <noscript>s
 * hold, and reveal what is meant for readers without scripts. But some hide
 * the page itself ("div:not(.no-js) { display:none }") to show a warning
 * in its place; render_load lays such a page out again without them
 * (render.h, RENDER_HIDDEN_SHARE).
 */
#ifndef GLANCE_RENDER_NOSCRIPT_H
#define GLANCE_RENDER_NOSCRIPT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Characters (code points other than white space) of a <noscript>'s text
 * for it to be a reader's text rather than a line about JavaScript, which
 * in every language runs to two sentences at most. */
#define NOSCRIPT_MIN_CHARS 300
/* Share of a <noscript>'s text that may be found elsewhere on the page for
 * it to be shown (more is a copy: counted once). */
#define NOSCRIPT_MAX_COPIED 0.5
#define NOSCRIPT_SHOWN_ATTR "data-glance-shown"

/* The <noscript> start tags of a page to show, by position. */
typedef struct noscript_plan {
    const char **shown; /* the '<' of each start tag to show, ascending */
    size_t n, cap;
} noscript_plan;

/* Decides every <noscript> of `html`; 0, or -1 when out of memory.
 * *text_bytes (when not NULL): the bytes of the page's text outside
 * <noscript>, white space not counted. */
int noscript_plan_page(const char *html, size_t len, noscript_plan *out, size_t *text_bytes);
void noscript_plan_free(noscript_plan *p);
/* 1 when the start tag beginning at `tag` is to be shown. */
int noscript_plan_shows(const noscript_plan *p, const char *tag);

#ifdef __cplusplus
}
#endif

#endif
