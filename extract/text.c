/* extract/: counting the text of a page in any script: words as BTE counts
 * them, characters, punctuation marks. Nothing here looks for spaces
 * between words or for ASCII punctuation only: a script written without
 * spaces counts a word per character, and punctuation is whatever Unicode
 * says it is (HarfBuzz's tables). */
#include "extract/extract.h"

#include <hb.h>

/* One code point of UTF-8 at s[*i] (n bytes in all); advances *i. A
 * truncated sequence gives its lead byte. */
static unsigned next_cp(const char *s, size_t n, size_t *i)
{
    unsigned char c = (unsigned char)s[*i];
    unsigned cp = c;
    size_t len = 1;
    if (c >= 0xF0 && *i + 3 < n)
        cp = ((c & 7u) << 18) | ((s[*i + 1] & 0x3Fu) << 12) | ((s[*i + 2] & 0x3Fu) << 6) |
             (s[*i + 3] & 0x3Fu),
        len = 4;
    else if (c >= 0xE0 && *i + 2 < n)
        cp = ((c & 15u) << 12) | ((s[*i + 1] & 0x3Fu) << 6) | (s[*i + 2] & 0x3Fu), len = 3;
    else if (c >= 0xC0 && *i + 1 < n)
        cp = ((c & 31u) << 6) | (s[*i + 1] & 0x3Fu), len = 2;
    *i += len;
    return cp;
}

static int is_space_cp(unsigned cp)
{
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f' || cp == 0xA0 ||
           cp == 0x3000;
}

static int unspaced(hb_unicode_funcs_t *uf, unsigned cp)
{
    if (cp < 0x0E00)
        return 0;
    switch (hb_unicode_script(uf, cp)) {
    case HB_SCRIPT_HAN:
    case HB_SCRIPT_HIRAGANA:
    case HB_SCRIPT_KATAKANA:
    case HB_SCRIPT_THAI:
    case HB_SCRIPT_LAO:
    case HB_SCRIPT_KHMER:
    case HB_SCRIPT_MYANMAR:
        return 1;
    default:
        return 0;
    }
}

/* Words in a text: runs between white space, and each character of an
 * unspaced script. */
long extract_count_words(const char *s, size_t n)
{
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    long words = 0;
    int in_word = 0;
    for (size_t i = 0; i < n;) {
        unsigned cp = next_cp(s, n, &i);
        if (is_space_cp(cp)) {
            in_word = 0;
        } else if (unspaced(uf, cp)) {
            words++;
            in_word = 0;
        } else if (!in_word) {
            words++;
            in_word = 1;
        }
    }
    return words;
}

long extract_count_chars(const char *s, size_t n)
{
    long k = 0;
    for (size_t i = 0; i < n;)
        k += !is_space_cp(next_cp(s, n, &i));
    return k;
}

long extract_count_punct(const char *s, size_t n)
{
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    long k = 0;
    for (size_t i = 0; i < n;) {
        unsigned cp = next_cp(s, n, &i);
        switch (hb_unicode_general_category(uf, cp)) {
        case HB_UNICODE_GENERAL_CATEGORY_CONNECT_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_DASH_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_CLOSE_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_FINAL_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_INITIAL_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_OTHER_PUNCTUATION:
        case HB_UNICODE_GENERAL_CATEGORY_OPEN_PUNCTUATION:
            k++;
            break;
        default:
            break;
        }
    }
    return k;
}
