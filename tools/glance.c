/* tools/: the glance command. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glance.h"
#include "tools/cli.h"

static void usage_extract(FILE *f)
{
    fputs("usage: glance extract [options] FILE|-\n"
          "\n"
          "Lays the page out at a window size and prints its main content,\n"
          "found by GCE (Grid, Centering, Expanding).\n"
          "\n"
          "options:\n"
          "  --method M         auto (GCE, then BTE when GCE finds nothing), gce, bte,\n"
          "                     nodechar, xpath, danag, or all (auto answers; the json\n"
          "                     holds every extractor's own answer) (default auto)\n"
          "  --window WxH       window size (default 1920x1080)\n"
          "  --grid RxC         grid rows x columns over the window (default 7x8)\n"
          "  --alpha A          first impression area scroll factor (default 2)\n"
          "  --beta B           link node area density threshold (default 0.5)\n"
          "  --dw D             width jump factor of the expansion (default 1.7)\n"
          "  --diff child|parent  node the width-jump rule takes (default child)\n"
          "  --format F         text (the page title, an empty line, the text), html\n"
          "                     (the content only) or json (default text)\n"
          "  --base DIR         folder for relative stylesheet links (default: the file's)\n"
          "  --max-depth N      refuse pages nested deeper (default 512)\n"
          "  -h, --help         this help\n"
          "  --version          the version\n"
          "\n"
          "exit status: 0 content printed, 1 no main content found, 2 usage error,\n"
          "3 bad input (unreadable, empty, binary, over a limit), 4 internal error.\n",
          f);
}

/* Reads standard input whole, up to `limit` bytes (one more tells us it
 * was over). */
static int read_stdin(size_t limit, char **buf, size_t *len)
{
    size_t cap = 65536, n = 0;
    char *b = malloc(cap);
    if (!b)
        return -1;
    for (;;) {
        if (n == cap) {
            if (cap > limit) {
                break;
            }
            size_t ncap = cap * 2;
            char *nb = realloc(b, ncap);
            if (!nb) {
                free(b);
                return -1;
            }
            b = nb;
            cap = ncap;
        }
        size_t got = fread(b + n, 1, cap - n, stdin);
        n += got;
        if (got == 0) {
            if (ferror(stdin)) {
                free(b);
                return -1;
            }
            break;
        }
    }
    *buf = b;
    *len = n;
    return 0;
}

static int cmd_extract(int argc, char **argv)
{
    enum { O_WINDOW = 256, O_GRID, O_ALPHA, O_BETA, O_DW, O_DIFF, O_FORMAT, O_BASE, O_DEPTH, O_METHOD };
    static const struct option longopts[] = {
        {"window", required_argument, NULL, O_WINDOW},
        {"grid", required_argument, NULL, O_GRID},
        {"alpha", required_argument, NULL, O_ALPHA},
        {"beta", required_argument, NULL, O_BETA},
        {"dw", required_argument, NULL, O_DW},
        {"diff", required_argument, NULL, O_DIFF},
        {"format", required_argument, NULL, O_FORMAT},
        {"base", required_argument, NULL, O_BASE},
        {"max-depth", required_argument, NULL, O_DEPTH},
        {"method", required_argument, NULL, O_METHOD},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    glance_options opt;
    glance_options_default(&opt);
    const char *format = "text";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case O_WINDOW: bad = cli_parse_pair(optarg, &opt.window_w, &opt.window_h); break;
        case O_GRID: bad = cli_parse_pair(optarg, &opt.grid_rows, &opt.grid_cols); break;
        case O_ALPHA: bad = cli_parse_double(optarg, &opt.alpha); break;
        case O_BETA: bad = cli_parse_double(optarg, &opt.beta); break;
        case O_DW: bad = cli_parse_double(optarg, &opt.dw); break;
        case O_DIFF:
            if (strcmp(optarg, "child") == 0)
                opt.diff_parent = 0;
            else if (strcmp(optarg, "parent") == 0)
                opt.diff_parent = 1;
            else
                bad = 1;
            break;
        case O_FORMAT:
            format = optarg;
            bad = strcmp(format, "text") && strcmp(format, "html") && strcmp(format, "json");
            break;
        case O_BASE: opt.base_dir = optarg; break;
        case O_METHOD: bad = glance_method_from_name(optarg, &opt.method); break;
        case O_DEPTH: {
            double d;
            bad = cli_parse_double(optarg, &d) || d < 1 || d > 1e6 || d != floor(d);
            opt.max_depth = bad ? 0 : (int)d;
            break;
        }
        case 'h': usage_extract(stdout); return EXIT_CONTENT;
        default: usage_extract(stderr); return EXIT_USAGE;
        }
        if (bad) {
            fprintf(stderr, "glance: bad value for --%s: '%s'\n", longopts[c - O_WINDOW].name, optarg);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "glance: extract takes one FILE (or - for standard input)\n");
        usage_extract(stderr);
        return EXIT_USAGE;
    }
    const char *path = argv[optind];

    glance_context *ctx = glance_context_new();
    if (!ctx) {
        fprintf(stderr, "glance: cannot set up fonts (is fontconfig configured and a font installed?)\n");
        return EXIT_INTERNAL;
    }
    glance_result *res = NULL;
    glance_status st;
    if (strcmp(path, "-") == 0) {
        char *buf = NULL;
        size_t len = 0;
        if (read_stdin(opt.max_input_bytes, &buf, &len) != 0) {
            fprintf(stderr, "glance: cannot read standard input\n");
            glance_context_free(ctx);
            return EXIT_BADINPUT;
        }
        st = glance_extract(ctx, buf, len, &opt, &res);
        free(buf);
    } else {
        st = glance_extract_file(ctx, path, &opt, &res);
    }

    int json = strcmp(format, "json") == 0;
    if (json && res && (st == GLANCE_OK || st == GLANCE_ENOCONTENT)) {
        /* The reasoning is worth printing when GCE failed, too. */
        const char *j = glance_result_json(res);
        if (j)
            printf("%s\n", j);
    } else if (st == GLANCE_OK) {
        if (strcmp(format, "html") == 0) {
            printf("%s\n", glance_result_html(res));
        } else {
            /* A reader wants the headline: the title first, then the text
             * (which leaves the headline out when the title holds it). */
            const char *title = glance_result_title(res);
            if (title[0])
                printf("%s\n\n", title);
            printf("%s\n", glance_result_text(res));
        }
    }
    if (st != GLANCE_OK)
        fprintf(stderr, "glance: %s%s%s\n", strcmp(path, "-") ? path : "stdin", ": ",
                glance_result_message(res, st));
    int code = cli_exit_for(st);
    if (fflush(stdout) != 0 && code == EXIT_CONTENT) {
        fprintf(stderr, "glance: cannot write output: %s\n", strerror(errno));
        code = EXIT_INTERNAL;
    }
    glance_result_free(res);
    glance_context_free(ctx);
    return code;
}

static void usage(FILE *f)
{
    fputs("usage: glance COMMAND [options]\n"
          "\n"
          "commands:\n"
          "  extract FILE|-   the main content of one page (glance extract --help)\n"
          "  bench            accuracy and speed over a corpus (glance bench --help)\n"
          "  sweep            window sizes and GCE parameters over a corpus (glance sweep --help)\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("glance %s\n", GLANCE_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "extract") == 0)
        return cmd_extract(argc - 1, argv + 1);
    if (strcmp(argv[1], "bench") == 0)
        return cmd_bench(argc - 1, argv + 1);
    if (strcmp(argv[1], "sweep") == 0)
        return cmd_sweep(argc - 1, argv + 1);
    fprintf(stderr, "glance: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
