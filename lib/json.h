/* lib/: a result as JSON (json-c). */
#ifndef GLANCE_LIB_JSON_H
#define GLANCE_LIB_JSON_H

#include "lib/result.h"

/* malloc'd; NULL when out of memory. */
char *json_build(const glance_result *res);

#endif
