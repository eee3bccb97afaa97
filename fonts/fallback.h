/* fonts/: the tables of the metric fallback (fonts.h), made offline by
 * tools/gen-font-fallback.py into fallback_table.c. Internal to fonts/. */
#ifndef GLANCE_FONTS_FALLBACK_H
#define GLANCE_FONTS_FALLBACK_H

#include <stddef.h>
#include <stdint.h>

typedef struct fonts_range {
    uint32_t lo, hi; /* inclusive */
    int advance;     /* 1/1000 em */
} fonts_range;

typedef struct fonts_script_advance {
    const char *code;  /* ISO 15924, as HarfBuzz's hb_script_t tags it ("Thai") */
    const char *name;  /* its English name ("Thai", "Devanagari", "Han") */
    int advance;       /* mean advance in 1/1000 em */
    int measured;      /* 0: no face measured it; `advance` is the default */
} fonts_script_advance;

/* East Asian Width W or F, sorted, disjoint. */
extern const fonts_range fonts_wide_ranges[];
extern const size_t fonts_n_wide_ranges;
/* Sorted by code. */
extern const fonts_script_advance fonts_script_advances[];
extern const size_t fonts_n_script_advances;
/* For a script the table does not know, 1/1000 em. */
extern const int fonts_default_advance;

#endif
