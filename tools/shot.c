/* tools/: glance shot, and extract's --shot. The painting itself is the
 * library's (glance_result_shot); this is the command line around it. */
#include "tools/shot.h"

#include <cairo.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/options.h"

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

int shot_cli_option(shot_cli *s, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strcmp(a, "--full") == 0)
        s->opts.full = 1;
    else if (strcmp(a, "--fia") == 0)
        s->opts.full = 0;
    else if (strcmp(a, "--no-overlay") == 0)
        s->opts.overlay = 0;
    else if (strcmp(a, "--shot") == 0 || strcmp(a, "--max-height") == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "glance: %s needs a value\n", a);
            return -1;
        }
        const char *v = argv[++*i];
        double d;
        if (a[2] == 's') {
            s->out = v;
        } else if (cli_parse_double(v, &d) || d < 1 || d > 32767 || d != floor(d)) {
            fprintf(stderr, "glance: bad value for --max-height: '%s' (1 to 32767)\n", v);
            return -1;
        } else {
            s->opts.max_height = (int)d;
        }
    } else {
        return 0;
    }
    return 1;
}

int shot_cli_write(const shot_cli *s, glance_context *ctx, glance_result *res)
{
    if (!s->out)
        return 0;
    errno = 0;
    glance_status st;
    if (strcmp(s->out, "-") == 0) {
        /* The PNG to standard output, for a pipe. */
        unsigned char *png = NULL;
        size_t len = 0;
        st = glance_result_shot_png(ctx, res, &s->opts, &png, &len);
        if (st == GLANCE_OK && (fwrite(png, 1, len, stdout) != len || fflush(stdout) != 0)) {
            fprintf(stderr, "glance: cannot write the PNG to standard output: %s\n", strerror(errno));
            free(png);
            return EXIT_INTERNAL;
        }
        free(png);
    } else {
        st = glance_result_shot(ctx, res, &s->opts, s->out);
    }
    if (st == GLANCE_OK)
        return 0;
    if (st == GLANCE_EIO)
        fprintf(stderr, "glance: cannot write %s: %s\n", s->out, strerror(errno));
    else if (st == GLANCE_EOPTION)
        fprintf(stderr, "glance: no shot of %s: the page was not laid out here (or in a child "
                "process, by --isolate)\n", s->out);
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

static void usage_shot(FILE *f)
{
    fputs("usage: glance shot [options] FILE|URL|- -o OUT.png\n"
          "\n"
          "Lays the page out at a window size, runs the extraction, and paints the\n"
          "page as a PNG with what GCE saw and chose drawn on it: the grid with its\n"
          "excluded cells (edge: blue, dense link area: orange), the window and\n"
          "document centres, C1-C3 and the leaves E1-E3 nearest them, every\n"
          "candidate with its walk, rule and text-area density, and the answer\n"
          "outlined in bold magenta; a legend in the top right corner.\n"
          "\n"
          "options:\n"
          "  -o, --shot OUT.png the PNG to write (- for standard output)\n",
          f);
    fputs(shot_cli_usage, f);
    fputs("  and every option of glance extract's library (glance extract --help):\n"
          "  --window WxH, --method NAME, --gce.alpha A, --set KEY=VALUE, ...\n"
          "\nexit status: as glance extract's (the PNG is written with 0 and 1);\n"
          "4 when it cannot be written.\n",
          f);
}

int cmd_shot(int argc, char **argv)
{
    glance_options *opt = glance_options_new();
    if (!opt) {
        fprintf(stderr, "glance shot: out of memory\n");
        return EXIT_INTERNAL;
    }
    shot_cli shot;
    shot_cli_init(&shot);
    const char *path = NULL;
    int code = EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_version(a)) {
            code = cli_version();
            goto done;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage_shot(stdout);
            code = EXIT_CONTENT;
            goto done;
        }
        if (strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "glance shot: -o needs a value\n");
                goto done;
            }
            shot.out = argv[++i];
            continue;
        }
        int r = shot_cli_option(&shot, argc, argv, &i);
        if (r == 0)
            r = cli_option("shot", opt, argc, argv, &i);
        if (r < 0)
            goto done;
        if (r > 0)
            continue;
        if (a[0] == '-' && a[1] != '\0') {
            cli_bad_flag("shot", a);
            goto done;
        }
        if (path) {
            fprintf(stderr, "glance shot: takes one FILE or URL (or - for standard input)\n");
            goto done;
        }
        path = a;
    }
    if (!path || !shot.out) {
        fprintf(stderr, "glance shot: %s\n", !path ? "takes one FILE or URL (or - for standard input)"
                                                    : "needs -o OUT.png");
        goto done;
    }
    glance_context *ctx = glance_context_new();
    if (!ctx) {
        fprintf(stderr, "glance: cannot set up fonts (is fontconfig configured and a font installed?)\n");
        code = EXIT_INTERNAL;
        goto done;
    }
    glance_result *res = NULL;
    /* With the browser, its own screenshot is what the shot draws on. */
    if (glance_options_set(opt, "screenshot", "on") != GLANCE_OK) {
        code = EXIT_INTERNAL;
        glance_context_free(ctx);
        goto done;
    }
    glance_status st = cli_load_page(ctx, path, opt, &res);
    code = cli_exit_for(st);
    if (res && (st == GLANCE_OK || st == GLANCE_ENOCONTENT)) {
        /* A page GCE found nothing on is worth seeing too. */
        int sc = shot_cli_write(&shot, ctx, res);
        if (sc)
            code = sc;
    }
    glance_result_free(res);
    glance_context_free(ctx);
    shot_cli_done(&shot);
done:
    glance_options_free(opt);
    return code;
}
