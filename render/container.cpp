// render/: the litehtml document container and the walk that turns the
// laid-out litehtml tree into a dom tree. The only C++ in glance; render.h is
// its C face. Exceptions never cross that face.

#include "render/render.h"
#include "render/compat.h"
#include "render/styled.h"
#include "render/cssfilter.h"
#include "render/spaces.h"
#include "render/paint.h"

#include "base/clock.h"
#include "base/sheetrefs.h"
#include "base/tags.h"
#include "base/utf8.h"

#include <litehtml.h>
#include <litehtml/el_before_after.h>
#include <litehtml/el_body.h>
#include <litehtml/el_cdata.h>
#include <litehtml/el_comment.h>
#include <litehtml/el_space.h>
#include <litehtml/el_style.h>
#include <litehtml/el_td.h>
#include <litehtml/el_text.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <new>
#include <queue>
#include <set>
#include <string>
#include <strings.h>
#include <sys/stat.h>
#include <typeinfo>
#include <vector>

namespace {

// A <style> of the page. css_prepare_html set its sheet aside and left a
// mark in the page (cssfilter.h): the sheet is added where litehtml's
// el_style would add the element's text, as it adds it (its children's
// text, no base URL, its media attribute, which an el_style never keeps).
// A text that is no mark of the page's is read as el_style reads it.
class page_style : public litehtml::el_style
{
public:
    page_style(const std::shared_ptr<litehtml::document> &doc, const css_index *ix)
        : litehtml::el_style(doc), ix_(ix)
    {
    }
    bool appendChild(const litehtml::element::ptr &el) override
    {
        kids_.push_back(el);
        return litehtml::el_style::appendChild(el);
    }
    void parse_attributes() override
    {
        std::string text;
        for (const auto &k : kids_)
            k->get_text(text);
        size_t n;
        const char *css = ix_ ? css_index_aside_of(ix_, text.c_str(), &n) : nullptr;
        if (!css) {
            litehtml::el_style::parse_attributes();
            return;
        }
        if (litehtml::document::ptr doc = get_document())
            doc->add_stylesheet(css, nullptr, get_attr("media"));
    }

private:
    const css_index *ix_;
    litehtml::elements_vector kids_;
};

// A table cell whose spans are clamped as the HTML standard clamps them
// (render.h): litehtml's grid holds a cell for every column a colspan
// covers, in every row, so one colspan of 65 534 cost gigabytes.
class clamped_td : public litehtml::el_td
{
public:
    explicit clamped_td(const std::shared_ptr<litehtml::document> &doc) : el_td(doc) {}

    void set_attr(const litehtml::tchar_t *name, const litehtml::tchar_t *val) override
    {
        int max = 0;
        if (name && val && !strcasecmp(name, "colspan"))
            max = RENDER_MAX_COLSPAN;
        else if (name && val && !strcasecmp(name, "rowspan"))
            max = RENDER_MAX_ROWSPAN;
        if (!max)
            return el_td::set_attr(name, val);
        char n[16];
        snprintf(n, sizeof n, "%d", render_span_value(val, strlen(val), max));
        el_td::set_attr(name, n);
    }
};

// The cells litehtml's grid will hold for a table element: its rows (in
// row groups or not) times its widest row, each cell counted with its
// colspan and the columns rowspans from rows above take, the spans read as
// litehtml reads them (on any element that is a cell: display:table-cell
// takes a colspan in litehtml, which browsers ignore).
static size_t span_attr(const litehtml::element::ptr &el, const char *name)
{
    const char *v = el->get_attr(name, "1");
    long n = v ? strtol(v, nullptr, 10) : 1;
    return n < 1 ? 1 : n > 1000000 ? 1000000 : (size_t)n;
}

// An element's children as litehtml keeps them (element::m_children, what
// get_child() copies out a shared_ptr at a time): the walks over every
// element of the page below read them in place.
struct element_fields : litehtml::element {
    static constexpr litehtml::elements_vector litehtml::element::*children =
        &element_fields::m_children;
};

static const litehtml::elements_vector &children_of(const litehtml::element *el)
{
    return el->*element_fields::children;
}

static double grid_cells(const litehtml::element::ptr &table)
{
    size_t rows = 0, widest = 0, carry = 0;
    typedef std::pair<size_t, size_t> span_end; // the last row it reaches, its columns
    std::priority_queue<span_end, std::vector<span_end>, std::greater<span_end>> ends;
    auto row = [&](const litehtml::element::ptr &r) {
        rows++;
        while (!ends.empty() && ends.top().first < rows) {
            carry -= ends.top().second;
            ends.pop();
        }
        size_t width = carry;
        for (size_t i = 0, n = r->get_children_count(); i < n; i++) {
            litehtml::element::ptr c = r->get_child((int)i);
            if (!c || c->get_display() != litehtml::display_table_cell)
                continue;
            size_t cs = span_attr(c, "colspan"), rs = span_attr(c, "rowspan");
            width += cs;
            if (rs > 1) {
                ends.push({rows + rs - 1, cs});
                carry += cs;
            }
        }
        widest = std::max(widest, width);
    };
    for (size_t i = 0, n = table->get_children_count(); i < n; i++) {
        litehtml::element::ptr c = table->get_child((int)i);
        if (!c)
            continue;
        litehtml::style_display d = c->get_display();
        if (d == litehtml::display_table_row) {
            row(c);
        } else if (d == litehtml::display_table_row_group ||
                   d == litehtml::display_table_header_group ||
                   d == litehtml::display_table_footer_group) {
            for (size_t j = 0, m = c->get_children_count(); j < m; j++) {
                litehtml::element::ptr r = c->get_child((int)j);
                if (r && r->get_display() == litehtml::display_table_row)
                    row(r);
            }
        }
    }
    return (double)rows * (double)widest;
}

// The tables' grids are built in init(), inside the parse, from the styles
// (display:table on any element, and the anonymous tables litehtml adds
// around stray rows and cells): the tag scan sees only <table>s. <body>
// counts the cells of every table below it before its init() builds them,
// and builds none when they are over the limit (render_load then refuses
// the page before layout).
struct table_guard {
    size_t limit; // 0: none
    double cells;
    bool over;
};

// Counts the cells of every table below the body; false when they are
// over the limit (its init must then build none).
bool tables_within(litehtml::element &body, table_guard *g)
{
    double cells = 0;
    std::vector<litehtml::element *> stack{&body};
    while (!stack.empty()) {
        litehtml::element *el = stack.back();
        stack.pop_back();
        litehtml::style_display d = el->get_display();
        if (d == litehtml::display_table || d == litehtml::display_inline_table)
            cells += grid_cells(el->shared_from_this());
        for (const litehtml::element::ptr &c : children_of(el))
            if (c)
                stack.push_back(c.get());
    }
    g->cells = cells;
    g->over = g->limit > 0 && cells > (double)g->limit;
    return !g->over;
}

// litehtml's body with the bound, for plain_litehtml (the layer's body is
// compat::create_body's, with the same bound).
class guarded_body : public litehtml::el_body
{
public:
    guarded_body(const std::shared_ptr<litehtml::document> &doc, table_guard *g)
        : el_body(doc), guard_(g)
    {
    }

    void init() override
    {
        if (tables_within(*this, guard_))
            el_body::init();
    }

private:
    table_guard *guard_;
};

bool is_remote_url(const std::string &url)
{
    // Anything with a scheme other than file:, or protocol-relative: the
    // network comes in net/, and layout must not wait for it.
    if (url.compare(0, 2, "//") == 0)
        return true;
    size_t colon = url.find(':');
    if (colon == std::string::npos)
        return false;
    size_t slash = url.find('/');
    if (slash != std::string::npos && slash < colon)
        return false;
    std::string scheme = url.substr(0, colon);
    for (auto &c : scheme)
        c = (char)tolower((unsigned char)c);
    return scheme != "file";
}

// Reads a local file of at most `limit` bytes; false when missing, not a
// regular file or too large.
bool read_small_file(const std::string &path, size_t limit, std::string &out)
{
    struct stat st;
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > limit)
        return false;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return false;
    out.resize((size_t)st.st_size);
    size_t got = out.empty() ? 0 : fread(&out[0], 1, out.size(), f);
    fclose(f);
    out.resize(got);
    return true;
}

// A stylesheet reference without the white space around it and one pair
// of quotes (net/sheets.c trims its side the same way).
std::string trim_ref(const std::string &ref)
{
    const char *ws = " \t\n\r\f";
    size_t a = ref.find_first_not_of(ws), b = ref.find_last_not_of(ws);
    if (a == std::string::npos)
        return std::string();
    std::string r = ref.substr(a, b - a + 1);
    if (r.size() >= 2 && (r[0] == '"' || r[0] == '\'') && r.back() == r[0]) {
        r = r.substr(1, r.size() - 2);
        a = r.find_first_not_of(ws);
        b = r.find_last_not_of(ws);
        r = a == std::string::npos ? std::string() : r.substr(a, b - a + 1);
    }
    return r;
}

std::string path_dir(const std::string &path)
{
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// Resolves a stylesheet reference against the folder of the file that made
// it (a page or another stylesheet). Query and fragment are dropped.
std::string resolve_local(const std::string &dir, std::string url)
{
    if (url.compare(0, 7, "file://") == 0)
        url = url.substr(7);
    size_t cut = url.find_first_of("?#");
    if (cut != std::string::npos)
        url.resize(cut);
    if (!url.empty() && url[0] == '/')
        return url;
    return dir.empty() ? url : dir + "/" + url;
}

// Where import_css finds the stylesheet `url` (trimmed) that `from` names
// ("" for the page, else the path or URL of the sheet that imports it):
// fetched with the page (*css, *len and *abs set), a local file under
// `base_dir` (*path set: it may not exist), or nowhere.
enum class sheet_at { nowhere, fetched, local };

sheet_at find_sheet(const render_opts &opts, const std::string &base_dir, const std::string &url,
                    const std::string &from, const char **css, size_t *len, const char **abs,
                    std::string *path)
{
    if (url.empty())
        return sheet_at::nowhere;
    if (opts.css_lookup &&
        opts.css_lookup(opts.css_lookup_ud, url.c_str(), from.c_str(), css, len, abs))
        return sheet_at::fetched;
    if (base_dir.empty() || is_remote_url(url) || is_remote_url(from))
        return sheet_at::nowhere;
    std::string dir = from.empty() ? base_dir : path_dir(from);
    *path = resolve_local(dir.empty() ? base_dir : dir, url);
    return sheet_at::local;
}

// What spaces_collapse asks of each stylesheet the page names
// (base/sheetrefs.h), found as import_css finds it: whether it may keep the
// runs of white space. A sheet fetched with the page is read as fetched
// (spaces_kept); a local file is taken to keep them, its rules unknown until
// import_css loads it. The sheets these import are looked at as they load
// (container::spaces_lost).
struct sheet_probe {
    const render_opts *opts;
    std::string base_dir;
};

int sheet_may_keep_spaces(void *probe, const char *ref)
{
    const sheet_probe &p = *(const sheet_probe *)probe;
    const char *css = nullptr, *abs = nullptr;
    size_t n = 0;
    std::string path;
    struct stat st;
    switch (find_sheet(*p.opts, p.base_dir, trim_ref(ref), "", &css, &n, &abs, &path)) {
    case sheet_at::fetched:
        return spaces_kept(css, n);
    case sheet_at::local:
        return stat(path.c_str(), &st) == 0;
    default:
        return 0;
    }
}

// The stylesheets a page names, found in the scan of its tags
// (css_index_html), whose attributes are noted before the parse
// (note_attrs): the attributes nothing reads are left out of the page but
// those a stylesheet asks for (cssfilter.h). The sheets these import are
// noted as they load (css_index_attrs_lost).
struct sheet_noter {
    const render_opts *opts;
    std::string base_dir;
    std::vector<std::string> refs;

    static int add(void *noter, const char *ref)
    {
        try {
            ((sheet_noter *)noter)->refs.emplace_back(trim_ref(ref));
        } catch (const std::bad_alloc &) {
            return -1;
        }
        return 0;
    }

    // Each sheet found as import_css finds it, once, and no more of them
    // than import_css loads (max_stylesheets), in the page's order.
    void note_attrs(css_index *ix) const
    {
        std::set<std::string> seen;
        for (const auto &ref : refs) {
            if (!seen.insert(ref).second)
                continue;
            if (opts->max_stylesheets > 0 && seen.size() > (size_t)opts->max_stylesheets)
                break;
            const char *css = nullptr, *abs = nullptr;
            size_t n = 0;
            std::string path, text;
            size_t limit = opts->max_css_bytes ? opts->max_css_bytes : (size_t)4 << 20;
            switch (find_sheet(*opts, base_dir, ref, "", &css, &n, &abs, &path)) {
            case sheet_at::fetched: css_index_note_sheet(ix, css, n); break;
            case sheet_at::local:
                if (read_small_file(path, limit, text))
                    css_index_note_sheet(ix, text.data(), text.size());
                break;
            default: break;
            }
        }
    }
};

class container final : public litehtml::document_container {
public:
    container(fonts_lib *fonts, const render_opts &opts, render_stats &stats)
        : fonts_(fonts), opts_(opts), stats_(stats)
    {
        tables.limit = opts.max_table_cells;
        if (opts.base_dir)
            base_dir_ = opts.base_dir;
    }

    bool font_failed = false;
    css_index *filter = nullptr; // the page's tags, classes and ids
    table_guard tables{0, 0, false}; // the cells of the tables' grids (guarded_body)
    render_painter *painter = nullptr; // set while render_paint draws
    double last_element_ms = 0; // when litehtml asked for its last element
    // The page's runs of white space were written as one space (spaces.h),
    // and a stylesheet loaded since may keep them: the page is read again
    // as it is.
    bool spaces_collapsed = false, spaces_lost = false;
    double filter_ms = 0;       // the CSS filter on linked sheets, inside litehtml's parse

    // litehtml makes an element of every white-space character of the page
    // (document_container::split_text, one on_space call each): the source's
    // indentation made most of some pages' elements (one of 1.2 MB had
    // 400 000, 130 MB). With the layer a run of white space (spaces, tabs,
    // newlines, carriage returns, form feeds) is one element: a run that
    // lays out as white space (white-space normal or nowrap) collapses to
    // one space whatever its length. Where it does not, once the styles are
    // known, split_preformatted_runs makes it what litehtml would have made:
    // a character per element (pre, pre-wrap), or each newline its own
    // element between runs of spaces (pre-line, whose newlines break).
    // Text nodes of white space only, which litehtml splits without asking
    // here, are joined into runs as they are added (styled.h, appendChild).
    // litehtml's own split converts the text to wide characters and each
    // word back to UTF-8; well-formed UTF-8 (gumbo's text always is) is
    // split here in place, into the same words and characters: its spaces,
    // tabs, newlines, carriage returns and form feeds separate words, and
    // each ideograph of U+4E00-U+9FCC is a word of its own.
    void split_text(const char *text, const std::function<void(const litehtml::tchar_t *)> &on_word,
                    const std::function<void(const litehtml::tchar_t *)> &on_space) override
    {
        if (opts_.plain_litehtml) {
            litehtml::document_container::split_text(text, on_word, on_space);
            return;
        }
        if (split_utf8(text, on_word, on_space))
            return;
        std::string run;
        auto flush = [&]() {
            if (!run.empty())
                on_space(run.c_str());
            run.clear();
        };
        litehtml::document_container::split_text(
            text,
            [&](const litehtml::tchar_t *w) {
                flush();
                on_word(w);
            },
            [&](const litehtml::tchar_t *sp) { run += sp; });
        flush();
    }

    static bool split_space(char c)
    {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    }

    // split_text's words of well-formed UTF-8; false, with nothing said,
    // for text that is not (litehtml's conversion reads that its own way).
    static bool split_utf8(const char *text,
                           const std::function<void(const litehtml::tchar_t *)> &on_word,
                           const std::function<void(const litehtml::tchar_t *)> &on_space)
    {
        const char *end = text + strlen(text);
        for (const char *p = text; p < end;) {
            if ((unsigned char)*p < 0x80) {
                p++;
                continue;
            }
            const char *q = p;
            if (base_utf8_next(&p, end) == 0xFFFD && p - q == 1)
                return false;
        }
        std::string piece;
        auto say = [&](const std::function<void(const litehtml::tchar_t *)> &fn, const char *a,
                       const char *b) {
            piece.assign(a, b);
            fn(piece.c_str());
        };
        const char *word = nullptr;
        for (const char *p = text; p < end;) {
            if (split_space(*p)) {
                if (word)
                    say(on_word, word, p);
                word = nullptr;
                const char *run = p;
                while (p < end && split_space(*p))
                    p++;
                say(on_space, run, p); // a run is one element (above)
                continue;
            }
            const char *q = p;
            uint32_t c = (unsigned char)*p < 0x80 ? (uint32_t)(unsigned char)*p++
                                                  : base_utf8_next(&p, end);
            if (c >= 0x4E00 && c <= 0x9FCC) {
                if (word)
                    say(on_word, word, q);
                word = nullptr;
                say(on_word, q, p);
            } else if (!word) {
                word = q;
            }
        }
        if (word)
            say(on_word, word, end);
        return true;
    }

    litehtml::uint_ptr create_font(const litehtml::tchar_t *face, int size, int weight,
                                   litehtml::font_style italic, unsigned int decoration,
                                   litehtml::font_metrics *fm) override
    {
        fonts_font *f = fonts_open(fonts_, face ? face : "serif", size, weight,
                                   italic == litehtml::fontStyleItalic);
        if (!f) {
            font_failed = true;
            return 0;
        }
        if (fm) {
            fonts_metrics m;
            fonts_get_metrics(f, &m);
            fm->ascent = m.ascent;
            fm->descent = m.descent;
            fm->height = m.height;
            fm->x_height = m.x_height;
            fm->draw_spaces = true;
        }
        return (litehtml::uint_ptr)f;
    }

    void delete_font(litehtml::uint_ptr) override {} // fonts_lib owns them

    int text_width(const litehtml::tchar_t *text, litehtml::uint_ptr font) override
    {
        if (!font || !text)
            return 0;
        return fonts_text_width((fonts_font *)font, text, strlen(text));
    }

    // The draw callbacks run only inside render_paint (paint.cpp).
    void draw_text(litehtml::uint_ptr, const litehtml::tchar_t *text, litehtml::uint_ptr font,
                   litehtml::web_color color, const litehtml::position &pos) override
    {
        if (painter)
            painter->text(text, (fonts_font *)font, color, pos);
    }
    int pt_to_px(int pt) const override { return pt * 96 / 72; }
    int get_default_font_size() const override { return 16; }
    // Browsers on Linux default to Times New Roman (Liberation Serif).
    const litehtml::tchar_t *get_default_font_name() const override { return "Times New Roman"; }
    void draw_list_marker(litehtml::uint_ptr, const litehtml::list_marker &marker) override
    {
        if (painter)
            painter->list_marker(marker);
    }
    void load_image(const litehtml::tchar_t *, const litehtml::tchar_t *, bool) override {}
    // Images are not fetched: their size comes from width/height and CSS.
    void get_image_size(const litehtml::tchar_t *, const litehtml::tchar_t *,
                        litehtml::size &sz) override
    {
        sz.width = 0;
        sz.height = 0;
    }
    void draw_background(litehtml::uint_ptr, const litehtml::background_paint &bg) override
    {
        if (painter)
            painter->background(bg);
    }
    void draw_borders(litehtml::uint_ptr, const litehtml::borders &borders,
                      const litehtml::position &pos, bool) override
    {
        if (painter)
            painter->borders(borders, pos);
    }
    void set_caption(const litehtml::tchar_t *) override {}
    void set_base_url(const litehtml::tchar_t *) override {}
    void link(const std::shared_ptr<litehtml::document> &, const litehtml::element::ptr &) override {}
    void on_anchor_click(const litehtml::tchar_t *, const litehtml::element::ptr &) override {}
    void set_cursor(const litehtml::tchar_t *) override {}

    void transform_text(litehtml::tstring &text, litehtml::text_transform tt) override
    {
        // ASCII only: case mapping of other scripts changes widths little,
        // and locale-free code keeps two threads independent.
        for (auto &c : text) {
            if (tt == litehtml::text_transform_uppercase && c >= 'a' && c <= 'z')
                c = (char)(c - 'a' + 'A');
            else if (tt == litehtml::text_transform_lowercase && c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
        }
    }

    // Linked stylesheets and @import: the sheets fetched beforehand (the
    // lookup), else local files relative to the folder of the page (or of
    // the importing stylesheet).
    void import_css(litehtml::tstring &text, const litehtml::tstring &raw_url,
                    litehtml::tstring &baseurl) override
    {
        text.clear();
        // litehtml 0.6 hands over `@import "x.css"` with its quotes.
        std::string url = trim_ref(raw_url);
        if (opts_.max_stylesheets > 0 && stats_.stylesheets_loaded >= opts_.max_stylesheets) {
            stats_.stylesheets_skipped++;
            return;
        }
        const char *css = nullptr, *abs = nullptr;
        size_t css_len = 0;
        std::string path;
        sheet_at at = find_sheet(opts_, base_dir_, url, baseurl, &css, &css_len, &abs, &path);
        if (at == sheet_at::nowhere) {
            stats_.stylesheets_skipped++;
            return;
        }
        if (at == sheet_at::fetched) {
            text.assign(css, css_len);
            baseurl = abs; // its own @imports are looked up as from it
        } else {
            size_t limit = opts_.max_css_bytes ? opts_.max_css_bytes : (size_t)4 << 20;
            if (!read_small_file(path, limit, text)) {
                text.clear();
                stats_.stylesheets_skipped++;
                return;
            }
            baseurl = path; // so that its own @imports resolve against its folder
        }
        stats_.stylesheets_loaded++;
        if (filter) {
            double tf = base_now_ms();
            size_t n;
            char *f = css_filter(filter, text.data(), text.size(), &n);
            if (!f)
                throw std::bad_alloc();
            text.assign(f, n);
            free(f);
            filter_ms += base_now_ms() - tf;
        }
        if (spaces_collapsed && spaces_kept(text.data(), text.size()))
            spaces_lost = true;
    }

    void set_clip(const litehtml::position &pos, const litehtml::border_radiuses &, bool valid_x,
                  bool valid_y) override
    {
        if (painter)
            painter->push_clip(pos, valid_x, valid_y);
    }
    void del_clip() override
    {
        if (painter)
            painter->pop_clip();
    }

    void get_client_rect(litehtml::position &client) const override
    {
        client = litehtml::position(0, 0, opts_.window_w, opts_.window_h);
    }

    // Our elements lay flex and grid containers out (compat.h).
    std::shared_ptr<litehtml::element> create_element(const litehtml::tchar_t *tag,
                                                      const litehtml::string_map &,
                                                      const std::shared_ptr<litehtml::document> &doc) override
    {
        last_element_ms = base_now_ms();
        // With the layer, cells resolve their styles as our elements do
        // (styled.h), and the body is one of ours (compat.h).
        bool plain = opts_.plain_litehtml;
        if (tag && !plain && !strcmp(tag, "style"))
            return std::make_shared<page_style>(doc, filter);
        if (tag && (!strcmp(tag, "td") || !strcmp(tag, "th")))
            return plain ? std::make_shared<clamped_td>(doc)
                         : std::make_shared<compat::styled<clamped_td>>(doc);
        if (tag && !strcmp(tag, "body"))
            return plain ? std::make_shared<guarded_body>(doc, &tables)
                         : compat::create_body(doc, [g = &tables](litehtml::element &b) {
                               return tables_within(b, g);
                           });
        return plain ? nullptr : compat::create_element(tag, doc);
    }

    void get_media_features(litehtml::media_features &media) const override
    {
        media.type = litehtml::media_type_screen;
        // The layout viewport is the media's width and height; the window
        // (the screen) its device's (render_viewport).
        media.width = opts_.window_w;
        media.height = opts_.window_h;
        media.device_width = opts_.screen_w > 0 ? opts_.screen_w : opts_.window_w;
        media.device_height = opts_.screen_h > 0 ? opts_.screen_h : opts_.window_h;
        media.color = 8;
        media.monochrome = 0;
        media.color_index = 256;
        media.resolution = 96;
    }

    void get_language(litehtml::tstring &language, litehtml::tstring &culture) const override
    {
        language = "en";
        culture = "";
    }

private:
    fonts_lib *fonts_;
    render_opts opts_;
    render_stats &stats_;
    std::string base_dir_;
};

} // namespace

struct render_engine {
    fonts_lib *fonts;
};

struct render_doc {
    // The user-agent sheet cut down to this page (cssfilter.h) lives in a
    // context of the page's own; declared first, destroyed last.
    litehtml::context context;
    std::unique_ptr<container> cont;
    litehtml::document::ptr doc;
    // The subtrees of display:none elements, out of the tree (styled.h).
    litehtml::elements_vector hidden;
    dom_doc *dom = nullptr;
    ~render_doc() { dom_doc_free(dom); }
};

extern "C" render_engine *render_engine_new(fonts_lib *fonts)
{
    try {
        auto *eng = new render_engine;
        eng->fonts = fonts;
        return eng;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void render_engine_free(render_engine *eng)
{
    delete eng;
}

extern "C" void render_doc_free(render_doc *doc)
{
    delete doc;
}

extern "C" dom_doc *render_doc_dom(render_doc *doc)
{
    return doc ? doc->dom : nullptr;
}

// How deep the page nests, for the depth limit and the CSS filter's bound on
// selectors: -1 when over `max_depth` (0: no limit). The exact depth costs
// a parse, quadratic in the depth (gumbo walks its stack of open elements):
// shallow pages go on the scan's estimate, which counts at least as deep,
// and a page nested deeper than the limit in elements no parser closes
// implicitly is refused on the scan alone (100 000 nested divs: at once,
// not in 30 s).
static int page_depth(const char *html, size_t len, const render_html_counts &c, int max_depth)
{
    const int slack = 16; // html, head, body, tbody and reopened formatting elements
    if (c.depth + slack <= 64 && (max_depth <= 0 || c.depth + slack <= max_depth))
        return c.depth + slack;
    if (max_depth > 0 && c.strict_depth > max_depth)
        return -1;
    int exact = render_html_depth(html, len);
    if (exact < 0)
        return c.depth + slack;
    return max_depth > 0 && exact > max_depth ? -1 : exact;
}

// Bytes of the text a reader is shown, white space not counted.
// A text node's bytes, white space not counted (css_page_info's measure).
static size_t text_bytes_of(const dom_node *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->text_len; i++)
        n += !base_html_space(d->text[i]);
    return n;
}

static size_t shown_text_bytes(const dom_doc *dom)
{
    size_t n = 0;
    const dom_node *root = dom_doc_root(dom);
    for (const dom_node *d = root; d; d = dom_next(d, root))
        if (d->kind == DOM_TEXT && !dom_node_left_out(d))
            n += text_bytes_of(d);
    return n;
}

// A page that keeps its text hidden with visibility until a script shows
// it (web components' guard against unstyled content, `.container,
// my-element { visibility: hidden }` lifted once the elements are defined;
// an anti-flicker class on a wrapper) is shown as a reader sees it once
// loaded: when less than RENDER_HIDDEN_SHARE of its text shows, and more
// would without visibility, no element is hidden by visibility. Layout is
// unchanged: a box hidden so keeps its place. Returns whether it did so.
static bool reveal_visibility(dom_doc *dom, size_t text_bytes)
{
    size_t shown = 0, held = 0;
    dom_node *root = dom_doc_root(dom);
    for (const dom_node *d = root; d; d = dom_next(d, root))
        if (d->kind == DOM_TEXT && !(d->hidden & ~(unsigned)DOM_HIDDEN_VISIBILITY))
            (d->hidden ? held : shown) += text_bytes_of(d);
    if (held == 0 || (double)shown >= RENDER_HIDDEN_SHARE * (double)text_bytes)
        return false;
    for (dom_node *d = root; d; d = dom_next(d, root))
        d->hidden &= ~(unsigned)DOM_HIDDEN_VISIBILITY;
    return true;
}

// The runs of white space container::split_text (and styled.h's
// appendChild) made one element that do not lay out as one space after
// all, made again as litehtml would have made them and styled as it styles
// them: a character per element where each character takes its own place
// (white-space pre or pre-wrap, a tab four spaces), and each newline its
// own element between runs of spaces where newlines break (pre-line).
static void split_preformatted_runs(const litehtml::element::ptr &root,
                                    const std::shared_ptr<litehtml::document> &doc)
{
    std::vector<litehtml::element::ptr> stack{root};
    std::string text;
    std::vector<std::string> pieces;
    // Whether k is such a run (then its pieces are in `pieces`).
    auto split_run = [&](const litehtml::element::ptr &k) {
        pieces.clear();
        if (!compat::is_space(k.get()))
            return false;
        litehtml::white_space ws = k->get_white_space();
        if (ws == litehtml::white_space_normal || ws == litehtml::white_space_nowrap)
            return false;
        text.clear();
        k->get_text(text);
        if (text.size() < 2)
            return false;
        if (ws != litehtml::white_space_pre_line) {
            for (char c : text)
                pieces.emplace_back(1, c);
        } else if (text.find('\n') != std::string::npos) {
            for (size_t i = 0; i < text.size();) {
                size_t j = text[i] == '\n' ? i + 1 : std::min(text.find('\n', i), text.size());
                pieces.emplace_back(text, i, j - i);
                i = j;
            }
        }
        return !pieces.empty();
    };
    while (!stack.empty()) {
        litehtml::element::ptr el = std::move(stack.back());
        stack.pop_back();
        auto *tag = dynamic_cast<litehtml::html_tag *>(el.get());
        if (!tag)
            continue;
        litehtml::elements_vector &kids = tag->children();
        if (std::any_of(kids.begin(), kids.end(), split_run)) {
            litehtml::elements_vector out;
            out.reserve(kids.size());
            for (auto &k : kids) {
                if (!split_run(k)) {
                    out.push_back(std::move(k));
                    continue;
                }
                for (const std::string &one : pieces) {
                    auto sp = std::make_shared<litehtml::el_space>(one.c_str(), doc);
                    sp->parent(el);
                    sp->parse_styles(false);
                    out.push_back(std::move(sp));
                }
            }
            kids.swap(out);
        }
        for (const auto &k : kids)
            if (k->get_children_count() > 0) // words and empty tags hold no run
                stack.push_back(k);
    }
}

// What the parsed page asks of the layout that the tags do not show: its
// floats, its absolutely or fixed positioned boxes and its ::before and
// ::after boxes that hold content, counted on litehtml's tree once the
// styles are applied and before render() (which cannot be interrupted).
// litehtml places each float against every float before it in the same
// block formatting context (its floats holder), so the cost grows faster
// than the count there and not across contexts: the floats are counted per
// holder, and the most in one is what the bound sees. A subtree that is
// not displayed is not laid out and not counted.
static void count_boxes(const litehtml::element::ptr &root, render_stats &st)
{
    struct item {
        litehtml::element *el;
        size_t holder; // index in `floats` of the context the element's floats go to
    };
    std::vector<size_t> floats{0};
    std::vector<item> stack{{root.get(), 0}};
    while (!stack.empty()) {
        item it = stack.back();
        stack.pop_back();
        litehtml::element *el = it.el;
        if (!el || el->get_display() == litehtml::display_none)
            continue;
        st.shown_elements++;
        if (el->get_float() != litehtml::float_none) {
            st.floats_total++;
            if (++floats[it.holder] > st.floats)
                st.floats = floats[it.holder];
        }
        litehtml::element_position pos = el->get_element_position();
        if (pos == litehtml::element_position_absolute || pos == litehtml::element_position_fixed)
            st.positioned++;
        const litehtml::elements_vector &kids = children_of(el);
        size_t n = kids.size();
        // litehtml's own classes, which nothing derives from: their type
        // compared, where a failed dynamic_cast searched the class tree of
        // every element with children.
        if (n > 0 && (typeid(*el) == typeid(litehtml::el_before) ||
                      typeid(*el) == typeid(litehtml::el_after)))
            st.pseudo_boxes++;
        size_t holder = it.holder;
        if (n > 0 && el->is_floats_holder()) {
            holder = floats.size();
            floats.push_back(0);
        }
        for (size_t i = n; i-- > 0;)
            stack.push_back({kids[i].get(), holder});
    }
}

// Builds the dom tree; defined in render/tree.cpp.
render_status render_build_dom(const litehtml::document::ptr &doc, const render_opts &opts,
                               dom_doc **out);

extern "C" render_status render_load(render_engine *eng, const char *html, const render_opts *given,
                                     render_doc **out, render_stats *stats)
{
    render_stats local{};
    render_stats &st = stats ? *stats : local;
    st = render_stats{};
    *out = nullptr;
    // The page is laid out in the layout viewport of the browser the window
    // stands for (a phone's reads the page's meta viewport), the window
    // being the screen its media queries see as the device.
    render_viewport_of(html, strlen(html), given, &st.viewport);
    render_opts viewport_opts = *given;
    viewport_opts.screen_w = given->window_w;
    viewport_opts.screen_h = given->window_h;
    viewport_opts.window_w = st.viewport.w;
    viewport_opts.window_h = st.viewport.h;
    const render_opts *opts = &viewport_opts;
    try {
        std::unique_ptr<render_doc> rd(new render_doc);
        rd->cont.reset(new container(eng->fonts, *opts, st));
        double t0 = base_now_ms();
        size_t len = strlen(html);
        // litehtml makes an element per tag and per word: count both before
        // it runs, in the scan that estimates the depth.
        render_html_counts counts;
        if (render_html_count(html, len, &counts) != 0)
            return RENDER_ENOMEM;
        st.elements = counts.elements;
        st.words = counts.words;
        if (opts->max_elements > 0 && counts.elements > opts->max_elements)
            return RENDER_EELEMENTS;
        if (opts->max_words > 0 && counts.words > opts->max_words)
            return RENDER_EWORDS;
        st.max_attrs = counts.max_attrs;
        if (counts.max_attrs > RENDER_MAX_ATTRS)
            return RENDER_EATTRS;
        st.table_cells = counts.table_cells;
        if (opts->max_table_cells > 0 && counts.table_cells > opts->max_table_cells)
            return RENDER_ECELLS;
        int depth = page_depth(html, len, counts, opts->max_depth);
        if (depth < 0)
            return RENDER_EDEPTH;
        auto late = [opts]() { return opts->deadline_ms > 0 && base_now_ms() > opts->deadline_ms; };
        // Rules that cannot match the page never reach litehtml, which tries
        // every selector on every element.
        sheet_noter noter{opts, opts->base_dir ? opts->base_dir : "", {}};
        const bool sheets = opts->css_lookup || !noter.base_dir.empty();
        std::unique_ptr<css_index, void (*)(css_index *)> ix(
            css_index_html(html, len, sheets ? sheet_noter::add : nullptr, &noter),
            css_index_free);
        if (!ix)
            return RENDER_ENOMEM;
        noter.note_attrs(ix.get());
        css_index_drop_attrs(ix.get(), !opts->plain_litehtml && !opts->keep_attrs);
        css_index_limit(ix.get(), depth, counts.elements, opts->max_style_bytes);
        css_index_limit_generated(ix.get(), opts->max_generated);
        css_index_touch(ix.get(), st.viewport.mobile);
        css_index_set_aside(ix.get(), !opts->plain_litehtml);
        auto generated_over = [&]() {
            int over;
            st.generated = css_index_generated(ix.get(), &over);
            return over != 0;
        };
        std::unique_ptr<char, void (*)(void *)> ua(
            css_filter(ix.get(), render_ua_css, strlen(render_ua_css), nullptr), free);
        if (!ua)
            return RENDER_ENOMEM;
        const double ua_generated = css_index_generated(ix.get(), nullptr);
        // Laid out as a browser without scripts shows it; again without the
        // page's own styles for such a browser when they hide the page
        // (noscript.h): the second time only on such pages.
        size_t text_bytes = 0;
        // The runs of white space stay as they are where a style may keep
        // them (spaces.h): the page's, a sheet's it names (sheet_probe). A
        // sheet loaded during the parse that keeps them all the same (one
        // that those import) has the page read again as it is.
        bool keep_spaces = opts->plain_litehtml;
        const sheet_probe probe{opts, opts->base_dir ? opts->base_dir : ""};
        for (int attempt = 0, passes = 0;; attempt++, passes++) {
            css_page_info info;
            css_index_generated_reset(ix.get(), ua_generated); // the page's sheets again
            std::unique_ptr<char, void (*)(void *)> page(
                css_prepare_html(ix.get(), html, len, attempt == 0, &info), free);
            if (!page)
                return RENDER_ENOMEM;
            st.streamed_parts = info.streamed_parts;
            if (generated_over())
                return RENDER_EGENERATED;
            bool collapse = false;
            // The sheets set aside are read as spaces_collapse reads the
            // text of a <style>: one that may keep the runs of white space,
            // or imports one that may, keeps them on the page.
            bool aside_keeps = false;
            for (size_t i = 0; !keep_spaces && !aside_keeps && i < css_index_aside_count(ix.get());
                 i++) {
                size_t n;
                const char *css = css_index_aside(ix.get(), i, &n);
                aside_keeps = spaces_kept(css, n) ||
                              (sheets && base_sheet_refs_css(css, n, sheet_may_keep_spaces,
                                                             (void *)&probe) != 0);
            }
            if (!keep_spaces && !aside_keeps) {
                char *one;
                size_t one_len;
                int c = spaces_collapse(page.get(), strlen(page.get()),
                                        sheets ? sheet_may_keep_spaces
                                            : nullptr,
                                        (void *)&probe, &one, &one_len);
                if (c < 0)
                    return RENDER_ENOMEM;
                if (c > 0)
                    page.reset(one);
                collapse = c > 0;
            }
            if (passes > 0) {
                rd.reset(new render_doc);
                rd->cont.reset(new container(eng->fonts, *opts, st));
            }
            rd->context.load_master_stylesheet(ua.get());
            fonts_missing_clear(eng->fonts); // this page's scripts only
            rd->cont->filter = ix.get();
            rd->cont->spaces_collapsed = collapse;
            const int sheets_loaded = st.stylesheets_loaded,
                      sheets_skipped = st.stylesheets_skipped;
            double tc = base_now_ms();
            st.css_ms += tc - t0;
            rd->cont->last_element_ms = tc;
            {
                struct sink {
                    ~sink()
                    {
                        compat::hidden_sink = nullptr;
                        compat::master_sheet = nullptr;
                    }
                } guard;
                compat::hidden_sink = opts->keep_hidden ? nullptr : &rd->hidden;
                compat::master_sheet = &rd->context.master_css();
                rd->doc =
                    litehtml::document::createFromUTF8(page.get(), rd->cont.get(), &rd->context);
            }
            rd->cont->filter = nullptr;
            double t1 = base_now_ms();
            st.parse_ms += t1 - t0;
            st.html_ms += rd->cont->last_element_ms - tc;
            st.css_ms += rd->cont->filter_ms;
            st.style_ms += t1 - rd->cont->last_element_ms - rd->cont->filter_ms;
            const bool attrs_lost = css_index_attrs_lost(ix.get());
            if (rd->cont->spaces_lost || attrs_lost) { // the same pass again, as written
                if (rd->cont->spaces_lost) {
                    keep_spaces = true;
                    st.spaces_read_again = 1;
                }
                if (attrs_lost) {
                    css_index_drop_attrs(ix.get(), 0);
                    st.attrs_read_again = 1;
                }
                st.stylesheets_loaded = sheets_loaded;
                st.stylesheets_skipped = sheets_skipped;
                attempt--;
                t0 = base_now_ms();
                continue;
            }
            st.attrs_all_kept = opts->plain_litehtml || opts->keep_attrs || st.attrs_read_again;
            if (!rd->doc || !rd->doc->root())
                return RENDER_EPARSE;
            if (rd->cont->font_failed)
                return RENDER_EFONTS;
            if (generated_over()) // a linked stylesheet's rules
                return RENDER_EGENERATED;
            if ((double)st.table_cells < rd->cont->tables.cells)
                st.table_cells = (size_t)std::min(rd->cont->tables.cells, 1e18);
            if (rd->cont->tables.over)
                return RENDER_ECELLS;
            if (!opts->plain_litehtml)
                split_preformatted_runs(rd->doc->root(), rd->doc);
            st.floats = st.floats_total = st.positioned = st.pseudo_boxes = st.shown_elements = 0;
            count_boxes(rd->doc->root(), st);
            if (opts->max_pseudo_boxes > 0 && st.pseudo_boxes > opts->max_pseudo_boxes)
                return RENDER_EPSEUDO;
            if (opts->max_floats > 0 && st.floats > opts->max_floats)
                return RENDER_EFLOATS;
            if (opts->max_positioned > 0 && st.positioned > opts->max_positioned)
                return RENDER_EPOSITIONED;
            if (late())
                return RENDER_ETIME;
            rd->doc->render(opts->window_w);
            double t2 = base_now_ms();
            st.layout_ms += t2 - t1;
            st.height = rd->doc->height();
            if (rd->cont->font_failed)
                return RENDER_EFONTS;
            if (opts->max_doc_height > 0 && st.height > opts->max_doc_height)
                return RENDER_EHEIGHT;
            if (late())
                return RENDER_ETIME;
            render_status s = render_build_dom(rd->doc, *opts, &rd->dom);
            st.dom_ms += base_now_ms() - t2;
            st.n_missing_scripts =
                fonts_missing_scripts(eng->fonts, st.missing_scripts, RENDER_MISSING_SCRIPTS);
            if (s != RENDER_OK)
                return s;
            text_bytes = info.text_bytes;
            if (attempt > 0 || info.noscript_styles == 0 ||
                (double)shown_text_bytes(rd->dom) >= RENDER_HIDDEN_SHARE * (double)info.text_bytes)
                break;
            st.noscript_styles_dropped = 1;
            t0 = base_now_ms();
        }
        st.visibility_revealed = reveal_visibility(rd->dom, text_bytes);
        *out = rd.release();
        return RENDER_OK;
    } catch (const std::bad_alloc &) {
        return RENDER_ENOMEM;
    } catch (...) {
        return RENDER_EPARSE;
    }
}

extern "C" render_status render_paint(render_doc *doc, struct _cairo *cr, dom_box area)
{
    if (!doc || !doc->doc || !cr)
        return RENDER_EPARSE;
    try {
        render_painter p((cairo_t *)cr);
        doc->cont->painter = &p;
        struct unset {
            container *c;
            ~unset() { c->painter = nullptr; }
        } guard{doc->cont.get()};
        double x0 = std::floor(area.x), y0 = std::floor(area.y);
        litehtml::position clip((int)x0, (int)y0, (int)std::ceil(area.x + area.w - x0),
                                (int)std::ceil(area.y + area.h - y0));
        doc->doc->draw((litehtml::uint_ptr)&p, 0, 0, &clip);
        return cairo_status((cairo_t *)cr) == CAIRO_STATUS_NO_MEMORY ? RENDER_ENOMEM : RENDER_OK;
    } catch (const std::bad_alloc &) {
        return RENDER_ENOMEM;
    } catch (...) {
        return RENDER_EPARSE;
    }
}

// litehtml 0.6 looks every keyword of every element's style up with
// value_index, which copies each candidate of the right length out of the
// list into a new string to compare it, and reads every length with
// css_length::fromString, which builds its number and its unit a character
// at a time: a tenth of a modern page's time between them. The glance
// command gives litehtml compat::keyword_index and compat::length_from_string
// (styled.h) in their place: the program exports these definitions
// (tools/CMakeLists.txt), and the dynamic linker binds litehtml's calls,
// made through its PLT, to them. libglance.so exports nothing but glance_*,
// so its callers keep litehtml's own.
namespace litehtml {
__attribute__((used, visibility("default"))) int value_index(const tstring &val,
                                                             const tstring &strings, int defValue,
                                                             tchar_t delim)
{
    return compat::keyword_index(val, strings, defValue, delim);
}

__attribute__((used, visibility("default"))) void
css_length::fromString(const tstring &str, const tstring &predefs, int defValue)
{
    compat::length_from_string(*this, str, predefs, defValue);
}

// html_tag::parse_background reads an element's nine background
// properties (none inherited) from its own declarations, each absent one
// as its default, splitting "0% 0%" and "auto" into new strings and
// converting each keyword, for every element of the page: three in a
// hundred of a modern page's instructions, nearly all for elements that
// declare no background at all. Those all get the same answer: litehtml's
// own, computed once for the first of them (its function, found past this
// one with dlsym), then copied. It writes the fields copied here and no
// other; an element that declares any property named background... is
// litehtml's to read.
__attribute__((used, visibility("default"))) void html_tag::parse_background()
{
    using parse_fn = void (*)(html_tag *);
    static const parse_fn own = reinterpret_cast<parse_fn>(
        dlsym(RTLD_NEXT, "_ZN8litehtml8html_tag16parse_backgroundEv"));
    if (!own) // no litehtml past this one: cannot happen where litehtml calls this
        abort();
    const props_map &props = compat::style_properties(m_style);
    static const tstring prefix("background");
    auto it = props.lower_bound(prefix);
    if (it != props.end() && it->first.compare(0, prefix.size(), prefix) == 0) {
        own(this);
        return;
    }
    struct answer {
        bool known = false;
        background bg;
    };
    static thread_local answer none;
    if (!none.known) {
        own(this);
        none.bg = m_bg;
        none.known = true;
        return;
    }
    m_bg.m_color = none.bg.m_color;
    m_bg.m_position = none.bg.m_position;
    m_bg.m_attachment = none.bg.m_attachment;
    m_bg.m_repeat = none.bg.m_repeat;
    m_bg.m_clip = none.bg.m_clip;
    m_bg.m_origin = none.bg.m_origin;
    m_bg.m_image = none.bg.m_image;
    m_bg.m_baseurl = none.bg.m_baseurl;
}
} // namespace litehtml
