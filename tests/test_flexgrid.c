/* The flex and grid layer (render/compat.h): pages laid out at 1000 px of
 * window, boxes checked against what a browser gives them (worked out by
 * hand from the CSS; the fonts do not matter where widths are set). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dom/dom.h"
#include "fonts/fonts.h"
#include "render/render.h"

static fonts_lib *fonts;
static render_engine *engine;

static int setup(void **state)
{
    (void)state;
    fonts = fonts_lib_new();
    engine = fonts ? render_engine_new(fonts) : NULL;
    return engine ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    render_engine_free(engine);
    fonts_lib_free(fonts);
    return 0;
}

static render_doc *lay_out_as(const char *body_html, int plain, int keep_hidden,
                              render_stats *stats)
{
    char html[16384];
    int n = snprintf(html, sizeof html,
                     "<!DOCTYPE html><html><head><style>body{margin:0;font:16px/20px sans-serif}"
                     "</style></head><body>%s</body></html>",
                     body_html);
    assert_true(n > 0 && (size_t)n < sizeof html);
    render_opts ro = {
        .window_w = 1000, .window_h = 800, .plain_litehtml = plain, .keep_hidden = keep_hidden};
    render_doc *doc = NULL;
    assert_int_equal(render_load(engine, html, &ro, &doc, stats), RENDER_OK);
    return doc;
}

static render_doc *lay_out(const char *body_html, int plain)
{
    return lay_out_as(body_html, plain, 0, NULL);
}

static dom_box box_of(render_doc *doc, const char *xpath)
{
    dom_node *n = dom_find_xpath(render_doc_dom(doc), xpath);
    if (!n)
        fail_msg("no node at %s", xpath);
    return n->box;
}

#define assert_box(doc, xpath, X, Y, W, H)                                                         \
    do {                                                                                           \
        dom_box b_ = box_of(doc, xpath);                                                           \
        if (b_.x != (X) || b_.y != (Y) || b_.w != (W) || b_.h != (H))                              \
            fail_msg("%s: box %g,%g %gx%g, expected %d,%d %dx%d", xpath, b_.x, b_.y, b_.w, b_.h, \
                     (X), (Y), (W), (H));                                                          \
    } while (0)

#define assert_near(doc, xpath, X, Y, W, H, tol)                                                     \
    do {                                                                                             \
        dom_box b_ = box_of(doc, xpath);                                                             \
        if (b_.x < (X) - (tol) || b_.x > (X) + (tol) || b_.y < (Y) - (tol) || b_.y > (Y) + (tol) ||  \
            b_.w < (W) - (tol) || b_.w > (W) + (tol) || b_.h < (H) - (tol) || b_.h > (H) + (tol))    \
            fail_msg("%s: box %g,%g %gx%g, expected about %d,%d %dx%d", xpath, b_.x, b_.y, b_.w,   \
                     b_.h, (X), (Y), (W), (H));                                                    \
    } while (0)

static const dom_node *node_at(render_doc *doc, const char *xpath)
{
    const dom_node *n = dom_find_xpath(render_doc_dom(doc), xpath);
    if (!n)
        fail_msg("no node at %s", xpath);
    return n;
}

/* The layer keeps each element's answers to inherited lookups once its own
 * declarations are final (compat.cpp): what an ancestor's stylesheet rule or
 * style attribute gives is inherited, and a descendant's own style attribute
 * or rule still wins, exactly as litehtml alone resolves them. */
static void inherited_styles_as_litehtml_alone(void **state)
{
    (void)state;
    const char *body =
        "<style>.h{visibility:hidden}.w{font-weight:bold}.n{font-weight:normal}</style>"
        "<div class=h><section><p>hidden <b>deep</b></p>"
        "<p style='visibility:visible'>shown</p></section></div>"
        "<div class=w><section><p>bold <i>too</i></p><p class=n>not bold</p>"
        "<p style='font-weight:300'>light</p></section></div>"
        "<div style='white-space:pre'><section><p>a  b</p></section></div>";
    for (int plain = 0; plain <= 1; plain++) {
        render_doc *doc = lay_out(body, plain);
        assert_true(node_at(doc, "/html/body/div[1]/section/p[1]/b")->hidden & DOM_HIDDEN_VISIBILITY);
        assert_true(node_at(doc, "/html/body/div[1]/section/p[1]")->hidden & DOM_HIDDEN_VISIBILITY);
        assert_false(node_at(doc, "/html/body/div[1]/section/p[2]")->hidden & DOM_HIDDEN_VISIBILITY);
        assert_int_equal(node_at(doc, "/html/body/div[2]/section/p[1]/i")->font_weight, 700);
        assert_int_equal(node_at(doc, "/html/body/div[2]/section/p[2]")->font_weight, 400);
        assert_int_equal(node_at(doc, "/html/body/div[2]/section/p[3]")->font_weight, 300);
        assert_true(node_at(doc, "/html/body/div[3]/section/p")->preformatted);
        assert_false(node_at(doc, "/html/body/div[2]/section/p[1]")->preformatted);
        render_doc_free(doc);
    }
}

/* Every node of two laid-out trees alike: the same kind, tag, text, box,
 * display, visibility, weight, size and white space. What is inside a
 * display:none element may be only in b: litehtml's own tree, or one laid
 * out keeping it (styled.h). More than min_nodes nodes each. */
static void assert_same_trees(render_doc *a, render_doc *b, size_t min_nodes)
{
    const dom_node *x = dom_doc_root(render_doc_dom(a)), *y = dom_doc_root(render_doc_dom(b));
    size_t n = 0;
    for (; x && y; n++) {
        char where[160];
        snprintf(where, sizeof where, "node %zu (%s)", n, x->tag ? x->tag : "text");
        if (x->kind != y->kind || (x->tag == NULL) != (y->tag == NULL) ||
            (x->tag && strcmp(x->tag, y->tag)) || x->text_len != y->text_len ||
            (x->text && memcmp(x->text, y->text, x->text_len)))
            fail_msg("%s: the trees differ", where);
        if (x->box.x != y->box.x || x->box.y != y->box.y || x->box.w != y->box.w ||
            x->box.h != y->box.h)
            fail_msg("%s: box %g,%g %gx%g with the layer, %g,%g %gx%g without", where, x->box.x,
                     x->box.y, x->box.w, x->box.h, y->box.x, y->box.y, y->box.w, y->box.h);
        if (x->display != y->display || x->hidden != y->hidden || x->font_weight != y->font_weight ||
            x->font_size != y->font_size || x->preformatted != y->preformatted)
            fail_msg("%s: display %d/%d hidden %u/%u weight %d/%d size %g/%g pre %d/%d", where,
                     x->display, y->display, x->hidden, y->hidden, x->font_weight, y->font_weight,
                     x->font_size, y->font_size, x->preformatted, y->preformatted);
        int skip = (y->hidden & DOM_HIDDEN_DISPLAY_NONE) && !x->first_child &&
                   !dom_is_tag(y, "noscript") && !dom_is_tag(y, "head");
        x = dom_next(x, NULL);
        y = skip ? dom_next_after(y, NULL) : dom_next(y, NULL);
    }
    assert_null(x);
    assert_null(y);
    assert_true(n > min_nodes);
}

/* Our elements try only the rules whose rightmost id, class or tag they
 * have (compat.cpp's rule index) and reject the rest before litehtml's
 * matching: the styles and boxes must be litehtml's own, with rules by id,
 * class, tag, attribute, the universal selector, :not(), descendant and
 * child combinators, pseudo-elements, :link, ids and classes in another case, and
 * conflicts that specificity and source order settle. */
static void selectors_as_litehtml_alone(void **state)
{
    (void)state;
    const char *body =
        "<style>"
        "*{line-height:23px}"
        "#main{width:700px}"
        ".card{margin-left:30px;width:640px}"
        ".card.wide{width:660px}"
        "section{padding-left:7px}"
        "[data-x]{margin-top:11px}"
        "[lang=fr]{font-weight:bold}"
        "p:not(.plain){margin-left:13px}"
        "article p{width:400px}"
        "article > div{width:300px}"
        "div.box{width:250px}"
        ".box{width:500px}"
        "#b1{width:150px}"
        ".a{margin-left:5px}.b{margin-left:9px}"
        ".CaseY{width:222px}#MixedId{width:333px}"
        ".gone{display:none}"
        "p.q::before{content:'Note: '}"
        "td.cell{width:120px;font-weight:900}"
        "ul li{margin-left:17px}ul > li > span{font-size:21px}"
        "h2 + p{margin-top:19px}"
        "a.lk:link{display:block;width:123px}"
        "</style>"
        "<div id=main><div class='card'><p>one</p><p class=plain>two</p></div>"
        "<div class='card wide'><section><p data-x=1>three</p><p lang=fr>four</p></section></div>"
        "<article><p>five</p><div>six <div>seven</div></div></article>"
        "<div class=box>box</div><div class=box id=b1>b1</div><span class=box>span</span>"
        "<div class='b a'>ab</div><div class='a b'>ba</div>"
        "<div class=casey>case</div><div id=mixedid>mixed</div>"
        "<div class=gone>gone</div><p class=q>quote</p>"
        "<table><tr><td class=cell>cell</td><td>other</td></tr></table>"
        "<ul><li><span>item</span> one</li><li>two <em><span>deep</span></em></li></ul>"
        "<h2>head</h2><p>after</p><p>later</p>"
        "<p><a class=lk href=/x>link</a> <a class=lk>no link</a></p></div>";
    render_doc *with = lay_out(body, 0), *without = lay_out(body, 1);
    assert_same_trees(with, without, 60);
    /* The rules did apply (a page no rule matched would prove nothing). */
    assert_int_equal(box_of(with, "/html/body/div/div[3]").w, 250);
    assert_int_equal(box_of(with, "/html/body/div/div[4]").w, 150);
    assert_int_equal(box_of(with, "/html/body/div/div[5]").x, 9);
    assert_int_equal(box_of(with, "/html/body/div/div[7]").w, 222);
    assert_int_equal(box_of(with, "/html/body/div/div[8]").w, 333);
    assert_int_equal(node_at(with, "/html/body/div/div[2]/section/p[2]")->font_weight, 700);
    assert_true(node_at(with, "/html/body/div/div[9]")->hidden);
    assert_int_equal(box_of(with, "/html/body/div/div[1]/p[1]").h, 23);
    assert_int_equal(box_of(with, "/html/body/div/p[4]/a[1]").w, 123);
    assert_int_equal(node_at(with, "/html/body/div/p[4]/a[2]")->display, DOM_DISPLAY_INLINE);
    render_doc_free(with);
    render_doc_free(without);
}

/* Each rule's declarations are parsed once and combined into every element
 * it matches (styled.h's rule_index::declarations), where litehtml parses
 * the block's text again into each: the styles and boxes must be litehtml's
 * own, with !important against specificity and source order, !important
 * and a later plain value in one block, shorthands before and after their
 * longhands in one block and across rules, font, border, padding and
 * list-style shorthands, a selector list sharing one block, an invalid
 * white-space value, var() (parsed in place, as litehtml does) and the
 * background shorthand after a background-position. */
static void declarations_as_litehtml_alone(void **state)
{
    (void)state;
    const char *body =
        "<style>"
        "div{line-height:22px}"
        ".i{width:210px!important}#imp{width:300px}"
        ".j{width:230px !important;width:260px}"
        ".m{margin:4px;margin-left:21px}.n{margin-left:21px;margin:6px 8px}"
        ".s1{width:100px}.s2{width:200px}"
        ".f{font:bold 20px/30px serif}.f2{font-size:12px}"
        ".g{font-weight:300}.g{font:italic 18px sans-serif}"
        ".b{border:3px solid red}.bl{border-left-width:7px}"
        ".p3{padding:1px 2px 3px}.p2{padding:5px 9px;padding-top:11px}"
        ".l1, .l2, p.l3{width:111px;margin-left:3px}"
        ".h{display:none!important}.h2{display:block}"
        ".pre{white-space:pre}.pre2{white-space:nowrapx}"
        ".v{--w:180px;width:var(--w)}.v2{width:190px}"
        ".bp{background-position:left top}.bg{background:red url(x.png) center;width:170px}"
        ".ls{list-style:square inside}.ul{display:list-item;margin-left:40px}"
        ".bs{border-spacing:4px 6px}.rad{border-radius:3px / 5px}"
        ".imp2{width:140px!important}.imp2b{width:150px!important}"
        ".wi{width:330px;margin-left:17px}.wi>div{width:INHERIT;margin-left:inherit}"
        "</style>"
        "<div id=imp class=i>imp</div><div class=j>j</div>"
        "<div class=m>m</div><div class=n>n</div><div class='m n'>mn</div>"
        "<div class='s2 s1'>s</div><div class=f>f <span class=f2>f2</span></div>"
        "<div class=g>g</div><div class='b bl'>b</div><div class=b>b2</div>"
        "<div class=p3>p3</div><div class=p2>p2</div>"
        "<div class=l1>l1</div><span class=l2>l2</span><p class=l3>l3</p>"
        "<div class='h h2'>hidden</div><div class='h2'>shown</div>"
        "<div class='pre pre2'>a  b</div><div class=pre2>c  d</div>"
        "<div class=v>v</div><div class='v v2'>v2</div>"
        "<div class='bp bg'>bg</div><div class=bg>bg2</div>"
        "<ul class=ls><li>one</li><li class=ul>two</li></ul>"
        "<table class=bs><tr><td class=rad>t</td><td>u</td></tr></table>"
        "<div class='imp2 imp2b'>i2</div><div class='imp2b imp2' style='width:99px'>i3</div>"
        "<div style='width:120px!important' class=i>i4</div>"
        "<section><div class=m>m2</div><div class='s1 i'>si</div><p class=n>pn</p>"
        "<div class=f><div class=g>fg</div></div></section>"
        "<div class=wi><div>wi</div></div>";
    render_doc *with = lay_out(body, 0), *without = lay_out(body, 1);
    assert_same_trees(with, without, 60);
    /* The rules did apply. */
    assert_int_equal(box_of(with, "/html/body/div[1]").w, 210);
    assert_int_equal(box_of(with, "/html/body/div[2]").w, 230);
    assert_int_equal(box_of(with, "/html/body/div[3]").x, 21);
    assert_int_equal(box_of(with, "/html/body/div[4]").x, 8);
    assert_int_equal(box_of(with, "/html/body/div[6]").w, 200);
    assert_int_equal(box_of(with, "/html/body/div[13]").w, 111);
    assert_int_equal(box_of(with, "/html/body/div[18]").w, 180);
    assert_int_equal(box_of(with, "/html/body/div[19]").w, 190);
    assert_int_equal(box_of(with, "/html/body/div[21]").w, 170);
    assert_int_equal(box_of(with, "/html/body/div[22]").w, 150);
    assert_int_equal(box_of(with, "/html/body/div[23]").w, 150);
    assert_int_equal(box_of(with, "/html/body/div[24]").w, 120);
    assert_box(with, "/html/body/div[25]/div", 34, 850, 330, 22);
    assert_false(node_at(with, "/html/body/div[15]")->hidden);
    assert_false(node_at(with, "/html/body/div[17]")->preformatted);
    assert_true(node_at(with, "/html/body/div[14]")->hidden);
    assert_true(node_at(with, "/html/body/div[16]")->preformatted);
    assert_int_equal(node_at(with, "/html/body/div[7]")->font_weight, 700);
    render_doc_free(with);
    render_doc_free(without);
}

/* Our elements reject a selector whose left part names a tag, id or class
 * no ancestor has, before litehtml's matching walks every ancestor
 * (styled.h's ancestor_filter): the styles and boxes must be litehtml's own,
 * with descendant and child chains several compounds long, ids and classes
 * in another case, the universal selector, sibling combinators in the
 * chain, a rule whose ancestor is one of litehtml's own elements (font, th,
 * which walk their children themselves), and keys a sibling branch had. */
static void ancestors_as_litehtml_alone(void **state)
{
    (void)state;
    const char *body =
        "<style>"
        "div{line-height:21px}"
        ".outer .inner{width:310px}"
        "#Top section .deep{width:320px}"
        ".a > .b > .c{width:330px}"
        ".a .c .d{margin-left:12px}"
        "article.x div p{width:340px}"
        "* > .u{margin-left:5px}"
        "h2 + div .s{width:350px}"
        "h3 ~ div > .t{width:360px}"
        "font .f{width:370px}th .g{width:380px}font div div{margin-left:14px}"
        ".side .leak{width:390px}"
        ".MiXed .k{width:400px}"
        ".none .inner{width:410px}"
        "body > div > .z{width:420px}"
        "</style>"
        "<div class=outer><div><div class=inner>inner</div></div></div>"
        "<div id=tOP><section><div><p class=deep>deep</p></div></section></div>"
        "<div class=a><div class=b><div class=c>abc <div class=d>d</div></div></div></div>"
        "<div class=a><div><div class=c>ac <span><div class=d>d2</div></span></div></div></div>"
        "<article class=x><div><section><p>p</p></section></div></article>"
        "<div class=u>u</div>"
        "<h2>h</h2><div><div class=s>s</div></div><div><div class=s>s2</div></div>"
        "<h3>h3</h3><p>x</p><div><div class=t>t</div></div>"
        "<font><div class=f>f</div><div><div>fd</div></div></font>"
        "<table><tr><th><div class=g>g</div></th></tr></table>"
        "<div class=side><div>side</div></div><div><div class=leak>leak</div></div>"
        "<div class=MIXED><div class=K>k</div></div>"
        "<div class=z>z</div><div><div class=z>z2</div></div>";
    render_doc *with = lay_out(body, 0), *without = lay_out(body, 1);
    assert_same_trees(with, without, 60);
    /* The rules did apply, and not where they must not. */
    assert_int_equal(box_of(with, "/html/body/div[1]/div/div").w, 310);
    assert_int_equal(box_of(with, "/html/body/div[2]/section/div/p").w, 320);
    assert_int_equal(box_of(with, "/html/body/div[3]/div/div").w, 330);
    assert_int_equal(box_of(with, "/html/body/div[4]/div/div").w, 1000);
    assert_int_equal(box_of(with, "/html/body/article/div/section/p").w, 340);
    assert_int_equal(box_of(with, "/html/body/div[6]/div").w, 350);
    assert_int_equal(box_of(with, "/html/body/div[7]/div").w, 1000);
    assert_int_equal(box_of(with, "/html/body/div[8]/div").w, 360);
    assert_int_equal(box_of(with, "/html/body/font/div[1]").w, 370);
    assert_int_equal(box_of(with, "/html/body/div[10]/div").w, 1000);
    assert_int_equal(box_of(with, "/html/body/div[11]/div").w, 400);
    assert_int_equal(box_of(with, "/html/body/div[12]").w, 1000);
    assert_int_equal(box_of(with, "/html/body/div[13]/div").w, 420);
    render_doc_free(with);
    render_doc_free(without);
}

/* A run of white space is one element with the layer (the container's
 * split_text), a character per element with litehtml alone: laid out the
 * same where white space collapses (normal, nowrap) and, split again once
 * the styles are known, where it does not (pre with its tabs, pre-wrap
 * wrapping between spaces, pre-line breaking at each newline). */
static void white_space_runs_as_litehtml_alone(void **state)
{
    (void)state;
    const char *body =
        "<style>div,p,pre{margin:0}.nw{white-space:nowrap}.pl{white-space:pre-line}"
        ".pw{white-space:pre-wrap;width:90px}.nar{width:120px}</style>\n"
        "<div>\n\t\t<p>one \t two\r\n   three</p>\n\t\t<p>  four  <b>  five </b>  six  </p>\n</div>\n"
        "<div class=nar>wrap   these   words \t\t across   the   narrow   box   please</div>\n"
        "<p class=nw>no   wrap \t here  at  all</p>\n"
        "<p class=pl>line   one\n   line  two\n\n\t line four</p>\n"
        "<pre>\tcode  block\n\t\tindented \t twice\n<span>  span   inside </span>  x</pre>\n"
        "<p class=pw>a  b    c      d        e          f  g   h    i</p>\n"
        "<div>\n  <ul>\n    <li> item   one </li>\n    <li>\titem two\t</li>\n  </ul>\n</div>\n"
        "<div><span>  a  </span>  <span>  b  </span>  <i> c </i></div>\n"
        "<table>\n <tr>\n  <td> cell   one </td>\n  <td>\n\tcell two\n  </td>\n </tr>\n</table>\n"
        "<p>tail \f form \r feed</p>\n"
        "<pre><b>a</b>   <i>b</i>\n\t  <i>c</i> \t <b>d</b></pre>\n"
        "<div class=pw><span>x</span>        <span>y</span>     \t   <span>z</span></div>\n"
        "<div class=pl><span>p</span>   \n   \n  <span>q</span></div>";
    render_doc *with = lay_out(body, 0), *without = lay_out(body, 1);
    assert_same_trees(with, without, 60);
    /* The pre-line broke at its newlines (litehtml makes no line of the
     * empty one); the pre-wrap wrapped. */
    assert_int_equal(box_of(with, "/html/body/p[2]").h, 60);
    assert_true(box_of(with, "/html/body/p[3]").h >= 40);
    render_doc_free(with);
    render_doc_free(without);
}

/* The words litehtml breaks lines between, which the layer splits in the
 * UTF-8 itself where litehtml converts to wide characters and back: white
 * space separates them (a no-break space does not), each ideograph of
 * U+4E00-U+9FCC is one (U+4DFF and U+9FCD are not), other scripts', kana,
 * Hangul, Arabic, Hebrew, accents, emoji and U+FFFD stay in their words.
 * Boxes of 40 px break at every break litehtml allows. */
static void words_split_as_litehtml_alone(void **state)
{
    (void)state;
    const char *body =
        "<style>div{width:40px;margin:0}</style>"
        "<div>\xe6\xb0\xb4\xe4\xb8\xad\xe6\x96\x87" "abc\xe9\xbf\x8c\xe9\xbf\x8d"
        "\xe4\xb8\x80x\xe4\xb7\xbfy</div>"
        "<div>\xe3\x81\x8b\xe3\x81\xaa\xe6\xbc\xa2\xe5\xad\x97 \xed\x95\x9c"
        "\xea\xb8\x80\xeb\xa1\x9c</div>"
        "<div>caf\xc3\xa9 na\xc3\xafve \xf0\x9f\x98\x80\xf0\x9f\x98\x80 x"
        "\xef\xbf\xbdy</div>"
        "<div>\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xd7\xa9\xd7\x9c\xd7\x95"
        "\xd7\x9d \xce\xb1\xce\xb2\xce\xb3</div>"
        "<div>tab\there\fform \xc2\xa0nb\xc2\xa0 word</div>"
        "<div>ab\xe4\xb7\xbf" "cd\xe9\xbf\x8d" "cd</div><div>abcd\xc2\xa0wxyz</div>"
        "<div><b>\xe6\x97\xa5</b>\xe6\x9c\xac<i>ab\xe8\xaa\x9e</i>cd</div>"
        "<p>\xe4\xb8\x80\xe4\xba\x8c\xe4\xb8\x89 and more \xe5\x9b\x9b words</p>";
    render_doc *with = lay_out(body, 0), *without = lay_out(body, 1);
    assert_same_trees(with, without, 20);
    /* The first box's eight words (水 中 文 abc U+9FCC U+9FCD 一 x䷿y) on six
     * lines of 20 px: two ideographs fit on a line of 40 px, as do U+9FCC
     * and U+9FCD, two words. */
    assert_int_equal(box_of(with, "/html/body/div[1]").h, 120);
    render_doc_free(with);
    render_doc_free(without);
}

/* The source's indentation between tags, a text node of white space only,
 * is a character per element with litehtml alone (one page of 1.2 MB had
 * 330 000 of them, 85 MB): with the layer a run of white space is one
 * element, laid out the same. */
static void indentation_one_element_a_run(void **state)
{
    (void)state;
    char body[8192];
    size_t n = (size_t)snprintf(body, sizeof body, "<div>");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, "\n%*s<p>item %d</p>", 24, "", i);
    n += (size_t)snprintf(body + n, sizeof body - n, "\n  \t  </div>");
    assert_true(n < sizeof body);
    render_stats with_st, without_st;
    render_doc *with = lay_out_as(body, 0, 0, &with_st), *without = lay_out_as(body, 1, 0, &without_st);
    assert_same_trees(with, without, 60);
    /* Each <p> and its two words and a space; before each, the newline and
     * spaces: one run, 5 elements a line with the layer, 29 without. */
    assert_true(without_st.shown_elements > 40 * 29);
    assert_true(with_st.shown_elements < 40 * 5 + 20);
    render_doc_free(with);
    render_doc_free(without);
}

/* A ::before or ::after box is made only when a declaration gives it a
 * content, as a browser does: `*:before,*:after{...}` without one (common
 * for box-sizing) made litehtml alone give every element two empty boxes,
 * which here would each take 30 px of height. */
static void pseudo_boxes_only_with_content(void **state)
{
    (void)state;
    const char *body =
        "<style>"
        "*:before,*:after{display:block;height:30px}"
        ".c:before{content:''}.q:after{content:'\\bb'}"
        ".v:after{--x:'v';content:var(--x)}.n:before{content:none}"
        "</style>"
        "<div>a</div><div class=c>c</div><div>b</div><div class=q>q</div>"
        "<div class=v>v</div><div class=n>n</div>";
    render_doc *doc = lay_out(body, 0), *plain = lay_out(body, 1);
    /* No content: no box, each div one 20 px line. */
    assert_box(doc, "/html/body/div[1]", 0, 0, 1000, 20);
    /* A content, even an empty one or one through var() or none: the box. */
    assert_box(doc, "/html/body/div[2]", 0, 20, 1000, 50);
    assert_box(doc, "/html/body/div[3]", 0, 70, 1000, 20);
    assert_box(doc, "/html/body/div[4]", 0, 90, 1000, 50);
    assert_box(doc, "/html/body/div[5]", 0, 140, 1000, 50);
    assert_box(doc, "/html/body/div[6]", 0, 190, 1000, 50);
    /* litehtml alone makes the empty boxes too (html's and body's above). */
    assert_box(plain, "/html/body/div[1]", 0, 60, 1000, 80);
    render_doc_free(doc);
    render_doc_free(plain);
}

/* What is inside a display:none element is left out of the tree once the
 * element's display is known (styled.h): whether a class rule, a media
 * query, the style attribute or the hidden attribute says none, and however
 * its children are styled. The elements themselves stay, hidden; an
 * author's !important shows one; a <noscript> keeps its children. Every
 * node outside those subtrees is as when they are kept, box for box. */
static void hidden_subtrees_left_out(void **state)
{
    (void)state;
    const char *body =
        "<style>.x{display:none}@media (max-width:600px){.m{display:none}}"
        ".sh{display:block!important}.fl{display:flex}</style>"
        "<p>before</p>"
        "<div class=x><p>gone <b>deep</b></p><div style='display:block'>child says block</div></div>"
        "<div style='display:none'><p>inline style</p></div>"
        "<div hidden><ul><li>attribute</li></ul></div>"
        "<div class=m><p>shown at this width</p></div>"
        "<div class=sh style='display:none'><p>important shows</p></div>"
        "<div class=fl><span class=x>item gone</span><span>item shown</span></div>"
        "<noscript><p>kept</p></noscript>"
        "<table><tr><td>cell</td><td class=x><p>cell gone</p></td></tr></table>"
        "<p>after <span class=x>inline gone</span> end</p>";
    render_doc *out = lay_out_as(body, 0, 0, NULL), *kept = lay_out_as(body, 0, 1, NULL);
    const char *gone[] = {"/html/body/div[1]", "/html/body/div[2]", "/html/body/div[3]",
                          "/html/body/div[6]/span[1]", "/html/body/p[2]/span"};
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++) {
        const dom_node *a = node_at(out, gone[i]), *b = node_at(kept, gone[i]);
        if (!(a->hidden & DOM_HIDDEN_DISPLAY_NONE) || a->first_child)
            fail_msg("%s: hidden %u, children %d; expected display:none and none", gone[i],
                     a->hidden, a->first_child != NULL);
        assert_true(b->hidden & DOM_HIDDEN_DISPLAY_NONE);
        assert_non_null(b->first_child);
    }
    assert_non_null(node_at(out, "/html/body/noscript/p"));
    assert_false(node_at(out, "/html/body/div[4]/p")->hidden);
    assert_false(node_at(out, "/html/body/div[5]/p")->hidden);
    assert_true(box_of(out, "/html/body/div[5]/p").h > 0);
    /* Node by node, the subtrees under display:none skipped in the kept tree. */
    assert_same_trees(out, kept, 30);
    render_doc_free(out);
    render_doc_free(kept);
}

/* The page's stylesheet is not tried under an element it leaves display:none
 * (styled.h's sunk_later), but a style attribute read after it may show the
 * element again: then its children have the page's rules as before. */
static void shown_by_style_attribute_keeps_page_rules(void **state)
{
    (void)state;
    const char *body = "<style>.x{display:none}.x .big{font-size:40px}"
                       ".x .wide{width:300px}</style>"
                       "<div class=x style='display:block'><p class=big>shown</p>"
                       "<div class=wide>box</div></div>"
                       "<div class=x><p class=big>gone</p></div>";
    render_doc *out = lay_out(body, 0);
    assert_int_equal((int)node_at(out, "/html/body/div[1]/p")->font_size, 40);
    assert_int_equal(box_of(out, "/html/body/div[1]/div").w, 300);
    assert_null(node_at(out, "/html/body/div[2]")->first_child);
    render_doc_free(out);
}

/* An element that declares none of a font's properties has its parent's
 * font (styled.h's init_font); one that declares any has its own: a bold or
 * larger run is wider than the same words in the parent's font, and what is
 * inside it as wide as it. */
static void fonts_from_the_parent_or_their_own(void **state)
{
    (void)state;
    const char *body = "<div style='font-size:20px'>"
                       "<p><span>Wide words here</span></p>"
                       "<p><b>Wide words here</b></p>"
                       "<p><b><span>Wide words here</span></b></p>"
                       "<p><span style='font-size:150%'>Wide words here</span></p>"
                       "<p><i style='font-style:normal'><span>Wide words here</span></i></p></div>";
    render_doc *out = lay_out(body, 0);
    int plain = box_of(out, "/html/body/div/p[1]/span").w;
    int bold = box_of(out, "/html/body/div/p[2]/b").w;
    assert_true(plain > 0);
    assert_true(bold > plain);
    assert_int_equal(box_of(out, "/html/body/div/p[3]/b/span").w, bold);
    assert_true(box_of(out, "/html/body/div/p[4]/span").w > bold);
    assert_int_equal((int)node_at(out, "/html/body/div/p[4]/span")->font_size, 30);
    assert_int_equal(box_of(out, "/html/body/div/p[5]/i/span").w, plain);
    render_doc_free(out);
}

/* A main column that grows beside a fixed sidebar: the classic page. */
static void flex_row_grow_beside_fixed(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<div style='display:flex'>"
                              "<main style='flex:1'><p>Article text.</p></main>\n"
                              "<aside style='width:300px'>Side</aside></div>",
                              0);
    /* The paragraph's margins stay inside the item: 16 + 20 + 16; the
     * sidebar stretches to the height of the row. */
    assert_box(doc, "/html/body/div", 0, 0, 1000, 52);
    assert_box(doc, "/html/body/div/main", 0, 0, 700, 52);
    assert_box(doc, "/html/body/div/aside", 700, 0, 300, 52);
    render_doc_free(doc);

    /* litehtml alone: a 0x0 container, children stacked full width. */
    doc = lay_out("<div style='display:flex'>"
                  "<main style='flex:1'><p>Article text.</p></main>\n"
                  "<aside style='width:300px'>Side</aside></div>",
                  1);
    dom_box m = box_of(doc, "/html/body/div/main"), a = box_of(doc, "/html/body/div/aside");
    assert_true(a.y >= m.y + m.h);
    render_doc_free(doc);
}

/* Fixed bases, a gap, and the free space split around the line. */
static void flex_basis_gap_and_centring(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<div style='display:flex;gap:20px;justify-content:center'>"
                              "<div style='flex:0 0 200px'>A</div>"
                              "<div style='flex-basis:300px;flex-shrink:0'>B</div></div>",
                              0);
    /* 200 + 20 + 300 = 520 of 1000: 240 on each side. */
    assert_box(doc, "/html/body/div", 0, 0, 1000, 20);
    assert_box(doc, "/html/body/div/div[1]", 240, 0, 200, 20);
    assert_box(doc, "/html/body/div/div[2]", 460, 0, 300, 20);
    render_doc_free(doc);

    doc = lay_out("<div style='display:flex;justify-content:space-between'>"
                  "<div style='width:100px'>A</div><div style='width:100px'>B</div>"
                  "<div style='width:100px'>C</div></div>",
                  0);
    assert_box(doc, "/html/body/div/div[1]", 0, 0, 100, 20);
    assert_box(doc, "/html/body/div/div[2]", 450, 0, 100, 20);
    assert_box(doc, "/html/body/div/div[3]", 900, 0, 100, 20);
    render_doc_free(doc);

    /* An item with auto margins on both sides sits in the middle. */
    doc = lay_out("<div style='display:flex'><div style='width:400px;margin:0 auto'>A</div></div>",
                  0);
    assert_box(doc, "/html/body/div/div", 300, 0, 400, 20);
    render_doc_free(doc);
}

/* Lengths litehtml 0.6 misreads (render/cssmath.h), on a block and in the
 * layer's flex bases, gaps and grid tracks: the boxes of the same page
 * written in pixels. */
static void math_lengths_as_pixels(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<div style='display:flex;gap:clamp(10px, 2vw, 40px);"
                              "justify-content:center'>"
                              "<div style='flex:0 0 calc(100px * 2)'>A</div>"
                              "<div style='flex-basis:min(30%, 400px);flex-shrink:0'>B</div></div>",
                              0);
    assert_box(doc, "/html/body/div/div[1]", 240, 0, 200, 20);
    assert_box(doc, "/html/body/div/div[2]", 460, 0, 300, 20);
    render_doc_free(doc);

    doc = lay_out("<div style='display:grid;grid-template-columns:calc(20%) 1fr 2fr;"
                  "gap:calc(5px * 2)'><div>A</div><div>B</div><div>C</div></div>",
                  0);
    assert_box(doc, "/html/body/div/div[1]", 0, 0, 200, 20);
    assert_box(doc, "/html/body/div/div[2]", 210, 0, 260, 20);
    render_doc_free(doc);

    doc = lay_out("<div style='width:calc(50% - 100px);margin-left:calc(10% + 5px);"
                  "padding-left:max(1px, 2px)'>A</div>",
                  0);
    assert_box(doc, "/html/body/div", 105, 0, 402, 20);
    render_doc_free(doc);
}

/* var() with a fallback: the property where an element has it, else the
 * fallback (litehtml 0.6 looked up "--name, fallback" and lost both). */
static void var_fallbacks(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<style>html{--w:700px}</style>"
                              "<div style='width:var(--w, 600px)'>A</div>"
                              "<div style='width:var(--nope, 500px)'>B</div>"
                              "<div style='width:var(--nope, var(--w))'>C</div>"
                              "<div style='width:calc(var(--nope, 300px) + 10px)'>D</div>",
                              0);
    assert_box(doc, "/html/body/div[1]", 0, 0, 700, 20);
    assert_box(doc, "/html/body/div[2]", 0, 20, 500, 20);
    assert_box(doc, "/html/body/div[3]", 0, 40, 700, 20);
    assert_box(doc, "/html/body/div[4]", 0, 60, 310, 20);
    render_doc_free(doc);
}

/* Items wider together than the line shrink in proportion to their bases. */
static void flex_shrink_to_the_line(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<div style='display:flex'>"
                              "<div style='width:600px'>A</div><div style='width:900px'>B</div>"
                              "<div style='width:0;flex-shrink:0'></div></div>",
                              0);
    /* 1500 over by 500: A gives 200, B gives 300. */
    assert_box(doc, "/html/body/div/div[1]", 0, 0, 400, 20);
    assert_box(doc, "/html/body/div/div[2]", 400, 0, 600, 20);
    render_doc_free(doc);
}

/* flex-wrap: a new line when the next item does not fit; row gap between. */
static void flex_wrap_lines(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<ul style='display:flex;flex-wrap:wrap;gap:10px;margin:0;padding:0'>"
                              "<li style='width:300px'>1</li>\n<li style='width:300px'>2</li>\n"
                              "<li style='width:300px'>3</li>\n<li style='width:300px'>4</li></ul>",
                              0);
    assert_box(doc, "/html/body/ul/li[1]", 0, 0, 300, 20);
    assert_box(doc, "/html/body/ul/li[2]", 310, 0, 300, 20);
    assert_box(doc, "/html/body/ul/li[3]", 620, 0, 300, 20);
    assert_box(doc, "/html/body/ul/li[4]", 0, 30, 300, 20);
    assert_box(doc, "/html/body/ul", 0, 0, 1000, 50);
    render_doc_free(doc);
}

/* A link bar: inline links become items side by side, not one line of text. */
static void flex_row_of_links(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<nav style='display:flex;gap:30px'><a href='/a'>One</a>\n"
                              "<a href='/b' style='padding:0 5px'>Two</a></nav>",
                              0);
    dom_box a = box_of(doc, "/html/body/nav/a[1]"), b = box_of(doc, "/html/body/nav/a[2]");
    assert_true(a.x == 0 && a.y == 0 && a.w > 20 && a.w < 60);
    assert_true(b.x == a.x + a.w + 30);
    assert_true(b.y == 0);
    render_doc_free(doc);
}

/* Text straight inside a flex row or a grid: a run of words is one item
 * with its spaces (rustdoc's headings, product pages' badges), and only white
 * space at a run's ends or between items goes. */
static void text_run_keeps_its_spaces(void **state)
{
    (void)state;
    static const char *const pages[] = {
        "<h2 style='display:flex;margin:0'>Auto Trait Implementations<a href='#x'>#</a></h2>",
        "<h2 style='display:grid;margin:0'>\n  Auto Trait Implementations\n  <a href='#x'>#</a></h2>",
        "<h2 style='display:flex;flex-direction:column;margin:0'> Auto  Trait\tImplementations "
        "<a href='#x'>#</a></h2>",
    };
    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
        render_doc *doc = lay_out(pages[i], 0);
        const dom_node *h2 = node_at(doc, "/html/body/h2"), *t = h2->first_child;
        assert_non_null(t);
        assert_int_equal(t->kind, DOM_TEXT);
        if (t->text_len != strlen("Auto Trait Implementations") ||
            memcmp(t->text, "Auto Trait Implementations", t->text_len) != 0)
            fail_msg("page %zu: text \"%.*s\"", i, (int)t->text_len, t->text);
        /* The run is one line, and the link comes after it. */
        assert_int_equal(t->n_lines, 1);
        const dom_node *a = node_at(doc, "/html/body/h2/a");
        assert_true(a->box.x > 0 || a->box.y > 0);
        render_doc_free(doc);
    }
    /* Between items white space makes no item: the two links sit side by
     * side, the second right where the first ends. */
    render_doc *doc = lay_out("<nav style='display:flex'>\n  <a href='/a'>One</a>\n  "
                              "<a href='/b'>Two</a>\n</nav>",
                              0);
    dom_box a = box_of(doc, "/html/body/nav/a[1]"), b = box_of(doc, "/html/body/nav/a[2]");
    assert_true(a.x == 0 && a.w > 0);
    assert_true(b.x == a.x + a.w);
    render_doc_free(doc);
}

/* flex-direction: column: blocks one under another, the gap between. */
static void flex_column(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<div style='display:flex;flex-direction:column;row-gap:8px'>"
                              "<span>One</span><span>Two</span></div>",
                              0);
    assert_box(doc, "/html/body/div/span[1]", 0, 0, 1000, 20);
    assert_box(doc, "/html/body/div/span[2]", 0, 28, 1000, 20);
    assert_box(doc, "/html/body/div", 0, 0, 1000, 48);
    render_doc_free(doc);

    /* align-items:center: items as wide as their content, in the middle. */
    doc = lay_out("<div style='display:flex;flex-direction:column;align-items:center'>"
                  "<div style='width:400px'>Box</div><div>x</div></div>",
                  0);
    assert_box(doc, "/html/body/div/div[1]", 300, 0, 400, 20);
    dom_box x = box_of(doc, "/html/body/div/div[2]");
    assert_true(x.w > 0 && x.w < 20);
    assert_true(x.x > 490 && x.x < 500);
    render_doc_free(doc);
}

/* A max-width past int's range (litehtml converts it to INT_MIN) bounds
 * nothing; under a border box it was an int overflow (UBSan stops at it in
 * tools/sanitize.sh). */
static void flex_max_width_past_int(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<div style='display:flex;box-sizing:border-box;padding:10px;"
                              "max-width:99999999999px'><span style='flex:1'>One</span></div>",
                              0);
    assert_box(doc, "/html/body/div/span", 10, 10, 980, 20);
    render_doc_free(doc);
}

/* inline-flex: the container is as wide as its items. */
static void inline_flex_shrinks(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<span style='display:inline-flex'><b style='width:100px'>a</b>"
                              "<b style='width:150px'>b</b></span>",
                              0);
    assert_box(doc, "/html/body/span", 0, 0, 250, 20);
    assert_box(doc, "/html/body/span/b[2]", 100, 0, 150, 20);
    render_doc_free(doc);
}

/* Grid columns of px and fr, placed in order, a row per line. */
static void grid_fixed_and_fr(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<div style='display:grid;grid-template-columns:200px 1fr 2fr;gap:10px'>"
                              "<div>A</div><div>B</div><div>C</div><div>D</div></div>",
                              0);
    /* 1000 - 200 - 2 gaps = 780: 260 and 520. */
    assert_box(doc, "/html/body/div/div[1]", 0, 0, 200, 20);
    assert_box(doc, "/html/body/div/div[2]", 210, 0, 260, 20);
    assert_box(doc, "/html/body/div/div[3]", 480, 0, 520, 20);
    assert_box(doc, "/html/body/div/div[4]", 0, 30, 200, 20);
    render_doc_free(doc);
}

/* repeat(), auto-fill with minmax(), and an item across the whole row. */
static void grid_repeat_and_span(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<section style='display:grid;grid-template-columns:repeat(4, 1fr)'>"
                              "<h2 style='grid-column:1 / -1;margin:0'>Title</h2>"
                              "<p style='margin:0'>A</p><p style='margin:0;grid-column:span 2'>B</p>"
                              "<p style='margin:0'>C</p></section>",
                              0);
    assert_box(doc, "/html/body/section/h2", 0, 0, 1000, 20);
    assert_box(doc, "/html/body/section/p[1]", 0, 20, 250, 20);
    assert_box(doc, "/html/body/section/p[2]", 250, 20, 500, 20);
    assert_box(doc, "/html/body/section/p[3]", 750, 20, 250, 20);
    render_doc_free(doc);

    doc = lay_out("<div style='display:grid;grid-template-columns:repeat(auto-fill, minmax(300px, 1fr))'>"
                  "<div>A</div><div>B</div><div>C</div><div>D</div></div>",
                  0);
    /* Three columns of at least 300 fit in 1000: 333 each. */
    assert_box(doc, "/html/body/div/div[1]", 0, 0, 333, 20);
    assert_box(doc, "/html/body/div/div[2]", 333, 0, 333, 20);
    assert_box(doc, "/html/body/div/div[4]", 0, 20, 333, 20);
    render_doc_free(doc);
}

/* Text inside an item lies inside the item's box. */
static void item_text_inside_item(void **state)
{
    (void)state;
    render_doc *doc = lay_out("<div style='display:flex'><div style='width:200px'>x</div>"
                              "<div style='flex:1'>Words that wrap in a column of their own "
                              "beside the first one, long enough to need a second line "
                              "at eight hundred pixels of width if the font is large enough "
                              "which it is not, so more words follow here to be sure.</div></div>",
                              0);
    dom_node *item = dom_find_xpath(render_doc_dom(doc), "/html/body/div/div[2]");
    assert_non_null(item);
    assert_int_equal(item->box.x, 200);
    assert_int_equal(item->box.w, 800);
    dom_node *t = item->first_child;
    assert_non_null(t);
    assert_int_equal(t->kind, DOM_TEXT);
    assert_true(t->n_lines >= 2);
    for (size_t i = 0; i < t->n_lines; i++) {
        assert_true(t->lines[i].x >= 200);
        assert_true(t->lines[i].x + t->lines[i].w <= 1000);
    }
    assert_int_equal(item->display, DOM_DISPLAY_BLOCK);
    render_doc_free(doc);
}

/* Sixty flex rows nested in each other, each wrapping a side item and the
 * next row: laid out (each item is measured once per width; measured anew
 * each time, this took minutes: ctest's TIMEOUT for this program bounds
 * it), and the innermost text sits inside its row. */
static void nested_flex_rows(void **state)
{
    (void)state;
    static char html[16384];
    size_t n = 0;
    for (int i = 0; i < 60; i++)
        n += (size_t)snprintf(html + n, sizeof html - n,
                              "<div style='display:flex;flex-wrap:wrap'><div>side</div><div>");
    n += (size_t)snprintf(html + n, sizeof html - n, "<p id=leaf>leaf</p>");
    for (int i = 0; i < 60; i++)
        n += (size_t)snprintf(html + n, sizeof html - n, "</div></div>");
    assert_true(n < sizeof html - 1);
    render_doc *doc = lay_out(html, 0);
    dom_node *leaf = NULL;
    for (dom_node *x = dom_doc_root(render_doc_dom(doc)); x; x = dom_next(x, NULL))
        if (x->kind == DOM_ELEMENT && dom_attr_get(x, "id") && !strcmp(dom_attr_get(x, "id"), "leaf"))
            leaf = x;
    assert_non_null(leaf);
    dom_node *row = leaf->parent->parent;
    assert_true(leaf->box.w > 0 && leaf->box.h > 0);
    assert_true(leaf->box.x >= row->box.x && leaf->box.x + leaf->box.w <= row->box.x + row->box.w);
    render_doc_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shown_by_style_attribute_keeps_page_rules),
        cmocka_unit_test(fonts_from_the_parent_or_their_own),
        cmocka_unit_test(flex_row_grow_beside_fixed),
        cmocka_unit_test(flex_basis_gap_and_centring),
        cmocka_unit_test(math_lengths_as_pixels),
        cmocka_unit_test(var_fallbacks),
        cmocka_unit_test(flex_shrink_to_the_line),
        cmocka_unit_test(flex_wrap_lines),
        cmocka_unit_test(flex_row_of_links),
        cmocka_unit_test(text_run_keeps_its_spaces),
        cmocka_unit_test(flex_column),
        cmocka_unit_test(flex_max_width_past_int),
        cmocka_unit_test(inline_flex_shrinks),
        cmocka_unit_test(grid_fixed_and_fr),
        cmocka_unit_test(grid_repeat_and_span),
        cmocka_unit_test(item_text_inside_item),
        cmocka_unit_test(nested_flex_rows),
        cmocka_unit_test(inherited_styles_as_litehtml_alone),
        cmocka_unit_test(selectors_as_litehtml_alone),
        cmocka_unit_test(declarations_as_litehtml_alone),
        cmocka_unit_test(ancestors_as_litehtml_alone),
        cmocka_unit_test(pseudo_boxes_only_with_content),
        cmocka_unit_test(white_space_runs_as_litehtml_alone),
        cmocka_unit_test(words_split_as_litehtml_alone),
        cmocka_unit_test(indentation_one_element_a_run),
        cmocka_unit_test(hidden_subtrees_left_out),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
