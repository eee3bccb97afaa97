// render/: the laid-out litehtml tree becomes a dom tree.
//
// litehtml keeps a word per el_text and a run of white space per el_space;
// a dom text node is one run of such siblings, as the HTML had it, with one
// line box per line its words landed on. Comments, ::before/::after boxes
// and litehtml's anonymous table wrappers do not appear in the dom, so that
// XPaths match what a browser prints.

#include "render/render.h"
#include "render/compat.h"

#include "base/tags.h"

#include <litehtml.h>
#include <litehtml/el_before_after.h>
#include <litehtml/el_cdata.h>
#include <litehtml/el_comment.h>
#include <litehtml/el_space.h>
#include <litehtml/el_text.h>

#include <cstring>
#include <new>
#include <string>
#include <typeinfo>
#include <vector>

namespace {

// litehtml keeps the attributes of a tag in a protected map with no way to
// list them; this derived type only reads that member.
struct attr_reader : litehtml::html_tag {
    static const litehtml::string_map &attrs(const litehtml::html_tag &t)
    {
        return t.*(&attr_reader::m_attrs);
    }
};

bool valid_tag_name(const char *t)
{
    if (!t || !*t)
        return false;
    for (; *t; t++) {
        char c = *t;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == ':'))
            return false;
    }
    return true;
}

dom_display map_display(litehtml::style_display d)
{
    switch (d) {
    case litehtml::display_none:
        return DOM_DISPLAY_NONE;
    case litehtml::display_inline:
    case litehtml::display_inline_text:
    case litehtml::display_inline_block:
    case litehtml::display_inline_table:
        return DOM_DISPLAY_INLINE;
    default:
        return DOM_DISPLAY_BLOCK;
    }
}

dom_box to_box(const litehtml::position &p)
{
    return dom_box{(double)p.x, (double)p.y, (double)p.width, (double)p.height};
}

// The computed font-weight of an element as a number (CSS Fonts 4: normal
// 400, bold 700; bolder and lighter relative to the parent's).
static short font_weight(litehtml::element *e)
{
    const char *w = e->get_style_property("font-weight", true, "normal");
    if (!w || !strcmp(w, "normal"))
        return 400;
    if (!strcmp(w, "bold"))
        return 700;
    if (!strcmp(w, "bolder") || !strcmp(w, "lighter")) {
        auto p = e->parent();
        short base = p ? font_weight(p.get()) : 400;
        if (!strcmp(w, "bolder"))
            return base < 350 ? 400 : base < 550 ? 700 : 900;
        return base < 550 ? 100 : base < 750 ? 400 : 700;
    }
    int v = atoi(w);
    return (short)(v >= 1 && v <= 1000 ? v : 400);
}

struct builder {
    dom_doc *doc;
    bool oom = false;
    // The page hides its root or body until a script shows it (anti-flicker
    // snippets: body { visibility: hidden !important }), which an author's
    // !important keeps over the user agent's in litehtml: visibility is
    // then worked out here from each element's own declaration, the root
    // and body visible.
    bool root_hidden = false;

    // One run of el_text/el_space siblings becoming one dom text node.
    struct text_run {
        std::string text;
        std::vector<dom_box> lines;
        bool pre = false;
        bool any = false;
    };

    // What the walk asks of an element's class: a word or space, a kind it
    // leaves out, a tag with attributes. Each answer is a dynamic_cast's,
    // which depends on the class alone: asked once per class and kept (a
    // page has a few dozen classes and a hundred thousand elements, and a
    // failed cast searches the whole class tree).
    struct class_kind {
        const std::type_info *type;
        bool text, dropped;
        bool tag;
    };
    std::vector<class_kind> kinds;

    const class_kind &kind_of(const litehtml::element *e)
    {
        const std::type_info *t = &typeid(*e);
        for (const auto &k : kinds)
            if (k.type == t)
                return k;
        kinds.push_back({t, dynamic_cast<const litehtml::el_text *>(e) != nullptr,
                         dynamic_cast<const litehtml::el_comment *>(e) ||
                             dynamic_cast<const litehtml::el_cdata *>(e) ||
                             dynamic_cast<const litehtml::el_before_after_base *>(e),
                         dynamic_cast<const litehtml::html_tag *>(e) != nullptr});
        return kinds.back();
    }

    bool is_text(const litehtml::element *e) { return kind_of(e).text; }
    bool is_dropped(const litehtml::element *e) { return kind_of(e).dropped; }

    // An element's box in the document: its position against its parent
    // plus where its parent is (`origin`, worked out once per element on the
    // way down), what litehtml's get_placement() sums up the ancestors for
    // each call, each word.
    static litehtml::position placed(litehtml::element *e, const litehtml::position &origin)
    {
        litehtml::position p = e->get_position();
        p.x += origin.x;
        p.y += origin.y;
        return p;
    }

    // Adds one word (or space) to the run: words on one line share a line
    // box, which grows to hold them.
    void add_word(text_run &run, litehtml::element *e, bool parent_hidden,
                  const litehtml::position &origin)
    {
        std::string w;
        e->get_text(w);
        run.text += w;
        run.any = true;
        if (parent_hidden || e->skip())
            return;
        litehtml::position p = placed(e, origin);
        if (p.width <= 0 || p.height <= 0)
            return;
        dom_box b = to_box(p);
        if (!run.lines.empty()) {
            dom_box &last = run.lines.back();
            // Same line: vertical ranges overlap by more than half.
            double top = std::max(last.y, b.y), bottom = std::min(last.y + last.h, b.y + b.h);
            if (bottom - top > 0.5 * std::min(last.h, b.h)) {
                last = dom_box_union(last, b);
                return;
            }
        }
        run.lines.push_back(b);
    }

    void flush(text_run &run, dom_node *parent)
    {
        if (!run.any)
            return;
        // Outside preformatted text the run is collapsed: litehtml kept the
        // white space of the source in its el_space items.
        std::string t;
        if (run.pre) {
            t.swap(run.text);
        } else {
            t.reserve(run.text.size());
            bool space = false;
            for (char c : run.text) {
                if (base_html_space(c)) {
                    space = true;
                    continue;
                }
                if (space)
                    t += ' ';
                space = false;
                t += c;
            }
            if (space)
                t += ' ';
        }
        dom_node *n = dom_text_new(doc, t.data(), t.size());
        if (!n || dom_set_lines(doc, n, run.lines.data(), run.lines.size()) != 0) {
            oom = true;
        } else {
            n->preformatted = run.pre;
            n->font_size = parent->font_size;
            n->font_weight = parent->font_weight;
            // White space without a box (a newline, a space litehtml let go
            // at the end of a line) still parts the words either side; in a
            // display:none subtree its element hides it.
            if (run.lines.empty() && !base_html_blank(t.data(), t.size()))
                n->hidden |= DOM_HIDDEN_ZERO_SIZE;
            // visibility is inherited: text shows only if its element does.
            n->hidden |= parent->hidden & DOM_HIDDEN_VISIBILITY;
            n->in_link = parent->in_link;
            n->in_fixed = parent->in_fixed;
            dom_append(parent, n);
        }
        // The next run under the same element: preformatted as this one.
        bool pre = run.pre;
        run = text_run();
        run.pre = pre;
    }

    // Rows and row groups get no box of their own from litehtml; a
    // browser gives them the union of their cells. Filled after the walk.
    std::vector<dom_node *> table_groups;

    static bool is_table_group(litehtml::style_display d)
    {
        return d == litehtml::display_table_row || d == litehtml::display_table_row_group ||
               d == litehtml::display_table_header_group || d == litehtml::display_table_footer_group;
    }

    void fill_table_groups()
    {
        // Created parents first, so walking backwards sees rows before groups.
        for (auto it = table_groups.rbegin(); it != table_groups.rend(); ++it) {
            dom_node *g = *it;
            dom_box u{0, 0, 0, 0};
            for (dom_node *c = g->first_child; c; c = c->next)
                if (c->kind == DOM_ELEMENT && !(c->hidden & DOM_HIDDEN_DISPLAY_NONE))
                    u = dom_box_union(u, c->box);
            g->box = u;
            g->hidden &= ~(unsigned)(DOM_HIDDEN_ZERO_SIZE | DOM_HIDDEN_OFF_PAGE);
            if (u.w <= 0 || u.h <= 0)
                g->hidden |= DOM_HIDDEN_ZERO_SIZE;
        }
    }

    // `place`: the element's box as placed(); `cb`: its containing block's
    // (the nearest ancestor not inline).
    dom_node *make_element(litehtml::element *e, dom_node *parent, bool parent_hidden,
                           const litehtml::position &place, const litehtml::position &cb)
    {
        dom_node *n = dom_element_new(doc, e->get_tagName());
        if (!n) {
            oom = true;
            return nullptr;
        }
        if (auto *tag = kind_of(e).tag ? static_cast<litehtml::html_tag *>(e) : nullptr) {
            for (const auto &kv : attr_reader::attrs(*tag))
                if (dom_set_attr(doc, n, kv.first.c_str(), kv.second.c_str()) != 0)
                    oom = true;
        }
        litehtml::style_display disp = e->get_display();
        n->display = compat::is_item(e) ? DOM_DISPLAY_BLOCK : map_display(disp);
        if (disp == litehtml::display_none)
            n->hidden |= DOM_HIDDEN_DISPLAY_NONE;
        if (!root_hidden) {
            if (e->get_visibility() != litehtml::visibility_visible)
                n->hidden |= DOM_HIDDEN_VISIBILITY;
        } else if (parent && !dom_is_tag(n, "body")) {
            const char *own = e->get_style_property("visibility", false, nullptr);
            bool hidden = own ? strcmp(own, "visible") != 0 && strcmp(own, "inherit") != 0
                              : (parent->hidden & DOM_HIDDEN_VISIBILITY) != 0;
            if (hidden)
                n->hidden |= DOM_HIDDEN_VISIBILITY;
        }
        n->font_size = (float)e->get_font_size();
        n->font_weight = font_weight(e);
        litehtml::white_space ws = e->get_white_space();
        n->preformatted = ws == litehtml::white_space_pre || ws == litehtml::white_space_pre_wrap ||
                          ws == litehtml::white_space_pre_line;
        n->in_link = (parent && parent->in_link) || (dom_is_tag(n, "a") && dom_attr_get(n, "href"));
        n->in_fixed = (parent && parent->in_fixed) ||
                      e->get_element_position() == litehtml::element_position_fixed;

        // visibility:hidden keeps its box (container.cpp's reveal_visibility
        // may show it).
        if (!parent_hidden && !(n->hidden & DOM_HIDDEN_DISPLAY_NONE)) {
            if (n->display == DOM_DISPLAY_INLINE && disp != litehtml::display_inline_block &&
                disp != litehtml::display_inline_table) {
                // litehtml gives an inline element's fragments relative to
                // the content box of its containing block.
                litehtml::position::vector boxes;
                e->get_inline_boxes(boxes);
                dom_box u{0, 0, 0, 0};
                for (auto b : boxes) {
                    b.x += cb.x;
                    b.y += cb.y;
                    u = dom_box_union(u, to_box(b));
                }
                n->box = u;
            } else {
                litehtml::position p = place;
                p += e->get_paddings();
                p += e->get_borders();
                n->box = to_box(p);
            }
            if (is_table_group(disp))
                table_groups.push_back(n);
            if (n->box.w <= 0 || n->box.h <= 0)
                n->hidden |= DOM_HIDDEN_ZERO_SIZE;
            else if (n->box.x + n->box.w <= 0 || n->box.y + n->box.h <= 0)
                n->hidden |= DOM_HIDDEN_OFF_PAGE;
        }
        if (parent)
            dom_append(parent, n);
        return n;
    }

    // An explicit stack: litehtml documents can be thousands of levels deep.
    struct frame {
        litehtml::element *el;
        dom_node *node; // where this element's children go
        size_t next_child;
        bool hidden;    // this element or an ancestor is hidden
        text_run run;
        litehtml::position place; // el's box in the document (placed())
        litehtml::position cb;    // its nearest ancestor-or-self not inline's
    };

    static bool is_inline(litehtml::element *e)
    {
        litehtml::style_display d = e->get_display();
        return d == litehtml::display_inline || d == litehtml::display_inline_text;
    }

    dom_node *build(litehtml::element *root)
    {
        root_hidden = root->get_visibility() != litehtml::visibility_visible;
        for (int i = 0; i < (int)root->get_children_count() && !root_hidden; i++) {
            litehtml::element *c = root->get_child(i).get();
            if (c && c->get_tagName() && strcmp(c->get_tagName(), "body") == 0)
                root_hidden = c->get_visibility() != litehtml::visibility_visible;
        }
        litehtml::position rp = root->get_placement();
        dom_node *droot = make_element(root, nullptr, false, rp, litehtml::position());
        if (!droot)
            return nullptr;
        std::vector<frame> stack;
        stack.push_back(frame{root, droot, 0, (droot->hidden & DOM_HIDDEN_DISPLAY_NONE) != 0,
                              text_run(), rp, is_inline(root) ? litehtml::position() : rp});
        stack.back().run.pre = droot->preformatted;
        while (!stack.empty() && !oom) {
            frame &f = stack.back();
            if (f.next_child >= f.el->get_children_count()) {
                flush(f.run, f.node);
                stack.pop_back();
                continue;
            }
            // A tag's children read in place: get_child copies the pointer
            // (two atomic operations a word).
            litehtml::element *c =
                kind_of(f.el).tag
                    ? static_cast<litehtml::html_tag *>(f.el)->children()[f.next_child++].get()
                    : f.el->get_child((int)f.next_child++).get();
            if (!c)
                continue;
            // Words and spaces first, the most of the children: none of them
            // is of a dropped class (each a failed cast when asked first).
            if (is_text(c)) {
                add_word(f.run, c, f.hidden, f.place);
                continue;
            }
            if (is_dropped(c))
                continue;
            // A fixed box is placed against the window, as litehtml paints
            // it (its position is the window's, not its parent's).
            litehtml::position cp = placed(c, c->get_element_position() == litehtml::element_position_fixed
                                                  ? litehtml::position()
                                                  : f.place);
            litehtml::position ccb = is_inline(c) ? f.cb : cp;
            if (!valid_tag_name(c->get_tagName())) {
                // litehtml's anonymous wrapper: its children belong to us.
                flush(f.run, f.node);
                frame nf{c, f.node, 0, f.hidden, text_run(), cp, ccb};
                nf.run.pre = f.node->preformatted;
                stack.push_back(std::move(nf));
                continue;
            }
            flush(f.run, f.node);
            dom_node *n = make_element(c, f.node, f.hidden, cp, f.cb);
            if (!n)
                break;
            // Only display:none takes the boxes of a whole subtree away; a
            // zero-size or hidden parent can hold visible children.
            frame nf{c, n, 0, f.hidden || (n->hidden & DOM_HIDDEN_DISPLAY_NONE), text_run(), cp,
                     ccb};
            nf.run.pre = n->preformatted;
            stack.push_back(std::move(nf));
        }
        if (oom)
            return nullptr;
        fill_table_groups();
        return droot;
    }
};

} // namespace

render_status render_build_dom(const litehtml::document::ptr &doc, const render_opts &opts,
                               dom_doc **out)
{
    (void)opts;
    *out = nullptr;
    dom_doc *d = dom_doc_new();
    if (!d)
        return RENDER_ENOMEM;
    builder b{};
    b.doc = d;
    dom_node *root = b.build(doc->root().get());
    if (!root) {
        dom_doc_free(d);
        return RENDER_ENOMEM;
    }
    dom_doc_set_root(d, root);
    dom_doc_set_size(d, doc->width(), doc->height());
    dom_doc_finish(d);
    *out = d;
    return RENDER_OK;
}
