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
                            "inherit", "calc(100% - 2px)", "calc", "cal", "12", "1e3px", "1.2.3",
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(literals_are_read_only),
        cmocka_unit_test(keys_follow_the_bytes),
        cmocka_unit_test(keywords_found_as_litehtml_finds_them),
        cmocka_unit_test(lengths_read_as_litehtml_reads_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
