/* render/: CSS lengths litehtml 0.6 cannot read, evaluated in pixels.
 * Internal to render/ (compat.cpp resolves them as an element is laid out).
 *
 * litehtml reads a length as a number and one of the units it knows. A
 * math function (calc(), min(), max(), clamp(), nested) it reads as
 * nothing, and a unit it does not know (ch, the dynamic viewport units dvh,
 * svh, lvh and their kin, lh) as pixels: `max-width: 65ch` made a column
 * 65 pixels wide. Here such a length is evaluated once the element's font,
 * the root's font, the window and the width it is laid out in are known.
 */
#ifndef GLANCE_RENDER_CSSMATH_H
#define GLANCE_RENDER_CSSMATH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a length is measured against, in pixels. */
typedef struct css_math_ctx {
    double percent_of; /* what 100% is; below 0 when unknown (a height) */
    double em, rem;    /* the element's font size, the root's */
    double ch, ex;     /* the advance of "0" and the x-height of its font */
    double lh;         /* its line height */
    double vw, vh;     /* the window */
} css_math_ctx;

/* Whether litehtml 0.6 misreads the value `s` (NUL-terminated) of a
 * length property: it holds a math function or a unit litehtml does not
 * know. */
int css_math_needed(const char *s);

/* The value `s` of a length property in pixels: 1 and *px, or 0 when it is
 * no length this can evaluate (a keyword such as auto, a percentage with
 * no base, a syntax error, a division by zero). Nesting is bounded. */
int css_math_eval(const char *s, const css_math_ctx *c, double *px);

#ifdef __cplusplus
}
#endif

#endif
