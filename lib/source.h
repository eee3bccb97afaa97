/* lib/: where a page comes from: the network for a URL (net/), and the
 * remote stylesheets of any page, made UTF-8 and handed to render/. */
#ifndef GLANCE_LIB_SOURCE_H
#define GLANCE_LIB_SOURCE_H

#include "lib/options.h"
#include "lib/result.h"

/* Fetches `url` into *page through a new session (*ns, for the page's
 * stylesheets after; the caller frees both) and records where it went in
 * res (URL after redirects, HTTP status, Content-Type). GLANCE_OK, or the
 * status of a failed fetch with res's message saying why. */
glance_status source_fetch_page(glance_result *res, const glance_options *o, const char *url,
                                net_session **ns, net_page *page);

/* Fetches the remote stylesheets of `utf8` into res->sheets (through `ns`,
 * or a session of its own when NULL) and makes their texts UTF-8 (their
 * Content-Type's charset, their @charset, the page's). */
glance_status source_fetch_sheets(glance_result *res, const char *utf8, const glance_options *o,
                                  net_session *ns, const char *page_url);

/* render_opts.css_lookup over res->sheets. */
int source_css_lookup(void *sheets, const char *ref, const char *from, const char **css,
                      size_t *len, const char **url);

#endif
