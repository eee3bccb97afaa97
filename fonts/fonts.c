/* fonts/: fontconfig finds the faces, FreeType gives their advances.
 *
 * Faces are shared by every size: advances are read once per glyph in font
 * units (FT_LOAD_NO_SCALE, so unhinted) and scaled by the requested pixel
 * size, summed in floating point and rounded once, as browsers with subpixel
 * positioning measure. Kerning and shaping are not applied: litehtml asks for
 * word widths, and the advance sum is what keeps that fast.
 *
 * What the installed fonts must not change (the same page, the same layout,
 * on any machine): wide characters (East Asian Width W or F) measure the
 * table's advance whatever face draws them (Noto Sans CJK's own, so nothing
 * changes where it is installed), and a character no face has measures the
 * metric fallback's advance for its script (fallback_table.c, measured on
 * Noto's faces by tools/gen-font-fallback.py), not the nothing a missing glyph
 * measured. So a machine without the CJK fonts lays a Chinese page out as one
 * with them does.
 */
#include "fonts/fonts.h"

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
#include FT_ADVANCES_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <hb.h>

#include "base/buf.h"
#include "base/grow.h"
#include "base/utf8.h"
#include "fonts/fallback.h"

#define MAX_CP 0x110000u
#define PAGE_BITS 8
#define PAGE_SIZE (1u << PAGE_BITS)
#define N_PAGES (MAX_CP >> PAGE_BITS)

/* Bits for the scripts of fonts_script_advances (165 in Unicode 15). */
#define FONTS_MISSING_WORDS 4

/* One face file (path + index in a collection), opened once per lib. */
typedef struct face_entry {
    char *file;
    int index;
    FT_Face face;     /* NULL when FreeType could not open it */
    /* Per code point: glyph index + 1 (0 = not looked up yet) and the
     * advance in font units. Pages are allocated on first use. */
    struct glyph { uint32_t gid1; int32_t adv; } *pages[N_PAGES];
} face_entry;

struct fonts_font {
    fonts_lib *lib;
    char *families;
    int size_px, weight, italic;
    /* These three are the lib's sort cache's, shared by every size of the
     * family list, weight and slant (none depends on the size): */
    FcFontSet *sorted;     /* fontconfig's fallback order; [0] is the primary face */
    int *slots;            /* face_entry index per sorted entry; -2 = not opened yet */
    /* Per code point: which sorted entry draws it, + 1; 0 = not resolved,
     * UINT16_MAX = no installed face has it. N_PAGES pages. */
    uint16_t **which;
    int primary;           /* face_entry index of the first face that opened */
    fonts_metrics metrics;
};

/* FcFontSort is the costly call (milliseconds with CJK fonts installed) and
 * its order does not depend on the size of scalable faces: one per family
 * list, weight and slant. */
typedef struct sort_entry {
    char *families; /* the list without the names that change nothing (family_key) */
    int weight, italic;
    FcFontSet *set;
    /* The fonts' slots and which (fonts_font): one copy for every size, where
     * each size had its own (35 kB of page pointers each, and the pages,
     * hundreds of sizes over a worker's pages). */
    int *slots;
    uint16_t **which;
} sort_entry;

/* A family name a page asks for, and whether it changes fontconfig's sort:
 * a name no installed face has and no rule of fontconfig's names changes
 * nothing (family_key). */
typedef struct name_entry {
    char *name;
    int inert;
} name_entry;

struct fonts_lib {
    FcConfig *config;
    sort_entry *sorts;
    size_t n_sorts, cap_sorts;
    name_entry *names;
    size_t n_names, cap_names;
    char **installed; /* the installed faces' family names, family_norm'd */
    size_t n_installed;
    FcPattern *bare;  /* an empty pattern after FcConfigSubstitute; NULL: not yet */
    FT_Library ft;
    face_entry **faces;
    size_t n_faces, cap_faces;
    fonts_font **fonts;
    size_t n_fonts, cap_fonts;
    /* Scripts measured with the metric fallback since fonts_missing_clear:
     * one bit per entry of fonts_script_advances. */
    uint64_t missing[FONTS_MISSING_WORDS];
};

fonts_lib *fonts_lib_new(void)
{
    fonts_lib *lib = calloc(1, sizeof *lib);
    if (!lib)
        return NULL;
    lib->config = FcInitLoadConfigAndFonts();
    if (!lib->config || FT_Init_FreeType(&lib->ft) != 0) {
        if (lib->config)
            FcConfigDestroy(lib->config);
        free(lib);
        return NULL;
    }
    return lib;
}

static void face_free(face_entry *e)
{
    if (e->face)
        FT_Done_Face(e->face);
    for (size_t i = 0; i < N_PAGES; i++)
        free(e->pages[i]);
    free(e->file);
    free(e);
}

static void font_free(fonts_font *f)
{
    free(f->families);
    free(f);
}

void fonts_lib_free(fonts_lib *lib)
{
    if (!lib)
        return;
    for (size_t i = 0; i < lib->n_fonts; i++)
        font_free(lib->fonts[i]);
    for (size_t i = 0; i < lib->n_faces; i++)
        face_free(lib->faces[i]);
    free(lib->fonts);
    free(lib->faces);
    for (size_t i = 0; i < lib->n_sorts; i++) {
        FcFontSetDestroy(lib->sorts[i].set);
        free(lib->sorts[i].families);
        free(lib->sorts[i].slots);
        for (size_t k = 0; k < N_PAGES; k++)
            free(lib->sorts[i].which[k]);
        free(lib->sorts[i].which);
    }
    free(lib->sorts);
    for (size_t i = 0; i < lib->n_names; i++)
        free(lib->names[i].name);
    free(lib->names);
    for (size_t i = 0; i < lib->n_installed; i++)
        free(lib->installed[i]);
    free(lib->installed);
    if (lib->bare)
        FcPatternDestroy(lib->bare);
    FT_Done_FreeType(lib->ft);
    FcConfigDestroy(lib->config);
    free(lib);
}

/* The face_entry for a file and index, opened on first use; -1 when out of
 * memory. A file FreeType cannot open still gets an entry (face NULL) so it
 * is not retried. */
static int face_get(fonts_lib *lib, const char *file, int index)
{
    for (size_t i = 0; i < lib->n_faces; i++)
        if (lib->faces[i]->index == index && strcmp(lib->faces[i]->file, file) == 0)
            return (int)i;
    if (base_grow(&lib->faces, &lib->cap_faces, lib->n_faces + 1, sizeof *lib->faces))
        return -1;
    face_entry *e = calloc(1, sizeof *e);
    if (!e || !(e->file = strdup(file))) {
        free(e);
        return -1;
    }
    e->index = index;
    if (FT_New_Face(lib->ft, file, index, &e->face) != 0 || e->face->units_per_EM == 0) {
        if (e->face)
            FT_Done_Face(e->face);
        e->face = NULL;
    }
    lib->faces[lib->n_faces] = e;
    return (int)lib->n_faces++;
}

/* Glyph index (0 = none) and advance in font units of `cp` in a face. The
 * advance is the face's horizontal metrics table's (FT_Get_Advance), the
 * value loading the glyph gives unhinted and unscaled, without reading the
 * glyph's outline: a CJK face's outlines are spread over 15 MB of its file,
 * and a page of Korean touched 12 MB of it, resident in the worker for the
 * rest of its pages. */
static const struct glyph *face_glyph(face_entry *e, unsigned cp)
{
    static const struct glyph none = {1, 0};
    if (!e->face || cp >= MAX_CP)
        return &none;
    struct glyph **page = &e->pages[cp >> PAGE_BITS];
    if (!*page && !(*page = calloc(PAGE_SIZE, sizeof **page)))
        return &none;
    struct glyph *g = &(*page)[cp & (PAGE_SIZE - 1)];
    if (g->gid1 == 0) {
        FT_UInt gid = FT_Get_Char_Index(e->face, cp);
        g->gid1 = gid + 1;
        g->adv = 0;
        FT_Fixed adv;
        if (gid && FT_Get_Advance(e->face, gid, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING, &adv) == 0)
            g->adv = (int32_t)adv;
    }
    return g;
}

/* Face entry of sorted entry `i`, opened on first use; -1 when it has none. */
static int font_slot(fonts_font *f, int i)
{
    if (f->slots[i] == -2) {
        FcChar8 *file = NULL;
        int index = 0;
        f->slots[i] = -1;
        if (FcPatternGetString(f->sorted->fonts[i], FC_FILE, 0, &file) == FcResultMatch) {
            FcPatternGetInteger(f->sorted->fonts[i], FC_INDEX, 0, &index);
            int s = face_get(f->lib, (const char *)file, index);
            if (s >= 0 && f->lib->faces[s]->face)
                f->slots[i] = s;
        }
    }
    return f->slots[i];
}

/* The face entry that draws `cp`: the primary face when it has the glyph,
 * else the first fallback whose character set holds it; NULL when no
 * installed face has it (control characters are the primary's). */
static face_entry *font_face_for(fonts_font *f, unsigned cp)
{
    face_entry *primary = f->lib->faces[f->primary];
    if (cp >= MAX_CP)
        return primary;
    if (face_glyph(primary, cp)->gid1 > 1 || cp < 0x20)
        return primary;
    uint16_t **page = &f->which[cp >> PAGE_BITS];
    if (!*page && !(*page = calloc(PAGE_SIZE, sizeof **page)))
        return primary;
    uint16_t *w = &(*page)[cp & (PAGE_SIZE - 1)];
    if (*w == 0) {
        *w = UINT16_MAX;
        for (int i = 0; i < f->sorted->nfont && i < UINT16_MAX - 1; i++) {
            FcCharSet *cs = NULL;
            if (FcPatternGetCharSet(f->sorted->fonts[i], FC_CHARSET, 0, &cs) != FcResultMatch ||
                !FcCharSetHasChar(cs, cp))
                continue;
            int s = font_slot(f, i);
            if (s >= 0 && face_glyph(f->lib->faces[s], cp)->gid1 > 1) {
                *w = (uint16_t)(i + 1);
                break;
            }
        }
    }
    if (*w == UINT16_MAX)
        return NULL;
    return f->lib->faces[f->slots[*w - 1]];
}

/* The advance of a wide character in 1/1000 em (fallback_table.c), 0 when
 * `cp` is not wide. Nothing below U+1100 is. */
static int wide_advance(unsigned cp)
{
    if (cp < 0x1100)
        return 0;
    size_t lo = 0, hi = fonts_n_wide_ranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < fonts_wide_ranges[mid].lo)
            hi = mid;
        else if (cp > fonts_wide_ranges[mid].hi)
            lo = mid + 1;
        else
            return fonts_wide_ranges[mid].advance;
    }
    return 0;
}

/* Pictographs (Miscellaneous Technical to Miscellaneous Symbols and Arrows,
 * and the symbols of plane 1) are wide too, but Latin faces draw many of them
 * (DejaVu Sans has 98) at their own widths, which stay as they were; only
 * where no face has them do they take the table's em. */
static int pictograph(unsigned cp)
{
    return (cp >= 0x2300 && cp <= 0x2BFF) || (cp >= 0x1F000 && cp <= 0x1FAFF);
}

/* The entry of fonts_script_advances for a HarfBuzz script; Unknown's for a
 * script the table does not know (fonts_n_script_advances, past the end,
 * if it lacks Unknown too). */
static size_t script_entry(hb_script_t script)
{
    char code[5];
    hb_tag_to_string((hb_tag_t)script, code);
    code[4] = '\0';
    size_t lo = 0, hi = fonts_n_script_advances;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(code, fonts_script_advances[mid].code);
        if (c == 0)
            return mid;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return script == HB_SCRIPT_UNKNOWN ? fonts_n_script_advances : script_entry(HB_SCRIPT_UNKNOWN);
}

/* The metric fallback: the advance in 1/1000 em of a character that no
 * installed face has. Marks, format and control characters take no room,
 * and neither do private-use ones: they are an icon font's (Font Awesome's
 * U+F0xx), which glance never loads, and carry no text; measured at nothing
 * they stay out of the text, as before. A wide character takes its table
 * advance (an em for Han, kana and CJK punctuation); anything else its
 * script's mean advance. The script is noted as missing unless the
 * character is a format, control or private-use one. */
static int fallback_advance(uint64_t *missing, unsigned cp)
{
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    hb_unicode_general_category_t gc = hb_unicode_general_category(uf, cp);
    int adv;
    size_t s = script_entry(hb_unicode_script(uf, cp));
    switch (gc) {
    case HB_UNICODE_GENERAL_CATEGORY_CONTROL:
    case HB_UNICODE_GENERAL_CATEGORY_FORMAT:
    case HB_UNICODE_GENERAL_CATEGORY_SURROGATE:
    case HB_UNICODE_GENERAL_CATEGORY_LINE_SEPARATOR:
    case HB_UNICODE_GENERAL_CATEGORY_PARAGRAPH_SEPARATOR:
    case HB_UNICODE_GENERAL_CATEGORY_PRIVATE_USE:
        return 0;
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
        adv = 0;
        break;
    default:
        adv = wide_advance(cp);
        if (!adv)
            adv = s < fonts_n_script_advances ? fonts_script_advances[s].advance
                                              : fonts_default_advance;
    }
    if (missing && s < (size_t)FONTS_MISSING_WORDS * 64)
        missing[s / 64] |= (uint64_t)1 << (s % 64);
    return adv;
}

/* The advance of `cp` in em and the face that draws it (*drawn; NULL when
 * none does): a wide character its table advance whatever face draws it
 * (pictographs but where none does), else the face's own advance, else the
 * metric fallback's. */
static double char_em(fonts_font *f, unsigned cp, face_entry **drawn)
{
    face_entry *e = font_face_for(f, cp);
    *drawn = e;
    if (!e)
        return fallback_advance(f->lib->missing, cp) / 1000.0;
    int wide = cp >= 0x1100 && !pictograph(cp) ? wide_advance(cp) : 0;
    if (wide)
        return wide / 1000.0;
    return (double)face_glyph(e, cp)->adv / e->face->units_per_EM;
}

/* Splits a CSS font-family list into fontconfig family names. A generic
 * family becomes the face a browser on Linux uses for it (Chrome's defaults:
 * Times New Roman, Arial, monospace), followed by fontconfig's own generic
 * name; a list without a generic name ends in the default, Times New Roman. */
static void each_family(const char *css, void (*fn)(void *ud, const char *name), void *ud)
{
    static const struct { const char *css, *browser, *fc; } generic[] = {
        {"serif", "Times New Roman", "serif"},
        {"sans-serif", "Arial", "sans-serif"},
        {"monospace", "Liberation Mono", "monospace"},
        {"cursive", "Comic Sans MS", "cursive"},
        {"fantasy", "Impact", "fantasy"},
        {"system-ui", "DejaVu Sans", "sans-serif"},
        {"ui-sans-serif", "DejaVu Sans", "sans-serif"},
        {"ui-serif", "DejaVu Serif", "serif"},
        {"ui-monospace", "DejaVu Sans Mono", "monospace"},
    };
    int saw_generic = 0;
    const char *p = css ? css : "";
    while (*p) {
        while (*p == ',' || *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        const char *a = p, *b = end;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n' || b[-1] == '\r'))
            b--;
        if (b - a >= 2 && (*a == '"' || *a == '\'') && b[-1] == *a) {
            a++;
            b--;
        }
        p = end;
        size_t n = (size_t)(b - a);
        if (n == 0 || n > 200)
            continue;
        char name[201];
        memcpy(name, a, n);
        name[n] = '\0';
        int g = -1;
        for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++)
            if (strcasecmp(name, generic[i].css) == 0)
                g = (int)i;
        if (g >= 0) {
            fn(ud, generic[g].browser);
            fn(ud, generic[g].fc);
            saw_generic = 1;
            break; /* nothing after a generic family is ever used */
        }
        fn(ud, name);
    }
    if (!saw_generic) {
        fn(ud, "Times New Roman");
        fn(ud, "serif");
    }
}

/* A family name as fontconfig compares them: ASCII case and spaces aside
 * (FcStrCmpIgnoreBlanksAndCase). Malloc'd; NULL when out of memory. */
static char *family_norm(const char *s)
{
    char *o = malloc(strlen(s) + 1), *q = o;
    if (!o)
        return NULL;
    for (; *s; s++)
        if (*s != ' ')
            *q++ = (*s >= 'A' && *s <= 'Z') ? (char)(*s - 'A' + 'a') : *s;
    *q = '\0';
    return o;
}

/* The family names of the installed faces and the empty pattern's
 * substitution, once; -1 when out of memory. */
static int names_init(fonts_lib *lib)
{
    if (lib->bare)
        return 0;
    FcFontSet *all = FcConfigGetFonts(lib->config, FcSetSystem);
    size_t cap = 0;
    for (int i = 0; all && i < all->nfont; i++) {
        FcChar8 *fam;
        for (int k = 0; FcPatternGetString(all->fonts[i], FC_FAMILY, k, &fam) == FcResultMatch;
             k++) {
            if (base_grow(&lib->installed, &cap, lib->n_installed + 1, sizeof *lib->installed))
                return -1;
            if (!(lib->installed[lib->n_installed] = family_norm((const char *)fam)))
                return -1;
            lib->n_installed++;
        }
    }
    lib->bare = FcPatternCreate();
    if (!lib->bare)
        return -1;
    FcConfigSubstitute(lib->config, lib->bare, FcMatchPattern);
    return 0;
}

/* Names a lib looks at, and new names a list may have looked at: past
 * these a name counts unexamined (a page of a thousand made-up families
 * pays a sort per list, as before, not a substitution per name). */
#define MAX_NAMES 4096
#define MAX_NEW_NAMES 8

/* Does the family name change fontconfig's sort? Not when no installed face
 * has it and substituting it alone gives the empty pattern's substitution
 * after it, as a name no rule names does: then the sort of a list with it
 * is the sort of the list without it (fontconfig ranks a face by the first
 * name of the list it has). `*budget` new names may be examined. 1 inert,
 * 0 not (or not examined), -1 out of memory. */
static int name_inert(fonts_lib *lib, const char *name, int *budget)
{
    for (size_t i = 0; i < lib->n_names; i++)
        if (strcmp(lib->names[i].name, name) == 0)
            return lib->names[i].inert;
    if (lib->n_names >= MAX_NAMES || *budget <= 0)
        return 0;
    --*budget;
    if (names_init(lib) != 0)
        return -1;
    char *norm = family_norm(name);
    if (!norm)
        return -1;
    int inert = 1;
    for (size_t i = 0; i < lib->n_installed && inert; i++)
        inert = strcmp(lib->installed[i], norm) != 0;
    free(norm);
    if (inert) {
        FcPattern *p = FcPatternCreate();
        if (!p)
            return -1;
        FcPatternAddString(p, FC_FAMILY, (const FcChar8 *)name);
        FcConfigSubstitute(lib->config, p, FcMatchPattern);
        /* Its families: the name, then the empty pattern's; the rest the
         * empty pattern's. */
        FcChar8 *f;
        inert = FcPatternGetString(p, FC_FAMILY, 0, &f) == FcResultMatch &&
                strcmp((const char *)f, name) == 0;
        for (int k = 0; inert; k++) {
            FcChar8 *b;
            FcResult rp = FcPatternGetString(p, FC_FAMILY, k + 1, &f);
            FcResult rb = FcPatternGetString(lib->bare, FC_FAMILY, k, &b);
            if (rp != FcResultMatch || rb != FcResultMatch) {
                inert = rp == rb;
                break;
            }
            inert = strcmp((const char *)f, (const char *)b) == 0;
        }
        if (inert) {
            FcPattern *a = FcPatternDuplicate(p), *b = FcPatternDuplicate(lib->bare);
            if (a && b) {
                FcPatternDel(a, FC_FAMILY);
                FcPatternDel(b, FC_FAMILY);
                inert = FcPatternEqual(a, b);
            } else {
                inert = 0;
            }
            if (a)
                FcPatternDestroy(a);
            if (b)
                FcPatternDestroy(b);
        }
        FcPatternDestroy(p);
    }
    if (base_grow(&lib->names, &lib->cap_names, lib->n_names + 1, sizeof *lib->names))
        return -1;
    char *copy = strdup(name);
    if (!copy)
        return -1;
    lib->names[lib->n_names++] = (name_entry){copy, inert};
    return inert;
}

typedef struct key_ctx {
    fonts_lib *lib;
    int budget; /* new names it may examine (MAX_NEW_NAMES) */
    FcPattern *pat; /* the names that count, as fontconfig gets them */
    base_buf key;   /* ... one a line, '\\' and line breaks escaped */
    int failed;
} key_ctx;

static void key_add(void *ud, const char *name)
{
    key_ctx *k = ud;
    int inert = name_inert(k->lib, name, &k->budget);
    if (inert < 0)
        k->failed = 1;
    if (inert == 0) {
        FcPatternAddString(k->pat, FC_FAMILY, (const FcChar8 *)name);
        for (const char *c = name; *c; c++) {
            if (*c == '\\' || *c == '\n')
                base_buf_add(&k->key, "\\", 1);
            base_buf_add(&k->key, c, 1);
        }
        base_buf_add(&k->key, "\n", 1);
    }
}

/* The family names a CSS list gives fontconfig (each_family) but those
 * that change nothing (name_inert), into *pat, and the key of the list:
 * lists that differ in those names alone sort the same. The key is
 * malloc'd; NULL (and no *pat) when out of memory. */
static char *family_key(fonts_lib *lib, const char *css, FcPattern **pat)
{
    key_ctx k = {lib, MAX_NEW_NAMES, FcPatternCreate(), BASE_BUF_INIT, 0};
    if (k.pat)
        each_family(css, key_add, &k);
    char *key = base_buf_take(&k.key, NULL);
    if (!k.pat || k.failed || !key) {
        free(key);
        if (k.pat)
            FcPatternDestroy(k.pat);
        return NULL;
    }
    *pat = k.pat;
    return key;
}

static void set_metrics(fonts_font *f)
{
    FT_Face face = f->lib->faces[f->primary]->face;
    double scale = (double)f->size_px / face->units_per_EM;
    int asc = face->ascender, desc = -face->descender, gap = face->height - asc - desc;
    TT_OS2 *os2 = FT_Get_Sfnt_Table(face, FT_SFNT_OS2);
    if (os2 && os2->version != 0xFFFF && (os2->fsSelection & (1 << 7))) {
        /* USE_TYPO_METRICS */
        asc = os2->sTypoAscender;
        desc = -os2->sTypoDescender;
        gap = os2->sTypoLineGap;
    }
    if (gap < 0)
        gap = 0;
    f->metrics.ascent = (int)lround(asc * scale);
    f->metrics.descent = (int)lround(desc * scale);
    f->metrics.height = f->metrics.ascent + f->metrics.descent + (int)lround(gap * scale);
    if (os2 && os2->version >= 2 && os2->version != 0xFFFF && os2->sxHeight > 0)
        f->metrics.x_height = (int)lround(os2->sxHeight * scale);
    else
        f->metrics.x_height = (int)lround(f->size_px * 0.5);
    if (f->metrics.height <= 0)
        f->metrics.height = f->size_px;
}

/* fontconfig's sorted list of faces for a family list, weight and slant,
 * with its slots and which, from the cache or made now (valid until the
 * next call); NULL when out of memory or none at all. */
static const sort_entry *sorted_faces(fonts_lib *lib, const char *families, int weight,
                                      int italic)
{
    FcPattern *pat;
    char *key = family_key(lib, families, &pat);
    if (!key)
        return NULL;
    for (size_t i = 0; i < lib->n_sorts; i++)
        if (lib->sorts[i].weight == weight && lib->sorts[i].italic == italic &&
            strcmp(lib->sorts[i].families, key) == 0) {
            free(key);
            FcPatternDestroy(pat);
            return &lib->sorts[i];
        }
    if (base_grow(&lib->sorts, &lib->cap_sorts, lib->n_sorts + 1, sizeof *lib->sorts)) {
        free(key);
        FcPatternDestroy(pat);
        return NULL;
    }
    FcPatternAddInteger(pat, FC_WEIGHT, FcWeightFromOpenType(weight));
    FcPatternAddInteger(pat, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN);
    FcConfigSubstitute(lib->config, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult res;
    FcFontSet *set = FcFontSort(lib->config, pat, FcTrue, NULL, &res);
    FcPatternDestroy(pat);
    int *slots = set ? malloc(sizeof *slots * (size_t)(set->nfont ? set->nfont : 1)) : NULL;
    uint16_t **which = calloc(N_PAGES, sizeof *which);
    if (!set || !key || !slots || !which) {
        if (set)
            FcFontSetDestroy(set);
        free(key);
        free(slots);
        free(which);
        return NULL;
    }
    for (int i = 0; i < set->nfont; i++)
        slots[i] = -2;
    lib->sorts[lib->n_sorts++] = (sort_entry){key, weight, italic, set, slots, which};
    return &lib->sorts[lib->n_sorts - 1];
}

static fonts_font *font_new(fonts_lib *lib, const char *families, int size_px, int weight,
                            int italic)
{
    fonts_font *f = calloc(1, sizeof *f);
    if (!f || !(f->families = strdup(families))) {
        free(f);
        return NULL;
    }
    f->lib = lib;
    f->size_px = size_px;
    f->weight = weight;
    f->italic = italic;
    f->primary = -1;

    const sort_entry *se = sorted_faces(lib, families, weight, italic);
    if (!se || se->set->nfont == 0)
        goto fail;
    f->sorted = se->set;
    f->slots = se->slots;
    f->which = se->which;
    /* The primary face gives the line's metrics and every character it has:
     * the first face that opens and has no Han ideographs. A list that names
     * a CJK family ("Noto Sans CJK SC, Arial") would otherwise take its
     * Latin text and line height from the CJK face where it is installed and
     * from Liberation where it is not; so both take them from the next face,
     * and the CJK face draws what it alone has, wide characters at their
     * table advance either way. A list of CJK faces only keeps the first. */
    int first = -1;
    for (int i = 0; i < f->sorted->nfont && f->primary < 0; i++) {
        int s = font_slot(f, i);
        if (s < 0)
            continue;
        if (first < 0)
            first = s;
        FcCharSet *cs = NULL;
        if (FcPatternGetCharSet(f->sorted->fonts[i], FC_CHARSET, 0, &cs) != FcResultMatch ||
            !FcCharSetHasChar(cs, 0x6C34)) /* 水 */
            f->primary = s;
    }
    if (f->primary < 0)
        f->primary = first;
    if (f->primary < 0)
        goto fail;
    set_metrics(f);
    return f;
fail:
    font_free(f);
    return NULL;
}

fonts_font *fonts_open(fonts_lib *lib, const char *families, int size_px, int weight, int italic)
{
    if (!lib)
        return NULL;
    if (!families)
        families = "";
    if (size_px < 1)
        size_px = 1;
    if (size_px > 4096)
        size_px = 4096;
    if (weight < 1)
        weight = 400;
    if (weight > 1000)
        weight = 1000;
    italic = italic ? 1 : 0;
    for (size_t i = 0; i < lib->n_fonts; i++) {
        fonts_font *f = lib->fonts[i];
        if (f->size_px == size_px && f->weight == weight && f->italic == italic &&
            strcmp(f->families, families) == 0)
            return f;
    }
    if (base_grow(&lib->fonts, &lib->cap_fonts, lib->n_fonts + 1, sizeof *lib->fonts))
        return NULL;
    fonts_font *f = font_new(lib, families, size_px, weight, italic);
    if (f)
        lib->fonts[lib->n_fonts++] = f;
    return f;
}

void fonts_get_metrics(const fonts_font *font, fonts_metrics *m)
{
    *m = font->metrics;
}

int fonts_size_px(const fonts_font *font)
{
    return font->size_px;
}

int fonts_text_width(fonts_font *font, const char *utf8, size_t len)
{
    if (!font || !utf8)
        return 0;
    const char *p = utf8, *end = utf8 + len;
    double width = 0;
    while (p < end) {
        face_entry *e;
        width += char_em(font, base_utf8_next(&p, end), &e);
    }
    return (int)lround(width * font->size_px);
}

void *fonts_face_for(fonts_font *font, unsigned cp, unsigned *glyph_index)
{
    face_entry *e = font_face_for(font, cp);
    if (!e) {
        /* No face has it: the primary's .notdef. */
        if (glyph_index)
            *glyph_index = 0;
        return font->lib->faces[font->primary]->face;
    }
    if (glyph_index)
        *glyph_index = face_glyph(e, cp)->gid1 - 1;
    return e->face;
}

const char *fonts_family_for(fonts_font *font, unsigned cp)
{
    face_entry *e = font ? font_face_for(font, cp) : NULL;
    return e && e->face->family_name ? e->face->family_name : NULL;
}

double fonts_fallback_em(unsigned cp)
{
    return fallback_advance(NULL, cp) / 1000.0;
}

void fonts_missing_clear(fonts_lib *lib)
{
    if (lib)
        memset(lib->missing, 0, sizeof lib->missing);
}

size_t fonts_missing_scripts(const fonts_lib *lib, const char **names, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; lib && i < fonts_n_script_advances && i < (size_t)FONTS_MISSING_WORDS * 64;
         i++)
        if (lib->missing[i / 64] >> (i % 64) & 1) {
            if (n < cap)
                names[n] = fonts_script_advances[i].name;
            n++;
        }
    return n;
}

size_t fonts_text_glyphs(fonts_font *font, const char *utf8, size_t len, fonts_glyph *out,
                         size_t cap)
{
    if (!font || !utf8)
        return 0;
    const char *p = utf8, *end = utf8 + len;
    double pen = 0; /* in em, as fonts_text_width sums it */
    size_t n = 0;
    while (p < end) {
        unsigned cp = base_utf8_next(&p, end);
        face_entry *e;
        double em = char_em(font, cp, &e);
        if (n < cap) {
            /* No face has it: the primary's .notdef, at the fallback's advance. */
            face_entry *d = e ? e : font->lib->faces[font->primary];
            out[n].file = d->file;
            out[n].face_index = d->index;
            out[n].index = cp < 0x20 || !e ? 0 : face_glyph(e, cp)->gid1 - 1;
            out[n].x = pen * font->size_px;
        }
        n++;
        pen += em;
    }
    return n;
}
