/* lib/: the result, its run records and its accessors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdint.h>

#include "base/script.h"
#include "base/utf8.h"

#include "lib/json.h"
#include "lib/result.h"

glance_result *result_new(void)
{
    glance_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->records = calloc(methods_count ? methods_count : 1, sizeof *r->records);
    if (!r->records) {
        free(r);
        return NULL;
    }
    r->status = GLANCE_OK;
    snprintf(r->charset.name, sizeof r->charset.name, "UTF-8");
    r->charset.from = "utf-8";
    return r;
}

void result_set_message(glance_result *res, const char *msg)
{
    free(res->message);
    res->message = msg ? strdup(msg) : NULL;
}

result_record *result_record_of(glance_result *res, const method_desc *d)
{
    for (size_t i = 0; i < methods_count; i++)
        if (methods_all[i] == d)
            return &res->records[i];
    return NULL;
}

const result_record *result_record_get(const glance_result *res, const method_desc *d)
{
    return result_record_of((glance_result *)res, d);
}

const method_gce_state *result_gce(const glance_result *res)
{
    const result_record *r = res ? result_record_get(res, &method_gce) : NULL;
    return r && r->ran ? r->state : NULL;
}

void result_forget_run(glance_result *res)
{
    for (size_t i = 0; i < methods_count; i++) {
        result_record *r = &res->records[i];
        if (r->state && methods_all[i]->state_free)
            methods_all[i]->state_free(r->state);
        free(r->state);
        method_answer_free(&r->ans);
        memset(r, 0, sizeof *r);
    }
    free(res->text);
    free(res->html);
    free(res->markdown);
    free(res->json);
    free(res->message);
    res->text = res->html = res->markdown = res->json = res->message = NULL;
    res->answered = NULL;
    res->chosen = NULL;
    res->xpath = NULL;
    res->span = NULL;
    res->picked = NULL;
    res->n_picked = 0;
    res->rule = NULL;
    res->all_ran = 0;
}

void result_forget_page(glance_result *res)
{
    result_forget_run(res);
    extract_cleaner_free(res->page.cleaner);
    memset(&res->page, 0, sizeof res->page);
    render_doc_free(res->rdoc);
    if (res->own_dom)
        dom_doc_free(res->dom);
    res->rdoc = NULL;
    res->dom = NULL;
    res->own_dom = 0;
    free(res->png);
    res->png = NULL;
    free(res->snapshot);
    res->snapshot = NULL;
    res->snapshot_len = 0;
    res->png_len = 0;
    free(res->title);
    res->title = NULL;
    meta_scripts_free(&res->jsonld);
    meta_info_free(&res->meta);
    res->meta_read = 0;
    free(res->base_url);
    res->base_url = NULL;
    memset(&res->rstats, 0, sizeof res->rstats);
    memset(&res->geometry, 0, sizeof res->geometry);
}

void glance_result_free(glance_result *res)
{
    if (!res)
        return;
    result_forget_run(res);
    free(res->records);
    extract_cleaner_free(res->page.cleaner);
    render_doc_free(res->rdoc);
    if (res->own_dom)
        dom_doc_free(res->dom);
    free(res->png);
    free(res->snapshot);
    free(res->title);
    free(res->url);
    free(res->final_url);
    free(res->content_type);
    net_sheets_free(&res->sheets);
    meta_scripts_free(&res->jsonld);
    meta_info_free(&res->meta);
    free(res->base_url);
    free(res->wire);
    free(res);
}

const char *glance_result_snapshot(const glance_result *res, size_t *len)
{
    if (len)
        *len = res && res->snapshot ? res->snapshot_len : 0;
    return res ? res->snapshot : NULL;
}

const char *glance_result_engine(const glance_result *res)
{
    return res ? res->engine : NULL;
}

glance_status glance_result_status(const glance_result *res)
{
    return res ? res->status : GLANCE_ENOMEM;
}

const char *glance_result_text(const glance_result *res)
{
    return res && res->status == GLANCE_OK ? res->text : NULL;
}

const char *glance_result_html(const glance_result *res)
{
    return res && res->status == GLANCE_OK ? res->html : NULL;
}

const char *glance_result_title(const glance_result *res)
{
    if (res && res->meta_read && res->meta.f[META_TITLE].value)
        return res->meta.f[META_TITLE].value;
    return res && res->title ? res->title : "";
}

const char *glance_result_markdown(glance_result *res)
{
    if (!res || res->status != GLANCE_OK || !res->html)
        return NULL;
    if (!res->markdown)
        res->markdown = dom_html_to_markdown(res->html, strlen(res->html), NULL);
    return res->markdown;
}

const char *glance_meta_field(int i)
{
    return i >= 0 && i < META_N ? meta_field_name((meta_field)i) : NULL;
}

const char *glance_result_meta(const glance_result *res, const char *field, const char **from)
{
    if (from)
        *from = NULL;
    if (!res || !res->meta_read || !field)
        return NULL;
    for (int i = 0; i < META_N; i++)
        if (!strcmp(field, meta_field_name((meta_field)i))) {
            if (from)
                *from = res->meta.f[i].from;
            return res->meta.f[i].value;
        }
    return NULL;
}

int glance_result_author_count(const glance_result *res)
{
    return res && res->meta_read ? (int)res->meta.n_authors : 0;
}

const char *glance_result_author(const glance_result *res, int i, const char **from)
{
    if (from)
        *from = NULL;
    if (!res || !res->meta_read || i < 0 || (size_t)i >= res->meta.n_authors)
        return NULL;
    if (from)
        *from = res->meta.authors_from;
    return res->meta.authors[i];
}

/* Reading speeds: 238 words a minute, the mean of silent reading of
 * non-fiction in Brysbaert's meta-analysis (J. Memory and Language 109,
 * 2019), for scripts written with spaces; 300 characters a minute for
 * the scripts written without (Han, kana, Thai ...: the IReST texts read
 * at 255 in Chinese and 357 in Japanese, Trauzettel-Klosinski et al.,
 * IOVS 53, 2012). */
int glance_result_reading_minutes(const glance_result *res)
{
    const char *t = glance_result_text(res);
    if (!t || !*t)
        return 0;
    double words = 0, chars = 0;
    int in_word = 0;
    for (const char *p = t, *end = t + strlen(t); p < end;) {
        uint32_t cp = base_utf8_next(&p, end);
        if (cp == ' ' || cp == '\n' || cp == '\t' || cp == 0xA0) {
            in_word = 0;
        } else if (base_script_unspaced(cp)) {
            chars++;
            in_word = 0;
        } else if (!in_word) {
            words++;
            in_word = 1;
        }
    }
    int m = (int)ceil(words / 238.0 + chars / 300.0);
    return m < 1 ? 1 : m;
}

const char *glance_result_xpath(const glance_result *res)
{
    return res && res->status == GLANCE_OK ? res->xpath : NULL;
}

const char *glance_result_tag(const glance_result *res)
{
    if (!res || res->status != GLANCE_OK)
        return NULL;
    return res->chosen ? res->chosen->tag : res->tag;
}

glance_box glance_result_box(const glance_result *res)
{
    glance_box b = {0, 0, 0, 0};
    if (res && res->status == GLANCE_OK && res->chosen) {
        dom_box d = res->chosen->box;
        b = (glance_box){d.x, d.y, d.w, d.h};
    } else if (res && res->status == GLANCE_OK) {
        b = res->box; /* made in a child process; zero when none was chosen */
    }
    return b;
}

const char *glance_result_failure(const glance_result *res)
{
    if (!res || res->status == GLANCE_OK)
        return NULL;
    return res->message ? res->message : glance_strerror(res->status);
}

const char *glance_result_message(const glance_result *res, glance_status status)
{
    if (res && res->message && res->status == status)
        return res->message;
    return glance_strerror(status);
}

glance_timings glance_result_timings(const glance_result *res)
{
    glance_timings t;
    memset(&t, 0, sizeof t);
    return res ? res->timings : t;
}

const char *glance_result_json(glance_result *res)
{
    if (!res)
        return NULL;
    if (!res->json)
        res->json = json_build(res);
    return res->json;
}

const char *glance_result_method(const glance_result *res)
{
    return res && res->status == GLANCE_OK && res->answered ? res->answered->name : NULL;
}

const char *glance_result_url(const glance_result *res)
{
    return res ? res->final_url : NULL;
}

const char *glance_result_charset(const glance_result *res, const char **from)
{
    if (from)
        *from = res ? res->charset.from : NULL;
    return res ? res->charset.name : NULL;
}

const char *glance_result_missing_script(const glance_result *res, int i)
{
    if (!res || i < 0 || (size_t)i >= res->rstats.n_missing_scripts ||
        i >= RENDER_MISSING_SCRIPTS)
        return NULL;
    return res->rstats.missing_scripts[i];
}

int glance_result_stylesheet_count(const glance_result *res)
{
    return res ? res->sheets.n_sheets : 0;
}

const char *glance_result_stylesheet(const glance_result *res, int i, const char **error)
{
    if (error)
        *error = NULL;
    if (!res || i < 0 || i >= res->sheets.n_sheets)
        return NULL;
    if (error)
        *error = res->sheets.sheets[i].error;
    return res->sheets.sheets[i].url;
}
