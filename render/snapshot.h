/* render/: a browser's view of a page becomes a dom tree.
 *
 * The input is what Chromium's DevTools protocol gives for a laid-out
 * page after its scripts ran (DOMSnapshot.captureSnapshot), in glance's
 * versioned envelope (docs/snapshot.md):
 *
 *   {"glance_snapshot": 1, "url": U, "window": {"width": W, "height": H},
 *    "scripts": true, "snapshot": {"documents": [...], "strings": [...]}}
 *
 * The snapshot's own object alone ({"documents", "strings"}) is taken too,
 * with the window and URL the caller gives. The tree has every field
 * render/tree.cpp gives litehtml's: border boxes, line boxes from the text
 * boxes, display and the hidden bits from the computed display and
 * visibility and the boxes' sizes, links, fixed boxes, preformatted text,
 * font size and weight. Comments, pseudo-elements and the browser's own
 * shadow trees (an <input>'s, a <details>'s) are not nodes, as in
 * litehtml's tree; a page's own shadow roots are read as the snapshot
 * gives them, flattened as the browser shows them (the shadow tree in the
 * host's place, each <slot> holding the host's children assigned to it);
 * a same-origin <iframe> holds its document's <body>.
 */
#ifndef GLANCE_RENDER_SNAPSHOT_H
#define GLANCE_RENDER_SNAPSHOT_H

#include <stddef.h>

#include "dom/dom.h"
#include "render/render.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The envelope's version this build reads. */
#define RENDER_SNAPSHOT_VERSION 1

typedef struct render_snapshot_info {
    char *url;              /* the document's address (malloc'd; NULL: none given) */
    int window_w, window_h; /* the window it was laid out in */
    int scripts;            /* 1: its scripts ran; -1: not said */
    int mobile;             /* 1: a phone's or tablet's browser laid it out ("mobile": true), in the
                             * layout viewport that window_w and window_h give */
    size_t elements, words; /* counted while building */
} render_snapshot_info;

/* Builds the dom tree of a snapshot (`json`, `len` bytes). `o` gives the
 * window when the input does not (window_w, window_h) and the limits that
 * apply to a browser's tree too (max_depth, max_elements, max_words,
 * max_doc_height, deadline_ms). RENDER_EPARSE with `why` set when the text
 * is no snapshot glance can read (not JSON, another version, arrays of the
 * wrong shape or length, indexes out of range); the limits' statuses as
 * render_load gives them. On success *out is the tree (free it with
 * dom_doc_free) and *info what the envelope said (free its url). */
render_status render_snapshot_dom(const char *json, size_t len, const render_opts *o,
                                  dom_doc **out, render_snapshot_info *info, char *why,
                                  size_t cap);

#ifdef __cplusplus
}
#endif

#endif
