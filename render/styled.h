// Style resolution for litehtml 0.6's elements, cheaper and with litehtml's
// answers (compat.cpp's elements, and container.cpp's cells, tables, rows
// and body): inherited lookups remembered once final, a selector whose
// rightmost tag, class or id the element lacks rejected before litehtml's
// matching, the stylesheet applied through an index of its selectors, a
// selector whose left part names what no ancestor has rejected from a
// filter of the ancestors' tags, ids and classes, each rule's
// declarations parsed once, not once per element it matches, and a
// ::before or ::after box made only when a declaration gives it a content,
// and a run of white space between tags one element, not one a character.
// C++, inside render/ only.
#ifndef GLANCE_RENDER_STYLED_H
#define GLANCE_RENDER_STYLED_H

#include "render/cssmath.h"

#include <litehtml.h>
#include <litehtml/el_anchor.h>
#include <litehtml/el_space.h>
#include <litehtml/el_table.h>

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <utility>
#include <vector>

namespace compat {

// A property's name as the tables below find it: its length and a hash of
// its bytes, read 8 at a time (names are short; litehtml asks some hundred
// per element).
struct name_key {
    uint64_t h;
    uint32_t n;
};

inline name_key key_of(const char *name)
{
    const size_t n = strlen(name);
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        memcpy(&w, name + i, n - i < 8 ? n - i : 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    h = (h ^ (h >> 29)) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 32;
    return {h, (uint32_t)n};
}

// Whether p lies in a read-only segment of an object loaded when first
// asked (compat.cpp): a string literal of litehtml's or ours, whose bytes
// never change while the process lives.
bool read_only_address(const void *p);

// key_of, remembered by the name's address when the name is such a literal:
// litehtml asks by literals, the same few hundred again and again. A name
// elsewhere (a string built at run time, whose address may later hold
// another name) is hashed each time.
struct name_slot {
    const char *p;
    name_key k;
};
inline thread_local name_slot names_seen[1024];

// key_of_name's miss, out of line: the hit, a hash and a compare, is
// inlined into each of its callers (the compiler had left the whole of it
// a call in some).
[[gnu::noinline]] inline name_key key_of_name_miss(const char *name, name_slot &s)
{
    const name_key k = key_of(name);
    if (read_only_address(name))
        s = {name, k};
    return k;
}

[[gnu::always_inline]] inline name_key key_of_name(const char *name)
{
    name_slot &s = names_seen[(reinterpret_cast<uintptr_t>(name) * 0x9e3779b97f4a7c15ull) >> 54];
    if (s.p == name)
        return s.k;
    return key_of_name_miss(name, s);
}

// The index of `val` in `list`, a list of keywords parted by `delim`
// ("auto;none;..."), or `def`: litehtml's value_index (the same answers,
// case and all), reading the items where they lie where litehtml copies each one of the
// right length into a new string (container.cpp gives it to litehtml).
inline int keyword_index(const char *v, size_t n, const char *p, size_t list_len, int def,
                         char delim)
{
    if (n == 0 || list_len == 0 || !delim)
        return def;
    const char *end = p + list_len;
    for (int idx = 0;; idx++) {
        const char *q = (const char *)memchr(p, delim, (size_t)(end - p));
        const char *item_end = q ? q : end;
        if ((size_t)(item_end - p) == n && memcmp(p, v, n) == 0)
            return idx;
        if (!q)
            return def;
        p = q + 1;
    }
}

inline int keyword_index(const std::string &val, const std::string &list, int def, char delim)
{
    return keyword_index(val.data(), val.size(), list.data(), list.size(), def, delim);
}

// litehtml's css_length::fromString, as Debian's litehtml 0.6 reads a length
// (a value beginning with "calc" is `def`'s keyword; a keyword of `predefs`
// is its index; else the run of digits, '.', '+' and '-' at its start is the
// number, read by litehtml's t_strtod, and the rest its unit, or `def`'s
// keyword when there is no number; a keyword leaves the unit as it was),
// without the strings litehtml builds a character at a time
// (container.cpp gives it to litehtml).
inline void length_from_string(litehtml::css_length &len, const std::string &str,
                               const std::string &predefs, int def)
{
    // (str.compare(0, 4, "calc"), out of line in libstdc++ with a strlen:
    // a tenth of this function's time, asked some 30 times an element.)
    if (str.size() >= 4 && memcmp(str.data(), "calc", 4) == 0) {
        len.predef(def);
        return;
    }
    int predef = keyword_index(str, predefs, -1, ';');
    if (predef >= 0) {
        len.predef(predef);
        return;
    }
    const char *s = str.data();
    size_t n = str.size(), i = 0;
    while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == '+' || s[i] == '-'))
        i++;
    if (i == 0) {
        len.predef(def);
        return;
    }
    // A number of digits alone (most are: "0", "16"): its value, which
    // litehtml's t_strtod (Tcl's strtod: the digits gathered as integers,
    // no exponent) gives exactly too.
    if (i <= 9) {
        int v = 0;
        size_t k = 0;
        while (k < i && s[k] >= '0' && s[k] <= '9')
            v = v * 10 + (s[k++] - '0');
        if (k == i) {
            static const char units[] = css_units_strings;
            len.set_value((float)(double)v,
                          (litehtml::css_units)keyword_index(s + i, n - i, units, sizeof units - 1,
                                                             litehtml::css_units_none, ';'));
            return;
        }
    }
    char small[32];
    std::string large;
    const char *num = small;
    if (i < sizeof small) {
        memcpy(small, s, i);
        small[i] = '\0';
    } else {
        large.assign(s, i);
        num = large.c_str();
    }
    static const char units[] = css_units_strings;
    len.set_value((float)litehtml::t_strtod(num, nullptr),
                  (litehtml::css_units)keyword_index(s + i, n - i, units, sizeof units - 1,
                                                     litehtml::css_units_none, ';'));
}

// Custom properties (--name) are never kept: var() reads them while an
// element's declarations are still being added.
inline bool custom_property(const char *name)
{
    return name[0] == '-' && name[1] == '-';
}

// litehtml 0.6 answers an inherited property by looking its name up in the
// element's map of declarations, then in its parent's, and so on up to the
// root, for every element and every word, each time it is asked: most of
// the time a page's styles take (the profile: get_style_property and the
// string compares of its maps). An element whose own declarations are
// final keeps its answers, so that its children and words ask once per
// name. Its declarations are final once its parse_styles has begun (the
// stylesheets applied to every element, its style attribute added first
// thing): before that nothing is kept, nor ever for custom properties
// (var() reads them while declarations are still being added).
class inherited_cache {
public:
    // The answer to the name (not a custom property), once begun.
    template <class Lookup>
    const char *get(const name_key &k, const char *def, Lookup lookup) const
    {
        for (const auto &e : entries_)
            if (e.h == k.h && e.n == k.n)
                return e.value ? e.value : def;
        const char *v = lookup(nullptr);
        entries_.push_back({k.h, k.n, v});
        return v ? v : def;
    }
    void begin() // the element's parse_styles: its declarations are final
    {
        entries_.clear();
        entries_.reserve(8); // room for the first few (32 held more memory, no time)
    }

private:
    struct entry {
        uint64_t h; // the name's key_of
        uint32_t n;
        const char *value; // in the map of the element that declares it
    };
    mutable std::vector<entry> entries_;
};

// litehtml::style's map of properties, which it keeps private and offers
// only by name (compat.cpp).
const litehtml::props_map &style_properties(const litehtml::style &st);

// An element's own declarations, read without litehtml's map lookup: the
// map (a std::map by std::string) makes a string of each name asked and
// compares it down the tree, some hundred names per element while its
// styles are parsed, most of them absent. Once the declarations are final
// (as for inherited_cache) the names are hashed into a table and a filter
// of their bits, so that an absent name is answered from the filter.
class own_declarations {
public:
    // The element's value of the property, or nullptr; built() first.
    const char *find(const char *name, const name_key &k) const
    {
        if (!(filter_ & bit(k.h)))
            return nullptr;
        for (const auto &e : entries_)
            if (e.h == k.h && e.n == k.n && !strcmp(e.name, name))
                return e.value;
        return nullptr;
    }
    bool built() const { return built_; }
    void build(const litehtml::style &st)
    {
        const litehtml::props_map &props = style_properties(st);
        entries_.clear();
        filter_ = 0;
        entries_.reserve(props.size());
        for (const auto &kv : props) {
            name_key k = key_of(kv.first.c_str());
            entries_.push_back({k.h, k.n, kv.first.c_str(), kv.second.m_value.c_str()});
            filter_ |= bit(k.h);
        }
        built_ = true;
    }

private:
    static uint64_t bit(uint64_t h) { return 1ull << (h >> 58); }
    struct entry {
        uint64_t h; // the name's key_of
        uint32_t n;
        const char *name, *value; // the map's strings
    };
    std::vector<entry> entries_;
    uint64_t filter_ = 0; // a bit per name, from its hash
    bool built_ = false;
};

// litehtml 0.6 applies a stylesheet by trying every one of its selectors on
// every element (html_tag::apply_stylesheet), and tries a selector by its
// rightmost compound first: the tag, then each attribute condition in turn,
// each read through get_attr (a std::string made of the name, a map lookup).
// A class or an id the element lacks, or another tag, rejects the selector
// there. may_match() answers those three conditions from the element's own
// tag, class list and id, with litehtml's own comparisons (the tag exactly,
// classes and ids by t_strcasecmp): a selector it rejects is one litehtml
// rejects, so the element's declarations, their order and its used
// selectors stay litehtml's. The rest goes through litehtml's matching.
inline const std::string id_key("id"); // the attribute, in selectors and elements

inline bool may_match(const litehtml::css_element_selector &s, const std::string &tag,
               const litehtml::string_vector &classes, const litehtml::string_map &attrs)
{
    const std::string &t = s.m_tag;
    if (!t.empty() && !(t.size() == 1 && t[0] == '*') && t != tag)
        return false;
    for (const auto &a : s.m_attrs) {
        if (a.condition != litehtml::select_equal)
            continue;
        if (a.attribute == "class") {
            for (const auto &want : a.class_val) {
                bool found = false;
                for (const auto &have : classes)
                    if (!litehtml::t_strcasecmp(want.c_str(), have.c_str())) {
                        found = true;
                        break;
                    }
                if (!found)
                    return false;
            }
        } else if (a.attribute == id_key) {
            auto it = attrs.find(id_key);
            if (it == attrs.end() || litehtml::t_strcasecmp(a.val.c_str(), it->second.c_str()))
                return false;
        }
    }
    return true;
}

// The tags, ids and classes of the element's ancestors, as a counting
// filter (browsers' ancestor Bloom filter): a selector with a descendant
// or child combinator can match only if each tag, id and class its compounds
// left of it name (up to a sibling combinator) is some ancestor's, and
// litehtml finds that out by trying the selector's left part on every
// ancestor up to the root. A key the filter has never counted is no
// ancestor's: the selector is rejected there. A key counted may still be
// absent (two keys sharing a counter): then litehtml's matching decides.
// Our elements count their keys while apply_stylesheet walks their children
// and uncount them after; an element whose parent is not the element
// counted last (one of litehtml's own classes between them, which walks its
// children itself) has an incomplete filter, and so have its descendants:
// those never reject.
class ancestor_filter {
public:
    static constexpr unsigned bits = 12;
    static uint32_t key(char kind, const std::string &s, bool lower)
    {
        uint32_t h = 2166136261u ^ (unsigned char)kind;
        h *= 16777619u;
        for (unsigned char c : s) {
            if (lower)
                c = (unsigned char)litehtml::t_tolower(c);
            h = (h ^ c) * 16777619u;
        }
        return h;
    }
    bool has(uint32_t k) const { return counts_[slot(k)] != 0; }
    void add(uint32_t k, int d) { counts_[slot(k)] += d; }

    struct frame {
        const litehtml::element *el;
        bool complete;
        std::vector<uint32_t> keys;
    };
    std::vector<frame> stack;

private:
    static size_t slot(uint32_t k) { return (k ^ (k >> bits) ^ (k >> (2 * bits))) & ((1u << bits) - 1); }
    int counts_[1u << bits] = {};
};

inline thread_local ancestor_filter ancestors;

// Whether blocks with var( are kept per answers (rule_index::var_parse);
// off, each is parsed in place, as litehtml does: test_styled compares.
inline thread_local bool keep_var_blocks = true;

// The stylesheet's selectors by the one condition of their rightmost
// compound that an element most seldom meets (browsers' rule hash): an id,
// else a class, else a tag; the others under "any". A selector filed under
// a key can match only an element with that id, class or tag, so an
// element tries the selectors under its own keys and "any", in the
// stylesheet's order (litehtml's, sorted by specificity and source order),
// and no other. Keys are ASCII-lowered as t_strcasecmp compares (ids,
// classes); tags exactly, as html_tag::select compares them.
class rule_index {
public:
    explicit rule_index(const litehtml::css &sheet) : sheet_(&sheet)
    {
        const auto &sels = sheet.selectors();
        for (size_t i = 0; i < sels.size(); i++) {
            const litehtml::css_element_selector &r = sels[i]->m_right;
            const std::string *id = nullptr, *cls = nullptr;
            for (const auto &a : r.m_attrs) {
                if (a.condition != litehtml::select_equal)
                    continue;
                if (!id && a.attribute == id_key)
                    id = &a.val;
                else if (!cls && a.attribute == "class" && !a.class_val.empty())
                    cls = &a.class_val[0];
            }
            int n = (int)i;
            if (id)
                ids_[lower(*id)].push_back(n);
            else if (cls)
                classes_[lower(*cls)].push_back(n);
            else if (!r.m_tag.empty() && r.m_tag != "*")
                tags_[r.m_tag].push_back(n);
            else
                any_.push_back(n);
        }
    }
    const litehtml::css *sheet() const { return sheet_; }

    // The tags, ids and classes that ancestors must have for selector i to
    // match (its compounds left of a descendant or child combinator, up to
    // a sibling one), as ancestor_filter keys; empty: none.
    const std::vector<uint32_t> &ancestor_keys(int i) const
    {
        if (keys_.empty()) {
            const auto &sels = sheet_->selectors();
            keys_.resize(sels.size());
            for (size_t j = 0; j < sels.size(); j++) {
                const litehtml::css_selector *p = sels[j].get();
                while (p->m_left && (p->m_combinator == litehtml::combinator_descendant ||
                                     p->m_combinator == litehtml::combinator_child)) {
                    p = p->m_left.get();
                    const litehtml::css_element_selector &r = p->m_right;
                    if (!r.m_tag.empty() && r.m_tag != "*")
                        keys_[j].push_back(ancestor_filter::key('t', r.m_tag, false));
                    for (const auto &a : r.m_attrs) {
                        if (a.condition != litehtml::select_equal)
                            continue;
                        if (a.attribute == id_key)
                            keys_[j].push_back(ancestor_filter::key('#', a.val, true));
                        else if (a.attribute == "class")
                            for (const auto &c : a.class_val)
                                keys_[j].push_back(ancestor_filter::key('.', c, true));
                    }
                }
            }
        }
        return keys_[(size_t)i];
    }

    // A selector's declarations parsed once, for every element it matches:
    // litehtml parses the block's text again into each (html_tag::add_style,
    // style::parse: split, trim, lower-case, shorthands expanded). Parsed
    // into a style of its own, the block applies with style::combine, one
    // add_parsed_property per property, which leaves an element's map as
    // the parse in place would: each declaration replaces a property unless
    // the one there is !important and it is not, so the block's last
    // !important value, else its last value, is what the parse in place
    // leaves of it too. The parse depends on the element only through
    // var() (substituted from the element's custom properties) and through
    // the background shorthand, which appends its position to a
    // background-position already there: one with the shorthand is not
    // used on an element that has a background-position (nullptr: parse in
    // place). A block with var( is kept per answer (var_parse).
    const litehtml::style *declarations(int i, const litehtml::style &own,
                                        const litehtml::element *el) const
    {
        parsed &p = parse(i);
        if (p.background && own.get_property("background-position"))
            return nullptr;
        if (!p.var)
            return p.st.get();
        return var_parse(i, p, el);
    }

    // Whether selector i's declarations may set `content` (a block with
    // var( answered from its text: "content" and a colon). A ::before or
    // ::after box that no declaration gives a content is one a browser
    // does not generate.
    bool sets_content(int i) const
    {
        const parsed &p = parse(i);
        if (p.st)
            return p.st->get_property("content") != nullptr;
        return declares(sheet_->selectors()[(size_t)i]->m_style, "content");
    }

    // The selectors an element with this tag, these classes and this id
    // (or none) may match, in the stylesheet's order.
    void candidates(const std::string &tag, const litehtml::string_vector &classes,
                    const char *id, std::vector<int> &out) const
    {
        // Each list is in the stylesheet's order already: merged, not
        // sorted (a sort of the "any" list for every element was a
        // fiftieth of a modern page's instructions).
        const std::vector<int> *lists[16];
        size_t n = 0;
        if (!any_.empty())
            lists[n++] = &any_;
        n = add(tags_, tag, lists, n);
        if (id)
            n = add(ids_, lower(id), lists, n);
        bool overflow = false;
        for (const auto &c : classes) {
            if (n == sizeof lists / sizeof *lists) {
                overflow = true;
                break;
            }
            n = add(classes_, lower(c), lists, n);
        }
        out.clear();
        if (overflow) { // more classes than lists here: as before, sorted
            out.assign(any_.begin(), any_.end());
            add(tags_, tag, out);
            if (id)
                add(ids_, lower(id), out);
            for (const auto &c : classes)
                add(classes_, lower(c), out);
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
            return;
        }
        if (n == 1) {
            out.assign(lists[0]->begin(), lists[0]->end());
            return;
        }
        size_t at[16] = {0};
        for (;;) {
            int best = -1;
            for (size_t k = 0; k < n; k++)
                if (at[k] < lists[k]->size() && (best < 0 || (*lists[k])[at[k]] < best))
                    best = (*lists[k])[at[k]];
            if (best < 0)
                break;
            out.push_back(best);
            for (size_t k = 0; k < n; k++)
                if (at[k] < lists[k]->size() && (*lists[k])[at[k]] == best)
                    at[k]++;
        }
    }

private:
    using table = std::unordered_map<std::string, std::vector<int>>;
    // A block with var( parsed for one element: the custom properties its
    // parse asked the element for, in order, with the answers (nullptr
    // kept as not found), and the declarations they gave.
    struct var_answers {
        struct question {
            std::string name;
            bool found;
            std::string value;
        };
        std::vector<question> asked;
        std::unique_ptr<litehtml::style> st;
    };
    struct parsed {
        bool tried = false;
        bool background = false; // a declaration whose name may be "background"
        bool var = false;        // the block holds var(: kept per answers
        bool var_in_place = false; // ... or parsed in place, always (var_parse)
        std::unique_ptr<litehtml::style> st;
        std::vector<var_answers> answers;
    };
    // The answers a block is kept for, at most: a page's themes and
    // components give one rule a few sets of values.
    static constexpr size_t max_answers = 8;

    // What litehtml's parse of a block asks the element (style::subst_vars,
    // the only use it makes of it: the value of the custom property each
    // var() names, inherited, no default), recorded and answered by the
    // element itself.
    class var_probe : public litehtml::element {
    public:
        explicit var_probe(const litehtml::element *el) : litehtml::element(el->get_document()), el_(el) {}
        const litehtml::tchar_t *get_style_property(const litehtml::tchar_t *name, bool inherited,
                                                    const litehtml::tchar_t *def = nullptr) const override
        {
            const char *v = el_->get_style_property(name, inherited, def);
            if (!name || !custom_property(name) || !inherited || def)
                keepable = false;
            else
                asked.push_back({name, v != nullptr, v ? v : ""});
            return v;
        }
        mutable std::vector<var_answers::question> asked;
        mutable bool keepable = true;

    private:
        const litehtml::element *el_;
    };

    // Selector i's block with var( as litehtml would parse it into el now:
    // the block parsed for an earlier element whose answers el gives too,
    // or parsed now (through a var_probe, into a style of its own) and kept.
    // litehtml's parse in place asks its questions in an order its answers
    // alone decide (each substitution may name another var()), and makes
    // of the same text and answers the same declarations; so an element
    // that answers each question as the earlier one did gets them. Each
    // question is answered from the element and its ancestors' declarations
    // (custom properties), which no declaration of the block changes when
    // it declares no custom property itself: a block that does, or a var()
    // naming what is not a custom property (the answer may be one of the
    // block's own), is parsed in place (nullptr).
    const litehtml::style *var_parse(int i, parsed &p, const litehtml::element *el) const
    {
        if (p.var_in_place || !el || !keep_var_blocks)
            return nullptr;
        for (const auto &a : p.answers) {
            bool same = true;
            for (const auto &q : a.asked) {
                const char *v = el->get_style_property(q.name.c_str(), true, nullptr);
                if ((v != nullptr) != q.found || (v && q.value != v)) {
                    same = false;
                    break;
                }
            }
            if (same)
                return a.st.get();
        }
        if (p.answers.size() >= max_answers)
            return nullptr;
        const litehtml::css_selector &sel = *sheet_->selectors()[(size_t)i];
        var_probe probe(el);
        std::unique_ptr<litehtml::style> st(new litehtml::style);
        st->add(sel.m_style.c_str(), sel.m_baseurl.c_str(), &probe);
        bool keep = probe.keepable;
        for (const auto &kv : style_properties(*st))
            keep = keep && !custom_property(kv.first.c_str());
        if (!keep) {
            p.var_in_place = true;
            return nullptr;
        }
        p.answers.push_back({std::move(probe.asked), std::move(st)});
        return p.answers.back().st.get();
    }
    const litehtml::css *sheet_;
    mutable std::vector<parsed> parsed_;
    mutable std::vector<std::vector<uint32_t>> keys_;
    table ids_, classes_, tags_;
    std::vector<int> any_;

    parsed &parse(int i) const
    {
        if (parsed_.empty())
            parsed_.resize(sheet_->selectors().size());
        parsed &p = parsed_[(size_t)i];
        if (!p.tried) {
            p.tried = true;
            const litehtml::css_selector &sel = *sheet_->selectors()[(size_t)i];
            const std::string &text = sel.m_style;
            p.background = declares(text, "background");
            if (text.find("var(") == std::string::npos) {
                p.st.reset(new litehtml::style);
                p.st->add(text.c_str(), sel.m_baseurl.c_str(), nullptr);
            } else {
                p.var = true;
            }
        }
        return p;
    }
    static std::string lower(const std::string &s)
    {
        std::string r(s);
        for (char &c : r)
            c = (char)litehtml::t_tolower((unsigned char)c);
        return r;
    }
    // The word (lower case) in any case, then only white space before a
    // colon: every declaration litehtml would name so (and a few more).
    static bool declares(const std::string &text, const char *word)
    {
        const size_t n = strlen(word);
        for (size_t i = 0; i + n <= text.size(); i++) {
            size_t k = 0;
            while (k < n && litehtml::t_tolower((unsigned char)text[i + k]) == word[k])
                k++;
            if (k < n)
                continue;
            size_t j = i + n;
            while (j < text.size() && strchr(" \t\r\n\f\v", text[j]) && text[j])
                j++;
            if (j < text.size() && text[j] == ':')
                return true;
        }
        return false;
    }
    static size_t add(const table &t, const std::string &key, const std::vector<int> **lists,
                      size_t n)
    {
        auto it = t.find(key);
        if (it != t.end() && !it->second.empty())
            lists[n++] = &it->second;
        return n;
    }
    static void add(const table &t, const std::string &key, std::vector<int> &out)
    {
        auto it = t.find(key);
        if (it != t.end())
            out.insert(out.end(), it->second.begin(), it->second.end());
    }
};

// The index of the stylesheet being applied: built by the outermost of our
// elements' apply_stylesheet (the root's, for the whole tree), kept while
// the call walks the tree below it, dropped when it returns.
inline thread_local const rule_index *applying = nullptr;

// Where the subtrees of display:none elements go while a document is
// parsed (styled::parse_styles); NULL: they stay in the tree, styled.
inline thread_local litehtml::elements_vector *hidden_sink = nullptr;

// The user agent's stylesheet, the first litehtml applies to a document
// (then the page's, the last: no user stylesheet is given), while
// hidden_sink is set.
inline thread_local const litehtml::css *master_sheet = nullptr;

// The text of one of litehtml's text elements, which el_text keeps
// protected: a run of white space grows in place (styled::appendChild).
struct text_of : litehtml::el_text {
    static std::string &in(litehtml::element &el)
    {
        return static_cast<litehtml::el_text &>(el).*(&text_of::m_text);
    }
};

// Whether el is litehtml's element of white space itself: typeid, for an
// el_space is an el_text, and nothing derived from it is meant.
inline bool is_space(const litehtml::element *el)
{
    return el && typeid(*el) == typeid(litehtml::el_space);
}

// What a length of `el` is measured against (cssmath.h), 100% being
// `percent_of` (below 0: unknown): its font size, the root's, the window;
// a "0" taken for half an em, an x-height too, a line for 1.2 em, where
// the element's font metrics are not at hand (styled::resolve_math has
// them).
inline css_math_ctx math_context(const litehtml::element *el, double percent_of)
{
    css_math_ctx c;
    c.percent_of = percent_of;
    c.em = el->get_font_size();
    litehtml::element::ptr root = el->get_document()->root();
    c.rem = root ? root->get_font_size() : 16;
    c.ch = c.ex = c.em / 2;
    c.lh = c.em * 1.2;
    litehtml::position win;
    el->get_document()->container()->get_client_rect(win);
    c.vw = win.width;
    c.vh = win.height;
    return c;
}

// An element class of litehtml's (Base) with the caches, the index and the
// filter above.
template <class Base>
class styled : public Base {
public:
    template <class... A>
    explicit styled(A &&...a) : Base(std::forward<A>(a)...)
    {
    }

    // html_tag::get_style_property's answer: the element's own value unless
    // it is "inherit" or absent, then for an inherited property (or
    // "inherit") the parent's, else def.
    const litehtml::tchar_t *get_style_property(const litehtml::tchar_t *name, bool inherited,
                                                const litehtml::tchar_t *def = nullptr) const override
    {
        if (name && custom_property(name) && strchr(name, ','))
            return var_with_fallback(name, inherited, def);
        if (!parsing_ || !name || custom_property(name))
            return Base::get_style_property(name, inherited, def);
        const name_key k = key_of_name(name);
        if (!inherited) {
            const char *v = own(name, k);
            if (v && !litehtml::t_strcasecmp(v, "inherit"))
                return Base::get_style_property(name, false, def);
            return v ? v : def;
        }
        return inherited_.get(k, def, [&](const char *d) {
            const char *v = own(name, k);
            if (v && !litehtml::t_strcasecmp(v, "inherit"))
                return Base::get_style_property(name, true, d);
            if (v)
                return v;
            litehtml::element::ptr up = this->parent();
            return up ? up->get_style_property(name, true, d) : d;
        });
    }

    // litehtml 0.6 substitutes var(--name) by asking for the text between
    // the parentheses: for var(--name, fallback), "--name, fallback", which
    // no element has, so the declaration was lost. Here the property is
    // looked up by its name and, where no element has it, the fallback
    // stands (the text up to the first ')': a fallback holding another
    // var() is then substituted in its turn).
    const litehtml::tchar_t *var_with_fallback(const litehtml::tchar_t *name, bool inherited,
                                               const litehtml::tchar_t *def) const
    {
        const char *comma = strchr(name, ',');
        std::string own_name(name, (size_t)(comma - name));
        while (!own_name.empty() && (own_name.back() == ' ' || own_name.back() == '\t'))
            own_name.pop_back();
        if (const char *v = Base::get_style_property(own_name.c_str(), inherited, nullptr))
            return v;
        const char *f = comma + 1;
        while (*f == ' ' || *f == '\t' || *f == '\n')
            f++;
        return *f ? f : def;
    }

    // html_tag::parse_styles resolves the element's own styles, then its
    // children's (unless is_reparse). Here the children wait until the
    // element's display is known: under display:none nothing is laid out,
    // painted or read as shown, and on modern pages a fifth of litehtml's
    // elements (words included) sit in such subtrees (menus, dialogs, the
    // other half of a responsive page). Where `hidden_sink` is set, their
    // subtree goes there, unstyled, out of the tree, freed with the
    // document. The root and <head> stay (what litehtml and the page's
    // metadata read of them), as do <noscript>s, which glance decides on
    // (noscript.h). A table resolves its children first, as litehtml's does.
    void parse_styles(bool is_reparse) override
    {
        inherited_.begin();
        parsing_ = true;
        if constexpr (std::is_same<Base, litehtml::el_table>::value) {
            Base::parse_styles(is_reparse);
            mend_styles();
        } else {
            if (is_reparse || !hidden_sink) {
                Base::parse_styles(is_reparse);
                mend_styles();
                return;
            }
            Base::parse_styles(true); // its own styles only
            mend_styles();
            auto &kids = this->m_children;
            if (this->m_display == litehtml::display_none && !kids.empty() && children_may_sink()) {
                for (auto &k : kids)
                    hidden_sink->push_back(std::move(k));
                kids.clear();
                return;
            }
            for (auto &k : kids)
                k->parse_styles(false);
        }
    }

    // Whether parse_styles takes the element's children out of the tree when
    // it is display:none: not those of the root, <head> or <noscript> (kept,
    // above), of the body (never display:none, mend_styles) or of a table
    // (resolved by litehtml).
    bool children_may_sink() const
    {
        if constexpr (std::is_same<Base, litehtml::el_table>::value)
            return false;
        else
            return this->parent() && this->m_tag != "head" && this->m_tag != "noscript" &&
                   this->m_tag != "body";
    }

    // What litehtml 0.6 reads wrongly of the element's own styles, mended
    // once they are resolved.
    void mend_styles()
    {
        mend_position();
        find_math();
        // The root and the body are never display:none (ua.css): a page
        // that hides them until a script runs is shown as once loaded.
        if (this->m_display == litehtml::display_none &&
            (this->m_tag == "html" || this->m_tag == "body"))
            this->m_display = litehtml::display_block;
    }

    // The length properties whose values litehtml 0.6 may misread
    // (cssmath.h), each with its place in the element and whether a
    // percentage of it is of the width the box is laid out in (a height's
    // is of a height glance does not know).
    struct math_property {
        const char *name;
        bool of_width;
        litehtml::css_length *(*of)(styled *);
    };
    static const math_property *math_properties(size_t *n)
    {
        static const math_property p[] = {
            {"width", true, [](styled *e) { return &e->m_css_width; }},
            {"min-width", true, [](styled *e) { return &e->m_css_min_width; }},
            {"max-width", true, [](styled *e) { return &e->m_css_max_width; }},
            {"height", false, [](styled *e) { return &e->m_css_height; }},
            {"min-height", false, [](styled *e) { return &e->m_css_min_height; }},
            {"max-height", false, [](styled *e) { return &e->m_css_max_height; }},
            {"margin-left", true, [](styled *e) { return &e->m_css_margins.left; }},
            {"margin-right", true, [](styled *e) { return &e->m_css_margins.right; }},
            {"margin-top", true, [](styled *e) { return &e->m_css_margins.top; }},
            {"margin-bottom", true, [](styled *e) { return &e->m_css_margins.bottom; }},
            {"padding-left", true, [](styled *e) { return &e->m_css_padding.left; }},
            {"padding-right", true, [](styled *e) { return &e->m_css_padding.right; }},
            {"padding-top", true, [](styled *e) { return &e->m_css_padding.top; }},
            {"padding-bottom", true, [](styled *e) { return &e->m_css_padding.bottom; }},
            {"left", true, [](styled *e) { return &e->m_css_offsets.left; }},
            {"right", true, [](styled *e) { return &e->m_css_offsets.right; }},
            {"top", false, [](styled *e) { return &e->m_css_offsets.top; }},
            {"bottom", false, [](styled *e) { return &e->m_css_offsets.bottom; }},
        };
        *n = sizeof p / sizeof p[0];
        return p;
    }

    // The lengths litehtml misread (cssmath.h): found once the element's
    // declarations are final, evaluated where they can be (no percentage
    // of a width not yet known), and again against the width each layout
    // gives the box.
    void find_math()
    {
        math_.reset();
        size_t n;
        const math_property *props = math_properties(&n);
        for (const auto &kv : style_properties(this->m_style)) {
            const std::string &v = kv.second.m_value;
            if (v.empty() || !css_math_needed(v.c_str()))
                continue;
            for (size_t i = 0; i < n; i++)
                if (kv.first == props[i].name) {
                    if (!math_)
                        math_.reset(new std::vector<std::pair<size_t, std::string>>);
                    math_->push_back({i, v});
                }
        }
        resolve_math(-1);
    }

    // width: what 100% is, below 0 when not yet known.
    void resolve_math(int width)
    {
        if (!math_)
            return;
        size_t n;
        const math_property *props = math_properties(&n);
        css_math_ctx c = math_context(this, width);
        if (this->m_font_metrics.x_height > 0)
            c.ex = this->m_font_metrics.x_height;
        if (this->m_line_height > 0)
            c.lh = this->m_line_height;
        bool ch_known = false;
        for (const auto &m : *math_) {
            if (!ch_known && m.second.find("ch") != std::string::npos) {
                int w = this->m_font ? this->get_document()->container()->text_width("0", this->m_font)
                                     : 0;
                if (w > 0)
                    c.ch = w;
                ch_known = true;
            }
            css_math_ctx mc = c;
            if (!props[m.first].of_width)
                mc.percent_of = -1;
            double px;
            if (css_math_eval(m.second.c_str(), &mc, &px))
                props[m.first].of(this)->set_value((float)px, litehtml::css_units_px);
        }
    }

    // html_tag::init_font asks for the five properties a font is made of
    // (font-size, own; font-family, -weight, -style and text-decoration,
    // inherited), then looks the font up by a key string made of them. An
    // element that declares none of the five gets its parent's answers to
    // each (the parent's size, and what the parent asked for its own font),
    // so the same key and the same font: it is taken from the parent, as
    // most elements' are.
    void init_font() override
    {
        static const char *const font_names[] = {"font-size", "font-family", "font-weight",
                                                 "font-style", "text-decoration"};
        litehtml::element::ptr up = this->parent();
        bool own_font = !parsing_ || !up;
        for (size_t i = 0; !own_font && i < sizeof font_names / sizeof *font_names; i++)
            own_font = own(font_names[i], key_of_name(font_names[i])) != nullptr;
        litehtml::font_metrics fm;
        litehtml::uint_ptr font = own_font ? 0 : up->get_font(&fm);
        if (!font) {
            Base::init_font();
            return;
        }
        this->m_font_size = up->get_font_size();
        this->m_font = font;
        this->m_font_metrics = fm;
    }

    void calc_outlines(int parent_width) override
    {
        resolve_math(parent_width);
        Base::calc_outlines(parent_width);
    }

    // litehtml (0.6) knows four values of `position` and takes any other
    // for fixed: `sticky` (a page's header, its sidebar, its table of
    // contents), `initial`, `unset` and `revert` took the box out of the
    // flow and pinned it to the window. A sticky box is laid out as a
    // relative one without offsets, where a browser shows it before any
    // scrolling; the others are static. An inline box that litehtml made a
    // block for being fixed is inline again.
    void mend_position()
    {
        if (this->m_el_position != litehtml::element_position_fixed)
            return;
        const char *v = this->get_style_property("position", false, "static");
        std::string w;
        for (; v && *v; v++)
            if (*v != ' ' && *v != '\t' && *v != '\n' && *v != '\r' && *v != '\f')
                w += (char)(*v >= 'A' && *v <= 'Z' ? *v - 'A' + 'a' : *v);
        if (w == "fixed")
            return;
        bool sticky = w == "sticky" || w == "-webkit-sticky";
        if (w == "relative" || w == "absolute") {
            this->m_el_position = w == "relative" ? litehtml::element_position_relative
                                                  : litehtml::element_position_absolute;
            return;
        }
        this->m_el_position =
            sticky ? litehtml::element_position_relative : litehtml::element_position_static;
        for (litehtml::css_length *o : {&this->m_css_offsets.left, &this->m_css_offsets.right,
                                        &this->m_css_offsets.top, &this->m_css_offsets.bottom})
            o->predef(0); // auto
        if (this->m_float == litehtml::float_none && this->m_display == litehtml::display_block) {
            const char *d = this->get_style_property("display", false, "inline");
            auto own = (litehtml::style_display)litehtml::value_index(
                d, style_display_strings, litehtml::display_inline);
            if (own == litehtml::display_inline || own == litehtml::display_inline_block ||
                own == litehtml::display_inline_table)
                this->m_display = own;
        }
    }

    // litehtml (0.6) makes an element of each character of a text node
    // that is white space only, the source's indentation between tags,
    // without asking split_text: on one page of 1.2 MB, 330 000 elements
    // and 85 MB. Here such a character joins the run of white space before
    // it among the children, one element as container.cpp's split_text
    // makes of a run in other text; where the run does not lay out as one
    // space after all (pre, pre-wrap, pre-line), split_preformatted_runs
    // (container.cpp) makes it again as litehtml would have.
    bool appendChild(const litehtml::element::ptr &el) override
    {
        auto &kids = this->m_children;
        litehtml::element *add_el = el.get(), *last = kids.empty() ? nullptr : kids.back().get();
        if (is_space(add_el) && is_space(last)) {
            const std::string &add = text_of::in(*add_el);
            std::string &run = text_of::in(*last);
            if (add.size() == 1 && !run.empty()) {
                run += add;
                return true;
            }
        }
        return Base::appendChild(el);
    }

    // html_tag::apply_stylesheet (litehtml 0.6) over the selectors the
    // index gives, the same steps in the same order; an anchor first takes
    // :link when it has an href, as el_anchor's does. One difference: the
    // declarations of selectors matched with ::before (::after) go to that
    // box once all are tried, and only if one of them may set content.
    // litehtml makes the box at the first such match: an empty inline or
    // block box where a browser generates none (`*:before,*:after
    // {box-sizing:border-box}` gave every element two), each laid out,
    // sometimes taking space, and freed.
    void apply_stylesheet(const litehtml::css &stylesheet) override
    {
        if constexpr (std::is_same<Base, litehtml::el_anchor>::value) {
            if (this->get_attr("href"))
                this->m_pseudo_classes.push_back("link");
        }
        std::unique_ptr<rule_index> own;
        const rule_index *prev = applying;
        if (!applying || applying->sheet() != &stylesheet) {
            own.reset(new rule_index(stylesheet));
            applying = own.get();
        }
        struct restore {
            const rule_index *p;
            ~restore() { applying = p; }
        } r{prev};

        this->remove_before_after();
        auto idit = this->m_attrs.find(id_key);
        std::vector<int> cand;
        applying->candidates(this->m_tag, this->m_class_values,
                             idit == this->m_attrs.end() ? nullptr : idit->second.c_str(), cand);
        const auto &sels = stylesheet.selectors();
        auto &af = ancestors;
        bool complete = false;
        {
            litehtml::element::ptr up = this->parent();
            if (!up)
                complete = af.stack.empty();
            else
                complete = !af.stack.empty() && af.stack.back().el == up.get() &&
                           af.stack.back().complete;
        }
        pseudo before, after;
        for (int i : cand) {
            const litehtml::css_selector::ptr &sel = sels[i];
            if (complete) {
                bool absent = false;
                for (uint32_t k : applying->ancestor_keys(i))
                    if (!af.has(k)) {
                        absent = true;
                        break;
                    }
                if (absent)
                    continue;
            }
            int apply = this->select(*sel, false);
            if (apply == litehtml::select_no_match)
                continue;
            litehtml::used_selector::ptr us(new litehtml::used_selector(sel, false));
            /* Where a match puts the declarations: the ::after or ::before
             * box (once this element's selectors are all tried), or the
             * element itself (then the selector is used). */
            auto add = [&](int how) {
                if (how & litehtml::select_match_with_after) {
                    after.rules.push_back(i);
                    after.content = after.content || applying->sets_content(i);
                } else if (how & litehtml::select_match_with_before) {
                    before.rules.push_back(i);
                    before.content = before.content || applying->sets_content(i);
                } else {
                    if (const litehtml::style *d = applying->declarations(i, this->m_style, this))
                        this->m_style.combine(*d);
                    else
                        this->add_style(sel->m_style, sel->m_baseurl);
                    us->m_used = true;
                }
            };
            if (sel->is_media_valid()) {
                if (!(apply & litehtml::select_match_pseudo_class))
                    add(apply);
                else if (this->select(*sel, true))
                    add(apply);
            }
            this->m_used_styles.push_back(std::move(us));
        }
        if (before.content)
            for (int i : before.rules)
                if (litehtml::element::ptr el = this->get_element_before())
                    el->add_style(sels[i]->m_style, sels[i]->m_baseurl);
        if (after.content)
            for (int i : after.rules)
                if (litehtml::element::ptr el = this->get_element_after())
                    el->add_style(sels[i]->m_style, sels[i]->m_baseurl);
        if (sunk_later(stylesheet))
            return;
        // This element's keys counted while its children apply.
        af.stack.push_back({this, complete, {}});
        {
            auto &keys = af.stack.back().keys;
            keys.push_back(ancestor_filter::key('t', this->m_tag, false));
            if (idit != this->m_attrs.end())
                keys.push_back(ancestor_filter::key('#', idit->second, true));
            for (const auto &c : this->m_class_values)
                keys.push_back(ancestor_filter::key('.', c, true));
            for (uint32_t k : keys)
                af.add(k, 1);
        }
        struct uncount {
            ancestor_filter &af;
            ~uncount()
            {
                for (uint32_t k : af.stack.back().keys)
                    af.add(k, -1);
                af.stack.pop_back();
            }
        } u{af};
        for (auto &el : this->m_children)
            if (el->get_display() != litehtml::display_inline_text)
                el->apply_stylesheet(stylesheet);
    }

    // Whether parse_styles will take the element's children out of the
    // tree unstyled (below), so that the page's stylesheet, the last one
    // applied, need not be tried on them: its display is none once the
    // page's rules are in and its style attribute, read after, does not
    // name display. On modern pages a fifth of the elements sit in such
    // subtrees.
    bool sunk_later(const litehtml::css &sheet) const
    {
        if (!hidden_sink || !master_sheet || &sheet == master_sheet || !children_may_sink())
            return false;
        const litehtml::props_map &props = style_properties(this->m_style);
        auto it = props.find("display");
        if (it == props.end() || litehtml::t_strcasecmp(it->second.m_value.c_str(), "none"))
            return false;
        const char *inline_style = this->get_attr("style");
        return !inline_style || !strcasestr(inline_style, "display");
    }

    // html_tag::set_tagName and set_attr lower-case the tag and each
    // attribute's name a character at a time with std::tolower and the
    // classic locale, which looks its ctype facet up (a dynamic_cast) for
    // every character: a hundredth of a modern page's instructions. The
    // classic locale lowers A-Z alone, as here. A class of glance's that
    // has a set_attr of its own (container.cpp's clamped_td) keeps it.
    void set_tagName(const litehtml::tchar_t *tag) override
    {
        this->m_tag = tag;
        for (char &c : this->m_tag)
            if (c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
    }

    void set_attr(const litehtml::tchar_t *name, const litehtml::tchar_t *val) override
    {
        using html_tag_set_attr =
            void (litehtml::html_tag::*)(const litehtml::tchar_t *, const litehtml::tchar_t *);
        if constexpr (!std::is_same<decltype(&Base::set_attr), html_tag_set_attr>::value) {
            Base::set_attr(name, val);
        } else {
            if (!name || !val)
                return;
            std::string key(name);
            for (char &c : key)
                if (c >= 'A' && c <= 'Z')
                    c = (char)(c - 'A' + 'a');
            this->m_attrs[key] = val;
            if (litehtml::t_strcasecmp(name, "class") == 0) {
                this->m_class_values.resize(0);
                litehtml::split_string(val, this->m_class_values, " ");
            }
        }
    }

    // html_tag::get_attr's answer (the value of the attribute named exactly
    // `name`, else def) without the std::string litehtml makes of the name
    // for its map's find: litehtml's selector matching asks it once per
    // condition of every selector it tries, pseudo-classes included (a
    // twentieth of a modern page's instructions), and an element has a few
    // attributes.
    const litehtml::tchar_t *get_attr(const litehtml::tchar_t *name,
                                      const litehtml::tchar_t *def = nullptr) const override
    {
        if (!name)
            return Base::get_attr(name, def);
        const size_t n = strlen(name);
        for (const auto &kv : this->m_attrs)
            if (kv.first.size() == n && memcmp(kv.first.data(), name, n) == 0)
                return kv.second.c_str();
        return def;
    }

    using Base::select;
    int select(const litehtml::css_selector &selector, bool apply_pseudo) override
    {
        if (!may_match(selector.m_right, this->m_tag, this->m_class_values, this->m_attrs))
            return litehtml::select_no_match;
        return Base::select(selector, apply_pseudo);
    }

private:
    // The element's own value of a property, once its declarations are final:
    // its parse_styles has begun and added its style attribute, which is the
    // first thing html_tag::parse_styles does. Custom properties are asked
    // while that attribute's declarations are added (var()): never read here.
    const char *own(const char *name, const name_key &k) const
    {
        if (!own_.built())
            own_.build(this->m_style);
        return own_.find(name, k);
    }

    struct pseudo {
        std::vector<int> rules; // the selectors matched with ::before (::after)
        bool content = false;   // one of them may set content: the box is made
    };
    inherited_cache inherited_; // answers to inherited lookups, once final
    mutable own_declarations own_; // the element's own declarations, once final
    bool parsing_ = false;         // parse_styles has begun
    std::unique_ptr<std::vector<std::pair<size_t, std::string>>> math_; // find_math
};

} // namespace compat

#endif
