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
    long auto_gce_words, auto_bte_words;
    double params_auto_min_share;
    extract_cleaner *cleaner; /* the clean-up's tables for this page; NULL when off */
    double cleaner_share;
    extract_span bte;
    char *text, *html;
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
void result_set_message(glance_result *res, const char *msg);
/* Builds the JSON of a result (lib/json.c); malloc'd, NULL when out of memory. */
char *result_build_json(const glance_result *res);

#endif
