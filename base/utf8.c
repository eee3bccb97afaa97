/* base/: reading UTF-8 (utf8.h). */
#include "base/utf8.h"

uint32_t base_utf8_next(const char **p, const char *end)
{
    const unsigned char *s = (const unsigned char *)*p;
    uint32_t c = s[0];
    int n;
    uint32_t min;
    if (c < 0x80) {
        *p += 1;
        return c;
    } else if ((c & 0xE0) == 0xC0) {
        n = 1, min = 0x80, c &= 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 2, min = 0x800, c &= 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 3, min = 0x10000, c &= 0x07;
    } else {
        *p += 1;
        return 0xFFFD;
    }
    if ((const unsigned char *)end - s <= n) {
        *p += 1;
        return 0xFFFD;
    }
    for (int i = 1; i <= n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *p += 1;
            return 0xFFFD;
        }
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *p += 1;
        return 0xFFFD;
    }
    *p += n + 1;
    return c;
}
