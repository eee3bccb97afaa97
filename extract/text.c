/* extract/: counting the text of a page in any script: words as BTE counts
 * them, characters, punctuation marks. Nothing here looks for spaces
 * between words or for ASCII punctuation only: a script written without
 * spaces counts a word per character, and punctuation is whatever Unicode
 * says it is (HarfBuzz's tables). */
#include "extract/extract.h"

#include <hb.h>

#include "base/script.h"
#include "base/tags.h"
#include "base/utf8.h"

static int is_space_cp(uint32_t cp)
{
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f' || cp == 0xA0 ||
           cp == 0x3000;
}

/* Words in a text: runs between white space, and each character of an
 * unspaced script. */
long extract_count_words(const char *s, size_t n)
{
    long words = 0;
    int in_word = 0;
    for (const char *p = s, *end = s + n; p < end;) {
        uint32_t cp = base_utf8_next(&p, end);
        if (is_space_cp(cp)) {
            in_word = 0;
        } else if (base_script_unspaced(cp)) {
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
    for (const char *p = s, *end = s + n; p < end;)
        k += !is_space_cp(base_utf8_next(&p, end));
    return k;
}

int extract_text_in_answer(const dom_node *n, const unsigned char *picked, size_t n_picked)
{
    return (n->index < n_picked && picked[n->index]) || base_html_spaces(n->text, n->text_len);
}

long extract_count_punct(const char *s, size_t n)
{
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    long k = 0;
    for (const char *p = s, *end = s + n; p < end;) {
        switch (hb_unicode_general_category(uf, base_utf8_next(&p, end))) {
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
