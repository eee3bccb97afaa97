// render/compat.cpp: flex and grid containers laid out with litehtml's own
// block and line layouts (compat.h says how).

#include "render/compat.h"
#include "render/styled.h"

#include <litehtml/el_anchor.h>
#include <litehtml/el_body.h>
#include <litehtml/el_break.h>
#include <litehtml/el_div.h>
#include <litehtml/el_font.h>
#include <litehtml/el_image.h>
#include <litehtml/el_link.h>
#include <litehtml/el_para.h>
#include <litehtml/el_table.h>
#include <litehtml/el_tr.h>

#include <algorithm>
#include <climits>
#include <link.h>
#include <cmath>
#include <cstdlib>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <strings.h>
#include <string>
#include <typeinfo>
#include <vector>

namespace compat {
namespace {

bool ieq(const char *a, const char *b)
{
    return a && strcasecmp(a, b) == 0;
}

bool starts(const std::string &s, const char *prefix)
{
    return strncasecmp(s.c_str(), prefix, strlen(prefix)) == 0;
}

// Splits a CSS value at white space (and, with `comma`, at commas) that is
// not inside parentheses.
std::vector<std::string> split_value(const char *s, bool comma = false)
{
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (; s && *s; s++) {
        char c = *s;
        if (c == '(')
            depth++;
        else if (c == ')' && depth > 0)
            depth--;
        bool sep = depth == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
                                  (comma && c == ','));
        if (sep) {
            if (!cur.empty())
                out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

// A length in px against `percent_of`; `fallback` for auto, none and
// keywords. What litehtml cannot read (calc(), 65ch) is evaluated against
// styled.h's math_context.
int length_px(const litehtml::element *el, const std::string &s, int percent_of, int fallback)
{
    if (s.empty())
        return fallback;
    if (css_math_needed(s.c_str())) {
        css_math_ctx c = math_context(el, percent_of);
        double px;
        return css_math_eval(s.c_str(), &c, &px) ? (int)std::lround(px) : fallback;
    }
    char c = s[0];
    if (!(c == '.' || c == '-' || c == '+' || (c >= '0' && c <= '9')))
        return fallback;
    litehtml::css_length len;
    len.fromString(s, "auto");
    if (len.is_predefined())
        return fallback;
    if (len.units() == litehtml::css_units_percentage)
        return len.calc_percent(percent_of);
    return el->get_document()->cvt_units(len, el->get_font_size(), percent_of);
}

bool is_number(const std::string &s, double *v)
{
    if (s.empty())
        return false;
    char *end = nullptr;
    *v = strtod(s.c_str(), &end);
    return end && *end == 0;
}

enum class kind { none, flex_row, flex_column, grid };
enum class justify { start, center, end, between, around, evenly };

struct container_style {
    kind k = kind::none;
    bool wrap = false;
    justify just = justify::start;
    bool stretch = true; // align-items: stretch or normal
    justify align = justify::start; // align-items otherwise: start, center or end
    std::string row_gap, column_gap;
    std::string columns; // grid-template-columns
};

struct item_style {
    double grow = 0, shrink = 1;
    std::string basis = "auto";
    bool auto_left = false, auto_right = false;
    bool stretch = true; // align-self lets align-items decide, which stretches
    int span = 1;        // grid columns spanned; 0: the whole row
    int start = 0;       // grid column line it starts at (1-based); 0: next free
};

container_style read_container(const litehtml::element *el, kind k)
{
    container_style cs;
    cs.k = k;
    auto prop = [el](const char *name) { return el->get_style_property(name, false, nullptr); };
    if (k != kind::grid) {
        const char *dir = prop("flex-direction");
        const char *wrap = prop("flex-wrap");
        if (const char *flow = prop("flex-flow")) {
            for (const auto &t : split_value(flow)) {
                if (starts(t, "column") || starts(t, "row"))
                    dir = nullptr, cs.k = starts(t, "column") ? kind::flex_column : kind::flex_row;
                else if (starts(t, "wrap") || starts(t, "nowrap"))
                    cs.wrap = starts(t, "wrap");
            }
        }
        if (dir)
            cs.k = (ieq(dir, "column") || ieq(dir, "column-reverse")) ? kind::flex_column : kind::flex_row;
        if (wrap)
            cs.wrap = ieq(wrap, "wrap") || ieq(wrap, "wrap-reverse");
        const char *j = prop("justify-content");
        if (ieq(j, "center"))
            cs.just = justify::center;
        else if (ieq(j, "flex-end") || ieq(j, "end") || ieq(j, "right"))
            cs.just = justify::end;
        else if (ieq(j, "space-between"))
            cs.just = justify::between;
        else if (ieq(j, "space-around"))
            cs.just = justify::around;
        else if (ieq(j, "space-evenly"))
            cs.just = justify::evenly;
    } else {
        if (const char *cols = prop("grid-template-columns"))
            cs.columns = cols;
        else if (const char *tmpl = prop("grid-template")) {
            // rows / columns
            const char *slash = strchr(tmpl, '/');
            if (slash)
                cs.columns = slash + 1;
        }
    }
    const char *ai = prop("align-items");
    cs.stretch = !ai || ieq(ai, "stretch") || ieq(ai, "normal");
    if (ieq(ai, "center"))
        cs.align = justify::center;
    else if (ieq(ai, "flex-end") || ieq(ai, "end"))
        cs.align = justify::end;
    const char *gap = prop("gap");
    if (!gap)
        gap = prop("grid-gap");
    if (gap) {
        auto parts = split_value(gap);
        if (!parts.empty()) {
            cs.row_gap = parts[0];
            cs.column_gap = parts.size() > 1 ? parts[1] : parts[0];
        }
    }
    if (const char *g = prop("row-gap"))
        cs.row_gap = g;
    else if (const char *g2 = prop("grid-row-gap"))
        cs.row_gap = g2;
    if (const char *g = prop("column-gap"))
        cs.column_gap = g;
    else if (const char *g2 = prop("grid-column-gap"))
        cs.column_gap = g2;
    return cs;
}

// The grid line a grid-column start or end names: a number, or 0.
int grid_line(const std::string &s)
{
    double v;
    return is_number(s, &v) ? (int)v : 0;
}

item_style read_item(const litehtml::element *el)
{
    item_style is;
    auto prop = [el](const char *name) { return el->get_style_property(name, false, nullptr); };
    if (const char *flex = prop("flex")) {
        auto t = split_value(flex);
        double v;
        if (t.size() == 1 && ieq(t[0].c_str(), "none")) {
            is.grow = 0, is.shrink = 0;
        } else if (t.size() == 1 && ieq(t[0].c_str(), "auto")) {
            is.grow = 1, is.shrink = 1;
        } else if (t.size() == 1 && ieq(t[0].c_str(), "initial")) {
            is.grow = 0, is.shrink = 1;
        } else if (!t.empty()) {
            // <grow> [<shrink>] [<basis>] or <basis>; a number alone sets
            // the basis to 0.
            size_t i = 0;
            if (is_number(t[0], &v)) {
                is.grow = v;
                is.basis = "0px";
                i = 1;
                if (i < t.size() && is_number(t[i], &v)) {
                    is.shrink = v;
                    i++;
                }
            }
            if (i < t.size())
                is.basis = t[i];
        }
    }
    double v;
    if (const char *g = prop("flex-grow"); g && is_number(g, &v))
        is.grow = v;
    if (const char *s = prop("flex-shrink"); s && is_number(s, &v))
        is.shrink = v;
    if (const char *b = prop("flex-basis"))
        is.basis = b;
    is.auto_left = ieq(prop("margin-left"), "auto");
    is.auto_right = ieq(prop("margin-right"), "auto");
    const char *as = prop("align-self");
    is.stretch = !as || ieq(as, "auto") || ieq(as, "stretch") || ieq(as, "normal");

    // grid-column: <start> [/ <end>], either side a line or "span N".
    std::string start, end;
    if (const char *gc = prop("grid-column")) {
        std::string v2 = gc;
        size_t slash = v2.find('/');
        start = v2.substr(0, slash);
        if (slash != std::string::npos)
            end = v2.substr(slash + 1);
    }
    if (const char *s = prop("grid-column-start"))
        start = s;
    if (const char *e = prop("grid-column-end"))
        end = e;
    auto span_of = [](const std::string &s) {
        auto t = split_value(s.c_str());
        if (t.size() == 2 && ieq(t[0].c_str(), "span"))
            return std::max(1, atoi(t[1].c_str()));
        return 0;
    };
    auto st = split_value(start.c_str()), en = split_value(end.c_str());
    std::string s0 = st.empty() ? "" : (st.size() == 1 ? st[0] : start);
    std::string e0 = en.empty() ? "" : (en.size() == 1 ? en[0] : end);
    if (int sp = span_of(s0))
        is.span = sp;
    else
        is.start = std::max(0, grid_line(s0));
    if (int sp = span_of(e0)) {
        is.span = sp;
    } else if (int e = grid_line(e0)) {
        if (e < 0)
            is.span = 0; // to the last line: the rest of the row
        else if (is.start > 0 && e > is.start)
            is.span = e - is.start;
    }
    return is;
}

// Members litehtml keeps protected, named through a derived type so that
// the layer can read and set them on any of its elements.
struct tag_fields : litehtml::html_tag {
    static constexpr litehtml::css_length litehtml::html_tag::*width = &tag_fields::m_css_width;
    static constexpr litehtml::css_margins litehtml::html_tag::*margins =
        &tag_fields::m_css_margins;
};

// dynamic_cast<To *>(e) for an element of litehtml's or ours, none of
// whose classes inherits virtually: the step from an object's
// litehtml::element to its To is the same for every object of its class,
// so it is found once per class and thread (a cast across the class tree,
// or one that fails, as it does for every word, searches the tree each
// time: the layer asks for every child of every flex or grid container).
template <class To>
To *cast_to(litehtml::element *e)
{
    struct step {
        const std::type_info *type;
        std::ptrdiff_t by; // PTRDIFF_MIN: not a To
    };
    thread_local std::vector<step> steps;
    if (!e)
        return nullptr;
    const std::type_info *t = &typeid(*e);
    for (const step &s : steps)
        if (s.type == t)
            return s.by == PTRDIFF_MIN ? nullptr : (To *)((char *)e + s.by);
    To *to = dynamic_cast<To *>(e);
    steps.push_back({t, to ? (char *)to - (char *)e : PTRDIFF_MIN});
    return to;
}

// What the layer knows of one of its elements.
class node {
public:
    virtual ~node() = default;

    bool item = false;
    bool row_item = false; // laid out as an inline-block on a line
    item_style st;
    int extra_left = 0, extra_right = 0, extra_top = 0;
    bool width_saved = false;
    litehtml::css_length own_width; // width before the layer set one
    // Max-content widths measured so far: the room, and the width with
    // margins. Several rooms, not one: an item is asked at each width its
    // ancestors try (first pass, shrink-to-fit), and forgetting one each
    // time made nested flex rows measure their items exponentially often
    // (50 nested wrapping rows: minutes with one room, 1.8 s with four,
    // 0.14 s with eight).
    struct measured {
        int room, outer;
    } measured[8];
    int n_measured = 0, next_measured = 0;

    virtual void become_item(bool row) = 0;
    virtual void stretch_to(int outer_height) = 0;
    virtual litehtml::element *self() = 0;
};

// One grid column track.
struct track {
    double fixed = 0; // px
    double fr = 0;
    double min = 0;   // px, for fr and auto tracks
    bool is_auto = false;
};

bool parse_track(const litehtml::element *el, const std::string &t, int W, track &out)
{
    double v;
    if (t.empty() || t[0] == '[')
        return false; // a line name
    if (t.size() > 2 && strcasecmp(t.c_str() + t.size() - 2, "fr") == 0 &&
        is_number(t.substr(0, t.size() - 2), &v)) {
        out.fr = v;
        return true;
    }
    if (starts(t, "minmax(")) {
        auto args = split_value(t.substr(7, t.size() - 8).c_str(), true);
        if (args.size() != 2)
            return false;
        track lo{}, hi{};
        bool has_lo = parse_track(el, args[0], W, lo), has_hi = parse_track(el, args[1], W, hi);
        double min = has_lo ? lo.fixed : 0;
        if (has_hi && hi.fr > 0) {
            out.fr = hi.fr;
            out.min = min;
        } else if (has_hi && !hi.is_auto) {
            out.fixed = std::max(min, hi.fixed);
        } else {
            out.is_auto = true;
            out.min = min;
        }
        return true;
    }
    if (ieq(t.c_str(), "auto") || ieq(t.c_str(), "min-content") || ieq(t.c_str(), "max-content") ||
        starts(t, "fit-content(")) {
        out.is_auto = true;
        return true;
    }
    int px = length_px(el, t, W, -1);
    if (px < 0)
        return false;
    out.fixed = px;
    return true;
}

// The widths of the columns of grid-template-columns at content width W.
std::vector<int> grid_columns(const litehtml::element *el, const std::string &value, int W, int gap)
{
    std::vector<track> tracks;
    for (const auto &t : split_value(value.c_str())) {
        if (starts(t, "repeat(") && t.back() == ')') {
            std::string inner = t.substr(7, t.size() - 8);
            size_t comma = inner.find(',');
            if (comma == std::string::npos)
                continue;
            std::string count = inner.substr(0, comma);
            count.erase(std::remove_if(count.begin(), count.end(), ::isspace), count.end());
            std::vector<track> unit;
            for (const auto &u : split_value(inner.c_str() + comma + 1)) {
                track tr;
                if (parse_track(el, u, W, tr))
                    unit.push_back(tr);
            }
            if (unit.empty())
                continue;
            int n = atoi(count.c_str());
            if (ieq(count.c_str(), "auto-fill") || ieq(count.c_str(), "auto-fit")) {
                double size = 0;
                for (const auto &u : unit)
                    size += std::max(u.fixed, u.min) + gap;
                n = size > 0 ? (int)std::floor((W + gap) / size) : 1;
            }
            n = std::max(1, std::min(n, 1000));
            for (int i = 0; i < n; i++)
                tracks.insert(tracks.end(), unit.begin(), unit.end());
        } else {
            track tr;
            if (parse_track(el, t, W, tr))
                tracks.push_back(tr);
        }
    }
    std::vector<int> widths;
    if (tracks.empty())
        return widths;
    double fixed = gap * (double)(tracks.size() - 1), fr = 0;
    bool any_fr = false;
    for (const auto &t : tracks) {
        fixed += t.fixed;
        any_fr = any_fr || t.fr > 0;
    }
    // Without measuring content, auto tracks share the free space as 1fr
    // each when no fr track takes it.
    for (const auto &t : tracks)
        fr += t.fr > 0 ? t.fr : (t.is_auto && !any_fr ? 1 : 0);
    double free = std::max(0.0, W - fixed);
    for (const auto &t : tracks) {
        double w = t.fixed;
        double share = t.fr > 0 ? t.fr : (t.is_auto && !any_fr ? 1 : 0);
        if (share > 0)
            w = std::max(t.min, fr > 0 ? free * share / fr : 0);
        else if (t.is_auto)
            w = t.min;
        widths.push_back((int)std::floor(w));
    }
    return widths;
}

// A word or a space of a text run: litehtml's text elements have no tag.
bool is_text(const litehtml::element::ptr &c)
{
    const char *t = c->get_tagName();
    return !t || !t[0];
}

// One flex item or grid item as the arrangement sees it.
struct entry {
    litehtml::element *el;
    node *n;           // nullptr: an element litehtml made (an image, say)
    int edges;         // margins, padding and borders, left and right
    int pad_border;    // padding and borders, left and right
    bool border_box;
    double base;       // content width
    double hyp;        // outer width: base + edges
};

class layout {
public:
    container_style cs;
    std::vector<std::vector<node *>> lines; // items per line, for stretching

    // Gives every item of `el` (a flex row or a grid) its width and extra
    // margins for content width W.
    void arrange(litehtml::element *el, const litehtml::elements_vector &children, int W)
    {
        lines.clear();
        int col_gap = std::max(0, length_px(el, cs.column_gap, W, 0));
        int row_gap = std::max(0, length_px(el, cs.row_gap, W, 0));
        std::vector<entry> items;
        for (const auto &c : children) {
            litehtml::element *ce = c.get();
            if (ce->get_display() == litehtml::display_none || ce->is_white_space())
                continue;
            litehtml::element_position pos = ce->get_element_position();
            if (pos == litehtml::element_position_absolute || pos == litehtml::element_position_fixed)
                continue;
            node *n = cast_to<node>(ce);
            if (n && !n->item)
                n = nullptr;
            if (n) {
                n->extra_left = n->extra_right = n->extra_top = 0;
                restore_width(ce, n);
            } else if (is_text(c)) {
                continue; // text runs flow on the lines as they are
            }
            items.push_back(make_entry(ce, n, W));
        }
        if (items.empty())
            return;
        if (cs.k == kind::grid)
            arrange_grid(el, items, W, col_gap, row_gap);
        else
            arrange_flex(el, items, W, col_gap, row_gap);
    }

    // A column: blocks one under another with the row gap between; unless
    // the items stretch, an item without a width is as wide as its content
    // and aligned by align-items or its auto margins.
    void arrange_column(litehtml::element *el, const litehtml::elements_vector &children, int W)
    {
        int gap = std::max(0, length_px(el, cs.row_gap, W, 0));
        bool first = true;
        for (const auto &c : children) {
            litehtml::element *ce = c.get();
            node *n = cast_to<node>(ce);
            if (!n || !n->item || ce->get_display() == litehtml::display_none)
                continue;
            n->extra_left = n->extra_right = 0;
            n->extra_top = first ? 0 : gap;
            first = false;
            restore_width(ce, n);
            bool autos = n->st.auto_left || n->st.auto_right;
            if (cs.stretch && n->st.stretch && !autos)
                continue;
            int outer = measure(ce, n, W);
            entry e = make_entry(ce, n, W);
            if (n->own_width.is_predefined())
                set_width(e, std::max(0, outer - e.edges));
            int left = std::max(0, W - outer);
            if (autos)
                n->extra_left = n->st.auto_left && n->st.auto_right ? left / 2 : (n->st.auto_left ? left : 0);
            else if (cs.align == justify::center)
                n->extra_left = left / 2;
            else if (cs.align == justify::end)
                n->extra_left = left;
        }
    }

private:
    // Puts back the width the item had before the layer gave it one (the
    // first time: remembers it), so that it is measured as its CSS says.
    static void restore_width(litehtml::element *el, node *n)
    {
        if (!n->width_saved) {
            n->own_width = el->get_css_width();
            n->width_saved = true;
        }
        el->set_css_width(n->own_width);
    }

    // An item with its margins, padding and borders at content width W.
    static entry make_entry(litehtml::element *el, node *n, int W)
    {
        el->calc_outlines(W);
        entry e{el, n, el->content_margins_left() + el->content_margins_right(), 0, false, 0, 0};
        e.pad_border = e.edges - el->margin_left() - el->margin_right();
        e.border_box = ieq(el->get_style_property("box-sizing", false, nullptr), "border-box");
        return e;
    }

    // A descendant of an item being measured, sized by its content: CSS
    // takes a box's contribution to its ancestor's max-content width with
    // a width in percent as auto (it would be a percentage of itself) and
    // auto margins as 0, where litehtml takes the percentage of the room
    // and the margins that centre the box in it: a search box 100% wide, or
    // a logo centred with margin: auto, stretched a sidebar holding it to
    // the whole window.
    struct sized {
        litehtml::html_tag *tag;
        litehtml::css_length width, left, right;
        void restore()
        {
            tag->*tag_fields::width = width;
            (tag->*tag_fields::margins).left = left;
            (tag->*tag_fields::margins).right = right;
        }
    };

    static void content_sizing(litehtml::element *el, std::vector<sized> &changed)
    {
        for (size_t i = 0, k = el->get_children_count(); i < k; i++) {
            litehtml::element *c = el->get_child((int)i).get();
            auto *t = cast_to<litehtml::html_tag>(c);
            if (!t)
                continue;
            litehtml::css_length &w = t->*tag_fields::width;
            litehtml::css_margins &m = t->*tag_fields::margins;
            bool percent = !w.is_predefined() && w.units() == litehtml::css_units_percentage;
            if (percent || m.left.is_predefined() || m.right.is_predefined()) {
                changed.push_back({t, w, m.left, m.right});
                if (percent)
                    w.predef(0);
                if (m.left.is_predefined())
                    m.left.set_value(0, litehtml::css_units_px);
                if (m.right.is_predefined())
                    m.right.set_value(0, litehtml::css_units_px);
            }
            content_sizing(c, changed);
        }
    }

    // The max-content width of an item within W, margins included
    // (litehtml's shrink-to-fit width of the item laid out at W), measured
    // once per width (node::measured).
    static int measure(litehtml::element *el, node *n, int W)
    {
        if (n)
            for (int i = 0; i < n->n_measured; i++)
                if (n->measured[i].room == W)
                    return n->measured[i].outer;
        std::vector<sized> changed;
        content_sizing(el, changed);
        int outer = el->render(0, 0, W);
        for (sized &c : changed)
            c.restore();
        if (n) {
            n->measured[n->next_measured] = {W, outer};
            n->next_measured = (n->next_measured + 1) % 8;
            if (n->n_measured < 8)
                n->n_measured++;
        }
        return outer;
    }

    static void set_width(entry &e, double content)
    {
        if (!e.n)
            return;
        litehtml::css_length w;
        double css = content + (e.border_box ? e.pad_border : 0);
        w.set_value((float)std::max(0.0, std::floor(css)), litehtml::css_units_px);
        e.el->set_css_width(w);
    }

    // Ends a line whose items take `used` of W. When another line follows,
    // what is left goes to the right margin of its last item, so that the
    // next item starts a line there too.
    void close_line(std::vector<entry *> &line, int used, int W, bool more)
    {
        if (line.empty())
            return;
        std::vector<node *> ns;
        for (auto *e : line)
            if (e->n)
                ns.push_back(e->n);
        entry *last = line.back();
        if (more && last->n && used < W)
            last->n->extra_right += W - used;
        lines.push_back(ns);
        line.clear();
    }

    void arrange_flex(litehtml::element *, std::vector<entry> &items, int W, int col_gap, int row_gap)
    {
        for (auto &e : items) {
            const item_style *is = e.n ? &e.n->st : nullptr;
            int basis = -1;
            if (is && !ieq(is->basis.c_str(), "auto") && !ieq(is->basis.c_str(), "content"))
                basis = length_px(e.el, is->basis, W, -1);
            if (basis >= 0) {
                e.base = e.border_box ? std::max(0, basis - e.pad_border) : basis;
            } else {
                int outer = measure(e.el, e.n, W);
                e.base = std::max(0, outer - e.edges);
            }
            e.hyp = e.base + e.edges;
        }
        std::vector<entry *> line;
        double used = 0;
        int row = 0;
        size_t i = 0;
        while (i < items.size()) {
            // Collect a line.
            line.clear();
            used = 0;
            while (i < items.size()) {
                double add = items[i].hyp + (line.empty() ? 0 : col_gap);
                if (cs.wrap && !line.empty() && used + add > W)
                    break;
                line.push_back(&items[i]);
                used += add;
                i++;
            }
            double free = W - used;
            if (free > 0) {
                double grow = 0;
                for (auto *e : line)
                    grow += e->n ? e->n->st.grow : 0;
                if (grow > 0) {
                    for (auto *e : line)
                        if (e->n)
                            e->base += free * e->n->st.grow / grow;
                    free = 0;
                }
            } else if (free < 0) {
                double shrink = 0;
                for (auto *e : line)
                    shrink += e->n ? e->n->st.shrink * e->base : 0;
                if (shrink > 0) {
                    for (auto *e : line)
                        if (e->n)
                            e->base = std::max(0.0, e->base + free * e->n->st.shrink * e->base / shrink);
                }
                free = 0;
            }
            // Round widths down, then share what is left.
            int total = 0;
            for (size_t k = 0; k < line.size(); k++) {
                entry *e = line[k];
                set_width(*e, e->base);
                total += (int)std::floor(e->base) + e->edges + (k ? col_gap : 0);
                if (e->n && k)
                    e->n->extra_left += col_gap;
                if (e->n && row)
                    e->n->extra_top += row_gap;
            }
            int left = std::max(0, W - total);
            int autos = 0;
            for (auto *e : line)
                if (e->n)
                    autos += e->n->st.auto_left + e->n->st.auto_right;
            int placed = 0; // of `left`
            if (left > 0 && autos > 0) {
                for (auto *e : line) {
                    if (!e->n)
                        continue;
                    if (e->n->st.auto_left) {
                        e->n->extra_left += left / autos;
                        placed += left / autos;
                    }
                    if (e->n->st.auto_right) {
                        e->n->extra_right += left / autos;
                        placed += left / autos;
                    }
                }
            } else if (left > 0 && line.front()->n) {
                size_t n = line.size();
                switch (cs.just) {
                case justify::start:
                    break;
                case justify::center:
                    line.front()->n->extra_left += left / 2;
                    placed = left / 2;
                    break;
                case justify::end:
                    line.front()->n->extra_left += left;
                    placed = left;
                    break;
                case justify::between:
                    for (size_t k = 1; k < n; k++)
                        if (line[k]->n) {
                            line[k]->n->extra_left += (int)(left / (n - 1));
                            placed += (int)(left / (n - 1));
                        }
                    break;
                case justify::around:
                case justify::evenly: {
                    int each = cs.just == justify::around ? (int)(left / (2 * n)) : (int)(left / (n + 1));
                    for (size_t k = 0; k < n; k++)
                        if (line[k]->n) {
                            int add = cs.just == justify::around && k ? 2 * each : each;
                            line[k]->n->extra_left += add;
                            placed += add;
                        }
                    break;
                }
                }
            }
            close_line(line, total + placed, W, i < items.size());
            row++;
        }
    }

    void arrange_grid(litehtml::element *el, std::vector<entry> &items, int W, int col_gap, int row_gap)
    {
        std::vector<int> cols = grid_columns(el, cs.columns, W, col_gap);
        if (cols.empty())
            cols.push_back(W);
        int ncols = (int)cols.size();
        auto span_width = [&](int from, int span) {
            int w = 0;
            for (int c = from; c < from + span && c < ncols; c++)
                w += cols[(size_t)c] + (c > from ? col_gap : 0);
            return w;
        };
        std::vector<entry *> line;
        int col = 0, row = 0, used = 0;
        for (auto &e : items) {
            const item_style *is = e.n ? &e.n->st : nullptr;
            int span = is ? (is->span == 0 ? ncols : std::min(is->span, ncols)) : 1;
            int start = is && is->start > 0 && is->start <= ncols ? is->start - 1 : -1;
            if (start >= 0 && is->span == 0)
                span = ncols - start;
            if (start >= 0 && start + span > ncols)
                span = ncols - start;
            int at = start >= 0 ? start : col;
            if (!line.empty() && (at < col || at + span > ncols)) {
                close_line(line, used, W, true);
                row++;
                col = 0;
                used = 0;
                at = start >= 0 ? start : 0;
            }
            // The columns skipped to reach a named start line.
            int skip = at > col ? span_width(col, at - col) + col_gap : 0;
            int w = span_width(at, span);
            set_width(e, std::max(0, w - e.edges));
            if (e.n) {
                e.n->extra_left += skip + (at > 0 ? col_gap : 0);
                if (row)
                    e.n->extra_top += row_gap;
            }
            used += skip + (at > 0 ? col_gap : 0) + w;
            line.push_back(&e);
            col = at + span;
            if (col >= ncols) {
                close_line(line, used, W, &e != &items.back());
                row++;
                col = 0;
                used = 0;
            }
        }
        close_line(line, used, W, false);
    }
};

template <class Base>
class element : public styled<Base>, public node {
public:
    explicit element(const std::shared_ptr<litehtml::document> &doc) : styled<Base>(doc) {}

    void parse_styles(bool is_reparse) override
    {
        styled<Base>::parse_styles(is_reparse);
        lay_.reset();
        const char *d = this->get_style_property("display", false, nullptr);
        if (!d)
            return;
        kind k = kind::none;
        bool inl = false;
        if (ieq(d, "flex") || ieq(d, "inline-flex")) {
            k = kind::flex_row;
            inl = ieq(d, "inline-flex");
        } else if (ieq(d, "grid") || ieq(d, "inline-grid")) {
            k = kind::grid;
            inl = ieq(d, "inline-grid");
        }
        if (k == kind::none)
            return;
        // litehtml read the unknown value as inline; floats and positioned
        // boxes it has already made blocks.
        if (this->m_display == litehtml::display_inline)
            this->m_display = inl ? litehtml::display_inline_block : litehtml::display_block;
        lay_.reset(new layout);
        lay_->cs = read_container(this, k);
        // Items line up at the start; the layer places them itself.
        this->m_text_align = litehtml::text_align_left;
        // White space makes no item: a run of text (the words and spaces
        // between two elements) loses the white space at its ends, and one
        // of white space only goes; the spaces between its words stay.
        auto &kids = this->m_children;
        litehtml::elements_vector kept;
        kept.reserve(kids.size());
        for (size_t i = 0; i < kids.size();) {
            if (!is_text(kids[i])) {
                kept.push_back(kids[i++]);
                continue;
            }
            size_t end = i;
            while (end < kids.size() && is_text(kids[end]))
                end++;
            size_t a = i, b = end;
            while (a < b && kids[a]->is_white_space())
                a++;
            while (b > a && kids[b - 1]->is_white_space())
                b--;
            kept.insert(kept.end(), kids.begin() + a, kids.begin() + b);
            i = end;
        }
        kids.swap(kept);
        bool row = lay_->cs.k != kind::flex_column;
        for (const auto &c : kids)
            if (node *n = cast_to<node>(c.get()))
                n->become_item(row);
    }

    void calc_outlines(int parent_width) override
    {
        styled<Base>::calc_outlines(parent_width);
        this->m_margins.left += extra_left;
        this->m_margins.right += extra_right;
        this->m_margins.top += extra_top;
        // A flex or grid item holds its children's margins (it starts a
        // formatting context); litehtml would let them through an item
        // without top or bottom padding or border. A pixel of padding
        // while it lays out stops that; render() takes the pixel back.
        pad_top_ = pad_bottom_ = false;
        if (item) {
            if (!this->m_padding.top && !this->m_borders.top)
                this->m_padding.top = 1, pad_top_ = true;
            if (!this->m_padding.bottom && !this->m_borders.bottom)
                this->m_padding.bottom = 1, pad_bottom_ = true;
        }
    }

    int render(int x, int y, int max_width, bool second_pass) override
    {
        int ret = render_own(x, y, max_width, second_pass);
        if (pad_top_) {
            this->m_padding.top = 0;
            this->m_pos.y -= 1;
            pad_top_ = false;
        }
        if (pad_bottom_) {
            this->m_padding.bottom = 0;
            pad_bottom_ = false;
        }
        return ret;
    }

    int render_own(int x, int y, int max_width, bool second_pass)
    {
        if (!lay_ || this->m_display == litehtml::display_none)
            return Base::render(x, y, max_width, second_pass);
        if (lay_->cs.k == kind::flex_column) {
            lay_->arrange_column(this, this->m_children, content_width(max_width));
            return Base::render(x, y, max_width, second_pass);
        }
        lay_->arrange(this, this->m_children, content_width(max_width));
        int ret = Base::render(x, y, max_width, second_pass);
        if (lay_->cs.stretch) {
            for (const auto &line : lay_->lines) {
                int h = 0;
                for (node *n : line)
                    h = std::max(h, n->self()->height());
                for (node *n : line)
                    if (n->st.stretch)
                        n->stretch_to(h);
            }
        }
        return ret;
    }

    void become_item(bool row) override
    {
        litehtml::element_position pos = this->get_element_position();
        if (pos == litehtml::element_position_absolute || pos == litehtml::element_position_fixed)
            return;
        litehtml::style_display d = this->m_display;
        if (d == litehtml::display_none)
            return;
        if (row) {
            if (d == litehtml::display_table || d == litehtml::display_inline_table)
                this->m_display = litehtml::display_inline_table;
            else
                this->m_display = litehtml::display_inline_block;
            this->m_vertical_align = litehtml::va_top;
        } else if (d == litehtml::display_inline || d == litehtml::display_inline_block) {
            this->m_display = litehtml::display_block;
        }
        this->m_float = litehtml::float_none;
        item = true;
        row_item = row;
        st = read_item(this);
    }

    void stretch_to(int outer_height) override
    {
        if (!this->m_css_height.is_predefined())
            return;
        int h = outer_height - (this->height() - this->m_pos.height);
        if (h > this->m_pos.height)
            this->m_pos.height = h;
    }

    litehtml::element *self() override { return this; }

private:
    std::unique_ptr<layout> lay_;
    bool pad_top_ = false, pad_bottom_ = false;

    // The width of the content box at `max_width` of room, as litehtml's
    // block layout computes it.
    int content_width(int max_width)
    {
        this->calc_outlines(max_width);
        int W;
        if (!this->m_css_width.is_predefined()) {
            W = this->calc_width(max_width);
            if (this->m_box_sizing == litehtml::box_sizing_border_box)
                W -= this->m_padding.width() + this->m_borders.width();
        } else {
            W = max_width - this->content_margins_left() - this->content_margins_right();
        }
        if (!this->m_css_max_width.is_predefined()) {
            int mw = this->get_document()->cvt_units(this->m_css_max_width, this->m_font_size, max_width);
            /* INT_MIN: a length past int's range, which litehtml converts
             * from a double as x86 does (max-width: 1e12px), no bound; the
             * subtraction below overflowed on it. */
            if (mw != INT_MIN) {
                if (this->m_box_sizing == litehtml::box_sizing_border_box)
                    mw -= this->m_padding.width() + this->m_borders.width();
                W = std::min(W, mw);
            }
        }
        return std::max(0, W);
    }
};

// The body, ours as any element: a body laid out as a flex row (rustdoc's
// sidebar and main) is one of the layer's containers.
class body final : public element<litehtml::el_body> {
public:
    body(const std::shared_ptr<litehtml::document> &doc,
         std::function<bool(litehtml::element &)> before_init)
        : element<litehtml::el_body>(doc), before_init_(std::move(before_init))
    {
    }

    void init() override
    {
        if (before_init_ && !before_init_(*this))
            return;
        element<litehtml::el_body>::init();
    }

private:
    std::function<bool(litehtml::element &)> before_init_;
};

} // namespace

std::shared_ptr<litehtml::element> create_body(const std::shared_ptr<litehtml::document> &doc,
                                               std::function<bool(litehtml::element &)> before_init)
{
    return std::make_shared<body>(doc, std::move(before_init));
}

std::shared_ptr<litehtml::element> create_element(const char *tag,
                                                  const std::shared_ptr<litehtml::document> &doc)
{
    static const char *const own[] = {"br",   "img",  "td",     "th",   "link", "title",
                                      "style", "base", "body",   "script", "font"};
    if (!tag)
        return nullptr;
    if (!strcmp(tag, "div"))
        return std::make_shared<element<litehtml::el_div>>(doc);
    if (!strcmp(tag, "p"))
        return std::make_shared<element<litehtml::el_para>>(doc);
    if (!strcmp(tag, "a"))
        return std::make_shared<element<litehtml::el_anchor>>(doc);
    // Tables and rows stay litehtml's, their styles resolved as ours.
    if (!strcmp(tag, "table"))
        return std::make_shared<styled<litehtml::el_table>>(doc);
    if (!strcmp(tag, "tr"))
        return std::make_shared<styled<litehtml::el_tr>>(doc);
    // Images, line breaks, links and <font> stay litehtml's classes too,
    // their styles resolved as ours: as litehtml's own, each tried every
    // selector of every sheet through litehtml's matching (on a page of
    // many images or a head of many <link>s, a twentieth of its
    // instructions).
    if (!strcmp(tag, "img"))
        return std::make_shared<styled<litehtml::el_image>>(doc);
    if (!strcmp(tag, "br"))
        return std::make_shared<styled<litehtml::el_break>>(doc);
    if (!strcmp(tag, "link"))
        return std::make_shared<styled<litehtml::el_link>>(doc);
    if (!strcmp(tag, "font"))
        return std::make_shared<styled<litehtml::el_font>>(doc);
    for (const char *o : own)
        if (!strcmp(tag, o))
            return nullptr;
    return std::make_shared<element<litehtml::html_tag>>(doc);
}

bool is_item(const litehtml::element *e)
{
    const node *n = cast_to<node>(const_cast<litehtml::element *>(e));
    return n && n->item && e->get_display() != litehtml::display_none;
}

// The pointer to litehtml::style's private map, taken in an explicit
// instantiation, where C++ does not check access ([temp.explicit]); here,
// in one file, as such an instantiation may be made once in a program.
namespace {
using props_member = litehtml::props_map litehtml::style::*;
props_member style_props();
template <props_member M>
struct style_props_of {
    friend props_member style_props() { return M; }
};
template struct style_props_of<&litehtml::style::m_properties>;
} // namespace

const litehtml::props_map &style_properties(const litehtml::style &st)
{
    return st.*style_props();
}

// The read-only loadable segments of the objects loaded at the first call
// (the program, litehtml, libc...), sorted; an object loaded later is not
// among them, so its addresses are answered false. glance never unloads one.
bool read_only_address(const void *p)
{
    struct range {
        uintptr_t lo, hi;
    };
    static const std::vector<range> ranges = [] {
        std::vector<range> r;
        dl_iterate_phdr(
            [](struct dl_phdr_info *info, size_t, void *data) {
                auto *out = static_cast<std::vector<range> *>(data);
                for (int i = 0; i < info->dlpi_phnum; i++) {
                    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
                    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_W) || ph.p_memsz == 0)
                        continue;
                    uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
                    out->push_back({lo, lo + ph.p_memsz});
                }
                return 0;
            },
            &r);
        std::sort(r.begin(), r.end(), [](const range &a, const range &b) { return a.lo < b.lo; });
        return r;
    }();
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    auto it = std::upper_bound(ranges.begin(), ranges.end(), a,
                               [](uintptr_t v, const range &r) { return v < r.lo; });
    return it != ranges.begin() && a < std::prev(it)->hi;
}

} // namespace compat
