/* lib/: the one vocabulary of statuses: glance_strerror's sentences and
 * glance_status_name's words (the JSON, the server and the batch output
 * all use these), one table. */
#include "lib/status.h"

static const struct {
    const char *name, *text;
} statuses[] = {
    [GLANCE_OK] = {"ok", "ok"},
    [GLANCE_ENOCONTENT] = {"nocontent", "no main content found"},
    [GLANCE_EINPUT] = {"badinput", "not an HTML page"},
    [GLANCE_ETOOBIG] = {"toobig", "input over a limit"},
    [GLANCE_EOPTION] = {"badoption", "invalid option"},
    [GLANCE_EIO] = {"io", "cannot read input"},
    [GLANCE_ENOMEM] = {"nomem", "out of memory"},
    [GLANCE_ELAYOUT] = {"layout", "layout failed"},
    [GLANCE_EFONTS] = {"fonts", "no usable font installed"},
    [GLANCE_EURL] = {"badurl", "not an http or https URL"},
    [GLANCE_EFETCH] = {"fetch", "could not fetch the page"},
    [GLANCE_ETIMEOUT] = {"timeout", "timed out fetching the page"},
    [GLANCE_EADDR] = {"addressrefused", "address refused: not a public address"},
    [GLANCE_EREDIRECTS] = {"redirects", "too many redirects"},
    [GLANCE_EOFFLINE] = {"offline", "offline: the network is not used"},
    [GLANCE_ECOSTLY] = {"costly", "page too costly: over the time budget"},
    [GLANCE_EBROWSER] = {"browser", "the browser could not load the page"},
};
#define N_STATUSES (sizeof statuses / sizeof statuses[0])

const char *glance_strerror(glance_status s)
{
    return (unsigned)s < N_STATUSES && statuses[s].text ? statuses[s].text : "unknown status";
}

const char *glance_status_name(glance_status s)
{
    return (unsigned)s < N_STATUSES && statuses[s].name ? statuses[s].name : "unknown";
}

glance_status status_from_render(render_status s)
{
    switch (s) {
    case RENDER_OK: return GLANCE_OK;
    case RENDER_ENOMEM: return GLANCE_ENOMEM;
    case RENDER_EFONTS: return GLANCE_EFONTS;
    case RENDER_EDEPTH:
    case RENDER_EELEMENTS:
    case RENDER_EWORDS:
    case RENDER_EHEIGHT:
    case RENDER_EATTRS:
    case RENDER_ECELLS:
    case RENDER_EGENERATED:
    case RENDER_EPSEUDO:
    case RENDER_EFLOATS:
    case RENDER_EPOSITIONED: return GLANCE_ETOOBIG;
    case RENDER_ETIME: return GLANCE_ECOSTLY;
    case RENDER_EPARSE: break;
    }
    return GLANCE_ELAYOUT;
}

glance_status status_from_net(net_status s)
{
    switch (s) {
    case NET_OK: return GLANCE_OK;
    case NET_ENOMEM: return GLANCE_ENOMEM;
    case NET_EURL: return GLANCE_EURL;
    case NET_EOFFLINE: return GLANCE_EOFFLINE;
    case NET_EADDR: return GLANCE_EADDR;
    case NET_EFETCH: break;
    case NET_ETIMEOUT: return GLANCE_ETIMEOUT;
    case NET_ETOOBIG: return GLANCE_ETOOBIG;
    case NET_EREDIRECTS: return GLANCE_EREDIRECTS;
    }
    return GLANCE_EFETCH;
}
