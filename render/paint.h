// render/: painting a laid-out page with cairo. Private to render/ (C++): the
// container's draw callbacks hand their litehtml arguments to a painter;
// render.h's render_paint is the C face.
#ifndef GLANCE_RENDER_PAINT_H
#define GLANCE_RENDER_PAINT_H

#include <cairo.h>
#include <litehtml.h>

#include <map>
#include <utility>
#include <vector>

#include "fonts/fonts.h"

// One painting of one page on one cairo context. litehtml calls it only
// from document::draw, so layout never pays for it.
class render_painter {
public:
    explicit render_painter(cairo_t *cr);
    ~render_painter();
    render_painter(const render_painter &) = delete;
    render_painter &operator=(const render_painter &) = delete;

    void text(const char *text, fonts_font *font, const litehtml::web_color &color,
              const litehtml::position &pos);
    void background(const litehtml::background_paint &bg);
    void borders(const litehtml::borders &b, const litehtml::position &pos);
    void list_marker(const litehtml::list_marker &m);
    void push_clip(const litehtml::position &pos, bool valid_x, bool valid_y);
    void pop_clip();

private:
    cairo_t *cr_;
    cairo_font_options_t *options_;
    int clips_ = 0; // set_clip calls not yet undone
    // cairo faces opened from the files fonts/ measured with, one per face.
    std::map<std::pair<const char *, int>, cairo_font_face_t *> faces_;
    std::vector<fonts_glyph> glyphs_;
    std::vector<cairo_glyph_t> run_;

    cairo_font_face_t *face(const char *file, int index);
    void placeholder(double x, double y, double w, double h);
};

#endif
