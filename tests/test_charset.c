/* Pages in legacy charsets come out as the right UTF-8 text: declared in
 * <meta>, declared by the server's Content-Type, or declared nowhere
 * (uchardet detects them), from bytes and over HTTP (the tests' server on
 * 127.0.0.1). Each sample is written here in UTF-8 and encoded with iconv
 * at run time, so that the test reads as the text it checks. */
#define _GNU_SOURCE
#include <errno.h>
#include <iconv.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "glance.h"
#include "httpd.h"
#include "opts.h"

static glance_context *ctx;

typedef struct sample {
    const char *charset; /* as a page or server would name it */
    const char *text;    /* UTF-8: a paragraph of ordinary prose */
} sample;

static const sample samples[] = {
    {"Shift_JIS",
     "今週の大雨で川の水位は大きく上がりましたが、火曜日には警戒水位を下回りました。市の技術者によると、"
     "水車小屋の近くの歩道橋は金曜日に再び開通する予定です。住民は週末まで土のうをそのまま置いておくよう求められています。"},
    {"EUC-JP",
     "今週の大雨で川の水位は大きく上がりましたが、火曜日には警戒水位を下回りました。市の技術者によると、"
     "水車小屋の近くの歩道橋は金曜日に再び開通する予定です。住民は週末まで土のうをそのまま置いておくよう求められています。"},
    {"GBK",
     "经过一周的大雨，河水已经回落到警戒线以下。县里的工程师星期二表示，磨坊附近的人行桥将于星期五重新开放。"
     "沿河低岸的居民被要求在周末之前不要移走沙袋，因为预计还会有一次较小的洪峰经过小镇。"},
    {"GB18030",
     "经过一周的大雨，河水已经回落到警戒线以下。县里的工程师星期二表示，磨坊附近的人行桥将于星期五重新开放。"
     "沿河低岸的居民被要求在周末之前不要移走沙袋，因为预计还会有一次较小的洪峰经过小镇。"},
    {"Big5",
     "經過一週的大雨，河水已經回落到警戒線以下。縣裡的工程師星期二表示，磨坊附近的人行橋將於星期五重新開放。"
     "沿河低岸的居民被要求在週末之前不要移走沙袋，因為預計還會有一次較小的洪峰經過小鎮。"},
    {"EUC-KR",
     "일주일 동안 내린 폭우로 불어났던 강물이 화요일에 다시 경계 수위 아래로 내려갔다고 군 기술자들이 밝혔다. "
     "방앗간 근처의 인도교는 금요일에 다시 개통될 예정이며, 주민들은 주말까지 모래주머니를 그대로 두라는 요청을 받았다."},
    {"windows-1251",
     "После недели сильных дождей река вернулась ниже отметки наводнения, сообщили во вторник инженеры округа. "
     "Пешеходный мост у мельницы снова откроется в пятницу, а жителей нижнего берега попросили не убирать мешки с песком до выходных."},
    {"windows-1252",
     "Après une semaine de fortes pluies, la rivière est redescendue sous la cote d’alerte, ont déclaré mardi les "
     "ingénieurs du département. La passerelle du moulin rouvrira vendredi ; les riverains doivent garder leurs sacs "
     "de sable jusqu’au week-end – « par précaution », disent-ils."},
    {"ISO-8859-1",
     "Nach einer Woche mit starkem Regen ist der Fluss wieder unter die Hochwassermarke gefallen, sagten die "
     "Ingenieure des Landkreises am Dienstag. Die Fußgängerbrücke an der Mühle wird am Freitag wieder geöffnet; "
     "die Anwohner am unteren Ufer sollen ihre Sandsäcke bis zum Wochenende liegen lassen."},
    {"ISO-8859-2",
     "Po tygodniu ulewnych deszczów rzeka opadła poniżej stanu alarmowego, poinformowali we wtorek inżynierowie "
     "powiatu. Kładka przy młynie zostanie ponownie otwarta w piątek, a mieszkańcy niższego brzegu mają zostawić "
     "worki z piaskiem aż do weekendu, gdyż spodziewana jest druga, mniejsza fala."},
    {"ISO-8859-5",
     "После недели сильных дождей река вернулась ниже отметки наводнения, сообщили во вторник инженеры округа. "
     "Пешеходный мост у мельницы снова откроется в пятницу, а жителей нижнего берега попросили не убирать мешки с песком до выходных."},
    {"ISO-8859-7",
     "Μετά από μια εβδομάδα έντονων βροχοπτώσεων το ποτάμι επέστρεψε κάτω από το όριο πλημμύρας, δήλωσαν την Τρίτη "
     "οι μηχανικοί του νομού. Η πεζογέφυρα στον μύλο θα ανοίξει ξανά την Παρασκευή, και οι κάτοικοι της χαμηλής "
     "όχθης πρέπει να κρατήσουν τους σάκους με άμμο μέχρι το Σαββατοκύριακο."},
};
#define N_SAMPLES (int)(sizeof samples / sizeof samples[0])

/* `utf8` in `charset` through iconv; malloc'd. */
static char *encode(const char *utf8, const char *charset, size_t *out_len)
{
    iconv_t cd = iconv_open(charset, "UTF-8");
    assert_true(cd != (iconv_t)-1);
    size_t in_len = strlen(utf8), cap = in_len * 2 + 16;
    char *out = malloc(cap), *ip = (char *)utf8, *op = out;
    size_t il = in_len, ol = cap;
    if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1)
        fail_msg("the %s sample cannot be written in %s: %s", charset, charset, strerror(errno));
    iconv_close(cd);
    *out_len = (size_t)(op - out);
    return out;
}

/* The page around the encoded sample, with `meta` in its head ("" for
 * none); ASCII apart from the sample, so the page is in the sample's
 * charset. */
static char *page(const sample *s, const char *meta, size_t *len)
{
    size_t n;
    char *body = encode(s->text, s->charset, &n);
    static const char head_fmt[] = "<!DOCTYPE html><html><head>%s<title>River</title></head><body>"
                                   "<div><a href='/'>Home</a> <a href='/news'>News</a></div>"
                                   "<article style='width:700px;margin:0 auto'><h1>River</h1><p>";
    static const char tail[] = "</p><p>The end.</p></article></body></html>";
    char head[512];
    int h = snprintf(head, sizeof head, head_fmt, meta);
    char *p = malloc((size_t)h + n + sizeof tail);
    memcpy(p, head, (size_t)h);
    memcpy(p + h, body, n);
    memcpy(p + h + n, tail, sizeof tail);
    *len = (size_t)h + n + sizeof tail - 1;
    free(body);
    return p;
}

/* The result holds the sample's text exactly and says where the charset
 * came from. */
static void check(glance_result *res, glance_status st, const sample *s, const char *mode,
                  const char *want_from)
{
    if (st != GLANCE_OK)
        fail_msg("%s, %s: %s", s->charset, mode, glance_result_message(res, st));
    const char *text = glance_result_text(res);
    /* The first sentence, far enough to hold letters of every kind. */
    char first[160];
    snprintf(first, sizeof first, "%.120s", s->text);
    size_t k = strlen(first); /* do not end inside a UTF-8 sequence */
    while (k > 0 && ((unsigned char)first[k - 1] & 0xc0) == 0x80)
        k--;
    if (k > 0 && ((unsigned char)first[k - 1] & 0xc0) == 0xc0)
        k--;
    first[k] = '\0';
    const char *from = NULL;
    const char *name = glance_result_charset(res, &from);
    if (!strstr(text, first))
        fail_msg("%s, %s (read as %s from %s): text is '%.200s'", s->charset, mode, name, from, text);
    if (strcmp(from, want_from) != 0)
        fail_msg("%s, %s: charset %s from %s, expected from %s", s->charset, mode, name, from, want_from);
}

static void declared_in_meta(void **state)
{
    for (int i = 0; i < N_SAMPLES; i++) {
        const char *forms[] = {"<meta charset=\"%s\">",
                               "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=%s\">"};
        for (int f = 0; f < 2; f++) {
            char meta[160];
            snprintf(meta, sizeof meta, forms[f], samples[i].charset);
            size_t len;
            char *html = page(&samples[i], meta, &len);
            glance_result *res;
            glance_status st = glance_extract(ctx, html, len, NULL, &res);
            check(res, st, &samples[i], f ? "meta http-equiv" : "meta charset", "meta");
            glance_result_free(res);
            free(html);
        }
    }
}

static void detected_when_undeclared(void **state)
{
    for (int i = 0; i < N_SAMPLES; i++) {
        size_t len;
        char *html = page(&samples[i], "", &len);
        glance_result *res;
        glance_status st = glance_extract(ctx, html, len, NULL, &res);
        check(res, st, &samples[i], "undeclared", "detected");
        glance_result_free(res);
        free(html);
    }
}

/* Over HTTP: declared in the Content-Type only, and declared nowhere. */
static void over_http(void **state)
{
    httpd_route routes[2 * N_SAMPLES];
    char paths[2 * N_SAMPLES][32], headers[N_SAMPLES][128];
    char *bodies[N_SAMPLES];
    for (int i = 0; i < N_SAMPLES; i++) {
        size_t len;
        bodies[i] = page(&samples[i], "", &len);
        snprintf(paths[2 * i], sizeof paths[0], "/declared/%d", i);
        snprintf(paths[2 * i + 1], sizeof paths[0], "/undeclared/%d", i);
        snprintf(headers[i], sizeof headers[0], "Content-Type: text/html; charset=%s\r\n",
                 samples[i].charset);
        routes[2 * i] = (httpd_route){.path = paths[2 * i], .headers = headers[i], .body = bodies[i], .len = len};
        routes[2 * i + 1] = (httpd_route){.path = paths[2 * i + 1], .body = bodies[i], .len = len};
    }
    httpd *h = httpd_start(routes, 2 * N_SAMPLES);
    assert_non_null(h);
    glance_options *o = OPTS("timeout=5");
    for (int i = 0; i < 2 * N_SAMPLES; i++) {
        char url[128];
        snprintf(url, sizeof url, "http://127.0.0.1:%d%.*s", httpd_port(h), (int)sizeof paths[i],
                 paths[i]);
        glance_result *res;
        glance_status st = glance_extract_url(ctx, url, o, &res);
        check(res, st, &samples[i / 2], i % 2 ? "HTTP, undeclared" : "HTTP Content-Type",
              i % 2 ? "detected" : "http");
        glance_result_free(res);
    }
    glance_options_free(o);
    httpd_stop(h);
    for (int i = 0; i < N_SAMPLES; i++)
        free(bodies[i]);
}

static void utf8_stays_utf8(void **state)
{
    /* Valid UTF-8 is never re-read, whatever the page or server says. */
    const sample s = {"UTF-8", samples[6].text};
    size_t len;
    char *html = page(&s, "<meta charset=windows-1251>", &len);
    glance_result *res;
    glance_status st = glance_extract(ctx, html, len, NULL, &res);
    check(res, st, &s, "UTF-8 declared windows-1251", "utf-8");
    glance_result_free(res);
    free(html);
}

/* A label that runs to the end of the 1024 bytes the prescan reads: it is
 * read up to there and never past (the prescan's copy of those bytes
 * ends there; reading on was a stack overflow, found by the fuzzer, that
 * the AddressSanitizer build of this test reports). */
static void declared_at_the_prescan_end(void **state)
{
    const sample *s = &samples[6]; /* windows-1251 */
    assert_string_equal(s->charset, "windows-1251");
    size_t n;
    char *rest = page(s, "", &n);
    static const char meta[] = "<meta charset=windows-1251";
    char *html = malloc(1024 + 1 + n);
    size_t pad = 1024 - (sizeof meta - 1) - 7; /* "<!--" ... "-->" */
    memcpy(html, "<!--", 4);
    memset(html + 4, ' ', pad);
    memcpy(html + 4 + pad, "-->", 3);
    memcpy(html + 7 + pad, meta, sizeof meta - 1);
    assert_int_equal(7 + pad + sizeof meta - 1, 1024);
    html[1024] = '>';
    memcpy(html + 1025, rest, n);
    glance_result *res;
    glance_status st = glance_extract(ctx, html, 1025 + n, NULL, &res);
    check(res, st, s, "meta charset at the end of the prescan", "meta");
    glance_result_free(res);
    free(html);
    free(rest);
}

int main(void)
{
    unsetenv("http_proxy");
    unsetenv("HTTP_PROXY");
    ctx = glance_context_new();
    if (!ctx)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(declared_in_meta),
        cmocka_unit_test(detected_when_undeclared),
        cmocka_unit_test(over_http),
        cmocka_unit_test(utf8_stays_utf8),
        cmocka_unit_test(declared_at_the_prescan_end),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    glance_context_free(ctx);
    return rc;
}
