// render/compat.h: flexbox and grid on litehtml 0.6, which knows neither.
//
// litehtml lets the document container create every element. We create
// ours for the tags a page lays out with (div, p, a and every tag litehtml
// has no class of its own for), so that an element whose computed display
// is flex, inline-flex, grid or inline-grid can lay its children out the way
// a browser would, using litehtml's own layouts underneath:
//
//  - a flex row becomes a block whose items are inline-blocks on line boxes
//    (one line, or several with flex-wrap), each item given the width the
//    flex algorithm gives it (basis from flex-basis, width or its
//    max-content; growth by flex-grow, shrinking by flex-shrink × basis),
//    gap, justify-content and auto margins as extra margins, items stretched
//    to the height of their line;
//  - a flex column is a block of block items (plus row-gap);
//  - a grid becomes a block whose items are inline-blocks as wide as the
//    columns of grid-template-columns they span (px, %, em, fr, auto,
//    minmax(), repeat(n, ...) and repeat(auto-fill|auto-fit, ...)), placed
//    in order, a row per line.
//
// Items are reported to the dom tree as blocks, which CSS makes them.
// Tables and rows stay litehtml's classes, as the container's cells do;
// all of them, and ours, resolve their styles through styled.h.
// Private to render/.
#ifndef GLANCE_RENDER_COMPAT_H
#define GLANCE_RENDER_COMPAT_H

#include <litehtml.h>

#include <functional>
#include <memory>

namespace compat {

// The element litehtml should use for `tag`, or nullptr for litehtml's own
// (tables, images and the other tags with classes of their own; the body
// is create_body's).
std::shared_ptr<litehtml::element> create_element(const char *tag,
                                                  const std::shared_ptr<litehtml::document> &doc);

// The body, ours too (a body laid out as flex or grid is one of the
// layer's containers), `before_init` asked before litehtml's init of the
// tree: when it answers false, that init does not run (container.cpp's
// bound on table cells).
std::shared_ptr<litehtml::element> create_body(const std::shared_ptr<litehtml::document> &doc,
                                               std::function<bool(litehtml::element &)> before_init);

// True when `e` is a flex or grid item whose display the layer changed
// (CSS blockifies items; litehtml sees them as inline-blocks on a line).
bool is_item(const litehtml::element *e);

} // namespace compat

#endif
