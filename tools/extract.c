/* tools/: glance extract, the main content of one page. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "glance.h"
#include "tools/cli.h"
#include "tools/options.h"
#include "tools/shot.h"

static void usage_extract(FILE *f)
{
    fputs("usage: glance extract [options] FILE|URL|-\n"
          "\n"
          "Lays the page out at a window size and prints its main content. An http\n"
          "or https URL is fetched with its stylesheets.\n"
          "\n"
          "options:\n"
          "  --format F         text (the page title, an empty line, the text), markdown\n"
          "                     (the title as a heading, then the content), html (the\n"
          "                     content only) or json (the reasoning and the metadata too)\n"
          "                     (default text)\n"
          "  --metadata         text and markdown: a header of the page's metadata first\n"
          "                     (title, authors, byline, dates, description, language,\n"
          "                     canonical URL, site name, lead image; \"key: value\" lines,\n"
          "                     or YAML front matter for markdown) in place of the title\n"
          "  --geometry FILE    boxes of a browser's layout of the page, keyed by XPath\n"
          "                     (tools/chromium-boxes.mjs), used instead of litehtml's;\n"
          "                     the window is theirs unless --window is given\n"
          "  --shot OUT.png     also paint the page with GCE's reasoning on it, as\n"
          "                     glance shot does (with its options:)\n",
          f);
    fputs(shot_cli_usage, f);
    fputs("  -h, --help         this help\n"
          "\n"
          "the page (every option of the library is a flag: --KEY VALUE, --KEY=VALUE,\n"
          "--set KEY=VALUE; a switch is --KEY or --no-KEY):\n",
          f);
    cli_options_usage(f, "page");
    fputs("\nthe methods (each with its paper's values):\n", f);
    cli_options_usage(f, "methods");
    fputs("\nthe network (a URL, and remote stylesheets of any page):\n", f);
    cli_options_usage(f, "network");
    fputs("\nwhat a page may cost:\n", f);
    cli_options_usage(f, "limits");
    fputs(cli_exit_usage, f);
}

/* The title as a Markdown heading, what would read as markup escaped. */
static void print_heading(const char *t)
{
    fputs("# ", stdout);
    size_t n = strlen(t), end = n;
    while (end > 0 && t[end - 1] == '#')
        end--; /* a closing run of '#' would end the heading */
    for (size_t i = 0; i < n; i++) {
        if (strchr("\\`*_[]<>", t[i]) || (i == end && end < n))
            putchar('\\');
        putchar(t[i]);
    }
    fputs("\n\n", stdout);
}

/* One metadata line: "key: value" for text, a YAML line (the value as a
 * JSON string, which YAML reads) for Markdown's front matter. */
static void meta_line(const char *key, const char *value, int yaml)
{
    if (!value)
        return;
    if (!yaml) {
        printf("%s: %s\n", key, value);
        return;
    }
    json_object *s = json_object_new_string(value);
    printf("%s: %s\n", key, json_object_to_json_string_ext(s, JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(s);
}

/* The metadata header of --metadata: the fields the page gave, in the
 * order of the library's list, the authors after the title. */
static void print_metadata(glance_result *res, int yaml)
{
    if (yaml)
        printf("---\n");
    meta_line("title", glance_result_title(res), yaml);
    int n = glance_result_author_count(res);
    if (n && yaml) {
        printf("authors:\n");
        for (int i = 0; i < n; i++) {
            json_object *s = json_object_new_string(glance_result_author(res, i, NULL));
            printf("  - %s\n", json_object_to_json_string_ext(s, JSON_C_TO_STRING_NOSLASHESCAPE));
            json_object_put(s);
        }
    } else if (n) {
        printf("authors: ");
        for (int i = 0; i < n; i++)
            printf("%s%s", i ? "; " : "", glance_result_author(res, i, NULL));
        printf("\n");
    }
    for (int i = 0; glance_meta_field(i); i++) {
        const char *f = glance_meta_field(i);
        if (strcmp(f, "title") != 0)
            meta_line(f, glance_result_meta(res, f, NULL), yaml);
    }
    int minutes = glance_result_reading_minutes(res);
    if (minutes) {
        char m[16];
        snprintf(m, sizeof m, "%d", minutes);
        if (yaml)
            printf("reading_minutes: %s\n", m);
        else
            meta_line("reading_minutes", m, 0);
    }
    printf(yaml ? "---\n\n" : "\n");
}

int cmd_extract(int argc, char **argv)
{
    glance_options *opt = glance_options_new();
    if (!opt) {
        fprintf(stderr, "glance extract: out of memory\n");
        return EXIT_INTERNAL;
    }
    const char *format = "text", *geometry_path = NULL, *path = NULL;
    int window_given = 0, metadata = 0, code = EXIT_USAGE;
    shot_cli shot;
    shot_cli_init(&shot);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int taken = shot_cli_option(&shot, argc, argv, &i);
        if (taken < 0)
            goto done;
        if (taken)
            continue;
        if (cli_is_version(a)) {
            code = cli_version();
            goto done;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage_extract(stdout);
            code = EXIT_CONTENT;
            goto done;
        }
        if (strcmp(a, "--metadata") == 0) {
            metadata = 1;
            continue;
        }
        if (strncmp(a, "--format=", 9) == 0) {
            format = a + 9;
            continue;
        }
        if (strcmp(a, "--format") == 0 || strcmp(a, "--geometry") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "glance extract: %s needs a value\n", a);
                goto done;
            }
            *(a[2] == 'f' ? &format : &geometry_path) = argv[++i];
            continue;
        }
        if (strncmp(a, "--window", 8) == 0)
            window_given = 1;
        int r = cli_option("extract", opt, argc, argv, &i);
        if (r < 0)
            goto done;
        if (r > 0)
            continue;
        if (a[0] == '-' && a[1] != '\0') {
            cli_bad_flag("extract", a);
            goto done;
        }
        if (path) {
            fprintf(stderr, "glance extract: takes one FILE or URL (or - for standard input)\n");
            goto done;
        }
        path = a;
    }
    if (strcmp(format, "text") && strcmp(format, "html") && strcmp(format, "json") &&
        strcmp(format, "markdown") && strcmp(format, "md")) {
        fprintf(stderr, "glance extract: bad value for --format: '%s' (text, markdown, html or json)\n",
                format);
        goto done;
    }
    int markdown = !strcmp(format, "markdown") || !strcmp(format, "md");
    if (!path) {
        fprintf(stderr, "glance extract: takes one FILE or URL (or - for standard input)\n");
        goto done;
    }
    if (shot.out && strcmp(shot.out, "-") == 0) {
        fprintf(stderr, "glance extract: --shot - would mix the PNG with the output (glance shot -o - "
                        "writes it alone)\n");
        goto done;
    }
    glance_geometry *geo = NULL;
    if (geometry_path && (code = cli_load_geometry(geometry_path, opt, window_given, &geo)) != 0)
        goto done;

    glance_context *ctx = glance_context_new();
    if (!ctx) {
        fprintf(stderr, "glance: cannot set up fonts (is fontconfig configured and a font installed?)\n");
        glance_geometry_free(geo);
        code = EXIT_INTERNAL;
        goto done;
    }
    glance_result *res = NULL;
    glance_status st = cli_load_page(ctx, path, opt, &res);
    if (st == GLANCE_OK || st == GLANCE_ENOCONTENT) {
        if (strcmp(format, "json") == 0) {
            /* The reasoning is worth printing when nothing was found, too. */
            const char *j = glance_result_json(res);
            if (j)
                printf("%s\n", j);
        } else if (st == GLANCE_OK && strcmp(format, "html") == 0) {
            printf("%s\n", glance_result_html(res));
        } else if (st == GLANCE_OK && markdown) {
            const char *md = glance_result_markdown(res);
            if (!md) {
                fprintf(stderr, "glance: out of memory\n");
                st = GLANCE_ENOMEM;
            } else {
                const char *title = glance_result_title(res);
                if (metadata)
                    print_metadata(res, 1);
                else if (title[0])
                    print_heading(title);
                printf("%s\n", md);
            }
        } else if (st == GLANCE_OK && metadata) {
            print_metadata(res, 0);
            printf("%s\n", glance_result_text(res));
        } else if (st == GLANCE_OK) {
            /* A reader wants the headline: the title first, then the text
             * (which leaves the headline out when the title holds it). */
            const char *title = glance_result_title(res);
            if (title[0])
                printf("%s\n\n", title);
            printf("%s\n", glance_result_text(res));
        }
    }
    code = cli_exit_for(st);
    if (res && (st == GLANCE_OK || st == GLANCE_ENOCONTENT)) {
        int sc = shot_cli_write(&shot, ctx, res);
        if (sc)
            code = sc;
    }
    if (fflush(stdout) != 0 && code == EXIT_CONTENT) {
        fprintf(stderr, "glance: cannot write output: %s\n", strerror(errno));
        code = EXIT_INTERNAL;
    }
    glance_result_free(res);
    glance_context_free(ctx);
    glance_geometry_free(geo);
    shot_cli_done(&shot);
done:
    glance_options_free(opt);
    return code;
}
