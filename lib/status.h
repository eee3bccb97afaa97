/* lib/: the statuses of the folders below, said in glance's vocabulary. */
#ifndef GLANCE_LIB_STATUS_H
#define GLANCE_LIB_STATUS_H

#include "glance.h"
#include "net/net.h"
#include "render/render.h"

glance_status status_from_render(render_status s);
glance_status status_from_net(net_status s);

#endif
