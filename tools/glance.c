/* tools/: the glance command. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glance.h"
#include "tools/cli.h"
#include "tools/shot.h"

static void usage_extract(FILE *f)
{
    fputs("usage: glance extract [options] FILE|URL|-\n"
          "\n"
          "Lays the page out at a window size and prints its main content,\n"
          "found by GCE (Grid, Centering, Expanding). An http or https URL is\n"
          "fetched with its stylesheets.\n"
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
          "  --no-flex-grid     lay flex and grid out as litehtml 0.6 alone does\n"
          "  --geometry FILE    boxes of a browser's layout of the page, keyed by XPath\n"
          "                     (tools/chromium-boxes.mjs), used instead of litehtml's;\n"
          "                     the window is theirs unless --window is given\n"
          "  --shot OUT.png     also paint the page with GCE's reasoning on it, as\n"
          "                     glance shot does (with its options:)\n",
          f);
    fputs(shot_cli_usage, f);
    fputs("network (a URL, and remote stylesheets of any page):\n"
          "  --offline          never touch the network: URLs refused, remote\n"
          "                     stylesheets skipped\n"
          "  --public-only      refuse loopback, private, link-local and multicast\n"
          "                     addresses, after DNS and on every redirect\n"
          "  --timeout S        the page and its stylesheets in all (default 30)\n"
          "  --connect-timeout S  one connection (default 10)\n"
          "  --max-page-bytes N  the page, decompressed (default 67108864)\n"
          "  --max-css-bytes N  one stylesheet (default 4194304)\n"
          "  --max-stylesheets N  (default 64)\n"
          "  --max-redirects N  (default 10)\n"
          "  -h, --help         this help\n"
          "  --version          the version\n"
          "\n"
          "exit status: 0 content printed, 1 no main content found, 2 usage error,\n"
          "3 bad input (unreadable, empty, binary, over a limit, not an http(s) URL),\n"
          "4 internal error, 5 the page could not be fetched (network, HTTP error,\n"
          "timeout, address refused, too many redirects).\n",
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

/* The network options of glance extract: ids from O_NET_FIRST up, kept
 * apart from the layout options. */
enum { O_NET_FIRST = 512, O_OFFLINE = O_NET_FIRST, O_PUBLIC_ONLY, O_TIMEOUT, O_CONNECT_TIMEOUT,
       O_MAX_PAGE, O_MAX_CSS, O_MAX_SHEETS, O_MAX_REDIRECTS };
#define NET_LONGOPTS                                                    \
    {"offline", no_argument, NULL, O_OFFLINE},                          \
    {"public-only", no_argument, NULL, O_PUBLIC_ONLY},                  \
    {"timeout", required_argument, NULL, O_TIMEOUT},                    \
    {"connect-timeout", required_argument, NULL, O_CONNECT_TIMEOUT},    \
    {"max-page-bytes", required_argument, NULL, O_MAX_PAGE},            \
    {"max-css-bytes", required_argument, NULL, O_MAX_CSS},              \
    {"max-stylesheets", required_argument, NULL, O_MAX_SHEETS},         \
    {"max-redirects", required_argument, NULL, O_MAX_REDIRECTS}

static const char *net_option_name(int c)
{
    static const char *const names[] = {"offline", "public-only", "timeout", "connect-timeout",
                                        "max-page-bytes", "max-css-bytes", "max-stylesheets",
                                        "max-redirects"};
    return names[c - O_NET_FIRST];
}

/* 0, or -1 for a bad value. */
static int net_option(int c, const char *arg, glance_options *o)
{
    double d = 0;
    if (arg && cli_parse_double(arg, &d) != 0)
        return -1;
    switch (c) {
    case O_OFFLINE: o->offline = 1; return 0;
    case O_PUBLIC_ONLY: o->public_only = 1; return 0;
    case O_TIMEOUT:
    case O_CONNECT_TIMEOUT:
        if (d <= 0 || d > 86400)
            return -1;
        *(c == O_TIMEOUT ? &o->timeout_ms : &o->connect_timeout_ms) = (long)(d * 1000 + 0.5);
        return 0;
    case O_MAX_PAGE:
    case O_MAX_CSS:
        if (d < 1 || d > 1e12 || d != floor(d))
            return -1;
        *(c == O_MAX_PAGE ? &o->max_input_bytes : &o->max_css_bytes) = (size_t)d;
        return 0;
    case O_MAX_SHEETS:
    case O_MAX_REDIRECTS:
        if (d < 0 || d > 1e6 || d != floor(d))
            return -1;
        *(c == O_MAX_SHEETS ? &o->max_stylesheets : &o->max_redirects) = (int)d;
        return 0;
    }
    return -1;
}

/* "scheme://...": a URL (glance_extract_url says which schemes it takes). */
static int looks_like_url(const char *s)
{
    size_t n = 0;
    if (!isalpha((unsigned char)s[0]))
        return 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '+' || s[n] == '-' || s[n] == '.')
        n++;
    return strncmp(s + n, "://", 3) == 0;
}

static void usage_shot(FILE *f)
{
    fputs("usage: glance shot [options] FILE|- -o OUT.png\n"
          "\n"
          "Lays the page out at a window size, runs the extraction, and paints the\n"
          "page as a PNG with what GCE saw and chose drawn on it: the grid with its\n"
          "excluded cells (edge: blue, dense link area: orange), the window and\n"
          "document centres, C1-C3 and the leaves E1-E3 nearest them, every\n"
          "candidate with its walk, rule and text-area density, and the answer\n"
          "outlined in bold magenta; a legend in the top right corner.\n"
          "\n"
          "options: those of glance extract (--window, --grid, --method, ...), and\n"
          "  -o, --shot OUT.png the PNG to write\n",
          f);
    fputs(shot_cli_usage, f);
    fputs("\nexit status: as glance extract's (the PNG is written with 0 and 1);\n"
          "4 when it cannot be written.\n",
          f);
}

/* glance extract, and glance shot (shot_mode: a PNG instead of the text). */
static int cmd_extract(int argc, char **argv, int shot_mode)
{
    enum { O_WINDOW = 256, O_GRID, O_ALPHA, O_BETA, O_DW, O_DIFF, O_FORMAT, O_BASE, O_DEPTH, O_METHOD,
           O_PLAIN, O_GEOMETRY, O_SHOT /* then the other SHOT_OPT_* in their order */ };
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
        {"no-flex-grid", no_argument, NULL, O_PLAIN},
        {"geometry", required_argument, NULL, O_GEOMETRY},
        {"shot", required_argument, NULL, O_SHOT + SHOT_OPT_SHOT},
        {"full", no_argument, NULL, O_SHOT + SHOT_OPT_FULL},
        {"fia", no_argument, NULL, O_SHOT + SHOT_OPT_FIA},
        {"no-overlay", no_argument, NULL, O_SHOT + SHOT_OPT_NO_OVERLAY},
        {"max-height", required_argument, NULL, O_SHOT + SHOT_OPT_MAX_HEIGHT},
        NET_LONGOPTS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    glance_options opt;
    glance_options_default(&opt);
    const char *format = "text", *geometry_path = NULL;
    int window_given = 0;
    shot_cli shot;
    shot_cli_init(&shot);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, shot_mode ? "ho:" : "h", longopts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case O_WINDOW:
            bad = cli_parse_pair(optarg, &opt.window_w, &opt.window_h);
            window_given = 1;
            break;
        case O_GRID: bad = cli_parse_pair(optarg, &opt.grid_rows, &opt.grid_cols); break;
        case O_ALPHA: bad = cli_parse_double(optarg, &opt.alpha); break;
        case O_BETA: bad = cli_parse_double(optarg, &opt.beta); break;
        case O_DW: bad = cli_parse_double(optarg, &opt.dw); break;
        case O_GEOMETRY: geometry_path = optarg; break;
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
        case O_PLAIN: opt.flex_grid = 0; break;
        case O_METHOD: bad = glance_method_from_name(optarg, &opt.method); break;
        case O_DEPTH: {
            double d;
            bad = cli_parse_double(optarg, &d) || d < 1 || d > 1e6 || d != floor(d);
            opt.max_depth = bad ? 0 : (int)d;
            break;
        }
        case 'o': shot.out = optarg; break;
        case 'h': (shot_mode ? usage_shot : usage_extract)(stdout); return EXIT_CONTENT;
        default:
            if (c >= O_NET_FIRST) {
                if (net_option(c, optarg, &opt) != 0) {
                    fprintf(stderr, "glance: bad value for --%s: '%s'\n", net_option_name(c), optarg);
                    return EXIT_USAGE;
                }
                continue;
            }
            if (c >= O_SHOT && c <= O_SHOT + SHOT_OPT_MAX_HEIGHT) {
                bad = shot_cli_option(&shot, c - O_SHOT, optarg);
                break;
            }
            (shot_mode ? usage_shot : usage_extract)(stderr);
            return EXIT_USAGE;
        }
        if (bad) {
            fprintf(stderr, "glance: bad value for --%s: '%s'\n", longopts[c - O_WINDOW].name, optarg);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "glance: %s takes one FILE or URL (or - for standard input)\n",
                shot_mode ? "shot" : "extract");
        (shot_mode ? usage_shot : usage_extract)(stderr);
        return EXIT_USAGE;
    }
    if (shot_mode && !shot.out) {
        fprintf(stderr, "glance: shot needs -o OUT.png\n");
        usage_shot(stderr);
        return EXIT_USAGE;
    }
    const char *path = argv[optind];

    glance_geometry *geo = NULL;
    if (geometry_path) {
        char why[600];
        glance_status gs = glance_geometry_read_file(geometry_path, &geo, why, sizeof why);
        if (gs != GLANCE_OK) {
            fprintf(stderr, "glance: --geometry %s\n", why);
            return cli_exit_for(gs);
        }
        if (!window_given)
            glance_geometry_window(geo, &opt.window_w, &opt.window_h);
        opt.geometry = geo;
    }
    glance_context *ctx = glance_context_new();
    if (!ctx) {
        fprintf(stderr, "glance: cannot set up fonts (is fontconfig configured and a font installed?)\n");
        glance_geometry_free(geo);
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
            glance_geometry_free(geo);
            return EXIT_BADINPUT;
        }
        st = glance_extract(ctx, buf, len, &opt, &res);
        free(buf);
    } else if (looks_like_url(path)) {
        st = glance_extract_url(ctx, path, &opt, &res);
    } else {
        st = glance_extract_file(ctx, path, &opt, &res);
    }
    /* A stylesheet that could not be fetched is no error, but the layout
     * may show it. */
    for (int i = 0; res && i < glance_result_stylesheet_count(res); i++) {
        const char *err, *url = glance_result_stylesheet(res, i, &err);
        if (err)
            fprintf(stderr, "glance: warning: stylesheet %s skipped: %s\n", url, err);
    }

    int json = strcmp(format, "json") == 0;
    if (shot_mode) {
        /* The PNG is the output; nothing on stdout. */
    } else if (json && res && (st == GLANCE_OK || st == GLANCE_ENOCONTENT)) {
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
    if (res && (st == GLANCE_OK || st == GLANCE_ENOCONTENT)) {
        int sc = shot_cli_write(&shot, res);
        if (sc)
            code = sc;
    }
    if (fflush(stdout) != 0 && code == EXIT_CONTENT) {
        fprintf(stderr, "glance: cannot write output: %s\n", strerror(errno));
        code = EXIT_INTERNAL;
    }
    glance_result_free(res);
    glance_context_free(ctx);
    shot_cli_done(&shot);
    glance_geometry_free(geo);
    return code;
}

static void usage(FILE *f)
{
    fputs("usage: glance COMMAND [options]\n"
          "\n"
          "commands:\n"
          "  extract FILE|URL|-  the main content of one page (glance extract --help)\n"
          "  shot FILE|URL|- -o OUT.png  the page painted, GCE's reasoning on it (glance shot --help)\n"
          "  bench            accuracy and speed over a corpus (glance bench --help)\n"
          "  sweep            window sizes and GCE parameters over a corpus (glance sweep --help)\n"
          "  serve            the reader-mode backend over HTTP (glance serve --help)\n",
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
        return cmd_extract(argc - 1, argv + 1, 0);
    if (strcmp(argv[1], "shot") == 0)
        return cmd_extract(argc - 1, argv + 1, 1);
    if (strcmp(argv[1], "bench") == 0)
        return cmd_bench(argc - 1, argv + 1);
    if (strcmp(argv[1], "sweep") == 0)
        return cmd_sweep(argc - 1, argv + 1);
    if (strcmp(argv[1], "serve") == 0)
        return cmd_serve(argc - 1, argv + 1);
    fprintf(stderr, "glance: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
