/* tools/: every option of the library as a flag of the commands, from the
 * library's own table (glance_option_describe): --KEY VALUE, --KEY=VALUE,
 * --set KEY=VALUE, and for a switch --KEY (on) or --no-KEY (off). '-' and
 * '_' are the same in a key; older flags are the keys' aliases (--alpha for
 * gce.alpha, --max-page-bytes for max_input_bytes). */
#ifndef GLANCE_TOOLS_OPTIONS_H
#define GLANCE_TOOLS_OPTIONS_H

#include <stdio.h>

#include "glance.h"

/* Tries argv[*i] as an option of the library. 1: taken (with its value:
 * *i then points at the last argument used); 0: not one of the library's;
 * -1: one of them, but the value is bad or missing (a line on stderr,
 * naming `cmd`). */
int cli_option(const char *cmd, glance_options *o, int argc, char **argv, int *i);

/* The row of option `name` (its first n bytes: a key or an alias, '-' and
 * '_' alike), described into *info; -1 when there is none. */
int cli_option_find(const char *name, size_t n, glance_option_info *info);

/* The options of the groups named (a space-separated list of "page",
 * "auto", "methods", "network", "limits"), one or two lines each, with
 * their defaults. */
void cli_options_usage(FILE *f, const char *groups);

#endif
