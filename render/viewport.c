/* render/: the layout viewport a browser of the window's kind lays a page
 * out in (render.h, render_viewport_of). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/tags.h"
#include "render/render.h"

/* The meta viewport's separators: the CSS Device Adaptation's parsing
 * algorithm reads ',' and ';' between properties and white space around
 * them. */
static int sep(char c)
{
    return c == ',' || c == ';' || base_html_space(c);
}

static int word_is(const char *p, size_t n, const char *lower)
{
    if (strlen(lower) != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i] >= 'A' && p[i] <= 'Z' ? (char)(p[i] - 'A' + 'a') : p[i];
        if (c != lower[i])
            return 0;
    }
    return 1;
}

/* A number at the start of [p, p + n) as browsers read a viewport value
 * ("600px" is 600); NAN when it starts with none. */
static double leading_number(const char *p, size_t n)
{
    char buf[32];
    if (n == 0 || n >= sizeof buf)
        return NAN;
    memcpy(buf, p, n);
    buf[n] = '\0';
    char *end;
    double v = strtod(buf, &end);
    return end == buf || !isfinite(v) ? NAN : v;
}

/* The width and initial-scale of a content="..." value: the width in CSS
 * px (0 when not given or unreadable), the scale (0 the same). */
static void read_content(const char *p, size_t n, int window_w, int window_h, double *width,
                         double *scale)
{
    const char *end = p + n;
    *width = 0;
    *scale = 0;
    while (p < end) {
        while (p < end && sep(*p))
            p++;
        const char *k = p;
        while (p < end && !sep(*p) && *p != '=')
            p++;
        size_t kn = (size_t)(p - k);
        while (p < end && base_html_space(*p))
            p++;
        if (p >= end || *p != '=') { /* a key without a value */
            while (p < end && *p != ',' && *p != ';')
                p++;
            continue;
        }
        p++;
        while (p < end && base_html_space(*p))
            p++;
        const char *v = p;
        while (p < end && !sep(*p))
            p++;
        size_t vn = (size_t)(p - v);
        if (word_is(k, kn, "width")) {
            double w = word_is(v, vn, "device-width")    ? window_w
                       : word_is(v, vn, "device-height") ? window_h
                                                         : leading_number(v, vn);
            /* Chrome clamps a width to 1 .. 10000; an unreadable one is
             * not given. */
            *width = isnan(w) || w <= 0 ? 0 : w < 1 ? 1 : w > 10000 ? 10000 : w;
        } else if (word_is(k, kn, "initial-scale")) {
            double s = word_is(v, vn, "device-width")    ? 10
                       : word_is(v, vn, "device-height") ? 10
                                                         : leading_number(v, vn);
            *scale = isnan(s) || s <= 0 ? 0 : s < 0.1 ? 0.1 : s > 10 ? 10 : s;
        }
    }
}

/* The content of the page's last <meta name=viewport> (the one browsers
 * apply), into *content; 0 when it has none. */
static int find_meta(const char *html, size_t len, const char **content, size_t *n)
{
    base_tag_scanner s;
    base_tag_scanner_init(&s, html, len);
    base_tag t;
    int found = 0;
    while (base_tag_next(&s, &t)) {
        if (t.kind != BASE_TAG_START || !base_tag_is(&t, "meta"))
            continue;
        base_tag_attr name, value;
        if (!base_tag_find_attr(&t, "name", &name) || !name.value ||
            !word_is(name.value, name.value_len, "viewport"))
            continue;
        if (base_tag_find_attr(&t, "content", &value) && value.value) {
            *content = value.value;
            *n = value.value_len;
        } else {
            *content = "";
            *n = 0;
        }
        found = 1;
    }
    return found;
}

int render_device_mobile(const render_opts *o)
{
    int ww = o->window_w > 0 ? o->window_w : 1920;
    return o->device == RENDER_DEVICE_MOBILE || (o->device == RENDER_DEVICE_AUTO && ww < RENDER_MOBILE_WIDTH);
}

void render_viewport_of(const char *html, size_t len, const render_opts *o, render_viewport *v)
{
    int ww = o->window_w > 0 ? o->window_w : 1920, wh = o->window_h > 0 ? o->window_h : 1080;
    v->w = ww;
    v->h = wh;
    v->mobile = render_device_mobile(o);
    v->from_meta = 0;
    if (!v->mobile)
        return; /* desktop browsers ignore the meta viewport */
    const char *content;
    size_t n;
    double width = 0, scale = 0;
    if (find_meta(html, len, &content, &n)) {
        read_content(content, n, ww, wh, &width, &scale);
        v->from_meta = width > 0 || scale > 0;
    }
    /* A width given; else the initial scale's (device-width / scale, as
     * Chrome derives it); else the 980 px of a page written for desktops. */
    double w = width > 0 ? width : scale > 0 ? ww / scale : RENDER_MOBILE_DEFAULT_WIDTH;
    v->w = (int)lround(w);
    if (v->w < 1)
        v->w = 1;
    /* Shown whole across the screen at first: the window's height in CSS px
     * at that scale. */
    v->h = (int)lround((double)wh * v->w / ww);
    if (v->h < 1)
        v->h = 1;
}
