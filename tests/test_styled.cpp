/* render/styled.h's property-name keys: a name's key is remembered by its
 * address only where the bytes can never change (a read-only segment of a
 * loaded object, as litehtml's literals are), so that a name built at run
 * time, whose address later holds another name, is never answered with
 * the key of the name that was there before. */
#include "render/styled.h" /* before cmocka.h, whose macros (skip, fail) litehtml's names are */

#include <cstdlib>
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(literals_are_read_only),
        cmocka_unit_test(keys_follow_the_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
