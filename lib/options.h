/* lib/: the options behind the opaque glance_options.
 *
 * Every option is a row of a parameter table (base/param.h): the page's
 * own (window, limits, network: core_table here) and
 * each method's (methods/: its descriptor's table, its block of
 * params_size bytes here). The defaults, the checks, glance_options_set and
 * _get, glance_option_describe (behind --help, the command's flags, serve's
 * query parameters and docs/options.md's table) read the same rows. */
#ifndef GLANCE_LIB_OPTIONS_H
#define GLANCE_LIB_OPTIONS_H

#include "glance.h"
#include "base/param.h"
#include "net/net.h"
#include "render/render.h"

/* Flags of a row, beyond base/'s (glance.h says the same). */
enum {
    OPT_LOCAL = GLANCE_OPTION_LOCAL, /* the operator's: files, network policy, identity */
    OPT_LIMIT = GLANCE_OPTION_LIMIT  /* a bound: a server's client may only lower it */
};

/* The page's options, the fields of core_table. */
typedef struct options_core {
    render_opts render;   /* window, base_dir and the layout limits (its css
                             fields are net's, copied per page) */
    net_opts net;         /* the network, and max_page_bytes for any input */
    int flex_grid;
    int cleanup;
    double cleanup_link_share;
    long time_budget_ms;
    /* The glance command's worker processes, and the library's calls with
     * `isolate` (lib/isolate.c), work on a page in a process of their own
     * under this address-space bound. */
    size_t max_memory;
    int isolate;          /* the library's calls work in a child process */
    /* The engine that lays the page out (lib/browse.h: BROWSE_*), and the
     * browser's own settings. */
    int engine;
    int scripts;          /* the browser runs the page's scripts */
    long quiet_ms;        /* after the load event, no request for this long */
    long virtual_ms;      /* the page's timers on a virtual clock, this much of it (0: off) */
    int max_requests;     /* requests one page may make in the browser */
    char *browser;        /* its executable; NULL: found on the PATH */
    int keep_snapshot;    /* the result keeps the browser's snapshot */
    int screenshot;       /* the browser takes the page's screenshot (for a shot) */
} options_core;

/* What answers: auto, all, or one method of the registry. */
typedef enum options_mode {
    OPTIONS_AUTO = 0,
    OPTIONS_ALL = 1,
    OPTIONS_ONE = 2
} options_mode;

struct glance_options {
    options_core core;
    options_mode mode;
    size_t method;                   /* with OPTIONS_ONE: the registry's index */
    void **params;                   /* one block per method of the registry */
    const glance_geometry *geometry; /* borrowed */
    char error[320];                 /* why the last set was refused */
};

/* The block of parameters of the registry's method i. */
static inline const void *options_method_params(const glance_options *o, size_t i)
{
    return o->params[i];
}

/* The options make sense together (what one row's range cannot say: the
 * geometry's window is the layout's); 1, or 0 with the reason in `why`. */
int options_valid(const glance_options *o, char *why, size_t cap);

#endif
