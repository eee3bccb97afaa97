/* tools/: what the commands of glance share. */
#ifndef GLANCE_TOOLS_CLI_H
#define GLANCE_TOOLS_CLI_H

#include "glance.h"

/* Exit statuses, documented in --help and docs/extract.md. */
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

/* The exit statuses as --help states them. */
extern const char cli_exit_usage[];

/* --version and -V, for glance and each command: "glance 0.2.0" and the
 * fonts found; returns the exit status (0). */
int cli_version(void);

/* Is `a` --version or -V? */
int cli_is_version(const char *a);

/* "glance CMD: unknown option '-x' (glance CMD --help lists them)" */
void cli_bad_flag(const char *cmd, const char *flag);

/* Reads a browser's boxes for --geometry into *geo and sets them on the
 * options, with their window unless window_given; 0, or an exit status
 * after a line on stderr. */
int cli_load_geometry(const char *path, glance_options *o, int window_given, glance_geometry **geo);

/* Extracts `path`: "-" for standard input, a URL, or a file; standard input
 * or a file that is gzip data (.html.gz) is read through zlib, a file with
 * its own folder as the base of its local stylesheets (unless base_dir is
 * set). Prints nothing: when the status is not GLANCE_OK, `why` says why.
 * *res as glance_extract gives it (NULL when the input could not even be
 * read). */
glance_status cli_extract_input(glance_context *ctx, const char *path, const glance_options *o,
                                glance_result **res, char *why, size_t why_cap);

/* "scheme://...": a URL (glance_extract_url says which schemes it takes). */
int cli_looks_like_url(const char *s);

/* gzip data: its magic number. */
int cli_is_gzip(const void *buf, size_t len);
/* Decompresses gzip data in memory (members one after another too), at
 * most `limit` + 1 bytes (one more tells the library it was over): 0, or
 * -1 (broken data, out of memory). *out is malloc'd and NUL-terminated. */
int cli_gunzip(const void *in, size_t in_len, size_t limit, char **out, size_t *out_len);

/* A snapshot (glance_extract_snapshot's envelope) from a file, gzip or
 * not, or standard input ("-"); as cli_extract_input. */
glance_status cli_extract_snapshot(glance_context *ctx, const char *path, const glance_options *o,
                                   glance_result **res, char *why, size_t why_cap);

/* cli_load_page of a page (snapshot 0) or of a snapshot (1). */
glance_status cli_load(glance_context *ctx, const char *path, const glance_options *o,
                       glance_result **res, int snapshot);

/* cli_extract_input, then: warns on
 * stderr of each stylesheet skipped, and says on stderr why when the
 * status is not GLANCE_OK. *res as glance_extract gives it. */
glance_status cli_load_page(glance_context *ctx, const char *path, const glance_options *o,
                            glance_result **res);

/* The commands, one file each. */
/* An option of `o` that is a time, in ms (0: none, or unknown). */
double cli_option_ms(const glance_options *o, const char *key);
/* The option max_memory of `o`, in bytes (0: none). */
size_t cli_max_memory(const glance_options *o);
/* The longest a page may take in a worker process before the command kills
 * it: time_budget (which the library counts after the fetch) and, for a URL,
 * timeout (the fetch), and a second; 0: no bound (time_budget 0). */
double cli_page_limit_ms(const glance_options *o, int url);
/* Why a worker process gave no answer for a page, as a message: "page too
 * costly: over the budget of N ms (time_budget) ..." when it was killed at
 * its deadline (`killed`), else what its wait status says. */
void cli_worker_failed(char *buf, size_t cap, int killed, int status, const glance_options *o,
                       int url);

int cmd_extract(int argc, char **argv);
int cmd_shot(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_options(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_batch(int argc, char **argv);

#endif
