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
    char answered[16]; /* the extractor that must have answered (auto's choice) */
    char xpath[512];
    char contains[MAX_PHRASES][256];
    int n_contains;
    char excludes[MAX_PHRASES][256];
    int n_excludes;
} expectation;

static glance_context *ctx;

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    size_t k = strspn(s, " \t");
    if (k)
        memmove(s, s + k, n - k + 1);
}

static int load_expect(const char *path, expectation *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    strcpy(e->status, "ok");
    e->window_w = 1920;
    e->window_h = 1080;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        trim(line);
        if (!line[0] || line[0] == '#')
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        *colon = '\0';
        char *key = line, *val = colon + 1;
        trim(key);
        trim(val);
        if (strcmp(key, "status") == 0)
            snprintf(e->status, sizeof e->status, "%s", val);
        else if (strcmp(key, "window") == 0)
            sscanf(val, "%dx%d", &e->window_w, &e->window_h);
        else if (strcmp(key, "page") == 0)
            snprintf(e->page, sizeof e->page, "%s", val);
        else if (strcmp(key, "method") == 0)
            snprintf(e->method, sizeof e->method, "%s", val);
        else if (strcmp(key, "answered") == 0)
            snprintf(e->answered, sizeof e->answered, "%s", val);
        else if (strcmp(key, "rule") == 0)
            snprintf(e->rule, sizeof e->rule, "%s", val);
        else if (strcmp(key, "xpath") == 0)
            snprintf(e->xpath, sizeof e->xpath, "%s", val);
        else if (strcmp(key, "contains") == 0 && e->n_contains < MAX_PHRASES)
            snprintf(e->contains[e->n_contains++], 256, "%s", val);
        else if (strcmp(key, "excludes") == 0 && e->n_excludes < MAX_PHRASES)
            snprintf(e->excludes[e->n_excludes++], 256, "%s", val);
    }
    fclose(f);
    return 0;
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
        (e->method[0] && glance_options_set(opt, "method", e->method) != GLANCE_OK)) {
        char why[400];
        snprintf(why, sizeof why, "%s", glance_options_error(opt));
        glance_options_free(opt);
        fail_msg("%s: %s", e->name, why);
    }
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, path, opt, &res);
    glance_options_free(opt);
    assert_non_null(res);
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
    if (e->answered[0] && strcmp(glance_result_method(res), e->answered) != 0)
        fail_msg("%s: answered by %s, not %s", e->name, glance_result_method(res), e->answered);
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
    size_t cap = 64, n = 0;
    expectation *exps = calloc(cap, sizeof *exps);
    struct CMUnitTest *tests = calloc(cap, sizeof *tests);
    if (!exps || !tests)
        return 1;
    struct dirent *ent;
    while ((ent = readdir(d)) && n < cap) {
        size_t len = strlen(ent->d_name);
        if (len < 8 || strcmp(ent->d_name + len - 7, ".expect") != 0 || len - 7 >= sizeof exps[n].name)
            continue;
        expectation *e = &exps[n];
        memcpy(e->name, ent->d_name, len - 7);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, ent->d_name);
        if (load_expect(path, e) != 0)
            continue;
        tests[n].name = e->name;
        tests[n].test_func = check_fixture;
        tests[n].initial_state = e;
        n++;
    }
    closedir(d);
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
