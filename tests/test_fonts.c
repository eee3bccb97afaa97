/* fonts/: faces found by CSS family lists, widths as browsers on Linux
 * measure them (Liberation faces stand in for Arial and Times New Roman),
 * fallback faces for scripts the first face lacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include "fonts/fonts.h"

static fonts_lib *lib;

static int setup(void **state)
{
    (void)state;
    lib = fonts_lib_new();
    return lib ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    fonts_lib_free(lib);
    return 0;
}

static int width(fonts_font *f, const char *s)
{
    return fonts_text_width(f, s, strlen(s));
}

static const char *family_of(fonts_font *f, unsigned cp)
{
    FT_Face face = fonts_face_for(f, cp, NULL);
    return face ? face->family_name : "";
}

static void test_arial_is_liberation_sans_with_browser_widths(void **state)
{
    (void)state;
    fonts_font *f = fonts_open(lib, "Arial, Helvetica, sans-serif", 16, 400, 0);
    assert_non_null(f);
    assert_string_equal(family_of(f, 'H'), "Liberation Sans");
    /* Liberation Sans advances (units of 2048): H 1479, e 1139, l 455, o 1139;
     * 4667 * 16 / 2048 = 36.46, which Chrome on Linux reports as 36.45. */
    assert_int_equal(width(f, "Hello"), 36);
    assert_int_equal(width(f, ""), 0);
    fonts_metrics m;
    fonts_get_metrics(f, &m);
    /* ascent 1854, descent 434, gap 67 units: 14.5, 3.4, 0.5 px. */
    assert_int_equal(m.ascent, 14);
    assert_int_equal(m.descent, 3);
    assert_in_range(m.height, 17, 19);
    assert_int_equal(fonts_size_px(f), 16);
}

static void test_same_request_same_font(void **state)
{
    (void)state;
    fonts_font *a = fonts_open(lib, "Georgia, serif", 20, 700, 1);
    fonts_font *b = fonts_open(lib, "Georgia, serif", 20, 700, 1);
    fonts_font *c = fonts_open(lib, "Georgia, serif", 20, 400, 1);
    assert_non_null(a);
    assert_ptr_equal(a, b);
    assert_ptr_not_equal(a, c);
}

static void test_generic_families(void **state)
{
    (void)state;
    fonts_font *serif = fonts_open(lib, "'No Such Face', serif", 16, 400, 0);
    fonts_font *unknown = fonts_open(lib, "No Such Face", 16, 400, 0);
    fonts_font *mono = fonts_open(lib, "monospace", 16, 400, 0);
    assert_non_null(serif);
    assert_non_null(unknown);
    assert_non_null(mono);
    /* Browsers fall back to Times New Roman when no family is installed. */
    assert_string_equal(family_of(serif, 'a'), "Liberation Serif");
    assert_string_equal(family_of(unknown, 'a'), "Liberation Serif");
    /* A monospace face: every character as wide as the next. */
    assert_int_equal(width(mono, "iiiiiiiiii"), width(mono, "MMMMMMMMMM"));
    assert_true(width(serif, "iiiiiiiiii") < width(serif, "MMMMMMMMMM"));
    /* Bold text is wider than regular text of the same face. */
    fonts_font *bold = fonts_open(lib, "Arial", 16, 700, 0);
    fonts_font *reg = fonts_open(lib, "Arial", 16, 400, 0);
    assert_true(width(bold, "Harbour town") > width(reg, "Harbour town"));
}

static void test_fallback_for_cjk_and_hangul(void **state)
{
    (void)state;
    fonts_font *f = fonts_open(lib, "Arial", 16, 400, 0);
    assert_non_null(f);
    /* Liberation Sans has no CJK glyphs: a fallback face (Noto Sans CJK)
     * measures them. Its ideographs are one em wide, its Hangul syllables
     * 920/1000 em: 2 * 16 * 0.92 = 29.4. */
    assert_string_not_equal(family_of(f, 0x6F22), "Liberation Sans");
    assert_string_not_equal(family_of(f, 0xD55C), "Liberation Sans");
    assert_int_equal(width(f, "\xE6\xBC\xA2\xE5\xAD\x97"), 32);         /* 漢字 */
    assert_int_equal(width(f, "\xED\x95\x9C\xEA\xB8\x80"), 29);         /* 한글 */
    assert_int_equal(width(f, "A\xE6\xBC\xA2"), width(f, "A") + 16);   /* mixed */
}

static void test_invalid_utf8_is_measured_not_rejected(void **state)
{
    (void)state;
    fonts_font *f = fonts_open(lib, "Arial", 16, 400, 0);
    /* A stray continuation byte and a truncated sequence each count as one
     * U+FFFD; the text around them still counts. */
    int ab = width(f, "ab");
    assert_true(width(f, "a\x80" "b") >= ab);
    assert_true(width(f, "ab\xE6\xBC") >= ab);
    assert_int_equal(fonts_text_width(f, "abc", 2), ab);
}

/* What a painter draws: the glyphs of a run sit where the measured widths
 * put them, and CJK in an Arial run comes from the fallback face. */
static void test_glyph_run_matches_the_measurement(void **state)
{
    (void)state;
    fonts_font *f = fonts_open(lib, "Arial", 16, 400, 0);
    const char *s = "Hi \xE6\xBC\xA2\xE5\xAD\x97!"; /* Hi 漢字! */
    fonts_glyph g[8];
    size_t n = fonts_text_glyphs(f, s, strlen(s), g, 8);
    assert_int_equal(n, 6);
    assert_true(g[0].x == 0);
    /* Each glyph starts where the text before it ends, as measured. */
    assert_int_equal((int)(g[1].x + 0.5), width(f, "H"));
    assert_int_equal((int)(g[3].x + 0.5), width(f, "Hi "));
    assert_int_equal((int)(g[5].x + 0.5), width(f, "Hi \xE6\xBC\xA2\xE5\xAD\x97"));
    /* Latin from Liberation Sans, the ideographs from another face that has
     * them: real glyphs, not .notdef. */
    assert_ptr_equal(g[0].file, g[1].file);
    assert_ptr_not_equal(g[3].file, g[0].file);
    assert_ptr_equal(g[3].file, g[4].file);
    assert_true(g[0].index != 0 && g[3].index != 0 && g[4].index != 0 && g[3].index != g[4].index);
    /* A short buffer is filled as far as it goes; the count is the run's. */
    assert_int_equal(fonts_text_glyphs(f, s, strlen(s), g, 2), 6);
    /* A control character draws nothing. */
    assert_int_equal(fonts_text_glyphs(f, "\t", 1, g, 8), 1);
    assert_int_equal(g[0].index, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arial_is_liberation_sans_with_browser_widths),
        cmocka_unit_test(test_same_request_same_font),
        cmocka_unit_test(test_generic_families),
        cmocka_unit_test(test_fallback_for_cjk_and_hangul),
        cmocka_unit_test(test_invalid_utf8_is_measured_not_rejected),
        cmocka_unit_test(test_glyph_run_matches_the_measurement),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
