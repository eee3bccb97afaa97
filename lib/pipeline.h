/* lib/: the pipeline of one page: bytes made UTF-8, stylesheets, layout,
 * the tree, then the extraction the options ask for: one method of the
 * registry, or one of the compositions over it (auto, all), all of whose
 * policy lives in pipeline.c. */
#ifndef GLANCE_LIB_PIPELINE_H
#define GLANCE_LIB_PIPELINE_H

#include "lib/context.h"
#include "lib/options.h"
#include "lib/result.h"

/* The page's bytes to the result: made UTF-8 (http_charset: its
 * Content-Type's), its remote stylesheets fetched (through `ns`, from
 * `page_url`; NULL: not from the network) unless offline, laid out, its
 * tree built, extracted. The status. */
glance_status pipeline_page(glance_context *ctx, glance_result *res, const char *html,
                            size_t len, const glance_options *o, net_session *ns,
                            const char *page_url, const char *http_charset);

/* The rest of the page's way once res->dom holds its tree (from litehtml,
 * a browser or a snapshot) and res->jsonld its JSON-LD: another engine's
 * boxes, the title, the base URL (from `page_url`), the extraction, the
 * metadata. The status. */
glance_status pipeline_tree(glance_result *res, const glance_options *o, const char *page_url);

/* The extraction on the laid-out page of `res` (what a rerun does): the
 * time budget starts at res->t_begin. The status, with res's answer or
 * message set. */
glance_status pipeline_extract(glance_result *res, const glance_options *o);

#endif
