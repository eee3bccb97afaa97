/* glance extract with many pages and glance batch, as a person runs them:
 * the outputs of many pages are each page's own, in the order given; a
 * failed page is counted and the run goes on; files per page are named
 * after their pages; batch answers every record with its id, in order,
 * from JSON lines and from a WARC file (gzip per record), and answers the
 * first records before its input has ended. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>
#include <zlib.h>

#include "run.h"

static char tmpdir[] = "/tmp/glance-many-XXXXXX";

static run_out run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static run_out run(const char *fmt, ...)
{
    char args[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return run_in(tmpdir, args);
}

static void write_file(const char *name, const char *data)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(data, f);
    fclose(f);
}

static char *file_in(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return slurp(path);
}

static const char *const pages[] = {"news.html", "article-tag.html", "gallery.html"};
#define N_PAGES (sizeof pages / sizeof pages[0])

/* Several pages to standard output: each page's text as glance extract
 * gives it alone, after a "==> PAGE <==" line, in the order given, with
 * --jobs 1 and 2 alike. */
static void many_pages_each_as_alone(void **state)
{
    char expect[1 << 16] = "";
    size_t used = 0;
    for (size_t i = 0; i < N_PAGES; i++) {
        run_out one = run("extract --offline %s/%s", FIXTURES_DIR, pages[i]);
        assert_int_equal(one.code, 0);
        used += (size_t)snprintf(expect + used, sizeof expect - used, "%s==> %s/%s <==\n%s",
                                 i ? "\n" : "", FIXTURES_DIR, pages[i], one.out);
        run_free(&one);
    }
    for (int jobs = 1; jobs <= 2; jobs++) {
        run_out r = run("extract --offline --jobs %d %s/%s %s/%s %s/%s", jobs, FIXTURES_DIR,
                        pages[0], FIXTURES_DIR, pages[1], FIXTURES_DIR, pages[2]);
        assert_int_equal(r.code, 0);
        assert_string_equal(r.out, expect);
        assert_non_null(strstr(r.err, "3 pages: 3 with content, 0 without main content, 0 failed"));
        run_free(&r);
    }
}

/* A page that fails is said on stderr and counted; the others are printed;
 * the exit status is the worst page's. As JSON lines, every page has its
 * line, with "input" and its status. */
static void a_failed_page_is_counted(void **state)
{
    write_file("blank.html", "<html><body><div style='height:3000px'></div></body></html>");
    run_out r = run("extract --offline %s/news.html %s/missing.html %s/blank.html", FIXTURES_DIR,
                    tmpdir, tmpdir);
    assert_int_equal(r.code, 3);
    assert_non_null(strstr(r.out, "Harbour town"));
    assert_non_null(strstr(r.err, "missing.html"));
    assert_non_null(strstr(r.err, "3 pages: 1 with content, 1 without main content, 1 failed"));
    run_free(&r);

    r = run("extract --offline --format json %s/news.html %s/missing.html %s/blank.html",
            FIXTURES_DIR, tmpdir, tmpdir);
    assert_int_equal(r.code, 3);
    static const char *const want[] = {"ok", "io", "nocontent"};
    char *save = NULL, *line = strtok_r(r.out, "\n", &save);
    for (int i = 0; i < 3; i++, line = strtok_r(NULL, "\n", &save)) {
        assert_non_null(line);
        json_object *o = json_tokener_parse(line), *v;
        assert_non_null(o);
        assert_true(json_object_object_get_ex(o, "input", &v));
        assert_non_null(strstr(json_object_get_string(v), i == 0 ? "news.html" : i == 1 ? "missing" : "blank"));
        assert_true(json_object_object_get_ex(o, "status", &v));
        assert_string_equal(json_object_get_string(v), want[i]);
        json_object_put(o);
    }
    assert_null(line);
    run_free(&r);
}

/* --output-dir: a file per page named after it, with the format's
 * extension; --input-dir keeps the subfolders in the names; a .html.gz is
 * read as its page; two pages that would share a file are a usage error. */
static void output_dir_names(void **state)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/in/sub && cp %s/news.html %s/in/a.html && gzip -c %s/gallery.html > %s/in/sub/b.html.gz",
             tmpdir, FIXTURES_DIR, tmpdir, FIXTURES_DIR, tmpdir);
    assert_int_equal(system(cmd), 0);
    run_out r = run("extract --offline --jobs 2 --input-dir %s/in --output-dir %s/pages-out", tmpdir, tmpdir);
    assert_int_equal(r.code, 0);
    assert_string_equal(r.out, "");
    run_free(&r);
    char *a = file_in("pages-out/a.txt"), *b = file_in("pages-out/sub/b.txt");
    run_out one = run("extract --offline %s/news.html", FIXTURES_DIR);
    assert_string_equal(a, one.out);
    run_free(&one);
    one = run("extract --offline %s/gallery.html", FIXTURES_DIR);
    assert_string_equal(b, one.out);
    run_free(&one);
    free(a);
    free(b);

    r = run("extract --offline --format json %s/in/sub/b.html.gz --output-dir %s/json", tmpdir, tmpdir);
    assert_int_equal(r.code, 0);
    run_free(&r);
    char *j = file_in("json/b.json");
    json_object *o = json_tokener_parse(j), *v;
    assert_non_null(o);
    assert_true(json_object_object_get_ex(o, "status", &v));
    assert_string_equal(json_object_get_string(v), "ok");
    json_object_put(o);
    free(j);

    r = run("extract --offline %s/in/a.html %s/news.html --output-dir %s/clash", tmpdir,
            FIXTURES_DIR, tmpdir);
    assert_int_equal(r.code, 0); /* a.txt and news.txt: no clash */
    run_free(&r);
    r = run("extract --offline %s/news.html %s/in/a.html %s/in/../in/a.html --output-dir %s/clash2",
            FIXTURES_DIR, tmpdir, tmpdir, tmpdir);
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "a.txt"));
    run_free(&r);

    /* -o FILE: the same as standard output. */
    r = run("extract --offline %s/news.html -o %s/one.txt", FIXTURES_DIR, tmpdir);
    assert_int_equal(r.code, 0);
    assert_string_equal(r.out, "");
    run_free(&r);
    char *got = file_in("one.txt");
    one = run("extract --offline %s/news.html", FIXTURES_DIR);
    assert_string_equal(got, one.out);
    run_free(&one);
    free(got);
}

/* The JSON lines of a batch run, one object each; *n of them. */
static json_object **lines_of(char *out, size_t *n)
{
    json_object **v = NULL;
    *n = 0;
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        v = realloc(v, (*n + 1) * sizeof *v);
        v[*n] = json_tokener_parse(line);
        if (!v[*n])
            fail_msg("not a JSON line: %.200s", line);
        (*n)++;
    }
    return v;
}

static const char *str_of(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && v ? json_object_get_string(v) : NULL;
}

/* Writes a JSON string of a file's text to f. */
static void put_json_file(FILE *f, const char *path)
{
    char *text = slurp(path);
    json_object *s = json_object_new_string(text);
    fputs(json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN), f);
    json_object_put(s);
    free(text);
}

/* JSON lines in, a line per record out, in order, each with its id, with
 * --jobs 2 as with 1; a bad line is a record that failed; the texts are
 * glance extract's. */
static void batch_json_lines(void **state)
{
    char path[512], page[512];
    snprintf(path, sizeof path, "%s/records.jsonl", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 12; i++) {
        snprintf(page, sizeof page, "%s/%s", FIXTURES_DIR, pages[i % N_PAGES]);
        fprintf(f, "{\"id\": \"r%d\", \"html\": ", i);
        put_json_file(f, page);
        fputs("}\n", f);
        if (i == 5)
            fputs("\nthis is not JSON\n", f);
    }
    fputs("{\"id\": 99}\n", f);
    fclose(f);

    run_out one = run("extract --offline --format json %s/news.html", FIXTURES_DIR);
    json_object *alone = json_tokener_parse(one.out);
    assert_non_null(alone);
    for (int jobs = 1; jobs <= 2; jobs++) {
        run_out r = run("batch --offline --jobs %d --fields title,text,method < %s", jobs, path);
        assert_int_equal(r.code, 0);
        size_t n;
        json_object **v = lines_of(r.out, &n);
        assert_int_equal(n, 14);
        for (size_t k = 0, rec = 0; k < n; k++) {
            if (k == 6) { /* the bad line: its place as its id */
                assert_string_equal(str_of(v[k], "status"), "badinput");
                assert_string_equal(str_of(v[k], "id"), "7");
                assert_non_null(strstr(str_of(v[k], "message"), "not a JSON object"));
                continue;
            }
            if (k == 13) {
                assert_string_equal(str_of(v[k], "id"), "99");
                assert_string_equal(str_of(v[k], "status"), "badinput");
                continue;
            }
            char id[16];
            snprintf(id, sizeof id, "r%zu", rec);
            assert_string_equal(str_of(v[k], "id"), id);
            assert_string_equal(str_of(v[k], "status"), "ok");
            assert_string_equal(str_of(v[k], "method"), "score");
            if (rec % N_PAGES == 0) {
                assert_string_equal(str_of(v[k], "text"), str_of(alone, "text"));
                assert_string_equal(str_of(v[k], "title"), str_of(alone, "title"));
            }
            rec++;
        }
        assert_non_null(strstr(r.err, "14 records: 12 ok, 0 no main content, 2 failed"));
        for (size_t k = 0; k < n; k++)
            json_object_put(v[k]);
        free(v);
        run_free(&r);
    }
    json_object_put(alone);
    run_free(&one);

    run_out r = run("batch --fields text,nosuchfield < %s", path);
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "nosuchfield"));
    run_free(&r);
}

/* One WARC record, as a gzip member of its own, appended to `path`. */
static void warc_append(const char *path, const char *type, const char *uri, const char *id,
                        const char *block, size_t len)
{
    gzFile g = gzopen(path, "ab");
    assert_non_null(g);
    gzprintf(g, "WARC/1.0\r\nWARC-Type: %s\r\n", type);
    if (uri)
        gzprintf(g, "WARC-Target-URI: %s\r\n", uri);
    gzprintf(g, "WARC-Record-ID: <urn:uuid:%s>\r\nContent-Length: %zu\r\n\r\n", id, len);
    gzwrite(g, block, (unsigned)len);
    gzputs(g, "\r\n\r\n");
    gzclose(g);
}

/* A WARC file, gzip per record as Common Crawl's: response records give
 * lines with their WARC-Record-ID; the payload is read in its
 * Content-Type's charset, chunked and gzip-encoded payloads are undone; an
 * HTTP 404 and an image are records that failed; other types are skipped. */
static void batch_warc(void **state)
{
    char path[512], block[1 << 17];
    snprintf(path, sizeof path, "%s/pages.warc.gz", tmpdir);
    unlink(path);
    warc_append(path, "warcinfo", NULL, "info", "software: test\r\n", 16);
    char *news = NULL;
    {
        char p[512];
        snprintf(p, sizeof p, "%s/news.html", FIXTURES_DIR);
        news = slurp(p);
    }
    int n = snprintf(block, sizeof block,
                     "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n%s", news);
    warc_append(path, "request", "https://example.org/news", "req", "GET /news HTTP/1.1\r\n\r\n", 22);
    warc_append(path, "response", "https://example.org/news", "news", block, (size_t)n);
    /* ISO-8859-1, said only by the Content-Type */
    static const char latin[] = "<title>Caf\xe9</title><p>Le caf\xe9 est tr\xe8s bon, vraiment tr\xe8s "
                                "bon, et les gens du port y viennent chaque matin.</p>";
    n = snprintf(block, sizeof block,
                 "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\n\r\n%s", latin);
    warc_append(path, "response", "https://example.org/cafe", "latin", block, (size_t)n);
    /* chunked, then gzip */
    static const char zipped_page[] = "<title>Zipped</title><p>A compressed page, sent in chunks, "
                                      "with enough words in it to be its main content.</p>";
    unsigned char gz[4096];
    z_stream z = {0};
    deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (unsigned char *)zipped_page;
    z.avail_in = sizeof zipped_page - 1;
    z.next_out = gz;
    z.avail_out = sizeof gz;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t gz_len = sizeof gz - z.avail_out;
    deflateEnd(&z);
    n = snprintf(block, sizeof block,
                 "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n%zx\r\n",
                 (size_t)10);
    memcpy(block + n, gz, 10);
    n += 10;
    n += snprintf(block + n, sizeof block - (size_t)n, "\r\n%zx\r\n", gz_len - 10);
    memcpy(block + n, gz + 10, gz_len - 10);
    n += (int)(gz_len - 10);
    n += snprintf(block + n, sizeof block - (size_t)n, "\r\n0\r\n\r\n");
    warc_append(path, "response", "https://example.org/zipped", "zipped", block, (size_t)n);
    n = snprintf(block, sizeof block, "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n<p>gone</p>");
    warc_append(path, "response", "https://example.org/gone", "gone", block, (size_t)n);
    n = snprintf(block, sizeof block, "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG");
    warc_append(path, "response", "https://example.org/i.png", "png", block, (size_t)n);
    free(news);

    run_out r = run("batch --offline --jobs 2 --fields title,text,url < %s", path);
    assert_int_equal(r.code, 0);
    size_t k;
    json_object **v = lines_of(r.out, &k);
    assert_int_equal(k, 5);
    assert_string_equal(str_of(v[0], "id"), "urn:uuid:news");
    assert_string_equal(str_of(v[0], "status"), "ok");
    assert_string_equal(str_of(v[0], "url"), "https://example.org/news");
    assert_non_null(strstr(str_of(v[0], "title"), "Harbour town"));
    assert_string_equal(str_of(v[1], "title"), "Caf\xc3\xa9");
    assert_non_null(strstr(str_of(v[1], "text"), "tr\xc3\xa8s bon"));
    assert_string_equal(str_of(v[2], "title"), "Zipped");
    assert_string_equal(str_of(v[3], "status"), "fetch");
    assert_string_equal(str_of(v[3], "message"), "HTTP 404");
    assert_string_equal(str_of(v[4], "status"), "badinput");
    assert_non_null(strstr(r.err, "2 WARC records other than responses skipped"));
    for (size_t i = 0; i < k; i++)
        json_object_put(v[i]);
    free(v);
    run_free(&r);

    /* The texts are glance extract's. */
    run_out one = run("extract --offline --format json %s/news.html", FIXTURES_DIR);
    json_object *alone = json_tokener_parse(one.out);
    r = run("batch --offline --fields text --input warc %s", path);
    v = lines_of(r.out, &k);
    assert_string_equal(str_of(v[0], "text"), str_of(alone, "text"));
    for (size_t i = 0; i < k; i++)
        json_object_put(v[i]);
    free(v);
    run_free(&r);
    json_object_put(alone);
    run_free(&one);

    /* Cut short: the records before are answered, the status says so. */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "head -c 2000 %s > %s/cut.warc.gz", path, tmpdir);
    assert_int_equal(system(cmd), 0);
    r = run("batch --offline %s/cut.warc.gz", tmpdir);
    assert_int_equal(r.code, 3);
    run_free(&r);
}

/* A stream is answered as it comes: the first record's line is out while
 * the input is still open (the reader does not wait for its end). */
static void batch_answers_before_the_end(void **state)
{
    int in[2], out[2];
    assert_int_equal(pipe(in), 0);
    assert_int_equal(pipe(out), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execl(GLANCE_BIN, "glance", "batch", "--offline", "--jobs", "2", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    FILE *w = fdopen(in[1], "w"), *rd = fdopen(out[0], "r");
    fputs("{\"id\": \"first\", \"html\": \"<title>One</title><p>The first record of a stream that "
          "has not ended yet, with words enough.</p>\"}\n",
          w);
    fflush(w);
    char line[4096];
    alarm(60); /* a hang is a failure, not a stuck test */
    assert_non_null(fgets(line, sizeof line, rd));
    alarm(0);
    assert_non_null(strstr(line, "\"id\":\"first\""));
    fputs("{\"id\": \"second\", \"html\": \"<p>and then the second one, also with words.</p>\"}\n", w);
    fclose(w);
    assert_non_null(fgets(line, sizeof line, rd));
    assert_non_null(strstr(line, "\"id\":\"second\""));
    assert_null(fgets(line, sizeof line, rd));
    fclose(rd);
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

static int setup(void **state)
{
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(many_pages_each_as_alone),
        cmocka_unit_test(a_failed_page_is_counted),
        cmocka_unit_test(output_dir_names),
        cmocka_unit_test(batch_json_lines),
        cmocka_unit_test(batch_warc),
        cmocka_unit_test(batch_answers_before_the_end),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
