/* render/: the page's runs of white space written as one space before
 * litehtml reads it, where nothing keeps them.
 *
 * litehtml 0.6 makes an element of each character of a text node of white
 * space only, the source's indentation between tags (styled.h's
 * appendChild joins them again), and gumbo reads each of them as a token:
 * on modern pages that is 7% of the bytes litehtml is handed. Under
 * `white-space: normal` or `nowrap` such a run lays out as one space, and
 * glance's dom reads it as one (render/tree.cpp), so one space in its place
 * changes nothing. Where a style may keep the spaces (pre, pre-wrap,
 * pre-line, break-spaces), the page is left as it is.
 */
#ifndef GLANCE_RENDER_SPACES_H
#define GLANCE_RENDER_SPACES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether `css` (a stylesheet, a <style>'s text, a tag with its style
 * attribute) may give a white-space value that keeps spaces: "white-space"
 * followed, before the declaration ends (';', '}', a quote, '<' or '>'), by
 * "pre", "break" or "var(" in any case, or by more than 256 bytes. It reads
 * no CSS, so a mention in a selector, a comment or another attribute counts
 * too: a false yes costs only the time the collapse saves. Linear: each
 * byte is looked at a bounded number of times. */
int spaces_kept(const char *css, size_t len);

/* `page` (litehtml's, css_prepare_html) with each run of HTML white space
 * in its text written as one space, but inside raw-text elements
 * (base/tags.h: <textarea>, <xmp>, <plaintext>...) and <pre> and
 * <listing>, which keep theirs: counted from a start tag of either (a
 * "<pre/>" opens one too) to its end tag, so that one left open keeps the
 * rest of the page as it is. One scan of the tags, which also reads the
 * page's CSS: 1 and *out (malloc'd, NUL-terminated, *out_len long) when
 * written so; 0 and *out NULL when the page is to be read as it is (its
 * <style>s or a tag's attributes may keep spaces, spaces_kept, or `sheet`
 * returned non-zero for a stylesheet it names, base/sheetrefs.h, when
 * `sheet` is not NULL); -1 when out of memory. */
int spaces_collapse(const char *page, size_t len, int (*sheet)(void *ud, const char *ref),
                    void *ud, char **out, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif
