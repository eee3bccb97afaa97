/* fonts/: faces found by CSS family lists, widths as browsers on Linux
 * measure them (Liberation faces stand in for Arial and Times New Roman),
 * fallback faces for scripts the first face lacks, and the metric fallback
 * for characters no face has, checked in a second lib that sees DejaVu
 * alone (FONTCONFIG_FILE pointing at a configuration written here). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include "fonts/fonts.h"

#define DEJAVU_DIR "/usr/share/fonts/truetype/dejavu"

static fonts_lib *lib;    /* every installed font */
static fonts_lib *dejavu; /* DejaVu alone; NULL when DejaVu is not installed */
static char tmpdir[] = "/tmp/glance-fonts-XXXXXX";

/* A lib whose fontconfig sees DejaVu alone: no Han, Thai or Devanagari. */
static fonts_lib *dejavu_lib(void)
{
    if (access(DEJAVU_DIR "/DejaVuSans.ttf", R_OK) != 0 || !mkdtemp(tmpdir))
        return NULL;
    char conf[256];
    snprintf(conf, sizeof conf, "%s/fonts.conf", tmpdir);
    FILE *f = fopen(conf, "w");
    if (!f)
        return NULL;
    fprintf(f,
            "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\">\n"
            "<fontconfig><dir>" DEJAVU_DIR "</dir><cachedir>%s/cache</cachedir>"
            "<include ignore_missing=\"yes\">/etc/fonts/conf.d</include></fontconfig>\n",
            tmpdir);
    fclose(f);
    setenv("FONTCONFIG_FILE", conf, 1); /* read when the lib loads its configuration */
    fonts_lib *l = fonts_lib_new();
    unsetenv("FONTCONFIG_FILE");
    return l;
}

static int setup(void **state)
{
    (void)state;
    if (getenv("FONTCONFIG_FILE"))
        return -1; /* the tests are about the system's fonts and DejaVu's */
    dejavu = dejavu_lib();
    lib = fonts_lib_new();
    return lib ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    fonts_lib_free(lib);
    fonts_lib_free(dejavu);
    if (strcmp(tmpdir + strlen(tmpdir) - 6, "XXXXXX") != 0) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0)
            return -1;
    }
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

/* A name no installed face has and no rule of fontconfig's names changes
 * nothing, and the lists that differ in such names alone share one sort;
 * a name a face has (DejaVu Math TeX Gyre, Serif Condensed), or that a rule
 * stands another face for (Arial), still counts, wherever it is in the
 * list. */
static void test_names_that_change_nothing(void **state)
{
    (void)state;
    struct {
        const char *list, *family;
    } cases[] = {
        {"Zzq Made Up, DejaVu Math TeX Gyre, monospace", "DejaVu Math TeX Gyre"},
        {"Made Up One, made up two, DejaVu Serif Condensed, sans-serif", "DejaVu Serif"},
        {"Made Up One, Arial, Made Up Two, monospace", "Liberation Sans"},
        {"Made Up, Made Up Too", "Liberation Serif"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fonts_font *f = fonts_open(lib, cases[i].list, 16, 400, 0);
        assert_non_null(f);
        if (strcmp(family_of(f, 'a'), cases[i].family) != 0)
            fail_msg("%s: %s, not %s", cases[i].list, family_of(f, 'a'), cases[i].family);
    }
    /* The same faces, the same widths and metrics as without the names. */
    fonts_font *with = fonts_open(lib, "Qwz, Liberation Mono, Qwy, serif", 13, 700, 1);
    fonts_font *without = fonts_open(lib, "Liberation Mono, serif", 13, 700, 1);
    assert_non_null(with);
    assert_non_null(without);
    assert_ptr_not_equal(with, without);
    assert_int_equal(width(with, "Harbour town 港口"), width(without, "Harbour town 港口"));
    assert_string_equal(family_of(with, 0x6E2F), family_of(without, 0x6E2F));
    fonts_metrics a, b;
    fonts_get_metrics(with, &a);
    fonts_get_metrics(without, &b);
    assert_memory_equal(&a, &b, sizeof a);
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

/* A character no installed face has measures the metric fallback's advance
 * for its script (fonts/fallback_table.c: Thai 0.588 em, Devanagari 0.607
 * em, measured on Noto Sans Thai and Noto Sans Devanagari), not the nothing
 * of a missing glyph; its marks take no room. */
static void test_uncovered_character_measures_the_table_advance(void **state)
{
    (void)state;
    if (!dejavu)
        skip();
    fonts_font *f = fonts_open(dejavu, "Arial, sans-serif", 16, 400, 0);
    assert_non_null(f);
    assert_string_equal(fonts_family_for(f, 'a'), "DejaVu Sans");
    assert_null(fonts_family_for(f, 0x0E01)); /* ก: no face has it */
    assert_null(fonts_family_for(f, 0x0915)); /* क */
    assert_true(fonts_fallback_em(0x0E01) == 0.588);
    assert_true(fonts_fallback_em(0x0915) == 0.607);
    /* 10 * 0.588 * 16 = 94.08 */
    assert_int_equal(width(f, "\xE0\xB8\x81\xE0\xB8\x81\xE0\xB8\x81\xE0\xB8\x81\xE0\xB8\x81"
                              "\xE0\xB8\x81\xE0\xB8\x81\xE0\xB8\x81\xE0\xB8\x81\xE0\xB8\x81"),
                     94);
    /* 10 * 0.607 * 20 = 121.4 */
    fonts_font *g = fonts_open(dejavu, "Arial, sans-serif", 20, 400, 0);
    assert_int_equal(width(g, "\xE0\xA4\x95\xE0\xA4\x95\xE0\xA4\x95\xE0\xA4\x95\xE0\xA4\x95"
                              "\xE0\xA4\x95\xE0\xA4\x95\xE0\xA4\x95\xE0\xA4\x95\xE0\xA4\x95"),
                     121);
    /* กิ: the vowel sign above (U+0E34, a nonspacing mark) adds nothing. */
    assert_int_equal(width(f, "\xE0\xB8\x81\xE0\xB8\xB4"), 9);
    /* A zero width space stays without width. */
    assert_int_equal(width(f, "a\xE2\x80\x8B"), width(f, "a"));
    /* The glyph run: the primary face's .notdef, placed at the fallback's
     * advances, so painted text is as wide as it was measured. */
    fonts_glyph run[3];
    const char *s = "a\xE0\xB8\x81" "b";
    assert_int_equal(fonts_text_glyphs(f, s, strlen(s), run, 3), 3);
    assert_int_equal(run[1].index, 0);
    assert_ptr_equal(run[1].file, run[0].file);
    assert_int_equal((int)(run[2].x + 0.5), width(f, "a\xE0\xB8\x81"));
}

/* A wide character measures its table advance at any size, whatever face
 * draws it or none does: an em for Han and fullwidth punctuation, 0.92 em
 * for Hangul (what Noto Sans CJK gives both). So the same text is as wide
 * with the CJK fonts as without. */
static void test_wide_character_is_one_em_at_any_size(void **state)
{
    (void)state;
    static const int sizes[] = {5, 11, 16, 23, 64, 200};
    fonts_lib *libs[2] = {lib, dejavu};
    for (int l = 0; l < 2; l++) {
        if (!libs[l])
            continue;
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            int px = sizes[i];
            fonts_font *f = fonts_open(libs[l], "Times New Roman", px, 400, 0);
            assert_non_null(f);
            assert_int_equal(width(f, "\xE6\xB0\xB4"), px);                   /* 水 */
            assert_int_equal(width(f, "\xE6\xB0\xB4\xE6\xB0\xB4\xE6\xB0\xB4"), 3 * px);
            assert_int_equal(width(f, "\xEF\xBC\x8C"), px);                   /* ， */
            assert_int_equal(width(f, "\xE3\x80\x82"), px);                   /* 。 */
            assert_int_equal(width(f, "\xE3\x81\x82"), px);                   /* あ */
            /* 한 x 10 */
            assert_int_equal(width(f, "\xED\x95\x9C\xED\x95\x9C\xED\x95\x9C\xED\x95\x9C"
                                      "\xED\x95\x9C\xED\x95\x9C\xED\x95\x9C\xED\x95\x9C"
                                      "\xED\x95\x9C\xED\x95\x9C"),
                             (int)(9.2 * px + 0.5));
        }
    }
    if (!dejavu)
        skip();
    /* Without a CJK face the ideograph still measures an em. */
    assert_null(fonts_family_for(fonts_open(dejavu, "serif", 16, 400, 0), 0x6C34));
}

/* A list naming a CJK family gets its Latin text and line height from the
 * next face, Liberation's, where the CJK face is installed as where it is
 * not: Noto Sans CJK's Latin letters and taller lines would otherwise
 * measure the same paragraph differently on the two machines. */
static void test_cjk_family_is_not_the_primary(void **state)
{
    (void)state;
    fonts_font *cjk = fonts_open(lib, "'Noto Sans CJK SC', Arial", 16, 400, 0);
    fonts_font *arial = fonts_open(lib, "Arial", 16, 400, 0);
    assert_non_null(cjk);
    assert_string_equal(family_of(cjk, 'a'), "Liberation Sans");
    assert_int_equal(width(cjk, "Hello world 2024"), width(arial, "Hello world 2024"));
    fonts_metrics a, b;
    fonts_get_metrics(cjk, &a);
    fonts_get_metrics(arial, &b);
    assert_int_equal(a.ascent, b.ascent);
    assert_int_equal(a.descent, b.descent);
    assert_int_equal(a.height, b.height);
}

/* The lib notes which scripts it measured with the metric fallback. */
static void test_missing_scripts_are_noted(void **state)
{
    (void)state;
    if (!dejavu)
        skip();
    fonts_font *f = fonts_open(dejavu, "Arial", 16, 400, 0);
    const char *names[4];
    fonts_missing_clear(dejavu);
    width(f, "Latin, \xCE\xB1\xCE\xB2 (Greek) and \xD0\xB4\xD0\xB0 (Cyrillic)");
    assert_int_equal(fonts_missing_scripts(dejavu, names, 4), 0);
    /* A private-use character is an icon font's, which glance never loads:
     * no width, no script to install. */
    assert_int_equal(width(f, "\xEE\x80\x80"), 0);
    assert_int_equal(fonts_missing_scripts(dejavu, names, 4), 0);
    width(f, "\xE0\xB8\x81"); /* ก */
    width(f, "\xE6\xB0\xB4"); /* 水 */
    assert_int_equal(fonts_missing_scripts(dejavu, names, 4), 2);
    assert_string_equal(names[0], "Han");
    assert_string_equal(names[1], "Thai");
    assert_int_equal(fonts_missing_scripts(dejavu, names, 1), 2); /* the count, not the cap */
    fonts_missing_clear(dejavu);
    assert_int_equal(fonts_missing_scripts(dejavu, names, 4), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arial_is_liberation_sans_with_browser_widths),
        cmocka_unit_test(test_same_request_same_font),
        cmocka_unit_test(test_generic_families),
        cmocka_unit_test(test_names_that_change_nothing),
        cmocka_unit_test(test_fallback_for_cjk_and_hangul),
        cmocka_unit_test(test_invalid_utf8_is_measured_not_rejected),
        cmocka_unit_test(test_glyph_run_matches_the_measurement),
        cmocka_unit_test(test_uncovered_character_measures_the_table_advance),
        cmocka_unit_test(test_wide_character_is_one_em_at_any_size),
        cmocka_unit_test(test_cjk_family_is_not_the_primary),
        cmocka_unit_test(test_missing_scripts_are_noted),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
