/* tools/: glance dump, every page of a folder as its JSON, a line each:
 * what the offline tools read (tools/fit/: the scorer's features). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "glance.h"
#include "tools/cli.h"
#include "tools/corpus.h"
#include "tools/options.h"
#include "tools/pool.h"

static void usage_dump(FILE *f)
{
    fputs("usage: glance dump --pages DIR --out FILE.jsonl [options]\n"
          "\n"
          "Extracts every page of DIR and its subfolders (.html or .html.gz), offline\n"
          "and with each page's folder as its base for local stylesheets, and writes\n"
          "one line per page:\n"
          "{\"id\": ID, \"result\": the JSON of glance extract --format json}, in the\n"
          "order of the ids. Every option of glance extract applies (--method score\n"
          "--set score.features=on gives the scorer's blocks and features).\n"
          "\n"
          "options:\n"
          "  --jobs N         pages in parallel (default 1)\n",
          f);
}

typedef struct dump_run {
    const corpus_page *pages;
    const glance_options *opt;
    char **lines; /* one JSON line per page, NULL when it failed */
} dump_run;

static int dump_page(void *arg, glance_context *ctx, size_t i)
{
    dump_run *run = arg;
    const corpus_page *pg = &run->pages[i];
    char why[512], *html = NULL;
    size_t len = 0;
    json_object *line = json_object_new_object();
    json_object_object_add(line, "id", json_object_new_string(pg->id));
    if (corpus_read(pg, (size_t)64 << 20, &html, &len, why, sizeof why) != 0) {
        json_object_object_add(line, "error", json_object_new_string(why));
    } else {
        glance_options *o = glance_options_copy(run->opt);
        char *dir = corpus_page_dir(pg);
        glance_result *res = NULL;
        if (o && dir && glance_options_set(o, "base_dir", dir) == GLANCE_OK)
            glance_extract(ctx, html, len, o, &res);
        const char *j = res ? glance_result_json(res) : NULL;
        json_object *r = j ? json_tokener_parse(j) : NULL;
        json_object_object_add(line, r ? "result" : "error",
                               r ? r : json_object_new_string("out of memory"));
        glance_result_free(res);
        glance_options_free(o);
        free(dir);
    }
    free(html);
    const char *s = json_object_to_json_string_ext(line, JSON_C_TO_STRING_PLAIN);
    run->lines[i] = s ? strdup(s) : NULL;
    json_object_put(line);
    return 0;
}

int cmd_dump(int argc, char **argv)
{
    const char *pages_dir = NULL, *out_path = NULL;
    int jobs = 1, code = EXIT_USAGE;
    glance_options *opt = glance_options_new();
    if (!opt || glance_options_set(opt, "offline", "on") != GLANCE_OK) {
        glance_options_free(opt);
        return EXIT_INTERNAL;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--pages") || !strcmp(a, "--out") || !strcmp(a, "--jobs")) && i + 1 < argc) {
            const char *v = argv[++i];
            if (a[2] == 'p')
                pages_dir = v;
            else if (a[2] == 'o')
                out_path = v;
            else if ((jobs = atoi(v)) < 1 || jobs > 256) {
                fprintf(stderr, "glance dump: bad value '%s' for --jobs (1 to 256)\n", v);
                goto out;
            }
            continue;
        }
        if (cli_is_version(a)) {
            code = cli_version();
            goto out;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage_dump(stdout);
            code = 0;
            goto out;
        }
        int r = cli_option("dump", opt, argc, argv, &i);
        if (r < 0)
            goto out;
        if (r == 0) {
            cli_bad_flag("dump", a);
            goto out;
        }
    }
    if (!pages_dir || !out_path) {
        fprintf(stderr, "glance dump: give --pages DIR and --out FILE\n");
        goto out;
    }
    corpus_page *pages;
    size_t n;
    char why[512];
    if (corpus_list(pages_dir, &pages, &n, why, sizeof why) != 0) {
        fprintf(stderr, "glance dump: %s\n", why);
        code = EXIT_BADINPUT;
        goto out;
    }
    dump_run run = {pages, opt, calloc(n ? n : 1, sizeof(char *))};
    FILE *f = run.lines ? fopen(out_path, "w") : NULL;
    if (!f) {
        fprintf(stderr, "glance dump: cannot write %s\n", out_path);
        code = EXIT_INTERNAL;
    } else if (pool_run(n, jobs, "dump", dump_page, &run, NULL) != 0) {
        fprintf(stderr, "glance dump: could not start (fonts or memory)\n");
        code = EXIT_INTERNAL;
    } else {
        code = 0;
        for (size_t i = 0; i < n; i++)
            if (!run.lines[i] || fprintf(f, "%s\n", run.lines[i]) < 0)
                code = EXIT_INTERNAL;
    }
    if (f && fclose(f) != 0)
        code = EXIT_INTERNAL;
    for (size_t i = 0; run.lines && i < n; i++)
        free(run.lines[i]);
    free(run.lines);
    corpus_free(pages, n);
out:
    glance_options_free(opt);
    return code;
}
