/* lib/: auto's parameters and what it did, for the options (options.c),
 * the JSON (json.c) and the policy itself (pipeline.c, where all of auto
 * lives). */
#ifndef GLANCE_LIB_AUTO_H
#define GLANCE_LIB_AUTO_H

#include <stddef.h>

#include "base/param.h"

typedef struct auto_params {
    double min_share;      /* GCE's answer stands with at least this share of
                              BTE's words; 0: never overruled */
    int trim;              /* keep of GCE's node its dense stretches */
    double stretch_share;  /* every stretch scoring this share of the best */
    double trim_min_share; /* unless that keeps under this share of its words */
} auto_params;

extern const base_param auto_param_table[];
extern const size_t auto_n_params;

/* What auto did on one page. */
typedef struct auto_info {
    int checked;          /* GCE's answer weighed against BTE's */
    int overruled;
    const char *why;      /* why it was overruled (static text) */
    long gce_words, bte_words;
    int trim_ran, trimmed; /* GCE's node trimmed to its dense stretches */
    long trim_words;       /* words of the trimmed text */
    auto_params params;    /* the parameters it ran with */
} auto_info;

#endif
