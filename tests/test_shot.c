/* Shots, checked by their pixels as a person would look at them: the PNG has
 * the size asked for, the answer's bold outline sits at its box, excluded
 * cells are shaded (edge and dense-link apart) and kept ones are not, the
 * main content box holds text, a tall page is cut with a note. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>
#include <cmocka.h>
#include <fontconfig/fontconfig.h>
#include <json-c/json.h>

#include "glance.h"
#include "opts.h"
#include "run.h"

/* The overlay's colours, as the legend and docs/shot.md name them. */
#define ANSWER_RGB 0xe6007e
static const double EDGE_RGB[3] = {0.16, 0.35, 0.86}, EDGE_A = 0.22;
static const double LINK_RGB[3] = {1.00, 0.47, 0.00}, LINK_A = 0.30;
/* The default method's legend: a margin this wide right of the page. */
#define LEGEND_W 380

static glance_context *ctx;

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
    /* cairo's caches of the faces it opened, for leak checkers. */
    cairo_debug_reset_static_data();
    FcFini();
    return 0;
}

/* A fixture extracted with options `o` (freed here): answered, or found
 * without main content. */
static glance_result *extract_with(const char *fixture, glance_options *o)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, fixture);
    glance_result *res = NULL;
    glance_status st = glance_extract_file(ctx, path, o, &res);
    glance_options_free(o);
    assert_non_null(res);
    assert_true(st == GLANCE_OK || st == GLANCE_ENOCONTENT);
    return res;
}

static glance_result *extract(const char *fixture, int w, int h, const char *method)
{
    char window[64], how[64];
    snprintf(window, sizeof window, "window=%dx%d", w, h);
    snprintf(how, sizeof how, "method=%s", method);
    return extract_with(fixture, OPTS(window, how));
}

typedef struct image {
    cairo_surface_t *s;
    int w, h;
} image;

typedef struct reader {
    const unsigned char *p;
    size_t left;
} reader;

static cairo_status_t read_png(void *closure, unsigned char *data, unsigned int len)
{
    reader *r = closure;
    if (len > r->left)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->p, len);
    r->p += len;
    r->left -= len;
    return CAIRO_STATUS_SUCCESS;
}

/* The shot as a PNG in memory, decoded. */
static image shoot(glance_result *res, int full, int overlay, int max_height)
{
    glance_shot_options so;
    glance_shot_options_default(&so);
    so.full = full;
    so.overlay = overlay;
    if (max_height)
        so.max_height = max_height;
    unsigned char *png = NULL;
    size_t len = 0;
    assert_int_equal(glance_result_shot_png(ctx, res, &so, &png, &len), GLANCE_OK);
    assert_true(len > 8 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
    reader r = {png, len};
    image im;
    im.s = cairo_image_surface_create_from_png_stream(read_png, &r);
    free(png);
    assert_int_equal(cairo_surface_status(im.s), CAIRO_STATUS_SUCCESS);
    im.w = cairo_image_surface_get_width(im.s);
    im.h = cairo_image_surface_get_height(im.s);
    return im;
}

static unsigned px(const image *im, int x, int y)
{
    assert_true(x >= 0 && y >= 0 && x < im->w && y < im->h);
    const unsigned char *d = cairo_image_surface_get_data(im->s);
    return *(const uint32_t *)(d + (size_t)y * cairo_image_surface_get_stride(im->s) + (size_t)x * 4) &
           0xFFFFFF;
}

/* `over` is `under` with rgb at alpha a drawn on it, give or take rounding. */
static int blended(unsigned under, unsigned over, const double rgb[3], double a)
{
    for (int k = 0; k < 3; k++) {
        int shift = 16 - 8 * k;
        double u = (under >> shift) & 255, o = (over >> shift) & 255;
        if (fabs(u * (1 - a) + rgb[k] * 255 * a - o) > 3)
            return 0;
    }
    return 1;
}

static json_object *result_json(glance_result *res)
{
    json_object *j = json_tokener_parse(glance_result_json(res));
    assert_non_null(j);
    return j;
}

static double jnum(json_object *o, const char *a, const char *b, const char *c)
{
    json_object *v = o;
    const char *keys[] = {a, b, c};
    for (int i = 0; i < 3 && keys[i]; i++)
        assert_true(json_object_object_get_ex(v, keys[i], &v));
    return json_object_get_double(v);
}

static void png_has_the_requested_size(void **state)
{
    (void)state;
    /* news.html at 1280x1024: the FIA is the page (shorter than 2 windows). */
    glance_result *res = extract("news.html", 1280, 1024, "auto");
    json_object *j = result_json(res);
    double doc_h = jnum(j, "document", "h", NULL), fia_h = jnum(j, "gce", "fia", "h");
    json_object_put(j);
    /* The default method's legend is in a margin beside the page. */
    image im = shoot(res, 0, 1, 0);
    assert_int_equal(im.w, 1280 + LEGEND_W);
    assert_int_equal(im.h, (int)ceil(fia_h));
    cairo_surface_destroy(im.s);
    im = shoot(res, 1, 0, 0);
    assert_int_equal(im.w, 1280);
    assert_int_equal(im.h, (int)ceil(fmax(1024, doc_h)));
    cairo_surface_destroy(im.s);
    glance_result_free(res);

    /* tall.html (3555 px) at 1920x1080: FIA 2 windows; full; full cut. */
    res = extract("tall.html", 1920, 1080, "auto");
    im = shoot(res, 0, 0, 0);
    assert_true(im.w == 1920 && im.h == 2160);
    cairo_surface_destroy(im.s);
    im = shoot(res, 1, 0, 0);
    assert_true(im.w == 1920 && im.h == 3555);
    cairo_surface_destroy(im.s);
    im = shoot(res, 1, 0, 1000);
    assert_true(im.w == 1920 && im.h == 1000);
    cairo_surface_destroy(im.s);
    glance_result_free(res);

    /* A phone's window: a page without a meta viewport is laid out 980 px
     * wide (render/viewport.c), and the shot shows that width, not the
     * 360 px of the window (which would cut the page's right part off). */
    res = extract("viewport-none.html", 360, 740, "auto");
    im = shoot(res, 1, 0, 0);
    assert_int_equal(im.w, 980);
    cairo_surface_destroy(im.s);
    glance_result_free(res);
}

/* The bold outline of the answer runs along its box, just outside it: the
 * classic policy's answer, GCE's node (the default's is often <body>). */
static void answer_outline_at_its_box(void **state)
{
    (void)state;
    glance_result *res = extract("news.html", 1920, 1080, "classic");
    assert_int_equal(glance_result_status(res), GLANCE_OK);
    glance_box b = glance_result_box(res);
    image im = shoot(res, 1, 1, 0), plain = shoot(res, 1, 0, 0);
    int hits = 0, total = 0;
    for (int i = 1; i < 20; i++) {
        int x = (int)(b.x + b.w * i / 20), y = (int)(b.y + b.h * i / 20);
        int pts[4][2] = {{(int)b.x - 3, y}, {(int)(b.x + b.w) + 2, y}, {x, (int)b.y - 3},
                         {x, (int)(b.y + b.h) + 2}};
        for (int k = 0; k < 4; k++, total++)
            hits += px(&im, pts[k][0], pts[k][1]) == ANSWER_RGB;
    }
    assert_true(hits >= total - 4);
    /* Not inside it beyond the outline, and never on a plain screenshot. */
    assert_int_not_equal(px(&im, (int)(b.x + b.w / 2), (int)(b.y + b.h / 2)), ANSWER_RGB);
    int plain_hits = 0;
    for (int y = 0; y < plain.h; y += 2)
        for (int x = 0; x < plain.w; x += 2)
            plain_hits += px(&plain, x, y) == ANSWER_RGB;
    assert_int_equal(plain_hits, 0);
    cairo_surface_destroy(im.s);
    cairo_surface_destroy(plain.s);
    glance_result_free(res);
}

/* Share of a 7x7 lattice inside cell (r, c) where `ok` holds. */
static double cell_share(const image *over, const image *under, double cw, double ch, int r, int c,
                         const double *rgb, double a)
{
    int good = 0, n = 0;
    for (int i = 1; i <= 7; i++)
        for (int k = 1; k <= 7; k++, n++) {
            int x = (int)(c * cw + cw * k / 8), y = (int)(r * ch + ch * i / 8);
            unsigned u = px(under, x, y), o = px(over, x, y);
            good += rgb ? blended(u, o, rgb, a) : u == o;
        }
    return (double)good / n;
}

/* Excluded cells are tinted over the page, edge and dense-link cells each
 * in their own colour; kept cells show the page as it is. (GCE's grid,
 * drawn over the classic policy's answer.) */
static void excluded_cells_shaded(void **state)
{
    (void)state;
    glance_result *res = extract("news.html", 1920, 1080, "classic");
    json_object *j = result_json(res), *grid, *excluded;
    assert_true(json_object_object_get_ex(json_object_object_get(j, "gce"), "grid", &grid));
    double cw = jnum(grid, "cell_w", NULL, NULL), ch = jnum(grid, "cell_h", NULL, NULL);
    int rows = (int)jnum(grid, "rows", NULL, NULL), cols = (int)jnum(grid, "cols", NULL, NULL);
    assert_true(json_object_object_get_ex(grid, "excluded", &excluded));
    char *state_of = calloc((size_t)(rows * cols), 1);
    for (size_t i = 0; i < json_object_array_length(excluded); i++) {
        json_object *e = json_object_array_get_idx(excluded, i);
        int r = (int)jnum(e, "row", NULL, NULL), c = (int)jnum(e, "col", NULL, NULL);
        state_of[r * cols + c] = strcmp(json_object_get_string(json_object_object_get(e, "reason")),
                                        "edge") == 0 ? 'e' : 'l';
    }
    image im = shoot(res, 0, 1, 0), plain = shoot(res, 0, 0, 0);
    int edge = 0, link = 0, kept = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            if ((r + 1) * ch > im.h)
                continue;
            /* The legend covers the top right corner (about 400 x 230). */
            if (r * ch < 230 && (c + 1) * cw > im.w - 400)
                continue;
            char s = state_of[r * cols + c];
            /* Most of a cell's points: the answer's outline and labels, the
             * centres and candidates cross some cells. */
            if (s == 'e') {
                assert_true(cell_share(&im, &plain, cw, ch, r, c, EDGE_RGB, EDGE_A) > 0.6);
                assert_true(cell_share(&im, &plain, cw, ch, r, c, LINK_RGB, LINK_A) < 0.1);
                edge++;
            } else if (s == 'l') {
                assert_true(cell_share(&im, &plain, cw, ch, r, c, LINK_RGB, LINK_A) > 0.6);
                assert_true(cell_share(&im, &plain, cw, ch, r, c, EDGE_RGB, EDGE_A) < 0.1);
                link++;
            } else {
                assert_true(cell_share(&im, &plain, cw, ch, r, c, NULL, 0) > 0.6);
                kept++;
            }
        }
    /* news.html has all three: the ring, the rail of links, the story. */
    assert_true(edge > 10 && link >= 3 && kept >= 3);
    free(state_of);
    json_object_put(j);
    cairo_surface_destroy(im.s);
    cairo_surface_destroy(plain.s);
    glance_result_free(res);
}

/* The main content box (the classic policy's node) is full of text on a
 * plain screenshot. */
static void text_inside_the_main_content(void **state)
{
    (void)state;
    const char *pages[] = {"news.html", "news-ja.html", "news-ko.html", "tall.html"};
    for (size_t p = 0; p < sizeof pages / sizeof pages[0]; p++) {
        glance_result *res = extract(pages[p], 1920, 1080, "classic");
        assert_int_equal(glance_result_status(res), GLANCE_OK);
        glance_box b = glance_result_box(res);
        image im = shoot(res, 0, 0, 0);
        long ink = 0, area = 0;
        for (int y = (int)b.y; y < (int)(b.y + b.h) && y < im.h; y++)
            for (int x = (int)b.x; x < (int)(b.x + b.w); x++, area++) {
                unsigned c = px(&im, x, y);
                ink += ((c >> 16 & 255) + (c >> 8 & 255) + (c & 255)) < 3 * 110;
            }
        if (ink < area / 40)
            fail_msg("%s: %ld dark pixels of %ld in the main content box", pages[p], ink, area);
        cairo_surface_destroy(im.s);
        glance_result_free(res);
    }
}

/* A cut page ends in a dark band with the note; the uncut one goes on. */
static void tall_page_cut_with_a_note(void **state)
{
    (void)state;
    glance_result *res = extract("tall.html", 1920, 1080, "auto");
    image cut = shoot(res, 1, 0, 1000), whole = shoot(res, 1, 0, 0);
    long dark_cut = 0, dark_whole = 0, light_in_band = 0;
    for (int y = 980; y < 1000; y++)
        for (int x = 0; x < 1920; x++) {
            unsigned a = px(&cut, x, y), b = px(&whole, x, y);
            dark_cut += ((a >> 16 & 255) + (a >> 8 & 255) + (a & 255)) < 3 * 80;
            dark_whole += ((b >> 16 & 255) + (b >> 8 & 255) + (b & 255)) < 3 * 80;
            light_in_band += x < 400 && (a & 0xFFFFFF) == 0xFFFFFF; /* the note's white text */
        }
    assert_true(dark_cut > 20 * 1920 * 8 / 10);
    assert_true(dark_whole < 20 * 1920 / 2);
    assert_true(light_in_band > 50);
    /* Above the band, the cut image is the page. */
    for (int y = 100; y < 900; y += 50)
        assert_int_equal(px(&cut, 960, y), px(&whole, 960, y));
    cairo_surface_destroy(cut.s);
    cairo_surface_destroy(whole.s);
    glance_result_free(res);
}

/* The file holds the bytes the memory variant gives. */
static void file_and_memory_agree(void **state)
{
    (void)state;
    glance_result *res = extract("article-tag.html", 1280, 1024, "auto");
    unsigned char *png;
    size_t len;
    assert_int_equal(glance_result_shot_png(ctx, res, NULL, &png, &len), GLANCE_OK);
    char path[] = "/tmp/glance-shot-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(glance_result_shot(ctx, res, NULL, path), GLANCE_OK);
    FILE *f = fopen(path, "rb");
    unsigned char *back = malloc(len + 1);
    size_t got = fread(back, 1, len + 1, f);
    fclose(f);
    unlink(path);
    assert_int_equal(got, len);
    assert_memory_equal(back, png, len);
    free(back);
    free(png);
    /* A folder that does not exist: an I/O error, errno saying why. */
    errno = 0;
    assert_int_equal(glance_result_shot(ctx, res, NULL, "/nonexistent-dir/x.png"), GLANCE_EIO);
    assert_int_equal(errno, ENOENT);
    glance_result_free(res);
}

static void bad_requests(void **state)
{
    (void)state;
    glance_result *res = NULL;
    /* Never laid out: nothing to paint. */
    assert_int_equal(glance_extract(ctx, "", 0, NULL, &res), GLANCE_EINPUT);
    unsigned char *png = (unsigned char *)"x";
    size_t len = 1;
    assert_int_equal(glance_result_shot_png(ctx, res, NULL, &png, &len), GLANCE_EOPTION);
    assert_null(png);
    assert_int_equal(len, 0);
    glance_result_free(res);
    res = extract("short.html", 1920, 1080, "auto");
    glance_shot_options so;
    glance_shot_options_default(&so);
    so.max_height = 0;
    assert_int_equal(glance_result_shot_png(ctx, res, &so, &png, &len), GLANCE_EOPTION);
    so.max_height = 40000;
    assert_int_equal(glance_result_shot_png(ctx, res, &so, &png, &len), GLANCE_EOPTION);
    /* The page's fonts are the context's that made it: another context,
     * or none, is refused, and the right one still paints. */
    glance_context *other = glance_context_new();
    assert_non_null(other);
    png = (unsigned char *)"x";
    len = 1;
    assert_int_equal(glance_result_shot_png(other, res, NULL, &png, &len), GLANCE_EOPTION);
    assert_null(png);
    assert_int_equal(len, 0);
    assert_int_equal(glance_result_shot_png(NULL, res, NULL, &png, &len), GLANCE_EOPTION);
    assert_null(png);
    char path[] = "/tmp/glance-shot-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(glance_result_shot(other, res, NULL, path), GLANCE_EOPTION);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fgetc(f), EOF); /* nothing written */
    fclose(f);
    unlink(path);
    assert_int_equal(glance_result_shot_png(ctx, res, NULL, &png, &len), GLANCE_OK);
    assert_true(len > 8 && memcmp(png, "\x89PNG", 4) == 0);
    free(png);
    /* A result of the other context: its own, not ctx. */
    glance_result *theirs = NULL;
    static const char page[] =
        "<html><body><p>A page, laid out by the other context.</p></body></html>";
    glance_status st = glance_extract(other, page, sizeof page - 1, NULL, &theirs);
    assert_true(st == GLANCE_OK || st == GLANCE_ENOCONTENT);
    assert_int_equal(glance_result_shot_png(ctx, theirs, NULL, &png, &len), GLANCE_EOPTION);
    assert_int_equal(glance_result_shot_png(other, theirs, NULL, &png, &len), GLANCE_OK);
    free(png);
    glance_result_free(theirs);
    glance_context_free(other);
    glance_result_free(res);
}

/* When GCE finds nothing, its grid and centres are still worth seeing. */
static void gce_failure_is_painted_too(void **state)
{
    (void)state;
    glance_result *res = extract("gce-fails.html", 1920, 1080, "gce");
    assert_int_equal(glance_result_status(res), GLANCE_ENOCONTENT);
    image im = shoot(res, 0, 1, 0), plain = shoot(res, 0, 0, 0);
    json_object *j = result_json(res);
    double cw = jnum(j, "gce", "grid", "cell_w"), ch = jnum(j, "gce", "grid", "cell_h");
    json_object_put(j);
    assert_true(cell_share(&im, &plain, cw, ch, 1, 0, EDGE_RGB, EDGE_A) > 0.8);
    cairo_surface_destroy(im.s);
    cairo_surface_destroy(plain.s);
    glance_result_free(res);
}


/* The scorer's overlay (the default method): lib/shot.c's colours. */
static const double SCALE[3][3] = {{0.25, 0.45, 0.85}, {0.95, 0.60, 0.05}, {0.80, 0.05, 0.15}};
static const double TAKEN_RGB[3] = {0.10, 0.70, 0.30}, TAKEN_A = 0.20;
#define HATCH_RGB 0x7a1fa2

static unsigned rgb_of(const double c[3])
{
    return (unsigned)lround(c[0] * 255) << 16 | (unsigned)lround(c[1] * 255) << 8 |
           (unsigned)lround(c[2] * 255);
}

/* A probability's colour on the legend's scale. */
static unsigned scale_rgb(double p)
{
    int k = p < 0.5 ? 0 : 1;
    double t = (p - 0.5 * k) / 0.5, c[3];
    for (int i = 0; i < 3; i++)
        c[i] = SCALE[k][i] + (SCALE[k + 1][i] - SCALE[k][i]) * t;
    return rgb_of(c);
}

static int near_rgb(unsigned a, unsigned b)
{
    for (int s = 0; s < 24; s += 8)
        if (abs((int)(a >> s & 255) - (int)(b >> s & 255)) > 3)
            return 0;
    return 1;
}

/* A block as the JSON (--explain) gives it, on whole pixels. */
typedef struct sblock {
    int x0, y0, x1, y1;
    double p;
    int taken, hatched, headline;
    char fate[32];
} sblock;

static size_t score_blocks(glance_result *res, sblock **out)
{
    json_object *j = result_json(res), *score, *ex, *list;
    assert_true(json_object_object_get_ex(j, "score", &score));
    assert_true(json_object_object_get_ex(score, "explain", &ex));
    assert_true(json_object_object_get_ex(ex, "blocks", &list));
    size_t n = json_object_array_length(list);
    sblock *v = calloc(n ? n : 1, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        json_object *b = json_object_array_get_idx(list, i);
        double x = jnum(b, "box", "x", NULL), y = jnum(b, "box", "y", NULL);
        double w = jnum(b, "box", "w", NULL), h = jnum(b, "box", "h", NULL);
        v[i].x0 = (int)lround(x), v[i].y0 = (int)lround(y);
        v[i].x1 = (int)lround(x + w), v[i].y1 = (int)lround(y + h);
        v[i].p = jnum(b, "p", NULL, NULL);
        const char *fate = json_object_get_string(json_object_object_get(b, "fate"));
        snprintf(v[i].fate, sizeof v[i].fate, "%s", fate);
        v[i].taken = strcmp(fate, "taken") == 0;
        v[i].hatched = !v[i].taken && strcmp(fate, "below") != 0;
        v[i].headline = json_object_get_boolean(json_object_object_get(b, "headline"));
    }
    json_object_put(j);
    *out = v;
    return n;
}

/* Whether block b is drawn as the JSON says: its outline in its
 * probability's colour along its edges, filled when taken (and only
 * then), hatched when a rule dropped it (and only then), a bar at its left
 * when it is the headline. 1 when so; 0 with what is wrong in `why`. */
static int block_drawn(const image *im, const image *plain, const sblock *b, int page_w,
                       char *why, size_t cap)
{
    int w = b->x1 - b->x0, h = b->y1 - b->y0;
    if (w < 16 || h < 16 || b->x0 < 0 || b->x1 > page_w || b->y1 > im->h)
        return 1; /* too small or outside the image to read back */
    unsigned want = scale_rgb(b->p);
    int bad = 0, n = 0;
    for (int k = 1; k < 4; k++) {
        int y = b->y0 + h * k / 4, x = b->x0 + w * k / 4;
        int pts[3][2] = {{b->x0 + 1, y}, {b->x1 - 2, y}, {x, b->y1 - 2}};
        for (int q = 0; q < 3; q++, n++)
            bad += !near_rgb(px(im, pts[q][0], pts[q][1]), want);
    }
    if (bad > n / 3) {
        snprintf(why, cap, "outline not %06x (p %.3f) at %d of %d points", want, b->p, bad, n);
        return 0;
    }
    /* The lower half of the inside, below where a label may be (its
     * top right corner, 15 px high); too thin a block is not read. */
    int filled = 0, plainly = 0, hatch = 0, area = 0, top = b->y0 + (h / 2 > 19 ? h / 2 : 19);
    if (b->y1 - 4 - top < 3)
        return 1;
    for (int y = top; y < b->y1 - 4; y++)
        for (int x = b->x0 + 4; x < b->x1 - 4; x++, area++) {
            unsigned o = px(im, x, y), u = px(plain, x, y);
            filled += blended(u, o, TAKEN_RGB, TAKEN_A);
            plainly += o == u;
            hatch += o == HATCH_RGB;
        }
    if (b->taken && filled < area * 8 / 10) {
        snprintf(why, cap, "taken but not filled (%d of %d)", filled, area);
        return 0;
    }
    if (b->hatched && hatch < area / 10) {
        snprintf(why, cap, "dropped (%s) but not hatched (%d of %d)", b->fate, hatch, area);
        return 0;
    }
    if (!b->hatched && hatch > area / 50) {
        snprintf(why, cap, "hatched (%d of %d) but %s", hatch, area, b->fate);
        return 0;
    }
    if (!b->taken && !b->hatched && plainly < area * 8 / 10) {
        snprintf(why, cap, "below the cut but drawn over (%d of %d as the page)", plainly, area);
        return 0;
    }
    if (b->headline && b->x0 >= 8) {
        for (int y = b->y0; y < b->y1; y += 2)
            if (px(im, b->x0 - 4, y) != 0x000000) {
                snprintf(why, cap, "the headline without its bar at y %d", y);
                return 0;
            }
    }
    return 1;
}

/* The blocks of a shot not drawn as the JSON says, named in `report`. */
static int blocks_not_drawn(const image *im, const image *plain, const sblock *v, size_t n,
                            int page_w, char *report, size_t cap)
{
    int wrong = 0;
    size_t at = 0;
    report[0] = 0;
    for (size_t i = 0; i < n; i++) {
        char why[200];
        if (block_drawn(im, plain, &v[i], page_w, why, sizeof why))
            continue;
        wrong++;
        if (at < cap)
            at += (size_t)snprintf(report + at, cap - at, " block %zu at (%d, %d): %s;", i, v[i].x0,
                                   v[i].y0, why);
    }
    return wrong;
}

static glance_result *extract_explained(const char *fixture)
{
    return extract_with(fixture, OPTS("score.explain=on"));
}

/* The default method's shot holds every block the scorer saw, as the JSON
 * lists them, and its legend beside the page, not over it. */
static void score_blocks_drawn_as_listed(void **state)
{
    (void)state;
    const char *pages[] = {"news.html", "teasers-first.html", "docs-page.html", "news-ja.html",
                           "footer-first.html"};
    size_t hatched = 0, taken = 0, heads = 0, checked = 0;
    for (size_t pi = 0; pi < sizeof pages / sizeof pages[0]; pi++) {
        glance_result *res = extract_explained(pages[pi]);
        sblock *v;
        size_t n = score_blocks(res, &v);
        image im = shoot(res, 1, 1, 0), plain = shoot(res, 1, 0, 0);
        assert_int_equal(im.w, plain.w + LEGEND_W);
        assert_int_equal(im.h, plain.h);
        char report[2000];
        if (blocks_not_drawn(&im, &plain, v, n, plain.w, report, sizeof report))
            fail_msg("%s:%s", pages[pi], report);
        for (size_t i = 0; i < n; i++) {
            hatched += v[i].hatched;
            taken += v[i].taken;
            heads += v[i].headline;
            checked += v[i].x1 - v[i].x0 >= 16 && v[i].y1 - v[i].y0 >= 16;
        }
        /* The page itself is the page where no block is: left of the
         * legend, the top left corner is untouched. */
        assert_int_equal(px(&im, 0, 0), px(&plain, 0, 0));
        free(v);
        cairo_surface_destroy(im.s);
        cairo_surface_destroy(plain.s);
        glance_result_free(res);
    }
    assert_true(taken >= 10 && hatched >= 3 && heads >= 3 && checked >= 40);
}

/* The overlaid shot with the inside of block `b` (its outline's 3 px
 * left out) painted over by the plain page's pixels. */
static image shot_with_inside_plain(glance_result *res, const image *plain, const sblock *b)
{
    image im = shoot(res, 1, 1, 0);
    cairo_t *cr = cairo_create(im.s);
    cairo_rectangle(cr, b->x0 + 3, b->y0 + 3, b->x1 - b->x0 - 6, b->y1 - b->y0 - 6);
    cairo_clip(cr);
    cairo_set_source_surface(cr, plain->s, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(im.s);
    return im;
}

/* The check above catches a block drawn wrong: an outline of another
 * probability's colour, a hatch missing, a fill missing. */
static void a_wrong_block_is_caught(void **state)
{
    (void)state;
    glance_result *res = extract_explained("news.html");
    sblock *v;
    size_t n = score_blocks(res, &v);
    image im = shoot(res, 1, 1, 0), plain = shoot(res, 1, 0, 0);
    char report[2000];
    assert_int_equal(blocks_not_drawn(&im, &plain, v, n, plain.w, report, sizeof report), 0);
    size_t big = n, drop = n;
    for (size_t i = 0; i < n; i++) {
        if (v[i].taken && (big == n || v[i].y1 - v[i].y0 > v[big].y1 - v[big].y0))
            big = i;
        if (v[i].hatched && (drop == n || v[i].y1 - v[i].y0 > v[drop].y1 - v[drop].y0))
            drop = i;
    }
    assert_true(big < n && drop < n && v[drop].y1 - v[drop].y0 > 40);
    /* A wrong colour: the outline of a block of the opposite probability. */
    cairo_t *cr = cairo_create(im.s);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    unsigned wrong = scale_rgb(1 - v[big].p);
    cairo_set_source_rgb(cr, (wrong >> 16) / 255.0, (wrong >> 8 & 255) / 255.0, (wrong & 255) / 255.0);
    cairo_set_line_width(cr, 3);
    cairo_rectangle(cr, v[big].x0 + 1.5, v[big].y0 + 1.5, v[big].x1 - v[big].x0 - 3,
                    v[big].y1 - v[big].y0 - 3);
    cairo_stroke(cr);
    assert_int_equal(blocks_not_drawn(&im, &plain, v, n, plain.w, report, sizeof report), 1);
    assert_non_null(strstr(report, "outline not"));
    cairo_destroy(cr);
    cairo_surface_destroy(im.s);
    /* A missing hatch: the dropped block's inside as the plain page. */
    im = shot_with_inside_plain(res, &plain, &v[drop]);
    assert_int_equal(blocks_not_drawn(&im, &plain, v, n, plain.w, report, sizeof report), 1);
    assert_non_null(strstr(report, "not hatched"));
    cairo_surface_destroy(im.s);
    /* A missing fill: the taken block's inside as the plain page. */
    im = shot_with_inside_plain(res, &plain, &v[big]);
    assert_int_equal(blocks_not_drawn(&im, &plain, v, n, plain.w, report, sizeof report), 1);
    assert_non_null(strstr(report, "not filled"));
    free(v);
    cairo_surface_destroy(im.s);
    cairo_surface_destroy(plain.s);
    glance_result_free(res);
}

/* Width and height from a PNG file's header; 0x0 when it is not one. */
static void png_size(const char *path, int *w, int *h)
{
    unsigned char b[24] = {0};
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    *w = *h = 0;
    if (n == 24 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0 && memcmp(b + 12, "IHDR", 4) == 0) {
        *w = b[16] << 24 | b[17] << 16 | b[18] << 8 | b[19];
        *h = b[20] << 24 | b[21] << 16 | b[22] << 8 | b[23];
    }
}

/* The commands: glance shot writes the PNG and nothing on stdout; glance
 * extract --shot prints the text and writes the PNG too. */
static void shot_commands(void **state)
{
    (void)state;
    char dir[] = "/tmp/glance-shotcli-XXXXXX", args[1024], png[600];
    assert_non_null(mkdtemp(dir));
    snprintf(png, sizeof png, "%s/news.png", dir);
    snprintf(args, sizeof args, "shot --window 1280x1024 --full %s/news.html -o %s", FIXTURES_DIR, png);
    run_out r = run_in(dir, args);
    assert_int_equal(r.code, 0);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "");
    int w, h;
    png_size(png, &w, &h);
    assert_int_equal(w, 1280 + LEGEND_W);
    assert_true(h >= 1024);
    run_free(&r);

    snprintf(png, sizeof png, "%s/tall.png", dir);
    snprintf(args, sizeof args, "extract --shot %s --full --max-height 900 --no-overlay %s/tall.html",
             png, FIXTURES_DIR);
    r = run_in(dir, args);
    assert_int_equal(r.code, 0);
    assert_true(strlen(r.out) > 500);
    png_size(png, &w, &h);
    assert_true(w == 1920 && h == 900);
    run_free(&r);

    /* No main content: the PNG is written all the same, exit 1. */
    snprintf(png, sizeof png, "%s/fails.png", dir);
    snprintf(args, sizeof args, "shot --method gce %s/gce-fails.html -o %s", FIXTURES_DIR, png);
    r = run_in(dir, args);
    assert_int_equal(r.code, 1);
    png_size(png, &w, &h);
    assert_true(w == 1920 && h == 1080);
    run_free(&r);

    /* Usage errors: no -o, a bad --max-height; an unwritable PNG: 4. */
    const char *bad[] = {"shot %s/news.html", "shot --max-height 0 %s/news.html -o x.png",
                         "shot --max-height 99999 %s/news.html -o x.png",
                         "extract --max-height big --shot x.png %s/news.html"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, bad[i], FIXTURES_DIR);
        r = run_in(dir, args);
        if (r.code != 2)
            fail_msg("'%s' gave exit %d, expected 2", args, r.code);
        assert_true(strlen(r.err) > 0);
        run_free(&r);
    }
    snprintf(args, sizeof args, "shot %s/news.html -o %s/no/such/dir.png", FIXTURES_DIR, dir);
    r = run_in(dir, args);
    assert_int_equal(r.code, 4);
    assert_non_null(strstr(r.err, "cannot write"));
    run_free(&r);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(png_has_the_requested_size),
        cmocka_unit_test(answer_outline_at_its_box),
        cmocka_unit_test(excluded_cells_shaded),
        cmocka_unit_test(text_inside_the_main_content),
        cmocka_unit_test(tall_page_cut_with_a_note),
        cmocka_unit_test(file_and_memory_agree),
        cmocka_unit_test(bad_requests),
        cmocka_unit_test(gce_failure_is_painted_too),
        cmocka_unit_test(shot_commands),
        cmocka_unit_test(score_blocks_drawn_as_listed),
        cmocka_unit_test(a_wrong_block_is_caught),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
