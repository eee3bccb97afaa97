/* examples/extract.c: the main content of a saved page with libglance.
 *
 *   cc examples/extract.c $(pkg-config --cflags --libs glance) -o extract    # installed glance
 *   cc examples/extract.c -Iinclude build/lib/libglance.so.0.2 -o extract     # the build, beside
 *   ./extract fixtures/news.html
 *
 * Prints the title, an empty line and the text; exit 1 when the page has no
 * main content, with the library's reason on stderr. */
#include <stdio.h>

#include <glance.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: extract PAGE.html\n");
        return 2;
    }
    glance_context *ctx = glance_context_new(); /* one per thread: fonts, caches */
    glance_options *opt = glance_options_new(); /* every option at its default */
    if (!ctx || !opt || glance_options_set(opt, "offline", "on") != GLANCE_OK) {
        fprintf(stderr, "extract: cannot set up glance (fonts?)\n");
        return 4;
    }
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, argv[1], opt, &res);
    if (st == GLANCE_OK)
        printf("%s\n\n%s\n", glance_result_title(res), glance_result_text(res));
    else
        fprintf(stderr, "extract: %s\n", glance_result_message(res, st));
    glance_result_free(res);
    glance_options_free(opt);
    glance_context_free(ctx);
    return st == GLANCE_OK ? 0 : 1;
}
