/* tools/: glance shot, and extract's --shot: the options they share. */
#ifndef GLANCE_TOOLS_SHOT_H
#define GLANCE_TOOLS_SHOT_H

#include "glance.h"

typedef struct shot_cli {
    const char *out; /* the PNG to write; NULL: no shot */
    glance_shot_options opts;
} shot_cli;

void shot_cli_init(shot_cli *s);
/* Tries argv[*i] as a shot option (--shot, --full, --fia, --no-overlay,
 * --max-height): 1 taken (*i at the last argument used), 0 not one, -1 a
 * bad value (said on stderr). */
int shot_cli_option(shot_cli *s, int argc, char **argv, int *i);
/* The usage lines of the shot options. */
extern const char shot_cli_usage[];
/* Writes the shot of `res` when one was asked for; 0, or an exit status
 * after a line on stderr. */
int shot_cli_write(const shot_cli *s, glance_context *ctx, glance_result *res);
/* At exit, once the context is freed: cairo's static data handed back. */
void shot_cli_done(const shot_cli *s);

#endif
