/* fonts/: faces found through fontconfig, text measured with FreeType.
 *
 * A fonts_lib is used by one thread at a time (one per glance_context); two
 * libs on two threads share nothing. Fonts opened from a lib are owned by it
 * and live until fonts_lib_free, so a layout engine may keep the pointers.
 *
 * Widths are what a browser on Linux measures: unhinted advances at the
 * requested pixel size, summed, with a glyph missing from the first face
 * taken from a fallback face that has it (fontconfig's sorted list for the
 * same family, weight and slant), so CJK, Arabic, Thai or Devanagari text in
 * an "Arial" paragraph is measured with a face that really draws it.
 *
 * What is installed must not change the layout: a wide character (East
 * Asian Width W or F: Han, kana, Hangul, fullwidth forms, CJK punctuation)
 * measures its table advance whatever face draws it (what Noto Sans CJK
 * gives: an em, 0.92 em for Hangul), and a character that no installed face
 * has measures the metric fallback (fonts_fallback_em), not the nothing of a
 * missing glyph. The lib notes the scripts it measured so
 * (fonts_missing_scripts).
 */
#ifndef GLANCE_FONTS_H
#define GLANCE_FONTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fonts_lib fonts_lib;
typedef struct fonts_font fonts_font;

typedef struct fonts_metrics {
    int ascent;   /* px above the baseline */
    int descent;  /* px below the baseline, positive */
    int height;   /* line height the face suggests, px */
    int x_height; /* px */
} fonts_metrics;

/* NULL when fontconfig or FreeType cannot start. */
fonts_lib *fonts_lib_new(void);
void fonts_lib_free(fonts_lib *lib);

/* A CSS font-family list ("Georgia, 'Times New Roman', serif"; generic names
 * serif, sans-serif, monospace, cursive, fantasy, system-ui understood), a
 * size in px, a CSS weight (100..900) and italic (0/1). The same arguments
 * give the same font. Never NULL unless out of memory or no font at all is
 * installed. */
fonts_font *fonts_open(fonts_lib *lib, const char *families, int size_px, int weight, int italic);

void fonts_get_metrics(const fonts_font *font, fonts_metrics *m);
int fonts_size_px(const fonts_font *font);

/* Width in px (rounded once, after summing fractional advances) of `len`
 * bytes of UTF-8. Invalid bytes count as U+FFFD. */
int fonts_text_width(fonts_font *font, const char *utf8, size_t len);

/* The metric fallback: the advance in em of a character that no installed
 * face has. Marks, format, control and private-use characters (an icon
 * font's, never loaded) 0; wide characters their
 * table advance (1 for Han, kana and CJK punctuation, 0.92 for Hangul, 1 for
 * other wide characters); any other its script's mean advance, measured on
 * Noto's faces (fallback_table.c, made by tools/gen-font-fallback.py). */
double fonts_fallback_em(unsigned cp);

/* The family name of the face that draws `cp` in this font; NULL when no
 * installed face has it (the metric fallback measures it). */
const char *fonts_family_for(fonts_font *font, unsigned cp);

/* The scripts of the characters fonts_text_width measured with the metric
 * fallback since the last fonts_missing_clear (private-use, format and
 * control characters are not counted): their English names ("Thai",
 * "Devanagari", "Han"), static strings, in the order of their ISO 15924
 * codes. Fills at most `cap` names and returns how many there are. */
void fonts_missing_clear(fonts_lib *lib);
size_t fonts_missing_scripts(const fonts_lib *lib, const char **names, size_t cap);

/* Drawing support (for render/ painting with cairo): the FreeType face that
 * draws code point `cp` in this font (the first face or a fallback), as an
 * opaque FT_Face, and the glyph index in it (0, in the first face, when no
 * face has it). */
void *fonts_face_for(fonts_font *font, unsigned cp, unsigned *glyph_index);

/* One glyph of a run laid out as fonts_text_width measures it. */
typedef struct fonts_glyph {
    const char *file; /* the face's file, owned by the lib; the same face gives
                         the same pointer (a painter may key a cache on it) */
    int face_index;   /* the face's index in a font collection */
    unsigned index;   /* glyph index in that face; 0 when no installed face
                         has the code point (or it is a control character) */
    double x;         /* pen position in px from the start of the run */
} fonts_glyph;

/* The glyphs of `len` bytes of UTF-8, one per code point, each from the face
 * that draws it (the first face's .notdef where none does) and placed at the
 * sum of the advances fonts_text_width adds before it: text painted with them is as wide as it was measured.
 * No shaping (DESIGN.md: litehtml measures words by advances). Fills at most
 * `cap` glyphs and returns how many the run has. */
size_t fonts_text_glyphs(fonts_font *font, const char *utf8, size_t len, fonts_glyph *out,
                         size_t cap);

#ifdef __cplusplus
}
#endif

#endif
