/* tools/: the library's options as flags, documented from its table. */
#include "tools/options.h"
#include "tools/cli.h"

#include <stdlib.h>
#include <string.h>

int cli_option_find(const char *name, size_t n, glance_option_info *info)
{
    for (int i = 0; i < glance_option_count(); i++) {
        info->size = sizeof *info;
        if (glance_option_describe(i, info) != GLANCE_OK)
            break;
        const char *names[2] = {info->key, info->alias};
        for (int k = 0; k < 2; k++) {
            const char *s = names[k];
            if (!s || strlen(s) != n)
                continue;
            size_t j = 0;
            for (; j < n; j++) {
                char a = s[j] == '-' ? '_' : s[j], b = name[j] == '-' ? '_' : name[j];
                if (a != b)
                    break;
            }
            if (j == n)
                return i;
        }
    }
    return -1;
}

static int set(const char *cmd, glance_options *o, const char *key, const char *value)
{
    glance_status st = glance_options_set(o, key, value);
    if (st == GLANCE_OK)
        return 1;
    fprintf(stderr, "glance %s: %s\n", cmd,
            st == GLANCE_ENOMEM ? "out of memory" : glance_options_error(o));
    return -1;
}

int cli_option(const char *cmd, glance_options *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strncmp(a, "--", 2) != 0)
        return 0;
    a += 2;
    if (strcmp(a, "set") == 0 || strncmp(a, "set=", 4) == 0) {
        const char *kv = a[3] == '=' ? a + 4 : *i + 1 < argc ? argv[++*i] : NULL;
        const char *eq = kv ? strchr(kv, '=') : NULL;
        if (!eq) {
            fprintf(stderr, "glance %s: --set takes KEY=VALUE\n", cmd);
            return -1;
        }
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
        return set(cmd, o, key, eq + 1);
    }
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    glance_option_info info;
    int row = cli_option_find(a, n, &info);
    int negated = 0;
    if (row < 0 && n > 3 && strncmp(a, "no-", 3) == 0 && !eq) {
        row = cli_option_find(a + 3, n - 3, &info);
        negated = row >= 0 && strcmp(info.type, "on|off") == 0;
        if (!negated)
            row = -1;
    }
    if (row < 0)
        return 0;
    if (negated)
        return set(cmd, o, info.key, "off");
    if (eq)
        return set(cmd, o, info.key, eq + 1);
    if (strcmp(info.type, "on|off") == 0)
        return set(cmd, o, info.key, "on"); /* a switch takes no value of its own */
    if (*i + 1 >= argc) {
        fprintf(stderr, "glance %s: --%.*s needs a value\n", cmd, (int)n, a);
        return -1;
    }
    return set(cmd, o, info.key, argv[++*i]);
}

/* Which of the usage groups a row is in. */
static const char *group_of(const glance_option_info *info)
{
    if (strcmp(info->group, "page") != 0)
        return "methods"; /* a method's own, classic's and score's too */
    if (strcmp(info->key, "max_memory") == 0)
        return "limits"; /* the command's worker process */
    if (info->flags & GLANCE_OPTION_LIMIT)
        return strcmp(info->key, "timeout") == 0 || strcmp(info->key, "connect_timeout") == 0 ||
                       strcmp(info->key, "max_redirects") == 0
                   ? "network"
                   : "limits";
    if (strcmp(info->key, "offline") == 0 || strcmp(info->key, "public_only") == 0 ||
        strcmp(info->key, "allow_addrs") == 0 || strcmp(info->key, "user_agent") == 0 ||
        strcmp(info->key, "accept_language") == 0)
        return "network";
    return "page";
}

static int in_groups(const char *groups, const char *g)
{
    size_t n = strlen(g);
    for (const char *p = groups; (p = strstr(p, g)); p += n)
        if ((p == groups || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
    return 0;
}

void cli_options_usage(FILE *f, const char *groups)
{
    for (int i = 0; i < glance_option_count(); i++) {
        glance_option_info info;
        info.size = sizeof info;
        if (glance_option_describe(i, &info) != GLANCE_OK || !in_groups(groups, group_of(&info)))
            continue;
        char range[160], flag[96];
        glance_option_range(i, range, sizeof range);
        int sw = strcmp(info.type, "on|off") == 0;
        snprintf(flag, sizeof flag, "--%s%s%s", info.key, sw ? "" : " ",
                 sw ? "" : strcmp(info.type, "name") == 0 ? "NAME" : strcmp(info.type, "text") == 0 ? "TEXT"
                       : strcmp(info.type, "WxH") == 0 ? "WxH" : strcmp(info.type, "seconds") == 0 ? "S"
                                                                                                 : "N");
        fprintf(f, "  %-28s %s\n", flag, info.doc);
        fprintf(f, "  %-28s (%s%s%s; default %s)\n", info.alias ? "" : "", range,
                info.alias ? "; also --" : "", info.alias ? info.alias : "",
                info.def ? info.def : "not set");
    }
}

/* A table cell: a '|' inside it would end it. */
static void cell(const char *s)
{
    for (; s && *s; s++)
        fputs(*s == '|' ? "\\|" : (char[2]){*s, 0}, stdout);
}

/* glance options: the library's options as the manual's Markdown table,
 * so that docs/options.md is made from the same rows (tools/docs-options.sh;
 * tests/test_cli.c checks it is). */
int cmd_options(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        puts("usage: glance options\n\nPrints every option of the library (key, range, default,\n"
             "meaning) as a Markdown table: the table of docs/options.md.");
        return 0;
    }
    if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")))
        return cli_version();
    if (argc > 1) {
        if (argv[1][0] == '-')
            cli_bad_flag("options", argv[1]);
        else
            fprintf(stderr, "glance options: takes no arguments (glance options --help)\n");
        return 2;
    }
    puts("| key | values | default | meaning |\n| --- | --- | --- | --- |");
    for (int i = 0; i < glance_option_count(); i++) {
        glance_option_info info;
        info.size = sizeof info;
        if (glance_option_describe(i, &info) != GLANCE_OK)
            break;
        char range[200];
        glance_option_range(i, range, sizeof range);
        printf("| `%s`", info.key);
        if (info.alias) {
            fputs(" (`--", stdout);
            for (const char *a = info.alias; *a; a++)
                putchar(*a == '_' ? '-' : *a);
            fputs("`)", stdout);
        }
        fputs(" | ", stdout);
        cell(range);
        fputs(" | ", stdout);
        if (info.def) {
            fputs("`", stdout);
            cell(info.def);
            fputs("`", stdout);
        } else {
            fputs("not set", stdout);
        }
        fputs(" | ", stdout);
        cell(info.doc);
        printf("%s%s |\n", info.flags & GLANCE_OPTION_LOCAL ? " (not for a server's client)" : "",
               info.flags & GLANCE_OPTION_LIMIT ? " (a limit: a server's client may only lower it)" : "");
    }
    return 0;
}
