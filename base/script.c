/* base/: scripts without spaces between words (script.h). */
#include "base/script.h"

#include <hb.h>

int base_script_unspaced(uint32_t cp)
{
    /* Nothing below Thai (U+0E00) is unspaced: most text never asks
     * HarfBuzz. */
    if (cp < 0x0E00 || cp > 0x10FFFF)
        return 0;
    switch (hb_unicode_script(hb_unicode_funcs_get_default(), cp)) {
    case HB_SCRIPT_HAN:
    case HB_SCRIPT_HIRAGANA:
    case HB_SCRIPT_KATAKANA:
    case HB_SCRIPT_THAI:
    case HB_SCRIPT_LAO:
    case HB_SCRIPT_KHMER:
    case HB_SCRIPT_MYANMAR:
    /* Tibetan marks syllables with the tsheg, not words with spaces. */
    case HB_SCRIPT_TIBETAN:
        return 1;
    default:
        return 0;
    }
}
