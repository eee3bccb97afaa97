/* lib/: the result behind the opaque glance_result, shared by the files of
 * lib/ only: the laid-out page, one run record per method of the registry,
 * the answer, what auto did, and where the page came from. */
#ifndef GLANCE_LIB_RESULT_H
#define GLANCE_LIB_RESULT_H

#include "glance.h"
#include "lib/input.h"
#include "meta/meta.h"
#include "methods/method.h"
#include "net/net.h"
#include "render/render.h"
#include "lib/browse.h"

/* One method's run on the page. */
typedef struct result_record {
    int ran;
    int found;          /* 1: it answered (ans.text); 0: nothing (ans.why) */
    method_answer ans;
    void *state;        /* the method's own (state_size bytes, malloc'd) */
    double ms;
} result_record;

struct glance_result {
    glance_status status;
    char *message;         /* one line; NULL: glance_strerror(status) */
    const glance_context *ctx; /* the context that made it (the shot needs its fonts) */
    render_doc *rdoc;      /* owns the dom tree */
    dom_doc *dom;          /* borrowed from rdoc; or owned (own_dom) when a
                              browser or a snapshot gave the tree */
    int own_dom;
    const char *engine;    /* "litehtml", "chromium" or "snapshot": who laid it out */
    unsigned char *png;    /* the browser's own screenshot of the page (shot) */
    size_t png_len;
    browse_stats browse;   /* what the browser did (engine chromium) */
    char *snapshot;        /* the browser's snapshot, with keep_snapshot */
    size_t snapshot_len;
    render_stats rstats;
    double t_begin, deadline; /* layout began; time_budget runs out (0: never) */
    glance_geometry_stats geometry; /* another engine's boxes on the tree (geometry.c) */
    int window_w, window_h;
    char *title;
    method_page page;      /* what every method reads */
    const glance_options *running; /* the options of the extraction under way
                                      (page.answer_of runs methods with them) */
    double cleaner_share;  /* the link share page.cleaner was made with */
    result_record *records; /* one per method of the registry (methods_all) */
    /* The answer. */
    const method_desc *answered; /* the method whose answer it is; NULL: none */
    const dom_node *chosen;
    const char *xpath;     /* in the dom's arena */
    const extract_span *span; /* the span it came from; NULL for an element */
    const unsigned char *picked; /* or the text nodes it is made of (n_picked flags) */
    size_t n_picked;
    char *text, *html;
    char *markdown;        /* of html, built on first request */
    const char *rule;      /* the rule that chose the element, when one did */
    double density;
    int all_ran;           /* --method all ran every method */           /* --method all: every record is a method's own answer */
    char *json;            /* built on first request */
    glance_timings timings;
    /* Where the page came from (net/) */
    char *url;             /* as asked for; NULL: not fetched */
    char *final_url;       /* after redirects */
    char *content_type;
    long http_status;
    int redirects;
    input_charset charset;
    net_sheets sheets;     /* remote stylesheets; their texts freed after layout */
    /* What the page says about itself (meta/) */
    meta_scripts jsonld;   /* its JSON-LD texts, taken before layout; freed after reading */
    char *base_url;        /* what relative links resolve against; NULL: unknown */
    meta_info meta;
    int meta_read;         /* meta is filled */
    /* A result made in a child process (the option isolate, isolate.c):
     * no rdoc, dom or chosen node; what they gave stands here. */
    char *wire;            /* the child's message: the const strings point into it */
    const char *tag;       /* the chosen element's tag */
    glance_box box;        /* and its border box */
};

glance_result *result_new(void);
void result_set_message(glance_result *res, const char *msg);
/* The record of a method of the registry. */
result_record *result_record_of(glance_result *res, const method_desc *d);
const result_record *result_record_get(const glance_result *res, const method_desc *d);
/* GCE's state when it ran on the page; NULL otherwise. */
const method_gce_state *result_gce(const glance_result *res);
/* Forgets the page as laid out, with its run: what engine auto does before
 * it gives a page to the browser. Keeps where it came from. */
void result_forget_page(glance_result *res);

/* Forgets the last run (records, answer, what auto did, message, JSON);
 * keeps the layout, its timings and the title. */
void result_forget_run(glance_result *res);

#endif
