/* extract/: what the pipeline takes out of the chosen node and the page
 * around it. For now the title; the fallback extractors and the clean-up
 * inside the chosen node come here too (DESIGN.md). */
#ifndef GLANCE_EXTRACT_H
#define GLANCE_EXTRACT_H

#include "dom/dom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The text of the first <title> (in document order), white space collapsed
 * and trimmed; "" when there is none. malloc'd; NULL only when out of memory. */
char *extract_title(const dom_doc *doc);

#ifdef __cplusplus
}
#endif

#endif
