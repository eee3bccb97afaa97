/* tools/: what the commands of glance share. */
#ifndef GLANCE_TOOLS_CLI_H
#define GLANCE_TOOLS_CLI_H

#include "glance.h"

/* Exit statuses, documented in --help and README.md. */
enum {
    EXIT_CONTENT = 0,
    EXIT_NOCONTENT = 1,
    EXIT_USAGE = 2,
    EXIT_BADINPUT = 3,
    EXIT_INTERNAL = 4,
    EXIT_FETCH = 5 /* a URL could not be fetched */
};

/* A finite number; 0, or -1 when `s` is not one. */
int cli_parse_double(const char *s, double *out);
/* "WxH" of two positive integers up to 100000; 0 or -1. */
int cli_parse_pair(const char *s, int *a, int *b);
/* A comma-separated list, each item strdup'd; 0, or -1 (empty or no memory). */
int cli_parse_list(const char *s, char ***items, int *n);
void cli_free_list(char **items, int n);
/* The exit status for a glance status. */
int cli_exit_for(glance_status st);

/* The commands. */
int cmd_bench(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_serve(int argc, char **argv); /* tools/serve.c */

#endif
