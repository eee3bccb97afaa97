/* lib/: what a glance_context holds. */
#ifndef GLANCE_LIB_CONTEXT_H
#define GLANCE_LIB_CONTEXT_H

#include "fonts/fonts.h"
#include "glance.h"
#include "render/render.h"

struct glance_context {
    fonts_lib *fonts;
    render_engine *render; /* the parsed user-agent stylesheet; uses fonts */
    struct browser *browser; /* engine chromium: started on first use, then reused */
};

#endif
