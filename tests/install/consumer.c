/* tests/install: a program that uses libglance as a stranger would, from
 * the installed header and library only (run.sh builds it with pkg-config,
 * against the shared library and the static archive, and with CMake's
 * find_package). It extracts the page named on its command line, offline,
 * and prints the library's version, the status, the title and the text. */
#include <stdio.h>
#include <stdlib.h>

#include <glance.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer PAGE.html\n");
        return 2;
    }
    glance_context *ctx = glance_context_new();
    glance_options *opt = glance_options_new();
    if (!ctx || !opt) {
        fprintf(stderr, "consumer: no context (fonts?)\n");
        return 4;
    }
    if (glance_options_set(opt, "offline", "on") != GLANCE_OK) {
        fprintf(stderr, "consumer: %s\n", glance_options_error(opt));
        return 4;
    }
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, argv[1], opt, &res);
    printf("version %s (header %s)\n", glance_version(), GLANCE_VERSION);
    printf("status %s\n", glance_status_name(st));
    if (st == GLANCE_OK) {
        printf("title %s\n", glance_result_title(res));
        printf("%s\n", glance_result_text(res));
    } else {
        fprintf(stderr, "consumer: %s\n", glance_result_message(res, st));
    }
    glance_result_free(res);
    glance_options_free(opt);
    glance_context_free(ctx);
    return st == GLANCE_OK ? 0 : 1;
}
