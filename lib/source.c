/* lib/: where a page comes from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "lib/source.h"
#include "lib/status.h"

glance_status source_fetch_page(glance_result *res, const glance_options *o, const char *url,
                                net_session **ns, net_page *page)
{
    memset(page, 0, sizeof *page);
    if (!(res->url = strdup(url)) || !(*ns = net_session_new(&o->core.net)))
        return GLANCE_ENOMEM;
    char why[512];
    double t0 = base_now_ms();
    net_status ps = net_fetch_page(*ns, url, page, why, sizeof why);
    res->timings.fetch_ms += base_now_ms() - t0;
    res->http_status = page->http_status;
    res->redirects = page->redirects;
    res->final_url = page->url;
    res->content_type = page->content_type;
    page->url = page->content_type = NULL;
    if (ps == NET_OK)
        return GLANCE_OK;
    if (ps == NET_ETOOBIG)
        snprintf(why + strlen(why), sizeof why - strlen(why), " (max_input_bytes)");
    /* Say where it went wrong when a redirect took it elsewhere. */
    if (res->final_url && strcmp(res->final_url, url) != 0 && ps != NET_EOFFLINE) {
        size_t n = strlen(why);
        snprintf(why + n, sizeof why - n, " (at %s)", res->final_url);
    }
    result_set_message(res, why);
    return status_from_net(ps);
}

glance_status source_fetch_sheets(glance_result *res, const char *utf8, const glance_options *o,
                                  net_session *ns, const char *page_url)
{
    net_session *own = NULL;
    if (!ns && !(ns = own = net_session_new(&o->core.net)))
        return GLANCE_ENOMEM;
    double t0 = base_now_ms();
    net_status st = net_fetch_sheets(ns, utf8, strlen(utf8), page_url, &res->sheets);
    res->timings.fetch_ms += base_now_ms() - t0;
    net_session_free(own);
    if (st != NET_OK)
        return GLANCE_ENOMEM;
    for (int i = 0; i < res->sheets.n_sheets; i++) {
        net_sheet *sh = &res->sheets.sheets[i];
        if (!sh->css)
            continue;
        size_t n;
        char *u = input_css_to_utf8(sh->css, sh->len, sh->charset, res->charset.name, &n);
        if (!u)
            return GLANCE_ENOMEM;
        free(sh->css);
        sh->css = u;
        sh->len = n;
    }
    return GLANCE_OK;
}

/* render/ asks here for the stylesheets net/ fetched. */
int source_css_lookup(void *sheets, const char *ref, const char *from, const char **css,
                      size_t *len, const char **url)
{
    const net_sheet *s = net_sheets_find(sheets, ref, from);
    if (!s)
        return 0;
    *css = s->css;
    *len = s->len;
    *url = s->url;
    return 1;
}
