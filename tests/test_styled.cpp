/* render/styled.h's property-name keys: a name's key is remembered by its
 * address only where the bytes can never change (a read-only segment of a
 * loaded object, as litehtml's literals are), so that a name built at run
 * time, whose address later holds another name, is never answered with
 * the key of the name that was there before. */
#include "render/styled.h" /* before cmocka.h, whose macros (skip, fail) litehtml's names are */

#include <cstdlib>
#include <dlfcn.h>
#include <cstring>
#include <string>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

extern "C" {
#include <cmocka.h> /* a C header without C++ linkage of its own */
}

static void literals_are_read_only(void **state)
{
    (void)state;
    static const char literal[] = "margin-left";
    char stack[] = "margin-left";
    std::string heap("margin-left");
    assert_true(compat::read_only_address(literal));
    assert_true(compat::read_only_address("font-size"));
    assert_false(compat::read_only_address(stack));
    assert_false(compat::read_only_address(heap.c_str()));
    static char writable[] = "margin-left";
    assert_false(compat::read_only_address(writable));
}

static void keys_follow_the_bytes(void **state)
{
    (void)state;
    /* The same literal: the same key, remembered or not. */
    compat::name_key a = compat::key_of_name("border-top-width");
    compat::name_key b = compat::key_of_name("border-top-width");
    compat::name_key c = compat::key_of("border-top-width");
    assert_true(a.h == b.h && a.n == b.n && a.h == c.h && a.n == c.n);
    /* A buffer whose name changes in place: each time the new name's key. */
    for (int round = 0; round < 3; round++) {
        char buf[32];
        strcpy(buf, "padding-left");
        compat::name_key x = compat::key_of_name(buf);
        strcpy(buf, "padding-rite");
        compat::name_key y = compat::key_of_name(buf);
        compat::name_key want = compat::key_of("padding-rite");
        assert_true(y.h == want.h && y.n == want.n);
        assert_false(x.h == y.h);
    }
    /* Different names: different keys. */
    assert_false(compat::key_of("width").h == compat::key_of("height").h);
    assert_int_equal(compat::key_of("").n, 0);
    assert_int_equal(compat::key_of("border-bottom-left-radius-x").n, 27);
}

/* A function of litehtml's own library by its symbol (the program has
 * render/container.cpp's in its place), and the library's handle. */
static void *litehtml_own(const char *symbol, void **lib)
{
    *lib = dlopen("liblitehtml.so.0", RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(*lib);
    void *fn = dlsym(*lib, symbol);
    assert_non_null(fn);
    return fn;
}

/* compat::keyword_index answers as litehtml's value_index, the one in
 * litehtml's library (render/container.cpp gives the program its own). */
static void keywords_found_as_litehtml_finds_them(void **state)
{
    (void)state;
    void *lib;
    typedef int (*value_index_fn)(const std::string &, const std::string &, int, char);
    value_index_fn value_index = (value_index_fn)litehtml_own(
        "_ZN8litehtml11value_indexERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES7_ic",
        &lib);
    const char *lists[] = {"auto;none;inherit", "none;block;inline;inline-block;inline-table;"
                           "list-item;table;table-caption;table-cell;table-column;"
                           "table-column-group;table-footer-group;table-header-group;"
                           "table-row;table-row-group;inline-flex;flex",
                           "a", ";a;;b;", "a;", ";", "", "px;em;%;in;cm;mm;vw;vh;rem;ex"};
    const char *vals[] = {"auto", "none", "inherit", "Auto", "inherit;", "table", "flex",
                          "inline", "inline-flex", "table-row-group", "a", "b", "", "px", "ex",
                          "%", "e", "table-row-groups", ";", "a;"};
    for (const char *l : lists)
        for (const char *v : vals)
            for (char delim : {';', ',', '\0'})
                for (int def : {-1, 7}) {
                    int mine = compat::keyword_index(v, l, def, delim);
                    int theirs = value_index(v, l, def, delim);
                    if (mine != theirs)
                        fail_msg("\"%s\" in \"%s\" (%d): %d, litehtml %d", v, l, delim, mine,
                                 theirs);
                }
    dlclose(lib);
}

/* compat::length_from_string reads a length as litehtml's
 * css_length::fromString does, the one in litehtml's library. */
static void lengths_read_as_litehtml_reads_them(void **state)
{
    (void)state;
    void *lib;
    typedef void (*from_string_fn)(litehtml::css_length *, const std::string &,
                                   const std::string &, int);
    from_string_fn from_string = (from_string_fn)litehtml_own(
        "_ZN8litehtml10css_length10fromStringERKNSt7__cxx1112basic_stringIcSt11char_"
        "traitsIcESaIcEEES8_i",
        &lib);
    const char *values[] = {"10px", "1.5em", "-3.25rem", "+4", "50%", "0", "auto", "none",
                            "inherit", "calc(100% - 2px)", "calc", "cal", "12", "007", "0px",
                            "999999999px", "1234567890em", "16777217", "1e3px", "1.2.3",
                            "--1", ".5vw", "5 px", "px", "", "thin", "medium", "12PX", "7dpcm",
                            "3vmin", "1234567890123456789012345678901234567890.5px", "4in;",
                            "-", "."};
    const char *predefs[] = {"", "auto", "auto;none;inherit", "thin;medium;thick", ";auto"};
    for (const char *v : values)
        for (const char *p : predefs)
            for (int def : {0, 2, -1}) {
                litehtml::css_length mine, theirs;
                mine.set_value(9, litehtml::css_units_pt);
                theirs.set_value(9, litehtml::css_units_pt);
                compat::length_from_string(mine, v, p, def);
                from_string(&theirs, v, p, def);
                bool same = mine.is_predefined() == theirs.is_predefined() &&
                            mine.units() == theirs.units() &&
                            (mine.is_predefined() ? mine.predef() == theirs.predef()
                                                  : mine.val() == theirs.val());
                if (!same)
                    fail_msg("\"%s\" with \"%s\", %d: %d %d %g %d, litehtml %d %d %g %d", v, p,
                             def, mine.is_predefined(), mine.predef(), mine.val(), mine.units(),
                             theirs.is_predefined(), theirs.predef(), theirs.val(),
                             theirs.units());
            }
    dlclose(lib);
}

/* The least a litehtml document needs to be parsed and styled: no fonts,
 * no drawing, no images. */
namespace {
struct bare_container : litehtml::document_container {
    litehtml::uint_ptr create_font(const litehtml::tchar_t *, int size, int, litehtml::font_style,
                                   unsigned int, litehtml::font_metrics *fm) override
    {
        if (fm) {
            fm->height = size;
            fm->ascent = size * 4 / 5;
            fm->descent = size - fm->ascent;
            fm->x_height = size / 2;
            fm->draw_spaces = true;
        }
        return 1;
    }
    void delete_font(litehtml::uint_ptr) override {}
    int text_width(const litehtml::tchar_t *text, litehtml::uint_ptr) override
    {
        return (int)strlen(text) * 8;
    }
    void draw_text(litehtml::uint_ptr, const litehtml::tchar_t *, litehtml::uint_ptr,
                   litehtml::web_color, const litehtml::position &) override
    {
    }
    int pt_to_px(int pt) const override { return pt * 4 / 3; }
    int get_default_font_size() const override { return 16; }
    const litehtml::tchar_t *get_default_font_name() const override { return "serif"; }
    void draw_list_marker(litehtml::uint_ptr, const litehtml::list_marker &) override {}
    void load_image(const litehtml::tchar_t *, const litehtml::tchar_t *, bool) override {}
    void get_image_size(const litehtml::tchar_t *, const litehtml::tchar_t *,
                        litehtml::size &sz) override
    {
        sz.width = sz.height = 0;
    }
    void draw_background(litehtml::uint_ptr, const litehtml::background_paint &) override {}
    void draw_borders(litehtml::uint_ptr, const litehtml::borders &, const litehtml::position &,
                      bool) override
    {
    }
    void set_caption(const litehtml::tchar_t *) override {}
    void set_base_url(const litehtml::tchar_t *) override {}
    void link(const std::shared_ptr<litehtml::document> &, const litehtml::element::ptr &) override
    {
    }
    void on_anchor_click(const litehtml::tchar_t *, const litehtml::element::ptr &) override {}
    void set_cursor(const litehtml::tchar_t *) override {}
    void transform_text(litehtml::tstring &, litehtml::text_transform) override {}
    void import_css(litehtml::tstring &, const litehtml::tstring &, litehtml::tstring &) override {}
    void set_clip(const litehtml::position &, const litehtml::border_radiuses &, bool,
                  bool) override
    {
    }
    void del_clip() override {}
    void get_client_rect(litehtml::position &client) const override
    {
        client = litehtml::position(0, 0, 1280, 800);
    }
    std::shared_ptr<litehtml::element> create_element(const litehtml::tchar_t *,
                                                      const litehtml::string_map &,
                                                      const std::shared_ptr<litehtml::document> &) override
    {
        return nullptr;
    }
    void get_media_features(litehtml::media_features &media) const override
    {
        media.type = litehtml::media_type_screen;
        media.width = media.device_width = 1280;
        media.height = media.device_height = 800;
        media.color = 8;
        media.resolution = 96;
    }
    void get_language(litehtml::tstring &language, litehtml::tstring &culture) const override
    {
        language = "en";
        culture.clear();
    }
};

/* An element's background and parse_background, which html_tag keeps
 * protected. */
struct bg_of : litehtml::html_tag {
    static litehtml::background &in(litehtml::html_tag &el) { return el.*(&bg_of::m_bg); }
    static void parse(litehtml::html_tag &el) { (el.*(&bg_of::parse_background))(); }
};

/* A keyword's length keeps the unit it had before (css_length::predef):
 * not compared. */
bool same_length(const litehtml::css_length &a, const litehtml::css_length &b)
{
    return a.is_predefined() == b.is_predefined() &&
           (a.is_predefined() ? a.predef() == b.predef()
                              : a.val() == b.val() && a.units() == b.units());
}

/* Other values in each field parse_background sets: what was there must
 * not stay. */
void fill(litehtml::background &bg)
{
    bg.m_color = litehtml::web_color(1, 2, 3, 4);
    bg.m_position.x.set_value(7, litehtml::css_units_pt);
    bg.m_position.y.predef(3);
    bg.m_position.width.set_value(9, litehtml::css_units_em);
    bg.m_position.height.set_value(9, litehtml::css_units_em);
    bg.m_attachment = litehtml::background_attachment_fixed;
    bg.m_repeat = litehtml::background_repeat_no_repeat;
    bg.m_clip = litehtml::background_box_content;
    bg.m_origin = litehtml::background_box_border;
    bg.m_image = "junk.png";
    bg.m_baseurl = "junk/";
}

typedef void (*parse_background_fn)(litehtml::html_tag *);

void check_backgrounds(const litehtml::element::ptr &el, parse_background_fn own, int *checked)
{
    if (auto *tag = dynamic_cast<litehtml::html_tag *>(el.get())) {
        litehtml::background &bg = bg_of::in(*tag);
        fill(bg);
        own(tag); /* litehtml's */
        const litehtml::background want = bg;
        fill(bg);
        bg_of::parse(*tag); /* render/container.cpp's, in this program */
        const char *t = tag->get_tagName();
        if (!(bg.m_color.red == want.m_color.red && bg.m_color.green == want.m_color.green &&
              bg.m_color.blue == want.m_color.blue && bg.m_color.alpha == want.m_color.alpha))
            fail_msg("<%s>: background-color differs from litehtml's", t);
        if (!same_length(bg.m_position.x, want.m_position.x) ||
            !same_length(bg.m_position.y, want.m_position.y) ||
            !same_length(bg.m_position.width, want.m_position.width) ||
            !same_length(bg.m_position.height, want.m_position.height))
            fail_msg("<%s class=%s style=%s>: background position or size differs from "
                     "litehtml's: x %d %d %g %d / %d %d %g %d, y %d %d %g %d / %d %d %g %d, "
                     "w %d %d %g %d / %d %d %g %d",
                     t, tag->get_attr("class", ""), tag->get_attr("style", ""),
                     bg.m_position.x.is_predefined(), bg.m_position.x.predef(),
                     bg.m_position.x.val(), bg.m_position.x.units(),
                     want.m_position.x.is_predefined(), want.m_position.x.predef(),
                     want.m_position.x.val(), want.m_position.x.units(),
                     bg.m_position.y.is_predefined(), bg.m_position.y.predef(),
                     bg.m_position.y.val(), bg.m_position.y.units(),
                     want.m_position.y.is_predefined(), want.m_position.y.predef(),
                     want.m_position.y.val(), want.m_position.y.units(),
                     bg.m_position.width.is_predefined(), bg.m_position.width.predef(),
                     bg.m_position.width.val(), bg.m_position.width.units(),
                     want.m_position.width.is_predefined(), want.m_position.width.predef(),
                     want.m_position.width.val(), want.m_position.width.units());
        if (bg.m_attachment != want.m_attachment || bg.m_repeat != want.m_repeat ||
            bg.m_clip != want.m_clip || bg.m_origin != want.m_origin)
            fail_msg("<%s>: background keywords differ from litehtml's", t);
        if (bg.m_image != want.m_image || bg.m_baseurl != want.m_baseurl)
            fail_msg("<%s>: background image \"%s\", litehtml's \"%s\"", t, bg.m_image.c_str(),
                     want.m_image.c_str());
        (*checked)++;
    }
    for (size_t i = 0; i < el->get_children_count(); i++)
        check_backgrounds(el->get_child((int)i), own, checked);
}
} // namespace

/* render/container.cpp's html_tag::parse_background (the glance command's,
 * in litehtml's place) answers as litehtml's own: elements that declare no
 * background (its one answer, copied) and elements that do (litehtml's
 * own function called), each element's background first filled with
 * other values. */
static void backgrounds_as_litehtml_reads_them(void **state)
{
    (void)state;
    bare_container c;
    litehtml::context ctx;
    ctx.load_master_stylesheet("html{display:block}body{display:block;margin:8px}"
                               "div,p{display:block}");
    const char *page =
        "<html><head><style>"
        ".c{background-color:#123456}.p{background-position:right 20%}"
        ".s{background-size:cover}.s2{background-size:10px 2em}"
        ".i{background:url('a.png') no-repeat fixed center / contain}"
        ".k{background-clip:content-box;background-origin:border-box}"
        ".h{background-color:inherit}.w{width:50%}"
        "</style></head><body>"
        "<div>a</div><div class=w>b</div><p>c <span>d</span></p>"
        "<div class=c>e<div class=h>f</div></div><div class=p>g</div>"
        "<div class=s>h</div><div class=s2>i</div><div class=i>j</div>"
        "<div class=k>k</div><div style='background:red'>l</div><div>m</div>"
        "<div style='color:red'>n</div><p>o</p><span>p</span>"
        "</body></html>";
    litehtml::document::ptr doc = litehtml::document::createFromUTF8(page, &c, &ctx);
    assert_true(doc != nullptr);
    void *lib;
    parse_background_fn own =
        (parse_background_fn)litehtml_own("_ZN8litehtml8html_tag16parse_backgroundEv", &lib);
    int checked = 0;
    /* Twice: the first element without a background may be the one whose
     * answer is kept; the second round copies it to all of them. */
    for (int round = 0; round < 2; round++)
        check_backgrounds(doc->root(), own, &checked);
    dlclose(lib);
    if (checked < 30)
        fail_msg("%d elements checked", checked);
}

/* An element's attributes and classes, which html_tag keeps protected. */
struct attrs_of : litehtml::html_tag {
    static const litehtml::string_map &map(const litehtml::html_tag &el)
    {
        return el.*(&attrs_of::m_attrs);
    }
    static const litehtml::string_vector &classes(const litehtml::html_tag &el)
    {
        return el.*(&attrs_of::m_class_values);
    }
};

/* styled.h's set_tagName and set_attr leave the tag, the attributes and
 * the classes as litehtml's own do. */
static void attributes_set_as_litehtml_sets_them(void **state)
{
    (void)state;
    bare_container c;
    litehtml::context ctx;
    ctx.load_master_stylesheet("");
    auto doc = std::make_shared<litehtml::document>(&c, &ctx);
    const char *tags[] = {"div", "DIV", "Svg:Path", "h1", "x-\xc3\x89L", ""};
    const char *attrs[][2] = {{"class", "a  B\tc d"},
                              {"CLASS", " x "},
                              {"Class", ""},
                              {"id", "Main"},
                              {"ID", "other"},
                              {"data-\xc3\x89t\xc3\xa9", "1"},
                              {"viewBox", "0 0 10 10"},
                              {"class", "\"q r\" s"},
                              {"style", "color:red"},
                              {nullptr, "x"},
                              {"title", nullptr},
                              {"", "empty"}};
    for (const char *t : tags) {
        litehtml::html_tag theirs(doc);
        compat::styled<litehtml::html_tag> mine(doc);
        theirs.set_tagName(t);
        mine.set_tagName(t);
        assert_string_equal(mine.get_tagName(), theirs.get_tagName());
        for (const auto &a : attrs) {
            theirs.set_attr(a[0], a[1]);
            mine.set_attr(a[0], a[1]);
            if (attrs_of::map(mine) != attrs_of::map(theirs))
                fail_msg("<%s>: attributes differ after %s", t, a[0] ? a[0] : "(null)");
            if (attrs_of::classes(mine) != attrs_of::classes(theirs))
                fail_msg("<%s>: classes differ after %s=\"%s\"", t, a[0] ? a[0] : "(null)",
                         a[1] ? a[1] : "(null)");
        }
    }
}

/* An element's declarations, which html_tag keeps protected. */
struct style_of : litehtml::html_tag {
    static const litehtml::style &in(const litehtml::html_tag &el) { return el.*(&style_of::m_style); }
};

/* A container whose <div>s and <span>s are styled.h's elements. */
struct styled_container : bare_container {
    std::shared_ptr<litehtml::element> create_element(const litehtml::tchar_t *tag,
                                                      const litehtml::string_map &,
                                                      const std::shared_ptr<litehtml::document> &doc) override
    {
        if (!strcmp(tag, "div") || !strcmp(tag, "span"))
            return std::make_shared<compat::styled<litehtml::html_tag>>(doc);
        return nullptr;
    }
};

/* Each element's declarations, "name: value !" (the ! when important), by
 * the order of the tree, into out; its text first. */
void declarations_of(const litehtml::element::ptr &el, std::vector<std::string> &out)
{
    if (auto *tag = dynamic_cast<litehtml::html_tag *>(el.get())) {
        std::string all = std::string("<") + tag->get_tagName() + " " + tag->get_attr("class", "") + ">";
        for (const auto &kv : compat::style_properties(style_of::in(*tag)))
            all += " " + kv.first + ": " + kv.second.m_value + (kv.second.m_important ? " !" : "") + ";";
        out.push_back(all);
    }
    for (size_t i = 0; i < el->get_children_count(); i++)
        declarations_of(el->get_child((int)i), out);
}

/* styled.h's rule_index keeps a block with var() per the answers its
 * custom properties give (var_parse): each element gets the declarations
 * the parse in place (litehtml's, var() answered by styled.h) gives it, under different values of the same
 * properties, with fallbacks, chains, a block that declares a custom
 * property itself and one the element declares !important. */
static void var_blocks_as_litehtml_parses_them(void **state)
{
    (void)state;
    litehtml::context ctx;
    ctx.load_master_stylesheet("html{display:block}body{display:block}div{display:block}");
    const char *page =
        "<html><head><style>"
        "html{--w:10px;--c:red}.a{--w:20px}.b{--c:blue}.i{--w:30px !important}"
        ".x{width:var(--w);color:var(--c);margin:var(--w) 0}"
        ".y{--z:3px;padding:var(--z)}"
        ".f{height:var(--nope, 5px);border-left-width:var(--w,1px)}"
        ".m{--chain:var(--w)}.n{left:var(--chain)}"
        "</style></head><body>"
        "<div class=x>1</div>"
        "<div class=a><div class=x>2</div><div class='x f'>3</div></div>"
        "<div class=b><div class=x>4</div><div class=a><span class=x>5</span></div></div>"
        "<div class='x y'>6</div><div class=y><div class='x y'>7</div></div>"
        "<div class=f>8</div><div class=a><div class=f>9</div></div>"
        "<div class=m><div class=n>10</div></div><div class='a m'><div class=n>11</div></div>"
        "<div class=x style='--w:40px'>12</div><div class='x i'>13</div>"
        "<div class=b><div class=a><div class=x>14</div><div class='x f'>15</div></div></div>"
        "<div class=x>16</div>"
        "</body></html>";
    styled_container c;
    compat::keep_var_blocks = false; /* each block parsed in place, as litehtml does */
    litehtml::document::ptr theirs = litehtml::document::createFromUTF8(page, &c, &ctx);
    compat::keep_var_blocks = true;
    litehtml::document::ptr mine = litehtml::document::createFromUTF8(page, &c, &ctx);
    assert_true(theirs && mine);
    std::vector<std::string> want, got;
    declarations_of(theirs->root(), want);
    declarations_of(mine->root(), got);
    assert_int_equal(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++)
        if (got[i] != want[i])
            fail_msg("element %zu:\n  %s\nparsed in place:\n  %s", i, got[i].c_str(), want[i].c_str());
    /* The page asks what it means to: the same rule, other values. */
    std::string all;
    for (const auto &w : want)
        all += w + "\n";
    assert_non_null(strstr(all.c_str(), "width: 10px;"));
    assert_non_null(strstr(all.c_str(), "width: 20px;"));
    assert_non_null(strstr(all.c_str(), "color: blue;"));
    assert_non_null(strstr(all.c_str(), "height: 5px;"));
    assert_non_null(strstr(all.c_str(), "left: 20px;"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(literals_are_read_only),
        cmocka_unit_test(keys_follow_the_bytes),
        cmocka_unit_test(keywords_found_as_litehtml_finds_them),
        cmocka_unit_test(lengths_read_as_litehtml_reads_them),
        cmocka_unit_test(backgrounds_as_litehtml_reads_them),
        cmocka_unit_test(attributes_set_as_litehtml_sets_them),
        cmocka_unit_test(var_blocks_as_litehtml_parses_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
