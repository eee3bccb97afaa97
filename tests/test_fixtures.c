/* Every page under fixtures/ that has a NAME.expect beside it is extracted
 * and checked against what the .expect says it must give: the status, the
 * chosen node's XPath and expansion rule, phrases the text must contain and
 * phrases it must not. An .expect may name another page (page: NAME), so that
 * one page is checked with several methods. One cmocka test per .expect. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "glance.h"
#include "opts.h"

#define MAX_PHRASES 32

typedef struct expectation {
    char name[128];
    char page[128];   /* the page: NAME.html; default the .expect's name */
    char status[32];
    int window_w, window_h;
    char rule[16];
    char method[16];
    char engine[16];  /* the option engine (default litehtml) */
    char scripts[8];  /* the option scripts (default on) */
    char answered[16]; /* the method whose answer it is: the classic policy's
                          choice (its JSON's "answered", gce or bte), else the
                          method that answered */
    char xpath[512];
    char contains[MAX_PHRASES][256];
    int n_contains;
    char excludes[MAX_PHRASES][256];
    int n_excludes;
    /* meta.FIELD: VALUE, the metadata the page must give: FIELD a name of
     * glance_meta_field, "authors" (the names, "; " between them) or
     * "from.FIELD" (where it came from); "(none)" for a field the page
     * must not have. */
    char meta_key[MAX_PHRASES][48];
    char meta_value[MAX_PHRASES][256];
    int n_meta;
} expectation;

/* Is `key` (after "meta.") one the metadata have? */
static int meta_key_known(const char *key)
{
    if (strncmp(key, "from.", 5) == 0)
        key += 5;
    if (strcmp(key, "authors") == 0)
        return 1;
    for (int i = 0; glance_meta_field(i); i++)
        if (strcmp(key, glance_meta_field(i)) == 0)
            return 1;
    return 0;
}

static glance_context *ctx;

/* CI installs chromium (tools/install-deps.sh): there a fixture of the
 * browser's never skips. */
static int ci_requires_browser(void)
{
    const char *ci = getenv("CI");
    return ci && strcmp(ci, "true") == 0;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    size_t k = strspn(s, " \t");
    if (k)
        memmove(s, s + k, n - k + 1);
}

/* Reads a .expect; 0, or -1 with the reason in `why`: an unknown key or a
 * line that is no "key: value" (a typo must not remove a check silently),
 * too many phrases, a value too long. */
static int load_expect(const char *path, expectation *e, char *why, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, cap, "%s: cannot open", path);
        return -1;
    }
    int lineno = 0, bad = 0;
    strcpy(e->status, "ok");
    e->window_w = 1920;
    e->window_h = 1080;
    char line[1024];
    while (!bad && fgets(line, sizeof line, f)) {
        lineno++;
        trim(line);
        if (!line[0] || line[0] == '#')
            continue;
        char *colon = strchr(line, ':');
        if (!colon) {
            snprintf(why, cap, "%s:%d: not \"key: value\"", path, lineno);
            bad = 1;
            break;
        }
        *colon = '\0';
        char *key = line, *val = colon + 1;
        trim(key);
        trim(val);
        /* Each key, where its value goes and how long it may be. */
        struct {
            const char *key;
            char *dst;
            size_t size;
        } slots[] = {
            {"status", e->status, sizeof e->status},   {"page", e->page, sizeof e->page},
            {"method", e->method, sizeof e->method},   {"answered", e->answered, sizeof e->answered},
            {"rule", e->rule, sizeof e->rule},         {"xpath", e->xpath, sizeof e->xpath},
            {"engine", e->engine, sizeof e->engine},   {"scripts", e->scripts, sizeof e->scripts},
        };
        size_t k = 0;
        while (k < sizeof slots / sizeof slots[0] && strcmp(key, slots[k].key) != 0)
            k++;
        char *dst = NULL;
        size_t size = 0;
        if (k < sizeof slots / sizeof slots[0]) {
            dst = slots[k].dst;
            size = slots[k].size;
        } else if (strcmp(key, "contains") == 0 || strcmp(key, "excludes") == 0) {
            int *n = key[0] == 'c' ? &e->n_contains : &e->n_excludes;
            if (*n >= MAX_PHRASES) {
                snprintf(why, cap, "%s:%d: more than %d %s phrases", path, lineno, MAX_PHRASES, key);
                bad = 1;
                break;
            }
            dst = key[0] == 'c' ? e->contains[(*n)++] : e->excludes[(*n)++];
            size = sizeof e->contains[0];
        } else if (strncmp(key, "meta.", 5) == 0) {
            if (!meta_key_known(key + 5) || strlen(key + 5) >= sizeof e->meta_key[0]) {
                snprintf(why, cap, "%s:%d: unknown metadata field '%s'", path, lineno, key + 5);
                bad = 1;
                break;
            }
            if (e->n_meta >= MAX_PHRASES) {
                snprintf(why, cap, "%s:%d: more than %d metadata fields", path, lineno, MAX_PHRASES);
                bad = 1;
                break;
            }
            snprintf(e->meta_key[e->n_meta], sizeof e->meta_key[0], "%s", key + 5);
            dst = e->meta_value[e->n_meta++];
            size = sizeof e->meta_value[0];
        } else if (strcmp(key, "window") == 0) {
            if (sscanf(val, "%dx%d", &e->window_w, &e->window_h) != 2) {
                snprintf(why, cap, "%s:%d: window '%s' is not WxH", path, lineno, val);
                bad = 1;
            }
            continue;
        } else {
            snprintf(why, cap, "%s:%d: unknown key '%s'", path, lineno, key);
            bad = 1;
            break;
        }
        if (strlen(val) >= size) {
            snprintf(why, cap, "%s:%d: the %s is too long", path, lineno, key);
            bad = 1;
            break;
        }
        snprintf(dst, size, "%s", val);
    }
    fclose(f);
    return bad ? -1 : 0;
}

/* The metadata the .expect names, each as the result gives it. */
static void check_meta(const expectation *e, glance_result *res)
{
    for (int i = 0; i < e->n_meta; i++) {
        const char *key = e->meta_key[i], *want = e->meta_value[i];
        int from = strncmp(key, "from.", 5) == 0;
        const char *field = from ? key + 5 : key;
        char got[1024] = "";
        const char *src = NULL, *v = NULL;
        if (strcmp(field, "authors") == 0) {
            int n = glance_result_author_count(res);
            for (int k = 0; k < n; k++)
                snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", k ? "; " : "",
                         glance_result_author(res, k, &src));
            v = n ? got : NULL;
        } else {
            v = glance_result_meta(res, field, &src);
        }
        const char *have = from ? src : v;
        if (!have)
            have = "(none)";
        if (strcmp(have, want) != 0)
            fail_msg("%s: metadata %s is \"%s\", expected \"%s\"", e->name, key, have, want);
    }
}

static void check_fixture(void **state)
{
    const expectation *e = *state;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.html", FIXTURES_DIR, e->page[0] ? e->page : e->name);
    char window[64];
    snprintf(window, sizeof window, "%dx%d", e->window_w, e->window_h);
    glance_options *opt = glance_options_new();
    assert_non_null(opt);
    if (glance_options_set(opt, "window", window) != GLANCE_OK ||
        (e->method[0] && glance_options_set(opt, "method", e->method) != GLANCE_OK) ||
        (e->engine[0] && glance_options_set(opt, "engine", e->engine) != GLANCE_OK) ||
        (e->scripts[0] && glance_options_set(opt, "scripts", e->scripts) != GLANCE_OK)) {
        char why[400];
        snprintf(why, sizeof why, "%s", glance_options_error(opt));
        glance_options_free(opt);
        fail_msg("%s: %s", e->name, why);
    }
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, path, opt, &res);
    glance_options_free(opt);
    assert_non_null(res);
    if (st == GLANCE_EBROWSER && strstr(glance_result_message(res, st), "no chromium") &&
        !ci_requires_browser()) {
        /* A user's machine without Debian's chromium; CI has it
         * (tools/install-deps.sh) and fails instead. */
        print_message("%s: skipped: %s\n", e->name, glance_result_message(res, st));
        glance_result_free(res);
        skip();
    }
    const char *json = glance_result_json(res);
    assert_non_null(json);

    if (strcmp(e->status, "nocontent") == 0) {
        if (st != GLANCE_ENOCONTENT)
            fail_msg("%s: expected no main content, got status %d, chosen %s", e->name, st,
                     glance_result_xpath(res) ? glance_result_xpath(res) : "(none)");
        assert_non_null(glance_result_failure(res));
        assert_null(glance_result_text(res));
        /* The reason, as the .expect words it (contains: phrases). */
        for (int i = 0; i < e->n_contains; i++)
            if (!strstr(glance_result_failure(res), e->contains[i]))
                fail_msg("%s: the reason \"%s\" lacks \"%s\"", e->name, glance_result_failure(res),
                         e->contains[i]);
        glance_result_free(res);
        return;
    }
    if (st != GLANCE_OK)
        fail_msg("%s: status %d: %s", e->name, st, glance_result_message(res, st));
    if (e->method[0] && strcmp(e->method, "auto") != 0 && strcmp(e->method, "all") != 0 &&
        strcmp(glance_result_method(res), e->method) != 0)
        fail_msg("%s: answered by %s, not %s", e->name, glance_result_method(res), e->method);
    if (e->answered[0]) {
        const char *by = glance_result_method(res);
        json_object *o = json_tokener_parse(json), *cl, *a;
        if (o && json_object_object_get_ex(o, "classic", &cl) &&
            json_object_object_get_ex(cl, "answered", &a) && strcmp(by, "classic") == 0)
            by = json_object_get_string(a);
        if (!by || strcmp(by, e->answered) != 0)
            fail_msg("%s: answered by %s, not %s", e->name, by ? by : "(none)", e->answered);
        json_object_put(o);
    }
    const char *text = glance_result_text(res);
    assert_non_null(text);
    if (e->xpath[0] && strcmp(e->xpath, glance_result_xpath(res)) != 0)
        fail_msg("%s: chose %s, expected %s", e->name, glance_result_xpath(res), e->xpath);
    if (e->rule[0]) {
        json_object *o = json_tokener_parse(json), *chosen, *rule;
        assert_non_null(o);
        assert_true(json_object_object_get_ex(o, "chosen", &chosen));
        assert_true(json_object_object_get_ex(chosen, "rule", &rule));
        if (strcmp(json_object_get_string(rule), e->rule) != 0)
            fail_msg("%s: chosen by rule %s, expected %s", e->name, json_object_get_string(rule), e->rule);
        json_object_put(o);
    }
    check_meta(e, res);
    for (int i = 0; i < e->n_contains; i++)
        if (!strstr(text, e->contains[i]))
            fail_msg("%s: text lacks \"%s\"", e->name, e->contains[i]);
    for (int i = 0; i < e->n_excludes; i++)
        if (strstr(text, e->excludes[i]))
            fail_msg("%s: text holds \"%s\", which is not main content", e->name, e->excludes[i]);
    glance_result_free(res);
}

int main(void)
{
    DIR *d = opendir(FIXTURES_DIR);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", FIXTURES_DIR);
        return 1;
    }
    /* Every .expect, however many: the arrays grow. */
    size_t cap = 0, n = 0;
    expectation *exps = NULL;
    struct CMUnitTest *tests = NULL;
    struct dirent *ent;
    int broken = 0;
    while ((ent = readdir(d))) {
        size_t len = strlen(ent->d_name);
        if (len < 8 || strcmp(ent->d_name + len - 7, ".expect") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            expectation *ne = realloc(exps, cap * sizeof *ne);
            if (!ne)
                return 1;
            exps = ne;
        }
        expectation *e = &exps[n];
        memset(e, 0, sizeof *e);
        if (len - 7 >= sizeof e->name) {
            fprintf(stderr, "%s: the name is too long\n", ent->d_name);
            broken = 1;
            continue;
        }
        memcpy(e->name, ent->d_name, len - 7);
        char path[1024], why[2400];
        snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, ent->d_name);
        if (load_expect(path, e, why, sizeof why) != 0) {
            fprintf(stderr, "%s\n", why);
            broken = 1;
            continue;
        }
        n++;
    }
    closedir(d);
    if (broken)
        return 1; /* a broken .expect fails the run, before any page */
    tests = calloc(n ? n : 1, sizeof *tests);
    if (!tests)
        return 1;
    for (size_t i = 0; i < n; i++) {
        tests[i].name = exps[i].name;
        tests[i].test_func = check_fixture;
        tests[i].initial_state = &exps[i];
    }
    if (n == 0) {
        fprintf(stderr, "no fixtures with .expect files in %s\n", FIXTURES_DIR);
        return 1;
    }
    ctx = glance_context_new();
    if (!ctx) {
        fprintf(stderr, "cannot set up a glance context\n");
        return 1;
    }
    int failed = _cmocka_run_group_tests("fixtures", tests, n, NULL, NULL);
    glance_context_free(ctx);
    free(tests);
    free(exps);
    return failed;
}
