/* tools/: glance shot, and extract's --shot: the options they share. */
#ifndef GLANCE_TOOLS_SHOT_H
#define GLANCE_TOOLS_SHOT_H

#include "glance.h"

typedef struct shot_cli {
    const char *out; /* the PNG to write; NULL: no shot */
    glance_shot_options opts;
} shot_cli;

/* The shot options, in the order of their getopt codes from `first` on. */
enum { SHOT_OPT_SHOT, SHOT_OPT_FULL, SHOT_OPT_FIA, SHOT_OPT_NO_OVERLAY, SHOT_OPT_MAX_HEIGHT };

void shot_cli_init(shot_cli *s);
/* Takes one shot option (SHOT_OPT_*); 0, or -1 when its value is bad. */
int shot_cli_option(shot_cli *s, int which, const char *arg);
/* The usage lines of the shot options. */
extern const char shot_cli_usage[];
/* Writes the shot of `res` when one was asked for; 0, or an exit status
 * after a line on stderr. */
int shot_cli_write(const shot_cli *s, glance_result *res);
/* At exit, once the context is freed: cairo's static data handed back. */
void shot_cli_done(const shot_cli *s);

#endif
