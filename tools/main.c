/* tools/: the glance command: one verb per file (extract.c, shot.c,
 * bench.c, sweep.c, serve/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glance.h"
#include "tools/cli.h"

static void usage(FILE *f)
{
    fputs("usage: glance COMMAND [options]\n"
          "\n"
          "commands:\n"
          "  extract FILE|URL|-  the main content of one page, or of many (glance extract --help)\n"
          "  batch            records (JSON lines, WARC) in, a JSON line per record out (glance batch --help)\n"
          "  shot FILE|URL|- -o OUT.png  the page painted, GCE's reasoning on it (glance shot --help)\n"
          "  bench            accuracy and speed over a corpus (glance bench --help)\n"
          "  sweep            a method over window sizes and options, per page kind (glance sweep --help)\n"
          "  serve            the reader-mode backend over HTTP (glance serve --help)\n"
          "  options          every option of the library, as a Markdown table\n"
          "  dump             every page of a folder as its JSON, a line each\n"
          "\n"
          "  -V, --version    the version, and the fonts found\n",
          f);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } commands[] = {
        {"extract", cmd_extract}, {"shot", cmd_shot},   {"bench", cmd_bench},
        {"sweep", cmd_sweep},     {"serve", cmd_serve}, {"options", cmd_options},
        {"dump", cmd_dump},       {"batch", cmd_batch},
    };
    if (argc < 2) {
        fprintf(stderr, "glance: which command? (glance --help lists them)\n");
        return EXIT_USAGE;
    }
    if (cli_is_version(argv[1]))
        return cli_version();
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    if (argv[1][0] == '-')
        fprintf(stderr, "glance: unknown option '%s' (glance --help lists the commands)\n", argv[1]);
    else
        fprintf(stderr, "glance: unknown command '%s' (glance --help lists them)\n", argv[1]);
    return EXIT_USAGE;
}
