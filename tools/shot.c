/* tools/: glance shot, and extract's --shot. The painting itself is the
 * library's (glance_result_shot); this is the command line around it. */
#include "tools/shot.h"

#include <cairo.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools/cli.h"

const char shot_cli_usage[] =
    "  --full             the whole document (cut at --max-height)\n"
    "  --fia              the first impression area (the default)\n"
    "  --no-overlay       a plain screenshot: no grid, centres, candidates or legend\n"
    "  --max-height N     cut taller images at N px, with a note at the cut\n"
    "                     (default 16384, at most 32767)\n";

void shot_cli_init(shot_cli *s)
{
    s->out = NULL;
    glance_shot_options_default(&s->opts);
}

int shot_cli_option(shot_cli *s, int which, const char *arg)
{
    double d;
    switch (which) {
    case SHOT_OPT_SHOT: s->out = arg; return 0;
    case SHOT_OPT_FULL: s->opts.full = 1; return 0;
    case SHOT_OPT_FIA: s->opts.full = 0; return 0;
    case SHOT_OPT_NO_OVERLAY: s->opts.overlay = 0; return 0;
    case SHOT_OPT_MAX_HEIGHT:
        if (cli_parse_double(arg, &d) || d < 1 || d > 32767 || d != floor(d))
            return -1;
        s->opts.max_height = (int)d;
        return 0;
    }
    return -1;
}

int shot_cli_write(const shot_cli *s, glance_result *res)
{
    if (!s->out)
        return 0;
    errno = 0;
    glance_status st = glance_result_shot(res, &s->opts, s->out);
    if (st == GLANCE_OK)
        return 0;
    if (st == GLANCE_EIO)
        fprintf(stderr, "glance: cannot write %s: %s\n", s->out, strerror(errno));
    else if (st == GLANCE_EOPTION)
        fprintf(stderr, "glance: no shot of %s: the page was not laid out\n", s->out);
    else
        fprintf(stderr, "glance: no shot %s: %s\n", s->out, glance_strerror(st));
    return EXIT_INTERNAL;
}

void shot_cli_done(const shot_cli *s)
{
    if (!s->out)
        return;
    /* cairo keeps the faces it opened, and their fontconfig patterns, in
     * caches of its own; hand them back so that leak checkers see a clean
     * exit (as glance sweep does after its chart). */
    cairo_debug_reset_static_data();
    FcFini();
}
