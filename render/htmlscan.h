/* render/: the pieces of a tag scan shared by the depth estimate (depth.c)
 * and the CSS filter (cssfilter.c). Internal to render/. */
#ifndef GLANCE_RENDER_HTMLSCAN_H
#define GLANCE_RENDER_HTMLSCAN_H

#include <stddef.h>

/* At p, just past a "<!": the end of the comment, doctype or CDATA there. */
const char *htmlscan_skip_decl(const char *p, const char *end);

/* The first "</name" (ASCII case-insensitive; `name` lower case) at or
 * after p; end when there is none. */
const char *htmlscan_find_end_tag(const char *p, const char *end, const char *name, size_t n);

#endif
