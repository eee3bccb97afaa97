/* fuzz/: libFuzzer over the whole path a page takes: bytes in, extracted
 * with every method (--method all runs auto and each extractor on its own),
 * the JSON built, a shot painted to memory. Any crash, sanitizer report or
 * leak is a bug; a status other than GLANCE_OK is not (most inputs are not
 * pages worth an answer). Offline: a fuzzed page never reaches the network. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "glance.h"

static glance_context *ctx;
static glance_options *opt; /* made once: the same for every input */

/* fontconfig's caches (its parsed configuration, the patterns behind
 * cairo's toy font faces of the overlay's labels) are process-wide and
 * kept through pointers LeakSanitizer cannot follow: not glance's leaks.
 * Found by the first run (a "leak" on the first shot with a new face). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n";
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    ctx = glance_context_new();
    opt = glance_options_new();
    if (!ctx || !opt)
        return -1;
    /* A smaller window keeps each run quick; the shot stays small too. */
    static const char *const set[][2] = {
        {"method", "all"}, {"offline", "on"}, {"window", "800x600"}};
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
        if (glance_options_set(opt, set[i][0], set[i][1]) != GLANCE_OK) {
            fprintf(stderr, "fuzz_extract: %s\n", glance_options_error(opt));
            abort();
        }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    glance_result *res = NULL;
    glance_extract(ctx, (const char *)data, size, opt, &res);
    if (res) {
        glance_result_json(res);
        glance_shot_options so;
        glance_shot_options_default(&so);
        so.full = 1;
        so.max_height = 2000;
        unsigned char *png = NULL;
        size_t len = 0;
        if (glance_result_shot_png(ctx, res, &so, &png, &len) == GLANCE_OK)
            free(png);
    }
    glance_result_free(res);
    return 0;
}
