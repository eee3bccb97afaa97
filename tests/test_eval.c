/* eval/: the benchmark's shingle measure, token LCS and matched blocks on
 * cases small enough to work out by hand, and the reading of peer files
 * (through `glance bench --score`, which must reproduce published figures). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "eval/eval.h"

#define assert_near(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-9)

static void test_tokens_as_python_w(void **state)
{
    (void)state;
    /* \w+ runs: punctuation splits, '_' and digits join, accents and
     * non-Latin letters are letters, a CJK run is one token. */
    assert_int_equal(eval_count_tokens("Hello, world! snake_case 42x"), 4);
    assert_int_equal(eval_count_tokens("café naïve"), 2);
    assert_int_equal(eval_count_tokens("Привет мир"), 2);
    assert_int_equal(eval_count_tokens("日本語の文章です。次の文"), 2);
    assert_int_equal(eval_count_tokens(""), 0);
    assert_int_equal(eval_count_tokens(NULL), 0);
    /* For LCS, unspaced scripts count per character; Hangul has spaces. */
    assert_int_equal(eval_count_lcs_tokens("日本語の文章です。次の文"), 11);
    assert_int_equal(eval_count_lcs_tokens("한국어 문장"), 2);
    assert_int_equal(eval_count_lcs_tokens("mixed 日本 text"), 4);
}

static void test_shingles_by_hand(void **state)
{
    (void)state;
    eval_shingles s;
    /* Truth "a b c d e": shingles abcd, bcde. Output "a b c d x": abcd,
     * bcdx. tp 1, fp 1, fn 1: each a third. */
    assert_int_equal(eval_shingle_match("a b c d e", "a b c d x", &s), 0);
    assert_near(s.tp, 1.0 / 3);
    assert_near(s.fp, 1.0 / 3);
    assert_near(s.fn, 1.0 / 3);
    assert_false(s.tokens_equal);
    /* Repeats count as a multiset: truth has "a a a a a" = aaaa twice,
     * output "a a a a" = aaaa once: tp 1, fn 1. */
    eval_shingle_match("a a a a a", "a a a a", &s);
    assert_near(s.tp, 0.5);
    assert_near(s.fp, 0);
    assert_near(s.fn, 0.5);
    /* Fewer than four tokens: the whole text is one shingle. */
    eval_shingle_match("Hello world", "hello world", &s); /* case counts */
    assert_near(s.tp, 0);
    assert_near(s.fp, 0.5);
    eval_shingle_match("Hello, world", "Hello world!", &s);
    assert_near(s.tp, 1);
    assert_true(s.tokens_equal);
    /* Empty output against a text: all false negatives. */
    eval_shingle_match("one two three four five", "", &s);
    assert_near(s.tp, 0);
    assert_near(s.fn, 1);
    /* Empty truth, non-empty output: all false positives. */
    eval_shingle_match("", "one two", &s);
    assert_near(s.fp, 1);
    /* Both empty: nothing at all, and the token lists are equal. */
    eval_shingle_match("", "  ...  ", &s);
    assert_near(s.tp + s.fp + s.fn, 0);
    assert_true(s.tokens_equal);
    /* CJK: "日本語の文章です" is one \w token, so one shingle. */
    eval_shingle_match("日本語の文章です", "日本語の文章です", &s);
    assert_near(s.tp, 1);
}

static void test_summary_means(void **state)
{
    (void)state;
    eval_summary sum = {0};
    eval_shingles a = {0.5, 0.5, 0, 0}, empty_out = {0, 0, 1, 0}, nothing = {0, 0, 0, 1};
    eval_prf z = {0};
    eval_summary_add(&sum, &a, &z, &z);         /* P 0.5, R 1 */
    eval_summary_add(&sum, &empty_out, &z, &z); /* P not counted, R 0 */
    eval_summary_add(&sum, &nothing, &z, &z);   /* P 1, R 1 */
    eval_scores s;
    eval_summary_scores(&sum, &s);
    assert_near(s.precision, (0.5 + 1) / 2);
    assert_near(s.recall, (1 + 0 + 1) / 3.0);
    assert_near(s.f1, 2 * 0.75 * (2 / 3.0) / (0.75 + 2 / 3.0));
    assert_near(s.accuracy, 1 / 3.0);
    assert_int_equal(s.pages, 3);
}

static void test_lcs_by_hand(void **state)
{
    (void)state;
    /* ABCBDAB against BDCABA: the classic LCS of 4. */
    assert_int_equal(eval_lcs_length("a b c b d a b", "b d c a b a"), 4);
    assert_int_equal(eval_lcs_length("x y z", "p q"), 0);
    assert_int_equal(eval_lcs_length("", "p q"), 0);
    eval_prf p;
    /* Truth 5 tokens, output 4 with 3 in order: P 3/4, R 3/5. */
    assert_int_equal(eval_lcs("the cat sat on mats", "the dog sat on", &p), 0);
    assert_near(p.precision, 0.75);
    assert_near(p.recall, 0.6);
    assert_near(p.f1, 2 * 0.75 * 0.6 / 1.35);
    assert_near(p.f05, 1.25 * 0.75 * 0.6 / (0.25 * 0.75 + 0.6));
    /* Japanese counts per character: 今日は晴れ vs 今日は雨: LCS 3 of 5 and 4. */
    eval_lcs("今日は晴れ", "今日は雨", &p);
    assert_near(p.precision, 0.75);
    assert_near(p.recall, 0.6);
    /* Empty output: 0; both empty: 1. */
    eval_lcs("some text", "", &p);
    assert_near(p.f1, 0);
    eval_lcs("", "", &p);
    assert_near(p.f1, 1);
    eval_lcs("", "output", &p);
    assert_near(p.precision, 0);
}

static void test_lcs_long_texts_cross_words(void **state)
{
    (void)state;
    /* 1000 tokens against the same with every tenth dropped: LCS 900 (more
     * than one 64-bit word of the bit vector, carries across words). */
    char *truth = malloc(8000), *pred = malloc(8000);
    assert_non_null(truth);
    assert_non_null(pred);
    size_t t = 0, p = 0;
    for (int i = 0; i < 1000; i++) {
        t += (size_t)sprintf(truth + t, "w%d ", i % 37);
        if (i % 10 != 0)
            p += (size_t)sprintf(pred + p, "w%d ", i % 37);
    }
    assert_int_equal(eval_lcs_length(truth, pred), 900);
    assert_int_equal(eval_lcs_length(pred, truth), 900);
    free(truth);
    free(pred);
}

static void test_blocks_by_hand(void **state)
{
    (void)state;
    eval_prf p;
    /* Three output lines, two found in the truth (white space aside). The
     * truth collapses to "First para. Second one. End here." (33
     * characters); the matched lines have 11 each. */
    const char *truth = "First para.\n\nSecond  one.\nEnd here.";
    eval_blocks(truth, "First para.\nShare this\n  Second one.", &p);
    assert_near(p.precision, 2 / 3.0);
    assert_near(p.recall, (11.0 + 11.0) / 33.0);
    eval_blocks(truth, "", &p);
    assert_near(p.f1, 0);
    eval_blocks("", "", &p);
    assert_near(p.f1, 1);
    /* CJK lines match as substrings too. */
    eval_blocks("今日は晴れ。明日は雨。", "明日は雨。", &p);
    assert_near(p.precision, 1);
    assert_near(p.recall, 5 / 11.0);
}

/* The peer files: glance bench --score reproduces the published figures. */
static void test_score_peer_files(void **state)
{
    (void)state;
    char truth[1024], cmd[4096];
    snprintf(truth, sizeof truth, "%s/bench/scrapinghub/ground-truth.json", SHARED_DIR);
    struct stat st;
    if (stat(truth, &st) != 0) {
        skip(); /* a user's clone has no ../shared */
        return;
    }
    static const struct {
        const char *peer, *line;
    } cases[] = {
        {"readability_js", "  shingles (benchmark)  0.947     0.914   0.982"},
        {"trafilatura", "  shingles (benchmark)  0.958"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s bench --score %s/bench/scrapinghub/peers/%s.json --truth %s",
                 GLANCE_BIN, SHARED_DIR, cases[i].peer, truth);
        FILE *f = popen(cmd, "r");
        assert_non_null(f);
        char buf[8192];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        assert_int_equal(pclose(f), 0);
        if (!strstr(buf, cases[i].line))
            fail_msg("%s: expected \"%s\" in:\n%s", cases[i].peer, cases[i].line, buf);
    }
}

/* A wrapped file and a bare one, with a page missing (scored as empty). */
static void test_score_reads_both_shapes(void **state)
{
    (void)state;
    char dir[] = "/tmp/glance-eval-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char truth[256], bare[256], wrapped[256], cmd[1024];
    snprintf(truth, sizeof truth, "%s/truth.json", dir);
    snprintf(bare, sizeof bare, "%s/bare.json", dir);
    snprintf(wrapped, sizeof wrapped, "%s/wrapped.json", dir);
    FILE *f = fopen(truth, "w");
    fputs("{\"p1\": {\"articleBody\": \"one two three four five\", \"url\": \"u\"},"
          " \"p2\": {\"articleBody\": \"alpha beta\"}}", f);
    fclose(f);
    f = fopen(bare, "w");
    fputs("{\"p1\": {\"articleBody\": \"one two three four five\"}}", f);
    fclose(f);
    f = fopen(wrapped, "w");
    fputs("{\"version\": \"x 1.0\", \"output\": {\"p1\": {\"articleBody\": \"one two three four five\"}}}", f);
    fclose(f);
    const char *files[] = {bare, wrapped};
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s bench --score %s --truth %s", GLANCE_BIN, files[i], truth);
        FILE *p = popen(cmd, "r");
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf - 1, p);
        buf[n] = '\0';
        assert_int_equal(pclose(p), 0);
        /* p1 perfect, p2 empty: P = 1 (p2 has no tp+fp), R = 0.5, F1 2/3;
         * accuracy 1/2. */
        if (!strstr(buf, "2 pages (1 without output") ||
            !strstr(buf, "  shingles (benchmark)  0.667     1.000   0.500    0.500"))
            fail_msg("%s:\n%s", files[i], buf);
    }
    snprintf(cmd, sizeof cmd, "%s bench --score %s/missing.json --truth %s 2>/dev/null", GLANCE_BIN,
             dir, truth);
    assert_int_equal(WEXITSTATUS(system(cmd)), 3);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokens_as_python_w),
        cmocka_unit_test(test_shingles_by_hand),
        cmocka_unit_test(test_summary_means),
        cmocka_unit_test(test_lcs_by_hand),
        cmocka_unit_test(test_lcs_long_texts_cross_words),
        cmocka_unit_test(test_blocks_by_hand),
        cmocka_unit_test(test_score_peer_files),
        cmocka_unit_test(test_score_reads_both_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
