/* lib/: the result behind the opaque glance_result, shared by the files of
 * lib/ only. */
#ifndef GLANCE_LIB_RESULT_H
#define GLANCE_LIB_RESULT_H

#include "glance.h"
#include "gce/gce.h"
#include "render/render.h"
#include "extract/extract.h"
#include "lib/input.h"
#include "net/net.h"

struct glance_result {
    glance_status status;
    char *message;         /* one line; NULL: glance_strerror(status) */
    render_doc *rdoc;      /* owns the dom tree */
    dom_doc *dom;          /* borrowed from rdoc */
    render_stats rstats;
    double t_begin, deadline; /* layout began; time_budget_ms runs out (0: never) */
    glance_geometry_stats geometry; /* another engine's boxes on the tree (geometry.c) */
    int window_w, window_h;
    gce_params params;
    gce_result gce;
    int gce_ran;
    char *title;
    const char *xpath;     /* in the dom's arena */
    const dom_node *chosen; /* the element answered (GCE's node, or what holds BTE's span) */
    glance_method method;   /* what answered, when status is GLANCE_OK */
    int bte_ran;
    int auto_checked, auto_overruled; /* auto: GCE's answer weighed against BTE's */
    const char *auto_why;             /* why it was overruled (static text) */
    long auto_gce_words, auto_bte_words;
    double params_auto_min_share;
    int auto_trim_ran, auto_trimmed; /* auto: GCE's node trimmed to its dense stretches */
    long auto_trim_words;            /* words of the trimmed text */
    double params_stretch_share, params_trim_min_share;
    extract_cleaner *cleaner; /* the clean-up's tables for this page; NULL when off */
    double cleaner_share;
    extract_span bte;
    char *text, *html;
    /* The other extractors (lib/methods.c): their spans and what they saw. */
    extract_span nodechar, xpath_blocks, danag;
    extract_nodechar_info nodechar_info;
    extract_xpath_info xpath_info;
    extract_danag_info danag_info;
    int nodechar_ran, xpath_ran, danag_ran;
    /* --method all: every extractor's own answer, by glance_method. */
    int all_ran;
    struct result_answer {
        int ran;
        glance_status status;
        char *text;          /* malloc'd; NULL when it found nothing */
        const char *xpath;   /* the node answered or holding the span (arena) */
        const char *first, *last; /* the span's ends (arena); NULL for GCE */
        long words;          /* extract_count_words of the text */
        char *failure;       /* malloc'd; why not, NULL when it answered */
    } answers[GLANCE_METHOD_ALL];
    char *json;            /* built on first request */
    glance_timings timings;
    /* Where the page came from (net/) */
    char *url;             /* as asked for; NULL: not fetched */
    char *final_url;       /* after redirects */
    char *content_type;
    long http_status;
    int redirects;
    double fetch_ms;       /* the page and its stylesheets */
    input_charset charset;
    net_sheets sheets;     /* remote stylesheets; their texts freed after layout */
};

glance_result *result_new(void);
/* The clean-up's keep function for this page (lib/glance.c); NULL in *out
 * when the clean-up is off; -1 when out of memory. */
int result_cleaner(glance_result *res, const glance_options *opts, extract_cleaner **out);
/* Clean HTML of a plain text: a paragraph per line, escaped (malloc'd). */
char *result_paragraphs_html(const char *text);

/* lib/methods.c: the extractors of papers 000, 003 and 004. */
void methods_options_default(glance_options *o);
int methods_options_valid(const glance_options *o, char *why, size_t cap);
/* Runs one of them (GLANCE_METHOD_NODECHAR, _XPATH, _DANAG) as the answer. */
glance_status methods_run(glance_result *res, const glance_options *opts, glance_method m);
/* auto: the answer in res made the article's running text when
 * opts->auto_trim asks: GCE's node trimmed to its dense stretches, BTE's
 * stretch without figure captions; the status (GLANCE_OK, or
 * GLANCE_ENOMEM). */
glance_status methods_trim(glance_result *res, const glance_options *opts);
/* Records the answer the result holds now as method m's (--method all). */
int methods_record(glance_result *res, glance_method m, glance_status st);
/* Forgets the spans of the last run (methods_free: and the answers too). */
void methods_forget(glance_result *res);
void methods_free(glance_result *res);
void result_set_message(glance_result *res, const char *msg);
/* Builds the JSON of a result (lib/json.c); malloc'd, NULL when out of memory. */
char *result_build_json(const glance_result *res);

#endif
