/* base/: what a script's writing system means for counting words. */
#ifndef GLANCE_BASE_SCRIPT_H
#define GLANCE_BASE_SCRIPT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when `cp` belongs to a script written without spaces between words
 * (HarfBuzz's Unicode script: Han, Hiragana, Katakana, Thai, Lao, Khmer,
 * Myanmar, Tibetan), so that a word count or a tokenizer takes each such
 * character as a word; 0 otherwise (Hangul, for one, is written with
 * spaces). */
int base_script_unspaced(uint32_t cp);

#ifdef __cplusplus
}
#endif

#endif
