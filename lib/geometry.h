/* lib/: another engine's boxes on glance's tree (lib/geometry.c). */
#ifndef GLANCE_LIB_GEOMETRY_H
#define GLANCE_LIB_GEOMETRY_H

#include "dom/dom.h"
#include "glance.h"

/* Gives every node of `doc` its box from `geo` (see glance.h), and the
 * document the geometry's size. 0, or -1 when out of memory. */
int geometry_apply(dom_doc *doc, const glance_geometry *geo, glance_geometry_stats *stats);

#endif
