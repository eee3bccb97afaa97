// render/: the page painted with cairo, through the litehtml container's draw
// callbacks (container.cpp forwards them here).
//
// Text is drawn glyph by glyph from the faces fonts/ measured it with, at the
// advances fonts/ summed (fonts_text_glyphs): a painted word is exactly as
// wide as the word litehtml placed, CJK fallback faces included. cairo opens
// each face itself from its file (cairo_ft_font_face_create_for_pattern with
// FC_FILE and FC_INDEX) rather than borrowing fonts/' FT_Face: cairo keeps
// faces in process-wide caches that would outlive a glance_context and its
// FreeType faces.
//
// Images are not fetched: an image is a grey placeholder box of its laid-out
// size, with its diagonals drawn.

#include "render/paint.h"

#include <cairo-ft.h>
#include <fontconfig/fontconfig.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <string>

namespace {

void set_color(cairo_t *cr, const litehtml::web_color &c)
{
    cairo_set_source_rgba(cr, c.red / 255.0, c.green / 255.0, c.blue / 255.0, c.alpha / 255.0);
}

// A rectangle with elliptical corners (CSS border radii, in px).
void rounded_rect(cairo_t *cr, double x, double y, double w, double h,
                  const litehtml::border_radiuses &r, double inset)
{
    x += inset;
    y += inset;
    w -= 2 * inset;
    h -= 2 * inset;
    if (w <= 0 || h <= 0)
        return;
    auto corner = [&](double cx, double cy, double rx, double ry, double a0) {
        rx = std::max(0.0, rx - inset);
        ry = std::max(0.0, ry - inset);
        if (rx <= 0 || ry <= 0) {
            cairo_line_to(cr, cx, cy);
            return;
        }
        // The corner's centre, inward from the box's corner point.
        double ox = cx + (cx == x ? rx : -rx), oy = cy + (cy == y ? ry : -ry);
        cairo_save(cr);
        cairo_translate(cr, ox, oy);
        cairo_scale(cr, rx, ry);
        cairo_arc(cr, 0, 0, 1, a0, a0 + M_PI / 2);
        cairo_restore(cr);
    };
    cairo_new_sub_path(cr);
    corner(x, y, r.top_left_x, r.top_left_y, M_PI);
    corner(x + w, y, r.top_right_x, r.top_right_y, 3 * M_PI / 2);
    corner(x + w, y + h, r.bottom_right_x, r.bottom_right_y, 0);
    corner(x, y + h, r.bottom_left_x, r.bottom_left_y, M_PI / 2);
    cairo_close_path(cr);
}

bool has_radius(const litehtml::border_radiuses &r)
{
    return r.top_left_x > 0 || r.top_right_x > 0 || r.bottom_right_x > 0 || r.bottom_left_x > 0;
}

bool drawn(const litehtml::border &b)
{
    return b.width > 0 && b.style != litehtml::border_style_none &&
           b.style != litehtml::border_style_hidden && b.color.alpha > 0;
}

bool same(const litehtml::border &a, const litehtml::border &b)
{
    return a.width == b.width && a.style == b.style && a.color.red == b.color.red &&
           a.color.green == b.color.green && a.color.blue == b.color.blue &&
           a.color.alpha == b.color.alpha;
}

// Dotted and dashed borders are stroked along the middle of the side.
void dash_for(cairo_t *cr, const litehtml::border &b)
{
    double w = b.width;
    if (b.style == litehtml::border_style_dotted) {
        double d[] = {w, w};
        cairo_set_dash(cr, d, 2, 0);
    } else if (b.style == litehtml::border_style_dashed) {
        double d[] = {3 * w, 3 * w};
        cairo_set_dash(cr, d, 2, 0);
    } else {
        cairo_set_dash(cr, nullptr, 0, 0);
    }
}

} // namespace

render_painter::render_painter(cairo_t *cr) : cr_(cr)
{
    // Unhinted outlines at the positions given: the widths stay the
    // measured ones (fonts/ reads unhinted advances).
    options_ = cairo_font_options_create();
    cairo_font_options_set_antialias(options_, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options_, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options_, CAIRO_HINT_METRICS_OFF);
    if (cairo_font_options_status(options_) != CAIRO_STATUS_SUCCESS)
        throw std::bad_alloc();
    cairo_save(cr_);
    cairo_set_font_options(cr_, options_);
}

render_painter::~render_painter()
{
    while (clips_ > 0)
        pop_clip();
    cairo_restore(cr_);
    for (auto &f : faces_)
        if (f.second)
            cairo_font_face_destroy(f.second);
    cairo_font_options_destroy(options_);
}

cairo_font_face_t *render_painter::face(const char *file, int index)
{
    auto key = std::make_pair(file, index);
    auto it = faces_.find(key);
    if (it != faces_.end())
        return it->second;
    cairo_font_face_t *f = nullptr;
    FcPattern *pat = FcPatternCreate();
    if (!pat)
        throw std::bad_alloc();
    if (FcPatternAddString(pat, FC_FILE, (const FcChar8 *)file) &&
        FcPatternAddInteger(pat, FC_INDEX, index)) {
        f = cairo_ft_font_face_create_for_pattern(pat);
        if (cairo_font_face_status(f) != CAIRO_STATUS_SUCCESS) {
            cairo_font_face_destroy(f);
            f = nullptr;
        }
    }
    FcPatternDestroy(pat);
    faces_[key] = f; // a face cairo cannot open is not retried
    return f;
}

void render_painter::text(const char *s, fonts_font *font, const litehtml::web_color &color,
                          const litehtml::position &pos)
{
    size_t len = s ? strlen(s) : 0;
    if (!font || len == 0 || color.alpha == 0)
        return;
    if (glyphs_.size() < len)
        glyphs_.resize(len); // at most one glyph per byte
    size_t n = fonts_text_glyphs(font, s, len, glyphs_.data(), glyphs_.size());
    fonts_metrics m;
    fonts_get_metrics(font, &m);
    // litehtml gives the word's box, as tall as the font's line; the
    // baseline sits the descent above its bottom.
    double baseline = pos.bottom() - m.descent;
    cairo_save(cr_);
    set_color(cr_, color);
    cairo_set_font_size(cr_, fonts_size_px(font));
    // One cairo_show_glyphs per run of glyphs from one face.
    for (size_t i = 0; i < n;) {
        size_t j = i;
        run_.clear();
        while (j < n && glyphs_[j].file == glyphs_[i].file &&
               glyphs_[j].face_index == glyphs_[i].face_index) {
            if (glyphs_[j].index != 0)
                run_.push_back(cairo_glyph_t{glyphs_[j].index, pos.x + glyphs_[j].x, baseline});
            j++;
        }
        cairo_font_face_t *f = run_.empty() ? nullptr : face(glyphs_[i].file, glyphs_[i].face_index);
        if (f) {
            cairo_set_font_face(cr_, f);
            cairo_show_glyphs(cr_, run_.data(), (int)run_.size());
        }
        i = j;
    }
    cairo_restore(cr_);
}

void render_painter::placeholder(double x, double y, double w, double h)
{
    cairo_save(cr_);
    cairo_rectangle(cr_, x, y, w, h);
    cairo_set_source_rgb(cr_, 0.91, 0.91, 0.91);
    cairo_fill_preserve(cr_);
    cairo_clip(cr_);
    cairo_set_line_width(cr_, 1);
    cairo_set_source_rgb(cr_, 0.75, 0.75, 0.75);
    cairo_move_to(cr_, x, y);
    cairo_line_to(cr_, x + w, y + h);
    cairo_move_to(cr_, x + w, y);
    cairo_line_to(cr_, x, y + h);
    cairo_stroke(cr_);
    cairo_set_source_rgb(cr_, 0.62, 0.62, 0.62);
    cairo_rectangle(cr_, x + 0.5, y + 0.5, w - 1, h - 1);
    cairo_stroke(cr_);
    cairo_restore(cr_);
}

void render_painter::background(const litehtml::background_paint &bg)
{
    const litehtml::position &c = bg.clip_box, &b = bg.border_box;
    if (bg.color.alpha > 0) {
        cairo_save(cr_);
        // The root element's background is the canvas's: all of it.
        if (!bg.is_root) {
            cairo_rectangle(cr_, c.x, c.y, c.width, c.height);
            cairo_clip(cr_);
            if (has_radius(bg.border_radius)) {
                rounded_rect(cr_, b.x, b.y, b.width, b.height, bg.border_radius, 0);
                cairo_clip(cr_);
            }
        }
        set_color(cr_, bg.color);
        cairo_paint(cr_);
        cairo_restore(cr_);
    }
    // An image (litehtml paints <img> as a background of its own size).
    if (!bg.image.empty() && bg.image_size.width > 0 && bg.image_size.height > 0) {
        cairo_save(cr_);
        cairo_rectangle(cr_, c.x, c.y, c.width, c.height);
        cairo_clip(cr_);
        placeholder(bg.position_x, bg.position_y, bg.image_size.width, bg.image_size.height);
        cairo_restore(cr_);
    }
}

void render_painter::borders(const litehtml::borders &bd, const litehtml::position &p)
{
    const litehtml::border &l = bd.left, &t = bd.top, &r = bd.right, &btm = bd.bottom;
    if (!drawn(l) && !drawn(t) && !drawn(r) && !drawn(btm))
        return;
    double x = p.x, y = p.y, w = p.width, h = p.height;
    cairo_save(cr_);
    if (has_radius(bd.radius) && same(l, t) && same(l, r) && same(l, btm)) {
        // One rounded outline, stroked along the middle of the border.
        set_color(cr_, l.color);
        dash_for(cr_, l);
        cairo_set_line_width(cr_, l.width);
        rounded_rect(cr_, x, y, w, h, bd.radius, l.width / 2.0);
        cairo_stroke(cr_);
        cairo_restore(cr_);
        return;
    }
    // Each side a trapezoid from the outer edge to the inner one, so that
    // sides of different widths meet on the diagonal, as browsers draw them.
    struct side {
        const litehtml::border &b;
        double pts[8];      // outer a, outer b, inner b, inner a
        double mid[4];      // the middle line, for dashes
    } sides[] = {
        {t, {x, y, x + w, y, x + w - r.width, y + t.width, x + l.width, y + t.width},
         {x, y + t.width / 2.0, x + w, y + t.width / 2.0}},
        {r, {x + w, y, x + w, y + h, x + w - r.width, y + h - btm.width, x + w - r.width, y + t.width},
         {x + w - r.width / 2.0, y, x + w - r.width / 2.0, y + h}},
        {btm, {x + w, y + h, x, y + h, x + l.width, y + h - btm.width, x + w - r.width, y + h - btm.width},
         {x, y + h - btm.width / 2.0, x + w, y + h - btm.width / 2.0}},
        {l, {x, y + h, x, y, x + l.width, y + t.width, x + l.width, y + h - btm.width},
         {x + l.width / 2.0, y, x + l.width / 2.0, y + h}},
    };
    for (const side &s : sides) {
        if (!drawn(s.b))
            continue;
        set_color(cr_, s.b.color);
        if (s.b.style == litehtml::border_style_dotted || s.b.style == litehtml::border_style_dashed) {
            dash_for(cr_, s.b);
            cairo_set_line_width(cr_, s.b.width);
            cairo_move_to(cr_, s.mid[0], s.mid[1]);
            cairo_line_to(cr_, s.mid[2], s.mid[3]);
            cairo_stroke(cr_);
            continue;
        }
        cairo_move_to(cr_, s.pts[0], s.pts[1]);
        for (int i = 2; i < 8; i += 2)
            cairo_line_to(cr_, s.pts[i], s.pts[i + 1]);
        cairo_close_path(cr_);
        cairo_fill(cr_);
    }
    cairo_restore(cr_);
}

void render_painter::list_marker(const litehtml::list_marker &m)
{
    const litehtml::position &p = m.pos;
    if (!m.image.empty()) {
        if (p.width > 0 && p.height > 0)
            placeholder(p.x, p.y, p.width, p.height);
        return;
    }
    if (m.marker_type >= litehtml::list_style_type_armenian) {
        // Numbering litehtml has no text for (Armenian, Hiragana, ...):
        // decimal, right-aligned before the item, as it does the others.
        std::string s = std::to_string(m.index) + ".";
        fonts_font *f = (fonts_font *)m.font;
        if (!f)
            return;
        int tw = fonts_text_width(f, s.data(), s.size());
        litehtml::position tp = p;
        tp.x = p.right() - tw;
        tp.width = tw;
        text(s.c_str(), f, m.color, tp);
        return;
    }
    cairo_save(cr_);
    set_color(cr_, m.color);
    double cx = p.x + p.width / 2.0, cy = p.y + p.height / 2.0;
    double rad = std::min(p.width, p.height) / 2.0;
    switch (m.marker_type) {
    case litehtml::list_style_type_circle:
        cairo_set_line_width(cr_, 1);
        cairo_arc(cr_, cx, cy, std::max(0.5, rad - 0.5), 0, 2 * M_PI);
        cairo_stroke(cr_);
        break;
    case litehtml::list_style_type_square:
        cairo_rectangle(cr_, p.x, p.y, p.width, p.height);
        cairo_fill(cr_);
        break;
    default: // disc
        cairo_arc(cr_, cx, cy, rad, 0, 2 * M_PI);
        cairo_fill(cr_);
        break;
    }
    cairo_restore(cr_);
}

void render_painter::push_clip(const litehtml::position &p, bool valid_x, bool valid_y)
{
    // An axis litehtml marks invalid is not clipped on.
    const double far = 1e7;
    double x = valid_x ? p.x : -far, w = valid_x ? p.width : 2 * far;
    double y = valid_y ? p.y : -far, h = valid_y ? p.height : 2 * far;
    cairo_save(cr_);
    cairo_rectangle(cr_, x, y, std::max(0.0, w), std::max(0.0, h));
    cairo_clip(cr_);
    clips_++;
}

void render_painter::pop_clip()
{
    if (clips_ == 0)
        return; // litehtml pairs them; never undo the painter's own save
    cairo_restore(cr_);
    clips_--;
}
