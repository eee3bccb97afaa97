/* The layout viewport a page is laid out in (render_viewport_of): a
 * desktop window is its own; a phone's or tablet's reads the page's meta
 * viewport as a mobile browser does. And the laid-out page itself: its
 * width, what glance's JSON says of it, and the window the methods see. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "glance.h"
#include "lib/result.h"
#include "render/render.h"

static render_viewport vp(const char *html, int w, int h, int device)
{
    render_opts o;
    memset(&o, 0, sizeof o);
    o.window_w = w;
    o.window_h = h;
    o.device = device;
    render_viewport v;
    render_viewport_of(html, strlen(html), &o, &v);
    return v;
}

#define META(c) "<html><head><meta name=viewport content=\"" c "\"></head><body>x</body></html>"

static void desktop_window_is_its_own(void **state)
{
    (void)state;
    /* A desktop browser ignores the meta viewport. */
    render_viewport v = vp(META("width=500"), 1920, 1080, RENDER_DEVICE_AUTO);
    assert_int_equal(v.w, 1920);
    assert_int_equal(v.h, 1080);
    assert_false(v.mobile);
    v = vp("<p>no meta</p>", 1280, 800, RENDER_DEVICE_AUTO);
    assert_int_equal(v.w, 1280);
    assert_false(v.mobile);
    /* Forced desktop at a phone's width: the window. */
    v = vp("<p>no meta</p>", 360, 740, RENDER_DEVICE_DESKTOP);
    assert_int_equal(v.w, 360);
    assert_int_equal(v.h, 740);
    assert_false(v.mobile);
}

static void phone_reads_the_meta_viewport(void **state)
{
    (void)state;
    render_viewport v = vp(META("width=device-width, initial-scale=1"), 360, 740, RENDER_DEVICE_AUTO);
    assert_true(v.mobile);
    assert_true(v.from_meta);
    assert_int_equal(v.w, 360);
    assert_int_equal(v.h, 740);
    /* A fixed width in CSS px, shown across the screen: the height at that
     * scale (740 * 500 / 360). */
    v = vp(META("width=500"), 360, 740, RENDER_DEVICE_AUTO);
    assert_int_equal(v.w, 500);
    assert_int_equal(v.h, 1028);
    /* "600px" is read as browsers read it, separators ';' and spaces too. */
    v = vp(META("initial-scale=1.0; width = 600px"), 360, 740, RENDER_DEVICE_AUTO);
    assert_int_equal(v.w, 600);
    /* An initial scale alone: the window's width over it. */
    v = vp(META("initial-scale=2"), 400, 800, RENDER_DEVICE_AUTO);
    assert_int_equal(v.w, 200);
    assert_int_equal(v.h, 400);
    /* Clamped as Chrome clamps it. */
    v = vp(META("width=50000"), 360, 740, RENDER_DEVICE_AUTO);
    assert_int_equal(v.w, 10000);
    /* The tablet's window, forced mobile on a wide one too. */
    v = vp(META("width=device-width"), 768, 1024, RENDER_DEVICE_AUTO);
    assert_true(v.mobile);
    assert_int_equal(v.w, 768);
    v = vp(META("width=device-width"), 1280, 800, RENDER_DEVICE_MOBILE);
    assert_true(v.mobile);
    assert_int_equal(v.w, 1280);
}

static void phone_without_meta_lays_out_980(void **state)
{
    (void)state;
    render_viewport v = vp("<html><head><title>t</title></head><body>x</body></html>", 360, 740,
                           RENDER_DEVICE_AUTO);
    assert_true(v.mobile);
    assert_false(v.from_meta);
    assert_int_equal(v.w, 980);
    assert_int_equal(v.h, 2014); /* 740 * 980 / 360 */
    /* A meta viewport without a width or a scale, or an unreadable width,
     * is none; another meta's name is not the viewport's. */
    v = vp(META("user-scalable=no"), 360, 740, RENDER_DEVICE_AUTO);
    assert_int_equal(v.w, 980);
    v = vp(META("width=wide"), 360, 740, RENDER_DEVICE_AUTO);
    assert_int_equal(v.w, 980);
    v = vp("<meta name=description content=\"width=device-width\">", 360, 740, RENDER_DEVICE_AUTO);
    assert_int_equal(v.w, 980);
    /* The last one holds, whatever the case of its name; one inside a
     * script is no tag. */
    v = vp("<meta name=viewport content=\"width=700\"><meta name=VIEWPORT content=\"width=device-width\">"
           "<script>document.write('<meta name=viewport content=\"width=900\">')</script>",
           360, 740, RENDER_DEVICE_AUTO);
    assert_int_equal(v.w, 360);
}

/* The page laid out: its width, the JSON's viewport, the methods' window. */
static glance_context *ctx;

static glance_result *extract(const char *page, const char *window)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, page);
    glance_options *o = glance_options_new();
    assert_int_equal(glance_options_set(o, "window", window), GLANCE_OK);
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, path, o, &res);
    glance_options_free(o);
    assert_int_equal(st, GLANCE_OK);
    return res;
}

static void laid_out_in_the_viewport(void **state)
{
    (void)state;
    static const struct {
        const char *page, *window;
        int w, h, mobile;
    } cases[] = {
        {"viewport.html", "1920x1080", 1920, 1080, 0},
        {"viewport.html", "360x740", 360, 740, 1},
        {"viewport-none.html", "360x740", 980, 2014, 1},
        {"viewport-fixed.html", "360x740", 500, 1028, 1},
        {"viewport-fixed.html", "1280x800", 1280, 800, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        glance_result *res = extract(cases[i].page, cases[i].window);
        /* The page is as wide as its layout viewport, and the methods see
         * that window, in the CSS px of its boxes. */
        const dom_node *body = dom_find_xpath(res->dom, "/html[1]/body[1]");
        assert_non_null(body);
        assert_int_equal((int)body->box.w, cases[i].w);
        assert_int_equal(res->page.window_w, cases[i].w);
        assert_int_equal(res->page.window_h, cases[i].h);
        /* The JSON keeps the window asked for, and says which viewport a
         * phone's browser used. */
        json_object *j = json_tokener_parse(glance_result_json(res)), *win, *x, *view;
        assert_non_null(j);
        assert_true(json_object_object_get_ex(j, "window", &win));
        assert_true(json_object_object_get_ex(win, "w", &x));
        int asked_w;
        assert_int_equal(sscanf(cases[i].window, "%d", &asked_w), 1);
        assert_int_equal(json_object_get_int(x), asked_w);
        int has = json_object_object_get_ex(j, "viewport", &view);
        assert_int_equal(has, cases[i].mobile);
        if (has) {
            assert_true(json_object_object_get_ex(view, "w", &x));
            assert_int_equal(json_object_get_int(x), cases[i].w);
            assert_true(json_object_object_get_ex(view, "h", &x));
            assert_int_equal(json_object_get_int(x), cases[i].h);
        }
        json_object_put(j);
        glance_result_free(res);
    }
}

static int setup(void **state)
{
    (void)state;
    ctx = glance_context_new();
    return ctx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    glance_context_free(ctx);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(desktop_window_is_its_own),
        cmocka_unit_test(phone_reads_the_meta_viewport),
        cmocka_unit_test(phone_without_meta_lays_out_980),
        cmocka_unit_test(laid_out_in_the_viewport),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
